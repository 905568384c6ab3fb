/* parsers: the three LKML mails become the curves their authors meant.
 * Values are the ones printed in tests/fixtures/lkml/. */
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

/* cmocka's assert_float_equal works in float: compare doubles exactly enough */
static void assert_near(double a, double b, double eps, const char *file, int line)
{
	if (!(fabs(a - b) <= eps)) {
		print_error("%.12g != %.12g (within %g)\n", a, b, eps);
		_fail(file, line);
	}
}
#define assert_double_equal(a, b, eps) assert_near((a), (b), (eps), __FILE__, __LINE__)

#define LKML "tests/fixtures/lkml/"

static void parse(const char *path, const char *name, struct result_set *rs)
{
	char err[256];
	memset(rs, 0, sizeof(*rs));
	int rc = parser_parse_file(path, name, NULL, rs, err, sizeof(err));
	if (rc)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
}

static size_t count(const struct result_set *rs, const char *label, int run, const char *metric)
{
	size_t n = 0;
	for (size_t i = 0; i < rs->n; i++)
		if ((!label || strcmp(rs->v[i].label, label) == 0) && (run < 0 || rs->v[i].run == run) &&
		    (!metric || strcmp(rs->v[i].metric, metric) == 0))
			n++;
	return n;
}

static const struct result_point *find(const struct result_set *rs, const char *label, int run,
				       const char *metric, double x)
{
	for (size_t i = 0; i < rs->n; i++)
		if (strcmp(rs->v[i].label, label) == 0 && rs->v[i].run == run &&
		    strcmp(rs->v[i].metric, metric) == 0 && rs->v[i].x == x)
			return &rs->v[i];
	return NULL;
}

static size_t distinct_labels(const struct result_set *rs, const char *metric, char out[][RP_LABEL_LEN], size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < rs->n; i++) {
		if (metric && strcmp(rs->v[i].metric, metric) != 0)
			continue;
		size_t k;
		for (k = 0; k < n; k++)
			if (strcmp(out[k], rs->v[i].label) == 0)
				break;
		if (k == n && n < max)
			strcpy(out[n++], rs->v[i].label);
	}
	return n;
}

static void test_dbench_2416_vs_2417pre2(void **st)
{
	(void)st;
	struct result_set rs;
	parse(LKML "dbench-2.4.16-vs-2.4.17pre2.txt", NULL, &rs);

	static const double procs[8] = { 1, 2, 4, 8, 16, 32, 64, 128 };
	/* 2.4.16: one run of 8 points, 1..128 procs */
	assert_int_equal(count(&rs, "2.4.16", -1, "throughput"), 8);
	assert_int_equal(count(&rs, "2.4.16", 0, "throughput"), 8);
	for (int i = 0; i < 8; i++) {
		const struct result_point *p = find(&rs, "2.4.16", 0, "throughput", procs[i]);
		assert_non_null(p);
		assert_string_equal(p->x_name, "procs");
		assert_string_equal(p->unit, "MB/s");
		assert_true(p->flags & RP_FINAL);
	}
	/* the line wrapped so that "procs" is on the next line */
	assert_double_equal(find(&rs, "2.4.16", 0, "throughput", 16)->value, 210.989, 1e-9);
	assert_double_equal(find(&rs, "2.4.16", 0, "throughput", 128)->value, 66.7354, 1e-9);

	/* 2.4.17-pre2: three runs of 8 points */
	assert_int_equal(count(&rs, "2.4.17-pre2", -1, "throughput"), 24);
	for (int run = 0; run < 3; run++) {
		assert_int_equal(count(&rs, "2.4.17-pre2", run, "throughput"), 8);
		for (int i = 0; i < 8; i++)
			assert_non_null(find(&rs, "2.4.17-pre2", run, "throughput", procs[i]));
	}
	assert_double_equal(find(&rs, "2.4.17-pre2", 0, "throughput", 1)->value, 96.2302, 1e-9);
	assert_double_equal(find(&rs, "2.4.17-pre2", 1, "throughput", 1)->value, 136.522, 1e-9);
	assert_double_equal(find(&rs, "2.4.17-pre2", 2, "throughput", 1)->value, 117.95, 1e-9);
	double m128 = (find(&rs, "2.4.17-pre2", 0, "throughput", 128)->value +
		       find(&rs, "2.4.17-pre2", 1, "throughput", 128)->value +
		       find(&rs, "2.4.17-pre2", 2, "throughput", 128)->value) / 3;
	assert_double_equal(m128, (54.9774 + 66.1573 + 59.258) / 3, 1e-9);
	assert_double_equal(m128, 60.13, 0.005);

	/* the bonnie++ table under the text: "+++++" is too fast, not zero */
	const struct result_point *seeks = NULL;
	size_t too_fast = 0;
	for (size_t i = 0; i < rs.n; i++) {
		if (strcmp(rs.v[i].metric, "seeks") == 0)
			seeks = &rs.v[i];
		if (rs.v[i].flags & RP_TOO_FAST) {
			too_fast++;
			assert_true(isnan(rs.v[i].value));
		}
	}
	assert_non_null(seeks);
	assert_double_equal(seeks->value, 373.7, 1e-9);
	assert_double_equal(seeks->x, 2512, 1e-9);
	assert_int_equal(too_fast, 3);
	/* only those two kernels carry dbench points */
	char labels[8][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, "throughput", labels, 8), 2);
	result_set_free(&rs);
}

static void test_dbench_2419rc5_table(void **st)
{
	(void)st;
	struct result_set rs;
	parse(LKML "dbench-2.4.19rc5.txt", NULL, &rs);
	char labels[8][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 8), 3);
	assert_string_equal(labels[0], "2.4.19-rc2");
	assert_string_equal(labels[1], "2.4.19-rc5");
	assert_string_equal(labels[2], "2.5.29");
	/* the file has 20 rows from 1 to 64 clients (the issue text says 21),
	 * then 80..128 where the 2.4.19-rc2 cell is empty */
	assert_int_equal(count(&rs, "2.4.19-rc2", 0, "throughput"), 20);
	assert_int_equal(count(&rs, "2.4.19-rc5", 0, "throughput"), 24);
	assert_int_equal(count(&rs, "2.5.29", 0, "throughput"), 24);
	double maxx = 0;
	for (size_t i = 0; i < rs.n; i++) {
		assert_string_equal(rs.v[i].x_name, "clients");
		assert_string_equal(rs.v[i].unit, "MB/s");
		if (strcmp(rs.v[i].label, "2.4.19-rc2") == 0 && rs.v[i].x > maxx)
			maxx = rs.v[i].x;
	}
	assert_double_equal(maxx, 64, 0);
	assert_null(find(&rs, "2.4.19-rc2", 0, "throughput", 80));
	assert_double_equal(find(&rs, "2.4.19-rc2", 0, "throughput", 1)->value, 114.616, 1e-9);
	assert_double_equal(find(&rs, "2.4.19-rc5", 0, "throughput", 80)->value, 87.4692, 1e-9);
	assert_double_equal(find(&rs, "2.5.29", 0, "throughput", 80)->value, 60.6054, 1e-9);
	assert_double_equal(find(&rs, "2.5.29", 0, "throughput", 128)->value, 47.0254, 1e-9);
	assert_double_equal(find(&rs, "2.4.19-rc2", 0, "throughput", 64)->value, 110.792, 1e-9);
	result_set_free(&rs);
}

/* The point of label, setting, run and metric at x (setting "" any). */
static const struct result_point *find_set(const struct result_set *rs, const char *label, const char *setting,
					   int run, const char *metric, double x)
{
	for (size_t i = 0; i < rs->n; i++)
		if (!strcmp(rs->v[i].label, label) && !strcmp(rs->v[i].setting, setting) && rs->v[i].run == run &&
		    !strcmp(rs->v[i].metric, metric) && rs->v[i].x == x)
			return &rs->v[i];
	return NULL;
}

static size_t count_set(const struct result_set *rs, const char *label, const char *setting, const char *metric)
{
	size_t n = 0;
	for (size_t i = 0; i < rs->n; i++)
		n += !strcmp(rs->v[i].label, label) && !strcmp(rs->v[i].setting, setting) &&
		     !strcmp(rs->v[i].metric, metric);
	return n;
}

/* Two kernels under three (dirty_background_ratio, dirty_ratio) settings:
 * the kernel is the label, "(5,10)" the setting, never folded together. */
static void test_iozone_dirty_ratio(void **st)
{
	(void)st;
	struct result_set rs;
	parse(LKML "iozone-dirty-ratio-2.6.24.txt", NULL, &rs);
	static const struct { const char *label, *setting; int runs; double w0, rw_last; } want[6] = {
		{ "2.6.23.1-42.fc8", "(5,10)", 3, 59580, 62831 },
		{ "2.6.24-rc2", "(5,10)", 4, 49277, 62426 },
		{ "2.6.23.1-42.fc8", "(20,40)", 4, 225977, 445230 },
		{ "2.6.24-rc2", "(20,40)", 4, 54043, 492653 },
		{ "2.6.23.1-42.fc8", "(60,80)", 5, 208450, 452482 },
		{ "2.6.24-rc2", "(60,80)", 5, 49091, 493954 },
	};
	char labels[16][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 16), 2);
	assert_string_equal(labels[0], "2.6.23.1-42.fc8");
	assert_string_equal(labels[1], "2.6.24-rc2");
	for (int i = 0; i < 6; i++) {
		const struct result_point *w0 = NULL, *last = NULL;
		int first_run = -1;
		assert_int_equal(count_set(&rs, want[i].label, want[i].setting, "write"), want[i].runs);
		assert_int_equal(count_set(&rs, want[i].label, want[i].setting, "rewrite"), want[i].runs);
		for (size_t k = 0; k < rs.n; k++)
			if (!strcmp(rs.v[k].label, want[i].label) && !strcmp(rs.v[k].setting, want[i].setting) &&
			    !strcmp(rs.v[k].metric, "write")) {
				assert_string_equal(rs.v[k].unit, "KB/s");
				assert_string_equal(rs.v[k].x_name, "reclen_kb");
				if (first_run < 0)
					first_run = rs.v[k].run;
			}
		w0 = find_set(&rs, want[i].label, want[i].setting, first_run, "write", 4);
		last = find_set(&rs, want[i].label, want[i].setting, first_run + want[i].runs - 1, "rewrite", 4);
		assert_non_null(w0);
		assert_non_null(last);
		assert_double_equal(w0->value, want[i].w0, 0);
		assert_double_equal(last->value, want[i].rw_last, 0);
	}
	assert_int_equal(rs.n, 2 * (3 + 4 + 4 + 4 + 5 + 5));
	result_set_free(&rs);
}

/* Mail shapes not in the fixtures, written the way people paste them. */
static void feed_all(const char *name, const char *text, struct result_set *rs)
{
	memset(rs, 0, sizeof(*rs));
	struct parser *p = parser_new(name, "mail");
	assert_non_null(p);
	struct result_sink sink = result_set_sink(rs);
	parser_feed(p, text, strlen(text), &sink);
	parser_finish(p, &sink);
	parser_free(p);
}

static void test_table_with_diff_column_and_rules(void **st)
{
	(void)st;
	struct result_set rs;
	feed_all("mail",
		 "The numbers are throughput in MB/sec, per number of clients.\n"
		 "\n"
		 "clients   2.6.23    2.6.24    %-diff\n"
		 "------------------------------------\n"
		 "1         100.5     90.5      -9.9%\n"
		 "2         200.0     210.0     +5.0%\n"
		 "------------------------------------\n"
		 "4         300.0               \n",
		 &rs);
	char labels[8][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 8), 2);
	assert_int_equal(count(&rs, "2.6.23", 0, "throughput"), 3);
	assert_int_equal(count(&rs, "2.6.24", 0, "throughput"), 2);
	assert_string_equal(rs.v[0].x_name, "clients");
	assert_double_equal(find(&rs, "2.6.24", 0, "throughput", 2)->value, 210.0, 0);
	assert_double_equal(find(&rs, "2.6.23", 0, "throughput", 4)->value, 300.0, 0);
	result_set_free(&rs);
}

