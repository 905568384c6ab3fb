/* What the commands of src/cmd/ share: each layer's config cut from the
 * options, and a sampling session with its front end.  Private to
 * src/cmd/. */
#ifndef IODASH_CMD_CMD_H
#define IODASH_CMD_CMD_H

#include <stdio.h>
#include "iodash/session/app.h"
#include "iodash/batch/batch.h"
#include "iodash/bench/driver.h"
#include "cmd/cli.h"
#include "iodash/ui/ui.h"

/* src/cmd/configs.c: the options, as each layer below takes them.  The
 * configs point into o (and its argv): they live as long as it does. */
void cmd_app_config(const struct iodash_opts *o, struct app_config *ac);
void cmd_bench_config(const struct iodash_opts *o, struct bench_config *bc);
void cmd_ui_look(const struct iodash_opts *o, struct ui_look *look);
void cmd_ui_config(const struct iodash_opts *o, struct ui_config *uc);
/* recording false: cmd_front_end_run says it. */
void cmd_batch_config(const struct iodash_opts *o, struct batch_config *bc);
/* Seconds a graph sub-column stands for: the first -r (the refresh keys
 * change how often the screen is drawn, not what a column is). */
double cmd_graph_seconds(const struct iodash_opts *o);

/* The front end the options ask for (--batch or the screens) on m,
 * until the producers are done or the user quits; recording: whether
 * the session writes a recording (a replay does not).  The exit code. */
int cmd_front_end_run(const struct iodash_opts *o, struct model *m, FILE *ev, bool recording);

/* Start the session of ac (drv NULL: live), run the front end (--batch
 * or the screens) on its model, end it, and say on stderr what went
 * wrong, what was left running and where the default recording went.
 * The exit code. */
int cmd_session_run_as(const struct iodash_opts *o, const struct app_config *ac, struct bench_driver *drv);
/* The same with the session the options ask for. */
int cmd_session_run(const struct iodash_opts *o, struct bench_driver *drv);

/* run, sweep, attach: the benchmark driver the options ask for, then
 * cmd_session_run().  The exit code (2 for a driver the options cannot make). */
int cmd_bench_run(const struct iodash_opts *o);
/* The same with a config the command has added to (sweep's --baseline). */
int cmd_bench_run_config(const struct iodash_opts *o, const struct bench_config *bc);

/* --batch-events FILE: opened before anything starts, so that a path
 * that cannot be written is said at once and nothing ran.  0 (*ev NULL
 * when not asked) or 1 after saying why on stderr. */
int cmd_batch_events_open(const struct iodash_opts *o, FILE **ev);
/* Close it; a write error (a full disk) is said on stderr: 1, else 0. */
int cmd_batch_events_close(const struct iodash_opts *o, FILE *ev);

struct compare_data;
/* report and compare --svg: the HTML report (svg false) or metric's
 * curves as SVG to path ("-": stdout), whole or not at all.  0 or -errno
 * with err. */
int cmd_report_write(const char *path, const struct compare_data *cd, const struct iodash_opts *o, bool svg,
		     size_t metric, char *err, size_t errlen);

#endif
