/* compare: recordings and text files side by side.  The runs of a label
 * are renumbered across sources, so three files of one kernel are three
 * runs of that label, not three "run 0"s that would be pooled as one. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iodash/record/recording.h"
#include "iodash/results/compare.h"
#include "iodash/results/emit.h"
#include "iodash/probe/knobs.h"
#include "record/rec_format.h"
#include "iodash/parsers/parser.h"
#include "iodash/results/runsum.h"
#include "iodash/parsers/units.h"
#include "iodash/base/text.h"
#include "iodash/base/util.h"

#define KNOB_VAL 40

struct run_key {
	size_t src;
	char label[RP_LABEL_LEN];
	int run;
	int newrun;
};

struct renum {
	struct run_key *v;
	size_t n, cap;
};

static int renumber(struct renum *rn, size_t src, struct result_point *p)
{
	int next = 0;

	for (size_t i = 0; i < rn->n; i++) {
		struct run_key *k = &rn->v[i];
		if (strcmp(k->label, p->label))
			continue;
		if (k->src == src && k->run == p->run) {
			p->run = k->newrun;
			return 0;
		}
		if (k->newrun >= next)
			next = k->newrun + 1;
	}
	if (rn->n == rn->cap) {
		size_t nc = rn->cap ? rn->cap * 2 : 16;
		struct run_key *nv = realloc(rn->v, nc * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		rn->v = nv;
		rn->cap = nc;
	}
	rn->v[rn->n] = (struct run_key){ .src = src, .run = p->run, .newrun = next };
	memcpy(rn->v[rn->n].label, p->label, RP_LABEL_LEN);
	rn->n++;
	p->run = next;
	return 0;
}

static int add_run(struct compare_data *cd, const struct recording *rec, const char *label,
		   int index, double t0, double t1, int exit_status)
{
	size_t first = recording_find(rec, RK_SAMPLE, t0), last = recording_find(rec, RK_SAMPLE, t1);
	size_t total, stride, n = 0;
	struct compare_run *r, *nv;
	struct sample *s;

	first = first == (size_t)-1 ? 0 : first;
	if (last == (size_t)-1 || last < first)
		return 0;
	nv = realloc(cd->runs, (cd->nruns + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	cd->runs = nv;
	r = &cd->runs[cd->nruns];
	memset(r, 0, sizeof(*r));
	snprintf(r->label, sizeof(r->label), "%s", label);
	snprintf(r->source, sizeof(r->source), "%s", recording_path(rec));
	r->index = index;
	r->exit_status = exit_status;
	r->t0 = t0;
	r->t1 = t1;
	total = last - first + 1;
	stride = (total + COMPARE_RUN_MAX_POINTS - 1) / COMPARE_RUN_MAX_POINTS;
	r->t = calloc(COMPARE_RUN_MAX_POINTS, sizeof(double));
	r->dirty_kb = calloc(COMPARE_RUN_MAX_POINTS, sizeof(double));
	r->thresh_kb = calloc(COMPARE_RUN_MAX_POINTS, sizeof(double));
	r->tput_kBps = calloc(COMPARE_RUN_MAX_POINTS, sizeof(double));
	r->freerun_kb = calloc(COMPARE_RUN_MAX_POINTS, sizeof(double));
	r->bg_kb = calloc(COMPARE_RUN_MAX_POINTS, sizeof(double));
	s = calloc(1, sizeof(*s));
	cd->nruns++;     /* counted now so compare_free frees the arrays */
	if (!r->t || !r->dirty_kb || !r->thresh_kb || !r->tput_kBps || !r->freerun_kb || !r->bg_kb || !s) {
		free(s);
		return -ENOMEM;
	}
	for (size_t i = first; i <= last && n < COMPARE_RUN_MAX_POINTS; i += stride) {
		double tp = 0;
		if (recording_sample(rec, i, s))
			continue;   /* damaged: never written */
		r->t[n] = s->t - t0;
		r->dirty_kb[n] = s->have_dirty ? (double)(s->dirty_kb + s->writeback_kb) : NAN;
		r->thresh_kb[n] = (double)s->thresh_kb;
		r->freerun_kb[n] = s->have_dirty ? (double)s->freerun_kb : NAN;
		r->bg_kb[n] = s->have_dirty ? (double)s->bg_thresh_kb : NAN;
		for (int d = 0; d < s->ndisks; d++)
			if (!s->disks[d].is_partition)   /* its disk counts it already */
				tp += s->disks[d].rkB_s + s->disks[d].wkB_s;
		r->tput_kBps[n] = tp;
		n++;
	}
	r->n = n;
	sample_free(s);
	free(s);
	return 0;
}

/* The run's setting from the knobs it started with: the driver lists the
 * keys it set first, then their twins the kernel zeroed
 * (vm.dirty_ratio=10 ... vm.dirty_bytes=0); the twins are dropped, so
 * recordings made before the setting was a dimension read the same. */
static void run_setting(struct compare_run *r)
{
	char copy[MODEL_LINE_LEN], keys[16][KNOB_VAL], *save = NULL;
	size_t off = 0, nkeys = 0;

	snprintf(copy, sizeof(copy), "%s", r->knobs);
	r->setting[0] = '\0';
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');
		bool twin = false;
		if (!eq || nkeys == 16)
			continue;
		*eq = '\0';
		for (size_t i = 0; i < nkeys && !twin; i++)
			twin = knobs_twin(keys[i]) && !strcmp(knobs_twin(keys[i]), w);
		if (twin)
			continue;
		snprintf(keys[nkeys++], KNOB_VAL, "%s", w);
		/* bytes as typed: the kernel's 134217728 was "128M" */
		char val[KNOB_VAL];
		snprintf(val, sizeof(val), "%s", eq + 1);
		if (val[0] && strspn(val, "0123456789") == strlen(val) && strlen(val) < 19)
			compare_format_x(val, sizeof(val), strtod(val, NULL));
		int n = snprintf(r->setting + off, sizeof(r->setting) - off, "%s%s=%s", off ? "," : "", w, val);
		if (n < 0 || (size_t)n >= sizeof(r->setting) - off) {
			r->setting[off] = '\0';
			break;
		}
		off += (size_t)n;
	}
}

/* What the driver said around run_start event i: the knobs the run
 * started with (the "... knobs: " event just before it) and its
 * run_summary (before the next run_start). */
static void run_details(struct compare_run *r, const struct recording *rec, size_t start)
{
	size_t ne = recording_count(rec, RK_EVENT);
	struct model_event e;

	for (size_t j = start; j-- > 0;) {
		if (recording_event(rec, j, &e))
			continue;
		if (e.kind == MEV_RUN_END || e.kind == MEV_RUN_START)
			break;
		const char *k = strstr(e.text, " knobs: ");
		if (e.kind == MEV_KNOB && k && !strchr(e.text, '>')) {
			snprintf(r->knobs, sizeof(r->knobs), "%s", k + 8);
			run_setting(r);
			break;
		}
	}
	for (size_t j = start + 1; j < ne; j++) {
		if (recording_event(rec, j, &e))
			continue;
		if (e.kind == MEV_RUN_START)
			break;
		if (e.kind == MEV_RUN_SUMMARY && runsum_parse(e.text, &r->sum) == 0) {
			r->have_summary = true;
			break;
		}
	}
}

