#!/usr/bin/env bash
# Every iostat -x figure, checked by an independent computation: two
# /proc/diskstats snapshots 1.5 s apart (lines of 17, 20, 15, 14 and 11
# counters, an old kernel's 4-field partition line, a 3-counter line, a
# disk never used), replayed as a trace with -p ALL into a recording, and
# exported as CSV and JSON.  The small Python script below computes each
# figure from the two snapshots with the definitions of sysstat's iostat(1)
# and the kernel's Documentation/admin-guide/iostats.rst, and the two must
# agree field by field to 1e-6 relative.
. "$(dirname "$0")/lib.sh"
BASE="$FIX/proc-traces/idle-30s/samples/00000.txt"
command -v python3 >/dev/null || { skip "iostat -x figures" "python3 not installed"; exit 0; }

cat >"$TMPD/ds0" <<'DS'
   8       0 sda 120000 3000 9600000 80000 90000 45000 14400000 300000 2 500000 700000 1000 20 800000 900 4000 3000
   8       1 sda1 60000 1500 4800000 40000 45000 22000 7200000 150000 0 250000 350000 500 10 400000 450 0 0
   8       2 sda2 100 0 800 50 0 0 0 0 0 60 50 0 0 0 0 0 0
 259       0 nvme0n1 500000 10 64000000 250000 400000 20 51200000 120000 5 900000 1500000 200 0 1600000 40 9000 1800 123 456 789
 259       1 nvme0n1p1 499000 10 63900000 249000 399000 20 51100000 119000 0 899000 1490000 200 0 1600000 40 0 0
   3       0 hdc 7000 200 56000 9000 3000 900 24000 12000 0 15000 21000
   3       1 hdc1 6900 55200 2900 23200
   8      16 sdb 3000 100 24000 4000 2000 50 16000 8000 0 9000 12000 0 0 0
 252       0 vdb 4000 0 32000 2000 1000 0 8000 3000 1 4000 5000 10 0 2048 5
   8      32 sdc 1 2 3
   1       0 ram0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
DS
cat >"$TMPD/ds1" <<'DS'
   8       0 sda 121500 3150 9720000 81200 92400 46500 14592000 303600 3 501275 704200 1030 23 801920 915 4090 3054
   8       1 sda1 60700 1520 4856000 40700 46500 22900 7320000 152000 1 250900 352500 520 11 401000 460 0 0
   8       2 sda2 100 0 800 50 0 0 0 0 0 60 50 0 0 0 0 0 0
 259       0 nvme0n1 515000 10 65920000 257500 406000 320 51968000 121800 4 901350 1510500 260 4 1630720 52 9300 1890 999 999 999
 259       1 nvme0n1p1 514000 10 65820000 256500 405000 320 51868000 120800 2 900340 1500400 260 4 1630720 52 0 0
   3       0 hdc 7150 230 57200 9300 3040 940 24320 12160 1 15420 21450
   3       1 hdc1 7040 56320 2940 23520
   8      16 sdb 3090 106 24720 4180 2060 53 16480 8300 0 9240 12400 7 7 7
 252       0 vdb 4300 0 34400 2150 1000 0 8000 3000 0 4600 5300 25 3 5120 11
   8      32 sdc 4 5 6
   1       0 ram0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
DS
python3 "$TOP/tests/e2e/mk_disk_trace.py" "$BASE" "$TMPD/trace" 1.5 "$TMPD/ds0" "$TMPD/ds1" \
	|| { fail "make the trace"; exit 1; }

"$IODASH" --batch --fast --proc-root "$TMPD/trace" -p ALL -o "$TMPD/rec" >"$TMPD/batch.txt" 2>"$TMPD/err"; rc=$?
[ $rc -eq 0 ] && pass "a trace of odd diskstats lines replays, exit 0" \
	|| fail "a trace of odd diskstats lines replays, exit 0" "exit $rc: $(head -1 "$TMPD/err")"
"$IODASH" export --csv "$TMPD/rec" >"$TMPD/x.csv" 2>>"$TMPD/err" && "$IODASH" export --json "$TMPD/rec" >"$TMPD/x.json" 2>>"$TMPD/err" \
	|| fail "export" "$(tail -1 "$TMPD/err")"

cat >"$TMPD/check.py" <<'PY'
# Independent of iodash: iostat -x figures from two diskstats snapshots.
import csv, io, json, sys

ds0, ds1, dt, xcsv, xjson = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5]

def read(path):
    """name -> {field number 1..17: value} as iostat reads a line: 4 fields
    (old partition line: reads, sectors read, writes, sectors written),
    else the first 11, 15 or 17; other counts: nothing."""
    out = {}
    for line in open(path):
        w = line.split()
        name, v = w[2], [int(x) for x in w[3:]]
        if len(v) == 4:
            out[name] = {1: v[0], 3: v[1], 5: v[2], 7: v[3]}
        elif len(v) >= 11:
            n = 17 if len(v) >= 17 else 15 if len(v) >= 15 else 11
            out[name] = {i + 1: v[i] for i in range(n)}
        else:
            out[name] = {}
    return out

