/* tracefs: counting balance_dirty_pages pauses from trace_pipe text, and
 * (as root) that a session leaves the tracing state exactly as found. */
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
#include <sys/stat.h>
#include <sys/vfs.h>
#include "iodash/tracefs.h"

/* Lines captured from /sys/kernel/tracing/instances/X/trace_pipe on this
 * project's VM (6.18.44, fio overwriting a cached 1 GiB file with
 * dirty_bytes=256M): a real pause, and a non-pause (pause=0) whose
 * dirtied_pause=128 must not be taken for the pause. */
static const char pause12[] =
	"             fio-6617    [000] .N...   436.246849: balance_dirty_pages: bdi 254:0: limit=65536 setpoint=57344 dirty=49673 wb_setpoint=57343 wb_dirty=49673 dirty_ratelimit=102400 task_ratelimit=191300 dirtied=256 dirtied_pause=128 paused=0 pause=12 period=4 think=-8 cgroup_ino=1\n";
static const char pause0[] =
	"              dd-6502    [001] .....   429.313507: balance_dirty_pages: bdi 254:0: limit=65536 setpoint=57344 dirty=49160 wb_setpoint=57343 wb_dirty=49161 dirty_ratelimit=102400 task_ratelimit=233700 dirtied=256 dirtied_pause=128 paused=0 pause=0 period=4 think=0 cgroup_ino=1\n";

static void test_parse_line(void **state)
{
	long ms = -99;

	(void)state;
	assert_int_equal(tracefs_parse_line(pause12, strlen(pause12), &ms), 1);
	assert_int_equal(ms, 12);
	assert_int_equal(tracefs_parse_line(pause0, strlen(pause0), &ms), 1);
	assert_int_equal(ms, 0);
	const char neg[] = "x-1 [0] 1.0: balance_dirty_pages: bdi 8:0: paused=3 pause=-4 period=0";
	assert_int_equal(tracefs_parse_line(neg, strlen(neg), &ms), 1);
	assert_int_equal(ms, -4);
	const char other[] = "x-1 [0] 1.0: writeback_dirty_folio: bdi 254:0: ino=12 index=0";
	assert_int_equal(tracefs_parse_line(other, strlen(other), &ms), 0);
	const char cut[] = "x-1 [0] 1.0: balance_dirty_pages: bdi 8:0: dirtied_pause=1 pause=";
	assert_int_equal(tracefs_parse_line(cut, strlen(cut), &ms), 0);
	/* the length bounds the parse, not a NUL */
	assert_int_equal(tracefs_parse_line(pause12, 40, &ms), 0);
	assert_int_equal(tracefs_parse_line("", 0, &ms), 0);
}

static void test_feed_split_chunks(void **state)
{
	struct tracefs t;
	char text[4096];
	uint64_t n;
	double ms;

	(void)state;
	memset(&t, 0, sizeof(t));
	snprintf(text, sizeof(text), "%s%s%s%s", pause12, pause0, pause12, "# comment line\n");
	/* every chunk size, so lines split at every byte */
	for (size_t chunk = 1; chunk < 64; chunk += 7) {
		memset(&t, 0, sizeof(t));
		for (size_t off = 0; off < strlen(text); off += chunk) {
			size_t len = strlen(text) - off < chunk ? strlen(text) - off : chunk;
			tracefs_feed(&t, text + off, len);
		}
		assert_int_equal(t.lines, 3);
		assert_int_equal(t.pauses_total, 2);
		assert_true(t.pause_ms_total == 24);
	}
	tracefs_take(&t, &n, &ms);
	assert_int_equal(n, 2);
	assert_true(ms == 24);
	tracefs_take(&t, &n, &ms);
	assert_int_equal(n, 0);
	assert_true(ms == 0);
	/* a very long junk line then a good one: bounded, still counted */
	static char junk[20000];
	memset(junk, 'j', sizeof(junk) - 1);
	junk[sizeof(junk) - 1] = '\n';
	memset(&t, 0, sizeof(t));
	tracefs_feed(&t, junk, sizeof(junk) - 5);
	tracefs_feed(&t, junk + sizeof(junk) - 5, 5);
	tracefs_feed(&t, pause12, strlen(pause12));
	assert_int_equal(t.pauses_total, 1);
}

