/* parsers: benchmark output and mail tables to result points.  Feed lines
 * as they arrive (live) or a whole file (import).  On any input a parser
 * never crashes, never loops and keeps its memory bounded.
 *
 * Points (see result.h).  Final points carry RP_FINAL; live/interval
 * figures carry RP_PROGRESS with x_name "time_s" (seconds since the tool
 * started measuring).  A run with progress but no final figure gets, at
 * parser_finish(), one more copy of its last progress point flagged
 * RP_PROGRESS|RP_INCOMPLETE (never RP_FINAL) and progress.incomplete.
 * run: final points with the same (label, metric, x) are numbered 0, 1, 2
 * in the order seen, unless parser_set_run() fixes it; mails number runs
 * from their layout.  Names, units and x (docs/parsers.md has examples):
 *
 *  dbench   x "clients" (dbench 4) or "procs" (1.x-3.x "N procs")
 *           throughput MB/s, max_latency ms (dbench 4);
 *           progress: throughput MB/s, latency ms; phase warmup/execute/cleanup
 *  fio      x "bs_kb" (block size in KiB, when read and write bs agree and
 *           the output shows it), else "run" 0 (terse)
 *           read_bw, write_bw KiB/s; read_iops, write_iops IOPS;
 *           read_clat_avg, read_clat_p50, _p90, _p95, _p99, _p99_9 us (and write_*);
 *           clat only for one job block (or group_reporting); numjobs clones
 *           add, after the sums, read_bw_per_job, read_iops_per_job, read_clat_avg,
 *           read_lat_avg: one point per clone, all of one run (and write_*);
 *           progress: per-interval read_bw/write_bw/read_iops/write_iops from
 *           the cumulative --status-interval reports (normal and json), and
 *           the --eta line's rates (x = update count, fio updates it each second)
 *  iozone   x "reclen_kb"; write, rewrite, read, reread, random_read,
 *           random_write, bkwd_read, record_rewrite, stride_read, fwrite,
 *           frewrite, fread, freread in KB/s (or ops/s with -O); auto mode with
 *           varying file sizes adds " <N>kB" (the file size) to the label;
 *           throughput mode (-t): x "threads", same metric names
 *  bonnie   x "size_mb" (the test file size); bonnie++'s CSV header's
 *           names: putc, put_block, rewrite, getc, get_block KiB/s;
 *           seeks /s; seq_create, seq_stat, seq_del, ran_create, ran_stat,
 *           ran_del files/s; <metric>_latency as printed.  "+++++" gives
 *           RP_TOO_FAST with value NaN (too fast to measure, never 0).
 *           The CSV line wins over the human table of the same run.
 *  sysbench x "threads"; read_bw, write_bw MiB/s; reads_per_s, writes_per_s,
 *           fsyncs_per_s /s; latency_avg, latency_max, latency_p95 ms;
 *           prepare_write_bw MiB/s; progress (--report-interval): read_bw,
 *           write_bw, fsyncs_per_s, latency_p95
 *  mail     (also "tables": src/parsers/tables.c) any result table a person
 *           wrote, geometry then roles: labels from the header, the rows'
 *           names or the title above; x from a column, a row key
 *           ("1-groups", "latency-64") or the header ("numjobs=1"); the
 *           metric from the rows, the title or the prose above; a table whose
 *           roles cannot be told is said, not read.  dbench lines, bonnie++
 *           tables and CSV, iozone rows as above, under their label lines
 *           ("2.4.16:", "2.6.24-rc2 #28 SMP"), a "---- (5,10) - ..." heading's
 *           setting; a stated spread ("116.1 (3.2)", "± 18%") goes to spread
 *           with RP_SPREAD; quoted-printable bodies and wrapped rows are put
 *           back together (docs/parsers.md).
 */
#ifndef IODASH_PARSER_H
#define IODASH_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include "iodash/parsers/result_set.h"

struct parser;

