#!/usr/bin/env bash
# The cost of one scan of the context panel (at most one a second while it
# is shown): wall and CPU time per scan (best of 3 runs of N=200), and
# callgrind instructions in user space: (N=200 - N=0) / 200.
set -u
cd "$(dirname "$0")/.."
bin=build/bench/bench_procio
n=200
[ -x "$bin" ] || { echo "$bin not built (make bench builds it)"; exit 1; }
best=
for run in 1 2 3; do
	line=$("$bin" $n) || exit 1
	echo "  run $run: $line"
	us=$(sed -n 's/.*, \([0-9.]*\) us\/scan CPU.*/\1/p' <<<"$line")
	if [ -z "$best" ] || awk -v a="$us" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$us; fi
done
instr=n/a
if command -v valgrind >/dev/null; then
	tmp=$(mktemp -d /tmp/iodash-bench.XXXXXX)
	count() {
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" "$bin" "$1" >/dev/null 2>"$tmp/log.$1" || return 1
		sed -n 's/^\(summary\|totals\): *\([0-9]*\).*/\2/p' "$tmp/cg.$1" | tail -1
	}
	if i0=$(count 0) && i1=$(count $n) && [ -n "$i0" ] && [ -n "$i1" ]; then
		instr=$(( (i1 - i0) / n ))
	fi
	rm -rf "$tmp"
fi
echo "procio scan: $best us CPU/scan, $instr instructions/scan (user space)"
