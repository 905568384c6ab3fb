/* Recording writer and reader: round trip, crash (kill -9), torn and
 * damaged records, foreign and newer files, follow mode. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "iodash/record/recording.h"
#include "iodash/results/compare.h"
#include "iodash/record/recorder.h"
#include "../../src/record/rec_format.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iodash-trec.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd);
}

static void path_of(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", tmpdir, name);
}

/* One busy disk's counter deltas over 0.5 s, as derive keeps them. */
static void busy_vda(struct disk_rate *d, int i)
{
	d->nfields = 17;
	d->delta[DS_WRITES] = 1203 + (uint64_t)i;
	d->delta[DS_WRITES_MERGED] = 311;
	d->delta[DS_SECTORS_WRITTEN] = 4812642 + 2 * (uint64_t)i;
	d->delta[DS_MS_WRITING] = 1485;
	d->delta[DS_IOS_IN_PROGRESS] = 3;
	d->delta[DS_MS_IO] = 499;
	d->delta[DS_WEIGHTED_MS_IO] = 1625;
	d->delta[DS_FLUSHES] = 12;
	d->delta[DS_MS_FLUSHING] = 7;
}

/* A sample as derive_sample makes it: disk 0 idle, 1 busy writing, 2 an
 * old kernel's disk (11 fields) reading; no rates on the first sample. */
static void make_sample(struct sample *s, int i)
{
	static const char *const names[] = { "nvme0n1", "vda", "sdb" };

	sample_reset(s);
	for (int d = 0; d < 3; d++)
		assert_non_null(sample_add_disk(s));
	s->seq = (uint64_t)i;
	s->t = i * 0.5;
	s->dt = i ? 0.5 : 0;
	s->realtime_ns = 1764690000123456789LL + i * 500000000LL + (i > 5 ? 1234 : 0);
	s->have_dirty = true;
	s->dirty_kb = 103084 + (uint64_t)i;
	s->writeback_kb = 36868;
	s->bg_thresh_kb = 131072;
	s->freerun_kb = 196608;
	s->thresh_kb = 262144;
	s->meminfo_dirty_kb = 103080;
	s->meminfo_writeback_kb = 36864;
	s->zone = ZONE_THROTTLE;
	s->have_psi = true;
	s->psi_io_some_avg10 = 12.34;
	s->hit_event = i == 3 ? 1 : 0;
	s->hits = 1;
	s->hit_seconds = 1.25;
	s->missed = i > 6 ? 4 : 0;   /* the sampler fell behind before sample 7 */
	for (int d = 0; d < 3; d++)
		snprintf(s->disks[d].name, sizeof(s->disks[d].name), "%s", names[d]);
	if (!i)
		return;   /* derive's first sample: no deltas, have_rate false */
	s->disks[0].nfields = 17;
	busy_vda(&s->disks[1], i);
	s->disks[2].nfields = 11;
	s->disks[2].delta[DS_READS] = 45006;
	s->disks[2].delta[DS_SECTORS_READ] = 383469;
	s->disks[2].delta[DS_MS_READING] = 9001;
	s->disks[2].delta[DS_MS_IO] = 500;
	for (int d = 0; d < 3; d++)
		derive_disk_rates(s->disks[d].delta, s->disks[d].nfields, s->dt, &s->disks[d]);
}

static void write_session(const char *path, int nsamples, bool close_it, struct recorder **keep)
{
	struct snapshot first = { 0 };
	struct rec_meta meta = {
		.host = "testbox", .kernel = "6.18.44-fc-v1045", .first = &first,
		.command = "dbench -t 10 4", .label = "2.6.24-rc2 (5,10)",
		.source = "live /proc", .interval = 0.5,
	};
	struct recorder *r;
	struct model_observer obs;
	char err[256];
	struct sample s = { 0 };
	struct bench_status b = { .state = BENCH_RUNNING, .pid = 42, .ntasks = 5,
				  .throttled_tasks = 2, .last_exit_status = -1, .eta_s = -1 };
	struct model_event e = { .kind = MEV_MARK, .t = 1.0 };
	struct output_line l = { .t = 1.5, .run = 0 };
	struct result_point p = { .label = "2.6.24-rc2 (5,10)", .setting = "vm.dirty_ratio=10\tx", .run = 0, .x_name = "clients",
				  .x = 4, .metric = "throughput", .value = 1014.2, .unit = "MB/s",
				  .flags = RP_FINAL, .t = 2.25 };

	first.have = SNAP_HAVE_KNOBS;
	first.realtime_ns = 1764690000123456789LL;   /* sample 0's: skew 0 until it strays */
	first.dirty_bytes = 268435456;
	first.dirty_background_bytes = 134217728;
	first.dirty_ratio = 20;
	first.dirty_background_ratio = 10;
	assert_int_equal(recorder_open(&r, path, 0, &meta, err, sizeof(err)), 0);
	obs = recorder_observer(r);
	snprintf(e.text, sizeof(e.text), "mark 1");
	snprintf(l.text, sizeof(l.text), "a\ttab, a \\ backslash\nand a newline");
	for (int i = 0; i < nsamples; i++) {
		make_sample(&s, i);
		obs.on_sample(obs.ctx, &s);
		obs.on_bench(obs.ctx, &b);   /* same status every sample: one B record */
		if (i == 2)
			obs.on_event(obs.ctx, &e);
		if (i == 3)
			obs.on_output(obs.ctx, &l);
		if (i == 4)
			obs.on_result(obs.ctx, &p);
	}
	assert_int_equal(recorder_flush(r), 0);
	if (close_it)
		recorder_close(r);
	else
		*keep = r;
	sample_free(&s);
}

static void test_crc(void **state)
{
	(void)state;
	assert_int_equal(rec_crc32("123456789", 9), 0xCBF43926u);
	assert_int_equal(rec_crc32("", 0), 0);
	/* 8-byte slices and the byte tail agree with the bytewise result */
	assert_int_equal(rec_crc32("The quick brown fox jumps over the lazy dog", 43), 0x414FA339u);
}

