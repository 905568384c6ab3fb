/* ui_draw: see src/ui/draw.h.  Pure: no curses. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/parsers/units.h"
#include "iodash/base/text.h"
#include "ui/draw.h"

int ui_grid_init(struct ui_grid *g, int w, int h)
{
	g->w = w > 0 ? w : 0;
	g->h = h > 0 ? h : 0;
	size_t n = (size_t)g->w * g->h;
	/* not calloc: the clear below sets every cell (a graph's grid is
	 * made each frame: zeroing it first was work done twice) */
	g->c = malloc((n + 1) * sizeof *g->c);
	if (!g->c) {
		g->w = g->h = 0;
		return -ENOMEM;
	}
	g->c[n] = (struct ui_cell){ 0 };
	ui_grid_clear(g, TE_TEXT);
	return 0;
}

void ui_grid_free(struct ui_grid *g)
{
	free(g->c);
	g->c = NULL;
	g->w = g->h = 0;
}

void ui_grid_clear(struct ui_grid *g, uint8_t elem)
{
	for (size_t i = 0; i < (size_t)g->w * g->h; i++)
		g->c[i] = (struct ui_cell){ ' ', elem, 0 };
}

/* One code point from s (at most n bytes); *len its length; 0xFFFD when
 * malformed (len 1), so a bad byte never swallows good ones. */
static uint32_t utf8_next(const unsigned char *s, size_t n, size_t *len)
{
	uint32_t c = s[0];
	size_t need;
	if (c < 0x80) {
		*len = 1;
		return c;
	} else if ((c & 0xe0) == 0xc0) {
		need = 2;
		c &= 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		need = 3;
		c &= 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		need = 4;
		c &= 0x07;
	} else {
		*len = 1;
		return 0xfffd;
	}
	if (need > n) {
		*len = 1;
		return 0xfffd;
	}
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*len = 1;
			return 0xfffd;
		}
		c = c << 6 | (s[i] & 0x3f);
	}
	static const uint32_t minv[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (c < minv[need] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
		*len = 1;
		return 0xfffd;
	}
	*len = need;
	return c;
}

/* Columns a code point takes: 2 for the wide East Asian and emoji
 * blocks, 0 for what we will not print (controls, combining marks). */
static int cp_width(uint32_t c)
{
	if (c >= 0x20 && c < 0x7f)
		return 1;       /* most of what is drawn: ASCII past the ranges below */
	if (c < 0x20 || (c >= 0x7f && c < 0xa0))
		return 0;
	if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) || c == 0xfeff)
		return 0;
	if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf && c != 0x303f) ||
	    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	    (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	    (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1faff) ||
	    (c >= 0x20000 && c <= 0x3fffd))
		return 2;
	return 1;
}

int ui_sanitize(const char *s, uint32_t *out, int outmax, int maxcols, bool ascii, int *cols)
{
	size_t n = strlen(s);
	int k = 0;
	*cols = 0;
	for (size_t i = 0; i < n && *cols < maxcols && k < outmax;) {
		size_t len;
		uint32_t c = utf8_next((const unsigned char *)s + i, n - i, &len);
		i += len;
		if (c == '\t')
			c = ' ';
		int w = cp_width(c);
		if (c == 0xfffd || w == 0 || (ascii && c >= 0x80)) {
			c = '?';
			w = 1;
		}
		if (*cols + w > maxcols)
			break;
		out[k++] = c;
		*cols += w;
	}
	return k;
}

int ui_grid_text(struct ui_grid *g, int x, int y, int maxw, const char *s, uint8_t elem)
{
	int used = 0;
	size_t n = strlen(s);
	for (size_t i = 0; i < n && used < maxw;) {
		size_t len;
		uint32_t c = utf8_next((const unsigned char *)s + i, n - i, &len);
		i += len;
		if (cp_width(c) != 1)
			c = '?';
		struct ui_cell *cell = ui_grid_at(g, x + used, y);
		if (!cell)
			break;
		cell->ch = c;
		cell->elem = elem;
		used++;
	}
	return used;
}

