/* `iodash report SRC... -o FILE.html`: compare's data (compare_load) as
 * one self-contained HTML page (report.h draws it).  The page is written
 * to a temporary file beside FILE and renamed over it when whole, so a
 * failure never leaves half a report, nor loses the one already there. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "iodash/commands.h"
#include "cmd.h"
#include "iodash/compare.h"
#include "iodash/report.h"

/* Write through a temporary file in the destination's directory, then
 * rename; "-" is stdout.  0, or -errno with err. */
static int report_to_file(const char *path, const struct compare_data *cd, const struct report_opts *ro,
			  size_t svg_metric, bool svg, char *err, size_t errlen)
{
	char tmp[4096];
	FILE *f;
	int fd, rc;

	if (!strcmp(path, "-")) {
		rc = svg ? report_write_svg(cd, svg_metric, ro, stdout, err, errlen)
			 : report_write_html(cd, ro, stdout, err, errlen);
		if (!rc && fflush(stdout))
			rc = -EIO, snprintf(err, errlen, "writing to stdout: %s", strerror(errno));
		return rc;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", path) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -ENAMETOOLONG;
	}
	if ((fd = mkstemp(tmp)) < 0 || !(f = fdopen(fd, "w"))) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot create a file there: %s (check the directory exists and is writable)",
			 path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return rc;
	}
	/* mkstemp makes it 0600: give it the mode a plain fopen would */
	mode_t um = umask(0);
	umask(um);
	if (fchmod(fd, 0666 & ~um)) {
		/* harmless: the report is written all the same, readable by its owner */
	}
	rc = svg ? report_write_svg(cd, svg_metric, ro, f, err, errlen) : report_write_html(cd, ro, f, err, errlen);
	if (fclose(f) && !rc)
		rc = -EIO, snprintf(err, errlen, "%s: %s", path, strerror(errno));
	else if (rc)
		snprintf(err + strlen(err), errlen - strlen(err), " (%s)", path);
	if (!rc && rename(tmp, path))
		rc = -errno, snprintf(err, errlen, "%s: %s", path, strerror(errno));
	if (rc)
		unlink(tmp);
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
