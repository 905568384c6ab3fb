/* proctree: membership (descendants, session, reparented children), io
 * rates and throttled tasks, on a /proc laid out in a temp dir (exact
 * values) and on the live /proc with real children. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "iodash/probe/proctree.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], dir[256];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* One process with its threads: state of each thread and their wchans. */
static void fake_proc(int pid, int ppid, int sid, unsigned long long start, const char *comm,
		      const char *states, const char *const *wchans, unsigned long long wbytes)
{
	char rel[128], text[512];

	snprintf(text, sizeof(text),
		 "%d (%s) %c %d %d %d 34816 %d 4194560 100 0 0 0 5 7 0 0 20 0 %zu 0 %llu 1000 100\n",
		 pid, comm, states[0], ppid, sid, sid, pid, strlen(states), start);
	snprintf(rel, sizeof(rel), "%d/stat", pid);
	put(rel, text);
	snprintf(text, sizeof(text), "rchar: %llu\nwchar: %llu\nsyscr: 1\nsyscw: 2\nread_bytes: %llu\nwrite_bytes: %llu\ncancelled_write_bytes: 0\n",
		 wbytes / 2, wbytes, wbytes / 4, wbytes / 8);
	snprintf(rel, sizeof(rel), "%d/io", pid);
	put(rel, text);
	for (size_t t = 0; t < strlen(states); t++) {
		int tid = pid + (int)t * 1000;
		snprintf(text, sizeof(text),
			 "%d (%s) %c %d %d %d 34816 %d 4194560 100 0 0 0 5 7 0 0 20 0 1 0 %llu 1000 100\n",
			 tid, comm, states[t], ppid, sid, sid, pid, start);
		snprintf(rel, sizeof(rel), "%d/task/%d/stat", pid, tid);
		put(rel, text);
		snprintf(rel, sizeof(rel), "%d/task/%d/wchan", pid, tid);
		put(rel, wchans[t]);
	}
}

static void rm_tree(const char *p)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", p);
	assert_int_equal(system(cmd), 0);
}

static void test_parse_stat(void **state)
{
	char s;
	pid_t ppid, pg, sid;
	unsigned long long st;

	(void)state;
	/* comm with spaces and a ')' */
	assert_int_equal(proctree_parse_stat("42 (a b) c)) D 7 42 42 34816 42 4194560 1 0 0 0 5 7 0 0 20 0 3 0 12345 1 1",
					     &s, &ppid, &pg, &sid, &st), 0);
	assert_int_equal(s, 'D');
	assert_int_equal(ppid, 7);
	assert_int_equal(pg, 42);
	assert_int_equal(sid, 42);
	assert_int_equal(st, 12345);
	assert_int_equal(proctree_parse_stat("42 (x", &s, NULL, NULL, NULL, NULL), -EINVAL);
	assert_int_equal(proctree_parse_stat("42 (x) D 1 2", &s, NULL, NULL, NULL, NULL), -EINVAL);
	assert_int_equal(proctree_parse_stat("", &s, NULL, NULL, NULL, NULL), -EINVAL);
}

/* the tasks a scan reports (pids, then their threads' tids) */
static int seen[64], nseen;
static void note_task(void *ctx, pid_t tid)
{
	(void)ctx;
	if (nseen < 64)
		seen[nseen++] = (int)tid;
}

static bool was_seen(int tid)
{
	for (int i = 0; i < nseen; i++)
		if (seen[i] == tid)
			return true;
	return false;
}

