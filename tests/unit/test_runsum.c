/* runsum: disk bytes between two snapshots, the benchmark's figure, cache
 * inflation, peak dirty, throttled time and its source, the verdict at
 * its documented thresholds, and the event text both ways. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "iodash/results/runsum.h"

static void snap_disk(struct snapshot *s, const char *name, bool part, uint64_t rd_sect, uint64_t wr_sect)
{
	struct snap_disk *d = snapshot_add_disk(s);
	assert_non_null(d);
	strcpy(d->name, name);
	d->is_partition = part;
	d->nfields = 17;
	d->f[DS_SECTORS_READ] = rd_sect;
	d->f[DS_SECTORS_WRITTEN] = wr_sect;
}

static void snaps(struct snapshot *a, struct snapshot *b)
{
	snapshot_reset(a);
	snapshot_reset(b);
	a->have = b->have = SNAP_HAVE_DISKS | SNAP_HAVE_VMSTAT;
	a->page_kb = b->page_kb = 4;
	snap_disk(a, "vda", false, 1000, 2000);
	snap_disk(a, "vda1", true, 1000, 2000);
	/* 400 MiB written, 1 MiB read on the disk; its partition is not added */
	snap_disk(b, "vda", false, 1000 + 2048, 2000 + 819200);
	snap_disk(b, "vda1", true, 1000 + 2048, 2000 + 819200);
	b->nr_dirty = 1000;
	b->nr_writeback = 24;          /* 4096 kB at the end */
	b->nr_dirty_threshold = 32768; /* 128 MiB */
	b->nr_dirty_background_threshold = 16384;
}

static struct sample smp(double dt, uint64_t kb, enum dirty_zone z)
{
	struct sample s = { 0 };
	memset(&s, 0, sizeof(s));
	s.dt = dt;
	s.have_dirty = true;
	s.dirty_kb = kb;
	s.freerun_kb = 98304;
	s.thresh_kb = 131072;
	s.zone = z;
	return s;
}

static void test_device_run(void **state)
{
	struct snapshot a = { 0 }, b = { 0 };
	struct runsum_acc acc = { 0 };
	struct run_summary r;
	struct result_point p = { .metric = "write_bw", .value = 409600, .unit = "KiB/s", .flags = RP_FINAL };

	(void)state;
	snaps(&a, &b);
	runsum_begin(&acc, &a);
	struct sample s1 = smp(0.5, 20000, ZONE_BG_FLUSH);
	runsum_add_sample(&acc, &s1);
	runsum_add_tick(&acc, 0.5, 400e6, 0, 0);
	runsum_add_tick(&acc, 0.5, 400e6, 0, 0);
	runsum_add_tick(&acc, 0.2, 0, 0, 0);         /* exit: no I/O, not counted */
	runsum_add_tick(&acc, 0.1, 1600, 0, 0);      /* its status reads: not I/O time */
	runsum_add_result(&acc, &p);
	runsum_finish(&acc, &b, 1.4, -1, &r);
	assert_true(fabs(r.io_secs - 1.0) < 1e-9);
	/* a direct write stalled on the disk for a tick: I/O time */
	runsum_add_tick(&acc, 0.25, 1600, 1, 0);
	runsum_finish(&acc, &b, 1.4, -1, &r);
	assert_true(fabs(r.io_secs - 1.25) < 1e-9);
	runsum_begin(&acc, &a);
	runsum_add_sample(&acc, &s1);
	runsum_add_tick(&acc, 0.5, 400e6, 0, 0);
	runsum_add_tick(&acc, 0.5, 400e6, 0, 0);
	runsum_add_result(&acc, &p);
	runsum_finish(&acc, &b, 1.4, -1, &r);
	assert_true(r.have_disks);
	assert_int_equal(r.write_B, 400ull << 20);
	assert_int_equal(r.read_B, 1ull << 20);
	assert_true(fabs(r.io_secs - 1.0) < 1e-9);
	assert_true(fabs(r.device_Bps - (401.0 * 1048576)) < 1);
	assert_true(fabs(r.reported_Bps - 409600.0 * 1024) < 1);
	assert_true(fabs(r.inflation - 400.0 / 401.0) < 1e-9);
	assert_int_equal(r.peak_kB, 20000);
	assert_int_equal(r.end_kB, 4096);
	assert_int_equal(r.thresh_kB, 131072);
	assert_int_equal(r.throttle_src, THR_SRC_SAMPLED);
	assert_int_equal(r.verdict, RV_DEVICE);
	snapshot_free(&a);
	snapshot_free(&b);
	runsum_release(&acc);
}

