#!/usr/bin/env bash
# view ARCHIVE: a pmlogger archive that the test records for 20 s from a
# private pmcd (tests/e2e/pcp.sh) replayed through the same dashboard:
# every record a sample at its own time, the thresholds the archive holds,
# the machine the archive names; --proc-root takes it too; what is not an
# archive of these metrics is refused in one line.  Root only (pmcd).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pcp.sh"

pmcd_available || { skip "view archive" "no pmcd (Debian package pcp): make deps installs it"; exit 0; }
is_root || { skip "view archive" "needs root to run a private pmcd"; exit 0; }
command -v pmlogger >/dev/null || { skip "view archive" "no pmlogger (Debian package pcp)"; exit 0; }
PORT=$(pmcd_free_port) && pmcd_start "$PORT" || { fail "private pmcd"; exit 0; }
D="$TMPD/pmcd-$PORT"
cat >"$TMPD/pmlogger.conf" <<CFG
log mandatory on once { hinv.pagesize kernel.uname.release kernel.uname.nodename }
log mandatory on every 1 second {
	mem.vmstat.nr_dirty mem.vmstat.nr_writeback mem.vmstat.nr_writeback_temp
	mem.vmstat.nr_dirty_threshold mem.vmstat.nr_dirty_background_threshold
	mem.vmstat.nr_dirtied mem.vmstat.nr_written
	mem.physmem mem.util.free mem.util.available mem.util.cached mem.util.dirty mem.util.writeback
	disk.dev
}
CFG
A="$TMPD/lab"
env PCP_TMP_DIR="$D/tmp" PCP_RUN_DIR="$D/run" PCP_LOG_DIR="$D/log" \
	pmlogger -h "localhost:$PORT" -c "$TMPD/pmlogger.conf" -T 20sec -l "$TMPD/pmlogger.log" "$A"; rc=$?
check "pmlogger recorded 20 s from the private pmcd" bash -c "[ $rc -eq 0 ] && [ -s '$A.0' ] && [ -s '$A.meta' ]"

# the archive's own thresholds, record by record (kB)
pk=$(($(getconf PAGESIZE) / 1024))
pmdumplog -z "$A" mem.vmstat.nr_dirty_threshold 2>/dev/null | awk -v pk="$pk" '/nr_dirty_threshold\): value/ { print $NF * pk }' >"$TMPD/want"
"$IODASH" view --batch --fast "$A" >"$TMPD/out" 2>"$TMPD/err"; rc=$?
awk '/^[0-9]/ { print $6 }' "$TMPD/out" >"$TMPD/have"
n=$(wc -l <"$TMPD/want")
check "view --batch --fast ARCHIVE: exit 0, nothing on stderr" bash -c "[ $rc -eq 0 ] && [ ! -s '$TMPD/err' ]"
check "view ARCHIVE: a sample per record with the archive's dirty threshold ($n records)" \
	bash -c "[ $n -ge 15 ] && cmp -s '$TMPD/want' '$TMPD/have'"
check "view ARCHIVE: at the records' own times (1 s apart)" \
	awk '/^[0-9]/ { if (n++ && ($1 - last < 0.9 || $1 - last > 1.1)) bad = 1; last = $1 } END { exit bad || n < 15 }' "$TMPD/out"
check "view ARCHIVE: the disks' rates" grep -Eq '^# time .*\.w_kBps' "$TMPD/out"
# the files themselves name it too, and --proc-root takes it
"$IODASH" --batch --fast --proc-root "$A.meta" >"$TMPD/out2" 2>&1
check "--proc-root ARCHIVE.meta: the same samples" bash -c "cmp -s <(awk '/^[0-9]/' '$TMPD/out') <(awk '/^[0-9]/' '$TMPD/out2')"
# the screen: the archive's machine and the source in the header
tm_start 120 40 "'$IODASH' view '$A'; echo EXIT=\$?; sleep 30"
check "view ARCHIVE screen: the header says the archive" tm_wait "archive $A" 10
tm send-keys -t t q
check "view ARCHIVE screen: q, exit 0" tm_wait 'EXIT=0' 10
# refusals: an archive without these metrics, --fast on a recording
# (export --pcp's archive is read back: tests/e2e/test_export_pcp.sh)
echo 'log mandatory on every 1 second { hinv.ncpu }' >"$TMPD/ncpu.conf"
env PCP_TMP_DIR="$D/tmp" PCP_RUN_DIR="$D/run" PCP_LOG_DIR="$D/log" \
	pmlogger -h "localhost:$PORT" -c "$TMPD/ncpu.conf" -T 3sec -l "$TMPD/pmlogger2.log" "$TMPD/own"
"$IODASH" view --batch "$TMPD/own" >/dev/null 2>"$TMPD/e"; rc=$?
check "view of an archive without mem.vmstat/disk.dev: exit 1, one line saying what to log" \
	bash -c "[ $rc -eq 1 ] && [ \$(wc -l <'$TMPD/e') -eq 1 ] && grep -q 'neither mem.vmstat nor disk.dev' '$TMPD/e'"
"$IODASH" view --batch --fast "$FIX/recordings/knobs-sweep-6.18.rec" >/dev/null 2>"$TMPD/e"; rc=$?
check "view --fast of a recording: exit 2, said" bash -c "[ $rc -eq 2 ] && grep -q 'fast is for PCP archives' '$TMPD/e'"
