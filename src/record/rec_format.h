/* Internal to src/record: the text layout of a recording (docs/recording.md).
 * One record per line, fields separated by TAB, the record type first and
 * a CRC-32 of the rest of the line last, so that awk, gnuplot and pandas
 * can read it and a torn or damaged record reads as never written. */
#ifndef IODASH_REC_FORMAT_H
#define IODASH_REC_FORMAT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "iodash/sample/derive.h"
#include "iodash/sample/sample_schema.h"
#include "iodash/model/model.h"

#define REC_MAGIC "iodash-recording"
/* Longest record a reader accepts; longer lines are damage, not data. */
#define REC_MAX_LINE 8192
#define REC_MAX_FIELDS 64

/* Record types: the first column. */
#define RT_MAGIC  "iodash-recording"
#define RT_HEADER 'H'
#define RT_COLS   'C'
#define RT_SAMPLE 'S'
#define RT_DISK   'D'
#define RT_EVENT  'E'
#define RT_OUTPUT 'O'
#define RT_RESULT 'R'
#define RT_BENCH  'B'

#define RT_DISKS  'L'   /* the sample's disk list (names, nfields), v2 */
/* The list continued (2.3): an L holds at most REC_LIST_PAIRS disks, the
 * M records right after it the rest, as many as it takes, so that no
 * line passes REC_MAX_FIELDS or REC_MAX_LINE however many disks there
 * are.  A reader of 2.2 skips M (a later version's record) and, the L's
 * count not being the sample's, reads the D records as they come. */
#define RT_DISKS_MORE 'M'
#define REC_LIST_PAIRS 24
#define RT_END    'Z'   /* the writer closed the file: nothing more will come, v2.1 */
/* The kernel's throttling over the sample just before (after its D
 * records), 2.1: kernel(1), throttled, pauses, paused_ms, then per writer
 * that paused: pid, comm, pauses, paused_ms.  Only when the tracepoints
 * were followed; a sample without one had the sampled zone. */
#define RT_THROTTLE 'T'

/* Column ids of each record type.  The writer writes the first *_N of
 * them in this order and announces the order in C lines; the reader maps
 * names to ids, so a later version may add, drop or move columns.  Ids
 * past *_N are format 1 columns the reader still understands.  S: the
 * ids are enum sample_field, its columns the SCW_REC rows of the sample
 * schema (include/iodash/sample/sample_schema.h) in the table's order. */
/* D: the counter deltas of /proc/diskstats (enum diskstat_field order)
 * after name, have_rate and nfields; the reader derives the figures. */
enum d_col { DC_NAME, DC_HAVE_RATE, DC_NFIELDS, DC_DELTA0,
	DC_N = DC_DELTA0 + DS_NFIELDS,
	DC_V1_T = DC_N, DC_V1_R_S, DC_V1_W_S, DC_V1_RKB_S, DC_V1_WKB_S,
	DC_V1_R_AWAIT, DC_V1_W_AWAIT, DC_V1_AQU_SZ, DC_V1_UTIL, DC_V1_D_S,
	DC_V1_DKB_S, DC_V1_F_S, DC_ALL };
enum e_col { EC_T, EC_KIND, EC_TEXT, EC_N };
enum o_col { OC_T, OC_RUN, OC_TEXT, OC_N };
enum r_col { RC_T, RC_LABEL, RC_RUN, RC_X_NAME, RC_X, RC_METRIC, RC_VALUE,
	RC_UNIT, RC_FLAGS, RC_SETTING, RC_N };
enum b_col { BC_T, BC_STATE, BC_RUN_INDEX, BC_RUN_TOTAL, BC_RUNS_FAILED, BC_PID,
	BC_NTASKS, BC_THROTTLED, BC_READ_BPS, BC_WRITE_BPS, BC_RCHAR_BPS,
	BC_WCHAR_BPS, BC_HAVE_TP, BC_PAUSES_PER_S, BC_PAUSE_MS_PER_S,
	BC_PAUSES_TOTAL, BC_PAUSE_TOTAL_MS, BC_EXIT, BC_SIGNAL, BC_ETA,
	BC_RUN_START_T, BC_P_VALID, BC_P_PHASE, BC_P_ELAPSED, BC_P_TPUT,
	BC_P_UNIT, BC_P_LAT, BC_LABEL, BC_COMMAND, BC_N };

extern const char *const rec_cols_D[DC_ALL];
extern const char *const rec_cols_E[EC_N];
extern const char *const rec_cols_O[OC_N];
extern const char *const rec_cols_R[RC_N];
extern const char *const rec_cols_B[BC_N];

/* The column names the writer writes for a record type, NULL for an
 * unknown type; rec_col_id() is the id of the i-th of them.
 * rec_cols_known() is indexed by id and adds the older names a reader
 * maps (NULL: an id that is no column of this type). */
const char *const *rec_cols_of(char type, int *ncols);
int rec_col_id(char type, int i);
const char *const *rec_cols_known(char type, int *ncols);

/* Idle disks (have_rate, every delta 0) have no D record; the L record
 * before the sample lists every disk.  It is repeated at least this often
 * so that a damaged one costs at most a minute of idle disks. */
#define REC_DISKS_EVERY 120

uint32_t rec_crc32(const void *buf, size_t len);

/* Session seconds to whole nanoseconds (0 when out of range): writer and
 * reader both use it, so integers built on it round-trip exactly. */
int64_t rec_secs_to_ns(double t);

/* Names written for enums: stable strings, not numbers, so a reader of
 * another version (or a human) is not misled by a renumbering. */
const char *rec_event_kind_name(enum model_event_kind k);
int rec_event_kind_parse(const char *s);      /* -1 unknown */
const char *rec_bench_state_name(enum bench_state s);
int rec_bench_state_parse(const char *s);     /* -1 unknown */
const char *rec_zone_name(enum dirty_zone z);
int rec_zone_parse(const char *s);            /* ZONE_UNKNOWN for unknown */

/* A growable byte buffer. */
struct rec_buf {
	char *p;
	size_t len, cap;
	int oom;               /* an allocation failed: the buffer stopped growing */
};
void rec_buf_free(struct rec_buf *b);

/* A text as one CSV field (quoted only when it must be) and as a JSON
 * string: what export and compare print. */
void rec_csv_str(FILE *out, const char *s);
void rec_json_str(FILE *out, const char *s);
void rec_buf_putc(struct rec_buf *b, char c);
void rec_buf_puts(struct rec_buf *b, const char *s);
void rec_buf_printf(struct rec_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text field: TAB, newline, CR, backslash and other control bytes escaped. */
void rec_buf_put_text(struct rec_buf *b, const char *s);
/* Start / end a record: end appends TAB, the CRC of the line so far, LF. */
void rec_buf_begin(struct rec_buf *b, size_t *line_start, char type);
void rec_buf_end(struct rec_buf *b, size_t line_start);

/* Undo rec_buf_put_text into out (NUL-terminated, truncated to outlen). */
void rec_unescape(const char *s, size_t n, char *out, size_t outlen);

#endif
