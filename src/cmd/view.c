/* `iodash view REC...`: replay recordings through the live screens (or
 * --batch), one after the other. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "iodash/session/app.h"
#include "iodash/batch/batch.h"
#include "cmd/commands.h"
#include "iodash/probe/probe.h"
#include "iodash/session/replay.h"
#include "iodash/base/text.h"
#include "iodash/ui/ui.h"
#include "cmd.h"

static void view_on_signal(int sig)
{
	if (sig == SIGINT)
		app_got_sigint++;
	else
		app_got_sighup = 1;
}

static int view_one(const char *path, const struct iodash_opts *o, int file_no, int nfiles, FILE *ev)
{
	if (probe_is_pcp_archive(path)) {
		/* a PCP archive (pmlogger's): its counters through the live
		 * screens, paced by its own times (--fast: at once), as
		 * --proc-root replays a trace */
		struct iodash_opts a = *o;
		a.cmd = CMD_LIVE;
		a.proc_root = path;
		a.no_record = true;
		a.nargs = 0;
		return cmd_session_run(&a, NULL);
	}
	if (o->fast) {
		fprintf(stderr, "iodash view: %s: --fast is for PCP archives and traces; a recording has "
			"its own time travel (End, g)\n", path);
		return 2;
	}
	struct replay_config cfg = { .batch = o->batch, .follow = o->follow,
				     .file_no = file_no, .nfiles = nfiles };
	struct replay *r;
	char err[1024];
	int rc;

	if (replay_open(&r, path, &cfg, err, sizeof(err))) {
		text_put_message(stderr, "iodash view: ", err);
		return 1;
	}
	if (replay_warning(r)[0])
		text_put_message(stderr, "iodash view: warning: ", replay_warning(r));
	if (!o->batch && app_keep_graph_history(replay_model(r), o)) {
		fprintf(stderr, "iodash view: out of memory\n");
		rc = 1;
	} else if (replay_start(r, err, sizeof(err))) {
		text_put_message(stderr, "iodash view: ", err);
		rc = 1;
	} else {
		rc = o->batch ? batch_run(replay_model(r), o, stdout, ev) : ui_run(replay_model(r), o);
		replay_stop(r);
	}
	replay_close(r);
	return rc;
}

int cmd_view(const struct iodash_opts *o)
{
	struct sigaction sa;
	int rc = 0;
	FILE *ev;

	if (o->nargs < 1) {
		fprintf(stderr, "iodash view: give one or more recordings (.rec files that iodash -o writes)\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = view_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (cmd_batch_events_open(o, &ev))
		return 1;
	/* several recordings: one after the other */
	for (int i = 0; i < o->nargs && !app_got_sigint; i++) {
		int r = view_one(o->args[i], o, i + 1, o->nargs, ev);
		if (r && !rc)
			rc = r;
	}
	if (cmd_batch_events_close(o, ev) && !rc)
		rc = 1;
	return rc;
}