static void test_roundtrip(void **state)
{
	char path[128], err[256];
	struct recording *rec;
	struct sample s = { 0 }, want = { 0 };
	struct model_event e;
	struct output_line l;
	struct result_point p;
	struct bench_status b;
	const struct rec_header *h;
	(void)state;

	path_of(path, sizeof(path), "rt.rec");
	write_session(path, 10, true, NULL);
	assert_int_equal(recording_sniff(path), 1);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_string_equal(recording_warning(rec), "");
	h = recording_header(rec);
	assert_int_equal(h->major, 2);
	assert_int_equal(h->start_realtime_ns, 1764690000123456789LL);
	assert_string_equal(h->host, "testbox");
	assert_string_equal(h->kernel, "6.18.44-fc-v1045");
	assert_string_equal(h->label, "2.6.24-rc2 (5,10)");
	assert_string_equal(h->command, "dbench -t 10 4");
	assert_true(h->interval == 0.5);
	assert_true(h->have_knobs);
	assert_int_equal(h->dirty_bytes, 268435456);
	assert_int_equal(h->dirty_background_bytes, 134217728);
	assert_int_equal(h->dirty_ratio, 20);

	assert_int_equal(recording_count(rec, RK_SAMPLE), 10);
	assert_int_equal(recording_count(rec, RK_EVENT), 1);
	assert_int_equal(recording_count(rec, RK_OUTPUT), 1);
	assert_int_equal(recording_count(rec, RK_RESULT), 1);
	assert_int_equal(recording_count(rec, RK_BENCH), 1);

	for (int i = 0; i < 10; i++) {
		make_sample(&want, i);
		assert_int_equal(recording_sample(rec, (size_t)i, &s), 0);
		assert_int_equal(s.seq, want.seq);
		assert_true(s.t == want.t);
		assert_true(s.dt == want.dt);
		assert_int_equal(s.missed, want.missed);
		assert_int_equal(s.realtime_ns, want.realtime_ns);
		assert_true(s.have_dirty);
		assert_int_equal(s.dirty_kb, want.dirty_kb);
		assert_int_equal(s.writeback_kb, 36868);
		assert_int_equal(s.thresh_kb, 262144);
		assert_int_equal(s.freerun_kb, 196608);
		assert_int_equal(s.zone, ZONE_THROTTLE);
		assert_true(s.psi_io_some_avg10 == 12.34);
		assert_int_equal(s.hit_event, want.hit_event);
		assert_int_equal(s.ndisks, 3);
		for (int d = 0; d < 3; d++) {
			const struct disk_rate *g = &s.disks[d], *w = &want.disks[d];
			assert_string_equal(g->name, w->name);
			assert_int_equal(g->have_rate, i > 0);
			assert_int_equal(g->nfields, w->nfields);
			assert_memory_equal(g->delta, w->delta, sizeof(g->delta));
			/* the figures derived again are the very doubles */
			assert_memory_equal(g, w, sizeof(*g));
		}
		if (i) {
			assert_true(s.disks[1].w_s == (1203 + i) / 0.5);
			assert_true(s.disks[1].wkB_s == 4812642 + 2 * i);
			assert_true(s.disks[1].w_await == 1485.0 / (1203 + i));
			assert_true(s.disks[1].util == 99.8);
			assert_true(s.disks[1].aqu_sz == 3.25);
			assert_true(s.disks[1].f_s == 24);
			assert_true(s.disks[2].r_s == 90012);
			assert_true(s.disks[2].rkB_s == 383469);
			assert_true(s.disks[2].util == 100);
			assert_true(s.disks[0].util == 0 && s.disks[0].w_s == 0);
		}
	}
	assert_int_equal(recording_find(rec, RK_SAMPLE, 2.2), 4);
	assert_int_equal(recording_find(rec, RK_SAMPLE, -1), (size_t)-1);
	assert_int_equal(recording_find(rec, RK_SAMPLE, 99), 9);

	assert_int_equal(recording_event(rec, 0, &e), 0);
	assert_int_equal(e.kind, MEV_MARK);
	assert_string_equal(e.text, "mark 1");
	assert_int_equal(recording_output(rec, 0, &l), 0);
	assert_string_equal(l.text, "a\ttab, a \\ backslash\nand a newline");
	assert_int_equal(recording_result(rec, 0, &p), 0);
	assert_string_equal(p.label, "2.6.24-rc2 (5,10)");
	assert_string_equal(p.setting, "vm.dirty_ratio=10\tx");   /* 2.2: the R record's setting, escaped */
	assert_string_equal(p.metric, "throughput");
	assert_true(p.value == 1014.2);
	assert_true(p.x == 4);
	assert_int_equal(p.flags, RP_FINAL);
	/* its own time (the model stamps it as it comes), not the sample before it */
	assert_true(recording_time(rec, RK_RESULT, 0) == 2.25);
	assert_true(p.t == 2.25);
	assert_int_equal(recording_bench(rec, 0, &b), 0);
	assert_int_equal(b.state, BENCH_RUNNING);
	assert_int_equal(b.throttled_tasks, 2);
	assert_int_equal(b.pid, 42);
	recording_close(rec);
	{
		/* on disk: the idle disk has no D record, the busy one stores its
		 * deltas with the trailing zeros left out; t and dt whole, the
		 * wall clock as its skew from start + t */
		char buf[1 << 16];
		FILE *fp = fopen(path, "r");
		size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
		fclose(fp);
		buf[n] = 0;
		/* only on the first sample, which has no rates */
		assert_non_null(strstr(buf, "\nD\tnvme0n1\t0\t0\t"));
		assert_null(strstr(strstr(buf, "\nD\tnvme0n1") + 2, "D\tnvme0n1"));
		assert_non_null(strstr(buf, "\nD\tvda\t1\t17\t0\t0\t0\t0\t1204\t311\t4812644\t1485\t3\t499\t1625\t0\t0\t0\t0\t12\t7\t"));
		assert_non_null(strstr(buf, "\nD\tsdb\t1\t11\t45006\t0\t383469\t9001\t0\t0\t0\t0\t0\t500\t"));
		assert_non_null(strstr(buf, "\nL\tnvme0n1\t0\tvda\t0\tsdb\t0\t"));
		assert_non_null(strstr(buf, "\nL\tnvme0n1\t17\tvda\t17\tsdb\t11\t"));
		assert_non_null(strstr(buf, "\nS\t2.5\t5\t0.5\t0\t1\t"));
		assert_non_null(strstr(buf, "\nS\t3\t6\t0.5\t1234\t1\t"));
	}
	sample_free(&s);
	sample_free(&want);
}

static void append(const char *path, const char *bytes, size_t n)
{
	int fd = open(path, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, n), (ssize_t)n);
	close(fd);
}

static off_t file_size(const char *path)
{
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	return st.st_size;
}

static void test_torn_tail(void **state)
{
	char path[128], err[256];
	struct recording *rec;
	off_t size;
	(void)state;

	path_of(path, sizeof(path), "torn.rec");
	write_session(path, 6, true, NULL);
	size = file_size(path);
	append(path, "S\t3.000\t6\t0.5\t17646900", 22);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_count(rec, RK_SAMPLE), 6);
	assert_non_null(strstr(recording_warning(rec), "torn last record"));
	{
		char want[64];
		snprintf(want, sizeof(want), "byte %lld", (long long)size);
		assert_non_null(strstr(recording_warning(rec), want));
	}
	recording_close(rec);
}

static void test_damaged_record(void **state)
{
	char path[128], err[256], buf[1 << 16];
	struct recording *rec;
	struct sample s = { 0 };
	int fd;
	ssize_t n;
	char *third;
	(void)state;

	path_of(path, sizeof(path), "bad.rec");
	write_session(path, 8, true, NULL);
	fd = open(path, O_RDWR);
	n = read(fd, buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = 0;
	/* damage the have_dirty of the third sample */
	third = strstr(buf, "\nS\t1\t2\t0.5\t0\t");
	assert_non_null(third);
	third++;
	assert_int_equal(pwrite(fd, "9", 1, third - buf + 12), 1);
	close(fd);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_count(rec, RK_SAMPLE), 7);
	assert_int_equal(recording_nbad(rec), 1);
	assert_int_equal(recording_first_bad_offset(rec), third - buf);
	assert_non_null(strstr(recording_warning(rec), "damaged record"));
	/* the sample after the damaged one is whole */
	assert_int_equal(recording_sample(rec, 2, &s), 0);
	assert_int_equal(s.seq, 3);
	assert_int_equal(s.ndisks, 3);
	recording_close(rec);
	sample_free(&s);
}

