/* app: one sampling session, from the probe to the front end.
 *
 *   probe --> sampler thread --> model <-- benchmark driver thread(s)
 *                                  |  `--> recorder (observer, flushed 1/s)
 *                                  v
 *              the command's front end (main thread)
 *
 * The command (src/cmd/) starts the session, runs its front end on the
 * model and ends the session: this glue never prints and never calls a
 * front end.  Signals only set flags (signals.h); the front end and the
 * drivers act on them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "iodash/session/app.h"
#include "iodash/throttle/ktrace.h"
#include "iodash/probe/probe.h"
#include "iodash/parsers/parser.h"
#include "iodash/session/publish.h"
#include "iodash/record/record_place.h"
#include "iodash/record/recorder.h"
#include "iodash/session/sampler.h"
#include "iodash/base/signals.h"

/* The samples queued for a front end that takes each one (a sample with
 * 16 disks is 6 KiB).  The screen keeps its graphs' history apart
 * (history.h) and needs only the newest; the benchmark driver takes the
 * queue every tick (-i); batch, on every sample, keeps more room for a
 * reader that stalls (dropped samples are said on its next line). */
#define APP_SERIES_CAP 32
#define APP_BATCH_SERIES_CAP 1024

/* Recording: flush at least once a second, from the sampler thread. */
struct app_flush {
	struct recorder *rec;
	struct model *m;
	double last_flush_t;
	bool failed;
	struct publisher *pub;        /* mmv.iodash.*, NULL when not publishing */
	struct bench_status bench;    /* the sampler thread's copy, for pub */
	struct result_point last_result;   /* the same, of the last result */
	struct probe *host_probe;     /* --host: read what an iodash there runs */
	double remote_t;              /* when it was last read, -1 never */
};

/* One sampling session: what app_session_start() opened, in the order
 * app_session_free() closes it. */
struct app_session {
	struct app_config cfg;
	struct bench_driver *drv;
	struct probe *probe;
	struct sampler *sampler;
	struct recorder *rec;
	struct ktrace *kt;             /* the kernel's throttling, NULL: sampled */
	struct publisher *pub;         /* mmv.iodash.*, NULL when not publishing */
	struct model m;
	bool have_model;
	struct app_flush flush;
	const char *rec_path;
	char pathbuf[256];
	pid_t left_pid;               /* an attached process left running, 0 none */
	const char *recorded_to;      /* the default recording's name to tell, NULL none */
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

/* --host: the benchmark an iodash on that host publishes (mmv.iodash),
 * once a second, for the header: that host runs it, not this session. */
static void app_read_remote_bench(struct app_flush *f, double t)
{
	struct probe_iodash b;
	char text[MODEL_LINE_LEN] = "", more[64];

	if (f->remote_t >= 0 && t - f->remote_t < 1.0)
		return;
	f->remote_t = t;
	if (probe_host_read_iodash(f->host_probe, &b) == 0 && b.have && strcmp(b.state, "none")) {
		size_t len = (size_t)snprintf(text, sizeof(text), "an iodash there: %s %s", b.state,
					      b.label[0] ? b.label : "(no label)");
		if (b.run && len < sizeof(text))
			len += (size_t)snprintf(text + len, sizeof(text) - len, ", run %u/%u", b.run, b.runs);
		more[0] = '\0';
		if (b.failed)
			snprintf(more, sizeof(more), ", %u failed", b.failed);
		if (b.eta_s)
			snprintf(more + strlen(more), sizeof(more) - strlen(more), ", ETA %u s", b.eta_s);
		if (len < sizeof(text))
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s%s", more,
						b.result[0] ? "; last: " : "", b.result);
	}
	model_set_remote_bench(f->m, text);
}

/* The newest final result whose metric is a headline one (dbench's
 * throughput rather than the max_latency it prints after it); the newest
 * result when none is (a mail table's "value").  Under the model's lock. */
static bool app_last_headline(const struct model *m, struct result_point *out)
{
	if (!m->results.n)
		return false;
	/* a run's points come together: look back over the last few only */
	for (size_t k = 0, i = m->results.n; i > 0 && k < 256; i--, k++) {
		const struct result_point *p = &m->results.v[i - 1];
		if ((p->flags & RP_FINAL) && parser_metric_is_headline(p->metric)) {
			*out = *p;
			return true;
		}
	}
	*out = m->results.v[m->results.n - 1];
	return true;
}

