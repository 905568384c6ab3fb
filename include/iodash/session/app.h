/* app: the glue of a sampling session.  Opens the probe, starts the sampler
 * thread feeding the model, opens the recording, starts a benchmark driver
 * (run, sweep, attach) if any; the command (src/cmd/) runs its front end
 * (ui or batch) on the model until the session is over.
 *
 *   probe -> sampler thread -> model <- bench driver thread(s)
 *                                |  \-> recorder (observer)
 *                                v
 *              the command's front end (main thread: ui or batch)
 */
#ifndef IODASH_APP_H
#define IODASH_APP_H

#include <signal.h>
#include <sys/types.h>
#include "cmd/cli.h"
#include "iodash/model/model.h"

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

/* A sampling session: the probe, the sampler thread feeding the model,
 * the recording, the benchmark driver (run, sweep, attach; NULL: live).
 * The command runs its front end on app_session_model() between start
 * and end; nothing here prints or draws.
 *
 * start: 0, or -errno with err filled (nothing left running, no stray
 * recording; drv is destroyed).  end: waits for the driver, stops the
 * sampler, writes the recording out; 0, or -errno with err filled when
 * the recording could not be written whole.  free: closes everything
 * (and destroys drv). */
struct app_session;
int app_session_start(struct app_session **s, const struct iodash_opts *o,
		      struct bench_driver *drv, char *err, size_t errlen);
struct model *app_session_model(struct app_session *s);
int app_session_end(struct app_session *s, char *err, size_t errlen);
/* After end: the PID of an attached process left running (0 none), and
 * the default recording's name to tell the user (NULL: none to tell). */
pid_t app_session_left_running(const struct app_session *s);
const char *app_session_recorded_to(const struct app_session *s);
void app_session_free(struct app_session *s);

/* Whether a session with these options writes a recording (-o, or the
 * default one of run and sweep): then a closed output does not end it. */
bool app_session_records(const struct iodash_opts *o);
/* Seconds a graph sub-column stands for: the first -r (the refresh keys
 * change how often the screen is drawn, not what a column is). */
double app_graph_seconds(const struct iodash_opts *o);
/* A screen will show the model: its graphs' history is kept from the
 * first sample (call before the producers start).  0 or -ENOMEM. */
int app_keep_graph_history(struct model *m, const struct iodash_opts *o);

/* SIGHUP, SIGINT and SIGTERM set the flags below (no SA_RESTART: a poll
 * returns EINTR and the front end looks); SIGPIPE is ignored. */
void app_install_signals(void);

/* Set when SIGHUP arrives: the front end drops the screen and goes on
 * headless until the benchmark ends.  Set from the handler only. */
extern volatile sig_atomic_t app_got_sighup;
extern volatile sig_atomic_t app_got_sigint;     /* counts SIGINTs */
/* SIGTERM: stop the benchmark (as a confirmed Ctrl-C) and end the session. */
extern volatile sig_atomic_t app_got_sigterm;

#endif
