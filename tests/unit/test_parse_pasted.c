/* parsers: benchmark output as issue 28 found it in other projects'
 * repositories and in list posts: fio --client reports of two hosts, fio
 * output quoted in a reply ("> "), iozone's -R Excel blocks (with the
 * cells auto mode never ran) and its throughput-mode -R block; and the
 * layouts of the generators' own source that the tables' working half
 * holds: fio's terse v2 and v5, fio jobs of two names in one group,
 * dbench 4's table of operations.  Every file is real output
 * (tests/fixtures/README.md says where from). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "iodash/parsers/parser.h"

#define BO "tests/fixtures/bench-output/"

/* The file read by parser `name` (NULL: guessed) with label "L"; its
 * notes joined into notes ("first-last: text|"). */
static void parse(const char *path, const char *name, struct result_set *rs, char *notes, size_t nlen)
{
	struct parser_note pn[PARSER_NOTES_MAX];
	size_t nn = 0, o = 0;
	char err[512];
	memset(rs, 0, sizeof(*rs));
	int rc = parser_parse_file_notes(path, name, "L", rs, pn, PARSER_NOTES_MAX, &nn, err, sizeof(err));
	if (rc)
		print_message("%s\n", err);
	assert_int_equal(rc, 0);
	notes[0] = '\0';
	for (size_t i = 0; i < nn && o < nlen; i++)
		o += (size_t)snprintf(notes + o, nlen - o, "%d-%d: %s|", pn[i].first, pn[i].last, pn[i].text);
}

/* The final points of (label, metric, x): their count, the value of the
 * last in *v. */
static int finals(const struct result_set *rs, const char *label, const char *metric, double x, double *v)
{
	int n = 0;
	for (size_t i = 0; i < rs->n; i++) {
		const struct result_point *p = &rs->v[i];
		if ((p->flags & RP_FINAL) && !strcmp(p->label, label) && !strcmp(p->metric, metric) && p->x == x) {
			n++;
			*v = p->value;
		}
	}
	return n;
}

/* The one final point of (label, metric, x) is v (within eps). */
static void one(const struct result_set *rs, const char *label, const char *metric, double x, double want,
		double eps)
{
	double v = NAN;
	int n = finals(rs, label, metric, x, &v);
	if (n != 1 || !(fabs(v - want) <= eps))
		print_error("%s / %s at %g: %d points, %.12g (want one, %.12g)\n", label, metric, x, n, v, want);
	assert_int_equal(n, 1);
	assert_true(fabs(v - want) <= eps);
}

/* The unit of the final points of (label, metric): all of them. */
static void unit_is(const struct result_set *rs, const char *label, const char *metric, const char *unit)
{
	int n = 0;
	for (size_t i = 0; i < rs->n; i++) {
		const struct result_point *p = &rs->v[i];
		if ((p->flags & RP_FINAL) && !strcmp(p->label, label) && !strcmp(p->metric, metric)) {
			assert_string_equal(p->unit, unit);
			n++;
		}
	}
	assert_true(n > 0);
}

/* The labels of the final points. */
static size_t nlabels(const struct result_set *rs)
{
	const char *seen[64];
	size_t n = 0;
	for (size_t i = 0; i < rs->n; i++) {
		if (!(rs->v[i].flags & RP_FINAL))
			continue;
		bool known = false;
		for (size_t k = 0; k < n && !known; k++)
			known = !strcmp(seen[k], rs->v[i].label);
		if (!known && n < 64)
			seen[n++] = rs->v[i].label;
	}
	return n;
}

/* fio --client to two servers whose hosts are testbox-a (job file -a:
 * 256k writes, 4k reads) and testbox-b (-b: 128k, 8k).  Each report is
 * named by the "<host> " line fio prints just before it; the block size
 * each host's job headers give proves the pairing (testbox-b's
 * "write: IOPS=13.7k, BW=1711MiB/s" is 13.7k x 128 KiB).  "All clients"
 * (read 221Mi, write 3627Mi) is not a fifth result. */
