/* Sweep plans: parameter grid x repeat, substituted argv.  Pure code. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/base/util.h"
#include "iodash/bench/sweep.h"
#include "iodash/parsers/units.h"

static void free_param(struct sweep_param *sp)
{
	for (int i = 0; i < sp->nvalues; i++)
		free(sp->values[i]);
	free(sp->values);
	sp->values = NULL;
	sp->nvalues = 0;
}

static int parse_param(const char *spec, struct sweep_param *sp, char *err, size_t errlen)
{
	const char *eq = strchr(spec, '='), *p;
	size_t nlen;

	memset(sp, 0, sizeof(*sp));
	nlen = eq ? (size_t)(eq - spec) : 0;
	if (!eq || !nlen || nlen >= sizeof(sp->name)) {
		snprintf(err, errlen, "-p '%s': expected NAME=V1,V2,... (e.g. -p clients=1,2,4)", spec);
		return -EINVAL;
	}
	for (size_t i = 0; i < nlen; i++)
		if (!isalnum((unsigned char)spec[i]) && spec[i] != '_' && spec[i] != ',') {
			snprintf(err, errlen, "-p '%s': the name may hold letters, digits and _ only", spec);
			return -EINVAL;
		}
	memcpy(sp->name, spec, nlen);
	sp->name[nlen] = '\0';
	/* "bg,r": names bound to paired values "5:10" */
	for (const char *n = sp->name;;) {
		size_t l = strcspn(n, ",");
		if (!l || sp->nnames == SWEEP_MAX_NAMES) {
			snprintf(err, errlen, "-p '%s': paired names are 2 to %d names with commas (-p bg,r=5:10,20:40)",
				 spec, SWEEP_MAX_NAMES);
			return -EINVAL;
		}
		memcpy(sp->names[sp->nnames], n, l);
		sp->names[sp->nnames++][l] = '\0';
		for (int j = 0; j < sp->nnames - 1; j++)
			if (!strcmp(sp->names[j], sp->names[sp->nnames - 1])) {
				snprintf(err, errlen, "-p '%s': %s bound twice", spec, sp->names[j]);
				return -EINVAL;
			}
		if (!n[l])
			break;
		n += l + 1;
	}
	p = eq + 1;
	for (;;) {
		const char *c = strchr(p, ',');
		size_t vlen = c ? (size_t)(c - p) : strlen(p);
		char **nv;
		if (!vlen) {
			snprintf(err, errlen, "-p '%s': empty value (write -p %s=1,2,4)", spec, sp->name);
			goto bad;
		}
		if (sp->nnames > 1) {
			int parts = 1;
			for (size_t i = 0; i < vlen; i++)
				parts += p[i] == ':';
			if (parts != sp->nnames) {
				snprintf(err, errlen, "-p '%s': '%.*s' has %d part%s for %d names (write %d values with ':', e.g. 5:10)",
					 spec, (int)vlen, p, parts, parts == 1 ? "" : "s", sp->nnames, sp->nnames);
				goto bad;
			}
		}
		if (sp->nvalues == SWEEP_MAX_VALUES) {
			snprintf(err, errlen, "-p '%s': more than %d values", spec, SWEEP_MAX_VALUES);
			goto bad;
		}
		nv = realloc(sp->values, (size_t)(sp->nvalues + 1) * sizeof(*nv));
		if (!nv)
			goto nomem;
		sp->values = nv;
		if (!(sp->values[sp->nvalues] = strndup(p, vlen)))
			goto nomem;
		sp->nvalues++;
		if (!c)
			break;
		p = c + 1;
	}
	return 0;
nomem:
	snprintf(err, errlen, "-p '%s': out of memory", spec);
	free_param(sp);
	return -ENOMEM;
bad:
	free_param(sp);
	return -EINVAL;
}

/* A value as one shell word: as it is when it holds only characters no
 * shell treats specially, else in single quotes (a ' inside as '\'').
 * "4k" stays 4k; "b,a;touch x" becomes 'b,a;touch x'.  NULL: no memory. */
