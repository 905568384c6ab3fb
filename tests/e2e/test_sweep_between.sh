#!/usr/bin/env bash
# sweep --between is a shell command line: a value goes in as one quoted
# word (once: -p 'x=b,a;touch PWNED' --between 'echo {x}' ran the touch),
# and as IODASH_P_NAME in its environment (the benchmark's too); the output
# says that it gets the values of the run that comes next.
. "$(dirname "$0")/lib.sh"

cd "$TMPD" || exit 1
timeout 30 "$IODASH" --batch --no-record sweep -p 'x=b,a;touch PWNED' \
	--between 'echo arg={x}; echo "env=$IODASH_P_x"' -- sh -c 'echo "bench=$IODASH_P_x"' >out 2>err; rc=$?
[ "$rc" -ne 0 ] && cat err
check "between: the sweep ran (exit 0)" [ "$rc" -eq 0 ]
check "between: a value with ; ran nothing (no PWNED file)" [ ! -e PWNED ]
check "between: the value reached the command as one word" grep -qx '> \[between\] arg=a;touch PWNED' out
check "between: and as IODASH_P_x in its environment" grep -qx '> \[between\] env=a;touch PWNED' out
check "between: the benchmark has IODASH_P_x too" grep -qx '> bench=a;touch PWNED' out
check "between: says it has the next run's values" \
	grep -q "note: --between before run 2/2, with run 2's values (x=a;touch PWNED): " out

# a value with a single quote and a command substitution stays literal
timeout 30 "$IODASH" --batch --no-record sweep -p "q=1,it's \$(touch PWNED2)" \
	--between 'printf "<%s>\n" {q}' -- true >out2 2>err2; rc=$?
check "between: quote and \$(...) in a value: exit 0" [ "$rc" -eq 0 ]
check "between: quote and \$(...) in a value: literal" grep -qF "> [between] <it's \$(touch PWNED2)>" out2
check "between: quote and \$(...) in a value: nothing ran" [ ! -e PWNED2 ]
