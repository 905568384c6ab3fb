/* throttle_follow: the sampler's side of throttling.  Each sample takes
 * what the kernel said since the last one (ktrace), or, without tracefs,
 * the sampled zone; both go through the same episode rule (throttle.h)
 * and become the sample's throttle fields and the model's episode events
 * (MEV_HIT_START / MEV_HIT_END, at the episode's own times). */
#ifndef IODASH_THROTTLE_FOLLOW_H
#define IODASH_THROTTLE_FOLLOW_H

#include "iodash/throttle/ktrace.h"
#include "iodash/model/model.h"
#include "iodash/throttle/episode.h"

struct throttle_follow {
	struct ktrace *kt;           /* NULL: sampled */
	struct thr_builder sampled;  /* the zone's spans, when kt is NULL */
	uint64_t t0_ns;              /* CLOCK_MONOTONIC of sample 0 */
	double closed_seconds;
	unsigned episodes;
	bool open;
	uint64_t open_start_ns;
	struct thr_run run;
	unsigned cuts_done;
	/* episode events of the sample being made, added after it */
	int npending;
	struct model_event pending[2 * KT_MAX_TRANSITIONS];
};

/* kt may be NULL (sampled); it stays owned by the caller. */
void throttle_follow_init(struct throttle_follow *f, struct ktrace *kt, double gap_s);
/* Fill s's throttle and hit fields and add the episode events. now_ns is
 * the sample's CLOCK_MONOTONIC time (the trace's own for a replay). */
void throttle_follow_sample(struct throttle_follow *f, struct model *m, struct sample *s,
			    uint64_t now_ns);
/* After the sample is in the model: its episode events (a front end
 * that reads the event has read the sample of its time). */
void throttle_follow_emit(struct throttle_follow *f, struct model *m);
/* After sample 0: say where throttling comes from (model.thr.note). */
void throttle_follow_announce(struct model *m);
/* Session end: close an open episode (its end event). */
void throttle_follow_finish(struct throttle_follow *f, struct model *m);

/* A driver's side: end the episodes at this moment, the start
 * (KT_CUT_RUN_START) or the end (KT_CUT_RUN_END) of a run, so that each
 * belongs to one run.  Returns a ticket (0: too many waiting, nothing
 * asked); the sampler applies the cut at its next sample. */
unsigned throttle_follow_cut(struct model *m, int kind);
/* Wait until the sampler applied the cut and added the end of the
 * episode it closed (so that nothing of the run comes after what the
 * driver says next), or has ended, at most timeout_s; false when it did
 * not in that time. */
bool throttle_follow_wait_cut(struct model *m, unsigned ticket, double timeout_s);

/* The episode lines, shared by live and replay:
 *   throttle start bdi=254:0 writers=fio:17218 cgroup=/ dirty=...kB limit=...kB
 *   throttle end 10.118s pauses=1153 paused_ms=3712 duty=37% peak_dirty=...kB limit=...kB writers=... */
void throttle_format_start(const struct thr_episode *e, const char *cgroup, unsigned page_kb,
			   char *buf, size_t len);
void throttle_format_end(const struct thr_episode *e, unsigned page_kb, char *buf, size_t len);

#endif
