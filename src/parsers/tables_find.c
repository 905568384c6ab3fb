/* The table reader, finding the tables: which held lines are rows, where
 * a table starts and ends (at its quote depth, rules and lines of
 * spreads inside it), and what stands above it (header lines, a title,
 * a block of "Test : hackbench" properties, a section's heading, the
 * prose that says what the figures are).  tables_read_lines() is the
 * order of the passes over the held lines: the mailer's damage undone,
 * the tools' own lines read, then each table found and given to
 * tables_read_table(). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tables_internal.h"

static bool tb_line_property(const char *s, char *name, size_t nl, char *val, size_t vl);

/* Is the held line li a data row? */
bool tables_line_is_row(struct tb_state *st, int li)
{
	struct tb_row *r = &st->rows[1];
	tables_split_cells(st->ln[li].s, r);
	return tables_is_row(r, st->ln[li].s);
}

static bool tb_line_blank(const struct tb_state *st, int li)
{
	return !st->ln[li].s[0];
}

/* A line right above a table: a header (its words stand over the columns,
 * two blanks apart, or it is indented) or a title (text at the left). */
static bool tb_line_header(const struct tb_state *st, int li)
{
	const char *s = st->ln[li].s;
	size_t n = strlen(s);
	if (!n || n > 200)
		return false;
	if (s[n - 1] == ':' && s[0] != ' ')
		return false;
	int cells = 0;
	for (size_t i = 0; i < n;) {
		while (i < n && s[i] == ' ')
			i++;
		if (i >= n)
			break;
		cells++;
		while (i < n && !(s[i] == ' ' && (i + 1 >= n || s[i + 1] == ' ')))
			i++;
	}
	if (cells >= 2)
		return true;
	int bars = 0;
	for (size_t q = 0; q < n; q++)
		bars += s[q] == '|';
	if (bars >= 2)
		return true;
	/* one name: a header when it stands well inside the line (a second
	 * header line under one column), a title when at the left */
	size_t lead = strspn(s, " ");
	return lead >= 8 && s[n - 1] != ':' && s[lead] != '[';
}

/* Cells of a line split at two blanks. */
static int tb_header_cells(const char *s)
{
	int cells = 0;
	for (int i = 0, a; tables_next_cell(s, &i, &a);)
		cells++;
	return cells;
}

/* Could the line title the table under it: a few words, no command,
 * option, property or summary of figures ("---- (5,10) - default" is
 * judged by its words after the dashes)? */
bool tables_line_is_title(const struct tb_state *st, int li)
{
	const char *s = st->ln[li].s;
	size_t n = strlen(s);
	if (!n || n > 72 || tables_is_rule(s))
		return false;
	/* a command line, options, a shell prompt: no title ("---- (5,10) -
	 * default", a heading after a rule's dashes, is one) */
	const char *eq = strchr(s, '=');
	const char *dashes = s + strspn(s, " ");
	const char *text = dashes + strspn(dashes, "-");
	if (text - dashes >= 3 && *text == ' ' && text[strspn(text, " ")]) {
		s = text;
		n = strlen(s);
	}
	if (strstr(s, "--") || (eq && eq > s && eq[-1] != ' ') || strchr(s, '$') || strchr(s, '\\') ||
	    s[n - 1] == ';' || strstr(s, "# "))
		return false;
	/* "vendor_id   : GenuineIntel" (/proc/cpuinfo, a config dump): a
	 * property, no title; "cat >/root/job <<EOF", "dd ... | tee": a
	 * command, no title */
	const char *colon = strstr(s, " :");
	if ((colon && colon > s && colon[2] && s[n - 1] != ':') || strstr(s, "<<") || strstr(s, ">/") ||
	    strstr(s, " | ") || strstr(s, " > "))
		return false;
	/* "add/remove: 1/0 grow/shrink: 0/2 up/down: 194/-1540": a summary of
	 * figures, no title */
	int colons = 0;
	for (size_t i = 0; i < n; i++)
		colons += s[i] == ':' && i + 1 < n;
	if (colons >= 2)
		return false;
	/* prose is a sentence; a title is a few words */
	int words = 1;
	for (size_t i = 0; i < n; i++)
		words += s[i] == ' ' && i + 1 < n && s[i + 1] != ' ';
	if (words > 8)
		return false;
	if (n > 1 && s[n - 1] == '.' && words > 3)
		return false;
	return true;
}

