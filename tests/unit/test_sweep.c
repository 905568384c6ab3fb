/* sweep plans: grid order, substitution without a shell, labels, x
 * values, usage errors, ETA. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "iodash/bench/sweep.h"

static void test_single_param(void **state)
{
	const char *params[] = { "clients=1,2,4,8" };
	char *argv[] = { "dbench", "-D", "/tmp/x", "-t", "30", "{clients}", NULL };
	struct sweep_plan p;
	char err[256];

	(void)state;
	assert_int_equal(sweep_plan_build(&p, params, 1, argv, 6, NULL, 1, err, sizeof(err)), 0);
	assert_int_equal(p.nruns, 4);
	assert_string_equal(p.runs[0].argv[5], "1");
	assert_string_equal(p.runs[3].argv[5], "8");
	assert_string_equal(p.runs[3].argv[0], "dbench");
	assert_null(p.runs[3].argv[6]);
	assert_string_equal(p.runs[2].x_name, "clients");
	assert_true(p.runs[2].x == 4.0);
	assert_string_equal(p.runs[2].label_extra, "");
	assert_null(p.runs[0].between);
	sweep_plan_free(&p);
}

static void test_grid_repeat_between(void **state)
{
	const char *params[] = { "bs=4k,64k", "clients=1,2,4" };
	char *argv[] = { "fio", "--bs={bs}", "--numjobs={clients}", "--name=j{clients}x{bs}", "{nope}", NULL };
	struct sweep_plan p;
	char err[256];

	(void)state;
	assert_int_equal(sweep_plan_build(&p, params, 2, argv, 5, "sync; echo {bs} > /tmp/b", 2,
					  err, sizeof(err)), 0);
	assert_int_equal(p.nruns, 12);
	/* pass 0: bs=4k clients 1 2 4, bs=64k clients 1 2 4; then pass 1 */
	assert_string_equal(p.runs[0].argv[1], "--bs=4k");
	assert_string_equal(p.runs[0].argv[2], "--numjobs=1");
	assert_string_equal(p.runs[2].argv[2], "--numjobs=4");
	assert_string_equal(p.runs[3].argv[1], "--bs=64k");
	assert_string_equal(p.runs[3].argv[3], "--name=j1x64k");
	assert_string_equal(p.runs[4].argv[4], "{nope}");     /* unknown: kept as written */
	assert_string_equal(p.runs[3].label_extra, "bs=64k");
	assert_string_equal(p.runs[3].x_name, "clients");
	assert_true(p.runs[5].x == 4.0);
	assert_int_equal(p.runs[5].pass, 0);
	assert_int_equal(p.runs[6].pass, 1);
	assert_int_equal(p.runs[6].point, 0);
	assert_string_equal(p.runs[11].argv[1], "--bs=64k");
	assert_string_equal(p.runs[11].between, "sync; echo 64k > /tmp/b");
	sweep_plan_free(&p);
}

static void test_no_reexpansion(void **state)
{
	/* a value that looks like a placeholder is not substituted again */
	const char *params[] = { "a={b}", "b=X" };
	char *argv[] = { "echo", "{a}{b}", NULL };
	struct sweep_plan p;
	char err[256];

	(void)state;
	assert_int_equal(sweep_plan_build(&p, params, 2, argv, 2, NULL, 1, err, sizeof(err)), 0);
	assert_string_equal(p.runs[0].argv[1], "{b}X");
	/* not a number: x is its position */
	assert_true(p.runs[0].x == 1.0);
	sweep_plan_free(&p);
}

