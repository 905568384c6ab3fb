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
#include <stdio.h>
#include <string.h>
#include <strings.h>
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
	/* the last two non-blank lines (header and title candidates of a
	 * table), and whether a blank line came between them */
	char prev[2][256];
	bool prev_gap[2], gap_now;
	/* the benchmark the prose since the last table names ("dbench4") */
	char bench[24], bench_prev[24];
	bool bench_stale;
	/* mmtests compare reports: "Hmean 1 504.76 ( 0.00%) 500.14 * -0.91%*" */
	bool mm;
	char mm_labels[MAIL_COLS][RP_LABEL_LEN];
	char mm_base[MAIL_COLS][RP_LABEL_LEN];   /* the header's names, before the setting */
	int mm_header_line;                      /* its first line, for the notes */
	char pending_setting[24];                /* "(SNC on)" between a header and its rows */
	size_t mm_n;
	char mm_bench[24];
	char mm_setting[24];       /* "numa 0" from an "On numa 0:" title: in the labels */
	/* the (benchmark, setting) of the tables so far: a table that repeats
	 * one is told apart ("_t2"), never pooled as runs of the first */
	char mm_seen[16][48];
	size_t mm_nseen, mm_tables;
	/* |-separated tables: "| # tasks | vanilla | dirty | %diff |" */
	bool pipe;
	char pipe_labels[MAIL_COLS][RP_LABEL_LEN];
	bool pipe_ign[MAIL_COLS];
	size_t pipe_n;
	char pipe_x[RP_NAME_LEN];
	char pipe_suffix[8];       /* "_t3": a table with the header of an earlier one */
	char pipe_seen[8][96];
	size_t pipe_nseen, pipe_tables;
	/* kernel test robot (lkp) comparisons: "%stddev %change %stddev" */
	bool lkp;
	char lkp_labels[2][RP_LABEL_LEN];
	/* blank-separated tables whose rows start with key cells:
	 * "rw  bs hipri=0 hipri=1" over "randread 4k 149,426 170,763 +14%" */
	bool kt;
	size_t kt_n;
	char kt_head[MAIL_COLS][RP_NAME_LEN];
	int kt_role[MAIL_COLS];     /* 0 label, 1 key (into the metric), 2 x */
	/* the line numbers of prev[], and the table being read, for the notes
	 * on how each table was read (parser_notes) */
	int prev_line[2];
	int tab_kind;            /* 0 none, 1 mmtests, 2 |-table, 3 lkp */
	int tab_first, tab_last;
	size_t tab_rows, tab_skipped;
	char tab_what[160];
	/* stated changes ("* -0.91%*") that the values do not give */
	size_t tab_mismatch;
	int mis_line;
	double mis_stated, mis_computed;
	/* the older shapes (column tables, label blocks), noted likewise */
	int old_kind;            /* 0 none, 1 column table, 2 label block */
	int old_first, old_last;
	size_t old_rows;
	char old_what[200];
	char old_label[RP_LABEL_LEN];
	/* rows of a table whose header was not found */
	int bad_first, bad_last;
	size_t bad_cols;
};

static void mail_tab_begin(struct mail_state *m, int kind, int first, const char *what)
{
	m->tab_kind = kind;
	m->tab_first = first;
	m->tab_last = first;
	m->tab_rows = m->tab_skipped = m->tab_mismatch = 0;
	pp_strlcpy(m->tab_what, what, sizeof(m->tab_what));
}

static void mail_old_end(struct parser *p, struct mail_state *m)
{
	if (m->old_kind && m->old_rows)
		pp_note(p, m->old_first, m->old_last, true, "%s; %zu rows", m->old_what, m->old_rows);
	m->old_kind = 0;
}

static void mail_tab_end(struct parser *p, struct mail_state *m)
{
	if (m->tab_kind && !m->tab_rows && !m->tab_skipped) {
		/* a header with no rows under it (a diffstat line "a.c | 11 ++--"):
		 * not a table */
	} else if (m->tab_kind && m->tab_mismatch) {
		/* a change column that does not fit the values: a misread column
		 * or a mistake in the post; either way a person should look */
		pp_note(p, m->tab_first, m->tab_last, false,
			"%s; %zu rows, but %zu stated changes do not match the values (line %d says %+.2f%%, the "
			"values give %+.2f%%)", m->tab_what, m->tab_rows, m->tab_mismatch, m->mis_line, m->mis_stated,
			m->mis_computed);
	} else if (m->tab_kind) {
		if (m->tab_skipped)
			pp_note(p, m->tab_first, m->tab_last, true, "%s; %zu rows, %zu skipped (%s)", m->tab_what,
				m->tab_rows, m->tab_skipped,
				m->tab_kind == 3 ? "a name longer than a metric name" : "not as many values as the header");
		else
			pp_note(p, m->tab_first, m->tab_last, true, "%s; %zu rows", m->tab_what, m->tab_rows);
	}
	m->tab_kind = 0;
	if (m->bad_first)
		pp_note(p, m->bad_first, m->bad_last, false,
			"a table, but no header row matched its %zu value columns (the line above its first row "
			"should name them)", m->bad_cols);
	m->bad_first = 0;
}

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
	if (strstr(line, "KIOPS"))
		pp_strlcpy(m->hint_unit, "KIOPS", sizeof(m->hint_unit));
	else if (strstr(line, "MB/sec") || strstr(line, "MB/s"))
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


/* --- benchmark names, mmtests reports, |-tables ------------------------ */

/* A word that names a benchmark ("dbench4", "netperf-udp", "locktorture."):
 * copied into out (lower case, trailing punctuation dropped). */
