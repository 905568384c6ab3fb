/* export: a recording as data for pandas, R, gnuplot or jq.
 * CSV: one table (--table samples|events|results), a header row and rows
 * of one length, so pandas.read_csv, csv.reader or gnuplot take it as it
 * is: samples one row per sample with its disks as NAME.column.  NDJSON:
 * the rows of that table as one JSON object a line (jq, pandas lines=True).
 * JSON: one document with every table. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/recording.h"
#include "iodash/text.h"
#include "record/rec_format.h"

#define EXPORT_MAX_DISKS 64

/* samples: 9 significant digits hold every recorded figure */
#define EXPORT_DIGITS 9

/* Where a sample's throttling comes from, as export names it. */
static const char *thr_src_name(enum throttle_source src)
{
	return src == THR_SRC_KERNEL ? "kernel" : src == THR_SRC_SAMPLED ? "sampled" : "";
}

/* The disks any sample has, in first-seen order: CSV needs every disk's
 * columns up front (hotplug: a disk missing from a sample leaves its
 * cells empty). */
static int export_list_disks(const struct recording *rec, struct sample *s, char (*disks)[SNAP_DISK_NAME_LEN])
{
	int ndisks = 0;

	for (size_t i = 0; i < recording_count(rec, RK_SAMPLE); i++) {
		if (recording_sample(rec, i, s))
			continue;
		for (int d = 0; d < s->ndisks; d++) {
			int k;
			for (k = 0; k < ndisks && strcmp(disks[k], s->disks[d].name); k++)
				;
			if (k == ndisks && ndisks < EXPORT_MAX_DISKS)
				memcpy(disks[ndisks++], s->disks[d].name, SNAP_DISK_NAME_LEN);
		}
	}
	return ndisks;
}

static void put_sample_json(FILE *out, const struct sample *s)
{
	fprintf(out, "{\"t\": %.3f, \"seq\": %llu, \"dt\": %.3f, \"realtime_ns\": %lld", s->t,
		(unsigned long long)s->seq, s->dt, (long long)s->realtime_ns);
	if (s->have_dirty)
		fprintf(out, ", \"dirty_kb\": %llu, \"writeback_kb\": %llu, \"bg_thresh_kb\": %llu, "
			"\"freerun_kb\": %llu, \"thresh_kb\": %llu, \"meminfo_dirty_kb\": %llu, "
			"\"meminfo_writeback_kb\": %llu",
			(unsigned long long)s->dirty_kb, (unsigned long long)s->writeback_kb,
			(unsigned long long)s->bg_thresh_kb, (unsigned long long)s->freerun_kb,
			(unsigned long long)s->thresh_kb, (unsigned long long)s->meminfo_dirty_kb,
			(unsigned long long)s->meminfo_writeback_kb);
	fprintf(out, ", \"zone\": \"%s\"", rec_zone_name(s->zone));
	if (s->have_psi) {
		fputs(", \"psi_io_some_avg10\": ", out);
		text_put_number(out, s->psi_io_some_avg10, EXPORT_DIGITS, true);
		fputs(", \"psi_io_full_avg10\": ", out);
		text_put_number(out, s->psi_io_full_avg10, EXPORT_DIGITS, true);
	}
	fprintf(out, ", \"hits\": %u, \"hit_seconds\": ", s->hits);
	text_put_number(out, s->hit_seconds, EXPORT_DIGITS, true);
	/* throttling: the kernel's pauses when followed, else the zone */
	fprintf(out, ", \"throttle_source\": \"%s\", \"throttled\": %s", thr_src_name(s->thr_src),
		s->throttled ? "true" : "false");
	if (s->thr_src == THR_SRC_KERNEL) {
		fprintf(out, ", \"pauses\": %u, \"paused_ms\": ", s->pauses);
		text_put_number(out, s->paused_ms, EXPORT_DIGITS, true);
	}
	fputs(", \"disks\": [", out);
	for (int d = 0; d < s->ndisks; d++) {
		fprintf(out, "%s{\"name\": ", d ? ", " : "");
		rec_json_str(out, s->disks[d].name);
		if (s->disks[d].is_partition)
			fputs(", \"partition\": true", out);
		if (s->disks[d].have_rate) {
			/* a figure this kernel's line lacks is null */
			for (int c = 0; c < DF_N; c++) {
				fprintf(out, ", \"%s\": ", disk_figure_name(c));
				text_put_number(out, disk_rate_figure(&s->disks[d], c), EXPORT_DIGITS, true);
			}
		}
		fputc('}', out);
	}
	fputs("]}", out);
}

