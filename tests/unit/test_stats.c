/* stats: the incomplete beta function and Student's t
 * against closed forms and tabulated values, Welch's test, and curves
 * built from the dbench points of the 2.4.16 / 2.4.17-pre2 mail. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "iodash/results/stats.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) < (eps))

static void test_incbeta(void **state)
{
	(void)state;
	/* integer a, b: a binomial tail, 11/16 */
	near(stats_incbeta(2, 3, 0.5), 0.6875, 1e-12);
	near(stats_incbeta(1, 1, 0.3), 0.3, 1e-12);           /* uniform */
	near(stats_incbeta(0.5, 0.5, 0.5), 0.5, 1e-12);       /* arcsine, symmetric */
	near(stats_incbeta(3, 1, 0.2), 0.008, 1e-12);         /* x^a when b = 1 */
	assert_true(stats_incbeta(2, 3, 0) == 0);
	assert_true(stats_incbeta(2, 3, 1) == 1);
	assert_true(isnan(stats_incbeta(-1, 3, 0.5)));
	assert_true(isnan(stats_incbeta(2, 3, 1.5)));
}

static void test_t_distribution(void **state)
{
	(void)state;
	near(stats_t_p2(1, 1), 0.5, 1e-10);                            /* Cauchy */
	near(stats_t_p2(2, 2), 1 - 2 / sqrt(6), 1e-10);                /* closed form, df 2 */
	near(stats_t_p2(2.0, 10), 0.0733880348, 1e-8);                 /* table */
	near(stats_t_p2(2.228138852, 10), 0.05, 1e-8);                 /* t(0.975, 10) */
	near(stats_t_p2(2.042272456, 30), 0.05, 1e-8);                 /* t(0.975, 30) */
	near(stats_t_p2(12.70620474, 1), 0.05, 1e-8);                  /* t(0.975, 1) */
	near(stats_t_p2(2.5, 4.5), 0.0599056865, 1e-8);                /* fractional df (numeric integral) */
	near(stats_t_p2(0.3, 7.3), 0.7725405362, 1e-8);
	near(stats_t_p2(-2.0, 10), 0.0733880348, 1e-8);                /* two-sided: symmetric */
	near(stats_t_p2(0, 5), 1.0, 1e-12);
	near(stats_t_p2(1.959963985, 1e7), 0.05, 1e-6);                /* normal limit */
	assert_true(stats_t_p2(INFINITY, 3) == 0);
}

static void test_welch(void **state)
{
	double df;
	(void)state;
	/* {1,3} vs {5,7}: equal variances 2, n 2 -> t = -2.828, df exactly 2 */
	near(stats_welch_p(2, 2, 2, 6, 2, 2, &df), 1 - (4 / sqrt(2)) / sqrt(10), 1e-10);
	near(df, 2, 1e-12);
	/* unequal variances: df between min(n)-1 and n1+n2-2 */
	assert_true(stats_welch_p(10, 1, 5, 12, 9, 8, &df) > 0);
	assert_true(df > 4 && df < 11);
	/* not computable: one run, or no spread at all */
	assert_true(stats_welch_p(66.7354, 0, 1, 60.1309, 31.8, 3, NULL) < 0);
	assert_true(stats_welch_p(5, 0, 3, 5, 0, 3, NULL) < 0);
}

static void add(struct result_set *rs, const char *label, int run, double x, double v, unsigned flags)
{
	struct result_point p = { .run = run, .x = x, .value = v, .flags = flags };
	snprintf(p.label, sizeof(p.label), "%s", label);
	snprintf(p.x_name, sizeof(p.x_name), "procs");
	snprintf(p.metric, sizeof(p.metric), "throughput");
	snprintf(p.unit, sizeof(p.unit), "MB/s");
	assert_int_equal(result_set_add(rs, &p), 0);
}

/* A setting is a dimension of its own: a block of curves per setting, in
 * first-seen order, and each label's change against the baseline label
 * of its own setting, never another setting's; the points' tags (run
 * verdicts) and aux values (inflation) fold into the curve points. */