int ui_glyph_subcols(enum ui_glyphs gl)
{
	return gl == UI_GLYPH_BRAILLE ? 2 : 1;
}

int ui_glyph_subrows(enum ui_glyphs gl)
{
	return gl == UI_GLYPH_BRAILLE ? 4 : gl == UI_GLYPH_BLOCK ? 8 : 3;
}

/* Braille dot bits by column (0 left, 1 right) and dot row from the top. */
static const uint8_t braille_bit[2][4] = {
	{ 0x01, 0x02, 0x04, 0x40 },
	{ 0x08, 0x10, 0x20, 0x80 },
};

static bool is_braille(uint32_t c)
{
	return c >= 0x2800 && c <= 0x28ff;
}

static int level_of(double v, double vmax, int levels)
{
	if (!(v > 0) || !(vmax > 0))
		return 0;
	double f = v / vmax * levels;
	int l = (int)lround(f);
	if (l < 1)
		l = 1;
	return l > levels ? levels : l;
}

void ui_graph_area(struct ui_grid *g, struct ui_area a, const double *v, size_t nv,
		   double vmax, bool down, enum ui_glyphs gl, uint8_t elem)
{
	int sc = ui_glyph_subcols(gl), sr = ui_glyph_subrows(gl);
	for (int cx = 0; cx < a.w; cx++) {
		int lv[2] = { 0, 0 };
		bool any = false;
		for (int k = 0; k < sc; k++) {
			size_t i = (size_t)cx * sc + k;
			if (i < nv && v[i] == v[i] && v[i] >= 0) {
				lv[k] = level_of(v[i], vmax, a.h * sr);
				any |= lv[k] > 0;
			}
		}
		if (!any)
			continue;
		for (int r = 0; r < a.h; r++) {
			/* r counts cells from the base (bottom, or top when down) */
			int y = down ? a.y + r : a.y + a.h - 1 - r;
			struct ui_cell *cell = ui_grid_at(g, a.x + cx, y);
			if (!cell)
				continue;
			uint32_t ch = 0;
			if (gl == UI_GLYPH_BRAILLE) {
				unsigned bits = 0;
				for (int k = 0; k < 2; k++) {
					int d = lv[k] - r * 4;
					d = d < 0 ? 0 : d > 4 ? 4 : d;
					for (int j = 0; j < d; j++)
						bits |= braille_bit[k][down ? j : 3 - j];
				}
				if (bits)
					ch = 0x2800 + bits;
			} else {
				int d = lv[0] - r * sr;
				if (d <= 0)
					continue;
				if (gl == UI_GLYPH_BLOCK)
					ch = d >= 8 ? 0x2588 : down ? (d >= 4 ? 0x2580 : 0x2594)
								: 0x2580 + (uint32_t)d;
				else
					ch = d >= 3 ? '#' : down ? (d == 2 ? '"' : '\'')
								 : (d == 2 ? ':' : '.');
			}
			if (ch) {
				cell->ch = ch;
				cell->elem = elem;
			}
		}
	}
}

int ui_graph_row_of(double v, double vmax, int h)
{
	if (!(vmax > 0) || !(v >= 0) || v > vmax * 1.0001)
		return -1;
	int r = (int)((1.0 - v / vmax) * h);
	if (r >= h)
		r = h - 1;
	return r < 0 ? 0 : r;
}