/* A line that names what the lines under it are ("2.4.16:", "result of
 * 6.7.0", "dbench with 8 clients, results before:", "'stripe_size = 64KB'"). */
bool tables_line_is_label(const struct tb_state *st, int li)
{
	const char *s = st->ln[li].s;
	size_t n = strlen(s);
	if (!tables_line_is_title(st, li) || n > 60)
		return false;
	return (s[n - 1] == ':' || strpbrk(s, "0123456789'\"") != NULL) &&
	       !tables_line_is_row((struct tb_state *)st, li);
}

/* A line that is only a setting in brackets: "(SNC on)". */
static bool tb_setting_line(const char *s)
{
	while (*s == ' ')
		s++;
	size_t n = strlen(s);
	return n >= 3 && n < 40 && s[0] == '(' && s[n - 1] == ')' && !memchr(s + 1, '(', n - 2);
}

/* Does row j go on the table whose last row is li (not half its values
 * or fewer: fs_mark's "Average Files/sec: 8324.0" under its table)? */
static bool tb_row_fits(struct tb_state *st, int li, int j)
{
	tables_split_cells(st->ln[li].s, &st->rows[0]);
	tables_split_cells(st->ln[j].s, &st->rows[1]);
	int a = st->rows[0].nval, b = st->rows[1].nval;
	if (a >= 3 && b * 2 < a)
		return false;
	/* "Total: Before=14966947, After=14965601" under rows of bare figures:
	 * a summary of its own, not a row */
	int na = 0, nb = 0;
	for (int i = 0; i < st->rows[0].n; i++)
		na += st->rows[0].c[i].name[0] != 0;
	for (int i = 0; i < st->rows[1].n; i++)
		nb += st->rows[1].c[i].name[0] != 0;
	return !na == !nb;
}

/* A row keyed by an x word whose values grow: "threads:  1  2  4  8". */
static bool tb_x_header_row(struct tb_state *st, int li)
{
	struct tb_row *r = &st->rows[1];
	tables_split_cells(st->ln[li].s, r);
	if (r->n < 3 || r->c[0].kind != TB_WORD || !tables_names_x(r->c[0].text))
		return false;
	double last = -INFINITY;
	for (int i = 1; i < r->n; i++) {
		if (r->c[i].kind != TB_VAL || !(r->c[i].v > last))
			return false;
		last = r->c[i].v;
	}
	return true;
}

/* "494dba7b276e12bc 490d451fa5188975c21246f7f8f": commits side by side */
static bool tb_commit_line(const char *s)
{
	int words = 0;
	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		int n = 0;
		while (*s && *s != ' ') {
			if (!isxdigit((unsigned char)*s))
				return false;
			s++;
			n++;
		}
		if (n < 7)
			return false;
		words++;
	}
	return words >= 2;
}

/* A line of a sentence: six words or more, no figure in most of them. */
bool tables_is_prose_line(const char *s)
{
	int words = 0, figures = 0;
	for (const char *q = s; *q;) {
		while (*q == ' ')
			q++;
		if (!*q)
			break;
		words++;
		figures += isdigit((unsigned char)*q) || *q == '+' || *q == '-';
		q += strcspn(q, " ");
	}
	return words >= 6 && figures * 3 < words;
}

/* The first line after the mail's header block (From ... to the first
 * blank line), which is no table; 0 when there is none. */
static int tb_after_mail_header(struct tb_state *st)
{
	int i = 0;
	if (st->n && (!strncmp(st->ln[0].s, "From", 4) || !strncmp(st->ln[0].s, "Date:", 5) ||
		      !strncmp(st->ln[0].s, "Subject:", 8) || !strncmp(st->ln[0].s, "Message-", 8) ||
		      !strncmp(st->ln[0].s, "Return-Path:", 12))) {
		while (i < st->n && !tb_line_blank(st, i))
			i++;
	}
	return i;
}