def figures(a, b):
    d = {k: b[k] - a[k] for k in b if k in a}
    f = {}
    def ratio(x, n): return x / n if n else 0.0
    # reads (1-4), writes (5-8), discards (12-15): the same definitions
    for p, ios, mrg, sec, ms in (('r', 1, 2, 3, 4), ('w', 5, 6, 7, 8), ('d', 12, 13, 14, 15)):
        if ios in d and sec in d:
            f[p + '_s'] = d[ios] / dt                       # requests completed / s
            f[p + 'kB_s'] = d[sec] * 512 / 1024 / dt        # sectors are 512 bytes
            f[p + 'areq_sz'] = ratio(d[sec] * 512 / 1024, d[ios])   # kB per request
        if mrg in d:
            f[p + 'rqm_s'] = d[mrg] / dt                    # merged / s
            f[p + 'rqm_pct'] = ratio(100.0 * d[mrg], d[mrg] + d[ios])
        if ms in d:
            f[p + '_await'] = ratio(d[ms], d[ios])          # ms per request
    if 16 in d:
        f['f_s'] = d[16] / dt
        f['f_await'] = ratio(d[17], d[16])
    if 10 in d:
        f['util'] = 100.0 * d[10] / (dt * 1000)             # busy ms over the interval
        f['aqu_sz'] = d[11] / (dt * 1000)                   # weighted ms over the interval
    return f

names = ['r_s', 'w_s', 'rkB_s', 'wkB_s', 'rrqm_s', 'wrqm_s', 'rrqm_pct', 'wrqm_pct',
         'r_await', 'w_await', 'rareq_sz', 'wareq_sz', 'aqu_sz', 'util', 'd_s', 'dkB_s',
         'drqm_s', 'drqm_pct', 'd_await', 'dareq_sz', 'f_s', 'f_await']
a, b = read(ds0), read(ds1)
# listed: every device used since boot (ram0 never was); sdc unreadable: n/a
want = {n: figures(a[n], b[n]) for n in b if n != 'ram0'}

rows = list(csv.reader(open(xcsv)))   # export --csv: the samples table alone
head, row = rows[0], [r for r in rows[1:] if r and r[1] == '1'][0]
got_csv = dict(zip(head, row))
js = json.load(open(xjson))
got_json = {d['name']: d for d in js['samples'][1]['disks']}

bad, checked = [], 0
for n, f in want.items():
    if n not in got_json:
        bad.append('%s missing from the JSON export' % n)
    for k in names:
        cell = got_csv.get('%s.%s' % (n, k))
        jv = got_json.get(n, {}).get(k)
        if k not in f:
            if cell not in ('', None) or jv is not None:
                bad.append('%s.%s: want n/a, got csv %r json %r' % (n, k, cell, jv))
            continue
        for src, v in (('csv', cell), ('json', jv)):
            try:
                v = float(v)
            except (TypeError, ValueError):
                bad.append('%s.%s %s: want %.9g, got %r' % (n, k, src, f[k], v))
                continue
            if abs(v - f[k]) > 1e-6 * max(abs(f[k]), 1e-3):
                bad.append('%s.%s %s: want %.9g, got %.9g' % (n, k, src, f[k], v))
            checked += 1
for n in got_json:
    if n not in want:
        bad.append('%s exported but not wanted' % n)
print('checked %d figures of %d devices' % (checked, len(want)))
for x in bad:
    print('BAD ' + x)
sys.exit(1 if bad else 0)
PY
python3 "$TMPD/check.py" "$TMPD/ds0" "$TMPD/ds1" 1.5 "$TMPD/x.csv" "$TMPD/x.json" >"$TMPD/check.txt" 2>&1; rc=$?
[ $rc -eq 0 ] && pass "every iostat -x figure equals the independent computation to 1e-6 ($(head -1 "$TMPD/check.txt"))" \
	|| fail "every iostat -x figure equals the independent computation to 1e-6" "$(grep -m3 -v '^checked' "$TMPD/check.txt" | tr '\n' ';')"

# partitions are listed right under their disk, never added to it
hdr=$(grep -m1 '^# time' "$TMPD/batch.txt")
echo "$hdr" | grep -q 'sda.r_kBps .* sda1.r_kBps .* sda2.r_kBps .* nvme0n1.r_kBps .* nvme0n1p1.r_kBps .* hdc.r_kBps .* hdc1.r_kBps' \
	&& pass "-p ALL: partitions under their disks" || fail "-p ALL: partitions under their disks" "$hdr"
