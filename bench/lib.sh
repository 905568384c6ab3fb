# Shared by the bench parts that time a small program of build/bench/:
# source it.  Not a part itself (run.sh runs bench/[0-9]*.sh).

# best_of_3 BIN N SED [ARG...]: runs BIN N ARG... three times, prints each
# run's line indented, and sets BEST to the smallest figure SED takes from
# a line.
best_of_3() {
	local bin=$1 n=$2 expr=$3 line v run
	shift 3
	BEST=
	for run in 1 2 3; do
		line=$("$bin" "$n" "$@") || return 1
		echo "  run $run: $line"
		v=$(sed -n "$expr" <<<"$line")
		if [ -z "$BEST" ] || awk -v a="$v" -v b="$BEST" 'BEGIN{exit !(a<b)}'; then BEST=$v; fi
	done
}

# callgrind_per BIN N [ARG...]: sets INSTR to BIN's instructions per item,
# (instructions of a run of N - those of a run of 0) / N, counted by
# callgrind (repeatable on a noisy machine); n/a without valgrind.
callgrind_per() {
	local bin=$1 n=$2 tmp i0 i1
	shift 2
	local args=("$@")
	INSTR=n/a
	command -v valgrind >/dev/null || return 0
	tmp=$(mktemp -d /tmp/iodash-bench.XXXXXX)
	_cg_count() {
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" "$bin" "$1" "${args[@]}" >/dev/null 2>"$tmp/log.$1" || return 1
		sed -n 's/^\(summary\|totals\): *\([0-9]*\).*/\2/p' "$tmp/cg.$1" | tail -1
	}
	if i0=$(_cg_count 0) && i1=$(_cg_count "$n") && [ -n "$i0" ] && [ -n "$i1" ]; then
		INSTR=$(( (i1 - i0) / n ))
		echo "  callgrind: N=0 $i0, N=$n $i1 instructions"
	else
		echo "  callgrind failed: $(tail -n 3 "$tmp"/log.* 2>/dev/null)"
	fi
	rm -rf "$tmp"
}

# tmux_bench PART: what a part that runs programs in 120x40 tmux panes
# needs: skips the part (exit 0, saying why) without tmux or ./iodash; D, a
# temporary folder removed at exit with the private tmux server in it;
# tm, tmux on that server; tm_pane NAME CMD starts CMD (exec'd) in a pane.
tmux_bench() {
	command -v tmux >/dev/null || { echo "$1: tmux missing, skipped"; exit 0; }
	[ -x ./iodash ] || { echo "$1: ./iodash not built, skipped"; exit 0; }
	D=$(mktemp -d "/tmp/iodash-bench-$1.XXXXXX")
	trap 'tmux -S "$D/tmux.sock" kill-server 2>/dev/null; rm -rf "$D"' EXIT
}
tm() { tmux -S "$D/tmux.sock" "$@"; }
tm_pane() { tm new-session -d -x 120 -y 40 -s "$1" "exec $2"; }
# cpu_ns PID: ns on a CPU of every thread of PID so far (schedstat's first
# field; /proc/PID/stat's ticks are 10 ms, too coarse for a few ms a second)
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{n += $1} END {printf "%d", n}'; }
