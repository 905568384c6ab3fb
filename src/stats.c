/* stats: curves per label and the mmtests-style statistics kernel
 * developers read: mean, min, max, sample stddev, CoV, harmonic mean, and
 * the change against a baseline with Welch's t-test.  The t distribution
 * comes from the regularized incomplete beta function (continued fraction,
 * modified Lentz), so no maths library beyond libm is needed. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/stats.h"

#define CF_TINY 1e-300

/* One step of the modified Lentz method: the new d and c after the term
 * num; returns their product, the factor h takes. */
static double lentz_step(double num, double *c, double *d)
{
	*d = 1 + num * *d;
	*c = 1 + num / *c;
	if (fabs(*d) < CF_TINY)
		*d = CF_TINY;
	if (fabs(*c) < CF_TINY)
		*c = CF_TINY;
	*d = 1 / *d;
	return *d * *c;
}

/* Continued fraction of I_x(a,b); converges fast for x < (a+1)/(a+b+2).
 * Each round takes its even and its odd term. */
static double incbeta_cf(double a, double b, double x)
{
	const double eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < CF_TINY)
		d = CF_TINY;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 500; m++) {
		double m2 = 2.0 * m;
		h *= lentz_step(m * (b - m) * x / ((a - 1 + m2) * (a + m2)), &c, &d);
		double del = lentz_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2)), &c, &d);
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double stats_incbeta(double a, double b, double x)
{
	double front;

	if (!(a > 0) || !(b > 0) || isnan(x) || x < 0 || x > 1)
		return NAN;
	if (x == 0 || x == 1)
		return x;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* Use the symmetry I_x(a,b) = 1 - I_(1-x)(b,a) where the fraction is slow. */
	if (x < (a + 1) / (a + b + 2))
		return front * incbeta_cf(a, b, x) / a;
	return 1 - front * incbeta_cf(b, a, 1 - x) / b;
}

double stats_t_p2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	return stats_incbeta(df / 2, 0.5, df / (df + t * t));
}

double stats_welch_p(double m1, double v1, int n1, double m2, double v2, int n2,
		       double *df_out)
{
	double s1, s2, se2, t, df;

	if (df_out)
		*df_out = NAN;
	if (n1 < 2 || n2 < 2 || v1 < 0 || v2 < 0)
		return -1;
	s1 = v1 / n1;
	s2 = v2 / n2;
	se2 = s1 + s2;
	if (!(se2 > 0))
		return -1;
	t = (m1 - m2) / sqrt(se2);
	df = se2 * se2 / (s1 * s1 / (n1 - 1) + s2 * s2 / (n2 - 1));
	if (df_out)
		*df_out = df;
	return stats_t_p2(t, df);
}

bool stats_point_is_final(const struct result_point *p)
{
	if (p->flags & (RP_PROGRESS | RP_INCOMPLETE | RP_TOO_FAST))
		return false;
	return isfinite(p->value) && isfinite(p->x);
}

/* Scratch: every value of one label at one x. */
struct xvals {
	double x;
	double *v;
	size_t n, cap;
};

struct label_acc {
	char label[RP_LABEL_LEN];
	struct xvals *xs;
	size_t nx, capx;
	int *runs;
	size_t nruns, capruns;
};

static int grow(void **p, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 8;
	void *np = realloc(*p, nc * elem);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = nc;
	return 0;
}

static int acc_add(struct label_acc *la, const struct result_point *p)
{
	struct xvals *xv = NULL;
	size_t i;

	for (i = 0; i < la->nruns && la->runs[i] != p->run; i++)
		;
	if (i == la->nruns) {
		if (grow((void **)&la->runs, &la->capruns, la->nruns, sizeof(int)))
			return -ENOMEM;
		la->runs[la->nruns++] = p->run;
	}
	for (i = 0; i < la->nx; i++)
		if (la->xs[i].x == p->x) {
			xv = &la->xs[i];
			break;
		}
	if (!xv) {
		if (grow((void **)&la->xs, &la->capx, la->nx, sizeof(*la->xs)))
			return -ENOMEM;
		xv = &la->xs[la->nx++];
		memset(xv, 0, sizeof(*xv));
		xv->x = p->x;
	}
	if (grow((void **)&xv->v, &xv->cap, xv->n, sizeof(double)))
		return -ENOMEM;
	xv->v[xv->n++] = p->value;
	return 0;
}

static void stats_of(const double *v, size_t n, struct curve_point *cp)
{
	double sum = 0, inv = 0, ss = 0;
	bool all_pos = true;

	cp->n = (int)n;
	cp->min = cp->max = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] > 0)
			inv += 1 / v[i];
		else
			all_pos = false;
		if (v[i] < cp->min)
			cp->min = v[i];
		if (v[i] > cp->max)
			cp->max = v[i];
	}
	cp->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - cp->mean) * (v[i] - cp->mean);
	cp->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	cp->cov = n > 1 && cp->mean != 0 ? cp->stddev / fabs(cp->mean) * 100 : 0;
	cp->hmean = all_pos ? (double)n / inv : NAN;
	cp->p_value = -1;
}

