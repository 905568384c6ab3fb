#!/usr/bin/env bash
# A storage box of 1,024 disks whose counters all move every sample (a
# trace made by bench/gen_disks.sh, replayed with --proc-root): every disk
# in --batch --columns all, in the recording and its CSV and JSON export,
# in the PCP publish (mmv.iodash.PID.disk.* over one instance domain, read
# back from a private pmcd, as test_pcp_publish.sh does); --disks picks
# disks by name or glob in --batch and on the screen; the screen lists the
# busiest first, counts the others, and its s and f keys sort and filter.
# (Before: a sample held 16 disks, the snapshot 64.)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pcp.sh"

N=1024
T="$TMPD/jbod"
bash "$TOP/bench/gen_disks.sh" "$T" "$N" 40 1 || { fail "bench/gen_disks.sh made a trace of $N disks"; exit 0; }
# gen_disks.sh's names: sd + the kernel's letters; disk k is busy
# ((k * 37) % 97 + 1) % of the time and writes (k % 13 + 1) * 10 a second
dname() { awk -v k="$1" 'BEGIN { s = ""; k++; while (k > 0) { k--; s = substr("abcdefghijklmnopqrstuvwxyz", k % 26 + 1, 1) s; k = int(k / 26) } print "sd" s }'; }
LAST=$(dname $((N - 1)))
# the first disk of the busiest (97 %): (k * 37) % 97 = 96
BUSIEST=$(dname "$(awk 'BEGIN { for (k = 0; (k * 37) % 97 != 96; k++); print k }')")

# --batch --columns all: 22 figures of every disk, the last one's right
"$IODASH" --batch --fast --count 4 --no-publish --proc-root "$T" --columns all >"$TMPD/b.out" 2>&1
hdr=$(grep -m1 '^# time' "$TMPD/b.out")
ncol=$(awk '{ n = 0; for (i = 1; i <= NF; i++) if ($i ~ /\.util$/) n++; print n }' <<<"$hdr")
w_s=$(awk -v want="$LAST.w_s" '/^# time/ { for (i = 2; i <= NF; i++) if ($i == want) c = i - 1; next }
	/^[0-9]/ { v = $c } END { print v }' "$TMPD/b.out")
[ "$ncol" = "$N" ] && [ "$(awk '{print NF}' <<<"$hdr")" = $((2 + 6 + 22 * N)) ] && [ "$w_s" = "$(( ($N - 1) % 13 * 10 + 10 )).00" ] \
	&& pass "--batch --columns all: $N disks x 22 figures, $LAST w/s $w_s" \
	|| fail "--batch --columns all: every one of $N disks" "$ncol util columns, $LAST.w_s '$w_s': $(head -c 200 "$TMPD/b.out")"

# --disks: names and globs, as iostat -x sda sdb takes them
"$IODASH" --batch --fast --count 3 --no-publish --proc-root "$T" --disks "sdb,/dev/sdc,sdz*" >"$TMPD/f.out" 2>&1
got=$(grep -m1 '^# time' "$TMPD/f.out" | tr ' ' '\n' | sed -n 's/\.util$//p' | tr '\n' ' ')
[ "$got" = "sdb sdc sdz sdza sdzb sdzc sdzd sdze sdzf sdzg sdzh sdzi sdzj sdzk sdzl sdzm sdzn sdzo sdzp sdzq sdzr sdzs sdzt sdzu sdzv sdzw sdzx sdzy sdzz " ] \
	&& pass "--disks sdb,/dev/sdc,sdz*: those disks' columns only" \
	|| fail "--disks sdb,/dev/sdc,sdz*: those disks' columns only" "got: $got"
"$IODASH" --batch --count 1 --no-publish --proc-root "$T" --disks "sd$(printf 'x%.0s' {1..40})" >"$TMPD/e.out" 2>&1; rc=$?
[ "$rc" = 2 ] && grep -q -- "--disks: .* is longer than a device name" "$TMPD/e.out" \
	&& pass "--disks with a word longer than a device name: usage error (2)" \
	|| fail "--disks with a word longer than a device name: usage error (2)" "rc $rc: $(head -2 "$TMPD/e.out")"

# the recording holds every disk; export and view read them all back
R="$TMPD/jbod.rec"
"$IODASH" --batch --fast --count 6 --no-publish --proc-root "$T" -o "$R" >/dev/null 2>&1
ver=$(head -1 "$R" | cut -f2,3 | tr '\t' .)
"$IODASH" export --csv "$R" >"$TMPD/x.csv" 2>&1
csv_disks=$(head -1 "$TMPD/x.csv" | tr ',' '\n' | grep -c '\.util$')
csv_last=$(awk -F, -v want="$LAST.w_s" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == want) c = i; next } { v = $c } END { print v }' "$TMPD/x.csv")
json_disks=$("$IODASH" export --json "$R" | python3 -c 'import json, sys; d = json.load(sys.stdin); print(len(d["samples"][-1]["disks"]))' 2>&1)
view_cols=$("$IODASH" view --batch "$R" | awk '/^# time/ { n = 0; for (i = 1; i <= NF; i++) if ($i ~ /\.util$/) n++; print n; exit }')
[ "$ver" = 2.3 ] && [ "$csv_disks" = "$N" ] && [ "$json_disks" = "$N" ] && [ "$view_cols" = "$N" ] && [ "${csv_last%%.*}" = $(( (N - 1) % 13 * 10 + 10 )) ] \
	&& pass "recording $ver: $N disks in export --csv, --json and view --batch ($LAST w/s $csv_last)" \
	|| fail "recording: every one of $N disks back" "version $ver, csv $csv_disks, json $json_disks, view $view_cols, $LAST w/s '$csv_last'"

