#!/usr/bin/env bash
# Nothing the benchmark printed is lost without a word (issue 32 point 2).
# A replay prints everything the recording holds, the same bytes every
# time: view --batch waits for the front end (it is not live).  Live
# --batch never makes the benchmark or the sampler wait for stdout: it
# prints every line, or says how many it could not and why.
. "$(dirname "$0")/lib.sh"
REC="$TMPD/seq.rec"

"$IODASH" run --batch -i 0.1 -o "$REC" -- sh -c 'seq 1 3000' >"$TMPD/live" 2>"$TMPD/err"; rc=$?
if [ $rc -ne 0 ] || [ "$(grep -c '^O' "$REC")" -ne 3000 ]; then
	fail "run -- seq 1 3000: recorded" "rc=$rc, $(grep -c '^O' "$REC") O records; $(cat "$TMPD/err")"
else
	pass "run -- seq 1 3000: 3000 lines recorded"
fi
sums=()
bad=0
for i in $(seq 10); do
	"$IODASH" view --batch "$REC" >"$TMPD/view$i" 2>"$TMPD/err" || bad=1
	n=$(grep -c '^> ' "$TMPD/view$i")
	[ "$n" -eq 3000 ] || { bad=1; echo "  run $i: $n lines"; }
	sums+=("$(md5sum <"$TMPD/view$i")")
done
[ $bad -eq 0 ] && pass "view --batch: 3000 output lines in each of 10 runs" ||
	fail "view --batch: 3000 output lines in each of 10 runs"
if [ "$(printf '%s\n' "${sums[@]}" | sort -u | wc -l)" -eq 1 ]; then
	pass "view --batch: the same bytes in 10 runs"
else
	fail "view --batch: the same bytes in 10 runs" "$(printf '%s\n' "${sums[@]}" | sort | uniq -c | tr '\n' ' ')"
fi
# the lines in order, 1 to 3000
if grep '^> ' "$TMPD/view1" | sed 's/^> //' | cmp -s - <(seq 1 3000); then
	pass "view --batch: the lines in order"
else
	fail "view --batch: the lines in order"
fi

# 4,800 marks (events) added to that recording, each record with its
# checksum: a replay prints them all, in every run
python3 - "$REC" "$TMPD/marks.rec" <<'PY'
import sys, zlib
out = []
for line in open(sys.argv[1], 'rb').read().split(b'\n'):
    if line.startswith(b'Z\t'):
        for i in range(4800):
            body = b'E\t0\tmark\tmark %d' % i
            out.append(body + b'\t%08x' % zlib.crc32(body))
    out.append(line)
open(sys.argv[2], 'wb').write(b'\n'.join(out))
PY
bad=""
for i in 1 2 3; do
	n=$("$IODASH" view --batch "$TMPD/marks.rec" 2>/dev/null | grep -c ' mark: mark ')
	[ "$n" -eq 4800 ] || bad="$bad run $i: $n"
done
[ -z "$bad" ] && pass "view --batch: 4800 marks in each of 3 runs" || fail "view --batch: 4800 marks" "$bad"

# every line printed, or the count not printed said: printed + said = all
printed_or_said() { # NAME FILE TOTAL
	local printed said
	printed=$(grep -c '^> ' "$2")
	said=$(grep -E '^= [0-9.]+ note: .*not printed' "$2" |
		grep -oE '[0-9]+ output lines' | awk '{ s += $1 } END { print s + 0 }')
	if [ $((printed + said)) -eq "$3" ]; then
		pass "$1: $printed lines printed, $said said to be dropped, of $3"
	else
		fail "$1" "$printed printed + $said said dropped != $3"
	fi
}
BENCH='awk "BEGIN { for (i = 1; i <= 10000; i++) { print i; if (i % 1000 == 0) { fflush(); system(\"sleep 0.1\") } } }"'
"$IODASH" run --batch --no-record -i 0.1 -- sh -c "$BENCH" >"$TMPD/live1" 2>"$TMPD/err"
printed_or_said "live --batch, 10,000 lines in 1 s, to a file" "$TMPD/live1" 10000
# a reader that stalls for a second: the ring fills behind a full pipe
"$IODASH" run --batch --no-record -i 0.1 -- sh -c "$BENCH" 2>"$TMPD/err" | { sleep 1; cat; } >"$TMPD/live2"
printed_or_said "live --batch, 10,000 lines in 1 s, to a stalled pipe" "$TMPD/live2" 10000
grep -q 'not printed: they came faster than stdout took them' "$TMPD/live2" &&
	pass "live --batch: the note says why" || skip "live --batch: the note says why" "nothing was dropped this time"
