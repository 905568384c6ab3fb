/* The sample schema: every row is named once, has a unit and a type that
 * fits its field, every recording row round-trips through the writer and
 * the reader, and every export column comes from the table. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iodash/record/recording.h"
#include "iodash/results/emit.h"
#include "iodash/probe/probe.h"
#include "iodash/record/recorder.h"
#include "iodash/results/export.h"
#include "iodash/sample/sample_schema.h"
#include "../../src/record/rec_format.h"

static size_t type_size(enum sample_type t)
{
	switch (t) {
	case SCT_TIME: case SCT_SECS: case SCT_DOUBLE: return sizeof(double);
	case SCT_U64: return sizeof(uint64_t);
	case SCT_U32: return sizeof(uint32_t);
	case SCT_INT: case SCT_ZONE: case SCT_THR_SRC: return sizeof(int);
	case SCT_I64: case SCT_SKEW: return sizeof(int64_t);
	case SCT_BOOL: return sizeof(bool);
	case SCT_TEXT: case SCT_DOUBLE_G: case SCT_RATIO: return 0;   /* no sample field is one */
	}
	return 0;
}

static void test_rows(void **state)
{
	(void)state;
	for (int i = 0; i < SF_N; i++) {
		const struct sample_col *c = &sample_cols[i];
		if (!c->name || !c->name[0])
			fail_msg("schema row %d has no name", i);
		if (!c->unit || !c->unit[0])
			fail_msg("schema row %s has no unit", c->name);
		if (!c->where)
			fail_msg("schema row %s goes nowhere (no SCW_ bit)", c->name);
		if (c->size != type_size(c->type))
			fail_msg("schema row %s: field of %zu bytes, type %d holds %zu", c->name,
				 c->size, c->type, type_size(c->type));
		if (c->off + c->size > sizeof(struct sample))
			fail_msg("schema row %s lies outside struct sample", c->name);
		for (int j = i + 1; j < SF_N; j++)
			if (!strcmp(c->name, sample_cols[j].name))
				fail_msg("schema rows %d and %d share the name %s", i, j, c->name);
		/* an export or --batch column of the struct must be readable
		 * by every emitter: only the S record's own encoding is not */
		if ((c->where & (SCW_EXPORT | SCW_BATCH)) && c->type == SCT_SKEW)
			fail_msg("schema row %s: the skew is no export column", c->name);
		/* --batch prints levels: numbers and the zone's name */
		if ((c->where & SCW_BATCH) && (c->type == SCT_THR_SRC || c->type == SCT_TEXT ||
					       c->type == SCT_SKEW || c->type == SCT_BOOL))
			fail_msg("schema row %s: --batch has no format for its type", c->name);
	}
}

/* The S record's C line names the SCW_REC rows in the table's order, and
 * the reader maps each of them (and the format 1 names) back to its row. */
static void test_rec_columns(void **state)
{
	int n, nk, k = 0;
	const char *const *cols = rec_cols_of(RT_SAMPLE, &n);
	const char *const *known = rec_cols_known(RT_SAMPLE, &nk);
	(void)state;

	assert_int_equal(nk, SF_N);
	for (int i = 0; i < SF_N; i++) {
		const struct sample_col *c = &sample_cols[i];
		if (c->where & SCW_REC) {
			if (k >= n || strcmp(cols[k], c->name))
				fail_msg("S column %d is %s, the schema's row %s", k, k < n ? cols[k] : "(none)",
					 c->name);
			assert_int_equal(rec_col_id(RT_SAMPLE, k), i);
			k++;
		}
		if (c->where & (SCW_REC | SCW_REC_V1))
			assert_string_equal(known[i], c->name);
		else if (known[i])
			fail_msg("the reader maps %s, no S column", known[i]);
	}
	assert_int_equal(k, n);
}

/* A value of its own for every row, so that a writer or reader that
 * swapped two columns is caught. */
static void fill_sample(struct sample *s, int64_t start_rt)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < SF_N; i++) {
		const struct sample_col *c = &sample_cols[i];
		if (sample_col_is_double(c))
			sample_col_set_double(s, c, 1000 + i + 0.25);
		else
			sample_col_set_int(s, c, 1000 + i);
	}
	s->have_dirty = s->have_psi = true;
	s->meminfo_unread = false;      /* meminfo read for this sample: its values are there */
	s->zone = ZONE_HARD_LIMIT;
	s->ndisks = 0;                  /* a count of disk records that follow */
	s->thr_src = THR_SRC_SAMPLED;   /* what the reader makes of a sample without T */
	s->throttled = true;            /* ... a zone at or past throttle */
	s->pauses = 0;
	s->paused_ms = 0;
	s->realtime_ns = start_rt + rec_secs_to_ns(s->t) + 77;   /* the wall clock strayed 77 ns */
}

