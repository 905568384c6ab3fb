/* The table reader, a table read: its points, cell by cell, under the
 * label, x and metric its roles give (and its stated spreads), every cell
 * not read counted for the note.  tables_read_table() runs a found table
 * through the stages: columns, heads, roles, rows, then its note. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tables_internal.h"

/* The table (from 1) that first gave this label, setting, metric and x;
 * the current one when none did (remembered, up to TB_KEYS). */
static int tb_key_table(struct tb_state *st, const char *label, const char *setting, const char *metric, double x)
{
	unsigned h = 2166136261u;
	const char *parts[3] = { label, setting, metric };
	for (int i = 0; i < 3; i++) {
		for (const char *s = parts[i]; *s; s++)
			h = (h ^ (unsigned char)*s) * 16777619u;
		h = (h ^ 0xffu) * 16777619u;
	}
	char xs[32];
	snprintf(xs, sizeof(xs), "%.9g", x);
	for (const char *s = xs; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	for (int i = 0; i < st->nkeys; i++)
		if (st->keys[i].h == h)
			return st->keys[i].table;
	if (st->nkeys < TB_KEYS)
		st->keys[st->nkeys++] = (struct tb_key){ h, st->table_no };
	return st->table_no;
}

/* Is label a derived column's name or a figure (see tb_emit)? */
static bool tb_label_derived(const char *label)
{
	char w[RP_LABEL_LEN];
	for (const char *q = label; *q;) {
		while (*q == ' ')
			q++;
		size_t n = strcspn(q, " ");
		if (!n)
			break;
		pp_strlcpy(w, q, n + 1 < sizeof(w) ? n + 1 : sizeof(w));
		size_t k = strlen(w);
		while (k && strchr(":()", w[k - 1]))
			w[--k] = 0;
		static const char *const words[] = { "diff", "difference", "delta", "change", "changes", "speedup",
			"speed-up", "gain", NULL };
		/* "Baseline diff files": "diff" before a noun says different */
		const char *nx = q + n + strspn(q + n, " ");
		bool adjective = !strcasecmp(w, "diff") && isalpha((unsigned char)*nx);
		for (size_t i = 0; words[i] && !adjective; i++)
			if (!strcasecmp(w, words[i]))
				return true;
		q += n;
	}
	const char *s = label;
	while (*s == ' ')
		s++;
	bool marked = *s == '(' || *s == '*' || *s == '+' || *s == '-';
	s += marked;
	if (!isdigit((unsigned char)*s))
		return false;
	bool dot = false;
	while (isdigit((unsigned char)*s) || *s == '.') {
		dot = dot || *s == '.';
		s++;
	}
	while (*s == ' ')
		s++;
	if (marked)
		return !*s || *s == ')' || *s == '*' || *s == 'x';
	return !*s && !dot;
}

/* A point of the table being read.  Another table's point with the same
 * label, metric and x is no run of this one (two tables of one post are
 * two measurements: numjobs=1 and numjobs=3 under the same header): this
 * one's setting says "table N", N the table's number in the post. */
static void tb_emit(struct parser *p, const char *label, const char *setting, const char *x_name, double x,
		    const char *metric, const struct tb_cell *c, int lineno, int *bad)
{
	struct tb_state *st = p->st;
	char set[RP_LABEL_LEN];
	if (!metric[0])
		metric = "value";
	/* cut short, two names would be one metric: left out, and said */
	if (strlen(metric) >= RP_NAME_LEN) {
		st->longnames++;
		return;
	}
	/* what is compared is never a share or a change ("%CPU", "%diff",
	 * "delta", "change"), nor a figure ("+3", "(1.2)", "*9.23*", "16":
	 * a version has a dot) */
	if (strchr(label, '%') || tb_label_derived(label)) {
		st->pctlabels++;
		return;
	}
	/* once one point of the table is another table's, all that follow
	 * are kept apart too (a table is never half pooled) */
	if (tb_key_table(st, label, setting, metric, x) != st->table_no || st->apart) {
		st->apart = true;
		snprintf(set, sizeof(set), "%.*s%stable %d", RP_LABEL_LEN - 16, setting, setting[0] ? ", " : "",
			 st->table_no % 10000);
		setting = set;
	}
	if (!isfinite(c->v)) {
		if (!*bad)
			pp_note(p, lineno, lineno, false, "line %d: %.40s is out of range: read as n/a", lineno, c->text);
		(*bad)++;
		return;
	}
	struct result_point pt;
	memset(&pt, 0, sizeof(pt));
	pp_strlcpy(pt.label, label, sizeof(pt.label));
	pp_strlcpy(pt.setting, setting, sizeof(pt.setting));
	pt.run = -1;
	pp_strlcpy(pt.x_name, x_name, sizeof(pt.x_name));
	pt.x = x;
	pp_strlcpy(pt.metric, metric, sizeof(pt.metric));
	pt.value = c->v;
	pp_strlcpy(pt.unit, c->unit[0] ? c->unit : st->punit, sizeof(pt.unit));
	pt.flags = RP_FINAL;
	if (isfinite(c->spread) && c->spread >= 0) {
		pt.spread = c->spread;
		pt.flags |= RP_SPREAD;
	}
	pp_emit_point(p, &pt);
}

/* A title that ends in a rate in brackets ("throughput (files/sec)"):
 * the unit ("files/s") into unit (unless one is set); false when none. */
static bool tb_title_bracket_unit(const char *title, char *unit, size_t len)
{
	const char *b = strchr(title, '(');
	size_t n = b ? strcspn(b + 1, ")") : 0;
	if (!b || b == title || !n || b[1 + n] != ')' || b[2 + n] || !memchr(b + 1, '/', n) || memchr(b + 1, ' ', n))
		return false;
	/* "/sec" is "/s", as a cell's unit is named */
	size_t un = n > 4 && !strncmp(b + 1 + n - 4, "/sec", 4) ? n - 2 : n;
	char u[RP_UNIT_LEN];
	pp_strlcpy_span(u, sizeof(u), b + 1, un);
	if (!unit[0])
		pp_strlcpy(unit, u, len);
	return true;
}

/* The row's first name as a label (its ':' off); returns where the
 * names after it start (name[k] a blank) or end (name[k] its NUL). */
static size_t tb_first_name(const char *name, char *label, size_t llen)
{
	size_t k = strcspn(name, " ");
	pp_strlcpy(label, name, k + 1 < llen ? k + 1 : llen);
	size_t ll = strlen(label);
	while (ll && label[ll - 1] == ':')
		label[--ll] = 0;
	return k;
}

/* The label and the metric (before tables_make_metric_name, into mbuf) of group
 * g's cell in a table with a header (not a transposed one); false when
 * nothing names the label (the cell is then not read). */
static bool tb_name_headed(const struct tb_table *t, const struct tb_roles *ro, int g, const char *stat,
			   const char *name, char *label, size_t llen, char *mbuf, size_t mlen)
{
	const char *head = t->g[g].head, *title = ro->title;
	if (ro->head_labels) {
		pp_strlcpy(label, head, llen);
		const char *tm = ro->tmetric[0] ? ro->tmetric : stat[0] || !name[0] ? ro->bench : "";
		snprintf(mbuf, mlen, "%s%s%s%s%s", tm, tm[0] && stat[0] ? "_" : "", stat,
			 (tm[0] || stat[0]) && name[0] ? "_" : "", name);
	} else if (tables_is_version(name) || (name[0] && ro->rows_label)) {
		/* contest: "2.5.70-mm2  1  78  94.9" under "Kernel [runs] Time CPU%";
		 * columns headed "run1  run2" are runs of one metric */
		pp_strlcpy(label, name, llen);
		if (tables_is_run_head(head))
			head = "";
		snprintf(mbuf, mlen, "%s%s%s", title, title[0] && head[0] ? "_" : "", head);
	} else if (title[0] && !tables_title_names_metric(title) &&
		   (!ro->heads_undecided || tables_title_names_label(title))) {
		/* the title names what is compared: the row's name is part of
		 * what it measures, else rows of other names would be runs (a
		 * title naming what is measured, "Throughput (MB/s)", is no
		 * label: nothing names it then) */
		pp_strlcpy(label, title, llen);
		snprintf(mbuf, mlen, "%s%s%s%s%s", stat, stat[0] && name[0] ? "_" : "", name,
			 (stat[0] || name[0]) ? " " : "", head);
	} else {
		/* nothing names what is compared: the row's name may be a
		 * case of the test as well as a label; a guess would read
		 * values under a wrong label, so none is made */
		label[0] = 0;
		mbuf[0] = 0;
		return false;
	}
	return true;
}

/* No header: the title, else the row's first name, is the label; the
 * other names and the cell's own name make the metric. */
static void tb_name_unheaded(const struct tb_table *t, const struct tb_roles *ro, const struct tb_row *r,
			     const struct tb_cell *c, const char *stat, const char *name, char *label, size_t llen,
			     char *mbuf, size_t mlen)
{
	const char *rest = name, *title = ro->title;
	char tname[RP_NAME_LEN];
	size_t t0 = r->n ? strlen(r->c[0].text) : 0;
	bool named = t0 && r->c[0].col < t->keyend && r->c[0].text[t0 - 1] == ':' && !strchr(r->c[0].text, '=');
	char first[RP_LABEL_LEN];
	tb_first_name(name, first, sizeof(first));
	if (title[0] && !named && !tables_title_names_metric(title)) {
		pp_strlcpy(label, title, llen);
	} else if (!named && !tables_is_version(first) && !ro->label_words) {
		/* "Create 20000 files: 116.88": nothing says what is compared;
		 * the source's own label, and the whole name is the metric */
		label[0] = 0;
	} else {
		size_t k = tb_first_name(name, label, llen);
		rest = name[k] ? name + k + 1 : "";
		if (named && title[0]) {
			char tm[RP_NAME_LEN * 2];
			snprintf(tm, sizeof(tm), "%s%s%s", title, rest[0] ? " " : "", rest);
			pp_strlcpy(tname, tm, sizeof(tname));
			rest = tname;
		}
	}
	snprintf(mbuf, mlen, "%s%s%s%s%s", stat, stat[0] && rest[0] ? "_" : "", rest,
		 (stat[0] || rest[0]) && c->name[0] ? "_" : "", c->name);
}

/* The value cell of group g in row r (a missing one too), NULL none. */
const struct tb_cell *tables_find_group_cell(const struct tb_row *r, const struct tb_group *g)
{
	for (int i = 0; i < r->n; i++)
		if (r->c[i].col < g->vend && g->vcol < r->c[i].end && (r->c[i].kind == TB_VAL || r->c[i].kind == TB_MISS))
			return &r->c[i];
	return NULL;
}

/* Cell c of group g of a transposed table: the row's first name is the
 * label (rows named as versions, "baseline", "patched"), the group's
 * head x, the rest of the names the metric.  Rows of other names
 * ("read", "write") are what is measured: a title naming a label
 * ("baseline:") is then the label, and without one nothing is read (the
 * rows would be taken for labels: metrics as labels). */
static void tb_emit_transposed(struct parser *p, const struct tb_table *t, const struct tb_roles *ro, int g,
			       const char *name, const struct tb_cell *c, int lineno, struct tb_said *said)
{
	char metric[RP_NAME_LEN * 2], label[RP_LABEL_LEN], mbuf[RP_NAME_LEN * 3];
	double hx = 0;
	tables_read_head_x(t->g[g].head, &hx, NULL, 0);
	/* "iova_alloc_fast  145k iops  265k iops": the cells name what is
	 * measured (their unit), so the rows' names are what is compared;
	 * the benchmark the prose above names, else the title, the metric */
	size_t k0 = strcspn(name, " ");
	char first[RP_LABEL_LEN];
	pp_strlcpy_span(first, sizeof(first), name, k0);
	if (!ro->label_words && c->unit[0] && !name[k0] && first[0] && !tables_is_metric_head(first) &&
	    !tables_is_statistic_head(first)) {
		pp_strlcpy(label, first, sizeof(label));
		pp_strlcpy(mbuf, t->pbench[0] ? t->pbench : ro->title, sizeof(mbuf));
	} else if (!ro->label_words) {
		if (!ro->title[0] || !tables_title_names_label(ro->title)) {
			said->unlabelled++;
			return;
		}
		pp_strlcpy(label, ro->title, sizeof(label));
		pp_strlcpy(mbuf, name, sizeof(mbuf));
	} else {
		size_t k = tb_first_name(name, label, sizeof(label));
		/* no title: the benchmark the prose names ("fio 1 job") */
		const char *tt = ro->title[0] ? ro->title : name[k] ? "" : t->pbench;
		snprintf(mbuf, sizeof(mbuf), "%s%s%s", tt, tt[0] && name[k] ? "_" : "", name[k] ? name + k + 1 : "");
	}
	if (c->name[0]) {
		size_t ml = strlen(mbuf);
		snprintf(mbuf + ml, sizeof(mbuf) - ml, "%s%s", ml ? "_" : "", c->name);
	}
	tables_make_metric_name(mbuf, metric, sizeof(metric));
	tb_emit(p, label, t->setting, ro->txname, hx, metric, c, lineno, &said->bad);
	if (!said->emitted) {
		pp_strlcpy(said->metric, metric[0] ? metric : "value", sizeof(said->metric));
		pp_strlcpy(said->unit, c->unit[0] ? c->unit : ((const struct tb_state *)p->st)->punit, sizeof(said->unit));
		pp_strlcpy(said->x, ro->txname, sizeof(said->x));
	}
	said->emitted++;
}

/* The spread of group g in a line of spreads, NULL none. */
static const struct tb_cell *tb_group_spread(const struct tb_row *r, const struct tb_group *g)
{
	for (int i = 0; i < r->n; i++)
		if (r->c[i].kind == TB_SPREAD && isfinite(r->c[i].v) && r->c[i].col < g->end + 2 && g->col < r->c[i].end + 2)
			return &r->c[i];
	return NULL;
}

/* The points of one row of the table. */
static void tb_read_row(struct parser *p, struct tb_state *st, const struct tb_table *t, const struct tb_roles *ro,
			int li, struct tb_said *said)
{
	struct tb_row *r = &st->rows[0];
	const struct tb_row *spreads = NULL;
	if (li + 1 < st->n && st->ln[li + 1].depth == st->ln[li].depth && tables_line_is_spreads(st, li + 1))
		spreads = &st->rows[1];   /* tables_line_is_spreads left the cells there */
	tables_split_cells(st->ln[li].s, r);
	char stat[RP_NAME_LEN], name[RP_LABEL_LEN], rxname[RP_NAME_LEN];
	double x = 0;
	bool has_x;
	pp_strlcpy(rxname, ro->xname, sizeof(rxname));
	tables_read_row_key(r, t, stat, sizeof(stat), name, sizeof(name), &x, &has_x, rxname, sizeof(rxname));
	/* a name cut short would be another's ("perf-profile.calltrace...
	 * .record__mmap_r" of two rows): the row is left out, and said */
	for (int i = 0; i < r->n; i++)
		if (r->c[i].kind == TB_WORD && r->c[i].cut) {
			st->longnames++;
			return;
		}
	for (int i = 0; i < r->n; i++)
		if (r->c[i].col >= t->tailcol && r->c[i].text[0] != '(' && r->c[i].text[0] != '[' &&
		    strpbrk(r->c[i].text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")) {
			/* a mark in the margin ("*": look here) names nothing */
			size_t k = strlen(name);
			if (k && k + 1 < sizeof(name))
				name[k++] = ' ';
			pp_strlcpy(name + k, r->c[i].text, sizeof(name) - k);
		}
	/* a row named like a derived one ("speed-up(times):", "%diff",
	 * "delta"): no runs, whatever the table's layout */
	{
		char first[RP_LABEL_LEN];
		tb_first_name(name, first, sizeof(first));
		char *par = strchr(first, '(');
		if (par && par > first)
			*par = 0;
		if (first[0] && tables_is_derived_head(first)) {
			said->derived_rows++;
			return;
		}
	}
	for (int g = 0; g < t->ng; g++) {
		const struct tb_cell *c = tables_find_group_cell(r, &t->g[g]);
		if (ro->xcol && g < ro->skip_before) {
			said->settings += c && c->kind == TB_VAL;
			continue;
		}
		if (g == ro->skip_before && ro->xcol) {
			if (c && c->kind == TB_VAL && isfinite(c->v)) {
				x = c->v;
				has_x = true;
				/* a block size under "bs" ("4k", "1M"): in KiB, as
				 * fio's bs=4k is read */
				double kib;
				size_t tl = strlen(c->text);
				if ((!strcasecmp(ro->keyhead, "bs") || !strcasecmp(ro->keyhead, "block")) && tl &&
				    isalpha((unsigned char)c->text[tl - 1]) && pp_size_to_kib(c->text, tl, &kib)) {
					x = kib;
					pp_strlcpy(rxname, "bs_kb", sizeof(rxname));
				}
				/* "4 clients": the word after the figure names x */
				const struct tb_cell *nx = c + 1;
				if (nx < r->c + r->n && nx->kind == TB_WORD && tables_names_x(nx->text))
					tables_make_metric_name(nx->text, rxname, sizeof(rxname));
			} else {
				/* no figure in the x column ("delta", "avg", "total"
				 * under "1 2 4 8"): a summary row, not a point of x */
				said->derived_rows++;
				return;
			}
			continue;
		}
		if (c && c->kind == TB_MISS && !t->g[g].derived)
			said->missing++; /* "n/a", "-", "+++++": nothing to read */
		/* "1.2e", "~8341 MB/s" where a figure stands: not read, and said */
		if (!c && !t->g[g].derived) {
			for (int i = 0; i < r->n; i++)
				if (r->c[i].kind == TB_WORD && r->c[i].col < t->g[g].vend && t->g[g].vcol < r->c[i].end &&
				    r->c[i].col >= t->keyend) {
					if (!said->nofig++)
						said->nofig_line = st->ln[li].no;
					break;
				}
		}
		if (!c || c->kind != TB_VAL || t->g[g].derived)
			continue;
		/* "116.1 (3.2)": the spread written after the value, in its unit */
		struct tb_cell vc;
		if (c + 1 < r->c + r->n && c[1].kind == TB_SPREAD && isfinite(c[1].v) && c[1].col < t->g[g].end &&
		    isnan(c->spread)) {
			vc = *c;
			vc.spread = c[1].v;
			c = &vc;
		} else if (t->cv && c + 1 < r->c + r->n && c[1].kind == TB_CHG && isfinite(c[1].spread) && isnan(c->spread)) {
			vc = *c;
			vc.spread = fabs(c->v) * c[1].spread / 100;
			c = &vc;
		} else if (spreads && isnan(c->spread)) {
			/* "|       |    (0.497) |": the row's spreads on the next line */
			const struct tb_cell *sc = tb_group_spread(spreads, &t->g[g]);
			if (sc) {
				vc = *c;
				vc.spread = sc->v;
				c = &vc;
			}
		}
		/* a column headed "%CPU", "Read %": a share or a change, never
		 * what is compared */
		if (ro->head_labels && !ro->transposed && strchr(t->g[g].head, '%')) {
			said->pct_heads++;
			continue;
		}
		/* the header names what is compared, but not this column's */
		if (ro->head_labels && !ro->transposed && !t->g[g].head[0]) {
			said->noheads++;
			continue;
		}
		if (ro->transposed) {
			tb_emit_transposed(p, t, ro, g, name, c, st->ln[li].no, said);
			continue;
		}
		char metric[RP_NAME_LEN * 2], label[RP_LABEL_LEN], mbuf[RP_NAME_LEN * 3];
		if (t->spanned) {
			/* "base" over "read  write": the upper names are the labels,
			 * the lower ones and the row's name the metric */
			if (!t->g[g].span[0]) {
				said->noheads++;
				continue;
			}
			pp_strlcpy(label, t->g[g].span, sizeof(label));
			snprintf(mbuf, sizeof(mbuf), "%s%s%s%s%s%s%s", ro->title, ro->title[0] ? "_" : "", stat,
				 stat[0] ? "_" : "", name, name[0] ? " " : "", t->g[g].head);
		} else if (ro->head_labels || t->g[g].head[0]) {
			if (!tb_name_headed(t, ro, g, stat, name, label, sizeof(label), mbuf, sizeof(mbuf))) {
				said->unlabelled++;
				continue;
			}
		} else
			tb_name_unheaded(t, ro, r, c, stat, name, label, sizeof(label), mbuf, sizeof(mbuf));
		if (c->name[0] && ro->head_labels) {
			size_t ml = strlen(mbuf);
			snprintf(mbuf + ml, sizeof(mbuf) - ml, "%s%s", ml ? "_" : "", c->name);
		}
		tables_make_metric_name(mbuf, metric, sizeof(metric));
		tb_emit(p, label, t->setting, has_x ? rxname : "run", has_x ? x : 0, metric, c, st->ln[li].no, &said->bad);
		if (!said->emitted) {
			pp_strlcpy(said->metric, metric[0] ? metric : "value", sizeof(said->metric));
			pp_strlcpy(said->unit, c->unit[0] ? c->unit : st->punit, sizeof(said->unit));
			pp_strlcpy(said->x, has_x ? rxname : "run", sizeof(said->x));
		}
		said->emitted++;
	}
}

/* Is every cell of the column [a, b) an x word ("clients", "threads")? */
static bool tb_column_x_words(struct tb_state *st, const struct tb_table *t, int a, int b)
{
	struct tb_row *r = &st->rows[1];
	int n = 0;
	for (int li = t->first; tables_next_row(st, t, &li, r); li++) {
		for (int i = 0; i < r->n; i++)
			if (r->c[i].col >= a && r->c[i].end <= b) {
				if (!tables_names_x(r->c[i].text))
					return false;
				n++;
			}
	}
	return n > 0;
}

/* Does some row name itself ("2.4.16:  300  310", a key ending in ':'),
 * or each of its figures ("IOPS=11.1k")? */
static bool tb_rows_named(struct tb_state *st, const struct tb_table *t)
{
	struct tb_row *r = &st->rows[1];
	for (int li = t->first; tables_next_row(st, t, &li, r); li++) {
		size_t n = r->n ? strlen(r->c[0].text) : 0;
		if (n > 1 && r->c[0].kind == TB_WORD && r->c[0].col < t->keyend && r->c[0].text[n - 1] == ':')
			return true;
		/* "IOPS=11.1k, BW=43.2MiB/s": each figure names itself */
		bool all = r->nval > 0;
		for (int i = 0; i < r->n; i++)
			all = all && (r->c[i].kind != TB_VAL || r->c[i].name[0]);
		if (all)
			return true;
	}
	return false;
}

/* Rows "Before:   1908944 1905870 1905322" with no header: each row a
 * label (its name, ':' ended) and its runs, the bare figures in order
 * (the columns need not line up: a longer name pushes its row's figures
 * right).  Every row must have the shape and as many figures.  Returns
 * true when the table was one (its points emitted). */
static bool tb_read_label_runs(struct parser *p, struct tb_state *st, const struct tb_table *t, int first, int last)
{
	struct tb_row *r = &st->rows[0];
	int nv = -1, nrows = 0;
	for (int li = t->first; li <= t->last; li++) {
		if (!st->ln[li].s[0])
			continue;
		tables_split_cells(st->ln[li].s, r);
		size_t l0 = r->n ? strlen(r->c[0].text) : 0;
		if (r->n < 3 || r->c[0].kind != TB_WORD || l0 < 2 || r->c[0].text[l0 - 1] != ':' ||
		    r->nval != r->n - 1 || (nv >= 0 && r->nval != nv))
			return false;
		for (int k = 1; k < r->n; k++)
			if (r->c[k].kind != TB_VAL || r->c[k].name[0])
				return false;
		nv = r->nval;
		nrows++;
	}
	if (nrows < 2)
		return false;
	int bad = 0, n = 0;
	for (int li = t->first; li <= t->last; li++) {
		if (!st->ln[li].s[0])
			continue;
		tables_split_cells(st->ln[li].s, r);
		char label[RP_LABEL_LEN];
		pp_strlcpy_span(label, sizeof(label), r->c[0].text, strlen(r->c[0].text) - 1);
		for (int k = 1; k < r->n; k++, n++)
			tb_emit(p, label, t->setting, "run", 0, "", &r->c[k], st->ln[li].no, &bad);
	}
	pp_note(p, first, last, true, "lines %d-%d: table %d: %d rows, each a label ('Name:') and %d runs of it%s%s; %d read",
		first, last, st->table_no, nrows, nv, st->punit[0] ? " in " : "", st->punit, n - bad);
	return true;
}

/* Is every figure of the table a percentage, one a row? */
static bool tb_only_percent_column(struct tb_state *st, const struct tb_table *t)
{
	struct tb_row *r = &st->rows[0];
	int rows = 0;
	for (int li = t->first; tables_next_row(st, t, &li, r); li++) {
		int pct = 0, vals = 0;
		for (int k = 0; k < r->n; k++) {
			vals += r->c[k].kind == TB_VAL || r->c[k].kind == TB_CHG;
			pct += (r->c[k].kind == TB_VAL && !strcmp(r->c[k].unit, "%")) || r->c[k].kind == TB_CHG;
		}
		if (vals != 1 || pct != 1)
			return false;
		rows++;
	}
	return rows >= 1;
}

/* Read one table whose rows are st->ln[first..last]. */
void tables_read_table(struct parser *p, struct tb_state *st, struct tb_table *t)
{
	int cs[TB_COLS * 2], ce[TB_COLS * 2];
	int nc = tables_find_columns(st, t, cs, ce, TB_COLS * 2);
	int first = st->ln[t->first].no, last = st->ln[t->last].no;
	/* type each column by the cells it holds */
	int kind[TB_COLS * 2][5];
	memset(kind, 0, sizeof(kind));
	int nrows = tables_count_kinds(st, t, cs, ce, nc, kind);
	/* the keys: leading columns of words, and of numbers when more value
	 * columns follow and the header names no label over them */
	int firstval = -1;
	for (int k = 0; k < nc; k++)
		if (kind[k][TB_VAL] * 2 > kind[k][TB_WORD] + kind[k][TB_VAL] && kind[k][TB_VAL]) {
			firstval = k;
			break;
		}
	/* "4 clients  3.1 MB/sec ...": a figure and a column of words after it
	 * are the row's keys (x and its name) when value columns follow */
	if (firstval >= 0 && firstval + 2 < nc && kind[firstval + 1][TB_WORD] && !kind[firstval + 1][TB_VAL] &&
	    !kind[firstval + 1][TB_CHG] && !kind[firstval + 1][TB_SPREAD] &&
	    tb_column_x_words(st, t, cs[firstval + 1], ce[firstval + 1]))
		for (int k = firstval + 2; k < nc; k++)
			if (kind[k][TB_VAL] * 2 > kind[k][TB_WORD] + kind[k][TB_VAL] && kind[k][TB_VAL]) {
				firstval = k;
				break;
			}
	if (firstval < 0) {
		pp_note(p, first, last, false, "lines %d-%d: rows without a column of values", first, last);
		return;
	}
	tables_group_columns(t, cs, ce, nc, kind, firstval);
	/* a key column of words and numbers holds names: "6.1" over
	 * "6.1+patch" is a kernel, not an x */
	t->namecol = t->nameend = -1;
	for (int k = 0; k < firstval; k++)
		if (kind[k][TB_WORD] && kind[k][TB_VAL]) {
			t->namecol = cs[k];
			t->nameend = ce[k];
			break;
		}
	struct tb_roles ro;
	memset(&ro, 0, sizeof(ro));
	st->table_no++;
	st->longnames = 0;
	st->apart = false;
	pp_strlcpy(st->punit, t->punit, sizeof(st->punit));
	if (!t->nhead && tb_read_label_runs(p, st, t, first, last))
		return;
	/* no header over one column of percentages ("hammerdb+mysql 16VU
	 * 0.76%" under "%diff" two blocks up): a change or a share, which
	 * nothing here says; not read */
	if (!t->nhead && tb_only_percent_column(st, t)) {
		pp_note(p, first, last, false,
			"lines %d-%d: one column of percentages and no header: changes or shares, not read", first,
			last);
		return;
	}
	st->pctlabels = 0;
	t->misfit = -1;
	tables_read_heads(st, t, ro.keyhead, sizeof(ro.keyhead));
	if (t->misfit >= 0) {
		pp_note(p, first, last, false,
			"lines %d-%d: a name of the header on line %d stands over two columns of figures (tabs "
			"expanded otherwise than its author saw them?): which name heads which column cannot be "
			"told, not read",
			first, last, st->ln[t->misfit].no);
		return;
	}
	/* a first column of figures under "kernel" (version, config...):
	 * "6.8", "6.9" are names, the rows' labels */
	static const char *const lw[] = { "kernel", "kernels", "version", "config", "patch", "tree", "commit", NULL };
	for (size_t q = 0; t->ng >= 2 && lw[q]; q++)
		if (!strcasecmp(t->g[0].head, lw[q])) {
			t->namecol = t->g[0].col;
			t->nameend = t->g[0].end;
			t->keyend = t->g[1].col;
			pp_strlcpy(ro.keyhead, t->g[0].head, sizeof(ro.keyhead));
			memmove(&t->g[0], &t->g[1], sizeof(t->g[0]) * (size_t)(t->ng - 1));
			t->ng--;
			break;
		}
	if (t->title >= 0)
		tables_make_title_label(st->ln[t->title].s, ro.title, sizeof(ro.title));
	else if (t->ptitle[0])
		pp_strlcpy(ro.title, t->ptitle, sizeof(ro.title));
	/* "throughput (transactions/sec)": what is measured, and its unit */
	if (tb_title_bracket_unit(ro.title, t->punit, sizeof(t->punit))) {
		size_t k = strcspn(ro.title, "(");
		while (k && ro.title[k - 1] == ' ')
			k--;
		ro.title[k] = 0;
		if (!st->punit[0])
			pp_strlcpy(st->punit, t->punit, sizeof(st->punit));
	}
	bool compares = tables_compares_columns(t);
	tables_find_x(st, t, nrows, compares, &ro);
	tables_decide_roles(st, t, &ro);
	/* no header, rows not named as labels, figures that do not name
	 * themselves, and more than one value column: nothing tells the
	 * columns apart (runs? two kernels? before -> after?): said, not read */
	int nvg = 0;
	for (int g = 0; g < t->ng; g++)
		nvg += !t->g[g].derived && t->g[g].nval && !(ro.xcol && g <= ro.skip_before);
	if (!t->nhead && !ro.transposed && !ro.label_words && nvg >= 2 && !tb_rows_named(st, t)) {
		pp_note(p, first, last, false,
			"lines %d-%d: %d value columns%s%.40s%s and no header to tell them apart: not read", first, last,
			nvg, ro.title[0] ? " under \"" : "", ro.title, ro.title[0] ? "\"" : "");
		return;
	}
	struct tb_said said;
	memset(&said, 0, sizeof(said));
	for (int li = t->first; li <= t->last; li++)
		if (!tables_is_rule(st->ln[li].s) && st->ln[li].s[0]) {
			tb_read_row(p, st, t, &ro, li, &said);
			if (ro.head_labels && !ro.transposed && !t->spanned) {
				tables_split_cells(st->ln[li].s, &st->rows[0]);
				tables_check_changes(t, &ro, &st->rows[0], st->ln[li].no, &said);
			}
		}
	if (ro.transposed)
		tables_check_derived_row(st, t, &said);
	if (!said.emitted && said.unlabelled && ro.heads_undecided) {
		pp_note(p, first, last, false,
			"lines %d-%d: names over the columns and on the rows, and nothing says which of them is what is "
			"compared (no version, baseline/patched, kernel column or title naming one): not read",
			first, last);
		return;
	}
	if (!said.emitted && said.unlabelled) {
		pp_note(p, first, last, false,
			"lines %d-%d: rows named neither as versions nor as labels (baseline, patched...), and no "
			"title or kernel column naming one: nothing says what is compared, not read",
			first, last);
		return;
	}
	if (!said.emitted) {
		pp_note(p, first, last, false, "lines %d-%d: a table, but no column could be given a role", first,
			last);
		return;
	}
	tables_explain_table(p, t, &ro, &said, nrows, first, last);
}
