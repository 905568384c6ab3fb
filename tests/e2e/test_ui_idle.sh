#!/usr/bin/env bash
# What the live screen costs while nobody types: only the sampler wakes per
# sample; the screen's thread wakes for its refresh, not for each sample,
# and never spins (after the sampling ended, while paused).
#
# Counted, not timed: voluntary context switches of a thread are its
# sleeps (each wait that blocked).  At -i 0.1 -r 1 a thread woken by every
# sample sleeps 10 times a second, one woken by its refresh about once; a
# spinning one uses a whole CPU.  Loose bounds: 3 a second against 10 for
# the screen, and a tenth of a CPU against one for the spin.
. "$(dirname "$0")/lib.sh"
[ -x "$IODASH" ] || { skip "ui idle" "./iodash not built"; exit 0; }
command -v tmux >/dev/null || { skip "ui idle" "tmux missing"; exit 0; }
export TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8

# the pane's process is iodash itself (exec)
pane_pid() { tm display -p -t t '#{pane_pid}'; }
# "TID voluntary_switches cpu_ns" per thread
threads() {
	local t
	for t in /proc/"$1"/task/*; do
		echo "${t##*/} $(awk '/^voluntary_ctxt_switches/ {print $2}' "$t/status") $(awk '{print $1}' "$t/schedstat")"
	done
}

tm_start 120 40 "exec '$IODASH' -i 0.1 -r 1 --no-record --no-publish --no-trace"
tm_wait 'Dirty memory' 10 || { fail "live screen up" "$(tm_screen | head -3)"; exit 0; }
pid=$(pane_pid)
sleep 1
threads "$pid" >"$TMPD/a"
sleep 5
threads "$pid" >"$TMPD/b"
# the main thread (tid = pid) is the screen's; the sampler is the busiest other
join "$TMPD/a" "$TMPD/b" | awk -v p="$pid" '{ w = ($4 - $2) / 5; if ($1 == p) print "screen", w; else print "other", w }' >"$TMPD/w"
ui=$(awk '$1 == "screen" {print $2}' "$TMPD/w")
smp=$(awk '$1 == "other" && $2 > m {m = $2} END {print m + 0}' "$TMPD/w")
check "-i 0.1 -r 1: the screen's thread sleeps about once a second, not per sample (${ui}/s; the sampler ${smp}/s)" \
	awk -v u="$ui" -v s="$smp" 'BEGIN { exit !(u <= 3 && s >= 8) }'
tm_screen | grep -q 'Dirty memory' && pass "-i 0.1 -r 1: the screen still shows" || fail "-i 0.1 -r 1: the screen still shows"

# paused: the display stops, the thread must not spin
tm send-keys -t t ' '
sleep 1.5
c0=$(awk '{print $1}' /proc/"$pid"/task/"$pid"/schedstat)
sleep 3
c1=$(awk '{print $1}' /proc/"$pid"/task/"$pid"/schedstat)
check "paused: the screen's thread does not spin ($(( (c1 - c0) / 3000000 )) ms cpu a second)" [ $(( (c1 - c0) / 3 )) -lt 100000000 ]
tm send-keys -t t q
tm kill-server 2>/dev/null

# sampling ended (--duration), the screen stays until q: no spin either
tm_start 120 40 "exec '$IODASH' -i 0.1 -r 1 --duration 1 --no-record --no-publish --no-trace"
tm_wait 'Dirty memory' 10 || { fail "live screen up (--duration 1)" "$(tm_screen | head -3)"; exit 0; }
pid=$(pane_pid)
sleep 2.5
if [ -d /proc/"$pid" ]; then
	c0=$(awk '{print $1}' /proc/"$pid"/task/"$pid"/schedstat)
	sleep 3
	c1=$(awk '{print $1}' /proc/"$pid"/task/"$pid"/schedstat)
	check "after --duration ended: the screen's thread does not spin ($(( (c1 - c0) / 3000000 )) ms cpu a second)" [ $(( (c1 - c0) / 3 )) -lt 100000000 ]
	tm send-keys -t t q
else
	pass "after --duration ended: the screen closed by itself"
fi
