/* Number, unit and token helpers shared by all parsers (one copy). */
#include <ctype.h>
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pinternal.h"
#include "iodash/parsers/units.h"

void pp_strlcpy(char *dst, const char *src, size_t n)
{
	if (!n)
		return;
	size_t l = src ? strnlen(src, n - 1) : 0;
	if (l)
		memcpy(dst, src, l);
	dst[l] = '\0';
}

void pp_strlcpy_span(char *dst, size_t n, const char *s, size_t len)
{
	pp_strlcpy(dst, s, len < n ? len + 1 : n);
}

/* The last number pp_scan_number refused as out of range on this
 * thread: pp_line() takes it after each line for a note (a reader runs
 * on one thread; the number is refused either way). */
static _Thread_local char pp_oor[32];

const char *pp_take_out_of_range(char *buf, size_t n)
{
	pp_strlcpy(buf, pp_oor, n);
	pp_oor[0] = '\0';
	return buf;
}

/* Powers of ten a double holds exactly (10^22 is the last). */
static const double pp_pow10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static bool pp_digit(char c)
{
	return (unsigned)(c - '0') < 10;
}

size_t pp_scan_number(const char *s, double *out)
{
	/* strtod alone would accept "inf", "nan" and hex floats, which no
	 * benchmark prints; validate the plain decimal shape first.  Its
	 * digits are gathered on the way: up to 15 significant ones times a
	 * power of ten up to 10^22, both exact, make one IEEE product or
	 * quotient, rounded once: the correctly rounded value strtod gives
	 * (strtod was a third of reading a mail of tables).  Past that,
	 * strtod reads it. */
	size_t i = 0, digits = 0;
	uint64_t mant = 0;
	int sig = 0, scale = 0;
	bool neg = s[0] == '-';
	if (s[i] == '+' || s[i] == '-')
		i++;
	for (; pp_digit(s[i]); i++, digits++)
		if ((mant || s[i] != '0') && ++sig <= 15)
			mant = mant * 10 + (uint64_t)(s[i] - '0');
	if (s[i] == '.') {
		i++;
		for (; pp_digit(s[i]); i++, digits++)
			if ((mant || s[i] != '0') && ++sig <= 15) {
				mant = mant * 10 + (uint64_t)(s[i] - '0');
				scale--;
			} else if (sig <= 15)
				scale--;
	}
	if (!digits)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		size_t j = i + 1;
		bool eneg = s[j] == '-';
		int e = 0;
		if (s[j] == '+' || s[j] == '-')
			j++;
		if (pp_digit(s[j])) {
			while (pp_digit(s[j]) && j - i < 6)
				e = e * 10 + (s[j++] - '0');
			if (!pp_digit(s[j])) {
				i = j;
				scale += eneg ? -e : e;
			}
		}
	}
	char buf[64];
	if (i >= sizeof(buf))
		return 0;
	double v = (double)mant;
#if FLT_EVAL_METHOD == 0
	if (sig <= 15 && (mant == 0 || (scale >= -22 && scale <= 22))) {
		if (mant && scale)
			v = scale < 0 ? v / pp_pow10[-scale] : v * pp_pow10[scale];
		if (out)
			*out = neg ? -v : v;
		return i;
	}
#endif
	memcpy(buf, s, i);
	buf[i] = '\0';
	v = strtod(buf, NULL);
	if (!isfinite(v)) {
		/* a number's shape, past a double (1e309): out of range */
		pp_strlcpy(pp_oor, buf, sizeof(pp_oor));
		return 0;
	}
	if (out)
		*out = v;
	return i;
}

bool pp_is_number(const char *s, double *out)
{
	size_t n = pp_scan_number(s, out);
	return n && s[n] == '\0';
}

static bool unit_eq(const char *u, size_t len, const char *w)
{
	return strlen(w) == len && strncasecmp(u, w, len) == 0;
}

double pp_unit_to_kib(const char *unit, size_t len)
{
	/* the rate's "/s", "/sec" is not the size's */
	const char *sl = memchr(unit, '/', len);
	return units_size_bytes(unit, sl ? (size_t)(sl - unit) : len) / 1024;
}

double pp_time_to_us(const char *unit, size_t len)
{
	return units_time_ns(unit, len) / 1e3;
}

