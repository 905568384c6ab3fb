/* parsers: output of every tool version people still have (issue 20),
 * tested value by value against real files kept in tests/fixtures/ (their
 * sources in tests/fixtures/README.md): bonnie++ CSV layouts by version,
 * fio groups that ran one after another kept apart, fio 2.x JSON and
 * text, fio client/server JSON, sysbench 0.4/0.5 and 1.1 fileio, logs
 * with several tools, labels and empty files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iodash/parsers/parser.h"

static void assert_near(double a, double b, double eps, const char *file, int line)
{
	if (!(fabs(a - b) <= eps)) {
		print_error("%.12g != %.12g (within %g)\n", a, b, eps);
		_fail(file, line);
	}
}
#define assert_double_equal(a, b, eps) assert_near((a), (b), (eps), __FILE__, __LINE__)

#define BO "tests/fixtures/bench-output/"

static void parse(const char *path, const char *name, const char *label, struct result_set *rs)
{
	char err[512];
	memset(rs, 0, sizeof(*rs));
	int rc = parser_parse_file(path, name, label, rs, err, sizeof(err));
	if (rc)
		print_message("%s\n", err);
	assert_int_equal(rc, 0);
}

/* text through the named parser, as a whole output */
static void parse_text(const char *text, const char *name, const char *label, struct result_set *rs)
{
	struct parser *p = parser_new(name, label);
	assert_non_null(p);
	memset(rs, 0, sizeof(*rs));
	struct result_sink sink = result_set_sink(rs);
	parser_feed(p, text, strlen(text), &sink);
	parser_finish(p, &sink);
	parser_free(p);
}

/* The one final point of (label, metric); fails when missing or repeated. */
static const struct result_point *pt(const struct result_set *rs, const char *label, const char *metric)
{
	const struct result_point *r = NULL;
	for (size_t i = 0; i < rs->n; i++)
		if (!(rs->v[i].flags & RP_PROGRESS) && strcmp(rs->v[i].metric, metric) == 0 &&
		    strcmp(rs->v[i].label, label) == 0) {
			if (r)
				print_error("two points %s / %s\n", label, metric);
			assert_null(r);
			r = &rs->v[i];
		}
	if (!r)
		print_error("no point %s / %s\n", label, metric);
	assert_non_null(r);
	return r;
}

/* The final point of (label, metric, run). */
static const struct result_point *ptr(const struct result_set *rs, const char *label, const char *metric, int run)
{
	const struct result_point *r = NULL;
	for (size_t i = 0; i < rs->n; i++)
		if (!(rs->v[i].flags & RP_PROGRESS) && strcmp(rs->v[i].metric, metric) == 0 &&
		    strcmp(rs->v[i].label, label) == 0 && rs->v[i].run == run) {
			assert_null(r);
			r = &rs->v[i];
		}
	if (!r)
		print_error("no point %s / %s run %d\n", label, metric, run);
	assert_non_null(r);
	return r;
}

static size_t nruns(const struct result_set *rs, const char *metric)
{
	int max = -1;
	for (size_t i = 0; i < rs->n; i++)
		if (!(rs->v[i].flags & RP_PROGRESS) && strcmp(rs->v[i].metric, metric) == 0 && rs->v[i].run > max)
			max = rs->v[i].run;
	return (size_t)(max + 1);
}

static bool has(const struct result_set *rs, const char *label, const char *metric)
{
	for (size_t i = 0; i < rs->n; i++)
		if (!(rs->v[i].flags & RP_PROGRESS) && strcmp(rs->v[i].metric, metric) == 0 &&
		    strcmp(rs->v[i].label, label) == 0)
			return true;
	return false;
}

static size_t nlabels(const struct result_set *rs)
{
	/* of final points: the live status line's progress has the run label */
	size_t n = 0;
	for (size_t i = 0; i < rs->n; i++) {
		bool seen = rs->v[i].flags & RP_PROGRESS;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !(rs->v[j].flags & RP_PROGRESS) && strcmp(rs->v[j].label, rs->v[i].label) == 0;
		n += !seen;
	}
	return n;
}

static void check(const struct result_set *rs, const char *label, const char *metric, const char *x_name,
		  double x, double v, double eps, const char *unit)
{
	const struct result_point *p = pt(rs, label, metric);
	assert_string_equal(p->x_name, x_name);
	assert_double_equal(p->x, x, 0);
	assert_double_equal(p->value, v, eps);
	assert_string_equal(p->unit, unit);
	assert_int_equal(p->run, 0);
	assert_true(p->flags & RP_FINAL);
}

/* The clones' points of (label, metric): n of them, each clone's value
 * in the order fio printed the clones, in its unit, all of one run (0)
 * and of x_name/x, after the sum sum_metric under sum_label. */
static void check_clones(const struct result_set *rs, const char *label, const char *metric, const char *x_name,
			 double x, const double *v, const char *const *unit, size_t n, const char *sum_label,
			 const char *sum_metric)
{
	size_t k = 0, sum_at = rs->n;
	for (size_t i = 0; i < rs->n; i++) {
		const struct result_point *p = &rs->v[i];
		if (p->flags & RP_PROGRESS)
			continue;
		if (!strcmp(p->metric, sum_metric) && !strcmp(p->label, sum_label) && sum_at == rs->n)
			sum_at = i;
		if (strcmp(p->metric, metric) || strcmp(p->label, label))
			continue;
		if (k >= n)
			print_error("more than %zu points %s / %s\n", n, label, metric);
		assert_true(k < n);
		assert_true(i > sum_at);   /* after the sum: the run summary takes the first rate */
		assert_string_equal(p->x_name, x_name);
		assert_double_equal(p->x, x, 0);
		assert_double_equal(p->value, v[k], 1e-9);
		assert_string_equal(p->unit, unit[k]);
		assert_int_equal(p->run, 0);
		assert_true(p->flags & RP_FINAL);
		k++;
	}
	if (k != n)
		print_error("%zu points %s / %s, not %zu\n", k, label, metric, n);
	assert_int_equal(k, n);
}

/* --- bonnie++ ---------------------------------------------------------- */

static void test_bonnie_csv_196(void **st)
{
	(void)st;
	struct result_set rs;
	/* 1.96,1.96,perfkit-7b22f510-0,1,1421800799,7423M,,,,72853,15,47358,5,,,
	 * 156821,7,537.7,10,100,,,,,49223,58,+++++,+++,54405,53,2898,97,+++++,+++,
	 * 59089,60,,512ms,670ms,,44660us,200ms,3747us,1759us,1643us,33518us,192us,839us */
	parse(BO "bonnie++/pkb-bonnie++-1.96.csv", NULL, "L", &rs);
	check(&rs, "L", "put_block", "size_mb", 7423, 72853, 0, "KiB/s");
	check(&rs, "L", "rewrite", "size_mb", 7423, 47358, 0, "KiB/s");
	check(&rs, "L", "get_block", "size_mb", 7423, 156821, 0, "KiB/s");
	check(&rs, "L", "seeks", "size_mb", 7423, 537.7, 1e-9, "/s");
	assert_false(has(&rs, "L", "putc"));   /* -f: empty */
	assert_false(has(&rs, "L", "getc"));
	check(&rs, "L", "seq_create", "size_mb", 7423, 49223, 0, "files/s");
	assert_true(pt(&rs, "L", "seq_stat")->flags & RP_TOO_FAST);
	check(&rs, "L", "seq_del", "size_mb", 7423, 54405, 0, "files/s");
	check(&rs, "L", "ran_create", "size_mb", 7423, 2898, 0, "files/s");
	assert_true(pt(&rs, "L", "ran_stat")->flags & RP_TOO_FAST);
	check(&rs, "L", "ran_del", "size_mb", 7423, 59089, 0, "files/s");
	assert_false(has(&rs, "L", "putc_latency"));
	check(&rs, "L", "put_block_latency", "size_mb", 7423, 512, 0, "ms");
	check(&rs, "L", "rewrite_latency", "size_mb", 7423, 670, 0, "ms");
	assert_false(has(&rs, "L", "getc_latency"));
	check(&rs, "L", "get_block_latency", "size_mb", 7423, 44660, 0, "us");
	check(&rs, "L", "seeks_latency", "size_mb", 7423, 200, 0, "ms");
	check(&rs, "L", "seq_create_latency", "size_mb", 7423, 3747, 0, "us");
	check(&rs, "L", "seq_stat_latency", "size_mb", 7423, 1759, 0, "us");
	check(&rs, "L", "seq_del_latency", "size_mb", 7423, 1643, 0, "us");
	check(&rs, "L", "ran_create_latency", "size_mb", 7423, 33518, 0, "us");
	check(&rs, "L", "ran_stat_latency", "size_mb", 7423, 192, 0, "us");
	check(&rs, "L", "ran_del_latency", "size_mb", 7423, 839, 0, "us");
	assert_int_equal(rs.n, 20);
	result_set_free(&rs);
}

/* Table values of one bonnie++ run as printed: i/o (per-char, block,
 * rewrite, per-char in, block in: KiB/s; seeks /s), files/s and latencies
 * (us; check_bonnie_run_units: unit[k] where a cell printed another,
 * "801ms", "482m"); NAN where the cell is blank (-f: per-char tests not
 * run), INFINITY for "+++++". */
struct bonnie_run {
	double io[6], files[6], io_lat[6], files_lat[6];
};

static void check_bonnie_run_units(const struct result_set *rs, const char *label, int run, double size_mb,
				   const struct bonnie_run *r, const char *const unit[24])
{
	static const char *const io[6] = { "putc", "put_block", "rewrite",
					   "getc", "get_block", "seeks" };
	static const char *const files[6] = { "seq_create", "seq_stat", "seq_del",
					      "ran_create", "ran_stat", "ran_del" };
	for (int k = 0; k < 24; k++) {
		const char *base = k % 12 < 6 ? io[k % 6] : files[k % 6];
		double v = k < 6 ? r->io[k] : k < 12 ? r->files[k - 6] : k < 18 ? r->io_lat[k - 12] : r->files_lat[k - 18];
		char m[64];
		snprintf(m, sizeof(m), "%s%s", base, k >= 12 ? "_latency" : "");
		bool present = false;
		for (size_t i = 0; i < rs->n; i++)
			present |= !(rs->v[i].flags & RP_PROGRESS) && rs->v[i].run == run &&
				   strcmp(rs->v[i].label, label) == 0 && strcmp(rs->v[i].metric, m) == 0;
		if (isnan(v)) {
			if (present)
				print_error("run %d: %s should be absent (a test not run)\n", run, m);
			assert_false(present);
			continue;
		}
		const struct result_point *p = ptr(rs, label, m, run);
		assert_string_equal(p->x_name, "size_mb");
		assert_double_equal(p->x, size_mb, 0);
		if (isinf(v)) {
			assert_true(p->flags & RP_TOO_FAST);
			assert_true(isnan(p->value));
		} else {
			assert_false(p->flags & RP_TOO_FAST);
			assert_double_equal(p->value, v, 1e-9);
		}
		assert_string_equal(p->unit, unit && unit[k] ? unit[k] : k >= 12 ? "us" : k < 6 ? (k == 5 ? "/s" : "KiB/s") : "files/s");
	}
}

static void check_bonnie_run(const struct result_set *rs, const char *label, int run, double size_mb,
			     const struct bonnie_run *r)
{
	check_bonnie_run_units(rs, label, run, size_mb, r, NULL);
}

/* bonnie++ 1.97's whole output (progress, both tables, the CSV line of
 * format 1.97) as kept in a public README: the CSV is the record. */
