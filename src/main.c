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
#include "iodash/cli.h"
#include "iodash/commands.h"

int main(int argc, char **argv)
{
	struct iodash_opts o;
	int rc;

	setlocale(LC_ALL, "");
	rc = cli_parse(argc, argv, &o);
	if (rc == 1)
		return 0;          /* --help / --version */
	if (rc)
		return rc;
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

