/* cli: DESIGN.md's command line.  Options may stand before or after the
 * subcommand; for run and sweep, everything after `--` (or after the first
 * word that is not an option) is the benchmark's own argv, untouched. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "iodash/bench/sweep.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "iodash/base/config.h"
#include "iodash/parsers/parser.h"
#include "iodash/parsers/result_set.h"

enum {
	OPT_THEME = 256, OPT_ASCII, OPT_MONO, OPT_NO_BRAILLE, OPT_BATCH, OPT_COUNT,
	OPT_DURATION, OPT_PROC_ROOT, OPT_FAST, OPT_NO_RECORD, OPT_PARSER, OPT_LOG,
	OPT_REPEAT, OPT_BETWEEN, OPT_STOP_ON_FAIL, OPT_TRACE_THROTTLE, OPT_TEXT,
	OPT_CSV, OPT_JSON, OPT_BASELINE, OPT_METRIC, OPT_LOG2X, OPT_FOLLOW, OPT_EXPLAIN,
	OPT_HELP, OPT_VERSION, OPT_FORCE, OPT_PARTITIONS, OPT_ALL_DISKS, OPT_DISKS, OPT_COLUMNS, OPT_SYSCTL, OPT_NO_TRACE, OPT_THROTTLE_GAP, OPT_TIME,
	OPT_HOST, OPT_NO_PUBLISH, OPT_PUBLISH, OPT_HOSTS, OPT_PCP, OPT_SVG, OPT_TITLE, OPT_NDJSON, OPT_TABLE, OPT_BATCH_EVENTS,
	OPT_CONFIG, OPT_RECORD_DIR,
	OPT_UNTIL_DECIDED, OPT_MIN_REPEAT, OPT_MAX_REPEAT, OPT_BUDGET, OPT_CI, OPT_MIN_CHANGE,
};

static const struct option long_opts[] = {
	{ "interval", required_argument, NULL, 'i' },
	{ "refresh", required_argument, NULL, 'r' },
	{ "label", required_argument, NULL, 'l' },
	{ "output", required_argument, NULL, 'o' },
	{ "param", required_argument, NULL, 'p' },
	{ "theme", required_argument, NULL, OPT_THEME },
	{ "ascii", no_argument, NULL, OPT_ASCII },
	{ "mono", no_argument, NULL, OPT_MONO },
	{ "no-braille", no_argument, NULL, OPT_NO_BRAILLE },
	{ "batch", no_argument, NULL, OPT_BATCH },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "proc-root", required_argument, NULL, OPT_PROC_ROOT },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "hosts", required_argument, NULL, OPT_HOSTS },
	{ "pcp", required_argument, NULL, OPT_PCP },
	{ "no-publish", no_argument, NULL, OPT_NO_PUBLISH },
	{ "publish", no_argument, NULL, OPT_PUBLISH },
	{ "fast", no_argument, NULL, OPT_FAST },
	{ "no-record", no_argument, NULL, OPT_NO_RECORD },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "parser", required_argument, NULL, OPT_PARSER },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "between", required_argument, NULL, OPT_BETWEEN },
	{ "stop-on-fail", no_argument, NULL, OPT_STOP_ON_FAIL },
	{ "until-decided", no_argument, NULL, OPT_UNTIL_DECIDED },
	{ "min-repeat", required_argument, NULL, OPT_MIN_REPEAT },
	{ "max-repeat", required_argument, NULL, OPT_MAX_REPEAT },
	{ "budget", required_argument, NULL, OPT_BUDGET },
	{ "ci", required_argument, NULL, OPT_CI },
	{ "min-change", required_argument, NULL, OPT_MIN_CHANGE },
	{ "trace-throttle", no_argument, NULL, OPT_TRACE_THROTTLE },
	{ "no-trace", no_argument, NULL, OPT_NO_TRACE },
	{ "throttle-gap", required_argument, NULL, OPT_THROTTLE_GAP },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "text", no_argument, NULL, OPT_TEXT },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "ndjson", no_argument, NULL, OPT_NDJSON },
	{ "table", required_argument, NULL, OPT_TABLE },
	{ "batch-events", required_argument, NULL, OPT_BATCH_EVENTS },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "record-dir", required_argument, NULL, OPT_RECORD_DIR },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "log2x", no_argument, NULL, OPT_LOG2X },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "follow", no_argument, NULL, OPT_FOLLOW },
	{ "partitions", required_argument, NULL, OPT_PARTITIONS },
	{ "all-disks", no_argument, NULL, OPT_ALL_DISKS },
	{ "disks", required_argument, NULL, OPT_DISKS },
	{ "columns", required_argument, NULL, OPT_COLUMNS },
	{ "sysctl", required_argument, NULL, OPT_SYSCTL },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* The table of commands cli_parse() was given: --help prints from it. */