bool pp_time_unit(const char *unit, size_t len, char *out)
{
	const char *n = units_time_name(unit, len);
	if (!n)
		return false;
	strcpy(out, n);   /* at most 3 characters: out has RP_UNIT_LEN */
	return true;
}

size_t pp_scan_suffixed(const char *s, double base, double *out)
{
	double v;
	size_t n = pp_scan_number(s, &v);
	if (!n)
		return 0;
	switch (s[n]) {
	case 'k': case 'K': v *= base; n++; break;
	case 'm': case 'M': v *= base * base; n++; break;
	case 'g': case 'G': v *= base * base * base; n++; break;
	default: break;
	}
	if (out)
		*out = v;
	return n;
}

bool pp_size_to_kib(const char *s, size_t len, double *kib)
{
	char buf[48];
	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	double v;
	size_t n = pp_scan_number(buf, &v);
	if (!n || v < 0)
		return false;
	const char *u = buf + n;
	size_t ul = len - n;
	double f;
	if (ul == 0)
		f = 1.0 / 1024;     /* fio: a bare number is bytes */
	else if (unit_eq(u, ul, "k") || unit_eq(u, ul, "kib") || unit_eq(u, ul, "kb"))
		f = 1;              /* fio sizes are binary unless kb_base says otherwise */
	else if (unit_eq(u, ul, "m") || unit_eq(u, ul, "mib") || unit_eq(u, ul, "mb"))
		f = 1024;
	else if (unit_eq(u, ul, "g") || unit_eq(u, ul, "gib") || unit_eq(u, ul, "gb"))
		f = 1024.0 * 1024;
	else if (unit_eq(u, ul, "b"))
		f = 1.0 / 1024;
	else
		return false;
	*kib = v * f;
	return isfinite(*kib);
}

static int pp_advance_col(int col, char c)
{
	if (c == '\t')
		return (col / 8 + 1) * 8;
	return col + 1;
}

size_t pp_tokens(const char *line, struct pp_tok *t, size_t max)
{
	size_t n = 0;
	int col = 0;
	const char *s = line;
	while (*s) {
		if (*s == ' ' || *s == '\t' || *s == '\v' || *s == '\f') {
			col = pp_advance_col(col, *s);
			s++;
			continue;
		}
		const char *b = s;
		int bcol = col;
		while (*s && *s != ' ' && *s != '\t' && *s != '\v' && *s != '\f') {
			col++;
			s++;
		}
		if (n < max) {
			t[n].s = b;
			t[n].len = (size_t)(s - b);
			t[n].col = bcol;
			t[n].endcol = col;
		}
		n++;
	}
	return n < max ? n : max;
}

size_t pp_cells(const char *line, struct pp_tok *t, size_t max)
{
	size_t n = 0;
	int col = 0;
	const char *s = line;
	while (*s) {
		if (*s == ' ' || *s == '\t') {
			col = pp_advance_col(col, *s);
			s++;
			continue;
		}
		const char *b = s, *e = s;
		int bcol = col, ecol = col;
		/* a cell runs until a tab or two blanks in a row */
		while (*s && *s != '\t' && !(s[0] == ' ' && (s[1] == ' ' || s[1] == '\t' || s[1] == '\0'))) {
			col++;
			s++;
			if (s[-1] != ' ') {
				e = s;
				ecol = col;
			}
		}
		if (n < max) {
			t[n].s = b;
			t[n].len = (size_t)(e - b);
			t[n].col = bcol;
			t[n].endcol = ecol;
		}
		n++;
	}
	return n < max ? n : max;
}

bool pp_tok_eq(const struct pp_tok *t, const char *word)
{
	return strlen(word) == t->len && strncmp(t->s, word, t->len) == 0;
}

bool pp_tok_number(const struct pp_tok *t, double *out)
{
	double v;
	size_t n = pp_scan_number(t->s, &v);
	if (!n || n != t->len)
		return false;
	if (out)
		*out = v;
	return true;
}

const char *pp_trim(const char *s, size_t *len)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t l = strlen(s);
	while (l && (s[l - 1] == ' ' || s[l - 1] == '\t'))
		l--;
	*len = l;
	return s;
}

/* Output pasted into a mail or a markdown page comes quoted: "> ",
 * "> > ", ">> " in front of every line.  The marks and the one blank each
 * is followed by go, so that the columns of a table stay where the tool
 * printed them (every line of a quote carries the same marks). */
