/* ui_draw: the pure half of the widgets.  Graphs, gauges and number
 * formats are rendered into a grid of cells (code point + theme element),
 * which the curses half (ui_screen.h) copies to a window.  No curses here,
 * so the renderings are unit-tested. */
#ifndef IODASH_UI_DRAW_H
#define IODASH_UI_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ui/theme.h"

enum ui_glyphs {
	UI_GLYPH_BRAILLE,      /* UTF-8, 2x4 dots per cell */
	UI_GLYPH_BLOCK,        /* UTF-8 block elements (--no-braille) */
	UI_GLYPH_ASCII,        /* no UTF-8, or --ascii */
};

enum ui_cell_flags { UI_CELL_SHADE = 1u << 0 };

struct ui_cell {
	uint32_t ch;           /* Unicode code point */
	uint8_t elem;          /* enum theme_elem */
	uint8_t flags;         /* enum ui_cell_flags */
};

struct ui_grid {
	int w, h;
	struct ui_cell *c;     /* w*h, row major */
};

int ui_grid_init(struct ui_grid *g, int w, int h);   /* 0 or -ENOMEM */
void ui_grid_free(struct ui_grid *g);
void ui_grid_clear(struct ui_grid *g, uint8_t elem);
static inline struct ui_cell *ui_grid_at(struct ui_grid *g, int x, int y)
{
	return (x >= 0 && y >= 0 && x < g->w && y < g->h) ? &g->c[(size_t)y * g->w + x] : NULL;
}
/* ASCII/UTF-8 text into the grid; returns columns used. */
int ui_grid_text(struct ui_grid *g, int x, int y, int maxw, const char *s, uint8_t elem);

/* Data points per cell across and levels per cell up. */
int ui_glyph_subcols(enum ui_glyphs gl);
int ui_glyph_subrows(enum ui_glyphs gl);

/* A rectangle of the grid where a graph goes. */
struct ui_area { int x, y, w, h; };

/* Area graph: v[i] is the value of sub-column i (w*subcols of them; NaN
 * or < 0 = no data).  Filled from the bottom, or from the top when down
 * (the read half of a mirrored graph).  Any value > 0 shows at least one
 * dot, so a trickle of I/O is never drawn as none. */
void ui_graph_area(struct ui_grid *g, struct ui_area a, const double *v, size_t nv,
		   double vmax, bool down, enum ui_glyphs gl, uint8_t elem);

/* A threshold line: v per sub-column (NaN: none there).  Empty cells get a
 * line glyph; cells with data keep their glyph, take the line's element
 * and its dots, so the line stays visible through the area. */
void ui_graph_hline(struct ui_grid *g, struct ui_area a, const double *v, size_t nv,
		    double vmax, enum ui_glyphs gl, uint8_t elem);

/* Shade the columns of the area whose sub-columns have shade[i] set: the
 * cells get UI_CELL_SHADE (a background colour); with fill, where there is
 * no background colour to show it, empty cells also get a light pattern. */
void ui_graph_shade(struct ui_grid *g, struct ui_area a, const bool *shade, size_t n,
		    enum ui_glyphs gl, bool fill);

/* The row (0 = top of area) a value falls on; -1 when above vmax. */
int ui_graph_row_of(double v, double vmax, int h);

/* The dirty gauge: a bar on row a.y from 0 to scale (dirty then
 * writeback), markers at bg, freerun and thresh; labels on row a.y+1 when
 * a.h >= 2.  All in KiB. */
struct ui_gauge_vals {
	double dirty_kb, writeback_kb, bg_kb, freerun_kb, thresh_kb, scale_kb;
};
void ui_gauge_render(struct ui_grid *g, struct ui_area a, const struct ui_gauge_vals *v,
		     enum ui_glyphs gl);

/* A nice ceiling for an axis: 1, 2, 5 x 10^n at or above v (v <= 0: 1). */
double ui_nice_ceil(double v);
/* The same in binary units of KiB: 2.2G -> 2.5G (never 4.8G). */
double ui_nice_ceil_kb(double kb);

/* Sizes, binary units: 1536 KiB -> "1.5M"; rates append "/s". */
void ui_fmt_kb(double kb, char *buf, size_t len);
void ui_fmt_rate_kb(double kb_s, char *buf, size_t len);
/* Seconds as m:ss or h:mm:ss. */
/* A benchmark's figure in its unit, through text_fmt_si: "1.46 GiB/s". */
void ui_fmt_value(double v, const char *unit, char *buf, size_t len);
void ui_fmt_dur(double s, char *buf, size_t len);

/* s as printable code points into out (at most outmax): control
 * characters and invalid UTF-8 become '?', non-ASCII too when ascii; at
 * most maxcols columns, the columns used in *cols.  Returns how many. */
int ui_sanitize(const char *s, uint32_t *out, int outmax, int maxcols, bool ascii, int *cols);

#endif