static char *shell_quote(const char *v)
{
	size_t n = strlen(v), len = 0;
	char *q;

	if (n && strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.,:/+-@%") == n)
		return strdup(v);
	if (!(q = malloc(n * 4 + 3)))
		return NULL;
	q[len++] = '\'';
	for (const char *c = v; *c; c++) {
		if (*c == '\'') {
			memcpy(q + len, "'\\''", 4);
			len += 4;
		} else {
			q[len++] = *c;
		}
	}
	q[len++] = '\'';
	q[len] = '\0';
	return q;
}

/* Name j's part of value vi: the whole value, or its j-th ':' field. */
static const char *value_part(const struct sweep_param *sp, int vi, int j, size_t *len)
{
	const char *v = sp->values[vi];

	if (sp->nnames == 1) {
		*len = strlen(v);
		return v;
	}
	for (; j > 0; j--)
		v = strchr(v, ':') + 1;     /* parse_param counted the parts */
	*len = strcspn(v, ":");
	return v;
}

/* {NAME} -> value for every parameter, in one left-to-right pass so that a
 * value containing "{x}" is never substituted again.  quote: for a shell
 * command line (--between), each value as one shell word. */
static char *substitute(const char *s, const struct sweep_plan *p, const int *idx, bool quote)
{
	size_t cap = strlen(s) + 1, len = 0;
	char *out = malloc(cap), *quoted = NULL;

	if (!out)
		return NULL;
	while (*s) {
		const char *val = NULL;
		size_t skip = 1, vlen = 0;
		if (*s == '{') {
			for (int k = 0; k < p->nparams && !val; k++)
				for (int j = 0; j < p->params[k].nnames; j++) {
					size_t n = strlen(p->params[k].names[j]);
					if (!strncmp(s + 1, p->params[k].names[j], n) && s[1 + n] == '}') {
						val = value_part(&p->params[k], idx[k], j, &vlen);
						skip = n + 2;
						break;
					}
				}
		}
		if (val && quote) {
			char *raw = strndup(val, vlen);
			free(quoted);
			quoted = raw ? shell_quote(raw) : NULL;
			free(raw);
			if (!(val = quoted)) {
				free(out);
				return NULL;
			}
			vlen = strlen(val);
		}
		size_t add = val ? vlen : 1;
		if (len + add + 1 > cap) {
			char *no;
			cap = (len + add + 1) * 2;
			if (!(no = realloc(out, cap))) {
				free(out);
				free(quoted);
				return NULL;
			}
			out = no;
		}
		if (val)
			memcpy(out + len, val, add);
		else
			out[len] = *s;
		len += add;
		s += skip;
	}
	out[len] = '\0';
	free(quoted);
	return out;
}

/* IODASH_P_NAME=value for each parameter, in the environment of the run's
 * benchmark and --between command: for a script that would rather not have
 * values on its command line (or is itself sh -c). */
static char **run_env(const struct sweep_plan *p, const int *idx)
{
	int n = 0;

	for (int k = 0; k < p->nparams; k++)
		n += p->params[k].nnames;
	char **env = calloc((size_t)n + 1, sizeof(*env));
	/* one variable per name: a paired -p bg,r=5:10 gives IODASH_P_bg=5
	 * and IODASH_P_r=10 */
	for (int k = 0, e = 0; env && k < p->nparams; k++)
		for (int j = 0; j < p->params[k].nnames; j++) {
			size_t vlen;
			const char *v = value_part(&p->params[k], idx[k], j, &vlen);
			if (asprintf(&env[e], "%s%s=%.*s", SWEEP_ENV_PREFIX, p->params[k].names[j],
				     (int)vlen, v) < 0) {
				env[e] = NULL;
				for (int i = 0; i < e; i++)
					free(env[i]);
				free(env);
				return NULL;
			}
			e++;
		}
	return env;
}

static bool mentions(const char *s, const char *name)
{
	size_t n = strlen(name);
	for (const char *q = s ? strchr(s, '{') : NULL; q; q = strchr(q + 1, '{'))
		if (!strncmp(q + 1, name, n) && q[1 + n] == '}')
			return true;
	return false;
}

/* Is {name} in a --sysctl only, not in the command or --between? */
static bool knob_only(const char *name, const char *const *sysctls, int nsysctls, char *const *argv, int nargs,
		      const char *between)
{
	bool knob = false;
	for (int a = 0; a < nsysctls && !knob; a++)
		knob = mentions(sysctls[a], name);
	if (!knob || mentions(between, name))
		return false;
	for (int a = 0; a < nargs; a++)
		if (mentions(argv[a], name))
			return false;
	return true;
}

/* Is {name} written inside quotes in the shell command s?  A value goes
 * in already quoted as one shell word (substitute): inside '...' its own
 * quotes close the user's, so a value with a quote and $(...) would run
 * that.  Quotes as sh reads them: '...' literal, "..." with \ escapes,
 * \ outside them escaping one character. */
static bool quoted_mention(const char *s, const char *name)
{
	size_t n = strlen(name);
	char q = 0;

	for (; s && *s; s++) {
		if (*s == '\\' && q != '\'' && s[1]) {
			s++;
			continue;
		}
		if (!q && (*s == '\'' || *s == '"'))
			q = *s;
		else if (q && *s == q)
			q = 0;
		else if (q && *s == '{' && !strncmp(s + 1, name, n) && s[1 + n] == '}')
			return true;
	}
	return false;
}

int sweep_plan_build(struct sweep_plan *p, const char *const *params, int nparams,
		     char *const *argv, int nargs, const char *between, int repeat,
		     char *err, size_t errlen)
{
	return sweep_plan_build_knobs(p, params, nparams, argv, nargs, between, NULL, 0,
				      repeat, err, errlen);
}

/* The command a sweep runs at each point: what {NAME} may appear in. */
struct sweep_cmd {
	char *const *argv;
	int nargs;
	const char *between;
	const char *const *sysctls;
	int nsysctls;
};

/* The counts and the shape of every --sysctl, before any -p is read. */
static int sweep_check_args(struct sweep_plan *p, int nparams, const struct sweep_cmd *c, int repeat, char *err,
			    size_t errlen)
{
	if (nparams < 1 || nparams > SWEEP_MAX_PARAMS) {
		snprintf(err, errlen, "sweep needs 1 to %d -p NAME=V1,V2,... options (e.g. -p clients=1,2,4)",
			 SWEEP_MAX_PARAMS);
		return -EINVAL;
	}
	if (c->nargs < 1 || !c->argv || !c->argv[0] || !c->argv[0][0]) {
		snprintf(err, errlen, "sweep needs a command after -- (e.g. -- dbench -t 30 {clients})");
		return -EINVAL;
	}
	if (repeat < 1 || repeat > 10000) {
		snprintf(err, errlen, "--repeat %d: must be 1..10000", repeat);
		return -EINVAL;
	}
	p->repeat = repeat;
	if (c->nsysctls > SWEEP_MAX_SYSCTLS) {
		snprintf(err, errlen, "at most %d --sysctl options", SWEEP_MAX_SYSCTLS);
		return -EINVAL;
	}
	for (int i = 0; i < c->nsysctls; i++) {
		const char *s = c->sysctls[i], *eq = strchr(s, '=');
		if (!eq || eq == s || memchr(s, '{', (size_t)(eq - s))) {
			snprintf(err, errlen, "--sysctl '%s': expected KEY=VALUE with a fixed KEY (e.g. --sysctl vm.dirty_ratio={r})",
				 s);
			return -EINVAL;
		}
	}
	return 0;
}

/* -p number i against the ones before it and the command: a name given
 * twice, bound twice, quoted in --between or used nowhere is a mistake
 * the user must hear of before the first run. */
static int sweep_check_param(const struct sweep_plan *p, int i, const struct sweep_cmd *c, char *err,
			     size_t errlen)
{
	const struct sweep_param *sp = &p->params[i];

	for (int j = 0; j < i; j++)
		if (!strcmp(p->params[j].name, sp->name)) {
			snprintf(err, errlen, "-p %s given twice (put all values in one: -p %s=A,B,C)", sp->name,
				 sp->name);
			return -EINVAL;
		}
	for (int j = 0; j < sp->nnames; j++) {
		const char *nm = sp->names[j];
		if (quoted_mention(c->between, nm)) {
			snprintf(err, errlen, "--between: {%s} is inside quotes; write it bare (iodash puts the value in as one quoted shell word), e.g. --between 'echo {%s} > /tmp/next'",
				 nm, nm);
			return -EINVAL;
		}
		bool used = mentions(c->between, nm);
		for (int a = 0; a < c->nargs && !used; a++)
			used = mentions(c->argv[a], nm);
		for (int a = 0; a < c->nsysctls && !used; a++)
			used = mentions(c->sysctls[a], nm);
		if (!used) {
			snprintf(err, errlen, "-p %s: {%s} appears nowhere in the command (write it where the value goes, e.g. -- dbench -t 30 {%s})",
				 sp->name, nm, nm);
			return -EINVAL;
		}
	}
	for (int j = 0; j < i; j++)
		for (int a = 0; a < sp->nnames; a++)
			for (int k = 0; k < p->params[j].nnames; k++)
				if (!strcmp(p->params[j].names[k], sp->names[a])) {
					snprintf(err, errlen, "-p %s: %s is bound by another -p too", sp->name,
						 sp->names[a]);
					return -EINVAL;
				}
	return 0;
}

/* A run's x (the last -p's last name) and its label's other values. */
static void sweep_run_label(const struct sweep_plan *p, struct sweep_run *r, const int *idx,
			    const struct sweep_cmd *c)
{
	const struct sweep_param *xp = &p->params[p->nparams - 1];
	size_t xl, off = 0;
	const char *xv = value_part(xp, idx[p->nparams - 1], xp->nnames - 1, &xl);

	snprintf(r->x_name, sizeof(r->x_name), "%s", xp->names[xp->nnames - 1]);
	snprintf(r->x_text, sizeof(r->x_text), "%.*s", (int)xl, xv);
	if (util_parse_number(r->x_text, &r->x))
		r->x = idx[p->nparams - 1] + 1;   /* not a number: its position */
	/* the other -p go into the label ("bs=4k"); names paired
	 * with the x are not a curve of their own: x fixes them;
	 * a value only a --sysctl takes is the run's knob
	 * setting, a dimension of its own (the driver gives it
	 * to the results), never folded into the label */
	for (int k = 0; k < p->nparams - 1; k++)
		for (int j = 0; j < p->params[k].nnames; j++) {
			size_t vl;
			const char *v;
			if (knob_only(p->params[k].names[j], c->sysctls, c->nsysctls, c->argv, c->nargs, c->between))
				continue;
			v = value_part(&p->params[k], idx[k], j, &vl);
			int w = snprintf(r->label_extra + off, sizeof(r->label_extra) - off, "%s%s=%.*s",
					 off ? " " : "", p->params[k].names[j], (int)vl, v);
			if (w < 0 || (size_t)w >= sizeof(r->label_extra) - off)
				break;
			off += (size_t)w;
		}
}

/* The next run of the plan: point pt of pass, its values substituted
 * into the command, the environment, --between and the --sysctl. */
static int sweep_add_run(struct sweep_plan *p, int pass, long pt, const struct sweep_cmd *c)
{
	struct sweep_run *r = &p->runs[p->nruns];
	int idx[SWEEP_MAX_PARAMS];
	long rest = pt;

	/* last parameter fastest */
	for (int k = p->nparams - 1; k >= 0; k--) {
		idx[k] = (int)(rest % p->params[k].nvalues);
		rest /= p->params[k].nvalues;
	}
	r->pass = pass;
	r->point = (int)pt;
	sweep_run_label(p, r, idx, c);
	r->argv = calloc((size_t)c->nargs + 1, sizeof(char *));
	if (!r->argv)
		return -ENOMEM;
	p->nruns++;   /* from here sweep_plan_free frees what it holds */
	for (int a = 0; a < c->nargs; a++)
		if (!(r->argv[a] = substitute(c->argv[a], p, idx, false)))
			return -ENOMEM;
	if (!(r->env = run_env(p, idx)) || (c->between && !(r->between = substitute(c->between, p, idx, true))))
		return -ENOMEM;
	for (int a = 0; a < c->nsysctls; a++)
		if (!(r->sysctls[a] = substitute(c->sysctls[a], p, idx, false)))
			return -ENOMEM;
	return 0;
}

int sweep_plan_build_knobs(struct sweep_plan *p, const char *const *params, int nparams,
			   char *const *argv, int nargs, const char *between,
			   const char *const *sysctls, int nsysctls, int repeat,
			   char *err, size_t errlen)
{
	const struct sweep_cmd c = { argv, nargs, between, sysctls, nsysctls };
	long npoints = 1, total;
	int rc;

	memset(p, 0, sizeof(*p));
	if ((rc = sweep_check_args(p, nparams, &c, repeat, err, errlen)))
		return rc;
	for (int i = 0; i < nparams; i++) {
		if ((rc = parse_param(params[i], &p->params[i], err, errlen)))
			goto fail;
		p->nparams++;
		if ((rc = sweep_check_param(p, i, &c, err, errlen)))
			goto fail;
		npoints *= p->params[i].nvalues;
		if (npoints > SWEEP_MAX_RUNS)
			break;
	}
	total = npoints * repeat;
	if (npoints > SWEEP_MAX_RUNS || total > SWEEP_MAX_RUNS) {
		snprintf(err, errlen, "the sweep would have more than %d runs", SWEEP_MAX_RUNS);
		rc = -EINVAL;
		goto fail;
	}
	p->runs = calloc((size_t)total, sizeof(*p->runs));
	if (!p->runs)
		goto nomem;
	for (int pass = 0; pass < repeat; pass++)
		for (long pt = 0; pt < npoints; pt++)
			if (sweep_add_run(p, pass, pt, &c))
				goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "sweep: out of memory");
	rc = -ENOMEM;
fail:
	sweep_plan_free(p);
	return rc;
}

