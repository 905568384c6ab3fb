#!/usr/bin/env bash
# iodash run with the real dbench and fio; a missing, an at-once-exiting
# and a killed benchmark: clear message, right exit status, no hang.
. "$(dirname "$0")/lib.sh"

have() { command -v "$1" >/dev/null 2>&1; }
W="$TMPD/work"; mkdir -p "$W"

# --- dbench: its lines, its exit status, iodash exit 0 after it
if have dbench; then
	out="$TMPD/dbench.out"
	timeout 60 "$IODASH" --batch --no-record run -- dbench -D "$W" -t 5 2 >"$out" 2>"$TMPD/dbench.err"; rc=$?
	check "run dbench: exit 0" [ "$rc" -eq 0 ]
	check "run dbench: its progress lines" grep -Eq '^> +2 +[0-9]+ +[0-9.]+ MB/sec +execute +[0-9]+ sec' "$out"
	check "run dbench: its Throughput line" grep -Eq '^> Throughput [0-9.]+ MB/sec  2 clients  2 procs' "$out"
	check "run dbench: run start line" grep -Eq '^= [0-9.]+ run_start: run \[dbench\] dbench -D .* -t 5 2$' "$out"
	check "run dbench: exit status line" grep -Eq '^= [0-9.]+ run_end: run ok: exit 0 after [0-9.]+ s' "$out"
	# the end line comes after dbench's last line
	last_tp=$(grep -n '^> Throughput' "$out" | cut -d: -f1); end=$(grep -n 'run_end' "$out" | cut -d: -f1)
	check "run dbench: end after its output" [ "${end:-0}" -gt "${last_tp:-99999}" ]
	check "run dbench: samples printed with throttled_tasks" grep -q '^# time .* throttled_tasks' "$out"
	[ "$rc" -ne 0 ] && { head -20 "$out"; cat "$TMPD/dbench.err"; }
else
	skip "run dbench" "dbench not installed (apt-get install dbench)"
fi

# --- fio
if have fio; then
	out="$TMPD/fio.out"
	timeout 60 "$IODASH" --batch --no-record run -- fio --name=iodashe2e --directory="$W" --rw=write \
		--bs=1M --size=64M --ioengine=psync --time_based --runtime=2 >"$out" 2>&1; rc=$?
	check "run fio: exit 0" [ "$rc" -eq 0 ]
	check "run fio: its report" grep -Eq '^>.*write: IOPS=[0-9.k]+, BW=' "$out"
	check "run fio: exit status line" grep -Eq 'run_end: run ok: exit 0 after' "$out"
else
	skip "run fio" "fio not installed (apt-get install fio)"
fi

# --- a benchmark that does not exist
start=$(date +%s)
timeout 20 "$IODASH" --batch --no-record run -- iodash-no-such-bench -t 5 >"$TMPD/nx.out" 2>"$TMPD/nx.err"; rc=$?
check "missing benchmark: exit 1" [ "$rc" -eq 1 ]
check "missing benchmark: clear message" grep -q "iodash: cannot run 'iodash-no-such-bench': No such file or directory (is it installed and in PATH?)" "$TMPD/nx.err"
check "missing benchmark: no hang" [ $(( $(date +%s) - start )) -lt 10 ]
# a known tool that is not installed says which package
timeout 20 env PATH=/nonexistent "$IODASH" --batch --no-record run -- dbench 2 >/dev/null 2>"$TMPD/nx2.err"
check "missing dbench: names the package" grep -q "apt-get install dbench" "$TMPD/nx2.err"

# --- exits at once: true and false
timeout 20 "$IODASH" --batch --no-record run -- true >"$TMPD/t.out" 2>&1; rc=$?
check "exits at once (true): exit 0" [ "$rc" -eq 0 ]
check "exits at once (true): status shown" grep -q 'run_end: run ok: exit 0' "$TMPD/t.out"
timeout 20 "$IODASH" --batch --no-record run -- sh -c 'echo failing now; exit 3' >"$TMPD/f.out" 2>"$TMPD/f.err"; rc=$?
check "failing benchmark: iodash exit 1" [ "$rc" -eq 1 ]
check "failing benchmark: its output" grep -q '^> failing now$' "$TMPD/f.out"
check "failing benchmark: exit 3 shown" grep -q 'run_end: run FAILED: exit 3' "$TMPD/f.out"
check "failing benchmark: said on stderr" grep -q 'iodash: the benchmark failed: exit 3' "$TMPD/f.err"

# --- a benchmark that is over before the front end first looks (run --
# true on a loaded machine, or under TSan): the session still ends with it.
# It once waited for a sampler with no count to reach, for ever.
hung=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	timeout 60 "$IODASH" --batch --no-record run -- true >/dev/null 2>&1; [ $? -eq 124 ] && hung=$((hung + 1))
done
check "a benchmark over at once: every session ends with it (10 runs, $hung hung)" [ "$hung" -eq 0 ]

# --- killed from outside
timeout 20 "$IODASH" --batch --no-record run -- sh -c 'sleep 0.3; kill -KILL $$' >"$TMPD/k.out" 2>&1; rc=$?
check "killed benchmark: exit 1" [ "$rc" -eq 1 ]
check "killed benchmark: signal shown" grep -q 'run_end: run FAILED: killed by SIGKILL' "$TMPD/k.out"

# --- SIGINT reaches a benchmark started from a shell that ignores it
# (a background job of a non-interactive shell: see the dbench fixtures).
# In a PID namespace of its own; the benchmark is found by parentage (the
# child of the keeper that the iodash this test started forked), never by name, and signalled
# only once it runs: the TSan build may take seconds to start it.
if have dbench && unshare -pf --mount-proc true 2>/dev/null; then
	W="$W" TMPD="$TMPD" IODASH="$IODASH" timeout 90 unshare -pf --mount-proc bash -c '
		( trap "" INT; exec "$IODASH" --batch --no-record run -- dbench -D "$W" -t 30 2 >"$TMPD/int.out" 2>&1 ) &
		bg=$!
		bench=
		for ((i = 0; i < 300; i++)); do
			# iodash -> its keeper -> the benchmark
			grep -q "run_start:" "$TMPD/int.out" 2>/dev/null && bench=$(pgrep -P "$(pgrep -P "$bg" | head -1)" | head -1)
			[ -n "$bench" ] && break
			sleep 0.1
		done
		# the benchmark is a session leader: its group is its pid
		[ -n "$bench" ] && sleep 1 && kill -INT -- "-$bench"
		wait $bg; echo "rc=$?" >"$TMPD/int.rc"
		# what is left in the namespace (to look at, not to signal): the
		# clients got the signal with their group and may take a moment
		for ((i = 0; i < 50; i++)); do
			ps -e -o comm= >"$TMPD/int.left"
			grep -Eq "dbench|iodash" "$TMPD/int.left" || break
			sleep 0.1
		done
	'
	rc=$(sed -n "s/^rc=//p" "$TMPD/int.rc" 2>/dev/null)
	# dbench 4.00 dies of the signal itself (a shell would report 130)
	check "SIGINT to the benchmark group stops it despite an ignoring parent" grep -Eq 'run_end: run FAILED: (killed by SIGINT|exit 130)' "$TMPD/int.out"
	check "stopped benchmark: iodash exit 1" [ "${rc:-x}" = 1 ]
	check "stopped benchmark: nothing left" bash -c "[ -s '$TMPD/int.left' ] && ! grep -Eq 'dbench|iodash' '$TMPD/int.left'"
elif have dbench; then
	skip "SIGINT to the benchmark group" "no PID namespace here (unshare -pf needs root)"
fi