# without -p: no partitions; ram0 (never used) only with --all-disks
"$IODASH" --batch --fast --proc-root "$TMPD/trace" >"$TMPD/plain.txt" 2>&1
hdr=$(grep -m1 '^# time' "$TMPD/plain.txt")
if echo "$hdr" | grep -q 'sda.r_kBps' && ! echo "$hdr" | grep -Eq 'sda1|nvme0n1p1|hdc1|ram0'; then
	pass "default: whole disks used since boot only"
else
	fail "default: whole disks used since boot only" "$hdr"
fi
"$IODASH" --batch --fast --proc-root "$TMPD/trace" --all-disks >"$TMPD/all.txt" 2>&1
grep -m1 '^# time' "$TMPD/all.txt" | grep -q 'ram0.r_kBps' \
	&& pass "--all-disks lists ram0" || fail "--all-disks lists ram0" "$(grep -m1 '^# time' "$TMPD/all.txt")"

# --columns: iostat's names, n/a where the line lacks the field
"$IODASH" --batch --fast --proc-root "$TMPD/trace" -p hdc --columns 'r/s,%rrqm,rareq-sz,f_await' >"$TMPD/cols.txt" 2>&1
grep -m1 '^# time' "$TMPD/cols.txt" | grep -q ' hdc.r_s hdc.rrqm_pct hdc.rareq_sz hdc.f_await hdc1.r_s hdc1.rrqm_pct hdc1.rareq_sz hdc1.f_await' \
	&& pass "--columns names the figures per disk" || fail "--columns names the figures per disk" "$(grep -m1 '^# time' "$TMPD/cols.txt")"
line=$(grep '^1\.50 ' "$TMPD/cols.txt")
# hdc: 150 reads / 1.5 s, 30 merged of 180, 600 kB / 150; 11 fields: no flushes
# hdc1 (4 fields): 140 reads, 560 kB / 140 reads; no merges, no flushes
echo "$line" | grep -q ' 100.00 16.67 4.00 n/a 93.33 n/a 4.00 n/a ' \
	&& pass "--columns values, n/a for a field the line lacks" || fail "--columns values" "$line"
"$IODASH" --batch --count 1 --columns 'r/s,nonsense' >/dev/null 2>"$TMPD/e"; rc=$?
[ $rc -eq 2 ] && grep -q "'nonsense' is not a disk figure" "$TMPD/e" \
	&& pass "--columns with an unknown name: usage error, exit 2" || fail "--columns unknown name" "exit $rc: $(cat "$TMPD/e")"
"$IODASH" --count 1 --columns r_s >/dev/null 2>"$TMPD/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--columns picks what --batch prints" "$TMPD/e" \
	&& pass "--columns without --batch: usage error, exit 2" || fail "--columns without --batch" "exit $rc: $(cat "$TMPD/e")"
# a sweep's -p is its parameter: a word without '=' is a typo, not a disk
"$IODASH" --batch --no-record sweep -p clients -- echo '{clients}' >/dev/null 2>"$TMPD/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- "-p wants NAME=V1,V2,..., not 'clients' (a sweep's partitions: --partitions)" "$TMPD/e" \
	&& pass "sweep -p WORD: usage error naming --partitions" || fail "sweep -p WORD" "exit $rc: $(cat "$TMPD/e")"
# no --count: the sweep ends with its run (two samples could run out before
# the run started on a loaded machine, and the sweep then failed)
"$IODASH" --batch --no-record -i 0.1 sweep --partitions ALL -p c=1 -- echo '{c}' >/dev/null 2>"$TMPD/e"; rc=$?
[ $rc -eq 0 ] && pass "sweep --partitions ALL -p c=1 runs" || fail "sweep --partitions ALL" "exit $rc: $(cat "$TMPD/e")"

# the screen's disk table: partitions indented right under their disk,
# the figures that fit at 160 columns, n/a for a 4-field partition's await
tm_start 160 45 "'$IODASH' --proc-root '$TMPD/trace' -p ALL"
if tm_wait ' sda1 ' 8; then
	scr=$(tm_screen)
	echo "$scr" | grep -A1 '^sda ' | tail -1 | grep -q '^ sda1 ' \
		&& pass "screen: sda1 indented right under sda" || fail "screen: sda1 under sda" "$(echo "$scr" | grep -A3 '^Device')"
	echo "$scr" | grep -q '^Device .*%util  *rareq-sz  *wareq-sz  *rrqm/s' \
		&& pass "screen: the disk table goes on past %util with what fits" || fail "screen: table columns" "$(echo "$scr" | grep '^Device')"
	echo "$scr" | grep '^ hdc1 ' | grep -q '4.00 .*n/a' \
		&& pass "screen: hdc1 (4 fields) shows rareq-sz, n/a for await" || fail "screen: hdc1 row" "$(echo "$scr" | grep 'hdc1')"
else
	fail "screen: partitions in the disk table" "$(tm_screen | head -30)"
fi
tm send-keys -t t q
