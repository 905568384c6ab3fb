/* derive: pure maths from two snapshots to a sample (iostat -x figures per
 * disk and partition, dirty levels against the kernel's thresholds, the zone), and
 * the dirty-limit hit tracker.  No I/O, no globals: testable on traces. */
#ifndef IODASH_DERIVE_H
#define IODASH_DERIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iodash/sample/snapshot.h"

enum dirty_zone {
	ZONE_UNKNOWN = -1,   /* vmstat not read */
	ZONE_BELOW_BG = 0,   /* dirty <= bg_thresh: nothing happens */
	ZONE_BG_FLUSH,       /* dirty > bg_thresh: background writeback runs */
	ZONE_THROTTLE,       /* dirty+writeback > freerun: writers are paused */
	ZONE_HARD_LIMIT,     /* dirty+writeback >= thresh */
};

/* iostat -x figures of one disk (or partition) over one interval. */
struct disk_rate {
	char name[SNAP_DISK_NAME_LEN];
	bool is_partition;   /* shown under its disk, never added to it */
	bool have_rate;      /* false on a device's first sample (hotplug) and on a reset */
	bool reset;          /* its counters fell: the device was re-created */
	double r_s, w_s, rkB_s, wkB_s;
	double r_await, w_await;   /* ms; 0 when no I/O completed */
	double aqu_sz, util;       /* util in percent, 0..100 */
	double d_s, dkB_s, f_s;    /* discards and flushes, where the kernel has them */
	double rrqm_s, wrqm_s, rrqm_pct, wrqm_pct;   /* merges, and merged / (merged + done) */
	double rareq_sz, wareq_sz;                   /* kB per request */
	double drqm_s, drqm_pct, d_await, dareq_sz;  /* the same for discards (15 fields) */
	double f_await;                              /* flushes (17 fields) */
	/* The counter deltas these figures come from (wraps undone): what a
	 * recording stores, so a replay recomputes the very same figures.
	 * delta[DS_IOS_IN_PROGRESS] is that gauge's current value.  After a
	 * reset every delta is 0: a fall is never stored as a rate. */
	int nfields;               /* fields the kernel gave on both ends (4, 11, 15, 17; 0 unreadable) */
	uint32_t figures;          /* bit f: figure f (enum disk_figure) is known */
	uint64_t delta[DS_NFIELDS];
};

/* Every per-device figure of iostat -x, in one table: export, batch
 * --columns and the disk table all go through it.  The first eleven, up
 * to DF_F_S, are the ones recording format 1 stored and export wrote
 * first: keep them first and in this order. */
enum disk_figure {
	DF_R_S, DF_W_S, DF_RKB_S, DF_WKB_S, DF_R_AWAIT, DF_W_AWAIT, DF_AQU_SZ,
	DF_UTIL, DF_D_S, DF_DKB_S, DF_F_S,
	DF_RRQM_S, DF_WRQM_S, DF_RRQM_PCT, DF_WRQM_PCT, DF_RAREQ_SZ, DF_WAREQ_SZ,
	DF_DRQM_S, DF_DRQM_PCT, DF_D_AWAIT, DF_DAREQ_SZ, DF_F_AWAIT,
	DF_N
};
/* "r_s", "rrqm_pct" ...: names usable as CSV / JSON keys. */
const char *disk_figure_name(enum disk_figure f);
/* iostat's own header: "r/s", "%rrqm" ... */
const char *disk_figure_label(enum disk_figure f);
/* The figure by either name; -1 when unknown. */
int disk_figure_parse(const char *name);
/* The figure's value, or NAN when this device has none this interval
 * (no rate yet, a reset, or a field its kernel line lacks): n/a. */
double disk_rate_figure(const struct disk_rate *d, enum disk_figure f);

/* Does a diskstats line of nfields usable fields carry field f?  (4: an
 * old kernel's partition line: reads, sectors read, writes, sectors
 * written.) */
bool diskstat_has_field(int nfields, enum diskstat_field f);

struct sample {
	uint64_t seq;        /* 0 for the first sample of a session */
	double t;            /* seconds since the first sample */
	double dt;           /* seconds since the previous sample; 0 on the first */
	int64_t realtime_ns;

	bool have_dirty;     /* vmstat was read: the dirty fields are valid */
	uint64_t dirty_kb, writeback_kb;      /* from vmstat nr_dirty/nr_writeback */
	uint64_t bg_thresh_kb, freerun_kb, thresh_kb;
	uint64_t meminfo_dirty_kb, meminfo_writeback_kb;
	bool meminfo_unread; /* meminfo was not read for this sample: the two above are an
			      * earlier read's (or none), so export leaves them n/a */
	enum dirty_zone zone;

	bool have_psi;
	double psi_io_some_avg10, psi_io_full_avg10;

	/* Every device derive_sample() selected, in the kernel's order: no
	 * limit (a JBOD lists 24-90 disks, a host hundreds of namespaces).
	 * Owned and grown like a snapshot's: sample_copy(), sample_free(). */
	int ndisks;
	int disks_cap;
	struct disk_rate *disks;

	/* Throttling over this sample's interval, filled by the sampler:
	 * from the kernel's tracepoints when followed (exact), else from the
	 * zone (sampled: short pauses between samples are missed). */
	enum throttle_source { THR_SRC_NONE = 0, THR_SRC_SAMPLED, THR_SRC_KERNEL } thr_src;
	bool throttled;      /* kernel: a writer paused in the interval or an episode is open */
	uint32_t pauses;     /* kernel only: pauses > 0 in the interval */
	double paused_ms;    /* kernel only: ms writers slept in the interval, summed */
	int nwriters;        /* kernel only: the writers that paused, most ms first */
	struct sample_writer {
		int32_t pid;
		char comm[16];
		uint32_t pauses;
		double paused_ms;
	} writers[4];

