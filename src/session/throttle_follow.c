/* throttle_follow: see throttle_follow.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "iodash/base/util.h"
#include "iodash/session/throttle_follow.h"

void throttle_follow_init(struct throttle_follow *f, struct ktrace *kt, double gap_s)
{
	memset(f, 0, sizeof(*f));
	f->kt = kt;
	throttle_init(&f->sampled, gap_s);
}

static unsigned page_kb(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (unsigned)(p / 1024) : 4;
}

void throttle_format_start(const struct thr_episode *e, const char *cgroup, unsigned pk,
			   char *buf, size_t len)
{
	char writers[160];
	const char *bdi = e->nwriters ? e->writers[0].bdi : "?";

	throttle_format_writers(e, writers, sizeof(writers));
	snprintf(buf, len, "throttle start bdi=%s writers=%s cgroup=%s dirty=%" PRIu64 "kB limit=%" PRIu64 "kB",
		 bdi, writers, cgroup && cgroup[0] ? cgroup : "?",
		 e->peak_dirty * pk, e->peak_limit * pk);
}

void throttle_format_end(const struct thr_episode *e, unsigned pk, char *buf, size_t len)
{
	char writers[160];
	double d = (double)(e->end_ns - e->start_ns) / 1e9;

	if (e->sampled) {
		snprintf(buf, len, "throttle end %.2fs (sampled)", d);
		return;
	}
	throttle_format_writers(e, writers, sizeof(writers));
	snprintf(buf, len, "throttle end %.3fs pauses=%" PRIu32 " paused_ms=%.0f duty=%.0f%% "
		 "peak_dirty=%" PRIu64 "kB limit=%" PRIu64 "kB writers=%s",
		 d, e->pauses, e->paused_ms, throttle_duty(e), e->peak_dirty * pk, e->peak_limit * pk,
		 writers);
}

static double session_t(const struct throttle_follow *f, uint64_t ns)
{
	return ((double)ns - (double)f->t0_ns) / 1e9;
}

static void queue(struct throttle_follow *f, enum model_event_kind kind, double t, const char *text)
{
	if (f->npending == (int)(sizeof(f->pending) / sizeof(f->pending[0])))
		return;
	struct model_event *e = &f->pending[f->npending++];
	e->kind = kind;
	e->t = t;
	snprintf(e->text, sizeof(e->text), "%s", text);
}

void throttle_follow_emit(struct throttle_follow *f, struct model *m)
{
	for (int i = 0; i < f->npending; i++)
		model_add_event(m, f->pending[i].kind, f->pending[i].t, "%s", f->pending[i].text);
	f->npending = 0;
	/* after the events of the episodes the cuts closed: a driver waiting
	 * for its cut then says its run's end after them */
	model_lock(m);
	if (f->cuts_done > m->thr.cuts_done)
		m->thr.cuts_done = f->cuts_done;
	m->thr.run = f->run;
	model_unlock(m);
}

static void on_start(struct throttle_follow *f, struct model *m, const struct thr_episode *e,
		     const struct sample *s, const char *cgroup)
{
	char text[MODEL_LINE_LEN];

	f->episodes++;
	if (f->run.open && !f->run.count++)
		f->run.first_ns = e->start_ns;
	f->open = true;
	f->open_start_ns = e->start_ns;
	if (e->sampled)
		snprintf(text, sizeof(text), "throttle start dirty+writeback=%" PRIu64 "kB freerun=%" PRIu64 "kB%s (sampled)",
			 s->dirty_kb + s->writeback_kb, s->freerun_kb,
			 s->zone == ZONE_HARD_LIMIT ? " (hard_limit)" : "");
	else
		throttle_format_start(e, cgroup, page_kb(), text, sizeof(text));
	queue(f, MEV_HIT_START, session_t(f, e->start_ns), text);
}

static void on_end(struct throttle_follow *f, struct model *m, const struct thr_episode *e)
{
	char text[MODEL_LINE_LEN];

	f->open = false;
	f->closed_seconds += (double)(e->end_ns - e->start_ns) / 1e9;
	if (f->run.open) {
		double most = 0;
		for (int i = 0; i < e->nwriters; i++)
			if (e->writers[i].paused_ms > most)
				most = e->writers[i].paused_ms;
		f->run.paused_ms += e->paused_ms;
		f->run.span_s += (double)(e->end_ns - e->start_ns) / 1e9;
		f->run.busiest_ms += most;
		f->run.sampled |= e->sampled;
	}
	throttle_format_end(e, page_kb(), text, sizeof(text));
	queue(f, MEV_HIT_END, session_t(f, e->end_ns), text);
}

