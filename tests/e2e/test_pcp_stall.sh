#!/usr/bin/env bash
# A pmcd that stalls (SIGSTOP for 15.5 s) mid-session: the note says the
# real gap and blames the host's pmcd, not "the machine is too busy" with
# the time of one fetch timeout (issue 32 point 11).  The private pmcd
# (tests/e2e/pcp.sh) and the signals stay in a PID namespace of our own.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pcp.sh"

if [ "${1:-}" != --inside ]; then
	pmcd_available || { skip "pmcd stall" "no pmcd (Debian package pcp)"; exit 0; }
	is_root || { skip "pmcd stall" "needs root (a private pmcd, unshare -pf)"; exit 0; }
	unshare -pf --mount-proc true 2>/dev/null || { skip "pmcd stall" "unshare -pf --mount-proc is not permitted here"; exit 0; }
	IODASH=$IODASH unshare -pf --mount-proc bash "$0" --inside
	exit 0
fi

PORT=$(pmcd_free_port) || { fail "a free loopback port for pmcd"; exit 0; }
pmcd_start "$PORT" || { fail "private pmcd on $PORT"; exit 0; }
PMCD_PID=$(cat "$TMPD/pmcd-$PORT/pid")
"$IODASH" --batch --host "localhost:$PORT" -i 0.5 --duration 24 >"$TMPD/out" 2>"$TMPD/err" &
ipid=$!
sleep 3
kill -STOP "$PMCD_PID"
sleep 15.5
kill -CONT "$PMCD_PID"
wait "$ipid"
rc=$?
notes=$(grep '^= ' "$TMPD/out")
gap=$(awk '$1 ~ /^[0-9.]+$/ { if (p != "" && $1 - p > g) g = $1 - p; p = $1 } END { printf "%.1f", g }' "$TMPD/out")
# every note of the gap: no "too busy", and the time it says is the gap's
if echo "$notes" | grep -q 'too busy'; then
	fail "pmcd stall: not blamed on the machine" "$(echo "$notes" | grep 'too busy') (gap $gap s)"
else
	pass "pmcd stall: not blamed on the machine (gap $gap s): $(echo "$notes" | grep -E "missed|reachable" | tr "\n" " ")"
fi
said=$(echo "$notes" | grep -oE '[0-9]+\.[0-9]+ s without (a sample|samples)' | awk '{ if ($1 > m) m = $1 } END { print m + 0 }')
if awk -v s="$said" -v g="$gap" 'BEGIN { exit !(g > 10 && s >= g - 1 && s <= g + 1) }'; then
	pass "pmcd stall: the note says the real gap ($said s, samples $gap s apart)"
else
	fail "pmcd stall: the note says the real gap" "said $said s, samples $gap s apart; rc=$rc; $notes"
fi
