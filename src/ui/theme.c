/* theme: see src/ui/theme.h.  No curses: the screen maps the
 * resolved colours to pairs. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ui/theme.h"
#include "iodash/base/util.h"

/* Theme files are a screenful of lines; anything much larger is not one. */
#define THEME_MAX_BYTES (64 * 1024)
#define THEME_MAX_LINE 512

static const char *const elem_keys[TE_COUNT] = {
	[TE_TEXT] = "text", [TE_DIM] = "dim", [TE_TITLE] = "title",
	[TE_TITLE_FOCUS] = "title.focus", [TE_RULE] = "rule",
	[TE_HEADER] = "header", [TE_HEADER_KEY] = "header.key",
	[TE_STATUS] = "status", [TE_ERROR] = "error", [TE_KEY] = "key",
	[TE_BADGE_UNKNOWN] = "badge.unknown", [TE_BADGE_BELOW] = "badge.below",
	[TE_BADGE_BG] = "badge.background", [TE_BADGE_THROTTLE] = "badge.throttle",
	[TE_BADGE_HARD] = "badge.hard",
	[TE_READ] = "graph.read", [TE_WRITE] = "graph.write",
	[TE_DIRTY] = "gauge.dirty", [TE_WRITEBACK] = "gauge.writeback",
	[TE_GAUGE_EMPTY] = "gauge.empty", [TE_AXIS] = "axis",
	[TE_LINE_BG] = "line.background", [TE_LINE_FREERUN] = "line.freerun",
	[TE_LINE_THRESH] = "line.thresh", [TE_SHADE] = "shade.throttle",
	[TE_TABLE_HEAD] = "table.head", [TE_TABLE_HOT] = "table.hot",
	[TE_PROGRESS] = "progress", [TE_PROGRESS_EMPTY] = "progress.empty",
	[TE_HIT] = "hit", [TE_MARK] = "mark", [TE_OUTPUT] = "output",
	[TE_HELP] = "help", [TE_HELP_KEY] = "help.key",
	[TE_CURVE1] = "curve.1", [TE_CURVE2] = "curve.2", [TE_CURVE3] = "curve.3",
	[TE_CURVE4] = "curve.4", [TE_CURVE5] = "curve.5", [TE_CURVE6] = "curve.6",
};

const char *theme_elem_key(enum theme_elem e)
{
	return (unsigned)e < TE_COUNT ? elem_keys[e] : NULL;
}

#define RGB(v) { THC_RGB, (v) }
#define DEF { THC_DEFAULT, 0 }

