/* frame: see src/ui/frame.h.  Pure: no curses, no globals, so
 * the subtle part of the screen (what a frame sends over ssh) is
 * unit-tested (tests/unit/test_frame.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ui/frame.h"

bool frame_bench_active(const struct frame *f)
{
	return f->bench.state == BENCH_RUNNING || f->bench.state == BENCH_STARTING ||
	       f->bench.state == BENCH_BETWEEN;
}

bool frame_pause_rates(const struct frame *f, double *per_s, double *ms_per_s)
{
	if (frame_bench_active(f) && f->bench.have_tracepoint) {
		*per_s = f->bench.pauses_per_s;
		*ms_per_s = f->bench.pause_ms_per_s;
		return true;
	}
	/* no run (or it ended): the machine's pauses now, while there are */
	const struct kt_window *k = &f->thr.last;
	if (f->thr.src != THR_SRC_KERNEL || f->thr.last_dt <= 0 || !k->pauses)
		return false;
	*per_s = k->pauses / f->thr.last_dt;
	*ms_per_s = k->paused_ms / f->thr.last_dt;
	return true;
}

double frame_run_done(const struct frame *f)
{
	if (f->bench.run_length_s <= 0 || !f->have_last)
		return 0;
	double d = (f->last.t - f->bench.run_start_t) / f->bench.run_length_s;
	return d < 0 ? 0 : d > 1 ? 1 : d;
}

/* The events pane gives a hit one line: its end joins the line of its
 * start ("0:03 throttle 0.20s dirty+writeback=…") when nothing came
 * between them.  A kernel at its dirty limit can go in and out of
 * throttle several times a second; two lines each would bury the rest. */
bool frame_event_joins_previous(int prev_kind, int kind)
{
	return kind == MEV_HIT_END && prev_kind == MEV_HIT_START;
}

int frame_event_lines(const struct frame *f, uint64_t *key, int *line_ev)
{
	uint64_t abs0 = f->nevents - (uint64_t)f->nev;
	int nl = 0;
	for (int i = 0; i < f->nev; i++)
		if (!i || !frame_event_joins_previous((int)f->ev[i - 1].kind, (int)f->ev[i].kind)) {
			key[nl] = abs0 + (uint64_t)i;
			line_ev[nl++] = i;
		}
	return nl;
}

int frame_event_line_of(const uint64_t *key, int n, uint64_t sel)
{
	int j = 0;
	while (j < n - 1 && key[j] < sel)
		j++;
	/* a key between two lines (the second event of a joined line): its line */
	if (j > 0 && key[j] > sel)
		j--;
	return j;
}

/* The text of a hit's joined line: "throttle 0.20s dirty+writeback=…",
 * from the texts the sampler gives its events (src/session/sampler.c); other
 * texts (an older recording) are shown side by side. */
void frame_joined_hit_text(const char *start, const char *end, char *out, size_t n)
{
	static const char sp[] = "throttle start ", ep[] = "throttle end ";
	if (!strncmp(start, sp, sizeof sp - 1) && !strncmp(end, ep, sizeof ep - 1))
		snprintf(out, n, "throttle %s %s", end + sizeof ep - 1, start + sizeof sp - 1);
	else
		snprintf(out, n, "%s, %s", start, end);
}

/* The zone badge shows the worst zone of the samples within one refresh
 * period of the newest: a frame stands for that period, and a dirty level
 * that hovers at freerun (in and out of throttle several times a second)
 * then reads THROTTLE steadily instead of flashing. */
int frame_worst_zone(const struct frame *v, double period)
{
	if (!v->have_last || !v->last.have_dirty)
		return ZONE_UNKNOWN;
	int z = v->last.zone;
	bool paused = v->last.throttled;
	const struct history *h = v->hist;
	uint64_t n = h ? h->nmarks : 0, held = n < HIST_MARKS ? n : HIST_MARKS;
	for (uint64_t i = n; i-- > n - held;) {
		const struct hist_mark *p = &h->marks[i % HIST_MARKS];
		if (p->t <= v->last.t - period)
			break;
		if (p->have_dirty && p->zone > z)
			z = p->zone;
		paused |= p->throttled;
	}
	/* The kernel's word beats the sampled level: THROTTLE when a writer
	 * paused in the period even if no sample caught the level above
	 * freerun, and not when none did though one sample was above it. */
	if (v->last.thr_src == THR_SRC_KERNEL) {
		if (paused && z < ZONE_THROTTLE)
			z = ZONE_THROTTLE;
		else if (!paused && z >= ZONE_THROTTLE)
			z = ZONE_BG_FLUSH;
	}
	return z;
}

