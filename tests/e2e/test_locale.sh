#!/usr/bin/env bash
# Numbers are a machine format: under a decimal-comma locale (de_DE.UTF-8)
# every output that a program reads (--batch, recordings, export, compare)
# is byte for byte what the C locale gives, and input numbers (-i 0.1, a
# benchmark's "1014.20") read the same.  Only LC_CTYPE comes from the
# environment.  The locale is generated here into a private LOCPATH, so
# the test needs no root and changes nothing on the machine.
. "$(dirname "$0")/lib.sh"
T="$FIX/proc-traces"
FIO="$T/dirty-bytes-256M-128M-fio-overwrite-4G-20s"
DB="$FIX/bench-output/dbench/dbench-t10-4clients.txt"

if ! command -v localedef >/dev/null || [ ! -f /usr/share/i18n/locales/de_DE ]; then
	skip "decimal-comma locale" "no localedef or /usr/share/i18n/locales/de_DE (Debian package 'locales'; make deps installs it)"
	exit 0
fi
mkdir -p "$TMPD/locale"
if ! localedef -i de_DE -f UTF-8 "$TMPD/locale/de_DE.UTF-8" 2>"$TMPD/localedef.err"; then
	fail "generate de_DE.UTF-8" "$(head -1 "$TMPD/localedef.err")"
	exit 0
fi
dp=$(LOCPATH="$TMPD/locale" LC_ALL=de_DE.UTF-8 locale -k decimal_point 2>/dev/null)
[ "$dp" = 'decimal_point=","' ] && pass "de_DE.UTF-8 generated: its decimal point is a comma" \
	|| { fail "de_DE.UTF-8 generated" "decimal point: $dp"; exit 0; }
# Run a command under the C locale (c) or the comma locale (de).
c() { env -u LANGUAGE LC_ALL=C "$@"; }
de() { env -u LANGUAGE LOCPATH="$TMPD/locale" LC_ALL=de_DE.UTF-8 "$@"; }
# same NAME CMD...: the command's stdout and exit status are the same under both
same() {
	local n=$1; shift
	c "$@" >"$TMPD/c.out" 2>"$TMPD/c.err"; local rc=$?
	de "$@" >"$TMPD/de.out" 2>"$TMPD/de.err"; local rd=$?
	if [ $rc -eq $rd ] && [ -s "$TMPD/c.out" ] && cmp -s "$TMPD/c.out" "$TMPD/de.out"; then
		pass "$n: the same $(wc -c <"$TMPD/c.out") bytes under C and de_DE.UTF-8"
	else
		fail "$n: differs under de_DE.UTF-8" "exit $rc/$rd; $(diff "$TMPD/c.out" "$TMPD/de.out" | sed -n 2,3p | tr '\n' ' ')"
	fi
}

# The same lines, each byte for byte, in any order: for a --fast replay,
# where an episode's end (known only a --throttle-gap after its last
# pause, stamped with its own time) lands in the output wherever the chunk
# that brings it falls, run to run, locale or not.
same_lines() {
	local n=$1; shift
	c "$@" >"$TMPD/c.out" 2>"$TMPD/c.err"; local rc=$?
	de "$@" >"$TMPD/de.out" 2>"$TMPD/de.err"; local rd=$?
	if [ $rc -eq $rd ] && [ -s "$TMPD/c.out" ] && cmp -s <(sort "$TMPD/c.out") <(sort "$TMPD/de.out"); then
		pass "$n: the same $(wc -l <"$TMPD/c.out") lines, byte for byte, under C and de_DE.UTF-8"
	else
		fail "$n: differs under de_DE.UTF-8" "exit $rc/$rd; $(diff <(sort "$TMPD/c.out") <(sort "$TMPD/de.out") | sed -n 2,3p | tr '\n' ' ')"
	fi
}

# input: -i 0.1 and --duration 0.5 read as in C
out=$(de "$IODASH" --batch -i 0.1 --count 3 2>&1); rc=$?
n=$(echo "$out" | grep -c '^[0-9]*\.[0-9][0-9] ')
[ $rc -eq 0 ] && [ "$n" -eq 3 ] && pass "de: -i 0.1 --count 3 gives 3 sample lines with a decimal point" \
	|| fail "de: -i 0.1 accepted" "exit $rc: $(echo "$out" | head -2)"

# --batch over a recorded trace
same_lines "--batch --fast --proc-root (fio trace)" "$IODASH" --batch --fast --count 120 --proc-root "$FIO"

