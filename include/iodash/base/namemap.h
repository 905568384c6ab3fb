/* namemap: names (of devices) to small integers, through an open-addressed
 * hash.  What keeps a sample's cost linear in its devices where a name
 * must be found among hundreds (a recording's disk list, an export's
 * columns, a graph's rows): one lookup is a hash and a compare, never a
 * walk of the list. */
#ifndef IODASH_NAMEMAP_H
#define IODASH_NAMEMAP_H

#include <stddef.h>

struct namemap_ent;
struct namemap {
	struct namemap_ent *e;
	size_t cap;          /* slots, a power of two (0: nothing held yet) */
	size_t n;            /* names held */
};

/* The value put for name, or -1 when none. */
int namemap_get(const struct namemap *m, const char *name);
/* Give name the value v (>= 0), replacing an earlier one.  0, or -ENOMEM. */
int namemap_put(struct namemap *m, const char *name, int v);
/* Forget every name (the slots are kept). */
void namemap_clear(struct namemap *m);
void namemap_free(struct namemap *m);

#endif
