/* cli: DESIGN.md's command line.  Options may stand before or after the
 * subcommand; for run and sweep, everything after `--` (or after the first
 * word that is not an option) is the benchmark's own argv, untouched. */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/cli.h"
#include "iodash/parser.h"

enum {
	OPT_THEME = 256, OPT_ASCII, OPT_MONO, OPT_NO_BRAILLE, OPT_BATCH, OPT_COUNT,
	OPT_DURATION, OPT_PROC_ROOT, OPT_FAST, OPT_NO_RECORD, OPT_PARSER, OPT_LOG,
	OPT_REPEAT, OPT_BETWEEN, OPT_STOP_ON_FAIL, OPT_TRACE_THROTTLE, OPT_TEXT,
	OPT_CSV, OPT_JSON, OPT_BASELINE, OPT_METRIC, OPT_LOG2X, OPT_FOLLOW, OPT_EXPLAIN,
	OPT_HELP, OPT_VERSION,
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
	{ "fast", no_argument, NULL, OPT_FAST },
	{ "no-record", no_argument, NULL, OPT_NO_RECORD },
	{ "parser", required_argument, NULL, OPT_PARSER },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "between", required_argument, NULL, OPT_BETWEEN },
	{ "stop-on-fail", no_argument, NULL, OPT_STOP_ON_FAIL },
	{ "trace-throttle", no_argument, NULL, OPT_TRACE_THROTTLE },
	{ "text", no_argument, NULL, OPT_TEXT },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "log2x", no_argument, NULL, OPT_LOG2X },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "follow", no_argument, NULL, OPT_FOLLOW },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static const struct { const char *name; enum iodash_cmd cmd; } commands[] = {
	{ "run", CMD_RUN }, { "sweep", CMD_SWEEP }, { "attach", CMD_ATTACH },
	{ "view", CMD_VIEW }, { "compare", CMD_COMPARE }, { "export", CMD_EXPORT },
	{ "live", CMD_LIVE },
};

void cli_usage(FILE *f)
{
	fputs("usage:\n"
	      "  iodash [OPTIONS]                                   live dashboard of this machine\n"
	      "  iodash run   [-l LABEL] [-o REC] -- CMD [ARG...]   spawn one benchmark\n"
	      "  iodash sweep [-l LABEL] [-o REC] -p NAME=V1,V2,... [--repeat N] [--between CMD]\n"
	      "               [--stop-on-fail] -- CMD ... {NAME} ...  one run per value\n"
	      "  iodash attach [-l LABEL] [-o REC] [--log FILE] PID  watch a running benchmark\n"
	      "  iodash view  REC...                                 replay recordings\n"
	      "  iodash compare [--text|--csv|--json] [--baseline LABEL] [--metric NAME] SRC...\n"
	      "  iodash export [--csv|--json] REC                    samples, events, results\n"
	      "\n"
	      "sampling options (live, run, sweep, attach):\n"
	      "  -i, --interval SEC    sampling interval, 0.01..60 (default 0.5)\n"
	      "  -r, --refresh SEC     screen refresh (default 1; --batch: every sample)\n"
	      "      --count N         stop after N samples\n"
	      "      --duration SEC    stop after SEC seconds\n"
	      "      --proc-root DIR   read counters from DIR (a /proc-like directory or a\n"
	      "                        recorded trace, replayed at its pace)\n"
	      "      --fast            replay a trace as fast as possible\n"
	      "      --batch           no curses: one plain line per refresh on stdout\n"
	      "      --theme NAME|PATH, --ascii, --mono, --no-braille   display\n"
	      "      --parser NAME     parser of the benchmark's output (default: from CMD;\n"
	      "                        compare: of every text SRC, default guessed)\n"
	      "      --no-record       run/sweep: do not write the default recording\n"
	      "      --trace-throttle  count balance_dirty_pages pauses via tracefs (root)\n"
	      "  -h, --help, --version\n"
	      "\n"
	      "sweep: --repeat N (runs per point), --between CMD (run between runs, e.g.\n"
	      "       'sync; echo 3 > /proc/sys/vm/drop_caches'), --stop-on-fail\n"
	      "compare: --text|--csv|--json (the table, no curses), --baseline LABEL,\n"
	      "       --metric NAME, --log2x (x axis; default log2 when x spans octaves),\n"
	      "       --explain (how each table of a text source was read, on stderr)\n"
	      "view --batch --follow: keep printing as the recording grows\n"
	      "\n"
	      "exit status: 0 success, 1 runtime failure, 2 usage error.  See man ./iodash.1\n", f);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("iodash: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("; see iodash --help\n", stderr);
	return 2;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v >= lo && v <= hi))
		return -1;
	*out = v;
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

