#!/usr/bin/env bash
# sweep --until-decided with a fake benchmark whose figures come from fixed
# lists (a dbench Throughput line, read by the dbench parser), so the runs
# each point needs are known: a tight point stops at --min-repeat, a wider
# one later, one with an outlier stays open at --max-repeat; the runs are
# interleaved, a failed run is retried once, the recording holds the
# decision events, compare and report show them; --baseline REC compares.
. "$(dirname "$0")/lib.sh"

B="$TMPD/bench.sh"
cat >"$B" <<'EOF'
#!/bin/sh
# bench.sh CLIENTS DIR: the next figure of CLIENTS' list (a counter a count)
c=$1; dir=$2
n=$(cat "$dir/n$c" 2>/dev/null || echo 0); echo $((n + 1)) >"$dir/n$c"
case ${MODE:-a}:$c in
a:1) set -- 100.0 100.5 99.5 100.2 99.8 100.1 ;;
a:4) set -- 200 194 207 203 197 204 199 202 201 198 ;;
a:16) set -- 300 330 270 310 290 420 305 295 315 285 ;;
fail:4) [ "$n" -eq 0 ] && exit 3; set -- 0 200 201 199 ;;
fail:*) set -- 100.0 101.0 99.0 ;;
base:1) set -- 100.0 101.0 99.0 100.5 99.5 ;;
early:*) set -- 130 100 101 99.5 100.5 100.2 99.8 ;;
drift:*) set -- 100 98 96 94 92 90 88 86 ;;
base:4) set -- 200 201 199 200.5 199.5 ;;
b:1) set -- 110.0 111.1 108.9 110.55 109.45 110.2 ;;
b:4) set -- 200.2 201.1 199.3 200.6 199.7 200.1 200.4 ;;
esac
shift $((n % $#))
echo "Throughput $1 MB/sec  $c clients  $c procs  max_latency=1.0 ms"
EOF
chmod +x "$B"

rec="$TMPD/a.rec"; out="$TMPD/a.out"
timeout 120 "$IODASH" --batch --no-trace -o "$rec" sweep --until-decided --ci 3 --max-repeat 10 --parser dbench \
	-p clients=1,4,16 -- "$B" '{clients}' "$TMPD" >"$out" 2>"$TMPD/a.err"; rc=$?
check "until-decided: exit 0" [ "$rc" -eq 0 ]
[ "$rc" -ne 0 ] && cat "$TMPD/a.err"
check "until-decided: clients=1 precise after --min-repeat 3 runs" \
	grep -q 'decision: clients=1: precise: 100 +- 2.0 % (3 runs); state=precise x=1 runs=3 ' "$out"
check "until-decided: clients=4 precise after 7 runs" \
	grep -q 'decision: clients=4: precise: 200.571 +- 2.6 % (7 runs); state=precise' "$out"
check "until-decided: clients=16 open at --max-repeat 10" grep -q 'decision: clients=16: open: .* (10 runs); state=open' "$out"
check "until-decided: 20 runs, no more" [ "$(grep -c 'run_end: run [0-9]*/[0-9]* ok' "$out")" -eq 20 ]
check "until-decided: the last run is run 20/20" grep -q 'run_end: run 20/20 ok' "$out"
check "until-decided: a decision after every run" [ "$(grep -c '= [0-9.]* decision: ' "$out")" -eq 20 ]
check "until-decided: the outlier is kept and said" \
	grep -q "note: clients=16: run 6's throughput 420 is an outlier (more than 3.5 robust sigmas from the median): kept" "$out"
check "until-decided: the outlier counts in the decision" grep -q 'state=open x=16 runs=10 values=10 failed=0 outliers=1' "$out"
order=$(sed -n 's/.*note: until-decided: run order //p' "$out")
check "until-decided: interleaved run order (one pass, then the open points in turn)" \
	[ "$order" = "1 4 16 1 4 16 1 4 16 4 16 4 16 4 16 4 16 16 16 16" ]
check "until-decided: the closing count" \
	grep -q 'note: until-decided: 3 points in 20 runs: 2 precise, 0 different, 0 equal, 1 open, 0 failed' "$out"
check "until-decided: the header names the options" \
	grep -q -- 'sweep -p clients=1,4,16 --until-decided --min-repeat 3 --max-repeat 10 --ci 3 --min-change 5' \
	<("$IODASH" export --json "$rec")

# the recording: decision events, read back by export
"$IODASH" export --csv --table events "$rec" >"$TMPD/ev.csv" 2>&1
check "recording: 20 decision events" [ "$(grep -c ',decision,' "$TMPD/ev.csv")" -eq 20 ]
check "recording: the last of clients=4 says precise" grep -q ',decision,.*clients=4: precise: 200.571' "$TMPD/ev.csv"

# compare and report show each point's state
"$IODASH" compare --text "$rec" >"$TMPD/cmp.txt" 2>&1
check "compare: a decisions table" grep -q '^decisions (sweep --until-decided)' "$TMPD/cmp.txt"
check "compare: clients=1 precise in 3 runs" grep -Eq '^\S+ +clients=1 +precise +3 +0 +0  precise: 100 \+- 2.0 % \(3 runs\)$' "$TMPD/cmp.txt"
check "compare: clients=16 open in 10 runs with an outlier" grep -Eq '^\S+ +clients=16 +open +10 +0 +1  open: ' "$TMPD/cmp.txt"
"$IODASH" compare --json "$rec" >"$TMPD/cmp.json" 2>&1
check "compare --json: the decisions" python3 -c "
import json, sys
d = json.load(open('$TMPD/cmp.json'))['decisions']
s = {x['x']: (x['state'], x['runs']) for x in d}
sys.exit(s != {1: ('precise', 3), 4: ('precise', 7), 16: ('open', 10)})"
"$IODASH" report -o "$TMPD/r.html" "$rec" 2>/dev/null
check "report: a Decisions table" grep -q '<h2 id="decisions">Decisions</h2>' "$TMPD/r.html"
check "report: clients=4 precise with 7 runs" \
	grep -q '<td class="l">clients=4</td><td class="l">precise</td><td>7</td>' "$TMPD/r.html"

# an earlier run that the later ones show to be an outlier is named then
rm -f "$TMPD"/n*
out="$TMPD/e.out"
MODE=early timeout 60 "$IODASH" --batch --no-trace --no-record sweep --until-decided --max-repeat 6 --parser dbench \
	-p clients=1 -- "$B" '{clients}' "$TMPD" >"$out" 2>"$TMPD/e.err"
check "outlier: the first run named when the fourth shows it" \
	grep -q "note: clients=1: run 1's throughput 130 is an outlier .*: kept" "$out"
check "outlier: named once" [ "$(grep -c "run 1's throughput 130 is an outlier" "$out")" -eq 1 ]
check "outlier: counted, kept in the mean" grep -q 'state=open x=1 runs=6 values=6 failed=0 outliers=1 mean=105.2' "$out"

# a machine that slows down run after run: a drift note when the point ends
rm -f "$TMPD"/n*
out="$TMPD/d.out"
MODE=drift timeout 60 "$IODASH" --batch --no-trace --no-record sweep --until-decided --ci 5 --max-repeat 8 --parser dbench \
	-p clients=1 -- "$B" '{clients}' "$TMPD" >"$out" 2>"$TMPD/d.err"
check "drift: said when the point ends" \
	grep -q 'note: clients=1: drift? the first run (100) and the last (86) differ by more than' "$out"
check "drift: said once" [ "$(grep -c 'drift?' "$out")" -eq 1 ]

# a failed run is retried once, then the point goes on
rm -f "$TMPD"/n*
out="$TMPD/f.out"
MODE=fail timeout 60 "$IODASH" --batch --no-trace --no-record sweep --until-decided --ci 3 --max-repeat 6 --parser dbench \
	-p clients=1,4 -- "$B" '{clients}' "$TMPD" >"$out" 2>"$TMPD/f.err"; rc=$?
check "failed run: exit 1 (a run failed)" [ "$rc" -eq 1 ]
check "failed run: retried once" grep -q 'note: clients=4: run failed (throughput): retried once' "$out"
check "failed run: the retry comes next" \
	[ "$(grep -A3 'retried once' "$out" | grep -c 'run_start: run 3/.*bench.sh 4 ')" -eq 1 ]
check "failed run: counted in the decision" grep -q 'decision: clients=4: precise: .*; state=precise x=4 runs=4 values=3 failed=1' "$out"

# --baseline REC: the change against another recording, shown or ruled out
rm -f "$TMPD"/n*
base="$TMPD/base.rec"
MODE=base timeout 60 "$IODASH" --batch --no-trace -o "$base" sweep --until-decided --min-repeat 5 --max-repeat 5 --parser dbench \
	-p clients=1,4 -- "$B" '{clients}' "$TMPD" >/dev/null 2>&1
rm -f "$TMPD"/n*
out="$TMPD/b.out"
MODE=b timeout 60 "$IODASH" --batch --no-trace --no-record sweep --until-decided --baseline "$base" --max-repeat 8 \
	--parser dbench -p clients=1,4 -- "$B" '{clients}' "$TMPD" >"$out" 2>"$TMPD/b.err"; rc=$?
check "baseline: exit 0" [ "$rc" -eq 0 ]
check "baseline: clients=1 different, +10 %" grep -q 'decision: clients=1: decided: +10.0 % +- [0-9.]* (3 runs); state=different' "$out"
check "baseline: clients=4 equal within 5 %" grep -q 'decision: clients=4: equal within +-5 % (.*); state=equal' "$out"

# --budget: no run is started that the time left cannot hold; the points
# left are said, and the sweep ends well (nothing failed)
rm -f "$TMPD"/n*
out="$TMPD/g.out"
timeout 60 "$IODASH" --batch --no-trace --no-record sweep --until-decided --budget 2 --parser dbench \
	-p clients=1,4,16 -- "$B" '{clients}' "$TMPD" >"$out" 2>"$TMPD/g.err"; rc=$?
check "--budget 2: exit 0" [ "$rc" -eq 0 ]
check "--budget 2: says it is spent" grep -Eq 'note: --budget 2 s: [0-9.]+ s spent, a run takes [0-9.]+ s: 3 points left undecided' "$out"
nr=$(grep -c 'run_end: ' "$out")
check "--budget 2: fewer runs than the minimum of 9 ($nr)" [ "$nr" -ge 1 ] && [ "$nr" -lt 9 ]
check "--budget 2: the closing count says so" grep -q 'in [0-9]* runs: .* (budget spent)' "$out"

# usage errors
"$IODASH" --batch --no-record sweep --ci 3 -p c=1 -- echo '{c}' >/dev/null 2>"$TMPD/u.err"; rc=$?
check "--ci without --until-decided: exit 2" [ "$rc" -eq 2 ]
check "--ci without --until-decided: says so" grep -q 'go with --until-decided' "$TMPD/u.err"
"$IODASH" --batch --no-record sweep --until-decided --repeat 3 -p c=1 -- echo '{c}' >/dev/null 2>"$TMPD/u.err"; rc=$?
check "--repeat with --until-decided: exit 2" [ "$rc" -eq 2 ]
"$IODASH" --batch --no-record sweep --until-decided --budget 1x -p c=1 -- echo '{c}' >/dev/null 2>"$TMPD/u.err"; rc=$?
check "--budget 1x: exit 2" [ "$rc" -eq 2 ]
"$IODASH" --batch --no-record sweep --until-decided --baseline "$TMPD/none.rec" -p c=1 -- echo '{c}' >/dev/null 2>"$TMPD/u.err"; rc=$?
check "--baseline missing file: exit 1, named" bash -c "[ $rc -eq 1 ] && grep -q 'none.rec' '$TMPD/u.err'"

# --baseline NAME=VALUE: the comparison within the sweep (two settings):
# each point against the one with r=10 and the same clients, a run of the
# side with fewer runs next
B2="$TMPD/bench2.sh"
cat >"$B2" <<'EOF2'
#!/bin/sh
# bench2.sh R CLIENTS DIR
r=$1; c=$2; dir=$3
n=$(cat "$dir/m$r.$c" 2>/dev/null || echo 0); echo $((n + 1)) >"$dir/m$r.$c"
case $r:$c in
10:1) set -- 100 102 98 101 99 100.5 99.5 ;;
40:1) set -- 110 112 108 111 109 110.5 ;;
10:4) set -- 200 204 196 202 198 201 199 ;;
40:4) set -- 201 205 197 203 199 200 ;;
esac
shift $((n % $#))
echo "Throughput $1 MB/sec  $c clients  $c procs  max_latency=1.0 ms"
EOF2
chmod +x "$B2"
out="$TMPD/s.out"
timeout 60 "$IODASH" --batch --no-trace -o "$TMPD/s.rec" sweep --until-decided --baseline r=10 --max-repeat 10 --parser dbench \
	-p r=10,40 -p clients=1,4 -- "$B2" '{r}' '{clients}' "$TMPD" >"$out" 2>"$TMPD/s.err"; rc=$?
check "in-sweep baseline: exit 0" [ "$rc" -eq 0 ]
check "in-sweep baseline: r=40 clients=1 different, +10 %" \
	grep -q 'decision: r=40 clients=1: decided: +10.0 % +- [0-9.]* (3 runs); state=different' "$out"
check "in-sweep baseline: r=40 clients=4 equal within 5 %" \
	grep -q 'decision: r=40 clients=4: equal within +-5 % (+0.5 % +- 4.4, 4 runs); state=equal' "$out"
check "in-sweep baseline: the closing count" \
	grep -q 'until-decided: 2 points (and 2 baseline points) in 14 runs: 0 precise, 1 different, 1 equal, 0 open' "$out"
check "in-sweep baseline: the run order by point" \
	grep -q 'run order (points numbered from 1, the last -p fastest) 1 2 3 4 1 2 3 4 1 2 3 4 2 4$' "$out"
"$IODASH" compare --text "$TMPD/s.rec" >"$TMPD/s.txt" 2>&1
check "in-sweep baseline: compare lists r=40's decisions" \
	grep -Eq '^\S+ r=40 +clients=1 +different +3 +0 +0  decided: \+10.0 %' "$TMPD/s.txt"
"$IODASH" --batch --no-record sweep --until-decided --baseline r=20 -p r=10,40 -- echo '{r}' >/dev/null 2>"$TMPD/u.err"; rc=$?
check "--baseline r=20 not a value: exit 2, said" bash -c "[ $rc -eq 2 ] && grep -q 'not a value of a -p' '$TMPD/u.err'"