/* Live state a parser can report for the header/output pane (dbench
 * phase and progress throughput, fio eta line ...). */
struct parser_progress {
	bool valid;
	char phase[16];        /* "warmup", "execute", "cleanup", "running", "" */
	double elapsed_s;      /* tool-reported elapsed time, < 0 if unknown */
	double throughput;     /* last live figure, < 0 if unknown */
	char unit[RP_UNIT_LEN];
	double latency_ms;     /* < 0 if unknown */
	bool incomplete;       /* set at parser_finish: progress but no final figure */
};

/* Names: "dbench", "fio", "iozone", "bonnie", "sysbench", "mail", "auto".
 * NULL when the name is unknown. label is the run label of the points. */
struct parser *parser_new(const char *name, const char *label);
void parser_free(struct parser *p);
/* For "auto", the detected parser's name once known. */
const char *parser_name(const struct parser *p);

/* Whether a tool names metric among its headline figures (dbench's
 * throughput, fio's and sysbench's read_bw and write_bw, iozone's write and
 * read, bonnie++'s block output and input): what stands for a run where
 * one figure must (mmv.iodash.*.bench.result, the fleet). */
bool parser_metric_is_headline(const char *metric);

/* The parser for a command's argv[0] ("/usr/bin/dbench" -> "dbench"),
 * or NULL when none fits. */
const char *parser_for_command(const char *argv0);

/* A chunk of raw output (any bytes; \r, \n or \r\n end lines). */
void parser_feed(struct parser *p, const char *buf, size_t len, struct result_sink *sink);
/* End of input: flush, emit final points, mark incomplete runs. */
void parser_finish(struct parser *p, struct result_sink *sink);
void parser_get_progress(const struct parser *p, struct parser_progress *out);

/* Parse a whole text file (benchmark output or a mail), guessing the
 * format when name is NULL or "auto".  Default label: parser_default_label().
 * Returns 0 or -errno with err "FILE: why" (-ENODATA for an empty file or
 * one without results). */
int parser_parse_file(const char *path, const char *name, const char *label,
		      struct result_set *out, char *err, size_t errlen);

/* The default run label of a file: its base name without the extension;
 * a name longer than a label keeps its first characters and a hash of the
 * whole name ("...~1a2b3c4d"), so that two long names never become one
 * label.  Returns buf. */
const char *parser_default_label(const char *path, char *buf, size_t len);

/* How a parser read its input, table by table (the mail parser keeps
 * them): the lines a table spans (1-based), whether it was understood,
 * and in words what was read ("table 4: 8 rows; labels vanilla, dirty;
 * x clients; metric dbench4_hmean; ...") or why not ("2 value columns and
 * no header to tell them apart: not read").  Bounded (PARSER_NOTES_MAX
 * kept; a note's roles and a stated change that does not fit take up to
 * 320 characters). */
#define PARSER_NOTES_MAX 64
struct parser_note {
	int first, last;
	bool understood;
	char text[320];
};
size_t parser_notes(const struct parser *p, const struct parser_note **notes);
/* parser_parse_file() that also copies the notes (notes may be NULL). */
int parser_parse_file_notes(const char *path, const char *name, const char *label,
			    struct result_set *out, struct parser_note *notes, size_t maxnotes,
			    size_t *nnotes, char *err, size_t errlen);

/* The i-th parser's name (--parser), NULL past the last: every list of
 * parser names is made from the one table of parsers. */
const char *parser_name_at(size_t i);
/* The Debian package that has the benchmark command argv0 (its base
 * name), NULL when no parser reads that command. */
const char *parser_package_for_command(const char *argv0);

/* For sweeps: the x of every final point (e.g. "clients", 4 from
 * -p clients=1,2,4), overriding what the parser would choose.  0 or -EINVAL. */
int parser_set_x(struct parser *p, const char *x_name, double x);
/* A fixed run number for every point (the caller numbers runs). 0 or -EINVAL. */
int parser_set_run(struct parser *p, int run);

#endif
