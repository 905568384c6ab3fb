/* ui_screen: terminal set-up, colours from the theme, text helpers.  The
 * only place that decides how a theme element looks on this terminal. */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/wait.h>
#include <term.h>
#include <unistd.h>
#include "iodash/base/config.h"
#include "ui_screen.h"

static attr_t attrs_of(unsigned a)
{
	attr_t r = A_NORMAL;
	if (a & THA_BOLD)
		r |= A_BOLD;
	if (a & THA_DIM)
		r |= A_DIM;
	if (a & THA_REVERSE)
		r |= A_REVERSE;
	if (a & THA_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & THA_ITALIC)
		r |= A_ITALIC;
	return r;
}

static int level_colors(enum ui_color_level l)
{
	switch (l) {
	case UI_TRUECOLOR: return 1 << 24;
	case UI_COLOR256: return 256;
	case UI_COLOR16: return 16;
	case UI_COLOR8: return 8;
	default: return 0;
	}
}

static void set_pair(short pair, int fg, int bg)
{
#if NCURSES_EXT_COLORS
	init_extended_pair(pair, fg, bg);
#else
	init_pair(pair, (short)fg, (short)bg);
#endif
}

/* Theme elements to curses attributes (pairs 1..TE_COUNT, and the shaded
 * variants after them when the terminal has pairs enough). */
static void style_apply(struct ui_style *st)
{
	int colors = level_colors(st->level);
	const struct theme_style *shade = &st->theme.s[TE_SHADE];
	int shade_bg = theme_color_for(&shade->bg, colors);
	bool have_shaded = colors && COLOR_PAIRS > 2 * TE_COUNT + 1;
	for (int e = 0; e < TE_COUNT; e++) {
		const struct theme_style *s = &st->theme.s[e];
		if (!colors) {
			st->attr[e] = attrs_of(s->mono | s->attr);
			st->shaded[e] = st->attr[e];
			st->pair[e] = st->shaded_pair[e] = 0;
			continue;
		}
		int fg = theme_color_for(&s->fg, colors), bg = theme_color_for(&s->bg, colors);
		short p = (short)(1 + e);
		set_pair(p, fg, bg);
		st->pair[e] = p;
		st->attr[e] = attrs_of(s->attr) | COLOR_PAIR(p);
		if (have_shaded && bg < 0) {
			short q = (short)(1 + TE_COUNT + e);
			set_pair(q, fg, shade_bg);
			st->shaded_pair[e] = q;
			st->shaded[e] = attrs_of(s->attr) | COLOR_PAIR(q);
		} else {
			st->shaded_pair[e] = p;
			st->shaded[e] = st->attr[e];
		}
	}
}

static void exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0) {
		snprintf(buf, len, ".");
		return;
	}
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
}

#ifndef IODASH_DATADIR
#define IODASH_DATADIR "/usr/local/share/iodash"
#endif

int ui_screen_set_theme(struct ui_screen *scr, const char *name)
{
	struct theme t;
	char path[THEME_PATH_LEN + THEME_NAME_LEN + 16], err[512];
	theme_default(&t);
	int rc = 0;
	if (name && strcmp(name, "default")) {
		rc = theme_resolve(name, scr->theme_dirs, scr->ntheme_dirs, path, sizeof path,
				   err, sizeof err);
		if (rc == 0)
			rc = theme_load_file(path, &t, err, sizeof err);
		if (rc) {
			theme_default(&t);
			snprintf(scr->msg, sizeof scr->msg, "%.440s; using the default theme", err);
		}
	} else if (name) {
		/* a default.theme on disk may be edited: prefer it when it loads */
		if (theme_resolve("default", scr->theme_dirs, scr->ntheme_dirs, path, sizeof path,
				  err, sizeof err) == 0 &&
		    theme_load_file(path, &t, err, sizeof err) != 0) {
			theme_default(&t);
			snprintf(scr->msg, sizeof scr->msg, "%.440s; using the built-in default", err);
			rc = -EINVAL;
		}
	}
	scr->st.theme = t;
	scr->theme_idx = -1;
	for (size_t i = 0; i < scr->nthemes; i++)
		if (!strcmp(scr->themes[i], t.name))
			scr->theme_idx = (int)i;
	if (scr->open)
		style_apply(&scr->st);
	return rc;
}

