#!/usr/bin/env bash
# The curses compare screen, driven in tmux on the 2.4.16 vs 2.4.17-pre2 mail.
. "$(dirname "$0")/lib.sh"
MAIL="$FIX/lkml/dbench-2.4.16-vs-2.4.17pre2.txt"

tm_start 120 40 "'$IODASH' compare '$MAIL'; echo EXIT=\$?; sleep 30"
if tm_wait 'compare: throughput' 5; then
	pass "compare screen opens on the throughput metric"
else
	fail "compare screen opens" "$(tm_screen | head -3)"
fi
tm_screen | grep -q 'log2 x' && pass "a 1..128 procs sweep opens on a log2 x axis" || fail "log2 x by default" "$(tm_screen | head -1)"
tm_screen | grep -q '2.4.17-pre2 (3 runs per point, 24 in all)' && pass "legend: runs per point and in all" || fail "legend" "$(tm_screen | sed -n 2p)"
# the x axis labels every swept value that fits, not only its ends
axis=$(tm_screen | grep -E '^ +procs +1 ' | head -1)
echo "$axis" | grep -Eq '^ +procs +1 +2 +4 +8 +16 +32 +64 +128$' && pass "x axis: every swept value" || fail "x axis: every swept value" "$axis"
row=$(tm_screen | grep -E '^ +128 ')
echo "$row" | grep -Eq '66\.74 +66\.74 .* 1 +60\.13 +59\.78 +5\.64 .* 3 +-9\.90%' && pass "table row at 128 procs: $row" || fail "table row at 128 procs" "$row"
tm send-keys -t t l
tm_wait 'linear x' 3 && pass "l switches to a linear x axis" || fail "l switches the axis"
tm send-keys -t t n
tm_wait 'compare: [a-z_]+ +\[2/' 3 && pass "n shows the next metric" || fail "n shows the next metric" "$(tm_screen | head -1)"
tm resize-window -t t -x 60 -y 15 2>/dev/null; sleep 0.5
tm resize-window -t t -x 20 -y 5 2>/dev/null; sleep 0.5
tm resize-window -t t -x 120 -y 40 2>/dev/null; sleep 0.5
tm_screen | grep -q 'compare:' && pass "survives resizing to 60x15, 20x5 and back" || fail "resize" "$(tm_screen | head -2)"
tm send-keys -t t q
tm_wait 'EXIT=0' 3 && pass "q quits with 0" || fail "q quits with 0" "$(tm_screen | tail -2)"