void sweep_plan_free(struct sweep_plan *p)
{
	for (int i = 0; i < p->nruns; i++) {
		if (p->runs[i].argv)
			for (int a = 0; p->runs[i].argv[a]; a++)
				free(p->runs[i].argv[a]);
		free(p->runs[i].argv);
		free(p->runs[i].between);
		for (int e = 0; p->runs[i].env && p->runs[i].env[e]; e++)
			free(p->runs[i].env[e]);
		free(p->runs[i].env);
		for (int a = 0; p->runs[i].sysctls[a]; a++)
			free(p->runs[i].sysctls[a]);
	}
	free(p->runs);
	p->runs = NULL;
	p->nruns = 0;
	for (int i = 0; i < p->nparams; i++)
		free_param(&p->params[i]);
	p->nparams = 0;
}

double sweep_eta(const double *durations, int ndone, int total, double current_elapsed)
{
	double sum = 0, mean, eta;
	int left;

	if (ndone <= 0)
		return -1;
	for (int i = 0; i < ndone; i++)
		sum += durations[i];
	mean = sum / ndone;
	left = total - ndone;
	if (left <= 0)
		return 0;
	eta = mean * left - current_elapsed;
	/* the current run overran the mean: at least the rest of the others */
	if (eta < mean * (left - 1))
		eta = mean * (left - 1);
	return eta < 0 ? 0 : eta;
}

