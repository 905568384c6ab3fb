/* batch: the front end without curses.  Lines, for logs and scripts:
 *   # time dirty_kb ... DISK.util          column names (again when disks change)
 *   3.70 198664 ... throttle ...           one sample per refresh
 *   ! 3.70 throttle start dirty+writeback=198664kB freerun=196608kB (sampled)
 *   ! 3.70 throttle start bdi=254:0 writers=fio:17218 ...   (the kernel's)
 *   ! 13.82 throttle end 10.118s pauses=1153 paused_ms=3712 duty=37% ...
 *   = 0.52 run 1/2 start: dbench -t 3 1    run start/end, marks, notes
 *   = 3.14 result: dbench pass 1 clients=4 throughput=1014.2 MB/s
 *   > <the benchmark's own output line>   (control bytes, non-UTF-8: \xHH)
 * The # line comes first, even before a run start that precedes the first
 * sample.  With --batch-events FILE the !, = and > lines go to FILE and
 * stdout keeps the # line and the samples alone, for awk.  Merged in time order, results at the time they came, so that
 * view --batch of a recording prints the lines its live --batch printed.
 * The sampler never waits on this printing: with a slow stdout, samples
 * the ring dropped are counted in a note. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iodash/batch/batch.h"
#include "iodash/sample/sample_schema.h"
#include "iodash/base/signals.h"
#include "iodash/base/text.h"
#include "iodash/base/util.h"

struct batch {
	FILE *out;
	FILE *ev;               /* the !, = and > lines: out, or --batch-events' file */
	struct batch_config cfg;
	/* the devices of the # line (any number), and which of them --disks
	 * gives columns; compared with each sample's in one pass */
	char (*disk_names)[SNAP_DISK_NAME_LEN];
	bool *disk_shown;
	int ndisks, disks_cap;
	bool header_done;
	bool with_bench;
	uint64_t next_seq;      /* next sample to consider */
	uint64_t next_event, next_output;
	uint64_t next_result;   /* index into model.results (final points only) */
	double last_t;          /* time of the last line printed */
	double next_print_t;    /* with -r: print a sample at or after this time */
	bool write_failed;      /* stdout went away (SIGHUP, closed pipe): keep going silently */
	int write_errno;        /* why: EPIPE is a reader gone; another (a full disk) is said at the end */
	double write_failed_t;  /* the time of the first line not printed */
	bool kernel;            /* throttling from the tracepoints: pause columns */
	uint64_t t0_mono_ns;    /* --time mono/wall: session second 0 */
	double wall_minus_mono; /* --time wall: CLOCK_REALTIME - CLOCK_MONOTONIC, seconds */
};

/* A line's time as --time asks: session seconds, or absolute seconds of
 * CLOCK_MONOTONIC (joins with ftrace/perf) or of the wall clock. */
static void batch_fmt_time(const struct batch *b, double t, char *buf, size_t len)
{
	double mono = (double)b->t0_mono_ns / 1e9 + t;

	switch (b->cfg.time_base) {
	case TIME_MONO: snprintf(buf, len, "%.6f", mono); break;   /* as ftrace prints it */
	case TIME_WALL: snprintf(buf, len, "%.6f", mono + b->wall_minus_mono); break;
	default: snprintf(buf, len, "%.2f", t); break;
	}
}

static bool batch_disks_changed(struct batch *b, const struct sample *s)
{
	if (s->ndisks != b->ndisks)
		return true;
	for (int i = 0; i < s->ndisks; i++)
		if (strcmp(s->disks[i].name, b->disk_names[i]))
			return true;
	return false;
}

