/* Throttle episodes built from the kernel's real balance_dirty_pages events
 * (tests/fixtures/kernel-trace: a 10 s fio overwrite at 256M/128M, 4 s
 * quiet, a 240 MB burst), and the sampled fallback's merging. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/throttle/episode.h"
#include "iodash/throttle/ktrace.h"

#define BDP "tests/fixtures/kernel-trace/fio-overwrite-256M-128M-then-burst/balance_dirty_pages.txt"

static uint64_t ns_of(const char *secs)
{
	/* "4143.307533" exactly, without a double's rounding */
	unsigned long s = 0, us = 0;
	sscanf(secs, "%lu.%lu", &s, &us);
	return (uint64_t)s * 1000000000u + (uint64_t)us * 1000u;
}

static unsigned long long field(const char *line, const char *key)
{
	char pat[40];
	snprintf(pat, sizeof(pat), " %s=", key);
	const char *p = strstr(line, pat);
	assert_non_null(p);
	return strtoull(p + strlen(pat), NULL, 10);
}

/* One trace_pipe line into the event the binary reader would give. */
static void parse(const char *line, struct thr_pause *p)
{
	char comm_pid[64], ts[32], bdi[32];
	memset(p, 0, sizeof(*p));
	assert_int_equal(sscanf(line, " %63s [%*d] %*s %31[0-9.]: balance_dirty_pages: bdi %31s",
				comm_pid, ts, bdi), 3);
	bdi[strcspn(bdi, " ")] = '\0';
	if (bdi[0] && bdi[strlen(bdi) - 1] == ':')
		bdi[strlen(bdi) - 1] = '\0';   /* "bdi 254:0: limit=..." */
	char *dash = strrchr(comm_pid, '-');
	assert_non_null(dash);
	*dash = '\0';
	snprintf(p->comm, sizeof(p->comm), "%s", comm_pid);
	p->pid = atoi(dash + 1);
	snprintf(p->bdi, sizeof(p->bdi), "%s", bdi);
	p->ts_ns = ns_of(ts);
	p->limit = field(line, "limit");
	p->setpoint = field(line, "setpoint");
	p->dirty = field(line, "dirty");
	p->dirtied = (uint32_t)field(line, "dirtied");
	const char *q = strstr(line, " pause=");
	p->pause_ms = strtoll(q + 7, NULL, 10);
	p->cgroup_ino = field(line, "cgroup_ino");
}

/* Feed the whole fixture with this gap; closed episodes into eps. */
static int build(double gap, struct thr_episode *eps, int cap, unsigned *starts)
{
	FILE *f = fopen(BDP, "r");
	char line[1024];
	struct thr_builder b;
	struct thr_episode closed;
	int n = 0;

	assert_non_null(f);
	throttle_init(&b, gap);
	*starts = 0;
	while (fgets(line, sizeof(line), f)) {
		struct thr_pause p;
		parse(line, &p);
		int r = throttle_feed(&b, &p, &closed);
		if ((r & THR_CLOSED) && n < cap)
			eps[n++] = closed;
		if (r & THR_STARTED)
			(*starts)++;
	}
	fclose(f);
	/* the quiet after the last line (burst end 4157.755797) */
	if (throttle_advance(&b, ns_of("4200.0"), &closed) && n < cap)
		eps[n++] = closed;
	assert_false(b.open);
	return n;
}

static void test_fixture_two_episodes(void **state)
{
	struct thr_episode eps[8];
	unsigned starts;
	char w[160];

	(void)state;
	int n = build(1.0, eps, 8, &starts);
	assert_int_equal(n, 2);
	assert_int_equal(starts, 2);
	/* the 10 s overwrite: one continuous throttle is one episode, from
	 * the first pause's own time to the end of the last pause */
	assert_true(eps[0].start_ns == ns_of("4143.307533"));
	assert_true(eps[0].end_ns == ns_of("4153.245440") + 8000000u);
	assert_int_equal(eps[0].pauses, 378);
	assert_float_equal(eps[0].paused_ms, 3452, 1e-9);
	assert_int_equal(eps[0].nwriters, 1);
	assert_int_equal(eps[0].writers[0].pid, 17218);
	assert_string_equal(eps[0].writers[0].comm, "fio");
	assert_string_equal(eps[0].writers[0].bdi, "254:0");
	assert_int_equal(eps[0].writers[0].cgroup_ino, 1);
	/* highest dirty seen while it was open (pause or not), and the limit then */
	assert_int_equal(eps[0].peak_dirty, 53535);
	assert_int_equal(eps[0].peak_limit, 65536);
	/* fio, the one writer, 3452 ms asleep in 9.946 s */
	assert_float_equal(throttle_duty(&eps[0]), 100.0 * 3452 / 9945.907, 0.01);
	throttle_format_writers(&eps[0], w, sizeof(w));
	assert_string_equal(w, "fio:17218");
	/* the 240 MB burst: three pauses are an episode too */
	assert_true(eps[1].start_ns == ns_of("4157.596737"));
	assert_int_equal(eps[1].pauses, 3);
	assert_float_equal(eps[1].paused_ms, 24, 1e-9);
	assert_string_equal(eps[1].writers[0].comm, "dd");
	assert_int_equal(eps[1].writers[0].pid, 19812);
	assert_false(eps[0].sampled);
}