static void test_label_blocks_without_blank_lines(void **st)
{
	(void)st;
	struct result_set rs;
	/* a run starts again when its x comes again, even without a blank line;
	 * a label seen again continues its run numbering */
	feed_all("mail",
		 "2.6.0:\n"
		 "Throughput 10 MB/sec (NB=1 MB/sec  1 MBit/sec)  1 procs\n"
		 "Throughput 20 MB/sec (NB=1 MB/sec  1 MBit/sec)  2 procs\n"
		 "Throughput 11 MB/sec (NB=1 MB/sec  1 MBit/sec)  1 procs\n"
		 "2.6.1:\n"
		 "Throughput 30 MB/sec  1 clients  1 procs  max_latency=1.0 ms\n"
		 "2.6.0:\n"
		 "Throughput 12 MB/sec (NB=1 MB/sec  1 MBit/sec)  1\n"
		 "procs\n",
		 &rs);
	assert_int_equal(count(&rs, "2.6.0", 0, "throughput"), 2);
	assert_int_equal(count(&rs, "2.6.0", 1, "throughput"), 1);
	assert_int_equal(count(&rs, "2.6.0", 2, "throughput"), 1);
	assert_double_equal(find(&rs, "2.6.0", 2, "throughput", 1)->value, 12, 0);
	assert_string_equal(find(&rs, "2.6.1", 0, "throughput", 1)->x_name, "clients");
	result_set_free(&rs);
}

#define MAIL "tests/fixtures/mail/"

/* A real post parsed with its tables' notes: declares rs, notes (cap of
 * them) and nn, as every test of a post begins. */
static void parse_post(const char *path, struct result_set *rs, struct parser_note *notes, size_t cap,
		       size_t *nn)
{
	char err[256];
	int rc = parser_parse_file_notes(path, NULL, NULL, rs, notes, cap, nn, err, sizeof(err));
	if (rc)
		fail_msg("%s: %s", path, err);
}
#define PARSE_POST(file, cap)                   \
	struct result_set rs = { 0 };           \
	struct parser_note notes[cap];          \
	size_t nn = 0;                          \
	parse_post(MAIL file, &rs, notes, cap, &nn)

static void check_pt(const struct result_set *rs, const char *label, const char *metric, const char *x_name,
		     double x, double v)
{
	const struct result_point *p = find(rs, label, 0, metric, x);
	if (!p)
		print_error("no point %s %s %g\n", label, metric, x);
	assert_non_null(p);
	assert_string_equal(p->x_name, x_name);
	assert_double_equal(p->value, v, 1e-9);
	assert_true(p->flags & RP_FINAL);
}

/* Davidlohr Bueso's qspinlock post (2021): a +===+ boxed |-table with a
 * %diff column, then mmtests reports with three and two kernels, each
 * under prose naming its benchmark; "(   0.00%)" and "* -25.93%*" cells are
 * changes, never values. */
static void test_mail_pipe_and_mmtests(void **st)
{
	(void)st;
	struct result_set rs;
	parse(MAIL "qspinlock-locktorture-sockperf-dbench-2021.txt", NULL, &rs);
	char labels[8][RP_LABEL_LEN];
	/* no "%diff" label, no change cell as a value */
	assert_int_equal(distinct_labels(&rs, NULL, labels, 8), 3);
	assert_int_equal(count(&rs, "vanilla", 0, "locktorture"), 7);
	assert_int_equal(count(&rs, "dirty", 0, "locktorture"), 7);
	static const double tasks[7] = { 2, 4, 8, 16, 32, 64, 128 };
	static const double van[7] = { 46718565, 51740198, 63756510, 67824531, 53843519, 53005778, 53331980 };
	static const double dir[7] = { 48751350, 50369082, 62568821, 70966546, 61155508, 53104412, 54606910 };
	for (int i = 0; i < 7; i++) {
		check_pt(&rs, "vanilla", "locktorture", "tasks", tasks[i], van[i]);
		check_pt(&rs, "dirty", "locktorture", "tasks", tasks[i], dir[i]);
	}
	/* sockperf: three kernels, x = message size */
	assert_int_equal(count(&rs, "simple-spinlock", 0, "sockperf_hmean"), 5);
	assert_int_equal(count(&rs, "vanilla", 0, "sockperf_hmean"), 5);
	assert_int_equal(count(&rs, "dirty", 0, "sockperf_hmean"), 5);
	check_pt(&rs, "simple-spinlock", "sockperf_hmean", "x", 14, 73.50);
	check_pt(&rs, "vanilla", "sockperf_hmean", "x", 14, 54.44);
	check_pt(&rs, "dirty", "sockperf_hmean", "x", 14, 73.45);
	check_pt(&rs, "vanilla", "sockperf_hmean", "x", 100, 385.61);
	check_pt(&rs, "dirty", "sockperf_hmean", "x", 850, 6863.12);
	/* dbench: "Amean latency-64" is x 64 of the latency metric; the prose
	 * before says "clients" */
	assert_int_equal(count(&rs, "vanilla", 0, "dbench_amean_latency"), 8);
	check_pt(&rs, "vanilla", "dbench_amean_latency", "clients", 1, 1.67);
	check_pt(&rs, "dirty", "dbench_amean_latency", "clients", 64, 8.17);
	check_pt(&rs, "vanilla", "dbench_amean_latency", "clients", 512, 186.91);
	assert_int_equal(count(&rs, "dirty", 0, "dbench4_hmean"), 8);
	static const double cl[8] = { 1, 2, 4, 8, 16, 32, 64, 512 };
	static const double dv[8] = { 849.13, 1664.03, 3073.70, 5624.02, 9169.49, 11969.37, 15021.12, 14891.27 };
	static const double dd[8] = { 851.51, 1663.94, 3104.29, 5694.16, 9324.43, 12127.09, 15243.14, 15162.11 };
	for (int i = 0; i < 8; i++) {
		check_pt(&rs, "vanilla", "dbench4_hmean", "clients", cl[i], dv[i]);
		check_pt(&rs, "dirty", "dbench4_hmean", "clients", cl[i], dd[i]);
	}
	assert_int_equal(rs.n, 14 + 15 + 16 + 16);
	result_set_free(&rs);
}

/* Abel Wu's sockmem post (2023): three mmtests tables, each under a title
 * line that names it (tbench4, netperf-udp, netperf-tcp); "send-64" rows
 * are x 64 of a "send" metric. */
static void test_mail_mmtests_titles(void **st)
{
	(void)st;
	struct result_set rs;
	parse(MAIL "sockmem-tbench4-netperf-2023.txt", NULL, &rs);
	char labels[4][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 4), 2);
	assert_string_equal(labels[0], "baseline");
	assert_string_equal(labels[1], "patchset");
	static const double x1[10] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 384 };
	static const double b1[10] = { 357.14, 716.66, 1408.82, 2826.02, 5413.68, 8692.74, 10180.12, 22905.53,
				       22935.78, 22605.36 };
	static const double p1[10] = { 360.31, 724.57, 1424.31, 2832.64, 5347.72, 8684.26, 10377.41, 22959.73,
				       23103.81, 22747.53 };
	for (int i = 0; i < 10; i++) {
		check_pt(&rs, "baseline", "tbench4_hmean", "x", x1[i], b1[i]);
		check_pt(&rs, "patchset", "tbench4_hmean", "x", x1[i], p1[i]);
	}
	static const double xs[9] = { 64, 128, 256, 1024, 2048, 3312, 4096, 8192, 16384 };
	for (int i = 0; i < 9; i++) {
		assert_non_null(find(&rs, "baseline", 0, "netperf-udp_hmean_send", xs[i]));
		assert_non_null(find(&rs, "patchset", 0, "netperf-udp_hmean_recv", xs[i]));
		assert_non_null(find(&rs, "patchset", 0, "netperf-tcp_hmean", xs[i]));
	}
	check_pt(&rs, "baseline", "netperf-udp_hmean_send", "x", 64, 278.42);
	check_pt(&rs, "patchset", "netperf-udp_hmean_send", "x", 16384, 39372.47);
	check_pt(&rs, "baseline", "netperf-udp_hmean_recv", "x", 2048, 7727.19);
	check_pt(&rs, "patchset", "netperf-udp_hmean_recv", "x", 8192, 24205.21);
	check_pt(&rs, "baseline", "netperf-tcp_hmean", "x", 64, 1756.32);
	check_pt(&rs, "patchset", "netperf-tcp_hmean", "x", 8192, 39632.41);
	assert_int_equal(rs.n, 2 * (10 + 18 + 9));
	result_set_free(&rs);
}

/* Vincent Guittot's reply (2020) quoting Mel Gorman's mmtests table under
 * "> ": a two-line header (the kernel, then its name) makes the labels. */
static void test_mail_mmtests_quoted_two_line_header(void **st)
{
	(void)st;
	struct result_set rs;
	parse(MAIL "sched-idlecandidate-tbench-quoted-2020.txt", NULL, &rs);
	char labels[4][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 4), 2);
	assert_string_equal(labels[0], "5.10.0-rc6 schedstat");
	assert_string_equal(labels[1], "5.10.0-rc6 idlecandidate");
	static const double x[10] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 320 };
	static const double a[10] = { 500.06, 975.90, 1902.95, 3761.73, 6713.93, 10435.31, 12325.51, 21225.21,
				      20532.83, 20334.81 };
	static const double b[10] = { 505.67, 974.06, 1904.43, 3721.02, 6769.17, 10312.58, 13792.01, 20963.44,
				      20335.62, 20147.25 };
	for (int i = 0; i < 10; i++) {
		check_pt(&rs, labels[0], "tbench_hmean", "x", x[i], a[i]);
		check_pt(&rs, labels[1], "tbench_hmean", "x", x[i], b[i]);
	}
	assert_int_equal(rs.n, 20);
	result_set_free(&rs);
}

/* The kernel test robot's report (2025): two commits as labels, one metric
 * per row, "± 18%" spreads and the %change column left out; a row name
 * longer than a metric name is left out rather than cut into another. */
static void test_mail_lkp_stddev_change(void **st)
{
	(void)st;
	struct result_set rs;
	parse(MAIL "lkp-stress-ng-pipeherd-2025.txt", NULL, &rs);
	const char *a = "f2ffc48de2017c69", *b = "ee5eda8ea59546af2e8f192c060";
	char labels[4][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 4), 2);
	check_pt(&rs, a, "cpuidle..usage", "run", 0, 138055);
	check_pt(&rs, b, "cpuidle..usage", "run", 0, 184128);
	check_pt(&rs, a, "vmstat.procs.r", "run", 0, 3930);       /* no spread on the left */
	check_pt(&rs, b, "vmstat.procs.r", "run", 0, 4235);
	check_pt(&rs, a, "stress-ng.pipeherd.ops", "run", 0, 2.331e9);
	check_pt(&rs, b, "stress-ng.pipeherd.ops", "run", 0, 2.937e9);
	check_pt(&rs, a, "stress-ng.pipeherd.ops_per_sec", "run", 0, 38728105);
	check_pt(&rs, b, "stress-ng.pipeherd.ops_per_sec", "run", 0, 48797851);
	check_pt(&rs, a, "perf-stat.i.branch-miss-rate%", "run", 0, 0.54);   /* absolute change "-0.1" */
	check_pt(&rs, b, "perf-stat.i.branch-miss-rate%", "run", 0, 0.41);
	check_pt(&rs, b, "perf-stat.total.instructions", "run", 0, 9.152e12);
	check_pt(&rs, a, "sched_debug.cfs_rq:/.util_est.avg", "run", 0, 1025);
	assert_null(find(&rs, a, 0, "sched_debug.cfs_rq:/.util_est.av", 0));
	assert_int_equal(rs.n, 2 * 35);
	result_set_free(&rs);
}

/* A point of label under setting, run 0: its x's name and value. */
static void check_set(const struct result_set *rs, const char *label, const char *setting, const char *metric,
		      const char *x_name, double x, double v)
{
	const struct result_point *p = find_set(rs, label, setting, 0, metric, x);
	if (!p)
		print_error("no point %s [%s] %s %g\n", label, setting, metric, x);
	assert_non_null(p);
	assert_string_equal(p->x_name, x_name);
	assert_double_equal(p->value, v, 1e-9);
	assert_true(p->flags & RP_FINAL);
}

