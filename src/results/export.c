/* export: a recording as data for pandas, R, gnuplot or jq.
 * --csv and --ndjson: one table (samples, events or results), a header row
 * and rows of one length, or one JSON object a line; --json: the header
 * and every table in one document. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/results/emit.h"
#include "iodash/results/export.h"
#include "iodash/base/namemap.h"
#include "iodash/sample/sample_schema.h"
#include "iodash/base/text.h"
#include "record/rec_format.h"

/* 9 significant digits hold every recorded figure */
#define EXPORT_DIGITS 9

/* Every section walks its table (the sample schema, or the tables below)
 * and hands each field to the emitter of the format (emit.h), the same
 * columns in every format (results' flags are four named booleans in CSV
 * and JSON alike); a row may be for one format only.
 * The tables of the other record types export writes:
 * X(name, type, formats, union ex_v member, value). */
#define EVENT_COLS(X) \
	X("t", SCT_TIME, EX_BOTH, d, e.t) \
	X("kind", SCT_TEXT, EX_BOTH, s, rec_event_kind_name(e.kind)) \
	X("text", SCT_TEXT, EX_BOTH, s, e.text)
#define RESULT_COLS(X) \
	X("t", SCT_TIME, EX_BOTH, d, t) \
	X("label", SCT_TEXT, EX_BOTH, s, p.label) \
	X("run", SCT_INT, EX_BOTH, i, p.run + 1) \
	X("x_name", SCT_TEXT, EX_BOTH, s, p.x_name) \
	X("x", SCT_DOUBLE, EX_BOTH, d, p.x) \
	X("metric", SCT_TEXT, EX_BOTH, s, p.metric) \
	X("value", SCT_DOUBLE, EX_BOTH, d, (p.flags & RP_TOO_FAST) ? NAN : p.value) \
	X("unit", SCT_TEXT, EX_BOTH, s, p.unit) \
	X("final", SCT_BOOL, EX_BOTH, i, !!(p.flags & RP_FINAL)) \
	X("progress", SCT_BOOL, EX_BOTH, i, !!(p.flags & RP_PROGRESS)) \
	X("incomplete", SCT_BOOL, EX_BOTH, i, !!(p.flags & RP_INCOMPLETE)) \
	X("too_fast", SCT_BOOL, EX_BOTH, i, !!(p.flags & RP_TOO_FAST)) \
	X("setting", SCT_TEXT, EX_BOTH, s, p.setting)
/* benchmark output: JSON only, for completeness (CSV has no section) */
#define OUTPUT_COLS(X) \
	X("t", SCT_TIME, EX_JSON, d, l.t) \
	X("run", SCT_INT, EX_JSON, i, l.run + 1) \
	X("text", SCT_TEXT, EX_JSON, s, l.text)

#define EX_COL(nm, ty, fm, mem, val) { nm, ty, fm },
#define EX_VAL(nm, ty, fm, mem, val) { .mem = (val) },
static const struct ex_col event_cols[] = { EVENT_COLS(EX_COL) };
static const struct ex_col result_cols[] = { RESULT_COLS(EX_COL) };
static const struct ex_col output_cols[] = { OUTPUT_COLS(EX_COL) };
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* A sample's fields, as the schema's export rows say */
static void emit_sample_fields(struct emitter *e, const struct sample *s)
{
	for (int i = 0; i < SF_N; i++) {
		const struct sample_col *c = &sample_cols[i];
		union ex_v v;
		if (!(c->where & SCW_EXPORT))
			continue;
		if (sample_col_is_double(c))
			v.d = sample_col_double(s, c);
		else
			v.i = sample_col_int(s, c);
		e->ops->field(e, c->name, c->type, &v, sample_col_present(s, c));
	}
}

/* CSV's disk columns: every device of the recording (any number), by
 * name through a hash, and for the sample being written, each column's
 * device in it (at[k], NULL: not in this sample). */
struct export_disks {
	char (*name)[SNAP_DISK_NAME_LEN];
	const struct disk_rate **at;
	int n, cap, cap_at;
	struct namemap ix;
};

static void export_disks_free(struct export_disks *x)
{
	free(x->name);
	free(x->at);
	namemap_free(&x->ix);
}

/* CSV: every known disk's figures in columns (a disk missing from this
 * sample leaves its cells empty).  JSON: the sample's disks as a list. */
