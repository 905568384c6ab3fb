/* Result tables as people paste them into mails:
 *  - "2.4.16:" label lines over blocks of dbench Throughput lines; a blank
 *    line between blocks of one label starts another run of it, as does an
 *    x seen again in the same block;
 *  - a header row of labels (cells split at tabs or 2+ blanks) over rows
 *    "x v1 v2 v3", empty cells allowed: values go to the column whose
 *    position they share once tabs are expanded;
 *  - "---- (5,10) - default" headings, kernel-name lines ("2.6.24-rc2 #28
 *    SMP") and iozone rows under them, labelled "2.6.24-rc2 (5,10)";
 *  - bonnie++ tables.
 * Rule lines ("------") and columns that are not results ("%-diff",
 * "diff", "change", "delta") are recognised and skipped. */
#include <ctype.h>
#include <math.h>
#include <string.h>
#include "pinternal.h"

#define MAIL_LABELS 128
#define MAIL_COLS 16
#define MAIL_SEEN 64

struct mail_label {
	char name[RP_LABEL_LEN];
	int runs;                 /* next free run number */
};

enum mail_mode { MAIL_NONE, MAIL_BLOCK, MAIL_HEADER, MAIL_TABLE };

struct mail_col {
	char label[RP_LABEL_LEN];
	int col, endcol;
	bool ignored;
	int run;
};

struct mail_state {
	struct mail_label labels[MAIL_LABELS];
	size_t nlabels;
	enum mail_mode mode;
	/* label blocks */
	char cur[RP_LABEL_LEN];
	int cur_run;
	int block_points;
	bool gap;
	double seen[MAIL_SEEN];
	size_t nseen;
	bool pending;
	double pend_v, pend_x;
	/* "---- (5,10) - default" */
	char section[32];
	/* column table */
	struct mail_col cols[MAIL_COLS];
	size_t ncols;
	char x_name[RP_NAME_LEN];
	/* hints from the prose before a table */
	char hint_x[RP_NAME_LEN], hint_metric[RP_NAME_LEN], hint_unit[RP_UNIT_LEN];
	struct bonnie_table bt;
};

static struct mail_label *mail_label_get(struct mail_state *m, const char *name)
{
	for (size_t i = 0; i < m->nlabels; i++)
		if (strcmp(m->labels[i].name, name) == 0)
			return &m->labels[i];
	struct mail_label *l;
	if (m->nlabels < MAIL_LABELS)
		l = &m->labels[m->nlabels++];
	else
		l = &m->labels[MAIL_LABELS - 1];   /* bounded: the last slot is reused */
	pp_strlcpy(l->name, name, sizeof(l->name));
	l->runs = 0;
	return l;
}

static void mail_set_label(struct mail_state *m, const char *name, size_t len)
{
	char buf[RP_LABEL_LEN];
	pp_strlcpy(buf, name, len + 1 < sizeof(buf) ? len + 1 : sizeof(buf));
	if (m->section[0]) {
		size_t l = strlen(buf);
		if (l + 1 + strlen(m->section) < sizeof(buf)) {
			buf[l] = ' ';
			strcpy(buf + l + 1, m->section);
		}
	}
	pp_strlcpy(m->cur, buf, sizeof(m->cur));
	m->cur_run = mail_label_get(m, m->cur)->runs;
	m->block_points = 0;
	m->gap = false;
	m->nseen = 0;
	m->mode = MAIL_BLOCK;
}

/* The run for the next point of the current label at x. */
static int mail_block_run(struct mail_state *m, double x)
{
	struct mail_label *l = mail_label_get(m, m->cur);
	bool repeat = false;
	for (size_t i = 0; i < m->nseen; i++)
		if (m->seen[i] == x)
			repeat = true;
	if (m->block_points && (m->gap || repeat) && l->runs < PARSER_RUN_MAX) {
		m->cur_run = l->runs;
		m->block_points = 0;
		m->nseen = 0;
	}
	m->gap = false;
	if (l->runs < m->cur_run + 1)
		l->runs = m->cur_run + 1;
	m->block_points++;
	if (m->nseen < MAIL_SEEN)
		m->seen[m->nseen++] = x;
	return m->cur_run;
}

static const char *mail_label_or_default(struct parser *p, struct mail_state *m)
{
	if (!m->cur[0])
		pp_strlcpy(m->cur, p->label, sizeof(m->cur));
	return m->cur;
}

static void mail_dbench_point(struct parser *p, struct mail_state *m, const char *x_name, double x, double v)
{
	const char *label = mail_label_or_default(p, m);
	int run = mail_block_run(m, x);
	pp_emit(p, label, run, x_name, x, "throughput", v, "MB/s", RP_FINAL);
}

static bool is_rule(const char *s)
{
	bool any = false;
	for (; *s; s++) {
		if (*s == '-' || *s == '=' || *s == '+' || *s == '|' || *s == '_' || *s == '*')
			any = true;
		else if (*s != ' ' && *s != '\t')
			return false;
	}
	return any;
}

