/* history: what the live graphs show of a session, folded as the samples
 * arrive (under the model's lock, by whoever adds a sample), so the
 * screen never keeps or walks the samples themselves.
 *
 * A bucket stands for k samples, k = one refresh period (the screen's
 * first -r) at the session's own sampling interval, as a graph
 * sub-column does: rates by their mean, the dirty level by its peak,
 * the thresholds as last seen, the zone at its worst.  The last
 * HIST_MARKS samples' zones are kept apart for the zone badge (the worst
 * of one refresh period).
 *
 * Memory is fixed whatever the sampling rate: a 120-column screen at
 * -i 0.01 held 16,384 copied points (3.1 MB), and the model 4,096 whole
 * samples (25 MB), to draw the same graphs.  The disks' rates are held
 * by slot, a row of HIST_BUCKETS each, apart from the buckets: a row is
 * first written when its slot is taken, so a machine with one disk
 * touches the pages of one row, not of HIST_DISKS.  Pure: unit-tested. */
#ifndef IODASH_HISTORY_H
#define IODASH_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iodash/sample/derive.h"

/* Graph rows: the disks a screen can draw a graph for (a 40-line screen
 * fits a dozen), not the disks a sample holds (any number): a disk with a
 * rate takes a free row; when none is free a disk doing I/O takes the row
 * of a disk gone, else of one that never did any. */
#define HIST_DISKS 32
#define HIST_BUCKETS 512    /* two sub-columns a column of a 256-column graph */
#define HIST_MARKS 1024     /* -r 10 at -i 0.01 */

/* One graph sub-column (or, with k 1, one sample), but its rates
 * (history_rate). */
struct hist_bucket {
	uint64_t index;              /* the bucket's number since the history began */
	uint64_t seq;                /* its first sample's */
	double t;
	int n;                       /* samples folded in */
	bool have_dirty;
	int zone;
	bool kernel, throttled;      /* throttling from the tracepoints; a writer paused */
	double level_kb, bg_kb, freerun_kb, thresh_kb;
};

/* A sample's part in the zone badge. */
struct hist_mark {
	double t;
	signed char zone;
	bool have_dirty, throttled;
};

struct history {
	double width;                /* seconds a bucket stands for */
	int k;                       /* samples a bucket; 0 until the second sample says the interval */
	uint64_t epoch;              /* +1 at each clear: a copy then starts over */
	uint64_t nsamples;           /* folded since the clear */
	uint64_t seq0, seq_last;     /* the first and the newest folded */
	double t0, t_last;
	uint64_t nclosed;            /* buckets 0 .. nclosed-1 are complete */
	struct hist_bucket open;     /* the bucket being filled (open.n 0: none) */
	double rd_sum[HIST_DISKS], wr_sum[HIST_DISKS];
	int nrate[HIST_DISKS];
	int nslots;                  /* disk slots named so far */
	char disk[HIST_DISKS][SNAP_DISK_NAME_LEN];
	uint64_t slot_seen[HIST_DISKS];   /* the last sample (seq + 1) that listed the slot's disk */
	uint64_t slot_busy[HIST_DISKS];   /* the last (seq + 1) it did I/O; 0 never */
	int slot_at[HIST_DISKS];     /* its index in that sample; -1 gone (looked for again
				      * when a sample lists another number of devices) */
	int last_ndisks;
	uint64_t nmarks;             /* marks[nmarks % HIST_MARKS] is the next */
	struct hist_mark marks[HIST_MARKS];
	struct hist_bucket ring[HIST_BUCKETS];   /* bucket b at ring[b % HIST_BUCKETS] */
	/* kB/s of bucket b in slot d: rd[d][b % HIST_BUCKETS]; NAN: no rate.
	 * Rows of slots >= nslots are never read nor written. */
	float rd[HIST_DISKS][HIST_BUCKETS], wr[HIST_DISKS][HIST_BUCKETS];
};

/* Empty, with buckets of `width` seconds (<= 0: one sample each).  The
 * rate rows are left as they are (untouched memory stays untouched). */
void history_init(struct history *h, double width);
/* Forget every sample (a replay's seek); the width stays. */
void history_clear(struct history *h);
/* Fold one sample in; a sample whose seq is not after the last is ignored. */
void history_fold(struct history *h, const struct sample *s);
/* Bring dst up to src, copying only what changed since dst was last
 * brought up (the whole when src was cleared since, or dst is new). */
void history_copy(struct history *dst, const struct history *src);
/* Complete bucket b, or NULL when not held or no sample fell in it. */
const struct hist_bucket *history_bucket(const struct history *h, uint64_t b);
/* The mean read or write rate (kB/s) of slot's disk over complete bucket
 * b; NAN when the bucket is not held or the disk had no rate in it. */
float history_rate(const struct history *h, uint64_t b, int slot, bool write);
/* The slot of a disk's rates in the buckets, or -1. */
int history_slot(const struct history *h, const char *disk);
/* Seconds between samples over the history; < 0 before two samples. */
double history_period(const struct history *h);

#endif