static void emit_sample_disks(struct emitter *e, const struct sample *s, struct export_disks *x)
{
	union ex_v v;

	if (e->ops->fmt == EX_CSV) {
		for (int k = 0; k < x->n; k++)
			x->at[k] = NULL;
		for (int d = 0; d < s->ndisks; d++) {
			int k = namemap_get(&x->ix, s->disks[d].name);
			if (k >= 0)
				x->at[k] = &s->disks[d];
		}
		for (int k = 0; k < x->n; k++) {
			const struct disk_rate *dr = x->at[k];
			for (int c = 0; c < DF_N; c++) {
				v.d = dr ? disk_rate_figure(dr, c) : NAN;
				e->ops->field(e, disk_figure_name(c), SCT_DOUBLE, &v, dr != NULL);
			}
		}
		return;
	}
	fputs(", \"disks\": [", e->out);
	for (int d = 0; d < s->ndisks; d++) {
		struct emitter de = { e->ops, e->out, 0, e->digits, 0 };
		fputs(d ? ", {" : "{", e->out);
		v.s = s->disks[d].name;
		de.ops->field(&de, "name", SCT_TEXT, &v, true);
		v.i = 1;
		de.ops->field(&de, "partition", SCT_BOOL, &v, s->disks[d].is_partition);
		for (int c = 0; c < DF_N && s->disks[d].have_rate; c++) {
			v.d = disk_rate_figure(&s->disks[d], c);
			de.ops->field(&de, disk_figure_name(c), SCT_DOUBLE, &v, true);
		}
		fputc('}', e->out);
	}
	fputc(']', e->out);
}

/* The disks of every sample: CSV's columns come up front (hotplug: a disk
 * missing from a sample leaves its cells empty).  0, or -ENOMEM. */
static int export_list_disks(const struct recording *rec, struct sample *s, struct export_disks *x)
{
	for (size_t i = 0; i < recording_count(rec, RK_SAMPLE); i++) {
		if (recording_sample(rec, i, s))
			continue;
		for (int d = 0; d < s->ndisks; d++) {
			if (namemap_get(&x->ix, s->disks[d].name) >= 0)
				continue;
			void *p = x->name;
			if (snapshot_grow_array(&p, &x->cap, x->n + 1, sizeof(*x->name)))
				return -ENOMEM;
			x->name = p;
			if (namemap_put(&x->ix, s->disks[d].name, x->n))
				return -ENOMEM;
			memcpy(x->name[x->n++], s->disks[d].name, SNAP_DISK_NAME_LEN);
		}
	}
	void *p = x->at;
	if (snapshot_grow_array(&p, &x->cap_at, x->n, sizeof(*x->at)))
		return -ENOMEM;
	x->at = p;
	return 0;
}

static void export_samples(const struct recording *rec, struct emitter *em, struct sample *s,
			   struct export_disks *x)
{
	for (size_t i = 0, first = 1; i < recording_count(rec, RK_SAMPLE); i++) {
		if (recording_sample(rec, i, s))
			continue;
		em->ops->row_begin(em, first);
		emit_sample_fields(em, s);
		emit_sample_disks(em, s, x);
		em->ops->row_end(em);
		first = 0;
	}
}

/* An event's fields, read out of its text (docs/recording.md says what
 * iodash writes there): a leading `run I/N` (run, runs), a run's status
 * word (run_end's status, run_summary's verdict), run_start's parser and
 * command, a knob's change (knob, old, new), an episode's duration, and
 * every KEY=VALUE word.  A value of a number and a unit (200320kB, 9.968s,
 * 11%) is the number, under the key with the unit's suffix (dirty_kB,
 * duration_s, duty_pct).  Marks and notes are free text: no fields. */
#define EV_MAX_FIELDS 40
#define EV_MAX_COLS 64
#define EV_NAME_LEN 48

struct ev_field {
	char name[EV_NAME_LEN];
	char val[MODEL_LINE_LEN];
	bool num;
	double d;
};

struct ev_fields {
	int n;
	struct ev_field f[EV_MAX_FIELDS];
	char names[EV_MAX_COLS][EV_NAME_LEN];   /* CSV: the columns of them all */
};

