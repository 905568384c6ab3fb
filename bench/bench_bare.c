/* bench_bare [INTERVAL]: the floor of watching, what the cost part sets
 * iodash against: every INTERVAL seconds (default 0.1) a pread of
 * /proc/vmstat, /proc/meminfo and /proc/diskstats on fds kept open, and
 * nothing else (no parse, no screen, no tracing).  Runs until killed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static const char *const files[] = { "/proc/vmstat", "/proc/meminfo", "/proc/diskstats" };
enum { NFILES = sizeof(files) / sizeof(files[0]) };

int main(int argc, char **argv)
{
	double interval = argc > 1 ? strtod(argv[1], NULL) : 0.1;
	static char buf[1 << 16];
	int fd[NFILES];
	struct timespec next;

	if (!(interval > 0 && interval <= 60)) {
		fprintf(stderr, "usage: bench_bare [INTERVAL seconds, 0 < INTERVAL <= 60]\n");
		return 2;
	}
	for (int i = 0; i < NFILES; i++)
		if ((fd[i] = open(files[i], O_RDONLY | O_CLOEXEC)) < 0) {
			fprintf(stderr, "bench_bare: cannot open %s\n", files[i]);
			return 1;
		}
	long step_ns = (long)(interval * 1e9);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		for (int i = 0; i < NFILES; i++)
			if (pread(fd[i], buf, sizeof(buf), 0) < 0) {
				fprintf(stderr, "bench_bare: cannot read %s\n", files[i]);
				return 1;
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