static void write_file(const char *path, const char *bytes, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, n), (ssize_t)n);
	close(fd);
}

static void expect_error(const char *name, const char *bytes, size_t n, const char *what)
{
	char path[128], err[256];
	struct recording *rec = (void *)1;

	path_of(path, sizeof(path), name);
	write_file(path, bytes, n);
	err[0] = 0;
	assert_true(recording_open(&rec, path, err, sizeof(err)) < 0);
	assert_null(rec);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "byte "));
	if (!strstr(err, what))
		fail_msg("error \"%s\" lacks \"%s\"", err, what);
}

/* A damaged D record of the busy disk: that sample's listed disks
 * without a D read as n/a, not as idle (0.0). */
static void test_damaged_disk_reads_na(void **state)
{
	char path[128], err[256], buf[1 << 16];
	struct recording *rec;
	struct sample s = { 0 };
	ssize_t n;
	char *d;
	int fd;
	(void)state;

	path_of(path, sizeof(path), "baddisk.rec");
	write_session(path, 8, true, NULL);
	fd = open(path, O_RDWR);
	n = read(fd, buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = 0;
	d = strstr(strstr(buf, "\nS\t2\t4\t"), "\nD\tvda\t");
	assert_non_null(d);
	assert_int_equal(pwrite(fd, "9", 1, d + 1 - buf + 10), 1);
	close(fd);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_nbad(rec), 1);
	assert_int_equal(recording_sample(rec, 4, &s), 0);
	assert_int_equal(s.ndisks, 3);
	assert_string_equal(s.disks[1].name, "vda");
	assert_false(s.disks[1].have_rate);      /* was read as idle: 0.0 */
	assert_false(s.disks[0].have_rate);      /* the idle one: unknown too */
	assert_true(s.disks[2].have_rate && s.disks[2].r_s > 0);
	assert_int_equal(recording_sample(rec, 5, &s), 0);
	assert_true(s.disks[1].have_rate && s.disks[1].w_s > 0);
	assert_true(s.disks[0].have_rate && s.disks[0].w_s == 0);
	recording_close(rec);
	sample_free(&s);
}

static void cat_files(const char *dst, const char *a, const char *b)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "cat '%s' '%s' > '%s'", a, b, dst);
	assert_int_equal(system(cmd), 0);
}

/* Two recordings joined with cat: the first is read, the reading stops
 * at the second's first line with its byte offset; time never runs back. */
static void test_joined_recordings(void **state)
{
	char a[128], b[128], path[128], err[256], want[64];
	struct recording *rec;
	double last = -1;
	off_t size;
	(void)state;

	path_of(a, sizeof(a), "joina.rec");
	path_of(b, sizeof(b), "joinb.rec");
	path_of(path, sizeof(path), "joined.rec");
	write_session(a, 8, true, NULL);
	write_session(b, 6, true, NULL);
	size = file_size(a);
	cat_files(path, a, b);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_count(rec, RK_SAMPLE), 8);
	assert_int_equal(recording_count(rec, RK_RESULT), 1);
	for (size_t i = 0; i < recording_count(rec, RK_SAMPLE); i++) {
		assert_true(recording_time(rec, RK_SAMPLE, i) >= last);
		last = recording_time(rec, RK_SAMPLE, i);
	}
	snprintf(want, sizeof(want), "byte %lld: a second recording", (long long)size);
	if (!strstr(recording_warning(rec), want))
		fail_msg("warning \"%s\" lacks \"%s\"", recording_warning(rec), want);
	recording_close(rec);
}

/* Zero bytes after a recording (a crash on a file system that left a
 * hole, or truncate -s): the reading stops there, holding none of them. */
static void test_zeros_after(void **state)
{
	char path[128], err[256], want[64];
	struct recording *rec;
	off_t size;
	int fd;
	(void)state;

	path_of(path, sizeof(path), "zeros.rec");
	write_session(path, 8, true, NULL);
	size = file_size(path);
	fd = open(path, O_RDWR);
	assert_int_equal(ftruncate(fd, size + (64 << 20)), 0);
	close(fd);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_count(rec, RK_SAMPLE), 8);
	snprintf(want, sizeof(want), "byte %lld: a line longer", (long long)size);
	if (!strstr(recording_warning(rec), want))
		fail_msg("warning \"%s\" lacks \"%s\"", recording_warning(rec), want);
	assert_non_null(strstr(recording_warning(rec), "67108864 bytes) is not read"));
	recording_close(rec);
	/* a file of zeros alone is refused at byte 0 */
	fd = open(path, O_RDWR | O_TRUNC);
	assert_int_equal(ftruncate(fd, (off_t)1 << 31), 0);
	close(fd);
	assert_true(recording_open(&rec, path, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "byte 0: not an iodash recording"));
}

static void test_foreign_and_newer(void **state)
{
	char line[128];
	size_t n;
	(void)state;

	expect_error("foreign.rec", "Throughput 116.098 MB/sec\n", 26, "not an iodash recording");
	expect_error("binary.rec", "\x7f" "ELF\x02\x01\x01\0\0\0", 10, "not an iodash recording");
	expect_error("empty.rec", "", 0, "empty file");
	expect_error("short.rec", "iodash-rec", 10, "truncated");
	expect_error("torn-first.rec", "iodash-recording\t1\t0", 20, "truncated");
	n = (size_t)snprintf(line, sizeof(line), "iodash-recording\t3\t0");
	n += (size_t)snprintf(line + n, sizeof(line) - n, "\t%08x\n", rec_crc32(line, n));
	expect_error("newer.rec", line, n, "recording format 3 is newer than this iodash reads (2)");
	/* a damaged header: a C line's checksum fails (it says how to read
	 * the samples: nothing can be trusted without it) */
	n = (size_t)snprintf(line, sizeof(line), "iodash-recording\t1\t0");
	n += (size_t)snprintf(line + n, sizeof(line) - n, "\t%08x\n", rec_crc32(line, n));
	n += (size_t)snprintf(line + n, sizeof(line) - n, "C\tS\tt\tseq\t00000000\n");
	expect_error("badhdr.rec", line, n, "byte 30: damaged header");
}

/* Bytes of a file (NUL-terminated), and the offset of the first data
 * record (the first L line). */
static size_t slurp(const char *path, char *buf, size_t cap, size_t *data_at)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, cap - 1);
	close(fd);
	assert_true(n > 0);
	buf[n] = 0;
	if (data_at) {
		char *l = strstr(buf, "\nL\t");
		assert_non_null(l);
		*data_at = (size_t)(l + 1 - buf);
	}
	return (size_t)n;
}

