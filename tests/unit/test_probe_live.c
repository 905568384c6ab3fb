/* probe on this machine: libproc2 (probe_open_live) and the file reader
 * (probe_open_root("/proc")) read the live /proc within a few ms and must
 * agree; a block device that vanishes is dropped although libproc2's reap
 * keeps listing it; a /proc/diskstats of many pages is read to its end. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fcntl.h>
#include <sys/ioctl.h>
#include <linux/loop.h>

#include <libproc2/diskstats.h>

#include "iodash/probe/probe.h"

struct triple {
	struct snapshot l1, d, l2;      /* live, dir, live again */
};

static void read_triple(struct probe *live, struct probe *dir, struct triple *t)
{
	char err[512] = "";

	if (probe_read(live, &t->l1, err, sizeof(err)))
		fail_msg("live: %s", err);
	if (probe_read(dir, &t->d, err, sizeof(err)))
		fail_msg("/proc as a root: %s", err);
	if (probe_read(live, &t->l2, err, sizeof(err)))
		fail_msg("live: %s", err);
}

/* A level the kernel moves all the time: the file reader's value must lie
 * between the two live reads around it, give or take `slack`. */
static void check_gauge(const char *what, uint64_t l1, uint64_t d, uint64_t l2, uint64_t slack)
{
	uint64_t lo = l1 < l2 ? l1 : l2, hi = l1 < l2 ? l2 : l1;

	lo = lo > slack ? lo - slack : 0;
	hi += slack;
	if (d < lo || d > hi)
		fail_msg("%s: live %llu / %llu, file reader %llu (allowed %llu..%llu)", what,
			 (unsigned long long)l1, (unsigned long long)l2,
			 (unsigned long long)d, (unsigned long long)lo, (unsigned long long)hi);
}

/* A counter only grows: the file reader read between the two live reads. */
static void check_counter(const char *what, uint64_t l1, uint64_t d, uint64_t l2)
{
	if (d < l1 || d > l2)
		fail_msg("%s: live %llu then %llu, but the file reader in between read %llu", what,
			 (unsigned long long)l1, (unsigned long long)l2, (unsigned long long)d);
}

