/* derive: the maths on synthetic snapshots, then on recorded traces
 * (tests/fixtures/proc-traces), checked against the kernel's own figures
 * in the traces' summary.tsv. */
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
#include "iodash/sample/derive.h"
#include "iodash/probe/probe.h"
#include "iodash/sample/disk_filter.h"

#define TRACES "tests/fixtures/proc-traces/"

static void test_counter_delta_wraps_at_kernel_width(void **st)
{
	(void)st;
	uint64_t d = 0;

	assert_true(counter_delta(10, 25, 64, &d));
	assert_int_equal(d, 15);
	/* a 32-bit ms field that wrapped: 0xfffffff0 -> 0x10 is 0x20 ms */
	assert_true(counter_delta(0xfffffff0u, 0x10, 32, &d));
	assert_int_equal(d, 0x20);
	/* a 64-bit counter that wrapped at its width */
	assert_true(counter_delta(UINT64_MAX - 4, 5, 64, &d));
	assert_true(d == 10);
	/* a 64-bit count that fell is no wrap: the device was re-created.
	 * (It used to read as a delta of 2^64 - 990: 5e17 r/s.) */
	d = 77;
	assert_false(counter_delta(1000, 10, 64, &d));
	assert_int_equal(d, 77);   /* left alone */
	/* a 32-bit time that fell from low values: a reset, not a wrap */
	assert_false(counter_delta(5000, 100, 32, &d));
	/* 2^31 below is the line: a wrap moves less than half the range */
	assert_true(counter_delta(0x80000001u, 0, 32, &d));
	assert_int_equal(d, 0x7fffffffu);
	assert_false(counter_delta(0x80000000u, 0, 32, &d));
}

static void test_zone_boundaries(void **st)
{
	(void)st;
	/* thresholds of the fixtures' byte limits: 65536 / 32768 pages */
	assert_int_equal(dirty_freerun(65536, 32768), 49152);
	assert_int_equal(dirty_zone_of(100, 0, 32768, 65536), ZONE_BELOW_BG);
	assert_int_equal(dirty_zone_of(32768, 0, 32768, 65536), ZONE_BELOW_BG);
	assert_int_equal(dirty_zone_of(32769, 0, 32768, 65536), ZONE_BG_FLUSH);
	/* freerun is "no pause while <= freerun": exactly at it is not throttled */
	assert_int_equal(dirty_zone_of(33000, 16152, 32768, 65536), ZONE_BG_FLUSH);
	/* the level counts writeback, the background test only dirty */
	assert_int_equal(dirty_zone_of(31233, 17919, 32768, 65536), ZONE_BELOW_BG);
	assert_int_equal(dirty_zone_of(31233, 18433, 32768, 65536), ZONE_THROTTLE);
	assert_int_equal(dirty_zone_of(40000, 25536, 32768, 65536), ZONE_HARD_LIMIT);
	assert_string_equal(dirty_zone_name(ZONE_THROTTLE), "throttle");
	assert_string_equal(dirty_zone_name(ZONE_UNKNOWN), "n/a");
}

static struct snap_disk mk_disk(const char *name, unsigned minor, bool part)
{
	struct snap_disk d = { .major = 254, .minor = minor, .is_partition = part, .nfields = 17 };
	snprintf(d.name, sizeof(d.name), "%s", name);
	return d;
}

/* The iostat -x formulas (sysstat rd_stats.c / common.c) on known deltas. */
/* Page counts times the page size never wrap: nr_dirty = 2^64-1 (a
 * bogus pmcd, a damaged file) reads as n/a, not as 18446744073709551612
 * kB at hard_limit. */
static void test_pages_out_of_range(void **st)
{
	(void)st;
	struct snapshot *a = calloc(1, sizeof(*a));
	struct sample *s = calloc(1, sizeof(*s));

	a->have = SNAP_HAVE_VMSTAT;
	a->page_kb = 4;
	a->nr_dirty = 1000;
	a->nr_dirty_threshold = 4000;
	a->nr_dirty_background_threshold = 2000;
	derive_sample(NULL, a, 0, 0, NULL, s);
	assert_true(s->have_dirty);
	assert_int_equal(s->dirty_kb, 4000);
	a->nr_dirty = UINT64_MAX;
	derive_sample(NULL, a, 0, 0, NULL, s);
	assert_false(s->have_dirty);
	assert_int_equal(s->zone, ZONE_UNKNOWN);
	assert_int_equal(s->dirty_kb, 0);
	a->nr_dirty = 1000;
	a->nr_dirty_threshold = UINT64_MAX / 2;
	derive_sample(NULL, a, 0, 0, NULL, s);
	assert_false(s->have_dirty);
	snapshot_free(a);
	free(a);
	free(s);
}

