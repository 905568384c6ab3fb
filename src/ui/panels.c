/* The live screen's panels: one draw function each, and ui_panels[], the
 * table that says how the layout places them (src/ui/layout.h).
 * A panel draws the frame (struct frame, copied from the model) into its
 * window; it never reads the model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ui_live.h"

/* Put right-aligned parts from the right edge; returns the x where they start. */
static int put_right(WINDOW *w, int y, int right, const struct ui_style *st, enum theme_elem e,
		     const char *s)
{
	int len = (int)strlen(s);
	int x = right - len;
	if (x < 0)
		x = 0;
	ui_put(w, y, x, right - x, st, e, s);
	return x;
}

/* The kernel counts pages; the screen says kB. */
static double ui_page_kb(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (double)p / 1024 : 4;
}

/* The header's progress bar: PROGRESS_CELLS cells on row 1 from *cx,
 * fill of them done, when it fits before rx; *cx moves past it. */
#define PROGRESS_CELLS 12
static void draw_progress_bar(WINDOW *w, int *cx, int rx, int fill, const struct ui_style *st)
{
	bool utf = st->glyphs != UI_GLYPH_ASCII;

	if (*cx + PROGRESS_CELLS + 2 >= rx)
		return;
	fill = fill < 0 ? 0 : fill > PROGRESS_CELLS ? PROGRESS_CELLS : fill;
	ui_fill(w, 1, *cx, fill, st, TE_PROGRESS, utf ? "\u2588" : "#");
	ui_fill(w, 1, *cx + fill, PROGRESS_CELLS - fill, st, TE_PROGRESS_EMPTY, utf ? "\u2591" : ".");
	*cx += PROGRESS_CELLS + 1;
}

/* A header of one row: the badge and hits first, host in what is left. */
static void header_draw_one_row(struct ui_live *L, WINDOW *w, int W)
{
	const struct ui_style *st = &L->scr.st;
	const struct frame *v = &L->v;
	enum theme_elem be;
	char buf[64];

	frame_zone_badge(v->badge_zone, &be);
	int x = put_right(w, 0, W, st, be, frame_zone_badge_short(v->badge_zone));
	if (v->have_last && v->last.hits) {
		snprintf(buf, sizeof buf, "hits %u ", v->last.hits);
		x = put_right(w, 0, x, st, TE_HIT, buf);
	}
	ui_put(w, 0, 0, x - 1, st, TE_HEADER, L->paused ? "PAUSED" : v->host);
}

/* Row 0: where and what; elapsed and the zone badge on the right. */
static void header_draw_where(struct ui_live *L, WINDOW *w, int W)
{
	const struct ui_style *st = &L->scr.st;
	const struct frame *v = &L->v;
	enum theme_elem be;
	const char *badge = frame_zone_badge(v->badge_zone, &be);
	char buf[512], el[32];

	int x = put_right(w, 0, W, st, be, badge);
	ui_fmt_dur(v->have_last ? v->last.t : 0, el, sizeof el);
	snprintf(buf, sizeof buf, "%s%s ", L->paused ? "PAUSED  " : "", el);
	x = put_right(w, 0, x - 1, st, L->paused ? TE_ERROR : TE_HEADER, buf);
	int lx = ui_put(w, 0, 0, x, st, TE_HEADER_KEY, "iodash ");
	lx += ui_put(w, 0, lx, x - lx, st, TE_HEADER, v->host);
	snprintf(buf, sizeof buf, "  %s  %s", v->kernel, v->source);
	ui_put(w, 0, lx, x - lx - 1, st, TE_DIM, buf);
}

/* Row 1's right side, right to left from W: the figures that fit right
 * of lx, the most useful first (a narrow header keeps the dirty-limit
 * hits and drops the forecast: "freerun in 40.2 s" took their place at
 * 40 columns).  Returns the x left of the last one. */
enum { HF_PAUSES, HF_TASKS, HF_FREERUN, HF_HITS, HF_RUN_HITS, HF_MISSED, HF_N };
static int header_draw_hits(const struct frame *v, WINDOW *w, int W, int lx, const struct ui_style *st)
{
	/* right to left on the screen; keep: 0 is kept first */
	static const int keep[HF_N] = { [HF_HITS] = 0, [HF_MISSED] = 1, [HF_PAUSES] = 2, [HF_TASKS] = 3,
					[HF_RUN_HITS] = 4, [HF_FREERUN] = 5 };
	char buf[HF_N][96];
	enum theme_elem el[HF_N];
	int len[HF_N], shown[HF_N], rx = W;
	double pps, mps;

	for (int i = 0; i < HF_N; i++)
		buf[i][0] = '\0';
	if (frame_pause_rates(v, &pps, &mps)) {
		snprintf(buf[HF_PAUSES], sizeof buf[0], " pauses %.0f/s %.0f ms/s", pps, mps);
		el[HF_PAUSES] = pps > 0 ? TE_HIT : TE_DIM;
	}
	if (v->bench.throttled_tasks > 0) {
		snprintf(buf[HF_TASKS], sizeof buf[0], " throttled tasks %d", v->bench.throttled_tasks);
		el[HF_TASKS] = TE_HIT;
	}
	double ttf = frame_time_to_freerun(v);
	if (ttf >= 0) {
		snprintf(buf[HF_FREERUN], sizeof buf[0], " freerun in %.1f s", ttf);
		el[HF_FREERUN] = TE_TEXT;
	}
	if (v->have_last) {
		snprintf(buf[HF_HITS], sizeof buf[0], " dirty-limit hits %u (%.1f s)", v->last.hits,
			 v->last.hit_seconds);
		el[HF_HITS] = v->last.hits ? TE_HIT : TE_DIM;
	}
	if (v->have_last && v->last.hits && v->bench.have_run_hits) {
		/* the run's own (its episodes end at its start and end); with
		 * none in the session both are 0, and the room is the status's */
		snprintf(buf[HF_RUN_HITS], sizeof buf[0], " hits this run %u, session:", v->bench.run_hits);
		el[HF_RUN_HITS] = v->bench.run_hits ? TE_HIT : TE_DIM;
	}
	if (v->have_last && v->last.missed) {
		/* samples the machine was too busy to take: the graphs have gaps */
		snprintf(buf[HF_MISSED], sizeof buf[0], " missed ticks %llu", (unsigned long long)v->last.missed);
		el[HF_MISSED] = TE_ERROR;
	}
	/* the most useful that fit, by keep (layout_table_columns counts a
	 * blank between two: each figure's own leading one, left out of its width) */
	int k[HF_N], idx[HF_N], n = 0;
	for (int i = 0; i < HF_N; i++)
		if (buf[i][0]) {
			len[n] = (int)strlen(buf[i]) - 1;
			k[n] = keep[i];
			idx[n++] = i;
		}
	int ns = layout_table_columns(len, k, n, W - lx - 1, shown);
	for (int s = 0; s < ns; s++)
		rx = put_right(w, 1, rx, st, el[idx[shown[s]]], buf[idx[shown[s]]]);
	return rx;
}

