#!/usr/bin/env bash
# Nothing from outside writes an escape sequence to the terminal: a label
# and a file name with ESC and BEL in compare --text, a --proc-root disk
# name in the --batch header.  Every such byte reaches stdout as \xHH.
. "$(dirname "$0")/lib.sh"
EVIL=$'evil\e]2;x\a\e[2J'
esc_count() { tr -cd '\033\007\233' <"$1" | wc -c; }

# a text source whose file name carries the escapes (its default label)
D="$FIX/bench-output/dbench"
cp "$D/dbench-t10-4clients.txt" "$TMPD/$EVIL.txt"
cp "$D/dbench-t10-2clients.txt" "$TMPD/plain.txt"
"$IODASH" compare --text "$TMPD/$EVIL.txt" "$TMPD/plain.txt" >"$TMPD/c.out" 2>"$TMPD/c.err"; rc=$?
n=$(esc_count "$TMPD/c.out") e=$(esc_count "$TMPD/c.err")
if [ $rc -ne 0 ]; then
	fail "compare --text: a file name with escapes" "rc=$rc $(head -2 "$TMPD/c.err" | cat -v)"
elif [ "$n" -ne 0 ] || [ "$e" -ne 0 ]; then
	fail "compare --text: no ESC or BEL from a file name" "$n on stdout, $e on stderr"
elif ! grep -qF 'evil\x1b]2;x\x07\x1b[2J' "$TMPD/c.out"; then
	fail "compare --text: the label shown escaped" "$(grep -a evil "$TMPD/c.out" | head -1 | cat -v)"
else
	pass "compare --text: a file name with escapes is shown as \\x1b, none reaches stdout"
fi

# a recording labelled with the escapes (-l), and a missing file so named
T="$FIX/proc-traces/dbench-t10-4clients"
"$IODASH" run --proc-root "$T" --batch --fast --count 20 -l "$EVIL" -o "$TMPD/l.rec" \
	-- cat "$T/writer-output.txt" >/dev/null 2>"$TMPD/r.err"
if [ -s "$TMPD/l.rec" ]; then
	"$IODASH" compare --text "$TMPD/l.rec" "$TMPD/plain.txt" >"$TMPD/l.out" 2>"$TMPD/l.err"
	n=$(esc_count "$TMPD/l.out")
	[ "$n" -eq 0 ] && grep -qF 'evil\x1b' "$TMPD/l.out" &&
		pass "compare --text: a recording's -l label with escapes is shown escaped" ||
		fail "compare --text: a recording's -l label with escapes is shown escaped" \
			"$n ESC/BEL bytes; $(head -3 "$TMPD/l.out" "$TMPD/l.err" | cat -v)"
else
	fail "run -l with escapes records" "$(head -3 "$TMPD/r.err" | cat -v)"
fi
"$IODASH" compare --text "$TMPD/$EVIL-missing.txt" >"$TMPD/m.out" 2>"$TMPD/m.err"
[ "$(esc_count "$TMPD/m.err")" -eq 0 ] && grep -qF 'evil\x1b' "$TMPD/m.err" &&
	pass "compare: an error naming a file with escapes shows them escaped" ||
	fail "compare: an error naming a file with escapes shows them escaped" "$(cat -v "$TMPD/m.err")"

for c in "view --batch" "export --csv"; do
	# shellcheck disable=SC2086
	"$IODASH" $c "$TMPD/$EVIL.txt" >"$TMPD/v.out" 2>"$TMPD/v.err"
	[ "$(esc_count "$TMPD/v.err")" -eq 0 ] && grep -qF 'evil\x1b' "$TMPD/v.err" &&
		pass "$c: an error naming a file with escapes shows them escaped" ||
		fail "$c: an error naming a file with escapes shows them escaped" "$(cat -v "$TMPD/v.err")"
done

# a --proc-root whose diskstats names a disk with escapes
P="$TMPD/proc"
mkdir -p "$P"
mkdir -p "$P/sys/vm"
cp /proc/vmstat /proc/meminfo "$P/"
for k in dirty_background_bytes dirty_background_ratio dirty_bytes dirty_ratio dirty_expire_centisecs dirty_writeback_centisecs; do cat /proc/sys/vm/$k >"$P/sys/vm/$k"; done
printf '   8       0 sd%s 100 0 800 10 200 0 1600 20 0 30 30 0 0 0 0 0 0\n' "$EVIL" >"$P/diskstats"
"$IODASH" --batch --proc-root "$P" --all-disks --count 2 -i 0.05 >"$TMPD/b.out" 2>"$TMPD/b.err"
n=$(esc_count "$TMPD/b.out")
if ! grep -q '^# time' "$TMPD/b.out"; then
	fail "--batch header: a disk name with escapes" "no header; $(head -2 "$TMPD/b.err" | cat -v)"
elif [ "$n" -ne 0 ] || ! grep -qF 'sdevil\x1b]2;x\x07\x1b[2J.r_kBps' "$TMPD/b.out"; then
	fail "--batch header: a --proc-root disk name's escapes shown as \\x1b" "$n ESC/BEL; $(head -1 "$TMPD/b.out" | cat -v)"
else
	pass "--batch header: a --proc-root disk name's escapes shown as \\x1b"
fi
