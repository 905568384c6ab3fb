#!/usr/bin/env bash
# iodash attach PID --log FILE: follows a benchmark started elsewhere and
# its log; when the PID exits, the run ends and says so.
. "$(dirname "$0")/lib.sh"

command -v dbench >/dev/null || { skip "attach" "dbench not installed (apt-get install dbench)"; exit 0; }
W="$TMPD/work"; mkdir -p "$W"
log="$TMPD/dbench.log"
dbench -D "$W" -t 4 2 >"$log" 2>&1 &
pid=$!
# attach once it is dbench (before its exec the child is still bash)
for i in $(seq 50); do [ "$(cat /proc/$pid/comm 2>/dev/null)" = dbench ] && break; sleep 0.1; done
out="$TMPD/attach.out"
timeout 60 "$IODASH" --batch attach --log "$log" "$pid" >"$out" 2>"$TMPD/attach.err"; rc=$?; [ "$rc" -ne 0 ] && cat "$TMPD/attach.err" "$out"
wait $pid
check "attach: exit 0 when the pid exits" [ "$rc" -eq 0 ]
check "attach: start line" grep -Eq "run_start: attach \[dbench\] pid $pid \(dbench\) log " "$out"
check "attach: the log's lines" grep -Eq '^> Throughput [0-9.]+ MB/sec  2 clients' "$out"
check "attach: the log's first line too" grep -q '^> dbench version 4.00' "$out"
check "attach: says the pid exited" grep -q "run_end: attach: pid $pid (dbench) exited" "$out"
check "attach: follows the tree (ntasks in samples)" grep -q 'throttled_tasks' "$out"

"$IODASH" --batch attach 4194303 >/dev/null 2>"$TMPD/nx.err"; rc=$?
check "attach to no process: exit 1" [ "$rc" -eq 1 ]
check "attach to no process: message" grep -q 'attach: no process 4194303' "$TMPD/nx.err"

# the dashboard's end line: the exit status of a process that is not our
# child cannot be known, and says so (once: "finished, exit status 0")
if command -v tmux >/dev/null; then
	sleep 3 &
	sp=$!
	tm_start 120 40 "$IODASH -i 0.2 attach $sp"
	if tm_wait "exit status unknown|exit status [0-9]" 15; then
		if tm_wait "pid $sp exited, exit status unknown \(not a child of iodash\)" 5; then
			pass "attach dashboard: the end line says the status is unknown"
		else
			fail "attach dashboard: the end line says the status is unknown" "$(tm_screen | grep -E 'exit|status' | head -3)"
		fi
		no_status_made_up() { ! tm_screen | grep -q 'finished, exit status 0'; }
		check "attach dashboard: no made-up exit status" no_status_made_up
	else
		fail "attach dashboard: an end line when the pid exits" "$(tm_screen | head -3)"
	fi
	wait "$sp"
	tm kill-session -t t
	# at 80 columns the end line and the figures right of it do not both
	# fit: the figures yield, the status stays whole
	sleep 2 &
	sp=$!
	tm_start 80 24 "$IODASH -i 0.2 attach $sp"
	if tm_wait "pid $sp exited" 15 && sleep 0.5 &&
	   tm_screen | sed -n 2p | grep -q "pid $sp exited, exit status unknown (not a child of iodash) - q to quit"; then
		pass "attach dashboard at 80 columns: the end line whole, the figures yield"
	else
		fail "attach dashboard at 80 columns: the end line whole, the figures yield" "$(tm_screen | sed -n 2p)"
	fi
	wait "$sp"
else
	skip "attach dashboard: end line" "tmux not installed"
fi
