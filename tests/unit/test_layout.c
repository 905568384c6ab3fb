/* layout: the live screen's rectangles at real and tiny sizes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <math.h>
#include <string.h>
#include "ui/layout.h"
#include "ui/draw.h"

#define CTX_HIDDEN (1u << UI_PANEL_CONTEXT)

static struct layout lay(int w, int h, unsigned hidden, bool curves, int disks)
{
	struct layout_req rq = { .cols = w, .rows = h, .hidden = hidden,
				 .curves_view = curves, .disk_rows = disks };
	struct layout l;
	layout_compute(&rq, &l);
	return l;
}

/* Every rectangle inside the screen, no two overlapping. */
static void assert_sane(const struct layout *l, int w, int h)
{
	for (int p = 0; p < UI_PANEL_COUNT; p++) {
		const struct ui_rect *r = &l->r[p];
		if (!layout_shown(l, p))
			continue;
		if (r->x < 0 || r->y < 0 || r->x + r->w > w || r->y + r->h > h)
			fail_msg("%dx%d: %s at %d,%d %dx%d leaves the screen", w, h,
				 layout_panel_name(p), r->x, r->y, r->w, r->h);
		for (int q = p + 1; q < UI_PANEL_COUNT; q++) {
			const struct ui_rect *s = &l->r[q];
			if (!layout_shown(l, q))
				continue;
			if (r->x < s->x + s->w && s->x < r->x + r->w &&
			    r->y < s->y + s->h && s->y < r->y + r->h)
				fail_msg("%dx%d: %s overlaps %s", w, h, layout_panel_name(p),
					 layout_panel_name(q));
		}
	}
}

static void test_120x40(void **state)
{
	(void)state;
	/* as the screen starts: the context panel hidden */
	struct layout l = lay(120, 40, CTX_HIDDEN, false, 2);
	assert_sane(&l, 120, 40);
	assert_true(l.wide);
	assert_int_equal(l.dropped, 0);
	for (int p = 0; p < UI_PANEL_COUNT; p++)
		assert_true(layout_shown(&l, p) == (p != UI_PANEL_CONTEXT));
	assert_int_equal(l.r[UI_PANEL_HEADER].y, 0);
	assert_int_equal(l.r[UI_PANEL_HEADER].h, 2);
	assert_int_equal(l.r[UI_PANEL_STATUS].y, 39);
	/* throughput and dirty side by side on the same rows, one gutter apart */
	assert_int_equal(l.r[UI_PANEL_THROUGHPUT].y, 2);
	assert_int_equal(l.r[UI_PANEL_DIRTY].y, 2);
	assert_int_equal(l.r[UI_PANEL_THROUGHPUT].x, 0);
	assert_int_equal(l.r[UI_PANEL_DIRTY].x,
			 l.r[UI_PANEL_THROUGHPUT].w + 1);
	assert_int_equal(l.r[UI_PANEL_DIRTY].x + l.r[UI_PANEL_DIRTY].w, 120);
	/* the table gets a row per disk plus title and column header */
	assert_int_equal(l.r[UI_PANEL_DISKS].h, 4);
	assert_int_equal(l.r[UI_PANEL_DISKS].w, 120);
	/* graphs get room enough to read: more than a third of the body */
	assert_true(l.r[UI_PANEL_DIRTY].h >= 14);
	/* the body is used to the last row above the status line */
	const struct ui_rect *o = &l.r[UI_PANEL_OUTPUT];
	assert_int_equal(o->y + o->h, 39);
}

/* At 120 columns the events had 24 while the empty output and curves
 * took 96: an empty panel beside one with content is narrow. */
