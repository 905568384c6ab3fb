/* sampler on this machine's /proc: live samples keep the grid of sample 0
 * (sample k read at t0 + k * interval), however long the set-up between
 * sample 0's read and the sampler's start took. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "iodash/model/model.h"
#include "iodash/probe/probe.h"
#include "iodash/session/sampler.h"
#include "iodash/model/series.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

/* Sample 0 read, then `setup_ms` of other work (as the app writes the
 * recording's header and opens the publisher), then the sampler: the
 * session times of samples 1 and 2. */
static void run_after_setup(long setup_ms, double interval, double t[3], unsigned long *missed)
{
	struct probe *p = NULL;
	struct sampler *smp = NULL;
	struct snapshot first = { 0 };
	struct model m;
	char err[512] = "";

	if (probe_open_live(&p, err, sizeof(err)))
		fail_msg("live probe: %s", err);
	assert_int_equal(model_init(&m, 64), 0);
	if (probe_read(p, &first, err, sizeof(err)))
		fail_msg("first read: %s", err);
	sleep_ms(setup_ms);
	struct sampler_config cfg = { .interval = interval, .count = 3 };
	if (sampler_start(&smp, p, &m, &cfg, &first, err, sizeof(err)))
		fail_msg("sampler: %s", err);
	/* wait for the state (three samples taken), not for a time */
	for (;;) {
		model_lock(&m);
		bool done = m.sampler_done;
		model_unlock(&m);
		if (done)
			break;
		struct pollfd pf = { .fd = model_wake_fd(&m), .events = POLLIN };
		if (poll(&pf, 1, 1000) > 0)
			model_drain_wake(&m);
	}
	sampler_stop(smp);
	assert_string_equal(m.error, "");
	assert_int_equal(series_len(&m.series), 3);
	for (int i = 0; i < 3; i++)
		t[i] = series_at(&m.series, i)->t;
	*missed = (unsigned long)series_at(&m.series, 2)->missed;   /* ticks missed so far */
	model_free(&m);
	snapshot_free(&first);
	probe_close(p);
}

/* 400 ms between sample 0 and the sampler's start: sample 1 still comes at
 * 0.5 s (the timer armed "one interval from the start" gave 0.9 s and every
 * later sample 0.4 s off the grid).  The bound leaves 400 ms for a slow
 * wake-up (a loaded box, a sanitizer build), and a timer armed at the start
 * cannot fire before 0.9 s. */
static void test_grid_kept_after_setup(void **state)
{
	double t[3];
	unsigned long missed;

	(void)state;
	run_after_setup(400, 0.5, t, &missed);
	assert_true(t[0] == 0);
	if (t[1] < 0.5 - 1e-3 || t[1] >= 0.9)
		fail_msg("sample 1 at %.4f s: not on the grid of sample 0 (0.5 s)", t[1]);
	if (t[2] < 1.0 - 1e-3 || t[2] >= 1.4)
		fail_msg("sample 2 at %.4f s: not on the grid of sample 0 (1.0 s)", t[2]);
	assert_int_equal(missed, 0);
}

/* A set-up longer than an interval: the grid points it covered were never
 * due (nothing sampled yet), so they are not missed ticks; sample 1 comes at
 * the next grid point, 1.5 s, where a timer armed at the start gives 1.7 s. */
static void test_grid_points_before_start_not_missed(void **state)
{
	double t[3];
	unsigned long missed;

	(void)state;
	run_after_setup(1200, 0.5, t, &missed);
	if (t[1] < 1.5 - 1e-3 || t[1] >= 1.7)
		fail_msg("sample 1 at %.4f s: not the next grid point after the set-up (1.5 s)", t[1]);
	if (t[2] < 2.0 - 1e-3 || t[2] >= 2.2)
		fail_msg("sample 2 at %.4f s: not on the grid (2.0 s)", t[2]);
	assert_int_equal(missed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid_kept_after_setup),
		cmocka_unit_test(test_grid_points_before_start_not_missed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
