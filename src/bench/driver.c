/* The run, sweep and attach drivers: one thread that owns the benchmark.
 *
 *   start(): checks (command exists, pid exists) -> thread
 *   thread:  for each run: [--between] spawn on a pty, then one poll loop:
 *              pty bytes -> parser (raw) and linebuf -> model_add_output
 *              exit fd   -> the run ended (its keeper said so): drain the
 *                           pty, record the status
 *              tick      -> proctree + the kernel's pauses -> model_set_bench
 *              wake pipe -> a stop request (SIGINT, later SIGTERM, SIGKILL)
 *            then bench_done and exit_code in the model.
 *   attach:  the same loop without a child: it watches, and a stop request
 *            only ends the watching.  Signals go to what bench_spawn()
 *            started, through bench_signal_child(), and nowhere else.
 *   end:     bench_release_children(): what the runs left behind ends
 *            with the session (and with iodash however it ends: pty.c's
 *            keeper holds each benchmark's tree).
 *
 * SIGHUP needs nothing here: the benchmark is in its own session on our
 * pty, which stays open while iodash lives, so it runs to its end. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "iodash/bench/pty.h"
#include "iodash/bench/linebuf.h"
#include "iodash/bench/follow.h"
#include "iodash/bench/runlen.h"
#include "iodash/bench/driver.h"
#include "iodash/bench/sweep.h"
#include "iodash/probe/knobs.h"
#include "iodash/parsers/parser.h"
#include "iodash/probe/probe.h"
#include "iodash/probe/proctree.h"
#include "iodash/results/runsum.h"
#include "iodash/results/stats.h"
#include "iodash/session/throttle_follow.h"
#include "iodash/base/util.h"

#define STOP_ESCALATE_S 5.0   /* SIGINT, then SIGTERM, then SIGKILL */
#define DRAIN_QUIET_S 0.3     /* after exit: output stops this long -> done */
#define DRAIN_MAX_S 3.0       /* a daemon holding the pty cannot keep us */

struct bench_ctx {
	struct bench_driver drv;
	struct bench_config cfg;
	struct model *m;
	char label[RP_LABEL_LEN];
	char describe[2048];
	struct sweep_plan plan;       /* run: one run, built from cfg.argv */
	struct sweep_decider dec;     /* --until-decided: which run of the plan comes next */

	pthread_t th;
	bool started;
	pthread_mutex_t lock;         /* cur_pid, stop_* */
	pid_t cur_pid;                /* our child of the run in progress: what a
				       * stop request signals (its group); 0 none */
	int stop_sent;                /* 0 none, 1 SIGINT, 2 SIGTERM, 3 SIGKILL */
	bool stop_wanted;             /* no more runs */
	double stop_t;
	int wake[2];

	/* --sysctl: the keys (for the journal) and their originals */
	struct knob_list knob_keys;
	struct knobs_journal kj;

	/* the run's summary: device or page cache (runsum.h) */
	struct probe *rs_probe;       /* NULL: no summaries (counters not live) */
	struct runsum_acc rs;
	bool rs_active;
	uint64_t rs_next_seq;         /* first session sample not yet fed */
	pid_t rs_session;             /* the run's session (its spawned leader) */
	double interval;

	struct bench_status st;
	double *durations;
	int ndone;
	int failed;
	int stopped;                  /* runs ended by a stop on request (Ctrl-C, SIGTERM) */
	int exit_code;
	int max_throttled;            /* of the run in progress */
	uint64_t pauses_at_start;
	double pause_ms_at_start;

	/* the run in progress */
	int run_no;                   /* 0-based in the session */
	const struct sweep_run *run;
	struct parser *parser;
	struct bench_linebuf lb;
	const char *line_prefix;
};