static void write_one(const char *path, const struct sample *s, int64_t start_rt)
{
	struct snapshot first = { 0 };
	struct rec_meta meta = { .host = "schemabox", .kernel = "6.18", .first = &first,
				 .source = "live /proc", .interval = 0.5 };
	struct recorder *r;
	struct model_observer obs;
	char err[256];

	first.realtime_ns = start_rt;
	unlink(path);
	if (recorder_open(&r, path, 0, &meta, err, sizeof(err)))
		fail_msg("recorder_open: %s", err);
	obs = recorder_observer(r);
	obs.on_sample(obs.ctx, s);
	recorder_close(r);
}

static void test_round_trip(void **state)
{
	char path[] = "/tmp/iodash-tschema.XXXXXX", err[256];
	const int64_t start_rt = 1764690000123456789LL;
	struct sample in = { 0 }, out = { 0 };
	struct recording *rec;
	int fd = mkstemp(path);
	(void)state;

	assert_true(fd >= 0);
	close(fd);
	fill_sample(&in, start_rt);
	write_one(path, &in, start_rt);
	if (recording_open(&rec, path, err, sizeof(err)))
		fail_msg("recording_open: %s", err);
	assert_int_equal(recording_count(rec, RK_SAMPLE), 1);
	assert_int_equal(recording_sample(rec, 0, &out), 0);
	for (int i = 0; i < SF_N; i++) {
		const struct sample_col *c = &sample_cols[i];
		if (!(c->where & SCW_REC))
			continue;
		if (sample_col_is_double(c)) {
			if (sample_col_double(&in, c) != sample_col_double(&out, c))
				fail_msg("%s: wrote %.17g, read %.17g", c->name, sample_col_double(&in, c),
					 sample_col_double(&out, c));
		} else if (sample_col_int(&in, c) != sample_col_int(&out, c)) {
			fail_msg("%s: wrote %lld, read %lld", c->name, (long long)sample_col_int(&in, c),
				 (long long)sample_col_int(&out, c));
		}
	}
	recording_close(rec);
	unlink(path);
	sample_free(&in);
	sample_free(&out);
}

/* The keys of the sample object on one JSON line, in order, up to disks. */
static int json_keys(const char *line, char keys[][64], int max)
{
	int n = 0;

	for (const char *p = strstr(line, "{\""); p && n < max; p = strstr(p, ", \"")) {
		const char *k = strchr(p, '"') + 1, *e = strchr(k, '"');
		if (!strncmp(k, "disks", 5))
			break;
		snprintf(keys[n++], 64, "%.*s", (int)(e - k), k);
		p = e;
	}
	return n;
}

/* Export's sample columns are the table's SCW_EXPORT rows, in its order:
 * CSV's header, and the keys of a JSON sample that has every value. */
static void test_export_columns(void **state)
{
	char path[] = "/tmp/iodash-tschema.XXXXXX", err[256];
	const int64_t start_rt = 1764690000123456789LL;
	struct sample in = { 0 };
	struct recording *rec;
	char *buf = NULL, line[4096], keys[SF_N][64];
	size_t len = 0;
	int fd = mkstemp(path), k = 0, nkeys;
	FILE *f;
	(void)state;

	assert_true(fd >= 0);
	close(fd);
	fill_sample(&in, start_rt);
	write_one(path, &in, start_rt);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);

	f = open_memstream(&buf, &len);
	assert_int_equal(recording_export(rec, FMT_CSV, EXPORT_SAMPLES, f, err, sizeof(err)), 0);
	fclose(f);
	assert_true(sscanf(buf, "%4095[^\n]", line) == 1);   /* the samples table's header */
	for (char *tok = strtok(line, ","); tok; tok = strtok(NULL, ","), k++) {
		int i, seen = 0;
		for (i = 0; i < SF_N; i++)
			if ((sample_cols[i].where & SCW_EXPORT) && seen++ == k)
				break;
		if (i == SF_N)
			fail_msg("CSV column %d (%s) is no export row of the schema", k, tok);
		assert_string_equal(tok, sample_cols[i].name);
	}
	free(buf);

	f = open_memstream(&buf, &len);
	assert_int_equal(recording_export(rec, FMT_JSON, EXPORT_SAMPLES, f, err, sizeof(err)), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\n  {\"t\": "));
	nkeys = json_keys(strstr(buf, "\n  {\"t\": "), keys, SF_N);
	k = 0;
	for (int i = 0; i < SF_N; i++) {
		if (!(sample_cols[i].where & SCW_EXPORT))
			continue;
		if (sample_cols[i].guard == SCG_KERNEL)
			continue;   /* no T record: the throttling was sampled */
		if (k >= nkeys)
			fail_msg("JSON sample lacks %s", sample_cols[i].name);
		assert_string_equal(keys[k], sample_cols[i].name);
		k++;
	}
	assert_int_equal(k, nkeys);
	free(buf);
	recording_close(rec);
	unlink(path);
	sample_free(&in);
}

