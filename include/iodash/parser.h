/* parsers: benchmark output and mail tables to result points.  Feed lines
 * as they arrive (live) or a whole file (import).  On any input a parser
 * never crashes, never loops and keeps its memory bounded. */
#ifndef IODASH_PARSER_H
#define IODASH_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include "iodash/result.h"

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
};

/* Names: "dbench", "fio", "iozone", "bonnie", "sysbench", "mail", "auto".
 * NULL when the name is unknown. label is the run label of the points. */
struct parser *parser_new(const char *name, const char *label);
void parser_free(struct parser *p);
const char *parser_name(const struct parser *p);

/* The parser for a command's argv[0] ("/usr/bin/dbench" -> "dbench"),
 * or NULL when none fits. */
const char *parser_for_command(const char *argv0);

/* A chunk of raw output (any bytes; \r, \n or \r\n end lines). */
void parser_feed(struct parser *p, const char *buf, size_t len, struct result_sink *sink);
/* End of input: flush, emit final points, mark incomplete runs. */
void parser_finish(struct parser *p, struct result_sink *sink);
void parser_get_progress(const struct parser *p, struct parser_progress *out);

/* Parse a whole text file (benchmark output or a mail), guessing the
 * format when name is NULL or "auto".  Default label: the file's base name.
 * Returns 0 or -errno with err "FILE: why". */
int parser_parse_file(const char *path, const char *name, const char *label,
		      struct result_set *out, char *err, size_t errlen);

/* The names of all parsers, NULL-terminated (for --help). */
extern const char *const parser_names[];

#endif
