#!/usr/bin/env bash
# mmv.iodash.PID.*: what a running `iodash run` publishes in its MMV file
# (iodash.PID, one a session), read back with pminfo from a private pmcd
# (tests/e2e/pcp.sh) whose mmv agent reads the test's own PCP_TMP_DIR: the
# live zone and thresholds, the benchmark's state, the throttle episode
# counter going up when a buffered overwrite pushes dirty memory over
# freerun; a second session beside it that leaves it alone; the file gone
# when iodash ends; nothing published with --no-publish; the file of an
# iodash killed with SIGKILL (in a PID namespace) removed by the next.  Root only: holds the
# knobs lock, lowers dirty_bytes to 256M / 128M and restores it in a trap.
# First, without pmcd: an mmv directory on a full file system (a tmpfs of
# 8 KiB, filled) gives a one-line note and sampling goes on (a store into
# a page of the mapping the file system cannot give was SIGBUS).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pcp.sh"

if is_root; then
	full=$(mktemp -d /tmp/iodash-mmvfull.XXXXXX)
	mkdir -p "$full/mmv"
	if mount -t tmpfs -o size=8k tmpfs "$full/mmv" 2>/dev/null; then
		cleanup_add "umount '$full/mmv' 2>/dev/null; rm -rf '$full'"
		dd if=/dev/zero of="$full/mmv/fill" bs=4k count=2 2>/dev/null
		PCP_TMP_DIR="$full" "$IODASH" --batch --count 3 -i 0.1 --no-trace >"$full/out" 2>&1; rc=$?
		n=$(grep -c '^[0-9]' "$full/out")
		[ "$rc" = 0 ] && [ "$n" = 3 ] && grep -Eq "not publishing mmv.iodash.[0-9]+: cannot create $full/mmv/iodash.[0-9]+: No space left on device" "$full/out" \
			&& ! ls "$full/mmv" | grep -q '^iodash' \
			&& pass "full disk under the mmv directory: one note, no file left, 3 samples, exit 0" \
			|| fail "full disk under the mmv directory: one note, 3 samples, exit 0" "rc $rc, $n samples: $(head -3 "$full/out")"
	else
		skip "mmv.iodash on a full disk" "cannot mount a tmpfs here"
		rm -rf "$full"
	fi
fi

pmcd_available || { skip "mmv.iodash" "no pmcd (Debian package pcp): make deps installs it"; exit 0; }
is_root || { skip "mmv.iodash" "needs root to run a private pmcd and lower dirty_bytes"; exit 0; }
command -v fio >/dev/null || { skip "mmv.iodash" "fio not installed (apt-get install fio)"; exit 0; }

PORT=$(pmcd_free_port) || { fail "a free loopback port for pmcd"; exit 0; }
pmcd_start "$PORT" || { fail "private pmcd answers on 127.0.0.1:$PORT"; exit 0; }
H="localhost:$PORT"
# iodash writes its MMV file where this pmcd's mmv agent reads
export PCP_TMP_DIR="$TMPD/pmcd-$PORT/tmp"
# val METRIC [PID]: mmv.iodash.PID.METRIC's value (PID: the run's session)
val() { pminfo -h "$H" -f "mmv.iodash.${2:-$i_pid}.$1" 2>/dev/null | awk '/value/ { v = $2; gsub(/"/, "", v); print v; exit }'; }

knobs_hold
V=/proc/sys/vm
W=$(mktemp -d /var/tmp/iodash-mmv.XXXXXX)
cleanup_add "rm -rf '$W'"
# the file is cached first, so the overwrite dirties pages at memory speed
dd if=/dev/zero of="$W/f" bs=1M count=1024 status=none && sync
echo 268435456 >$V/dirty_bytes; echo 134217728 >$V/dirty_background_bytes

