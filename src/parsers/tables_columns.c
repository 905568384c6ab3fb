/* The table reader, a table's geometry: its columns from the blanks that
 * run down every row, each column typed by the cells it holds, the value
 * columns grouped with the change and spread columns after them, and the
 * header lines' names put on the groups they stand over (by overlap, by
 * a rule of dashes, by '|' fields, or in order where the author's blanks
 * do not line up).  Nothing here decides what a column means. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tables_internal.h"

/* Does a header line have a cell named like a derived column (its change
 * cells are then no group of their own)? */
static bool tb_line_derived_head(const char *s)
{
	char cell[RP_LABEL_LEN];
	size_t i = 0;
	while (s[i]) {
		while (s[i] == ' ' || s[i] == '|')
			i++;
		size_t a = i;
		while (s[i] && s[i] != '|' && !(s[i] == ' ' && s[i + 1] == ' '))
			i++;
		size_t n = i - a < sizeof(cell) - 1 ? i - a : sizeof(cell) - 1;
		memcpy(cell, s + a, n);
		while (n && cell[n - 1] == ' ')
			n--;
		cell[n] = 0;
		if (n && tables_is_derived_head(cell) && !strcasestr(cell, "ratio"))
			return true;
	}
	return false;
}

/* The next row of table t from line *li on (its rules and blank lines
 * passed over), its cells cut into r; false past the table's last line.
 * Every question asked of a whole table walks its rows this one way. */
bool tables_next_row(struct tb_state *st, const struct tb_table *t, int *li, struct tb_row *r)
{
	for (; *li <= t->last; (*li)++)
		if (!tables_is_rule(st->ln[*li].s) && st->ln[*li].s[0]) {
			tables_split_cells(st->ln[*li].s, r);
			return true;
		}
	return false;
}

/* The columns of a run of rows: spans that overlap in some row are one
 * column.  Returns the number of columns, spans in col/end sorted. */
int tables_find_columns(struct tb_state *st, const struct tb_table *t, int *cs, int *ce, int max)
{
	int n = 0;
	struct tb_row *r = &st->rows[0];
	for (int li = t->first; tables_next_row(st, t, &li, r); li++) {
		for (int i = 0; i < r->n; i++) {
			int a = r->c[i].col, b = r->c[i].end;
			/* merge with every column it overlaps */
			int j = 0;
			while (j < n) {
				if (a < ce[j] && cs[j] < b) {
					if (cs[j] < a)
						a = cs[j];
					if (ce[j] > b)
						b = ce[j];
					cs[j] = cs[n - 1];
					ce[j] = ce[n - 1];
					n--;
					j = 0;
					continue;
				}
				j++;
			}
			if (n < max) {
				cs[n] = a;
				ce[n] = b;
				n++;
			}
		}
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && cs[j - 1] > cs[j]; j--) {
			int x = cs[j];
			cs[j] = cs[j - 1];
			cs[j - 1] = x;
			x = ce[j];
			ce[j] = ce[j - 1];
			ce[j - 1] = x;
		}
	return n;
}

/* The '|'-field of column col in line s (the number of bars before it). */
static int tb_pipe_field(const char *s, int col)
{
	int f = 0;
	for (int i = 0; s[i] && i < col; i++)
		f += s[i] == '|';
	return f;
}

/* Do the blank-separated words of s[a, b) each fall over one value
 * column, no two over the same one ("bs hipri=0 hipri=1" over "4k
 * 149,426 170,763": names one blank apart, each right over its column)?
 * Then the cell is a row of names, not one name over two columns. */
static bool tb_header_words_fit(const struct tb_table *t, const char *s, int a, int b)
{
	int last = -1, words = 0;
	for (int i = a, w; i < b && tables_next_word(s, &i, &w);) {
		int e = i < b ? i : b, in = -1, n = 0;
		for (int g = 0; g < t->ng; g++) {
			int lo = w > t->g[g].col ? w : t->g[g].col, hi = e < t->g[g].end ? e : t->g[g].end;
			if (hi > lo) {
				n++;
				in = g;
			}
		}
		if (n != 1 || in <= last)
			return false;
		last = in;
		words++;
	}
	return words >= 2;
}

