/* emit: CSV and JSON as two emitters of one walk.  export and compare walk
 * their tables (the sample schema, the event/result/output and compare
 * tables) and hand each field to an emitter, which alone knows the
 * syntax.  A table row may be for one format only (EX_CSV, EX_JSON). */
#ifndef IODASH_EMIT_H
#define IODASH_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "iodash/sample/sample_schema.h"

enum { EX_CSV = 1u << 0, EX_JSON = 1u << 1, EX_BOTH = EX_CSV | EX_JSON };

/* The formats export and compare write (--text, --csv, --json, --ndjson;
 * FMT_NONE: none asked, the command's default). */
enum out_format { FMT_NONE, FMT_TEXT, FMT_CSV, FMT_JSON, FMT_NDJSON };
/* export --table: the one table --csv and --ndjson write */
enum export_table { EXPORT_SAMPLES, EXPORT_EVENTS, EXPORT_RESULTS };

union ex_v {
	double d;
	int64_t i;
	const char *s;
};

struct emitter;
struct emit_ops {
	unsigned fmt;           /* EX_CSV or EX_JSON: which table rows it takes */
	void (*row_begin)(struct emitter *e, bool first);
	/* present false: no value (CSV: an empty cell; JSON: no key) */
	void (*field)(struct emitter *e, const char *name, enum sample_type type,
		      const union ex_v *v, bool present);
	void (*row_end)(struct emitter *e);
};

struct emitter {
	const struct emit_ops *ops;
	FILE *out;
	int indent;             /* JSON: spaces before a row's '{' on its line */
	int digits;             /* significant digits of a double */
	int n;                  /* fields so far in the row (or JSON object) */
};

extern const struct emit_ops emit_csv, emit_json, emit_ndjson;

/* A column of a table: its name, type and the formats that take it. */
struct ex_col {
	const char *name;
	enum sample_type type;
	unsigned fmts;
};

/* One row of a table: its values in the table's order. */
void emit_row(struct emitter *e, bool first, const struct ex_col *cols, size_t n,
	      const union ex_v *v);
/* CSV's header line of a table. */
void emit_csv_header(FILE *out, const struct ex_col *cols, size_t n);

#endif
