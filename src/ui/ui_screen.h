/* ui_screen: the curses half of the ui, private to src/ui/ (the only code
 * that includes curses; the core and include/iodash/ never do).
 * Terminal set-up, the colour level, theme elements as curses attributes,
 * and the widgets: small structs with draw(window, data, style).
 * The compare screen uses the same screen, style and widgets. */
#ifndef IODASH_UI_SCREEN_H
#define IODASH_UI_SCREEN_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>
#include <stdbool.h>
#include "iodash/results/stats.h"
#include "ui/theme.h"
#include "ui/draw.h"
#include "ui/keys.h"
#include "iodash/ui/ui.h"

enum ui_color_level { UI_MONO, UI_COLOR8, UI_COLOR16, UI_COLOR256, UI_TRUECOLOR };

struct ui_style {
	enum ui_color_level level;
	enum ui_glyphs glyphs;
	bool utf8;
	struct theme theme;
	attr_t attr[TE_COUNT];         /* attributes incl. COLOR_PAIR */
	short pair[TE_COUNT];
	attr_t shaded[TE_COUNT];       /* the same element on the shade background */
	short shaded_pair[TE_COUNT];
};

struct ui_screen {
	struct ui_style st;
	bool open;
	char theme_dirs[4][THEME_PATH_LEN];
	size_t ntheme_dirs;
	char themes[32][THEME_NAME_LEN];  /* for `t` */
	size_t nthemes;
	int theme_idx;                 /* index in themes[], -1 built-in default */
	char msg[512];                 /* a message for the status line (theme errors) */
};

/* Set the locale, start curses, pick colours and glyphs from the terminal
 * and look (--mono, --ascii, --no-braille), load look->theme.  A theme that does
 * not load leaves the default and its message in scr->msg.  0 or -1 (not
 * a terminal: message on stderr). */
int ui_screen_open(struct ui_screen *scr, const struct ui_look *look);
void ui_screen_close(struct ui_screen *scr);
/* Load a theme by name or path (NULL: the default) and apply it. */
int ui_screen_set_theme(struct ui_screen *scr, const char *name);
/* `t`: the next theme found in the theme directories. */
void ui_screen_next_theme(struct ui_screen *scr);

/* Drawing helpers: text clipped to the window, never wrapping. */
int ui_put(WINDOW *w, int y, int x, int maxw, const struct ui_style *st, enum theme_elem e,
	   const char *s);
void ui_fill(WINDOW *w, int y, int x, int n, const struct ui_style *st, enum theme_elem e,
	     const char *ch);
/* A panel's title row: " Title ─────" (focused: title.focus). */
void ui_title(WINDOW *w, const struct ui_style *st, const char *title, bool focus);
/* Copy a grid into the window at (y, x). */
void ui_blit(WINDOW *w, int y, int x, const struct ui_grid *g, const struct ui_style *st);

/* The status bar's key hints ("q quit  space pause ..."): the rows of
 * `screen` that have a label, from x, as many as fit in maxw. */
void ui_key_hints(WINDOW *w, int y, int x, int maxw, const struct ui_style *st,
		  const struct ui_key_def *t, size_t n, unsigned screen);
/* The help overlay's lines for `screen`, from row y0: key names in kw
 * columns, then the help (continuation lines indented).  Returns how many
 * lines the table has for it, and in *widest (may be NULL) the widest
 * help text (to size the overlay, pass w NULL). */
int ui_key_help_lines(WINDOW *w, int y0, int x, int kw, int maxw, int maxh,
		      const struct ui_style *st, const struct ui_key_def *t, size_t n,
		      unsigned screen, int *widest);

/* What opens the manual from where this iodash runs, checked once: the
 * page beside the binary (the build tree: "man ./iodash.1" from there),
 * else "man iodash" when man finds the installed page, else the
 * installed page by its path, else --help ("man iodash" failed where the
 * page is not installed). */
const char *ui_manual_hint(void);

/* Widgets: draw(window, data, style). */
struct ui_widget {
	const char *name;
	void (*draw)(WINDOW *w, const void *data, const struct ui_style *st);
};

/* time graph: series of sub-column values in one area of the window */
struct ui_graph_data {
	int y, x, w, h;                /* where in the window */
	const double *v;               /* up (w * subcols values) */
	const double *v_down;          /* mirrored below the middle, or NULL */
	double vmax;
	enum theme_elem elem, elem_down;
	const double *hline[3];        /* threshold lines per sub-column, or NULL */
	enum theme_elem hline_elem[3];
	const bool *shade;             /* shaded sub-columns, or NULL */
	size_t n;                      /* values in each array */
};
/* gauge with markers (bar + labels) */
struct ui_gauge_data {
	int y, x, w, h;
	struct ui_gauge_vals v;
};
/* table: header + rows of cells, columns right aligned but the first */
#define UI_TABLE_MAX_COLS 12
struct ui_table_data {
	int y, x, w, h;
	int ncols, nrows;
	const char *const *head;       /* ncols */
	const int *width;              /* ncols */
	const int *keep;               /* ncols: what to keep first when too narrow
	                                  (layout_table_columns), or NULL: from the left */
	const char *(*cell)(const void *ctx, int row, int col, enum theme_elem *elem);
	const void *ctx;
};
/* text pane: the last lines, newest at the bottom */
struct ui_text_data {
	int y, x, w, h;
	const char *const *text;
	int ntext;
	enum theme_elem elem;
	const char *empty;             /* said when there are no lines */
	bool follow;                   /* show the newest by half pages (layout_tail_first) */
	uint64_t abs0;                 /* with follow: session number of text[0] */
};
/* result curves: value against x for every label of one metric */
struct ui_curves_data {
	int y, x, w, h;
	const struct curve_set *cs;
	bool log2x;
	const char *empty;
	/* a letter on a point (what its runs measured), 0 for none; may be NULL */
	char (*mark)(const void *ctx, const struct curve_point *p);
	const void *mark_ctx;
	double ymax;                   /* > 0: this y scale (shared by graphs side by side) */
};

extern const struct ui_widget ui_graph_widget, ui_gauge_widget, ui_table_widget,
	ui_text_widget, ui_curves_widget;

#endif
