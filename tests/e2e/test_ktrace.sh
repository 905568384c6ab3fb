#!/usr/bin/env bash
# Throttling as the kernel sees it, against the kernel itself: while
# `iodash --batch -i 0.1 --time mono` follows the writeback tracepoints,
# this test reads its own second tracefs instance (balance_dirty_pages,
# pause > 0, trace_clock mono) as the reference, and compares:
#   - a 10 s buffered overwrite of a 2 GB file at dirty_bytes 256M /
#     dirty_background_bytes 128M: episodes cover >= 95 % of the paused
#     time, one episode (two at most), the first start within 20 ms of the
#     first pause, pause counts and paused ms within 2 %;
#   - a 240 MB burst that pauses gives an episode;
#   - a rate-limited writer below the background threshold gives none.
# Root only; the knobs are changed under /tmp/iodash-knobs.lock and
# restored in a trap; every tracefs instance made here is removed.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "ktrace: kernel episodes against a reference instance" "needs root (tracefs, vm.dirty_*)"
	exit 0
fi
command -v fio >/dev/null || { skip "ktrace" "fio not installed (apt-get install fio)"; exit 0; }

knobs_hold
V=/proc/sys/vm
T=/sys/kernel/tracing
T_MOUNTED=$(grep -c " $T tracefs " /proc/mounts)
REF="$T/instances/iodash-test-ref-$$"
REFPID= PIDS=
restore() {
	[ -n "$REFPID" ] && kill "$REFPID" 2>/dev/null && wait "$REFPID" 2>/dev/null
	[ -d "$REF" ] && rmdir "$REF" 2>/dev/null
	knobs_restore
	[ "$T_MOUNTED" = 0 ] && grep -q " $T tracefs " /proc/mounts && umount $T 2>/dev/null
	true
}
cleanup_add restore

# a real disk, not tmpfs: writeback must really run
W=$(mktemp -d /var/tmp/iodash-ktrace.XXXXXX)
cleanup_add "rm -rf '$W'"
dd if=/dev/zero of="$W/f" bs=1M count=2048 status=none && sync

[ "$T_MOUNTED" = 0 ] && mount -t tracefs nodev $T
echo 268435456 >$V/dirty_bytes; echo 134217728 >$V/dirty_background_bytes

# An instance named for a pid that is not alive here, made just now: an
# iodash of another pid namespace setting up.  A starting iodash clears
# stale instances, but leaves a young one alone.
dead=4194000; while [ -d /proc/$dead ]; do dead=$((dead + 1)); done
mkdir "$T/instances/iodash-$dead"
cleanup_add "rmdir '$T/instances/iodash-$dead' 2>/dev/null"
"$IODASH" --batch --count 2 -i 0.1 >/dev/null 2>&1
check "a young instance of a pid dead here (another namespace's iodash) is left alone" [ -d "$T/instances/iodash-$dead" ]
rmdir "$T/instances/iodash-$dead"

# The reference: our own instance, read as text (independent of iodash's
# binary reader).
ref_start() {
	mkdir "$REF"
	echo mono >"$REF/trace_clock"
	echo 'pause > 0' >"$REF/events/writeback/balance_dirty_pages/filter"
	echo 1 >"$REF/events/writeback/balance_dirty_pages/enable"
	cat "$REF/trace_pipe" >"$1" &
	REFPID=$!
}
ref_stop() {
	sleep 0.3
	kill "$REFPID"; wait "$REFPID" 2>/dev/null; REFPID=
	rmdir "$REF"
}

# compare.py REF_TRACE BATCH_OUT -> prints figures, exits 0 if all criteria hold
cat >"$TMPD/compare.py" <<'EOF'
import re, sys
ref, out = sys.argv[1], sys.argv[2]
mode = sys.argv[3]
pauses, comms = [], []
for line in open(ref, errors="replace"):
    m = re.search(r"^\s*(\S+)\s.*\s(\d+\.\d+): balance_dirty_pages: .* pause=(\d+) ", line)
    if m and int(m.group(3)) > 0:
        pauses.append((float(m.group(2)), int(m.group(3))))
        comms.append(m.group(1))
