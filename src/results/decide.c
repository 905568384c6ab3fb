/* decide: the stopping rules of `sweep --until-decided` (decide.h).
 *
 * Why group-sequential boundaries and not a confidence sequence: a sweep
 * has a most it will spend at a point (--max-repeat), so the error can be
 * spent over a known horizon, and with 3 to 30 runs a point the
 * always-valid intervals (built for any horizon) are two to three times
 * wider at the runs a sweep can afford.  The spending is of Pocock's type
 * (it spends early, where stopping saves runs); the boundary of each look
 * comes from the score's exact density between the looks, so a look may
 * come whenever a run ends (a failed run, a baseline with fewer runs). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/results/decide.h"
#include "iodash/results/stats.h"

#define Z_MAX 8.0              /* a boundary that spends nothing */

void decide_arm_add(struct decide_arm *a, double v)
{
	double d = v - a->mean;

	if (!a->n)
		a->first = v;
	else
		a->ssd += (v - a->last) * (v - a->last);
	a->last = v;
	a->n++;
	a->mean += d / a->n;
	a->m2 += d * (v - a->mean);
}

double decide_arm_var(const struct decide_arm *a)
{
	return a->n < 2 ? NAN : fmax(0, a->m2 / (a->n - 1));
}

static double norm_cdf(double x)
{
	return 0.5 * erfc(-x / M_SQRT2);
}

static double norm_pdf(double x)
{
	return exp(-0.5 * x * x) / sqrt(2 * M_PI);
}

