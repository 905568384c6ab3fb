#!/usr/bin/env bash
# CPU per second of `iodash --batch -i 0.1` during the throttle repro (a
# 10 s buffered overwrite of a cached 2 GB file at dirty_bytes 256M /
# dirty_background_bytes 128M), following the kernel's tracepoints and
# with --no-trace, one after the other.  Root only (the knobs, tracefs);
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
	rm -rf "$W"
}
trap restore EXIT
dd if=/dev/zero of="$W/f" bs=1M count=2048 status=none && sync
echo 268435456 >$V/dirty_bytes; echo 134217728 >$V/dirty_background_bytes

one() { # LABEL IODASH-ARGS...
	local label=$1; shift
	local out="$W/$label.out"
	sync; sleep 1
	./iodash --batch -i 0.1 --duration 12 "$@" >"$out" 2>/dev/null &
	local p=$!
	sleep 1
	fio --name=bw --filename="$W/f" --size=2G --rw=write --bs=1M --ioengine=psync --direct=0 \
		--invalidate=0 --time_based --runtime=10 >/dev/null 2>&1
	# utime and stime of iodash (all threads) from /proc before it exits
	local ticks wall
	ticks=$(awk '{print $14 + $15}' /proc/$p/stat)
	wall=$(awk -v hz="$(getconf CLK_TCK)" -v st="$(awk '{print $22}' /proc/$p/stat)" \
		'{print $1 - st / hz}' /proc/uptime)
	wait "$p"
	local eps pauses
	eps=$(grep -c '^! .* throttle start' "$out")
	pauses=$(awk '/^# time/ { for (i = 1; i <= NF; i++) if ($i == "pauses_s") c = i - 1 }
		c && /^[0-9]/ { n += $c * 0.1 } END { printf "%.0f", n }' "$out")
	awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v w="$wall" -v l="$label" -v e="$eps" -v pz="$pauses" 'BEGIN {
		printf "%-10s cpu %.2fs over %.1fs = %.1f ms cpu per second (%.2f%% of a core); %d episode lines%s\n",
			l, t / hz, w, t / hz / w * 1000, t / hz / w * 100, e, l == "tracing" ? sprintf(", ~%s pauses seen", pz) : "" }'
}
echo "ktrace cpu: iodash --batch -i 0.1 during a 10 s buffered 2 GB overwrite at 256M/128M"
one tracing
one no-trace --no-trace
