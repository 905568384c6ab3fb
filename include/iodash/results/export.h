/* export: a recording as CSV, NDJSON or JSON (emit.h writes the syntax). */
#ifndef IODASH_EXPORT_H
#define IODASH_EXPORT_H

#include <stdio.h>
#include "iodash/record/recording.h"
#include "iodash/results/emit.h"

/* export: FMT_CSV one table with a header row (samples with per-disk
 * columns NAME.figure, events, or results); FMT_NDJSON the rows of that
 * table as one JSON object a line; FMT_JSON (table ignored) one document
 * {"header","samples","events","results","output"}.  0 or -errno. */
int recording_export(const struct recording *rec, enum out_format fmt, enum export_table table, FILE *out,
		     char *err, size_t errlen);
/* "samples", "events", "results" */
const char *export_table_name(enum export_table t);

#endif
