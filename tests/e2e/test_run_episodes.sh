#!/usr/bin/env bash
# Throttle episodes belong to runs: a --sysctl sweep of a buffered fio
# overwrite, 2 byte limits x 2 runs back to back, gives at least one
# episode in every run and none across a run's start or end; each run's
# summary and run_end line count its own; nothing of a run is printed after
# the lines that follow it (the next run's knobs, the restore).  Root only
# (it sets vm.dirty_bytes; knobs lock held, knobs restored in a trap).
. "$(dirname "$0")/lib.sh"
is_root || { skip "run episodes" "needs root to write /proc/sys/vm/dirty_*"; exit 0; }
command -v fio >/dev/null || { skip "run episodes" "fio not installed (apt-get install fio)"; exit 0; }
knobs_hold
export IODASH_KNOBS_JOURNAL="$TMPD/knobs.journal"
D=$(mktemp -d /var/tmp/iodash-episodes.XXXXXX)
cleanup_add "rm -rf '$D'"
out="$TMPD/sweep.out"
# 1 GB overwritten for 2 s a run: fio dirties faster than the disk cleans
# at both limits (measured: episodes from 0.2-0.5 s into every run, a run
# 2-4 s; under the old rule the runs' pauses, less than the 1 s gap apart,
# made one episode of the whole sweep)
timeout 120 "$IODASH" sweep --batch -i 0.1 -o "$TMPD/sweep.rec" -p b=64M,128M --sysctl 'vm.dirty_bytes={b}' --repeat 2 \
	--parser fio -- fio --name=w --rw=write --bs=1M --size=1G --directory="$D" --overwrite=1 --time_based --runtime=2 \
	>"$out" 2>"$TMPD/sweep.err"; rc=$?
check "sweep: exit 0, 4 runs ok" [ $rc -eq 0 -a "$(grep -c 'run_end: run [1-4]/4 ok' "$out")" -eq 4 ]
# walk the printed lines in order: every episode line inside its run
# (after its run_start, before its run_summary), at a time within it; the
# episodes a run printed, and the count its summary and run_end say
awk '
	/^= [0-9.]+ run_start: run [0-9]\/4/ { run = $5; in_run = 1; t0 = $2; starts[run] = 0; next }
	/^= [0-9.]+ run_summary: / { n = split($0, w, " "); for (i = 1; i <= n; i++) if (w[i] ~ /^eps=/) { split(substr(w[i], 5), e, ","); said[$5] = e[1] } }
	/^= [0-9.]+ run_summary: / { in_run = 0; t1[$5] = $2 }
	/^= [0-9.]+ run_end: / { if (match($0, /; [0-9]+ throttle episode/)) { s = substr($0, RSTART + 2); ended[$5] = s + 0 } else ended[$5] = 0 }
	/^! [0-9.]+ throttle (start|end)/ {
		if (!in_run) { print "outside a run: " $0; bad = 1 }
		else if ($2 + 0 < t0 - 0.01) { print "before its run (" t0 "): " $0; bad = 1 }
		if ($4 == "start") { starts[run]++; open = 1 } else open = 0
	}
	/^= [0-9.]+ run_summary: / && open { print "episode still open at the end of run " $5; bad = 1 }
	/restored\)$/ { restored = 1 }
	/^! / && restored { print "after the restore: " $0; bad = 1 }
	END {
		for (r in starts) printf "%s:%d/%s/%s ", r, starts[r], said[r], ended[r] > "'"$TMPD/counts"'"
		exit bad
	}' "$out" >"$TMPD/bad"; rc=$?
check "no episode line outside its run, nor after the restore" [ $rc -eq 0 ]
[ $rc -eq 0 ] || echo "INFO: $(head -3 "$TMPD/bad" | tr '\n' ';')"
counts=$(tr ' ' '\n' <"$TMPD/counts" | sort | tr '\n' ' ')
echo "INFO: run:printed/summary/run_end episodes: $counts"
# every run throttled at least once, and its summary and run_end count
# what it printed
check "every run has at least one episode of its own" \
	[ "$(tr ' ' '\n' <"$TMPD/counts" | awk -F'[:/]' 'NF >= 4 && $3 >= 1 && $3 == $4 && $3 == $5' | wc -l)" -eq 4 ]
# the recording: each episode's start and end written between its run's
# start and summary, the start at its own time no earlier than the run's
awk -F'\t' '$1 == "E" && $3 == "run_start" { s = $2; e = -1 } $1 == "E" && $3 == "run_summary" { e = $2 }
	$1 == "E" && $3 == "hit_start" { if ($2 < s || e >= 0) bad = 1 }
	$1 == "E" && $3 == "hit_end" { if (e >= 0) bad = 1 }
	END { exit bad }' "$TMPD/sweep.rec" && pass "recording: every episode within one run" \
	|| fail "recording: every episode within one run" "$(awk -F'\t' '$1 == "E" && $3 ~ /run_start|run_summary|hit_/ {print $2, $3}' "$TMPD/sweep.rec" | tr '\n' ';' | cut -c1-300)"
check "knobs back after the sweep" [ ! -e "$IODASH_KNOBS_JOURNAL" ]

# the live screen counts the run's hits beside the session's
if command -v tmux >/dev/null; then
	export TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8
	tm_start 200 40 "cd '$TMPD' && IODASH_KNOBS_JOURNAL='$IODASH_KNOBS_JOURNAL' '$IODASH' -r 0.2 --no-record run --sysctl vm.dirty_bytes=128M -- fio --name=s --rw=write --bs=1M --size=1G --directory='$D' --overwrite=1 --time_based --runtime=4; echo EXIT=\$?; sleep 60"
	if tm_wait 'hits this run [1-9][0-9]*, session: dirty-limit hits [1-9]' 10; then
		pass "live header: hits this run and in the session ($(tm_screen | grep -o 'hits this run [0-9]*, session: dirty-limit hits [0-9]* ([0-9.]* s)' | head -1))"
	else
		fail "live header: hits this run and in the session" "$(tm_screen | sed -n 2p)"
	fi
	# let the run end before the knobs are restored; under load it may
	# take longer, and the cleanup ends it then (not a failure)
	tm_wait 'EXIT=' 30 >/dev/null || true
else
	skip "live header hits" "tmux missing"
fi
exit 0
