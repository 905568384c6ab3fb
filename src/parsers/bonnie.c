/* bonnie++: the CSV line (format 1.9x, and the older 1.0x layout) and the
 * human tables (2.x with k/m/g suffixes and Latency rows, 1.0x "Size K/sec
 * %CP" as pasted in mails, and bon_csv2txt's rendering).  "+++++" means the
 * test ran too fast to measure: RP_TOO_FAST, value NaN, never zero. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pinternal.h"

#define BONNIE_HOLD_MAX 512

/* The metrics by bonnie++'s own names, those of its CSV header (1.97 on,
 * "#name,file_size,putc,putc_cpu,put_block,...") and bon_csv2txt: the
 * names people quote a bonnie++ run by; 1.0x's CSV has the same fields
 * in the same places. */
static const char *const bonnie_io[6] = {
	"putc", "put_block", "rewrite", "getc", "get_block", "seeks",
};
static const char *const bonnie_files[6] = {
	"seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del",
};

#define BONNIE_NAMES 16

/* Points are held until the end of the input (at most BONNIE_HOLD_MAX):
 * a table's are dropped when the CSV line of the same run follows, and
 * the label of every point waits until all machine names are known.  A
 * held point's label field holds its machine name meanwhile. */
struct bonnie_state {
	struct bonnie_table bt;
	struct result_set hold;
	size_t hold_kept;         /* hold[0..hold_kept) came from CSV lines: kept */
	bool overflowed;          /* the hold was full once: points go out at once since */
	char names[BONNIE_NAMES][RP_LABEL_LEN];   /* distinct machine names, first seen first */
	int nnames;
	/* the quote depth of the line being read ("> > " is 2), and the
	 * depths tables were read at: a table quoted from an earlier mail is
	 * another measurement than the one under it, even of the same name */
	int depth;
	unsigned depths;
	/* titles a post wrote over the outputs ("Kernel 2.5.43" over "===="):
	 * a run under another title is another run, whatever its machine */
	struct pp_title tt;
	char titles[BONNIE_NAMES][sizeof(((struct pp_title *)0)->title)];
	int ntitles, cur_title;   /* cur_title: index + 1 of the title in effect, 0 none */
	/* a CSV record cut by a mailer's line wrap: its first lines, joined,
	 * until it has its version's fields */
	char pend[PARSER_LINE_MAX + 1];
	size_t pend_len;
	int pend_joins;
};

/* A held point's machine name carries its quote depth after this byte. */
#define BONNIE_DEPTH_MARK '\x1f'


/* "2G", "2512M", "2G::8192:5", "512k" -> MB; a bare number is MB (bonnie 1.0x). */
static bool bonnie_size_mb(const char *s, size_t len, double *mb)
{
	double v;
	size_t n = pp_scan_number(s, &v);
	if (!n || n > len || v < 0)
		return false;
	char u = n < len ? s[n] : '\0';
	if (u == ':' )
		u = '\0';
	switch (u) {
	case '\0': *mb = v; break;
	case 'k': case 'K': *mb = v / 1024; break;
	case 'm': case 'M': *mb = v; break;
	case 'g': case 'G': *mb = v * 1024; break;
	case 't': case 'T': *mb = v * 1024 * 1024; break;
	default: return false;
	}
	if (n + 1 < len && s[n + 1] != ':' && u)
		return false;
	return true;
}

static bool is_plus(const char *s, size_t len)
{
	if (len < 3)
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] != '+')
			return false;
	return true;
}

/* One value cell.  kind 1: K/sec, where bonnie++ (2.x, bon_csv2txt)
 * prints a figure too wide for its column with a k/m/g suffix: KiB/MiB/GiB
 * per second, given as printed ("116m" is 116 MiB/s, *unit "MiB/s";
 * seeks: k = 1000, a count); kind 2: files/sec.  *unit: NULL for the
 * column's own.  Returns 1 value, 2 too fast, 0 bad. */
