/* ui: the curses front end (the only code that includes curses). */
#ifndef IODASH_UI_H
#define IODASH_UI_H

#include <stdbool.h>
#include <stddef.h>
#include "iodash/model/model.h"
#include "iodash/results/stats.h"

/* How every screen looks: --theme, --ascii, --mono, --no-braille. */
struct ui_look {
	const char *theme;           /* a name or a path, NULL: the default */
	bool ascii, mono, no_braille;
};

/* The live (and replay) screen; src/cmd/ fills it from the command line. */
struct ui_config {
	struct ui_look look;
	double interval;             /* -i: the fastest refresh the - key goes to */
	double graph_seconds;        /* the first -r: the refresh, and what a graph
				      * sub-column stands for (+/- keep it) */
	bool timed;                  /* --count or --duration: a session that ends
				      * by itself, waited for after a hangup */
	bool attached;               /* attach: a hangup ends the watching */
	bool log2x;                  /* the result curves' x axis in log2 */
	const char *disks;           /* --disks LIST: the disks listed (NULL: all) */
};

/* Run the live (or replay) screens on the model until the user quits or,
 * for a run/sweep, the benchmark is done and the user quits.  On SIGHUP
 * (signals_hangup) drop the screen and return once the producers are done.
 * Returns the exit code. */
int ui_run(struct model *m, const struct ui_config *cfg);

/* Whether the screens can start here: a terminal on stdin and stdout, of
 * a type terminfo knows that can place the cursor (not TERM=dumb).  0, or
 * -errno with err saying what to do instead (--batch).  Asked before
 * anything is created (a recording), so a refusal leaves nothing behind. */
int ui_check_terminal(char *err, size_t errlen);

/* The compare screen: curves of every metric, table under them (log2x:
 * --log2x, else log2 when the x values span octaves). */
struct compare_data;
int ui_compare_run(const struct compare_data *cd, const struct ui_look *look, bool log2x);

struct fleet;
/* The fleet screen: one row per host, worst first; Enter opens the full
 * dashboard of the chosen host (iodash --host HOST, sampling every
 * interval seconds) and comes back. */
struct fleet_row;
/* rows: room for nhosts rows (the screen copies the fleet's into it). */
int ui_fleet_run(struct fleet *f, const struct ui_look *look, double interval, struct fleet_row *rows,
		 size_t nhosts);

#endif
