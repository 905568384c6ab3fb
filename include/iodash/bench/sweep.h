/* bench_sweep: the runs of `iodash sweep`.  -p NAME=V1,V2,... (several -p
 * make a grid: the first -p varies slowest), {NAME} substituted in each
 * argv word and in --between, never through a shell.  --repeat N makes N
 * passes over the whole grid (pass k is run number k of every point, so a
 * slow drift of the machine spreads over all points alike).
 *
 * The x of a run's result points is the last -p (the one that varies
 * fastest); the other parameters go into the run label as "NAME=V", so
 * `-p bs=4k,64k -p clients=1,2,4` gives two curves over clients.
 *
 * --between is a shell command line (sh -c): there each {NAME} becomes the
 * value as one shell word (quoted when it holds anything a shell would
 * read).  The values are also in the environment of the benchmark and
 * the between command as IODASH_P_NAME.  A run's between command is run
 * just before that run, with its values.
 *
 * A parameter may bind several names to paired values: `-p bg,r=5:10,20:40`
 * is two points, {bg}=5 with {r}=10 and {bg}=20 with {r}=40 (not a grid;
 * two -p are still the grid).  Its last name is the x.
 *
 * --sysctl KEY=VALUE (knobs.h) is substituted like an argv word, once per
 * run, so a knob may be a swept parameter or fixed for the whole sweep. */
#ifndef IODASH_BENCH_SWEEP_H
#define IODASH_BENCH_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include "iodash/parsers/result_set.h"
#include "iodash/results/decide.h"

#define SWEEP_MAX_PARAMS 8
#define SWEEP_MAX_VALUES 1024
#define SWEEP_MAX_RUNS 100000
#define SWEEP_ENV_PREFIX "IODASH_P_"
#define SWEEP_MAX_NAMES 4       /* names bound by one paired -p */
#define SWEEP_MAX_SYSCTLS 16

struct sweep_param {
	char name[RP_NAME_LEN];     /* as written: "clients", or "bg,r" */
	char names[SWEEP_MAX_NAMES][RP_NAME_LEN];
	int nnames;                 /* 1, or the names of a paired -p */
	char **values;              /* as written: "4", or "5:10" */
	int nvalues;
};

struct sweep_run {
	char **argv;                /* NULL-terminated, substituted */
	char *between;              /* substituted --between (values quoted), or NULL */
	char **env;                 /* "IODASH_P_NAME=value" per -p, NULL-terminated:
				     * for the benchmark and --between */
	char *sysctls[SWEEP_MAX_SYSCTLS + 1];  /* substituted KEY=VALUE, NULL-terminated */
	char label_extra[RP_LABEL_LEN];  /* "bs=4k" for the other grid params, or "" */
	char x_name[RP_NAME_LEN];
	double x;
	char x_text[RP_LABEL_LEN];  /* the value as written */
	int pass;                   /* 0-based repeat pass = run number of the point */
	int point;                  /* 0-based grid point */
};

struct sweep_plan {
	struct sweep_param params[SWEEP_MAX_PARAMS];
	int nparams;
	int repeat;
	struct sweep_run *runs;
	int nruns;
};

/* Builds all runs.  0, or -EINVAL with err saying what is wrong with which
 * -p (usage error), or -ENOMEM. */
int sweep_plan_build(struct sweep_plan *p, const char *const *params, int nparams,
		     char *const *argv, int nargs, const char *between, int repeat,
		     char *err, size_t errlen);
/* The same with --sysctl KEY=VALUE specs, substituted per run like argv
 * words ({NAME} in a KEY is refused: the knobs are journaled up front). */
int sweep_plan_build_knobs(struct sweep_plan *p, const char *const *params, int nparams,
			   char *const *argv, int nargs, const char *between,
			   const char *const *sysctls, int nsysctls, int repeat,
			   char *err, size_t errlen);
void sweep_plan_free(struct sweep_plan *p);

/* ETA from the durations of the runs done so far and the time the current
 * run has already taken: mean * remaining - elapsed of the current run.
 * < 0 when no run has finished yet. */
double sweep_eta(const double *durations, int ndone, int total, double current_elapsed);