/* A header-only or torn-in-header file: refused with one line, as
 * docs/recording.md says, not an empty replay that exits 0. */
static void test_header_only(void **state)
{
	char path[128], buf[1 << 16];
	size_t n, data_at;
	char *c;
	(void)state;

	path_of(path, sizeof(path), "full.rec");
	write_session(path, 4, true, NULL);
	n = slurp(path, buf, sizeof(buf), &data_at);
	assert_true(n > data_at);
	expect_error("hdronly.rec", buf, data_at, "the file ends after its header");
	c = strstr(buf, "\nC\tE\t");
	assert_non_null(c);
	expect_error("torn-hdr.rec", buf, (size_t)(c - buf) + 6, "truncated: the file ends inside its header");
}

/* One flipped byte in the header's kernel line costs the kernel's name,
 * not the samples. */
static void test_header_damage(void **state)
{
	char path[128], err[256], buf[1 << 16];
	struct recording *rec;
	struct sample s = { 0 };
	char *k;
	int fd;
	(void)state;

	path_of(path, sizeof(path), "kernel-flip.rec");
	write_session(path, 8, true, NULL);
	slurp(path, buf, sizeof(buf), NULL);
	k = strstr(buf, "\nH\tkernel\t6.18");
	assert_non_null(k);
	fd = open(path, O_WRONLY);
	assert_int_equal(pwrite(fd, "7", 1, k - buf + 10), 1);   /* 6.18 -> 7.18 */
	close(fd);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_count(rec, RK_SAMPLE), 8);
	assert_int_equal(recording_sample(rec, 7, &s), 0);
	assert_int_equal(s.seq, 7);
	assert_int_equal(s.ndisks, 3);
	assert_string_equal(recording_header(rec)->host, "testbox");
	assert_string_equal(recording_header(rec)->kernel, "");
	assert_int_equal(recording_nbad(rec), 1);
	assert_non_null(strstr(recording_warning(rec), "header line"));
	assert_true(s.realtime_ns > 1764690000000000000LL);
	recording_close(rec);

	/* the wall clock's base damaged: the wall clock is unknown, not 1970 */
	k = strstr(buf, "\nH\tstart_realtime_ns\t");
	assert_non_null(k);
	fd = open(path, O_WRONLY);
	assert_int_equal(pwrite(fd, "9", 1, k - buf + 21), 1);
	close(fd);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_nbad(rec), 2);
	assert_int_equal(recording_sample(rec, 7, &s), 0);
	assert_int_equal(s.seq, 7);
	assert_int_equal(s.realtime_ns, 0);
	recording_close(rec);
	sample_free(&s);
}

/* A followed file truncated or rewritten under the reader: an error of
 * refresh, never a fault, and what was read stays readable. */
static void test_follow_shrink(void **state)
{
	char path[128], err[256];
	struct recording *rec;
	struct recorder *r;
	struct sample s = { 0 };
	struct model_observer obs;
	size_t n;
	(void)state;

	path_of(path, sizeof(path), "shrink.rec");
	write_session(path, 400, true, NULL);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	n = recording_count(rec, RK_SAMPLE);
	assert_int_equal(n, 400);
	assert_int_equal(truncate(path, 100), 0);
	/* the pages of the samples are gone from the file: still readable */
	assert_int_equal(recording_sample(rec, n - 1, &s), 0);
	assert_int_equal(s.seq, n - 1);
	assert_int_equal(recording_refresh(rec, err, sizeof(err)), -ESTALE);
	assert_non_null(strstr(err, "byte 100: the file shrank"));
	assert_int_equal(recording_sample(rec, n - 2, &s), 0);
	recording_close(rec);

	/* rewritten by another session, as long or longer: the start changed */
	assert_int_equal(unlink(path), 0);
	write_session(path, 4, true, NULL);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	{
		struct rec_meta meta = { .host = "otherbox", .kernel = "k", .command = "", .label = "",
					 .source = "", .interval = 0.5 };
		assert_int_equal(recorder_open(&r, path, REC_FORCE, &meta, err, sizeof(err)), 0);
		obs = recorder_observer(r);
		for (int i = 0; i < 40; i++) {
			make_sample(&s, i);
			obs.on_sample(obs.ctx, &s);
		}
		recorder_close(r);
	}
	assert_int_equal(recording_refresh(rec, err, sizeof(err)), -ESTALE);
	assert_non_null(strstr(err, "rewritten"));
	recording_close(rec);
	sample_free(&s);
}

/* A record line with its checksum, as a later version would write it. */
static size_t put_rec(char *buf, size_t cap, const char *body)
{
	size_t n = (size_t)snprintf(buf, cap, "%s", body);
	return n + (size_t)snprintf(buf + n, cap - n, "\t%08x\n", rec_crc32(buf, n));
}

static void test_newer_minor(void **state)
{
	char path[128], err[256], buf[4096];
	size_t n = 0;
	struct recording *rec;
	struct sample s = { 0 };
	(void)state;

	/* v1.7: columns moved and added, a new record type: all skipped or mapped */
	n += put_rec(buf + n, sizeof(buf) - n, "iodash-recording\t1\t7");
	n += put_rec(buf + n, sizeof(buf) - n, "H\thost\tfuturebox");
	n += put_rec(buf + n, sizeof(buf) - n, "H\tnew_key\twhatever");
	n += put_rec(buf + n, sizeof(buf) - n, "C\tS\tt\tgpu_temp\tdirty_kb\tseq\tzone");
	n += put_rec(buf + n, sizeof(buf) - n, "C\tQ\tt\tfoo");
	n += put_rec(buf + n, sizeof(buf) - n, "S\t0.500\t71\t4242\t1\tbg_flush");
	n += put_rec(buf + n, sizeof(buf) - n, "Q\t0.500\tbar");
	n += put_rec(buf + n, sizeof(buf) - n, "S\t1.000\t72\t4343\t2\tsomething_new");
	path_of(path, sizeof(path), "minor.rec");
	write_file(path, buf, n);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_header(rec)->minor, 7);
	assert_string_equal(recording_header(rec)->host, "futurebox");
	assert_int_equal(recording_count(rec, RK_SAMPLE), 2);
	assert_int_equal(recording_sample(rec, 0, &s), 0);
	assert_true(s.t == 0.5);
	assert_int_equal(s.dirty_kb, 4242);
	assert_int_equal(s.seq, 1);
	assert_int_equal(s.zone, ZONE_BG_FLUSH);
	assert_int_equal(recording_sample(rec, 1, &s), 0);
	assert_int_equal(s.zone, ZONE_UNKNOWN);
	assert_non_null(strstr(recording_warning(rec), "newer format"));
	recording_close(rec);
	sample_free(&s);
}

