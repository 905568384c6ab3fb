/* config: the user's defaults file (config.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/base/config.h"

/* Each key and the option whose value it sets: the command line checks
 * the value as it checks the option, so the two cannot disagree. */
static const struct {
	const char *key, *option;
} config_keys[] = {
	{ "interval", "--interval" },
	{ "refresh", "--refresh" },
	{ "theme", "--theme" },
	{ "record_dir", "--record-dir" },
	{ "throttle_gap", "--throttle-gap" },
};
#define NKEYS (sizeof(config_keys) / sizeof(config_keys[0]))

const char *config_key_list(void)
{
	return "interval, refresh, theme, record_dir, throttle_gap";
}

char *config_default_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	buf[0] = '\0';
	/* XDG: a relative XDG_CONFIG_HOME is invalid and to be ignored */
	if (xdg && xdg[0] == '/')
		snprintf(buf, len, "%s/iodash", xdg);
	else if (home && home[0])
		snprintf(buf, len, "%s/.config/iodash", home);
	return buf;
}

char *config_default_path(char *buf, size_t len)
{
	if (*config_default_dir(buf, len) && strlen(buf) + 8 < len)
		strcat(buf, "/config");
	else
		buf[0] = '\0';
	return buf;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

int config_load(const char *path, struct config *c, char *err, size_t errlen)
{
	char line[2048];
	int lineno = 0, rc = 0;
	FILE *f;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	if (!(f = fopen(path, "r"))) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	while (fgets(line, sizeof(line), f)) {
		char *s, *eq, *key, *val;
		size_t k;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%d: line longer than %zu bytes", path, lineno, sizeof(line) - 2);
			rc = -EINVAL;
			break;
		}
		s = trim(line);
		if (!*s || *s == '#')
			continue;
		if (!(eq = strchr(s, '='))) {
			snprintf(err, errlen, "%s:%d: not 'key = value': '%.60s' (keys: %s)", path, lineno, s,
				 config_key_list());
			rc = -EINVAL;
			break;
		}
		*eq = '\0';
		key = trim(s);
		val = trim(eq + 1);
		for (k = 0; k < NKEYS && strcmp(config_keys[k].key, key); k++)
			;
		if (k == NKEYS) {
			snprintf(err, errlen, "%s:%d: unknown key '%.60s' (keys: %s)", path, lineno, key, config_key_list());
			rc = -EINVAL;
			break;
		}
		if (!*val || strlen(val) >= CONFIG_VALUE_LEN || c->n == CONFIG_MAX_ENTRIES) {
			snprintf(err, errlen, "%s:%d: %s wants a value%s", path, lineno, key,
				 *val ? " (shorter, or fewer lines)" : " after '='");
			rc = -EINVAL;
			break;
		}
		c->v[c->n].key = config_keys[k].key;
		c->v[c->n].option = config_keys[k].option;
		c->v[c->n].line = lineno;
		snprintf(c->v[c->n].value, CONFIG_VALUE_LEN, "%s", val);
		c->n++;
	}
	if (!rc && ferror(f)) {
		rc = -EIO;
		snprintf(err, errlen, "%s: read error", path);
	}
	fclose(f);
	return rc;
}