double decide_norm_quantile(double p)
{
	double lo = -40, hi = 40;

	if (!(p > 0 && p < 1))
		return p <= 0 ? -INFINITY : INFINITY;
	for (int i = 0; i < 200 && hi - lo > 1e-13; i++) {
		double mid = 0.5 * (lo + hi);
		if (norm_cdf(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

double decide_t_quantile2(double p2, double df)
{
	double lo = 0, hi = 1, q, lc;

	if (!(p2 > 0) || !(df > 0))
		return INFINITY;
	if (p2 >= 1)
		return 0;
	/* Newton from the normal quantile, which lies below: the tail is
	 * convex, so the steps climb to the root without passing it */
	q = decide_norm_quantile(1 - p2 / 2);
	lc = lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI);
	for (int i = 0; i < 60; i++) {
		double pdf = exp(lc - (df + 1) / 2 * log1p(q * q / df)), step = (stats_t_p2(q, df) - p2) / (2 * pdf);
		if (!isfinite(step) || step < 0)
			break;
		q += step;
		if (step <= 1e-13 * q)
			return q;
	}
	while (stats_t_p2(hi, df) > p2 && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = 0.5 * (lo + hi);
		if (stats_t_p2(mid, df) > p2)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

double decide_spend(double alpha, double t)
{
	if (t <= 0)
		return 0;
	if (t >= 1)
		return alpha;
	return alpha * log(1 + (M_E - 1) * t);
}

void decide_seq_init(struct decide_seq *s, double alpha)
{
	memset(s, 0, sizeof(*s));
	s->alpha = alpha;
	s->z_last = NAN;
}

/* Simpson's weight of grid point i (times 3/h). */
static double simpson_w(int i)
{
	if (i == 0 || i == DECIDE_GRID - 1)
		return 1;
	return i % 2 ? 4 : 2;
}

/* The chance that the score, now with sub-density s->dens on [-b_last,
 * b_last], is outside [-b, b] after an increment of variance d. */
static double seq_cross(const struct decide_seq *s, double b, double sd)
{
	double h = 2 * s->b_last / (DECIDE_GRID - 1), sum = 0;

	for (int i = 0; i < DECIDE_GRID; i++) {
		double x = -s->b_last + i * h;
		sum += simpson_w(i) * s->dens[i] * (norm_cdf((-b - x) / sd) + norm_cdf((x - b) / sd));
	}
	return sum * h / 3;
}

double decide_seq_look(struct decide_seq *s, double t)
{
	double inc, b, sd;

	if (t > 1)
		t = 1;
	if (!(t > s->t_last + 1e-9))
		return s->looks ? s->z_last : Z_MAX;
	inc = decide_spend(s->alpha, t) - s->spent;
	if (!s->looks) {
		double z = inc > 0 ? decide_norm_quantile(1 - inc / 2) : Z_MAX;
		z = fmin(z, Z_MAX);
		b = z * sqrt(t);
		for (int i = 0; i < DECIDE_GRID; i++) {
			double x = -b + i * 2 * b / (DECIDE_GRID - 1);
			s->dens[i] = norm_pdf(x / sqrt(t)) / sqrt(t);
		}
		s->spent += 2 * (1 - norm_cdf(z));
		s->z_last = z;
	} else {
		double lo = 0, hi = Z_MAX * sqrt(t), next[DECIDE_GRID], h = 2 * s->b_last / (DECIDE_GRID - 1);
		sd = sqrt(t - s->t_last);
		if (inc <= 0 || seq_cross(s, hi, sd) >= inc) {
			lo = hi;
		} else {
			for (int i = 0; i < 60; i++) {
				double mid = 0.5 * (lo + hi);
				if (seq_cross(s, mid, sd) > inc)
					lo = mid;
				else
					hi = mid;
			}
		}
		b = 0.5 * (lo + hi);
		s->spent += seq_cross(s, b, sd);
		/* the sub-density of the score at the new look, inside [-b, b] */
		for (int j = 0; j < DECIDE_GRID; j++) {
			double y = -b + j * 2 * b / (DECIDE_GRID - 1), sum = 0;
			for (int i = 0; i < DECIDE_GRID; i++) {
				double x = -s->b_last + i * h;
				sum += simpson_w(i) * s->dens[i] * norm_pdf((y - x) / sd);
			}
			next[j] = sum * h / 3 / sd;
		}
		memcpy(s->dens, next, sizeof(next));
		s->z_last = b / sqrt(t);
	}
	s->b_last = b;
	s->t_last = t;
	s->looks++;
	return s->z_last;
}

double decide_info_fraction(int n, int nb, int max_n, int max_nb)
{
	if (n < 1 || nb < 1 || max_n < 1 || max_nb < 1)
		return 0;
	/* information of a difference of means: 1 / (1/n + 1/nb) sigma^-2;
	 * the spread cancels in the fraction */
	return (1.0 / max_n + 1.0 / max_nb) / (1.0 / n + 1.0 / nb);
}

static double t975(int df)
{
	return decide_t_quantile2(0.05, df);
}

/* The precision rule's interval: 98 %, so that stopping on its width
 * (a point stops when its s happens to be small) still holds the true
 * mean 95 % of the time; a 95 % one held it 91-95 % in the simulation
 * (tests/unit/test_decide.c, docs/decide.md). */
#define PRECISION_P2 0.02

void decide_precision(const struct decide_config *c, const struct decide_arm *a, struct decide_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->n = a->n;
	v->mean = a->mean;
	v->half_pct = v->change_pct = v->change_half_pct = v->z_bound = v->df = v->se_pct = NAN;
	decide_intervals(v, a);
	if (a->n >= c->min_repeat && v->half_pct <= c->ci_pct)
		v->state = DECIDE_PRECISE;
	else if (a->n >= c->max_repeat)
		v->state = DECIDE_OPEN;
	else
		v->state = DECIDE_UNDECIDED;
}

void decide_compare(const struct decide_config *c, const struct decide_arm *a, const struct decide_arm *base,
		    double z_bound, struct decide_verdict *v)
{
	double va = decide_arm_var(a), vb = decide_arm_var(base), sa, sb, se, diff, p_k, margin;
	bool different = false, equal = false;

	memset(v, 0, sizeof(*v));
	v->n = a->n;
	v->mean = a->mean;
	v->half_pct = v->change_pct = v->change_half_pct = v->z_bound = v->df = v->se_pct = NAN;
	v->state = a->n >= c->max_repeat ? DECIDE_OPEN : DECIDE_UNDECIDED;
	if (a->n < 2 || base->n < 2 || !(base->mean != 0) || isnan(z_bound))
		return;
	sa = va / a->n;
	sb = vb / base->n;
	se = sqrt(sa + sb);
	diff = a->mean - base->mean;
	margin = c->min_change_pct / 100 * fabs(base->mean);
	v->compared = true;
	v->z_bound = z_bound;
	v->change_pct = diff / fabs(base->mean) * 100;
	v->se_pct = se / fabs(base->mean) * 100;
	p_k = erfc(z_bound / M_SQRT2);
	if (se > 0) {
		v->df = (sa + sb) * (sa + sb) / (sa * sa / (a->n - 1) + sb * sb / (base->n - 1));
		different = stats_t_p2(diff / se, v->df) <= p_k;
		/* the repeated interval diff +- q se inside +-margin, without
		 * computing q: the same test read from the other end */
		equal = margin > fabs(diff) && stats_t_p2((margin - fabs(diff)) / se, v->df) <= p_k;
	} else {
		/* no spread on either side: the values say it exactly */
		different = diff != 0;
		equal = !different;
	}
	if (a->n < c->min_repeat)
		return;
	if (different)
		v->state = DECIDE_DIFFERENT;
	else if (equal)
		v->state = DECIDE_EQUAL;
}

void decide_intervals(struct decide_verdict *v, const struct decide_arm *a)
{
	if (a->n >= 2 && a->mean != 0)
		v->half_pct = decide_t_quantile2(PRECISION_P2, a->n - 1) * sqrt(decide_arm_var(a) / a->n) /
			      fabs(a->mean) * 100;
	if (v->compared)
		v->change_half_pct = v->se_pct > 0 ?
			decide_t_quantile2(erfc(v->z_bound / M_SQRT2), v->df) * v->se_pct : 0;
}

int decide_pick_next(const struct decide_point *pts, int npts, int min_repeat, int last)
{
	int best = -1, open = 0;

	/* first every point to its minimum, pass by pass */
	for (int i = 0; i < npts; i++)
		if (!pts[i].done && pts[i].n < min_repeat && (best < 0 || pts[i].n < pts[best].n))
			best = i;
	if (best >= 0)
		return best;
	for (int i = 0; i < npts; i++)
		open += !pts[i].done;
	for (int i = 0; i < npts; i++) {
		if (pts[i].done || (i == last && open > 1))
			continue;
		if (best < 0 || pts[i].need > pts[best].need)
			best = i;
	}
	return best;
}

int decide_runs_left(const struct decide_point *p, int max_repeat)
{
	double est;

	if (p->done || p->n >= max_repeat)
		return 0;
	if (!isfinite(p->need))
		return max_repeat - p->n;
	est = ceil(p->n * p->need * p->need) - p->n;
	if (est < 1)
		est = 1;
	return est > max_repeat - p->n ? max_repeat - p->n : (int)est;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int decide_outliers(const double *v, int n, bool *out)
{
	double tmp[256], med, mad;
	int count = 0;

	if (n > 256)
		return 0;
	for (int i = 0; i < n; i++)
		out[i] = false;
	if (n < 4)
		return 0;
	memcpy(tmp, v, (size_t)n * sizeof(*v));
	med = median_of(tmp, n);
	for (int i = 0; i < n; i++)
		tmp[i] = fabs(v[i] - med);
	mad = median_of(tmp, n) * 1.4826;
	if (!(mad > 0))
		return 0;
	for (int i = 0; i < n; i++)
		count += out[i] = fabs(v[i] - med) > 3.5 * mad;
	return count;
}

bool decide_drift(const struct decide_arm *a)
{
	if (a->n < 3)
		return false;
	/* the spread from successive differences (von Neumann): a drift
	 * itself widens the plain standard deviation, not this one */
	return fabs(a->last - a->first) > t975(a->n - 1) * sqrt(a->ssd / (2.0 * (a->n - 1))) * M_SQRT2;
}

const char *decide_state_name(enum decide_state s)
{
	switch (s) {
	case DECIDE_UNDECIDED: return "undecided";
	case DECIDE_PRECISE: return "precise";
	case DECIDE_DIFFERENT: return "different";
	case DECIDE_EQUAL: return "equal";
	case DECIDE_OPEN: return "open";
	case DECIDE_FAILED: return "failed";
	}
	return "undecided";
}

void decide_describe(const struct decide_config *c, const struct decide_verdict *v, char *buf, size_t len)
{
	const char *pl = v->n == 1 ? "" : "s";

	switch (v->state) {
	case DECIDE_PRECISE:
		snprintf(buf, len, "precise: %.6g +- %.1f %% (%d run%s)", v->mean, v->half_pct, v->n, pl);
		break;
	case DECIDE_DIFFERENT:
		snprintf(buf, len, "decided: %+.1f %% +- %.1f (%d run%s)", v->change_pct, v->change_half_pct, v->n, pl);
		break;
	case DECIDE_EQUAL:
		snprintf(buf, len, "equal within +-%g %% (%+.1f %% +- %.1f, %d run%s)", c->min_change_pct,
			 v->change_pct, v->change_half_pct, v->n, pl);
		break;
	case DECIDE_FAILED:
		snprintf(buf, len, "failed (%d run%s)", v->n, pl);
		break;
	case DECIDE_OPEN:
	case DECIDE_UNDECIDED:
		if (v->compared)
			snprintf(buf, len, "%s: %+.1f %% +- %.1f (%d run%s)", v->state == DECIDE_OPEN ? "open" : "undecided",
				 v->change_pct, v->change_half_pct, v->n, pl);
		else if (!isnan(v->half_pct))
			snprintf(buf, len, "%s: %.6g +- %.1f %% (%d run%s)", v->state == DECIDE_OPEN ? "open" : "undecided",
				 v->mean, v->half_pct, v->n, pl);
		else
			snprintf(buf, len, "%s (%d run%s)", decide_state_name(v->state), v->n, pl);
		break;
	}
}

/* "(5,10)" for "vm.dirty_background_ratio=5,vm.dirty_ratio=10": the
 * setting as the mails write it, short enough for the head of a line. */
static void setting_values(const char *setting, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	if (!setting[0] || len < 3)
		return;
	buf[off++] = '(';
	for (const char *p = setting; *p && off < len - 2;) {
		const char *eq = strchr(p, '='), *end;
		if (!eq)
			break;
		end = eq + 1 + strcspn(eq + 1, ",");
		if (off > 1)
			buf[off++] = ',';
		for (const char *q = eq + 1; q < end && off < len - 2; q++)
			buf[off++] = *q;
		p = *end ? end + 1 : end;
	}
	buf[off++] = ')';
	buf[off] = '\0';
}

void decide_event_format(const struct decide_event *e, char *buf, size_t len)
{
	char sv[64];

	setting_values(e->setting, sv, sizeof(sv));
	snprintf(buf, len, "%s%s%s%s%s=%s: %s; state=%s x=%.10g runs=%d values=%d failed=%d outliers=%d mean=%.10g "
		 "half=%.4g change=%.4g change_half=%.4g metric=%s x_name=%s setting=%s label=%s",
		 sv, sv[0] ? " " : "", e->label, e->label[0] ? " " : "",
		 e->x_name, e->x_text, e->what, decide_state_name(e->state), e->x, e->runs, e->values, e->failed,
		 e->outliers, e->mean, e->half, e->change, e->change_half, e->metric, e->x_name, e->setting,
		 e->label);
}

/* The value of " key=" in s up to the next space (or, last, the end). */
static bool event_field(const char *s, const char *key, bool to_end, char *out, size_t len)
{
	char pat[32];
	const char *p, *end;

	snprintf(pat, sizeof(pat), " %s=", key);
	if (!(p = strstr(s, pat)))
		return false;
	p += strlen(pat);
	end = to_end ? p + strlen(p) : p + strcspn(p, " ");
	snprintf(out, len, "%.*s", (int)(end - p), p);
	return true;
}

static double event_num(const char *s, const char *key)
{
	char v[64];
	return event_field(s, key, false, v, sizeof(v)) ? strtod(v, NULL) : NAN;
}

/* A count field: 0 when missing, not a number or out of int's range (a
 * cast of NaN or 1e300 to int is undefined) */
static int event_int(const char *s, const char *key)
{
	double v = event_num(s, key);
	return v >= 0 && v <= INT_MAX ? (int)v : 0;
}

int decide_event_parse(const char *line, struct decide_event *e)
{
	const char *semi = strstr(line, "; state="), *colon, *lab;
	char v[32], setting[RP_LABEL_LEN * 2];

	memset(e, 0, sizeof(*e));
	if (!semi || !(colon = strstr(line, ": ")) || colon > semi)
		return -EINVAL;
	snprintf(e->what, sizeof(e->what), "%.*s", (int)(semi - colon - 2), colon + 2);
	if (!event_field(semi, "state", false, v, sizeof(v)))
		return -EINVAL;
	for (int s = DECIDE_UNDECIDED; s <= DECIDE_FAILED; s++)
		if (!strcmp(v, decide_state_name(s)))
			e->state = s;
	e->x = event_num(semi, "x");
	e->runs = event_int(semi, "runs");
	e->values = event_int(semi, "values");
	e->failed = event_int(semi, "failed");
	e->outliers = event_int(semi, "outliers");
	e->mean = event_num(semi, "mean");
	e->half = event_num(semi, "half");
	e->change = event_num(semi, "change");
	e->change_half = event_num(semi, "change_half");
	event_field(semi, "metric", false, e->metric, sizeof(e->metric));
	event_field(semi, "x_name", false, e->x_name, sizeof(e->x_name));
	/* setting= runs to " label=", label= to the end */
	if ((lab = strstr(semi, " label="))) {
		snprintf(e->label, sizeof(e->label), "%s", lab + 7);
		if (event_field(semi, "setting", true, setting, sizeof(setting))) {
			char *l = strstr(setting, " label=");
			if (l)
				*l = '\0';
			snprintf(e->setting, sizeof(e->setting), "%s", setting);
		}
	}
	/* the head is "[SETTING ][LABEL ]X_NAME=X_TEXT": the value after
	 * the last "X_NAME=" in it */
	snprintf(e->x_text, sizeof(e->x_text), "%.*s", (int)(colon - line), line);
	if (e->x_name[0]) {
		char pat[RP_NAME_LEN + 2], *at = NULL;
		snprintf(pat, sizeof(pat), "%s=", e->x_name);
		for (char *q = strstr(e->x_text, pat); q; q = strstr(q + 1, pat))
			if (q == e->x_text || q[-1] == ' ')
				at = q;
		if (at)
			memmove(e->x_text, at + strlen(pat), strlen(at + strlen(pat)) + 1);
	}
	return 0;
}
