#!/usr/bin/env bash
# No tracefs instance of iodash is left behind: after a normal exit,
# SIGTERM, SIGHUP, SIGINT, SIGQUIT (core signal: the guard's handler),
# and SIGKILL (left, then removed by the next iodash, which finds its pid
# dead).  Every signal goes to an iodash this test started, inside its own
# PID namespace (unshare -pf --mount-proc).  Root only.
. "$(dirname "$0")/lib.sh"

if ! is_root; then
	skip "ktrace signals: instance removed" "needs root (tracefs, unshare -p)"
	exit 0
fi
command -v unshare >/dev/null || { skip "ktrace signals" "unshare missing (util-linux)"; exit 0; }

cat >"$TMPD/inner.sh" <<'EOF'
# runs as pid 1 of a new PID namespace: $1 = iodash, $2 = signal or "exit"
IODASH=$1 SIG=$2
T=/sys/kernel/tracing
grep -q " $T tracefs " /proc/mounts || mount -t tracefs nodev $T
inst() { ls -d $T/instances/iodash-"$1" $T/instances/iodash-"$1"-* 2>/dev/null; }
wait_inst() { for i in $(seq 50); do [ -n "$(inst "$1")" ] && return 0; sleep 0.1; done; return 1; }
if [ "$SIG" = exit ]; then
	"$IODASH" --batch -i 0.1 --count 10 >/dev/null 2>&1 &
	p=$!
	wait_inst $p || { echo "NOINST"; exit 1; }
	wait $p; echo "rc=$?"
else
	env --default-signal=INT,QUIT "$IODASH" --batch -i 0.1 >/dev/null 2>&1 &
	p=$!
	wait_inst $p || { echo "NOINST"; exit 1; }
	sleep 0.3
	kill -s "$SIG" $p
	wait $p; echo "rc=$?"
fi
if [ -n "$(inst $p)" ]; then
	echo "LEFT $(inst $p)"
	if [ "$SIG" = KILL ]; then
		# the next iodash removes it: its pid is dead
		"$IODASH" --batch -i 0.1 --count 3 >/dev/null 2>&1
		[ -n "$(inst $p)" ] && echo "STILL" || echo "REMOVED"
	fi
else
	echo "CLEAN"
fi
EOF

for sig in exit TERM HUP INT QUIT KILL; do
	res=$(timeout 30 unshare -pf --mount-proc bash "$TMPD/inner.sh" "$IODASH" "$sig" 2>&1)
	echo "  $sig: $(echo $res)"
	case $sig in
	KILL)
		check "ktrace signals: SIGKILL leaves it, the next iodash removes it" \
			bash -c "echo '$res' | grep -q LEFT && echo '$res' | grep -q REMOVED" ;;
	exit)
		check "ktrace signals: normal exit removes the instance" \
			bash -c "echo '$res' | grep -q 'rc=0' && echo '$res' | grep -q CLEAN" ;;
	*)
		check "ktrace signals: SIG$sig removes the instance" bash -c "echo '$res' | grep -q CLEAN" ;;
	esac
done