# the benchmark: a quiet start, the overwrite, a quiet end (the counters
# are read in the quiet parts, while iodash still runs it)
touch "$W/go"
cat >"$W/bench.sh" <<EOF
#!/bin/sh
while [ -e "$W/go" ]; do sleep 0.1; done
fio --name=dirtywriter --filename="$W/f" --rw=write --bs=1M --size=1G --ioengine=psync \
	--direct=0 --invalidate=0 --time_based --runtime=4 >/dev/null
touch "$W/done"
sleep 600
EOF
chmod +x "$W/bench.sh"
"$IODASH" --batch -i 0.2 --no-record -l mmvtest run -- "$W/bench.sh" >"$TMPD/run.out" 2>&1 &
i_pid=$!
MMV="$PCP_TMP_DIR/mmv/iodash.$i_pid"
cleanup_add "kill $i_pid 2>/dev/null; wait $i_pid 2>/dev/null"
for ((i = 0; i < 50; i++)); do [ "$(val bench.state)" = running ] && break; sleep 0.1; done

state=$(val bench.state) label=$(val bench.label) zone=$(val zone) th=$(val thresholds.dirty) bg=$(val thresholds.background)
ep0=$(val throttle.episodes)
[ "$state" = running ] && [ "$label" = mmvtest ] \
	&& pass "mmv.iodash.bench.state running, label mmvtest" \
	|| fail "mmv.iodash.bench.state running, label mmvtest" "state '$state' label '$label'"
[ "$th" = 262144 ] && [ "$bg" = 131072 ] \
	&& pass "mmv.iodash.thresholds: dirty $th kB, background $bg kB (dirty_bytes 256M / 128M)" \
	|| fail "mmv.iodash.thresholds = 262144 / 131072 kB" "got '$th' / '$bg'"
case "$zone" in
below_bg | background | freerun | throttle | hard_limit) pass "mmv.iodash.zone is a live zone: $zone" ;;
*) fail "mmv.iodash.zone is a live zone" "got '$zone'" ;;
esac
# what pminfo says of a metric: its semantics, units and help, from the file's metric and string sections
desc=$(pminfo -h "$H" -dT "mmv.iodash.$i_pid.throttle.time" 2>&1)
echo "$desc" | grep -q 'Semantics: counter  Units: millisec' && echo "$desc" | grep -q 'time spent in dirty-limit hits' \
	&& pass "mmv.iodash.throttle.time: a counter in millisec, with its help text" \
	|| fail "mmv.iodash.throttle.time: a counter in millisec, with its help text" "$desc"

# a second session beside it: its own mmv.iodash.PID, its own PMIDs, and
# the first's left alone when it ends (one shared file was taken over and
# then removed)
"$IODASH" --batch --count 10 -i 0.1 --no-trace >/dev/null 2>&1 &
s_pid=$!
for ((i = 0; i < 30; i++)); do [ -n "$(val zone $s_pid)" ] && break; sleep 0.1; done
id1=$(pminfo -h "$H" -m "mmv.iodash.$i_pid.zone" 2>/dev/null) id2=$(pminfo -h "$H" -m "mmv.iodash.$s_pid.zone" 2>/dev/null)
[ "$(val bench.state)" = running ] && [ "$(val bench.state $s_pid)" = none ] && [ "${id1##*PMID: }" != "${id2##*PMID: }" ] \
	&& pass "two sessions: mmv.iodash.$i_pid.bench.state running, mmv.iodash.$s_pid.bench.state none, PMIDs apart" \
	|| fail "two sessions: each its own mmv.iodash.PID" "'$(val bench.state)' '$(val bench.state $s_pid)' $id1 / $id2"
wait $s_pid
[ -e "$MMV" ] && [ "$(val bench.state)" = running ] && [ -z "$(val zone $s_pid)" ] \
	&& pass "the second session ended: its metrics gone, the first's still there" \
	|| fail "the second session ended: its metrics gone, the first's still there" "$(ls "$PCP_TMP_DIR/mmv") state '$(val bench.state)'"

