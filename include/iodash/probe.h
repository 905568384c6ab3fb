/* probe: fills a struct snapshot from the kernel (libproc2, live /proc) or
 * from files (--proc-root: a directory laid out like /proc, or a recorded
 * trace of snapshots replayed in order).  All backends fill the same struct. */
#ifndef IODASH_PROBE_H
#define IODASH_PROBE_H

#include <stddef.h>
#include "iodash/snapshot.h"

struct probe;

enum probe_kind { PROBE_LIVE, PROBE_PROC_DIR, PROBE_TRACE };

/* Open the live probe (libproc2 for vmstat, meminfo, diskstats; small file
 * reads for the rest).  Returns 0 or -errno and fills err. */
int probe_open_live(struct probe **out, char *err, size_t errlen);

/* Open --proc-root DIR: a trace directory (has index.tsv and samples/) or a
 * directory laid out like /proc.  Returns 0 or -errno with err naming the file. */
int probe_open_root(struct probe **out, const char *dir, char *err, size_t errlen);

enum probe_kind probe_kind(const struct probe *p);

/* Read one snapshot.  For a trace, this is the next recorded sample, and
 * snapshot.mono_ns / realtime_ns are the recorded times.
 * Returns 0, -ENODATA at the end of a trace, or another -errno with err
 * filled ("FILE:LINE: why"). */
int probe_read(struct probe *p, struct snapshot *out, char *err, size_t errlen);

/* For a trace: recorded seconds from the first sample to the next one to be
 * read (the sampler paces a replay with it); < 0 when not a trace or at end. */
double probe_trace_next_offset(const struct probe *p);

void probe_close(struct probe *p);

#endif
