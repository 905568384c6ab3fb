/* theme: the colours and attributes of every element the screens draw,
 * read from themes/NAME.theme (`key = value`, `#` comments).  Pure parsing
 * and colour maths, no curses: unit-tested.
 *
 *   <element>.fg   = #rrggbb | 0-255 | default
 *   <element>.bg   = #rrggbb | 0-255 | default     (default: the terminal's)
 *   <element>.attr = bold,dim,reverse,underline,italic | normal
 *   <element>.mono = the same attributes, used when colours are off
 *   <element>      = shorthand for <element>.fg
 *
 * Unknown keys are ignored (newer themes load in older iodash); missing
 * keys keep the built-in default; the first malformed line fails the load
 * with "FILE:LINE: why" and the caller goes on with the default theme. */
#ifndef IODASH_THEME_H
#define IODASH_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum theme_elem {
	TE_TEXT, TE_DIM, TE_TITLE, TE_TITLE_FOCUS, TE_RULE,
	TE_HEADER, TE_HEADER_KEY, TE_STATUS, TE_ERROR, TE_KEY,
	TE_BADGE_UNKNOWN, TE_BADGE_BELOW, TE_BADGE_BG, TE_BADGE_THROTTLE, TE_BADGE_HARD,
	TE_READ, TE_WRITE, TE_DIRTY, TE_WRITEBACK, TE_GAUGE_EMPTY, TE_AXIS,
	TE_LINE_BG, TE_LINE_FREERUN, TE_LINE_THRESH, TE_SHADE,
	TE_TABLE_HEAD, TE_TABLE_HOT, TE_PROGRESS, TE_PROGRESS_EMPTY,
	TE_HIT, TE_MARK, TE_OUTPUT, TE_HELP, TE_HELP_KEY,
	TE_CURVE1, TE_CURVE2, TE_CURVE3, TE_CURVE4, TE_CURVE5, TE_CURVE6,
	TE_COUNT
};
#define THEME_CURVES 6

enum theme_color_kind { THC_DEFAULT, THC_INDEX, THC_RGB };

struct theme_color {
	enum theme_color_kind kind;
	uint32_t v;            /* index 0..255 or 0xRRGGBB */
};

enum theme_attr {
	THA_BOLD = 1u << 0, THA_DIM = 1u << 1, THA_REVERSE = 1u << 2,
	THA_UNDERLINE = 1u << 3, THA_ITALIC = 1u << 4,
};

struct theme_style {
	struct theme_color fg, bg;
	unsigned attr;         /* with colours */
	unsigned mono;         /* without colours */
};

#define THEME_NAME_LEN 64

struct theme {
	char name[THEME_NAME_LEN];
	struct theme_style s[TE_COUNT];
};

/* The element's key in theme files ("badge.throttle"); NULL if out of range. */
const char *theme_elem_key(enum theme_elem e);

/* The built-in default theme (the same as themes/default.theme). */
void theme_default(struct theme *t);

/* Apply the lines of text to t (which keeps what the text does not set).
 * fname names the source in messages.  0, or -EINVAL with err
 * "FILE:LINE: why". */
int theme_parse(const char *text, size_t len, const char *fname, struct theme *t,
		char *err, size_t errlen);

/* Default theme + the file's keys; the name is the file's base name
 * without ".theme".  0 or -errno with err "FILE[:LINE]: why". */
int theme_load_file(const char *path, struct theme *t, char *err, size_t errlen);

/* Where themes are looked for, in order: USER_DIR/themes (the user's
 * iodash config directory, config.h: $XDG_CONFIG_HOME/iodash or
 * ~/.config/iodash), DIR_OF_BINARY/themes,
 * DIR_OF_BINARY/../share/iodash/themes, DATADIR/themes.  NULL arguments
 * are skipped.  Returns the count written. */
#define THEME_PATH_LEN 4096
size_t theme_search_dirs(const char *exe_dir, const char *datadir, const char *user_dir,
			 char dirs[][THEME_PATH_LEN], size_t max);

/* NAME or PATH to a file: a value with '/' or ending in ".theme" is a path;
 * otherwise the first DIR/NAME.theme that exists.  0 or -ENOENT with err
 * saying where it looked. */
int theme_resolve(const char *name_or_path, char dirs[][THEME_PATH_LEN], size_t ndirs,
		  char *path, size_t pathlen, char *err, size_t errlen);

/* The theme names found in dirs (first directory wins), sorted, unique. */
size_t theme_list(char dirs[][THEME_PATH_LEN], size_t ndirs,
		  char names[][THEME_NAME_LEN], size_t max);

/* Colour maths for the degrade from truecolor to 256, 16 and 8 colours. */
uint32_t theme_index_rgb(unsigned idx);          /* xterm palette */
unsigned theme_rgb_to_256(uint32_t rgb);          /* 16..255 */
unsigned theme_rgb_to_16(uint32_t rgb);           /* 0..15 */
/* The colour number for a terminal of `colors` colours (8, 16, 256, or
 * 1<<24 for direct colour); -1 for default. */
int theme_color_for(const struct theme_color *c, int colors);

#endif
