/* units: a unit's size by kind, conversion between commensurable units
 * only, and the unit a metric's points pool in (most points, a tie the
 * smaller unit; other kinds kept apart). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "iodash/parsers/units.h"

static void test_factor(void **state)
{
	(void)state;
	assert_true(units_get_factor("MB/sec", UNITS_RATE) == 1e6);
	assert_true(units_get_factor("KiB/s", UNITS_RATE) == 1024);
	assert_true(units_get_factor("MiB/s", UNITS_RATE) == 1048576);
	assert_true(units_get_factor("kB/s", UNITS_RATE) == 1e3);
	assert_true(units_get_factor("B/s", UNITS_RATE) == 1);
	assert_true(units_get_factor("IOPS", UNITS_RATE) == 0);
	assert_true(units_get_factor("us", UNITS_RATE) == 0);
	assert_true(units_get_factor("us", UNITS_TIME) == 1e3);
	assert_true(units_get_factor("usec", UNITS_TIME) == 1e3);
	assert_true(units_get_factor("nsec", UNITS_TIME) == 1);
	assert_true(units_get_factor("msec", UNITS_TIME) == 1e6);
	assert_true(units_get_factor("s", UNITS_TIME) == 1e9);
	assert_true(units_get_factor("KiB/s", UNITS_TIME) == 0);
	assert_int_equal(units_get_kind("files/s"), UNITS_OTHER);
	assert_int_equal(units_get_kind(""), UNITS_OTHER);
	assert_int_equal(units_get_kind("GiB/s"), UNITS_RATE);
	assert_int_equal(units_get_kind("ms"), UNITS_TIME);
}

/* The tables every reader and the pooling share: a size's bytes, a
 * time's nanoseconds and the name results give it, from a length (a
 * unit inside a line, "MiB" of "MiB/s"). */
static void test_names(void **state)
{
	(void)state;
	assert_true(units_size_bytes("MiB/s", 3) == 1048576);
	assert_true(units_size_bytes("bytes", 5) == 1);
	assert_true(units_size_bytes("kB", 2) == 1e3);
	assert_true(units_size_bytes("KB", 2) == 1024);   /* iozone's, fio 2.x's */
	assert_true(units_size_bytes("K", 1) == 1024);
	assert_true(units_size_bytes("kib", 3) == 0);   /* sizes keep their case */
	assert_true(units_size_bytes("KiBx", 4) == 0);
	assert_true(units_time_ns("USEC", 4) == 1e3);
	assert_true(units_time_ns("secs", 4) == 1e9);
	assert_true(units_time_ns("min", 3) == 0);
	assert_string_equal(units_time_name("nsec", 4), "ns");
	assert_string_equal(units_time_name("msec)", 4), "ms");
	assert_string_equal(units_time_name("sec", 3), "s");
	assert_null(units_time_name("m", 1));
}

static void test_convert(void **state)
{
	double v = 0;
	(void)state;
	assert_true(units_convert_value(19.9, "MiB/s", "KiB/s", &v));
	assert_true(fabs(v - 20377.6) < 1e-9);
	assert_true(units_convert_value(20377.6, "KiB/s", "MiB/s", &v));
	assert_true(fabs(v - 19.9) < 1e-12);
	assert_true(units_convert_value(1935.9, "kB/s", "MB/s", &v));
	assert_true(fabs(v - 1.9359) < 1e-12);
	assert_true(units_convert_value(1024, "KB/s", "KiB/s", &v) && v == 1024);
	/* a ratio of whole nanoseconds: 276400 ns is 276.4 us, not 276.40000000000003 */
	assert_true(units_convert_value(276400, "ns", "us", &v) && v == 276.4);
	assert_true(units_convert_value(48, "ns", "us", &v));
	assert_true(fabs(v - 0.048) < 1e-12);
	assert_true(units_convert_value(2.5, "msec", "usec", &v));
	assert_true(fabs(v - 2500) < 1e-9);
	v = -1;
	assert_false(units_convert_value(5, "IOPS", "KiB/s", &v));
	assert_false(units_convert_value(5, "us", "MB/s", &v));
	assert_false(units_convert_value(5, "files/s", "", &v));
	assert_true(v == -1);
	assert_true(units_convert_value(5, "IOPS", "IOPS", &v) && v == 5);
}

static void test_pick(void **state)
{
	struct units_tally t = { 0 };
	(void)state;
	/* most points: MiB/s, 2 to 1 */
	units_tally_add(&t, "MiB/s");
	units_tally_add(&t, "KiB/s");
	units_tally_add(&t, "MiB/s");
	assert_string_equal(units_pick_target(&t, "KiB/s"), "MiB/s");
	assert_string_equal(units_pick_main(&t), "MiB/s");
	/* a tie: the smaller */
	units_tally_add(&t, "KiB/s");
	assert_string_equal(units_pick_target(&t, "MiB/s"), "KiB/s");
	/* IOPS is a class of its own: 4 rates outnumber 3 IOPS, 5 IOPS 4 rates */
	units_tally_add(&t, "IOPS");
	units_tally_add(&t, "IOPS");
	units_tally_add(&t, "IOPS");
	assert_string_equal(units_pick_main(&t), "KiB/s");
	assert_string_equal(units_pick_target(&t, "IOPS"), "IOPS");
	units_tally_add(&t, "IOPS");
	units_tally_add(&t, "IOPS");
	assert_string_equal(units_pick_main(&t), "IOPS");
	/* times: us twice, ns once */
	struct units_tally u = { 0 };
	units_tally_add(&u, "ns");
	units_tally_add(&u, "us");
	units_tally_add(&u, "us");
	assert_string_equal(units_pick_main(&u), "us");
	struct units_tally e = { 0 };
	assert_string_equal(units_pick_main(&e), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_factor),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_convert),
		cmocka_unit_test(test_pick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
