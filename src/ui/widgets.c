/* Widgets: each renders its data into a window with the theme's styles.
 * Graphs and gauges go through a cell grid (ui_draw.c, pure) so what they
 * draw is tested without a terminal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/results/compare.h"
#include "ui/layout.h"
#include "iodash/base/text.h"
#include "ui/frame.h"
#include "ui_screen.h"

static void graph_draw(WINDOW *w, const void *data, const struct ui_style *st)
{
	const struct ui_graph_data *d = data;
	if (d->w <= 0 || d->h <= 0)
		return;
	struct ui_grid g;
	if (ui_grid_init(&g, d->w, d->h))
		return;
	if (d->shade)
		ui_graph_shade(&g, (struct ui_area){ 0, 0, d->w, d->h }, d->shade, d->n, st->glyphs,
			       st->shaded[TE_TEXT] == st->attr[TE_TEXT]);
	if (d->v_down) {
		int up = (d->h + 1) / 2;
		ui_graph_area(&g, (struct ui_area){ 0, 0, d->w, up }, d->v, d->n, d->vmax, false,
			      st->glyphs, (uint8_t)d->elem);
		ui_graph_area(&g, (struct ui_area){ 0, up, d->w, d->h - up }, d->v_down, d->n,
			      d->vmax, true, st->glyphs, (uint8_t)d->elem_down);
	} else {
		ui_graph_area(&g, (struct ui_area){ 0, 0, d->w, d->h }, d->v, d->n, d->vmax, false,
			      st->glyphs, (uint8_t)d->elem);
	}
	for (int i = 0; i < 3; i++)
		if (d->hline[i])
			ui_graph_hline(&g, (struct ui_area){ 0, 0, d->w, d->h }, d->hline[i], d->n,
				       d->vmax, st->glyphs, (uint8_t)d->hline_elem[i]);
	ui_blit(w, d->y, d->x, &g, st);
	ui_grid_free(&g);
}

static void gauge_draw(WINDOW *w, const void *data, const struct ui_style *st)
{
	const struct ui_gauge_data *d = data;
	if (d->w <= 0 || d->h <= 0)
		return;
	struct ui_grid g;
	if (ui_grid_init(&g, d->w, d->h > 2 ? 2 : d->h))
		return;
	ui_gauge_render(&g, (struct ui_area){ 0, 0, g.w, g.h }, &d->v, st->glyphs);
	ui_blit(w, d->y, d->x, &g, st);
	ui_grid_free(&g);
}

static void table_draw(WINDOW *w, const void *data, const struct ui_style *st)
{
	const struct ui_table_data *d = data;
	/* the columns that fit: from the left, or the most useful (keep) */
	int col[64], ncols = 0, used = 0;   /* layout_table_columns takes 64 */
	int nc = d->ncols < (int)(sizeof col / sizeof col[0]) ? d->ncols : (int)(sizeof col / sizeof col[0]);
	if (d->keep) {
		ncols = layout_table_columns(d->width, d->keep, nc, d->w, col);
	} else {
		for (int c = 0; c < nc; c++) {
			int need = d->width[c] + (c ? 1 : 0);
			if (used + need > d->w)
				break;
			used += need;
			col[ncols++] = c;
		}
	}
	char buf[64];
	for (int r = -1; r < d->nrows && r + 1 < d->h; r++) {
		int x = d->x;
		for (int i = 0; i < ncols; i++) {
			int c = col[i];
			enum theme_elem e = r < 0 ? TE_TABLE_HEAD : TE_TEXT;
			const char *s = r < 0 ? d->head[c] : d->cell(d->ctx, r, c, &e);
			int cw = d->width[c];
			/* the gap goes with the cell: a blank of another
			 * attribute between cells costs an attribute reset
			 * per cell on the wire */
			if (i == 0) {
				snprintf(buf, sizeof buf, "%-*.*s", cw, cw, s);
				ui_put(w, d->y + r + 1, x, cw, st, e, buf);
			} else {
				snprintf(buf, sizeof buf, " %*.*s", cw, cw, s);
				ui_put(w, d->y + r + 1, x - 1, cw + 1, st, e, buf);
			}
			x += cw + 1;
		}
	}
}

