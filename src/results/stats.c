/* stats: curves per label and the mmtests-style statistics kernel
 * developers read: mean, min, max, sample stddev, CoV, harmonic mean, and
 * the change against a baseline with Welch's t-test.  The t distribution
 * comes from the regularized incomplete beta function (continued fraction,
 * modified Lentz), so no maths library beyond libm is needed. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/results/stats.h"
#include "iodash/parsers/units.h"

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

/* Strings to ids in first-seen order (labels, settings), by hashing: a
 * mail of a million points must not compare every label with every other. */
struct intern {
	const char **key;      /* borrowed from the result set */
	unsigned *id;
	size_t cap, n;
};

static uint64_t intern_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int intern_id(struct intern *in, const char *s, unsigned *id)
{
	if (2 * (in->n + 1) > in->cap) {
		size_t nc = in->cap ? in->cap * 2 : 64;
		const char **nk = calloc(nc, sizeof(*nk));
		unsigned *ni = calloc(nc, sizeof(*ni));
		if (!nk || !ni) {
			free(nk);
			free(ni);
			return -ENOMEM;
		}
		for (size_t i = 0; i < in->cap; i++) {
			if (!in->key[i])
				continue;
			size_t j = intern_hash(in->key[i]) & (nc - 1);
			while (nk[j])
				j = (j + 1) & (nc - 1);
			nk[j] = in->key[i];
			ni[j] = in->id[i];
		}
		free(in->key);
		free(in->id);
		in->key = nk;
		in->id = ni;
		in->cap = nc;
	}
	size_t j = intern_hash(s) & (in->cap - 1);
	while (in->key[j] && strcmp(in->key[j], s))
		j = (j + 1) & (in->cap - 1);
	if (!in->key[j]) {
		in->key[j] = s;
		in->id[j] = (unsigned)in->n++;
	}
	*id = in->id[j];
	return 0;
}

static void intern_free(struct intern *in)
{
	free(in->key);
	free(in->id);
}

/* One final point of the metric, with the keys it is sorted by. */
struct srec {
	unsigned sid, lid;
	int run;
	double x, v;
	size_t i;              /* its index in the result set */
};

