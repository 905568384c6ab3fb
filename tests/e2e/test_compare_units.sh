#!/usr/bin/env bash
# compare pools one metric in one unit: readers give a value as the tool
# printed it (fio's BW=200KiB/s, BW=351MiB/s), and compare converts each
# metric's points to the unit most of them have (a tie: the smaller one).
. "$(dirname "$0")/lib.sh"
BO="$FIX/bench-output/fio"
KIB="$BO/fio-3.33-randread-rate-200k-normal.txt"   # read: IOPS=49, BW=200KiB/s
MIB="$BO/fio-randread-direct-normal.txt"           # read: IOPS=90.0k, BW=351MiB/s
MIB2="$BO/fio-randread-direct-status-interval-1s.txt"   # final: BW=343MiB/s

# two in MiB/s, one in KiB/s: all in MiB/s, 200 KiB/s as 0.1953125 MiB/s
"$IODASH" compare --csv --metric read_bw "$KIB" "$MIB" "$MIB2" >"$TMPD/three.csv" 2>"$TMPD/three.err"; rc=$?
check "compare units: exit 0, nothing on stderr" [ "$rc" -eq 0 -a ! -s "$TMPD/three.err" ]
check "compare units: every read_bw row in MiB/s" bash -c "[ \$(grep -c '^read_bw,MiB/s,' '$TMPD/three.csv') = 3 ] && ! grep -q '^read_bw,KiB/s' '$TMPD/three.csv'"
check "compare units: BW=200KiB/s given as 0.1953125 MiB/s" grep -q '^read_bw,MiB/s,bs_kb,4,fio-3.33-randread-rate-200k-normal,,1,1,0.1953125,' "$TMPD/three.csv"
check "compare units: BW=351MiB/s as printed" grep -q '^read_bw,MiB/s,bs_kb,4,fio-randread-direct-normal,,1,1,351,' "$TMPD/three.csv"
check "compare units: BW=343MiB/s as printed" grep -q '^read_bw,MiB/s,bs_kb,4,fio-randread-direct-status-interval-1s,,1,1,343,' "$TMPD/three.csv"

# one of each, pooled as runs of one label: a tie, so the smaller unit
"$IODASH" compare --csv --metric read_bw --label "$(basename "$KIB")=box" --label "$(basename "$MIB")=box" \
	"$KIB" "$MIB" >"$TMPD/pool.csv" 2>"$TMPD/pool.err"; rc=$?
check "compare units: two runs of one label, in KiB/s (a tie: the smaller unit)" \
	grep -q '^read_bw,KiB/s,bs_kb,4,box,,2,2,179812,.*,200,359424,' "$TMPD/pool.csv"

# the same text alone: its own unit
"$IODASH" compare --csv --metric read_bw "$MIB" >"$TMPD/one.csv" 2>/dev/null
check "compare units: one source keeps its printed unit" grep -q '^read_bw,MiB/s,bs_kb,4,fio-randread-direct-normal,,1,1,351,' "$TMPD/one.csv"