/* ---- sweep --until-decided ------------------------------------------------ */

/* The knobs of a run as compare reads them: "KEY=V,KEY=V" (the driver's
 * emit_result writes the same into each result point). */
static void run_setting(const struct sweep_run *r, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < SWEEP_MAX_SYSCTLS && r->sysctls[i]; i++) {
		int w = snprintf(buf + off, len - off, "%s%s", off ? "," : "", r->sysctls[i]);
		if (w < 0 || (size_t)w >= len - off) {
			buf[off] = '\0';
			break;
		}
		off += (size_t)w;
	}
}

/* --baseline NAME=VALUE: each point whose -p NAME is not VALUE is
 * compared with the point that has VALUE there and the same other
 * values.  Points are numbered with the last -p fastest (sweep_add_run). */
static int decider_link_refs(struct sweep_decider *d, const char *spec, char *err, size_t errlen)
{
	const struct sweep_plan *p = d->plan;
	const char *eq = strchr(spec, '=');
	int k = -1, j = -1;
	long stride = 1;

	for (int i = 0; eq && i < p->nparams && k < 0; i++)
		if (strlen(p->params[i].name) == (size_t)(eq - spec) && !strncmp(p->params[i].name, spec, (size_t)(eq - spec)))
			k = i;
	for (int v = 0; k >= 0 && v < p->params[k].nvalues && j < 0; v++)
		if (!strcmp(p->params[k].values[v], eq + 1))
			j = v;
	if (k < 0 || j < 0 || p->params[k].nvalues < 2) {
		snprintf(err, errlen, "--baseline %s: not a value of a -p with two values or more (e.g. -p r=10,40 --baseline r=10)",
			 spec);
		return -EINVAL;
	}
	for (int i = p->nparams - 1; i > k; i--)
		stride *= p->params[i].nvalues;
	for (int pt = 0; pt < d->npoints; pt++) {
		int idx = (int)(pt / stride % p->params[k].nvalues);
		if (idx == j)
			d->pts[pt].is_ref = true;
		else
			d->pts[pt].ref = (int)(pt + (j - idx) * stride);
	}
	return 0;
}

