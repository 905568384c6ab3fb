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

# numbers on the command line are plain decimals: strtod's hex, inf and nan
# are refused (0x10 used to read as 16 s)
for a in 0x10 0x1p-3 inf nan INF; do
	err=$("$IODASH" --batch -i "$a" --count 1 2>&1 >/dev/null); rc=$?
	[ $rc -eq 2 ] && echo "$err" | grep -q "not '$a'" && pass "-i $a refused, exit 2" || fail "-i $a refused" "exit $rc: $err"
done
n=$("$IODASH" --batch -i 1e-1 --count 2 | grep -c '^0\.[01]')
[ "$n" -eq 2 ] && pass "-i 1e-1 still reads as 0.1 s" || fail "-i 1e-1 reads as 0.1 s" "$n lines"
# more than 1024 sweep values: one clear line (not cut off), nothing started
vals=$(seq -s, 1 1100)
err=$(cd "$TMPD" && "$IODASH" sweep --batch -p "x=$vals" -- touch "$TMPD/started" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && echo "$err" | grep -q '^iodash: -p x: 1100 values, at most 1024 per -p .*; see iodash --help$' \
	&& [ ! -e "$TMPD/started" ] && ! ls "$TMPD"/*.rec >/dev/null 2>&1 \
	&& pass "-p with 1100 values: one whole line, exit 2: $err" || fail "-p with 1100 values" "exit $rc: ${err:0:200}"

# A sweep with results: the # line comes first; results at the time they
# came, numbered by pass (1-based, as "run i/N"); view --batch of its
# recording gives the same lines, and the same bytes every time.
DBO="$FIX/bench-output/dbench"
sw="$TMPD/sweep.rec"
"$IODASH" sweep --batch -i 0.1 -o "$sw" --repeat 2 --parser dbench -p c=1,4 -- \
	sh -c "sleep 0.25; grep Throughput $DBO/dbench-t10-{c}client*.txt; sleep 0.1" >"$TMPD/sweep.live" 2>"$TMPD/sweep.err"; rc=$?
check "sweep --batch with 4 runs: exit 0" [ $rc -eq 0 ]
# the # line first: the run start used to win the race with the first
# sample about one time in four, so try it 20 times
bad=0
for i in $(seq 10); do
	for cmd in sweep run; do
		if [ $cmd = sweep ]; then args=(-p x=1 -- echo {x}); else args=(-- echo 1); fi
		first=$(cd "$TMPD" && "$IODASH" $cmd --batch --no-record -i 0.1 "${args[@]}" | head -1)
		case $first in "# time "*) ;; *) bad=$((bad + 1)); badline=$first;; esac
	done
done
[ $bad -eq 0 ] && head -1 "$TMPD/sweep.live" | grep -q '^# time ' \
	&& pass "sweep and run --batch: the # line is the first line (21 of 21)" \
	|| fail "sweep and run --batch: the # line is the first line" "$bad of 20 began: ${badline:-$(head -1 "$TMPD/sweep.live")}"
got=$(grep -o 'result: sh pass [0-9] c=[0-9] throughput' "$TMPD/sweep.live" | awk '{print $4 $5}' | tr '\n' ' ')
[ "$got" = "1c=1 1c=4 2c=1 2c=4 " ] && ! grep -q 'result: .* run [0-9]' "$TMPD/sweep.live" \
	&& pass "results say pass 1, 1, 2, 2 for runs 1/4..4/4 (one 1-based numbering)" || fail "result numbering" "$got"
"$IODASH" view --batch "$sw" >"$TMPD/view.1" 2>&1
sort "$TMPD/sweep.live" >"$TMPD/a"; sort "$TMPD/view.1" >"$TMPD/b"
cmp -s "$TMPD/a" "$TMPD/b" && pass "view --batch prints the very lines live --batch printed ($(wc -l <"$TMPD/a") lines)" \
	|| fail "view --batch prints the lines live --batch printed" "$(diff "$TMPD/a" "$TMPD/b" | head -4 | tr '\n' ' ')"
# each final result at its own time: the time of its R record
# (from the R records' full times: export's 3 decimals would round twice)
want=$(awk -F'\t' '$1 == "R" && $10 % 2 == 1 {printf "%.2f\n", $2}' "$sw" | sort -u | tr '\n' ' ')
have=$(awk '$1 == "=" && $3 == "result:" {print $2}' "$TMPD/view.1" | sort -u | tr '\n' ' ')
[ -n "$want" ] && [ "$want" = "$have" ] && pass "view --batch: results at their own times ($have)" \
	|| fail "view --batch: results at their own times" "want $want, have $have"
# the times of all lines never go back; but a throttle episode's end (from
# another writer on the machine) carries the time it ended, known only
# --throttle-gap later, so it may follow a later sample line
awk '/^! [0-9.]+ throttle end / {next} /^[0-9]/ {t = $1} /^[=!] / {t = $2} t != "" {if (t + 0 < last) bad = 1; last = t + 0} END {exit bad}' "$TMPD/view.1" \
	&& pass "view --batch: line times never go back" || fail "view --batch: line times never go back"
for i in $(seq 20); do "$IODASH" view --batch "$sw" 2>&1 | md5sum; done | sort -u >"$TMPD/sums"
[ "$(wc -l <"$TMPD/sums")" -eq 1 ] && pass "view --batch: 20 runs, the same bytes" \
	|| fail "view --batch: 20 runs, the same bytes" "$(wc -l <"$TMPD/sums") different outputs"

# attach --batch: the # line first too.  In a PID namespace of its own
# (attach must never signal, but a regression must not hurt the machine).
if unshare -pf --mount-proc true 2>/dev/null; then
	timeout 30 unshare -pf --mount-proc bash -c '
		for i in 1 2 3 4 5 6 7 8 9 10; do
			setsid sleep 20 & spid=$!
			"$1" attach --batch -i 0.1 --count 2 "$spid" 2>&1 | head -1
			kill "$spid" 2>/dev/null
		done' _ "$IODASH" >"$TMPD/attach.txt"
	n=$(grep -c '^# time ' "$TMPD/attach.txt")
	[ "$n" -eq 10 ] && pass "attach --batch: the # line is the first line (10 of 10)" \
		|| fail "attach --batch: the # line is the first line" "$n of 10: $(grep -v '^# time' "$TMPD/attach.txt" | head -1)"
else
	skip "attach --batch: the # line first" "no PID namespace here (unshare -pf needs root)"
fi

# A benchmark that prints bytes that are not UTF-8 and control bytes:
# --batch lines stay one line each (\xHH), export's JSON and CSV stay
# valid UTF-8 (U+FFFD per byte that is not), readable by strict readers.
raw="$TMPD/raw.rec"
"$IODASH" run --batch -o "$raw" -l $'lab\377\001el' -- sh -c 'printf "\377x\n"; printf "ok \303\251 \355\240\200 \300\257\n"' >"$TMPD/raw.txt" 2>&1
grep -qx '> \\xffx' "$TMPD/raw.txt" && grep -qx $'> ok \303\251 \\\\xed\\\\xa0\\\\x80 \\\\xc0\\\\xaf' "$TMPD/raw.txt" \
	&& grep -q 'run \[lab\\xff\\x01el\]' "$TMPD/raw.txt" \
	&& pass "--batch: bytes that are not UTF-8 and control bytes print as \\xHH, UTF-8 as is" \
	|| fail "--batch escapes raw bytes" "$(grep -a '^>' "$TMPD/raw.txt" | cat -A | tr '\n' ' ')"
if "$IODASH" export --json "$raw" | python3 -c '
import json, sys
d = json.loads(sys.stdin.buffer.read().decode("utf-8"))   # strict: no stray byte
t = [o["text"] for o in d["output"]]
assert t == ["\ufffdx", "ok \u00e9 \ufffd\ufffd\ufffd \ufffd\ufffd"], t
assert d["header"]["label"] == "lab\ufffd\u0001el", d["header"]["label"]
' 2>"$TMPD/py.err"; then
	pass "export --json: valid UTF-8 JSON, U+FFFD per byte that is not UTF-8"
else
	fail "export --json of raw bytes" "$(tail -1 "$TMPD/py.err")"
fi
if "$IODASH" export --csv --table events "$raw" | python3 -c '
import csv, io, sys
text = sys.stdin.buffer.read().decode("utf-8")
rows = list(csv.reader(io.StringIO(text)))
assert any("[lab\ufffd\x01el]" in r[2] for r in rows[1:]), rows
' 2>"$TMPD/py.err"; then
	pass "export --csv: valid UTF-8"
else
	fail "export --csv of raw bytes" "$(tail -1 "$TMPD/py.err")"
fi
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

# result lines in full precision: every digit the benchmark printed, an x
# of 2^27 and a value above 10^6 (were 1.34218e+08 and 1.54012e+06)
"$IODASH" sweep --batch --no-record -i 0.1 --parser dbench -p d=134217728 -- \
	sh -c 'echo "Throughput 1540123.456 MB/sec  4 clients  4 procs  max_latency=5.207 ms"' {d} >"$TMPD/prec.out" 2>&1
line=$(grep -m1 ' result: .* throughput=' "$TMPD/prec.out")
echo "$line" | grep -q ' d=134217728 throughput=1540123.456 MB/s$' \
	&& pass "--batch result line in full precision: ${line#*result: }" \
	|| fail "--batch result line in full precision" "got: ${line:-$(tail -3 "$TMPD/prec.out")}"
