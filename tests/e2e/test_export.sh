#!/usr/bin/env bash
# Output for scripts (issue 17 §3): export --csv gives one tidy table
# (--table samples|events|results, default samples) that python3's csv
# module reads into rows of one length; --ndjson one JSON object a line;
# --json stays one document; --batch-events FILE takes the !, = and >
# lines off --batch's stdout.  On the real knob-sweep recording.
. "$(dirname "$0")/lib.sh"
REC="$FIX/recordings/knobs-sweep-6.18.rec"

# what the recording holds, counted with awk (its records' first column)
declare -A want=([samples]=$(grep -c $'^S\t' "$REC") [events]=$(grep -c $'^E\t' "$REC") [results]=$(grep -c $'^R\t' "$REC"))

for t in samples events results; do
	"$IODASH" export --csv --table "$t" "$REC" >"$TMPD/$t.csv" 2>"$TMPD/err"; rc=$?
	if [ $rc -eq 0 ] && python3 - "$TMPD/$t.csv" "${want[$t]}" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))
assert rows and rows[0][0] == "t", rows[:1]
lens = {len(r) for r in rows}
assert len(lens) == 1, ("rows of lengths", sorted(lens))
assert len(rows) - 1 == int(sys.argv[2]), (len(rows) - 1, sys.argv[2])
PY
	then
		pass "export --csv --table $t: header + ${want[$t]} rows of one length"
	else
		fail "export --csv --table $t" "rc=$rc $(cat "$TMPD/err")"
	fi
	"$IODASH" export --ndjson --table "$t" "$REC" >"$TMPD/$t.ndjson" 2>"$TMPD/err"; rc=$?
	if [ $rc -eq 0 ] && python3 - "$TMPD/$t.ndjson" "${want[$t]}" "$t" <<'PY'
import json, sys
n = 0
for line in open(sys.argv[1], encoding="utf-8"):
    o = json.loads(line)
    assert isinstance(o, dict) and "t" in o, o
    n += 1
assert n == int(sys.argv[2]), (n, sys.argv[2])
if sys.argv[3] == "results":
    o = [json.loads(l) for l in open(sys.argv[1])]
    final = [r for r in o if r["final"] and not r["progress"] and r["metric"] == "write_bw"]
    assert [r["x"] for r in final] == [134217728, 536870912, 134217728, 536870912], final
PY
	then
		pass "export --ndjson --table $t: ${want[$t]} lines, each json.loads to an object"
	else
		fail "export --ndjson --table $t" "rc=$rc $(cat "$TMPD/err")"
	fi
done

# the default: CSV, the samples table
"$IODASH" export "$REC" | cmp -s - "$TMPD/samples.csv" && pass "export without a format: CSV samples" ||
	fail "export default"
# the JSON document stays: every table in one object
"$IODASH" export --json "$REC" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert (len(d["samples"]), len(d["events"]), len(d["results"])) == tuple(map(int, sys.argv[1:])), d.keys()
' "${want[samples]}" "${want[events]}" "${want[results]}" && pass "export --json: one document" ||
	fail "export --json"
for bad in "export --table disks $REC" "export --json --table events $REC" "compare --ndjson $REC" \
	   "compare --table samples $REC"; do
	# shellcheck disable=SC2086
	"$IODASH" $bad >/dev/null 2>"$TMPD/err"; rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] && pass "usage error: $bad" ||
		fail "usage error: $bad" "rc=$rc $(cat "$TMPD/err")"
done

# --batch-events: stdout keeps the # header and the samples only, all
# with the header's number of fields; FILE has the !, = and > lines;
# together they are what plain --batch prints
"$IODASH" view --batch "$REC" >"$TMPD/plain" 2>"$TMPD/err"
"$IODASH" view --batch --batch-events "$TMPD/ev" "$REC" >"$TMPD/data" 2>>"$TMPD/err"; rc=$?
nf=$(head -1 "$TMPD/data" | awk '{ print NF - 1 }')
odd=$(awk -v nf="$nf" 'NR > 1 && (NF != nf || $1 !~ /^[0-9.]+$/)' "$TMPD/data" | head -3)
if [ $rc -eq 0 ] && [ -z "$odd" ] && head -1 "$TMPD/data" | grep -q '^# time' &&
   [ "$(grep -c '^[!=>]' "$TMPD/ev")" -eq "$(wc -l <"$TMPD/ev")" ] &&
   [ "$(grep -c '^!' "$TMPD/ev")" -ge 1 ] && [ "$(grep -c '^>' "$TMPD/ev")" -ge 1 ] &&
   [ "$(cat "$TMPD/data" "$TMPD/ev" | sort | md5sum)" = "$(sort "$TMPD/plain" | md5sum)" ]; then
	pass "--batch-events: stdout $(wc -l <"$TMPD/data") lines of $nf fields, the file $(wc -l <"$TMPD/ev") !/=/> lines, nothing lost"
