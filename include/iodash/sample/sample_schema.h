/* sample_schema: every field of a struct sample that leaves the process,
 * named once.  One row per field drives the recording's S record (writer
 * and reader), export's sample columns (CSV and JSON alike), --batch's
 * level columns, and the PCP metrics published (publish.c) and exported
 * (export_pcp.c).  Adding a sample metric is one row here, plus the derive
 * code that fills the field; docs/hacking.md. */
#ifndef IODASH_SAMPLE_SCHEMA_H
#define IODASH_SAMPLE_SCHEMA_H

#include <stddef.h>
#include "iodash/sample/derive.h"

/* How a field is stored in the struct and written out.  The recording
 * writes each in its shortest exact form; export prints them as below. */
enum sample_type {
	SCT_TIME,     /* double, seconds on the session clock: export %.3f */
	SCT_SECS,     /* double, an amount of seconds: export 9 digits */
	SCT_DOUBLE,   /* double: export 9 significant digits, NaN as n/a */
	SCT_U64,      /* uint64_t */
	SCT_U32,      /* unsigned / uint32_t */
	SCT_INT,      /* int */
	SCT_I64,      /* int64_t */
	SCT_BOOL,     /* bool: 0/1 in a recording and CSV, true/false in JSON */
	SCT_ZONE,     /* enum dirty_zone, by its stable name */
	SCT_THR_SRC,  /* enum throttle_source, by its name ("" for none) */
	SCT_SKEW,     /* realtime_ns as the wall clock's stray from start + t:
		       * the S record's own encoding, written and read there */
	SCT_TEXT,     /* const char *: a text (the other record types' tables) */
	/* compare's tables */
	SCT_DOUBLE_G, /* double: CSV %g even when not finite (compare's x, min, max) */
	SCT_RATIO,    /* double that may be infinite: "inf" (JSON "inf" as a string) */
};

/* Where a field goes (bits). */
enum sample_where {
	SCW_REC = 1u << 0,     /* a column of the S record */
	SCW_EXPORT = 1u << 1,  /* an export column (CSV) / key (JSON) */
	SCW_BATCH = 1u << 2,   /* a --batch level column */
	SCW_REC_V1 = 1u << 3,  /* an S column of format 1 the reader still maps */
};

/* When a field has a value: without it export leaves the cell empty
 * (CSV) or the key out (JSON), and --batch prints n/a. */
enum sample_guard {
	SCG_ALWAYS,
	SCG_DIRTY,    /* have_dirty: vmstat was read */
	SCG_PSI,      /* have_psi */
	SCG_KERNEL,   /* thr_src == THR_SRC_KERNEL: the tracepoints were followed */
	SCG_MEMINFO,  /* have_dirty and meminfo read for this very sample (!meminfo_unread) */
};

/* How a field is a Performance Co-Pilot metric too: published live as
 * mmv.iodash.PID.<mmv name> (publish.c) and written by export --pcp as
 * <archive name> (export_pcp.c), which walk these rows, in the schema's
 * order.  SCP(mmv item, mmv name, archive item, archive name, semantics,
 * guard, help) or SCP_NONE.  A NULL name leaves the field out of that one.
 * - items: the item of the metric's PMID, given once and kept (archives
 *   made by different iodash versions keep one PMID a name; the MMV
 *   file's metrics are laid out in item order).  A new row takes the next
 *   free item of each: publish's bench.* metrics follow the highest mmv
 *   item, export's per-disk ones have items 8-10 (so iodash.time is 11;
 *   an archive-only row's mmv item is 0).
 * - names: the published and the archive's differ where a historic name
 *   stays: the published throttle.episodes and throttle.time are the
 *   archive's throttle.hits and throttle.seconds.
 * - types and units follow the row's: a number of seconds is published as
 *   whole ms (U64), other integers as U64; the zone as its name.
 * - guard: when PCP has the value (else none is put: n/a there); the
 *   zone, which export and --batch print as unknown, is n/a in PCP
 *   without vmstat.
 * - help: the published help text. */
enum sample_pcp_sem {
	SCP_INSTANT = 1,
	SCP_COUNTER,
};

struct sample_pcp {
	unsigned mmv_item;
	const char *mmv_name;
	unsigned archive_item;
	const char *archive_name;
	enum sample_pcp_sem sem;
	enum sample_guard guard;
	const char *help;
};