static void put_samples_csv_header(FILE *out, char (*disks)[SNAP_DISK_NAME_LEN], int ndisks)
{
	fputs("t,seq,dt,realtime_ns,dirty_kb,writeback_kb,bg_thresh_kb,freerun_kb,thresh_kb,"
	      "meminfo_dirty_kb,meminfo_writeback_kb,zone,psi_io_some_avg10,psi_io_full_avg10,hits,hit_seconds,"
	      "throttle_source,throttled,pauses,paused_ms", out);
	for (int k = 0; k < ndisks; k++)
		for (int c = 0; c < DF_N; c++)
			fprintf(out, ",%s.%s", disks[k], disk_figure_name(c));
	fputc('\n', out);
}

static void put_sample_csv(FILE *out, const struct sample *s, char (*disks)[SNAP_DISK_NAME_LEN], int ndisks)
{
	fprintf(out, "%.3f,%llu,%.3f,%lld", s->t, (unsigned long long)s->seq, s->dt, (long long)s->realtime_ns);
	if (s->have_dirty)
		fprintf(out, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu",
			(unsigned long long)s->dirty_kb, (unsigned long long)s->writeback_kb,
			(unsigned long long)s->bg_thresh_kb, (unsigned long long)s->freerun_kb,
			(unsigned long long)s->thresh_kb, (unsigned long long)s->meminfo_dirty_kb,
			(unsigned long long)s->meminfo_writeback_kb);
	else
		fputs(",,,,,,,", out);
	fprintf(out, ",%s,", s->zone == ZONE_UNKNOWN ? "" : rec_zone_name(s->zone));
	if (s->have_psi) {
		text_put_number(out, s->psi_io_some_avg10, EXPORT_DIGITS, false);
		fputc(',', out);
		text_put_number(out, s->psi_io_full_avg10, EXPORT_DIGITS, false);
	} else {
		fputc(',', out);
	}
	fprintf(out, ",%u,", s->hits);
	text_put_number(out, s->hit_seconds, EXPORT_DIGITS, false);
	fprintf(out, ",%s,%d,", thr_src_name(s->thr_src), s->throttled ? 1 : 0);
	if (s->thr_src == THR_SRC_KERNEL) {
		fprintf(out, "%u,", s->pauses);
		text_put_number(out, s->paused_ms, EXPORT_DIGITS, false);
	} else {
		fputc(',', out);
	}
	for (int k = 0; k < ndisks; k++) {
		const struct disk_rate *dr = NULL;
		for (int d = 0; d < s->ndisks; d++)
			if (!strcmp(s->disks[d].name, disks[k]))
				dr = &s->disks[d];
		for (int c = 0; c < DF_N; c++) {
			fputc(',', out);
			if (dr)   /* n/a (NaN) is an empty cell, not a fake zero */
				text_put_number(out, disk_rate_figure(dr, c), EXPORT_DIGITS, false);
		}
	}
	fputc('\n', out);
}

static void put_event(FILE *out, const struct model_event *e, bool json)
{
	if (json) {
		fprintf(out, "{\"t\": %.3f, \"kind\": \"%s\", \"text\": ", e->t, rec_event_kind_name(e->kind));
		rec_json_str(out, e->text);
		fputc('}', out);
	} else {
		fprintf(out, "%.3f,%s,", e->t, rec_event_kind_name(e->kind));
		rec_csv_str(out, e->text);
		fputc('\n', out);
	}
}

#define EXPORT_EVENTS_HEADER "t,kind,text\n"
#define EXPORT_RESULTS_HEADER "t,label,run,x_name,x,metric,value,unit,final,progress,incomplete,too_fast\n"

static void put_result(FILE *out, double t, const struct result_point *p, bool json)
{
	if (json) {
		fprintf(out, "{\"t\": %.3f, \"label\": ", t);
		rec_json_str(out, p->label);
		fprintf(out, ", \"run\": %d, \"x_name\": ", p->run);
		rec_json_str(out, p->x_name);
		fputs(", \"x\": ", out);
		text_put_number(out, p->x, EXPORT_DIGITS, true);
		fputs(", \"metric\": ", out);
		rec_json_str(out, p->metric);
		fputs(", \"value\": ", out);
		text_put_number(out, (p->flags & RP_TOO_FAST) ? NAN : p->value, EXPORT_DIGITS, true);
		fputs(", \"unit\": ", out);
		rec_json_str(out, p->unit);
		fprintf(out, ", \"flags\": %u}", p->flags);
	} else {
		fprintf(out, "%.3f,", t);
		rec_csv_str(out, p->label);
		fprintf(out, ",%d,", p->run);
		rec_csv_str(out, p->x_name);
		fputc(',', out);
		text_put_number(out, p->x, EXPORT_DIGITS, false);
		fputc(',', out);
		rec_csv_str(out, p->metric);
		fputc(',', out);
		if (!(p->flags & RP_TOO_FAST))
			text_put_number(out, p->value, EXPORT_DIGITS, false);
		fputc(',', out);
		rec_csv_str(out, p->unit);
		fprintf(out, ",%d,%d,%d,%d\n", !!(p->flags & RP_FINAL), !!(p->flags & RP_PROGRESS),
			!!(p->flags & RP_INCOMPLETE), !!(p->flags & RP_TOO_FAST));
	}
}