static void test_fake_tree(void **state)
{
	const char *const bdp[] = { "balance_dirty_pages", "balance_dirty_pages_ratelimited_flags", "0" };
	const char *const mix[] = { "do_epoll_wait", "balance_dirty_pages" };
	const char *const one[] = { "hrtimer_nanosleep" };
	const char *const three[] = { "futex_do_wait", "futex_do_wait", "hrtimer_nanosleep" };
	struct proctree t;
	struct proctree_sample s;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/iodash-proc.XXXXXX");
	assert_non_null(mkdtemp(root));
	/* 100: the benchmark (session leader); 101: child, 3 threads;
	 * 102: grandchild, 2 threads; 103: reparented to init but in the
	 * benchmark's session; 200: unrelated, throttled */
	fake_proc(1, 0, 1, 1, "init", "S", one, 0);
	fake_proc(100, 1, 100, 500, "dbench", "S", one, 1000);
	fake_proc(101, 100, 100, 600, "dbench", "DDD", bdp, 2000);
	fake_proc(102, 101, 100, 700, "dbench", "RD", mix, 4000);
	fake_proc(103, 1, 100, 800, "daemon", "S", one, 0);
	fake_proc(200, 1, 200, 900, "bash", "D", bdp, 99999);
	put("self", "not a pid dir");

	assert_int_equal(proctree_init(&t, root, 100, true), 0);
	t.on_task = note_task;
	nseen = 0;
	assert_int_equal(proctree_scan(&t, 10.0, &s), 0);
	/* every member and its threads (101's tids 101, 1101, 2101), never 200 */
	assert_true(was_seen(100) && was_seen(101) && was_seen(1101) && was_seen(2101) &&
		    was_seen(102) && was_seen(1102) && was_seen(103));
	assert_false(was_seen(200) || was_seen(1));
	assert_true(s.root_alive);
	assert_int_equal(s.nprocs, 4);           /* 100 101 102 103 */
	assert_int_equal(s.ntasks, 1 + 3 + 2 + 1);
	/* 101: two threads D in balance_dirty_pages*, one D elsewhere ("0");
	 * 102: one R thread, one D in balance_dirty_pages; 200 is not ours */
	assert_int_equal(s.throttled, 3);
	assert_int_equal(s.blocked, 4);          /* every D: 101's three, 102's one */
	assert_true(s.have_io);
	assert_false(s.have_rates);              /* first scan: no period yet */

	/* one second later: 101 wrote 3000 more wchar, 102 went away, 104 was
	 * born under 101 with 500 wchar */
	fake_proc(101, 100, 100, 600, "dbench", "SSS", three, 5000);
	char p102[128];
	snprintf(p102, sizeof(p102), "%s/102", root);
	rm_tree(p102);
	fake_proc(104, 101, 100, 1000, "dbench", "S", one, 500);
	assert_int_equal(proctree_scan(&t, 11.0, &s), 0);
	assert_int_equal(s.nprocs, 4);           /* 100 101 103 104 */
	assert_int_equal(s.throttled, 0);
	assert_true(s.have_rates);
	assert_true(s.wchar_Bps == 3000 + 500);
	assert_true(s.rchar_Bps == 1500 + 250);
	assert_true(s.write_Bps == 375 + 62);    /* 5000/8-2000/8 = 375, 500/8 = 62 */

	/* pid 101 reused by another process (other start time): new counters */
	fake_proc(101, 100, 100, 1234, "dbench", "S", one, 100);
	assert_int_equal(proctree_scan(&t, 12.0, &s), 0);
	assert_true(s.wchar_Bps == 100);

	/* rates are whole bytes per second: 1000 B in 3 s is 333, not 333.33 */
	fake_proc(101, 100, 100, 1234, "dbench", "S", one, 1100);
	assert_int_equal(proctree_scan(&t, 15.0, &s), 0);
	assert_true(s.wchar_Bps == 333);
	proctree_free(&t);

	/* attach mode: no session membership, so 103 (reparented before we
	 * looked) is not ours */
	assert_int_equal(proctree_init(&t, root, 100, false), 0);
	assert_int_equal(proctree_scan(&t, 1.0, &s), 0);
	assert_int_equal(s.nprocs, 3);           /* 100 101 104 */
	proctree_free(&t);

	/* root gone */
	assert_int_equal(proctree_init(&t, root, 555, false), 0);
	assert_int_equal(proctree_scan(&t, 1.0, &s), 0);
	assert_false(s.root_alive);
	assert_int_equal(s.nprocs, 0);
	proctree_free(&t);
	rm_tree(root);
}