static void test_cache_and_throttled(void **state)
{
	struct snapshot a = { 0 }, b = { 0 };
	struct runsum_acc acc = { 0 };
	struct run_summary r;
	struct result_point rd = { .metric = "read_bw", .value = 1, .unit = "MiB/s", .flags = RP_FINAL };
	struct result_point wr = { .metric = "write_bw", .value = 2047, .unit = "MiB/s", .flags = RP_FINAL };
	struct result_point iops = { .metric = "write_iops", .value = 5000, .unit = "IOPS", .flags = RP_FINAL };

	(void)state;
	snaps(&a, &b);
	/* reported 2 GiB/s, the disk 401 MiB over 1 s: inflation 5.1, dirty
	 * under freerun all along: the page cache */
	runsum_begin(&acc, &a);
	runsum_add_tick(&acc, 1.0, 2e9, 0, 0);
	runsum_add_result(&acc, &iops);
	runsum_add_result(&acc, &rd);
	runsum_add_result(&acc, &wr);
	struct sample s1 = smp(0.5, 90000, ZONE_BG_FLUSH);
	runsum_add_sample(&acc, &s1);
	runsum_finish(&acc, &b, 1.0, -1, &r);
	assert_true(fabs(r.reported_Bps - 2048.0 * 1048576) < 1);   /* read + write */
	assert_true(r.inflation > 5.1 && r.inflation < 5.11);
	assert_int_equal(r.verdict, RV_CACHE);
	/* pauses within the budget do not veto cache: one 12 ms pause (a
	 * recorded run of inflation 7.37 read "device" for it), nor 149 ms
	 * (14.9 %: the figure is at most 18 % off the cache's) */
	runsum_finish(&acc, &b, 1.0, 12, &r);
	assert_int_equal(r.verdict, RV_CACHE);
	runsum_finish(&acc, &b, 1.0, 149, &r);
	assert_int_equal(r.verdict, RV_CACHE);
	/* 150 ms: throttled */
	runsum_finish(&acc, &b, 1.0, 150, &r);
	assert_int_equal(r.verdict, RV_THROTTLED);
	/* dirty over freerun once (every writer's level, not the
	 * benchmark's pauses: a tick saw its tree, so the sampled figure is
	 * what the ticks found): the cache took it all the same */
	struct sample s2 = smp(0.1, 100000, ZONE_THROTTLE);
	runsum_add_sample(&acc, &s2);
	runsum_finish(&acc, &b, 1.0, -1, &r);
	assert_int_equal(r.verdict, RV_CACHE);
	assert_true(r.throttled_s == 0);
	/* a tick found one of its tasks asleep in balance_dirty_pages for a
	 * whole 0.25 s tick (it moved nothing: still I/O time): 20 % of
	 * 1.25 s, throttled (from 15 %) */
	struct sample s3 = smp(0.15, 131072, ZONE_HARD_LIMIT);
	runsum_add_sample(&acc, &s3);
	runsum_add_tick(&acc, 0.25, 0, 1, 1);
	runsum_finish(&acc, &b, 1.0, -1, &r);
	assert_true(fabs(r.io_secs - 1.25) < 1e-9);
	assert_true(fabs(r.throttled_pct - 20) < 1e-9);
	assert_int_equal(r.throttle_src, THR_SRC_SAMPLED);
	assert_int_equal(r.verdict, RV_THROTTLED);
	/* the tracepoint's paused time wins over the ticks, marked */
	runsum_finish(&acc, &b, 1.0, 175, &r);
	assert_int_equal(r.throttle_src, THR_SRC_KERNEL);
	assert_true(fabs(r.throttled_pct - 14) < 1e-9);
	assert_int_equal(r.verdict, RV_CACHE);
	runsum_finish(&acc, &b, 1.0, 187.5, &r);
	assert_int_equal(r.verdict, RV_THROTTLED);
	/* no tick scanned its tree (no /proc): the zone's time, 0.25 s */
	runsum_begin(&acc, &a);
	runsum_add_sample(&acc, &s2);
	runsum_add_sample(&acc, &s3);
	runsum_finish(&acc, &b, 1.0, -1, &r);
	assert_true(fabs(r.throttled_s - 0.25) < 1e-9);
	assert_int_equal(r.verdict, RV_THROTTLED);
	/* the disks did nothing: infinite inflation, cache */
	runsum_begin(&acc, &a);
	runsum_add_tick(&acc, 0.1, 4e9, 0, 0);
	runsum_add_result(&acc, &wr);
	runsum_finish(&acc, &a, 0.2, -1, &r);
	assert_true(isinf(r.inflation));
	assert_int_equal(r.verdict, RV_CACHE);
	/* no disk figures: no verdict but throttled */
	runsum_finish(&acc, NULL, 0.2, -1, &r);
	assert_int_equal(r.verdict, RV_UNKNOWN);
	assert_int_equal(r.na, RNA_NO_DISKS);
	assert_string_equal(runsum_verdict_name(r.verdict), "n/a");
	snapshot_free(&a);
	snapshot_free(&b);
	runsum_release(&acc);
}

