/* Write a synthetic recording through the real recorder: N hours at an
 * interval with D disks of which B are busy, for bench/20-record.sh.
 * The samples are made as derive_sample() makes them: whole-nanosecond
 * t and dt with jitter, the wall clock a few microseconds off the sample
 * clock, dirty levels that cross the thresholds (so hits and hit_seconds
 * carry their full digits), and per disk the /proc/diskstats deltas of a
 * busy disk over 0.5 s (thousands of IOs, hundreds of thousands of
 * sectors, the ms counters to match) or of an idle one (all zero), with
 * the figures derived from them by derive_disk_rates().  The benchmark
 * status changes every sample, as a running dbench's does.
 * Usage: gen_recording FILE HOURS INTERVAL DISKS BUSY
 *        gen_recording --open FILE   time what `iodash view` does before
 *                                    its first frame (open, index, check,
 *                                    parse the last hour of samples) */
#include <math.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/record/recording.h"
#include "iodash/sample/derive.h"
#include "iodash/record/recorder.h"

static uint64_t rnd(uint64_t lo, uint64_t hi)   /* lo..hi inclusive */
{
	return lo + (uint64_t)rand() % (hi - lo + 1);
}

static void busy_disk(struct disk_rate *d, double interval)
{
	double k = interval / 0.5;   /* the ranges are per 0.5 s */
	uint64_t r = (uint64_t)(k * (double)rnd(200, 2000)), w = (uint64_t)(k * (double)rnd(1000, 5000));

	d->delta[DS_READS] = r;
	d->delta[DS_READS_MERGED] = rnd(0, r / 4);
	d->delta[DS_SECTORS_READ] = r * rnd(8, 256);
	d->delta[DS_MS_READING] = r * rnd(1, 50) / 10;
	d->delta[DS_WRITES] = w;
	d->delta[DS_WRITES_MERGED] = rnd(0, w / 2);
	d->delta[DS_SECTORS_WRITTEN] = w * rnd(8, 128);
	d->delta[DS_MS_WRITING] = w * rnd(10, 200) / 10;
	d->delta[DS_IOS_IN_PROGRESS] = rnd(0, 64);
	d->delta[DS_MS_IO] = (uint64_t)(k * (double)rnd(400, 500));
	d->delta[DS_WEIGHTED_MS_IO] = d->delta[DS_MS_READING] + d->delta[DS_MS_WRITING];
	if (rand() % 20 == 0) {   /* an fstrim now and then */
		d->delta[DS_DISCARDS] = rnd(1, 40);
		d->delta[DS_SECTORS_DISCARDED] = d->delta[DS_DISCARDS] * rnd(8, 65536);
		d->delta[DS_MS_DISCARDING] = rnd(0, 30);
	}
	d->delta[DS_FLUSHES] = (uint64_t)(k * (double)rnd(0, 60));
	d->delta[DS_MS_FLUSHING] = d->delta[DS_FLUSHES] * rnd(0, 30) / 10;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What view_one() and its first seek to the end do: recording_open()
 * (mmap, CRC of every record, index), then the samples a screen holds
 * (VIEW_SERIES_CAP, one hour at 0.5 s) parsed, and the last benchmark
 * status.  Best of 3, as a second open finds the file in the page cache
 * like the first open of a file just written. */
static int time_open(const char *path)
{
	double best = 1e9, t_open = 0;
	size_t ns = 0;
	struct sample *s = calloc(1, sizeof(*s));
	struct bench_status b;

	if (!s)
		return 1;
	for (int k = 0; k < 3; k++) {
		struct recording *rec;
		char err[512];
		double t0 = now_s(), t1;
		if (recording_open(&rec, path, err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			free(s);
			return 1;
		}
		t1 = now_s();
		ns = recording_count(rec, RK_SAMPLE);
		for (size_t i = ns > 7200 ? ns - 7200 : 0; i < ns; i++)
			recording_sample(rec, i, s);
		if (recording_count(rec, RK_BENCH))
			recording_bench(rec, recording_count(rec, RK_BENCH) - 1, &b);
		recording_close(rec);
		if (now_s() - t0 < best) {
			best = now_s() - t0;
			t_open = t1 - t0;
		}
	}
	printf("%.3f s (open and check %.3f s, last hour of samples parsed %.3f s; %zu samples)\n",
	       best, t_open, best - t_open, ns);
	sample_free(s);
	free(s);
	return 0;
}

int main(int argc, char **argv)
{
	struct snapshot first = { .have = SNAP_HAVE_KNOBS, .realtime_ns = 1764690000123456789LL,
				  .dirty_ratio = 20, .dirty_background_ratio = 10,
				  .dirty_expire_centisecs = 3000, .dirty_writeback_centisecs = 500,
				  .page_kb = 4 };
	struct rec_meta meta = { .host = "benchbox", .kernel = "6.18.44", .command = "dbench -t 86400 16",
				 .label = "bench", .source = "live /proc", .interval = 0.5, .first = &first };
	struct recorder *r;
	struct model_observer obs;
	struct sample s = { 0 };
	struct dirty_tracker tr = { 0 };
	struct bench_status b = { .state = BENCH_RUNNING, .pid = 4242, .last_exit_status = -1,
				  .eta_s = -1, .label = "bench", .command = "dbench -D /mnt/test -t 86400 16" };
	char err[256];
	double hours, interval;
	int disks, busy;
	unsigned long n;
	uint64_t t_ns = 0, dirty_pages = 300000;
	const uint64_t bg = 607324, thresh = 1214648;   /* pages: 10 and 20 % of 24 GiB */

	if (argc == 3 && !strcmp(argv[1], "--open"))
		return time_open(argv[2]);
	if (argc != 6) {
		fprintf(stderr, "usage: %s FILE HOURS INTERVAL DISKS BUSY_DISKS\n", argv[0]);
		return 2;
	}
	hours = atof(argv[2]);
	interval = atof(argv[3]);
	disks = atoi(argv[4]);
	busy = atoi(argv[5]);
	if (interval <= 0 || disks < 0 || disks > 26) {
		fprintf(stderr, "%s: INTERVAL > 0 and DISKS 0..26 (sda..sdz)\n", argv[0]);
		return 2;
	}
	meta.interval = interval;
	if (recorder_open(&r, argv[1], REC_FORCE, &meta, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	obs = recorder_observer(r);
	n = (unsigned long)(hours * 3600 / interval);
	srand(1);
	for (unsigned long i = 0; i < n; i++) {
		/* the timer fires within a millisecond of its period */
		uint64_t dt_ns = i ? (uint64_t)(interval * 1e9) + rnd(0, 2000000) - 1000000 : 0;
		uint64_t wb_pages;

		t_ns += dt_ns;
		sample_reset(&s);
		s.seq = i;
		s.t = t_ns / 1e9;
		s.dt = dt_ns / 1e9;
		/* mono and realtime are read a few microseconds apart */
		s.realtime_ns = first.realtime_ns + (int64_t)t_ns + (int64_t)rnd(0, 9000);
		/* dirty pages wander between below bg and past freerun */
		dirty_pages = dirty_pages + rnd(0, 60000) - 30000;
		if (dirty_pages > 1150000 || dirty_pages < 100000)
			dirty_pages = 600000;
		wb_pages = rnd(0, 60000);
		s.have_dirty = true;
		s.dirty_kb = dirty_pages * 4;
		s.writeback_kb = wb_pages * 4;
		s.bg_thresh_kb = bg * 4;
		s.thresh_kb = thresh * 4;
		s.freerun_kb = dirty_freerun(thresh, bg) * 4;
		s.meminfo_dirty_kb = s.dirty_kb + rnd(0, 64);
		s.meminfo_writeback_kb = s.writeback_kb;
		s.zone = dirty_zone_of(dirty_pages, wb_pages, bg, thresh);
		s.have_psi = true;
		s.psi_io_some_avg10 = (double)rnd(0, 10000) / 100.0;
		s.psi_io_full_avg10 = (double)rnd(0, 5000) / 100.0;
		dirty_tracker_update(&tr, &s);
		for (int d = 0; d < disks; d++) {
			struct disk_rate *dr = sample_add_disk(&s);
			if (!dr)
				return 1;
			snprintf(dr->name, sizeof(dr->name), "sd%c", 'a' + d);
			if (!i)
				continue;   /* the first sample has no rates */
			dr->nfields = 17;
			if (d < busy)
				busy_disk(dr, interval);
			derive_disk_rates(dr->delta, dr->nfields, s.dt, dr);
		}
		obs.on_sample(obs.ctx, &s);
		b.ntasks = 17;
		b.throttled_tasks = s.zone >= ZONE_THROTTLE ? (int)rnd(0, 16) : 0;
		if (s.dt > 0) {
			b.write_Bps = round((double)(rnd(0, 500000) * 4096) / s.dt);
			b.wchar_Bps = round((double)(rnd(0, 800000) * 4096) / s.dt);
			b.read_Bps = round((double)(rnd(0, 1000) * 4096) / s.dt);
			b.rchar_Bps = round((double)(rnd(0, 2000) * 4096) / s.dt);
		}
		obs.on_bench(obs.ctx, &b);
		if (i % 2 == 0)
			recorder_flush(r);
	}
	recorder_close(r);
	sample_free(&s);
	return 0;
}
