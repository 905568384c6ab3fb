/* fleet's pure parts: a row's state, the order of rows (trouble first),
 * and the --hosts file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iodash/session/fleet.h"

static struct fleet_row row_at(size_t index, enum dirty_zone zone)
{
	struct fleet_row r = { .index = index, .have_sample = true };
	r.now.have_dirty = true;
	r.now.zone = zone;
	return r;
}

static void test_state_of(void **st)
{
	(void)st;
	struct fleet_row r = row_at(0, ZONE_BELOW_BG);
	assert_int_equal(fleet_state_of(&r, false), FLEET_UNREACHABLE);
	assert_int_equal(fleet_state_of(&r, true), FLEET_OK);
	r.now.zone = ZONE_BG_FLUSH;
	assert_int_equal(fleet_state_of(&r, true), FLEET_BUSY);
	r.now.zone = ZONE_THROTTLE;
	assert_int_equal(fleet_state_of(&r, true), FLEET_THROTTLED);
	/* a hit in the window keeps it throttled after the zone fell */
	r.now.zone = ZONE_BELOW_BG;
	r.hits = 1;
	assert_int_equal(fleet_state_of(&r, true), FLEET_THROTTLED);
	r.hits = 0;
	/* an iodash there: running is busy, a failed run is trouble */
	r.iodash.have = true;
	snprintf(r.iodash.state, sizeof(r.iodash.state), "running");
	assert_int_equal(fleet_state_of(&r, true), FLEET_BUSY);
	r.iodash.failed = 1;
	assert_int_equal(fleet_state_of(&r, true), FLEET_FAILED);
	/* no sample yet: nothing known against it */
	struct fleet_row fresh = { 0 };
	assert_int_equal(fleet_state_of(&fresh, true), FLEET_OK);
}

static int cmp(const void *a, const void *b)
{
	return fleet_row_cmp(a, b);
}

static void test_order(void **st)
{
	(void)st;
	struct fleet_row rows[5] = {
		row_at(0, ZONE_BELOW_BG), row_at(1, ZONE_THROTTLE), row_at(2, ZONE_BELOW_BG),
		row_at(3, ZONE_BELOW_BG), row_at(4, ZONE_BG_FLUSH),
	};
	for (int i = 0; i < 5; i++)
		rows[i].state = fleet_state_of(&rows[i], i != 3);
	qsort(rows, 5, sizeof(rows[0]), cmp);
	/* unreachable, throttled, busy, then the ok ones as given */
	size_t want[5] = { 3, 1, 4, 0, 2 };
	for (int i = 0; i < 5; i++)
		assert_int_equal(rows[i].index, want[i]);
	assert_string_equal(fleet_state_name(FLEET_UNREACHABLE), "unreachable");
}

static void test_hosts_file(void **st)
{
	(void)st;
	char path[] = "/tmp/iodash-test-hosts.XXXXXX", err[256];
	struct fleet_hosts hl = { 0 };
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *text = "# the lab\nlab1\n\n  lab2:44321  # second\r\n";
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(fleet_read_hosts(path, &hl, err, sizeof(err)), 0);
	assert_int_equal(hl.n, 2);
	assert_string_equal(hl.name[0], "lab1");
	assert_string_equal(hl.name[1], "lab2:44321");
	fleet_hosts_free(&hl);
	/* two words on a line: the line is named */
	FILE *f = fopen(path, "w");
	fputs("lab1\nlab 2\n", f);
	fclose(f);
	assert_int_equal(fleet_read_hosts(path, &hl, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":2: "));
	fleet_hosts_free(&hl);
	/* a lab of any size: 1,500 hosts (64 was the limit) */
	f = fopen(path, "w");
	for (int i = 0; i < 1500; i++)
		fprintf(f, "127.%d.%d.%d:44321\n", i / 65536, i / 256 % 256, i % 256 + 1);
	fclose(f);
	assert_int_equal(fleet_read_hosts(path, &hl, err, sizeof(err)), 0);
	assert_int_equal(hl.n, 1500);
	assert_string_equal(hl.name[1499], "127.0.5.220:44321");
	fleet_hosts_free(&hl);
	/* only comments */
	f = fopen(path, "w");
	fputs("# none\n\n", f);
	fclose(f);
	assert_true(fleet_read_hosts(path, &hl, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "no host"));
	unlink(path);
	assert_true(fleet_read_hosts(path, &hl, err, sizeof(err)) < 0);
	fleet_hosts_free(&hl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state_of),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_hosts_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
