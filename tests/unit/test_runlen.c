/* bench_run_length: how long a run takes, from its command line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdbool.h>
#include "iodash/bench/runlen.h"

static int len(double *s, bool *at_most, char *const argv[])
{
	*s = -1;
	return bench_run_length(argv, s, at_most);
}

static void test_run_length(void **state)
{
	(void)state;
	double s;
	bool am;
	assert_int_equal(len(&s, &am, (char *[]){ "dbench", "-D", "/srv", "-t", "30", "4", NULL }), 0);
	assert_float_equal(s, 30, 0);
	assert_false(am);
	assert_int_equal(len(&s, &am, (char *[]){ "/usr/bin/dbench", "-t10", "1", NULL }), 0);
	assert_float_equal(s, 10, 0);
	assert_int_equal(len(&s, &am, (char *[]){ "dbench", "--timelimit=7", "1", NULL }), 0);
	assert_float_equal(s, 7, 0);
	assert_int_equal(len(&s, &am, (char *[]){ "dbench", "4", NULL }), -ENOENT);

	assert_int_equal(len(&s, &am, (char *[]){ "fio", "--name=a", "--rw=write", "--runtime=20",
						  "--time_based", "--ramp_time=2s", NULL }), 0);
	assert_float_equal(s, 22, 0);
	assert_false(am);
	assert_int_equal(len(&s, &am, (char *[]){ "fio", "--runtime", "1m", "--size=1G", NULL }), 0);
	assert_float_equal(s, 60, 0);
	assert_true(am);   /* without time_based it ends when the size is done */
	assert_int_equal(len(&s, &am, (char *[]){ "fio", "--runtime=500ms", "--time_based", NULL }), 0);
	assert_float_equal(s, 0.5, 1e-12);
	assert_int_equal(len(&s, &am, (char *[]){ "fio", "job.fio", NULL }), -ENOENT);
	assert_int_equal(len(&s, &am, (char *[]){ "fio", "--runtime=abc", NULL }), -ENOENT);

	assert_int_equal(len(&s, &am, (char *[]){ "sysbench", "fileio", "--time=15", "run", NULL }), 0);
	assert_float_equal(s, 15, 0);
	assert_false(am);
	assert_int_equal(len(&s, &am, (char *[]){ "sysbench", "--events=1000", "--time", "15", "cpu", "run", NULL }), 0);
	assert_true(am);
	assert_int_equal(len(&s, &am, (char *[]){ "sysbench", "cpu", "run", NULL }), -ENOENT);

	assert_int_equal(len(&s, &am, (char *[]){ "iozone", "-a", NULL }), -ENOENT);
	assert_int_equal(len(&s, &am, (char *[]){ NULL }), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_run_length) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
