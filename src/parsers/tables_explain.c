/* The table reader's account of each table (compare --explain): one note
 * a table with its rows, labels, x, metric, unit, title, the derived
 * columns skipped and the cells not read, and why.  Stated changes
 * ("(  7.22%)", "*9.23%*", a %diff column, "1.05x") are checked against
 * the values they compare, so that a table read under the wrong roles
 * shows in its note. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tables_internal.h"

/* Half the last digit a cell's figure was written with, in its value's
 * terms ("7.78": 0.005; "208k": 500). */
static double tb_cell_ulp(const struct tb_cell *c)
{
	const char *t = c->text + strspn(c->text, " ~(*[+-");
	const char *dot = strchr(t, '.');
	double ulp = 0.5;
	for (const char *q = dot ? dot + 1 : NULL; q && isdigit((unsigned char)*q); q++)
		ulp /= 10;
	size_t n = strspn(t, "0123456789.,");
	/* "2.1e+05": the exponent scales the last digit too */
	if ((t[n] == 'e' || t[n] == 'E') && (isdigit((unsigned char)t[n + 1]) || t[n + 1] == '+' || t[n + 1] == '-'))
		ulp *= pow(10, atoi(t + n + 1));
	else if (isalpha((unsigned char)t[n + (t[n] != 0)]))
		; /* a unit ("300.2MB/s"), no count suffix */
	else if (t[n] == 'k' || t[n] == 'K')
		ulp *= 1e3;
	else if (t[n] == 'm' || t[n] == 'M')
		ulp *= 1e6;
	else if (t[n] == 'g' || t[n] == 'G')
		ulp *= 1e9;
	return ulp;
}

/* Does a stated change s (its cell c) fit base -> other, read any of the
 * ways tables write one: in % either way round (mmtests turns the sign for
 * what is better lower), a ratio ("1.05x"), an absolute difference (the
 * robot's change of a % metric, bloat-o-meter's delta)? */
static bool tb_change_fits(const struct tb_cell *c, double base, double base_ulp, double other, double other_ulp)
{
	if (!(fabs(base) > 0))
		return true;
	double s = c->v, sulp = tb_cell_ulp(c);
	double rel = (other - base) / base * 100;
	double rtol = sulp + 100 * (other_ulp + base_ulp) / fabs(base) * (1 + fabs(rel) / 100) + 0.011 + fabs(rel) * 0.005;
	if (fabs(fabs(s) - fabs(rel)) <= rtol)
		return true;
	/* cut, not rounded ("+12%" for +12.89%) */
	if (fabs(rel) >= fabs(s) && fabs(rel) - fabs(s) < 2 * sulp + rtol)
		return true;
	if (strchr(c->text, 'x') && fabs(s - other / base) <= sulp + (other_ulp + base_ulp) / fabs(base) * 2 + 0.005)
		return true;
	double abs_ = other - base;
	return !strchr(c->text, '%') && fabs(fabs(s) - fabs(abs_)) <= sulp + other_ulp + base_ulp + 1e-9;
}

static void tb_said_wrong(struct tb_said *said, int lineno, double stated, double got)
{
	if (!said->wrong++) {
		said->wrong_line = lineno;
		said->wrong_said = stated;
		said->wrong_got = got;
	}
}

/* The stated changes of a row against its values: mmtests' cells after
 * each label's value ("(   0.00%)" "* -25.93%*": the change against the
 * first label), and a derived column ("%diff", "diff", the robot's
 * "%change", bloat-o-meter's "delta") where the row compares two labels. */
