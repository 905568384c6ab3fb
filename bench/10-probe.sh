#!/usr/bin/env bash
# The per-sample cost of probe+derive on the live /proc: wall time (best
# of 3 runs of N=1000), and callgrind instructions: (N=1000 - N=0) / 1000.
set -u
cd "$(dirname "$0")/.."
bin=build/bench/bench_probe
n=1000
[ -x "$bin" ] || { echo "$bin not built (make bench builds it)"; exit 1; }
best=
for run in 1 2 3; do
	line=$("$bin" $n) || exit 1
	echo "  run $run: $line"
	us=$(sed -n 's/.*probe+derive: \([0-9.]*\) us.*/\1/p' <<<"$line")
	if [ -z "$best" ] || awk -v a="$us" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$us; fi
done
instr=n/a
if command -v valgrind >/dev/null; then
	tmp=$(mktemp -d /tmp/iodash-bench.XXXXXX)
	count() { # N -> total instructions of a run
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" "$bin" "$1" >/dev/null 2>"$tmp/log.$1" || return 1
		sed -n 's/^\(summary\|totals\): *\([0-9]*\).*/\2/p' "$tmp/cg.$1" | tail -1
	}
	if i0=$(count 0) && i1=$(count $n) && [ -n "$i0" ] && [ -n "$i1" ]; then
		instr=$(( (i1 - i0) / n ))
		echo "  callgrind: N=0 $i0, N=$n $i1 instructions"
	else
		echo "  callgrind failed: $(tail -n 3 "$tmp"/log.* 2>/dev/null)"
	fi
	rm -rf "$tmp"
fi
echo "probe+derive: $best us/sample, $instr instructions/sample"
