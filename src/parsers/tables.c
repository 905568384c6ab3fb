/* The table reader of issue 28: any result table a person wrote, read in
 * two stages.  Stage 1 is geometry only: the body is put back as it was
 * written (quoted-printable decoded, soft breaks joined, quote marks taken
 * off, tabs expanded), each line cut into cells at the blanks, the cells
 * typed (value, value with unit, spread, stated change, missing, word), the
 * runs of data rows found, and their columns taken from the blanks that run
 * down every row.  Stage 2 gives the roles: which cells key a row (the
 * statistic, x, a name), which columns hold what is compared and which are
 * derived (a change, a ratio: never runs), and where the label, x and
 * metric come from (the header over the columns, the title above the
 * table, the row's own name).  When the roles cannot be decided, the table
 * is said (its lines, why) and nothing is taken from it.
 *
 * Whole input is held (bounded: TB_LINES lines of TB_W columns; past that
 * the lines held are read and the next ones start a new chunk), as a
 * table's header and title come before its rows.
 *
 * This file is the parser: lines in, held, read at the end.  The stages,
 * in the order a table meets them (tables_internal.h declares what they
 * share):
 *   tables_text.c     stage 0: quoted-printable, quote marks, tabs, wrapping
 *   tables_cells.c    stage 1: a line's cells and their kinds; is it a row
 *   tables_find.c     where tables are, their header lines, title, prose;
 *                     the order of the passes (tables_read_lines)
 *   tables_tools.c    dbench, bonnie++, iozone lines in a post: their readers
 *   tables_columns.c  a table's columns and the header's names on them
 *   tables_roles.c    stage 2: labels, x, statistic, metric, transposed
 *   tables_read.c     a table's points, cell by cell
 *   tables_explain.c  each table's note (--explain), stated changes checked
 *   tables_words.c    the words the stages go by (statistics, x, labels) */
#include <stdlib.h>
#include <string.h>
#include "tables_internal.h"

static void tb_line(struct parser *p, char *line, size_t len, bool by_cr, bool truncated)
{
	(void)by_cr;
	(void)truncated;
	struct tb_state *st = p->st;
	if (!st->ln) {
		st->ln = calloc(TB_LINES, sizeof(*st->ln));
		if (!st->ln)
			return;
	}
	if (st->in_header && len >= 25 && !strncasecmp(line, "Content-Transfer-Encoding:", 26)) {
		const char *v = line + 26;
		while (*v == ' ')
			v++;
		if (!strncasecmp(v, "quoted-printable", 16))
			st->qp = true;
	}
	if (!len)
		st->in_header = false;
	if (!st->qp && (strstr(line, "=3D") || strstr(line, "=C2=B1") || (len >= 3 && !strcmp(line + len - 3, "=20"))))
		st->qp = true;
	if (st->n >= TB_LINES - 1)
		tables_read_lines(p, st);
	if (st->qp)
		tables_store_qp_line(st, line, len, p->lineno);
	else
		tables_store_line(st, line, len, p->lineno);
}

static void tb_finish(struct parser *p)
{
	struct tb_state *st = p->st;
	if (st->npend) {
		tables_store_line(st, st->pend, st->npend, st->pend_no);
		st->npend = 0;
	}
	if (st->ln)
		tables_read_lines(p, st);
}

static void tb_init(struct parser *p)
{
	struct tb_state *st = p->st;
	st->in_header = true;
}

static void tb_fini(struct parser *p)
{
	struct tb_state *st = p->st;
	free(st->ln);
	st->ln = NULL;
}


const struct parser_ops parser_tables_ops = {
	.name = "tables",
	.state_size = sizeof(struct tb_state),
	.init = tb_init,
	.line = tb_line,
	.finish = tb_finish,
	.fini = tb_fini,
};


/* The same reader under the name "mail": what compare and import use for
 * a file that is no tool's output (a list post, a report pasted by hand). */
const struct parser_ops parser_mail_ops = {
	.name = "mail",
	.state_size = sizeof(struct tb_state),
	.init = tb_init,
	.line = tb_line,
	.finish = tb_finish,
	.fini = tb_fini,
};