# export --pcp: every disk an instance of iodash.disk.* in the archive
if command -v pminfo >/dev/null; then
	"$IODASH" export --pcp "$TMPD/arch" "$R" 2>"$TMPD/xp.err"
	n=$(pminfo -a "$TMPD/arch" -f iodash.disk.write 2>&1 | grep -c 'inst \[')
	w=$(pminfo -a "$TMPD/arch" -f iodash.disk.write 2>&1 | awk -v d="$LAST" '$0 ~ "\"" d "\"" { print $NF; exit }')
	[ "$n" = "$N" ] && [ "$w" = $(( ((N - 1) % 13 * 10 + 10) * 4 )) ] \
		&& pass "export --pcp: iodash.disk.write has $N instances ($LAST: $w kB/s)" \
		|| fail "export --pcp: iodash.disk.write has $N instances" "$n, $LAST '$w': $(head -2 "$TMPD/xp.err")"
else
	skip "export --pcp of $N disks" "no pminfo (Debian package pcp)"
fi

# the screen: the busiest first (97 % busy, the most), the others counted,
# s sorts by name, f filters, --disks on the command line too
if command -v tmux >/dev/null; then
	tm_start 120 40 "$IODASH" --proc-root "$T" --no-publish
	first_util() { tm_screen | sed -n '/^Disks/,/^Benchmark/p' | awk '/^sd[a-z]+ / { print $9; exit }'; }
	if tm_wait "busiest by %util +[0-9]+ of $N busy" 8 && tm_wait "^sd[a-z]+ +[0-9.]+ +[0-9.]+ .* 97\.00" 5 &&
	   [ "$(first_util)" = 97.00 ]; then
		pass "screen: a busiest disk (97 %) first, 'N of $N busy' in the title"
	else
		fail "screen: the busiest disk first" "$(tm_screen | grep -A3 '^Disks')"
	fi
	tm send-keys -t t s s
	tm_wait "Disks  iostat -x  by name" 5 && tm_wait "^sda +[0-9.]" 5 \
		&& pass "screen: s, s sorts the disks by name" \
		|| fail "screen: s, s sorts the disks by name" "$(tm_screen | grep -A3 '^Disks')"
	tm send-keys -t t f
	tm send-keys -t t -l "sdq,sdaz"
	tm send-keys -t t Enter
	if tm_wait "by name  \[sdq,sdaz\]" 5; then
		rows=$(tm_screen | sed -n '/^Disks/,/^Benchmark/p' | grep -E '^sd[a-z]+ ' | awk '{print $1}' | tr '\n' ' ')
		[ "$rows" = "sdaz sdq " ] && pass "screen: f sdq,sdaz Enter lists those two only" \
			|| fail "screen: f sdq,sdaz Enter lists those two only" "rows: $rows"
	else
		fail "screen: f filters the disks" "$(tm_screen | grep -A4 '^Disks')"
	fi
	tm kill-server 2>/dev/null
	tm_start 120 40 "$IODASH" --proc-root "$T" --no-publish --disks 'sdb*'
	tm_wait "\[sdb\*\]" 8 && ! tm_screen | sed -n '/^Disks/,/^Benchmark/p' | grep -Eq '^sd[ac-z]' \
		&& pass "screen: --disks 'sdb*' lists sdb... only" \
		|| fail "screen: --disks 'sdb*' lists sdb... only" "$(tm_screen | grep -A4 '^Disks')"
	tm kill-server 2>/dev/null