/* A plain decimal number (what iodash prints: no hex, inf or nan). */
static bool ev_number(const char *s, size_t len, double *out)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf) || strspn(s, "0123456789.eE+-") < len ||
	    !strchr("0123456789+-.", s[0]))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*out = strtod(buf, &end);
	return end == buf + len && isfinite(*out);
}

static void ev_add(struct ev_fields *f, const char *name, size_t nlen, const char *val, size_t vlen)
{
	static const struct { const char *unit, *suffix; } units[] = {
		{ "kB", "_kB" }, { "ms", "_ms" }, { "s", "_s" }, { "%", "_pct" }, { "B", "_B" },
	};
	const char *suffix = "";
	double d;
	bool num = ev_number(val, vlen, &d);

	for (size_t u = 0; !num && u < NELEM(units); u++) {
		size_t ul = strlen(units[u].unit);
		if (vlen > ul && !memcmp(val + vlen - ul, units[u].unit, ul) && ev_number(val, vlen - ul, &d)) {
			num = true;
			vlen -= ul;
			suffix = units[u].suffix;
		}
	}
	if (f->n >= EV_MAX_FIELDS || nlen + strlen(suffix) >= EV_NAME_LEN || vlen >= MODEL_LINE_LEN)
		return;
	struct ev_field *x = &f->f[f->n];
	snprintf(x->name, sizeof(x->name), "%.*s%s", (int)nlen, name, suffix);
	/* the table's own columns, and a key said twice: the first stands */
	for (size_t c = 0; c < NELEM(event_cols); c++)
		if (!strcmp(x->name, event_cols[c].name))
			return;
	for (int k = 0; k < f->n; k++)
		if (!strcmp(f->f[k].name, x->name))
			return;
	memcpy(x->val, val, vlen);
	x->val[vlen] = '\0';
	x->num = num;
	x->d = num ? d : NAN;
	f->n++;
}

static void ev_add_s(struct ev_fields *f, const char *name, const char *val, size_t vlen)
{
	ev_add(f, name, strlen(name), val, vlen);
}

/* The next word of *p (up to a space), *p moved past it and its spaces. */
static size_t ev_word(const char **p, const char **w)
{
	const char *s = *p + strspn(*p, " ");
	size_t n = strcspn(s, " ");

	*w = s;
	*p = s + n + strspn(s + n, " ");
	return n;
}

static void export_event_fields(const struct model_event *e, struct ev_fields *f)
{
	const char *p = e->text, *w;
	size_t n;
	int run, runs, used = 0;

	f->n = 0;
	if (e->kind == MEV_MARK || e->kind == MEV_NOTE)
		return;
	if (sscanf(p, "run %d/%d%n", &run, &runs, &used) == 2 && used && (!p[used] || p[used] == ' ')) {
		const char *r = p + 4;
		ev_add_s(f, "run", r, strcspn(r, "/"));
		r += strcspn(r, "/") + 1;
		ev_add_s(f, "runs", r, strcspn(r, " "));
		p += used;
		const char *q = p;
		n = ev_word(&q, &w);
		if (e->kind == MEV_RUN_START && n > 2 && w[0] == '[' && w[n - 1] == ']') {
			ev_add_s(f, "parser", w + 1, n - 2);
			ev_add_s(f, "command", q, strlen(q));
			return;
		}
		if (n > 1 && w[n - 1] == ':' && (e->kind == MEV_RUN_END || e->kind == MEV_RUN_SUMMARY)) {
			ev_add_s(f, e->kind == MEV_RUN_END ? "status" : "verdict", w, n - 1);
			p = q;
		}
		if (e->kind == MEV_RUN_END) {
			const char *x = strstr(p, "exit ");
			if (x == p)
				ev_add_s(f, "exit", x + 5, strcspn(x + 5, " ;"));
			if ((x = strstr(p, " after ")) && (n = strcspn(x + 7, " ;")) && !strncmp(x + 7 + n, " s", 2))
				ev_add_s(f, "secs", x + 7, n);
		}
	}
	if (e->kind == MEV_HIT_END && !strncmp(p, "throttle end ", 13)) {
		const char *q = p + 13;
		n = ev_word(&q, &w);
		ev_add_s(f, "duration", w, n);
	}
	if (e->kind == MEV_KNOB) {
		const char *q = p, *key, *old, *arrow, *nw;
		size_t nk = ev_word(&q, &key), no = ev_word(&q, &old), na = ev_word(&q, &arrow);
		size_t nn = ev_word(&q, &nw);
		if (nk && no && na == 2 && !memcmp(arrow, "->", 2) && nn) {
			ev_add_s(f, "knob", key, nk);
			ev_add_s(f, "old", old, no);
			ev_add_s(f, "new", nw, nn);
		}
	}
	/* KEY=VALUE words: a key is a name (vm.dirty_ratio, dirty+writeback),
	 * a value ends at a space, ';' or ',' after it */
	while (*p) {
		n = ev_word(&p, &w);
		size_t nk = strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+");
		if (!nk || nk >= n || w[nk] != '=' || !isalpha((unsigned char)w[0]))
			continue;
		size_t nv = n - nk - 1;
		while (nv && (w[nk + nv] == ';' || w[nk + nv] == ','))
			nv--;
		ev_add(f, w, nk, w + nk + 1, nv);
	}
}

