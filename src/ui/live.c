/* The live (and replay) screen: ui_run().
 *
 *   producers --(lock, notify)--> model --(short lock: copy)--> view
 *   view --(layout, widgets)--> windows --(wnoutrefresh)--> one doupdate
 *
 * Fit for ssh: a frame is drawn only when there is new data (at most once
 * per -r seconds) or after a key; each window is werase'd and redrawn and
 * curses sends only the cells that changed.  Graphs do not scroll by one
 * column per sample (that would resend every cell of every graph each
 * frame): they fill to the right and jump back a quarter of their width
 * when full, so a frame usually changes one column. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "iodash/app.h"
#include "iodash/layout.h"
#include "iodash/model.h"
#include "iodash/session.h"
#include "iodash/ui.h"
#include "iodash/ui_frame.h"
#include "ui_screen.h"

struct live {
	struct model *m;
	const struct iodash_opts *o;
	struct ui_screen scr;
	WINDOW *win[UI_PANEL_COUNT];
	WINDOW *help_win;
	struct layout lay;
	int cols, rows, disk_rows;
	unsigned hidden;
	bool curves_view, help, paused;
	int focus;
	double refresh;
	bool asking_stop;            /* "stop the benchmark? y/n" */
	bool quit_when_done;         /* q + y: quit once the benchmark has exited */
	int out_back;                /* output pane: lines scrolled back */
	int metric_idx;
	struct frame v;
	struct curve_set cs;
	bool have_cs;
	char metric[RP_NAME_LEN];
	char cs_msg[128];
	int sigints_seen;
	unsigned marks;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- copying from the model ---------------------------------------- */

static void view_copy(struct live *L)
{
	frame_copy(&L->v, L->m, L->cols, L->o->interval, L->refresh);
}

/* Rebuild the curves of the chosen metric when results changed. */
static void curves_update(struct live *L, bool force)
{
	if (!L->v.rs_changed && !force)
		return;
	L->v.rs_changed = false;
	if (L->have_cs)
		curve_set_free(&L->cs);
	L->have_cs = false;
	char names[16][RP_NAME_LEN];
	size_t nm = session_list_metrics(&L->v.rs, names, 16);
	if (!nm) {
		snprintf(L->cs_msg, sizeof L->cs_msg,
			 "no results yet: runs of this session (iodash run, sweep) show here");
		return;
	}
	if (L->metric_idx < 0)
		L->metric_idx = (int)nm - 1;
	L->metric_idx %= (int)nm;
	snprintf(L->metric, sizeof L->metric, "%s", names[L->metric_idx]);
	if (session_build_curves(&L->v.rs, L->metric, NULL, &L->cs) == 0)
		L->have_cs = true;
	else
		snprintf(L->cs_msg, sizeof L->cs_msg, "cannot build curves of %s", L->metric);
}

/* ---- layout and windows --------------------------------------------- */

static void windows_free(struct live *L)
{
	for (int p = 0; p < UI_PANEL_COUNT; p++)
		if (L->win[p]) {
			delwin(L->win[p]);
			L->win[p] = NULL;
		}
	if (L->help_win) {
		delwin(L->help_win);
		L->help_win = NULL;
	}
}

static void windows_layout(struct live *L)
{
	int idx[FRAME_DISKS], idle;
	int nact = frame_active_disks(&L->v, idx, FRAME_DISKS, &idle);
	int rows = nact ? nact : 1;
	struct layout_req rq = { .cols = COLS, .rows = LINES, .hidden = L->hidden,
				 .curves_view = L->curves_view, .disk_rows = rows };
	struct layout nl;
	layout_compute(&rq, &nl);
	if (L->win[UI_PANEL_HEADER] && L->cols == COLS && L->rows == LINES &&
	    !memcmp(&nl, &L->lay, sizeof nl))
		return;
	windows_free(L);
	L->lay = nl;
	L->cols = COLS;
	L->rows = LINES;
	L->disk_rows = rows;
	for (int p = 0; p < UI_PANEL_COUNT; p++) {
		const struct ui_rect *r = &nl.r[p];
		if (r->w > 0 && r->h > 0)
			L->win[p] = newwin(r->h, r->w, r->y, r->x);
	}
	if (L->focus < UI_TOGGLE_FIRST || !L->win[L->focus]) {
		L->focus = 0;
		for (int p = UI_TOGGLE_FIRST; p < UI_TOGGLE_FIRST + UI_TOGGLE_COUNT && !L->focus; p++)
			if (L->win[p])
				L->focus = p;
	}
}

/* ---- panels ----------------------------------------------------------- */

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

