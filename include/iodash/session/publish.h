/* publish: what only iodash knows, as Performance Co-Pilot metrics under
 * mmv.iodash.* (Memory Mapped Values, libpcp-mmv): the dirty-limit zone,
 * dirty and writeback, the three thresholds, the throttle episodes and
 * their seconds as counters (a consumer that samples every 15 s still sees
 * every episode), and the benchmark's state, label and run k of n.  The
 * mmv agent of the local pmcd serves them; pmlogger and pmproxy pick them
 * up from there.  Writing is plain stores into a shared mapping: it never
 * blocks the sampler. */
#ifndef IODASH_PUBLISH_H
#define IODASH_PUBLISH_H

#include <stddef.h>
#include "iodash/sample/derive.h"
#include "iodash/model/model.h"

struct publisher;

/* Create the mapping ($PCP_TMP_DIR/mmv/iodash).  0 with *out set; 0 with
 * *out NULL when this machine has no mmv directory (no PCP here: nothing
 * would read it); -errno with err when it exists but the file cannot be
 * made. */
int publish_open(struct publisher **out, char *err, size_t errlen);

/* The figures of one sample, the benchmark's status at that time and the
 * last result a run reported (NULL: none yet). */
void publish_sample(struct publisher *p, const struct sample *s, const struct bench_status *b,
		    const struct result_point *last);

/* The published names and their items, in the file's order, up to max of
 * them: the sample schema's rows that have an mmv name, then bench.*.
 * How many there are. */
int publish_metrics(const char **names, unsigned *items, int max);

/* Unmap, and remove the file unless another iodash has replaced it since. */
void publish_close(struct publisher *p);

#endif
