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

# The same with the screen up: a dropped ssh session closes the terminal
# (tmux kill-session hangs up the pty).  iodash drops the screen, lets
# dbench finish, completes the recording and exits 0.  The wrapper shell
# ignores the hang-up only for itself, so it can write iodash's status.
if command -v tmux >/dev/null; then
	rec2="$TMPD/hup-ui.rec"; rcf="$TMPD/hup-ui.rc"
	tm_start 120 40 "bash -c 'trap \"\" HUP; ( trap - HUP; exec \"$IODASH\" run -o \"$rec2\" -- dbench -D \"$W\" -t 5 2 ) 2>\"$TMPD/hup-ui.err\"; echo \$? >\"$rcf\"'"
	if tm_wait 'Dirty memory' 5; then
		sleep 1.5
		tm kill-session -t t
		t_hup=$(date +%s.%N)
		for _ in $(seq 1 300); do [ -s "$rcf" ] && break; sleep 0.1; done
		t_end=$(date +%s.%N)
		check "hup ui: iodash exit 0" [ "$(cat "$rcf" 2>/dev/null)" = 0 ]
		check "hup ui: stayed until the benchmark ended" awk -v a="$t_hup" -v b="$t_end" 'BEGIN { exit !(b - a > 1.5) }'
		check "hup ui: the recording has the benchmark's result" grep -aq 'Throughput' "$rec2"
		check "hup ui: the recording has the run end" grep -aq 'exit 0' "$rec2"
	else
		fail "hup ui: dashboard shown" "$(tm_screen | head -3)"
	fi
else
	skip "hup ui" "tmux missing"
fi
