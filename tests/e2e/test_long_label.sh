#!/usr/bin/env bash
# A label or command line that the recording cannot hold is refused at the
# start, and what is accepted reads back as given (issue 32 point 3: an
# 8,200-byte label, or 2,100 control bytes escaped to 4 each, made the
# recording unreadable: "damaged header (a line longer than 8192 bytes)").
. "$(dirname "$0")/lib.sh"
cd "$TMPD" || exit 1

# refused: exit 2, one line, no recording, the benchmark never ran
refused() { # NAME LABEL
	rm -f "$TMPD/l.rec" "$TMPD/ran"
	"$IODASH" run --batch -i 0.1 -l "$2" -o "$TMPD/l.rec" -- touch "$TMPD/ran" >/dev/null 2>"$TMPD/err"
	local rc=$?
	if [ $rc -eq 2 ] && [ ! -e "$TMPD/l.rec" ] && [ ! -e "$TMPD/ran" ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] &&
		grep -q -- '-l: a label is at most 63 bytes' "$TMPD/err"; then
		pass "$1: refused at the start (exit 2, no recording)"
	else
		fail "$1: refused at the start" "rc=$rc rec=$([ -e "$TMPD/l.rec" ] && echo yes || echo no) $(head -c 300 "$TMPD/err")"
		# what the old code left: can it be read?
		[ -e "$TMPD/l.rec" ] && "$IODASH" export --json "$TMPD/l.rec" >/dev/null 2>"$TMPD/err2" ||
			echo "  the recording reads as: $(head -c 200 "$TMPD/err2")"
	fi
}
refused "-l of 8,200 characters" "$(head -c 8200 /dev/zero | tr '\0' x)"
refused "-l of 2,100 control bytes" "$(head -c 2100 /dev/zero | tr '\0' '\001')"
refused "-l of 64 bytes" "$(head -c 64 /dev/zero | tr '\0' y)"

# the longest label taken, with control bytes, reads back as given
LABEL=$(printf 'k%.0s' $(seq 55); printf '\001\002\t\\ab')
"$IODASH" run --batch -i 0.1 -l "$LABEL" -o "$TMPD/ok.rec" -- true >/dev/null 2>"$TMPD/err"; rc=$?
got=$("$IODASH" export --json "$TMPD/ok.rec" 2>>"$TMPD/err" |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["header"]["label"], end="")' 2>>"$TMPD/err")
if [ $rc -eq 0 ] && [ "$got" = "$LABEL" ]; then
	pass "a 63-byte label with control bytes reads back as given"
else
	fail "a 63-byte label reads back" "rc=$rc got=$(printf '%q' "$got") $(head -c 300 "$TMPD/err")"
fi