static void test_curves_settings(void **state)
{
	struct result_set rs = { 0 };
	struct curve_set cs;
	static const char *const set[3] = { "(5,10)", "(20,40)", "(60,80)" };
	unsigned char tags[12];
	double aux[12];
	(void)state;

	for (int s = 0; s < 3; s++)
		for (int r = 0; r < 2; r++) {
			add(&rs, "2.6.23", r, 4, 100.0 * (s + 1), RP_FINAL);
			snprintf(rs.v[rs.n - 1].setting, RP_LABEL_LEN, "%s", set[s]);
			add(&rs, "2.6.24", r, 4, 50.0 * (s + 1), RP_FINAL);
			snprintf(rs.v[rs.n - 1].setting, RP_LABEL_LEN, "%s", set[s]);
		}
	for (size_t i = 0; i < rs.n; i++) {
		tags[i] = i % 4 == 1 ? 3 : 1;
		aux[i] = i < 2 ? 2.0 : NAN;
	}
	assert_int_equal(stats_build_curves_tagged(&rs, NULL, 0, "throughput", NULL, tags, aux, &cs), 0);
	assert_int_equal(cs.n, 6);
	for (int s = 0; s < 3; s++) {
		const struct curve *a = &cs.v[2 * s], *b = &cs.v[2 * s + 1];
		assert_int_equal(stats_block_end(&cs, 2 * s), 2 * s + 2);
		assert_string_equal(a->setting, set[s]);
		assert_string_equal(b->setting, set[s]);
		assert_string_equal(a->label, "2.6.23");
		assert_string_equal(b->label, "2.6.24");
		assert_true(a->is_base && !b->is_base);
		assert_int_equal(b->runs, 2);
		assert_true(b->pts[0].have_change);
		near(b->pts[0].change_pct, -50, 1e-9);   /* 50 (s+1) against 100 (s+1), same setting */
	}
	assert_int_equal(cs.v[0].pts[0].tags, 1u << 1);
	assert_int_equal(cs.v[1].pts[0].tags, (1u << 1) | (1u << 3));
	near(cs.v[0].pts[0].aux, 2.0, 1e-12);
	assert_true(isnan(cs.v[2].pts[0].aux));
	assert_non_null(stats_point_at(&cs.v[1], 4));
	assert_null(stats_point_at(&cs.v[1], 8));
	curve_set_free(&cs);
	/* a baseline absent from a setting: that block's first label */
	rs.v[9] = rs.v[10];   /* (60,80): 2.6.23's two runs, no 2.6.24 */
	rs.n = 10;
	assert_int_equal(stats_build_curves(&rs, "throughput", "2.6.24", &cs), 0);
	assert_int_equal(cs.n, 5);
	assert_true(cs.v[1].is_base && !cs.v[0].is_base);
	near(cs.v[0].pts[0].change_pct, 100, 1e-9);
	assert_string_equal(cs.v[4].setting, "(60,80)");
	assert_true(cs.v[4].is_base && !cs.v[4].pts[0].have_change);
	curve_set_free(&cs);
	result_set_free(&rs);
}

static void test_curves_mail(void **state)
{
	struct result_set rs = { 0 };
	struct curve_set cs;
	const struct curve_point *p;
	char names[4][RP_NAME_LEN];
	(void)state;

	/* the 64 and 128 procs rows of the 2.4.16 / 2.4.17-pre2 mail */
	add(&rs, "2.4.16", 0, 128, 66.7354, RP_FINAL);
	add(&rs, "2.4.16", 0, 64, 117.729, RP_FINAL);
	add(&rs, "2.4.17-pre2", 0, 64, 64.876, RP_FINAL);
	add(&rs, "2.4.17-pre2", 0, 128, 54.9774, RP_FINAL);
	add(&rs, "2.4.17-pre2", 1, 64, 78.0881, RP_FINAL);
	add(&rs, "2.4.17-pre2", 1, 128, 66.1573, RP_FINAL);
	add(&rs, "2.4.17-pre2", 2, 64, 71.3444, RP_FINAL);
	add(&rs, "2.4.17-pre2", 2, 128, 59.258, RP_FINAL);
	add(&rs, "2.4.17-pre2", 3, 128, 999, RP_PROGRESS);   /* not a result */
	add(&rs, "2.4.17-pre2", 3, 128, 999, RP_INCOMPLETE);

	assert_int_equal(stats_list_metrics(&rs, names, 4), 1);
	assert_string_equal(names[0], "throughput");
	assert_int_equal(stats_build_curves(&rs, "throughput", NULL, &cs), 0);
	assert_int_equal(cs.n, 2);
	assert_string_equal(cs.baseline, "2.4.16");
	assert_string_equal(cs.v[0].label, "2.4.16");
	assert_int_equal(cs.v[0].runs, 1);
	assert_int_equal(cs.v[1].runs, 3);
	assert_string_equal(cs.v[1].unit, "MB/s");
	assert_string_equal(cs.v[1].x_name, "procs");
	assert_int_equal(cs.v[1].n, 2);
	assert_true(cs.v[1].pts[0].x == 64);    /* x ascending */
	p = &cs.v[1].pts[1];
	assert_true(p->x == 128);
	assert_int_equal(p->n, 3);
	near(p->mean, 60.1309, 1e-9);
	near(p->stddev, 5.640833875412395, 1e-9);
	near(p->cov, 9.380923743719775, 1e-9);
	near(p->hmean, 59.78460702616078, 1e-9);
	near(p->min, 54.9774, 1e-12);
	near(p->max, 66.1573, 1e-12);
	assert_true(p->have_change);
	near(p->change_pct, -9.896546660393128, 1e-9);
	assert_false(p->significant);           /* one run of 2.4.16: no test */
	assert_true(p->p_value < 0);
	p = &cs.v[0].pts[1];
	assert_int_equal(p->n, 1);
	assert_true(p->stddev == 0);
	assert_false(p->have_change);           /* the baseline itself */
	curve_set_free(&cs);

	/* --baseline the other label */
	assert_int_equal(stats_build_curves(&rs, "throughput", "2.4.17-pre2", &cs), 0);
	assert_string_equal(cs.baseline, "2.4.17-pre2");
	near(cs.v[0].pts[1].change_pct, (66.7354 - 60.1309) / 60.1309 * 100, 1e-9);
	curve_set_free(&cs);
	assert_int_equal(stats_build_curves(&rs, "throughput", "2.6.0", &cs), -ESRCH);
	assert_int_equal(stats_build_curves(&rs, "latency", NULL, &cs), -ENOENT);
	result_set_free(&rs);
}

