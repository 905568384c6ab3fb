/* bench_procio N: the cost of one scan of the context panel (procio.h)
 * on the live /proc: one warm-up scan, then N scans, and prints
 *   procio: A us/scan wall, B us/scan CPU (user+sys), P processes
 * N=0 does the set-up only, so that callgrind's count of N minus N=0 is
 * the cost of N scans in user space (the kernel's side of the few hundred
 * open/read/close is in the CPU time, not in callgrind's count). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include "iodash/probe/procio.h"

static double cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 200;
	static struct procio_view v;
	struct procio p;
	char err[256];

	if (n < 0) {
		fprintf(stderr, "usage: bench_procio [N>=0]\n");
		return 2;
	}
	procio_init(&p, NULL);
	if (procio_scan(&p, procio_now(), 0, NULL, &v, err, sizeof(err))) {
		fprintf(stderr, "bench_procio: %s\n", err);
		return 1;
	}
	double w0 = procio_now(), c0 = cpu_s();
	for (long i = 0; i < n; i++)
		if (procio_scan(&p, procio_now(), 0, NULL, &v, err, sizeof(err))) {
			fprintf(stderr, "bench_procio: %s\n", err);
			return 1;
		}
	double w = procio_now() - w0, c = cpu_s() - c0;
	if (n)
		printf("procio: %.0f us/scan wall, %.0f us/scan CPU (user+sys), %d processes\n", w / n * 1e6,
		       c / n * 1e6, v.nprocs);
	procio_free(&p);
	return 0;
}