static void test_empty_panels_give_room(void **state)
{
	(void)state;
	unsigned out = 1u << UI_PANEL_OUTPUT, cur = 1u << UI_PANEL_CURVES, ev = 1u << UI_PANEL_EVENTS;
	struct layout_req rq = { .cols = 120, .rows = 40, .hidden = CTX_HIDDEN, .disk_rows = 2,
				 .empty = out | cur };
	struct layout l;
	layout_compute(&rq, &l);
	assert_sane(&l, 120, 40);
	assert_int_equal(l.r[UI_PANEL_OUTPUT].w, LAYOUT_EMPTY_COLS);
	assert_int_equal(l.r[UI_PANEL_CURVES].w, LAYOUT_EMPTY_COLS);
	assert_int_equal(l.r[UI_PANEL_EVENTS].w, 120 - 2 - 2 * LAYOUT_EMPTY_COLS);
	assert_int_equal(l.r[UI_PANEL_EVENTS].x + l.r[UI_PANEL_EVENTS].w, 120);
	/* results, no output: the curves and the events share by weight */
	rq.empty = out;
	layout_compute(&rq, &l);
	assert_sane(&l, 120, 40);
	assert_int_equal(l.r[UI_PANEL_OUTPUT].w, LAYOUT_EMPTY_COLS);
	assert_int_equal(l.r[UI_PANEL_CURVES].x, LAYOUT_EMPTY_COLS + 1);
	assert_true(l.r[UI_PANEL_CURVES].w > 60);
	assert_true(l.r[UI_PANEL_EVENTS].w > 30);
	/* all empty, or all with content: as their weights say */
	struct layout all;
	rq.empty = out | cur | ev;
	layout_compute(&rq, &l);
	rq.empty = 0;
	layout_compute(&rq, &all);
	assert_memory_equal(&l, &all, sizeof l);
	assert_true(all.r[UI_PANEL_EVENTS].w < all.r[UI_PANEL_OUTPUT].w);
	/* narrow: one panel a row, whatever is empty */
	struct layout_req nq = { .cols = 80, .rows = 24, .hidden = CTX_HIDDEN, .disk_rows = 1, .empty = out | cur };
	layout_compute(&nq, &l);
	nq.empty = 0;
	layout_compute(&nq, &all);
	assert_memory_equal(&l, &all, sizeof l);
}

static void test_80x24(void **state)
{
	(void)state;
	struct layout l = lay(80, 24, CTX_HIDDEN, false, 1);
	assert_sane(&l, 80, 24);
	assert_false(l.wide);
	assert_true(layout_shown(&l, UI_PANEL_THROUGHPUT));
	assert_true(layout_shown(&l, UI_PANEL_DIRTY));
	assert_true(layout_shown(&l, UI_PANEL_DISKS));
	assert_true(layout_shown(&l, UI_PANEL_OUTPUT));
	/* what does not fit readably is dropped, in the fixed order */
	assert_false(layout_shown(&l, UI_PANEL_EVENTS));
	assert_false(layout_shown(&l, UI_PANEL_CURVES));
	assert_int_equal(l.dropped, (1u << UI_PANEL_EVENTS) | (1u << UI_PANEL_CURVES));
	assert_int_equal(l.r[UI_PANEL_THROUGHPUT].w, 80);
	/* stacked in order: throughput above dirty above disks above output */
	assert_true(l.r[UI_PANEL_THROUGHPUT].y < l.r[UI_PANEL_DIRTY].y);
	assert_true(l.r[UI_PANEL_DIRTY].y < l.r[UI_PANEL_DISKS].y);
	assert_true(l.r[UI_PANEL_DISKS].y < l.r[UI_PANEL_OUTPUT].y);
	assert_true(l.r[UI_PANEL_DIRTY].h >= 5);
}

/* Shown (7), the context panel takes the whole width under the others
 * at 120x40, and is the first to go when the screen is too small. */
static void test_context_panel(void **state)
{
	(void)state;
	struct layout l = lay(120, 40, 0, false, 2);
	assert_sane(&l, 120, 40);
	assert_int_equal(l.dropped, 0);
	const struct ui_rect *c = &l.r[UI_PANEL_CONTEXT];
	assert_int_equal(c->x, 0);
	assert_int_equal(c->w, 120);
	assert_int_equal(c->y + c->h, 39);
	assert_true(c->h >= 5);
	assert_true(l.r[UI_PANEL_OUTPUT].y + l.r[UI_PANEL_OUTPUT].h <= c->y);
	assert_true(l.r[UI_PANEL_DIRTY].h >= 10);

	l = lay(80, 24, 0, false, 1);
	assert_sane(&l, 80, 24);
	assert_true(l.dropped & (1u << UI_PANEL_CONTEXT));
	assert_true(layout_shown(&l, UI_PANEL_OUTPUT));
	assert_false(layout_shown(&l, UI_PANEL_CONTEXT));

	/* alone with the dirty gauge on a small screen: the context goes */
	l = lay(40, 9, 0x3fu << UI_PANEL_THROUGHPUT & ~(1u << UI_PANEL_DIRTY), false, 1);
	assert_sane(&l, 40, 9);
	assert_true(layout_shown(&l, UI_PANEL_DIRTY));
	assert_false(layout_shown(&l, UI_PANEL_CONTEXT));
}

