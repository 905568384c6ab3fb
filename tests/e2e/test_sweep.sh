#!/usr/bin/env bash
# iodash sweep: one run per value with the real dbench, a failed run is
# marked and the sweep goes on (or stops with --stop-on-fail), --between.
. "$(dirname "$0")/lib.sh"

W="$TMPD/work"; mkdir -p "$W"
if command -v dbench >/dev/null; then
	out="$TMPD/sweep.out"
	timeout 90 "$IODASH" --batch --no-record sweep -p clients=1,2 -- dbench -D "$W" -t 3 '{clients}' >"$out" 2>"$TMPD/sweep.err"; rc=$?
	check "sweep dbench: exit 0" [ "$rc" -eq 0 ]
	check "sweep dbench: run 1/2 with 1 client" grep -Eq "run_start: run 1/2 \[dbench\] dbench -D $W -t 3 1$" "$out"
	check "sweep dbench: run 2/2 with 2 clients" grep -Eq "run_start: run 2/2 \[dbench\] dbench -D $W -t 3 2$" "$out"
	check "sweep dbench: both runs ended ok" [ "$(grep -Ec 'run_end: run [12]/2 ok: exit 0' "$out")" -eq 2 ]
	check "sweep dbench: 1 client result" grep -Eq '^> Throughput [0-9.]+ MB/sec  1 clients  1 procs' "$out"
	check "sweep dbench: 2 clients result" grep -Eq '^> Throughput [0-9.]+ MB/sec  2 clients  2 procs' "$out"
	[ "$rc" -ne 0 ] && { grep '^=' "$out"; cat "$TMPD/sweep.err"; }
else
	skip "sweep dbench" "dbench not installed (apt-get install dbench)"
fi

# a failed run in the middle: marked, the sweep goes on, exit 1 at the end
out="$TMPD/fail.out"
timeout 30 "$IODASH" --batch --no-record sweep -p code=0,3,0 --between 'echo between {code}' -- sh -c 'echo run with {code}; exit {code}' >"$out" 2>"$TMPD/fail.err"; rc=$?
check "sweep with a failed run: exit 1" [ "$rc" -eq 1 ]
check "sweep with a failed run: run 2 marked FAILED" grep -q 'run_end: run 2/3 FAILED: exit 3' "$out"
check "sweep with a failed run: run 3 still ran" grep -q 'run_end: run 3/3 ok: exit 0' "$out"
check "sweep with a failed run: values substituted" grep -q '^> run with 3$' "$out"
check "sweep: --between ran before every run, the first too" [ "$(grep -c '^> \[between\] between ' "$out")" -eq 3 ]
check "sweep: --between before run 1 gets run 1's value" [ "$(grep -m1 '^> \[between\]' "$out")" = '> [between] between 0' ]
check "sweep: --between gets the next run's values" grep -q '^> \[between\] between 3$' "$out"
check "sweep with a failed run: said on stderr" grep -q 'iodash: 1 of 3 runs failed' "$TMPD/fail.err"

out="$TMPD/stop.out"
timeout 30 "$IODASH" --batch --no-record sweep --stop-on-fail -p code=0,3,0 -- sh -c 'exit {code}' >"$out" 2>&1; rc=$?
check "--stop-on-fail: exit 1" [ "$rc" -eq 1 ]
check "--stop-on-fail: run 3 not started" bash -c "! grep -q 'run_start: run 3/3' '$out'"
check "--stop-on-fail: says so" grep -q -- '--stop-on-fail: 1 runs not started' "$out"

# grid and repeat: 2 x 2 x 2 = 8 runs, substituted without a shell
out="$TMPD/grid.out"
timeout 30 "$IODASH" --batch --no-record sweep --repeat 2 -p a='x y',z -p n=1,2 -- printf '[%s|%s]\n' '{a}' 'n={n}' >"$out" 2>&1; rc=$?
check "grid: exit 0" [ "$rc" -eq 0 ]
check "grid: 8 runs" [ "$(grep -c 'run_end: run [1-8]/8 ok' "$out")" -eq 8 ]
check "grid: a value with a space stays one word" [ "$(grep -c '^> \[x y|n=2\]$' "$out")" -eq 2 ]

# usage errors: exit 2 with the reason
"$IODASH" --batch --no-record sweep -p procs=1,2 -- dbench '{clients}' >/dev/null 2>"$TMPD/u.err"; rc=$?
check "sweep usage error: exit 2" [ "$rc" -eq 2 ]
check "sweep usage error: says which -p" grep -q '{procs} appears nowhere in the command' "$TMPD/u.err"
