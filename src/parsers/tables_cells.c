/* The table reader, stage 1: a line cut into cells and each cell typed
 * (a value, a value with its unit, a spread, a stated change, a missing
 * cell, a word), then whether the line is a table row at all.  Everything
 * after reads cells, never bytes; the tokenizers that cut lines into
 * words and two-blank cells are here too, so that every stage cuts a line
 * the same way. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tables_internal.h"

/* Is w[0, n) a unit a figure may carry, glued on ("45.6MB/s") or as the
 * next word ("7k iops")?  Only these: any other word after a figure is a
 * name, not its unit. */
bool tables_is_unit(const char *w, size_t n)
{
	static const char *const units[] = { "iops", "IOPS", "MB/s", "MiB/s", "KB/s", "KiB/s", "kB/s", "GB/s",
		"GiB/s", "MB/sec", "KB/sec", "ms", "us", "ns", "s", "sec", "secs", "min", "mins", "Mb/sec", "op/s",
		"ops/s", "files/sec", "MBit/sec", "usec", "msec", "KIOPS", "kiops", NULL };
	for (size_t i = 0; units[i]; i++)
		if (strlen(units[i]) == n && !memcmp(units[i], w, n))
			return true;
	return false;
}

/* A number with an optional k/K/m/M/g/G count suffix and thousands commas:
 * the characters it uses, 0 when s does not start with one. */
size_t tables_parse_number(const char *s, size_t n, double *v, bool *suffixed)
{
	char buf[64];
	size_t k = 0, i = 0;
	*suffixed = false;
	if (i < n && (s[i] == '-' || s[i] == '+'))
		buf[k++] = s[i++];
	size_t digits = 0;
	while (i < n && k < sizeof(buf) - 8) {
		if (isdigit((unsigned char)s[i])) {
			buf[k++] = s[i++];
			digits++;
		} else if (s[i] == ',' && digits && i + 3 < n + 1 && i + 3 <= n &&
			   isdigit((unsigned char)s[i + 1]) && isdigit((unsigned char)s[i + 2]) &&
			   (i + 3 < n ? isdigit((unsigned char)s[i + 3]) : 0)) {
			i++;
		} else if (s[i] == ',' && digits && i + 3 == n && isdigit((unsigned char)s[i + 1]) &&
			   isdigit((unsigned char)s[i + 2])) {
			i++;
		} else {
			break;
		}
	}
	if (i < n && s[i] == '.') {
		buf[k++] = s[i++];
		while (i < n && isdigit((unsigned char)s[i]) && k < sizeof(buf) - 8) {
			buf[k++] = s[i++];
			digits++;
		}
	}
	if (!digits)
		return 0;
	if (i + 1 < n && (s[i] == 'e' || s[i] == 'E') &&
	    (isdigit((unsigned char)s[i + 1]) || ((s[i + 1] == '+' || s[i + 1] == '-') && i + 2 < n &&
						  isdigit((unsigned char)s[i + 2])))) {
		buf[k++] = s[i++];
		if (s[i] == '+' || s[i] == '-')
			buf[k++] = s[i++];
		while (i < n && isdigit((unsigned char)s[i]) && k < sizeof(buf) - 2)
			buf[k++] = s[i++];
	}
	buf[k] = 0;
	*v = strtod(buf, NULL);
	if (i < n && strchr("kKmMgG", s[i]) && (i + 1 == n || !isalpha((unsigned char)s[i + 1]))) {
		double f = strchr("kK", s[i]) ? 1e3 : strchr("mM", s[i]) ? 1e6 : 1e9;
		*v *= f;
		*suffixed = true;
		i++;
	}
	return i;
}

