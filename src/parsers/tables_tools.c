/* The table reader's passes for lines that are no table of its own:
 * dbench's Throughput lines, bonnie++'s tables and CSV records and
 * iozone's auto-mode rows pasted without their header are read by their
 * tools' readers (as the tool prints them), and runs written one figure a
 * line under a label line.  Each runs before the tables are looked for
 * and blanks the lines it read, so that they are never read twice. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tables_internal.h"

/* dbench's final lines ("Throughput 1149.6 MB/sec  8 clients  8 procs
 * max_latency=303.666 ms", 1.x-3.x "... 16 procs", wrapped or not), each
 * under the label the nearest label line above gives.  Returns true when
 * the line was one (it is then no table row). */
static bool tb_dbench_line(struct parser *p, struct tb_state *st, int li, const char *label)
{
	double v, x, ml;
	const char *xn;
	int k = dbench_parse_final(st->ln[li].s, &v, &xn, &x, &ml);
	if (!k)
		return false;
	if (k == 2) {
		if (li + 1 >= st->n)
			return true;
		const char *nx = st->ln[li + 1].s;
		while (*nx == ' ')
			nx++;
		if (strncmp(nx, "procs", 5))
			return true;
		xn = "procs";
	}
	pp_emit(p, label, -1, xn, x, "throughput", v, "MB/s", RP_FINAL);
	if (isfinite(ml))
		pp_emit(p, label, -1, xn, x, "max_latency", ml, "ms", RP_FINAL);
	return true;
}

/* Is s a run of CSV fields (no blank, some commas)? */
static int tb_csv_fields(const char *s)
{
	int n = 1;
	for (; *s; s++) {
		if (*s == ' ')
			return 0;
		n += *s == ',';
	}
	return n;
}

/* A bonnie++ CSV record at line li, its mailer's wrapping undone (a
 * line cut anywhere, even inside a field: "+++,+" then "++++,+++"): the
 * lines that follow are joined while the record has fewer fields than
 * its version prints (1.0x: 27; 1.96, 1.97: 48; 1.98 on: 50).  Read
 * under label; returns the lines it took, 0 when it was none. */
static int tb_bonnie_csv(struct parser *p, struct tb_state *st, int li, const char *label)
{
	int n = tb_csv_fields(st->ln[li].s);
	if (n < 14)
		return 0;
	double ver;
	const char *s = st->ln[li].s;
	int want = 27;
	if (isdigit((unsigned char)s[0]) && sscanf(s, "%lf,", &ver) == 1)
		want = ver < 1.98 ? 48 : 50;
	char buf[4 * TB_W + 1];
	pp_strlcpy(buf, s, sizeof(buf));
	size_t k = strlen(buf);
	int used = 1;
	while (n < want && li + used < st->n && st->ln[li + used].s[0] && used < 4) {
		const char *nx = st->ln[li + used].s;
		int m = tb_csv_fields(nx);
		if (!m || k + strlen(nx) >= sizeof(buf))
			break;
		pp_strlcpy(buf + k, nx, sizeof(buf) - k);
		k += strlen(buf + k);
		n += m - 1;
		used++;
	}
	if (n > want || !bonnie_csv_record(p, buf, label[0] ? label : NULL, NULL, 0))
		return 0;
	return used;
}

static void tb_dbench_note(struct parser *p, int first, int last, int n, const char *label)
{
	pp_note(p, first, last, true, "lines %d-%d: %d dbench Throughput lines under label %s", first, last, n,
		label[0] ? label : "of the file");
}

/* Benchmark lines that are no table: dbench's, under their labels, and
 * bonnie++'s tables (as mail.c: under the file's label) and CSV records
 * (where no table of the same run was read just above); blanked once
 * read, so that they are no table row. */
