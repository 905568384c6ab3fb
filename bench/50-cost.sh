#!/usr/bin/env bash
# What watching costs the machine, side by side in one run:
#   cpu       CPU seconds per second (run time of every thread, from
#             /proc/PID/task/*/schedstat) of `iodash -i 0.1 -r 1` (full dashboard),
#             `iodash` (default -i 0.5) and `htop -d 10`, each in its own
#             120x40 tmux pane, over the same COST_SECONDS (default 30)
#             of steady state; the ratios to htop's figure
#   wakeups   voluntary context switches per second of iodash -i 0.1 -r 1,
#             summed over /proc/PID/task/*/status (every wait that slept)
#   syscalls  strace -f -c attached to iodash -i 0.1 -r 1 for 10 s:
#             calls per sample (100 samples), and the five most frequent
# LONG=1 adds the memory part: iodash -i 0.01 with the full dashboard for
# LONG_SECONDS (default 3600), Private_Dirty of /proc/PID/smaps_rollup
# every minute; printed at the end and at half time (growth over the last
# half).  Run as the user would: as root iodash follows the kernel's
# tracepoints and publishes to pmcd, as it does by default.
set -u
cd "$(dirname "$0")/.."
SECS=${COST_SECONDS:-30}
. bench/lib.sh
tmux_bench cost

start() { # name cmd: a pane running cmd; prints its pid
	tm_pane "$1" "$2"
	tm display -p -t "$1" '#{pane_pid}'
}
ticks() { echo $(( $(cpu_ns "$1") / 1000 )); }   # us
vcsw() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ {n += $2} END {print n + 0}'; }

p_fast=$(start fast "env TERM=tmux-256color ./iodash -i 0.1 -r 1")
p_def=$(start def "env TERM=tmux-256color ./iodash")
p_htop=
command -v htop >/dev/null && p_htop=$(start htop "env TERM=tmux-256color HOME=$D htop -d 10")
sleep 3    # past the start-up (tracepoint set-up, first paints)
t0_f=$(ticks "$p_fast") t0_d=$(ticks "$p_def") t0_h=0
[ -n "$p_htop" ] && t0_h=$(ticks "$p_htop")
w0=$(vcsw "$p_fast") u0=$(awk '{print $1}' /proc/uptime)
sleep "$SECS"
t1_f=$(ticks "$p_fast") t1_d=$(ticks "$p_def") t1_h=0
[ -n "$p_htop" ] && t1_h=$(ticks "$p_htop")
w1=$(vcsw "$p_fast") u1=$(awk '{print $1}' /proc/uptime)
awk -v hz=1000000 -v f=$((t1_f - t0_f)) -v d=$((t1_d - t0_d)) -v h=$((t1_h - t0_h)) \
    -v w=$((w1 - w0)) -v u0="$u0" -v u1="$u1" -v hh="${p_htop:+1}" 'BEGIN {
	s = u1 - u0
	printf "cost: %.1f s side by side, 120x40 each\n", s
	printf "cost: iodash -i 0.1 -r 1   %6.2f ms cpu/s\n", f / hz / s * 1000
	printf "cost: iodash (-i 0.5)      %6.2f ms cpu/s\n", d / hz / s * 1000
	if (hh) {
		printf "cost: htop -d 10           %6.2f ms cpu/s\n", h / hz / s * 1000
		if (h > 0)
			printf "cost: ratio to htop: -i 0.1 -r 1 %.2f, default %.2f (cpu us %d, %d / %d)\n",
				f / h, d / h, f, d, h
	}
	printf "cost: wakeups of iodash -i 0.1 -r 1: %.1f/s (voluntary context switches, all threads)\n", w / s
}'
if command -v strace >/dev/null; then
	timeout -s INT 10 strace -f -c -o "$D/strace.txt" -p "$p_fast" >/dev/null 2>&1
	# strace -c: "100.00 ... total" closes the table; the calls column is
	# the 4th of a line with errors, else also the 4th
	awk '/ total$/ { printf "cost: syscalls of iodash -i 0.1 -r 1 over 10 s: %d = %.1f per sample\n", $4, $4 / 100 }' "$D/strace.txt"
	awk '$1 ~ /^[0-9.]+$/ && NF >= 5 && $NF != "total" { printf "%s %s\n", $4, $NF }' "$D/strace.txt" \
		| sort -rn | head -6 | awk '{ printf "%s%s %s", (NR > 1 ? ", " : "cost:   most: "), $2, $1 } END { print "" }'
else
	echo "cost: strace missing, syscalls not counted"
fi
for s in fast def htop; do tm send-keys -t "$s" q 2>/dev/null; done

[ "${LONG:-0}" = 1 ] || exit 0
LS=${LONG_SECONDS:-3600}
p_long=$(start long "env TERM=tmux-256color ./iodash -i 0.01 -r 1")
pd() { awk '/^Private_Dirty/ {print $2}' "/proc/$1/smaps_rollup" 2>/dev/null; }
: >"$D/pd"
for ((t = 0; t <= LS; t += 60)); do
	v=$(pd "$p_long")
	[ -n "$v" ] || { echo "cost: iodash -i 0.01 went away after $t s"; break; }
	echo "$t $v" >>"$D/pd"
	echo "cost:   $t s: Private_Dirty $v KiB"   # as it goes: a cut run keeps its figures
	[ $t -lt "$LS" ] && sleep 60
done
awk -v ls="$LS" '{ t[NR] = $1; v[NR] = $2 } END {
	half = 0; for (i = 1; i <= NR; i++) if (t[i] <= ls / 2) half = i
	max = 0; for (i = half; i <= NR; i++) if (v[i] > max) max = v[i]
	printf "cost: iodash -i 0.01 full dashboard, Private_Dirty: %d KiB at %d s, %d KiB at %d s (growth over the last half %+d KiB, max there %d KiB)\n",
		v[half], t[half], v[NR], t[NR], v[NR] - v[half], max
}' "$D/pd"
tm send-keys -t long q
