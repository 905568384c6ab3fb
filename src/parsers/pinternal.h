/* parsers, private: the parser core shared by every tool parser (line
 * assembly, emission with run numbering, incomplete-run marking) and the
 * small number/unit/token helpers, kept in one place so that no parser
 * carries its own copy. */
#ifndef IODASH_PARSERS_PINTERNAL_H
#define IODASH_PARSERS_PINTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "iodash/parsers/parser.h"

/* Longest line kept; the rest of a longer line is dropped (a fio terse v3
 * line is ~1.1 KB, the widest real line seen). */
#define PARSER_LINE_MAX 8192
/* (label, metric, x) keys remembered for run numbering; bounded. */
#define PARSER_RUNKEYS 512
/* Run numbers stop growing here (endless input must not overflow them). */
#define PARSER_RUN_MAX 1000000

struct parser;

struct parser_ops {
	const char *name;
	size_t state_size;
	void (*init)(struct parser *p);
	/* One line, NUL-terminated, without its end; by_cr: it ended in a
	 * lone \r (fio's status line); truncated: longer than PARSER_LINE_MAX. */
	void (*line)(struct parser *p, char *line, size_t len, bool by_cr, bool truncated);
	void (*finish)(struct parser *p);
	void (*fini)(struct parser *p);
	/* The commands (base names) whose output it reads, NULL-terminated:
	 * run and sweep choose the parser from the benchmark's argv[0]. */
	const char *const *commands;
	/* The Debian package that has those commands, for the "is it
	 * installed?" hint when one cannot be run. */
	const char *package;
	/* A (trimmed) line that names this tool for certain: auto and the
	 * file guess offer each line to every parser's sniff.  NULL: never
	 * chosen by sniffing (mail, auto). */
	bool (*sniff)(const char *line);
	/* Its headline metrics, NULL-terminated: the figures that say what the
	 * run measured (dbench's throughput, not its max_latency), which
	 * mmv.iodash.*.bench.result publishes.  NULL: none stands out. */
	const char *const *headline;
};

/* The i-th row of the table of parsers, NULL past the last. */
const struct parser_ops *pp_ops_at(size_t i);

struct run_key {
	char label[RP_LABEL_LEN];
	char setting[RP_LABEL_LEN];
	char metric[RP_NAME_LEN];
	double x;
	int count;
	uint32_t hash;
	int next;              /* the next key of its hash bucket, -1 none */
};
#define PARSER_RUNKEY_BUCKETS 1024

struct parser {
	const struct parser_ops *ops;
	void *st;
	char label[RP_LABEL_LEN];
	char setting[RP_LABEL_LEN];      /* the knob setting of the points emitted now (a
	                                  * mail's "---- (5,10)" section), given to those that
	                                  * name none; "" none */
	struct result_sink *sink;        /* valid inside feed/finish only */
	/* line assembly */
	char line[PARSER_LINE_MAX + 1];
	size_t len;
	bool truncated;
	bool last_cr;
	bool finished;
	/* live state for the header */
	struct parser_progress prog;
	/* run numbering of final points: run = earlier finals with the same key */
	struct run_key runs[PARSER_RUNKEYS];
	size_t nruns, runs_next;
	int run_bucket[PARSER_RUNKEY_BUCKETS];   /* first key of each hash, index + 1 (0 none) */
	/* incomplete-run marking */
	unsigned long n_final, n_progress;
	struct result_point last_progress[8];   /* the points of the last progress x */
	size_t n_last_progress;
	/* set by the caller: x of final points, fixed run number */
	bool x_set;
	char x_name[RP_NAME_LEN];
	double x;
	int run_fixed;                   /* < 0: number runs automatically */
	/* the auto parser's chosen child reports its name */
	struct parser *child;
	/* input lines seen (the number of the line being read), and notes */
	int lineno;
	int n_out_of_range;              /* numbers out of range, noted up to 3 */
	struct parser_note notes[PARSER_NOTES_MAX];
	size_t nnotes;
};