static void test_fixture_gap_rule(void **state)
{
	struct thr_episode eps[400];
	unsigned starts;

	(void)state;
	/* a gap shorter than the kernel's pause period splits the throttle
	 * into flickers: the rule, not the data, makes one episode */
	int n = build(0.01, eps, 400, &starts);
	assert_int_equal(n, 268);
	assert_int_equal(starts, 268);
	uint32_t pauses = 0;
	for (int i = 0; i < n; i++)
		pauses += eps[i].pauses;
	assert_int_equal(pauses, 381);
	/* the 4.3 s quiet between fio and the burst is a gap at any sane value */
	assert_int_equal(build(4.0, eps, 400, &starts), 2);
	assert_int_equal(build(4.5, eps, 400, &starts), 1);
}

static void test_pause_zero_never_starts(void **state)
{
	struct thr_builder b;
	struct thr_episode closed;
	struct thr_pause p = { .ts_ns = 1000000000, .pid = 7, .pause_ms = 0, .dirty = 9 };

	(void)state;
	throttle_init(&b, 1.0);
	assert_int_equal(throttle_feed(&b, &p, &closed), 0);
	p.pause_ms = -712;   /* under its ratelimit: a negative pause is no sleep */
	assert_int_equal(throttle_feed(&b, &p, &closed), 0);
	assert_false(b.open);
	assert_int_equal(throttle_flush(&b, &closed), 0);
}

static void test_sampled_spans_merge(void **state)
{
	struct thr_builder b;
	struct thr_episode closed;
	int closes = 0, opens = 0;

	(void)state;
	throttle_init(&b, 1.0);
	/* a zone that flickers every other 0.1 s sample for 3 s, then quiet */
	for (int i = 0; i < 60; i++) {
		uint64_t t = (uint64_t)i * 100000000u;
		int r = (i < 30 && i % 2 == 0) ? throttle_feed_span(&b, t, t, 100 + i, 200, &closed)
					       : throttle_advance(&b, t, &closed);
		closes += !!(r & THR_CLOSED);
		opens += !!(r & THR_STARTED);
	}
	assert_int_equal(opens, 1);
	assert_int_equal(closes, 1);
	assert_true(closed.sampled);
	assert_true(closed.start_ns == 0);
	assert_true(closed.end_ns == 2800000000u);
	assert_int_equal(closed.peak_dirty, 128);
	assert_float_equal(throttle_duty(&closed), 0, 0);
	char w[16];
	throttle_format_writers(&closed, w, sizeof(w));
	assert_string_equal(w, "n/a");
}

static void test_many_writers_bounded(void **state)
{
	struct thr_builder b;
	struct thr_episode closed;
	char w[64];

	(void)state;
	throttle_init(&b, 1.0);
	for (int i = 0; i < THR_MAX_WRITERS + 3; i++) {
		struct thr_pause p = { .ts_ns = 1000000u * (uint64_t)i, .pid = 100 + i, .pause_ms = 4 + i };
		snprintf(p.comm, sizeof(p.comm), "w%d", i);
		throttle_feed(&b, &p, &closed);
	}
	assert_int_equal(b.cur.nwriters, THR_MAX_WRITERS);
	/* duty is the busiest writer's in the table: w15 slept 19 ms of the
	 * 40 ms the episode lasted (w18, dropped, paused 22 ms from 18 ms) */
	assert_float_equal(throttle_duty(&b.cur), 100.0 * 19 / 40, 1e-9);
	assert_int_equal(b.cur.writers_dropped, 3);
	throttle_format_writers(&b.cur, w, sizeof(w));
	/* the busiest first, cut to the buffer, never past it */
	assert_int_equal(strncmp(w, "w15:115,w14:114", 15), 0);
	assert_true(strlen(w) < sizeof(w));
}

/* A run's start and end cut the episodes: pauses 0.1 s apart (one
 * episode under the 1 s gap rule) across a cut at 1.05 s make two, the
 * second starting after the cut; a pause read late, from before the cut,
 * starts no episode before it. */