void tables_read_tool_lines(struct parser *p, struct tb_state *st)
{
	/* the last line a bonnie++ table gave points from, the last blank line */
	int table_read = -2, blank = -1, ncsv = 0;
	char label[RP_LABEL_LEN] = "";
	int nd = 0, nb = 0, nbu = 0, bu_first = 0, bu_last = 0;
	int dn = 0, dfirst = 0, dlast = 0;   /* the block of dbench lines being read */
	char dlabel[RP_LABEL_LEN] = "";
	bool in_bonnie = false;
	struct pp_title tt = { 0 };
	for (int li = 0; li < st->n; li++) {
		/* a label line: "2.4.16:", or underlined ("Kernel 2.5.43" over "====") */
		size_t n = strlen(st->ln[li].s);
		if (tables_line_is_label(st, li) && !strstr(st->ln[li].s, "Throughput") &&
		    (st->ln[li].s[n - 1] == ':' || (li + 1 < st->n && tables_is_rule(st->ln[li + 1].s))))
			tables_make_title_label(st->ln[li].s, label, sizeof(label));
		/* a title as the tool readers take one over a run (a markdown
		 * heading, a line underlined with '=' or '-', however long:
		 * "libata-dev-2.6<TABs>P3 800, Sil3112 rev 02, ST3120026AS");
		 * cut with a hash of it when it does not fit a label */
		else if (pp_title_line(&tt, st->ln[li].s, n) && !strstr(tt.title, "Throughput"))
			pp_label_join(label, sizeof(label), "", tt.title);
		if (!st->ln[li].s[0])
			blank = li;
		/* prose after the labelled lines ("bonnie++ numbers seem largely
		 * unchanged between kernels"): the label line above labels no
		 * more */
		if (st->ln[li].s[0] && !in_bonnie && tables_is_prose_line(st->ln[li].s))
			label[0] = 0;
		int csv = 0;
		if (tb_dbench_line(p, st, li, label)) {
			st->ln[li].s[0] = 0;
			/* one note a label's block of Throughput lines */
			if (nd && strcmp(dlabel, label)) {
				tb_dbench_note(p, dfirst, dlast, dn, dlabel);
				dn = 0;
			}
			if (!dn++)
				dfirst = st->ln[li].no;
			/* a wrapped line's "procs" on the next line is the line's */
			dlast = st->ln[li].no + (li + 1 < st->n && !strncmp(st->ln[li + 1].s + strspn(st->ln[li + 1].s, " "), "procs", 5));
			pp_strlcpy(dlabel, label, sizeof(dlabel));
			nd++;
		} else if (table_read < blank && (csv = tb_bonnie_csv(p, st, li, label)) > 0) {
			/* the run's precise record, its table not read above */
			for (int k = 0; k < csv; k++)
				st->ln[li + k].s[0] = 0;
			li += csv - 1;
			ncsv++;
			in_bonnie = false;
		} else {
			unsigned long before = p->n_final;
			/* a bonnie++ table runs from its banner to a blank line */
			in_bonnie = in_bonnie && st->ln[li].s[0];
			if (bonnie_table_line(p, &st->bt, st->ln[li].s, label[0] ? label : NULL, NULL)) {
				st->ln[li].s[0] = 0;
				nb++;
				in_bonnie = true;
				if (p->n_final != before)
					table_read = li;
			} else if (in_bonnie) {
				/* inside a bonnie++ table, a line its reader could not
				 * place (a mailer cut it): no table of ours either */
				if (!nbu++)
					bu_first = st->ln[li].no;
				bu_last = st->ln[li].no;
				st->ln[li].s[0] = 0;
			}
		}
	}
	if (nbu)
		pp_note(p, bu_first, bu_last, false,
			"lines %d-%d: %d lines inside bonnie++ tables that do not fit its columns (wrapped?): not read",
			bu_first, bu_last, nbu);
	if (dn)
		tb_dbench_note(p, dfirst, dlast, dn, dlabel);
	if (nb)
		pp_note(p, st->ln[0].no, st->ln[st->n - 1].no, true, "%d lines of bonnie++ tables, read as bonnie++ prints them", nb);
	if (ncsv)
		pp_note(p, st->ln[0].no, st->ln[st->n - 1].no, true,
			"%d bonnie++ CSV records, each under the label line above it", ncsv);
}

/* Runs a figure a line under the line that names them ("Before:" over
 * "  1908944" lines): two or more such lines, nothing else on them, each
 * one run of that label. */
void tables_read_run_lines(struct parser *p, struct tb_state *st)
{
	struct tb_row *r = &st->rows[1];
	for (int li = 0; li + 2 < st->n; li++) {
		const char *s = st->ln[li].s;
		size_t n = strlen(s);
		if (!n || s[n - 1] != ':' || !tables_line_is_title(st, li))
			continue;
		int j = li + 1, depth = st->ln[li].depth;
		if (j < st->n && !st->ln[j].s[0])
			j++;
		int first = j;
		while (j < st->n && st->ln[j].depth == depth && tables_split_cells(st->ln[j].s, r) == 1 && r->c[0].kind == TB_VAL &&
		       isfinite(r->c[0].v))
			j++;
		if (j - first < 2)
			continue;
		char label[RP_LABEL_LEN];
		tables_make_title_label(s, label, sizeof(label));
		if (strchr(label, '%'))
			continue;
		for (int k = first; k < j; k++) {
			tables_split_cells(st->ln[k].s, r);
			pp_emit(p, label, -1, "run", 0, "value", r->c[0].v, r->c[0].unit, RP_FINAL);
			st->ln[k].s[0] = 0;
		}
		pp_note(p, st->ln[first].no, st->ln[j - 1].no, true, "lines %d-%d: %d runs of %s, a figure a line under it",
			st->ln[first].no, st->ln[j - 1].no, j - first, label);
		li = j - 1;
	}
}

