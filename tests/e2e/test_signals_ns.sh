#!/usr/bin/env bash
# Signals go only to what iodash started.  An attached process is watched,
# never signalled: SIGTERM, SIGINT, SIGHUP, q, --count and --duration end
# iodash at once and leave the process (and everyone else) running, and a
# reader that goes away (| head) ends attach --batch.  Everything runs in a
# PID namespace of its own, so a regression (a kill(-1, ...)) can only hit
# the processes of this test; its PID 1 is the inner shell below, and when
# it exits the kernel ends whatever is left in the namespace.
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" != --inside ]; then
	if ! is_root; then
		skip "signals in a PID namespace" "not root (unshare -pf needs root)"
		exit 0
	fi
	if ! unshare -pf --mount-proc true 2>/dev/null; then
		skip "signals in a PID namespace" "unshare -pf --mount-proc is not permitted here"
		exit 0
	fi
	IODASH=$IODASH unshare -pf --mount-proc bash "$0" --inside; rc=$?
	# the inner shell ends with 0 unless something killed it (once: a
	# SIGINT that iodash sent to -1 reached it while it waited)
	check "the namespace's PID 1 (this test's shell) lived to the end (exit $rc)" [ "$rc" -eq 0 ]
	exit 0
fi

# ---- inside the namespace: this shell is PID 1 ----------------------------
[ $$ -eq 1 ] || { fail "namespace" "the inner shell is pid $$, not 1"; exit 1; }