/* Type one cell's text. */
static void tb_type(struct tb_cell *c, const char *s, size_t n)
{
	size_t k = n < sizeof(c->text) - 1 ? n : sizeof(c->text) - 1;
	memcpy(c->text, s, k);
	c->text[k] = 0;
	c->cut = k < n;
	c->spread = NAN;
	c->kind = TB_WORD;
	c->unit[0] = 0;
	c->name[0] = 0;
	c->v = NAN;
	/* name=value cells (fio's "IOPS=11.1k,", "BW=43.2MiB/s", "bs=4k") */
	const char *eq = memchr(s, '=', n);
	if (eq && eq > s && eq + 1 < s + n) {
		size_t nl = (size_t)(eq - s);
		bool word = true;
		for (size_t i = 0; i < nl; i++)
			word = word && (isalnum((unsigned char)s[i]) || s[i] == '_');
		if (word) {
			const char *vs = eq + 1;
			size_t vn = (size_t)(s + n - vs);
			while (vn && (vs[vn - 1] == ',' || vs[vn - 1] == ';'))
				vn--;
			/* "(3056MB/s)(56.9GiB/20001msec)" after the value: not part of it */
			const char *par = memchr(vs, '(', vn);
			if (par)
				vn = (size_t)(par - vs);
			struct tb_cell tmp;
			tb_type(&tmp, vs, vn);
			if (tmp.kind == TB_VAL) {
				int col = c->col, end = c->end, group = c->group;
				*c = tmp;
				c->col = col;
				c->end = end;
				c->group = group;
				pp_strlcpy(c->text, s, n + 1 < sizeof(c->text) ? n + 1 : sizeof(c->text));
				pp_strlcpy(c->name, s, nl + 1 < sizeof(c->name) ? nl + 1 : sizeof(c->name));
				if (!strcmp(c->name, "bs") || !strcmp(c->name, "BS")) {
					double kib;
					if (pp_size_to_kib(vs, vn, &kib))
						c->v = kib;
					c->kind = TB_WORD; /* a key: x */
					c->unit[0] = 0;
				}
				/* fio's job options ("fio ioengine=pvsync2 numjobs=4
				 * direct=1"): how the run was made, never a result */
				static const char *const opts[] = { "numjobs", "iodepth", "direct", "buffered", "size",
					"runtime", "ramp_time", "nrfiles", "filesize", "loops", "thinktime",
					"iodepth_batch", "rwmixread", "rwmixwrite", "hipri", "sqthread_poll", NULL };
				for (size_t o = 0; opts[o]; o++)
					if (!strcmp(c->name, opts[o])) {
						c->kind = TB_WORD;
						c->unit[0] = 0;
					}
				return;
			}
		}
	}
	if ((n == 1 && (s[0] == '-' || s[0] == '?')) || (n == 3 && !strncasecmp(s, "n/a", 3)) ||
	    (n >= 3 && !strncmp(s, "+++", 3)) || (n == 3 && !strncasecmp(s, "nan", 3))) {
		c->kind = TB_MISS;
		return;
	}
	/* stated changes and spreads: ( 7.22%)  *9.23%*  [ -9.11]  (-6.16 pct)  +3%  ~34%  1.05x  (1.2) */
	const char *p = s, *e = s + n;
	char open = 0;
	if (*p == '(' || *p == '*' || *p == '[') {
		open = *p++;
		if (e > p && (e[-1] == ')' || e[-1] == '*' || e[-1] == ']'))
			e--;
	}
	while (p < e && *p == ' ')
		p++;
	bool tilde = p < e && *p == '~';
	if (tilde)
		p++;
	bool sign = p < e && (*p == '+' || *p == '-');
	double v;
	bool suf;
	size_t used = tables_parse_number(p, (size_t)(e - p), &v, &suf);
	if (!used)
		return;
	const char *q = p + used;
	while (q < e && *q == ' ')
		q++;
	bool pct = (q < e && *q == '%') || (e - q >= 3 && !strncmp(q, "pct", 3));
	if (pct) {
		q += *q == '%' ? 1 : 3;
		while (q < e && *q == ' ')
			q++;
	}
	bool ratio = !pct && q < e && *q == 'x' && q + 1 == e;
	if (q < e && !ratio) {
		/* a unit glued on: 45.6MB/s, 12ms, 5m06s is not one */
		if (!open && !pct && tables_is_unit(q, (size_t)(e - q)) && !suf) {
			c->kind = TB_VAL;
			c->v = v;
			pp_strlcpy(c->unit, q, (size_t)(e - q) + 1 < sizeof(c->unit) ? (size_t)(e - q) + 1 : sizeof(c->unit));
		}
		return;
	}
	if (open == '[' || open == '*' || (open == '(' && pct) || (tilde && pct) || ratio || (sign && pct)) {
		c->kind = TB_CHG;
		c->v = v;
		return;
	}
	/* "~8341": about 8341, no figure measured: not read (and said) */
	if (tilde)
		return;
	if (open == '(') {
		c->kind = TB_SPREAD;
		c->v = v;
		return;
	}
	c->kind = TB_VAL;
	c->v = v;
	if (pct)
		pp_strlcpy(c->unit, "%", sizeof(c->unit));
	if (!isfinite(v))
		c->v = NAN;
}