static void batch_print_header(struct batch *b, const struct sample *s)
{
	int cap = b->disks_cap;
	void *p = b->disk_names, *q = b->disk_shown;
	if (snapshot_grow_array(&p, &b->disks_cap, s->ndisks, sizeof(*b->disk_names)) ||
	    (b->disk_names = p, snapshot_grow_array(&q, &cap, s->ndisks, sizeof(*b->disk_shown)))) {
		b->disk_names = p;
		b->ndisks = 0;   /* no memory for the names: compared again next sample */
		return;
	}
	b->disk_shown = q;
	b->ndisks = s->ndisks;
	for (int i = 0; i < s->ndisks; i++) {
		memcpy(b->disk_names[i], s->disks[i].name, SNAP_DISK_NAME_LEN);
		b->disk_shown[i] = !b->cfg.disks || disk_filter_match(b->cfg.disks, s->disks[i].name);
	}
	fputs("# time", b->out);
	for (int i = 0; i < SF_N; i++)
		if (sample_cols[i].where & SCW_BATCH)
			fprintf(b->out, " %s", sample_cols[i].name);
	if (b->with_bench)
		fprintf(b->out, " throttled_tasks");
	if (b->kernel)
		fprintf(b->out, " pauses_s paused_ms_s");
	/* disk names come from outside (--proc-root, --host): never raw */
	static const char *const dflt[] = { "r_kBps", "w_kBps", "util" };
	for (int i = 0; i < s->ndisks && i < b->ndisks; i++) {
		int n = b->cfg.ndisk_cols ? b->cfg.ndisk_cols : 3;
		if (!b->disk_shown[i])
			continue;
		for (int c = 0; c < n; c++) {
			fputc(' ', b->out);
			text_put_line_safe(b->out, s->disks[i].name);
			fprintf(b->out, ".%s", b->cfg.ndisk_cols ? disk_figure_name(b->cfg.disk_cols[c]) : dflt[c]);
		}
	}
	fputc('\n', b->out);
	b->header_done = true;
}

/* The sample schema's --batch columns.  They are vmstat's levels and the
 * zone they make: all n/a when vmstat was not read. */
static void batch_print_levels(struct batch *b, const struct sample *s)
{
	for (int i = 0; i < SF_N; i++) {
		const struct sample_col *c = &sample_cols[i];
		if (!(c->where & SCW_BATCH))
			continue;
		if (!s->have_dirty || !sample_col_present(s, c))
			fputs(" n/a", b->out);
		else if (c->type == SCT_ZONE)
			fprintf(b->out, " %s", dirty_zone_name(s->zone));
		else if (sample_col_is_double(c))
			fprintf(b->out, " %.2f", sample_col_double(s, c));
		else if (c->type == SCT_INT || c->type == SCT_I64)
			fprintf(b->out, " %" PRId64, sample_col_int(s, c));
		else
			fprintf(b->out, " %" PRIu64, (uint64_t)sample_col_int(s, c));
	}
}

static void batch_print_sample(struct batch *b, const struct sample *s, const struct bench_status *bs)
{
	if (!b->header_done || batch_disks_changed(b, s))
		batch_print_header(b, s);
	char ts[40];
	batch_fmt_time(b, s->t, ts, sizeof(ts));
	fputs(ts, b->out);
	batch_print_levels(b, s);
	if (b->with_bench)
		fprintf(b->out, " %d", bs->throttled_tasks);
	if (b->kernel) {
		/* per second of this sample's interval */
		if (s->thr_src == THR_SRC_KERNEL && s->dt > 0)
			fprintf(b->out, " %.1f %.1f", s->pauses / s->dt, s->paused_ms / s->dt);
		else if (s->thr_src == THR_SRC_KERNEL)
			fprintf(b->out, " 0.0 0.0");
		else
			fprintf(b->out, " n/a n/a");
	}
	for (int i = 0; i < s->ndisks && i < b->ndisks; i++) {
		const struct disk_rate *d = &s->disks[i];
		if (!b->disk_shown[i])
			continue;
		if (!b->cfg.ndisk_cols && d->have_rate)
			fprintf(b->out, " %.1f %.1f %.1f", d->rkB_s, d->wkB_s, d->util);
		else if (!b->cfg.ndisk_cols)
			fprintf(b->out, " n/a n/a n/a");
		/* --columns: iostat's two decimals; n/a where the line lacks it */
		for (int c = 0; c < b->cfg.ndisk_cols; c++) {
			double v = disk_rate_figure(d, b->cfg.disk_cols[c]);
			if (isnan(v))
				fputs(" n/a", b->out);
			else
				fprintf(b->out, " %.2f", v);
		}
	}
	fputc('\n', b->out);
}

/* A result point.  "pass N" is the point's repeat (--repeat), 1-based as
 * "run i/N" is; the value is not there when too fast to measure. */
static void batch_print_result(struct batch *b, const struct result_point *p)
{
	char ts[40], num[32];

	batch_fmt_time(b, p->t, ts, sizeof(ts));
	fprintf(b->ev, "= %s result: ", ts);
	text_put_line_safe(b->ev, p->label);
	if (p->setting[0]) {   /* the run's knobs: "[vm.dirty_ratio=10]" */
		fputs(" [", b->ev);
		text_put_line_safe(b->ev, p->setting);
		fputc(']', b->ev);
	}
	fprintf(b->ev, " pass %d ", p->run + 1);
	text_put_line_safe(b->ev, p->x_name);
	fprintf(b->ev, "=%s ", text_fmt_exact(p->x, num, sizeof(num)));
	text_put_line_safe(b->ev, p->metric);
	fprintf(b->ev, "=%s ", text_fmt_exact(p->value, num, sizeof(num)));
	text_put_line_safe(b->ev, p->unit);
	fprintf(b->ev, "%s%s\n", p->flags & RP_INCOMPLETE ? " (incomplete)" : "",
		p->flags & RP_TOO_FAST ? " (too fast to measure)" : "");
}

