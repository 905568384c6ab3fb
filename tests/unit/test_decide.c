/* decide: the stopping rules of `sweep --until-decided`.  The boundaries
 * keep their error against a Monte Carlo of the score; the rules keep
 * the false "different" rate at 5 % over 10,000 simulated sweeps with the
 * run-to-run spread of real runs of this machine (the fio and dbench
 * captures in tests/fixtures, read by the parsers), normal and
 * heavy-tailed, and find a true 5 % change with fewer runs than the
 * fixed design of the same power. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "iodash/parsers/parser.h"
#include "iodash/results/decide.h"
#include "iodash/results/stats.h"
#include "iodash/parsers/units.h"

#define BO "tests/fixtures/bench-output/"
#define NSIM 10000
#define MAXN 60

/* ---- a deterministic generator ------------------------------------------ */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static double rng_unit(void)
{
	return ((rng_next() >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(void)
{
	return sqrt(-2 * log(rng_unit())) * cos(2 * M_PI * rng_unit());
}

/* Student's t with 3 df, scaled to unit variance: the heavy tails of a
 * run that hit a hiccup of the machine. */
static double rng_heavy(void)
{
	double z = rng_normal(), c = 0;
	for (int i = 0; i < 3; i++) {
		double g = rng_normal();
		c += g * g;
	}
	return z / sqrt(c / 3) / sqrt(3);
}

/* ---- the spread of real runs --------------------------------------------- */

/* The relative variance of the final values of metric in the files, and
 * its degrees of freedom added to *df. */
static double rel_ss(const char *const *files, int nfiles, const char *parser, const char *metric, int *df)
{
	double v[8], mean = 0, ss = 0;
	char unit[RP_UNIT_LEN] = "";
	int n = 0;

	for (int f = 0; f < nfiles; f++) {
		struct result_set rs = { 0 };
		char err[256];
		assert_int_equal(parser_parse_file(files[f], parser, "x", &rs, err, sizeof(err)), 0);
		for (size_t i = 0; i < rs.n; i++)
			if (stats_point_is_final(&rs.v[i]) && !strcmp(rs.v[i].metric, metric)) {
				/* each in the unit its output printed: in the first's */
				if (!unit[0])
					snprintf(unit, sizeof(unit), "%s", rs.v[i].unit);
				assert_true(units_convert_value(rs.v[i].value, rs.v[i].unit, unit, &v[n++]));
				break;
			}
		result_set_free(&rs);
	}
	assert_int_equal(n, nfiles);
	for (int i = 0; i < n; i++)
		mean += v[i] / n;
	for (int i = 0; i < n; i++)
		ss += (v[i] / mean - 1) * (v[i] / mean - 1);
	*df += n - 1;
	return ss;
}

/* The pooled coefficient of variation of repeated runs of one command on
 * this machine: four fio random reads (its four output formats) and two
 * dbench -t 10 2 runs. */
static double real_cv(void)
{
	static const char *const fio[] = {
		BO "fio/fio-randread-direct-normal.txt", BO "fio/fio-randread-direct.json",
		BO "fio/fio-randread-direct-terse.txt", BO "fio/fio-randread-direct-status-interval-1s.txt",
	};
	static const char *const dbench[] = {
		BO "dbench/dbench-t10-2clients.txt", BO "dbench/dbench-t10-2clients-under-pty-via-script.txt",
	};
	int df = 0;
	double ss = rel_ss(fio, 4, "fio", "read_bw", &df) + rel_ss(dbench, 2, "dbench", "throughput", &df);
	return sqrt(ss / df);
}

/* ---- the boundaries ------------------------------------------------------- */

static void test_quantiles(void **state)
{
	(void)state;
	assert_true(fabs(decide_norm_quantile(0.975) - 1.959963985) < 1e-8);
	assert_true(fabs(decide_t_quantile2(0.05, 10) - 2.228138852) < 1e-7);
	assert_true(fabs(decide_t_quantile2(0.05, 2) - 4.302652730) < 1e-7);
	assert_true(fabs(decide_t_quantile2(0.02, 2) - 6.964556734) < 1e-7);
	assert_true(fabs(decide_t_quantile2(0.001, 3.5) - 9.0) < 2);      /* fractional df: finite, far out */
	assert_true(fabs(stats_t_p2(decide_t_quantile2(0.001, 3.5), 3.5) - 0.001) < 1e-12);
	assert_true(fabs(decide_spend(0.05, 1) - 0.05) < 1e-15);
	assert_true(decide_spend(0.05, 0.2) > 0.2 * 0.05);        /* Pocock type spends early */
}

/* Five equal looks: the boundaries are flat (Pocock type), and a Monte
 * Carlo of the score crosses them 5 % of the time. */
static void test_boundaries_keep_alpha(void **state)
{
	struct decide_seq s;
	double z[5];
	int cross = 0, nmc = 200000;

	(void)state;
	decide_seq_init(&s, 0.05);
	for (int k = 0; k < 5; k++)
		z[k] = decide_seq_look(&s, (k + 1) / 5.0);
	for (int k = 0; k < 5; k++)
		assert_true(z[k] > 2.3 && z[k] < 2.5);
	assert_true(z[4] < z[0]);
	assert_true(fabs(s.spent - 0.05) < 1e-4);
	rng_state = 42;
	for (int i = 0; i < nmc; i++) {
		double sc = 0, t = 0;
		for (int k = 0; k < 5; k++) {
			double tk = (k + 1) / 5.0;
			sc += rng_normal() * sqrt(tk - t);
			t = tk;
			if (fabs(sc / sqrt(t)) >= z[k]) {
				cross++;
				break;
			}
		}
	}
	/* 200,000 paths: the rate's simulation error is 0.05 % */
	assert_true(fabs((double)cross / nmc - 0.05) < 0.002);
	/* a look at no new information keeps the last boundary */
	assert_true(decide_seq_look(&s, 1.0) == z[4]);

	/* uneven looks, as against a baseline recording of 5 runs with
	 * --max-repeat 20: n = 3, 4, 6, 10, 20 */
	static const int ns[] = { 3, 4, 6, 10, 20 };
	double t[5];
	decide_seq_init(&s, 0.05);
	for (int k = 0; k < 5; k++) {
		t[k] = decide_info_fraction(ns[k], 5, 20, 5);
		z[k] = decide_seq_look(&s, t[k]);
	}
	assert_true(fabs(t[4] - 1) < 1e-12 && t[0] > 0.4);
	cross = 0;
	for (int i = 0; i < nmc; i++) {
		double sc = 0, tp = 0;
		for (int k = 0; k < 5; k++) {
			sc += rng_normal() * sqrt(t[k] - tp);
			tp = t[k];
			if (fabs(sc / sqrt(tp)) >= z[k]) {
				cross++;
				break;
			}
		}
	}
	assert_true(fabs((double)cross / nmc - 0.05) < 0.002);
}

static void test_precision(void **state)
{
	struct decide_config c = { .min_repeat = 3, .max_repeat = 10, .ci_pct = 3, .min_change_pct = 5, .alpha = 0.05 };
	struct decide_arm a = { 0 };
	struct decide_verdict v;
	char buf[128];

	(void)state;
	decide_arm_add(&a, 100);
	decide_arm_add(&a, 101);
	decide_precision(&c, &a, &v);
	assert_int_equal(v.state, DECIDE_UNDECIDED);      /* below min_repeat */
	decide_arm_add(&a, 100.5);
	decide_precision(&c, &a, &v);
	/* sd 0.5, the 98 % interval's t(0.99, 2) 6.965: 6.965 * 0.5 / sqrt 3 / 100.5 = 2.00 % */
	assert_true(fabs(v.half_pct - 2.0005) < 1e-3);
	assert_int_equal(v.state, DECIDE_PRECISE);
	decide_describe(&c, &v, buf, sizeof(buf));
	assert_string_equal(buf, "precise: 100.5 +- 2.0 % (3 runs)");
	c.ci_pct = 1;
	decide_precision(&c, &a, &v);
	assert_int_equal(v.state, DECIDE_UNDECIDED);
	c.max_repeat = 3;
	decide_precision(&c, &a, &v);
	assert_int_equal(v.state, DECIDE_OPEN);
}

static void test_pick_next(void **state)
{
	struct decide_point p[3] = {
		{ .n = 3, .need = 2 }, { .n = 2, .need = INFINITY }, { .n = 3, .need = 5 },
	};

	(void)state;
	assert_int_equal(decide_pick_next(p, 3, 3, 0), 1);         /* to its minimum first */
	p[1].n = 3;
	p[1].need = 1.5;
	assert_int_equal(decide_pick_next(p, 3, 3, 0), 2);         /* the widest */
	assert_int_equal(decide_pick_next(p, 3, 3, 2), 0);         /* not twice in a row */
	p[0].done = p[1].done = true;
	assert_int_equal(decide_pick_next(p, 3, 3, 2), 2);         /* unless it is the last open */
	p[2].done = true;
	assert_int_equal(decide_pick_next(p, 3, 3, 2), -1);
	struct decide_point q = { .n = 4, .need = 1.5 };
	assert_int_equal(decide_runs_left(&q, 10), 5);             /* 4 * 2.25 = 9 */
	assert_int_equal(decide_runs_left(&q, 6), 2);
}

static void test_outliers_and_drift(void **state)
{
	double v[] = { 100, 101, 99, 100.5, 130, 99.5 };
	bool out[6];
	struct decide_arm a = { 0 };

	(void)state;
	assert_int_equal(decide_outliers(v, 6, out), 1);
	assert_true(out[4] && !out[0]);
	assert_int_equal(decide_outliers(v, 3, out), 0);
	for (int i = 0; i < 6; i++)
		decide_arm_add(&a, 100 + (i % 2 ? 1 : -1));
	assert_false(decide_drift(&a));
	struct decide_arm d = { 0 };
	for (int i = 0; i < 6; i++)
		decide_arm_add(&d, 100 - 2 * i);         /* a machine slowing down */
	assert_true(decide_drift(&d));
}

/* A comparison: a clear change is shown, a tiny one ruled out. */
static void test_compare(void **state)
{
	struct decide_config c = { .min_repeat = 3, .max_repeat = 10, .ci_pct = 2, .min_change_pct = 5, .alpha = 0.05 };
	struct decide_arm base = { 0 }, up = { 0 }, same = { 0 };
	double bv[] = { 100, 101, 99, 100.5, 99.5 };
	struct decide_seq s;
	struct decide_verdict v;
	char buf[128];

	(void)state;
	for (int i = 0; i < 5; i++) {
		decide_arm_add(&base, bv[i]);
		decide_arm_add(&up, bv[i] * 1.10);
		decide_arm_add(&same, bv[4 - i] + 0.1);
	}
	decide_seq_init(&s, c.alpha);
	double z = decide_seq_look(&s, decide_info_fraction(5, 5, 10, 5));
	assert_true(z > 1.96 && z < 3.5);
	decide_compare(&c, &up, &base, z, &v);
	decide_intervals(&v, &up);
	assert_int_equal(v.state, DECIDE_DIFFERENT);
	assert_true(fabs(v.change_pct - 10) < 1e-9);
	assert_true(v.change_half_pct > 0 && v.change_half_pct < 5);
	decide_describe(&c, &v, buf, sizeof(buf));
	assert_true(!strncmp(buf, "decided: +10.0 % +- ", 20));
	decide_compare(&c, &same, &base, z, &v);
	assert_int_equal(v.state, DECIDE_EQUAL);
	/* below min_repeat nothing is decided */
	c.min_repeat = 6;
	decide_compare(&c, &up, &base, z, &v);
	assert_int_equal(v.state, DECIDE_UNDECIDED);
}

/* The decision event's line reads back as written. */
static void test_event_line(void **state)
{
	struct decide_event e = {
		.x_name = "clients", .x_text = "4", .x = 4, .state = DECIDE_DIFFERENT,
		.what = "decided: +4.1 % +- 1.2 (6 runs)", .runs = 7, .values = 6, .failed = 1, .outliers = 1,
		.mean = 1014.25, .half = 1.5, .change = 4.1, .change_half = 1.2, .metric = "throughput",
		.setting = "vm.dirty_ratio=10", .label = "bs=4k mode=x",
	}, r;
	char line[256];

	(void)state;
	decide_event_format(&e, line, sizeof(line));
	/* the head names the point: its setting's values, its label, its x */
	assert_true(!strncmp(line, "(10) bs=4k mode=x clients=4: decided: +4.1 % +- 1.2 (6 runs); state=different ", 78));
	assert_true(strlen(line) < 255);
	assert_int_equal(decide_event_parse(line, &r), 0);
	assert_string_equal(r.x_name, "clients");
	assert_string_equal(r.x_text, "4");
	assert_string_equal(r.what, e.what);
	assert_int_equal(r.state, DECIDE_DIFFERENT);
	assert_int_equal(r.runs, 7);
	assert_int_equal(r.values, 6);
	assert_int_equal(r.failed, 1);
	assert_int_equal(r.outliers, 1);
	assert_true(r.mean == 1014.25 && r.x == 4 && r.change_half == 1.2);
	assert_string_equal(r.metric, "throughput");
	assert_string_equal(r.setting, "vm.dirty_ratio=10");
	assert_string_equal(r.label, "bs=4k mode=x");
	assert_int_equal(decide_event_parse("run 1/3 ok: exit 0", &r), -EINVAL);
}

/* ---- the simulation --------------------------------------------------------- */

struct sim_result {
	double different, equal, open;   /* rates */
	double mean_runs;                /* both arms */
};

static const struct decide_config sim_cfg = {
	.min_repeat = 3, .max_repeat = 40, .ci_pct = 2, .min_change_pct = 5, .alpha = 0.05,
};

/* A point of a sweep of two settings: a run of each per round, a look
 * after each round from min_repeat on, until decided or max_repeat. */
static struct sim_result simulate(double cv, double change, bool heavy, const double *z)
{
	struct sim_result r = { 0 };
	long runs = 0;

	for (int s = 0; s < NSIM; s++) {
		struct decide_arm a = { 0 }, b = { 0 };
		struct decide_verdict v = { 0 };
		for (int n = 1; n <= sim_cfg.max_repeat; n++) {
			decide_arm_add(&b, 100 * (1 + cv * (heavy ? rng_heavy() : rng_normal())));
			decide_arm_add(&a, 100 * (1 + change) * (1 + cv * (heavy ? rng_heavy() : rng_normal())));
			if (n < sim_cfg.min_repeat)
				continue;
			decide_compare(&sim_cfg, &a, &b, z[n], &v);
			if (v.state != DECIDE_UNDECIDED)
				break;
		}
		runs += a.n + b.n;
		r.different += v.state == DECIDE_DIFFERENT;
		r.equal += v.state == DECIDE_EQUAL;
		r.open += v.state == DECIDE_OPEN;
	}
	r.different /= NSIM;
	r.equal /= NSIM;
	r.open /= NSIM;
	r.mean_runs = (double)runs / NSIM;
	return r;
}

/* The power of a fixed design: n runs of each, Welch's test at 5 %. */
static double fixed_power(double cv, double change, bool heavy, int n)
{
	int hits = 0;

	for (int s = 0; s < NSIM; s++) {
		struct decide_arm a = { 0 }, b = { 0 };
		for (int i = 0; i < n; i++) {
			decide_arm_add(&b, 100 * (1 + cv * (heavy ? rng_heavy() : rng_normal())));
			decide_arm_add(&a, 100 * (1 + change) * (1 + cv * (heavy ? rng_heavy() : rng_normal())));
		}
		double p = stats_welch_p(a.mean, decide_arm_var(&a), a.n, b.mean, decide_arm_var(&b), b.n, NULL);
		hits += p >= 0 && p < 0.05;
	}
	return (double)hits / NSIM;
}

/* The fewest runs of each a fixed design needs for power. */
static int fixed_runs(double cv, double change, bool heavy, double power)
{
	int lo = 2, hi = MAXN;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (fixed_power(cv, change, heavy, mid) >= power)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* The precision rule: how often the interval a point stopped with holds
 * the true mean (it stops on the width, which for normal noise does not
 * depend on where the mean lies). */
static void test_precision_coverage(void **state)
{
	const struct decide_config c = { .min_repeat = 3, .max_repeat = 20, .ci_pct = 3, .alpha = 0.05 };
	const double cvs[] = { 0.01, 0.03, real_cv(), 0.08 };

	(void)state;
	rng_state = 7;
	for (size_t k = 0; k < sizeof(cvs) / sizeof(cvs[0]); k++) {
		int held = 0, runs = 0;
		for (int s = 0; s < NSIM; s++) {
			struct decide_arm a = { 0 };
			struct decide_verdict v;
			for (int n = 1; n <= c.max_repeat; n++) {
				decide_arm_add(&a, 100 * (1 + cvs[k] * rng_normal()));
				decide_precision(&c, &a, &v);
				if (v.state != DECIDE_UNDECIDED)
					break;
			}
			held += fabs(a.mean - 100) <= v.half_pct / 100 * a.mean;
			runs += a.n;
		}
		print_message("decide: precision --ci 3 at CoV %.2f %%: the interval a point stopped with holds the "
			      "true mean in %.1f %% of 10,000 points (95 %% wanted), %.1f runs a point\n", cvs[k] * 100,
			      100.0 * held / NSIM, (double)runs / NSIM);
		assert_true(held >= (0.95 - 2 * sqrt(0.05 * 0.95 / NSIM)) * NSIM);
	}
}

static void test_simulated_sweeps(void **state)
{
	double z[MAXN + 1], cv = real_cv();
	struct decide_seq s;

	(void)state;
	/* the looks of the simulated sweep: n runs against n, of 40 against 40 */
	decide_seq_init(&s, sim_cfg.alpha);
	for (int n = sim_cfg.min_repeat; n <= sim_cfg.max_repeat; n++)
		z[n] = decide_seq_look(&s, decide_info_fraction(n, n, sim_cfg.max_repeat, sim_cfg.max_repeat));
	assert_true(cv > 0.01 && cv < 0.2);
	print_message("decide: run-to-run spread of the fixtures: CoV %.2f %%\n", cv * 100);
	for (int heavy = 0; heavy < 2; heavy++) {
		const char *noise = heavy ? "heavy-tailed (t3)" : "normal";
		rng_state = 20261205 + heavy;
		struct sim_result h0 = simulate(cv, 0, heavy, z);
		/* the simulation error of a 5 % rate over 10,000 sweeps */
		double se = sqrt(0.05 * 0.95 / NSIM);
		print_message("decide: %s noise, no change: false \"different\" %.2f %% (nominal 5 %%, +-%.2f), "
			      "\"equal within 5 %%\" %.1f %%, open %.1f %%, %.1f runs a point\n",
			      noise, h0.different * 100, 2 * se * 100, h0.equal * 100, h0.open * 100, h0.mean_runs);
		assert_true(h0.different <= 0.05 + 2 * se);
		struct sim_result h1 = simulate(cv, 0.05, heavy, z);
		int nfix = fixed_runs(cv, 0.05, heavy, h1.different);
		double share = h1.mean_runs / (2.0 * nfix);
		print_message("decide: %s noise, 5 %% change: power %.1f %% (\"equal\" %.1f %%, open %.1f %%) with %.1f runs "
			      "on average; the fixed design of that power needs %d (%d a side): %.0f %%\n",
			      noise, h1.different * 100, h1.equal * 100, h1.open * 100, h1.mean_runs, 2 * nfix, nfix,
			      share * 100);
		assert_true(h1.different >= 0.80);
		assert_true(share <= 0.60);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantiles),
		cmocka_unit_test(test_boundaries_keep_alpha),
		cmocka_unit_test(test_precision),
		cmocka_unit_test(test_pick_next),
		cmocka_unit_test(test_outliers_and_drift),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_event_line),
		cmocka_unit_test(test_precision_coverage),
		cmocka_unit_test(test_simulated_sweeps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
