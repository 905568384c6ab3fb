/* compare: recordings and text files side by side.  The runs of a label
 * are renumbered across sources, so three files of one kernel are three
 * runs of that label, not three "run 0"s that would be pooled as one. */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iodash/commands.h"
#include "iodash/compare.h"
#include "rec_format.h"
#include "iodash/parser.h"
#include "iodash/recording.h"
#include "iodash/ui.h"

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

static const char *base_name(const char *path, char *buf, size_t len)
{
	snprintf(buf, len, "%s", path);
	return basename(buf);
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
	total = last - first + 1;
	stride = (total + COMPARE_RUN_MAX_POINTS - 1) / COMPARE_RUN_MAX_POINTS;
	r->t = calloc(COMPARE_RUN_MAX_POINTS, sizeof(double));
	r->dirty_kb = calloc(COMPARE_RUN_MAX_POINTS, sizeof(double));
	r->thresh_kb = calloc(COMPARE_RUN_MAX_POINTS, sizeof(double));
	r->tput_kBps = calloc(COMPARE_RUN_MAX_POINTS, sizeof(double));
	s = malloc(sizeof(*s));
	cd->nruns++;     /* counted now so compare_free frees the arrays */
	if (!r->t || !r->dirty_kb || !r->thresh_kb || !r->tput_kBps || !s) {
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
		for (int d = 0; d < s->ndisks; d++)
			tp += s->disks[d].rkB_s + s->disks[d].wkB_s;
		r->tput_kBps[n] = tp;
		n++;
	}
	r->n = n;
	free(s);
	return 0;
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
		if ((rc = add_run(cd, rec, label, index++, t0, t1, status)))
			return rc;
	}
	if (!any && ns)
		return add_run(cd, rec, deflabel, 0, recording_time(rec, RK_SAMPLE, 0), tend, -1);
	return 0;
}

static void list_labels(const struct result_set *rs, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < rs->n && o < len; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(rs->v[j].label, rs->v[i].label);
		if (!seen)
			o += (size_t)snprintf(buf + o, len - o, "%s\"%s\"", o ? ", " : "", rs->v[i].label);
	}
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

/* Labels seen so far and the source that gave each first: a label that
 * a later source also gives is said once, never pooled silently. */
struct label_src {
	char label[RP_LABEL_LEN];
	int src;
	bool said;
};

static int note_label(struct label_src **v, size_t *n, char *const *paths, int s, const char *label, FILE *warn)
{
	for (size_t i = 0; i < *n; i++) {
		struct label_src *l = &(*v)[i];
		if (strcmp(l->label, label))
			continue;
		if (l->src != s && strcmp(paths[l->src], paths[s]) && !l->said && warn)
			fprintf(warn, "iodash: note: %s and %s both give label \"%s\": counted as runs of one label\n",
				paths[l->src], paths[s], label);
		l->said |= l->src != s;
		return 0;
	}
	struct label_src *nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	memset(&nv[*n], 0, sizeof(nv[*n]));
	snprintf(nv[*n].label, sizeof(nv[*n].label), "%s", label);
	nv[*n].src = s;
	(*n)++;
	return 0;
}

