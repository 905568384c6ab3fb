/* app: the glue of a sampling session.  Opens the probe, starts the sampler
 * thread feeding the model, opens the recording, starts a benchmark driver
 * (run, sweep, attach) if any, and runs the front end (ui or batch) until
 * the session is over.
 *
 *   probe -> sampler thread -> model <- bench driver thread(s)
 *                                |  \-> recorder (observer)
 *                                v
 *                         ui or batch (main thread)
 */
#ifndef IODASH_APP_H
#define IODASH_APP_H

#include <signal.h>
#include "iodash/cli.h"
#include "iodash/model.h"

/* A benchmark driver: runs in its own thread(s), reports into the model,
 * sets model.bench_done (under lock) and notifies when it has finished. */
struct bench_driver {
	const char *name;                             /* "run", "sweep", "attach" */
	int (*start)(struct bench_driver *d, struct model *m, char *err, size_t errlen);
	void (*request_stop)(struct bench_driver *d); /* Ctrl-C confirmed: SIGINT the benchmark */
	void (*join)(struct bench_driver *d);         /* wait for the thread(s) to end */
	void (*destroy)(struct bench_driver *d);
	/* The command lines and label for the recording header. */
	const char *(*describe)(struct bench_driver *d);
	void *priv;
};

/* Run a sampling session (live dashboard, or a driver's benchmark).
 * Returns the process exit code. */
int app_run_session(const struct iodash_opts *o, struct bench_driver *drv);

/* Whether a session with these options writes a recording (-o, or the
 * default one of run and sweep): then a closed stdout does not end it. */
bool app_session_records(const struct iodash_opts *o);

/* For commands that only print (export, compare): a closed stdout ends the
 * process at once with 0, as a reader gone ends a --batch session. */
void app_end_on_closed_stdout(void);

/* Set when SIGHUP arrives: the front end drops the screen and goes on
 * headless until the benchmark ends.  Set from the handler only. */
extern volatile sig_atomic_t app_got_sighup;
extern volatile sig_atomic_t app_got_sigint;     /* counts SIGINTs */
/* SIGTERM: stop the benchmark (as a confirmed Ctrl-C) and end the session. */
extern volatile sig_atomic_t app_got_sigterm;

#endif
