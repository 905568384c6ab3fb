#!/usr/bin/env bash
# --batch on recorded traces and on the live /proc: the dirty-limit model's
# figures, the `!` event lines, --count/--duration, and bad --proc-root input.
. "$(dirname "$0")/lib.sh"
T="$FIX/proc-traces"
FIO="$T/dirty-bytes-256M-128M-fio-overwrite-4G-20s"
DD="$T/dirty-bytes-256M-128M-dd-newfile-4G-not-throttled"

out="$TMPD/fio.txt"
"$IODASH" --batch --fast --proc-root "$FIO" >"$out" 2>"$TMPD/fio.err"; rc=$?
[ $rc -eq 0 ] && pass "fio trace replays, exit 0" || fail "fio trace replays, exit 0" "exit $rc: $(head -1 "$TMPD/fio.err")"

# header names the columns; one line per sample (308)
head -1 "$out" | grep -q '^# time dirty_kb writeback_kb bg_thresh_kb freerun_kb thresh_kb zone vda.r_kBps vda.w_kBps vda.util' \
	&& pass "header names the columns" || fail "header names the columns" "$(head -1 "$out")"
n=$(grep -c '^[0-9]' "$out")
[ "$n" -eq 308 ] && pass "one line per sample (308)" || fail "one line per sample (308)" "got $n"

# after the knobs changed (sample 15, t=1.5 s): the byte limits' thresholds
line=$(awk '!/^[#!=>]/ && $1 >= 2.0 {print; exit}' "$out")
set -- $line
[ "$6" = 262144 ] && [ "$4" = 131072 ] && [ "$5" = 196608 ] \
	&& pass "thresholds after the knob change: thresh 262144, bg 131072, freerun 196608 kB" \
	|| fail "thresholds after the knob change" "got: $line"

# first throttle event at sample 37 (3.70 s), with the level and freerun
first=$(grep -m1 '^! ' "$out")
echo "$first" | grep -Eq '^! 3\.70 throttle start dirty\+writeback=198664kB freerun=196608kB' \
	&& pass "first throttle line at 3.70 s: $first" || fail "first throttle line at 3.70 s" "got: $first"
# the event line comes right after its sample's line, which reads throttle
grep -B1 -m1 '^! ' "$out" | head -1 | grep -q '^3\.70 .* throttle ' \
	&& pass "the 3.70 sample line reads zone throttle" || fail "the 3.70 sample line reads zone throttle"
# a replayed trace is not this kernel: the zone, merged into episodes
# (1 s gap), said to be sampled; the session's end closes the last one
grep -q '^= 0.00 note: throttling is sampled (.*): it can miss short pauses' "$out" \
	&& pass "says throttling is sampled" || fail "says throttling is sampled" "$(grep -m1 '^=' "$out")"
ends=$(grep -c '^! .* throttle end [0-9.]*s (sampled)$' "$out"); starts=$(grep -c '^! .* throttle start .*(sampled)$' "$out")
[ "$starts" -eq 2 ] && [ "$starts" -eq "$ends" ] \
	&& pass "every hit has an end with its duration ($starts starts, $ends ends)" \
	|| fail "hits and ends pair up" "$starts starts, $ends ends"

# the negative case: never throttled
"$IODASH" --batch --fast --proc-root "$DD" >"$TMPD/dd.txt" 2>&1
n=$(grep -c '^[0-9]' "$TMPD/dd.txt")
! grep -q '^!' "$TMPD/dd.txt" && ! grep -Eq ' (throttle|hard_limit) ' "$TMPD/dd.txt" && [ "$n" -eq 161 ] \
	&& pass "not-throttled trace: no throttle line in $n samples" || fail "not-throttled trace: no throttle line" "$n samples"

# --count and -r in batch
n=$("$IODASH" --batch --fast --count 25 --proc-root "$FIO" | grep -c '^[0-9]')
[ "$n" -eq 25 ] && pass "--count 25 gives 25 lines" || fail "--count 25 gives 25 lines" "got $n"
n=$("$IODASH" --batch --fast -r 1 --proc-root "$FIO" | grep -c '^[0-9]')
[ "$n" -ge 30 ] && [ "$n" -le 32 ] && pass "-r 1 over a 30.7 s trace gives one line a second ($n)" \
	|| fail "-r 1 gives one line a second" "got $n"

# paced replay keeps the recorded pace: 2 s of trace take about 2 s
start=$(date +%s.%N)
"$IODASH" --batch --duration 2 --proc-root "$FIO" >/dev/null
el=$(echo "$(date +%s.%N) - $start" | bc)
awk -v e="$el" 'BEGIN {exit !(e > 1.8 && e < 4)}' && pass "paced replay takes its recorded time (2 s -> ${el}s)" \
	|| fail "paced replay takes its recorded time" "${el}s"

# live: a few samples; thresholds equal /proc/vmstat's at that moment
live=$("$IODASH" --batch -i 0.1 --count 5 2>&1); rc=$?
n=$(echo "$live" | grep -c '^[0-9]')
[ $rc -eq 0 ] && [ "$n" -eq 5 ] && pass "live --count 5 -i 0.1: 5 lines" || fail "live --count 5" "exit $rc, $n lines: $live"
th=$(awk '/^nr_dirty_threshold/ {print $2 * 4}' /proc/vmstat)
got=$(echo "$live" | awk '/^[0-9]/ {v=$6} END {print v}')
awk -v a="$th" -v b="$got" 'BEGIN {d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= a * 0.01)}' \
	&& pass "live thresh_kb matches /proc/vmstat ($got vs $th)" || fail "live thresh_kb matches /proc/vmstat" "$got vs $th"

