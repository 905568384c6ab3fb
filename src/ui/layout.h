/* layout: the live screen's panel rectangles as a pure function of the
 * terminal size and of what the user chose to show.  No curses here, so
 * it is unit-tested at 80x24, 120x40, 200x60 and at tiny sizes.
 *
 * At small sizes panels drop out in the order of their drop_rank
 * (context, events, curves, output, disks, throughput; the dirty panel goes last) instead of
 * overlapping: every returned rectangle lies inside the screen and no two
 * overlap. */
#ifndef IODASH_LAYOUT_H
#define IODASH_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

enum ui_panel {
	UI_PANEL_HEADER,
	UI_PANEL_STATUS,
	UI_PANEL_THROUGHPUT,   /* key 1 */
	UI_PANEL_DIRTY,        /* key 2: gauge + history */
	UI_PANEL_DISKS,        /* key 3 */
	UI_PANEL_OUTPUT,       /* key 4: benchmark output */
	UI_PANEL_CURVES,       /* key 5: result curves */
	UI_PANEL_EVENTS,       /* key 6: hits, marks, runs */
	UI_PANEL_CONTEXT,      /* key 7: who else does I/O, the machine (hidden at start) */
	UI_PANEL_COUNT
};

struct ui_live;         /* the live screen (src/ui/), opaque here */
struct ui_win;          /* a curses window, opaque outside src/ui/ */

/* One row per panel (ui_panels[], src/ui/panels.c): what the layout
 * needs and how to draw it.  Adding a panel is one enum name above, one
 * row and one draw function; tests/unit/test_tables.c checks every row. */
struct panel_def {
	char key;              /* the key that shows/hides it; 0: always there */
	const char *name;
	int min_h;             /* below this it is dropped rather than squeezed */
	int grow;              /* share of the rows left after the minimums */
	int drop_rank;         /* 1 goes first when the screen is too small; 0: never */
	int band;              /* wide screens: the row of panels it shares (-1: header/status) */
	int width;             /* its width weight within that band */
	bool fit_rows;         /* wants disk_rows + 2 rows before the others grow */
	void (*draw)(struct ui_live *L, struct ui_win *w, bool focus);
};
extern const struct panel_def ui_panels[UI_PANEL_COUNT];

struct ui_rect {
	int x, y, w, h;        /* w or h 0: not shown */
};

struct layout_req {
	int cols, rows;
	unsigned hidden;       /* bit (1u << panel): the user hid it */
	bool curves_view;      /* `c`: the curves panel takes the whole body */
	int disk_rows;         /* disk lines the table would like to show */
	unsigned empty;        /* bit (1u << panel): it has nothing to show yet */
};

struct layout {
	struct ui_rect r[UI_PANEL_COUNT];
	bool wide;             /* side by side bands (cols >= LAYOUT_WIDE_COLS) */
	unsigned dropped;      /* bits of panels dropped for lack of room */
};

#define LAYOUT_WIDE_COLS 110
/* An empty panel beside one with content is this wide (its "nothing
 * yet" in a few lines); the one with content takes the rest: at 120
 * columns the events had 24 while two empty panels took 96. */
#define LAYOUT_EMPTY_COLS 22

/* Fill out; never fails (a 0x0 screen gives all-empty rectangles). */
void layout_compute(const struct layout_req *req, struct layout *out);

static inline bool layout_shown(const struct layout *l, enum ui_panel p)
{
	return l->r[p].w > 0 && l->r[p].h > 0;
}

const char *layout_panel_name(enum ui_panel p);

/* The first line a list pane of height h shows when it holds `total`
 * lines (numbered from 0 for the whole session) and follows the newest.
 * It moves by half pages, not one line at a time: a pane that scrolled by
 * one line per new line would resend every line of it over ssh; this way
 * a new line costs itself, and every h/2 lines one repaint. */
uint64_t layout_tail_first(uint64_t total, int h);

/* The same for n lines numbered by a key that rises but may skip (key[i]:
 * the session index of the event line i starts at, where one line can
 * take two events): the index of the first line to show.  The top moves
 * to multiples of h/2 in key space, so it stays put while lines come in
 * and needs no count of the lines before the ones held. */
int layout_tail_first_keyed(const uint64_t *key, int n, int h);

/* The columns a table of n columns (width[c] each, a blank between two)
 * shows in w columns: by keep[c] (0 first: the most useful; the first
 * column should have the lowest), as many as fit, and the least useful
 * go first; shown[] gets their indexes in table order.  Returns how
 * many. */
int layout_table_columns(const int *width, const int *keep, int n, int w, int *shown);

#endif
