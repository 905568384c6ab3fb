#!/usr/bin/env bash
# What the readers do with files that are not (only) a recording: a 2 GB
# sparse file is refused at byte 0 without reading it (view, export,
# compare, report; max RSS from /usr/bin/time -v under 10 MB), a recording
# followed by 2 GB of zeros reads as the recording with a note naming the
# byte where the zeros start, and two recordings joined with cat read as
# the first, with the byte where the second starts.  No timing is
# asserted (bench/ measures speed).
. "$(dirname "$0")/lib.sh"
REC="$FIX/recordings/knobs-sweep-6.18.rec"
TIME=/usr/bin/time
if [ ! -x $TIME ]; then
	skip "readers: memory of a 2 GB sparse file" "no /usr/bin/time (Debian package time)"
	exit 0
fi

# max RSS in KB of CMD..., its stderr in $TMPD/err
rss_of() {
	$TIME -v -o "$TMPD/time" "$@" >"$TMPD/out" 2>"$TMPD/err"
	sed -n 's/.*Maximum resident set size (kbytes): //p' "$TMPD/time"
}

truncate -s 2G "$TMPD/sparse.rec"
for c in "view --batch" "export --csv" "compare --text" "report -o $TMPD/r.html"; do
	# shellcheck disable=SC2086
	kb=$(rss_of "$IODASH" $c "$TMPD/sparse.rec")
	if [ -z "$kb" ] || [ "$kb" -ge 10240 ]; then
		fail "$c of a 2 GB sparse file: under 10 MB" "max RSS ${kb:-?} KB"
	elif ! grep -q "sparse.rec: byte 0: " "$TMPD/err"; then
		fail "$c of a 2 GB sparse file: refused at byte 0" "$(head -2 "$TMPD/err")"
	else
		pass "$c of a 2 GB sparse file: refused at byte 0 in ${kb} KB"
	fi
	echo "   $c: $(grep -E 'Elapsed|Maximum res' "$TMPD/time" | tr -s ' \t' ' ' | paste -sd';')"
done

# a recording, then 2 GB of zeros
cp "$REC" "$TMPD/tail.rec"
size=$(stat -c %s "$TMPD/tail.rec")
truncate -s +2G "$TMPD/tail.rec"
"$IODASH" export --csv "$REC" >"$TMPD/want.csv" 2>/dev/null
for c in "export --csv" "view --batch"; do
	# shellcheck disable=SC2086
	kb=$(rss_of "$IODASH" $c "$TMPD/tail.rec")
	if [ -z "$kb" ] || [ "$kb" -ge 20480 ]; then
		fail "$c of a recording + 2 GB of zeros: no more than the recording held" "max RSS ${kb:-?} KB"
	elif ! grep -q "tail.rec: byte $size: a line longer than any record" "$TMPD/err"; then
		fail "$c of a recording + 2 GB of zeros: says where the zeros start" "$(head -2 "$TMPD/err")"
	else
		pass "$c of a recording + 2 GB of zeros: read up to byte $size in ${kb} KB"
	fi
done
"$IODASH" export --csv "$TMPD/tail.rec" 2>/dev/null | cmp -s - "$TMPD/want.csv" &&
	pass "export of a recording + zeros: the same rows as the recording" ||
	fail "export of a recording + zeros: the same rows as the recording"

# two recordings joined with cat
cat "$REC" "$REC" >"$TMPD/joined.rec"
"$IODASH" export --csv --table results "$TMPD/joined.rec" >"$TMPD/j.csv" 2>"$TMPD/err"
"$IODASH" export --csv --table results "$REC" >"$TMPD/one.csv" 2>/dev/null
if cmp -s "$TMPD/j.csv" "$TMPD/one.csv" && grep -q "joined.rec: byte $size: a second recording starts here" "$TMPD/err"; then
	pass "two recordings joined with cat: the first read once, the second's byte named"
else
	fail "two recordings joined with cat: the first read once, the second's byte named" \
		"$(wc -l <"$TMPD/j.csv") rows against $(wc -l <"$TMPD/one.csv"); $(head -2 "$TMPD/err")"
fi
"$IODASH" export --csv "$TMPD/joined.rec" 2>/dev/null | awk -F, 'NR > 1 && $1 + 0 < last { back = 1 } NR > 1 { last = $1 + 0 } END { exit back }' &&
	pass "two recordings joined with cat: time never runs backwards" ||
	fail "two recordings joined with cat: time never runs backwards"