# bad --proc-root: one line naming the file, exit 1, no crash
badcase() { # name dir pattern
	local err rc
	err=$("$IODASH" --batch --fast --proc-root "$2" 2>&1 >/dev/null); rc=$?
	if [ $rc -eq 1 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -q -- "$3"; then
		pass "bad input ($1): $err"
	else
		fail "bad input ($1)" "exit $rc: $err"
	fi
}
badcase missing "$TMPD/nope" "$TMPD/nope"
mkdir -p "$TMPD/empty"; badcase empty "$TMPD/empty" "$TMPD/empty"
mkdir -p "$TMPD/garbage/sys/vm" "$TMPD/garbage/pressure"; head -c 4096 /dev/urandom >"$TMPD/garbage/vmstat"
for f in meminfo diskstats pressure/io sys/vm/dirty_background_bytes sys/vm/dirty_background_ratio sys/vm/dirty_bytes \
	sys/vm/dirty_ratio sys/vm/dirty_expire_centisecs sys/vm/dirty_writeback_centisecs; do
	cp "$TMPD/garbage/vmstat" "$TMPD/garbage/$f"
done
badcase garbage "$TMPD/garbage" "$TMPD/garbage/"
cp -r "$FIO" "$TMPD/trunc"; head -c 3000 "$FIO/samples/00003.txt" >"$TMPD/trunc/samples/00003.txt"
err=$("$IODASH" --batch --fast --proc-root "$TMPD/trunc" 2>&1 >"$TMPD/trunc.out"); rc=$?
n=$(grep -c '^[0-9]' "$TMPD/trunc.out")
[ $rc -eq 1 ] && echo "$err" | grep -q '00003.txt' && [ "$n" -eq 3 ] \
	&& pass "truncated trace sample: error names it after the 3 good samples: $err" \
	|| fail "truncated trace sample" "exit $rc, $n lines: $err"

# live, side by side with iostat -x: the kB a dd wrote, as both count them
ddir=$TOP/build/e2e-dd; mkdir -p "$ddir"; cleanup_add "rm -rf '$ddir'"
src=$(df --output=source "$ddir" | tail -1); d=$(basename "$src")
[ -e "/sys/class/block/$d/partition" ] && d=$(basename "$(readlink -f "/sys/class/block/$d/..")")
if ! command -v iostat >/dev/null; then
	skip "live dd vs iostat" "iostat (sysstat) is not installed"
elif [ ! -e "/sys/class/block/$d" ]; then
	skip "live dd vs iostat" "$ddir is not on a block device ($src)"
else
	# both run until the dd and its fsync are over and 2 idle seconds later
	"$IODASH" --batch -i 1 --duration 300 >"$TMPD/live.txt" 2>&1 &
	ipid=$!
	stdbuf -oL iostat -x -d -y -k 1 300 "$d" >"$TMPD/iostat.txt" 2>&1 &
	spid=$!
	sleep 2
	dd if=/dev/zero of="$ddir/ddfile" bs=1M count=2000 conv=fsync 2>"$TMPD/dd.err"
	sleep 2.5
	kill -INT "$ipid" "$spid"
	wait "$ipid" "$spid"
	rm -f "$ddir/ddfile"
	ours=$(awk -v d="$d" '/^# time/ {for (i = 1; i <= NF; i++) if ($i == d ".w_kBps") c = i - 1}
		/^[0-9]/ && c && $c != "n/a" {s += $c} END {printf "%.0f", s}' "$TMPD/live.txt")
	theirs=$(awk -v d="$d" '$1 == "Device" {for (i = 1; i <= NF; i++) if ($i == "wkB/s") c = i}
		$1 == d && c {s += $c} END {printf "%.0f", s}' "$TMPD/iostat.txt")
	if awk -v a="$ours" -v b="$theirs" 'BEGIN {d = a - b; if (d < 0) d = -d; exit !(b > 1000000 && d <= b * 0.05)}'; then
		pass "live $d kB written during a 2000 MB dd: iodash $ours, iostat -x $theirs (within 5%)"
	else
		fail "live $d kB written: iodash vs iostat -x" "iodash $ours, iostat $theirs"
	fi
fi

# a reader that goes away (| head) ends a plain batch session quietly
timeout 20 "$IODASH" --batch -i 0.1 | head -2 >/dev/null; rc=${PIPESTATUS[0]}
check "batch | head: iodash ends with 0 when the reader goes (not killed by the timeout)" [ "$rc" -eq 0 ]

# throttling and time options: bad values and contradictions are usage errors (2)
for bad in "--no-trace --trace-throttle" "--time utc" "--throttle-gap 0" "--throttle-gap x"; do
	err=$("$IODASH" --batch --count 1 $bad 2>&1 >/dev/null); rc=$?
	[ $rc -eq 2 ] && echo "$err" | grep -q '^iodash: .*--' \
		&& pass "usage error, exit 2: $bad" || fail "usage error, exit 2: $bad" "exit $rc: $err"
done
# --time mono: CLOCK_MONOTONIC seconds, to the microsecond, near this
# machine's CLOCK_MONOTONIC now
line=$("$IODASH" --batch --count 2 -i 0.1 --no-trace --time mono 2>/dev/null | grep -m1 '^[0-9]')
up=$(python3 -c 'import time; print(time.clock_gettime(time.CLOCK_MONOTONIC))')
t=${line%% *}
echo "$t" | grep -Eq '^[0-9]+\.[0-9]{6}$' && awk -v t="$t" -v u="$up" 'BEGIN { d = u - t; exit !(d > -5 && d < 5) }' \
	&& pass "--time mono: CLOCK_MONOTONIC to the microsecond ($t, now $up)" \
	|| fail "--time mono: CLOCK_MONOTONIC to the microsecond" "got '$t', now $up"
