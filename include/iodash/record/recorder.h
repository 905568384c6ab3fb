/* recorder: writes the session file (docs/recording.md) as the model
 * receives it; its format version and readers are recording.h. */
#ifndef IODASH_RECORDER_H
#define IODASH_RECORDER_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "iodash/model/model.h"

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

/* How recorder_open() treats a path that exists. */
enum rec_open_flags {
	REC_FORCE = 1,    /* -o --force: replace a file (never one another iodash is writing) */
	REC_UNIQUE = 2,   /* a default name: on a clash try "-2", "-3", ... before ".rec" */
};

/* Create path (O_EXCL: an existing file is refused unless REC_FORCE),
 * lock it (a file another iodash records to is refused, always) and
 * write the header.  -errno with err when nothing was created.  When the
 * header cannot be written (a full disk) it returns 0 all the same, the
 * file is removed and recorder_error() says so: the session goes on
 * unrecorded, as when the disk fills later.  Thread-safe afterwards:
 * the observer callbacks append to a buffer under the recorder's own lock,
 * recorder_flush() writes it out (no write() under the model lock). */
int recorder_open(struct recorder **out, const char *path, unsigned flags,
		  const struct rec_meta *meta, char *err, size_t errlen);
/* The path written (a default name with its suffix). */
const char *recorder_path(const struct recorder *r);
/* Close and remove the file: the session never started. */
void recorder_discard(struct recorder *r);
/* The observer that appends everything the model receives. */
struct model_observer recorder_observer(struct recorder *r);
/* Flush buffered records to the file (called at least once a second).
 * 0 or -errno; after a write error the recorder stops and keeps the error. */
int recorder_flush(struct recorder *r);
void recorder_close(struct recorder *r);
/* The first write error ("FILE: why"), or "" when all went well. */
const char *recorder_error(const struct recorder *r);
/* Bytes written to the file so far. */
uint64_t recorder_bytes(const struct recorder *r);

/* run/sweep's default: "iodash-HOST-YYYYmmdd-HHMMSS.rec" (local time). */
int recording_default_path(char *buf, size_t len, const char *host, time_t now);

#endif
