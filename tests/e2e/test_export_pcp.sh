#!/usr/bin/env bash
# export --pcp: a recording (the knob sweep of tests/fixtures/recordings)
# as a PCP archive, read back with pmdumplog (Debian package pcp): the
# recorded dirty level and disk write rate at the recorded times, sample
# by sample; the host, kernel and knobs as labels; a mark at each run
# boundary; and the refusals.
. "$(dirname "$0")/lib.sh"

REC="$FIX/recordings/knobs-sweep-6.18.rec"
"$IODASH" export --pcp "$TMPD/x" --csv "$REC" >/dev/null 2>"$TMPD/e"; rc=$?
check "export --pcp with --csv: usage error, exit 2" [ $rc -eq 2 ]
"$IODASH" --pcp "$TMPD/x" --batch --count 1 >/dev/null 2>"$TMPD/e"; rc=$?
check "--pcp outside export: usage error, exit 2" [ $rc -eq 2 ]
command -v pmdumplog >/dev/null || { skip "export --pcp" "no pmdumplog (Debian package pcp): make deps installs it"; exit 0; }

"$IODASH" export --pcp "$TMPD/a" "$REC" 2>"$TMPD/e"; rc=$?
check "export --pcp: exit 0, nothing on stderr" bash -c "[ $rc -eq 0 ] && [ ! -s '$TMPD/e' ]"
check "export --pcp: the archive's three files" bash -c "[ -s '$TMPD/a.0' ] && [ -s '$TMPD/a.index' ] && [ -s '$TMPD/a.meta' ]"
"$IODASH" export --pcp "$TMPD/a" "$REC" 2>"$TMPD/e"; rc=$?
check "export --pcp over an existing archive: exit 1, said in one line" bash -c "[ $rc -eq 1 ] && [ \$(wc -l <'$TMPD/e') -eq 1 ]"

# what the recording says, sample by sample: UTC time, dirty kB, vda kB/s written
"$IODASH" export --csv "$REC" >"$TMPD/csv"
python3 - "$TMPD/csv" >"$TMPD/want" <<'PY'
import csv, sys, datetime
rows = []
with open(sys.argv[1]) as f:
    lines = []
    for line in f:
        if line.startswith('#'):
            if lines: break
            continue
        if not line.strip():
            break
        lines.append(line)
