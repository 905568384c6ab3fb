/* probe: the file readers on the recorded traces (checked value by value
 * against each trace's summary.tsv), the /proc text parsers, and every kind
 * of bad --proc-root (made in a temp dir here) giving a one-line error that
 * names the file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iodash/probe/probe.h"

#define FIO_TRACE "proc-traces/dirty-bytes-256M-128M-fio-overwrite-4G-20s"
#define DD_TRACE "proc-traces/dirty-bytes-256M-128M-dd-newfile-4G-not-throttled"
#define DBENCH_TRACE "proc-traces/dbench-t10-4clients"
#define IDLE_TRACE "proc-traces/idle-30s"

static char fixtures[PATH_MAX];

/* tests/fixtures from the repo root (make check) or from the binary's
 * place in build/ (run by hand from elsewhere). */
static const char *fixture_dir(void)
{
	char exe[PATH_MAX], cand[PATH_MAX + 64];
	ssize_t n;

	if (fixtures[0])
		return fixtures;
	if (access("tests/fixtures/" FIO_TRACE "/index.tsv", R_OK) == 0) {
		snprintf(fixtures, sizeof(fixtures), "tests/fixtures");
		return fixtures;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		for (int up = 0; up < 5; up++) {
			char *slash = strrchr(exe, '/');
			if (!slash)
				break;
			*slash = '\0';
			snprintf(cand, sizeof(cand), "%s/tests/fixtures/" FIO_TRACE "/index.tsv", exe);
			if (access(cand, R_OK) == 0) {
				snprintf(fixtures, sizeof(fixtures), "%s/tests/fixtures", exe);
				return fixtures;
			}
		}
	}
	fail_msg("tests/fixtures not found (run from the repo root)");
	return NULL;
}

static char *fixture(const char *rel)
{
	static char path[PATH_MAX + 256];
	snprintf(path, sizeof(path), "%s/%s", fixture_dir(), rel);
	return path;
}

/* --- traces against summary.tsv -------------------------------------------- */

struct summary_row {
	long sample;
	double t_rel;
	unsigned long long nr_dirty, nr_writeback, thresh, bg_thresh, throttle, dpw;
	unsigned long long dirty_kb, wb_kb, sect_w, sect_r, dirty_bytes, bg_bytes;
	unsigned ratio, bg_ratio;
};

static int load_summary(const char *trace, struct summary_row **out)
{
	char path[PATH_MAX + 300], line[1024];
	FILE *f;
	int n = 0, cap = 512;
	struct summary_row *rows = calloc((size_t)cap, sizeof(*rows));

	snprintf(path, sizeof(path), "%s/summary.tsv", fixture(trace));
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));     /* header */
	while (fgets(line, sizeof(line), f)) {
		struct summary_row *r;
		assert_true(n < cap);
		r = &rows[n];
		assert_int_equal(sscanf(line, "%ld %lf %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %u %u",
					&r->sample, &r->t_rel, &r->nr_dirty, &r->nr_writeback,
					&r->thresh, &r->bg_thresh, &r->throttle, &r->dpw,
					&r->dirty_kb, &r->wb_kb, &r->sect_w, &r->sect_r,
					&r->dirty_bytes, &r->bg_bytes, &r->ratio, &r->bg_ratio), 16);
		n++;
	}
	fclose(f);
	*out = rows;
	return n;
}

/* Read a whole trace and compare every sample with summary.tsv, which
 * the capture tools derived independently (python) from the same files. */
