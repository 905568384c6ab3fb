#!/usr/bin/env bash
# Flakiness hunt: each end-to-end test N times in a row (default 5), on the
# iodash already built (make all).  Prints, per test, how many runs failed
# and the first failing check, then one line per test with failures.
#   tests/repeat-e2e.sh [N] [tests/e2e/test_X.sh ...]
set -u
cd "$(dirname "$0")/.."
n=${1:-5}; [ $# -gt 0 ] && shift
tests=("$@"); [ ${#tests[@]} -eq 0 ] && tests=(tests/e2e/test_*.sh)
log=build/repeat-logs; rm -rf "$log"; mkdir -p "$log"
flaky=()
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh) bad=0 first= t0=$SECONDS
	for i in $(seq "$n"); do
		lf="$log/$name.$i.log"
		timeout 600 bash "$t" >"$lf" 2>&1; rc=$?
		if grep -q '^FAIL: ' "$lf" || [ $rc -ne 0 ]; then
			bad=$((bad + 1))
			[ -n "$first" ] || first="run $i: $(grep -m1 "^FAIL: " "$lf" | cut -c1-200) (exit $rc)"
		fi
	done
	printf '%-32s %d of %d failed (%d s)%s\n' "$name" $bad "$n" $((SECONDS - t0)) "${first:+  $first}"
	[ $bad -gt 0 ] && flaky+=("$name $bad/$n")
done
echo "tests with failures: ${#flaky[@]}${flaky:+ (${flaky[*]})}"
[ ${#flaky[@]} -eq 0 ]