/* Keep in step with themes/default.theme (a unit test compares them). */
static const struct theme_style default_styles[TE_COUNT] = {
	[TE_TEXT] = { DEF, DEF, 0, 0 },
	[TE_DIM] = { RGB(0x8a8a8a), DEF, 0, THA_DIM },
	[TE_TITLE] = { RGB(0x87afd7), DEF, THA_BOLD, THA_BOLD },
	[TE_TITLE_FOCUS] = { RGB(0xffd75f), DEF, THA_BOLD, THA_BOLD | THA_UNDERLINE },
	[TE_RULE] = { RGB(0x4e4e4e), DEF, 0, THA_DIM },
	[TE_HEADER] = { DEF, DEF, THA_BOLD, THA_BOLD },
	[TE_HEADER_KEY] = { RGB(0x87afd7), DEF, 0, 0 },
	[TE_STATUS] = { RGB(0x8a8a8a), DEF, 0, 0 },
	[TE_ERROR] = { RGB(0xff5f5f), DEF, THA_BOLD, THA_BOLD | THA_REVERSE },
	[TE_KEY] = { RGB(0x87afd7), DEF, THA_BOLD, THA_BOLD },
	[TE_BADGE_UNKNOWN] = { RGB(0x000000), RGB(0x808080), 0, THA_DIM },
	[TE_BADGE_BELOW] = { RGB(0x000000), RGB(0x5faf5f), 0, 0 },
	[TE_BADGE_BG] = { RGB(0x000000), RGB(0xd7af5f), 0, THA_BOLD },
	[TE_BADGE_THROTTLE] = { RGB(0x000000), RGB(0xff5f5f), THA_BOLD, THA_REVERSE },
	[TE_BADGE_HARD] = { RGB(0xffffff), RGB(0xaf0000), THA_BOLD, THA_REVERSE | THA_BOLD },
	[TE_READ] = { RGB(0x5fafd7), DEF, 0, 0 },
	[TE_WRITE] = { RGB(0xd7875f), DEF, 0, THA_BOLD },
	[TE_DIRTY] = { RGB(0xd7af5f), DEF, 0, 0 },
	[TE_WRITEBACK] = { RGB(0xaf87d7), DEF, 0, THA_BOLD },
	[TE_GAUGE_EMPTY] = { RGB(0x444444), DEF, 0, THA_DIM },
	[TE_AXIS] = { RGB(0x6c6c6c), DEF, 0, THA_DIM },
	[TE_LINE_BG] = { RGB(0x5faf5f), DEF, 0, 0 },
	[TE_LINE_FREERUN] = { RGB(0xd7af00), DEF, 0, THA_BOLD },
	[TE_LINE_THRESH] = { RGB(0xff5f5f), DEF, THA_BOLD, THA_BOLD },
	/* #5f0000 is a colour of the 256 cube (52): #3a1c1c fell to grey 235, which
	 * black all but hides */
	[TE_SHADE] = { RGB(0xff5f5f), RGB(0x5f0000), 0, THA_DIM },
	[TE_TABLE_HEAD] = { RGB(0x8a8a8a), DEF, THA_BOLD, THA_UNDERLINE },
	[TE_TABLE_HOT] = { RGB(0xff8787), DEF, THA_BOLD, THA_BOLD },
	[TE_PROGRESS] = { RGB(0x5fafd7), DEF, 0, THA_REVERSE },
	[TE_PROGRESS_EMPTY] = { RGB(0x444444), DEF, 0, THA_DIM },
	[TE_HIT] = { RGB(0xff5f5f), DEF, THA_BOLD, THA_BOLD },
	[TE_MARK] = { RGB(0xd7d7ff), DEF, THA_BOLD, THA_BOLD },
	[TE_OUTPUT] = { DEF, DEF, 0, 0 },
	[TE_HELP] = { DEF, RGB(0x262626), 0, 0 },
	[TE_HELP_KEY] = { RGB(0xffd75f), RGB(0x262626), THA_BOLD, THA_BOLD },
	[TE_CURVE1] = { RGB(0x5fafd7), DEF, 0, 0 },
	[TE_CURVE2] = { RGB(0xd7875f), DEF, 0, THA_BOLD },
	[TE_CURVE3] = { RGB(0x87d787), DEF, 0, THA_UNDERLINE },
	[TE_CURVE4] = { RGB(0xd787d7), DEF, 0, THA_REVERSE },
	[TE_CURVE5] = { RGB(0xd7d75f), DEF, 0, THA_DIM },
	[TE_CURVE6] = { RGB(0x87d7d7), DEF, 0, THA_ITALIC },
};

void theme_default(struct theme *t)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "default");
	memcpy(t->s, default_styles, sizeof t->s);
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static int parse_color(const char *v, struct theme_color *c)
{
	if (!strcmp(v, "default") || !strcmp(v, "-1") || !strcmp(v, "none")) {
		*c = (struct theme_color){ THC_DEFAULT, 0 };
		return 0;
	}
	if (v[0] == '#') {
		if (strlen(v) != 7)
			return -1;
		uint32_t x = 0;
		for (int i = 1; i < 7; i++) {
			if (!isxdigit((unsigned char)v[i]))
				return -1;
			x = x * 16 + (uint32_t)(isdigit((unsigned char)v[i]) ? v[i] - '0'
						: (tolower((unsigned char)v[i]) - 'a' + 10));
		}
		*c = (struct theme_color){ THC_RGB, x };
		return 0;
	}
	if (!isdigit((unsigned char)v[0]) || strlen(v) > 3)
		return -1;
	unsigned n = 0;
	for (const char *p = v; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return -1;
		n = n * 10 + (unsigned)(*p - '0');
	}
	if (n > 255)
		return -1;
	*c = (struct theme_color){ THC_INDEX, n };
	return 0;
}

