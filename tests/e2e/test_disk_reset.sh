#!/usr/bin/env bash
# Counters that go backwards.  A trace of three samples 1 s apart: sdb is
# removed and created again under the same name between samples 0 and 1
# (every counter lower), vda's 32-bit ms fields wrap between 1 and 2 while
# its counts do not.  sdb must have no rate for that one interval (n/a,
# an event, nothing stored in the recording) and be normal the next; vda's
# wrap is a wrap.  Live, batch, the recording, export and view agree.
. "$(dirname "$0")/lib.sh"
BASE="$FIX/proc-traces/idle-30s/samples/00000.txt"
command -v python3 >/dev/null || { skip "disk reset" "python3 not installed"; exit 0; }

cat >"$TMPD/ds0" <<'DS'
 254       0 vda 1000 0 8000 500 2000 0 16000 4294966296 0 4294966000 4294960000 0 0 0 0 100 50
   8      16 sdb 900000 1000 7200000 450000 800000 2000 6400000 900000 0 1200000 1800000 0 0 0 0 5000 2500
DS
cat >"$TMPD/ds1" <<'DS'
 254       0 vda 1100 0 8800 550 2100 0 16800 4294966896 0 4294966896 4294966396 0 0 0 0 110 55
   8      16 sdb 10 0 80 5 20 0 160 10 0 15 20 0 0 0 0 1 1
DS
cat >"$TMPD/ds2" <<'DS'
 254       0 vda 1200 0 9600 600 2300 0 18400 100 0 100 100 0 0 0 0 120 60
   8      16 sdb 110 0 880 55 220 0 1760 110 0 515 620 0 0 0 0 11 6
DS
python3 "$TOP/tests/e2e/mk_disk_trace.py" "$BASE" "$TMPD/trace" 1.0 "$TMPD/ds0" "$TMPD/ds1" "$TMPD/ds2" \
	|| { fail "make the trace"; exit 1; }

"$IODASH" --batch --fast --proc-root "$TMPD/trace" -o "$TMPD/rec" --columns r_s,w_s,wkB_s,w_await,aqu_sz,util \
	>"$TMPD/b.txt" 2>"$TMPD/err"; rc=$?
[ $rc -eq 0 ] && pass "the trace replays, exit 0" || fail "the trace replays, exit 0" "exit $rc: $(head -1 "$TMPD/err")"
grep -q '^= 1\.00 note: sdb: counters reset (device re-created?)$' "$TMPD/b.txt" \
	&& pass "event: sdb: counters reset (device re-created?)" || fail "event: counters reset" "$(cat "$TMPD/b.txt")"
[ "$(grep -c 'counters reset' "$TMPD/b.txt")" -eq 1 ] && pass "one reset event, for sdb only" \
	|| fail "one reset event, for sdb only" "$(grep 'counters reset' "$TMPD/b.txt")"
# columns: time 6 dirty fields, then vda's six, sdb's six
s1=$(grep '^1\.00 ' "$TMPD/b.txt"); s2=$(grep '^2\.00 ' "$TMPD/b.txt")
set -- $s1
[ "${14:-}" = n/a ] && [ "${19:-}" = n/a ] && [ "${8:-}" = 100.00 ] \
	&& pass "sample 1: sdb n/a, vda normal (100 r/s)" || fail "sample 1: sdb n/a, vda normal" "$s1"
set -- $s2
# sdb: +100 reads, +200 writes, +1600 sectors (800 kB), 100 ms writing, 500 ms busy
# vda: 32-bit fields wrapped: 500 ms writing over 200 writes, 500 ms busy, 1000 weighted
[ "${14:-}" = 100.00 ] && [ "${15:-}" = 200.00 ] && [ "${16:-}" = 800.00 ] && [ "${17:-}" = 0.50 ] && [ "${19:-}" = 50.00 ] \
	&& pass "sample 2: sdb normal again" || fail "sample 2: sdb normal again" "$s2"
[ "${9:-}" = 200.00 ] && [ "${11:-}" = 2.50 ] && [ "${12:-}" = 1.00 ] && [ "${13:-}" = 50.00 ] \
	&& pass "sample 2: vda's 32-bit wrap read as a wrap (w_await 2.50, aqu-sz 1.00, 50 %util)" \
	|| fail "sample 2: vda's 32-bit wrap" "$s2"

# the recording holds no delta of the reset: sdb's D of sample 1 has have_rate 0, no counters
d=$(awk -F'\t' '$1 == "S" { s = $3 } $1 == "D" && $2 == "sdb" && s == 1' "$TMPD/rec")
[ -n "$d" ] && [ "$(echo "$d" | awk -F'\t' '{ print $3 "/" NF }')" = "0/5" ] \
	&& pass "recording: sdb's reset interval stored as no rate, no deltas" \
	|| fail "recording: sdb's reset interval" "$(echo "$d" | tr '\t' ' ')"
big=$(awk -F'\t' '$1 == "D" { for (i = 5; i < NF; i++) if (length($i) > 12) print }' "$TMPD/rec")
[ -z "$big" ] && pass "recording: no absurd delta anywhere" || fail "recording: no absurd delta" "$big"

# export: empty cells (n/a) for sdb at seq 1, its figures at seq 2
"$IODASH" export --csv "$TMPD/rec" >"$TMPD/x.csv"
col=$(head -1 "$TMPD/x.csv" | tr ',' '\n' | grep -n '^sdb\.r_s$' | cut -d: -f1)
v1=$(awk -F, -v c="$col" '$2 == 1 { print $c "|" $(c + 7) }' "$TMPD/x.csv")
v2=$(awk -F, -v c="$col" '$2 == 2 { print $c "|" $(c + 7) }' "$TMPD/x.csv")
[ -n "$col" ] && [ "$v1" = "|" ] && [ "$v2" = "100|50" ] \
	&& pass "export: sdb n/a at the reset, 100 r/s 50 %util after" || fail "export: sdb at the reset" "col $col: '$v1' then '$v2'"
"$IODASH" export --csv --table events "$TMPD/rec" | grep -q 'sdb: counters reset' \
	&& pass "export: the reset event" || fail "export: the reset event"

# view replays the recording: the same event, the same n/a
"$IODASH" view --batch --columns r_s,w_s,wkB_s,w_await,aqu_sz,util "$TMPD/rec" >"$TMPD/v.txt" 2>&1
grep -q 'sdb: counters reset (device re-created?)' "$TMPD/v.txt" && diff <(grep '^[0-9]' "$TMPD/b.txt") <(grep '^[0-9]' "$TMPD/v.txt") >/dev/null \
	&& pass "view: the event and the very same lines" || fail "view: the event and the same lines" "$(diff <(grep '^[0-9]' "$TMPD/b.txt") <(grep '^[0-9]' "$TMPD/v.txt") | head -4 | tr '\n' ';')"