static int read_str(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

static bool mounted(const char *dir)
{
	struct statfs sf;
	return statfs(dir, &sf) == 0 && (unsigned long)sf.f_type == 0x74726163;
}

static void test_open_close_restores(void **state)
{
	static const char *files[] = {
		"tracing_on", "buffer_size_kb", "events/writeback/balance_dirty_pages/enable",
		"events/writeback/balance_dirty_pages/filter", "set_event_pid", "current_tracer",
	};
	char before[6][256], after[6][256], path[512], err[512];
	struct tracefs t;
	bool was_mounted;

	(void)state;
	if (geteuid() != 0) {
		skip();   /* "needs root: tracefs" */
		return;
	}
	was_mounted = mounted("/sys/kernel/tracing");
	assert_int_equal(tracefs_open(&t, NULL, err, sizeof(err)), 0);
	assert_true(mounted("/sys/kernel/tracing"));
	if (!was_mounted)
		assert_non_null(strstr(t.note, "mounted it at /sys/kernel/tracing"));
	for (int i = 0; i < 6; i++) {
		snprintf(path, sizeof(path), "%s/%s", t.dir, files[i]);
		assert_int_equal(read_str(path, before[i], sizeof(before[i])), 0);
	}
	/* our instance: enabled, filtered, pid list set */
	snprintf(path, sizeof(path), "%s/events/writeback/balance_dirty_pages/enable", t.inst);
	assert_int_equal(read_str(path, after[0], sizeof(after[0])), 0);
	assert_string_equal(after[0], "1\n");
	snprintf(path, sizeof(path), "%s/events/writeback/balance_dirty_pages/filter", t.inst);
	assert_int_equal(read_str(path, after[0], sizeof(after[0])), 0);
	assert_string_equal(after[0], "pause > 0\n");
	pid_t me = getpid();
	assert_int_equal(tracefs_set_pids(&t, &me, 1), 0);
	assert_true(t.pid_filter);
	assert_true(tracefs_fd(&t) >= 0);
	assert_int_equal(tracefs_read(&t), 0);
	char inst[320];
	snprintf(inst, sizeof(inst), "%s", t.inst);
	tracefs_close(&t);
	tracefs_close(&t);       /* idempotent */
	assert_int_equal(access(inst, F_OK), -1);
	if (!was_mounted) {
		assert_false(mounted("/sys/kernel/tracing"));
		return;
	}
	for (int i = 0; i < 6; i++) {
		snprintf(path, sizeof(path), "/sys/kernel/tracing/%s", files[i]);
		assert_int_equal(read_str(path, after[i], sizeof(after[i])), 0);
		assert_string_equal(before[i], after[i]);
	}
}

static void test_stale_instance_removed(void **state)
{
	char err[512], stale[512];
	struct tracefs t;

	(void)state;
	if (geteuid() != 0) {
		skip();
		return;
	}
	/* as if an iodash with a pid that no longer runs was SIGKILLed: pid
	 * 4194303 is above any pid_max in use here */
	assert_int_equal(tracefs_open(&t, NULL, err, sizeof(err)), 0);
	snprintf(stale, sizeof(stale), "%s/instances/iodash-4194303-0", t.dir);
	assert_int_equal(mkdir(stale, 0700), 0);
	struct tracefs t2;
	assert_int_equal(tracefs_open(&t2, t.dir, err, sizeof(err)), 0);
	assert_int_equal(access(stale, F_OK), -1);
	tracefs_close(&t2);
	tracefs_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_line),
		cmocka_unit_test(test_feed_split_chunks),
		cmocka_unit_test(test_open_close_restores),
		cmocka_unit_test(test_stale_instance_removed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
