/* Result tables as people paste them into mails:
 *  - "2.4.16:" label lines over blocks of dbench Throughput lines; a blank
 *    line between blocks of one label starts another run of it, as does an
 *    x seen again in the same block;
 *  - a header row of labels (cells split at tabs or 2+ blanks) over rows
 *    "x v1 v2 v3", empty cells allowed: values go to the column whose
 *    position they share once tabs are expanded;
 *  - "---- (5,10) - default" headings, kernel-name lines ("2.6.24-rc2 #28
 *    SMP") and iozone rows under them, labelled "2.6.24-rc2", setting "(5,10)";
 *  - bonnie++ tables;
 *  - mmtests, |-, keyed, kernel test robot, transposed and label-row tables
 *    (docs/parsers.md), their cells with spread and unit, their derived
 *    columns checked against the values;
 *  - quoted-printable bodies and rows the mailer wrapped, put together first.
 * Rule lines ("------") and columns that are not results ("%-diff",
 * "diff", "change", "delta") are recognised and skipped. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
	bool cv;        /* "tip[pct imp](CV)": "(1.43)" after a value is its CoV in % */
	bool pct;       /* ... and "[ -9.11]" the change in % */
};

/* The cells of a row after its first ones: a value with what goes with it
 * ("116.1 (3.2)", "59580 ± 312", "123 +- 4", "45.6MB/s", "12.3 ms",
 * "1,234", "1.2K"), a cell without a value ("-", "+++++", "n/a"), or a
 * stated change ("-48.4%", "(+3.2%)", "1.05x"). */
enum { MC_VALUE, MC_NONE, MC_CHANGE };
struct mail_cell {
	int kind;
	int col, endcol;
	double v, half;
	bool has_spread, too_fast;
	double spread;
	char unit[RP_UNIT_LEN];
	char text[32];       /* as printed (a change is checked from it) */
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
	char x_name[RP_NAME_LEN], x_shown[RP_NAME_LEN];
	/* column tables so far, and a repeated one's metric suffix */
	char ct_seen[8][96], ct_suffix[8];
	size_t ct_nseen, ct_tables;
	bool ct_use_hint;
	int hint_metric_line, last_points_line;
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
	unsigned long pipe_hdr_line;   /* its header's line (nline): a second one right under it joins */
	unsigned long pipe_row_line;   /* its last row's (nline) */
	char pipe_suffix[8];       /* "_t3": a table with the header of an earlier one */
	char pipe_seen[8][96];
	size_t pipe_nseen, pipe_tables;
	/* a line that is only "baseline:" / "patched:": the label of the
	 * tables right under it whose columns are metrics (tiobench's boxes) */
	char colon_label[RP_LABEL_LEN];
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
	/* cells and rows of the table being read that could not be read (a
	 * cell "8341.118 MB/s*", a row of other cells): said, never dropped
	 * silently */
	size_t tab_unread;
	int unread_line;
	/* stated changes ("* -0.91%*") that the values do not give */
	size_t tab_mismatch;
	int mis_line;
	double mis_stated, mis_computed;
	/* the older shapes (column tables, label blocks), noted likewise */
	int old_kind;            /* 0 none, 1 column table, 2 label block */
	int old_first, old_last;
	size_t old_rows;
	char old_what[200];
	bool old_what_fresh;     /* old_what says the column table as it is now */
	char old_label[RP_LABEL_LEN];
	/* rows of a table whose header was not found */
	int bad_first, bad_last;
	size_t bad_cols;
	/* stated changes ("%diff", "(+3.2%)", "ratio") checked in the table
	 * being read; what the first mismatch states: 0 %, 1 ratio, 2 difference */
	size_t tab_checked;
	int mis_kind;
	/* transposed tables: a header row of x values ("clients 1 2 4 8") over
	 * rows whose first cell is the label */
	bool xt;
	size_t xt_n, xt_rows;
	bool xt_blank;             /* one blank line between its rows ("iova_alloc 137k iops") */
	/* a header and rows the mailer wrapped: the header's first line had
	 * xt_split values; a row of that many waits here for the rest */
	size_t xt_split, xt_pend_n;
	unsigned long xt_hdr_last;
	/* lines read so far: "right under" counts these, since a
	 * quoted-printable soft break makes one line of several */
	unsigned long nline;
	char xt_pend_label[RP_LABEL_LEN];
	struct mail_cell xt_pend[MAIL_COLS];
	/* runs per label without a header: "Before:   1908944 1905870 ..." over
	 * "xa_empty: 1835343 ..." (two such lines or more, as many figures) */
	bool lr;
	size_t lr_k;
	int headers;               /* 1 in the mail's header block ("Lines: 42"), 2 after it */
	char lr_metric[RP_NAME_LEN];   /* from a title right above: "Visionfive2 (StarFive ...)" */
	char lr_prev[256];
	int lr_prev_line;
	unsigned long lr_prev_n;
	int xt_line;
	/* rows named by their label, columns the metrics (0), a count like
	 * "[runs]" (1) or derived (2) */
	bool lt;
	size_t lt_n;
	int lt_role[MAIL_COLS + 1];
	char lt_metric[MAIL_COLS + 1][RP_NAME_LEN];
	char lt_unit[RP_UNIT_LEN];  /* from its title: "throughput (files/sec)" */
	double xt_x[MAIL_COLS];
	int xt_col[MAIL_COLS], xt_endcol[MAIL_COLS];
	char xt_name[RP_NAME_LEN], xt_metric[RP_NAME_LEN];
	/* the first and the last label row, for a derived row ("%diff") under them */
	double xt_base[MAIL_COLS], xt_prev[MAIL_COLS], xt_bhalf[MAIL_COLS], xt_phalf[MAIL_COLS];
	bool xt_have_base[MAIL_COLS], xt_have_prev[MAIL_COLS];
	/* a quoted-printable body (soft line breaks "=", "=3D"): decoded, and
	 * a line cut by a soft break gathered here */
	bool qp;
	char qp_acc[PARSER_LINE_MAX + 1];
	size_t qp_len;
	/* a table row the mailer wrapped in two: its first part, held until the
	 * next line shows whether it completes the row */
	char held[PARSER_LINE_MAX + 1];
	bool have_held;
	size_t held_n, held_nums;
	bool held_short;
	int row_last_kind;
	int held_line;
	size_t row_ntok;           /* tokens of the last line that gave points */
	size_t joined;             /* rows put together again */
};

static void mail_tab_begin(struct mail_state *m, int kind, int first, const char *what)
{
	m->tab_kind = kind;
	m->tab_first = first;
	m->tab_last = first;
	m->tab_rows = m->tab_skipped = m->tab_mismatch = m->tab_checked = m->tab_unread = 0;
	pp_strlcpy(m->tab_what, what, sizeof(m->tab_what));
}

/* A table's note; a stated change that does not fit the values (a
 * misread column or a mistake in the post) makes it one a person should
 * look at, with the first such line. */
static void mail_table_note(struct parser *p, struct mail_state *m, int first, int last, const char *what,
			    size_t rows, const char *skipped)
{
	char chk[48] = "";
	if (m->tab_checked && !m->tab_mismatch)
		snprintf(chk, sizeof(chk), "; %zu stated changes checked", m->tab_checked);
	if (m->tab_unread) {
		pp_note(p, first, last, false, "%s; %zu rows, but %zu cells or rows could not be read (the first at line %d)%s",
			what, rows, m->tab_unread, m->unread_line, chk);
		m->tab_unread = 0;
	} else if (m->tab_mismatch) {
		const char *u = m->mis_kind == 0 ? "%" : m->mis_kind == 1 ? "x" : "";
		pp_note(p, first, last, false,
			"%s; %zu rows, but %zu stated changes do not match the values (line %d says %+.2f%s, the "
			"values give %+.2f%s)", what, rows, m->tab_mismatch, m->mis_line, m->mis_stated, u,
			m->mis_computed, u);
	} else if (skipped)
		pp_note(p, first, last, true, "%s; %zu rows, %zu skipped (%s)%s", what, rows, m->tab_skipped, skipped,
			chk);
	else
		pp_note(p, first, last, true, "%s; %zu rows%s", what, rows, chk);
	m->tab_mismatch = m->tab_checked = 0;
}

static void mail_old_end(struct parser *p, struct mail_state *m)
{
	if (m->old_kind && m->old_rows)
		mail_table_note(p, m, m->old_first, m->old_last, m->old_what, m->old_rows, NULL);
	m->old_kind = 0;
}

static void mail_tab_end(struct parser *p, struct mail_state *m)
{
	if (m->tab_kind && !m->tab_rows && !m->tab_skipped) {
		/* a header with no rows under it (a diffstat line "a.c | 11 ++--"):
		 * not a table */
	} else if (m->tab_kind) {
		mail_table_note(p, m, m->tab_first, m->tab_last, m->tab_what, m->tab_rows,
				!m->tab_skipped ? NULL
				: m->tab_kind == 3 ? "a name longer than a metric name"
						   : "not as many values as the header");
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
	/* the section's "(5,10)" is the points' setting (p->setting), not
	 * part of the label: the kernel is compared per setting */
	pp_strlcpy(buf, name, len + 1 < sizeof(buf) ? len + 1 : sizeof(buf));
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
	/* a share of requests ("% >2 sec") is a figure */
	const char *pc = memchr(s, '%', len);
	if (pc && pc + 2 < s + len && pc[1] == ' ' && (pc[2] == '>' || pc[2] == '<'))
		return false;
	if (len && s[0] == '%')
		return true;
	static const char *const words[] = { "diff", "change", "delta", "ratio", "gain", "speedup", "speed-up" };
	/* a whole word at the start or the end of the name ("Diff (cycles)",
	 * "%change", "abs diff"), not inside another ("Iterations") nor
	 * between words ("Baseline diff files": different files) */
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t wl = strlen(words[i]);
		for (size_t k = 0; k + wl <= len; k++) {
			if (strncasecmp(s + k, words[i], wl) != 0 || (k && isalpha((unsigned char)s[k - 1])) ||
			    (k + wl < len && isalpha((unsigned char)s[k + wl])))
				continue;
			bool before = false, after = false;
			for (size_t q = 0; q < k; q++)
				before |= isalnum((unsigned char)s[q]) != 0;
			for (size_t q = k + wl; q < len; q++)
				after |= isalnum((unsigned char)s[q]) != 0;
			if (!before || !after)
				return true;
		}
	}
	/* a "%" says a change ("+/- %"), except as the unit that ends a
	 * metric's name ("CPU%", "util%") */
	return pc && !(pc == s + len - 1 && pc > s && isalpha((unsigned char)pc[-1]));
}

/* "2.6.23.1-42.fc8": starts with a digit, has a dot, is not a number. */
static bool is_kernel_name(const struct pp_tok *t)
{
	if (!t->len || !isdigit((unsigned char)t->s[0]) || pp_tok_number(t, NULL))
		return false;
	return memchr(t->s, '.', t->len) != NULL;
}

static bool mail_cell_value(const struct pp_tok *c, double *v);
static void mail_metric_name(const char *s, size_t len, char *out, size_t outlen);

/* Half a unit of the last digit a number is printed with ("12.30" ->
 * 0.005, "208k" -> 500): how far rounding can have moved it. */
static double mail_half_unit(const char *s, size_t len)
{
	size_t dec = 0;
	bool dot = false;
	double mult = 1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '.')
			dot = true;
		else if (dot && isdigit((unsigned char)s[i]))
			dec++;
		else if (s[i] == 'k' || s[i] == 'K')
			mult = 1000;
		else if (s[i] == 'M')
			mult = 1e6;
		else if (s[i] == 'e' || s[i] == 'E') {
			/* "2.1e+05": the last digit is worth 10^(5 - 1) */
			mult *= pow(10, atoi(s + i + 1));
			break;
		} else if (dot && !isdigit((unsigned char)s[i]))
			break;
	}
	return 0.5 * pow(10, -(double)dec) * mult;
}

