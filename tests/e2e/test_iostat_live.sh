#!/usr/bin/env bash
# Live, under fio: iostat -x -p ALL 1 and iodash --batch -i 1 side by side on
# a loop disk and its two partitions: every one of the 22 figures of the
# three devices within 2 % in every steady second.
#
# The disk: a loop device over a file on a real disk with direct I/O
# (--direct-io=on), so that its requests take a real disk's time and the
# time-based figures (await, aqu-sz, %util) are well above the two decimals
# both tools print (here: awaits 0.5-6 ms, %util 20-75); two partitions
# added by BLKPG (addpart: this kernel parses no partition table, but the
# ioctl needs none).  fio: random reads and writes on p1, sequential writes
# each followed by an fsync (flushes) and trims (discards) on p2, all
# rate-limited, in cycles of 0.3 s of I/O and 0.7 s of none (thinktime).
#
# Why the cycles, measured on this box (2 cores shared, load 2-5).  Two
# programs never read /proc/diskstats at the same instant, and a figure
# over one second moves by whatever the kernel counted between their two
# reads at either end.  Under steady I/O, with the two reads 0.5-3 ms
# apart, the count figures differed by up to 1.3 % and the time-based ones
# by more than 2 %: %util by one or two jiffies (io_ticks counts whole
# jiffies, 4 ms at HZ=250: 0.4-0.8 points, 3.3 % at %util 12), an await by
# one slow request ending between the reads (w_await 2.69 against 2.61
# at 100 writes a second).  None of that is iodash's: the same counters
# give the same figures.  So the reads are made to fall where no counter
# moves, and the seconds where that held are the ones compared.
#
# Started in step: a witness (below) reads /proc/diskstats every ms and
# notes when the loop device's counters move; 450 ms into one of fio's
# pauses it starts
#   iodash --batch --no-trace --no-publish --time mono -i 1 --count 12 ...
#                                        (sample 0 at its start, then on the
#                                         grid of sample 0: k s after it)
# and, as soon as iodash's sample 0 is out,
#   iostat -x -p ALL -y -o JSON 1 11     (-y: no since-boot report; it reads
#                                         at its start, then every second)
# so both read near the end of each pause: fio's cycle only ever grows (a
# slow request ends its I/O phase late), which moves the reads towards the
# start of the 0.7 s pause, not into the I/O.  Measured: 1-40 ms a second;
# 100-150 ms a second while other writers saturated the root disk, and then
# the reads met the I/O after 4-6 s: those seconds are not steady (below).  --no-trace --no-publish: with
# the tracepoints, iodash sets them up before its sample 0, which then came
# 0.14-0.26 s after iostat's first read (measured): every second compared
# was then a different second (per-second %util apart by up to 46 %, awaits
# by 62 %), while none of the disk figures depends on them.  Started so,
# iostat's reads came within 0.2-7 ms of iodash's (the witness sees them:
# iostat's rchar in /proc/PID/io moves when it reads).
#
# Steady seconds: those where, at both ends, (a) iostat read within 0.3 s
# of iodash, (b) no counter of the three devices moved between the two
# reads, nor 20 ms either side, and (c) both tools' second lasted 1 s within 5 ms (a program
# woken late under load reads a longer second: iostat once read 112 ms
# late, and its rates over 1.12 s were rightly 11 % below iodash's over
# 1.0 s).  Counters still at both ends: both tools divide the same counts,
# and the only difference left is iostat's own, its interval in
# /proc/uptime's centiseconds (a second read as 0.99-1.01 s: up to 1 % on
# every rate, aqu-sz and %util; measured 0.0-1.4 %).  At least 5 of the 11
# seconds must be steady; iostat's last read is not seen (it exits at once).
# iostat's reports are paired with iodash's seconds by time, not by index:
# under load iodash's sample 0 came 80-130 ms after iostat's first read,
# and iostat once read twice at start-up before its first report.
#
# Held in every steady second, for every figure of the three devices:
# |iostat - iodash| <= 2 % of the larger + 0.01 (both print two decimals).
# %util above 100 (the kernel credits io_ticks in lumps) iostat prints and
# iodash caps at 100: the load keeps the disk well below.
. "$(dirname "$0")/lib.sh"
is_root || { skip "iostat -x side by side" "needs root (losetup, addpart)"; exit 0; }
for c in fio iostat losetup addpart python3; do
	command -v $c >/dev/null || { skip "iostat -x side by side" "$c not installed"; exit 0; }
done

