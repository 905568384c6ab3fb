/* How long a benchmark runs, when its command line says so: what the
 * header's progress bar and ETA of a single run go by (a sweep has its
 * runs' durations).  Only the tools' own options; a job file's runtime
 * (fio) or a loadfile is not read. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/bench/runlen.h"
#include "iodash/base/util.h"

/* The value of option `name` in argv at i: "--name=V", "--name V" (or
 * "-n V" / "-nV" for a short one).  *i moves past a separate value. */
static const char *opt_value(char *const argv[], int *i, const char *name, const char *shrt)
{
	const char *a = argv[*i];
	size_t n = strlen(name);

	if (!strncmp(a, name, n)) {
		if (a[n] == '=')
			return a + n + 1;
		if (!a[n] && argv[*i + 1])
			return argv[++*i];
		return NULL;
	}
	if (shrt && !strncmp(a, shrt, strlen(shrt))) {
		if (a[strlen(shrt)])
			return a + strlen(shrt);
		if (argv[*i + 1])
			return argv[++*i];
	}
	return NULL;
}

/* fio's time values: a number with an optional unit, seconds by default. */
static bool fio_seconds(const char *s, double *out)
{
	static const struct { const char *u; double f; } units[] = {
		{ "us", 1e-6 }, { "usec", 1e-6 }, { "ms", 1e-3 }, { "msec", 1e-3 }, { "s", 1 },
		{ "sec", 1 }, { "m", 60 }, { "min", 60 }, { "h", 3600 }, { "hour", 3600 },
		{ "d", 86400 }, { "day", 86400 }, { "", 1 },
	};
	char *end;
	double v = strtod(s, &end);

	if (end == s || !isfinite(v) || v < 0)
		return false;
	for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++)
		if (!strcasecmp(end, units[k].u)) {
			*out = v * units[k].f;
			return true;
		}
	return false;
}

static bool plain_seconds(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !isfinite(v) || v < 0)
		return false;
	*out = v;
	return true;
}

int bench_run_length(char *const argv[], double *secs, bool *at_most)
{
	const char *tool;
	double t = 0, ramp = 0, v;
	bool have = false, time_based = false, events = false;

	if (!argv || !argv[0])
		return -ENOENT;
	tool = util_base_name(argv[0]);
	*at_most = false;
	for (int i = 1; argv[i]; i++) {
		const char *val;
		if (!strcmp(tool, "dbench")) {
			/* dbench 4: the warmup is part of -t */
			if ((val = opt_value(argv, &i, "--timelimit", "-t")) && plain_seconds(val, &v)) {
				t = v;
				have = true;
			}
		} else if (!strcmp(tool, "fio")) {
			if (!strcmp(argv[i], "--time_based") || !strcmp(argv[i], "--time_based=1"))
				time_based = true;
			else if ((val = opt_value(argv, &i, "--runtime", NULL)) && fio_seconds(val, &v)) {
				t = v;
				have = v > 0;
			} else if ((val = opt_value(argv, &i, "--ramp_time", NULL)) && fio_seconds(val, &v))
				ramp = v;
		} else if (!strcmp(tool, "sysbench")) {
			/* 1.0 --time, 0.4 --max-time; --events ends it sooner */
			if (((val = opt_value(argv, &i, "--time", NULL)) ||
			     (val = opt_value(argv, &i, "--max-time", NULL))) && plain_seconds(val, &v)) {
				t = v;
				have = v > 0;
			} else if ((val = opt_value(argv, &i, "--events", NULL)) ||
				   (val = opt_value(argv, &i, "--max-requests", NULL))) {
				events = strtol(val, NULL, 10) != 0;
			}
		} else {
			return -ENOENT;
		}
	}
	if (!have)
		return -ENOENT;
	if (!strcmp(tool, "fio")) {
		/* without time_based, fio stops at runtime or when its size is done */
		*at_most = !time_based;
		t += ramp;
	}
	if (!strcmp(tool, "sysbench"))
		*at_most = events;
	*secs = t;
	return 0;
}