static void test_200x60(void **state)
{
	(void)state;
	struct layout l = lay(200, 60, 0, false, 12);
	assert_sane(&l, 200, 60);
	assert_int_equal(l.dropped, 0);
	/* the table stops growing at 8 disks */
	assert_int_equal(l.r[UI_PANEL_DISKS].h, 10);
	assert_int_equal(l.r[UI_PANEL_OUTPUT].y, l.r[UI_PANEL_CURVES].y);
	assert_int_equal(l.r[UI_PANEL_CURVES].y, l.r[UI_PANEL_EVENTS].y);
	assert_true(l.r[UI_PANEL_EVENTS].w < l.r[UI_PANEL_OUTPUT].w);
}

static void test_tiny_sizes_never_overlap(void **state)
{
	(void)state;
	for (int w = 0; w <= 130; w += (w < 40 ? 1 : 7))
		for (int h = 0; h <= 45; h++)
			for (unsigned hid = 0; hid < 128; hid += 9)
				for (int cv = 0; cv < 2; cv++) {
					/* the seven body panels follow header and status */
					struct layout l = lay(w, h, hid << UI_PANEL_THROUGHPUT, cv, h % 11);
					assert_sane(&l, w, h);
				}
}

static void test_20x5_keeps_the_dirty_gauge(void **state)
{
	(void)state;
	struct layout l = lay(20, 5, 0, false, 3);
	assert_sane(&l, 20, 5);
	assert_true(layout_shown(&l, UI_PANEL_HEADER));
	assert_int_equal(l.r[UI_PANEL_HEADER].h, 1);
	assert_false(layout_shown(&l, UI_PANEL_STATUS));
	assert_true(layout_shown(&l, UI_PANEL_DIRTY));
	assert_int_equal(l.r[UI_PANEL_DIRTY].h, 4);
	for (int p = UI_PANEL_THROUGHPUT; p < UI_PANEL_COUNT; p++)
		if (p != UI_PANEL_DIRTY)
			assert_false(layout_shown(&l, p));
	/* too small for any panel: header only, nothing else */
	l = lay(20, 2, 0, false, 1);
	assert_sane(&l, 20, 2);
	assert_false(layout_shown(&l, UI_PANEL_DIRTY));
	l = lay(0, 0, 0, false, 1);
	for (int p = 0; p < UI_PANEL_COUNT; p++)
		assert_false(layout_shown(&l, p));
}

static void test_hidden_panels_give_room(void **state)
{
	(void)state;
	struct layout all = lay(120, 40, 0, false, 2);
	struct layout no_t = lay(120, 40, 1u << UI_PANEL_THROUGHPUT, false, 2);
	assert_sane(&no_t, 120, 40);
	assert_false(layout_shown(&no_t, UI_PANEL_THROUGHPUT));
	assert_int_equal(no_t.dropped, 0);
	/* dirty takes the whole width of its band */
	assert_int_equal(no_t.r[UI_PANEL_DIRTY].x, 0);
	assert_int_equal(no_t.r[UI_PANEL_DIRTY].w, 120);
	assert_int_equal(no_t.r[UI_PANEL_DIRTY].h, all.r[UI_PANEL_DIRTY].h);
	/* hiding the bottom band gives its rows to the graphs */
	unsigned bottom = (1u << UI_PANEL_OUTPUT) | (1u << UI_PANEL_CURVES) | (1u << UI_PANEL_EVENTS);
	struct layout top = lay(120, 40, bottom, false, 2);
	assert_sane(&top, 120, 40);
	assert_true(top.r[UI_PANEL_DIRTY].h > all.r[UI_PANEL_DIRTY].h);
	/* at 80x24 hiding throughput makes room for the curves again */
	struct layout n = lay(80, 24, 1u << UI_PANEL_THROUGHPUT, false, 1);
	assert_sane(&n, 80, 24);
	assert_true(layout_shown(&n, UI_PANEL_CURVES));
}