IMG=$(mktemp /var/tmp/iodash-iostat-live.XXXXXX 2>/dev/null) || IMG=/dev/shm/iodash-iostat-live.$$.img
cleanup_add "rm -f '$IMG'"
truncate -s 192M "$IMG" || { skip "iostat -x side by side" "cannot make $IMG"; exit 0; }
LOOP=$(losetup -fP --direct-io=on --show "$IMG" 2>"$TMPD/losetup.err") \
	|| { skip "iostat -x side by side" "no free loop device"; exit 0; }
cleanup_add "losetup -d '$LOOP'"
addpart "$LOOP" 1 2048 163840 && addpart "$LOOP" 2 165888 196608 \
	|| { skip "iostat -x side by side" "addpart refused on $LOOP"; exit 0; }
DEV=$(basename "$LOOP")
DIO=$(cat "/sys/block/$DEV/loop/dio" 2>/dev/null || echo 0)
for i in 1 2 3 4 5 6 7 8 9 10; do [ -b "${LOOP}p2" ] && break; sleep 0.1; done

# The witness: reads /proc/diskstats every ms and writes down when the
# loop device's lines change (CLOCK_MONOTONIC, as iodash's --time mono).
cat >"$TMPD/witness.py" <<'PY'
import os, sys, time
dev, out, quiet_flag, pid_file, stop_flag = sys.argv[1:6]
def lines():
    with open('/proc/diskstats') as f:
        return [l for l in f if l.split()[2] in (dev, dev + 'p1', dev + 'p2')]
def rchar(pid):     # what iostat has read so far: it moves when iostat reads
    try:
        with open('/proc/%s/io' % pid) as f:
            return next(l for l in f if l.startswith('rchar'))
    except (OSError, StopIteration):
        return None
prev, last, active, said, pid, seen = lines(), time.monotonic(), False, False, None, None
with open(out, 'w', buffering=1) as log:     # line by line: read per attempt
    while not os.path.exists(stop_flag):
        cur, now = lines(), time.monotonic()
        if cur != prev:
            log.write('io %.6f\n' % now)
            prev, last, active, said = cur, now, True, False
        elif active and not said and now - last > 0.45:
            open(quiet_flag, 'w').close()    # 450 ms into a quiet phase
            said = True
        if os.path.exists(pid_file):         # a new attempt's iostat
            p = open(pid_file).read().strip() or None
            if p != pid:
                pid, seen = p, None
        if pid:
            r = rchar(pid)
            if r != seen and r is not None:
                log.write('iostat %.6f\n' % now)
            elif r is None and seen is not None:
                log.write('gone %.6f\n' % now)     # iostat has exited
            seen = r
        time.sleep(0.001)
PY
python3 "$TMPD/witness.py" "$DEV" "$TMPD/changes" "$TMPD/quiet" "$TMPD/iostat.pid" "$TMPD/stop" &
WIT=$!
cleanup_add "touch '$TMPD/stop'; wait $WIT 2>/dev/null"

# 0.3 s of I/O, then 0.7 s of none (thinktime), every second
fio --thinktime=700ms --thinktime_iotime=300ms \
	--name=rw --filename="${LOOP}p1" --rw=randrw --rwmixread=60 --bs=4k --direct=1 \
	--ioengine=psync --rate_iops=300,200 --time_based --runtime=60 \
	--name=seq --filename="${LOOP}p2" --rw=write --bs=16k --direct=1 --fsync=1 \
	--ioengine=psync --rate_iops=200 --size=64m --time_based --runtime=60 \
	--name=trim --filename="${LOOP}p2" --rw=randtrim --bs=16k --offset=64m --size=24m \
	--ioengine=psync --rate_iops=200 --time_based --runtime=60 \
	>"$TMPD/fio.txt" 2>&1 &
