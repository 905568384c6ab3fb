/* export_pcp: a recording as a PCP archive (export --pcp). */
#ifndef IODASH_EXPORT_PCP_H
#define IODASH_EXPORT_PCP_H

#include <stddef.h>
#include "iodash/record/recording.h"

/* The recording as a PCP archive at path (path.0, path.index, path.meta),
 * through libpcp-import: iodash.* metrics at the samples' times, labels,
 * a mark at each run boundary (src/results/export_pcp.c).  0 or -errno with err. */
int recording_export_pcp(const struct recording *rec, const char *path, char *err, size_t errlen);
/* The archive's metric names and items, up to max of them: the sample
 * schema's rows that have an archive name, then the per-disk ones.  How
 * many there are. */
int recording_export_pcp_metrics(const char **names, unsigned *items, int max);

#endif
