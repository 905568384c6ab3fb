/* series: bounded history of samples (a ring).  Memory is fixed at create
 * time, so a 24-hour session stays flat.  Not locked: the owner locks. */
#ifndef IODASH_SERIES_H
#define IODASH_SERIES_H

#include <stddef.h>
#include <stdint.h>
#include "iodash/sample/derive.h"

struct series {
	struct sample *ring;
	size_t cap;          /* slots */
	uint64_t pushed;     /* samples pushed since create */
};

int series_init(struct series *s, size_t cap);
void series_free(struct series *s);
void series_clear(struct series *s);
void series_push(struct series *s, const struct sample *smp);
/* How many samples are held (<= cap). */
size_t series_len(const struct series *s);
/* i-th held sample, 0 = oldest held; NULL if out of range. */
const struct sample *series_at(const struct series *s, size_t i);
/* The newest sample, or NULL when empty. */
const struct sample *series_last(const struct series *s);
/* The sample with this seq if still held, else NULL. */
const struct sample *series_by_seq(const struct series *s, uint64_t seq);

#endif