/* Tim Chen's reply (2022) quoting two tbench tables of the same kernels
 * under "On numa 0:" and "On numa 0-1:": each title is the setting of its
 * table (the kernels are the labels), so the two tables are never pooled
 * as two runs of one thing; the prose ("enhancement on tbench") names the
 * benchmark. */
static void test_mail_mmtests_setting_titles(void **st)
{
	(void)st;
	struct result_set rs;
	parse(MAIL "sched-cluster-tbench-numa-quoted-2022.txt", NULL, &rs);
	char labels[6][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 6), 2);
	assert_string_equal(labels[0], "5.19-rc1");
	assert_string_equal(labels[1], "patched");
	assert_int_equal(count_set(&rs, "5.19-rc1", "numa 0", "tbench_hmean"), 8);
	assert_int_equal(count_set(&rs, "patched", "numa 0-1", "tbench_hmean"), 9);
	assert_int_equal(count(&rs, NULL, 0, "tbench_hmean"), 2 * 8 + 2 * 9);
	assert_int_equal(count(&rs, NULL, 1, NULL), 0);
	check_set(&rs, "5.19-rc1", "numa 0", "tbench_hmean", "x", 1, 350.27);
	check_set(&rs, "patched", "numa 0", "tbench_hmean", "x", 1, 406.88);
	check_set(&rs, "patched", "numa 0", "tbench_hmean", "x", 128, 7150.25);
	check_set(&rs, "5.19-rc1", "numa 0-1", "tbench_hmean", "x", 1, 346.11);
	check_set(&rs, "patched", "numa 0-1", "tbench_hmean", "x", 64, 17748.54);
	check_set(&rs, "5.19-rc1", "numa 0-1", "tbench_hmean", "x", 256, 11195.77);
	check_set(&rs, "patched", "numa 0-1", "tbench_hmean", "x", 256, 13854.06);
	assert_null(find_set(&rs, "patched", "numa 0", 0, "tbench_hmean", 256));
	result_set_free(&rs);
}

/* Chen Yu's reply (2022) quoting Abel Wu's results: "(SNC on)" under the
 * header and "(SNC off)" in the middle of each table name the setting of
 * the rows below them (the setting, never part of the label). */
static void test_mail_mmtests_setting_lines(void **st)
{
	(void)st;
	struct result_set rs;
	parse(MAIL "sched-limited-scan-snc-quoted-2022.txt", NULL, &rs);
	char labels[6][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 6), 2);
	assert_string_equal(labels[0], "unpatched");
	assert_string_equal(labels[1], "patched");
	const char *hb = "hackbench-process-pipes_amean", *on = "(SNC on)", *off = "(SNC off)";
	assert_int_equal(count(&rs, NULL, 0, hb), 4 * 15);
	assert_int_equal(count(&rs, NULL, 0, "tbench4_hmean"), 4 * 10);
	assert_int_equal(count_set(&rs, "patched", off, "tbench4_hmean"), 10);
	assert_int_equal(count(&rs, NULL, 1, NULL), 0);
	check_set(&rs, "unpatched", on, hb, "x", 1, 0.4470);
	check_set(&rs, "patched", on, hb, "x", 1, 0.4557);
	check_set(&rs, "unpatched", on, hb, "x", 296, 23.3920);
	check_set(&rs, "unpatched", off, hb, "x", 1, 0.2717);
	check_set(&rs, "patched", off, hb, "x", 48, 5.5227);
	check_set(&rs, "patched", off, hb, "x", 296, 25.6803);
	check_set(&rs, "unpatched", on, "tbench4_hmean", "x", 1, 309.43);
	check_set(&rs, "patched", on, "tbench4_hmean", "x", 128, 20620.98);
	check_set(&rs, "unpatched", off, "tbench4_hmean", "x", 1, 287.90);
	check_set(&rs, "patched", off, "tbench4_hmean", "x", 384, 19528.03);
	assert_int_equal(rs.n, 100);
	result_set_free(&rs);
}

/* Barry Song's reply (2021) quoting his own table two levels deep ("> > "):
 * the second header line names only the second column, placed under it. */
static void test_mail_mmtests_ragged_header(void **st)
{
	(void)st;
	struct result_set rs;
	parse(MAIL "sched-wakewide-tbench4-double-quoted-2021.txt", NULL, &rs);
	char labels[4][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 4), 2);
	assert_string_equal(labels[0], "5.13-rc4");
	assert_string_equal(labels[1], "5.13-rc4 disable-llc-wakewide/");
	static const double x[8] = { 1, 2, 4, 8, 16, 32, 64, 80 };
	static const double a[8] = { 514.87, 914.45, 1483.81, 2211.62, 2129.80, 5098.35, 4797.62, 4802.89 };
	static const double b[8] = { 505.17, 918.45, 1485.38, 2236.02, 2450.81, 5085.20, 4801.34, 4780.40 };
	for (int i = 0; i < 8; i++) {
		check_pt(&rs, labels[0], "tbench4_hmean", "x", x[i], a[i]);
		check_pt(&rs, labels[1], "tbench4_hmean", "x", x[i], b[i]);
	}
	assert_int_equal(rs.n, 16);
	result_set_free(&rs);
}

/* How each table was read, with its lines: the notes of the qspinlock post
 * (line numbers checked against the file by eye: 27 is the "| 2 |" row, 39
 * the "| 128 |" row, 49 sockperf's first row, 53 its last row ...). */
static void test_mail_notes(void **st)
{
	(void)st;
	PARSE_POST("qspinlock-locktorture-sockperf-dbench-2021.txt", 16);
	assert_int_equal(nn, 4);
	static const int first[4] = { 27, 49, 61, 74 }, last[4] = { 39, 53, 68, 81 };
	for (size_t i = 0; i < nn; i++) {
		assert_int_equal(notes[i].first, first[i]);
		assert_int_equal(notes[i].last, last[i]);
		assert_true(notes[i].understood);
	}
	assert_non_null(strstr(notes[0].text, "labels vanilla, dirty; x tasks; metric locktorture"));
	assert_non_null(strstr(notes[0].text, "1 derived cols/rows skipped"));   /* %diff */
	assert_non_null(strstr(notes[1].text, "5 rows; labels simple-spinlock, vanilla, dirty; x x; metric sockperf_hmean"));
	result_set_free(&rs);
}

/* The sockmem post with the tbench4 table's header line taken out (the
 * real post's lines otherwise): that table is said not understood, with
 * its lines, and the two others are still read. */
static void test_mail_table_not_understood(void **st)
{
	(void)st;
	FILE *f = fopen(MAIL "sockmem-tbench4-netperf-2023.txt", "r");
	assert_non_null(f);
	char path[] = "/tmp/iodash-mail-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *o = fdopen(fd, "w");
	assert_non_null(o);
	char line[512];
	int no = 0;
	while (fgets(line, sizeof(line), f))
		if (++no != 17)   /* "                            baseline               patchset" */
			fputs(line, o);
	fclose(f);
	fclose(o);
	struct result_set rs = { 0 };
	struct parser_note notes[16];
	size_t nn = 0;
	char err[256];
	assert_int_equal(parser_parse_file_notes(path, NULL, NULL, &rs, notes, 16, &nn, err, sizeof(err)), 0);
	unlink(path);
	assert_int_equal(nn, 3);
	assert_false(notes[0].understood);
	assert_int_equal(notes[0].first, 17);
	assert_int_equal(notes[0].last, 26);
	assert_non_null(strstr(notes[0].text, "2 value columns under \"tbench4 Throughput"));
	assert_non_null(strstr(notes[0].text, "no header to tell them apart: not read"));
	assert_true(notes[1].understood);
	assert_true(notes[2].understood);
	assert_int_equal(count(&rs, NULL, 0, "tbench4_hmean"), 0);
	assert_int_equal(rs.n, 2 * (18 + 9));
	result_set_free(&rs);
}

/* Mel Gorman's patch (2020), unquoted, with its diff: the table is read
 * (two-line header, under a prose line with numbers of its own), and
 * neither the prose ("80 logical CPUs", "50% busy") nor the diffstat and
 * hunk lines ("@@ -6066,6 +6066,7 @@") give a point. */
static void test_mail_prose_and_diff_not_tables(void **st)
{
	(void)st;
	PARSE_POST("sched-idlecandidate-tbench-patch-2020.txt", 8);
	assert_int_equal(rs.n, 20);
	assert_int_equal(nn, 1);
	assert_int_equal(notes[0].first, 19);
	assert_int_equal(notes[0].last, 28);
	check_pt(&rs, "5.10.0-rc6 schedstat", "tbench_hmean", "x", 64, 12325.51);
	check_pt(&rs, "5.10.0-rc6 idlecandidate", "tbench_hmean", "x", 64, 13792.01);
	check_pt(&rs, "5.10.0-rc6 idlecandidate", "tbench_hmean", "x", 320, 20147.25);
	result_set_free(&rs);
}

/* Yicong Yang's patch (2022), the same shape as Tim Chen's quote of an
 * earlier version, unquoted: two tables under "On numa 0:" / "On numa 0-1:". */
static void test_mail_mmtests_setting_titles_unquoted(void **st)
{
	(void)st;
	struct result_set rs;
	parse(MAIL "sched-cluster-tbench-numa-patch-2022.txt", NULL, &rs);
	char labels[6][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 6), 2);
	assert_string_equal(labels[0], "6.0-rc1");
	assert_string_equal(labels[1], "patched");
	check_set(&rs, "6.0-rc1", "numa 0", "tbench_hmean", "x", 1, 351.20);
	check_set(&rs, "patched", "numa 0", "tbench_hmean", "x", 128, 7068.03);
	check_set(&rs, "6.0-rc1", "numa 0-1", "tbench_hmean", "x", 64, 17143.28);
	check_set(&rs, "patched", "numa 0-1", "tbench_hmean", "x", 256, 13326.86);
	assert_int_equal(rs.n, 2 * 8 + 2 * 9);
	result_set_free(&rs);
}

/* Xing Zhengjun's reply (2020): a kernel test robot table quoted under
 * ">> " (4 runs), then the same two commits re-tested, unquoted (10 runs):
 * two tables of each commit (never pooled); the "N/stats.json: ...: 105228," lines with
 * numbers are prose, not a table. */
static void test_mail_lkp_quoted_and_retest(void **st)
{
	(void)st;
	struct result_set rs;
	parse(MAIL "lkp-will-it-scale-retest-quoted-2020.txt", NULL, &rs);
	const char *a = "c2daff748f0ea954", *b = "bdfcae11403e5099769a7c8dc32";
	const struct result_point *p = find(&rs, a, 0, "will-it-scale.per_thread_ops", 0);
	assert_non_null(p);
	assert_double_equal(p->value, 161714, 0);
	assert_double_equal(find(&rs, b, 0, "will-it-scale.per_thread_ops", 0)->value, 101819, 0);
	/* the re-test is a table of its own: never pooled with the first */
	p = find_set(&rs, a, "table 2", 0, "will-it-scale.per_thread_ops", 0);
	assert_non_null(p);
	assert_double_equal(p->value, 161582, 0);
	assert_double_equal(find_set(&rs, b, "table 2", 0, "will-it-scale.per_thread_ops", 0)->value, 101435, 0);
	assert_double_equal(find(&rs, a, 0, "will-it-scale.workload", 0)->value, 8402288, 0);
	assert_double_equal(find(&rs, b, 0, "will-it-scale.workload", 0)->value, 5274649, 0);
	assert_int_equal(count(&rs, NULL, 1, NULL), 0);
	assert_int_equal(rs.n, 6);
	result_set_free(&rs);
}

/* The change cells are checked against the values: every stated change
 * of the real posts fits (no note says otherwise); the qspinlock post with
 * one change cell altered ("* 17.87%*" made "*  7.87%*") is said, with the
 * line, while its values are still read. */
