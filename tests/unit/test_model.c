/* model: the setters producers use and the command queue from the front
 * end to its producer (replay time travel).  The threaded cases also run
 * in the ThreadSanitizer build, which fails them on any race. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "iodash/model/model.h"

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int setup(void **state)
{
	static struct model m;

	if (model_init(&m, 16))
		return -1;
	*state = &m;
	return 0;
}

static int teardown(void **state)
{
	model_free(*state);
	return 0;
}

static void test_cmds_in_order(void **state)
{
	struct model *m = *state;
	struct model_cmd c;

	assert_false(model_wait_cmd(m, &c, 0));
	assert_int_equal(model_post_cmd(m, 1, -1, NULL), 0);
	assert_int_equal(model_post_cmd(m, 2, 60, "1:02"), 0);
	assert_true(model_wait_cmd(m, &c, 0));
	assert_int_equal(c.kind, 1);
	assert_true(c.arg == -1);
	assert_string_equal(c.text, "");
	assert_true(model_wait_cmd(m, &c, 0));
	assert_int_equal(c.kind, 2);
	assert_true(c.arg == 60);
	assert_string_equal(c.text, "1:02");
	assert_false(model_wait_cmd(m, &c, 0));
}

static void test_cmd_queue_full(void **state)
{
	struct model *m = *state;
	struct model_cmd c;

	for (int i = 0; i < MODEL_CMD_CAP; i++)
		assert_int_equal(model_post_cmd(m, 1, i, NULL), 0);
	assert_int_equal(model_post_cmd(m, 1, 999, NULL), -EAGAIN);
	/* the oldest are kept; one taken makes room again (the ring wraps) */
	assert_true(model_wait_cmd(m, &c, 0));
	assert_true(c.arg == 0);
	assert_int_equal(model_post_cmd(m, 1, 1000, NULL), 0);
	for (int i = 1; i < MODEL_CMD_CAP; i++) {
		assert_true(model_wait_cmd(m, &c, 0));
		assert_true(c.arg == i);
	}
	assert_true(model_wait_cmd(m, &c, 0));
	assert_true(c.arg == 1000);
	assert_false(model_wait_cmd(m, &c, 0));
}

static void test_quit_first_and_never_lost(void **state)
{
	struct model *m = *state;
	struct model_cmd c;

	for (int i = 0; i < MODEL_CMD_CAP; i++)
		assert_int_equal(model_post_cmd(m, 1, i, NULL), 0);
	/* a full queue still takes the quit */
	assert_int_equal(model_post_cmd(m, MODEL_CMD_QUIT, 0, NULL), 0);
	assert_true(model_wait_cmd(m, &c, 0));
	assert_int_equal(c.kind, MODEL_CMD_QUIT);
	assert_true(model_wait_cmd(m, &c, 0));
	assert_int_equal(c.kind, MODEL_CMD_QUIT);
}

static void test_wait_times_out(void **state)
{
	struct model *m = *state;
	struct model_cmd c;
	double t0 = mono_s();

	assert_false(model_wait_cmd(m, &c, 0.1));
	assert_true(mono_s() - t0 >= 0.09);
}

struct waiter {
	struct model *m;
	double timeout, waited;
	bool got;
	struct model_cmd c;
};