int compare_load(struct compare_data *cd, char *const *paths, int npaths,
		 const char *baseline, const char *metric, const char *parser,
		 char *err, size_t errlen, FILE *warn)
{
	struct renum rn = { 0 };
	struct label_src *seen = NULL;
	size_t nseen = 0;
	char names[64][RP_NAME_LEN];
	int rc = 0;

	memset(cd, 0, sizeof(*cd));
	if (baseline)
		snprintf(cd->baseline, sizeof(cd->baseline), "%s", baseline);
	for (int s = 0; s < npaths; s++) {
		struct result_set rs = { 0 };
		char bn[256];
		size_t before = cd->results.n;
		int kind = recording_sniff(paths[s]);

		if (kind < 0) {
			snprintf(err, errlen, "%s: %s", paths[s], strerror(-kind));
			rc = kind;
			goto fail;
		}
		if (kind) {
			struct recording *rec;
			const char *label;
			if ((rc = recording_open(&rec, paths[s], err, errlen)))
				goto fail;
			if (warn && recording_warning(rec)[0])
				fprintf(warn, "iodash: warning: %s\n", recording_warning(rec));
			label = recording_header(rec)->label;
			if (!label[0])
				label = base_name(paths[s], bn, sizeof(bn));
			rc = recording_load_results(rec, false, &rs);
			if (!rc)
				rc = load_runs(cd, rec, label);
			recording_close(rec);
			if (rc) {
				snprintf(err, errlen, "%s: %s", paths[s], strerror(-rc));
				result_set_free(&rs);
				goto fail;
			}
		} else {
			char lab[RP_LABEL_LEN];
			struct parser_note notes[PARSER_NOTES_MAX];
			size_t nn = 0;
			text_label(paths, s, lab, sizeof(lab));
			rc = parser_parse_file_notes(paths[s], parser, lab, &rs, notes, PARSER_NOTES_MAX, &nn, err, errlen);
			if (nn) {
				struct compare_note *nv = realloc(cd->notes, (cd->nnotes + nn) * sizeof(*nv));
				if (!nv) {
					result_set_free(&rs);
					snprintf(err, errlen, "out of memory");
					rc = -ENOMEM;
					goto fail;
				}
				cd->notes = nv;
				for (size_t i = 0; i < nn; i++) {
					snprintf(nv[cd->nnotes].source, sizeof(nv[cd->nnotes].source), "%s", paths[s]);
					nv[cd->nnotes++].n = notes[i];
				}
			}
			if (rc) {
				result_set_free(&rs);
				goto fail;
			}
		}
		for (size_t i = 0; i < rs.n; i++) {
			struct result_point p = rs.v[i];
			if (!session_point_is_final(&p))
				continue;
			if ((rc = note_label(&seen, &nseen, paths, s, p.label, warn)) ||
			    (rc = renumber(&rn, (size_t)s, &p)) || (rc = result_set_add(&cd->results, &p))) {
				snprintf(err, errlen, "out of memory");
				result_set_free(&rs);
				goto fail;
			}
		}
		result_set_free(&rs);
		if (warn && cd->results.n == before)
			fprintf(warn, "iodash: warning: %s: no result points found (%s)\n", paths[s],
				kind ? "the recording has no benchmark results" :
				"no parser recognised its format");
		cd->nsources++;
	}
	cd->nmetrics = session_list_metrics(&cd->results, names, 64);
	if (!cd->nmetrics) {
		snprintf(err, errlen, "no result points in %s%s", npaths == 1 ? paths[0] : "any of the sources",
			 npaths == 1 ? "" : " given");
		rc = -ENOENT;
		goto fail;
	}
	if (metric) {
		size_t k;
		for (k = 0; k < cd->nmetrics && strcmp(names[k], metric); k++)
			;
		if (k == cd->nmetrics) {
			size_t o = (size_t)snprintf(err, errlen, "--metric %s: not in the sources; they have:", metric);
			for (k = 0; k < cd->nmetrics && o < errlen; k++)
				o += (size_t)snprintf(err + o, errlen - o, " %s", names[k]);
			rc = -ESRCH;
			goto fail;
		}
		memmove(names[0], names[k], RP_NAME_LEN);
		cd->nmetrics = 1;
	}
	cd->metrics = calloc(cd->nmetrics, sizeof(*cd->metrics));
	cd->curves = calloc(cd->nmetrics, sizeof(*cd->curves));
	if (!cd->metrics || !cd->curves) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (size_t k = 0; k < cd->nmetrics; k++) {
		const char *b = baseline;
		memcpy(cd->metrics[k], names[k], RP_NAME_LEN);
		rc = session_build_curves(&cd->results, names[k], b, &cd->curves[k]);
		if (rc == -ESRCH) {
			/* the baseline may lack a metric the others have: compare
			 * that metric against its own first label, and say so */
			if (k == 0 || cd->nmetrics == 1) {
				char labels[512];
				list_labels(&cd->results, labels, sizeof(labels));
				snprintf(err, errlen, "--baseline %s: no such label; the labels are %s", baseline, labels);
				goto fail;
			}
			rc = session_build_curves(&cd->results, names[k], NULL, &cd->curves[k]);
		}
		if (rc) {
			snprintf(err, errlen, "building the curves of %s: %s", names[k], strerror(-rc));
			goto fail;
		}
	}
	free(rn.v);
	free(seen);
	return 0;
fail:
	free(rn.v);
	free(seen);
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
	}
	free(cd->runs);
	free(cd->notes);
	result_set_free(&cd->results);
	memset(cd, 0, sizeof(*cd));
}