/* A line of spreads only ("|       |  (0.497) |  (0.114) |"): the
 * spreads of the row above, written under its figures; part of the table,
 * not a row of its own (nothing is read from it). */
bool tables_line_is_spreads(struct tb_state *st, int li)
{
	struct tb_row *r = &st->rows[1];
	if (tables_split_cells(st->ln[li].s, r) < 1)
		return false;
	for (int k = 0; k < r->n; k++)
		if (r->c[k].kind != TB_SPREAD)
			return false;
	return true;
}

/* The last row of the table whose first row is i: rows (and rules
 * between them) at its quote depth that fit it. */
static int tb_last_row(struct tb_state *st, int i, int depth)
{
	int j = i + 1, last = i;
	/* rows written double-spaced ("iova_alloc_fast  145k iops ..." then a
	 * blank line, the next row, a blank line...): one table while every
	 * row stands alone between blank lines */
	bool spaced = j + 1 < st->n && tb_line_blank(st, j) && (i == 0 || tb_line_blank(st, i - 1) ||
								  !tables_line_is_row(st, i - 1));
	while (j < st->n && st->ln[j].depth == depth) {
		if (spaced && j == last + 1 && tb_line_blank(st, j) && j + 1 < st->n && st->ln[j + 1].depth == depth &&
		    tables_line_is_row(st, j + 1) && tb_row_fits(st, last, j + 1) &&
		    st->rows[0].n == st->rows[1].n && st->rows[0].nval == st->rows[1].nval &&
		    (j + 2 >= st->n || !tables_line_is_row(st, j + 2))) {
			last = j + 1;
			j += 2;
			continue;
		}
		if (tables_line_is_row(st, j) && tb_row_fits(st, last, j)) {
			last = j;
			j++;
		} else if (tables_is_rule(st->ln[j].s) || tables_line_is_spreads(st, j)) {
			j++;
		} else {
			break;
		}
	}
	return last;
}

/* The line above k past the rules at depth. */
static int tb_skip_rules_up(struct tb_state *st, int k, int depth)
{
	while (k >= 0 && tables_is_rule(st->ln[k].s) && st->ln[k].depth == depth)
		k--;
	return k;
}

/* The header lines above line k (read top-down: kept in order); the
 * robot's table takes the commits over the rules above "%stddev %change
 * %stddev" (and "fail:runs %reproduction") as its header.  Returns the
 * line above them. */
static int tb_table_heads(struct tb_state *st, struct tb_table *t, int k, int depth)
{
	char pn[32], pv[8];
	while (k >= 0 && t->nhead < 3 && st->ln[k].depth == depth && !tb_line_blank(st, k) &&
	       !tb_line_property(st->ln[k].s, pn, sizeof(pn), pv, sizeof(pv)) &&
	       ((tb_line_header(st, k) && !tables_line_is_row(st, k)) || tb_x_header_row(st, k))) {
		memmove(t->head + 1, t->head, sizeof(int) * (size_t)t->nhead);
		t->head[0] = k;
		t->nhead++;
		k = tb_skip_rules_up(st, k - 1, depth);
	}
	for (int h = 0; h < t->nhead; h++)
		if (strstr(st->ln[t->head[h]].s, "%stddev") || strstr(st->ln[t->head[h]].s, "%change")) {
			for (int q = t->head[0] - 1; q >= 0 && q >= t->head[0] - 12; q--)
				if (tb_commit_line(st->ln[q].s)) {
					t->head[0] = q;
					t->nhead = 1;
					t->robot = true;
					break;
				}
			break;
		}
	return k;
}

/* A line that states one property: "Statistic     : AMean", "Test : hackbench",
 * "Interpretation: Lower is better" (a name of one or two words, a colon,
 * one value); name and value into the buffers. */