/* How the benchmark ended: row 1's left side once it has. */
static void header_end_text(const struct frame *v, char *buf, size_t len)
{
	const struct bench_status *b = &v->bench;

	if (b->attached)
		/* not our child: nobody but its parent can know its status */
		snprintf(buf, len, "pid %d %s - q to quit", (int)b->pid,
			 b->left_running ? "left running (attach only watches)"
					 : "exited, exit status unknown (not a child of iodash)");
	else if (frame_last_run_stopped(v))
		snprintf(buf, len, "stopped on request - q to quit");
	else if (b->last_signal)
		snprintf(buf, len, "finished, killed by signal %d - q to quit", b->last_signal);
	else if (b->last_exit_status < 0 && !v->exit_code)
		snprintf(buf, len, "finished, exit status unknown - q to quit");
	else
		snprintf(buf, len, "finished, exit status %d - q to quit",
			 b->last_exit_status >= 0 ? b->last_exit_status : v->exit_code);
}

/* A sweep's run count, or one timed run's share, with its progress bar
 * and ETA from row 1's left edge; returns the x after them. */
static int header_draw_progress(const struct frame *v, WINDOW *w, int rx, const struct ui_style *st)
{
	const struct bench_status *b = &v->bench;
	char buf[512], el[32];
	int cx = 0;

	if (b->run_total > 0) {
		snprintf(buf, sizeof buf, "run %d/%d ", b->run_index, b->run_total);
		cx += ui_put(w, 1, cx, rx - cx, st, TE_HEADER, buf);
		int fill = b->run_total ? (PROGRESS_CELLS * (b->run_index - (frame_bench_active(v) ? 1 : 0)) +
					   PROGRESS_CELLS / 2 * frame_bench_active(v)) / b->run_total : 0;
		draw_progress_bar(w, &cx, rx, fill, st);
		if (b->eta_s >= 0) {
			ui_fmt_dur(b->eta_s, el, sizeof el);
			snprintf(buf, sizeof buf, "ETA %s ", el);
			cx += ui_put(w, 1, cx, rx - cx, st, TE_DIM, buf);
		}
	} else if (b->run_length_s > 0 && frame_bench_active(v) && v->have_last) {
		/* one run whose command line says how long it takes */
		double done = frame_run_done(v);
		draw_progress_bar(w, &cx, rx, (int)(PROGRESS_CELLS * done + 0.5), st);
		if (b->eta_s >= 0) {
			ui_fmt_dur(b->eta_s, el, sizeof el);
			snprintf(buf, sizeof buf, "%.0f%% ETA %s%s ", 100 * done,
				 b->run_length_at_most ? "at most " : "", el);
			cx += ui_put(w, 1, cx, rx - cx, st, TE_DIM, buf);
		}
	}
	return cx;
}

/* What the benchmark is doing now, in row 1 between cx and rx. */
static void header_draw_state(const struct frame *v, WINDOW *w, int cx, int rx, const struct ui_style *st)
{
	const struct bench_status *b = &v->bench;
	char buf[512], el[32];

	switch (b->state) {
	case BENCH_NONE:
		if (v->sampler_done)
			snprintf(buf, sizeof buf, "%s ended - q to quit", v->replay ? "replay" : "sampling");
		else if (v->remote_bench[0])   /* --host: the one an iodash runs there */
			snprintf(buf, sizeof buf, "%s", v->remote_bench);
		else
			snprintf(buf, sizeof buf, "no benchmark attached");
		ui_put(w, 1, cx, rx - cx, st, TE_DIM, buf);
		return;
	case BENCH_STARTING: snprintf(buf, sizeof buf, "starting %s", b->command); break;
	case BENCH_BETWEEN: snprintf(buf, sizeof buf, "between runs"); break;
	case BENCH_DONE:
		snprintf(buf, sizeof buf, "%s: %s", frame_last_run_stopped(v) ? "stopped on request" : "done",
			 b->command);
		break;
	default:
		ui_fmt_dur(v->have_last ? v->last.t - b->run_start_t : 0, el, sizeof el);
		snprintf(buf, sizeof buf, "%s%s%s (pid %d, %s)", b->label[0] ? b->label : "",
			 b->label[0] ? ": " : "", b->command, (int)b->pid, el);
	}
	ui_put(w, 1, cx, rx - cx - 1, st, TE_HEADER, buf);
}

static void draw_header(struct ui_live *L, struct ui_win *win, bool focus)
{
	WINDOW *w = (WINDOW *)win;
	const struct ui_style *st = &L->scr.st;
	const struct frame *v = &L->v;
	int W = getmaxx(w), H = getmaxy(w);

	if (H < 2) {
		header_draw_one_row(L, w, W);
		return;
	}
	header_draw_where(L, w, W);
	/* left: the benchmark, a sweep's progress, or the end; the end line
	 * and the question keep their room (the figures right of them yield:
	 * a "freerun in" forecast once cut the status off) */
	const char *ask = "stop the benchmark? y/n";
	char end[512] = "";
	if (!L->asking_stop && L->v.had_bench && v->bench_done)
		header_end_text(v, end, sizeof end);
	const char *left = L->asking_stop ? ask : end;
	int rx = header_draw_hits(v, w, W, left[0] ? (int)strlen(left) + 1 : 0, st);
	if (left[0]) {
		ui_put(w, 1, 0, rx, st, L->asking_stop ? TE_ERROR : TE_TITLE_FOCUS, left);
		return;
	}
	header_draw_state(v, w, header_draw_progress(v, w, rx, st), rx, st);
}

/* A graph's time axis on row y from column 0, gw cells of G
 * sub-columns: the session times of round steps where they fall. */
static void draw_time_axis(const struct frame *v, WINDOW *w, int y, int gw, int G, int phase,
			   const struct ui_style *st)
{
	struct frame_tick tk[64];
	int n = frame_time_ticks(v, G, phase, G / (gw > 0 ? gw : 1), 10, tk, 64), free_from = 0;
	bool tenths = n > 1 && tk[1].t - tk[0].t < 0.999;

	for (int i = 0; i < n; i++) {
		char t[24];
		if (tenths)
			snprintf(t, sizeof t, "%.1fs", tk[i].t);
		else
			ui_fmt_dur(tk[i].t, t, sizeof t);
		int len = (int)strlen(t);
		if (tk[i].col < free_from || tk[i].col + len > gw)
			continue;
		ui_put(w, y, tk[i].col, len, st, TE_AXIS, t);
		free_from = tk[i].col + len + 1;
	}
}