static int parse_attrs(const char *v, unsigned *out, char *bad, size_t badlen)
{
	static const struct { const char *n; unsigned a; } names[] = {
		{ "bold", THA_BOLD }, { "dim", THA_DIM }, { "reverse", THA_REVERSE },
		{ "underline", THA_UNDERLINE }, { "italic", THA_ITALIC },
		{ "normal", 0 }, { "none", 0 },
	};
	unsigned a = 0;
	char buf[THEME_MAX_LINE];
	snprintf(buf, sizeof buf, "%s", v);
	for (char *save = NULL, *tok = strtok_r(buf, ",| \t", &save); tok;
	     tok = strtok_r(NULL, ",| \t", &save)) {
		size_t i;
		for (i = 0; i < sizeof names / sizeof names[0]; i++)
			if (!strcmp(tok, names[i].n))
				break;
		if (i == sizeof names / sizeof names[0]) {
			snprintf(bad, badlen, "%s", tok);
			return -1;
		}
		a |= names[i].a;
	}
	*out = a;
	return 0;
}

/* A '#' starts a comment at the start of a line, or after a blank when a
 * blank follows it ("  # why"): "#rrggbb" values never have one. */
static void strip_comment(char *s)
{
	for (char *p = s; *p; p++) {
		if (*p != '#')
			continue;
		if (p == s || ((p[-1] == ' ' || p[-1] == '\t') &&
			       (p[1] == ' ' || p[1] == '\t' || p[1] == '\0' || p[1] == '\r'))) {
			*p = '\0';
			return;
		}
	}
}

static int parse_line(char *line, struct theme *t, const char *fname, unsigned lineno,
		      char *err, size_t errlen)
{
	char *s = trim(line);
	strip_comment(s);
	s = trim(s);
	if (!*s)
		return 0;
	char *eq = strchr(s, '=');
	if (!eq) {
		snprintf(err, errlen, "%s:%u: expected `key = value`, got \"%.40s\"", fname, lineno, s);
		return -EINVAL;
	}
	*eq = '\0';
	char *key = trim(s), *val = trim(eq + 1);
	if (!*key) {
		snprintf(err, errlen, "%s:%u: missing key before '='", fname, lineno);
		return -EINVAL;
	}
	if (!strcmp(key, "name")) {
		if (*val)
			snprintf(t->name, sizeof t->name, "%s", val);
		return 0;
	}
	if (!strcmp(key, "description"))
		return 0;

	/* Split "<elem>.<field>" at the last dot when the field is known. */
	const char *field = "fg";
	char *dot = strrchr(key, '.');
	if (dot && (!strcmp(dot + 1, "fg") || !strcmp(dot + 1, "bg") ||
		    !strcmp(dot + 1, "attr") || !strcmp(dot + 1, "mono"))) {
		*dot = '\0';
		field = dot + 1;
	}
	int e;
	for (e = 0; e < TE_COUNT; e++)
		if (!strcmp(key, elem_keys[e]))
			break;
	if (e == TE_COUNT)
		return 0;   /* unknown key: a newer theme in an older iodash */
	if (!*val) {
		snprintf(err, errlen, "%s:%u: %s.%s has no value", fname, lineno, key, field);
		return -EINVAL;
	}
	struct theme_style *st = &t->s[e];
	if (!strcmp(field, "fg") || !strcmp(field, "bg")) {
		struct theme_color c;
		if (parse_color(val, &c) < 0) {
			snprintf(err, errlen,
				 "%s:%u: %s.%s: bad colour \"%.20s\" (use #rrggbb, 0-255 or default)",
				 fname, lineno, key, field, val);
			return -EINVAL;
		}
		if (field[0] == 'f')
			st->fg = c;
		else
			st->bg = c;
		return 0;
	}
	unsigned a;
	char bad[64];
	if (parse_attrs(val, &a, bad, sizeof bad) < 0) {
		snprintf(err, errlen,
			 "%s:%u: %s.%s: unknown attribute \"%s\" (use bold, dim, reverse, underline, italic, normal)",
			 fname, lineno, key, field, bad);
		return -EINVAL;
	}
	if (field[0] == 'a')
		st->attr = a;
	else
		st->mono = a;
	return 0;
}

