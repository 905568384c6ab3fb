/* layout: see src/ui/layout.h.  Pure: no curses, no globals. */
#include <string.h>
#include "ui/layout.h"

/* The panels' heights, drop order and bands are rows of ui_panels[]
 * (src/ui/panels.c). */

const char *layout_panel_name(enum ui_panel p)
{
	return (unsigned)p < UI_PANEL_COUNT ? ui_panels[p].name : "?";
}

/* A body panel: one the layout places in a band (not header or status). */
static bool in_body(int p)
{
	return ui_panels[p].band >= 0;
}

/* A band is a row of panels side by side (one panel when narrow). */
struct band {
	enum ui_panel p[UI_PANEL_COUNT];
	int np;
	int wt[UI_PANEL_COUNT];  /* width weights */
	int h, min, want, grow;
};

static int disks_want(const struct layout_req *rq)
{
	int n = rq->disk_rows < 1 ? 1 : rq->disk_rows;
	if (n > 8)
		n = 8;
	return n + 2;
}

static void band_measure(struct band *b, unsigned on, const struct layout_req *rq)
{
	b->min = b->want = b->grow = 0;
	for (int i = 0; i < b->np; i++) {
		enum ui_panel p = b->p[i];
		if (!(on & (1u << p)))
			continue;
		const struct panel_def *d = &ui_panels[p];
		if (d->min_h > b->min)
			b->min = d->min_h;
		int want = d->fit_rows ? disks_want(rq) : 0;
		if (want > b->want)
			b->want = want;
		if (d->grow > b->grow)
			b->grow = d->grow;
	}
	if (b->want < b->min)
		b->want = b->min;
}

/* Wide: the panels of each band side by side, bands in the order of
 * their numbers; narrow: one band per panel, in table order. */
static int build_bands(bool wide, unsigned on, const struct layout_req *rq, struct band *bs)
{
	int n = 0;
	if (wide) {
		for (int b = 0; b < UI_PANEL_COUNT; b++) {
			struct band nb = { .np = 0 };
			for (int p = 0; p < UI_PANEL_COUNT; p++)
				if (ui_panels[p].band == b) {
					nb.p[nb.np] = (enum ui_panel)p;
					nb.wt[nb.np++] = ui_panels[p].width > 0 ? ui_panels[p].width : 1;
				}
			if (nb.np)
				bs[n++] = nb;
		}
	} else {
		for (int p = 0; p < UI_PANEL_COUNT; p++)
			if (in_body(p))
				bs[n++] = (struct band){ .p = { (enum ui_panel)p }, .np = 1, .wt = { 1 } };
	}
	for (int i = 0; i < n; i++)
		band_measure(&bs[i], on, rq);
	return n;
}

/* The shown panel that goes first for lack of room, or -1. */
static int next_to_drop(unsigned on)
{
	int best = -1;
	for (int p = 0; p < UI_PANEL_COUNT; p++)
		if ((on & (1u << p)) && ui_panels[p].drop_rank > 0 &&
		    (best < 0 || ui_panels[p].drop_rank < ui_panels[best].drop_rank))
			best = p;
	return best;
}

/* Split width w among the shown panels of a band by weight, one blank
 * column between neighbours; beside a panel with content, an empty one
 * gets LAYOUT_EMPTY_COLS and the panels with content the rest. */
static void band_place(const struct band *b, unsigned on, unsigned empty, int x0, int y, int w,
		       struct layout *out)
{
	int shown = 0, wsum = 0, nempty = 0;
	for (int i = 0; i < b->np; i++)
		if (on & (1u << b->p[i])) {
			shown++;
			nempty += (empty >> b->p[i]) & 1u;
		}
	/* all empty, or all with content: by weight */
	if (nempty == shown || (shown - nempty) * LAYOUT_EMPTY_COLS * 2 > w - (shown - 1) -
	    nempty * LAYOUT_EMPTY_COLS)
		empty = 0;
	int fixed = 0;
	for (int i = 0; i < b->np; i++)
		if (on & (1u << b->p[i])) {
			if (empty & (1u << b->p[i]))
				fixed += LAYOUT_EMPTY_COLS;
			else
				wsum += b->wt[i];
		}
	if (!shown)
		return;
	int avail = w - (shown - 1) - fixed, x = x0, done = 0, acc = 0;
	for (int i = 0; i < b->np; i++) {
		if (!(on & (1u << b->p[i])))
			continue;
		done++;
		int right;
		if (empty & (1u << b->p[i])) {
			right = done == shown ? x0 + w : x + LAYOUT_EMPTY_COLS;
		} else {
			acc += b->wt[i];
			/* what the panels with content so far take, after the
			 * empty ones before them */
			right = done == shown ? x0 + w : x + (avail * acc) / wsum - (avail * (acc - b->wt[i])) / wsum;
		}
		int pw = right - x;
		if (pw < 1)
			continue;
		out->r[b->p[i]] = (struct ui_rect){ x, y, pw, b->h };
		x = right + 1;
	}
}