static void draw_throughput(struct ui_live *L, struct ui_win *win, bool focus)
{
	WINDOW *w = (WINDOW *)win;
	const struct ui_style *st = &L->scr.st;
	const struct frame *v = &L->v;
	int W = getmaxx(w), H = getmaxy(w);
	int idx[FRAME_DISKS], idle;
	int nact = frame_active_disks(v, idx, FRAME_DISKS, &idle);
	int sc = ui_glyph_subcols(st->glyphs);
	int gw = W, G = gw * sc;
	char title[256], buf[128];
	bool utf = st->glyphs != UI_GLYPH_ASCII;
	int tl = snprintf(title, sizeof title, "Throughput  write %s read %s  last %.0f s",
			  utf ? "\u25b2" : "^", utf ? "\u25bc" : "v", frame_window_span(&L->v, G));
	if (v->bench.progress.valid && v->bench.progress.throughput >= 0) {
		ui_fmt_value(v->bench.progress.throughput, v->bench.progress.unit, buf, sizeof buf);
		snprintf(title + tl, sizeof title - (size_t)tl, "  bench %s", buf);
	}
	ui_title(w, st, title, focus);
	int body = H - 1;
	/* the time axis under the graphs, where they keep two rows */
	bool axis = body >= 4;
	body -= axis;
	if (!v->have_last || !v->last.ndisks) {
		ui_put(w, 1, 0, W, st, TE_DIM, v->have_last ? "no disks in /proc/diskstats" : "waiting for the first sample");
		return;
	}
	if (!nact) {
		idx[0] = 0;
		nact = 1;
	}
	int fit = body / 3;
	if (fit < 1)
		fit = 1;
	int shown = nact < fit ? nact : fit;
	if (shown > FRAME_GRAPH_DISKS)
		shown = FRAME_GRAPH_DISKS;
	int per = body / shown;
	/* not calloc (4 % of a frame): frame_buckets sets every have[],
	 * a column is read only where it has a bucket, and vw, vr are
	 * filled whole for each disk */
	double *vw = malloc(((size_t)G + 1) * sizeof *vw), *vr = malloc(((size_t)G + 1) * sizeof *vr);
	struct frame_column *bk = malloc(((size_t)G + 1) * sizeof *bk);
	bool *have = malloc(((size_t)G + 1) * sizeof *have);
	if (!vw || !vr || !bk || !have) {
		free(vw);
		free(vr);
		free(bk);
		free(have);
		return;
	}
	/* the rates of the disks shown (the busiest), not of every disk */
	frame_buckets(&L->v, G, 0, idx, shown, bk, have);
	int y = 1;
	for (int i = 0; i < shown; i++) {
		int k = idx[i];
		int rows = i == shown - 1 ? body - per * i : per;
		double mx = 0;
		for (int c = 0; c < G; c++) {
			vw[c] = have[c] ? bk[c].wr[i] : NAN;
			vr[c] = have[c] ? bk[c].rd[i] : NAN;
			if (vw[c] > mx)
				mx = vw[c];
			if (vr[c] > mx)
				mx = vr[c];
		}
		/* never below 1 MiB/s, so idle noise does not fill the graph */
		double vmax = ui_nice_ceil_kb(mx < 1024 ? 1024 : mx);
		const struct disk_rate *d = &v->last.disks[k];
		char wr[24], rd[24], sc_s[24];
		ui_fmt_rate_kb(d->have_rate ? d->wkB_s : NAN, wr, sizeof wr);
		ui_fmt_rate_kb(d->have_rate ? d->rkB_s : NAN, rd, sizeof rd);
		ui_fmt_rate_kb(vmax, sc_s, sizeof sc_s);
		int x = ui_put(w, y, 0, W, st, TE_HEADER, d->name);
		snprintf(buf, sizeof buf, "  write ");
		x += ui_put(w, y, x, W - x, st, TE_DIM, buf);
		x += ui_put(w, y, x, W - x, st, TE_WRITE, wr);
		x += ui_put(w, y, x, W - x, st, TE_DIM, "  read ");
		x += ui_put(w, y, x, W - x, st, TE_READ, rd);
		snprintf(buf, sizeof buf, "%s%s", i == 0 && idle ? "" : "", sc_s);
		if (x + (int)strlen(buf) + 2 < W)
			put_right(w, y, W, st, TE_AXIS, buf);
		if (rows - 1 >= 1) {
			struct ui_graph_data gd = { .y = y + 1, .x = 0, .w = gw, .h = rows - 1,
						    .v = vw, .v_down = rows - 1 >= 2 ? vr : NULL,
						    .vmax = vmax, .elem = TE_WRITE, .elem_down = TE_READ,
						    .n = (size_t)G };
			ui_graph_widget.draw(w, &gd, st);
		}
		y += rows;
	}
	if (axis)
		draw_time_axis(v, w, H - 1, gw, G, 0, st);
	if (nact > shown) {
		snprintf(buf, sizeof buf, " +%d more ", nact - shown);
		put_right(w, 0, W, st, TE_DIM, buf);
	}
	free(vw);
	free(vr);
	free(bk);
	free(have);
}

/* Rows the throttle part of the dirty panel wants (0 when none). */
static int throttle_rows(const struct frame *v, int W)
{
	if (v->thr.src == THR_SRC_SAMPLED)
		return 1;
	if (v->thr.src != THR_SRC_KERNEL || W < 60)
		return 0;
	/* a steady height: the graph above must not jump from frame to frame */
	return 4;   /* control loop, table head, two writers */
}

/* Who is throttled now (the kernel's balance_dirty_pages of the last
 * sample, per writer) and the busiest bdi's control loop
 * (bdi_dirty_ratelimit); or, without tracefs, that throttling is sampled. */
