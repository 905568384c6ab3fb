#!/usr/bin/env bash
# Rough edges of the live screens (issue 16 §2, §3): each check drives the
# real binary in tmux and reads the screen as a user would.
. "$(dirname "$0")/lib.sh"
[ -x "$IODASH" ] || { skip "ui fixes" "./iodash not built"; exit 0; }
command -v tmux >/dev/null || { skip "ui fixes" "tmux missing"; exit 0; }
FIO="$FIX/proc-traces/dirty-bytes-256M-128M-fio-overwrite-4G-20s"
export TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8
braille() { grep -cP '[\x{2801}-\x{28FF}]'; }

# -- stale cells: panels toggled off leave nothing behind in the gaps,
#    Ctrl-L repaints a clean screen, and with every panel hidden the body
#    is blank
tm_start 120 40 "cd '$TMPD' && '$IODASH' -r 0.5 --no-record --proc-root '$FIO'; echo EXIT=\$?; sleep 60"
tm_wait 'THROTTLE' 15 || fail "stale: the trace plays" "$(tm_screen | head -3)"
# wait until the graphs have drawn something
for ((i = 0; i < 50; i++)); do [ "$(tm_screen | braille)" -gt 3 ] && break; sleep 0.2; done
tm send-keys -t t 1; sleep 0.5; tm send-keys -t t 2
tm_wait '^Disks' 3
sleep 0.5
n=$(tm_screen | braille)
[ "$n" = 0 ] && pass "stale: 1 then 2 leave no braille in the gaps" || fail "stale: 1 then 2 leave no braille" "$n rows: $(tm_screen | grep -nP '[\x{2801}-\x{28FF}]' | head -3)"
tm send-keys -t t C-l; sleep 0.8
n=$(tm_screen | braille)
[ "$n" = 0 ] && pass "stale: Ctrl-L repaints no old braille" || fail "stale: Ctrl-L" "$n rows"
tm send-keys -t t 3 4 5 6; sleep 0.8
body=$(tm_screen | sed -n '3,39p' | tr -d ' \n')
[ -z "$body" ] && pass "stale: every panel hidden leaves a blank body" || fail "stale: every panel hidden" "$(tm_screen | sed -n '3,6p')"
tm send-keys -t t 1 2 3 4 5 6; sleep 0.5
tm_wait '^Disks' 3 && pass "stale: panels come back" || fail "stale: panels come back"
tm send-keys -t t q
tm_wait 'EXIT=0' 5 || fail "stale: q quits" "$(tm_screen | tail -2)"
tm kill-server 2>/dev/null; sleep 0.3

# -- the history keeps its scale when the refresh changes: + to 10 s and
#    - to 0.1 s change how often the screen is drawn, not what a column of
#    the graphs stands for ("last N s" stays).  The whole trace first
#    (--fast): a history that fills half the graph or less is drawn
#    across it, its span growing with it
span() { tm_screen | sed -n 's/.*Throughput .* last \([0-9]*\) s.*/\1/p' | head -1; }
tm_start 120 40 "cd '$TMPD' && '$IODASH' -r 0.5 --fast --no-record --proc-root '$FIO'; echo EXIT=\$?; sleep 60"
tm_wait 'sampling ended' 15
tm_wait 'Throughput .* last [1-9][0-9]* s' 10
s0=$(span)
tm send-keys -t t + + + + + + +
tm_wait 'refresh 10s' 3
sleep 0.5
s1=$(span)
tm send-keys -t t - - - - - - - - -
tm_wait 'refresh 0\.[0-9]+s' 3
sleep 1
s2=$(span)
[ -n "$s0" ] && [ "$s0" = "$s1" ] && [ "$s0" = "$s2" ] && pass "history: last $s0 s at any refresh" \
	|| fail "history keeps its span" "at 0.5 s: $s0, at 10 s: $s1, back fast: $s2"
tm kill-server 2>/dev/null; sleep 0.3
# -- small screens: at 20x5 the dirty history is the level alone, not
#    three threshold lines stacked into a solid band (⠿); at 80x24 the
#    disk table keeps %util and w_await and drops rarer figures first
tm_start 20 5 "cd '$TMPD' && '$IODASH' -r 0.5 --no-record --proc-root '$FIO'; echo EXIT=\$?; sleep 60"
tm_wait 'THROTTLE' 15
sleep 1
last=$(tm_screen | sed -n 5p)
if echo "$last" | grep -q '⠿'; then fail "20x5: history not a solid band" "$last"
elif echo "$last" | grep -qP '[\x{2801}-\x{28FF}]'; then pass "20x5: the history row is the dirty level: $last"
else fail "20x5: history row drawn" "$last"; fi
tm resize-window -t t -x 80 -y 24; sleep 0.3
tm_wait '^Device' 5
head=$(tm_screen | grep '^Device')
echo "$head" | grep -q '%util' && echo "$head" | grep -q 'w_await' && echo "$head" | grep -q 'wkB/s' \
	&& pass "80x24: disk table keeps wkB/s, w_await and %util" || fail "80x24: disk table keeps %util" "$head"
