/* parsers: every captured benchmark output gives the figures the tool
 * printed (tests/fixtures/bench-output/), live feeding in any chunking
 * gives the same points, and the line core survives hostile bytes. */
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
#include "../../src/parsers/pinternal.h"

/* cmocka's assert_float_equal works in float: compare doubles exactly enough */
static void assert_near(double a, double b, double eps, const char *file, int line)
{
	if (!(fabs(a - b) <= eps)) {
		print_error("%.12g != %.12g (within %g)\n", a, b, eps);
		_fail(file, line);
	}
}
#define assert_double_equal(a, b, eps) assert_near((a), (b), (eps), __FILE__, __LINE__)

#define BO "tests/fixtures/bench-output/"

static int parse_rc(const char *path, const char *name, struct result_set *rs)
{
	char err[256];
	memset(rs, 0, sizeof(*rs));
	int rc = parser_parse_file(path, name, "L", rs, err, sizeof(err));
	if (rc)
		print_message("%s\n", err);
	return rc;
}

static void parse(const char *path, const char *name, struct result_set *rs)
{
	assert_int_equal(parse_rc(path, name, rs), 0);
}

static const struct result_point *final(const struct result_set *rs, const char *metric)
{
	const struct result_point *r = NULL;
	for (size_t i = 0; i < rs->n; i++)
		if (strcmp(rs->v[i].metric, metric) == 0 && !(rs->v[i].flags & RP_PROGRESS)) {
			assert_null(r);    /* exactly one */
			r = &rs->v[i];
		}
	assert_non_null(r);
	return r;
}

static size_t nflag(const struct result_set *rs, const char *metric, unsigned flag)
{
	size_t n = 0;
	for (size_t i = 0; i < rs->n; i++)
		if ((!metric || strcmp(rs->v[i].metric, metric) == 0) && (rs->v[i].flags & flag))
			n++;
	return n;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long l = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)l + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)l, f), (size_t)l);
	fclose(f);
	*len = (size_t)l;
	return b;
}

/* --- numbers out of range (docs/parsers.md): n/a, with a note naming where */

/* The fixture with line `line`'s text `from` replaced by `to`, parsed
 * with parser `name` into rs; the notes' text joined into notes. */
static int parse_edited(const char *fixture, int line, const char *from, const char *to, const char *name,
			struct result_set *rs, char *notes, size_t nlen)
{
	size_t len;
	char *b = slurp(fixture, &len), path[] = "/tmp/iodash-tparse-XXXXXX";
	b[len] = 0;
	char *at = b, err[256] = "";
	struct parser_note pn[PARSER_NOTES_MAX];
	size_t nn = 0, o = 0;
	int fd = mkstemp(path), rc;
	FILE *f;

	for (int i = 1; i < line && at; i++)
		at = memchr(at, '\n', len - (size_t)(at - b)) + 1;
	assert_non_null(at);
	char *hit = strstr(at, from);
	assert_non_null(hit);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fwrite(b, 1, (size_t)(hit - b), f);
	fputs(to, f);
	fputs(hit + strlen(from), f);
	fclose(f);
	free(b);
	memset(rs, 0, sizeof(*rs));
	rc = parser_parse_file_notes(path, name, "L", rs, pn, PARSER_NOTES_MAX, &nn, err, sizeof(err));
	unlink(path);
	notes[0] = 0;
	for (size_t i = 0; i < nn && o < nlen; i++)
		o += (size_t)snprintf(notes + o, nlen - o, "%d-%d: %s|", pn[i].first, pn[i].last, pn[i].text);
	if (rc && o < nlen)
		snprintf(notes + o, nlen - o, "error: %s", err);
	return rc;
}

static void test_numbers_out_of_range(void **state)
{
	static const char *const bad[] = { "1e309", "NaN", "-Infinity", "99999999999999999999999" };
	struct result_set rs;
	char notes[2048];
	(void)state;

	/* fio JSON: the one figure is n/a, the others stay, the note names
	 * the document's lines, the job and the key */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_edited(BO "fio/fio-randread-direct.json", 29, "95867.413259", bad[i], "fio",
					      &rs, notes, sizeof(notes)), 0);
		for (size_t k = 0; k < rs.n; k++)
			if (!strcmp(rs.v[k].metric, "read_iops") && !(rs.v[k].flags & RP_PROGRESS))
				fail_msg("%s: read_iops %g, not n/a; %s; k=%zu n=%zu flags=%u label=%s", bad[i], rs.v[k].value, notes, k, rs.n, rs.v[k].flags, rs.v[k].label);
		assert_double_equal(final(&rs, "read_bw")->value, 383469, 1e-6);
		if (!strstr(notes, "fio JSON, job \"randread\": read.iops") || !strstr(notes, "is out of range: n/a"))
			fail_msg("%s: notes \"%s\"", bad[i], notes);
		if (!strncmp(bad[i], "999", 3) && !strstr(notes, "(an integer past 64 bits)"))
			fail_msg("%s: notes \"%s\"", bad[i], notes);
		result_set_free(&rs);
	}
	/* a text line: the number is refused, and its line is named */
	assert_true(parse_edited(BO "dbench/dbench-t10-4clients.txt", 1, "", "Throughput 1e309 MB/sec  4 clients  4 procs  max_latency=21.110 ms\n",
				 "dbench", &rs, notes, sizeof(notes)) >= 0);
	if (!strstr(notes, "1-1: 1e309 is out of range: read as n/a"))
		fail_msg("dbench: notes \"%s\"", notes);
	result_set_free(&rs);
}

/* pp_scan_number reads most figures without strtod: the value must be
 * strtod's to the last bit, for every shape a table prints and the edges
 * of the exact range (15 digits, 10^22), and -0 stays -0. */