int sweep_decider_init(struct sweep_decider *d, struct sweep_plan *p, const struct sweep_decide_config *cfg,
		       char *err, size_t errlen)
{
	const struct decide_config *c = &cfg->dc;
	int rc;

	memset(d, 0, sizeof(*d));
	if (c->min_repeat < 2 || c->max_repeat < c->min_repeat || p->repeat != c->max_repeat) {
		snprintf(err, errlen, "--until-decided: --min-repeat %d, --max-repeat %d: need 2 <= min <= max",
			 c->min_repeat, c->max_repeat);
		return -EINVAL;
	}
	d->plan = p;
	d->cfg = *cfg;
	d->npoints = p->nruns / p->repeat;
	d->cur = d->last = -1;
	if (cfg->metric)
		snprintf(d->metric, sizeof(d->metric), "%s", cfg->metric);
	if (!(d->pts = calloc((size_t)d->npoints, sizeof(*d->pts))))
		goto nomem;
	for (int i = 0; i < d->npoints; i++) {
		struct sweep_decide_point *pt = &d->pts[i];
		if (!(pt->values = calloc((size_t)c->max_repeat, sizeof(double))) ||
		    !(pt->value_run = calloc((size_t)c->max_repeat, sizeof(int))) ||
		    !(pt->outlier_said = calloc((size_t)c->max_repeat, sizeof(bool))))
			goto nomem;
		decide_seq_init(&pt->seq, c->alpha);
		decide_precision(c, &pt->arm, &pt->v);
		run_setting(&p->runs[i], pt->setting, sizeof(pt->setting));
		pt->ref = -1;
	}
	if (cfg->baseline_param && (rc = decider_link_refs(d, cfg->baseline_param, err, errlen))) {
		sweep_decider_free(d);
		return rc;
	}
	return 0;
nomem:
	sweep_decider_free(d);
	snprintf(err, errlen, "--until-decided: out of memory");
	return -ENOMEM;
}

void sweep_decider_free(struct sweep_decider *d)
{
	for (int i = 0; d->pts && i < d->npoints; i++) {
		free(d->pts[i].values);
		free(d->pts[i].value_run);
		free(d->pts[i].outlier_said);
	}
	free(d->pts);
	d->pts = NULL;
}

/* How far point i is from its decision (decide_point.need). */
static double point_need(const struct sweep_decider *d, int i)
{
	const struct sweep_decide_point *pt = &d->pts[i];
	const struct decide_verdict *v = &pt->v;

	if (pt->arm.n < d->cfg.dc.min_repeat)
		return INFINITY;
	if (v->compared) {
		double c = fabs(v->change_pct), room = fmax(c, d->cfg.dc.min_change_pct - c);
		return room > 0 && !isnan(v->change_half_pct) ? v->change_half_pct / room : INFINITY;
	}
	return isnan(v->half_pct) ? INFINITY : v->half_pct / d->cfg.dc.ci_pct;
}

static void sched_points(const struct sweep_decider *d, struct decide_point *sp)
{
	for (int i = 0; i < d->npoints; i++) {
		const struct sweep_decide_point *pt = &d->pts[i];
		sp[i] = (struct decide_point){ .done = pt->done || pt->passes >= d->cfg.dc.max_repeat,
					       .n = pt->passes, .need = pt->is_ref ? 0 : point_need(d, i) };
	}
	/* a comparison within the sweep: its next run goes to the side
	 * with fewer runs (equal runs a side give the most for the runs) */
	for (int i = 0; i < d->npoints; i++) {
		int r = d->pts[i].ref;
		if (r < 0 || sp[i].done || sp[r].done || d->pts[i].arm.n <= d->pts[r].arm.n)
			continue;
		sp[r].need = fmax(sp[r].need, sp[i].need);
		sp[i].done = true;
	}
}