static void draw_header(struct live *L, WINDOW *w)
{
	const struct ui_style *st = &L->scr.st;
	const struct frame *v = &L->v;
	int W = getmaxx(w), H = getmaxy(w);
	int zone = v->badge_zone;
	enum theme_elem be;
	const char *badge = frame_zone_badge(zone, &be);
	char buf[512], el[32];

	if (H < 2) {
		/* one row: the badge and hits first, host in what is left */
		badge = frame_zone_badge_short(zone);
		int x = put_right(w, 0, W, st, be, badge);
		if (v->have_last && v->last.hits) {
			snprintf(buf, sizeof buf, "hits %u ", v->last.hits);
			x = put_right(w, 0, x, st, TE_HIT, buf);
		}
		ui_put(w, 0, 0, x - 1, st, TE_HEADER, L->paused ? "PAUSED" : v->host);
		return;
	}

	/* row 0: where and what; elapsed and the zone badge on the right */
	int x = put_right(w, 0, W, st, be, badge);
	ui_fmt_dur(v->have_last ? v->last.t : 0, el, sizeof el);
	snprintf(buf, sizeof buf, "%s%s ", L->paused ? "PAUSED  " : "", el);
	x = put_right(w, 0, x - 1, st, L->paused ? TE_ERROR : TE_HEADER, buf);
	int lx = ui_put(w, 0, 0, x, st, TE_HEADER_KEY, "iodash ");
	lx += ui_put(w, 0, lx, x - lx, st, TE_HEADER, v->host);
	snprintf(buf, sizeof buf, "  %s  %s", v->kernel, v->source);
	ui_put(w, 0, lx, x - lx - 1, st, TE_DIM, buf);

	/* row 1: dirty-limit hits and throttle facts on the right */
	int rx = W;
	if (v->bench.have_tracepoint) {
		snprintf(buf, sizeof buf, " pauses %.0f/s %.0f ms/s", v->bench.pauses_per_s,
			 v->bench.pause_ms_per_s);
		rx = put_right(w, 1, rx, st, v->bench.pauses_per_s > 0 ? TE_HIT : TE_DIM, buf);
	}
	if (v->bench.throttled_tasks > 0) {
		snprintf(buf, sizeof buf, " throttled tasks %d", v->bench.throttled_tasks);
		rx = put_right(w, 1, rx, st, TE_HIT, buf);
	}
	if (v->have_last) {
		snprintf(buf, sizeof buf, " dirty-limit hits %u (%.1f s)", v->last.hits,
			 v->last.hit_seconds);
		rx = put_right(w, 1, rx, st, v->last.hits ? TE_HIT : TE_DIM, buf);
	}
	if (v->have_last && v->last.missed) {
		/* samples the machine was too busy to take: the graphs have gaps */
		snprintf(buf, sizeof buf, " missed ticks %llu", (unsigned long long)v->last.missed);
		rx = put_right(w, 1, rx, st, TE_ERROR, buf);
	}
	/* left: the benchmark, a sweep's progress, or the end */
	int cx = 0;
	const struct bench_status *b = &v->bench;
	if (L->asking_stop) {
		ui_put(w, 1, 0, rx, st, TE_ERROR, "stop the benchmark? y/n");
		return;
	}
	if (L->v.had_bench && v->bench_done) {
		if (b->attached)
			/* not our child: nobody but its parent can know its status */
			snprintf(buf, sizeof buf, "pid %d %s - q to quit", (int)b->pid,
				 b->left_running ? "left running (attach only watches)"
						 : "exited, exit status unknown (not a child of iodash)");
		else if (b->last_signal)
			snprintf(buf, sizeof buf, "finished, killed by signal %d - q to quit", b->last_signal);
		else if (b->last_exit_status < 0 && !v->exit_code)
			snprintf(buf, sizeof buf, "finished, exit status unknown - q to quit");
		else
			snprintf(buf, sizeof buf, "finished, exit status %d - q to quit",
				 b->last_exit_status >= 0 ? b->last_exit_status : v->exit_code);
		ui_put(w, 1, 0, rx, st, TE_TITLE_FOCUS, buf);
		return;
	}
	if (b->run_total > 0) {
		snprintf(buf, sizeof buf, "run %d/%d ", b->run_index, b->run_total);
		cx += ui_put(w, 1, cx, rx - cx, st, TE_HEADER, buf);
		int bw = 12;
		if (cx + bw + 2 < rx) {
			int fill = b->run_total ? (bw * (b->run_index - (frame_bench_active(v) ? 1 : 0)) +
						   bw / 2 * frame_bench_active(v)) / b->run_total : 0;
			fill = fill < 0 ? 0 : fill > bw ? bw : fill;
			bool utf = st->glyphs != UI_GLYPH_ASCII;
			ui_fill(w, 1, cx, fill, st, TE_PROGRESS, utf ? "\u2588" : "#");
			ui_fill(w, 1, cx + fill, bw - fill, st, TE_PROGRESS_EMPTY, utf ? "\u2591" : ".");
			cx += bw + 1;
		}
		if (b->eta_s >= 0) {
			ui_fmt_dur(b->eta_s, el, sizeof el);
			snprintf(buf, sizeof buf, "ETA %s ", el);
			cx += ui_put(w, 1, cx, rx - cx, st, TE_DIM, buf);
		}
	}
	switch (b->state) {
	case BENCH_NONE:
		if (v->sampler_done)
			snprintf(buf, sizeof buf, "%s ended - q to quit", v->replay ? "replay" : "sampling");
		else
			snprintf(buf, sizeof buf, "no benchmark attached");
		ui_put(w, 1, cx, rx - cx, st, TE_DIM, buf);
		return;
	case BENCH_STARTING: snprintf(buf, sizeof buf, "starting %s", b->command); break;
	case BENCH_BETWEEN: snprintf(buf, sizeof buf, "between runs"); break;
	case BENCH_DONE: snprintf(buf, sizeof buf, "done: %s", b->command); break;
	default:
		ui_fmt_dur(v->have_last ? v->last.t - b->run_start_t : 0, el, sizeof el);
		snprintf(buf, sizeof buf, "%s%s%s (pid %d, %s)", b->label[0] ? b->label : "",
			 b->label[0] ? ": " : "", b->command, (int)b->pid, el);
	}
	ui_put(w, 1, cx, rx - cx - 1, st, TE_HEADER, buf);
}