void ui_screen_next_theme(struct ui_screen *scr)
{
	if (!scr->nthemes) {
		snprintf(scr->msg, sizeof scr->msg, "no theme files found (looked in %.400s)",
			 scr->ntheme_dirs ? scr->theme_dirs[0] : "nowhere");
		return;
	}
	size_t next = (size_t)(scr->theme_idx + 1) % scr->nthemes;
	scr->msg[0] = '\0';
	ui_screen_set_theme(scr, scr->themes[next]);
	if (!scr->msg[0])
		snprintf(scr->msg, sizeof scr->msg, "theme %s", scr->st.theme.name);
	/* every cell keeps its pair number, so repaint what changed colour */
	clearok(curscr, TRUE);
}

/* Before anything starts (no benchmark spawned, no recording created):
 * can this terminal draw the dashboard?  A terminal type terminfo does not
 * know, or one without cursor addressing (TERM=dumb, a hardcopy or a
 * generic type), would give an error or a garbled screen much later. */
static int terminal_can_draw(char *msg, size_t len)
{
	const char *term = getenv("TERM");
	int err = 0;

	if (!term || !*term) {
		snprintf(msg, len, "TERM is not set, so the dashboard cannot draw; use --batch for plain lines, or set TERM (e.g. TERM=xterm-256color)");
		return -EINVAL;
	}
	if (setupterm((char *)term, STDOUT_FILENO, &err) != OK) {
		snprintf(msg, len, "terminal type \"%s\" is unknown to terminfo; use --batch for plain lines, or a known TERM (e.g. TERM=xterm-256color)",
			 term);
		return -EINVAL;
	}
	const char *cup = tigetstr("cup");
	bool usable = cup && cup != (char *)-1 && tigetflag("hc") <= 0 && tigetflag("gn") <= 0;
	del_curterm(cur_term);
	if (!usable) {
		snprintf(msg, len, "terminal type \"%s\" cannot place the cursor, so the dashboard cannot draw; use --batch for plain lines, or a full-screen TERM (e.g. TERM=xterm-256color)",
			 term);
		return -EINVAL;
	}
	return 0;
}

int ui_check_terminal(char *err, size_t errlen)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errlen, "the dashboard needs a terminal; use --batch for plain lines");
		return -ENOTTY;
	}
	return terminal_can_draw(err, errlen);
}

