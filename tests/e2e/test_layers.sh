#!/usr/bin/env bash
# The layers of docs/hacking.md hold: only the commands (src/cmd/,
# src/main.c) and the front ends (src/ui/, src/batch.c) write to stdout or
# stderr; only those include ui.h, only src/ui/ includes curses; the core
# never reaches up into the commands.  SRC=dir checks another tree.
. "$(dirname "$0")/lib.sh"
SRC=${SRC:-$TOP/src}
cd "$SRC" || exit 1
front='^(\./)?(cmd/|ui/|batch\.c:|main\.c:)'

got=$(grep -rnE 'std(out|err)|\bprintf\(|\bputs\(|perror\(' . | sed 's#^\./##' | grep -vE "$front")
[ -z "$got" ] && pass "only commands and front ends print" \
	|| fail "only commands and front ends print" "$(echo "$got" | head -3 | tr '\n' ' ')"

got=$(grep -rlE '#include +["<](iodash/ui\.h|iodash/batch\.h)' . | sed 's#^\./##' | grep -vE '^(cmd/|ui/|batch\.c$|main\.c$)')
[ -z "$got" ] && pass "no core file includes ui.h or batch.h" \
	|| fail "no core file includes ui.h or batch.h" "$(echo $got)"

got=$(grep -rlE '#include +[<"]n?cursesw?(/[a-z]+)?\.h|#include +[<"](ncursesw/)?curses\.h' . | sed 's#^\./##' | grep -v '^ui/')
[ -z "$got" ] && pass "only src/ui/ includes curses" \
	|| fail "only src/ui/ includes curses" "$(echo $got)"

got=$(grep -rlE '#include +"iodash/commands\.h"' . | sed 's#^\./##' | grep -vE '^(cmd/|main\.c$)')
[ -z "$got" ] && pass "the core does not include commands.h" \
	|| fail "the core does not include commands.h" "$(echo $got)"

# Each layer has its own config (issue 30): the command line's struct is
# the commands' alone.  No header includes cli.h but the commands' own
# (src/cmd/*.h, and commands.h with the table of them), and no file
# below the commands names struct iodash_opts.
INC=${INC:-$SRC/../include}
got=$( { grep -rlE '#include +"iodash/cli\.h"' --include='*.h' . | sed 's#^\./##';
	 (cd "$INC" && grep -rlE '#include +"iodash/cli\.h"' --include='*.h' .) | sed 's#^\./#include/#'; } |
	grep -vE '^(cmd/|include/iodash/commands\.h$)')
[ -z "$got" ] && pass "only the commands' headers include cli.h" \
	|| fail "only the commands' headers include cli.h" "$(echo $got)"
got=$( { grep -rlw 'iodash_opts' . | sed 's#^\./##';
	 (cd "$INC" && grep -rlw 'iodash_opts' .) | sed 's#^\./#include/#'; } |
	grep -vE '^(cmd/|main\.c$|include/iodash/(cli|commands)\.h$)')
[ -z "$got" ] && pass "struct iodash_opts is known to the commands only" \
	|| fail "struct iodash_opts is known to the commands only" "$(echo $got)"

# The session's signal flags have one owner (signals.c): the rest asks
# through signals.h, nobody reads or sets them (ktrace's guard of its
# tracefs instance on a fatal signal is its own business).
got=$( { grep -rlE '\b(app_)?got_sig(hup|int|term)\b' . | sed 's#^\./##';
	 (cd "$INC" && grep -rlE '\b(app_)?got_sig(hup|int|term)\b' .) | sed 's#^\./#include/#'; } |
	grep -v '^signals\.c$')
[ -z "$got" ] && pass "only signals.c holds the signal flags" \
	|| fail "only signals.c holds the signal flags" "$(echo $got)"