/* One table: CSV with its header row, or NDJSON (an object a line). */
static void export_table(const struct recording *rec, enum export_table table, bool ndjson, struct sample *s,
			 char (*disks)[SNAP_DISK_NAME_LEN], FILE *out)
{
	switch (table) {
	case EXPORT_SAMPLES: {
		int ndisks = ndjson ? 0 : export_list_disks(rec, s, disks);
		if (!ndjson)
			put_samples_csv_header(out, disks, ndisks);
		for (size_t i = 0; i < recording_count(rec, RK_SAMPLE); i++) {
			if (recording_sample(rec, i, s))
				continue;
			if (ndjson) {
				put_sample_json(out, s);
				fputc('\n', out);
			} else {
				put_sample_csv(out, s, disks, ndisks);
			}
		}
		break;
	}
	case EXPORT_EVENTS:
		if (!ndjson)
			fputs(EXPORT_EVENTS_HEADER, out);
		for (size_t i = 0; i < recording_count(rec, RK_EVENT); i++) {
			struct model_event e;
			if (recording_event(rec, i, &e))
				continue;
			put_event(out, &e, ndjson);
			if (ndjson)
				fputc('\n', out);
		}
		break;
	case EXPORT_RESULTS:
		if (!ndjson)
			fputs(EXPORT_RESULTS_HEADER, out);
		for (size_t i = 0; i < recording_count(rec, RK_RESULT); i++) {
			struct result_point p;
			if (recording_result(rec, i, &p))
				continue;
			put_result(out, recording_time(rec, RK_RESULT, i), &p, ndjson);
			if (ndjson)
				fputc('\n', out);
		}
		break;
	}
}

/* The JSON document: header and every table. */
static void export_document(const struct recording *rec, struct sample *s, FILE *out)
{
	const struct rec_header *h = recording_header(rec);

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
	fprintf(out, ", \"interval\": %g, \"start_realtime_ns\": %lld", h->interval, (long long)h->start_realtime_ns);
	if (h->have_knobs)
		fprintf(out, ", \"dirty_background_bytes\": %llu, \"dirty_background_ratio\": %u, "
			"\"dirty_bytes\": %llu, \"dirty_ratio\": %u",
			(unsigned long long)h->dirty_background_bytes, h->dirty_background_ratio,
			(unsigned long long)h->dirty_bytes, h->dirty_ratio);
	fputs("},\n \"samples\": [", out);
	for (size_t i = 0, first = 1; i < recording_count(rec, RK_SAMPLE); i++) {
		if (recording_sample(rec, i, s))
			continue;
		fputs(first ? "\n  " : ",\n  ", out);
		put_sample_json(out, s);
		first = 0;
	}
	fputs("],\n \"events\": [", out);
	for (size_t i = 0, first = 1; i < recording_count(rec, RK_EVENT); i++) {
		struct model_event e;
		if (recording_event(rec, i, &e))
			continue;
		fputs(first ? "\n  " : ",\n  ", out);
		put_event(out, &e, true);
		first = 0;
	}
	fputs("],\n \"results\": [", out);
	for (size_t i = 0, first = 1; i < recording_count(rec, RK_RESULT); i++) {
		struct result_point p;
		if (recording_result(rec, i, &p))
			continue;
		fputs(first ? "\n  " : ",\n  ", out);
		put_result(out, recording_time(rec, RK_RESULT, i), &p, true);
		first = 0;
	}
	/* output lines, for completeness: what the benchmark said */
	fputs("],\n \"output\": [", out);
	for (size_t i = 0, first = 1; i < recording_count(rec, RK_OUTPUT); i++) {
		struct output_line l;
		if (recording_output(rec, i, &l))
			continue;
		fprintf(out, "%s\n  {\"t\": %.3f, \"run\": %d, \"text\": ", first ? "" : ",", l.t, l.run);
		rec_json_str(out, l.text);
		fputc('}', out);
		first = 0;
	}
	fputs("]}\n", out);
}

int recording_export(const struct recording *rec, enum out_format fmt, enum export_table table, FILE *out,
		     char *err, size_t errlen)
{
	char (*disks)[SNAP_DISK_NAME_LEN] = calloc(EXPORT_MAX_DISKS, sizeof(*disks));
	struct sample *s = malloc(sizeof(*s));

	if (!s || !disks) {
		free(s);
		free(disks);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (fmt == FMT_JSON)
		export_document(rec, s, out);
	else if (fmt == FMT_CSV || fmt == FMT_NDJSON)
		export_table(rec, table, fmt == FMT_NDJSON, s, disks, out);
	free(s);
	free(disks);
	if (fmt != FMT_JSON && fmt != FMT_CSV && fmt != FMT_NDJSON) {
		snprintf(err, errlen, "export writes CSV, NDJSON or JSON");
		return -EINVAL;
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
