#!/usr/bin/env bash
# Whatever iodash started ends with it, however iodash ends: a SIGKILL of
# iodash during `run -- fio` and during `sweep` leaves no process of the
# benchmark's tree alive 1 s later: fio's workers (each in a session of its
# own) too, and a scripted benchmark's setsid and double-forked children.
# What a run leaves behind ends when iodash ends normally too.  attach
# never kills what it watches, nor does anything else touch a bystander.
# Everything runs in a PID namespace of its own (its PID 1 is the inner
# shell below); /proc is read there 1 s after the SIGKILL.  fio writes a
# few MB at 1 MB/s in a temporary folder, under the machine's knobs lock.
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" != --inside ]; then
	if ! is_root; then
		skip "kill -9 of iodash ends the benchmark's tree" "not root (unshare -pf needs root)"
		exit 0
	fi
	if ! unshare -pf --mount-proc true 2>/dev/null; then
		skip "kill -9 of iodash ends the benchmark's tree" "unshare -pf --mount-proc is not permitted here"
		exit 0
	fi
	# fio writes: one disk writer at a time on this machine (the knobs
	# lock; tests/run-all.sh may hold it for us)
	knobs_hold
	IODASH=$IODASH TMPD=$TMPD unshare -pf --mount-proc bash "$0" --inside; rc=$?
	check "the namespace's PID 1 (this test's shell) lived to the end (exit $rc)" [ "$rc" -eq 0 ]
	exit 0
fi

# ---- inside the namespace: this shell is PID 1 ----------------------------
[ $$ -eq 1 ] || { fail "namespace" "the inner shell is pid $$, not 1"; exit 1; }
exec 9>&-