/* snapshot.h's item tables: a file made of every row's key fills every
 * row's field with its own value; without a required row it is refused
 * naming that key. */
static size_t put_item(char *b, size_t n, enum probe_text what, const char *key, int v)
{
	int w = what == PROBE_TEXT_MEMINFO ? snprintf(b, n, "%s: %d kB\n", key, v)
					   : snprintf(b, n, "%s %d\n", key, v);
	return w > 0 ? (size_t)w : 0;
}

static void check_items(const struct snap_item *t, int n, enum probe_text what)
{
	char text[4096], err[256];
	size_t len = 0;
	struct snapshot *s = calloc(1, sizeof(*s));
	struct probe_texts pt;

	assert_non_null(s);
	assert_true(n <= 64);   /* the parsers keep the rows seen in 64 bits */
	for (int i = 0; i < n; i++) {
		if (!t[i].key || !t[i].key[0])
			fail_msg("item row %d has no key", i);
		if (t[i].off + sizeof(uint64_t) > sizeof(struct snapshot))
			fail_msg("item %s lies outside struct snapshot", t[i].key);
		for (int j = i + 1; j < n; j++)
			if (!strcmp(t[i].key, t[j].key) || t[i].off == t[j].off)
				fail_msg("items %s and %s share a key or a field", t[i].key, t[j].key);
		len += put_item(text + len, sizeof(text) - len, what, t[i].key, 7000 + i);
	}
	memset(&pt, 0, sizeof(pt));
	pt.buf[what] = text;
	pt.len[what] = len;
	pt.name[what] = "T";
	if (probe_parse_texts(&pt, 1u << what, s, err, sizeof(err)))
		fail_msg("every key of the table: %s", err);
	for (int i = 0; i < n; i++) {
		uint64_t v;
		memcpy(&v, (const char *)s + t[i].off, sizeof(v));
		if (v != (uint64_t)(7000 + i))
			fail_msg("%s: read %llu, wrote %d", t[i].key, (unsigned long long)v, 7000 + i);
	}
	/* each required row left out: refused, naming it */
	for (int drop = 0; drop < n; drop++) {
		char want[128];
		if (!t[drop].required)
			continue;
		len = 0;
		for (int i = 0; i < n; i++)
			if (i != drop)
				len += put_item(text + len, sizeof(text) - len, what, t[i].key, 1);
		pt.len[what] = len;
		err[0] = 0;
		if (probe_parse_texts(&pt, 1u << what, s, err, sizeof(err)) == 0)
			fail_msg("a text without %s was taken", t[drop].key);
		snprintf(want, sizeof(want), "no %s line", t[drop].key);
		if (!strstr(err, want))
			fail_msg("without %s: \"%s\"", t[drop].key, err);
	}
	snapshot_free(s);
	free(s);
}

static void test_snapshot_items(void **state)
{
	(void)state;
	check_items(snap_vmstat_items, snap_vmstat_nitems, PROBE_TEXT_VMSTAT);
	check_items(snap_meminfo_items, snap_meminfo_nitems, PROBE_TEXT_MEMINFO);
}

/* Every type has its syntax in both emitters: a present value prints
 * something after its key (JSON) and in its cell (CSV), an absent one
 * nothing (CSV: the cell stays, empty). */
static void test_emitters(void **state)
{
	(void)state;
	for (int t = 0; t <= SCT_RATIO; t++) {
		union ex_v v;
		char *buf = NULL;
		size_t len = 0;
		const struct emit_ops *ops[] = { &emit_csv, &emit_json };
		if (t == SCT_TEXT)
			v.s = "x";
		else if (t == SCT_TIME || t == SCT_SECS || t == SCT_DOUBLE || t == SCT_DOUBLE_G ||
			 t == SCT_RATIO)
			v.d = 1.5;
		else
			v.i = t == SCT_THR_SRC ? THR_SRC_KERNEL : 1;
		for (int o = 0; o < 2; o++) {
			FILE *f = open_memstream(&buf, &len);
			struct emitter e = { ops[o], f, 0, 9, 0 };
			e.ops->row_begin(&e, true);
			e.ops->field(&e, "a", (enum sample_type)t, &v, true);
			e.ops->field(&e, "b", (enum sample_type)t, &v, false);
			e.ops->row_end(&e);
			fclose(f);
			if (o == 0 && (len < 3 || buf[0] == ',' || strcmp(buf + len - 2, ",\n")))
				fail_msg("type %d: CSV row \"%s\"", t, buf);
			if (o == 1 && (strncmp(buf, "\n{\"a\": ", 7) || len < 9 || buf[7] == '}' ||
				       strstr(buf, "\"b\"")))
				fail_msg("type %d: JSON row \"%s\"", t, buf);
			free(buf);
			buf = NULL;
		}
	}
}

