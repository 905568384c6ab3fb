/* text: UTF-8 checks and line-safe output for the machine formats. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/base/text.h"

size_t text_utf8_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;
	unsigned char lo = 0x80, hi = 0xBF;   /* the second byte's range */

	if (p[0] == 0)
		return 0;
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xC2 && p[0] <= 0xDF)
		n = 2;
	else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
		n = 3;
		if (p[0] == 0xE0)
			lo = 0xA0;          /* overlong */
		else if (p[0] == 0xED)
			hi = 0x9F;          /* UTF-16 surrogates */
	} else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
		n = 4;
		if (p[0] == 0xF0)
			lo = 0x90;          /* overlong */
		else if (p[0] == 0xF4)
			hi = 0x8F;          /* past U+10FFFF */
	} else {
		return 0;               /* a continuation byte, C0, C1, F5..FF */
	}
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return 0;
	return n;
}

void text_put_safe(FILE *out, const char *s, size_t len, bool newlines)
{
	const char *end = s + len, *run = s;   /* bytes that go out as they are, one fwrite */

	while (s < end) {
		unsigned char c = (unsigned char)*s;
		size_t n = c ? text_utf8_len(s) : 0;
		/* C1 controls (U+0080-U+009F) are CSI, OSC ... to some
		 * terminals, as ESC [ is to all */
		bool c1 = n == 2 && c == 0xc2 && (unsigned char)s[1] < 0xa0;
		if (n > (size_t)(end - s))
			n = 0;
		if ((c == '\n' && newlines) || !((c < 0x20 && c != '\t') || c == 0x7f || !n || c1)) {
			s += c == '\n' ? 1 : n;
			continue;
		}
		fwrite(run, 1, (size_t)(s - run), out);
		for (size_t i = 0; i < (c1 ? 2u : 1u); i++)
			fprintf(out, "\\x%02x", (unsigned char)s[i]);
		s += c1 ? 2 : 1;
		run = s;
	}
	fwrite(run, 1, (size_t)(s - run), out);
}

void text_put_line_safe(FILE *out, const char *s)
{
	text_put_safe(out, s, strlen(s), false);
}

void text_put_message(FILE *out, const char *prefix, const char *msg)
{
	fputs(prefix, out);
	text_put_line_safe(out, msg);
	fputc('\n', out);
}

void text_put_number(FILE *out, double v, int digits, bool json)
{
	if (isfinite(v))
		fprintf(out, "%.*g", digits, v);
	else if (json)
		fputs("null", out);
}

char *text_fmt_exact(double v, char *buf, size_t n)
{
	if (!n)
		return buf;
	for (int d = 1; d <= 17; d++) {
		snprintf(buf, n, "%.*g", d, v);
		if (!isfinite(v) || strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

char *text_fmt_si(double v, unsigned base, int p0, const char *unit, bool compact, char *buf,
		  size_t n)
{
	static const char *const bin[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	static const char *const dec[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char up[] = " KMGTPE";
	const int np = 7;
	char num[32];
	if (!n)
		return buf;
	if (!isfinite(v)) {
		snprintf(buf, n, "n/a");
		return buf;
	}
	if (!unit)
		unit = "";
	double b = base == 1024 ? 1024 : 1000, a = fabs(v);
	int p = p0 < 0 ? 0 : p0 >= np ? np - 1 : p0;
	if (a == 0) {
		snprintf(buf, n, compact ? "0%s" : (*unit ? "0 %s" : "0"), unit);
		return buf;
	}
	/* up while the digits would be 1000 or more once rounded to three */
	/* 0.977 GiB rather than 1000 MiB; below 1 at p0 stays (0.5K) */
	while (a >= 999.5 && p < np - 1) {
		a /= b;
		p++;
	}
	int dp = a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2;
	if (p == 0 && a == floor(a))
		dp = 0;   /* a count or a swept value as it is: 2 procs, not 2.0 */
	if (a < 1)
		dp = (int)ceil(-log10(a)) + 2;   /* 0.977, 0.0123: still three digits */
	if (dp > 9)
		dp = 9;
	snprintf(num, sizeof num, "%s%.*f", v < 0 ? "-" : "", dp, a);
	/* drop trailing zeros after the point, but one: 2.00 -> 2.0 */
	char *dot = strchr(num, '.');
	if (dot) {
		char *e = num + strlen(num) - 1;
		while (e > dot + 1 && *e == '0')
			*e-- = '\0';
	}
	if (compact) {
		char pre[2] = { p ? up[p] : '\0', '\0' };
		snprintf(buf, n, "%s%s%s", num, pre, unit);
	} else {
		const char *pre = base == 1024 ? bin[p] : dec[p];
		if (*pre || *unit)
			snprintf(buf, n, "%s %s%s", num, pre, unit);
		else
			snprintf(buf, n, "%s", num);
	}
	return buf;
}