# and the figures under them are the right ones: %util of a disk at work
row=$(tm_screen | grep -E '^vda +[0-9]')
at=$(echo "$head" | awk '{print index($0, "%util")}')
util=$( [ "$at" -gt 0 ] && echo "$row" | cut -c$((at - 1))-$((at + 4)) | tr -d ' ')
awk -v u="$util" 'BEGIN { exit !(u ~ /^[0-9.]+$/ && u > 0 && u <= 100) }' && pass "80x24: %util under its head: $util" || fail "80x24: %util cell" "$row"
[ "$(tm_screen | wc -L)" -le 80 ] && pass "80x24: the table fits in 80 columns" || fail "80x24 width"
tm kill-server 2>/dev/null; sleep 0.3
# -- the throttle shading shows in 256 colours (a red of the cube, not
#    grey 235) and its legend reads whole
tm_start 120 40 "cd '$TMPD' && '$IODASH' -r 0.5 --no-record --proc-root '$FIO'; echo EXIT=\$?; sleep 60"
tm_wait 'throttle *$' 20 && pass "shade legend reads ░throttle" || fail "shade legend whole" "$(tm_screen | grep -m1 throttl)"
shade=$(tm capture-pane -e -p -t t | grep -o '48;5;[0-9]*m' | sort | uniq -c | sort -rn | head -1 | awk '{print $2}')
case "$shade" in
'48;5;52m') pass "throttle shading on red 52 in 256 colours" ;;
*) fail "throttle shading visible in 256 colours" "background ${shade:-none}" ;;
esac
tm kill-server 2>/dev/null; sleep 0.3
# -- numbers a person reads: the benchmark's throughput in the header in
#    the one format ("1.46 GiB/s", never "1531904.0 Ki"), scales never
#    "1000M/s" nor "2e+06"
if command -v fio >/dev/null; then
	mkdir -p "$TMPD/w"
	tm_start 120 40 "cd '$TMPD' && '$IODASH' -r 0.5 --no-record run -- fio --name=ui --directory='$TMPD/w' --rw=write --bs=1M --size=32M --ioengine=psync --time_based --runtime=6 --status-interval=1; echo EXIT=\$?; sleep 60"
	if tm_wait 'bench [0-9]+(\.[0-9]+)? [KMGT]iB/s' 15; then
		pass "header: bench throughput as $(tm_screen | grep -o 'bench [0-9.]* [KMGT]iB/s' | head -1)"
	else
		fail "header: bench throughput in the one format" "$(tm_screen | grep -m1 Throughput)"
	fi
	tm_screen | grep -Eq '[0-9]{4}[KMGT]/s|e\+0' && fail "scales: no 1000M/s nor 2e+06" "$(tm_screen | grep -E '[0-9]{4}[KMGT]/s|e\+0' | head -2)" \
		|| pass "scales: no 1000M/s nor 2e+06"
	tm_wait 'EXIT=' 30
	tm kill-server 2>/dev/null; sleep 0.3
else
	skip "header: bench throughput" "fio not installed"