static bool tb_line_property(const char *s, char *name, size_t nl, char *val, size_t vl)
{
	while (*s == ' ')
		s++;
	const char *colon = strchr(s, ':');
	if (!colon || colon == s || colon - s > 24 || colon[1] != ' ')
		return false;
	int words = 0;
	for (const char *q = s; q < colon; q++) {
		if (!isalpha((unsigned char)*q) && *q != ' ' && *q != '-' && *q != '_')
			return false;
		words += *q != ' ' && (q == s || q[-1] == ' ');
	}
	if (words < 1 || words > 2)
		return false;
	const char *v = colon + 1;
	while (*v == ' ')
		v++;
	if (!*v || strstr(v, "  ") || strchr(v, ':'))
		return false;
	size_t n = (size_t)(colon - s);
	while (n && s[n - 1] == ' ')
		n--;
	pp_strlcpy(name, s, n + 1 < nl ? n + 1 : nl);
	pp_strlcpy(val, v, vl);
	return true;
}

/* A block of property lines (between rules) right above the header:
 * its test and statistic name the table ("hackbench AMean"); returns the
 * line above the block. */
static int tb_property_block(struct tb_state *st, struct tb_table *t, int k, int depth)
{
	char name[32], val[RP_LABEL_LEN], test[RP_LABEL_LEN] = "", stat[RP_NAME_LEN] = "";
	int top = tb_skip_rules_up(st, k, depth), q = top, n = 0;
	while (q >= 0 && st->ln[q].depth == depth &&
	       tb_line_property(st->ln[q].s, name, sizeof(name), val, sizeof(val))) {
		if (!strcasecmp(name, "test") || !strcasecmp(name, "benchmark"))
			pp_strlcpy(test, val, sizeof(test));
		else if (!strcasecmp(name, "statistic"))
			pp_strlcpy(stat, val, sizeof(stat));
		q--;
		n++;
	}
	if (n < 2 || !test[0])
		return k;
	snprintf(t->ptitle, sizeof(t->ptitle), "%.40s%s%.20s", test, stat[0] ? " " : "", stat);
	return tb_skip_rules_up(st, q, depth);
}

/* The title: the line right above the header (one blank line allowed);
 * a second table right under one with the same header takes its title. */
static void tb_table_title(struct tb_state *st, struct tb_table *t, const struct tb_table *prev, int k, int depth)
{
	int above = tb_property_block(st, t, k, depth);
	if (t->ptitle[0]) {
		(void)above;
		return;
	}
	if (k >= 0 && tb_line_blank(st, k))
		k--;
	/* "there is really nothing to go by:" under "... For the latency,
	 * with the exception of the 64 case,": the end of a sentence, no title */
	bool tail = k >= 1 && islower((unsigned char)st->ln[k].s[strspn(st->ln[k].s, " ")]) &&
		    st->ln[k - 1].depth == depth && tables_is_prose_line(st->ln[k - 1].s);
	if (k >= 0 && st->ln[k].depth == depth && tables_line_is_title(st, k) && !tables_line_is_row(st, k) &&
	    !t->robot && !tail)
		t->title = k;
	/* tiobench's own headings ("Tiotest results for 16 concurrent io
	 * threads:", "Tiotest latency results:") name the tool, not what is
	 * compared: the label is the line above them */
	if (t->title >= 1 && !strncmp(st->ln[t->title].s, "Tiotest ", 8)) {
		if (st->ln[t->title - 1].depth == depth && tables_line_is_label(st, t->title - 1))
			t->title--;
		else if (prev->title >= 0 && prev->last >= t->title - 2 && strncmp(st->ln[prev->title].s, "Tiotest ", 8))
			t->title = prev->title; /* the latency table under the results' one */
	}
	if (t->title < 0 && prev->last >= 0 && k >= 0 && k <= prev->last && prev->last - k <= 2 && prev->nhead &&
	    t->nhead && !strcmp(st->ln[prev->head[prev->nhead - 1]].s, st->ln[t->head[t->nhead - 1]].s))
		t->title = prev->title;
}

/* A section's heading: a short title boxed by rules ("~~~~" over
 * "~ hackbench ~" over "~~~~", "=====" over and under "dbench"), or
 * written as "~ hackbench ~" / "** tbench **"; its name into out. */