/* No evidence, no verdict: sleep, a failed command and a stopped run
 * each got "device" with io_s=0 write_B=0. */
static void test_na_reasons(void **state)
{
	struct snapshot a = { 0 }, b = { 0 };
	struct runsum_acc acc = { 0 };
	struct run_summary r, q;
	char text[256];

	(void)state;
	snaps(&a, &b);          /* the disks wrote 400 MiB: some other writer's */
	runsum_begin(&acc, &a);
	runsum_add_tick(&acc, 1.0, 0, 0, 0);         /* sleep: its tree moved nothing */
	runsum_add_tick(&acc, 1.0, 1600, 0, 0);
	runsum_finish(&acc, &b, 3.0, 0, &r);
	assert_int_equal(r.verdict, RV_UNKNOWN);
	assert_int_equal(r.na, RNA_NO_IO);
	runsum_format(&r, text, sizeof(text));
	assert_non_null(strstr(text, "n/a: why=no_io secs=3 "));
	assert_int_equal(runsum_parse(text, &q), 0);
	assert_int_equal(q.verdict, RV_UNKNOWN);
	assert_int_equal(q.na, RNA_NO_IO);
	/* the tree's total at its exit: a run between two ticks moved
	 * 200 MB (its disks 401 MiB: another writer's); start-up's few kB
	 * are not I/O */
	runsum_set_tree_total(&acc, 8192);
	runsum_finish(&acc, &b, 3.0, 0, &r);
	assert_int_equal(r.na, RNA_NO_IO);
	runsum_set_tree_total(&acc, 4e9);
	runsum_finish(&acc, &b, 1.0, 0, &r);
	assert_int_equal(r.verdict, RV_CACHE);
	assert_true(fabs(r.reported_Bps - 4e9) < 1);
	/* a tick that found it blocked, moving nothing yet (io_s > 0, no
	 * rate), then all of it by its exit: the exit's total counts */
	struct runsum_acc blk = { 0 };
	runsum_begin(&blk, &a);
	runsum_add_tick(&blk, 0.1, 0, 1, 0);
	runsum_set_tree_total(&blk, 256.0 * 1048576);
	runsum_finish(&blk, &b, 0.13, 0, &r);
	runsum_release(&blk);
	assert_int_not_equal(r.na, RNA_NO_IO);   /* it was read as no I/O */
	assert_true(r.have_reported && r.reported_Bps > 1e9);
	runsum_set_tree_total(&acc, 0);
	/* failed or stopped: n/a whatever it moved */
	runsum_add_tick(&acc, 1.0, 4e8, 0, 0);
	runsum_finish(&acc, &b, 3.0, 0, &r);
	assert_int_equal(r.verdict, RV_DEVICE);
	runsum_set_end(&acc, RUN_ENDED_FAILED);
	runsum_finish(&acc, &b, 3.0, 0, &r);
	assert_int_equal(r.verdict, RV_UNKNOWN);
	assert_int_equal(r.na, RNA_FAILED);
	runsum_set_end(&acc, RUN_ENDED_STOPPED);
	runsum_finish(&acc, &b, 3.0, 0, &r);
	assert_int_equal(r.na, RNA_STOPPED);
	runsum_format(&r, text, sizeof(text));
	assert_int_equal(runsum_parse(text, &q), 0);
	assert_int_equal(q.na, RNA_STOPPED);
	snapshot_free(&a);
	snapshot_free(&b);
	runsum_release(&acc);
}