/* The check itself: stated is a change in % (kind 0), a ratio (1) or a
 * difference (2), printed to within sh. */
static void mail_check_stated(struct parser *p, struct mail_state *m, double base, double bhalf, double val,
			      double vhalf, double stated, double sh, int kind)
{
	if (!isfinite(base) || !isfinite(val) || base == 0 || val == 0)
		return;
	double rel = bhalf / fabs(base) + vhalf / fabs(val);
	double comp;
	bool ok;
	/* printed rounded (within sh either way) or cut ("+12%" for 12.89%:
	 * up to a whole unit of the last digit below) */
	if (kind == 0) {
		comp = (val - base) / fabs(base) * 100;
		double tol = 100 * rel * (1 + fabs(comp) / 100) + 0.011, d = fabs(comp) - fabs(stated);
		ok = d >= -(tol + sh) && d <= tol + 2 * sh;
	} else if (kind == 1) {
		comp = val / base;
		/* a speedup of latencies is base / val */
		ok = fabs(stated - comp) <= comp * rel + sh + 1e-9 || fabs(stated - 1 / comp) <= rel / comp + sh + 1e-9;
	} else {
		comp = val - base;
		double tol = bhalf + vhalf + 1e-9, d = fabs(comp) - fabs(stated);
		ok = d >= -(tol + sh) && d <= tol + 2 * sh;
	}
	m->tab_checked++;
	if (!ok && !m->tab_mismatch++) {
		m->mis_line = p->lineno;
		m->mis_stated = stated;
		m->mis_computed = comp;
		m->mis_kind = kind;
	}
}

/* A stated change cell ("-48.4%", "(+3.2%)", "* -0.91%*", "~34%", "1.05x",
 * "+12") against the change that base and val give: counted, and the
 * first mismatch kept for the table's note.  head is the column's name
 * ("%diff", "ratio", "speedup", "diff"): it says what a bare number is.
 * Either sign passes (people turn the change round for lower-is-better
 * figures); the slack is what the rounding of the three printed numbers
 * allows. */
static void mail_check_change(struct parser *p, struct mail_state *m, double base, double bhalf, double val,
			      double vhalf, const char *s, size_t len, const char *head)
{
	char num[48];
	size_t o = 0;
	bool pct = false, ratio = false, approx = false;
	for (size_t i = 0; i < len && o + 1 < sizeof(num); i++) {
		char ch = s[i];
		if (ch == '(' || ch == ')' || ch == '[' || ch == ']' || ch == '*' || ch == ' ' || ch == '\t')
			continue;
		if (i + 3 <= len && strncmp(s + i, "pct", 3) == 0) {
			/* "(-6.16 pct)" */
			pct = true;
			i += 2;
			continue;
		}
		if (ch == '~')
			approx = true;
		else if (ch == '%')
			pct = true;
		else if ((ch == 'x' || ch == 'X') && o)
			ratio = true;
		else
			num[o++] = ch;
	}
	num[o] = '\0';
	double stated;
	if (!o || !pp_is_number(num, &stated))
		return;
	if (!pct && !ratio && head) {
		if (strcasestr(head, "ratio") || strcasestr(head, "speedup") || strcasestr(head, "times"))
			ratio = true;
		else if (strchr(head, '%') || strcasestr(head, "change") || strcasestr(head, "pct"))
			pct = true;
	}
	mail_check_stated(p, m, base, bhalf, val, vhalf, stated, mail_half_unit(num, o) * (approx ? 2 : 1),
			  pct ? 0 : ratio ? 1 : 2);
}


/* A unit word on its own after a value ("MB/s", "ms", "IOPS"). */
static bool mail_unit_word(const char *s, size_t len)
{
	static const char *const words[] = { "IOPS", "KIOPS", "ops/s", "ops/sec", "files/s", "trans/s", "tps",
					     "req/s", "GHz", "MHz" };
	if (!len || len >= RP_UNIT_LEN || !isalpha((unsigned char)s[0]))
		return false;
	if (pp_unit_to_kib(s, len) > 0 || pp_time_to_us(s, len) > 0)
		return true;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == len && strncasecmp(s, words[i], len) == 0)
			return true;
	return false;
}

/* A spread: "3.2", "312", "5%" (of the value). */
static bool mail_spread_of(const char *s, size_t len, double value, double *out)
{
	char num[40];
	if (!len || len >= sizeof(num))
		return false;
	memcpy(num, s, len);
	num[len] = '\0';
	bool pct = num[len - 1] == '%';
	if (pct)
		num[len - 1] = '\0';
	double d;
	if (!pp_is_number(num, &d) || d < 0)
		return false;
	*out = pct ? fabs(value) * d / 100 : d;
	return true;
}

static bool mail_is_pm(const char *s, size_t len, size_t *skip)
{
	if (len >= 2 && (unsigned char)s[0] == 0xc2 && (unsigned char)s[1] == 0xb1) {
		*skip = 2;
		return true;
	}
	if (len >= 3 && strncmp(s, "+/-", 3) == 0) {
		*skip = 3;
		return true;
	}
	if (len >= 2 && strncmp(s, "+-", 2) == 0) {
		*skip = 2;
		return true;
	}
	return false;
}

/* A cell that holds nothing to read: empty, "-", "n/a", "+++++". */
static bool mail_blank_cell(const struct pp_tok *c)
{
	return !c->len || (c->len == 1 && c->s[0] == '-') || (c->len == 3 && strncasecmp(c->s, "n/a", 3) == 0) ||
	       (c->len >= 3 && strspn(c->s, "+") == c->len);
}

/* Cells of tokens t[0..n): returns how many, or (size_t)-1 when a token is
 * none of the above (a word: the line is not a row of values). */
static size_t mail_cells(const struct pp_tok *t, size_t n, struct mail_cell *c, size_t max)
{
	size_t nc = 0;
	for (size_t k = 0; k < n; k++) {
		const char *s = t[k].s;
		size_t len = t[k].len;
		int col = t[k].col, endcol = t[k].endcol;
		/* the value a spread or unit goes with: the last cell, or the one
		 * before a change written between them ("1.09 [ -9.11](11.93)") */
		struct mail_cell *last = nc && c[nc - 1].kind == MC_VALUE ? &c[nc - 1]
					 : nc > 1 && c[nc - 1].kind == MC_CHANGE && c[nc - 2].kind == MC_VALUE ? &c[nc - 2]
					 : NULL;
		char buf[64];
		/* a remark after the figures: "*", "[Verification run]" */
		if ((len == 1 && s[0] == '*') || (s[0] == '[' && len > 1 && isalpha((unsigned char)s[1])))
			break;
		/* "( 0.00%)", "(0.00 pct)", "[  0.00]", "( 3.2 )": a bracket split by blanks */
		char close = s[0] == '(' ? ')' : s[0] == '[' ? ']' : 0;
		if (close && s[len - 1] != close) {
			size_t o = 0;
			size_t k2 = k;
			for (; k2 < n && k2 < k + 3; k2++) {
				if (o + t[k2].len >= sizeof(buf))
					break;
				memcpy(buf + o, t[k2].s, t[k2].len);
				o += t[k2].len;
				if (t[k2].s[t[k2].len - 1] == close)
					break;
			}
			if (k2 == n || k2 == k + 3 || o == 0 || buf[o - 1] != close)
				return (size_t)-1;
			endcol = t[k2].endcol;
			k = k2;
			s = buf;
			len = o;
		}
		size_t skip;
		double d;
		if (mail_is_pm(s, len, &skip)) {
			/* "± 312", "±5%", "+- 4" */
			if (!last || last->has_spread)
				return (size_t)-1;
			if (skip == len) {
				if (k + 1 >= n || !mail_spread_of(t[k + 1].s, t[k + 1].len, last->v, &last->spread))
					return (size_t)-1;
				last->endcol = t[++k].endcol;
			} else if (!mail_spread_of(s + skip, len - skip, last->v, &last->spread))
				return (size_t)-1;
			else
				last->endcol = endcol;
			last->has_spread = true;
			continue;
		}
		bool pct_word = len > 3 && memmem(s, len, "pct", 3) != NULL;
		if (len > 2 && s[0] == '(' && s[len - 1] == ')') {
			/* "(3.2)" a spread; "(+3.2%)", "(0.00%)", "(-1.2 pct)" a change */
			if (memchr(s, '%', len) == NULL && !pct_word) {
				if (!last || last->has_spread || !mail_spread_of(s + 1, len - 2, last->v, &last->spread))
					return (size_t)-1;
				last->has_spread = true;
				last->endcol = endcol;
				continue;
			}
		}
		if (nc == max)
			return (size_t)-1;
		struct mail_cell *cell = &c[nc];
		memset(cell, 0, sizeof(*cell));
		cell->col = col;
		cell->endcol = endcol;
		pp_strlcpy_span(cell->text, sizeof(cell->text), s, len);
		struct pp_tok w = { s, len, col, endcol };
		if (mail_blank_cell(&w)) {
			cell->kind = MC_NONE;
			cell->too_fast = s[0] == '+';
			nc++;
			continue;
		}
		if (memchr(s, '%', len) || pct_word || s[0] == '~' || s[0] == '*' || (s[0] == '[' && s[len - 1] == ']') ||
		    (len > 1 && (s[len - 1] == 'x' || s[len - 1] == 'X') && isdigit((unsigned char)s[len - 2]))) {
			cell->kind = MC_CHANGE;
			nc++;
			continue;
		}
		if (mail_cell_value(&w, &d)) {
			cell->kind = MC_VALUE;
			cell->v = d;
			cell->half = mail_half_unit(s, len);
			nc++;
			continue;
		}
		/* "45.6MB/s", "12.3ms" */
		size_t u = pp_scan_number(s, &d);
		if (u && u < len && mail_unit_word(s + u, len - u)) {
			cell->kind = MC_VALUE;
			cell->v = d;
			cell->half = mail_half_unit(s, u);
			snprintf(cell->unit, sizeof(cell->unit), "%.*s", (int)(len - u), s + u);
			nc++;
			continue;
		}
		if (last && !last->unit[0] && mail_unit_word(s, len)) {
			snprintf(last->unit, sizeof(last->unit), "%.*s", (int)len, s);
			last->endcol = endcol;
			continue;
		}
		return (size_t)-1;
	}
	return nc;
}

/* One value cell as a final point, with its spread and unit. */
static void mail_emit_cell(struct parser *p, const char *label, int run, const char *x_name, double x,
			   const char *metric, const struct mail_cell *c, const char *unit)
{
	struct result_point pt;
	memset(&pt, 0, sizeof(pt));
	pp_strlcpy(pt.label, label, sizeof(pt.label));
	pt.run = run;
	pp_strlcpy(pt.x_name, x_name, sizeof(pt.x_name));
	pt.x = x;
	pp_strlcpy(pt.metric, metric, sizeof(pt.metric));
	pp_strlcpy(pt.unit, c->unit[0] ? c->unit : (unit ? unit : ""), sizeof(pt.unit));
	pt.flags = RP_FINAL;
	if (c->kind == MC_NONE) {
		if (!c->too_fast)
			return;    /* "-": no value, not a zero */
		pt.value = NAN;
		pt.flags |= RP_TOO_FAST;
	} else
		pt.value = c->v;
	if (c->has_spread) {
		pt.flags |= RP_SPREAD;
		pt.spread = c->spread;
	}
	pp_emit_point(p, &pt);
}

static void mail_hint_unit(struct mail_state *m, const char *line);

static void mail_hints(struct mail_state *m, const char *line, int lineno)
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
	if (strcasestr(line, "throughput")) {
		pp_strlcpy(m->hint_metric, "throughput", sizeof(m->hint_metric));
		m->hint_metric_line = lineno;
	}
	mail_hint_unit(m, line);
}

