/* ui: the curses front end (the only code that includes curses). */
#ifndef IODASH_UI_H
#define IODASH_UI_H

#include "cmd/cli.h"
#include "iodash/model/model.h"
#include "iodash/results/stats.h"

/* Run the live (or replay) screens on the model until the user quits or,
 * for a run/sweep, the benchmark is done and the user quits.  On SIGHUP
 * (app_got_sighup) drop the screen and return once the producers are done.
 * Returns the exit code. */
int ui_run(struct model *m, const struct iodash_opts *o);

/* Whether the screens can start here: a terminal on stdin and stdout, of
 * a type terminfo knows that can place the cursor (not TERM=dumb).  0, or
 * -errno with err saying what to do instead (--batch).  Asked before
 * anything is created (a recording), so a refusal leaves nothing behind. */
int ui_check_terminal(char *err, size_t errlen);

/* The compare screen: curves of every metric, table under them. */
struct compare_data;
int ui_compare_run(const struct compare_data *cd, const struct iodash_opts *o);

struct fleet;
/* The fleet screen: one row per host, worst first; Enter opens the full
 * dashboard of the chosen host (iodash --host HOST) and comes back. */
int ui_fleet_run(struct fleet *f, const struct iodash_opts *o);

#endif
