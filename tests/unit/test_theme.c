/* theme: parsing, errors with FILE:LINE, fallback, shipped themes, colour maths. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ui/theme.h"

/* Tests run from the top of the tree (tests/run-all.sh cd's there). */
#define THEMES "themes"

static void test_default_file_matches_builtin(void **state)
{
	(void)state;
	struct theme file, builtin;
	char err[512] = "";
	int rc = theme_load_file(THEMES "/default.theme", &file, err, sizeof err);
	if (rc)
		fail_msg("%s", err);
	theme_default(&builtin);
	assert_string_equal(file.name, "default");
	for (int e = 0; e < TE_COUNT; e++)
		if (memcmp(&file.s[e], &builtin.s[e], sizeof file.s[e]))
			fail_msg("themes/default.theme differs from the built-in at %s",
				 theme_elem_key(e));
}

static void test_every_shipped_theme_loads(void **state)
{
	(void)state;
	char dirs[1][THEME_PATH_LEN];
	snprintf(dirs[0], sizeof dirs[0], THEMES);
	char names[32][THEME_NAME_LEN];
	size_t n = theme_list(dirs, 1, names, 32);
	assert_true(n >= 5);
	const char *want[] = { "default", "high-contrast", "light", "mono", "tty16" };
	for (size_t w = 0; w < 5; w++) {
		bool found = false;
		for (size_t i = 0; i < n; i++)
			found |= !strcmp(names[i], want[w]);
		if (!found)
			fail_msg("theme %s is not shipped", want[w]);
	}
	for (size_t i = 1; i < n; i++)
		assert_true(strcmp(names[i - 1], names[i]) < 0);
	struct theme def;
	theme_default(&def);
	for (size_t i = 0; i < n; i++) {
		char path[THEME_PATH_LEN + 80], err[512] = "";
		struct theme t;
		assert_int_equal(theme_resolve(names[i], dirs, 1, path, sizeof path, err, sizeof err), 0);
		if (theme_load_file(path, &t, err, sizeof err))
			fail_msg("%s", err);
		assert_string_equal(t.name, names[i]);
		/* every non-default theme changes something */
		if (strcmp(names[i], "default"))
			assert_memory_not_equal(t.s, def.s, sizeof t.s);
	}
	/* mono uses no colour at all */
	char path[THEME_PATH_LEN + 80], err[512];
	struct theme m;
	assert_int_equal(theme_resolve("mono", dirs, 1, path, sizeof path, err, sizeof err), 0);
	assert_int_equal(theme_load_file(path, &m, err, sizeof err), 0);
	for (int e = 0; e < TE_COUNT; e++) {
		if (m.s[e].fg.kind != THC_DEFAULT || m.s[e].bg.kind != THC_DEFAULT)
			fail_msg("mono sets a colour for %s", theme_elem_key(e));
	}
	assert_int_equal(m.s[TE_BADGE_THROTTLE].attr, THA_REVERSE);
	/* tty16 stays within the 16 palette colours */
	struct theme t16;
	assert_int_equal(theme_resolve("tty16", dirs, 1, path, sizeof path, err, sizeof err), 0);
	assert_int_equal(theme_load_file(path, &t16, err, sizeof err), 0);
	for (int e = 0; e < TE_COUNT; e++)
		if (t16.s[e].fg.kind == THC_RGB || (t16.s[e].fg.kind == THC_INDEX && t16.s[e].fg.v > 15))
			fail_msg("tty16 uses a colour beyond 16 for %s", theme_elem_key(e));
}

