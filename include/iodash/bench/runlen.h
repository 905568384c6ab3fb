/* bench/runlen: how long a benchmark runs, from its command line. */
#ifndef IODASH_BENCH_RUNLEN_H
#define IODASH_BENCH_RUNLEN_H

#include <stdbool.h>

/* How long argv runs, where its command line says (dbench -t N, fio
 * --runtime with --time_based and --ramp_time, sysbench --time): 0 with
 * *secs, and *at_most when it may end sooner (fio without time_based,
 * sysbench with --events); -ENOENT when the command line does not say. */
int bench_run_length(char *const argv[], double *secs, bool *at_most);

#endif
