/* parsers: issue 28's table reader (--parser tables) on small tables cut
 * from the shapes of real posts (tests/fixtures/tables/work/): what the
 * geometry finds and what role each column gets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "iodash/parsers/parser.h"

static void read_text(const char *text, struct result_set *rs, struct parser **keep)
{
	struct parser *p = parser_new("tables", "post");
	assert_non_null(p);
	memset(rs, 0, sizeof(*rs));
	struct result_sink sink = result_set_sink(rs);
	parser_feed(p, text, strlen(text), &sink);
	parser_finish(p, &sink);
	if (keep)
		*keep = p;
	else
		parser_free(p);
}

/* The point of that label and metric at x (metric may be a prefix). */
static const struct result_point *find(const struct result_set *rs, const char *label, const char *metric, double x)
{
	for (size_t i = 0; i < rs->n; i++)
		if (!strcmp(rs->v[i].label, label) && !strncmp(rs->v[i].metric, metric, strlen(metric)) &&
		    rs->v[i].x == x)
			return &rs->v[i];
	return NULL;
}

static bool has_value(const struct result_set *rs, double v)
{
	for (size_t i = 0; i < rs->n; i++)
		if (fabs(rs->v[i].value - v) < 1e-9)
			return true;
	return false;
}

/* mmtests: two kernels over two header lines, x in "tput-N", change cells
 * ( 0.00%) and * -2.61%* are never values, the title names the metric. */
static void test_tables_mmtests(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("specjbb\n"
		  "                               5.6.0-rc1              5.6.0-rc1\n"
		  "                             baseline-v3             loadavg-v3\n"
		  "Hmean     tput-1     43593.49 (   0.00%)    41616.85 (  -4.53%)\n"
		  "Hmean     tput-2     95692.84 (   0.00%)    93196.89 *  -2.61%*\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 4);
	const struct result_point *pt = find(&rs, "5.6.0-rc1 loadavg-v3", "specjbb_hmean", 2);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 93196.89) < 1e-6);
	assert_string_equal(pt->x_name, "x");
	assert_non_null(find(&rs, "5.6.0-rc1 baseline-v3", "specjbb_hmean", 1));
	assert_false(has_value(&rs, 4.53));
	assert_false(has_value(&rs, 2.61));
	result_set_free(&rs);
}

/* fs_mark under two titles: each title is the label ("Before this
 * change:" -> "Before"), x is the Count that grows row by row (FSUse%,
 * constant, is no x), a (+1.6%) change cell is skipped. */
static void test_tables_titles_label_metric_header(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("Before this change:\n"
		  "\n"
		  "FSUse%        Count         Size    Files/sec     App Overhead\n"
		  "     0      1200000            0     165273.6          5958381\n"
		  "     0      2400000            0     190938.3          6284477\n"
		  "\n"
		  "After this change:\n"
		  "\n"
		  "FSUse%        Count         Size    Files/sec            App Overhead\n"
		  "     0      1200000            0     167987.3 (+1.6%)         6272730\n"
		  "     0      2400000            0     198563.9 (+4.0%)         6048847\n",
		  &rs, NULL);
	const struct result_point *pt = find(&rs, "Before", "files/sec", 1200000);
	assert_non_null(pt);
	assert_string_equal(pt->x_name, "count");
	assert_true(fabs(pt->value - 165273.6) < 1e-6);
	assert_non_null(find(&rs, "After", "files/sec", 2400000));
	assert_false(has_value(&rs, 1.6));
	result_set_free(&rs);
}

/* fio summary lines: name=value cells name their metric, bs=4k is x. */
static void test_tables_fio_name_value_rows(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("Before:\n"
		  " bs=4k       IOPS=11.1k, BW=43.2MiB/s\n"
		  " bs=16k      IOPS=11.1k, BW=173MiB/s\n"
		  "\n"
		  "After:\n"
		  " bs=4k       IOPS=41.4k, BW=162MiB/s\n"
		  " bs=16k      IOPS=41.3k, BW=646MiB/s\n",
		  &rs, NULL);
	const struct result_point *pt = find(&rs, "After", "iops", 4);
	assert_non_null(pt);
	assert_string_equal(pt->x_name, "bs_kb");
	assert_true(fabs(pt->value - 41400) < 1e-6);
	pt = find(&rs, "Before", "bw", 16);
	assert_non_null(pt);
	assert_string_equal(pt->unit, "MiB/s");
	assert_true(fabs(pt->value - 173) < 1e-6);
	result_set_free(&rs);
}

/* A cell out of range is n/a with a note naming its line; the other rows
 * of the table are read. */
static void test_tables_out_of_range_cell(void **state)
{
	(void)state;
	struct result_set rs;
	struct parser *p;
	read_text("clients   vanilla   patched\n"
		  "1         100.5     101.5\n"
		  "2         1e309     202.5\n"
		  "4         400.5     401.5\n",
		  &rs, &p);
	assert_non_null(find(&rs, "vanilla", "value", 1));
	assert_non_null(find(&rs, "patched", "value", 2));
	assert_non_null(find(&rs, "vanilla", "value", 4));
	assert_null(find(&rs, "vanilla", "value", 2));
	const struct parser_note *notes;
	size_t n = parser_notes(p, &notes);
	bool said = false;
	for (size_t i = 0; i < n; i++)
		said = said || (strstr(notes[i].text, "line 3") && strstr(notes[i].text, "out of range"));
	assert_true(said);
	parser_free(p);
	result_set_free(&rs);
}