const char *frame_zone_badge(int zone, enum theme_elem *e)
{
	switch (zone) {
	case ZONE_BELOW_BG: *e = TE_BADGE_BELOW; return " below bg ";
	case ZONE_BG_FLUSH: *e = TE_BADGE_BG; return " background writeback ";
	case ZONE_THROTTLE: *e = TE_BADGE_THROTTLE; return " THROTTLE ";
	case ZONE_HARD_LIMIT: *e = TE_BADGE_HARD; return " HARD LIMIT ";
	default: *e = TE_BADGE_UNKNOWN; return " zone n/a ";
	}
}

const char *frame_zone_badge_short(int zone)
{
	switch (zone) {
	case ZONE_BELOW_BG: return " ok ";
	case ZONE_BG_FLUSH: return " bg ";
	case ZONE_THROTTLE: return " THROTTLE ";
	case ZONE_HARD_LIMIT: return " HARD ";
	default: return " n/a ";
	}
}

int frame_copy(struct frame *v, struct model *m, int cols)
{
	/* not calloc: the rate rows of disk slots never taken stay untouched */
	if (!v->hist) {
		if (!(v->hist = malloc(sizeof(*v->hist))))
			return -ENOMEM;
		history_init(v->hist, 0);
	}
	v->window = (cols > 0 ? cols : 80) * 2 + 16;
	if (v->window > HIST_BUCKETS)
		v->window = HIST_BUCKETS;
	model_lock(m);
	snprintf(v->host, sizeof v->host, "%s", m->host);
	snprintf(v->kernel, sizeof v->kernel, "%s", m->kernel);
	snprintf(v->source, sizeof v->source, "%s", m->source);
	snprintf(v->remote_bench, sizeof v->remote_bench, "%s", m->remote_bench);
	snprintf(v->error, sizeof v->error, "%s", m->error);
	v->replay = m->replay;
	v->sampler_done = m->sampler_done;
	v->bench_done = m->bench_done;
	v->exit_code = m->exit_code;
	v->bench = m->bench;
	v->thr = m->thr;
	v->ctx = m->ctx;
	snprintf(v->ctx_why, sizeof v->ctx_why, "%s", m->ctx_why);
	if (m->backpressure)
		m->consumed = m->series.pushed;
	const struct sample *last = series_last(&m->series);
	v->have_last = last != NULL;
	if (last && sample_copy(&v->last, last))
		v->have_last = false;   /* no memory for its devices: as if none yet */
	if (m->hist)
		history_copy(v->hist, m->hist);
	uint64_t no = m->noutput, first = no > FRAME_OUT_LINES ? no - FRAME_OUT_LINES : 0;
	if (no - first > MODEL_OUTPUT_CAP)
		first = no - MODEL_OUTPUT_CAP;
	v->nout = 0;
	for (uint64_t i = first; i < no; i++)
		snprintf(v->out[v->nout++], MODEL_LINE_LEN, "%s", m->output[i % MODEL_OUTPUT_CAP].text);
	v->noutput = no;
	uint64_t ne = m->nevents, fe = ne > FRAME_EVENTS ? ne - FRAME_EVENTS : 0;
	v->nev = 0;
	v->nevents = ne;
	for (uint64_t i = fe; i < ne; i++)
		v->ev[v->nev++] = m->events[i % MODEL_EVENT_CAP];
	if (m->results.n != v->rs_seen) {
		struct result_point *np = realloc(v->rs.v, (m->results.n + 1) * sizeof *np);
		if (np) {
			v->rs.v = np;
			memcpy(np, m->results.v, m->results.n * sizeof *np);
			v->rs.n = v->rs.cap = m->results.n;
			v->rs_seen = m->results.n;
			v->rs_changed = true;
		}
	}
	model_unlock(m);
	if (v->bench.state != BENCH_NONE)
		v->had_bench = true;
	v->badge_zone = frame_worst_zone(v, v->hist->width > 0 ? v->hist->width : 1);
	return 0;
}

void frame_free(struct frame *f)
{
	sample_free(&f->last);
	free(f->hist);
	free(f->rs.v);
	f->hist = NULL;
	f->rs.v = NULL;
}