/* ---- sweep --until-decided ------------------------------------------------
 *
 * The plan is built with max_repeat passes; the decider picks which of its
 * runs comes next (decide_pick_next) and moves it to the place of the run
 * number about to start, so the driver runs the plan in order and the run
 * order is the order of the run_start events.  A failed run (no value of
 * the metric, or not exit 0) takes its pass and is retried once at once;
 * a point that fails twice in a row is "failed" and gets no more runs.
 * After each run the point's state is one line for a MEV_DECISION event
 * (decide_event_format); outliers and drift are notes; nothing is dropped. */
#define SWEEP_DECIDE_LINES 8
#define SWEEP_DECIDE_LINE_LEN 256

struct sweep_decide_config {
	bool on;                       /* --until-decided */
	struct decide_config dc;
	double budget_s;               /* --budget, 0 none */
	const char *metric;            /* --metric, NULL: the first final metric a run gives */
	const struct result_set *baseline;  /* --baseline REC's points, NULL none */
	const char *baseline_name;     /* its file, for the lines */
	const char *baseline_param;    /* --baseline NAME=VALUE: in the sweep itself, each
					* point against the point with -p NAME at VALUE
					* and the other values alike (two --sysctl settings) */
};

struct sweep_decide_point {
	struct decide_arm arm, base;
	struct decide_seq seq;
	struct decide_verdict v;
	double *values;                /* max_repeat */
	int *value_run;                /* the run (pass, 1-based) each value came from */
	bool *outlier_said;            /* a note named it */
	int passes;                    /* plan passes taken (failed runs too) */
	int failed, fails_in_row;
	bool done, base_built, drift_said, open_said;
	int ref;                       /* --baseline NAME=VALUE: the point compared with, -1 none */
	bool is_ref;                   /* a baseline point of others */
	char setting[RP_LABEL_LEN];
};

struct sweep_decider {
	struct sweep_plan *plan;
	struct sweep_decide_config cfg;
	int npoints;
	struct sweep_decide_point *pts;
	char metric[RP_NAME_LEN];
	int cur, last;                 /* the point of the run in progress, of the one before */
	bool got_value;
	double value;                  /* in unit: the mean of the run's values of the metric under one label */
	double value_sum;              /* ... their sum and count (a fio job's clones give one each) */
	int value_n;
	char value_label[RP_LABEL_LEN];
	/* the unit of the first run's value: later runs' (and the baseline's)
	 * are converted into it (fio prints 950MiB/s, then 1.20GiB/s); a
	 * value whose unit does not convert is no value, and refused says it */
	bool have_unit;
	char unit[RP_UNIT_LEN];
	char refused[RP_UNIT_LEN];
	bool budget_spent;
};

/* p must have been built with cfg->dc.max_repeat passes.  0 or -errno. */
int sweep_decider_init(struct sweep_decider *d, struct sweep_plan *p, const struct sweep_decide_config *cfg,
		       char *err, size_t errlen);
void sweep_decider_free(struct sweep_decider *d);
/* The point of run number seq (0-based), its plan entry moved to
 * p->runs[seq]; -1 when every point is done (or the budget would be
 * overrun: elapsed_s of the sweep and mean_run_s, the mean run so far,
 * < 0 unknown).  A line for a note goes to note (may stay ""). */
int sweep_decider_next(struct sweep_decider *d, int seq, double elapsed_s, double mean_run_s,
		       char *note, size_t notelen);
/* A result point of the run in progress (the first final point of the
 * metric is its value). */
void sweep_decider_result(struct sweep_decider *d, const struct result_point *p);
/* The run in progress ended (ok: exit 0).  Fills up to SWEEP_DECIDE_LINES
 * lines; kinds[i] is true for a decision line, false for a note.  Returns
 * how many. */
int sweep_decider_end(struct sweep_decider *d, bool ok, char lines[][SWEEP_DECIDE_LINE_LEN], bool *kinds);
/* The runs still expected: every open point's decide_runs_left. */
int sweep_decider_runs_left(const struct sweep_decider *d);
/* The closing lines: how many points ended in each state and the run
 * order (points in the order they ran).  Returns how many (<= 2). */
int sweep_decider_summary(const struct sweep_decider *d, char lines[][SWEEP_DECIDE_LINE_LEN]);
#endif
