/* iodash: a terminal dashboard for Linux I/O benchmarking sessions.
 *
 *   /proc (libproc2) --probe--> snapshot --derive--> sample --> series/model
 *   benchmark on a pty --parsers--> result points ---------------^   |
 *                                    recorder <-- (observer) --------+
 *                                    ui (curses) or batch <-- model -+
 *
 * main only parses the command line and dispatches from the commands[]
 * table (src/cmd/commands.c): a new command is one file in src/cmd/ and
 * one row there; see docs/hacking.md. */
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "iodash/ui/ui.h"


/* export and compare print and are done: a reader that goes away ends
 * them at once, with 0 and no message, as it ends a --batch session
 * (which handles EPIPE itself, see batch.c), not with death by SIGPIPE. */
static void main_on_sigpipe(int sig)
{
	(void)sig;
	_exit(0);
}

static void main_end_on_closed_stdout(void)
{
	struct sigaction sa = { .sa_handler = main_on_sigpipe };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

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
static int main_check_inputs(const struct cmd_struct *c, const struct iodash_opts *o)
{
	struct stat st;

	if (!(c->flags & CMD_F_READS_FILES))
		return 0;
	for (int i = 0; i < o->nargs; i++) {
		if (stat(o->args[i], &st) || S_ISREG(st.st_mode))
			continue;   /* a missing file: the reader says so */
		fprintf(stderr, "iodash %s: %s: %s, not a regular file; give a file (for a pipe: save it to a file first)\n",
			c->name, o->args[i],
			S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISDIR(st.st_mode) ? "a directory" :
			S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : S_ISSOCK(st.st_mode) ? "a socket" : "special");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct cmd_struct *c = NULL;
	struct iodash_opts o;
	int rc;

	/* Only the character type comes from the environment (UTF-8 glyphs,
	 * wide curses): every number iodash reads or writes (-i 0.1,
	 * recordings, --batch, export, a benchmark's "1014.20") is a machine
	 * format and keeps the C locale's decimal point under de_DE.UTF-8. */
	setlocale(LC_CTYPE, "");
	rc = cli_parse(argc, argv, commands, cmd_count, &o);
	if (rc == 1)
		return 0;          /* --help / --version */
	if (rc)
		return rc;
	for (size_t i = 0; i < cmd_count; i++)
		if (commands[i].cmd == o.cmd)
			c = &commands[i];
	if (!c)
		return 2;
	if ((rc = main_check_inputs(c, &o)))
		return rc;
	if (main_wants_screen(&o)) {
		char msg[256];
		if (ui_check_terminal(msg, sizeof(msg))) {
			fprintf(stderr, "iodash: %s\n", msg);
			return 2;
		}
	}
	if (!(c->flags & CMD_F_NO_NOTICE))
		cmd_knobs_notice(stderr);
	if (c->flags & CMD_F_ONLY_PRINTS)
		main_end_on_closed_stdout();
	return c->fn(&o);
}
