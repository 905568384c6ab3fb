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

	setlocale(LC_ALL, "");
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

/* TEMPORARY while the modules are built side by side: a weak fallback for
 * each entry point of a module that has not landed yet, so the binary links
 * and says honestly what is missing.  Real definitions override these. */
#include "iodash/app.h"
#include "iodash/parser.h"
#include "iodash/recording.h"
#include "iodash/ui.h"

static int not_built(const char *what)
{
	fprintf(stderr, "iodash: %s is not built into this version yet\n", what);
	return 1;
}

__attribute__((weak)) int cmd_run(const struct iodash_opts *o) { (void)o; return not_built("run"); }
__attribute__((weak)) int cmd_sweep(const struct iodash_opts *o) { (void)o; return not_built("sweep"); }
__attribute__((weak)) int cmd_attach(const struct iodash_opts *o) { (void)o; return not_built("attach"); }
__attribute__((weak)) int cmd_view(const struct iodash_opts *o) { (void)o; return not_built("view"); }
__attribute__((weak)) int cmd_compare(const struct iodash_opts *o) { (void)o; return not_built("compare"); }
__attribute__((weak)) int cmd_export(const struct iodash_opts *o) { (void)o; return not_built("export"); }
__attribute__((weak)) int ui_run(struct model *m, const struct iodash_opts *o)
{
	(void)m; (void)o;
	return not_built("the curses dashboard (use --batch)");
}
__attribute__((weak)) const char *const parser_names[] = { NULL };
__attribute__((weak)) int recorder_open(struct recorder **out, const char *path,
					const struct rec_meta *meta, char *err, size_t errlen)
{
	(void)out; (void)path; (void)meta;
	snprintf(err, errlen, "recording is not built into this version yet");
	return -38;
}
__attribute__((weak)) struct model_observer recorder_observer(struct recorder *r)
{
	(void)r;
	return (struct model_observer){ 0 };
}
__attribute__((weak)) int recorder_flush(struct recorder *r) { (void)r; return 0; }
__attribute__((weak)) void recorder_close(struct recorder *r) { (void)r; }
__attribute__((weak)) int ui_compare_run(const struct compare_data *cd, const struct iodash_opts *o)
{
	(void)cd; (void)o;
	return not_built("the curses compare screen (use --text, --csv or --json)");
}
