/* sweep plans: grid order, substitution without a shell, labels, x
 * values, usage errors, ETA. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