static int bucket_k(const struct live *L)
{
	return frame_bucket_k(&L->v, L->o->interval, L->refresh);
}

static void draw_throughput(struct live *L, WINDOW *w, bool focus)
{
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
			  utf ? "\u25b2" : "^", utf ? "\u25bc" : "v", frame_window_span(&L->v, G, bucket_k(L)));
	if (v->bench.progress.valid && v->bench.progress.throughput >= 0)
		snprintf(title + tl, sizeof title - (size_t)tl, "  %s: %.1f %s",
			 v->bench.command[0] ? "bench" : "", v->bench.progress.throughput,
			 v->bench.progress.unit);
	ui_title(w, st, title, focus);
	int body = H - 1;
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
	int per = body / shown;
	double *vw = calloc((size_t)G + 1, sizeof *vw), *vr = calloc((size_t)G + 1, sizeof *vr);
	struct frame_pt *bk = calloc((size_t)G + 1, sizeof *bk);
	bool *have = calloc((size_t)G + 1, sizeof *have);
	if (!vw || !vr || !bk || !have) {
		free(vw);
		free(vr);
		free(bk);
		free(have);
		return;
	}
	frame_buckets(&L->v, bucket_k(L), G, 0, bk, have);
	int y = 1;
	for (int i = 0; i < shown; i++) {
		int k = idx[i];
		int rows = i == shown - 1 ? body - per * i : per;
		double mx = 0;
		for (int c = 0; c < G; c++) {
			vw[c] = have[c] ? bk[c].wr[k] : NAN;
			vr[c] = have[c] ? bk[c].rd[k] : NAN;
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
	if (nact > shown) {
		snprintf(buf, sizeof buf, " +%d more ", nact - shown);
		put_right(w, 0, W, st, TE_DIM, buf);
	}
	free(vw);
	free(vr);
	free(bk);
	free(have);
}

static void draw_dirty(struct live *L, WINDOW *w, bool focus)
{
	const struct ui_style *st = &L->scr.st;
	const struct frame *v = &L->v;
	int W = getmaxx(w), H = getmaxy(w);
	char title[256], a[16], b[16], c[16], t[16];
	const struct sample *s = &v->last;
	if (!v->have_last || !s->have_dirty) {
		ui_title(w, st, "Dirty memory", focus);
		ui_put(w, 1, 0, W, st, TE_DIM, v->have_last ? "dirty levels n/a (/proc/vmstat not read)"
							    : "waiting for the first sample");
		return;
	}
	ui_fmt_kb((double)s->dirty_kb, a, sizeof a);
	ui_fmt_kb((double)s->writeback_kb, b, sizeof b);
	ui_fmt_kb((double)(s->dirty_kb + s->writeback_kb), c, sizeof c);
	ui_fmt_kb((double)s->thresh_kb, t, sizeof t);
	if (W >= 60)
		snprintf(title, sizeof title, "Dirty memory  dirty %s + writeback %s = %s of %s", a, b, c, t);
	else if (W >= 30)
		snprintf(title, sizeof title, "Dirty %s+%s of %s", a, b, t);
	else
		snprintf(title, sizeof title, "Dirty %s/%s", c, t);
	ui_title(w, st, title, focus);

	/* One scale for the bar and the history, so they read alike: the
	 * current hard threshold or the highest level in view.  Older,
	 * higher thresholds (knobs changed) fall off the top rather than
	 * squash today's lines into the bottom row. */
	int lab_w = W >= 40 ? 9 : 0, gw = W - lab_w;
	int sc = ui_glyph_subcols(st->glyphs), G = gw * sc;
	struct frame_pt *bk = calloc((size_t)G + 1, sizeof *bk);
	bool *have = calloc((size_t)G + 1, sizeof *have);
	if (!bk || !have) {
		free(bk);
		free(have);
		return;
	}
	frame_buckets(&L->v, bucket_k(L), G, 1, bk, have);
	double top = (double)(s->thresh_kb > s->dirty_kb + s->writeback_kb
			      ? s->thresh_kb : s->dirty_kb + s->writeback_kb);
	for (int i = 0; i < G; i++)
		if (have[i] && bk[i].have_dirty)
			top = fmax(top, bk[i].level_kb);
	double scale = top * 1.05;
	if (H >= 2) {
		struct ui_gauge_data gd = { .y = 1, .x = 0, .w = W, .h = H >= 3 ? 2 : 1,
					    .v = { (double)s->dirty_kb, (double)s->writeback_kb,
						   (double)s->bg_thresh_kb, (double)s->freerun_kb,
						   (double)s->thresh_kb, scale } };
		ui_gauge_widget.draw(w, &gd, st);
	}
	int gh = H - 3;
	if (gh < 1) {
		free(bk);
		free(have);
		return;
	}
	double *lv = calloc((size_t)G + 1, 4 * sizeof *lv);
	bool *sh = calloc((size_t)G + 1, sizeof *sh);
	if (!lv || !sh) {
		free(lv);
		free(sh);
		free(bk);
		free(have);
		return;
	}
	double *bg = lv + G, *fr = lv + 2 * G, *th = lv + 3 * G;
	bool any_shade = false;
	for (int i = 0; i < G; i++) {
		const struct frame_pt *p = &bk[i];
		bool ok = have[i] && p->have_dirty;
		lv[i] = ok ? p->level_kb : NAN;
		bg[i] = ok ? p->bg_kb : NAN;
		fr[i] = ok ? p->freerun_kb : NAN;
		th[i] = ok ? p->thresh_kb : NAN;
		sh[i] = ok && p->zone >= ZONE_THROTTLE;
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
	struct ui_graph_data gd = { .y = 3, .x = 0, .w = gw, .h = gh, .v = lv, .vmax = scale,
				    .elem = TE_DIRTY, .hline = { bg, fr, th },
				    .hline_elem = { TE_LINE_BG, TE_LINE_FREERUN, TE_LINE_THRESH },
				    .shade = sh, .n = (size_t)G };
	ui_graph_widget.draw(w, &gd, st);
	if (lab_w) {
		/* line names at the latest rows of their lines, never on top of
		 * one another: a later one moves to the next free row */
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
			       st->glyphs == UI_GLYPH_ASCII ? ":throttl" : "\u2591throttl");
	}
	free(lv);
	free(sh);
	free(bk);
	free(have);
}

/* The disk table's figures, left to right: iostat -x's usual eight, then
 * the rest of its figures as far as the pane is wide (the table drops
 * what does not fit from the right). */
static const struct { enum disk_figure f; int width; } disk_table_cols[] = {
	{ DF_R_S, 9 }, { DF_W_S, 9 }, { DF_RKB_S, 11 }, { DF_WKB_S, 11 },
	{ DF_R_AWAIT, 8 }, { DF_W_AWAIT, 8 }, { DF_AQU_SZ, 7 }, { DF_UTIL, 6 },
	{ DF_RAREQ_SZ, 8 }, { DF_WAREQ_SZ, 8 }, { DF_RRQM_S, 8 }, { DF_WRQM_S, 8 },
	{ DF_RRQM_PCT, 6 }, { DF_WRQM_PCT, 6 }, { DF_F_S, 7 }, { DF_F_AWAIT, 7 },
	{ DF_D_S, 7 }, { DF_DKB_S, 9 }, { DF_D_AWAIT, 7 }, { DF_DAREQ_SZ, 8 },
	{ DF_DRQM_S, 7 }, { DF_DRQM_PCT, 6 },
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

static void draw_disks(struct live *L, WINDOW *w, bool focus)
{
	const struct ui_style *st = &L->scr.st;
	const struct frame *v = &L->v;
	int idx[FRAME_DISKS], idle;
	int n = frame_active_disks(v, idx, FRAME_DISKS, &idle);
	char title[96];
	if (idle)
		snprintf(title, sizeof title, "Disks  iostat -x  (%d idle not shown)", idle);
	else
		snprintf(title, sizeof title, "Disks  iostat -x");
	ui_title(w, st, title, focus);
	if (!n) {
		ui_put(w, 1, 0, getmaxx(w), st, TE_DIM,
		       v->have_last ? "all disks idle" : "waiting for the first sample");
		return;
	}
	const char *head[DISK_TABLE_NCOLS];
	int width[DISK_TABLE_NCOLS];
	head[0] = "Device";
	width[0] = 10;
	for (int c = 1; c < DISK_TABLE_NCOLS; c++) {
		head[c] = disk_figure_label(disk_table_cols[c - 1].f);
		width[c] = disk_table_cols[c - 1].width;
	}
	struct disk_tab t = { .v = v, .idx = idx };
	struct ui_table_data td = { .y = 1, .x = 0, .w = getmaxx(w), .h = getmaxy(w) - 1,
				    .ncols = DISK_TABLE_NCOLS, .nrows = n, .head = head, .width = width,
				    .cell = disk_cell, .ctx = &t };
	ui_table_widget.draw(w, &td, st);
}

static void draw_output(struct live *L, WINDOW *w, bool focus)
{
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
		.empty = v->bench.state == BENCH_NONE && !L->v.had_bench
			 ? "no benchmark attached. Start one with iodash run -- CMD, or watch one with iodash attach PID"
			 : "no output yet",
	};
	ui_text_widget.draw(w, &td, st);
}

static void draw_events(struct live *L, WINDOW *w, bool focus)
{
	const struct ui_style *st = &L->scr.st;
	const struct frame *v = &L->v;
	ui_title(w, st, "Events", focus);
	int H = getmaxy(w) - 1, W = getmaxx(w);
	if (!v->nev) {
		ui_put(w, 1, 0, W, st, TE_DIM, "none yet (m puts a mark)");
		return;
	}
	/* the pane's lines among the events held: where each starts, by
	 * index in v->ev and in the session */
	int line_ev[FRAME_EVENTS], nl = 0;
	uint64_t key[FRAME_EVENTS], abs0 = v->nevents - (uint64_t)v->nev;
	for (int i = 0; i < v->nev; i++)
		if (!i || !frame_event_joins_previous((int)v->ev[i - 1].kind, (int)v->ev[i].kind)) {
			key[nl] = abs0 + (uint64_t)i;
			line_ev[nl++] = i;
		}
	int first = layout_tail_first_keyed(key, nl, H);
	for (int j = first; j < nl && j - first < H; j++) {
		int i = line_ev[j];
		const struct model_event *e = &v->ev[i];
		const struct model_event *end = i + 1 < v->nev &&
			frame_event_joins_previous((int)e->kind, (int)v->ev[i + 1].kind) ? &v->ev[i + 1] : NULL;
		char t[24], text[2 * MODEL_LINE_LEN], line[2 * MODEL_LINE_LEN + 2];
		ui_fmt_dur(e->t, t, sizeof t);
		enum theme_elem el = e->kind == MEV_HIT_START || e->kind == MEV_HIT_END ? TE_HIT
				     : e->kind == MEV_MARK ? TE_MARK : TE_TEXT;
		if (end)
			frame_joined_hit_text(e->text, end->text, text, sizeof text);
		else
			snprintf(text, sizeof text, "%s", e->text[0] ? e->text : model_event_kind_name(e->kind));
		int x = ui_put(w, 1 + j - first, 0, W, st, TE_DIM, t);
		snprintf(line, sizeof line, " %s", text);
		ui_put(w, 1 + j - first, x, W - x, st, el, line);
	}
}

static void draw_curves(struct live *L, WINDOW *w, bool focus)
{
	const struct ui_style *st = &L->scr.st;
	char title[128];
	if (L->have_cs)
		snprintf(title, sizeof title, "Result curves  %s%s", L->metric,
			 focus ? "  (up/down: metric)" : "");
	else
		snprintf(title, sizeof title, "Result curves");
	ui_title(w, st, title, focus);
	struct ui_curves_data cd = { .y = 1, .x = 0, .w = getmaxx(w), .h = getmaxy(w) - 1,
				     .cs = L->have_cs ? &L->cs : NULL, .log2x = L->o->log2x,
				     .empty = L->cs_msg[0] ? L->cs_msg
					      : "no results yet: runs of this session (iodash run, sweep) show here" };
	ui_curves_widget.draw(w, &cd, st);
}

static void draw_status(struct live *L, WINDOW *w)
{
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
	if (L->v.error[0]) {
		ui_put(w, 0, 0, rx, st, TE_ERROR, L->v.error);
		return;
	}
	if (L->scr.msg[0]) {
		ui_put(w, 0, 0, rx, st, TE_ERROR, L->scr.msg);
		return;
	}
	static const char *const keys[][2] = {
		{ "q", "quit" }, { "space", "pause" }, { "tab", "focus" }, { "1-6", "panels" },
		{ "c", "curves" }, { "t", "theme" }, { "+-", "refresh" }, { "m", "mark" },
		{ "h", "help" },
	};
	int x = 0;
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		int need = (int)(strlen(keys[i][0]) + strlen(keys[i][1]) + 2);
		if (x + need > rx)
			break;
		x += ui_put(w, 0, x, rx - x, st, TE_KEY, keys[i][0]);
		x += ui_put(w, 0, x, rx - x, st, TE_STATUS, " ");
		x += ui_put(w, 0, x, rx - x, st, TE_STATUS, keys[i][1]);
		x += ui_put(w, 0, x, rx - x, st, TE_STATUS, "  ");
	}
}

