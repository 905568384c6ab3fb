#!/usr/bin/env bash
# gen_disks.sh DIR NDEV NSAMPLES [INTERVAL]: a recorded trace (index.tsv +
# samples/, as --proc-root replays it) of a box with NDEV whole disks
# (sda, sdb ... sdaa ..., the kernel's names past 26) whose counters all
# move every sample, INTERVAL seconds apart (default 1).  Disk k is busy
# ((k * 37) % 97 + 1) % of the time and does (k % 13 + 1) * 10 writes of
# 8 sectors and k % 5 reads a second: a spread the busiest-first order
# and the filters can be checked against.  Also DIR/proc: the last sample
# laid out like /proc (vmstat, meminfo, diskstats, sys/vm/dirty_*).
set -eu
dir=$1 n=$2 ns=$3 iv=${4:-1}
mkdir -p "$dir/samples" "$dir/proc/sys/vm"
awk -v dir="$dir" -v n="$n" -v ns="$ns" -v iv="$iv" '
function dname(k,   s) {   # the kernel sd naming: a..z, aa..zz, aaa..
	s = ""
	k++
	while (k > 0) { k--; s = substr("abcdefghijklmnopqrstuvwxyz", k % 26 + 1, 1) s; k = int(k / 26) }
	return "sd" s
}
BEGIN {
	idx = dir "/index.tsv"
	print "sample\tt_rel_s\trealtime_epoch\tfile" > idx
	for (i = 0; i < ns; i++) {
		f = sprintf("samples/%05d.txt", i)
		t = i * iv
		printf "%d\t%.6f\t%.9f\t%s\n", i, t, 1796226031 + t, f > idx
		out = dir "/" f
		printf "# sample=%05d t_rel=%.6f mono=%.6f realtime=%.9f\n", i, t, 1000 + t, 1796226031 + t > out
		print "==> /proc/vmstat <==" > out
		printf "nr_free_pages 1000000\nnr_dirty %d\nnr_writeback 100\nnr_writeback_temp 0\n", 2000 + i > out
		printf "nr_dirty_threshold 65536\nnr_dirty_background_threshold 32768\n" > out
		printf "nr_dirtied %d\nnr_written %d\npgpgin %d\npgpgout %d\n", 1000 * i, 990 * i, 10 * i, 4000 * i > out
		print "==> /proc/meminfo <==" > out
		printf "MemTotal:        8000000 kB\nMemFree:         4000000 kB\nMemAvailable:    6000000 kB\n" > out
		printf "Cached:          1000000 kB\nDirty:           %d kB\nWriteback:       400 kB\n", 8000 + 4 * i > out
		print "==> /proc/diskstats <==" > out
		for (k = 0; k < n; k++) {
			r = (k % 5) * i * iv; w = (k % 13 + 1) * 10 * i * iv
			busy = int(((k * 37) % 97 + 1) * 10 * i * iv)
			printf "%4d %7d %s %d 0 %d %d %d 0 %d %d 0 %d %d 0 0 0 0 %d %d\n",
				8, 16 * k, dname(k), r + 1, 8 * r + 8, r, w + 1, 8 * w + 8, 2 * w,
				busy, 3 * w, i, i > out
		}
		print "==> /proc/sys/vm/dirty_background_bytes <==\n0" > out
		print "==> /proc/sys/vm/dirty_background_ratio <==\n10" > out
		print "==> /proc/sys/vm/dirty_bytes <==\n0" > out
		print "==> /proc/sys/vm/dirty_expire_centisecs <==\n3000" > out
		print "==> /proc/sys/vm/dirty_ratio <==\n20" > out
		print "==> /proc/sys/vm/dirty_writeback_centisecs <==\n500" > out
		close(out)
	}
}'
# the last sample as a /proc directory
last=$(printf '%s/samples/%05d.txt' "$dir" $((ns - 1)))
awk -v d="$dir/proc" '
/^==> \/proc\// { f = $2; sub("^/proc/", "", f); out = d "/" f; printf "" > out; next }
/^#/ { next }
out { print > out }' "$last"
