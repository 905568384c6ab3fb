#!/bin/bash
# Compare two iodash binaries' reading of recordings, byte for byte:
# export --csv, export --json and view --batch of every recording given;
# with --compare, `compare` (text, --csv, --json) of the files as one set.
# For a refactoring that must not change behaviour (issue 13: the sample
# schema).  Usage: tools/compare_binaries.sh [--compare] OLD NEW FILE...
# Exit 0 when every output (and exit status) is identical, 1 otherwise.
set -u
set_mode=0
[ "${1:-}" = --compare ] && { set_mode=1; shift; }
[ $# -ge 3 ] || { echo "usage: $0 [--compare] OLD_IODASH NEW_IODASH FILE..." >&2; exit 2; }
OLD=$1 NEW=$2
shift 2
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
same=0 differ=0
check() { # $1 what (shown), then the arguments of both binaries
	local what=$1 orc nrc
	shift
	"$OLD" "$@" >"$D/old" 2>"$D/old.err"; orc=$?
	"$NEW" "$@" >"$D/new" 2>"$D/new.err"; nrc=$?
	if [ "$orc" = "$nrc" ] && cmp -s "$D/old" "$D/new" && cmp -s "$D/old.err" "$D/new.err"; then
		same=$((same + 1))
		echo "same    $what ($(wc -c <"$D/new") bytes, rc $nrc)"
	else
		differ=$((differ + 1))
		echo "DIFFERS $what (rc $orc/$nrc)"
		diff "$D/old" "$D/new" | head -6
		diff "$D/old.err" "$D/new.err" | head -4
	fi
}
if [ $set_mode = 1 ]; then
	check "compare $*" compare "$@"
	check "compare --csv $*" compare --csv "$@"
	check "compare --json $*" compare --json "$@"
else
	for rec in "$@"; do
		check "export --csv $rec" export --csv "$rec"
		check "export --json $rec" export --json "$rec"
		check "view --batch $rec" view --batch "$rec"
	done
fi
echo "$same identical, $differ different"
[ "$differ" = 0 ]
