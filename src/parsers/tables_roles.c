/* The table reader, stage 2: the roles of a found table's axes.  Which
 * cells key a row (statistic, x, name), which value column is x, whether
 * the header names what is compared or what is measured (the rows or the
 * title then name what is compared), whether the header holds x (the
 * table is transposed), and where the metric's and x's names come from.
 * When nothing decides, the roles say so and the table is not read. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tables_internal.h"

static bool tb_rows_have_names(struct tb_state *st, const struct tb_table *t);
static bool tb_rows_are_labels(struct tb_state *st, const struct tb_table *t);

/* A column headed "diff", "%diff", "delta", "change", "speedup" compares
 * the columns before it: they are what is compared (a "Ratio" may be over
 * another table, as contest's is over no_load). */
bool tables_compares_columns(const struct tb_table *t)
{
	for (int g = 0; g < t->ng; g++) {
		const char *h = t->g[g].head;
		if (tables_is_derived_head(h) && !strcasestr(h, "ratio"))
			return true;
	}
	return t->derived_head;
}

/* The statistic, x and name of a row's key cells ("Hmean tput-16",
 * "Amean latency-4", "Min 1-files/sec", "16", "randread 4k"). */
void tables_read_row_key(const struct tb_row *r, const struct tb_table *t, char *stat, size_t sl, char *name,
			 size_t nl, double *x, bool *has_x, char *xname, size_t xl)
{
	int keyend = t->keyend;
	stat[0] = name[0] = 0;
	*has_x = false;
	for (int i = 0; i < r->n && r->c[i].col < keyend; i++) {
		const struct tb_cell *c = &r->c[i];
		if (c->col >= t->namecol && c->end <= t->nameend) {
			size_t k = strlen(name);
			if (k && k + 1 < nl)
				name[k++] = ' ';
			pp_strlcpy(name + k, c->text, nl - k);
			continue;
		}
		const char *eq = strchr(c->text, '=');
		double kib;
		if (!*has_x && eq && pp_size_to_kib(eq + 1, strlen(eq + 1), &kib)) {
			*x = kib;
			*has_x = true;
			pp_strlcpy(xname, "bs_kb", xl);
			continue;
		}
		if (!stat[0] && !name[0] && tables_is_stat_word(c->text)) {
			pp_strlcpy(stat, c->text, sl);
			continue;
		}
		double v;
		bool suf;
		size_t n = strlen(c->text);
		size_t used = tables_parse_number(c->text, n, &v, &suf);
		/* "Run 1:", "run 2", "#3", "iteration 4": which repetition it
		 * is, never x: the rows are runs of one key */
		if (tables_is_run_word(c->text) && i + 1 < r->n && r->c[i + 1].col < keyend) {
			const char *nt = r->c[i + 1].text;
			size_t nn = strlen(nt);
			if (tables_parse_number(nt, nn, &v, &suf) + (nn && nt[nn - 1] == ':') == nn && nn) {
				i++;
				continue;
			}
		}
		if (c->text[0] == '#' &&
		    tables_parse_number(c->text + 1, n - 1, &v, &suf) + (c->text[n - 1] == ':') + 1 == n && n > 1)
			continue;
		if (!*has_x && used && (used == n || (used + 1 == n && c->text[used] == ':'))) {
			*x = v;
			*has_x = true;
			/* "4 clients": the word after the figure names x */
			if (i + 1 < r->n && r->c[i + 1].col < keyend && r->c[i + 1].kind == TB_WORD &&
			    tables_names_x(r->c[i + 1].text)) {
				tables_make_metric_name(r->c[i + 1].text, xname, xl);
				i++;
			}
			continue;
		}
		/* "tput-16", "disk-41", "send-64": name and x; "1-files/sec": x and name */
		const char *dash = strrchr(c->text, '-');
		if (!*has_x && dash && dash[1] &&
		    tables_parse_number(dash + 1, strlen(dash + 1), &v, &suf) == strlen(dash + 1)) {
			*x = v;
			*has_x = true;
			size_t k = (size_t)(dash - c->text);
			char tmp[64];
			memcpy(tmp, c->text, k);
			tmp[k] = 0;
			if (!name[0])
				pp_strlcpy(name, tmp, nl);
			continue;
		}
		if (!*has_x && used && c->text[used] == '-') {
			*x = v;
			*has_x = true;
			/* "1-groups:", "16-threads": the word names x, not a metric */
			if (tables_names_x(c->text + used + 1))
				tables_make_metric_name(c->text + used + 1, xname, xl);
			else if (!name[0])
				pp_strlcpy(name, c->text + used + 1, nl);
			continue;
		}
		/* other words: the row's name ("." of tiobench's Dir column says nothing) */
		bool alnum = false;
		for (const char *q = c->text; *q && !alnum; q++)
			alnum = isalnum((unsigned char)*q);
		if (!alnum)
			continue;
		size_t k = strlen(name);
		if (k && k + 1 < nl)
			name[k++] = ' ';
		pp_strlcpy(name + k, c->text, nl - k);
	}
	size_t k = strlen(name);
	while (k && name[k - 1] == ':')
		name[--k] = 0;
}