static size_t count_lines(const char *buf, const char *prefix)
{
	size_t n = 0, l = strlen(prefix);

	for (const char *p = buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += !strncmp(p, prefix, l);
	return n;
}

/* The L record: repeated every REC_DISKS_EVERY samples; a damaged one
 * costs the idle disks (never a wrong name) until the next. */
static void test_disk_list(void **state)
{
	char path[128], err[256];
	static char buf[1 << 20];
	struct recording *rec;
	struct sample s = { 0 };
	size_t n;
	char *l2;
	FILE *fp;
	int fd;
	(void)state;

	path_of(path, sizeof(path), "list.rec");
	write_session(path, 250, true, NULL);
	fp = fopen(path, "r");
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = 0;
	/* sample 0 (no nfields yet), 1, then 121 and 241 */
	assert_int_equal(count_lines(buf, "L\t"), 4);
	assert_int_equal(count_lines(buf, "D\tnvme0n1"), 1);
	assert_int_equal(count_lines(buf, "S\t"), 250);
	/* damage the L in front of sample 1 */
	l2 = strstr(strstr(buf, "\nL\t") + 1, "\nL\t") + 1;
	assert_true(strstr(buf, "\nS\t0.5\t1\t") - l2 < 64);
	fd = open(path, O_RDWR);
	assert_int_equal(pwrite(fd, "x", 1, l2 - buf + 2), 1);
	close(fd);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_nbad(rec), 1);
	assert_int_equal(recording_count(rec, RK_SAMPLE), 250);
	assert_int_equal(recording_sample(rec, 0, &s), 0);
	assert_int_equal(s.ndisks, 3);   /* its own L is whole */
	for (size_t i = 1; i <= 120; i++) {
		assert_int_equal(recording_sample(rec, i, &s), 0);
		assert_int_equal(s.ndisks, 2);   /* the D records as they come */
		assert_string_equal(s.disks[0].name, "vda");
		assert_string_equal(s.disks[1].name, "sdb");
		assert_true(s.disks[1].rkB_s == 383469);
	}
	assert_int_equal(recording_sample(rec, 121, &s), 0);
	assert_int_equal(s.ndisks, 3);
	assert_string_equal(s.disks[0].name, "nvme0n1");
	assert_true(s.disks[0].have_rate);
	assert_int_equal(s.disks[0].nfields, 17);
	recording_close(rec);
	sample_free(&s);
}

/* An L that disagrees with the S's ndisks or with the D names is not used. */
static void test_disk_list_mismatch(void **state)
{
	char path[128], err[256], buf[4096];
	size_t n = 0;
	struct recording *rec;
	struct sample s = { 0 };
	(void)state;

	n += put_rec(buf + n, sizeof(buf) - n, "iodash-recording\t2\t0");
	n += put_rec(buf + n, sizeof(buf) - n, "C\tS\tt\tseq\tdt\tndisks");
	n += put_rec(buf + n, sizeof(buf) - n, "C\tD\tdisk\thave_rate\tnfields\treads\treads_merged\tsectors_read");
	n += put_rec(buf + n, sizeof(buf) - n, "L\tsda\t17\tsdb\t17");
	n += put_rec(buf + n, sizeof(buf) - n, "S\t0.5\t1\t0.5\t2");
	n += put_rec(buf + n, sizeof(buf) - n, "D\tsdb\t1\t17\t100\t0\t2000");
	n += put_rec(buf + n, sizeof(buf) - n, "S\t1\t2\t0.5\t3");          /* ndisks 3 */
	n += put_rec(buf + n, sizeof(buf) - n, "D\tsdb\t1\t17\t100");
	n += put_rec(buf + n, sizeof(buf) - n, "S\t1.5\t3\t0.5\t2");
	n += put_rec(buf + n, sizeof(buf) - n, "D\tsdc\t1\t17\t100");       /* not in L */
	n += put_rec(buf + n, sizeof(buf) - n, "L\tsda\t17\tsda\t17\tsda"); /* odd: no writer's */
	n += put_rec(buf + n, sizeof(buf) - n, "S\t2\t4\t0.5\t2");
	path_of(path, sizeof(path), "mismatch.rec");
	write_file(path, buf, n);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_sample(rec, 0, &s), 0);
	assert_int_equal(s.ndisks, 2);
	assert_string_equal(s.disks[0].name, "sda");
	assert_true(s.disks[0].have_rate && s.disks[0].r_s == 0);
	assert_string_equal(s.disks[1].name, "sdb");
	assert_true(s.disks[1].r_s == 200 && s.disks[1].rkB_s == 2000);
	assert_int_equal(recording_sample(rec, 1, &s), 0);
	assert_int_equal(s.ndisks, 1);
	assert_string_equal(s.disks[0].name, "sdb");
	assert_int_equal(recording_sample(rec, 2, &s), 0);
	assert_int_equal(s.ndisks, 1);
	assert_string_equal(s.disks[0].name, "sdc");
	assert_int_equal(recording_sample(rec, 3, &s), 0);
	assert_int_equal(s.ndisks, 0);
	recording_close(rec);
	sample_free(&s);
}

/* Format 1 (derived figures in D, realtime_ns in S) still reads. */
static void test_format1(void **state)
{
	char path[128], err[256], buf[4096];
	size_t n = 0;
	struct recording *rec;
	struct sample s = { 0 };
	(void)state;

	n += put_rec(buf + n, sizeof(buf) - n, "iodash-recording\t1\t0");
	n += put_rec(buf + n, sizeof(buf) - n, "H\thost\toldbox");
	n += put_rec(buf + n, sizeof(buf) - n, "C\tS\tt\tseq\tdt\trealtime_ns\thave_dirty\tdirty_kb\tndisks");
	n += put_rec(buf + n, sizeof(buf) - n, "C\tD\tt\tdisk\thave_rate\tr_s\tw_s\trkB_s\twkB_s\tr_await\tw_await\taqu_sz\tutil\td_s\tdkB_s\tf_s");
	n += put_rec(buf + n, sizeof(buf) - n, "S\t0.500\t1\t0.500\t1764690000123456789\t1\t4242\t2");
	n += put_rec(buf + n, sizeof(buf) - n, "D\t0.500\tvda\t1\t0\t2406\t0\t2406321.75\t0\t1.234567\t3.25\t99.9\t0\t0\t24");
	n += put_rec(buf + n, sizeof(buf) - n, "D\t0.500\tsdb\t1\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0");
	path_of(path, sizeof(path), "v1.rec");
	write_file(path, buf, n);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_header(rec)->major, 1);
	assert_string_equal(recording_warning(rec), "");
	assert_int_equal(recording_sample(rec, 0, &s), 0);
	assert_true(s.t == 0.5 && s.dt == 0.5);
	assert_int_equal(s.realtime_ns, 1764690000123456789LL);
	assert_int_equal(s.dirty_kb, 4242);
	assert_int_equal(s.ndisks, 2);
	assert_string_equal(s.disks[0].name, "vda");
	assert_true(s.disks[0].have_rate);
	assert_true(s.disks[0].wkB_s == 2406321.75);
	assert_true(s.disks[0].w_await == 1.234567);
	assert_true(s.disks[0].util == 99.9);
	assert_true(s.disks[0].f_s == 24);
	/* what format 1 stored is known; what it never stored is n/a */
	assert_true(disk_rate_figure(&s.disks[0], DF_WKB_S) == 2406321.75);
	assert_true(disk_rate_figure(&s.disks[0], DF_F_S) == 24);
	assert_true(isnan(disk_rate_figure(&s.disks[0], DF_RRQM_S)));
	assert_string_equal(s.disks[1].name, "sdb");
	recording_close(rec);
	sample_free(&s);
}

