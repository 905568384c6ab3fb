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

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "iodash/sample/derive.h"
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

/* What a session samples, from where, and where it records; src/cmd/
 * fills it from the command line. */
struct app_config {
	double interval;          /* -i, seconds */
	double graph_seconds;     /* what a graph sub-column stands for: the first -r */
	long count;               /* --count samples, 0 = unlimited */
	double duration;          /* --duration seconds, 0 = unlimited */
	const char *proc_root;    /* --proc-root: a /proc-like directory, a trace, an archive */
	const char *host;         /* --host HOST[:PORT]: that machine's pmcd */
	bool fast;                /* --fast: a trace as fast as it can be read */
	bool batch;               /* the front end is --batch: it takes every sample */
	bool no_publish;          /* --no-publish */
	bool publish;             /* --publish: a --proc-root replay's too */
	struct derive_opts disks; /* --partitions, --all-disks */
	/* throttling */
	bool trace_throttle;      /* the kernel's tracepoints are required */
	bool no_trace;            /* never follow them */
	double throttle_gap;      /* --throttle-gap, 0: the default */
	/* the recording */
	const char *output;       /* -o, NULL: none asked */
	bool force;               /* -o may replace a file */
	bool record_default;      /* without -o, the default recording (run, sweep) */
	const char *record_dir;   /* the default recording's directory, NULL: . */
	const char *label;        /* -l, for its header */
	char *const *bench_argv;  /* the benchmark's argv (run, sweep): a recording on
				   * the filesystem it names is warned about; NULL none */
	int bench_argc;
};

/* A sampling session: the probe, the sampler thread feeding the model,
 * the recording, the benchmark driver (run, sweep, attach; NULL: live).
 * The command runs its front end on app_session_model() between start
 * and end; nothing here prints or draws.
 *
 * start: 0, or -errno with err filled (nothing left running, no stray
 * recording; drv is destroyed).  The session keeps a copy of cfg (its
 * strings must outlive it).  end: waits for the driver, stops the
 * sampler, writes the recording out; 0, or -errno with err filled when
 * the recording could not be written whole.  free: closes everything
 * (and destroys drv). */
struct app_session;
int app_session_start(struct app_session **s, const struct app_config *cfg,
		      struct bench_driver *drv, char *err, size_t errlen);
struct model *app_session_model(struct app_session *s);
int app_session_end(struct app_session *s, char *err, size_t errlen);
/* After end: the PID of an attached process left running (0 none), and
 * the default recording's name to tell the user (NULL: none to tell). */
pid_t app_session_left_running(const struct app_session *s);
const char *app_session_recorded_to(const struct app_session *s);
void app_session_free(struct app_session *s);

#endif
