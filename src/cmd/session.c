/* The front end around a sampling session: the one place that turns the
 * session's errors into messages and exit codes for live, run, sweep and
 * attach. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "iodash/base/fdio.h"
#include "iodash/base/signals.h"
#include "cmd.h"

int cmd_batch_events_open(const struct iodash_opts *o, FILE **ev)
{
	struct fdio_out out;
	char err[PATH_MAX + 200];

	*ev = NULL;
	if (!o->batch_events)
		return 0;
	/* written as it comes (tail -f): a file truncated in place, a
	 * device or FIFO written where it is (fdio.h) */
	if (fdio_out_open(&out, o->batch_events, 0, err, sizeof(err))) {
		fprintf(stderr, "iodash: --batch-events %s\n", err);
		return 1;
	}
	if (!(*ev = fdopen(out.fd, "w"))) {
		fprintf(stderr, "iodash: --batch-events %s: %s\n", o->batch_events, strerror(errno));
		fdio_out_discard(&out);
		return 1;
	}
	fdio_out_release(&out);
	return 0;
}

int cmd_batch_events_close(const struct iodash_opts *o, FILE *ev)
{
	int bad;

	if (!ev)
		return 0;
	bad = ferror(ev);
	if (fclose(ev) || bad) {
		fprintf(stderr, "iodash: --batch-events %s: not all lines could be written\n", o->batch_events);
		return 1;
	}
	return 0;
}

int cmd_front_end_run(const struct iodash_opts *o, struct model *m, FILE *ev, bool recording)
{
	if (o->batch) {
		struct batch_config bc;
		cmd_batch_config(o, &bc);
		bc.recording = recording;
		return batch_run(m, &bc, stdout, ev);
	}
	struct ui_config uc;
	cmd_ui_config(o, &uc);
	return ui_run(m, &uc);
}

int cmd_session_run_as(const struct iodash_opts *o, const struct app_config *ac, struct bench_driver *drv)
{
	struct app_session *s;
	char err[512] = "";
	int rc, exit_code;
	FILE *ev;

	/* before the probe, the recording and the benchmark: a refusal leaves
	 * no stray recording behind and starts nothing */
	if (!o->batch && (rc = ui_check_terminal(err, sizeof(err)))) {
		fprintf(stderr, "iodash: %s\n", err);
		if (drv && drv->destroy)
			drv->destroy(drv);
		return 2;
	}
	if (cmd_batch_events_open(o, &ev)) {
		if (drv && drv->destroy)
			drv->destroy(drv);
		return 1;
	}
	if (app_session_start(&s, ac, drv, err, sizeof(err))) {
		fprintf(stderr, "iodash: %s\n", err);
		cmd_batch_events_close(o, ev);
		return 1;
	}
	exit_code = cmd_front_end_run(o, app_session_model(s), ev, ac->output || ac->record_default);
	if (cmd_batch_events_close(o, ev) && !exit_code)
		exit_code = 1;
	rc = app_session_end(s, err, sizeof(err));
	/* the screen is gone: say what became of an attached process
	 * (--batch has said it in its run_end line) */
	pid_t left = app_session_left_running(s);
	if (left && !o->batch && !signals_hangup())
		fprintf(stderr, "iodash: stopped watching; left PID %d running\n", (int)left);
	if (rc) {
		fprintf(stderr, "iodash: %s\n", err);
		if (!exit_code)
			exit_code = 1;
	} else if (app_session_recorded_to(s)) {
		fprintf(stderr, "iodash: recorded to %s\n", app_session_recorded_to(s));
	}
	app_session_free(s);
	return exit_code;
}

int cmd_session_run(const struct iodash_opts *o, struct bench_driver *drv)
{
	struct app_config ac;

	cmd_app_config(o, &ac);
	return cmd_session_run_as(o, &ac, drv);
}

int cmd_bench_run(const struct iodash_opts *o)
{
	struct bench_config bc;

	cmd_bench_config(o, &bc);
	return cmd_bench_run_config(o, &bc);
}

int cmd_bench_run_config(const struct iodash_opts *o, const struct bench_config *bc)
{
	struct bench_driver *d;
	char err[512];
	int rc;

	rc = bench_driver_create(bc, &d, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "iodash: %s\n", err);
		return rc == -EINVAL ? 2 : 1;
	}
	return cmd_session_run(o, d);
}