static void batch_print_event(struct batch *b, const struct model_event *e)
{
	char ts[40];

	/* texts hold what a user or a benchmark wrote: never a raw newline,
	 * escape sequence or byte that is not UTF-8 (text.h) */
	batch_fmt_time(b, e->t, ts, sizeof(ts));
	if (e->kind == MEV_HIT_START || e->kind == MEV_HIT_END)
		fprintf(b->ev, "! %s ", ts);
	else
		fprintf(b->ev, "= %s %s: ", ts, model_event_kind_name(e->kind));
	text_put_line_safe(b->ev, e->text);
	fputc('\n', b->ev);
}

/* What one pass prints, copied under the lock so printing holds none. */
struct batch_chunk {
	struct sample *samples;
	size_t nsamples;
	struct model_event *events;
	size_t nevents;
	struct output_line *outputs;
	size_t noutputs;
	struct result_point *results;
	size_t nresults;
	struct bench_status bench;
	uint64_t dropped;
	uint64_t dropped_events, dropped_output;
};

/* Copy what a ring of `cap` elements holds from *next to total (the count
 * ever added) into a new array; what the ring overwrote before it was
 * taken is counted in *dropped (said in a note: live, the sampler and the
 * benchmark never wait for stdout).  On no memory it copies nothing and
 * leaves *next, so the lines come next time. */
static void *ring_copy(const void *ring, size_t elem, size_t cap, uint64_t total,
		       uint64_t *next, size_t *n, uint64_t *dropped)
{
	*dropped = 0;
	if (total - *next > cap) {
		*dropped = total - cap - *next;
		*next = total - cap;
	}
	*n = (size_t)(total - *next);
	char *out = malloc((*n ? *n : 1) * elem);
	if (!out) {
		*n = 0;
		return NULL;
	}
	for (size_t i = 0; i < *n; i++)
		memcpy(out + i * elem, (const char *)ring + ((*next + i) % cap) * elem, elem);
	*next = total;
	return out;
}

static void batch_collect(struct batch *b, struct model *m, struct batch_chunk *c, bool final)
{
	memset(c, 0, sizeof(*c));
	model_lock(m);
	/* the # line names the disks of the first sample: hold events and
	 * lines until there is one (or the session ends without any) */
	if (!b->header_done && !m->series.pushed && !final) {
		model_unlock(m);
		return;
	}
	size_t len = series_len(&m->series);
	uint64_t oldest = m->series.pushed - len;
	if (b->next_seq < oldest) {
		c->dropped = oldest - b->next_seq;
		b->next_seq = oldest;
	}
	c->nsamples = m->series.pushed - b->next_seq;
	/* copies with their own disks[]: the ring's slots are written again
	 * once the lock is let go */
	c->samples = calloc(c->nsamples ? c->nsamples : 1, sizeof(*c->samples));
	for (size_t i = 0; c->samples && i < c->nsamples; i++)
		sample_copy(&c->samples[i], series_at(&m->series, len - c->nsamples + i));
	if (!c->samples)
		c->nsamples = 0;
	b->next_seq += c->nsamples;
	m->consumed = b->next_seq;

	c->events = ring_copy(m->events, sizeof(*m->events), MODEL_EVENT_CAP, m->nevents,
			      &b->next_event, &c->nevents, &c->dropped_events);
	c->outputs = ring_copy(m->output, sizeof(*m->output), MODEL_OUTPUT_CAP, m->noutput,
			       &b->next_output, &c->noutputs, &c->dropped_output);
	/* a replay waits for these before it adds more (replay.c) */
	m->consumed_events = b->next_event;
	m->consumed_output = b->next_output;
	/* results never wrap: a ring as large as the array */
	uint64_t none;
	c->results = ring_copy(m->results.v, sizeof(*m->results.v), m->results.n ? m->results.n : 1,
			       m->results.n, &b->next_result, &c->nresults, &none);
	c->bench = m->bench;
	b->t0_mono_ns = __atomic_load_n(&m->clock0_mono_ns, __ATOMIC_ACQUIRE);
	model_unlock(m);
}

