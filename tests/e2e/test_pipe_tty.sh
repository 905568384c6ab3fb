#!/usr/bin/env bash
# Where the output goes away or was never a terminal.
#  - A reader that goes away (| head) ends every batch session the same
#    way, unless a recording is written: then it goes on to its end, so the
#    recording is whole.  A benchmark iodash started is stopped as on
#    Ctrl-C; a replay stops.
#  - The dashboard without a terminal is refused before anything is made:
#    no stray recording, no "recorded to".
. "$(dirname "$0")/lib.sh"

cd "$TMPD" || exit 1
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# run --no-record | head: the benchmark is stopped, iodash ends
mark="iodash-pipe-test-$$"
pat="[i]odash-pipe-test-$$"      # a pattern that does not match the pgrep line itself
t0=$(now_ms)
timeout 30 "$IODASH" --batch --no-record -i 0.1 run -- sh -c "for i in \$(seq 300); do echo $mark \$i; sleep 0.1; done" 2>nr.err | head -3 >/dev/null
rc=${PIPESTATUS[0]}; ms=$(($(now_ms) - t0))
check "run --no-record | head: iodash ends by itself ($ms ms, rc $rc)" [ "$rc" -ne 124 ] && [ "$ms" -lt 10000 ]
check "run --no-record | head: exit 1 (the run was stopped)" [ "$rc" -eq 1 ]
check "run --no-record | head: the benchmark is gone" bash -c "! pgrep -f '$pat' >/dev/null"

# run -o | head: recording, so it goes on to the end of the benchmark
timeout 30 "$IODASH" --batch -i 0.1 -o whole.rec run -- sh -c 'for i in $(seq 15); do echo line $i; sleep 0.1; done' 2>rec.err | head -2 >/dev/null
rc=${PIPESTATUS[0]}
check "run -o REC | head: exit 0 (ran to its end)" [ "$rc" -eq 0 ]
check "run -o REC | head: the recording has the last line" bash -c "'$IODASH' view --batch whole.rec | grep -q '^> line 15$'"

# view --batch --follow | head: ends (once: killed by SIGPIPE, 141)
timeout 20 "$IODASH" --batch -i 0.1 --count 50 -o grow.rec >/dev/null 2>&1 &
writer=$!
sleep 1
timeout 10 "$IODASH" view --batch --follow grow.rec 2>/dev/null | head -2 >/dev/null; rc=${PIPESTATUS[0]}
check "view --batch --follow | head: exit 0, as a plain --batch" [ "$rc" -eq 0 ]
wait "$writer"

# no terminal: refused, nothing left behind
mkdir notty && cd notty || exit 1
"$IODASH" run -- true </dev/null >out 2>err; rc=$?
check "run without a tty: exit 2 (use --batch)" [ "$rc" -eq 2 ]
check "run without a tty: says what to do" grep -q 'needs a terminal; use --batch' err
check "run without a tty: no recording left behind" [ -z "$(ls ./*.rec 2>/dev/null)" ]
check "run without a tty: no 'recorded to'" bash -c "! grep -q 'recorded to' err"

# export | head: ends with 0 as a --batch session does (once: killed by
# SIGPIPE, 141); the export is large enough (160 kB) to outlast the pipe
"$IODASH" --batch --fast --proc-root "$FIX/proc-traces/dirty-bytes-256M-128M-fio-overwrite-4G-20s" -o ../trace.rec >/dev/null 2>&1
check "export source recorded" [ -s ../trace.rec ]
for f in --csv --json; do
	"$IODASH" export $f ../trace.rec 2>/dev/null | head -2 >/dev/null; rc=${PIPESTATUS[0]}
	check "export $f | head: exit 0, as a --batch session (rc $rc)" [ "$rc" -eq 0 ]
done
