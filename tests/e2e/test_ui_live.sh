#!/usr/bin/env bash
# The live screen in a real terminal (tmux): the dirty gauge and its three
# markers, the zone badge reading THROTTLE during the throttled span of the
# fio dirty-limit trace (samples 37..230, replayed at the recorded pace),
# the hit count, resize down to 20x5 and back, help, quit, themes; and the
# not-throttled trace never showing throttle.
. "$(dirname "$0")/lib.sh"
[ -x "$IODASH" ] || { skip "ui live" "./iodash not built"; exit 0; }
command -v tmux >/dev/null || { skip "ui live" "tmux missing"; exit 0; }
FIO="$FIX/proc-traces/dirty-bytes-256M-128M-fio-overwrite-4G-20s"
DD="$FIX/proc-traces/dirty-bytes-256M-128M-dd-newfile-4G-not-throttled"
export TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8

tm_start 120 40 "cd '$TMPD' && '$IODASH' -r 0.5 --no-record --proc-root '$FIO'; echo EXIT=\$?; sleep 60"
if tm_wait 'THROTTLE' 12; then pass "badge reads THROTTLE in the throttled span"; else fail "badge reads THROTTLE in the throttled span" "$(tm_screen | head -3)"; fi
scr=$(tm_screen)
# the gauge row carries the three markers, labelled under it
echo "$scr" | grep -q 'bg 128M' && echo "$scr" | grep -q 'freerun 192M' && echo "$scr" | grep -Eq 'thresh( 256M)?' \
	&& pass "gauge labels bg 128M, freerun 192M, thresh" || fail "gauge labels" "$(echo "$scr" | sed -n 3,6p)"
gauge=$(echo "$scr" | grep -m1 '█.*│.*│.*┃')
[ -n "$gauge" ] && pass "gauge bar with bg/freerun markers and the thresh marker" || fail "gauge bar markers"
# history: the three lines run to the right edge of the graph, where they are named
for l in thresh freerun bg; do
	echo "$scr" | grep -Eq "[^ ] $l *\$" && pass "history line $l labelled" || fail "history line $l labelled"
done
echo "$scr" | grep -Eq 'dirty-limit hits [1-9][0-9]* \([0-9.]+ s\)' && pass "hit count and time in header" || fail "hit count" "$(echo "$scr" | sed -n 2p)"
echo "$scr" | grep -q 'Dirty memory  dirty [0-9.]*M + writeback [0-9.]*M = [0-9.]*M of 256M' && pass "dirty title of 256M" || fail "dirty title"
# events: a hit that has ended is one line with its duration
# (the first episode of the trace ends at 12.6 s, closed 1 s later)
if tm_wait '[0-9]:[0-9][0-9] throttle [0-9]+\.[0-9]+s' 15; then pass "events: an ended hit is one line with its duration"
else fail "events: joined hit line" "$(tm_screen | sed -n '28,39p')"; fi
echo "$scr" | grep -q 'no benchmark attached' && pass "says no benchmark attached" || fail "no benchmark text"
echo "$scr" | grep -Eq '^vda +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+' && pass "disks table row for vda" || fail "disks table"
# throttled span shaded: shaded cells carry the shade background (256
# colours: 52, a dark red; issue 16: not grey 235, which black hides).  The graph adds whole cells (two refreshes each), so the
# shade may follow the badge by a couple of frames.
shaded=0
for _ in 1 2 3 4 5 6 7 8 9 10; do
	tm capture-pane -e -p -t t | grep -q '48;5;52m' && { shaded=1; break; }
	sleep 0.5
done
[ $shaded = 1 ] && pass "throttled span shaded" || fail "throttled span shaded"

tm resize-window -t t -x 80 -y 24; sleep 1.5
scr=$(tm_screen)
echo "$scr" | grep -q 'Dirty memory' && echo "$scr" | grep -q 'thresh' && echo "$scr" | grep -q '^Device' \
	&& pass "80x24 still shows dirty, thresholds, disks" || fail "80x24" "$(echo "$scr" | head -5)"
