#!/usr/bin/env bash
# Throttled tasks and the kernel's pauses (--trace-throttle: insist on the
# tracepoints) in a run's end line during a buffered overwrite
# that pushes dirty memory over freerun (dirty_bytes lowered to 256M /
# background 128M as in the fixtures' tools/dirty-limit-trace.sh, and
# ALWAYS restored in a trap).  Root only.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "throttle: throttled tasks" "needs root to lower /proc/sys/vm/dirty_bytes"
	skip "throttle: --trace-throttle pauses" "needs root for tracefs"
	exit 0
fi
command -v fio >/dev/null || { skip "throttle" "fio not installed (apt-get install fio)"; exit 0; }
# the knobs are the machine's: one test at a time changes them
knobs_hold
V=/proc/sys/vm
T_MOUNTED=$(grep -c ' /sys/kernel/tracing tracefs ' /proc/mounts)
restore() {
	knobs_restore
	# (no instance is removed here: the ones this test's iodash made it
	# removed itself, as checked below, and others' are theirs)
	[ "$T_MOUNTED" = 0 ] && grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts && umount /sys/kernel/tracing 2>/dev/null
	true
}
cleanup_add restore

W="$TMPD/work"; mkdir -p "$W"
# the file is cached first, so the overwrite dirties pages at memory speed
dd if=/dev/zero of="$W/f" bs=1M count=1024 status=none && sync
echo 268435456 >$V/dirty_bytes; echo 134217728 >$V/dirty_background_bytes
FIO=(fio --name=dirtywriter --filename="$W/f" --rw=write --bs=1M --size=1G --ioengine=psync
     --direct=0 --invalidate=0 --time_based --runtime=4)

out="$TMPD/thr.out"
timeout 60 "$IODASH" --batch -i 0.1 --no-record run -- "${FIO[@]}" >"$out" 2>&1; rc=$?
check "throttle: fio exit 0" [ "$rc" -eq 0 ]
col=$(awk '/^# time/ { for (i = 1; i <= NF; i++) if ($i == "throttled_tasks") { print i - 1; exit } }' "$out")
max=$(awk -v c="${col:-0}" '/^[0-9]/ && c > 0 && $c + 0 > m { m = $c + 0 } END { print m + 0 }' "$out")
echo "max throttled_tasks in a sample: $max"
check "throttle: throttled tasks > 0 at some sample" [ "${max:-0}" -gt 0 ]
check "throttle: run_end summary agrees" grep -Eq 'throttled tasks max [1-9]' "$out"

out="$TMPD/trace.out"
timeout 60 "$IODASH" --batch -i 0.1 --no-record --trace-throttle run -- "${FIO[@]}" >"$out" 2>&1; rc=$?
check "trace-throttle: fio exit 0" [ "$rc" -eq 0 ]
line=$(grep 'run_end' "$out"); echo "$line"
check "trace-throttle: pauses > 0" grep -Eq 'tracepoint: [1-9][0-9]* pauses, [0-9]+ ms paused \(all writers\)' "$out"
# the run ends inside the throttle: the episode's end is still printed
check "trace-throttle: the last episode's end is printed" grep -Eq '^! [0-9.]+ throttle end [0-9.]+s pauses=[1-9][0-9]* paused_ms=[0-9]+ duty=[0-9]+%' "$out"
# ours by name: other users' iodash on this machine have theirs
inst=$(grep -o '/sys/kernel/tracing/instances/iodash-[0-9a-z-]*' "$out" | head -1)
check "trace-throttle: our instance removed" bash -c "[ -n '$inst' ] && [ ! -e '$inst' ]"
if [ "$T_MOUNTED" = 0 ]; then
	check "trace-throttle: said it mounted tracefs" grep -q 'mounted it at /sys/kernel/tracing' "$out"
	check "trace-throttle: unmounted again" bash -c "! grep -q ' /sys/kernel/tracing tracefs ' /proc/mounts"
fi
restore
check "throttle: dirty knobs restored" [ "$(cat $V/dirty_bytes) $(cat $V/dirty_background_bytes) $(cat $V/dirty_ratio) $(cat $V/dirty_background_ratio)" = "${KNOBS_ORIG[dirty_bytes]} ${KNOBS_ORIG[dirty_background_bytes]} ${KNOBS_ORIG[dirty_ratio]} ${KNOBS_ORIG[dirty_background_ratio]}" ]
