#!/usr/bin/env bash
# CPU time `iodash --batch -i 0.1` spends per second of wall time (live /proc).
set -u
secs=${BENCH_BATCH_SECONDS:-30}
out=$(mktemp)
TIMEFORMAT='%U %S %R'
t=$( { time ./iodash --batch -i 0.1 --duration "$secs" >"$out" 2>/dev/null; } 2>&1 )
lines=$(grep -c '^[0-9]' "$out")
rm -f "$out"
read -r user sys wall <<<"$t"
awk -v u="$user" -v s="$sys" -v w="$wall" -v n="$lines" -v secs="$secs" 'BEGIN {
	printf "batch -i 0.1 for %ss: %d samples, cpu %.3fs (user %.3f sys %.3f) over %.2fs wall = %.2f ms cpu per wall second (%.2f%% of a core), %.0f us cpu per sample\n",
		secs, n, u + s, u, s, w, (u + s) / w * 1000, (u + s) / w * 100, (u + s) / n * 1e6 }'