/* Between bars a field is one cell: "| Write        2048 MBs |" is a row's
 * name, "| 445.2 %  |" a value and its unit. */
static void tb_bar_fields(const char *s, struct tb_row *r)
{
	int bars = 0;
	for (const char *q = s; *q; q++)
		bars += *q == '|';
	if (bars < 2)
		return;
	int out = 0;
	for (int i = 0; i < r->n;) {
		int f = 0;
		for (int k = 0; k < r->c[i].col; k++)
			f += s[k] == '|';
		int j = i + 1;
		for (; j < r->n; j++) {
			int g = f;
			for (int k = r->c[i].col; k < r->c[j].col; k++)
				g += s[k] == '|';
			if (g != f)
				break;
		}
		struct tb_cell *c = &r->c[i];
		if (j - i == 2 && c->kind == TB_VAL && !c->unit[0] && r->c[i + 1].kind == TB_WORD &&
		    strlen(r->c[i + 1].text) <= 5) {
			pp_strlcpy(c->unit, r->c[i + 1].text, sizeof(c->unit));
			c->end = r->c[i + 1].end;
		} else if (j - i >= 2 && c->kind == TB_WORD) {
			size_t k = strlen(c->text);
			for (int m = i + 1; m < j; m++) {
				size_t w = strlen(r->c[m].text);
				if (k + 1 + w < sizeof(c->text)) {
					c->text[k++] = ' ';
					memcpy(c->text + k, r->c[m].text, w + 1);
					k += w;
				}
			}
			c->end = r->c[j - 1].end;
		} else {
			for (int m = i; m < j; m++)
				if (out != m)
					r->c[out++] = r->c[m];
				else
					out++;
			i = j;
			continue;
		}
		if (out != i)
			r->c[out] = *c;
		out++;
		i = j;
	}
	r->n = out;
}

/* The cells of one line: words at single blanks, then glued back where the
 * text says they are one cell ("(   0.00%)", "* -9.4%*", "7k iops",
 * "± 18%", "(-6.16 pct)"). */
