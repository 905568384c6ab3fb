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
#include "iodash/cli.h"
#include "iodash/commands.h"

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
	switch (o.cmd) {
	case CMD_LIVE: return cmd_live(&o);
	case CMD_RUN: return cmd_run(&o);
	case CMD_SWEEP: return cmd_sweep(&o);
	case CMD_ATTACH: return cmd_attach(&o);
	case CMD_VIEW: return cmd_view(&o);
	case CMD_COMPARE: return cmd_compare(&o);
	case CMD_EXPORT: return cmd_export(&o);
	}
	return 2;
}