int theme_parse(const char *text, size_t len, const char *fname, struct theme *t,
		char *err, size_t errlen)
{
	if (!fname)
		fname = "theme";
	unsigned lineno = 0;
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && text[j] != '\n')
			j++;
		lineno++;
		if (j - i >= THEME_MAX_LINE) {
			snprintf(err, errlen, "%s:%u: line longer than %d bytes", fname, lineno,
				 THEME_MAX_LINE - 1);
			return -EINVAL;
		}
		char line[THEME_MAX_LINE];
		memcpy(line, text + i, j - i);
		line[j - i] = '\0';
		if (memchr(line, '\0', j - i)) {
			snprintf(err, errlen, "%s:%u: NUL byte: not a text file", fname, lineno);
			return -EINVAL;
		}
		int rc = parse_line(line, t, fname, lineno, err, errlen);
		if (rc < 0)
			return rc;
		i = j + 1;
	}
	return 0;
}

int theme_load_file(const char *path, struct theme *t, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: not a regular file", path);
		return -EINVAL;
	}
	if (st.st_size > THEME_MAX_BYTES) {
		close(fd);
		snprintf(err, errlen, "%s: %lld bytes, more than a theme's %d", path,
			 (long long)st.st_size, THEME_MAX_BYTES);
		return -EFBIG;
	}
	char *buf = malloc(THEME_MAX_BYTES + 1);
	if (!buf) {
		close(fd);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	size_t n = 0;
	for (;;) {
		ssize_t r = read(fd, buf + n, THEME_MAX_BYTES + 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			close(fd);
			snprintf(err, errlen, "%s: %s", path, strerror(e));
			return -e;
		}
		if (r == 0 || (n += (size_t)r) > THEME_MAX_BYTES)
			break;
	}
	close(fd);
	if (n > THEME_MAX_BYTES) {
		free(buf);
		snprintf(err, errlen, "%s: more than %d bytes", path, THEME_MAX_BYTES);
		return -EFBIG;
	}
	struct theme tmp;
	theme_default(&tmp);
	const char *base = util_base_name(path);
	snprintf(tmp.name, sizeof tmp.name, "%s", base);
	char *dot = strstr(tmp.name, ".theme");
	if (dot && dot[6] == '\0')
		*dot = '\0';
	int rc = theme_parse(buf, n, path, &tmp, err, errlen);
	free(buf);
	if (rc == 0)
		*t = tmp;
	return rc;
}

size_t theme_search_dirs(const char *exe_dir, const char *datadir, const char *user_dir,
			 char dirs[][THEME_PATH_LEN], size_t max)
{
	size_t n = 0;
	/* the user's first: a theme of one's own overrides a shipped one of
	 * the same name */
	if (user_dir && *user_dir && n < max)
		snprintf(dirs[n++], THEME_PATH_LEN, "%s/themes", user_dir);
	if (exe_dir && n < max)
		snprintf(dirs[n++], THEME_PATH_LEN, "%s/themes", exe_dir);
	if (exe_dir && n < max)
		snprintf(dirs[n++], THEME_PATH_LEN, "%s/../share/iodash/themes", exe_dir);
	if (datadir && *datadir && n < max)
		snprintf(dirs[n++], THEME_PATH_LEN, "%s/themes", datadir);
	return n;
}

static bool is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int theme_resolve(const char *name, char dirs[][THEME_PATH_LEN], size_t ndirs,
		  char *path, size_t pathlen, char *err, size_t errlen)
{
	size_t len = strlen(name);
	if (strchr(name, '/') || (len > 6 && !strcmp(name + len - 6, ".theme"))) {
		if (!is_file(name)) {
			snprintf(err, errlen, "%s: no such theme file", name);
			return -ENOENT;
		}
		snprintf(path, pathlen, "%s", name);
		return 0;
	}
	for (size_t i = 0; i < ndirs; i++) {
		char p[THEME_PATH_LEN + THEME_NAME_LEN + 16];
		snprintf(p, sizeof p, "%s/%s.theme", dirs[i], name);
		if (is_file(p)) {
			snprintf(path, pathlen, "%s", p);
			return 0;
		}
	}
	int o = snprintf(err, errlen, "theme \"%s\" not found in", name);
	for (size_t i = 0; i < ndirs && o > 0 && (size_t)o < errlen; i++)
		o += snprintf(err + o, errlen - (size_t)o, "%s %s", i ? "," : "", dirs[i]);
	return -ENOENT;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

size_t theme_list(char dirs[][THEME_PATH_LEN], size_t ndirs,
		  char names[][THEME_NAME_LEN], size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < ndirs; i++) {
		DIR *d = opendir(dirs[i]);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d)) && n < max) {
			size_t l = strlen(de->d_name);
			if (l <= 6 || l - 6 >= THEME_NAME_LEN || strcmp(de->d_name + l - 6, ".theme"))
				continue;
			char nm[THEME_NAME_LEN];
			memcpy(nm, de->d_name, l - 6);
			nm[l - 6] = '\0';
			bool dup = false;
			for (size_t k = 0; k < n && !dup; k++)
				dup = !strcmp(names[k], nm);
			if (!dup)
				memcpy(names[n++], nm, sizeof nm);
		}
		closedir(d);
	}
	qsort(names, n, THEME_NAME_LEN, cmp_name);
	return n;
}