static void test_bonnie_197_output(void **st)
{
	(void)st;
	struct result_set rs;
	/* 1.97,1.97,nfs-worker1,1,1545782353,2G,,1113,97,78993,7,75546,11,2102,92,271440,13,6863,53,16,,,,,
	 * 407,7,+++++,+++,1328,12,526,6,+++++,+++,1704,13,21103us,801ms,1565ms,19930us,21978us,9956us,
	 * 65891us,18799us,81134us,31558us,3596us,10771us */
	parse(BO "bonnie++/bossjones-bonnie++-1.97-nfs.txt", NULL, "L", &rs);
	const struct bonnie_run r = {
		{ 1113, 78993, 75546, 2102, 271440, 6863 },
		{ 407, INFINITY, 1328, 526, INFINITY, 1704 },
		{ 21103, 801, 1565, 19930, 21978, 9956 },
		{ 65891, 18799, 81134, 31558, 3596, 10771 },
	};
	static const char *const ms[24] = { [13] = "ms", [14] = "ms" };
	check_bonnie_run_units(&rs, "L", 0, 2048, &r, ms);
	assert_int_equal(rs.n, 24);   /* the table of the same run is not counted again */
	assert_int_equal(nruns(&rs, "put_block"), 1);
	result_set_free(&rs);
}

/* Two bonnie++ 1.97 runs of two setups in one table (a blog's before and
 * after, rows inez(old) and inez(new)), run with -f: the per-char cells
 * are blank, and so are their latencies.  Every row is read; rows of two
 * machine names are two labels, never runs of one (a mean of before and
 * after would mean nothing). */
static void test_bonnie_197_two_runs_blank_cells(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "bonnie++/rfinnie-bonnie++-1.97-two-runs.txt", NULL, "L", &rs);
	const struct bonnie_run old = {
		{ NAN, 35513, 16987, NAN, 46172, 157.3 },
		{ 15257, INFINITY, 20204, 15349, INFINITY, 19069 },
		{ NAN, 2113, 1488, NAN, 68443, 1952 },
		{ 669, 1460, 1694, 691, 110, 671 },
	};
	const struct bonnie_run new = {
		{ NAN, 87089, 41527, NAN, 102046, 4145 },
		{ 16910, INFINITY, 22496, 16591, INFINITY, 21245 },
		{ NAN, 836, 229, NAN, 7650, 8976 },
		{ 832, 1410, 1703, 9260, 120, 840 },
	};
	static const char *const ms_old[24] = { [13] = "ms", [14] = "ms", [17] = "ms" };
	static const char *const ms_new[24] = { [13] = "ms", [14] = "ms" };
	check_bonnie_run_units(&rs, "L inez(old)", 0, 2048, &old, ms_old);
	check_bonnie_run_units(&rs, "L inez(new)", 0, 2048, &new, ms_new);
	assert_int_equal(nlabels(&rs), 2);
	assert_int_equal(nruns(&rs, "put_block"), 1);
	assert_int_equal(rs.n, 40);
	result_set_free(&rs);
}

/* CSV lines of two machines in one log (a results archive: the 1.97 run
 * above, whose table its CSV line replaces, then PerfKitBenchmarker's
 * 1.96 line): one label per machine; with one machine, the plain label. */
static void test_bonnie_csv_two_machines(void **st)
{
	(void)st;
	char buf[8192];
	size_t n = 0;
	const char *files[2] = { BO "bonnie++/bossjones-bonnie++-1.97-nfs.txt", BO "bonnie++/pkb-bonnie++-1.96.csv" };
	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(files[i], "rb");
		assert_non_null(f);
		n += fread(buf + n, 1, sizeof(buf) - n, f);
		fclose(f);
	}
	assert_true(n < sizeof(buf));
	struct result_set rs = { 0 };
	struct parser *p = parser_new("bonnie", "L");
	struct result_sink sink = result_set_sink(&rs);
	parser_feed(p, buf, n, &sink);
	parser_finish(p, &sink);
	parser_free(p);
	assert_int_equal(nlabels(&rs), 2);
	assert_int_equal(rs.n, 24 + 20);
	check(&rs, "L nfs-worker1", "put_block", "size_mb", 2048, 78993, 0, "KiB/s");
	check(&rs, "L nfs-worker1", "ran_del_latency", "size_mb", 2048, 10771, 0, "us");
	check(&rs, "L perfkit-7b22f510-0", "put_block", "size_mb", 7423, 72853, 0, "KiB/s");
	check(&rs, "L perfkit-7b22f510-0", "ran_del_latency", "size_mb", 7423, 839, 0, "us");
	result_set_free(&rs);
}

/* bon_csv2txt of bonnie++ 1.02b with -x 2 (two runs, one row each, -f),
 * quoted in a linux-kernel mail: both rows are read, as two runs. */
static void test_bonnie_102_bon_csv2txt_x2(void **st)
{
	(void)st;
	struct result_set rs;
	parse("tests/fixtures/lkml/bonnie++-1.02b-bon_csv2txt-x2.txt", NULL, "L", &rs);
	const struct bonnie_run r0 = {
		{ NAN, 26895, 10177, NAN, 25450, 145.5 },
		{ 340, INFINITY, 16450, 340, INFINITY, 1861 },
		{ NAN, NAN, NAN, NAN, NAN, NAN }, { NAN, NAN, NAN, NAN, NAN, NAN },
	};
	const struct bonnie_run r1 = {
		{ NAN, 26636, 9849, NAN, 25920, 146.4 },
		{ 267, INFINITY, 12301, 240, INFINITY, 1339 },
		{ NAN, NAN, NAN, NAN, NAN, NAN }, { NAN, NAN, NAN, NAN, NAN, NAN },
	};
	check_bonnie_run(&rs, "L", 0, 1024, &r0);   /* "1G:32k": 1 GiB file, 32k chunks */
	check_bonnie_run(&rs, "L", 1, 1024, &r1);
	assert_int_equal(rs.n, 20);
	result_set_free(&rs);
}

/* bonnie++ 2.00a -x 3 (three runs in one invocation: a CSV header line and
 * three CSV lines, no table), and bon_csv2txt of the same (three rows with
 * the same name in each table): three runs each, never summed or merged. */
static void test_bonnie_x3_runs(void **st)
{
	(void)st;
	struct result_set csv, txt;
	parse(BO "bonnie++/bonnie++-x3-s256-n1.csv", NULL, "L", &csv);
	parse(BO "bonnie++/bon_csv2txt-x3-s256-n1.txt", NULL, "L", &txt);
	const double I = INFINITY;
	const struct bonnie_run c[3] = {
		{ { 2163, I, I, 2673, I, I }, { I, I, I, I, I, I },
		  { 14381, 25471, 24295, 13462, 11021, 131 }, { 11213, 37, 5244, 4040, 4024, 20 } },
		{ { 1626, 493762, I, 2595, I, I }, { I, I, I, I, I, I },
		  { 21778, 32031, 23963, 19805, 12034, 32204 }, { 11343, 2467, 192, 16068, 10, 16402 } },
		{ { 1920, I, I, 2332, I, I }, { I, I, I, I, I, I },
		  { 13312, 29663, 40488, 10550, 8048, 13606 }, { 4365, 236, 5351, 8262, 8, 51 } },
	};
	/* run 0's seeks latency is "131ms" */
	static const char *const ms[24] = { [17] = "ms" }, *const mib[24] = { [1] = "MiB/s" };
	for (int r = 0; r < 3; r++) {
		check_bonnie_run_units(&csv, "L", r, 256, &c[r], r == 0 ? ms : NULL);
		/* the table rounds "493762" to "482m" (MiB/s); the rest it prints exactly */
		struct bonnie_run t = c[r];
		if (r == 1)
			t.io[1] = 482;
		check_bonnie_run_units(&txt, "L", r, 256, &t, r == 0 ? ms : r == 1 ? mib : NULL);
	}
	assert_int_equal(csv.n, 72);
	assert_int_equal(txt.n, 72);
	assert_int_equal(nruns(&csv, "putc"), 3);
	assert_int_equal(nruns(&txt, "ran_del_latency"), 3);
	result_set_free(&csv);
	result_set_free(&txt);
}

/* bonnie++ 1.96 and 1.97, built from their sources and run here: -x 3
 * (a CSV header line and three CSV lines of 48 fields, no table; 1.96's
 * header line leaves out the concurrency and seed fields its lines have),
 * -f -x 2 (per-char fields empty), and each version's own bon_csv2txt of
 * them (name and size on every row, figures printed whole, wider than
 * their columns: "1135692  33").  Every run of every file, value by
 * value; the CSV and the table of the same runs give the same points. */
static void test_bonnie_196_197_built(void **st)
{
	(void)st;
	const double I = INFINITY, N = NAN;
	static const struct bonnie_run x3[2][3] = {
		{ { { 4063, I, I, 5426, I, I }, { I, I, I, I, I, I },
		    { 2819, 29, 194, 2331, 20, 6137 }, { 107, 33, 183, 33, 14, 16 } },
		  { { 3024, I, I, 4928, I, I }, { I, I, I, I, I, I },
		    { 16052, 50, 93, 3192, 19, 7206 }, { 8007, 48, 209, 684, 16, 35 } },
		  { { 3562, I, I, 4854, I, I }, { I, I, I, I, I, I },
		    { 3870, 48, 259, 6272, 283, 7328 }, { 845, 36, 170, 705, 12, 23 } } },
		{ { { 3369, I, I, 4772, I, I }, { I, I, I, I, I, I },
		    { 3368, 1836, 71, 2130, 34, 15082 }, { 72, 51, 243, 44, 25, 650 } },
		  { { 3063, I, I, 5018, I, I }, { I, I, I, I, I, I },
		    { 13387, 216, 329, 2592, 32, 7235 }, { 39, 33, 209, 256, 7, 15 } },
		  { { 3675, I, I, 4642, I, I }, { I, I, I, I, I, I },
		    { 3066, 105, 3310, 6211, 67, 8634 }, { 866, 30, 376, 650, 8, 31 } } },
	};
	static const struct bonnie_run fx2[2][2] = {
		{ { { N, 758885, 880860, N, 3292284, 8106 }, { 8496, I, I, I, I, I },
		    { N, 8031, 7144, N, 9050, 11893 }, { 872, 225, 1424, 946, 20, 1106 } },
		  { { N, 889464, 1135692, N, I, 8107 }, { 5830, I, I, I, I, I },
		    { N, 1237, 1167, N, 208, 8024 }, { 15877, 267, 10758, 6140, 39, 643 } } },
		{ { { N, 767647, 1109676, N, I, 7429 }, { 5601, I, I, I, I, I },
		    { N, 14794, 16767, N, 502, 5655 }, { 16201, 180, 9270, 14919, 33, 9781 } },
		  { { N, 869648, 1230048, N, I, 8591 }, { 6656, I, I, I, I, I },
		    { N, 13725, 270, N, 533, 8024 }, { 1259, 183, 480, 2882, 16, 1090 } } },
	};
	static const char *const ver[2] = { "1.96", "1.97" };
	for (int v = 0; v < 2; v++) {
		char path[256];
		struct result_set rs;
		for (int table = 0; table < 2; table++) {
			snprintf(path, sizeof(path), BO "bonnie++/%s-%s-x3-s128-r64-n1.%s",
				 table ? "bon_csv2txt" : "bonnie++", ver[v], table ? "txt" : "csv");
			parse(path, NULL, "L", &rs);
			for (int r = 0; r < 3; r++)
				check_bonnie_run(&rs, "L", r, 128, &x3[v][r]);
			assert_int_equal(nruns(&rs, "putc"), 3);
			assert_int_equal(nlabels(&rs), 1);
			assert_int_equal(rs.n, 3 * 24);
			result_set_free(&rs);
			snprintf(path, sizeof(path), BO "bonnie++/%s-%s-f-x2-s2048-r1024-n8.%s",
				 table ? "bon_csv2txt" : "bonnie++", ver[v], table ? "txt" : "csv");
			parse(path, NULL, "L", &rs);
			for (int r = 0; r < 2; r++)
				check_bonnie_run(&rs, "L", r, 2048, &fx2[v][r]);
			assert_int_equal(nruns(&rs, "put_block"), 2);
			assert_int_equal(rs.n, 2 * 20);
			result_set_free(&rs);
		}
	}
}

/* One bonnie++ 1.96 / 1.97 run (built here) as printed: both human tables
 * ("Version  1.96", "Concurrency   1", Latency rows), then the CSV line of
 * the same run.  The CSV is the record, the table not counted again; the
 * tables alone (as from -q's stderr) give the same points. */
