/* The sample schema's table and typed access to a row's field: what the
 * recording, export and --batch walk instead of naming each field. */
#include <string.h>
#include "iodash/sample/sample_schema.h"

#define SAMPLE_SCHEMA_ROW(id, nm, un, ty, field, wh, gu, pc) \
	[SF_##id] = { .name = nm, .unit = un, .type = ty, \
		      .off = offsetof(struct sample, field), \
		      .size = sizeof(((struct sample *)0)->field), .where = wh, .guard = gu, .pcp = pc },
const struct sample_col sample_cols[SF_N] = { SAMPLE_SCHEMA(SAMPLE_SCHEMA_ROW) };
#undef SAMPLE_SCHEMA_ROW

_Static_assert(sizeof(unsigned) == sizeof(uint32_t), "SCT_U32 holds unsigned and uint32_t");
_Static_assert(sizeof(enum dirty_zone) == sizeof(int) &&
	       sizeof(enum throttle_source) == sizeof(int), "enum fields are read as int");

bool sample_col_is_double(const struct sample_col *c)
{
	return c->type == SCT_TIME || c->type == SCT_SECS || c->type == SCT_DOUBLE;
}

double sample_col_double(const struct sample *s, const struct sample_col *c)
{
	double v;

	if (!sample_col_is_double(c))
		return (double)sample_col_int(s, c);
	memcpy(&v, (const char *)s + c->off, sizeof(v));
	return v;
}

int64_t sample_col_int(const struct sample *s, const struct sample_col *c)
{
	const char *p = (const char *)s + c->off;

	switch (c->type) {
	case SCT_U64: { uint64_t v; memcpy(&v, p, sizeof(v)); return (int64_t)v; }
	case SCT_U32: { uint32_t v; memcpy(&v, p, sizeof(v)); return v; }
	case SCT_I64: case SCT_SKEW: { int64_t v; memcpy(&v, p, sizeof(v)); return v; }
	case SCT_BOOL: { bool v; memcpy(&v, p, sizeof(v)); return v; }
	case SCT_INT: case SCT_ZONE: case SCT_THR_SRC: { int v; memcpy(&v, p, sizeof(v)); return v; }
	case SCT_TIME: case SCT_SECS: case SCT_DOUBLE:
		return (int64_t)sample_col_double(s, c);
	case SCT_TEXT: case SCT_DOUBLE_G: case SCT_RATIO:
		break;
	}
	return 0;
}

void sample_col_set_double(struct sample *s, const struct sample_col *c, double v)
{
	if (!sample_col_is_double(c)) {
		sample_col_set_int(s, c, (int64_t)v);
		return;
	}
	memcpy((char *)s + c->off, &v, sizeof(v));
}

void sample_col_set_int(struct sample *s, const struct sample_col *c, int64_t v)
{
	char *p = (char *)s + c->off;

	switch (c->type) {
	case SCT_U64: { uint64_t x = (uint64_t)v; memcpy(p, &x, sizeof(x)); return; }
	case SCT_U32: { uint32_t x = (uint32_t)v; memcpy(p, &x, sizeof(x)); return; }
	case SCT_I64: case SCT_SKEW: memcpy(p, &v, sizeof(v)); return;
	case SCT_BOOL: { bool x = v != 0; memcpy(p, &x, sizeof(x)); return; }
	case SCT_INT: case SCT_ZONE: case SCT_THR_SRC: { int x = (int)v; memcpy(p, &x, sizeof(x)); return; }
	case SCT_TIME: case SCT_SECS: case SCT_DOUBLE:
		sample_col_set_double(s, c, (double)v);
		return;
	case SCT_TEXT: case SCT_DOUBLE_G: case SCT_RATIO:
		return;
	}
}

bool sample_col_present(const struct sample *s, const struct sample_col *c)
{
	return sample_guard_holds(s, c->guard);
}

bool sample_guard_holds(const struct sample *s, enum sample_guard g)
{
	switch (g) {
	case SCG_ALWAYS: return true;
	case SCG_DIRTY: return s->have_dirty;
	case SCG_PSI: return s->have_psi;
	case SCG_KERNEL: return s->thr_src == THR_SRC_KERNEL;
	/* a recording without the column (before it) reads 0: read */
	case SCG_MEMINFO: return s->have_dirty && !s->meminfo_unread;
	}
	return false;
}