static void mail_hint_unit(struct mail_state *m, const char *line)
{
	/* "(time of swapin 2G zero pages in us)" */
	static const char *const times[] = { "us", "ms", "ns" };
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		char w[8];
		snprintf(w, sizeof(w), " in %s", times[i]);
		const char *q = strstr(line, w);
		if (q && !isalnum((unsigned char)q[strlen(w)])) {
			pp_strlcpy(m->hint_unit, times[i], sizeof(m->hint_unit));
			return;
		}
	}
	if (strstr(line, "KIOPS"))
		pp_strlcpy(m->hint_unit, "KIOPS", sizeof(m->hint_unit));
	else if (strstr(line, "MiB/s"))
		pp_strlcpy(m->hint_unit, "MiB/s", sizeof(m->hint_unit));
	else if (strstr(line, "MB/sec") || strstr(line, "MB/s"))
		pp_strlcpy(m->hint_unit, "MB/s", sizeof(m->hint_unit));
	else if (strstr(line, "KB/s") || strstr(line, "kB/s") || strstr(line, "KB/sec"))
		pp_strlcpy(m->hint_unit, "KB/s", sizeof(m->hint_unit));
}

/* A header row: 2+ cells, each short and not a number. */
static bool mail_header(struct parser *p, struct mail_state *m, const char *line)
{
	struct pp_tok c[MAIL_COLS + 2];
	size_t n = pp_cells(line, c, MAIL_COLS + 1);
	/* "#workers: tip (91caa5ae2424)": the x column's name glued to the
	 * first label by one blank */
	const char *colon = n ? memchr(c[0].s, ':', c[0].len) : NULL;
	if (colon && colon + 2 < c[0].s + c[0].len && colon[1] == ' ' && n >= 2 && n <= MAIL_COLS &&
	    !memchr(c[0].s, ' ', (size_t)(colon - c[0].s))) {
		memmove(&c[2], &c[1], (n - 1) * sizeof(c[0]));
		size_t l0 = (size_t)(colon + 1 - c[0].s);
		c[1].s = colon + 2;
		c[1].len = c[0].len - l0 - 1;
		c[1].col = c[0].col + (int)l0 + 1;
		c[1].endcol = c[0].endcol;
		c[0].len = l0;
		c[0].endcol = c[0].col + (int)l0;
		n++;
	}
	if (n < 2 || n > MAIL_COLS)
		return false;
	for (size_t i = 0; i < n; i++) {
		double d;
		size_t u = c[i].len ? pp_scan_number(c[i].s, &d) : 0;
		/* a figure with what follows it ("22.00 (0.00 pct)") is a row */
		/* a label with what its cells hold after it ("stats_prop[pct imp](CV)")
		 * is as short as its label */
		const char *br = c[i].len ? memchr(c[i].s, '[', c[i].len) : NULL;
		size_t ll = br && br > c[i].s ? (size_t)(br - c[i].s) : c[i].len;
		if (!c[i].len || ll >= 24 || c[i].len >= 40 || pp_tok_number(&c[i], NULL) ||
		    (u && u < c[i].len && c[i].s[u] == ' '))
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
	m->old_what_fresh = false;
	for (size_t i = 0; i < n; i++) {
		struct mail_col *col = &m->cols[i];
		/* "tip[pct imp](CV)": the label, then what its cells hold */
		size_t ll = c[i].len;
		const char *br = memchr(c[i].s, '[', c[i].len);
		col->cv = memmem(c[i].s, c[i].len, "(CV)", 4) != NULL;
		col->pct = memmem(c[i].s, c[i].len, "pct", 3) != NULL;
		if (br && br > c[i].s && (memmem(c[i].s, c[i].len, "pct", 3) || col->cv))
			ll = (size_t)(br - c[i].s);
		pp_strlcpy(col->label, c[i].s, ll + 1 < sizeof(col->label) ? ll + 1 : sizeof(col->label));
		col->col = c[i].col;
		col->endcol = c[i].endcol;
		col->ignored = is_ignored_label(col->label, strlen(col->label));
	}
	m->mode = MAIL_HEADER;
	(void)p;
	return true;
}

/* The x cell of a row: "16", "16:", "1-groups:" (x 1, word "groups"). */
static bool mail_x_cell(const struct pp_tok *t, double *x, char *word, size_t wlen)
{
	char buf[40];
	size_t len = t->len;
	word[0] = '\0';
	if (len && t->s[len - 1] == ':')
		len--;
	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, t->s, len);
	buf[len] = '\0';
	if (pp_is_number(buf, x))
		return true;
	char *dash = strchr(buf, '-');
	if (!dash || dash == buf || !isalpha((unsigned char)dash[1]))
		return false;
	*dash = '\0';
	if (!pp_is_number(buf, x))
		return false;
	mail_metric_name(dash + 1, strlen(dash + 1), word, wlen);
	return true;
}

/* The first row under a column table's header: the first header cell
 * names the x column when it sits over it; the prose's metric is the
 * table's when it came since the last table (not a "throughput" three
 * tables up); the same header over the same benchmark again (stream with
 * 10 runs, then with 100) is another setting, its own metrics ("_t2"),
 * never more runs of the first. */
/* A table whose header (sig) an earlier table of the same kind had gets
 * "_tN" after its metric names, so the two are not pooled as runs; the
 * first of each header is remembered (up to 8). */
static void mail_table_suffix(char seen[8][96], size_t *nseen, size_t *tables, const char *sig,
			      char suffix[8])
{
	bool again = false;

	++*tables;
	suffix[0] = '\0';
	for (size_t i = 0; i < *nseen && !again; i++)
		again = strcmp(seen[i], sig) == 0;
	if (again)
		snprintf(suffix, 8, "_t%zu", *tables % 100);
	else if (*nseen < 8)
		pp_strlcpy(seen[(*nseen)++], sig, 96);
}

static void mail_ct_begin(struct mail_state *m, const struct pp_tok *t)
{
	if (m->ncols && m->cols[0].col <= t[0].endcol && !m->cols[0].ignored && m->cols[0].endcol <= t[1].col) {
		pp_strlcpy(m->x_name, m->cols[0].label, sizeof(m->x_name));
		m->cols[0].ignored = true;
		m->old_what_fresh = false;
	}
	m->mode = MAIL_TABLE;
	m->ct_use_hint = m->hint_metric[0] && m->hint_metric_line > m->last_points_line;
	char sig[96];
	size_t so = (size_t)snprintf(sig, sizeof(sig), "%s|", m->bench);
	for (size_t i = 0; i < m->ncols && so < sizeof(sig); i++)
		so += (size_t)snprintf(sig + so, sizeof(sig) - so, "%s|", m->cols[i].label);
	mail_table_suffix(m->ct_seen, &m->ct_nseen, &m->ct_tables, sig, m->ct_suffix);
}

/* The column of each cell: in order when the counts agree (a change cell
 * right after a value, "1234 (+3.2%)", then belongs to that value's
 * column), else the column that shares its position best (-1: none
 * within 8 columns). */
static void mail_ct_columns(const struct mail_state *m, const struct mail_cell *c, size_t nc, size_t first,
			    int *ci_of)
{
	size_t nlab = m->ncols - first, nplain = 0;
	for (size_t k = 0; k < nc; k++)
		nplain += c[k].kind != MC_CHANGE;
	for (size_t k = 0, v = 0; k < nc; k++) {
		int ci = -1;
		if (nc == nlab)
			ci = (int)(first + k);
		else if (nplain == nlab) {
			if (c[k].kind != MC_CHANGE)
				ci = (int)(first + v++);
			else if (k)
				ci = ci_of[k - 1];
		} else {
			int bestd = 1 << 30;
			for (size_t i = first; i < m->ncols; i++) {
				int ds = abs(c[k].col - m->cols[i].col), de = abs(c[k].endcol - m->cols[i].endcol);
				int d = ds < de ? ds : de;
				if (d < bestd) {
					bestd = d;
					ci = (int)i;
				}
			}
			if (bestd > 8)
				ci = -1;
		}
		ci_of[k] = ci;
	}
}

/* A column table row's derived cells (a derived column's, or a change
 * beside a value) against the first value column and the nearest other. */
static void mail_ct_checks(struct parser *p, struct mail_state *m, const struct mail_cell *c, size_t nc,
			   const int *ci_of, size_t first, const double *val, const double *half, const bool *have)
{
	for (size_t k = 0; k < nc; k++) {
		int ci = ci_of[k];
		if (ci < 0 || (size_t)ci >= m->ncols || (!m->cols[ci].ignored && c[k].kind != MC_CHANGE) ||
		    c[k].kind == MC_NONE)
			continue;
		int b = -1, nv = -1;
		for (size_t i = first; i < m->ncols && b < 0; i++)
			if (have[i])
				b = (int)i;
		if (b < 0)
			continue;
		if (!m->cols[ci].ignored)
			nv = have[ci] ? ci : -1;
		for (int i = ci - 1; nv < 0 && i >= (int)first; i--)
			if (have[i] && i != b)
				nv = i;
		for (size_t i = (size_t)ci + 1; nv < 0 && i < m->ncols; i++)
			if (have[i] && (int)i != b)
				nv = (int)i;
		if (nv < 0)
			continue;
		mail_check_change(p, m, val[b], half[b], val[nv], half[nv], c[k].text, strlen(c[k].text),
				  m->cols[ci].pct ? "%" : m->cols[ci].label);
	}
}

/* A row of a column table: its first cell is x ("16", "16:", "1-groups:"
 * with the word as x_name) or, with rowname, the row's name ("Copy:": a
 * metric of its own, x_name "run").  Runs are numbered per (label,
 * metric, x): a row repeating an x ("[Verification run]") is another run. */
static bool mail_table_row(struct parser *p, struct mail_state *m, const struct pp_tok *t, size_t n, double x,
			   const char *xword, const char *rowname)
{
	struct mail_cell c[MAIL_COLS];
	size_t nc = n > 1 ? mail_cells(t + 1, n - 1, c, MAIL_COLS) : 0;
	if (nc == (size_t)-1 || !nc)
		return false;   /* words among the numbers: not a row of values */
	size_t nvals = 0;
	for (size_t k = 0; k < nc; k++)
		nvals += c[k].kind == MC_VALUE;
	if (rowname && !nvals)
		return false;   /* "ycsb-cassandra  -0.54%": a change, no value */
	if (m->mode == MAIL_HEADER)
		mail_ct_begin(m, t);
	size_t first = m->x_name[0] ? 1 : 0;
	char xn[RP_NAME_LEN];
	mail_metric_name(m->x_name, strlen(m->x_name), xn, sizeof(xn));
	const char *x_name = rowname ? "run" : xword && xword[0] ? xword : xn[0] ? xn : (m->hint_x[0] ? m->hint_x : "x");
	if (strcmp(m->x_shown, x_name)) {
		pp_strlcpy(m->x_shown, x_name, sizeof(m->x_shown));
		m->old_what_fresh = false;
	}
	char rm[RP_NAME_LEN];
	const char *metric = m->ct_use_hint ? m->hint_metric : (m->bench[0] ? m->bench : "value");
	if (rowname)
		snprintf(rm, sizeof(rm), "%.16s%s%.8s%s", m->bench[0] ? m->bench : "", m->bench[0] ? "_" : "", rowname,
			 m->ct_suffix);
	else {
		/* "%.24s%s" by hand: once a row */
		pp_strlcpy_span(rm, sizeof(rm), metric, 24);
		size_t l = strlen(rm);
		pp_strlcpy(rm + l, m->ct_suffix, sizeof(rm) - l);
	}
	metric = rm;
	int ci_of[MAIL_COLS];
	mail_ct_columns(m, c, nc, first, ci_of);
	double val[MAIL_COLS], half[MAIL_COLS];
	bool have[MAIL_COLS] = { false };
	for (size_t k = 0; k < nc; k++) {
		int ci = ci_of[k];
		if (ci < 0 || (size_t)ci >= m->ncols || m->cols[ci].ignored || c[k].kind == MC_CHANGE)
			continue;
		if (m->cols[ci].cv && c[k].has_spread)
			c[k].spread = fabs(c[k].v) * c[k].spread / 100;
		mail_emit_cell(p, m->cols[ci].label, -1, x_name, x, metric, &c[k], m->hint_unit);
		if (c[k].kind == MC_VALUE && !have[ci]) {
			have[ci] = true;
			val[ci] = c[k].v;
			half[ci] = c[k].half;
		}
	}
	mail_ct_checks(p, m, c, nc, ci_of, first, val, half, have);
	return true;
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
	/* every name starts with a letter: a figure is none (a table's
	 * every cell passes here) */
	if (!len || !isalpha((unsigned char)*w))
		return false;
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
	double v[MAIL_COLS], stated[MAIL_COLS], half[MAIL_COLS], shalf[MAIL_COLS];
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
			if (pp_is_number(num, &c)) {
				stated[nv - 1] = c;
				shalf[nv - 1] = mail_half_unit(num, l);
			}
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
	 * turns it round for lower-is-better statistics) */
	for (size_t i = 1; i < nv && v[0] > 0; i++)
		if (!isnan(stated[i]))
			mail_check_stated(p, m, v[0], half[0], v[i], half[i], stated[i], shalf[i], 0);
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