static void test_bonnie_196_197_built_output(void **st)
{
	(void)st;
	const double I = INFINITY;
	static const struct bonnie_run one[2] = {
		{ { 4226, I, I, 5403, I, I }, { I, I, I, I, I, I },
		  { 2554, 66, 330, 2326, 30, 4258 }, { 283, 30, 173, 729, 16, 24 } },
		{ { 4084, I, I, 5710, I, I }, { I, I, I, I, I, I },
		  { 2861, 164, 52, 1500, 41, 5723 }, { 4204, 35, 167, 8153, 15, 29 } },
	};
	static const char *const ver[2] = { "1.96", "1.97" };
	for (int v = 0; v < 2; v++) {
		char path[256];
		snprintf(path, sizeof(path), BO "bonnie++/bonnie++-%s-s256-r128-n1.txt", ver[v]);
		struct result_set rs;
		parse(path, NULL, "L", &rs);
		check_bonnie_run(&rs, "L", 0, 256, &one[v]);
		assert_int_equal(rs.n, 24);
		result_set_free(&rs);
		/* the tables without their CSV line */
		FILE *f = fopen(path, "rb");
		assert_non_null(f);
		char buf[4096];
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		char csv[8];
		snprintf(csv, sizeof(csv), "\n%s,", ver[v]);
		const char *end = strstr(buf, csv);
		assert_non_null(end);
		memset(&rs, 0, sizeof(rs));
		struct parser *p = parser_new("auto", "L");
		struct result_sink sink = result_set_sink(&rs);
		parser_feed(p, buf, (size_t)(end - buf) + 1, &sink);
		parser_finish(p, &sink);
		assert_string_equal(parser_name(p), "bonnie");
		parser_free(p);
		check_bonnie_run(&rs, "L", 0, 256, &one[v]);
		assert_int_equal(rs.n, 24);
		result_set_free(&rs);
	}
}

/* --- fio groups -------------------------------------------------------- */

/* fio-3.33, three stonewalled groups: seqwrite 1M (one job), randread 4k
 * (two jobs at once, no group_reporting), randwrite 16k (two jobs,
 * group_reporting). */
static void test_fio_groups_normal(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "fio/fio-3.33-three-groups-normal.txt", NULL, "L", &rs);
	assert_int_equal(nlabels(&rs), 3);
	/* write: IOPS=4345, BW=4345MiB/s (4556MB/s)(8721MiB/2007msec) */
	check(&rs, "L seqwrite", "write_bw", "bs_kb", 1024, 4345, 0, "MiB/s");
	check(&rs, "L seqwrite", "write_iops", "bs_kb", 1024, 4345, 0, "IOPS");
	check(&rs, "L seqwrite", "write_clat_avg", "bs_kb", 1024, 197.19, 1e-9, "us");
	check(&rs, "L seqwrite", "write_clat_p99", "bs_kb", 1024, 1893, 0, "us");
	/* two jobs of group 1 ran at once: 269MiB/s + 269MiB/s, as fio summed
	 * them in "Run status group 1": "READ: bw=537MiB/s" (not the 538 of
	 * the rounded figures); 68.8k + 68.8k; their latencies do not add
	 * up, so none */
	check(&rs, "L randread", "read_bw", "bs_kb", 4, 537, 0, "MiB/s");
	check(&rs, "L randread", "read_iops", "bs_kb", 4, 137600, 1e-6, "IOPS");
	/* ... but each has its own, as its block printed it: "BW=269MiB/s",
	 * "IOPS=68.8k", "clat (usec): ... avg=114.59" (not percentiles) */
	static const char *const mib[2] = { "MiB/s", "MiB/s" }, *const iops[2] = { "IOPS", "IOPS" },
			  *const us[2] = { "us", "us" };
	check_clones(&rs, "L randread", "read_bw_per_job", "bs_kb", 4, (const double[]){ 269, 269 }, mib, 2,
		     "L randread", "read_bw");
	check_clones(&rs, "L randread", "read_iops_per_job", "bs_kb", 4, (const double[]){ 68800, 68800 }, iops, 2,
		     "L randread", "read_iops");
	check_clones(&rs, "L randread", "read_clat_avg", "bs_kb", 4, (const double[]){ 114.59, 114.31 }, us, 2,
		     "L randread", "read_bw");
	check_clones(&rs, "L randread", "read_lat_avg", "bs_kb", 4, (const double[]){ 116.06, 115.77 }, us, 2,
		     "L randread", "read_bw");
	assert_false(has(&rs, "L randread", "read_clat_p99"));
	assert_false(has(&rs, "L seqwrite", "write_bw_per_job"));
	assert_false(has(&rs, "L randwrite-grouped", "write_bw_per_job"));
	assert_false(has(&rs, "L randwrite-grouped", "write_iops_per_job"));
	/* group_reporting: one block for jobs=2, taken as it is */
	check(&rs, "L randwrite-grouped", "write_bw", "bs_kb", 16, 1596, 0, "MiB/s");
	check(&rs, "L randwrite-grouped", "write_iops", "bs_kb", 16, 102000, 1e-6, "IOPS");
	/* "clat (nsec): ... avg=14801.43" */
	check(&rs, "L randwrite-grouped", "write_clat_avg", "bs_kb", 16, 14801.43, 1e-9, "ns");
	assert_false(has(&rs, "L", "write_bw"));
	result_set_free(&rs);
}

static void test_fio_groups_json(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "fio/fio-3.33-three-groups.json", NULL, "L", &rs);
	assert_int_equal(nlabels(&rs), 3);
	check(&rs, "L seqwrite", "write_bw", "bs_kb", 1024, 2137555, 0, "KiB/s");
	check(&rs, "L seqwrite", "write_iops", "bs_kb", 1024, 2087.456272, 1e-9, "IOPS");
	/* clat_ns: in ns */
	check(&rs, "L seqwrite", "write_clat_avg", "bs_kb", 1024, 413818.435959, 1e-6, "ns");
	check(&rs, "L seqwrite", "write_clat_p99", "bs_kb", 1024, 8093696, 0, "ns");
	check(&rs, "L randread", "read_bw", "bs_kb", 4, 259878 + 262798, 0, "KiB/s");
	check(&rs, "L randread", "read_iops", "bs_kb", 4, 64969.515242 + 65699.650175, 1e-6, "IOPS");
	/* each job entry's own: bw KiB/s, clat_ns and lat_ns means in ns */
	static const char *const kib[2] = { "KiB/s", "KiB/s" }, *const iops[2] = { "IOPS", "IOPS" },
			  *const ns[2] = { "ns", "ns" };
	check_clones(&rs, "L randread", "read_bw_per_job", "bs_kb", 4, (const double[]){ 259878, 262798 }, kib, 2,
		     "L randread", "read_bw");
	check_clones(&rs, "L randread", "read_iops_per_job", "bs_kb", 4,
		     (const double[]){ 64969.515242, 65699.650175 }, iops, 2, "L randread", "read_bw");
	check_clones(&rs, "L randread", "read_clat_avg", "bs_kb", 4, (const double[]){ 121020.377973, 119265.915772 },
		     ns, 2, "L randread", "read_bw");
	check_clones(&rs, "L randread", "read_lat_avg", "bs_kb", 4, (const double[]){ 122835.9922, 121476.638155 },
		     ns, 2, "L randread", "read_bw");
	assert_false(has(&rs, "L randread", "read_clat_p99"));
	assert_false(has(&rs, "L randwrite-grouped", "write_bw_per_job"));
	check(&rs, "L randwrite-grouped", "write_bw", "bs_kb", 16, 4879792, 0, "KiB/s");
	check(&rs, "L randwrite-grouped", "write_clat_avg", "bs_kb", 16, 5356.67421, 1e-9, "ns");
	check(&rs, "L randwrite-grouped", "write_clat_p99", "bs_kb", 16, 4256, 0, "ns");
	result_set_free(&rs);
}

/* fio-2.1.4 (PerfKitBenchmarker's sample): five stonewalled groups, no job
 * options in the JSON (so no block size: x "run"), io_bytes in KiB, clat
 * in us. */
static void test_fio_json_v2_groups(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "fio/pkb-fio-2.1.4-five-groups.json", NULL, "L", &rs);
	assert_int_equal(nlabels(&rs), 5);
	check(&rs, "L sequential_write", "write_bw", "run", 0, 68118, 0, "KiB/s");
	check(&rs, "L sequential_write", "write_iops", "run", 0, 133, 0, "IOPS");
	check(&rs, "L sequential_write", "write_clat_avg", "run", 0, 477734.84, 1e-6, "us");
	check(&rs, "L sequential_write", "write_clat_p99", "run", 0, 823296, 0, "us");
	check(&rs, "L sequential_read", "read_bw", "run", 0, 129836, 0, "KiB/s");
	check(&rs, "L sequential_read", "read_clat_avg", "run", 0, 250667.06, 1e-6, "us");
	check(&rs, "L sequential_read", "read_clat_p99", "run", 0, 473088, 0, "us");
	check(&rs, "L random_write_test", "write_bw", "run", 0, 6443, 0, "KiB/s");
	check(&rs, "L random_write_test", "write_iops", "run", 0, 1610, 0, "IOPS");
	check(&rs, "L random_write_test", "write_clat_avg", "run", 0, 587.02, 1e-9, "us");
	check(&rs, "L random_read_test", "read_bw", "run", 0, 1269, 0, "KiB/s");
	check(&rs, "L random_read_test", "read_iops", "run", 0, 317, 0, "IOPS");
	check(&rs, "L random_read_test", "read_clat_p99", "run", 0, 3728, 0, "us");
	/* same rw and bs as random_read_test, iodepth 64: its own result */
	check(&rs, "L random_read_test_parallel", "read_bw", "run", 0, 1292, 0, "KiB/s");
	check(&rs, "L random_read_test_parallel", "read_iops", "run", 0, 323, 0, "IOPS");
	check(&rs, "L random_read_test_parallel", "read_clat_avg", "run", 0, 198030.44, 1e-6, "us");
	result_set_free(&rs);
}

/* fio-2.17 with group_reporting and numjobs=2 in two groups; bs from the
 * job options; a long job name does not fit the label: "L g0". */
static void test_fio_json_v2_group_reporting(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "fio/pkb-fio-2.17-group-reporting.json", NULL, "L", &rs);
	assert_int_equal(nlabels(&rs), 2);
	check(&rs, "L rand_16k_read_100%-io-depth-1-num-jobs-2", "read_bw", "bs_kb", 16, 129386, 0, "KiB/s");
	check(&rs, "L rand_16k_read_100%-io-depth-1-num-jobs-2", "read_iops", "bs_kb", 16, 8086.673998, 1e-9, "IOPS");
	check(&rs, "L rand_16k_read_100%-io-depth-1-num-jobs-2", "read_clat_avg", "bs_kb", 16, 238.357679, 1e-9, "us");
	check(&rs, "L rand_16k_read_100%-io-depth-1-num-jobs-2", "read_clat_p50", "bs_kb", 16, 96, 0, "us");
	check(&rs, "L rand_16k_write_100%-io-depth-1-num-jobs-2", "write_bw", "bs_kb", 16, 39312, 0, "KiB/s");
	check(&rs, "L rand_16k_write_100%-io-depth-1-num-jobs-2", "write_clat_avg", "bs_kb", 16, 800.193694,
	      1e-9, "us");
	check(&rs, "L rand_16k_write_100%-io-depth-1-num-jobs-2", "write_clat_p50", "bs_kb", 16, 548, 0, "us");
	result_set_free(&rs);
	/* the default label (the file name) and the job name do not fit 63
	 * characters: the file name gives way, the job's name stays */
	parse(BO "fio/pkb-fio-2.17-group-reporting.json", NULL, NULL, &rs);
	check(&rs, "pkb-fio-2.17-group-rep rand_16k_read_100%-io-depth-1-num-jobs-2", "read_bw", "bs_kb", 16,
	      129386, 0, "KiB/s");
	check(&rs, "pkb-fio-2.17-group-re rand_16k_write_100%-io-depth-1-num-jobs-2", "write_bw", "bs_kb", 16,
	      39312, 0, "KiB/s");
	result_set_free(&rs);
}