static bool tb_line_section(struct tb_state *st, int li, char *out, size_t len)
{
	const char *s = st->ln[li].s;
	while (*s == ' ')
		s++;
	size_t n = strlen(s);
	bool marked = n > 4 && strchr("~*=#", s[0]) && s[n - 1] == s[0] && s[1] == (s[0] == '*' ? '*' : ' ');
	bool boxed = li >= 1 && li + 1 < st->n && tables_is_rule(st->ln[li - 1].s) && tables_is_rule(st->ln[li + 1].s);
	if ((!marked && !boxed) || tables_is_rule(s) || !tables_line_is_title(st, li) || tables_line_is_row(st, li))
		return false;
	while (n && strchr("~*=# ", s[n - 1]))
		n--;
	while (n && strchr("~*=# ", *s)) {
		s++;
		n--;
	}
	if (!n)
		return false;
	pp_strlcpy(out, s, n + 1 < len ? n + 1 : len);
	return true;
}

/* What a prose line says the figures of the table under it are: x's
 * name from "the first column is ... clients" (threads, procs...), the
 * metric from "the numbers are throughput", the unit from "in MB/sec"
 * ("in us"). */
static void tb_prose_hints(const char *s, struct tb_table *t, bool near)
{
	static const struct { const char *w, *x; } xs[] = {
		{ "clients", "clients" }, { "procs", "procs" }, { "processes", "procs" },
		{ "threads", "threads" }, { "streams", "threads" },
	};
	const char *fc = strcasestr(s, "first column");
	for (size_t i = 0; fc && !t->pxname[0] && i < sizeof(xs) / sizeof(xs[0]); i++)
		if (strcasestr(fc, xs[i].w))
			pp_strlcpy(t->pxname, xs[i].x, sizeof(t->pxname));
	static const char *const are[] = { "numbers are ", "figures are ", "results are ", "values are ", NULL };
	for (size_t i = 0; are[i] && !t->pmetric[0]; i++) {
		const char *q = strcasestr(s, are[i]);
		if (!q)
			continue;
		q += strlen(are[i]);
		size_t n = strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_");
		if (n >= 3 && n < RP_NAME_LEN && (q[n] == ' ' || q[n] == '.' || q[n] == ',' || !q[n])) {
			char w[RP_NAME_LEN];
			pp_strlcpy_span(w, sizeof(w), q, n);
			/* "results are comparable": no metric named */
			if (tables_is_metric_head(w))
				tables_make_metric_name(w, t->pmetric, sizeof(t->pmetric));
		}
	}
	/* "We also ran tbench on ...": the benchmark the figures are from */
	char w[RP_NAME_LEN];
	for (const char *q = s; !t->pbench[0] && tables_next_title_word(&q, w, sizeof(w), ".,:;)");)
		tables_is_bench_word(w, t->pbench, sizeof(t->pbench));
	/* "run with up to ncpusx8 clients": what x counts, said in the
	 * paragraph right above */
	if (near) {
		static const char *const xw[] = { "clients", "threads", "procs", "processes", "tasks", NULL };
		for (const char *q = s; !t->pxnear[0] && tables_next_title_word(&q, w, sizeof(w), ".,:;)");)
			for (size_t i = 0; xw[i]; i++)
				if (!strcmp(w, xw[i]))
					pp_strlcpy(t->pxnear, !strcmp(w, "processes") ? "procs" : w, sizeof(t->pxnear));
	}
	/* "in MB/sec" may begin the line: the sentence was wrapped */
	for (size_t i = 0; s[i] && !t->punit[0]; i++) {
		if (strncmp(s + i, "in ", 3) || (i && s[i - 1] != ' '))
			continue;
		const char *u = s + i + 3;
		size_t n = strcspn(u, " .,;:)");
		if (n && tables_is_unit(u, n) && n > 1) {
			char un[RP_UNIT_LEN];
			pp_strlcpy_span(un, sizeof(un), u, n);
			/* as a cell's unit would be named */
			if (!strcmp(un, "MB/sec"))
				pp_strlcpy(un, "MB/s", sizeof(un));
			else if (!strcmp(un, "KB/sec"))
				pp_strlcpy(un, "KB/s", sizeof(un));
			pp_strlcpy(t->punit, un, sizeof(t->punit));
		}
	}
	/* "mean MiB/s (StdDev)": a rate's unit named alone */
	char w2[RP_UNIT_LEN];
	for (const char *q = s; !t->punit[0] && tables_next_title_word(&q, w2, sizeof(w2), ".,:;)");)
		if (strchr(w2, '/') && tables_is_unit(w2, strlen(w2)))
			pp_strlcpy(t->punit, !strcmp(w2, "MB/sec") ? "MB/s" : !strcmp(w2, "KB/sec") ? "KB/s" : w2,
				   sizeof(t->punit));
}

