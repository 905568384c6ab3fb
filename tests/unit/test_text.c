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
#include "iodash/text.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_len),
		cmocka_unit_test(test_line_safe),
		cmocka_unit_test(test_put_number),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
