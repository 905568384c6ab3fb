#!/usr/bin/env bash
# One policy for odd numbers (docs/parsers.md): a value out of range is
# n/a and a note names the file and line, in every reader.  --batch of a
# --proc-root whose diskstats has a line of 3 counters and whose vmstat
# says nr_dirty = 2^64-1; compare of a fio JSON with 1e309 iops.
. "$(dirname "$0")/lib.sh"
P="$TMPD/proc"
mkdir -p "$P/sys/vm"
cp /proc/meminfo "$P/"
for k in dirty_background_bytes dirty_background_ratio dirty_bytes dirty_ratio dirty_expire_centisecs dirty_writeback_centisecs; do
	cat /proc/sys/vm/$k >"$P/sys/vm/$k"
done
grep -v '^nr_dirty ' /proc/vmstat >"$P/vmstat"
echo "nr_dirty 18446744073709551615" >>"$P/vmstat"
line=$(wc -l <"$P/vmstat")
printf '   8       0 sda 100 0 800 10 200 0 1600 20 0 30 30\n   8      32 sdc 1 2 3\n' >"$P/diskstats"
"$IODASH" --batch --proc-root "$P" --all-disks --count 2 -i 0.05 >"$TMPD/b.out" 2>"$TMPD/b.err"; rc=$?
if [ $rc -ne 0 ]; then
	fail "--batch: odd numbers are n/a, not a stop" "rc=$rc $(head -2 "$TMPD/b.err")"
else
	grep -q "^= .* note: $P/vmstat:$line: nr_dirty 18446744073709551615 is more pages than any memory (out of range): the dirty figures are n/a" "$TMPD/b.out" &&
		pass "--batch: nr_dirty = 2^64-1 is n/a with a note naming vmstat and its line" ||
		fail "--batch: nr_dirty = 2^64-1 is n/a with a note naming vmstat and its line" "$(grep -m2 'note\|^[0-9]' "$TMPD/b.out")"
	if grep -v '^[=#]' "$TMPD/b.out" | grep -q "hard_limit\|1844674407370955"; then
		fail "--batch: nr_dirty = 2^64-1 never shows as a figure or hard_limit" "$(grep -m1 hard_limit "$TMPD/b.out")"
	else
		pass "--batch: nr_dirty = 2^64-1 never shows as a figure or hard_limit"
	fi
fi
# the vmstat note comes first (one note a read): the diskstats one alone
cp /proc/vmstat "$P/vmstat"
"$IODASH" --batch --proc-root "$P" --all-disks --count 2 -i 0.05 >"$TMPD/d.out" 2>&1
grep -q "^= .* note: $P/diskstats:2: sdc: 3 counters (a kernel prints 4, 11, 14, 15, 17 or more): its figures are n/a" "$TMPD/d.out" &&
	pass "--batch: a diskstats line of 3 counters is n/a with a note naming the line" ||
	fail "--batch: a diskstats line of 3 counters is n/a with a note naming the line" "$(grep -m2 'note' "$TMPD/d.out")"

F="$FIX/bench-output/fio/fio-randread-direct.json"
sed 's/"iops" : 95867.413259,/"iops" : 1e309,/' "$F" >"$TMPD/fio.json"
"$IODASH" compare --text "$TMPD/fio.json" >"$TMPD/c.out" 2>"$TMPD/c.err"; rc=$?
if [ $rc -ne 0 ]; then
	fail "compare: fio JSON with 1e309 iops keeps the other figures" "rc=$rc $(head -2 "$TMPD/c.err")"
elif grep -q "fio.json:1-[0-9]*: fio JSON, job \"randread\": read.iops 1e309 is out of range: n/a" "$TMPD/c.err" &&
	grep -q '^read_bw' "$TMPD/c.out" && ! grep -q '^read_iops' "$TMPD/c.out"; then
	pass "compare: fio JSON with 1e309 iops: that figure n/a, named; read_bw kept"
else
	fail "compare: fio JSON with 1e309 iops: that figure n/a, named; read_bw kept" "$(head -3 "$TMPD/c.err")"
fi