/* A recording written before resets were detected holds a re-created
 * device's fall as a 64-bit wrap (deltas near 2^64): read as n/a, as
 * live, never as 5e17 r/s.  The disk next to it reads normally. */
static void test_stored_reset_reads_na(void **state)
{
	char path[128], err[256], buf[4096];
	size_t n = 0;
	struct recording *rec;
	struct sample s = { 0 };
	(void)state;

	n += put_rec(buf + n, sizeof(buf) - n, "iodash-recording\t2\t0");
	n += put_rec(buf + n, sizeof(buf) - n, "H\thost\tbox");
	n += put_rec(buf + n, sizeof(buf) - n, "C\tS\tt\tseq\tdt\thave_dirty\tndisks");
	n += put_rec(buf + n, sizeof(buf) - n, "C\tD\tdisk\thave_rate\tnfields\treads\treads_merged"
		     "\tsectors_read\tms_reading\twrites\twrites_merged\tsectors_written\tms_writing"
		     "\tios_in_progress\tms_io\tweighted_ms_io");
	n += put_rec(buf + n, sizeof(buf) - n, "S\t1\t1\t1\t0\t2");
	/* sdb: 900000 -> 10 reads etc., every count stored as 2^64 - fall */
	n += put_rec(buf + n, sizeof(buf) - n, "D\tsdb\t1\t11\t18446744073708651626\t18446744073709550616"
		     "\t18446744073702351696\t4294517306\t18446744073708751636\t18446744073709549616"
		     "\t18446744073703151776\t4294067306\t0\t4293767311\t4293167316");
	n += put_rec(buf + n, sizeof(buf) - n, "D\tvda\t1\t11\t100\t0\t800\t50");
	path_of(path, sizeof(path), "oldreset.rec");
	write_file(path, buf, n);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_sample(rec, 0, &s), 0);
	assert_int_equal(s.ndisks, 2);
	assert_string_equal(s.disks[0].name, "sdb");
	assert_false(s.disks[0].have_rate);
	assert_true(s.disks[0].reset);
	assert_true(isnan(disk_rate_figure(&s.disks[0], DF_R_S)));
	assert_true(isnan(disk_rate_figure(&s.disks[0], DF_UTIL)));
	assert_string_equal(s.disks[1].name, "vda");
	assert_true(s.disks[1].have_rate);
	assert_true(s.disks[1].r_s == 100);
	assert_true(s.disks[1].r_await == 0.5);
	recording_close(rec);
	sample_free(&s);
}

/* compare's throughput of a run sums the whole disks only: a partition
 * listed with -p is already counted in its disk. */
static void test_compare_tput_skips_partitions(void **state)
{
	char path[128], err[256], buf[4096];
	char *paths[1] = { path };
	struct compare_data cd;
	size_t n = 0;
	(void)state;

	n += put_rec(buf + n, sizeof(buf) - n, "iodash-recording\t2\t0");
	n += put_rec(buf + n, sizeof(buf) - n, "H\thost\tbox");
	n += put_rec(buf + n, sizeof(buf) - n, "C\tS\tt\tseq\tdt\thave_dirty\tndisks");
	n += put_rec(buf + n, sizeof(buf) - n, "C\tD\tdisk\thave_rate\tnfields\treads\treads_merged"
		     "\tsectors_read\tms_reading\twrites\twrites_merged\tsectors_written");
	n += put_rec(buf + n, sizeof(buf) - n, "C\tR\tt\tlabel\trun\tx_name\tx\tmetric\tvalue\tunit\tflags");
	n += put_rec(buf + n, sizeof(buf) - n, "S\t1\t1\t1\t0\t2");
	/* sda: 1000 kB read, 500 kB written; sda1 holds all of it */
	n += put_rec(buf + n, sizeof(buf) - n, "D\tsda\t1\t17\t10\t0\t2000\t0\t5\t0\t1000");
	n += put_rec(buf + n, sizeof(buf) - n, "D\tsda1\t1\t17\t10\t0\t2000\t0\t5\t0\t1000");
	n += put_rec(buf + n, sizeof(buf) - n, "R\t1\tk\t1\tclients\t1\tthroughput\t5\tMB/s\t1");
	path_of(path, sizeof(path), "parts.rec");
	write_file(path, buf, n);
	assert_int_equal(compare_load(&cd, paths, 1, NULL, NULL, NULL, err, sizeof(err), NULL), 0);
	assert_true(cd.nruns >= 1 && cd.runs[0].n >= 1);
	assert_true(cd.runs[0].tput_kBps[0] == 1500);
	compare_free(&cd);
}

/* B records repeat their texts as "\=": read back whole; after a damaged
 * B record they read empty (never another run's command) until written
 * out again. */
static void test_bench_texts(void **state)
{
	char path[128], err[256];
	static char buf[1 << 20];
	struct rec_meta meta = { .host = "h", .kernel = "k", .command = "", .label = "",
				 .source = "live /proc", .interval = 0.5 };
	struct bench_status b = { .state = BENCH_RUNNING, .pid = 42, .last_exit_status = -1,
				  .eta_s = -1, .label = "ext4 (data=ordered)", .command = "dbench -t 60 4" };
	struct recorder *r;
	struct recording *rec;
	struct model_observer obs;
	struct bench_status g;
	size_t n;
	FILE *fp;
	char *lit;
	int fd;
	(void)state;

	path_of(path, sizeof(path), "btext.rec");
	assert_int_equal(recorder_open(&r, path, 0, &meta, err, sizeof(err)), 0);
	obs = recorder_observer(r);
	for (int i = 0; i < 130; i++) {
		b.throttled_tasks = i % 3;
		b.write_Bps = 1234567.0 * i / 0.5003;
		if (i == 5)
			snprintf(b.command, sizeof(b.command), "dbench -t 60 8");
		obs.on_bench(obs.ctx, &b);
	}
	recorder_close(r);
	fp = fopen(path, "r");
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = 0;
	/* literal at 0, 5 (new command) and 125 (every 120) */
	assert_int_equal(count_lines(buf, "B\t"), 130);
	assert_non_null(strstr(buf, "\t\\=\t\\=\t"));
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	for (size_t i = 0; i < 130; i++) {
		assert_int_equal(recording_bench(rec, i, &g), 0);
		assert_string_equal(g.label, "ext4 (data=ordered)");
		assert_string_equal(g.command, i < 5 ? "dbench -t 60 4" : "dbench -t 60 8");
		assert_int_equal(g.throttled_tasks, (int)i % 3);
		assert_true(g.write_Bps == 1234567.0 * (double)i / 0.5003);
	}
	recording_close(rec);
	/* damage the literal B record of the new command */
	lit = strstr(buf, "dbench -t 60 8");
	fd = open(path, O_RDWR);
	assert_int_equal(pwrite(fd, "9", 1, lit - buf + 13), 1);
	close(fd);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_nbad(rec), 1);
	assert_int_equal(recording_count(rec, RK_BENCH), 129);
	assert_int_equal(recording_bench(rec, 4, &g), 0);
	assert_string_equal(g.command, "dbench -t 60 4");
	for (size_t i = 5; i < 124; i++) {
		assert_int_equal(recording_bench(rec, i, &g), 0);
		assert_string_equal(g.command, "");
		assert_string_equal(g.label, "");
	}
	assert_int_equal(recording_bench(rec, 124, &g), 0);
	assert_string_equal(g.command, "dbench -t 60 8");
	recording_close(rec);
}

