/* util: the one monotonic clock and the one base-name helper. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_name),
		cmocka_unit_test(test_mono_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
