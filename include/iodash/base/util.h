/* util: the small helpers every module needs once: the monotonic clock
 * and the last part of a path.  Pure, no state. */
#ifndef IODASH_UTIL_H
#define IODASH_UTIL_H

#include <stdint.h>

/* CLOCK_MONOTONIC now: nanoseconds, and seconds (for intervals only; the
 * origin is arbitrary). */
uint64_t util_mono_ns(void);
double util_mono_s(void);

/* The file name of a path: what follows the last '/' ("a/b.rec" ->
 * "b.rec", "b.rec" -> itself, "dir/" -> "").  A pointer into path. */
const char *util_base_name(const char *path);

#endif