/* ---- printing ---- */

static const struct curve_point *point_at(const struct curve *c, double x)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->pts[i].x == x)
			return &c->pts[i];
	return NULL;
}

/* Every x of any label, ascending. */
static size_t all_x(const struct curve_set *cs, double **out)
{
	size_t n = 0, cap = 0;
	double *v = NULL;

	for (size_t l = 0; l < cs->n; l++)
		for (size_t i = 0; i < cs->v[l].n; i++) {
			double x = cs->v[l].pts[i].x;
			size_t j;
			for (j = 0; j < n && v[j] != x; j++)
				;
			if (j < n)
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 32;
				double *nv = realloc(v, cap * sizeof(*v));
				if (!nv) {
					free(v);
					*out = NULL;
					return 0;
				}
				v = nv;
			}
			/* insertion keeps it sorted */
			for (j = n; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
			n++;
		}
	*out = v;
	return n;
}

static void fmt_x(char *b, size_t n, double x)
{
	if (x == floor(x) && fabs(x) < 1e15)
		snprintf(b, n, "%.0f", x);
	else
		snprintf(b, n, "%g", x);
}

static size_t base_index(const struct curve_set *cs)
{
	for (size_t l = 0; l < cs->n; l++)
		if (!strcmp(cs->v[l].label, cs->baseline))
			return l;
	return 0;
}

#define W_MEAN 11
#define W_SD 9
#define W_COV 8
#define W_N 4
#define W_CHG 10

static void print_text(const struct curve_set *cs, FILE *out)
{
	const struct curve *c0 = &cs->v[0];
	size_t bi = base_index(cs), nx;
	double *xs;

	nx = all_x(cs, &xs);
	fprintf(out, "%s%s%s%s by %s: mean of N runs",
		c0->metric, c0->unit[0] ? " (" : "", c0->unit, c0->unit[0] ? ")" : "",
		c0->x_name[0] ? c0->x_name : "x");
	if (cs->n > 1)
		fprintf(out, "; change against %s; * = p < 0.05 (Welch's t-test)", cs->baseline);
	fprintf(out, "\n\n%8s", "");
	for (size_t l = 0; l < cs->n; l++) {
		int w = W_MEAN + W_SD + W_COV + W_N + (l != bi ? W_CHG + 1 : 0);
		char lab[RP_LABEL_LEN + 16];
		snprintf(lab, sizeof(lab), "%s (%d run%s)", cs->v[l].label, cs->v[l].runs,
			 cs->v[l].runs == 1 ? "" : "s");
		fprintf(out, "  %*s", w, lab);
	}
	fprintf(out, "\n%8.8s", c0->x_name[0] ? c0->x_name : "x");
	for (size_t l = 0; l < cs->n; l++) {
		fprintf(out, "  %*s%*s%*s%*s", W_MEAN, "mean", W_SD, "stddev", W_COV, "CoV", W_N, "N");
		if (l != bi)
			fprintf(out, "%*s ", W_CHG, "change");
	}
	fputc('\n', out);
	for (size_t i = 0; i < nx; i++) {
		char xb[32];
		fmt_x(xb, sizeof(xb), xs[i]);
		fprintf(out, "%8s", xb);
		for (size_t l = 0; l < cs->n; l++) {
			const struct curve_point *p = point_at(&cs->v[l], xs[i]);
			fputs("  ", out);
			if (!p) {
				fprintf(out, "%*s%*s%*s%*s", W_MEAN, "-", W_SD, "-", W_COV, "-", W_N, "0");
				if (l != bi)
					fprintf(out, "%*s ", W_CHG, "-");
				continue;
			}
			fprintf(out, "%*.2f", W_MEAN, p->mean);
			if (p->n > 1)
				fprintf(out, "%*.2f%*.2f%%", W_SD, p->stddev, W_COV - 1, p->cov);
			else
				fprintf(out, "%*s%*s", W_SD, "-", W_COV, "-");
			fprintf(out, "%*d", W_N, p->n);
			if (l != bi) {
				if (p->have_change)
					fprintf(out, "%+*.2f%%%c", W_CHG - 1, p->change_pct, p->significant ? '*' : ' ');
				else
					fprintf(out, "%*s ", W_CHG, "-");
			}
		}
		fputc('\n', out);
	}
	free(xs);
}

