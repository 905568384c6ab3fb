/* The parser core: bounded line assembly over arbitrary chunks, emission
 * with run numbering and incomplete-run marking, the "auto" parser that
 * picks a tool from what it sees, and whole-file import.
 *
 * Why the core does this and not each parser: every tool's output arrives
 * through the same pty in arbitrary pieces (\r, \n, \r\n, NUL bytes, lines
 * of any length); doing it once keeps each parser a pure line handler. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iodash/base/util.h"
#include "pinternal.h"

/* Every parser, one row each: its name, commands, package and sniff come
 * from its ops.  The order is the order sniffing tries them in. */
static const struct parser_ops *const all_ops[] = {
	&parser_dbench_ops, &parser_fio_ops, &parser_iozone_ops, &parser_bonnie_ops,
	&parser_sysbench_ops, &parser_mail_ops, &parser_tables_ops, &parser_auto_ops,
};

#define N_OPS (sizeof(all_ops) / sizeof(all_ops[0]))

bool parser_metric_is_headline(const char *metric)
{
	for (size_t i = 0; i < N_OPS; i++)
		for (const char *const *h = all_ops[i]->headline; h && *h; h++)
			if (!strcmp(*h, metric))
				return true;
	return false;
}

const struct parser_ops *pp_ops_at(size_t i)
{
	return i < N_OPS ? all_ops[i] : NULL;
}

const char *parser_name_at(size_t i)
{
	return i < N_OPS ? all_ops[i]->name : NULL;
}

/* The parser that reads the command (a base name), NULL none. */
static const struct parser_ops *parser_ops_for_base(const char *base)
{
	for (size_t i = 0; i < N_OPS; i++)
		for (const char *const *c = all_ops[i]->commands; c && *c; c++)
			if (strcmp(*c, base) == 0)
				return all_ops[i];
	return NULL;
}

const struct parser_ops *pp_ops_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < N_OPS; i++)
		if (strcmp(all_ops[i]->name, name) == 0)
			return all_ops[i];
	/* a command's name is taken for its parser's (bonnie++) */
	return parser_ops_for_base(name);
}

static void parser_reset_progress(struct parser *p)
{
	memset(&p->prog, 0, sizeof(p->prog));
	p->prog.elapsed_s = -1;
	p->prog.throughput = -1;
	p->prog.latency_ms = -1;
}

struct parser *parser_new(const char *name, const char *label)
{
	const struct parser_ops *ops = pp_ops_by_name(name ? name : "auto");
	if (!ops)
		return NULL;
	struct parser *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->ops = ops;
	if (ops->state_size) {
		p->st = calloc(1, ops->state_size);
		if (!p->st) {
			free(p);
			return NULL;
		}
	}
	pp_strlcpy(p->label, label ? label : "", sizeof(p->label));
	p->run_fixed = -1;
	parser_reset_progress(p);
	if (ops->init)
		ops->init(p);
	return p;
}

void parser_free(struct parser *p)
{
	if (!p)
		return;
	if (p->ops->fini)
		p->ops->fini(p);
	free(p->st);
	free(p);
}

const char *parser_name(const struct parser *p)
{
	if (!p)
		return NULL;
	if (p->child)
		return p->child->ops->name;
	return p->ops->name;
}

int parser_set_x(struct parser *p, const char *x_name, double x)
{
	if (!p || !x_name || !*x_name || !isfinite(x))
		return -EINVAL;
	p->x_set = true;
	pp_strlcpy(p->x_name, x_name, sizeof(p->x_name));
	p->x = x;
	if (p->child)
		(void)parser_set_x(p->child, x_name, x);
	return 0;
}

int parser_set_run(struct parser *p, int run)
{
	if (!p || run < 0)
		return -EINVAL;
	p->run_fixed = run;
	if (p->child)
		(void)parser_set_run(p->child, run);
	return 0;
}

const char *parser_for_command(const char *argv0)
{
	const struct parser_ops *ops = argv0 ? parser_ops_for_base(util_base_name(argv0)) : NULL;
	return ops ? ops->name : NULL;
}

const char *parser_package_for_command(const char *argv0)
{
	const struct parser_ops *ops = argv0 ? parser_ops_for_base(util_base_name(argv0)) : NULL;
	return ops ? ops->package : NULL;
}

/* --- emission ------------------------------------------------------- */