static void batch_chunk_free(struct batch_chunk *c)
{
	for (size_t i = 0; c->samples && i < c->nsamples; i++)
		sample_free(&c->samples[i]);
	free(c->samples);
	free(c->events);
	free(c->outputs);
	free(c->results);
}

/* Print a chunk, merging the three streams by time (a sample before the
 * events and lines of the same instant). */
static void batch_print_chunk(struct batch *b, struct batch_chunk *c, bool final)
{
	size_t is = 0, ie = 0, io = 0, ir = 0;

	if (!b->header_done && (c->nsamples || c->nevents || c->noutputs || c->nresults)) {
		static const struct sample none;   /* no sample at all: no disk columns */
		batch_print_header(b, c->nsamples ? &c->samples[0] : &none);
	}
	if (c->dropped) {
		char tsd[40];
		batch_fmt_time(b, c->nsamples ? c->samples[0].t : 0.0, tsd, sizeof(tsd));
		fprintf(b->ev, "= %s note: %" PRIu64 " samples not printed (output too slow)\n",
			tsd, c->dropped);
	}
	if (c->dropped_events || c->dropped_output) {
		char tsd[40], what[80];
		double t0 = c->nevents ? c->events[0].t : c->noutputs ? c->outputs[0].t : b->last_t;
		batch_fmt_time(b, t0, tsd, sizeof(tsd));
		if (c->dropped_events && c->dropped_output)
			snprintf(what, sizeof(what), "%" PRIu64 " events and %" PRIu64 " output lines",
				 c->dropped_events, c->dropped_output);
		else if (c->dropped_events)
			snprintf(what, sizeof(what), "%" PRIu64 " events", c->dropped_events);
		else
			snprintf(what, sizeof(what), "%" PRIu64 " output lines", c->dropped_output);
		fprintf(b->ev, "= %s note: %s not printed: they came faster than stdout took them, "
			"past the %d events and %d lines held for it%s\n", tsd, what,
			MODEL_EVENT_CAP, MODEL_OUTPUT_CAP,
			b->cfg.recording ? " (the recording has them all)" : "");
	}
	while (is < c->nsamples || ie < c->nevents || io < c->noutputs || ir < c->nresults) {
		double ts = is < c->nsamples ? c->samples[is].t : 1e300;
		double te = ie < c->nevents ? c->events[ie].t : 1e300;
		double to = io < c->noutputs ? c->outputs[io].t : 1e300;
		double tr = ir < c->nresults ? c->results[ir].t : 1e300;
		if (ts <= te && ts <= to && ts <= tr) {
			const struct sample *s = &c->samples[is++];
			b->last_t = s->t;
			bool last = is == c->nsamples;
			/* with -r: the newest sample once per refresh period */
			if (b->cfg.every_sample || s->t + 1e-9 >= b->next_print_t ||
			    (final && last)) {
				batch_print_sample(b, s, &c->bench);
				if (!b->cfg.every_sample)
					b->next_print_t = s->t + b->cfg.refresh;
			}
		} else if (te <= to && te <= tr) {
			b->last_t = te;
			batch_print_event(b, &c->events[ie++]);
		} else if (to <= tr) {
			b->last_t = to;
			fputs("> ", b->ev);
			text_put_line_safe(b->ev, c->outputs[io++].text);
			fputc('\n', b->ev);
		} else {
			b->last_t = tr;
			batch_print_result(b, &c->results[ir++]);
		}
	}
	batch_chunk_free(c);
	/* the events file's errors are its own (said at the end by the
	 * command): only stdout going away ends the printing */
	if (b->ev != b->out)
		fflush(b->ev);
	errno = 0;
	if (fflush(b->out) == EOF || ferror(b->out)) {
		/* stdout is gone (SIGHUP, closed pipe): keep sampling and
		 * recording until the benchmark is done, print nothing more */
		b->write_errno = errno ? errno : EIO;
		b->write_failed_t = b->last_t;
		b->write_failed = true;
		clearerr(b->out);
	}
}

/* When the session is over.  Without a benchmark: at count, duration, the
 * end of a trace, Ctrl-C or SIGHUP.  With one: when it is done (SIGHUP
 * changes nothing but where the output goes); the first Ctrl-C stops the
 * benchmark, a second one quits at once.  An attached process is only
 * watched: whatever ends iodash (SIGHUP too) ends the watching at once.
 *
 * A reader that went away (iodash --batch ... | head) ends every kind of
 * session the same way, unless a recording is being written: then it goes
 * on silently to its natural end, so the recording is whole.  Ending means
 * what Ctrl-C means: a benchmark iodash started is stopped, an attached
 * one is left running, a replay stops. */
