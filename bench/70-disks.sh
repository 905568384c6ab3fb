#!/usr/bin/env bash
# What a sample costs as the disks grow, beside iostat on as many disks.
# For DISKS_SIZES (default 16 64 256 1024) disks:
#   iodash  a trace made by bench/gen_disks.sh (every disk's counters move
#           every sample), replayed with --proc-root, --batch (its three
#           default figures of every disk printed each sample, to
#           /dev/null):
#           instructions a sample (instr/smp): callgrind, (a run of 22 samples - one of
#             2) / 20, --fast (every instruction of the process counted:
#             read, parse, derive, model, print);
#           CPU a second at -i 1 (cpu ms/s; us/disk/s: that over the
#             disks): the trace paced at 1 s, schedstat of the
#             process over DISKS_SECONDS (default 20) after 3 s.
#   iostat  `iostat -x 1` (sysstat) on the machine's real devices plus as
#           many loop devices (losetup, sparse files on /dev/shm, one read
#           each so that iostat lists them; removed at exit), the same
#           two figures (callgrind: 12 reports - 2, / 10).  Root only;
#           without root, or where the loop devices cannot be made, only
#           iodash's figures.  iostat's devices do not move (a read a
#           second on each would cost the machine more than what is
#           measured); its read, parse and print are the same work.
# Then each one's cost per disk (the figure over the disks) and whether
# iodash's grows linearly (instructions a disk at the most disks within
# 25 % of those at 64).
set -u
cd "$(dirname "$0")/.."
. bench/lib.sh
[ -x ./iodash ] || { echo "disks: ./iodash not built, skipped"; exit 0; }
SIZES=${DISKS_SIZES:-16 64 256 1024}
SECS=${DISKS_SECONDS:-20}
W=$(mktemp -d /tmp/iodash-bench-disks.XXXXXX)
LOOPS=()
# the loop devices the machine had before: losetup -f makes new ones, and
# a detached loop device stays listed in /proc/diskstats until removed
LOOPS_BEFORE=" $(cd /sys/block 2>/dev/null && ls -d loop* 2>/dev/null | tr '\n' ' ') "
cleanup() {
	local l made=()
	for l in "${LOOPS[@]}"; do
		losetup -d "$l" 2>/dev/null
		case "$LOOPS_BEFORE" in *" ${l#/dev/} "*) ;; *) made+=("${l#/dev/loop}") ;; esac
	done
	# LOOP_CTL_REMOVE (0x4C81) of the devices this script made, and only those
	[ ${#made[@]} -gt 0 ] && perl -e 'open(my $c, "<", "/dev/loop-control") or exit 0;
		ioctl($c, 0x4C81, $_ + 0) for @ARGV' "${made[@]}"
	rm -rf "$W" /dev/shm/iodash-bench-disks.$$
}
trap cleanup EXIT

# cg_instr CMD...: instructions callgrind counts for CMD (every thread)
cg_instr() {
	valgrind --tool=callgrind --callgrind-out-file="$W/cg" "$@" >/dev/null 2>"$W/cg.log" || { echo n/a; return; }
	sed -n 's/^\(summary\|totals\): *\([0-9]*\).*/\2/p' "$W/cg" | tail -1
}
# cpu_per_s PID: ms of CPU a second of PID over SECS, after 3 s
cpu_per_s() {
	local p=$1 c0 c1 u0 u1
	sleep 3
	c0=$(cpu_ns "$p") u0=$(awk '{print $1}' /proc/uptime)
	sleep "$SECS"
	c1=$(cpu_ns "$p") u1=$(awk '{print $1}' /proc/uptime)
	awk -v c=$((c1 - c0)) -v u0="$u0" -v u1="$u1" 'BEGIN { printf "%.3f", c / 1e6 / (u1 - u0) }'
}
# loops_to N: as many loop devices of ours as N (sparse 1 MiB files on
# /dev/shm, each read once); 0, or 1 when they cannot be made
loops_to() {
	local n=$1 f l
	mkdir -p /dev/shm/iodash-bench-disks.$$ || return 1
	while [ "${#LOOPS[@]}" -lt "$n" ]; do
		f=/dev/shm/iodash-bench-disks.$$/d${#LOOPS[@]}
		truncate -s 1M "$f" || return 1
		l=$(losetup -f --show "$f" 2>/dev/null) || return 1
		LOOPS+=("$l")
		dd if="$l" of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null
	done
}

have_cg=$(command -v valgrind >/dev/null && echo 1)
can_iostat=
if [ "$(id -u)" = 0 ] && command -v iostat >/dev/null && command -v losetup >/dev/null; then can_iostat=1
else echo "disks: iostat's figures need root, sysstat's iostat and losetup: iodash's only"; fi
base=$(awk 'NR > 0 && ($4 + $8 + $16 > 0) { n++ } END { print n + 0 }' /proc/diskstats)

printf '%-6s %16s %10s %9s %9s   %16s %10s %9s %9s\n' disks "iodash instr/smp" "instr/disk" "cpu ms/s" "us/disk/s" \
	"iostat instr/smp" "instr/disk" "cpu ms/s" "us/disk/s"
declare -A IPD
for n in $SIZES; do
	T="$W/t$n"
	bash bench/gen_disks.sh "$T" "$n" $((SECS + 10)) 1 >/dev/null
	ii=n/a ic=n/a si=n/a sc=n/a
	if [ -n "$have_cg" ]; then
		a=$(cg_instr ./iodash --batch --fast --no-publish --no-trace --proc-root "$T" --count 2)
		b=$(cg_instr ./iodash --batch --fast --no-publish --no-trace --proc-root "$T" --count 22)
		[ "$a" != n/a ] && [ "$b" != n/a ] && ii=$(( (b - a) / 20 ))
	fi
	./iodash --batch -i 1 --no-publish --no-trace --proc-root "$T" >/dev/null 2>&1 &
	p=$!
	ic=$(cpu_per_s "$p")
	kill "$p" 2>/dev/null; wait "$p" 2>/dev/null
	if [ -n "$can_iostat" ] && loops_to "$n"; then
		nd=$(( ${#LOOPS[@]} + base ))
		if [ -n "$have_cg" ]; then
			a=$(cg_instr iostat -x 1 2)
			b=$(cg_instr iostat -x 1 12)
			[ "$a" != n/a ] && [ "$b" != n/a ] && si=$(( (b - a) / 10 ))
		fi
		iostat -x 1 >/dev/null 2>&1 &
		p=$!
		sc=$(cpu_per_s "$p")
		kill "$p" 2>/dev/null; wait "$p" 2>/dev/null
	else
		nd=$n
		[ -n "$can_iostat" ] && { echo "disks: $n loop devices could not be made: iostat skipped from here"; can_iostat=; }
	fi
	awk -v n="$n" -v nd="$nd" -v ii="$ii" -v ic="$ic" -v si="$si" -v sc="$sc" 'function per(x, d, f) { return x == "n/a" ? "n/a" : sprintf(f, x / d) }
	BEGIN { printf "%-6d %16s %10s %9s %9s   %16s %10s %9s %9s%s\n", n, ii, per(ii, n, "%.0f"), ic, per(ic * 1000, n, "%.2f"),
		si, per(si, nd, "%.0f"), sc, per(sc * 1000, nd, "%.2f"), nd != n ? sprintf("  (iostat: %d devices, %d of them loops)", nd, n) : "" }'
	IPD[$n]=$ii
done
if [ -n "${IPD[64]:-}" ] && [ "${IPD[64]}" != n/a ]; then
	last=${SIZES##* }
	awk -v a="${IPD[64]}" -v b="${IPD[$last]}" -v n="$last" 'BEGIN {
		if (b == "n/a") exit
		r = (b / n) / (a / 64)
		printf "iodash: instructions a disk at %d disks are %.2f x those at 64: %s\n", n, r, r <= 1.25 ? "linear" : "NOT linear" }'
fi
