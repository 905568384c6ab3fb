#!/bin/bash
# Compare two iodash binaries' reading of recordings, byte for byte:
# export --csv, export --json and view --batch of every recording given.
# For a refactoring that must not change behaviour (issue 13: the sample
# schema).  Usage: tools/compare_binaries.sh OLD NEW REC...
# Exit 0 when every output (and exit status) is identical, 1 otherwise.
set -u
[ $# -ge 3 ] || { echo "usage: $0 OLD_IODASH NEW_IODASH REC..." >&2; exit 2; }
OLD=$1 NEW=$2
shift 2
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
same=0 differ=0
for rec in "$@"; do
	for mode in "export --csv" "export --json" "view --batch"; do
		# shellcheck disable=SC2086
		"$OLD" $mode "$rec" >"$D/old" 2>"$D/old.err"; orc=$?
		# shellcheck disable=SC2086
		"$NEW" $mode "$rec" >"$D/new" 2>"$D/new.err"; nrc=$?
		if [ "$orc" = "$nrc" ] && cmp -s "$D/old" "$D/new" && cmp -s "$D/old.err" "$D/new.err"; then
			same=$((same + 1))
			echo "same    $mode $rec ($(wc -c <"$D/new") bytes, rc $nrc)"
		else
			differ=$((differ + 1))
			echo "DIFFERS $mode $rec (rc $orc/$nrc)"
			diff "$D/old" "$D/new" | head -6
			diff "$D/old.err" "$D/new.err" | head -4
		fi
	done
done
echo "$same identical, $differ different"
[ "$differ" = 0 ]
