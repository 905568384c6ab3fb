#!/usr/bin/env bash
# Record with -o, view it back (--batch prints what the live session
# printed), kill -9 a recording session and load what it left, export,
# and refuse corrupt or foreign files with the byte offset.
. "$(dirname "$0")/lib.sh"
T="$FIX/proc-traces/dirty-bytes-256M-128M-fio-overwrite-4G-20s"

# 1. a replayed trace, recorded; view --batch gives the same lines
"$IODASH" --batch --proc-root "$T" --fast --count 60 -o "$TMPD/a.rec" >"$TMPD/live.txt" 2>"$TMPD/err"; rc=$?
if [ $rc -ne 0 ] || [ ! -s "$TMPD/a.rec" ]; then
	fail "record --batch -o" "rc=$rc $(head -3 "$TMPD/err")"
else
	pass "record --batch -o writes a recording"
	"$IODASH" view --batch "$TMPD/a.rec" >"$TMPD/replay.txt" 2>"$TMPD/err"; rc=$?
	if [ $rc -eq 0 ] && diff -q "$TMPD/live.txt" "$TMPD/replay.txt" >/dev/null; then
		pass "view --batch shows the figures the live session showed ($(wc -l <"$TMPD/live.txt") lines identical)"
	else
		fail "view --batch = live --batch" "rc=$rc $(diff "$TMPD/live.txt" "$TMPD/replay.txt" | head -4)"
	fi
	# the dirty-limit hit of the trace is in the recording, loadable by awk
	n=$(awk -F'\t' '$1 == "S" && $14 == "throttle"' "$TMPD/a.rec" | wc -l)
	[ "$n" -gt 0 ] && pass "recording loads with awk: $n throttle samples" || fail "awk throttle samples"
	"$IODASH" export --csv "$TMPD/a.rec" >"$TMPD/a.csv" && grep -q '^# samples' "$TMPD/a.csv" &&
		[ "$(awk '/^# samples/{f=1;next} /^$/{f=0} f' "$TMPD/a.csv" | wc -l)" -eq 61 ] &&
		pass "export --csv: 60 samples + header" || fail "export --csv"
	"$IODASH" export --json "$TMPD/a.rec" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d["samples"]) == 60
assert any(s["zone"] == "throttle" for s in d["samples"])' && pass "export --json" || fail "export --json"
fi

# 2. kill -9 while recording: the file loads
"$IODASH" --batch -i 0.05 -o "$TMPD/k.rec" >/dev/null 2>&1 &
pid=$!
sleep 2.5
kill -9 $pid; wait $pid 2>/dev/null
if "$IODASH" view --batch "$TMPD/k.rec" >"$TMPD/k.txt" 2>"$TMPD/k.err"; then
	n=$(grep -c '^[0-9]' "$TMPD/k.txt")
	[ "$n" -ge 15 ] && pass "kill -9: view loads the recording ($n samples)" || fail "kill -9 samples" "$n"
else
	fail "kill -9: view fails" "$(cat "$TMPD/k.err")"
fi

# 3. a torn last record: a warning, never a failure
cp "$TMPD/k.rec" "$TMPD/torn.rec"; printf 'S\t99.000\t12' >>"$TMPD/torn.rec"
"$IODASH" export --csv "$TMPD/torn.rec" >/dev/null 2>"$TMPD/err" && grep -q 'torn last record' "$TMPD/err" \
	&& pass "torn last record: warning, exit 0" || fail "torn last record" "$(cat "$TMPD/err")"

# 4. foreign, truncated and corrupt files: one line, file and byte, exit 1
printf 'Throughput 116.098 MB/sec\n' >"$TMPD/foreign.rec"
head -c 10 "$TMPD/k.rec" >"$TMPD/trunc.rec"
cp "$TMPD/k.rec" "$TMPD/corrupt.rec"; printf 'X' | dd of="$TMPD/corrupt.rec" bs=1 seek=40 conv=notrunc 2>/dev/null
for f in foreign trunc corrupt; do
	"$IODASH" view --batch "$TMPD/$f.rec" >/dev/null 2>"$TMPD/err"; rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$TMPD/err")" -eq 1 ] && grep -q "$TMPD/$f.rec: byte [0-9]*: " "$TMPD/err"; then
		pass "view $f file: $(cat "$TMPD/err")"
	else
		fail "view $f file" "rc=$rc $(cat "$TMPD/err")"
	fi
done

# 5. a full disk (root: a 4 KiB tmpfs): the run goes on and ends, the
# failure is said at once (a "= note" line) and at the end (stderr, exit
# 1), and what reached the file still loads
if ! is_root; then
	skip "full disk" "needs root to mount a tiny tmpfs"
elif ! command -v dbench >/dev/null; then
	skip "full disk" "dbench not installed"
else
	FULL="$TMPD/full"; mkdir -p "$FULL" "$TMPD/fw"
	if mount -t tmpfs -o size=4k tmpfs "$FULL" 2>/dev/null; then
		cleanup_add "umount '$FULL' 2>/dev/null"
		timeout 60 "$IODASH" --batch run -o "$FULL/x.rec" -- dbench -D "$TMPD/fw" -t 4 1 >"$TMPD/full.out" 2>"$TMPD/full.err"; rc=$?
		check "full disk: exit 1" [ "$rc" -eq 1 ]
		check "full disk: the run still ended well" grep -q 'run_end: run ok: exit 0' "$TMPD/full.out"
		check "full disk: said when it happened" grep -q '^= [0-9.]* note: recording stopped: .*No space left on device' "$TMPD/full.out"
		check "full disk: one line on stderr naming the file and the fix" \
			grep -q "^iodash: $FULL/x.rec: cannot write the recording: No space left on device (free space, or choose another -o)" "$TMPD/full.err"
		"$IODASH" export --csv "$FULL/x.rec" >"$TMPD/full.csv" 2>"$TMPD/full.exp"; rc=$?
		check "full disk: what was written loads (exit 0)" [ "$rc" -eq 0 ]
		check "full disk: and holds the first samples" grep -Eq '^0\.000,0,' "$TMPD/full.csv"
	else
		skip "full disk" "cannot mount a tmpfs here"
	fi
fi
