#!/usr/bin/env bash
# What a day of use tripped over on the screens (issue 29, part 2): the
# states view gives a finished recording, the header's figures, the room
# the panels get, the graphs' time axis, and the help's pointer to the
# manual.  Each check failed on the code before it.
. "$(dirname "$0")/lib.sh"
REC="$FIX/recordings/knobs-sweep-6.18.rec"

# A sweep recorded with the tracepoints, in a format before the samples'
# T records (its benchmark records hold the pauses), and killed: no end
# record, and nobody writes to it any more.
tm_start 120 40 "'$IODASH' view '$REC'; echo EXIT=\$?; sleep 30"
if tm_wait 'recording knobs-sweep-6\.18\.rec @ .* end, not closed' 5; then
	pass "view: a killed recording whose writer is gone says end, not closed"
else
	fail "view: end, not closed" "$(tm_screen | head -1)"
fi
if tm_screen | grep -q 'throttling is sampled'; then
	fail "view: the tracepoints' recording is not called sampled" "$(tm_screen | grep 'sampled')"
else
	tm_screen | grep -q "the kernel's pauses per run only" \
		&& pass "view: the tracepoints' recording is not called sampled, and says what it holds" \
		|| fail "view: what the throttle rows say" "$(tm_screen | sed -n 20,24p | tr -s ' ')"
fi
tm send-keys -t t q
tm_wait 'EXIT=0' 3 || fail "view quits on q" "$(tm_screen | tail -2)"
tm kill-server 2>/dev/null
sleep 0.3

# --batch --follow of it ends with its last line (it waited for ever)
timeout 10 "$IODASH" view --batch --follow "$REC" >"$TMPD/follow.txt" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q 'run_end' "$TMPD/follow.txt" \
	&& pass "view --batch --follow of a recording whose writer is gone ends (exit 0)" \
	|| fail "view --batch --follow, writer gone" "exit $rc (124: still following): $(tail -1 "$TMPD/follow.txt")"

# The header's time to freerun.  Traces of one real sample whose dirty
# level (a) rises 1000 pages a second from 10000 to freerun (49152), (b)
# stays at 20000 while the kernel dirties 1000 pages a second more than it
# writes (pages dirtied and deleted, as dbench's, are never written).
BASE="$FIX/proc-traces/idle-30s/samples/00000.txt"
python3 "$TOP/tests/e2e/mk_dirty_trace.py" "$BASE" "$TMPD/rise" 0.5 160 10000 1000 2000 1000
python3 "$TOP/tests/e2e/mk_dirty_trace.py" "$BASE" "$TMPD/flat" 0.5 160 20000 0 2000 1000
tm_start 120 40 "'$IODASH' -i 0.5 --proc-root '$TMPD/rise'; sleep 30"
if tm_wait 'freerun in [0-9.]+ s' 10; then
	pass "a level rising to freerun: the header says when it gets there ($(tm_screen | grep -o 'freerun in [0-9.]* s' | head -1))"
else
	fail "a rising level: freerun in" "$(tm_screen | sed -n 2p)"
fi
# 40x12: the dirty-limit hits keep their place, the forecast yields
tm resize-window -t t -x 40 -y 12
sleep 2.5
row=$(tm_screen | sed -n 2p)
echo "$row" | grep -q 'dirty-limit hits 0 (0\.0 s)' && ! echo "$row" | grep -q 'freerun in' \
	&& pass "40x12: the header keeps 'dirty-limit hits', the forecast yields" \
	|| fail "40x12: the header keeps the hits" "$row"
tm kill-server 2>/dev/null
sleep 0.3
tm_start 120 40 "'$IODASH' -i 0.5 --proc-root '$TMPD/flat'; sleep 30"
tm_wait '0:0[6-9] ' 12 || true
if tm_screen | grep -q 'freerun in'; then
	fail "a flat level: no time to freerun" "$(tm_screen | grep -o 'freerun in [0-9.]* s' | head -1)"
else
	pass "a flat level (the kernel dirtying more than it writes): no time to freerun"
fi
tm kill-server 2>/dev/null
sleep 0.3

# The pauses of a run that has ended: the header said its last
# "pauses N/s M ms/s" for ever; it says the machine's now, while writers
# pause.  Needs the tracepoints (root, tracefs).
if ! is_root; then
	skip "the pauses after a run" "needs root for the tracepoints"
else
	tm_start 120 40 "cd '$TMPD' && '$IODASH' run --no-record -- sh -c 'sleep 2'; echo EXIT=\$?; sleep 30"
	if ! tm_wait 'finished, exit status 0' 15; then
		fail "the pauses after a run: the run ends" "$(tm_screen | sed -n 1,2p)"
	elif tm_screen | grep -q 'throttling is sampled'; then
		skip "the pauses after a run" "the tracepoints cannot be used here"
	else
		sleep 1.5
		row=$(tm_screen | sed -n 2p)
		# a writer of the machine that pauses now is a fact worth its line
		if echo "$row" | grep -qE 'pauses 0/s|pauses [0-9]+/s 0 ms/s'; then
			fail "after the run, no stale pauses in the header" "$row"
		else
			pass "after the run, the header has no stale 'pauses 0/s 0 ms/s'"
		fi
	fi
	tm send-keys -t t q
	tm kill-server 2>/dev/null
