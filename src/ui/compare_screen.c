/* The compare screen: result curves of one metric (overlaid, or one small
 * graph per label side by side), the dirty memory and throughput of every
 * recorded run aligned at its start, and the table of --text under them.
 *
 * Keys: ui_compare_keys[] (q quit; n/p or tab next/previous metric; o
 * overlaid / side by side; y one y scale / each its own; l linear / log2 x; r show/hide the runs;
 * up/down PgUp/PgDn scroll the table; t next theme; Ctrl-L redraw). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/results/compare.h"
#include "iodash/ui/ui.h"
#include "ui_screen.h"

struct cmp_view {
	const struct compare_data *cd;
	size_t metric;
	bool side_by_side, log2x, show_runs;
	bool own_y;            /* side by side: each graph its own y scale (y) */
	int scroll;
	int table_w;           /* the width the table was narrowed for */
	char **lines;          /* table of the current metric */
	int nlines;
	struct ui_screen *scr;
};

static void table_free(struct cmp_view *v)
{
	for (int i = 0; i < v->nlines; i++)
		free(v->lines[i]);
	free(v->lines);
	v->lines = NULL;
	v->nlines = 0;
}

/* The table is the --text one, so screen and mail say the same. */
static void table_build(struct cmp_view *v)
{
	char *buf = NULL, *p, *nl;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	table_free(v);
	v->scroll = 0;
	if (!f)
		return;
	compare_print_text_metric(v->cd, v->metric, f);
	fclose(f);
	for (p = buf; p && *p; p = nl + 1) {
		char **nv;
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p) - 1;
		nv = realloc(v->lines, (size_t)(v->nlines + 1) * sizeof(*nv));
		if (!nv)
			break;
		v->lines = nv;
		v->lines[v->nlines] = strndup(p, (size_t)(nl - p + (*nl != '\n')));
		if (!v->lines[v->nlines])
			break;
		v->nlines++;
	}
	free(buf);
}

/* The --text table is wider than a small terminal (two labels: 117
 * columns) and its right end, the change, is what matters most.  Drop
 * whole columns, the least useful first (hmean, CoV, stddev of every
 * label), until it fits in w: each column spans from the end of the head
 * word before it to the end of its own (all right-aligned), the same in
 * every row from the head row (line 3) on; the labels row above (line 2)
 * is rebuilt with each label right-aligned where its group now ends. */
static void table_narrow_block(struct cmp_view *v, int w, int lab_i, int end)
{
	static const char *const drop[] = { "hmean", "CoV", "stddev" };
	for (size_t d = 0; d < sizeof drop / sizeof drop[0]; d++) {
		int widest = 0;
		for (int i = lab_i; i < end; i++)
			if ((int)strlen(v->lines[i]) > widest)
				widest = (int)strlen(v->lines[i]);
		if (widest <= w)
			return;
		const char *head = v->lines[lab_i + 1];
		int hl = (int)strlen(head), cut_a[32], cut_b[32], nc = 0;
		for (int x = 0, prev_end = 0; x < hl && nc < 32;) {
			while (x < hl && head[x] == ' ')
				x++;
			int st = x;
			while (x < hl && head[x] != ' ')
				x++;
			if (x > st && (size_t)(x - st) == strlen(drop[d]) && !strncmp(head + st, drop[d], (size_t)(x - st))) {
				cut_a[nc] = prev_end;
				cut_b[nc++] = x;
			}
			prev_end = x;
		}
		if (!nc)
			continue;
		/* the labels row: its labels (runs of text between 2+ blanks)
		 * and where each ends, moved left by what goes before it */
		char *lab = v->lines[lab_i], *nl = calloc(strlen(lab) + 1, 1);
		if (!nl)
			return;
		memset(nl, ' ', strlen(lab));
		int ll = (int)strlen(lab), newlen = 0;
		for (int x = 0; x < ll;) {
			while (x < ll && lab[x] == ' ')
				x++;
			int st = x;
			while (x < ll && !(lab[x] == ' ' && (x + 1 >= ll || lab[x + 1] == ' ')))
				x++;
			if (x == st)
				break;
			int shift = 0;
			for (int c = 0; c < nc; c++)
				if (cut_b[c] <= x)
					shift += cut_b[c] - cut_a[c];
			int ne = x - shift, ns = ne - (x - st);
			if (ns < 0)
				ns = 0;
			memcpy(nl + ns, lab + st, (size_t)(x - st));
			if (ns + (x - st) > newlen)
				newlen = ns + (x - st);
		}
		nl[newlen] = '\0';
		free(v->lines[lab_i]);
		v->lines[lab_i] = nl;
		int head_x = (int)strspn(head, " ");
		head_x += (int)strcspn(head + head_x, " ");
		for (int i = lab_i + 1; i < end; i++) {
			char *l = v->lines[i];
			int len = (int)strlen(l), o = 0;
			/* an x wider than its column (134217728) pushes its row
			 * right: the spans move with the end of its first word */
			int row_x = (int)strspn(l, " ");
			row_x += (int)strcspn(l + row_x, " ");
			int off = row_x > head_x ? row_x - head_x : 0;
			for (int x = 0; x < len; x++) {
				bool cut = false;
				for (int c = 0; c < nc && !cut; c++)
					cut = x >= cut_a[c] + off && x < cut_b[c] + off;
				if (!cut)
					l[o++] = l[x];
			}
			l[o] = '\0';
		}
	}
}

