# Helpers for end-to-end tests: source it.  Each check prints one line
# PASS: name / FAIL: name (why) / SKIP: name (why); tests/run-all.sh counts them.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
IODASH=${IODASH:-$TOP/iodash}
FIX="$TOP/tests/fixtures"
TMPD=$(mktemp -d /tmp/iodash-e2e.XXXXXX)
_cleanups=()
on_exit() { local c; for c in "${_cleanups[@]}"; do eval "$c"; done; rm -rf "$TMPD"; }
trap on_exit EXIT
# Run CMD when the test exits, whatever happens (restore knobs, kill tmux ...).
cleanup_add() { _cleanups+=("$1"); }

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1${2:+ ($2)}"; }
skip() { echo "SKIP: $1${2:+ ($2)}"; }
# check NAME CMD...: PASS if CMD succeeds
check() { local n=$1; shift; if "$@"; then pass "$n"; else fail "$n" "command failed: $*"; fi; }
is_root() { [ "$(id -u)" -eq 0 ]; }
# num_true 'EXPR': true when the arithmetic comparison holds, in awk's
# doubles (bc cannot read 1.04648e+08; awk prints big numbers that way)
num_true() { awk "BEGIN { exit !($1) }" </dev/null; }

# knobs_hold: for a test that sets vm.dirty_* (or needs them still): take
# the machine's knobs lock (one such test at a time), remember the knobs,
# and put them back when the test exits, whatever happens.  A *_bytes of 0
# means its *_ratio twin is the one in use: that one is written back, which
# zeroes the other as the kernel does.  knobs_restore may be called early.
declare -A KNOBS_ORIG
knobs_hold() {
	local f
	if [ -z "${IODASH_KNOBS_HELD:-}" ]; then   # run-all.sh may hold it for us
		exec 9>/tmp/iodash-knobs.lock
		flock 9
	fi
	for f in dirty_background_bytes dirty_background_ratio dirty_bytes dirty_ratio dirty_expire_centisecs; do
		KNOBS_ORIG[$f]=$(cat /proc/sys/vm/$f)
	done
	cleanup_add knobs_restore
}
knobs_restore() {
	local V=/proc/sys/vm
	if [ "${KNOBS_ORIG[dirty_background_bytes]}" != 0 ]; then echo "${KNOBS_ORIG[dirty_background_bytes]}" >$V/dirty_background_bytes
	else echo "${KNOBS_ORIG[dirty_background_ratio]}" >$V/dirty_background_ratio; fi
	if [ "${KNOBS_ORIG[dirty_bytes]}" != 0 ]; then echo "${KNOBS_ORIG[dirty_bytes]}" >$V/dirty_bytes
	else echo "${KNOBS_ORIG[dirty_ratio]}" >$V/dirty_ratio; fi
	echo "${KNOBS_ORIG[dirty_expire_centisecs]}" >$V/dirty_expire_centisecs
}

# tmux helpers: one private server per test
TMUX_SOCK="$TMPD/tmux.sock"
tm() { tmux -S "$TMUX_SOCK" "$@"; }
tm_start() { # W H CMD...
	local w=$1 h=$2 i; shift 2
	# a server killed just before may still hold the socket while it
	# exits: new-session then meets it and fails ("server exited
	# unexpectedly"); it is tried again once that one is gone
	for ((i = 0; i < 20; i++)); do
		tm new-session -d -x "$w" -y "$h" -s t "$*" 2>"$TMPD/tm_start.err" && break
		sleep 0.1
	done
	[ "$i" -lt 20 ] || echo "INFO: tmux new-session failed 20 times: $(cat "$TMPD/tm_start.err")"
	cleanup_add "tmux -S '$TMUX_SOCK' kill-server 2>/dev/null"
}
tm_screen() { tm capture-pane -p -t t; }
# wait until the screen matches the regex, up to $2 seconds (default 5)
tm_wait() {
	local re=$1 secs=${2:-5} i
	for ((i = 0; i < secs * 10; i++)); do
		tm_screen 2>/dev/null | grep -Eq -- "$re" && return 0
		sleep 0.1
	done
	return 1
}