static const struct cmd_struct *cli_cmds;
static size_t cli_ncmds;

void cli_usage(FILE *f, const struct cmd_struct *cmds, size_t ncmds)
{
	fputs("usage:\n", f);
	for (size_t i = 0; i < ncmds; i++)
		fprintf(f, "  %s\n", cmds[i].usage);
	fputs("\n"
	      "sampling options (live, run, sweep, attach):\n"
	      "  -i, --interval SEC    sampling interval, 0.01..60 (default 0.5)\n"
	      "  -r, --refresh SEC     screen refresh (default 1; --batch: every sample)\n"
	      "      --count N         stop after N samples\n"
	      "      --duration SEC    stop after SEC seconds\n"
	      "      --proc-root DIR   read counters from DIR (a /proc-like directory or a\n"
	      "                        recorded trace, replayed at its pace)\n"
	      "      --fast            replay a trace as fast as possible\n"
	      "      --host HOST[:PORT]  read HOST's counters from its pmcd (Performance\n"
	      "                        Co-Pilot, port 44321) instead of this machine's /proc\n"
	      "      --batch           no curses: one plain line per refresh on stdout\n"
	      "      --theme NAME|PATH, --ascii, --mono, --no-braille   display\n"
	      "      --config FILE     defaults from FILE (default $XDG_CONFIG_HOME/iodash/config,\n"
	      "                        ~/.config/iodash/config): key = value lines, keys\n"
	      "                        interval, refresh, theme, record_dir, throttle_gap\n"
	      "      --record-dir DIR  run/sweep: where the default recording goes (default .)\n"
	      "      --parser NAME     parser of the benchmark's output (default: from CMD;\n"
	      "                        compare: of every text SRC, default guessed)\n", f);
	/* the parsers' names, from their table (shell completion reads them here) */
	fputs("                        NAME: ", f);
	for (size_t i = 0; parser_name_at(i); i++)
		fprintf(f, "%s%s", i ? ", " : "", parser_name_at(i));
	fputs("\n"
	      "      --no-record       run/sweep: do not write the default recording\n"
	      "      --no-publish      no mmv.iodash.* metrics for this machine's pmcd\n"
	      "      --publish         publish them even for the counters --proc-root replays\n"
	      "      --force           -o: replace an existing file (never one being recorded)\n"
	      "      --no-trace        do not follow the kernel's throttling tracepoints\n"
	      "                        (followed by default as root; else sampled)\n"
	      "      --trace-throttle  insist on the tracepoints: fail if tracefs cannot be used\n"
	      "      --throttle-gap SEC  quiet time that ends a throttle episode (default 1)\n"
	      "      --time rel|mono|wall  --batch time column: session seconds (default),\n"
	      "                        CLOCK_MONOTONIC (as ftrace/perf) or the wall clock\n"
	      "  -p, --partitions DEV[,DEV...]|ALL   also these disks' partitions, as iostat -p\n"
	      "                        (sweep: --partitions only; its -p is NAME=V1,V2)\n"
	      "      --all-disks       also disks that did no I/O since boot\n"
	      "      --disks LIST      show only these disks, as iostat -x sda nvme0n1: names or\n"
	      "                        globs (sda,nvme*); the screen's f key changes it; the\n"
	      "                        recording keeps every disk\n"
	      "      --columns LIST    --batch: per-disk figures, e.g. r_s,w_s,r_await,%util\n"
	      "                        (any iostat -x name or its r_s/rrqm_pct form; 'all')\n"
	      "  -h, --help, --version\n"
	      "\n"
	      "sweep: --until-decided: run each point until its answer is known (docs/decide.md):\n"
	      "       the mean within --ci PCT (default 2), or with --baseline REC (or\n"
	      "       NAME=VALUE of a -p) the change shown or ruled out (--min-change PCT,\n"
	      "       default 5), at 5 % false findings;\n"
	      "       --min-repeat N (default 3), --max-repeat N (default 20), --budget DURATION\n"
	      "       (e.g. 90m, 2h), --metric NAME (default the first the benchmark gives)\n"
	      "sweep: --repeat N (runs per point), --between CMD (run before every run, e.g.\n"
	      "       'sync; echo 3 > /proc/sys/vm/drop_caches'), --stop-on-fail\n"
	      "       CMD runs through sh before a run, with that (the next) run's values:\n"
	      "       {NAME} becomes one quoted shell word (write it bare, not in quotes),\n"
	      "       and $IODASH_P_NAME holds the value (for CMD and the benchmark)\n"
	      "attach: watches only; q, Ctrl-C, SIGTERM, --count leave the process running\n"
	      "run, sweep: --sysctl KEY=VALUE  set a /proc/sys knob before every run, e.g.\n"
	      "       --sysctl vm.dirty_ratio={r} -p bg,r=5:10,20:40; restored at the end\n"
	      "compare: --text|--csv|--json (the table, no curses), --baseline LABEL,\n"
	      "       --metric NAME, --log2x (x axis; default log2 when x spans octaves),\n"
	      "       --label SRC=NAME (the label of source SRC: sources given one label, or\n"
	      "       recorded with one -l, pool as runs of it; default labels stay apart),\n"
	      "       --explain (how each table of a text source was read, on stderr),\n"
	      "       --svg FILE (the curves of --metric, default the first, as an SVG image)\n"
	      "report: -o FILE.html (required; '-' for stdout), --title TEXT; and compare's\n"
	      "       --baseline, --label, --metric, --log2x, --parser\n"
	      "view --batch --follow: keep printing as the recording grows\n"
	      "export: --csv (default) or --ndjson: one table, --table samples|events|results\n"
	      "       (default samples); --json: one document with every table\n"
	      "--batch --batch-events FILE: the !, = and > lines (throttling, events, results,\n"
	      "       the benchmark's output) go to FILE; stdout keeps the # header and samples\n"
	      "\n"
	      "exit status: 0 success, 1 runtime failure, 2 usage error.  See man ./iodash.1\n", f);
}