now_ms() { echo $(($(date +%s%N) / 1000000)); }
alive() { [ -r "/proc/$1/stat" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }
# wait_line FILE REGEX SECS
wait_line() { local i; for ((i = 0; i < $3 * 10; i++)); do grep -Eq -- "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }
# every live process of the namespace but this shell, its bystanders and
# the reader itself: "pid comm" lines
others() {
	local d p c keep
	for d in /proc/[0-9]*; do
		p=${d#/proc/}
		[ "$p" = 1 ] || [ "$p" = "$BASHPID" ] && continue
		keep=0
		for c in "${KEEP[@]}"; do [ "$p" = "$c" ] && keep=1; done
		[ $keep = 1 ] && continue
		alive "$p" || continue
		c=$(cat "$d/comm" 2>/dev/null) || continue
		echo "$p $c"
	done
}
# count_comm NAME: live processes of that name (to see the tree is up;
# nothing is signalled by name)
count_comm() { local d n=0; for d in /proc/[0-9]*; do [ "$(cat "$d/comm" 2>/dev/null)" = "$1" ] && alive "${d#/proc/}" && n=$((n + 1)); done; echo $n; }
sessions_of() { local d; for d in /proc/[0-9]*; do [ "$(cat "$d/comm" 2>/dev/null)" = "$1" ] && awk '{ sub(/.*\) /, ""); print $4 }' "$d/stat" 2>/dev/null; done | sort -u | wc -l; }

setsid sleep 300 &
KEEP=($!)
BY=$!
FIO_DIR=$TMPD/fio
mkdir -p "$FIO_DIR"
FIO_ARGS=(--name=w --directory="$FIO_DIR" --size=4m --rw=write --bs=4k --time_based --runtime=60 --rate=1m)
FIO=(fio "${FIO_ARGS[@]}" --numjobs=2)

# kill9_case NAME READY -- IODASH_ARGS...: iodash --batch with those
# arguments, SIGKILL once `READY` holds (up to 20 s; $OUT is its output),
# then what is left after 1 s
kill9_case() {
	local name=$1 ready=$2 ip left i t0 ms when; shift 3
	OUT=$TMPD/$name.out
	"$IODASH" --batch --no-record -i 0.2 "$@" >"$OUT" 2>"$TMPD/$name.err" &
	ip=$!
	for ((i = 0; i < 200; i++)); do eval "$ready" 2>/dev/null && break; sleep 0.1; done
	if [ "$i" -ge 200 ]; then
		fail "$name: the benchmark came up" "$(tail -n 3 "$OUT" "$TMPD/$name.err" | tr '\n' ' ')"
		return 1
	fi
	BEFORE=$(others | wc -l)
	disown "$ip"
	t0=$(now_ms)
	kill -KILL "$ip"
	# when the last one went, to say (not to judge: 1 s is the bound)
	when="still there at 1 s"
	while [ $(($(now_ms) - t0)) -lt 1000 ]; do
		[ -z "$(others)" ] && when="all gone $(($(now_ms) - t0)) ms after" && break
		sleep 0.02
	done
	ms=$(($(now_ms) - t0))
	sleep $(awk -v m="$ms" 'BEGIN { printf "%.3f", m < 1000 ? (1000 - m) / 1000 : 0 }')
	left=$(others)
	check "$name: no process of the tree 1 s after kill -9 (up before: $BEFORE; $when; left: ${left:-none})" [ -z "$left" ]
}
# fio and its 2 workers up, the workers in sessions of their own (a signal
# to fio's group misses them)
fio_up() { [ "$(count_comm fio)" -ge 3 ] && FIO_SESSIONS=$(sessions_of fio); }

if command -v fio >/dev/null; then
	kill9_case "run fio" fio_up -- run -- "${FIO[@]}"
	check "run fio: its 2 workers were in sessions of their own (fio sessions: ${FIO_SESSIONS:-?})" [ "${FIO_SESSIONS:-0}" -ge 3 ]
	# a sweep: the kill comes during its first run
	kill9_case "sweep fio" fio_up -- sweep -p n=2,1 -- fio "${FIO_ARGS[@]}" "--numjobs={n}"
else
	skip "kill -9 during run -- fio" "fio not installed (apt-get install fio)"
fi

# a benchmark whose children leave its session (setsid) and its parentage
# (a double fork), then says it is ready
SCRIPT='setsid sh -c "while :; do sleep 0.2; done" </dev/null >/dev/null 2>&1 &
( sh -c "exec sleep 300" </dev/null >/dev/null 2>&1 & ) 
( setsid sh -c "( exec sleep 301 ) & exec sleep 302" </dev/null >/dev/null 2>&1 & )
sleep 0.5; echo READY; exec sleep 300'
kill9_case "run setsid and double fork" 'grep -q "^> READY" "$OUT"' -- run -- sh -c "$SCRIPT"

# --between's command is held the same way
kill9_case "sweep --between" 'grep -q "^> \[between\] READY" "$OUT"' -- sweep -p n=1,2 --between "$SCRIPT" -- sh -c 'echo {n}; sleep 30'

# a normal end: what the run left behind ends with iodash, exit codes as ever
"$IODASH" --batch --no-record -i 0.2 run -- sh -c 'setsid sleep 303 </dev/null >/dev/null 2>&1 & sleep 0.3; echo done' >"$TMPD/left.out" 2>&1; rc=$?
check "a run that leaves a setsid child: exit 0" [ "$rc" -eq 0 ]
check "a run that leaves a setsid child: run ok" grep -q 'run_end: run ok: exit 0' "$TMPD/left.out"
left=$(others)
check "a run that leaves a setsid child: nothing left once iodash has exited (left: ${left:-none})" [ -z "$left" ]

# attach never kills what it watches, however iodash ends
setsid sleep 300 &
t=$!
KEEP+=("$t")
"$IODASH" --batch -i 0.2 attach "$t" >"$TMPD/attach.out" 2>&1 &
ip=$!
wait_line "$TMPD/attach.out" "run_start: attach" 20
disown "$ip"
kill -KILL "$ip"
sleep 1
check "attach, kill -9: the watched process is alive" alive "$t"
left=$(others)
check "attach, kill -9: nothing else left (left: ${left:-none})" [ -z "$left" ]

check "the bystander setsid sleep is alive" alive "$BY"
exit 0
