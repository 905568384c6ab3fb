#!/usr/bin/env bash
# --batch and view --batch to a full disk say the write error and exit 1
# (issue 32 point 11: both exited 0 in silence).  A reader that goes away
# (| head) is still a quiet, normal end.  The full device is our own
# (mknod, /dev/full's numbers), never /dev/full itself.
. "$(dirname "$0")/lib.sh"
if ! is_root; then
	skip "batch to a full device" "mknod needs root"
	exit 0
fi
FULL="$TMPD/full"
mknod "$FULL" c 1 7
REC="$TMPD/r.rec"
"$IODASH" run --batch -i 0.1 -o "$REC" -- sh -c 'seq 1 50' >/dev/null 2>&1

full_said() { # NAME CMD...
	local name=$1 rc; shift
	"$@" >"$FULL" 2>"$TMPD/err"; rc=$?
	if [ $rc -eq 1 ] && grep -q 'writing to stdout: No space left on device' "$TMPD/err"; then
		pass "$name > full: exit 1 and says so"
	else
		fail "$name > full: exit 1 and says so" "rc=$rc $(head -c 300 "$TMPD/err")"
	fi
	[ -c "$FULL" ] || fail "$name: the device is still a device"
}
full_said "--batch --count 5" "$IODASH" --batch -i 0.1 --count 5
full_said "run --batch" "$IODASH" run --batch --no-record -i 0.1 -- sh -c 'seq 1 20'
full_said "view --batch" "$IODASH" view --batch "$REC"

"$IODASH" view --batch "$REC" 2>"$TMPD/err" | head -1 >/dev/null; rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] && [ ! -s "$TMPD/err" ] && pass "view --batch | head -1: a quiet end, exit 0" ||
	fail "view --batch | head -1: a quiet end" "rc=$rc $(cat "$TMPD/err")"
