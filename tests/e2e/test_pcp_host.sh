#!/usr/bin/env bash
# --host: this machine's counters read back through a private pmcd on a
# loopback port (tests/e2e/pcp.sh), side by side with the local reader:
# the same dirty thresholds as /proc/vmstat, the same disk write rate
# within 2 % on a steady rate-limited fio writer; a pmcd stopped mid-run is
# said and retried, and its samples come back when it is started again;
# the refusals of the command line.  Root only (pmcd runs as root here):
# holds the knobs lock, sets dirty_bytes so the thresholds cannot move,
# and puts the knobs back in a trap.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pcp.sh"

# the command line, before anything is started
"$IODASH" --batch --host localhost:1 --proc-root "$TMPD" --count 1 >/dev/null 2>"$TMPD/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- '--host and --proc-root' "$TMPD/e" \
	&& pass "--host with --proc-root: usage error, exit 2" \
	|| fail "--host with --proc-root: usage error, exit 2" "exit $rc: $(head -1 "$TMPD/e")"
"$IODASH" view --host localhost "$TMPD/x.rec" >/dev/null 2>"$TMPD/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- '--host is for the commands that sample' "$TMPD/e" \
	&& pass "view --host: usage error, exit 2" || fail "view --host: usage error, exit 2" "exit $rc: $(head -1 "$TMPD/e")"
"$IODASH" --batch --host : --count 1 >/dev/null 2>"$TMPD/e"; rc=$?
[ $rc -eq 2 ] && pass "--host ':' : usage error, exit 2" || fail "--host ':' : usage error, exit 2" "exit $rc"

pmcd_available || { skip "pcp host" "no pmcd (Debian package pcp): make deps installs it"; exit 0; }
is_root || { skip "pcp host" "needs root to run a private pmcd and set dirty_bytes"; exit 0; }

# nobody listens on port 1: a clear one-line error, exit 1, nothing sampled
"$IODASH" --batch --host localhost:1 --count 2 >"$TMPD/o" 2>"$TMPD/e"; rc=$?
[ $rc -eq 1 ] && [ ! -s "$TMPD/o" ] && [ "$(wc -l <"$TMPD/e")" -eq 1 ] && grep -q 'cannot reach its pmcd' "$TMPD/e" \
	&& pass "unreachable --host at start: one line, exit 1" \
	|| fail "unreachable --host at start: one line, exit 1" "exit $rc: $(cat "$TMPD/e")"

PORT=$(pmcd_free_port) || { fail "a free loopback port for pmcd"; exit 0; }
pmcd_start "$PORT" && pass "private pmcd answers on 127.0.0.1:$PORT" \
	|| { fail "private pmcd answers on 127.0.0.1:$PORT" "$(tail -3 "$TMPD/pmcd-$PORT/log/pmcd.log" 2>/dev/null)"; exit 0; }
HOSTARG="localhost:$PORT"

knobs_hold
K=/proc/sys/vm
# byte limits: the thresholds are these, whatever memory is free
echo 536870912 >$K/dirty_bytes
echo 268435456 >$K/dirty_background_bytes
page_kb=$(($(getconf PAGESIZE) / 1024))
want_th=$(($(awk '$1 == "nr_dirty_threshold" { print $2 }' /proc/vmstat) * page_kb))
want_bg=$(($(awk '$1 == "nr_dirty_background_threshold" { print $2 }' /proc/vmstat) * page_kb))

# ---- side by side on a steady writer ------------------------------------
# fio, direct I/O at a fixed rate, into a file on the root disk
D=$(mktemp -d /var/tmp/iodash-pcp.XXXXXX)
cleanup_add "rm -rf '$D'"
fio --name=steady --filename="$D/f" --rw=write --bs=256k --size=256m --direct=1 \
	--ioengine=psync --rate=40m --time_based --runtime=20 >"$TMPD/fio.out" 2>&1 &
fio_pid=$!
cleanup_add "kill $fio_pid 2>/dev/null; wait $fio_pid 2>/dev/null"
sleep 2
"$IODASH" --batch --host "$HOSTARG" --count 20 -i 0.5 >"$TMPD/remote.txt" 2>"$TMPD/remote.err" &
r_pid=$!
"$IODASH" --batch --count 20 -i 0.5 >"$TMPD/local.txt" 2>"$TMPD/local.err"; l_rc=$?
wait $r_pid; r_rc=$?
[ $r_rc -eq 0 ] && [ $l_rc -eq 0 ] && pass "--batch --host and local --batch, exit 0" \
	|| fail "--batch --host and local --batch, exit 0" "remote $r_rc: $(head -1 "$TMPD/remote.err"); local $l_rc: $(head -1 "$TMPD/local.err")"
