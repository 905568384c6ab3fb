/* ktrace: throttling as the kernel sees it.  Follows the writeback
 * tracepoints system-wide in a private tracefs instance, read in binary
 * from the per-CPU ring buffers through libtracefs/libtraceevent, fields
 * taken by name from each event's format:
 *
 *   writeback:balance_dirty_pages   a writer paused (pause > 0 ms), who,
 *                                   on which bdi, in which cgroup
 *   writeback:bdi_dirty_ratelimit   the control loop of one bdi
 *   writeback:global_dirty_state    the dirty level and limits at the
 *                                   moment the kernel decided
 *
 * The instance is named iodash-PID (iodash-PID-N if another PID namespace
 * already has that name) and uses trace_clock mono, so event times are
 * CLOCK_MONOTONIC and join with the samples.  It is removed on close, at
 * exit and on a fatal signal; one left by a killed iodash is removed by
 * the next one.  tracefs is mounted if it was not, and unmounted again.
 *
 * The sampler drains the buffers at each tick (ktrace_collect), and a
 * reader thread every 2 s so that they never fill between the ticks of a
 * long interval: never one wake-up per event (global_dirty_state alone
 * comes ~1,200 times a second under a writer).  The CPUs' events are used
 * in time order, up to the time a drain began (ktrace_order_events). */
#ifndef IODASH_KTRACE_H
#define IODASH_KTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "iodash/throttle/episode.h"

#define KT_MAX_WRITERS 8
#define KT_MAX_CUTS 4
#define KT_MAX_TRANSITIONS (8 + KT_MAX_CUTS)
#define KT_CGROUP_LEN 64

/* One writer over one window (between two collects). */
struct kt_writer_rate {
	int32_t pid;
	char comm[THR_COMM_LEN];
	char bdi[THR_BDI_LEN];
	uint64_t cgroup_ino;
	char cgroup[KT_CGROUP_LEN];  /* path under the cgroup2 mount, "?" unknown */
	uint32_t pauses;
	double paused_ms;
	uint64_t dirtied_pages;      /* summed `dirtied` of its events */
	uint64_t task_ratelimit;     /* KiB/s, its last event's */
};

/* The control loop of one bdi (bdi_dirty_ratelimit, the last of the
 * window), with setpoint and dirty from that bdi's last pause event. */
struct kt_loop {
	bool have;
	char bdi[THR_BDI_LEN];
	uint64_t write_bw, dirty_rate, dirty_ratelimit, task_ratelimit, balanced_ratelimit; /* KiB/s */
	uint64_t setpoint, dirty, limit;   /* pages; 0 when no pause event came */
};

/* A run's start or end (or a knob change): episodes end there. */
enum kt_cut_kind { KT_CUT_RUN_START, KT_CUT_RUN_END };
struct kt_cut {
	uint64_t at_ns;              /* CLOCK_MONOTONIC */
	int kind;                    /* enum kt_cut_kind */
	unsigned ticket;             /* the asker's number, said back when applied */
};

struct kt_transition {
	int kind;                    /* THR_STARTED, THR_CLOSED or THR_CUT */
	struct thr_episode ep;       /* at the start: as it began (first pause) */
	struct kt_cut cut;           /* THR_CUT */
};

struct kt_window {
	uint64_t to_ns;              /* CLOCK_MONOTONIC of this collect */
	uint32_t pauses;
	double paused_ms;
	int nwriters;
	uint32_t writers_dropped;
	struct kt_writer_rate writers[KT_MAX_WRITERS];  /* most ms paused first */
	struct kt_loop loop;         /* the bdi with the most pauses (or the last seen) */
	bool in_episode;             /* an episode is open at to_ns */
	int ntrans;
	uint32_t trans_dropped;
	unsigned cuts_done;          /* ticket of the last cut applied in the window, 0 none */
	struct kt_transition trans[KT_MAX_TRANSITIONS];
	uint64_t lost_events;        /* the kernel dropped these (buffer full) */
};

/* dst = src, the arrays' used entries only (the window is 12 KB, a few
 * hundred bytes of it in use: copied whole twice a sample, it was a
 * fifth of the sampler's work). */
void kt_window_copy(struct kt_window *dst, const struct kt_window *src);

/* One decoded event, as the drains give it: the CPUs' streams, merged by
 * time before use (ktrace_order_events). */
enum kt_kind { KR_PAUSE, KR_RATELIMIT, KR_GLOBAL };
struct kt_rec {
	enum kt_kind kind;
	union {
		struct thr_pause p;
		struct { uint64_t ts_ns; char bdi[THR_BDI_LEN]; uint64_t write_bw, dirty_rate,
			 dirty_ratelimit, task_ratelimit, balanced; } r;
		struct { uint64_t ts_ns; uint64_t nr_dirty, nr_writeback, limit; } g;
	} u;
};
/* Sort recs[0..n) by time and say how many are at or before horizon_ns
 * (those are used now; the rest wait for the next drain).  Pure. */
size_t ktrace_order_events(struct kt_rec *recs, size_t n, uint64_t horizon_ns);

struct ktrace;

/* Root only.  0, or -errno with err saying why (and that throttling will
 * be sampled).  note gets what was done to the system ("mounted tracefs at
 * ..."), or "". */
int ktrace_open(struct ktrace **out, double gap_s, char *err, size_t errlen,
		char *note, size_t notelen);
/* Drain the buffers, close episodes the gap has ended, and give what came
 * since the last collect.  Thread-safe against the reader thread. */
int ktrace_collect(struct ktrace *k, struct kt_window *w);
/* Every read of /proc/vmstat makes the kernel work out the dirty limits,
 * and that fires global_dirty_state: the sampler's own reads would be an
 * event a sample.  Drop the ones of this task (tid as the kernel knows
 * it: in a PID namespace of our own, gettid() is not, and nothing is
 * dropped).  The levels of real writers' calls stay. */
int ktrace_ignore_reader(struct ktrace *k, pid_t tid);
/* Cut the episodes at c->at_ns (in the past): applied in time order with
 * the events at the next collect, seen there as a THR_CUT transition.
 * 0, or -ENOSPC when KT_MAX_CUTS are waiting. */
int ktrace_cut(struct ktrace *k, const struct kt_cut *c);
/* End of session: close the open episode into w (ntrans 0 or 1). */
void ktrace_finish(struct ktrace *k, struct kt_window *w);
/* The instance's directory ("" after close). */
const char *ktrace_instance(const struct ktrace *k);
/* Stop, remove the instance, unmount what was mounted.  NULL is fine. */
void ktrace_close(struct ktrace *k);

/* Remove instances of dead iodash processes under TRACING_DIR/instances;
 * returns how many were removed. */
int ktrace_remove_stale(const char *tracing_dir);

/* The cgroup2 path of a cgroup inode number ("/" for the root, "?" when
 * not found).  Walks the hierarchy: call once per writer. */
void ktrace_cgroup_path(uint64_t ino, char *buf, size_t len);

#endif
