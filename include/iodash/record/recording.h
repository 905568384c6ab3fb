/* recording: the append-only session file (docs/recording.md): header,
 * samples, events, output lines, results.  Writer, reader, export.
 *
 * Format: line-oriented TSV, one record per line, the record type in the
 * first column and a CRC-32 in the last, so awk/gnuplot/pandas read it and
 * a torn or damaged record reads as "never written".  Version in the first
 * line; the column names of every record type in the header. */
#ifndef IODASH_RECORDING_H
#define IODASH_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include "iodash/results/emit.h"
#include "iodash/model/model.h"
#include "iodash/sample/snapshot.h"

#define REC_FORMAT_MAJOR 2   /* a reader refuses a newer major; reads 1 and 2 */
#define REC_FORMAT_MINOR 2   /* additions a reader of the same major skips (2.1: S missed, Z end, T records; 2.2: R setting) */

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

/* ---- reader ---- */

struct rec_header {
	int major, minor;
	char host[64];
	char kernel[128];
	char label[RP_LABEL_LEN];
	char source[MODEL_LINE_LEN];
	char command[1024];
	char writer[64];              /* "iodash 0.1.0" */
	double interval;              /* 0 when not given */
	int64_t start_realtime_ns;    /* 0 when not given */
	uint64_t start_mono_ns;       /* CLOCK_MONOTONIC of sample 0 (2.1), 0 when not given */
	bool have_knobs;
	uint64_t dirty_background_bytes, dirty_bytes;
	unsigned dirty_background_ratio, dirty_ratio;
	unsigned dirty_expire_centisecs, dirty_writeback_centisecs;
};

enum rec_kind { RK_SAMPLE, RK_EVENT, RK_OUTPUT, RK_RESULT, RK_BENCH, RK_NKINDS };

struct recording;

/* Open and index a recording (mmap; records are parsed when asked for).
 * Every record's checksum is checked here.  A foreign, empty or damaged
 * header, or a newer major version, is an error "FILE: byte N: why".
 * Damaged or torn records after the header are skipped: see
 * recording_warning().  0 or -errno. */
int recording_open(struct recording **out, const char *path, char *err, size_t errlen);
/* 1 when path starts like a recording, 0 when not, -errno when unreadable. */
int recording_sniff(const char *path);
/* Index what was appended since (follow mode).  Returns the number of new
 * records (0 when none) or -errno with err. */
int recording_refresh(struct recording *rec, char *err, size_t errlen);
void recording_close(struct recording *rec);

const char *recording_path(const struct recording *rec);
/* True once the file holds its end record: its writer closed it whole. */
bool recording_ended(const struct recording *rec);
const struct rec_header *recording_header(const struct recording *rec);
/* "" or one line: what was skipped ("FILE: byte N: torn last record
 * skipped", "... 3 damaged records skipped, first at byte N"). */
const char *recording_warning(const struct recording *rec);
/* Byte offset of the first skipped record, or -1. */
long long recording_first_bad_offset(const struct recording *rec);
size_t recording_nbad(const struct recording *rec);

size_t recording_count(const struct recording *rec, enum rec_kind k);
/* Session time of record i of kind k (records of a kind are in file order). */
double recording_time(const struct recording *rec, enum rec_kind k, size_t i);
/* Index of the last record of kind k with time <= t, or (size_t)-1 if none. */
size_t recording_find(const struct recording *rec, enum rec_kind k, double t);

/* Parse record i.  0, or -EBADMSG when it no longer checks (file changed). */
int recording_sample(const struct recording *rec, size_t i, struct sample *out);
int recording_event(const struct recording *rec, size_t i, struct model_event *out);
int recording_output(const struct recording *rec, size_t i, struct output_line *out);
int recording_result(const struct recording *rec, size_t i, struct result_point *out);
int recording_bench(const struct recording *rec, size_t i, struct bench_status *out);

/* All result points (progress points too when with_progress). */
int recording_load_results(const struct recording *rec, bool with_progress,
			   struct result_set *out);

/* export: FMT_CSV one table with a header row (samples with per-disk
 * columns NAME.figure, events, or results); FMT_NDJSON the rows of that
 * table as one JSON object a line; FMT_JSON (table ignored) one document
 * {"header","samples","events","results","output"}.  0 or -errno. */
int recording_export(const struct recording *rec, enum out_format fmt, enum export_table table, FILE *out,
		     char *err, size_t errlen);
/* "samples", "events", "results" */
const char *export_table_name(enum export_table t);
/* The recording as a PCP archive at path (path.0, path.index, path.meta),
 * through libpcp-import: iodash.* metrics at the samples' times, labels,
 * a mark at each run boundary (src/results/export_pcp.c).  0 or -errno with err. */
int recording_export_pcp(const struct recording *rec, const char *path, char *err, size_t errlen);
/* The archive's metric names and items, up to max of them: the sample
 * schema's rows that have an archive name, then the per-disk ones.  How
 * many there are. */
int recording_export_pcp_metrics(const char **names, unsigned *items, int max);

#endif