double frame_time_to_freerun(const struct frame *v)
{
	static const double windows[] = { 10, 60, 600 };   /* seconds of history */
	const struct sample *s = &v->last;
	const struct history *h = v->hist;
	double t[HIST_BUCKETS], kb[HIST_BUCKETS];

	if (!v->have_last || !s->have_dirty || !h)
		return -1;
	/* the newest trend first: a rise that began a few seconds ago is
	 * lost in a long window, a slow one needs it */
	for (size_t w = 0; w < sizeof windows / sizeof windows[0]; w++) {
		uint64_t b = h->nclosed;
		while (b > 0 && history_bucket(h, b - 1) && history_bucket(h, b - 1)->t >= s->t - windows[w])
			b--;
		int n = 0;
		for (; b < h->nclosed; b++) {
			const struct hist_bucket *p = history_bucket(h, b);
			if (p && p->have_dirty) {
				t[n] = p->t;
				kb[n++] = p->level_kb;
			}
		}
		/* buckets only: a bucket's level is its peak, which the
		 * newest sample alone would read as a fall */
		double left = derive_time_to_limit(t, kb, n, (double)s->freerun_kb, FRAME_FREERUN_HORIZON_S);
		if (left >= 0)
			return left;
		if (b > 0 && !history_bucket(h, b - 1))
			break;   /* the history holds no more: longer windows see the same */
	}
	return -1;
}

/* The slot of the newest sample's disk k in the history, or -1. */
static int frame_disk_slot(const struct frame *v, int k)
{
	return v->hist && k < v->last.ndisks ? history_slot(v->hist, v->last.disks[k].name) : -1;
}

static bool bucket_busy(const struct history *h, uint64_t b, int slot)
{
	return history_rate(h, b, slot, false) > 0 || history_rate(h, b, slot, true) > 0;
}

const char *frame_disk_sort_name(int sort)
{
	static const char *const names[FRAME_SORT_N] = {
		[FRAME_SORT_UTIL] = "busiest by %util", [FRAME_SORT_BYTES] = "busiest by bytes",
		[FRAME_SORT_NAME] = "by name",
	};
	return sort >= 0 && sort < FRAME_SORT_N ? names[sort] : "?";
}

static double disk_bytes_s(const struct disk_rate *d)
{
	return d->have_rate ? d->rkB_s + d->wkB_s : -1;
}

static double disk_util(const struct disk_rate *d)
{
	double u = disk_rate_figure(d, DF_UTIL);
	return isnan(u) ? -1 : u;
}

static int cmp_double_desc(double a, double b)
{
	return a > b ? -1 : a < b ? 1 : 0;
}

/* qsort_r's order of two indexes into last.disks: the key, then the
 * other figure, then the kernel's order (a stable screen) */
static int disk_order(const void *pa, const void *pb, void *ctx)
{
	const struct frame *v = ctx;
	int a = *(const int *)pa, b = *(const int *)pb, c = 0;
	const struct disk_rate *da = &v->last.disks[a], *db = &v->last.disks[b];

	switch (v->disk_sort) {
	case FRAME_SORT_NAME:
		c = strcmp(da->name, db->name);
		break;
	case FRAME_SORT_BYTES:
		if (!(c = cmp_double_desc(disk_bytes_s(da), disk_bytes_s(db))))
			c = cmp_double_desc(disk_util(da), disk_util(db));
		break;
	default:
		if (!(c = cmp_double_desc(disk_util(da), disk_util(db))))
			c = cmp_double_desc(disk_bytes_s(da), disk_bytes_s(db));
	}
	return c ? c : a - b;
}

/* Did the disk do I/O in the graphs' window (its history row) or in the
 * last sample (a disk without a row: more busy disks than rows)? */
static bool disk_active(const struct frame *v, int k)
{
	const struct disk_rate *d = &v->last.disks[k];
	const struct history *h = v->hist;
	int slot = frame_disk_slot(v, k);

	if (d->have_rate && (d->rkB_s > 0 || d->wkB_s > 0 || d->r_s > 0 || d->w_s > 0 ||
			     disk_util(d) > 0))
		return true;
	if (slot < 0)
		return false;
	uint64_t from = h->nclosed > (uint64_t)v->window ? h->nclosed - (uint64_t)v->window : 0;
	for (uint64_t b = from; b < h->nclosed; b++)
		if (bucket_busy(h, b, slot))
			return true;
	/* and the samples of the bucket being filled */
	return h->nrate[slot] && (h->rd_sum[slot] > 0 || h->wr_sum[slot] > 0);
}

/* Disks worth a line and a graph: those with I/O (the kernel lists every
 * loop and zram device; iostat users skip them), the busiest first. */