/* The usual VGA-ish values of the 16 ANSI colours (xterm's defaults). */
static const uint32_t ansi16[16] = {
	0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
	0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};
static const unsigned cube[6] = { 0, 95, 135, 175, 215, 255 };

uint32_t theme_index_rgb(unsigned idx)
{
	if (idx < 16)
		return ansi16[idx];
	if (idx < 232) {
		unsigned i = idx - 16;
		return (uint32_t)(cube[i / 36] << 16 | cube[(i / 6) % 6] << 8 | cube[i % 6]);
	}
	if (idx < 256) {
		unsigned g = 8 + (idx - 232) * 10;
		return (uint32_t)(g << 16 | g << 8 | g);
	}
	return 0;
}

static unsigned dist2(uint32_t a, uint32_t b)
{
	int dr = (int)(a >> 16 & 255) - (int)(b >> 16 & 255);
	int dg = (int)(a >> 8 & 255) - (int)(b >> 8 & 255);
	int db = (int)(a & 255) - (int)(b & 255);
	/* Weighted toward green, as the eye is. */
	return (unsigned)(2 * dr * dr + 4 * dg * dg + 3 * db * db);
}

static unsigned cube_level(unsigned v)
{
	unsigned best = 0;
	for (unsigned i = 1; i < 6; i++)
		if ((v > cube[i] ? v - cube[i] : cube[i] - v) <
		    (v > cube[best] ? v - cube[best] : cube[best] - v))
			best = i;
	return best;
}

unsigned theme_rgb_to_256(uint32_t rgb)
{
	unsigned r = rgb >> 16 & 255, g = rgb >> 8 & 255, b = rgb & 255;
	unsigned ci = 16 + 36 * cube_level(r) + 6 * cube_level(g) + cube_level(b);
	unsigned avg = (r + g + b) / 3;
	unsigned gi = avg < 8 ? 232 : avg > 238 ? 255 : 232 + (avg - 8 + 5) / 10;
	if (gi > 255)
		gi = 255;
	return dist2(theme_index_rgb(gi), rgb) < dist2(theme_index_rgb(ci), rgb) ? gi : ci;
}

unsigned theme_rgb_to_16(uint32_t rgb)
{
	unsigned best = 0;
	for (unsigned i = 1; i < 16; i++)
		if (dist2(ansi16[i], rgb) < dist2(ansi16[best], rgb))
			best = i;
	return best;
}

int theme_color_for(const struct theme_color *c, int colors)
{
	if (c->kind == THC_DEFAULT || colors < 8)
		return -1;
	if (colors >= (1 << 24)) {
		/* Direct colour: small numbers still name the palette, which
		 * is what an index 0..7 in a theme means. */
		if (c->kind == THC_INDEX)
			return c->v < 8 ? (int)c->v : (int)theme_index_rgb(c->v);
		return c->v < 8 ? 8 : (int)c->v;
	}
	if (colors >= 256)
		return c->kind == THC_INDEX ? (int)c->v : (int)theme_rgb_to_256(c->v);
	unsigned i16 = c->kind == THC_INDEX ? (c->v < 16 ? c->v : theme_rgb_to_16(theme_index_rgb(c->v)))
					    : theme_rgb_to_16(c->v);
	if (colors >= 16)
		return (int)i16;
	return (int)(i16 & 7);
}