static const char *const help_lines[][2] = {
	{ "q", "quit (asks first while a benchmark runs: y stops it, iodash" },
	{ "", "   quits once it has exited; q again quits at once)" },
	{ "Ctrl-C", "stop the benchmark (asks), stay to read the results" },
	{ "space", "pause the display (sampling and recording go on)" },
	{ "tab", "move the focus between panels" },
	{ "1-6", "show/hide: 1 throughput 2 dirty 3 disks 4 output 5 curves 6 events" },
	{ "c", "result curves on the whole screen, and back" },
	{ "up/down", "focused output: scroll back; focused curves: metric" },
	{ "t", "next theme (themes/*.theme)" },
	{ "+ -", "refresh slower / faster (-r)" },
	{ "m", "put a mark in the events and the recording" },
	{ "Ctrl-L", "repaint the whole screen" },
	{ "< > [ ] g", "replay: step, jump, go to time" },
	{ "h ?", "this help; any key closes it" },
};

static void draw_help(struct live *L)
{
	const struct ui_style *st = &L->scr.st;
	int n = (int)(sizeof help_lines / sizeof help_lines[0]);
	int hh = n + 4, hw = 76;
	if (hh > LINES)
		hh = LINES;
	if (hw > COLS)
		hw = COLS;
	if (hh < 1 || hw < 1)
		return;
	if (!L->help_win)
		L->help_win = newwin(hh, hw, (LINES - hh) / 2, (COLS - hw) / 2);
	if (!L->help_win)
		return;
	WINDOW *w = L->help_win;
	wbkgdset(w, ' ' | st->attr[TE_HELP]);
	werase(w);
	ui_put(w, 0, 1, hw - 2, st, TE_HELP_KEY, "iodash keys");
	ui_put(w, 0, 13, hw - 14, st, TE_HELP, "(man iodash for more)");
	for (int i = 0; i < n && i + 2 < hh; i++) {
		ui_put(w, i + 2, 1, 11, st, TE_HELP_KEY, help_lines[i][0]);
		ui_put(w, i + 2, 12, hw - 13, st, TE_HELP, help_lines[i][1]);
	}
	wnoutrefresh(w);
}