/* fio 2.1.10 --minimal, two groups of one job name each (tables/work/,
 * session 39): under the default label (the file name, 58 characters)
 * each group keeps its job's name, as a person quotes it, not "g0"
 * (the file name gives way to fit 63 characters). */
static void test_fio_terse_groups_keep_job_names(void **st)
{
	(void)st;
	struct result_set rs;
	parse("tests/fixtures/tables/work/fio-2.1.10-minimal-numjobs-2-group-reporting-seq-64k-2026.txt", NULL,
	      NULL, &rs);
	assert_int_equal(nlabels(&rs), 2);
	check(&rs, "fio-2.1.10-minimal-numjobs-2-group-reporting-seq-64 seqread-64k", "read_bw", "run", 0,
	      426346, 0, "KiB/s");
	check(&rs, "fio-2.1.10-minimal-numjobs-2-group-reporting-seq-6 seqwrite-64k", "write_bw", "run",
	      0, 570722, 0, "KiB/s");
	result_set_free(&rs);
}

/* fio-3.33 --client to two servers on loopback (issue 28): each client's
 * entries are its own result, labelled by the client (fio's "hostname",
 * here the same address twice, so with its port); "All clients" (fio's sum
 * over every client and group) is not used. */
static void test_fio_client_server_json(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "fio/fio-3.33-client-server-2clients.json", NULL, "L", &rs);
	assert_int_equal(nlabels(&rs), 4);
	check(&rs, "L 127.0.0.1:18765 seqwrite", "write_bw", "bs_kb", 256, 4996108, 0, "KiB/s");
	check(&rs, "L 127.0.0.1:18766 seqwrite", "write_bw", "bs_kb", 256, 4981189, 0, "KiB/s");
	check(&rs, "L 127.0.0.1:18766 seqwrite", "write_iops", "bs_kb", 256, 19457.771114, 1e-6, "IOPS");
	check(&rs, "L 127.0.0.1:18765 randread", "read_bw", "bs_kb", 4, 140197, 0, "KiB/s");
	check(&rs, "L 127.0.0.1:18766 randread", "read_iops", "bs_kb", 4, 35976.011994, 1e-6, "IOPS");
	assert_false(has(&rs, "L 127.0.0.1:18765 randread", "write_bw"));
	result_set_free(&rs);
}

/* The same two clients, normal output: each client's report is its own,
 * named by the "<vm> " line fio prints just before it; both servers ran
 * on one machine ("vm"), so the second is "vm#2".  fio's "All clients"
 * block (every group summed, given groupid 1) is not read. */
static void test_fio_client_server_text(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "fio/fio-3.33-client-server-2clients-normal.txt", NULL, "L", &rs);
	assert_int_equal(nlabels(&rs), 4);
	/* write: IOPS=19.5k, BW=4867MiB/s and write: IOPS=19.3k, BW=4815MiB/s */
	check(&rs, "L vm seqwrite", "write_bw", "bs_kb", 256, 4867, 0, "MiB/s");
	check(&rs, "L vm#2 seqwrite", "write_bw", "bs_kb", 256, 4815, 0, "MiB/s");
	check(&rs, "L vm seqwrite", "write_iops", "bs_kb", 256, 19500, 1e-6, "IOPS");
	/* read: IOPS=20.5k, BW=79.9MiB/s and read: IOPS=13.7k, BW=53.7MiB/s */
	check(&rs, "L vm randread", "read_bw", "bs_kb", 4, 79.9, 0, "MiB/s");
	check(&rs, "L vm#2 randread", "read_iops", "bs_kb", 4, 13700, 1e-6, "IOPS");
	/* one job a client and group: its latencies are its own */
	/* "clat (nsec): ... avg=48234.68" */
	check(&rs, "L vm randread", "read_clat_avg", "bs_kb", 4, 48234.68, 0, "ns");
	assert_false(has(&rs, "L vm randread", "write_bw"));
	result_set_free(&rs);
}

/* fio 3.1 --client to two servers of one machine, one job each
 * (tables/work/, session 39): the first report comes before any "<vm> "
 * line (client1), the second after one (vm); each label also carries
 * the job the report is of, so the two are told apart by what they ran. */
static void test_fio_client_one_job_each_named_by_job(void **st)
{
	(void)st;
	struct result_set rs;
	parse("tests/fixtures/tables/work/fio-3.1-client-server-loopback-seqwrite-randread-2026.txt", NULL,
	      "L", &rs);
	assert_int_equal(nlabels(&rs), 2);
	/* "write: IOPS=7006, BW=876MiB/s", "read: IOPS=14.0k, BW=110MiB/s" */
	check(&rs, "L client1 seqwrite-c", "write_bw", "run", 0, 876, 0, "MiB/s");
	check(&rs, "L vm randread-d", "read_bw", "run", 0, 110, 0, "MiB/s");
	check(&rs, "L vm randread-d", "read_clat_avg", "run", 0, 70.64, 0, "us");
	result_set_free(&rs);
}

/* fio 2.x names binary units as if decimal ("KB" is KiB, "MB" MiB): a
 * figure is given as printed, its unit by what fio meant, so that a 2.x
 * run and a 3.x run pool right (99.5 "MB/s" of 2.x is 99.5 MiB/s, not
 * 94.9). */
static void test_fio_v2_binary_units(void **st)
{
	(void)st;
	static const char text[] =
		"w: (g=0): rw=write, bs=64K-64K/64K-64K/64K-64K, ioengine=sync, iodepth=1\n"
		"fio-2.2.10\n"
		"w: (groupid=0, jobs=1): err= 0: pid=1: Mon Jan  4 10:00:00 2016\n"
		"  write: io=1000.0MB, bw=99.5MB/s, iops=1592, runt= 10050msec\n"
		"r: (groupid=1, jobs=1): err= 0: pid=2: Mon Jan  4 10:00:10 2016\n"
		"  read : io=19360KB, bw=1935.9KB/s, iops=483, runt= 10001msec\n";
	struct result_set rs;
	parse_text(text, "fio", "L", &rs);
	const struct result_point *w = pt(&rs, "L w", "write_bw"), *r = pt(&rs, "L r", "read_bw");
	assert_double_equal(w->value, 99.5, 0);
	assert_string_equal(w->unit, "MiB/s");
	assert_double_equal(r->value, 1935.9, 0);
	assert_string_equal(r->unit, "KiB/s");
	result_set_free(&rs);

	/* two clones (numjobs=2, no group_reporting): the job's bandwidth is
	 * fio's own sum, 2.x's "aggrb=" under "Run status group 0", not the
	 * sum of the clones' rounded figures (49.6 + 49.6) */
	static const char clones[] =
		"w: (g=0): rw=write, bs=64K-64K/64K-64K/64K-64K, ioengine=sync, iodepth=1\n"
		"...\n"
		"fio-2.2.10\n"
		"w: (groupid=0, jobs=1): err= 0: pid=1: Mon Jan  4 10:00:00 2016\n"
		"  write: io=500.0MB, bw=49.6MB/s, iops=793, runt= 10080msec\n"
		"w: (groupid=0, jobs=1): err= 0: pid=2: Mon Jan  4 10:00:00 2016\n"
		"  write: io=500.0MB, bw=49.6MB/s, iops=792, runt= 10081msec\n"
		"\n"
		"Run status group 0 (all jobs):\n"
		"  WRITE: io=1000.0MB, aggrb=99.3MB/s, minb=49.6MB/s, maxb=49.6MB/s, mint=10080msec, maxt=10081msec\n";
	parse_text(clones, "fio", "L", &rs);
	w = pt(&rs, "L", "write_bw");
	assert_double_equal(w->value, 99.3, 0);
	assert_string_equal(w->unit, "MiB/s");
	assert_double_equal(pt(&rs, "L", "write_iops")->value, 793 + 792, 0);
	result_set_free(&rs);
}

/* numjobs=2 without group_reporting, fio 2.1.10 normal text (tables/work/,
 * session 39): the job's sum as before (2.x's "aggrb=197409KB/s", the
 * IOPS added) under the run label; each clone's own "bw=97827KB/s",
 * "iops=12228", "clat (usec): avg=80.85" and "lat (usec): avg=81.00"
 * beside it, named by its job (the report has one group, whose label
 * names none). */
static void test_fio_clones_v2_text(void **st)
{
	(void)st;
	struct result_set rs;
	parse("tests/fixtures/tables/work/fio-2.1.10-numjobs-2-no-group-reporting-2026.txt", NULL, "L", &rs);
	check(&rs, "L", "write_bw", "bs_kb", 8, 197409, 0, "KiB/s");
	check(&rs, "L", "write_iops", "bs_kb", 8, 12228 + 12447, 0, "IOPS");
	static const char *const kib[2] = { "KiB/s", "KiB/s" }, *const iops[2] = { "IOPS", "IOPS" },
			  *const us[2] = { "us", "us" };
	const char *job = "L randwrite-8k";
	check_clones(&rs, job, "write_bw_per_job", "bs_kb", 8, (const double[]){ 97827, 99582 }, kib, 2, "L",
		     "write_bw");
	check_clones(&rs, job, "write_iops_per_job", "bs_kb", 8, (const double[]){ 12228, 12447 }, iops, 2, "L",
		     "write_bw");
	check_clones(&rs, job, "write_clat_avg", "bs_kb", 8, (const double[]){ 80.85, 79.43 }, us, 2, "L", "write_bw");
	check_clones(&rs, job, "write_lat_avg", "bs_kb", 8, (const double[]){ 81.00, 79.57 }, us, 2, "L", "write_bw");
	assert_false(has(&rs, "L", "write_clat_avg"));
	assert_false(has(&rs, job, "write_clat_p99"));
	assert_false(has(&rs, job, "write_bw"));
	result_set_free(&rs);

	/* group_reporting: one block ("jobs=2") with its own latency, no clones */
	parse("tests/fixtures/tables/work/fio-2.2.10-numjobs-2-group-reporting-2026.txt", NULL, "L", &rs);
	check(&rs, "L", "read_bw", "bs_kb", 8, 202029, 0, "KiB/s");
	check(&rs, "L", "read_clat_avg", "bs_kb", 8, 78.48, 0, "us");
	for (size_t i = 0; i < rs.n; i++)
		assert_null(strstr(rs.v[i].metric, "_per_job"));
	result_set_free(&rs);
}

/* The same in fio 2.2.10 --minimal (terse v3): each line is a clone;
 * bandwidth KiB/s, latency means us, as terse gives them. */
static void test_fio_clones_terse(void **st)
{
	(void)st;
	struct result_set rs;
	parse("tests/fixtures/tables/work/fio-2.2.10-minimal-numjobs-2-no-group-reporting-2026.txt", NULL, "L", &rs);
	check(&rs, "L", "write_bw", "run", 0, 108981 + 108545, 0, "KiB/s");
	check(&rs, "L", "write_iops", "run", 0, 13622 + 13568, 0, "IOPS");
	static const char *const kib[2] = { "KiB/s", "KiB/s" }, *const iops[2] = { "IOPS", "IOPS" },
			  *const us[2] = { "us", "us" };
	const char *job = "L randwrite-8k";
	check_clones(&rs, job, "write_bw_per_job", "run", 0, (const double[]){ 108981, 108545 }, kib, 2, "L",
		     "write_bw");
	check_clones(&rs, job, "write_iops_per_job", "run", 0, (const double[]){ 13622, 13568 }, iops, 2, "L",
		     "write_bw");
	check_clones(&rs, job, "write_clat_avg", "run", 0, (const double[]){ 72.556183, 72.876906 }, us, 2, "L",
		     "write_bw");
	check_clones(&rs, job, "write_lat_avg", "run", 0, (const double[]){ 72.699512, 73.009355 }, us, 2, "L",
		     "write_bw");
	/* the reads the lines hold are zero: no read figures at all */
	assert_false(has(&rs, "L", "read_bw"));
	assert_false(has(&rs, job, "read_bw_per_job"));
	result_set_free(&rs);
}

