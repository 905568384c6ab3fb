/* export: a recording as data for pandas, R, gnuplot or jq.
 * CSV: sections "# samples" (one row per sample, disks as NAME.column),
 * "# events", "# results", separated by a blank line.  JSON: one object. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/commands.h"
#include "iodash/recording.h"
#include "rec_format.h"

#define EXPORT_MAX_DISKS 64



/* Where a sample's throttling comes from, as export names it. */
static const char *thr_src_name(enum throttle_source src)
{
	return src == THR_SRC_KERNEL ? "kernel" : src == THR_SRC_SAMPLED ? "sampled" : "";
}

static void num(FILE *out, double v, bool json)
{
	if (isfinite(v))
		fprintf(out, "%.9g", v);
	else if (json)
		fputs("null", out);
}

int recording_export(const struct recording *rec, enum out_format fmt, FILE *out,
		     char *err, size_t errlen)
{
	char (*disks)[SNAP_DISK_NAME_LEN];
	int ndisks = 0;
	size_t ns = recording_count(rec, RK_SAMPLE);
	struct sample *s = malloc(sizeof(*s));
	bool json = fmt == FMT_JSON;
	const struct rec_header *h = recording_header(rec);

	disks = calloc(EXPORT_MAX_DISKS, sizeof(*disks));
	if (!s || !disks) {
		free(s);
		free(disks);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* CSV needs every disk's columns up front: one pass over the disks
	 * (hotplug: a disk missing from a sample leaves its cells empty) */
	if (!json)
		for (size_t i = 0; i < ns; i++) {
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
	if (json) {
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
	} else {
		fputs("# samples\nt,seq,dt,realtime_ns,dirty_kb,writeback_kb,bg_thresh_kb,freerun_kb,thresh_kb,"
		      "meminfo_dirty_kb,meminfo_writeback_kb,zone,psi_io_some_avg10,psi_io_full_avg10,hits,hit_seconds,"
		      "throttle_source,throttled,pauses,paused_ms", out);
		for (int k = 0; k < ndisks; k++)
			for (int c = 0; c < DF_N; c++)
				fprintf(out, ",%s.%s", disks[k], disk_figure_name(c));
		fputc('\n', out);
	}
	for (size_t i = 0, first = 1; i < ns; i++) {
		if (recording_sample(rec, i, s))
			continue;
		if (json) {
			fprintf(out, "%s\n  {\"t\": %.3f, \"seq\": %llu, \"dt\": %.3f, \"realtime_ns\": %lld",
				first ? "" : ",", s->t, (unsigned long long)s->seq, s->dt, (long long)s->realtime_ns);
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
				num(out, s->psi_io_some_avg10, true);
				fputs(", \"psi_io_full_avg10\": ", out);
				num(out, s->psi_io_full_avg10, true);
			}
			fprintf(out, ", \"hits\": %u, \"hit_seconds\": ", s->hits);
			num(out, s->hit_seconds, true);
			/* throttling: the kernel's pauses when followed, else the zone */
			fprintf(out, ", \"throttle_source\": \"%s\", \"throttled\": %s", thr_src_name(s->thr_src),
				s->throttled ? "true" : "false");
			if (s->thr_src == THR_SRC_KERNEL) {
				fprintf(out, ", \"pauses\": %u, \"paused_ms\": ", s->pauses);
				num(out, s->paused_ms, true);
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
						num(out, disk_rate_figure(&s->disks[d], c), true);
					}
				}
				fputc('}', out);
			}
			fputs("]}", out);
		} else {
			fprintf(out, "%.3f,%llu,%.3f,%lld", s->t, (unsigned long long)s->seq, s->dt,
				(long long)s->realtime_ns);
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
				num(out, s->psi_io_some_avg10, false);
				fputc(',', out);
				num(out, s->psi_io_full_avg10, false);
			} else {
				fputc(',', out);
			}
			fprintf(out, ",%u,", s->hits);
			num(out, s->hit_seconds, false);
			fprintf(out, ",%s,%d,", thr_src_name(s->thr_src), s->throttled ? 1 : 0);
			if (s->thr_src == THR_SRC_KERNEL) {
				fprintf(out, "%u,", s->pauses);
				num(out, s->paused_ms, false);
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
						num(out, disk_rate_figure(dr, c), false);
				}
			}
			fputc('\n', out);
		}
		first = 0;
	}
	/* events */
	fputs(json ? "],\n \"events\": [" : "\n# events\nt,kind,text\n", out);
	for (size_t i = 0, first = 1; i < recording_count(rec, RK_EVENT); i++) {
		struct model_event e;
		if (recording_event(rec, i, &e))
			continue;
		if (json) {
			fprintf(out, "%s\n  {\"t\": %.3f, \"kind\": \"%s\", \"text\": ", first ? "" : ",", e.t,
				rec_event_kind_name(e.kind));
			rec_json_str(out, e.text);
			fputc('}', out);
		} else {
			fprintf(out, "%.3f,%s,", e.t, rec_event_kind_name(e.kind));
			rec_csv_str(out, e.text);
			fputc('\n', out);
		}
		first = 0;
	}
	/* results */
	fputs(json ? "],\n \"results\": [" : "\n# results\nt,label,run,x_name,x,metric,value,unit,final,progress,incomplete,too_fast\n", out);
	for (size_t i = 0, first = 1; i < recording_count(rec, RK_RESULT); i++) {
		struct result_point p;
		double t = recording_time(rec, RK_RESULT, i);
		if (recording_result(rec, i, &p))
			continue;
		if (json) {
			fprintf(out, "%s\n  {\"t\": %.3f, \"label\": ", first ? "" : ",", t);
			rec_json_str(out, p.label);
			fprintf(out, ", \"run\": %d, \"x_name\": ", p.run);
			rec_json_str(out, p.x_name);
			fputs(", \"x\": ", out);
			num(out, p.x, true);
			fputs(", \"metric\": ", out);
			rec_json_str(out, p.metric);
			fputs(", \"value\": ", out);
			num(out, (p.flags & RP_TOO_FAST) ? NAN : p.value, true);
			fputs(", \"unit\": ", out);
			rec_json_str(out, p.unit);
			fprintf(out, ", \"flags\": %u}", p.flags);
		} else {
			fprintf(out, "%.3f,", t);
			rec_csv_str(out, p.label);
			fprintf(out, ",%d,", p.run);
			rec_csv_str(out, p.x_name);
			fputc(',', out);
			num(out, p.x, false);
			fputc(',', out);
			rec_csv_str(out, p.metric);
			fputc(',', out);
			if (!(p.flags & RP_TOO_FAST))
				num(out, p.value, false);
			fputc(',', out);
			rec_csv_str(out, p.unit);
			fprintf(out, ",%d,%d,%d,%d\n", !!(p.flags & RP_FINAL), !!(p.flags & RP_PROGRESS),
				!!(p.flags & RP_INCOMPLETE), !!(p.flags & RP_TOO_FAST));
		}
		first = 0;
	}
	if (json) {
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
	free(s);
	free(disks);
	if (ferror(out)) {
		snprintf(err, errlen, "writing the export failed");
		return -EIO;
	}
	return 0;
}