static void test_live_agrees_with_file_reader(void **state)
{
	struct triple *t = calloc(1, sizeof(*t));
	struct probe *live = NULL, *dir = NULL;
	char err[512] = "";
	int tries = 0;
	bool stable = false;
	(void)state;

	if (probe_open_live(&live, err, sizeof(err)))
		fail_msg("%s", err);
	if (probe_open_root(&dir, "/proc", err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(probe_kind(live), PROBE_LIVE);
	assert_int_equal(probe_kind(dir), PROBE_PROC_DIR);
	assert_true(probe_trace_next_offset(live) < 0);

	/* The thresholds follow free memory page by page; under a benchmark
	 * they move between any two reads.  Look for a window where they held
	 * still: there, the file reader must give exactly the same. */
	while (tries++ < 50) {
		read_triple(live, dir, t);
		if (t->l1.nr_dirty_threshold == t->l2.nr_dirty_threshold &&
		    t->l1.nr_dirty_background_threshold == t->l2.nr_dirty_background_threshold) {
			stable = true;
			break;
		}
	}
	print_message("    %d tries; live->file %.3f ms, file->live %.3f ms; thresholds %s\n",
		      tries, (t->d.mono_ns - t->l1.mono_ns) / 1e6, (t->l2.mono_ns - t->d.mono_ns) / 1e6,
		      stable ? "held still" : "kept moving: compared as levels");
	/* "within a few ms" */
	assert_true(t->d.mono_ns > t->l1.mono_ns && t->l2.mono_ns > t->d.mono_ns);
	assert_true(t->l2.mono_ns - t->l1.mono_ns < 20000000ull);
	assert_true(t->d.realtime_ns > t->l1.realtime_ns - 1000000 &&
		    t->d.realtime_ns < t->l2.realtime_ns + 1000000);

	assert_int_equal(t->l1.have, t->d.have);
	assert_true(t->l1.have & SNAP_HAVE_VMSTAT);
	assert_true(t->l1.have & SNAP_HAVE_MEMINFO);
	assert_true(t->l1.have & SNAP_HAVE_DISKS);
	assert_true(t->l1.have & SNAP_HAVE_KNOBS);
	assert_int_equal(t->l1.page_kb, t->d.page_kb);
	assert_int_equal(t->l1.page_kb, (unsigned)(sysconf(_SC_PAGESIZE) / 1024));

	/* knobs: equal */
	assert_int_equal(t->l1.dirty_background_bytes, t->d.dirty_background_bytes);
	assert_int_equal(t->l1.dirty_bytes, t->d.dirty_bytes);
	assert_int_equal(t->l1.dirty_background_ratio, t->d.dirty_background_ratio);
	assert_int_equal(t->l1.dirty_ratio, t->d.dirty_ratio);
	assert_int_equal(t->l1.dirty_expire_centisecs, t->d.dirty_expire_centisecs);
	assert_int_equal(t->l1.dirty_writeback_centisecs, t->d.dirty_writeback_centisecs);

	/* thresholds: equal while they hold still */
	if (stable) {
		assert_int_equal(t->l1.nr_dirty_threshold, t->d.nr_dirty_threshold);
		assert_int_equal(t->l1.nr_dirty_background_threshold, t->d.nr_dirty_background_threshold);
	} else {
		check_gauge("nr_dirty_threshold", t->l1.nr_dirty_threshold, t->d.nr_dirty_threshold,
			    t->l2.nr_dirty_threshold, t->l1.nr_dirty_threshold / 200);
		check_gauge("nr_dirty_background_threshold", t->l1.nr_dirty_background_threshold,
			    t->d.nr_dirty_background_threshold, t->l2.nr_dirty_background_threshold,
			    t->l1.nr_dirty_background_threshold / 200);
	}

	/* levels: within what moved between the live reads, plus a little
	 * (256 pages / 1 MiB) for what moved between our two reads of each */
	check_gauge("nr_dirty", t->l1.nr_dirty, t->d.nr_dirty, t->l2.nr_dirty, 256);
	check_gauge("nr_writeback", t->l1.nr_writeback, t->d.nr_writeback, t->l2.nr_writeback, 256);
	check_gauge("Dirty", t->l1.dirty_kb, t->d.dirty_kb, t->l2.dirty_kb, 1024);
	check_gauge("Writeback", t->l1.writeback_kb, t->d.writeback_kb, t->l2.writeback_kb, 1024);
	assert_int_equal(t->l1.mem_total_kb, t->d.mem_total_kb);
	check_gauge("MemFree", t->l1.mem_free_kb, t->d.mem_free_kb, t->l2.mem_free_kb,
		    t->l1.mem_total_kb / 100);
	check_gauge("MemAvailable", t->l1.mem_available_kb, t->d.mem_available_kb,
		    t->l2.mem_available_kb, t->l1.mem_total_kb / 100);
	check_gauge("Cached", t->l1.cached_kb, t->d.cached_kb, t->l2.cached_kb,
		    t->l1.mem_total_kb / 100);
	check_counter("nr_dirtied", t->l1.nr_dirtied, t->d.nr_dirtied, t->l2.nr_dirtied);
	check_counter("nr_written", t->l1.nr_written, t->d.nr_written, t->l2.nr_written);
	check_counter("pgpgin", t->l1.pgpgin, t->d.pgpgin, t->l2.pgpgin);
	check_counter("pgpgout", t->l1.pgpgout, t->d.pgpgout, t->l2.pgpgout);
	if (t->l1.have & SNAP_HAVE_PSI_IO) {
		check_counter("psi some total", t->l1.psi_io_some_total_us, t->d.psi_io_some_total_us,
			      t->l2.psi_io_some_total_us);
		check_counter("psi full total", t->l1.psi_io_full_total_us, t->d.psi_io_full_total_us,
			      t->l2.psi_io_full_total_us);
	}

	/* disks: the same set, and every counter between the live reads */
	assert_true(t->l1.ndisks > 0);
	assert_int_equal(t->l1.ndisks, t->d.ndisks);
	assert_int_equal(t->l2.ndisks, t->d.ndisks);
	for (int i = 0; i < t->d.ndisks; i++) {
		const struct snap_disk *dd = &t->d.disks[i];
		const struct snap_disk *a = snapshot_find_disk(&t->l1, dd->name);
		const struct snap_disk *b = snapshot_find_disk(&t->l2, dd->name);
		char what[64];

		if (!a || !b)
			fail_msg("disk %s: only the file reader has it", dd->name);
		/* libproc2 asks /sys/block, the file reader the kernel's naming rule */
		assert_int_equal(a->is_partition, dd->is_partition);
		assert_int_equal(a->major, dd->major);
		assert_int_equal(a->minor, dd->minor);
		assert_int_equal(a->nfields, dd->nfields);
		for (int f = 0; f < dd->nfields; f++) {
			snprintf(what, sizeof(what), "%s field %d", dd->name, f + 1);
			if (f == DS_IOS_IN_PROGRESS)
				check_gauge(what, a->f[f], dd->f[f], b->f[f], 256);
			else
				check_counter(what, a->f[f], dd->f[f], b->f[f]);
		}
	}
	probe_close(live);
	probe_close(dir);
	snapshot_free(&t->l1);
	snapshot_free(&t->d);
	snapshot_free(&t->l2);
	free(t);
}

/* The live probe re-reads every time (a _get would give the same values
 * for up to a second): dirty 8 MiB of page cache between two reads a few
 * ms apart and nr_dirtied must show it at once. */
static void test_live_rereads(void **state)
{
	struct snapshot *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char path[] = "/var/tmp/iodash-probe-dirty.XXXXXX";
	static char block[1 << 20];
	struct probe *live;
	char err[512];
	int fd;
	(void)state;

	memset(block, 0x5a, sizeof(block));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(probe_open_live(&live, err, sizeof(err)), 0);
	assert_int_equal(probe_read(live, a, err, sizeof(err)), 0);
	for (int i = 0; i < 8; i++)
		assert_int_equal(write(fd, block, sizeof(block)), (ssize_t)sizeof(block));
	assert_int_equal(probe_read(live, b, err, sizeof(err)), 0);
	close(fd);
	print_message("    nr_dirtied +%llu pages in %.3f ms\n",
		      (unsigned long long)(b->nr_dirtied - a->nr_dirtied),
		      (b->mono_ns - a->mono_ns) / 1e6);
	assert_true(b->mono_ns > a->mono_ns);
	/* 2048 pages written; per-cpu counters may hold back a few hundred */
	assert_true(b->nr_dirtied >= a->nr_dirtied + 1024);
	probe_close(live);
	snapshot_free(a);
	snapshot_free(b);
	free(a);
	free(b);
}

static bool reap_has(struct diskstats_info *ds, const char *name)
{
	enum diskstats_item items[] = { DISKSTATS_NAME };
	struct diskstats_reaped *r = procps_diskstats_reap(ds, items, 1);

	for (int i = 0; r && i < r->total; i++)
		if (strcmp(DISKSTATS_VAL(0, str, r->stacks[i], ds), name) == 0)
			return true;
	return false;
}

/* A zram device added then removed: our snapshot drops it at once. */
static void test_live_vanished_disk_dropped(void **state)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	struct diskstats_info *ds = NULL;
	struct probe *live;
	char err[512], name[32];
	FILE *f;
	int id = -1;
	(void)state;

	if (geteuid() != 0 || access("/sys/class/zram-control/hot_add", R_OK) != 0) {
		snapshot_free(s);
		free(s);
		print_message("    needs root and /sys/class/zram-control to add and remove a disk\n");
		skip();
	}
	assert_int_equal(probe_open_live(&live, err, sizeof(err)), 0);
	assert_int_equal(procps_diskstats_new(&ds), 0);
	f = fopen("/sys/class/zram-control/hot_add", "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%d", &id), 1);
	fclose(f);
	snprintf(name, sizeof(name), "zram%d", id);

	assert_int_equal(probe_read(live, s, err, sizeof(err)), 0);
	bool seen_added = snapshot_find_disk(s, name) != NULL;
	bool reap_added = reap_has(ds, name);

	f = fopen("/sys/class/zram-control/hot_remove", "w");
	assert_non_null(f);
	fprintf(f, "%d\n", id);
	assert_int_equal(fclose(f), 0);

	assert_int_equal(probe_read(live, s, err, sizeof(err)), 0);
	bool seen_removed = snapshot_find_disk(s, name) != NULL;
	bool reap_removed = reap_has(ds, name);
	print_message("    %s: libproc2 reap lists it after removal: %s\n", name,
		      reap_removed ? "yes (the pitfall)" : "no");
	procps_diskstats_unref(&ds);
	probe_close(live);
	snapshot_free(s);
	free(s);
	assert_true(seen_added);
	assert_true(reap_added);
	assert_false(seen_removed);
}

