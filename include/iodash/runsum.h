/* runsum: what one run measured, the disk or the page cache.
 *
 * Per run: the bytes the whole disks read and wrote during it (diskstats,
 * from a snapshot at its start and one at its end), the benchmark's own
 * throughput figure next to the device's, their ratio ("cache inflation"),
 * the peak of dirty + writeback against the freerun ceiling and the hard
 * threshold, the time writers were throttled (the balance_dirty_pages
 * tracepoint when it was followed, else the sampled zone: marked), the
 * dirty + writeback bytes left when the run ended, and a verdict:
 *
 *   throttled  writers were throttled for >= RUNSUM_THROTTLED_SHARE of the
 *              benchmark's I/O time: the figure is the writeback rate under
 *              the dirty limit
 *   cache      the benchmark's figure is > RUNSUM_CACHE_INFLATION times
 *              what the disks did over its I/O time, and dirty + writeback
 *              stayed under the freerun ceiling: the page cache absorbed it
 *   device     neither: the disks did the work
 *
 * Device throughput is the disks' bytes over the time the benchmark's
 * process tree was doing I/O (its rchar/wchar moving, seen every driver
 * tick), so a benchmark's start-up and exit do not dilute it; the run's
 * wall time when no tick saw I/O.
 *
 * The summary travels as the text of a run_summary event (key=value
 * words, docs/recording.md), so a recording keeps it and compare and view
 * read it back.  Pure code. */
#ifndef IODASH_RUNSUM_H
#define IODASH_RUNSUM_H

#include <stdbool.h>
#include <stdint.h>
#include "iodash/derive.h"
#include "iodash/result.h"
#include "iodash/snapshot.h"

#define RUNSUM_THROTTLED_SHARE 0.15
#define RUNSUM_CACHE_INFLATION 2.0

enum run_verdict { RV_UNKNOWN, RV_DEVICE, RV_CACHE, RV_THROTTLED };

struct run_summary {
	double secs;                 /* wall time of the run */
	double io_secs;              /* time the benchmark's tree did I/O (0: not seen) */
	bool have_disks;
	uint64_t read_B, write_B;    /* whole disks, during the run */
	double device_Bps;           /* (read_B + write_B) / io time */
	bool have_reported;
	double reported_Bps;         /* the benchmark's own figure */
	double inflation;            /* reported / device; INFINITY when the disks did nothing */
	bool have_dirty;
	uint64_t peak_kB;            /* dirty + writeback */
	uint64_t freerun_kB, thresh_kB;  /* at the peak */
	uint64_t end_kB;             /* dirty + writeback when the run ended */
	double throttled_s, throttled_pct;
	enum throttle_source throttle_src;
	enum run_verdict verdict;
};

/* Accumulates one run: feed it the session's samples taken during it. */
struct runsum_acc {
	struct snapshot start;
	bool have_start;
	double sampled_throttled_s;
	uint64_t peak_kB, peak_freerun_kB, peak_thresh_kB;
	bool have_dirty;
	double io_secs;
	double tree_Bps_sum;         /* benchmark tree's rchar+wchar, B/s x s */
	double reported_Bps;
	bool have_reported, reported_is_bw;
};

void runsum_begin(struct runsum_acc *a, const struct snapshot *start);
void runsum_add_sample(struct runsum_acc *a, const struct sample *s);
/* A driver tick: dt seconds in which the tree moved rw_Bps (rchar+wchar). */
void runsum_add_tick(struct runsum_acc *a, double dt, double rw_Bps);
/* A final result point of the run: its throughput figure when it has a
 * rate unit (fio's read_bw + write_bw add up; otherwise the first). */
void runsum_add_result(struct runsum_acc *a, const struct result_point *p);
/* The end: end snapshot (may be NULL: no disk figures), the run's wall
 * time, the tracepoint's paused ms during it (< 0: not followed). */
void runsum_finish(const struct runsum_acc *a, const struct snapshot *end, double secs,
		   double traced_pause_ms, struct run_summary *out);

enum run_verdict runsum_verdict(const struct run_summary *s);
const char *runsum_verdict_name(enum run_verdict v);   /* "device", "cache", "throttled", "n/a" */
/* The event text: "VERDICT: key=value ..." (fits a model line). */
void runsum_format(const struct run_summary *s, char *buf, size_t len);
/* Back from the text (after an optional "run N/M " prefix).  0 or -EINVAL. */
int runsum_parse(const char *text, struct run_summary *out);

/* A rate unit in bytes per second per unit ("MB/sec", "KiB/s"), 0 if not a rate. */
double runsum_rate_factor(const char *unit);

#endif
