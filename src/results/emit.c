/* The CSV and JSON emitters (emit.h): one field at a time, the syntax
 * of each format in one place. */
#include <math.h>
#include <stdio.h>
#include "iodash/results/emit.h"
#include "iodash/base/text.h"
#include "record/rec_format.h"

/* Where a sample's throttling comes from, as export names it. */
static const char *thr_src_name(enum throttle_source src)
{
	return src == THR_SRC_KERNEL ? "kernel" : src == THR_SRC_SAMPLED ? "sampled" : "";
}

static void csv_row_begin(struct emitter *e, bool first)
{
	(void)first;
	e->n = 0;
}

static void csv_field(struct emitter *e, const char *name, enum sample_type type,
		      const union ex_v *v, bool present)
{
	(void)name;
	if (e->n++)
		fputc(',', e->out);
	if (!present)
		return;
	switch (type) {
	case SCT_TIME: fprintf(e->out, "%.3f", v->d); break;
	/* n/a (NaN) is an empty cell, not a fake zero */
	case SCT_SECS: case SCT_DOUBLE: text_put_number(e->out, v->d, e->digits, false); break;
	case SCT_U64: case SCT_U32: fprintf(e->out, "%llu", (unsigned long long)v->i); break;
	case SCT_INT: case SCT_I64: case SCT_SKEW: fprintf(e->out, "%lld", (long long)v->i); break;
	case SCT_BOOL: fprintf(e->out, "%d", v->i ? 1 : 0); break;
	case SCT_ZONE:
		if (v->i != ZONE_UNKNOWN)
			fputs(rec_zone_name((enum dirty_zone)v->i), e->out);
		break;
	case SCT_THR_SRC: fputs(thr_src_name((enum throttle_source)v->i), e->out); break;
	case SCT_TEXT: rec_csv_str(e->out, v->s); break;
	case SCT_DOUBLE_G:
		if (isfinite(v->d))
			text_put_number(e->out, v->d, e->digits, false);   /* printf's bytes, faster */
		else
			fprintf(e->out, "%.*g", e->digits, v->d);
		break;
	case SCT_RATIO:
		if (isinf(v->d))
			fputs("inf", e->out);
		else
			text_put_number(e->out, v->d, e->digits, false);
		break;
	}
}

static void csv_row_end(struct emitter *e)
{
	fputc('\n', e->out);
}

static void json_row_begin(struct emitter *e, bool first)
{
	fprintf(e->out, "%s\n%*s{", first ? "" : ",", e->indent, "");
	e->n = 0;
}

static void json_field(struct emitter *e, const char *name, enum sample_type type,
		       const union ex_v *v, bool present)
{
	if (!present)
		return;
	fprintf(e->out, "%s\"%s\": ", e->n++ ? ", " : "", name);
	switch (type) {
	case SCT_TIME: fprintf(e->out, "%.3f", v->d); break;
	/* a figure this kernel's line lacks is null */
	case SCT_SECS: case SCT_DOUBLE: text_put_number(e->out, v->d, e->digits, true); break;
	case SCT_U64: case SCT_U32: fprintf(e->out, "%llu", (unsigned long long)v->i); break;
	case SCT_INT: case SCT_I64: case SCT_SKEW: fprintf(e->out, "%lld", (long long)v->i); break;
	case SCT_BOOL: fputs(v->i ? "true" : "false", e->out); break;
	case SCT_ZONE: fprintf(e->out, "\"%s\"", rec_zone_name((enum dirty_zone)v->i)); break;
	case SCT_THR_SRC: fprintf(e->out, "\"%s\"", thr_src_name((enum throttle_source)v->i)); break;
	case SCT_TEXT: rec_json_str(e->out, v->s); break;
	case SCT_DOUBLE_G: text_put_number(e->out, v->d, e->digits, true); break;
	case SCT_RATIO:
		if (isinf(v->d))
			fputs("\"inf\"", e->out);
		else
			text_put_number(e->out, v->d, e->digits, true);
		break;
	}
}

static void json_row_end(struct emitter *e)
{
	fputc('}', e->out);
}

/* NDJSON: the JSON rows, each an object on a line of its own */
static void ndjson_row_begin(struct emitter *e, bool first)
{
	(void)first;
	fputc('{', e->out);
	e->n = 0;
}

static void ndjson_row_end(struct emitter *e)
{
	fputs("}\n", e->out);
}

const struct emit_ops emit_csv = { EX_CSV, csv_row_begin, csv_field, csv_row_end };
const struct emit_ops emit_json = { EX_JSON, json_row_begin, json_field, json_row_end };
const struct emit_ops emit_ndjson = { EX_JSON, ndjson_row_begin, json_field, ndjson_row_end };

void emit_row(struct emitter *e, bool first, const struct ex_col *cols, size_t n,
	      const union ex_v *v)
{
	e->ops->row_begin(e, first);
	for (size_t c = 0; c < n; c++)
		if (cols[c].fmts & e->ops->fmt)
			e->ops->field(e, cols[c].name, cols[c].type, &v[c], true);
	e->ops->row_end(e);
}

void emit_csv_header(FILE *out, const struct ex_col *cols, size_t n)
{
	for (size_t c = 0, k = 0; c < n; c++)
		if (cols[c].fmts & EX_CSV)
			fprintf(out, "%s%s", k++ ? "," : "", cols[c].name);
	fputc('\n', out);
}
