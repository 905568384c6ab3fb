#!/usr/bin/env bash
# What a day of use tripped over on the screens (issue 29, part 2): the
# states view gives a finished recording, the header's figures, the room
# the panels get, the graphs' time axis, and the help's pointer to the
# manual.  Each check failed on the code before it.
. "$(dirname "$0")/lib.sh"
REC="$FIX/recordings/knobs-sweep-6.18.rec"

# A sweep recorded with the tracepoints, in a format before the samples'
# T records (its benchmark records hold the pauses), and killed: no end
# record, and nobody writes to it any more.
tm_start 120 40 "'$IODASH' view '$REC'; echo EXIT=\$?; sleep 30"
if tm_wait 'recording knobs-sweep-6\.18\.rec @ .* end, not closed' 5; then
	pass "view: a killed recording whose writer is gone says end, not closed"
else
	fail "view: end, not closed" "$(tm_screen | head -1)"
fi
if tm_screen | grep -q 'throttling is sampled'; then
	fail "view: the tracepoints' recording is not called sampled" "$(tm_screen | grep 'sampled')"
else
	tm_screen | grep -q "the kernel's pauses per run only" \
		&& pass "view: the tracepoints' recording is not called sampled, and says what it holds" \
		|| fail "view: what the throttle rows say" "$(tm_screen | sed -n 20,24p | tr -s ' ')"
fi
tm send-keys -t t q
tm_wait 'EXIT=0' 3 || fail "view quits on q" "$(tm_screen | tail -2)"
tm kill-server 2>/dev/null
sleep 0.3

# --batch --follow of it ends with its last line (it waited for ever)
timeout 10 "$IODASH" view --batch --follow "$REC" >"$TMPD/follow.txt" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'run_end' "$TMPD/follow.txt" \
	&& pass "view --batch --follow of a recording whose writer is gone ends (exit 0)" \
	|| fail "view --batch --follow, writer gone" "exit $rc (124: still following): $(tail -1 "$TMPD/follow.txt")"