static void test_fio_clients_by_host_text(void **st)
{
	struct result_set rs;
	char notes[2048];
	(void)st;
	parse(BO "fio/fio-3.33-client-server-2hosts-normal.txt", NULL, &rs, notes, sizeof(notes));
	assert_int_equal(nlabels(&rs), 4);
	one(&rs, "L testbox-b seqwrite", "write_bw", 128, 1711, 0);
	unit_is(&rs, "L testbox-b seqwrite", "write_bw", "MiB/s");
	one(&rs, "L testbox-b seqwrite", "write_iops", 128, 13700, 1e-9);
	one(&rs, "L testbox-b randread", "read_bw", 8, 116, 0);
	one(&rs, "L testbox-a seqwrite", "write_bw", 256, 1915, 0);
	one(&rs, "L testbox-a seqwrite", "write_iops", 256, 7660, 1e-9);
	one(&rs, "L testbox-a randread", "read_bw", 4, 105, 0);
	one(&rs, "L testbox-a randread", "read_iops", 4, 26800, 1e-9);
	double v;
	assert_int_equal(finals(&rs, "L testbox-a randread", "read_bw", 8, &v), 0);
	for (size_t i = 0; i < rs.n; i++)
		assert_null(strstr(rs.v[i].label, "All"));
	result_set_free(&rs);
}

/* The same two hosts, --output-format=json: "hostname" is fio's
 * --client argument (127.0.0.1 both times), so the port tells the two
 * apart; each entry's "job options" give its block size. */
static void test_fio_clients_by_host_json(void **st)
{
	struct result_set rs;
	char notes[2048];
	(void)st;
	parse(BO "fio/fio-3.33-client-server-2hosts.json", NULL, &rs, notes, sizeof(notes));
	assert_int_equal(nlabels(&rs), 4);
	one(&rs, "L 127.0.0.1:18776 seqwrite", "write_bw", 128, 1257197, 0);
	one(&rs, "L 127.0.0.1:18775 seqwrite", "write_bw", 256, 1527940, 0);
	one(&rs, "L 127.0.0.1:18776 randread", "read_bw", 8, 105167, 0);
	one(&rs, "L 127.0.0.1:18775 randread", "read_iops", 4, 25919.54023, 1e-5);
	result_set_free(&rs);
}

/* fio-3.3's report quoted in a reply on linux-mm ("> " before every
 * line, a nested quote above it): read as the plain report, guessed as
 * fio; the figures outside the job block ("read: IOPS=193k" in the
 * deeper quotes) are not a result. */
static void test_fio_quoted_reply(void **st)
{
	struct result_set rs;
	char notes[2048];
	(void)st;
	parse(BO "fio/lkml-fio-3.3-quoted-reply-2018.txt", NULL, &rs, notes, sizeof(notes));
	/* read: IOPS=194k, BW=759MiB/s; clat (usec): avg=326.85; 99.00th=[  355] */
	one(&rs, "L", "read_bw", 4, 759, 0);
	unit_is(&rs, "L", "read_bw", "MiB/s");
	unit_is(&rs, "L", "read_clat_avg", "us");
	one(&rs, "L", "read_iops", 4, 194000, 1e-9);
	one(&rs, "L", "read_clat_avg", 4, 326.85, 1e-9);
	one(&rs, "L", "read_clat_p99", 4, 355, 1e-9);
	result_set_free(&rs);
}

/* iozone 3.414 -a -R up to 32 MB files, the Excel blocks alone (what
 * people paste): file 32768 kB ran from 64 kB records on (-a's
 * crossover at 16 MB), and iozone stores 0 in the cells it skipped:
 * those are not figures.  Each file size is a label, x the record size. */
static void test_iozone_excel_only(void **st)
{
	struct result_set rs;
	char notes[2048];
	double v;
	(void)st;
	parse(BO "iozone/iozone-3.414-a-R-g32m-i0-i1-excel-only.txt", NULL, &rs, notes, sizeof(notes));
	/* "Writer report": "32768"   0  0  0  0  548326  1019669 ... */
	for (double rec = 4; rec <= 32; rec *= 2)
		assert_int_equal(finals(&rs, "L 32768kB", "write", rec, &v), 0);
	one(&rs, "L 32768kB", "write", 64, 548326, 0);
	one(&rs, "L 32768kB", "write", 16384, 3699686, 0);
	one(&rs, "L 64kB", "write", 4, 598110, 0);
	one(&rs, "L 64kB", "write", 64, 1722886, 0);
	/* "Re-Reader report": "16384" row, last cell */
	one(&rs, "L 16384kB", "reread", 16384, 8363283, 0);
	one(&rs, "L 32768kB", "read", 128, 4931287, 0);
	assert_int_equal(finals(&rs, "L 64kB", "write", 128, &v), 0);
	assert_non_null(strstr(notes, "16 cells of 0"));
	result_set_free(&rs);
}