static void test_garbage_proc(void **state)
{
	struct proctree t;
	struct proctree_sample s;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/iodash-proc.XXXXXX");
	assert_non_null(mkdtemp(root));
	put("5/stat", "5 (x");                       /* torn */
	put("6/stat", "6 (y) D 5 6 6");              /* short */
	put("7/stat", "");
	put("8/stat", "8 (z) S 1 8 8 0 0 0 0 0 0 0 0 0 0 0 20 0 1 0 10 1 1\n");
	put("8/io", "rchar: x\n");                    /* unreadable io */
	assert_int_equal(proctree_init(&t, root, 8, true), 0);
	assert_int_equal(proctree_scan(&t, 1.0, &s), 0);
	assert_int_equal(s.nprocs, 1);
	assert_false(s.have_io);
	assert_int_equal(proctree_scan(&t, 2.0, &s), 0);
	assert_false(s.have_rates);
	proctree_free(&t);
	rm_tree(root);
	assert_int_equal(proctree_init(&t, "/nonexistent-proc", 8, true), 0);
	assert_int_equal(proctree_scan(&t, 1.0, &s), -ENOENT);
	proctree_free(&t);
}

/* ThreadSanitizer's runtime runs a thread of its own in each process
 * (gcc says so with __SANITIZE_THREAD__, clang with __has_feature) */
#if defined(__SANITIZE_THREAD__)
#define TASKS_PER_PROC 2
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TASKS_PER_PROC 2
#endif
#endif
#ifndef TASKS_PER_PROC
#define TASKS_PER_PROC 1
#endif

static void test_live_children(void **state)
{
	int go[2];
	struct proctree t;
	struct proctree_sample s;
	pid_t kid;

	(void)state;
	assert_int_equal(pipe(go), 0);
	kid = fork();
	assert_true(kid >= 0);
	if (kid == 0) {
		/* a leader with two children, one writing 1 MiB to a file */
		char c;
		setsid();
		if (fork() == 0) { pause(); _exit(0); }
		if (fork() == 0) {
			char buf[65536] = { 0 };
			if (read(go[0], &c, 1) != 1) _exit(1);
			int fd = open("/tmp/iodash-proctree-live.tmp", O_CREAT | O_WRONLY | O_TRUNC, 0600);
			for (int i = 0; i < 16; i++)
				if (write(fd, buf, sizeof(buf)) < 0) _exit(1);
			close(fd);
			pause();
			_exit(0);
		}
		pause();
		_exit(0);
	}
	usleep(200000);
	assert_int_equal(proctree_init(&t, "/proc", kid, true), 0);
	assert_int_equal(proctree_scan(&t, 1.0, &s), 0);
	assert_true(s.root_alive);
	assert_int_equal(s.nprocs, 3);
	assert_int_equal(s.ntasks, 3 * TASKS_PER_PROC);
	assert_int_equal(s.throttled, 0);
	assert_true(s.have_io);
	assert_int_equal(write(go[1], "g", 1), 1);
	usleep(300000);
	assert_int_equal(proctree_scan(&t, 2.0, &s), 0);
	assert_true(s.have_rates);
	/* 1 MiB written in the period; wchar counts it exactly */
	assert_true(s.wchar_Bps >= 1048576 && s.wchar_Bps < 1048576 + 65536);
	proctree_free(&t);
	kill(-kid, SIGKILL);
	waitpid(kid, NULL, 0);
	unlink("/tmp/iodash-proctree-live.tmp");
	close(go[0]);
	close(go[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_fake_tree),
		cmocka_unit_test(test_garbage_proc),
		cmocka_unit_test(test_live_children),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
