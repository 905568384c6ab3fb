/* runsum: what one run measured, the disk or the page cache.
 *
 * Per run: the bytes the whole disks read and wrote during it (diskstats,
 * from a snapshot at its start and one at its end), the benchmark's own
 * throughput figure next to the device's, their ratio ("cache inflation"),
 * the peak of dirty + writeback against the freerun ceiling and the hard
 * threshold, the time the benchmark was throttled (its tasks' pauses from
 * the balance_dirty_pages tracepoint when it was followed, else the share
 * of driver ticks that found one asleep there: marked), the
 * dirty + writeback bytes left when the run ended, and a verdict:
 *
 *   throttled  balance_dirty_pages set the figure: the dirty limit was
 *              reached (the kernel paused the benchmark's own tasks, which
 *              it does only over freerun) and the benchmark spent
 *              >= RUNSUM_THROTTLED_SHARE of its I/O time paused
 *   cache      not throttled (its pauses, if any, stayed within that
 *              budget) and the benchmark's figure is
 *              > RUNSUM_CACHE_INFLATION times what the disks did over its
 *              I/O time: the page cache took the writes, or served the reads
 *   device     neither: the disks did the work
 *   n/a        no evidence, with the reason (enum run_na): the run failed
 *              or was stopped (its figures are of a broken run), it did no
 *              I/O (no tick saw its tree move data or block, and it
 *              reported no rate), or there are no disk figures
 *
 * Device throughput is the disks' bytes over the time the benchmark's
 * process tree was doing I/O (its rchar/wchar moving, seen every driver
 * tick), so a benchmark's start-up and exit do not dilute it; the run's
 * wall time when no tick saw I/O.  A tick counts as I/O time when the tree
 * moved at least RUNSUM_IO_FLOOR_BPS or a task of it waited in state D (a
 * write waiting on the disk, a writer paused): a benchmark's start-up reads
 * of a few kB (fio: 2 kB/s for 0.2 s before a 0.15 s write) are not.
 *
 * The kernel's pauses counted are those of the benchmark's own tasks (its
 * session: the tasks a driver tick saw, or alive in the session when their
 * pause was read), not every writer's: under a low dirty limit the
 * session's own recorder and other users' compilers pause too (200 ms
 * each in a 0.5 s run, measured), and would make any run look throttled.
 * Sampled, the dirty level over freerun is the machine's, not the
 * benchmark's: it is the figure only when no tick saw the tree.
 *
 * The summary travels as the text of a run_summary event (key=value
 * words, docs/recording.md), so a recording keeps it and compare and view
 * read it back.  Pure code. */
#ifndef IODASH_RUNSUM_H
#define IODASH_RUNSUM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "iodash/sample/derive.h"
#include "iodash/parsers/result_set.h"
#include "iodash/sample/snapshot.h"

#define RUNSUM_THROTTLED_SHARE 0.15
#define RUNSUM_CACHE_INFLATION 2.0
#define RUNSUM_IO_FLOOR_BPS 65536.0
#define RUNSUM_TREE_MIN_B 1048576.0  /* a tree's total below this is start-up, not I/O */
#define RUNSUM_MAX_TASKS 1024

enum run_verdict { RV_UNKNOWN, RV_DEVICE, RV_CACHE, RV_THROTTLED };
/* why a verdict is n/a */
enum run_na { RNA_NONE, RNA_NO_IO, RNA_FAILED, RNA_STOPPED, RNA_NO_DISKS };
/* how the run ended, as its driver saw it */
enum run_end_kind { RUN_ENDED_OK, RUN_ENDED_FAILED, RUN_ENDED_STOPPED };

/* The run's throttle episodes (the session's episodes end at a run's
 * start and end, so each belongs to one run). */
struct run_episodes {
	bool have;                   /* followed (else nothing is said) */
	unsigned count;
	double first_s;              /* first start, seconds after the run's start; < 0 none */
	double paused_s;             /* every writer's pauses in them */
	double duty_pct;             /* the busiest writer's paused time over their length */
};

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
	enum run_na na;              /* with RV_UNKNOWN: why */
	enum run_end_kind ended;
	struct run_episodes eps;
};