/* A message over several rows, broken at blanks. */
static void put_wrapped(WINDOW *w, int y, int x, int wd, int h, const struct ui_style *st,
			enum theme_elem e, const char *s)
{
	char line[512];
	for (int r = 0; r < h && *s && wd > 0; r++) {
		while (*s == ' ')
			s++;
		int n = (int)strlen(s);
		if (n > wd) {
			n = wd;
			while (n > 0 && s[n] != ' ')
				n--;
			if (n == 0)
				n = wd;
		}
		if (n > (int)sizeof line - 1)
			n = (int)sizeof line - 1;
		memcpy(line, s, (size_t)n);
		line[n] = '\0';
		ui_put(w, y + r, x, wd, st, e, line);
		s += n;
	}
}

static void text_draw(WINDOW *w, const void *data, const struct ui_style *st)
{
	const struct ui_text_data *d = data;
	if (d->ntext <= 0) {
		if (d->empty && d->h > 0)
			put_wrapped(w, d->y, d->x, d->w, d->h, st, TE_DIM, d->empty);
		return;
	}
	int first = d->ntext > d->h ? d->ntext - d->h : 0;
	if (d->follow) {
		uint64_t f = layout_tail_first(d->abs0 + (uint64_t)d->ntext, d->h);
		first = f > d->abs0 ? (int)(f - d->abs0) : 0;
	}
	for (int i = first; i < d->ntext && i - first < d->h; i++)
		ui_put(w, d->y + i - first, d->x, d->w, st, d->elem, d->text[i]);
}

/* Curves on a braille (or plain) dot canvas: the mean of each label as a
 * line through its points, the min..max spread as a bar at each x. */
struct canvas {
	struct ui_grid *g;
	int ox, oy, w, h, sc, sr;
	enum ui_glyphs gl;
};

static void canvas_dot(struct canvas *cv, int dx, int dy, uint8_t elem)
{
	if (dx < 0 || dy < 0 || dx >= cv->w * cv->sc || dy >= cv->h * cv->sr)
		return;
	struct ui_cell *c = ui_grid_at(cv->g, cv->ox + dx / cv->sc, cv->oy + dy / cv->sr);
	if (!c)
		return;
	if (cv->gl == UI_GLYPH_BRAILLE) {
		static const uint8_t bit[2][4] = { { 0x01, 0x02, 0x04, 0x40 }, { 0x08, 0x10, 0x20, 0x80 } };
		uint32_t base = (c->ch >= 0x2800 && c->ch <= 0x28ff) ? c->ch - 0x2800 : 0;
		c->ch = 0x2800 + (base | bit[dx % 2][dy % 4]);
	} else {
		c->ch = cv->gl == UI_GLYPH_BLOCK ? 0x2022 : '*';
	}
	c->elem = elem;
}

static void canvas_line(struct canvas *cv, int x0, int y0, int x1, int y1, uint8_t elem)
{
	int dx = abs(x1 - x0), dy = -abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
	int err = dx + dy;
	for (int guard = 0; guard < 4096; guard++) {
		canvas_dot(cv, x0, y0, elem);
		if (x0 == x1 && y0 == y1)
			break;
		int e2 = 2 * err;
		if (e2 >= dy) {
			err += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			err += dx;
			y0 += sy;
		}
	}
}

/* The plot area of the curves widget: where a point's x and y land. */
struct curves_plot {
	double xmin, xspan, ymax;
	int axis_w, ph, pw;    /* the y axis's width; the plot's rows and columns */
	int dw, dh;            /* the last dot column and row */
	int sc, sr;            /* dots a cell across and down */
	bool log2x;
};

/* A sweep's x on the plot's scale: log2 when it doubles. */
static double curves_xv(const struct curves_plot *pl, double x)
{
	return pl->log2x && x > 0 ? log2(x) : x;
}

static int curves_dot_x(const struct curves_plot *pl, double x)
{
	return (int)lround((curves_xv(pl, x) - pl->xmin) / pl->xspan * pl->dw);
}

static int curves_dot_y(const struct curves_plot *pl, double y)
{
	return (int)lround((1 - y / pl->ymax) * pl->dh);
}

/* Legend: one line, as many labels as fit; each says its runs per
 * point and in all (a sweep's "2 runs" are 2 at each of its points). */