static void draw_throttle_rows(const struct frame *v, WINDOW *w, int y, int W, int rows,
			       const struct ui_style *st)
{
	char buf[256], a[16], b[16], c[16], d[16];
	const struct model_throttle *t = &v->thr;
	const struct kt_window *k = &t->last;
	double dt = t->last_dt > 0 ? t->last_dt : 0;
	double pk = ui_page_kb();

	if (t->src == THR_SRC_SAMPLED) {
		snprintf(buf, sizeof buf, "throttling is sampled (%s): it can miss short pauses", t->why_sampled);
		ui_put(w, y, 0, W, st, TE_DIM, buf);
		return;
	}
	if (rows > 0 && !k->loop.have) {
		/* a recording keeps who paused, not the control loop */
		ui_put(w, y++, 0, W, st, TE_DIM, !v->replay ? "control loop: no bdi_dirty_ratelimit yet"
						 : t->note[0] ? t->note : "control loop: not recorded");
		rows--;
		if (v->replay && t->note[0])
			return;      /* nor its writers */
	} else if (rows > 0) {
		ui_fmt_rate_kb((double)k->loop.write_bw, a, sizeof a);
		ui_fmt_rate_kb((double)k->loop.dirty_ratelimit, b, sizeof b);
		ui_fmt_rate_kb((double)k->loop.task_ratelimit, c, sizeof c);
		int n = snprintf(buf, sizeof buf, "bdi %s write_bw %s ratelimit %s task %s",
				 k->loop.bdi, a, b, c);
		if (k->loop.setpoint && n > 0 && (size_t)n < sizeof buf) {
			ui_fmt_kb((double)k->loop.setpoint * pk, a, sizeof a);
			ui_fmt_kb((double)k->loop.dirty * pk, d, sizeof d);
			snprintf(buf + n, sizeof buf - (size_t)n, " setpoint %s dirty %s", a, d);
		}
		ui_put(w, y++, 0, W, st, TE_TEXT, buf);
		rows--;
	}
	if (rows < 2)
		return;
	if (!k->nwriters) {
		ui_put(w, y, 0, W, st, TE_DIM, "no writer in balance_dirty_pages in the last sample");
		return;
	}
	/* 60 columns: the panel's width on an 120-column terminal */
	snprintf(buf, sizeof buf, "%-9s %6s %-6s %-6s %5s %5s %8s %8s", "writer", "pid", "bdi",
		 "cgroup", "pau/s", "ms/s", "dirtied", "task_rl");
	ui_put(w, y++, 0, W, st, TE_DIM, buf);
	rows--;
	for (int i = 0; i < k->nwriters && rows > 0; i++, rows--) {
		const struct kt_writer_rate *r = &k->writers[i];
		ui_fmt_rate_kb(dt > 0 ? (double)r->dirtied_pages * pk / dt : 0, a, sizeof a);
		ui_fmt_rate_kb((double)r->task_ratelimit, b, sizeof b);
		snprintf(buf, sizeof buf, "%-9.9s %6d %-6.6s %-6.6s %5.0f %5.0f %8s %8s", r->comm,
			 (int)r->pid, r->bdi, r->cgroup, dt > 0 ? r->pauses / dt : 0,
			 dt > 0 ? r->paused_ms / dt : 0, a, b);
		ui_put(w, y++, 0, W, st, r->pauses ? TE_HIT : TE_TEXT, buf);
	}
}

/* The dirty panel's title: as much of the sum as the width holds. */
static void dirty_draw_title(WINDOW *w, const struct ui_style *st, const struct frame *v, int W, bool focus)
{
	const struct sample *s = &v->last;
	char title[256], a[16], b[16], c[16], t[16];

	ui_fmt_kb((double)s->dirty_kb, a, sizeof a);
	ui_fmt_kb((double)s->writeback_kb, b, sizeof b);
	ui_fmt_kb((double)(s->dirty_kb + s->writeback_kb), c, sizeof c);
	ui_fmt_kb((double)s->thresh_kb, t, sizeof t);
	double ttf = frame_time_to_freerun(v);
	if (W >= 80 && ttf >= 0)
		snprintf(title, sizeof title, "Dirty memory  dirty %s + writeback %s = %s of %s  freerun in %.1f s",
			 a, b, c, t, ttf);
	else if (W >= 60)
		snprintf(title, sizeof title, "Dirty memory  dirty %s + writeback %s = %s of %s", a, b, c, t);
	else if (W >= 30)
		snprintf(title, sizeof title, "Dirty %s+%s of %s", a, b, t);
	else
		snprintf(title, sizeof title, "Dirty %s/%s", c, t);
	ui_title(w, st, title, focus);
}

/* One scale for the bar and the history, so they read alike: the
 * current hard threshold or the highest level in view.  Older,
 * higher thresholds (knobs changed) fall off the top rather than
 * squash today's lines into the bottom row. */
static double dirty_scale(const struct sample *s, const struct frame_column *bk, const bool *have, int G)
{
	double top = (double)(s->thresh_kb > s->dirty_kb + s->writeback_kb
			      ? s->thresh_kb : s->dirty_kb + s->writeback_kb);
	for (int i = 0; i < G; i++)
		if (have[i] && bk[i].b.have_dirty)
			top = fmax(top, bk[i].b.level_kb);
	return top * 1.05;
}

/* The history's level, its three threshold lines (lv, bg, fr, th: G
 * columns each) and where writers were throttled; true when any was. */
static bool dirty_fill_lines(const struct sample *s, const struct frame_column *bk, const bool *have, int G,
			     double *lv, bool *sh)
{
	double *bg = lv + G, *fr = lv + 2 * G, *th = lv + 3 * G;
	bool any_shade = false;

	for (int i = 0; i < G; i++) {
		const struct hist_bucket *p = &bk[i].b;
		bool ok = have[i] && p->have_dirty;
		lv[i] = ok ? p->level_kb : NAN;
		bg[i] = ok ? p->bg_kb : NAN;
		fr[i] = ok ? p->freerun_kb : NAN;
		th[i] = ok ? p->thresh_kb : NAN;
		/* shaded where writers were throttled: the kernel's pauses when
		 * followed, else the sampled zone */
		sh[i] = ok && (p->kernel ? p->throttled : p->zone >= ZONE_THROTTLE);
		any_shade |= sh[i];
	}
	/* Right of the newest data the lines go on at today's thresholds, so
	 * they read as lines from the first second (drawn once: the empty
	 * part of the graph does not change from frame to frame). */
	int newest = G - 1;
	while (newest >= 0 && lv[newest] != lv[newest])
		newest--;
	for (int i = newest + 1; i < G; i++) {
		bg[i] = (double)s->bg_thresh_kb;
		fr[i] = (double)s->freerun_kb;
		th[i] = (double)s->thresh_kb;
	}
	return any_shade;
}

/* Line names at the latest rows of their lines, right of the graph,
 * never on top of one another: a later one moves to the next free row. */