/* Accumulates one run: feed it the session's samples taken during it. */
struct runsum_acc {
	struct snapshot start;
	bool have_start;
	double sampled_throttled_s;
	uint64_t peak_kB, peak_freerun_kB, peak_thresh_kB;
	bool have_dirty;
	double io_secs;
	int ticks;                   /* driver ticks that scanned the tree */
	double caught_s;             /* ticks that found a task of it in balance_dirty_pages */
	double tree_Bps_sum;         /* benchmark tree's rchar+wchar, B/s x s */
	double reported_Bps;
	bool have_reported, reported_is_bw;
	/* the benchmark's own tasks (pids and tids), and their kernel pauses */
	int ntasks;
	pid_t tasks[RUNSUM_MAX_TASKS];
	uint32_t own_pauses;
	double own_paused_ms;
	enum run_end_kind ended;     /* runsum_set_end() */
	bool have_tree_total;
	double tree_total_B;         /* rchar + wchar of the whole tree at its exit */
	struct run_episodes eps;     /* runsum_set_episodes() */
};

void runsum_begin(struct runsum_acc *a, const struct snapshot *start);
/* Free what the accumulator holds (its start snapshot's devices); a
 * zeroed or released one may be begun again. */
void runsum_release(struct runsum_acc *a);
/* A sample of the session; with the tracepoint, the pauses of the writers
 * that runsum_add_task() named are the benchmark's. */
void runsum_add_sample(struct runsum_acc *a, const struct sample *s);
/* A task (pid or tid) of the benchmark; false when the set is full. */
bool runsum_add_task(struct runsum_acc *a, pid_t tid);
bool runsum_has_task(const struct runsum_acc *a, pid_t tid);
/* A driver tick: dt seconds in which the tree moved rw_Bps (rchar+wchar);
 * blocked_tasks of its tasks the tick found in state D, paused_tasks of
 * them asleep in balance_dirty_pages.  I/O time: a tick that moved at
 * least RUNSUM_IO_FLOOR_BPS or found a task blocked. */
void runsum_add_tick(struct runsum_acc *a, double dt, double rw_Bps, int blocked_tasks, int paused_tasks);
/* A final result point of the run: its throughput figure when it has a
 * rate unit (fio's read_bw + write_bw add up; otherwise the first). */
void runsum_add_result(struct runsum_acc *a, const struct result_point *p);
/* How the run ended, and its episodes; before runsum_finish(). */
void runsum_set_end(struct runsum_acc *a, enum run_end_kind how);
/* What the whole tree read and wrote (rchar + wchar, its leader's
 * /proc/PID/io at its exit): the evidence of a run too short for a tick. */
void runsum_set_tree_total(struct runsum_acc *a, double bytes);
void runsum_set_episodes(struct runsum_acc *a, const struct run_episodes *e);
/* The end: end snapshot (may be NULL: no disk figures), the run's wall
 * time, the ms the tracepoint saw the benchmark's own tasks paused during
 * it (a->own_paused_ms; < 0: not followed). */
void runsum_finish(const struct runsum_acc *a, const struct snapshot *end, double secs,
		   double traced_pause_ms, struct run_summary *out);

enum run_verdict runsum_verdict(const struct run_summary *s);
/* Why s has no verdict (RNA_NONE: it has one). */
enum run_na runsum_na_reason(const struct run_summary *s);
const char *runsum_verdict_name(enum run_verdict v);   /* "device", "cache", "throttled", "n/a" */
const char *runsum_na_name(enum run_na n);    /* "no_io", "failed", "stopped", "no_disks"; "" none */
/* The event text: "VERDICT: key=value ..." (fits a model line); an n/a
 * verdict says why first: "n/a: why=no_io ...". */
void runsum_format(const struct run_summary *s, char *buf, size_t len);
/* Back from the text (after an optional "run N/M " prefix).  0 or -EINVAL. */
int runsum_parse(const char *text, struct run_summary *out);

#endif