/* A patch's diffstat and hunk lines are no table; a quoted-printable
 * body is decoded before the geometry (=3D, a soft break). */
static void test_tables_diffstat_and_qp(void **state)
{
	(void)state;
	struct result_set rs;
	read_text(" fs/ext4/file.c | 34 ++++++++++++++++++++++------------\n"
		  " 1 file changed, 22 insertions(+), 12 deletions(-)\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 0);
	result_set_free(&rs);
	read_text("Content-Transfer-Encoding: quoted-printable\n"
		  "\n"
		  "> numjobs=3D4 results:\n"
		  ">    clients   vanilla    patched\n"
		  ">    1          10.5      11.5\n"
		  ">    2          20.5      21=\n"
		  ".5\n",
		  &rs, NULL);
	const struct result_point *pt = find(&rs, "patched", "", 2);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 21.5) < 1e-9);
	result_set_free(&rs);
}

/* "(SNC on)" under the header is the rows' setting, never their label;
 * "(SNC off)" between rows starts rows of the same table. */
static void test_tables_setting_lines(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("tbench4 Throughput\n"
		  "                         unpatched		  patched\n"
		  "(SNC on)\n"
		  "Hmean     1        309.43 (   0.00%)      301.54 *  -2.55%*\n"
		  "Hmean     2        613.92 (   0.00%)      607.81 *  -0.99%*\n"
		  "(SNC off)\n"
		  "Hmean     1        287.90 (   0.00%)      292.37 *   1.55%*\n",
		  &rs, NULL);
	size_t on = 0, off = 0;
	for (size_t i = 0; i < rs.n; i++) {
		assert_true(!strcmp(rs.v[i].label, "unpatched") || !strcmp(rs.v[i].label, "patched"));
		on += !strcmp(rs.v[i].setting, "(SNC on)");
		off += !strcmp(rs.v[i].setting, "(SNC off)");
	}
	assert_int_equal(on, 4);
	assert_int_equal(off, 2);
	result_set_free(&rs);
}

/* Transposed: a header of x values, rows named by their label. */
static void test_tables_transposed(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("** Initial writers **\n"
		  "threads:	          1          2          4\n"
		  "baseline:	    4741691    7986408    9149064\n"
		  "patched:	    4682864    7275535    8691034\n",
		  &rs, NULL);
	const struct result_point *pt = find(&rs, "patched", "initial writers", 4);
	assert_non_null(pt);
	assert_string_equal(pt->x_name, "threads");
	assert_true(fabs(pt->value - 8691034) < 1e-6);
	result_set_free(&rs);
}

/* The number of points of that label and metric (exact) at x. */
static int count_at(const struct result_set *rs, const char *label, const char *metric, double x)
{
	int n = 0;
	for (size_t i = 0; i < rs->n; i++)
		n += !strcmp(rs->v[i].label, label) && !strcmp(rs->v[i].metric, metric) && rs->v[i].x == x;
	return n;
}

/* Two tables under one header (numjobs=1, then numjobs=3) are two
 * measurements: the second's points are never runs of the first (its
 * setting says "table N" when nothing else tells them apart); a row's
 * name keeps its blanks; "1. one thread" is a list item, no row. */
static void test_tables_not_pooled_across_tables(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("1. one thread\n"
		  "\n"
		  "The first run was made with one thread and the default settings.\n"
		  "     | IOPS (IRQ mode) | IOPS (poll mode) | diff\n"
		  "---- | --------------- | ---------------- | ----\n"
		  "  dm |            208k |             279k | ~34%\n"
		  "\n"
		  "2. three threads, more text to make it prose and not a title at all.\n"
		  "\n"
		  "     | IOPS (IRQ mode) | IOPS (poll mode) | diff\n"
		  "---- | --------------- | ---------------- | ----\n"
		  "  dm |            615k |             728k | ~18%\n"
		  "without patchset | 242k | 332k | ~39%\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 6);
	for (size_t i = 0; i < rs.n; i++)
		assert_int_equal(rs.v[i].run, 0);
	assert_true(has_value(&rs, 208000) && has_value(&rs, 615000));
	int tabled = 0;
	for (size_t i = 0; i < rs.n; i++)
		tabled += !strcmp(rs.v[i].metric, "dm") && !strncmp(rs.v[i].setting, "table ", 6);
	assert_int_equal(tabled, 2);
	assert_non_null(find(&rs, "IOPS (IRQ mode)", "without patchset", 0));
	result_set_free(&rs);
}

/* A robot's metric name longer than 31 characters is kept whole, never
 * cut into a neighbour's (the two rows were one metric of two runs). */
static void test_tables_long_metric_names(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("4cbfca5f7750520f 0568e6122574dcc1aded2979cd0\n"
		  "---------------- ---------------------------\n"
		  "          %stddev     %change         %stddev\n"
		  "              \\          |                \\\n"
		  "     8935079           -11.9%    7870629        stress-ng.time.file_system_outputs\n"
		  "       14.88            -31.8%      10.14        stress-ng.time.file_system_inputs\n",
		  &rs, NULL);
	assert_int_equal(count_at(&rs, "4cbfca5f7750520f", "stress-ng.time.file_system_outputs", 0), 1);
	assert_int_equal(count_at(&rs, "4cbfca5f7750520f", "stress-ng.time.file_system_inputs", 0), 1);
	result_set_free(&rs);
}

/* tiobench.pl's report: the dash rule gives the columns, "Rate (CPU%)"
 * under "Seq Read" is two figures, x is Num Thr (File Size and Block Size
 * are the same on every row: settings), "." names nothing, the heading
 * above names the label. */
static void test_tables_tiobench_ruled_columns(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("XFS\n"
		  "\n"
		  "         File   Block  Num  Seq Read    Rand Read   Seq Write  Rand Write\n"
		  "  Dir    Size   Size   Thr Rate (CPU%) Rate (CPU%) Rate (CPU%) Rate (CPU%)\n"
		  "------- ------ ------- --- ----------- ----------- ----------- -----------\n"
		  "   .     256    4096    1  9.601 8.36% 0.644 1.48% 9.367 20.8% 0.587 1.12%\n"
		  "   .     256    4096    2  7.201 6.51% 0.672 1.50% 9.323 24.3% 0.582 1.63%\n",
		  &rs, NULL);
	const struct result_point *pt = find(&rs, "XFS", "seq read rate", 2);
	assert_non_null(pt);
	assert_string_equal(pt->x_name, "num thr");
	assert_true(fabs(pt->value - 7.201) < 1e-9);
	pt = find(&rs, "XFS", "seq read cpu%", 1);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 8.36) < 1e-9);
	assert_non_null(find(&rs, "XFS", "rand write rate", 1));
	assert_false(has_value(&rs, 256));
	assert_false(has_value(&rs, 4096));
	assert_int_equal(rs.n, 16);
	result_set_free(&rs);
}

