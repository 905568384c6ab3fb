#!/usr/bin/env bash
# compare --text/--csv/--json on the LKML mails (issue 6 acceptance).
. "$(dirname "$0")/lib.sh"
MAIL="$FIX/lkml/dbench-2.4.16-vs-2.4.17pre2.txt"

out=$("$IODASH" compare --text "$MAIL" 2>"$TMPD/err"); rc=$?
row=$(printf '%s\n' "$out" | awk '$1 == "128" { print; exit }')
# 128 procs: 2.4.16 66.74 N=1; 2.4.17-pre2 mean 60.13 N=3, change -9.90%
if [ $rc -eq 0 ] && printf '%s\n' "$row" | grep -Eq '^ +128 +66\.74 +- +- +1 +60\.13 +5\.64 +9\.38% +3 +-9\.90%$'; then
	pass "compare --text: 128 procs 66.74 (N=1) vs 60.13 (N=3) -9.90%"
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
l = [x for x in m["labels"] if x["label"] == "2.4.16"][0]
p = [x for x in l["points"] if x["x"] == 128][0]
assert abs(p["change_pct"] - (66.7354 - 60.1309) / 60.1309 * 100) < 1e-6, p
assert p["p_value"] is None and p["significant"] is False
PY
then pass "compare --json --baseline"; else fail "compare --json --baseline"; fi

# significance: the iozone mail has 3-5 runs per label
"$IODASH" compare --text --metric write "$FIX/lkml/iozone-dirty-ratio-2.6.24.txt" >"$TMPD/io.txt" 2>&1
grep -q '%\*' "$TMPD/io.txt" && pass "compare marks p < 0.05 with *" || fail "compare significance mark" "$(head -5 "$TMPD/io.txt")"

# mixed: a mail and a second file of the same labels are pooled as runs
"$IODASH" compare --text "$MAIL" "$MAIL" | awk '$1 == "128"' | grep -Eq ' 2 .* 6 ' \
	&& pass "compare: two sources of a label are two runs" || fail "compare pooling across sources"

"$IODASH" compare --text --baseline nosuch "$MAIL" >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 2 ] && grep -q '2.4.16' "$TMPD/err" && pass "compare --baseline unknown: exit 2 listing labels" || fail "compare bad baseline" "rc=$rc $(cat "$TMPD/err")"
"$IODASH" compare --text /nonexistent.txt >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 1 ] && grep -q '/nonexistent.txt' "$TMPD/err" && pass "compare missing file: exit 1 naming it" || fail "compare missing file" "rc=$rc"

# a FIFO with no writer: refused at once, never a hang
mkfifo "$TMPD/fifo"
timeout 10 "$IODASH" compare --text "$TMPD/fifo" >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 1 ] && grep -q "fifo: a FIFO, not a regular file" "$TMPD/err" \
	&& pass "compare on a FIFO: exit 1 at once: $(cat "$TMPD/err")" || fail "compare on a FIFO" "exit $rc (124: hung)"
