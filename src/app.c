/* app: one sampling session, from the probe to the front end.
 *
 *   probe --> sampler thread --> model <-- benchmark driver thread(s)
 *                                  |  `--> recorder (observer, flushed 1/s)
 *                                  v
 *                        ui or batch (main thread)
 *
 * Signals only set flags here; the front end and the drivers act on them. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "iodash/app.h"
#include "iodash/batch.h"
#include "iodash/commands.h"
#include "iodash/ktrace.h"
#include "iodash/probe.h"
#include "iodash/recording.h"
#include "iodash/sampler.h"
#include "iodash/ui.h"

volatile sig_atomic_t app_got_sighup;
volatile sig_atomic_t app_got_sigint;
volatile sig_atomic_t app_got_sigterm;

/* History the screens and batch can reach: at -i 0.5 about 34 minutes
 * (a sample with 16 disks is about 4 KiB). */
#define APP_SERIES_CAP 4096

static void app_on_signal(int sig)
{
	if (sig == SIGHUP)
		app_got_sighup = 1;
	else if (sig == SIGINT)
		app_got_sigint++;
	else
		app_got_sigterm = 1;
}

/* export and compare print and are done: a reader that goes away ends
 * them at once, with 0 and no message, as it ends a --batch session
 * (which handles EPIPE itself, see batch.c), not with death by SIGPIPE. */
static void app_on_sigpipe(int sig)
{
	(void)sig;
	_exit(0);
}

