/* bench_libproc2 N: what each of libproc2's three reads costs, next to a
 * direct pread + parse of the same file (probe_text.c, the parser of
 * --proc-root and traces).  N calls of each, one function a source, so
 * that callgrind's inclusive count of a function / N is its cost a call:
 *   via_libproc2_vmstat     procps_vmstat_select (the snapshot's items)
 *   via_libproc2_meminfo    procps_meminfo_select
 *   via_libproc2_diskstats  procps_diskstats_reap
 *   direct_vmstat, direct_meminfo, direct_diskstats
 *   direct_vmstat6          what the issue of libproc2's cost asks to weigh:
 *                           a pread of /proc/vmstat and a scan that reads
 *                           only the six counters a sample needs (nr_dirty,
 *                           nr_writeback, the two thresholds, nr_dirtied,
 *                           nr_written) and steps over every other line;
 *                           iodash does not read vmstat so (libproc2 is its
 *                           live source): the figure says what that costs
 * Prints wall time a call of each (best of the run). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libproc2/diskstats.h>
#include <libproc2/meminfo.h>
#include <libproc2/vmstat.h>

#include "iodash/probe/probe.h"
#include "iodash/sample/snapshot.h"

#define SNAP_ITEM_ENUM(field, key, item, req) item,
static enum vmstat_item vm_items[] = { SNAP_VMSTAT_ITEMS(SNAP_ITEM_ENUM) };
static enum meminfo_item mi_items[] = { SNAP_MEMINFO_ITEMS(SNAP_ITEM_ENUM) };
#undef SNAP_ITEM_ENUM
static enum diskstats_item ds_items[] = {
	DISKSTATS_NAME, DISKSTATS_TYPE,
	DISKSTATS_READS, DISKSTATS_READS_MERGED, DISKSTATS_READ_SECTORS, DISKSTATS_READ_TIME,
	DISKSTATS_WRITES, DISKSTATS_WRITES_MERGED, DISKSTATS_WRITE_SECTORS, DISKSTATS_WRITE_TIME,
	DISKSTATS_IO_INPROGRESS, DISKSTATS_IO_TIME, DISKSTATS_WEIGHTED_TIME,
};

static struct vmstat_info *vm;
static struct meminfo_info *mi;
static struct diskstats_info *ds;
static struct snapshot snap;
static char buf[1 << 16];
static volatile unsigned long sink;

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

__attribute__((noinline)) static void via_libproc2_vmstat(void)
{
	struct vmstat_stack *s = procps_vmstat_select(vm, vm_items, sizeof(vm_items) / sizeof(vm_items[0]));
	sink += s ? VMSTAT_VAL(0, ul_int, s, vm) : 0;
}

__attribute__((noinline)) static void via_libproc2_meminfo(void)
{
	struct meminfo_stack *s = procps_meminfo_select(mi, mi_items, sizeof(mi_items) / sizeof(mi_items[0]));
	sink += s ? MEMINFO_VAL(0, ul_int, s, mi) : 0;
}

__attribute__((noinline)) static void via_libproc2_diskstats(void)
{
	struct diskstats_reaped *r = procps_diskstats_reap(ds, ds_items, sizeof(ds_items) / sizeof(ds_items[0]));
	sink += r ? (unsigned long)r->total : 0;
}

/* one file, read and parsed alone as the probe's own reader does */
static void direct(int fd, enum probe_text id)
{
	struct probe_texts t;
	char err[256];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	memset(&t, 0, sizeof(t));
	t.buf[id] = buf;
	t.len[id] = n > 0 ? (size_t)n : 0;
	probe_parse_texts(&t, 0, &snap, err, sizeof(err));
	sink += snap.ndisks + snap.nr_dirty + snap.dirty_kb;
}

/* The six counters by a scan: a line is looked at only when it starts
 * "nr_dirt" or "nr_writ". */
static unsigned long vm6[6];
static void scan_vmstat6(const char *p, const char *e)
{
	static const char *const key[6] = { "nr_dirty ", "nr_writeback ", "nr_dirty_threshold ",
					    "nr_dirty_background_threshold ", "nr_dirtied ", "nr_written " };
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			break;
		if (nl - p > 8 && p[0] == 'n' && p[1] == 'r' && p[2] == '_' &&
		    (!memcmp(p + 3, "dirt", 4) || !memcmp(p + 3, "writ", 4)))
			for (int k = 0; k < 6; k++) {
				size_t kl = strlen(key[k]);
				if ((size_t)(nl - p) > kl && !memcmp(p, key[k], kl)) {
					unsigned long v = 0;
					for (const char *d = p + kl; d < nl && *d >= '0' && *d <= '9'; d++)
						v = v * 10 + (unsigned long)(*d - '0');
					vm6[k] = v;
					break;
				}
			}
		p = nl + 1;
	}
}

static int fd_vm, fd_mi, fd_ds;
__attribute__((noinline)) static void direct_vmstat6(void)
{
	ssize_t n = pread(fd_vm, buf, sizeof(buf) - 1, 0);
	scan_vmstat6(buf, buf + (n > 0 ? n : 0));
	sink += vm6[0] + vm6[5];
}
__attribute__((noinline)) static void direct_vmstat(void) { direct(fd_vm, PROBE_TEXT_VMSTAT); }
__attribute__((noinline)) static void direct_meminfo(void) { direct(fd_mi, PROBE_TEXT_MEMINFO); }
__attribute__((noinline)) static void direct_diskstats(void) { direct(fd_ds, PROBE_TEXT_DISKSTATS); }

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	struct { const char *name; void (*fn)(void); } runs[] = {
		{ "via_libproc2_vmstat", via_libproc2_vmstat },
		{ "via_libproc2_meminfo", via_libproc2_meminfo },
		{ "via_libproc2_diskstats", via_libproc2_diskstats },
		{ "direct_vmstat", direct_vmstat },
		{ "direct_meminfo", direct_meminfo },
		{ "direct_diskstats", direct_diskstats },
		{ "direct_vmstat6", direct_vmstat6 },
	};

	if (n < 0 || procps_vmstat_new(&vm) < 0 || procps_meminfo_new(&mi) < 0 ||
	    procps_diskstats_new(&ds) < 0) {
		fprintf(stderr, "bench_libproc2: usage: bench_libproc2 [N>=0], with /proc mounted\n");
		return n < 0 ? 2 : 1;
	}
	fd_vm = open("/proc/vmstat", O_RDONLY);
	fd_mi = open("/proc/meminfo", O_RDONLY);
	fd_ds = open("/proc/diskstats", O_RDONLY);
	if (fd_vm < 0 || fd_mi < 0 || fd_ds < 0) {
		fprintf(stderr, "bench_libproc2: /proc: %s\n", strerror(errno));
		return 1;
	}
	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		uint64_t t0 = now_ns();
		for (long i = 0; i < n; i++)
			runs[r].fn();
		if (n > 0)
			printf("%s %.2f us\n", runs[r].name, (now_ns() - t0) / 1e3 / n);
	}
	procps_vmstat_unref(&vm);
	procps_meminfo_unref(&mi);
	procps_diskstats_unref(&ds);
	return 0;
}