static void test_numbers_as_strtod(void **state)
{
	static const char *const fixed[] = {
		"0", "-0", "+0", "-0.00", "0.1", "0.3", "1.", ".5", "123.45", "-48.4", "99.99", "1e22", "1e23",
		"9007199254740993", "999999999999999", "9999999999999999", "123456789012345.6", "0.000001",
		"1.5e-22", "1.5e-23", "4.9e-324", "2.2250738585072014e-308", "1.7976931348623157e308",
		"000123.4500", "1E5", "1e+05", "2.1e+05", "3.14159265358979",
	};
	unsigned long long st = 88172645463325252ULL;
	char b[64];
	(void)state;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]) + 200000; i++) {
		const char *s = b;
		if (i < sizeof(fixed) / sizeof(fixed[0]))
			s = fixed[i];
		else {
			/* a random decimal: sign, up to 18 digits, a dot, an exponent */
			size_t o = 0, nd;
			st ^= st << 13, st ^= st >> 7, st ^= st << 17;
			if (st % 5 == 0)
				b[o++] = '-';
			nd = 1 + (st >> 8) % 18;
			for (size_t d = 0; d < nd; d++) {
				if (d == (st >> 16) % (nd + 1) && d)
					b[o++] = '.';
				b[o++] = (char)('0' + (st >> (20 + d * 2)) % 10);
			}
			if ((st >> 60) == 0)
				o += (size_t)snprintf(b + o, sizeof(b) - o, "e%d", (int)((st >> 40) % 60) - 30);
			b[o] = '\0';
		}
		double v = 42, w;
		size_t n = pp_scan_number(s, &v);
		char *end;
		w = strtod(s, &end);
		if (n != (size_t)(end - s) || memcmp(&v, &w, sizeof(v)))
			fail_msg("\"%s\": %zu chars, %.17g; strtod %zu chars, %.17g", s, n, v, (size_t)(end - s), w);
	}
}

/* --- dbench ---------------------------------------------------------- */

static void check_dbench(const char *file, double clients, double tp, double maxlat, size_t progress)
{
	struct result_set rs;
	parse(file, NULL, &rs);
	const struct result_point *p = final(&rs, "throughput");
	assert_double_equal(p->value, tp, 1e-9);
	assert_double_equal(p->x, clients, 0);
	assert_string_equal(p->x_name, "clients");
	assert_string_equal(p->unit, "MB/s");
	assert_string_equal(p->label, "L");
	assert_true(p->flags & RP_FINAL);
	assert_double_equal(final(&rs, "max_latency")->value, maxlat, 1e-9);
	assert_int_equal(nflag(&rs, "throughput", RP_PROGRESS), progress);
	assert_int_equal(nflag(&rs, NULL, RP_INCOMPLETE), 0);
	result_set_free(&rs);
}

static void test_dbench_final(void **st)
{
	(void)st;
	check_dbench(BO "dbench/dbench-t10-1client.txt", 1, 833.885, 5.207, 10);
	check_dbench(BO "dbench/dbench-t10-2clients.txt", 2, 903.416, 23.951, 10);
	check_dbench(BO "dbench/dbench-t10-4clients.txt", 4, 1014.2, 16.379, 10);
	check_dbench(BO "dbench/dbench-t10-8clients.txt", 8, 1478.73, 29.773, 10);
	check_dbench(BO "dbench/dbench-t30-4clients.txt", 4, 996.442, 51.126, 34);
	/* \r\n line ends from a pty */
	check_dbench(BO "dbench/dbench-t10-2clients-under-pty-via-script.txt", 2, 822.361, 29.253, 10);
}

static void test_dbench_progress_and_phases(void **st)
{
	(void)st;
	size_t len;
	char *buf = slurp(BO "dbench/dbench-t10-4clients.txt", &len);
	struct parser *p = parser_new("dbench", "live");
	struct result_set rs = { 0 };
	struct result_sink sink = result_set_sink(&rs);
	struct parser_progress pr;
	char seen[4][16] = { "", "", "", "" };
	int ns = 0;
	for (size_t i = 0; i < len; i++) {
		parser_feed(p, buf + i, 1, &sink);
		parser_get_progress(p, &pr);
		if (pr.valid && (ns == 0 || strcmp(seen[ns - 1], pr.phase) != 0) && ns < 4)
			strcpy(seen[ns++], pr.phase);
	}
	parser_finish(p, &sink);
	assert_int_equal(ns, 4);
	assert_string_equal(seen[0], "warmup");
	assert_string_equal(seen[1], "execute");
	assert_string_equal(seen[2], "cleanup");
	assert_string_equal(seen[3], "done");
	/* "   4    518664  1014.20 MB/sec  execute   9 sec  latency 16.379 ms":
	 * 1 s of warmup before it, so 10 s into the run */
	const struct result_point *last = NULL;
	for (size_t i = 0; i < rs.n; i++)
		if ((rs.v[i].flags & RP_PROGRESS) && strcmp(rs.v[i].metric, "throughput") == 0)
			last = &rs.v[i];
	assert_non_null(last);
	assert_double_equal(last->value, 1014.20, 1e-9);
	assert_double_equal(last->x, 10, 0);
	assert_string_equal(last->x_name, "time_s");
	assert_int_equal(nflag(&rs, "latency", RP_PROGRESS), 10);
	parser_get_progress(p, &pr);
	assert_false(pr.incomplete);
	parser_free(p);
	result_set_free(&rs);
	free(buf);
}

static void check_sigint(const char *file, double last_tp, double last_x, size_t progress)
{
	struct result_set rs;
	parse(file, "dbench", &rs);
	assert_int_equal(nflag(&rs, NULL, RP_FINAL), 0);
	assert_int_equal(nflag(&rs, "throughput", RP_PROGRESS), progress + 1);
	assert_int_equal(nflag(&rs, "throughput", RP_INCOMPLETE), 1);
	const struct result_point *inc = NULL;
	for (size_t i = 0; i < rs.n; i++)
		if ((rs.v[i].flags & RP_INCOMPLETE) && strcmp(rs.v[i].metric, "throughput") == 0)
			inc = &rs.v[i];
	assert_true(inc->flags & RP_PROGRESS);
	assert_double_equal(inc->value, last_tp, 1e-9);
	assert_double_equal(inc->x, last_x, 0);
	result_set_free(&rs);

	/* live: the parser says so too */
	size_t len;
	char *buf = slurp(file, &len);
	struct parser *p = parser_new("auto", "live");
	struct result_set r2 = { 0 };
	struct result_sink sink = result_set_sink(&r2);
	parser_feed(p, buf, len, &sink);
	struct parser_progress pr;
	parser_get_progress(p, &pr);
	assert_false(pr.incomplete);
	parser_finish(p, &sink);
	assert_string_equal(parser_name(p), "dbench");
	parser_get_progress(p, &pr);
	assert_true(pr.incomplete);
	assert_int_equal(nflag(&r2, NULL, RP_FINAL), 0);
	parser_free(p);
	result_set_free(&r2);
	free(buf);
}

