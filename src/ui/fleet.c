/* The fleet screen (iodash fleet): one row per host, worst first, from
 * the fleet poller (fleet.h).  Enter opens the chosen host's full
 * dashboard (this iodash with --host HOST) and comes back to the fleet. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "iodash/session/fleet.h"
#include "iodash/base/signals.h"
#include "iodash/base/util.h"
#include "iodash/ui/ui.h"
#include "ui_screen.h"

struct fleet_view {
	struct ui_look look;
	double interval;             /* the hosts' polling, and a dashboard's -i */
	struct ui_screen scr;
	struct fleet_row *rows;      /* as many as hosts: the command's */
	size_t nrows, cap;
	struct fleet_summary sum;
	int sel, top;                /* the chosen row, the first row shown */
	char msg[256];
};

static enum theme_elem fleet_state_elem(enum fleet_state s)
{
	switch (s) {
	case FLEET_UNREACHABLE:
	case FLEET_FAILED: return TE_ERROR;
	case FLEET_THROTTLED: return TE_BADGE_THROTTLE;
	case FLEET_BUSY: return TE_BADGE_BG;
	case FLEET_OK: return TE_BADGE_BELOW;
	}
	return TE_TEXT;
}

/* The dirty level against its thresholds, `w` cells: filled to the level
 * of thresh, '|' at freerun (where writers start to be paused). */
static void fleet_gauge(int y, int x, int w, const struct fleet_row *r, const struct ui_style *st)
{
	if (!r->have_sample || !r->now.have_dirty || !r->now.thresh_kb || w < 3) {
		ui_put(stdscr, y, x, w, st, TE_DIM, "n/a");
		return;
	}
	int fill = (int)((double)r->now.level_kb / (double)r->now.thresh_kb * w + 0.5);
	int fr = (int)((double)r->now.freerun_kb / (double)r->now.thresh_kb * w);
	enum theme_elem e = r->now.zone >= ZONE_THROTTLE ? TE_BADGE_THROTTLE : TE_DIRTY;
	for (int i = 0; i < w; i++) {
		const char *ch = i < fill ? (st->utf8 && st->glyphs != UI_GLYPH_ASCII ? "\xe2\x96\x88" : "#")
					  : (i == fr ? "|" : (st->utf8 && st->glyphs != UI_GLYPH_ASCII ? "\xc2\xb7" : "."));
		ui_put(stdscr, y, x + i, 1, st, i < fill ? e : (i == fr ? TE_LINE_FREERUN : TE_GAUGE_EMPTY), ch);
	}
}

/* Where the table's columns go: host, state, kernel, gauge, disk rates,
 * hits, bench; at 80 columns every one still fits, narrower. */
struct fleet_cols {
	bool wide;
	int hw, sw, kw, gw, dw, tw;      /* widths */
	int xs, xk, xg, xd, xt, xb;      /* where each starts */
};

static void fleet_columns(int cols, struct fleet_cols *c)
{
	c->wide = cols >= 110;
	c->hw = c->wide ? 22 : 17;
	c->sw = 12;
	c->kw = c->wide ? 18 : 9;
	c->gw = c->wide ? 16 : 8;
	c->dw = c->wide ? 22 : 16;
	c->tw = c->wide ? 13 : 5;
	c->xs = c->hw;
	c->xk = c->xs + c->sw;
	c->xg = c->xk + c->kw;
	c->xd = c->xg + c->gw + 1;
	c->xt = c->xd + c->dw;
	c->xb = c->xt + c->tw;
}

static void fleet_draw_head(const struct ui_style *st, const struct fleet_cols *c, int y, int cols)
{
	ui_fill(stdscr, y, 0, cols, st, TE_TABLE_HEAD, " ");
	ui_put(stdscr, y, 1, c->hw - 1, st, TE_TABLE_HEAD, "HOST");
	ui_put(stdscr, y, c->xs, c->sw, st, TE_TABLE_HEAD, "STATE");
	ui_put(stdscr, y, c->xk, c->kw, st, TE_TABLE_HEAD, "KERNEL");
	ui_put(stdscr, y, c->xg, c->gw + 1, st, TE_TABLE_HEAD, c->wide ? "DIRTY / THRESH" : "DIRTY");
	ui_put(stdscr, y, c->xd, c->dw, st, TE_TABLE_HEAD, c->wide ? "BUSIEST DISK R / W" : "DISK  R  W");
	if (c->xt < cols)
		ui_put(stdscr, y, c->xt, c->tw, st, TE_TABLE_HEAD, c->wide ? "HITS 5m  THR" : "HITS");
	if (c->xb < cols)
		ui_put(stdscr, y, c->xb, cols - c->xb, st, TE_TABLE_HEAD, "BENCH");
}

