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
		if (c >= 0x20 && c < 0x7f) {
			s++;      /* the common case, at once */
			continue;
		}
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

/* |v| times 10^dec rounded to an integer *m, as printf rounds v's exact
 * value to dec decimals: y, the product in doubles, is within an ulp of
 * the exact one, so unless y is that close to a half both round alike
 * (near a half, or past 10^15, printf decides). */
static bool text_scaled(double v, int dec, long long *m)
{
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
				      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	if (dec < 0 || dec > 22)
		return false;
	double y = fabs(v) * p10[dec];
	if (!(y < 1e15))
		return false;
	double f = y - floor(y);
	if (fabs(f - 0.5) <= y * 0x1p-50)
		return false;
	*m = (long long)floor(y) + (f > 0.5);
	return true;
}

/* m / 10^dec in decimals, a sign before it: printf's "%.{dec}f" (with
 * strip, %g's form: trailing zeros and a bare point dropped). */
static int text_put_scaled(char *buf, char sign, long long m, int dec, bool strip)
{
	char d[24];
	int nd = 0, o = 0;
	do {
		d[nd++] = (char)('0' + m % 10);
		m /= 10;
	} while (m || nd <= dec);
	if (sign)
		buf[o++] = sign;
	while (nd > dec)
		buf[o++] = d[--nd];
	int keep = 0;
	while (strip && keep < nd && d[keep] == '0')
		keep++;
	if (keep < nd)
		buf[o++] = '.';
	while (nd > keep)
		buf[o++] = d[--nd];
	buf[o] = '\0';
	return o;
}

void text_put_fixed(FILE *out, int width, int dec, bool plus, double v)
{
	long long m;
	char num[48], b[80];
	if (width < 0 || width >= 32 || !text_scaled(v, dec, &m)) {
		fprintf(out, plus ? "%+*.*f" : "%*.*f", width, dec, v);
		return;
	}
	int n = text_put_scaled(num, signbit(v) ? '-' : plus ? '+' : 0, m, dec, false);
	int pad = width > n ? width - n : 0;
	memset(b, ' ', (size_t)pad);
	memcpy(b + pad, num, (size_t)n + 1);
	fputs(b, out);
}

void text_put_number(FILE *out, double v, int digits, bool json)
{
	static const long long p10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
					 1000000000, 10000000000, 100000000000, 1000000000000,
					 10000000000000, 100000000000000, 1000000000000000 };
	long long m;
	char b[48];
	if (!isfinite(v)) {
		if (json)
			fputs("null", out);
		return;
	}
	/* %g's fixed form: the value rounded to `digits` significant
	 * digits has exponent x in [-4, digits); m's digits check x */
	int x = v != 0 ? (int)floor(log10(fabs(v))) : -99, dec = digits - 1 - x;
	if (digits >= 1 && digits <= 15 && x >= -4 && text_scaled(v, dec, &m) && m >= p10[digits - 1] &&
	    m < p10[digits]) {
		text_put_scaled(b, signbit(v) ? '-' : 0, m, dec, true);
		fputs(b, out);
	} else
		fprintf(out, "%.*g", digits, v);
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

int text_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
