#!/usr/bin/env bash
# iodash view in tmux: time travel on a recording of the fio dirty-limit
# trace shows, at a given time, what the live session showed then.
. "$(dirname "$0")/lib.sh"
TRACE="$FIX/proc-traces/dirty-bytes-256M-128M-fio-overwrite-4G-20s"
rec="$TMPD/fio.rec"
"$IODASH" --batch --fast --proc-root "$TRACE" -o "$rec" >"$TMPD/live.txt" || fail "record the trace"

tm_start 120 40 "'$IODASH' view '$rec'; echo EXIT=\$?; sleep 30"
tm_wait 'recording fio.rec' 5 && pass "view opens the recording" || fail "view opens" "$(tm_screen | head -2)"
tm send-keys -t t Space; sleep 0.3
tm send-keys -t t g 3 . 7 Enter
if tm_wait '@ 0:00:03\.7 .*THROTTLE' 3; then
	pass "g 3.7: at 3.70 s the badge reads THROTTLE, as the live batch line did"
else
	fail "g 3.7 shows THROTTLE" "$(tm_screen | head -1)"
fi
# the disks table shows the live session's figure of that sample
want=$(awk '/^3\.70 / {print $9}' "$TMPD/live.txt")
got=$(tm_screen | awk '/^vda +[0-9]/ {print $5}')
awk -v a="$want" -v b="$got" 'BEGIN {d = a - b; if (d < 0) d = -d; exit !(a > 0 && d < 0.051)}' \
	&& pass "the disks table shows vda wkB/s $got, the live batch line's $want" \
	|| fail "vda wkB/s as live" "want $want, got $got"
tm_screen | grep -q 'dirty-limit hits 1 ' && pass "hit count 1 at 3.70 s" || fail "hit count 1" "$(tm_screen | sed -n 2p)"
tm send-keys -t t Right
tm_wait '@ 0:00:03\.8 ' 3 && pass "right steps one sample (3.8 s)" || fail "right steps one sample" "$(tm_screen | head -1)"
tm send-keys -t t End
tm_wait '@ 0:00:30\.7 ' 3 && pass "End goes to the end (30.7 s)" || fail "End" "$(tm_screen | head -1)"
tm send-keys -t t Home
tm_wait '@ 0:00:00\.0 ' 3 && pass "Home goes to the start" || fail "Home" "$(tm_screen | head -1)"
tm send-keys -t t q
tm_wait 'EXIT=0' 3 && pass "q quits with 0" || fail "q quits" "$(tm_screen | tail -2)"

# view and export of a FIFO with no writer: refused at once, never a hang
mkfifo "$TMPD/fifo"
for c in "view --batch" "view" "export --csv"; do
	timeout 10 $IODASH $c "$TMPD/fifo" >/dev/null 2>"$TMPD/err" </dev/null; rc=$?
	[ $rc -eq 1 ] && grep -q "fifo: a FIFO, not a regular file" "$TMPD/err" \
		&& pass "$c on a FIFO: exit 1 at once" || fail "$c on a FIFO" "exit $rc (124: hung): $(cat "$TMPD/err")"
done

# a terminal that cannot draw the screens: say to use --batch, exit 2,
# before anything starts (no benchmark, no recording)
tm_stop() { tm kill-server 2>/dev/null; for i in $(seq 30); do [ -S "$TMUX_SOCK" ] || break; sleep 0.1; done; }
tm_stop
for term in dumb no-such-terminal; do
	mkdir -p "$TMPD/term-$term"
	tm_start 100 30 "cd '$TMPD/term-$term' && TERM=$term '$IODASH' run -- touch started; echo EXIT=\$?; sleep 30"
	if tm_wait 'EXIT=' 5 && tm_screen | grep -q 'EXIT=2' && tm_screen | grep -q -- '--batch' \
		&& [ -z "$(ls "$TMPD/term-$term")" ]; then
		pass "TERM=$term: run says to use --batch, exit 2, nothing started or recorded"
	else
		fail "TERM=$term refused" "$(tm_screen | grep -v '^$' | head -3 | tr '\n' ' ') files: $(ls "$TMPD/term-$term")"
	fi
	tm_stop
done
tm_start 100 30 "TERM=dumb '$IODASH' view '$rec'; echo EXIT=\$?; sleep 30"
tm_wait 'EXIT=' 5 && tm_screen | grep -q 'EXIT=2' && tm_screen | grep -q 'dumb.*--batch' \
	&& pass "TERM=dumb: view says to use --batch, exit 2" || fail "TERM=dumb view" "$(tm_screen | grep -v '^$' | head -3 | tr '\n' ' ')"
tm_stop

