/* util: the one monotonic clock and the one base-name helper. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>
#include "iodash/base/util.h"

static void test_base_name(void **state)
{
	(void)state;
	assert_string_equal(util_base_name("/usr/bin/dbench"), "dbench");
	assert_string_equal(util_base_name("runs/a.rec"), "a.rec");
	assert_string_equal(util_base_name("a.rec"), "a.rec");
	assert_string_equal(util_base_name("dir/"), "");
	assert_string_equal(util_base_name(""), "");
	const char *p = "x/y";
	assert_ptr_equal(util_base_name(p), p + 2);   /* into the path, no copy */
}

static void test_mono_clock(void **state)
{
	(void)state;
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	uint64_t a = util_mono_ns();
	double as = util_mono_s();
	nanosleep(&ts, NULL);
	uint64_t b = util_mono_ns();
	double bs = util_mono_s();
	assert_true(b - a >= 20u * 1000 * 1000);     /* it advances by the sleep at least */
	assert_true(bs - as >= 0.02 - 1e-9);
	assert_true(bs - as < 5);                      /* seconds, not nanoseconds */
}

static void test_numbers(void **state)
{
	double v;

	(void)state;
	assert_int_equal(util_parse_number("8", &v), 0);
	assert_true(v == 8);
	assert_int_equal(util_parse_number("2.5", &v), 0);
	assert_true(v == 2.5);
	assert_int_equal(util_parse_number("4k", &v), 0);
	assert_true(v == 4096);
	assert_int_equal(util_parse_number("1M", &v), 0);
	assert_true(v == 1048576);
	assert_int_equal(util_parse_number("4KiB", &v), 0);
	assert_true(v == 4096);
	assert_int_equal(util_parse_number("fast", &v), -EINVAL);
	assert_int_equal(util_parse_number("4x", &v), -EINVAL);
	assert_int_equal(util_parse_number("", &v), -EINVAL);
	assert_int_equal(util_parse_number("nan", &v), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_name),
		cmocka_unit_test(test_mono_clock),
		cmocka_unit_test(test_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