static void test_dbench_sigint_incomplete(void **st)
{
	(void)st;
	check_sigint(BO "dbench/dbench-t30-4clients-sigint-group-after-7s.txt", 1007.64, 5, 5);
	check_sigint(BO "dbench/dbench-t30-4clients-sigint-group-after-12s.txt", 645.95, 10, 10);
	check_sigint(BO "dbench/dbench-t30-4clients-sigint-parent-only-after-12s.txt", 676.04, 10, 10);
}

/* --- fio --------------------------------------------------------------- */

static void test_fio_json(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "fio/fio-seqwrite-buffered.json", NULL, &rs);
	const struct result_point *p = final(&rs, "write_bw");
	assert_double_equal(p->value, 1323592, 0);
	assert_string_equal(p->unit, "KiB/s");
	assert_string_equal(p->x_name, "bs_kb");
	assert_double_equal(p->x, 1024, 0);
	assert_double_equal(final(&rs, "write_iops")->value, 1292.570743, 1e-6);
	/* clat_ns: in ns, as printed */
	assert_double_equal(final(&rs, "write_clat_p99")->value, 3063808, 1e-9);
	assert_string_equal(final(&rs, "write_clat_p99")->unit, "ns");
	assert_int_equal(nflag(&rs, "read_bw", RP_FINAL), 0);    /* a write job */
	result_set_free(&rs);

	parse(BO "fio/fio-randread-direct.json", "fio", &rs);
	assert_double_equal(final(&rs, "read_bw")->value, 383469, 0);
	assert_double_equal(final(&rs, "read_iops")->value, 95867.413259, 1e-6);
	assert_double_equal(final(&rs, "read_clat_p50")->value, 150528, 1e-9);
	assert_double_equal(final(&rs, "read_clat_p99")->value, 284672, 1e-9);
	assert_double_equal(final(&rs, "read_clat_avg")->value, 164223.607951, 1e-6);
	assert_string_equal(final(&rs, "read_clat_avg")->unit, "ns");
	assert_double_equal(final(&rs, "read_bw")->x, 4, 0);
	result_set_free(&rs);
}

static void test_fio_json_status_interval(void **st)
{
	(void)st;
	struct result_set rs;
	/* 11 documents back to back: 11 interval points, the last is final */
	parse(BO "fio/fio-seqwrite-buffered-status-interval-1s.json", NULL, &rs);
	assert_int_equal(nflag(&rs, "write_bw", RP_PROGRESS), 11);
	assert_double_equal(final(&rs, "write_bw")->value, 1576754, 0);
	assert_double_equal(final(&rs, "write_clat_p99")->value, 2867200, 1e-9);
	/* first interval: 2048 MiB in 895 ms */
	for (size_t i = 0; i < rs.n; i++)
		if ((rs.v[i].flags & RP_PROGRESS) && strcmp(rs.v[i].metric, "write_bw") == 0) {
			assert_double_equal(rs.v[i].x, 0.895, 1e-9);
			break;
		}
	result_set_free(&rs);
}

static void test_fio_normal_and_intervals(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "fio/fio-seqwrite-buffered-normal.txt", NULL, &rs);
	/* "BW=812MiB/s": as printed */
	assert_double_equal(final(&rs, "write_bw")->value, 812, 0);
	assert_string_equal(final(&rs, "write_bw")->unit, "MiB/s");
	assert_string_equal(final(&rs, "write_clat_avg")->unit, "us");   /* "clat (usec)" */
	assert_string_equal(final(&rs, "write_clat_p99")->unit, "us");
	assert_double_equal(final(&rs, "write_iops")->value, 812, 0);
	assert_double_equal(final(&rs, "write_clat_avg")->value, 959.68, 1e-9);
	assert_double_equal(final(&rs, "write_clat_p99")->value, 3294, 0);
	assert_double_equal(final(&rs, "write_clat_p99_9")->value, 7177, 0);
	result_set_free(&rs);

	parse(BO "fio/fio-randread-direct-normal.txt", NULL, &rs);
	assert_double_equal(final(&rs, "read_iops")->value, 90000, 0);   /* "90.0k" */
	assert_double_equal(final(&rs, "read_bw")->value, 351, 0);
	assert_double_equal(final(&rs, "read_clat_p95")->value, 215, 0);
	assert_double_equal(final(&rs, "read_bw")->x, 4, 0);
	result_set_free(&rs);

	parse(BO "fio/fio-seqwrite-buffered-status-interval-1s.txt", NULL, &rs);
	assert_int_equal(nflag(&rs, "write_bw", RP_PROGRESS), 11);
	assert_double_equal(final(&rs, "write_bw")->value, 1272, 0);
	assert_double_equal(final(&rs, "write_iops")->value, 1272, 0);
	/* second interval: 2048 more 1 MiB blocks in 1000 ms */
	int k = 0;
	for (size_t i = 0; i < rs.n; i++)
		if ((rs.v[i].flags & RP_PROGRESS) && strcmp(rs.v[i].metric, "write_bw") == 0 && ++k == 2) {
			assert_double_equal(rs.v[i].x, 1.895, 1e-9);
			assert_double_equal(rs.v[i].value, 2048.0 * 1024 / 1.0, 1e-6);
		}
	result_set_free(&rs);

	parse(BO "fio/fio-randread-direct-status-interval-1s.txt", NULL, &rs);
	assert_int_equal(nflag(&rs, "read_bw", RP_PROGRESS), 11);
	assert_double_equal(final(&rs, "read_iops")->value, 87900, 0);
	assert_double_equal(final(&rs, "read_bw")->value, 343, 0);
	result_set_free(&rs);
}