/* CSV: the fields of every event, in the order first seen, are the
 * columns after t, kind and text (an event without one leaves it empty). */
static int export_event_names(const struct recording *rec, struct ev_fields *f,
			      char (*names)[EV_NAME_LEN])
{
	int nnames = 0;

	for (size_t i = 0; i < recording_count(rec, RK_EVENT); i++) {
		struct model_event e;
		if (recording_event(rec, i, &e))
			continue;
		export_event_fields(&e, f);
		for (int k = 0; k < f->n; k++) {
			int j;
			for (j = 0; j < nnames && strcmp(names[j], f->f[k].name); j++)
				;
			if (j == nnames && nnames < EV_MAX_COLS)
				memcpy(names[nnames++], f->f[k].name, EV_NAME_LEN);
		}
	}
	return nnames;
}

static void emit_event_field(struct emitter *em, const char *name, const struct ev_field *x)
{
	union ex_v v;

	if (x && x->num)
		v.d = x->d;
	else
		v.s = x ? x->val : "";
	em->ops->field(em, name, x && x->num ? SCT_DOUBLE : SCT_TEXT, &v, x != NULL);
}

/* CSV (csv: its header first): t, kind, text and a column for each field
 * any event has, empty where one has none; JSON: each row its own fields.
 * A few KB of fields on the stack: export is a command's thread. */
static void export_events(const struct recording *rec, struct emitter *em, bool csv)
{
	struct ev_fields f;
	int nnames = 0;

	if (csv) {
		nnames = export_event_names(rec, &f, f.names);
		for (size_t c = 0; c < NELEM(event_cols); c++)
			fprintf(em->out, "%s%s", c ? "," : "", event_cols[c].name);
		for (int j = 0; j < nnames; j++) {
			fputc(',', em->out);
			rec_csv_str(em->out, f.names[j]);
		}
		fputc('\n', em->out);
	}
	for (size_t i = 0, first = 1; i < recording_count(rec, RK_EVENT); i++) {
		struct model_event e;
		if (recording_event(rec, i, &e))
			continue;
		const union ex_v v[] = { EVENT_COLS(EX_VAL) };
		em->ops->row_begin(em, first);
		for (size_t c = 0; c < NELEM(event_cols); c++)
			em->ops->field(em, event_cols[c].name, event_cols[c].type, &v[c], true);
		export_event_fields(&e, &f);
		if (csv) {
			for (int j = 0; j < nnames; j++) {
				const struct ev_field *x = NULL;
				for (int k = 0; k < f.n && !x; k++)
					if (!strcmp(f.f[k].name, f.names[j]))
						x = &f.f[k];
				emit_event_field(em, f.names[j], x);
			}
		} else {
			for (int k = 0; k < f.n; k++)
				emit_event_field(em, f.f[k].name, &f.f[k]);
		}
		em->ops->row_end(em);
		first = 0;
	}
}

static void export_results(const struct recording *rec, struct emitter *em)
{
	for (size_t i = 0, first = 1; i < recording_count(rec, RK_RESULT); i++) {
		struct result_point p;
		double t = recording_time(rec, RK_RESULT, i);
		if (recording_result(rec, i, &p))
			continue;
		const union ex_v v[] = { RESULT_COLS(EX_VAL) };
		emit_row(em, first, result_cols, NELEM(result_cols), v);
		first = 0;
	}
}

