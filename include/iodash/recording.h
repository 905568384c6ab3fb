/* recording: the append-only session file (docs/recording.md): header,
 * samples, events, output lines, results.  Writer, reader, export. */
#ifndef IODASH_RECORDING_H
#define IODASH_RECORDING_H

#include <stddef.h>
#include "iodash/model.h"
#include "iodash/snapshot.h"

struct recorder;

/* What the header says about the session. */
struct rec_meta {
	const char *host, *kernel;
	const struct snapshot *first;  /* for the dirty_* knobs; may be NULL */
	const char *command;           /* command line(s) of the benchmark, "" for live */
	const char *label;
	const char *source;            /* "live /proc" or the --proc-root */
	double interval;
};

int recorder_open(struct recorder **out, const char *path, const struct rec_meta *meta,
		  char *err, size_t errlen);
/* The observer that appends everything the model receives. */
struct model_observer recorder_observer(struct recorder *r);
/* Flush buffered records to the file (called at least once a second). */
int recorder_flush(struct recorder *r);
void recorder_close(struct recorder *r);

#endif