/* A note on lines first..last of the input (printf format). */
void pp_note(struct parser *p, int first, int last, bool understood, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* The ops of every parser (one file each). */
extern const struct parser_ops parser_dbench_ops, parser_fio_ops, parser_iozone_ops,
	parser_bonnie_ops, parser_sysbench_ops, parser_mail_ops, parser_tables_ops, parser_auto_ops;

const struct parser_ops *pp_ops_by_name(const char *name);
/* Feed one assembled line to p (the auto parser replays into its child). */
void pp_line(struct parser *p, char *line, size_t len, bool by_cr, bool truncated);

/* Emission.  An empty label means p->label; run < 0 numbers runs
 * automatically for final points (0 for others).  Non-finite values are
 * dropped unless RP_TOO_FAST (value unknown, NaN by contract). */
void pp_emit_point(struct parser *p, struct result_point *pt);
void pp_emit(struct parser *p, const char *label, int run, const char *x_name, double x,
	     const char *metric, double value, const char *unit, unsigned flags);
void pp_set_progress(struct parser *p, const char *phase, double elapsed_s,
		     double throughput, const char *unit, double latency_ms);

/* Copy with truncation, always NUL-terminated. */
void pp_strlcpy(char *dst, const char *src, size_t n);
/* The first len bytes of s (up to a NUL) into dst of n bytes, truncated:
 * snprintf's "%.*s" without its cost, for the cells of every row. */
void pp_strlcpy_span(char *dst, size_t n, const char *s, size_t len);

/* The number the last pp_scan_number() of this thread refused as out of
 * range (its shape, past a double: "1e309"), "" when none; cleared. */
const char *pp_take_out_of_range(char *buf, size_t n);

/* A plain decimal number (sign, digits, '.', exponent): no hex, inf, nan.
 * Returns the characters used (0 when none) and the value in *out. */
size_t pp_scan_number(const char *s, double *out);
/* The whole string is one plain number. */
bool pp_is_number(const char *s, double *out);
/* Factor from a size unit to KiB ("B", "KiB", "kB", "MiB", "MB", "GiB" ...),
 * with or without "/s" or "/sec"; 0 when unknown.  SI prefixes are 1000-based. */
double pp_unit_to_kib(const char *unit, size_t len);
/* Factor from a time unit to microseconds ("nsec","usec","msec","sec","ns","us","ms","s"); 0 unknown. */
double pp_time_to_us(const char *unit, size_t len);
/* A time unit as results give it: "nsec"/"ns" is "ns", "usec" "us",
 * "msec" "ms", "sec" "s" (out: RP_UNIT_LEN); false when not a time. */
bool pp_time_unit(const char *unit, size_t len, char *out);
/* A number with a k/m/g suffix: base 1000 (fio IOPS "90.0k") or 1024
 * (sizes).  Returns characters used, 0 when none. */
size_t pp_scan_suffixed(const char *s, double base, double *out);
/* fio/iozone style size "4k", "1M", "1024KiB", "4096B", "2G" to KiB (binary); false if not one. */
bool pp_size_to_kib(const char *s, size_t len, double *kib);

/* Tokens of a line, with their columns after expanding tabs to 8. */
struct pp_tok {
	const char *s;   /* points into the caller's line */
	size_t len;
	int col, endcol; /* display columns [col, endcol) */
};
/* Split at blanks (tabs, spaces); max tokens kept, the count returned. */
size_t pp_tokens(const char *line, struct pp_tok *t, size_t max);
/* Split into cells at tabs or runs of 2+ spaces (mail table cells). */
size_t pp_cells(const char *line, struct pp_tok *t, size_t max);
bool pp_tok_eq(const struct pp_tok *t, const char *word);
bool pp_tok_number(const struct pp_tok *t, double *out);

/* Leading/trailing blanks; returns start and sets *len. */
const char *pp_trim(const char *s, size_t *len);
bool pp_starts_with(const char *s, const char *prefix);
/* The length of the quote marks of a mail or markdown quote in front of
 * a line ("> ", "> > ", ">> "), 0 when it has none. */
size_t pp_quote_len(const char *line);
/* The line past its quote marks and the blanks after them (for sniffing). */
const char *pp_unquoted(const char *line);

/* A title a person wrote over a benchmark's output in a post or a
 * markdown page names the run under it: a markdown heading ("## vultr -
 * 488M"; one '#' is a root prompt or a comment, never a title) or a line
 * underlined with '=' or '-' ("Without 6a3afb6ac6 (...)" over "==").  A
 * tool reader feeds its lines outside its reports to pp_title_line() and
 * calls pp_title_apply() where a run starts: the runs under two titles
 * are never pooled as runs of one label. */
struct pp_title {
	char prev[160];       /* the line before, trimmed, when it could be a title */
	bool prev_ok;
	char title[160];
	bool fresh;           /* a title came since the last run started */
	char base[RP_LABEL_LEN];      /* the label before any title */
	char applied[RP_LABEL_LEN];   /* the label a title made, "" none */
};
/* t: a trimmed, unquoted line of l bytes; true when it was title markup
 * (a heading, or the rule under a title). */
bool pp_title_line(struct pp_title *tt, const char *t, size_t l);
/* A run starts: a title that came since the last one becomes p->label
 * ("LABEL title", cut with a hash of the title when too long, so two
 * titles never make one label). */
void pp_title_apply(struct parser *p, struct pp_title *tt);
/* base and tail as "base tail" in buf (n bytes, a label); when they do not
 * fit, the base gives way first, then the tail is cut and a hash of it
 * added, so two tails never make one label. */
void pp_label_join(char *buf, size_t n, const char *base, const char *tail);

/* dbench's "Throughput V MB/sec ... N procs|clients" line: 0 not one, 1
 * complete, 2 wrapped (x given, its unit on the next line). */
int dbench_parse_throughput(const char *line, double *value, const char **x_name, double *x);
/* The same, and dbench 4's max_latency=... (NaN when the line has none). */
int dbench_parse_final(const char *line, double *value, const char **x_name, double *x, double *max_lat);

/* Shared between the tool parser and the mail parser. */
#define IOZONE_NCOLS 13
extern const char *const iozone_metrics[IOZONE_NCOLS];
/* An iozone row "file_kb reclen_kb v1 v2 ..." with values in column order
 * (NaN = empty cell): emits one final point per value. */
void iozone_emit_row(struct parser *p, const char *label, int run, double reclen_kb,
		     const double *v, size_t n, const char *unit);

/* bonnie++'s human tables, used by the bonnie parser and inside mails. */
struct bonnie_table {
	int kind;            /* 0 none, 1 sequential i/o header seen, 2 file creation header seen */
	int rows_io, rows_files;
	double size_mb[16];  /* per row of the i/o table: x of the file-creation row */
	int last_kind;       /* the table of the previous data row, for its Latency row */
	int last_row;
	/* the columns where the header's "K/sec" ("/sec") and "%CP" end: rows
	 * with empty cells (bonnie++ -f) are read by them */
	int edge[12];
	int nedge;
	/* the machine name of the current data row, and of each i/o row (the
	 * file rows of bonnie++'s own table carry none: they are the i/o
	 * row's run); "" when the row has none */
	char row_name[RP_LABEL_LEN];
	char io_name[16][RP_LABEL_LEN];
};
/* Returns true when the line belonged to a table (header, data, latency). */
struct result_set;
/* Points go to hold (bounded) when it is not NULL, else are emitted. */
bool bonnie_table_line(struct parser *p, struct bonnie_table *bt, const char *line,
		       const char *label, struct result_set *hold);
/* A bonnie++ CSV record (line split in place): true when it was one. */
bool bonnie_csv_record(struct parser *p, char *line, const char *label, struct result_set *hold, size_t keep);

#endif
