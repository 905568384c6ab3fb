/* parsers, private: what the modules of the table reader share (tables.c
 * and tables_*.c: tables.c's first comment says which does what).  The
 * held lines, a row's typed cells, a found table's groups of columns and
 * its roles are one reader's state, passed from stage to stage; nothing
 * outside the reader includes this header. */
#ifndef IODASH_PARSERS_TABLES_INTERNAL_H
#define IODASH_PARSERS_TABLES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include "pinternal.h"

#define TB_LINES 2048
#define TB_W 320          /* display columns kept of a line */
#define TB_CELLS 48
#define TB_COLS 24
#define TB_ROWS 512
#define TB_KEYS 1024
#define TB_PM '\x01'      /* the ± sign, whatever its encoding was */

enum tb_kind { TB_WORD, TB_VAL, TB_CHG, TB_SPREAD, TB_MISS };

struct tb_cell {
	int col, end;         /* display columns [col, end) */
	enum tb_kind kind;
	double v;             /* TB_VAL: the value (NaN: out of range) */
	char unit[RP_UNIT_LEN];
	char text[64];
	char name[RP_NAME_LEN]; /* "IOPS" of IOPS=11.1k: the cell names its metric */
	int group;            /* the column group it falls in, -1 none */
	bool cut;             /* text longer than text[]: cut, so never a name */
	double spread;        /* TB_VAL: its stated spread ("± 18%", "(3.2)" after it) in its unit, NaN none */
};

struct tb_row {
	struct tb_cell c[TB_CELLS];
	int n;
	int nval, nword, nchg;
};

struct tb_line {
	char s[TB_W + 1];     /* one byte a display column */
	int no;               /* the input line it started on */
	int depth;            /* quote depth */
	unsigned char tab[TB_W / 8 + 1]; /* columns where a tab's blanks start: a cell ends there */
};

struct tb_state {
	struct tb_line *ln;   /* TB_LINES of them, allocated at the first line */
	int n;
	bool qp;              /* the body is quoted-printable */
	bool in_header;       /* still in the mail's header block */
	char pend[PARSER_LINE_MAX + 1]; /* a quoted-printable line cut by a soft break */
	size_t npend;
	int pend_no;
	struct tb_row rows[2]; /* scratch */
	int table_no;         /* the table being read, from 1 */
	struct tb_key { unsigned h; int table; } keys[TB_KEYS]; /* points' keys, by table */
	int nkeys;
	int longnames;        /* cells of the table being read left out: a name too long */
	char punit[RP_UNIT_LEN]; /* the unit the prose gives the table being read's bare figures */
	bool apart;           /* the table being read repeats an earlier one's keys: its points get "table N" */
	int pctlabels;        /* ... or a label with a '%' */
	struct bonnie_table bt; /* bonnie++'s tables are read by bonnie's reader */
};

struct tb_group {        /* a value column and the derived cells after it */
	int col, end;    /* span of the whole group */
	int vcol, vend;  /* span of its values */
	char head[RP_LABEL_LEN];
	bool derived;    /* a change/ratio column (or headed like one) */
	int nval, nchg;
	int pipefield;   /* in a |-table, the bar-separated field it is (-1 none) */
	char span[RP_LABEL_LEN]; /* the name an upper header line centres over it and its neighbours */
};

struct tb_table {
	int first, last;  /* indices into the held lines */
	int head[3];      /* header lines, -1 none */
	int nhead;
	int title;        /* -1 none */
	int rule;         /* a rule of dash runs between header and rows, -1 none */
	char ptitle[RP_LABEL_LEN]; /* from a block of "Test : tbench" lines above */
	char section[RP_NAME_LEN]; /* the heading of the section it is in ("~ hackbench ~") */
	bool spanned;     /* an upper header line's names span the columns: they are the labels */
	char setting[RP_LABEL_LEN]; /* "(SNC on)": the knob setting its rows ran under */
	bool robot;       /* the kernel test robot's %stddev %change table */
	bool derived_head; /* a header cell names a derived column */
	int misfit;       /* a header line (its index) with a name over two value columns, -1 none */
	struct tb_group g[TB_COLS];
	int ng;
	int keyend;       /* columns before this are the row's keys */
	int namecol, nameend; /* a key column of names and numbers ("6.1", "6.1+patch"): all names */
	int tailcol;      /* columns from this on name the row too */
	bool cv;          /* a head says its cells end in the coefficient of variation ("tip[pct imp](CV)") */
	/* what the prose right above says the figures are: "The first
	 * column is dbench clients.  The numbers are throughput in MB/sec." */
	char pxname[RP_NAME_LEN], pmetric[RP_NAME_LEN], punit[RP_UNIT_LEN];
	char pbench[RP_NAME_LEN]; /* "We also ran tbench on ...": the benchmark */
	char pxnear[RP_NAME_LEN]; /* "... up to ncpusx8 clients": x, from the paragraph right above */
};

/* What tables_read_table decided about a table: which column is x, where the
 * label, the metric and x's name come from. */
struct tb_roles {
	bool xcol;            /* a value column is x: group skip_before */
	int skip_before;      /* the groups before it are the test's settings */
	char keyhead[RP_NAME_LEN];
	char title[RP_LABEL_LEN];
	int labelled;         /* groups with a head, derived ones aside */
	bool head_labels;     /* the header names what is compared */
	bool transposed;      /* ... and holds x: the rows are the labels */
	bool rows_label;      /* under metric names, the rows name what is compared */
	bool label_words;     /* every row's first name is a label word or a version */
	bool heads_undecided; /* names over the columns and on the rows, neither said to be labels */
	char txname[RP_NAME_LEN], tmetric[RP_NAME_LEN], xname[RP_NAME_LEN];
	/* the benchmark the prose names: the metric's first name where the
	 * rows hold statistics ("Hmean 1"), not where they name the metric
	 * themselves ("randread 4k") */
	char bench[RP_NAME_LEN];
};