/* While the config file's values go through cli_take: "FILE:LINE: key: ",
 * so that an error names the line to fix. */
static char cli_context[1200];

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "iodash: %s", cli_context);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("; see iodash --help\n", stderr);
	return 2;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	/* plain decimals only: strtod also takes "0x10", "inf", "nan" */
	if (s[strspn(s, "0123456789.eE+-")])
		return -1;
	v = strtod(s, &end);
	if (end == s || *end || !(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

/* "3600", "90s", "90m", "2h", "1h30m": seconds > 0. */
static int parse_duration(const char *s, double *out)
{
	double total = 0;
	char *end;

	if (!*s)
		return -1;
	while (*s) {
		double v = strtod(s, &end);
		if (end == s || !(v >= 0))
			return -1;
		switch (*end) {
		case 'h': v *= 3600; end++; break;
		case 'm': v *= 60; end++; break;
		case 's': end++; break;
		case '\0': break;
		default: return -1;
		}
		total += v;
		s = end;
	}
	if (!(total > 0) || total > 1e9)
		return -1;
	*out = total;
	return 0;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* --columns: iostat -x names ("r/s", "%util") or their key form ("r_s",
 * "util"), comma-separated, or "all". */
static int cli_parse_columns(const char *arg, struct iodash_opts *o)
{
	char name[32];

	o->ndisk_cols = 0;
	if (!strcmp(arg, "all")) {
		for (int f = 0; f < DF_N; f++)
			o->disk_cols[o->ndisk_cols++] = f;
		return 0;
	}
	for (const char *p = arg; *p; ) {
		size_t n = strcspn(p, ",");
		int f = -1;
		if (n && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			f = disk_figure_parse(name);
		}
		if (f < 0 || o->ndisk_cols == DF_N)
			return usage_error("--columns: '%.*s' is not a disk figure (r_s w_s rkB_s wkB_s "
					   "rrqm_s wrqm_s rrqm_pct wrqm_pct r_await w_await rareq_sz "
					   "wareq_sz aqu_sz util d_s dkB_s drqm_s drqm_pct d_await "
					   "dareq_sz f_s f_await, or iostat's r/s %%rrqm ..., or all)",
					   (int)n, p);
		o->disk_cols[o->ndisk_cols++] = f;
		p += n;
		if (*p == ',')
			p++;
	}
	if (!o->ndisk_cols)
		return usage_error("--columns wants a list of disk figures, e.g. %s", "r_s,w_s,util");
	return 0;
}

/* How many values "NAME=V1,V2,..." (or "A,B=1:2,3:4") lists. */
static int cli_count_values(const char *arg)
{
	int n = 1;

	for (const char *p = strchr(arg, '=') + 1; *p; p++)
		n += *p == ',';
	return n;
}

/* What an option taker returns for an option that is not one of its own. */
#define CLI_NOT_MINE (-1)

static int cli_take(int c, const char *arg, struct iodash_opts *o);

/* -l: a run's label, or for compare and report SRC=NAME, a source's. */
static int cli_take_label(const char *arg, struct iodash_opts *o)
{
	if (o->cmd != CMD_COMPARE && o->cmd != CMD_REPORT) {
		/* what the recording's reader, the results and the tables
		 * hold: longer was cut without a word (or, past 8 KB, made
		 * the recording unreadable) */
		if (strlen(arg) >= RP_LABEL_LEN)
			return usage_error("-l: a label is at most %d bytes, this one is %zu (give a shorter one)",
					   RP_LABEL_LEN - 1, strlen(arg));
		o->label = arg;
		return 0;
	}
	if (!strchr(arg, '=') || arg[0] == '=' || !strrchr(arg, '=')[1])
		return usage_error("--label wants SRC=NAME (a source given and the label for it), not '%s'", arg);
	if (strlen(strrchr(arg, '=') + 1) >= RP_LABEL_LEN)
		return usage_error("--label %s: a label is at most %d bytes (give a shorter one)", arg,
				   RP_LABEL_LEN - 1);
	if (o->nsrc_labels == CLI_MAX_SRC_LABELS)
		return usage_error("more than %d --label", CLI_MAX_SRC_LABELS);
	o->src_labels[o->nsrc_labels++] = arg;
	return 0;
}

/* -p: a sweep's NAME=V1,V2,..., or iostat's -p DEV|ALL where it holds no
 * '=' (a disk name never does). */
static int cli_take_param(const char *arg, struct iodash_opts *o)
{
	if (!strchr(arg, '=')) {
		o->p_partitions = arg;
		return cli_take(OPT_PARTITIONS, arg, o);
	}
	if (o->nparams == CLI_MAX_PARAMS)
		return usage_error("at most 8 -p parameters (got another: '%s')", arg);
	if (arg[0] == '=')
		return usage_error("-p wants NAME=V1,V2,..., not '%s'", arg);
	if (cli_count_values(arg) > SWEEP_MAX_VALUES)
		return usage_error("-p %.*s: %d values, at most %d per -p (split the sweep, or use a second -p for a grid)",
				   (int)(strchr(arg, '=') - arg), arg, cli_count_values(arg), SWEEP_MAX_VALUES);
	o->params[o->nparams++] = arg;
	return 0;
}

/* --parser: one of the parsers' table, else the list of them. */
static int cli_take_parser(const char *arg, struct iodash_opts *o)
{
	char names[128] = "";
	size_t n = 0;

	for (size_t i = 0; parser_name_at(i); i++) {
		if (!strcmp(parser_name_at(i), arg)) {
			o->parser = arg;
			return 0;
		}
		if (n < sizeof(names))
			n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "", parser_name_at(i));
	}
	return usage_error("unknown --parser '%s' (%s)", arg, names);
}

/* What is sampled, from where, for how long, and which disks. */
static int cli_take_sampling(int c, const char *arg, struct iodash_opts *o)
{
	switch (c) {
	case 'i':
		if (parse_double(arg, 0.01, 60, &o->interval))
			return usage_error("-i wants seconds from 0.01 to 60, not '%s'", arg);
		return 0;
	case OPT_COUNT:
		if (parse_long(arg, 1, 1L << 40, &o->count))
			return usage_error("--count wants a whole number > 0, not '%s'", arg);
		return 0;
	case OPT_DURATION:
		if (parse_double(arg, 0.001, 1e9, &o->duration))
			return usage_error("--duration wants seconds > 0, not '%s'", arg);
		return 0;
	case OPT_PROC_ROOT: o->proc_root = arg; return 0;
	case OPT_HOST: o->host = arg; return 0;
	case OPT_HOSTS: o->hosts_file = arg; return 0;
	case OPT_NO_PUBLISH: o->no_publish = true; return 0;
	case OPT_PUBLISH: o->publish = true; return 0;
	case OPT_FAST: o->fast = true; return 0;
	case OPT_TRACE_THROTTLE: o->trace_throttle = true; return 0;
	case OPT_NO_TRACE: o->no_trace = true; return 0;
	case OPT_THROTTLE_GAP:
		if (parse_double(arg, 0.001, 3600, &o->throttle_gap))
			return usage_error("--throttle-gap wants seconds, 0.001..3600, not '%s'", arg);
		return 0;
	case OPT_PARTITIONS: {
		char err[160];
		if (derive_opts_parse_partitions(&o->disks, arg, err, sizeof(err)))
			return usage_error("%s", err);
		return 0;
	}
	case OPT_ALL_DISKS: o->disks.all_disks = true; return 0;
	}
	return CLI_NOT_MINE;
}

/* How it is shown: the screens, or --batch's lines. */
static int cli_take_display(int c, const char *arg, struct iodash_opts *o)
{
	switch (c) {
	case 'r':
		if (parse_double(arg, 0.01, 3600, &o->refresh))
			return usage_error("-r wants seconds from 0.01 to 3600, not '%s'", arg);
		o->refresh_set = true;
		return 0;
	case OPT_THEME: o->theme = arg; return 0;
	case OPT_ASCII: o->ascii = true; return 0;
	case OPT_MONO: o->mono = true; return 0;
	case OPT_NO_BRAILLE: o->no_braille = true; return 0;
	case OPT_BATCH: o->batch = true; return 0;
	case OPT_BATCH_EVENTS: o->batch_events = arg; return 0;
	case OPT_TIME:
		if (!strcmp(arg, "rel")) o->time_base = TIME_REL;
		else if (!strcmp(arg, "mono")) o->time_base = TIME_MONO;
		else if (!strcmp(arg, "wall")) o->time_base = TIME_WALL;
		else return usage_error("--time wants rel, mono or wall, not '%s'", arg);
		return 0;
	case OPT_COLUMNS:
		return cli_parse_columns(arg, o);
	case OPT_DISKS: {
		char err[200];
		if (disk_filter_parse(&o->disk_filter, arg, err, sizeof(err)))
			return usage_error("%s", err);
		o->disks_list = arg;
		return 0;
	}
	}
	return CLI_NOT_MINE;
}

/* The benchmark and its recording (run, sweep, attach). */
static int cli_take_runs(int c, const char *arg, struct iodash_opts *o)
{
	long l;

	switch (c) {
	case 'l': return cli_take_label(arg, o);
	case 'o': o->output = arg; return 0;
	case 'p': return cli_take_param(arg, o);
	case OPT_NO_RECORD: o->no_record = true; return 0;
	case OPT_FORCE: o->force = true; return 0;
	case OPT_PARSER: return cli_take_parser(arg, o);
	case OPT_LOG: o->log = arg; return 0;
	case OPT_REPEAT:
		if (parse_long(arg, 1, 100000, &l))
			return usage_error("--repeat wants a whole number >= 1, not '%s'", arg);
		o->repeat = (int)l;
		return 0;
	case OPT_BETWEEN: o->between = arg; return 0;
	case OPT_STOP_ON_FAIL: o->stop_on_fail = true; return 0;
	case OPT_UNTIL_DECIDED: o->until_decided = true; return 0;
	case OPT_MIN_REPEAT:
	case OPT_MAX_REPEAT:
		if (parse_long(arg, 2, 256, &l))
			return usage_error("%s wants a whole number 2..256, not '%s'",
					   c == OPT_MIN_REPEAT ? "--min-repeat" : "--max-repeat", arg);
		*(c == OPT_MIN_REPEAT ? &o->min_repeat : &o->max_repeat) = (int)l;
		o->decide_opts = true;
		return 0;
	case OPT_BUDGET:
		o->decide_opts = true;
		if (parse_duration(arg, &o->budget_s))
			return usage_error("--budget wants a duration (3600, 90m, 2h, 1h30m), not '%s'", arg);
		return 0;
	case OPT_CI:
	case OPT_MIN_CHANGE:
		o->decide_opts = true;
		if (parse_double(arg, 0.01, 100, c == OPT_CI ? &o->ci_pct : &o->min_change_pct))
			return usage_error("%s wants a percentage 0.01..100, not '%s'",
					   c == OPT_CI ? "--ci" : "--min-change", arg);
		return 0;
	case OPT_SYSCTL:
		if (o->nsysctls == CLI_MAX_SYSCTLS)
			return usage_error("at most %d --sysctl options (got another: '%s')", CLI_MAX_SYSCTLS, arg);
		if (!strchr(arg, '=') || arg[0] == '=')
			return usage_error("--sysctl wants KEY=VALUE (e.g. vm.dirty_ratio=20), not '%s'", arg);
		o->sysctls[o->nsysctls++] = arg;
		return 0;
	case OPT_CONFIG: return 0;   /* read before the options: cli_apply_config */
	case OPT_RECORD_DIR:
		if (!*arg)
			return usage_error("%s wants a directory", "--record-dir");
		o->record_dir = arg;
		return 0;
	}
	return CLI_NOT_MINE;
}

/* What view, compare, export and report read and write. */
static int cli_take_files(int c, const char *arg, struct iodash_opts *o)
{
	switch (c) {
	case OPT_PCP: o->pcp_archive = arg; return 0;
	case OPT_TEXT: o->format = FMT_TEXT; return 0;
	case OPT_CSV: o->format = FMT_CSV; return 0;
	case OPT_JSON: o->format = FMT_JSON; return 0;
	case OPT_NDJSON: o->format = FMT_NDJSON; return 0;
	case OPT_TABLE:
		if (!strcmp(arg, "samples")) o->table = EXPORT_SAMPLES;
		else if (!strcmp(arg, "events")) o->table = EXPORT_EVENTS;
		else if (!strcmp(arg, "results")) o->table = EXPORT_RESULTS;
		else return usage_error("--table wants samples, events or results, not '%s'", arg);
		o->table_set = true;
		return 0;
	case OPT_BASELINE: o->baseline = arg; return 0;
	case OPT_METRIC: o->metric = arg; return 0;
	case OPT_LOG2X: o->log2x = true; return 0;
	case OPT_SVG: o->svg = arg; return 0;
	case OPT_TITLE: o->title = arg; return 0;
	case OPT_EXPLAIN: o->explain = true; return 0;
	case OPT_FOLLOW: o->follow = true; return 0;
	}
	return CLI_NOT_MINE;
}

/* One option.  Returns 0, 1 (help/version printed) or 2 (usage error). */
static int cli_take(int c, const char *arg, struct iodash_opts *o)
{
	static int (*const takers[])(int, const char *, struct iodash_opts *) = {
		cli_take_sampling, cli_take_display, cli_take_runs, cli_take_files,
	};
	int rc;

	for (size_t i = 0; i < sizeof(takers) / sizeof(takers[0]); i++)
		if ((rc = takers[i](c, arg, o)) != CLI_NOT_MINE)
			return rc;
	switch (c) {
	case OPT_HELP:
		cli_usage(stdout, cli_cmds, cli_ncmds);
		return 1;
	case OPT_VERSION:
		printf("iodash %s\n", IODASH_VERSION);
		return 1;
	case ':':
		return usage_error("option %s needs a value", arg);
	default:
		return usage_error("unknown option '%s'", arg);
	}
}

/* getopt_long over argv[0..argc); `stop_at_word` keeps the order and stops
 * at the first non-option (for the benchmark's argv). */
static int cli_scan(int argc, char **argv, bool stop_at_word, struct iodash_opts *o, int *next)
{
	const char *spec = stop_at_word ? "+:i:r:l:o:p:h" : ":i:r:l:o:p:h";
	int c, rc;

	optind = 0;   /* glibc: full re-initialisation for the second scan */
	opterr = 0;
	while ((c = getopt_long(argc, argv, spec, long_opts, NULL)) != -1) {
		const char *arg = optarg;
		if (c == 'h')
			c = OPT_HELP;
		if (c == '?' || c == ':')
			arg = argv[optind - 1];
		if ((rc = cli_take(c, arg, o)))
			return rc;
	}
	*next = optind;
	return 0;
}

static int cli_check_columns(const struct iodash_opts *o)
{
	if (o->ndisk_cols && !o->batch)
		return usage_error("--columns picks what --batch prints: add --batch (%s)",
				   "the screen's disk table shows what fits");
	if (o->batch_events && !o->batch)
		return usage_error("--batch-events %s takes --batch's !, = and > lines: add --batch", o->batch_events);
	return 0;
}

/* Options that belong to one command. */
static int cli_check_command_options(const struct iodash_opts *o)
{
	if (o->pcp_archive && o->cmd != CMD_EXPORT)
		return usage_error("--pcp is export's: iodash export --pcp %s REC", o->pcp_archive);
	if (o->pcp_archive && (o->format != FMT_NONE || o->table_set))
		return usage_error("export writes one format: --pcp %s or --csv/--json", o->pcp_archive);
	if (o->hosts_file && o->cmd != CMD_FLEET)
		return usage_error("--hosts is fleet's: iodash fleet --hosts %s", o->hosts_file);
	return 0;
}

/* Throttling options that cannot go together (live and every command). */
static int cli_check_trace(const struct iodash_opts *o)
{
	if (o->no_trace && o->trace_throttle)
		return usage_error("%s", "--no-trace and --trace-throttle contradict each other: keep one");
	return 0;
}

/* --host reads another machine: what sets or reads this one's kernel
 * cannot go with it, and it must name a host. */
static int cli_check_host(const struct iodash_opts *o)
{
	if (!o->host[0] || o->host[0] == ':' || o->host[strlen(o->host) - 1] == ':')
		return usage_error("--host wants HOST or HOST:PORT, e.g. --host lab3 or --host lab3:44321 (got '%s')",
				   o->host);
	if (o->cmd == CMD_VIEW || o->cmd == CMD_COMPARE || o->cmd == CMD_EXPORT || o->cmd == CMD_REPORT ||
	    o->cmd == CMD_RESTORE)
		return usage_error("--host is for the commands that sample (live, run, sweep, attach), not '%s'",
				   o->cmd == CMD_VIEW ? "view" : o->cmd == CMD_COMPARE ? "compare" :
				   o->cmd == CMD_EXPORT ? "export" : o->cmd == CMD_REPORT ? "report" : "restore");
	if (o->proc_root)
		return usage_error("--host and --proc-root are two sources: give one (%s)", o->host);
	if (o->nsysctls)
		return usage_error("--sysctl sets this machine's knobs, not %s's: drop it or run iodash there",
				   o->host);
	if (o->trace_throttle)
		return usage_error("--trace-throttle reads this machine's tracefs, not %s's: drop it or run iodash there",
				   o->host);
	return 0;
}

/* The config file's defaults, before the options so that these win:
 * --config FILE (anywhere before `--`), else the default path when it
 * exists.  Each value goes through cli_take as its option would.  0 or 2. */
static int cli_apply_config(int argc, char **argv, struct iodash_opts *o)
{
	static struct config cfg;   /* o->theme and o->record_dir point into it */
	const char *path = NULL;
	char def[1024], err[1300];
	int rc;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--config")) {
			if (i + 1 >= argc)
				return usage_error("option %s needs a value", "--config");
			path = argv[i + 1];
		} else if (!strncmp(argv[i], "--config=", 9)) {
			path = argv[i] + 9;
		}
	}
	o->config = path;
	if (!path) {
		struct stat st;
		/* no file of one's own, or none this user can see (HOME of
		 * another user, as under setpriv or sudo): the built-in defaults */
		if (!*(path = config_default_path(def, sizeof(def))) || stat(path, &st))
			return 0;
	}
	rc = config_load(path, &cfg, err, sizeof(err));
	if (rc)
		return usage_error("%s%s", err, o->config ? "" : " (or give --config FILE)");
	for (size_t i = 0; i < cfg.n; i++) {
		const struct option *lo;
		for (lo = long_opts; lo->name && strcmp(lo->name, cfg.v[i].option + 2); lo++)
			;
		snprintf(cli_context, sizeof(cli_context), "%s:%d: %s: ", path, cfg.v[i].line, cfg.v[i].key);
		rc = lo->name ? cli_take(lo->val, cfg.v[i].value, o) : 2;
		cli_context[0] = '\0';
		if (rc)
			return 2;
	}
	/* the file's refresh is the screens': --batch prints every sample
	 * unless -r says otherwise on the command line */
	o->refresh_set = false;
	return 0;
}