/* fio 3.1 --status-interval=1 of two clones: the final report's clones
 * only ("BW=104MiB/s", "IOPS=13.3k", clat avg 74.24 and 74.28; not the
 * interim report's 74.34 and 74.50), beside fio's sum "bw=208MiB/s". */
static void test_fio_clones_status_interval(void **st)
{
	(void)st;
	struct result_set rs;
	parse("tests/fixtures/tables/work/fio-3.1-status-interval-1s-numjobs-2-2026.txt", NULL, "L", &rs);
	check(&rs, "L", "write_bw", "bs_kb", 8, 208, 0, "MiB/s");
	static const char *const mib[2] = { "MiB/s", "MiB/s" }, *const iops[2] = { "IOPS", "IOPS" },
			  *const us[2] = { "us", "us" };
	const char *job = "L randwrite-8k";
	check_clones(&rs, job, "write_bw_per_job", "bs_kb", 8, (const double[]){ 104, 104 }, mib, 2, "L", "write_bw");
	check_clones(&rs, job, "write_iops_per_job", "bs_kb", 8, (const double[]){ 13300, 13300 }, iops, 2, "L",
		     "write_bw");
	check_clones(&rs, job, "write_clat_avg", "bs_kb", 8, (const double[]){ 74.24, 74.28 }, us, 2, "L", "write_bw");
	check_clones(&rs, job, "write_lat_avg", "bs_kb", 8, (const double[]){ 74.40, 74.45 }, us, 2, "L", "write_bw");
	result_set_free(&rs);
}

/* --client to two hosts, each running two clones of one job: each host's
 * clones are its own (never pooled with the other host's), under the
 * label its sum has ("L host job"); "All clients" gives none. */
static void test_fio_clones_client(void **st)
{
	(void)st;
	static const char text[] =
		"hostname=a, be=0, 64-bit, os=Linux, arch=x86-64, fio=fio-3.33, flags=1\n"
		"hostname=b, be=0, 64-bit, os=Linux, arch=x86-64, fio=fio-3.33, flags=1\n"
		"<a> w: (g=0): rw=write, bs=(R) 64.0KiB-64.0KiB, (W) 64.0KiB-64.0KiB, (T) 64.0KiB-64.0KiB, ioengine=psync, iodepth=1\n"
		"<b> w: (g=0): rw=write, bs=(R) 64.0KiB-64.0KiB, (W) 64.0KiB-64.0KiB, (T) 64.0KiB-64.0KiB, ioengine=psync, iodepth=1\n"
		"<a> \n"
		"w: (groupid=0, jobs=1): err= 0: pid=1: Sat Dec  5 15:00:00 2026\n"
		"  write: IOPS=800, BW=50.0MiB/s (52.4MB/s)(100MiB/2000msec); 0 zone resets\n"
		"    clat (usec): min=7, max=3342, avg=40.15, stdev=5.15\n"
		"     lat (usec): min=8, max=3343, avg=41.20, stdev=5.20\n"
		"w: (groupid=0, jobs=1): err= 0: pid=2: Sat Dec  5 15:00:00 2026\n"
		"  write: IOPS=790, BW=49.4MiB/s (51.8MB/s)(98.8MiB/2000msec); 0 zone resets\n"
		"    clat (usec): min=7, max=3342, avg=41.00, stdev=5.15\n"
		"     lat (usec): min=8, max=3343, avg=42.10, stdev=5.20\n"
		"\n"
		"Run status group 0 (all jobs):\n"
		"  WRITE: bw=99.4MiB/s (104MB/s), 49.4MiB/s-50.0MiB/s (51.8MB/s-52.4MB/s), io=199MiB (208MB), run=2000-2000msec\n"
		"<b> \n"
		"w: (groupid=0, jobs=1): err= 0: pid=3: Sat Dec  5 15:00:00 2026\n"
		"  write: IOPS=600, BW=37.5MiB/s (39.3MB/s)(75.0MiB/2000msec); 0 zone resets\n"
		"    clat (usec): min=7, max=3342, avg=60.00, stdev=5.15\n"
		"w: (groupid=0, jobs=1): err= 0: pid=4: Sat Dec  5 15:00:00 2026\n"
		"  write: IOPS=610, BW=38.1MiB/s (40.0MB/s)(76.2MiB/2000msec); 0 zone resets\n"
		"    clat (usec): min=7, max=3342, avg=59.00, stdev=5.15\n"
		"\n"
		"Run status group 0 (all jobs):\n"
		"  WRITE: bw=75.6MiB/s (79.3MB/s), 37.5MiB/s-38.1MiB/s (39.3MB/s-40.0MB/s), io=151MiB (158MB), run=2000-2000msec\n"
		"All clients: (groupid=0, jobs=4): err= 0: pid=0: Sat Dec  5 15:00:00 2026\n"
		"  write: IOPS=2800, BW=175MiB/s (184MB/s)(350MiB/2000msec); 0 zone resets\n"
		"    clat (usec): min=7, max=3342, avg=50.00, stdev=5.15\n";
	struct result_set rs;
	parse_text(text, "fio", "L", &rs);
	static const char *const mib[2] = { "MiB/s", "MiB/s" }, *const us[2] = { "us", "us" };
	check(&rs, "L a w", "write_bw", "bs_kb", 64, 99.4, 0, "MiB/s");
	check_clones(&rs, "L a w", "write_bw_per_job", "bs_kb", 64, (const double[]){ 50.0, 49.4 }, mib, 2, "L a w",
		     "write_bw");
	check_clones(&rs, "L a w", "write_clat_avg", "bs_kb", 64, (const double[]){ 40.15, 41.00 }, us, 2, "L a w",
		     "write_bw");
	check(&rs, "L b w", "write_bw", "bs_kb", 64, 75.6, 0, "MiB/s");
	check_clones(&rs, "L b w", "write_bw_per_job", "bs_kb", 64, (const double[]){ 37.5, 38.1 }, mib, 2, "L b w",
		     "write_bw");
	check_clones(&rs, "L b w", "write_clat_avg", "bs_kb", 64, (const double[]){ 60.00, 59.00 }, us, 2, "L b w",
		     "write_bw");
	/* b printed no total latency: none */
	assert_false(has(&rs, "L b w", "write_lat_avg"));
	/* "All clients" (every client summed): nothing of it */
	for (size_t i = 0; i < rs.n; i++)
		assert_false(rs.v[i].value == 175 || rs.v[i].value == 2800);
	result_set_free(&rs);
}

/* fio-2.2.10 normal output ("read : io=4096.0MB, bw=611058KB/s, iops=152764,
 * runt=  6864msec", KB = KiB), five runs of one job file in one log
 * (dyu/vps-comparison): five runs, each its own figures. */
static void test_fio_v2_text_runs(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "fio/vpscmp-fio-2.2.10-randread-5runs.log", NULL, "L", &rs);
	static const double bw[5] = { 611058, 502252, 592500, 541760, 662189 };
	static const double iops[5] = { 152764, 125562, 148124, 135439, 165547 };
	static const double clat[5] = { 825.75, 1005.48, 852.78, 931.38, 760.88 };
	static const double p99[5] = { 3216, 3664, 2576, 4128, 1864 };
	assert_int_equal(nruns(&rs, "read_bw"), 5);
	for (int r = 0; r < 5; r++) {
		const struct result_point *p = ptr(&rs, "L", "read_bw", r);
		assert_string_equal(p->x_name, "bs_kb");
		assert_double_equal(p->x, 4, 0);
		assert_double_equal(p->value, bw[r], 0);
		/* fio 2.x's "bw=611058KB/s": the figure as printed, its unit
		 * by what fio 2.x meant (KiB), so it pools right with 3.x's */
		assert_string_equal(p->unit, "KiB/s");
		assert_double_equal(ptr(&rs, "L", "read_iops", r)->value, iops[r], 0);
		/* jobs=8 in one block (group_reporting): its latency stands */
		assert_double_equal(ptr(&rs, "L", "read_clat_avg", r)->value, clat[r], 1e-9);
		assert_double_equal(ptr(&rs, "L", "read_clat_p99", r)->value, p99[r], 0);
	}
	assert_false(has(&rs, "L", "write_bw"));
	result_set_free(&rs);
}

/* --- sysbench ---------------------------------------------------------- */

/* sysbench 0.4.12 fileio rndrw, five runs in one log (dyu/vps-comparison):
 * "Total transferred 5.2176Gb  (17.81Mb/sec)", "4559.24 Requests/sec
 * executed", per-request statistics in ms; per-direction rates are the
 * counts and sizes over "total time", as sysbench computes its Mb/sec. */
static void test_sysbench_04_runs(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "sysbench/vpscmp-sysbench-0.4.12-randrw-runs.log", NULL, "L", &rs);
	static const double total_bw[5] = { 17.81, 21.107, 22.535, 21.232, 24.315 };
	static const double req[5] = { 4559.24, 5403.31, 5768.97, 5435.32, 6224.63 };
	static const double rd[5] = { 820665, 972598, 1038420, 978360, 1120440 };
	static const double wr[5] = { 547110, 648398, 692280, 652240, 746960 };
	static const double oth[5] = { 1750656, 2074752, 2215275, 2087133, 2390172 };
	static const double rgb[5] = { 3.1306, 3.7102, 3.9613, 3.7321, 4.2741 };
	static const double wgb[5] = { 2.0871, 2.4734, 2.6408, 2.4881, 2.8494 };
	static const double secs[5] = { 300.0009, 300.0005, 300.0016, 300.0007, 300.0015 };
	static const double avg[5] = { 0.10, 0.07, 0.06, 0.06, 0.06 };
	static const double max[5] = { 31.12, 22.11, 15.97, 18.44, 14.68 };
	static const double p95[5] = { 0.27, 0.20, 0.12, 0.12, 0.11 };
	assert_int_equal(nruns(&rs, "total_bw"), 5);
	for (int r = 0; r < 5; r++) {
		const struct result_point *p = ptr(&rs, "L", "total_bw", r);
		assert_string_equal(p->x_name, "threads");
		assert_double_equal(p->x, 1, 0);
		assert_double_equal(p->value, total_bw[r], 1e-9);
		assert_string_equal(p->unit, "MiB/s");
		assert_double_equal(ptr(&rs, "L", "requests_per_s", r)->value, req[r], 1e-9);
		assert_double_equal(ptr(&rs, "L", "reads_per_s", r)->value, rd[r] / secs[r], 1e-9);
		assert_double_equal(ptr(&rs, "L", "writes_per_s", r)->value, wr[r] / secs[r], 1e-9);
		assert_double_equal(ptr(&rs, "L", "fsyncs_per_s", r)->value, oth[r] / secs[r], 1e-9);
		assert_double_equal(ptr(&rs, "L", "read_bw", r)->value, rgb[r] * 1024 / secs[r], 1e-9);
		assert_double_equal(ptr(&rs, "L", "write_bw", r)->value, wgb[r] * 1024 / secs[r], 1e-9);
		/* the rates agree with sysbench's own, to its rounding */
		assert_double_equal(ptr(&rs, "L", "read_bw", r)->value + ptr(&rs, "L", "write_bw", r)->value,
				    total_bw[r], 0.01);
		assert_double_equal(ptr(&rs, "L", "latency_avg", r)->value, avg[r], 1e-12);
		assert_double_equal(ptr(&rs, "L", "latency_max", r)->value, max[r], 1e-12);
		assert_double_equal(ptr(&rs, "L", "latency_p95", r)->value, p95[r], 1e-12);
	}
	result_set_free(&rs);
}

/* sysbench 0.4 prints its rate in the unit its size calls for: a fast
 * sequential write gives "(1.223Gb/sec)".  These are the report lines of
 * a real 0.4.12 seqwr run quoted in a blog post (MacOS to Ubuntu, part 7),
 * the post's bold markers taken out; total_bw was lost when not in Mb,
 * and is now kept as printed, in the unit printed (Gb is GiB). */