static void app_after_sample(void *ctx, const struct sample *s)
{
	struct app_flush *f = ctx;

	if (f->host_probe)
		app_read_remote_bench(f, s->t);
	if (f->pub) {
		model_lock(f->m);
		f->bench = f->m->bench;
		bool have_last = app_last_headline(f->m, &f->last_result);
		model_unlock(f->m);
		publish_sample(f->pub, s, &f->bench, have_last ? &f->last_result : NULL);
	}
	/* the first sample at once: a file that view opens right away is
	 * then more than a header */
	if (!f->rec || f->failed || (s->seq && s->t - f->last_flush_t < 1.0))
		return;
	f->last_flush_t = s->t;
	/* the recorder locks itself: a slow disk must not hold the model */
	app_check_recorder(f, s->t, recorder_flush(f->rec));
}

static void app_fill_host(struct model *m, const struct app_config *o, const struct probe *probe)
{
	struct utsname u;

	if (uname(&u) == 0) {
		snprintf(m->host, sizeof(m->host), "%s", u.nodename);
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
	}
	if (o->host) {
		/* the counters are that machine's, as its pmcd names it */
		const char *n = probe_host_nodename(probe), *k = probe_host_release(probe);
		snprintf(m->host, sizeof(m->host), "%s", n && n[0] ? n : o->host);
		snprintf(m->kernel, sizeof(m->kernel), "%s", k && k[0] ? k : "n/a");
		snprintf(m->source, sizeof(m->source), "pmcd %s", o->host);
	} else if (o->proc_root) {
		/* the counters are not this machine's: say whose they are */
		const char *n = probe_host_nodename(probe), *k = probe_host_release(probe);
		snprintf(m->source, sizeof(m->source), "%s %s",
			 n ? (o->fast ? "archive (fast)" : "archive") : o->fast ? "trace (fast)" : "proc-root",
			 o->proc_root);
		if (n) {
			/* a PCP archive names the machine it was logged on */
			snprintf(m->host, sizeof(m->host), "%s", n[0] ? n : "n/a");
			snprintf(m->kernel, sizeof(m->kernel), "%s", k && k[0] ? k : "n/a");
		}
		m->replay = true;
	} else {
		snprintf(m->source, sizeof(m->source), "live /proc");
	}
}

/* Whether the session writes a recording: -o, or the default one. */
static bool app_records(const struct app_config *o)
{
	return o->output || o->record_default;
}

/* The recording to write: -o, or for run and sweep the default name. */
static const char *app_recording_path(const struct app_config *o, char *buf, size_t len)
{
	if (!app_records(o))
		return NULL;
	if (o->output)
		return o->output;
	struct utsname u;
	size_t off = 0;
	/* --record-dir (or the config's record_dir): away from the disk under test */
	if (o->record_dir && (off = (size_t)snprintf(buf, len, "%s/", o->record_dir)) >= len)
		return NULL;
	if (recording_default_path(buf + off, len - off, uname(&u) == 0 ? u.nodename : "host", time(NULL)))
		return NULL;
	return buf;
}

static void app_halt_sampler(void *ctx)
{
	sampler_halt(ctx);
}

/* Throttling from the kernel whenever it can be followed; else the sampled
 * zone, said plainly (a note event, and model.thr for the screens).
 * Returns 0, or -EPERM with err filled when --trace-throttle insisted and
 * it cannot be. */
static int app_open_ktrace(const struct app_config *o, struct model *m, struct ktrace **kt,
			   char *error, size_t errlen)
{
	char err[256] = "", note[256] = "", why[MODEL_LINE_LEN];
	int rc = -1;

	*kt = NULL;
	if (o->proc_root)
		snprintf(why, sizeof(why), "the counters are replayed (--proc-root), not this kernel's");
	else if (o->host)
		snprintf(why, sizeof(why), "the counters are %s's (--host): this kernel's tracepoints would not be its", o->host);
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
		snprintf(error, errlen, "--trace-throttle: %s (run as root, or drop the option to use the sampled zone)", why);
		return -EPERM;
	}
	model_lock(m);
	m->thr.src = THR_SRC_SAMPLED;
	snprintf(m->thr.why_sampled, sizeof(m->thr.why_sampled), "%s", why);
	snprintf(m->thr.note, sizeof(m->thr.note), "throttling is sampled (%s): it can miss short pauses", why);
	model_unlock(m);
	return 0;
}

/* The recorder's file name, to tell the user: only for a default name
 * that no -o chose, on a session that ended cleanly. */
