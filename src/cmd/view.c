/* `iodash view REC...`: replay recordings through the live screens (or
 * --batch), one after the other. */
#include <stdio.h>
#include "cmd/commands.h"
#include "iodash/probe/probe.h"
#include "iodash/session/replay.h"
#include "iodash/base/signals.h"
#include "iodash/base/text.h"
#include "cmd.h"


static int view_one(const char *path, const struct iodash_opts *o, int file_no, int nfiles, FILE *ev)
{
	if (probe_is_pcp_archive(path)) {
		/* a PCP archive (pmlogger's): its counters through the live
		 * screens, paced by its own times (--fast: at once), as
		 * --proc-root replays a trace */
		struct app_config ac;
		cmd_app_config(o, &ac);
		ac.proc_root = path;
		/* export --pcp's: its disks are those its recording showed,
		 * with counters from 0 at its start (an idle one stays 0) */
		if (probe_is_iodash_archive(path))
			ac.disks.all_disks = true;
		return cmd_session_run_as(o, &ac, NULL);
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
	if (!o->batch && model_keep_history(replay_model(r), replay_graph_seconds(r, cmd_graph_seconds(o)))) {
		fprintf(stderr, "iodash view: out of memory\n");
		rc = 1;
	} else if (replay_start(r, err, sizeof(err))) {
		text_put_message(stderr, "iodash view: ", err);
		rc = 1;
	} else {
		/* a replay writes no recording of its own */
		rc = cmd_front_end_run(o, replay_model(r), ev, false);
		replay_stop(r);
	}
	replay_close(r);
	return rc;
}

int cmd_view(const struct iodash_opts *o)
{
	int rc = 0;
	FILE *ev;

	if (o->nargs < 1) {
		fprintf(stderr, "iodash view: give one or more recordings (.rec files that iodash -o writes)\n");
		return 2;
	}
	signals_install_int_hup();
	if (cmd_batch_events_open(o, &ev))
		return 1;
	/* several recordings: one after the other */
	for (int i = 0; i < o->nargs && !signals_interrupts(); i++) {
		int r = view_one(o->args[i], o, i + 1, o->nargs, ev);
		if (r && !rc)
			rc = r;
	}
	if (cmd_batch_events_close(o, ev) && !rc)
		rc = 1;
	return rc;
}
