/* replay: the "go to" time of view's prompt, [+|-][[H:]M:]S[.f]. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "iodash/session/replay.h"

static double at(const char *s, double now)
{
	double t = -1;

	assert_int_equal(replay_parse_time(s, now, &t), 0);
	return t;
}

static void test_parse_time(void **st)
{
	double t;

	(void)st;
	assert_true(at("90", 0) == 90);
	assert_true(at("1:30", 0) == 90);
	assert_true(at("1:00:05.5", 0) == 3605.5);
	assert_true(at(" 12.25", 0) == 12.25);
	assert_true(at("+10", 100) == 110);          /* relative to the sample shown */
	assert_true(at("-1:00", 100) == 40);
	assert_int_equal(replay_parse_time("", 0, &t), -EINVAL);
	assert_int_equal(replay_parse_time("+", 0, &t), -EINVAL);
	assert_int_equal(replay_parse_time("1:2:3:4", 0, &t), -EINVAL);   /* at most h:m:s */
	assert_int_equal(replay_parse_time("1m", 0, &t), -EINVAL);
	assert_int_equal(replay_parse_time("a", 0, &t), -EINVAL);
	assert_int_equal(replay_parse_time("1::2", 0, &t), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
