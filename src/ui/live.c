/* The live (and replay) screen: ui_run(), its event loop and its keys
 * (ui_live_keys[]: the help, the status bar's hints and the dispatch).
 * The panels are in panels.c, the frame copy and its maths in frame.c.
 *
 *   producers --(lock, notify)--> model --(short lock: frame_copy)--> frame
 *   frame --(layout, ui_panels[].draw)--> windows --(wnoutrefresh)--> one doupdate
 *
 * Fit for ssh: a frame is drawn only when there is new data (at most once
 * per -r seconds) or after a key; each window is werase'd and redrawn and
 * curses sends only the cells that changed.  Graphs do not scroll by one
 * column per sample (that would resend every cell of every graph each
 * frame): they fill to the right and jump back a quarter of their width
 * when full, so a frame usually changes one column (frame.c). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ui/layout.h"
#include "iodash/model/model.h"
#include "iodash/base/signals.h"
#include "iodash/results/stats.h"
#include "iodash/base/util.h"
#include "iodash/ui/ui.h"
#include "ui/frame.h"
#include "ui_live.h"

/* ---- copying from the model ---------------------------------------- */

static void view_copy(struct ui_live *L)
{
	frame_copy(&L->v, L->m, L->cols);
	L->v.disk_filter = &L->disks;
	/* the badge stands for what a frame covers: the refresh now */
	L->v.badge_zone = frame_worst_zone(&L->v, L->refresh);
}

/* Rebuild the curves of the chosen metric when results changed. */
static void curves_update(struct ui_live *L, bool force)
{
	if (!L->v.rs_changed && !force)
		return;
	L->v.rs_changed = false;
	if (L->have_cs)
		curve_set_free(&L->cs);
	L->have_cs = false;
	char names[16][RP_NAME_LEN];
	size_t nm = stats_list_metrics(&L->v.rs, names, 16);
	if (!nm) {
		snprintf(L->cs_msg, sizeof L->cs_msg,
			 "no results yet: runs of this session (iodash run, sweep) show here");
		return;
	}
	if (L->metric_idx < 0)
		L->metric_idx = (int)nm - 1;
	L->metric_idx %= (int)nm;
	snprintf(L->metric, sizeof L->metric, "%s", names[L->metric_idx]);
	if (stats_build_curves(&L->v.rs, L->metric, NULL, &L->cs) == 0)
		L->have_cs = true;
	else
		snprintf(L->cs_msg, sizeof L->cs_msg, "cannot build curves of %s", L->metric);
}

/* ---- layout and windows --------------------------------------------- */

static void windows_free(struct ui_live *L)
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

static void windows_layout(struct ui_live *L)
{
	int idx[FRAME_DISKS], idle;
	int nact = frame_active_disks(&L->v, idx, FRAME_DISKS, &idle);
	int rows = nact ? nact : 1;
	/* the room goes to what has something to show */
	unsigned empty = (L->v.nout ? 0 : 1u << UI_PANEL_OUTPUT) | (L->have_cs ? 0 : 1u << UI_PANEL_CURVES) |
			 (L->v.nev ? 0 : 1u << UI_PANEL_EVENTS);
	struct layout_req rq = { .cols = COLS, .rows = LINES, .hidden = L->hidden,
				 .curves_view = L->curves_view, .disk_rows = rows, .empty = empty };
	struct layout nl;
	layout_compute(&rq, &nl);
	if (L->win[UI_PANEL_HEADER] && L->cols == COLS && L->rows == LINES &&
	    !memcmp(&nl, &L->lay, sizeof nl))
		return;
	windows_free(L);
	/* the gaps between panels (and the whole body when every panel is
	 * hidden) belong to no window: blank them on stdscr, or the cells
	 * of panels that moved away stay on the screen (and Ctrl-L, which
	 * repaints what curses holds, would paint them again) */
	werase(stdscr);
	wnoutrefresh(stdscr);
	L->lay = nl;
	L->cols = COLS;
	L->rows = LINES;
	L->disk_rows = rows;
	/* the panels tile the screen: subwindows of stdscr, drawing into its
	 * cells, not a second screenful of cells of their own (134 KB at
	 * 120x40); each panel is erased and redrawn whole every frame, so
	 * no panel depends on what stdscr held there */
	for (int p = 0; p < UI_PANEL_COUNT; p++) {
		const struct ui_rect *r = &nl.r[p];
		if (r->w > 0 && r->h > 0)
			L->win[p] = subwin(stdscr, r->h, r->w, r->y, r->x);
	}
	/* the sampler scans /proc for the context panel only while it is
	 * on the screen */
	bool want = L->win[UI_PANEL_CONTEXT] != NULL;
	if (want != L->ctx_wanted) {
		L->ctx_wanted = want;
		model_want_context(L->m, want);
	}
	/* the focus goes to panels a key shows and hides */
	if (!ui_panels[L->focus].key || !L->win[L->focus]) {
		L->focus = 0;
		for (int p = 0; p < UI_PANEL_COUNT && !L->focus; p++)
			if (ui_panels[p].key && L->win[p])
				L->focus = p;
	}
}