void app_end_on_closed_stdout(void)
{
	struct sigaction sa = { .sa_handler = app_on_sigpipe };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

static void app_install_signals(void)
{
	struct sigaction sa = { .sa_handler = app_on_signal };

	/* no SA_RESTART: poll() in the front end returns EINTR and looks */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed stdout (dropped ssh, `| head`) must not kill the session */
	signal(SIGPIPE, SIG_IGN);
}

/* Recording: flush at least once a second, from the sampler thread. */
struct app_flush {
	struct recorder *rec;
	struct model *m;
	double last_flush_t;
	bool failed;
};

/* rc of a flush: on a failure (a full disk) say so now (events pane,
 * batch "=" line) while sampling and the benchmark go on; the file keeps
 * what it has.  The reason first: the events pane is narrow. */
static void app_check_recorder(struct app_flush *f, double t, int rc)
{
	if (!rc)
		return;
	f->failed = true;
	model_add_event(f->m, MEV_NOTE, t, "recording stopped: %s; %s", strerror(-rc),
			recorder_error(f->rec));
}

static void app_after_sample(void *ctx, const struct sample *s)
{
	struct app_flush *f = ctx;

	/* the first sample at once: a file that view opens right away is
	 * then more than a header */
	if (!f->rec || f->failed || (s->seq && s->t - f->last_flush_t < 1.0))
		return;
	f->last_flush_t = s->t;
	/* the recorder locks itself: a slow disk must not hold the model */
	app_check_recorder(f, s->t, recorder_flush(f->rec));
}

static void app_fill_host(struct model *m, const struct iodash_opts *o)
{
	struct utsname u;

	if (uname(&u) == 0) {
		snprintf(m->host, sizeof(m->host), "%s", u.nodename);
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
	}
	if (o->proc_root) {
		/* the counters are not this machine's: say whose they are */
		snprintf(m->source, sizeof(m->source), "%s %s",
			 o->fast ? "trace (fast)" : "proc-root", o->proc_root);
		m->replay = true;
	} else {
		snprintf(m->source, sizeof(m->source), "live /proc");
	}
}

bool app_session_records(const struct iodash_opts *o)
{
	if (o->cmd == CMD_VIEW || o->cmd == CMD_COMPARE || o->cmd == CMD_EXPORT)
		return false;
	return o->output || (!o->no_record && (o->cmd == CMD_RUN || o->cmd == CMD_SWEEP));
}

/* The recording to write: -o, or for run and sweep the default name. */
static const char *app_recording_path(const struct iodash_opts *o, char *buf, size_t len)
{
	if (!app_session_records(o))
		return NULL;
	if (o->output)
		return o->output;
	struct utsname u;
	if (recording_default_path(buf, len, uname(&u) == 0 ? u.nodename : "host", time(NULL)))
		return NULL;
	return buf;
}

static void app_halt_sampler(void *ctx)
{
	sampler_halt(ctx);
}

/* Throttling from the kernel whenever it can be followed; else the sampled
 * zone, said plainly (a note event, and model.thr for the screens).
 * Returns 0, or 1 when --trace-throttle insisted and it cannot be. */
static int app_open_ktrace(const struct iodash_opts *o, struct model *m, struct ktrace **kt)
{
	char err[256] = "", note[256] = "", why[MODEL_LINE_LEN];
	int rc = -1;

	*kt = NULL;
	if (o->proc_root)
		snprintf(why, sizeof(why), "the counters are replayed (--proc-root), not this kernel's");
	else if (o->no_trace)
		snprintf(why, sizeof(why), "--no-trace");
	else if ((rc = ktrace_open(kt, o->throttle_gap, err, sizeof(err), note, sizeof(note))))
		snprintf(why, sizeof(why), "%s", err);
	if (!rc) {
		model_lock(m);
		m->thr.src = THR_SRC_KERNEL;
		snprintf(m->thr.note, sizeof(m->thr.note), "throttling from the kernel: writeback tracepoints in %s%s%s",
			 ktrace_instance(*kt), note[0] ? "; " : "", note);
		model_unlock(m);
		return 0;
	}
	if (o->trace_throttle) {
		fprintf(stderr, "iodash: --trace-throttle: %s (run as root, or drop the option to use the sampled zone)\n", why);
		return 1;
	}
	model_lock(m);
	m->thr.src = THR_SRC_SAMPLED;
	snprintf(m->thr.why_sampled, sizeof(m->thr.why_sampled), "%s", why);
	snprintf(m->thr.note, sizeof(m->thr.note), "throttling is sampled (%s): it can miss short pauses", why);
	model_unlock(m);
	return 0;
}

int app_run_session(const struct iodash_opts *o, struct bench_driver *drv)
{
	struct probe *probe = NULL;
	struct sampler *sampler = NULL;
	struct recorder *rec = NULL;
	struct ktrace *kt = NULL;
	struct model m;
	struct snapshot first;
	char err[512] = "", pathbuf[256];
	int rc, exit_code = 1;

	/* before the probe, the recording and the benchmark: a refusal leaves
	 * no stray recording behind and starts nothing */
	if (!o->batch && (rc = ui_check_terminal(err, sizeof(err)))) {
		fprintf(stderr, "iodash: %s\n", err);
		return 2;
	}
	if (o->proc_root)
		rc = probe_open_root(&probe, o->proc_root, err, sizeof(err));
	else
		rc = probe_open_live(&probe, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "iodash: %s\n", err);
		return 1;
	}
	rc = probe_read(probe, &first, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "iodash: %s\n", rc == -ENODATA ? "--proc-root: the trace has no samples" : err);
		probe_close(probe);
		return 1;
	}
	if ((rc = model_init(&m, APP_SERIES_CAP))) {
		fprintf(stderr, "iodash: cannot start: %s\n", strerror(-rc));
		probe_close(probe);
		return 1;
	}
	app_fill_host(&m, o);
	m.bench_done = drv == NULL;
	m.backpressure = o->fast;
	app_install_signals();

	const char *rec_path = app_recording_path(o, pathbuf, sizeof(pathbuf));
	if (rec_path) {
		struct rec_meta meta = {
			.host = m.host, .kernel = m.kernel, .first = &first,
			.command = drv && drv->describe ? drv->describe(drv) : "",
			.label = o->label ? o->label : "", .source = m.source,
			.interval = o->interval,
		};
		rc = recorder_open(&rec, rec_path, o->output ? (o->force ? REC_FORCE : 0) : REC_UNIQUE,
				   &meta, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "iodash: %s\n", err);
			goto out;
		}
		m.obs = recorder_observer(rec);
	}

	if ((rc = app_open_ktrace(o, &m, &kt)))
		goto out;

	struct app_flush flush = { .rec = rec, .m = &m };
	if (rec)
		app_check_recorder(&flush, 0, recorder_flush(rec));
	struct sampler_config sc = {
		.interval = o->interval, .fast = o->fast, .count = o->count,
		.duration = o->duration, .after_sample = app_after_sample, .ctx = &flush,
		.disks = o->disks,
		.ktrace = kt, .throttle_gap = o->throttle_gap,
	};
	if ((rc = sampler_start(&sampler, probe, &m, &sc, &first, err, sizeof(err)))) {
		fprintf(stderr, "iodash: %s\n", err);
		goto not_started;
	}
	model_lock(&m);
	m.halt_sampler = app_halt_sampler;
	m.halt_ctx = sampler;
	model_unlock(&m);
	if (drv && (rc = drv->start(drv, &m, err, sizeof(err)))) {
		fprintf(stderr, "iodash: %s\n", err);
		goto not_started;
	}

	exit_code = o->batch ? batch_run(&m, o, stdout) : ui_run(&m, o);
	if (drv) {
		drv->join(drv);
		/* the screen is gone: say what became of an attached process
		 * (--batch has said it in its run_end line) */
		model_lock(&m);
		bool left = m.bench.attached && m.bench.left_running;
		pid_t pid = m.bench.pid;
		model_unlock(&m);
		if (left && !o->batch && !app_got_sighup)
			fprintf(stderr, "iodash: stopped watching; left PID %d running\n", (int)pid);
	}
	goto out;
not_started:
	/* nothing ran: a recording of it would only mislead */
	sampler_stop(sampler);
	sampler = NULL;
	m.obs = (struct model_observer){ 0 };
	recorder_discard(rec);
	rec = NULL;
out:
	sampler_stop(sampler);
	ktrace_close(kt);
	if (rec) {
		m.obs = (struct model_observer){ 0 };
		/* A recording that could not be written whole is a failure of
		 * the session, even when every run went well. */
		if (recorder_flush(rec)) {
			fprintf(stderr, "iodash: %s\n", recorder_error(rec));
			if (!exit_code)
				exit_code = 1;
		} else if (!app_got_sighup && !o->batch && rec_path && !o->output) {
			fprintf(stderr, "iodash: recorded to %s\n", recorder_path(rec));
		}
		recorder_close(rec);
	}
	if (drv && drv->destroy)
		drv->destroy(drv);
	model_free(&m);
	probe_close(probe);
	return exit_code;
}

int cmd_live(const struct iodash_opts *o)
{
	return app_run_session(o, NULL);
}