int ui_screen_open(struct ui_screen *scr, const struct ui_look *look)
{
	char err[256];

	memset(scr, 0, sizeof *scr);
	if (ui_check_terminal(err, sizeof err)) {
		fprintf(stderr, "iodash: %s\n", err);
		return -1;
	}
	setlocale(LC_CTYPE, "");   /* not LC_ALL: numbers stay C (main.c) */
	const char *cs = nl_langinfo(CODESET);
	scr->st.utf8 = cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
	if (look->ascii || !scr->st.utf8)
		scr->st.glyphs = UI_GLYPH_ASCII;
	else
		scr->st.glyphs = look->no_braille ? UI_GLYPH_BLOCK : UI_GLYPH_BRAILLE;

	char dir[PATH_MAX];
	exe_dir(dir, sizeof dir);
	char user[PATH_MAX];
	scr->ntheme_dirs = theme_search_dirs(dir, IODASH_DATADIR, config_default_dir(user, sizeof user),
					     scr->theme_dirs, 4);
	scr->nthemes = theme_list(scr->theme_dirs, scr->ntheme_dirs, scr->themes, 32);

	/* Escape sequences of arrow keys arrive together; 25 ms is plenty
	 * even over ssh and keeps a lone Esc snappy. */
	if (!getenv("ESCDELAY"))
		set_escdelay(25);
	if (!newterm(NULL, stdout, stdin)) {
		fprintf(stderr, "iodash: cannot use terminal type \"%s\"; try TERM=xterm or --batch\n",
			getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	scr->open = true;
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	leaveok(stdscr, TRUE);
	/* No typeahead check while drawing: ncurses polls the keyboard and
	 * flushes what it has between lines, a frame then went out in 10-40
	 * writes of a few bytes; a key waits at most one frame instead. */
	typeahead(-1);

	enum ui_color_level lvl = UI_MONO;
	/* NO_COLOR (no-color.org): set and not empty, no colours */
	const char *no_color = getenv("NO_COLOR");
	if (!look->mono && !(no_color && *no_color) && has_colors() && start_color() == OK) {
		use_default_colors();
		if (COLORS >= (1 << 24) || (tigetflag("RGB") > 0 && COLORS >= 256 * 256))
			lvl = UI_TRUECOLOR;
		else if (COLORS >= 256)
			lvl = UI_COLOR256;
		else if (COLORS >= 16)
			lvl = UI_COLOR16;
		else if (COLORS >= 8)
			lvl = UI_COLOR8;
	}
	scr->st.level = lvl;
	ui_screen_set_theme(scr, look->theme ? look->theme : "default");
	style_apply(&scr->st);
	refresh();
	return 0;
}

void ui_screen_close(struct ui_screen *scr)
{
	if (!scr->open)
		return;
	endwin();
	scr->open = false;
}

int ui_put(WINDOW *w, int y, int x, int maxw, const struct ui_style *st, enum theme_elem e,
	   const char *s)
{
	int ww = getmaxx(w);
	if (x < 0 || y < 0 || y >= getmaxy(w) || x >= ww)
		return 0;
	if (maxw > ww - x)
		maxw = ww - x;
	if (maxw <= 0)
		return 0;
	/* cells made here and laid in one wadd_wchnstr: waddstr decodes the
	 * UTF-8 again a byte at a time and adds a character at a time, a
	 * quarter of a frame's work.  The window's attributes are the cells'
	 * own, so what curses renders is what waddstr made. */
	enum { MAXPUT = 1024 };   /* the columns of the widest terminal drawn whole */
	uint32_t cp[MAXPUT];
	cchar_t cells[MAXPUT], tmpl;
	int cols, n = ui_sanitize(s, cp, MAXPUT, maxw, st->glyphs == UI_GLYPH_ASCII, &cols);
	setcchar(&tmpl, L" ", st->attr[e] & ~A_COLOR, st->pair[e], NULL);
	for (int i = 0; i < n; i++) {
		cells[i] = tmpl;
		cells[i].chars[0] = (wchar_t)cp[i];
	}
	wattrset(w, st->attr[e]);
	wmove(w, y, x);
	wadd_wchnstr(w, cells, n);
	return cols;
}

void ui_fill(WINDOW *w, int y, int x, int n, const struct ui_style *st, enum theme_elem e,
	     const char *ch)
{
	int ww = getmaxx(w);
	if (y < 0 || y >= getmaxy(w))
		return;
	if (n > ww - x)
		n = ww - x;
	if (n <= 0)
		return;
	/* one glyph made once and laid n times (a waddstr a cell decoded the
	 * UTF-8 again each time: a sixth of a frame's work in titles alone) */
	wchar_t wc[2] = { 0, 0 };
	mbstate_t mb = { 0 };
	if (mbrtowc(&wc[0], ch, strlen(ch), &mb) > (size_t)-3 || !wc[0])
		wc[0] = L'?';
	cchar_t cc;
	setcchar(&cc, wc, 0, 0, NULL);
	wattrset(w, st->attr[e]);
	wmove(w, y, x);
	whline_set(w, &cc, n);
}

void ui_title(WINDOW *w, const struct ui_style *st, const char *title, bool focus)
{
	int n = ui_put(w, 0, 0, getmaxx(w), st, focus ? TE_TITLE_FOCUS : TE_TITLE, title);
	if (n + 1 < getmaxx(w))
		ui_fill(w, 0, n + 1, getmaxx(w) - n - 1, st, TE_RULE,
			st->glyphs == UI_GLYPH_ASCII ? "-" : "\u2500");
}

static bool cell_same(const struct ui_cell *a, const struct ui_cell *b)
{
	return a->ch == b->ch && a->elem == b->elem && a->flags == b->flags;
}

/* A graph's grid is mostly runs of one cell (blanks, a threshold's line):
 * a run goes in as one whline_set, not a wadd_wch a cell (which measures
 * each character again), about a third of what a frame cost. */
void ui_blit(WINDOW *w, int y, int x, const struct ui_grid *g, const struct ui_style *st)
{
	int maxy = getmaxy(w), maxx = getmaxx(w);
	for (int r = 0; r < g->h && y + r < maxy; r++) {
		const struct ui_cell *row = &g->c[(size_t)r * g->w];
		int wdt = g->w < maxx - x ? g->w : maxx - x;
		for (int c = 0, run; c < wdt; c += run) {
			const struct ui_cell *cell = &row[c];
			for (run = 1; c + run < wdt && cell_same(&row[c + run], cell); run++)
				;
			attr_t a = (cell->flags & UI_CELL_SHADE) ? st->shaded[cell->elem] : st->attr[cell->elem];
			short p = (cell->flags & UI_CELL_SHADE) ? st->shaded_pair[cell->elem] : st->pair[cell->elem];
			uint32_t ch = cell->ch;
			if (ch >= 0x80 && st->glyphs == UI_GLYPH_ASCII)
				ch = '?';
			wchar_t wc[2] = { (wchar_t)ch, 0 };
			cchar_t cc;
			setcchar(&cc, wc, a & ~A_COLOR, p, NULL);
			wmove(w, y + r, x + c);
			whline_set(w, &cc, run);
		}
	}
}

void ui_key_hints(WINDOW *w, int y, int x, int maxw, const struct ui_style *st,
		  const struct ui_key_def *t, size_t n, unsigned screen)
{
	int right = x + maxw;
	char nb[16];
	for (size_t i = 0; i < n; i++) {
		if (!(t[i].screens & screen) || !t[i].label)
			continue;
		const char *key = ui_key_name(&t[i], nb, sizeof nb);
		int need = (int)(strlen(key) + strlen(t[i].label) + 2);
		if (x + need > right)
			break;
		x += ui_put(w, y, x, right - x, st, TE_KEY, key);
		x += ui_put(w, y, x, right - x, st, TE_STATUS, " ");
		x += ui_put(w, y, x, right - x, st, TE_STATUS, t[i].label);
		x += ui_put(w, y, x, right - x, st, TE_STATUS, "  ");
	}
}

int ui_key_help_lines(WINDOW *w, int y0, int x, int kw, int maxw, int maxh,
		      const struct ui_style *st, const struct ui_key_def *t, size_t n,
		      unsigned screen, int *widest)
{
	int line = 0;
	if (widest)
		*widest = 0;
	char nb[16], hb[256];
	for (size_t i = 0; i < n; i++) {
		if (!(t[i].screens & screen))
			continue;
		const char *h = ui_key_help(&t[i], hb, sizeof hb);
		bool first = true;
		while (h) {
			const char *nl = strchr(h, '\n');
			char part[256];
			snprintf(part, sizeof part, "%s%.*s", first ? "" : "   ",
				 (int)(nl ? nl - h : (long)strlen(h)), h);
			if (widest && (int)strlen(part) > *widest)
				*widest = (int)strlen(part);
			if (w && line < maxh) {
				if (first)
					ui_put(w, y0 + line, x, kw - 1, st, TE_HELP_KEY,
					       ui_key_name(&t[i], nb, sizeof nb));
				ui_put(w, y0 + line, x + kw, maxw - kw, st, TE_HELP, part);
			}
			line++;
			first = false;
			h = nl ? nl + 1 : NULL;
		}
	}
	return line;
}

#ifndef IODASH_MANPAGE
#define IODASH_MANPAGE "/usr/local/share/man/man1/iodash.1"
#endif

/* Whether `man -w iodash` finds a page (its exit status 0 and a path). */
static bool manual_man_finds(void)
{
	extern char **environ;
	char *argv[] = { "man", "-w", "iodash", NULL };
	posix_spawn_file_actions_t fa;
	int p[2];
	pid_t pid;
	bool found = false;

	if (pipe2(p, O_CLOEXEC))
		return false;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDERR_FILENO);
	int rc = posix_spawnp(&pid, "man", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (rc == 0) {
		char out[256];
		ssize_t n, got = 0;
		while (got < (ssize_t)sizeof out - 1 &&
		       ((n = read(p[0], out + got, sizeof out - 1 - (size_t)got)) > 0 || (n < 0 && errno == EINTR)))
			got += n > 0 ? n : 0;
		out[got] = '\0';
		int ws;
		while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
			;
		found = WIFEXITED(ws) && WEXITSTATUS(ws) == 0 && out[0] == '/';
	}
	close(p[0]);
	return found;
}

const char *ui_manual_hint(void)
{
	static char hint[PATH_MAX + 16];
	char exe[PATH_MAX], cwd[PATH_MAX];

	if (hint[0])
		return hint;
	ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 16);
	char *slash = l > 0 ? (exe[l] = '\0', strrchr(exe, '/')) : NULL;
	if (slash) {
		snprintf(slash, sizeof exe - (size_t)(slash - exe), "/iodash.1");
		if (!access(exe, R_OK)) {
			*slash = '\0';
			if (getcwd(cwd, sizeof cwd) && !strcmp(cwd, exe))
				snprintf(hint, sizeof hint, "man ./iodash.1");
			else
				snprintf(hint, sizeof hint, "man %s/iodash.1", exe);
			return hint;
		}
	}
	if (manual_man_finds())
		snprintf(hint, sizeof hint, "man iodash");
	else if (!access(IODASH_MANPAGE, R_OK))
		snprintf(hint, sizeof hint, "man %s", IODASH_MANPAGE);
	else
		snprintf(hint, sizeof hint, "iodash --help; no manual page installed");
	return hint;
}