int tables_split_cells(const char *s, struct tb_row *r)
{
	struct { int a, b; } w[TB_CELLS * 2];
	int nw = 0;
	for (int i = 0; s[i] && nw < (int)(sizeof(w) / sizeof(w[0]));) {
		while (s[i] == ' ' || s[i] == '|')
			i++;
		if (!s[i])
			break;
		int a = i;
		while (s[i] && s[i] != ' ' && s[i] != '|')
			i++;
		w[nw].a = a;
		w[nw].b = i;
		nw++;
	}
	r->n = r->nval = r->nword = r->nchg = 0;
	for (int i = 0; i < nw && r->n < TB_CELLS; i++) {
		int a = w[i].a, b = w[i].b;
		char first = s[a], last = s[b - 1];
		/* an opening bracket or star without its closing one: glue on to it */
		if ((first == '(' || first == '*' || first == '[') &&
		    !(b - a > 1 && (last == ')' || last == '*' || last == ']'))) {
			int j = i + 1;
			while (j < nw && j < i + 3) {
				char lj = s[w[j].b - 1];
				if (lj == ')' || lj == '*' || lj == ']')
					break;
				j++;
			}
			if (j < nw && j < i + 3) {
				b = w[j].b;
				i = j;
			}
		}
		/* "[ -9.11](11.93)": a change glued to a spread: keep the change */
		struct tb_cell *c = &r->c[r->n];
		c->col = a;
		c->end = b;
		c->group = -1;
		/* ± spread: attach to the cell before */
		if (first == TB_PM || (b - a == 2 && !strncmp(s + a, "+-", 2))) {
			int sb = b;
			if (b - a <= 2 && i + 1 < nw) {
				sb = w[i + 1].b;
				i++;
			}
			if (r->n && r->c[r->n - 1].kind == TB_VAL) {
				/* "± 18%": 18 % of the value; "± 312", "+- 4": in its unit */
				struct tb_cell *vc = &r->c[r->n - 1];
				const char *q = s + a + (first == TB_PM ? 1 : 2);
				while (q < s + sb && *q == ' ')
					q++;
				double sv;
				bool suf;
				size_t u = tables_parse_number(q, (size_t)(s + sb - q), &sv, &suf);
				if (u && isfinite(vc->v))
					vc->spread = q + u < s + sb && q[u] == '%' ? fabs(vc->v) * sv / 100 : sv;
				vc->end = sb;
				continue;
			}
			c->end = sb;
			c->kind = TB_SPREAD;
			c->v = NAN;
			c->text[0] = 0;
			r->n++;
			continue;
		}
		const char *close = memchr(s + a, ']', (size_t)(b - a));
		tb_type(c, s + a, close && first == '[' ? (size_t)(close + 1 - (s + a)) : (size_t)(b - a));
		/* "[ -9.11](11.93)": the spread after the change, kept on it */
		if (close && first == '[' && close + 1 < s + b && close[1] == '(') {
			double sv;
			bool suf;
			const char *q = close + 2;
			while (q < s + b && *q == ' ')
				q++;
			if (tables_parse_number(q, (size_t)(s + b - q), &sv, &suf))
				c->spread = sv;
		}
		/* a unit word after a value: "7k iops", "0.2 s", "8667.792 MB/s" */
		if (c->kind == TB_VAL && !c->unit[0] && i + 1 < nw &&
		    tables_is_unit(s + w[i + 1].a, (size_t)(w[i + 1].b - w[i + 1].a))) {
			size_t un = (size_t)(w[i + 1].b - w[i + 1].a);
			pp_strlcpy(c->unit, s + w[i + 1].a, un + 1 < sizeof(c->unit) ? un + 1 : sizeof(c->unit));
			c->end = w[i + 1].b;
			i++;
		}
		r->n++;
	}
	tb_bar_fields(s, r);
	/* "Create 20000 files: 116.88": a figure inside the row's name */
	for (int i = 0; i + 1 < r->n; i++) {
		size_t tl = strlen(r->c[i + 1].text);
		if (r->c[i].kind == TB_VAL && !r->c[i].unit[0] && r->c[i + 1].kind == TB_WORD &&
		    r->c[i + 1].col == r->c[i].end + 1 && tl > 1 && r->c[i + 1].text[tl - 1] == ':')
			r->c[i].kind = TB_WORD;
	}
	for (int i = 0; i < r->n; i++) {
		r->nval += r->c[i].kind == TB_VAL;
		r->nword += r->c[i].kind == TB_WORD;
		r->nchg += r->c[i].kind == TB_CHG;
	}
	return r->n;
}