/* The derived cells of a |-table row ("%diff", "diff"): each against the
 * first value column and the value column nearest on its left (or right). */
static void mail_pipe_check(struct parser *p, struct mail_state *m, const struct pp_tok *c, size_t n)
{
	double v[MAIL_COLS + 1], h[MAIL_COLS + 1];
	bool have[MAIL_COLS + 1] = { false };
	int b = -1;
	for (size_t i = 1; i < n; i++)
		if (!m->pipe_ign[i] && mail_cell_value(&c[i], &v[i])) {
			have[i] = true;
			h[i] = mail_half_unit(c[i].s, c[i].len);
			if (b < 0)
				b = (int)i;
		}
	for (size_t i = 1; i < n && b >= 0; i++) {
		if (!m->pipe_ign[i] || !c[i].len)
			continue;
		int nv = -1;
		for (int k = (int)i - 1; nv < 0 && k > 0; k--)
			if (have[k] && k != b)
				nv = k;
		for (size_t k = i + 1; nv < 0 && k < n; k++)
			if (have[k] && (int)k != b)
				nv = (int)k;
		if (nv >= 0)
			mail_check_change(p, m, v[b], h[b], v[nv], h[nv], c[i].s, c[i].len, m->pipe_labels[i]);
	}
}

static void mail_unread(struct parser *p, struct mail_state *m)
{
	if (!m->tab_unread++)
		m->unread_line = p->lineno;
}

/* A |-cell with a unit after its figure: "0.2 s", "8667.792 MB/s",
 * "445.2 %" (a share here: the column is not a change), "0.006 ms". */
static bool mail_pipe_unit_value(const struct pp_tok *c, double *v, char *unit, size_t ulen)
{
	size_t u = c->len ? pp_scan_number(c->s, v) : 0;
	if (!u || u >= c->len)
		return false;
	while (u < c->len && c->s[u] == ' ')
		u++;
	if ((c->len - u == 1 && c->s[u] == '%') || mail_unit_word(c->s + u, c->len - u)) {
		snprintf(unit, ulen, "%.*s", (int)(c->len - u), c->s + u);
		return true;
	}
	return false;
}

/* A row named by its first cell whose figures carry units ("0.2 s |
 * 8667.792 MB/s | 445.2 %"): the columns are metrics of the row's
 * workload, the label the "baseline:" line just above the table, if any. */
static void mail_pipe_units_row(struct parser *p, struct mail_state *m, const struct pp_tok *c, size_t n)
{
	const char *label = m->colon_label[0] ? m->colon_label : p->label;
	char rn[RP_NAME_LEN], unit[RP_UNIT_LEN];
	mail_metric_name(c[0].s, c[0].len, rn, sizeof(rn));
	for (size_t i = 1; i < n; i++) {
		double v;
		char metric[RP_NAME_LEN], cn[RP_NAME_LEN];
		if (m->pipe_ign[i])
			continue;
		unit[0] = '\0';
		if (!mail_pipe_unit_value(&c[i], &v, unit, sizeof(unit)) && !mail_cell_value(&c[i], &v)) {
			if (!mail_blank_cell(&c[i]))
				mail_unread(p, m);
			continue;
		}
		/* "% >2 sec": the share over 2 s, "pct_gt_2_sec" */
		char hn[RP_LABEL_LEN + 8];
		size_t ho = 0;
		for (const char *q = m->pipe_labels[i]; *q && ho + 5 < sizeof(hn); q++)
			ho += (size_t)snprintf(hn + ho, sizeof(hn) - ho, "%s",
					       *q == '%' ? "pct " : *q == '>' ? "gt " : *q == '<' ? "lt " : (char[2]){ *q, 0 });
		mail_metric_name(hn, ho, cn, sizeof(cn));
		snprintf(metric, sizeof(metric), "%.*s_%s", (int)(sizeof(metric) - 2 - strlen(cn)), rn, cn);
		pp_emit(p, label, -1, "run", 0, metric, v, unit, RP_FINAL);
	}
	m->tab_rows++;
	m->tab_last = p->lineno;
	m->bench_stale = true;
	m->pipe_row_line = m->nline;
	if (m->tab_rows == 1) {
		/* the header's names are metrics here, not labels */
		size_t o = (size_t)snprintf(m->tab_what, sizeof(m->tab_what), "|-table: rows named by workload (%s); metrics",
					    m->pipe_x);
		for (size_t i = 1; i < n && o < sizeof(m->tab_what); i++)
			o += (size_t)snprintf(m->tab_what + o, sizeof(m->tab_what) - o, "%s %s", i > 1 ? "," : "",
					      m->pipe_labels[i]);
		if (o < sizeof(m->tab_what))
			snprintf(m->tab_what + o, sizeof(m->tab_what) - o, " (figures with units); label %s", label);
	}
}

/* A row named by its first cell, plain figures: the workload (a metric),
 * or in a transposed table the kernel (a label).  A derived column
 * ("diff") compares the columns: they are the labels, whatever the rows
 * are called. */
static void mail_pipe_named_row(struct parser *p, struct mail_state *m, const struct pp_tok *c, size_t n)
{
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
	if (derived)
		mail_pipe_check(p, m, c, n);
	m->pipe_row_line = m->nline;
	m->tab_rows++;
	m->tab_last = p->lineno;
	m->bench_stale = true;
	if (m->tab_rows == 1) {
		size_t l = strlen(m->tab_what);
		snprintf(m->tab_what + l, sizeof(m->tab_what) - l, "; rows named by %s",
			 tr ? "label (transposed: columns are metrics)" : "metric");
	}
}

/* The second line of a |-table's header ("size | same file | diff
 * files") right under it: joins each column's name ("Block size",
 * "Baseline diff files"). */
static void mail_pipe_head_more(struct mail_state *m, const struct pp_tok *c, size_t n)
{
	size_t l = strlen(m->pipe_x);
	snprintf(m->pipe_x + l, sizeof(m->pipe_x) - l, "%s%.*s", l && c[0].len ? " " : "", (int)c[0].len, c[0].s);
	for (size_t i = 1; i < n; i++) {
		l = strlen(m->pipe_labels[i]);
		snprintf(m->pipe_labels[i] + l, RP_LABEL_LEN - l, " %.*s", (int)c[i].len, c[i].s);
		m->pipe_ign[i] = is_ignored_label(m->pipe_labels[i], strlen(m->pipe_labels[i]));
	}
	size_t o = (size_t)snprintf(m->tab_what, sizeof(m->tab_what), "|-table: x %s; labels", m->pipe_x);
	for (size_t i = 1; i < n && o < sizeof(m->tab_what); i++)
		if (!m->pipe_ign[i])
			o += (size_t)snprintf(m->tab_what + o, sizeof(m->tab_what) - o, "%s %s", i > 1 ? "," : "",
					      m->pipe_labels[i]);
	m->pipe_hdr_line = m->nline;
}

/* A |-table's header: x's name, then the labels (derived columns kept
 * aside).  The same header again (one table per workload, as in "1. one
 * thread", "2. three threads"): its rows get their own metrics ("_t3"). */
static void mail_pipe_head(struct parser *p, struct mail_state *m, const struct pp_tok *c, size_t n)
{
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
	char sig[96];
	size_t so = 0;
	for (size_t i = 0; i < n && so < sizeof(sig); i++)
		so += (size_t)snprintf(sig + so, sizeof(sig) - so, "%.*s|", (int)c[i].len, c[i].s);
	mail_table_suffix(m->pipe_seen, &m->pipe_nseen, &m->pipe_tables, sig, m->pipe_suffix);
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
	m->pipe_hdr_line = m->nline;
}

/* A |-line whose first cell is no number: a header (every cell a short
 * name, the first may be empty), or a row of the table's width with
 * figures in it in none of the shapes read (right under a row, or not a
 * header): said.  False when it is neither. */
static bool mail_pipe_unnumbered(struct parser *p, struct mail_state *m, const struct pp_tok *c, size_t n)
{
	bool digits = false, hdr = true;
	for (size_t k = 1; k < n; k++)
		for (size_t q = 0; q < c[k].len; q++)
			digits |= isdigit((unsigned char)c[k].s[q]) != 0;
	for (size_t i = 0; i < n; i++)
		if ((!c[i].len && i) || c[i].len >= RP_LABEL_LEN || pp_tok_number(&c[i], NULL) ||
		    memmem(c[i].s, c[i].len, "++", 2) || memmem(c[i].s, c[i].len, "--", 2))
			hdr = false;
	if (m->pipe && m->tab_kind == 2 && n == m->pipe_n && digits &&
	    (!hdr || (m->tab_rows && m->pipe_row_line + 1 == m->nline))) {
		mail_unread(p, m);
		m->tab_last = p->lineno;
		m->pipe_row_line = m->nline;
		return true;
	}
	if (!hdr)
		return false;
	if (m->pipe && !m->tab_rows && n == m->pipe_n && m->pipe_hdr_line + 1 == m->nline)
		mail_pipe_head_more(m, c, n);
	else
		mail_pipe_head(p, m, c, n);
	return true;
}

/* A |-table row with x in its first cell; "10.96 (0.497)": a value and
 * its spread. */
static void mail_pipe_row(struct parser *p, struct mail_state *m, const struct pp_tok *c, size_t n, double x)
{
	m->pipe_row_line = m->nline;
	m->tab_rows++;
	m->tab_last = p->lineno;
	m->bench_stale = true;
	char metric[RP_NAME_LEN];
	snprintf(metric, sizeof(metric), "%.*s%s", (int)(sizeof(metric) - 1 - strlen(m->pipe_suffix)),
		 m->hint_metric[0] ? m->hint_metric : (m->bench[0] ? m->bench : "value"), m->pipe_suffix);
	for (size_t i = 1; i < n; i++) {
		double v;
		if (m->pipe_ign[i])
			continue;
		if (mail_cell_value(&c[i], &v)) {
			pp_emit(p, m->pipe_labels[i], -1, m->pipe_x[0] ? m->pipe_x : "x", x, metric, v, m->hint_unit, RP_FINAL);
			continue;
		}
		char cell[128];
		struct pp_tok ct[8];
		struct mail_cell mc[2];
		snprintf(cell, sizeof(cell), "%.*s", (int)c[i].len, c[i].s);
		size_t tn = pp_tokens(cell, ct, 8);
		if (tn && mail_cells(ct, tn, mc, 2) == 1 && mc[0].kind == MC_VALUE)
			mail_emit_cell(p, m->pipe_labels[i], -1, m->pipe_x[0] ? m->pipe_x : "x", x, metric, &mc[0], m->hint_unit);
		else if (!mail_blank_cell(&c[i]))
			mail_unread(p, m);
	}
	mail_pipe_check(p, m, c, n);
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
		/* a row named by its first cell */
		bool any = false, units = false;
		char unit[RP_UNIT_LEN];
		for (size_t i = 1; i < n; i++) {
			any |= !m->pipe_ign[i] && mail_cell_value(&c[i], &x);
			units |= !m->pipe_ign[i] && mail_pipe_unit_value(&c[i], &x, unit, sizeof(unit));
		}
		if (units) {
			mail_pipe_units_row(p, m, c, n);
			return true;
		}
		if (any) {
			mail_pipe_named_row(p, m, c, n);
			return true;
		}
	}
	if (!pp_tok_number(&c[0], &x))
		return mail_pipe_unnumbered(p, m, c, n);
	if (!m->pipe || n != m->pipe_n)
		return false;
	mail_pipe_row(p, m, c, n, x);
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
	snprintf(what, sizeof(what), "kernel test robot table: labels %s, %s; a metric per row, %%change "
		 "checked, \xc2\xb1 kept as the spread", m->lkp_labels[0], m->lkp_labels[1]);
	mail_tab_end(p, m);
	int hl = is_rule(m->prev[1]) ? m->prev_line[0] : m->prev_line[1];
	mail_tab_begin(m, 3, hl ? hl : p->lineno, what);
	return true;
}