else
	skip "screen of $N disks" "tmux missing"
fi

# PCP: every disk an instance of mmv.iodash.PID.disk.*
if ! pmcd_available; then
	skip "mmv.iodash.PID.disk.* of $N disks" "no pmcd (Debian package pcp)"
elif ! is_root; then
	skip "mmv.iodash.PID.disk.* of $N disks" "needs root to run a private pmcd"
else
	PORT=$(pmcd_free_port) || { fail "a free loopback port for pmcd"; exit 0; }
	if pmcd_start "$PORT"; then
		H="localhost:$PORT"
		export PCP_TMP_DIR="$TMPD/pmcd-$PORT/tmp"
		"$IODASH" --batch --proc-root "$T" --publish >/dev/null 2>&1 &
		i_pid=$!
		cleanup_add "kill $i_pid 2>/dev/null; wait $i_pid 2>/dev/null"
		for ((i = 0; i < 100; i++)); do
			n=$(pminfo -h "$H" -f "mmv.iodash.$i_pid.disk.util" 2>/dev/null | grep -c 'inst \[')
			[ "$n" = "$N" ] && break
			sleep 0.1
		done
		sleep 2.2   # a sample or two with rates
		pminfo -h "$H" -f "mmv.iodash.$i_pid.disk.util" "mmv.iodash.$i_pid.disk.write" >"$TMPD/pm.out" 2>&1
		u=$(awk -v d="$BUSIEST" '/disk.util/ { m = 1 } m && $0 ~ "\"" d "\"" { print $NF; exit }' "$TMPD/pm.out")
		w=$(awk -v d="$LAST" '/disk.write/ { m = 1 } m && $0 ~ "\"" d "\"" { print $NF; exit }' "$TMPD/pm.out")
		n=$(grep -c 'inst \[' "$TMPD/pm.out")
		[ "$n" = $((2 * N)) ] && [ "$u" = 97 ] && [ "$w" = $(( ((N - 1) % 13 * 10 + 10) * 4 )) ] \
			&& pass "mmv.iodash.PID.disk.util and .write: $N instances each ($BUSIEST util $u, $LAST write $w kB/s)" \
			|| fail "mmv.iodash.PID.disk.*: $N instances" "$n values, $BUSIEST util '$u', $LAST write '$w': $(head -5 "$TMPD/pm.out")"
		v=$(pmval -h "$H" -s 2 -t 1 -i "$LAST" "mmv.iodash.$i_pid.disk.w_s" 2>&1 | awk 'NF == 1 && $1 ~ /^[0-9.]+$/ { v = $1 } END { print v }')
		[ "${v%%.*}" = $(( (N - 1) % 13 * 10 + 10 )) ] \
			&& pass "pmval of one instance ($LAST disk.w_s): $v" \
			|| fail "pmval of one instance ($LAST disk.w_s)" "got '$v'"
	else
		fail "private pmcd answers on 127.0.0.1:$PORT"
	fi
fi