static void test_curves_view(void **state)
{
	(void)state;
	struct layout l = lay(120, 40, 0, true, 2);
	assert_sane(&l, 120, 40);
	assert_true(layout_shown(&l, UI_PANEL_CURVES));
	assert_int_equal(l.r[UI_PANEL_CURVES].w, 120);
	assert_int_equal(l.r[UI_PANEL_CURVES].h, 37);
	assert_false(layout_shown(&l, UI_PANEL_DIRTY));
	assert_false(layout_shown(&l, UI_PANEL_THROUGHPUT));
}

/* The pure renderings the widgets blit: gauge markers and graph cells. */
static void row_text(struct ui_grid *g, int y, char *out)
{
	for (int x = 0; x < g->w; x++) {
		uint32_t c = ui_grid_at(g, x, y)->ch;
		out[x] = c < 128 ? (char)c : c == 0x2502 || c == 0x2503 ? '|' : '#';
	}
	out[g->w] = '\0';
}

static void test_gauge_markers_and_labels(void **state)
{
	(void)state;
	/* sample 40 of the fio dirty-limit trace: 256M/128M byte limits */
	struct ui_gauge_vals v = { 125956, 73732, 131072, 196608, 262144, 262144 * 1.05 };
	struct ui_grid g;
	assert_int_equal(ui_grid_init(&g, 60, 2), 0);
	ui_gauge_render(&g, (struct ui_area){ 0, 0, 60, 2 }, &v, UI_GLYPH_ASCII);
	char r0[61], r1[61];
	row_text(&g, 0, r0);
	row_text(&g, 1, r1);
	/* bg at 128/268.8*60 = col 29, freerun col 43, thresh col 57 */
	assert_int_equal(r0[29], '|');
	assert_int_equal(r0[43], '|');
	assert_int_equal(r0[57], '|');
	assert_int_equal(ui_grid_at(&g, 57, 0)->elem, TE_LINE_THRESH);
	assert_int_equal(ui_grid_at(&g, 10, 0)->elem, TE_DIRTY);
	assert_int_equal(ui_grid_at(&g, 35, 0)->elem, TE_WRITEBACK);
	assert_non_null(strstr(r1, "bg 128M"));
	assert_non_null(strstr(r1, "thresh"));
	assert_non_null(strstr(r1, "freerun"));
	ui_grid_free(&g);
}

/* Scales in the one number format: never "1000M/s", and the next unit's
 * 1 when a nice ceiling reaches 1000 of this one. */
static void test_scales_read_as_numbers(void **state)
{
	(void)state;
	char b[32];
	assert_float_equal(ui_nice_ceil_kb(900.0 * 1024), 1024.0 * 1024, 1e-6);
	ui_fmt_rate_kb(ui_nice_ceil_kb(900.0 * 1024), b, sizeof b);
	assert_string_equal(b, "1.0G/s");
	ui_fmt_rate_kb(ui_nice_ceil_kb(2.1 * 1024 * 1024), b, sizeof b);
	assert_string_equal(b, "2.5G/s");
	ui_fmt_kb(128.0 * 1024, b, sizeof b);
	assert_string_equal(b, "128M");
	ui_fmt_value(1531904.0, "KiB/s", b, sizeof b);
	assert_string_equal(b, "1.46 GiB/s");
	ui_fmt_value(1014.2, "MB/s", b, sizeof b);
	assert_string_equal(b, "967 MiB/s");
	ui_fmt_value(2.5e6, "ops/s", b, sizeof b);
	assert_string_equal(b, "2.5 Mops/s");
}