[ "$(echo "$scr" | wc -L)" -le 80 ] && pass "80x24 nothing beyond 80 columns" || fail "80x24 width"
tm resize-window -t t -x 20 -y 5; sleep 1.5
scr=$(tm_screen)
echo "$scr" | grep -Eq 'THROTTLE|HARD|bg|ok' && echo "$scr" | grep -q '█' && pass "20x5 shows badge and gauge" || fail "20x5" "$scr"
tm resize-window -t t -x 7 -y 2; sleep 1
tm resize-window -t t -x 120 -y 40; sleep 1.5
tm_screen | grep -q '^iodash ' && pass "back at 120x40 after 7x2" || fail "back at 120x40" "$(tm_screen | head -2)"

tm send-keys -t t h
tm_wait 'iodash keys' 3 && pass "help overlay" || fail "help overlay"
tm send-keys -t t x
sleep 1
tm_screen | grep -q 'iodash keys' && fail "help closes on a key" || pass "help closes on a key"
tm send-keys -t t 3; sleep 1
tm_screen | grep -q '^Device' && fail "3 hides the disks" || pass "3 hides the disks"
tm send-keys -t t 3 m Enter; sleep 1
tm_screen | grep -q 'mark 1' && pass "m puts a mark in the events" || fail "m mark"
tm send-keys -t t q
tm_wait 'EXIT=0' 5 && pass "q quits with 0" || fail "q quits" "$(tm_screen | tail -3)"
tm kill-server 2>/dev/null; sleep 0.3

# the not-throttled trace: 161 samples at 0.1 s; look every 0.5 s until it ends
# (through a link: the header shows the path, and a checkout's path may
# itself contain "throttle")
ln -s "$DD" "$TMPD/dd"
tm_start 120 40 "cd '$TMPD' && '$IODASH' -r 0.5 --no-record --proc-root dd; echo EXIT=\$?; sleep 60"
seen=0 ended=0
for ((i = 0; i < 50; i++)); do
	s=$(tm_screen)
	echo "$s" | grep -v 'throttling is sampl' | grep -qi 'throttl' && seen=1
	echo "$s" | grep -q 'replay ended\|sampling ended' && { ended=1; break; }
	sleep 0.5
done
[ $ended = 1 ] && pass "not-throttled trace played to its end" || fail "not-throttled trace end"
[ $seen = 0 ] && pass "not-throttled trace never shows throttle" || fail "not-throttled trace shows throttle"
tm_screen | grep -q 'dirty-limit hits 0 (0.0 s)' && pass "no hits counted" || fail "no hits" "$(tm_screen | sed -n 2p)"
tm send-keys -t t q
tm_wait 'EXIT=0' 5 && pass "q after the end quits with 0" || fail "q after end"
tm kill-server 2>/dev/null; sleep 0.3

# themes: each shipped one loads without a message; a broken one names file:line
for th in "$TOP"/themes/*.theme; do
	n=$(basename "$th" .theme)
	tm_start 100 30 "cd '$TMPD' && '$IODASH' --theme $n --no-record --proc-root '$FIO' 2>'$TMPD/err'; sleep 60"
	if tm_wait 'Dirty' 5 && ! tm_screen | grep -q 'using the'; then pass "theme $n loads"; else fail "theme $n loads" "$(tm_screen | tail -1)"; fi
	tm kill-server 2>/dev/null; sleep 0.3
done
printf 'title.fg = #87afd7\nline.thresh.fg = #12345\n' > "$TMPD/broken.theme"
tm_start 160 30 "cd '$TMPD' && '$IODASH' --theme '$TMPD/broken.theme' --no-record --proc-root '$FIO'; sleep 60"
tm_wait 'broken.theme:2: line.thresh.fg: bad colour' 5 && tm_screen | grep -q 'Dirty memory' \
	&& pass "broken theme: file:line on the status line, goes on" || fail "broken theme" "$(tm_screen | tail -1)"
tm kill-server 2>/dev/null; sleep 0.3
exit 0
