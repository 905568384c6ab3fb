/* derive: pure maths from two snapshots to a sample (iostat -x figures per
 * whole disk, dirty levels against the kernel's thresholds, the zone), and
 * the dirty-limit hit tracker.  No I/O, no globals: testable on traces. */
#ifndef IODASH_DERIVE_H
#define IODASH_DERIVE_H

#include <stdbool.h>
#include <stdint.h>
#include "iodash/snapshot.h"

#define SAMPLE_MAX_DISKS 16

enum dirty_zone {
	ZONE_UNKNOWN = -1,   /* vmstat not read */
	ZONE_BELOW_BG = 0,   /* dirty <= bg_thresh: nothing happens */
	ZONE_BG_FLUSH,       /* dirty > bg_thresh: background writeback runs */
	ZONE_THROTTLE,       /* dirty+writeback > freerun: writers are paused */
	ZONE_HARD_LIMIT,     /* dirty+writeback >= thresh */
};

/* iostat -x figures of one whole disk over one interval. */
struct disk_rate {
	char name[SNAP_DISK_NAME_LEN];
	bool have_rate;      /* false on a device's first sample (hotplug) */
	double r_s, w_s, rkB_s, wkB_s;
	double r_await, w_await;   /* ms; 0 when no I/O completed */
	double aqu_sz, util;       /* util in percent, 0..100 */
	double d_s, dkB_s, f_s;    /* discards and flushes, where the kernel has them */
	/* The counter deltas these figures come from (wraps undone): what a
	 * recording stores, so a replay recomputes the very same figures.
	 * delta[DS_IOS_IN_PROGRESS] is that gauge's current value. */
	int nfields;               /* fields the kernel gave on both ends */
	uint64_t delta[DS_NFIELDS];
};

struct sample {
	uint64_t seq;        /* 0 for the first sample of a session */
	double t;            /* seconds since the first sample */
	double dt;           /* seconds since the previous sample; 0 on the first */
	int64_t realtime_ns;

	bool have_dirty;     /* vmstat was read: the dirty fields are valid */
	uint64_t dirty_kb, writeback_kb;      /* from vmstat nr_dirty/nr_writeback */
	uint64_t bg_thresh_kb, freerun_kb, thresh_kb;
	uint64_t meminfo_dirty_kb, meminfo_writeback_kb;
	enum dirty_zone zone;

	bool have_psi;
	double psi_io_some_avg10, psi_io_full_avg10;

	int ndisks;
	struct disk_rate disks[SAMPLE_MAX_DISKS];

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
};

const char *dirty_zone_name(enum dirty_zone z);

/* The zone of the given levels (all in the same unit). */
enum dirty_zone dirty_zone_of(uint64_t dirty, uint64_t writeback,
			      uint64_t bg_thresh, uint64_t thresh);

/* freerun ceiling, as the kernel's dirty_freerun_ceiling(): (thresh+bg)/2 */
uint64_t dirty_freerun(uint64_t thresh, uint64_t bg_thresh);

/* Delta of a counter the kernel prints with `bits` bits, across a wrap. */
uint64_t counter_delta(uint64_t prev, uint64_t cur, unsigned bits);

/* The iostat -x figures of one disk from its counter deltas over dt
 * seconds (fills every figure and have_rate; keeps name, delta, nfields). */
void derive_disk_rates(const uint64_t delta[DS_NFIELDS], int nfields, double dt,
		       struct disk_rate *out);

/* Fill out from cur (and prev, NULL on the first sample).  t0_mono_ns is
 * the first sample's mono time.  Pure. */
void derive_sample(const struct snapshot *prev, const struct snapshot *cur,
		   uint64_t t0_mono_ns, uint64_t seq, struct sample *out);

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
