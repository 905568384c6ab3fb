/* bench_bare [--wake | --libproc2] [INTERVAL]: the floor of watching, what
 * the cost part sets iodash against.  On fds kept open, and nothing else
 * (no parse, no screen, no tracing), the reads iodash's sampler makes:
 *   (default)    every INTERVAL seconds (default 0.1) a pread of
 *                /proc/vmstat and /proc/diskstats; once a second also
 *                /proc/meminfo, the six /proc/sys/vm/dirty_* knobs and
 *                /proc/pressure/io (iodash's slow sources)
 *   --libproc2   the same, but vmstat through libproc2's
 *                procps_vmstat_select of the snapshot's items, as iodash
 *                reads it: its cost over the default run is what the
 *                library's read costs end to end (the wake-up, the kernel
 *                and a cold cache included, which callgrind does not see)
 *   --wake       no read at all: what waking up INTERVAL costs by itself
 * Runs until killed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libproc2/vmstat.h>

#include "iodash/sample/snapshot.h"

/* vmstat first (--libproc2 reads it through the library), then what is
 * read every tick, then the slow sources, read once a second; PSI last:
 * it may be absent (psi=0), as iodash allows. */
static const char *const files[] = {
	"/proc/vmstat", "/proc/diskstats",
	"/proc/meminfo", "/proc/sys/vm/dirty_background_bytes", "/proc/sys/vm/dirty_bytes",
	"/proc/sys/vm/dirty_background_ratio", "/proc/sys/vm/dirty_ratio",
	"/proc/sys/vm/dirty_expire_centisecs", "/proc/sys/vm/dirty_writeback_centisecs",
	"/proc/pressure/io",
};
enum { NFILES = sizeof(files) / sizeof(files[0]), NFAST = 2 };

#define SNAP_ITEM_ENUM(field, key, item, req) item,
static enum vmstat_item vm_items[] = { SNAP_VMSTAT_ITEMS(SNAP_ITEM_ENUM) };
#undef SNAP_ITEM_ENUM
enum { VM_N = sizeof(vm_items) / sizeof(vm_items[0]) };

static int usage(void)
{
	fprintf(stderr, "usage: bench_bare [--wake | --libproc2] [INTERVAL seconds, 0 < INTERVAL <= 60]\n");
	return 2;
}

int main(int argc, char **argv)
{
	enum { PREADS, LIBPROC2, WAKE } mode = PREADS;
	double interval = 0.1;
	static char buf[1 << 16];
	int fd[NFILES];
	struct vmstat_info *vm = NULL;
	struct timespec next;
	volatile unsigned long sink = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--wake"))
			mode = WAKE;
		else if (!strcmp(argv[i], "--libproc2"))
			mode = LIBPROC2;
		else if (argv[i][0] == '-' && argv[i][1])
			return usage();
		else
			interval = strtod(argv[i], NULL);
	}
	if (!(interval > 0 && interval <= 60))
		return usage();
	for (int i = 0; i < NFILES && mode != WAKE; i++)
		if ((fd[i] = open(files[i], O_RDONLY | O_CLOEXEC)) < 0 && i != NFILES - 1) {
			fprintf(stderr, "bench_bare: cannot open %s: %s\n", files[i], strerror(errno));
			return 1;
		}
	if (mode == LIBPROC2 && procps_vmstat_new(&vm) < 0) {
		fprintf(stderr, "bench_bare: libproc2 cannot read /proc/vmstat\n");
		return 1;
	}
	long step_ns = (long)(interval * 1e9);
	long ticks_a_second = interval < 1 ? (long)(1 / interval + 0.5) : 1;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long tick = 0;; tick++) {
		int nread = tick % ticks_a_second ? NFAST : NFILES;
		for (int i = 0; i < nread && mode != WAKE; i++) {
			if (i == 0 && mode == LIBPROC2) {
				struct vmstat_stack *st = procps_vmstat_select(vm, vm_items, VM_N);
				if (!st) {
					fprintf(stderr, "bench_bare: libproc2 cannot read /proc/vmstat\n");
					return 1;
				}
				sink += st->head[0].result.ul_int;
				continue;
			}
			if (fd[i] >= 0 && pread(fd[i], buf, sizeof(buf), 0) < 0) {
				fprintf(stderr, "bench_bare: cannot read %s: %s\n", files[i], strerror(errno));
				return 1;
			}
		}
		next.tv_nsec += step_ns;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
}
