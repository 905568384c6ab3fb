#!/usr/bin/env bash
# compare on text sources (issue 20): --parser is honoured, two files of one
# name in two directories stay two labels, a long name is not cut into
# another's label, an empty file is said to be empty.
. "$(dirname "$0")/lib.sh"
BO="$FIX/bench-output"

# a sysbench 0.4.12 report cut out of a log, without its banner: nothing
# names the tool, so only --parser sysbench reads it
sed -n 22,38p "$BO/sysbench/vpscmp-sysbench-0.4.12-randrw-runs.log" >"$TMPD/cut.txt"
"$IODASH" compare --csv --parser sysbench "$TMPD/cut.txt" >"$TMPD/out" 2>"$TMPD/err"; rc=$?
if [ $rc -eq 0 ] && grep -q '^total_bw,MiB/s,threads,1,cut,,1,1,17.81,' "$TMPD/out"; then
	pass "compare --parser sysbench reads a report no line of which names the tool"
else fail "compare --parser sysbench" "rc=$rc $(head -3 "$TMPD/out") $(cat "$TMPD/err")"; fi
"$IODASH" compare --csv --parser bonnie "$BO/fio/fio-3.33-three-groups.json" >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'by the bonnie parser' "$TMPD/err" && pass "compare --parser bonnie on fio JSON: the bonnie parser was used" \
	|| fail "compare --parser not honoured" "rc=$rc $(cat "$TMPD/err")"

# one file name in two directories: two labels "a/fio" and "b/fio"
mkdir -p "$TMPD/a" "$TMPD/b"
cp "$BO/fio/fio-randread-direct.json" "$TMPD/a/fio.json"
cp "$BO/fio/fio-seqwrite-buffered.json" "$TMPD/b/fio.json"
"$IODASH" compare --csv "$TMPD/a/fio.json" "$TMPD/b/fio.json" >"$TMPD/out" 2>"$TMPD/err"
if grep -q '^read_bw,.*,fio,,1,1,383469,' "$TMPD/out" && grep -q '^write_bw,.*,b/fio,,1,1,1323592,' "$TMPD/out"; then
	pass "compare: same file name in two directories gives two labels"
else fail "compare same-name sources" "$(cat "$TMPD/out" "$TMPD/err")"; fi

# two long names that share their first 63 characters
long=$(printf 'fio-randread-direct-on-the-test-box-in-the-lab-with-kernel-6.18.44-fc-v10')
cp "$BO/fio/fio-randread-direct.json" "$TMPD/${long}45.json"
cp "$BO/fio/fio-seqwrite-buffered.json" "$TMPD/${long}47.json"
"$IODASH" compare --csv "$TMPD/${long}45.json" "$TMPD/${long}47.json" >"$TMPD/out" 2>"$TMPD/err"
n=$(grep -c '^read_bw,' "$TMPD/out")
if [ "$n" = 1 ] && grep -q '^write_bw,' "$TMPD/out" && ! grep -q 'note:' "$TMPD/err" &&
	[ "$(cut -d, -f5 "$TMPD/out" | grep -c '~')" -ge 2 ]; then
	pass "compare: two long file names stay two labels"
else fail "compare long names merged" "$(cat "$TMPD/out" "$TMPD/err")"; fi

# a label two sources give is said and kept apart (LABEL#2), never pooled
cp "$FIX/lkml/dbench-2.4.16-vs-2.4.17pre2.txt" "$TMPD/a/mail.txt"
cp "$FIX/lkml/dbench-2.4.16-vs-2.4.17pre2.txt" "$TMPD/b/mail.txt"
"$IODASH" compare --csv "$TMPD/a/mail.txt" "$TMPD/b/mail.txt" >"$TMPD/out" 2>"$TMPD/err"
grep -q 'note: .*b/mail.txt: label "2.4.16" is also in .*a/mail.txt: shown apart as "2.4.16#2"' "$TMPD/err" &&
	grep -q ',2\.4\.16#2,' "$TMPD/out" \
	&& pass "compare: a label from two sources is said" || fail "compare pooled silently" "$(cat "$TMPD/err")"

: >"$TMPD/empty.txt"
"$IODASH" compare --text "$TMPD/empty.txt" >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'empty.txt: empty file' "$TMPD/err" && ! grep -q 'mail parser' "$TMPD/err" \
	&& pass "compare: an empty file is said to be empty" || fail "compare empty file" "rc=$rc $(cat "$TMPD/err")"

# a mail's tables: --text says where each came from; --explain says how each
# was read; a table not understood is said whatever the output
M="$FIX/mail/sockmem-tbench4-netperf-2023.txt"
"$IODASH" compare --text "$M" >"$TMPD/out" 2>"$TMPD/err"; rc=$?
if [ $rc -eq 0 ] && grep -q "^  $M:18-27: table 1: 10 rows; labels baseline, patchset; x x; metric tbench4_hmean; .*; 20 read, 0 not read; 10 stated changes checked$" "$TMPD/out" &&
	grep -q "^  $M:52-60: table 3: 9 rows; .*metric netperf-tcp_hmean; .*; 9 stated changes checked$" "$TMPD/out"; then
	pass "compare --text: each mail table with its lines"
else fail "compare --text table sources" "rc=$rc $(tail -5 "$TMPD/out")"; fi
"$IODASH" compare --csv --explain "$M" >/dev/null 2>"$TMPD/err"
[ "$(grep -c "^iodash: $M:[0-9]*-[0-9]*: table [123]: .* rows; labels baseline, patchset; x x; metric " "$TMPD/err")" = 3 ] && pass "compare --explain: how each table was read, on stderr" \
	|| fail "compare --explain" "$(cat "$TMPD/err")"
sed 17d "$M" >"$TMPD/noheader.txt"
"$IODASH" compare --csv "$TMPD/noheader.txt" >/dev/null 2>"$TMPD/err"; rc=$?
[ $rc -eq 0 ] && grep -q "noheader.txt:17-26: lines 17-26: 2 value columns under .* and no header to tell them apart: not read" "$TMPD/err" \
	&& pass "compare: a table not understood is said with its lines" || fail "compare table not understood" "rc=$rc $(cat "$TMPD/err")"