static bool mail_lkp_row(struct parser *p, struct mail_state *m, const struct pp_tok *t, size_t n)
{
	size_t k = 0, chg = 0;
	struct mail_cell c[2];
	memset(c, 0, sizeof(c));
	for (int i = 0; i < 2; i++) {
		if (k >= n || !pp_tok_number(&t[k], &c[i].v))
			return false;
		c[i].half = mail_half_unit(t[k].s, t[k].len);
		k++;
		if (k < n && is_pm(&t[k])) {
			/* "± 18%" is two tokens, "±160%" one: the stddev in % of the mean */
			const struct pp_tok *sp = t[k].len == 2 ? (k + 1 < n ? &t[k + 1] : NULL) : &t[k];
			size_t off = sp == &t[k] ? 2 : 0;
			if (sp && mail_spread_of(sp->s + off, sp->len - off, c[i].v, &c[i].spread))
				c[i].has_spread = true;
			k += t[k].len == 2 ? 2 : 1;
		}
		if (i == 0) {
			/* the change: "+33.4%", "+2.1e+05%", or an absolute "+1.5" */
			if (k >= n)
				return false;
			chg = k++;
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
		mail_emit_cell(p, m->lkp_labels[i], -1, "run", 0, metric, &c[i], "");
	mail_check_change(p, m, c[0].v, c[0].half, c[1].v, c[1].half, t[chg].s, t[chg].len, NULL);
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

/* The note's text of a keyed table: its labels, x, what keys the metric,
 * the derived columns checked. */
static void mail_kt_describe(const struct mail_state *m, size_t hn, char *what, size_t wlen)
{
	size_t o = (size_t)snprintf(what, wlen, "keyed table: labels");
	for (size_t i = 0, f = 0; i < hn && o < wlen; i++)
		if (m->kt_role[i] == 0)
			o += (size_t)snprintf(what + o, wlen - o, "%s %s", f++ ? "," : "", m->kt_head[i]);
	for (size_t i = 0; i < hn && o < wlen; i++)
		if (m->kt_role[i] == 2)
			o += (size_t)snprintf(what + o, wlen - o, "; x %s", m->kt_head[i]);
	/* (this one was written unbounded: past wlen, a stack overrun with
	 * many long label names) */
	if (o < wlen)
		o += (size_t)snprintf(what + o, wlen - o, "; metric from");
	for (size_t i = 0; i < hn && o < wlen; i++)
		if (m->kt_role[i] == 1)
			o += (size_t)snprintf(what + o, wlen - o, " %s", m->kt_head[i]);
	for (size_t i = 0; i < hn && o < wlen; i++)
		if (m->kt_role[i] == 3)
			o += (size_t)snprintf(what + o, wlen - o, "; derived column %s checked", m->kt_head[i]);
}

/* The header of a keyed table right above its first row t[0..r) (or
 * above its rule, no blank between): each column's role from its name
 * and the row's cell.  False when the lines are no such table. */
static bool mail_kt_header(struct parser *p, struct mail_state *m, const struct pp_tok *t, size_t r)
{
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
		/* "-" is a value column without a value in this row; a
		 * derived column ("delta") is checked, never a label */
		bool none = mail_blank_cell(&t[i]);
		if (i && is_ignored_label(c[i].s, c[i].len))
			m->kt_role[i] = 3;
		else if (i == 0 || (!none && !mail_cell_value(&t[i], &v)))
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
		if (m->kt_role[i] == 0 && !mail_cell_value(&t[i], &v) && !mail_blank_cell(&t[i]))
			return false;
	}
	/* several x columns: the last is x, the others key the metric */
	for (size_t i = 0, seen = 0; i < hn; i++)
		if (m->kt_role[i] == 2 && ++seen < nx)
			m->kt_role[i] = 1;
	m->kt_n = hn;
	m->kt = true;
	char what[160];
	mail_kt_describe(m, hn, what, sizeof(what));
	mail_tab_end(p, m);
	mail_tab_begin(m, 4, hl ? hl : p->lineno, what);
	return true;
}

/* A keyed row's metric (its key cells) and x (its x cell, a size as
 * "bs_kb"); false when the x cell is no figure. */
static bool mail_kt_key(const struct mail_state *m, const struct pp_tok *t, size_t r, char *metric, size_t mlen,
			char *xn, size_t xlen, const char **x_name, double *x)
{
	metric[0] = '\0';
	for (size_t i = 0; i < r; i++) {
		if (m->kt_role[i] == 1) {
			size_t l = strlen(metric);
			if (l + 1 < mlen) {
				if (l)
					metric[l++] = '_';
				mail_metric_name(t[i].s, t[i].len, metric + l, mlen - l);
			}
		} else if (m->kt_role[i] == 2) {
			double kib;
			if (mail_bs_word(m->kt_head[i]) && pp_size_to_kib(t[i].s, t[i].len, &kib)) {
				*x = kib;
				*x_name = "bs_kb";
			} else if (mail_cell_value(&t[i], x)) {
				mail_metric_name(m->kt_head[i], strlen(m->kt_head[i]), xn, xlen);
				*x_name = xn;
			} else
				return false;
		}
	}
	return true;
}

/* A keyed row's stated changes: trailing change cells t[r..n), the first
 * against the second label column, the next against the third ... each
 * from the first; a derived column, the last label column against the
 * first (a "-" in either leaves nothing to check). */
static void mail_kt_checks(struct parser *p, struct mail_state *m, const struct pp_tok *t, size_t n, size_t r)
{
	int lab[MAIL_COLS];
	double lv[MAIL_COLS];
	size_t nl = 0;
	for (size_t i = 0; i < r && nl < MAIL_COLS; i++)
		if (m->kt_role[i] == 0 && mail_cell_value(&t[i], &lv[nl]))
			lab[nl++] = (int)i;
	for (size_t j = r; j < n && nl >= 2; j++) {
		size_t k = j - r + 1 < nl ? j - r + 1 : nl - 1;
		mail_check_change(p, m, lv[0], mail_half_unit(t[lab[0]].s, t[lab[0]].len), lv[k],
				  mail_half_unit(t[lab[k]].s, t[lab[k]].len), t[j].s, t[j].len, NULL);
	}
	for (size_t i = 0; i < r && nl >= 2; i++)
		if (m->kt_role[i] == 3 && lab[0] < (int)i)
			mail_check_change(p, m, lv[0], mail_half_unit(t[lab[0]].s, t[lab[0]].len), lv[nl - 1],
					  mail_half_unit(t[lab[nl - 1]].s, t[lab[nl - 1]].len), t[i].s, t[i].len, m->kt_head[i]);
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
	if (!m->kt && !mail_kt_header(p, m, t, r))
		return false;
	if (r != m->kt_n)
		return false;
	/* every compared column a figure or "-" ("Total: Before=1, After=2"
	 * under a size table is prose) */
	for (size_t i = 0; i < r; i++) {
		double v;
		if (m->kt_role[i] == 0 && !mail_cell_value(&t[i], &v) && !mail_blank_cell(&t[i]))
			return false;
	}
	char metric[RP_NAME_LEN], xn[RP_NAME_LEN];
	const char *x_name = "x";
	double x = 0;
	if (!mail_kt_key(m, t, r, metric, sizeof(metric), xn, sizeof(xn), &x_name, &x))
		return false;
	for (size_t i = 0; i < r; i++) {
		double v;
		if (m->kt_role[i] == 0 && mail_cell_value(&t[i], &v))
			pp_emit(p, m->kt_head[i], -1, x_name, x, metric[0] ? metric : "value", v, m->hint_unit, RP_FINAL);
	}
	mail_kt_checks(p, m, t, n, r);
	m->tab_rows++;
	m->tab_last = p->lineno;
	return true;
}

/* A short title line over a table as a metric name: the words before a
 * "(" or ":" between decorations ("Write throughput (MB/s)" ->
 * write_throughput, "** Initial writers **" -> initial_writers,
 * "io_load:" -> io_load), at most maxw of them and not a sentence. */
static bool mail_title_metric(const char *line, size_t maxw, char *out, size_t outlen)
{
	const char *a = line;
	while (*a == '*' || *a == '=' || *a == '#' || *a == ' ')
		a++;
	size_t l = strcspn(a, "(:*=#");
	while (l && a[l - 1] == ' ')
		l--;
	size_t e = strlen(line);
	while (e && line[e - 1] == ' ')
		e--;
	char last = e ? line[e - 1] : 0;
	if (!l || !isalpha((unsigned char)a[0]) || last == '.' || last == ',')
		return false;
	size_t words = 1;
	for (size_t i = 0; i + 1 < l; i++)
		words += a[i] == ' ' && a[i + 1] != ' ';
	if (words > maxw)
		return false;
	mail_metric_name(a, l, out, outlen);
	return out[0] != '\0';
}

/* --- transposed tables: "clients  1  2  4  8" over "vanilla 100 190 ..." -- */

/* A header row of x values: a short name (or none) then 3+ numbers that
 * grow from left to right, nothing after them. */
/* "numjobs=1  numjobs=2  numjobs=4" or "JOBS=1  JOBS=10": the x axis
 * named in every cell; two values are enough when it is written so. */
static bool mail_xt_named(const struct pp_tok *t, size_t n, double *x, char *name, size_t nlen)
{
	if (n < 2 || n > MAIL_COLS)
		return false;
	const char *eq0 = memchr(t[0].s, '=', t[0].len);
	if (!eq0 || eq0 == t[0].s)
		return false;
	size_t nl = (size_t)(eq0 - t[0].s);
	for (size_t k = 0; k < n; k++) {
		char num[32];
		if (t[k].len <= nl + 1 || t[k].len - nl - 1 >= sizeof(num) || strncmp(t[k].s, t[0].s, nl + 1) != 0)
			return false;
		memcpy(num, t[k].s + nl + 1, t[k].len - nl - 1);
		num[t[k].len - nl - 1] = '\0';
		if (!pp_is_number(num, &x[k]) || (k && !(x[k] > x[k - 1])))
			return false;
	}
	mail_metric_name(t[0].s, nl, name, nlen);
	return name[0] != '\0';
}

static bool mail_xt_header(struct mail_state *m, const struct pp_tok *t, size_t n, int lineno)
{
	double x[MAIL_COLS];
	char named[RP_NAME_LEN];
	size_t j = 0;
	bool eq = mail_xt_named(t, n, x, named, sizeof(named));
	if (!eq) {
		while (j < n && !pp_tok_number(&t[j], NULL))
			j++;
		if (j > 2 || n - j < 3 || n - j > MAIL_COLS)
			return false;
		/* the name: words without digits ("clients", "BS(KB)", "# threads") */
		for (size_t k = 0; k < j; k++)
			for (size_t i = 0; i < t[k].len; i++)
				if (isdigit((unsigned char)t[k].s[i]))
					return false;
		for (size_t k = j; k < n; k++) {
			if (!pp_tok_number(&t[k], &x[k - j]))
				return false;
			if (k > j && !(x[k - j] > x[k - j - 1]))
				return false;
		}
	}
	m->xt_n = n - j;
	for (size_t k = 0; k < m->xt_n; k++) {
		m->xt_x[k] = x[k];
		m->xt_col[k] = t[j + k].col;
		m->xt_endcol[k] = t[j + k].endcol;
		m->xt_have_base[k] = m->xt_have_prev[k] = false;
	}
	m->xt_name[0] = '\0';
	if (eq)
		pp_strlcpy(m->xt_name, named, sizeof(m->xt_name));
	else if (j) {
		const char *a = t[0].s, *e = t[j - 1].s + t[j - 1].len;
		while (a < e && (*a == '#' || *a == ' '))
			a++;
		mail_metric_name(a, (size_t)(e - a), m->xt_name, sizeof(m->xt_name));
	}
	/* a title right above names the metric ("Write throughput (MB/s)"
	 * -> write_throughput; its unit went to the hints as it passed) */
	m->xt_metric[0] = '\0';
	if (m->prev_line[1] == lineno - 1 && m->prev[1][0])
		mail_title_metric(m->prev[1], 6, m->xt_metric, sizeof(m->xt_metric));
	m->xt = true;
	m->xt_blank = false;
	m->xt_rows = 0;
	m->xt_line = lineno;
	m->xt_hdr_last = m->nline;
	m->xt_split = m->xt_pend_n = 0;
	return true;
}

/* A row of a transposed table: its label cell, then one cell an x value
 * (by count, else by position).  A row named like a derived figure
 * ("%diff", "change") or made only of changes is checked against the last
 * label row and the first, never read as a label. */
static void mail_xt_apply(struct parser *p, struct mail_state *m, const char *label, const struct mail_cell *c,
			  size_t nc, const int *xi);

static bool mail_xt_row(struct parser *p, struct mail_state *m, const char *s, const struct pp_tok *t, size_t n)
{
	struct pp_tok lc[2];
	if (!pp_cells(s, lc, 2) || pp_tok_number(&lc[0], NULL) || lc[0].len >= RP_LABEL_LEN)
		return false;
	size_t k0 = 0;
	while (k0 < n && t[k0].col < lc[0].endcol)
		k0++;
	if (k0 == 0 || k0 == n)
		return false;
	struct mail_cell c[MAIL_COLS];
	size_t nc = mail_cells(t + k0, n - k0, c, MAIL_COLS);
	if (nc == (size_t)-1 || !nc)
		return false;
	int xi[MAIL_COLS];
	for (size_t k = 0; k < nc; k++) {
		if (nc == m->xt_n) {
			xi[k] = (int)k;
			continue;
		}
		int best = -1, bestd = 1 << 30;
		for (size_t i = 0; i < m->xt_n; i++) {
			int d = abs(c[k].endcol - m->xt_endcol[i]);
			if (d < bestd) {
				bestd = d;
				best = (int)i;
			}
		}
		xi[k] = bestd <= 4 ? best : -1;
		if (xi[k] < 0)
			return false;
	}
	/* "baseline:" is the label baseline */
	size_t ll = lc[0].len - (lc[0].s[lc[0].len - 1] == ':' && lc[0].len > 1);
	char label[RP_LABEL_LEN];
	snprintf(label, sizeof(label), "%.*s", (int)ll, lc[0].s);
	/* the header of the next table ("threads: 1 2 4" after a blank) */
	char lname[RP_NAME_LEN];
	mail_metric_name(label, strlen(label), lname, sizeof(lname));
	if (m->xt_name[0] && strcmp(lname, m->xt_name) == 0)
		return false;
	m->xt_blank = false;
	if (m->xt_split && nc == m->xt_split && nc < m->xt_n) {
		/* the mailer wrapped the row where it wrapped the header: the
		 * rest comes on the next line */
		pp_strlcpy(m->xt_pend_label, label, sizeof(m->xt_pend_label));
		memcpy(m->xt_pend, c, nc * sizeof(c[0]));
		m->xt_pend_n = nc;
		return true;
	}
	mail_xt_apply(p, m, label, c, nc, xi);
	return true;
}

/* The points (or the checks) of one row of a transposed table. */
static void mail_xt_apply(struct parser *p, struct mail_state *m, const char *label, const struct mail_cell *c,
			  size_t nc, const int *xi)
{
	bool derived = is_ignored_label(label, strlen(label)), values = false;
	for (size_t k = 0; k < nc; k++)
		values |= c[k].kind == MC_VALUE;
	if (derived || !values) {
		for (size_t k = 0; k < nc; k++) {
			int i = xi[k];
			if (c[k].kind == MC_NONE || !m->xt_have_base[i] || !m->xt_have_prev[i])
				continue;
			mail_check_change(p, m, m->xt_base[i], m->xt_bhalf[i], m->xt_prev[i], m->xt_phalf[i], c[k].text,
					  strlen(c[k].text), label);
		}
	} else {
		const char *x_name = m->xt_name[0] ? m->xt_name : (m->hint_x[0] ? m->hint_x : "x");
		const char *metric = m->xt_metric[0] ? m->xt_metric
				     : m->hint_metric[0] ? m->hint_metric : (m->bench[0] ? m->bench : "value");
		for (size_t k = 0; k < nc; k++) {
			int i = xi[k];
			mail_emit_cell(p, label, -1, x_name, m->xt_x[i], metric, &c[k], m->hint_unit);
			if (c[k].kind != MC_VALUE)
				continue;
			if (!m->xt_have_base[i]) {
				m->xt_have_base[i] = true;
				m->xt_base[i] = c[k].v;
				m->xt_bhalf[i] = c[k].half;
			} else {
				m->xt_have_prev[i] = true;
				m->xt_prev[i] = c[k].v;
				m->xt_phalf[i] = c[k].half;
			}
		}
	}
	if (!m->xt_rows++) {
		char what[160];
		snprintf(what, sizeof(what), "transposed table: x %s (%zu values); labels from the rows' first cells",
			 m->xt_name[0] ? m->xt_name : (m->hint_x[0] ? m->hint_x : "x"), m->xt_n);
		mail_tab_end(p, m);
		mail_tab_begin(m, 5, m->xt_line, what);
	}
	if (derived || !values) {
		/* said in the note: a derived row is no label */
		size_t l = strlen(m->tab_what);
		snprintf(m->tab_what + l, sizeof(m->tab_what) - l, "; derived row %s", label);
	}
	m->tab_rows++;
	m->tab_last = p->lineno;
	m->bench_stale = true;
}

/* A held wrapped row whose rest did not come: read as it is. */
static void mail_xt_flush(struct parser *p, struct mail_state *m)
{
	if (!m->xt_pend_n)
		return;
	int xi[MAIL_COLS];
	for (size_t k = 0; k < MAIL_COLS; k++)
		xi[k] = (int)k;
	size_t pn = m->xt_pend_n;
	m->xt_pend_n = 0;
	mail_xt_apply(p, m, m->xt_pend_label, m->xt_pend, pn, xi);
}

/* Lines the mailer wrapped in a transposed table: the rest of its header
 * (more x values, right under it, before any row), or the rest of a row
 * held by mail_xt_row.  A held row whose rest does not come is read as it
 * is, at the first x values. */
static bool mail_xt_cont(struct parser *p, struct mail_state *m, const struct pp_tok *t, size_t n)
{
	bool nums = n > 0;
	double dummy;
	for (size_t k = 0; k < n && nums; k++)
		nums = pp_tok_number(&t[k], NULL) || (t[k].len > 1 && mail_cell_value(&t[k], &dummy));
	if (m->xt_pend_n) {
		struct mail_cell c[MAIL_COLS];
		size_t nc = nums ? mail_cells(t, n, c, MAIL_COLS) : 0;
		size_t pn = m->xt_pend_n;
		int xi[MAIL_COLS];
		for (size_t k = 0; k < MAIL_COLS; k++)
			xi[k] = (int)k;
		m->xt_pend_n = 0;
		if (nc != (size_t)-1 && nc && pn + nc == m->xt_n) {
			struct mail_cell all[MAIL_COLS];
			memcpy(all, m->xt_pend, pn * sizeof(all[0]));
			memcpy(all + pn, c, nc * sizeof(all[0]));
			mail_xt_apply(p, m, m->xt_pend_label, all, m->xt_n, xi);
			return true;
		}
		m->xt_pend_n = pn;
		mail_xt_flush(p, m);
		return false;
	}
	if (m->xt_rows || m->xt_hdr_last + 1 != m->nline || !nums || m->xt_n + n > MAIL_COLS)
		return false;
	double x[MAIL_COLS];
	for (size_t k = 0; k < n; k++)
		if (!pp_tok_number(&t[k], &x[k]) || !(x[k] > (k ? x[k - 1] : m->xt_x[m->xt_n - 1])))
			return false;
	if (!m->xt_split)
		m->xt_split = m->xt_n;
	for (size_t k = 0; k < n; k++) {
		m->xt_x[m->xt_n] = x[k];
		m->xt_col[m->xt_n] = t[k].col;
		m->xt_endcol[m->xt_n] = t[k].endcol;
		m->xt_have_base[m->xt_n] = m->xt_have_prev[m->xt_n] = false;
		m->xt_n++;
	}
	m->xt_hdr_last = m->nline;
	return true;
}

/* --- runs per label: "Before:   1908944 1905870 1905322" ------------------ */

/* The figures of a "name: v1 v2 ... [unit] [(remark)]" line into c;
 * how many, 0 when the line is not one. */
static size_t mail_lr_cells(const char *s, struct mail_cell *c, size_t max, char *name, size_t nlen)
{
	struct pp_tok t[MAIL_COLS + 4];
	size_t n = pp_tokens(s, t, MAIL_COLS + 4);
	if (n < 2 || t[0].len < 2 || t[0].s[t[0].len - 1] != ':' || !isalpha((unsigned char)t[0].s[0]) ||
	    t[0].len - 1 >= nlen)
		return 0;
	/* a remark in brackets after the figures is not a cell */
	size_t e = n;
	for (size_t k = 1; k < n; k++)
		if (t[k].s[0] == '(') {
			e = k;
			break;
		}
	size_t nc = mail_cells(t + 1, e - 1, c, max);
	if (nc == (size_t)-1 || !nc)
		return 0;
	for (size_t k = 0; k < nc; k++)
		if (c[k].kind != MC_VALUE)
			return 0;
	snprintf(name, nlen, "%.*s", (int)t[0].len - 1, t[0].s);
	return nc;
}

static void mail_lr_emit(struct parser *p, struct mail_state *m, const char *name, const struct mail_cell *c, size_t nc)
{
	const char *metric = m->lr_metric[0]    ? m->lr_metric
			     : m->hint_metric[0] ? m->hint_metric : (m->bench[0] ? m->bench : "value");
	for (size_t k = 0; k < nc; k++)
		mail_emit_cell(p, name, -1, "run", 0, metric, &c[k], m->hint_unit);
	m->tab_rows++;
	m->tab_last = p->lineno;
}

/* A line of a runs-per-label table; the first such line is only kept (a
 * single "Before: 12 us" is prose), the second like it makes the table. */
static bool mail_lr_row(struct parser *p, struct mail_state *m, const char *s)
{
	struct mail_cell c[MAIL_COLS];
	char name[RP_LABEL_LEN];
	/* "Content-Length: 1234" over "Lines: 42" is a mail header */
	size_t nc = m->headers == 1 ? 0 : mail_lr_cells(s, c, MAIL_COLS, name, sizeof(name));
	if (!nc) {
		m->lr_prev[0] = '\0';
		return false;
	}
	if (m->lr) {
		if (nc != m->lr_k)
			return false;
		mail_lr_emit(p, m, name, c, nc);
		return true;
	}
	if (m->lr_prev[0] && m->lr_prev_n + 1 == m->nline) {
		struct mail_cell pc[MAIL_COLS];
		char pname[RP_LABEL_LEN];
		size_t pn = mail_lr_cells(m->lr_prev, pc, MAIL_COLS, pname, sizeof(pname));
		if (pn == nc) {
			/* a short title right above the first row names the table
			 * ("Visionfive2 (StarFive JH7110 / U74)": the machine) */
			m->lr_metric[0] = '\0';
			if (m->prev_line[0] && m->prev_line[1] == m->lr_prev_line && !m->prev_gap[1] && m->prev[0][0]) {
				mail_title_metric(m->prev[0], 4, m->lr_metric, sizeof(m->lr_metric));
			}
			char what[160];
			snprintf(what, sizeof(what), "runs per label: %zu figures a row, label from the row's name, x run%s%s",
				 nc, m->lr_metric[0] ? "; metric " : "", m->lr_metric);
			mail_tab_end(p, m);
			mail_tab_begin(m, 7, m->lr_prev_line, what);
			m->lr = true;
			m->lr_k = nc;
			int now = p->lineno;
			p->lineno = m->lr_prev_line;
			mail_lr_emit(p, m, pname, pc, pn);
			p->lineno = now;
			mail_lr_emit(p, m, name, c, nc);
			m->lr_prev[0] = '\0';
			return true;
		}
	}
	pp_strlcpy(m->lr_prev, s, sizeof(m->lr_prev));
	m->lr_prev_line = p->lineno;
	m->lr_prev_n = m->nline;
	return false;
}

/* --- rows named by their label: "Kernel [runs] Time CPU% ... Ratio" over
 * "2.5.70-mm2  1  78  94.9 ..." (contest); the columns are the metrics -- */

static bool mail_lt_row(struct parser *p, struct mail_state *m, const char *s, const struct pp_tok *t, size_t n)
{
	struct pp_tok lc[2];
	if (n < 3 || !pp_cells(s, lc, 2) || pp_tok_number(&lc[0], NULL) || lc[0].len >= RP_LABEL_LEN)
		return false;
	size_t k0 = 0;
	while (k0 < n && t[k0].col < lc[0].endcol)
		k0++;
	if (!m->lt) {
		/* a label (a kernel, "vanilla", "with patch") over its figures,
		 * under a header of names right above it */
		if (!mail_labelish(lc[0].s, lc[0].len) || m->gap_now || is_rule(m->prev[1]))
			return false;
		/* the header names every column ("Kernel [runs] Time ..."), or
		 * only the value columns, indented past the labels ("workload1
		 * workload2", "2000 files by 1M  200 files by 10M") */
		struct pp_tok h[MAIL_COLS + 1];
		size_t hn = pp_tokens(m->prev[1], h, MAIL_COLS + 1);
		size_t off = hn && h[0].col >= lc[0].endcol;
		if (hn + off != n)
			hn = pp_cells(m->prev[1], h, MAIL_COLS + 1);
		off = hn && h[0].col >= lc[0].endcol;
		if (hn + off < 3 || hn + off > MAIL_COLS || k0 != 1 || hn + off != n)
			return false;
		for (size_t i = 0; i < hn; i++) {
			char last = h[i].s[h[i].len - 1];
			if (pp_tok_number(&h[i], NULL) || h[i].len > 20 || last == ':' || last == ',' || last == '.')
				return false;
		}
		/* the title over the header ("no_load:") names the table; a short
		 * one a blank line above it too, and its "(files/sec)" is the unit */
		char title[RP_NAME_LEN] = "";
		m->lt_unit[0] = '\0';
		if (m->prev[0][0] && m->prev_line[0]) {
			struct pp_tok tt[4];
			size_t tn = pp_tokens(m->prev[0], tt, 4);
			/* "(transactions/sec)": "/sec" is written "/s" */
			const char *par = strchr(m->prev[0], '(');
			const char *cl = par ? strchr(par, ')') : NULL;
			size_t ul = cl && cl > par + 1 ? (size_t)(cl - par - 1) : 0;
			if (ul > 4 && strncmp(cl - 4, "/sec", 4) == 0)
				ul -= 2;
			bool unit = ul && ul < RP_UNIT_LEN && memchr(par, '/', ul);
			if (tn && tn <= 3 && (!m->prev_gap[1] || unit) && mail_title_metric(m->prev[0], 3, title, 16)) {
				if (unit)
					snprintf(m->lt_unit, sizeof(m->lt_unit), "%.*s", (int)ul, par + 1);
			}
		}
		char what[160];
		size_t o = (size_t)snprintf(what, sizeof(what), "label rows%s%s%s: metrics", title[0] ? " (" : "", title,
					    title[0] ? "_*)" : "");
		/* h[i] names the row's cell i + off */
		for (size_t i = 1 - off; i < hn; i++) {
			size_t ri = i + off;
			m->lt_role[ri] = h[i].s[0] == '[' ? 1 : is_ignored_label(h[i].s, h[i].len) ? 2 : 0;
			char name[RP_NAME_LEN];
			mail_metric_name(h[i].s, h[i].len, name, sizeof(name));
			snprintf(m->lt_metric[ri], RP_NAME_LEN, "%s%s%.*s", title, title[0] ? "_" : "",
				 (int)(RP_NAME_LEN - 2 - strlen(title)), name);
			if (m->lt_role[ri] == 0 && o < sizeof(what))
				o += (size_t)snprintf(what + o, sizeof(what) - o, " %s", name);
		}
		for (size_t i = 1 - off; i < hn && o < sizeof(what); i++)
			if (m->lt_role[i + off])
				o += (size_t)snprintf(what + o, sizeof(what) - o, "; %.*s skipped (%s)", (int)h[i].len, h[i].s,
						      m->lt_role[i + off] == 1 ? "a count"
									       : "derived, from nothing in this table");
		if (m->lt_unit[0] && o < sizeof(what))
			snprintf(what + o, sizeof(what) - o, "; unit %s", m->lt_unit);
		m->lt_n = hn + off;
		mail_tab_end(p, m);
		mail_tab_begin(m, 6, m->prev_line[1] ? m->prev_line[1] : p->lineno, what);
		m->lt = true;
	}
	if (k0 != 1 || n != m->lt_n)
		return false;
	struct mail_cell c[MAIL_COLS];
	size_t nc = mail_cells(t + 1, n - 1, c, MAIL_COLS);
	if (nc != n - 1)
		return false;
	char label[RP_LABEL_LEN];
	snprintf(label, sizeof(label), "%.*s", (int)lc[0].len, lc[0].s);
	for (size_t k = 0; k < nc; k++)
		if (m->lt_role[k + 1] == 0 && c[k].kind != MC_CHANGE)
			mail_emit_cell(p, label, -1, "run", 0, m->lt_metric[k + 1], &c[k],
				       m->lt_unit[0] ? m->lt_unit : m->hint_unit);
	m->tab_rows++;
	m->tab_last = p->lineno;
	m->bench_stale = true;
	return true;
}

static void mail_line_body(struct parser *p, struct mail_state *m, char *s, const struct pp_tok *t, size_t n);

/* The column table's description, made again only when what it says
 * changed (made at every row, it was a fifth of reading a mail). */
static void mail_old_describe(struct mail_state *m)
{
	m->old_what_fresh = true;
	size_t o = (size_t)snprintf(m->old_what, sizeof(m->old_what), "column table: x %s; labels", m->x_shown);
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
}

/* A label block's note starts at a label (and section) other than the
 * last one's. */
static void mail_old_block(struct parser *p, struct mail_state *m)
{
	char blk[RP_LABEL_LEN + 40];
	snprintf(blk, sizeof(blk), "%s%s%s", m->cur, m->section[0] ? " " : "", m->section);
	if (m->old_kind == 2 && strcmp(m->old_label, blk) == 0)
		return;
	mail_old_end(p, m);
	m->old_kind = 2;
	m->old_first = m->old_last = p->lineno;
	m->old_rows = 0;
	pp_strlcpy(m->old_label, blk, sizeof(m->old_label));
	snprintf(m->old_what, sizeof(m->old_what), "label block %s", blk);
	m->old_what_fresh = false;
}

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
		m->tab_mismatch = m->tab_checked = 0;
		return;
	}
	if (m->mode == MAIL_BLOCK)
		mail_old_block(p, m);
	if (m->old_kind == 1 && m->mode == MAIL_TABLE && got) {
		m->old_last = p->lineno;
		m->old_rows++;
		if (!m->old_what_fresh)
			mail_old_describe(m);
	} else if (m->old_kind == 2 && m->mode == MAIL_BLOCK && got) {
		m->old_last = p->lineno;
		m->old_rows++;
	}
	if (m->old_kind && m->mode != MAIL_TABLE && m->mode != MAIL_HEADER && m->mode != MAIL_BLOCK)
		mail_old_end(p, m);
}

