/* iodash: a terminal dashboard for Linux I/O benchmarking sessions.
 *
 *   /proc (libproc2) --probe--> snapshot --derive--> sample --> series/model
 *   benchmark on a pty --parsers--> result points ---------------^   |
 *                                    recorder <-- (observer) --------+
 *                                    ui (curses) or batch <-- model -+
 *
 * main only parses the command line and dispatches; see docs/hacking.md. */
#include <locale.h>
#include <stdio.h>
#include "iodash/app.h"
#include <sys/stat.h>
#include <unistd.h>
#include "iodash/cli.h"
#include "iodash/commands.h"
#include "iodash/ui.h"

/* Will this command draw the curses screens?  (compare does so only
 * without --text/--csv/--json and on a terminal.) */
static bool main_wants_screen(const struct iodash_opts *o)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return false;   /* the screens say so themselves */
	switch (o->cmd) {
	case CMD_EXPORT: return false;
	case CMD_COMPARE: return o->format == FMT_NONE;
	default: return !o->batch;
	}
}

/* view, export and compare read files whole (mmap, or to the end): a FIFO
 * with no writer would block them forever, a device never ends.  Refuse
 * what is not a regular file before opening it.  0 or the exit code. */
static int main_check_inputs(const struct iodash_opts *o)
{
	static const char *const names[] = { [CMD_VIEW] = "view", [CMD_COMPARE] = "compare",
					     [CMD_EXPORT] = "export" };
	struct stat st;

	if (o->cmd != CMD_VIEW && o->cmd != CMD_COMPARE && o->cmd != CMD_EXPORT)
		return 0;
	for (int i = 0; i < o->nargs; i++) {
		if (stat(o->args[i], &st) || S_ISREG(st.st_mode))
			continue;   /* a missing file: the reader says so */
		fprintf(stderr, "iodash %s: %s: %s, not a regular file; give a file (for a pipe: save it to a file first)\n",
			names[o->cmd], o->args[i],
			S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory" :
			S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : S_ISSOCK(st.st_mode) ? "a socket" : "special");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct iodash_opts o;
	int rc;

	/* Only the character type comes from the environment (UTF-8 glyphs,
	 * wide curses): every number iodash reads or writes (-i 0.1,
	 * recordings, --batch, export, a benchmark's "1014.20") is a machine
	 * format and keeps the C locale's decimal point under de_DE.UTF-8. */
	setlocale(LC_CTYPE, "");
	rc = cli_parse(argc, argv, &o);
	if (rc == 1)
		return 0;          /* --help / --version */
	if (rc)
		return rc;
	if ((rc = main_check_inputs(&o)))
		return rc;
	if (main_wants_screen(&o)) {
		char msg[256];
		if (ui_check_terminal(msg, sizeof(msg))) {
			fprintf(stderr, "iodash: %s\n", msg);
			return 2;
		}
	}
	if (o.cmd != CMD_RESTORE)
		cmd_knobs_notice(stderr);
	switch (o.cmd) {
	case CMD_LIVE: return cmd_live(&o);
	case CMD_RUN: return cmd_run(&o);
	case CMD_SWEEP: return cmd_sweep(&o);
	case CMD_ATTACH: return cmd_attach(&o);
	case CMD_VIEW: return cmd_view(&o);
	case CMD_COMPARE: app_end_on_closed_stdout(); return cmd_compare(&o);
	case CMD_EXPORT: app_end_on_closed_stdout(); return cmd_export(&o);
	case CMD_RESTORE: return cmd_restore(&o);
	}
	return 2;
}