static int bonnie_value(const char *s, size_t len, const char *cpu, size_t cpulen, bool kib, double *v,
			const char **unit)
{
	*unit = NULL;
	if (is_plus(s, len))
		return 2;
	size_t n = kib ? pp_scan_number(s, v) : pp_scan_suffixed(s, 1000, v);
	if (kib && n && n + 1 == len) {
		switch (s[n]) {
		case 'k': case 'K': *unit = "KiB/s"; break;
		case 'm': case 'M': *unit = "MiB/s"; break;
		case 'g': case 'G': *unit = "GiB/s"; break;
		default: return 0;
		}
		n++;
	}
	if (!n || n != len)
		return 0;
	/* bon_csv2txt renders a "+++++" K/sec figure as "0k" with "+++" CPU */
	if (*v == 0 && cpu && is_plus(cpu, cpulen))
		return 2;
	return 1;
}

/* The label of a point of machine name: the run label alone while one
 * machine name was seen; with two or more (a table of several machines,
 * CSV lines from several), "LABEL name" (or "LABEL mN" when the name
 * would be cut), so that different machines never pool as runs of one. */
static void bonnie_label(struct parser *p, const struct bonnie_state *b, const char *name, char *buf,
			 size_t len)
{
	buf[0] = '\0';
	if (b->nnames < 2 || !name[0])
		return;
	/* tables at two quote depths or more: the quoted ones are named as
	 * the mail shows them ("> > NPTL"); a title over a run comes first,
	 * and the machine name is left out when all runs share it */
	char shown[RP_LABEL_LEN];
	const char *mark = strchr(name, BONNIE_DEPTH_MARK);
	if (mark) {
		int depth = mark[1] - '0', title = mark[2] ? mark[2] - '@' : 0, o = 0;
		bool mixed = (b->depths & (b->depths - 1)) != 0;
		/* machine names (with their depth) that differ among the runs */
		bool names_differ = false;
		for (int i = 0; i < b->nnames && !names_differ; i++) {
			const char *m = strchr(b->names[i], BONNIE_DEPTH_MARK);
			size_t a = m ? (size_t)(m - b->names[i]) : strlen(b->names[i]);
			names_differ = a != (size_t)(mark - name) + 0 || strncmp(b->names[i], name, a) != 0 ||
				       (m && m[1] != mark[1]);
		}
		if (title > 0 && title <= b->ntitles)
			o = snprintf(shown, sizeof(shown), "%s%s", b->titles[title - 1],
				     names_differ && mark > name ? " " : "");
		if (o < 0 || o >= (int)sizeof(shown))
			o = (int)sizeof(shown) - 1;
		if (names_differ || title <= 0) {
			for (int i = 0; mixed && i < depth && o + 2 < (int)sizeof(shown); i++) {
				shown[o++] = '>';
				shown[o++] = ' ';
			}
			pp_strlcpy_span(shown + o, sizeof(shown) - (size_t)o, name, (size_t)(mark - name));
		} else
			shown[o] = '\0';
		name = shown;
	}
	pp_label_join(buf, len, p->label, name);
}

static void bonnie_give(struct parser *p, const struct bonnie_state *b, struct result_point *pt)
{
	char lb[RP_LABEL_LEN];
	bonnie_label(p, b, pt->label, lb, sizeof(lb));
	pp_strlcpy(pt->label, lb, sizeof(pt->label));
	pp_emit_point(p, pt);
}

static void bonnie_flush(struct parser *p, struct bonnie_state *b)
{
	for (size_t i = 0; i < b->hold.n; i++)
		bonnie_give(p, b, &b->hold.v[i]);
	b->hold.n = b->hold_kept = 0;
}

static void bonnie_note_name(struct bonnie_state *b, const char *name)
{
	if (!name[0])
		return;
	for (int i = 0; i < b->nnames; i++)
		if (strcmp(b->names[i], name) == 0)
			return;
	if (b->nnames < BONNIE_NAMES)
		pp_strlcpy(b->names[b->nnames++], name, sizeof(b->names[0]));
}

/* hold: the bonnie parser's (label is then the row's machine name), or
 * NULL in a mail (label is the point's label, given at once). */