static int check_trace_against_summary(const char *trace)
{
	struct summary_row *rows;
	int nrows = load_summary(trace, &rows);
	struct snapshot *s = calloc(1, sizeof(*s));
	struct probe *p = NULL;
	char err[512] = "";
	uint64_t first_mono = 0, prev_mono = 0;
	int n = 0, rc;

	rc = probe_open_root(&p, fixture(trace), err, sizeof(err));
	if (rc)
		fail_msg("%s", err);
	assert_int_equal(probe_kind(p), PROBE_TRACE);
	for (;;) {
		double off = probe_trace_next_offset(p);
		rc = probe_read(p, s, err, sizeof(err));
		if (rc == -ENODATA)
			break;
		if (rc)
			fail_msg("sample %d: %s", n, err);
		assert_true(n < nrows);
		const struct summary_row *r = &rows[n];
		assert_int_equal(r->sample, n);
		assert_int_equal(s->have, SNAP_HAVE_VMSTAT | SNAP_HAVE_MEMINFO |
				 SNAP_HAVE_DISKS | SNAP_HAVE_KNOBS);
		assert_int_equal(s->page_kb, 4);
		assert_int_equal(s->nr_dirty, r->nr_dirty);
		assert_int_equal(s->nr_writeback, r->nr_writeback);
		assert_int_equal(s->nr_dirty_threshold, r->thresh);
		assert_int_equal(s->nr_dirty_background_threshold, r->bg_thresh);
		assert_int_equal(s->dirty_kb, r->dirty_kb);
		assert_int_equal(s->writeback_kb, r->wb_kb);
		assert_int_equal(s->dirty_bytes, r->dirty_bytes);
		assert_int_equal(s->dirty_background_bytes, r->bg_bytes);
		assert_int_equal(s->dirty_ratio, r->ratio);
		assert_int_equal(s->dirty_background_ratio, r->bg_ratio);
		const struct snap_disk *vda = snapshot_find_disk(s, "vda");
		assert_non_null(vda);
		assert_false(vda->is_partition);
		assert_int_equal(vda->nfields, 17);
		assert_int_equal(vda->f[DS_SECTORS_WRITTEN], r->sect_w);
		assert_int_equal(vda->f[DS_SECTORS_READ], r->sect_r);
		/* The pacing offset is the recorded one: t_rel minus the first. */
		if (n == 0)
			first_mono = s->mono_ns;
		assert_true(off >= 0);
		assert_true(fabs(off - (r->t_rel - rows[0].t_rel)) < 2e-6);
		assert_true(s->mono_ns >= prev_mono);
		prev_mono = s->mono_ns;
		n++;
	}
	assert_int_equal(n, nrows);
	assert_true(probe_trace_next_offset(p) < 0);
	assert_int_equal(probe_read(p, s, err, sizeof(err)), -ENODATA);
	assert_non_null(strstr(err, "end of the trace"));
	(void)first_mono;
	probe_close(p);
	snapshot_free(s);
	free(s);
	free(rows);
	return n;
}

static void test_trace_fio_summary(void **state)
{
	(void)state;
	assert_int_equal(check_trace_against_summary(FIO_TRACE), 308);
}

static void test_trace_dd_summary(void **state)
{
	(void)state;
	assert_int_equal(check_trace_against_summary(DD_TRACE), 161);
}

static void test_trace_dbench_summary(void **state)
{
	(void)state;
	assert_int_equal(check_trace_against_summary(DBENCH_TRACE), 161);
}

static void test_trace_idle_summary(void **state)
{
	(void)state;
	assert_int_equal(check_trace_against_summary(IDLE_TRACE), 30);
}

/* Sample 37 of the fio trace is the first at the throttle point. */
static void test_trace_fio_sample37(void **state)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	struct probe *p;
	char err[512];
	(void)state;

	assert_int_equal(probe_open_root(&p, fixture(FIO_TRACE), err, sizeof(err)), 0);
	for (int i = 0; i <= 37; i++) {
		if (i == 37)
			assert_true(fabs(probe_trace_next_offset(p) - (3.700120 - 0.000002)) < 1e-9);
		assert_int_equal(probe_read(p, s, err, sizeof(err)), 0);
		if (i == 14) {
			assert_int_equal(s->nr_dirty_threshold, 1206277);
			assert_int_equal(s->dirty_bytes, 0);
		}
		if (i == 15) {
			assert_int_equal(s->nr_dirty_threshold, 65536);
			assert_int_equal(s->nr_dirty_background_threshold, 32768);
		}
	}
	assert_int_equal(s->nr_dirty, 31233);
	assert_int_equal(s->nr_writeback, 18433);
	assert_int_equal(s->nr_dirty + s->nr_writeback, 49666);
	assert_int_equal(s->nr_dirty_threshold, 65536);
	assert_int_equal(s->nr_dirty_background_threshold, 32768);
	assert_int_equal(s->dirty_bytes, 268435456);
	assert_int_equal(s->dirty_background_bytes, 134217728);
	assert_int_equal(s->dirty_ratio, 0);
	assert_int_equal(s->dirty_expire_centisecs, 3000);
	assert_int_equal(s->dirty_writeback_centisecs, 500);
	assert_int_equal(s->mono_ns, 891529343000ull);
	assert_int_equal(s->realtime_ns, 1796226585741266995ll);
	assert_int_equal(s->mem_total_kb, 24683584);
	assert_int_equal(s->ndisks, 10);
	const struct snap_disk *vda = snapshot_find_disk(s, "vda");
	assert_non_null(vda);
	assert_int_equal(vda->major, 254);
	assert_int_equal(vda->f[DS_READS], 3668906);
	assert_int_equal(vda->f[DS_IOS_IN_PROGRESS], 19);
	assert_int_equal(vda->f[DS_WEIGHTED_MS_IO], 3918406);
	/* discard and flush: the fields libproc2 does not read */
	assert_int_equal(vda->f[DS_DISCARDS], 142538);
	assert_int_equal(vda->f[DS_SECTORS_DISCARDED], 85505584);
	assert_int_equal(vda->f[DS_FLUSHES], 375675);
	assert_int_equal(vda->f[DS_MS_FLUSHING], 25078);
	assert_null(snapshot_find_disk(s, "sda"));
	assert_non_null(snapshot_find_disk(s, "loop7"));
	assert_false(s->have & SNAP_HAVE_PSI_IO);
	probe_close(p);
	snapshot_free(s);
	free(s);
}