eps, cur = [], None
for line in open(out, errors="replace"):
    m = re.match(r"! (\S+) throttle start bdi=", line)
    if m:
        cur = [float(m.group(1)), None, None, None]
    m = re.match(r"! (\S+) throttle end (\S+)s pauses=(\d+) paused_ms=(\d+)", line)
    if m and cur is not None:
        cur[1] = float(m.group(1)); cur[2] = int(m.group(3)); cur[3] = int(m.group(4))
        eps.append(cur); cur = None
cols = None; col_p = col_ms = None; sum_p = 0.0; prev_t = None
for line in open(out, errors="replace"):
    if line.startswith("# time"):
        cols = line.split()[1:]
        col_p = cols.index("pauses_s") if "pauses_s" in cols else None
        col_ms = cols.index("paused_ms_s") if "paused_ms_s" in cols else None
total_ms = sum(p for _, p in pauses)
print(f"reference: {len(pauses)} pauses, {total_ms} ms paused;"
      f" first at {pauses[0][0] if pauses else 'none'}")
for e in eps:
    print(f"episode: {e[0]:.3f} .. {e[1]:.3f} pauses={e[2]} paused_ms={e[3]}")
if mode == "none":
    if not pauses:
        sys.exit(0 if not eps else 1)
    # someone paused (the machine is shared): the writer under test is
    # not the one to judge; say so if iodash agreed with the kernel
    print("writers paused: " + ",".join(sorted(set(c for c in comms))))
    sys.exit(4 if eps else 1)
if mode == "burst" and not pauses:
    print("the burst did not pause"); sys.exit(3)
if not pauses or not eps:
    print("no pauses or no episodes"); sys.exit(1)
covered = 0
for t, p in pauses:
    a, b = t, t + p / 1000.0
    for s, e, _, _ in eps:
        covered += max(0.0, min(b, e) - max(a, s)) * 1000.0
cov = covered / total_ms
first_dt = abs(eps[0][0] - pauses[0][0]) * 1000
# only the reference's pauses that fall in iodash's session are comparable:
# both started before the writer, so all of them
np, nms = sum(e[2] for e in eps), sum(e[3] for e in eps)
dp = abs(np - len(pauses)) / len(pauses)
dms = abs(nms - total_ms) / total_ms
print(f"coverage {cov*100:.1f}% episodes {len(eps)} first start off by {first_dt:.1f} ms;"
      f" pauses {np} vs {len(pauses)} ({dp*100:.2f}%), paused ms {nms} vs {total_ms} ({dms*100:.2f}%)")
ok = True
if mode == "repro":
    ok = cov >= 0.95 and 1 <= len(eps) <= 2 and first_dt <= 20 and dp <= 0.02 and dms <= 0.02
else:  # burst: at least one episode that holds the pauses
    ok = len(eps) >= 1 and cov >= 0.95
sys.exit(0 if ok else 1)
EOF

