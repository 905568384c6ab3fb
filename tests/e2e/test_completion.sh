#!/usr/bin/env bash
# Bash completion (issue 17 §4): it loads, and completes commands, options,
# theme names, parser names and recordings from the iodash being completed.
. "$(dirname "$0")/lib.sh"
COMP="$TOP/completions/iodash"

if bash -c "source '$COMP' && complete -p iodash" >"$TMPD/out" 2>&1 && grep -q -- '-F _iodash iodash' "$TMPD/out"; then
	pass "completion: source it, complete -p iodash: $(cat "$TMPD/out")"
else
	fail "completion loads" "$(cat "$TMPD/out")"
fi

# complete WORDS...: what bash would offer for the last word, one a line
complete_words() {
	PATH="$(dirname "$IODASH"):$PATH" bash -c '
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_iodash
		printf "%s\n" "${COMPREPLY[@]}"' _ "$COMP" "$@" 2>&1
}
expect() { # NAME WANT WORDS...: the offers are exactly WANT (lines, sorted)
	local name=$1 want=$2 got
	shift 2
	got=$(complete_words "$@" | sort | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$want" ] && pass "completion: $name -> $got" || fail "completion: $name" "want '$want', got '$got'"
}
expect "iodash sw<TAB>" "sweep" iodash sw
expect "iodash re<TAB>" "report restore" iodash re
expect "iodash export --ta<TAB>" "--table" iodash export --ta
expect "iodash export --table <TAB>" "events results samples" iodash export --table ""
expect "iodash compare --parser f<TAB>" "fio" iodash compare --parser f
expect "iodash --theme high<TAB>" "high-contrast" iodash --theme high
mkdir -p "$TMPD/recs" && touch "$TMPD/recs/a.rec" "$TMPD/recs/b.rec" "$TMPD/recs/notes.txt"
expect "iodash view DIR/<TAB> (recordings)" "$TMPD/recs/a.rec $TMPD/recs/b.rec" iodash view "$TMPD/recs/"
# after --, the benchmark's command line: commands, not iodash's words
got=$(complete_words iodash run -- fio)
echo "$got" | grep -qx fio && ! echo "$got" | grep -qx sweep && pass "completion: iodash run -- fio<TAB> offers commands (fio)" ||
	fail "completion after --" "$(echo "$got" | head -3)"
