/* units: a unit's size and the unit a metric's points pool in (units.h). */
#include <string.h>
#include <strings.h>
#include "iodash/parsers/units.h"

/* One unit's names: as printed, its size in its kind's base, and the
 * name results give it in ("nsec" is given as "ns"). */
struct units_entry {
	const char *name;
	double factor;
	const char *given;
};

/* Sizes in bytes.  The SI's "kB", "MB" ... are decimal; "KB" (upper
 * case K, no SI prefix) is the binary kilo: iozone's "KB/s" and fio
 * 2.x's are 1024 bytes a second (fio 2.x's "MB" is MiB too: its reader
 * names its units by what they mean). */
static const struct units_entry units_sizes[] = {
	{ "B", 1, "B" }, { "bytes", 1, "B" },
	{ "KiB", 1024.0, "KiB" }, { "MiB", 1048576.0, "MiB" }, { "GiB", 1073741824.0, "GiB" },
	{ "TiB", 1099511627776.0, "TiB" },
	{ "kB", 1e3, "kB" }, { "KB", 1024.0, "KB" }, { "MB", 1e6, "MB" }, { "GB", 1e9, "GB" }, { "TB", 1e12, "TB" },
	{ "K", 1024.0, "K" }, { "M", 1048576.0, "M" }, { "G", 1073741824.0, "G" },
};

/* Times in nanoseconds, whole numbers, so that a ratio of two is exact
 * (any case: "Usec" is usec). */
static const struct units_entry units_times[] = {
	{ "ns", 1, "ns" }, { "nsec", 1, "ns" }, { "us", 1e3, "us" }, { "usec", 1e3, "us" },
	{ "ms", 1e6, "ms" }, { "msec", 1e6, "ms" }, { "s", 1e9, "s" }, { "sec", 1e9, "s" }, { "secs", 1e9, "s" },
};

static const struct units_entry *units_find(const struct units_entry *tab, size_t n, const char *unit,
					    size_t len, bool any_case)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(tab[i].name) == len &&
		    !(any_case ? strncasecmp(unit, tab[i].name, len) : strncmp(unit, tab[i].name, len)))
			return &tab[i];
	return NULL;
}

double units_size_bytes(const char *unit, size_t len)
{
	const struct units_entry *e = units_find(units_sizes, sizeof(units_sizes) / sizeof(units_sizes[0]),
						 unit, len, false);
	return e ? e->factor : 0;
}

static const struct units_entry *units_find_time(const char *unit, size_t len)
{
	return units_find(units_times, sizeof(units_times) / sizeof(units_times[0]), unit, len, true);
}

double units_time_ns(const char *unit, size_t len)
{
	const struct units_entry *e = units_find_time(unit, len);
	return e ? e->factor : 0;
}

const char *units_time_name(const char *unit, size_t len)
{
	const struct units_entry *e = units_find_time(unit, len);
	return e ? e->given : NULL;
}

/* A rate's size a second ("KiB/s", "MB/sec"): 0 when not a rate. */
static double units_rate_factor(const char *unit)
{
	const char *sl = strchr(unit, '/');

	if (!sl || (strcmp(sl, "/s") && strcmp(sl, "/sec")))
		return 0;
	return units_size_bytes(unit, (size_t)(sl - unit));
}

static double units_time_factor(const char *unit)
{
	return units_time_ns(unit, strlen(unit));
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