static void test_iostat_figures(void **st)
{
	(void)st;
	static struct snapshot a, b;
	struct sample s = { 0 };

	snapshot_reset(&a);
	snapshot_reserve_disks(&a, 64);
	a.have = SNAP_HAVE_DISKS;
	a.mono_ns = 1000000000;
	a.disks[0] = mk_disk("vda", 0, false);
	a.disks[1] = mk_disk("vda1", 1, true);
	a.ndisks = 2;
	snapshot_copy(&b, &a);
	b.mono_ns = a.mono_ns + 2000000000;   /* 2 s */
	struct snap_disk *d = &b.disks[0];
	d->f[DS_READS] = 200;             /* 100 r/s */
	d->f[DS_SECTORS_READ] = 4000;     /* 2000 KiB / 2 s = 1000 kB/s */
	d->f[DS_MS_READING] = 400;        /* 2 ms per read */
	d->f[DS_WRITES] = 1000;           /* 500 w/s */
	d->f[DS_SECTORS_WRITTEN] = 409600;/* 204800 KiB / 2 s = 102400 kB/s */
	d->f[DS_MS_WRITING] = 5000;       /* 5 ms per write */
	d->f[DS_MS_IO] = 1500;            /* 75 % util */
	d->f[DS_WEIGHTED_MS_IO] = 6000;   /* aqu-sz 3 */
	d->f[DS_FLUSHES] = 20;            /* 10 f/s */
	b.disks[1].f[DS_WRITES] = 1000;   /* the partition's own count */

	derive_sample(&a, &b, a.mono_ns, 1, NULL, &s);
	assert_int_equal(s.ndisks, 1);    /* the partition is not shown beside its disk */
	assert_string_equal(s.disks[0].name, "vda");
	assert_true(s.disks[0].have_rate);
	assert_float_equal(s.dt, 2.0, 1e-9);
	assert_float_equal(s.disks[0].r_s, 100, 1e-9);
	assert_float_equal(s.disks[0].w_s, 500, 1e-9);
	assert_float_equal(s.disks[0].rkB_s, 1000, 1e-9);
	assert_float_equal(s.disks[0].wkB_s, 102400, 1e-9);
	assert_float_equal(s.disks[0].r_await, 2, 1e-9);
	assert_float_equal(s.disks[0].w_await, 5, 1e-9);
	assert_float_equal(s.disks[0].util, 75, 1e-9);
	assert_float_equal(s.disks[0].aqu_sz, 3, 1e-9);
	assert_float_equal(s.disks[0].f_s, 10, 1e-9);
	assert_false(s.have_dirty);       /* no vmstat read: n/a, not zero */
	assert_int_equal(s.zone, ZONE_UNKNOWN);
	sample_free(&s);
}

static void test_hotplug(void **st)
{
	(void)st;
	static struct snapshot a, b;
	struct sample s = { 0 };

	snapshot_reset(&a);
	snapshot_reserve_disks(&a, 64);
	a.have = SNAP_HAVE_DISKS;
	a.disks[0] = mk_disk("vda", 0, false);
	a.disks[0].f[DS_READS] = 5;               /* used since boot: listed */
	a.disks[1] = mk_disk("sdb", 16, false);   /* vanishes */
	a.ndisks = 2;
	snapshot_copy(&b, &a);
	b.mono_ns = 500000000;
	b.disks[1] = mk_disk("nvme0n1", 0, false); /* appears */
	b.disks[1].major = 259;
	b.disks[1].f[DS_WRITES] = 123456;
	derive_sample(&a, &b, 0, 1, NULL, &s);
	assert_int_equal(s.ndisks, 2);
	assert_string_equal(s.disks[0].name, "vda");
	assert_true(s.disks[0].have_rate);
	assert_string_equal(s.disks[1].name, "nvme0n1");
	assert_false(s.disks[1].have_rate);        /* no rate on its first sample */
	for (int i = 0; i < s.ndisks; i++)
		assert_string_not_equal(s.disks[i].name, "sdb");
	sample_free(&s);
}