/* The command word at argv[next]: *cmd, or 2 after saying the known ones. */
static int cli_find_command(const char *word, const struct cmd_struct *cmds, size_t ncmds, enum iodash_cmd *cmd)
{
	char names[160] = "";

	for (size_t i = 0; i < ncmds; i++)
		if (!strcmp(word, cmds[i].name)) {
			*cmd = cmds[i].cmd;
			return 0;
		}
	for (size_t k = 0, off = 0; k < ncmds && off < sizeof(names); k++)
		if (cmds[k].cmd != CMD_LIVE)
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", off ? ", " : "", cmds[k].name);
	return usage_error("unknown command '%s' (%s)", word, names);
}

/* The arguments each command takes (and what it cannot go without). */
static int cli_check_arguments(struct iodash_opts *o)
{
	long pid;

	switch (o->cmd) {
	case CMD_LIVE:
		if (o->nargs)
			return usage_error("the live dashboard takes no arguments ('%s')", o->args[0]);
		break;
	case CMD_RUN:
		if (!o->nargs)
			return usage_error("%s: which benchmark? e.g. iodash run -- dbench -t 30 4", "run");
		break;
	case CMD_SWEEP:
		if (!o->nargs)
			return usage_error("%s: which benchmark? e.g. iodash sweep -p clients=1,2,4 -- dbench -t 30 {clients}", "sweep");
		/* a sweep's -p is its parameter: a word without '=' is a typo
		 * there, not a disk (that is --partitions) */
		if (o->p_partitions)
			return usage_error("-p wants NAME=V1,V2,..., not '%s' (a sweep's partitions: "
					   "--partitions)", o->p_partitions);
		if (!o->nparams)
			return usage_error("%s: needs at least one -p NAME=V1,V2,...", "sweep");
		break;
	case CMD_ATTACH:
		if (o->nargs != 1 || parse_long(o->args[0], 1, 1L << 30, &pid))
			return usage_error("%s: wants one PID, e.g. iodash attach $(pgrep -o dbench)", "attach");
		o->pid = (pid_t)pid;
		break;
	case CMD_VIEW:
	case CMD_COMPARE:
		if (!o->nargs)
			return usage_error("%s: which files?", o->cmd == CMD_VIEW ? "view" : "compare");
		break;
	case CMD_EXPORT:
		if (o->nargs != 1)
			return usage_error("%s: wants one recording", "export");
		break;
	case CMD_REPORT:
		if (!o->nargs)
			return usage_error("%s: which files? e.g. iodash report -o report.html a.rec b.rec", "report");
		if (!o->output)
			return usage_error("%s: where to? give -o FILE.html ('-' for stdout)", "report");
		break;
	case CMD_RESTORE:
		if (o->nargs)
			return usage_error("%s takes no arguments ('%s')", "restore", o->args[0]);
		break;
	case CMD_FLEET:
		if (!o->nargs && !o->hosts_file)
			return usage_error("%s: which hosts? e.g. iodash fleet lab1 lab2:44321, or --hosts FILE", "fleet");
		if (o->host)
			return usage_error("%s reads the hosts it is given, not --host (%s)", "fleet", o->host);
		if (o->output || o->proc_root || o->nsysctls)
			return usage_error("%s only watches: -o, --proc-root and --sysctl are for the commands that sample here",
					   "fleet");
		break;
	}
	return 0;
}