/* Every block of the table (one per setting: a labels row, the head row
 * with "mean", its rows up to a blank line), each narrowed on its own. */
static void table_narrow(struct cmp_view *v, int w)
{
	for (int i = 1; i + 1 < v->nlines; i++) {
		if (!strstr(v->lines[i + 1], " mean ") || strstr(v->lines[i], " mean "))
			continue;
		int end = i + 2;
		while (end < v->nlines && v->lines[end][0])
			end++;
		table_narrow_block(v, w, i, end);
		i = end;
	}
}

static char point_mark(const void *ctx, const struct curve_point *p)
{
	(void)ctx;
	return compare_point_mark(p);
}

static void draw_curves(WINDOW *w, const struct cmp_view *v, int y, int h, const struct ui_style *st)
{
	const struct curve_set *cs = &v->cd->curves[v->metric];
	int W = getmaxx(w);

	if (!v->side_by_side || cs->n < 2) {
		struct ui_curves_data d = { .y = y, .x = 0, .w = W, .h = h, .cs = cs,
					    .log2x = v->log2x, .empty = "no results for this metric",
					    .mark = point_mark, .mark_ctx = v->cd };
		ui_curves_widget.draw(w, &d, st);
		return;
	}
	/* small multiples: one label each, side by side for the eye, on one
	 * y scale unless asked (y): 50 ms beside 250 ms must look it; with
	 * knob settings, one graph per setting holding its labels, as the
	 * table's blocks */
	double ymax = 0;
	for (size_t i = 0; !v->own_y && i < cs->n; i++)
		for (size_t k = 0; k < cs->v[i].n; k++)
			ymax = fmax(ymax, fmax(cs->v[i].pts[k].max, cs->v[i].pts[k].mean));
	size_t ngraphs = 0, first[64];
	bool by_setting = stats_block_end(cs, 0) < cs->n;
	for (size_t a = 0; a < cs->n && ngraphs < 64; a = by_setting ? stats_block_end(cs, a) : a + 1)
		first[ngraphs++] = a;
	int n = (int)ngraphs, cw = W / n;
	if (cw < 24) {
		n = W / 24 > 0 ? W / 24 : 1;
		cw = W / n;
	}
	for (int i = 0; i < n; i++) {
		size_t a = first[i], e = by_setting ? stats_block_end(cs, a) : a + 1;
		struct curve_set one = { .v = &cs->v[a], .n = e - a };
		snprintf(one.baseline, sizeof(one.baseline), "%s", cs->baseline);
		struct ui_curves_data d = { .y = y + by_setting, .x = i * cw, .w = cw - 1, .h = h - by_setting,
					    .cs = &one, .log2x = v->log2x, .empty = "", .mark = point_mark,
					    .mark_ctx = v->cd, .ymax = ymax };
		if (by_setting)
			ui_put(w, y, i * cw, cw - 1, st, TE_AXIS, cs->v[a].setting);
		ui_curves_widget.draw(w, &d, st);
	}
	if (n < (int)ngraphs) {
		char more[64];
		snprintf(more, sizeof(more), "(+%zu %s: o overlays all)", ngraphs - (size_t)n,
			 by_setting ? "settings" : "labels");
		ui_put(w, y, W - (int)strlen(more), (int)strlen(more), st, TE_DIM, more);
	}
}

/* Resample a run's series into nsub buckets over [0, tmax]: the largest
 * value in each, so a short spike stays visible. */
