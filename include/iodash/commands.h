/* The subcommands of DESIGN.md's command line; each returns the exit code
 * (0 success, 1 runtime failure, 2 usage error). */
#ifndef IODASH_COMMANDS_H
#define IODASH_COMMANDS_H

#include <stdio.h>
#include "iodash/cli.h"

int cmd_live(const struct iodash_opts *o);     /* src/app.c */
int cmd_run(const struct iodash_opts *o);      /* src/bench/ */
int cmd_sweep(const struct iodash_opts *o);    /* src/bench/ */
int cmd_attach(const struct iodash_opts *o);   /* src/bench/ */
int cmd_view(const struct iodash_opts *o);     /* src/record/ */
int cmd_compare(const struct iodash_opts *o);  /* src/record/ */
int cmd_export(const struct iodash_opts *o);   /* src/record/ */
int cmd_restore(const struct iodash_opts *o);  /* src/bench/restore.c */
/* At every start: a knobs journal left by a killed iodash is said on
 * stderr (which knobs are still changed, and `iodash restore`). */
void cmd_knobs_notice(FILE *err);

#endif