n=$(grep -c '^[0-9]' "$TMPD/remote.txt")
[ "$n" -eq 20 ] && pass "--host --count 20: 20 samples" || fail "--host --count 20: 20 samples" "got $n"

# thresholds: columns 4 (bg) and 6 (thresh), every sample
bad=$(awk -v b="$want_bg" -v t="$want_th" '/^[0-9]/ && ($4 != b || $6 != t)' "$TMPD/remote.txt" | head -1)
[ -z "$bad" ] && [ "$n" -gt 0 ] \
	&& pass "--host thresholds = /proc/vmstat: bg $want_bg kB, thresh $want_th kB" \
	|| fail "--host thresholds = /proc/vmstat (bg $want_bg, thresh $want_th)" "got: $bad"

# the disk fio writes to, and its mean write rate in each run
disk=$(lsblk -no PKNAME "$(findmnt -no SOURCE --target "$D")" 2>/dev/null | head -1)
[ -n "$disk" ] || disk=$(basename "$(findmnt -no SOURCE --target "$D")")
mean_w() { # FILE: mean of DISK.w_kBps over the samples after the first
	awk -v c="$disk.w_kBps" 'NR == 1 { for (i = 2; i <= NF; i++) if ($i == c) col = i - 1 }
		/^[0-9]/ && $(col) != "n/a" && col { s += $(col); n++ }
		END { if (n) printf "%.1f\n", s / n }' "$1"
}
rw=$(mean_w "$TMPD/remote.txt"); lw=$(mean_w "$TMPD/local.txt")
echo "# $disk write rate: --host $rw kB/s, local $lw kB/s"
if [ -n "$rw" ] && [ -n "$lw" ] && awk -v r="$rw" -v l="$lw" 'BEGIN { exit !(l > 1000 && (r - l) / l <= 0.02 && (l - r) / l <= 0.02) }'; then
	pass "$disk write rate within 2 %: --host $rw kB/s, local $lw kB/s"
else
	fail "$disk write rate within 2 %" "--host ${rw:-none} kB/s, local ${lw:-none} kB/s"
fi
kill $fio_pid 2>/dev/null; wait $fio_pid 2>/dev/null

# ---- pmcd goes away mid-run and comes back ------------------------------
"$IODASH" --batch --host "$HOSTARG" --count 30 -i 0.2 >"$TMPD/gap.txt" 2>"$TMPD/gap.err" &
g_pid=$!
cleanup_add "kill $g_pid 2>/dev/null"
sleep 1.5
pmcd_stop "$PORT"
said=0
for ((i = 0; i < 50; i++)); do
	grep -q 'pmcd unreachable, retrying' "$TMPD/gap.txt" && { said=1; break; }
	sleep 0.1
done
[ $said -eq 1 ] && pass "pmcd stopped: '$(grep -m1 -o 'localhost:[0-9]*: pmcd unreachable.*' "$TMPD/gap.txt")' within 5 s" \
	|| fail "pmcd stopped: unreachable note within 5 s" "$(tail -2 "$TMPD/gap.txt")"
before=$(grep -c '^[0-9]' "$TMPD/gap.txt")
sleep 1
pmcd_start "$PORT" || fail "pmcd starts again"
wait $g_pid; rc=$?
n=$(grep -c '^[0-9]' "$TMPD/gap.txt")
after=$(awk '/reachable again/ { on = 1; next } on && /^[0-9]/' "$TMPD/gap.txt" | wc -l)
[ $rc -eq 0 ] && [ "$n" -eq 30 ] && [ "$after" -ge 5 ] && grep -q 'reachable again after' "$TMPD/gap.txt" \
	&& pass "pmcd back: samples resume ($before before the gap, $after after, 30 in all), exit 0" \
	|| fail "pmcd back: samples resume" "exit $rc, $n samples, $after after the note: $(grep '^=' "$TMPD/gap.txt" | tr '\n' '|')"
# sampling resumes at the next tick after the reconnect
gap_t=$(awk '/^= .*reachable again/ { print $2; exit }' "$TMPD/gap.txt")
first_t=$(awk -v g="${gap_t:-1e9}" '/^[0-9]/ && $1 > g { print $1; exit }' "$TMPD/gap.txt")
[ -n "$first_t" ] && awk -v a="$gap_t" -v b="$first_t" 'BEGIN { exit !(b - a < 0.5) }' \
	&& pass "first sample after the gap ($first_t s) one tick after the reconnect note ($gap_t s)" \
	|| fail "first sample after the gap one tick after the note" "note at ${gap_t:-none}, next sample ${first_t:-none}"
