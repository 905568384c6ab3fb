/* layout: see include/iodash/layout.h.  Pure: no curses, no globals. */
#include <string.h>
#include "iodash/layout.h"

/* Smallest heights at which a panel still says something useful: below
 * these a panel is dropped rather than squeezed into noise. */
static const int min_h[UI_PANEL_COUNT] = {
	[UI_PANEL_THROUGHPUT] = 4,   /* title + 3 graph rows */
	[UI_PANEL_DIRTY] = 3,        /* title, bar, marker labels */
	[UI_PANEL_DISKS] = 3,        /* title, column header, one disk */
	[UI_PANEL_OUTPUT] = 4,
	[UI_PANEL_CURVES] = 8,       /* axis, legend and a few rows of curve */
	[UI_PANEL_EVENTS] = 4,
};

/* Who goes first when the screen is too small. */
static const enum ui_panel drop_order[] = {
	UI_PANEL_EVENTS, UI_PANEL_CURVES, UI_PANEL_OUTPUT,
	UI_PANEL_DISKS, UI_PANEL_THROUGHPUT, UI_PANEL_DIRTY,
};

/* Share of the rows left over after minimums. */
static const int grow_w[UI_PANEL_COUNT] = {
	[UI_PANEL_THROUGHPUT] = 2, [UI_PANEL_DIRTY] = 3, [UI_PANEL_OUTPUT] = 1,
	[UI_PANEL_CURVES] = 1, [UI_PANEL_EVENTS] = 1,
};

const char *layout_panel_name(enum ui_panel p)
{
	static const char *const names[UI_PANEL_COUNT] = {
		"header", "status", "throughput", "dirty", "disks",
		"output", "curves", "events",
	};
	return (unsigned)p < UI_PANEL_COUNT ? names[p] : "?";
}

/* A band is a row of panels side by side (one panel when narrow). */
struct band {
	enum ui_panel p[3];
	int np;
	int wt[3];             /* width weights */
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
		if (min_h[p] > b->min)
			b->min = min_h[p];
		int want = p == UI_PANEL_DISKS ? disks_want(rq) : 0;
		if (want > b->want)
			b->want = want;
		if (grow_w[p] > b->grow)
			b->grow = grow_w[p];
	}
	if (b->want < b->min)
		b->want = b->min;
}

static int build_bands(bool wide, unsigned on, const struct layout_req *rq, struct band *bs)
{
	int n = 0;
	if (wide) {
		bs[n++] = (struct band){ { UI_PANEL_THROUGHPUT, UI_PANEL_DIRTY }, 2, { 1, 1 }, 0, 0, 0, 0 };
		bs[n++] = (struct band){ { UI_PANEL_DISKS }, 1, { 1 }, 0, 0, 0, 0 };
		bs[n++] = (struct band){ { UI_PANEL_OUTPUT, UI_PANEL_CURVES, UI_PANEL_EVENTS }, 3,
					 { 2, 2, 1 }, 0, 0, 0, 0 };
	} else {
		static const enum ui_panel order[] = {
			UI_PANEL_THROUGHPUT, UI_PANEL_DIRTY, UI_PANEL_DISKS,
			UI_PANEL_OUTPUT, UI_PANEL_CURVES, UI_PANEL_EVENTS,
		};
		for (unsigned i = 0; i < sizeof order / sizeof order[0]; i++)
			bs[n++] = (struct band){ { order[i] }, 1, { 1 }, 0, 0, 0, 0 };
	}
	for (int i = 0; i < n; i++)
		band_measure(&bs[i], on, rq);
	return n;
}

/* Split width w among the shown panels of a band by weight, one blank
 * column between neighbours. */
static void band_place(const struct band *b, unsigned on, int x0, int y, int w,
		       struct layout *out)
{
	int shown = 0, wsum = 0;
	for (int i = 0; i < b->np; i++)
		if (on & (1u << b->p[i])) {
			shown++;
			wsum += b->wt[i];
		}
	if (!shown)
		return;
	int avail = w - (shown - 1), x = x0, done = 0, acc = 0;
	for (int i = 0; i < b->np; i++) {
		if (!(on & (1u << b->p[i])))
			continue;
		acc += b->wt[i];
		done++;
		int right = done == shown ? x0 + w : x0 + (avail * acc) / wsum + (done - 1);
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
		out->dropped = ((1u << UI_PANEL_COUNT) - 1) &
			       ~((1u << UI_PANEL_HEADER) | (1u << UI_PANEL_STATUS));
		return;
	}

	if (rq->curves_view) {
		/* One panel, the whole body: nothing else competes. */
		out->r[UI_PANEL_CURVES] = (struct ui_rect){ 0, y0, W, body };
		return;
	}

	unsigned on = 0;
	for (int p = UI_TOGGLE_FIRST; p < UI_TOGGLE_FIRST + UI_TOGGLE_COUNT; p++)
		if (!(rq->hidden & (1u << p)))
			on |= 1u << p;

	bool wide = W >= LAYOUT_WIDE_COLS;
	out->wide = wide;
	struct band bs[6];
	int nb;
	size_t di = 0;
	for (;;) {
		nb = build_bands(wide, on, rq, bs);
		int need = 0;
		for (int i = 0; i < nb; i++)
			need += bs[i].min;
		if (need <= body)
			break;
		while (di < sizeof drop_order / sizeof drop_order[0] &&
		       !(on & (1u << drop_order[di])))
			di++;
		if (di == sizeof drop_order / sizeof drop_order[0]) {
			on = 0;
			nb = build_bands(wide, on, rq, bs);
			break;
		}
		on &= ~(1u << drop_order[di]);
		out->dropped |= 1u << drop_order[di];
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
		band_place(&bs[i], on, 0, y, W, out);
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