static void app_note_recording(struct app_session *s)
{
	const struct app_config *o = &s->cfg;

	if (!signals_hangup() && !o->batch && s->rec_path && !o->output)
		s->recorded_to = recorder_path(s->rec);
}

/* Where the recording goes, said when it starts (the events pane, a
 * --batch "=" line, the recording itself), with a warning when it is on
 * the device the benchmark writes to: its own writes would count in
 * that disk's figures. */
static void app_note_recording_place(struct app_session *s, const struct app_config *o)
{
	const char *path = recorder_path(s->rec);
	char why[512];

	model_add_event(&s->m, MEV_NOTE, 0, "recording to %s", path);
	if (o->bench_argv && record_place_check(path, o->bench_argv, o->bench_argc, why, sizeof(why)) > 0)
		model_add_event(&s->m, MEV_NOTE, 0,
				"warning: the recording is on the filesystem of %s, which the benchmark writes to: "
				"its writes add to that disk's figures (--record-dir DIR elsewhere)", why);
}

/* The probe of the session's source, and its first snapshot.  0 or
 * -errno with err. */
static int app_open_probe(struct app_session *s, struct snapshot *first, char *err, size_t errlen)
{
	const struct app_config *o = &s->cfg;
	int rc;

	if (o->proc_root)
		rc = probe_open_root(&s->probe, o->proc_root, err, errlen);
	else if (o->host)
		rc = probe_open_host(&s->probe, o->host, err, errlen);
	else
		rc = probe_open_live(&s->probe, err, errlen);
	if (rc)
		return rc;
	rc = probe_read(s->probe, first, err, errlen);
	if (rc == -ENODATA)
		snprintf(err, errlen, "--proc-root: the trace has no samples");
	return rc;
}

/* The model the producers fill and the front end reads.  0 or -errno. */
static int app_init_model(struct app_session *s, char *err, size_t errlen)
{
	const struct app_config *o = &s->cfg;
	int rc;

	if ((rc = model_init(&s->m, o->batch ? APP_BATCH_SERIES_CAP : APP_SERIES_CAP))) {
		snprintf(err, errlen, "cannot start: %s", strerror(-rc));
		return rc;
	}
	s->have_model = true;
	if (!o->batch && (rc = model_keep_history(&s->m, o->graph_seconds))) {
		snprintf(err, errlen, "cannot start: %s", strerror(-rc));
		return rc;
	}
	app_fill_host(&s->m, o, s->probe);
	s->m.bench_done = s->drv == NULL;
	s->m.with_bench = s->drv != NULL;
	s->m.backpressure = o->fast;
	/* batch prints every sample; the screen draws at its refresh */
	s->m.wake_on_sample = o->batch;
	return 0;
}

/* The recording, when one is asked for (its header from the first
 * snapshot), and the place it is on said.  0 or -errno with err. */
static int app_open_recording(struct app_session *s, const struct snapshot *first, char *err, size_t errlen)
{
	const struct app_config *o = &s->cfg;
	struct bench_driver *drv = s->drv;
	int rc;

	s->rec_path = app_recording_path(o, s->pathbuf, sizeof(s->pathbuf));
	if (!s->rec_path)
		return 0;
	struct rec_meta meta = {
		.host = s->m.host, .kernel = s->m.kernel, .first = first,
		.command = drv && drv->describe ? drv->describe(drv) : "",
		.label = o->label ? o->label : "", .source = s->m.source,
		.interval = o->interval,
	};
	rc = recorder_open(&s->rec, s->rec_path, o->output ? (o->force ? REC_FORCE : 0) : REC_UNIQUE,
			   &meta, err, errlen);
	if (rc)
		return rc;
	s->m.obs = recorder_observer(s->rec);
	app_note_recording_place(s, o);
	return 0;
}

/* The sampler thread, which publishes and flushes the recording after
 * each sample.  0 or -errno with err. */