/* tiobench's boxed tables: a field between bars is one cell, the label
 * comes from the line above tiobench's own heading, each row's name stays
 * in its metric (four rows are four metrics, not four runs). */
static void test_tables_tiotest_boxes(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("patched:\n"
		  "Tiotest results for 16 concurrent io threads:\n"
		  ",----------------------------------------------------------------------.\n"
		  "| Item                  | Time     | Rate         | Usr CPU  | Sys CPU |\n"
		  "+-----------------------+----------+--------------+----------+---------+\n"
		  "| Write        2048 MBs |    0.3 s | 7942.818 MB/s | 442.1 %  | 5533.6 % |\n"
		  "| Random Read    62 MBs |    0.0 s | 9823.955 MB/s | 251.5 %  | 2011.9 % |\n"
		  "`----------------------------------------------------------------------'\n",
		  &rs, NULL);
	const struct result_point *pt = find(&rs, "patched", "random read 62 mbs rate", 0);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 9823.955) < 1e-9);
	assert_string_equal(pt->unit, "MB/s");
	pt = find(&rs, "patched", "write 2048 mbs usr cpu", 0);
	assert_non_null(pt);
	assert_string_equal(pt->unit, "%");
	for (size_t i = 0; i < rs.n; i++)
		assert_int_equal(rs.v[i].run, 0);
	assert_false(has_value(&rs, 2048));
	result_set_free(&rs);
}

/* A header whose names hold numbers is the header, not a first row. */
static void test_tables_numbered_header(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("throughput (files/sec)\n"
		  "\n"
		  "                2000 files by 1M        200 files by 10M\n"
		  "baseline        5326.1                  548.1\n"
		  "patched         5192.8                  528.4\n",
		  &rs, NULL);
	assert_false(has_value(&rs, 2000));
	assert_false(has_value(&rs, 10));
	/* the title's unit in brackets is the figures' unit */
	const struct result_point *pt = find(&rs, "patched", "throughput_2000 files", 0);
	assert_non_null(pt);
	assert_string_equal(pt->unit, "files/s");
	bool first = false;
	for (size_t i = 0; i < rs.n; i++)
		first = first || (!strcmp(rs.v[i].label, "patched") && strstr(rs.v[i].metric, "2000 files") &&
				  fabs(rs.v[i].value - 5192.8) < 1e-9);
	assert_true(first);
	result_set_free(&rs);
}

/* A mailer wrapped the x row and each keyed row at 76 columns: joined
 * again, all twelve thread counts are read; the speed-up row is derived. */
static void test_tables_wrapped_rows(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("** Initial writers **\n"
		  "threads:                  1          2          4          8         10\n"
		  "      20         30         40         50         60         70         80\n"
		  "baseline:           4741691    7986408    9149064    9898695    9868597\n"
		  " 9629383    9469202   11605064    9507802   10641869   11360701   11040376\n"
		  "patched:            4682864    7275535    8691034    8872887    8712492\n"
		  " 8771912    8397216    7701346    7366853    8839736    8299893   10788439\n"
		  "speed-up(times):       0.99       0.91       0.95       0.90       0.88\n"
		  "    0.91       0.89       0.66       0.77       0.83       0.73       0.98\n",
		  &rs, NULL);
	const struct result_point *pt = find(&rs, "baseline", "initial writers", 80);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 11040376) < 1e-9);
	pt = find(&rs, "patched", "initial writers", 10);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 8712492) < 1e-9);
	assert_int_equal(rs.n, 24);
	assert_false(has_value(&rs, 0.99));
	result_set_free(&rs);
}

/* Lines that name nothing compared ("Create 20000 files: 116.88") are
 * under the source's label, the count inside the name is no value. */