static bool mail_bench_word(const char *w, size_t len, char *out, size_t outlen)
{
	static const char *const names[] = {
		"dbench", "tbench", "netperf", "sockperf", "hackbench", "schbench", "pgbench", "sysbench",
		"fio", "iozone", "bonnie", "locktorture", "mutilate", "kernbench", "will-it-scale",
		"specjbb", "redis", "memcached", "ebizzy", "reaim", "fsmark", "fs_mark", "ffsb",
		"compilebench", "postmark", "unixbench", "lmbench", "stress-ng", "stream", "aim9",
	};
	while (len && !isalnum((unsigned char)w[len - 1]))
		len--;
	while (len && !isalnum((unsigned char)*w)) {
		w++;
		len--;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t nl = strlen(names[i]);
		if (len < nl || len >= outlen || strncasecmp(w, names[i], nl) != 0)
			continue;
		/* "dbench4", "netperf-udp": the name and a suffix, no prose word */
		for (size_t k = 0; k < len; k++)
			out[k] = (char)tolower((unsigned char)w[k]);
		out[len] = '\0';
		return true;
	}
	return false;
}

static void mail_note_bench(struct mail_state *m, const struct pp_tok *t, size_t n)
{
	if (m->bench_stale) {
		if (m->bench[0])
			pp_strlcpy(m->bench_prev, m->bench, sizeof(m->bench_prev));
		m->bench[0] = '\0';
		m->bench_stale = false;
	}
	char b[24];
	for (size_t i = 0; i < n; i++)
		if (mail_bench_word(t[i].s, t[i].len, b, sizeof(b)))
			pp_strlcpy(m->bench, b, sizeof(m->bench));
}

/* mmtests' statistic names as row heads; lower case into stat. */
static bool mail_mm_stat(const struct pp_tok *t, char *stat, size_t len)
{
	static const char *const stats[] = {
		"Hmean", "Amean", "Gmean", "Stddev", "CoeffVar", "Min", "Max", "Mean", "Median",
	};
	bool ok = false;
	for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]) && !ok; i++)
		ok = pp_tok_eq(t, stats[i]);
	/* "BHmean-99", "BAmean-50" */
	if (!ok && t->len > 7 && t->len < len && t->s[0] == 'B' &&
	    (strncmp(t->s, "BHmean-", 7) == 0 || strncmp(t->s, "BAmean-", 7) == 0))
		ok = true;
	if (!ok || t->len >= len)
		return false;
	size_t o = 0;
	for (size_t k = 0; k < t->len; k++)
		if (isalnum((unsigned char)t->s[k]))
			stat[o++] = (char)tolower((unsigned char)t->s[k]);
	stat[o] = '\0';
	return true;
}

/* The x cell of a mmtests row: "16", or "send-64" / "latency-1" (x 64, the
 * word goes into the metric name). */
static bool mail_mm_x(const struct pp_tok *t, double *x, char *word, size_t wlen)
{
	word[0] = '\0';
	if (pp_tok_number(t, x))
		return true;
	const char *dash = memchr(t->s, '-', t->len);
	if (!dash || dash == t->s)
		return false;
	size_t wl = (size_t)(dash - t->s), rest = t->len - wl - 1;
	char num[32];
	if (!rest || rest >= sizeof(num) || wl >= wlen)
		return false;
	memcpy(num, dash + 1, rest);
	num[rest] = '\0';
	if (!pp_is_number(num, x))
		return false;
	for (size_t k = 0; k < wl; k++)
		word[k] = (char)tolower((unsigned char)t->s[k]);
	word[wl] = '\0';
	return true;
}

/* The labels of a mmtests table: the header's names and the setting. */
static void mail_mm_relabel(struct mail_state *m)
{
	for (size_t i = 0; i < m->mm_n; i++) {
		char *lb = m->mm_labels[i];
		if (m->mm_setting[0])
			snprintf(lb, RP_LABEL_LEN, "%.*s (%s)", (int)(RP_LABEL_LEN - 4 - strlen(m->mm_setting)),
				 m->mm_base[i], m->mm_setting);
		else
			snprintf(lb, RP_LABEL_LEN, "%s", m->mm_base[i]);
	}
}

/* A line that is only "(SNC on)": a setting for the rows below it. */
static bool mail_setting_line(const char *t, size_t len, char *out, size_t outlen)
{
	if (len < 3 || len - 2 >= outlen || t[0] != '(' || t[len - 1] != ')')
		return false;
	for (size_t i = 1; i + 1 < len; i++)
		if (t[i] == '(' || t[i] == ')')
			return false;
	snprintf(out, outlen, "%.*s", (int)(len - 2), t + 1);
	return true;
}

/* The header of a mmtests table: the line above its first row, one label a
 * column ("vanilla  dirty"); a two-line header ("5.10.0-rc6 5.10.0-rc6" over
 * "schedstat  idlemask") joins per column. */