/* The options that belong to some commands only, given to another. */
static int cli_check_options_of(const struct iodash_opts *o)
{
	if (o->nsysctls && o->cmd != CMD_RUN && o->cmd != CMD_SWEEP)
		return usage_error("--sysctl is for run and sweep (%s)", o->sysctls[0]);
	if (o->batch_events && o->cmd != CMD_LIVE && o->cmd != CMD_RUN && o->cmd != CMD_SWEEP &&
	    o->cmd != CMD_ATTACH && o->cmd != CMD_VIEW)
		return usage_error("--batch-events is for --batch sessions (live, run, sweep, attach, view), not %s",
				   o->batch_events);
	if (o->format == FMT_NDJSON && o->cmd != CMD_EXPORT)
		return usage_error("%s is export's (a recording's table, one JSON object a line); compare has --json",
				   "--ndjson");
	if (o->table_set && o->cmd != CMD_EXPORT)
		return usage_error("%s is export's", "--table");
	if (o->table_set && o->format == FMT_JSON)
		return usage_error("--table picks the table of --csv or --ndjson; %s",
				   "--json writes one document with every table");
	if ((o->until_decided || o->decide_opts) && o->cmd != CMD_SWEEP)
		return usage_error("--until-decided and its options are sweep's (%s)", "iodash sweep --until-decided ...");
	if (o->decide_opts && !o->until_decided)
		return usage_error("--min-repeat, --max-repeat, --budget, --ci and --min-change go with %s",
				   "--until-decided");
	if (o->until_decided && o->repeat > 1)
		return usage_error("--repeat %d and --until-decided: the decision sets the runs (--min-repeat, --max-repeat)",
				   o->repeat);
	if (o->until_decided && o->min_repeat > o->max_repeat)
		return usage_error("--min-repeat %d is more than --max-repeat %d", o->min_repeat, o->max_repeat);
	if (o->cmd == CMD_SWEEP && (o->baseline || o->metric) && !o->until_decided)
		return usage_error("sweep takes --baseline REC and --metric with %s", "--until-decided");
	if (o->svg && o->cmd != CMD_COMPARE)
		return usage_error("--svg is compare's (%s): the report draws every metric itself", o->svg);
	if (o->title && o->cmd != CMD_REPORT)
		return usage_error("--title is the report's (%s)", o->title);
	if (o->fast && !o->proc_root && o->cmd != CMD_VIEW)
		return usage_error("%s only replays a trace or an archive: give --proc-root TRACE too, or view ARCHIVE",
				   "--fast");
	return 0;
}