static void dirty_draw_labels(WINDOW *w, const struct ui_style *st, const struct sample *s, double scale, int gh,
			      int gw, int lab_w, bool any_shade)
{
	struct { double kb; const char *n; enum theme_elem e; } lab[3] = {
		{ (double)s->thresh_kb, "thresh", TE_LINE_THRESH },
		{ (double)s->freerun_kb, "freerun", TE_LINE_FREERUN },
		{ (double)s->bg_thresh_kb, "bg", TE_LINE_BG },
	};
	int used = -1;

	for (int i = 0; i < 3; i++) {
		int r = ui_graph_row_of(lab[i].kb, scale, gh);
		if (r < 0)
			continue;
		if (r <= used)
			r = used + 1;
		if (r >= gh)
			break;
		ui_put(w, 3 + r, gw + 1, lab_w - 1, st, lab[i].e, lab[i].n);
		used = r;
	}
	if (any_shade && gh >= 5)
		ui_put(w, 3 + gh - 1, gw + 1, lab_w - 1, st, TE_SHADE,
		       st->glyphs == UI_GLYPH_ASCII ? ":throttle" : "\u2591throttle");
}

/* The dirty history from row 3: gh rows, gw columns of G buckets. */
static void dirty_draw_history(WINDOW *w, const struct ui_style *st, const struct sample *s,
			       const struct frame_column *bk, const bool *have, int G, int gw, int gh, int lab_w,
			       double scale)
{
	double *lv = malloc(((size_t)G + 1) * 4 * sizeof *lv);     /* every i < G set below */
	bool *sh = malloc(((size_t)G + 1) * sizeof *sh);

	if (!lv || !sh) {
		free(lv);
		free(sh);
		return;
	}
	bool any_shade = dirty_fill_lines(s, bk, have, G, lv, sh);
	double *bg = lv + G, *fr = lv + 2 * G, *th = lv + 3 * G;
	/* Three lines in fewer than three rows share a row: their dots stack
	 * into a solid band that reads as a full history.  Then the level
	 * alone, a sparkline under the gauge. */
	bool lines = gh >= 3;
	struct ui_graph_data gd = { .y = 3, .x = 0, .w = gw, .h = gh, .v = lv, .vmax = scale,
				    .elem = TE_DIRTY,
				    .hline = { lines ? bg : NULL, lines ? fr : NULL, lines ? th : NULL },
				    .hline_elem = { TE_LINE_BG, TE_LINE_FREERUN, TE_LINE_THRESH },
				    .shade = sh, .n = (size_t)G };
	ui_graph_widget.draw(w, &gd, st);
	if (lab_w)
		dirty_draw_labels(w, st, s, scale, gh, gw, lab_w, any_shade);
	free(lv);
	free(sh);
}

static void draw_dirty(struct ui_live *L, struct ui_win *win, bool focus)
{
	WINDOW *w = (WINDOW *)win;
	const struct ui_style *st = &L->scr.st;
	const struct frame *v = &L->v;
	int W = getmaxx(w), H = getmaxy(w);
	const struct sample *s = &v->last;

	if (!v->have_last || !s->have_dirty) {
		ui_title(w, st, "Dirty memory", focus);
		ui_put(w, 1, 0, W, st, TE_DIM, v->have_last ? "dirty levels n/a (/proc/vmstat not read)"
							    : "waiting for the first sample");
		return;
	}
	dirty_draw_title(w, st, v, W, focus);
	/* the labels' column: a blank and "░throttle", the longest */
	int lab_w = W >= 40 ? 10 : 0, gw = W - lab_w;
	int sc = ui_glyph_subcols(st->glyphs), G = gw * sc;
	struct frame_column *bk = malloc(((size_t)G + 1) * sizeof *bk);
	bool *have = malloc(((size_t)G + 1) * sizeof *have);
	if (!bk || !have) {
		free(bk);
		free(have);
		return;
	}
	frame_buckets(&L->v, G, 1, NULL, 0, bk, have);     /* levels only: no disk's rates */
	double scale = dirty_scale(s, bk, have, G);
	if (H >= 2) {
		struct ui_gauge_data gd = { .y = 1, .x = 0, .w = W, .h = H >= 3 ? 2 : 1,
					    .v = { (double)s->dirty_kb, (double)s->writeback_kb,
						   (double)s->bg_thresh_kb, (double)s->freerun_kb,
						   (double)s->thresh_kb, scale } };
		ui_gauge_widget.draw(w, &gd, st);
	}
	int gh = H - 3;
	int trows = throttle_rows(v, W);
	if (gh - trows >= 4) {
		gh -= trows;
		draw_throttle_rows(v, w, 3 + gh, W, trows, st);
	}
	/* the time axis under the history, where it keeps three rows */
	if (gh >= 4) {
		gh--;
		draw_time_axis(v, w, 3 + gh, gw, G, 1, st);
	}
	if (gh >= 1)
		dirty_draw_history(w, st, s, bk, have, G, gw, gh, lab_w, scale);
	free(bk);
	free(have);
}

/* The disk table's figures, left to right: iostat -x's usual eight, then
 * the rest of its figures as far as the pane is wide.  keep: what a
 * narrow pane keeps first (0 most useful): the write side of a write
 * benchmark, how busy the disk is and how long writes wait, before the
 * read side and the rarer figures. */
static const struct { enum disk_figure f; int width, keep; } disk_table_cols[] = {
	{ DF_R_S, 9, 6 }, { DF_W_S, 9, 4 }, { DF_RKB_S, 11, 5 }, { DF_WKB_S, 11, 1 },
	{ DF_R_AWAIT, 8, 7 }, { DF_W_AWAIT, 8, 3 }, { DF_AQU_SZ, 7, 8 }, { DF_UTIL, 6, 2 },
	{ DF_RAREQ_SZ, 8, 10 }, { DF_WAREQ_SZ, 8, 9 }, { DF_RRQM_S, 8, 11 }, { DF_WRQM_S, 8, 12 },
	{ DF_RRQM_PCT, 6, 13 }, { DF_WRQM_PCT, 6, 14 }, { DF_F_S, 7, 15 }, { DF_F_AWAIT, 7, 16 },
	{ DF_D_S, 7, 17 }, { DF_DKB_S, 9, 18 }, { DF_D_AWAIT, 7, 19 }, { DF_DAREQ_SZ, 8, 20 },
	{ DF_DRQM_S, 7, 21 }, { DF_DRQM_PCT, 6, 22 },
};
#define DISK_TABLE_NCOLS (1 + (int)(sizeof disk_table_cols / sizeof disk_table_cols[0]))

struct disk_tab {
	const struct frame *v;
	const int *idx;
	char buf[40];
};