static bool mail_mm_header(struct mail_state *m, size_t nvals)
{
	struct pp_tok h[MAIL_COLS + 1], h2[MAIL_COLS + 1];
	size_t n = pp_tokens(m->prev[1], h, MAIL_COLS + 1);
	for (size_t i = 0; i < n; i++)
		if (pp_tok_number(&h[i], NULL) || h[i].len >= RP_LABEL_LEN)
			return false;
	size_t n2 = m->prev_gap[1] ? 0 : pp_tokens(m->prev[0], h2, MAIL_COLS + 1);
	if (n && n < nvals && n2 == nvals && nvals <= MAIL_COLS) {
		/* a ragged second header line: "5.13-rc4  5.13-rc4" over a line
		 * with the second column's name only; each name joins the column
		 * whose right edge is nearest */
		for (size_t i = 0; i < n2; i++)
			if (pp_tok_number(&h2[i], NULL))
				return false;
		for (size_t i = 0; i < n2; i++)
			snprintf(m->mm_base[i], RP_LABEL_LEN, "%.*s", (int)h2[i].len, h2[i].s);
		for (size_t k = 0; k < n; k++) {
			size_t best = 0;
			int bestd = 1 << 30;
			for (size_t i = 0; i < n2; i++) {
				int d = h[k].endcol - h2[i].endcol;
				d = d < 0 ? -d : d;
				if (d < bestd) {
					bestd = d;
					best = i;
				}
			}
			size_t l = strlen(m->mm_base[best]);
			snprintf(m->mm_base[best] + l, RP_LABEL_LEN - l, " %.*s", (int)h[k].len, h[k].s);
		}
		m->mm_n = nvals;
		m->mm_header_line = m->prev_line[0];
		m->mm_bench[0] = m->mm_setting[0] = '\0';
		pp_strlcpy(m->mm_bench, m->bench, sizeof(m->mm_bench));
		if (m->pending_setting[0])
			pp_strlcpy(m->mm_setting, m->pending_setting, sizeof(m->mm_setting));
		m->pending_setting[0] = '\0';
		mail_mm_relabel(m);
		m->mm_tables++;
		return true;
	}
	if (n != nvals || n > MAIL_COLS)
		return false;
	bool two = n2 == n;
	for (size_t i = 0; i < n2 && two; i++)
		two = !pp_tok_number(&h2[i], NULL) && isdigit((unsigned char)h2[i].s[0]);
	m->mm_n = n;
	m->mm_header_line = two ? m->prev_line[0] : m->prev_line[1];
	/* the title: the line just above the header when it is short and not
	 * the end of a sentence ("tbench4 Throughput (...)", "netperf-udp");
	 * a short one ending in ':' ("On numa 0:") names a setting instead */
	m->mm_bench[0] = m->mm_setting[0] = '\0';
	if (!two && !m->prev_gap[1] && m->prev[0][0]) {
		struct pp_tok tt[8];
		size_t tn = pp_tokens(m->prev[0], tt, 8);
		size_t l = strlen(m->prev[0]);
		char last = l ? m->prev[0][l - 1] : 0;
		char b[24];
		bool named = false;
		for (size_t k = 0; k < tn && !named; k++)
			named = mail_bench_word(tt[k].s, tt[k].len, b, sizeof(b));
		if (tn && tn <= 6 && last != ':' && last != '.' && last != ',' && isalpha((unsigned char)tt[0].s[0]) &&
		    tt[0].len < sizeof(m->mm_bench)) {
			for (size_t k = 0; k < tt[0].len; k++)
				m->mm_bench[k] = (char)tolower((unsigned char)tt[0].s[k]);
			m->mm_bench[tt[0].len] = '\0';
		} else if (tn && tn <= 4 && last == ':' && !named) {
			size_t k0 = tn > 1 && (pp_tok_eq(&tt[0], "On") || pp_tok_eq(&tt[0], "With") ||
					       pp_tok_eq(&tt[0], "For")) ? 1 : 0;
			const char *a = tt[k0].s, *e = m->prev[0] + l - 1;
			snprintf(m->mm_setting, sizeof(m->mm_setting), "%.*s", (int)(e - a), a);
		}
	}
	if (!m->mm_bench[0])
		pp_strlcpy(m->mm_bench, m->bench, sizeof(m->mm_bench));
	/* "On numa 0-1:" over the next table of the same benchmark: no prose
	 * between them names it again */
	if (!m->mm_bench[0] && m->mm_setting[0])
		pp_strlcpy(m->mm_bench, m->bench_prev, sizeof(m->mm_bench));
	if (m->pending_setting[0])
		pp_strlcpy(m->mm_setting, m->pending_setting, sizeof(m->mm_setting));
	m->pending_setting[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char *base = m->mm_base[i];
		if (two)
			snprintf(base, RP_LABEL_LEN, "%.*s %.*s", (int)h2[i].len, h2[i].s, (int)h[i].len, h[i].s);
		else
			snprintf(base, RP_LABEL_LEN, "%.*s", (int)h[i].len, h[i].s);
	}
	mail_mm_relabel(m);
	char sig[48];
	snprintf(sig, sizeof(sig), "%s|%s", m->mm_bench, m->mm_setting);
	m->mm_tables++;
	bool again = false;
	for (size_t i = 0; i < m->mm_nseen && !again; i++)
		again = strcmp(m->mm_seen[i], sig) == 0;
	if (again) {
		char b[24];
		snprintf(b, sizeof(b), "%.16s%st%zu", m->mm_bench, m->mm_bench[0] ? "_" : "", m->mm_tables % 100);
		pp_strlcpy(m->mm_bench, b, sizeof(m->mm_bench));
	} else if (m->mm_nseen < sizeof(m->mm_seen) / sizeof(m->mm_seen[0]))
		pp_strlcpy(m->mm_seen[m->mm_nseen++], sig, sizeof(m->mm_seen[0]));
	return true;
}

