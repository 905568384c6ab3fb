/* units: a unit's size and the unit a metric's points pool in (units.h). */
#include <string.h>
#include "iodash/parsers/units.h"

/* "KiB" of "KiB/s": the rate's prefix in bytes, 0 when not a rate.
 * ("KB"/"kB" are decimal: fio 2.x's "KB/s" meant KiB/s, a 2.4 % error
 * pooled with others; fio 2.x is rare in what is compared) */
static double units_rate_factor(const char *unit)
{
	static const struct { const char *p; double f; } pre[] = {
		{ "TiB", 1099511627776.0 }, { "GiB", 1073741824.0 }, { "MiB", 1048576.0 }, { "KiB", 1024.0 },
		{ "TB", 1e12 }, { "GB", 1e9 }, { "MB", 1e6 }, { "kB", 1e3 }, { "KB", 1e3 },
		{ "G", 1073741824.0 }, { "M", 1048576.0 }, { "K", 1024.0 }, { "B", 1.0 },
	};
	const char *sl = strchr(unit, '/');

	if (!sl || (strcmp(sl, "/s") && strcmp(sl, "/sec")))
		return 0;
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (strlen(pre[i].p) == (size_t)(sl - unit) && !strncmp(unit, pre[i].p, (size_t)(sl - unit)))
			return pre[i].f;
	return 0;
}

static double units_time_factor(const char *unit)
{
	static const struct { const char *u; double f; } tab[] = {
		{ "ns", 1e-9 }, { "nsec", 1e-9 }, { "us", 1e-6 }, { "usec", 1e-6 }, { "ms", 1e-3 },
		{ "msec", 1e-3 }, { "s", 1 }, { "sec", 1 }, { "secs", 1 },
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(unit, tab[i].u))
			return tab[i].f;
	return 0;
}

enum units_kind units_get_kind(const char *unit)
{
	if (units_rate_factor(unit) > 0)
		return UNITS_RATE;
	if (units_time_factor(unit) > 0)
		return UNITS_TIME;
	return UNITS_OTHER;
}

double units_get_factor(const char *unit, enum units_kind kind)
{
	switch (kind) {
	case UNITS_RATE: return units_rate_factor(unit);
	case UNITS_TIME: return units_time_factor(unit);
	default: return 0;
	}
}

bool units_are_commensurable(const char *a, const char *b)
{
	enum units_kind k = units_get_kind(a);
	return !strcmp(a, b) || (k != UNITS_OTHER && k == units_get_kind(b));
}

bool units_convert_value(double v, const char *from, const char *to, double *out)
{
	if (!strcmp(from, to)) {
		*out = v;
		return true;
	}
	if (!units_are_commensurable(from, to))
		return false;
	enum units_kind k = units_get_kind(from);
	double f = units_get_factor(from, k), t = units_get_factor(to, k);
	/* the ratio first: 1024/1048576 is exact, v*1024/1048576 may not be */
	*out = f >= t ? v * (f / t) : v / (t / f);
	return true;
}

void units_tally_add(struct units_tally *t, const char *unit)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].unit, unit)) {
			t->v[i].count++;
			return;
		}
	if (t->n >= UNITS_TALLY_MAX)
		return;
	strncpy(t->v[t->n].unit, unit, RP_UNIT_LEN - 1);
	t->v[t->n].unit[RP_UNIT_LEN - 1] = '\0';
	t->v[t->n++].count = 1;
}

const char *units_pick_target(const struct units_tally *t, const char *unit)
{
	const char *best = unit;
	size_t bc = 0;
	double bf = 0;
	enum units_kind k = units_get_kind(unit);

	for (size_t i = 0; i < t->n; i++) {
		if (!units_are_commensurable(unit, t->v[i].unit))
			continue;
		double f = units_get_factor(t->v[i].unit, k);
		if (t->v[i].count > bc || (t->v[i].count == bc && f < bf)) {
			best = t->v[i].unit;
			bc = t->v[i].count;
			bf = f;
		}
	}
	return best;
}

const char *units_pick_main(const struct units_tally *t)
{
	size_t best = 0, bc = 0;

	for (size_t i = 0; i < t->n; i++) {
		size_t c = 0;
		for (size_t j = 0; j < t->n; j++)
			if (units_are_commensurable(t->v[i].unit, t->v[j].unit))
				c += t->v[j].count;
		if (c > bc) {
			bc = c;
			best = i;
		}
	}
	return t->n ? units_pick_target(t, t->v[best].unit) : "";
}