static void test_mail_stated_changes_checked(void **st)
{
	(void)st;
	FILE *f = fopen(MAIL "qspinlock-locktorture-sockperf-dbench-2021.txt", "r");
	assert_non_null(f);
	char path[] = "/tmp/iodash-mail-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *o = fdopen(fd, "w");
	assert_non_null(o);
	char line[512];
	int altered = 0;
	while (fgets(line, sizeof(line), f)) {
		char *c = strstr(line, "* 17.87%*");
		if (c) {
			memcpy(c, "*  7.87%*", 9);
			altered++;
		}
		fputs(line, o);
	}
	fclose(f);
	fclose(o);
	assert_int_equal(altered, 1);
	struct result_set rs = { 0 };
	struct parser_note notes[16];
	size_t nn = 0;
	char err[256];
	assert_int_equal(parser_parse_file_notes(path, NULL, NULL, &rs, notes, 16, &nn, err, sizeof(err)), 0);
	unlink(path);
	assert_int_equal(nn, 4);
	assert_true(notes[0].understood);
	assert_false(notes[1].understood);
	assert_int_equal(notes[1].first, 49);
	assert_non_null(strstr(notes[1].text, "1 stated changes do not match the values (line 50 says +7.87%, the values give +17.87%)"));
	assert_true(notes[2].understood);
	assert_true(notes[3].understood);
	check_pt(&rs, "dirty", "sockperf_hmean", "x", 100, 771.43);
	result_set_free(&rs);
}

/* The seed mails' tables are noted too, with their lines: the label
 * blocks of the 2.4.16 mail (its first Throughput line at 14 to line 25,
 * the "procs" of a wrapped Throughput line), its bonnie++ table, and the
 * TAB table of the 2.4.19-rc5 mail (its rows 42 to 65, "128" the last). */
static void test_mail_seed_notes(void **st)
{
	(void)st;
	struct result_set rs = { 0 };
	struct parser_note notes[16];
	size_t nn = 0;
	char err[256];
	assert_int_equal(parser_parse_file_notes(LKML "dbench-2.4.16-vs-2.4.17pre2.txt", NULL, NULL, &rs, notes, 16,
						 &nn, err, sizeof(err)), 0);
	assert_int_equal(nn, 3);
	assert_int_equal(notes[0].first, 14);
	assert_int_equal(notes[0].last, 25);
	assert_string_equal(notes[0].text, "lines 14-25: 8 dbench Throughput lines under label 2.4.16");
	assert_int_equal(notes[1].first, 29);
	assert_int_equal(notes[1].last, 62);
	assert_string_equal(notes[1].text, "lines 29-62: 24 dbench Throughput lines under label 2.4.17-pre2");
	assert_non_null(strstr(notes[2].text, "lines of bonnie++ tables"));
	result_set_free(&rs);
	assert_int_equal(parser_parse_file_notes(LKML "dbench-2.4.19rc5.txt", NULL, NULL, &rs, notes, 16, &nn, err,
						 sizeof(err)), 0);
	assert_int_equal(nn, 1);
	assert_int_equal(notes[0].first, 42);
	assert_int_equal(notes[0].last, 65);
	assert_non_null(strstr(notes[0].text, "24 rows; labels 2.4.19-rc2, 2.4.19-rc5, 2.5.29; x clients; metric throughput (MB/s)"));
	result_set_free(&rs);
}

/* Pankaj Raghav's brd numbers quoted in the XArray thread (2023): a table
 * with inner bars and no outer ones, an empty first header cell, rows named
 * by the workload (the metric), a Diff column skipped, the unit from the
 * title "Performance in KIOPS". */
static void test_mail_pipe_rows_named(void **st)
{
	(void)st;
	struct result_set rs;
	parse(MAIL "brd-xarray-fio-kiops-quoted-2023.txt", NULL, &rs);
	char labels[4][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 4), 2);
	assert_string_equal(labels[0], "radix-tree");
	assert_string_equal(labels[1], "XArray");
	static const char *const w[4] = { "write", "randwrite", "read", "randread" };
	static const double a[4] = { 315, 286, 330, 309 }, b[4] = { 313, 290, 335, 312 };
	for (int i = 0; i < 4; i++) {
		check_pt(&rs, "radix-tree", w[i], "run", 0, a[i]);
		check_pt(&rs, "XArray", w[i], "run", 0, b[i]);
		assert_string_equal(find(&rs, "XArray", 0, w[i], 0)->unit, "KIOPS");
	}
	assert_int_equal(rs.n, 8);
	result_set_free(&rs);
}

/* Mike Snitzer's reply quoting Jeffle Xu's dm polling numbers (2021): four
 * tables with one header ("| IOPS (IRQ mode) | IOPS (iopoll=1 mode) | diff"),
 * one per workload; "208k" cells; the diff column compares the columns, so
 * they are the labels; a table repeating the header keeps its points
 * apart (setting "table 2"), never more runs of the first. */
static void test_mail_pipe_repeated_header(void **st)
{
	(void)st;
	struct result_set rs;
	parse(MAIL "dm-io-polling-iops-quoted-2021.txt", NULL, &rs);
	const char *irq = "IOPS (IRQ mode)", *poll = "IOPS (iopoll=1 mode)";
	check_pt(&rs, irq, "dm", "run", 0, 208000);
	check_pt(&rs, poll, "dm", "run", 0, 279000);
	check_set(&rs, irq, "table 2", "dm", "run", 0, 615000);
	check_set(&rs, poll, "table 2", "nvme", "run", 0, 873000);  /* the whole table apart */
	check_set(&rs, irq, "table 3", "dm", "run", 0, 314000);
	check_set(&rs, poll, "table 3", "nvme", "run", 0, 873000);
	check_set(&rs, irq, "", "without patchset", "run", 0, 242000);
	check_set(&rs, poll, "", "with patchset", "run", 0, 332000);
	assert_int_equal(count(&rs, NULL, 1, NULL), 0);
	assert_int_equal(rs.n, 14);
	result_set_free(&rs);
}

/* Stefan Hajnoczi's virtio-blk polling numbers quoted in Jason Wang's reply
 * (2021): blank-separated columns with key cells first ("randread 4k"), a
 * rule under the header, "149,426" cells and an unlabelled change column;
 * rw keys the metric, bs is x (KiB), hipri=0 / hipri=1 are the labels. */
static void test_mail_keyed_rows(void **st)
{
	(void)st;
	PARSE_POST("virtio-blk-hipri-fio-quoted-2021.txt", 4);
	assert_int_equal(nn, 1);
	assert_int_equal(notes[0].first, 14);
	assert_int_equal(notes[0].last, 29);
	char labels[4][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 4), 2);
	assert_string_equal(labels[0], "hipri=0");
	assert_string_equal(labels[1], "hipri=1");
	check_pt(&rs, "hipri=0", "randread", "bs_kb", 4, 149426);
	check_pt(&rs, "hipri=1", "randread", "bs_kb", 4, 170763);
	check_pt(&rs, "hipri=0", "randread", "bs_kb", 128, 17655);
	check_pt(&rs, "hipri=1", "randwrite", "bs_kb", 16, 120950);
	check_pt(&rs, "hipri=0", "read", "bs_kb", 64, 34834);
	check_pt(&rs, "hipri=1", "write", "bs_kb", 128, 16265);
	assert_int_equal(rs.n, 32);
	result_set_free(&rs);
}

/* A keyed table of eight long label names: its note's text is cut at its
 * size, never written past it (it was: ASan saw the stack overrun). */
static void test_mail_keyed_many_labels(void **st)
{
	struct result_set rs;
	(void)st;
	feed_all("mail", "rw  bs  aaaaaaaaaaaaaaaaaaa1 aaaaaaaaaaaaaaaaaaa2 aaaaaaaaaaaaaaaaaaa3 aaaaaaaaaaaaaaaaaaa4 "
		 "aaaaaaaaaaaaaaaaaaa5 aaaaaaaaaaaaaaaaaaa6 aaaaaaaaaaaaaaaaaaa7 aaaaaaaaaaaaaaaaaaa8\n"
		 "randread 4k 1 2 3 4 5 6 7 8\nrandread 8k 1 2 3 4 5 6 7 8\n", &rs);
	assert_int_equal(rs.n, 16);
	check_pt(&rs, "aaaaaaaaaaaaaaaaaaa8", "randread", "bs_kb", 8, 8);
	result_set_free(&rs);
}

/* Writes the lines of a fixture, each passed through fn, to a temporary
 * file; returns its path in path (mkstemp template). */
static void rewrite_fixture(const char *src, char *path, void (*fn)(const char *line, FILE *o))
{
	FILE *f = fopen(src, "r");
	assert_non_null(f);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *o = fdopen(fd, "w");
	assert_non_null(o);
	char line[1024];
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		fn(line, o);
	}
	fclose(f);
	fclose(o);
}

/* Every point of a equals one of b, and the counts agree. */
static void assert_same_points(const struct result_set *a, const struct result_set *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct result_point *q = find(b, a->v[i].label, a->v[i].run, a->v[i].metric, a->v[i].x);
		if (!q)
			print_error("no %s %s %g in the other set\n", a->v[i].label, a->v[i].metric, a->v[i].x);
		assert_non_null(q);
		assert_double_equal(q->value, a->v[i].value, 0);
		assert_string_equal(q->x_name, a->v[i].x_name);
	}
}

/* The way a mailer sends a body quoted-printable: "=" as "=3D", bytes
 * past ASCII as "=XX", a line longer than 76 cut by soft breaks ("=" at the
 * end of each piece). */
static void qp_line(const char *line, FILE *o)
{
	char enc[4096];
	size_t e = 0;
	for (const unsigned char *q = (const unsigned char *)line; *q; q++) {
		if (*q == '=' || *q >= 0x80)
			e += (size_t)sprintf(enc + e, "=%02X", *q);
		else
			enc[e++] = (char)*q;
	}
	enc[e] = '\0';
	size_t at = 0;
	while (e - at > 76) {
		size_t cut = at + 75;
		/* never inside an "=XX" */
		if (enc[cut - 1] == '=')
			cut -= 1;
		else if (enc[cut - 2] == '=')
			cut -= 2;
		fprintf(o, "%.*s=\n", (int)(cut - at), enc + at);
		at = cut;
	}
	fprintf(o, "%s\n", enc + at);
}

/* The qspinlock post sent quoted-printable (its "+====+" box becomes
 * "+=3D=3D...", its 81-column mmtests rows are cut by soft breaks) gives
 * exactly the points of the post as archived. */
static void test_mail_quoted_printable(void **st)
{
	(void)st;
	const char *src = MAIL "qspinlock-locktorture-sockperf-dbench-2021.txt";
	struct result_set plain, qp = { 0 };
	parse(src, NULL, &plain);
	char path[] = "/tmp/iodash-mail-qp-XXXXXX";
	rewrite_fixture(src, path, qp_line);
	char err[256];
	int rc = parser_parse_file(path, "mail", NULL, &qp, err, sizeof(err));
	unlink(path);
	assert_int_equal(rc, 0);
	assert_same_points(&plain, &qp);
	check_pt(&qp, "dirty", "sockperf_hmean", "x", 850, 6863.12);
	check_pt(&qp, "vanilla", "locktorture", "tasks", 2, 46718565);
	result_set_free(&plain);
	result_set_free(&qp);
}

/* A mailer's hard wrap at 72 columns: a longer line is cut at its last
 * blank before column 72 and the rest goes on the next line. */
static void wrap72_line(const char *line, FILE *o)
{
	const char *q = line;
	while (strlen(q) > 72) {
		const char *cut = q + 72;
		while (cut > q && *cut != ' ')
			cut--;
		if (cut == q)
			break;
		const char *end = cut;
		while (end > q && end[-1] == ' ')
			end--;
		fprintf(o, "%.*s\n", (int)(end - q), q);
		while (*cut == ' ')
			cut++;
		q = cut;
	}
	fprintf(o, "%s\n", q);
}

/* The qspinlock post wrapped at 72 columns: its three-kernel sockperf rows
 * (81 columns) come in two lines each, and are read as the rows they are. */
