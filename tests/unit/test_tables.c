/* The ui's tables: every panel row can be drawn and placed, every key row
 * has its help and its handler, and each screen lists only its keys. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "ui/layout.h"
#include "ui/keys.h"

static void test_panels(void **state)
{
	(void)state;
	for (int p = 0; p < UI_PANEL_COUNT; p++) {
		const struct panel_def *d = &ui_panels[p];
		if (!d->name || !d->name[0])
			fail_msg("panel %d has no name", p);
		if (!d->draw)
			fail_msg("panel %s has no draw function", d->name);
		if (d->band < 0)
			continue;   /* header and status: placed by the layout itself */
		if (d->min_h < 1 || d->width < 1)
			fail_msg("panel %s: min_h %d, width %d", d->name, d->min_h, d->width);
		if (d->drop_rank < 1)
			fail_msg("panel %s never drops: a small screen would overlap it", d->name);
		if (!d->key)
			fail_msg("panel %s has no key to show/hide it", d->name);
		for (int q = p + 1; q < UI_PANEL_COUNT; q++) {
			if (ui_panels[q].band >= 0 && ui_panels[q].drop_rank == d->drop_rank)
				fail_msg("panels %s and %s share drop rank %d", d->name,
					 ui_panels[q].name, d->drop_rank);
			if (ui_panels[q].key == d->key)
				fail_msg("panels %s and %s share key %c", d->name, ui_panels[q].name, d->key);
		}
	}
}

static void check_keys(const char *what, const struct ui_key_def *t, size_t n, unsigned screens)
{
	char nb[16], hb[256];
	for (size_t i = 0; i < n; i++) {
		const struct ui_key_def *k = &t[i];
		const char *name = ui_key_name(k, nb, sizeof nb);
		if (!k->codes[0])
			fail_msg("%s row %zu takes no key", what, i);
		if (!name || !name[0])
			fail_msg("%s row %zu has no key name", what, i);
		if (!k->help || !k->help[0])
			fail_msg("%s key %s has no help text", what, name);
		if (!k->handler)
			fail_msg("%s key %s has no handler", what, name);
		if (!(k->screens & screens) || (k->screens & ~screens))
			fail_msg("%s key %s: screens %#x", what, name, k->screens);
		if (k->label && !k->label[0])
			fail_msg("%s key %s: empty status bar label", what, name);
		/* a key of a screen goes to one row: its first */
		for (int s = 0; s < 4; s++) {
			unsigned scr = 1u << s;
			if (!(k->screens & scr))
				continue;
			for (int j = 0; j < UI_KEY_MAX_CODES && k->codes[j]; j++) {
				int ch = k->codes[j];
				if (ch == UI_KEY_PANELS)
					continue;
				if (ui_key_find(t, n, scr, ch) != k)
					fail_msg("%s key %s: code %d of screen %#x goes to another row",
						 what, name, ch, scr);
			}
		}
	}
	(void)hb;
}

static void test_keys(void **state)
{
	(void)state;
	check_keys("live", ui_live_keys, ui_live_nkeys, UI_SCREEN_LIVE | UI_SCREEN_VIEW);
	check_keys("compare", ui_compare_keys, ui_compare_nkeys, UI_SCREEN_COMPARE);
	check_keys("fleet", ui_fleet_keys, ui_fleet_nkeys, UI_SCREEN_FLEET);
	assert_non_null(ui_key_find(ui_fleet_keys, ui_fleet_nkeys, UI_SCREEN_FLEET, '\n'));
	/* every panel's key shows/hides it on both screens that have panels */
	for (int p = 0; p < UI_PANEL_COUNT; p++)
		if (ui_panels[p].key) {
			assert_non_null(ui_key_find(ui_live_keys, ui_live_nkeys, UI_SCREEN_LIVE, ui_panels[p].key));
			assert_non_null(ui_key_find(ui_live_keys, ui_live_nkeys, UI_SCREEN_VIEW, ui_panels[p].key));
		}
	/* each screen has only its keys: a mark is live only, time travel
	 * is the view's, and every screen quits with q */
	assert_non_null(ui_key_find(ui_live_keys, ui_live_nkeys, UI_SCREEN_LIVE, 'm'));
	assert_null(ui_key_find(ui_live_keys, ui_live_nkeys, UI_SCREEN_VIEW, 'm'));
	assert_null(ui_key_find(ui_live_keys, ui_live_nkeys, UI_SCREEN_LIVE, 'g'));
	assert_non_null(ui_key_find(ui_live_keys, ui_live_nkeys, UI_SCREEN_VIEW, 'g'));
	assert_non_null(ui_key_find(ui_compare_keys, ui_compare_nkeys, UI_SCREEN_COMPARE, 'q'));
	assert_null(ui_key_find(ui_compare_keys, ui_compare_nkeys, UI_SCREEN_COMPARE, 'm'));
}

/* The panels row names its keys and panels from the panel table. */
static void test_panel_keys_text(void **state)
{
	(void)state;
	char nb[16], hb[256];
	const struct ui_key_def *k = ui_key_find(ui_live_keys, ui_live_nkeys, UI_SCREEN_LIVE, '1');
	assert_non_null(k);
	assert_string_equal(ui_key_name(k, nb, sizeof nb), "1-7");
	assert_string_equal(ui_key_help(k, hb, sizeof hb),
			    "show/hide: 1 throughput 2 dirty 3 disks 4 output 5 curves 6 events 7 context");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_panels),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_panel_keys_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