# alive PID: there and not a zombie
alive() { [ -r "/proc/$1/stat" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# wait_line FILE REGEX: up to 10 s
wait_line() { local i; for ((i = 0; i < 100; i++)); do grep -Eq -- "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }
# wait_gone PID MS: until PID (a child of this shell) has exited, up to MS
wait_gone() { local t0; t0=$(now_ms); while alive "$1"; do [ $(($(now_ms) - t0)) -ge "$2" ] && return 1; sleep 0.02; done; return 0; }
pgid_of() { awk '{ sub(/.*\) /, ""); print $3 }' "/proc/$1/stat"; }

BYSTANDERS=()
all_alive() { local p; for p in "$@"; do alive "$p" || return 1; done; }

# attach_then NAME TARGET SIGNAL: iodash --batch attach TARGET (in this
# shell's process group), then SIGNAL to iodash; a `setsid sleep` bystander
# beside it.
attach_then() {
	local name=$1 target=$2 sig=$3 by ip t0 ms rc out=$TMPD/$1.out
	setsid sleep 300 &
	by=$!
	BYSTANDERS+=("$by")
	"$IODASH" --batch -i 0.1 attach "$target" >"$out" 2>"$TMPD/$name.err" &
	ip=$!
	if ! wait_line "$out" "run_start: attach"; then
		fail "$name: attach started" "$(cat "$TMPD/$name.err")"
		return
	fi
	sleep 0.3
	t0=$(now_ms)
	kill "-$sig" "$ip"
	wait_gone "$ip" 6500 || kill -KILL "$ip"   # ours, in this namespace: the test goes on
	ms=$(($(now_ms) - t0))
	wait "$ip"; rc=$?
	check "$name: iodash ended within 1 s of SIG$sig (took $ms ms)" [ "$ms" -lt 1000 ]
	check "$name: exit 0 (watching ended, nothing failed)" [ "$rc" -eq 0 ]
	check "$name: the watched pid $target is alive" alive "$target"
	check "$name: the bystander setsid sleep is alive" alive "$by"
	check "$name: the end line says it was left running" grep -q "run_end: attach: stopped watching pid $target .*left PID $target running" "$out"
}

# 1. PID 1 of the namespace (once: getpgid gave 0 and -1 was signalled)
attach_then "attach 1, SIGTERM" 1 TERM

# 2. a process group leader (once: its whole group got SIGINT)
setsid sleep 300 &
leader=$!
sleep 0.1
check "the target is a process group leader" [ "$(pgid_of "$leader")" = "$leader" ]
attach_then "attach to a group leader, SIGTERM" "$leader" TERM

# 3. a member of iodash's own process group (a background job of this
#    shell, as iodash is: once it was signalled alone, then SIGTERM after 5 s)
sleep 300 &
member=$!
check "the target shares the shell's (and so iodash's) process group" [ "$(pgid_of "$member")" = "$(pgid_of $$)" ]
attach_then "attach to a member of iodash's group, SIGTERM" "$member" TERM

# SIGINT and SIGHUP end the watching the same way
attach_then "attach, SIGINT" "$leader" INT
attach_then "attach, SIGHUP" "$leader" HUP

# --count and --duration end the watching, never the watched process
# (once: a setsid sleep was gone 0.4 s after --count 5 -i 0.1)
setsid sleep 300 &
t=$!
timeout 20 "$IODASH" --batch -i 0.1 --count 5 attach "$t" >"$TMPD/count.out" 2>&1; rc=$?
check "attach --count 5: exit 0" [ "$rc" -eq 0 ]
check "attach --count 5: the watched process is alive" alive "$t"
check "attach --count 5: says it left it running" grep -q "left PID $t running" "$TMPD/count.out"
timeout 20 "$IODASH" --batch -i 0.1 --duration 0.5 attach "$t" >"$TMPD/dur.out" 2>&1; rc=$?
check "attach --duration 0.5: exit 0" [ "$rc" -eq 0 ]
check "attach --duration 0.5: the watched process is alive" alive "$t"

# a reader that goes away ends attach --batch (as it ends plain --batch)
t0=$(now_ms)
timeout 20 "$IODASH" --batch -i 0.1 attach "$t" 2>"$TMPD/head.err" | head -5 >/dev/null; rc=${PIPESTATUS[0]}
ms=$(($(now_ms) - t0))
check "attach --batch | head -5: iodash ends by itself, exit 0 (rc $rc, $ms ms)" [ "$rc" -eq 0 ]
check "attach --batch | head -5: the watched process is alive" alive "$t"

# the dashboard: q quits at once without a question; SIGTERM and SIGHUP
# end it at once; the process is left running and stderr says so
if command -v tmux >/dev/null; then
	ui_case() { # NAME HOW(q|TERM|HUP)
		local name=$1 how=$2 ip t0 ms i
		rm -f "$TMPD/ui.pid" "$TMPD/ui.rc"
		TMUX_SOCK="$TMPD/tmux-$how.sock"    # a server of its own per case
		tm_start 120 40 "sh -c 'echo \$\$ >$TMPD/ui.pid; exec $IODASH -i 0.2 attach $t 2>$TMPD/ui.err'; echo rc=\$? >$TMPD/ui.rc; sleep 30"
		if ! tm_wait "attach" 10; then
			fail "$name: the dashboard came up" "$(tm_screen | head -5)"
			tm kill-server 2>/dev/null
			return
		fi
		ip=$(cat "$TMPD/ui.pid")
		t0=$(now_ms)
		if [ "$how" = q ]; then tm send-keys -t t q; else kill "-$how" "$ip"; fi
		for ((i = 0; i < 250; i++)); do [ -s "$TMPD/ui.rc" ] && break; sleep 0.02; done
		ms=$(($(now_ms) - t0))
		check "$name: iodash ended within 1 s (took $ms ms)" [ "$ms" -lt 1000 ]
		check "$name: the watched process is alive" alive "$t"
		if [ "$how" != HUP ]; then
			check "$name: stderr says it left it running" grep -q "left PID $t running" "$TMPD/ui.err"
		fi
		tm kill-server 2>/dev/null
	}
	ui_case "dashboard attach, q" q
	ui_case "dashboard attach, SIGTERM" TERM
	ui_case "dashboard attach, SIGHUP" HUP
else
	skip "dashboard attach, q" "tmux not installed"
fi

# a benchmark iodash spawned is what SIGTERM stops: its whole group (dbench
# and its clients), through the one signalling function; nobody else
if command -v dbench >/dev/null; then
	mkdir -p "$TMPD/w"
	setsid sleep 300 &
	by=$!
	BYSTANDERS+=("$by")
	"$IODASH" --batch --no-record -i 0.2 run -- dbench -D "$TMPD/w" -t 60 2 >"$TMPD/run.out" 2>&1 &
	ip=$!
	for ((i = 0; i < 100; i++)); do [ "$(pgrep -c -x dbench)" -ge 3 ] && break; sleep 0.1; done
	check "run dbench: it and its clients are up" [ "$(pgrep -c -x dbench)" -ge 3 ]
	kill -TERM "$ip"
	wait_gone "$ip" 12000 || kill -KILL "$ip"
	wait "$ip"; rc=$?
	check "run dbench, SIGTERM: exit 1 (stopped)" [ "$rc" -eq 1 ]
	check "run dbench, SIGTERM: stopped on request, not FAILED" grep -q 'run_end: run stopped: .*(stopped on request)' "$TMPD/run.out"
	check "run dbench, SIGTERM: no dbench left (the group was signalled)" bash -c '! pgrep -x dbench >/dev/null'
	check "run dbench, SIGTERM: the bystander is alive" alive "$by"
else
	skip "run dbench, SIGTERM" "dbench not installed"
fi

check "all ${#BYSTANDERS[@]} bystanders are alive at the end" all_alive "${BYSTANDERS[@]}" "$leader" "$member" "$t"
exit 0