/* Quoted text is read like the rest: the text after its "> " or ">> ". */
static char *mail_unquote(char *line)
{
	char *s = line;
	while (*s == '>' || (*s == ' ' && s[1] == '>'))
		s++;
	if (s != line && *s == ' ')
		s++;
	return s;
}

/* One line; tk[0..nt) its tokens after the quote marks, or NULL. */
static void mail_line_one(struct parser *p, char *line, const struct pp_tok *tk, size_t nt)
{
	struct mail_state *m = p->st;
	m->nline++;
	/* a file that starts like a mail ("From: ...", "Subject: ...") has a
	 * header block up to its first blank line */
	if (!m->headers) {
		size_t w = strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-");
		m->headers = (w && line[w] == ':') || strncmp(line, "From ", 5) == 0 ? 1 : 2;
	} else if (m->headers == 1 && !line[strspn(line, " \t\r")])
		m->headers = 2;
	char *s = mail_unquote(line);
	/* "1.00 [ -9.11](11.93)": a change and a spread written together */
	char sep[PARSER_LINE_MAX + 1];
	if (strstr(s, "](")) {
		size_t o = 0;
		for (const char *q = s; *q && o + 2 < sizeof(sep); q++) {
			sep[o++] = *q;
			if (q[0] == ']' && q[1] == '(')
				sep[o++] = ' ';
		}
		sep[o] = '\0';
		s = sep;
		tk = NULL;
	}
	struct pp_tok tb[24];
	const struct pp_tok *t = tk ? tk : tb;
	size_t n = tk ? nt : pp_tokens(s, tb, 24);
	size_t tl;
	const char *ts = pp_trim(s, &tl);
	bool consumed = false;
	if (n == 1 && t[0].len > 1 && t[0].len < RP_LABEL_LEN && t[0].s[t[0].len - 1] == ':' &&
	    isalpha((unsigned char)t[0].s[0])) {
		snprintf(m->colon_label, sizeof(m->colon_label), "%.*s", (int)t[0].len - 1, t[0].s);
	}
	if (n == 0) {
		mail_xt_flush(p, m);
		/* one blank line between the rows of a transposed table is kept */
		bool keep_xt = m->xt && m->xt_rows && !m->xt_blank;
		m->colon_label[0] = '\0';
		m->mm = m->pipe = m->lkp = m->kt = m->lt = m->lr = false;
		m->lr_prev[0] = '\0';
		m->xt = keep_xt;
		m->xt_blank = keep_xt;
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
	} else if ((m->lt || m->mode == MAIL_NONE || m->mode == MAIL_HEADER) && mail_lt_row(p, m, s, t, n)) {
		consumed = true;
	} else if (m->xt && mail_xt_cont(p, m, t, n)) {
		consumed = true;
	} else if (m->xt && mail_xt_row(p, m, s, t, n)) {
		consumed = true;
	} else if (!m->xt && m->mode == MAIL_NONE && !m->mm && !m->pipe && !m->kt &&
		   !m->lkp && mail_xt_header(m, t, n, p->lineno)) {
		consumed = true;
	} else if ((m->mode == MAIL_NONE || m->mode == MAIL_HEADER) && mail_kt_row(p, m, t, n)) {
		consumed = true;
	} else if ((m->lr || (m->mode == MAIL_NONE && !m->mm && !m->pipe && !m->kt && !m->lkp && !m->xt)) &&
		   mail_lr_row(p, m, s)) {
		consumed = true;
	} else {
		m->pending_setting[0] = '\0';
		if (!is_rule(s)) {
			mail_xt_flush(p, m);
			m->mm = m->kt = m->xt = m->lt = m->lr = false;
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
		      (m->tab_kind == 4 && m->kt) || (m->tab_kind == 5 && m->xt) || (m->tab_kind == 6 && m->lt) ||
		      (m->tab_kind == 7 && m->lr);
	bool bad_now = m->bad_first && m->bad_last == p->lineno;
	if ((m->tab_kind && !active) || (m->bad_first && !bad_now))
		mail_tab_end(p, m);
	if (n)
		m->gap_now = false;
}

/* --- what the mailer did to the lines ---------------------------------- */

static int mail_hex(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A quoted-printable line into out: "=3D" is "=", "=C2=B1" is "±"; a "="
 * at the end is a soft line break (*soft: the line goes on in the next). */
static size_t mail_qp_decode(const char *s, size_t len, char *out, size_t cap, bool *soft)
{
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	*soft = len && s[len - 1] == '=';
	if (*soft)
		len--;
	size_t o = 0;
	for (size_t i = 0; i < len && o + 1 < cap; i++) {
		int h, l;
		if (s[i] == '=' && i + 2 < len && (h = mail_hex(s[i + 1])) >= 0 && (l = mail_hex(s[i + 2])) >= 0) {
			char ch = (char)(h * 16 + l);
			out[o++] = ch == '\r' || ch == '\n' ? ' ' : ch;
			i += 2;
		} else
			out[o++] = s[i];
	}
	out[o] = '\0';
	return o;
}

/* The body is quoted-printable: its header says so, or a line shows it
 * ("=3D", "=C2=B1", a "=20" that ends a line). */
static void mail_qp_detect(struct mail_state *m, const char *line, size_t len)
{
	if (strncasecmp(line, "Content-Transfer-Encoding:", 26) == 0) {
		m->qp = strcasestr(line + 26, "quoted-printable") != NULL;
		return;
	}
	if (!m->qp && (strstr(line, "=3D") || strstr(line, "=C2=B1") ||
		       (len >= 3 && (strcmp(line + len - 3, "=20") == 0 || strcmp(line + len - 3, "=09") == 0))))
		m->qp = true;
}

/* What a row's last token is: a number (0), a change or a closing
 * bracket ("-0.07%*", "0.00%)", "|") (1), a name (2). */
static int mail_tok_kind(const struct pp_tok *t)
{
	if (pp_tok_number(t, NULL))
		return 0;
	char last = t->s[t->len - 1];
	if (memchr(t->s, '%', t->len) || last == ')' || last == '*' || last == '|')
		return 1;
	return 2;
}

static bool mail_table_open(const struct mail_state *m)
{
	return m->mm || m->pipe || m->lkp || m->kt || m->xt || m->lt || m->mode == MAIL_TABLE;
}

/* One whole line: remember how many tokens a line that gave points had
 * (the rows of the table being read).  tk[0..nt): its tokens after the
 * quote marks when the caller has them (NULL: made here). */
static void mail_line_counted(struct parser *p, struct mail_state *m, char *line, const struct pp_tok *tk, size_t nt)
{
	struct pp_tok tb[24];
	const struct pp_tok *t = tk ? tk : tb;
	size_t n = tk ? nt : pp_tokens(mail_unquote(line), tb, 24);
	unsigned long before = p->n_final;
	mail_line_one(p, line, t, n);
	if (!n)
		m->row_ntok = 0;
	else if (p->n_final > before) {
		m->last_points_line = p->lineno;
		m->row_ntok = n;
		m->row_last_kind = mail_tok_kind(&t[n - 1]);
	}
}

/* A row the mailer wrapped at 72-78 columns comes as a long line with too
 * few tokens and a line with the rest: when the two add up to the tokens
 * of the row above, they are read as one. */
/* A |-table row and the line under it that holds only the spreads of its
 * figures ("|     1 |  10.96  |" over "|       | (0.497) |"): one row with
 * cells "10.96 (0.497)", into out. */
static bool mail_pipe_spread_join(const char *row, const char *under, char *out, size_t cap)
{
	struct pp_tok a[MAIL_COLS + 1], b[MAIL_COLS + 1];
	char ra[PARSER_LINE_MAX + 1];
	/* mail_pipe_cells may point into a buffer of its own: copy the row's cells first */
	pp_strlcpy(ra, mail_unquote((char *)row), sizeof(ra));
	size_t na = mail_pipe_cells(ra, a, MAIL_COLS + 1);
	char rb[PARSER_LINE_MAX + 1];
	pp_strlcpy(rb, under, sizeof(rb));
	if (na < 2 || !strchr(rb, '|') || !strchr(ra, '|') || !pp_tok_number(&a[0], NULL))
		return false;
	char cells[MAIL_COLS + 1][128];
	for (size_t i = 0; i < na; i++)
		snprintf(cells[i], sizeof(cells[i]), "%.*s", (int)a[i].len, a[i].s);
	size_t nb = mail_pipe_cells(rb, b, MAIL_COLS + 1);
	if (nb != na || b[0].len)
		return false;
	size_t any = 0;
	for (size_t i = 1; i < nb; i++) {
		double d;
		char num[40];
		if (!b[i].len)
			continue;
		if (b[i].len < 3 || b[i].len >= sizeof(num) || b[i].s[0] != '(' || b[i].s[b[i].len - 1] != ')')
			return false;
		snprintf(num, sizeof(num), "%.*s", (int)b[i].len - 2, b[i].s + 1);
		if (!pp_is_number(num, &d))
			return false;
		size_t l = strlen(cells[i]);
		snprintf(cells[i] + l, sizeof(cells[i]) - l, " %.*s", (int)b[i].len, b[i].s);
		any++;
	}
	if (!any)
		return false;
	size_t o = 0;
	for (size_t i = 0; i < na && o < cap; i++)
		o += (size_t)snprintf(out + o, cap - o, "| %s ", cells[i]);
	if (o < cap)
		snprintf(out + o, cap - o, "|");
	return o < cap;
}

static void mail_line_unwrap(struct parser *p, struct mail_state *m, char *line)
{
	struct pp_tok t[24];
	char *s = mail_unquote(line);
	size_t n = pp_tokens(s, t, 24);
	if (m->have_held) {
		m->have_held = false;
		char joined[PARSER_LINE_MAX + 1];
		if (m->pipe && mail_pipe_spread_join(m->held, s, joined, sizeof(joined))) {
			m->joined++;
			mail_line_counted(p, m, joined, NULL, 0);
			return;
		}
		size_t hl = strlen(m->held);
		/* the rest of the row: as many tokens as the row above lacks, or
		 * (the first row of a table) a short tail of figures ("* -0.07%*") */
		bool tail = n && n <= 2 && strlen(s) < 20 && m->held_nums >= 2;
		for (size_t i = 0; i < n && tail; i++)
			tail = pp_tok_number(&t[i], NULL) || memchr(t[i].s, '%', t[i].len) ||
			       (t[i].len == 1 && (t[i].s[0] == '*' || t[i].s[0] == '('));
		if (n && ((m->held_short && m->held_n + n == m->row_ntok) || tail) && hl + 1 + strlen(s) <= PARSER_LINE_MAX) {
			m->held[hl] = ' ';
			memcpy(m->held + hl + 1, s, strlen(s) + 1);
			m->joined++;
			mail_line_counted(p, m, m->held, NULL, 0);
			return;
		}
		int now = p->lineno;
		p->lineno = m->held_line;
		mail_line_counted(p, m, m->held, NULL, 0);
		p->lineno = now;
	}
	size_t nums = 0;
	for (size_t i = 0; i < n; i++)
		nums += pp_tok_number(&t[i], NULL);
	/* short of a row: fewer tokens than the rows above, and not ending
	 * like them (a complete robot row ends with its name, a mmtests row
	 * with its change cell) */
	bool short_row = n && n < m->row_ntok && mail_table_open(m) && mail_tok_kind(&t[n - 1]) != m->row_last_kind;
	/* a |-table row is held too: the line under it may hold its spreads */
	bool pipe_row = m->pipe && n >= 3 && t[0].len == 1 && t[0].s[0] == '|' && pp_tok_number(&t[1], NULL);
	if (n && ((strlen(line) >= 60 && (short_row || nums >= 2)) || pipe_row)) {
		m->held_nums = nums;
		m->held_short = short_row;
		pp_strlcpy(m->held, line, sizeof(m->held));
		m->held_n = n;
		m->held_line = p->lineno;
		m->have_held = true;
		return;
	}
	mail_line_counted(p, m, line, t, n);
}

static void mail_line(struct parser *p, char *line, size_t len, bool by_cr, bool truncated)
{
	struct mail_state *m = p->st;
	(void)by_cr;
	(void)truncated;
	mail_qp_detect(m, line, len);
	if (!m->qp) {
		mail_line_unwrap(p, m, line);
		return;
	}
	bool soft;
	m->qp_len += mail_qp_decode(line, len, m->qp_acc + m->qp_len, sizeof(m->qp_acc) - m->qp_len, &soft);
	if (soft && m->qp_len + 1 < sizeof(m->qp_acc))
		return;
	m->qp_len = 0;
	mail_line_unwrap(p, m, m->qp_acc);
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
			pp_strlcpy(p->setting, m->section, sizeof(p->setting));
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
	char xword[RP_NAME_LEN];
	bool in_table = (m->mode == MAIL_HEADER || m->mode == MAIL_TABLE) && n >= 2;
	if (in_table && !pp_tok_number(&t[0], NULL) && mail_x_cell(&t[0], &x, xword, sizeof(xword)) &&
	    mail_table_row(p, m, t, n, x, xword, NULL))
		return;
	if (in_table && t[0].len < 24 && isalpha((unsigned char)t[0].s[0])) {
		/* a row named by its metric: "Copy:", "Scale" */
		char rn[RP_NAME_LEN];
		mail_metric_name(t[0].s, t[0].len - (t[0].s[t[0].len - 1] == ':'), rn, sizeof(rn));
		if (mail_table_row(p, m, t, n, 0, NULL, rn))
			return;
	}
	if (pp_tok_number(&t[0], &x)) {
		size_t nums = 0;
		for (size_t k = 0; k < n; k++)
			nums += pp_tok_number(&t[k], NULL);
		if (in_table) {
			mail_table_row(p, m, t, n, x, NULL, NULL);
			return;
		}
		if (m->mode == MAIL_BLOCK && nums == n && n >= 3) {
			mail_iozone_row(p, m, t, n);
			return;
		}
		/* prose that starts with a number ("16 threads, reads from 4k
		 * file(s), mean MiB/s (StdDev)") gives the unit of the figures */
		if (m->mode == MAIL_NONE && nums * 2 < n)
			mail_hint_unit(m, s);
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
	mail_hints(m, s, p->lineno);
	if (m->mode == MAIL_TABLE || m->mode == MAIL_HEADER)
		m->mode = MAIL_NONE;
	if (n >= 4) {
		m->cur[0] = '\0';
		m->mode = MAIL_NONE;
	}
}

static void mail_finish(struct parser *p)
{
	struct mail_state *m = p->st;
	if (m->have_held) {
		m->have_held = false;
		mail_line_counted(p, m, m->held, NULL, 0);
	}
	if (m->qp_len) {
		m->qp_len = 0;
		mail_line_counted(p, m, m->qp_acc, NULL, 0);
	}
	mail_xt_flush(p, m);
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