static void bonnie_put(struct parser *p, struct result_set *hold, const char *label,
		       const char *x_name, double x, const char *metric, double v, const char *unit,
		       unsigned flags)
{
	struct result_point pt;
	memset(&pt, 0, sizeof(pt));
	pp_strlcpy(pt.label, label ? label : "", sizeof(pt.label));
	pt.run = -1;
	pp_strlcpy(pt.x_name, x_name, sizeof(pt.x_name));
	pt.x = x;
	pp_strlcpy(pt.metric, metric, sizeof(pt.metric));
	pt.value = v;
	pp_strlcpy(pt.unit, unit, sizeof(pt.unit));
	pt.flags = flags;
	if (!hold) {
		pp_emit_point(p, &pt);
		return;
	}
	struct bonnie_state *b = p->st;
	size_t nl = strlen(pt.label);
	if ((nl || b->cur_title) && nl + 3 < sizeof(pt.label)) {
		pt.label[nl] = BONNIE_DEPTH_MARK;
		pt.label[nl + 1] = (char)('0' + (b->depth < 9 ? b->depth : 9));
		pt.label[nl + 2] = (char)('@' + b->cur_title);
		pt.label[nl + 3] = '\0';
	}
	b->depths |= 1u << (b->depth < 9 ? b->depth : 9);
	bonnie_note_name(b, pt.label);
	if (!b->overflowed && hold->n >= BONNIE_HOLD_MAX) {
		b->overflowed = true;
		bonnie_flush(p, b);
	}
	if (b->overflowed || result_set_add(hold, &pt) != 0)
		bonnie_give(p, b, &pt);
}

static void bonnie_emit_cell(struct parser *p, struct result_set *hold, const char *label,
			     const char *x_name, double x, int kind, int col, int r, double v, const char *shown)
{
	const char *metric = kind == 1 ? bonnie_io[col] : bonnie_files[col];
	const char *unit = shown ? shown : kind == 1 ? (col == 5 ? "/s" : "KiB/s") : "files/s";
	if (r == 2)
		bonnie_put(p, hold, label, x_name, x, metric, NAN, unit, RP_FINAL | RP_TOO_FAST);
	else if (r == 1)
		bonnie_put(p, hold, label, x_name, x, metric, v, unit, RP_FINAL);
}

/* A latency cell as printed: "17818us" is 17818 "us", "119ms" 119 "ms". */
static bool bonnie_latency(const char *s, size_t len, double *v, char *unit)
{
	size_t n = pp_scan_number(s, v);
	return n && n < len && pp_time_unit(s + n, len - n, unit);
}

/* The header "Machine Size K/sec %CP ... /sec %CP" (or "files /sec %CP
 * ...", bon_csv2txt's "Name:Size etc /sec %CP"): the columns where its
 * last twelve words end are where a row's values and CPU figures end. */
static void bonnie_header_edges(struct bonnie_table *bt, const struct pp_tok *t, size_t n)
{
	bt->nedge = 0;
	if (n < 13)
		return;
	for (size_t k = 0; k < 12; k++) {
		const struct pp_tok *h = &t[n - 12 + k];
		if ((k % 2) != (h->len == 3 && memcmp(h->s, "%CP", 3) == 0))
			return;
		bt->edge[k] = h->endcol;
	}
	bt->nedge = 12;
}

/* A row with fewer than six pairs (bonnie++ -f leaves the per-char
 * pairs blank, and a test not run prints nothing): each cell goes to the
 * header column it ends under.  A figure wider than its column (271440
 * under K/sec) pushes the rest of the row right, as printf does, so the
 * columns are followed with that shift; an empty pair moves the next
 * cell a whole pair (10 columns) further.  The name and size are the
 * words that end before the first value column.  False when the row does
 * not fit the header. */
static bool bonnie_row_cells(const struct bonnie_table *bt, const struct pp_tok *t, size_t n,
			     size_t *lead, const struct pp_tok *cell[12])
{
	if (bt->nedge != 12)
		return false;
	size_t i = 0;
	while (i < n && t[i].endcol <= bt->edge[0] - 5)
		i++;
	if (i == 0 || i == n)
		return false;
	*lead = i;
	int shift = 0;
	size_t k = 0;
	for (; i < n; i++, k++) {
		int e = t[i].endcol - shift;
		while (k % 2 == 0 && k < 12 && e > bt->edge[k] + 5)
			k += 2;
		if (k >= 12 || e < bt->edge[k] - 2)
			return false;
		cell[k] = &t[i];
		if (e > bt->edge[k])
			shift += e - bt->edge[k];
	}
	for (int c = 0; c < 6; c++)
		if (!cell[2 * c] != !cell[2 * c + 1])
			return false;
	return true;
}

