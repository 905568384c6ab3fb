/* `iodash compare SRC...`: recordings and text files side by side.  The
 * core builds the data (compare_load); this command prints it (--text,
 * --csv, --json, or a pipe) or hands it to the compare screen. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "iodash/commands.h"
#include "iodash/compare.h"
#include "iodash/ui.h"
#include "cmd.h"

int cmd_compare(const struct iodash_opts *o)
{
	struct compare_data cd;
	char err[1024];
	int rc;

	if (o->nargs < 1) {
		fprintf(stderr, "iodash compare: give one or more recordings or text files (see iodash --help)\n");
		return 2;
	}
	rc = compare_load_named(&cd, o->args, o->nargs, o->src_labels, o->nsrc_labels, o->baseline, o->metric, o->parser, err, sizeof(err), stderr);
	if (rc) {
		fprintf(stderr, "iodash compare: %s\n", err);
		return rc == -ESRCH ? 2 : 1;
	}
	/* a table not understood is said, whatever the output; --explain says
	 * how every table was read */
	compare_print_notes(&cd, o->explain, "iodash: ", stderr);
	if (o->svg) {
		/* one metric: --metric's (compare_load kept only it), else the first */
		rc = cmd_report_write(o->svg, &cd, o, true, 0, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "iodash compare: %s\n", err);
			compare_free(&cd);
			return 1;
		}
		if (o->format == FMT_NONE) {
			/* the image was asked for: no screen, no table */
			compare_free(&cd);
			return 0;
		}
	}
	if (o->format != FMT_NONE) {
		rc = compare_print(&cd, o->format, stdout);
		if (!rc && o->format == FMT_TEXT && cd.nnotes) {
			fputs("\ntables read from:\n", stdout);
			compare_print_notes(&cd, true, "  ", stdout);
		}
		if (fflush(stdout) || rc) {
			fprintf(stderr, "iodash compare: writing the table: %s\n", strerror(errno ? errno : EIO));
			rc = 1;
		}
	} else if (!isatty(STDOUT_FILENO)) {
		/* not a terminal: the text table is what a pipe wants */
		rc = compare_print(&cd, FMT_TEXT, stdout) ? 1 : 0;
	} else {
		rc = ui_compare_run(&cd, o);
	}
	compare_free(&cd);
	return rc;
}
