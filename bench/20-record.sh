#!/usr/bin/env bash
# Recording size for 24 h at the default 0.5 s with 4 disks, and the time
# `view`/`export` need to open (index and check) it.
set -u
cd "$(dirname "$0")/.."
GEN=build/bench/gen_recording
[ -x "$GEN" ] || make -s "$GEN" >/dev/null || { echo "cannot build $GEN"; exit 1; }
d=$(mktemp -d /tmp/iodash-bench.XXXXXX)
trap 'rm -rf "$d"' EXIT
for busy in 1 4; do
	"$GEN" "$d/r$busy.rec" 24 0.5 4 $busy || exit 1
	mb=$(awk -v b="$(stat -c %s "$d/r$busy.rec")" 'BEGIN { printf "%.1f", b / 1e6 }')
	echo "24 h, 0.5 s, 4 disks, $busy busy: $mb MB ($(grep -c '^S' "$d/r$busy.rec") samples)"
done
# open time: compare opens the file (mmap, CRC of every record, index)
# and reads its events, results and at most 2000 samples.
for busy in 1 4; do
	s=$(date +%s.%N)
	./iodash compare --text "$d/r$busy.rec" >/dev/null 2>&1
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" -v b="$busy" 'BEGIN { printf "open (mmap + CRC check + index) of the %d-busy file: %.3f s\n", b, e - s }'
done
