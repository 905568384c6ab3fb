/* ui: the curses front end (the only code that includes curses). */
#ifndef IODASH_UI_H
#define IODASH_UI_H

#include "iodash/cli.h"
#include "iodash/model.h"
#include "iodash/session.h"

/* Run the live (or replay) screens on the model until the user quits or,
 * for a run/sweep, the benchmark is done and the user quits.  On SIGHUP
 * (app_got_sighup) drop the screen and return once the producers are done.
 * Returns the exit code. */
int ui_run(struct model *m, const struct iodash_opts *o);

/* The compare screen: curves of every metric, table under them. */
struct compare_data;
int ui_compare_run(const struct compare_data *cd, const struct iodash_opts *o);

/* 0 when the terminal (TERM, terminfo) can draw the screens; else
 * -EINVAL and a one-line message saying to use --batch.  Call before a
 * session starts anything: a usage error, exit 2. */
int ui_terminal_check(char *msg, size_t len);

#endif
