#!/usr/bin/env bash
# The live path (libproc2 + our own read of /proc/diskstats) on odd lines
# and a re-created device.  libproc2 refuses a whole diskstats file that
# holds a line of fewer than 11 counters (ERANGE, at new and at every reap
# after); iodash must read such a file anyway.  In a private mount
# namespace a file is bound over /proc/diskstats and rewritten in place
# while iodash samples it: 14 counters, an old 4-field partition line, 20
# counters, 3 counters; then sdb re-created.  Needs root (mount).
. "$(dirname "$0")/lib.sh"
is_root || { skip "live diskstats odd lines" "needs root to bind a file over /proc/diskstats"; exit 0; }
command -v unshare >/dev/null && command -v python3 >/dev/null \
	|| { skip "live diskstats odd lines" "needs unshare and python3"; exit 0; }
unshare -m true 2>/dev/null || { skip "live diskstats odd lines" "unshare -m not permitted here"; exit 0; }

F="$TMPD/diskstats"
# every version the same length (fixed-width numbers), so one pwrite
# replaces it whole and a read never sees it cut
cat >"$TMPD/feed.py" <<'PY'
import os, sys, time
path = sys.argv[1]
def text(rd, sdb):
    return ("   8       0 sda %08d 0 %08d 0 %08d 0 %08d 0 0 %08d 0 0 0 0\n"
            "   8       1 sda1 %08d %08d %08d %08d\n"
            "   8      16 sdb %08d 0 %08d 0 %08d 0 %08d 0 0 00000100 0 0 0 0 0 00000007 0 1 2 3\n"
            "   8      32 sdc 1 2 3\n") % (rd, rd * 8, rd, rd * 8, rd, rd, rd * 8, rd, rd * 8,
                                          sdb, sdb * 8, sdb, sdb * 8)
def put(rd, sdb):
    fd = os.open(path, os.O_WRONLY)
    os.pwrite(fd, text(rd, sdb).encode(), 0)
    os.close(fd)
open(path, 'w').write(text(1000, 5000000))
if len(sys.argv) > 2:
    sys.exit(0)
# 1.5 s apart, so a 0.5 s sampler sees each state at least twice
for rd, sdb in ((1100, 5000100), (1200, 10), (1300, 110)):
    time.sleep(1.5)
    put(rd, sdb)
PY
python3 "$TMPD/feed.py" "$F" init
unshare -m bash -c "mount --bind '$F' /proc/diskstats && { python3 '$TMPD/feed.py' '$F' & \
	'$IODASH' --batch --no-trace -i 0.5 --count 14 -p ALL --columns r_s,w_s,rkB_s,util; rc=\$?; wait; exit \$rc; }" \
	>"$TMPD/out" 2>"$TMPD/err"; rc=$?
[ $rc -eq 0 ] && pass "live: a diskstats with 4- and 3-counter lines is read, exit 0" \
	|| fail "live: odd diskstats read, exit 0" "exit $rc: $(head -2 "$TMPD/err" | tr '\n' ' ')"
hdr=$(grep -m1 '^# time' "$TMPD/out")
echo "$hdr" | grep -q 'sda.r_s sda.w_s sda.rkB_s sda.util sda1.r_s sda1.w_s sda1.rkB_s sda1.util sdb.r_s .* sdc.r_s' \
	&& pass "live: sda, its 4-field partition, sdb, sdc listed" || fail "live: devices listed" "$hdr"
# after the first change: sda 100 reads (800 sectors) in 0.5 s = 200 r/s,
# 800 kB/s, 100 ms busy = 20 %util; sda1 (4 fields) the same, %util n/a
near() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b * 0.98 && a < b * 1.02) }'; }
ok=0
while read -r t _ _ _ _ _ _ r w k u pr pw pk pu _; do
	near "$r" 200 && near "$k" 800 && near "$u" 20 && near "$pr" 200 && near "$pk" 800 && [ "$pu" = n/a ] && ok=1
done < <(grep '^[0-9]' "$TMPD/out")
[ $ok = 1 ] && pass "live: 14-counter disk and 4-field partition rates (200 r/s, 800 kB/s; partition %util n/a)" \
	|| fail "live: 14-counter and 4-field rates" "$(grep '^[0-9]' "$TMPD/out" | sed -n 4,6p | tr '\n' ';')"
awk '/^[0-9]/ { if ($(NF-3) != "n/a" || $(NF-2) != "n/a" || $(NF-1) != "n/a" || $NF != "n/a") bad = 1 } END { exit bad }' "$TMPD/out" \
	&& pass "live: sdc (3 counters) n/a in every sample" || fail "live: sdc n/a" "$(grep '^[0-9]' "$TMPD/out" | tail -2)"
n=$(grep -c '^= .* note: sdb: counters reset (device re-created?)$' "$TMPD/out")
[ "$n" -eq 1 ] && pass "live: one reset event for sdb" || fail "live: one reset event for sdb" "$n events: $(grep note "$TMPD/out")"
# no rate above what the counters allow: at most 100 reads per 0.5 s
awk '/^[0-9]/ { for (i = 8; i <= NF; i++) if ($i != "n/a" && $i + 0 > 1600) { print; exit 1 } }' "$TMPD/out" >"$TMPD/big" \
	&& pass "live: no rate above what the counters allow" || fail "live: a rate above the counters" "$(cat "$TMPD/big")"