static const char *disk_cell(const void *ctx, int row, int col, enum theme_elem *e)
{
	struct disk_tab *t = (struct disk_tab *)ctx;
	const struct disk_rate *d = &t->v->last.disks[t->idx[row]];
	if (col == 0) {
		if (!d->is_partition)
			return d->name;
		snprintf(t->buf, sizeof t->buf, " %s", d->name);   /* under its disk */
		return t->buf;
	}
	enum disk_figure f = disk_table_cols[col - 1].f;
	double v = disk_rate_figure(d, f);
	if (isnan(v))
		return "n/a";
	snprintf(t->buf, sizeof t->buf, "%.2f", v);
	if (f == DF_UTIL && v >= 80)
		*e = TE_TABLE_HOT;
	return t->buf;
}

static void draw_disks(struct ui_live *L, struct ui_win *win, bool focus)
{
	WINDOW *w = (WINDOW *)win;
	const struct ui_style *st = &L->scr.st;
	const struct frame *v = &L->v;
	int idx[FRAME_DISKS], idle;
	int n = frame_active_disks(v, idx, FRAME_DISKS, &idle);
	int fit = getmaxy(w) - 2;   /* the title and the table's head */
	char title[200];
	int tl = snprintf(title, sizeof title, "Disks  iostat -x  %s", frame_disk_sort_name(v->disk_sort));
	if (n > fit && fit > 0)
		tl += snprintf(title + tl, sizeof title - (size_t)tl, "  %d of %d busy", fit, n);
	if (idle)
		tl += snprintf(title + tl, sizeof title - (size_t)tl, "  (%d idle not shown)", idle);
	if (v->disk_filter && !disk_filter_empty(v->disk_filter))
		snprintf(title + tl, sizeof title - (size_t)tl, "  [%s]", v->disk_filter->text);
	ui_title(w, st, title, focus);
	if (n > FRAME_DISKS)
		n = FRAME_DISKS;
	if (!n) {
		ui_put(w, 1, 0, getmaxx(w), st, TE_DIM,
		       !v->have_last ? "waiting for the first sample"
		       : idle ? "all disks idle" : !v->last.ndisks ? "no disks in /proc/diskstats"
		       : "no disk matches the filter (f to change it)");
		return;
	}
	const char *head[DISK_TABLE_NCOLS];
	int width[DISK_TABLE_NCOLS], keep[DISK_TABLE_NCOLS];
	head[0] = "Device";
	width[0] = 10;
	keep[0] = 0;
	for (int c = 1; c < DISK_TABLE_NCOLS; c++) {
		head[c] = disk_figure_label(disk_table_cols[c - 1].f);
		width[c] = disk_table_cols[c - 1].width;
		keep[c] = disk_table_cols[c - 1].keep;
	}
	struct disk_tab t = { .v = v, .idx = idx };
	struct ui_table_data td = { .y = 1, .x = 0, .w = getmaxx(w), .h = getmaxy(w) - 1,
				    .ncols = DISK_TABLE_NCOLS, .nrows = n, .head = head, .width = width, .keep = keep,
				    .cell = disk_cell, .ctx = &t };
	ui_table_widget.draw(w, &td, st);
}

static void draw_output(struct ui_live *L, struct ui_win *win, bool focus)
{
	WINDOW *w = (WINDOW *)win;
	const struct ui_style *st = &L->scr.st;
	const struct frame *v = &L->v;
	char title[MODEL_LINE_LEN + 64];
	if (v->bench.command[0])
		snprintf(title, sizeof title, "Benchmark output  %s", v->bench.command);
	else
		snprintf(title, sizeof title, "Benchmark output");
	if (L->out_back)
		snprintf(title + strlen(title), sizeof title - strlen(title), "  (back %d)", L->out_back);
	ui_title(w, st, title, focus);
	const char *lines[FRAME_OUT_LINES];
	int n = v->nout - L->out_back;
	if (n < 0)
		n = 0;
	for (int i = 0; i < n; i++)
		lines[i] = v->out[i];
	struct ui_text_data td = {
		.y = 1, .x = 0, .w = getmaxx(w), .h = getmaxy(w) - 1, .text = lines, .ntext = n,
		.elem = TE_OUTPUT,
		.follow = L->out_back == 0,
		.abs0 = v->noutput - (uint64_t)v->nout,
		.empty = v->bench.state == BENCH_NONE && v->remote_bench[0]
			 ? "its output stays on that host: the header says what runs there"
			 : v->bench.state == BENCH_NONE && !L->v.had_bench
			 ? "no benchmark attached. Start one with iodash run -- CMD, or watch one with iodash attach PID"
			 : "no output yet",
	};
	ui_text_widget.draw(w, &td, st);
}

/* Bytes of s that make its first n characters (UTF-8; an event's text is
 * narrow characters: one column each). */
static size_t utf8_prefix(const char *s, int n)
{
	size_t b = 0;
	for (int c = 0; s[b] && c < n; c++)
		do
			b++;
		while (((unsigned char)s[b] & 0xc0) == 0x80);
	return b;
}

/* The next row of s wrapped at w columns: the bytes it shows (*skip: and
 * the space after them, where it broke between words). */
static size_t wrap_next(const char *s, int w, size_t *skip)
{
	size_t b = utf8_prefix(s, w);
	*skip = 0;
	if (!s[b])
		return b;
	for (size_t k = b; k > 0; k--)
		if (s[k] == ' ') {
			*skip = 1;
			return k;
		}
	return b;   /* one word wider than the pane: cut inside it */
}

/* The text of the events pane's line that starts at ev[i]. */
static void event_line_text(const struct frame *v, int i, char *out, size_t n, enum theme_elem *el)
{
	const struct model_event *e = &v->ev[i];
	const struct model_event *end = i + 1 < v->nev &&
		frame_event_joins_previous((int)e->kind, (int)v->ev[i + 1].kind) ? &v->ev[i + 1] : NULL;
	char t[24], text[2 * MODEL_LINE_LEN];
	ui_fmt_dur(e->t, t, sizeof t);
	*el = e->kind == MEV_HIT_START || e->kind == MEV_HIT_END ? TE_HIT : e->kind == MEV_MARK ? TE_MARK : TE_TEXT;
	if (end)
		frame_joined_hit_text(e->text, end->text, text, sizeof text);
	else
		snprintf(text, sizeof text, "%s", e->text[0] ? e->text : model_event_kind_name(e->kind));
	snprintf(out, n, "%s %s", t, text);
}

/* The events pane follows the newest; with the focus, up/down select a
 * line (live.c), the pane scrolls to keep it in view and the selected
 * line is shown whole, wrapped between words over the rows it needs. */