static int cmp_srec(const void *a, const void *b)
{
	const struct srec *p = a, *q = b;
	if (p->sid != q->sid)
		return p->sid < q->sid ? -1 : 1;
	if (p->lid != q->lid)
		return p->lid < q->lid ? -1 : 1;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->i < q->i ? -1 : p->i > q->i;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
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

/* The change of c against b, x by x: both are x ascending. */
static void curve_change(struct curve *c, const struct curve *b)
{
	size_t k = 0;

	for (size_t j = 0; j < c->n; j++) {
		struct curve_point *cp = &c->pts[j];
		while (k < b->n && b->pts[k].x < cp->x)
			k++;
		if (k == b->n)
			break;
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
	}
}

/* The curve of recs[a..b) (one setting and label, x ascending). */
static int curve_fill(struct curve *c, const struct result_set *rs, struct srec *recs, size_t a, size_t b,
		      const unsigned char *tags, const double *aux, double *vals, int *runs)
{
	size_t np = 0, nr = 0;

	const struct result_point *p0 = &rs->v[recs[a].i];
	memcpy(c->label, p0->label, sizeof(c->label));
	memcpy(c->setting, p0->setting, sizeof(c->setting));
	c->label[RP_LABEL_LEN - 1] = c->setting[RP_LABEL_LEN - 1] = '\0';
	for (size_t i = a; i < b; i++)
		np += i == a || recs[i].x != recs[i - 1].x;
	c->pts = calloc(np, sizeof(*c->pts));
	if (!c->pts)
		return -ENOMEM;
	c->n = np;
	np = 0;
	for (size_t i = a; i < b;) {
		size_t j = i, nv = 0;
		double asum = 0;
		int an = 0;
		unsigned tg = 0;
		for (; j < b && recs[j].x == recs[i].x; j++) {
			vals[nv++] = recs[j].v;
			if (tags && tags[recs[j].i] < 32)
				tg |= 1u << tags[recs[j].i];
			if (aux && !isnan(aux[recs[j].i])) {
				asum += aux[recs[j].i];
				an++;
			}
		}
		struct curve_point *cp = &c->pts[np++];
		cp->x = recs[i].x;
		stats_of(vals, nv, cp);
		cp->tags = tg;
		cp->aux = an ? asum / an : NAN;
		i = j;
	}
	for (size_t i = a; i < b; i++)
		runs[nr++] = recs[i].run;
	qsort(runs, nr, sizeof(*runs), cmp_int);
	c->runs = 0;
	for (size_t i = 0; i < nr; i++)
		c->runs += i == 0 || runs[i] != runs[i - 1];
	return 0;
}

int stats_build_curves_tagged(const struct result_set *rs, const size_t *idx, size_t nidx, const char *metric,
			      const char *baseline, const unsigned char *tags, const double *aux,
			      struct curve_set *out)
{
	struct intern labels = { 0 }, settings = { 0 };
	struct srec *recs = NULL;
	double *vals = NULL;
	int *runs = NULL;
	size_t nrec = 0, ncurves = 0;
	const struct result_point *first = NULL;
	unsigned base = 0;
	int rc = 0;
	struct units_tally tally = { 0 };
	char unit[RP_UNIT_LEN];

	memset(out, 0, sizeof(*out));
	if (!idx)
		nidx = rs->n;
	recs = malloc((nidx ? nidx : 1) * sizeof(*recs));
	if (!recs)
		return -ENOMEM;
	/* readers give each value in the unit its tool printed: runs of one
	 * metric may come in MiB/s and GiB/s; they pool in the unit most of
	 * them have, and points whose unit does not convert to it (IOPS
	 * beside KiB/s) are not pooled (compare shows them apart first) */
	for (size_t ii = 0; ii < nidx; ii++) {
		const struct result_point *p = &rs->v[idx ? idx[ii] : ii];
		if (stats_point_is_final(p) && !strcmp(p->metric, metric))
			units_tally_add(&tally, p->unit);
	}
	snprintf(unit, sizeof(unit), "%s", units_pick_main(&tally));
	for (size_t ii = 0; ii < nidx; ii++) {
		size_t i = idx ? idx[ii] : ii;
		const struct result_point *p = &rs->v[i];
		struct srec *r = &recs[nrec];
		if (!stats_point_is_final(p) || strcmp(p->metric, metric) ||
		    !units_convert_value(p->value, p->unit, unit, &r->v))
			continue;
		if (!first)
			first = p;
		if ((rc = intern_id(&labels, p->label, &r->lid)) || (rc = intern_id(&settings, p->setting, &r->sid)))
			goto out;
		r->run = p->run;
		r->x = p->x;
		r->i = i;
		nrec++;
	}
	if (!nrec) {
		rc = -ENOENT;
		goto out;
	}
	if (baseline) {
		bool found = false;
		for (size_t i = 0; i < labels.cap && !found; i++)
			if (labels.key[i] && !strcmp(labels.key[i], baseline)) {
				base = labels.id[i];
				found = true;
			}
		if (!found) {
			rc = -ESRCH;
			goto out;
		}
	}
	qsort(recs, nrec, sizeof(*recs), cmp_srec);
	for (size_t i = 0; i < nrec; i++)
		ncurves += i == 0 || recs[i].sid != recs[i - 1].sid || recs[i].lid != recs[i - 1].lid;
	out->v = calloc(ncurves, sizeof(*out->v));
	vals = malloc(nrec * sizeof(*vals));
	runs = malloc(nrec * sizeof(*runs));
	if (!out->v || !vals || !runs) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0, b; i < nrec; i = b) {
		struct curve *c = &out->v[out->n++];
		for (b = i + 1; b < nrec && recs[b].sid == recs[i].sid && recs[b].lid == recs[i].lid; b++)
			;
		memcpy(c->metric, first->metric, sizeof(c->metric));
		memcpy(c->unit, unit, sizeof(c->unit));
		memcpy(c->x_name, first->x_name, sizeof(c->x_name));
		if ((rc = curve_fill(c, rs, recs, i, b, tags, aux, vals, runs)))
			goto out;
		c->is_base = recs[i].lid == base;
	}
	for (size_t i = 0; i < nrec; i++)
		if (recs[i].lid == base) {
			memcpy(out->baseline, rs->v[recs[i].i].label, sizeof(out->baseline));
			break;
		}
	/* change and significance against the baseline of each block */
	for (size_t a = 0, e; a < out->n; a = e) {
		size_t bi = a;
		e = stats_block_end(out, a);
		for (size_t l = a; l < e; l++)
			if (out->v[l].is_base)
				bi = l;
		out->v[bi].is_base = true;   /* a block without the baseline label: its first */
		for (size_t l = a; l < e; l++)
			if (l != bi)
				curve_change(&out->v[l], &out->v[bi]);
	}
out:
	intern_free(&labels);
	intern_free(&settings);
	free(recs);
	free(vals);
	free(runs);
	if (rc)
		curve_set_free(out);
	return rc;
}

int stats_build_curves(const struct result_set *rs, const char *metric,
			 const char *baseline, struct curve_set *out)
{
	return stats_build_curves_tagged(rs, NULL, 0, metric, baseline, NULL, NULL, out);
}

size_t stats_block_end(const struct curve_set *cs, size_t first)
{
	size_t e = first + 1;
	while (e < cs->n && !strcmp(cs->v[e].setting, cs->v[first].setting))
		e++;
	return e;
}

const struct curve_point *stats_point_at(const struct curve *c, double x)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->pts[mid].x < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->n && c->pts[lo].x == x ? &c->pts[lo] : NULL;
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
	size_t n = 0, last = 0;

	for (size_t i = 0; i < rs->n; i++) {
		const struct result_point *p = &rs->v[i];
		size_t k;
		if (!stats_point_is_final(p))
			continue;
		/* points come in runs of one metric: try the last one first */
		if (last < n && !strcmp(names[last], p->metric))
			continue;
		for (k = 0; k < n && strcmp(names[k], p->metric); k++)
			;
		last = k;
		if (k == n && n < max) {
			memcpy(names[n], p->metric, RP_NAME_LEN);
			names[n][RP_NAME_LEN - 1] = 0;
			n++;
		}
	}
	return n;
}