/* Group g's values grow down the rows, all whole numbers, one a row. */
static bool tb_group_counts_up(struct tb_state *st, const struct tb_table *t, int g, int nrows)
{
	struct tb_row *r = &st->rows[0];
	double seen[TB_ROWS];
	int ns = 0;
	bool distinct = true, ints = true;
	for (int li = t->first; distinct && tables_next_row(st, t, &li, r); li++) {
		for (int i = 0; i < r->n; i++)
			if (r->c[i].kind == TB_VAL && r->c[i].col < t->g[g].vend && t->g[g].vcol < r->c[i].end) {
				distinct = distinct && (!ns || seen[ns - 1] < r->c[i].v);
				ints = ints && r->c[i].v == floor(r->c[i].v);
				if (ns < TB_ROWS)
					seen[ns++] = r->c[i].v;
				break;
			}
	}
	return distinct && ints && ns == nrows;
}

/* Do all rows hold the same figure in group g? */
static bool tb_group_constant(struct tb_state *st, const struct tb_table *t, int g)
{
	struct tb_row *r = &st->rows[0];
	double first = NAN;
	int n = 0;
	for (int li = t->first; tables_next_row(st, t, &li, r); li++) {
		for (int i = 0; i < r->n; i++)
			if (r->c[i].kind == TB_VAL && r->c[i].col < t->g[g].vend && t->g[g].vcol < r->c[i].end) {
				if (n++ && r->c[i].v != first)
					return false;
				first = r->c[i].v;
				break;
			}
	}
	return n >= 2;
}

/* A head that is an x value: "16", "JOBS=16", "16 jobs", "4 threads". */
bool tables_read_head_x(const char *h, double *v, char *xname, size_t xl)
{
	const char *eq = strchr(h, '=');
	const char *num = eq ? eq + 1 : h;
	size_t n = strlen(num);
	bool suf;
	size_t used = n ? tables_parse_number(num, n, v, &suf) : 0;
	if (!used || suf)
		return false;
	if (used == n) {
		if (eq && xname) {
			char w[RP_NAME_LEN];
			size_t k = (size_t)(eq - h) < sizeof(w) - 1 ? (size_t)(eq - h) : sizeof(w) - 1;
			memcpy(w, h, k);
			w[k] = 0;
			tables_make_metric_name(w, xname, xl);
		}
		return true;
	}
	if (eq || num[used] != ' ' || !tables_is_x_word(num + used + 1))
		return false;
	if (xname)
		tables_make_metric_name(num + used + 1, xname, xl);
	return true;
}

/* A value column that is x: a leading one under an x word (or under
 * nothing, with more labelled columns after it), one under an x word
 * further on, or under metric names (fs_mark's FSUse% Count Size,
 * tiobench's File Size, Num Thr) the first whose values all differ, the
 * constant ones before it being the test's settings. */