int sweep_decider_runs_left(const struct sweep_decider *d)
{
	struct decide_point *sp = calloc((size_t)d->npoints, sizeof(*sp));
	int left = 0;

	if (!sp)
		return 0;
	sched_points(d, sp);
	for (int i = 0; i < d->npoints; i++)
		if (!sp[i].done)
			left += sp[i].n < d->cfg.dc.min_repeat ? d->cfg.dc.min_repeat - sp[i].n :
				decide_runs_left(&sp[i], d->cfg.dc.max_repeat);
	free(sp);
	return left;
}

int sweep_decider_next(struct sweep_decider *d, int seq, double elapsed_s, double mean_run_s,
		       char *note, size_t notelen)
{
	struct decide_point *sp;
	int pick, pass;

	note[0] = '\0';
	if (d->budget_spent || seq >= d->plan->nruns)
		return -1;
	if (d->cfg.budget_s > 0 && mean_run_s > 0 && elapsed_s + mean_run_s > d->cfg.budget_s) {
		int open = 0;
		for (int i = 0; i < d->npoints; i++)
			open += !d->pts[i].done;
		d->budget_spent = true;
		if (open)
			snprintf(note, notelen, "--budget %.0f s: %.0f s spent, a run takes %.0f s: %d point%s left undecided",
				 d->cfg.budget_s, elapsed_s, mean_run_s, open, open == 1 ? "" : "s");
		return -1;
	}
	if (!(sp = calloc((size_t)d->npoints, sizeof(*sp))))
		return -1;
	sched_points(d, sp);
	/* a failed run is retried at once: the point of the run before */
	if (d->last >= 0 && d->pts[d->last].fails_in_row == 1 && !sp[d->last].done)
		pick = d->last;
	else
		pick = decide_pick_next(sp, d->npoints, d->cfg.dc.min_repeat, d->last);
	free(sp);
	if (pick < 0)
		return -1;
	pass = d->pts[pick].passes;
	for (int j = seq; j < d->plan->nruns; j++)
		if (d->plan->runs[j].point == pick && d->plan->runs[j].pass == pass) {
			struct sweep_run tmp = d->plan->runs[seq];
			d->plan->runs[seq] = d->plan->runs[j];
			d->plan->runs[j] = tmp;
			d->cur = pick;
			d->got_value = false;
			d->refused[0] = '\0';
			d->pts[pick].passes++;
			return pick;
		}
	return -1;
}

/* A run's value: its final point of the metric, or the mean of its
 * points of the metric under the label of the first (a fio job's clones,
 * numjobs without group_reporting, give a clat_avg each); points of other
 * labels (another job of the run) are not its value. */
void sweep_decider_result(struct sweep_decider *d, const struct result_point *p)
{
	double v;

	if (d->cur < 0 || (d->got_value && strcmp(p->label, d->value_label)))
		return;
	if (!d->metric[0])
		snprintf(d->metric, sizeof(d->metric), "%s", p->metric);
	if (strcmp(p->metric, d->metric) || !isfinite(p->value))
		return;
	if (!d->have_unit) {
		d->have_unit = true;
		snprintf(d->unit, sizeof(d->unit), "%s", p->unit);
	}
	if (!units_convert_value(p->value, p->unit, d->unit, &v)) {
		snprintf(d->refused, sizeof(d->refused), "%s", p->unit);
		return;
	}
	if (!d->got_value) {
		d->value_sum = 0;
		d->value_n = 0;
		snprintf(d->value_label, sizeof(d->value_label), "%s", p->label);
	}
	d->value_sum += v;
	d->value_n++;
	d->value = d->value_sum / d->value_n;
	d->got_value = true;
}

/* The baseline's runs at point i: the final values of the metric at its
 * x, under its setting, whose label ends in its other parameters. */
static void build_base(struct sweep_decider *d, int i)
{
	struct sweep_decide_point *pt = &d->pts[i];
	const struct sweep_run *r = NULL;
	const struct result_set *rs = d->cfg.baseline;

	if (pt->base_built || !rs || !d->metric[0])
		return;
	for (int j = 0; j < d->plan->nruns && !r; j++)
		if (d->plan->runs[j].point == i)
			r = &d->plan->runs[j];
	pt->base_built = true;
	for (size_t k = 0; r && k < rs->n; k++) {
		const struct result_point *q = &rs->v[k];
		size_t ll = strlen(q->label), el = strlen(r->label_extra);
		double v;
		if (strcmp(q->metric, d->metric) || q->x != r->x || strcmp(q->setting, pt->setting) ||
		    (q->flags & (RP_PROGRESS | RP_INCOMPLETE | RP_TOO_FAST)) || !isfinite(q->value))
			continue;
		if (el && (ll <= el || strcmp(q->label + ll - el, r->label_extra) || q->label[ll - el - 1] != ' '))
			continue;
		if (!d->have_unit) {
			d->have_unit = true;
			snprintf(d->unit, sizeof(d->unit), "%s", q->unit);
		}
		/* in the runs' unit; one that does not convert is not theirs */
		if (units_convert_value(q->value, q->unit, d->unit, &v))
			decide_arm_add(&pt->base, v);
	}
}

