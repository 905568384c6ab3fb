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