/* --json: the header and every table in one document. */
static void export_document(const struct recording *rec, struct sample *s, FILE *out)
{
	const struct rec_header *h = recording_header(rec);
	struct emitter em = { &emit_json, out, 2, EXPORT_DIGITS, 0 };

	fprintf(out, "{\"format\": \"iodash-export\", \"recording_version\": \"%d.%d\",\n \"header\": {\"host\": ",
		h->major, h->minor);
	rec_json_str(out, h->host);
	fputs(", \"kernel\": ", out);
	rec_json_str(out, h->kernel);
	fputs(", \"label\": ", out);
	rec_json_str(out, h->label);
	fputs(", \"command\": ", out);
	rec_json_str(out, h->command);
	fputs(", \"source\": ", out);
	rec_json_str(out, h->source);
	fprintf(out, ", \"interval\": %g, \"start_realtime_ns\": %lld", h->interval,
		(long long)h->start_realtime_ns);
	if (h->have_knobs)
		fprintf(out, ", \"dirty_background_bytes\": %llu, \"dirty_background_ratio\": %u, "
			"\"dirty_bytes\": %llu, \"dirty_ratio\": %u",
			(unsigned long long)h->dirty_background_bytes, h->dirty_background_ratio,
			(unsigned long long)h->dirty_bytes, h->dirty_ratio);
	fputs("},\n \"samples\": [", out);
	export_samples(rec, &em, s, NULL);
	fputs("],\n \"events\": [", out);
	export_events(rec, &em, false);
	fputs("],\n \"results\": [", out);
	export_results(rec, &em);
	/* output lines, for completeness: what the benchmark said */
	fputs("],\n \"output\": [", out);
	for (size_t i = 0, first = 1; i < recording_count(rec, RK_OUTPUT); i++) {
		struct output_line l;
		if (recording_output(rec, i, &l))
			continue;
		const union ex_v v[] = { OUTPUT_COLS(EX_VAL) };
		emit_row(&em, first, output_cols, NELEM(output_cols), v);
		first = 0;
	}
	fputs("]}\n", out);
}

/* --csv and --ndjson: one table, by the same walk as the document. */
static int export_table(const struct recording *rec, enum export_table table, bool ndjson,
			struct sample *s, FILE *out)
{
	struct emitter em = { ndjson ? &emit_ndjson : &emit_csv, out, 0, EXPORT_DIGITS, 0 };
	struct export_disks disks = { 0 };

	switch (table) {
	case EXPORT_SAMPLES: {
		if (!ndjson && export_list_disks(rec, s, &disks)) {
			export_disks_free(&disks);
			return -ENOMEM;
		}
		int ndisks = disks.n;
		if (!ndjson) {
			for (int i = 0, k = 0; i < SF_N; i++)
				if (sample_cols[i].where & SCW_EXPORT)
					fprintf(out, "%s%s", k++ ? "," : "", sample_cols[i].name);
			for (int k = 0; k < ndisks; k++)
				for (int c = 0; c < DF_N; c++)
					fprintf(out, ",%s.%s", disks.name[k], disk_figure_name(c));
			fputc('\n', out);
		}
		export_samples(rec, &em, s, &disks);
		export_disks_free(&disks);
		break;
	}
	case EXPORT_EVENTS:
		export_events(rec, &em, !ndjson);
		break;
	case EXPORT_RESULTS:
		if (!ndjson)
			emit_csv_header(out, result_cols, NELEM(result_cols));
		export_results(rec, &em);
		break;
	}
	return 0;
}

int recording_export(const struct recording *rec, enum out_format fmt, enum export_table table, FILE *out,
		     char *err, size_t errlen)
{
	struct sample *s = calloc(1, sizeof(*s));
	int rc = 0;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (fmt == FMT_JSON)
		export_document(rec, s, out);
	else
		rc = export_table(rec, table, fmt == FMT_NDJSON, s, out);
	sample_free(s);
	free(s);
	if (rc) {
		snprintf(err, errlen, "out of memory for the disks' columns");
		return rc;
	}
	if (ferror(out)) {
		snprintf(err, errlen, "writing the export failed");
		return -EIO;
	}
	return 0;
}

const char *export_table_name(enum export_table t)
{
	return t == EXPORT_EVENTS ? "events" : t == EXPORT_RESULTS ? "results" : "samples";
}
