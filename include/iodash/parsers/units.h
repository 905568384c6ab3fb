/* units: how big a result's unit is, and which one unit a metric's
 * points are pooled in.  Readers give a value in the unit its tool
 * printed it in (19.9 "MiB/s", 48 "ns"); whatever pools one metric's
 * values from several runs or sources (compare's curves, a sweep's
 * decider, the dashboard's curves) converts them first, here, and never
 * pools units that do not convert (IOPS with KiB/s, us with MB/s). */
#ifndef IODASH_UNITS_H
#define IODASH_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include "iodash/parsers/result_set.h"

enum units_kind {
	UNITS_OTHER = 0,   /* IOPS, files/s, "" ...: only equal to itself */
	UNITS_RATE,        /* bytes a second: B/s, KiB/s, MB/sec, kB/s ... */
	UNITS_TIME,        /* ns, us, usec, ms, msec, s, sec, secs */
};

/* A size unit's bytes ("B", "bytes", "KiB", "kB", "KB", "MiB", "MB", "K",
 * "M", "G" ...: the SI's are decimal, K/M/G binary), the first len
 * characters of unit; 0 when it is not one. */
double units_size_bytes(const char *unit, size_t len);
/* A time unit's nanoseconds ("ns", "nsec", "us", "usec", "ms", "msec",
 * "s", "sec", "secs", any case); 0 when it is not one. */
double units_time_ns(const char *unit, size_t len);
/* The name results give a time unit in: "nsec" is "ns", "usec" "us",
 * "msec" "ms", "sec" "s"; NULL when it is not one. */
const char *units_time_name(const char *unit, size_t len);

/* The kind of a unit. */
enum units_kind units_get_kind(const char *unit);
/* A unit's size in its kind's base (rates: bytes a second, "MB/sec" is
 * 1e6, "KiB/s" 1024; times: nanoseconds, "us" is 1000); 0 when unit is not
 * of that kind. */
double units_get_factor(const char *unit, enum units_kind kind);
/* Can a value in one be given in the other (equal, or two rates, or two times)? */
bool units_are_commensurable(const char *a, const char *b);
/* v in unit from given in unit to: false (out untouched) when they do not convert. */
bool units_convert_value(double v, const char *from, const char *to, double *out);

#define UNITS_TALLY_MAX 16
/* The units of one metric's points and how many points have each. */
struct units_tally {
	size_t n;
	struct {
		char unit[RP_UNIT_LEN];
		size_t count;
	} v[UNITS_TALLY_MAX];
};

/* One point's unit counted (past UNITS_TALLY_MAX distinct units the
 * rest are not counted: units_pick_target gives them as they are). */
void units_tally_add(struct units_tally *t, const char *unit);
/* The unit the points of unit's class (the tallied units commensurable
 * with it) are pooled in: the one most of them have, a tie the smaller. */
const char *units_pick_target(const struct units_tally *t, const char *unit);
/* The unit of the class most points have: a metric's own; the points of
 * the other classes are not pooled with it. */
const char *units_pick_main(const struct units_tally *t);

#endif
