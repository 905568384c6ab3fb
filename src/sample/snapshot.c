/* snapshot: the storage of a snapshot's devices, grown as the kernel
 * lists more; the counters themselves are filled by the probes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/sample/snapshot.h"

/* Grow *p (of *cap elements of size sz) to hold n; doubling, so a list
 * that grows one device at a time costs a linear number of copies. */
int snapshot_grow_array(void **p, int *cap, int n, size_t sz)
{
	if (n <= *cap)
		return 0;
	int c = *cap ? *cap : 8;
	while (c < n)
		c *= 2;
	void *q = realloc(*p, (size_t)c * sz);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

int snapshot_reserve_disks(struct snapshot *s, int n)
{
	void *p = s->disks;
	int rc = snapshot_grow_array(&p, &s->disks_cap, n, sizeof(*s->disks));

	s->disks = p;
	return rc;
}

struct snap_disk *snapshot_add_disk(struct snapshot *s)
{
	if (snapshot_reserve_disks(s, s->ndisks + 1))
		return NULL;
	struct snap_disk *d = &s->disks[s->ndisks++];
	memset(d, 0, sizeof(*d));
	return d;
}

int snapshot_copy(struct snapshot *dst, const struct snapshot *src)
{
	struct snap_disk *keep = dst->disks;
	int cap = dst->disks_cap;

	if (dst == src)
		return 0;
	*dst = *src;
	dst->disks = keep;
	dst->disks_cap = cap;
	if (snapshot_reserve_disks(dst, src->ndisks)) {
		dst->ndisks = 0;
		return -ENOMEM;
	}
	if (src->ndisks)
		memcpy(dst->disks, src->disks, (size_t)src->ndisks * sizeof(*src->disks));
	return 0;
}

void snapshot_free(struct snapshot *s)
{
	free(s->disks);
	s->disks = NULL;
	s->disks_cap = 0;
	s->ndisks = 0;
}

void snapshot_reset(struct snapshot *s)
{
	struct snap_disk *keep = s->disks;
	int cap = s->disks_cap;

	memset(s, 0, sizeof(*s));
	s->disks = keep;
	s->disks_cap = cap;
}
