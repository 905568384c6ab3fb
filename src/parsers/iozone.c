/* iozone: the auto-mode table ("kB  reclen  write  rewrite ..."), where
 * tests that were not run leave blank cells (values are placed by their
 * right edge under the header), and throughput mode's "Children see
 * throughput for N initial writers = X kB/sec" lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pinternal.h"

const char *const iozone_metrics[IOZONE_NCOLS] = {
	"write", "rewrite", "read", "reread", "random_read", "random_write", "bkwd_read",
	"record_rewrite", "stride_read", "fwrite", "frewrite", "fread", "freread",
};

void iozone_emit_row(struct parser *p, const char *label, int run, double reclen_kb,
		     const double *v, size_t n, const char *unit)
{
	for (size_t i = 0; i < n && i < IOZONE_NCOLS; i++)
		if (!isnan(v[i]))
			pp_emit(p, label, run, "reclen_kb", reclen_kb, iozone_metrics[i], v[i], unit, RP_FINAL);
}

#define IOZONE_REPORT_COLS 32

struct iozone_state {
	char unit[RP_UNIT_LEN];
	int sizes_set;           /* "File size set to" lines: one a -s */
	int endcol[IOZONE_NCOLS + 2];
	size_t ncols;            /* header columns including kB and reclen; 0 = no header */
	bool table_rows;         /* rows of the auto-mode table were read */
	const char *report;      /* -R: the metric of the report being read, NULL none */
	double rec[IOZONE_REPORT_COLS]; /* -R: its record sizes (kB), from its header */
	size_t nrec;
	int reports_skipped;     /* -R reports that repeat the table read before */
	int zeros, zero_first;   /* -R cells of 0: record sizes not run, and the first one's line */
	int tp_noted;            /* -R's throughput-mode report, said once */
	bool cpu;                /* the report being read is a -+u CPU report */
	char cpu_metric[32];     /* its metric ("write_cpu_util") */
	int cpu_zeros, cpu_zero_first; /* its cells of 0, which iozone says to ignore */
	int uncut, uncut_first;  /* table cells of figures run together that could not be cut */
};

/* Older iozone (3.398's "%8ld" a figure) prints each figure right-aligned
 * in a fixed width, so one that fills its width runs into the figure
 * before it ("294214914044758": write 2942149, rewrite 14044758).  Such a
 * token is cut at the right edges of the header's column names, which
 * are the fields' edges for the 8-wide columns that can run together:
 * it must end on column c's edge, each piece but the first fill its
 * column from the edge before, none start with 0 (printf pads with
 * blanks) and the first one be a figure column's.  Else nothing of it is
 * read (never a guessed cut).  Fills v (and *nv); true when it was cut. */
static bool iozone_cut_cells(const struct iozone_state *z, const struct pp_tok *t, size_t c, double *v, size_t *nv)
{
	if (t->endcol != z->endcol[c] || (size_t)(t->endcol - t->col) != t->len)
		return false;
	double piece[IOZONE_NCOLS + 2];
	size_t j = c;
	for (int end = t->endcol;; j--) {
		int start = t->col > z->endcol[j - 1] ? t->col : z->endcol[j - 1];
		const char *s = t->s + (start - t->col);
		size_t n = (size_t)(end - start);
		if (j < 2 || !n || (start > t->col && s[0] == '0'))
			return false;
		char buf[24];
		if (n >= sizeof(buf))
			return false;
		memcpy(buf, s, n);
		buf[n] = 0;
		char *e;
		piece[j] = strtod(buf, &e);
		if (*e || strspn(buf, "0123456789") != n)
			return false;
		if (start == t->col)
			break;
		end = start;
	}
	for (size_t k = j; k <= c; k++)
		if (k - 2 < IOZONE_NCOLS) {
			v[k - 2] = piece[k];
			if (k - 1 > *nv)
				*nv = k - 1;
		}
	return true;
}

