#!/usr/bin/env bash
# iodash view: keys typed faster than the replay moves are all taken, in
# order (the key hook queues commands for the replay thread), and the
# "go to" prompt's relative times count from the sample shown.
. "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || { skip "view keys" "tmux missing"; exit 0; }
TRACE="$FIX/proc-traces/dirty-bytes-256M-128M-fio-overwrite-4G-20s"
rec="$TMPD/fio.rec"
"$IODASH" --batch --fast --proc-root "$TRACE" -o "$rec" >/dev/null || fail "record the trace"

tm_start 120 40 "'$IODASH' view '$rec'; echo EXIT=\$?; sleep 30"
tm_wait 'recording fio.rec' 5 || fail "view opens" "$(tm_screen | head -2)"
tm send-keys -t t Space
tm_wait ' paused' 3 || fail "space pauses" "$(tm_screen | head -1)"
tm send-keys -t t Home
tm_wait '@ 0:00:00\.0 ' 3 || fail "Home" "$(tm_screen | head -1)"
# one write of 25 arrow keys: the ui reads them in one go (samples are 0.1 s)
tm send-keys -t t Right Right Right Right Right Right Right Right Right Right \
	Right Right Right Right Right Right Right Right Right Right Right Right Right Right Right
if tm_wait '@ 0:00:02\.5 / 0:00:31 paused' 3; then
	pass "25 Right keys at once move 25 samples (2.5 s)"
else
	fail "25 Right keys at once move 25 samples" "$(tm_screen | head -1)"
fi
tm send-keys -t t Left Left Left Left Left Right
tm_wait '@ 0:00:02\.1 / 0:00:31 paused' 3 && pass "5 Left then 1 Right, at once: 2.1 s" \
	|| fail "5 Left then 1 Right" "$(tm_screen | head -1)"
# typed in one write, the prompt takes every character before Enter
tm send-keys -t t g 1 : 0 0 . 5 Enter
tm_wait '@ 0:00:30\.7 .*paused' 3 && pass "g 1:00.5 in one write: past the end, at the last sample (30.7 s)" \
	|| fail "g 1:00.5" "$(tm_screen | head -1)"
tm send-keys -t t g 5 Enter
tm_wait '@ 0:00:05\.0 / 0:00:31 paused' 3 && pass "g 5: at 5.0 s" || fail "g 5" "$(tm_screen | head -1)"
tm send-keys -t t g + 2 . 5 Enter
tm_wait '@ 0:00:07\.5 / 0:00:31 paused' 3 && pass "g +2.5 from 5.0 s: at 7.5 s" || fail "g +2.5" "$(tm_screen | head -1)"
tm send-keys -t t g - 3 Enter
tm_wait '@ 0:00:04\.5 / 0:00:31 paused' 3 && pass "g -3 from 7.5 s: at 4.5 s" || fail "g -3" "$(tm_screen | head -1)"
# Esc closes the prompt without moving
tm send-keys -t t g 9
tm_wait 'go to \(h:m:s, Enter\): 9' 3 && pass "g 9: the prompt shows 9" || fail "g 9: prompt" "$(tm_screen | head -1)"
tm send-keys -t t Escape
tm_wait '@ 0:00:04\.5 / 0:00:31 paused ' 3 && pass "Esc: prompt closed, still at 4.5 s" \
	|| fail "Esc closes the prompt" "$(tm_screen | head -1)"
tm send-keys -t t q
tm_wait 'EXIT=0' 5 && pass "q quits with 0" || fail "q quits" "$(tm_screen | tail -2)"
exit 0
