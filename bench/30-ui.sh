#!/usr/bin/env bash
# The live screen over ssh: bytes written to the terminal per second and
# peak RSS, replaying a 30 s trace at 120x40 with -r 1, next to htop -d 10
# measured the same way at the same time (tmux pipe-pane counts what each
# program writes to its pty).
set -u
cd "$(dirname "$0")/.."
TRACE=tests/fixtures/proc-traces/dirty-bytes-256M-128M-fio-overwrite-4G-20s
SECS=${UI_BENCH_SECONDS:-30}
. bench/lib.sh
tmux_bench ui

start() { # name cmd: a pane, and what it writes to its pty in $D/name.out
	tm_pane "$1" "$2"
	tm pipe-pane -o -t "$1" "cat > $D/$1.out"
}
start iodash "env TERM=tmux-256color ./iodash -r 1 --proc-root $TRACE"
have_htop=0
if command -v htop >/dev/null; then
	start htop "env TERM=tmux-256color htop -d 10"
	have_htop=1
fi
sleep 1
# count from here: the first paint is the same for every program
b0_i=$(stat -c %s "$D/iodash.out"); b0_h=0
[ $have_htop = 1 ] && b0_h=$(stat -c %s "$D/htop.out")
sleep "$SECS"
b1_i=$(stat -c %s "$D/iodash.out")
pid_i=$(tm display -p -t iodash '#{pane_pid}')
rss_i=$(awk '/VmHWM/{print $2}' "/proc/$pid_i/status" 2>/dev/null)
first_i=$b0_i
printf 'ui: iodash 120x40 -r 1, %d s trace replay: %.0f B/s to the terminal (first paint %d B), peak RSS %s KiB\n' \
	"$SECS" "$(echo "($b1_i - $b0_i) / $SECS" | bc -l)" "$first_i" "${rss_i:-n/a}"
if [ $have_htop = 1 ]; then
	b1_h=$(stat -c %s "$D/htop.out")
	pid_h=$(tm display -p -t htop '#{pane_pid}')
	rss_h=$(awk '/VmHWM/{print $2}' "/proc/$pid_h/status" 2>/dev/null)
	printf 'ui: htop -d 10 120x40, same %d s: %.0f B/s, peak RSS %s KiB\n' \
		"$SECS" "$(echo "($b1_h - $b0_h) / $SECS" | bc -l)" "${rss_h:-n/a}"
	printf 'ui: iodash/htop bytes ratio %.2f\n' \
		"$(echo "($b1_i - $b0_i) / (($b1_h - $b0_h) + 0.001)" | bc -l)"
fi
tm send-keys -t iodash q
exit 0