static int app_start_sampler(struct app_session *s, const struct snapshot *first, char *err, size_t errlen)
{
	const struct app_config *o = &s->cfg;
	int rc;

	/* only this machine's own counters are published: not another
	 * host's (--host) nor a replay's, unless asked (--publish) */
	if (!o->no_publish && !o->host && (!o->proc_root || o->publish) &&
	    publish_open(&s->pub, err, errlen) < 0) {
		model_add_event(&s->m, MEV_NOTE, 0, "%s", err);
		err[0] = '\0';
	}
	s->flush = (struct app_flush){ .rec = s->rec, .m = &s->m, .pub = s->pub,
				       .host_probe = o->host ? s->probe : NULL, .remote_t = -1 };
	if (s->rec)
		app_check_recorder(&s->flush, 0, recorder_flush(s->rec));
	struct sampler_config sc = {
		.interval = o->interval, .fast = o->fast, .count = o->count,
		.duration = o->duration, .after_sample = app_after_sample, .ctx = &s->flush,
		.disks = o->disks,
		.ktrace = s->kt, .throttle_gap = o->throttle_gap,
	};
	if ((rc = sampler_start(&s->sampler, s->probe, &s->m, &sc, first, err, errlen)))
		return rc;
	model_lock(&s->m);
	s->m.halt_sampler = app_halt_sampler;
	s->m.halt_ctx = s->sampler;
	model_unlock(&s->m);
	return 0;
}

int app_session_start(struct app_session **out, const struct app_config *cfg,
		      struct bench_driver *drv, char *err, size_t errlen)
{
	struct app_session *s;
	struct snapshot first = { 0 };
	int rc;

	*out = NULL;
	if (!(s = calloc(1, sizeof(*s)))) {
		snprintf(err, errlen, "cannot start: %s", strerror(ENOMEM));
		if (drv && drv->destroy)
			drv->destroy(drv);
		return -ENOMEM;
	}
	s->cfg = *cfg;
	s->drv = drv;
	if ((rc = app_open_probe(s, &first, err, errlen)) || (rc = app_init_model(s, err, errlen)))
		goto fail;
	signals_install();
	if ((rc = app_open_ktrace(&s->cfg, &s->m, &s->kt, err, errlen)))
		goto fail;
	/* setting the tracepoints up takes a good part of a second: the
	 * session's first sample (and the recording's header, whose
	 * start_mono_ns view --time mono counts from) is read after it, or
	 * the first interval would be that long (-i 0.1 gave its second
	 * sample at 0.25 s) */
	if (s->kt && (rc = probe_read(s->probe, &first, err, errlen)))
		goto fail;
	if ((rc = app_open_recording(s, &first, err, errlen)) || (rc = app_start_sampler(s, &first, err, errlen)))
		goto fail;
	if (drv && (rc = drv->start(drv, &s->m, err, errlen)))
		goto fail;
	*out = s;
	snapshot_free(&first);   /* the sampler and the recorder keep copies */
	return 0;
fail:
	snapshot_free(&first);
	/* nothing ran: a recording of it would only mislead */
	sampler_stop(s->sampler);
	s->sampler = NULL;
	s->m.obs = (struct model_observer){ 0 };
	recorder_discard(s->rec);
	s->rec = NULL;
	app_session_free(s);
	return rc < 0 ? rc : -EIO;
}

int app_session_end(struct app_session *s, char *err, size_t errlen)
{
	int rc = 0;

	if (s->drv) {
		s->drv->join(s->drv);
		/* the screen is gone: what became of an attached process
		 * (--batch has said it in its run_end line) */
		model_lock(&s->m);
		if (s->m.bench.attached && s->m.bench.left_running)
			s->left_pid = s->m.bench.pid;
		model_unlock(&s->m);
	}
	sampler_stop(s->sampler);
	s->sampler = NULL;
	ktrace_close(s->kt);
	s->kt = NULL;
	if (s->rec) {
		s->m.obs = (struct model_observer){ 0 };
		/* A recording that could not be written whole is a failure of
		 * the session, even when every run went well. */
		if ((rc = recorder_flush(s->rec)))
			snprintf(err, errlen, "%s", recorder_error(s->rec));
		else
			app_note_recording(s);
	}
	return rc;
}

void app_session_free(struct app_session *s)
{
	if (!s)
		return;
	sampler_stop(s->sampler);
	ktrace_close(s->kt);
	if (s->rec) {
		s->m.obs = (struct model_observer){ 0 };
		recorder_close(s->rec);
	}
	if (s->drv && s->drv->destroy)
		s->drv->destroy(s->drv);
	/* after the sampler, whose thread publishes each sample */
	publish_close(s->pub);
	if (s->have_model)
		model_free(&s->m);
	probe_close(s->probe);
	free(s);
}

struct model *app_session_model(struct app_session *s) { return &s->m; }
pid_t app_session_left_running(const struct app_session *s) { return s->left_pid; }
const char *app_session_recorded_to(const struct app_session *s) { return s->recorded_to; }