static void test_sysbench_04_gb_per_sec(void **st)
{
	(void)st;
	const char *out =
		"sysbench 0.4.12:  multi-threaded system evaluation benchmark\n"
		"Running the test with following options:  \n"
		"Number of threads: 1  \n"
		"Operations performed:  0 Read, 655360 Write, 128 Other = 655488 Total  \n"
		"Read 0b  Written 10Gb  Total transferred 10Gb  (1.223Gb/sec)  \n"
		"80153.38 Requests/sec executed\n"
		"Test execution summary:  \n"
		"    total time:                          8.1763s  \n";
	struct result_set rs = { 0 };
	struct parser *p = parser_new("sysbench", "L");
	struct result_sink sink = result_set_sink(&rs);
	parser_feed(p, out, strlen(out), &sink);
	parser_finish(p, &sink);
	parser_free(p);
	check(&rs, "L", "total_bw", "threads", 1, 1.223, 1e-9, "GiB/s");
	check(&rs, "L", "write_bw", "threads", 1, 10 * 1024 / 8.1763, 1e-9, "MiB/s");
	check(&rs, "L", "requests_per_s", "threads", 1, 80153.38, 1e-9, "/s");
	result_set_free(&rs);
}

/* A sysbench 0.5 OLTP run (MariaDB benchmark archive): its "response
 * time:" block is per transaction, not per I/O request, so nothing of it
 * may become a fileio figure; the reason is said.  A fileio run after it
 * in the same log is read as ever. */
static void test_sysbench_05_oltp_not_fileio(void **st)
{
	(void)st;
	const char *oltp = BO "sysbench/mdbbench-sysbench-0.5-oltp-1thread.res";
	struct result_set rs = { 0 };
	char err[512];
	assert_int_equal(parser_parse_file(oltp, NULL, "L", &rs, err, sizeof(err)), -ENODATA);
	assert_int_equal(rs.n, 0);
	assert_non_null(strstr(err, "line 73: sysbench OLTP report: not read"));
	/* the OLTP run, then the five 0.4.12 fileio runs, fed live */
	FILE *f = fopen(oltp, "rb");
	assert_non_null(f);
	char buf[16384];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(n > 0 && n < sizeof(buf));
	struct parser *p = parser_new("auto", "L");
	struct result_sink sink = result_set_sink(&rs);
	parser_feed(p, buf, n, &sink);
	f = fopen(BO "sysbench/vpscmp-sysbench-0.4.12-randrw-runs.log", "rb");
	assert_non_null(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		parser_feed(p, buf, n, &sink);
	fclose(f);
	parser_finish(p, &sink);
	assert_string_equal(parser_name(p), "sysbench");
	const struct parser_note *notes;
	assert_int_equal(parser_notes(p, &notes), 1);
	assert_false(notes[0].understood);
	assert_int_equal(notes[0].first, 73);
	parser_free(p);
	assert_int_equal(nruns(&rs, "latency_avg"), 5);
	assert_double_equal(ptr(&rs, "L", "latency_avg", 0)->value, 0.10, 1e-12);   /* the first fileio run */
	assert_double_equal(ptr(&rs, "L", "latency_max", 0)->value, 31.12, 1e-12);
	assert_int_equal(nruns(&rs, "total_bw"), 5);
	result_set_free(&rs);
}

/* sysbench "1.0" of 2016 (before 1.0.0), as quoted in akopytov/sysbench
 * issue 72: 1.0's File operations / Throughput blocks with 0.5's
 * "response time:" block under General statistics. */
static void test_sysbench_10pre(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "sysbench/sysbench-issue72-1.0pre-fileio-rndrw-8threads.txt", NULL, "L", &rs);
	check(&rs, "L", "reads_per_s", "threads", 8, 8259.22, 1e-9, "/s");
	check(&rs, "L", "writes_per_s", "threads", 8, 5499.26, 1e-9, "/s");
	check(&rs, "L", "fsyncs_per_s", "threads", 8, 17610.85, 1e-9, "/s");
	check(&rs, "L", "read_bw", "threads", 8, 129.05, 1e-9, "MiB/s");
	check(&rs, "L", "write_bw", "threads", 8, 85.93, 1e-9, "MiB/s");
	check(&rs, "L", "latency_avg", "threads", 8, 0.18, 1e-12, "ms");
	check(&rs, "L", "latency_max", "threads", 8, 1.98, 1e-12, "ms");
	check(&rs, "L", "latency_p95", "threads", 8, 0.54, 1e-12, "ms");
	assert_int_equal(rs.n, 8);
	result_set_free(&rs);
}

/* A run that failed (sysbench 0.9, the 0.5 report layout, quoted in
 * akopytov/sysbench issue 29): after "FATAL: Failed to read file!" it
 * still prints its report, all zeros ("0 reads, 0 writes", "0.00
 * Requests/sec", avg 0.00ms).  Those are not results: none is given, and
 * the reason is said.  A good run after it is read. */
static void test_sysbench_fatal_run(void **st)
{
	(void)st;
	const char *fatal = BO "sysbench/sysbench-issue29-0.9-fileio-fatal.txt";
	const char *good = BO "sysbench/sysbench-issue72-1.0pre-fileio-rndrw-8threads.txt";
	struct result_set rs = { 0 };
	char err[512];
	assert_int_equal(parser_parse_file(fatal, NULL, "L", &rs, err, sizeof(err)), -ENODATA);
	assert_int_equal(rs.n, 0);
	assert_non_null(strstr(err, "line 22: sysbench run failed (FATAL: Failed to read file!"));
	struct parser *p = parser_new("sysbench", "L");
	struct result_sink sink = result_set_sink(&rs);
	for (int i = 0; i < 2; i++) {
		FILE *f = fopen(i ? good : fatal, "rb");
		assert_non_null(f);
		char buf[4096];
		size_t n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		parser_feed(p, buf, n, &sink);
	}
	parser_finish(p, &sink);
	parser_free(p);
	assert_int_equal(rs.n, 8);
	check(&rs, "L", "reads_per_s", "threads", 8, 8259.22, 1e-9, "/s");
	check(&rs, "L", "latency_avg", "threads", 8, 0.18, 1e-12, "ms");
	result_set_free(&rs);
}

/* sysbench 1.1.0 (built from akopytov/sysbench master, run here):
 * "read:  IOPS=32302.22 504.72 MiB/s (529.24 MB/s)". */
static void test_sysbench_11(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "sysbench/sysbench-1.1.0-fileio-rndrw-2threads.txt", NULL, "L", &rs);
	check(&rs, "L", "reads_per_s", "threads", 2, 32302.22, 1e-9, "/s");
	check(&rs, "L", "read_bw", "threads", 2, 504.72, 1e-9, "MiB/s");
	check(&rs, "L", "writes_per_s", "threads", 2, 21534.93, 1e-9, "/s");
	check(&rs, "L", "write_bw", "threads", 2, 336.48, 1e-9, "MiB/s");
	check(&rs, "L", "fsyncs_per_s", "threads", 2, 2147.90, 1e-9, "/s");
	check(&rs, "L", "latency_avg", "threads", 2, 0.04, 1e-12, "ms");
	check(&rs, "L", "latency_max", "threads", 2, 50.44, 1e-12, "ms");
	check(&rs, "L", "latency_p95", "threads", 2, 0.01, 1e-12, "ms");
	assert_int_equal(rs.n, 8);
	result_set_free(&rs);
}

/* --- sysbench 0.4/0.5 built and run here -------------------------------- */

/* The final figures of one 0.4/0.5 fileio report, as printed: the
 * "Operations performed" counts, the "Read"/"Written" sizes (MiB), the
 * "(X Mb/sec)" rate as printed (MiB/s; GiB/s where gb is set: "(9.4391Gb/sec)"),
 * "Requests/sec executed", "total time" and the per-request statistics (ms). */
struct sysbench_old {
	double threads, ops[3], mib[2], total_bw, req, secs, avg, max, p95;
	bool gb;
};

static void check_sysbench_old(const struct result_set *rs, const struct sysbench_old *e)
{
	static const char *const ops_m[3] = { "reads_per_s", "writes_per_s", "fsyncs_per_s" };
	check(rs, "L", "total_bw", "threads", e->threads, e->total_bw, 1e-9, e->gb ? "GiB/s" : "MiB/s");
	double total_mib = e->gb ? e->total_bw * 1024 : e->total_bw;
	check(rs, "L", "requests_per_s", "threads", e->threads, e->req, 1e-9, "/s");
	for (int i = 0; i < 3; i++)
		check(rs, "L", ops_m[i], "threads", e->threads, e->ops[i] / e->secs, 1e-9, "/s");
	check(rs, "L", "read_bw", "threads", e->threads, e->mib[0] / e->secs, 1e-9, "MiB/s");
	check(rs, "L", "write_bw", "threads", e->threads, e->mib[1] / e->secs, 1e-9, "MiB/s");
	/* the per-direction rates agree with sysbench's own total, to its rounding */
	assert_double_equal(pt(rs, "L", "read_bw")->value + pt(rs, "L", "write_bw")->value, total_mib,
			    total_mib * 1e-3);
	check(rs, "L", "latency_avg", "threads", e->threads, e->avg, 1e-12, "ms");
	check(rs, "L", "latency_max", "threads", e->threads, e->max, 1e-12, "ms");
	if (isnan(e->p95))
		assert_false(has(rs, "L", "latency_p95"));
	else
		check(rs, "L", "latency_p95", "threads", e->threads, e->p95, 1e-12, "ms");
}

/* The k-th (from 0) progress point of metric. */
static const struct result_point *prog(const struct result_set *rs, const char *metric, int k)
{
	for (size_t i = 0; i < rs->n; i++)
		if ((rs->v[i].flags & RP_PROGRESS) && strcmp(rs->v[i].metric, metric) == 0 && k-- == 0)
			return &rs->v[i];
	print_error("no progress point %s #%d\n", metric, k);
	fail();
	return NULL;
}

static size_t nprog(const struct result_set *rs, const char *metric)
{
	size_t n = 0;
	for (size_t i = 0; i < rs->n; i++)
		n += (rs->v[i].flags & RP_PROGRESS) && strcmp(rs->v[i].metric, metric) == 0;
	return n;
}

/* sysbench 0.5 (akopytov/sysbench branch 0.5, built and run here) fileio,
 * four test modes on 64 MiB in 4 files, 2 threads, 5 s: "0 reads, 257700
 * writes, 10304 Other", "Read 0b  Written 3.9322Gb  Total transferred
 * 3.9322Gb  (805.13Mb/sec)" (the rate in Gb/sec when it is one),
 * "response time:" statistics in ms. */
static void test_sysbench_05_fileio_modes(void **st)
{
	(void)st;
	static const struct {
		const char *file;
		struct sysbench_old e;
	} runs[] = {
		{ "seqwr", { 2, { 0, 257700, 10304 }, { 0, 3.9322 * 1024 }, 805.13, 51528.31, 5.0011, 0.00, 3.45, 0.01, false } },
		{ "seqrd", { 2, { 3093077, 0, 0 }, { 47.197 * 1024, 0 }, 9.4391, 618602.21, 5.0001, 0.00, 8.02, 0.00, true } },
		{ "rndrd", { 2, { 3761978, 0, 0 }, { 57.403 * 1024, 0 }, 11.48, 752382.78, 5.0001, 0.00, 8.79, 0.00, true } },
		{ "rndrw", { 2, { 197879, 131921, 13191 }, { 3.0194 * 1024, 2.013 * 1024 }, 1.0064, 65954.80, 5.0004,
			     0.00, 0.45, 0.00, true } },
	};
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char path[256];
		snprintf(path, sizeof(path), BO "sysbench/sysbench-0.5-fileio-64M-4files-%s-2threads-5s.txt", runs[i].file);
		struct result_set rs;
		parse(path, NULL, "L", &rs);
		check_sysbench_old(&rs, &runs[i].e);
		assert_int_equal(rs.n, 10);
		result_set_free(&rs);
	}
}

/* sysbench 0.5 and the 0.4 branch (which calls itself 0.4.12) with
 * --report-interval=1: "[   1s] reads: 327.72 MB/s writes: 218.48 MB/s
 * fsyncs: 1395.87/s response time: 0.051ms (95%)".  Their "MB" is MiB
 * (sb_fileio.c divides by 1024 * 1024); the latency is the percentile
 * the bracket names, a p95 only when it says 95 (--percentile=99 makes it
 * "(99%)", and the final "approx.  99 percentile:"). */