static void test_usage_errors(void **state)
{
	char *argv[] = { "dbench", "{clients}", NULL };
	struct sweep_plan p;
	char err[256];
	const char *bad1[] = { "clients" };
	const char *bad2[] = { "clients=1,,2" };
	const char *bad3[] = { "cli-ents=1" };
	const char *bad4[] = { "procs=1,2" };
	const char *dup[] = { "clients=1", "clients=2" };
	const char *ok[] = { "clients=1" };

	(void)state;
	assert_int_equal(sweep_plan_build(&p, bad1, 1, argv, 2, NULL, 1, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-p 'clients': expected NAME=V1,V2,... (e.g. -p clients=1,2,4)");
	assert_int_equal(sweep_plan_build(&p, bad2, 1, argv, 2, NULL, 1, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "empty value"));
	assert_int_equal(sweep_plan_build(&p, bad3, 1, argv, 2, NULL, 1, err, sizeof(err)), -EINVAL);
	assert_int_equal(sweep_plan_build(&p, bad4, 1, argv, 2, NULL, 1, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "{procs} appears nowhere"));
	assert_int_equal(sweep_plan_build(&p, dup, 2, argv, 2, NULL, 1, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "given twice"));
	assert_int_equal(sweep_plan_build(&p, ok, 1, argv, 0, NULL, 1, err, sizeof(err)), -EINVAL);
	assert_int_equal(sweep_plan_build(&p, ok, 1, argv, 2, NULL, 0, err, sizeof(err)), -EINVAL);
	assert_int_equal(sweep_plan_build(&p, ok, 0, argv, 2, NULL, 1, err, sizeof(err)), -EINVAL);
	/* a param used only in --between is fine */
	const char *onlyb[] = { "ratio=10,20" };
	char *plain[] = { "dbench", "4", NULL };
	assert_int_equal(sweep_plan_build(&p, onlyb, 1, plain, 2, "echo {ratio} > /proc/sys/vm/dirty_ratio", 1,
					  err, sizeof(err)), 0);
	assert_int_equal(p.nruns, 2);
	assert_string_equal(p.runs[1].between, "echo 20 > /proc/sys/vm/dirty_ratio");
	sweep_plan_free(&p);
}

/* --between is a shell command line: values go in as one quoted word each,
 * and into its environment (once: -p 'x=b,a;touch PWNED' ran touch). */
static void test_between_quoted_and_env(void **state)
{
	const char *params[] = { "x=b,a;touch PWNED,it's,$(id)", "n=4" };
	char *argv[] = { "echo", "{x}", "{n}", NULL };
	struct sweep_plan p;
	char err[256];

	(void)state;
	assert_int_equal(sweep_plan_build(&p, params, 2, argv, 3, "echo {x} {n}", 1, err, sizeof(err)), 0);
	assert_int_equal(p.nruns, 4);
	assert_string_equal(p.runs[0].between, "echo b 4");
	assert_string_equal(p.runs[1].between, "echo 'a;touch PWNED' 4");
	assert_string_equal(p.runs[2].between, "echo 'it'\\''s' 4");
	assert_string_equal(p.runs[3].between, "echo '$(id)' 4");
	/* the benchmark's argv has no shell: values as they are */
	assert_string_equal(p.runs[1].argv[1], "a;touch PWNED");
	assert_string_equal(p.runs[1].env[0], "IODASH_P_x=a;touch PWNED");
	assert_string_equal(p.runs[1].env[1], "IODASH_P_n=4");
	assert_null(p.runs[1].env[2]);
	sweep_plan_free(&p);
	/* without --between the benchmark still gets them */
	assert_int_equal(sweep_plan_build(&p, params, 2, argv, 3, NULL, 1, err, sizeof(err)), 0);
	assert_string_equal(p.runs[3].env[0], "IODASH_P_x=$(id)");
	sweep_plan_free(&p);
}

/* A {NAME} inside quotes in --between is refused: the value comes in
 * quoted already, so '{x}' with x="'$(id)'" closed the user's quotes and
 * ran $(id).  Bare, escaped or merely near quotes is fine. */
static void test_between_quoted_refused(void **state)
{
	const char *params[] = { "x=a,'$(touch PWNED)'" };
	char *argv[] = { "echo", "{x}", NULL };
	static const char *const bad[] = { "echo '{x}'", "echo \"{x}\"", "echo \"v={x} \" > f",
					   "echo 'a' \"b {x}\"" };
	static const char *const good[] = { "echo {x}", "echo '{' {x} '}'", "echo \\'{x}",
					    "echo \"$HOME\" {x} 'it'" };
	struct sweep_plan p;
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(sweep_plan_build(&p, params, 1, argv, 2, bad[i], 1, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "--between: {x} is inside quotes; write it bare"));
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(sweep_plan_build(&p, params, 1, argv, 2, good[i], 1, err, sizeof(err)), 0);
		sweep_plan_free(&p);
	}
}

static void test_eta(void **state)
{
	double d[] = { 30, 34, 32 };

	(void)state;
	assert_true(sweep_eta(d, 0, 8, 5) < 0);                  /* nothing finished */
	/* 3 of 8 done, mean 32 s, the 4th has run 10 s: 5*32-10 */
	assert_true(sweep_eta(d, 3, 8, 10) == 150);
	/* the current run overran the mean: the 4 runs after it still take 4*32 */
	assert_true(sweep_eta(d, 3, 8, 100) == 128);
	assert_true(sweep_eta(d, 3, 3, 0) == 0);
}

static void test_paired_and_sysctl(void **state)
{
	/* -p bg,r=5:10,20:40 is two points, not four; a second -p is a grid */
	const char *params[] = { "bs=4k,1m", "bg,r=5:10,20:40" };
	const char *sysctls[] = { "vm.dirty_background_ratio={bg}", "vm.dirty_ratio={r}",
				  "vm.dirty_expire_centisecs=500" };
	char *argv[] = { "fio", "--bs={bs}", NULL };
	struct sweep_plan p;
	char err[256];

	(void)state;
	assert_int_equal(sweep_plan_build_knobs(&p, params, 2, argv, 2, NULL, sysctls, 3, 1,
						err, sizeof(err)), 0);
	assert_int_equal(p.nruns, 4);
	assert_string_equal(p.runs[0].sysctls[0], "vm.dirty_background_ratio=5");
	assert_string_equal(p.runs[0].sysctls[1], "vm.dirty_ratio=10");
	assert_string_equal(p.runs[0].sysctls[2], "vm.dirty_expire_centisecs=500");
	assert_null(p.runs[0].sysctls[3]);
	assert_string_equal(p.runs[1].sysctls[0], "vm.dirty_background_ratio=20");
	assert_string_equal(p.runs[1].sysctls[1], "vm.dirty_ratio=40");
	assert_string_equal(p.runs[3].argv[1], "--bs=1m");
	/* x is the last name of the last -p; the other names label the curve */
	assert_string_equal(p.runs[1].x_name, "r");
	assert_string_equal(p.runs[1].x_text, "40");
	assert_true(p.runs[1].x == 40.0);
	/* bg is fixed by the x (r=40): not a curve of its own */
	assert_string_equal(p.runs[1].label_extra, "bs=4k");
	sweep_plan_free(&p);

	/* sizes as x: 128M is a number */
	const char *bytes[] = { "bg,d=64M:128M,256M:512M" };
	const char *bsys[] = { "vm.dirty_background_bytes={bg}", "vm.dirty_bytes={d}" };
	assert_int_equal(sweep_plan_build_knobs(&p, bytes, 1, argv, 1, NULL, bsys, 2, 2,
						err, sizeof(err)), 0);
	assert_int_equal(p.nruns, 4);
	assert_true(p.runs[0].x == 128.0 * 1024 * 1024);
	assert_string_equal(p.runs[2].sysctls[1], "vm.dirty_bytes=128M");
	assert_string_equal(p.runs[3].label_extra, "");
	sweep_plan_free(&p);

	/* a -p only a --sysctl takes is the run's setting, not its label */
	const char *knp[] = { "r=10,40", "clients=1,2" };
	const char *knsys[] = { "vm.dirty_ratio={r}" };
	char *knargv[] = { "dbench", "{clients}" };
	assert_int_equal(sweep_plan_build_knobs(&p, knp, 2, knargv, 2, NULL, knsys, 1, 1, err, sizeof(err)), 0);
	assert_int_equal(p.nruns, 4);
	assert_string_equal(p.runs[2].sysctls[0], "vm.dirty_ratio=40");
	assert_string_equal(p.runs[2].x_name, "clients");
	assert_string_equal(p.runs[2].label_extra, "");
	sweep_plan_free(&p);
	/* ... but one the command takes too stays in the label */
	char *knargv2[] = { "dbench", "--note={r}", "{clients}" };
	assert_int_equal(sweep_plan_build_knobs(&p, knp, 2, knargv2, 3, NULL, knsys, 1, 1, err, sizeof(err)), 0);
	assert_string_equal(p.runs[2].label_extra, "r=40");
	sweep_plan_free(&p);

	/* a value with the wrong number of parts, a key with a placeholder,
	 * a name bound twice, a name used nowhere */
	const char *badpair[] = { "bg,r=5:10,20" };
	assert_int_equal(sweep_plan_build_knobs(&p, badpair, 1, argv, 1, NULL, sysctls, 2, 1,
						err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'20' has 1 part for 2 names"));
	const char *pk[] = { "k=a,b" };
	const char *ksys[] = { "vm.{k}=1" };
	assert_int_equal(sweep_plan_build_knobs(&p, pk, 1, argv, 1, NULL, ksys, 1, 1,
						err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "fixed KEY"));
	const char *twice[] = { "bg,r=5:10", "r=1" };
	assert_int_equal(sweep_plan_build_knobs(&p, twice, 2, argv, 1, NULL, sysctls, 2, 1,
						err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "r is bound by another -p"));
	const char *unused[] = { "bg,zz=5:10" };
	assert_int_equal(sweep_plan_build_knobs(&p, unused, 1, argv, 1, NULL, sysctls, 2, 1,
						err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "{zz} appears nowhere"));
}

/* One run of the decider: the point it picks (its plan entry moved to
 * runs[seq]), a value for it (NAN: the run failed), the lines it gives. */
static int decide_run(struct sweep_decider *d, int seq, double value, char lines[][SWEEP_DECIDE_LINE_LEN], int *n)
{
	bool kinds[SWEEP_DECIDE_LINES];
	char note[SWEEP_DECIDE_LINE_LEN];
	int pt = sweep_decider_next(d, seq, 0, -1, note, sizeof(note));
	struct result_point r = { .metric = "throughput", .value = value };

	*n = 0;
	if (pt < 0)
		return pt;
	assert_int_equal(d->plan->runs[seq].point, pt);
	if (!isnan(value))
		sweep_decider_result(d, &r);
	*n = sweep_decider_end(d, !isnan(value), lines, kinds);
	assert_true(*n >= 1 && kinds[*n - 1]);
	return pt;
}

/* --until-decided with runs that print their figure in different units
 * (fio picks one per figure: 100MiB/s, then 0.0977GiB/s, then
 * 102400KiB/s): each is converted into the first run's unit, so the
 * three agree and the point is decided at 3; a run whose unit does not
 * convert (IOPS) gives no value, and the line says why. */
static void test_decider_units(void **state)
{
	const char *params[] = { "c=1" };
	char *argv[] = { "b", "{c}", NULL };
	struct sweep_decide_config cfg = {
		.on = true, .dc = { .min_repeat = 3, .max_repeat = 6, .ci_pct = 3, .min_change_pct = 5, .alpha = 0.05 },
	};
	static const struct { double v; const char *unit; } runs[] = {
		{ 100, "MiB/s" }, { 0.0977, "GiB/s" }, { 102400, "KiB/s" },
	};
	char lines[SWEEP_DECIDE_LINES][SWEEP_DECIDE_LINE_LEN], err[256];
	bool kinds[SWEEP_DECIDE_LINES];
	struct sweep_decider d;
	struct sweep_plan p;
	int n;

	(void)state;
	assert_int_equal(sweep_plan_build(&p, params, 1, argv, 2, NULL, 6, err, sizeof(err)), 0);
	assert_int_equal(sweep_decider_init(&d, &p, &cfg, err, sizeof(err)), 0);
	for (int seq = 0; seq < 3; seq++) {
		assert_int_equal(sweep_decider_next(&d, seq, 0, -1, lines[0], sizeof(lines[0])), 0);
		struct result_point r = { .metric = "throughput", .value = runs[seq].v };
		snprintf(r.unit, sizeof(r.unit), "%s", runs[seq].unit);
		sweep_decider_result(&d, &r);
		n = sweep_decider_end(&d, true, lines, kinds);
		assert_true(n >= 1 && kinds[n - 1]);
	}
	assert_int_equal(d.pts[0].arm.n, 3);
	assert_true(fabs(d.pts[0].arm.mean - (100 + 0.0977 * 1024 + 100) / 3) < 1e-9);
	assert_int_equal(d.pts[0].v.state, DECIDE_PRECISE);
	sweep_decider_free(&d);
	sweep_plan_free(&p);

	/* the second run's figure in IOPS: not a throughput in MiB/s */
	assert_int_equal(sweep_plan_build(&p, params, 1, argv, 2, NULL, 6, err, sizeof(err)), 0);
	assert_int_equal(sweep_decider_init(&d, &p, &cfg, err, sizeof(err)), 0);
	for (int seq = 0; seq < 2; seq++) {
		assert_int_equal(sweep_decider_next(&d, seq, 0, -1, lines[0], sizeof(lines[0])), 0);
		struct result_point r = { .metric = "throughput", .value = 100 };
		snprintf(r.unit, sizeof(r.unit), "%s", seq ? "IOPS" : "MiB/s");
		sweep_decider_result(&d, &r);
		n = sweep_decider_end(&d, true, lines, kinds);
	}
	assert_int_equal(d.pts[0].arm.n, 1);
	assert_string_equal(lines[0], "c=1: run failed to give a value (throughput in IOPS, which does not convert "
				      "to the first run's MiB/s): retried once");
	sweep_decider_free(&d);
	sweep_plan_free(&p);
}

/* --until-decided --metric write_clat_avg on fio runs with numjobs=2 and
 * no group_reporting: each clone gives a clat_avg under the job's label;
 * the run's value is their mean, and another job's (another label) is not
 * part of it.  Before, the run's value was its first clone's. */
static void test_decider_clones(void **state)
{
	const char *params[] = { "c=1" };
	char *argv[] = { "b", "{c}", NULL };
	struct sweep_decide_config cfg = {
		.on = true, .metric = "write_clat_avg",
		.dc = { .min_repeat = 3, .max_repeat = 6, .ci_pct = 3, .min_change_pct = 5, .alpha = 0.05 },
	};
	static const struct { const char *label; double v; } pts[] = {
		{ "L w", 80 }, { "L w", 90 }, { "L r", 500 },
	};
	char lines[SWEEP_DECIDE_LINES][SWEEP_DECIDE_LINE_LEN], err[256];
	bool kinds[SWEEP_DECIDE_LINES];
	struct sweep_decider d;
	struct sweep_plan p;

	(void)state;
	assert_int_equal(sweep_plan_build(&p, params, 1, argv, 2, NULL, 6, err, sizeof(err)), 0);
	assert_int_equal(sweep_decider_init(&d, &p, &cfg, err, sizeof(err)), 0);
	assert_int_equal(sweep_decider_next(&d, 0, 0, -1, lines[0], sizeof(lines[0])), 0);
	for (size_t i = 0; i < sizeof(pts) / sizeof(pts[0]); i++) {
		struct result_point r = { .metric = "write_clat_avg", .unit = "us", .value = pts[i].v };
		snprintf(r.label, sizeof(r.label), "%s", pts[i].label);
		sweep_decider_result(&d, &r);
	}
	assert_true(sweep_decider_end(&d, true, lines, kinds) >= 1);
	assert_int_equal(d.pts[0].arm.n, 1);
	assert_true(fabs(d.pts[0].arm.mean - 85) < 1e-9);
	sweep_decider_free(&d);
	sweep_plan_free(&p);
}

/* --until-decided: the minimum pass by pass, then the widest point, a
 * failed run retried at once, a point stopped at --max-repeat. */
static void test_decider_order(void **state)
{
	const char *params[] = { "c=1,2" };
	char *argv[] = { "b", "{c}", NULL };
	struct sweep_decide_config cfg = {
		.on = true, .dc = { .min_repeat = 3, .max_repeat = 6, .ci_pct = 3, .min_change_pct = 5, .alpha = 0.05 },
	};
	/* c=1 is tight (decided at 3), c=2 wide (open at 6), its second run fails once */
	const double v1[] = { 100, 100.5, 99.5 }, v2[] = { 200, 240, 170, 230, 180 };
	char lines[SWEEP_DECIDE_LINES][SWEEP_DECIDE_LINE_LEN], err[256];
	struct sweep_decider d;
	struct sweep_plan p;
	int seq = 0, n, i1 = 0, i2 = 0, order[16];

	(void)state;
	assert_int_equal(sweep_plan_build(&p, params, 1, argv, 2, NULL, 6, err, sizeof(err)), 0);
	assert_int_equal(sweep_decider_init(&d, &p, &cfg, err, sizeof(err)), 0);
	for (int pt; seq < 16; seq++) {
		bool fail = seq == 3;     /* c=2's second run */
		pt = sweep_decider_next(&d, seq, 0, -1, lines[0], sizeof(lines[0]));
		if (pt < 0)
			break;
		order[seq] = pt;
		struct result_point r = { .metric = "throughput", .value = pt ? v2[i2 % 5] : v1[i1 % 3] };
		bool kinds[SWEEP_DECIDE_LINES];
		if (!fail) {
			sweep_decider_result(&d, &r);
			pt ? i2++ : i1++;
		}
		n = sweep_decider_end(&d, !fail, lines, kinds);
		assert_true(n >= 1 && kinds[n - 1]);
		if (fail)
			assert_string_equal(lines[0], "c=2: run failed (throughput): retried once");
	}
	/* 1 2 1 2(failed) 2(retry) 1 -> c=1 precise at 3; then c=2 to 6 runs */
	const int want[] = { 0, 1, 0, 1, 1, 0, 1, 1, 1 };
	assert_int_equal(seq, 9);
	for (int k = 0; k < seq; k++)
		assert_int_equal(order[k], want[k]);
	assert_int_equal(d.pts[0].v.state, DECIDE_PRECISE);
	assert_int_equal(d.pts[1].v.state, DECIDE_OPEN);
	assert_int_equal(d.pts[1].passes, 6);
	assert_int_equal(d.pts[1].failed, 1);
	assert_int_equal(d.pts[1].arm.n, 5);
	/* the plan's runs were moved, never lost: every (point, pass) once */
	int seen[2][6] = { { 0 } };
	for (int k = 0; k < p.nruns; k++)
		seen[p.runs[k].point][p.runs[k].pass]++;
	for (int a = 0; a < 2; a++)
		for (int b = 0; b < 6; b++)
			assert_int_equal(seen[a][b], 1);
	assert_int_equal(sweep_decider_summary(&d, lines), 2);
	assert_string_equal(lines[0], "until-decided: 2 points in 9 runs: 1 precise, 0 different, 0 equal, 1 open, 0 failed");
	assert_string_equal(lines[1], "until-decided: run order 1 2 1 2 2 1 2 2 2");
	sweep_decider_free(&d);
	sweep_plan_free(&p);
}

/* --baseline NAME=VALUE links each point to the one with VALUE; a bad
 * one is refused. */
static void test_decider_baseline_param(void **state)
{
	const char *params[] = { "r=10,40,80", "c=1,4" };
	char *argv[] = { "b", "{r}", "{c}", NULL };
	struct sweep_decide_config cfg = {
		.on = true, .baseline_param = "r=40",
		.dc = { .min_repeat = 3, .max_repeat = 5, .ci_pct = 3, .min_change_pct = 5, .alpha = 0.05 },
	};
	char lines[SWEEP_DECIDE_LINES][SWEEP_DECIDE_LINE_LEN], err[256];
	struct sweep_decider d;
	struct sweep_plan p;
	int n;

	(void)state;
	assert_int_equal(sweep_plan_build(&p, params, 2, argv, 3, NULL, 5, err, sizeof(err)), 0);
	assert_int_equal(sweep_decider_init(&d, &p, &cfg, err, sizeof(err)), 0);
	/* points: (10,1) (10,4) (40,1) (40,4) (80,1) (80,4) */
	assert_int_equal(d.pts[0].ref, 2);
	assert_int_equal(d.pts[1].ref, 3);
	assert_true(d.pts[2].is_ref && d.pts[3].is_ref);
	assert_int_equal(d.pts[4].ref, 2);
	assert_int_equal(d.pts[5].ref, 3);
	assert_int_equal(decide_run(&d, 0, 100, lines, &n), 0);
	assert_true(strstr(lines[n - 1], "r=10 c=1: undecided (1 run); state=undecided") == lines[n - 1]);
	sweep_decider_free(&d);
	sweep_plan_free(&p);
	cfg.baseline_param = "r=20";
	assert_int_equal(sweep_plan_build(&p, params, 2, argv, 3, NULL, 5, err, sizeof(err)), 0);
	assert_int_equal(sweep_decider_init(&d, &p, &cfg, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--baseline r=20: not a value of a -p"));
	sweep_plan_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_param),
		cmocka_unit_test(test_between_quoted_and_env),
		cmocka_unit_test(test_between_quoted_refused),
		cmocka_unit_test(test_grid_repeat_between),
		cmocka_unit_test(test_no_reexpansion),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_paired_and_sysctl),
		cmocka_unit_test(test_eta),
		cmocka_unit_test(test_decider_order),
		cmocka_unit_test(test_decider_units),
		cmocka_unit_test(test_decider_clones),
		cmocka_unit_test(test_decider_baseline_param),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
