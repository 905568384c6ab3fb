/* util: the small helpers every module needs once: the monotonic clock
 * the last part of a path and a size
 * with its binary suffix.  Pure, no state. */
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

/* A number as people write sizes on a command line: "4", "2.5",
 * "4k"/"64K"/"1m"/"1g" (powers of 1024, as fio and dbench mean them),
 * "4KiB", "4kb".  0, or -EINVAL for anything else (a word, "4x", "", nan). */
int util_parse_number(const char *s, double *out);

#endif