static void test_sysbench_05_report_interval(void **st)
{
	(void)st;
	static const struct {
		const char *file;
		int n;
		double rd[4], wr[4], fs[4], lat[4];
		struct sysbench_old e;
	} runs[] = {
		{ "0.5-fileio-64M-4files-rndrw-direct-2threads-report-interval-1s", 4,
		  { 327.72, 359.41, 360.04, 340.04 }, { 218.48, 239.64, 240.01, 226.68 },
		  { 1395.87, 1531.97, 1540.04, 1447.96 }, { 0.051, 0.047, 0.047, 0.050 },
		  { 2, { 104321, 69548, 6952 }, { 1.5918 * 1024, 1.0612 * 1024 }, 543.33, 34772.86, 5.0001, 0.04, 1.31, 0.05, false } },
		{ "0.4.12-branch-fileio-64M-4files-rndrw-direct-2threads-report-interval-1s", 4,
		  { 326.23, 25.45, 260.94, 253.28 }, { 217.48, 16.95, 173.97, 168.86 },
		  { 1389.90, 110.00, 1112.01, 1080.00 }, { 0.05, 0.05, 0.05, 0.06 },
		  { 2, { 55420, 36946, 3692 }, { 865.94, 577.28 }, 360.77, 23089.45, 4.0004, 0.07, 60.59, 0.05, false } },
		{ "0.5-fileio-64M-4files-rndrd-direct-1thread-report-interval-1s-percentile-99", 3,
		  { 740.46, 730.61, 739.74 }, { 0, 0, 0 }, { 0, 0, 0 }, { NAN, NAN, NAN },
		  { 1, { 141496, 0, 0 }, { 2.1591 * 1024, 0 }, 736.94, 47163.85, 3.0001, 0.02, 1.60, NAN, false } },
	};
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char path[256];
		snprintf(path, sizeof(path), BO "sysbench/sysbench-%s.txt", runs[i].file);
		struct result_set rs;
		parse(path, NULL, "L", &rs);
		check_sysbench_old(&rs, &runs[i].e);
		assert_int_equal(nprog(&rs, "read_bw"), runs[i].n);
		assert_int_equal(nprog(&rs, "write_bw"), runs[i].n);
		assert_int_equal(nprog(&rs, "fsyncs_per_s"), runs[i].n);
		assert_int_equal(nprog(&rs, "latency_p95"), isnan(runs[i].lat[0]) ? 0 : runs[i].n);
		for (int k = 0; k < runs[i].n; k++) {
			const struct result_point *p = prog(&rs, "read_bw", k);
			assert_string_equal(p->x_name, "time_s");
			assert_double_equal(p->x, k + 1, 0);
			assert_double_equal(p->value, runs[i].rd[k], 1e-9);
			assert_string_equal(p->unit, "MiB/s");
			p = prog(&rs, "write_bw", k);
			assert_double_equal(p->x, k + 1, 0);
			assert_double_equal(p->value, runs[i].wr[k], 1e-9);
			assert_string_equal(p->unit, "MiB/s");
			assert_double_equal(prog(&rs, "fsyncs_per_s", k)->value, runs[i].fs[k], 1e-9);
			if (!isnan(runs[i].lat[k])) {
				p = prog(&rs, "latency_p95", k);
				assert_double_equal(p->x, k + 1, 0);
				assert_double_equal(p->value, runs[i].lat[k], 1e-12);
				assert_string_equal(p->unit, "ms");
			}
		}
		result_set_free(&rs);
	}
}

/* prepare of 0.5 and of the 0.4 branch: "67108864 bytes written in 0.11
 * seconds (602.43 MB/sec)." (MiB, as above; 1.0 writes "MiB/sec");
 * cleanup gives no result, and says so. */
static void test_sysbench_05_prepare_cleanup(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "sysbench/sysbench-0.5-fileio-64M-4files-prepare.txt", NULL, "L", &rs);
	check(&rs, "L", "prepare_write_bw", "threads", 1, 602.43, 1e-9, "MiB/s");
	assert_int_equal(rs.n, 1);
	result_set_free(&rs);
	parse(BO "sysbench/sysbench-0.4.12-branch-fileio-64M-4files-prepare.txt", NULL, "L", &rs);
	check(&rs, "L", "prepare_write_bw", "threads", 1, 159.79, 1e-9, "MiB/s");
	assert_int_equal(rs.n, 1);
	result_set_free(&rs);
	char err[512];
	memset(&rs, 0, sizeof(rs));
	assert_int_equal(parser_parse_file(BO "sysbench/sysbench-0.5-fileio-64M-4files-cleanup.txt", NULL, "L", &rs,
					   err, sizeof(err)), -ENODATA);
	assert_int_equal(rs.n, 0);
	assert_non_null(strstr(err, "cleanup.txt"));
}

/* The 0.5 OLTP run above prints interval lines too: "[  10s] threads: 1,
 * tps: 449.50, reads/s: 6294.30, writes/s: 1798.00 response time: 3.09ms
 * (99%)", per transaction.  With sysbench's default --percentile (95) the
 * bracket says 95%: still no fileio figure may come of it. */
static void test_sysbench_05_oltp_intervals(void **st)
{
	(void)st;
	size_t n;
	FILE *f = fopen(BO "sysbench/mdbbench-sysbench-0.5-oltp-1thread.res", "rb");
	assert_non_null(f);
	static char buf[16384];
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	int k = 0;
	for (char *q = buf; (q = strstr(q, "ms (99%)")) != NULL; q++, k++)
		q[5] = '5';
	assert_true(k >= 60);   /* the 600 s run's lines, one each 10 s */
	struct result_set rs = { 0 };
	struct parser *p = parser_new("sysbench", "L");
	struct result_sink sink = result_set_sink(&rs);
	parser_feed(p, buf, n, &sink);
	parser_finish(p, &sink);
	parser_free(p);
	assert_int_equal(nprog(&rs, "latency_p95"), 0);
	assert_int_equal(rs.n, 0);
	result_set_free(&rs);
}

/* --- several tools in one log ------------------------------------------ */

/* A script ran fio, then dbench, then sysbench 1.1 into one log: each
 * section is read by its own parser, and each tool's points carry the
 * tool's name so that fio's write_bw (KiB/s) and sysbench's (MiB/s) never
 * pool. */
static void test_mixed_log(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "mixed/mixed-fio-dbench-sysbench.log", NULL, "L", &rs);
	assert_int_equal(nlabels(&rs), 3);
	/* write: IOPS=166k, BW=10.1GiB/s (10.8GB/s)(20.2GiB/2001msec) */
	check(&rs, "L fio", "write_bw", "bs_kb", 64, 10.1, 0, "GiB/s");
	check(&rs, "L fio", "write_iops", "bs_kb", 64, 166000, 1e-6, "IOPS");
	check(&rs, "L fio", "write_clat_avg", "bs_kb", 64, 5.17, 1e-12, "us");
	check(&rs, "L fio", "write_clat_p99", "bs_kb", 64, 11, 0, "us");
	/* Throughput 412.045 MB/sec  2 clients  2 procs  max_latency=195.942 ms */
	check(&rs, "L dbench", "throughput", "clients", 2, 412.045, 1e-9, "MB/s");
	check(&rs, "L dbench", "max_latency", "clients", 2, 195.942, 1e-9, "ms");
	check(&rs, "L sysbench", "write_bw", "threads", 1, 795.49, 1e-9, "MiB/s");
	check(&rs, "L sysbench", "writes_per_s", "threads", 1, 50911.59, 1e-9, "/s");
	check(&rs, "L sysbench", "fsyncs_per_s", "threads", 1, 1019.20, 1e-9, "/s");
	check(&rs, "L sysbench", "latency_max", "threads", 1, 66.71, 1e-12, "ms");
	assert_false(has(&rs, "L", "write_bw"));
	result_set_free(&rs);
}

/* The same log fed live through "auto" (no look ahead): the first tool
 * keeps the plain label until a second one shows up, and the sections still
 * go to their own parsers. */
static void test_mixed_log_live(void **st)
{
	(void)st;
	FILE *f = fopen(BO "mixed/mixed-fio-dbench-sysbench.log", "rb");
	assert_non_null(f);
	char buf[65536];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	struct parser *p = parser_new("auto", "L");
	struct result_set rs = { 0 };
	struct result_sink sink = result_set_sink(&rs);
	for (size_t i = 0; i < n; i += 7)
		parser_feed(p, buf + i, n - i < 7 ? n - i : 7, &sink);
	parser_finish(p, &sink);
	parser_free(p);
	/* fio's final figure comes at its end, after the switch: tagged too */
	check(&rs, "L fio", "write_iops", "bs_kb", 64, 166000, 1e-6, "IOPS");
	check(&rs, "L dbench", "throughput", "clients", 2, 412.045, 1e-9, "MB/s");
	check(&rs, "L sysbench", "write_bw", "threads", 1, 795.49, 1e-9, "MiB/s");
	result_set_free(&rs);
}

/* --- iozone ------------------------------------------------------------ */

/* iozone -R's Excel reports (iozone.c's dump_excel): alone they are read,
 * a file size a row, a record size a column; after the auto-mode table
 * they repeat it and are not read again (each figure once, one run). */
static void test_iozone_excel_reports(void **st)
{
	(void)st;
	static const char reports[] = "\"Writer report\"\n"
				      "        \"4\"  \"8\"\n"
				      "\"64\"   123456  234567\n"
				      "\"128\"   133456  244567\n"
				      "\n"
				      "\"Re-writer report\"\n"
				      "        \"4\"  \"8\"\n"
				      "\"64\"   323456  434567\n";
	struct result_set rs;
	parse_text(reports, "iozone", "L", &rs);
	assert_int_equal(rs.n, 6);
	const struct result_point *p = NULL;
	for (size_t i = 0; i < rs.n; i++)
		if (!strcmp(rs.v[i].label, "L 128kB") && !strcmp(rs.v[i].metric, "write") && rs.v[i].x == 8)
			p = &rs.v[i];
	assert_non_null(p);
	assert_double_equal(p->value, 244567, 0);
	assert_string_equal(p->x_name, "reclen_kb");
	result_set_free(&rs);

	char both[2048];
	snprintf(both, sizeof(both), "%s%s",
		 "\tAuto Mode\n"
		 "              kB  reclen    write  rewrite    read    reread\n"
		 "              64       4   123456   323456  1000000  1100000\n"
		 "              64       8   234567   434567  1000000  1100000\n"
		 "\n"
		 "Excel output is below:\n"
		 "\n",
		 reports);
	parse_text(both, "iozone", "L", &rs);
	assert_int_equal(rs.n, 8);
	for (size_t i = 0; i < rs.n; i++)
		assert_int_equal(rs.v[i].run, 0);
	result_set_free(&rs);
}

/* iozone -+u -R (iozone.c's dump_cputimes): after the figures' reports,
 * '"Writer CPU utilization report (Zero values should be ignored)"' blocks
 * laid out as they are.  They repeat nothing: read after the table too, in
 * per cent, under the table's label (one file size: the file's), their 0
 * cells left out as iozone says. */