static int cmp_point(const void *a, const void *b)
{
	double x = ((const struct curve_point *)a)->x, y = ((const struct curve_point *)b)->x;
	return x < y ? -1 : x > y;
}

static void acc_free(struct label_acc *la, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < la[i].nx; j++)
			free(la[i].xs[j].v);
		free(la[i].xs);
		free(la[i].runs);
	}
	free(la);
}

int stats_build_curves(const struct result_set *rs, const char *metric,
			 const char *baseline, struct curve_set *out)
{
	struct label_acc *la = NULL;
	size_t nla = 0, capla = 0, base = 0;
	const struct result_point *first = NULL;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < rs->n; i++) {
		const struct result_point *p = &rs->v[i];
		size_t l;
		if (!stats_point_is_final(p) || strcmp(p->metric, metric))
			continue;
		if (!first)
			first = p;
		for (l = 0; l < nla && strcmp(la[l].label, p->label); l++)
			;
		if (l == nla) {
			if ((rc = grow((void **)&la, &capla, nla, sizeof(*la))))
				goto out;
			memset(&la[nla], 0, sizeof(*la));
			memcpy(la[nla].label, p->label, sizeof(la[nla].label));
			nla++;
		}
		if ((rc = acc_add(&la[l], p)))
			goto out;
	}
	if (!nla) {
		rc = -ENOENT;
		goto out;
	}
	if (baseline) {
		for (base = 0; base < nla && strcmp(la[base].label, baseline); base++)
			;
		if (base == nla) {
			rc = -ESRCH;
			goto out;
		}
	}
	out->v = calloc(nla, sizeof(*out->v));
	if (!out->v) {
		rc = -ENOMEM;
		goto out;
	}
	out->n = nla;
	memcpy(out->baseline, la[base].label, sizeof(out->baseline));
	for (size_t l = 0; l < nla; l++) {
		struct curve *c = &out->v[l];
		memcpy(c->label, la[l].label, sizeof(c->label));
		memcpy(c->metric, first->metric, sizeof(c->metric));
		memcpy(c->unit, first->unit, sizeof(c->unit));
		memcpy(c->x_name, first->x_name, sizeof(c->x_name));
		c->runs = (int)la[l].nruns;
		c->pts = calloc(la[l].nx, sizeof(*c->pts));
		if (!c->pts) {
			rc = -ENOMEM;
			goto out;
		}
		c->n = la[l].nx;
		for (size_t j = 0; j < la[l].nx; j++) {
			c->pts[j].x = la[l].xs[j].x;
			stats_of(la[l].xs[j].v, la[l].xs[j].n, &c->pts[j]);
		}
		qsort(c->pts, c->n, sizeof(*c->pts), cmp_point);
	}
	/* change and significance against the baseline, x by x */
	for (size_t l = 0; l < nla; l++) {
		const struct curve *b = &out->v[base];
		struct curve *c = &out->v[l];
		if (l == base)
			continue;
		for (size_t j = 0; j < c->n; j++) {
			struct curve_point *cp = &c->pts[j];
			for (size_t k = 0; k < b->n; k++) {
				const struct curve_point *bp = &b->pts[k];
				if (bp->x != cp->x)
					continue;
				if (bp->mean != 0) {
					cp->have_change = true;
					cp->change_pct = (cp->mean - bp->mean) / fabs(bp->mean) * 100;
				}
				cp->p_value = stats_welch_p(cp->mean, cp->stddev * cp->stddev, cp->n,
							      bp->mean, bp->stddev * bp->stddev, bp->n, NULL);
				cp->significant = cp->p_value >= 0 && cp->p_value < 0.05;
				break;
			}
		}
	}
out:
	acc_free(la, nla);
	if (rc)
		curve_set_free(out);
	return rc;
}

void curve_set_free(struct curve_set *cs)
{
	for (size_t i = 0; cs->v && i < cs->n; i++)
		free(cs->v[i].pts);
	free(cs->v);
	cs->v = NULL;
	cs->n = 0;
}

size_t stats_list_metrics(const struct result_set *rs, char names[][RP_NAME_LEN], size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < rs->n; i++) {
		const struct result_point *p = &rs->v[i];
		size_t k;
		if (!stats_point_is_final(p))
			continue;
		for (k = 0; k < n && strcmp(names[k], p->metric); k++)
			;
		if (k == n && n < max) {
			memcpy(names[n], p->metric, RP_NAME_LEN);
			names[n][RP_NAME_LEN - 1] = 0;
			n++;
		}
	}
	return n;
}
