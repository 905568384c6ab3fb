#!/usr/bin/env bash
# Runs every test of `make check` and prints one closing line:
#   "N passed, N failed, N skipped"
# Unit tests are cmocka binaries (plain and ASan+UBSan builds); end-to-end
# tests are tests/e2e/test_*.sh, which print PASS:/FAIL:/SKIP: lines
# (tests/e2e/lib.sh); fuzz smoke runs every fuzz target briefly.
set -u
cd "$(dirname "$0")/.."
log=build/test-logs
rm -rf "$log"; mkdir -p "$log"
pass=0 fail=0 skip=0 failed_names=()

count_cmocka() { # $1 name, $2 logfile, $3 exit status
	local p f s
	p=$(grep -c '^\[       OK \]' "$2")
	f=$(grep -E '^\[  FAILED  \] [A-Za-z_]' "$2" | grep -vc 'test(s)')
	s=$(grep -c '^\[  SKIPPED \]' "$2")
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then fail=$((fail + 1)); fi
	if [ "$3" -ne 0 ] || [ "$f" -ne 0 ]; then failed_names+=("$1"); fi
	printf '%-40s %d ok, %d failed, %d skipped\n' "$1" "$p" "$f" "$s"
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for t in build/tests/test_* build/asan/tests/test_*; do
	[ -x "$t" ] || continue
	name=${t#build/}
	"$t" >"$log/${name//\//_}.log" 2>&1; rc=$?
	count_cmocka "$name" "$log/${name//\//_}.log" $rc
	[ $rc -ne 0 ] && tail -n 30 "$log/${name//\//_}.log"
done

for t in tests/e2e/test_*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	timeout 600 bash "$t" >"$log/e2e_$name.log" 2>&1; rc=$?
	p=$(grep -c '^PASS: ' "$log/e2e_$name.log")
	f=$(grep -c '^FAIL: ' "$log/e2e_$name.log")
	s=$(grep -c '^SKIP: ' "$log/e2e_$name.log")
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "FAIL: $name exited $rc" >>"$log/e2e_$name.log"; fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	printf '%-40s %d ok, %d failed, %d skipped\n' "e2e/$name" "$p" "$f" "$s"
	grep -E '^(FAIL|SKIP): ' "$log/e2e_$name.log" | sed 's/^/    /'
	[ "$f" -ne 0 ] && { failed_names+=("e2e/$name"); tail -n 30 "$log/e2e_$name.log"; }
done

if [ -x tests/fuzz.sh ]; then
	if tests/fuzz.sh "${FUZZ_SMOKE_SECONDS:-10}" >"$log/fuzz.log" 2>&1; then
		p=$(grep -c '^PASS: ' "$log/fuzz.log"); pass=$((pass + p))
		printf '%-40s %d ok\n' "fuzz (smoke)" "$p"
	else
		fail=$((fail + 1)); failed_names+=("fuzz"); tail -n 40 "$log/fuzz.log"
	fi
fi

[ ${#failed_names[@]} -gt 0 ] && echo "failed: ${failed_names[*]} (logs in $log/)"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