/* meminfo is read once a second: a snapshot that carries an earlier
 * read's values (the live probe at -i 0.5, every other one) gives a sample
 * whose meminfo figures are n/a, through the recording to the export (an
 * empty CSV cell, no JSON key); one read for it has them. */
static void test_meminfo_unread(void **state)
{
	char path[] = "/tmp/iodash-tschema.XXXXXX", err[256], *buf = NULL;
	const int64_t start_rt = 1764690000123456789LL;
	struct snapshot *snap = calloc(1, sizeof(*snap));
	struct sample in = { 0 }, got = { 0 };   /* zeroed: derive and the reader keep what they find */
	struct recording *rec;
	size_t len = 0;
	int fd = mkstemp(path);
	FILE *f;
	(void)state;

	assert_non_null(snap);
	assert_true(fd >= 0);
	close(fd);
	snap->have = SNAP_HAVE_VMSTAT | SNAP_HAVE_MEMINFO;
	snap->page_kb = 4;
	snap->dirty_kb = 4321;
	derive_sample(NULL, snap, 0, 0, NULL, &got);
	assert_false(got.meminfo_unread);
	assert_true(sample_col_present(&got, &sample_cols[SF_MEMINFO_DIRTY_KB]));
	snap->have |= SNAP_MEMINFO_CARRIED;
	derive_sample(NULL, snap, 0, 0, NULL, &got);
	assert_true(got.meminfo_unread);
	assert_false(sample_col_present(&got, &sample_cols[SF_MEMINFO_DIRTY_KB]));
	assert_false(sample_col_present(&got, &sample_cols[SF_MEMINFO_WRITEBACK_KB]));
	snap->have = SNAP_HAVE_VMSTAT;   /* no meminfo at all: n/a, not a fake 0 */
	derive_sample(NULL, snap, 0, 0, NULL, &got);
	assert_false(sample_col_present(&got, &sample_cols[SF_MEMINFO_DIRTY_KB]));
	free(snap);

	fill_sample(&in, start_rt);
	in.meminfo_unread = true;
	write_one(path, &in, start_rt);
	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	assert_int_equal(recording_sample(rec, 0, &got), 0);
	assert_true(got.meminfo_unread);
	f = open_memstream(&buf, &len);
	assert_int_equal(recording_export(rec, FMT_CSV, EXPORT_SAMPLES, f, err, sizeof(err)), 0);
	fclose(f);
	/* the header's meminfo columns, then the row's cells under them */
	char *row = strchr(buf, '\n') + 1, *h = buf;
	int col = 0, nmem = 0;
	while (h < row - 1) {
		size_t n = strcspn(h, ",\n");
		const char *cell = row;
		for (int k = 0; k < col; k++)
			cell = strchr(cell, ',') + 1;
		if (!strncmp(h, "meminfo_", 8)) {
			assert_true(*cell == ',' || *cell == '\n');
			nmem++;
		} else if (!strncmp(h, "dirty_kb", n)) {
			assert_true(*cell >= '0' && *cell <= '9');
		}
		h += n + 1;
		col++;
	}
	assert_int_equal(nmem, 2);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(recording_export(rec, FMT_NDJSON, EXPORT_SAMPLES, f, err, sizeof(err)), 0);
	fclose(f);
	assert_null(strstr(buf, "meminfo_"));
	assert_non_null(strstr(buf, "\"dirty_kb\": "));
	free(buf);
	recording_close(rec);
	unlink(path);
}

/* Events' fields as columns: each kind's words by name, KEY=VALUE words
 * with a unit split off, marks untouched; hostile texts (a key longer
 * than a name, more fields than a row holds, a value that is all
 * unit) neither overflow nor invent a column. */