size_t pp_quote_len(const char *line)
{
	const char *s = line + strspn(line, " \t");
	if (*s != '>')
		return 0;
	while (*s == '>') {
		s++;
		if (*s == ' ')
			s++;
	}
	return (size_t)(s - line);
}

const char *pp_unquoted(const char *line)
{
	const char *s = line + pp_quote_len(line);
	return s + strspn(s, " \t");
}

static bool pp_title_text(const char *t, size_t l)
{
	if (!l || l >= sizeof(((struct pp_title *)0)->prev))
		return false;
	for (size_t i = 0; i < l; i++)
		if ((t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z'))
			return true;
	return false;
}

static void pp_title_set(struct pp_title *tt, const char *t, size_t l)
{
	while (l && (t[l - 1] == ':' || t[l - 1] == ' '))
		l--;
	if (!l)
		return;
	/* runs of blanks and tabs ("libata-dev-2.6<TAB><TAB><TAB>P3 800") as one blank */
	size_t o = 0;
	for (size_t i = 0; i < l && o + 1 < sizeof(tt->title); i++) {
		bool blank = t[i] == ' ' || t[i] == '\t';
		if (blank && (o == 0 || tt->title[o - 1] == ' '))
			continue;
		tt->title[o++] = blank ? ' ' : t[i];
	}
	tt->title[o] = '\0';
	tt->fresh = true;
}

bool pp_title_line(struct pp_title *tt, const char *t, size_t l)
{
	size_t h = 0;
	while (h < l && t[h] == '#')
		h++;
	if (h >= 2 && h <= 6 && h < l && t[h] == ' ') {
		const char *s = t + h;
		size_t n = l - h;
		while (n && *s == ' ')
			s++, n--;
		tt->prev_ok = false;
		if (pp_title_text(s, n)) {
			pp_title_set(tt, s, n);
			return true;
		}
		return false;
	}
	bool rule = l >= 2 && (strspn(t, "=") == l || strspn(t, "-") == l);
	if (rule && tt->prev_ok) {
		pp_title_set(tt, tt->prev, strlen(tt->prev));
		tt->prev_ok = false;
		return true;
	}
	tt->prev_ok = !rule && pp_title_text(t, l);
	if (tt->prev_ok)
		pp_strlcpy_span(tt->prev, sizeof(tt->prev), t, l);
	return false;
}

void pp_label_join(char *buf, size_t n, const char *base, const char *tail)
{
	/* the tail is what tells the runs apart: when the two do not fit,
	 * the base gives way first (to 16 characters), then the tail is cut
	 * and a hash of it added, so two tails never make one label */
	size_t bl = strlen(base), tl = strlen(tail), max = n - 1;
	size_t keep_base = bl < 16 ? bl : 16;
	if (bl + 1 + tl <= max)
		keep_base = bl;
	else if (keep_base + 1 + tl <= max)
		keep_base = max - 1 - tl;
	if (keep_base + 1 + tl <= max) {
		snprintf(buf, n, "%.*s%s%s", (int)keep_base, base, keep_base && tl ? " " : "", tail);
		return;
	}
	uint32_t hash = 2166136261u;
	for (size_t i = 0; i < tl; i++) {
		hash ^= (unsigned char)tail[i];
		hash *= 16777619u;
	}
	char hx[16];
	int hn = snprintf(hx, sizeof(hx), "~%08x", (unsigned)hash);
	int room = (int)max - (int)keep_base - (keep_base ? 1 : 0) - hn;
	snprintf(buf, n, "%.*s%s%.*s%s", (int)keep_base, base, keep_base ? " " : "", room > 0 ? room : 0, tail, hx);
}

void pp_title_apply(struct parser *p, struct pp_title *tt)
{
	/* the label the caller (or the auto parser, renaming) gave is the base */
	if (!tt->applied[0] || strcmp(p->label, tt->applied) != 0)
		pp_strlcpy(tt->base, p->label, sizeof(tt->base));
	if (!tt->fresh)
		return;
	tt->fresh = false;
	char buf[RP_LABEL_LEN];
	pp_label_join(buf, sizeof(buf), tt->base, tt->title);
	pp_strlcpy(p->label, buf, sizeof(p->label));
	pp_strlcpy(tt->applied, buf, sizeof(tt->applied));
}

bool pp_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}