/* A cell that is a column of derived figures, not a run. */
static bool is_ignored_label(const char *s, size_t len)
{
	if (len && s[0] == '%')
		return true;
	static const char *const words[] = { "diff", "change", "delta", "ratio", "gain", "%" };
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t wl = strlen(words[i]);
		for (size_t k = 0; k + wl <= len; k++)
			if (strncasecmp(s + k, words[i], wl) == 0)
				return true;
	}
	return false;
}

/* "2.6.23.1-42.fc8": starts with a digit, has a dot, is not a number. */
static bool is_kernel_name(const struct pp_tok *t)
{
	if (!t->len || !isdigit((unsigned char)t->s[0]) || pp_tok_number(t, NULL))
		return false;
	return memchr(t->s, '.', t->len) != NULL;
}

static void mail_hints(struct mail_state *m, const char *line)
{
	/* what the prose says the numbers are: "The first column is dbench
	 * clients.  The numbers are throughput in MB/sec." */
	static const struct { const char *w, *x; } xs[] = {
		{ "clients", "clients" }, { "procs", "procs" }, { "processes", "procs" },
		{ "threads", "threads" }, { "streams", "threads" },
	};
	for (size_t i = 0; i < sizeof(xs) / sizeof(xs[0]); i++)
		if (strcasestr(line, xs[i].w))
			pp_strlcpy(m->hint_x, xs[i].x, sizeof(m->hint_x));
	if (strcasestr(line, "throughput"))
		pp_strlcpy(m->hint_metric, "throughput", sizeof(m->hint_metric));
	if (strstr(line, "MB/sec") || strstr(line, "MB/s"))
		pp_strlcpy(m->hint_unit, "MB/s", sizeof(m->hint_unit));
	else if (strstr(line, "KB/s") || strstr(line, "kB/s") || strstr(line, "KB/sec"))
		pp_strlcpy(m->hint_unit, "KB/s", sizeof(m->hint_unit));
}

/* A header row: 2+ cells, each short and not a number. */
static bool mail_header(struct parser *p, struct mail_state *m, const char *line)
{
	struct pp_tok c[MAIL_COLS + 1];
	size_t n = pp_cells(line, c, MAIL_COLS + 1);
	if (n < 2 || n > MAIL_COLS)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!c[i].len || c[i].len >= 24 || pp_tok_number(&c[i], NULL))
			return false;
		size_t words = 1;
		for (size_t k = 0; k < c[i].len; k++)
			if (c[i].s[k] == ' ')
				words++;
		if (words > 3 || c[i].s[c[i].len - 1] == '.' || c[i].s[c[i].len - 1] == ',')
			return false;
	}
	m->ncols = n;
	m->x_name[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		struct mail_col *col = &m->cols[i];
		pp_strlcpy(col->label, c[i].s, c[i].len + 1 < sizeof(col->label) ? c[i].len + 1 : sizeof(col->label));
		if (m->section[0] && strlen(col->label) + 1 + strlen(m->section) < sizeof(col->label)) {
			strcat(col->label, " ");
			strcat(col->label, m->section);
		}
		col->col = c[i].col;
		col->endcol = c[i].endcol;
		col->ignored = is_ignored_label(c[i].s, c[i].len);
		col->run = -1;
	}
	m->mode = MAIL_HEADER;
	(void)p;
	return true;
}

static void mail_table_row(struct parser *p, struct mail_state *m, const struct pp_tok *t, size_t n, double x)
{
	if (m->mode == MAIL_HEADER) {
		/* the first header cell names the x column when it sits over it */
		if (m->ncols && m->cols[0].col <= t[0].endcol && !m->cols[0].ignored &&
		    m->cols[0].endcol <= t[1].col) {
			pp_strlcpy(m->x_name, m->cols[0].label, sizeof(m->x_name));
			m->cols[0].ignored = true;
		}
		for (size_t i = 0; i < m->ncols; i++)
			if (!m->cols[i].ignored) {
				struct mail_label *l = mail_label_get(m, m->cols[i].label);
				m->cols[i].run = l->runs;
				if (l->runs < PARSER_RUN_MAX)
					l->runs++;
			}
		m->mode = MAIL_TABLE;
	}
	size_t first = m->x_name[0] ? 1 : 0;
	size_t nlab = m->ncols - first;
	const char *x_name = m->x_name[0] ? m->x_name : (m->hint_x[0] ? m->hint_x : "x");
	const char *metric = m->hint_metric[0] ? m->hint_metric : "value";
	const char *unit = m->hint_unit;
	for (size_t k = 1; k < n; k++) {
		double v;
		if (!pp_tok_number(&t[k], &v))
			continue;
		size_t ci;
		if (n - 1 == nlab)
			ci = first + k - 1;
		else {
			/* the column that shares this cell's position best */
			int best = -1, bestd = 1 << 30;
			for (size_t i = first; i < m->ncols; i++) {
				int ds = t[k].col - m->cols[i].col, de = t[k].endcol - m->cols[i].endcol;
				ds = ds < 0 ? -ds : ds;
				de = de < 0 ? -de : de;
				int d = ds < de ? ds : de;
				if (d < bestd) {
					bestd = d;
					best = (int)i;
				}
			}
			if (best < 0 || bestd > 8)
				continue;
			ci = (size_t)best;
		}
		if (ci >= m->ncols || m->cols[ci].ignored)
			continue;
		pp_emit(p, m->cols[ci].label, m->cols[ci].run, x_name, x, metric, v, unit, RP_FINAL);
	}
}