static void test_follow(void **state)
{
	char path[128], err[256];
	struct recording *rec;
	struct recorder *r;
	struct model_observer obs;
	struct sample s = { 0 };
	(void)state;

	path_of(path, sizeof(path), "follow.rec");
	write_session(path, 4, false, &r);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_count(rec, RK_SAMPLE), 4);
	obs = recorder_observer(r);
	for (int i = 4; i < 9; i++) {
		make_sample(&s, i);
		obs.on_sample(obs.ctx, &s);
	}
	assert_int_equal(recording_refresh(rec, err, sizeof(err)), 0);  /* not flushed yet */
	assert_int_equal(recorder_flush(r), 0);
	assert_int_equal(recording_refresh(rec, err, sizeof(err)), 5);
	assert_int_equal(recording_count(rec, RK_SAMPLE), 9);
	assert_int_equal(recording_sample(rec, 8, &s), 0);
	assert_int_equal(s.seq, 8);
	assert_true(recorder_bytes(r) == (uint64_t)file_size(path));
	/* still being written: no end; closed: the end record, and nothing
	 * else new (the reader follows it as a record of its own) */
	assert_false(recording_ended(rec));
	recorder_close(r);
	assert_int_equal(recording_refresh(rec, err, sizeof(err)), 0);
	assert_true(recording_ended(rec));
	assert_int_equal(recording_count(rec, RK_SAMPLE), 9);
	assert_string_equal(recording_warning(rec), "");
	recording_close(rec);
	sample_free(&s);
}

/* A recording session killed with SIGKILL: the file loads, with all but
 * at most the last flush interval. */
static void test_kill9(void **state)
{
	char path[128], err[256];
	struct recording *rec;
	pid_t pid;
	int status;
	struct sample s = { 0 };
	size_t n;
	(void)state;

	path_of(path, sizeof(path), "kill9.rec");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct recorder *r;
		struct model_observer obs;
		struct rec_meta meta = { .host = "h", .kernel = "k", .command = "", .label = "",
					 .source = "live /proc", .interval = 0.001 };
		if (recorder_open(&r, path, 0, &meta, err, sizeof(err)))
			_exit(3);
		obs = recorder_observer(r);
		for (int i = 0;; i++) {
			make_sample(&s, i);
			obs.on_sample(obs.ctx, &s);
			if (i % 50 == 49)
				recorder_flush(r);
			usleep(200);
		}
	}
	usleep(300000);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	n = recording_count(rec, RK_SAMPLE);
	assert_true(n >= 50);
	assert_int_equal(recording_sample(rec, n - 1, &s), 0);
	assert_int_equal(s.seq, n - 1);
	assert_int_equal(s.ndisks, 3);
	assert_string_equal(s.disks[0].name, "nvme0n1");
	assert_int_equal(recording_nbad(rec), 0);
	recording_close(rec);
	sample_free(&s);
}

static void test_write_error(void **state)
{
	char err[256];
	struct recorder *r;
	struct rec_meta meta = { .host = "h", .kernel = "k", .command = "", .label = "",
				 .source = "", .interval = 0.5 };
	(void)state;

	assert_true(recorder_open(&r, "/nonexistent-dir/x.rec", 0, &meta, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "/nonexistent-dir/x.rec"));
	/* a full disk at the start: the session goes on unrecorded, and says so */
	if (access("/dev/full", W_OK) == 0) {
		assert_int_equal(recorder_open(&r, "/dev/full", REC_FORCE, &meta, err, sizeof(err)), 0);
		assert_non_null(strstr(recorder_error(r), "/dev/full: cannot write the recording: No space left"));
		assert_int_equal(recorder_flush(r), -ENOSPC);
		recorder_close(r);
	}
}

/* A header line longer than the reader takes (2,100 control bytes, 4
 * each as written) is refused before anything is written: the file would
 * read as "damaged header". */
static void test_header_too_long(void **state)
{
	char err[512], path[] = "/tmp/iodash-test-hdr-XXXXXX";
	char cmd[2101];
	struct recorder *r = NULL;
	struct rec_meta meta = { .host = "h", .kernel = "k", .command = cmd, .label = "",
				 .source = "", .interval = 0.5 };
	(void)state;

	memset(cmd, 1, sizeof(cmd) - 1);
	cmd[sizeof(cmd) - 1] = '\0';
	assert_non_null(mkdtemp(path));
	char rec[sizeof(path) + 8];
	snprintf(rec, sizeof(rec), "%s/x.rec", path);
	assert_int_equal(recorder_open(&r, rec, 0, &meta, err, sizeof(err)), -E2BIG);
	assert_non_null(strstr(err, "command would be 84"));
	assert_int_equal(access(rec, F_OK), -1);
	rmdir(path);
}

/* An existing file is never overwritten without REC_FORCE; a default
 * name that is taken gets a suffix. */
static void test_no_overwrite(void **state)
{
	char path[128], p2[160], p3[160], err[256];
	struct recorder *r;
	struct rec_meta meta = { .host = "h", .kernel = "k", .command = "", .label = "",
				 .source = "", .interval = 0.5 };
	off_t size;
	(void)state;

	path_of(path, sizeof(path), "iodash-h-20261202-154031.rec");
	write_session(path, 4, true, NULL);
	size = file_size(path);
	assert_int_equal(recorder_open(&r, path, 0, &meta, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "--force"));
	assert_int_equal(file_size(path), size);
	assert_int_equal(recorder_open(&r, path, REC_UNIQUE, &meta, err, sizeof(err)), 0);
	snprintf(p2, sizeof(p2), "%s/iodash-h-20261202-154031-2.rec", tmpdir);
	assert_string_equal(recorder_path(r), p2);
	recorder_close(r);
	assert_int_equal(recorder_open(&r, path, REC_UNIQUE, &meta, err, sizeof(err)), 0);
	snprintf(p3, sizeof(p3), "%s/iodash-h-20261202-154031-3.rec", tmpdir);
	assert_string_equal(recorder_path(r), p3);
	/* a session that never started leaves no file */
	recorder_discard(r);
	assert_int_equal(access(p3, F_OK), -1);
	assert_int_equal(file_size(path), size);
	assert_true(file_size(p2) > 0);
}

