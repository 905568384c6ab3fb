/* ui_keys: the screens' key tables.  One row per key (or group of keys):
 * the codes it takes, how the help and the status bar name it, and the
 * handler that does it.  The help overlay, the status bar's hints and the
 * key dispatch are all made from the table, so they cannot disagree, and
 * each screen (live, view, compare) lists only the keys it has.
 * tests/unit/test_tables.c checks every row. */
#ifndef IODASH_UI_KEYS_H
#define IODASH_UI_KEYS_H

#include <stdbool.h>
#include <stddef.h>

enum ui_screen_kind {
	UI_SCREEN_LIVE = 1u << 0,    /* live sampling, run, sweep, attach */
	UI_SCREEN_VIEW = 1u << 1,    /* a recording replayed (time travel) */
	UI_SCREEN_COMPARE = 1u << 2,
	UI_SCREEN_FLEET = 1u << 3,
};

enum ui_key_result { UI_KEY_NONE, UI_KEY_REDRAW, UI_KEY_QUIT };

#define UI_KEY_MAX_CODES 8
/* In codes[0]: the row takes the show/hide key of every panel
 * (struct panel_def.key), and names them from the panel table. */
#define UI_KEY_PANELS (-2)

struct ui_key_def {
	int codes[UI_KEY_MAX_CODES];  /* key codes (curses values); 0 ends */
	const char *key;              /* the keys as the help names them */
	const char *label;            /* the status bar's word; NULL: help only */
	const char *help;             /* the help line; '\n' starts a continuation */
	unsigned screens;             /* enum ui_screen_kind bits */
	/* screen: the screen's own state (struct ui_live, the compare view) */
	enum ui_key_result (*handler)(void *screen, int ch);
};

extern const struct ui_key_def ui_live_keys[];
extern const size_t ui_live_nkeys;
extern const struct ui_key_def ui_compare_keys[];
extern const size_t ui_compare_nkeys;
extern const struct ui_key_def ui_fleet_keys[];
extern const size_t ui_fleet_nkeys;

/* The row of `screen` that takes ch, or NULL. */
const struct ui_key_def *ui_key_find(const struct ui_key_def *t, size_t n, unsigned screen, int ch);

/* The key names of a row as shown ("q", "1-6"): the row's own, or for a
 * UI_KEY_PANELS row the first and last panel keys. */
const char *ui_key_name(const struct ui_key_def *k, char *buf, size_t n);

/* A row's help text with, for a UI_KEY_PANELS row, the panels' keys and
 * names after it ("show/hide: 1 throughput 2 dirty ..."). */
const char *ui_key_help(const struct ui_key_def *k, char *buf, size_t n);

#endif