/* "Latency   21103us  801ms ..." under the six tests; bonnie++ prints each
 * in 9 columns after an 18-column "Latency", and leaves the cell blank
 * for a test not run, so a shorter row is placed by where its cells end
 * (counted from the word "Latency", which a mail's quoting may shift). */
static bool bonnie_latency_cells(const struct pp_tok *t, size_t n, const struct pp_tok *lat[6])
{
	if (n == 7) {
		for (int c = 0; c < 6; c++)
			lat[c] = &t[c + 1];
		return true;
	}
	if (n < 2 || n > 7)
		return false;
	for (size_t i = 1; i < n; i++) {
		int rel = t[i].endcol - t[0].col - 27;
		if (rel < -2 || (rel + 2) % 10 > 4)
			return false;
		int c = (rel + 2) / 10;
		if (c > 5 || lat[c])
			return false;
		lat[c] = &t[i];
	}
	return true;
}

bool bonnie_table_line(struct parser *p, struct bonnie_table *bt, const char *line,
		       const char *label, struct result_set *hold)
{
	if (strstr(line, "------Sequential Output------")) {
		bt->kind = 1;
		bt->nedge = 0;
		return true;
	}
	if (strstr(line, "------Sequential Create------")) {
		bt->kind = 2;
		bt->nedge = 0;
		return true;
	}
	if (!bt->kind)
		return false;
	struct pp_tok t[24];
	size_t n = pp_tokens(line, t, 24);
	if (strstr(line, "/sec %CP")) {
		bonnie_header_edges(bt, t, n);
		return true;
	}
	if (strstr(line, "-Per Chr-") || strstr(line, "-Create--"))
		return true;
	if (n == 0) {
		bt->kind = 0;
		return false;
	}
	if (pp_tok_eq(&t[0], "Latency")) {
		const struct pp_tok *lat[6] = { 0 };
		if (!bt->last_kind || !bonnie_latency_cells(t, n, lat))
			return true;
		for (int c = 0; c < 6; c++) {
			double lv;
			char lu[RP_UNIT_LEN];
			if (!lat[c] || !bonnie_latency(lat[c]->s, lat[c]->len, &lv, lu))
				continue;
			char m[RP_NAME_LEN];
			const char *base = bt->last_kind == 1 ? bonnie_io[c] : bonnie_files[c];
			pp_strlcpy(m, base, sizeof(m));
			strncat(m, "_latency", sizeof(m) - strlen(m) - 1);
			double x = bt->last_row >= 0 && bt->last_row < 16 && bt->size_mb[bt->last_row] > 0
					   ? bt->size_mb[bt->last_row] : 0;
			bonnie_put(p, hold, hold ? bt->row_name : label, "size_mb", x, m, lv, lu, RP_FINAL);
		}
		return true;
	}
	const struct pp_tok *cell[12] = { 0 };
	size_t lead;
	if (n >= 13) {
		lead = n - 12;
		for (int k = 0; k < 12; k++)
			cell[k] = &t[lead + k];
	} else if (!bonnie_row_cells(bt, t, n, &lead, cell)) {
		bt->kind = 0;
		return false;
	}
	double vals[6];
	const char *units[6] = { 0 };
	int res[6];
	for (int c = 0; c < 6; c++) {
		const struct pp_tok *v = cell[2 * c], *cpu = cell[2 * c + 1];
		res[c] = 0;   /* an empty pair: a test not run */
		if (!v)
			continue;
		res[c] = bonnie_value(v->s, v->len, cpu->s, cpu->len, bt->kind == 1 && c < 5, &vals[c], &units[c]);
		if (!res[c]) {
			bt->kind = 0;
			return false;
		}
	}
	const char *x_name = "size_mb";
	double x;
	/* the machine name: the words before the size (or file count) */
	bt->row_name[0] = '\0';
	if (lead >= 2) {
		size_t nl = (size_t)(t[lead - 2].s + t[lead - 2].len - t[0].s);
		if (nl >= sizeof(bt->row_name))
			nl = sizeof(bt->row_name) - 1;
		memcpy(bt->row_name, t[0].s, nl);
		bt->row_name[nl] = '\0';
	}
	if (bt->kind == 1) {
		if (!bonnie_size_mb(t[lead - 1].s, t[lead - 1].len, &x)) {
			bt->kind = 0;
			return false;
		}
		if (bt->rows_io < 16) {
			bt->size_mb[bt->rows_io] = x;
			memcpy(bt->io_name[bt->rows_io], bt->row_name, sizeof(bt->row_name));
		}
		bt->last_row = bt->rows_io;
		if (bt->rows_io < 1000000)   /* a counter that cannot overflow on endless input */
			bt->rows_io++;
	} else {
		int row = bt->rows_files;
		if (bt->rows_files < 1000000)
			bt->rows_files++;
		if (!bt->row_name[0] && row < 16 && row < bt->rows_io)
			memcpy(bt->row_name, bt->io_name[row], sizeof(bt->row_name));
		if (row < 16 && bt->size_mb[row] > 0)
			x = bt->size_mb[row];
		else if (bt->rows_io > 0 && bt->rows_io <= 16)
			x = bt->size_mb[bt->rows_io - 1];
		else if (pp_scan_number(t[lead - 1].s, &x)) {
			x_name = "files";
		} else {
			bt->kind = 0;
			return false;
		}
		bt->last_row = row < 16 && bt->size_mb[row] > 0 ? row : (bt->rows_io > 0 ? bt->rows_io - 1 : -1);
	}
	bt->last_kind = bt->kind;
	for (int c = 0; c < 6; c++)
		bonnie_emit_cell(p, hold, hold ? bt->row_name : label, x_name, x, bt->kind, c, res[c], vals[c], units[c]);
	return true;
}