static void test_mail_wrapped_rows(void **st)
{
	(void)st;
	const char *src = MAIL "qspinlock-locktorture-sockperf-dbench-2021.txt";
	struct result_set plain, wr = { 0 };
	parse(src, NULL, &plain);
	char path[] = "/tmp/iodash-mail-wrap-XXXXXX";
	rewrite_fixture(src, path, wrap72_line);
	char err[256];
	struct parser_note notes[16];
	size_t nn = 0;
	int rc = parser_parse_file_notes(path, "mail", NULL, &wr, notes, 16, &nn, err, sizeof(err));
	unlink(path);
	assert_int_equal(rc, 0);
	assert_same_points(&plain, &wr);
	check_pt(&wr, "simple-spinlock", "sockperf_hmean", "x", 14, 73.50);
	check_pt(&wr, "dirty", "sockperf_hmean", "x", 850, 6863.12);
	for (size_t i = 0; i < nn; i++)
		assert_true(notes[i].understood);
	result_set_free(&plain);
	result_set_free(&wr);
}

/* The kernel test robot's "± 18%" is the spread of the figure, kept as its
 * spread (18% of 138055), never a run; its %change cells are checked. */
static void test_mail_lkp_spread_kept(void **st)
{
	(void)st;
	PARSE_POST("lkp-stress-ng-pipeherd-2025.txt", 4);
	const char *a = "f2ffc48de2017c69", *b = "ee5eda8ea59546af2e8f192c060";
	const struct result_point *p = find(&rs, a, 0, "cpuidle..usage", 0);
	assert_non_null(p);
	assert_true(p->flags & RP_SPREAD);
	assert_double_equal(p->spread, 138055 * 0.18, 1e-6);
	p = find(&rs, b, 0, "cpuidle..usage", 0);
	assert_double_equal(p->spread, 184128 * 0.14, 1e-6);
	p = find(&rs, a, 0, "vmstat.procs.r", 0);      /* "3930" with no spread */
	assert_false(p->flags & RP_SPREAD);
	assert_double_equal(find(&rs, b, 0, "vmstat.procs.r", 0)->spread, 4235 * 0.03, 1e-6);
	assert_int_equal(count(&rs, a, 1, NULL), 0);   /* no spread became a second run */
	assert_int_equal(nn, 1);
	assert_true(notes[0].understood);
	/* the %change cells between the two commits' figures fit them (the
	 * rows whose change is absolute, of a % metric, are read as such) */
	assert_non_null(strstr(notes[0].text, "; 31 stated changes checked"));
	result_set_free(&rs);
}

/* Derived columns of |-tables and keyed tables are checked like mmtests'
 * change cells: every one of the brd, virtio-blk and qspinlock posts fits
 * (the virtio post cuts "+12.89%" to "+12%"), while the dm polling post's
 * last table says "~39%" where its values (242k, 332k) give +37.19%: said,
 * with the line, the values still read; never read as labels. */
static void test_mail_derived_columns_checked(void **st)
{
	(void)st;
	PARSE_POST("virtio-blk-hipri-fio-quoted-2021.txt", 8);
	assert_int_equal(nn, 1);
	assert_true(notes[0].understood);
	assert_non_null(strstr(notes[0].text, "; 8 stated changes checked"));   /* the "+N%" ones; "0%" is no change cell */
	assert_int_equal(count(&rs, "-", -1, NULL), 0);
	assert_int_equal(rs.n, 32);
	result_set_free(&rs);
	parse_post(MAIL "brd-xarray-fio-kiops-quoted-2023.txt", &rs, notes, 8, &nn);
	assert_int_equal(nn, 1);
	assert_non_null(strstr(notes[0].text, "; 1 derived cols/rows skipped; 8 read, 0 not read; 4 stated changes checked"));
	assert_int_equal(count(&rs, "Diff", -1, NULL), 0);
	result_set_free(&rs);
	parse_post(MAIL "qspinlock-locktorture-sockperf-dbench-2021.txt", &rs, notes, 8, &nn);
	assert_non_null(strstr(notes[0].text, "; 1 derived cols/rows skipped; 14 read, 0 not read; 7 stated changes checked"));
	assert_int_equal(count(&rs, "%diff", -1, NULL), 0);
	result_set_free(&rs);
	parse_post(MAIL "dm-io-polling-iops-quoted-2021.txt", &rs, notes, 8, &nn);
	assert_int_equal(nn, 4);
	for (int i = 0; i < 3; i++)
		assert_true(notes[i].understood);
	assert_false(notes[3].understood);
	assert_int_equal(notes[3].first, 68);
	assert_non_null(strstr(notes[3].text, "1 stated changes do not match the values (line 68 says +39.00%, the "
					      "values give +37.19%)"));
	assert_int_equal(count(&rs, "diff", -1, NULL), 0);
	check_set(&rs, "IOPS (IRQ mode)", "", "without patchset", "run", 0, 242000);
	result_set_free(&rs);
}

/* Older column tables with cells that carry a spread or a unit, a "-" for
 * no value, and derived columns and cells checked; a transposed table (a
 * header row of x values over rows named by their label) with a derived
 * row.  The layouts are those of the posts above; the text is made here. */
static void test_mail_spread_unit_cells_and_transposed(void **st)
{
	(void)st;
	struct result_set rs = { 0 };
	struct result_sink sink = result_set_sink(&rs);
	struct parser *p = parser_new("mail", "m");
	const char *text =
		"dbench throughput, MB/sec, mean (stddev) of 3 runs:\n"
		"\n"
		"clients        vanilla          patched        %-diff\n"
		"1          116.1 (3.2)      118.4 (2.9)        +2.0%\n"
		"2          220.5 (5.6)      231.2 (4.1)        +4.9%\n"
		"4          400.0 +- 4       380.0 +- 6         -5.0%\n"
		"8          512 \xc2\xb1 12        -                   -\n"
		"\n"
		"Write throughput\n"
		"threads     1          2          4          8\n"
		"base     45.6MB/s   90.1MB/s   170.3MB/s  300.2MB/s\n"
		"patched  46.0MB/s   91.0MB/s   181.0MB/s  330.0MB/s\n"
		"%change  +0.9%      +1.0%      +6.3%      +1.0%\n";
	parser_feed(p, text, strlen(text), &sink);
	parser_finish(p, &sink);
	const struct parser_note *notes;
	size_t nn = parser_notes(p, &notes);
	const char *m = "dbench throughput";   /* the title's first part */
	const struct result_point *q = find(&rs, "vanilla", 0, m, 1);
	assert_non_null(q);
	assert_double_equal(q->value, 116.1, 0);
	assert_true(q->flags & RP_SPREAD);
	assert_double_equal(q->spread, 3.2, 0);
	assert_string_equal(q->x_name, "clients");
	assert_string_equal(q->unit, "MB/s");
	assert_double_equal(find(&rs, "patched", 0, m, 4)->value, 380, 0);
	assert_double_equal(find(&rs, "patched", 0, m, 4)->spread, 6, 0);
	assert_double_equal(find(&rs, "vanilla", 0, m, 8)->spread, 12, 0);
	assert_null(find(&rs, "patched", 0, m, 8));   /* "-": no value, not 0 */
	assert_int_equal(count(&rs, "vanilla", -1, NULL), 4);
	assert_int_equal(count(&rs, "%-diff", -1, NULL), 0);
	/* the transposed table: labels from the rows, x from the header row */
	q = find(&rs, "base", 0, "write throughput", 4);
	assert_non_null(q);
	assert_double_equal(q->value, 170.3, 0);
	assert_string_equal(q->x_name, "threads");
	assert_string_equal(q->unit, "MB/s");
	assert_double_equal(find(&rs, "patched", 0, "write throughput", 8)->value, 330, 0);
	assert_int_equal(count(&rs, "%change", -1, NULL), 0);
	assert_int_equal(count(&rs, "base", -1, NULL), 4);
	/* the notes: the first table's changes fit; the last "+1.0%" does not
	 * (300.2 -> 330.0 is +9.93%) */
	assert_int_equal(nn, 2);
	assert_int_equal(notes[0].first, 4);
	assert_int_equal(notes[0].last, 7);
	assert_true(notes[0].understood);
	assert_non_null(strstr(notes[0].text, "1 derived cols/rows skipped; 7 read, 1 not read (n/a cells); 3 stated "
					      "changes checked"));
	assert_int_equal(notes[1].first, 11);
	assert_int_equal(notes[1].last, 12);
	assert_false(notes[1].understood);
	assert_non_null(strstr(notes[1].text, "x over columns 1, 2, 4, 8; x threads"));
	assert_non_null(strstr(notes[1].text, "(line 13 says +1.00%, the values give +9.93%)"));
	parser_free(p);
	result_set_free(&rs);
}

/* Damien Le Moal's reply (2022) as the list delivered it, quoted-printable:
 * the robot's table quoted under ">>> ", rows cut by soft line breaks in
 * the middle of their metric name ("stress-ng.copy-file.op=" / "s"), "±"
 * sent as "=C2=B1", the rule as "=3D=3D...".  All 35 rows are read (11 with a
 * name longer than a metric name left out, and said), spreads kept, the
 * change cells checked. */
static void test_mail_qp_robot_post(void **st)
{
	(void)st;
	PARSE_POST("lkp-stress-ng-copy-file-qp-quoted-2022.txt", 4);
	const char *a = "4cbfca5f7750520f", *b = "0568e6122574dcc1aded2979cd0";
	char labels[4][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 4), 2);
	assert_string_equal(labels[0], a);
	assert_string_equal(labels[1], b);
	check_pt(&rs, a, "stress-ng.copy-file.ops", "run", 0, 1627);
	check_pt(&rs, b, "stress-ng.copy-file.ops", "run", 0, 1385);
	check_pt(&rs, a, "stress-ng.copy-file.ops_per_sec", "run", 0, 27.01);
	check_pt(&rs, b, "stress-ng.copy-file.ops_per_sec", "run", 0, 22.96);
	check_pt(&rs, a, "mpstat.cpu.all.iowait%", "run", 0, 4.01);
	check_pt(&rs, b, "perf-stat.i.dtlb-loads", "run", 0, 3.899e8);   /* names in lower case */
	check_pt(&rs, a, "proc-vmstat.nr_active_file", "run", 0, 358486);
	check_pt(&rs, b, "proc-vmstat.pgpgout", "run", 0, 2889953);
	const struct result_point *p = find(&rs, b, 0, "mpstat.cpu.all.sys%", 0);
	assert_non_null(p);
	assert_double_equal(p->value, 0.17, 0);
	assert_true(p->flags & RP_SPREAD);
	assert_double_equal(p->spread, 0.17 * 0.11, 1e-12);
	assert_double_equal(find(&rs, a, 0, "perf-stat.i.cache-misses", 0)->spread, 3164876 * 0.09, 1e-6);
	assert_int_equal(rs.n, 2 * 33);
	assert_int_equal(nn, 1);
	assert_true(notes[0].understood);
	assert_int_equal(notes[0].first, 103);   /* its first row, the header's lines cut by soft breaks */
	assert_non_null(strstr(notes[0].text, "35 rows;"));
	assert_non_null(strstr(notes[0].text, "2 not read (names too long); 26 stated changes checked"));
	result_set_free(&rs);
}

/* Con Kolivas' contest report (2003): eleven tables, each under a title
 * naming the load ("io_load:"), rows named by the kernel, columns the
 * metrics; "[runs]" is a count and "Ratio" is derived from another table
 * (time over no_load's time): neither is read as a figure. */
static void test_mail_contest_label_rows(void **st)
{
	(void)st;
	PARSE_POST("contest-2.5.70-mm3-label-rows-2003.txt", 16);
	char labels[4][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 4), 3);
	assert_string_equal(labels[0], "2.5.70");
	assert_string_equal(labels[1], "2.5.70-mm2");
	assert_string_equal(labels[2], "2.5.70-mm3");
	check_pt(&rs, "2.5.70", "no_load_time", "run", 0, 79);
	check_pt(&rs, "2.5.70-mm2", "cacherun_cpu%", "run", 0, 98.7);   /* the head as written */
	check_pt(&rs, "2.5.70", "io_load_time", "run", 0, 326);
	check_pt(&rs, "2.5.70-mm2", "io_load_loads", "run", 0, 42.0);
	check_pt(&rs, "2.5.70-mm3", "io_load_lcpu%", "run", 0, 18.8);
	check_pt(&rs, "2.5.70-mm3", "dbench_load_time", "run", 0, 313);
	check_pt(&rs, "2.5.70-mm2", "dbench_load_lcpu%", "run", 0, 55.4);
	for (size_t i = 0; i < rs.n; i++) {
		assert_null(strstr(rs.v[i].metric, "ratio"));
		assert_null(strstr(rs.v[i].metric, "runs"));
	}
	assert_int_equal(rs.n, 11 * 3 * 4);
	assert_int_equal(nn, 11);
	assert_int_equal(notes[5].first, 36);
	assert_int_equal(notes[5].last, 38);
	assert_non_null(strstr(notes[5].text, "3 rows; metrics Time, CPU%, Loads, LCPU%; x run; metric io_load_time; "
					      "title io_load; 2 derived cols/rows skipped; 12 read, 0 not read"));
	result_set_free(&rs);
}