/* Throughput mode with -R (-l 1 -u 2): the "Children see throughput"
 * lines are read; the -R block after them names no process count in its
 * columns and is said, not read. */
static void test_iozone_throughput_excel(void **st)
{
	struct result_set rs;
	char notes[2048];
	double v;
	(void)st;
	parse(BO "iozone/iozone-3.414-R-l1-u2-r64k-s16m-i0-i1.txt", NULL, &rs, notes, sizeof(notes));
	one(&rs, "L", "write", 1, 1750466.62, 1e-6);
	one(&rs, "L", "write", 2, 5885998.00, 1e-6);
	one(&rs, "L", "reread", 2, 14971591.50, 1e-6);
	assert_int_equal(finals(&rs, "L", "read", 2, &v), 1);
	assert_non_null(strstr(notes, "throughput report: not read"));
	result_set_free(&rs);
}

/* bonnie++ 1.03 tables in 2003 linux-kernel posts.  Jelinek's reply
 * quotes a table whole ("> "): the machine names are NPTL and
 * LinuxThreads, not "> NPTL".  Rugolsky's post quotes an earlier table
 * ("> > ", a 1 GHz P3) above his own (a Pentium M) of the same two
 * names: the quoted rows are another measurement, kept apart as the mail
 * shows them, never pooled as runs. */
static void test_bonnie_103_quoted(void **st)
{
	struct result_set rs;
	char notes[2048];
	double v;
	(void)st;
	parse(BO "bonnie++/lkml-bonnie-1.03-nptl-jelinek-quoted-2003.txt", NULL, &rs, notes, sizeof(notes));
	/* > NPTL           100M 13070 100 +++++ +++ 14141   4 13099 100 ... */
	one(&rs, "L NPTL", "putc", 100, 13070, 0);
	one(&rs, "L LinuxThreads", "rewrite", 100, 20037, 0);
	one(&rs, "L LinuxThreads", "getc", 100, 26777, 0);
	assert_int_equal(nlabels(&rs), 2);
	result_set_free(&rs);

	parse(BO "bonnie++/lkml-bonnie-1.03-nptl-rugolsky-2003.txt", NULL, &rs, notes, sizeof(notes));
	one(&rs, "L > > NPTL", "putc", 100, 7735, 0);
	one(&rs, "L > > NPTL", "put_block", 100, 127068, 0);
	one(&rs, "L > > LinuxThreads", "rewrite", 100, 59075, 0);
	one(&rs, "L NPTL", "putc", 100, 13070, 0);
	one(&rs, "L LinuxThreads", "getc", 100, 26777, 0);
	/* "+++++ +++": too fast to measure, a point of no value, never 0 */
	assert_int_equal(finals(&rs, "L NPTL", "put_block", 100, &v), 1);
	assert_true(isnan(v));
	assert_int_equal(nlabels(&rs), 4);
	result_set_free(&rs);
}

/* Jonathan Vardy's "RAID 5 performance problems" (2003): three bonnie++
 * 1.03/1.02c outputs whose lines the mailer wrapped at 72 columns, the
 * CSV records too, one inside a figure ("...,178478,41,616" then
 * ".9,2,16,...").  That record is joined and read whole (seeks 616.9,
 * never 616); the others, whose first line holds the i/o part, are read
 * from it. */
static void test_bonnie_csv_wrapped(void **st)
{
	struct result_set rs;
	char notes[2048];
	(void)st;
	parse(BO "bonnie++/lkml-bonnie-1.03-1.02c-wrapped-raid5-2003.txt", NULL, &rs, notes, sizeof(notes));
	one(&rs, "L storagenew.a2000.nu", "seeks", 1024, 616.9, 1e-9);
	one(&rs, "L storagenew.a2000.nu", "get_block", 1024, 178478, 0);
	one(&rs, "L storagenew.a2000.nu", "ran_del", 1024, 5518, 0);
	one(&rs, "L store.datzegik.com", "put_block", 1024, 13668, 0);
	one(&rs, "L store.datzegik.com", "seeks", 1024, 342.8, 1e-9);
	one(&rs, "L storage.a2000.nu", "get_block", 2048, 71953, 0);
	one(&rs, "L storage.a2000.nu", "seeks", 2048, 180.1, 1e-9);
	assert_int_equal(nlabels(&rs), 3);
	result_set_free(&rs);
}