/* The live dashboard without a command word: the checks that concern it. */
static int cli_check_live(const struct iodash_opts *o)
{
	int rc;

	if ((rc = cli_check_command_options(o)))
		return rc;
	if (o->host && (rc = cli_check_host(o)))
		return rc;
	if ((rc = cli_check_columns(o)))
		return rc;
	return cli_check_trace(o);
}

int cli_parse(int argc, char **argv, const struct cmd_struct *cmds, size_t ncmds,
	      struct iodash_opts *o)
{
	int rc, next;

	cli_cmds = cmds;
	cli_ncmds = ncmds;
	memset(o, 0, sizeof(*o));
	o->cmd = CMD_LIVE;
	o->interval = 0.5;
	o->refresh = 1.0;
	o->repeat = 1;
	o->min_repeat = 3;
	o->max_repeat = 20;
	o->ci_pct = 2;
	o->min_change_pct = 5;
	if ((rc = cli_apply_config(argc, argv, o)))
		return rc;

	/* global options, up to the subcommand */
	if ((rc = cli_scan(argc, argv, true, o, &next)))
		return rc;
	if (next >= argc)
		return cli_check_live(o);
	if (next > 0 && !strcmp(argv[next - 1], "--"))
		return usage_error("'--' wants a subcommand before it (%s)", "iodash run -- CMD");
	if ((rc = cli_find_command(argv[next], cmds, ncmds, &o->cmd)))
		return rc;

	/* the subcommand's own options; argv[next] plays argv[0] */
	int sub_argc = argc - next;
	char **sub_argv = argv + next;
	bool keep_order = o->cmd == CMD_RUN || o->cmd == CMD_SWEEP;
	if ((rc = cli_scan(sub_argc, sub_argv, keep_order, o, &next)))
		return rc;
	o->args = sub_argv + next;
	o->nargs = sub_argc - next;

	if ((rc = cli_check_arguments(o)) || (rc = cli_check_command_options(o)) || (rc = cli_check_columns(o)) ||
	    (rc = cli_check_trace(o)) || (rc = cli_check_options_of(o)))
		return rc;
	if (o->host && (rc = cli_check_host(o)))
		return rc;
	return 0;
}