/* Without trailing blanks: the table goes into mails. */
void compare_print_text_metric(const struct curve_set *cs, FILE *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		print_text(cs, out);
		return;
	}
	print_text(cs, m);
	fclose(m);
	for (char *p = buf, *nl; p && *p; p = nl + 1) {
		char *e;
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		for (e = nl; e > p && e[-1] == ' '; e--)
			;
		fprintf(out, "%.*s\n", (int)(e - p), p);
		if (!*nl)
			break;
	}
	free(buf);
}



static void json_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.10g", v);
	else
		fputs("null", out);
}

static void csv_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.10g", v);
}

int compare_print(const struct compare_data *cd, enum out_format fmt, FILE *out)
{
	if (fmt == FMT_CSV)
		fputs("metric,unit,x_name,x,label,runs,n,mean,stddev,cov_pct,min,max,hmean,"
		      "baseline,change_pct,p_value,significant\n", out);
	if (fmt == FMT_JSON)
		fputs("{\"metrics\": [", out);
	for (size_t k = 0; k < cd->nmetrics; k++) {
		const struct curve_set *cs = &cd->curves[k];
		if (fmt == FMT_TEXT) {
			if (k)
				fputc('\n', out);
			compare_print_text_metric(cs, out);
			continue;
		}
		if (fmt == FMT_JSON) {
			fprintf(out, "%s\n {\"metric\": ", k ? "," : "");
			rec_json_str(out, cd->metrics[k]);
			fputs(", \"unit\": ", out);
			rec_json_str(out, cs->n ? cs->v[0].unit : "");
			fputs(", \"x_name\": ", out);
			rec_json_str(out, cs->n ? cs->v[0].x_name : "");
			fputs(", \"baseline\": ", out);
			rec_json_str(out, cs->baseline);
			fputs(", \"labels\": [", out);
		}
		for (size_t l = 0; l < cs->n; l++) {
			const struct curve *c = &cs->v[l];
			if (fmt == FMT_JSON) {
				fprintf(out, "%s\n  {\"label\": ", l ? "," : "");
				rec_json_str(out, c->label);
				fprintf(out, ", \"runs\": %d, \"points\": [", c->runs);
			}
			for (size_t i = 0; i < c->n; i++) {
				const struct curve_point *p = &c->pts[i];
				if (fmt == FMT_CSV) {
					rec_csv_str(out, c->metric);
					fputc(',', out);
					rec_csv_str(out, c->unit);
					fputc(',', out);
					rec_csv_str(out, c->x_name);
					fprintf(out, ",%.10g,", p->x);
					rec_csv_str(out, c->label);
					fprintf(out, ",%d,%d,", c->runs, p->n);
					csv_num(out, p->mean);
					fputc(',', out);
					csv_num(out, p->n > 1 ? p->stddev : NAN);
					fputc(',', out);
					csv_num(out, p->n > 1 ? p->cov : NAN);
					fprintf(out, ",%.10g,%.10g,", p->min, p->max);
					csv_num(out, p->hmean);
					fputc(',', out);
					rec_csv_str(out, cs->baseline);
					fputc(',', out);
					csv_num(out, p->have_change ? p->change_pct : NAN);
					fputc(',', out);
					csv_num(out, p->p_value >= 0 ? p->p_value : NAN);
					fprintf(out, ",%d\n", p->significant);
				} else {
					fprintf(out, "%s\n   {\"x\": ", i ? "," : "");
					json_num(out, p->x);
					fprintf(out, ", \"n\": %d, \"mean\": ", p->n);
					json_num(out, p->mean);
					fputs(", \"stddev\": ", out);
					json_num(out, p->n > 1 ? p->stddev : NAN);
					fputs(", \"cov_pct\": ", out);
					json_num(out, p->n > 1 ? p->cov : NAN);
					fputs(", \"min\": ", out);
					json_num(out, p->min);
					fputs(", \"max\": ", out);
					json_num(out, p->max);
					fputs(", \"hmean\": ", out);
					json_num(out, p->hmean);
					fputs(", \"change_pct\": ", out);
					json_num(out, p->have_change ? p->change_pct : NAN);
					fputs(", \"p_value\": ", out);
					json_num(out, p->p_value >= 0 ? p->p_value : NAN);
					fprintf(out, ", \"significant\": %s}", p->significant ? "true" : "false");
				}
			}
			if (fmt == FMT_JSON)
				fputs("]}", out);
		}
		if (fmt == FMT_JSON)
			fputs("]}", out);
	}
	if (fmt == FMT_JSON) {
		fputs("],\n \"runs\": [", out);
		for (size_t i = 0; i < cd->nruns; i++) {
			const struct compare_run *r = &cd->runs[i];
			fprintf(out, "%s\n  {\"label\": ", i ? "," : "");
			rec_json_str(out, r->label);
			fputs(", \"source\": ", out);
			rec_json_str(out, r->source);
			fprintf(out, ", \"index\": %d, \"exit_status\": %d, \"samples\": %zu}",
				r->index, r->exit_status, r->n);
		}
		fputs("]}\n", out);
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

int cmd_compare(const struct iodash_opts *o)
{
	struct compare_data cd;
	char err[1024];
	int rc;

	if (o->nargs < 1) {
		fprintf(stderr, "iodash compare: give one or more recordings or text files (see iodash --help)\n");
		return 2;
	}
	rc = compare_load(&cd, o->args, o->nargs, o->baseline, o->metric, o->parser, err, sizeof(err), stderr);
	if (rc) {
		fprintf(stderr, "iodash compare: %s\n", err);
		return rc == -ESRCH ? 2 : 1;
	}
	/* a table not understood is said, whatever the output; --explain says
	 * how every table was read */
	compare_print_notes(&cd, o->explain, "iodash: ", stderr);
	if (o->format != FMT_NONE) {
		rc = compare_print(&cd, o->format, stdout);
		if (!rc && o->format == FMT_TEXT && cd.nnotes) {
			fputs("\ntables read from:\n", stdout);
			compare_print_notes(&cd, true, "  ", stdout);
		}
		if (fflush(stdout) || rc) {
			fprintf(stderr, "iodash compare: writing the table: %s\n", strerror(errno ? errno : EIO));
			rc = 1;
		}
	} else if (!isatty(STDOUT_FILENO)) {
		/* not a terminal: the text table is what a pipe wants */
		rc = compare_print(&cd, FMT_TEXT, stdout) ? 1 : 0;
	} else {
		rc = ui_compare_run(&cd, o);
	}
	compare_free(&cd);
	return rc;
}