/* The prose above the table (from its header or title up to the
 * previous table, at most 16 lines, quote depth alike) read for hints. */
static void tb_table_prose(struct tb_state *st, struct tb_table *t, int k, int stop, int depth)
{
	bool near = true;
	for (int li = k; li > stop && li >= 0 && k - li < 16; li--) {
		if (st->ln[li].depth != depth)
			break;
		if (!tables_line_is_row(st, li) && st->ln[li].s[0])
			tb_prose_hints(st->ln[li].s, t, near);
		near = near && (st->ln[li].s[0] || li == k);
	}
}

/* Are lines first..last "name: value" lines next to one whose value is
 * words (a list of the parameters of a run: the robot's "with following
 * parameters:" block)? */
static bool tb_in_parameters(struct tb_state *st, int first, int last)
{
	char name[32], val[RP_LABEL_LEN];
	for (int li = first; li <= last; li++)
		if (!tb_line_property(st->ln[li].s, name, sizeof(name), val, sizeof(val)))
			return false;
	for (int d = -1; d <= 1; d += 2) {
		int li = d < 0 ? first : last, k = li + d;
		if (k < 0 || k >= st->n || st->ln[k].depth != st->ln[li].depth ||
		    !tb_line_property(st->ln[k].s, name, sizeof(name), val, sizeof(val)))
			continue;
		double v;
		if (tables_parse_number(val, strlen(val), &v, &(bool){ false }) != strlen(val))
			return true;
	}
	return false;
}

/* Is line li the second line of the boxed row above it: the same bars
 * at the same columns, words in the first field, every other field blank? */
static bool tb_pipe_continuation(struct tb_state *st, int li)
{
	const char *a = st->ln[li - 1].s, *b = st->ln[li].s;
	if (!strchr(b, '|') || !strchr(a, '|') || !tables_line_is_row(st, li - 1))
		return false;
	size_t na = strlen(a), nb = strlen(b);
	int field = 0, first = b[strspn(b, " ")] == '|';
	bool words = false;
	for (size_t k = 0; k < nb || k < na; k++) {
		char ca = k < na ? a[k] : ' ', cb = k < nb ? b[k] : ' ';
		if ((ca == '|') != (cb == '|'))
			return false;
		if (cb == '|') {
			field++;
			continue;
		}
		if (cb != ' ') {
			if (field != first)
				return false;
			words = true;
		}
	}
	return words;
}

/* Read the held lines, then let them go: the mailer's damage undone first
 * (wrapped rows joined, margin remarks cut), then the lines the tools'
 * readers and the run lists take (read, and blanked so that no table takes
 * them again), then each table found, with the header lines, title and
 * prose above it, read.  Called at the end of the input and whenever
 * TB_LINES lines are held. */