/* Does a name of header line l (cut at two blanks or a tab) stand over
 * two value columns, starting in one and mostly over the other ("num
 * clients" over the x column and the next, where tabs put a long name's
 * next names past their columns)?  Then which name heads which column
 * cannot be told. */
static bool tb_header_misfit(const struct tb_table *t, const struct tb_line *l)
{
	const char *s = l->s;
	for (int i = 0, a; tables_next_cell(s, &i, &a);) {
		/* a tab ends a name, even where it left one blank */
		for (int k = a; k < i; k++)
			if (l->tab[k / 8] & (1u << (k % 8))) {
				i = k;
				break;
			}
		if (i <= t->keyend)
			continue;
		/* over two columns, it heads the one it overlaps most; a name
		 * that starts in another one ("num clients" from the x column
		 * on) cannot be placed */
		int over = 0, best = -1, bo = 0, start = -1;
		for (int g = 0; g < t->ng; g++) {
			int lo = a > t->g[g].vcol ? a : t->g[g].vcol, hi = i < t->g[g].vend ? i : t->g[g].vend;
			over += hi > lo;
			if (hi - lo > bo) {
				bo = hi - lo;
				best = g;
			}
			if (a >= t->g[g].vcol && a < t->g[g].vend)
				start = g;
		}
		/* names one blank apart, each over its column, unless tabs
		 * separate the names (a blank is then inside a name) */
		bool tabs = false;
		for (size_t k = 0; k < sizeof(l->tab) && !tabs; k++)
			tabs = l->tab[k] != 0;
		if (over >= 2 && start >= 0 && start != best && (tabs || !tb_header_words_fit(t, s, a, i)))
			return true;
	}
	return false;
}

/* Header cells (split at two blanks) of a line, each put on the group it
 * overlaps most (or the nearest one on its left end, as mmtests centres
 * names over value and change). */