static void test_graph_cells(void **state)
{
	(void)state;
	struct ui_grid g;
	assert_int_equal(ui_grid_init(&g, 2, 3), 0);
	double v[4] = { 100, 0.001, NAN, 50 };
	ui_graph_area(&g, (struct ui_area){ 0, 0, 2, 3 }, v, 4, 100, false, UI_GLYPH_BRAILLE, TE_WRITE);
	/* full left column in every row; a trickle still shows one dot */
	assert_int_equal(ui_grid_at(&g, 0, 0)->ch, 0x2800 + 0x47);
	assert_int_equal(ui_grid_at(&g, 0, 2)->ch, 0x2800 + 0x47 + 0x80);
	/* 50 of 100 on 12 dot rows: 6 dots, the bottom cell full, 2 above */
	assert_int_equal(ui_grid_at(&g, 1, 2)->ch, 0x28b8);
	assert_int_equal(ui_grid_at(&g, 1, 1)->ch, 0x28a0);
	assert_int_equal(ui_grid_at(&g, 1, 0)->ch, ' ');
	/* a threshold line over an empty cell and through data */
	double th[4] = { 90, 90, 90, 90 };
	ui_graph_hline(&g, (struct ui_area){ 0, 0, 2, 3 }, th, 4, 100, UI_GLYPH_BRAILLE, TE_LINE_THRESH);
	assert_int_equal(ui_grid_at(&g, 1, 0)->ch, 0x2800 + 0x12);
	assert_int_equal(ui_grid_at(&g, 1, 0)->elem, TE_LINE_THRESH);
	bool sh[4] = { false, false, true, false };
	ui_graph_shade(&g, (struct ui_area){ 0, 0, 2, 3 }, sh, 4, UI_GLYPH_BRAILLE, false);
	assert_true(ui_grid_at(&g, 1, 1)->flags & UI_CELL_SHADE);
	assert_false(ui_grid_at(&g, 0, 1)->flags & UI_CELL_SHADE);
	ui_grid_free(&g);
	assert_int_equal(ui_nice_ceil_kb(2.2 * 1024 * 1024), 2.5 * 1024 * 1024);
	char b[16];
	ui_fmt_kb(196608, b, sizeof b);
	assert_string_equal(b, "192M");
	ui_fmt_kb(1536, b, sizeof b);
	assert_string_equal(b, "1.5M");
	uint32_t cp[16];
	int cols;
	assert_int_equal(ui_sanitize("a\x01" "b\xff\xe2\x96\x88", cp, 16, 10, false, &cols), 5);
	assert_int_equal(cols, 5);
	assert_int_equal(cp[0], 'a');
	assert_int_equal(cp[1], '?');          /* a control character */
	assert_int_equal(cp[2], 'b');
	assert_int_equal(cp[3], '?');          /* a byte that is no UTF-8 */
	assert_int_equal(cp[4], 0x2588);       /* the full block */
	assert_int_equal(ui_sanitize("x\xe2\x96\x88", cp, 16, 10, true, &cols), 2);
	assert_int_equal(cp[1], '?');          /* --ascii */
	/* a wide character takes two columns, and is not cut in half */
	assert_int_equal(ui_sanitize("\xe6\x97\xa5\xe6\x9c\xac", cp, 16, 3, false, &cols), 1);
	assert_int_equal(cols, 2);
	assert_int_equal(cp[0], 0x65e5);
	assert_int_equal(ui_sanitize("a\tbcdef", cp, 3, 10, false, &cols), 3);   /* outmax */
	assert_int_equal(cp[1], ' ');          /* a tab is a space */
}

/* List panes follow the newest line by half pages. */
static void test_tail_first_half_pages(void **st)
{
	(void)st;
	assert_int_equal(layout_tail_first(5, 10), 0);
	assert_int_equal(layout_tail_first(10, 10), 0);
	assert_int_equal(layout_tail_first(11, 10), 5);    /* jump half a page */
	assert_int_equal(layout_tail_first(15, 10), 5);    /* then append in place */
	assert_int_equal(layout_tail_first(16, 10), 10);
	for (uint64_t n = 0; n < 200; n++) {
		uint64_t f = layout_tail_first(n, 7);
		assert_true(n <= 7 || (n - f <= 7 && n - f > 7 - 3 - 1));   /* newest shown, pane at least half full */
		assert_true(f <= layout_tail_first(n + 1, 7));              /* never moves back */
	}
	assert_int_equal(layout_tail_first(3, 0), 0);
}

