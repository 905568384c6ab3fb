/* `iodash export [--csv|--ndjson] [--table T] | --json REC`: a recording's
 * samples, events or results as one table for other tools, or all of them
 * as one JSON document (recording_export writes them). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "iodash/record/recording.h"
#include "iodash/base/fdio.h"
#include "cmd/commands.h"
#include "iodash/results/export.h"
#include "iodash/results/export_pcp.h"
#include "iodash/base/text.h"

int cmd_export(const struct iodash_opts *o)
{
	struct recording *rec;
	char err[1024];
	FILE *out = stdout;
	struct fdio_out file = { .fd = -1 };
	int rc;

	if (o->nargs != 1) {
		fprintf(stderr, "iodash export: give one recording: iodash export [--csv|--ndjson|--json] REC\n");
		return 2;
	}
	/* CSV unless told: what pandas, gnuplot and awk read */
	enum out_format fmt = o->format == FMT_NONE ? FMT_CSV : o->format;
	if (fmt != FMT_CSV && fmt != FMT_JSON && fmt != FMT_NDJSON) {
		fprintf(stderr, "iodash export: choose --csv, --ndjson, --json or --pcp ARCHIVE\n");
		return 2;
	}
	if (recording_open(&rec, o->args[0], err, sizeof(err))) {
		text_put_message(stderr, "iodash export: ", err);
		return 1;
	}
	if (recording_warning(rec)[0])
		text_put_message(stderr, "iodash export: warning: ", recording_warning(rec));
	if (o->pcp_archive) {
		rc = recording_export_pcp(rec, o->pcp_archive, err, sizeof(err));
		if (rc)
			fprintf(stderr, "iodash export: %s\n", err);
		recording_close(rec);
		return rc ? 1 : 0;
	}
	/* -o: a whole file or none (fdio.h), never a device replaced */
	if (o->output && (fdio_out_open(&file, o->output, FDIO_OUT_RENAME, err, sizeof(err)) ||
			  !(out = fdopen(dup(file.fd), "w")))) {
		if (file.dest) {
			snprintf(err, sizeof(err), "%s: %s", o->output, strerror(errno));
			fdio_out_discard(&file);
		}
		fprintf(stderr, "iodash export: %s\n", err);
		recording_close(rec);
		return 1;
	}
	rc = recording_export(rec, fmt, o->table, out, err, sizeof(err));
	if (fflush(out) && !rc)
		rc = -EIO, snprintf(err, sizeof(err), "writing the export: %s", strerror(errno));
	if (out != stdout && fclose(out) && !rc)
		rc = -EIO, snprintf(err, sizeof(err), "writing the export: %s", strerror(errno));
	if (o->output && rc)
		fdio_out_discard(&file);
	else if (o->output)
		rc = fdio_out_commit(&file, err, sizeof(err));
	if (rc)
		fprintf(stderr, "iodash export: %s\n", err);
	recording_close(rec);
	return rc ? 1 : 0;
}
