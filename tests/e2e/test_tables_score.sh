#!/usr/bin/env bash
# Issue 28: how many hand-written facts `iodash compare` reads from real posts
# and benchmark outputs (tests/fixtures/tables/, split at random into a working
# half and a checking half; README.md there says how).  The working half is
# held to its FLOOR file: never fewer facts found, never more misread or
# derived labels than the reader that is built reached when the floor was
# written (the issue's target is every fact found and 0 wrong; the floor is
# raised as the reader gets there).  The checking half is only scored and
# printed: it is the measure of posts the reader was not built on.
. "$(dirname "$0")/lib.sh"
T="$FIX/tables"
SCORE="$TOP/tests/e2e/score_tables.py"

if ! command -v python3 >/dev/null; then
	skip "tables score" "python3 is not installed"
	exit 0
fi

# score DIR: the scorer's totals line, the per-fact lines kept in $TMPD/DIR.txt
score() {
	python3 "$SCORE" "$T/$1" "$IODASH" >"$TMPD/$1.txt" 2>&1 || { echo "scorer failed"; return; }
	tail -n 1 "$TMPD/$1.txt"
}

w=$(score work)
read -r found total misread derived < <(echo "$w" | sed -E 's/^score: ([0-9]+) of ([0-9]+) found; ([0-9]+) misread; ([0-9]+) derived$/\1 \2 \3 \4/')
read -r f_found f_misread f_derived < <(sed -E 's/^found ([0-9]+) misread ([0-9]+) derived ([0-9]+)$/\1 \2 \3/' "$T/work/FLOOR")
echo "working half: $w (floor: $f_found found, $f_misread misread, $f_derived derived; target: all found, 0 wrong)"
if [[ ! "$found" =~ ^[0-9]+$ ]]; then
	fail "tables score: working half" "no score: $w"
elif [ "$found" -lt "$f_found" ] || [ "$misread" -gt "$f_misread" ] || [ "$derived" -gt "$f_derived" ]; then
	fail "tables score: working half" "below its floor; the facts missed:"
	cat "$TMPD/work.txt"
else
	pass "tables score: working half at or above its floor ($found of $total)"
fi

c=$(score check)
echo "checking half (not built on; scored, not asserted): $c"
if [[ "$c" =~ ^score: ]]; then
	pass "tables score: checking half scored"
else
	fail "tables score: checking half" "no score: $c"
fi
