#!/usr/bin/env bash
# Every output path iodash takes (report -o, compare --svg, export -o,
# run -o, --batch-events) leaves what is at the path what it was: a char
# device (a copy of /dev/null's, made here), a FIFO (with a reader), a
# symlink (followed: its target gets the output, the link stays a link)
# and a link into /proc like /dev/stdout (written to the shell's file).
# Only a new or regular file is ever replaced (issue 32 point 1).
. "$(dirname "$0")/lib.sh"
REC="$FIX/recordings/knobs-sweep-6.18.rec"
D="$TMPD/out"
mkdir -p "$D"

if ! is_root; then
	skip "output paths" "mknod of a char device needs root"
	exit 0
fi

# what a path is now: its type, and a symlink's target
kind_of() {
	if [ -L "$1" ]; then echo "link->$(readlink "$1")"; else stat -c %F "$1"; fi
}

# expect NAME PATH KIND: the path is still KIND
expect() {
	local now
	now=$(kind_of "$2")
	if [ "$now" = "$3" ]; then pass "$1"; else fail "$1" "now $now, was $3"; fi
}

# run NAME CMD...: with a fresh device, FIFO, symlink and /proc link in
# place of @OUT@ in CMD, one after the other
each_kind() {
	local name=$1; shift
	local k path args a rc reader
	for k in dev fifo link proclink; do
		rm -rf "$D" && mkdir -p "$D"
		path="$D/out"
		case $k in
		dev) mknod "$path" c 1 3 ;;
		fifo) mkfifo "$path"; timeout 70 cat "$path" >"$D/fifo-read" & reader=$! ;;
		link) echo old >"$D/target"; ln -s target "$path" ;;
		proclink) ln -s /proc/self/fd/1 "$path" ;;
		esac
		local was
		was=$(kind_of "$path")
		args=()
		for a in "$@"; do args+=("${a//@OUT@/$path}"); done
		if [ $k = proclink ]; then
			timeout 60 "${args[@]}" >"$D/stdout-file" 2>"$D/err" </dev/null; rc=$?
		else
			timeout 60 "${args[@]}" >/dev/null 2>"$D/err" </dev/null; rc=$?
		fi
		if [ $k = fifo ]; then
			# a reader still waiting: nobody wrote to the FIFO (our own child)
			for _ in $(seq 20); do kill -0 "$reader" 2>/dev/null || break; sleep 0.1; done
			kill "$reader" 2>/dev/null
			wait "$reader" 2>/dev/null
		fi
		expect "$name: a $k at the path is still a $k (rc=$rc: $(head -c 200 "$D/err" | tr '\n' ' '))" "$path" "$was"
		case $k in
		link) if [ -s "$D/target" ] && [ "$(cat "$D/target")" != old ]; then pass "$name: the symlink's target got the output"
		      else fail "$name: the symlink's target got the output" "rc=$rc"; fi ;;
		fifo) if [ -s "$D/fifo-read" ]; then pass "$name: the FIFO's reader got the output"
		      else fail "$name: the FIFO's reader got the output" "rc=$rc"; fi ;;
		proclink) if [ -s "$D/stdout-file" ]; then pass "$name: /dev/stdout-like: the shell's file got the output"
			  else fail "$name: /dev/stdout-like: the shell's file got the output" "rc=$rc"; fi ;;
		esac
	done
}

each_kind "report -o" "$IODASH" report -o @OUT@ "$REC"
each_kind "compare --svg" "$IODASH" compare --text --svg @OUT@ "$REC"
each_kind "export -o" "$IODASH" export --csv -o @OUT@ "$REC"
each_kind "run -o --force" "$IODASH" run --batch --force -o @OUT@ -i 0.1 -- sh -c 'sleep 0.3; echo hi'
each_kind "--batch-events" "$IODASH" run --batch --no-record --batch-events @OUT@ -i 0.1 -- sh -c 'sleep 0.3; echo hi'

# a regular file is still replaced whole (a new inode: a failure never
# leaves half of it), and a new path is created
echo old >"$D/plain.html"
"$IODASH" report -o "$D/plain.html" "$REC" 2>"$D/err" && grep -q '<svg' "$D/plain.html" &&
	pass "report -o: a regular file is replaced" || fail "report -o: a regular file is replaced" "$(cat "$D/err")"
# a directory at the path: a clear one-line refusal
mkdir -p "$D/adir"
"$IODASH" report -o "$D/adir" "$REC" 2>"$D/err"; rc=$?
[ $rc -eq 1 ] && [ -d "$D/adir" ] && grep -q 'is a directory' "$D/err" && [ "$(wc -l <"$D/err")" -eq 1 ] &&
	pass "report -o DIR: refused in one line" || fail "report -o DIR: refused in one line" "rc=$rc $(cat "$D/err")"
# run -o on a device without --force: refused as before (a recording is
# never written over what is there without --force)? it is not a file:
# written in place, the device stays
mknod "$D/null2" c 1 3
"$IODASH" run --batch -o "$D/null2" -i 0.1 -- true >/dev/null 2>"$D/err"; rc=$?
expect "run -o DEV: the device stays (rc=$rc)" "$D/null2" "character special file"
