#!/usr/bin/env bash
# iodash fleet: two test boxes as two private pmcds on loopback ports
# (tests/e2e/pcp.sh), one row each.  --batch and the screen: a pmcd
# stopped is marked unreachable within 5 s and sorts first, started again
# its row comes back without a restart; an iodash running "there"
# (publishing into that pmcd's mmv directory) shows its benchmark; the
# command line's refusals; Enter opens the host's dashboard and q comes
# back; which session a host shows is not looked for at every poll.  Root
# only (pmcd runs as root here).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pcp.sh"

# ---- the command line, before anything is started
"$IODASH" fleet >/dev/null 2>"$TMPD/e"; rc=$?
check "fleet without hosts: usage error, exit 2" [ $rc -eq 2 ]
check "... and says how to name them" grep -q 'which hosts?' "$TMPD/e"
printf 'lab1\nbad host\n' >"$TMPD/hosts"
"$IODASH" fleet --batch --hosts "$TMPD/hosts" >/dev/null 2>"$TMPD/e"; rc=$?
check "a bad --hosts line: exit 2, file and line named" bash -c "[ $rc -eq 2 ] && grep -q '$TMPD/hosts:2: ' '$TMPD/e'"
"$IODASH" fleet --batch --hosts "$TMPD/none" >/dev/null 2>"$TMPD/e"; rc=$?
check "a missing --hosts file: exit 1, one line" bash -c "[ $rc -eq 1 ] && [ \$(wc -l <'$TMPD/e') -eq 1 ]"
"$IODASH" --hosts "$TMPD/hosts" --batch --count 1 >/dev/null 2>"$TMPD/e"; rc=$?
check "--hosts outside fleet: usage error" [ $rc -eq 2 ]

pmcd_available || { skip "fleet" "no pmcd (Debian package pcp): make deps installs it"; exit 0; }
is_root || { skip "fleet" "needs root to run private pmcds"; exit 0; }

P1=$(pmcd_free_port) && pmcd_start "$P1" || { fail "first private pmcd"; exit 0; }
P2=$(pmcd_free_port) && pmcd_start "$P2" || { fail "second private pmcd"; exit 0; }
H1="localhost:$P1" H2="localhost:$P2"

# ---- which iodash session a host shows is looked at again when pmcd's
# count of MMV files moves, not every 3 s: a look is a PMNS round trip of
# its own per host (10-20 % of a fleet's CPU a poll at -i 1).  7 s of
# polls with no iodash there: one look, at the first poll.
pmns_child() { pminfo -h "$H1" -f pmcd.pdu_in.pmns_child | awk '/value/ { print $2 }'; }
c0=$(pmns_child)
"$IODASH" fleet --batch -i 0.5 -r 0.5 --duration 7 "$H1" >"$TMPD/looks.out" 2>&1
c1=$(pmns_child)
check "batch: 7 s of polls look for iodash sessions once, not every 3 s ($((c1 - c0)) PMNS child requests)" \
	bash -c "[ -n '$c0' ] && [ -n '$c1' ] && [ $((c1 - c0)) -eq 1 ] && [ \$(grep -c ' $H1 ok ' '$TMPD/looks.out') -ge 8 ]"

# ---- --batch: both hosts, then H2 stopped and started again
out="$TMPD/fleet.out"
"$IODASH" fleet --batch -i 0.5 -r 0.5 --duration 40 "$H1" "$H2" >"$out" 2>"$TMPD/fleet.err" &
fpid=$!
cleanup_add "kill $fpid 2>/dev/null"
# a host's newest line
last() { grep " $1 " "$out" | tail -1; }
wait_line() { # HOST REGEX SECS
	local i
	for ((i = 0; i < $3 * 10; i++)); do last "$1" | grep -Eq -- "$2" && return 0; sleep 0.1; done
	return 1
}
# each host's first line with figures (a rate needs two polls)
wait_line "$H1" ' (ok|busy|throttled) [^ ]+ [a-z_]+ [0-9]+ ' 10 && wait_line "$H2" ' (ok|busy|throttled) [^ ]+ [a-z_]+ [0-9]+ ' 10
check "batch: both hosts read, with their kernel" bash -c "[ \"\$(grep ' $H2 ' '$out' | tail -1 | awk '{print \$4}')\" = '$(uname -r)' ]"
# the thresholds of the row are this machine's (both pmcds read this kernel)
th=$(($(awk '$1 == "nr_dirty_threshold" { print $2 }' /proc/vmstat) * $(getconf PAGESIZE) / 1024))
got=$(last "$H1" | awk '{print $8}')
check "batch: the row's dirty threshold is the kernel's ($got kB vs $th kB)" \
	awk -v a="$got" -v b="$th" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= b * 0.02) }'