/* -R's report names (iozone's Excel output) and the table's metrics. */
static const char *iozone_report_metric(const char *name, size_t n)
{
	static const struct { const char *r, *m; } map[] = {
		{ "Writer", "write" }, { "Re-writer", "rewrite" }, { "Reader", "read" }, { "Re-reader", "reread" },
		{ "Random read", "random_read" }, { "Random write", "random_write" },
		{ "Backward read", "bkwd_read" }, { "Record rewrite", "record_rewrite" },
		{ "Stride read", "stride_read" }, { "Fwrite", "fwrite" }, { "Re-fwrite", "frewrite" },
		{ "Fread", "fread" }, { "Re-fread", "freread" }, { "Random mix", "mixed" },
		{ "Pwrite", "pwrite" }, { "Re-pwrite", "repwrite" }, { "Pread", "pread" }, { "Re-pread", "repread" },
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strlen(map[i].r) == n && !strncasecmp(map[i].r, name, n))
			return map[i].m;
	return NULL;
}

/* A token, its quotes off, as a number. */
static bool iozone_quoted_number(const struct pp_tok *t, double *v)
{
	struct pp_tok u = *t;
	if (u.len >= 2 && u.s[0] == '"' && u.s[u.len - 1] == '"') {
		u.s++;
		u.len -= 2;
	}
	return pp_tok_number(&u, v);
}

/* A row's label: the file's label where iozone said it ran one file size
 * (one "File size set to" line: iozone prints one a -s, and with several
 * -s runs each size), else the file size: auto mode over sizes, several
 * -s, or a table or -R report pasted without the lines above it, which
 * may hold several sizes (rows of two sizes are two files, never two runs
 * of one).  The table's rows and a -R report's get the same label. */
static void iozone_row_label(const struct parser *p, const struct iozone_state *z, double file_kb, char *label,
			     size_t n)
{
	if (z->sizes_set == 1)
		pp_strlcpy(label, p->label, n);
	else
		snprintf(label, n, "%.40s %.0fkB", p->label, file_kb);
}

/* -R's Excel report: '"Writer report"', a header of record sizes
 * ('"4"  "8"'), rows of a file size and a figure a record size
 * ('"64"  123456  234567').  Returns true when the line was one of it.
 * In a full output the reports repeat the auto-mode table above them:
 * then they are not read again (their figures would be second runs). */
static bool iozone_report_line(struct parser *p, struct iozone_state *z, const char *line)
{
	size_t n;
	const char *t = pp_trim(line, &n);
	if (pp_starts_with(t, "\"Throughput report Y-axis is type of test")) {
		/* throughput mode's -R block: a row a test, a column a process
		 * count, but the counts are not printed in it: read from the
		 * "Children see throughput" lines, never from here */
		if (!z->tp_noted++)
			pp_note(p, p->lineno, p->lineno, true,
				"iozone -R throughput report: not read (its columns name no process count; the "
				"\"Children see throughput\" lines are read)");
		z->report = NULL;
		return true;
	}
	/* -+u with -R (dump_cputimes): '"Writer CPU utilization report (Zero
	 * values should be ignored)"', laid out as the figures' reports; no
	 * repeat of the table, so read after it too */
	const char *cpu = n > 2 && t[0] == '"' && t[n - 1] == '"' ? strstr(t, " CPU utilization report") : NULL;
	if (cpu) {
		const char *m = iozone_report_metric(t + 1, (size_t)(cpu - t - 1));
		z->report = m ? z->cpu_metric : NULL;
		z->cpu = m != NULL;
		z->nrec = 0;
		if (m)
			snprintf(z->cpu_metric, sizeof(z->cpu_metric), "%s_cpu_util", m);
		return m != NULL;
	}
	if (n > 9 && t[0] == '"' && t[n - 1] == '"' && !strncmp(t + n - 8, " report\"", 8)) {
		z->report = iozone_report_metric(t + 1, n - 9);
		z->cpu = false;
		z->nrec = 0;
		if (z->report && z->table_rows)
			z->reports_skipped++;
		return z->report != NULL;
	}
	if (!z->report)
		return false;
	struct pp_tok tok[IOZONE_REPORT_COLS + 2];
	size_t nt = pp_tokens(line, tok, IOZONE_REPORT_COLS + 2);
	if (!nt) {
		return true; /* the blank line under a report */
	}
	if (tok[0].s[0] != '"' || nt > IOZONE_REPORT_COLS + 1) {
		z->report = NULL;
		return false;
	}
	double v[IOZONE_REPORT_COLS + 1];
	for (size_t i = 0; i < nt; i++)
		if (!iozone_quoted_number(&tok[i], &v[i])) {
			z->report = NULL;
			return false;
		}
	if (!z->nrec || tok[nt - 1].s[0] == '"') {
		/* the header: every cell quoted */
		z->nrec = nt < IOZONE_REPORT_COLS ? nt : IOZONE_REPORT_COLS;
		memcpy(z->rec, v, z->nrec * sizeof(double));
		return true;
	}
	if ((z->table_rows && !z->cpu) || nt - 1 > z->nrec)
		return true;
	char label[RP_LABEL_LEN];
	iozone_row_label(p, z, v[0], label, sizeof(label));
	for (size_t i = 1; i < nt; i++) {
		/* auto mode skips the small records of files past 16 MB (its
		 * crossover, without -z) and stores 0 in their cells: not run,
		 * never a figure; a CPU report's 0 iozone says to ignore */
		if (v[i] == 0) {
			if (z->cpu ? !z->cpu_zeros++ : !z->zeros++)
				*(z->cpu ? &z->cpu_zero_first : &z->zero_first) = p->lineno;
			continue;
		}
		pp_emit(p, label, -1, "reclen_kb", z->rec[i - 1], z->report, v[i], z->cpu ? "%" : z->unit, RP_FINAL);
	}
	return true;
}

