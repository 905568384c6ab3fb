#!/usr/bin/env bash
# Runs every test of `make check` and prints one closing line:
#   "N passed, N failed, N skipped"
# Unit tests are cmocka binaries (plain, ASan+UBSan and TSan builds);
# end-to-end tests are tests/e2e/test_*.sh, which print PASS:/FAIL:/SKIP:
# lines (tests/e2e/lib.sh), and those of the threaded paths run again with
# the TSan iodash; fuzz smoke runs every fuzz target briefly.
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
# a race stops the binary with status 66: the test fails, never just warns
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
for t in build/tests/test_* build/asan/tests/test_* build/tsan/tests/test_*; do
	[ -x "$t" ] || continue
	name=${t#build/}
	"$t" >"$log/${name//\//_}.log" 2>&1; rc=$?
	count_cmocka "$name" "$log/${name//\//_}.log" $rc
	[ $rc -ne 0 ] && tail -n 30 "$log/${name//\//_}.log"
done

run_e2e() { # $1 script, $2 name shown, $3 log file; the environment is the test's
	local t=$1 name=$2 lf=$3 p f s rc t0=$SECONDS
	if grep -q '^[^#]*knobs_hold' "$t"; then
		# the machine's knobs lock is taken here, before the test's 600 s
		# start: on a shared machine the wait for it is not the test's time
		# (knobs_hold sees IODASH_KNOBS_HELD and does not take it again)
		flock /tmp/iodash-knobs.lock env IODASH_KNOBS_HELD=1 timeout 600 bash "$t" >"$lf" 2>&1; rc=$?
	else
		timeout 600 bash "$t" >"$lf" 2>&1; rc=$?
	fi
	# under TSan a race report (log_path below) fails the test even when
	# the checks after it happened to pass
	if [ -n "${TSAN_REPORT:-}" ]; then
		for r in "$TSAN_REPORT".*; do
			[ -f "$r" ] || continue
			echo "FAIL: ThreadSanitizer: $(grep -m1 '^SUMMARY' "$r") (report $r)" >>"$lf"
		done
	fi
	p=$(grep -c '^PASS: ' "$lf")
	f=$(grep -c '^FAIL: ' "$lf")
	s=$(grep -c '^SKIP: ' "$lf")
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "FAIL: $name exited $rc" >>"$lf"; fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	printf '%-40s %d ok, %d failed, %d skipped (%d s)\n' "$name" "$p" "$f" "$s" $((SECONDS - t0))
	grep -E '^(FAIL|SKIP): ' "$lf" | sed 's/^/    /'
	[ "$f" -ne 0 ] && { failed_names+=("$name"); tail -n 30 "$lf"; }
}

for t in tests/e2e/test_*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	run_e2e "$t" "e2e/$name" "$log/e2e_$name.log"
done

# The threaded paths again with the ThreadSanitizer iodash: the live
# screen (sampler thread), view (replay thread and keys; --batch and
# --follow in test_record and test_batch), run, attach and sweep (driver).
if [ -x build/tsan/iodash ]; then
	for name in test_ui_live test_view_screen test_view_keys test_run test_record test_batch test_attach test_sweep test_until_decided; do
		[ -f "tests/e2e/$name.sh" ] || continue
		TSAN_REPORT="$PWD/$log/tsan_$name.report" IODASH="$PWD/build/tsan/iodash" \
			TSAN_OPTIONS="$TSAN_OPTIONS log_path=$PWD/$log/tsan_$name.report" \
			run_e2e "tests/e2e/$name.sh" "e2e/$name (tsan)" "$log/tsan_$name.log"
	done
fi

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