static void curves_draw_legend(WINDOW *w, const struct ui_curves_data *d, const struct ui_style *st)
{
	const struct curve_set *cs = d->cs;
	int x = d->x;

	for (size_t i = 0; i < cs->n && x < d->x + d->w; i++) {
		char lab[2 * RP_LABEL_LEN + 64], runs[48];
		frame_curve_runs_text(&cs->v[i], runs, sizeof runs);
		/* a setting beside the label when the curves span several */
		bool set = cs->v[i].setting[0] && stats_block_end(cs, 0) < cs->n;
		snprintf(lab, sizeof lab, "%s%s%s%s (%s)", i ? "  " : "", cs->v[i].label, set ? " " : "",
			 set ? cs->v[i].setting : "", runs);
		x += ui_put(w, d->y, x, d->x + d->w - x, st, TE_CURVE1 + (int)(i % THEME_CURVES), lab);
	}
}

/* The plot's scales from the points (ymax from the caller when it
 * shares a scale); false when there is no room or no point. */
static bool curves_fit(const struct ui_curves_data *d, const struct ui_style *st, struct curves_plot *pl)
{
	const struct curve_set *cs = d->cs;
	double xmin = INFINITY, xmax = -INFINITY, ymax = 0;

	pl->log2x = d->log2x;
	for (size_t i = 0; i < cs->n; i++)
		for (size_t k = 0; k < cs->v[i].n; k++) {
			const struct curve_point *p = &cs->v[i].pts[k];
			double xv = curves_xv(pl, p->x);
			xmin = fmin(xmin, xv);
			xmax = fmax(xmax, xv);
			ymax = fmax(ymax, fmax(p->max, p->mean));
		}
	if (d->ymax > 0)
		ymax = d->ymax;   /* a scale shared with the graphs beside */
	pl->axis_w = 8;
	pl->ph = d->h - 3;
	pl->pw = d->w - pl->axis_w;
	if (pl->ph < 1 || pl->pw < 4 || !(xmax >= xmin))
		return false;
	pl->ymax = ui_nice_ceil(ymax);
	pl->xmin = xmin;
	pl->xspan = xmax > xmin ? xmax - xmin : 1;
	pl->sc = ui_glyph_subcols(st->glyphs);
	pl->sr = st->glyphs == UI_GLYPH_BRAILLE ? 4 : 1;
	pl->dw = pl->pw * pl->sc - 1;
	pl->dh = pl->ph * pl->sr - 1;
	return true;
}

/* Each label's means joined by a line, its min..max as a bar where it
 * has two runs or more. */
static void curves_plot_lines(struct canvas *cv, const struct curve_set *cs, const struct curves_plot *pl)
{
	for (size_t i = 0; i < cs->n; i++) {
		uint8_t e = (uint8_t)(TE_CURVE1 + (int)(i % THEME_CURVES));
		int px = -1, py = -1;
		for (size_t k = 0; k < cs->v[i].n; k++) {
			const struct curve_point *p = &cs->v[i].pts[k];
			int cx = curves_dot_x(pl, p->x);
			int cy = curves_dot_y(pl, p->mean);
			if (p->n >= 2)
				canvas_line(cv, cx, curves_dot_y(pl, p->max), cx, curves_dot_y(pl, p->min), e);
			if (px >= 0)
				canvas_line(cv, px, py, cx, cy, e);
			else
				canvas_dot(cv, cx, cy, e);
			px = cx;
			py = cy;
		}
	}
}

/* The verdict of each point's runs, on the point: T C D, + mixed;
 * true when any point has one. */
static bool curves_draw_marks(WINDOW *w, const struct ui_curves_data *d, const struct ui_style *st,
			      const struct curves_plot *pl)
{
	const struct curve_set *cs = d->cs;
	bool marked = false;

	for (size_t i = 0; d->mark && i < cs->n; i++)
		for (size_t k = 0; k < cs->v[i].n; k++) {
			const struct curve_point *p = &cs->v[i].pts[k];
			char mk = d->mark(d->mark_ctx, p);
			if (!mk)
				continue;
			int cx = curves_dot_x(pl, p->x) / pl->sc;
			int cy = curves_dot_y(pl, p->mean) / pl->sr;
			char s[2] = { mk, 0 };
			ui_put(w, d->y + 1 + cy, d->x + pl->axis_w + cx, 1, st, TE_CURVE1 + (int)(i % THEME_CURVES), s);
			marked = true;
		}
	return marked;
}