fi

# The help's pointer to the manual says what works from where iodash
# runs ("man iodash" failed where the page is not installed).
help_line() { # DIR CMD...: the help overlay's title line of CMD run in DIR
	local d=$1; shift
	tm kill-server 2>/dev/null; sleep 0.3
	tm_start 120 40 "cd '$d' && $*; sleep 30"
	tm_wait 'iodash ' 5 || true
	tm send-keys -t t h
	tm_wait 'iodash keys' 5 || true
	tm_screen | grep -o 'iodash keys.*' | sed 's/  .*//'
}
mkdir -p "$TMPD/tree" "$TMPD/alone" "$TMPD/man/man1"
cp "$IODASH" "$TMPD/tree/iodash"; cp "$TOP/iodash.1" "$TMPD/tree/"
cp "$IODASH" "$TMPD/alone/iodash"; cp "$TOP/iodash.1" "$TMPD/man/man1/"
l=$(help_line "$TMPD/tree" ./iodash)
if [ "$l" = "iodash keys (more: man ./iodash.1)" ] && { ! command -v man >/dev/null || (cd "$TMPD/tree" && man -w ./iodash.1 >/dev/null); }; then
	pass "help from the build tree: $l (and that works there)"
else
	fail "help from the build tree says man ./iodash.1" "$l"
fi
l=$(help_line "$TMPD" "MANPATH='$TMPD/man' '$TMPD/alone/iodash'")
if ! command -v man >/dev/null; then
	skip "help where man finds the page" "no man here"
elif [ "$l" = "iodash keys (more: man iodash)" ] && MANPATH="$TMPD/man" man -w iodash >/dev/null; then
	pass "help where man finds the installed page: $l"
else
	fail "help where man finds the page says man iodash" "$l"
fi
l=$(help_line "$TMPD" "MANPATH='$TMPD/nothing' '$TMPD/alone/iodash'")
if MANPATH="$TMPD/nothing" man -w iodash >/dev/null 2>&1; then
	skip "help where no page is installed" "this machine has one"
elif echo "$l" | grep -q 'man iodash'; then
	fail "help where no page is installed does not say man iodash" "$l"
else
	pass "help where no page is installed: $l"
fi
tm kill-server 2>/dev/null

# 120 columns, no benchmark: the output and curves panels have nothing
# to show, the events do; the events get the room (they had 24 columns)
tm kill-server 2>/dev/null; sleep 0.3
tm_start 120 40 "'$IODASH' --proc-root '$TMPD/flat' -i 0.5; sleep 30"
# the room goes to the events once there is one: wait for the event, not
# for the panel's title (a loaded machine showed the title a frame before)
tm_wait '0:00 throttling is sampled' 10 || true
row=$(tm_screen | grep -m1 'Benchmark output')
col=$(echo "$row" | awk '{print index($0, "Events")}')
ev=$(tm_screen | grep -m1 -oE '0:00 throttling is sampled.*' | sed 's/ *$//')
if [ "${col:-0}" -gt 0 ] && [ "$col" -le 50 ] && [ "${#ev}" -ge 60 ]; then
	pass "120x40: the events get the room of the empty panels (from column $col, ${#ev} characters of the event)"
else
	fail "120x40: the events get the room" "Events at column $col; event line: $ev"
fi
tm kill-server 2>/dev/null

# A run of 2.5 s (the recorded sweep): its graphs had one or two columns
# of a 59-column graph, and no time axis.  The history now goes across
# the graph, with the session's times under it.
tm kill-server 2>/dev/null; sleep 0.3
tm_start 120 40 "'$IODASH' view '$REC'; sleep 30"
tm_wait 'end, not closed' 5 || true
tm_screen >"$TMPD/short.txt"
cols=$(python3 - "$TMPD/short.txt" <<'PY'
import sys
rows = open(sys.argv[1], encoding='utf-8').read().split('\n')[3:22]
used = set()
for r in rows:
    for x, ch in enumerate(r[:59]):
        if 0x2801 <= ord(ch) <= 0x28ff:
            used.add(x)
print(len(used))
PY
)
[ "${cols:-0}" -ge 20 ] && pass "a 2.5 s run's throughput goes across the graph ($cols of 59 columns)" \
	|| fail "a short run's graph goes across" "$cols columns drawn"
if grep -qE '^0:00 +0:01 +0:02' "$TMPD/short.txt" && grep -qE '^ {60}0:00 +0:01 +0:02' "$TMPD/short.txt"; then
	pass "the throughput and dirty graphs have a time axis ($(grep -m1 -oE '^0:00 +0:01 +0:02' "$TMPD/short.txt" | tr -s ' '))"
else
	fail "time axis under the graphs" "$(grep -nE '0:0[0-9] ' "$TMPD/short.txt" | head -3 | tr -s ' ')"
fi
tm kill-server 2>/dev/null
