/* namemap: open addressing with linear probing; names are copied (a
 * device name is short), so the map never points into a list that moves. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/base/namemap.h"

struct namemap_ent {
	char *name;          /* NULL: free slot */
	int v;
};

/* FNV-1a: short keys, no attacker that would need a keyed hash. */
static size_t namemap_hash(const char *s)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return (size_t)(h ^ (h >> 32));
}

static struct namemap_ent *namemap_slot(const struct namemap *m, const char *name)
{
	size_t mask = m->cap - 1, i = namemap_hash(name) & mask;

	while (m->e[i].name && strcmp(m->e[i].name, name))
		i = (i + 1) & mask;
	return &m->e[i];
}

int namemap_get(const struct namemap *m, const char *name)
{
	if (!m->cap)
		return -1;
	const struct namemap_ent *e = namemap_slot(m, name);
	return e->name ? e->v : -1;
}

/* Twice the slots, at most half of them used: short probes. */
static int namemap_grow(struct namemap *m)
{
	struct namemap old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->e = calloc(m->cap, sizeof(*m->e));
	if (!m->e) {
		*m = old;
		return -ENOMEM;
	}
	for (size_t i = 0; i < old.cap; i++)
		if (old.e[i].name)
			*namemap_slot(m, old.e[i].name) = old.e[i];
	free(old.e);
	return 0;
}

int namemap_put(struct namemap *m, const char *name, int v)
{
	if ((m->n + 1) * 2 > m->cap && namemap_grow(m))
		return -ENOMEM;
	struct namemap_ent *e = namemap_slot(m, name);
	if (!e->name) {
		if (!(e->name = strdup(name)))
			return -ENOMEM;
		m->n++;
	}
	e->v = v;
	return 0;
}

void namemap_clear(struct namemap *m)
{
	for (size_t i = 0; i < m->cap; i++) {
		free(m->e[i].name);
		m->e[i].name = NULL;
	}
	m->n = 0;
}

void namemap_free(struct namemap *m)
{
	namemap_clear(m);
	free(m->e);
	m->e = NULL;
	m->cap = 0;
}