/* fio picks a unit per figure: numjobs clones of one name that printed
 * one unit sum in it; clones in two units sum in the smaller of them
 * (950MiB/s + 1.20GiB/s = 2178.8 MiB/s); a "clat (nsec)" line's figures
 * stay in ns, a "clat (msec)" line's in ms. */
static void test_fio_clones_units(void **st)
{
	(void)st;
	static const char text[] =
		"w: (g=0): rw=write, bs=(R) 1024KiB-1024KiB, (W) 1024KiB-1024KiB, (T) 1024KiB-1024KiB, ioengine=psync, iodepth=1\n"
		"...\n"
		"w: (groupid=0, jobs=1): err= 0: pid=1: Sat Dec  5 11:58:17 2026\n"
		"  write: IOPS=950, BW=950MiB/s (996MB/s)(9500MiB/10001msec); 0 zone resets\n"
		"    clat (nsec): min=1142, max=31271k, avg=280501.61, stdev=1507465.93\n"
		"w: (groupid=0, jobs=1): err= 0: pid=2: Sat Dec  5 11:58:17 2026\n"
		"  write: IOPS=1229, BW=1.20GiB/s (1289MB/s)(12.0GiB/10001msec); 0 zone resets\n"
		"    clat (msec): min=1, max=31, avg=1.25, stdev=0.5\n"
		"\n"
		"Run status group 0 (all jobs):\n"
		"  WRITE: bw=2179MiB/s (2285MB/s), 950MiB/s-1229MiB/s (996MB/s-1289MB/s), io=21.5GiB (23.1GB), run=10001-10001msec\n";
	struct result_set rs = { 0 };
	struct result_sink sink = result_set_sink(&rs);
	struct parser *p = parser_new("fio", "L");
	assert_non_null(p);
	parser_feed(p, text, sizeof(text) - 1, &sink);
	parser_finish(p, &sink);
	parser_free(p);
	const struct result_point *bw = final(&rs, "write_bw");
	assert_string_equal(bw->unit, "MiB/s");
	/* the clones' sum as fio printed it under "Run status group 0" */
	assert_double_equal(bw->value, 2179, 0);
	assert_double_equal(final(&rs, "write_iops")->value, 950 + 1229, 0);
	result_set_free(&rs);

	/* one job: its latencies in the unit of their lines */
	static const char one[] =
		"w: (groupid=0, jobs=1): err= 0: pid=1: Sat Dec  5 11:58:17 2026\n"
		"  write: IOPS=950, BW=950MiB/s (996MB/s)(9500MiB/10001msec); 0 zone resets\n"
		"    clat (nsec): min=1142, max=31271k, avg=280501.61, stdev=1507465.93\n"
		"     lat (msec): min=1, max=31, avg=1.25, stdev=0.5\n"
		"\n"
		"Run status group 0 (all jobs):\n"
		"  WRITE: bw=950MiB/s (996MB/s), 950MiB/s-950MiB/s (996MB/s-996MB/s), io=9500MiB (9961MB), run=10001-10001msec\n";
	memset(&rs, 0, sizeof(rs));
	p = parser_new("fio", "L");
	assert_non_null(p);
	parser_feed(p, one, sizeof(one) - 1, &sink);
	parser_finish(p, &sink);
	parser_free(p);
	assert_double_equal(final(&rs, "write_bw")->value, 950, 0);
	assert_double_equal(final(&rs, "write_clat_avg")->value, 280501.61, 1e-9);
	assert_string_equal(final(&rs, "write_clat_avg")->unit, "ns");
	assert_double_equal(final(&rs, "write_lat_avg")->value, 1.25, 1e-12);
	assert_string_equal(final(&rs, "write_lat_avg")->unit, "ms");
	result_set_free(&rs);
}

static void test_fio_terse_and_eta(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "fio/fio-randread-direct-terse.txt", NULL, &rs);
	assert_double_equal(final(&rs, "read_bw")->value, 355355, 0);
	assert_double_equal(final(&rs, "read_iops")->value, 88838, 0);
	assert_double_equal(final(&rs, "read_clat_p99")->value, 313, 0);
	assert_double_equal(final(&rs, "read_clat_avg")->value, 177.337786, 1e-9);
	assert_int_equal(nflag(&rs, "write_bw", RP_FINAL), 0);
	result_set_free(&rs);

	parse(BO "fio/fio-seqwrite-buffered-terse.txt", NULL, &rs);
	assert_int_equal(nflag(&rs, "read_bw", RP_FINAL), 0);
	assert_true(final(&rs, "write_bw")->value > 0);
	result_set_free(&rs);

	/* status lines separated by \r only, then the normal report */
	parse(BO "fio/fio-seqwrite-buffered-eta-always.txt", NULL, &rs);
	size_t eta = 0;
	double first = -1;
	for (size_t i = 0; i < rs.n; i++)
		if ((rs.v[i].flags & RP_PROGRESS) && strcmp(rs.v[i].metric, "write_bw") == 0 &&
		    rs.v[i].x == floor(rs.v[i].x)) {
			if (first < 0)
				first = rs.v[i].value;
			eta++;
		}
	assert_int_equal(eta, 9);
	assert_double_equal(first, 2050 * 1024, 0);      /* "[w=2050MiB/s]" */
	assert_double_equal(final(&rs, "write_iops")->value, 1769, 0);
	assert_double_equal(final(&rs, "write_bw")->value, 1769, 0);
	assert_string_equal(final(&rs, "write_bw")->unit, "MiB/s");
	result_set_free(&rs);
}

/* --- sysbench ---------------------------------------------------------- */

