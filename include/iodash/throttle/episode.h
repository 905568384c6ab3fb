/* throttle: throttle episodes from the kernel's own pauses.  Pure: fed with
 * writeback:balance_dirty_pages events (live from ktrace, or parsed from a
 * recorded trace in the tests), it says when an episode starts and ends.
 *
 * An episode starts at the kernel time of the first pause > 0 and lasts
 * while some writer pauses again within `gap` seconds of the end of the
 * previous pause; it ends at the end of its last pause (its time + pause).
 * The level of dirty memory saw-tooths across freerun every few tens of ms
 * on a fast disk, so one continuous throttle is many short pauses: the gap
 * rule makes it one episode, and a burst of two pauses an episode too.
 *
 * Without tracefs the same rule merges the sampled zone's throttle spans
 * (throttle_feed_span), and the episode says it was sampled. */
#ifndef IODASH_THROTTLE_H
#define IODASH_THROTTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define THR_COMM_LEN 16
#define THR_BDI_LEN 32
#define THR_MAX_WRITERS 16
#define THROTTLE_GAP_DEFAULT 1.0

/* One balance_dirty_pages event, fields as the tracepoint gives them. */
struct thr_pause {
	uint64_t ts_ns;              /* kernel time (trace_clock mono: CLOCK_MONOTONIC) */
	int32_t pid;
	char comm[THR_COMM_LEN];
	char bdi[THR_BDI_LEN];       /* "MAJ:MIN" of the backing device */
	uint64_t cgroup_ino;
	int64_t pause_ms;            /* > 0: the writer slept that long from ts_ns */
	uint64_t dirty, limit, setpoint;            /* pages */
	uint64_t dirty_ratelimit, task_ratelimit;   /* KiB/s */
	uint32_t dirtied;            /* pages the task dirtied since its last call */
};

struct thr_writer {
	int32_t pid;
	char comm[THR_COMM_LEN];
	char bdi[THR_BDI_LEN];
	uint64_t cgroup_ino;
	uint32_t pauses;
	double paused_ms;
};

struct thr_episode {
	uint64_t start_ns;           /* the first pause's kernel time */
	uint64_t end_ns;             /* the end of its last pause */
	uint32_t pauses;
	double paused_ms;            /* summed over writers */
	uint64_t peak_dirty, peak_limit;   /* pages: dirty at its highest, and the limit then */
	bool sampled;                /* built from the sampled zone: no pause counts */
	int nwriters;
	uint32_t writers_dropped;    /* writers past THR_MAX_WRITERS */
	struct thr_writer writers[THR_MAX_WRITERS];
};

/* The episodes of one run: those that began between its start cut and
 * its end cut (throttle_cut ends what is open at both). */
struct thr_run {
	bool open;                   /* between the start cut and the end cut */
	uint64_t start_ns;           /* the start cut */
	unsigned count;
	uint64_t first_ns;           /* the first one's start (count > 0) */
	double paused_ms;            /* every writer's pauses in them */
	double span_s;               /* their lengths */
	double busiest_ms;           /* each one's busiest writer's pauses, summed */
	bool sampled;
};

struct thr_builder {
	uint64_t gap_ns;
	bool open;
	struct thr_episode cur;
	unsigned episodes;           /* started so far */
	uint64_t floor_ns;           /* the last cut: no episode starts before it */
};

void throttle_init(struct thr_builder *b, double gap_s);

/* Feed one event (in kernel time order).  Events with pause <= 0 only
 * update the open episode's peak.  Returns a bit set: THR_CLOSED when
 * the event came after the gap and closed the open episode (copied to
 * *closed first), THR_STARTED when it started a new one (b->cur). */
#define THR_CLOSED 1
#define THR_STARTED 2
#define THR_CUT 4            /* a transition of ktrace's window: a cut was applied */
int throttle_feed(struct thr_builder *b, const struct thr_pause *p, struct thr_episode *closed);

/* The dirty level the kernel computed (global_dirty_state): peak only. */
void throttle_feed_level(struct thr_builder *b, uint64_t dirty, uint64_t limit);

/* Sampled fallback: the zone said throttle from start_ns to end_ns. */
int throttle_feed_span(struct thr_builder *b, uint64_t start_ns, uint64_t end_ns,
		       uint64_t dirty, uint64_t limit, struct thr_episode *closed);

/* Time goes on: close the open episode when now_ns is past its end plus
 * the gap.  Returns THR_CLOSED (and *closed) or 0. */
int throttle_advance(struct thr_builder *b, uint64_t now_ns, struct thr_episode *closed);

/* A run's start or end, or a knob change, at at_ns: close what is open,
 * and start no episode before at_ns (a pause read late, from before the
 * cut, counts from the cut), so that no episode spans a run boundary.
 * THR_CLOSED (and *closed) or 0. */
int throttle_cut(struct thr_builder *b, uint64_t at_ns, struct thr_episode *closed);

/* Close whatever is open (session end).  THR_CLOSED or 0. */
int throttle_flush(struct thr_builder *b, struct thr_episode *closed);

/* Paused time over episode time of the busiest writer, in percent (0
 * when empty or sampled). */
double throttle_duty(const struct thr_episode *e);

/* "fio:17218,dd:301" (the busiest first); "n/a" for a sampled episode. */
void throttle_format_writers(const struct thr_episode *e, char *buf, size_t len);

#endif
