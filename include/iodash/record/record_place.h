/* record_place: is a recording on the device the benchmark writes to?
 * Recordings go to the current directory by default, which is often on
 * the disk under test: then iodash's own writes add to the figures it
 * shows.  The benchmark's files are guessed from its command line: every
 * word that is a path, or the path after '=' (fio --directory=D,
 * --filename=F), its directory when it does not exist yet; without any,
 * the current directory, where dbench and fio work by default.  Core: no
 * printing. */
#ifndef IODASH_RECORD_PLACE_H
#define IODASH_RECORD_PLACE_H

#include <stddef.h>

/* 1 when rec_path's filesystem is that of a path of argv (why: "PATH" or
 * "the current directory"), 0 when none is, -errno when rec_path cannot
 * be looked at. */
int record_place_check(const char *rec_path, char *const *argv, int argc, char *why, size_t len);

#endif
