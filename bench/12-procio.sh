#!/usr/bin/env bash
# The cost of one scan of the context panel (at most one a second while it
# is shown): wall and CPU time per scan (best of 3 runs of N=200), and
# callgrind instructions in user space: (N=200 - N=0) / 200.
set -u
cd "$(dirname "$0")/.."
bin=build/bench/bench_procio
n=200
[ -x "$bin" ] || { echo "$bin not built (make bench builds it)"; exit 1; }
. bench/lib.sh
best_of_3 "$bin" $n 's/.*, \([0-9.]*\) us\/scan CPU.*/\1/p' || exit 1
best=$BEST
callgrind_per "$bin" $n
instr=$INSTR
echo "procio scan: $best us CPU/scan, $instr instructions/scan (user space)"
