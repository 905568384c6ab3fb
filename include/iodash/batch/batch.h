/* batch: the no-curses front end: one plain line per refresh on stdout. */
#ifndef IODASH_BATCH_H
#define IODASH_BATCH_H

#include <stdio.h>
#include "cmd/cli.h"
#include "iodash/model/model.h"

/* Print the session as lines until the producers are done: samples (and
 * their # header) to out, the !, = and > lines to events (NULL: out as
 * well).  Exit code. */
int batch_run(struct model *m, const struct iodash_opts *o, FILE *out, FILE *events);

#endif