/* The bench column: state, run k of n (a sweep), FAILED, the label, the
 * ETA and the last result, as much as fits; "-" without an iodash. */
static void fleet_bench_text(const struct fleet_row *r, char *buf, size_t len)
{
	char run[32] = "", eta[32] = "", a[32];

	if (!r->iodash.have) {
		snprintf(buf, len, "-");
		return;
	}
	if (r->iodash.runs > 1)
		snprintf(run, sizeof(run), " %u/%u", r->iodash.run, r->iodash.runs);
	if (r->iodash.eta_s) {
		ui_fmt_dur(r->iodash.eta_s, a, sizeof(a));
		snprintf(eta, sizeof(eta), " ETA %s", a);
	}
	snprintf(buf, len, "%s%s%s %s%s%s%s", r->iodash.state, run, r->iodash.failed ? " FAILED" : "",
		 r->iodash.label, eta, r->iodash.result[0] ? "  last: " : "", r->iodash.result);
}

static void fleet_draw_row(const struct ui_style *st, const struct fleet_cols *c, const struct fleet_row *r,
			   bool selected, int y, int cols)
{
	char buf[256], a[32], b[32];

	if (selected)
		ui_put(stdscr, y, 0, 1, st, TE_KEY, ">");
	ui_put(stdscr, y, 1, c->hw - 2, st, TE_TEXT, r->host);
	ui_put(stdscr, y, c->xs, c->sw - 1, st, fleet_state_elem(r->state), fleet_state_name(r->state));
	ui_put(stdscr, y, c->xk, c->kw - 1, st, TE_DIM, r->kernel[0] ? r->kernel : "-");
	if (r->state == FLEET_UNREACHABLE) {
		snprintf(buf, sizeof(buf), "%.0f s: %s", r->since_s, r->why);
		ui_put(stdscr, y, c->xg, cols - c->xg, st, TE_ERROR, buf);
		return;
	}
	fleet_gauge(y, c->xg, c->gw, r, st);
	if (r->have_sample && r->now.disk[0]) {
		ui_fmt_rate_kb(r->now.rkB_s, a, sizeof(a));
		ui_fmt_rate_kb(r->now.wkB_s, b, sizeof(b));
		snprintf(buf, sizeof(buf), c->wide ? "%-5.5s %s %s" : "%-4.4s %s %s", r->now.disk, a, b);
	} else {
		snprintf(buf, sizeof(buf), "-");
	}
	ui_put(stdscr, y, c->xd, c->dw - 1, st, TE_TEXT, buf);
	if (c->xt < cols) {
		ui_fmt_dur(r->throttled_s, a, sizeof(a));
		if (c->wide)
			snprintf(buf, sizeof(buf), "%u  %s", r->hits, a);
		else
			snprintf(buf, sizeof(buf), "%u", r->hits);
		ui_put(stdscr, y, c->xt, c->tw - 1, st, r->hits ? TE_HIT : TE_DIM, buf);
	}
	if (c->xb < cols) {
		fleet_bench_text(r, buf, sizeof(buf));
		ui_put(stdscr, y, c->xb, cols - c->xb, st, r->iodash.failed ? TE_ERROR : TE_TEXT, buf);
	}
}

