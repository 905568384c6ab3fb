#!/usr/bin/env bash
# The run verdict on ground truth: real runs whose answer is known by
# construction, each three times, each must get its verdict every time
# (docs/knobs.md "The verdict"):
#   direct     O_DIRECT writes: the disk did the work           device
#   cache      a buffered write far under the background
#              threshold, no sync: the page cache took it      cache
#   throttled  a buffered overwrite far above 8M/16M limits    throttled
#   cached-read  a read of a file in the page cache            cache
#   short-write  256 MB into the cache between two driver ticks,
#              by a child of a shell (no rate printed)         cache
#   sleep      no I/O                                          n/a (no_io)
#   false      a failed command                                n/a (failed)
#   stopped    a direct write stopped by SIGTERM after 1 s      n/a (stopped)
# The knob cases need root and hold the knobs lock (knobs restored in a
# trap); the others run as anyone.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { skip "verdicts" "fio not installed (apt-get install fio)"; exit 0; }
D=$(mktemp -d /var/tmp/iodash-verdicts.XXXXXX)
cleanup_add "rm -rf '$D'"
REPEATS=3
table=""

# one run, its --batch lines into $1
run_plain() { local out=$1; shift; timeout 60 "$IODASH" run --batch --no-record -i 0.1 "$@" >"$out" 2>&1; }
# the same, stopped by SIGTERM after 1 s: in a PID namespace of its own
# (a test signals only what it started)
run_stopped() {
	local out=$1; shift
	timeout 60 unshare -pf --mount-proc "$BASH" -c '"$@" >"$0" 2>&1 & p=$!; sleep 1; kill -TERM $p; wait $p' \
		"$out" "$IODASH" run --batch --no-record -i 0.1 "$@"
}
RUN=run_plain

# $1 case, $2 expected ("n/a:no_io" for an n/a with its reason), then the
# iodash run arguments; each repeat's verdict into the table
verdict_case() {
	local name=$1 want=$2 got all="" ok=1; shift 2
	for i in $(seq $REPEATS); do
		sync
		$RUN "$TMPD/$name.$i.out" "$@"
		got=$(sed -n 's/^= [0-9.]* run_summary: run \([a-z/]*\): \(why=\([a-z_]*\) \)\{0,1\}.*/\1\3/p' "$TMPD/$name.$i.out" | sed 's|^n/a|n/a:|')
		all="$all${all:+ }${got:-none}"
		[ "$got" = "$want" ] || { ok=0; echo "INFO: $name repeat $i: $(grep run_summary "$TMPD/$name.$i.out")"; }
	done
	table="$table$(printf '%-12s %-11s %s' "$name" "$want" "$all")"$'\n'
	[ $ok = 1 ] && pass "verdict $name: $want in $REPEATS of $REPEATS ($all)" \
		|| fail "verdict $name: $want in every repeat" "got $all"
}

# O_DIRECT: what fio wrote, the disk wrote
verdict_case direct device --parser fio -- fio --name=d --filename="$D/d" --rw=write --bs=1M --size=256M \
	--direct=1 --time_based --runtime=1
# all of it between two ticks, by a shell's child: the tree's counters at
# its exit are the evidence (a tick never saw it)
verdict_case short-write cache -- sh -c "dd if=/dev/zero of='$D/w' bs=1M count=256 status=none; rm -f '$D/w'"
# no I/O, and a failure
verdict_case sleep n/a:no_io -- sleep 1
verdict_case false n/a:failed -- sh -c 'sleep 0.3; exit 3'
if is_root && command -v unshare >/dev/null; then
	RUN=run_stopped
	verdict_case stopped n/a:stopped -- dd if=/dev/zero of="$D/s" bs=64k count=1000000 oflag=direct status=none
	RUN=run_plain
	rm -f "$D/s"
else
	skip "verdict stopped" "needs root and unshare for a PID namespace to signal in"
fi
# a read served from the page cache: the disks did not do it; the figure
# is the cache's (docs/knobs.md: a cached read is "cache")
dd if=/dev/zero of="$D/r" bs=1M count=128 status=none && sync && cat "$D/r" >/dev/null
verdict_case cached-read cache --parser fio -- fio --name=r --filename="$D/r" --rw=read --bs=1M --size=128M \
	--invalidate=0 --time_based --runtime=1

if is_root; then
	knobs_hold
	# 256 MB in a second under a 1G background threshold and a 30 s expiry:
	# nothing is written back during the run
	verdict_case cache cache --sysctl vm.dirty_background_bytes=1G --sysctl vm.dirty_bytes=2G \
		--sysctl vm.dirty_expire_centisecs=3000 --parser fio -- \
		sh -c "rm -f '$D/c'; exec fio --name=c --filename='$D/c' --rw=write --bs=1M --size=256M --rate=256m"
	# overwriting a cached file far faster than 16 MB of dirty memory lets
	dd if=/dev/zero of="$D/t" bs=1M count=256 status=none && sync
	verdict_case throttled throttled --sysctl vm.dirty_background_bytes=8M --sysctl vm.dirty_bytes=16M --parser fio -- \
		fio --name=t --filename="$D/t" --rw=write --bs=1M --size=256M --overwrite=1 --invalidate=0 \
		--time_based --runtime=1
	knobs_restore
else
	skip "verdict cache and throttled" "need root to set vm.dirty_* (the cache case needs a background threshold it can stay under)"
fi
printf 'INFO: case         expected    got (%d repeats)\n' "$REPEATS"
printf '%s' "$table" | sed 's/^/INFO: /'
