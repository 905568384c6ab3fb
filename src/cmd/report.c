/* `iodash report SRC... -o FILE.html`: compare's data (compare_load) as
 * one self-contained HTML page (report.h draws it).  A regular file is
 * written beside FILE and renamed over it when whole, so a failure never
 * leaves half a report, nor loses the one already there; a device, a
 * FIFO or a symlink's target is written as fdio_out_open says. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmd/commands.h"
#include "iodash/base/fdio.h"
#include "cmd.h"
#include "iodash/results/compare.h"
#include "iodash/results/report.h"

/* Write through fdio's output rule (a regular file through a temporary
 * one renamed over it; a device, a FIFO, /dev/stdout in place); "-" is
 * stdout.  0, or -errno with err. */
static int report_to_file(const char *path, const struct compare_data *cd, const struct report_opts *ro,
			  size_t svg_metric, bool svg, char *err, size_t errlen)
{
	struct fdio_out out;
	FILE *f;
	int rc;

	if (!strcmp(path, "-")) {
		rc = svg ? report_write_svg(cd, svg_metric, ro, stdout, err, errlen)
			 : report_write_html(cd, ro, stdout, err, errlen);
		if (!rc && fflush(stdout))
			rc = -EIO, snprintf(err, errlen, "writing to stdout: %s", strerror(errno));
		return rc;
	}
	if ((rc = fdio_out_open(&out, path, FDIO_OUT_RENAME, err, errlen)))
		return rc;
	if (!(f = fdopen(dup(out.fd), "w"))) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		fdio_out_discard(&out);
		return rc;
	}
	rc = svg ? report_write_svg(cd, svg_metric, ro, f, err, errlen) : report_write_html(cd, ro, f, err, errlen);
	if (fclose(f) && !rc)
		rc = -EIO, snprintf(err, errlen, "%s: %s", path, strerror(errno));
	else if (rc)
		snprintf(err + strlen(err), errlen - strlen(err), " (%s)", path);
	if (rc)
		fdio_out_discard(&out);
	else
		rc = fdio_out_commit(&out, err, errlen);
	return rc;
}

int cmd_report_write(const char *path, const struct compare_data *cd, const struct iodash_opts *o, bool svg,
		     size_t metric, char *err, size_t errlen)
{
	struct report_opts ro = { .title = o->title, .log2x = o->log2x };

	return report_to_file(path, cd, &ro, metric, svg, err, errlen);
}

int cmd_report(const struct iodash_opts *o)
{
	struct compare_data cd;
	char err[1024];
	int rc;

	rc = compare_load_named(&cd, o->args, o->nargs, o->src_labels, o->nsrc_labels, o->baseline, o->metric, o->parser, err, sizeof(err), stderr);
	if (rc) {
		fprintf(stderr, "iodash report: %s\n", err);
		return rc == -ESRCH ? 2 : 1;
	}
	compare_print_notes(&cd, o->explain, "iodash: ", stderr);
	rc = cmd_report_write(o->output, &cd, o, false, 0, err, sizeof(err));
	if (rc)
		fprintf(stderr, "iodash report: %s\n", err);
	compare_free(&cd);
	return rc ? 1 : 0;
}