static void test_sysbench(void **st)
{
	(void)st;
	struct result_set rs;
	parse(BO "sysbench/sysbench-fileio-1G-8files-seqwr-run-10s.txt", NULL, &rs);
	const struct result_point *p = final(&rs, "write_bw");
	assert_double_equal(p->value, 1071.30, 1e-9);
	assert_string_equal(p->unit, "MiB/s");
	assert_string_equal(p->x_name, "threads");
	assert_double_equal(p->x, 1, 0);
	assert_double_equal(final(&rs, "read_bw")->value, 0, 0);
	assert_double_equal(final(&rs, "writes_per_s")->value, 68563.23, 1e-9);
	assert_double_equal(final(&rs, "latency_max")->value, 10.12, 1e-9);
	assert_int_equal(nflag(&rs, NULL, RP_PROGRESS), 0);
	result_set_free(&rs);

	parse(BO "sysbench/sysbench-fileio-1G-8files-seqwr-run-10s-report-interval-1s.txt", NULL, &rs);
	assert_int_equal(nflag(&rs, "write_bw", RP_PROGRESS), 10);
	assert_double_equal(final(&rs, "write_bw")->value, 1133.86, 1e-9);
	for (size_t i = 0; i < rs.n; i++)
		if ((rs.v[i].flags & RP_PROGRESS) && strcmp(rs.v[i].metric, "write_bw") == 0) {
			assert_double_equal(rs.v[i].value, 962.49, 1e-9);
			assert_double_equal(rs.v[i].x, 1, 0);
			break;
		}
	result_set_free(&rs);

	parse(BO "sysbench/sysbench-fileio-1G-8files-prepare.txt", NULL, &rs);
	assert_double_equal(final(&rs, "prepare_write_bw")->value, 479.71, 1e-9);
	result_set_free(&rs);

	char err[256];
	memset(&rs, 0, sizeof(rs));
	assert_int_equal(parser_parse_file(BO "sysbench/sysbench-fileio-1G-8files-cleanup.txt", NULL, NULL,
					   &rs, err, sizeof(err)), -ENODATA);
	assert_non_null(strstr(err, "cleanup.txt"));
	result_set_free(&rs);
}

/* sysbench 0.4's rate, "Total transferred 128Mb  (9.2851Gb/sec)", is
 * printed in the unit its size calls for (sb_options.c's
 * sb_print_value_size(): 1024-based, "%.5g" and a prefix letter): the
 * figure is kept as printed, in the binary unit the letter names, as
 * people quote it (the reader turned 9.2851 Gb/sec into 9507.94 MiB/s).
 * The report lines of a 0.4.12 seqrd run of two threads made here, and a
 * rate under 1 MiB/s in Kb/sec. */
static void test_sysbench_04_rate_as_printed(void **st)
{
	(void)st;
	static const struct { const char *line; double v; const char *unit; } tab[] = {
		{ "Read 128Mb  Written 0b  Total transferred 128Mb  (9.2851Gb/sec)\n", 9.2851, "GiB/s" },
		{ "Read 1.5625Gb  Written 0b  Total transferred 1.5625Gb  (53.329Mb/sec)\n", 53.329, "MiB/s" },
		{ "Read 0b  Written 2.75Mb  Total transferred 2.75Mb  (940.5Kb/sec)\n", 940.5, "KiB/s" },
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		char out[1024];
		snprintf(out, sizeof(out),
			 "sysbench 0.4.12:  multi-threaded system evaluation benchmark\n"
			 "Number of threads: 2\n"
			 "Operations performed:  8192 reads, 0 writes, 0 Other = 8192 Total\n"
			 "%s"
			 "608506.46 Requests/sec executed\n", tab[i].line);
		struct result_set rs = { 0 };
		struct parser *p = parser_new("sysbench", "L");
		struct result_sink sink = result_set_sink(&rs);
		parser_feed(p, out, strlen(out), &sink);
		parser_finish(p, &sink);
		parser_free(p);
		const struct result_point *t = final(&rs, "total_bw");
		assert_double_equal(t->value, tab[i].v, 1e-9);
		assert_string_equal(t->unit, tab[i].unit);
		assert_double_equal(t->x, 2, 0);
		result_set_free(&rs);
	}
}

/* --- bonnie++ ---------------------------------------------------------- */

static void test_bonnie_csv(void **st)
{
	(void)st;
	struct result_set rs;
	/* the CSV line wins over the rounded human table of the same run:
	 * 9207 creates/s, where the table shows 8192 */
	parse(BO "bonnie++/bonnie++-s2048-r1024-n8.txt", NULL, &rs);
	assert_double_equal(final(&rs, "putc")->value, 3910, 0);
	assert_double_equal(final(&rs, "put_block")->value, 362652, 0);
	assert_double_equal(final(&rs, "rewrite")->value, 1599106, 0);
	assert_double_equal(final(&rs, "getc")->value, 5835, 0);
	assert_double_equal(final(&rs, "seeks")->value, 15775, 0);
	assert_double_equal(final(&rs, "seq_create")->value, 9207, 0);
	const struct result_point *p = final(&rs, "get_block");
	assert_true(p->flags & RP_TOO_FAST);
	assert_true(isnan(p->value));
	assert_double_equal(p->x, 2048, 0);
	assert_string_equal(p->x_name, "size_mb");
	assert_double_equal(final(&rs, "putc_latency")->value, 6175, 0);
	assert_double_equal(final(&rs, "ran_del_latency")->value, 2171, 0);
	assert_int_equal(nflag(&rs, NULL, RP_TOO_FAST), 6);
	result_set_free(&rs);

	parse(BO "bonnie++/bonnie++-q-s2048-r1024-n1.stdout.txt", NULL, &rs);
	assert_double_equal(final(&rs, "put_block")->value, 433002, 0);
	assert_double_equal(final(&rs, "seeks")->value, 14789, 0);
	assert_true(final(&rs, "seq_create")->flags & RP_TOO_FAST);
	result_set_free(&rs);

	parse(BO "bonnie++/bonnie++-s2048-r1024-n1.txt", NULL, &rs);
	assert_true(final(&rs, "seeks")->flags & RP_TOO_FAST);
	assert_double_equal(final(&rs, "putc")->value, 3927, 0);
	result_set_free(&rs);
}