static void test_tables_unlabelled_rows(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("Create 20000 files: 116.882449\n"
		  "Unlink 20000 files: 47.449201\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 2);
	for (size_t i = 0; i < rs.n; i++)
		assert_string_equal(rs.v[i].label, "post");
	assert_false(has_value(&rs, 20000));
	result_set_free(&rs);
}

/* Scheduler reports: "N-groups:" rows of a value and its "(0.00 pct)"
 * change under "Test:  tip  patched" are rows (not a header). */
static void test_tables_pct_change_rows(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("NPS1\n"
		  "\n"
		  "Test:                   tip                     sis_core\n"
		  " 1-groups:         4.06 (0.00 pct)         4.26 (-4.92 pct)\n"
		  " 2-groups:         4.76 (0.00 pct)         4.91 (-3.15 pct)\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 4);
	const struct result_point *pt = find(&rs, "sis_core", "nps1", 2);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 4.91) < 1e-9);
	assert_false(has_value(&rs, 4.92) || has_value(&rs, -4.92));
	result_set_free(&rs);
}

/* A block of "Test : hackbench", "Statistic : AMean" lines between rules
 * names the table; "tip[pct imp](CV)" heads a label (tip) whose cells are
 * a value, [its change] and (its spread), only the value read. */
static void test_tables_property_block(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("==================================================================\n"
		  "Test          : hackbench\n"
		  "Units         : Normalized time in seconds\n"
		  "Interpretation: Lower is better\n"
		  "Statistic     : AMean\n"
		  "==================================================================\n"
		  "Case:           tip[pct imp](CV)     stats_prop[pct imp](CV)\n"
		  " 1-groups     1.00 [ -0.00]( 2.34)     1.09 [ -9.11]( 5.07)\n"
		  " 2-groups     1.00 [ -0.00]( 1.48)     0.98 [  1.93]( 3.27)\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 4);
	const struct result_point *pt = find(&rs, "stats_prop", "hackbench amean", 1);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 1.09) < 1e-9);
	assert_non_null(find(&rs, "tip", "hackbench amean", 2));
	assert_false(has_value(&rs, 5.07) || has_value(&rs, -9.11));
	result_set_free(&rs);
}

/* Rows named by kernels, one of which looks like a number ("6.1" over
 * "6.1+patch"), under "kernel  read  write": the names are the labels,
 * read and write the metrics; two rows that grow are no x. */
static void test_tables_kernel_rows(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("kernel          read    write\n"
		  "6.1             1200    800\n"
		  "6.1+patch       1250    790\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 4);
	const struct result_point *pt = find(&rs, "6.1", "read", 0);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 1200) < 1e-9);
	pt = find(&rs, "6.1+patch", "write", 0);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 790) < 1e-9);
	result_set_free(&rs);
}

/* "4 clients  3.1 MB/sec": x is named by the word after it. */
static void test_tables_x_named_in_row(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("                test10          test11\n"
		  " 4 clients      3.1 MB/sec      4.2 MB/sec\n"
		  " 8 clients      2.9 MB/sec      3.8 MB/sec\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 4);
	const struct result_point *pt = find(&rs, "test11", "", 8);
	assert_non_null(pt);
	assert_string_equal(pt->x_name, "clients");
	assert_string_equal(pt->unit, "MB/sec");
	assert_true(fabs(pt->value - 3.8) < 1e-9);
	result_set_free(&rs);
}

/* mmtests with a long key ("SeqRead-MB/sec-16": x 16 in the name) under
 * which a kernel's second header line starts: that word is a label's,
 * never x's name; "vanilla" twice stays two labels. */
static void test_tables_mmtests_long_key(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("dbench4\n"
		  "                               4.19.0                 4.19.0                 5.0.0\n"
		  "                              vanilla               patch-v1               vanilla\n"
		  "Min       SeqRead-MB/sec-16      67.39 (   0.00%)       70.00 (   3.87%)       68.00 (   0.91%)\n"
		  "Amean     SeqRead-MB/sec-16      70.39 (   0.00%)       72.00 (   2.29%)       71.00 (   0.87%)\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 6);
	const struct result_point *pt = find(&rs, "5.0.0 vanilla", "dbench4_amean_seqread-mb/sec", 16);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 71) < 1e-9);
	assert_string_not_equal(pt->x_name, "vanilla");
	assert_non_null(find(&rs, "4.19.0 vanilla", "dbench4_min", 16));
	result_set_free(&rs);
}

/* Runs: "Run 1: 12345" rows are runs of one key (the run number is no x),
 * and figures a line under "Before:" are runs of Before. */
static void test_tables_runs(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("Without the patch (ops/sec):\n"
		  "  Run 1: 12345\n"
		  "  Run 2: 12400\n"
		  "\n"
		  "With the patch:\n"
		  "  Run 1: 13345\n"
		  "  Run 2: 13400\n"
		  "\n"
		  "Before:\n"
		  "  1908944\n"
		  "  1835343\n"
		  "After:\n"
		  "  1845309\n"
		  "  1899001\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 8);
	int runs1 = 0;
	for (size_t i = 0; i < rs.n; i++) {
		assert_true(rs.v[i].x == 0);
		runs1 += rs.v[i].run == 1;
	}
	assert_int_equal(runs1, 4);
	bool before = false, with = false;
	for (size_t i = 0; i < rs.n; i++) {
		before = before || (!strcmp(rs.v[i].label, "Before") && fabs(rs.v[i].value - 1835343) < 1e-9);
		with = with || (!strcmp(rs.v[i].label, "With patch") && fabs(rs.v[i].value - 13400) < 1e-9);
	}
	assert_true(before && with);
	result_set_free(&rs);
}

/* A section heading boxed by rules ("~ hackbench ~") names what the
 * tables under it measure, up to the next heading. */
static void test_tables_section_headings(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("~~~~~~~~~~~~~\n"
		  "~ hackbench ~\n"
		  "~~~~~~~~~~~~~\n"
		  "\n"
		  "Test:                   tip                     sis_core\n"
		  " 1-groups:         4.06 (0.00 pct)         4.26 (-4.92 pct)\n"
		  " 2-groups:         4.76 (0.00 pct)         4.91 (-3.15 pct)\n"
		  "\n"
		  "~~~~~~~~~~\n"
		  "~ tbench ~\n"
		  "~~~~~~~~~~\n"
		  "\n"
		  "Clients:      tip                     sis_core\n"
		  "    1    578.37 (0.00 pct)       582.09 (0.64 pct)\n"
		  "    2    1062.09 (0.00 pct)      1063.95 (0.17 pct)\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 8);
	assert_non_null(find(&rs, "tip", "hackbench", 2));
	const struct result_point *pt = find(&rs, "sis_core", "tbench", 2);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 1063.95) < 1e-9);
	assert_string_equal(pt->x_name, "clients");
	result_set_free(&rs);
}