static void resample(const double *t, const double *val, size_t n, double tmax, double *out, int nsub)
{
	for (int i = 0; i < nsub; i++)
		out[i] = NAN;
	for (size_t i = 0; i < n; i++) {
		int b = tmax > 0 ? (int)(t[i] / tmax * (nsub - 1)) : 0;
		if (b < 0 || b >= nsub || isnan(val[i]))
			continue;
		if (isnan(out[b]) || val[i] > out[b])
			out[b] = val[i];
	}
}

/* Up to n of cd's runs, fairly across labels: the first run of every
 * label, then the second of every label, and so on; pick[] gets their
 * indexes in cd->runs order.  Returns how many. */
static int compare_screen_pick_runs(const struct compare_data *cd, int n, int *pick)
{
	int np = 0, total = (int)cd->nruns;
	bool *taken = calloc(cd->nruns ? cd->nruns : 1, sizeof *taken);
	if (!taken)
		return 0;
	for (int round = 0; np < n && np < total; round++) {
		/* this round: each label's round-th run */
		for (int i = 0; i < total && np < n; i++) {
			int before = 0;
			for (int j = 0; j < i; j++)
				before += !strcmp(cd->runs[j].label, cd->runs[i].label);
			if (before == round && !taken[i]) {
				taken[i] = true;
				np++;
			}
		}
	}
	np = 0;
	for (int i = 0; i < total; i++)
		if (taken[i])
			pick[np++] = i;
	free(taken);
	return np;
}

static void draw_runs(WINDOW *w, const struct cmp_view *v, int y, int h, const struct ui_style *st)
{
	const struct compare_data *cd = v->cd;
	int W = getmaxx(w), n = (int)cd->nruns, cw, sub = ui_glyph_subcols(st->glyphs);
	double tmax = 0, dmax = 0, pmax = 0;

	if (!n || h < 5)
		return;
	if (W / n < 20)
		n = W / 20 > 0 ? W / 20 : 1;
	cw = W / n;
	/* the runs shown when not all fit: every label's, by turns (its
	 * first run, then every label's second ...), in their order */
	int *pick = calloc(cd->nruns ? cd->nruns : 1, sizeof *pick);
	if (!pick)
		return;
	int np = compare_screen_pick_runs(cd, n, pick);
	for (size_t i = 0; i < cd->nruns; i++)
		for (size_t k = 0; k < cd->runs[i].n; k++) {
			const struct compare_run *r = &cd->runs[i];
			tmax = fmax(tmax, r->t[k]);
			if (!isnan(r->dirty_kb[k]))
				dmax = fmax(dmax, fmax(r->dirty_kb[k], r->thresh_kb[k]));
			pmax = fmax(pmax, r->tput_kBps[k]);
		}
	dmax = ui_nice_ceil(dmax);
	pmax = ui_nice_ceil(pmax);
	int gh = (h - 2) / 2;
	if (gh < 1)
		return;
	for (int i = 0; i < np; i++) {
		const struct compare_run *r = &cd->runs[pick[i]];
		int gw = cw - 1, nsub = gw * sub;
		double *dv = calloc((size_t)nsub, sizeof(double));
		double *tv = calloc((size_t)nsub, sizeof(double));
		double *th = calloc((size_t)nsub, sizeof(double));
		char title[160], a[32], b[32], dur[32];
		if (!dv || !tv || !th || gw < 4) {
			free(dv); free(tv); free(th);
			continue;
		}
		resample(r->t, r->dirty_kb, r->n, tmax, dv, nsub);
		resample(r->t, r->thresh_kb, r->n, tmax, th, nsub);
		resample(r->t, r->tput_kBps, r->n, tmax, tv, nsub);
		ui_fmt_dur(r->n ? r->t[r->n - 1] : 0, dur, sizeof(dur));
		bool failed = r->exit_status > 0 && !r->stopped;
		snprintf(title, sizeof(title), "%s #%d %s%s", r->label, r->index + 1, dur,
			 r->stopped ? " stopped" : failed ? " FAILED" : "");
		ui_put(w, y, i * cw, gw, st, failed ? TE_ERROR : TE_CURVE1 + i % THEME_CURVES, title);
		struct ui_graph_data gd = { .y = y + 1, .x = i * cw, .w = gw, .h = gh, .v = dv,
					    .vmax = dmax, .elem = TE_DIRTY, .n = (size_t)nsub };
		gd.hline[0] = th;
		gd.hline_elem[0] = TE_LINE_THRESH;
		ui_graph_widget.draw(w, &gd, st);
		struct ui_graph_data tg = { .y = y + 1 + gh, .x = i * cw, .w = gw, .h = gh, .v = tv,
					    .vmax = pmax, .elem = TE_WRITE, .n = (size_t)nsub };
		ui_graph_widget.draw(w, &tg, st);
		if (i == 0) {
			ui_fmt_kb(dmax, a, sizeof(a));
			ui_fmt_rate_kb(pmax, b, sizeof(b));
			int hidden = (int)cd->nruns - np;
			snprintf(title, sizeof(title), "dirty+wb (max %s, line: limit) / disks (max %s), from run start%s",
				 a, b, hidden > 0 ? "; more runs than room: each label's first ones" : "");
			ui_put(w, y + 1 + 2 * gh, 0, W, st, TE_DIM, title);
		}
		free(dv);
		free(tv);
		free(th);
	}
	free(pick);
}