/* Runs of one metric printed in different units (fio: 950MiB/s, then
 * 1.20GiB/s; a JSON's KiB/s): the curves are in the unit most points
 * have, every value converted; a point whose unit does not convert (IOPS)
 * is not pooled. */
static void test_curves_units(void **state)
{
	struct result_set rs = { 0 };
	struct curve_set cs;
	static const struct { const char *label, *unit; double v; } pts[] = {
		{ "a", "MiB/s", 950 }, { "a", "GiB/s", 1.20 }, { "b", "MiB/s", 500 }, { "b", "KiB/s", 512000 },
		{ "b", "IOPS", 7 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(pts) / sizeof(pts[0]); i++) {
		struct result_point p = { .run = (int)i, .x = 4, .value = pts[i].v, .flags = RP_FINAL };
		snprintf(p.label, sizeof(p.label), "%s", pts[i].label);
		snprintf(p.metric, sizeof(p.metric), "read_bw");
		snprintf(p.unit, sizeof(p.unit), "%s", pts[i].unit);
		assert_int_equal(result_set_add(&rs, &p), 0);
	}
	assert_int_equal(stats_build_curves(&rs, "read_bw", NULL, &cs), 0);
	assert_int_equal(cs.n, 2);
	assert_string_equal(cs.v[0].unit, "MiB/s");
	assert_int_equal(cs.v[0].pts[0].n, 2);
	assert_true(fabs(cs.v[0].pts[0].min - 950) < 1e-9);
	assert_true(fabs(cs.v[0].pts[0].max - 1.20 * 1024) < 1e-9);
	assert_int_equal(cs.v[1].pts[0].n, 2);   /* not the IOPS point */
	assert_true(fabs(cs.v[1].pts[0].min - 500) < 1e-9);
	assert_true(fabs(cs.v[1].pts[0].max - 500) < 1e-9);
	curve_set_free(&cs);
	result_set_free(&rs);
}

static void test_significance(void **state)
{
	struct result_set rs = { 0 };
	struct curve_set cs;
	(void)state;

	/* clearly different, three runs each: p well under 0.05 */
	for (int r = 0; r < 3; r++) {
		add(&rs, "A", r, 1, 100 + r, RP_FINAL);
		add(&rs, "B", r, 1, 120 + r, RP_FINAL);
		add(&rs, "A", r, 2, 100 + 10 * r, RP_FINAL);
		add(&rs, "B", r, 2, 101 + 10 * r, RP_FINAL);
	}
	assert_int_equal(stats_build_curves(&rs, "throughput", NULL, &cs), 0);
	assert_true(cs.v[1].pts[0].significant);
	assert_true(cs.v[1].pts[0].p_value < 1e-4);
	/* t = 20 / sqrt(2/3), df 4 */
	near(cs.v[1].pts[0].p_value, stats_t_p2(20 / sqrt(2.0 / 3), 4), 1e-12);
	assert_false(cs.v[1].pts[1].significant);
	assert_true(cs.v[1].pts[1].p_value > 0.5);
	curve_set_free(&cs);
	result_set_free(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_incbeta),
		cmocka_unit_test(test_t_distribution),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_curves_mail),
		cmocka_unit_test(test_curves_settings),
		cmocka_unit_test(test_significance),
		cmocka_unit_test(test_curves_units),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
