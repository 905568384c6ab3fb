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

# tmux helpers: one private server per test
TMUX_SOCK="$TMPD/tmux.sock"
tm() { tmux -S "$TMUX_SOCK" "$@"; }
tm_start() { # W H CMD...
	local w=$1 h=$2; shift 2
	tm new-session -d -x "$w" -y "$h" -s t "$*"
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