pmcd_stop "$P2"
t0=$(date +%s.%N)
wait_line "$H2" ' unreachable ' 5; ok=$?
t1=$(date +%s.%N)
check "batch: a stopped pmcd is unreachable within 5 s ($(echo "$t1 - $t0" | bc) s)" [ $ok -eq 0 ]
check "batch: the unreachable host sorts first" bash -c "tail -2 '$out' | head -1 | grep -q ' $H2 unreachable '"
check "batch: ... and says why" bash -c "last() { grep ' $H2 ' '$out' | tail -1; }; last | grep -q ' # '"
check "batch: the other host goes on" wait_line "$H1" ' (ok|busy|throttled) ' 3
pmcd_start "$P2" || fail "second pmcd started again"
wait_line "$H2" ' (ok|busy|throttled) ' 10; ok=$?
check "batch: started again, its row comes back without a restart" [ $ok -eq 0 ]

# an iodash "on" H2: it publishes into that pmcd's mmv directory; a sweep
# of two runs that report a dbench result each
DBO="$FIX/bench-output/dbench"
PCP_TMP_DIR="$TMPD/pmcd-$P2/tmp" "$IODASH" --batch --no-record -i 0.2 -l fleettest sweep --parser dbench -p c=1,4 -- \
	sh -c "sleep 1; grep Throughput $DBO/dbench-t10-{c}client*.txt; sleep 4" >/dev/null 2>&1 &
rpid=$!
# and an idle iodash started after it there: each session publishes its
# own mmv.iodash.PID, and the fleet shows the one whose benchmark runs
sleep 0.5
PCP_TMP_DIR="$TMPD/pmcd-$P2/tmp" "$IODASH" --batch --no-trace --count 50 -i 0.2 >/dev/null 2>&1 &
ipid=$!
sleep 1.5
wait_line "$H2" ' running:fleettest:[12]/2:failed=0:eta=[0-9]+' 10; ok=$?
check "batch: a sweep running there shows (state:label:run/runs:failed:eta), an idle iodash beside it or not" [ $ok -eq 0 ]
res=
for ((i = 0; i < 100; i++)); do
	res=$(pminfo -h "$H2" -f "mmv.iodash.$rpid.bench.result" 2>/dev/null | sed -n 's/.*value "\(.*\)"/\1/p')
	[ -n "$res" ] && break
	sleep 0.1
done
check "mmv.iodash.$rpid.bench.result: the last result a run reported ($res)" bash -c "echo '$res' | grep -Eq '^fleettest [a-z_]+=[0-9.e+]+ [A-Za-z/]+ at c=[14], run 1$'"
wait $rpid
wait $ipid
kill $fpid 2>/dev/null; wait $fpid 2>/dev/null
check "batch: nothing on stderr" [ ! -s "$TMPD/fleet.err" ]

# ---- the screen at 80x24
tm_start 80 24 "$IODASH" fleet -i 0.5 "$H1" "$H2"
tm_wait "$H2 +(ok|busy|throttled)" 10 && tm_wait "$H1 +(ok|busy|throttled)" 5
check "screen: both hosts, one row each" bash -c "[ \$(tmux -S '$TMUX_SOCK' capture-pane -p -t t | grep -cE 'localhost:($P1|$P2) ') -eq 2 ]"
check "screen: the header counts them" tm_wait 'iodash fleet +2 hosts' 2
pmcd_stop "$P1"
check "screen: a stopped pmcd is unreachable within 5 s" tm_wait "$H1 +unreachable" 5
# the first host row (line 3) is the one in trouble
check "screen: ... and its row comes first" bash -c "tmux -S '$TMUX_SOCK' capture-pane -p -t t | sed -n 3p | grep -q '$H1'"
pmcd_start "$P1" || fail "first pmcd started again"
check "screen: started again, its row comes back" tm_wait "$H1 +(ok|busy|throttled)" 10
tm_screen >"$TMPD/screen.txt"
# Enter: the chosen (first) host's dashboard; q comes back to the fleet
tm send-keys -t t Enter
check "screen: Enter opens the host's dashboard (its source is that pmcd)" tm_wait "pmcd localhost:($P1|$P2)" 10
tm send-keys -t t q
check "screen: q there comes back to the fleet" tm_wait 'iodash fleet +2 hosts' 10
tm send-keys -t t q
for ((i = 0; i < 50; i++)); do tm has-session -t t 2>/dev/null || break; sleep 0.1; done
check "screen: q quits" bash -c "! tmux -S '$TMUX_SOCK' has-session -t t 2>/dev/null"
echo "# the fleet screen at 80x24:"; sed 's/^/#   /' "$TMPD/screen.txt"