int cmd_export(const struct iodash_opts *o)
{
	struct recording *rec;
	char err[1024];
	FILE *out = stdout;
	int rc;

	if (o->nargs != 1) {
		fprintf(stderr, "iodash export: give one recording: iodash export --csv|--json REC\n");
		return 2;
	}
	if (o->format != FMT_CSV && o->format != FMT_JSON) {
		fprintf(stderr, "iodash export: choose --csv or --json\n");
		return 2;
	}
	if (recording_open(&rec, o->args[0], err, sizeof(err))) {
		fprintf(stderr, "iodash export: %s\n", err);
		return 1;
	}
	if (recording_warning(rec)[0])
		fprintf(stderr, "iodash export: warning: %s\n", recording_warning(rec));
	if (o->output && !(out = fopen(o->output, "w"))) {
		fprintf(stderr, "iodash export: %s: %s\n", o->output, strerror(errno));
		recording_close(rec);
		return 1;
	}
	rc = recording_export(rec, o->format, out, err, sizeof(err));
	if (fflush(out) && !rc)
		rc = -EIO, snprintf(err, sizeof(err), "writing the export: %s", strerror(errno));
	if (out != stdout)
		fclose(out);
	if (rc)
		fprintf(stderr, "iodash export: %s\n", err);
	recording_close(rec);
	return rc ? 1 : 0;
}