/* The run's throttle episodes travel in its summary, and a word that
 * does not fit is left out whole. */
static void test_episodes_words(void **state)
{
	struct snapshot a = { 0 }, b = { 0 };
	struct runsum_acc acc = { 0 };
	struct run_summary r, q;
	struct run_episodes e = { .have = true, .count = 3, .first_s = 0.451, .paused_s = 2.95, .duty_pct = 58 };
	char text[256];

	(void)state;
	snaps(&a, &b);
	runsum_begin(&acc, &a);
	runsum_add_tick(&acc, 1.0, 3e8, 0, 0);
	runsum_set_episodes(&acc, &e);
	runsum_finish(&acc, &b, 1.5, 900, &r);
	runsum_format(&r, text, sizeof(text));
	assert_non_null(strstr(text, " eps=3,0.451,2.95,58"));
	assert_int_equal(runsum_parse(text, &q), 0);
	assert_true(q.eps.have);
	assert_int_equal(q.eps.count, 3);
	assert_true(fabs(q.eps.first_s - 0.451) < 1e-9 && fabs(q.eps.paused_s - 2.95) < 1e-9);
	/* short of room: whole words, the last ones left out */
	runsum_format(&r, text, 60);
	assert_true(strlen(text) < 60);
	assert_int_equal(text[strlen(text) - 1] != '=', 1);
	assert_null(strstr(text, "eps="));
	snapshot_free(&a);
	snapshot_free(&b);
	runsum_release(&acc);
}

static void test_text_round_trip(void **state)
{
	struct snapshot a = { 0 }, b = { 0 };
	struct runsum_acc acc = { 0 };
	struct run_summary r, q;
	char text[256];

	(void)state;
	snaps(&a, &b);
	runsum_begin(&acc, &a);
	runsum_add_tick(&acc, 1.0, 3e8, 0, 0);
	struct sample s = smp(0.5, 131072, ZONE_HARD_LIMIT);
	runsum_add_sample(&acc, &s);
	runsum_finish(&acc, &b, 1.5, 900, &r);
	runsum_format(&r, text, sizeof(text));
	assert_true(strlen(text) < 230);      /* an event line holds it with "run 100/100 " */
	assert_non_null(strstr(text, "throttled: "));
	assert_non_null(strstr(text, "thr_src=tracepoint"));
	char line[300];
	snprintf(line, sizeof(line), "run 3/4 %s", text);
	assert_int_equal(runsum_parse(line, &q), 0);
	assert_int_equal(q.verdict, RV_THROTTLED);
	assert_int_equal(q.write_B, r.write_B);
	assert_int_equal(q.peak_kB, 131072);
	assert_int_equal(q.throttle_src, THR_SRC_KERNEL);
	/* 0.9 s paused over the 1 s the benchmark did I/O (not the 1.5 s run) */
	assert_true(fabs(q.throttled_pct - 90) < 0.01);
	assert_true(fabs(q.inflation - r.inflation) / r.inflation < 1e-3);
	assert_int_equal(runsum_parse("no summary here", &q), -EINVAL);
	snapshot_free(&a);
	snapshot_free(&b);
	runsum_release(&acc);
}

