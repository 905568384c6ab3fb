#!/usr/bin/env bash
# The per-sample cost of probe+derive on the live /proc: wall time (best
# of 3 runs of N=1000), and callgrind instructions: (N=1000 - N=0) / 1000.
set -u
cd "$(dirname "$0")/.."
bin=build/bench/bench_probe
n=1000
[ -x "$bin" ] || { echo "$bin not built (make bench builds it)"; exit 1; }
. bench/lib.sh
best_of_3 "$bin" $n 's/.*probe+derive: \([0-9.]*\) us.*/\1/p' || exit 1
best=$BEST
callgrind_per "$bin" $n
instr=$INSTR
echo "probe+derive: $best us/sample, $instr instructions/sample"
