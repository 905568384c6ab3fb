#!/usr/bin/env bash
# CPU per second of `iodash --batch -i 0.1` during a throttled writer (a
# 10 s buffered overwrite of a cached 2 GB file by KT_JOBS fio writers at
# dirty_bytes KT_DIRTY / dirty_background_bytes KT_BG; default 4 writers
# at 32M/16M, the most pauses this 2-core box gives: ~120 a second, and
# ~1,200 global_dirty_state events), following the kernel's tracepoints
# and with --no-trace, one after the other, each beside htop -d 10
# measured over the same seconds.  Root only (the knobs, tracefs);
# the knobs are changed under /tmp/iodash-knobs.lock and restored in a trap.
set -u
if [ "$(id -u)" -ne 0 ]; then
	echo "ktrace cpu: skipped (needs root: vm.dirty_* and tracefs)"
	exit 0
fi
command -v fio >/dev/null || { echo "ktrace cpu: skipped (fio not installed)"; exit 0; }
exec 9>/tmp/iodash-knobs.lock
flock 9
V=/proc/sys/vm
S_DB=$(cat $V/dirty_bytes) S_DBB=$(cat $V/dirty_background_bytes)
S_R=$(cat $V/dirty_ratio) S_BR=$(cat $V/dirty_background_ratio)
W=$(mktemp -d /var/tmp/iodash-bench.XXXXXX)
restore() {
	if [ "$S_DB" != 0 ]; then echo "$S_DB" >$V/dirty_bytes; else echo "$S_R" >$V/dirty_ratio; fi
	if [ "$S_DBB" != 0 ]; then echo "$S_DBB" >$V/dirty_background_bytes; else echo "$S_BR" >$V/dirty_background_ratio; fi
	tmux -S "$W/tmux.sock" kill-server 2>/dev/null
	rm -rf "$W"
}
trap restore EXIT
dd if=/dev/zero of="$W/f" bs=1M count=2048 status=none && sync
echo "${KT_DIRTY:-33554432}" >$V/dirty_bytes; echo "${KT_BG:-16777216}" >$V/dirty_background_bytes

. bench/lib.sh
# htop -d 10 in a 120x40 tmux pane beside it, measured over the same 10 s
S="$W/tmux.sock"
have_htop=0
if command -v htop >/dev/null && command -v tmux >/dev/null; then
	tmux -S "$S" new-session -d -x 120 -y 40 -s htop "exec env TERM=tmux-256color HOME=$W htop -d 10"
	hpid=$(tmux -S "$S" display -p -t htop '#{pane_pid}')
	have_htop=1
fi

one() { # LABEL IODASH-ARGS...
	local label=$1; shift
	local out="$W/$label.out"
	sync; sleep 1
	./iodash --batch -i 0.1 --duration 12 "$@" >"$out" 2>/dev/null &
	local p=$!
	sleep 1
	local c0 h0=0 u0 c1 h1=0 u1
	c0=$(cpu_ns $p); [ $have_htop = 1 ] && h0=$(cpu_ns "$hpid"); u0=$(awk '{print $1}' /proc/uptime)
	fio --name=bw --filename="$W/f" --size=2G --rw=write --bs=1M --ioengine=psync --direct=0 --numjobs=${KT_JOBS:-4} \
		--invalidate=0 --time_based --runtime=10 >/dev/null 2>&1
	c1=$(cpu_ns $p); [ $have_htop = 1 ] && h1=$(cpu_ns "$hpid"); u1=$(awk '{print $1}' /proc/uptime)
	wait "$p"
	local eps pauses
	eps=$(grep -c '^! .* throttle start' "$out")
	pauses=$(awk '/^# time/ { for (i = 1; i <= NF; i++) if ($i == "pauses_s") c = i - 1 }
		c && /^[0-9]/ { n += $c * 0.1 } END { printf "%.0f", n }' "$out")
	awk -v c=$((c1 - c0)) -v h=$((h1 - h0)) -v hh=$have_htop -v u0="$u0" -v u1="$u1" -v l="$label" \
	    -v e="$eps" -v pz="$pauses" 'BEGIN {
		w = u1 - u0
		printf "%-10s iodash %.2f ms cpu per second over the writer'"'"'s %.1f s; %d episode lines%s\n",
			l, c / 1e6 / w, w, e, l == "tracing" ? sprintf(", %s pauses seen (%.0f/s)", pz, pz / w) : ""
		if (hh && h > 0)
			printf "%-10s htop -d 10 beside it %.2f ms cpu per second: iodash/htop %.2f\n", l, h / 1e6 / w, c / h
	}'
}
echo "ktrace cpu: iodash --batch -i 0.1 during a 10 s buffered 2 GB overwrite by ${KT_JOBS:-4} writers at dirty_bytes ${KT_DIRTY:-33554432} / background ${KT_BG:-16777216}"
one tracing
one no-trace --no-trace
