/* config.h: where the user's file and themes are (XDG), and how a config
 * file's lines are read and refused. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "iodash/base/config.h"

static void test_dirs(void **st)
{
	char b[256];

	(void)st;
	setenv("HOME", "/home/u", 1);
	setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
	assert_string_equal(config_default_dir(b, sizeof(b)), "/x/cfg/iodash");
	assert_string_equal(config_default_path(b, sizeof(b)), "/x/cfg/iodash/config");
	/* a relative XDG_CONFIG_HOME is to be ignored (XDG spec) */
	setenv("XDG_CONFIG_HOME", "rel/cfg", 1);
	assert_string_equal(config_default_dir(b, sizeof(b)), "/home/u/.config/iodash");
	unsetenv("XDG_CONFIG_HOME");
	assert_string_equal(config_default_path(b, sizeof(b)), "/home/u/.config/iodash/config");
	unsetenv("HOME");
	assert_string_equal(config_default_path(b, sizeof(b)), "");
}

static const char *write_tmp(const char *text)
{
	static char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/iodash-cfg-test.%d", (int)getpid());
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_load(void **st)
{
	struct config c;
	char err[512];
	const char *p;

	(void)st;
	p = write_tmp("# defaults\n\n  interval=0.05  \ntheme = my theme\r\nrecord_dir = /srv/recs # not a comment\n");
	assert_int_equal(config_load(p, &c, err, sizeof(err)), 0);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.v[0].key, "interval");
	assert_string_equal(c.v[0].option, "--interval");
	assert_string_equal(c.v[0].value, "0.05");
	assert_int_equal(c.v[0].line, 3);
	assert_string_equal(c.v[1].value, "my theme");
	assert_string_equal(c.v[2].value, "/srv/recs # not a comment");

	p = write_tmp("interval = 1\nthemes = x\n");
	assert_int_equal(config_load(p, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":2: unknown key 'themes' (keys: interval, refresh, theme, record_dir, throttle_gap)"));
	p = write_tmp("theme\n");
	assert_int_equal(config_load(p, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":1: not 'key = value'"));
	p = write_tmp("theme =   \n");
	assert_int_equal(config_load(p, &c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":1: theme wants a value"));
	unlink(p);
	assert_int_equal(config_load(p, &c, err, sizeof(err)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dirs),
		cmocka_unit_test(test_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