static bool batch_session_over(struct batch *b, struct model *m, bool *stop_asked, int *sigints_seen)
{
	model_lock(m);
	bool sampler_done = m->sampler_done, bench_done = m->bench_done;
	/* by the command too: the driver says it attached only once its
	 * thread runs, and a signal may come before */
	bool watch_only = m->bench.attached || b->cfg.attached;
	model_unlock(m);
	int sigints = signals_interrupts();
	bool interrupted = sigints > *sigints_seen;
	bool reader_gone = b->write_failed && !b->cfg.recording;

	*sigints_seen = sigints;
	if (!b->with_bench)
		return sampler_done || interrupted || signals_hangup() || signals_terminate() || reader_gone;
	if (bench_done)
		return true;
	if (interrupted && *stop_asked)
		return true;
	if (reader_gone && !m->stop_bench)
		return true;       /* a replay: nothing to stop */
	/* SIGTERM, count/duration reached, a first Ctrl-C, or the reader
	 * gone: stop the benchmark and end when it has ended */
	if ((interrupted || sampler_done || signals_terminate() || reader_gone ||
	     (watch_only && signals_hangup())) && !*stop_asked && m->stop_bench) {
		*stop_asked = true;
		if (interrupted && !b->write_failed && !watch_only) {
			char ts[40];
			batch_fmt_time(b, model_now(m), ts, sizeof(ts));
			fprintf(b->ev, "= %s note: Ctrl-C: stopping the benchmark (again to quit now)\n", ts);
		}
		m->stop_bench(m->stop_bench_ctx);
	}
	return false;
}

int batch_run(struct model *m, const struct batch_config *cfg, FILE *out, FILE *events)
{
	struct batch b = { .out = out, .ev = events ? events : out, .cfg = *cfg };
	bool stop_asked = false, done = false;
	int sigints_seen = 0;

	/* a closed stdout is seen as EPIPE (write_failed) and handled above,
	 * alike for every command that prints through here */
	signal(SIGPIPE, SIG_IGN);

	model_lock(m);
	/* not !bench_done: a benchmark that ends at once (run -- true) may
	 * be done already, and the session would then wait for a sampler
	 * that has no count to reach */
	b.with_bench = m->with_bench;
	b.kernel = m->thr.src == THR_SRC_KERNEL;
	model_unlock(m);
	struct timespec rt;
	clock_gettime(CLOCK_REALTIME, &rt);
	b.wall_minus_mono = (double)rt.tv_sec + (double)rt.tv_nsec / 1e9 - util_mono_s();

	while (!done) {
		struct pollfd pf[2] = { { .fd = model_wake_fd(m), .events = POLLIN },
					{ .fd = b.write_failed ? -1 : fileno(out), .events = 0 } };
		if (poll(pf, 2, 1000) > 0 && (pf[0].revents & POLLIN))
			model_drain_wake(m);
		/* a reader that went away while there was nothing to print
		 * (a follower, a quiet attach): the pipe says so (POLLERR) */
		if (pf[1].revents & (POLLERR | POLLHUP)) {
			b.write_failed = true;
			b.write_errno = EPIPE;
		}
		done = batch_session_over(&b, m, &stop_asked, &sigints_seen);
		if (done) {
			/* the session's last events (an open throttle episode's
			 * end) come when sampling stops: before the last print */
			model_lock(m);
			void (*halt)(void *) = m->halt_sampler;
			void *hctx = m->halt_ctx;
			model_unlock(m);
			if (halt)
				halt(hctx);
		}

		struct batch_chunk c;
		batch_collect(&b, m, &c, done);
		if (b.write_failed)
			batch_chunk_free(&c);
		else
			batch_print_chunk(&b, &c, done);
	}
	model_lock(m);
	int rc = m->exit_code;
	if (m->error[0])
		fprintf(stderr, "iodash: %s\n", m->error);
	model_unlock(m);
	/* a reader that went away (| head) is how such a session ends; a
	 * write that failed otherwise (a full disk) lost lines: say so */
	if (b.write_failed && b.write_errno != EPIPE) {
		char ts[40];
		batch_fmt_time(&b, b.write_failed_t, ts, sizeof(ts));
		fprintf(stderr, "iodash: writing to stdout: %s; the lines from %s on are not there (free space, or write elsewhere)\n",
			strerror(b.write_errno), ts);
		if (!rc)
			rc = 1;
	}
	free(b.disk_names);
	free(b.disk_shown);
	return rc;
}