static void iozone_init(struct parser *p)
{
	struct iozone_state *z = p->st;
	pp_strlcpy(z->unit, "KB/s", sizeof(z->unit));
}

static void iozone_children(struct parser *p, struct iozone_state *z, const char *line)
{
	/* "Children see throughput for  2 initial writers  =  123456.78 kB/sec" */
	const char *s = strstr(line, "throughput for");
	const char *eq = strchr(line, '=');
	if (!s || !eq || eq < s)
		return;
	s += strlen("throughput for");
	while (*s == ' ' || *s == '\t')
		s++;
	double threads, v;
	size_t n = pp_scan_number(s, &threads);
	if (!n)
		return;
	char what[48];
	const char *w = s + n;
	while (*w == ' ')
		w++;
	size_t wl = (size_t)(eq - w);
	while (wl && (w[wl - 1] == ' ' || w[wl - 1] == '\t'))
		wl--;
	pp_strlcpy(what, w, wl + 1 < sizeof(what) ? wl + 1 : sizeof(what));
	static const struct { const char *w, *m; } map[] = {
		{ "initial writers", "write" }, { "rewriters", "rewrite" }, { "readers", "read" },
		{ "re-readers", "reread" }, { "reverse readers", "bkwd_read" },
		{ "stride readers", "stride_read" }, { "random readers", "random_read" },
		{ "mixed workload", "mixed" }, { "random writers", "random_write" },
		{ "pwrite writers", "pwrite" }, { "pread readers", "pread" },
		{ "fwriters", "fwrite" }, { "freaders", "fread" },
	};
	const char *metric = NULL;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(what, map[i].w) == 0)
			metric = map[i].m;
	if (!metric)
		return;
	const char *vs = eq + 1;
	while (*vs == ' ' || *vs == '\t')
		vs++;
	if (!pp_scan_number(vs, &v))
		return;
	pp_emit(p, NULL, -1, "threads", threads, metric, v,
		strstr(vs, "ops/sec") ? "ops/s" : z->unit, RP_FINAL);
}