/* dyu/vps-comparison's fio-3.1 page (markdown): a "## provider" heading
 * over each provider's two runs (writes, then reads, in ``` blocks).
 * The heading names the runs under it: twelve providers, twelve labels,
 * never twelve runs of one (one '#' lines are shell comments there). */
static void test_fio_markdown_headings(void **st)
{
	struct result_set rs;
	char notes[2048];
	(void)st;
	parse(BO "fio/dyu-fio-3.1-libaio-4K.md", NULL, &rs, notes, sizeof(notes));
	assert_int_equal(nlabels(&rs), 12);
	/* write: IOPS=3068, BW=11.0MiB/s; read: IOPS=3070, BW=11.0MiB/s */
	one(&rs, "L aws ec2 micro - 990M", "write_bw", 4, 11.0, 0);
	one(&rs, "L aws ec2 micro - 990M", "read_iops", 4, 3070, 1e-9);
	/* write: IOPS=28.8k, BW=112MiB/s; read: IOPS=18.2k, BW=70.9MiB/s */
	one(&rs, "L vultr - 488M", "write_bw", 4, 112, 0);
	one(&rs, "L vultr - 488M", "read_bw", 4, 70.9, 0);
	unit_is(&rs, "L vultr - 488M", "read_bw", "MiB/s");
	one(&rs, "L linode - 989M", "read_iops", 4, 39000, 1e-9);
	result_set_free(&rs);
}

/* A 2024 linux-kernel reply with sysbench 1.1.0-df89d34 output indented
 * by two blanks under "Without 6a3afb6ac6 (...)" and "With 6a3afb6ac6
 * (...)", each framed by "==" lines: two labels, not two runs of one. */
static void test_sysbench_titled_runs(void **st)
{
	struct result_set rs;
	char notes[2048];
	(void)st;
	parse(BO "sysbench/lkml-sysbench-1.1.0-jbd2-with-without-2024.txt", NULL, &rs, notes, sizeof(notes));
	assert_int_equal(nlabels(&rs), 2);
	/* "L " and the 63 characters of this title do not fit a label: the
	 * title is cut and a hash of it keeps it apart from any other */
	one(&rs, "L Without 6a3afb6ac6 (\"jbd2: increase the journal IO's~7e91d6d5", "write_bw", 128,
	    499.39, 1e-9);
	one(&rs, "L With 6a3afb6ac6 (\"jbd2: increase the journal IO's priority\")", "write_bw", 128,
	    495.47, 1e-9);
	one(&rs, "L With 6a3afb6ac6 (\"jbd2: increase the journal IO's priority\")", "latency_p95", 128,
	    0.32, 1e-9);
	result_set_free(&rs);
}

/* bonnie++ 1.02c for two kernels under "Kernel 2.5.43" / "Kernel 2.4.19"
 * (each underlined with '='), one machine name (siva), every line cut by
 * the mailer (tables/work/): the titles name the two runs; the second
 * CSV record, cut inside "+++++" ("...,+" / "++++,+++,281,..."), is joined
 * and read whole.  A post is read by the mail reader: its titles are its
 * labels, without the file's. */
static void test_bonnie_titled_runs(void **st)
{
	struct result_set rs;
	char notes[2048];
	(void)st;
	parse("tests/fixtures/tables/work/bonnie-1.02c-wrapped-kernel-titles-2002.txt", NULL, &rs, notes,
	      sizeof(notes));
	assert_int_equal(nlabels(&rs), 2);
	one(&rs, "Kernel 2.5.43", "put_block", 128, 7851, 0);
	one(&rs, "Kernel 2.4.19", "put_block", 128, 9733, 0);
	one(&rs, "Kernel 2.5.43", "seeks", 128, 44.4, 1e-9);
	one(&rs, "Kernel 2.4.19", "seq_create", 128, 280, 0);
	one(&rs, "Kernel 2.4.19", "ran_del", 128, 1047, 0);
	result_set_free(&rs);
}

/* Tejun Heo's sata_sil Mod15Write post (2005): three bonnie++ 1.03
 * outputs without a machine name, each under a title line underlined
 * with '=' ("libata-dev-2.6<TABs>P3 800, Sil3112 rev 02, ST3120026AS"):
 * three labels (the title's blanks folded), never three runs of one
 * (the mail reader pooled them until it took the tool readers' titles). */