static void draw(WINDOW *w, struct cmp_view *v, const struct ui_screen *scr)
{
	const struct ui_style *st = &scr->st;
	int H = getmaxy(w), W = getmaxx(w), y = 0;
	char title[256];
	int ch, rh, th;

	werase(w);
	snprintf(title, sizeof(title), " compare: %s  [%zu/%zu]  %s%s  %s x ", v->cd->metrics[v->metric],
		 v->metric + 1, v->cd->nmetrics, v->side_by_side ? "side by side" : "overlaid",
		 !v->side_by_side ? "" : v->own_y ? ", own y scales" : ", one y scale",
		 v->log2x ? "log2" : "linear");
	ui_title(w, st, title, true);
	y = 1;
	/* heights: curves ~45%, runs ~25% when shown, table the rest */
	ch = (H - 2) * 45 / 100;
	rh = v->show_runs && v->cd->nruns ? (H - 2) * 25 / 100 : 0;
	if (ch < 6)
		ch = H - 2 > 6 ? 6 : H - 2;
	th = H - 2 - ch - rh;
	if (th < 3) {
		rh = 0;
		th = H - 2 - ch;
	}
	draw_curves(w, v, y, ch, st);
	y += ch;
	if (rh) {
		draw_runs(w, v, y, rh, st);
		y += rh;
	}
	if (v->table_w != W) {
		int keep = v->scroll;
		table_build(v);
		table_narrow(v, W);
		v->scroll = keep < v->nlines ? keep : 0;
		v->table_w = W;
	}
	for (int i = 0; i < th && v->scroll + i < v->nlines; i++) {
		const char *line = v->lines[v->scroll + i];
		enum theme_elem e = (v->scroll + i) < 4 ? TE_TABLE_HEAD : strchr(line, '*') ? TE_TABLE_HOT : TE_TEXT;
		ui_put(w, y + i, 0, W, st, e, line);
	}
	if (scr->msg[0])
		ui_put(w, H - 1, 0, W, st, TE_STATUS, scr->msg);
	else
		ui_key_hints(w, H - 1, 1, W - 1, st, ui_compare_keys, ui_compare_nkeys, UI_SCREEN_COMPARE);
	wnoutrefresh(w);
	doupdate();
}

/* ---- keys ---- */

static enum ui_key_result key_quit(void *ctx, int ch)
{
	return UI_KEY_QUIT;
}