void ui_graph_hline(struct ui_grid *g, struct ui_area a, const double *v, size_t nv,
		    double vmax, enum ui_glyphs gl, uint8_t elem)
{
	int sc = ui_glyph_subcols(gl);
	for (int cx = 0; cx < a.w; cx++) {
		double val = NAN;
		for (int k = 0; k < sc; k++) {
			size_t i = (size_t)cx * sc + k;
			if (i < nv && v[i] == v[i])
				val = v[i];
		}
		if (val != val || !(vmax > 0) || val < 0 || val > vmax * 1.0001)
			continue;
		/* dot row from the top of the area, in quarter cells */
		int dots = a.h * 4;
		int d = (int)((1.0 - val / vmax) * dots);
		if (d >= dots)
			d = dots - 1;
		if (d < 0)
			d = 0;
		int y = a.y + d / 4;
		struct ui_cell *cell = ui_grid_at(g, a.x + cx, y);
		if (!cell)
			continue;
		if (gl == UI_GLYPH_BRAILLE) {
			unsigned bits = braille_bit[0][d % 4] | braille_bit[1][d % 4];
			cell->ch = 0x2800 + ((is_braille(cell->ch) ? cell->ch - 0x2800 : 0) | bits);
		} else if (cell->ch == ' ') {
			cell->ch = gl == UI_GLYPH_BLOCK ? 0x2500 : '-';
		}
		cell->elem = elem;
	}
}

void ui_graph_shade(struct ui_grid *g, struct ui_area a, const bool *shade, size_t n,
		    enum ui_glyphs gl, bool fill)
{
	int sc = ui_glyph_subcols(gl);
	for (int cx = 0; cx < a.w; cx++) {
		bool on = false;
		for (int k = 0; k < sc; k++) {
			size_t i = (size_t)cx * sc + k;
			on |= i < n && shade[i];
		}
		if (!on)
			continue;
		for (int r = 0; r < a.h; r++) {
			struct ui_cell *cell = ui_grid_at(g, a.x + cx, a.y + r);
			if (!cell)
				continue;
			cell->flags |= UI_CELL_SHADE;
			/* Without a background colour a shade must still show:
			 * empty cells get a faint fill in the shade's element. */
			if (fill && cell->ch == ' ') {
				cell->ch = gl == UI_GLYPH_ASCII ? ':' : 0x2591;
				cell->elem = TE_SHADE;
			}
		}
	}
}

void ui_gauge_render(struct ui_grid *g, struct ui_area a, const struct ui_gauge_vals *v,
		     enum ui_glyphs gl)
{
	if (a.w <= 0 || a.h <= 0 || !(v->scale_kb > 0))
		return;
	bool utf = gl != UI_GLYPH_ASCII;
	int w = a.w;
	int nd = (int)lround(v->dirty_kb / v->scale_kb * w);
	int nt = (int)lround((v->dirty_kb + v->writeback_kb) / v->scale_kb * w);
	nd = nd < 0 ? 0 : nd > w ? w : nd;
	nt = nt < nd ? nd : nt > w ? w : nt;
	for (int x = 0; x < w; x++) {
		struct ui_cell *c = ui_grid_at(g, a.x + x, a.y);
		if (!c)
			break;
		if (x < nd)
			*c = (struct ui_cell){ utf ? 0x2588 : '#', TE_DIRTY, 0 };
		else if (x < nt)
			*c = (struct ui_cell){ utf ? 0x2593 : '=', TE_WRITEBACK, 0 };
		else
			*c = (struct ui_cell){ utf ? 0x2500 : '-', TE_GAUGE_EMPTY, 0 };
	}
	struct mk { double kb; uint8_t elem; const char *name; uint32_t ch; } mk[3] = {
		{ v->bg_kb, TE_LINE_BG, "bg", utf ? 0x2502 : '|' },
		{ v->freerun_kb, TE_LINE_FREERUN, "freerun", utf ? 0x2502 : '|' },
		{ v->thresh_kb, TE_LINE_THRESH, "thresh", utf ? 0x2503 : '|' },
	};
	int col[3];
	for (int i = 0; i < 3; i++) {
		col[i] = -1;
		if (!(mk[i].kb > 0) || mk[i].kb > v->scale_kb)
			continue;
		col[i] = (int)lround(mk[i].kb / v->scale_kb * w);
		if (col[i] >= w)
			col[i] = w - 1;
		struct ui_cell *c = ui_grid_at(g, a.x + col[i], a.y);
		if (c)
			*c = (struct ui_cell){ mk[i].ch, mk[i].elem, 0 };
	}
	if (a.h < 2)
		return;
	/* Labels under their markers, thresh first (it matters most), then
	 * freerun, then bg: the full "freerun 192M" or just the name, starting
	 * at the marker or ending at it, never over another label. */
	int lx[3], lw[3], placed = 0;
	for (int i = 2; i >= 0; i--) {
		if (col[i] < 0)
			continue;
		char full[48], val[16];
		ui_fmt_kb(mk[i].kb, val, sizeof val);
		snprintf(full, sizeof full, "%s %s", mk[i].name, val);
		const char *opts[2] = { full, mk[i].name };
		for (int k = 0; k < 4; k++) {
			const char *t = opts[k / 2];
			int len = (int)strlen(t);
			int x = k % 2 ? col[i] - len + 1 : col[i];
			if (x < 0 || x + len > w)
				continue;
			bool clash = false;
			for (int j = 0; j < placed && !clash; j++)
				clash = x < lx[j] + lw[j] + 1 && lx[j] < x + len + 1;
			if (clash)
				continue;
			ui_grid_text(g, a.x + x, a.y + 1, len, t, mk[i].elem);
			lx[placed] = x;
			lw[placed++] = len;
			break;
		}
	}
}

