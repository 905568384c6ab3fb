/* `iodash compare SRC...`: recordings and text files side by side.  The
 * core builds the data (compare_load); this command prints it (--text,
 * --csv, --json, or a pipe) or hands it to the compare screen. */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cmd/commands.h"
#include "iodash/results/compare.h"
#include "iodash/base/text.h"
#include "iodash/ui/ui.h"
#include "cmd.h"

/* Labels, file names and notes come from outside: the text a person
 * reads is printed through the text sanitizer, whole, so that none of
 * them writes an escape sequence to the terminal.  The table is made in
 * memory first (it is small). */
static FILE *safe_open(char **buf, size_t *len)
{
	return open_memstream(buf, len);
}

static int safe_close(FILE *mem, char **buf, size_t *len, FILE *out)
{
	int rc = fclose(mem) ? -EIO : 0;   /* sets *buf and *len */

	if (*buf)
		text_put_safe(out, *buf, *len, true);
	free(*buf);
	return rc;
}

int cmd_compare(const struct iodash_opts *o)
{
	struct compare_data cd;
	char err[1024];
	int rc;

	if (o->nargs < 1) {
		fprintf(stderr, "iodash compare: give one or more recordings or text files (see iodash --help)\n");
		return 2;
	}
	char *wbuf = NULL;
	size_t wlen = 0;
	FILE *warn = safe_open(&wbuf, &wlen);
	rc = compare_load_named(&cd, o->args, o->nargs, o->src_labels, o->nsrc_labels, o->baseline, o->metric,
				o->parser, err, sizeof(err), warn ? warn : stderr);
	if (rc) {
		if (warn)
			safe_close(warn, &wbuf, &wlen, stderr);
		text_put_message(stderr, "iodash compare: ", err);
		return rc == -ESRCH ? 2 : 1;
	}
	/* a table not understood is said, whatever the output; --explain says
	 * how every table was read */
	compare_print_notes(&cd, o->explain, "iodash: ", warn ? warn : stderr);
	if (warn)
		safe_close(warn, &wbuf, &wlen, stderr);
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
		char *tbuf = NULL;
		size_t tlen = 0;
		FILE *t = o->format == FMT_TEXT ? safe_open(&tbuf, &tlen) : stdout;
		if (!t)
			t = stdout;
		rc = compare_print(&cd, o->format, t);
		if (!rc && o->format == FMT_TEXT && cd.nnotes) {
			fputs("\ntables read from:\n", t);
			compare_print_notes(&cd, true, "  ", t);
		}
		if (t != stdout && safe_close(t, &tbuf, &tlen, stdout))
			rc = -EIO;
		if (fflush(stdout) || rc) {
			fprintf(stderr, "iodash compare: writing the table: %s\n", strerror(errno ? errno : EIO));
			rc = 1;
		}
	} else if (!isatty(STDOUT_FILENO)) {
		/* not a terminal: the text table is what a pipe wants */
		char *tbuf = NULL;
		size_t tlen = 0;
		FILE *t = safe_open(&tbuf, &tlen);
		if (t) {
			rc = compare_print(&cd, FMT_TEXT, t) ? 1 : 0;
			if (safe_close(t, &tbuf, &tlen, stdout) || fflush(stdout))
				rc = 1;
		} else {
			rc = compare_print(&cd, FMT_TEXT, stdout) ? 1 : 0;
		}
	} else {
		struct ui_look look;
		cmd_ui_look(o, &look);
		rc = ui_compare_run(&cd, &look, o->log2x);
	}
	compare_free(&cd);
	return rc;
}