/* Two labels over three value columns: the third's label is not known,
 * its cells are not read (and the note says so), never put under the
 * source's name. */
static void test_tables_column_without_label(void **state)
{
	(void)state;
	struct result_set rs;
	struct parser *p;
	read_text("            before      after\n"
		  "read        100         120        130\n"
		  "write       200         210        220\n",
		  &rs, &p);
	assert_int_equal(rs.n, 4);
	assert_false(has_value(&rs, 130) || has_value(&rs, 220));
	const struct parser_note *notes;
	size_t nn = parser_notes(p, &notes);
	bool said = false;
	for (size_t i = 0; i < nn; i++)
		said = said || strstr(notes[i].text, "2 not read (columns without a label)");
	assert_true(said);
	parser_free(p);
	result_set_free(&rs);
}

/* Everyday shapes: kernel versions as figures under "kernel" are labels;
 * "change" over the "+8.3%" cells heads those, not the patched column; a
 * line naming the metric between the header and the rows; two value
 * columns with nothing to tell them apart are said, not read as runs. */
static void test_tables_everyday_shapes(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("| kernel | read (MB/s) | write (MB/s) |\n"
		  "|--------|-------------|--------------|\n"
		  "| 6.8    | 1200 +- 12  | 800 +- 5     |\n"
		  "| 6.9    | 1250 +- 10  | 790 +- 6     |\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 4);
	assert_non_null(find(&rs, "6.9", "read", 0));
	assert_false(has_value(&rs, 6.8));
	result_set_free(&rs);

	read_text("numjobs     base       patched     change\n"
		  "1           120k       130k        +8.3%\n"
		  "4           400k       450k        +12.5%\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 4);
	const struct result_point *pt = find(&rs, "patched", "", 4);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 450000) < 1e-9);
	result_set_free(&rs);

	read_text("             baseline   patched\n"
		  "latency(us)\n"
		  "  p50          12.1      11.8\n"
		  "  p99          45.0      39.2\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 4);
	pt = find(&rs, "patched", "latency", 0);
	assert_non_null(pt);
	assert_non_null(strstr(pt->metric, "p50") ? pt : find(&rs, "patched", "latency_us_p50", 0));
	result_set_free(&rs);

	read_text("                 1 job    4 jobs   16 jobs\n"
		  "base             100      380      1200\n"
		  "patched          110      400      1300\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 6);
	assert_false(has_value(&rs, 4) || has_value(&rs, 1));
	for (size_t i = 0; i < rs.n; i++)
		assert_true(!strcmp(rs.v[i].label, "base") || !strcmp(rs.v[i].label, "patched"));
	result_set_free(&rs);

	read_text("  seq read:   1234 -> 1300 (+5.3%)\n"
		  "  rand read:  300000 -> 320000 (+6.7%)\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 0);
	result_set_free(&rs);

	struct parser *p;
	read_text("latency(us):\n"
		  "  p50          12.1      11.8\n"
		  "  p99          45.0      39.2\n",
		  &rs, &p);
	assert_int_equal(rs.n, 0);
	const struct parser_note *notes;
	size_t nn = parser_notes(p, &notes);
	assert_int_equal(nn, 1);
	assert_false(notes[0].understood);
	assert_non_null(strstr(notes[0].text, "no header to tell them apart"));
	parser_free(p);
	result_set_free(&rs);
}

/* Two header lines, the upper one's names centred over pairs of columns:
 * those names are the labels, the lower ones the metrics (never two
 * labels' figures pooled under one metric). */
static void test_tables_spanning_header(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("              base                patched\n"
		  "          read    write       read    write\n"
		  "seq       100     200         110     210\n"
		  "rand      10      20          11      21\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 8);
	const struct result_point *pt = find(&rs, "patched", "seq read", 0);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 110) < 1e-9);
	pt = find(&rs, "base", "rand write", 0);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 20) < 1e-9);
	for (size_t i = 0; i < rs.n; i++)
		assert_int_equal(rs.v[i].run, 0);
	result_set_free(&rs);
}

/* --explain's line for a table: its labels, x, metric, title, the derived
 * columns skipped (a diff column's cells beside v6.2) and the cells not
 * read (n/a). */
