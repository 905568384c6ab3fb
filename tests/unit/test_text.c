/* text: the UTF-8 check of the machine formats (RFC 3629 table 3.7) and
 * the line-safe output of --batch. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iodash/base/text.h"

static void test_utf8_len(void **st)
{
	(void)st;
	assert_int_equal(text_utf8_len("a"), 1);
	assert_int_equal(text_utf8_len(""), 0);
	assert_int_equal(text_utf8_len("\xc3\xa9"), 2);            /* é */
	assert_int_equal(text_utf8_len("\xe2\x82\xac"), 3);        /* € */
	assert_int_equal(text_utf8_len("\xf0\x9f\x98\x80"), 4);    /* U+1F600 */
	assert_int_equal(text_utf8_len("\xf4\x8f\xbf\xbf"), 4);    /* U+10FFFF */
	assert_int_equal(text_utf8_len("\xff"), 0);
	assert_int_equal(text_utf8_len("\x80"), 0);                /* lone continuation */
	assert_int_equal(text_utf8_len("\xc0\xaf"), 0);            /* overlong '/' */
	assert_int_equal(text_utf8_len("\xe0\x80\xaf"), 0);        /* overlong */
	assert_int_equal(text_utf8_len("\xed\xa0\x80"), 0);        /* surrogate */
	assert_int_equal(text_utf8_len("\xf4\x90\x80\x80"), 0);    /* past U+10FFFF */
	assert_int_equal(text_utf8_len("\xc3"), 0);                /* cut off at the end */
	assert_int_equal(text_utf8_len("\xe2\x82"), 0);
}

static void test_line_safe(void **st)
{
	(void)st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	text_put_line_safe(f, "a\tb\r\n\x1b[2J\xff\xc3\xa9\x7f");
	fclose(f);
	assert_string_equal(buf, "a\tb\\x0d\\x0a\\x1b[2J\\xff\xc3\xa9\\x7f");
	free(buf);
}

/* C1 controls (a CSI to some terminals) are escaped; with newlines the
 * line ends stay, everything else is the line rule. */
static void test_put_safe(void **st)
{
	(void)st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	text_put_safe(f, "l\xc2\x9b" "2J\xc2\xa0\n\x1b]2;x\x07\n", 15, true);
	text_put_line_safe(f, "\xc2\x85|");
	fclose(f);
	assert_string_equal(buf, "l\\xc2\\x9b2J\xc2\xa0\n\\x1b]2;x\\x07\n\\xc2\\x85|");
	free(buf);
}

/* The one number printer of export and compare: digits as asked, a
 * missing figure is null in JSON and an empty cell in CSV. */
static void test_put_number(void **st)
{
	(void)st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	text_put_number(f, 1014.2, 9, true);
	fputc(',', f);
	text_put_number(f, 1.0 / 3, 9, false);
	fputc(',', f);
	text_put_number(f, 1.0 / 3, 10, false);
	fputc(',', f);
	text_put_number(f, NAN, 10, true);
	fputc(',', f);
	text_put_number(f, INFINITY, 10, false);
	fputc(',', f);
	text_put_number(f, 0, 9, false);
	fclose(f);
	assert_string_equal(buf, "1014.2,0.333333333,0.3333333333,null,,0");
	free(buf);
}

/* text_put_number and text_put_fixed write most figures without printf:
 * their bytes must be printf's for every figure, those they write
 * themselves and those they leave to it (a half, or near one). */
static void put_both(FILE *f, FILE *g, double v, unsigned long long r)
{
	int digits = 1 + (int)(r % 17), dec = (int)((r >> 8) % 7), w = (int)((r >> 12) % 14);
	bool plus = (r >> 20) & 1;
	text_put_number(f, v, digits, false);
	fprintf(g, "%.*g", digits, v);
	text_put_number(f, v, 10, false);
	fprintf(g, "%.*g", 10, v);
	text_put_fixed(f, w, dec, plus, v);
	fprintf(g, plus ? "%+*.*f" : "%*.*f", w, dec, v);
	text_put_fixed(f, 12, 2, false, v);
	fprintf(g, "%*.2f", 12, v);
	fputc('\n', f);
	fputc('\n', g);
}

static void test_numbers_as_printf(void **st)
{
	static const double fixed[] = { 0, -0.0, 0.005, 0.015, 0.025, 1.005, 2.675, 0.125, -0.125, 1e15, 999999999999999,
					1e-4, 9.99995e-5, 0.0001, 123456.789, 9999999999.5, 99999.99999, 1e22, 1e23,
					5e-324, 1.7976931348623157e308, 192.4, 157.89, -48.4, 0.3, 1.0 / 3 };
	unsigned long long r = 88172645463325252ULL;
	char *a = NULL, *b = NULL;
	size_t la = 0, lb = 0;
	FILE *f = open_memstream(&a, &la), *g = open_memstream(&b, &lb);
	(void)st;
	assert_non_null(f);
	assert_non_null(g);
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		put_both(f, g, fixed[i], i * 2654435761u);
	for (int i = 0; i < 200000; i++) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		/* a short decimal as a table prints it, or any double */
		double v = (double)(long long)(r % 100000000000ULL) / pow(10, (double)((r >> 40) % 12));
		if ((r >> 59) == 0)
			memcpy(&v, &r, sizeof(v));
		else if ((r >> 59) == 1)
			v = nextafter((double)(r % 1000000 * 2 + 1) / pow(10, (double)((r >> 40) % 8)) / 2,
				      (r >> 57) & 1 ? INFINITY : 0);   /* at or beside a half */
		else if ((r >> 59) == 2)
			v = (double)(r % 1000) / 7;   /* a mean */
		if ((r >> 58) & 1)
			v = -v;
		put_both(f, g, v, r >> 3);
	}
	fclose(f);
	fclose(g);
	for (size_t i = 0, line = 1; i < la && i < lb; line += a[i++] == '\n')
		if (a[i] != b[i])
			fail_msg("line %zu differs: text_put_* gave \"%.40s\", printf \"%.40s\"", line,
				 memrchr(a, '\n', i) ? (char *)memrchr(a, '\n', i) + 1 : a,
				 memrchr(b, '\n', i) ? (char *)memrchr(b, '\n', i) + 1 : b);
	assert_int_equal(la, lb);
	free(a);
	free(b);
}

