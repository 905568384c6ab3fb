#!/usr/bin/env bash
# The config file (issue 17 §2): $XDG_CONFIG_HOME/iodash/config sets the
# defaults of interval, refresh, theme, record_dir, throttle_gap; options
# win over it; --config FILE; a bad line is an error naming it, exit 2.
. "$(dirname "$0")/lib.sh"
export XDG_CONFIG_HOME="$TMPD/xdg"
mkdir -p "$XDG_CONFIG_HOME/iodash" "$TMPD/recs"
cat >"$XDG_CONFIG_HOME/iodash/config" <<CFG
# my defaults
interval = 0.05
theme = light
refresh = 0.5
record_dir = $TMPD/recs
CFG

# interval: 3 samples 0.05 s apart end near 0.10 s (the default 0.5 s: 1.00)
last=$("$IODASH" --batch --count 3 --no-publish --no-trace 2>"$TMPD/err" | awk '$1 ~ /^[0-9]/ { t = $1 } END { print t }')
awk -v t="$last" 'BEGIN { exit !(t != "" && t < 0.45) }' && pass "config: interval = 0.05 (3 samples end at $last s)" ||
	fail "config: interval" "last sample at '$last' $(cat "$TMPD/err")"
# an option wins over the file
last=$("$IODASH" -i 0.2 --batch --count 3 --no-publish --no-trace 2>"$TMPD/err" | awk '$1 ~ /^[0-9]/ { t = $1 } END { print t }')
awk -v t="$last" 'BEGIN { exit !(t != "" && t >= 0.35) }' && pass "config: -i 0.2 wins over it (ends at $last s)" ||
	fail "config: -i wins" "last sample at '$last'"

# theme (and refresh): the live screen's status says which
tm_start 120 40 "XDG_CONFIG_HOME='$XDG_CONFIG_HOME' '$IODASH' --no-publish --no-trace"
if tm_wait 'light +refresh 0.5s' 15; then
	pass "config: theme = light and refresh = 0.5 on the screen"
else
	fail "config: theme on the screen" "$(tm_screen | grep -m1 refresh)"
fi
tm send-keys -t t q

# record_dir: run's default recording goes there, not to the current directory
(cd "$TMPD" && "$IODASH" --batch --no-publish --no-trace run -- true >/dev/null 2>"$TMPD/run.err"); rc=$?
rec=$(ls "$TMPD/recs"/iodash-*.rec 2>/dev/null | head -1)
[ $rc -eq 0 ] && [ -n "$rec" ] && [ -z "$(ls "$TMPD"/iodash-*.rec 2>/dev/null)" ] &&
	pass "config: record_dir: the recording went to $TMPD/recs" ||
	fail "config: record_dir" "rc=$rc $(cat "$TMPD/run.err")"

# errors: the file and line, exit 2, nothing started
printf 'interval = 0.1\nintervall = 0.2\n' >"$TMPD/typo"
"$IODASH" --config "$TMPD/typo" --batch --count 1 >"$TMPD/out" 2>"$TMPD/err"; rc=$?
[ $rc -eq 2 ] && grep -q "^iodash: $TMPD/typo:2: unknown key 'intervall'" "$TMPD/err" && [ ! -s "$TMPD/out" ] &&
	pass "config: an unknown key: FILE:2, exit 2" || fail "config: unknown key" "rc=$rc $(cat "$TMPD/err")"
printf '# ok\n\ntheme = mono\ninterval = fast\n' >"$TMPD/badval"
"$IODASH" --config="$TMPD/badval" --batch --count 1 >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 2 ] && grep -q "$TMPD/badval:4: interval: .*'fast'" "$TMPD/err" &&
	pass "config: a bad value: FILE:4, exit 2" || fail "config: bad value" "rc=$rc $(cat "$TMPD/err")"
printf 'just words\n' >"$TMPD/noeq"
"$IODASH" --config "$TMPD/noeq" --batch --count 1 >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 2 ] && grep -q "noeq:1: not 'key = value'" "$TMPD/err" && pass "config: a line without '=': exit 2" ||
	fail "config: no =" "rc=$rc $(cat "$TMPD/err")"
"$IODASH" --config "$TMPD/missing" --batch --count 1 >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'missing' "$TMPD/err" && pass "config: --config of a missing file: exit 2" ||
	fail "config: missing --config" "rc=$rc"
# no file of one's own is no error
XDG_CONFIG_HOME="$TMPD/empty" HOME="$TMPD/empty" "$IODASH" --batch --count 1 --no-publish --no-trace >/dev/null 2>"$TMPD/err" &&
	pass "config: none at all is fine" || fail "config: none" "$(cat "$TMPD/err")"