/* Every figure of d is within what its deltas over dt allow. */
static void assert_bounded(const struct disk_rate *d, double dt)
{
	for (int f = 0; f < DF_N; f++) {
		double v = disk_rate_figure(d, f);
		if (isnan(v))
			continue;
		assert_true(v >= 0);
	}
	if (!d->have_rate)
		return;
	assert_true(d->r_s <= d->delta[DS_READS] / dt + 1e-9);
	assert_true(d->w_s <= d->delta[DS_WRITES] / dt + 1e-9);
	assert_true(d->util <= 100.0);
	assert_true(d->aqu_sz <= d->delta[DS_WEIGHTED_MS_IO] / (dt * 1000) + 1e-9);
	/* no delta is a fall read as a wrap */
	assert_false(disk_deltas_impossible(d->delta, d->nfields));
}

static void fill17(struct snap_disk *d, uint64_t base)
{
	for (int f = 0; f < DS_NFIELDS; f++)
		d->f[f] = base * (uint64_t)(f + 1);
	d->f[DS_IOS_IN_PROGRESS] = 2;
}

/* A device removed and created again under the same name between two
 * samples (every counter lower): no rate for it that interval, nothing
 * stored; its neighbour and the next interval are normal. */
static void test_device_recreated(void **st)
{
	(void)st;
	static struct snapshot a, b, c;
	struct sample s = { 0 };

	snapshot_reset(&a);
	snapshot_reserve_disks(&a, 64);
	a.have = SNAP_HAVE_DISKS;
	a.mono_ns = 1000000000;
	a.disks[0] = mk_disk("vda", 0, false);
	a.disks[1] = mk_disk("sdb", 16, false);
	fill17(&a.disks[0], 1000000);
	fill17(&a.disks[1], 5000000);
	a.ndisks = 2;
	snapshot_copy(&b, &a);
	b.mono_ns = a.mono_ns + 1000000000;
	fill17(&b.disks[0], 1000100);             /* vda: +100 x field number */
	fill17(&b.disks[1], 7);                   /* sdb: a new device, counters from 0 */
	snapshot_copy(&c, &b);
	c.mono_ns = b.mono_ns + 500000000;
	fill17(&c.disks[1], 57);                  /* sdb: +50 x field number in 0.5 s */

	derive_sample(&a, &b, a.mono_ns, 1, NULL, &s);
	assert_int_equal(s.ndisks, 2);
	assert_true(s.disks[0].have_rate);
	assert_false(s.disks[0].reset);
	assert_float_equal(s.disks[0].r_s, 100, 1e-9);
	assert_bounded(&s.disks[0], s.dt);
	assert_string_equal(s.disks[1].name, "sdb");
	assert_true(s.disks[1].reset);
	assert_false(s.disks[1].have_rate);
	for (int f = 0; f < DS_NFIELDS; f++)
		assert_true(s.disks[1].delta[f] == 0);   /* nothing for a recording */
	for (int f = 0; f < DF_N; f++)
		assert_true(isnan(disk_rate_figure(&s.disks[1], f)));

	derive_sample(&b, &c, a.mono_ns, 2, NULL, &s);
	assert_false(s.disks[1].reset);
	assert_true(s.disks[1].have_rate);
	assert_float_equal(s.disks[1].r_s, 50 / 0.5, 1e-9);
	assert_float_equal(s.disks[1].wkB_s, 50 * 7 / 2.0 / 0.5, 1e-9);
	assert_bounded(&s.disks[1], s.dt);
	sample_free(&s);
}

/* The 32-bit ms fields wrap long before the counts do: a wrap, not a
 * reset, and the figures use the wrapped-around delta. */
static void test_time_field_wraps(void **st)
{
	(void)st;
	static struct snapshot a, b;
	struct sample s = { 0 };

	snapshot_reset(&a);
	snapshot_reserve_disks(&a, 64);
	a.have = SNAP_HAVE_DISKS;
	a.mono_ns = 1000000000;
	a.disks[0] = mk_disk("nvme0n1", 0, false);
	a.disks[0].major = 259;
	fill17(&a.disks[0], 3000000000u);          /* counts past 2^32: 64-bit */
	a.disks[0].f[DS_MS_WRITING] = 0xffffff00u;
	a.disks[0].f[DS_WEIGHTED_MS_IO] = 0xfffffc00u;
	a.disks[0].f[DS_MS_IO] = 0xffffffffu;
	a.ndisks = 1;
	snapshot_copy(&b, &a);
	b.mono_ns = a.mono_ns + 2000000000;
	b.disks[0].f[DS_WRITES] += 100;
	b.disks[0].f[DS_SECTORS_WRITTEN] += 1600;
	b.disks[0].f[DS_MS_WRITING] = 0x100;       /* +0x200 = 512 ms */
	b.disks[0].f[DS_WEIGHTED_MS_IO] = 0x400;   /* +0x800 = 2048 ms */
	b.disks[0].f[DS_MS_IO] = 999;              /* +1000 ms */

	derive_sample(&a, &b, a.mono_ns, 1, NULL, &s);
	assert_true(s.disks[0].have_rate);
	assert_false(s.disks[0].reset);
	assert_float_equal(s.disks[0].w_s, 50, 1e-9);
	assert_float_equal(s.disks[0].w_await, 512 / 100.0, 1e-9);
	assert_float_equal(s.disks[0].wareq_sz, 8, 1e-9);
	assert_float_equal(s.disks[0].aqu_sz, 2048 / 2000.0, 1e-9);
	assert_float_equal(s.disks[0].util, 50, 1e-9);
	assert_float_equal(s.disks[0].r_s, 0, 1e-9);
	assert_bounded(&s.disks[0], s.dt);
	sample_free(&s);
}

