#!/usr/bin/env bash
# Issue 16 §4, panes that hold more than they show: a single run whose
# command line says how long it runs (dbench -t) shows a progress bar and
# an ETA, as a sweep does; the events pane scrolls with the focus; Enter on
# an event in view goes to its time.
. "$(dirname "$0")/lib.sh"
[ -x "$IODASH" ] || { skip "ui panes" "./iodash not built"; exit 0; }
command -v tmux >/dev/null || { skip "ui panes" "tmux missing"; exit 0; }
export TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8

# ---- a single run: progress bar and ETA -----------------------------------
if command -v dbench >/dev/null; then
	mkdir -p "$TMPD/db"
	tm_start 120 40 "cd '$TMPD' && '$IODASH' run --no-record -- dbench -D '$TMPD/db' -t 8 1; echo EXIT=\$?; sleep 60"
	# the header's second row: bar, share done, ETA, then the command
	re='^[█░]{12} [0-9]+% ETA 0:0[0-9] dbench: dbench '
	if tm_wait "$re" 15; then
		pass "run -- dbench -t 8: progress bar and ETA in the header"
		a=$(tm_screen | sed -n 2p | grep -Eo '[0-9]+%' | head -1)
		tm_wait "ETA 0:0[0-4] " 10
		b=$(tm_screen | sed -n 2p | grep -Eo '[0-9]+%' | head -1)
		[ "${b%\%}" -gt "${a%\%}" ] && pass "the bar moves on ($a -> $b)" || fail "the bar moves on" "$a -> $b"
	else
		fail "run -- dbench -t 8: progress bar and ETA in the header" "$(tm_screen | sed -n 2p)"
	fi
	tm_wait 'finished, exit status 0' 30 && pass "run ends" || fail "run ends" "$(tm_screen | sed -n 2p)"
	tm send-keys -t t q
else
	skip "run progress bar" "dbench not installed"
fi

# ---- the events pane: focus, select, the whole line, Enter in view -----
REC="$FIX/recordings/knobs-sweep-6.18.rec"
# a tmux server of its own: the first one may still be going away
TMUX_SOCK="$TMPD/tmux-view.sock"
tm_start 120 40 "cd '$TMPD' && '$IODASH' view '$REC'; echo EXIT=\$?; sleep 60"
tm_wait '@ [0-9:.]+ / [0-9:]+ end' 15 || fail "view reaches the end" "$(tm_screen | head -1)"
for _ in 1 2 3 4 5 6 7 8; do
	tm_screen | grep -q 'Events  up: select' && break
	tm send-keys -t t Tab; sleep 0.3
done
tm_wait 'Events  up: select' 2 && pass "tab gives the events pane the focus" || fail "events focus" "$(tm_screen | grep -m1 Events)"
# the run's end: "run 1/4 ok: exit 0 after 0.6 s; throttled tasks max 1;
# tracepoint: 12 pauses, 148 ms paused" (t 0.620), cut at the pane's 24
# columns unless selected; up walks back to it
tm send-keys -t t Up; sleep 0.3
tm_wait 'Events  Enter: go to' 2 && pass "up selects an event" || fail "up selects an event" "$(tm_screen | grep -m1 Events)"
found=0
for _ in $(seq 40); do
	tm_screen | grep -q '148 ms paused' && { found=1; break; }
	tm send-keys -t t Up; sleep 0.2
done
if [ $found = 1 ]; then pass "the events pane scrolls back to an older event, its line whole"
else fail "the events pane scrolls back, the selected line whole" "$(tm_screen | sed -n 24,38p)"; fi
# its whole text: wrapped between words over the pane's rows (the pane's
# 24 columns from 97 on: characters, not bytes), the words in order
pane() { tm_screen | sed -E 's/^.{96}//; t; s/.*//'; }
pane | tr '\n' ' ' | grep -q 'run 1/4 ok: exit 0 after 0.6 s; throttled tasks max 1; tracepoint: 12 pauses, 148 ms paused' \
	&& pass "selected event wrapped whole" || fail "selected event wrapped whole" "$(pane | sed -n 24,38p)"
tm send-keys -t t ' '      # pause: the jump stays where it lands
sleep 0.5
tm send-keys -t t Enter
if tm_wait '@ 0:00:00\.[67] / ' 5; then pass "Enter goes to the event's time (0.62 s)"
else fail "Enter goes to the event's time" "$(tm_screen | head -1)"; fi
tm send-keys -t t q
tm_wait 'EXIT=0' 5 && pass "view quits 0" || fail "view quits" "$(tm_screen | tail -2)"