static void tb_header_line(struct tb_table *t, const char *s, bool append)
{
	int i = 0;
	if (append && strchr(s, '|')) {
		/* a |-table: each bar-separated field heads the group in that field */
		for (int g = 0; g < t->ng; g++) {
			int f = t->g[g].pipefield, k = 0, a = 0;
			for (i = 0; s[i] && k < f; i++)
				if (s[i] == '|')
					k++;
			if (k < f)
				continue;
			a = i;
			while (s[i] && s[i] != '|')
				i++;
			int b = i;
			while (a < b && s[a] == ' ')
				a++;
			while (b > a && s[b - 1] == ' ')
				b--;
			if (b > a) {
				char *h = t->g[g].head;
				size_t hl = strlen(h), wl = (size_t)(b - a);
				if (hl && hl + 1 < sizeof(t->g[g].head))
					h[hl++] = ' ';
				if (hl + wl >= sizeof(t->g[g].head))
					wl = sizeof(t->g[g].head) - 1 - hl;
				memcpy(h + hl, s + a, wl);
				h[hl + wl] = 0;
			}
		}
		return;
	}
	int prev_g = -1, prev_end = -2;   /* the group the last word went to, where it ended */
	while (s[i]) {
		while (s[i] == ' ' || s[i] == '|')
			i++;
		if (!s[i])
			break;
		int a = i, depth = 0;
		/* "tip[pct imp](CV)": blanks inside brackets are part of the name */
		while (s[i] && s[i] != '|' && (s[i] != ' ' || depth > 0)) {
			depth += s[i] == '[' || s[i] == '(';
			depth -= (s[i] == ']' || s[i] == ')') && depth > 0;
			i++;
		}
		int b = i;
		if (b <= t->keyend)
			continue; /* over the keys: the x's name, read elsewhere */
		/* the robot's column marks: "%stddev  %change  %stddev", "\\  |  \\" */
		static const char *const marks[] = { "%stddev", "%change", "%reproduction", "fail:runs", "\\", "|",
			NULL };
		bool mark = false;
		for (size_t m = 0; marks[m]; m++)
			mark = mark || ((size_t)(b - a) == strlen(marks[m]) && !strncmp(s + a, marks[m], (size_t)(b - a)));
		if (mark)
			continue;
		int best = -1, bo = 0, bd = 0;
		for (int g = 0; g < t->ng; g++) {
			int lo = a > t->g[g].col ? a : t->g[g].col, hi = b < t->g[g].end ? b : t->g[g].end;
			if (hi - lo > bo) {
				bo = hi - lo;
				best = g;
			}
		}
		/* "2000 files by 1M": a name's words one blank apart go on past
		 * its column, and stay the name of the column it began over */
		if (bo == 0 && prev_g >= 0 && prev_end + 1 == a) {
			best = prev_g;
			bo = 1;
		}
		for (int g = 0, near = 1 << 30; bo == 0 && g < t->ng; g++) {
			int d = a >= t->g[g].end ? a - t->g[g].end + 1 : t->g[g].col - b + 1;
			if (d < near) {
				near = d;
				bd = d;
				best = g;
			}
		}
		if (best < 0 || bd > 6)
			continue;
		/* "change" over the "+8.3%" cells after a value: it heads those
		 * derived cells, not the value's column */
		if (t->g[best].nchg && a >= t->g[best].vend) {
			char w[RP_LABEL_LEN];
			size_t n = (size_t)(b - a) < sizeof(w) - 1 ? (size_t)(b - a) : sizeof(w) - 1;
			memcpy(w, s + a, n);
			w[n] = 0;
			if (tables_is_derived_head(w)) {
				t->derived_head = true;
				continue;
			}
		}
		prev_g = best;
		prev_end = b;
		char *h = t->g[best].head;
		size_t hl = strlen(h), wl = (size_t)(b - a);
		if (hl && hl + 1 < sizeof(t->g[best].head)) {
			h[hl++] = ' ';
			h[hl] = 0;
		}
		if (hl + wl >= sizeof(t->g[best].head))
			wl = sizeof(t->g[best].head) - 1 - hl;
		memcpy(h + hl, s + a, wl);
		h[hl + wl] = 0;
		(void)append;
	}
}

/* Each column's count of cells of each kind; the rows (no rule, no
 * blank) are counted. */
int tables_count_kinds(struct tb_state *st, const struct tb_table *t, const int *cs, const int *ce, int nc,
		       int kind[][5])
{
	struct tb_row *r = &st->rows[0];
	int nrows = 0;
	for (int li = t->first; tables_next_row(st, t, &li, r); li++) {
		nrows++;
		for (int i = 0; i < r->n; i++)
			for (int k = 0; k < nc; k++)
				if (r->c[i].col >= cs[k] && r->c[i].end <= ce[k])
					kind[k][r->c[i].kind]++;
	}
	return nrows;
}

/* The groups from the first value column on: a value column and the
 * change/spread columns after it; the keys before them, the word
 * columns after the last value column (they name the row). */
void tables_group_columns(struct tb_table *t, const int *cs, const int *ce, int nc, int kind[][5], int firstval)
{
	t->ng = 0;
	for (int k = firstval; k < nc && t->ng < TB_COLS; k++) {
		int nv = kind[k][TB_VAL] + kind[k][TB_MISS], nd = kind[k][TB_CHG] + kind[k][TB_SPREAD];
		if (nd > nv && t->ng) {
			struct tb_group *g = &t->g[t->ng - 1];
			g->end = ce[k];
			g->nchg += nd;
			continue;
		}
		struct tb_group *g = &t->g[t->ng++];
		memset(g, 0, sizeof(*g));
		g->col = g->vcol = cs[k];
		g->end = g->vend = ce[k];
		g->nval = nv;
		g->derived = nd > nv;
	}
	t->keyend = cs[firstval];
	/* the robot's metric names, compare.rb's case names */
	t->tailcol = 1 << 30;
	while (t->ng > 1 && t->g[t->ng - 1].nval == 0 && !t->g[t->ng - 1].derived) {
		t->tailcol = t->g[t->ng - 1].col;
		t->ng--;
	}
}