/* Lines of 14 counters, 4 (an old partition line), 20 and 3, read by the
 * text probe and derived: each gives what its fields allow, none refuses
 * the sample, -p ALL lists the partition under its disk. */
static void test_odd_field_counts(void **st)
{
	(void)st;
	static const char t1[] =
		"   8       0 sda 100 2 800 30 50 1 400 20 0 40 50 7 0 56\n"
		"   8       1 sda1 10 80 5 40\n"
		"   8      16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n"
		"   8      32 sdc 1 2 3\n";
	static const char t2[] =
		"   8       0 sda 300 12 2400 130 50 1 400 20 1 540 650 9 0 70\n"
		"   8       1 sda1 210 1680 5 40\n"
		"   8      16 sdb 11 2 83 14 5 6 7 8 9 510 11 12 13 14 15 36 57 999 999 999\n"
		"   8      32 sdc 4 5 6\n";
	static struct snapshot a, b;
	struct probe_texts t;
	struct derive_opts o = { .all_partitions = true, .all_disks = true };
	struct sample s = { 0 };
	char err[256];

	memset(&t, 0, sizeof(t));
	t.buf[PROBE_TEXT_DISKSTATS] = t1;
	t.len[PROBE_TEXT_DISKSTATS] = strlen(t1);
	assert_int_equal(probe_parse_texts(&t, 0, &a, err, sizeof(err)), 0);
	t.buf[PROBE_TEXT_DISKSTATS] = t2;
	t.len[PROBE_TEXT_DISKSTATS] = strlen(t2);
	b.mono_ns = 1000000000;
	assert_int_equal(probe_parse_texts(&t, 0, &b, err, sizeof(err)), 0);
	b.mono_ns = 1000000000;
	a.mono_ns = 0;

	derive_sample(&a, &b, 0, 1, &o, &s);
	assert_int_equal(s.ndisks, 4);
	/* sda: 14 counters read as 11, no discard figures */
	assert_string_equal(s.disks[0].name, "sda");
	assert_int_equal(s.disks[0].nfields, 11);
	assert_float_equal(s.disks[0].r_s, 200, 1e-9);
	assert_float_equal(s.disks[0].rrqm_s, 10, 1e-9);
	assert_float_equal(s.disks[0].rrqm_pct, 10 * 100.0 / 210, 1e-9);
	assert_float_equal(s.disks[0].r_await, 100 / 200.0, 1e-9);
	assert_float_equal(s.disks[0].util, 50, 1e-9);
	assert_true(isnan(disk_rate_figure(&s.disks[0], DF_D_S)));
	assert_true(isnan(disk_rate_figure(&s.disks[0], DF_F_AWAIT)));
	assert_bounded(&s.disks[0], s.dt);
	/* sda1: the 4-field line, right under its disk */
	assert_string_equal(s.disks[1].name, "sda1");
	assert_true(s.disks[1].is_partition);
	assert_true(s.disks[1].have_rate);
	assert_float_equal(s.disks[1].r_s, 200, 1e-9);
	assert_float_equal(s.disks[1].rkB_s, 800, 1e-9);
	assert_float_equal(s.disks[1].rareq_sz, 4, 1e-9);
	assert_float_equal(disk_rate_figure(&s.disks[1], DF_W_S), 0, 1e-9);
	assert_true(isnan(disk_rate_figure(&s.disks[1], DF_R_AWAIT)));
	assert_true(isnan(disk_rate_figure(&s.disks[1], DF_UTIL)));
	assert_true(isnan(disk_rate_figure(&s.disks[1], DF_RRQM_S)));
	assert_bounded(&s.disks[1], s.dt);
	/* sdb: 20 fields, the first 17 read, the rest ignored */
	assert_int_equal(s.disks[2].nfields, 17);
	assert_float_equal(s.disks[2].r_s, 10, 1e-9);
	assert_float_equal(s.disks[2].f_s, 20, 1e-9);
	assert_float_equal(s.disks[2].f_await, 40 / 20.0, 1e-9);
	assert_float_equal(s.disks[2].util, 50, 1e-9);
	assert_bounded(&s.disks[2], s.dt);
	/* sdc: 3 counters: listed, n/a */
	assert_string_equal(s.disks[3].name, "sdc");
	assert_false(s.disks[3].have_rate);
	assert_true(isnan(disk_rate_figure(&s.disks[3], DF_R_S)));

	/* by default partitions are not listed, nor disks never used */
	derive_sample(&a, &b, 0, 1, NULL, &s);
	assert_int_equal(s.ndisks, 3);
	for (int i = 0; i < s.ndisks; i++)
		assert_false(s.disks[i].is_partition);
	sample_free(&s);
}

