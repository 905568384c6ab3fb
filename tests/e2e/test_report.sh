#!/usr/bin/env bash
# iodash report and compare --svg (issue 17 §1): the report of a two-label
# knob sweep holds every label, swept value and metric name as text, is
# self-contained, and a real browser (headless Chromium) draws its charts
# with the curves of both labels inside the plot areas.
. "$(dirname "$0")/lib.sh"
REC1="$FIX/recordings/knobs-sweep-6.18.rec"
REC2="$FIX/recordings/knobs-sweep-as-2.6.24.rec"
OUT="$TMPD/report.html"

"$IODASH" report -o "$OUT" "$REC1" "$REC2" 2>"$TMPD/err"; rc=$?
if [ $rc -eq 0 ] && [ -s "$OUT" ]; then pass "report: writes $OUT"; else fail "report" "rc=$rc $(cat "$TMPD/err")"; fi

# what must be there, read from the recordings themselves: the kernels
# (the labels), the x of the final results (the swept d), the metrics
labels=$(awk -F'\t' '$1 == "H" && $2 == "kernel" { print $3 }' "$REC1" "$REC2")
xs=$(awk -F'\t' '$1 == "R" && $10 == 1 { print $6 }' "$REC1" "$REC2" | sort -u)
metrics=$(awk -F'\t' '$1 == "R" && $10 == 1 { print $7 }' "$REC1" "$REC2" | sort -u)
[ "$(echo "$labels" | wc -l)" -eq 2 ] && [ "$(echo "$xs" | wc -l)" -eq 2 ] && [ "$(echo "$metrics" | wc -l)" -ge 8 ] ||
	fail "report: fixture facts" "labels=$labels xs=$xs metrics=$metrics"
# the page's text as a reader (or a search) sees it: tags out, entities decoded
python3 - "$OUT" >"$TMPD/text" <<'PY'
import html.parser, sys
class T(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []
    def handle_data(self, d):
        self.out.append(d)
t = T()
t.feed(open(sys.argv[1], encoding="utf-8").read())
print("\n".join(t.out))
PY
missing=
for w in $labels $xs $metrics; do
	grep -qF -- "$w" "$TMPD/text" || missing="$missing $w"
done
if [ -z "$missing" ]; then
	pass "report: every label ($(echo $labels)), swept value ($(echo $xs)) and metric ($(echo "$metrics" | wc -l)) in the text"
else
	fail "report: missing from the text:$missing"
fi
# per run: host, kernel, knob values; throttle episodes shaded
grep -q '<td class="l">vm</td>' "$OUT" && grep -q 'vm.dirty_bytes=134217728' "$OUT" &&
	pass "report: host and knob values" || fail "report: host and knob values"
n=$(grep -o 'class="throttled"' "$OUT" | wc -l)
[ "$n" -ge 10 ] && pass "report: throttle episodes shaded ($n)" || fail "report: throttle episodes shaded" "$n"
# self-contained: no script, nothing to fetch
if grep -Eiq '<script|<link|<img|<iframe|@import|url\(|https?://' "$OUT"; then
	fail "report: self-contained" "$(grep -Eio '<script|<link|<img|<iframe|@import|url\(|https?://[^"]*' "$OUT" | head -3)"
else
	pass "report: self-contained (no script, link, image or URL)"
fi

# a failure loses nothing: the report already there stays whole
cp "$OUT" "$TMPD/before.html"
"$IODASH" report -o "$OUT" "$REC1" "$TMPD/no-such.rec" 2>"$TMPD/err"; rc=$?
if [ $rc -eq 1 ] && grep -q 'no-such.rec' "$TMPD/err" && cmp -s "$OUT" "$TMPD/before.html" &&
   [ -z "$(ls "$TMPD" | grep 'report.html.tmp')" ]; then
	pass "report: a missing source is an error (exit 1) and the old report stays"
else
	fail "report: missing source" "rc=$rc $(cat "$TMPD/err")"
fi
"$IODASH" report "$REC1" 2>"$TMPD/err"; rc=$?
[ $rc -eq 2 ] && grep -q -- '-o FILE.html' "$TMPD/err" && pass "report without -o: usage error" ||
	fail "report without -o" "rc=$rc $(cat "$TMPD/err")"
"$IODASH" report -o "$TMPD/nodir/r.html" "$REC1" 2>"$TMPD/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'nodir/r.html' "$TMPD/err" && pass "report -o into a missing directory: exit 1, said" ||
	fail "report -o missing dir" "rc=$rc $(cat "$TMPD/err")"

# compare --svg: one metric's curves, a valid SVG document, no screen
"$IODASH" compare --svg "$TMPD/bw.svg" --metric write_bw "$REC1" "$REC2" >"$TMPD/svg.out" 2>&1; rc=$?
if [ $rc -eq 0 ] && [ ! -s "$TMPD/svg.out" ] && python3 - "$TMPD/bw.svg" $labels <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == ns + "svg", root.tag
lines = root.findall(".//%spolyline" % ns)
assert len(lines) == 4, len(lines)   # 2 kernels x 2 byte settings
text = " ".join(t.text or "" for t in root.iter(ns + "text"))
for label in sys.argv[2:]:
    assert label in text, (label, text)
assert "write_bw" in text
PY
then pass "compare --svg: an SVG of write_bw with both labels' curves"; else fail "compare --svg" "rc=$rc $(cat "$TMPD/svg.out")"; fi
"$IODASH" export --svg x.svg "$REC1" >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 2 ] && pass "--svg outside compare: usage error" || fail "--svg outside compare" "rc=$rc"

# the browser is for the tests: make check's dependencies bring it, make
# run's (what building and running need) do not
run_deps=$(make -s -n -C "$TOP" run 2>/dev/null | grep 'deps.sh')
check_deps=$(make -s -n -C "$TOP" check 2>/dev/null | grep 'deps.sh')
if echo "$run_deps" | grep -q 'libncurses-dev' && ! echo "$run_deps" | grep -Eq 'chromium|clang|valgrind|cmocka' &&
   echo "$check_deps" | grep -q 'chromium'; then
	pass "chromium: installed by make check's dependencies, not make run's"
else
	fail "chromium in the dependency lists" "run: $run_deps / check: $check_deps"
fi

# the browser: Chromium draws the page; the picture is not blank and the
# plot area of every metric chart holds both labels' curves (their colours)
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	skip "report in headless Chromium" "chromium not installed (make check installs it)"
	exit 0
fi
mkdir -p "$TMPD/profile"
# root needs --no-sandbox; nothing may be fetched or synced
timeout 180 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$TMPD/profile" --force-device-scale-factor=1 --hide-scrollbars \
	--window-size=1400,3000 --screenshot="$TMPD/report.png" "file://$OUT" >"$TMPD/chromium.log" 2>&1
if [ ! -s "$TMPD/report.png" ]; then
	fail "report in headless Chromium" "no screenshot: $(tail -3 "$TMPD/chromium.log")"
	exit 0
fi
# the two labels' colours: the first two of report.c's palette
if python3 "$TOP/tests/e2e/png_charts.py" "$TMPD/report.png" 552 0072b2 d55e00 >"$TMPD/png.txt"; then
	pass "report in headless Chromium: $(tr '\n' ';' <"$TMPD/png.txt" | cut -c1-200)"
else
	fail "report in headless Chromium" "$(tr '\n' ';' <"$TMPD/png.txt")"
fi
[ -n "${IODASH_KEEP_PNG:-}" ] && cp "$TMPD/report.png" "$IODASH_KEEP_PNG"
exit 0
