#!/usr/bin/env bash
# What watching costs the machine.  Three runs of COST_SECONDS (default 30)
# steady state, each a watcher side by side with `htop -d 10`, each in its
# own 120x40 tmux pane, so that both see the same machine:
#   1. `iodash -i 0.1 -r 1` (full dashboard)
#   2. `iodash` (the default, -i 0.5)
#   3. build/bench/bench_bare 0.1: the reads iodash makes (vmstat and
#      diskstats ten times a second; meminfo, the dirty_* knobs and PSI
#      once a second), preads and nothing else: the floor
#   4. bench_bare --libproc2 0.1: the same with vmstat read by libproc2 as
#      iodash reads it: what the library's read costs, end to end
#   5. bench_bare --wake 0.1: no read, only the wake-ups
# and then iodash's cost taken apart, each part as a share of htop.
# Apart, not all at once: while iodash follows the kernel's tracepoints,
# every read of /proc/vmstat by anyone fires a global_dirty_state event
# into its trace buffers, which it must then read; a second watcher
# beside it would be counted in its cost.
#   cpu       CPU seconds per second (run time of every thread, from
#             /proc/PID/task/*/schedstat), and each one's ratio to the
#             htop of its run
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
command -v htop >/dev/null || echo "cost: htop missing (apt-get install htop): no ratios"

# side_by_side NAME CMD: CMD and htop -d 10 for SECS; prints the figures
# and leaves CMD running (its pid in P_RUN, wakeups a second in WAKE)
side_by_side() {
	local p_htop= t0 t1 h0=0 h1=0 w0 w1 u0 u1
	P_RUN=$(start "$1" "$2")
	command -v htop >/dev/null && p_htop=$(start "htop-$1" "env TERM=tmux-256color HOME=$D htop -d 10")
	sleep 3    # past the start-up (tracepoint set-up, first paints)
	t0=$(ticks "$P_RUN"); [ -n "$p_htop" ] && h0=$(ticks "$p_htop")
	w0=$(vcsw "$P_RUN") u0=$(awk '{print $1}' /proc/uptime)
	sleep "$SECS"
	t1=$(ticks "$P_RUN"); [ -n "$p_htop" ] && h1=$(ticks "$p_htop")
	w1=$(vcsw "$P_RUN") u1=$(awk '{print $1}' /proc/uptime)
	[ -n "$p_htop" ] && tm send-keys -t "htop-$1" q
	WAKE=$(awk -v w=$((w1 - w0)) -v u0="$u0" -v u1="$u1" 'BEGIN { printf "%.1f", w / (u1 - u0) }')
	RATIO=$(awk -v f=$((t1 - t0)) -v h=$((h1 - h0)) 'BEGIN { if (h > 0) printf "%.2f", f / h }')
	awk -v n="$3" -v f=$((t1 - t0)) -v h=$((h1 - h0)) -v u0="$u0" -v u1="$u1" -v hh="${p_htop:+1}" 'BEGIN {
		s = u1 - u0
		if (hh && h > 0)
			printf "cost: %-26s %5.2f ms cpu/s, htop -d 10 beside it %5.2f ms cpu/s: ratio %.2f (%.1f s)\n",
				n, f / s / 1000, h / s / 1000, f / h, s
		else
			printf "cost: %-26s %5.2f ms cpu/s (%.1f s)\n", n, f / s / 1000, s
	}'
}

side_by_side fast "env TERM=tmux-256color ./iodash -i 0.1 -r 1" "iodash -i 0.1 -r 1"
r_fast=$RATIO
echo "cost: wakeups of iodash -i 0.1 -r 1: $WAKE/s (voluntary context switches, all threads)"
if command -v strace >/dev/null; then
	timeout -s INT 10 strace -f -c -o "$D/strace.txt" -p "$P_RUN" >/dev/null 2>&1
	# strace -c: "100.00 ... total" closes the table; the calls column is
	# the 4th of a line with errors, else also the 4th
	awk '/ total$/ { printf "cost: syscalls of iodash -i 0.1 -r 1 over 10 s: %d = %.1f per sample\n", $4, $4 / 100 }' "$D/strace.txt"
	awk '$1 ~ /^[0-9.]+$/ && NF >= 5 && $NF != "total" { printf "%s %s\n", $4, $NF }' "$D/strace.txt" \
		| sort -rn | head -6 | awk '{ printf "%s%s %s", (NR > 1 ? ", " : "cost:   most: "), $2, $1 } END { print "" }'
else
	echo "cost: strace missing, syscalls not counted"
fi
tm send-keys -t fast q
side_by_side def "env TERM=tmux-256color ./iodash" "iodash (-i 0.5)"
tm send-keys -t def q
if [ -x build/bench/bench_bare ]; then
	side_by_side bare "build/bench/bench_bare 0.1" "its reads, bare, at 10 Hz"
	kill "$P_RUN" 2>/dev/null
	r_bare=$RATIO
	side_by_side lib "build/bench/bench_bare --libproc2 0.1" "the same, vmstat by libproc2"
	kill "$P_RUN" 2>/dev/null
	r_lib=$RATIO
	side_by_side wake "build/bench/bench_bare --wake 0.1" "waking at 10 Hz, no read"
	kill "$P_RUN" 2>/dev/null
	r_wake=$RATIO
	[ -n "$r_bare" ] && [ -n "$r_lib" ] && [ -n "$r_wake" ] &&
		awk -v w="$r_wake" -v b="$r_bare" -v l="$r_lib" -v f="$r_fast" 'BEGIN {
			printf "cost: iodash -i 0.1 -r 1 in shares of htop: waking 10 times a second %.2f; + its reads %+.2f; + libproc2 parsing vmstat %+.2f; + all the rest (its parsing, deriving, tracing, publishing, the screen) %+.2f\n", w, b - w, l - b, f - l
		}'
else
	echo "cost: build/bench/bench_bare not built (make bench builds it): no floor"
fi

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
