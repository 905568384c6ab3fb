#!/usr/bin/env bash
# What a day with the fleet tripped over: a host name that does not
# resolve says so (not "No route to host"); a single run there reads 1/1
# (not 1/0); mmv.iodash.PID.bench.result holds the benchmark's headline
# metric (dbench's throughput, not the max_latency it prints after it);
# the dashboard opened from the fleet says what runs there (not "no
# benchmark attached").  The pmcd parts are root only (pmcd runs as root
# here, as in test_fleet.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pcp.sh"

pmcd_available || { skip "fleet day" "no pmcd (Debian package pcp): make deps installs it"; exit 0; }

# ---- a name that does not resolve (.invalid never does: RFC 6761)
BAD=no-such-host.invalid
"$IODASH" fleet --batch -r 0.5 --count 1 "$BAD" >"$TMPD/bad.out" 2>&1
check "fleet: an unknown host name says it does not resolve" grep -q "$BAD unreachable .*does not resolve" "$TMPD/bad.out"
check "fleet: ... not 'No route to host'" bash -c "! grep -q 'No route to host' '$TMPD/bad.out'"
"$IODASH" --host "$BAD" --batch --count 1 >/dev/null 2>"$TMPD/bad.err"; rc=$?
check "--host: an unknown name, exit 1, one line that says it does not resolve" \
	bash -c "[ $rc -eq 1 ] && [ \$(wc -l <'$TMPD/bad.err') -eq 1 ] && grep -q 'does not resolve' '$TMPD/bad.err'"

is_root || { skip "fleet day: a run there" "needs root to run a private pmcd"; exit 0; }
P=$(pmcd_free_port) && pmcd_start "$P" || { fail "a private pmcd"; exit 0; }
H="localhost:$P"

# ---- one `run` (not a sweep) of dbench "there": it publishes into that
# pmcd's mmv directory; its output is a real dbench's, whose Throughput
# line ends with max_latency
DBO="$FIX/bench-output/dbench/dbench-t10-1client.txt"
PCP_TMP_DIR="$TMPD/pmcd-$P/tmp" "$IODASH" --batch --no-record --no-trace -i 0.2 -l daytest run --parser dbench -- \
	sh -c "sleep 1; grep Throughput '$DBO'; sleep 25" >/dev/null 2>&1 &
rpid=$!
want=$(sed -n 's/^Throughput \([0-9.]*\) MB\/sec.*/\1/p' "$DBO" | head -1)

out="$TMPD/fleet.out"
# up to 20 s for the fleet to see the run there: 1 s on a quiet machine,
# more than 8 once in a clean-clone check (the row stayed without it).
# The run says "starting" before "running" (the benchmark's first second
# here): the wait is for "running", or a "starting:daytest:1/1" row ended
# it before the check (a clean-clone check saw that)
"$IODASH" fleet --batch -i 0.5 -r 0.5 --duration 20 "$H" >"$out" 2>&1 &
fpid=$!
for ((i = 0; i < 200; i++)); do grep -q "running:daytest:[0-9]*/[0-9]*:" "$out" && break; sleep 0.1; done
check "fleet: one run there reads 1/1, not 1/0 ($(grep -o 'running:daytest:[0-9]*/[0-9]*' "$out" | tail -1); last row: $(grep " $H " "$out" | tail -1))" \
	grep -q "running:daytest:1/1:failed=0" "$out"
res=
for ((i = 0; i < 50; i++)); do
	res=$(pminfo -h "$H" -f "mmv.iodash.$rpid.bench.result" 2>/dev/null | sed -n 's/.*value "\(.*\)"/\1/p')
	[ -n "$res" ] && break
	sleep 0.1
done
check "mmv.iodash.$rpid.bench.result: dbench's throughput ($res; the output says $want MB/sec)" \
	bash -c "echo '$res' | grep -Eq '^daytest throughput=$want MB/s at '"
wait $fpid

# ---- the fleet screen, Enter: that host's dashboard says what runs there
tm_start 100 30 "$IODASH" fleet -i 0.5 "$H"
tm_wait "$H +(ok|busy|throttled)" 10
tm send-keys -t t Enter
tm_wait "pmcd $H" 10
check "dashboard from the fleet: the run there, in its header" tm_wait "an iodash there: running daytest, run 1/1" 6
check "... not 'no benchmark attached'" bash -c "! tmux -S '$TMUX_SOCK' capture-pane -p -t t | grep -q 'no benchmark attached'"
tm_screen | head -3 | sed 's/^/#   /'
tm send-keys -t t q
tm_wait 'iodash fleet +1 host' 10
tm send-keys -t t q
wait $rpid
