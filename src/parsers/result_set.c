/* result_set: a growable array of result points, and a sink that fills it. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/parsers/result_set.h"

int result_set_add(struct result_set *rs, const struct result_point *p)
{
	if (!rs || !p)
		return -EINVAL;
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 64;
		if (cap > SIZE_MAX / sizeof(*rs->v))
			return -ENOMEM;
		struct result_point *v = realloc(rs->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		rs->v = v;
		rs->cap = cap;
	}
	rs->v[rs->n++] = *p;
	return 0;
}

void result_set_free(struct result_set *rs)
{
	if (!rs)
		return;
	free(rs->v);
	rs->v = NULL;
	rs->n = rs->cap = 0;
}

static void result_set_emit(void *ctx, const struct result_point *p)
{
	/* A sink has no error path: a point that does not fit in memory is
	 * lost, the set stays valid. */
	(void)result_set_add(ctx, p);
}

struct result_sink result_set_sink(struct result_set *rs)
{
	struct result_sink s = { result_set_emit, rs };
	return s;
}