/* One option.  Returns 0, 1 (help/version printed) or 2 (usage error). */
static int cli_take(int c, const char *arg, struct iodash_opts *o)
{
	long l;

	switch (c) {
	case 'i':
		if (parse_double(arg, 0.01, 60, &o->interval))
			return usage_error("-i wants seconds from 0.01 to 60, not '%s'", arg);
		break;
	case 'r':
		if (parse_double(arg, 0.01, 3600, &o->refresh))
			return usage_error("-r wants seconds from 0.01 to 3600, not '%s'", arg);
		o->refresh_set = true;
		break;
	case 'l': o->label = arg; break;
	case 'o': o->output = arg; break;
	case 'p':
		if (o->nparams == CLI_MAX_PARAMS)
			return usage_error("at most 8 -p parameters (got another: '%s')", arg);
		if (!strchr(arg, '=') || arg[0] == '=')
			return usage_error("-p wants NAME=V1,V2,..., not '%s'", arg);
		o->params[o->nparams++] = arg;
		break;
	case OPT_THEME: o->theme = arg; break;
	case OPT_ASCII: o->ascii = true; break;
	case OPT_MONO: o->mono = true; break;
	case OPT_NO_BRAILLE: o->no_braille = true; break;
	case OPT_BATCH: o->batch = true; break;
	case OPT_COUNT:
		if (parse_long(arg, 1, 1L << 40, &o->count))
			return usage_error("--count wants a whole number > 0, not '%s'", arg);
		break;
	case OPT_DURATION:
		if (parse_double(arg, 0.001, 1e9, &o->duration))
			return usage_error("--duration wants seconds > 0, not '%s'", arg);
		break;
	case OPT_PROC_ROOT: o->proc_root = arg; break;
	case OPT_FAST: o->fast = true; break;
	case OPT_NO_RECORD: o->no_record = true; break;
	case OPT_PARSER:
		for (int i = 0; parser_names[i]; i++)
			if (!strcmp(parser_names[i], arg)) {
				o->parser = arg;
				return 0;
			}
		return usage_error("unknown --parser '%s' (dbench, fio, iozone, bonnie, sysbench, mail, auto)", arg);
	case OPT_LOG: o->log = arg; break;
	case OPT_REPEAT:
		if (parse_long(arg, 1, 100000, &l))
			return usage_error("--repeat wants a whole number >= 1, not '%s'", arg);
		o->repeat = (int)l;
		break;
	case OPT_BETWEEN: o->between = arg; break;
	case OPT_STOP_ON_FAIL: o->stop_on_fail = true; break;
	case OPT_TRACE_THROTTLE: o->trace_throttle = true; break;
	case OPT_TEXT: o->format = FMT_TEXT; break;
	case OPT_CSV: o->format = FMT_CSV; break;
	case OPT_JSON: o->format = FMT_JSON; break;
	case OPT_BASELINE: o->baseline = arg; break;
	case OPT_METRIC: o->metric = arg; break;
	case OPT_LOG2X: o->log2x = true; break;
	case OPT_EXPLAIN: o->explain = true; break;
	case OPT_FOLLOW: o->follow = true; break;
	case OPT_HELP:
		cli_usage(stdout);
		return 1;
	case OPT_VERSION:
		printf("iodash %s\n", IODASH_VERSION);
		return 1;
	case ':':
		return usage_error("option %s needs a value", arg);
	default:
		return usage_error("unknown option '%s'", arg);
	}
	return 0;
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

int cli_parse(int argc, char **argv, struct iodash_opts *o)
{
	int rc, next;

	memset(o, 0, sizeof(*o));
	o->cmd = CMD_LIVE;
	o->interval = 0.5;
	o->refresh = 1.0;
	o->repeat = 1;

	/* global options, up to the subcommand */
	if ((rc = cli_scan(argc, argv, true, o, &next)))
		return rc;
	if (next >= argc)
		return 0;
	if (next > 0 && !strcmp(argv[next - 1], "--"))
		return usage_error("'--' wants a subcommand before it (%s)", "iodash run -- CMD");
	size_t i;
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[next], commands[i].name))
			break;
	if (i == sizeof(commands) / sizeof(commands[0]))
		return usage_error("unknown command '%s' (run, sweep, attach, view, compare, export)", argv[next]);
	o->cmd = commands[i].cmd;

	/* the subcommand's own options; argv[next] plays argv[0] */
	int sub_argc = argc - next;
	char **sub_argv = argv + next;
	bool keep_order = o->cmd == CMD_RUN || o->cmd == CMD_SWEEP;
	if ((rc = cli_scan(sub_argc, sub_argv, keep_order, o, &next)))
		return rc;
	o->args = sub_argv + next;
	o->nargs = sub_argc - next;

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
		if (!o->nparams)
			return usage_error("%s: needs at least one -p NAME=V1,V2,...", "sweep");
		break;
	case CMD_ATTACH: {
		long pid;
		if (o->nargs != 1 || parse_long(o->args[0], 1, 1L << 30, &pid))
			return usage_error("%s: wants one PID, e.g. iodash attach $(pgrep -o dbench)", "attach");
		o->pid = (pid_t)pid;
		break;
	}
	case CMD_VIEW:
	case CMD_COMPARE:
		if (!o->nargs)
			return usage_error("%s: which files?", o->cmd == CMD_VIEW ? "view" : "compare");
		break;
	case CMD_EXPORT:
		if (o->nargs != 1)
			return usage_error("%s: wants one recording", "export");
		break;
	}
	if (o->fast && !o->proc_root)
		return usage_error("%s only replays a trace: give --proc-root TRACE too", "--fast");
	return 0;
}
