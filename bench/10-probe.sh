#!/usr/bin/env bash
# The per-sample cost of probe+derive on the live /proc: wall time (best
# of 3 runs of N=1000), and callgrind instructions: (N=1000 - N=0) / 1000.
#   every source   meminfo, knobs and PSI read at every sample
#   between        the samples in between their once-a-second reads (the
#                  sampler's pace: vmstat, our diskstats)
#   at -i 0.1      between + (every source - between) / 10
# Then libproc2's part: each of its three reads a call (callgrind,
# inclusive), next to a pread + parse of the same file by probe_text.c,
# and what a pread of vmstat and a scan for the six counters a sample
# needs would cost instead of libproc2's read (not what iodash does).
set -u
cd "$(dirname "$0")/.."
bin=build/bench/bench_probe
lib=build/bench/bench_libproc2
n=1000
[ -x "$bin" ] && [ -x "$lib" ] || { echo "$bin or $lib not built (make bench builds them)"; exit 1; }
. bench/lib.sh
best_of_3 "$bin" $n 's/.*probe+derive: \([0-9.]*\) us.*/\1/p' || exit 1
all_us=$BEST
callgrind_per "$bin" $n
all=$INSTR
best_of_3 "$bin" $n 's/.*probe+derive: \([0-9.]*\) us.*/\1/p' slow || exit 1
mid_us=$BEST
callgrind_per "$bin" $n slow
mid=$INSTR
echo "probe+derive, every source: $all_us us/sample, $all instructions/sample"
echo "probe+derive, between once-a-second reads: $mid_us us/sample, $mid instructions/sample"
if [ "$all" != n/a ] && [ "$mid" != n/a ]; then
	echo "probe+derive at -i 0.1: $(( mid + (all - mid) / 10 )) instructions/sample"
fi
command -v valgrind >/dev/null || exit 0
tmp=$(mktemp -d /tmp/iodash-bench.XXXXXX)
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$lib" $n >/dev/null 2>"$tmp/log" \
	|| { echo "libproc2: callgrind failed: $(tail -2 "$tmp/log")"; rm -rf "$tmp"; exit 0; }
callgrind_annotate --inclusive=yes "$tmp/cg" 2>/dev/null \
	| sed -n 's/^ *\([0-9,]*\) .*bench_libproc2\.c:\(via_libproc2_[a-z]*\|direct_[a-z0-9]*\) .*/\2 \1/p' \
	| tr -d , | awk -v n=$n '{ c[$1] = $2 / n } END {
		split("vmstat meminfo diskstats", f, " ")
		for (i = 1; i <= 3; i++)
			printf "libproc2 %s: %d instructions a read (a pread + our parse of the same file: %d)\n",
				f[i], c["via_libproc2_" f[i]], c["direct_" f[i]]
		printf "vmstat, a pread and a scan for only the six counters a sample needs: %d instructions a read (not used: libproc2 is the live source)\n", c["direct_vmstat6"]
	}'
rm -rf "$tmp"
