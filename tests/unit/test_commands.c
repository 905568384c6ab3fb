/* The commands[] table main.c dispatches from: one complete row per
 * command (name, usage line, handler), each name parsed back to its
 * command, each usage line in --help.  A command added to the enum
 * without its row (or its arguments below) fails here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cmd/cli.h"
#include "cmd/commands.h"

/* Arguments each command accepts, to parse its word back (NULL-ended). */
static const char *const valid_args[CMD_COUNT][6] = {
	[CMD_LIVE] = { NULL },
	[CMD_RUN] = { "--", "dbench", "1", NULL },
	[CMD_SWEEP] = { "-p", "n=1,2", "--", "dbench", "{n}", NULL },
	[CMD_ATTACH] = { "1", NULL },
	[CMD_VIEW] = { "a.rec", NULL },
	[CMD_COMPARE] = { "a.rec", NULL },
	[CMD_EXPORT] = { "--csv", "--table", "events", "a.rec", NULL },
	[CMD_REPORT] = { "-o", "r.html", "a.rec", NULL },
	[CMD_RESTORE] = { NULL },
	[CMD_FLEET] = { "lab1", "lab2:44321", NULL },
};

static void test_rows_complete(void **st)
{
	int seen[CMD_COUNT] = { 0 };

	(void)st;
	assert_int_equal(cmd_count, CMD_COUNT);
	for (size_t i = 0; i < cmd_count; i++) {
		const struct cmd_struct *c = &commands[i];
		assert_non_null(c->name);
		assert_true(c->name[0]);
		assert_non_null(c->fn);
		assert_non_null(c->usage);
		assert_int_equal(strncmp(c->usage, "iodash ", 7), 0);
		assert_true((int)c->cmd >= 0 && c->cmd < CMD_COUNT);
		seen[c->cmd]++;
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(c->name, commands[k].name);
	}
	for (int e = 0; e < CMD_COUNT; e++)
		assert_int_equal(seen[e], 1);
}

static void test_names_parse_back(void **st)
{
	(void)st;
	for (size_t i = 0; i < cmd_count; i++) {
		const struct cmd_struct *c = &commands[i];
		char *argv[10] = { "iodash", (char *)c->name };
		int argc = 2;
		for (int k = 0; valid_args[c->cmd][k]; k++)
			argv[argc++] = (char *)valid_args[c->cmd][k];
		struct iodash_opts o;
		assert_int_equal(cli_parse(argc, argv, commands, cmd_count, &o), 0);
		assert_int_equal(o.cmd, c->cmd);
	}
	/* a word that is no command is a usage error (message on stderr) */
	char *bad[] = { "iodash", "nosuchcommand" };
	struct iodash_opts o;
	assert_int_equal(cli_parse(2, bad, commands, cmd_count, &o), 2);
}

static void test_help_has_every_usage(void **st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)st;
	assert_non_null(f);
	cli_usage(f, commands, cmd_count);
	fclose(f);
	for (size_t i = 0; i < cmd_count; i++)
		assert_non_null(strstr(buf, commands[i].usage));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_complete),
		cmocka_unit_test(test_names_parse_back),
		cmocka_unit_test(test_help_has_every_usage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