static void test_bonnie_titled_unnamed(void **st)
{
	struct result_set rs;
	char notes[2048];
	(void)st;
	parse(BO "bonnie++/lkml-bonnie-1.03-sata-sil-three-titled-2005.txt", NULL, &rs, notes, sizeof(notes));
	assert_int_equal(nlabels(&rs), 3);
	one(&rs, "libata-dev-2.6 P3 800, Sil3112 rev 02, ST3120026AS", "put_block", 2048, 15101, 0);
	/* too long for a label: cut, with a hash of the title */
	one(&rs, "libata-dev-2.6 w/ workaround P3 800, Sil3112 rev 02, S~115a2c1f", "get_block", 2048,
	    52786, 0);
	one(&rs, "libata-dev-2.6 w/ workaround P3 800, Sil3112 rev 02, S~115a2c1f", "ran_del", 2048,
	    1971, 0);
	one(&rs, "linux-2.6.11 A64 3000+, VT6420, ST3120026AS or ST3200822AS", "seeks", 2048, 238.0,
	    1e-9);
	result_set_free(&rs);
}

#define TW "tests/fixtures/tables/work/"

/* fio's terse v2 (no fio version field: "2;name;gid;err;...") and v5
 * (6 more fields a direction: the write block starts 6 later): each job
 * read, the write figures from the write block. */
static void test_fio_terse_v2_v5(void **st)
{
	struct result_set rs;
	char notes[2048];
	(void)st;
	parse(TW "fio-3.33-terse-v2-bs-sweep-2026.txt", NULL, &rs, notes, sizeof(notes));
	assert_int_equal(nlabels(&rs), 3);
	one(&rs, "L read-4k", "read_bw", 0, 55578, 0);
	one(&rs, "L read-64k", "read_bw", 0, 366192, 0);
	one(&rs, "L read-1m", "read_iops", 0, 467, 0);
	one(&rs, "L read-4k", "read_clat_avg", 0, 71.200398, 1e-9);
	result_set_free(&rs);
	parse(TW "fio-3.33-terse-v5-two-jobs-2026.txt", NULL, &rs, notes, sizeof(notes));
	assert_int_equal(nlabels(&rs), 2);
	one(&rs, "L randread-4k", "read_bw", 0, 132426, 0);
	one(&rs, "L randread-4k", "read_clat_avg", 0, 467.402173, 1e-9);
	one(&rs, "L randwrite-4k", "write_bw", 0, 74008, 0);
	one(&rs, "L randwrite-4k", "write_iops", 0, 18502, 0);
	one(&rs, "L randwrite-4k", "write_clat_avg", 0, 413.381638, 1e-9);
	result_set_free(&rs);
}

/* A randread job and a randwrite job in one group (no stonewall): two
 * workloads, each reported by fio with its own latency; each is a result
 * of its own, labelled by its name, at its block size. */
static void test_fio_jobs_of_one_group(void **st)
{
	struct result_set rs;
	char notes[2048];
	(void)st;
	parse(TW "fio-3.33-two-jobs-libaio-normal-2026.txt", NULL, &rs, notes, sizeof(notes));
	assert_int_equal(nlabels(&rs), 2);
	one(&rs, "L randread-4k", "read_iops", 4, 48700, 0);
	one(&rs, "L randread-4k", "read_clat_avg", 4, 318.54, 1e-9);
	one(&rs, "L randwrite-4k", "write_iops", 4, 8408, 0);
	double v;
	assert_int_equal(finals(&rs, "L randread-4k", "write_iops", 4, &v), 0);
	result_set_free(&rs);
}

/* dbench 4's table of operations (count, AvgLat, MaxLat in ms) above
 * its Throughput line, at that line's clients; with --per-client-results
 * each client's table under its own label. */
static void test_dbench_operations(void **st)
{
	struct result_set rs;
	char notes[2048];
	(void)st;
	parse(TW "dbench-4.00-fsync-2-clients-2026.txt", NULL, &rs, notes, sizeof(notes));
	one(&rs, "L", "throughput", 2, 44.5739, 1e-9);
	one(&rs, "L", "WriteX_avg_lat", 2, 1.934, 1e-9);
	one(&rs, "L", "Flush_max_lat", 2, 33.880, 1e-9);
	one(&rs, "L", "NTCreateX_count", 2, 6573, 0);
	result_set_free(&rs);
	parse(TW "dbench-4.00-per-client-results-3-2026.txt", NULL, &rs, notes, sizeof(notes));
	assert_int_equal(nlabels(&rs), 4);
	one(&rs, "L", "throughput", 3, 321.025, 1e-9);
	one(&rs, "L", "Flush_avg_lat", 3, 2.072, 1e-9);
	one(&rs, "L Client 0", "Flush_avg_lat", 3, 2.178, 1e-9);
	one(&rs, "L Client 1", "NTCreateX_count", 3, 16303, 0);
	one(&rs, "L Client 2", "WriteX_max_lat", 3, 22.276, 1e-9);
	result_set_free(&rs);
}

