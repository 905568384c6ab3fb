#!/usr/bin/env bash
# Recording size for 24 h at the default 0.5 s with 4 disks (all busy, and
# one busy with three idle), and the time `iodash view` needs before its
# first frame: open (read, CRC of every record, index) and the last hour
# of samples parsed.  The samples are generated as derive makes them
# (bench/gen_recording.c) and written through the real recorder.
set -u
cd "$(dirname "$0")/.."
GEN=build/bench/gen_recording
make -s "$GEN" >/dev/null || { echo "cannot build $GEN"; exit 1; }
d=$(mktemp -d /tmp/iodash-bench.XXXXXX)
trap 'rm -rf "$d"' EXIT
for busy in 4 1; do
	"$GEN" "$d/r$busy.rec" 24 0.5 4 $busy || exit 1
	f="$d/r$busy.rec"
	mb=$(awk -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.1f", b / 1e6 }')
	parts=$(awk -F'\t' '$1 ~ /^[SDB]$/ { b[$1] += length($0) + 1 } END { printf "S %.1f, D %.1f, B %.1f MB", b["S"] / 1e6, b["D"] / 1e6, b["B"] / 1e6 }' "$f")
	echo "24 h, 0.5 s, 4 disks, $busy busy: $mb MB ($(grep -c '^S' "$f") samples; $parts)"
	echo "  view open, 4 disks, $busy busy: $("$GEN" --open "$f")"
done
# the real binary end to end: open, index, then results and at most 2000
# samples for the table
s=$(date +%s.%N)
./iodash compare --text "$d/r4.rec" >/dev/null 2>&1
e=$(date +%s.%N)
awk -v s="$s" -v e="$e" 'BEGIN { printf "iodash compare --text of the 4-busy file: %.3f s\n", e - s }'