run_case() { # NAME MODE SECS WRITER...
	local name=$1 mode=$2 secs=$3; shift 3
	local ref="$TMPD/$name.ref" out="$TMPD/$name.out"
	ref_start "$ref"
	"$IODASH" --batch -i 0.1 --time mono --duration "$secs" ${IOARGS:-} >"$out" 2>"$TMPD/$name.err" &
	local ipid=$!
	PIDS+=" $ipid"
	sleep 1           # iodash is following before the writer starts
	"$@" >"$TMPD/$name.writer" 2>&1
	wait "$ipid"; local rc=$?
	ref_stop
	check "ktrace $name: iodash exit 0" [ "$rc" -eq 0 ]
	check "ktrace $name: followed the kernel" grep -q '^# time .* pauses_s paused_ms_s' "$out"
	python3 "$TMPD/compare.py" "$ref" "$out" "$mode" >"$TMPD/$name.cmp"; local crc=$?
	sed "s/^/  $name: /" "$TMPD/$name.cmp"
	# a burst that happened not to pause (writeback kept up) says nothing:
	# the caller tries again
	[ "$crc" = 3 ] && return 3
	# the repro once more when it missed (RETRY set by the caller): its
	# first start was once 29.4 ms off the reference (limit 20) in three
	# runs of the whole suite, with every pause counted.  The likely
	# cause, a pause used a drain late (the CPUs are read one after the
	# other), is mended (ktrace_order_events); the retry stays until
	# runs show it gone, and a miss is said, not hidden
	if [ "$mode" = repro ] && [ "$crc" != 0 ] && [ -n "${RETRY:-}" ]; then
		echo "INFO: ktrace $name missed on this try: $(tr '\n' ' ' <"$TMPD/$name.cmp")"
		return 5
	fi
	if [ "$mode" = none ] && [ "$crc" = 4 ]; then
		skip "ktrace $name: no episode, no reference pause" "another writer on this shared machine paused meanwhile (iodash saw it too)"
	elif [ "$mode" = none ]; then
		check "ktrace $name: no episode, no reference pause" [ "$crc" -eq 0 ]
	else
		check "ktrace $name: episodes match the reference" [ "$crc" -eq 0 ]
	fi
}

# the repro: 2 GB buffered overwrite for 10 s (the file is cached)
RETRY=1 run_case repro repro 14 fio --name=bw --filename="$W/f" --size=2G --rw=write --bs=1M \
	--ioengine=psync --direct=0 --invalidate=0 --time_based --runtime=10 ||
	run_case repro repro 14 fio --name=bw --filename="$W/f" --size=2G --rw=write --bs=1M \
		--ioengine=psync --direct=0 --invalidate=0 --time_based --runtime=10
# a short burst of 240 MB into a clean cache (again if it did not pause)
for try in 1 2 3 4; do
	sync; sleep 1
	rm -f "$TMPD/burst.rec"     # a recording is never overwritten: each try its own
	IOARGS="-o $TMPD/burst.rec" run_case burst burst 5 dd if=/dev/zero of="$W/f" bs=1M count=240 conv=notrunc status=none
	brc=$?
	[ $brc = 3 ] || break
done
[ $brc = 3 ] && skip "ktrace burst: episodes match the reference" "the 240 MB burst never paused in 4 tries (writeback kept up)"
# the recording replays the kernel's truth: the same lines (episodes with
# their exact times, pause columns), in the recorded CLOCK_MONOTONIC
"$IODASH" view --batch --time mono "$TMPD/burst.rec" >"$TMPD/burst.view" 2>&1
if diff <(sort "$TMPD/burst.out") <(sort "$TMPD/burst.view") >"$TMPD/burst.diff"; then
	pass "ktrace burst: view --batch --time mono = live ($(wc -l <"$TMPD/burst.out") lines)"
else
	fail "ktrace burst: view --batch --time mono = live" "$(head -4 "$TMPD/burst.diff")"
fi
# a writer limited to 20 MB/s for 3 s: never near the background threshold
sync; sleep 1
run_case slow none 6 fio --name=slow --filename="$W/f" --size=2G --rw=write --bs=64k \
	--ioengine=psync --direct=0 --invalidate=0 --rate=20m --time_based --runtime=3

