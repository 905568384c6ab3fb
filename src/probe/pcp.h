/* pcp: the --host reader, private to src/probe/.  Reads one host's counters
 * from its Performance Co-Pilot collector (pmcd) through libpcp into a
 * struct snapshot; probe.c dispatches to it as PROBE_HOST. */
#ifndef IODASH_PROBE_PCP_H
#define IODASH_PROBE_PCP_H

#include <stdbool.h>
#include <stddef.h>
#include "iodash/probe/probe.h"
#include "iodash/sample/snapshot.h"

struct probe_pcp;

/* Connect to the pmcd of HOST[:PORT] and look the metrics up.  0 or -errno
 * with err "HOST: why; what to do". */
int probe_pcp_open(struct probe_pcp **out, const char *host, char *err, size_t errlen);

/* One fetch into s.  -EHOSTDOWN with err when pmcd cannot be reached (the
 * next call tries to reconnect); metrics pmcd does not have leave their
 * group out of s->have. */
int probe_pcp_read(struct probe_pcp *c, struct snapshot *s, char *err, size_t errlen);

/* The host's name and kernel release as its pmcd reported them at open. */
const char *probe_pcp_nodename(const struct probe_pcp *c);
const char *probe_pcp_release(const struct probe_pcp *c);

/* Open a PCP archive (pmlogger's, or export --pcp's) to replay: each read
 * is its next record with any of the metrics, at its own recorded time
 * (mono_ns and realtime_ns are the archive's); -ENODATA at its end. */
int probe_pcp_open_archive(struct probe_pcp **out, const char *path, char *err, size_t errlen);
/* Seconds from the archive's first record to the next one, -1 at the end. */
double probe_pcp_next_offset(const struct probe_pcp *c);
/* Whether path names a PCP archive (BASE, BASE.meta, BASE.index, BASE.0). */
bool probe_pcp_is_archive(const char *path);
/* Whether the archive at path is export --pcp's (it has iodash.time). */
bool probe_pcp_archive_by_iodash(const char *path);

/* mmv.iodash.* of an iodash publishing there (probe.h's probe_iodash). */
int probe_pcp_read_iodash(struct probe_pcp *c, struct probe_iodash *out);

void probe_pcp_close(struct probe_pcp *c);

/* The i-th metric name the reader asks pmcd for, NULL past the last: the
 * vmstat ones first, mem.vmstat.KEY of each SNAP_VMSTAT_ITEMS row in
 * order (for the tests). */
const char *probe_pcp_metric_name(int i);

#endif