static uint32_t run_key_hash(const struct result_point *pt)
{
	uint32_t h = 2166136261u;
	unsigned char xb[sizeof(double)];
	double x = pt->x == 0 ? 0 : pt->x;   /* -0 and 0 are one x */

	memcpy(xb, &x, sizeof(xb));
	for (const char *s = pt->label; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	for (const char *s = pt->setting; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	for (const char *s = pt->metric; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	for (size_t i = 0; i < sizeof(xb); i++)
		h = (h ^ xb[i]) * 16777619u;
	return h;
}

/* The run of a final point: how many points of its label, setting, metric
 * and x came before.  The keys are found by hash: a mail of a million
 * points must not compare each with every key. */
static int parser_next_run(struct parser *p, const struct result_point *pt)
{
	uint32_t h = run_key_hash(pt);
	int *head = &p->run_bucket[h % PARSER_RUNKEY_BUCKETS];

	for (int i = *head - 1; i >= 0; i = p->runs[i].next) {
		struct run_key *k = &p->runs[i];
		if (k->hash == h && k->x == pt->x && strcmp(k->metric, pt->metric) == 0 &&
		    strcmp(k->label, pt->label) == 0 && strcmp(k->setting, pt->setting) == 0) {
			/* saturates: endless input must not overflow it */
			return k->count < PARSER_RUN_MAX ? k->count++ : k->count;
		}
	}
	/* bounded: the oldest key is forgotten first (out of its bucket) */
	struct run_key *k;
	int slot;
	if (p->nruns < PARSER_RUNKEYS) {
		slot = (int)p->nruns++;
	} else {
		slot = (int)p->runs_next;
		p->runs_next = (p->runs_next + 1) % PARSER_RUNKEYS;
		int *link = &p->run_bucket[p->runs[slot].hash % PARSER_RUNKEY_BUCKETS];
		for (int prev = -1, i = *link - 1; i >= 0; prev = i, i = p->runs[i].next)
			if (i == slot) {
				if (prev < 0)
					*link = p->runs[i].next + 1;
				else
					p->runs[prev].next = p->runs[i].next;
				break;
			}
	}
	k = &p->runs[slot];
	pp_strlcpy(k->label, pt->label, sizeof(k->label));
	pp_strlcpy(k->setting, pt->setting, sizeof(k->setting));
	pp_strlcpy(k->metric, pt->metric, sizeof(k->metric));
	k->x = pt->x;
	k->count = 1;
	k->hash = h;
	k->next = *head - 1;
	*head = slot + 1;
	return 0;
}

void pp_emit_point(struct parser *p, struct result_point *pt)
{
	if (!(pt->flags & RP_TOO_FAST) && !isfinite(pt->value))
		return;
	if (!isfinite(pt->x))
		return;
	if (!pt->label[0])
		pp_strlcpy(pt->label, p->label, sizeof(pt->label));
	if (!pt->setting[0])
		pp_strlcpy(pt->setting, p->setting, sizeof(pt->setting));
	bool progress = pt->flags & RP_PROGRESS;
	if (!progress && p->x_set) {
		pp_strlcpy(pt->x_name, p->x_name, sizeof(pt->x_name));
		pt->x = p->x;
	}
	if (progress)
		pt->run = p->run_fixed >= 0 ? p->run_fixed : 0;
	else if (p->run_fixed >= 0)
		pt->run = p->run_fixed;
	else if (pt->run < 0)
		pt->run = parser_next_run(p, pt);
	if (progress) {
		p->n_progress++;
		if (p->n_last_progress && p->last_progress[0].x != pt->x)
			p->n_last_progress = 0;
		if (p->n_last_progress < sizeof(p->last_progress) / sizeof(p->last_progress[0]))
			p->last_progress[p->n_last_progress++] = *pt;
	} else {
		p->n_final++;
	}
	if (p->sink && p->sink->emit)
		p->sink->emit(p->sink->ctx, pt);
}

void pp_emit(struct parser *p, const char *label, int run, const char *x_name, double x,
	     const char *metric, double value, const char *unit, unsigned flags)
{
	struct result_point pt;
	memset(&pt, 0, sizeof(pt));
	pp_strlcpy(pt.label, label ? label : "", sizeof(pt.label));
	pt.run = run;
	pp_strlcpy(pt.x_name, x_name, sizeof(pt.x_name));
	pt.x = x;
	pp_strlcpy(pt.metric, metric, sizeof(pt.metric));
	pt.value = value;
	pp_strlcpy(pt.unit, unit ? unit : "", sizeof(pt.unit));
	pt.flags = flags;
	pp_emit_point(p, &pt);
}

void pp_set_progress(struct parser *p, const char *phase, double elapsed_s,
		     double throughput, const char *unit, double latency_ms)
{
	p->prog.valid = true;
	if (phase)
		pp_strlcpy(p->prog.phase, phase, sizeof(p->prog.phase));
	p->prog.elapsed_s = isfinite(elapsed_s) ? elapsed_s : -1;
	p->prog.throughput = isfinite(throughput) ? throughput : -1;
	pp_strlcpy(p->prog.unit, unit ? unit : "", sizeof(p->prog.unit));
	p->prog.latency_ms = isfinite(latency_ms) ? latency_ms : -1;
}

/* --- line assembly --------------------------------------------------- */

void pp_note(struct parser *p, int first, int last, bool understood, const char *fmt, ...)
{
	if (p->nnotes >= PARSER_NOTES_MAX)
		return;
	struct parser_note *n = &p->notes[p->nnotes++];
	n->first = first;
	n->last = last;
	n->understood = understood;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(n->text, sizeof(n->text), fmt, ap);
	va_end(ap);
}

size_t parser_notes(const struct parser *p, const struct parser_note **notes)
{
	if (!p) {
		*notes = NULL;
		return 0;
	}
	const struct parser *q = p->child ? p->child : p;
	*notes = q->notes;
	return q->nnotes;
}

void pp_line(struct parser *p, char *line, size_t len, bool by_cr, bool truncated)
{
	if (p->lineno < 2000000000)
		p->lineno++;
	line[len] = '\0';
	char oor[32];
	pp_take_out_of_range(oor, sizeof(oor));
	p->ops->line(p, line, len, by_cr, truncated);
	/* one policy for odd numbers (docs/parsers.md): a number out of
	 * range is n/a, and where it was is said.  Not by the mail reader,
	 * which tries every word of prose (a short commit hash, 0568e61225,
	 * has a number's shape) and says what it did not read itself. */
	if (*pp_take_out_of_range(oor, sizeof(oor)) && p->ops != &parser_mail_ops &&
	    ++p->n_out_of_range <= 3)
		pp_note(p, p->lineno, p->lineno, false, "%s is out of range: read as n/a%s", oor,
			p->n_out_of_range == 3 ? " (further ones are not listed)" : "");
}

static void parser_end_line(struct parser *p, bool by_cr)
{
	pp_line(p, p->line, p->len, by_cr, p->truncated);
	p->len = 0;
	p->truncated = false;
}

void parser_feed(struct parser *p, const char *buf, size_t len, struct result_sink *sink)
{
	if (!p || !buf || p->finished)
		return;
	p->sink = sink;
	for (size_t i = 0; i < len; i++) {
		char c = buf[i];
		if (c == '\n') {
			/* the \n of a \r\n: the line already ended at the \r */
			if (p->last_cr) {
				p->last_cr = false;
				continue;
			}
			parser_end_line(p, false);
			continue;
		}
		p->last_cr = false;
		if (c == '\r') {
			parser_end_line(p, true);
			p->last_cr = true;
			continue;
		}
		if (c == '\0')
			c = ' ';   /* NUL would end the C string the parsers read */
		if (p->len < PARSER_LINE_MAX)
			p->line[p->len++] = c;
		else
			p->truncated = true;
	}
	p->sink = NULL;
}

/* Progress without a final figure: the run was cut short (SIGINT,
 * crash).  Its last progress points are repeated, marked incomplete, so
 * that stores and screens can tell; it is never a final point. */
static bool parser_mark_incomplete(struct parser *q, struct result_sink *sink)
{
	if (!q->n_progress || q->n_final)
		return false;
	for (size_t i = 0; i < q->n_last_progress; i++) {
		struct result_point pt = q->last_progress[i];
		pt.flags = RP_PROGRESS | RP_INCOMPLETE;
		if (sink && sink->emit)
			sink->emit(sink->ctx, &pt);
	}
	q->prog.valid = true;
	q->prog.incomplete = true;
	return true;
}

void parser_finish(struct parser *p, struct result_sink *sink)
{
	if (!p || p->finished)
		return;
	p->sink = sink;
	if (p->len || p->truncated)
		parser_end_line(p, false);
	if (p->ops->finish)
		p->ops->finish(p);
	struct parser *q = p->child ? p->child : p;
	if (parser_mark_incomplete(q, sink)) {
		p->prog.valid = true;
		p->prog.incomplete = true;
	}
	p->finished = true;
	p->sink = NULL;
}

void parser_get_progress(const struct parser *p, struct parser_progress *out)
{
	if (!out)
		return;
	if (!p) {
		memset(out, 0, sizeof(*out));
		return;
	}
	*out = p->child ? p->child->prog : p->prog;
	if (p->child && p->prog.incomplete)
		out->incomplete = true;
}

/* --- auto ------------------------------------------------------------- */

/* Lines kept while the format is unknown, replayed to the chosen parser. */
#define AUTO_HOLD_BYTES 65536
#define AUTO_HOLD_LINES 512

/* A log may hold several tools one after another (a script that runs
 * fio, then dbench): each section goes to its tool's parser, one parser
 * per tool kept for the whole log (a tool seen again continues its runs). */
#define AUTO_KIDS 8

struct auto_state {
	char *hold;          /* lines, each NUL-terminated, then a flags byte */
	size_t used;
	size_t nlines;
	bool gave_up;
	struct parser *kids[AUTO_KIDS];   /* p->child is one of them */
	size_t nkids;
	bool tag;            /* several tools: labels get the tool's name */
};

/* A line that names its tool for certain: the first parser whose sniff
 * knows it. */
static const char *auto_sniff(const char *l)
{
	size_t n;
	const char *t = pp_trim(l, &n);
	for (size_t i = 0; i < N_OPS; i++)
		if (all_ops[i]->sniff && all_ops[i]->sniff(t))
			return all_ops[i]->name;
	return NULL;
}

static void auto_init(struct parser *p)
{
	struct auto_state *a = p->st;
	a->hold = malloc(AUTO_HOLD_BYTES);
	if (!a->hold)
		a->gave_up = true;
}

static void auto_fini(struct parser *p)
{
	struct auto_state *a = p->st;
	free(a->hold);
	a->hold = NULL;
	for (size_t i = 0; i < a->nkids; i++)
		parser_free(a->kids[i]);
	a->nkids = 0;
	p->child = NULL;
}

static void auto_choose(struct parser *p, const char *name)
{
	struct auto_state *a = p->st;
	for (size_t i = 0; i < a->nkids; i++)
		if (strcmp(a->kids[i]->ops->name, name) == 0) {
			p->child = a->kids[i];
			return;
		}
	if (a->nkids >= AUTO_KIDS)
		return;   /* bounded: the current tool's parser keeps the lines */
	char label[RP_LABEL_LEN];
	if (a->tag)
		snprintf(label, sizeof(label), "%s%s%s", p->label, p->label[0] ? " " : "", name);
	else
		pp_strlcpy(label, p->label, sizeof(label));
	struct parser *c = parser_new(name, label);
	if (!c) {
		a->gave_up = true;
		return;
	}
	a->kids[a->nkids++] = c;
	if (p->x_set)
		(void)parser_set_x(c, p->x_name, p->x);
	if (p->run_fixed >= 0)
		(void)parser_set_run(c, p->run_fixed);
	p->child = c;
	c->sink = p->sink;
	/* replay what was held */
	size_t off = 0;
	for (size_t i = 0; i < a->nlines && off < a->used; i++) {
		char *l = a->hold + off;
		size_t len = strlen(l);
		unsigned char fl = (unsigned char)l[len + 1];
		pp_line(c, l, len, fl & 1, fl & 2);
		off += len + 2;
	}
	a->used = a->nlines = 0;
}

static void auto_line(struct parser *p, char *line, size_t len, bool by_cr, bool truncated)
{
	struct auto_state *a = p->st;
	if (p->child) {
		const char *name = auto_sniff(line);
		if (name && strcmp(name, p->child->ops->name) != 0) {
			/* another tool's section: its points must not pool with the
			 * first tool's under one label (sysbench's write_bw is MiB/s,
			 * fio's KiB/s) */
			if (!a->tag) {
				a->tag = true;
				for (size_t i = 0; i < a->nkids; i++)
					if (a->kids[i]->n_final == 0)
						snprintf(a->kids[i]->label, sizeof(a->kids[i]->label), "%s%s%s", p->label,
							 p->label[0] ? " " : "", a->kids[i]->ops->name);
			}
			auto_choose(p, name);
		}
		p->child->sink = p->sink;
		pp_line(p->child, line, len, by_cr, truncated);
		return;
	}
	if (a->gave_up)
		return;
	const char *name = auto_sniff(line);
	if (name) {
		auto_choose(p, name);
		if (p->child)
			pp_line(p->child, line, len, by_cr, truncated);
		return;
	}
	if (!a->hold)
		return;
	if (a->nlines >= AUTO_HOLD_LINES || a->used + len + 2 > AUTO_HOLD_BYTES) {
		/* the oldest lines are dropped: memory stays bounded, and a tool
		 * that has not named itself by now is unlikely to */
		a->used = a->nlines = 0;
		if (len + 2 > AUTO_HOLD_BYTES)
			return;
	}
	memcpy(a->hold + a->used, line, len + 1);
	a->hold[a->used + len + 1] = (char)((by_cr ? 1 : 0) | (truncated ? 2 : 0));
	a->used += len + 2;
	a->nlines++;
}

static void auto_finish(struct parser *p)
{
	struct auto_state *a = p->st;
	if (!p->child && !a->gave_up && a->nlines) {
		/* never named: a mail or a table; the mail parser is the catch-all */
		auto_choose(p, "mail");
	}
	for (size_t i = 0; i < a->nkids; i++) {
		struct parser *c = a->kids[i];
		c->sink = p->sink;
		if (c->len || c->truncated)
			parser_end_line(c, false);
		if (c->ops->finish)
			c->ops->finish(c);
		/* the current one is marked by parser_finish */
		if (c != p->child)
			(void)parser_mark_incomplete(c, p->sink);
	}
}

const struct parser_ops parser_auto_ops = {
	.name = "auto",
	.state_size = sizeof(struct auto_state),
	.init = auto_init,
	.line = auto_line,
	.finish = auto_finish,
	.fini = auto_fini,
};

/* --- whole files ------------------------------------------------------ */

/* A file's format from its first bytes: a mail is told by its label lines
 * and tables, a tool's output by its banner. */
static const char *parser_guess_file(const char *buf, size_t len, int *ntools)
{
	int score_mail = 0;
	const char *tool = NULL;
	char prev[64] = "";
	const char *seen[AUTO_KIDS];
	*ntools = 0;
	char line[PARSER_LINE_MAX + 1];
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && buf[j] != '\n' && buf[j] != '\r')
			j++;
		size_t l = j - i < PARSER_LINE_MAX ? j - i : PARSER_LINE_MAX;
		memcpy(line, buf + i, l);
		line[l] = '\0';
		for (size_t k = 0; k < l; k++)
			if (!line[k])
				line[k] = ' ';
		const char *st = auto_sniff(line);
		/* a pasted "Throughput ... procs" line alone does not make a
		 * dbench log; the banner does */
		if (st && !(strcmp(st, "dbench") == 0 && pp_starts_with(line, "Throughput"))) {
			if (!tool)
				tool = st;
			bool known = false;
			for (int k = 0; k < *ntools && !known; k++)
				known = strcmp(seen[k], st) == 0;
			if (!known && *ntools < AUTO_KIDS)
				seen[(*ntools)++] = st;
		}
		size_t n;
		const char *t = pp_trim(line, &n);
		if (n >= 2 && n < 40 && t[n - 1] == ':' && !memchr(t, ' ', n) && t[0] >= '0' && t[0] <= '9')
			score_mail += 2;                      /* "2.4.16:" */
		if (pp_starts_with(t, "----") && strchr(t, '('))
			score_mail += 2;                      /* "---- (5,10) - default" */
		if (strchr(line, '\t') && t[0] >= '0' && t[0] <= '9')
			score_mail += 1;                      /* TAB table row */
		/* "Kernel 2.5.43" underlined with "=====": a title a person wrote
		 * over what follows (no tool underlines with '=') */
		bool rule = n >= 3 && strspn(t, "=") == n;
		if (rule && prev[0] && !auto_sniff(prev)) {
			bool letter = false;
			for (const char *q = prev; *q; q++)
				letter = letter || (*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z');
			score_mail += letter ? 2 : 0;
		}
		if (n < sizeof(prev) && !rule) {
			memcpy(prev, t, n);
			prev[n] = '\0';
		} else {
			prev[0] = '\0';
		}
		i = j + 1;
	}
	/* two label lines, two section headings, two underlined titles or a
	 * few TAB rows: a mail, even when it quotes a tool's lines (a bonnie++
	 * table under each kernel's title, Throughput) */
	if (score_mail >= 4)
		return "mail";
	if (tool)
		return tool;
	return "mail";
}

const char *parser_default_label(const char *path, char *buf, size_t len)
{
	if (!buf || !len)
		return buf;
	const char *b = path ? util_base_name(path) : "";
	/* the extension comes off the whole name, before any cut */
	size_t n = strlen(b);
	const char *dot = strrchr(b, '.');
	if (dot && dot != b)
		n = (size_t)(dot - b);
	/* a name too long for a label is cut with a hash of the whole stem
	 * (two long names that share their first characters still differ) */
	char stem[PATH_MAX];
	if (n >= sizeof(stem))
		n = sizeof(stem) - 1;
	memcpy(stem, b, n);
	stem[n] = '\0';
	pp_label_join(buf, len, "", stem);
	return buf;
}

#define PARSE_FILE_MAX (256L * 1024 * 1024)

int parser_parse_file(const char *path, const char *name, const char *label,
		      struct result_set *out, char *err, size_t errlen)
{
	return parser_parse_file_notes(path, name, label, out, NULL, 0, NULL, err, errlen);
}

/* A file read whole for the parsers, up to its first zero byte. */
struct parse_text {
	char *buf;
	size_t len, cap;
	size_t zero_at;        /* where a zero byte stopped the read, or SIZE_MAX */
	off_t fsize;           /* the file's size, to say how much was not read */
};

/* Room for more of the file; a file larger than any output or mail is
 * refused rather than held. */
static int parse_text_grow(struct parse_text *t, const char *path, char *err, size_t errlen)
{
	if (t->cap >= (size_t)PARSE_FILE_MAX) {
		if (err)
			snprintf(err, errlen, "%s: larger than %ld MiB, not a benchmark output or mail (split it)",
				 path, PARSE_FILE_MAX >> 20);
		return -EFBIG;
	}
	size_t ncap = t->cap ? t->cap * 2 : 65536;
	char *nb = realloc(t->buf, ncap);
	if (!nb) {
		if (err)
			snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	t->buf = nb;
	t->cap = ncap;
	return 0;
}

/* The file into t (t->buf freed on failure). */
static int parse_text_read(struct parse_text *t, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	*t = (struct parse_text){ .zero_at = SIZE_MAX };
	if (fd < 0) {
		int e = errno;
		if (err)
			snprintf(err, errlen, "%s: %s (give a readable text file of benchmark output or a mail)",
				 path, strerror(e));
		return -e;
	}
	t->fsize = lseek(fd, 0, SEEK_END);
	lseek(fd, 0, SEEK_SET);
	for (;;) {
		if (t->len == t->cap && (rc = parse_text_grow(t, path, err, errlen)))
			break;
		ssize_t r = read(fd, t->buf + t->len, t->cap - t->len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			if (err)
				snprintf(err, errlen, "%s: read: %s", path, strerror(-rc));
			break;
		}
		if (r == 0)
			break;
		/* text has no zero byte: one is where a crash left a hole, or
		 * not text at all; read no further, never hold the rest */
		const char *z = memchr(t->buf + t->len, '\0', (size_t)r);
		if (z) {
			t->zero_at = (size_t)(z - t->buf);
			t->len = t->zero_at;
			break;
		}
		t->len += (size_t)r;
	}
	close(fd);
	if (rc) {
		free(t->buf);
		t->buf = NULL;
	}
	return rc;
}

/* A file with no text to parse is said so before a parser would say it
 * found no result. */
static int parse_text_check(const struct parse_text *t, const char *path, char *err, size_t errlen)
{
	size_t blank = 0;

	if (t->zero_at == 0) {
		if (err)
			snprintf(err, errlen, "%s: byte 0: a zero byte: not a text file (give benchmark output or a mail)",
				 path);
		return -EINVAL;
	}
	while (blank < t->len && (t->buf[blank] == ' ' || t->buf[blank] == '\t' || t->buf[blank] == '\n' ||
				  t->buf[blank] == '\r'))
		blank++;
	if (blank == t->len) {
		if (err)
			snprintf(err, errlen, "%s: %s (give the file that holds the benchmark's output or the mail)",
				 path, t->len ? "only blank lines, no results" : "empty file, no results");
		return -ENODATA;
	}
	return 0;
}

/* The parser's notes for the caller, and one more for a zero byte that
 * cut the read short. */
static void parse_text_notes(const struct parse_text *t, const struct parser_note *pn, size_t np,
			     struct parser_note *notes, size_t maxnotes, size_t *nnotes)
{
	if (!notes || !nnotes)
		return;
	for (size_t i = 0; i < np && *nnotes < maxnotes; i++)
		notes[(*nnotes)++] = pn[i];
	if (t->zero_at != SIZE_MAX && *nnotes < maxnotes) {
		struct parser_note *zn = &notes[(*nnotes)++];
		int line = 1;
		for (size_t i = 0; i < t->zero_at; i++)
			line += t->buf[i] == '\n';
		memset(zn, 0, sizeof(*zn));
		zn->first = zn->last = line;
		zn->understood = false;   /* said without --explain */
		snprintf(zn->text, sizeof(zn->text),
			 "byte %zu: a zero byte: the rest of the file (%lld bytes) is not read",
			 t->zero_at, t->fsize > 0 ? (long long)t->fsize - (long long)t->zero_at : 0LL);
	}
}

/* The parser to run on t: the one named, or the one auto guesses; several
 * tools in one log make an "auto" parser that tags each tool's points. */
static struct parser *parse_text_parser(const struct parse_text *t, const char *name, const char *label,
					const char **pname)
{
	int ntools = 0;

	*pname = name;
	if (!name || strcmp(name, "auto") == 0)
		*pname = parser_guess_file(t->buf, t->len < 262144 ? t->len : 262144, &ntools);
	/* several tools in one log: each section to its own parser, each
	 * tool's points under "LABEL tool" so that none pool with another's */
	bool sections = ntools >= 2 && strcmp(*pname, "mail") != 0;
	struct parser *p = parser_new(sections ? "auto" : *pname, label);
	if (p && sections)
		((struct auto_state *)p->st)->tag = true;
	return p;
}

int parser_parse_file_notes(const char *path, const char *name, const char *label,
			    struct result_set *out, struct parser_note *notes, size_t maxnotes,
			    size_t *nnotes, char *err, size_t errlen)
{
	struct parse_text t;
	int rc;

	if (nnotes)
		*nnotes = 0;
	if (err && errlen)
		err[0] = '\0';
	if (!path || !out) {
		if (err)
			snprintf(err, errlen, "parser_parse_file: no file or no result set given");
		return -EINVAL;
	}
	if (name && strcmp(name, "auto") != 0 && !pp_ops_by_name(name)) {
		if (err)
			snprintf(err, errlen, "%s: unknown parser '%s' (use dbench, fio, iozone, bonnie, sysbench, mail, tables or auto)",
				 path, name);
		return -EINVAL;
	}
	if ((rc = parse_text_read(&t, path, err, errlen)))
		return rc;
	if ((rc = parse_text_check(&t, path, err, errlen))) {
		free(t.buf);
		return rc;
	}
	const char *pname;
	char deflabel[RP_LABEL_LEN];
	if (!label || !*label)
		label = parser_default_label(path, deflabel, sizeof(deflabel));
	struct parser *p = parse_text_parser(&t, name, label, &pname);
	if (!p) {
		free(t.buf);
		if (err)
			snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	size_t before = out->n;
	struct result_sink sink = result_set_sink(out);
	parser_feed(p, t.buf, t.len, &sink);
	parser_finish(p, &sink);
	const struct parser_note *pn;
	size_t np = parser_notes(p, &pn);
	parse_text_notes(&t, pn, np, notes, maxnotes, nnotes);
	/* when nothing was read, a part the parser saw but does not read
	 * (a sysbench OLTP report) is the reason to give */
	char why[sizeof(pn->text) + 32] = "";
	for (size_t i = 0; i < np && !why[0]; i++)
		if (!pn[i].understood)
			snprintf(why, sizeof(why), " (line %d: %s)", pn[i].first, pn[i].text);
	parser_free(p);
	free(t.buf);
	if (out->n == before) {
		if (err && why[0])
			snprintf(err, errlen, "%s: no result found by the %s parser%s", path, pname, why);
		else if (err)
			snprintf(err, errlen, "%s: no result found by the %s parser (check the file is benchmark output "
				 "or a mail with result tables, or name the parser)", path, pname);
		return -ENODATA;
	}
	return 0;
}