static void test_bonnie_human_tables(void **st)
{
	(void)st;
	struct result_set rs;
	/* -q: the tables alone, on stderr; "423m" K/sec is 423 MiB/s, as printed */
	parse(BO "bonnie++/bonnie++-q-s2048-r1024-n1.stderr.txt", NULL, &rs);
	assert_double_equal(final(&rs, "putc")->value, 3931, 0);
	assert_string_equal(final(&rs, "putc")->unit, "KiB/s");
	assert_double_equal(final(&rs, "put_block")->value, 423, 0);
	assert_string_equal(final(&rs, "put_block")->unit, "MiB/s");
	assert_double_equal(final(&rs, "rewrite")->value, 1.4, 0);
	assert_string_equal(final(&rs, "rewrite")->unit, "GiB/s");
	assert_double_equal(final(&rs, "seeks")->value, 14789, 0);
	assert_double_equal(final(&rs, "seq_create_latency")->value, 1398, 0);
	assert_int_equal(nflag(&rs, NULL, RP_TOO_FAST), 7);
	result_set_free(&rs);

	/* bon_csv2txt: two runs in one table; its "0k +++" is too fast too */
	parse(BO "bonnie++/bon_csv2txt-n1-and-n8.txt", "bonnie", &rs);
	size_t runs[2] = { 0, 0 };
	for (size_t i = 0; i < rs.n; i++) {
		assert_in_range(rs.v[i].run, 0, 1);
		runs[rs.v[i].run]++;
		if (strcmp(rs.v[i].metric, "get_block") == 0)
			assert_true(rs.v[i].flags & RP_TOO_FAST);
		if (strcmp(rs.v[i].metric, "seq_create") == 0 && rs.v[i].run == 1)
			assert_double_equal(rs.v[i].value, 9207, 0);
		if (strcmp(rs.v[i].metric, "seeks") == 0 && rs.v[i].run == 1)
			assert_double_equal(rs.v[i].value, 15775, 0);
	}
	assert_int_equal(runs[0], 24);
	assert_int_equal(runs[1], 24);
	result_set_free(&rs);
}

/* --- iozone (3.4xx, the layout of its printout, including blank cells
 * for tests not run; a real 3.247 auto-mode file is tested value by value
 * in test_parse_versions.c) ------------------------------------------- */

static void test_iozone_tool_output(void **st)
{
	(void)st;
	const char *out =
		"\tIozone: Performance Test of File I/O\n"
		"\tAuto Mode\n"
		"\tFile size set to 102400 kB\n"
		"\tOutput is in kBytes/sec\n"
		"                                                              random    random     bkwd    record    stride                                    \n"
		"              kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread\n"
		"          102400       4     2689     3151     9640     9720     8995     2452                                                          \n"
		"          102400    1024   314600   325053                     374715   325762                                                                \n"
		"\n"
		"iozone test complete.\n"
		"\tChildren see throughput for  2 initial writers \t=  123456.78 kB/sec\n";
	struct result_set rs = { 0 };
	struct parser *p = parser_new("auto", "ioz");
	struct result_sink sink = result_set_sink(&rs);
	parser_feed(p, out, strlen(out), &sink);
	parser_finish(p, &sink);
	assert_string_equal(parser_name(p), "iozone");
	parser_free(p);
	size_t n4 = 0;
	for (size_t i = 0; i < rs.n; i++) {
		const struct result_point *q = &rs.v[i];
		if (strcmp(q->x_name, "reclen_kb") == 0) {
			assert_string_equal(q->label, "ioz");
			assert_string_equal(q->unit, "KB/s");
		}
		if (q->x == 4 && strcmp(q->x_name, "reclen_kb") == 0)
			n4++;
		if (q->x == 1024 && strcmp(q->metric, "random_read") == 0)
			assert_double_equal(q->value, 374715, 0);
		if (q->x == 1024 && strcmp(q->metric, "random_write") == 0)
			assert_double_equal(q->value, 325762, 0);
		assert_false(q->x == 1024 && strcmp(q->metric, "read") == 0);
		if (strcmp(q->x_name, "threads") == 0) {
			assert_string_equal(q->metric, "write");
			assert_double_equal(q->x, 2, 0);
			assert_double_equal(q->value, 123456.78, 1e-9);
		}
	}
	assert_int_equal(n4, 6);
	assert_int_equal(rs.n, 6 + 4 + 1);
	result_set_free(&rs);
}

/* --- the line core ------------------------------------------------------ */

static const char *const all_fixtures[] = {
	BO "dbench/dbench-t10-1client.txt", BO "dbench/dbench-t10-2clients-under-pty-via-script.txt",
	BO "dbench/dbench-t10-2clients.txt", BO "dbench/dbench-t10-4clients.txt",
	BO "dbench/dbench-t10-8clients.txt", BO "dbench/dbench-t30-4clients.txt",
	BO "dbench/dbench-t30-4clients-sigint-group-after-12s.txt",
	BO "dbench/dbench-t30-4clients-sigint-group-after-7s.txt",
	BO "dbench/dbench-t30-4clients-sigint-parent-only-after-12s.txt",
	BO "fio/fio-randread-direct-normal.txt", BO "fio/fio-randread-direct-status-interval-1s.txt",
	BO "fio/fio-randread-direct-terse.txt", BO "fio/fio-randread-direct.json",
	BO "fio/fio-seqwrite-buffered-eta-always.txt", BO "fio/fio-seqwrite-buffered-normal.txt",
	BO "fio/fio-seqwrite-buffered-status-interval-1s.json",
	BO "fio/fio-seqwrite-buffered-status-interval-1s.txt", BO "fio/fio-seqwrite-buffered-terse.txt",
	BO "fio/fio-seqwrite-buffered.json",
	BO "bonnie++/bon_csv2txt-n1-and-n8.txt", BO "bonnie++/bon_csv2txt-n1.txt",
	BO "bonnie++/bonnie++-q-s2048-r1024-n1.stderr.txt", BO "bonnie++/bonnie++-q-s2048-r1024-n1.stdout.txt",
	BO "bonnie++/bonnie++-s2048-r1024-n1.txt", BO "bonnie++/bonnie++-s2048-r1024-n8.txt",
	BO "bonnie++/bossjones-bonnie++-1.97-nfs.txt", BO "bonnie++/rfinnie-bonnie++-1.97-two-runs.txt",
	BO "bonnie++/bonnie++-x3-s256-n1.csv", BO "bonnie++/bon_csv2txt-x3-s256-n1.txt",
	BO "sysbench/sysbench-issue72-1.0pre-fileio-rndrw-8threads.txt", BO "iozone/perfbase-iozone-3.247-auto-ext3.dat",
	BO "sysbench/sysbench-fileio-1G-8files-prepare.txt",
	BO "sysbench/sysbench-fileio-1G-8files-seqwr-run-10s-report-interval-1s.txt",
	BO "sysbench/sysbench-fileio-1G-8files-seqwr-run-10s.txt",
	"tests/fixtures/lkml/dbench-2.4.16-vs-2.4.17pre2.txt", "tests/fixtures/lkml/dbench-2.4.19rc5.txt",
	"tests/fixtures/lkml/iozone-dirty-ratio-2.6.24.txt",
	/* made with the old versions built from their sources (issue 20) */
	BO "sysbench/sysbench-0.5-fileio-64M-4files-prepare.txt",
	BO "sysbench/sysbench-0.5-fileio-64M-4files-rndrw-2threads-5s.txt",
	BO "sysbench/sysbench-0.5-fileio-64M-4files-rndrw-direct-2threads-report-interval-1s.txt",
	BO "sysbench/sysbench-0.5-fileio-64M-4files-rndrd-direct-1thread-report-interval-1s-percentile-99.txt",
	BO "sysbench/sysbench-0.4.12-branch-fileio-64M-4files-rndrw-direct-2threads-report-interval-1s.txt",
	BO "bonnie++/bonnie++-1.96-x3-s128-r64-n1.csv", BO "bonnie++/bonnie++-1.97-x3-s128-r64-n1.csv",
	BO "bonnie++/bonnie++-1.96-f-x2-s2048-r1024-n8.csv", BO "bonnie++/bonnie++-1.97-s256-r128-n1.txt",
	BO "bonnie++/bon_csv2txt-1.96-x3-s128-r64-n1.txt", BO "bonnie++/bon_csv2txt-1.97-f-x2-s2048-r1024-n8.txt",
};