/* An upper header line with fewer names than value columns ("base" and
 * "patched" centred over "read  write" each): each name heads the columns
 * nearest its centre.  Returns false when the line is not such a line. */
static bool tb_header_span_line(struct tb_table *t, const char *s)
{
	int ca[TB_COLS], cb[TB_COLS], nc = 0, nv = 0;
	for (int g = 0; g < t->ng; g++)
		nv += !t->g[g].derived && t->g[g].nval;
	for (int i = 0, a; nc < TB_COLS && tables_next_cell(s, &i, &a); nc++) {
		ca[nc] = a;
		cb[nc] = i;
	}
	if (nc < 2 || nc >= nv || nv % nc)
		return false;
	for (int g = 0; g < t->ng; g++) {
		if (t->g[g].derived || !t->g[g].nval)
			continue;
		int gc = (t->g[g].vcol + t->g[g].vend) / 2, best = 0, bd = 1 << 30;
		for (int k = 0; k < nc; k++) {
			int d = abs(gc - (ca[k] + cb[k]) / 2);
			if (d < bd) {
				bd = d;
				best = k;
			}
		}
		char *h = t->g[g].span;
		size_t hl = strlen(h), wl = (size_t)(cb[best] - ca[best]);
		if (hl + wl + 2 >= sizeof(t->g[g].span))
			continue;
		if (hl)
			h[hl++] = ' ';
		memcpy(h + hl, s + ca[best], wl);
		h[hl + wl] = 0;
	}
	t->spanned = true;
	return true;
}

/* The runs of a rule of dashes ("------- ------ --- -----------"): the
 * columns as the writer drew them.  Returns how many (0: not such a rule). */
int tables_find_rule_spans(const char *s, int *cs, int *ce, int max)
{
	int n = 0;
	for (int i = 0; s[i];) {
		while (s[i] == ' ')
			i++;
		if (!s[i])
			break;
		int a = i;
		while (s[i] == '-' || s[i] == '=')
			i++;
		if (s[i] && s[i] != ' ')
			return 0;
		if (i - a < 2)
			return 0;
		if (cs && n < max) {
			cs[n] = a;
			ce[n] = i;
		}
		n++;
	}
	return n;
}

/* Under a rule of dash runs, a header word belongs to the run it stands
 * over (the nearest one); each run's head goes to the groups under it.
 * tiobench's "Seq Read / Rate (CPU%)" over two figures: the rate is the
 * first, the part in brackets names the second ("Seq Read CPU%"). */
static bool tb_rule_heads(struct tb_state *st, struct tb_table *t)
{
	int cs[TB_COLS * 2], ce[TB_COLS * 2];
	int ns = tables_find_rule_spans(st->ln[t->rule].s, cs, ce, TB_COLS * 2);
	if (ns < 2 || ns > TB_COLS * 2)
		return false;
	char head[TB_COLS * 2][RP_LABEL_LEN];
	memset(head, 0, sizeof(head));
	for (int h = 0; h < t->nhead; h++) {
		const char *s = st->ln[t->head[h]].s;
		for (int i = 0, a; tables_next_word(s, &i, &a);) {
			int best = 0, bd = 1 << 30;
			for (int k = 0; k < ns; k++) {
				int d = a >= ce[k] ? a - ce[k] + 1 : (i <= cs[k] ? cs[k] - i + 1 : 0);
				if (d < bd) {
					bd = d;
					best = k;
				}
			}
			size_t hl = strlen(head[best]), wl = (size_t)(i - a);
			if (hl + wl + 2 < RP_LABEL_LEN) {
				if (hl)
					head[best][hl++] = ' ';
				memcpy(head[best] + hl, s + a, wl);
				head[best][hl + wl] = 0;
			}
		}
	}
	for (int k = 0; k < ns; k++) {
		int in[TB_COLS], n = 0;
		for (int g = 0; g < t->ng && n < TB_COLS; g++)
			if (t->g[g].vcol < ce[k] && cs[k] < t->g[g].vend)
				in[n++] = g;
		if (n == 1) {
			pp_strlcpy(t->g[in[0]].head, head[k], sizeof(t->g[in[0]].head));
			continue;
		}
		const char *op = strchr(head[k], '('), *cl = op ? strchr(op, ')') : NULL;
		if (n != 2 || !op || !cl) {
			for (int m = 0; m < n; m++)
				t->g[in[m]].head[0] = 0; /* not known which is which: no head */
			continue;
		}
		char first[RP_LABEL_LEN], second[RP_LABEL_LEN];
		size_t fl = (size_t)(op - head[k]);
		while (fl && head[k][fl - 1] == ' ')
			fl--;
		pp_strlcpy(first, head[k], fl + 1);
		const char *lw = strrchr(first, ' ');
		size_t pl = lw ? (size_t)(lw - first) : 0;
		snprintf(second, sizeof(second), "%.*s%s%.*s", (int)pl, first, pl ? " " : "", (int)(cl - op - 1), op + 1);
		pp_strlcpy(t->g[in[0]].head, first, sizeof(t->g[in[0]].head));
		pp_strlcpy(t->g[in[1]].head, second, sizeof(t->g[in[1]].head));
	}
	return true;
}