void tables_read_lines(struct parser *p, struct tb_state *st)
{
	char section[RP_NAME_LEN] = "";
	int scanned = 0;
	tables_join_wrapped(st);
	tables_cut_margin_notes(st);
	tables_read_tool_lines(p, st);
	tables_read_run_lines(p, st);
	tables_read_iozone_rows(p, st);
	int i = tb_after_mail_header(st);
	struct tb_table prev;
	memset(&prev, 0, sizeof(prev));
	prev.last = -2;
	while (i < st->n) {
		if (!tables_line_is_row(st, i)) {
			i++;
			continue;
		}
		/* "threads:  1  2  4 ..." over rows: a header of x values, not a row */
		if (i + 1 < st->n && tb_x_header_row(st, i) && tables_line_is_row(st, i + 1)) {
			i++;
			continue;
		}
		struct tb_table t;
		memset(&t, 0, sizeof(t));
		t.first = i;
		/* a section runs to its next heading, or to where the author's
		 * own text starts again after a quote (or a quote after it) */
		for (; scanned < i; scanned++) {
			if (scanned && st->ln[scanned].depth != st->ln[scanned - 1].depth)
				section[0] = 0;
			tb_line_section(st, scanned, section, sizeof(section));
		}
		pp_strlcpy(t.section, section, sizeof(t.section));
		int depth = st->ln[i].depth;
		int last = tb_last_row(st, i, depth);
		t.last = last;
		/* "nr_task: 50%" among "mode: thread", "test: context_switch1":
		 * one of the parameters a run was made with, no result */
		if (tb_in_parameters(st, i, last)) {
			i = last + 1;
			continue;
		}
		/* "| 2.6.32  | 100 |" over "| vanilla |     |": the row's name
		 * goes on in the next line; read alone, rows of one kernel and
		 * two patches would be runs of one label */
		if (last + 1 < st->n && tb_pipe_continuation(st, last + 1)) {
			pp_note(p, st->ln[i].no, st->ln[last + 1].no, false,
				"lines %d-%d: a row's name goes on in the next line (a boxed table with two-line "
				"names): its label cannot be told, not read",
				st->ln[i].no, st->ln[last + 1].no);
			i = last + 2;
			continue;
		}
		/* header lines and a title above the rows */
		int k = tb_skip_rules_up(st, i - 1, depth);
		t.nhead = 0;
		t.title = -1;
		bool rule_above = i >= 1 && k == i - 2 && tables_find_rule_spans(st->ln[i - 1].s, NULL, NULL, 0) >= 2;
		t.rule = rule_above ? i - 1 : -1;
		if (k >= 1 && tb_line_blank(st, k) && st->ln[k - 1].depth == depth && !tables_line_is_row(st, k - 1) &&
		    tb_line_header(st, k - 1) && (tb_header_cells(st->ln[k - 1].s) >= 2 || st->ln[k - 1].s[0] == ' '))
			k--;
		if (k >= 0 && st->ln[k].depth == depth && tb_setting_line(st->ln[k].s)) {
			tables_trim_title(st->ln[k].s, t.setting, sizeof(t.setting));
			k--;
			/* a setting between rows: the rows under it are the same table's */
			if (k >= 0 && k == prev.last && prev.nhead) {
				memcpy(t.head, prev.head, sizeof(t.head));
				t.nhead = prev.nhead;
				t.title = prev.title;
				tables_read_table(p, st, &t);
				prev.last = last;
				i = last + 1;
				continue;
			}
		}
		/* a line naming the metric between the header and the rows
		 * ("baseline  patched" over "latency(us)" over "p50  12.1  11.8") */
		int sub = -1;
		if (k >= 1 && st->ln[k].depth == depth && st->ln[k - 1].depth == depth && tables_line_is_title(st, k) &&
		    !tables_line_is_row(st, k) && !tb_line_header(st, k) && !tb_line_blank(st, k - 1) &&
		    tb_line_header(st, k - 1) && !tables_line_is_row(st, k - 1) &&
		    tb_header_cells(st->ln[k - 1].s) >= 2) {
			sub = k;
			k--;
		}
		k = tb_table_heads(st, &t, k, depth);
		tb_table_title(st, &t, &prev, k, depth);
		tb_table_prose(st, &t, k, prev.last, depth);
		/* the next table of the same benchmark ("dbench" then "the
		 * dbench4 Throughput"): what x counts was said once, above both */
		/* no other benchmark named since the one above the table before */
		if (!t.pbench[0] && prev.pbench[0] && st->ln[prev.last].depth == depth)
			pp_strlcpy(t.pbench, prev.pbench, sizeof(t.pbench));
		if (!t.pxnear[0] && prev.pxnear[0] && t.pbench[0] && prev.pbench[0] &&
		    !strncmp(t.pbench, prev.pbench, strlen(prev.pbench)))
			pp_strlcpy(t.pxnear, prev.pxnear, sizeof(t.pxnear));
		if (sub >= 0 && t.nhead)
			t.title = sub;
		tables_read_table(p, st, &t);
		prev = t;
		i = last + 1;
	}
	st->n = 0;
}