# a benchmark's "1014.20" parses as 1014.2, and the recording keeps points
rec="$TMPD/de.rec"
de "$IODASH" run --batch -i 0.1 -o "$rec" --parser dbench -- \
	sh -c "sleep 0.3; cat '$DB'; echo 'Throughput 1014.20 MB/sec  4 clients  4 procs  max_latency=16.379 ms'; sleep 0.2" \
	>"$TMPD/run.out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^= [0-9.]* result: .* clients=4 throughput=1014.2 MB/s$' "$TMPD/run.out" \
	&& pass "de: dbench's 'Throughput 1014.20 MB/sec' reads as 1014.2" \
	|| fail "de: dbench's 1014.20 reads as 1014.2" "exit $rc: $(grep result: "$TMPD/run.out" | head -2 | tr '\n' ' ')"
grep -q $'^H\tinterval\t0.1\t' "$rec" && pass "de: the recording's header says interval 0.1" \
	|| fail "de: recording header interval" "$(grep $'^H\tinterval' "$rec")"
bad=$(grep -P '^[SDRB]\t' "$rec" 2>/dev/null | grep -cP '\t-?[0-9]+,[0-9]+(\t|$)')
ns=$(grep -c $'^S\t' "$rec" 2>/dev/null)
[ "${bad:-0}" -eq 0 ] && [ "${ns:-0}" -ge 4 ] && pass "de: no decimal comma in $ns samples and the other records" \
	|| fail "de: decimal commas in the recording" "$bad records"

# readers of a recording: the same bytes under both locales
same "export --csv" "$IODASH" export --csv "$rec"
same "export --csv --table results" "$IODASH" export --csv --table results "$rec"
same "export --ndjson" "$IODASH" export --ndjson "$rec"
same "export --json" "$IODASH" export --json "$rec"
same "view --batch" "$IODASH" view --batch "$rec"
same "compare --text (recording)" "$IODASH" compare --text "$rec"
same "compare --csv (recording)" "$IODASH" compare --csv "$rec"
same "compare --json (recording and mail)" "$IODASH" compare --json "$rec" "$FIX/lkml/dbench-2.4.16-vs-2.4.17pre2.txt"
same "compare --text (mail tables)" "$IODASH" compare --text "$FIX/lkml/iozone-dirty-ratio-2.6.24.txt"

# the live screen (curses) under the comma locale records the same way
rec2="$TMPD/screen.rec"
tm_start 100 30 "env LOCPATH='$TMPD/locale' LC_ALL=de_DE.UTF-8 '$IODASH' -i 0.1 --count 8 -o '$rec2'; sleep 30"
tm_wait 'sampling ended' 10 || fail "de: the live screen ends its sampling" "$(tm_screen | head -3 | tr '\n' ' ')"
tm send-keys -t t q
for i in $(seq 50); do [ "$(grep -c $'^S\t' "$rec2" 2>/dev/null)" = 8 ] && break; sleep 0.1; done
bad=$(grep -P '^[SDRB]\t' "$rec2" 2>/dev/null | grep -cP '\t-?[0-9]+,[0-9]+(\t|$)')
ns=$(grep -c $'^S\t' "$rec2" 2>/dev/null)
[ "${ns:-0}" -eq 8 ] && [ "${bad:-0}" -eq 0 ] && grep -q $'^H\tinterval\t0.1\t' "$rec2" \
	&& pass "de: the live screen's recording has decimal points ($ns samples)" \
	|| fail "de: the live screen's recording" "${ns:-0} samples, ${bad:-0} with commas: $(grep -m1 $'^S\t' "$rec2" 2>/dev/null | cut -c1-60)"

# part of the suite, with iodash itself under the comma locale (the test
# scripts' own awk and bc stay in theirs): every check passes as in C
cat >"$TMPD/iodash-de" <<EOS
#!/bin/sh
LOCPATH='$TMPD/locale' LC_ALL=de_DE.UTF-8 exec '$IODASH' "\$@"
EOS
chmod +x "$TMPD/iodash-de"
for t in test_compare test_record; do
	IODASH="$TMPD/iodash-de" timeout 300 bash "$TOP/tests/e2e/$t.sh" >"$TMPD/$t.log" 2>&1
	p=$(grep -c '^PASS: ' "$TMPD/$t.log"); f=$(grep -c '^FAIL: ' "$TMPD/$t.log")
	[ "$f" -eq 0 ] && [ "$p" -gt 5 ] && pass "$t.sh with iodash under de_DE.UTF-8: $p passed, 0 failed" \
		|| fail "$t.sh with iodash under de_DE.UTF-8" "$f failed: $(grep -m2 '^FAIL: ' "$TMPD/$t.log" | tr '\n' ' ')"
done