/* A header line of x values only ("numjobs=1  numjobs=2  numjobs=4"), as
 * many as the table's value columns: each goes to its column in order.
 * False (nothing set) when the line is not one. */
static bool tb_header_x_values(struct tb_table *t, const char *s)
{
	int nv = 0, nw = 0;
	for (int g = 0; g < t->ng; g++)
		nv += !t->g[g].derived && t->g[g].nval;
	char first[RP_NAME_LEN] = "", w[RP_LABEL_LEN];
	for (const char *q = s; tables_next_title_word(&q, w, sizeof(w), "");) {
		char *eq = strchr(w, '=');
		double v;
		if (!eq || eq == w || !pp_is_number(eq + 1, &v))
			return false;
		*eq = 0;
		if (first[0] && strcmp(first, w))
			return false;
		pp_strlcpy(first, w, sizeof(first));
		nw++;
	}
	if (nw < 2 || nw != nv)
		return false;
	const char *q = s;
	for (int g = 0; g < t->ng; g++) {
		if (t->g[g].derived || !t->g[g].nval)
			continue;
		tables_next_title_word(&q, t->g[g].head, sizeof(t->g[g].head), "");
	}
	return true;
}

/* A header with as many words as every row has cells: the words after
 * the row's keys go to the value columns in order.  False (nothing set)
 * when the counts differ anywhere. */
static bool tb_header_in_order(struct tb_state *st, struct tb_table *t, const char *s)
{
	int nw = 0, nv = 0;
	char w[RP_LABEL_LEN];
	for (const char *q = s; tables_next_title_word(&q, w, sizeof(w), "");)
		nw++;
	for (int g = 0; g < t->ng; g++) {
		if (t->g[g].derived || t->g[g].nchg)
			return false;
		nv++;
	}
	struct tb_row *r = &st->rows[1];
	for (int li = t->first; li <= t->last; li++)
		if (st->ln[li].s[0] && !tables_is_rule(st->ln[li].s) && tables_split_cells(st->ln[li].s, r) != nw)
			return false;
	int keys = nw - nv;
	if (nv < 2 || keys < 0)
		return false;
	const char *q = s;
	for (int k = 0; k < keys; k++)
		tables_next_title_word(&q, w, sizeof(w), "");
	for (int g = 0; g < t->ng; g++)
		tables_next_title_word(&q, t->g[g].head, sizeof(t->g[g].head), "");
	return true;
}

/* Header lines: their words on the groups (or the keys); the keys' head
 * into keyhead. */