#define SCP(mi, mn, ai, an, se, gu, he) \
	{ .mmv_item = mi, .mmv_name = mn, .archive_item = ai, .archive_name = an, \
	  .sem = se, .guard = gu, .help = he }
#define SCP_NONE { .mmv_name = NULL }

/* The table: X(id, name, unit, type, field, where, guard, pcp).  Its order
 * is the S record's column order (format 2; a reader maps columns by name,
 * so rows may be added anywhere, but keep the writer's order stable for
 * old readers: append new S columns after "missed") and export's column
 * order, which are two subsequences of it.  Names are CSV/JSON keys. */
#define SAMPLE_SCHEMA(X) \
	X(T, "t", "s", SCT_TIME, t, SCW_REC | SCW_EXPORT, SCG_ALWAYS, \
	  SCP(0, NULL, 11, "iodash.time", SCP_INSTANT, SCG_ALWAYS, \
	      "seconds since the first sample on the sampler's monotonic clock: view's clock")) \
	X(SEQ, "seq", "count", SCT_U64, seq, SCW_REC | SCW_EXPORT, SCG_ALWAYS, SCP_NONE) \
	X(DT, "dt", "s", SCT_TIME, dt, SCW_REC | SCW_EXPORT, SCG_ALWAYS, SCP_NONE) \
	X(REALTIME_SKEW_NS, "realtime_skew_ns", "ns", SCT_SKEW, realtime_ns, SCW_REC, SCG_ALWAYS, SCP_NONE) \
	X(REALTIME_NS, "realtime_ns", "ns", SCT_I64, realtime_ns, SCW_EXPORT | SCW_REC_V1, SCG_ALWAYS, SCP_NONE) \
	X(HAVE_DIRTY, "have_dirty", "bool", SCT_BOOL, have_dirty, SCW_REC, SCG_ALWAYS, SCP_NONE) \
	X(DIRTY_KB, "dirty_kb", "kB", SCT_U64, dirty_kb, SCW_REC | SCW_EXPORT | SCW_BATCH, SCG_DIRTY, \
	  SCP(2, "dirty", 0, "iodash.dirty", SCP_INSTANT, SCG_DIRTY, "dirty page cache (vmstat nr_dirty)")) \
	X(WRITEBACK_KB, "writeback_kb", "kB", SCT_U64, writeback_kb, SCW_REC | SCW_EXPORT | SCW_BATCH, SCG_DIRTY, \
	  SCP(3, "writeback", 1, "iodash.writeback", SCP_INSTANT, SCG_DIRTY, "under writeback (nr_writeback)")) \
	X(BG_THRESH_KB, "bg_thresh_kb", "kB", SCT_U64, bg_thresh_kb, SCW_REC | SCW_EXPORT | SCW_BATCH, SCG_DIRTY, \
	  SCP(4, "thresholds.background", 2, "iodash.thresholds.background", SCP_INSTANT, SCG_DIRTY, \
	      "background writeback threshold (nr_dirty_background_threshold)")) \
	X(FREERUN_KB, "freerun_kb", "kB", SCT_U64, freerun_kb, SCW_REC | SCW_EXPORT | SCW_BATCH, SCG_DIRTY, \
	  SCP(5, "thresholds.freerun", 3, "iodash.thresholds.freerun", SCP_INSTANT, SCG_DIRTY, \
	      "freerun ceiling: (thresh + background) / 2")) \
	X(THRESH_KB, "thresh_kb", "kB", SCT_U64, thresh_kb, SCW_REC | SCW_EXPORT | SCW_BATCH, SCG_DIRTY, \
	  SCP(6, "thresholds.dirty", 4, "iodash.thresholds.dirty", SCP_INSTANT, SCG_DIRTY, \
	      "dirty threshold (nr_dirty_threshold)")) \
	X(MEMINFO_DIRTY_KB, "meminfo_dirty_kb", "kB", SCT_U64, meminfo_dirty_kb, SCW_REC | SCW_EXPORT, SCG_MEMINFO, SCP_NONE) \
	X(MEMINFO_WRITEBACK_KB, "meminfo_writeback_kb", "kB", SCT_U64, meminfo_writeback_kb, SCW_REC | SCW_EXPORT, SCG_MEMINFO, SCP_NONE) \
	X(ZONE, "zone", "name", SCT_ZONE, zone, SCW_REC | SCW_EXPORT | SCW_BATCH, SCG_ALWAYS, \
	  SCP(1, "zone", 5, "iodash.zone", SCP_INSTANT, SCG_DIRTY, \
	      "dirty-limit zone: below_bg, background, freerun, throttle or hard_limit")) \
	X(HAVE_PSI, "have_psi", "bool", SCT_BOOL, have_psi, SCW_REC, SCG_ALWAYS, SCP_NONE) \
	X(PSI_SOME, "psi_io_some_avg10", "%", SCT_DOUBLE, psi_io_some_avg10, SCW_REC | SCW_EXPORT, SCG_PSI, SCP_NONE) \
	X(PSI_FULL, "psi_io_full_avg10", "%", SCT_DOUBLE, psi_io_full_avg10, SCW_REC | SCW_EXPORT, SCG_PSI, SCP_NONE) \
	X(NDISKS, "ndisks", "count", SCT_INT, ndisks, SCW_REC, SCG_ALWAYS, SCP_NONE) \
	X(HIT_EVENT, "hit_event", "+1/-1/0", SCT_INT, hit_event, SCW_REC, SCG_ALWAYS, SCP_NONE) \
	X(HIT_DURATION, "hit_duration", "s", SCT_SECS, hit_duration, SCW_REC, SCG_ALWAYS, SCP_NONE) \
	X(HITS, "hits", "count", SCT_U32, hits, SCW_REC | SCW_EXPORT, SCG_ALWAYS, \
	  SCP(7, "throttle.episodes", 6, "iodash.throttle.hits", SCP_COUNTER, SCG_ALWAYS, \
	      "dirty-limit hits (throttle episodes) since iodash started")) \
	X(HIT_SECONDS, "hit_seconds", "s", SCT_SECS, hit_seconds, SCW_REC | SCW_EXPORT, SCG_ALWAYS, \
	  SCP(8, "throttle.time", 7, "iodash.throttle.seconds", SCP_COUNTER, SCG_ALWAYS, \
	      "time spent in dirty-limit hits since iodash started")) \
	X(MISSED, "missed", "count", SCT_U64, missed, SCW_REC, SCG_ALWAYS, SCP_NONE) \
	X(MEMINFO_UNREAD, "meminfo_unread", "bool", SCT_BOOL, meminfo_unread, SCW_REC, SCG_ALWAYS, SCP_NONE) \
	X(THROTTLE_SOURCE, "throttle_source", "name", SCT_THR_SRC, thr_src, SCW_EXPORT, SCG_ALWAYS, SCP_NONE) \
	X(THROTTLED, "throttled", "bool", SCT_BOOL, throttled, SCW_EXPORT, SCG_ALWAYS, SCP_NONE) \
	X(PAUSES, "pauses", "count", SCT_U32, pauses, SCW_EXPORT, SCG_KERNEL, SCP_NONE) \
	X(PAUSED_MS, "paused_ms", "ms", SCT_DOUBLE, paused_ms, SCW_EXPORT, SCG_KERNEL, SCP_NONE)