/* A line of a patch: diffstat ("fs/ext4/file.c | 34 +++---", "2 files
 * changed, 27 insertions(+)"), a hunk or file header. */
static bool tb_is_diff(const char *s)
{
	while (*s == ' ')
		s++;
	if (!strncmp(s, "diff ", 5) || !strncmp(s, "--- ", 4) || !strncmp(s, "+++ ", 4) || !strncmp(s, "@@", 2) ||
	    !strncmp(s, "index ", 6) || strstr(s, " changed, ") || strstr(s, "insertions(+)") ||
	    strstr(s, "deletions(-)"))
		return true;
	const char *bar = strrchr(s, '|');
	if (bar) {
		const char *q = bar + 1;
		while (*q == ' ')
			q++;
		if (!isdigit((unsigned char)*q))
			return false;
		while (isdigit((unsigned char)*q))
			q++;
		while (*q == ' ')
			q++;
		if (!*q)
			return true;
		while (*q == '+' || *q == '-')
			q++;
		return !*q && q[-1] != ' ';
	}
	return false;
}

/* A header whose names hold numbers ("2000 files by 1M    200 files by
 * 10M", "Write 4k   Read 4k"): cut at two blanks or bars, every cell
 * holds a word and none is a figure alone (a value, with its unit,
 * spread or change).  A row has at least one figure standing alone. */
static bool tb_is_named_header(const char *s)
{
	struct tb_row one;
	int cells = 0;
	for (size_t i = 0; s[i];) {
		while (s[i] == ' ' || s[i] == '|')
			i++;
		if (!s[i])
			break;
		size_t a = i;
		bool letter = false;
		while (s[i] && s[i] != '|' && !(s[i] == ' ' && (s[i + 1] == ' ' || !s[i + 1]))) {
			letter = letter || isalpha((unsigned char)s[i]);
			i++;
		}
		char cell[TB_W + 1];
		memcpy(cell, s + a, i - a);
		cell[i - a] = 0;
		/* a figure: a value alone, or with its change or spread */
		int nc = tables_split_cells(cell, &one), words = 0;
		for (int k = 0; k < nc; k++)
			words += one.c[k].kind == TB_WORD;
		if (nc && !words)
			return false;
		if (!letter)
			return false;
		cells++;
	}
	return cells >= 2;
}