void tables_find_x(struct tb_state *st, struct tb_table *t, int nrows, bool compares, struct tb_roles *ro)
{
	/* "1 job  4 jobs  16 jobs": x values over the columns, no x column */
	double hv;
	if (t->ng >= 2 && tables_read_head_x(t->g[0].head, &hv, NULL, 0) &&
	    tables_read_head_x(t->g[1].head, &hv, NULL, 0))
		return;
	/* a column under an x word whose figures never change ("File Size
	 * 256" on every row) is a setting of the test; x is further on */
	if (t->ng >= 2 && (tables_names_x(t->g[0].head) || (!t->g[0].head[0] && t->g[1].head[0])) &&
	    !(nrows >= 2 && t->g[0].head[0] && tb_group_constant(st, t, 0))) {
		ro->xcol = true;
		if (t->g[0].head[0])
			pp_strlcpy(ro->keyhead, t->g[0].head, sizeof(ro->keyhead));
	}
	for (int g = 1; !ro->xcol && g < t->ng && g < 4; g++)
		if (tables_names_x(t->g[g].head) && g + 1 < t->ng && !(nrows >= 2 && tb_group_constant(st, t, g))) {
			ro->xcol = true;
			ro->skip_before = g;
			pp_strlcpy(ro->keyhead, t->g[g].head, sizeof(ro->keyhead));
		}
	/* figures that grow row by row are x only over three rows or more,
	 * and never where a "kernel" (config, patch...) column names the rows */
	static const char *const lw[] = { "kernel", "kernels", "config", "patch", "version", "tree", NULL };
	for (size_t q = 0; lw[q]; q++)
		if (!strcasecmp(ro->keyhead, lw[q]))
			return;
	if (ro->xcol || compares || t->ng < 2 || nrows < 3)
		return;
	int nm = 0;
	for (int g = 0; g < t->ng; g++)
		nm += t->g[g].head[0] && tables_is_metric_head(t->g[g].head);
	if (nm * 2 < t->ng && !ro->title[0])
		return;
	/* rows with names of their own ("2.6.30", "seq") are keyed already:
	 * a column that grows down them is a figure like the others */
	if (tb_rows_have_names(st, t))
		return;
	for (int g = 0; g + 1 < t->ng && g < 4; g++)
		if (tb_group_counts_up(st, t, g, nrows)) {
			ro->xcol = true;
			ro->skip_before = g;
			pp_strlcpy(ro->keyhead, t->g[g].head, sizeof(ro->keyhead));
			break;
		}
}

/* The header holds x ("threads:  1  2  4", "JOBS=1  JOBS=10",
 * "numjobs=1 ..."): the table is transposed, its rows are the labels;
 * x's name into ro->txname. */
static bool tb_heads_are_x(const struct tb_table *t, struct tb_roles *ro)
{
	bool transposed = true;
	for (int g = ro->xcol ? ro->skip_before + 1 : 0; g < t->ng && transposed; g++) {
		if (t->g[g].derived)
			continue;
		double v;
		char xn[RP_NAME_LEN] = "";
		transposed = tables_read_head_x(t->g[g].head, &v, xn, sizeof(xn));
		if (transposed && xn[0] && !ro->txname[0])
			pp_strlcpy(ro->txname, xn, sizeof(ro->txname));
	}
	if (transposed && !ro->txname[0])
		tables_make_metric_name(ro->keyhead[0] ? ro->keyhead : "x", ro->txname, sizeof(ro->txname));
	return transposed;
}

/* Under metric names, the rows name what is compared: a "Kernel" head
 * over them, a title that is prose ("To summarise:", dropped), or rows
 * named as labels (versions, "baseline", "patched").  Rows of other
 * names under no title ("seq", "rand" under "read  write") may be cases
 * as well as labels: that is not decided here, and tb_name_headed then
 * reads nothing of them. */
static bool tb_rows_name_labels(struct tb_state *st, const struct tb_table *t, struct tb_roles *ro)
{
	static const char *const lw[] = { "kernel", "kernels", "config", "patch", "version", "tree", NULL };
	static const char *const prose[] = { "to summarise", "to summarize", "summary", "results", "performance",
		NULL };
	bool rows_label = false;
	for (size_t q = 0; lw[q]; q++)
		rows_label = rows_label || !strcasecmp(ro->keyhead, lw[q]);
	for (size_t q = 0; prose[q]; q++)
		if (!strcasecmp(ro->title, prose[q])) {
			rows_label = !ro->heads_undecided; /* prose says not which axis */
			ro->title[0] = 0;
		}
	return rows_label || tb_rows_are_labels(st, t);
}

/* Does some row have a name of its own (not only x), none a statistic
 * (rows of "Hmean", "Amean": mmtests' layout, its columns are what is
 * compared)? */
