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
	tm kill-server 2>/dev/null
else
	skip "run progress bar" "dbench not installed"
fi