static void test_tail_first_keyed(void **st)
{
	(void)st;
	uint64_t k[200];
	/* consecutive keys page exactly as layout_tail_first */
	for (int i = 0; i < 200; i++)
		k[i] = (uint64_t)i;
	for (int n = 0; n <= 200; n++)
		assert_int_equal(layout_tail_first_keyed(k, n, 7), (int)layout_tail_first((uint64_t)n, 7));
	/* lines of one or two events (a hit and its end), the held ones
	 * starting at event 1000 */
	uint64_t e = 1000;
	for (int i = 0; i < 200; i++) {
		k[i] = e;
		e += (i % 3) ? 2 : 1;
	}
	int prev = 0;
	for (int n = 1; n <= 200; n++) {
		int f = layout_tail_first_keyed(k, n, 10);
		assert_true(n - f <= 10);                 /* the newest line is shown */
		assert_true(n <= 10 || n - f >= 5);       /* the pane is at least half full */
		assert_true(f >= prev);                   /* it never moves back */
		prev = f;
	}
	/* it stays put while lines come in: 10 lines of 2 events from 0 */
	for (int i = 0; i < 12; i++)
		k[i] = 2 * (uint64_t)i;
	assert_int_equal(layout_tail_first_keyed(k, 10, 10), 0);
	assert_int_equal(layout_tail_first_keyed(k, 11, 10), 3);   /* first key >= 5: 6 */
	assert_int_equal(layout_tail_first_keyed(k, 12, 10), 3);
	assert_int_equal(layout_tail_first_keyed(k, 3, 0), 0);
}

/* A table too wide drops its least useful columns first, wherever they
 * are, and keeps the table order for the rest. */
static void test_table_columns(void **state)
{
	(void)state;
	/* name, a, b, c, d: d is the most useful figure, b the least */
	int width[5] = { 10, 8, 8, 8, 6 }, keep[5] = { 0, 2, 4, 3, 1 }, shown[5];
	assert_int_equal(layout_table_columns(width, keep, 5, 80, shown), 5);
	assert_int_equal(shown[4], 4);
	/* 10 + 9 + 9 + 7 = 35: b (least useful) goes, d stays */
	assert_int_equal(layout_table_columns(width, keep, 5, 36, shown), 4);
	assert_int_equal(shown[0], 0);
	assert_int_equal(shown[1], 1);
	assert_int_equal(shown[2], 3);
	assert_int_equal(shown[3], 4);
	/* 10 + 7 = 17, then a (9) does not fit */
	assert_int_equal(layout_table_columns(width, keep, 5, 20, shown), 2);
	assert_int_equal(shown[1], 4);
	/* a wide useful column that does not fit lets a narrower one in */
	int w2[3] = { 4, 20, 5 }, k2[3] = { 0, 1, 2 };
	assert_int_equal(layout_table_columns(w2, k2, 3, 12, shown), 2);
	assert_int_equal(shown[1], 2);
	assert_int_equal(layout_table_columns(w2, k2, 3, 0, shown), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_120x40), cmocka_unit_test(test_empty_panels_give_room),
		cmocka_unit_test(test_80x24), cmocka_unit_test(test_context_panel),
		cmocka_unit_test(test_200x60),
		cmocka_unit_test(test_tiny_sizes_never_overlap),
		cmocka_unit_test(test_20x5_keeps_the_dirty_gauge),
		cmocka_unit_test(test_hidden_panels_give_room),
		cmocka_unit_test(test_curves_view),
		cmocka_unit_test(test_gauge_markers_and_labels),
		cmocka_unit_test(test_graph_cells),
		cmocka_unit_test(test_scales_read_as_numbers),
		cmocka_unit_test(test_tail_first_half_pages),
		cmocka_unit_test(test_tail_first_keyed),
		cmocka_unit_test(test_table_columns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