/* K Prateek Nayak's results (2022) in the layout AMD's scheduler posts
 * use: a header row of kernels over rows "1-groups:", "16:" or "8" (x, the
 * word as x_name), each value followed by its change "(-6.16 pct)",
 * remarks after the figures ("*", "* Known to have run to run",
 * "[Verification run]": a second run at that x), rows named by a metric
 * ("Copy:") under the same header twice (10 then 100 runs: "_t4", never
 * pooled), the header "#workers: tip (...)" with one blank after the x
 * name.  Every change stated is checked against the values. */
static void test_mail_pct_change_cells(void **st)
{
	(void)st;
	PARSE_POST("sched-sync-wakeup-hackbench-tbench-pct-2022.txt", 8);
	const char *a = "tip (91caa5ae2424)", *b = "tip (14b3f2d9ee8d)";
	char labels[4][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 4), 2);
	assert_string_equal(labels[0], a);
	assert_string_equal(labels[1], b);
	check_pt(&rs, a, "hackbench", "groups", 1, 4.22);
	check_pt(&rs, b, "hackbench", "groups", 1, 4.48);
	assert_double_equal(find(&rs, b, 1, "hackbench", 1)->value, 4.30, 0);   /* the verification run */
	check_pt(&rs, b, "hackbench", "groups", 16, 7.34);
	check_pt(&rs, a, "schbench", "workers", 1, 22.00);
	check_pt(&rs, b, "schbench", "workers", 2, 27.00);
	check_pt(&rs, b, "schbench", "workers", 512, 47168.00);
	/* the stream tables under "- 10 runs" and "- 100 runs": apart */
	check_pt(&rs, a, "stream 10 runs_copy", "run", 0, 336140.45);
	check_pt(&rs, b, "stream 10 runs_triad", "run", 0, 260063.57);
	check_pt(&rs, a, "stream 100 runs_copy", "run", 0, 336576.38);
	check_pt(&rs, b, "stream 100 runs_triad", "run", 0, 258020.57);
	check_pt(&rs, a, "tbench", "clients", 1, 131.56);
	check_pt(&rs, b, "tbench", "clients", 2, 245.94);
	check_pt(&rs, b, "tbench", "clients", 512, 36162.17);
	assert_int_equal(rs.n, 2 * (6 + 10 + 4 + 4 + 10));
	assert_int_equal(nn, 5);
	static const int first[5] = { 15, 27, 49, 57, 77 }, last[5] = { 20, 36, 52, 60, 86 };
	static const char *const what[5] = {
		"labels tip (91caa5ae2424), tip (14b3f2d9ee8d); x groups; metric hackbench;",
		"labels tip (91caa5ae2424), tip (14b3f2d9ee8d); x workers; metric schbench;",
		"labels tip (91caa5ae2424), tip (14b3f2d9ee8d); x run; metric stream 10 runs_copy;",
		"labels tip (91caa5ae2424), tip (14b3f2d9ee8d); x run; metric stream 100 runs_copy;",
		"labels tip (91caa5ae2424), tip (14b3f2d9ee8d); x clients; metric tbench;",
	};
	/* each patched figure's stated change against the tip's (the tip's own
	 * "(0.00 pct)" is not counted) */
	static const char *const checked[5] = { "; 6 stated changes checked", "; 10 stated changes checked",
		"; 4 stated changes checked", "; 4 stated changes checked", "; 10 stated changes checked" };
	for (int i = 0; i < 5; i++) {
		assert_true(notes[i].understood);
		assert_int_equal(notes[i].first, first[i]);
		assert_int_equal(notes[i].last, last[i]);
		assert_non_null(strstr(notes[i].text, what[i]));
		assert_non_null(strstr(notes[i].text, checked[i]));
	}
	result_set_free(&rs);
}

/* K Prateek Nayak's cover letter (2025), AMD's newer layout: headers
 * "tip[pct imp](CV)" (the label, then what its cells hold), cells
 * "1.09 [ -9.11](11.93)": the value, its change in % (checked) and its
 * coefficient of variation in %, kept as the spread (11.93 % of 1.09);
 * rows "1-groups", "16", "Copy"; a title block per table naming the
 * benchmark ("Test : stream-100"); a last table of changes only. */
static void test_mail_cv_spread_cells(void **st)
{
	(void)st;
	PARSE_POST("sched-stats-prop-cv-pct-imp-2025.txt", 8);
	char labels[4][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 4), 2);
	assert_string_equal(labels[0], "tip");
	assert_string_equal(labels[1], "stats_prop");
	check_pt(&rs, "stats_prop", "hackbench amean", "groups", 1, 1.09);
	const struct result_point *p = find(&rs, "stats_prop", 0, "hackbench amean", 1);
	assert_true(p->flags & RP_SPREAD);
	assert_double_equal(p->spread, 1.09 * 11.93 / 100, 1e-12);
	check_pt(&rs, "tip", "tbench amean", "clients", 1024, 1.00);
	assert_double_equal(find(&rs, "tip", 0, "tbench amean", 1024)->spread, 0.0019, 1e-12);
	check_pt(&rs, "stats_prop", "stream-10 hmean_copy", "run", 0, 1.02);
	check_pt(&rs, "stats_prop", "stream-100 hmean_copy", "run", 0, 0.98);
	check_pt(&rs, "stats_prop", "netperf amean", "clients", 512, 1.00);
	assert_double_equal(find(&rs, "stats_prop", 0, "netperf amean", 512)->spread, 0.6228, 1e-12);
	check_pt(&rs, "stats_prop", "schbench median", "workers", 128, 1.06);
	assert_double_equal(find(&rs, "stats_prop", 0, "schbench median", 128)->spread, 1.06 * 113.66 / 100, 1e-12);
	assert_int_equal(rs.n, 2 * (5 + 11 + 4 + 4 + 10 + 10));
	/* six tables read; the "%diff" lists under "Benchmarks:" said, not read */
	assert_int_equal(nn, 8);
	static const int rows[6] = { 5, 11, 4, 4, 10, 10 };
	for (int i = 0; i < 6; i++) {
		char want[64];
		snprintf(want, sizeof(want), ": %d rows; labels tip, stats_prop;", rows[i]);
		assert_true(notes[i].understood);
		assert_non_null(strstr(notes[i].text, want));
	}
	assert_false(notes[7].understood);
	assert_int_equal(notes[0].first, 16);
	assert_int_equal(notes[0].last, 20);
	result_set_free(&rs);
}

/* Kirill Shutemov's THP page cache cover letter (2013): seven iozone
 * tables, each under a title "** Initial writers **" that names it, a
 * header row of thread counts ("threads:<TAB>  1  2 ... 80") over rows
 * named by the kernel ("baseline:", "patched:") and a derived row
 * "speed-up(times):" (patched over baseline), checked, never a label. */
static void test_mail_transposed_iozone_titles(void **st)
{
	(void)st;
	PARSE_POST("thp-pagecache-iozone-threads-transposed-2013.txt", 16);
	static const double th[12] = { 1, 2, 4, 8, 10, 20, 30, 40, 50, 60, 70, 80 };
	/* the titles as written ("** Initial writers **", "** Random_readers **") */
	static const char *const metric[7] = { "initial writers", "rewriters", "readers", "re-readers",
					       "reverse readers", "random_readers", "random_writers" };
	for (int k = 0; k < 7; k++)
		for (int i = 0; i < 12; i++) {
			assert_non_null(find(&rs, "baseline", 0, metric[k], th[i]));
			assert_non_null(find(&rs, "patched", 0, metric[k], th[i]));
			assert_string_equal(find(&rs, "patched", 0, metric[k], th[i])->x_name, "threads");
		}
	/* read by hand from the post */
	check_pt(&rs, "baseline", "initial writers", "threads", 1, 4741691);
	check_pt(&rs, "patched", "initial writers", "threads", 80, 10788439);
	check_pt(&rs, "baseline", "rewriters", "threads", 50, 24735659);
	check_pt(&rs, "patched", "rewriters", "threads", 80, 34686574);
	check_pt(&rs, "patched", "readers", "threads", 50, 29192810);
	check_pt(&rs, "baseline", "re-readers", "threads", 70, 12509316);
	check_pt(&rs, "patched", "reverse readers", "threads", 2, 9887711);
	check_pt(&rs, "baseline", "random_readers", "threads", 80, 27195847);
	check_pt(&rs, "baseline", "random_writers", "threads", 70, 4528331);
	check_pt(&rs, "patched", "random_writers", "threads", 70, 11165314);
	for (size_t i = 0; i < rs.n; i++) {
		assert_null(strstr(rs.v[i].label, "speed"));
		assert_null(strchr(rs.v[i].label, ':'));
		assert_int_equal(rs.v[i].run, 0);
	}
	assert_int_equal(count(&rs, "baseline", 0, NULL) + count(&rs, "patched", 0, NULL), rs.n);
	/* the seven tables' notes, after the six of postmark, fs_mark and tiobench */
	assert_int_equal(nn, 13);
	for (int k = 0; k < 7; k++) {
		const struct parser_note *q = &notes[6 + k];
		assert_true(q->understood);
		assert_int_equal(q->first, 169 + 6 * k);
		assert_int_equal(q->last, 171 + 6 * k);
		assert_non_null(strstr(q->text, "3 rows; x over columns 1, 2, 4, 8, 10, 20, 30, 40, 50, 60, 70, 80; x threads"));
		assert_non_null(strstr(q->text, "1 derived cols/rows skipped; 24 read, 0 not read; 12 stated changes checked"));
	}
	result_set_free(&rs);
}

/* The same post with one speed-up cell altered (Readers at 50 threads
 * "1.37" made "1.73"; the values give 1.365): a derived row, never read,
 * and said, with its line. */
static void alter_speedup(const char *line, FILE *o)
{
	static int n;
	if (strncmp(line, "speed-up(times):", 16) == 0 && ++n == 3) {
		char buf[1024];
		snprintf(buf, sizeof(buf), "%s", line);
		char *c = strstr(buf, "1.37");
		assert_non_null(c);
		memcpy(c, "1.73", 4);
		fprintf(o, "%s\n", buf);
		return;
	}
	fprintf(o, "%s\n", line);
}

static void test_mail_transposed_derived_row_checked(void **st)
{
	(void)st;
	char path[] = "/tmp/iodash-mail-xt-XXXXXX";
	rewrite_fixture(MAIL "thp-pagecache-iozone-threads-transposed-2013.txt", path, alter_speedup);
	struct result_set rs = { 0 };
	struct parser_note notes[16];
	size_t nn = 0;
	char err[256];
	int rc = parser_parse_file_notes(path, NULL, NULL, &rs, notes, 16, &nn, err, sizeof(err));
	unlink(path);
	assert_int_equal(rc, 0);
	assert_int_equal(nn, 13);
	/* the derived row is skipped, never read: the altered cell changes no
	 * point, and is said */
	assert_true(notes[7].understood);
	assert_false(notes[8].understood);
	assert_int_equal(notes[8].first, 181);
	assert_non_null(strstr(notes[8].text, "1 stated changes do not match the values (line 183 says +1.73x, the values "
					      "give +1.37x)"));
	assert_true(notes[9].understood);
	check_pt(&rs, "patched", "readers", "threads", 50, 29192810);
	struct result_set orig;
	parse(MAIL "thp-pagecache-iozone-threads-transposed-2013.txt", NULL, &orig);
	assert_int_equal(rs.n, orig.n);
	for (size_t i = 0; i < rs.n; i++)
		assert_double_equal(rs.v[i].value, orig.v[i].value, 0);
	result_set_free(&orig);
	result_set_free(&rs);
}