static void iozone_line(struct parser *p, char *line, size_t len, bool by_cr, bool truncated)
{
	struct iozone_state *z = p->st;
	line += pp_quote_len(line);
	if (strstr(line, "File size set to")) {
		z->sizes_set++;
		return;
	}
	if (strstr(line, "Output is in operations per second") || strstr(line, "Output is in ops/sec")) {
		pp_strlcpy(z->unit, "ops/s", sizeof(z->unit));
		return;
	}
	if (strstr(line, "Children see throughput for")) {
		iozone_children(p, z, line);
		return;
	}
	if (iozone_report_line(p, z, line))
		return;
	struct pp_tok t[IOZONE_NCOLS + 4];
	size_t n = pp_tokens(line, t, IOZONE_NCOLS + 4);
	if (n >= 3 && (pp_tok_eq(&t[0], "kB") || pp_tok_eq(&t[0], "KB")) && pp_tok_eq(&t[1], "reclen")) {
		z->ncols = n < IOZONE_NCOLS + 2 ? n : IOZONE_NCOLS + 2;
		for (size_t i = 0; i < z->ncols; i++)
			z->endcol[i] = t[i].endcol;
		return;
	}
	if (n < 3 || n > IOZONE_NCOLS + 2)
		return;
	double file_kb, reclen, v[IOZONE_NCOLS];
	for (size_t i = 0; i < IOZONE_NCOLS; i++)
		v[i] = NAN;
	if (!pp_tok_number(&t[0], &file_kb) || !pp_tok_number(&t[1], &reclen) || file_kb <= 0 || reclen <= 0)
		return;
	size_t nv = 0;
	for (size_t k = 2; k < n; k++) {
		double x;
		if (!pp_tok_number(&t[k], &x))
			return;
		size_t ci;
		if (!z->ncols || n == z->ncols)
			ci = k - 2;
		else {
			/* blank cells: the column whose right edge is nearest */
			int best = -1, bestd = 1 << 30;
			for (size_t c = 2; c < z->ncols; c++) {
				int d = t[k].endcol - z->endcol[c];
				d = d < 0 ? -d : d;
				if (d < bestd) {
					bestd = d;
					best = (int)c;
				}
			}
			if (best < 0 || bestd > 4)
				continue;
			if (best > 2 && t[k].col < z->endcol[best - 1]) {
				/* it reaches into the column before: figures run together */
				if (!iozone_cut_cells(z, &t[k], (size_t)best, v, &nv) && !z->uncut++)
					z->uncut_first = p->lineno;
				continue;
			}
			ci = (size_t)best - 2;
		}
		if (ci < IOZONE_NCOLS) {
			v[ci] = x;
			if (ci + 1 > nv)
				nv = ci + 1;
		}
	}
	char label[RP_LABEL_LEN];
	iozone_row_label(p, z, file_kb, label, sizeof(label));
	iozone_emit_row(p, label, -1, reclen, v, nv, z->unit);
	z->table_rows = true;
	(void)by_cr;
	(void)truncated;
	(void)len;
}

static void iozone_finish(struct parser *p)
{
	struct iozone_state *z = p->st;
	if (z->reports_skipped)
		pp_note(p, 1, p->lineno, true, "%d Excel (-R) reports repeat the table above them: read once, from the table",
			z->reports_skipped);
	if (z->uncut)
		pp_note(p, z->uncut_first, z->uncut_first, false,
			"iozone table: %d cells where figures run together (from line %d) do not fit the header's "
			"columns: not read", z->uncut, z->uncut_first);
	if (z->cpu_zeros)
		pp_note(p, z->cpu_zero_first, z->cpu_zero_first, true,
			"iozone -+u -R: %d CPU utilization cells of 0 (from line %d), which iozone says to ignore: not read",
			z->cpu_zeros, z->cpu_zero_first);
	if (z->zeros)
		pp_note(p, z->zero_first, z->zero_first, true,
			"iozone -R: %d cells of 0 (from line %d) are record sizes iozone did not run (-a skips "
			"small records past 16 MB files): not read", z->zeros, z->zero_first);
}

/* iozone's banner, its auto-mode header, or a throughput-mode line. */
static bool iozone_sniff(const char *t)
{
	t = pp_unquoted(t);
	return strstr(t, "Iozone: Performance Test") || (strstr(t, "reclen") && strstr(t, "rewrite")) ||
	       strstr(t, "Children see throughput for") || !strcmp(t, "\"Writer report\"");
}

const struct parser_ops parser_iozone_ops = {
	.name = "iozone",
	.state_size = sizeof(struct iozone_state),
	.init = iozone_init,
	.line = iozone_line,
	.finish = iozone_finish,
	.commands = (const char *const[]){ "iozone", NULL },
	.headline = (const char *const[]){ "write", "read", NULL },
	.package = "iozone3 (Debian non-free)",
	.sniff = iozone_sniff,
};
