/* batch: the no-curses front end: one plain line per refresh on stdout. */
#ifndef IODASH_BATCH_H
#define IODASH_BATCH_H

#include <stdbool.h>
#include <stdio.h>
#include "iodash/sample/derive.h"
#include "iodash/model/model.h"
#include "iodash/sample/disk_filter.h"

/* --time: a line's time column */
enum time_base { TIME_REL, TIME_MONO, TIME_WALL };

/* What the lines look like and when the session is over; src/cmd/ fills
 * it from the command line. */
struct batch_config {
	enum time_base time_base;  /* --time: session seconds, CLOCK_MONOTONIC or the wall clock */
	bool every_sample;         /* no -r on the command line: a line for every sample */
	double refresh;            /* else: the newest sample once per this many seconds */
	int disk_cols[DF_N];       /* --columns: per-disk figures (enum disk_figure) */
	int ndisk_cols;            /* 0: the default r_kBps w_kBps util */
	bool attached;             /* attach: whatever ends iodash ends the watching */
	bool recording;            /* a recording is written: a reader gone does not end
				    * the session, and dropped lines are in it */
	const struct disk_filter *disks;   /* --disks: the devices given columns (NULL: all) */
};

/* Print the session as lines until the producers are done: samples (and
 * their # header) to out, the !, = and > lines to events (NULL: out as
 * well).  Exit code. */
int batch_run(struct model *m, const struct batch_config *cfg, FILE *out, FILE *events);

#endif