	/* dirty-limit hit tracking: throttle episodes (kernel or sampled),
	 * filled by the sampler (dirty_tracker_update() for plain zone spans) */
	int hit_event;       /* +1 a hit starts at this sample, -1 it ends, 0 none */
	double hit_duration; /* on an end: seconds the hit lasted */
	unsigned hits;       /* hits so far in the session */
	double hit_seconds;  /* total time in hits so far (open hit included) */

	/* filled by the sampler: ticks of its timer that went by without a
	 * sample so far in the session (the machine was too busy) */
	uint64_t missed;
};

const char *dirty_zone_name(enum dirty_zone z);

/* Room for n devices in s->disks (kept: [0, ndisks)).  0, or -ENOMEM. */
int sample_reserve_disks(struct sample *s, int n);
/* A new zeroed device at the end of s->disks; NULL when out of memory. */
struct disk_rate *sample_add_disk(struct sample *s);
/* dst = src, dst keeping (and growing) its own disks[].  0, or -ENOMEM
 * (dst then has no disks). */
int sample_copy(struct sample *dst, const struct sample *src);
/* Zero every field of s but its disks' storage (ndisks 0). */
void sample_reset(struct sample *s);
void sample_free(struct sample *s);

/* The zone of the given levels (all in the same unit). */
enum dirty_zone dirty_zone_of(uint64_t dirty, uint64_t writeback,
			      uint64_t bg_thresh, uint64_t thresh);

/* freerun ceiling, as the kernel's dirty_freerun_ceiling(): (thresh+bg)/2 */
uint64_t dirty_freerun(uint64_t thresh, uint64_t bg_thresh);

/* Seconds until a level (kB at session times t, oldest first) reaches
 * limit_kb, by the least-squares line through the n points; -1 unless
 * the level rises steadily (at least DERIVE_TREND_MIN_POINTS points over
 * at least a second, a rising line that explains at least half of the
 * level's variance) and gets there within horizon_s and within
 * DERIVE_TREND_REACH times the points' span.  A flat, falling or
 * jittering level has no forecast, whatever the kernel dirties: pages
 * dirtied and then deleted (dbench) are never written, so dirtied minus
 * written gave "freerun in 455392.7 s" of a flat level. */
#define DERIVE_TREND_MIN_POINTS 4
#define DERIVE_TREND_REACH 10.0   /* and within 10 times the span of the points */
double derive_time_to_limit(const double *t, const double *kb, int n, double limit_kb, double horizon_s);

/* The delta of a counter the kernel prints with `bits` bits.  true with
 * *delta when cur follows prev, across a wrap at that width; false when
 * cur fell by more than a wrap explains (the modular delta would be half
 * the counter's range or more): the counter was reset. */
bool counter_delta(uint64_t prev, uint64_t cur, unsigned bits, uint64_t *delta);

/* Are these deltas impossible for one interval (a reset read as a wrap:
 * a field that moved half its range or more)?  Recordings made before
 * resets were detected hold such deltas; the reader drops them by this
 * rule, the very rule counter_delta() applies live. */
bool disk_deltas_impossible(const uint64_t delta[DS_NFIELDS], int nfields);

/* Which devices a sample lists.  Whole disks that did I/O since boot by
 * default; partitions only when asked (iostat -p). */
struct derive_opts {
	bool all_disks;            /* also disks never used since boot (iostat ALL) */
	bool all_partitions;       /* -p ALL */
	/* -p DEV[,DEV...]: these disks' partitions ("sda,nvme0n1") */
	char partitions_of[8][SNAP_DISK_NAME_LEN];
	int npartitions_of;
};

/* The iostat -x figures of one disk from its counter deltas over dt
 * seconds (fills every figure and have_rate; keeps name, delta, nfields). */
void derive_disk_rates(const uint64_t delta[DS_NFIELDS], int nfields, double dt,
		       struct disk_rate *out);

/* Fill out from cur (and prev, NULL on the first sample).  t0_mono_ns is
 * the first sample's mono time; opts NULL is the default selection.  Pure
 * but for out's disks[], grown to what cur lists.  Linear in the devices:
 * cur's device i is looked for at prev's index i first (the kernel's list
 * rarely changes), and only a list that changed is matched by name, through
 * a hash made for that sample.  0, or -ENOMEM (out then has no disks). */
int derive_sample(const struct snapshot *prev, const struct snapshot *cur,
		   uint64_t t0_mono_ns, uint64_t seq, const struct derive_opts *opts,
		   struct sample *out);

/* Parse iostat's -p argument ("ALL" or "sda,nvme0n1") into o.  0, or
 * -EINVAL with a message. */
int derive_opts_parse_partitions(struct derive_opts *o, const char *arg,
				 char *err, size_t errlen);

/* A dirty-limit hit is the span where the zone is throttle or hard_limit. */
struct dirty_tracker {
	bool in_hit;
	double start_t;
	unsigned hits;
	double closed_seconds;
};

/* Update the tracker with s (zone and t set) and fill s->hit_* fields. */
void dirty_tracker_update(struct dirty_tracker *tr, struct sample *s);

#endif