static int add_span(struct compare_run *r, double a, double b)
{
	struct compare_span *nv;

	a = a < r->t0 ? r->t0 : a;
	b = b > r->t1 ? r->t1 : b;
	if (b <= a)
		return 0;
	nv = realloc(r->throttled, (r->nthrottled + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	r->throttled = nv;
	nv[r->nthrottled].t0 = a - r->t0;
	nv[r->nthrottled++].t1 = b - r->t0;
	return 0;
}

/* The throttle episodes that overlap run r: the hit_start/hit_end events
 * of the whole recording (an episode may begin in the run before), each
 * clipped to the run.  One left open at the end of the recording runs to
 * the end of r. */
static int run_throttled(struct compare_run *r, const struct recording *rec)
{
	size_t ne = recording_count(rec, RK_EVENT);
	struct model_event e;
	double open = NAN;
	int rc;

	for (size_t j = 0; j < ne; j++) {
		if (recording_event(rec, j, &e))
			continue;
		if (e.t > r->t1 && isnan(open))
			break;
		if (e.kind == MEV_HIT_START && isnan(open)) {
			open = e.t;
		} else if (e.kind == MEV_HIT_END && !isnan(open)) {
			if ((rc = add_span(r, open, e.t)))
				return rc;
			open = NAN;
		}
	}
	return isnan(open) ? 0 : add_span(r, open, r->t1);
}

/* The runs of a recording: from each run_start event to its run_end (or
 * the end); a recording without run events is one run. */
static int load_runs(struct compare_data *cd, const struct recording *rec, const char *deflabel)
{
	size_t ne = recording_count(rec, RK_EVENT), ns = recording_count(rec, RK_SAMPLE);
	double tend = ns ? recording_time(rec, RK_SAMPLE, ns - 1) : 0;
	struct model_event e;
	int index = 0, rc;
	bool any = false;

	for (size_t i = 0; i < ne; i++) {
		double t0, t1 = tend;
		int status = -1;
		bool stopped = false;
		char label[RP_LABEL_LEN];
		struct bench_status b;
		size_t bi;

		if (recording_event(rec, i, &e) || e.kind != MEV_RUN_START)
			continue;
		any = true;
		t0 = e.t;
		for (size_t j = i + 1; j < ne; j++) {
			struct model_event e2;
			if (recording_event(rec, j, &e2))
				continue;
			if (e2.kind == MEV_RUN_START)
				break;
			if (e2.kind == MEV_RUN_END) {
				t1 = e2.t;
				stopped = model_run_end_stopped(e2.text);
				break;
			}
		}
		snprintf(label, sizeof(label), "%s", deflabel);
		/* the driver's status during the run has the run's label */
		bi = recording_find(rec, RK_BENCH, t1);
		if (bi != (size_t)-1 && !recording_bench(rec, bi, &b)) {
			if (b.label[0])
				snprintf(label, sizeof(label), "%s", b.label);
			status = b.last_exit_status;
		}
		/* ... but the run_start event names it for sure ("run 1/4
		 * [LABEL] CMD"): at t1 the status may already be the next run's */
		const char *lb = strchr(e.text, '['), *rb = lb ? strstr(lb, "] ") : NULL;
		if (lb && rb && rb - lb - 1 < RP_LABEL_LEN)
			snprintf(label, sizeof(label), "%.*s", (int)(rb - lb - 1), lb + 1);
		if ((rc = add_run(cd, rec, label, index++, t0, t1, status)))
			return rc;
		cd->runs[cd->nruns - 1].stopped = stopped;
		run_details(&cd->runs[cd->nruns - 1], rec, i);
		if ((rc = run_throttled(&cd->runs[cd->nruns - 1], rec)))
			return rc;
	}
	if (!any && ns) {
		if ((rc = add_run(cd, rec, deflabel, 0, recording_time(rec, RK_SAMPLE, 0), tend, -1)))
			return rc;
		return cd->nruns ? run_throttled(&cd->runs[cd->nruns - 1], rec) : 0;
	}
	return 0;
}

/* The labels, for an error message: those of the sources (one each). */
static void list_labels(const struct compare_data *cd, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < cd->nlabels && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s\"%s\"", o ? ", " : "", cd->labels[i].label);
}

/* The label of a text source's own points: its file name, or, when an
 * earlier source of another path has the same file name (6.1/fio.json and
 * 6.2/fio.json), its directory and file name, so that two sources never
 * pool as runs of one label by accident of their names. */
static void text_label(char *const *paths, int s, char *lab, size_t len)
{
	char mine[RP_LABEL_LEN], other[RP_LABEL_LEN];
	bool clash = false;

	parser_default_label(paths[s], mine, sizeof(mine));
	for (int t = 0; t < s && !clash; t++)
		clash = strcmp(paths[t], paths[s]) && !strcmp(parser_default_label(paths[t], other, sizeof(other)), mine);
	snprintf(lab, len, "%s", mine);
	if (clash) {
		char dir[256], *d = dir;
		snprintf(dir, sizeof(dir), "%s", paths[s]);
		char *slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			slash = strrchr(dir, '/');
			d = slash ? slash + 1 : dir;
			if (*d)
				snprintf(lab, len, "%.*s/%s", (int)(len / 2), d, mine);
		}
	}
}

/* -l LABEL as recorded; else the kernel in place of the command name
 * (the first word of a driver's label), keeping the swept parameters. */
static void default_label(const struct rec_header *h, const char *label, char *out)
{
	char tmp[RP_LABEL_LEN];
	const char *sp = strchr(label, ' ');

	if (h->label[0] || !h->kernel[0])
		return;
	snprintf(tmp, sizeof(tmp), "%.40s%s", h->kernel, sp ? sp : "");
	memcpy(out, tmp, RP_LABEL_LEN);
}

/* A run's own figures as points (COMPARE_RUN_METRIC_PREFIX), at the x
 * of its results when it has any, else x "run" 1. */
static int add_run_points(struct result_set *rs, const struct compare_run *r, const char *x_name, double x,
			  size_t *n)
{
	const struct run_summary *u = &r->sum;
	const struct { const char *metric, *unit; bool have; double v; } f[] = {
		{ "run_dev_Bps", "B/s", u->have_disks, u->device_Bps },
		{ "run_rep_Bps", "B/s", u->have_reported, u->reported_Bps },
		{ "run_inflation", "", isfinite(u->inflation), u->inflation },
		{ "run_secs", "s", u->secs > 0, u->secs },
		{ "run_throttled_pct", "%", true, u->throttled_pct },
		{ "run_peak_dirty_kB", "kB", u->have_dirty, (double)u->peak_kB },
		{ "run_freerun_kB", "kB", u->have_dirty, (double)u->freerun_kB },
		{ "run_thresh_kB", "kB", u->have_dirty, (double)u->thresh_kB },
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		struct result_point p = { .run = r->index, .x = x, .value = f[i].v, .flags = RP_FINAL };
		if (!f[i].have || !isfinite(f[i].v))
			continue;
		snprintf(p.label, sizeof(p.label), "%s", r->label);
		snprintf(p.setting, sizeof(p.setting), "%s", r->setting);
		snprintf(p.x_name, sizeof(p.x_name), "%s", x_name);
		snprintf(p.metric, sizeof(p.metric), "%s", f[i].metric);
		snprintf(p.unit, sizeof(p.unit), "%s", f[i].unit);
		if (result_set_add(rs, &p))
			return -ENOMEM;
		(*n)++;
	}
	return 0;
}

/* The final results of a recording, each with the setting, verdict and
 * inflation of the run whose span holds its time; then each run's own
 * figures. */
static int load_recording_results(const struct recording *rec, const struct compare_run *runs,
				  size_t nruns, struct result_set *rs, unsigned char **rv, double **rinf)
{
	size_t n = recording_count(rec, RK_RESULT), k = 0, cap = n + nruns * 8 + 1, r0 = 0;
	struct result_point p;
	/* per run: the x of its first result */
	char (*xn)[RP_NAME_LEN] = calloc(nruns ? nruns : 1, sizeof(*xn));
	double *xv = calloc(nruns ? nruns : 1, sizeof(*xv));

	*rv = calloc(cap, 1);
	*rinf = calloc(cap, sizeof(double));
	if (!*rv || !*rinf || !xn || !xv) {
		free(xn);
		free(xv);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (recording_result(rec, i, &p) || (p.flags & RP_PROGRESS))
			continue;
		double t = recording_time(rec, RK_RESULT, i);
		(*rv)[k] = RV_UNKNOWN;
		(*rinf)[k] = NAN;
		/* results and runs both come in time order: walk them together
		 * (from the start again where time went back: joined files) */
		if (r0 && t <= runs[r0 - 1].t1)
			r0 = 0;
		while (r0 < nruns && runs[r0].t1 < t)
			r0++;
		for (size_t r = r0; r < nruns && runs[r].t0 <= t; r++) {
			if (!(t >= runs[r].t0 && t <= runs[r].t1))
				continue;
			/* the run's knobs as the kernel took them, so one setting
			 * reads the same from every recording, old or new,
			 * whatever way it was typed; the R record's own
			 * setting where the run has no knobs event */
			if (runs[r].setting[0])
				snprintf(p.setting, sizeof(p.setting), "%s", runs[r].setting);
			if (!xn[r][0]) {
				snprintf(xn[r], sizeof(xn[r]), "%s", p.x_name);
				xv[r] = p.x;
			}
			if (runs[r].have_summary) {
				(*rv)[k] = (unsigned char)runs[r].sum.verdict;
				(*rinf)[k] = runs[r].sum.inflation;
			}
		}
		if (result_set_add(rs, &p)) {
			free(xn);
			free(xv);
			return -ENOMEM;
		}
		k++;
	}
	for (size_t r = 0; r < nruns; r++) {
		size_t before = k;
		if (!runs[r].have_summary)
			continue;
		if (add_run_points(rs, &runs[r], xn[r][0] ? xn[r] : "run", xn[r][0] ? xv[r] : 1, &k)) {
			free(xn);
			free(xv);
			return -ENOMEM;
		}
		for (size_t i = before; i < k; i++) {
			(*rv)[i] = (unsigned char)runs[r].sum.verdict;
			(*rinf)[i] = NAN;
		}
	}
	free(xn);
	free(xv);
	return 0;
}

static int grow_parallel(struct compare_data *cd)
{
	size_t n = cd->results.n;
	unsigned char *v = realloc(cd->verdicts, n);
	if (!v)
		return -ENOMEM;
	cd->verdicts = v;
	double *f = realloc(cd->inflation, n * sizeof(double));
	if (!f)
		return -ENOMEM;
	cd->inflation = f;
	return 0;
}

/* Labels seen so far, the source each came from, and what it is shown as. */
struct seen_label {
	char base[RP_LABEL_LEN];
	char shown[RP_LABEL_LEN];
	int src;
	bool explicit;         /* -l or --label: pooled with the same explicit label */
};
struct seen_labels {
	struct seen_label *v;
	size_t n;
};

