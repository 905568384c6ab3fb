/* history: the graphs' buckets folded sample by sample, with fixed
 * memory, and the copy a screen takes of them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/model/history.h"

/* Sample seq at t = seq * per, one disk writing seq kB/s. */
static void sample_at(struct sample *s, uint64_t seq, double per, const char *disk)
{
	sample_reset(s);
	assert_non_null(sample_add_disk(s));
	assert_non_null(sample_add_disk(s));
	memset(s->disks, 0, 2 * sizeof(*s->disks));
	s->ndisks = 1;
	s->seq = seq;
	s->t = per * (double)seq;
	s->have_dirty = true;
	s->zone = ZONE_BELOW_BG;
	s->dirty_kb = seq;
	snprintf(s->disks[0].name, sizeof(s->disks[0].name), "%s", disk);
	s->disks[0].have_rate = true;
	s->disks[0].wkB_s = (double)seq;
}

static void fold_range(struct history *h, uint64_t from, uint64_t to, double per)
{
	struct sample s = { 0 };
	for (uint64_t i = from; i < to; i++) {
		sample_at(&s, i, per, "sda");
		history_fold(h, &s);
	}
	sample_free(&s);
}

/* k comes from the width and the second sample's interval; a bucket
 * completes with its k-th sample; a skipped stretch leaves no bucket. */
static void test_fold(void **state)
{
	(void)state;
	struct history *h = malloc(sizeof(*h));
	struct sample s = { 0 };
	history_init(h, 1.0);
	fold_range(h, 0, 1, 0.25);
	assert_int_equal(h->k, 0);
	assert_true(history_period(h) < 0);
	fold_range(h, 1, 8, 0.25);
	assert_int_equal(h->k, 4);
	assert_int_equal(h->nclosed, 2);
	const struct hist_bucket *b = history_bucket(h, 1);
	assert_non_null(b);
	assert_int_equal(b->seq, 4);
	assert_int_equal(b->n, 4);
	assert_float_equal(history_rate(h, 1, 0, true), (4 + 5 + 6 + 7) / 4.0, 1e-6);
	assert_float_equal(b->level_kb, 7, 1e-9);
	assert_float_equal(history_period(h), 0.25, 1e-9);
	/* an old or repeated sample is ignored */
	sample_at(&s, 7, 0.25, "sda");
	history_fold(h, &s);
	assert_int_equal(h->nsamples, 8);
	/* samples 8..15 missed (a busy machine, a damaged recording) */
	fold_range(h, 16, 18, 0.25);
	assert_int_equal(h->nclosed, 2);
	assert_null(history_bucket(h, 2));
	fold_range(h, 18, 20, 0.25);
	assert_int_equal(h->nclosed, 5);
	assert_null(history_bucket(h, 2));
	assert_null(history_bucket(h, 3));
	assert_non_null(history_bucket(h, 4));
	/* a half-filled bucket closes when a later one starts */
	fold_range(h, 20, 22, 0.25);
	fold_range(h, 24, 25, 0.25);
	b = history_bucket(h, 5);
	assert_non_null(b);
	assert_int_equal(b->n, 2);
	/* the ring keeps HIST_BUCKETS: the oldest go */
	fold_range(h, 25, 4 * (HIST_BUCKETS + 10), 0.25);
	assert_null(history_bucket(h, 5));
	assert_non_null(history_bucket(h, h->nclosed - HIST_BUCKETS));
	assert_null(history_bucket(h, h->nclosed));
	free(h);
	sample_free(&s);
}

/* Disks keep their slot by name; past HIST_DISKS a new disk takes the
 * slot of one gone, and its old rates are dropped. */
static void test_slots(void **state)
{
	(void)state;
	struct history *h = malloc(sizeof(*h));
	struct sample s = { 0 };
	history_init(h, 0);
	for (int d = 0; d < HIST_DISKS; d++) {
		char name[16];
		snprintf(name, sizeof(name), "loop%d", d);
		sample_at(&s, (uint64_t)d, 0.1, name);
		history_fold(h, &s);
		assert_int_equal(history_slot(h, name), d);
	}
	assert_float_equal(history_rate(h, 3, 3, true), 3, 1e-9);
	uint64_t epoch = h->epoch;
	sample_at(&s, 100, 0.1, "nvme0n1");
	s.ndisks = 2;
	snprintf(s.disks[1].name, sizeof(s.disks[1].name), "loop1");
	history_fold(h, &s);
	assert_int_equal(history_slot(h, "nvme0n1"), 0);   /* loop0 is gone */
	assert_int_equal(history_slot(h, "loop0"), -1);
	assert_true(isnan(history_rate(h, 0, 0, true)));
	assert_true(h->epoch != epoch);                    /* copies start over */
	free(h);
	sample_free(&s);
}

/* A copy brought up piece by piece equals the whole, across the ring's
 * wrap and a clear; the marks too. */
static void test_copy(void **state)
{
	(void)state;
	struct history *h = malloc(sizeof(*h)), *c = malloc(sizeof(*c));
	history_init(c, 0);
	history_init(h, 0.5);
	uint64_t seq = 0;
	for (int round = 0; round < 40; round++) {
		uint64_t n = (uint64_t)(round * 37 % 300);
		fold_range(h, seq, seq + n, 0.1);
		seq += n;
		if (round == 25) {
			history_clear(h);
			assert_int_equal(h->nclosed, 0);
			assert_null(history_bucket(h, 0));
		}
		history_copy(c, h);
		assert_int_equal(memcmp(c, h, offsetof(struct history, marks)), 0);
		for (uint64_t b = h->nclosed > HIST_BUCKETS ? h->nclosed - HIST_BUCKETS : 0; b < h->nclosed; b++) {
			const struct hist_bucket *x = history_bucket(h, b), *y = history_bucket(c, b);
			assert_true((x == NULL) == (y == NULL));
			if (x)
				assert_int_equal(memcmp(x, y, sizeof(*x)), 0);
			for (int d = 0; x && d < h->nslots; d++) {
				float a[2] = { history_rate(h, b, d, false), history_rate(h, b, d, true) };
				float e[2] = { history_rate(c, b, d, false), history_rate(c, b, d, true) };
				assert_int_equal(memcmp(a, e, sizeof(a)), 0);
			}
		}
		uint64_t m0 = h->nmarks > HIST_MARKS ? h->nmarks - HIST_MARKS : 0;
		for (uint64_t i = m0; i < h->nmarks; i++)
			assert_float_equal(c->marks[i % HIST_MARKS].t, h->marks[i % HIST_MARKS].t, 0);
	}
	free(h);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_slots),
		cmocka_unit_test(test_copy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
