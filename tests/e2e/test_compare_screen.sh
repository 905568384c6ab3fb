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

# side by side, one y scale by default (y: each its own): a run at a tenth
# of the other's bandwidth must look a tenth of it
mkdir -p "$TMPD/a" "$TMPD/b"
cp "$FIX/bench-output/fio/fio-seqwrite-buffered.json" "$TMPD/a/fio.json"
sed -E 's/"(bw|bw_mean|iops|bw_bytes)" : ([0-9]+)[0-9]/"\1" : \2/' "$TMPD/a/fio.json" >"$TMPD/b/fio.json"
tm kill-server 2>/dev/null; sleep 0.3
tm_start 120 40 "'$IODASH' compare '$TMPD/a/fio.json' '$TMPD/b/fio.json'; echo EXIT=\$?; sleep 30"
tm_wait 'compare: write_bw' 5
tm send-keys -t t o
tm_wait 'side by side' 3
ylabs() { tm_screen | sed -n 3p | grep -oE '[0-9.]+ [kMG]?' | tr -d ' ' | tr '\n' ' '; }
yl=$(ylabs)
set -- $yl
[ $# -eq 2 ] && [ "$1" = "$2" ] && tm_screen | grep -q 'one y scale' && pass "side by side: one y scale ($yl)" || fail "side by side: one y scale" "$yl"
tm send-keys -t t y
tm_wait 'own y scales' 3
yl=$(ylabs)
set -- $yl
[ $# -eq 2 ] && [ "$1" != "$2" ] && pass "y: each its own scale ($yl)" || fail "y: own scales" "$yl"
tm send-keys -t t q
tm_wait 'EXIT=0' 3 || fail "compare fio pair: q quits" "$(tm_screen | tail -2)"

# the per-run strip: every label's runs when not all fit (4 + 4 runs, room
# for 4 at 80 columns)
tm kill-server 2>/dev/null; sleep 0.3
R="$FIX/recordings"
tm_start 80 30 "'$IODASH' compare '$R/knobs-sweep-6.18.rec' '$R/knobs-sweep-as-2.6.24.rec'; echo EXIT=\$?; sleep 30"
tm_wait 'compare: ' 5
strip=$(tm_screen | grep -E '#1 ' | head -1)
echo "$strip" | grep -q '6.18.44-fc-v1147 #1' && echo "$strip" | grep -q '2.6.24-rc2 #1' \
	&& pass "run strip: both labels' runs" || fail "run strip: all labels" "$strip"
tm send-keys -t t q
tm_wait 'EXIT=0' 3 || fail "compare recordings: q quits"
# at 80 columns the table keeps its change column: hmean and CoV go first
tm kill-server 2>/dev/null; sleep 0.3
tm_start 80 30 "'$IODASH' compare '$MAIL'; echo EXIT=\$?; sleep 30"
tm_wait 'compare: throughput' 5
row=$(tm_screen | grep -E '^ +128 ')
echo "$row" | grep -Eq '^ +128 +66\.74 .* 3 +-9\.90%$' && tm_screen | grep -Eq '^ +procs .* N +change$' \
	&& pass "80 columns: the change column whole: $row" || fail "80 columns: change column cut" "$row"
tm resize-window -t t -x 120 -y 40 2>/dev/null; sleep 0.5
tm_screen | grep -Eq '^ +procs +mean +hmean +stddev +CoV +N ' && pass "back at 120 columns: every column again" || fail "back at 120: columns" "$(tm_screen | grep -m1 procs)"
tm send-keys -t t q
tm_wait 'EXIT=0' 3 || fail "compare at 80: q quits"
# knob settings (issue 27 point 3): the iozone mail opens with a graph per
# setting, each with both kernels, and the table's blocks under them
tm send-keys -t t q 2>/dev/null
tm kill-server 2>/dev/null
tm_start 140 45 "'$IODASH' compare '$FIX/lkml/iozone-dirty-ratio-2.6.24.txt'; echo EXIT=\$?; sleep 30"
if tm_wait 'compare: write' 5; then
	tm_screen | grep -Eq '^\(5,10\) +\(20,40\) +\(60,80\) *$' && pass "settings: side by side, a graph per setting" ||
		fail "settings: a graph per setting" "$(tm_screen | sed -n 2p)"
	tm_screen | grep -Eq '^2\.6\.23\.1-42\.fc8 \(3 runs\) +2\.6\.24-rc2 \(4 runs\) +2\.6\.23\.1-42\.fc8 \(4 runs\)' &&
		pass "settings: both kernels in each graph" || fail "settings: both kernels in each graph" "$(tm_screen | sed -n 3p)"
	tm_screen | grep -A3 '^setting (20,40):' | grep -q -- '-69.61%\*' && pass "settings: the table's block of (20,40) with its change" ||
		fail "settings: the table's (20,40) block" "$(tm_screen | grep -A3 'setting (20,40)')"
else
	fail "compare screen of the iozone mail" "$(tm_screen | head -3)"
fi

exit 0