/* Split a CSV line in place; returns the field count (bounded). */
static size_t bonnie_csv_split(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *s = line;
	for (;;) {
		if (n < max)
			f[n] = s;
		n++;
		char *c = strchr(s, ',');
		if (!c)
			break;
		*c = '\0';
		s = c + 1;
	}
	return n < max ? n : max;
}

/* A CSV record (split in place): its points under label (NULL: the
 * record's machine name) into hold (NULL: emitted at once), hold's
 * points past keep dropped first (the human table of the same run). */
bool bonnie_csv_record(struct parser *p, char *line, const char *label, struct result_set *hold, size_t keep)
{
	char *f[64];
	size_t n = bonnie_csv_split(line, f, 64);
	if (n < 14)
		return false;
	f[0] += strspn(f[0], " \t");   /* an indented record */
	int off_size, off_io, off_files_n, off_files, off_lat;
	double ver;
	/* Each CSV format version has its own layout (field 0 names it):
	 * 1.96 and 1.97: size, chunk, 6 i/o pairs from 7, file count at 19,
	 * 6 file pairs from 24, 12 latencies from 36 (48 fields);
	 * 1.98 (bonnie++ 1.98, 2.0x) adds the seek count and seeker processes
	 * after the chunk size: i/o from 9, files at 21 and 26, latencies from
	 * 38 (50 fields).  Another version is not guessed at. */
	if (pp_is_number(f[0], &ver) && (strcmp(f[0], "1.96") == 0 || strcmp(f[0], "1.97") == 0) && n >= 36) {
		off_size = 5; off_io = 7; off_files_n = 19; off_files = 24; off_lat = 36;
	} else if (pp_is_number(f[0], &ver) && ver >= 1.98 && ver < 3 && n >= 38) {
		off_size = 5; off_io = 9; off_files_n = 21; off_files = 26; off_lat = 38;
	} else if (!pp_is_number(f[0], NULL) && n >= 14) {
		off_size = 1; off_io = 2; off_files_n = 14; off_files = 15; off_lat = -1;
	} else
		return false;
	double mb;
	if (!bonnie_size_mb(f[off_size], strlen(f[off_size]), &mb))
		return false;
	/* the CSV line is the precise record of the run: the human table
	 * printed just before it is the same run, rounded */
	if (hold)
		hold->n = keep;
	const char *name = label ? label : off_lat > 0 ? f[2] : f[0];
	for (int c = 0; c < 6; c++) {
		const char *v = f[off_io + 2 * c];
		if (!*v)
			continue;
		double val = NAN;
		int r = is_plus(v, strlen(v)) ? 2 : (pp_is_number(v, &val) ? 1 : 0);
		bonnie_emit_cell(p, hold, name, "size_mb", mb, 1, c, r, val, NULL);
	}
	if ((size_t)off_files + 12 <= n && *f[off_files_n]) {
		for (int c = 0; c < 6; c++) {
			const char *v = f[off_files + 2 * c];
			if (!*v)
				continue;
			double val = NAN;
			int r = is_plus(v, strlen(v)) ? 2 : (pp_is_number(v, &val) ? 1 : 0);
			bonnie_emit_cell(p, hold, name, "size_mb", mb, 2, c, r, val, NULL);
		}
	}
	if (off_lat > 0) {
		for (int c = 0; c < 12 && (size_t)(off_lat + c) < n; c++) {
			double lv;
			char lu[RP_UNIT_LEN];
			const char *v = f[off_lat + c];
			if (!bonnie_latency(v, strlen(v), &lv, lu))
				continue;
			char m[RP_NAME_LEN];
			pp_strlcpy(m, c < 6 ? bonnie_io[c] : bonnie_files[c - 6], sizeof(m));
			strncat(m, "_latency", sizeof(m) - strlen(m) - 1);
			bonnie_put(p, hold, name, "size_mb", mb, m, lv, lu, RP_FINAL);
		}
	}
	return true;
}