static bool point_eq(const struct result_point *a, const struct result_point *b)
{
	bool v = (isnan(a->value) && isnan(b->value)) || a->value == b->value;
	return v && a->x == b->x && a->run == b->run && a->flags == b->flags &&
	       strcmp(a->label, b->label) == 0 && strcmp(a->metric, b->metric) == 0 &&
	       strcmp(a->x_name, b->x_name) == 0 && strcmp(a->unit, b->unit) == 0;
}

static void test_random_chunks_same_points(void **st)
{
	(void)st;
	srand(20261202);
	for (size_t f = 0; f < sizeof(all_fixtures) / sizeof(all_fixtures[0]); f++) {
		struct result_set whole;
		parse(all_fixtures[f], NULL, &whole);
		assert_true(whole.n > 0);
		/* the parser parse_file chose, fed live in random pieces */
		size_t len;
		char *buf = slurp(all_fixtures[f], &len);
		for (int round = 0; round < 4; round++) {
			struct parser *p = parser_new("auto", "L");
			struct result_set rs = { 0 };
			struct result_sink sink = result_set_sink(&rs);
			/* lkml mails are imports: name the parser file mode picked */
			if (strstr(all_fixtures[f], "lkml")) {
				parser_free(p);
				p = parser_new("mail", "L");
			}
			for (size_t off = 0; off < len;) {
				size_t n = round == 0 ? 1 : 1 + (size_t)rand() % (round == 1 ? 7 : 4096);
				if (n > len - off)
					n = len - off;
				parser_feed(p, buf + off, n, &sink);
				off += n;
			}
			parser_finish(p, &sink);
			parser_free(p);
			if (rs.n != whole.n)
				print_error("%s: %zu points in chunks, %zu whole\n", all_fixtures[f], rs.n, whole.n);
			assert_int_equal(rs.n, whole.n);
			for (size_t i = 0; i < rs.n; i++)
				assert_true(point_eq(&rs.v[i], &whole.v[i]));
			result_set_free(&rs);
		}
		free(buf);
		result_set_free(&whole);
	}
}

static void test_line_ends_nul_and_long_lines(void **st)
{
	(void)st;
	struct parser *p = parser_new("dbench", "x");
	struct result_set rs = { 0 };
	struct result_sink sink = result_set_sink(&rs);
	/* 16 MiB without a line end: kept bounded, then dropped at the \n */
	char *junk = malloc(1 << 20);
	memset(junk, 'A', 1 << 20);
	for (int i = 0; i < 16; i++)
		parser_feed(p, junk, 1 << 20, &sink);
	free(junk);
	const char tail[] = "\n\0\0\r\r\n"
			    "   2    100768  1119.05 MB/sec  warmup   1 sec  latency 18.745 ms\r"
			    "Throughput 822.361 MB\0sec  2 clients\r\n"      /* NUL breaks this one */
			    "Throughput 822.361 MB/sec  2 clients  2 procs  max_latency=29.253 ms";
	parser_feed(p, tail, sizeof(tail) - 1, &sink);
	parser_finish(p, &sink);
	/* finishing twice, feeding after finish: nothing happens */
	parser_finish(p, &sink);
	parser_feed(p, "Throughput 1 MB/sec 1 clients\n", 30, &sink);
	parser_free(p);
	assert_int_equal(nflag(&rs, "throughput", RP_FINAL), 1);
	assert_int_equal(nflag(&rs, "throughput", RP_PROGRESS), 1);
	assert_double_equal(final(&rs, "throughput")->value, 822.361, 1e-9);
	result_set_free(&rs);
}