/* Is v a power of two (iozone's sizes, in kB)? */
static bool tb_pow2(double v)
{
	if (!(v >= 1 && v <= 1e12) || v != floor(v))
		return false;
	unsigned long long u = (unsigned long long)v;
	return !(u & (u - 1));
}

/* iozone's auto-mode rows pasted without their header ("524288  4  59580
 * 60356"): a file size and a record size in kB, both powers of two, the
 * record no larger than the file, then the figures in iozone's column
 * order.  A line of such rows (2 or more, the same sizes' runs or a sweep)
 * is read as iozone prints it, under the title line above the rows and the
 * setting a "---- (5,10) - default" heading above that gives. */
static bool tb_iozone_row(struct tb_state *st, int li, struct tb_row *r)
{
	if (tables_split_cells(st->ln[li].s, r) < 3 || r->n > IOZONE_NCOLS + 2 || r->nval != r->n)
		return false;
	for (int k = 0; k < r->n; k++)
		if (r->c[k].kind != TB_VAL || r->c[k].unit[0] || r->c[k].name[0] || !isfinite(r->c[k].v))
			return false;
	return r->c[0].v >= 64 && tb_pow2(r->c[0].v) && r->c[1].v >= 4 && tb_pow2(r->c[1].v) &&
	       r->c[1].v <= r->c[0].v;
}

/* Each run of two or more such rows, read by iozone's reader and blanked. */
void tables_read_iozone_rows(struct parser *p, struct tb_state *st)
{
	struct tb_row *r = &st->rows[1];
	char setting[RP_LABEL_LEN] = "";
	for (int li = 0; li < st->n; li++) {
		const char *s = st->ln[li].s + strspn(st->ln[li].s, " ");
		size_t d = strspn(s, "-");
		if (d >= 3 && s[d] == ' ' && s[d + strspn(s + d, " ")] == '(') {
			const char *a = s + d + strspn(s + d, " ");
			size_t n = strcspn(a, ")");
			if (a[n] == ')')
				pp_strlcpy(setting, a, n + 2 < sizeof(setting) ? n + 2 : sizeof(setting));
			continue;
		}
		int first = li, j = li;
		while (j < st->n && st->ln[j].depth == st->ln[li].depth && tb_iozone_row(st, j, r))
			j++;
		if (j - first < 2)
			continue;
		/* the title: the nearest line above, past one blank line */
		int k = first - 1;
		if (k >= 0 && !st->ln[k].s[0])
			k--;
		char label[RP_LABEL_LEN] = "";
		if (k >= 0 && tables_line_is_title(st, k) && !tables_line_is_row(st, k)) {
			tables_trim_title(st->ln[k].s, label, sizeof(label));
			/* "2.6.24-rc2 #28 SMP PREEMPT": uname -r, then -v's build number */
			char *hash = strstr(label, " #");
			if (hash && isdigit((unsigned char)hash[2]))
				*hash = 0;
		}
		char keep[RP_LABEL_LEN];
		pp_strlcpy(keep, p->setting, sizeof(keep));
		pp_strlcpy(p->setting, setting, sizeof(p->setting));
		for (int q = first; q < j; q++) {
			tb_iozone_row(st, q, r);
			double v[IOZONE_NCOLS];
			int nv = 0;
			for (int c = 2; c < r->n; c++)
				v[nv++] = r->c[c].v;
			iozone_emit_row(p, label, -1, r->c[1].v, v, (size_t)nv, "KB/s");
			st->ln[q].s[0] = 0;
		}
		pp_strlcpy(p->setting, keep, sizeof(p->setting));
		pp_note(p, st->ln[first].no, st->ln[j - 1].no, true,
			"lines %d-%d: %d iozone rows without their header (file and record size in kB, then "
			"write, rewrite...), under %s%s%s",
			st->ln[first].no, st->ln[j - 1].no, j - first, label[0] ? label : "the file's label",
			setting[0] ? ", setting " : "", setting);
		li = j - 1;
	}
}
