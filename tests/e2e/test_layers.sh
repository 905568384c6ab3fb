#!/usr/bin/env bash
# The layers of docs/hacking.md hold.  Each folder of src/ is a layer and
# include/iodash/ has the same folders; a file may include the headers of
# its own layer and of the layers below it, never above:
#   7 cmd/, main.c   6 ui/, batch/   5 session/, bench/   4 record/, results/
#   3 model/   2 probe/, parsers/, sample/, throttle/   1 base/
# Only the commands and the front ends write to stdout or stderr; only
# src/ui/ includes curses; the command line (cli.h, struct iodash_opts) is
# known to src/cmd/ and main.c only.  SRC=dir INC=dir check another tree.
. "$(dirname "$0")/lib.sh"
SRC=${SRC:-$TOP/src}
INC=${INC:-$TOP/include}
cd "$SRC" || exit 1

rank_of() {
	case $1 in
	cmd | main.c) echo 7 ;; ui | batch) echo 6 ;; session | bench) echo 5 ;;
	record | results) echo 4 ;; model) echo 3 ;;
	probe | parsers | sample | throttle) echo 2 ;; base) echo 1 ;; *) echo 0 ;;
	esac
}

# every folder is a known layer, and include/iodash/ has no other folder
got=
for d in */; do [ "$(rank_of "${d%/}")" = 0 ] && got="$got src/$d"; done
for d in "$INC"/iodash/*/; do d=${d%/}; [ "$(rank_of "${d##*/}")" = 0 ] && got="$got include/iodash/${d##*/}/"; done
loose=$(find . "$INC/iodash" -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \) ! -name main.c | sed "s#^$INC/#include/#;s#^\./#src/#")
[ -z "$got$loose" ] && pass "every source and header is in a layer's folder" \
	|| fail "every source and header is in a layer's folder" "unknown:$got loose: $(echo $loose)"

# each #include against the ranks (a header of include/iodash/L/ is layer L;
# a private header of src/L/ is "L/x.h" or, beside its user, "x.h")
up=$( { find . -name '*.[ch]' | sed 's#^\./##'; (cd "$INC" && find iodash -name '*.h' | sed 's#^#@#'); } |
	while read -r f; do
		case $f in
		@*) path=$INC/${f#@}; layer=${f#@iodash/}; layer=${layer%%/*} ;;
		*) path=$f; layer=${f%%/*} ;;
		esac
		from=$(rank_of "$layer")
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$path" |
			while read -r inc; do
				case $inc in
				iodash/*/*) to=${inc#iodash/}; to=${to%%/*} ;;
				*/*) to=${inc%%/*} ;;
				*) continue ;;
				esac
				r=$(rank_of "$to")
				[ "$r" -gt "$from" ] && echo "${f#@} -> $inc"
			done
	done)
[ -z "$up" ] && pass "no file includes a header of a layer above its own" \
	|| fail "no file includes a header of a layer above its own" "$(echo "$up" | head -5 | tr '\n' ' ')"

front='^(\./)?(cmd/|ui/|batch/|main\.c:)'
got=$(grep -rnE 'std(out|err)|\bprintf\(|\bputs\(|perror\(' . | sed 's#^\./##' | grep -vE "$front")
[ -z "$got" ] && pass "only commands and front ends print" \
	|| fail "only commands and front ends print" "$(echo "$got" | head -3 | tr '\n' ' ')"

got=$(grep -rlE '#include +[<"]n?cursesw?(/[a-z]+)?\.h|#include +[<"](ncursesw/)?curses\.h' . "$INC" | sed 's#^\./##' | grep -v '^ui/')
[ -z "$got" ] && pass "only src/ui/ includes curses" \
	|| fail "only src/ui/ includes curses" "$(echo $got)"

got=$(grep -rlE '#include +"(cmd/)?(cli|commands)\.h"' . "$INC" | sed 's#^\./##' | grep -vE '^(cmd/[^/]*|main\.c)$')
[ -z "$got" ] && pass "only src/cmd/ and main.c include cli.h and commands.h" \
	|| fail "only src/cmd/ and main.c include cli.h and commands.h" "$(echo $got)"

got=$(grep -rlw 'iodash_opts' . "$INC" | sed 's#^\./##' | grep -vE '^(cmd/|main\.c$)')
[ -z "$got" ] && pass "struct iodash_opts is known to src/cmd/ and main.c only" \
	|| fail "struct iodash_opts is known to src/cmd/ and main.c only" "$(echo $got)"

# The session's signal flags have one owner (base/signals.c): the rest
# asks through signals.h, nobody reads or sets them (ktrace's guard of its
# tracefs instance on a fatal signal is its own business).
got=$( { grep -rlE '\b(app_)?got_sig(hup|int|term)\b' . | sed 's#^\./##';
	 (cd "$INC" && grep -rlE '\b(app_)?got_sig(hup|int|term)\b' .) | sed 's#^\./#include/#'; } |
	grep -v '^base/signals\.c$')
[ -z "$got" ] && pass "only base/signals.c holds the signal flags" \
	|| fail "only base/signals.c holds the signal flags" "$(echo $got)"