/* --output-format=normal,json: fio's header lines, the JSON document,
 * then the normal report of the same run (fio writes its output buffers
 * terse, JSON, normal in turn).  The line after the document is text
 * again: the first job's report is not lost, and the run counts once
 * (the last report, the normal one, is final). */
static void test_fio_json_then_normal(void **st)
{
	struct result_set rs;
	char notes[2048];
	(void)st;
	parse(TW "fio-3.33-normal-and-json-three-jobs-2026.txt", NULL, &rs, notes, sizeof(notes));
	assert_int_equal(nlabels(&rs), 3);
	one(&rs, "L seqread-128k", "read_iops", 128, 3077, 0);
	/* "clat (nsec): ... avg=280501.61" */
	one(&rs, "L seqread-128k", "read_clat_avg", 128, 280501.61, 1e-9);
	unit_is(&rs, "L seqread-128k", "read_clat_avg", "ns");
	unit_is(&rs, "L randread-16k", "read_clat_avg", "us");
	one(&rs, "L randwrite-8k", "write_iops", 8, 11800, 0);
	one(&rs, "L randread-16k", "read_clat_avg", 16, 276.40, 1e-9);
	result_set_free(&rs);
}

/* The total latency of a direction (submission + completion: fio's
 * "lat"), beside its completion latency: normal text's "lat (usec): min=,
 * max=, avg=" line (not the "lat (usec)   : 2=0.01%" buckets), terse's
 * fields 33-36 of a direction's block (after clat's percentiles), JSON's
 * "lat_ns" (2.x: "lat", in us). */
static void test_fio_total_latency(void **st)
{
	struct result_set rs;
	char notes[2048];
	(void)st;
	parse(TW "fio-3.33-two-jobs-libaio-normal-2026.txt", NULL, &rs, notes, sizeof(notes));
	one(&rs, "L randwrite-4k", "write_lat_avg", 4, 950.64, 1e-9);
	one(&rs, "L randread-4k", "read_lat_avg", 4, 327.84, 1e-9);
	result_set_free(&rs);
	parse(TW "fio-3.33-terse-v5-two-jobs-2026.txt", NULL, &rs, notes, sizeof(notes));
	one(&rs, "L randread-4k", "read_lat_avg", 0, 482.330453, 1e-9);
	one(&rs, "L randwrite-4k", "write_lat_avg", 0, 431.311721, 1e-9);
	result_set_free(&rs);
	parse(TW "fio-3.33-json-plus-randread-2026.json", NULL, &rs, notes, sizeof(notes));
	/* lat_ns, clat_ns: in ns */
	one(&rs, "L", "read_lat_avg", 4, 89116.981376, 1e-9);
	one(&rs, "L", "read_clat_avg", 4, 80779.951637, 1e-9);
	unit_is(&rs, "L", "read_lat_avg", "ns");
	result_set_free(&rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio_clients_by_host_text),
		cmocka_unit_test(test_fio_clients_by_host_json),
		cmocka_unit_test(test_fio_quoted_reply),
		cmocka_unit_test(test_iozone_excel_only),
		cmocka_unit_test(test_iozone_throughput_excel),
		cmocka_unit_test(test_bonnie_103_quoted),
		cmocka_unit_test(test_bonnie_csv_wrapped),
		cmocka_unit_test(test_fio_markdown_headings),
		cmocka_unit_test(test_sysbench_titled_runs),
		cmocka_unit_test(test_bonnie_titled_runs),
		cmocka_unit_test(test_bonnie_titled_unnamed),
		cmocka_unit_test(test_fio_terse_v2_v5),
		cmocka_unit_test(test_fio_jobs_of_one_group),
		cmocka_unit_test(test_dbench_operations),
		cmocka_unit_test(test_fio_json_then_normal),
		cmocka_unit_test(test_fio_total_latency),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
