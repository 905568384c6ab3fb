/* stats: runs grouped by label and setting, and the statistics kernel developers read
 * (mmtests style): mean, min, max, stddev, CoV, harmonic mean for rates,
 * change against a baseline with Welch's t-test.  Pure; no curses. */
#ifndef IODASH_STATS_H
#define IODASH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include "iodash/parsers/result_set.h"

struct curve_point {
	double x;
	int n;                 /* runs at this x */
	double mean, min, max, stddev, cov, hmean;
	bool have_change;      /* a baseline value exists at this x */
	double change_pct;     /* (mean - base_mean) / base_mean * 100 */
	bool significant;      /* Welch's t-test p < 0.05 (needs n >= 2 on both) */
	double p_value;        /* < 0 when not computed */
	unsigned tags;         /* bit t set when a point here had tag t (< 32): compare
	                        * passes each result's run verdict */
	double aux;            /* the mean of the points' aux values that are not NAN
	                        * (compare: the runs' cache inflation), NAN when none */
};

/* One label's curve of one metric under one setting: the mean of its
 * runs per x. */
struct curve {
	char label[RP_LABEL_LEN];
	char setting[RP_LABEL_LEN];   /* "" when the points name none */
	bool is_base;          /* the baseline of its setting's block: the others' change is
	                        * against it (the baseline label, else the block's first) */
	char metric[RP_NAME_LEN];
	char unit[RP_UNIT_LEN];
	char x_name[RP_NAME_LEN];
	int runs;              /* distinct run numbers seen */
	struct curve_point *pts;   /* x ascending */
	size_t n;
};

struct curve_set {
	struct curve *v;       /* one block per setting (settings in first-seen order), in a
	                        * block the labels in first-seen order; v[0] is the baseline
	                        * unless set */
	size_t n;
	char baseline[RP_LABEL_LEN];
};

/* Build the curves of one metric from final points (RP_FINAL, or points
 * without RP_PROGRESS): a curve per (setting, label), the change of each
 * against the baseline label of its own setting.  baseline NULL = first
 * label.  O(n log n) in the points.  0 or -errno. */
int stats_build_curves(const struct result_set *rs, const char *metric,
			 const char *baseline, struct curve_set *out);
/* The same, with a tag (< 32, else none) and an aux value (NAN none) per
 * point of rs (either may be NULL), folded into each curve point's tags
 * and aux; only the points rs->v[idx[0..nidx)] are looked at when idx is
 * not NULL (the metric's, found once for all metrics by the caller). */
int stats_build_curves_tagged(const struct result_set *rs, const size_t *idx, size_t nidx, const char *metric,
			      const char *baseline, const unsigned char *tags, const double *aux,
			      struct curve_set *out);
/* The end of the block of curves that starts at cs->v[first]: the index
 * after its last curve (the curves of one setting are adjacent). */
size_t stats_block_end(const struct curve_set *cs, size_t first);
/* The point of curve c at x (points are x ascending), NULL when none. */
const struct curve_point *stats_point_at(const struct curve *c, double x);
void curve_set_free(struct curve_set *cs);

/* The metrics present in rs (final points), in first-seen order; returns count. */
size_t stats_list_metrics(const struct result_set *rs, char names[][RP_NAME_LEN], size_t max);

/* The statistics underneath, exported for tests and the compare screen.
 * cov is stddev / mean in percent; stddev is the sample one (n - 1);
 * hmean is NAN unless every value is > 0. */

/* Regularized incomplete beta function I_x(a, b); NAN on bad arguments. */
double stats_incbeta(double a, double b, double x);
/* Two-sided p-value of Student's t with df (> 0, may be fractional) degrees. */
double stats_t_p2(double t, double df);
/* Welch's unequal-variances t-test from means, sample variances and counts:
 * the two-sided p, or -1 when it cannot be computed (n < 2, or no spread
 * on either side).  df_out (may be NULL) gets Welch-Satterthwaite's df. */
double stats_welch_p(double m1, double v1, int n1, double m2, double v2, int n2,
		       double *df_out);
/* Is this point one of the run's results (not a progress figure, not a
 * cut-short run, not a value too fast to measure)? */
bool stats_point_is_final(const struct result_point *p);

#endif