static void frame(struct live *L)
{
	windows_layout(L);
	for (int p = 0; p < UI_PANEL_COUNT; p++) {
		WINDOW *w = L->win[p];
		if (!w)
			continue;
		werase(w);
		bool f = L->focus == p;
		switch (p) {
		case UI_PANEL_HEADER: draw_header(L, w); break;
		case UI_PANEL_STATUS: draw_status(L, w); break;
		case UI_PANEL_THROUGHPUT: draw_throughput(L, w, f); break;
		case UI_PANEL_DIRTY: draw_dirty(L, w, f); break;
		case UI_PANEL_DISKS: draw_disks(L, w, f); break;
		case UI_PANEL_OUTPUT: draw_output(L, w, f); break;
		case UI_PANEL_CURVES: draw_curves(L, w, f); break;
		case UI_PANEL_EVENTS: draw_events(L, w, f); break;
		}
		wnoutrefresh(w);
	}
	if (L->help)
		draw_help(L);
	doupdate();
}

/* ---- keys -------------------------------------------------------------- */

enum key_result { KEY_NONE, KEY_REDRAW, KEY_QUIT };

static void stop_bench(struct live *L)
{
	if (L->m->stop_bench)
		L->m->stop_bench(L->m->stop_bench_ctx);
}

static enum key_result on_key(struct live *L, int ch)
{
	if (L->asking_stop) {
		L->asking_stop = false;
		if (ch == 'y' || ch == 'Y') {
			stop_bench(L);
			snprintf(L->scr.msg, sizeof L->scr.msg, "%s",
				 L->quit_when_done ? "stopping the benchmark; iodash quits when it has exited (q: quit now)"
						   : "stopping the benchmark");
		} else {
			L->quit_when_done = false;
		}
		return KEY_REDRAW;
	}
	if (L->help && ch != KEY_RESIZE) {
		L->help = false;
		if (L->help_win) {
			delwin(L->help_win);
			L->help_win = NULL;
		}
		touchwin(stdscr);
		for (int p = 0; p < UI_PANEL_COUNT; p++)
			if (L->win[p])
				touchwin(L->win[p]);
		return KEY_REDRAW;
	}
	/* A producer's keys (replay: arrows, [ ], g and its prompt) come
	 * first, so the go-to prompt can take digits; it leaves the rest.
	 * The hook only posts commands (model_post_cmd): the producer moves
	 * on its own thread and its new state comes back through the model. */
	if (ch != KEY_RESIZE && L->m->key_hook && L->m->key_hook(L->m->key_ctx, ch))
		return KEY_REDRAW;
	switch (ch) {
	case 'q': case 'Q':
		if (L->quit_when_done)
			return KEY_QUIT;
		/* an attached process is only watched: nothing to ask */
		if (frame_bench_active(&L->v) && L->m->stop_bench && !L->v.bench.attached) {
			L->asking_stop = true;
			L->quit_when_done = true;
			return KEY_REDRAW;
		}
		return KEY_QUIT;
	case 3: /* Ctrl-C in raw mode */
		if (frame_bench_active(&L->v) && L->m->stop_bench && !L->v.bench.attached) {
			L->asking_stop = true;
			L->quit_when_done = false;
			return KEY_REDRAW;
		}
		return KEY_QUIT;
	case 12: /* Ctrl-L */
		clearok(curscr, TRUE);
		return KEY_REDRAW;
	case ' ':
		L->paused = !L->paused;
		/* through the model: a waiting replay thread wakes to stop */
		model_set_paused(L->m, L->paused);
		return KEY_REDRAW;
	case '\t': {
		for (int i = 1; i <= UI_TOGGLE_COUNT; i++) {
			int p = UI_TOGGLE_FIRST + (L->focus - UI_TOGGLE_FIRST + i) % UI_TOGGLE_COUNT;
			if (L->win[p]) {
				L->focus = p;
				break;
			}
		}
		return KEY_REDRAW;
	}
	case '1': case '2': case '3': case '4': case '5': case '6':
		L->hidden ^= 1u << (UI_TOGGLE_FIRST + ch - '1');
		return KEY_REDRAW;
	case 'c':
		L->curves_view = !L->curves_view;
		if (L->curves_view)
			L->focus = UI_PANEL_CURVES;
		return KEY_REDRAW;
	case 't':
		ui_screen_next_theme(&L->scr);
		return KEY_REDRAW;
	case '+': case '-': {
		static const double steps[] = { 0.1, 0.25, 0.5, 1, 2, 5, 10 };
		int n = (int)(sizeof steps / sizeof steps[0]), i = 0;
		while (i < n - 1 && steps[i] < L->refresh - 1e-9)
			i++;
		/* + slows the screen down (fewer bytes), - speeds it up */
		if (ch == '+' && i < n - 1 && steps[i] <= L->refresh + 1e-9)
			i++;
		else if (ch == '-' && i > 0)
			i--;
		L->refresh = steps[i];
		snprintf(L->scr.msg, sizeof L->scr.msg, "refresh every %g s", L->refresh);
		return KEY_REDRAW;
	}
	case 'm': {
		L->marks++;
		model_add_event(L->m, MEV_MARK, model_now(L->m), "mark %u", L->marks);
		return KEY_REDRAW;
	}
	case 'h': case '?':
		L->help = true;
		return KEY_REDRAW;
	case KEY_RESIZE:
		if (L->help_win) {
			delwin(L->help_win);
			L->help_win = NULL;
		}
		return KEY_REDRAW;
	case KEY_UP: case KEY_PPAGE:
		if (L->focus == UI_PANEL_OUTPUT && L->out_back + 1 < L->v.nout) {
			L->out_back += ch == KEY_PPAGE ? 10 : 1;
			if (L->out_back >= L->v.nout)
				L->out_back = L->v.nout - 1;
			return KEY_REDRAW;
		}
		if (L->focus == UI_PANEL_CURVES) {
			L->metric_idx = L->metric_idx > 0 ? L->metric_idx - 1 : 15;
			curves_update(L, true);
			return KEY_REDRAW;
		}
		break;
	case KEY_DOWN: case KEY_NPAGE:
		if (L->focus == UI_PANEL_OUTPUT && L->out_back > 0) {
			L->out_back -= ch == KEY_NPAGE ? 10 : 1;
			if (L->out_back < 0)
				L->out_back = 0;
			return KEY_REDRAW;
		}
		if (L->focus == UI_PANEL_CURVES) {
			L->metric_idx++;
			curves_update(L, true);
			return KEY_REDRAW;
		}
		break;
	}
	return KEY_NONE;
}