static enum ui_key_result key_metric(void *ctx, int ch)
{
	struct cmp_view *v = ctx;
	size_t n = v->cd->nmetrics;
	bool next = ch == 'n' || ch == '\t' || ch == KEY_RIGHT;
	v->metric = (v->metric + (next ? 1 : n - 1)) % n;
	table_build(v);
	v->table_w = 0;   /* narrowed at the next draw */
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_overlay(void *ctx, int ch)
{
	struct cmp_view *v = ctx;
	v->side_by_side = !v->side_by_side;
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_own_y(void *ctx, int ch)
{
	struct cmp_view *v = ctx;
	v->own_y = !v->own_y;
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_log2(void *ctx, int ch)
{
	struct cmp_view *v = ctx;
	v->log2x = !v->log2x;
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_runs(void *ctx, int ch)
{
	struct cmp_view *v = ctx;
	v->show_runs = !v->show_runs;
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_table(void *ctx, int ch)
{
	struct cmp_view *v = ctx;
	switch (ch) {
	case KEY_DOWN: case 'j': if (v->scroll + 1 < v->nlines) v->scroll++; break;
	case KEY_UP: case 'k': if (v->scroll > 0) v->scroll--; break;
	case KEY_NPAGE: v->scroll = v->scroll + 10 < v->nlines ? v->scroll + 10 : (v->nlines ? v->nlines - 1 : 0); break;
	case KEY_PPAGE: v->scroll = v->scroll > 10 ? v->scroll - 10 : 0; break;
	}
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_theme(void *ctx, int ch)
{
	struct cmp_view *v = ctx;
	ui_screen_next_theme(v->scr);
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_repaint(void *ctx, int ch)
{
	clearok(curscr, TRUE);
	return UI_KEY_REDRAW;
}

/* The compare screen's keys, in the order of the status bar's hints. */
const struct ui_key_def ui_compare_keys[] = {
	{ { 'q', 'Q', 27 }, "q", "quit", "quit (Esc too)", UI_SCREEN_COMPARE, key_quit },
	{ { 'n', 'p', '\t', KEY_BTAB, KEY_RIGHT, KEY_LEFT }, "n/p", "metric",
	  "next / previous metric (tab, shift-tab, right, left too)", UI_SCREEN_COMPARE, key_metric },
	{ { 'o' }, "o", "overlay/side", "curves overlaid or side by side", UI_SCREEN_COMPARE,
	  key_overlay },
	{ { 'y' }, "y", "y scale", "side by side: one y scale for all, or each its own",
	  UI_SCREEN_COMPARE, key_own_y },
	{ { 'l' }, "l", "log2 x", "linear or log2 x axis", UI_SCREEN_COMPARE, key_log2 },
	{ { 'r' }, "r", "runs", "show/hide the runs' dirty memory and throughput",
	  UI_SCREEN_COMPARE, key_runs },
	{ { KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, 'j', 'k' }, "\xe2\x86\x91\xe2\x86\x93", "table",
	  "scroll the table (PgUp, PgDn, j, k too)", UI_SCREEN_COMPARE, key_table },
	{ { 't' }, "t", "theme", "next theme (themes/*.theme)", UI_SCREEN_COMPARE, key_theme },
	{ { 12 }, "Ctrl-L", NULL, "repaint the whole screen", UI_SCREEN_COMPARE, key_repaint },
};
const size_t ui_compare_nkeys = sizeof ui_compare_keys / sizeof ui_compare_keys[0];

/* Sweeps double their x (1, 2, 4 ... 128 clients): a linear axis crams
 * half the points into the first few columns, so such data opens on log2. */
static bool x_spans_octaves(const struct compare_data *cd)
{
	double lo = 0, hi = 0;

	for (size_t i = 0; i < cd->results.n; i++) {
		double x = cd->results.v[i].x;
		if (!(x > 0))
			return false;
		if (lo == 0 || x < lo)
			lo = x;
		if (x > hi)
			hi = x;
	}
	return lo > 0 && hi / lo >= 16;
}

int ui_compare_run(const struct compare_data *cd, const struct ui_look *look, bool log2x)
{
	struct ui_screen scr;
	struct cmp_view v = { .cd = cd, .show_runs = true, .scr = &scr };
	/* knob settings: a graph per setting, as the table's blocks */
	v.side_by_side = cd->nmetrics && cd->curves[0].n && stats_block_end(&cd->curves[0], 0) < cd->curves[0].n;
	bool quit = false;

	if (!cd || !cd->nmetrics)
		return 1;
	v.log2x = log2x || x_spans_octaves(cd);
	memset(&scr, 0, sizeof(scr));
	if (ui_screen_open(&scr, look))
		return 1;
	nodelay(stdscr, FALSE);   /* nothing changes unless a key comes */
	keypad(stdscr, TRUE);
	table_build(&v);
	while (!quit) {
		int key;
		draw(stdscr, &v, &scr);
		key = getch();
		if (key == ERR) {
			quit = true;                /* the terminal went away */
			continue;
		}
		const struct ui_key_def *k = ui_key_find(ui_compare_keys, ui_compare_nkeys,
							 UI_SCREEN_COMPARE, key);
		if (k && k->handler(&v, key) == UI_KEY_QUIT)
			quit = true;
	}
	table_free(&v);
	ui_screen_close(&scr);
	return 0;
}
