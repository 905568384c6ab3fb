#!/usr/bin/env bash
# iodash fleet with 1,024 hosts (64 was the limit): 127.1.x.y addresses of
# two private pmcds that answer on every address (one pmcd takes fewer
# than 1,024 clients: it selects on its sockets).  --batch: every host in
# every block, each read (none left unreachable); the screen: the header
# counts the hosts by state, End goes to the last row and the status bar
# says which rows show, Home back.  Root only (pmcd runs as root here).
. "$(dirname "$0")/lib.sh"
PMCD_ADDR=0.0.0.0
. "$(dirname "$0")/pcp.sh"

pmcd_available || { skip "fleet of 1,024" "no pmcd (Debian package pcp): make deps installs it"; exit 0; }
is_root || { skip "fleet of 1,024" "needs root to run private pmcds"; exit 0; }
P1=$(pmcd_free_port) && pmcd_start "$P1" || { fail "first private pmcd"; exit 0; }
P2=$(pmcd_free_port) && pmcd_start "$P2" || { fail "second private pmcd"; exit 0; }
N=1024
for ((i = 0; i < N; i++)); do
	echo "127.1.$((i / 250)).$((i % 250 + 1)):$([ $i -lt 512 ] && echo "$P1" || echo "$P2")"
done >"$TMPD/hosts"

# ---- --batch: until every host has been read (connecting 1,024 takes a
# few seconds here, the pmcds sharing the machine's two CPUs)
out="$TMPD/fleet.out"
"$IODASH" fleet --batch -i 0.5 -r 1 --duration 40 --hosts "$TMPD/hosts" >"$out" 2>"$TMPD/fleet.err" &
fpid=$!
read_all() { # the newest whole block: N lines, none unreachable
	awk -v n=$N 'NR > 1 { c[$1]++; if ($3 == "unreachable") u[$1]++ }
		END { for (t in c) if (c[t] == n && !u[t]) ok = 1; exit !ok }' "$out"
}
for ((i = 0; i < 350; i++)); do read_all && break; sleep 0.1; done
check "batch: $N hosts, a block with every one read" read_all
check "batch: every block has $N lines" \
	awk -v n=$N 'NR > 1 { c[$1]++ } END { for (t in c) { b++; if (c[t] != n) exit 1 } exit !b }' "$out"
check "batch: $N distinct hosts" bash -c "[ \$(awk 'NR > 1 {print \$2}' '$out' | sort -u | wc -l) -eq $N ]"
wait $fpid
check "batch: nothing on stderr" [ ! -s "$TMPD/fleet.err" ]

# ---- the screen at 100x30
tm_start 100 30 "$IODASH" fleet -i 0.5 --hosts "$TMPD/hosts"
check "screen: the header counts all $N hosts by state, every one read" tm_wait "iodash fleet +$N hosts: $N (ok|busy|throttled)" 40
check "screen: the status bar says which rows show" tm_wait " 1-27 of $N" 3
tm send-keys -t t End
check "screen: End: the last rows" tm_wait " 998-$N of $N" 5
check "screen: ... the last host chosen, on the last row" bash -c "tmux -S '$TMUX_SOCK' capture-pane -p -t t | sed -n 29p | grep -q '^>127\\.1\\.'"
tm send-keys -t t Home
check "screen: Home: the first rows again" tm_wait " 1-27 of $N" 5
tm_screen | sed -n '1p;3p;$p' | sed 's/^/#   /'
tm send-keys -t t q