/* quoted-printable's =3D and =3d, a recording's CRC: both cases, and
 * nothing else is a digit */
static void test_hex_digit(void **st)
{
	(void)st;
	assert_int_equal(text_hex_digit('0'), 0);
	assert_int_equal(text_hex_digit('9'), 9);
	assert_int_equal(text_hex_digit('a'), 10);
	assert_int_equal(text_hex_digit('F'), 15);
	assert_int_equal(text_hex_digit('g'), -1);
	assert_int_equal(text_hex_digit('G'), -1);
	assert_int_equal(text_hex_digit('/'), -1);
	assert_int_equal(text_hex_digit(':'), -1);
	assert_int_equal(text_hex_digit('@'), -1);
	assert_int_equal(text_hex_digit(0), -1);
}

static void test_fmt_si(void **st)
{
	(void)st;
	char b[32];
	/* the examples */
	assert_string_equal(text_fmt_si(1.57e9, 1024, 0, "B/s", false, b, sizeof b), "1.46 GiB/s");
	assert_string_equal(text_fmt_si(2e6, 1000, 0, "", false, b, sizeof b), "2.0 M");
	assert_string_equal(text_fmt_si(1e9, 1000, 0, "/s", false, b, sizeof b), "1.0 G/s");
	/* fio's 1531904 KiB/s from the header */
	assert_string_equal(text_fmt_si(1531904.0 * 1024, 1024, 0, "B/s", false, b, sizeof b), "1.46 GiB/s");
	/* three digits at every magnitude, rounding carried into the prefix */
	assert_string_equal(text_fmt_si(125, 1000, 0, "", false, b, sizeof b), "125");
	assert_string_equal(text_fmt_si(12.54, 1000, 0, "ms", false, b, sizeof b), "12.5 ms");
	assert_string_equal(text_fmt_si(9.996, 1000, 0, "", false, b, sizeof b), "10.0");
	assert_string_equal(text_fmt_si(16, 1000, 0, "", false, b, sizeof b), "16");
	assert_string_equal(text_fmt_si(2, 1000, 0, "", false, b, sizeof b), "2");
	assert_string_equal(text_fmt_si(999.4, 1000, 0, "", false, b, sizeof b), "999");
	assert_string_equal(text_fmt_si(999.6, 1000, 0, "", false, b, sizeof b), "1.0 k");
	assert_string_equal(text_fmt_si(2.5e6, 1000, 0, "", false, b, sizeof b), "2.5 M");
	assert_string_equal(text_fmt_si(-2.5e6, 1000, 0, "", false, b, sizeof b), "-2.5 M");
	assert_string_equal(text_fmt_si(0.5, 1000, 0, "", false, b, sizeof b), "0.5");
	assert_string_equal(text_fmt_si(0.0123, 1000, 0, "s", false, b, sizeof b), "0.0123 s");
	assert_string_equal(text_fmt_si(0, 1024, 0, "B/s", false, b, sizeof b), "0 B/s");
	assert_string_equal(text_fmt_si(NAN, 1024, 0, "B/s", false, b, sizeof b), "n/a");
	/* 1000 MiB/s is not "1000M/s": past three digits the next prefix */
	assert_string_equal(text_fmt_si(1000, 1024, 2, "B/s", false, b, sizeof b), "0.977 GiB/s");
	/* compact, in kB (p0 1): the dirty panel's figures */
	assert_string_equal(text_fmt_si(131072, 1024, 1, "", true, b, sizeof b), "128M");
	assert_string_equal(text_fmt_si(2.5 * 1048576, 1024, 1, "/s", true, b, sizeof b), "2.5G/s");
	assert_string_equal(text_fmt_si(236, 1024, 1, "", true, b, sizeof b), "236K");
	assert_string_equal(text_fmt_si(0.5, 1024, 1, "", true, b, sizeof b), "0.5K");
	assert_string_equal(text_fmt_si(0, 1024, 1, "/s", true, b, sizeof b), "0/s");
	/* a short buffer is cut, never overrun */
	char s4[4];
	text_fmt_si(1.57e9, 1024, 0, "B/s", false, s4, sizeof s4);
	assert_string_equal(s4, "1.4");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_len),
		cmocka_unit_test(test_line_safe),
		cmocka_unit_test(test_put_safe),
		cmocka_unit_test(test_put_number), cmocka_unit_test(test_fmt_si),
		cmocka_unit_test(test_numbers_as_printf),
		cmocka_unit_test(test_hex_digit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
