/* recording: the append-only session file (docs/recording.md): header,
 * samples, events, output lines, results.  This is the reader
 * (recording.c); the writer is recorder.h, the exports results/export*.h.
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
#include "iodash/model/model.h"
#include "iodash/sample/snapshot.h"

#define REC_FORMAT_MAJOR 2   /* a reader refuses a newer major; reads 1 and 2 */
#define REC_FORMAT_MINOR 3   /* additions a reader of the same major skips (2.1: S missed, Z end, T records; 2.2: R setting;
			      * 2.3: any number of devices a sample, where 2.2's writer kept 16) */

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
	unsigned page_kb;             /* the page size in KiB, 0 when not given */
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

/* Parse record i.  0, or -EBADMSG when it no longer checks (file changed).
 * A sample's disks go into out->disks, kept and grown from call to call:
 * start from a zeroed sample, sample_free() it at the end. */
int recording_sample(const struct recording *rec, size_t i, struct sample *out);
int recording_event(const struct recording *rec, size_t i, struct model_event *out);
int recording_output(const struct recording *rec, size_t i, struct output_line *out);
int recording_result(const struct recording *rec, size_t i, struct result_point *out);
int recording_bench(const struct recording *rec, size_t i, struct bench_status *out);

/* All result points (progress points too when with_progress). */
int recording_load_results(const struct recording *rec, bool with_progress,
			   struct result_set *out);

#endif