/* A line that is a table row: figures, and not prose. */
bool tables_is_row(const struct tb_row *r, const char *s)
{
	if (r->nval < 1 || r->n < 2)
		return false;
	/* "$ modprobe brd rd_size=10485760", "set size 5120 524288" (a
	 * benchmark's script), bloat-o-meter's "Total: Before=..., After=...":
	 * a command or a summary, not a row */
	{
		const char *b = s + strspn(s, " ");
		static const char *const verbs[] = { "$ ", "# ", "set ", "echo ", "modprobe ", "mount ", "mkfs",
			"sysctl ", "insmod ", "export ", "Total: Before=", NULL };
		for (size_t v = 0; verbs[v]; v++)
			if (!strncmp(b, verbs[v], strlen(verbs[v])))
				return false;
	}
	/* "- 10 runs": a bullet of a list, not a row */
	if (r->nval == 1 && (!strncmp(s + strspn(s, " "), "- ", 2) || !strncmp(s + strspn(s, " "), "* ", 2)) &&
	    r->nword >= 1)
		return false;
	/* "1. one thread", "2) with the patch": a list, not a row */
	size_t l0 = strlen(r->c[0].text);
	if (r->nval == 1 && r->c[0].kind == TB_VAL && l0 >= 2 && strchr(".)", r->c[0].text[l0 - 1]) &&
	    r->c[1].kind == TB_WORD)
		return false;
	bool named = false; /* "IOPS=11.1k": a cell that names its figure */
	for (int i = 0; i < r->n; i++)
		named = named || r->c[i].name[0];
	if (!named && tb_is_named_header(s))
		return false;
	/* a diffstat line ("fs/ext4/file.c | 34 +++---"), a hunk header */
	if (tb_is_diff(s))
		return false;
	/* "JOBS=1  JOBS=10", "numjobs=1 numjobs=2": a header of x values,
	 * maybe after the key columns' names ("rw  bs  hipri=0  hipri=1") */
	int named_vals = 0;
	bool same = true;
	const char *first_name = NULL;
	for (int i = 0; i < r->n && same; i++) {
		if (r->c[i].kind == TB_WORD && !r->c[i].name[0] && !named_vals)
			continue;
		same = r->c[i].name[0] && (!first_name || !strcmp(r->c[i].name, first_name));
		first_name = first_name ? first_name : r->c[i].name;
		named_vals++;
	}
	if (same && named_vals >= 2)
		return false;
	/* "6.1   6.1+patch", "5.10  5.10-rc1": kernel names over the columns
	 * (a figure like a version beside a name that starts with one) */
	bool kernels = r->n >= 2, named_kernel = false;
	for (int i = 0; i < r->n && kernels; i++) {
		const char *q = r->c[i].text;
		size_t d = strspn(q, "0123456789");
		bool vstart = d && q[d] == '.' && isdigit((unsigned char)q[d + 1]);
		if (r->c[i].kind == TB_WORD) {
			kernels = vstart;
			named_kernel = true;
		} else {
			kernels = r->c[i].kind == TB_VAL && vstart && strspn(q, "0123456789.") == strlen(q);
		}
	}
	if (kernels && named_kernel)
		return false;
	if (r->nword > 4 || r->nword > r->nval + r->nchg + 2)
		return false;
	size_t len = strlen(s);
	if (len && (s[len - 1] == '.' || s[len - 1] == ',') && r->nword > 1)
		return false;
	/* "dbench 16 clients, MB/s:": a title over what follows, its figure
	 * part of the words */
	if (len && s[len - 1] == ':' && r->nword >= 2)
		return false;
	return true;
}

/* A rule drawn between a header and its rows or around a table (three or
 * more of "-=+|~_*" and the like, nothing else): part of the table, never
 * a row. */
bool tables_is_rule(const char *s)
{
	int dash = 0, other = 0;
	for (; *s; s++) {
		if (strchr("-=+|~_* ,.`'", *s))
			dash += *s != ' ';
		else
			other++;
	}
	return dash >= 3 && !other;
}

/* The next cell of s from *i, cells split at two blanks (or a blank at
 * the end): its start in *a, *i past it; false when only blanks are left. */
bool tables_next_cell(const char *s, int *i, int *a)
{
	while (s[*i] == ' ')
		(*i)++;
	if (!s[*i])
		return false;
	*a = *i;
	while (s[*i] && !(s[*i] == ' ' && (s[*i + 1] == ' ' || !s[*i + 1])))
		(*i)++;
	return true;
}

/* The next blank-separated word of s from *i: its start in *a, *i past
 * it; false when only blanks are left. */
bool tables_next_word(const char *s, int *i, int *a)
{
	while (s[*i] == ' ')
		(*i)++;
	if (!s[*i])
		return false;
	*a = *i;
	while (s[*i] && s[*i] != ' ')
		(*i)++;
	return true;
}

/* The next blank-separated word of a title at *q into w (cut to len),
 * with the characters of `trim` taken off its end; false at the end. */
bool tables_next_title_word(const char **q, char *w, size_t len, const char *trim)
{
	const char *p = *q;

	while (*p == ' ')
		p++;
	size_t n = strcspn(p, " ");
	if (!n)
		return false;
	pp_strlcpy(w, p, n + 1 < len ? n + 1 : len);
	size_t k = strlen(w);
	while (k && strchr(trim, w[k - 1]))
		w[--k] = 0;
	*q = p + n;
	return true;
}