/* A file another recorder writes is refused even with REC_FORCE. */
static void test_lock(void **state)
{
	char path[128], err[256];
	struct recorder *r1, *r2;
	struct recording *rec;
	struct rec_meta meta = { .host = "h", .kernel = "k", .command = "", .label = "",
				 .source = "", .interval = 0.5 };
	off_t size;
	(void)state;

	path_of(path, sizeof(path), "locked.rec");
	write_session(path, 6, false, &r1);
	size = file_size(path);
	assert_int_equal(recorder_open(&r2, path, REC_FORCE, &meta, err, sizeof(err)), -EWOULDBLOCK);
	assert_non_null(strstr(err, "another iodash is recording to this file"));
	assert_int_equal(file_size(path), size);
	recorder_close(r1);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_count(rec, RK_SAMPLE), 6);
	recording_close(rec);
	/* once it is closed, --force replaces it */
	assert_int_equal(recorder_open(&r2, path, REC_FORCE, &meta, err, sizeof(err)), 0);
	assert_true(file_size(path) < size);
	recorder_close(r2);
}

static void test_default_path(void **state)
{
	char buf[128];
	struct tm tm = { .tm_year = 126, .tm_mon = 11, .tm_mday = 2, .tm_hour = 15,
			 .tm_min = 40, .tm_sec = 31, .tm_isdst = -1 };
	(void)state;

	assert_int_equal(recording_default_path(buf, sizeof(buf), "vm", mktime(&tm)), 0);
	assert_string_equal(buf, "iodash-vm-20261202-154031.rec");
	assert_int_equal(recording_default_path(buf, sizeof(buf), "a/b", mktime(&tm)), 0);
	assert_string_equal(buf, "iodash-a_b-20261202-154031.rec");
	/* a UTS namespace's host name: one file in the current directory */
	assert_int_equal(recording_default_path(buf, sizeof(buf), "a/../../x", mktime(&tm)), 0);
	assert_null(strchr(buf, '/'));
	assert_int_equal(recording_default_path(buf, sizeof(buf), "b\\x\x7f*?", mktime(&tm)), 0);
	assert_string_equal(buf, "iodash-b_x___-20261202-154031.rec");
	assert_int_equal(recording_default_path(buf, 10, "vm", mktime(&tm)), -ENAMETOOLONG);
}

/* 1,024 devices a sample, past the 16 that format 2.2's writer kept: every
 * one written and read back, busy and idle ones in their places, each
 * with its own figures; the file says 2.3. */
static void test_many_disks(void **state)
{
	char path[128], err[256];
	struct snapshot first = { 0 };
	struct rec_meta meta = { .host = "jbod", .kernel = "6.18", .first = &first, .interval = 1 };
	struct recorder *r;
	struct model_observer obs;
	struct recording *rec;
	struct sample s = { 0 }, got = { 0 };
	enum { N = 1024 };
	(void)state;

	path_of(path, sizeof(path), "many.rec");
	assert_int_equal(recorder_open(&r, path, 0, &meta, err, sizeof(err)), 0);
	obs = recorder_observer(r);
	for (int i = 0; i < 3; i++) {
		sample_reset(&s);
		s.seq = (uint64_t)i;
		s.t = i;
		s.dt = i ? 1 : 0;
		for (int d = 0; d < N; d++) {
			struct disk_rate *dr = sample_add_disk(&s);
			assert_non_null(dr);
			snprintf(dr->name, sizeof(dr->name), "disk%d", d);
			if (!i)
				continue;
			dr->nfields = 17;
			if (d % 3)   /* every third idle: only the L record names it */
				dr->delta[DS_WRITES] = (uint64_t)(d + 1) * (uint64_t)i;
			dr->delta[DS_MS_IO] = (uint64_t)(d % 1000);
			derive_disk_rates(dr->delta, dr->nfields, s.dt, dr);
		}
		obs.on_sample(obs.ctx, &s);
	}
	recorder_close(r);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_header(rec)->major, 2);
	assert_int_equal(recording_header(rec)->minor, 3);
	assert_int_equal(recording_count(rec, RK_SAMPLE), 3);
	assert_int_equal(recording_sample(rec, 2, &got), 0);
	assert_int_equal(got.ndisks, N);
	for (int d = 0; d < N; d++) {
		char want[32];
		snprintf(want, sizeof(want), "disk%d", d);
		assert_string_equal(got.disks[d].name, want);
		assert_true(got.disks[d].have_rate);
		assert_true(got.disks[d].w_s == (d % 3 ? (d + 1) * 2.0 : 0));
		assert_true(got.disks[d].util == (d % 1000) / 10.0);
	}
	recording_close(rec);
	sample_free(&s);
	sample_free(&got);
}

/* A recording of format 2.2 (tests/fixtures/recordings): its writer kept
 * 16 of the trace's 20 disks; read as it was, names and figures. */
static void test_format_22_disks(void **state)
{
	char err[256];
	struct recording *rec;
	struct sample s = { 0 };
	(void)state;

	assert_int_equal(recording_open(&rec, "tests/fixtures/recordings/disks20-format-2.2.rec", err, sizeof(err)), 0);
	assert_int_equal(recording_header(rec)->minor, 2);
	assert_int_equal(recording_count(rec, RK_SAMPLE), 6);
	assert_int_equal(recording_sample(rec, 5, &s), 0);
	assert_int_equal(s.ndisks, 16);
	assert_string_equal(s.disks[0].name, "sda");
	assert_string_equal(s.disks[15].name, "sdp");
	/* bench/gen_disks.sh: disk k writes (k % 13 + 1) * 10 a second of the
	 * trace, sampled 0.5 s apart; busy ((k * 37) % 97 + 1) % */
	for (int k = 0; k < 16; k++) {
		assert_true(s.disks[k].have_rate);
		assert_float_equal(s.disks[k].w_s, (k % 13 + 1) * 10.0, 1e-9);
		assert_float_equal(s.disks[k].util, (double)((k * 37) % 97 + 1), 1e-9);
		assert_false(s.disks[k].is_partition);
	}
	recording_close(rec);
	sample_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc),
		cmocka_unit_test(test_many_disks),
		cmocka_unit_test(test_format_22_disks),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_torn_tail),
		cmocka_unit_test(test_damaged_record),
		cmocka_unit_test(test_damaged_disk_reads_na),
		cmocka_unit_test(test_joined_recordings),
		cmocka_unit_test(test_zeros_after),
		cmocka_unit_test(test_foreign_and_newer),
		cmocka_unit_test(test_header_only),
		cmocka_unit_test(test_header_damage),
		cmocka_unit_test(test_follow_shrink),
		cmocka_unit_test(test_newer_minor),
		cmocka_unit_test(test_disk_list),
		cmocka_unit_test(test_disk_list_mismatch),
		cmocka_unit_test(test_format1),
		cmocka_unit_test(test_stored_reset_reads_na),
		cmocka_unit_test(test_compare_tput_skips_partitions),
		cmocka_unit_test(test_bench_texts),
		cmocka_unit_test(test_follow),
		cmocka_unit_test(test_kill9),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_no_overwrite),
		cmocka_unit_test(test_header_too_long),
		cmocka_unit_test(test_lock),
	};
	return cmocka_run_group_tests(tests, setup, getenv("KEEP") ? NULL : teardown);
}
