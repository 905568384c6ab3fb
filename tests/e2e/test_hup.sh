#!/usr/bin/env bash
# kill -HUP of iodash during a run (a dropped ssh session): the benchmark
# completes, iodash exits 0 after it, output and recording are complete.
. "$(dirname "$0")/lib.sh"

command -v dbench >/dev/null || { skip "hup" "dbench not installed (apt-get install dbench)"; exit 0; }
W="$TMPD/work"; mkdir -p "$W"
out="$TMPD/hup.out"; rec="$TMPD/hup.rec"
timeout 60 "$IODASH" --batch run -o "$rec" -- dbench -D "$W" -t 4 2 >"$out" 2>"$TMPD/hup.err" &
bg=$!
sleep 2
kill -HUP "$(pgrep -P $bg -f iodash || echo $bg)" 2>/dev/null
t_hup=$(date +%s.%N)
wait $bg; rc=$?
t_end=$(date +%s.%N)
check "hup: iodash exit 0" [ "$rc" -eq 0 ]
check "hup: the benchmark completed (Throughput line)" grep -Eq '^> Throughput [0-9.]+ MB/sec  2 clients' "$out"
check "hup: its exit status" grep -q 'run_end: run ok: exit 0' "$out"
check "hup: iodash stayed until the benchmark ended" awk -v a="$t_hup" -v b="$t_end" 'BEGIN { exit !(b - a > 1.5) }'
if [ -s "$rec" ]; then
	check "hup: the recording has the benchmark's last line" grep -aq 'Throughput' "$rec"
	check "hup: the recording has the run end" grep -aq 'exit 0' "$rec"
else
	fail "hup: recording written" "no $rec"
fi