/* Every swept value of the curves once, ascending, at most max. */
static int curves_collect_xs(const struct curve_set *cs, double *xs, int max)
{
	int nx = 0;

	for (size_t i = 0; i < cs->n; i++)
		for (size_t k = 0; k < cs->v[i].n && nx < max; k++) {
			int j = 0;
			while (j < nx && xs[j] != cs->v[i].pts[k].x)
				j++;
			if (j == nx)
				xs[nx++] = cs->v[i].pts[k].x;
		}
	for (int a = 1; a < nx; a++)   /* ascending: few values, insertion sort */
		for (int b = a; b > 0 && xs[b - 1] > xs[b]; b--) {
			double t = xs[b];
			xs[b] = xs[b - 1];
			xs[b - 1] = t;
		}
	return nx;
}

/* x axis: every swept value whose label fits (each centred on its
 * point, a blank from the one before), then the x name at the right
 * when there is room. */
static void curves_draw_x_axis(WINDOW *w, const struct ui_curves_data *d, const struct ui_style *st,
			       const struct curves_plot *pl)
{
	const struct curve *c0 = &d->cs->v[0];
	char xl[96];
	double xs[256];
	int nx = curves_collect_xs(d->cs, xs, 256);
	int ax = d->y + pl->ph + 1, x0 = d->x + pl->axis_w, next = x0;
	int name_len = (int)strlen(c0->x_name);

	for (int j = 0; j < nx; j++) {
		int cx = x0 + curves_dot_x(pl, xs[j]) / pl->sc;
		compare_format_x(xl, sizeof xl, xs[j]);
		int len = (int)strlen(xl), lx = cx - len / 2;
		if (lx < x0)
			lx = x0;
		if (lx + len > d->x + d->w)
			lx = d->x + d->w - len;
		if (lx < next)
			continue;
		ui_put(w, ax, lx, len, st, TE_AXIS, xl);
		next = lx + len + 1;
	}
	if (name_len && next + name_len <= d->x + d->w)
		ui_put(w, ax, d->x + d->w - name_len, name_len, st, TE_DIM, c0->x_name);
	else if (name_len && x0 > name_len)
		ui_put(w, ax, d->x + pl->axis_w - 1 - name_len, name_len, st, TE_DIM, c0->x_name);
}

static void curves_draw(WINDOW *w, const void *data, const struct ui_style *st)
{
	const struct ui_curves_data *d = data;
	const struct curve_set *cs = d->cs;
	struct curves_plot pl;

	if (!cs || !cs->n) {
		if (d->h > 0)
			put_wrapped(w, d->y, d->x, d->w, d->h, st, TE_DIM,
				    d->empty ? d->empty : "no results yet");
		return;
	}
	curves_draw_legend(w, d, st);
	if (!curves_fit(d, st, &pl))
		return;
	char yl[32], yv[24];
	text_fmt_si(pl.ymax, 1000, 0, "", false, yv, sizeof yv);
	snprintf(yl, sizeof yl, "%7.7s", yv);
	ui_put(w, d->y + 1, d->x, pl.axis_w, st, TE_AXIS, yl);
	ui_put(w, d->y + pl.ph, d->x, pl.axis_w, st, TE_AXIS, "      0");
	struct ui_grid g;
	if (ui_grid_init(&g, pl.pw, pl.ph))
		return;
	struct canvas cv = { &g, 0, 0, pl.pw, pl.ph, pl.sc, pl.sr, st->glyphs };
	curves_plot_lines(&cv, cs, &pl);
	ui_blit(w, d->y + 1, d->x + pl.axis_w, &g, st);
	ui_grid_free(&g);
	bool marked = curves_draw_marks(w, d, st, &pl);
	curves_draw_x_axis(w, d, st, &pl);
	/* the marks' key first: a narrow graph (one of several side by
	 * side) cuts the end of the line */
	char key[96];
	snprintf(key, sizeof key, "%s (%s)%s, mean of runs, bars min..max", cs->v[0].metric, cs->v[0].unit,
		 marked ? ": T throttled C cache D device + mixed" : "");
	ui_put(w, d->y + pl.ph + 2, d->x + pl.axis_w, pl.pw, st, TE_DIM, key);
}

const struct ui_widget ui_graph_widget = { "graph", graph_draw };
const struct ui_widget ui_gauge_widget = { "gauge", gauge_draw };
const struct ui_widget ui_table_widget = { "table", table_draw };
const struct ui_widget ui_text_widget = { "text", text_draw };
const struct ui_widget ui_curves_widget = { "curves", curves_draw };