/* A cut applied: a run begins or ends there (what was open is closed) */
static void on_cut(struct throttle_follow *f, const struct kt_cut *c)
{
	if (c->kind == KT_CUT_RUN_START) {
		memset(&f->run, 0, sizeof(f->run));
		f->run.open = true;
		f->run.start_ns = c->at_ns;
	} else {
		f->run.open = false;
	}
	if (c->ticket > f->cuts_done)
		f->cuts_done = c->ticket;
}

unsigned throttle_follow_cut(struct model *m, int kind)
{
	unsigned ticket = 0;

	model_lock(m);
	struct model_throttle *t = &m->thr;
	if (t->ncuts < KT_MAX_CUTS && !m->sampler_done) {
		ticket = ++t->cut_tickets;
		t->cuts[t->ncuts++] = (struct kt_cut){ .at_ns = util_mono_ns(), .kind = kind, .ticket = ticket };
	}
	model_unlock(m);
	return ticket;
}

bool throttle_follow_wait_cut(struct model *m, unsigned ticket, double timeout_s)
{
	double until = util_mono_s() + timeout_s;

	/* a few ms at most a run: the sampler's next tick applies it */
	for (;;) {
		model_lock(m);
		bool done = !ticket || m->thr.cuts_done >= ticket, gone = m->sampler_done;
		model_unlock(m);
		/* a sampler that has ended adds nothing more: nothing of the
		 * run can come after what the driver says next */
		if (done || gone)
			return true;
		if (util_mono_s() >= until)
			return false;
		nanosleep(&(struct timespec){ .tv_nsec = 5000000 }, NULL);
	}
}

static void publish(struct throttle_follow *f, struct model *m, const struct sample *s,
		    const struct kt_window *w)
{
	model_lock(m);
	struct model_throttle *t = &m->thr;
	t->src = s->thr_src;
	if (w) {
		kt_window_copy(&t->last, w);
		t->pauses_total += w->pauses;
		t->paused_ms_total += w->paused_ms;
	}
	t->last_dt = s->dt;
	t->in_episode = f->open;
	t->episode_start_t = f->open ? session_t(f, f->open_start_ns) : 0;
	t->episodes = f->episodes;
	t->run = f->run;
	model_unlock(m);
}

/* An episode closed in this interval: its event, and its length on the
 * sample. */
static void follow_close(struct throttle_follow *f, struct model *m, struct sample *s, const struct thr_episode *e)
{
	on_end(f, m, e);
	s->hit_duration = (double)(e->end_ns - e->start_ns) / 1e9;
}

/* The cuts the drivers posted since the last sample, taken off the
 * model at once so that none is applied twice. */
static int follow_take_cuts(struct model *m, struct kt_cut *cuts)
{
	int ncuts;

	model_lock(m);
	ncuts = m->thr.ncuts;
	memcpy(cuts, m->thr.cuts, (size_t)ncuts * sizeof(cuts[0]));
	m->thr.ncuts = 0;
	model_unlock(m);
	return ncuts;
}

/* The kernel's pauses of this interval on the sample: totals and the
 * first four writers that paused. */
static void follow_put_writers(struct sample *s, const struct kt_window *w)
{
	s->thr_src = THR_SRC_KERNEL;
	s->pauses = w->pauses;
	s->paused_ms = w->paused_ms;
	s->nwriters = 0;
	for (int i = 0; i < w->nwriters && s->nwriters < 4; i++) {
		if (!w->writers[i].pauses)
			continue;
		struct sample_writer *sw = &s->writers[s->nwriters++];
		sw->pid = w->writers[i].pid;
		memcpy(sw->comm, w->writers[i].comm, sizeof(sw->comm));
		sw->pauses = w->writers[i].pauses;
		sw->paused_ms = w->writers[i].paused_ms;
	}
}

/* The window's transitions in their order (cuts, starts, ends); true
 * when an episode closed. */
static bool follow_transitions(struct throttle_follow *f, struct model *m, struct sample *s,
			       const struct kt_window *w)
{
	bool closed_one = false;

	for (int i = 0; i < w->ntrans; i++) {
		const struct thr_episode *e = &w->trans[i].ep;
		if (w->trans[i].kind == THR_CUT) {
			on_cut(f, &w->trans[i].cut);
		} else if (w->trans[i].kind == THR_STARTED) {
			const char *cg = "?";
			for (int j = 0; j < w->nwriters; j++)
				if (e->nwriters && w->writers[j].pid == e->writers[0].pid)
					cg = w->writers[j].cgroup;
			on_start(f, m, e, s, cg);
		} else {
			follow_close(f, m, s, e);
			closed_one = true;
		}
	}
	return closed_one;
}

