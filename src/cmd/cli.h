/* cli: the command line of DESIGN.md, parsed once into struct iodash_opts.
 * The commands' own header (src/cmd/ and main.c only): a command fills
 * each layer's config (app_config, bench_config, ui_config,
 * batch_config) from it (src/cmd/configs.c); no layer below sees it. */
#ifndef IODASH_CLI_H
#define IODASH_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <sys/types.h>
#include "iodash/batch/batch.h"
#include "iodash/sample/derive.h"
#include "iodash/sample/disk_filter.h"
#include "iodash/results/emit.h"

#define CLI_MAX_PARAMS 8
#define CLI_MAX_SYSCTLS 16
#define CLI_MAX_SRC_LABELS 64

enum iodash_cmd { CMD_LIVE, CMD_RUN, CMD_SWEEP, CMD_ATTACH, CMD_VIEW, CMD_COMPARE, CMD_EXPORT, CMD_REPORT, CMD_RESTORE,
		  CMD_FLEET };
#define CMD_COUNT (CMD_FLEET + 1)   /* the last command + 1: commands[] has a row for each */
/* enum out_format and enum export_table: emit.h; enum time_base: batch.h */

struct iodash_opts {
	enum iodash_cmd cmd;
	/* sampling (live, run, sweep, attach) */
	double interval;          /* -i, seconds, 0.01..60, default 0.5 */
	double refresh;           /* -r, seconds, default 1 (batch: every sample) */
	bool refresh_set;
	long count;               /* --count, 0 = unlimited */
	double duration;          /* --duration, 0 = unlimited */
	const char *proc_root;    /* --proc-root */
	const char *host;         /* --host HOST[:PORT]: that machine's pmcd */
	const char *hosts_file;   /* fleet --hosts FILE: one host per line */
	const char *pcp_archive;  /* export --pcp PATH: a PCP archive */
	bool no_publish;          /* --no-publish: no mmv.iodash.* metrics (publish.h) */
	bool publish;             /* --publish: also a --proc-root replay's */
	bool fast;                /* --fast: replay a trace as fast as possible */
	/* display */
	bool batch, ascii, mono, no_braille;
	const char *theme;
	/* runs */
	const char *label;        /* -l */
	const char *output;       /* -o REC */
	bool no_record;           /* --no-record: run/sweep without the default recording */
	bool force;               /* --force: -o may replace an existing file */
	const char *parser;       /* --parser NAME */
	const char *log;          /* attach --log FILE */
	pid_t pid;                /* attach PID */
	const char *params[CLI_MAX_PARAMS];  /* sweep -p NAME=V1,V2 */
	int nparams;
	int repeat;               /* sweep --repeat N, default 1 */
	const char *between;      /* sweep --between CMD */
	bool stop_on_fail;
	/* sweep --until-decided (results/decide.h) */
	bool until_decided;
	bool decide_opts;         /* one of the options below was given */
	int min_repeat, max_repeat;
	double budget_s;          /* --budget, 0 none */
	double ci_pct, min_change_pct;
	const char *sysctls[CLI_MAX_SYSCTLS];  /* run/sweep --sysctl KEY=VALUE (knobs.h) */
	int nsysctls;
	/* disks: -p DEV|ALL / --partitions, --all-disks (iostat's -p and ALL) */
	struct derive_opts disks;
	const char *p_partitions; /* the -p (short form) that set partitions, for a sweep's error */
	/* --batch --columns r_s,w_await,...: per-disk figures (enum disk_figure) */
	int disk_cols[DF_N];
	int ndisk_cols;           /* 0: the default r_kBps w_kBps util */
	const char *disks_list;   /* --disks LIST as given (the screens parse their own, for f) */
	struct disk_filter disk_filter;   /* --disks parsed: --batch's columns */
	bool trace_throttle;       /* the kernel's tracepoints are required */
	bool no_trace;             /* --no-trace: throttling from the sampled zone only */
	double throttle_gap;       /* --throttle-gap, seconds; 0 = default 1 */
	enum time_base time_base;  /* --time (batch) */
	/* compare / export / view */
	enum out_format format;
	const char *baseline;
	const char *src_labels[CLI_MAX_SRC_LABELS];  /* compare/report --label SRC=NAME */
	int nsrc_labels;
	const char *metric;       /* compare --metric NAME */
	bool explain;             /* compare --explain: how each table of a text source was read */
	bool log2x;
	const char *svg;          /* compare --svg FILE: one metric's curves as an image */
	const char *title;        /* report --title TEXT */
	bool follow;              /* view --follow (default: follow when the file grows) */
	enum export_table table;  /* export --table, default samples */
	bool table_set;
	const char *batch_events; /* --batch-events FILE: the !, =, > lines go there */
	const char *config;       /* --config FILE (config.h), NULL: the default path */
	const char *record_dir;   /* --record-dir / record_dir: the default recording's directory */
	/* positional: the command after -- (run, sweep) or the sources */
	char **args;
	int nargs;
};

struct cmd_struct;   /* commands.h */

/* Parse argv against the table of commands (the command word, and the
 * usage lines of --help).  Returns 0, 1 when --help/--version was printed
 * (exit 0), or 2 on a usage error (message already on stderr). */
int cli_parse(int argc, char **argv, const struct cmd_struct *cmds, size_t ncmds,
	      struct iodash_opts *o);
void cli_usage(FILE *f, const struct cmd_struct *cmds, size_t ncmds);

#endif
