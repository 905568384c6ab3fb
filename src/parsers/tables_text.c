/* The table reader, stage 0: the text put back as its author wrote it,
 * before any cell is cut.  Mail hides the geometry the reader goes by:
 * quoted-printable turns "=" into "=3D" and cuts long lines with soft
 * breaks, quote marks shift every column by their depth, tabs stand for
 * as many blanks as the author's editor showed, a mailer wraps a long row
 * onto the next line, and authors write remarks in a row's margin.  Each
 * is undone here, so that the stages after see one row a line, one byte
 * a display column. */
#include <stdio.h>
#include <string.h>
#include "iodash/base/text.h"
#include "tables_internal.h"


/* Into out (TB_W + 1): the line with quote marks off, tabs expanded and
 * each character one column (UTF-8 sequences one byte: ± as TB_PM, others
 * '?'; a lone Latin-1 ± byte as TB_PM). */
void tables_store_line(struct tb_state *st, const char *s, size_t len, int no)
{
	if (!st->ln || st->n >= TB_LINES)
		return;
	struct tb_line *l = &st->ln[st->n++];
	l->no = no;
	l->depth = 0;
	size_t i = 0;
	/* quote marks: "> > ", ">>", "> " */
	for (;;) {
		size_t j = i;
		while (j < len && j < i + 1 && s[j] == ' ')
			j++;
		if (j < len && s[j] == '>') {
			l->depth++;
			i = j + 1;
			if (i < len && s[i] == ' ')
				i++;
			continue;
		}
		break;
	}
	int col = 0;
	memset(l->tab, 0, sizeof(l->tab));
	for (; i < len && col < TB_W; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\t') {
			l->tab[col / 8] |= (unsigned char)(1u << (col % 8));
			do
				l->s[col++] = ' ';
			while (col % 8 && col < TB_W);
		} else if (c == 0xC2 && i + 1 < len && (unsigned char)s[i + 1] == 0xB1) {
			l->s[col++] = TB_PM;
			i++;
		} else if (c >= 0xC0) {
			l->s[col++] = '?';
			while (i + 1 < len && ((unsigned char)s[i + 1] & 0xC0) == 0x80)
				i++;
		} else if (c == 0xB1) {
			l->s[col++] = TB_PM;
		} else if (c < 0x20 || c >= 0x7F) {
			l->s[col++] = ' ';
		} else {
			l->s[col++] = (char)c;
		}
	}
	l->s[col] = 0;
	/* a remark after the figures ("   # U: unwritten extent-moving") */
	char *hash = strstr(l->s, "  # ");
	if (hash && hash > l->s)
		col = (int)(hash - l->s);
	while (col > 0 && l->s[col - 1] == ' ')
		col--;
	l->s[col] = 0;
}

/* A quoted-printable line: decode =XX; a soft break (a last '=') waits for
 * the next line. */
void tables_store_qp_line(struct tb_state *st, const char *s, size_t len, int no)
{
	if (!st->npend)
		st->pend_no = no;
	bool soft = len && s[len - 1] == '=';
	if (soft)
		len--;
	for (size_t i = 0; i < len && st->npend < PARSER_LINE_MAX; i++) {
		int a, b;
		if (s[i] == '=' && i + 2 < len && (a = text_hex_digit(s[i + 1])) >= 0 && (b = text_hex_digit(s[i + 2])) >= 0) {
			st->pend[st->npend++] = (char)(a * 16 + b);
			i += 2;
		} else {
			st->pend[st->npend++] = s[i];
		}
	}
	if (soft)
		return;
	tables_store_line(st, st->pend, st->npend, st->pend_no);
	st->npend = 0;
}

/* A mailer's wrapping undone: a line of figures alone under a long keyed
 * row ("baseline:  4741691 ... 9868597" then " 9629383 ... 11040376") or
 * x row ("threads:  1 2 ... 10" then " 20 30 ... 80") is the rest of it. */
void tables_join_wrapped(struct tb_state *st)
{
	struct tb_row *r = &st->rows[1];
	for (int li = 1; li < st->n; li++) {
		const char *prev = st->ln[li - 1].s;
		size_t pl = strlen(prev);
		if (pl < 60 || st->ln[li].depth != st->ln[li - 1].depth || !st->ln[li].s[0])
			continue;
		tables_split_cells(st->ln[li].s, r);
		/* "* -0.07%*" alone under a long mmtests row: the row's last
		 * change, cut off by the mailer */
		bool changes = r->n >= 1 && r->nchg == r->n;
		if (!changes && (r->n < 2 || r->nval != r->n))
			continue;
		tables_split_cells(prev, r);
		size_t k0 = r->n ? strlen(r->c[0].text) : 0;
		if (changes ? r->nval < 2 || r->c[r->n - 1].kind != TB_VAL
			    : r->n < 3 || r->c[0].kind != TB_WORD || r->c[0].text[k0 - 1] != ':' || r->nval + 1 != r->n)
			continue;
		const char *rest = st->ln[li].s;
		while (*rest == ' ')
			rest++;
		if (pl + 2 + strlen(rest) > TB_W)
			continue;
		struct tb_line *l = &st->ln[li - 1];
		snprintf(l->s + pl, sizeof(l->s) - pl, "  %s", rest);
		memmove(&st->ln[li], &st->ln[li + 1], sizeof(st->ln[0]) * (size_t)(st->n - li - 1));
		st->n--;
		li--;
	}
}

/* A remark in a row's margin ("27.00 (-22.72 pct)    * Known to have run
 * to run", "4.30 (-1.89 pct)  <- verification"): after the figures, a mark
 * ('*', '<-', '#') and words only to the end.  The words are cut off (the
 * mark is kept: it flags the row, as a bare '*' does), so that the row is
 * a row of its table. */
void tables_cut_margin_notes(struct tb_state *st)
{
	struct tb_row *r = &st->rows[0];
	for (int li = 0; li < st->n; li++) {
		if (tables_split_cells(st->ln[li].s, r) < 4 || r->nval < 2)
			continue;
		int lastfig = -1;
		for (int k = 0; k < r->n; k++)
			if (r->c[k].kind != TB_WORD)
				lastfig = k;
		for (int k = lastfig + 1; k >= 1 && k + 1 < r->n; k++) {
			const char *m = r->c[k].text;
			if (strcmp(m, "*") && strcmp(m, "<-") && strcmp(m, "#") && strcmp(m, "<--"))
				continue;
			bool words = true;
			for (int q = k + 1; q < r->n; q++)
				words = words && r->c[q].kind == TB_WORD;
			if (words && r->c[k].end <= TB_W)
				st->ln[li].s[r->c[k].end] = 0;
			break;
		}
	}
}