# The end of a recording: the run's last output line, then its end (the
# run_end event, written once the sampler's next tick has closed the run's
# throttle episodes, docs/knobs.md), an end record last; a closed
# recording says so ("end of recording"), one whose writer is still there
# (or was killed: no end record) "following".
tm_stop
er="$TMPD/end.rec"
"$IODASH" run --batch -i 2 -o "$er" -- sh -c 'sleep 0.45; echo LAST-LINE-$((6 * 7))' >/dev/null 2>&1
oline=$(grep -nP '^O\t.*LAST-LINE-42' "$er" | cut -d: -f1); eline=$(grep -nP '^E\t[0-9.]+\trun_end\t' "$er" | cut -d: -f1)
[ -n "$oline" ] && [ -n "$eline" ] && [ "$eline" -gt "$oline" ] && tail -1 "$er" | grep -q $'^Z\t' \
	&& pass "the recording: the last output line, then the run's end, an end record last" \
	|| fail "the recording's end" "output at line $oline, run_end at $eline, last: $(tail -1 "$er" | cut -c1-20)"
grep -v $'^Z\t' "$er" >"$TMPD/open.rec"   # as a writer that is still at it
# its writer holds it (a recorder keeps a flock on it all session): a
# process of its own, so the tmux server does not inherit the lock
(exec 8<"$TMPD/open.rec"; flock -x 8; exec sleep 60) & holder=$!
cleanup_add "kill $holder 2>/dev/null"
# (160 columns: the header keeps the whole state next to a wide zone badge)
tm_start 160 40 "'$IODASH' view '$er' '$TMPD/open.rec'; echo EXIT=\$?; sleep 30"
if tm_wait 'recording end\.rec \(file 1/2\) @ .* end of recording' 5; then
	pass "view A B: says file 1/2, and a closed recording's end: end of recording"
else
	fail "view A B: file 1/2, end of recording" "$(tm_screen | head -1)"
fi
tm_screen | grep -q 'LAST-LINE-42' && pass "view: the run's last output line shows at the end" \
	|| fail "view: the run's last output line shows" "$(tm_screen | sed -n 10,16p | tr -s ' ' | tr '\n' '|')"
tm_screen | grep -q 'run ok: exit 0' && pass "view: the run's end shows at the end" \
	|| fail "view: the run's end shows" "$(tm_screen | sed -n 10,16p | tr -s ' ' | tr '\n' '|')"
tm send-keys -t t q
tm_wait 'recording open\.rec \(file 2/2\) @ .* end, following' 5 \
	&& pass "view A B: then file 2/2; without an end record: end, following" \
	|| fail "view: file 2/2, end, following" "$(tm_screen | head -1)"
kill $holder; wait $holder 2>/dev/null   # the writer goes without its end record (killed)
tm_wait 'recording open\.rec \(file 2/2\) @ .* end, not closed' 5 \
	&& pass "view: when its writer is gone, an unclosed recording says end, not closed" \
	|| fail "view: writer gone: end, not closed" "$(tm_screen | head -1)"
tm send-keys -t t q
tm_wait 'EXIT=0' 3 && pass "q, q: exit 0" || fail "q, q: exit 0" "$(tm_screen | tail -2)"
# view --batch --follow of a closed recording ends (it ran until Ctrl-C)
timeout 10 "$IODASH" view --batch --follow "$er" >"$TMPD/follow.txt" 2>&1; rc=$?
# (its run's end line is there; a throttle episode of another writer on
# the machine may end after it, at its own time)
[ $rc -eq 0 ] && grep -q 'run_end: run ok' "$TMPD/follow.txt" \
	&& pass "view --batch --follow of a closed recording ends with it (exit 0)" \
	|| fail "view --batch --follow of a closed recording" "exit $rc (124: still following): $(tail -1 "$TMPD/follow.txt")"

# valgrind: the graphs' bucketing read per-disk rates that were never set
# (slots past the newest sample's disk count)
if command -v valgrind >/dev/null; then
	tm_stop
	# the plain build: valgrind cannot run a ThreadSanitizer binary (the
	# TSan pass of make check sets IODASH to one)
	tm_start 120 40 "valgrind --log-file='$TMPD/vg.log' '$TOP/iodash' view '$rec'; echo EXIT=\$?; sleep 30"
	tm_wait 'recording fio.rec' 60 || true
	sleep 2
	tm send-keys -t t q
	if tm_wait 'EXIT=' 60; then
		n=$(grep -c 'uninitialised' "$TMPD/vg.log")
		[ "$n" -eq 0 ] && grep -q 'ERROR SUMMARY: 0 errors' "$TMPD/vg.log" \
			&& pass "valgrind: view's screens read no uninitialised memory" \
			|| fail "valgrind: view's screens" "$n uninitialised reads: $(grep -m1 -A2 uninitialised "$TMPD/vg.log" | tr -s ' ' | tr '\n' ' ')"
	else
		fail "valgrind: view quits on q" "$(tm_screen | tail -2)"
	fi
	tm_stop
else
	skip "valgrind: view's screens" "no valgrind (make deps installs it)"
fi