void tables_check_changes(const struct tb_table *t, const struct tb_roles *ro, const struct tb_row *r, int lineno,
			  struct tb_said *said)
{
	double base = NAN, base_ulp = 0, other = NAN, other_ulp = 0;
	int nvals = 0;
	const struct tb_cell *pending = NULL;
	for (int g = 0; g < t->ng; g++) {
		if (t->g[g].derived || (ro->xcol && g <= ro->skip_before))
			continue;
		const struct tb_cell *v = tables_find_group_cell(r, &t->g[g]), *c = NULL;
		if (!v || v->kind != TB_VAL || !isfinite(v->v))
			continue;
		nvals++;
		/* the change written right after the value, before the next value */
		for (int i = (int)(v - r->c) + 1; i < r->n && r->c[i].kind != TB_VAL; i++)
			if (r->c[i].kind == TB_CHG && (strchr(r->c[i].text, '%') || strstr(r->c[i].text, "pct") ||
						       strchr(r->c[i].text, 'x'))) {
				c = &r->c[i];
				break;
			}
		double ulp = tb_cell_ulp(v);
		if (isnan(base)) {
			base = v->v;
			base_ulp = ulp;
			/* the robot writes the change between the two values:
			 * after the first, not its own "(0.00%)" */
			if (c && fabs(c->v) > 0)
				pending = c;
			continue;
		}
		if (!c && pending)
			c = pending;
		pending = NULL;
		other = v->v;
		other_ulp = ulp;
		if (!c || !(fabs(base) > 0))
			continue;
		double got = (v->v - base) / base * 100;
		said->checked++;
		if (!tb_change_fits(c, base, base_ulp, v->v, ulp))
			tb_said_wrong(said, lineno, c->v, got);
	}
	/* a derived column comparing the two labels of the row */
	if (nvals != 2)
		return;
	for (int g = 0; g < t->ng; g++) {
		if (!t->g[g].derived)
			continue;
		for (int i = 0; i < r->n; i++) {
			const struct tb_cell *c = &r->c[i];
			if ((c->kind != TB_CHG && c->kind != TB_VAL) || !isfinite(c->v) || c->col >= t->g[g].end ||
			    t->g[g].col >= c->end)
				continue;
			said->checked++;
			if (!tb_change_fits(c, base, base_ulp, other, other_ulp))
				tb_said_wrong(said, lineno, c->v, (other - base) / base * 100);
			break;
		}
	}
}

/* How the table was read, in its note (one line of --explain): what
 * holds the labels, x, metric and unit, what was skipped or not read. */
void tables_explain_table(struct parser *p, const struct tb_table *t, const struct tb_roles *ro,
			  const struct tb_said *said, int nrows, int first, int last)
{
	char labels[72] = "";
	size_t lk = 0;
	int nl = 0, more = 0;
	for (int g = 0; g < t->ng; g++) {
		if (t->g[g].derived || (ro->xcol && g <= ro->skip_before))
			continue;
		const char *h = t->g[g].head[0] ? t->g[g].head : "-";
		if (t->spanned) {
			/* the labels over the metrics: each name once */
			if (!t->g[g].span[0] || (g && !strcmp(t->g[g].span, t->g[g - 1].span)))
				continue;
			h = t->g[g].span;
		}
		if (lk + strlen(h) + 3 < sizeof(labels) - 8) {
			lk += (size_t)snprintf(labels + lk, sizeof(labels) - lk, "%s%s", nl ? ", " : "", h);
			nl++;
		} else {
			more++;
		}
	}
	if (more)
		snprintf(labels + lk, sizeof(labels) - lk, " +%d", more);
	/* derived: whole columns (a diff, a ratio) and the change or spread
	 * cells beside a value column ("(  0.00%)", "*  9.23%*", "± 2%") */
	int nder = 0;
	for (int g = 0; g < t->ng; g++)
		nder += t->g[g].derived || t->g[g].nchg > 0;
	nder += said->derived_rows;
	const struct tb_state *st = p->st;
	int unread =
		st->longnames + said->bad + said->settings + said->pct_heads + st->pctlabels + said->noheads + said->missing +
		said->unlabelled + said->nofig;
	char chk[160] = "";
	if (said->nofig)
		snprintf(chk, sizeof(chk), "; %d cells that are no figure (the first at line %d)", said->nofig,
			 said->nofig_line);
	else if (said->wrong)
		snprintf(chk, sizeof(chk),
			 "; %d stated changes do not match the values (line %d says %+.2f%s, the values give %+.2f%s)",
			 said->wrong, said->wrong_line, said->wrong_said, said->wrong_ratio ? "x" : "%",
			 said->wrong_got, said->wrong_ratio ? "x" : "%");
	else if (said->checked)
		snprintf(chk, sizeof(chk), "; %d stated changes checked", said->checked);
	pp_note(p, first, last, !said->wrong && !said->nofig, "table %d: %d rows; %s %s; x %.24s; metric %.32s%s%.12s%s; title %.32s; %d derived cols/rows skipped; %d read, %d not read%s%s",
		st->table_no, nrows,
		ro->transposed ? "x over columns" : t->spanned ? "labels over metrics" : ro->head_labels ? "labels" : "metrics",
		labels,
		said->x[0] ? said->x : ro->transposed ? ro->txname : "-", said->metric, said->unit[0] ? " (" : "", said->unit,
		said->unit[0] ? ")" : "", ro->title[0] ? ro->title : "-", nder, said->emitted - st->longnames - st->pctlabels - said->bad,
		unread, st->longnames ? " (names too long)" : said->settings ? " (settings columns)" :
		said->pct_heads || st->pctlabels ? " (labels with a %)" : said->noheads ? " (columns without a label)" :
		said->missing ? " (n/a cells)" : said->unlabelled ? " (rows not named as labels)" : "", chk);
}