static void draw_help(struct ui_live *L)
{
	const struct ui_style *st = &L->scr.st;
	int widest;
	int n = ui_key_help_lines(NULL, 0, 0, 0, 0, 0, st, ui_live_keys, ui_live_nkeys, L->screen,
				  &widest);
	/* as wide as its widest line (key column 11, a border each side),
	 * so nothing is cut where the terminal has the room */
	int hh = n + 4, hw = widest + 11 + 3;
	if (hw < 40)
		hw = 40;
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
	char more[PATH_MAX + 32];
	snprintf(more, sizeof more, "(more: %s)", ui_manual_hint());
	ui_put(w, 0, 13, hw - 14, st, TE_HELP, more);
	ui_key_help_lines(w, 2, 1, 11, hw - 2, hh - 2, st, ui_live_keys, ui_live_nkeys, L->screen,
			  NULL);
	wnoutrefresh(w);
}

static void frame(struct ui_live *L)
{
	windows_layout(L);
	for (int p = 0; p < UI_PANEL_COUNT; p++) {
		WINDOW *w = L->win[p];
		if (!w)
			continue;
		werase(w);
		ui_panels[p].draw(L, (struct ui_win *)w, L->focus == p);
		wnoutrefresh(w);
	}
	if (L->help)
		draw_help(L);
	doupdate();
}

/* ---- keys -------------------------------------------------------------- */

static void stop_bench(struct ui_live *L)
{
	if (L->m->stop_bench)
		L->m->stop_bench(L->m->stop_bench_ctx);
}

/* q and Ctrl-C: while a benchmark of ours runs, ask first (an attached
 * process is only watched: nothing to ask).  q + y quits once it has
 * exited; Ctrl-C + y stays to read the results. */
static enum ui_key_result key_quit(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	if (ch != 3 && L->quit_when_done)
		return UI_KEY_QUIT;
	if (frame_bench_active(&L->v) && L->m->stop_bench && !L->v.bench.attached) {
		L->asking_stop = true;
		L->quit_when_done = ch != 3;
		return UI_KEY_REDRAW;
	}
	return UI_KEY_QUIT;
}