else
	fail "--batch-events" "rc=$rc odd='$odd' $(cat "$TMPD/err")"
fi
# order within the events file is kept
[ "$(grep '^[!=>]' "$TMPD/plain")" = "$(cat "$TMPD/ev")" ] && pass "--batch-events: the lines in their order" ||
	fail "--batch-events order"
"$IODASH" view --batch-events "$TMPD/ev2" "$REC" >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'add --batch' "$TMPD/err" && [ ! -e "$TMPD/ev2" ] &&
	pass "--batch-events without --batch: usage error" || fail "--batch-events without --batch" "rc=$rc $(cat "$TMPD/err")"
"$IODASH" --batch --count 2 -i 0.05 --no-publish --batch-events "$TMPD/no/dir/ev" >"$TMPD/out" 2>"$TMPD/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'batch-events.*no/dir/ev' "$TMPD/err" && [ ! -s "$TMPD/out" ] &&
	pass "--batch-events into a missing directory: exit 1 before sampling" ||
	fail "--batch-events missing dir" "rc=$rc $(cat "$TMPD/err")"
# live, with a benchmark: its output line and the run's events go to the file
"$IODASH" --batch -i 0.05 --no-publish --batch-events "$TMPD/run.ev" run --no-record -- \
	sh -c 'echo hello-from-bench; sleep 0.3' >"$TMPD/run.out" 2>"$TMPD/err"; rc=$?
if [ $rc -eq 0 ] && grep -qx '> hello-from-bench' "$TMPD/run.ev" && grep -q '^= .* run_end: ' "$TMPD/run.ev" &&
   ! grep -q '^[!=>]' "$TMPD/run.out" && [ "$(grep -c '^[0-9]' "$TMPD/run.out")" -ge 1 ]; then
	pass "run --batch --batch-events: output and events in the file, samples on stdout"
else
	fail "run --batch --batch-events" "rc=$rc $(cat "$TMPD/err")"
fi

# one numbering: a result's run in the export is the `pass N` that --batch
# printed for it (1-based, as `run i/N`), point for point
"$IODASH" view --batch "$REC" >"$TMPD/vb" 2>/dev/null
if python3 - "$TMPD/vb" "$TMPD/results.csv" "$TMPD/results.ndjson" <<'PY'
import csv, json, re, sys
batch = sorted(re.findall(r'^= [0-9.]+ result: \S+(?: \[[^]]*\])? pass (\d+) \S+=\S+ (\S+)=', open(sys.argv[1]).read(), re.M))
rows = [r for r in csv.DictReader(open(sys.argv[2])) if r["final"] == "1"]
nd = [o for o in map(json.loads, open(sys.argv[3])) if o["final"]]
have = sorted((r["run"], r["metric"]) for r in rows)
assert len(batch) >= 8 and have == batch, (batch[:3], have[:3])
assert sorted((str(o["run"]), o["metric"]) for o in nd) == batch
assert min(int(r["run"]) for r in csv.DictReader(open(sys.argv[2]))) == 1
PY
then
	pass "export results: run is --batch's pass N (1-based) in CSV and NDJSON"
else
	fail "export results: run numbering"
fi

# one form of a result's flags: the same four named booleans in CSV and
# NDJSON (no bit mask in one and columns in the other)
if python3 - "$TMPD/results.csv" "$TMPD/results.ndjson" <<'PY'
import csv, json, sys
hdr = next(csv.reader(open(sys.argv[1])))
keys = [list(json.loads(l)) for l in open(sys.argv[2])]
flags = ["final", "progress", "incomplete", "too_fast"]
assert all(k in hdr for k in flags) and "flags" not in hdr, hdr
assert all(k == hdr for k in keys), (keys[0], hdr)
rows = list(csv.DictReader(open(sys.argv[1])))
for r, l in zip(rows, open(sys.argv[2])):
    o = json.loads(l)
    assert [r[f] == "1" for f in flags] == [o[f] for f in flags], (r, o)
