/* record_place: which word of the benchmark's command line is a path it
 * writes to.  Nothing is created: the check only looks at devices. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "iodash/record/record_place.h"

/* a recording beside the programs, so that the program's device is the
 * recording's: the benchmark's own binary is still not what it writes */
#define REC_BESIDE "/usr/bin/iodash-test-not-there.rec"

static void test_program_is_not_a_target(void **state)
{
	char *const echo[] = { "/bin/echo", "hello" };
	char *const env[] = { "env", "/usr/bin/env", "X=1", "/bin/echo", "hello" };
	char why[256] = "";
	int rc;
	(void)state;

	rc = record_place_check(REC_BESIDE, echo, 2, why, sizeof(why));
	assert_true(rc >= 0);
	/* without a path it writes to: the current directory, or nothing */
	assert_true(rc == 0 || strstr(why, "current directory"));
	why[0] = '\0';
	rc = record_place_check(REC_BESIDE, env, 5, why, sizeof(why));
	assert_true(rc >= 0);
	assert_true(rc == 0 || strstr(why, "current directory"));
}

static void test_written_path_found(void **state)
{
	char *const dd[] = { "dd", "if=/dev/zero", "of=/usr/bin/iodash-test-out", "bs=1M" };
	char why[256] = "";
	(void)state;

	/* a file not there yet: its directory's device */
	assert_int_equal(record_place_check(REC_BESIDE, dd, 4, why, sizeof(why)), 1);
	assert_string_equal(why, "/usr/bin/iodash-test-out");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_program_is_not_a_target),
		cmocka_unit_test(test_written_path_found),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