static bool tb_rows_have_names(struct tb_state *st, const struct tb_table *t)
{
	struct tb_row *r = &st->rows[1];
	char stat[RP_NAME_LEN], name[RP_LABEL_LEN], xn[RP_NAME_LEN];
	bool named = false;
	for (int li = t->first; tables_next_row(st, t, &li, r); li++) {
		double x;
		bool has_x;
		tables_read_row_key(r, t, stat, sizeof(stat), name, sizeof(name), &x, &has_x, xn, sizeof(xn));
		if (stat[0])
			return false;
		named = named || name[0];
	}
	return named;
}

/* Does the header say it names what is compared: a version, a label word
 * ("baseline", "patched"), a commit id? */
static bool tb_heads_name_labels(const struct tb_table *t, const struct tb_roles *ro)
{
	for (int g = ro->xcol ? ro->skip_before + 1 : 0; g < t->ng; g++) {
		const char *h = t->g[g].head;
		if (t->g[g].derived || !h[0])
			continue;
		if (tables_title_names_label(h) || tables_is_commit_id(h, strlen(h)) || tables_has_commit_bracket(h))
			return true;
	}
	return false;
}

/* A title that ends "in UNIT" ("Performance in KIOPS"): the unit into
 * unit (unless one is set); false when it names none. */
static bool tb_title_unit(const char *title, char *unit, size_t len)
{
	const char *q = strstr(title, " in ");
	if (!q || strstr(q + 4, " in "))
		return false;
	q += 4;
	size_t n = strcspn(q, " :),");
	if (!n || q[n] || !tables_is_unit(q, n))
		return false;
	if (!unit[0])
		pp_strlcpy(unit, q, len);
	return true;
}

/* The roles: the header names what is compared, or what is measured (and
 * then the title or the row names what is compared). */