static enum ui_key_result key_repaint(void *ctx, int ch)
{
	clearok(curscr, TRUE);
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_pause(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	L->paused = !L->paused;
	/* through the model: a waiting replay thread wakes to stop */
	model_set_paused(L->m, L->paused);
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_focus(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	for (int i = 1; i <= UI_PANEL_COUNT; i++) {
		int p = (L->focus + i) % UI_PANEL_COUNT;
		if (ui_panels[p].key && L->win[p]) {
			L->focus = p;
			break;
		}
	}
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_toggle(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	for (int p = 0; p < UI_PANEL_COUNT; p++)
		if (ui_panels[p].key && ui_panels[p].key == ch)
			L->hidden ^= 1u << p;
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_curves(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	L->curves_view = !L->curves_view;
	if (L->curves_view)
		L->focus = UI_PANEL_CURVES;
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_theme(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	ui_screen_next_theme(&L->scr);
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_refresh(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	/* + slows the screen down (fewer bytes), - speeds it up, down to
	 * the sampling interval */
	double r = frame_refresh_step(&L->v, L->cfg->interval, L->refresh, ch == '+' ? 1 : -1);
	bool at_end = fabs(r - L->refresh) < 1e-9;
	L->refresh = r;
	snprintf(L->scr.msg, sizeof L->scr.msg, "refresh every %g s%s", L->refresh,
		 !at_end ? "" : ch == '+' ? " (the slowest)" : " (as fast as the samples come)");
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_mark(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	/* the text comes first (mark_key), the mark on Enter */
	L->marking = true;
	L->mark_text[0] = '\0';
	return UI_KEY_REDRAW;
}

/* s: the disk panels' order: busiest by %util, by bytes a second, by name */
static enum ui_key_result key_disk_sort(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	L->v.disk_sort = (L->v.disk_sort + 1) % FRAME_SORT_N;
	snprintf(L->scr.msg, sizeof L->scr.msg, "disks: %s", frame_disk_sort_name(L->v.disk_sort));
	return UI_KEY_REDRAW;
}

/* f: a disk filter typed on the status line, as --disks takes it */
static enum ui_key_result key_disk_filter(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	L->filtering = true;
	snprintf(L->filter_text, sizeof L->filter_text, "%s", L->disks.text ? L->disks.text : "");
	return UI_KEY_REDRAW;
}

/* A key while the filter is typed: Enter applies it (empty: every disk),
 * Esc keeps the one before, Backspace takes back a character. */
static enum ui_key_result filter_key(struct ui_live *L, int ch)
{
	size_t n = strlen(L->filter_text);
	if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
		struct disk_filter f = { 0 };
		char err[256];
		L->filtering = false;
		if (disk_filter_parse(&f, L->filter_text, err, sizeof err)) {
			snprintf(L->scr.msg, sizeof L->scr.msg, "%s", err);
			return UI_KEY_REDRAW;
		}
		disk_filter_free(&L->disks);
		L->disks = f;
		snprintf(L->scr.msg, sizeof L->scr.msg, "disks: %s",
			 disk_filter_empty(&f) ? "every disk" : f.text);
	} else if (ch == 27 || ch == 3) {
		L->filtering = false;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (n > 0)
			L->filter_text[n - 1] = '\0';
	} else if (ch >= 0x20 && ch < 0x7f && n + 1 < sizeof L->filter_text) {
		L->filter_text[n] = (char)ch;   /* device names are ASCII */
		L->filter_text[n + 1] = '\0';
	}
	return UI_KEY_REDRAW;
}

/* A key while a mark's text is typed: Enter puts the mark (its number,
 * and the text when there is one) in the events and the recording; Esc
 * drops it; Backspace takes back a character (a whole UTF-8 one). */
static enum ui_key_result mark_key(struct ui_live *L, int ch)
{
	size_t n = strlen(L->mark_text);
	if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
		L->marking = false;
		L->marks++;
		if (L->mark_text[0])
			model_add_event(L->m, MEV_MARK, model_now(L->m), "mark %u: %s", L->marks, L->mark_text);
		else
			model_add_event(L->m, MEV_MARK, model_now(L->m), "mark %u", L->marks);
	} else if (ch == 27 || ch == 3) {
		L->marking = false;
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		while (n > 0 && ((unsigned char)L->mark_text[n - 1] & 0xC0) == 0x80)
			n--;
		if (n > 0)
			n--;
		L->mark_text[n] = '\0';
	} else if (ch >= 0x20 && ch <= 0xff && ch != 0x7f && n + 1 < sizeof L->mark_text) {
		L->mark_text[n] = (char)ch;
		L->mark_text[n + 1] = '\0';
	}
	return UI_KEY_REDRAW;
}

/* Enter on the selected event in view: the recording as it was at its
 * time (the replay takes the command; the pane then follows again, its
 * event the newest or near it). */
static enum ui_key_result key_event_goto(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	if (L->focus != UI_PANEL_EVENTS || !L->ev_selecting || !L->v.nev)
		return UI_KEY_NONE;
	uint64_t key[FRAME_EVENTS];
	int line_ev[FRAME_EVENTS];
	int nl = frame_event_lines(&L->v, key, line_ev);
	const struct model_event *e = &L->v.ev[line_ev[frame_event_line_of(key, nl, L->ev_sel)]];
	char t[24];
	ui_fmt_dur(e->t, t, sizeof t);
	if (model_post_cmd(L->m, MODEL_CMD_SEEK, e->t, NULL))
		snprintf(L->scr.msg, sizeof L->scr.msg, "the replay is busy: Enter again");
	else
		snprintf(L->scr.msg, sizeof L->scr.msg, "at %s: %s", t, e->text);
	L->ev_selecting = false;
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_partitions(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	L->ctx_partitions = !L->ctx_partitions;
	if (!L->win[UI_PANEL_CONTEXT])
		snprintf(L->scr.msg, sizeof L->scr.msg, "partitions are listed in the context panel (7)");
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_help(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	L->help = true;
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_scroll(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	bool up = ch == KEY_UP || ch == KEY_PPAGE, page = ch == KEY_PPAGE || ch == KEY_NPAGE;
	if (L->focus == UI_PANEL_OUTPUT) {
		if (up && L->out_back + 1 < L->v.nout) {
			L->out_back += page ? 10 : 1;
			if (L->out_back >= L->v.nout)
				L->out_back = L->v.nout - 1;
			return UI_KEY_REDRAW;
		}
		if (!up && L->out_back > 0) {
			L->out_back -= page ? 10 : 1;
			if (L->out_back < 0)
				L->out_back = 0;
			return UI_KEY_REDRAW;
		}
	}
	if (L->focus == UI_PANEL_EVENTS && L->v.nev) {
		/* select a line: the first up the newest; down past it follows
		 * the newest again */
		uint64_t key[FRAME_EVENTS];
		int line_ev[FRAME_EVENTS];
		int nl = frame_event_lines(&L->v, key, line_ev);
		int h = L->lay.r[UI_PANEL_EVENTS].h - 1, step = page ? (h > 2 ? h - 1 : 1) : 1;
		if (!L->ev_selecting) {
			if (!up)
				return UI_KEY_NONE;
			L->ev_selecting = true;
			L->ev_top = key[nl > h && h > 0 ? nl - h : 0];
			L->ev_sel = key[nl - 1];
			return UI_KEY_REDRAW;
		}
		int j = frame_event_line_of(key, nl, L->ev_sel) + (up ? -step : step);
		if (j >= nl)
			L->ev_selecting = false;
		else
			L->ev_sel = key[j < 0 ? 0 : j];
		return UI_KEY_REDRAW;
	}
	if (L->focus == UI_PANEL_CURVES) {
		if (up)
			L->metric_idx = L->metric_idx > 0 ? L->metric_idx - 1 : 15;
		else
			L->metric_idx++;
		curves_update(L, true);
		return UI_KEY_REDRAW;
	}
	return UI_KEY_NONE;
}

/* Time travel in a recording: the replay's key hook posts the commands
 * (model_post_cmd) and the replay thread moves; its new state comes back
 * through the model. */
static enum ui_key_result key_replay(void *ctx, int ch)
{
	struct ui_live *L = ctx;
	return L->m->key_hook && L->m->key_hook(L->m->key_ctx, ch) ? UI_KEY_REDRAW : UI_KEY_NONE;
}

#define LV (UI_SCREEN_LIVE | UI_SCREEN_VIEW)
/* The live and view screens' keys, in the order of the status bar's hints
 * and of the help. */
const struct ui_key_def ui_live_keys[] = {
	{ { 'q', 'Q' }, "q", "quit",
	  "quit (asks first while a benchmark runs: y stops it, iodash\n"
	  "quits once it has exited; q again quits at once)", UI_SCREEN_LIVE, key_quit },
	{ { 'q', 'Q' }, "q", "quit", "quit", UI_SCREEN_VIEW, key_quit },
	{ { 3 }, "Ctrl-C", NULL, "stop the benchmark (asks), stay to read the results",
	  UI_SCREEN_LIVE, key_quit },
	{ { 3 }, "Ctrl-C", NULL, "quit", UI_SCREEN_VIEW, key_quit },
	{ { ' ' }, "space", "pause", "pause the display (sampling and recording go on)",
	  UI_SCREEN_LIVE, key_pause },
	{ { ' ' }, "space", "pause", "pause the replay, and play on", UI_SCREEN_VIEW, key_pause },
	{ { KEY_LEFT, KEY_RIGHT }, "left/right", "step", "one sample back / on", UI_SCREEN_VIEW,
	  key_replay },
	{ { '[', ']' }, "[ ]", NULL, "one minute back / on", UI_SCREEN_VIEW, key_replay },
	{ { KEY_HOME, KEY_END }, "Home/End", NULL, "the start / the end of the recording",
	  UI_SCREEN_VIEW, key_replay },
	{ { 'g' }, "g", "go to", "go to a time: [+|-][[h:]m:]s, Enter (Esc: cancel)",
	  UI_SCREEN_VIEW, key_replay },
	{ { '\t' }, "tab", "focus", "move the focus between panels", LV, key_focus },
	{ { UI_KEY_PANELS }, "", "panels", "show/hide:", LV, key_toggle },
	{ { 'c' }, "c", "curves", "result curves on the whole screen, and back", LV, key_curves },
	{ { KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE }, "up/down", NULL,
	  "focused output: scroll back; focused events: select a line;\n"
	  "focused curves: metric", LV, key_scroll },
	{ { '\n', '\r', KEY_ENTER }, "Enter", NULL, "focused events: go to the selected event's time",
	  UI_SCREEN_VIEW, key_event_goto },
	{ { 't' }, "t", "theme", "next theme (themes/*.theme)", LV, key_theme },
	{ { '+', '-' }, "+/-", "slower/faster", "refresh the screen slower / faster (-r; never faster\n"
	  "than the samples come, -i)", LV, key_refresh },
	{ { 'p' }, "p", NULL, "context panel (7): the disks' partitions too, and back", LV,
	  key_partitions },
	{ { 's' }, "s", "sort disks", "the disks' order: busiest by %util, busiest by bytes, by name", LV,
	  key_disk_sort },
	{ { 'f' }, "f", "filter disks", "list only these disks: names or globs (sda,nvme*), Enter\n"
	  "(empty: every disk; Esc: keep the filter); as --disks LIST", LV, key_disk_filter },
	{ { 'm' }, "m", "mark", "put a mark in the events and the recording: type its text,\n"
	  "Enter (Esc: no mark)", UI_SCREEN_LIVE, key_mark },
	{ { 12 }, "Ctrl-L", NULL, "repaint the whole screen", LV, key_repaint },
	{ { 'h', '?' }, "h ?", "help", "this help; any key closes it", LV, key_help },
};
const size_t ui_live_nkeys = sizeof ui_live_keys / sizeof ui_live_keys[0];

static enum ui_key_result on_key(struct ui_live *L, int ch)
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
		return UI_KEY_REDRAW;
	}
	if (L->marking && ch != KEY_RESIZE)
		return mark_key(L, ch);
	if (L->filtering && ch != KEY_RESIZE)
		return filter_key(L, ch);
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
		return UI_KEY_REDRAW;
	}
	if (ch == KEY_RESIZE) {
		if (L->help_win) {
			delwin(L->help_win);
			L->help_win = NULL;
		}
		return UI_KEY_REDRAW;
	}
	/* A recording's keys go to its hook first, whatever the table says:
	 * its go-to prompt takes digits, + and - that are other keys here
	 * (the hook leaves the keys it does not want). */
	if (L->screen == UI_SCREEN_VIEW && key_replay(L, ch) == UI_KEY_REDRAW)
		return UI_KEY_REDRAW;
	const struct ui_key_def *k = ui_key_find(ui_live_keys, ui_live_nkeys, L->screen, ch);
	return k ? k->handler(L, ch) : UI_KEY_NONE;
}

/* ---- the loop ------------------------------------------------------------ */

/* The terminal is gone: no more drawing; wait for the producers. */
static int headless_wait(struct ui_live *L)
{
	struct model *m = L->m;
	model_lock(m);
	bool with_bench = m->with_bench, replay = m->replay;
	model_unlock(m);

	/* a plain live view has nothing left to finish, unless it was told
	 * how long to record (--count, --duration); nor has a replay (what
	 * it shows is on disk): a view of a recording whose run never ended
	 * waited here for its bench_done for ever, its terminal gone */
	if (replay || (!with_bench && !L->cfg->timed))
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

static void live_free(struct ui_live *L)
{
	windows_free(L);
	if (L->have_cs)
		curve_set_free(&L->cs);
	frame_free(&L->v);
	disk_filter_free(&L->disks);
}

/* The screen's state for m, its graphs' history kept, the screen open.
 * NULL when it cannot be (said on stderr). */
static struct ui_live *live_open(struct model *m, const struct ui_config *cfg)
{
	struct ui_live *L = calloc(1, sizeof *L);
	if (!L) {
		fprintf(stderr, "iodash: out of memory\n");
		return NULL;
	}
	L->m = m;
	L->cfg = cfg;
	/* a recording replayed has its time travel keys, not the live ones */
	L->screen = m->replay_seekable ? UI_SCREEN_VIEW : UI_SCREEN_LIVE;
	/* the graphs' columns keep the first -r (m->hist->width) when +/-
	 * change the refresh; the commands keep the history before their
	 * producers start, this is for a caller that did not */
	L->refresh = cfg->graph_seconds;
	if (!m->hist && model_keep_history(m, cfg->graph_seconds)) {
		free(L);
		fprintf(stderr, "iodash: out of memory\n");
		return NULL;
	}
	L->metric_idx = 0;     /* the first metric the tool gives: its headline figure */
	char err[256];
	if (disk_filter_parse(&L->disks, cfg->disks, err, sizeof err)) {
		free(L);
		fprintf(stderr, "iodash: %s\n", err);
		return NULL;
	}
	L->v.disk_filter = &L->disks;
	/* the context panel costs a scan of /proc a second: shown on asking (7) */
	L->hidden = 1u << UI_PANEL_CONTEXT;
	L->sigints_seen = signals_interrupts();
	if (ui_screen_open(&L->scr, &cfg->look) < 0) {
		free(L);
		return NULL;
	}
	return L;
}

/* When the loop looks at the model, draws, and what is waiting to be
 * drawn.  Samples come without waking the ui thread: it looks at the
 * model's gen when its refresh is due (next_look).  A wake-up (an event,
 * a run starting or ending, the end) is news, drawn at once, at most
 * every UI_URGENT_MIN_S. */
struct live_loop {
	double last_draw, next_look;
	bool data_dirty, redraw, urgent;
	bool stopping;     /* SIGTERM stopped the benchmark: its end gives the exit status */
};

enum live_signal { LIVE_SIG_NONE, LIVE_SIG_HANGUP, LIVE_SIG_END };

/* What the signals since the last look ask.  SIGTERM stops our
 * benchmark and ends the screen; a SIGINT from outside is Ctrl-C
 * without a question. */
static enum live_signal live_check_signals(struct ui_live *L, struct live_loop *lp)
{
	if (signals_hangup())
		return LIVE_SIG_HANGUP;
	if (signals_terminate()) {
		if (frame_bench_active(&L->v)) {
			stop_bench(L);
			lp->stopping = true;
		}
		return LIVE_SIG_END;
	}
	int ints = signals_interrupts();
	if (ints != L->sigints_seen) {
		L->sigints_seen = ints;
		if (frame_bench_active(&L->v) && L->m->stop_bench && !L->v.bench.attached)
			stop_bench(L);
		else
			return LIVE_SIG_END;
	}
	return LIVE_SIG_NONE;
}

/* The terminal is gone: endwin and nothing else on it.  Watching an
 * attached process is of no use to anyone now: it ends (the process goes
 * on).  By the command, not the frame copy: a SIGHUP right after the
 * start comes before the driver said it attached.  The exit code. */
static int live_hang_up(struct ui_live *L)
{
	ui_screen_close(&L->scr);
	if (L->cfg->attached)
		stop_bench(L);
	return headless_wait(L);
}

/* A status message gives the key hints back after UI_MSG_SECONDS. */
static void live_age_message(struct ui_live *L, struct live_loop *lp, double t)
{
	if (strcmp(L->scr.msg, L->msg_seen)) {
		snprintf(L->msg_seen, sizeof L->msg_seen, "%s", L->scr.msg);
		L->msg_t = t;
	} else if (L->scr.msg[0] && t - L->msg_t >= UI_MSG_SECONDS) {
		L->scr.msg[0] = L->msg_seen[0] = '\0';
		lp->redraw = true;
	}
}

/* A paused replay still shows where time travel takes it: its producer
 * sends nothing else while paused. */
static bool live_shows_data(const struct ui_live *L)
{
	return !L->paused || L->m->replay_seekable;
}

/* Look at the model when the refresh is due, draw a frame when there is
 * something new to draw.  Whether the screen is done (q + y, and the
 * benchmark has exited). */
static bool live_draw_if_due(struct ui_live *L, struct live_loop *lp, double t)
{
	struct model *m = L->m;
	bool look = t >= lp->next_look - 0.005;

	if (look) {
		lp->next_look = t + L->refresh;
		if (!lp->data_dirty) {
			model_lock(m);
			lp->data_dirty = model_gen_locked(m) != L->gen_seen;
			model_unlock(m);
		}
	}
	bool can_draw = look || (lp->urgent && t - lp->last_draw >= UI_URGENT_MIN_S);
	bool show_data = live_shows_data(L);
	if (!lp->redraw && !(lp->data_dirty && show_data && can_draw))
		return false;
	if (lp->data_dirty && show_data) {
		model_lock(m);
		L->gen_seen = model_gen_locked(m);
		model_unlock(m);
		view_copy(L);
		curves_update(L, false);
		lp->data_dirty = false;
		lp->urgent = false;
	}
	frame(L);
	lp->last_draw = t;
	lp->next_look = t + L->refresh;
	lp->redraw = false;
	return L->quit_when_done && !L->asking_stop && L->v.bench_done;
}

/* Until the next look (sooner for news not yet shown, or a message to
 * take away), and at least once a second: signals (SIGHUP) are looked
 * at then.  Milliseconds. */
static int live_poll_timeout(const struct ui_live *L, const struct live_loop *lp, double t)
{
	double due = lp->next_look - t;
	if (lp->urgent && lp->data_dirty && live_shows_data(L) && lp->last_draw + UI_URGENT_MIN_S - t < due)
		due = lp->last_draw + UI_URGENT_MIN_S - t;
	int timeout = due <= 0 ? 0 : (int)(due * 1000) + 1;
	if (timeout > 1000)
		timeout = 1000;
	if (L->scr.msg[0]) {
		int left = (int)((L->msg_t + UI_MSG_SECONDS - t) * 1000) + 1;
		if (left < timeout)
			timeout = left < 0 ? 0 : left;
	}
	return timeout;
}

/* Wait for a key, the model's news or the timeout.  -1: poll failed
 * (the screen ends); 1: the terminal hung up (look at the signals
 * again); 0: go on to the keys. */
static int live_wait(struct ui_live *L, struct live_loop *lp, int timeout)
{
	struct model *m = L->m;
	struct pollfd pf[2] = { { STDIN_FILENO, POLLIN, 0 }, { model_wake_fd(m), POLLIN, 0 } };
	int r = poll(pf, 2, timeout);

	if (r < 0 && errno != EINTR)
		return -1;
	if (r > 0 && (pf[1].revents & POLLIN)) {
		lp->urgent = model_drain_wake(m) || lp->urgent;
		lp->data_dirty = true;
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
		signals_note_hangup();
		return 1;
	}
	return 0;
}

/* The keys typed since the last look.  Whether one of them quits. */
static bool live_take_keys(struct ui_live *L, struct live_loop *lp)
{
	int ch;

	while ((ch = getch()) != ERR) {
		enum ui_key_result kr = on_key(L, ch);
		if (kr == UI_KEY_QUIT)
			return true;
		if (kr == UI_KEY_REDRAW)
			lp->redraw = true;
	}
	return false;
}

int ui_run(struct model *m, const struct ui_config *cfg)
{
	struct ui_live *L = live_open(m, cfg);
	struct live_loop lp = { 0 };
	int code = 0;

	if (!L)
		return 1;
	/* A theme that did not load: said on the status line now, and on
	 * stderr after the screen is gone (so it stays in the scrollback). */
	char theme_msg[sizeof L->scr.msg];
	snprintf(theme_msg, sizeof theme_msg, "%s", L->scr.msg);
	view_copy(L);
	curves_update(L, true);
	frame(L);
	lp.last_draw = util_mono_s();
	lp.next_look = lp.last_draw + L->refresh;
	for (;;) {
		enum live_signal sig = live_check_signals(L, &lp);
		if (sig == LIVE_SIG_HANGUP) {
			code = live_hang_up(L);
			live_free(L);
			free(L);
			return code;
		}
		if (sig == LIVE_SIG_END)
			break;
		double t = util_mono_s();
		live_age_message(L, &lp, t);
		if (live_draw_if_due(L, &lp, t))
			break;
		int w = live_wait(L, &lp, live_poll_timeout(L, &lp, t));
		if (w < 0)
			break;
		if (w > 0)
			continue;
		if (live_take_keys(L, &lp))
			break;
	}
	ui_screen_close(&L->scr);
	if (theme_msg[0])
		fprintf(stderr, "iodash: %s\n", theme_msg);
	if (lp.stopping) {
		/* the exit status is the run's, which is known once the driver
		 * has recorded the stop (as --batch waits for it) */
		code = headless_wait(L);
	} else {
		model_lock(m);
		code = m->exit_code;
		model_unlock(m);
	}
	live_free(L);
	free(L);
	return code;
}