static void test_tables_note(void **state)
{
	(void)state;
	struct result_set rs;
	struct parser *p;
	read_text("Throughput (MB/s):\n"
		  "\n"
		  "clients    v6.1     v6.2     diff\n"
		  "1          100      110      +10%\n"
		  "8          700      650      -7.1%\n"
		  "64         900      n/a      -\n",
		  &rs, &p);
	assert_int_equal(rs.n, 5);
	const struct parser_note *notes;
	size_t nn = parser_notes(p, &notes);
	assert_int_equal(nn, 1);
	assert_true(notes[0].understood);
	assert_int_equal(notes[0].first, 4);
	assert_int_equal(notes[0].last, 6);
	const char *want[] = { "labels v6.1, v6.2", "x clients", "metric throughput (MB/s)", "title Throughput;",
			       "1 derived cols/rows skipped", "5 read, 1 not read (n/a cells)" };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(notes[0].text, want[i]))
			fail_msg("no \"%s\" in \"%s\"", want[i], notes[0].text);
	parser_free(p);
	result_set_free(&rs);
}

/* Metric columns over rows that are cases ("seq", "rand"), under no title
 * and no kernel column: nothing says what is compared, so nothing is read
 * (the rows once became labels: a guess), and the note says why.  Rows
 * named as labels are still read. */
static void test_tables_rows_not_labels(void **state)
{
	(void)state;
	struct result_set rs;
	struct parser *p;
	read_text("          read     write\n"
		  "seq      100.5     90.25\n"
		  "rand      20.5     10.25\n",
		  &rs, &p);
	assert_int_equal(rs.n, 0);
	const struct parser_note *notes;
	size_t nn = parser_notes(p, &notes);
	assert_int_equal(nn, 1);
	assert_false(notes[0].understood);
	assert_non_null(strstr(notes[0].text, "nothing says what is compared"));
	parser_free(p);
	read_text("          read     write\n"
		  "baseline 100.5     90.25\n"
		  "patched   20.5     10.25\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 4);
	assert_non_null(find(&rs, "patched", "write", 0));
	result_set_free(&rs);
}

/* A property line ("model name : Celeron") or a command ("cat >/job <<EOF")
 * above rows is no title: it never becomes their label. */
static void test_tables_property_no_title(void **state)
{
	(void)state;
	struct result_set rs;
	const char *texts[] = { "model name\t: Celeron (Mendocino)\n"
				"cpu MHz\t\t: 400.921\n",
				"cat >/root/workload1 <<EOF\n"
				"set size 2097152\n"
				"set number 100\n" };
	for (size_t k = 0; k < 2; k++) {
		read_text(texts[k], &rs, NULL);
		for (size_t i = 0; i < rs.n; i++)
			if (strstr(rs.v[i].label, "model") || strstr(rs.v[i].label, "cat"))
				fail_msg("label \"%s\" from a line that is no title", rs.v[i].label);
		result_set_free(&rs);
	}
}

/* x over the columns and rows named "read", "write": the rows are what
 * is measured, not labels; a title naming a label ("baseline:") is the
 * label, and under one naming none ("Throughput:") nothing is read. */
static void test_tables_transposed_metric_rows(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("baseline:\n"
		  "\n"
		  "threads     1      2      4\n"
		  "read      100    200    300\n"
		  "write      90    180    270\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 6);
	const struct result_point *pt = find(&rs, "baseline", "write", 4);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 270) < 1e-9);
	result_set_free(&rs);
	read_text("Throughput:\n"
		  "\n"
		  "threads     1      2      4\n"
		  "read      100    200    300\n"
		  "write      90    180    270\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 0);
	result_set_free(&rs);
}

/* A header of statistics ("min  avg  max", "p50  p99") or of "Result"
 * names what each column computes, never what is compared: over rows of
 * cases nothing is read, over rows of labels the rows are the labels. */
static void test_tables_statistic_heads(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("           min      avg      max\n"
		  "read     100.1    110.2    120.3\n"
		  "write     90.1     95.2     99.3\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 0);
	result_set_free(&rs);
	read_text("Test       Result    Units\n"
		  "read       100.1     MB/s\n"
		  "write       90.1     MB/s\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 0);
	result_set_free(&rs);
	read_text("           p50      p99     p99.9\n"
		  "baseline  100.1    110.2    120.3\n"
		  "patched    90.1     95.2     99.3\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 6);
	const struct result_point *pt = find(&rs, "patched", "p99.9", 0);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 99.3) < 1e-9);
	result_set_free(&rs);
}

/* A title naming what is measured ("Throughput (MB/s):") over metric
 * columns is no label; one naming a thing ("XFS") is. */
static void test_tables_metric_title(void **state)
{
	(void)state;
	struct result_set rs;
	const char *rows = "\n"
			   "          read     write\n"
			   "seq      100.5     90.25\n"
			   "rand      20.5     10.25\n";
	char text[256];
	snprintf(text, sizeof(text), "Throughput (MB/s):\n%s", rows);
	read_text(text, &rs, NULL);
	assert_int_equal(rs.n, 0);
	result_set_free(&rs);
	snprintf(text, sizeof(text), "XFS\n%s", rows);
	read_text(text, &rs, NULL);
	assert_int_equal(rs.n, 4);
	assert_non_null(find(&rs, "XFS", "rand write", 0));
	result_set_free(&rs);
}

/* Names over the columns and names on the rows: the axis said to be what
 * is compared (a version, baseline/patched, a file system) holds the
 * labels, whichever it is; when neither is, nothing is read. */
static void test_tables_names_both_axes(void **state)
{
	(void)state;
	struct result_set rs;
	struct parser *p;
	read_text("          Create    Delete\n"
		  "small     100.5     90.25\n"
		  "large      20.5     10.25\n",
		  &rs, &p);
	assert_int_equal(rs.n, 0);
	const struct parser_note *notes;
	assert_int_equal(parser_notes(p, &notes), 1);
	assert_non_null(strstr(notes[0].text, "nothing says which"));
	parser_free(p);
	read_text("          ext3      xfs\n"
		  "Create    100.5     90.25\n"
		  "Delete     20.5     10.25\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 4);
	assert_non_null(find(&rs, "xfs", "delete", 0));
	result_set_free(&rs);
	read_text("          Create    Delete\n"
		  "ext3      100.5     90.25\n"
		  "xfs        20.5     10.25\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 4);
	const struct result_point *pt = find(&rs, "xfs", "delete", 0);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 10.25) < 1e-9);
	result_set_free(&rs);
}

/* A summary row under rows of x ("delta", "avg" where the clients go)
 * is no point of x: it was read at x = 0. */
static void test_tables_summary_row(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("clients   vanilla   patched\n"
		  "1         100.5     101.5\n"
		  "2         200.5     202.5\n"
		  "4         400.5     401.5\n"
		  "delta       1.0       1.0\n"
		  "avg       233.8     235.1\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 6);
	assert_non_null(find(&rs, "patched", "", 4));
	assert_null(find(&rs, "vanilla", "", 0));
	assert_false(has_value(&rs, 233.8));
	result_set_free(&rs);
}

/* bonnie++'s CSV record cut by a mailer (once between fields, once inside
 * "+++++") is joined and read under the label line above it; where the
 * table of the same run was read just above, the record is not read again. */
static void test_tables_bonnie_csv_wrapped(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("Kernel 2.4.19\n"
		  "==============\n"
		  "siva,128M,4565,79,9733,8,3709,5,3653,68,9391,6,102.1,1,16,280,83,+++++,+++,+\n"
		  "++++,+++,281,83,+++++,+++,1047,83\n",
		  &rs, NULL);
	const struct result_point *pt = find(&rs, "Kernel 2.4.19", "ran_del", 128);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 1047) < 1e-9);
	assert_non_null(find(&rs, "Kernel 2.4.19", "put_block", 128));
	result_set_free(&rs);
	read_text("2.6.20:\n"
		  "Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n"
		  "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
		  "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
		  "myhost           2G 44322  96 56003  18 25011   6 41870  88 57606   6 156.6   0\n"
		  "myhost,2G,44322,96,56003,18,25011,6,41870,88,57606,6,156.6,0,16,3264,97,+++++,+++,+++++,+++,"
		  "3320,97,+++++,+++,10404,99\n",
		  &rs, NULL);
	int n = 0;
	for (size_t i = 0; i < rs.n; i++)
		n += !strcmp(rs.v[i].metric, "put_block");
	assert_int_equal(n, 1);
	result_set_free(&rs);
}

/* A heading after a rule's dashes ("---- (5,10) - default") is the title
 * of the table with no header under it: its label. */
static void test_tables_dash_heading(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("---- (5,10) - default\n"
		  " 1      2345.6\n"
		  " 2      4567.8\n"
		  " 4      6789.1\n"
		  "\n"
		  "---- (5,10) - patched\n"
		  " 1      2445.6\n"
		  " 2      4667.8\n"
		  " 4      6889.1\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 6);
	const struct result_point *pt = find(&rs, "(5,10) - patched", "", 2);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 4667.8) < 1e-9);
	result_set_free(&rs);
}