static void test_parse_keys_and_fallback(void **state)
{
	(void)state;
	const char *txt =
		"# a comment\n"
		"\n"
		"name = mine\n"
		"  badge.throttle.bg = #A01010   # inline comment\n"
		"badge.throttle.fg=231\n"
		"badge.throttle.attr = bold, underline\n"
		"graph.read = #00ff00\n"
		"title.mono = reverse\n"
		"some.future.key = whatever it is\n"
		"line.thresh.bg = default\r\n";
	struct theme t;
	theme_default(&t);
	char err[256] = "";
	assert_int_equal(theme_parse(txt, strlen(txt), "mine.theme", &t, err, sizeof err), 0);
	assert_string_equal(t.name, "mine");
	assert_int_equal(t.s[TE_BADGE_THROTTLE].bg.kind, THC_RGB);
	assert_int_equal(t.s[TE_BADGE_THROTTLE].bg.v, 0xa01010);
	assert_int_equal(t.s[TE_BADGE_THROTTLE].fg.kind, THC_INDEX);
	assert_int_equal(t.s[TE_BADGE_THROTTLE].fg.v, 231);
	assert_int_equal(t.s[TE_BADGE_THROTTLE].attr, THA_BOLD | THA_UNDERLINE);
	assert_int_equal(t.s[TE_READ].fg.v, 0x00ff00);
	assert_int_equal(t.s[TE_TITLE].mono, THA_REVERSE);
	assert_int_equal(t.s[TE_LINE_THRESH].bg.kind, THC_DEFAULT);
	/* untouched keys keep the default */
	struct theme d;
	theme_default(&d);
	assert_memory_equal(&t.s[TE_WRITE], &d.s[TE_WRITE], sizeof d.s[TE_WRITE]);
}

static void expect_error(const char *txt, const char *want)
{
	struct theme t;
	theme_default(&t);
	char err[256] = "";
	int rc = theme_parse(txt, strlen(txt), "bad.theme", &t, err, sizeof err);
	assert_int_equal(rc, -EINVAL);
	if (!strstr(err, want))
		fail_msg("error \"%s\" lacks \"%s\"", err, want);
}

static void test_errors_name_file_and_line(void **state)
{
	(void)state;
	expect_error("name = x\n\ntitle.fg = #12345g\n", "bad.theme:3: title.fg: bad colour \"#12345g\"");
	expect_error("title.fg = 256\n", "bad.theme:1: title.fg: bad colour");
	expect_error("title.fg = red\n", "bad.theme:1:");
	expect_error("# ok\ntitle.fg #ffffff\n", "bad.theme:2: expected `key = value`");
	expect_error("title.attr = blink\n", "bad.theme:1: title.attr: unknown attribute \"blink\"");
	expect_error("= #ffffff\n", "bad.theme:1: missing key");
	expect_error("hit.bg =\n", "bad.theme:1: hit.bg has no value");
	char longl[2000];
	memset(longl, 'a', sizeof longl - 1);
	longl[sizeof longl - 1] = '\0';
	expect_error(longl, "bad.theme:1: line longer than");
	const char nul[] = "title.fg = #ffffff\nx\0y = 1\n";
	struct theme t;
	theme_default(&t);
	char err[256];
	assert_int_equal(theme_parse(nul, sizeof nul - 1, "bad.theme", &t, err, sizeof err), -EINVAL);
	assert_non_null(strstr(err, "bad.theme:2: NUL"));
}

static void test_broken_file_keeps_caller_theme(void **state)
{
	(void)state;
	char dir[] = "/tmp/iodash-theme-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof path, "%s/broken.theme", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("title.fg = #ff0000\nline.thresh.fg = #fff\n", f);
	fclose(f);
	struct theme t, d;
	theme_default(&t);
	theme_default(&d);
	char err[512] = "";
	assert_int_equal(theme_load_file(path, &t, err, sizeof err), -EINVAL);
	char want[200];
	snprintf(want, sizeof want, "%s:2: line.thresh.fg: bad colour", path);
	assert_non_null(strstr(err, want));
	/* nothing of the broken file leaks into the theme in use */
	assert_memory_equal(&t, &d, sizeof t);
	/* a name that is nowhere says where it looked */
	char dirs[2][THEME_PATH_LEN];
	snprintf(dirs[0], sizeof dirs[0], "%s", dir);
	snprintf(dirs[1], sizeof dirs[1], "/nonexistent");
	char p[THEME_PATH_LEN + 80];
	assert_int_equal(theme_resolve("nope", dirs, 2, p, sizeof p, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "theme \"nope\" not found in"));
	assert_non_null(strstr(err, "/nonexistent"));
	assert_int_equal(theme_resolve("broken", dirs, 2, p, sizeof p, err, sizeof err), 0);
	assert_string_equal(p, path);
	assert_int_equal(theme_resolve(path, dirs, 0, p, sizeof p, err, sizeof err), 0);
	assert_int_equal(theme_resolve("/no/such.theme", dirs, 0, p, sizeof p, err, sizeof err), -ENOENT);
	assert_int_equal(theme_load_file(dir, &t, err, sizeof err), -EINVAL);
	unlink(path);
	rmdir(dir);
}