/* The tracepoint follows every writer on the machine: only the
 * benchmark's own tasks' pauses are its throttled time (measured: the
 * session's own recorder and another user's compiler paused 200 ms each
 * during a 0.5 s fio run under a 128 MB limit). */
static void test_own_pauses(void **state)
{
	struct snapshot a = { 0 }, b = { 0 };
	struct runsum_acc acc = { 0 };
	struct run_summary r;
	struct result_point wr = { .metric = "write_bw", .value = 2500, .unit = "MiB/s", .flags = RP_FINAL };

	(void)state;
	snaps(&a, &b);
	runsum_begin(&acc, &a);
	assert_true(runsum_add_task(&acc, 4242));
	assert_true(runsum_add_task(&acc, 4243));
	assert_true(runsum_add_task(&acc, 4243));      /* once */
	assert_int_equal(acc.ntasks, 2);
	assert_false(runsum_has_task(&acc, 77));
	runsum_add_tick(&acc, 0.1, 2000, 0, 0);              /* start-up: 2 kB/s is no I/O time */
	runsum_add_tick(&acc, 0.1, 3e9, 0, 0);
	runsum_add_tick(&acc, 0.1, 1e9, 0, 0);
	runsum_add_result(&acc, &wr);
	struct sample s1 = smp(0.05, 120000, ZONE_THROTTLE);
	s1.thr_src = THR_SRC_KERNEL;
	s1.nwriters = 3;
	s1.writers[0] = (struct sample_writer){ .pid = 77, .comm = "iodash", .pauses = 1, .paused_ms = 200 };
	s1.writers[1] = (struct sample_writer){ .pid = 78, .comm = "cc1", .pauses = 1, .paused_ms = 200 };
	s1.writers[2] = (struct sample_writer){ .pid = 4243, .comm = "fio", .pauses = 2, .paused_ms = 16 };
	runsum_add_sample(&acc, &s1);
	struct sample s2 = smp(0.05, 110000, ZONE_THROTTLE);
	s2.thr_src = THR_SRC_KERNEL;
	s2.nwriters = 1;
	s2.writers[0] = (struct sample_writer){ .pid = 4242, .comm = "fio", .pauses = 3, .paused_ms = 24 };
	runsum_add_sample(&acc, &s2);
	/* the sampled zone's time is not the tracepoint's */
	struct sample s3 = smp(0.05, 100000, ZONE_THROTTLE);
	s3.nwriters = 1;
	s3.writers[0] = (struct sample_writer){ .pid = 4242, .pauses = 9, .paused_ms = 900 };
	runsum_add_sample(&acc, &s3);
	assert_int_equal(acc.own_pauses, 5);
	assert_true(fabs(acc.own_paused_ms - 40) < 1e-9);
	runsum_finish(&acc, &b, 0.45, acc.own_paused_ms, &r);
	assert_true(fabs(r.io_secs - 0.2) < 1e-9);
	assert_true(fabs(r.throttled_s - 0.04) < 1e-9);
	assert_true(fabs(r.throttled_pct - 20) < 1e-9);
	assert_int_equal(r.verdict, RV_THROTTLED);
	/* no pause of its own: the others' pauses do not make it throttled */
	runsum_finish(&acc, &b, 0.45, 0, &r);
	assert_int_equal(r.verdict, RV_DEVICE);
	/* the set is bounded: a task past it is said */
	for (int i = 0; i < RUNSUM_MAX_TASKS; i++)
		runsum_add_task(&acc, 10000 + i);
	assert_false(runsum_add_task(&acc, 99999));
	snapshot_free(&a);
	snapshot_free(&b);
	runsum_release(&acc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_run),
		cmocka_unit_test(test_cache_and_throttled),
		cmocka_unit_test(test_text_round_trip),
		cmocka_unit_test(test_own_pauses),
		cmocka_unit_test(test_na_reasons),
		cmocka_unit_test(test_episodes_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