rm -f "$W/go"
for ((i = 0; i < 300; i++)); do [ -e "$W/done" ] && break; sleep 0.1; done
sleep 1
ep1=$(val throttle.episodes) ms1=$(val throttle.time)
starts=$(grep -c '^! .* throttle start' "$TMPD/run.out")
echo "# episodes before the overwrite ${ep0:-none}, after ${ep1:-none} (batch says $starts), throttled ${ms1:-none} ms"
[ -n "$ep0" ] && [ -n "$ep1" ] && [ "$ep1" -gt "$ep0" ] && [ "$ep1" -eq "$starts" ] && [ "${ms1:-0}" -gt 0 ] \
	&& pass "mmv.iodash.throttle.episodes went $ep0 -> $ep1 (= the batch's throttle starts), throttle.time ${ms1} ms" \
	|| fail "mmv.iodash.throttle.episodes went up with the overwrite" "before '$ep0', after '$ep1', batch $starts, time '$ms1'"

kill -INT $i_pid 2>/dev/null
wait $i_pid 2>/dev/null
[ ! -e "$MMV" ] && [ -z "$(val bench.state)" ] \
	&& pass "iodash ended: its MMV file removed, mmv.iodash has no values" \
	|| fail "iodash ended: its MMV file removed" "$(ls -l "$MMV" 2>&1)"

# --no-publish: nothing there while it runs
"$IODASH" --batch --no-publish --count 8 -i 0.25 >/dev/null 2>&1 &
n_pid=$!
sleep 1
[ ! -e "$PCP_TMP_DIR/mmv/iodash.$n_pid" ] && [ -z "$(val zone $n_pid)" ] \
	&& pass "--no-publish: no MMV file, no mmv.iodash values" \
	|| fail "--no-publish: no MMV file, no mmv.iodash values" "$(ls -l "$PCP_TMP_DIR/mmv" 2>&1) zone '$(val zone $n_pid)'"
wait $n_pid
# and without it, the same command publishes (the check above can fail)
"$IODASH" --batch --count 8 -i 0.25 >/dev/null 2>&1 &
n_pid=$!
sleep 1
[ -e "$PCP_TMP_DIR/mmv/iodash.$n_pid" ] && [ -n "$(val zone $n_pid)" ] \
	&& pass "without --no-publish: the same command publishes" \
	|| fail "without --no-publish: the same command publishes" "$(ls -l "$PCP_TMP_DIR/mmv" 2>&1)"
wait $n_pid

# SIGKILL leaves the file (nothing can remove it then): in a PID namespace
# of its own, an iodash is killed after 6 s; pmcd still says "running"
# until the next session starts, which removes the file nobody holds
if unshare -pf --mount-proc true 2>/dev/null; then
	k_pid=$(unshare -pf --mount-proc bash -c '
		"$0" --batch -i 0.2 --no-record -l killed run -- sleep 600 >/dev/null 2>&1 &
		p=$!
		for ((i = 0; i < 50; i++)); do [ -e "$1/iodash.$p" ] && break; sleep 0.1; done
		sleep 6
		kill -9 $p
		echo $p' "$IODASH" "$PCP_TMP_DIR/mmv")
	[ -e "$PCP_TMP_DIR/mmv/iodash.$k_pid" ] && [ "$(val bench.state "$k_pid")" = running ] \
		&& pass "SIGKILL: the file stays, mmv.iodash.$k_pid.bench.state still says running" \
		|| fail "SIGKILL: the file stays" "$(ls "$PCP_TMP_DIR/mmv") state '$(val bench.state "$k_pid")'"
	"$IODASH" --batch --count 3 -i 0.1 --no-trace >/dev/null 2>&1
	[ ! -e "$PCP_TMP_DIR/mmv/iodash.$k_pid" ] && [ -z "$(val bench.state "$k_pid")" ] \
		&& pass "the next session removed the stale file of the killed one: no mmv.iodash.$k_pid" \
		|| fail "the next session removed the stale file of the killed one" "$(ls "$PCP_TMP_DIR/mmv") state '$(val bench.state "$k_pid")'"
else
	skip "a SIGKILLed session's stale MMV file" "unshare -pf --mount-proc is not permitted here"
fi
