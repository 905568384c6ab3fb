/* decide: when a sweep's point is known (`sweep --until-decided`).  Pure
 * maths, no curses, no I/O: the driver feeds each point's values and asks.
 *
 * Two kinds of answer (docs/decide.md says why these and what error each
 * keeps):
 *   precision   the 98 % t-interval of the point's mean is within
 *               +-ci_pct of the mean (98: stopping on the width of a
 *               95 % one held the mean only 91-95 % of the time);
 *   comparison  against a baseline at the same point: the repeated
 *               confidence interval of the change (group-sequential,
 *               Lan-DeMets alpha spending of Pocock type over the
 *               information fraction) excludes 0 ("different") or lies
 *               within +-min_change_pct ("equal").  Whatever the number of
 *               looks, the chance of a false "different" stays <= alpha.
 * A point that reaches max_repeat runs undecided stays "open". */
#ifndef IODASH_RESULTS_DECIDE_H
#define IODASH_RESULTS_DECIDE_H

#include <stdbool.h>
#include <stddef.h>
#include "iodash/parsers/result_set.h"

#define DECIDE_GRID 301        /* points of the density grid (odd: Simpson) */

struct decide_config {
	int min_repeat;            /* runs before any decision (>= 2) */
	int max_repeat;            /* runs after which a point stops undecided */
	double ci_pct;             /* precision: half-width of the mean's interval, % of the mean */
	double min_change_pct;     /* comparison: a change smaller than this does not matter */
	double alpha;              /* the false "different" rate kept, 0.05 */
};

/* The runs of one point (or of the baseline at it), accumulated. */
struct decide_arm {
	int n;
	double mean, m2;           /* Welford: m2 / (n - 1) is the variance */
	double first, last;        /* the first and the last run's value */
	double ssd;                /* sum of squared successive differences */
};

/* The group-sequential state of one comparison: the looks so far and
 * the sub-density of the score where no boundary was crossed. */
struct decide_seq {
	double alpha;
	int looks;
	double t_last;             /* information fraction of the last look */
	double spent;              /* alpha spent up to it */
	double z_last;             /* its boundary, on the z scale */
	double b_last;             /* the continuation region of the score: [-b, b] */
	double dens[DECIDE_GRID];  /* the score's sub-density on that region */
};

enum decide_state {
	DECIDE_UNDECIDED,          /* more runs wanted */
	DECIDE_PRECISE,            /* the mean is known within +-ci */
	DECIDE_DIFFERENT,          /* the change against the baseline is shown */
	DECIDE_EQUAL,              /* a change of min_change or more is ruled out */
	DECIDE_OPEN,               /* max_repeat reached (or the budget spent) undecided */
	DECIDE_FAILED,             /* the benchmark failed twice in a row here */
};

struct decide_verdict {
	enum decide_state state;
	int n;
	double mean;
	double half_pct;           /* the 98 % t-interval's half-width, % of the mean (NAN: n < 2) */
	bool compared;             /* the change below was computed */
	double change_pct;         /* (mean - base) / base, % */
	double change_half_pct;    /* the repeated interval's half-width, % of the base */
	double z_bound;            /* the look's boundary (z scale), NAN none */
	double df, se_pct;         /* Welch's df and the change's standard error (% of the base) */
};

void decide_arm_add(struct decide_arm *a, double v);
/* The sample variance, NAN when n < 2. */
double decide_arm_var(const struct decide_arm *a);

/* Phi^-1(p), 0 < p < 1. */
double decide_norm_quantile(double p);
/* The two-sided Student t quantile: q with P(|T_df| >= q) = p2. */
double decide_t_quantile2(double p2, double df);

/* Lan-DeMets spending of Pocock type: alpha * ln(1 + (e - 1) t). */
double decide_spend(double alpha, double t);
void decide_seq_init(struct decide_seq *s, double alpha);
/* The boundary (z scale, two-sided) of a look at information fraction t
 * (0 < t <= 1; clamped).  A look at no more information than the last
 * one gets the last one's boundary.  Exact recursive integration of the
 * score's density between the looks (Armitage, McPherson and Rowe), so
 * the looks need not be planned or evenly spaced. */