static int apart_label(struct seen_labels *sl, int src, char *const *paths, char *label, bool explicit,
		       FILE *warn)
{
	struct seen_label *seen = sl->v;
	size_t nseen = sl->n;
	int others = 0, first_src = -1;

	for (size_t i = 0; i < nseen; i++) {
		if (strcmp(seen[i].base, label))
			continue;
		/* one file given twice is never its own runs again */
		if (seen[i].src == src || (explicit && seen[i].explicit && strcmp(paths[seen[i].src], paths[src]))) {
			memcpy(label, seen[i].shown, RP_LABEL_LEN);
			if (seen[i].src == src)
				return 0;
			explicit = false;   /* pooled: recorded below as this source's too */
			others = -1;
			break;
		}
		if (first_src < 0)
			first_src = seen[i].src;
		others++;
	}
	struct seen_label *nv = realloc(seen, (nseen + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	seen = sl->v = nv;
	memcpy(seen[nseen].base, label, RP_LABEL_LEN);
	seen[nseen].src = src;
	seen[nseen].explicit = explicit || others < 0;
	if (others < 0) {
		memcpy(seen[nseen].shown, label, RP_LABEL_LEN);
		sl->n++;
		return 0;
	}
	if (others) {
		char shown[RP_LABEL_LEN + 8];
		snprintf(shown, sizeof(shown), "%.*s#%d", RP_LABEL_LEN - 8, label, others + 1);
		if (warn)
			fprintf(warn, "iodash: note: %s: label \"%s\" is also in %s: shown apart as \"%s\" (name runs with -l)\n",
				paths[src], label, paths[first_src], shown);
		memcpy(label, shown, RP_LABEL_LEN - 1);
		label[RP_LABEL_LEN - 1] = '\0';
	}
	memcpy(seen[nseen].shown, label, RP_LABEL_LEN);
	sl->n++;
	return 0;
}

/* "k=v k=v" of every run of a label into "k=v" or "k=v1|v2". */
static void merge_knobs(char *out, size_t len, const struct compare_run *runs, size_t nruns,
			const char *label)
{
	const char *first = NULL;
	size_t off = 0;

	out[0] = '\0';
	for (size_t i = 0; i < nruns && !first; i++)
		if (!strcmp(runs[i].label, label) && runs[i].knobs[0])
			first = runs[i].knobs;
	if (!first)
		return;
	char copy[MODEL_LINE_LEN], *save = NULL;
	snprintf(copy, sizeof(copy), "%s", first);
	for (char *w = strtok_r(copy, " ", &save); w && off < len; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');
		if (!eq)
			continue;
		size_t kl = (size_t)(eq - w) + 1;   /* "key=" */
		int wr = snprintf(out + off, len - off, "%s%.*s", off ? " " : "", (int)kl, w);
		if (wr < 0)
			break;
		off += (size_t)wr;
		char vals[8][KNOB_VAL];
		int nv = 0;
		for (size_t i = 0; i < nruns; i++) {
			if (strcmp(runs[i].label, label) || !runs[i].knobs[0])
				continue;
			const char *k = runs[i].knobs;
			for (const char *q = k; *q; q += strcspn(q, " "), q += *q == ' ')
				if (!strncmp(q, w, kl)) {
					char v[KNOB_VAL];
					snprintf(v, sizeof(v), "%.*s", (int)strcspn(q + kl, " "), q + kl);
					int j;
					for (j = 0; j < nv && strcmp(vals[j], v); j++)
						;
					if (j == nv && nv < 8)
						memcpy(vals[nv++], v, sizeof(v));
					break;
				}
		}
		for (int j = 0; j < nv && off < len; j++) {
			wr = snprintf(out + off, len - off, "%s%s", j ? "|" : "", vals[j]);
			if (wr > 0)
				off += (size_t)wr;
		}
	}
}

static int add_label_infos(struct compare_data *cd, const struct result_set *rs, size_t run0,
			   const char *kernel, const char *host, const char *hdr_knobs, const char *path)
{
	for (size_t pass = 0; pass < 2; pass++) {
		size_t n = pass ? cd->nruns - run0 : rs->n;
		for (size_t i = 0; i < n; i++) {
			const char *lab = pass ? cd->runs[run0 + i].label : rs->v[i].label;
			size_t j;
			for (j = 0; j < cd->nlabels && strcmp(cd->labels[j].label, lab); j++)
				;
			if (j < cd->nlabels) {
				struct compare_label *l = &cd->labels[j];
				if (!strstr(l->sources, path) && strlen(l->sources) + strlen(path) + 3 < sizeof(l->sources)) {
					strcat(l->sources, ", ");
					strcat(l->sources, path);
					l->nsources++;
				}
				continue;
			}
			struct compare_label *nv = realloc(cd->labels, (cd->nlabels + 1) * sizeof(*nv));
			if (!nv)
				return -ENOMEM;
			cd->labels = nv;
			struct compare_label *l = &cd->labels[cd->nlabels++];
			memset(l, 0, sizeof(*l));
			snprintf(l->label, sizeof(l->label), "%s", lab);
			snprintf(l->kernel, sizeof(l->kernel), "%s", kernel);
			snprintf(l->host, sizeof(l->host), "%s", host);
			snprintf(l->source, sizeof(l->source), "%s", path);
			snprintf(l->sources, sizeof(l->sources), "%s", path);
			l->nsources = 1;
			merge_knobs(l->knobs, sizeof(l->knobs), cd->runs + run0, cd->nruns - run0, lab);
			if (!l->knobs[0])
				snprintf(l->knobs, sizeof(l->knobs), "%s", hdr_knobs);
		}
	}
	return 0;
}

/* The NAME of a "SRC=NAME" given for path, NULL when none is. */
static const char *given_name(const char *const *names, int nnames, const char *path)
{
	for (int i = 0; i < nnames; i++) {
		const char *eq = strrchr(names[i], '=');
		size_t sl = eq ? (size_t)(eq - names[i]) : 0;
		if (!eq)
			continue;
		if ((strlen(path) == sl && !strncmp(path, names[i], sl)) ||
		    (strlen(util_base_name(path)) == sl && !strncmp(util_base_name(path), names[i], sl)))
			return eq + 1;
	}
	return NULL;
}

/* NAME in place of a recording's label (the recorded -l, or the first
 * word), keeping what the sweep added after it ("bs=4k"). */
static void rename_label(char *label, const char *recorded, const char *name)
{
	char tmp[RP_LABEL_LEN];
	size_t rl = strlen(recorded);
	const char *rest = rl && !strncmp(label, recorded, rl) ? label + rl : strchr(label, ' ');

	snprintf(tmp, sizeof(tmp), "%.*s%s", RP_LABEL_LEN / 2, name, rest ? rest : "");
	memcpy(label, tmp, RP_LABEL_LEN);
}

int compare_load(struct compare_data *cd, char *const *paths, int npaths,
		 const char *baseline, const char *metric, const char *parser,
		 char *err, size_t errlen, FILE *warn)
{
	return compare_load_named(cd, paths, npaths, NULL, 0, baseline, metric, parser, err, errlen, warn);
}

/* What every source of one compare_load_named shares. */
struct load_ctx {
	struct compare_data *cd;
	char *const *paths;
	int npaths;
	const char *const *gnames;
	int ngnames;
	const char *parser;
	struct renum rn;
	struct seen_labels seen;
	char *err;
	size_t errlen;
	FILE *warn;
};

/* One source's points before they join the set: its labels are made
 * apart from the earlier sources' first. */
struct load_src {
	struct result_set rs;
	unsigned char *rv;
	double *rinf;
	char kernel[128], host[64], hdr_knobs[256];
	const char *given;     /* --label SRC=NAME for it, or NULL */
	bool explicit;         /* named by -l or --label: pools with the same name */
};

/* Every --label SRC=NAME must name a source given: a typo would
 * otherwise be silently ignored. */
static int load_check_given_names(const struct load_ctx *c)
{
	for (int i = 0; i < c->ngnames; i++) {
		const char *eq = strrchr(c->gnames[i], '=');
		bool found = false;
		for (int s = 0; eq && eq[1] && !found; s++) {
			if (s == c->npaths)
				break;
			found = given_name(c->gnames + i, 1, c->paths[s]) != NULL;
		}
		if (!found) {
			snprintf(c->err, c->errlen,
				 "--label %s: %s (write --label SRC=NAME, SRC one of the sources given)", c->gnames[i],
				 eq && eq[1] ? "no such source" : "no NAME after '='");
			return -EINVAL;
		}
	}
	return 0;
}

/* The last decision event of each point of a --until-decided sweep,
 * labelled as the results of its runs are (the event names only the
 * sweep's other parameters). */
static int load_decisions(struct compare_data *cd, const struct recording *rec, const char *path,
			  const struct result_set *rs)
{
	size_t ne = recording_count(rec, RK_EVENT);
	struct model_event ev;

	for (size_t j = 0; j < ne; j++) {
		struct decide_event e;
		struct compare_decision *d = NULL;
		if (recording_event(rec, j, &ev) || ev.kind != MEV_DECISION || decide_event_parse(ev.text, &e))
			continue;
		for (size_t i = 0; i < cd->ndecisions && !d; i++)
			if (!strcmp(cd->decisions[i].source, path) && cd->decisions[i].e.x == e.x &&
			    !strcmp(cd->decisions[i].e.label, e.label) && !strcmp(cd->decisions[i].e.setting, e.setting))
				d = &cd->decisions[i];
		if (!d) {
			struct compare_decision *nv = realloc(cd->decisions, (cd->ndecisions + 1) * sizeof(*nv));
			if (!nv)
				return -ENOMEM;
			cd->decisions = nv;
			d = &nv[cd->ndecisions++];
			snprintf(d->source, sizeof(d->source), "%s", path);
			snprintf(d->label, sizeof(d->label), "%s", e.label);
			for (size_t i = 0; i < rs->n; i++) {
				size_t ll = strlen(rs->v[i].label), el = strlen(e.label);
				if (!el || (ll > el && !strcmp(rs->v[i].label + ll - el, e.label))) {
					snprintf(d->label, sizeof(d->label), "%s", rs->v[i].label);
					break;
				}
			}
		}
		d->e = e;
	}
	return 0;
}

/* A recording's runs (into cd) and results (into ls), labelled as given,
 * as recorded, or by kernel. */
static int load_src_recording(struct load_ctx *c, int s, struct load_src *ls, size_t run0)
{
	struct compare_data *cd = c->cd;
	struct recording *rec;
	const struct rec_header *h;
	const char *label;
	int rc;

	if ((rc = recording_open(&rec, c->paths[s], c->err, c->errlen)))
		return rc;
	if (c->warn && recording_warning(rec)[0])
		fprintf(c->warn, "iodash: warning: %s\n", recording_warning(rec));
	h = recording_header(rec);
	snprintf(ls->kernel, sizeof(ls->kernel), "%s", h->kernel);
	snprintf(ls->host, sizeof(ls->host), "%s", h->host);
	if (h->have_knobs)
		snprintf(ls->hdr_knobs, sizeof(ls->hdr_knobs),
			 "vm.dirty_background_bytes=%llu vm.dirty_bytes=%llu vm.dirty_background_ratio=%u vm.dirty_ratio=%u",
			 (unsigned long long)h->dirty_background_bytes, (unsigned long long)h->dirty_bytes,
			 h->dirty_background_ratio, h->dirty_ratio);
	label = h->label;
	if (!label[0])
		label = util_base_name(c->paths[s]);
	rc = load_runs(cd, rec, label);
	if (!rc)
		rc = load_recording_results(rec, cd->runs + run0, cd->nruns - run0, &ls->rs, &ls->rv, &ls->rinf);
	if (!rc && ls->given) {
		for (size_t i = 0; i < ls->rs.n; i++)
			rename_label(ls->rs.v[i].label, h->label, ls->given);
		for (size_t i = run0; i < cd->nruns; i++)
			rename_label(cd->runs[i].label, h->label, ls->given);
	} else if (!rc) {
		/* labels by kernel, not by command name */
		for (size_t i = 0; i < ls->rs.n; i++)
			default_label(h, ls->rs.v[i].label, ls->rs.v[i].label);
		for (size_t i = run0; i < cd->nruns; i++)
			default_label(h, cd->runs[i].label, cd->runs[i].label);
	}
	ls->explicit = ls->explicit || h->label[0];
	if (!rc)
		rc = load_decisions(cd, rec, c->paths[s], &ls->rs);
	recording_close(rec);
	if (rc)
		snprintf(c->err, c->errlen, "%s: %s", c->paths[s], strerror(-rc));
	return rc;
}

/* A benchmark's text output through the parsers; their notes are kept
 * even when the parse fails, so compare can say what was skipped. */
static int load_src_text(struct load_ctx *c, int s, struct load_src *ls)
{
	struct compare_data *cd = c->cd;
	char lab[RP_LABEL_LEN];
	struct parser_note notes[PARSER_NOTES_MAX];
	size_t nn = 0;
	int rc;

	text_label(c->paths, s, lab, sizeof(lab));
	rc = parser_parse_file_notes(c->paths[s], c->parser, lab, &ls->rs, notes, PARSER_NOTES_MAX, &nn, c->err,
				     c->errlen);
	if (nn) {
		struct compare_note *nv = realloc(cd->notes, (cd->nnotes + nn) * sizeof(*nv));
		if (!nv) {
			snprintf(c->err, c->errlen, "out of memory");
			return -ENOMEM;
		}
		cd->notes = nv;
		for (size_t i = 0; i < nn; i++) {
			snprintf(nv[cd->nnotes].source, sizeof(nv[cd->nnotes].source), "%s", c->paths[s]);
			nv[cd->nnotes++].n = notes[i];
		}
	}
	if (rc)
		return rc;
	for (size_t i = 0; ls->given && i < ls->rs.n; i++)
		if (!strcmp(ls->rs.v[i].label, lab))
			snprintf(ls->rs.v[i].label, sizeof(ls->rs.v[i].label), "%s", ls->given);
	return 0;
}

/* One source's final points and label infos into the set.  Only memory
 * can fail here. */
static int load_src_merge(struct load_ctx *c, int s, struct load_src *ls, size_t run0)
{
	struct compare_data *cd = c->cd;
	int rc = 0;

	/* a label an earlier source has stays apart (LABEL#2), unless
	 * both were given (-l, --label): then they pool */
	for (size_t i = 0; !rc && i < ls->rs.n; i++)
		rc = apart_label(&c->seen, s, c->paths, ls->rs.v[i].label, ls->explicit, c->warn);
	for (size_t i = run0; !rc && i < cd->nruns; i++)
		rc = apart_label(&c->seen, s, c->paths, cd->runs[i].label, ls->explicit, c->warn);
	for (size_t i = 0; !rc && i < ls->rs.n; i++) {
		struct result_point p = ls->rs.v[i];
		if (!stats_point_is_final(&p))
			continue;
		if ((rc = renumber(&c->rn, (size_t)s, &p)) || (rc = result_set_add(&cd->results, &p)) ||
		    (rc = grow_parallel(cd)))
			break;
		cd->verdicts[cd->results.n - 1] = ls->rv ? ls->rv[i] : RV_UNKNOWN;
		cd->inflation[cd->results.n - 1] = ls->rinf ? ls->rinf[i] : NAN;
	}
	if (!rc)
		rc = add_label_infos(cd, &ls->rs, run0, ls->kernel, ls->host, ls->hdr_knobs, c->paths[s]);
	if (rc)
		snprintf(c->err, c->errlen, "out of memory");
	return rc;
}

/* Source s (a recording or a text file) into the set. */
static int load_source(struct load_ctx *c, int s)
{
	struct compare_data *cd = c->cd;
	struct load_src ls = { .given = given_name(c->gnames, c->ngnames, c->paths[s]) };
	size_t before = cd->results.n, run0 = cd->nruns;
	int kind = recording_sniff(c->paths[s]);
	int rc;

	ls.explicit = ls.given != NULL;
	if (kind < 0) {
		snprintf(c->err, c->errlen, "%s: %s", c->paths[s], strerror(-kind));
		return kind;
	}
	rc = kind ? load_src_recording(c, s, &ls, run0) : load_src_text(c, s, &ls);
	if (!rc)
		rc = load_src_merge(c, s, &ls, run0);
	result_set_free(&ls.rs);
	free(ls.rv);
	free(ls.rinf);
	if (rc)
		return rc;
	if (c->warn && cd->results.n == before)
		fprintf(c->warn, "iodash: warning: %s: no result points found (%s)\n", c->paths[s],
			kind ? "the recording has no benchmark results" : "no parser recognised its format");
	cd->nsources++;
	return 0;
}

/* One metric's points in one unit.  Readers give a value in the unit its
 * tool printed (fio: 950MiB/s for one run, 1.20GiB/s for the next; a
 * JSON's clat_ns beside a text's clat (usec)): commensurable units are
 * converted to the one most points have (a tie: the smaller); a unit
 * that does not convert to it (IOPS beside KiB/s, "" beside ms) is not
 * pooled: its points become the metric "METRIC (UNIT)", and a note says so. */
static void load_pool_units(struct compare_data *cd, FILE *warn)
{
	char names[64][RP_NAME_LEN];
	size_t nm = stats_list_metrics(&cd->results, names, 64);

	for (size_t k = 0; k < nm; k++) {
		struct units_tally t = { 0 };
		char main_unit[RP_UNIT_LEN];
		for (size_t i = 0; i < cd->results.n; i++)
			if (!strcmp(cd->results.v[i].metric, names[k]))
				units_tally_add(&t, cd->results.v[i].unit);
		if (t.n < 2)
			continue;
		snprintf(main_unit, sizeof(main_unit), "%s", units_pick_main(&t));
		for (size_t u = 0; u < t.n; u++) {
			const char *to = units_pick_target(&t, t.v[u].unit);
			bool apart = !units_are_commensurable(t.v[u].unit, main_unit);
			char apart_name[RP_NAME_LEN];
			snprintf(apart_name, sizeof(apart_name), "%.*s (%s)", (int)(RP_NAME_LEN - RP_UNIT_LEN - 4),
				 names[k], to);
			for (size_t i = 0; i < cd->results.n; i++) {
				struct result_point *p = &cd->results.v[i];
				double v, sp;
				if (strcmp(p->metric, names[k]) || strcmp(p->unit, t.v[u].unit))
					continue;
				if (units_convert_value(p->value, p->unit, to, &v) &&
				    units_convert_value(p->spread, p->unit, to, &sp)) {
					p->value = v;
					p->spread = sp;
					snprintf(p->unit, sizeof(p->unit), "%s", to);
				}
				if (apart)
					memcpy(p->metric, apart_name, sizeof(p->metric));
			}
			if (apart && warn && !strcmp(to, t.v[u].unit))
				fprintf(warn, "iodash: note: %s: points in %s do not convert to %s, the unit most of "
					"its points have: shown apart as \"%s\"\n", names[k], to[0] ? to : "no unit",
					main_unit[0] ? main_unit : "no unit", apart_name);
		}
	}
}

/* The runs' own figures after the benchmarks': what a reader came for
 * comes first. */
static void load_order_metrics(char (*names)[RP_NAME_LEN], size_t n)
{
	for (size_t k = 0, moved = 0; k + moved < n;) {
		if (strncmp(names[k], COMPARE_RUN_METRIC_PREFIX, strlen(COMPARE_RUN_METRIC_PREFIX))) {
			k++;
			continue;
		}
		char tmp[RP_NAME_LEN];
		memcpy(tmp, names[k], RP_NAME_LEN);
		memmove(names[k], names[k + 1], (n - k - 1) * RP_NAME_LEN);
		memcpy(names[n - 1], tmp, RP_NAME_LEN);
		moved++;
	}
}

/* --metric M: keep only M, or say which metrics there are. */
static int load_pick_metric(struct compare_data *cd, char (*names)[RP_NAME_LEN], const char *metric, char *err,
			    size_t errlen)
{
	size_t k;

	for (k = 0; k < cd->nmetrics && strcmp(names[k], metric); k++)
		;
	if (k == cd->nmetrics) {
		size_t o = (size_t)snprintf(err, errlen, "--metric %s: not in the sources; they have:", metric);
		for (k = 0; k < cd->nmetrics && o < errlen; k++)
			o += (size_t)snprintf(err + o, errlen - o, " %s", names[k]);
		return -ESRCH;
	}
	memmove(names[0], names[k], RP_NAME_LEN);
	cd->nmetrics = 1;
	return 0;
}

/* Each metric's points, found in one pass: the curves of 64 metrics
 * must not walk every point 64 times.  Metric k's points are
 * idx[start[k] .. start[k + 1]). */
static int load_index_metrics(const struct compare_data *cd, char (*names)[RP_NAME_LEN], size_t **idxp,
			      size_t **startp)
{
	size_t *idx = malloc((cd->results.n ? cd->results.n : 1) * sizeof(*idx)), *start = calloc(cd->nmetrics + 1, sizeof(*start));
	size_t *fill = calloc(cd->nmetrics ? cd->nmetrics : 1, sizeof(*fill));
	unsigned char *mk = malloc(cd->results.n ? cd->results.n : 1);

	if (!idx || !start || !fill || !mk) {
		free(idx);
		free(start);
		free(fill);
		free(mk);
		return -ENOMEM;
	}
	for (size_t i = 0, last = 0; i < cd->results.n; i++) {
		const char *m = cd->results.v[i].metric;
		size_t k = last;
		if (strcmp(names[k], m))
			for (k = 0; k < cd->nmetrics && strcmp(names[k], m); k++)
				;
		mk[i] = (unsigned char)k;   /* nmetrics (<= 64): none of them */
		if (k < cd->nmetrics) {
			start[k + 1]++;
			last = k;
		}
	}
	for (size_t k = 0; k < cd->nmetrics; k++)
		start[k + 1] += start[k];
	for (size_t i = 0; i < cd->results.n; i++)
		if (mk[i] < cd->nmetrics)
			idx[start[mk[i]] + fill[mk[i]]++] = i;
	free(fill);
	free(mk);
	*idxp = idx;
	*startp = start;
	return 0;
}

/* cd->metrics and each metric's curves against the baseline. */
static int load_build_curves(struct compare_data *cd, char (*names)[RP_NAME_LEN], const char *baseline, char *err,
			     size_t errlen)
{
	size_t *idx, *start;
	int rc = 0;

	cd->metrics = calloc(cd->nmetrics, sizeof(*cd->metrics));
	cd->curves = calloc(cd->nmetrics, sizeof(*cd->curves));
	if (!cd->metrics || !cd->curves || load_index_metrics(cd, names, &idx, &start)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t k = 0; k < cd->nmetrics; k++) {
		const size_t *ki = idx + start[k];
		size_t kn = start[k + 1] - start[k];
		memcpy(cd->metrics[k], names[k], RP_NAME_LEN);
		rc = stats_build_curves_tagged(&cd->results, ki, kn, names[k], baseline, cd->verdicts, cd->inflation,
					       &cd->curves[k]);
		if (rc == -ESRCH) {
			/* the baseline may lack a metric the others have: compare
			 * that metric against its own first label, and say so */
			if (k == 0 || cd->nmetrics == 1) {
				char labels[512];
				list_labels(cd, labels, sizeof(labels));
				snprintf(err, errlen, "--baseline %s: no such label; the labels are %s", baseline, labels);
				break;
			}
			rc = stats_build_curves_tagged(&cd->results, ki, kn, names[k], NULL, cd->verdicts,
						       cd->inflation, &cd->curves[k]);
		}
		if (rc) {
			snprintf(err, errlen, "building the curves of %s: %s", names[k], strerror(-rc));
			break;
		}
	}
	free(idx);
	free(start);
	return rc;
}

int compare_load_named(struct compare_data *cd, char *const *paths, int npaths, const char *const *gnames,
		       int ngnames, const char *baseline, const char *metric, const char *parser, char *err,
		       size_t errlen, FILE *warn)
{
	struct load_ctx c = {
		.cd = cd, .paths = paths, .npaths = npaths, .gnames = gnames, .ngnames = ngnames,
		.parser = parser, .err = err, .errlen = errlen, .warn = warn,
	};
	char names[64][RP_NAME_LEN];
	int rc;

	memset(cd, 0, sizeof(*cd));
	if (baseline)
		snprintf(cd->baseline, sizeof(cd->baseline), "%s", baseline);
	rc = load_check_given_names(&c);
	for (int s = 0; !rc && s < npaths; s++)
		rc = load_source(&c, s);
	if (rc)
		goto fail;
	load_pool_units(cd, warn);
	cd->nmetrics = stats_list_metrics(&cd->results, names, 64);
	load_order_metrics(names, cd->nmetrics);
	if (!cd->nmetrics) {
		snprintf(err, errlen, "no result points in %s%s", npaths == 1 ? paths[0] : "any of the sources",
			 npaths == 1 ? "" : " given");
		rc = -ENOENT;
		goto fail;
	}
	if (metric && (rc = load_pick_metric(cd, names, metric, err, errlen)))
		goto fail;
	if ((rc = load_build_curves(cd, names, baseline, err, errlen)))
		goto fail;
	free(c.rn.v);
	free(c.seen.v);
	return 0;
fail:
	free(c.rn.v);
	free(c.seen.v);
	compare_free(cd);
	return rc ? rc : -EINVAL;
}

void compare_free(struct compare_data *cd)
{
	for (size_t k = 0; cd->curves && k < cd->nmetrics; k++)
		curve_set_free(&cd->curves[k]);
	free(cd->curves);
	free(cd->metrics);
	for (size_t i = 0; i < cd->nruns; i++) {
		free(cd->runs[i].t);
		free(cd->runs[i].dirty_kb);
		free(cd->runs[i].thresh_kb);
		free(cd->runs[i].tput_kBps);
		free(cd->runs[i].freerun_kb);
		free(cd->runs[i].bg_kb);
		free(cd->runs[i].throttled);
	}
	free(cd->runs);
	free(cd->verdicts);
	free(cd->inflation);
	free(cd->labels);
	free(cd->notes);
	free(cd->decisions);
	result_set_free(&cd->results);
	memset(cd, 0, sizeof(*cd));
}

/* ---- printing ---- */

const struct curve_point *compare_point_at(const struct curve *c, double x)
{
	return stats_point_at(c, x);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

size_t compare_curve_xs_range(const struct curve_set *cs, size_t first, size_t end, double **out)
{
	size_t n = 0, total = 0;
	double *v;

	for (size_t l = first; l < end; l++)
		total += cs->v[l].n;
	v = malloc((total ? total : 1) * sizeof(*v));
	*out = v;
	if (!v)
		return 0;
	for (size_t l = first; l < end; l++)
		for (size_t i = 0; i < cs->v[l].n; i++)
			v[n++] = cs->v[l].pts[i].x;
	qsort(v, n, sizeof(*v), cmp_double);
	total = n;
	n = 0;
	for (size_t i = 0; i < total; i++)
		if (!n || v[n - 1] != v[i])
			v[n++] = v[i];
	return n;
}

/* Every x of any label, ascending. */
size_t compare_curve_xs(const struct curve_set *cs, double **out)
{
	return compare_curve_xs_range(cs, 0, cs->n, out);
}

void compare_format_x(char *b, size_t n, double x)
{
	static const char units[] = "MGTP";
	double m = 1048576;

	/* a sweep's "128M" came in as 134217728: show it in the unit typed
	 * (binary, as util_parse_number reads it) */
	if (x >= m && fabs(x) < 1e18 && x == floor(x)) {
		int u = -1;
		for (int i = 0; i < 4 && fmod(x, m) == 0; i++, m *= 1024)
			u = i;
		if (u >= 0) {
			snprintf(b, n, "%.0f%c", x / pow(1024, 2 + u), units[u]);
			return;
		}
	}
	if (x == floor(x) && fabs(x) < 1e15)
		snprintf(b, n, "%.0f", x);
	else
		snprintf(b, n, "%g", x);
}

int compare_metric_better(const char *metric, const char *unit)
{
	static const char *const lower[] = { "lat", "clat", "slat", "_p9", "p99", "percentile", "elapsed",
					     "time", "runtime", "duration", "latency", "max_ms", "avg_ms" };

	if (compare_unit_is_rate(unit))
		return 1;
	if (units_get_kind(unit) == UNITS_TIME)
		return -1;
	for (size_t i = 0; i < sizeof(lower) / sizeof(lower[0]); i++)
		if (strstr(metric, lower[i]))
			return -1;
	if (strstr(metric, "bw") || strstr(metric, "iops") || strstr(metric, "throughput") || strstr(metric, "Bps"))
		return 1;
	return 0;
}

/* The baseline curve of the block (setting) that holds curve l. */
static size_t block_base(const struct curve_set *cs, size_t l)
{
	size_t a = l;
	while (a > 0 && !strcmp(cs->v[a - 1].setting, cs->v[l].setting))
		a--;
	for (size_t e = stats_block_end(cs, a), i = a; i < e; i++)
		if (cs->v[i].is_base)
			return i;
	return a;
}

#define W_MEAN 12
#define W_SD 12
#define W_COV 8
#define W_N 4
#define W_CHG 10
#define W_VERDICT 17

bool compare_unit_is_rate(const char *unit)
{
	return units_get_kind(unit) == UNITS_RATE || !strcmp(unit, "IOPS") || strstr(unit, "/s");
}

const char *compare_point_verdict(const struct curve_point *p, char *buf, size_t len)
{
	static const enum run_verdict order[] = { RV_THROTTLED, RV_CACHE, RV_DEVICE };
	size_t off = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < 3 && off < len; k++)
		if (p && (p->tags & (1u << order[k]))) {
			int w = snprintf(buf + off, len - off, "%s%s", off ? "/" : "", runsum_verdict_name(order[k]));
			if (w > 0)
				off += (size_t)w;
		}
	return buf;
}

char compare_point_mark(const struct curve_point *p)
{
	char b[64];
	compare_point_verdict(p, b, sizeof(b));
	if (!b[0])
		return 0;
	if (strchr(b, '/'))
		return '+';
	return b[0] == 't' ? 'T' : b[0] == 'c' ? 'C' : 'D';
}

static bool metric_has_verdicts(const struct compare_data *cd, const char *metric)
{
	for (size_t i = 0; cd->verdicts && i < cd->results.n; i++)
		if (cd->verdicts[i] != RV_UNKNOWN && !strcmp(cd->results.v[i].metric, metric))
			return true;
	return false;
}

/* The columns of the curves [a, e) of one setting, a row per x. */
static void print_text_block(const struct curve_set *cs, size_t a, size_t e, bool rate, bool verd, FILE *out)
{
	const struct curve *c0 = &cs->v[a];
	size_t bi = block_base(cs, a), nx;
	int wl = W_MEAN + (rate ? W_MEAN : 0) + W_SD + W_COV + W_N + (verd ? W_VERDICT + 1 : 0);
	double *xs;

	nx = compare_curve_xs_range(cs, a, e, &xs);
	fprintf(out, "%8s", "");
	for (size_t l = a; l < e; l++) {
		int w = wl + (l != bi ? W_CHG + 1 : 0);
		char lab[RP_LABEL_LEN + 16];
		snprintf(lab, sizeof(lab), "%s (%d run%s)", cs->v[l].label, cs->v[l].runs,
			 cs->v[l].runs == 1 ? "" : "s");
		fprintf(out, "  %*s", w, lab);
	}
	fprintf(out, "\n%8.8s", c0->x_name[0] ? c0->x_name : "x");
	for (size_t l = a; l < e; l++) {
		fprintf(out, "  %*s", W_MEAN, "mean");
		if (rate)
			fprintf(out, "%*s", W_MEAN, "hmean");
		fprintf(out, "%*s%*s%*s", W_SD, "stddev", W_COV, "CoV", W_N, "N");
		if (l != bi)
			fprintf(out, "%*s ", W_CHG, "change");
		if (verd)
			fprintf(out, " %*s", W_VERDICT, "measured");
	}
	fputc('\n', out);
	for (size_t i = 0; i < nx; i++) {
		char xb[32];
		compare_format_x(xb, sizeof(xb), xs[i]);
		fprintf(out, "%8s", xb);
		for (size_t l = a; l < e; l++) {
			const struct curve_point *p = compare_point_at(&cs->v[l], xs[i]);
			fputs("  ", out);
			if (!p) {
				fprintf(out, "%*s", W_MEAN, "-");
				if (rate)
					fprintf(out, "%*s", W_MEAN, "-");
				fprintf(out, "%*s%*s%*s", W_SD, "-", W_COV, "-", W_N, "0");
				if (l != bi)
					fprintf(out, "%*s ", W_CHG, "-");
				if (verd)
					fprintf(out, " %*s", W_VERDICT, "-");
				continue;
			}
			text_put_fixed(out, W_MEAN, 2, false, p->mean);
			if (rate && isfinite(p->hmean))
				text_put_fixed(out, W_MEAN, 2, false, p->hmean);
			else if (rate)
				fprintf(out, "%*s", W_MEAN, "-");
			if (p->n > 1) {
				text_put_fixed(out, W_SD, 2, false, p->stddev);
				text_put_fixed(out, W_COV - 1, 2, false, p->cov);
				fputc('%', out);
			} else
				fprintf(out, "%*s%*s", W_SD, "-", W_COV, "-");
			fprintf(out, "%*d", W_N, p->n);
			if (l != bi) {
				if (p->have_change) {
					text_put_fixed(out, W_CHG - 1, 2, true, p->change_pct);
					fprintf(out, "%%%c", p->significant ? '*' : ' ');
				} else
					fprintf(out, "%*s ", W_CHG, "-");
			}
			if (verd) {
				char vb[64];
				compare_point_verdict(p, vb, sizeof(vb));
				fprintf(out, " %*s", W_VERDICT, vb[0] ? vb : "-");
			}
		}
		fputc('\n', out);
	}
	free(xs);
}

static void print_text(const struct compare_data *cd, size_t k, FILE *out)
{
	const struct curve_set *cs = &cd->curves[k];
	const struct curve *c0 = &cs->v[0];
	bool rate = compare_unit_is_rate(c0->unit), verd = metric_has_verdicts(cd, c0->metric);
	bool blocks = stats_block_end(cs, 0) < cs->n || c0->setting[0];

	fprintf(out, "%s%s%s%s by %s: mean of N runs%s",
		c0->metric, c0->unit[0] ? " (" : "", c0->unit, c0->unit[0] ? ")" : "",
		c0->x_name[0] ? c0->x_name : "x", rate ? ", hmean harmonic mean" : "");
	if (cs->n > 1)
		fprintf(out, "; change against %s%s; * = p < 0.05 (Welch's t-test)", cs->baseline,
			blocks ? " within each setting" : "");
	if (verd)
		fprintf(out, "; what the runs measured: device, cache, throttled");
	fprintf(out, "%s\n", compare_metric_better(c0->metric, c0->unit) < 0 ? "; lower is better" : "");
	for (size_t a = 0, e; a < cs->n; a = e) {
		e = stats_block_end(cs, a);
		fputc('\n', out);
		if (blocks) {
			size_t bi = block_base(cs, a);
			fprintf(out, "setting %s", cs->v[a].setting[0] ? cs->v[a].setting : "(none)");
			if (e - a > 1 && strcmp(cs->v[bi].label, cs->baseline))
				fprintf(out, " (no %s here: change against %s)", cs->baseline, cs->v[bi].label);
			fputs(":\n", out);
		}
		print_text_block(cs, a, e, rate, verd, out);
	}
}

/* Without trailing blanks: the table goes into mails. */
static void print_trimmed(FILE *out, const char *buf)
{
	for (const char *p = buf, *nl; p && *p; p = nl + 1) {
		const char *e;
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		for (e = nl; e > p && e[-1] == ' '; e--)
			;
		fprintf(out, "%.*s\n", (int)(e - p), p);
		if (!*nl)
			break;
	}
}

void compare_print_text_metric(const struct compare_data *cd, size_t k, FILE *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		print_text(cd, k, out);
		return;
	}
	print_text(cd, k, m);
	fclose(m);
	print_trimmed(out, buf);
	free(buf);
}

/* sweep --until-decided: which points were decided, how, and with how
 * many runs. */
static void print_decisions(const struct compare_data *cd, FILE *out)
{
	if (!cd->ndecisions)
		return;
	fprintf(out, "\ndecisions (sweep --until-decided): each point's state when the sweep left it\n\n");
	bool sources = false;

	/* two recordings may give one label (LABEL, LABEL#2 in the table):
	 * then each line says its file */
	for (size_t i = 1; i < cd->ndecisions && !sources; i++)
		sources = strcmp(cd->decisions[i].source, cd->decisions[0].source) != 0;
	fprintf(out, "%-28s %-14s %-10s %5s %6s %8s  %s\n", "label", "point", "state", "runs", "failed",
		"outliers", "answer");
	for (size_t i = 0; i < cd->ndecisions; i++) {
		const struct compare_decision *d = &cd->decisions[i];
		char point[96];
		snprintf(point, sizeof(point), "%s%s%s=%s", d->e.setting, d->e.setting[0] ? " " : "",
			 d->e.x_name, d->e.x_text);
		fprintf(out, "%-28s %-14s %-10s %5d %6d %8d  %s%s%s%s\n", d->label, point,
			decide_state_name(d->e.state), d->e.runs, d->e.failed, d->e.outliers, d->e.what,
			sources ? " (" : "", sources ? util_base_name(d->source) : "", sources ? ")" : "");
	}
}

/* Who each label is: kernel, source, knobs. */
static void print_labels(const struct compare_data *cd, FILE *out)
{
	bool any = false;

	for (size_t i = 0; i < cd->nlabels && !any; i++)
		any = cd->labels[i].kernel[0] || cd->labels[i].knobs[0] || cd->labels[i].nsources > 1;
	if (!any)
		return;
	fputs("labels:\n", out);
	for (size_t i = 0; i < cd->nlabels; i++) {
		const struct compare_label *l = &cd->labels[i];
		fprintf(out, "  %s: kernel %s, from %s", l->label, l->kernel[0] ? l->kernel : "n/a", l->sources);
		if (l->nsources > 1)
			fprintf(out, " (%d sources pooled)", l->nsources);
		if (l->knobs[0])
			fprintf(out, "; knobs %s", l->knobs);
		fputc('\n', out);
	}
	fputc('\n', out);
}

static double mb(double b) { return b / 1e6; }

/* What each recorded run measured: the disks against the benchmark. */
static void print_runs(const struct compare_data *cd, FILE *out)
{
	bool any = false;

	for (size_t i = 0; i < cd->nruns && !any; i++)
		any = cd->runs[i].have_summary;
	if (!any)
		return;
	fprintf(out, "\nruns: what the disks did (diskstats) against what the benchmark reported; inflation = reported / device;\n"
		"peak dirty+writeback against freerun and thresh; throttled time (tracepoint, or sampled zone: ~); dirty left at the end\n\n");
	fprintf(out, "%-28s %3s %9s %9s %9s %9s %9s %6s %19s %13s %8s  %s\n", "label", "run", "verdict",
		"rep MB/s", "dev MB/s", "infl", "wrote MB", "read", "peak/freerun/thr MB", "throttled", "left MB", "source");
	for (size_t i = 0; i < cd->nruns; i++) {
		const struct compare_run *r = &cd->runs[i];
		const struct run_summary *u = &r->sum;
		char rep[16] = "-", infl[16] = "-", peak[40] = "-", thr[24];
		if (!r->have_summary)
			continue;
		if (u->have_reported)
			snprintf(rep, sizeof(rep), "%.1f", mb(u->reported_Bps));
		if (isinf(u->inflation))
			snprintf(infl, sizeof(infl), "inf");
		else if (!isnan(u->inflation))
			snprintf(infl, sizeof(infl), "%.2f", u->inflation);
		if (u->have_dirty)
			snprintf(peak, sizeof(peak), "%.0f/%.0f/%.0f", u->peak_kB / 1024.0, u->freerun_kB / 1024.0,
				 u->thresh_kB / 1024.0);
		snprintf(thr, sizeof(thr), "%s%.2fs %.0f%%", u->throttle_src == THR_SRC_SAMPLED ? "~" : "",
			 u->throttled_s, u->throttled_pct);
		fprintf(out, "%-28.28s %3d %9s %9s %9.1f %9s %9.1f %6.1f %19s %13s %8.1f  %s\n", r->label, r->index + 1,
			runsum_verdict_name(u->verdict), rep, mb(u->device_Bps), infl, mb((double)u->write_B),
			mb((double)u->read_B), peak, thr, u->end_kB / 1024.0, util_base_name(r->source));
	}
}

/* results and statistics: 10 significant digits */
#define COMPARE_DIGITS 10

static const struct compare_label *label_info(const struct compare_data *cd, const char *label)
{
	for (size_t i = 0; i < cd->nlabels; i++)
		if (!strcmp(cd->labels[i].label, label))
			return &cd->labels[i];
	return NULL;
}

/* "higher", "lower" or "" (unknown): which way a change is better */
static const char *better_name(const char *metric, const char *unit)
{
	int b = compare_metric_better(metric, unit);
	return b > 0 ? "higher" : b < 0 ? "lower" : "";
}

/* compare's table, one walk for CSV and JSON: CSV writes a row per point
 * with every column; JSON nests metric > label > point objects, each with
 * the columns of its level, in the table's order.  `runs` is two rows:
 * CSV has it after the label, JSON after the label's kernel and knobs.
 * X(id, name, type, level, formats, union ex_v member, value). */
enum cmp_level { CL_METRIC, CL_LABEL, CL_POINT };

struct cmp_walk {
	const struct compare_data *cd;
	const struct curve_set *cs;
	const struct curve *c;
	const struct compare_label *li;
	const struct curve_point *p;
	const char *metric, *unit, *x_name;   /* the metric's, or the curve's */
	const char *base;      /* the label the curve's changes are against (its setting's) */
	char vb[64];
};

#define CMP_COLS(X) \
	X(CMP_METRIC, "metric", SCT_TEXT, CL_METRIC, EX_BOTH, s, w->metric) \
	X(CMP_UNIT, "unit", SCT_TEXT, CL_METRIC, EX_BOTH, s, w->unit) \
	X(CMP_X_NAME, "x_name", SCT_TEXT, CL_METRIC, EX_BOTH, s, w->x_name) \
	X(CMP_X, "x", SCT_DOUBLE_G, CL_POINT, EX_BOTH, d, w->p->x) \
	X(CMP_LABEL, "label", SCT_TEXT, CL_LABEL, EX_BOTH, s, w->c->label) \
	X(CMP_SETTING, "setting", SCT_TEXT, CL_LABEL, EX_BOTH, s, w->c->setting) \
	X(CMP_RUNS_CSV, "runs", SCT_INT, CL_LABEL, EX_CSV, i, w->c->runs) \
	X(CMP_N, "n", SCT_INT, CL_POINT, EX_BOTH, i, w->p->n) \
	X(CMP_MEAN, "mean", SCT_DOUBLE, CL_POINT, EX_BOTH, d, w->p->mean) \
	X(CMP_STDDEV, "stddev", SCT_DOUBLE, CL_POINT, EX_BOTH, d, w->p->n > 1 ? w->p->stddev : NAN) \
	X(CMP_COV, "cov_pct", SCT_DOUBLE, CL_POINT, EX_BOTH, d, w->p->n > 1 ? w->p->cov : NAN) \
	X(CMP_MIN, "min", SCT_DOUBLE_G, CL_POINT, EX_BOTH, d, w->p->min) \
	X(CMP_MAX, "max", SCT_DOUBLE_G, CL_POINT, EX_BOTH, d, w->p->max) \
	X(CMP_HMEAN, "hmean", SCT_DOUBLE, CL_POINT, EX_BOTH, d, w->p->hmean) \
	X(CMP_BASELINE_JSON, "baseline", SCT_TEXT, CL_METRIC, EX_JSON, s, w->cs->baseline) \
	X(CMP_BASELINE, "baseline", SCT_TEXT, CL_LABEL, EX_BOTH, s, w->base) \
	X(CMP_CHANGE, "change_pct", SCT_DOUBLE, CL_POINT, EX_BOTH, d, \
	  w->p->have_change ? w->p->change_pct : NAN) \
	X(CMP_P_VALUE, "p_value", SCT_DOUBLE, CL_POINT, EX_BOTH, d, w->p->p_value >= 0 ? w->p->p_value : NAN) \
	X(CMP_SIGNIFICANT, "significant", SCT_BOOL, CL_POINT, EX_BOTH, i, w->p->significant) \
	X(CMP_VERDICT, "verdict", SCT_TEXT, CL_POINT, EX_BOTH, s, \
	  compare_point_verdict(w->p, w->vb, sizeof(w->vb))) \
	X(CMP_INFLATION, "inflation", SCT_RATIO, CL_POINT, EX_BOTH, d, w->p->aux) \
	X(CMP_KERNEL, "kernel", SCT_TEXT, CL_LABEL, EX_BOTH, s, w->li ? w->li->kernel : "") \
	X(CMP_KNOBS, "knobs", SCT_TEXT, CL_LABEL, EX_BOTH, s, w->li ? w->li->knobs : "") \
	X(CMP_RUNS_JSON, "runs", SCT_INT, CL_LABEL, EX_JSON, i, w->c->runs) \
	X(CMP_SOURCES, "sources", SCT_TEXT, CL_LABEL, EX_JSON, s, w->li ? w->li->sources : "") \
	X(CMP_BETTER, "better", SCT_TEXT, CL_METRIC, EX_BOTH, s, better_name(w->metric, w->unit))

#define CMP_ID(id, nm, ty, lv, fm, mem, val) id,
enum cmp_col { CMP_COLS(CMP_ID) CMP_NCOLS };
#undef CMP_ID
#define CMP_ROW(id, nm, ty, lv, fm, mem, val) [id] = { nm, ty, fm },
static const struct ex_col cmp_cols[CMP_NCOLS] = { CMP_COLS(CMP_ROW) };
#undef CMP_ROW
#define CMP_LEVEL(id, nm, ty, lv, fm, mem, val) [id] = lv,
static const enum cmp_level cmp_levels[CMP_NCOLS] = { CMP_COLS(CMP_LEVEL) };
#undef CMP_LEVEL

/* A column's value where the walk stands (only the columns of the levels
 * entered are asked for) */
static union ex_v cmp_value(enum cmp_col col, struct cmp_walk *w)
{
	union ex_v v = { 0 };

	switch (col) {
#define CMP_CASE(id, nm, ty, lv, fm, mem, val) case id: v.mem = (val); break;
	CMP_COLS(CMP_CASE)
#undef CMP_CASE
	case CMP_NCOLS: break;
	}
	return v;
}

/* The emitter's fields of one level's columns (CSV: lv < 0, every column) */
static void cmp_fields(struct emitter *e, struct cmp_walk *w, int lv)
{
	for (int k = 0; k < CMP_NCOLS; k++) {
		union ex_v v;
		if (!(cmp_cols[k].fmts & e->ops->fmt) || (lv >= 0 && (int)cmp_levels[k] != lv))
			continue;
		v = cmp_value((enum cmp_col)k, w);
		e->ops->field(e, cmp_cols[k].name, cmp_cols[k].type, &v, true);
	}
}

static void print_decisions_json(const struct compare_data *cd, FILE *out)
{
	if (!cd->ndecisions)
		return;
	fputs(",\n \"decisions\": [", out);
	for (size_t i = 0; i < cd->ndecisions; i++) {
		const struct compare_decision *d = &cd->decisions[i];
		fprintf(out, "%s\n  {\"label\": ", i ? "," : "");
		rec_json_str(out, d->label);
		fputs(", \"source\": ", out);
		rec_json_str(out, d->source);
		fputs(", \"setting\": ", out);
		rec_json_str(out, d->e.setting);
		fputs(", \"x_name\": ", out);
		rec_json_str(out, d->e.x_name);
		fputs(", \"x\": ", out);
		text_put_number(out, d->e.x, COMPARE_DIGITS, true);
		fprintf(out, ", \"state\": \"%s\", \"runs\": %d, \"failed\": %d, \"outliers\": %d, \"metric\": ",
			decide_state_name(d->e.state), d->e.runs, d->e.failed, d->e.outliers);
		rec_json_str(out, d->e.metric);
		fputs(", \"mean\": ", out);
		text_put_number(out, d->e.mean, COMPARE_DIGITS, true);
		fputs(", \"half_pct\": ", out);
		text_put_number(out, d->e.half, COMPARE_DIGITS, true);
		fputs(", \"change_pct\": ", out);
		text_put_number(out, d->e.change, COMPARE_DIGITS, true);
		fputs(", \"change_half_pct\": ", out);
		text_put_number(out, d->e.change_half, COMPARE_DIGITS, true);
		fputs(", \"answer\": ", out);
		rec_json_str(out, d->e.what);
		fputc('}', out);
	}
	fputc(']', out);
}

int compare_print(const struct compare_data *cd, enum out_format fmt, FILE *out)
{
	struct emitter em = { fmt == FMT_JSON ? &emit_json : &emit_csv, out, 1, COMPARE_DIGITS, 0 };
	bool json = fmt == FMT_JSON;

	if (fmt == FMT_CSV)
		emit_csv_header(out, cmp_cols, CMP_NCOLS);
	if (fmt == FMT_JSON)
		fputs("{\"metrics\": [", out);
	if (fmt == FMT_TEXT)
		print_labels(cd, out);
	for (size_t k = 0; k < cd->nmetrics; k++) {
		struct cmp_walk w = { .cd = cd, .cs = &cd->curves[k] };
		const struct curve_set *cs = w.cs;
		if (fmt == FMT_TEXT) {
			if (k)
				fputc('\n', out);
			compare_print_text_metric(cd, k, out);
			continue;
		}
		if (json) {
			w.metric = cd->metrics[k];
			w.unit = cs->n ? cs->v[0].unit : "";
			w.x_name = cs->n ? cs->v[0].x_name : "";
			em.indent = 1;
			em.ops->row_begin(&em, k == 0);
			cmp_fields(&em, &w, CL_METRIC);
			fputs(", \"labels\": [", out);
		}
		for (size_t l = 0; l < cs->n; l++) {
			w.c = &cs->v[l];
			w.base = cs->v[block_base(cs, l)].label;
			w.li = label_info(cd, w.c->label);
			w.metric = w.c->metric;
			w.unit = w.c->unit;
			w.x_name = w.c->x_name;
			if (json) {
				em.indent = 2;
				em.ops->row_begin(&em, l == 0);
				cmp_fields(&em, &w, CL_LABEL);
				fputs(", \"points\": [", out);
			}
			for (size_t i = 0; i < w.c->n; i++) {
				w.p = &w.c->pts[i];
				em.indent = 3;
				em.ops->row_begin(&em, i == 0);
				cmp_fields(&em, &w, json ? CL_POINT : -1);
				em.ops->row_end(&em);
			}
			if (json) {
				fputc(']', out);
				em.ops->row_end(&em);
			}
		}
		if (json) {
			fputc(']', out);
			em.ops->row_end(&em);
		}
	}
	if (fmt == FMT_TEXT) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (m) {
			print_runs(cd, m);
			print_decisions(cd, m);
			fclose(m);
			print_trimmed(out, buf);
			free(buf);
		}
	}
	if (fmt == FMT_JSON) {
		fputs("],\n \"runs\": [", out);
		for (size_t i = 0; i < cd->nruns; i++) {
			const struct compare_run *r = &cd->runs[i];
			fprintf(out, "%s\n  {\"label\": ", i ? "," : "");
			rec_json_str(out, r->label);
			fputs(", \"source\": ", out);
			rec_json_str(out, r->source);
			fprintf(out, ", \"index\": %d, \"exit_status\": %d, \"samples\": %zu, \"knobs\": ",
				r->index, r->exit_status, r->n);
			rec_json_str(out, r->knobs);
			fputs(", \"setting\": ", out);
			rec_json_str(out, r->setting);
			if (r->have_summary) {
				const struct run_summary *u = &r->sum;
				fputs(", \"verdict\": ", out);
				rec_json_str(out, runsum_verdict_name(u->verdict));
				fprintf(out, ", \"disk_read_bytes\": %llu, \"disk_write_bytes\": %llu, \"device_Bps\": ",
					(unsigned long long)u->read_B, (unsigned long long)u->write_B);
				text_put_number(out, u->have_disks ? u->device_Bps : NAN, COMPARE_DIGITS, true);
				fputs(", \"reported_Bps\": ", out);
				text_put_number(out, u->have_reported ? u->reported_Bps : NAN, COMPARE_DIGITS, true);
				fputs(", \"inflation\": ", out);
				if (isinf(u->inflation))
					fputs("\"inf\"", out);
				else
					text_put_number(out, u->inflation, COMPARE_DIGITS, true);
				fprintf(out, ", \"peak_dirty_kB\": %llu, \"freerun_kB\": %llu, \"thresh_kB\": %llu, \"dirty_left_kB\": %llu, \"throttled_s\": ",
					(unsigned long long)u->peak_kB, (unsigned long long)u->freerun_kB,
					(unsigned long long)u->thresh_kB, (unsigned long long)u->end_kB);
				text_put_number(out, u->throttled_s, COMPARE_DIGITS, true);
				fputs(", \"throttled_pct\": ", out);
				text_put_number(out, u->throttled_pct, COMPARE_DIGITS, true);
				fprintf(out, ", \"throttled_source\": \"%s\", \"secs\": ",
					u->throttle_src == THR_SRC_KERNEL ? "tracepoint" : "sampled");
				text_put_number(out, u->secs, COMPARE_DIGITS, true);
			}
			fputc('}', out);
		}
		fputc(']', out);
		print_decisions_json(cd, out);
		fputs("}\n", out);
	}
	return ferror(out) ? -EIO : 0;
}

void compare_print_notes(const struct compare_data *cd, bool all, const char *prefix, FILE *out)
{
	for (size_t i = 0; i < cd->nnotes; i++) {
		const struct compare_note *c = &cd->notes[i];
		if (!all && c->n.understood)
			continue;
		fprintf(out, "%s%s:%d-%d: %s\n", prefix, c->source, c->n.first, c->n.last, c->n.text);
	}
}
