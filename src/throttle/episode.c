/* Throttle episodes: see throttle.h for the rule. */
#include <stdio.h>
#include <string.h>
#include "iodash/throttle/episode.h"

void throttle_init(struct thr_builder *b, double gap_s)
{
	memset(b, 0, sizeof(*b));
	b->gap_ns = (uint64_t)((gap_s > 0 ? gap_s : THROTTLE_GAP_DEFAULT) * 1e9);
}

static void peak(struct thr_episode *e, uint64_t dirty, uint64_t limit)
{
	if (dirty > e->peak_dirty) {
		e->peak_dirty = dirty;
		e->peak_limit = limit;
	}
}

static void add_writer(struct thr_episode *e, const struct thr_pause *p)
{
	struct thr_writer *w = NULL;

	for (int i = 0; i < e->nwriters; i++)
		if (e->writers[i].pid == p->pid && !strcmp(e->writers[i].bdi, p->bdi)) {
			w = &e->writers[i];
			break;
		}
	if (!w) {
		if (e->nwriters == THR_MAX_WRITERS) {
			e->writers_dropped++;
			return;
		}
		w = &e->writers[e->nwriters++];
		memset(w, 0, sizeof(*w));
		w->pid = p->pid;
		w->cgroup_ino = p->cgroup_ino;
		memcpy(w->comm, p->comm, sizeof(w->comm));
		w->comm[THR_COMM_LEN - 1] = '\0';
		memcpy(w->bdi, p->bdi, sizeof(w->bdi));
		w->bdi[THR_BDI_LEN - 1] = '\0';
	}
	w->pauses++;
	w->paused_ms += (double)p->pause_ms;
}

/* Close the open episode if `t` is past its end plus the gap. */
static int close_if_past(struct thr_builder *b, uint64_t t, struct thr_episode *closed)
{
	if (!b->open || t <= b->cur.end_ns + b->gap_ns)
		return 0;
	*closed = b->cur;
	b->open = false;
	return THR_CLOSED;
}

static int open_at(struct thr_builder *b, uint64_t start_ns, bool sampled)
{
	memset(&b->cur, 0, sizeof(b->cur));
	b->cur.start_ns = b->cur.end_ns = start_ns;
	b->cur.sampled = sampled;
	b->open = true;
	b->episodes++;
	return THR_STARTED;
}

int throttle_feed(struct thr_builder *b, const struct thr_pause *p, struct thr_episode *closed)
{
	int r;

	if (p->pause_ms <= 0) {
		if (b->open)
			peak(&b->cur, p->dirty, p->limit);
		return 0;
	}
	uint64_t end = p->ts_ns + (uint64_t)p->pause_ms * 1000000u;
	/* drained after the cut but over before it: it belonged to the
	 * stretch the cut closed (the previous run's), never to the next */
	if (end < b->floor_ns)
		return 0;
	r = close_if_past(b, p->ts_ns, closed);
	if (!b->open)
		r |= open_at(b, p->ts_ns > b->floor_ns ? p->ts_ns : b->floor_ns, false);
	struct thr_episode *e = &b->cur;
	if (end > e->end_ns)
		e->end_ns = end;
	e->pauses++;
	e->paused_ms += (double)p->pause_ms;
	peak(e, p->dirty, p->limit);
	add_writer(e, p);
	return r;
}

void throttle_feed_level(struct thr_builder *b, uint64_t dirty, uint64_t limit)
{
	if (b->open)
		peak(&b->cur, dirty, limit);
}

int throttle_feed_span(struct thr_builder *b, uint64_t start_ns, uint64_t end_ns,
		       uint64_t dirty, uint64_t limit, struct thr_episode *closed)
{
	int r;

	if (end_ns < b->floor_ns)   /* over before the last cut, as in throttle_feed */
		return 0;
	r = close_if_past(b, start_ns, closed);
	if (!b->open)
		r |= open_at(b, start_ns > b->floor_ns ? start_ns : b->floor_ns, true);
	if (end_ns > b->cur.end_ns)
		b->cur.end_ns = end_ns;
	peak(&b->cur, dirty, limit);
	return r;
}

int throttle_advance(struct thr_builder *b, uint64_t now_ns, struct thr_episode *closed)
{
	return close_if_past(b, now_ns, closed);
}

int throttle_cut(struct thr_builder *b, uint64_t at_ns, struct thr_episode *closed)
{
	if (at_ns > b->floor_ns)
		b->floor_ns = at_ns;
	return throttle_flush(b, closed);
}

int throttle_flush(struct thr_builder *b, struct thr_episode *closed)
{
	if (!b->open)
		return 0;
	*closed = b->cur;
	b->open = false;
	return THR_CLOSED;
}

double throttle_duty(const struct thr_episode *e)
{
	double span_ms = (double)(e->end_ns - e->start_ns) / 1e6, most = 0;

	if (e->sampled || span_ms <= 0)
		return 0;
	/* per writer: the busiest one's share of the episode asleep (a
	 * mean would fall with every short-lived writer that paused once) */
	for (int i = 0; i < e->nwriters; i++)
		if (e->writers[i].paused_ms > most)
			most = e->writers[i].paused_ms;
	return 100.0 * most / span_ms;
}

void throttle_format_writers(const struct thr_episode *e, char *buf, size_t len)
{
	size_t off = 0;
	bool used[THR_MAX_WRITERS] = { 0 };

	if (!len)
		return;
	buf[0] = '\0';
	if (e->sampled || !e->nwriters) {
		snprintf(buf, len, "n/a");
		return;
	}
	/* busiest (most ms paused) first: the one to look at */
	for (int k = 0; k < e->nwriters && off < len; k++) {
		int best = -1;
		for (int i = 0; i < e->nwriters; i++)
			if (!used[i] && (best < 0 || e->writers[i].paused_ms > e->writers[best].paused_ms))
				best = i;
		used[best] = true;
		int w = snprintf(buf + off, len - off, "%s%s:%d", k ? "," : "",
				 e->writers[best].comm[0] ? e->writers[best].comm : "?",
				 (int)e->writers[best].pid);
		if (w < 0)
			break;
		off += (size_t)w;
	}
	if (e->writers_dropped && off < len)
		snprintf(buf + off, len - off, ",+%u", e->writers_dropped);
}