PY
then
	pass "export results: final/progress/incomplete/too_fast, the same columns in CSV and NDJSON"
else
	fail "export results: one form of the flags"
fi

# events: kind and each field of the text as a column of its own (CSV),
# the same keys in NDJSON; marks and notes stay text
if python3 - "$TMPD/events.csv" "$TMPD/events.ndjson" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
nd = [json.loads(l) for l in open(sys.argv[2])]
assert len(rows) == len(nd)
summ = [r for r in rows if r["kind"] == "run_summary"]
assert len(summ) == 4 and [r["run"] for r in summ] == ["1", "2", "3", "4"], summ
assert {r["verdict"] for r in summ} <= {"device", "cache", "throttled", "n/a"}
s0 = summ[0]
assert float(s0["peak_kB"]) > 0 and s0["peak_kB"] in s0["text"] and s0["thr_src"] == "tracepoint", s0
ends = [r for r in rows if r["kind"] == "run_end"]
assert [r["status"] for r in ends] == ["ok"] * 4 and [r["exit"] for r in ends] == ["0"] * 4, ends
knob = [r for r in rows if r["kind"] == "knob" and r["knob"]]
assert knob and all(r["text"].startswith("%s %s -> %s " % (r["knob"], r["old"], r["new"])) for r in knob)
hs = [r for r in rows if r["kind"] == "hit_start"]
assert hs and all(int(r["dirty+writeback_kB"]) > int(r["freerun_kB"]) for r in hs), hs[:1]
he = [r for r in rows if r["kind"] == "hit_end"]
assert he and all(float(r["duration_s"]) > 0 for r in he)
for r, o in zip(rows, nd):
    for k, v in o.items():
        assert k in r and (str(v) == r[k] or (isinstance(v, float) and abs(v - float(r[k])) < 1e-9 * max(1, abs(v)))), (k, v, r[k])
    assert all(r[k] == "" for k in r if k not in o), r
    if r["kind"] in ("note", "mark"):
        assert set(o) == {"t", "kind", "text"}, o
PY
then
	pass "export events: kind and the text's fields as columns (run, verdict, peak_kB, knob/old/new ...), NDJSON alike"
else
	fail "export events: fields as columns"
fi

# meminfo is read once a second: at -i 0.5 a sample it was not read for
# has its meminfo_* cells empty (NDJSON: no key), never the last value again
"$IODASH" --batch -i 0.5 --count 9 --no-trace --no-publish -o "$TMPD/mi.rec" >/dev/null 2>"$TMPD/err" &&
	"$IODASH" export --csv "$TMPD/mi.rec" >"$TMPD/mi.csv" && "$IODASH" export --ndjson "$TMPD/mi.rec" >"$TMPD/mi.ndjson"
if python3 - "$TMPD/mi.csv" "$TMPD/mi.ndjson" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
nd = [json.loads(l) for l in open(sys.argv[2])]
read = [r for r in rows if r["meminfo_dirty_kb"] != ""]
assert len(rows) == 9 and len(nd) == 9, len(rows)
assert all((r["meminfo_writeback_kb"] != "") == (r in read) for r in rows)
# about one a second: a sample between reads is less than a second after
# the last read (a dirty threshold that moves by 1 % is read at once too)
assert len(read) >= 3 and len(rows) - len(read) >= 2, [r["meminfo_dirty_kb"] for r in rows]
last = None
for r in rows:
    if r in read:
        last = float(r["t"])
    else:
        assert last is not None and float(r["t"]) - last < 1.0, (r["t"], last)
assert all(("meminfo_dirty_kb" in o) == (r in read) for r, o in zip(rows, nd))
assert all(r["dirty_kb"] != "" for r in rows)
PY
then
	pass "export at -i 0.5: meminfo_* only where meminfo was read (about once a second), empty / no key between"
else
	fail "export: meminfo not read at a sample" "$(cat "$TMPD/err")"
fi
exit 0