static void draw_events(struct ui_live *L, struct ui_win *win, bool focus)
{
	WINDOW *w = (WINDOW *)win;
	const struct ui_style *st = &L->scr.st;
	const struct frame *v = &L->v;
	int H = getmaxy(w) - 1, W = getmaxx(w);
	char title[96];
	bool sel = focus && L->ev_selecting;
	if (sel)
		snprintf(title, sizeof title, "Events%s", L->screen == UI_SCREEN_VIEW ? "  Enter: go to" : "");
	else
		snprintf(title, sizeof title, "Events%s", focus ? "  up: select" : "");
	ui_title(w, st, title, focus);
	if (!v->nev) {
		ui_put(w, 1, 0, W, st, TE_DIM, "none yet (m puts a mark)");
		return;
	}
	int line_ev[FRAME_EVENTS], nl;
	uint64_t key[FRAME_EVENTS];
	char line[2 * MODEL_LINE_LEN + 32];
	enum theme_elem el;
	nl = frame_event_lines(v, key, line_ev);
	if (H < 1 || W < 1)
		return;
	int first, s = -1, srows = 1;
	if (!sel) {
		first = layout_tail_first_keyed(key, nl, H);
	} else {
		s = frame_event_line_of(key, nl, L->ev_sel);
		event_line_text(v, line_ev[s], line, sizeof line, &el);
		srows = 0;
		for (const char *c = line; *c; srows++) {
			size_t sk, b = wrap_next(c, W, &sk);
			c += b + sk;
		}
		if (srows < 1)
			srows = 1;
		if (srows > H)
			srows = H;
		first = frame_event_line_of(key, nl, L->ev_top);
		if (s < first)
			first = s;
		if (s - first > H - srows)
			first = s - (H - srows);
		L->ev_top = key[first];
	}
	int y = 1;
	for (int j = first; j < nl && y <= H; j++) {
		event_line_text(v, line_ev[j], line, sizeof line, &el);
		if (j != s) {
			/* the time dim, the text in its kind's colour */
			char *sp = strchr(line, ' ');
			int x = ui_put(w, y, 0, W, st, TE_DIM, sp ? (*sp = '\0', line) : line);
			if (sp) {
				*sp = ' ';
				ui_put(w, y, x, W - x, st, el, sp);
			}
			y++;
			continue;
		}
		/* the selected line, whole */
		const char *p = line;
		for (int r = 0; r < srows && y <= H && *p; r++, y++) {
			char part[2 * MODEL_LINE_LEN + 32];
			size_t sk, b = wrap_next(p, W, &sk);
			snprintf(part, sizeof part, "%.*s", (int)b, p);
			ui_fill(w, y, 0, W, st, TE_TITLE_FOCUS, " ");
			ui_put(w, y, 0, W, st, TE_TITLE_FOCUS, part);
			p += b + sk;
		}
	}
}

static void draw_curves(struct ui_live *L, struct ui_win *win, bool focus)
{
	WINDOW *w = (WINDOW *)win;
	const struct ui_style *st = &L->scr.st;
	char title[128];
	if (L->have_cs)
		snprintf(title, sizeof title, "Result curves  %s%s", L->metric,
			 focus ? "  (up/down: metric)" : "");
	else
		snprintf(title, sizeof title, "Result curves");
	ui_title(w, st, title, focus);
	struct ui_curves_data cd = { .y = 1, .x = 0, .w = getmaxx(w), .h = getmaxy(w) - 1,
				     .cs = L->have_cs ? &L->cs : NULL, .log2x = L->cfg->log2x,
				     .empty = L->cs_msg[0] ? L->cs_msg
					      : "no results yet: runs of this session (iodash run, sweep) show here" };
	ui_curves_widget.draw(w, &cd, st);
}

static void draw_status(struct ui_live *L, struct ui_win *win, bool focus)
{
	WINDOW *w = (WINDOW *)win;
	const struct ui_style *st = &L->scr.st;
	int W = getmaxx(w);
	char buf[160];
	snprintf(buf, sizeof buf, " %s  refresh %gs ", L->scr.st.theme.name, L->refresh);
	int rx = W - (int)strlen(buf);
	if (rx > W / 2)
		put_right(w, 0, W, st, TE_STATUS, buf);
	else
		rx = W;
	if (L->asking_stop) {
		ui_put(w, 0, 0, rx, st, TE_ERROR, "stop the benchmark? y/n");
		return;
	}
	if (L->filtering) {
		char line[200];
		snprintf(line, sizeof line, "disks: %s_  (names or globs, Enter: apply, empty: all, Esc: keep)",
			 L->filter_text);
		ui_put(w, 0, 0, rx, st, TE_KEY, line);
		return;
	}
	if (L->marking) {
		char line[160];
		snprintf(line, sizeof line, "mark %u: %s_  (Enter: put it, Esc: no mark)", L->marks + 1,
			 L->mark_text);
		ui_put(w, 0, 0, rx, st, TE_KEY, line);
		return;
	}
	if (L->v.error[0]) {
		ui_put(w, 0, 0, rx, st, TE_ERROR, L->v.error);
		return;
	}
	if (L->scr.msg[0]) {
		ui_put(w, 0, 0, rx, st, TE_ERROR, L->scr.msg);
		return;
	}
	/* the hints: this screen's rows of the key table, as many as fit */
	ui_key_hints(w, 0, 0, rx, st, ui_live_keys, ui_live_nkeys, L->screen);
}

/* Bytes per second, as the other rates of the screen. */
static void fmt_Bps(double v, char *buf, size_t n)
{
	ui_fmt_rate_kb(v / 1024, buf, n);
}

/* The machine's side of the context panel, one fact per line, from row y
 * of a column x..x+cw; returns the next free row. */