/* ---- the loop ------------------------------------------------------------ */

/* The terminal is gone: no more drawing; wait for the producers. */
static int headless_wait(struct live *L)
{
	struct model *m = L->m;
	bool with_bench = L->v.had_bench || m->bench.state != BENCH_NONE;

	/* a plain live view has nothing left to finish, unless it was told
	 * how long to record (--count, --duration) */
	if (!with_bench && !L->o->count && L->o->duration <= 0)
		return 0;
	for (;;) {
		model_lock(m);
		bool done = with_bench ? m->bench_done : m->sampler_done;
		int code = m->exit_code;
		model_unlock(m);
		if (done)
			return code;
		struct pollfd pf = { model_wake_fd(m), POLLIN, 0 };
		poll(&pf, 1, 1000);
		model_drain_wake(m);
	}
}

static void live_free(struct live *L)
{
	windows_free(L);
	if (L->have_cs)
		curve_set_free(&L->cs);
	frame_free(&L->v);
}

int ui_run(struct model *m, const struct iodash_opts *o)
{
	struct live *L = calloc(1, sizeof *L);
	if (!L) {
		fprintf(stderr, "iodash: out of memory\n");
		return 1;
	}
	L->m = m;
	L->o = o;
	L->refresh = o->refresh > 0 ? o->refresh : 1;
	L->metric_idx = 0;     /* the first metric the tool gives: its headline figure */
	L->sigints_seen = app_got_sigint;
	if (ui_screen_open(&L->scr, o) < 0) {
		free(L);
		return 1;
	}
	/* A theme that did not load: said on the status line now, and on
	 * stderr after the screen is gone (so it stays in the scrollback). */
	char theme_msg[sizeof L->scr.msg];
	snprintf(theme_msg, sizeof theme_msg, "%s", L->scr.msg);
	view_copy(L);
	curves_update(L, true);
	frame(L);
	double last_draw = now_s();
	bool data_dirty = false, redraw = false;
	int code = 0;
	for (;;) {
		if (app_got_sighup) {
			/* the terminal is gone: endwin and nothing else on it.
			 * Watching an attached process is of no use to anyone
			 * now: it ends (the process goes on). */
			ui_screen_close(&L->scr);
			if (L->v.bench.attached)
				stop_bench(L);
			code = headless_wait(L);
			live_free(L);
			free(L);
			return code;
		}
		if (app_got_sigterm) {
			if (frame_bench_active(&L->v))
				stop_bench(L);
			break;
		}
		if (app_got_sigint != L->sigints_seen) {
			/* a SIGINT from outside: as Ctrl-C, without a question */
			L->sigints_seen = app_got_sigint;
			if (frame_bench_active(&L->v) && m->stop_bench && !L->v.bench.attached)
				stop_bench(L);
			else
				break;
		}
		double t = now_s();
		bool can_draw = t - last_draw >= L->refresh - 0.005;
		/* a paused replay still shows where time travel takes it: its
		 * producer sends nothing else while paused */
		bool show_data = !L->paused || m->replay_seekable;
		if (redraw || (data_dirty && show_data && can_draw)) {
			if (data_dirty && show_data) {
				view_copy(L);
				curves_update(L, false);
				data_dirty = false;
			}
			frame(L);
			last_draw = t;
			redraw = false;
			if (L->quit_when_done && !L->asking_stop && L->v.bench_done)
				break;
		}
		int timeout = -1;
		if (data_dirty && show_data)
			timeout = (int)((L->refresh - (t - last_draw)) * 1000) + 1;
		if (timeout > 1000 || timeout < -1)
			timeout = 1000;
		if (timeout < 0)
			timeout = 1000;    /* signals (SIGHUP) are looked at each second anyway */
		struct pollfd pf[2] = { { STDIN_FILENO, POLLIN, 0 }, { model_wake_fd(m), POLLIN, 0 } };
		int r = poll(pf, 2, timeout);
		if (r < 0 && errno != EINTR)
			break;
		if (r > 0 && (pf[1].revents & POLLIN)) {
			model_drain_wake(m);
			data_dirty = true;
			if (m->backpressure) {
				model_lock(m);
				m->consumed = m->series.pushed;
				model_unlock(m);
			}
		}
		if (r > 0 && (pf[0].revents & (POLLHUP | POLLERR | POLLNVAL))) {
			/* The terminal hung up.  Usually SIGHUP says so too, but not
			 * when the shell that owns the terminal ignores it and stays
			 * (a wrapper, a disowned job): then a hung-up tty polls
			 * readable with POLLHUP forever and getch() gets EOF, which
			 * would spin.  Treat it as the SIGHUP it stands for. */
			app_got_sighup = 1;
			continue;
		}
		int ch;
		bool quit = false;
		while ((ch = getch()) != ERR) {
			enum key_result kr = on_key(L, ch);
			if (kr == KEY_QUIT) {
				quit = true;
				break;
			}
			if (kr == KEY_REDRAW)
				redraw = true;
		}
		if (quit)
			break;
	}
	ui_screen_close(&L->scr);
	if (theme_msg[0])
		fprintf(stderr, "iodash: %s\n", theme_msg);
	model_lock(m);
	code = m->exit_code;
	model_unlock(m);
	live_free(L);
	free(L);
	return code;
}