void tables_decide_roles(struct tb_state *st, struct tb_table *t, struct tb_roles *ro)
{
	int metricish = 0;
	for (int g = ro->xcol ? ro->skip_before + 1 : 0; g < t->ng; g++) {
		/* contest's "[runs]": how many runs a row's figures are the
		 * mean of, no result */
		const char *h = t->g[g].head;
		bool count = !strcasecmp(h, "[runs]") || !strcasecmp(h, "runs") || !strcasecmp(h, "#runs") ||
			     !strcasecmp(h, "samples");
		if (t->g[g].derived || tables_is_derived_head(h) || count) {
			t->g[g].derived = true;
			continue;
		}
		if (t->g[g].head[0]) {
			ro->labelled++;
			metricish += tables_is_metric_head(t->g[g].head);
		}
	}
	/* a column headed like a derived one (%diff, diff, ratio) compares
	 * the columns before it: those name what is compared */
	bool headed_derived = tables_compares_columns(t);
	ro->head_labels = ro->labelled && (!metricish || headed_derived);
	/* rows named "baseline", "patched", "vanilla", a kernel: the rows are
	 * what is compared, whatever the header holds */
	bool numeric_heads = ro->labelled >= 2;
	for (int g = ro->xcol ? ro->skip_before + 1 : 0; g < t->ng && numeric_heads; g++) {
		const char *h = t->g[g].head, *eq = strchr(h, '=');
		double v;
		bool suf;
		h = eq ? eq + 1 : h;
		numeric_heads = t->g[g].derived || (h[0] && tables_parse_number(h, strlen(h), &v, &suf) == strlen(h));
	}
	if (ro->head_labels && !headed_derived && !numeric_heads && tb_rows_are_labels(st, t))
		ro->head_labels = false;
	/* names over the columns and names on the rows: either may be what is
	 * compared; the header is taken only when something says so */
	if (ro->head_labels && !headed_derived && !numeric_heads && !ro->xcol && !t->robot &&
	    tb_rows_have_names(st, t) && !tb_heads_name_labels(t, ro)) {
		ro->head_labels = false;
		ro->heads_undecided = true;
	}
	ro->transposed = ro->head_labels && ro->labelled >= 2 && !ro->xcol && tb_heads_are_x(t, ro);
	/* the prose says what the figures are: it names the metric over
	 * any title line (a signature, "Steven", right above the table) */
	if (ro->head_labels && t->pmetric[0])
		pp_strlcpy(ro->tmetric, t->pmetric, sizeof(ro->tmetric));
	else if (ro->head_labels && !ro->title[0] && !t->section[0] && t->pbench[0] && !t->robot)
		pp_strlcpy(ro->bench, t->pbench, sizeof(ro->bench));
	else if (ro->head_labels && ro->title[0] && t->pbench[0] && !t->robot && !t->setting[0] && !t->section[0] &&
		 !strncasecmp(ro->title, "on ", 3) && !tables_title_names_metric(ro->title) &&
		 !strcasestr(ro->title, t->pbench)) {
		/* "On numa 0:" over kernels, in a post about tbench: where the
		 * run was, the setting of the table (never pooled with the
		 * next "On numa 0-1:" one); the benchmark names the metric */
		pp_strlcpy(t->setting, ro->title + 3, sizeof(t->setting));
		pp_strlcpy(ro->tmetric, t->pbench, sizeof(ro->tmetric));
	} else if (ro->head_labels && ro->title[0] && tb_title_unit(ro->title, t->punit, sizeof(t->punit))) {
		/* "Performance in KIOPS": the unit of the figures; the words
		 * before it name the metric unless they say nothing more */
		char m[RP_LABEL_LEN];
		pp_strlcpy(m, ro->title, sizeof(m));
		*strstr(m, " in ") = 0;
		if (strcasecmp(m, "performance") && strcasecmp(m, "results") && strcasecmp(m, "result"))
			tables_make_metric_name(m, ro->tmetric, sizeof(ro->tmetric));
	} else if (ro->head_labels && ro->title[0] && strchr(ro->title, ',')) {
		/* "dbench throughput, MB/sec, mean (stddev) of 3 runs": what is
		 * measured, then its unit and how: the first part names it */
		char m[RP_LABEL_LEN];
		pp_strlcpy_span(m, sizeof(m), ro->title, strcspn(ro->title, ","));
		tables_make_metric_name(m, ro->tmetric, sizeof(ro->tmetric));
	} else if (ro->head_labels && ro->title[0]) {
		/* mmtests' caption "tbench4 Throughput (misleading but
		 * traditional)": the benchmark's name is the metric's, as
		 * where the prose names it */
		char w[RP_NAME_LEN], b[RP_NAME_LEN];
		const char *q = ro->title;
		bool cap = tables_next_title_word(&q, w, sizeof(w), "") && tables_is_bench_word(w, b, sizeof(b)) &&
			   !strncasecmp(q, " Throughput", 11) && (!q[11] || !strcmp(q + 11, " (misleading but traditional)"));
		if (cap)
			pp_strlcpy(ro->tmetric, b, sizeof(ro->tmetric));
		else
			tables_make_metric_name(ro->title, ro->tmetric, sizeof(ro->tmetric));
	}
	/* the header names what is compared: a section's heading names what
	 * is measured ("~ hackbench ~" over "NPS1" and its table) */
	if (ro->head_labels && t->section[0] && !strcasestr(ro->title, t->section)) {
		char m[RP_NAME_LEN * 2];
		snprintf(m, sizeof(m), "%s%s%s", t->section, ro->tmetric[0] ? " " : "", ro->tmetric);
		tables_make_metric_name(m, ro->tmetric, sizeof(ro->tmetric));
	}
	tables_make_metric_name(ro->keyhead[0] ? ro->keyhead : t->pxname[0] && ro->xcol ? t->pxname : t->pxnear[0] ? t->pxnear : "x",
				ro->xname, sizeof(ro->xname));
	ro->rows_label = tb_rows_name_labels(st, t, ro);
	ro->label_words = tb_rows_are_labels(st, t);
}

/* Every row's first name is a label word or a kernel version; rows named
 * like a derived one ("speed-up(times):", "ratio") aside, as they are
 * never read. */
static bool tb_rows_are_labels(struct tb_state *st, const struct tb_table *t)
{
	struct tb_row *r = &st->rows[1];
	int n = 0;
	for (int li = t->first; tables_next_row(st, t, &li, r); li++) {
		if (!r->n || r->c[0].kind != TB_WORD || r->c[0].col >= t->keyend)
			return false;
		char w[64];
		pp_strlcpy(w, r->c[0].text, sizeof(w));
		size_t k = strcspn(w, "(");
		w[k] = 0;
		while (k && w[k - 1] == ':')
			w[--k] = 0;
		if (k && tables_is_derived_head(w))
			continue;
		if (!tables_is_label_word(w))
			return false;
		n++;
	}
	return n >= 2;
}
