/* series: a ring of samples with a fixed number of slots. */
#include <errno.h>
#include <stdlib.h>
#include "iodash/model/series.h"

int series_init(struct series *s, size_t cap)
{
	s->ring = calloc(cap ? cap : 1, sizeof(*s->ring));
	s->cap = cap ? cap : 1;
	s->pushed = 0;
	return s->ring ? 0 : -ENOMEM;
}

void series_free(struct series *s)
{
	for (size_t i = 0; s->ring && i < s->cap; i++)
		sample_free(&s->ring[i]);
	free(s->ring);
	s->ring = NULL;
	s->cap = 0;
	s->pushed = 0;
}

void series_clear(struct series *s)
{
	s->pushed = 0;
}

/* Each slot keeps its own disks[], grown to the most devices it held:
 * a push copies the devices, never shares the producer's storage. */
void series_push(struct series *s, const struct sample *smp)
{
	sample_copy(&s->ring[s->pushed % s->cap], smp);
	s->pushed++;
}

size_t series_len(const struct series *s)
{
	return s->pushed < s->cap ? (size_t)s->pushed : s->cap;
}

const struct sample *series_at(const struct series *s, size_t i)
{
	size_t len = series_len(s);

	if (i >= len)
		return NULL;
	return &s->ring[(s->pushed - len + i) % s->cap];
}

const struct sample *series_last(const struct series *s)
{
	return s->pushed ? &s->ring[(s->pushed - 1) % s->cap] : NULL;
}

/* Seqs only grow along the ring, so a binary search finds one. */
const struct sample *series_by_seq(const struct series *s, uint64_t seq)
{
	size_t lo = 0, hi = series_len(s);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sample *x = series_at(s, mid);
		if (x->seq == seq)
			return x;
		if (x->seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