/* --- text parsers ----------------------------------------------------------- */

static int parse_one(enum probe_text what, const char *text, struct snapshot *s,
		     char *err, size_t errlen)
{
	struct probe_texts t;

	memset(&t, 0, sizeof(t));
	t.buf[what] = text;
	t.len[what] = strlen(text);
	t.name[what] = "T";
	return probe_parse_texts(&t, 1u << what, s, err, errlen);
}

static void test_parse_diskstats_partitions(void **state)
{
	static const char ds[] =
		"   8       0 sda 10 0 20 0 5 0 40 0 0 3 3\n"
		"   8       1 sda1 1 0 2 0 1 0 4 0 0 1 1 0 0 0 0\n"
		" 259       0 nvme0n1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n"
		" 259       1 nvme0n1p1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n"
		" 259       2 nvme0n11 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n"
		"   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
		" 259       3 loop0p1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
		"   9     127 md127 1 0 8 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
	struct snapshot *s = calloc(1, sizeof(*s));
	char err[256] = "";
	(void)state;

	if (parse_one(PROBE_TEXT_DISKSTATS, ds, s, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(s->ndisks, 8);
	assert_false(snapshot_find_disk(s, "sda")->is_partition);
	assert_int_equal(snapshot_find_disk(s, "sda")->nfields, 11);
	assert_int_equal(snapshot_find_disk(s, "sda")->f[DS_SECTORS_WRITTEN], 40);
	assert_true(snapshot_find_disk(s, "sda1")->is_partition);
	assert_int_equal(snapshot_find_disk(s, "sda1")->nfields, 15);
	assert_false(snapshot_find_disk(s, "nvme0n1")->is_partition);
	assert_true(snapshot_find_disk(s, "nvme0n1p1")->is_partition);
	/* nvme0n11 is namespace 11, not partition 1 of nvme0n1 */
	assert_false(snapshot_find_disk(s, "nvme0n11")->is_partition);
	assert_true(snapshot_find_disk(s, "loop0p1")->is_partition);
	/* counters a later kernel may add are ignored, not an error */
	assert_int_equal(snapshot_find_disk(s, "md127")->nfields, 17);
	assert_int_equal(snapshot_find_disk(s, "md127")->f[DS_SECTORS_READ], 8);
	snapshot_free(s);
	free(s);
}

/* iostat's tolerance (sysstat read_diskstats_stat): 14 counters read as
 * 11, 20 as 17, an old kernel's 4-field partition line as reads, sectors
 * read, writes, sectors written; a line of 3 counters or with a word
 * among them leaves that device n/a and the rest of the file read. */
static void test_parse_diskstats_odd_lines(void **state)
{
	static const char ds[] =
		"   8       0 sda 100 2 800 30 50 1 400 20 0 40 50 7 0 56\n"
		"   8       1 sda1 10 80 5 40\n"
		"   8      16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n"
		"   8      32 sdc 1 2 3\n"
		"   8      48 sdd 1 2 3 4 5 6 7 x 9 10 11\n"
		" 254       0 vda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n";
	struct snapshot *s = calloc(1, sizeof(*s));
	const struct snap_disk *d;
	char err[256] = "";
	(void)state;

	if (parse_one(PROBE_TEXT_DISKSTATS, ds, s, err, sizeof(err)))
		fail_msg("refused the sample: %s", err);
	assert_int_equal(s->ndisks, 6);
	d = snapshot_find_disk(s, "sda");
	assert_int_equal(d->nfields, 11);
	assert_int_equal(d->f[DS_WEIGHTED_MS_IO], 50);
	assert_int_equal(d->f[DS_DISCARDS], 0);      /* 12..14 of 14 are not read */
	d = snapshot_find_disk(s, "sda1");
	assert_true(d->is_partition);
	assert_int_equal(d->nfields, 4);
	assert_int_equal(d->f[DS_READS], 10);
	assert_int_equal(d->f[DS_SECTORS_READ], 80);
	assert_int_equal(d->f[DS_WRITES], 5);
	assert_int_equal(d->f[DS_SECTORS_WRITTEN], 40);
	assert_int_equal(d->f[DS_READS_MERGED], 0);
	d = snapshot_find_disk(s, "sdb");
	assert_int_equal(d->nfields, 17);
	assert_int_equal(d->f[DS_MS_FLUSHING], 17);
	assert_int_equal(snapshot_find_disk(s, "sdc")->nfields, 0);
	assert_int_equal(snapshot_find_disk(s, "sdd")->nfields, 0);
	assert_int_equal(snapshot_find_disk(s, "vda")->nfields, 15);
	snapshot_free(s);
	free(s);
}

static void test_parse_psi_and_knob(void **state)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	char err[256] = "";
	(void)state;

	assert_int_equal(parse_one(PROBE_TEXT_PSI_IO,
				   "some avg10=1.25 avg60=0.04 avg300=0.36 total=3214429\n"
				   "full avg10=0.50 avg60=0.04 avg300=0.32 total=2954458\n",
				   s, err, sizeof(err)), 0);
	assert_true(s->have & SNAP_HAVE_PSI_IO);
	assert_true(s->psi_io_some_avg10 > 1.2499 && s->psi_io_some_avg10 < 1.2501);
	assert_true(s->psi_io_full_avg10 > 0.4999 && s->psi_io_full_avg10 < 0.5001);
	assert_int_equal(s->psi_io_some_total_us, 3214429);
	assert_int_equal(s->psi_io_full_total_us, 2954458);

	assert_int_equal(parse_one(PROBE_TEXT_DIRTY_BYTES, "268435456\n", s, err, sizeof(err)), 0);
	assert_int_equal(s->dirty_bytes, 268435456);
	assert_false(s->have & SNAP_HAVE_KNOBS);   /* one knob of six */
	assert_int_equal(parse_one(PROBE_TEXT_DIRTY_RATIO, "20 x\n", s, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "T:1: expected one number, as in /proc/sys/vm/dirty_ratio");
	/* out of range: n/a with a note naming the file and line */
	assert_int_equal(parse_one(PROBE_TEXT_DIRTY_RATIO, "99999999999\n", s, err, sizeof(err)), 0);
	assert_string_equal(s->note, "T:1: 99999999999 is out of range for sys/vm/dirty_ratio: the knobs are n/a");
	assert_int_equal(parse_one(PROBE_TEXT_DIRTY_BYTES, "99999999999999999999999\n", s, err, sizeof(err)), 0);
	assert_non_null(strstr(s->note, "T:1: 99999999999999999999999 is out of range"));
	/* the edge of u64: 19 digits never overflow, the 20th is checked */
	assert_int_equal(parse_one(PROBE_TEXT_DIRTY_BYTES, "9999999999999999999\n", s, err, sizeof(err)), 0);
	assert_true(s->dirty_bytes == 9999999999999999999ull);
	assert_int_equal(parse_one(PROBE_TEXT_DIRTY_BYTES, "18446744073709551615\n", s, err, sizeof(err)), 0);
	assert_true(s->dirty_bytes == UINT64_MAX);
	assert_int_equal(parse_one(PROBE_TEXT_DIRTY_BYTES, "18446744073709551616\n", s, err, sizeof(err)), 0);
	assert_non_null(strstr(s->note, "T:1: 18446744073709551616 is out of range"));
	assert_int_equal(parse_one(PROBE_TEXT_DIRTY_BYTES, "00000000000000000000000042\n", s, err, sizeof(err)), 0);
	assert_true(s->dirty_bytes == 42);
	snapshot_free(s);
	free(s);
}

/* One policy for odd numbers (docs/parsers.md): a value out of range
 * (a sign, a point, an exponent, letters, past 2^64-1, a page count past
 * any memory, a diskstats line of 3 counters) is n/a, the read goes on,
 * and the snapshot's note names the file and line of the first. */
static void test_parse_out_of_range(void **state)
{
	static const char vm_ok[] = "nr_dirty 5\nnr_writeback 1\nnr_dirty_threshold 100\n"
				    "nr_dirty_background_threshold 50\n";
	static const struct { enum probe_text what; const char *text; unsigned have; const char *note; } cases[] = {
		{ PROBE_TEXT_VMSTAT, "nr_dirty -5\nnr_writeback 1\nnr_dirty_threshold 100\nnr_dirty_background_threshold 50\n",
		  SNAP_HAVE_VMSTAT, "T:1: nr_dirty -5 is not a count (out of range): the dirty figures are n/a" },
		{ PROBE_TEXT_VMSTAT, "nr_dirty 5\nnr_writeback five\nnr_dirty_threshold 100\nnr_dirty_background_threshold 50\n",
		  SNAP_HAVE_VMSTAT, "T:2: nr_writeback five is not a count" },
		{ PROBE_TEXT_VMSTAT, "nr_dirty 18446744073709551615\nnr_writeback 1\nnr_dirty_threshold 100\nnr_dirty_background_threshold 50\n",
		  SNAP_HAVE_VMSTAT, "T:1: nr_dirty 18446744073709551615 is more pages than any memory (out of range)" },
		{ PROBE_TEXT_VMSTAT, "nr_dirty 5\nnr_writeback 1\nnr_dirty_threshold 1e23\nnr_dirty_background_threshold 50\n",
		  SNAP_HAVE_VMSTAT, "T:3: nr_dirty_threshold 1e23 is not a count" },
		{ PROBE_TEXT_VMSTAT, "nr_dirty 5\nnr_writeback 1\nnr_dirty_threshold 100\nnr_dirty_background_threshold 99999999999999999999999\n",
		  SNAP_HAVE_VMSTAT, "T:4: nr_dirty_background_threshold 99999999999999999999999 is not a count" },
		{ PROBE_TEXT_MEMINFO, "MemTotal: 5 kB\nDirty: -4 kB\nWriteback: 0 kB\n",
		  SNAP_HAVE_MEMINFO, "T:2: Dirty: -4 is not a count (out of range): the meminfo figures are n/a" },
		{ PROBE_TEXT_DISKSTATS, "   8       0 sda 1 2 3 4 5 6 7 8 9 10 11\n   8      32 sdc 1 2 3\n",
		  0, "T:2: sdc: 3 counters (a kernel prints 4, 11, 14, 15, 17 or more): its figures are n/a" },
		{ PROBE_TEXT_DISKSTATS, "   8      32 sdc 1 2 3 4 -5 6 7 8 9 10 11\n",
		  0, "T:1: sdc: counter 5 '-5' is not a count (out of range): its figures are n/a" },
		{ PROBE_TEXT_DISKSTATS, "   8      32 sdc 1e23 2 3 4 5 6 7 8 9 10 11\n",
		  0, "T:1: sdc: counter 1 '1e23' is not a count" },
		{ PROBE_TEXT_PSI_IO, "some avg10=x avg60=0.04 avg300=0.36 total=5\nfull avg10=0.50 avg60=0.04 avg300=0.32 total=6\n",
		  SNAP_HAVE_PSI_IO, "T:1: avg10=x is not a number (out of range): the pressure figures are n/a" },
		{ PROBE_TEXT_PSI_IO, "some avg10=1.00 avg60=0.04 avg300=0.36 total=5\nfull avg10=0.50 avg60=0.04 avg300=0.32 total=-6\n",
		  SNAP_HAVE_PSI_IO, "T:2: total=-6 is not a number" },
	};
	struct snapshot *s = calloc(1, sizeof(*s));
	char err[256] = "";
	(void)state;

	assert_int_equal(parse_one(PROBE_TEXT_VMSTAT, vm_ok, s, err, sizeof(err)), 0);
	assert_true(s->have & SNAP_HAVE_VMSTAT);
	assert_string_equal(s->note, "");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = parse_one(cases[i].what, cases[i].text, s, err, sizeof(err));
		if (rc || strncmp(s->note, cases[i].note, strlen(cases[i].note)) || (s->have & cases[i].have))
			fail_msg("case %zu: rc %d (%s), have %#x, note '%s', want '%s'", i, rc, err, s->have,
				 s->note, cases[i].note);
		if (cases[i].what == PROBE_TEXT_DISKSTATS)
			assert_int_equal(snapshot_find_disk(s, "sdc")->nfields, 0);
	}
	snapshot_free(s);
	free(s);
}

/* Each bad text gives -EINVAL and a message naming T and the line. */
static void test_parse_bad_texts(void **state)
{
	static const struct { enum probe_text what; const char *text; const char *msg; } cases[] = {
		{ PROBE_TEXT_VMSTAT, "", "T: empty" },
		{ PROBE_TEXT_VMSTAT, "nr_dirty 5\nnr_writeback", "T:2: last line has no newline" },
		{ PROBE_TEXT_VMSTAT, "nr_dirty 5\n\x01\x02garbage\n", "T:2: expected 'name number'" },
		{ PROBE_TEXT_VMSTAT, "nr_dirty 5\nnr_writeback \n", "T:2: expected a number after 'nr_writeback'" },
		{ PROBE_TEXT_VMSTAT, "nr_dirty 5\nnr_writeback 1\n", "T: no nr_dirty_threshold line" },
		{ PROBE_TEXT_VMSTAT, "nr_dirty 5\0\n", "T:1: binary data" },
		{ PROBE_TEXT_MEMINFO, "MemTotal: 5 kB\nDirty 4 kB\n", "T:2: expected 'Name: number [kB]'" },
		{ PROBE_TEXT_MEMINFO, "MemTotal: 5 MB\n", "T:1: unexpected text after the number of 'MemTotal'" },
		{ PROBE_TEXT_MEMINFO, "MemTotal: 5 kB\n", "T: no Dirty line" },
		{ PROBE_TEXT_DISKSTATS, "vda 1 2\n", "T:1: expected 'major minor name" },
		{ PROBE_TEXT_DISKSTATS, " 1 2 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1\n", "T:1: device name too long" },
		{ PROBE_TEXT_PSI_IO, "some avg10=1.00 total=5\n", "T: no 'full' line" },
		{ PROBE_TEXT_PSI_IO, "half avg10=1 total=5\n", "T:1: expected 'some ...'" },
		{ PROBE_TEXT_DIRTY_RATIO, "", "T: empty" },
		{ PROBE_TEXT_DIRTY_RATIO, "20\n30\n", "T:2: more than one line" },
	};
	struct snapshot *s = calloc(1, sizeof(*s));
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct probe_texts t;
		char err[256] = "";
		memset(&t, 0, sizeof(t));
		t.buf[cases[i].what] = cases[i].text;
		/* the NUL case carries its own length */
		t.len[cases[i].what] = strlen(cases[i].text) +
			(strstr(cases[i].msg, "binary") ? 2 : 0);
		t.name[cases[i].what] = "T";
		int rc = probe_parse_texts(&t, 1u << cases[i].what, s, err, sizeof(err));
		if (rc != -EINVAL || strncmp(err, cases[i].msg, strlen(cases[i].msg)) != 0)
			fail_msg("case %zu: rc %d, err '%s', want '%s'", i, rc, err, cases[i].msg);
		assert_null(strchr(err, '\n'));
	}
	snapshot_free(s);
	free(s);
}