int frame_active_disks(const struct frame *v, int *idx, int max, int *idle)
{
	int n = 0, nd = v->have_last ? v->last.ndisks : 0;
	int *all = nd ? malloc((size_t)nd * sizeof(*all)) : NULL;

	*idle = 0;
	for (int k = 0; k < nd; k++) {
		if (v->disk_filter && !disk_filter_match(v->disk_filter, v->last.disks[k].name))
			continue;
		if (!disk_active(v, k))
			(*idle)++;
		else if (all)
			all[n++] = k;
		else if (n < max)
			idx[n++] = k;   /* no memory to sort: the kernel's order */
	}
	if (all) {
		qsort_r(all, (size_t)n, sizeof(*all), disk_order, (void *)v);
		memcpy(idx, all, (size_t)(n < max ? n : max) * sizeof(*idx));
		free(all);
	}
	return n;
}

/* Samples per graph sub-column: one sub-column per refresh, and only whole
 * braille cells (two sub-columns) are drawn, so a column of cells changes
 * every other frame however fast the sampling; a fast replay (-i 0.1)
 * would otherwise resend five.  This halves what the graphs cost on an
 * ssh link, for a graph at most two refreshes behind. */
double frame_sample_period(const struct frame *v, double interval)
{
	double per = v->hist ? history_period(v->hist) : -1;
	return per > 0 ? per : interval > 0 ? interval : 0.5;
}

double frame_refresh_step(const struct frame *v, double interval, double refresh, int dir)
{
	static const double steps[] = { 0.1, 0.25, 0.5, 1, 2, 5, 10 };
	int n = (int)(sizeof steps / sizeof steps[0]), i = 0;
	double per = frame_sample_period(v, interval);
	/* the fastest step that is not faster than the samples come; the
	 * period is measured from the samples' times, which a loaded machine
	 * makes a few % late (0.515 s at -i 0.5 made 1 s the fastest step) */
	int lo = 0;
	while (lo < n - 1 && steps[lo] < per / 1.1)
		lo++;
	while (i < n - 1 && steps[i] < refresh - 1e-9)
		i++;
	if (dir > 0 && i < n - 1 && steps[i] <= refresh + 1e-9)
		i++;
	else if (dir < 0 && i > 0)
		i--;
	if (i < lo)
		i = lo;
	/* a sampling slower than the slowest step: the screen follows it */
	return per > steps[n - 1] ? per : steps[i];
}

int frame_zoom(const struct frame *v, int G)
{
	const struct history *h = v->hist;
	int z = 1;

	if (!h || G <= 0 || !h->nclosed)
		return 1;
	while (z < FRAME_ZOOM_MAX && h->nclosed * (uint64_t)(2 * z) <= (uint64_t)G)
		z *= 2;
	return z;
}

/* The graph's G sub-columns: the window does not scroll by one per sample
 * but fills to the right and jumps back a quarter when full.  Each
 * sub-column aggregates k samples: rates by their mean, the dirty level
 * by its peak, thresholds as last seen, the zone at its worst.
 *
 * A graph shows whole cells only (two buckets each in braille), so it
 * changes every other frame.  `phase` (0 or 1) shifts which pair of
 * buckets makes a cell: the two graphs take turns, and a frame sends one
 * column of one graph in one colour rather than two columns whose
 * colours alternate on every row.
 *
 * The bucket of sub-column 0 (*z sub-columns a bucket) and the newest
 * bucket drawn, *B; false when there is none to draw. */
static bool frame_window(const struct frame *v, int G, int phase, uint64_t *b0, uint64_t *B, int *z)
{
	const struct history *h = v->hist;
	*z = frame_zoom(v, G);
	if (!h || G <= 0)
		return false;
	if (*z > 1) {
		/* a short history across the graph: whole buckets, each
		 * whole cells wide (z is even) */
		*b0 = 0;
		*B = h->nclosed - 1;
		return true;
	}
	/* Only whole buckets: a half-filled one would be sent again next
	 * frame.  B is the newest complete bucket. */
	uint64_t done = h->nclosed, GG = (uint64_t)G;
	uint64_t ph = phase ? 1 : 0;
	if (done < ph + 2)
		return false;
	done = ph + ((done - ph) & ~(uint64_t)1);   /* whole cells: pairs from ph */
	*B = done - 1;
	uint64_t step = (GG / 4) & ~(uint64_t)1;   /* even, so cells stay aligned */
	if (!step)
		step = 2;
	*b0 = ph + (*B - ph < GG ? 0 : ((*B - ph - GG) / step + 1) * step);
	return true;
}

