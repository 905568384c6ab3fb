/* What the commands of src/cmd/ share: a sampling session with its front
 * end.  Private to src/cmd/. */
#ifndef IODASH_CMD_CMD_H
#define IODASH_CMD_CMD_H

#include "iodash/session/app.h"
#include <stdio.h>
#include "cmd/cli.h"

/* Start the session (drv NULL: live), run the front end (--batch or the
 * screens) on its model, end it, and say on stderr what went wrong, what
 * was left running and where the default recording went.  The exit code. */
int cmd_session_run(const struct iodash_opts *o, struct bench_driver *drv);

/* run, sweep, attach: the benchmark driver the options ask for, then
 * cmd_session_run().  The exit code (2 for a driver the options cannot make). */
int cmd_bench_run(const struct iodash_opts *o);

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
