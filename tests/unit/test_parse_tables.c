/* parsers: issue 28's table reader (--parser tables) on small tables cut
 * from the shapes of real posts (tests/fixtures/tables/work/): what the
 * geometry finds and what role each column gets. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
