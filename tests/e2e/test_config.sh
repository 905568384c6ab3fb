
# where the recording goes is said when it starts, and a recording on the
# filesystem the benchmark writes to is warned about
mkdir -p "$TMPD/bench"
(cd "$TMPD" && XDG_CONFIG_HOME="$TMPD/empty" "$IODASH" --batch --no-publish --no-trace run -- sh -c true "$TMPD/bench/file" \
	>"$TMPD/place.out" 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q '^= 0.00 note: recording to iodash-.*\.rec$' "$TMPD/place.out" &&
   grep -q "^= 0.00 note: warning: the recording is on the filesystem of $TMPD/bench/file, which the benchmark writes to" "$TMPD/place.out"; then
	pass "recording place: said at the start, warned when on the benchmark's filesystem"
else
	fail "recording place" "rc=$rc $(grep note "$TMPD/place.out" | head -3)"
fi
other=/dev/shm
if [ -d "$other" ] && [ -w "$other" ] && [ "$(stat -c %d "$other")" != "$(stat -c %d "$TMPD")" ]; then
	d=$(mktemp -d "$other/iodash-e2e.XXXXXX")
	cleanup_add "rm -rf '$d'"
	(cd "$TMPD" && XDG_CONFIG_HOME="$TMPD/empty" "$IODASH" --batch --no-publish --no-trace --record-dir "$d" run -- \
		sh -c true "$TMPD/bench/file" >"$TMPD/place2.out" 2>&1); rc=$?
	[ $rc -eq 0 ] && grep -q "^= 0.00 note: recording to $d/iodash-" "$TMPD/place2.out" && ! grep -q 'warning: the recording' "$TMPD/place2.out" &&
		pass "recording place: --record-dir on another filesystem: no warning" ||
		fail "recording place elsewhere" "rc=$rc $(grep note "$TMPD/place2.out" | head -3)"
else
	skip "recording place on another filesystem" "no writable $other on a filesystem of its own"
fi
