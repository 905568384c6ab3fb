#!/usr/bin/env bash
# compare of real --sysctl sweeps of a command no parser reads (issue 27
# points 3-5): two recordings made with different -l (as two kernels
# would be) give a block per knob setting and a column per label, on the
# runs' own figures (run_dev_Bps ...); two recordings made with the same
# -l pool into one label.  Root: it sets vm.dirty_* (under the knobs lock,
# put back at the end).
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "compare of --sysctl sweeps" "needs root to set vm.dirty_*"
	exit 0
fi
knobs_hold
D="$TMPD/d"
mkdir -p "$D"

# $1 recording, $2 label: 2 settings x 2 runs of a small buffered dd
sweep() {
	timeout 120 "$IODASH" --batch -i 0.1 -l "$2" -o "$1" sweep \
		--sysctl 'vm.dirty_background_bytes={bg}' --sysctl 'vm.dirty_bytes={d}' \
		-p bg,d=32M:64M,64M:128M --repeat 2 -- \
		sh -c "dd if=/dev/zero of=$D/f bs=1M count=16 status=none conv=fsync" >"$1.out" 2>&1
}
sweep "$TMPD/a.rec" kernelA; rca=$?
sweep "$TMPD/b.rec" kernelB; rcb=$?
check "two sweeps of dd: exit 0" [ "$rca" -eq 0 -a "$rcb" -eq 0 ]

"$IODASH" compare --text --metric run_dev_Bps "$TMPD/a.rec" "$TMPD/b.rec" >"$TMPD/ab.txt" 2>"$TMPD/ab.err"; rc=$?
check "compare of two dd sweeps: results (the runs' own figures)" [ "$rc" -eq 0 ]
check "compare of two dd sweeps: not 'no result points'" bash -c "! grep -q 'no result points' '$TMPD/ab.err'"
check "compare of two dd sweeps: a block per setting" \
	[ "$(grep -c '^setting vm.dirty_background_bytes=\(32M,vm.dirty_bytes=64M\|64M,vm.dirty_bytes=128M\):$' "$TMPD/ab.txt")" -eq 2 ]
check "compare of two dd sweeps: a column per label in each block, 2 runs each" \
	[ "$(grep -Ec '^ +kernelA \(2 runs\) +kernelB \(2 runs\)$' "$TMPD/ab.txt")" -eq 2 ]
check "compare of two dd sweeps: change of kernelB within each block" \
	[ "$(grep -Ec '^ +run +mean .* change' "$TMPD/ab.txt")" -eq 2 ]

# the same -l twice: one label, its runs pooled
sweep "$TMPD/a2.rec" kernelA; rc=$?
"$IODASH" compare --text --metric run_dev_Bps "$TMPD/a.rec" "$TMPD/a2.rec" >"$TMPD/aa.txt" 2>"$TMPD/aa.err"
check "two recordings with one -l: pooled into one label of 4 runs a setting" \
	[ "$(grep -Ec '^ +kernelA \(4 runs\)$' "$TMPD/aa.txt")" -eq 2 ]
check "two recordings with one -l: not shown apart" bash -c "! grep -q 'kernelA#2' '$TMPD/aa.txt' '$TMPD/aa.err'"
check "two recordings with one -l: the label says both sources" grep -q '^  kernelA: .*a.rec, .*a2.rec.*(2 sources pooled)' "$TMPD/aa.txt"

# --batch: a result says its run's setting after the label (a -p only a
# --sysctl takes is no longer part of the label)
timeout 60 "$IODASH" --batch -i 0.1 -l knobs sweep --sysctl 'vm.dirty_expire_centisecs={e}' -p e=2999,3001 \
	--parser dbench -- sh -c 'echo "Throughput 100.5 MB/sec 4 clients 4 procs max_latency=1.000 ms"' \
	>"$TMPD/batch.out" 2>&1
check "--batch: a result's setting after its label" grep -q 'result: knobs \[vm.dirty_expire_centisecs=3001\] pass 1 e=3001 throughput=100.5 MB/s' "$TMPD/batch.out"