/* Disks that never did I/O since boot are hidden unless --all-disks;
 * -p DEV lists that disk's partitions only. */
static void test_disk_selection(void **st)
{
	(void)st;
	static struct snapshot a;
	struct derive_opts o = { 0 };
	struct sample s = { 0 };
	char err[128];

	snapshot_reset(&a);
	snapshot_reserve_disks(&a, 64);
	a.have = SNAP_HAVE_DISKS;
	a.disks[0] = mk_disk("sda", 0, false);
	a.disks[0].f[DS_READS] = 10;
	a.disks[1] = mk_disk("sda1", 1, true);
	a.disks[1].f[DS_READS] = 4;
	a.disks[2] = mk_disk("sda2", 2, true);          /* never used */
	a.disks[3] = mk_disk("nvme0n1", 3, false);
	a.disks[3].f[DS_FLUSHES] = 1;                  /* used: flushed */
	a.disks[4] = mk_disk("nvme0n1p1", 4, true);
	a.disks[4].f[DS_WRITES] = 1;
	a.disks[5] = mk_disk("ram0", 5, false);        /* never used */
	a.ndisks = 6;

	derive_sample(NULL, &a, 0, 0, &o, &s);
	assert_int_equal(s.ndisks, 2);
	assert_string_equal(s.disks[0].name, "sda");
	assert_string_equal(s.disks[1].name, "nvme0n1");

	assert_int_equal(derive_opts_parse_partitions(&o, "/dev/sda", err, sizeof(err)), 0);
	derive_sample(NULL, &a, 0, 0, &o, &s);
	assert_int_equal(s.ndisks, 3);
	assert_string_equal(s.disks[1].name, "sda1");   /* under its disk */
	assert_true(s.disks[1].is_partition);

	o.all_disks = true;
	derive_sample(NULL, &a, 0, 0, &o, &s);
	assert_int_equal(s.ndisks, 5);                  /* + sda2, ram0 */

	memset(&o, 0, sizeof(o));
	assert_int_equal(derive_opts_parse_partitions(&o, "ALL", err, sizeof(err)), 0);
	derive_sample(NULL, &a, 0, 0, &o, &s);
	assert_int_equal(s.ndisks, 4);
	assert_string_equal(s.disks[3].name, "nvme0n1p1");
	assert_int_equal(derive_opts_parse_partitions(&o, "sda,,", err, sizeof(err)), -EINVAL);

	/* more devices than a sample held before (16): every one is listed,
	 * whole disks and partitions, in the kernel's order */
	snapshot_reset(&a);
	a.have = SNAP_HAVE_DISKS;
	for (int i = 0; i < 12; i++) {
		struct snap_disk *d = snapshot_add_disk(&a);
		*d = mk_disk("sda", (unsigned)a.ndisks, false);
		snprintf(d->name, SNAP_DISK_NAME_LEN, "sd%c", 'a' + i);
		d->f[DS_READS] = 1;
		for (int p = 1; p <= 2; p++) {
			d = snapshot_add_disk(&a);
			*d = mk_disk("x", (unsigned)a.ndisks, true);
			snprintf(d->name, SNAP_DISK_NAME_LEN, "sd%c%d", 'a' + i, p);
			d->f[DS_READS] = 1;
		}
	}
	derive_sample(NULL, &a, 0, 0, &o, &s);
	assert_int_equal(s.ndisks, 36);
	int parts = 0;
	for (int i = 0; i < s.ndisks; i++)
		parts += s.disks[i].is_partition;
	assert_int_equal(parts, 24);
	assert_string_equal(s.disks[s.ndisks - 3].name, "sdl");
	sample_free(&s);
}