void frame_buckets(const struct frame *v, int G, int phase, const int *idx, int ndisks,
		   struct frame_column *out, bool *have)
{
	const struct history *h = v->hist;
	uint64_t b0, B;
	int z;
	for (int i = 0; i < G; i++)
		have[i] = false;
	if (!frame_window(v, G, phase, &b0, &B, &z))
		return;
	int slot[FRAME_GRAPH_DISKS];
	if (ndisks > FRAME_GRAPH_DISKS)
		ndisks = FRAME_GRAPH_DISKS;
	for (int d = 0; d < ndisks; d++)
		slot[d] = frame_disk_slot(v, idx[d]);
	for (int i = 0; i < G && b0 + (uint64_t)(i / z) <= B; i++) {
		uint64_t bi = b0 + (uint64_t)(i / z);
		const struct hist_bucket *b = history_bucket(h, bi);
		if (!b)
			continue;
		if (i % z) {
			/* the rest of a zoomed bucket's sub-columns: the same */
			out[i].b = out[i - 1].b;
			for (int d = 0; d < ndisks; d++) {
				out[i].rd[d] = out[i - 1].rd[d];
				out[i].wr[d] = out[i - 1].wr[d];
			}
			have[i] = true;
			continue;
		}
		/* the rates in the order of the newest sample's disks */
		out[i].b = *b;
		for (int d = 0; d < ndisks; d++) {
			out[i].rd[d] = history_rate(h, bi, slot[d], false);
			out[i].wr[d] = history_rate(h, bi, slot[d], true);
		}
		have[i] = true;
	}
}

/* Seconds the window spans, for titles ("last 24 s"). */
double frame_window_span(const struct frame *v, int G)
{
	double per = v->hist ? history_period(v->hist) : -1;
	return per > 0 ? per * G * v->hist->k / frame_zoom(v, G) : 0;
}

int frame_time_ticks(const struct frame *v, int G, int phase, int sc, int gap, struct frame_tick *out, int max)
{
	static const double steps[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
					3600, 7200, 10800, 21600, 43200, 86400 };
	const struct history *h = v->hist;
	uint64_t b0, B;
	int z, n = 0;
	double per = h ? history_period(h) : -1;

	if (!h || per <= 0 || sc < 1 || !frame_window(v, G, phase, &b0, &B, &z))
		return 0;
	/* sub-column i starts at t0 + (b0 + i / z) buckets of bw seconds */
	double bw = per * h->k, sub = bw / z, t_left = h->t0 + (double)b0 * bw;
	double step = 0;
	for (size_t k = 0; k < sizeof steps / sizeof steps[0] && !step; k++)
		if (steps[k] / sub >= (double)gap * sc)
			step = steps[k];
	if (!step)
		return 0;
	for (double t = ceil(t_left / step - 1e-9) * step; n < max; t += step) {
		int col = (int)floor((t - t_left) / sub / sc + 1e-9);
		if (col * sc >= G)
			break;
		out[n].col = col;
		out[n++].t = t;
	}
	return n;
}

int frame_context_rows(const struct procio_view *c, const struct procio_row **rows, int max)
{
	int n = 0;
	for (int i = 0; i < c->nwriters && n < max; i++)
		rows[n++] = &c->writers[i];
	for (int i = 0; i < c->nreaders && n < max; i++) {
		bool dup = false;
		for (int k = 0; k < c->nwriters; k++)
			dup |= c->writers[k].pid == c->readers[i].pid;
		if (!dup)
			rows[n++] = &c->readers[i];
	}
	return n;
}

int frame_context_devs(const struct procio_view *c, bool partitions, int *idx, int max, int *idle)
{
	int n = 0;
	*idle = 0;
	for (int i = 0; i < c->ndevs; i++) {
		const struct procio_dev *d = &c->devs[i];
		if (d->is_partition && !partitions)
			continue;
		if (!d->have_rate || d->r_s + d->w_s <= 0 || n == max)
			(*idle)++;
		else
			idx[n++] = i;
	}
	return n;
}

void frame_curve_runs_text(const struct curve *c, char *buf, size_t n)
{
	int lo = 0, hi = 0, all = 0;
	for (size_t k = 0; k < c->n; k++) {
		int r = c->pts[k].n;
		lo = k == 0 || r < lo ? r : lo;
		hi = r > hi ? r : hi;
		all += r;
	}
	if (c->n <= 1)
		snprintf(buf, n, "%d run%s", all, all == 1 ? "" : "s");
	else if (lo == hi)
		snprintf(buf, n, "%d run%s per point, %d in all", lo, lo == 1 ? "" : "s", all);
	else
		snprintf(buf, n, "%d-%d runs per point, %d in all", lo, hi, all);
}

bool frame_last_run_stopped(const struct frame *v)
{
	for (int i = v->nev; i-- > 0;)
		if (v->ev[i].kind == MEV_RUN_END)
			return model_run_end_stopped(v->ev[i].text);
	return false;
}