static void join_words(char *buf, size_t len, char *const *argv)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; argv && argv[i] && off < len; i++) {
		bool q = argv[i][0] == '\0' || strpbrk(argv[i], " \t'\"$\\") != NULL;
		int w = snprintf(buf + off, len - off, q ? "%s'%s'" : "%s%s", i ? " " : "", argv[i]);
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

/* ---- output and results ------------------------------------------------ */

static void emit_line(void *ctx, const char *line)
{
	struct bench_ctx *b = ctx;
	char buf[MODEL_LINE_LEN];

	if (b->line_prefix) {
		snprintf(buf, sizeof(buf), "%s%s", b->line_prefix, line);
		line = buf;
	}
	model_add_output(b->m, model_now(b->m), b->run_no, line);
}

static void emit_result(void *ctx, const struct result_point *p)
{
	struct bench_ctx *b = ctx;
	struct result_point q = *p;

	if (b->rs_active)
		runsum_add_result(&b->rs, p);
	if (b->cfg.kind == BENCH_KIND_SWEEP && b->run && !(q.flags & RP_PROGRESS)) {
		/* the sweep knows what was varied better than the tool */
		snprintf(q.x_name, sizeof(q.x_name), "%s", b->run->x_name);
		q.x = b->run->x;
		q.run = b->run->pass;
	}
	/* the knobs set for the run ("vm.dirty_ratio=10,...", as typed) are
	 * its setting: a dimension beside the label (compare reads the same
	 * back from the run's knobs event) */
	for (int i = 0, off = 0; b->run && !q.setting[0] && i < SWEEP_MAX_SYSCTLS && b->run->sysctls[i]; i++) {
		int w = snprintf(q.setting + off, sizeof(q.setting) - (size_t)off, "%s%s", off ? "," : "",
				 b->run->sysctls[i]);
		if (w < 0 || (size_t)w >= sizeof(q.setting) - (size_t)off) {
			q.setting[off] = '\0';
			break;
		}
		off += w;
	}
	if (b->cfg.decide.on && b->run && stats_point_is_final(&q))
		sweep_decider_result(&b->dec, &q);
	model_add_result(b->m, &q);
}

static void feed_output(struct bench_ctx *b, const char *buf, size_t len)
{
	if (b->parser) {
		struct result_sink sink = { .emit = emit_result, .ctx = b };
		parser_feed(b->parser, buf, len, &sink);
	}
	bench_linebuf_feed(&b->lb, buf, len, emit_line, b);
}

static void follow_data(void *ctx, const char *buf, size_t len)
{
	feed_output(ctx, buf, len);
}

static void open_parser(struct bench_ctx *b, const char *argv0, const char *label)
{
	const char *name = b->cfg.parser;

	b->parser = NULL;
	if (!name)
		name = parser_for_command(argv0);
	if (!name) {
		model_add_event(b->m, MEV_NOTE, model_now(b->m),
				"no parser for '%s': output kept as raw lines (--parser NAME to pick one)",
				util_base_name(argv0));
		return;
	}
	b->parser = parser_new(name, label);
	if (!b->parser)
		model_add_event(b->m, MEV_NOTE, model_now(b->m),
				"unknown parser '%s': output kept as raw lines", name);
}

static void close_parser(struct bench_ctx *b)
{
	if (!b->parser)
		return;
	struct result_sink sink = { .emit = emit_result, .ctx = b };
	parser_finish(b->parser, &sink);
	parser_free(b->parser);
	b->parser = NULL;
}

/* ---- stop requests ----------------------------------------------------- */

static void bench_request_stop(struct bench_driver *d)
{
	struct bench_ctx *b = d->priv;

	pthread_mutex_lock(&b->lock);
	b->stop_wanted = true;
	if (!b->stop_sent && b->cur_pid > 0) {
		bench_signal_child(b->cur_pid, SIGINT);
		b->stop_sent = 1;
		b->stop_t = util_mono_s();
	}
	pthread_mutex_unlock(&b->lock);
	if (write(b->wake[1], "s", 1) < 0) { /* the pipe is full: already woken */ }
}

static void bench_stop_hook(void *ctx)
{
	struct bench_ctx *b = ctx;
	bench_request_stop(&b->drv);
}

/* A benchmark that ignores SIGINT (inherited SIG_IGN in its own children,
 * or a tool that traps it) must not keep iodash forever. */
static void escalate_stop(struct bench_ctx *b)
{
	pthread_mutex_lock(&b->lock);
	if (b->stop_sent && b->stop_sent < 3 && b->cur_pid > 0 &&
	    util_mono_s() - b->stop_t >= STOP_ESCALATE_S) {
		b->stop_sent++;
		b->stop_t = util_mono_s();
		bench_signal_child(b->cur_pid, b->stop_sent == 2 ? SIGTERM : SIGKILL);
		model_add_event(b->m, MEV_NOTE, model_now(b->m), "benchmark still running %.0f s after the stop request: sent SIG%s",
				STOP_ESCALATE_S, b->stop_sent == 2 ? "TERM" : "KILL");
	}
	pthread_mutex_unlock(&b->lock);
}

/* pid: a child bench_spawn() gave us, or 0 when none runs. */
static void set_current(struct bench_ctx *b, pid_t pid)
{
	pthread_mutex_lock(&b->lock);
	b->cur_pid = pid;
	/* a stop asked before this run existed applies to it too */
	if (pid > 0 && b->stop_wanted && !b->stop_sent) {
		bench_signal_child(pid, SIGINT);
		b->stop_sent = 1;
		b->stop_t = util_mono_s();
	}
	if (pid <= 0)
		b->stop_sent = 0;
	pthread_mutex_unlock(&b->lock);
}

static bool stop_wanted(struct bench_ctx *b)
{
	pthread_mutex_lock(&b->lock);
	bool w = b->stop_wanted;
	pthread_mutex_unlock(&b->lock);
	return w;
}

/* ---- run summaries ------------------------------------------------------ */

/* A task of the run's tree, seen by a driver tick. */
static void runsum_note_task(void *ctx, pid_t tid)
{
	struct bench_ctx *b = ctx;

	if (b->rs_active)
		runsum_add_task(&b->rs, tid);
}

/* A writer that paused and no tick saw (it began after the last one):
 * the benchmark's when it still lives in the run's session. */
static void runsum_claim_writer(struct bench_ctx *b, pid_t tid)
{
	char path[64], buf[1024];
	pid_t sid = 0;
	int fd;
	ssize_t r;

	if (tid <= 0 || b->rs_session <= 0 || runsum_has_task(&b->rs, tid))
		return;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return;
	buf[r] = '\0';
	if (proctree_parse_stat(buf, NULL, NULL, NULL, &sid, NULL) == 0 && sid == b->rs_session)
		runsum_add_task(&b->rs, tid);
}

/* The session's samples taken since the last call, into the run's summary. */
static void runsum_feed(struct bench_ctx *b)
{
	model_lock(b->m);
	size_t n = series_len(&b->m->series);
	for (size_t i = 0; i < n; i++) {
		const struct sample *s = series_at(&b->m->series, i);
		if (s->seq < b->rs_next_seq)
			continue;
		/* at most 4 small /proc reads a sample, for writers no tick saw */
		int nw = s->nwriters < (int)(sizeof(s->writers) / sizeof(s->writers[0])) ?
			 s->nwriters : (int)(sizeof(s->writers) / sizeof(s->writers[0]));
		for (int w = 0; s->thr_src == THR_SRC_KERNEL && w < nw; w++)
			runsum_claim_writer(b, s->writers[w].pid);
		runsum_add_sample(&b->rs, s);
		b->rs_next_seq = s->seq + 1;
	}
	model_unlock(b->m);
}

static void runsum_start(struct bench_ctx *b)
{
	struct snapshot *snap;
	char err[256];

	b->rs_active = false;
	if (!b->rs_probe || !(snap = calloc(1, sizeof(*snap))))
		return;
	if (probe_read(b->rs_probe, snap, err, sizeof(err)) == 0) {
		runsum_begin(&b->rs, snap);
		model_lock(b->m);
		const struct sample *last = series_last(&b->m->series);
		b->rs_next_seq = last ? last->seq + 1 : 0;
		model_unlock(b->m);
		b->rs_active = true;
	}
	snapshot_free(snap);
	free(snap);
}

static void runsum_end(struct bench_ctx *b, const char *tag, double secs)
{
	struct snapshot *snap;
	struct run_summary sum;
	char err[256], text[MODEL_LINE_LEN];

	if (!b->rs_active)
		return;
	b->rs_active = false;
	runsum_feed(b);
	if (!(snap = calloc(1, sizeof(*snap))))
		return;
	bool have_end = probe_read(b->rs_probe, snap, err, sizeof(err)) == 0;
	/* the kernel's ms paused of the benchmark's own tasks (the session
	 * follows every writer on the machine), or -1: sampled by the ticks */
	model_lock(b->m);
	struct model_throttle thr = b->m->thr;
	model_unlock(b->m);
	runsum_finish(&b->rs, have_end ? snap : NULL, secs,
		      thr.src == THR_SRC_KERNEL ? b->rs.own_paused_ms : -1, &sum);
	snapshot_free(snap);
	free(snap);
	/* room for the tag ("run 1024/1024 ") */
	runsum_format(&sum, text, sizeof(text) - 16);
	model_add_event(b->m, MEV_RUN_SUMMARY, model_now(b->m), "%s %s", tag, text);
}

/* ---- per sample period ------------------------------------------------- */

/* Pause rates to the precision anyone reads them at: a recording then
 * stores them in a few digits, not 17 (the ETA likewise, in seconds). */
static double to_thousandths(double v)
{
	return round(v * 1000.0) / 1000.0;
}

static void tick(struct bench_ctx *b, struct proctree *pt, double *last_tick, double run_start_mono)
{
	struct proctree_sample ps;
	double now = util_mono_s(), dt = now - *last_tick;

	if (pt && proctree_scan(pt, now, &ps) == 0) {
		if (b->rs_active)
			runsum_add_tick(&b->rs, dt, ps.have_rates ? ps.rchar_Bps + ps.wchar_Bps : 0,
					ps.blocked, ps.throttled);
		b->st.ntasks = ps.ntasks;
		b->st.throttled_tasks = ps.throttled;
		if (ps.throttled > b->max_throttled)
			b->max_throttled = ps.throttled;
		if (ps.have_rates) {
			b->st.read_Bps = ps.read_Bps;
			b->st.write_Bps = ps.write_Bps;
			b->st.rchar_Bps = ps.rchar_Bps;
			b->st.wchar_Bps = ps.wchar_Bps;
		}
	}
	/* the kernel's pauses (every writer: the session follows them
	 * system-wide), over the last sample */
	model_lock(b->m);
	struct model_throttle thr = b->m->thr;
	model_unlock(b->m);
	b->st.have_tracepoint = thr.src == THR_SRC_KERNEL;
	b->st.have_run_hits = thr.run.start_ns != 0;
	b->st.run_hits = thr.run.count;
	if (b->st.have_tracepoint) {
		b->st.pauses_per_s = thr.last_dt > 0 ? to_thousandths(thr.last.pauses / thr.last_dt) : 0;
		b->st.pause_ms_per_s = thr.last_dt > 0 ? to_thousandths(thr.last.paused_ms / thr.last_dt) : 0;
		b->st.pauses_total = thr.pauses_total;
		b->st.pause_total_ms = thr.paused_ms_total;
	}
	if (b->rs_active)
		runsum_feed(b);
	if (b->parser)
		parser_get_progress(b->parser, &b->st.progress);
	if (b->st.run_total > 0)
		b->st.eta_s = round(sweep_eta(b->durations, b->ndone, b->st.run_total,
						run_start_mono > 0 ? now - run_start_mono : 0));
	else if (b->st.run_length_s > 0 && run_start_mono > 0)
		/* a single run as long as its command line says */
		b->st.eta_s = fmax(0, round(b->st.run_length_s - (now - run_start_mono)));
	*last_tick = now;
	model_set_bench(b->m, &b->st);
}

static int pidfd_open_compat(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* ---- one spawned run ---------------------------------------------------- */

struct run_outcome {
	bool started;
	int wstatus;
	char why[512];                /* why it could not start */
	double secs;
};

/* A stop request woke the poll: empty the pipe. */
static void drain_wake(struct bench_ctx *b)
{
	char tmp[64];

	while (read(b->wake[0], tmp, sizeof(tmp)) > 0)
		;
}

/* What the pty has (a bounded number of reads, so the ticks keep their
 * time): into the parser and the output lines.  Whether anything came;
 * *eof when every holder of the pty's other side is gone (EIO). */
static bool read_pty(struct bench_ctx *b, int fd, bool *eof)
{
	char buf[16384];
	bool got = false;

	for (int k = 0; k < 64; k++) {
		ssize_t r = read(fd, buf, sizeof(buf));
		if (r > 0) {
			feed_output(b, buf, (size_t)r);
			got = true;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0 || errno != EAGAIN)
			*eof = true;
		break;
	}
	return got;
}

/* The child's end if it is known, with, for the main run, its counters
 * read at its exit before its reaping: they hold its reaped children's,
 * the I/O no tick may have seen.  Whether it has ended. */
static bool reap_run(struct bench_ctx *b, pid_t pid, bool read_tree, struct run_outcome *out)
{
	struct proctree_entry pe;
	pid_t w = bench_reap_child_io(pid, &out->wstatus, false, &pe);

	if (w == pid && read_tree && b->rs_active && pe.have_io)
		runsum_set_tree_total(&b->rs, (double)pe.rchar + (double)pe.wchar);
	return w == pid || (w < 0 && errno == ECHILD);
}

/* The poll's timeout: until the next tick; after the exit at most 50 ms
 * (the output drains). */
static int run_poll_timeout(const struct bench_ctx *b, double last_tick, double now, bool exited)
{
	int timeout = (int)((last_tick + b->interval - now) * 1000) + 1;

	if (timeout < 0)
		timeout = 0;
	if (exited && timeout > 50)
		timeout = 50;
	return timeout;
}

static void run_spawned(struct bench_ctx *b, char *const argv[], char *const env[],
			bool main_run, struct run_outcome *out)
{
	struct bench_child c;
	struct proctree pt;
	bool have_pt = false, exited = false, eof = false;
	double t0 = util_mono_s(), last_tick = t0, exit_t = 0, last_data = t0;

	memset(out, 0, sizeof(*out));
	if (bench_spawn_env(argv, env, &c, out->why, sizeof(out->why)) != 0)
		return;
	out->started = true;
	set_current(b, c.pid);
	if (main_run) {
		b->st.pid = c.pid;
		b->st.state = BENCH_RUNNING;
		have_pt = proctree_init(&pt, "/proc", c.pid, true) == 0;
		pt.on_task = runsum_note_task;
		pt.on_task_ctx = b;
		b->rs_session = c.pid;
	}
	bench_linebuf_init(&b->lb);

	for (;;) {
		struct pollfd pf[4];
		int nf = 0, ipty = -1, ipid = -1, iwake;
		double now = util_mono_s();
		int timeout = run_poll_timeout(b, last_tick, now, exited);

		if (!eof) { ipty = nf; pf[nf++] = (struct pollfd){ .fd = c.master_fd, .events = POLLIN }; }
		if (!exited) { ipid = nf; pf[nf++] = (struct pollfd){ .fd = c.exit_fd, .events = POLLIN }; }
		iwake = nf; pf[nf++] = (struct pollfd){ .fd = b->wake[0], .events = POLLIN };
		if (poll(pf, (nfds_t)nf, timeout) < 0 && errno != EINTR)
			break;
		now = util_mono_s();
		if (ipty >= 0 && pf[ipty].revents && read_pty(b, c.master_fd, &eof))
			last_data = now;
		if (pf[iwake].revents)
			drain_wake(b);
		if (!exited && pf[ipid].revents && reap_run(b, c.pid, main_run, out)) {
			exited = true;
			exit_t = now;
			out->secs = now - t0;
		}
		if (!exited)
			escalate_stop(b);
		if (now - last_tick >= b->interval)
			tick(b, have_pt ? &pt : NULL, &last_tick, main_run ? t0 : 0);
		if (exited && (eof || now - last_data >= DRAIN_QUIET_S || now - exit_t >= DRAIN_MAX_S))
			break;
	}
	if (!exited) {
		/* poll failed: do not leave a child behind */
		bench_signal_child(c.pid, SIGKILL);
		bench_reap_child(c.pid, &out->wstatus, true);
		out->secs = util_mono_s() - t0;
	}
	bench_linebuf_flush(&b->lb, emit_line, b);
	set_current(b, 0);
	if (main_run) {
		tick(b, have_pt ? &pt : NULL, &last_tick, 0);
		b->st.ntasks = 0;
		b->st.throttled_tasks = 0;
	}
	if (have_pt)
		proctree_free(&pt);
	close(c.master_fd);
}

/* What the run saw of throttling, for its end line: the figures a
 * reader of the log or recording wants without replaying samples. */
/* The kernel's pause totals when a run starts, for its end line. */
static void mark_pauses(struct bench_ctx *b)
{
	model_lock(b->m);
	b->pauses_at_start = b->m->thr.pauses_total;
	b->pause_ms_at_start = b->m->thr.paused_ms_total;
	model_unlock(b->m);
}

/* The episodes end at the run's end: wait for the sampler to say the
 * end of the one in progress, so that nothing of this run comes after
 * the lines that follow it (the next run's knobs, the restore). */
static void end_episodes(struct bench_ctx *b)
{
	double iv = b->cfg.interval > 0 ? b->cfg.interval : 0.5;

	if (!throttle_follow_wait_cut(b->m, throttle_follow_cut(b->m, KT_CUT_RUN_END), 2 * iv + 1))
		model_add_event(b->m, MEV_NOTE, model_now(b->m),
				"throttle episodes: the sampler did not end the run's episodes in %.1f s: "
				"the run's episode figures may be short", 2 * iv + 1);
}

/* The run's episodes (those the cuts at its start and end enclose). */
static void run_episodes(struct bench_ctx *b, struct run_episodes *e)
{
	model_lock(b->m);
	struct thr_run r = b->m->thr.run;
	bool followed = b->m->thr.src != THR_SRC_NONE;
	model_unlock(b->m);
	memset(e, 0, sizeof(*e));
	e->have = followed && !r.open && r.start_ns;
	e->count = r.count;
	e->first_s = r.count ? (double)(r.first_ns - r.start_ns) / 1e9 : -1;
	e->paused_s = r.paused_ms / 1000.0;
	e->duty_pct = !r.sampled && r.span_s > 0 ? 100.0 * r.busiest_ms / (r.span_s * 1000.0) : 0;
}

static void throttle_summary(struct bench_ctx *b, char *buf, size_t len)
{
	struct run_episodes e;
	int w = snprintf(buf, len, "; throttled tasks max %d", b->max_throttled);
	model_lock(b->m);
	struct model_throttle thr = b->m->thr;
	model_unlock(b->m);
	if (thr.src == THR_SRC_KERNEL && w > 0 && (size_t)w < len)
		w += snprintf(buf + w, len - (size_t)w, "; tracepoint: %llu pauses, %.0f ms paused (all writers)",
			      (unsigned long long)(thr.pauses_total - b->pauses_at_start),
			      thr.paused_ms_total - b->pause_ms_at_start);
	run_episodes(b, &e);
	if (e.have && w > 0 && (size_t)w < len && !e.count)
		snprintf(buf + w, len - (size_t)w, "; no throttle episode");
	else if (e.have && w > 0 && (size_t)w < len)
		snprintf(buf + w, len - (size_t)w, "; %u throttle episode%s, the first at %.2f s, %.2f s paused, duty %.0f%%",
			 e.count, e.count == 1 ? "" : "s", e.first_s, e.paused_s, e.duty_pct);
}

/* ---- kernel knobs (--sysctl) -------------------------------------------- */

static int parse_knobs(char *const *specs, struct knob_list *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; specs[i]; i++) {
		if (out->n == KNOBS_MAX) {
			snprintf(err, errlen, "more than %d --sysctl knobs", KNOBS_MAX);
			return -EINVAL;
		}
		int rc = knobs_parse_spec(specs[i], &out->v[out->n], err, errlen);
		if (rc)
			return rc;
		out->n++;
	}
	return 0;
}

static void knob_change_events(struct bench_ctx *b, const struct knob_change *chg, int n,
			       const char *why)
{
	for (int i = 0; i < n; i++)
		model_add_event(b->m, MEV_KNOB, model_now(b->m), "%s %s -> %s (iodash, %s)",
				chg[i].key, chg[i].old_value, chg[i].new_value, why);
}

/* Set the run's knobs and read them back; the values the run starts with
 * (keys and twins, as the kernel shows them) go into an event.  0, or
 * -errno with err: the run must not start. */
static int apply_knobs(struct bench_ctx *b, const struct sweep_run *r, const char *tag,
		       char *err, size_t errlen)
{
	struct knob_list want, now;
	struct knob_change chg[KNOBS_MAX * 2];
	char line[MODEL_LINE_LEN], why[48];
	int n = 0, rc;

	if (!r->sysctls[0])
		return 0;
	if ((rc = parse_knobs(r->sysctls, &want, err, errlen)))
		return rc;
	snprintf(why, sizeof(why), "before %s", tag);
	rc = knobs_apply(&want, chg, KNOBS_MAX * 2, &n, err, errlen);
	knob_change_events(b, chg, n, why);
	if (rc)
		return rc;
	if ((rc = knobs_read_all(&b->knob_keys, &now, err, errlen)))
		return rc;
	knobs_format_list(&now, line, sizeof(line));
	model_add_event(b->m, MEV_KNOB, model_now(b->m), "%s knobs: %s", tag, line);
	return 0;
}

/* Originals back: at the end of the sweep however it ends.  The error
 * (a knob the kernel would not take back) fails the session. */
static void restore_knobs(struct bench_ctx *b, char *error, size_t errlen)
{
	struct knob_change chg[KNOBS_MAX * 2];
	char err[768];
	int n = 0;

	if (!b->kj.active)
		return;
	int rc = knobs_journal_restore(&b->kj, chg, KNOBS_MAX * 2, &n, err, sizeof(err));
	knob_change_events(b, chg, n, "restored");
	if (rc) {
		model_add_event(b->m, MEV_NOTE, model_now(b->m), "%s", err);
		b->exit_code = 1;
		if (error && !error[0])
			snprintf(error, errlen, "%s", err);
	}
}

/* ---- run and sweep ------------------------------------------------------ */

/* The runs the session will make: the plan's, or under --until-decided
 * those done and those still expected. */
static int runs_total(const struct bench_ctx *b)
{
	return b->cfg.decide.on ? b->st.run_total : b->plan.nruns;
}

/* "clients=4 bs=64k": a run's values, from its IODASH_P_ environment. */
static void run_values(const struct sweep_run *r, char *buf, size_t len)
{
	size_t off = 0, pre = strlen(SWEEP_ENV_PREFIX);

	buf[0] = '\0';
	for (int i = 0; r && r->env && r->env[i] && off < len; i++) {
		int w = snprintf(buf + off, len - off, "%s%s", off ? " " : "", r->env[i] + pre);
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

/* The between command of run `next` (1-based) runs just before it, with
 * that run's values: {NAME} shell-quoted in cmd, and IODASH_P_NAME in its
 * environment.  Said in a note, since it is easy to expect the values of
 * the run that just ended. */
static void run_between(struct bench_ctx *b, const char *cmd, int next)
{
	char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
	struct run_outcome ro;
	char desc[64], values[160];

	run_values(b->run, values, sizeof(values));
	model_add_event(b->m, MEV_NOTE, model_now(b->m), "--between before run %d/%d, with run %d's values (%s): %s",
			next, runs_total(b), next, values, cmd);
	b->st.state = BENCH_BETWEEN;
	snprintf(b->st.command, sizeof(b->st.command), "%s", cmd);
	model_set_bench(b->m, &b->st);
	b->line_prefix = "[between] ";
	run_spawned(b, argv, b->run ? b->run->env : NULL, false, &ro);
	b->line_prefix = NULL;
	if (!ro.started) {
		model_add_event(b->m, MEV_NOTE, model_now(b->m), "--between before run %d: %s", next, ro.why);
		return;
	}
	bench_describe_status(ro.wstatus, desc, sizeof(desc));
	if (!WIFEXITED(ro.wstatus) || WEXITSTATUS(ro.wstatus))
		model_add_event(b->m, MEV_NOTE, model_now(b->m), "--between '%s' before run %d failed: %s",
				cmd, next, desc);
}

/* --stop-on-fail after run i failed: the runs left are not started (said
 * in a note).  Whether to stop. */
static bool sweep_stops_on_fail(struct bench_ctx *b, int i, int total)
{
	if (b->cfg.kind != BENCH_KIND_SWEEP || !b->cfg.stop_on_fail || i + 1 >= total)
		return false;
	model_add_event(b->m, MEV_NOTE, model_now(b->m), "--stop-on-fail: %d runs not started", total - i - 1);
	return true;
}

/* The run's knobs could not be set: it failed without starting. */
static void run_not_started(struct bench_ctx *b, const char *tag, const char *why, double t_between,
			    char *error, size_t errlen)
{
	b->durations[b->ndone++] = util_mono_s() - t_between;
	b->failed++;
	b->st.runs_failed = b->failed;
	model_add_event(b->m, MEV_RUN_END, model_now(b->m), "%s FAILED: not started: %s", tag, why);
	snprintf(error, errlen, "%s: %s", tag, why);
	model_set_bench(b->m, &b->st);
}

/* The run is about to start: its status, its run_start event, its
 * parser, and the marks its summary and episodes count from. */
static void run_begin(struct bench_ctx *b, const struct sweep_run *r, int i, const char *tag,
		      const char *label, const char *cmdline)
{
	snprintf(b->st.command, sizeof(b->st.command), "%s", cmdline);
	snprintf(b->st.label, sizeof(b->st.label), "%s", label);
	b->st.state = BENCH_STARTING;
	b->st.run_index = i + 1;
	b->st.run_start_t = model_now(b->m);
	if (bench_run_length(r->argv, &b->st.run_length_s, &b->st.run_length_at_most))
		b->st.run_length_s = -1;
	b->st.progress = (struct parser_progress){ 0 };
	model_set_bench(b->m, &b->st);
	model_add_event(b->m, MEV_RUN_START, model_now(b->m), "%s [%s] %s", tag, label, cmdline);
	open_parser(b, r->argv[0], label);
	b->max_throttled = 0;
	mark_pauses(b);
	runsum_start(b);
	throttle_follow_cut(b->m, KT_CUT_RUN_START);
}

/* The run has ended (or not started): its episodes and summary, the
 * counts, its run_end event.  Returns whether it went well; status
 * gets how it ended ("exit 0", "killed by SIGINT"). */
static bool run_finish(struct bench_ctx *b, const char *tag, const struct run_outcome *ro, double t_between,
		       char *status, size_t slen, char *error, size_t errlen)
{
	bool ok = ro->started && WIFEXITED(ro->wstatus) && WEXITSTATUS(ro->wstatus) == 0;

	end_episodes(b);
	close_parser(b);
	if (ro->started) {
		struct run_episodes eps;
		run_episodes(b, &eps);
		runsum_set_episodes(&b->rs, &eps);
		runsum_set_end(&b->rs, ok ? RUN_ENDED_OK : stop_wanted(b) ? RUN_ENDED_STOPPED : RUN_ENDED_FAILED);
		runsum_end(b, tag, ro->secs);
	}
	b->rs_active = false;
	b->durations[b->ndone++] = util_mono_s() - t_between;
	if (!ro->started) {
		b->failed++;
		b->st.runs_failed = b->failed;
		b->st.last_exit_status = 127;
		b->st.last_signal = 0;
		model_add_event(b->m, MEV_RUN_END, model_now(b->m), "%s FAILED: %s", tag, ro->why);
		snprintf(error, errlen, "%s", ro->why);
		return false;
	}
	bench_describe_status(ro->wstatus, status, slen);
	b->st.last_exit_status = WIFEXITED(ro->wstatus) ? WEXITSTATUS(ro->wstatus) : -1;
	b->st.last_signal = WIFSIGNALED(ro->wstatus) ? WTERMSIG(ro->wstatus) : 0;
	/* a run the user stopped (Ctrl-C, SIGTERM) did not fail: it
	 * says "stopped" (model_run_end_stopped reads it back) */
	bool stopped = !ok && stop_wanted(b);
	if (stopped) {
		b->stopped++;
	} else if (!ok) {
		b->failed++;
		b->st.runs_failed = b->failed;
	}
	char summary[256];
	throttle_summary(b, summary, sizeof(summary));
	model_add_event(b->m, MEV_RUN_END, model_now(b->m), "%s %s: %s after %.1f s%s%s", tag,
			ok ? "ok" : stopped ? MODEL_RUN_STOPPED : "FAILED", status, ro->secs,
			stopped ? " (stopped on request)" : "", summary);
	model_set_bench(b->m, &b->st);
	return ok;
}

enum run_next { RUN_NEXT, RUN_STOP };

/* Run i of the plan: --between, the knobs, the run itself.  Whether the
 * session goes on to the next run. */
static enum run_next run_one(struct bench_ctx *b, int i, char *status, size_t slen, char *error, size_t errlen)
{
	const struct sweep_run *r = &b->plan.runs[i];
	int total = runs_total(b);
	char label[RP_LABEL_LEN], tag[32], cmdline[MODEL_LINE_LEN];
	double t_between = util_mono_s();
	struct run_outcome ro;

	if (stop_wanted(b))
		return RUN_STOP;
	b->run_no = i;
	b->run = r;
	/* before every run, the first too: a knob or cache state set
	 * through --between must hold for every point */
	if (r->between)
		run_between(b, r->between, i + 1);
	if (stop_wanted(b))
		return RUN_STOP;
	if (r->label_extra[0])
		snprintf(label, sizeof(label), "%.31s %.31s", b->label, r->label_extra);
	else
		snprintf(label, sizeof(label), "%s", b->label);
	join_words(cmdline, sizeof(cmdline), r->argv);
	if (b->cfg.kind == BENCH_KIND_SWEEP)
		snprintf(tag, sizeof(tag), "run %d/%d", i + 1, total);
	else
		snprintf(tag, sizeof(tag), "run");
	/* after --between, which might have touched them */
	char kerr[MODEL_LINE_LEN - 48];
	if (apply_knobs(b, r, tag, kerr, sizeof(kerr))) {
		run_not_started(b, tag, kerr, t_between, error, errlen);
		return sweep_stops_on_fail(b, i, total) ? RUN_STOP : RUN_NEXT;
	}
	run_begin(b, r, i, tag, label, cmdline);
	run_spawned(b, r->argv, r->env, true, &ro);
	if (run_finish(b, tag, &ro, t_between, status, slen, error, errlen))
		return RUN_NEXT;
	/* a command that did not start will not start next time either */
	if (!ro.started || sweep_stops_on_fail(b, i, total))
		return RUN_STOP;
	return RUN_NEXT;
}

/* Every run is done (or the session stopped): the knobs back, the exit
 * code and the one-line error of the session, bench_done. */
static void bench_finish(struct bench_ctx *b, const char *status, char *error, size_t errlen)
{
	int total = runs_total(b);
	bool sweep = b->cfg.kind == BENCH_KIND_SWEEP;

	b->exit_code = b->failed || b->stopped || b->ndone < total ? 1 : 0;
	restore_knobs(b, error, errlen);
	if (!error[0] && b->stopped && !b->failed && !sweep) {
		snprintf(error, errlen, "stopped on request: %s", status);
	} else if (!error[0] && b->failed) {
		if (sweep)
			snprintf(error, errlen, "%d of %d runs failed (see the run_end lines)", b->failed, b->ndone);
		else
			snprintf(error, errlen, "the benchmark failed: %s", status);
	} else if (!error[0] && b->ndone < total) {
		snprintf(error, errlen, "stopped: %d of %d runs done", b->ndone, total);
	}
	b->st.state = BENCH_DONE;
	b->st.pid = 0;
	b->st.eta_s = 0;
	model_set_bench(b->m, &b->st);
	model_lock(b->m);
	b->m->bench_done = true;
	b->m->exit_code = b->exit_code;
	if (error[0])
		snprintf(b->m->error, sizeof(b->m->error), "%s", error);
	model_unlock(b->m);
	model_notify(b->m);
}

/* --until-decided: the decider picks each run from the plan (sweep.h);
 * its states and notes become events after each run. */
static void run_until_decided(struct bench_ctx *b, char *status, size_t slen, char *error, size_t errlen)
{
	char lines[SWEEP_DECIDE_LINES][SWEEP_DECIDE_LINE_LEN], note[SWEEP_DECIDE_LINE_LEN];
	bool kinds[SWEEP_DECIDE_LINES];
	double t0 = util_mono_s();
	int n;

	for (int i = 0;; i++) {
		double mean = -1;
		for (int k = 0; k < b->ndone; k++)
			mean = (mean < 0 ? 0 : mean) + b->durations[k] / b->ndone;
		if (stop_wanted(b) || sweep_decider_next(&b->dec, i, util_mono_s() - t0, mean, note, sizeof(note)) < 0) {
			if (note[0])
				model_add_event(b->m, MEV_NOTE, model_now(b->m), "%s", note);
			break;
		}
		int failed = b->failed, stopped = b->stopped;
		enum run_next next = run_one(b, i, status, slen, error, errlen);
		/* not started (a stop request came first) or stopped on request:
		 * neither is the point's failure */
		if (b->ndone != i + 1 || b->stopped != stopped)
			break;
		n = sweep_decider_end(&b->dec, b->failed == failed, lines, kinds);
		for (int k = 0; k < n; k++)
			model_add_event(b->m, kinds[k] ? MEV_DECISION : MEV_NOTE, model_now(b->m), "%s", lines[k]);
		int left = sweep_decider_runs_left(&b->dec);
		double room = b->cfg.decide.budget_s - (util_mono_s() - t0), per = (util_mono_s() - t0) / b->ndone;
		/* --budget: no more runs than the time left holds (the ETA follows) */
		if (b->cfg.decide.budget_s > 0 && per > 0 && left > room / per)
			left = room > 0 ? (int)(room / per) : 0;
		b->st.run_total = b->ndone + left;
		model_set_bench(b->m, &b->st);
		if (next == RUN_STOP)
			break;
	}
	n = sweep_decider_summary(&b->dec, lines);
	for (int k = 0; k < n; k++)
		model_add_event(b->m, MEV_NOTE, model_now(b->m), "%s", lines[k]);
	b->st.run_total = b->ndone;
}

static void *bench_thread(void *arg)
{
	struct bench_ctx *b = arg;
	char status[96] = "", error[MODEL_LINE_LEN] = "";

	if (b->cfg.decide.on)
		run_until_decided(b, status, sizeof(status), error, sizeof(error));
	for (int i = 0; !b->cfg.decide.on && i < b->plan.nruns; i++)
		if (run_one(b, i, status, sizeof(status), error, sizeof(error)) == RUN_STOP)
			break;
	bench_finish(b, status, error, sizeof(error));
	return NULL;
}

/* ---- attach ------------------------------------------------------------- */

static bool read_comm(pid_t pid, char *buf, size_t len)
{
	char path[64];
	int fd;
	ssize_t r;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	r = read(fd, buf, len - 1);
	close(fd);
	if (r <= 0)
		return false;
	buf[r] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/* The watching starts: its status and run_start event; the log followed
 * through the parser (--log). */
static void attach_begin(struct bench_ctx *b, const char *comm, struct bench_follow *fl)
{
	pid_t pid = b->cfg.pid;

	/* no set_current(): nothing here is ours to signal */
	b->st.attached = true;
	b->st.state = BENCH_RUNNING;
	b->st.pid = pid;
	b->st.run_index = 1;
	b->st.run_start_t = model_now(b->m);
	snprintf(b->st.label, sizeof(b->st.label), "%s", b->label);
	snprintf(b->st.command, sizeof(b->st.command), "%s", b->describe);
	model_add_event(b->m, MEV_RUN_START, model_now(b->m), "attach [%s] pid %d (%s)%s%s", b->label,
			(int)pid, comm, b->cfg.log ? " log " : "", b->cfg.log ? b->cfg.log : "");
	if (b->cfg.log) {
		bench_follow_init(fl, b->cfg.log);
		open_parser(b, comm, b->label);
	}
	bench_linebuf_init(&b->lb);
	mark_pauses(b);
	throttle_follow_cut(b->m, KT_CUT_RUN_START);
}

/* What the log has that is new; its truncation or rotation said. */
static void attach_read_log(struct bench_ctx *b, struct bench_follow *fl)
{
	int mask = bench_follow_poll(fl, 4u << 20, follow_data, b);

	if (mask > 0 && (mask & FOLLOW_TRUNCATED))
		model_add_event(b->m, MEV_NOTE, model_now(b->m), "%s was truncated: reading it from the start", b->cfg.log);
	if (mask > 0 && (mask & FOLLOW_REPLACED))
		model_add_event(b->m, MEV_NOTE, model_now(b->m), "%s was replaced: following the new file", b->cfg.log);
}

/* The watching has ended (the process exited, or iodash stopped
 * watching): the rest of the log, the run_end event, bench_done. */
static void attach_end(struct bench_ctx *b, const char *comm, struct bench_follow *fl, bool stopped, double t0)
{
	pid_t pid = b->cfg.pid;
	char summary[256];

	if (b->cfg.log) {
		bench_follow_poll(fl, 64u << 20, follow_data, b);
		bench_linebuf_flush(&b->lb, emit_line, b);
		close_parser(b);
		bench_follow_close(fl);
	}
	end_episodes(b);
	throttle_summary(b, summary, sizeof(summary));
	if (stopped)
		model_add_event(b->m, MEV_RUN_END, model_now(b->m),
				"attach: stopped watching pid %d (%s) after %.1f s; left PID %d running (attach never signals what iodash did not start)%s",
				(int)pid, comm, util_mono_s() - t0, (int)pid, summary);
	else
		model_add_event(b->m, MEV_RUN_END, model_now(b->m),
				"attach: pid %d (%s) exited after %.1f s of watching (its exit status is not visible: not a child of iodash)%s",
				(int)pid, comm, util_mono_s() - t0, summary);
	b->st.left_running = stopped;
}

static void *attach_thread(void *arg)
{
	struct bench_ctx *b = arg;
	pid_t pid = b->cfg.pid;
	struct proctree pt;
	struct bench_follow fl;
	bool have_pt, gone = false, stopped = false;
	int pidfd = pidfd_open_compat(pid);
	double t0 = util_mono_s(), last_tick = t0, last_log = 0;
	char comm[64] = "?";

	read_comm(pid, comm, sizeof(comm));
	have_pt = proctree_init(&pt, "/proc", pid, false) == 0;
	attach_begin(b, comm, &fl);
	while (!gone && !stopped) {
		struct pollfd pf[3];
		int nf = 0, ipid = -1, iwake;
		double now = util_mono_s();
		double next = last_tick + b->interval;
		if (b->cfg.log && last_log + 0.25 < next)
			next = last_log + 0.25;
		int timeout = (int)((next - now) * 1000) + 1;
		if (timeout < 0)
			timeout = 0;
		if (pidfd >= 0) { ipid = nf; pf[nf++] = (struct pollfd){ .fd = pidfd, .events = POLLIN }; }
		else if (timeout > 200) timeout = 200;
		iwake = nf; pf[nf++] = (struct pollfd){ .fd = b->wake[0], .events = POLLIN };
		if (poll(pf, (nfds_t)nf, timeout) < 0 && errno != EINTR)
			break;
		now = util_mono_s();
		if (pf[iwake].revents)
			drain_wake(b);
		if ((ipid >= 0 && pf[ipid].revents) || (ipid < 0 && !proctree_pid_alive(pid)))
			gone = true;
		else
			stopped = stop_wanted(b);
		if (b->cfg.log && (now - last_log >= 0.25 || gone)) {
			attach_read_log(b, &fl);
			last_log = now;
		}
		if (now - last_tick >= b->interval || gone || stopped)
			tick(b, have_pt ? &pt : NULL, &last_tick, 0);
	}
	attach_end(b, comm, &fl, stopped, t0);
	if (have_pt)
		proctree_free(&pt);
	if (pidfd >= 0)
		close(pidfd);
	b->st.state = BENCH_DONE;
	b->st.ntasks = b->st.throttled_tasks = 0;
	model_set_bench(b->m, &b->st);
	model_lock(b->m);
	b->m->bench_done = true;
	b->m->exit_code = 0;
	model_unlock(b->m);
	model_notify(b->m);
	return NULL;
}

/* ---- the driver interface ---------------------------------------------- */

static int bench_start(struct bench_driver *d, struct model *m, char *err, size_t errlen)
{
	struct bench_ctx *b = d->priv;
	int rc;

	b->m = m;
	if (b->cfg.kind != BENCH_KIND_ATTACH && (rc = bench_check_exec(b->plan.runs[0].argv[0], err, errlen))) {
		/* recorded too: the recording says what was attempted */
		model_add_event(m, MEV_RUN_END, model_now(m), "%s FAILED: %s",
				b->cfg.kind == BENCH_KIND_SWEEP ? "run 1" : "run", err);
		return rc;
	}
	if (b->cfg.kind == BENCH_KIND_ATTACH && !proctree_pid_alive(b->cfg.pid)) {
		snprintf(err, errlen, "attach: no process %d (ps -e to find the benchmark's pid)", (int)b->cfg.pid);
		return -ESRCH;
	}
	/* the run summaries read this machine: not the one --host watches */
	if (b->cfg.kind != BENCH_KIND_ATTACH && b->cfg.live_counters &&
	    probe_open_live(&b->rs_probe, err, errlen) != 0) {
		model_add_event(m, MEV_NOTE, model_now(m), "no run summaries (device or page cache): %s", err);
		b->rs_probe = NULL;
	}
	if (b->knob_keys.n) {
		for (int i = 0; i < b->knob_keys.n; i++)
			if ((rc = knobs_check_writable(b->knob_keys.v[i].key, err, errlen)))
				return rc;
		/* the originals are on disk before anything changes */
		if ((rc = knobs_journal_begin(&b->kj, &b->knob_keys, err, errlen)))
			return rc;
		char line[MODEL_LINE_LEN - 64];
		knobs_format_list(&b->kj.orig, line, sizeof(line));
		model_add_event(m, MEV_KNOB, model_now(m), "originals saved in %s: %s", b->kj.path, line);
	}
	model_lock(m);
	m->stop_bench = bench_stop_hook;
	m->stop_bench_ctx = b;
	m->bench_done = false;
	model_unlock(m);
	model_set_bench(m, &b->st);
	rc = pthread_create(&b->th, NULL, b->cfg.kind == BENCH_KIND_ATTACH ? attach_thread : bench_thread, b);
	if (rc) {
		snprintf(err, errlen, "cannot start the benchmark thread: %s", strerror(rc));
		model_lock(m);
		m->bench_done = true;
		model_unlock(m);
		return -rc;
	}
	b->started = true;
	return 0;
}

static void bench_join(struct bench_driver *d)
{
	struct bench_ctx *b = d->priv;

	if (!b->started)
		return;
	/* The front end is gone (quit confirmed, second Ctrl-C): a benchmark
	 * still running is stopped, not orphaned. */
	model_lock(b->m);
	bool done = b->m->bench_done;
	model_unlock(b->m);
	if (!done)
		bench_request_stop(d);
	pthread_join(b->th, NULL);
	b->started = false;
}

static const char *bench_describe(struct bench_driver *d)
{
	return ((struct bench_ctx *)d->priv)->describe;
}

/* What bench_ctx_new() and the plan made; the threads are gone. */
static void bench_ctx_free(struct bench_ctx *b)
{
	sweep_decider_free(&b->dec);
	sweep_plan_free(&b->plan);
	free(b->durations);
	if (b->wake[0] >= 0) {
		close(b->wake[0]);
		close(b->wake[1]);
	}
	pthread_mutex_destroy(&b->lock);
	free(b);
}

static void bench_destroy(struct bench_driver *d)
{
	struct bench_ctx *b = d->priv;

	bench_join(d);
	/* what the runs left behind does not outlive the session */
	if (b->cfg.kind != BENCH_KIND_ATTACH)
		bench_release_children(2.0);
	if (b->m) {
		model_lock(b->m);
		if (b->m->stop_bench_ctx == b) {
			b->m->stop_bench = NULL;
			b->m->stop_bench_ctx = NULL;
		}
		model_unlock(b->m);
	}
	if (b->kj.active)
		knobs_journal_restore(&b->kj, NULL, 0, NULL, (char[256]){ 0 }, 256);
	if (b->rs_probe)
		probe_close(b->rs_probe);
	runsum_release(&b->rs);
	bench_ctx_free(b);
}

/* A plain run is a plan of one run with nothing substituted. */
static int plan_single(struct sweep_plan *p, char *const *args, int nargs, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->repeat = 1;
	p->runs = calloc(1, sizeof(*p->runs));
	if (!p->runs || !(p->runs[0].argv = calloc((size_t)nargs + 1, sizeof(char *))))
		goto nomem;
	p->nruns = 1;
	for (int i = 0; i < nargs; i++)
		if (!(p->runs[0].argv[i] = strdup(args[i])))
			goto nomem;
	return 0;
nomem:
	sweep_plan_free(p);
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

/* run: the plan of one run, with its --sysctl specs.  0 or -errno. */
static int plan_run(struct bench_ctx *b, char *err, size_t errlen)
{
	const struct bench_config *c = &b->cfg;
	int rc;

	if (c->argc < 1 || !c->argv || !c->argv[0][0]) {
		snprintf(err, errlen, "run needs a command after -- (e.g. iodash run -- dbench -t 30 4)");
		return -EINVAL;
	}
	if ((rc = plan_single(&b->plan, c->argv, c->argc, err, errlen)))
		return rc;
	for (int i = 0; i < c->nsysctls && i < SWEEP_MAX_SYSCTLS; i++)
		if (!(b->plan.runs[0].sysctls[i] = strdup(c->sysctls[i]))) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	return 0;
}

/* The runs of the session (none for attach), and the knob keys every run
 * sets: every run's specs parse now (a usage error now, not at run 7),
 * and the keys are the same in every run.  0 or -errno with err. */
static int bench_make_plan(struct bench_ctx *b, char *err, size_t errlen)
{
	const struct bench_config *c = &b->cfg;
	int rc = 0;

	switch (c->kind) {
	case BENCH_KIND_SWEEP:
		rc = sweep_plan_build_knobs(&b->plan, c->params, c->nparams, c->argv, c->argc, c->between,
					    c->sysctls, c->nsysctls,
					    c->decide.on ? c->decide.dc.max_repeat : c->repeat > 0 ? c->repeat : 1,
					    err, errlen);
		b->st.run_total = b->plan.nruns;
		if (!rc && c->decide.on && !(rc = sweep_decider_init(&b->dec, &b->plan, &c->decide, err, errlen)))
			b->st.run_total = sweep_decider_runs_left(&b->dec);
		break;
	case BENCH_KIND_RUN:
		rc = plan_run(b, err, errlen);
		break;
	case BENCH_KIND_ATTACH:
		if (c->pid <= 0) {
			snprintf(err, errlen, "attach needs a PID (iodash attach [--log FILE] PID)");
			rc = -EINVAL;
		}
		break;
	default:
		snprintf(err, errlen, "internal: no benchmark driver for this command");
		rc = -EINVAL;
	}
	for (int i = 0; !rc && i < b->plan.nruns; i++) {
		struct knob_list kl;
		if ((rc = parse_knobs(b->plan.runs[i].sysctls, &kl, err, errlen)))
			break;
		if (i == 0)
			b->knob_keys = kl;
	}
	return rc;
}

/* -l, else the process's name (attach) or the command's. */
static void bench_name_label(struct bench_ctx *b)
{
	const struct bench_config *c = &b->cfg;
	char comm[64];

	if (c->label && c->label[0])
		snprintf(b->label, sizeof(b->label), "%s", c->label);
	else if (c->kind == BENCH_KIND_ATTACH)
		snprintf(b->label, sizeof(b->label), "%s", read_comm(c->pid, comm, sizeof(comm)) ? comm : "attached");
	else
		snprintf(b->label, sizeof(b->label), "%s", util_base_name(c->argv[0]));
}

/* Add to b->describe at *off, as long as there is room. */
static void describe_add(struct bench_ctx *b, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void describe_add(struct bench_ctx *b, size_t *off, const char *fmt, ...)
{
	va_list ap;

	if (*off >= sizeof(b->describe))
		return;
	va_start(ap, fmt);
	int w = vsnprintf(b->describe + *off, sizeof(b->describe) - *off, fmt, ap);
	va_end(ap);
	if (w > 0)
		*off += (size_t)w;
}

/* The command lines as typed, for the recording's header: "sweep -p ...
 * -- CMD", "run --sysctl ... -- CMD" (plain "CMD" without knobs),
 * "attach PID --log FILE". */
static void bench_describe_cmdline(struct bench_ctx *b)
{
	const struct bench_config *c = &b->cfg;
	char words[1536];
	size_t off = 0;

	if (c->kind == BENCH_KIND_ATTACH) {
		describe_add(b, &off, "attach %d%s%s", (int)c->pid, c->log ? " --log " : "", c->log ? c->log : "");
		return;
	}
	join_words(words, sizeof(words), c->argv);
	if (c->kind == BENCH_KIND_SWEEP) {
		describe_add(b, &off, "sweep");
		for (int i = 0; i < c->nparams; i++)
			describe_add(b, &off, " -p %s", c->params[i]);
		if (c->repeat > 1)
			describe_add(b, &off, " --repeat %d", c->repeat);
		if (c->decide.on)
			describe_add(b, &off, " --until-decided --min-repeat %d --max-repeat %d --ci %g --min-change %g%s%s",
				     c->decide.dc.min_repeat, c->decide.dc.max_repeat, c->decide.dc.ci_pct,
				     c->decide.dc.min_change_pct,
				     c->decide.baseline_name || c->decide.baseline_param ? " --baseline " : "",
				     c->decide.baseline_name ? c->decide.baseline_name :
				     c->decide.baseline_param ? c->decide.baseline_param : "");
		if (c->between)
			describe_add(b, &off, " --between '%s'", c->between);
	} else {
		describe_add(b, &off, "%s", c->nsysctls ? "run" : "");
	}
	for (int i = 0; i < c->nsysctls; i++)
		describe_add(b, &off, " --sysctl %s", c->sysctls[i]);
	if (c->kind == BENCH_KIND_SWEEP)
		describe_add(b, &off, " -- %s", words);
	else
		describe_add(b, &off, "%s%s", c->nsysctls ? " -- " : "", words);
}

static struct bench_ctx *bench_ctx_new(const struct bench_config *cfg)
{
	struct bench_ctx *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->cfg = *cfg;
	b->wake[0] = b->wake[1] = -1;
	b->interval = cfg->interval >= 0.1 ? cfg->interval : 0.1;
	b->st.last_exit_status = -1;
	b->st.eta_s = -1;
	b->st.run_length_s = -1;
	pthread_mutex_init(&b->lock, NULL);
	return b;
}

/* The wake pipe and the runs' durations.  0 or -errno with err. */
static int bench_alloc(struct bench_ctx *b, char *err, size_t errlen)
{
	if (pipe2(b->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		int rc = -errno;
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return rc;
	}
	b->durations = calloc((size_t)(b->plan.nruns > 0 ? b->plan.nruns : 1), sizeof(double));
	if (!b->durations) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* A benchmark that cannot be run, or a pid that is not there, is said
 * before the session sets anything up (the tracepoints take seconds).
 * 0 or -errno with err. */
static int bench_check_target(const struct bench_ctx *b, char *err, size_t errlen)
{
	if (b->cfg.kind != BENCH_KIND_ATTACH)
		return bench_check_exec(b->plan.runs[0].argv[0], err, errlen);
	if (!proctree_pid_alive(b->cfg.pid)) {
		snprintf(err, errlen, "attach: no process %d (ps -e to find the benchmark's pid)", (int)b->cfg.pid);
		return -ESRCH;
	}
	return 0;
}

int bench_driver_create(const struct bench_config *cfg, struct bench_driver **out,
			char *err, size_t errlen)
{
	struct bench_ctx *b = bench_ctx_new(cfg);
	int rc;

	*out = NULL;
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if ((rc = bench_make_plan(b, err, errlen)) || (rc = bench_alloc(b, err, errlen))) {
		bench_ctx_free(b);
		return rc;
	}
	bench_name_label(b);
	bench_describe_cmdline(b);
	if ((rc = bench_check_target(b, err, errlen))) {
		bench_ctx_free(b);
		return rc;
	}
	b->drv = (struct bench_driver){
		.name = cfg->kind == BENCH_KIND_SWEEP ? "sweep" : cfg->kind == BENCH_KIND_RUN ? "run" : "attach",
		.start = bench_start, .request_stop = bench_request_stop, .join = bench_join,
		.destroy = bench_destroy, .describe = bench_describe, .priv = b,
	};
	*out = &b->drv;
	return 0;
}