static void test_search_dirs(void **state)
{
	(void)state;
	char d[8][THEME_PATH_LEN];
	size_t n = theme_search_dirs("/opt/x/bin", "/usr/share/iodash", "/home/u/.config/iodash", d, 8);
	assert_int_equal(n, 4);
	/* the user's directory first: a theme of one's own wins */
	assert_string_equal(d[0], "/home/u/.config/iodash/themes");
	assert_string_equal(d[1], "/opt/x/bin/themes");
	assert_string_equal(d[2], "/opt/x/bin/../share/iodash/themes");
	assert_string_equal(d[3], "/usr/share/iodash/themes");
	assert_int_equal(theme_search_dirs(NULL, NULL, "", d, 8), 0);
	assert_int_equal(theme_search_dirs("/a", "/b", "/c", d, 2), 2);
}

static void test_colour_degrade(void **state)
{
	(void)state;
	assert_int_equal(theme_rgb_to_256(0xff0000), 196);
	assert_int_equal(theme_rgb_to_256(0x000000), 16);
	assert_int_equal(theme_rgb_to_256(0xffffff), 231);
	assert_int_equal(theme_rgb_to_256(0x808080), 244);
	assert_int_equal(theme_rgb_to_256(0x5fafd7), 74);
	assert_int_equal(theme_index_rgb(74), 0x5fafd7);
	assert_int_equal(theme_index_rgb(232), 0x080808);
	assert_int_equal(theme_rgb_to_16(0xff0000), 9);
	assert_int_equal(theme_rgb_to_16(0x000000), 0);
	assert_int_equal(theme_rgb_to_16(0xcdcd00), 3);
	struct theme_color red = { THC_RGB, 0xff0000 }, i3 = { THC_INDEX, 3 },
			   i196 = { THC_INDEX, 196 }, def = { THC_DEFAULT, 0 };
	assert_int_equal(theme_color_for(&red, 1 << 24), 0xff0000);
	assert_int_equal(theme_color_for(&red, 256), 196);
	assert_int_equal(theme_color_for(&red, 16), 9);
	assert_int_equal(theme_color_for(&red, 8), 1);
	assert_int_equal(theme_color_for(&i3, 256), 3);
	assert_int_equal(theme_color_for(&i3, 1 << 24), 3);
	assert_int_equal(theme_color_for(&i196, 1 << 24), 0xff0000);
	assert_int_equal(theme_color_for(&i196, 16), 9);
	assert_int_equal(theme_color_for(&def, 256), -1);
	assert_int_equal(theme_color_for(&red, 0), -1);
}

/* The throttle shading must show on a 256-colour terminal: its
 * background a red of the colour cube, not a grey that black hides. */
static void test_shade_visible_in_256(void **state)
{
	(void)state;
	struct theme t;
	theme_default(&t);
	int bg = theme_color_for(&t.s[TE_SHADE].bg, 256);
	assert_true(bg >= 16 && bg <= 231);
	uint32_t rgb = theme_index_rgb((unsigned)bg);
	assert_true((rgb >> 16 & 255) >= 0x5f);
	assert_true((rgb >> 16 & 255) >= 2 * (rgb >> 8 & 255) + 0x40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_file_matches_builtin),
		cmocka_unit_test(test_every_shipped_theme_loads),
		cmocka_unit_test(test_parse_keys_and_fallback),
		cmocka_unit_test(test_errors_name_file_and_line),
		cmocka_unit_test(test_broken_file_keeps_caller_theme),
		cmocka_unit_test(test_search_dirs),
		cmocka_unit_test(test_colour_degrade),
		cmocka_unit_test(test_shade_visible_in_256),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