void layout_compute(const struct layout_req *rq, struct layout *out)
{
	memset(out, 0, sizeof *out);
	int W = rq->cols, H = rq->rows;
	if (W <= 0 || H <= 0)
		return;

	int head = H >= 10 ? 2 : 1;
	int status = H >= 8 ? 1 : 0;
	if (head > H)
		head = H;
	out->r[UI_PANEL_HEADER] = (struct ui_rect){ 0, 0, W, head };
	if (status)
		out->r[UI_PANEL_STATUS] = (struct ui_rect){ 0, H - 1, W, 1 };
	int y0 = head, body = H - head - status;
	if (body <= 0) {
		for (int p = 0; p < UI_PANEL_COUNT; p++)
			if (in_body(p))
				out->dropped |= 1u << p;
		return;
	}

	if (rq->curves_view) {
		/* One panel, the whole body: nothing else competes. */
		out->r[UI_PANEL_CURVES] = (struct ui_rect){ 0, y0, W, body };
		return;
	}

	unsigned on = 0;
	for (int p = 0; p < UI_PANEL_COUNT; p++)
		if (in_body(p) && !(rq->hidden & (1u << p)))
			on |= 1u << p;

	bool wide = W >= LAYOUT_WIDE_COLS;
	out->wide = wide;
	struct band bs[UI_PANEL_COUNT];
	int nb;
	for (;;) {
		nb = build_bands(wide, on, rq, bs);
		int need = 0;
		for (int i = 0; i < nb; i++)
			need += bs[i].min;
		if (need <= body)
			break;
		int d = next_to_drop(on);
		if (d < 0) {
			on = 0;
			nb = build_bands(wide, on, rq, bs);
			break;
		}
		on &= ~(1u << d);
		out->dropped |= 1u << d;
	}

	/* Minimums first, then the table up to what it wants, then the rest
	 * by weight. */
	int left = body;
	for (int i = 0; i < nb; i++) {
		bs[i].h = bs[i].min;
		left -= bs[i].h;
	}
	for (int i = 0; i < nb && left > 0; i++)
		if (bs[i].want > bs[i].h && bs[i].grow == 0) {
			int add = bs[i].want - bs[i].h;
			if (add > left)
				add = left;
			bs[i].h += add;
			left -= add;
		}
	int gsum = 0;
	for (int i = 0; i < nb; i++)
		if (bs[i].min)
			gsum += bs[i].grow;
	if (gsum > 0 && left > 0) {
		int share = left;
		for (int i = 0; i < nb; i++)
			if (bs[i].min && bs[i].grow) {
				int add = share * bs[i].grow / gsum;
				bs[i].h += add;
				left -= add;
			}
		/* The rounding remainder goes to the band that grows most. */
		int best = -1;
		for (int i = 0; i < nb; i++)
			if (bs[i].min && bs[i].grow && (best < 0 || bs[i].grow > bs[best].grow))
				best = i;
		if (best >= 0) {
			bs[best].h += left;
			left = 0;
		}
	}

	int y = y0;
	for (int i = 0; i < nb; i++) {
		if (!bs[i].min || bs[i].h <= 0)
			continue;
		band_place(&bs[i], on, rq->empty, 0, y, W, out);
		y += bs[i].h;
	}
}

uint64_t layout_tail_first(uint64_t total, int h)
{
	if (h <= 0 || total <= (uint64_t)h)
		return 0;
	uint64_t step = h / 2 > 0 ? (uint64_t)(h / 2) : 1;
	/* the smallest multiple of step that keeps the newest line on screen */
	uint64_t need = total - (uint64_t)h;
	return (need + step - 1) / step * step;
}

int layout_tail_first_keyed(const uint64_t *key, int n, int h)
{
	if (h <= 0 || n <= h)
		return 0;
	uint64_t step = h / 2 > 0 ? (uint64_t)(h / 2) : 1;
	/* the smallest multiple of step above the key of the line just
	 * before the newest h: from there at most h lines remain */
	uint64_t top = (key[n - h - 1] / step + 1) * step;
	int first = n - h;
	while (first < n && key[first] < top)
		first++;
	return first;
}

int layout_table_columns(const int *width, const int *keep, int n, int w, int *shown)
{
	bool tried[64] = { false }, take[64] = { false };
	int used = 0, ns = 0;
	if (n > 64)
		n = 64;
	/* by keep rank; a column too wide for what is left is skipped, and
	 * a narrower, less useful one may still fit after it */
	for (int pass = 0; pass < n; pass++) {
		int best = -1;
		for (int c = 0; c < n; c++)
			if (!tried[c] && (best < 0 || keep[c] < keep[best]))
				best = c;
		tried[best] = true;
		int need = width[best] + (used ? 1 : 0);
		if (used + need <= w) {
			take[best] = true;
			used += need;
		}
	}
	for (int c = 0; c < n; c++)
		if (take[c])
			shown[ns++] = c;
	return ns;
}