double decide_seq_look(struct decide_seq *s, double t);
/* The information fraction of a comparison with n runs against nb
 * baseline runs, when the most it can have is max_n against max_nb. */
double decide_info_fraction(int n, int nb, int max_n, int max_nb);

/* Precision only: state PRECISE, UNDECIDED or OPEN. */
void decide_precision(const struct decide_config *c, const struct decide_arm *a, struct decide_verdict *v);
/* The comparison of a (the point) against base at a look whose boundary is
 * z_bound (decide_seq_look): Welch's statistic, the z boundary's tail read on
 * Student's t with Welch's df.  State DIFFERENT, EQUAL, UNDECIDED or OPEN.
 * Needs a.n >= min_repeat and base.n >= 2 to decide. */
void decide_compare(const struct decide_config *c, const struct decide_arm *a, const struct decide_arm *base,
		    double z_bound, struct decide_verdict *v);

/* The half-widths of v (half_pct, change_half_pct) from a's values:
 * decide_compare leaves them NAN, since a simulation needs only the states. */
void decide_intervals(struct decide_verdict *v, const struct decide_arm *a);

/* What the scheduler knows of a point. */
struct decide_point {
	bool done;                 /* decided, open or failed: no more runs */
	int n;                     /* runs spent (the failed ones too) */
	double need;               /* how far from a decision: half-width / target (> 1
				    * undecided), INFINITY when not computable */
};
/* The point the next run goes to: below min_repeat the one with the fewest
 * runs (the first of them: the passes of a plain sweep); then the one
 * farthest from its decision; never `last` twice in a row while another
 * point is open (a drift of the machine then spreads over the points).
 * -1 when every point is done. */
int decide_pick_next(const struct decide_point *pts, int npts, int min_repeat, int last);
/* The runs still expected of a point: n * need^2 (the width falls as
 * 1/sqrt(n)), within max_repeat. */
int decide_runs_left(const struct decide_point *p, int max_repeat);

/* Outliers of a point's values: |v - median| > 3.5 robust sigmas
 * (1.4826 MAD), n >= 4.  Sets out[i]; returns how many. */
int decide_outliers(const double *v, int n, bool *out);
/* Did the machine drift under this point?  Its first and last runs
 * differ by more than the 95 % interval of a difference of two runs
 * (t * s * sqrt 2, s from successive differences, which a drift does
 * not widen). */
bool decide_drift(const struct decide_arm *a);

const char *decide_state_name(enum decide_state s);
/* "decided: +4.1 % +- 1.2", "equal within +-5 %", "precise: 812.3 +- 1.8 %",
 * "undecided: +-4.2 %", "open after 10 runs", "failed". */
void decide_describe(const struct decide_config *c, const struct decide_verdict *v, char *buf, size_t len);

/* A point's state as a recording keeps it (the text of a `decision`
 * event), one line:
 *
 *   clients=4: precise: 1014.2 +- 1.8 % (5 runs); state=precise x=4 runs=5
 *     values=5 failed=0 outliers=0 mean=1014.2 half=1.8 change=nan
 *     change_half=nan metric=throughput x_name=clients setting= label=dbench
 *
 * words for people before "; ", then key=value; setting= and label= come
 * last (a label may hold spaces). */
struct decide_event {
	char x_name[RP_NAME_LEN];
	char x_text[RP_LABEL_LEN];
	double x;
	enum decide_state state;
	char what[128];                /* decide_describe's words */
	int runs, values, failed, outliers;
	double mean, half, change, change_half;
	char metric[RP_NAME_LEN];
	char setting[RP_LABEL_LEN];
	char label[RP_LABEL_LEN];
};
void decide_event_format(const struct decide_event *e, char *buf, size_t len);
/* 0, or -EINVAL when line is not one. */
int decide_event_parse(const char *line, struct decide_event *e);

#endif
