#!/usr/bin/env bash
# SIGTERM to iodash with the screen up stops the benchmark and exits as
# --batch does: 1, the run recorded as stopped (issue 32 point 4: the
# screen read the exit status before the driver had recorded the stop,
# and exited 0).  Signals only in a PID namespace of the test's own.
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" != --inside ]; then
	if ! is_root; then
		skip "SIGTERM with the screen up" "not root (unshare -pf needs root)"
		exit 0
	fi
	if ! unshare -pf --mount-proc true 2>/dev/null; then
		skip "SIGTERM with the screen up" "unshare -pf --mount-proc is not permitted here"
		exit 0
	fi
	IODASH=$IODASH unshare -pf --mount-proc bash "$0" --inside
	exit 0
fi
[ $$ -eq 1 ] || { fail "namespace" "the inner shell is pid $$, not 1"; exit 1; }

# wait_file FILE: up to 20 s
wait_file() { local i; for ((i = 0; i < 200; i++)); do [ -s "$1" ] && return 0; sleep 0.1; done; return 1; }

# screen mode: iodash in tmux, its pid and exit status written by a wrapper
cat >"$TMPD/wrap.sh" <<WRAP
echo \$\$ >"$TMPD/pid"
"$IODASH" run -i 0.2 -o "$TMPD/screen.rec" -- sleep 60 2>"$TMPD/screen.err"
echo \$? >"$TMPD/rc"
sleep 30
WRAP
tm_start 100 30 "bash $TMPD/wrap.sh"
if ! wait_file "$TMPD/pid" || ! tm_wait 'sleep' 10; then
	fail "screen: iodash started" "$(tm_screen | head -5)"
	exit 0
fi
sleep 1
# iodash: the wrapper's one child (found by parent, never by name)
ipid=$(cat "/proc/$(cat "$TMPD/pid")/task/$(cat "$TMPD/pid")/children" | awk '{ print $1 }')
if [ -z "$ipid" ]; then
	fail "screen: found iodash's pid" "$(tm_screen | head -5)"
	exit 0
fi
kill -TERM "$ipid"
if ! wait_file "$TMPD/rc"; then
	fail "screen: iodash ended after SIGTERM" "$(tm_screen | head -5)"
	exit 0
fi
rc=$(cat "$TMPD/rc")
end=$(grep -a '^E' "$TMPD/screen.rec" | grep -a 'run_end' | head -1)
if echo "$end" | grep -q stopped; then
	pass "screen: the run is recorded as stopped"
else
	fail "screen: the run is recorded as stopped" "$end"
fi
[ "$rc" = 1 ] && pass "screen: SIGTERM exits 1, as --batch does" ||
	fail "screen: SIGTERM exits 1, as --batch does" "exit $rc; $(cat "$TMPD/screen.err")"

# --batch: the documented behaviour the screen must match
"$IODASH" run --batch -i 0.2 --no-record -- sleep 60 >"$TMPD/batch.out" 2>&1 &
bpid=$!
for ((i = 0; i < 100; i++)); do grep -q 'run_start' "$TMPD/batch.out" && break; sleep 0.1; done
sleep 0.5
kill -TERM "$bpid"
wait "$bpid"
brc=$?
[ "$brc" = 1 ] && pass "--batch: SIGTERM exits 1" || fail "--batch: SIGTERM exits 1" "exit $brc"