static void test_event_fields(void **state)
{
	static const struct { enum model_event_kind kind; const char *text; } evs[] = {
		{ MEV_RUN_END, "run 2/4 ok: exit 0 after 1.5 s; throttled tasks max 1" },
		{ MEV_HIT_END, "throttle end 9.968s pauses=580 duty=11% peak_dirty=265360kB writers=fio:1,dd:2" },
		{ MEV_KNOB, "vm.dirty_ratio 20 -> 40 (iodash, before run 2/4)" },
		{ MEV_MARK, "t=5 kind=x a=1" },
		{ MEV_RUN_SUMMARY, "run 3/4 n/a: why=no_io secs=0.5 eps=0" },
		{ MEV_HIT_START, "throttle start kB=kB =5 x= aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=1" },
	};
	char path[] = "/tmp/iodash-tschema.XXXXXX", err[256], *buf = NULL, text[512];
	const int64_t start_rt = 1764690000123456789LL;
	struct sample in;
	struct recording *rec;
	struct recorder *r;
	struct model_observer obs;
	struct snapshot first = { .realtime_ns = start_rt };
	struct rec_meta meta = { .host = "b", .kernel = "6.18", .first = &first, .source = "t", .interval = 0.5 };
	size_t len = 0, o = 0;
	int fd = mkstemp(path);
	FILE *f;
	(void)state;

	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	fill_sample(&in, start_rt);
	assert_int_equal(recorder_open(&r, path, 0, &meta, err, sizeof(err)), 0);
	obs = recorder_observer(r);
	obs.on_sample(obs.ctx, &in);
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		struct model_event e = { .kind = evs[i].kind, .t = in.t };
		snprintf(e.text, sizeof(e.text), "%s", evs[i].text);
		obs.on_event(obs.ctx, &e);
	}
	/* more KEY=VALUE words than a row's fields */
	for (int k = 0; k < 50; k++)
		o += (size_t)snprintf(text + o, sizeof(text) - o, "%c%c=1 ", 'a' + k / 26, 'a' + k % 26);
	struct model_event many = { .kind = MEV_RUN_SUMMARY, .t = in.t };
	snprintf(many.text, sizeof(many.text), "%s", text);
	obs.on_event(obs.ctx, &many);
	recorder_close(r);

	assert_int_equal(recording_open(&rec, path, err, sizeof(err)), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(recording_export(rec, FMT_NDJSON, EXPORT_EVENTS, f, err, sizeof(err)), 0);
	fclose(f);
	char *l[8] = { buf };
	for (int k = 1; k < 8 && l[k - 1]; k++)
		l[k] = strchr(l[k - 1], '\n') ? strchr(l[k - 1], '\n') + 1 : NULL;
	assert_non_null(strstr(l[0], "\"run\": 2, \"runs\": 4, \"status\": \"ok\", \"exit\": 0, \"secs\": 1.5}"));
	assert_non_null(strstr(l[1], "\"duration_s\": 9.968, \"pauses\": 580, \"duty_pct\": 11, "
				     "\"peak_dirty_kB\": 265360, \"writers\": \"fio:1,dd:2\"}"));
	assert_non_null(strstr(l[2], "\"knob\": \"vm.dirty_ratio\", \"old\": 20, \"new\": 40}"));
	assert_non_null(strstr(l[3], "\"text\": \"t=5 kind=x a=1\"}"));   /* a mark is free text */
	assert_non_null(strstr(l[4], "\"verdict\": \"n/a\", \"why\": \"no_io\", \"secs\": 0.5, \"eps\": 0}"));
	/* "kB=kB": a text; "=5", "x=": no key or no value; the long key: no column */
	assert_non_null(strstr(l[5], "\"kB\": \"kB\", \"x\": \"\"}"));
	assert_null(strstr(l[5], "aaaa\":"));
	assert_non_null(l[6]);
	assert_non_null(strstr(l[6], "\"bn\": 1}"));   /* the row's 40 fields (aa..bn), no more */
	assert_null(strstr(l[6], "\"bo\""));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(recording_export(rec, FMT_CSV, EXPORT_EVENTS, f, err, sizeof(err)), 0);
	fclose(f);
	/* every row as long as the header */
	int ncol = -1;
	for (char *p = buf; *p; p = strchr(p, '\n') + 1) {
		int n = 1, quoted = 0;
		for (char *q = p; *q != '\n'; q++)
			if (*q == '"')
				quoted = !quoted;
			else if (*q == ',' && !quoted)
				n++;
		if (ncol < 0)
			ncol = n;
		assert_int_equal(n, ncol);
	}
	assert_true(ncol > 40);
	free(buf);
	recording_close(rec);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_rec_columns),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_export_columns),
		cmocka_unit_test(test_meminfo_unread),
		cmocka_unit_test(test_event_fields),
		cmocka_unit_test(test_snapshot_items),
		cmocka_unit_test(test_emitters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