FIO=$!
cleanup_add "kill $FIO 2>/dev/null; wait $FIO 2>/dev/null"
# attempt N: both tools side by side, from the next pause of fio's; the
# witness's lines of this attempt go to changes.N
attempt() {
	local n=$1 from
	rm -f "$TMPD/quiet" "$TMPD/iostat.pid"
	for i in $(seq 1500); do [ -e "$TMPD/quiet" ] && break; sleep 0.01; done
	[ -e "$TMPD/quiet" ] || { echo "fio's I/O never paused: $(tail -3 "$TMPD/fio.txt" | tr '\n' ' ')"; return 1; }
	from=$(wc -l <"$TMPD/changes")
	# iodash first, and iostat as soon as iodash's sample 0 is out: iodash's
	# start-up (80-130 ms under load) then falls before both grids, not between
	"$IODASH" --batch --no-trace --no-publish --time mono -i 1 --count 12 -p ALL --columns all \
		>"$TMPD/iodash.$n" 2>"$TMPD/iodash.err" & IOD=$!
	for i in $(seq 400); do grep -q '^[0-9]' "$TMPD/iodash.$n" 2>/dev/null && break; sleep 0.005; done
	iostat -x -p ALL -y -o JSON 1 11 >"$TMPD/iostat.$n" 2>"$TMPD/iostat.err" & IOS=$!
	echo $IOS >"$TMPD/iostat.pid"
	wait $IOS; rc1=$?; wait $IOD; rc2=$?
	sleep 0.05     # the witness's last lines of this attempt
	tail -n +$((from + 1)) "$TMPD/changes" >"$TMPD/changes.$n"
	[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || { echo "iostat $rc1, iodash $rc2: $(head -1 "$TMPD/iodash.err")"; return 1; }
}
cat >"$TMPD/cmp.py" <<'PY'
import json, sys
ios, iod, dev, changes = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
keys = {'r/s': 'r_s', 'w/s': 'w_s', 'd/s': 'd_s', 'f/s': 'f_s', 'rkB/s': 'rkB_s',
        'wkB/s': 'wkB_s', 'dkB/s': 'dkB_s', 'rrqm/s': 'rrqm_s', 'wrqm/s': 'wrqm_s',
        'drqm/s': 'drqm_s', 'rrqm': 'rrqm_pct', 'wrqm': 'wrqm_pct', 'drqm': 'drqm_pct',
        'r_await': 'r_await', 'w_await': 'w_await', 'd_await': 'd_await',
        'f_await': 'f_await', 'rareq-sz': 'rareq_sz', 'wareq-sz': 'wareq_sz',
        'dareq-sz': 'dareq_sz', 'aqu-sz': 'aqu_sz', 'util': 'util'}
timed = {'r_await', 'w_await', 'd_await', 'f_await', 'aqu_sz', 'util'}
reports = json.load(open(ios))['sysstat']['hosts'][0]['statistics']
head, rows = None, []
for line in open(iod):
    if line.startswith('# time'):
        head = line.split()[1:]
    elif line[:1].isdigit():
        rows.append(dict(zip(head, line.split())))
devs = [dev, dev + 'p1', dev + 'p2']
moved, ios_reads, gone = [], [], None
for line in open(changes):
    what, t = line.split()
    if what == 'io':
        moved.append(float(t))
    elif what == 'gone':
        gone = float(t)
    elif not ios_reads or float(t) - ios_reads[-1][-1] > 0.05:
        ios_reads.append([float(t)])     # a new read of iostat's (its files in < 1 ms)
    else:
        ios_reads[-1].append(float(t))
ios_reads = [r[0] for r in ios_reads]
# iostat's reads at the ends of its reports, by time, not by index: report
# j covers its reads R[j] .. R[j+1], a second apart.  Neither end of the
# list of reads seen is sure: a read at start-up is not one of them (iostat
# once read twice, 130 ms apart, before its first report), and the last,
# R[11], is seen or not depending on how soon iostat exits after it.  Its
# exit is sure: R[11] is the read seen just before it (or, unseen, the
# exit's time), then backwards one read a second.
R = [None] * 12
if gone is not None:
    last = [r for r in ios_reads if gone - 0.1 <= r <= gone]
    R[11] = last[-1] if last else gone
    for j in range(10, -1, -1):
        if R[j + 1] is None:
            break
        near = [r for r in ios_reads if abs(r - (R[j + 1] - 1)) < 0.2]
        R[j] = min(near, key=lambda r: abs(r - (R[j + 1] - 1))) if near else None
def quiet(a, b):    # no counter of the three moved from 20 ms before to 20 ms after
    lo, hi = min(a, b) - 0.020, max(a, b) + 0.020
    return not any(lo <= m <= hi for m in moved)
bad, n, worst, big = [], 0, {False: (0, ''), True: (0, '')}, {}
if len(reports) != 11 or len(rows) != 12:
    bad.append('%d iostat reports and %d iodash samples (want 11 and 12)' % (len(reports), len(rows)))
    rows = []
reads = [float(r['time']) for r in rows]
def report_of(k):
    """The iostat report that covers the counts of iodash's second k (its
    reads k and k+1), or None: iostat read within 0.3 s of iodash at both
    ends with no counter moving in between (so both divide the same
    counts, whatever the two programs' start-up put between their grids),
    and each tool's second lasted 1 s within 5 ms."""
    for j in range(11):
        a, b = R[j], R[j + 1]
        if a is None or b is None or abs(a - reads[k]) > 0.3:
            continue
        if (abs(b - reads[k + 1]) <= 0.3 and quiet(a, reads[k]) and quiet(b, reads[k + 1])
                and abs(reads[k + 1] - reads[k] - 1) < 0.005 and abs(b - a - 1) < 0.005):
            return j
    return None
steady = [(k, report_of(k)) for k in range(len(reads) - 1)]
steady = [(k, j) for k, j in steady if j is not None]
if rows and len(steady) < 5:
    # not a disagreement: the reads met fio's I/O (a loaded machine); the
    # caller tries again in another pause (exit 3)
    print('only %d steady seconds (%s); iodash read at %s, iostat at %s' % (len(steady), steady,
          ' '.join('%.3f' % (r - reads[0]) for r in reads),
          ' '.join('%.3f' % (r - reads[0]) for r in ios_reads)))
    sys.exit(3)
for k, j in steady if not bad else []:
    ios_k = {d['disk_device']: d for d in reports[j]['disk']}
    row = rows[k + 1]
    for d in devs:
        if d not in ios_k or d + '.r_s' not in row:
            bad.append('second %d: %s missing (iostat %s, iodash %s)' % (k + 1, d, d in ios_k, d + '.r_s' in row))
            continue
        for ik, ck in keys.items():
            a, b = float(ios_k[d][ik]), row[d + '.' + ck]
            if b == 'n/a':
                bad.append('second %d %s.%s: iodash n/a, iostat %.2f' % (k + 1, d, ck, a))
                continue
            b = float(b)
            n += 1
            if ck in timed:
                big[ck] = max(big.get(ck, 0), min(abs(a), abs(b)))
            rel = abs(a - b) / max(abs(a), abs(b), 1e-9)
            what = '%s.%s second %d: iostat %.2f iodash %.2f' % (d, ck, k + 1, a, b)
            if max(abs(a), abs(b)) >= 1 and rel > worst[ck in timed][0]:   # above print rounding
                worst[ck in timed] = (rel, what)
            if abs(a - b) > 0.02 * max(abs(a), abs(b)) + 0.01:
                bad.append(what)
# the time-based figures must be well above print rounding, or the check
# above says nothing about them
small = [ck for ck in timed if big.get(ck, 0) < 0.1]
print('%d steady seconds, %d figures each within 2 %%: largest count/size %.2f%% (%s), '
      'time-based %.2f%% (%s)' % (len(steady), n, worst[False][0] * 100, worst[False][1],
                                  worst[True][0] * 100, worst[True][1]))
for x in bad[:8]:
    print('BAD ' + x)
if small and not bad:
    print('below print rounding: ' + ', '.join('%s (largest %.2f)' % (ck, big.get(ck, 0)) for ck in sorted(small)))
# every time-based figure under rounding: the check said nothing of them
sys.exit(1 if bad or n != len(steady) * 66 else 2 if len(small) == len(timed) else 0)
PY
# Up to 3 attempts: only "too few steady seconds" (reads that met fio's I/O
# on a loaded machine) tries again; a disagreement fails at once.
for n in 1 2 3; do
	if ! why=$(attempt $n); then rc=4; break; fi
	python3 "$TMPD/cmp.py" "$TMPD/iostat.$n" "$TMPD/iodash.$n" "$DEV" "$TMPD/changes.$n" >"$TMPD/cmp.txt" 2>&1; rc=$?
	[ $rc -eq 3 ] || break
	echo "attempt $n: $(cat "$TMPD/cmp.txt")"
done
touch "$TMPD/stop"; wait $WIT
[ $rc -ne 4 ] && pass "iostat and iodash ran side by side for 11 s (attempt $n)" \
	|| { fail "iostat and iodash ran side by side" "$why"; exit 0; }
what="$DEV, ${DEV}p1, ${DEV}p2, direct I/O $DIO"
if [ $rc -eq 0 ]; then
	pass "iostat -x and iodash agree on $what ($(tr '\n' ';' <"$TMPD/cmp.txt"))"
elif [ $rc -eq 2 ]; then
	# requests of a few us (no direct I/O under $IMG, or a disk that fast):
	# awaits and %util under print rounding, so only the rest says anything
	pass "iostat -x and iodash agree on $what ($(head -1 "$TMPD/cmp.txt"))"
	if [ "$DIO" != 1 ]; then why="no direct I/O under $IMG"; else why="the disk under $IMG answers too fast"; fi
	skip "iostat -x and iodash agree on await, aqu-sz, %util" "$why: the time-based figures do not exceed print rounding ($(tail -1 "$TMPD/cmp.txt"))"
else
	fail "iostat -x and iodash agree on $what" "$(tr '\n' ';' <"$TMPD/cmp.txt")"
fi
