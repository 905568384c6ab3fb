#!/usr/bin/env bash
# compare --text/--csv/--json on the LKML mails (issue 6 acceptance).
. "$(dirname "$0")/lib.sh"
MAIL="$FIX/lkml/dbench-2.4.16-vs-2.4.17pre2.txt"

out=$("$IODASH" compare --text "$MAIL" 2>"$TMPD/err"); rc=$?
row=$(printf '%s\n' "$out" | awk '$1 == "128" { print; exit }')
# 128 procs: 2.4.16 66.74 N=1; 2.4.17-pre2 mean 60.13 N=3, change -9.90%
if [ $rc -eq 0 ] && printf '%s\n' "$row" | grep -Eq '^ +128 +66\.74 +66\.74 +- +- +1 +60\.13 +59\.78 +5\.64 +9\.38% +3 +-9\.90%$'; then
	pass "compare --text: 128 procs 66.74 (N=1) vs 60.13 (N=3, hmean 59.78) -9.90%"
else
	fail "compare --text 128 procs row" "rc=$rc row='$row'"
fi
printf '%s\n' "$out" | grep -q 'change against 2.4.16' && pass "compare --text names the baseline" || fail "compare --text baseline"
printf '%s\n' "$out" | grep -q ' $' && fail "compare --text has trailing blanks" || pass "compare --text: no trailing blanks"

row=$("$IODASH" compare --csv --metric throughput "$MAIL" | grep '^throughput,MB/s,procs,128,2.4.17-pre2,')
echo "$row" | grep -q ',3,3,60.1309,' && pass "compare --csv row" || fail "compare --csv row" "$row"

if "$IODASH" compare --json --baseline 2.4.17-pre2 "$MAIL" >"$TMPD/c.json" &&
   python3 - "$TMPD/c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = [x for x in d["metrics"] if x["metric"] == "throughput"][0]
assert m["baseline"] == "2.4.17-pre2", m["baseline"]
# and each label the one its changes are against (its setting's)
assert all(x["baseline"] == "2.4.17-pre2" for x in m["labels"]), m["labels"]
l = [x for x in m["labels"] if x["label"] == "2.4.16"][0]
p = [x for x in l["points"] if x["x"] == 128][0]
assert abs(p["change_pct"] - (66.7354 - 60.1309) / 60.1309 * 100) < 1e-6, p
assert p["p_value"] is None and p["significant"] is False
PY
then pass "compare --json --baseline"; else fail "compare --json --baseline"; fi

# significance: the iozone mail has 3-5 runs per label
"$IODASH" compare --text --metric write "$FIX/lkml/iozone-dirty-ratio-2.6.24.txt" >"$TMPD/io.txt" 2>&1
grep -q '%\*' "$TMPD/io.txt" && pass "compare marks p < 0.05 with *" || fail "compare significance mark" "$(head -5 "$TMPD/io.txt")"

# the same labels from a second source are never pooled silently: kept
# apart as LABEL#2, and said
"$IODASH" compare --text "$MAIL" "$MAIL" >"$TMPD/twice.txt" 2>"$TMPD/twice.err"
check "compare: the same file twice is two columns, not pooled" grep -q '2.4.17-pre2#2 (3 runs)' "$TMPD/twice.txt"
check "compare: ... with N=3, not 6" bash -c "awk '\$1 == \"128\"' '$TMPD/twice.txt' | grep -Eq ' 3 .* 3 ' && ! awk '\$1 == \"128\"' '$TMPD/twice.txt' | grep -q ' 6 '"
check "compare: ... and says so" grep -q 'label "2.4.17-pre2" is also in .*: shown apart as "2.4.17-pre2#2"' "$TMPD/twice.err"

"$IODASH" compare --text --baseline nosuch "$MAIL" >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 2 ] && grep -q '2.4.16' "$TMPD/err" && pass "compare --baseline unknown: exit 2 listing labels" || fail "compare bad baseline" "rc=$rc $(cat "$TMPD/err")"
"$IODASH" compare --text /nonexistent.txt >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 1 ] && grep -q '/nonexistent.txt' "$TMPD/err" && pass "compare missing file: exit 1 naming it" || fail "compare missing file" "rc=$rc"