/* Throttling as the kernel's tracepoints saw it; true when an episode
 * closed. */
static bool follow_kernel(struct throttle_follow *f, struct model *m, struct sample *s, const struct kt_cut *cuts,
			  int ncuts, struct kt_window *w)
{
	for (int i = 0; i < ncuts; i++)
		if (ktrace_cut(f->kt, &cuts[i]))
			on_cut(f, &cuts[i]);    /* cannot wait: as if applied now */
	ktrace_collect(f->kt, w);
	follow_put_writers(s, w);
	bool closed_one = follow_transitions(f, m, s, w);
	s->throttled = w->pauses > 0 || w->in_episode;
	if (w->lost_events || w->trans_dropped) {
		char text[MODEL_LINE_LEN];
		snprintf(text, sizeof(text), "tracepoints: the kernel dropped %llu events (its buffer was full)%s: "
			 "pause counts of this interval are low", (unsigned long long)w->lost_events,
			 w->trans_dropped ? " and episode events were lost" : "");
		queue(f, MEV_NOTE, s->t, text);
	}
	if (w->cuts_done > f->cuts_done)
		f->cuts_done = w->cuts_done;
	return closed_one;
}

/* Throttling guessed from the sampled zone, without tracefs.  True when
 * an episode closed. */
static bool follow_sampled(struct throttle_follow *f, struct model *m, struct sample *s, const struct kt_cut *cuts,
			   int ncuts, uint64_t now_ns)
{
	struct thr_episode closed;
	bool closed_one = false;
	int r;

	for (int i = 0; i < ncuts; i++) {
		if (throttle_cut(&f->sampled, cuts[i].at_ns, &closed)) {
			follow_close(f, m, s, &closed);
			closed_one = true;
		}
		on_cut(f, &cuts[i]);
	}
	s->thr_src = s->have_dirty ? THR_SRC_SAMPLED : THR_SRC_NONE;
	if (s->have_dirty && s->zone >= ZONE_THROTTLE)
		r = throttle_feed_span(&f->sampled, now_ns, now_ns,
				       s->dirty_kb + s->writeback_kb, s->thresh_kb, &closed);
	else
		r = throttle_advance(&f->sampled, now_ns, &closed);
	if (r & THR_CLOSED) {
		follow_close(f, m, s, &closed);
		closed_one = true;
	}
	if (r & THR_STARTED)
		on_start(f, m, &f->sampled.cur, s, NULL);
	s->throttled = s->have_dirty && s->zone >= ZONE_THROTTLE;
	return closed_one;
}

void throttle_follow_sample(struct throttle_follow *f, struct model *m, struct sample *s,
			    uint64_t now_ns)
{
	struct kt_window w;
	unsigned hits_before = f->episodes;
	bool closed_one;
	struct kt_cut cuts[KT_MAX_CUTS];
	int ncuts;

	if (s->seq == 0)
		f->t0_ns = now_ns;
	s->hit_event = 0;
	s->hit_duration = 0;
	ncuts = follow_take_cuts(m, cuts);
	if (f->kt)
		closed_one = follow_kernel(f, m, s, cuts, ncuts, &w);
	else
		closed_one = follow_sampled(f, m, s, cuts, ncuts, now_ns);
	/* +1 when an episode began in this interval, else -1 when one ended */
	s->hit_event = f->episodes > hits_before ? +1 : closed_one ? -1 : 0;
	s->hits = f->episodes;
	s->hit_seconds = f->closed_seconds +
		(f->open && now_ns > f->open_start_ns ? (double)(now_ns - f->open_start_ns) / 1e9 : 0);
	publish(f, m, s, f->kt ? &w : NULL);
}

void throttle_follow_announce(struct model *m)
{
	char note[MODEL_LINE_LEN];

	model_lock(m);
	snprintf(note, sizeof(note), "%s", m->thr.note);
	model_unlock(m);
	if (note[0])
		model_add_event(m, MEV_NOTE, 0, "%s", note);
}

void throttle_follow_finish(struct throttle_follow *f, struct model *m)
{
	struct thr_episode closed;

	if (f->kt) {
		struct kt_window w;
		ktrace_finish(f->kt, &w);
		for (int i = 0; i < w.ntrans; i++)
			if (w.trans[i].kind == THR_CLOSED)
				on_end(f, m, &w.trans[i].ep);
	} else if (throttle_flush(&f->sampled, &closed)) {
		on_end(f, m, &closed);
	}
	throttle_follow_emit(f, m);
}