# themes: the user's directory ($XDG_CONFIG_HOME/iodash/themes) comes
# first, so a user theme "light" overrides the shipped one; a broken one
# shows it was the user's that was read
mkdir -p "$XDG_CONFIG_HOME/iodash/themes"
printf 'status.fg = #nonsense\n' >"$XDG_CONFIG_HOME/iodash/themes/light.theme"
tm kill-server 2>/dev/null
tm_start 160 40 "XDG_CONFIG_HOME='$XDG_CONFIG_HOME' '$IODASH' --no-publish --no-trace --theme light"
if tm_wait "iodash/themes/light.theme:1" 15; then
	pass "themes: \$XDG_CONFIG_HOME/iodash/themes/light.theme overrides the shipped light"
else
	fail "themes: the user's light.theme first" "$(tm_screen | tail -2)"
fi
tm send-keys -t t q
tm kill-server 2>/dev/null
rm -r "$XDG_CONFIG_HOME/iodash/themes"

# NO_COLOR (no-color.org): no colour escapes on the screen; without it, some
colours() { tm capture-pane -e -p -t t | grep -o $'\e\[[0-9;]*[34]8;[25];' | wc -l; }
tm_start 120 40 "XDG_CONFIG_HOME='$XDG_CONFIG_HOME' '$IODASH' --no-publish --no-trace --theme default"
tm_wait 'refresh' 15
with=$(colours)
tm send-keys -t t q
tm kill-server 2>/dev/null
tm_start 120 40 "NO_COLOR=1 XDG_CONFIG_HOME='$XDG_CONFIG_HOME' '$IODASH' --no-publish --no-trace --theme default"
tm_wait 'refresh' 15
without=$(colours)
tm send-keys -t t q
[ "$with" -gt 0 ] && [ "$without" -eq 0 ] && pass "NO_COLOR: no colour escapes ($with without it)" ||
	fail "NO_COLOR" "colour escapes: $with without NO_COLOR, $without with it"

# where the recording goes is said when it starts, and a recording on the
# filesystem the benchmark writes to is warned about
mkdir -p "$TMPD/bench"
(cd "$TMPD" && XDG_CONFIG_HOME="$TMPD/empty" "$IODASH" --batch --no-publish --no-trace run -- sh -c true "$TMPD/bench/file" \
	>"$TMPD/place.out" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q '^= 0.00 note: recording to iodash-.*\.rec$' "$TMPD/place.out" &&
   grep -q "^= 0.00 note: warning: the recording is on the filesystem of $TMPD/bench/file, which the benchmark writes to" "$TMPD/place.out"; then
	pass "recording place: said at the start, warned when on the benchmark's filesystem"
else
	fail "recording place" "rc=$rc $(grep note "$TMPD/place.out" | head -3)"
fi
other=/dev/shm
if [ -d "$other" ] && [ -w "$other" ] && [ "$(stat -c %d "$other")" != "$(stat -c %d "$TMPD")" ]; then
	d=$(mktemp -d "$other/iodash-e2e.XXXXXX")
	cleanup_add "rm -rf '$d'"
	(cd "$TMPD" && XDG_CONFIG_HOME="$TMPD/empty" "$IODASH" --batch --no-publish --no-trace --record-dir "$d" run -- \
		sh -c true "$TMPD/bench/file" >"$TMPD/place2.out" 2>&1); rc=$?
	[ $rc -eq 0 ] && grep -q "^= 0.00 note: recording to $d/iodash-" "$TMPD/place2.out" && ! grep -q 'warning: the recording' "$TMPD/place2.out" &&
		pass "recording place: --record-dir on another filesystem: no warning" ||
		fail "recording place elsewhere" "rc=$rc $(grep note "$TMPD/place2.out" | head -3)"
else
	skip "recording place on another filesystem" "no writable $other on a filesystem of its own"
fi

# another user's HOME (setpriv, sudo): a config file this user cannot even
# see is no config, not an error
if is_root && command -v setpriv >/dev/null; then
	mkdir -p "$TMPD/private/.config/iodash" && echo 'interval = 0.05' >"$TMPD/private/.config/iodash/config"
	chmod 700 "$TMPD/private"
	HOME="$TMPD/private" XDG_CONFIG_HOME= setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$IODASH" --batch --count 1 --no-publish --no-trace >"$TMPD/nobody.out" 2>"$TMPD/nobody.err"; rc=$?
	[ $rc -eq 0 ] && grep -q '^0.00 ' "$TMPD/nobody.out" && pass "config: one the user cannot see (another's HOME) is ignored" ||
		fail "config: another user's HOME" "rc=$rc $(cat "$TMPD/nobody.err")"
else
	skip "config: another user's HOME" "needs root and setpriv"
fi