# two knob sweeps "on two kernels" (tests/fixtures/README.md): labelled by
# kernel, one row per setting, one column per kernel, what each run measured
A="$FIX/recordings/knobs-sweep-6.18.rec" B="$FIX/recordings/knobs-sweep-as-2.6.24.rec"
"$IODASH" compare --text --metric write_bw "$A" "$B" >"$TMPD/k.txt" 2>"$TMPD/k.err"; rc=$?
check "compare kernels: exit 0, nothing on stderr" [ "$rc" -eq 0 -a ! -s "$TMPD/k.err" ]
check "compare kernels: a column per kernel (not the command name)" grep -Eq '^ +6\.18\.44-fc-v1147 \(2 runs\) +2\.6\.24-rc2 \(2 runs\)$' "$TMPD/k.txt"
check "compare kernels: each label's kernel and knobs" grep -q '^  2.6.24-rc2: kernel 2.6.24-rc2, from .*knobs-sweep-as-2.6.24.rec; knobs vm.dirty_background_bytes=67108864|268435456 vm.dirty_bytes=134217728|536870912 vm.dirty_background_ratio=0 vm.dirty_ratio=0$' "$TMPD/k.txt"
check "compare kernels: hmean beside the mean" grep -Eq '^ +d +mean +hmean +stddev' "$TMPD/k.txt"
check "compare kernels: 128M row, change, what was measured" grep -Eq '^ +128M +1688576\.00 +1675519\.84 +209982\.43 +12\.44% +2 +throttled +1997824\.00 +1918809\.62 +561884\.02 +28\.12% +2 +\+18\.31% +throttled/device$' "$TMPD/k.txt"
check "compare kernels: 512M row" grep -Eq '^ +512M .* 2 +cache/device .* \+6\.60% +cache$' "$TMPD/k.txt"
check "compare kernels: a line per run with disk bytes, inflation, peak, throttled time" grep -Eq '^6\.18\.44-fc-v1147 +1 throttled +1577\.0 +744\.3 +2\.12 +374\.0 +0\.0 +100/96/128 +0\.15s 30% +61\.4  knobs-sweep-6\.18\.rec$' "$TMPD/k.txt"
check "compare kernels: 8 runs listed" [ "$(grep -Ec '^(6\.18\.44-fc-v1147|2\.6\.24-rc2) +[1-4] +(device|cache|throttled) ' "$TMPD/k.txt")" -eq 8 ]
"$IODASH" compare --csv --metric write_bw "$A" "$B" >"$TMPD/k.csv"
check "compare kernels --csv: verdict and inflation columns" grep -q '^write_bw,KiB/s,d,134217728,2.6.24-rc2,"vm.dirty_background_bytes=64M,vm.dirty_bytes=128M",2,2,.*,throttled/device,2.01,2.6.24-rc2,' "$TMPD/k.csv"
# the setting is a dimension of its own (issue 27 point 3): one block per
# setting, a column per kernel, the change within the block
check "compare kernels: a block per byte setting" [ "$(grep -c '^setting vm.dirty_background_bytes=\(64M,vm.dirty_bytes=128M\|256M,vm.dirty_bytes=512M\):$' "$TMPD/k.txt")" -eq 2 ]
check "compare kernels: change within each setting" grep -q 'change against 6.18.44-fc-v1147 within each setting' "$TMPD/k.txt"
check "compare kernels --csv: the setting column" grep -q '^metric,unit,x_name,x,label,setting,runs,' "$TMPD/k.csv"
IOZ="$FIX/lkml/iozone-dirty-ratio-2.6.24.txt"
"$IODASH" compare --text --metric write "$IOZ" >"$TMPD/ioz.txt" 2>&1
check "compare iozone mail: three setting blocks in order" [ "$(grep '^setting ' "$TMPD/ioz.txt" | tr '\n' ' ')" = "setting (5,10): setting (20,40): setting (60,80): " ]
check "compare iozone mail: each block has both kernels side by side" [ "$(grep -Ec '^ +2\.6\.23\.1-42\.fc8 \([0-9] runs\) +2\.6\.24-rc2 \([0-9] runs\)$' "$TMPD/ioz.txt")" -eq 3 ]
check "compare iozone mail: (20,40): 2.6.24 against 2.6.23 at (20,40), -69.61%" grep -A3 '^setting (20,40):' "$TMPD/ioz.txt" | grep -Eq '^ +4 +220565\.00 .* 67027\.50 .* -69\.61%\*$'
check "compare iozone mail: no label with the setting folded in" bash -c "! grep -Eq '^ +2\.6\.23\.1-42\.fc8 \(5,10\)' '$TMPD/ioz.txt'"
# pooling (point 4): sources given one label pool as runs of it; default
# labels stay apart
"$IODASH" compare --text --metric write_bw --label "$A=k" --label "$(basename "$B")=k" "$A" "$B" >"$TMPD/pool.txt" 2>"$TMPD/pool.err"
check "compare --label SRC=NAME: two recordings pool into one label of 4 runs" grep -Eq '^ +k \(4 runs\)$' "$TMPD/pool.txt"
check "compare --label: says which sources it pooled" grep -q '^  k: kernel .*, from .*knobs-sweep-6.18.rec, .*knobs-sweep-as-2.6.24.rec.* (2 sources pooled)' "$TMPD/pool.txt"
FIO1="$FIX/bench-output/fio/fio-randread-direct.json"
"$IODASH" compare --csv --label "fio-randread-direct.json=6.1 patched" "$FIO1" >"$TMPD/pool.csv" 2>&1
check "compare --label names a text source" grep -q '^read_bw,.*,6.1 patched,,1,1,' "$TMPD/pool.csv"
"$IODASH" compare --text --label nosuch=x "$A" >/dev/null 2>"$TMPD/pool.err"; rc=$?
check "compare --label of no source: usage error" [ "$rc" -ne 0 ] && grep -q 'no such source' "$TMPD/pool.err"
# each metric's direction (point 6): a latency that rose is worse
"$IODASH" compare --csv --metric write_clat_p99_9 "$A" "$B" >"$TMPD/dir.csv" 2>/dev/null
check "compare --csv: a latency percentile is better lower" grep -q '^write_clat_p99_9,us,d,134217728,2.6.24-rc2,.*,lower$' "$TMPD/dir.csv"
check "compare --text: the latency's header says lower is better" bash -c "'$IODASH' compare --text --metric write_clat_p99_9 '$A' '$B' | grep -q '^write_clat_p99_9 (us) by d: .*; lower is better$'"
check "compare --text: bandwidth is not said lower-better" bash -c "! grep -q 'lower is better' '$TMPD/k.txt'"
# a run's own figures are results (point 5)
check "compare kernels: the runs' own figures as metrics" bash -c "'$IODASH' compare --text --metric run_dev_Bps '$A' '$B' | grep -q '^run_dev_Bps (B/s) by d'"
"$IODASH" compare --text --metric write_bw "$A" "$A" >"$TMPD/k2.txt" 2>"$TMPD/k2.err"
check "compare the same recording twice: two columns, A and A#2" grep -Eq '^ +6\.18\.44-fc-v1147 \(2 runs\) +6\.18\.44-fc-v1147#2 \(2 runs\)$' "$TMPD/k2.txt"
check "compare the same recording twice: said" grep -q 'shown apart as "6.18.44-fc-v1147#2"' "$TMPD/k2.err"
if command -v tmux >/dev/null; then
	tm_start 120 40 "'$IODASH' compare --metric write_bw '$A' '$B'"
	if tm_wait 'T throttled C cache D device' 5; then
		pass "compare screen: the marks' legend"
		check "compare screen: a mark on the points" bash -c "tmux -S '$TMUX_SOCK' capture-pane -p -t t | sed -n '3,15p' | grep -q '[TCD]'"
		# x as typed (-p d=128M), not 134217728 nor a decimal "134 M"
		tm_screen | grep -Eq '^ +128M +d +' && pass "compare screen: x axis in the unit typed (128M)" ||
			fail "compare screen: x axis 128M" "$(tm_screen | grep -E ' d( |$)' | head -2)"
	else
		fail "compare screen: the marks' legend" "$(tm_screen | head -5)"
	fi
	tm send-keys -t t q
fi
# a FIFO with no writer: refused at once, never a hang
mkfifo "$TMPD/fifo"
timeout 10 "$IODASH" compare --text "$TMPD/fifo" >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 1 ] && grep -q "fifo: a FIFO, not a regular file" "$TMPD/err" \
	&& pass "compare on a FIFO: exit 1 at once: $(cat "$TMPD/err")" || fail "compare on a FIFO" "exit $rc (124: hung)"
