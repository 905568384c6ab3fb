/* text: UTF-8 checks and line-safe output for the machine formats. */
#include <math.h>
#include "iodash/text.h"

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

void text_put_line_safe(FILE *out, const char *s)
{
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n = text_utf8_len(s);
		if ((c < 0x20 && c != '\t') || c == 0x7f || !n) {
			fprintf(out, "\\x%02x", c);
			s++;
		} else {
			fwrite(s, 1, n, out);
			s += n;
		}
	}
}

void text_put_number(FILE *out, double v, int digits, bool json)
{
	if (isfinite(v))
		fprintf(out, "%.*g", digits, v);
	else if (json)
		fputs("null", out);
}