fi
# -- keys: the help box is as wide as its lines at 120 columns; + and -
#    say which way they go and - stops at the sampling interval; a status
#    message gives the key hints back after a few seconds
tm_start 120 40 "cd '$TMPD' && '$IODASH' -i 0.5 -r 1 --no-record; echo EXIT=\$?; sleep 60"
tm_wait '^q quit' 10
tm send-keys -t t h
tm_wait 'iodash keys' 3
tm_screen | grep -q '7 context *$' && pass "help: the panels line whole at 120 columns (to the last panel, 7 context)" || fail "help box cut at 120 columns" "$(tm_screen | grep 'show/hide')"
tm send-keys -t t x; sleep 0.5
tm_screen | tail -1 | grep -q '+/- slower/faster' && pass "hints: +/- slower/faster" || fail "hints say which way + and - go" "$(tm_screen | tail -1)"
tm send-keys -t t - - - - - -
tm_wait 'refresh every' 3
sleep 0.5
tm_screen | tail -1 | grep -q 'refresh every 0.5 s' && pass "- stops at the sampling interval (0.5 s)" || fail "- stops at the sampling interval" "$(tm_screen | tail -1)"
tm_screen | tail -1 | grep -q 'refresh 0.5s' || fail "status: refresh 0.5s" "$(tm_screen | tail -1)"
tm send-keys -t t +
tm_wait 'refresh every 1 s' 3 && pass "+ slows to 1 s" || fail "+ slows to 1 s" "$(tm_screen | tail -1)"
if tm_wait '^q quit' 8; then pass "status message gives the hints back"; else fail "status message clears" "$(tm_screen | tail -1)"; fi
tm send-keys -t t q
tm_wait 'EXIT=0' 5 || fail "keys: q quits" "$(tm_screen | tail -2)"
tm kill-server 2>/dev/null; sleep 0.3
# -- a run stopped with Ctrl-C (and y) is "stopped", not FAILED: on the
#    live screen, in the recording and in view
tm_start 120 40 "cd '$TMPD' && '$IODASH' -i 0.2 -o stop.rec run -- sleep 60; echo EXIT=\$?; sleep 60"
tm_wait 'sleep 60 \(pid' 10
tm send-keys -t t C-c
tm_wait 'stop the benchmark\? y/n' 3
tm send-keys -t t y
if tm_wait 'stopped on request - q to quit' 10; then pass "Ctrl-C: the header says stopped on request"
else fail "Ctrl-C: header says stopped" "$(tm_screen | sed -n 2p)"; fi
tm_screen | grep -q 'run stopped' && pass "Ctrl-C: the events say run stopped" || fail "Ctrl-C: events say run stopped" "$(tm_screen | grep -m1 'run ')"
tm_screen | grep -q 'FAILED' && fail "Ctrl-C: nothing says FAILED" "$(tm_screen | grep -m1 FAILED)" || pass "Ctrl-C: nothing says FAILED"
tm send-keys -t t q
tm_wait 'EXIT=' 10
tm kill-server 2>/dev/null; sleep 0.3
tm_start 120 40 "cd '$TMPD' && '$IODASH' view stop.rec; echo EXIT=\$?; sleep 60"
tm send-keys -t t End
if tm_wait 'stopped on request: sleep 60' 10 && tm_screen | grep -q 'run stopped'; then pass "Ctrl-C: view shows the run stopped"
else fail "Ctrl-C: view shows stopped" "$(tm_screen | sed -n 2p)"; fi
# the terminal goes (SIGHUP): the view ends, though its run never did
vpid=$(pgrep -P "$(tm display -p -t t '#{pane_pid}')" -x iodash | head -1)
tm kill-server 2>/dev/null
gone=no
for _ in $(seq 50); do
	[ -n "$vpid" ] && kill -0 "$vpid" 2>/dev/null || { gone=yes; break; }
	sleep 0.1
done
if [ -z "$vpid" ]; then fail "SIGHUP: the view's pid not found"
elif [ $gone = yes ]; then pass "SIGHUP: a view of a stopped run ends with its terminal"
else fail "SIGHUP: a view of a stopped run outlived its terminal by 5 s" "pid $vpid"; kill "$vpid" 2>/dev/null; fi
sleep 0.3
# -- marks take a text: m, type, Enter; shown in the events pane, kept in
#    the recording and shown by view; typed digits do not toggle panels
tm_start 120 40 "cd '$TMPD' && '$IODASH' -i 0.2 -o marks.rec; echo EXIT=\$?; sleep 60"
tm_wait '^q quit' 10
tm send-keys -t t m
tm_wait 'mark 1: _' 3 || fail "marks: m asks for its text" "$(tm_screen | tail -1)"
tm send-keys -t t -l 'dd 2 start'
tm send-keys -t t Enter
if tm_wait '[0-9]:[0-9][0-9] mark 1: dd 2 start' 3; then pass "marks: the events pane shows the mark with its text"
else fail "marks: text in the events pane" "$(tm_screen | grep -m1 mark)"; fi
tm_screen | grep -q 'Dirty memory' && pass "marks: a typed 2 toggled no panel" || fail "marks: typed digits toggle panels"
tm send-keys -t t m x Escape
sleep 0.5
tm_screen | grep -q 'mark 2' && fail "marks: Esc puts no mark" "$(tm_screen | grep 'mark 2')" || pass "marks: Esc puts no mark"
tm send-keys -t t q
tm_wait 'EXIT=0' 5 || fail "marks: q quits" "$(tm_screen | tail -2)"
tm kill-server 2>/dev/null; sleep 0.3
tm_start 120 40 "cd '$TMPD' && '$IODASH' view marks.rec; echo EXIT=\$?; sleep 60"
tm send-keys -t t End
tm_wait 'mark 1: dd 2 start' 10 && pass "marks: view shows the mark's text from the recording" || fail "marks: view shows the text" "$(tm_screen | grep -m1 mark)"
tm kill-server 2>/dev/null; sleep 0.3
exit 0