for r in csv.DictReader(lines):
    t = datetime.datetime.fromtimestamp(int(r['realtime_ns']) // 1000 / 1e6, datetime.timezone.utc)
    print(t.strftime('%H:%M:%S.%f'), r['dirty_kb'], r.get('vda.wkB_s') or '-')
PY
# what the archive says: pmdumplog in the archive's time zone (UTC)
pmdumplog -z "$TMPD/a" iodash.dirty iodash.disk.write 2>/dev/null | awk '
	/^[0-9][0-9]:[0-9][0-9]:/ { t = $1; next }
	/iodash.dirty/ { d[t] = $NF; if (!(t in seen)) { order[n++] = t; seen[t] = 1 } }
	/iodash.disk.write/ { w[t] = "-" }
	/inst \[[0-9]+ or "vda"\]/ { w[t] = $NF }
	END { for (i = 0; i < n; i++) print order[i], d[order[i]], (order[i] in w) ? w[order[i]] : "-" }' >"$TMPD/have"
n=$(wc -l <"$TMPD/want")
check "export --pcp: every sample's time and dirty level ($n samples)" \
	bash -c "[ $n -gt 40 ] && cmp -s <(cut -d' ' -f1,2 '$TMPD/want') <(cut -d' ' -f1,2 '$TMPD/have')"
check "export --pcp: the disk's write rate at each time (9 digits)" python3 - "$TMPD/want" "$TMPD/have" <<'PY'
import sys
want = [l.split() for l in open(sys.argv[1])]
have = [l.split() for l in open(sys.argv[2])]
bad = 0
for a, b in zip(want, have):
    if a[2] == '-' or a[2] == '':
        continue
    x, y = float(a[2]), float(b[2]) if b[2] != '-' else -1
    if abs(x - y) > 1e-3 * max(1.0, abs(x)):
        bad += 1
sys.exit(1 if bad or len(want) != len(have) else 0)
PY
pmdumplog -z -e "$TMPD/a" >"$TMPD/labels" 2>&1
check "export --pcp: host, kernel and knobs as labels" \
	bash -c "grep -q '\"kernel\":\"6.18' '$TMPD/labels' && grep -q '\"knobs\":\"dirty_background_bytes=' '$TMPD/labels' && pmdumplog -L '$TMPD/a' | grep -q 'from host vm'"
runs=$(awk -F'\t' '$1 == "E" && $3 == "run_start"' "$REC" | wc -l)
marks=$(pmdumplog -z "$TMPD/a" 2>/dev/null | grep -c '<mark>')
check "export --pcp: a mark at each run boundary ($marks marks, $runs runs)" [ "$marks" -ge "$runs" ] 
"$IODASH" export --pcp "$TMPD/no/such/dir/a" "$REC" 2>"$TMPD/e"; rc=$?
check "export --pcp into a missing directory: exit 1, one line naming it" \
	bash -c "[ $rc -eq 1 ] && [ \$(wc -l <'$TMPD/e') -eq 1 ] && grep -q 'no/such/dir' '$TMPD/e'"

# what iodash writes, it reads back: view of the archive shows the
# recording's samples, every figure of --columns all the same (the disks'
# counters and the recording's own clock are in the archive); only what
# the benchmark's records gave (throttled tasks, tracepoint pauses) is not
cat >"$TMPD/same.py" <<'PY'
import sys
def load(p):
    hdr, rows = None, []
    for l in open(p):
        if l.startswith("# time"):
            hdr = l[2:].split()
        elif l[:1].isdigit() and hdr:
            rows.append(dict(zip(hdr, l.split())))
    return rows
a, b = load(sys.argv[1]), load(sys.argv[2])
bench = {"throttled_tasks", "pauses_s", "paused_ms_s"}
assert len(a) == len(b) and len(a) > 40, (len(a), len(b))
for x, y in zip(a, b):
    assert set(x) == set(y) - bench, sorted(set(x) ^ set(y))
    diff = [(k, x[k], y[k]) for k in x if x[k] != y[k]]
    assert not diff, (x["time"], diff[:5])
print(len(a), "samples,", len(a[0]), "columns")
PY
for f in knobs-sweep-6.18 knobs-sweep-as-2.6.24; do
	: >"$TMPD/pyerr"
	"$IODASH" export --pcp "$TMPD/rt-$f" "$FIX/recordings/$f.rec" 2>"$TMPD/e"
	"$IODASH" view --batch --fast --columns all "$TMPD/rt-$f" >"$TMPD/va" 2>"$TMPD/e"; rc=$?
	"$IODASH" view --batch --columns all "$FIX/recordings/$f.rec" >"$TMPD/vr" 2>/dev/null
	if [ $rc -eq 0 ] && [ ! -s "$TMPD/e" ] && python3 "$TMPD/same.py" "$TMPD/va" "$TMPD/vr" >"$TMPD/n" 2>"$TMPD/pyerr"; then
		pass "view of export --pcp's archive: the recording's samples ($f: $(cat "$TMPD/n"))"
	else
		fail "view of export --pcp's archive ($f)" "rc=$rc $(head -1 "$TMPD/e") $(tail -1 "$TMPD/pyerr")"
	fi
done
# and as pmlogger writes them: pmdalinux's names and PMIDs, the page size
pmdumplog -z "$TMPD/rt-knobs-sweep-6.18" disk.dev.blkwrite mem.vmstat.nr_dirty hinv.pagesize >"$TMPD/dl" 2>&1
check "export --pcp: disk.dev, mem.vmstat and hinv.pagesize at pmdalinux's PMIDs" \
	bash -c "grep -q '60.0.7 (disk.dev.blkwrite)' '$TMPD/dl' && grep -q '60.28.0 (mem.vmstat.nr_dirty)' '$TMPD/dl' && grep -q '60.1.11 (hinv.pagesize): value 4096' '$TMPD/dl'"
# meminfo (read once a second): mem.util.dirty only in the records of the
# samples it was read for, as the CSV has it only there
"$IODASH" --batch -i 0.5 --count 7 --no-trace --no-publish -o "$TMPD/mi.rec" >/dev/null 2>&1
"$IODASH" export --pcp "$TMPD/mi" "$TMPD/mi.rec" 2>/dev/null
csv_n=$("$IODASH" export --csv "$TMPD/mi.rec" | python3 -c 'import csv, sys; print(sum(r["meminfo_dirty_kb"] != "" for r in csv.DictReader(sys.stdin)))')
pcp_n=$(pmdumplog -z "$TMPD/mi" mem.util.dirty 2>/dev/null | grep -c 'mem.util.dirty): value')
rec_n=$(pmdumplog -z "$TMPD/mi" mem.vmstat.nr_dirty 2>/dev/null | grep -c 'nr_dirty): value')
check "export --pcp: mem.util.dirty in $pcp_n of $rec_n records, where meminfo was read ($csv_n samples)" \
	bash -c "[ '$rec_n' -eq 7 ] && [ '$pcp_n' -eq '$csv_n' ] && [ '$pcp_n' -ge 2 ] && [ '$pcp_n' -lt 7 ]"