static void mail_iozone_row(struct parser *p, struct mail_state *m, const struct pp_tok *t, size_t n)
{
	double v[IOZONE_NCOLS], reclen;
	size_t nv = 0;
	if (!pp_tok_number(&t[1], &reclen))
		return;
	for (size_t k = 2; k < n && nv < IOZONE_NCOLS; k++)
		if (!pp_tok_number(&t[k], &v[nv++]))
			return;
	const char *label = mail_label_or_default(p, m);
	int run = mail_block_run(m, reclen);
	iozone_emit_row(p, label, run, reclen, v, nv, "KB/s");
}

static void mail_line(struct parser *p, char *line, size_t len, bool by_cr, bool truncated)
{
	struct mail_state *m = p->st;
	/* quoted text is read like the rest */
	char *s = line;
	while (*s == '>' || (*s == ' ' && s[1] == '>'))
		s++;
	if (s != line && *s == ' ')
		s++;
	struct pp_tok t[24];
	size_t n = pp_tokens(s, t, 24);

	if (m->pending) {
		m->pending = false;
		if (n >= 1 && (pp_tok_eq(&t[0], "procs") || pp_tok_eq(&t[0], "clients"))) {
			mail_dbench_point(p, m, pp_tok_eq(&t[0], "procs") ? "procs" : "clients", m->pend_x, m->pend_v);
			return;
		}
	}
	if (n == 0) {
		if (m->block_points)
			m->gap = true;
		if (bonnie_table_line(p, &m->bt, s, NULL, NULL))
			return;
		return;
	}
	if (pp_starts_with(t[0].s, "--") && !is_rule(s)) {
		/* "---- (5,10) - default": the section tag is what follows the dashes */
		const char *h = s;
		while (*h == '-' || *h == ' ' || *h == '\t')
			h++;
		if (*h && !strstr(s, "Sequential")) {
			const char *e = strstr(h, " - ");
			size_t hl = e ? (size_t)(e - h) : strlen(h);
			while (hl && (h[hl - 1] == ' ' || h[hl - 1] == '-'))
				hl--;
			pp_strlcpy(m->section, h, hl + 1 < sizeof(m->section) ? hl + 1 : sizeof(m->section));
			m->cur[0] = '\0';
			m->mode = MAIL_NONE;
			return;
		}
	}
	if (bonnie_table_line(p, &m->bt, s, NULL, NULL))
		return;
	if (is_rule(s))
		return;
	if (pp_tok_eq(&t[0], "Throughput")) {
		double v, x;
		const char *xn;
		int r = dbench_parse_throughput(s, &v, &xn, &x);
		if (r == 1)
			mail_dbench_point(p, m, xn, x, v);
		else if (r == 2) {
			m->pending = true;
			m->pend_v = v;
			m->pend_x = x;
		}
		if (r)
			return;
	}
	/* "2.4.16:" */
	if (n == 1 && t[0].len >= 2 && t[0].s[t[0].len - 1] == ':') {
		bool digit = false;
		for (size_t k = 0; k < t[0].len; k++)
			digit |= isdigit((unsigned char)t[0].s[k]) != 0;
		if (digit) {
			mail_set_label(m, t[0].s, t[0].len - 1);
			return;
		}
	}
	double x;
	if (pp_tok_number(&t[0], &x)) {
		size_t nums = 0;
		for (size_t k = 0; k < n; k++)
			nums += pp_tok_number(&t[k], NULL);
		if ((m->mode == MAIL_HEADER || m->mode == MAIL_TABLE) && n >= 2) {
			mail_table_row(p, m, t, n, x);
			return;
		}
		if (m->mode == MAIL_BLOCK && nums == n && n >= 3) {
			mail_iozone_row(p, m, t, n);
			return;
		}
		return;
	}
	/* "2.6.24-rc2 #28 SMP PREEMPT": a kernel-name line over iozone rows */
	struct pp_tok c[4];
	size_t nc = pp_cells(s, c, 4);
	if (is_kernel_name(&t[0]) && nc == 1 && (n == 1 || t[1].s[0] == '#')) {
		mail_set_label(m, t[0].s, t[0].len);
		return;
	}
	if (mail_header(p, m, s))
		return;
	/* prose: remember what it says about the numbers; a table ends */
	mail_hints(m, s);
	if (m->mode == MAIL_TABLE || m->mode == MAIL_HEADER)
		m->mode = MAIL_NONE;
	if (n >= 4) {
		m->cur[0] = '\0';
		m->mode = MAIL_NONE;
	}
	(void)by_cr;
	(void)truncated;
	(void)len;
}

static void mail_init(struct parser *p)
{
	struct mail_state *m = p->st;
	m->bt.last_row = -1;
}

const struct parser_ops parser_mail_ops = {
	.name = "mail",
	.state_size = sizeof(struct mail_state),
	.init = mail_init,
	.line = mail_line,
};