/* The same post's postmark and FS-Mark tables: a header naming only the
 * value columns, indented past the row names ("workload1  workload2",
 * "2000 files by 1M  200 files by 10M"), rows named by the kernel; the
 * title ("throughput (files/sec)", a blank line above the header) names
 * the metric and gives the unit.  Its tiobench boxes: rows named by the
 * workload ("Write        2048 MBs"), cells with their units ("0.2 s",
 * "8667.792 MB/s", "445.2 %", "0.006 ms"): the columns are metrics and
 * the label is the "baseline:" / "patched:" line above the boxes. */
static void test_mail_label_rows_and_unit_cells(void **st)
{
	(void)st;
	PARSE_POST("thp-pagecache-iozone-threads-transposed-2013.txt", 16);
	check_pt(&rs, "baseline", "throughput_workload1", "run", 0, 8333);
	check_pt(&rs, "patched", "throughput_workload2", "run", 0, 454);
	assert_string_equal(find(&rs, "patched", 0, "throughput_workload2", 0)->unit, "transactions/s");
	check_pt(&rs, "baseline", "throughput_2000 files by 1m", "run", 0, 5326.1);
	check_pt(&rs, "patched", "throughput_200 files by 10m", "run", 0, 528.4);
	assert_string_equal(find(&rs, "baseline", 0, "throughput_2000 files by 1m", 0)->unit, "files/s");
	assert_int_equal(notes[0].first, 103);
	assert_int_equal(notes[0].last, 104);
	assert_non_null(strstr(notes[1].text, "2 rows; metrics 2000 files by 1M, 200 files by 10M; x run; metric "
					      "throughput_2000 files by 1m (files/s)"));
	/* tiobench: value and unit of every kind of cell */
	static const struct { const char *label, *metric, *unit; double v; } want[] = {
		{ "baseline", "write 2048 mbs time", "s", 0.2 },
		{ "baseline", "write 2048 mbs rate", "MB/s", 8667.792 },
		{ "baseline", "read 2048 mbs rate", "MB/s", 11680.431 },
		{ "baseline", "random read 62 mbs sys cpu", "%", 1451.7 },
		{ "patched", "write 2048 mbs time", "s", 0.3 },
		{ "patched", "random write 62 mbs usr cpu", "%", 723.9 },
		{ "patched", "read 2048 mbs rate", "MB/s", 11998.008 },
		{ "baseline", "write average latency", "ms", 0.006 },
		{ "baseline", "random write maximum latency", "ms", 5.574 },
		{ "patched", "read maximum latency", "ms", 24.011 },
		{ "patched", "total maximum latency", "ms", 28.020 },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct result_point *q = find(&rs, want[i].label, 0, want[i].metric, 0);
		if (!q)
			print_error("no %s %s\n", want[i].label, want[i].metric);
		assert_non_null(q);
		assert_double_equal(q->value, want[i].v, 1e-9);
		assert_string_equal(q->unit, want[i].unit);
	}
	/* 4 workloads x 4 columns, 5 rows x 4 columns, for each kernel */
	size_t tio = 0;
	for (size_t i = 0; i < rs.n; i++)
		tio += strstr(rs.v[i].metric, " mbs ") || strstr(rs.v[i].metric, "latency") || strstr(rs.v[i].metric, "% ");
	assert_int_equal(tio, 2 * (16 + 20));
	assert_int_equal(rs.n, 8 + 2 * (16 + 20) + 7 * 2 * 12);
	for (int i = 2; i < 6; i++) {
		assert_true(notes[i].understood);
		assert_non_null(strstr(notes[i].text, "rows; metrics "));
	}
	assert_int_equal(notes[3].first, 132);
	assert_int_equal(notes[3].last, 137);
	result_set_free(&rs);
}

/* Konstantin Khlebnikov's diskstats patch quoted in his reply (2020): a
 * header of x values written "JOBS=1<TAB>JOBS=10" (two are enough when the
 * axis is named in each cell), rows "Before:<TAB>  7k iops<TAB>64k iops";
 * then bloat-o-meter's size table ("Function  old  new  delta") with a "-"
 * cell and a delta column, skipped, never a label. */
static void test_mail_transposed_named_x_diskstats(void **st)
{
	(void)st;
	PARSE_POST("diskstats-jobs-kiops-transposed-quoted-2020.txt", 8);
	check_pt(&rs, "Before", "fio", "jobs", 1, 7000);
	check_pt(&rs, "Before", "fio", "jobs", 10, 64000);
	check_pt(&rs, "After", "fio", "jobs", 1, 18000);
	check_pt(&rs, "After", "fio", "jobs", 10, 120000);
	assert_string_equal(find(&rs, "After", 0, "fio", 10)->unit, "iops");
	check_pt(&rs, "new", "part_stat_read_all", "run", 0, 194);
	assert_null(find(&rs, "old", 0, "part_stat_read_all", 0));     /* "-": no value */
	check_pt(&rs, "old", "diskstats_show", "run", 0, 1344);
	check_pt(&rs, "new", "part_stat_show", "run", 0, 392);
	assert_int_equal(count(&rs, "delta", -1, NULL), 0);
	assert_int_equal(rs.n, 4 + 5);
	assert_int_equal(nn, 2);
	assert_int_equal(notes[0].first, 20);
	assert_int_equal(notes[0].last, 21);
	assert_non_null(strstr(notes[0].text, "2 rows; x over columns JOBS=1, JOBS=10; x jobs; metric fio (iops)"));
	assert_int_equal(notes[1].first, 27);
	assert_int_equal(notes[1].last, 29);
	assert_non_null(strstr(notes[1].text, "3 rows; labels old, new; x run;"));
	assert_non_null(strstr(notes[1].text, "1 derived cols/rows skipped; 5 read, 1 not read (n/a cells)"));
	result_set_free(&rs);
}

/* Yongji Xie's VDUSE numbers quoted in Jason Wang's reply (2021): a header
 * "numjobs=1  numjobs=2  numjobs=4  numjobs=8" over rows named by the
 * allocator, a blank line between the rows, cells "145k iops". */
static void test_mail_transposed_named_x_blank_rows(void **st)
{
	(void)st;
	PARSE_POST("vduse-iova-numjobs-transposed-quoted-2021.txt", 8);
	char labels[4][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 4), 3);
	assert_string_equal(labels[0], "iova_alloc_fast");
	assert_string_equal(labels[1], "iova_alloc");
	assert_string_equal(labels[2], "gen_pool_alloc");
	static const double nj[4] = { 1, 2, 4, 8 };
	static const double v[3][4] = { { 145e3, 265e3, 514e3, 758e3 }, { 137e3, 170e3, 128e3, 113e3 },
					{ 143e3, 270e3, 458e3, 521e3 } };
	for (int l = 0; l < 3; l++)
		for (int i = 0; i < 4; i++) {
			check_pt(&rs, labels[l], "fio", "numjobs", nj[i], v[l][i]);
			assert_string_equal(find(&rs, labels[l], 0, "fio", nj[i])->unit, "iops");
		}
	assert_int_equal(rs.n, 12);
	assert_int_equal(nn, 1);
	assert_int_equal(notes[0].first, 36);
	assert_int_equal(notes[0].last, 40);
	assert_non_null(strstr(notes[0].text, "3 rows; x over columns numjobs=1, numjobs=2, numjobs=4, numjobs=8; x numjobs; "
					      "metric fio (iops)"));
	result_set_free(&rs);
}

/* Kiryl Shutsemau's fast short reads patch quoted in David Hildenbrand's
 * reply (2025): two |-tables with a two-line header ("Block | Baseline |
 * Baseline | Patched | Patched" over "size | same file | diff files | ..."),
 * each row followed by a line of its spreads ("|       |    (0.497) |"),
 * the unit in the prose title ("16 threads, reads from 4k file(s), mean
 * MiB/s (StdDev)"); "diff files" (different files) is a label, not a
 * derived column; the second table, same header, is kept apart ("table 2"). */
static void test_mail_pipe_two_line_header_spread_rows(void **st)
{
	(void)st;
	PARSE_POST("filemap-fast-reads-pipe-spread-rows-quoted-2025.txt", 8);
	char labels[6][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 6), 4);
	assert_string_equal(labels[0], "Baseline same file");
	assert_string_equal(labels[1], "Baseline diff files");
	assert_string_equal(labels[2], "Patched same file");
	assert_string_equal(labels[3], "Patched diff files");
	static const double bs[6] = { 1, 32, 256, 1024, 4096, 32768 };
	for (int l = 0; l < 4; l++) {
		for (int i = 0; i < 6; i++) {
			const struct result_point *q = find_set(&rs, labels[l], "table 2", 0, "value", bs[i]);
			assert_non_null(q);
			assert_string_equal(q->x_name, "block size");
			assert_string_equal(q->unit, "MiB/s");
			assert_true(q->flags & RP_SPREAD);
			if (i < 5)
				assert_non_null(find(&rs, labels[l], 0, "value", bs[i]));
		}
		assert_null(find_set(&rs, labels[l], "", 0, "value", 32768));
	}
	/* read by hand from the post: value, then the spread under it */
	static const struct { int l; const char *setting; double x, v, sd; } want[] = {
		{ 0, "", 1, 10.96, 0.497 },      { 3, "", 1, 30.4, 0.158 },
		{ 1, "", 256, 7009.6, 28.00 },   { 2, "", 4096, 48420, 2012 },
		{ 3, "", 4096, 102000, 0 },      { 0, "table 2", 1, 26.38, 0.998 },
		{ 1, "table 2", 1024, 26840, 151.6 }, { 2, "table 2", 32768, 368600, 47188 },
		{ 3, "table 2", 32768, 397400, 6107 },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct result_point *q = find_set(&rs, labels[want[i].l], want[i].setting, 0, "value", want[i].x);
		assert_non_null(q);
		assert_double_equal(q->value, want[i].v, 1e-9);
		assert_double_equal(q->spread, want[i].sd, 1e-9);
	}
	assert_int_equal(count(&rs, NULL, 1, NULL), 0);     /* no spread line became a row or a run */
	assert_int_equal(rs.n, 4 * (5 + 6));
	assert_int_equal(nn, 2);
	assert_int_equal(notes[0].first, 50);
	assert_int_equal(notes[0].last, 58);
	assert_int_equal(notes[1].first, 68);
	assert_int_equal(notes[1].last, 78);
	assert_non_null(strstr(notes[1].text, "labels Baseline same file, Baseline diff files, Patched same file +1; x "
					      "block size; metric value (MiB/s)"));
	result_set_free(&rs);
}

/* Kairui Song's numbers quoted in Yosry Ahmed's reply (2024, sent
 * quoted-printable): no header, each row a label and its five runs
 * ("Before:   1908944 1905870 ..."), the unit in the prose above ("time of
 * swapin 2G zero pages in us"). */
static void test_mail_runs_per_label(void **st)
{
	(void)st;
	PARSE_POST("zswap-xarray-runs-per-label-qp-quoted-2024.txt", 4);
	char labels[6][RP_LABEL_LEN];
	assert_int_equal(distinct_labels(&rs, NULL, labels, 6), 5);
	static const char *const want[5] = { "Before", "xa_empty", "z.._enabled", "xas_load", "combined" };
	static const double v[5][5] = {
		{ 1908944, 1905870, 1905322, 1905627, 1901667 }, { 1835343, 1827367, 1828402, 1831841, 1832719 },
		{ 1838428, 1831162, 1838205, 1837287, 1840980 }, { 1874606, 1878971, 1870182, 1875852, 1873403 },
		{ 1845309, 1832919, 1831904, 1836455, 1842570 },
	};
	for (int l = 0; l < 5; l++) {
		assert_string_equal(labels[l], want[l]);
		for (int r = 0; r < 5; r++) {
			const struct result_point *q = find(&rs, want[l], r, "value", 0);
			assert_non_null(q);
			assert_double_equal(q->value, v[l][r], 0);
			assert_string_equal(q->unit, "us");
			assert_string_equal(q->x_name, "run");
		}
	}
	assert_int_equal(rs.n, 25);
	assert_int_equal(nn, 1);
	assert_int_equal(notes[0].first, 68);
	assert_int_equal(notes[0].last, 72);
	assert_string_equal(notes[0].text, "lines 68-72: table 1: 5 rows, each a label ('Name:') and 5 runs of it in us; 25 read");
	result_set_free(&rs);
}