static bool bonnie_csv(struct parser *p, char *line)
{
	struct bonnie_state *b = p->st;
	if (!bonnie_csv_record(p, line, NULL, &b->hold, b->hold_kept))
		return false;
	b->hold_kept = b->hold.n;
	return true;
}

/* The fields a CSV record starting as line does has by its version
 * (1.96 and 1.97: 48; 1.98 and 2.0x: 50; the 1.0x layout, a name then a
 * size: 27), 0 when line starts no record. */
static size_t bonnie_csv_want(const char *line)
{
	const char *c = strchr(line, ',');
	if (!c)
		return 0;
	size_t l0 = (size_t)(c - line);
	char f0[16];
	if (l0 < sizeof(f0)) {
		double ver;
		memcpy(f0, line, l0);
		f0[l0] = '\0';
		if (pp_is_number(f0, &ver))
			return !strcmp(f0, "1.96") || !strcmp(f0, "1.97") ? 48 : ver >= 1.98 && ver < 3 ? 50 : 0;
	}
	const char *s = c + 1, *e = strchr(s, ',');
	double mb;
	return e && bonnie_size_mb(s, (size_t)(e - s), &mb) ? 27 : 0;
}

static size_t bonnie_csv_fields(const char *s)
{
	size_t n = 1;
	for (; *s; s++)
		n += *s == ',';
	return n;
}

/* A CSV record read (a copy: it is split in place). */
static void bonnie_csv_read(struct parser *p, struct bonnie_state *b, const char *rec, size_t len)
{
	char copy[PARSER_LINE_MAX + 1];
	if (len > PARSER_LINE_MAX)
		len = PARSER_LINE_MAX;
	memcpy(copy, rec, len);
	copy[len] = '\0';
	if (bonnie_csv(p, copy))
		b->bt = (struct bonnie_table){ 0 };
}

/* The pending first part of a record that no continuation completed:
 * read alone, as a short record is. */
static void bonnie_pend_flush(struct parser *p, struct bonnie_state *b)
{
	if (!b->pend_len)
		return;
	size_t n = b->pend_len;
	b->pend_len = 0;
	bonnie_csv_read(p, b, b->pend, n);
}

/* A mailer wraps a long line at a column, even inside a figure
 * ("...,178478,41,616" then ".9,2,16,..."): the next line continues the
 * record when it is one run of characters (a record has no blanks) and
 * the two joined as they are do not pass the record's field count.
 * True when the line was taken so. */