/* A mmtests row; false when the line is not one. */
static bool mail_mm_row(struct parser *p, struct mail_state *m, const struct pp_tok *t, size_t n)
{
	char stat[16], word[16];
	double x;
	if (n < 3 || !mail_mm_stat(&t[0], stat, sizeof(stat)) || !mail_mm_x(&t[1], &x, word, sizeof(word)))
		return false;
	double v[MAIL_COLS], stated[MAIL_COLS], half[MAIL_COLS];
	size_t nv = 0;
	/* the values are the plain numbers; "(   0.00%)", "* -0.91%*" are the
	 * change against the first column, not runs (kept to check them) */
	for (size_t k = 2; k < n; k++) {
		double d;
		if (pp_tok_number(&t[k], &d)) {
			if (nv == MAIL_COLS)
				return false;
			/* half a unit of the last printed digit: the rounding */
			const char *dot = memchr(t[k].s, '.', t[k].len);
			size_t dec = dot ? t[k].len - (size_t)(dot - t[k].s) - 1 : 0;
			half[nv] = 0.5 * pow(10, -(double)dec);
			stated[nv] = NAN;
			v[nv++] = d;
		} else if (nv && memchr(t[k].s, '%', t[k].len)) {
			const char *q = t[k].s, *e = t[k].s + t[k].len;
			while (q < e && (*q == '(' || *q == '*'))
				q++;
			char num[32];
			size_t l = 0;
			while (q < e && *q != '%' && l + 1 < sizeof(num))
				num[l++] = *q++;
			num[l] = '\0';
			double c;
			if (pp_is_number(num, &c))
				stated[nv - 1] = c;
		}
	}
	if (!nv)
		return false;
	if (!m->mm && !mail_mm_header(m, nv)) {
		/* a mmtests row without a header over it: said, not read */
		if (!m->bad_first) {
			m->bad_first = p->lineno;
			m->bad_cols = nv;
		}
		m->bad_last = p->lineno;
		return true;
	}
	if (!m->mm) {
		char what[160], labs[100];
		size_t o = 0;
		labs[0] = '\0';
		for (size_t i = 0; i < m->mm_n && o < sizeof(labs); i++)
			o += (size_t)snprintf(labs + o, sizeof(labs) - o, "%s%s", i ? ", " : "", m->mm_labels[i]);
		snprintf(what, sizeof(what), "mmtests table: labels %s; metric %s%s%s%s", labs, m->mm_bench,
			 m->mm_bench[0] ? "_" : "", stat, word[0] ? "_*" : "");
		mail_tab_begin(m, 1, m->mm_header_line ? m->mm_header_line : p->lineno, what);
	}
	m->tab_last = p->lineno;
	if (nv != m->mm_n) {
		m->tab_skipped++;
		return true;   /* a row of the table that does not fit its header: skipped */
	}
	m->tab_rows++;
	m->mm = true;
	m->bench_stale = true;
	/* each stated change against the first column, either sign (mmtests
	 * turns it round for lower-is-better statistics), within what the
	 * rounding of the printed values allows */
	for (size_t i = 1; i < nv && v[0] > 0; i++) {
		if (isnan(stated[i]))
			continue;
		double c = (v[i] - v[0]) / v[0] * 100;
		double slack = 100 * (half[0] / v[0] + (v[i] ? half[i] / fabs(v[i]) : 0)) * (1 + fabs(c) / 100) + 0.011;
		if (fabs(fabs(stated[i]) - fabs(c)) > slack || (fabs(c) > slack && stated[i] == 0)) {
			if (!m->tab_mismatch++) {
				m->mis_line = p->lineno;
				m->mis_stated = stated[i];
				m->mis_computed = c;
			}
		}
	}
	char metric[RP_NAME_LEN];
	snprintf(metric, sizeof(metric), "%s%s%s%s%s", m->mm_bench, m->mm_bench[0] ? "_" : "", stat,
		 word[0] ? "_" : "", word);
	const char *x_name = m->hint_x[0] ? m->hint_x : "x";
	for (size_t i = 0; i < nv; i++)
		pp_emit(p, m->mm_labels[i], -1, x_name, x, metric, v[i], m->hint_unit, RP_FINAL);
	return true;
}

/* A |-separated row: cells between the bars; a row that does not start
 * or end with a bar ("write     |    315      |   -0.6%") has cells
 * before the first and after the last bar too. */