/* A unit the prose states "in us" is the unit of the table under it, not
 * one from three tables up (the schbench table of the AMD post said MB/s,
 * the stream tables' unit). */
static void test_mail_unit_in_us_prose(void **st)
{
	(void)st;
	struct result_set rs;
	parse(MAIL "sched-stats-prop-cv-pct-imp-2025.txt", NULL, &rs);
	assert_string_equal(find(&rs, "stats_prop", 0, "schbench median", 128)->unit, "us");
	assert_string_equal(find(&rs, "tip", 0, "schbench median", 1)->unit, "us");
	assert_string_equal(find(&rs, "tip", 0, "stream-10 hmean_copy", 0)->unit, "MB/s");
	result_set_free(&rs);
}

/* Ning Qu's reply (2013) to the THP page cache cover letter, as the list
 * delivered it: multipart/alternative, its text part quoted-printable, the
 * cover letter quoted under "> " and wrapped by the mailer at 78 columns,
 * so each iozone header and row comes in two lines ("> threads: 1 2 4 8
 * 10" then ">       20 30 ... 8=" "0" by a soft break).  Exactly the points
 * of the cover letter as archived. */
static void test_mail_transposed_wrapped_qp(void **st)
{
	(void)st;
	struct result_set orig, rs = { 0 };
	struct parser_note notes[16];
	size_t nn = 0;
	parse(MAIL "thp-pagecache-iozone-threads-transposed-2013.txt", NULL, &orig);
	parse_post(MAIL "thp-pagecache-iozone-wrapped-qp-multipart-quoted-2013.txt", &rs, notes, 16, &nn);
	/* the excerpt holds the iozone tables only */
	struct result_set io = { 0 };
	for (size_t i = 0; i < orig.n; i++)
		if (strcmp(orig.v[i].x_name, "threads") == 0)
			result_set_add(&io, &orig.v[i]);
	assert_int_equal(io.n, 7 * 2 * 12);
	assert_same_points(&io, &rs);
	check_pt(&rs, "baseline", "initial writers", "threads", 80, 11040376);
	check_pt(&rs, "patched", "random_writers", "threads", 1, 4335323);
	assert_int_equal(nn, 7);
	for (int k = 0; k < 7; k++) {
		assert_true(notes[k].understood);
		assert_int_equal(notes[k].first, 41 + 14 * k);
		assert_int_equal(notes[k].last, 47 + 14 * k);
		assert_non_null(strstr(notes[k].text, "3 rows; x over columns 1, 2, 4, 8, 10, 20, 30, 40, 50, 60, 70, 80; x threads"));
		assert_non_null(strstr(notes[k].text, "1 derived cols/rows skipped; 24 read, 0 not read"));
	}
	result_set_free(&io);
	result_set_free(&orig);
	result_set_free(&rs);
}

/* A cell or a row of a |-table that cannot be read is said, never dropped
 * silently: the THP post with one tiobench cell made "~8341 MB/s" (its
 * other figures still read), and a table made here whose last rows hold
 * "1.2e" and "3 (x)" cells. */
static void tilde_cell(const char *line, FILE *o)
{
	const char *c = strstr(line, "| 8341.118 MB/s |");
	if (c)
		fprintf(o, "%.*s| ~8341 MB/s    |%s\n", (int)(c - line), line, c + strlen("| 8341.118 MB/s |"));
	else
		fprintf(o, "%s\n", line);
}

static void test_mail_unread_cells_said(void **st)
{
	(void)st;
	char path[] = "/tmp/iodash-mail-unread-XXXXXX";
	rewrite_fixture(MAIL "thp-pagecache-iozone-threads-transposed-2013.txt", path, tilde_cell);
	struct result_set rs = { 0 };
	struct parser_note notes[16];
	size_t nn = 0;
	char err[256];
	int rc = parser_parse_file_notes(path, NULL, NULL, &rs, notes, 16, &nn, err, sizeof(err));
	unlink(path);
	assert_int_equal(rc, 0);
	assert_int_equal(nn, 13);
	assert_false(notes[2].understood);
	assert_int_equal(notes[2].first, 123);
	assert_non_null(strstr(notes[2].text, "15 read, 1 not read; 1 cells that are no figure (the first at line 124)"));
	assert_true(notes[3].understood);
	assert_null(find(&rs, "baseline", 0, "random write 62 mbs rate", 0));
	check_pt(&rs, "baseline", "random write 62 mbs sys cpu", "run", 0, 2615.8);
	result_set_free(&rs);

	struct parser *p = parser_new("mail", "m");
	struct result_sink sink = result_set_sink(&rs);
	const char *text = "locktorture ops/minute:\n"
			   "\n"
			   "| # tasks | vanilla | dirty |\n"
			   "|---------|---------|-------|\n"
			   "| 2       | 100     | 110   |\n"
			   "| 4       | 1.2e    | 210   |\n"
			   "| write   | 3 (x)   | 4 foo |\n";
	parser_feed(p, text, strlen(text), &sink);
	parser_finish(p, &sink);
	const struct parser_note *pn;
	assert_int_equal(parser_notes(p, &pn), 1);
	assert_false(pn[0].understood);
	assert_int_equal(pn[0].first, 5);   /* the "write" line is no row of it */
	assert_int_equal(pn[0].last, 6);
	assert_non_null(strstr(pn[0].text, "3 read, 1 not read; 1 cells that are no figure (the first at line 6)"));
	assert_int_equal(rs.n, 3);
	parser_free(p);
	result_set_free(&rs);
}

/* A mail's header block is never a table: "Content-Length: 1234" over
 * "Lines: 42" has the shape of runs per label (text made here). */
static void test_mail_header_block_not_runs(void **st)
{
	(void)st;
	struct result_set rs;
	feed_all("mail",
		 "From: a@example.org\n"
		 "Content-Length: 1234\n"
		 "Lines: 42\n"
		 "\n"
		 "Before:   1 2\n"
		 "After:    3 4\n",
		 &rs);
	assert_int_equal(count(&rs, "Content-Length", -1, NULL), 0);
	assert_int_equal(count(&rs, "Lines", -1, NULL), 0);
	assert_double_equal(find(&rs, "After", 1, "value", 0)->value, 4, 0);
	assert_int_equal(rs.n, 4);
	result_set_free(&rs);
}

/* Anton Blanchard's RISC-V patch quoted in Jisheng Zhang's reply (2023):
 * two small tables of the same labels ("baseline: 189.87 ns"), one per
 * machine, each under a title naming it ("Visionfive2 (StarFive JH7110 /
 * U74)"): the title is the metric, so the two machines are never pooled
 * as two runs. */
static void test_mail_runs_per_label_titles(void **st)
{
	(void)st;
	PARSE_POST("riscv-syscall-latency-machine-titles-quoted-2023.txt", 4);
	check_pt(&rs, "baseline", "visionfive2 starfive jh7110 / u74", "run", 0, 189.87);
	check_pt(&rs, "patched", "visionfive2 starfive jh7110 / u74", "run", 0, 176.76);
	check_pt(&rs, "baseline", "lichee pi 4a t-head th1520 / c910", "run", 0, 666.58);
	check_pt(&rs, "patched", "lichee pi 4a t-head th1520 / c910", "run", 0, 636.90);
	assert_string_equal(find(&rs, "patched", 0, "lichee pi 4a t-head th1520 / c910", 0)->unit, "ns");
	assert_int_equal(count(&rs, NULL, 1, NULL), 0);
	assert_int_equal(rs.n, 4);
	assert_int_equal(nn, 2);
	assert_int_equal(notes[0].first, 24);
	assert_int_equal(notes[0].last, 25);
	assert_int_equal(notes[1].first, 28);
	assert_non_null(strstr(notes[1].text, "2 rows; metrics -; x run; metric lichee pi 4a t-head th1520 / c91 (ns)"));
	result_set_free(&rs);
}

/* Kairui Song's swap race fix (2024): an ASCII diagram of two CPUs
 * ("CPU0  CPU1" over "----  ----"), a reproducer's output with numbers
 * ("Round 0: Error on 0x5aa00, expected 32746, got 32743, 3 data loss!"),
 * the diffstat: none of them a table; the one table is three labels of one
 * run each with a unit word and a remark ("Non-direct: 13155355 us
 * (Dropping SWP_SYNCHRONOUS_IO flag)"). */
static void test_mail_runs_among_prose(void **st)
{
	(void)st;
	PARSE_POST("swap-race-runs-diagram-prose-2024.txt", 4);
	check_pt(&rs, "Before", "value", "run", 0, 10934698);
	check_pt(&rs, "After", "value", "run", 0, 11157121);
	check_pt(&rs, "Non-direct", "value", "run", 0, 13155355);
	assert_string_equal(find(&rs, "Non-direct", 0, "value", 0)->unit, "us");
	assert_int_equal(rs.n, 3);
	/* the race diagram's line of two figures is said, not read */
	assert_int_equal(nn, 2);
	assert_false(notes[0].understood);
	assert_int_equal(notes[0].first, 60);
	assert_int_equal(notes[1].first, 76);
	assert_int_equal(notes[1].last, 78);
	result_set_free(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dbench_2416_vs_2417pre2),
		cmocka_unit_test(test_dbench_2419rc5_table),
		cmocka_unit_test(test_iozone_dirty_ratio),
		cmocka_unit_test(test_table_with_diff_column_and_rules),
		cmocka_unit_test(test_label_blocks_without_blank_lines),
		cmocka_unit_test(test_mail_pipe_and_mmtests),
		cmocka_unit_test(test_mail_mmtests_titles),
		cmocka_unit_test(test_mail_mmtests_quoted_two_line_header),
		cmocka_unit_test(test_mail_lkp_stddev_change),
		cmocka_unit_test(test_mail_mmtests_setting_titles),
		cmocka_unit_test(test_mail_mmtests_setting_lines),
		cmocka_unit_test(test_mail_mmtests_ragged_header),
		cmocka_unit_test(test_mail_notes),
		cmocka_unit_test(test_mail_table_not_understood),
		cmocka_unit_test(test_mail_prose_and_diff_not_tables),
		cmocka_unit_test(test_mail_mmtests_setting_titles_unquoted),
		cmocka_unit_test(test_mail_lkp_quoted_and_retest),
		cmocka_unit_test(test_mail_stated_changes_checked),
		cmocka_unit_test(test_mail_seed_notes),
		cmocka_unit_test(test_mail_pipe_rows_named),
		cmocka_unit_test(test_mail_pipe_repeated_header),
		cmocka_unit_test(test_mail_keyed_rows),
		cmocka_unit_test(test_mail_keyed_many_labels),
		cmocka_unit_test(test_mail_quoted_printable),
		cmocka_unit_test(test_mail_wrapped_rows),
		cmocka_unit_test(test_mail_lkp_spread_kept),
		cmocka_unit_test(test_mail_derived_columns_checked),
		cmocka_unit_test(test_mail_spread_unit_cells_and_transposed),
		cmocka_unit_test(test_mail_qp_robot_post),
		cmocka_unit_test(test_mail_contest_label_rows),
		cmocka_unit_test(test_mail_pct_change_cells),
		cmocka_unit_test(test_mail_cv_spread_cells),
		cmocka_unit_test(test_mail_transposed_iozone_titles),
		cmocka_unit_test(test_mail_transposed_derived_row_checked),
		cmocka_unit_test(test_mail_label_rows_and_unit_cells),
		cmocka_unit_test(test_mail_transposed_named_x_diskstats),
		cmocka_unit_test(test_mail_transposed_named_x_blank_rows),
		cmocka_unit_test(test_mail_pipe_two_line_header_spread_rows),
		cmocka_unit_test(test_mail_runs_per_label),
		cmocka_unit_test(test_mail_unit_in_us_prose),
		cmocka_unit_test(test_mail_transposed_wrapped_qp),
		cmocka_unit_test(test_mail_unread_cells_said),
		cmocka_unit_test(test_mail_header_block_not_runs),
		cmocka_unit_test(test_mail_runs_per_label_titles),
		cmocka_unit_test(test_mail_runs_among_prose),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
