/* replay: the "go to" time of view's prompt, [+|-][[H:]M:]S[.f]; the
 * graphs' bucket of a short recording. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <unistd.h>
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

/* A finished recording of 2.5 s sampled every 0.05 s (a killed sweep's:
 * no end record, nobody writing) gets buckets of one sample, not of the
 * 1 s refresh; while someone holds it as its writer, the refresh. */
static void test_graph_seconds(void **st)
{
	const char *path = "tests/fixtures/recordings/knobs-sweep-6.18.rec";
	struct replay_config cfg = { .file_no = 1, .nfiles = 1 };
	struct replay *r;
	char err[256];

	(void)st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	assert_int_equal(replay_open(&r, path, &cfg, err, sizeof(err)), 0);
	assert_true(replay_graph_seconds(r, 1.0) == 1.0);
	replay_close(r);
	close(fd);
	assert_int_equal(replay_open(&r, path, &cfg, err, sizeof(err)), 0);
	assert_true(replay_graph_seconds(r, 1.0) > 0.049 && replay_graph_seconds(r, 1.0) < 0.051);
	/* a refresh finer than that stays */
	assert_true(replay_graph_seconds(r, 0.01) == 0.01);
	replay_close(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_time),
		cmocka_unit_test(test_graph_seconds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