static void test_cut_at_run_boundary(void **state)
{
	struct thr_builder b;
	struct thr_episode closed;
	int opens = 0;

	(void)state;
	throttle_init(&b, 1.0);
	for (int i = 0; i <= 10; i++) {
		struct thr_pause p = { .ts_ns = 100000000u * (uint64_t)i, .pid = 9, .pause_ms = 10 };
		opens += !!(throttle_feed(&b, &p, &closed) & THR_STARTED);
	}
	assert_int_equal(opens, 1);
	assert_int_equal(throttle_cut(&b, 1050000000u, &closed), THR_CLOSED);
	assert_false(b.open);
	assert_true(closed.start_ns == 0 && closed.end_ns == 1010000000u);
	assert_int_equal(closed.pauses, 11);
	/* nothing open: a cut closes nothing */
	assert_int_equal(throttle_cut(&b, 1060000000u, &closed), 0);
	/* a pause drained after the cut but over before it was the closed
	 * stretch's: it starts nothing (a sweep's next run printed it) */
	struct thr_pause late = { .ts_ns = 1040000000u, .pid = 9, .pause_ms = 10 };
	assert_int_equal(throttle_feed(&b, &late, &closed), 0);
	assert_false(b.open);
	/* one still going at the cut starts the episode there */
	struct thr_pause across = { .ts_ns = 1055000000u, .pid = 9, .pause_ms = 10 };
	assert_int_equal(throttle_feed(&b, &across, &closed), THR_STARTED);
	assert_true(b.cur.start_ns == 1060000000u);
	struct thr_pause next = { .ts_ns = 1100000000u, .pid = 9, .pause_ms = 10 };
	assert_int_equal(throttle_feed(&b, &next, &closed), 0);
	assert_int_equal(b.cur.pauses, 2);
	/* sampled spans too */
	throttle_init(&b, 1.0);
	assert_int_equal(throttle_feed_span(&b, 100, 200, 1, 2, &closed), THR_STARTED);
	assert_int_equal(throttle_cut(&b, 300, &closed), THR_CLOSED);
	assert_int_equal(throttle_feed_span(&b, 220, 290, 1, 2, &closed), 0);
	assert_int_equal(throttle_feed_span(&b, 250, 400, 1, 2, &closed), THR_STARTED);
	assert_true(b.cur.start_ns == 300);
}

/* Two CPUs, a drain preempted between them (ci10's burst, its times):
 * the drain's horizon is .490; CPU 0 is read empty, then the writer on
 * CPU 0 pauses at .4907 and one on CPU 1 at .502, and CPU 1 is read.  The
 * later pause must wait for the next drain, where the earlier one comes
 * too: used at once, it started the episode 11.3 ms after its first
 * pause. */
static void test_events_merged_across_drains(void **state)
{
	struct kt_rec recs[4];
	struct thr_builder b;
	struct thr_episode closed;
	const uint64_t s = 33148000000000u;
	struct thr_pause first = { .ts_ns = s + 490700000u, .pid = 11, .pause_ms = 8 };
	struct thr_pause second = { .ts_ns = s + 502000000u, .pid = 12, .pause_ms = 8 };
	size_t n = 0, ready;

	(void)state;
	throttle_init(&b, 1.0);
	recs[n++] = (struct kt_rec){ .kind = KR_PAUSE, .u.p = second };
	recs[n].kind = KR_GLOBAL;
	recs[n++].u.g.ts_ns = s + 489000000u;     /* before the horizon: used */
	ready = ktrace_order_events(recs, n, s + 490000000u);
	assert_int_equal(ready, 1);
	assert_int_equal(recs[0].kind, KR_GLOBAL);
	assert_int_equal(recs[1].kind, KR_PAUSE);
	/* what process_locked keeps: the rest, at the front */
	memmove(recs, recs + ready, (n - ready) * sizeof(recs[0]));
	n -= ready;
	recs[n++] = (struct kt_rec){ .kind = KR_PAUSE, .u.p = first };
	ready = ktrace_order_events(recs, n, s + 600000000u);
	assert_int_equal(ready, 2);
	for (size_t i = 0; i < ready; i++)
		throttle_feed(&b, &recs[i].u.p, &closed);
	assert_true(b.cur.start_ns == first.ts_ns);
	assert_true(b.cur.end_ns == second.ts_ns + 8000000u);
	assert_int_equal(b.cur.pauses, 2);
	/* the horizon is inclusive, and an empty drain is fine */
	assert_int_equal(ktrace_order_events(recs, 1, recs[0].u.p.ts_ns), 1);
	assert_int_equal(ktrace_order_events(recs, 0, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_two_episodes),
		cmocka_unit_test(test_fixture_gap_rule),
		cmocka_unit_test(test_pause_zero_never_starts),
		cmocka_unit_test(test_sampled_spans_merge),
		cmocka_unit_test(test_many_writers_bounded),
		cmocka_unit_test(test_cut_at_run_boundary),
		cmocka_unit_test(test_events_merged_across_drains),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