static size_t mail_pipe_cells(const char *s, struct pp_tok *c, size_t max)
{
	char buf[512];
	size_t l = strlen(s);
	if (s[0] != '|' && l + 3 < sizeof(buf)) {
		buf[0] = '|';
		memcpy(buf + 1, s, l);
		size_t e = l + 1;
		while (e > 1 && (buf[e - 1] == ' ' || buf[e - 1] == '\t'))
			e--;
		if (buf[e - 1] != '|')
			buf[e++] = '|';
		buf[e] = '\0';
		/* the cells point into buf: copied out by the caller at once */
		static _Thread_local char keep[512];
		memcpy(keep, buf, e + 1);
		s = keep;
	}
	size_t n = 0;
	const char *q = strchr(s, '|');
	while (q && n < max) {
		const char *e = strchr(q + 1, '|');
		if (!e)
			break;
		const char *a = q + 1, *b = e;
		while (a < b && (*a == ' ' || *a == '\t'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		c[n].s = a;
		c[n].len = (size_t)(b - a);
		c[n].col = c[n].endcol = 0;
		n++;
		q = e;
	}
	return n;
}

/* A value cell: "315", "1,234" (thousands), "242k" (x1000); NaN-free. */
static bool mail_cell_value(const struct pp_tok *c, double *v)
{
	char num[48];
	size_t o = 0;
	if (!c->len || c->len >= sizeof(num))
		return false;
	for (size_t i = 0; i < c->len; i++) {
		/* a comma between digit groups of three */
		if (c->s[i] == ',' && i && isdigit((unsigned char)c->s[i - 1]) && i + 3 < c->len + 1 &&
		    isdigit((unsigned char)c->s[i + 1]) && i + 3 <= c->len &&
		    (i + 4 > c->len || !isdigit((unsigned char)c->s[i + 4])))
			continue;
		num[o++] = c->s[i];
	}
	num[o] = '\0';
	if (pp_is_number(num, v))
		return true;
	size_t n = pp_scan_suffixed(num, 1000, v);
	return n && n == o && (num[o - 1] == 'k' || num[o - 1] == 'K' || num[o - 1] == 'M');
}

/* A row name that is a kernel or a setting under test ("with patchset",
 * "vanilla", "5.10-rc1") rather than a workload: the table is transposed,
 * its rows are the labels and its columns the metrics. */
static bool mail_labelish(const char *s, size_t len)
{
	static const char *const words[] = {
		"patch", "base", "vanilla", "without", "with", "before", "after", "mainline", "baseline",
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t wl = strlen(words[i]);
		if (len >= wl && strncasecmp(s, words[i], wl) == 0)
			return true;
	}
	return len > 2 && isdigit((unsigned char)s[0]) && memchr(s, '.', len) != NULL;
}

/* A metric name from a column or row name: "IOPS (IRQ mode)" -> "iops_irq_mode". */
static void mail_metric_name(const char *s, size_t len, char *out, size_t outlen)
{
	size_t o = 0;
	bool us = false;
	for (size_t i = 0; i < len && o + 1 < outlen; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (isalnum(ch) || ch == '.' || ch == '-') {
			if (us && o)
				out[o++] = '_';
			if (o + 1 < outlen)
				out[o++] = (char)tolower(ch);
			us = false;
		} else
			us = true;
	}
	out[o] = '\0';
}

static bool mail_pipe_line(struct parser *p, struct mail_state *m, const char *s)
{
	struct pp_tok c[MAIL_COLS + 1];
	size_t n = mail_pipe_cells(s, c, MAIL_COLS + 1);
	if (n < 2 || n > MAIL_COLS)
		return false;
	double x;
	bool blank = true;
	for (size_t i = 0; i < n && blank; i++)
		for (size_t k = 0; k < c[i].len && blank; k++)
			blank = c[i].s[k] == '-' || c[i].s[k] == '=' || c[i].s[k] == ' ' || c[i].s[k] == '\t';
	if (blank)
		return m->pipe;   /* "---- | ----" or "    |     |": a rule inside the table */
	if (m->pipe && n == m->pipe_n && c[0].len && !pp_tok_number(&c[0], NULL)) {
		/* a row named by its first cell: the workload (a metric), or in a
		 * transposed table the kernel (a label) */
		bool any = false;
		for (size_t i = 1; i < n; i++)
			any |= !m->pipe_ign[i] && mail_cell_value(&c[i], &x);
		if (any) {
			/* a derived column ("diff") compares the columns: they are
			 * the labels, whatever the rows are called */
			bool derived = false;
			for (size_t i = 1; i < n; i++)
				derived |= m->pipe_ign[i];
			bool tr = !derived && mail_labelish(c[0].s, c[0].len);
			char key[RP_LABEL_LEN];
			snprintf(key, sizeof(key), "%.*s", (int)c[0].len, c[0].s);
			for (size_t i = 1; i < n; i++) {
				double v;
				if (m->pipe_ign[i] || !mail_cell_value(&c[i], &v))
					continue;
				char metric[RP_NAME_LEN];
				if (tr)
					mail_metric_name(m->pipe_labels[i], strlen(m->pipe_labels[i]), metric,
							 sizeof(metric) - strlen(m->pipe_suffix));
				else
					mail_metric_name(c[0].s, c[0].len, metric, sizeof(metric) - strlen(m->pipe_suffix));
				strcat(metric, m->pipe_suffix);
				pp_emit(p, tr ? key : m->pipe_labels[i], -1, "run", 0, metric, v, m->hint_unit, RP_FINAL);
			}
			m->tab_rows++;
			m->tab_last = p->lineno;
			m->bench_stale = true;
			if (m->tab_rows == 1) {
				size_t l = strlen(m->tab_what);
				snprintf(m->tab_what + l, sizeof(m->tab_what) - l, "; rows named by %s",
					 tr ? "label (transposed: columns are metrics)" : "metric");
			}
			return true;
		}
	}
	if (!pp_tok_number(&c[0], &x)) {
		/* a header: every cell a short name (the first may be empty) */
		for (size_t i = 0; i < n; i++)
			if ((!c[i].len && i) || c[i].len >= RP_LABEL_LEN || pp_tok_number(&c[i], NULL) ||
			    memmem(c[i].s, c[i].len, "++", 2) || memmem(c[i].s, c[i].len, "--", 2))
				return false;
		const char *xs = c[0].s;
		size_t xl = c[0].len;
		while (xl && (*xs == '#' || *xs == ' ')) {
			xs++;
			xl--;
		}
		snprintf(m->pipe_x, sizeof(m->pipe_x), "%.*s", (int)xl, xs);
		for (size_t i = 1; i < n; i++) {
			snprintf(m->pipe_labels[i], RP_LABEL_LEN, "%.*s", (int)c[i].len, c[i].s);
			m->pipe_ign[i] = is_ignored_label(c[i].s, c[i].len);
		}
		m->pipe_n = n;
		m->pipe = true;
		/* the same header again (one table per workload, as in "1. one
		 * thread", "2. three threads"): its rows get their own metrics */
		char sig[96];
		size_t so = 0;
		for (size_t i = 0; i < n && so < sizeof(sig); i++)
			so += (size_t)snprintf(sig + so, sizeof(sig) - so, "%.*s|", (int)c[i].len, c[i].s);
		m->pipe_tables++;
		m->pipe_suffix[0] = '\0';
		bool again = false;
		for (size_t i = 0; i < m->pipe_nseen && !again; i++)
			again = strcmp(m->pipe_seen[i], sig) == 0;
		if (again)
			snprintf(m->pipe_suffix, sizeof(m->pipe_suffix), "_t%zu", m->pipe_tables % 100);
		else if (m->pipe_nseen < sizeof(m->pipe_seen) / sizeof(m->pipe_seen[0]))
			pp_strlcpy(m->pipe_seen[m->pipe_nseen++], sig, sizeof(m->pipe_seen[0]));
		char what[160];
		size_t o = (size_t)(m->pipe_x[0] ? snprintf(what, sizeof(what), "|-table: x %s; labels", m->pipe_x)
						 : snprintf(what, sizeof(what), "|-table: labels"));
		for (size_t i = 1; i < n && o < sizeof(what); i++)
			if (!m->pipe_ign[i])
				o += (size_t)snprintf(what + o, sizeof(what) - o, "%s %s", i > 1 ? "," : "", m->pipe_labels[i]);
		for (size_t i = 1; i < n && o < sizeof(what); i++)
			if (m->pipe_ign[i])
				o += (size_t)snprintf(what + o, sizeof(what) - o, "; derived column %s skipped", m->pipe_labels[i]);
		mail_tab_end(p, m);
		mail_tab_begin(m, 2, p->lineno, what);
		return true;
	}
	if (!m->pipe || n != m->pipe_n)
		return false;
	m->tab_rows++;
	m->tab_last = p->lineno;
	m->bench_stale = true;
	const char *metric = m->hint_metric[0] ? m->hint_metric : (m->bench[0] ? m->bench : "value");
	for (size_t i = 1; i < n; i++) {
		double v;
		if (m->pipe_ign[i] || !mail_cell_value(&c[i], &v))
			continue;
		pp_emit(p, m->pipe_labels[i], -1, m->pipe_x[0] ? m->pipe_x : "x", x, metric, v, m->hint_unit, RP_FINAL);
	}
	return true;
}

/* "±" (UTF-8) and the spread after it: "± 18%", "±160%". */
static bool is_pm(const struct pp_tok *t)
{
	return t->len >= 2 && (unsigned char)t->s[0] == 0xc2 && (unsigned char)t->s[1] == 0xb1;
}

/* The kernel test robot's table: its header line of two commits over a
 * rule, "%stddev %change %stddev", then rows "v1 [± s%] change v2 [± s%]
 * metric".  The metric is the row's name; the commits are the labels; the
 * change column and the spreads are not runs. */
static bool mail_lkp_header(struct parser *p, struct mail_state *m, const struct pp_tok *t, size_t n)
{
	if (n != 3 || !pp_tok_eq(&t[0], "%stddev") || !pp_tok_eq(&t[1], "%change") || !pp_tok_eq(&t[2], "%stddev"))
		return false;
	const char *h = is_rule(m->prev[1]) ? m->prev[0] : m->prev[1];
	struct pp_tok c[4];
	size_t nc = pp_tokens(h, c, 4);
	if (nc != 2)
		return false;
	for (int i = 0; i < 2; i++)
		snprintf(m->lkp_labels[i], RP_LABEL_LEN, "%.*s", (int)c[i].len, c[i].s);
	m->lkp = true;
	char what[160];
	snprintf(what, sizeof(what), "kernel test robot table: labels %s, %s; a metric per row, %%change and "
		 "\xc2\xb1 spreads skipped", m->lkp_labels[0], m->lkp_labels[1]);
	mail_tab_end(p, m);
	int hl = is_rule(m->prev[1]) ? m->prev_line[0] : m->prev_line[1];
	mail_tab_begin(m, 3, hl ? hl : p->lineno, what);
	return true;
}

static bool mail_lkp_row(struct parser *p, struct mail_state *m, const struct pp_tok *t, size_t n)
{
	size_t k = 0;
	double v[2];
	for (int i = 0; i < 2; i++) {
		if (k >= n || !pp_tok_number(&t[k], &v[i]))
			return false;
		k++;
		if (k < n && is_pm(&t[k])) {
			/* "± 18%" is two tokens, "±160%" one */
			k += t[k].len == 2 ? 2 : 1;
		}
		if (i == 0) {
			/* the change: "+33.4%", "+2.1e+05%", or an absolute "+1.5" */
			if (k >= n)
				return false;
			k++;
		}
	}
	if (k + 1 != n || pp_tok_number(&t[k], NULL))
		return false;
	m->tab_last = p->lineno;
	/* a name longer than a metric would be cut into another's: left out */
	if (t[k].len >= RP_NAME_LEN) {
		m->tab_skipped++;
		return true;
	}
	m->tab_rows++;
	char metric[RP_NAME_LEN];
	snprintf(metric, sizeof(metric), "%.*s", (int)t[k].len, t[k].s);
	for (int i = 0; i < 2; i++)
		pp_emit(p, m->lkp_labels[i], -1, "run", 0, metric, v[i], "", RP_FINAL);
	return true;
}

/* Header words that name an x axis (the last one a row has is its x). */
static bool mail_x_word(const char *w, size_t len)
{
	static const char *const words[] = {
		"bs", "blksize", "blocksize", "iodepth", "qd", "numjobs", "jobs", "threads", "clients", "procs",
		"iothreads", "size", "nr_task", "tasks",
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == len && strncasecmp(w, words[i], len) == 0)
			return true;
	return false;
}

static bool mail_bs_word(const char *w)
{
	return !strcasecmp(w, "bs") || !strcasecmp(w, "blksize") || !strcasecmp(w, "blocksize");
}

/* A keyed row; the header is the line above it (or above its rule). */
static bool mail_kt_row(struct parser *p, struct mail_state *m, const struct pp_tok *t, size_t n)
{
	if (n < 3 || pp_tok_number(&t[0], NULL) || !isalpha((unsigned char)t[0].s[0]))
		return false;
	/* trailing change cells ("+14%", "0%") are derived, not values */
	size_t r = n;
	while (r && memchr(t[r - 1].s, '%', t[r - 1].len))
		r--;
	if (!m->kt) {
		/* the header right above (or above its rule), no blank between */
		bool rule = is_rule(m->prev[1]);
		if (m->gap_now || (rule && m->prev_gap[1]))
			return false;
		const char *h = rule ? m->prev[0] : m->prev[1];
		int hl = rule ? m->prev_line[0] : m->prev_line[1];
		struct pp_tok c[MAIL_COLS + 1];
		size_t hn = pp_tokens(h, c, MAIL_COLS + 1);
		if (hn != r || hn < 3 || hn > MAIL_COLS)
			return false;
		size_t nx = 0, nlab = 0;
		for (size_t i = 0; i < hn; i++) {
			char last = c[i].s[c[i].len - 1];
			if (pp_tok_number(&c[i], NULL) || c[i].len > 20 || last == ':' || last == ',' || last == '.')
				return false;
			snprintf(m->kt_head[i], RP_NAME_LEN, "%.*s", (int)c[i].len, c[i].s);
			double v;
			if (i == 0 || !mail_cell_value(&t[i], &v))
				m->kt_role[i] = 1;
			else if (mail_x_word(c[i].s, c[i].len))
				m->kt_role[i] = 2;
			else
				m->kt_role[i] = 0;
			/* a size key ("4k" under "bs") is an x too */
			if (m->kt_role[i] == 1 && i && mail_x_word(c[i].s, c[i].len))
				m->kt_role[i] = 2;
			nx += m->kt_role[i] == 2;
			nlab += m->kt_role[i] == 0;
		}
		/* at least two compared columns, and every one a value */
		if (nlab < 2)
			return false;
		for (size_t i = 0; i < hn; i++) {
			double v;
			if (m->kt_role[i] == 0 && !mail_cell_value(&t[i], &v))
				return false;
		}
		/* several x columns: the last is x, the others key the metric */
		for (size_t i = 0, seen = 0; i < hn; i++)
			if (m->kt_role[i] == 2 && ++seen < nx)
				m->kt_role[i] = 1;
		m->kt_n = hn;
		m->kt = true;
		char what[160];
		size_t o = (size_t)snprintf(what, sizeof(what), "keyed table: labels");
		for (size_t i = 0, f = 0; i < hn && o < sizeof(what); i++)
			if (m->kt_role[i] == 0)
				o += (size_t)snprintf(what + o, sizeof(what) - o, "%s %s", f++ ? "," : "", m->kt_head[i]);
		for (size_t i = 0; i < hn && o < sizeof(what); i++)
			if (m->kt_role[i] == 2)
				o += (size_t)snprintf(what + o, sizeof(what) - o, "; x %s", m->kt_head[i]);
		o += (size_t)snprintf(what + o, sizeof(what) - o, "; metric from");
		for (size_t i = 0; i < hn && o < sizeof(what); i++)
			if (m->kt_role[i] == 1)
				o += (size_t)snprintf(what + o, sizeof(what) - o, " %s", m->kt_head[i]);
		mail_tab_end(p, m);
		mail_tab_begin(m, 4, hl ? hl : p->lineno, what);
	}
	if (r != m->kt_n)
		return false;
	char metric[RP_NAME_LEN] = "";
	const char *x_name = "x";
	char xn[RP_NAME_LEN];
	double x = 0;
	for (size_t i = 0; i < r; i++) {
		if (m->kt_role[i] == 1) {
			size_t l = strlen(metric);
			if (l + 1 < sizeof(metric)) {
				if (l)
					metric[l++] = '_';
				mail_metric_name(t[i].s, t[i].len, metric + l, sizeof(metric) - l);
			}
		} else if (m->kt_role[i] == 2) {
			double kib;
			if (mail_bs_word(m->kt_head[i]) && pp_size_to_kib(t[i].s, t[i].len, &kib)) {
				x = kib;
				x_name = "bs_kb";
			} else if (mail_cell_value(&t[i], &x)) {
				mail_metric_name(m->kt_head[i], strlen(m->kt_head[i]), xn, sizeof(xn));
				x_name = xn;
			} else
				return false;
		}
	}
	for (size_t i = 0; i < r; i++) {
		double v;
		if (m->kt_role[i] == 0 && mail_cell_value(&t[i], &v))
			pp_emit(p, m->kt_head[i], -1, x_name, x, metric[0] ? metric : "value", v, m->hint_unit, RP_FINAL);
	}
	m->tab_rows++;
	m->tab_last = p->lineno;
	return true;
}

static void mail_line_body(struct parser *p, struct mail_state *m, char *s, const struct pp_tok *t, size_t n);

/* The notes of the older shapes: a column table from its header row to
 * its last row, a label block ("2.4.16:") from its label line to its
 * last point. */
static void mail_old_track(struct parser *p, struct mail_state *m, enum mail_mode before, unsigned long finals)
{
	bool got = p->n_final > finals;
	if (m->mode == MAIL_HEADER && before != MAIL_HEADER) {
		mail_old_end(p, m);
		m->old_kind = 1;
		m->old_first = m->old_last = p->lineno;
		m->old_rows = 0;
		return;
	}
	if (m->mode == MAIL_BLOCK && (m->old_kind != 2 || strcmp(m->old_label, m->cur) != 0)) {
		mail_old_end(p, m);
		m->old_kind = 2;
		m->old_first = m->old_last = p->lineno;
		m->old_rows = 0;
		pp_strlcpy(m->old_label, m->cur, sizeof(m->old_label));
		snprintf(m->old_what, sizeof(m->old_what), "label block %s", m->cur);
	}
	if (m->old_kind == 1 && m->mode == MAIL_TABLE && got) {
		m->old_last = p->lineno;
		m->old_rows++;
		size_t o = (size_t)snprintf(m->old_what, sizeof(m->old_what), "column table: x %s; labels",
					    m->x_name[0] ? m->x_name : (m->hint_x[0] ? m->hint_x : "x"));
		bool first = true;
		for (size_t i = 0; i < m->ncols && o < sizeof(m->old_what); i++)
			if (!m->cols[i].ignored) {
				o += (size_t)snprintf(m->old_what + o, sizeof(m->old_what) - o, "%s %s", first ? "" : ",",
						      m->cols[i].label);
				first = false;
			}
		for (size_t i = 0; i < m->ncols && o < sizeof(m->old_what); i++)
			if (m->cols[i].ignored && strcmp(m->cols[i].label, m->x_name) != 0)
				o += (size_t)snprintf(m->old_what + o, sizeof(m->old_what) - o, "; derived column %s skipped",
						      m->cols[i].label);
	} else if (m->old_kind == 2 && m->mode == MAIL_BLOCK && got) {
		m->old_last = p->lineno;
		m->old_rows++;
	}
	if (m->old_kind && m->mode != MAIL_TABLE && m->mode != MAIL_HEADER && m->mode != MAIL_BLOCK)
		mail_old_end(p, m);
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
	size_t tl;
	const char *ts = pp_trim(s, &tl);
	bool consumed = false;
	if (n == 0) {
		m->mm = m->pipe = m->lkp = m->kt = false;
		m->gap_now = true;
	} else if (mail_lkp_header(p, m, t, n)) {
		consumed = true;
	} else if (m->lkp && (mail_lkp_row(p, m, t, n) || (n == 3 && t[0].s[0] == '\\'))) {
		consumed = true;   /* a row, or the "\  |  \" line under the header */
	} else if (mail_setting_line(ts, tl, m->pending_setting, sizeof(m->pending_setting))) {
		/* "(SNC off)" inside a table switches its setting; over a table's
		 * first row it is kept for it; the header stays the line above */
		if (m->mm) {
			pp_strlcpy(m->mm_setting, m->pending_setting, sizeof(m->mm_setting));
			m->pending_setting[0] = '\0';
			mail_mm_relabel(m);
		}
		consumed = true;
	} else if (tl && (ts[0] == '|' || (memchr(ts, '|', tl) && !strstr(ts, "||"))) && mail_pipe_line(p, m, s)) {
		consumed = true;
	} else if (mail_mm_row(p, m, t, n)) {
		consumed = true;
	} else if ((m->mode == MAIL_NONE || m->mode == MAIL_HEADER) && mail_kt_row(p, m, t, n)) {
		consumed = true;
	} else {
		m->pending_setting[0] = '\0';
		if (!is_rule(s)) {
			m->mm = m->kt = false;
			if (!(tl && memchr(ts, '|', tl)))
				m->pipe = false;
		}
		enum mail_mode before = m->mode;
		unsigned long finals = p->n_final;
		mail_line_body(p, m, s, t, n);
		if (!is_rule(s))
			mail_note_bench(m, t, n);
		mail_old_track(p, m, before, finals);
	}
	if (n && !consumed) {
		/* remember the line as a header/title candidate of a table */
		memcpy(m->prev[0], m->prev[1], sizeof(m->prev[0]));
		m->prev_gap[0] = m->prev_gap[1];
		m->prev_line[0] = m->prev_line[1];
		pp_strlcpy(m->prev[1], s, sizeof(m->prev[1]));
		m->prev_gap[1] = m->gap_now;
		m->prev_line[1] = p->lineno;
	}
	/* a table ends with its last row: say how it was read */
	bool active = (m->tab_kind == 1 && m->mm) || (m->tab_kind == 2 && m->pipe) || (m->tab_kind == 3 && m->lkp) ||
		      (m->tab_kind == 4 && m->kt);
	bool bad_now = m->bad_first && m->bad_last == p->lineno;
	if ((m->tab_kind && !active) || (m->bad_first && !bad_now))
		mail_tab_end(p, m);
	if (n)
		m->gap_now = false;
	(void)by_cr;
	(void)truncated;
	(void)len;
}

static void mail_line_body(struct parser *p, struct mail_state *m, char *s, const struct pp_tok *t, size_t n)
{
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
}

static void mail_finish(struct parser *p)
{
	mail_tab_end(p, p->st);
	mail_old_end(p, p->st);
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
	.finish = mail_finish,
};
