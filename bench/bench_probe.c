/* bench_probe N [slow]: the per-sample cost of the live probe and derive.
 * Opens the live probe, reads one warm-up snapshot, then N times
 * probe_read + derive_sample against the previous snapshot, and prints
 * With "slow", the probe reads meminfo, the knobs and PSI at most once a
 * second, as the sampler has it: in a run of a few ms only the first read
 * does, so the figure is that of the samples in between (vmstat and
 * diskstats); without, every read reads every source.
 *   probe: A us/sample  derive: B us/sample  probe+derive: C us/sample
 * (wall time on CLOCK_MONOTONIC).  N=0 does the set-up only, so that
 * callgrind's count of N=1000 minus N=0 is the cost of 1000 samples. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodash/sample/derive.h"
#include "iodash/probe/probe.h"

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	static struct snapshot snap[2];
	static struct sample out;
	struct probe *p;
	char err[512];
	uint64_t t_probe = 0, t_derive = 0, t0;
	int rc;

	if (n < 0) {
		fprintf(stderr, "usage: bench_probe [N>=0]\n");
		return 2;
	}
	if ((rc = probe_open_live(&p, err, sizeof(err))) < 0) {
		fprintf(stderr, "bench_probe: %s\n", err);
		return 1;
	}
	if (argc > 2 && !strcmp(argv[2], "slow"))
		probe_set_slow_period(p, 1.0);
	if ((rc = probe_read(p, &snap[0], err, sizeof(err))) < 0) {
		fprintf(stderr, "bench_probe: %s\n", err);
		return 1;
	}
	derive_sample(NULL, &snap[0], snap[0].mono_ns, 0, NULL, &out);
	for (long i = 1; i <= n; i++) {
		struct snapshot *prev = &snap[(i - 1) & 1], *cur = &snap[i & 1];

		t0 = now_ns();
		if ((rc = probe_read(p, cur, err, sizeof(err))) < 0) {
			fprintf(stderr, "bench_probe: %s\n", err);
			return 1;
		}
		uint64_t t1 = now_ns();
		derive_sample(prev, cur, snap[0].mono_ns, (uint64_t)i, NULL, &out);
		t_derive += now_ns() - t1;
		t_probe += t1 - t0;
	}
	if (n > 0)
		printf("probe: %.2f us/sample  derive: %.3f us/sample  probe+derive: %.2f us/sample "
		       "(%ld samples, %d disks)\n",
		       t_probe / 1e3 / n, t_derive / 1e3 / n, (t_probe + t_derive) / 1e3 / n,
		       n, snap[n & 1].ndisks);
	probe_close(p);
	return 0;
}