static int draw_context_machine(const struct ui_live *L, WINDOW *w, int y, int x, int cw, int H)
{
	const struct ui_style *st = &L->scr.st;
	const struct procio_view *c = &L->v.ctx;
	char buf[160], a[16], b[16], d[16];

	if (y < H) {
		int n = 0;
		if (c->have_cpu)
			n += snprintf(buf + n, sizeof buf - (size_t)n, "iowait %.1f%%  steal %.1f%%", c->iowait_pct,
				      c->steal_pct);
		else
			n += snprintf(buf + n, sizeof buf - (size_t)n, "iowait n/a  steal n/a");
		if (c->have_procs)
			snprintf(buf + n, sizeof buf - (size_t)n, "  blocked (D) %u", c->procs_blocked);
		ui_put(w, y++, x, cw, st, c->have_procs && c->procs_blocked ? TE_HIT : TE_TEXT, buf);
	}
	if (y < H) {
		if (c->have_mem) {
			ui_fmt_kb((double)c->cached_kb, a, sizeof a);
			ui_fmt_kb((double)c->mem_free_kb, b, sizeof b);
			ui_fmt_kb((double)c->mem_available_kb, d, sizeof d);
			snprintf(buf, sizeof buf, "cache %s  free %s  avail %s", a, b, d);
		} else {
			snprintf(buf, sizeof buf, "memory n/a (/proc/meminfo not read)");
		}
		ui_put(w, y++, x, cw, st, TE_TEXT, buf);
	}
	if (y < H) {
		if (c->have_psi)
			snprintf(buf, sizeof buf, "PSI io some %.1f%%  full %.1f%% (avg10)", c->psi_some_avg10,
				 c->psi_full_avg10);
		else
			snprintf(buf, sizeof buf, "PSI io n/a (no /proc/pressure/io)");
		ui_put(w, y++, x, cw, st, c->have_psi && c->psi_full_avg10 > 0 ? TE_HIT : TE_TEXT, buf);
	}
	int idx[PROCIO_DEVS], idle;
	int n = frame_context_devs(c, L->ctx_partitions, idx, PROCIO_DEVS, &idle);
	if (y < H) {
		snprintf(buf, sizeof buf, "%-10s %9s %9s%s", "device", "rareq-sz", "wareq-sz",
			 L->ctx_partitions ? "" : "  (p: partitions)");
		ui_put(w, y++, x, cw, st, TE_DIM, buf);
	}
	for (int i = 0; i < n && y < H; i++) {
		const struct procio_dev *dv = &c->devs[idx[i]];
		snprintf(buf, sizeof buf, "%s%-*.*s %9.1f %9.1f", dv->is_partition ? " " : "",
			 dv->is_partition ? 9 : 10, dv->is_partition ? 9 : 10, dv->name, dv->rareq_sz,
			 dv->wareq_sz);
		ui_put(w, y++, x, cw, st, TE_TEXT, buf);
	}
	if (!n && y < H)
		ui_put(w, y++, x, cw, st, TE_DIM, c->have_rates ? "no device did I/O in the last second"
							      : "request sizes after the next scan");
	return y;
}

/* Who does I/O, system-wide, and what the machine is doing: the context
 * of what the dirty gauge shows (a second's scan of /proc, procio.h). */
static void draw_context(struct ui_live *L, struct ui_win *win, bool focus)
{
	WINDOW *w = (WINDOW *)win;
	const struct ui_style *st = &L->scr.st;
	const struct frame *v = &L->v;
	const struct procio_view *c = &v->ctx;
	int W = getmaxx(w), H = getmaxy(w);
	char title[160], buf[160], r[16], wr[16];

	if (!c->valid) {
		ui_title(w, st, "Context", focus);
		ui_put(w, 1, 0, W, st, TE_DIM, v->ctx_why[0] ? v->ctx_why
				 : v->replay ? "processes and CPU are read live from /proc: not in a replay"
					     : "reading /proc (once a second)");
		return;
	}
	if (c->all_procs)
		snprintf(title, sizeof title, "Context  I/O of all %d processes", c->nprocs);
	else
		snprintf(title, sizeof title, "Context  I/O of your processes only (not root: %d of %d unreadable)",
			 c->nunreadable, c->nprocs);
	ui_title(w, st, title, focus);
	if (v->ctx_why[0] && H > 1)
		ui_put(w, 1, 0, W, st, TE_ERROR, v->ctx_why);
	int y0 = 1 + (v->ctx_why[0] != 0);

	/* wide: processes left, the machine right; narrow: the machine on top */
	int mw = 50, pw = W, px = 0, py = y0;
	if (W >= 100) {
		pw = W - mw - 1;
		draw_context_machine(L, w, y0, pw + 1, mw, H);
	} else {
		py = draw_context_machine(L, w, y0, 0, W, H > y0 + 6 ? y0 + 3 : y0 + (H - y0) / 2);
	}
	if (py >= H)
		return;
	bool pauses = c->have_pauses && pw >= 60;
	snprintf(buf, sizeof buf, "  %-15s %7s %10s %10s%s%s", "command", "pid", "write/s", "read/s",
		 pauses ? "  paused" : "", v->bench.pid > 0 ? "  (* benchmark)" : "");
	ui_put(w, py++, px, pw, st, TE_DIM, buf);
	const struct procio_row *rows[2 * PROCIO_TOP];
	int n = frame_context_rows(c, rows, 2 * PROCIO_TOP);
	if (!n && py < H)
		ui_put(w, py++, px, pw, st, TE_DIM, c->have_rates ? "no process read or wrote in the last second"
							       : "rates after the next scan");
	for (int i = 0; i < n && py < H; i++) {
		const struct procio_row *e = rows[i];
		fmt_Bps(e->write_Bps, wr, sizeof wr);
		fmt_Bps(e->read_Bps, r, sizeof r);
		int k = snprintf(buf, sizeof buf, "%s %-15s %7d %10s %10s", e->in_bench ? "*" : " ", e->comm,
				 (int)e->pid, wr, r);
		if (pauses && e->pauses && k > 0 && (size_t)k < sizeof buf)
			snprintf(buf + k, sizeof buf - (size_t)k, "  %u %.0f ms", e->pauses, e->paused_ms);
		ui_put(w, py++, px, pw, st, e->in_bench ? TE_HEADER : e->pauses ? TE_HIT : TE_TEXT, buf);
	}
}


/* The panels, in the order of enum ui_panel; on a narrow screen they
 * stack in this order; on a wide one, those of a band sit side by side. */
const struct panel_def ui_panels[UI_PANEL_COUNT] = {
	[UI_PANEL_HEADER] = { 0, "header", 1, 0, 0, -1, 0, false, draw_header },
	[UI_PANEL_STATUS] = { 0, "status", 1, 0, 0, -1, 0, false, draw_status },
	/* title + 3 graph rows */
	[UI_PANEL_THROUGHPUT] = { '1', "throughput", 4, 2, 6, 0, 1, false, draw_throughput },
	/* title, bar, marker labels; it goes last */
	[UI_PANEL_DIRTY] = { '2', "dirty", 3, 3, 7, 0, 1, false, draw_dirty },
	/* title, column header, one disk; then a row per active disk */
	[UI_PANEL_DISKS] = { '3', "disks", 3, 0, 5, 1, 1, true, draw_disks },
	[UI_PANEL_OUTPUT] = { '4', "output", 4, 1, 4, 2, 2, false, draw_output },
	/* axis, legend and a few rows of curve */
	[UI_PANEL_CURVES] = { '5', "curves", 8, 1, 3, 2, 2, false, draw_curves },
	[UI_PANEL_EVENTS] = { '6', "events", 4, 1, 2, 2, 1, false, draw_events },
	/* title, table head, a few processes; a band of its own, the whole
	 * width; it goes first */
	[UI_PANEL_CONTEXT] = { '7', "context", 5, 1, 1, 3, 1, false, draw_context },
};