# the live screen during the repro: THROTTLE, the control loop and the
# writer that pauses (its pid), from the kernel
if command -v tmux >/dev/null; then
	export TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8
	sync; sleep 1
	tm_start 120 40 "'$IODASH' -i 0.1 -r 0.5 --no-record; sleep 30"
	sleep 1
	fio --name=bw --filename="$W/f" --size=2G --rw=write --bs=1M --ioengine=psync --direct=0 \
		--invalidate=0 --time_based --runtime=6 >/dev/null 2>&1 &
	fp=$!
	ok_badge=0 ok_loop=0 ok_writer=0
	for i in $(seq 40); do
		sleep 0.2
		scr=$(tm_screen)
		echo "$scr" | head -1 | grep -q 'THROTTLE' && ok_badge=1
		echo "$scr" | grep -Eq 'bdi [0-9]+:[0-9]+ write_bw [0-9.]+[KMG]?/s ratelimit' && ok_loop=1
		echo "$scr" | grep -Eq '(^| )fio +[0-9]+ [0-9]+:[0-9]+ +/' && ok_writer=1
		[ $ok_badge$ok_loop$ok_writer = 111 ] && break
	done
	wait "$fp"
	check "ktrace screen: THROTTLE badge" [ $ok_badge = 1 ]
	check "ktrace screen: the control loop of the bdi" [ $ok_loop = 1 ]
	check "ktrace screen: fio in the writers table (pid, bdi, cgroup)" [ $ok_writer = 1 ]
	tm send-keys -t t q
	sleep 1
	tm kill-server 2>/dev/null
fi

# every mode that samples follows the kernel: attach and sweep too
sleep 30 & sp=$!
"$IODASH" --batch -i 0.1 --count 5 --no-record attach "$sp" >"$TMPD/attach.out" 2>&1
kill "$sp" 2>/dev/null; wait "$sp" 2>/dev/null
check "ktrace attach: pause columns" grep -q '^# time .* pauses_s paused_ms_s' "$TMPD/attach.out"
"$IODASH" --batch -i 0.1 --no-record sweep -p n=2,3 -- sleep 0.{n} >"$TMPD/sweep.out" 2>&1
check "ktrace sweep: pause columns" grep -q '^# time .* pauses_s paused_ms_s' "$TMPD/sweep.out"
"$IODASH" --batch -i 0.1 --count 3 --no-trace >"$TMPD/notrace.out" 2>&1
check "ktrace --no-trace: sampled, said so" grep -q 'note: throttling is sampled (--no-trace)' "$TMPD/notrace.out"

# not root: the sampled zone, said so, merged by the same gap rule: the
# same continuous throttle gives few episodes, not dozens of flickers
sync; sleep 1
out="$TMPD/nonroot.out"
setpriv --reuid=nobody --regid=nogroup --clear-groups \
	"$IODASH" --batch -i 0.1 --duration 13 >"$out" 2>"$TMPD/nonroot.err" &
ipid=$!
sleep 1
fio --name=bw --filename="$W/f" --size=2G --rw=write --bs=1M --ioengine=psync --direct=0 \
	--invalidate=0 --time_based --runtime=10 >/dev/null 2>&1
wait "$ipid"; rc=$?
check "ktrace nonroot: iodash exit 0" [ "$rc" -eq 0 ]
check "ktrace nonroot: says throttling is sampled and can miss short pauses" \
	grep -q '^= [0-9.]* note: throttling is sampled (.*root.*): it can miss short pauses' "$out"
check "ktrace nonroot: no kernel columns" bash -c "! grep -q 'pauses_s' '$out'"
n=$(grep -c '^! .* throttle start .*(sampled)' "$out"); flick=$(awk '!/^[#!=>]/ && $7 == "throttle"' "$out" | wc -l)
echo "  nonroot: $n sampled episodes, $flick throttle samples"
check "ktrace nonroot: a continuous throttle gives few episodes (1..3)" [ "$n" -ge 1 -a "$n" -le 3 ]

# (only ours: other sessions may be running on this machine)
left=$(for p in $PIDS; do ls -d $T/instances/iodash-$p $T/instances/iodash-$p-* 2>/dev/null; done)
check "ktrace: no instance of our iodash runs left ($PIDS)" [ -z "$left" ]
restore
check "ktrace: dirty knobs restored" [ "$(cat $V/dirty_bytes) $(cat $V/dirty_background_bytes) $(cat $V/dirty_ratio) $(cat $V/dirty_background_ratio)" = "${KNOBS_ORIG[dirty_bytes]} ${KNOBS_ORIG[dirty_background_bytes]} ${KNOBS_ORIG[dirty_ratio]} ${KNOBS_ORIG[dirty_background_ratio]}" ]