/* 1,024 devices, every one moving; between two reads one in the middle
 * vanished and one came at the end (the list changed: matched by name):
 * every device keeps its own rate, the new one has none yet. */
static void test_many_disks_hotplug(void **st)
{
	(void)st;
	static struct snapshot a, b;
	struct sample s = { 0 };
	enum { N = 1024, GONE = 500 };

	snapshot_reset(&a);
	snapshot_reset(&b);
	a.have = b.have = SNAP_HAVE_DISKS;
	a.mono_ns = 1000000000;
	b.mono_ns = 2000000000;
	for (int k = 0; k < N; k++) {
		struct snap_disk *d = snapshot_add_disk(&a);
		assert_non_null(d);
		*d = mk_disk("x", (unsigned)k, false);
		snprintf(d->name, sizeof(d->name), "dm-%d", k);
		d->f[DS_WRITES] = 1000;
		if (k == GONE)
			continue;
		struct snap_disk *e = snapshot_add_disk(&b);
		assert_non_null(e);
		*e = *d;
		e->f[DS_WRITES] += (uint64_t)k;   /* k writes in 1 s */
	}
	struct snap_disk *e = snapshot_add_disk(&b);
	*e = mk_disk("new0n1", 9999, false);
	e->f[DS_WRITES] = 5;

	assert_int_equal(derive_sample(&a, &b, a.mono_ns, 1, NULL, &s), 0);
	assert_int_equal(s.ndisks, N);
	for (int i = 0; i < N - 1; i++) {
		int k = i < GONE ? i : i + 1;
		char want[32];
		snprintf(want, sizeof(want), "dm-%d", k);
		assert_string_equal(s.disks[i].name, want);
		assert_true(s.disks[i].have_rate);
		assert_float_equal(s.disks[i].w_s, k, 1e-9);
	}
	assert_string_equal(s.disks[N - 1].name, "new0n1");
	assert_false(s.disks[N - 1].have_rate);
	sample_free(&s);
}