#define SAMPLE_SCHEMA_ID(id, name, unit, type, field, where, guard, pcp) SF_##id,
enum sample_field { SAMPLE_SCHEMA(SAMPLE_SCHEMA_ID) SF_N };
#undef SAMPLE_SCHEMA_ID

struct sample_col {
	const char *name;
	const char *unit;
	enum sample_type type;
	size_t off;             /* offsetof(struct sample, field) */
	size_t size;            /* sizeof that field: the tests check it fits the type */
	unsigned where;         /* enum sample_where bits */
	enum sample_guard guard;
	struct sample_pcp pcp;
};

extern const struct sample_col sample_cols[SF_N];

/* Is the field a double (SCT_TIME, SCT_SECS, SCT_DOUBLE)? */
bool sample_col_is_double(const struct sample_col *c);
/* The field's value in a sample: a double for the double types, else
 * the integer (bool, enum and unsigned types widened, no sign lost). */
double sample_col_double(const struct sample *s, const struct sample_col *c);
int64_t sample_col_int(const struct sample *s, const struct sample_col *c);
/* Store into the field, converting to its type as an assignment does. */
void sample_col_set_double(struct sample *s, const struct sample_col *c, double v);
void sample_col_set_int(struct sample *s, const struct sample_col *c, int64_t v);

/* Does the sample have this field's value (enum sample_guard)? */
bool sample_col_present(const struct sample *s, const struct sample_col *c);
/* Does the guard hold for the sample (PCP's guard is a row's second)? */
bool sample_guard_holds(const struct sample *s, enum sample_guard g);

#endif