static void test_iozone_cpu_reports(void **st)
{
	(void)st;
	static const char out[] = "\tAuto Mode\n"
				  "\tFile size set to 1024 kB\n"
				  "              kB  reclen    write  rewrite\n"
				  "            1024     128  3369115 17124680\n"
				  "            1024     256  3709575 12790037\n"
				  "\n"
				  "iozone test complete.\n"
				  "Excel output is below:\n"
				  "\n"
				  "\"Writer report\"\n"
				  "        \"128\"  \"256\"\n"
				  "\"1024\"   3369115  3709575 \n"
				  "\n"
				  "\"Writer CPU utilization report (Zero values should be ignored)\"\n"
				  "        \"128\"  \"256\"\n"
				  "\"1024\"    25.77  27.76\n"
				  "\n"
				  "\"Re-writer CPU utilization report (Zero values should be ignored)\"\n"
				  "        \"128\"  \"256\"\n"
				  "\"1024\"    15.29   0.00\n";
	struct result_set rs;
	parse_text(out, "iozone", "L", &rs);
	/* 4 figures of the table, 3 CPU cells (the 0 left out) */
	assert_int_equal(rs.n, 7);
	int cpu = 0;
	for (size_t i = 0; i < rs.n; i++) {
		assert_string_equal(rs.v[i].label, "L");
		assert_string_equal(rs.v[i].x_name, "reclen_kb");
		if (strstr(rs.v[i].metric, "_cpu_util")) {
			cpu++;
			assert_string_equal(rs.v[i].unit, "%");
			if (!strcmp(rs.v[i].metric, "write_cpu_util") && rs.v[i].x == 256)
				assert_double_equal(rs.v[i].value, 27.76, 1e-9);
			if (!strcmp(rs.v[i].metric, "rewrite_cpu_util"))
				assert_double_equal(rs.v[i].value, 15.29, 1e-9);
		}
	}
	assert_int_equal(cpu, 3);
	result_set_free(&rs);
}

/* iozone 3.398 prints each figure in a fixed width ("%8ld"), so one that
 * fills it runs into the figure before it: cut at the header's column
 * edges when the run ends on one, else not read at all (a row of
 * tables/work/iozone-3.398-a-s1m-cpu-R-i0-i1-2026.txt, and the same row
 * one column off). */
static void test_iozone_3398_figures_run_together(void **st)
{
	(void)st;
	static const char out[] =
		"\tAuto Mode\n"
		"\tFile size set to 1024 KB\n"
		"              KB  reclen   write rewrite    read    reread    read   write    read  rewrite     read   fwrite frewrite   fread  freread\n"
		"            1024     256 294214914044758 22161202 21282686\n"
		"            1024     512  364542117733010 19629138 22161202\n";
	struct result_set rs;
	parse_text(out, "iozone", "L", &rs);
	double w = 0, rw = 0;
	size_t n512 = 0;
	for (size_t i = 0; i < rs.n; i++) {
		assert_true(rs.v[i].value < 1e9);
		if (rs.v[i].x == 256 && !strcmp(rs.v[i].metric, "write"))
			w = rs.v[i].value;
		if (rs.v[i].x == 256 && !strcmp(rs.v[i].metric, "rewrite"))
			rw = rs.v[i].value;
		if (rs.v[i].x == 512) {
			n512++;
			assert_true(strcmp(rs.v[i].metric, "write") && strcmp(rs.v[i].metric, "rewrite"));
		}
	}
	assert_double_equal(w, 2942149, 0);
	assert_double_equal(rw, 14044758, 0);
	/* the row whose run is off the edges: read and reread only */
	assert_int_equal(n512, 2);
	assert_int_equal(rs.n, 6);
	result_set_free(&rs);
}

/* A row's label is its file size unless iozone said it ran one size (one
 * "File size set to" line): the table pasted with its two header lines
 * only (3.398, figures run together, as in
 * tables/work/iozone-3.398-a-two-sizes-i0-i1-table-only-2026.txt), and
 * two -s (iozone runs each size, a "File size set to" line each), hold
 * two files whose rows are never runs of one label. */
static void test_iozone_sizes_without_banner(void **st)
{
	(void)st;
	static const char pasted[] =
		"                                                            random  random    bkwd   record   stride\n"
		"              KB  reclen   write rewrite    read    reread    read   write    read  rewrite     read   fwrite frewrite   fread  freread\n"
		"             512      64 2512247 6174377  9681823 10434519\n"
		"            1024      64 2723840 7644933 10557785 17910197\n"
		"            1024     128 317017216789959 23240448 20088179\n";
	static const char two_s[] = "\tFile size set to 512 kB\n"
				    "\tFile size set to 1024 kB\n"
				    "              kB  reclen    write  rewrite\n"
				    "             512      64  2512247  6174377\n"
				    "            1024      64  2723840  7644933\n";
	static const struct { size_t k; const char *label, *metric; double x, v; } want[] = {
		{ 0, "L 512kB", "write", 64, 2512247 },     { 0, "L 1024kB", "rewrite", 64, 7644933 },
		{ 0, "L 1024kB", "write", 128, 3170172 },   { 0, "L 1024kB", "reread", 64, 17910197 },
		{ 1, "L 512kB", "rewrite", 64, 6174377 },   { 1, "L 1024kB", "write", 64, 2723840 },
	};
	const char *outs[] = { pasted, two_s };
	for (size_t k = 0; k < 2; k++) {
		struct result_set rs;
		parse_text(outs[k], "iozone", "L", &rs);
		assert_int_equal(rs.n, k ? 4 : 12);
		assert_int_equal(nlabels(&rs), 2);
		for (size_t i = 0; i < rs.n; i++)
			assert_int_equal(rs.v[i].run, 0);
		for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
			if (want[w].k != k)
				continue;
			size_t hits = 0;
			for (size_t i = 0; i < rs.n; i++)
				if (!strcmp(rs.v[i].label, want[w].label) && !strcmp(rs.v[i].metric, want[w].metric) &&
				    rs.v[i].x == want[w].x) {
					assert_double_equal(rs.v[i].value, want[w].v, 0);
					hits++;
				}
			assert_int_equal(hits, 1);
		}
		result_set_free(&rs);
	}
}

/* iozone 3.247 -a (auto mode, no -s: file sizes 64 kB .. 128 MB) on ext3,
 * kept by the perfbase project as its example input: every row, every
 * column, checked against the file's own words. */
static void test_iozone_3247_auto(void **st)
{
	(void)st;
	const char *path = BO "iozone/perfbase-iozone-3.247-auto-ext3.dat";
	static const char *const m[13] = { "write", "rewrite", "read", "reread", "random_read", "random_write",
					   "bkwd_read", "record_rewrite", "stride_read", "fwrite", "frewrite",
					   "fread", "freread" };
	struct result_set rs;
	parse(path, NULL, "L", &rs);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[512];
	size_t rows = 0;
	while (fgets(line, sizeof(line), f)) {
		double v[15];
		int n = sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1],
			       &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11], &v[12],
			       &v[13], &v[14]);
		if (n != 15)
			continue;
		rows++;
		char label[64];
		snprintf(label, sizeof(label), "L %.0fkB", v[0]);   /* no -s: the file size joins the label */
		for (int c = 0; c < 13; c++) {
			const struct result_point *p = NULL;
			for (size_t i = 0; i < rs.n; i++)
				if (strcmp(rs.v[i].label, label) == 0 && strcmp(rs.v[i].metric, m[c]) == 0 &&
				    rs.v[i].x == v[1]) {
					assert_null(p);
					p = &rs.v[i];
				}
			if (!p)
				print_error("%s reclen %g: no %s\n", label, v[1], m[c]);
			assert_non_null(p);
			assert_string_equal(p->x_name, "reclen_kb");
			assert_double_equal(p->value, v[2 + c], 0);
			assert_string_equal(p->unit, "KB/s");
			assert_int_equal(p->run, 0);
		}
	}
	fclose(f);
	assert_int_equal(rows, 120);
	assert_int_equal(rs.n, 120 * 13);
	/* the first and last cells, by hand */
	bool first = false, last = false;
	for (size_t i = 0; i < rs.n; i++) {
		const struct result_point *p = &rs.v[i];
		first |= strcmp(p->label, "L 64kB") == 0 && strcmp(p->metric, "write") == 0 && p->x == 4 &&
			 p->value == 303383;
		last |= strcmp(p->label, "L 131072kB") == 0 && strcmp(p->metric, "freread") == 0 &&
			p->x == 16384 && p->value == 1102409;
	}
	assert_true(first && last);
	result_set_free(&rs);
}

/* --- labels and empty files -------------------------------------------- */

static void test_default_label_and_empty(void **st)
{
	(void)st;
	char a[RP_LABEL_LEN], b[RP_LABEL_LEN];
	assert_string_equal(parser_default_label("/x/y/fio-run.json", a, sizeof(a)), "fio-run");
	assert_string_equal(parser_default_label("noext", a, sizeof(a)), "noext");
	assert_string_equal(parser_default_label("/x/.hidden", a, sizeof(a)), ".hidden");
	/* 70-character names sharing their first 66: the extension comes off
	 * first, then a cut name keeps a hash of the whole name */
	const char *l1 = "d/fio-randread-direct-on-the-test-box-in-the-lab-with-kernel-6.18.44-1.txt";
	const char *l2 = "d/fio-randread-direct-on-the-test-box-in-the-lab-with-kernel-6.18.44-2.txt";
	parser_default_label(l1, a, sizeof(a));
	parser_default_label(l2, b, sizeof(b));
	assert_int_equal(strlen(a), RP_LABEL_LEN - 1);
	assert_string_not_equal(a, b);
	assert_memory_equal(a, "fio-randread-direct-on-the-test-box", 35);
	assert_non_null(strchr(a, '~'));
	/* an empty file is said to be empty, not "no result by the mail parser" */
	char path[] = "/tmp/iodash-empty-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	struct result_set rs = { 0 };
	char err[256];
	assert_int_equal(parser_parse_file(path, NULL, NULL, &rs, err, sizeof(err)), -ENODATA);
	assert_non_null(strstr(err, "empty file"));
	assert_null(strstr(err, "mail parser"));
	assert_int_equal(write(fd, "\n  \n\t\n", 6), 6);
	assert_int_equal(parser_parse_file(path, NULL, NULL, &rs, err, sizeof(err)), -ENODATA);
	assert_non_null(strstr(err, "only blank lines"));
	close(fd);
	unlink(path);
	assert_int_equal(rs.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bonnie_csv_196),
		cmocka_unit_test(test_bonnie_197_output),
		cmocka_unit_test(test_bonnie_197_two_runs_blank_cells),
		cmocka_unit_test(test_bonnie_csv_two_machines),
		cmocka_unit_test(test_bonnie_102_bon_csv2txt_x2),
		cmocka_unit_test(test_bonnie_x3_runs),
		cmocka_unit_test(test_bonnie_196_197_built),
		cmocka_unit_test(test_bonnie_196_197_built_output),
		cmocka_unit_test(test_fio_groups_normal),
		cmocka_unit_test(test_fio_groups_json),
		cmocka_unit_test(test_fio_json_v2_groups),
		cmocka_unit_test(test_fio_json_v2_group_reporting),
		cmocka_unit_test(test_fio_clones_v2_text),
		cmocka_unit_test(test_fio_clones_terse),
		cmocka_unit_test(test_fio_clones_status_interval),
		cmocka_unit_test(test_fio_clones_client),
		cmocka_unit_test(test_fio_client_server_json),
		cmocka_unit_test(test_fio_client_server_text),
		cmocka_unit_test(test_fio_client_one_job_each_named_by_job),
		cmocka_unit_test(test_fio_terse_groups_keep_job_names),
		cmocka_unit_test(test_fio_v2_text_runs),
		cmocka_unit_test(test_fio_v2_binary_units),
		cmocka_unit_test(test_sysbench_04_runs),
		cmocka_unit_test(test_sysbench_04_gb_per_sec),
		cmocka_unit_test(test_sysbench_05_oltp_not_fileio),
		cmocka_unit_test(test_sysbench_10pre),
		cmocka_unit_test(test_sysbench_fatal_run),
		cmocka_unit_test(test_sysbench_11),
		cmocka_unit_test(test_sysbench_05_fileio_modes),
		cmocka_unit_test(test_sysbench_05_report_interval),
		cmocka_unit_test(test_sysbench_05_prepare_cleanup),
		cmocka_unit_test(test_sysbench_05_oltp_intervals),
		cmocka_unit_test(test_mixed_log),
		cmocka_unit_test(test_mixed_log_live),
		cmocka_unit_test(test_iozone_3247_auto),
		cmocka_unit_test(test_iozone_excel_reports),
		cmocka_unit_test(test_iozone_cpu_reports),
		cmocka_unit_test(test_iozone_3398_figures_run_together),
		cmocka_unit_test(test_iozone_sizes_without_banner),
		cmocka_unit_test(test_default_label_and_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