/* --disks: names, /dev/ names and globs; an empty list is every disk. */
static void test_disk_filter(void **st)
{
	(void)st;
	struct disk_filter f = { 0 };
	char err[256];

	assert_int_equal(disk_filter_parse(&f, "sda, /dev/nvme0n1,dm-*", err, sizeof(err)), 0);
	assert_true(disk_filter_match(&f, "sda"));
	assert_true(disk_filter_match(&f, "nvme0n1"));
	assert_true(disk_filter_match(&f, "dm-12"));
	assert_false(disk_filter_match(&f, "sdb"));
	assert_false(disk_filter_match(&f, "nvme0n1p1"));
	assert_string_equal(f.text, "sda, /dev/nvme0n1,dm-*");
	assert_int_equal(disk_filter_parse(&f, "", err, sizeof(err)), 0);
	assert_true(disk_filter_empty(&f));
	assert_true(disk_filter_match(&f, "anything"));
	assert_int_equal(disk_filter_parse(&f, "sdaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "longer than a device name"));
	disk_filter_free(&f);
}

static void test_tracker_start_end(void **st)
{
	(void)st;
	struct dirty_tracker tr = { 0 };
	struct sample s = { .have_dirty = true };
	const enum dirty_zone zones[] = { ZONE_BELOW_BG, ZONE_BG_FLUSH, ZONE_THROTTLE, ZONE_HARD_LIMIT,
					  ZONE_THROTTLE, ZONE_BG_FLUSH, ZONE_THROTTLE, ZONE_BELOW_BG };
	int starts = 0, ends = 0;
	double durations = 0;

	for (size_t i = 0; i < sizeof(zones) / sizeof(zones[0]); i++) {
		s.t = i * 0.5;
		s.zone = zones[i];
		dirty_tracker_update(&tr, &s);
		starts += s.hit_event > 0;
		ends += s.hit_event < 0;
		if (s.hit_event < 0)
			durations += s.hit_duration;
	}
	assert_int_equal(starts, 2);
	assert_int_equal(ends, 2);
	assert_int_equal(s.hits, 2);
	assert_float_equal(durations, 1.5 + 0.5, 1e-9);
	assert_float_equal(s.hit_seconds, 2.0, 1e-9);
	sample_free(&s);
}

/* Replay a trace through probe + derive + tracker; returns samples read. */
struct trace_run {
	int n;
	int first_hit_sample;      /* -1: none */
	double first_hit_t;
	int hit_samples;           /* samples in zone >= throttle */
	uint64_t max_level_kb;
	uint64_t thresh_kb_at[400], bg_kb_at[400], freerun_kb_at[400];
	double t_at[400], level_kb_at[400];
	double wkB_sum;            /* vda kB written, summed over samples */
};

static void replay_trace(const char *name, struct trace_run *r)
{
	char path[256], err[256];
	struct probe *p;
	static struct snapshot prev, cur;
	struct dirty_tracker tr = { 0 };
	uint64_t t0 = 0;
	struct sample s = { 0 };

	memset(r, 0, sizeof(*r));
	r->first_hit_sample = -1;
	snprintf(path, sizeof(path), TRACES "%s", name);
	assert_int_equal(probe_open_root(&p, path, err, sizeof(err)), 0);
	for (;;) {
		int rc = probe_read(p, &cur, err, sizeof(err));
		if (rc == -ENODATA)
			break;
		assert_int_equal(rc, 0);
		if (r->n == 0)
			t0 = cur.mono_ns;
		derive_sample(r->n ? &prev : NULL, &cur, t0, (uint64_t)r->n, NULL, &s);
		dirty_tracker_update(&tr, &s);
		if (s.hit_event > 0 && r->first_hit_sample < 0) {
			r->first_hit_sample = r->n;
			r->first_hit_t = s.t;
		}
		r->hit_samples += s.zone >= ZONE_THROTTLE;
		if (s.dirty_kb + s.writeback_kb > r->max_level_kb)
			r->max_level_kb = s.dirty_kb + s.writeback_kb;
		if (r->n < 400) {
			r->thresh_kb_at[r->n] = s.thresh_kb;
			r->bg_kb_at[r->n] = s.bg_thresh_kb;
			r->freerun_kb_at[r->n] = s.freerun_kb;
			r->t_at[r->n] = s.t;
			r->level_kb_at[r->n] = (double)(s.dirty_kb + s.writeback_kb);
		}
		for (int i = 0; i < s.ndisks; i++)
			if (!strcmp(s.disks[i].name, "vda") && s.disks[i].have_rate)
				r->wkB_sum += s.disks[i].wkB_s * s.dt;
		snapshot_copy(&prev, &cur);
		r->n++;
	}
	probe_close(p);
	sample_free(&s);
}

static void test_trace_fio_dirty_limit(void **st)
{
	(void)st;
	static struct trace_run r;

	replay_trace("dirty-bytes-256M-128M-fio-overwrite-4G-20s", &r);
	assert_int_equal(r.n, 308);
	/* default knobs before sample 15, the byte limits from 15 */
	assert_true(r.thresh_kb_at[10] > 4000000);
	assert_int_equal(r.thresh_kb_at[15], 262144);
	assert_int_equal(r.bg_kb_at[15], 131072);
	assert_int_equal(r.freerun_kb_at[15], 196608);
	/* first hit: sample 37, nr_dirty 31233 + nr_writeback 18433 = 49666 > 49152 */
	assert_int_equal(r.first_hit_sample, 37);
	assert_float_equal(r.first_hit_t, 3.700118, 1e-3);
	/* the README counts 87 samples at/above 49152 (>=); strictly above is
	 * what the kernel throttles: no sample sits exactly at 49152 here */
	assert_int_equal(r.hit_samples, 87);
	assert_int_equal(r.max_level_kb, 53002u * 4);
}

static void test_trace_not_throttled(void **st)
{
	(void)st;
	static struct trace_run r;

	replay_trace("dirty-bytes-256M-128M-dd-newfile-4G-not-throttled", &r);
	assert_int_equal(r.n, 161);
	assert_int_equal(r.first_hit_sample, -1);
	assert_int_equal(r.hit_samples, 0);
	assert_int_equal(r.max_level_kb, 35345u * 4);
}

/* Disk rates integrate back to the sectors the kernel counted. */
static void test_trace_dbench_disk_bytes(void **st)
{
	(void)st;
	static struct trace_run r;

	replay_trace("dbench-t10-4clients", &r);
	assert_int_equal(r.n, 161);
	/* summary.tsv: vda sectors written, last minus first, / 2 = kB */
	FILE *f = fopen(TRACES "dbench-t10-4clients/summary.tsv", "r");
	assert_non_null(f);
	char line[1024];
	unsigned long long first = 0, last = 0;
	int row = 0;
	while (fgets(line, sizeof(line), f)) {
		if (row++ == 0)
			continue;
		char *save, *tok = strtok_r(line, "\t", &save);
		for (int col = 0; tok && col < 10; col++)
			tok = strtok_r(NULL, "\t", &save);
		if (!tok)
			continue;
		if (row == 2)
			first = strtoull(tok, NULL, 10);
		last = strtoull(tok, NULL, 10);
	}
	fclose(f);
	assert_true(last > first);
	assert_float_equal(r.wkB_sum, (last - first) / 2.0, 1.0);
}

/* The time to freerun at sample i from the level of the samples of the
 * last window_s seconds, as the header would say it then; -1: none. */
static double trace_forecast(const struct trace_run *r, int i, double window_s)
{
	int from = i;
	while (from > 0 && r->t_at[from - 1] >= r->t_at[i] - window_s)
		from--;
	return derive_time_to_limit(r->t_at + from, r->level_kb_at + from, i - from + 1,
				    (double)r->freerun_kb_at[i], 3600);
}

/* The header's time to freerun on recorded levels: none of an idle
 * machine, of a level creeping up by a few pages, or of dbench's flat
 * level (it dirties at 1 GB/s and deletes what it dirtied); a level on
 * its way up to freerun gets one, of seconds. */
static void test_trace_time_to_freerun(void **st)
{
	(void)st;
	static struct trace_run r;

	replay_trace("idle-30s", &r);
	for (int i = 0; i < r.n; i++)
		assert_true(trace_forecast(&r, i, 5) < 0);
	replay_trace("dbench-t10-4clients", &r);
	for (int i = 0; i < r.n; i++)
		assert_true(trace_forecast(&r, i, 5) < 0);
	replay_trace("dirty-bytes-256M-128M-fio-overwrite-4G-20s", &r);
	/* before fio (sample 30) the level creeps from 236 to 332 kB in
	 * steps of 12 kB: a steady rise, 1,500 s from freerun */
	assert_true(r.level_kb_at[24] > r.level_kb_at[15]);
	assert_true(derive_time_to_limit(r.t_at + 15, r.level_kb_at + 15, 10, 196608, 1e9) < 0);
	int first = -1;
	for (int i = 0; i < r.n; i++) {
		double f = trace_forecast(&r, i, 5);
		if (f < 0)
			continue;
		if (first < 0)
			first = i;
		assert_true(f < 5);
	}
	/* the level passes freerun at sample 37 and swings around it */
	assert_true(first > 30 && first < 60);
	/* a line: 10 points rising 1000 kB/s from 1000 kB, 10000 to go */
	double t[10], kb[10];
	for (int i = 0; i < 10; i++) {
		t[i] = i * 0.5;
		kb[i] = 1000 + 1000 * t[i];
	}
	assert_float_equal(derive_time_to_limit(t, kb, 10, 15500, 3600), 10.0, 1e-9);
	/* past the hour, or ten times the 4.5 s seen: none */
	assert_true(derive_time_to_limit(t, kb, 10, 15500, 5) < 0);
	assert_true(derive_time_to_limit(t, kb, 10, 5500 + 46 * 1000, 3600) < 0);
	/* falling, or flat */
	for (int i = 0; i < 10; i++)
		kb[i] = 10000 - 100 * t[i];
	assert_true(derive_time_to_limit(t, kb, 10, 15500, 3600) < 0);
	for (int i = 0; i < 10; i++)
		kb[i] = 10000;
	assert_true(derive_time_to_limit(t, kb, 10, 15500, 3600) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_disks_hotplug),
		cmocka_unit_test(test_disk_filter),
		cmocka_unit_test(test_counter_delta_wraps_at_kernel_width),
		cmocka_unit_test(test_zone_boundaries),
		cmocka_unit_test(test_pages_out_of_range),
		cmocka_unit_test(test_iostat_figures),
		cmocka_unit_test(test_hotplug),
		cmocka_unit_test(test_device_recreated),
		cmocka_unit_test(test_time_field_wraps),
		cmocka_unit_test(test_odd_field_counts),
		cmocka_unit_test(test_disk_selection),
		cmocka_unit_test(test_tracker_start_end),
		cmocka_unit_test(test_trace_fio_dirty_limit),
		cmocka_unit_test(test_trace_not_throttled),
		cmocka_unit_test(test_trace_dbench_disk_bytes),
		cmocka_unit_test(test_trace_time_to_freerun),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
