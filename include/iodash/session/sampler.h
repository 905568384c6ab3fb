/* sampler: a pthread on the grid of sample 0 (CLOCK_MONOTONIC) that reads the probe,
 * derives a sample, tracks dirty-limit hits and publishes into the model.
 * Nothing the front end does (a slow terminal, a blocked write) can delay
 * it: it never waits on the front end, except when replaying a trace with
 * --fast, where it waits for the front end to keep every sample. */
#ifndef IODASH_SAMPLER_H
#define IODASH_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include "iodash/model/model.h"
#include "iodash/probe/probe.h"
#include "iodash/throttle/ktrace.h"

struct sampler_config {
	double interval;        /* seconds between live samples */
	bool fast;              /* trace: as fast as the consumer takes them */
	long count;             /* stop after this many samples; 0 = no limit */
	double duration;        /* stop after this many seconds; 0 = no limit */
	struct derive_opts disks;   /* which disks and partitions a sample lists */
	/* called on the sampler thread after each sample (outside the model
	 * lock): the app flushes the recording here once a second */
	void (*after_sample)(void *ctx, const struct sample *s);
	void *ctx;
	/* throttling from the kernel (NULL: the sampled zone), and the quiet
	 * gap that ends an episode (seconds, 0: the default) */
	struct ktrace *ktrace;
	double throttle_gap;
};

struct sampler;

/* first: a snapshot already read from p (the app reads one for the
 * recording's header), used as sample 0; NULL to read it here. */
int sampler_start(struct sampler **out, struct probe *p, struct model *m,
		  const struct sampler_config *cfg, const struct snapshot *first,
		  char *err, size_t errlen);
/* Stop and join the thread, keep the rest (idempotent): the session's
 * last events (an open throttle episode's end) are in the model after. */
void sampler_halt(struct sampler *s);
/* Stop and join the thread (idempotent with a finished thread). */
void sampler_stop(struct sampler *s);

#endif