/* Tabs expanded to 8: "num clients" runs from the x column over the
 * next one and pushes the kernels' names one column on (the x was read
 * as 50.2 and vanilla's name put on patched's figures): said, not read.
 * A long name that starts in its own column still heads it. */
static void test_tables_tab_header_misfit(void **state)
{
	(void)state;
	struct result_set rs;
	struct parser *p;
	read_text("num clients\t2.4.19-vanilla\t2.4.19-patched\n"
		  "1\t50.2\t52.1\n"
		  "2\t90.2\t95.1\n"
		  "4\t150.2\t155.1\n",
		  &rs, &p);
	assert_int_equal(rs.n, 0);
	const struct parser_note *notes;
	assert_int_equal(parser_notes(p, &notes), 1);
	assert_non_null(strstr(notes[0].text, "stands over two columns"));
	parser_free(p);
	read_text("Clients\t2.6.10\t2.6.11-rc1\t2.6.11-rc1-patched\n"
		  "1\t100.1\t110.2\t111.3\n"
		  "2\t200.1\t210.2\t211.3\n"
		  "4\t300.1\t310.2\t311.3\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 9);
	const struct result_point *pt = find(&rs, "2.6.11-rc1-patched", "", 4);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 311.3) < 1e-9);
	result_set_free(&rs);
}

/* A keyed table: "rw  bs  hipri=0  hipri=1" is its header (it was read
 * as a row: 0 and 1 as values), the bs column is x in KiB, and the
 * name=N heads over the figures are the labels (x is taken already). */