/* A /proc/diskstats longer than a page: procfs gives about a page a read,
 * and a reader that took a short read for the end saw 72 of 1,026 devices.
 * 160 loop devices are added (numbers no device has, from 7000) and
 * removed again; each must be in the live probe's snapshot. */
#define LONG_LOOPS 160

/* Removes the loop devices the test added.  A device that udev (or a
 * reader of /dev) holds open for a moment refuses with EBUSY: it is tried
 * again for up to 2 s, and what is still left is named, so that a run
 * never leaves devices behind unsaid.  Returns how many are left. */
static int loops_remove(int ctl, const int *added, int nadded)
{
	int left = 0;
	for (int i = 0; i < nadded; i++) {
		int tries = 0;
		while (ioctl(ctl, LOOP_CTL_REMOVE, added[i]) < 0) {
			if (errno != EBUSY || ++tries > 100) {
				print_message("    loop%d (added by this test) not removed: %s; remove it "
					      "with LOOP_CTL_REMOVE %d on /dev/loop-control\n",
					      added[i], strerror(errno), added[i]);
				left++;
				break;
			}
			usleep(20000);
		}
	}
	return left;
}
static void test_live_reads_long_diskstats(void **state)
{
	struct snapshot *s = calloc(1, sizeof(*s));
	struct probe *live;
	char err[512], name[32];
	int added[LONG_LOOPS], nadded = 0, ctl = -1;
	(void)state;

	if (geteuid() != 0 || (ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC)) < 0) {
		free(s);
		print_message("    needs root and /dev/loop-control to add loop devices\n");
		skip();
	}
	for (int n = 7000; n < 7000 + 4 * LONG_LOOPS && nadded < LONG_LOOPS; n++) {
		snprintf(name, sizeof(name), "/sys/block/loop%d", n);
		if (access(name, F_OK) == 0)
			continue;       /* someone else's: never touched */
		if (ioctl(ctl, LOOP_CTL_ADD, n) == n)
			added[nadded++] = n;
	}
	int rc_open = probe_open_live(&live, err, sizeof(err));
	int rc_read = rc_open ? rc_open : probe_read(live, s, err, sizeof(err));
	int found = 0;
	for (int i = 0; i < nadded; i++) {
		snprintf(name, sizeof(name), "loop%d", added[i]);
		found += snapshot_find_disk(s, name) != NULL;
	}
	int ndisks = s->ndisks;
	int left = loops_remove(ctl, added, nadded);
	close(ctl);
	if (!rc_open)
		probe_close(live);
	snapshot_free(s);
	free(s);
	print_message("    %d loop devices added, %d of them in a snapshot of %d devices\n", nadded, found,
		      ndisks);
	assert_int_equal(rc_read, 0);
	assert_true(nadded >= LONG_LOOPS / 2);
	assert_int_equal(found, nadded);
	assert_int_equal(left, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_agrees_with_file_reader),
		cmocka_unit_test(test_live_rereads),
		cmocka_unit_test(test_live_vanished_disk_dropped),
		cmocka_unit_test(test_live_reads_long_diskstats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