/* Axis ceilings in the unit the value is shown in (K, M, G ... of 1024),
 * so a scale reads "2.5G/s", not "4.8G/s"; the next unit from 1000 on,
 * as text_fmt_si writes it ("1.0G/s", not "1000M/s"). */
double ui_nice_ceil_kb(double kb)
{
	double u = 1;
	while (kb >= 1000 * u && u < 1e15)
		u *= 1024;
	double c = ui_nice_ceil(kb / u) * u;
	/* 900M rounds up to 1000M: that is the next unit's 1 */
	if (c >= 1000 * u && u < 1e15)
		c = ui_nice_ceil(c / (u * 1024)) * u * 1024;
	return c;
}

double ui_nice_ceil(double v)
{
	if (!(v > 0))
		return 1;
	double e = pow(10, floor(log10(v)));
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
		if (steps[i] * e >= v * (1 - 1e-9))
			return steps[i] * e;
	return 10 * e;
}

/* kB figures in narrow columns: the one formatter (text_fmt_si), compact */
void ui_fmt_kb(double kb, char *buf, size_t len)
{
	if (!(kb == kb) || kb < 0) {
		snprintf(buf, len, "n/a");
		return;
	}
	text_fmt_si(kb, 1024, 1, "", true, buf, len);
}

void ui_fmt_rate_kb(double kb_s, char *buf, size_t len)
{
	if (!(kb_s == kb_s) || kb_s < 0) {
		snprintf(buf, len, "n/a");
		return;
	}
	text_fmt_si(kb_s, 1024, 1, "/s", true, buf, len);
}

/* A benchmark's figure in its own unit ("KiB/s", "MB/s", "ops/s"): a
 * byte rate as bytes per second in binary units ("1.46 GiB/s"), anything
 * else in decimal prefixes before its unit. */
void ui_fmt_value(double v, const char *unit, char *buf, size_t len)
{
	double f = unit ? units_get_factor(unit, UNITS_RATE) : 0;
	if (f > 0)
		text_fmt_si(v * f, 1024, 0, "B/s", false, buf, len);
	else
		text_fmt_si(v, 1000, 0, unit ? unit : "", false, buf, len);
}

void ui_fmt_dur(double s, char *buf, size_t len)
{
	if (!(s >= 0))
		s = 0;
	long t = (long)s;
	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}
