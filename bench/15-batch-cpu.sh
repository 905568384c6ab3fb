#!/usr/bin/env bash
# CPU time `iodash --batch -i 0.1` spends per second of wall time (live /proc).
set -u
secs=${BENCH_BATCH_SECONDS:-30}
out=$(mktemp)
start=$(date +%s.%N)
# bash's `times`-free way: GNU time is not always installed; read /proc/PID/stat at the end
./iodash --batch -i 0.1 --duration "$secs" >"$out" &
pid=$!
last=""
while kill -0 "$pid" 2>/dev/null; do
	s=$(cat /proc/$pid/stat 2>/dev/null) && last=$s
	sleep 0.2
done
wait "$pid"
end=$(date +%s.%N)
lines=$(grep -c '^[0-9]' "$out")
rm -f "$out"
tck=$(getconf CLK_TCK)
# fields 14 utime, 15 stime (after the comm field, which has no spaces here)
set -- $last
cpu=$(echo "(${14} + ${15}) / $tck" | bc -l)
wall=$(echo "$end - $start" | bc -l)
printf 'batch -i 0.1 for %ss: %d samples, cpu %.3fs over %.1fs wall = %.2f ms cpu per wall second (%.2f%% of a core)\n' \
	"$secs" "$lines" "$cpu" "$wall" "$(echo "$cpu / $wall * 1000" | bc -l)" "$(echo "$cpu / $wall * 100" | bc -l)"