static void fleet_draw(struct fleet_view *v)
{
	const struct ui_style *st = &v->scr.st;
	int rows = LINES, cols = COLS, shown = 0;
	char buf[256];

	erase();
	/* with hundreds of hosts the count by state is the summary: every
	 * state that has any, worst first */
	int len = snprintf(buf, sizeof(buf), " iodash fleet  %zu host%s:", v->nrows, v->nrows == 1 ? "" : "s");
	for (int s = 0; s < FLEET_NSTATES && len < (int)sizeof(buf); s++)
		if (v->sum.by_state[s])
			len += snprintf(buf + len, sizeof(buf) - (size_t)len, "%s %zu %s", shown++ ? "," : "",
					v->sum.by_state[s], fleet_state_name((enum fleet_state)s));
	if (len < (int)sizeof(buf))
		snprintf(buf + len, sizeof(buf) - (size_t)len, "  (every %.3g s)", v->interval);
	ui_fill(stdscr, 0, 0, cols, st, TE_HEADER, " ");
	ui_put(stdscr, 0, 0, cols, st, TE_HEADER, buf);
	if (rows < 4 || cols < 30) {
		ui_put(stdscr, rows > 1 ? 1 : 0, 0, cols, st, TE_ERROR, "terminal too small");
		refresh();
		return;
	}
	struct fleet_cols c;
	int y = 1, body = rows - 3;
	fleet_columns(cols, &c);
	fleet_draw_head(st, &c, y, cols);
	if (v->sel < v->top)
		v->top = v->sel;
	if (v->sel >= v->top + body)
		v->top = v->sel - body + 1;
	for (int i = v->top; i < (int)v->nrows && y < rows - 2; i++)
		fleet_draw_row(st, &c, &v->rows[i], i == v->sel, ++y, cols);
	ui_fill(stdscr, rows - 1, 0, cols, st, TE_STATUS, " ");
	/* where the rows shown are among all of them, at the right */
	char pos[48];
	int pw = 0;
	if ((int)v->nrows > body) {
		int last = v->top + body < (int)v->nrows ? v->top + body : (int)v->nrows;
		pw = snprintf(pos, sizeof(pos), " %d-%d of %zu ", v->top + 1, last, v->nrows);
		if (pw < cols - 20)
			ui_put(stdscr, rows - 1, cols - pw, pw, st, TE_STATUS, pos);
		else
			pw = 0;
	}
	if (v->msg[0])
		ui_put(stdscr, rows - 1, 1, cols - 1 - pw, st, TE_STATUS, v->msg);
	else
		ui_key_hints(stdscr, rows - 1, 1, cols - 1 - pw, st, ui_fleet_keys, ui_fleet_nkeys, UI_SCREEN_FLEET);
	refresh();
}

static enum ui_key_result key_quit(void *ctx, int ch)
{
	(void)ctx;
	(void)ch;
	return UI_KEY_QUIT;
}

static enum ui_key_result key_move(void *ctx, int ch)
{
	struct fleet_view *v = ctx;
	int body = LINES - 3 > 1 ? LINES - 3 : 1;

	if (ch == KEY_UP || ch == 'k')
		v->sel--;
	else if (ch == KEY_DOWN || ch == 'j')
		v->sel++;
	else if (ch == KEY_PPAGE)
		v->sel -= body;
	else if (ch == KEY_NPAGE)
		v->sel += body;
	else if (ch == KEY_HOME || ch == 'g')
		v->sel = 0;
	else if (ch == KEY_END || ch == 'G')
		v->sel = (int)v->nrows - 1;
	if (v->sel >= (int)v->nrows)
		v->sel = (int)v->nrows - 1;
	if (v->sel < 0)
		v->sel = 0;
	return UI_KEY_REDRAW;
}

/* Enter: this iodash on the chosen host's counters, in the same terminal;
 * the fleet goes on polling meanwhile and takes the screen back after. */
static enum ui_key_result key_open(void *ctx, int ch)
{
	struct fleet_view *v = ctx;
	char interval[32];
	int ws;