/* Is baseline point r still wanted by a comparison not yet decided? */
static bool ref_wanted(const struct sweep_decider *d, int r)
{
	for (int i = 0; i < d->npoints; i++)
		if (d->pts[i].ref == r && !d->pts[i].done)
			return true;
	return false;
}

/* The point's verdict from its values (and the baseline's). */
static void judge(struct sweep_decider *d, int i)
{
	struct sweep_decide_point *pt = &d->pts[i];
	const struct decide_config *c = &d->cfg.dc;

	const struct decide_arm *base = &pt->base;
	int max_base;

	build_base(d, i);
	max_base = pt->base.n;
	if (pt->ref >= 0) {
		base = &d->pts[pt->ref].arm;
		max_base = c->max_repeat;
	}
	if (base->n >= 2 && pt->arm.n >= c->min_repeat && base->n >= (pt->ref >= 0 ? c->min_repeat : 2)) {
		double t = decide_info_fraction(pt->arm.n, base->n, c->max_repeat, max_base);
		double z = decide_seq_look(&pt->seq, t);
		decide_compare(c, &pt->arm, base, z, &pt->v);
		decide_intervals(&pt->v, &pt->arm);
	} else {
		decide_precision(c, &pt->arm, &pt->v);
		/* with a baseline to compare with, precision alone does not end it */
		if ((pt->base.n >= 2 || pt->ref >= 0) && pt->v.state == DECIDE_PRECISE)
			pt->v.state = DECIDE_UNDECIDED;
	}
	if (pt->v.state == DECIDE_UNDECIDED && pt->passes >= c->max_repeat)
		pt->v.state = DECIDE_OPEN;
	if (pt->fails_in_row >= 2)
		pt->v.state = DECIDE_FAILED;
	pt->done = pt->v.state != DECIDE_UNDECIDED;
	if (pt->is_ref && pt->v.state != DECIDE_FAILED && pt->passes < c->max_repeat)
		pt->done = !ref_wanted(d, i);
}

static void point_event(const struct sweep_decider *d, int i, char *buf, size_t len)
{
	const struct sweep_decide_point *pt = &d->pts[i];
	const struct sweep_run *r = NULL;
	struct decide_event e = { 0 };
	bool out[256];

	for (int j = 0; j < d->plan->nruns && !r; j++)
		if (d->plan->runs[j].point == i)
			r = &d->plan->runs[j];
	snprintf(e.x_name, sizeof(e.x_name), "%s", r->x_name);
	snprintf(e.x_text, sizeof(e.x_text), "%s", r->x_text);
	e.x = r->x;
	e.state = pt->v.state;
	decide_describe(&d->cfg.dc, &pt->v, e.what, sizeof(e.what));
	e.runs = pt->passes;
	e.values = pt->arm.n;
	e.failed = pt->failed;
	e.outliers = decide_outliers(pt->values, pt->arm.n, out);
	e.mean = pt->arm.mean;
	e.half = pt->v.half_pct;
	e.change = pt->v.compared ? pt->v.change_pct : NAN;
	e.change_half = pt->v.compared ? pt->v.change_half_pct : NAN;
	snprintf(e.metric, sizeof(e.metric), "%s", d->metric);
	snprintf(e.setting, sizeof(e.setting), "%s", pt->setting);
	snprintf(e.label, sizeof(e.label), "%s", r->label_extra);
	decide_event_format(&e, buf, len);
}

