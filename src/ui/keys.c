/* keys: lookups over the key tables (src/ui/keys.h).  Pure: the
 * tables themselves sit next to their handlers (live.c, compare_screen.c). */
#include <stdio.h>
#include <string.h>
#include "ui/layout.h"
#include "ui/keys.h"

static bool takes_panel_key(int ch)
{
	for (int p = 0; p < UI_PANEL_COUNT; p++)
		if (ui_panels[p].key && ui_panels[p].key == ch)
			return true;
	return false;
}

const struct ui_key_def *ui_key_find(const struct ui_key_def *t, size_t n, unsigned screen, int ch)
{
	for (size_t i = 0; i < n; i++) {
		if (!(t[i].screens & screen))
			continue;
		if (t[i].codes[0] == UI_KEY_PANELS) {
			if (takes_panel_key(ch))
				return &t[i];
			continue;
		}
		for (int j = 0; j < UI_KEY_MAX_CODES && t[i].codes[j]; j++)
			if (t[i].codes[j] == ch)
				return &t[i];
	}
	return NULL;
}

const char *ui_key_name(const struct ui_key_def *k, char *buf, size_t n)
{
	if (k->codes[0] != UI_KEY_PANELS)
		return k->key;
	char lo = 0, hi = 0;
	for (int p = 0; p < UI_PANEL_COUNT; p++)
		if (ui_panels[p].key) {
			if (!lo)
				lo = ui_panels[p].key;
			hi = ui_panels[p].key;
		}
	snprintf(buf, n, "%c-%c", lo, hi);
	return buf;
}

const char *ui_key_help(const struct ui_key_def *k, char *buf, size_t n)
{
	if (k->codes[0] != UI_KEY_PANELS)
		return k->help;
	size_t len = (size_t)snprintf(buf, n, "%s", k->help);
	for (int p = 0; p < UI_PANEL_COUNT && len < n; p++)
		if (ui_panels[p].key)
			len += (size_t)snprintf(buf + len, n - len, " %c %s", ui_panels[p].key,
						ui_panels[p].name);
	return buf;
}