/* A transposed table of two label rows and a derived row under them
 * ("speed-up(times):  0.99  0.91 ..."): each of its cells against the two
 * rows' figures of its column (a ratio where the row says times or
 * speed-up, else a change). */
void tables_check_derived_row(struct tb_state *st, const struct tb_table *t, struct tb_said *said)
{
	int lab[2], nl = 0, der = -1;
	for (int li = t->first; li <= t->last + 1 && li < st->n; li++) {
		if (!st->ln[li].s[0] || tables_is_rule(st->ln[li].s))
			continue;
		tables_split_cells(st->ln[li].s, &st->rows[0]);
		if (!st->rows[0].n || st->rows[0].c[0].kind != TB_WORD)
			continue;
		char first[RP_LABEL_LEN];
		pp_strlcpy(first, st->rows[0].c[0].text, sizeof(first));
		char *par = strchr(first, '(');
		if (par && par > first)
			*par = 0;
		if (tables_is_derived_head(first) || strstr(first, "speed"))
			der = li;
		else if (nl < 2)
			lab[nl++] = li;
	}
	if (nl != 2 || der < 0)
		return;
	bool ratio = strstr(st->ln[der].s, "times") || strstr(st->ln[der].s, "speed") || strstr(st->ln[der].s, "ratio");
	struct tb_row *a = &st->rows[0], *b = &st->rows[1];
	for (int g = 0; g < t->ng; g++) {
		tables_split_cells(st->ln[lab[0]].s, a);
		const struct tb_cell *va = tables_find_group_cell(a, &t->g[g]);
		tables_split_cells(st->ln[lab[1]].s, b);
		const struct tb_cell *vb = tables_find_group_cell(b, &t->g[g]);
		if (!va || !vb || va->kind != TB_VAL || vb->kind != TB_VAL || !(fabs(va->v) > 0))
			continue;
		double base = va->v, bu = tb_cell_ulp(va), other = vb->v, ou = tb_cell_ulp(vb);
		tables_split_cells(st->ln[der].s, b);
		const struct tb_cell *d = NULL;
		for (int i = 1; i < b->n && !d; i++)
			if ((b->c[i].kind == TB_VAL || b->c[i].kind == TB_CHG) && b->c[i].col < t->g[g].vend + 2 &&
			    t->g[g].vcol < b->c[i].end + 2)
				d = &b->c[i];
		if (!d || !isfinite(d->v))
			continue;
		said->checked++;
		double got = ratio ? other / base : (other - base) / base * 100;
		double su = tb_cell_ulp(d);
		bool fits = ratio ? fabs(d->v - got) <= su + (ou + bu) / fabs(base) * 2 + 0.005
				  : tb_change_fits(d, base, bu, other, ou);
		if (!fits && !said->wrong++) {
			said->wrong_line = st->ln[der].no;
			said->wrong_said = d->v;
			said->wrong_got = got;
			said->wrong_ratio = ratio;
		}
	}
}
