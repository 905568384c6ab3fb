/* series: the ring keeps the newest `cap` samples, in order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "iodash/model/series.h"

static void test_ring_keeps_newest(void **st)
{
	(void)st;
	struct series s;
	struct sample x = { 0 };

	assert_int_equal(series_init(&s, 4), 0);
	assert_null(series_last(&s));
	assert_int_equal(series_len(&s), 0);
	for (uint64_t i = 0; i < 10; i++) {
		x.seq = i;
		x.t = i * 0.5;
		series_push(&s, &x);
	}
	assert_int_equal(series_len(&s), 4);
	assert_int_equal(series_at(&s, 0)->seq, 6);
	assert_int_equal(series_at(&s, 3)->seq, 9);
	assert_null(series_at(&s, 4));
	assert_int_equal(series_last(&s)->seq, 9);
	assert_non_null(series_by_seq(&s, 7));
	assert_float_equal(series_by_seq(&s, 7)->t, 3.5, 1e-12);
	assert_null(series_by_seq(&s, 5));      /* fell off the ring */
	assert_null(series_by_seq(&s, 10));     /* not yet */
	series_clear(&s);
	assert_int_equal(series_len(&s), 0);
	series_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_keeps_newest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