static void test_names_and_errors(void **st)
{
	(void)st;
	assert_string_equal(parser_for_command("/usr/bin/dbench"), "dbench");
	assert_string_equal(parser_for_command("fio"), "fio");
	assert_string_equal(parser_for_command("./iozone"), "iozone");
	assert_string_equal(parser_for_command("/usr/sbin/bonnie++"), "bonnie");
	assert_string_equal(parser_for_command("sysbench"), "sysbench");
	assert_null(parser_for_command("/bin/dd"));
	assert_null(parser_for_command(NULL));
	assert_null(parser_new("nosuch", "x"));
	for (size_t i = 0; parser_name_at(i); i++) {
		struct parser *p = parser_new(parser_name_at(i), "x");
		assert_non_null(p);
		assert_string_equal(parser_name(p), parser_name_at(i));
		parser_free(p);
	}
	/* the commands and packages come from the same rows */
	assert_string_equal(parser_for_command("tbench"), "dbench");
	assert_string_equal(parser_for_command("bon_csv2txt"), "bonnie");
	assert_string_equal(parser_package_for_command("/usr/bin/iozone"), "iozone3 (Debian non-free)");
	assert_string_equal(parser_package_for_command("bonnie++"), "bonnie++");
	assert_null(parser_package_for_command("dd"));
	struct result_set rs = { 0 };
	char err[256];
	assert_int_equal(parser_parse_file("tests/fixtures/nosuch.txt", NULL, NULL, &rs, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "tests/fixtures/nosuch.txt"));
	assert_int_equal(parser_parse_file(BO "fio/fio-seqwrite-buffered.json", "nosuch", NULL, &rs, err,
					   sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "nosuch"));
	/* default label: the file's base name */
	assert_int_equal(parser_parse_file(BO "dbench/dbench-t10-4clients.txt", NULL, NULL, &rs, err, sizeof(err)), 0);
	assert_string_equal(rs.v[0].label, "dbench-t10-4clients");
	result_set_free(&rs);
}

/* The table of parsers: every benchmark's row is whole (the commands it
 * reads, its package, its sniff), names are unique, and no command is
 * claimed by two rows. */
static void test_parser_table_rows(void **state)
{
	(void)state;
	size_t n = 0;
	for (const struct parser_ops *ops; (ops = pp_ops_at(n)); n++) {
		assert_non_null(ops->name);
		assert_non_null(ops->line);
		for (size_t j = 0; j < n; j++)
			assert_string_not_equal(pp_ops_at(j)->name, ops->name);
		bool benchmark = strcmp(ops->name, "mail") != 0 && strcmp(ops->name, "tables") != 0 &&
				 strcmp(ops->name, "auto") != 0;
		if (!benchmark)
			continue;
		assert_non_null(ops->commands);
		assert_non_null(ops->commands[0]);
		assert_non_null(ops->package);
		assert_non_null(ops->sniff);
		for (const char *const *c = ops->commands; *c; c++) {
			assert_string_equal(parser_for_command(*c), ops->name);
			assert_string_equal(parser_package_for_command(*c), ops->package);
		}
	}
	assert_null(parser_name_at(n));
}

/* Each tool names its headline figures (what mmv.iodash.*.bench.result
 * publishes): a real output of each gives final points of one, and the
 * figures a tool prints beside them (dbench's max_latency) are not. */
static void test_headline(void **st)
{
	(void)st;
	static const struct { const char *file, *parser, *want; } c[] = {
		{ BO "dbench/dbench-t10-1client.txt", "dbench", "throughput" },
		{ BO "fio/fio-seqwrite-buffered.json", "fio", "write_bw" },
		{ BO "fio/fio-randread-direct-normal.txt", "fio", "read_bw" },
		{ BO "sysbench/sysbench-fileio-1G-8files-seqwr-run-10s.txt", "sysbench", "write_bw" },
		{ BO "bonnie++/bonnie++-s2048-r1024-n1.txt", "bonnie", "put_block" },
		{ BO "iozone/perfbase-iozone-3.247-auto-ext3.dat", "iozone", "write" },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct result_set rs;
		parse(c[i].file, c[i].parser, &rs);
		size_t k = 0;
		while (k < rs.n && (strcmp(rs.v[k].metric, c[i].want) || !(rs.v[k].flags & RP_FINAL)))
			k++;
		assert_true(k < rs.n);
		assert_true(parser_metric_is_headline(c[i].want));
		result_set_free(&rs);
	}
	assert_false(parser_metric_is_headline("max_latency"));
	assert_false(parser_metric_is_headline("write_clat_p99"));
	assert_false(parser_metric_is_headline("seeks"));
}

static void test_sweep_overrides(void **st)
{
	(void)st;
	size_t len;
	char *buf = slurp(BO "fio/fio-randread-direct.json", &len);
	struct parser *p = parser_new("fio", "sweep");
	assert_int_equal(parser_set_x(p, "iodepth", 16), 0);
	assert_int_equal(parser_set_run(p, 3), 0);
	assert_int_equal(parser_set_x(p, "", 1), -EINVAL);
	struct result_set rs = { 0 };
	struct result_sink sink = result_set_sink(&rs);
	parser_feed(p, buf, len, &sink);
	parser_finish(p, &sink);
	parser_free(p);
	const struct result_point *q = final(&rs, "read_bw");
	assert_string_equal(q->x_name, "iodepth");
	assert_double_equal(q->x, 16, 0);
	assert_int_equal(q->run, 3);
	result_set_free(&rs);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dbench_final),
		cmocka_unit_test(test_dbench_progress_and_phases),
		cmocka_unit_test(test_dbench_sigint_incomplete),
		cmocka_unit_test(test_fio_json),
		cmocka_unit_test(test_fio_json_status_interval),
		cmocka_unit_test(test_fio_normal_and_intervals),
		cmocka_unit_test(test_fio_terse_and_eta),
		cmocka_unit_test(test_fio_clones_units),
		cmocka_unit_test(test_sysbench),
		cmocka_unit_test(test_sysbench_04_rate_as_printed),
		cmocka_unit_test(test_bonnie_csv),
		cmocka_unit_test(test_bonnie_human_tables),
		cmocka_unit_test(test_iozone_tool_output),
		cmocka_unit_test(test_random_chunks_same_points),
		cmocka_unit_test(test_line_ends_nul_and_long_lines),
		cmocka_unit_test(test_names_and_errors),
		cmocka_unit_test(test_sweep_overrides),
		cmocka_unit_test(test_headline),
		cmocka_unit_test(test_parser_table_rows),
		cmocka_unit_test(test_numbers_out_of_range),
		cmocka_unit_test(test_numbers_as_strtod),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
