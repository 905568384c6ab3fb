#!/usr/bin/env bash
# What a reader costs on a file that is not (only) a recording: a 2 GB
# sparse file (refused at byte 0) and a recording followed by 2 GB of
# zeros (read up to them), in every reader: wall time and max RSS from
# /usr/bin/time (the goal: under 0.1 s and 10 MB).
set -u
cd "$(dirname "$0")/.."
command -v /usr/bin/time >/dev/null || { echo "no /usr/bin/time (Debian package time)"; exit 0; }
d=$(mktemp -d /tmp/iodash-bench.XXXXXX)
trap 'rm -rf "$d"' EXIT
truncate -s 2G "$d/sparse.rec"
cp tests/fixtures/recordings/knobs-sweep-6.18.rec "$d/tail.rec"
truncate -s +2G "$d/tail.rec"
for f in sparse tail; do
	for c in "view --batch" "export --csv" "compare --text" "report -o $d/r.html"; do
		# shellcheck disable=SC2086
		/usr/bin/time -f "%e %M" -o "$d/t" ./iodash $c "$d/$f.rec" >/dev/null 2>&1
		read -r s kb < <(tail -1 "$d/t")
		printf '%-6s %-16s %6.2f s %7d KB\n' "$f" "${c%% -o*}" "$s" "$kb"
	done
done