static bool bonnie_csv_continue(struct parser *p, struct bonnie_state *b, const char *t, size_t l)
{
	if (!b->pend_len)
		return false;
	bool run = l > 0 && !memchr(t, ' ', l) && !memchr(t, '\t', l);
	if (run && b->pend_len + l <= PARSER_LINE_MAX) {
		char join[PARSER_LINE_MAX + 1];
		memcpy(join, b->pend, b->pend_len);
		memcpy(join + b->pend_len, t, l);
		join[b->pend_len + l] = '\0';
		size_t n = bonnie_csv_fields(join), want = bonnie_csv_want(join);
		if (n == want) {
			b->pend_len = 0;
			bonnie_csv_read(p, b, join, strlen(join));
			return true;
		}
		if (n < want && memchr(t, ',', l) && b->pend_joins < 8) {
			memcpy(b->pend, join, b->pend_len + l + 1);
			b->pend_len += l;
			b->pend_joins++;
			return true;
		}
	}
	bonnie_pend_flush(p, b);
	return false;
}

static void bonnie_line(struct parser *p, char *line, size_t len, bool by_cr, bool truncated)
{
	struct bonnie_state *b = p->st;
	if (truncated)
		return;
	size_t q = pp_quote_len(line);
	b->depth = 0;
	for (size_t i = 0; i < q; i++)
		b->depth += line[i] == '>';
	line += q;
	(void)len;   /* the line is read trimmed, by its NUL */
	size_t l;
	const char *t = pp_trim(line, &l);
	if (bonnie_csv_continue(p, b, t, l))
		return;
	if (pp_title_line(&b->tt, t, l)) {
		int i = 0;
		while (i < b->ntitles && strcmp(b->titles[i], b->tt.title) != 0)
			i++;
		if (i == b->ntitles && b->ntitles < BONNIE_NAMES)
			pp_strlcpy(b->titles[b->ntitles++], b->tt.title, sizeof(b->titles[0]));
		if (i < b->ntitles)
			b->cur_title = i + 1;
		return;
	}
	if (bonnie_table_line(p, &b->bt, line, NULL, &b->hold))
		return;
	if (strchr(line, ',')) {
		/* a line short of its record's fields: perhaps wrapped, the
		 * next line says */
		size_t want = bonnie_csv_want(t);
		if (want && l && t[l - 1] != ' ' && bonnie_csv_fields(t) < want && l <= PARSER_LINE_MAX) {
			memcpy(b->pend, t, l);
			b->pend[l] = '\0';
			b->pend_len = l;
			b->pend_joins = 0;
			return;
		}
		bonnie_csv_read(p, b, t, l);   /* an indented record ("    1.96,1.96,...") too */
	}
}

static void bonnie_finish(struct parser *p)
{
	bonnie_pend_flush(p, p->st);
	bonnie_flush(p, p->st);
}

static void bonnie_fini(struct parser *p)
{
	struct bonnie_state *b = p->st;
	result_set_free(&b->hold);
}

static void bonnie_init(struct parser *p)
{
	struct bonnie_state *b = p->st;
	b->bt.last_row = -1;
}

/* bonnie++'s progress lines, its table headers, or a 1.9x/2.0 CSV line. */
static bool bonnie_sniff(const char *t)
{
	t = pp_unquoted(t);
	return pp_starts_with(t, "Writing a byte at a time") || pp_starts_with(t, "Writing with putc") ||
	       strstr(t, "------Sequential Output------") || strstr(t, "------Sequential Create------") ||
	       ((pp_starts_with(t, "1.9") || pp_starts_with(t, "2.0")) && strstr(t, ",+++++")) ||
	       pp_starts_with(t, "1.98,") || pp_starts_with(t, "1.97,") || pp_starts_with(t, "1.96,");
}

const struct parser_ops parser_bonnie_ops = {
	.name = "bonnie",
	.state_size = sizeof(struct bonnie_state),
	.init = bonnie_init,
	.line = bonnie_line,
	.finish = bonnie_finish,
	.fini = bonnie_fini,
	.commands = (const char *const[]){ "bonnie++", "bonnie", "bon_csv2txt", NULL },
	.headline = (const char *const[]){ "put_block", "get_block", NULL },
	.package = "bonnie++",
	.sniff = bonnie_sniff,
};