void tables_read_heads(struct tb_state *st, struct tb_table *t, char *keyhead, size_t klen)
{
	const char *row0 = st->ln[t->first].s;
	bool piped = strchr(row0, '|') != NULL;
	for (int g = 0; g < t->ng; g++)
		t->g[g].pipefield = piped ? tb_pipe_field(row0, t->g[g].vcol) : -1;
	bool ruled = !piped && t->rule >= 0 && t->nhead && tb_rule_heads(st, t);
	/* the robot prints one commit a value column, each change column
	 * before the value it compares: the names go to the value columns in
	 * order (its rule runs are as wide as the names, not the figures) */
	if (t->robot && t->nhead == 1) {
		const char *s = st->ln[t->head[0]].s;
		int g = 0;
		for (int i = 0, a; tables_next_word(s, &i, &a);) {
			while (g < t->ng && t->g[g].derived)
				g++;
			if (g < t->ng) {
				int n = i - a < RP_LABEL_LEN - 1 ? i - a : RP_LABEL_LEN - 1;
				memcpy(t->g[g].head, s + a, (size_t)n);
				t->g[g].head[n] = 0;
				g++;
			}
		}
		ruled = true;
	}
	/* "numjobs=1  numjobs=2 ..." over as many value columns, wherever the
	 * author's blanks put it: a header of x values, one a column in order */
	if (!ruled && !piped && t->nhead == 1 && tb_header_x_values(t, st->ln[t->head[0]].s))
		ruled = true;
	/* one name a cell of every row, the names not over their columns
	 * ("rw  bs  long1 long2 ..." over "randread 4k 1 2"): by order */
	if (!ruled && !piped && t->nhead == 1 && t->ng &&
	    (tb_header_misfit(t, &st->ln[t->head[0]]) ||
	     (int)strlen(st->ln[t->head[0]].s) > t->g[t->ng - 1].end + 4) &&
	    tb_header_in_order(st, t, st->ln[t->head[0]].s))
		ruled = true;
	for (int h = 0; h < t->nhead; h++) {
		if (!ruled && !piped && h + 1 < t->nhead && tb_header_span_line(t, st->ln[t->head[h]].s))
			continue;
		if (!ruled && !piped && t->misfit < 0 && tb_header_misfit(t, &st->ln[t->head[h]]))
			t->misfit = t->head[h];
		if (!ruled)
			tb_header_line(t, st->ln[t->head[h]].s, piped);
		t->derived_head = t->derived_head || tb_line_derived_head(st->ln[t->head[h]].s);
	}
	/* "tip[pct imp](CV)": the name, then what its cells hold (the value,
	 * [its change], (its spread)): the name alone is the head */
	for (int g = 0; g < t->ng; g++) {
		char *br = strchr(t->g[g].head, '[');
		/* "...](CV)": the figure in brackets is the coefficient of variation, in % */
		t->cv = t->cv || strstr(t->g[g].head, "](CV)");
		if (br && br > t->g[g].head && br[-1] != ' ' && strchr(br, ']'))
			*br = 0;
	}
	keyhead[0] = '\0';
	if (t->nhead) {
		const char *s = st->ln[t->head[t->nhead - 1]].s;
		size_t k = 0;
		while (s[k] == ' ')
			k++;
		size_t e = k;
		while (s[e] && !(s[e] == ' ' && s[e + 1] == ' '))
			e++;
		/* a head over the keys alone: one that runs on over the values
		 * ("vanilla" over a long "SeqRead-MB/sec-16") names a label */
		if ((int)e <= t->keyend && e > k)
			pp_strlcpy(keyhead, s + k, e - k + 1 < klen ? e - k + 1 : klen);
		/* "#workers: tip (91caa5ae2424)": x's name glued by one blank to
		 * the first label, itself over the keys */
		size_t w = k + strcspn(s + k, " ");
		char word[RP_NAME_LEN];
		pp_strlcpy_span(word, sizeof(word), s + k, w - k);
		if (!keyhead[0] && w > k + 1 && s[w - 1] == ':' && (int)w <= t->keyend + 2 && tables_names_x(word)) {
			word[strlen(word) - 1] = 0;
			pp_strlcpy(keyhead, word + (word[0] == '#'), klen);
		}
	}
}