int sweep_decider_end(struct sweep_decider *d, bool ok, char lines[][SWEEP_DECIDE_LINE_LEN], bool *kinds)
{
	int i = d->cur, n = 0;
	struct sweep_decide_point *pt;
	const struct sweep_run *r;

	if (i < 0)
		return 0;
	pt = &d->pts[i];
	r = &d->plan->runs[0];
	for (int j = 0; j < d->plan->nruns; j++)
		if (d->plan->runs[j].point == i) {
			r = &d->plan->runs[j];
			break;
		}
	d->last = i;
	d->cur = -1;
	if (ok && d->got_value) {
		pt->fails_in_row = 0;
		pt->values[pt->arm.n] = d->value;
		pt->value_run[pt->arm.n] = pt->passes;
		decide_arm_add(&pt->arm, d->value);
		/* every run the spread now makes an outlier is named once, the
		 * newest or an earlier one that more runs showed up */
		bool out[256];
		decide_outliers(pt->values, pt->arm.n, out);
		for (int k = 0; k < pt->arm.n && n < SWEEP_DECIDE_LINES - 4; k++) {
			if (!out[k] || pt->outlier_said[k])
				continue;
			pt->outlier_said[k] = true;
			kinds[n] = false;
			snprintf(lines[n++], SWEEP_DECIDE_LINE_LEN,
				 "%s%s%s=%s: run %d's %s %.6g is an outlier (more than 3.5 robust sigmas from the median): kept",
				 r->label_extra, r->label_extra[0] ? " " : "", r->x_name, r->x_text, pt->value_run[k],
				 d->metric, pt->values[k]);
		}
	} else {
		pt->failed++;
		pt->fails_in_row++;
		kinds[n] = false;
		char why[RP_NAME_LEN + 3 * RP_UNIT_LEN + 64];
		if (ok && d->refused[0])
			snprintf(why, sizeof(why), "%s in %s, which does not convert to the first run's %s",
				 d->metric, d->refused, d->unit[0] ? d->unit : "no unit");
		else
			snprintf(why, sizeof(why), "%s", d->metric[0] ? d->metric : "no metric yet");
		snprintf(lines[n++], SWEEP_DECIDE_LINE_LEN, "%s%s%s=%s: run failed%s (%s)%s", r->label_extra,
			 r->label_extra[0] ? " " : "", r->x_name, r->x_text,
			 ok ? " to give a value" : "", why,
			 pt->fails_in_row == 1 && pt->passes < d->cfg.dc.max_repeat ? ": retried once" :
			 pt->fails_in_row >= 2 ? ": failed twice in a row, no more runs here" : "");
	}
	judge(d, i);
	/* a run of a baseline point is a look for each comparison with it */
	for (int k = 0; pt->is_ref && k < d->npoints && n < SWEEP_DECIDE_LINES - 2; k++)
		if (d->pts[k].ref == i && !d->pts[k].done && d->pts[k].arm.n >= d->cfg.dc.min_repeat) {
			judge(d, k);
			kinds[n] = true;
			point_event(d, k, lines[n++], SWEEP_DECIDE_LINE_LEN);
		}
	if (pt->is_ref || pt->ref >= 0)
		judge(d, pt->is_ref ? i : pt->ref);
	if (pt->done && !pt->drift_said && decide_drift(&pt->arm)) {
		pt->drift_said = true;
		kinds[n] = false;
		snprintf(lines[n++], SWEEP_DECIDE_LINE_LEN,
			 "%s%s%s=%s: drift? the first run (%.6g) and the last (%.6g) differ by more than the 95 %% "
			 "interval of two runs' difference", r->label_extra, r->label_extra[0] ? " " : "", r->x_name,
			 r->x_text, pt->arm.first, pt->arm.last);
	}
	kinds[n] = true;
	point_event(d, i, lines[n++], SWEEP_DECIDE_LINE_LEN);
	return n;
}

int sweep_decider_summary(const struct sweep_decider *d, char lines[][SWEEP_DECIDE_LINE_LEN])
{
	int count[DECIDE_FAILED + 1] = { 0 }, runs = 0, n = 0, refs = 0;
	size_t off = 0;
	char rb[48] = "";

	for (int i = 0; i < d->npoints; i++) {
		int s = d->pts[i].done ? (int)d->pts[i].v.state : DECIDE_OPEN;
		runs += d->pts[i].passes;
		if (d->pts[i].is_ref)
			refs++;
		else
			count[s]++;
	}
	if (refs)
		snprintf(rb, sizeof(rb), " (and %d baseline point%s)", refs, refs == 1 ? "" : "s");
	snprintf(lines[n++], SWEEP_DECIDE_LINE_LEN,
		 "until-decided: %d points%s in %d runs: %d precise, %d different, %d equal, %d open, %d failed%s",
		 d->npoints - refs, rb, runs, count[DECIDE_PRECISE], count[DECIDE_DIFFERENT], count[DECIDE_EQUAL],
		 count[DECIDE_OPEN] + count[DECIDE_UNDECIDED], count[DECIDE_FAILED],
		 d->budget_spent ? " (budget spent)" : "");
	/* the run order, as the points' numbers when the x does not name a
	 * point alone (the run_start events say the rest), else as x values */
	off = (size_t)snprintf(lines[n], SWEEP_DECIDE_LINE_LEN, "until-decided: run order%s",
			       d->plan->nparams > 1 ? " (points numbered from 1, the last -p fastest)" : "");
	for (int j = 0; j < runs && j < d->plan->nruns && off < SWEEP_DECIDE_LINE_LEN - 1; j++) {
		int w = d->plan->nparams > 1 ?
			snprintf(lines[n] + off, SWEEP_DECIDE_LINE_LEN - off, " %d", d->plan->runs[j].point + 1) :
			snprintf(lines[n] + off, SWEEP_DECIDE_LINE_LEN - off, " %s", d->plan->runs[j].x_text);
		if (w < 0 || (size_t)w >= SWEEP_DECIDE_LINE_LEN - off) {
			lines[n][off] = '\0';
			break;
		}
		off += (size_t)w;
	}
	n++;
	return n;
}