static void test_tables_keyed_name_value_heads(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("rw        bs    hipri=0    hipri=1\n"
		  "randread  4k    149,426    170,763    +14%\n"
		  "randread  8k    120,111    130,222    +8%\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 4);
	const struct result_point *pt = find(&rs, "hipri=1", "randread", 8);
	assert_non_null(pt);
	assert_string_equal(pt->x_name, "bs_kb");
	assert_true(fabs(pt->value - 130222) < 1e-9);
	assert_false(has_value(&rs, 0.5));
	result_set_free(&rs);
}

/* "6.1   6.1+patch" over the figures is a header of kernels, not a row
 * (the table had no header then, and was not read). */
static void test_tables_version_header(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("                 6.1          6.1+patch\n"
		  "seqread       1200 +- 12     1250 +- 10\n"
		  "randread       800 +- 5       790 +- 6\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 4);
	const struct result_point *pt = find(&rs, "6.1+patch", "randread", 0);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 790) < 1e-9);
	result_set_free(&rs);
}

/* "dbench 16 clients, MB/s:" is the title, not a row (16 was a value);
 * columns headed run1 run2 run3 are runs of the rows' labels, one metric. */
static void test_tables_run_heads(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("dbench 16 clients, MB/s:\n"
		  "\n"
		  "         run1    run2    run3\n"
		  "vanilla  300.1   301.2   299.8\n"
		  "patched  310.1   311.2   309.8\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 6);
	assert_false(has_value(&rs, 16));
	int runs = 0;
	for (size_t i = 0; i < rs.n; i++)
		runs += !strcmp(rs.v[i].label, "patched") && !strcmp(rs.v[i].metric, rs.v[0].metric);
	assert_int_equal(runs, 3);
	result_set_free(&rs);
}

/* A boxed table whose row names take two lines ("2.6.32" over "vanilla",
 * "2.6.32" over "patched"): read alone, both rows were 2.6.32 (runs of one
 * label); the label cannot be told, so nothing is read and it is said. */
static void test_tables_two_line_box_names(void **state)
{
	(void)state;
	struct result_set rs;
	struct parser *p;
	read_text("+----------+-------+-------+\n"
		  "| kernel   |  read | write |\n"
		  "+----------+-------+-------+\n"
		  "| 2.6.32   |  100  |  90   |\n"
		  "| vanilla  |       |       |\n"
		  "+----------+-------+-------+\n"
		  "| 2.6.32   |  110  |  95   |\n"
		  "| patched  |       |       |\n"
		  "+----------+-------+-------+\n",
		  &rs, &p);
	assert_int_equal(rs.n, 0);
	const struct parser_note *notes;
	size_t nn = parser_notes(p, &notes);
	assert_true(nn >= 1);
	assert_non_null(strstr(notes[0].text, "two-line"));
	parser_free(p);
}

/* A column of whole numbers that grows down rows named by kernels is a
 * figure like the others, not x (read was x, write read at x = read). */
static void test_tables_growing_column_named_rows(void **state)
{
	(void)state;
	struct result_set rs;
	read_text("Throughput:\n"
		  "\n"
		  "          read    write\n"
		  "2.6.30     100      90\n"
		  "2.6.31     120      95\n"
		  "2.6.32     140      99\n",
		  &rs, NULL);
	assert_int_equal(rs.n, 6);
	const struct result_point *pt = find(&rs, "2.6.32", "throughput_read", 0);
	assert_non_null(pt);
	assert_true(fabs(pt->value - 140) < 1e-9);
	result_set_free(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_mmtests),
		cmocka_unit_test(test_tables_titles_label_metric_header),
		cmocka_unit_test(test_tables_fio_name_value_rows),
		cmocka_unit_test(test_tables_out_of_range_cell),
		cmocka_unit_test(test_tables_diffstat_and_qp),
		cmocka_unit_test(test_tables_setting_lines),
		cmocka_unit_test(test_tables_transposed),
		cmocka_unit_test(test_tables_not_pooled_across_tables),
		cmocka_unit_test(test_tables_long_metric_names),
		cmocka_unit_test(test_tables_tiobench_ruled_columns),
		cmocka_unit_test(test_tables_tiotest_boxes),
		cmocka_unit_test(test_tables_numbered_header),
		cmocka_unit_test(test_tables_wrapped_rows),
		cmocka_unit_test(test_tables_unlabelled_rows),
		cmocka_unit_test(test_tables_pct_change_rows),
		cmocka_unit_test(test_tables_property_block),
		cmocka_unit_test(test_tables_kernel_rows),
		cmocka_unit_test(test_tables_x_named_in_row),
		cmocka_unit_test(test_tables_mmtests_long_key),
		cmocka_unit_test(test_tables_runs),
		cmocka_unit_test(test_tables_section_headings),
		cmocka_unit_test(test_tables_column_without_label),
		cmocka_unit_test(test_tables_everyday_shapes),
		cmocka_unit_test(test_tables_spanning_header),
		cmocka_unit_test(test_tables_note),
		cmocka_unit_test(test_tables_rows_not_labels),
		cmocka_unit_test(test_tables_property_no_title),
		cmocka_unit_test(test_tables_transposed_metric_rows),
		cmocka_unit_test(test_tables_statistic_heads),
		cmocka_unit_test(test_tables_metric_title),
		cmocka_unit_test(test_tables_names_both_axes),
		cmocka_unit_test(test_tables_summary_row),
		cmocka_unit_test(test_tables_bonnie_csv_wrapped),
		cmocka_unit_test(test_tables_dash_heading),
		cmocka_unit_test(test_tables_tab_header_misfit),
		cmocka_unit_test(test_tables_keyed_name_value_heads),
		cmocka_unit_test(test_tables_version_header),
		cmocka_unit_test(test_tables_run_heads),
		cmocka_unit_test(test_tables_two_line_box_names),
		cmocka_unit_test(test_tables_growing_column_named_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