/* What was read from it, for its note. */
struct tb_said {
	int emitted, bad, settings, derived_rows, pct_heads, noheads, missing;
	int unlabelled;       /* cells under metric names in rows nothing names as labels */
	int nofig, nofig_line; /* cells where a figure stands that are none ("1.2e"), the first's line */
	int checked, wrong;   /* stated % changes checked against the values, those that do not fit */
	int wrong_line;       /* the first that does not fit: its line, what it says, what the values give */
	double wrong_said, wrong_got;
	bool wrong_ratio;     /* ... a ratio ("1.73x"), not a change in % */
	char metric[RP_NAME_LEN], unit[RP_UNIT_LEN], x[RP_NAME_LEN];
};

/* tables_text.c: the text as it was written (stage 0) */
void tables_store_line(struct tb_state *st, const char *s, size_t len, int no);
void tables_store_qp_line(struct tb_state *st, const char *s, size_t len, int no);
void tables_join_wrapped(struct tb_state *st);
void tables_cut_margin_notes(struct tb_state *st);

/* tables_cells.c: cells, their kinds, rows; cutting a line into words */
bool tables_is_unit(const char *w, size_t n);
size_t tables_parse_number(const char *s, size_t n, double *v, bool *suffixed);
int tables_split_cells(const char *s, struct tb_row *r);
bool tables_is_row(const struct tb_row *r, const char *s);
bool tables_is_rule(const char *s);
bool tables_next_cell(const char *s, int *i, int *a);
bool tables_next_word(const char *s, int *i, int *a);
bool tables_next_title_word(const char **q, char *w, size_t len, const char *trim);

/* tables_words.c: what a word names */
bool tables_is_stat_word(const char *w);
bool tables_is_derived_head(const char *h);
bool tables_is_statistic_head(const char *h);
bool tables_is_commit_id(const char *w, size_t n);
bool tables_has_commit_bracket(const char *h);
bool tables_is_metric_head(const char *h);
bool tables_names_x(const char *h);
bool tables_is_x_word(const char *h);
bool tables_is_version(const char *s);
void tables_make_metric_name(const char *s, char *out, size_t len);
void tables_trim_title(const char *s, char *out, size_t len);
void tables_make_title_label(const char *s, char *out, size_t len);
bool tables_is_run_word(const char *w);
bool tables_is_run_head(const char *h);
bool tables_is_label_word(const char *w);
bool tables_title_names_metric(const char *title);
bool tables_title_names_label(const char *title);
bool tables_is_bench_word(const char *w, char *out, size_t len);

/* tables_find.c: finding the tables; the passes */
bool tables_line_is_row(struct tb_state *st, int li);
bool tables_line_is_title(const struct tb_state *st, int li);
bool tables_line_is_label(const struct tb_state *st, int li);
bool tables_is_prose_line(const char *s);
bool tables_line_is_spreads(struct tb_state *st, int li);
void tables_read_lines(struct parser *p, struct tb_state *st);

/* tables_columns.c: a table's columns and the names over them */
bool tables_next_row(struct tb_state *st, const struct tb_table *t, int *li, struct tb_row *r);
int tables_find_columns(struct tb_state *st, const struct tb_table *t, int *cs, int *ce, int max);
int tables_count_kinds(struct tb_state *st, const struct tb_table *t, const int *cs, const int *ce, int nc,
		       int kind[][5]);
void tables_group_columns(struct tb_table *t, const int *cs, const int *ce, int nc, int kind[][5], int firstval);
int tables_find_rule_spans(const char *s, int *cs, int *ce, int max);
void tables_read_heads(struct tb_state *st, struct tb_table *t, char *keyhead, size_t klen);

/* tables_tools.c: tools' lines inside a post */
void tables_read_tool_lines(struct parser *p, struct tb_state *st);
void tables_read_run_lines(struct parser *p, struct tb_state *st);
void tables_read_iozone_rows(struct parser *p, struct tb_state *st);

/* tables_roles.c: the roles of a table's axes */
bool tables_compares_columns(const struct tb_table *t);
void tables_read_row_key(const struct tb_row *r, const struct tb_table *t, char *stat, size_t sl, char *name,
			 size_t nl, double *x, bool *has_x, char *xname, size_t xl);
bool tables_read_head_x(const char *h, double *v, char *xname, size_t xl);
void tables_find_x(struct tb_state *st, struct tb_table *t, int nrows, bool compares, struct tb_roles *ro);
void tables_decide_roles(struct tb_state *st, struct tb_table *t, struct tb_roles *ro);

/* tables_read.c: a table's points */
const struct tb_cell *tables_find_group_cell(const struct tb_row *r, const struct tb_group *g);
void tables_read_table(struct parser *p, struct tb_state *st, struct tb_table *t);

/* tables_explain.c: a table's note, stated changes checked */
void tables_check_changes(const struct tb_table *t, const struct tb_roles *ro, const struct tb_row *r, int lineno,
			  struct tb_said *said);
void tables_explain_table(struct parser *p, const struct tb_table *t, const struct tb_roles *ro,
			  const struct tb_said *said, int nrows, int first, int last);
void tables_check_derived_row(struct tb_state *st, const struct tb_table *t, struct tb_said *said);

#endif