/* --- bad --proc-root, made here in a temp dir ------------------------------- */

static char tmpdir[64];

static int setup_tmp(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iodash-probe.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *dir, const char *rel, const void *data, size_t len)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *c = path + 1; (c = strchr(c, '/')); c++) {
		*c = '\0';
		mkdir(path, 0755);
		*c = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static void write_str(const char *dir, const char *rel, const char *s)
{
	write_file(dir, rel, s, strlen(s));
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc((size_t)n + 1);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* Open (and read up to 3 samples of) DIR; expect rc and an error naming
 * `names` (a file, with ":LINE" when given) on one line. */
static void expect_root_error(const char *dir, int want_rc, const char *names)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	struct probe *p = NULL;
	char err[1024] = "";
	int rc = probe_open_root(&p, dir, err, sizeof(err));

	for (int i = 0; rc == 0 && i < 3; i++)
		rc = probe_read(p, s, err, sizeof(err));
	probe_close(p);
	snapshot_free(s);
	free(s);
	if (rc != want_rc || !strstr(err, names) || strchr(err, '\n'))
		fail_msg("%s: rc %d (want %d), err '%s' (want it to name '%s')",
			 dir, rc, want_rc, err, names);
	print_message("    %s\n", err);
}

static void make_proc_dir(const char *d)
{
	char src[PATH_MAX + 300];
	size_t len;
	char *b;

	/* A real sample split into a /proc-like tree. */
	snprintf(src, sizeof(src), "%s/samples/00037.txt", fixture(FIO_TRACE));
	b = slurp(src, &len);
	static const char *const secs[] = {
		"/proc/vmstat", "/proc/meminfo", "/proc/diskstats",
		"/proc/sys/vm/dirty_background_bytes", "/proc/sys/vm/dirty_background_ratio",
		"/proc/sys/vm/dirty_bytes", "/proc/sys/vm/dirty_expire_centisecs",
		"/proc/sys/vm/dirty_ratio", "/proc/sys/vm/dirty_writeback_centisecs",
	};
	b[len] = '\0';
	for (size_t i = 0; i < sizeof(secs) / sizeof(secs[0]); i++) {
		char hdr[128];
		snprintf(hdr, sizeof(hdr), "==> %s <==\n", secs[i]);
		char *start = strstr(b, hdr);
		assert_non_null(start);
		start += strlen(hdr);
		char *end = strstr(start, "==> ");
		if (!end)
			end = b + len;
		write_file(d, secs[i] + 6, start, (size_t)(end - start));
	}
	free(b);
}

static void test_root_missing_and_empty(void **state)
{
	char d[128];
	(void)state;

	snprintf(d, sizeof(d), "%s/does-not-exist", tmpdir);
	expect_root_error(d, -ENOENT, "does-not-exist: No such file or directory; give --proc-root");
	snprintf(d, sizeof(d), "%s/empty", tmpdir);
	mkdir(d, 0755);
	expect_root_error(d, -ENOENT, "empty: neither a recorded trace (no index.tsv) nor laid out like /proc");
	snprintf(d, sizeof(d), "%s/a-file", tmpdir);
	write_str(tmpdir, "a-file", "x\n");
	expect_root_error(d, -ENOTDIR, "a-file: not a directory");
}

static void test_root_proc_dir(void **state)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	struct probe *p;
	char d[128], err[512] = "";
	(void)state;

	snprintf(d, sizeof(d), "%s/procdir", tmpdir);
	make_proc_dir(d);
	if (probe_open_root(&p, d, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(probe_kind(p), PROBE_PROC_DIR);
	assert_int_equal(probe_read(p, s, err, sizeof(err)), 0);
	assert_int_equal(s->nr_dirty, 31233);
	assert_int_equal(s->nr_dirty_threshold, 65536);
	assert_int_equal(s->dirty_bytes, 268435456);
	assert_int_equal(snapshot_find_disk(s, "vda")->f[DS_FLUSHES], 375675);
	assert_false(s->have & SNAP_HAVE_PSI_IO);
	assert_true(probe_trace_next_offset(p) < 0);
	probe_close(p);

	/* pressure/io is optional; when there, it is read */
	write_str(d, "pressure/io", "some avg10=3.00 avg60=0 avg300=0 total=7\n"
		  "full avg10=1.00 avg60=0 avg300=0 total=5\n");
	assert_int_equal(probe_open_root(&p, d, err, sizeof(err)), 0);
	assert_int_equal(probe_read(p, s, err, sizeof(err)), 0);
	assert_true(s->have & SNAP_HAVE_PSI_IO);
	assert_int_equal(s->psi_io_full_total_us, 5);
	probe_close(p);

	/* empty, garbage, cut and missing files, each named with its line */
	write_str(d, "pressure/io", "garbage\n");
	expect_root_error(d, -EINVAL, "/procdir/pressure/io:1: expected 'some ...'");
	unlink(strcat(strcpy(err, d), "/pressure/io"));
	write_str(d, "meminfo", "");
	expect_root_error(d, -EINVAL, "/procdir/meminfo: empty");
	write_file(d, "meminfo", "\x7f" "ELF\x02\x01\x01\0\0\0", 10);
	expect_root_error(d, -EINVAL, "/procdir/meminfo:1: binary data");
	write_str(d, "meminfo", "<html><body>404</body></html>\n");
	expect_root_error(d, -EINVAL, "/procdir/meminfo:1: expected 'Name: number [kB]'");
	write_str(d, "meminfo", "MemTotal:       24683584 kB\nMemFree:        19");
	expect_root_error(d, -EINVAL, "/procdir/meminfo:2: last line has no newline");
	unlink(strcat(strcpy(err, d), "/meminfo"));
	expect_root_error(d, -ENOENT, "/procdir/meminfo: No such file or directory; give --proc-root");
	make_proc_dir(d);
	/* an odd diskstats line costs that device its figures, not the sample */
	write_str(d, "diskstats", " 254 0 vda 1 2 3 4 5 6 7 8\n");
	expect_root_error(d, 0, "");
	make_proc_dir(d);
	write_str(d, "sys/vm/dirty_ratio", "twenty\n");   /* out of range: n/a, noted */
	expect_root_error(d, 0, "");
	write_str(d, "sys/vm/dirty_ratio", "20 x\n");      /* not the file's shape */
	expect_root_error(d, -EINVAL, "/procdir/sys/vm/dirty_ratio:1: expected one number");
	make_proc_dir(d);
	/* a fifo where a file should be must not hang the reader */
	snprintf(err, sizeof(err), "%s/sys/vm/dirty_bytes", d);
	unlink(err);
	assert_int_equal(mkfifo(err, 0644), 0);
	expect_root_error(d, -EINVAL, "/procdir/sys/vm/dirty_bytes: not a regular file");
	snapshot_free(s);
	free(s);
}

/* A small trace copied from the fio fixture: samples 35..39. */
static void make_trace(const char *d, int first, int count)
{
	char src[PATH_MAX + 300], rel[64], index[4096];
	size_t len, off = 0;

	off += (size_t)snprintf(index, sizeof(index), "sample\tt_rel_s\trealtime_epoch\tfile\n");
	for (int i = first; i < first + count; i++) {
		snprintf(rel, sizeof(rel), "samples/%05d.txt", i);
		snprintf(src, sizeof(src), "%s/%s", fixture(FIO_TRACE), rel);
		char *b = slurp(src, &len);
		write_file(d, rel, b, len);
		free(b);
		off += (size_t)snprintf(index + off, sizeof(index) - off,
					"%d\t%d.%06d\t17962265%02d.000000000\t%s\n",
					i, i / 10, (i % 10) * 100000, i, rel);
	}
	write_str(d, "index.tsv", index);
}

static void test_root_trace_good_copy(void **state)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	struct probe *p;
	char d[128], err[512];
	int n = 0;
	(void)state;

	snprintf(d, sizeof(d), "%s/trace-ok/", tmpdir);
	make_trace(d, 35, 5);
	assert_int_equal(probe_open_root(&p, d, err, sizeof(err)), 0);
	assert_true(fabs(probe_trace_next_offset(p)) < 1e-9);
	while (probe_read(p, s, err, sizeof(err)) == 0) {
		if (n == 2) {
			assert_int_equal(s->nr_dirty, 31233);
			assert_true(fabs(probe_trace_next_offset(p) - 0.3) < 1e-9);
		}
		n++;
	}
	assert_int_equal(n, 5);
	/* the root's trailing '/' is not doubled in messages */
	assert_non_null(strstr(err, "trace-ok: end of the trace (5 samples)"));
	probe_close(p);
	snapshot_free(s);
	free(s);
}

static void test_root_trace_bad(void **state)
{
	char d[128], path[256], src[PATH_MAX + 300];
	size_t len;
	char *b;
	(void)state;

	/* index.tsv naming a missing file */
	snprintf(d, sizeof(d), "%s/trace-missing", tmpdir);
	make_trace(d, 35, 5);
	snprintf(path, sizeof(path), "%s/samples/00038.txt", d);
	unlink(path);
	expect_root_error(d, -EINVAL, "trace-missing/index.tsv:5: samples/00038.txt: No such file or directory; "
			  "the trace is incomplete");

	/* a sample file cut mid-way: in a line, then at a line end */
	snprintf(d, sizeof(d), "%s/trace-cut", tmpdir);
	make_trace(d, 35, 5);
	snprintf(src, sizeof(src), "%s/samples/00036.txt", fixture(FIO_TRACE));
	b = slurp(src, &len);
	write_file(d, "samples/00036.txt", b, len / 2);
	expect_root_error(d, -EINVAL, "trace-cut/samples/00036.txt:");
	expect_root_error(d, -EINVAL, "last line has no newline: the file was cut short");
	char *cut = memchr(b + len / 2, '\n', len - len / 2);
	write_file(d, "samples/00036.txt", b, (size_t)(cut - b) + 1);
	expect_root_error(d, -EINVAL, "trace-cut/samples/00036.txt: no '==> /proc/");
	write_file(d, "samples/00036.txt", "", 0);
	expect_root_error(d, -EINVAL, "trace-cut/samples/00036.txt: empty sample file");
	/* garbage in a sample */
	write_str(d, "samples/00036.txt", "GIF89a\x01\x02\n");
	expect_root_error(d, -EINVAL, "trace-cut/samples/00036.txt:1: expected '# sample=N");
	/* a sample of another trace under this index line */
	write_file(d, "samples/00036.txt", b, len);
	snprintf(path, sizeof(path), "%s/samples/00035.txt", d);
	snprintf(src, sizeof(src), "%s/samples/00037.txt", fixture(FIO_TRACE));
	free(b);
	b = slurp(src, &len);
	write_file(d, "samples/00035.txt", b, len);
	expect_root_error(d, -EINVAL, "trace-cut/samples/00035.txt:1: says sample=37 but");
	free(b);

	/* index.tsv: empty, header only, garbage, cut, bad rows */
	snprintf(d, sizeof(d), "%s/trace-index", tmpdir);
	make_trace(d, 35, 2);
	write_str(d, "index.tsv", "");
	expect_root_error(d, -EINVAL, "trace-index/index.tsv: empty");
	write_str(d, "index.tsv", "sample\tt_rel_s\trealtime_epoch\tfile\n");
	expect_root_error(d, -EINVAL, "trace-index/index.tsv: no samples");
	write_file(d, "index.tsv", "\x89PNG\r\n\x1a\n\0\0", 10);
	expect_root_error(d, -EINVAL, "trace-index/index.tsv:1: binary data");
	write_str(d, "index.tsv", "hello world\n");
	expect_root_error(d, -EINVAL, "trace-index/index.tsv:1: expected the header");
	write_str(d, "index.tsv", "sample\tt_rel_s\trealtime_epoch\tfile\n35\t3.5\t1796226585.5\tsamples/00035.txt\n36\t3.6");
	expect_root_error(d, -EINVAL, "trace-index/index.tsv:3: last line has no newline");
	write_str(d, "index.tsv", "sample\tt_rel_s\trealtime_epoch\tfile\n35\t3.5\t1796226585.5\n");
	expect_root_error(d, -EINVAL, "trace-index/index.tsv:2: expected 4 TAB-separated fields");
	write_str(d, "index.tsv", "sample\tt_rel_s\trealtime_epoch\tfile\n35\tsoon\t1796226585.5\tsamples/00035.txt\n");
	expect_root_error(d, -EINVAL, "trace-index/index.tsv:2: t_rel_s is not a number");
	write_str(d, "index.tsv", "sample\tt_rel_s\trealtime_epoch\tfile\n35\t3.5\t1\t../../etc/passwd\n");
	expect_root_error(d, -EINVAL, "trace-index/index.tsv:2: file must be a path inside");
	write_str(d, "index.tsv", "sample\tt_rel_s\trealtime_epoch\tfile\n36\t3.6\t1\tsamples/00036.txt\n"
		  "35\t3.5\t1\tsamples/00035.txt\n");
	expect_root_error(d, -EINVAL, "trace-index/index.tsv:3: sample numbers must increase");
	snprintf(path, sizeof(path), "%s/index.tsv", d);
	unlink(path);
	expect_root_error(d, -ENOENT, "trace-index/index.tsv: No such file or directory; a trace directory needs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_fio_sample37),
		cmocka_unit_test(test_trace_fio_summary),
		cmocka_unit_test(test_trace_dd_summary),
		cmocka_unit_test(test_trace_dbench_summary),
		cmocka_unit_test(test_trace_idle_summary),
		cmocka_unit_test(test_parse_diskstats_partitions),
		cmocka_unit_test(test_parse_diskstats_odd_lines),
		cmocka_unit_test(test_parse_psi_and_knob),
		cmocka_unit_test(test_parse_out_of_range),
		cmocka_unit_test(test_parse_bad_texts),
		cmocka_unit_test(test_root_missing_and_empty),
		cmocka_unit_test(test_root_proc_dir),
		cmocka_unit_test(test_root_trace_good_copy),
		cmocka_unit_test(test_root_trace_bad),
	};
	return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
