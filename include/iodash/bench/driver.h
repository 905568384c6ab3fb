/* bench/driver: run, sweep and attach drivers (the benchmark half of
 * iodash); struct bench_driver is the interface a session runs (app.h).
 *
 *   cmd_run / cmd_sweep / cmd_attach -> bench_driver_create() -> app_session_start()
 *   driver thread: spawn on a pty -> raw bytes -> parser -> result points
 *                                   \-> lines -> model_add_output
 *                  every sample period: proctree (io, throttled tasks),
 *                  tracefs pauses -> model_set_bench
 *
 * Exit code of a session with a benchmark (m->exit_code): 0 when the run
 * (or every run of a sweep) exited 0; 1 when any run failed, was killed,
 * was stopped by the user, or could not be started.  A sweep goes on after
 * a failed run (unless --stop-on-fail) and still returns 1 at its end, so a
 * script sees that something failed; the failed runs are marked in events.
 * attach returns 0 when the watched process exits (its status is not
 * visible: it is not our child) and when iodash stops watching (q, SIGINT,
 * SIGTERM, SIGHUP, --count/--duration): an attached process is watched,
 * never signalled, and is left running. */
#ifndef IODASH_BENCH_DRIVER_H
#define IODASH_BENCH_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "iodash/bench/sweep.h"
#include "iodash/session/app.h"

/* What the driver runs or watches; src/cmd/ fills it from the command
 * line.  The strings are the caller's and must outlive the driver. */
enum bench_kind { BENCH_KIND_NONE, BENCH_KIND_RUN, BENCH_KIND_SWEEP, BENCH_KIND_ATTACH };
struct bench_config {
	enum bench_kind kind;
	double interval;                 /* -i: a tick of the process tree */
	const char *label;               /* -l, NULL: from the command (or the process) */
	const char *parser;              /* --parser, NULL: from argv[0] */
	char *const *argv;               /* run, sweep: the benchmark's command */
	int argc;
	const char *const *params;       /* sweep -p NAME=V1,V2 */
	int nparams;
	int repeat;                      /* sweep --repeat, 1 */
	const char *between;             /* sweep --between CMD */
	bool stop_on_fail;               /* sweep --stop-on-fail */
	struct sweep_decide_config decide;  /* sweep --until-decided (sweep.h) */
	const char *const *sysctls;      /* run, sweep --sysctl KEY=VALUE */
	int nsysctls;
	pid_t pid;                       /* attach PID */
	const char *log;                 /* attach --log FILE */
	bool live_counters;              /* the session samples this machine (not
					  * --proc-root, --host): the runs' summaries */
};

/* Build the driver of cfg->kind.  Usage errors return -EINVAL (exit 2),
 * others -errno (exit 1). */
int bench_driver_create(const struct bench_config *cfg, struct bench_driver **out,
			char *err, size_t errlen);

#endif