static void *waiter_run(void *arg)
{
	struct waiter *w = arg;
	double t0 = mono_s();

	w->got = model_wait_cmd(w->m, &w->c, w->timeout);
	w->waited = mono_s() - t0;
	return NULL;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* The replay thread waits; a key posted on another thread wakes it at once. */
static void test_post_wakes_waiter(void **state)
{
	struct model *m = *state;
	struct waiter w = { .m = m, .timeout = 10 };
	pthread_t th;

	assert_int_equal(pthread_create(&th, NULL, waiter_run, &w), 0);
	sleep_ms(100);
	assert_int_equal(model_post_cmd(m, 7, 0.5, "x"), 0);
	pthread_join(th, NULL);
	assert_true(w.got);
	assert_int_equal(w.c.kind, 7);
	assert_string_equal(w.c.text, "x");
	assert_true(w.waited < 5);
}

/* Space: the waiting replay stops at once, not at its next poll. */
static void test_pause_wakes_waiter(void **state)
{
	struct model *m = *state;
	struct waiter w = { .m = m, .timeout = 10 };
	pthread_t th;

	assert_false(model_is_paused(m));
	assert_int_equal(pthread_create(&th, NULL, waiter_run, &w), 0);
	sleep_ms(100);
	model_set_paused(m, true);
	pthread_join(th, NULL);
	assert_false(w.got);
	assert_true(w.waited < 5);
	assert_true(model_is_paused(m));
}

static void *t0_setter(void *arg)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	model_set_t0(arg, (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec - 1000000000u);
	return NULL;
}

/* The sampler sets t0 at its first sample while the driver already asks
 * for the session time (iodash run): 0 until then, seconds after. */
static void test_now_while_t0_set(void **state)
{
	struct model *m = *state;
	pthread_t th;
	double t = 0;

	assert_true(model_now(m) == 0);
	assert_int_equal(pthread_create(&th, NULL, t0_setter, m), 0);
	for (int i = 0; i < 100000 && t == 0; i++)
		t = model_now(m);
	pthread_join(th, NULL);
	t = model_now(m);
	assert_true(t >= 1 && t < 60);
}

static void test_setters_and_clear(void **state)
{
	struct model *m = *state;
	struct model_event e = { .kind = MEV_MARK, .t = 1 };
	struct output_line l = { .t = 2, .run = 0 };
	struct sample s = { 0 };
	struct bench_status b = { .state = BENCH_RUNNING, .eta_s = 12, .last_exit_status = 0 };

	model_set_source(m, "recording a.rec @ 0:00:01.0");
	assert_string_equal(m->source, "recording a.rec @ 0:00:01.0");
	model_set_error(m, "a.rec:3: truncated");
	assert_string_equal(m->error, "a.rec:3: truncated");

	memset(&s, 0, sizeof(s));
	model_add_sample(m, &s);
	assert_int_equal(series_len(&m->series), 1);
	model_set_bench(m, &b);
	model_lock(m);
	for (int i = 0; i < MODEL_EVENT_CAP + 3; i++)
		model_put_event_locked(m, &e);
	snprintf(l.text, sizeof(l.text), "line");
	model_put_output_locked(m, &l);
	model_unlock(m);
	assert_int_equal(m->nevents, MODEL_EVENT_CAP + 3);
	assert_int_equal(m->noutput, 1);
	assert_string_equal(m->output[0].text, "line");

	model_lock(m);
	model_clear_locked(m);
	model_unlock(m);
	assert_int_equal(m->nevents, 0);
	assert_int_equal(m->noutput, 0);
	assert_int_equal(series_len(&m->series), 0);
	assert_int_equal(m->bench.state, BENCH_NONE);
	/* unknown, as model_init has them: not "exit 0" or "eta 0 s" */
	assert_int_equal(m->bench.last_exit_status, -1);
	assert_true(m->bench.eta_s < 0);
	sample_free(&s);
}

static void test_run_end_stopped(void **state)
{
	(void)state;
	assert_true(model_run_end_stopped("run stopped: killed by SIGINT after 3.1 s (stopped on request)"));
	assert_true(model_run_end_stopped("run 2/3 stopped: exit 130 after 1.0 s"));
	assert_false(model_run_end_stopped("run FAILED: killed by SIGINT after 3.1 s"));
	assert_false(model_run_end_stopped("run 2/3 ok: exit 0 after 1.0 s"));
	assert_false(model_run_end_stopped("run 1/2 FAILED: not started: stopped: x"));
	assert_false(model_run_end_stopped("unstopped: x"));
	assert_false(model_run_end_stopped(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_end_stopped),
		cmocka_unit_test_setup_teardown(test_cmds_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cmd_queue_full, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quit_first_and_never_lost, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_times_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_post_wakes_waiter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pause_wakes_waiter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_now_while_t0_set, setup, teardown),
		cmocka_unit_test_setup_teardown(test_setters_and_clear, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