	(void)ch;
	if (v->sel < 0 || v->sel >= (int)v->nrows)
		return UI_KEY_NONE;
	const char *host = v->rows[v->sel].host;
	snprintf(interval, sizeof(interval), "%g", v->interval);
	struct signals_mark mk;
	signals_mark(&mk);
	def_prog_mode();
	endwin();
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		if (v->look.theme)
			execl("/proc/self/exe", "iodash", "-i", interval, "--theme", v->look.theme, "--host", host,
			      (char *)NULL);
		else
			execl("/proc/self/exe", "iodash", "-i", interval, "--host", host, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
			;
	/* its Ctrl-C and q were its own, not the fleet's */
	signals_forget_since(&mk);
	reset_prog_mode();
	clearok(curscr, TRUE);
	if (pid < 0)
		snprintf(v->msg, sizeof(v->msg), "cannot open %s's dashboard: %s", host, strerror(errno));
	else if (WIFEXITED(ws) && WEXITSTATUS(ws) != 0)
		snprintf(v->msg, sizeof(v->msg), "%s's dashboard ended with exit %d", host, WEXITSTATUS(ws));
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_theme(void *ctx, int ch)
{
	struct fleet_view *v = ctx;
	(void)ch;
	ui_screen_next_theme(&v->scr);
	return UI_KEY_REDRAW;
}

static enum ui_key_result key_repaint(void *ctx, int ch)
{
	(void)ctx;
	(void)ch;
	clearok(curscr, TRUE);
	return UI_KEY_REDRAW;
}

const struct ui_key_def ui_fleet_keys[] = {
	{ { 'q', 'Q', 27 }, "q", "quit", "quit (Esc too)", UI_SCREEN_FLEET, key_quit },
	{ { KEY_UP, KEY_DOWN, 'k', 'j', KEY_PPAGE, KEY_NPAGE }, "\xe2\x86\x91\xe2\x86\x93", "host",
	  "choose a host (j, k, PgUp, PgDn too)", UI_SCREEN_FLEET, key_move },
	{ { KEY_HOME, KEY_END, 'g', 'G' }, "Home End", NULL, "the first or last host (g, G too)",
	  UI_SCREEN_FLEET, key_move },
	{ { '\n', '\r', KEY_ENTER }, "Enter", "dashboard",
	  "the chosen host's full dashboard (q there comes back)", UI_SCREEN_FLEET, key_open },
	{ { 't' }, "t", "theme", "next theme (themes/*.theme)", UI_SCREEN_FLEET, key_theme },
	{ { 12 }, "Ctrl-L", NULL, "repaint the whole screen", UI_SCREEN_FLEET, key_repaint },
};
const size_t ui_fleet_nkeys = sizeof ui_fleet_keys / sizeof ui_fleet_keys[0];

int ui_fleet_run(struct fleet *f, const struct ui_look *look, double interval, struct fleet_row *rows,
		 size_t nhosts)
{
	struct fleet_view *v = calloc(1, sizeof(*v));
	uint64_t drawn_polls = (uint64_t)-1, drawn_ns = 0;
	bool news = true;

	if (!v) {
		fprintf(stderr, "iodash fleet: out of memory\n");
		return 1;
	}
	v->look = *look;
	v->interval = interval;
	v->rows = rows;
	v->cap = nhosts;
	if (ui_screen_open(&v->scr, &v->look)) {
		free(v);
		return 1;
	}
	keypad(stdscr, TRUE);
	timeout(0);
	for (;;) {
		if (signals_any())
			break;
		/* the rows are copied and sorted only when a poll changed them,
		 * and drawn when a poller ends a round (news wakes the screen),
		 * at most every FLEET_FRAME_S (fleet.h) */
		/* with nothing pending, sleep until news, a key or a signal: a
		 * timeout near the interval woke the screen in the middle of
		 * a round, copied the half-polled rows, and the round's news
		 * then waited a frame for the next copy; this one only ends a
		 * wait that no round ended */
		int wait_ms = (int)(v->interval * 2000) + 1000;
		if (news || fleet_polls(f) != drawn_polls) {
			uint64_t now = util_mono_ns();
			if (now - drawn_ns >= (uint64_t)(FLEET_FRAME_S * 1e9)) {
				news = false;
				drawn_ns = now;
				drawn_polls = fleet_polls(f);
				v->nrows = fleet_rows(f, v->rows, v->cap, &v->sum);
				fleet_draw(v);
			} else {
				wait_ms = (int)((drawn_ns + (uint64_t)(FLEET_FRAME_S * 1e9) - now) / 1000000) + 1;
			}
		}
		int ch = getch();
		if (ch == ERR) {
			struct pollfd pf[2] = { { .fd = STDIN_FILENO, .events = POLLIN },
						{ .fd = fleet_news_fd(f), .events = POLLIN } };
			/* pending news: wait for the frame's time or a key only */
			if (poll(pf, news ? 1 : 2, wait_ms) > 0 && !news && pf[1].revents)
				news = true;
			continue;
		}
		if (ch == KEY_RESIZE) {
			fleet_draw(v);
			continue;
		}
		v->msg[0] = '\0';
		const struct ui_key_def *k = ui_key_find(ui_fleet_keys, ui_fleet_nkeys, UI_SCREEN_FLEET, ch);
		enum ui_key_result r = k ? k->handler(v, ch) : UI_KEY_NONE;
		if (r == UI_KEY_QUIT)
			break;
		fleet_draw(v);
	}
	ui_screen_close(&v->scr);
	free(v);
	return 0;
}
