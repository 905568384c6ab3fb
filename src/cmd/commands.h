/* The subcommands of DESIGN.md's command line, one file each in src/cmd/.
 * main.c dispatches from one table of them, commands[] (as git's
 * cmd_struct in git.c);
 * cli_parse() finds the command word and --help prints the usage lines
 * from the same table.  Each handler returns the exit code (0 success,
 * 1 runtime failure, 2 usage error). */
#ifndef IODASH_COMMANDS_H
#define IODASH_COMMANDS_H

#include <stddef.h>
#include <stdio.h>
#include "cmd/cli.h"

enum {
	CMD_F_READS_FILES = 1,     /* its arguments are files read whole: regular files only */
	CMD_F_ONLY_PRINTS = 2,     /* prints and is done: a closed stdout ends it with 0 */
	CMD_F_NO_NOTICE = 4,       /* no "knobs still changed" notice (it is the cure) */
};

struct cmd_struct {
	const char *name;          /* the word after iodash; live is also no word */
	enum iodash_cmd cmd;
	const char *usage;         /* its lines of --help's usage, "iodash ..." */
	int (*fn)(const struct iodash_opts *o);
	unsigned flags;            /* CMD_F_* */
};

/* src/cmd/commands.c: one row per enum iodash_cmd, in --help's order. */
extern const struct cmd_struct commands[];
extern const size_t cmd_count;

int cmd_live(const struct iodash_opts *o);     /* src/cmd/live.c */
int cmd_run(const struct iodash_opts *o);      /* src/cmd/run.c */
int cmd_sweep(const struct iodash_opts *o);    /* src/cmd/sweep.c */
int cmd_attach(const struct iodash_opts *o);   /* src/cmd/attach.c */
int cmd_view(const struct iodash_opts *o);     /* src/cmd/view.c */
int cmd_compare(const struct iodash_opts *o);  /* src/cmd/compare.c */
int cmd_export(const struct iodash_opts *o);   /* src/cmd/export.c */
int cmd_report(const struct iodash_opts *o);   /* src/cmd/report.c */
int cmd_restore(const struct iodash_opts *o);  /* src/cmd/restore.c */
int cmd_fleet(const struct iodash_opts *o);    /* src/cmd/fleet.c */
/* At every start: a knobs journal left by a killed iodash is said on
 * stderr (which knobs are still changed, and `iodash restore`). */
void cmd_knobs_notice(FILE *err);

#endif
