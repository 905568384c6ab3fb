/* procio: the context panel's scan of /proc.  Parsers on real files of
 * this machine (tests/fixtures/procio/), the scan's maths on a /proc laid
 * out by the test, and on the real /proc a writer the test starts (a copy
 * of dd named iodash-ctx-writer) listed as the top writer within 2 s at
 * the rate it wrote. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "iodash/base/fdio.h"
#include "iodash/probe/procio.h"

static char fixtures[PATH_MAX];

static const char *fixture(const char *name, char *buf, size_t n)
{
	if (!fixtures[0]) {
		char exe[PATH_MAX];
		ssize_t k;
		snprintf(fixtures, sizeof fixtures, "tests/fixtures");
		if (access("tests/fixtures/procio/stat", R_OK) &&
		    (k = readlink("/proc/self/exe", exe, sizeof exe - 1)) > 0) {
			exe[k] = '\0';
			/* build/tests/test_procio or build/asan/tests/... */
			for (int up = 0; up < 5; up++) {
				char *s = strrchr(exe, '/');
				if (!s)
					break;
				*s = '\0';
				snprintf(fixtures, sizeof fixtures, "%s/tests/fixtures", exe);
				char probe[PATH_MAX + 32];
				snprintf(probe, sizeof probe, "%s/procio/stat", fixtures);
				if (!access(probe, R_OK))
					break;
			}
		}
	}
	char path[PATH_MAX + 64];
	snprintf(path, sizeof path, "%s/procio/%s", fixtures, name);
	assert_true(fdio_read_small(path, buf, n) > 0);
	return buf;
}

static void test_parse(void **state)
{
	(void)state;
	char buf[4096];
	uint64_t rb, wb, total, iow, steal;
	unsigned run = 0, blk = 9;
	bool hp;

	assert_int_equal(procio_parse_io(fixture("io", buf, sizeof buf), &rb, &wb), 0);
	assert_int_equal(rb, 0);
	assert_int_equal(wb, 4096);
	assert_int_equal(procio_parse_stat(fixture("stat", buf, sizeof buf), &total, &iow, &steal, &run,
					   &blk, &hp), 0);
	/* cpu  1051674 1052 408975 1225392 192404 0 20465 49322 0 0 */
	assert_int_equal(total, 1051674ull + 1052 + 408975 + 1225392 + 192404 + 0 + 20465 + 49322);
	assert_int_equal(iow, 192404);
	assert_int_equal(steal, 49322);
	assert_true(hp);
	assert_int_equal(run, 5);
	assert_int_equal(blk, 0);
	assert_int_equal(procio_parse_io("rchar: 1\n", &rb, &wb), -EINVAL);
	assert_int_equal(procio_parse_stat("intr 1 2\n", &total, &iow, &steal, &run, &blk, &hp), -EINVAL);
}

/* A /proc of the test's making. */
static char root[64];

static void put(const char *rel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(const char *rel, const char *fmt, ...)
{
	char path[256], text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	snprintf(path, sizeof path, "%s/%s", root, rel);
	char *slash = strrchr(path, '/');
	*slash = '\0';
	mkdir(path, 0755);
	*slash = '/';
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void put_proc(int pid, const char *comm, int ppid, int sid, unsigned long long start,
		     uint64_t rb, uint64_t wb)
{
	char rel[64];
	snprintf(rel, sizeof rel, "%d/stat", pid);
	put(rel, "%d (%s) S %d %d %d 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 %llu 1000 100\n", pid, comm,
	    ppid, sid, sid, start);
	snprintf(rel, sizeof rel, "%d/io", pid);
	put(rel, "rchar: 0\nwchar: 0\nsyscr: 0\nsyscw: 0\nread_bytes: %llu\nwrite_bytes: %llu\n"
		 "cancelled_write_bytes: 0\n", (unsigned long long)rb, (unsigned long long)wb);
}

static void test_scan_maths(void **state)
{
	(void)state;
	struct procio p;
	struct procio_view v;
	char err[256];
	long hz = sysconf(_SC_CLK_TCK);

	snprintf(root, sizeof root, "/tmp/iodash-procio-XXXXXX");
	assert_non_null(mkdtemp(root));
	put("stat", "cpu  100 0 100 700 50 0 0 50 0 0\nprocs_running 2\nprocs_blocked 3\n");
	/* 100: the benchmark (its session), 101 its child, 200 someone else */
	put_proc(100, "dbench", 1, 100, 10 * hz, 0, 0);
	put_proc(101, "dbench", 100, 100, 10 * hz, 0, 1000);
	put_proc(200, "my (odd) cp", 1, 200, 10 * hz, 5000, 2000);
	procio_init(&p, root);
	assert_int_equal(procio_scan(&p, 100.0, 100, NULL, &v, err, sizeof err), 0);
	assert_true(v.valid);
	assert_false(v.have_rates);
	assert_int_equal(v.nwriters, 0);   /* one scan: no rate yet */
	assert_int_equal(v.nprocs, 3);
	assert_true(v.have_procs);
	assert_int_equal(v.procs_blocked, 3);

	put("stat", "cpu  200 0 200 1300 150 0 0 150 0 0\nprocs_running 2\nprocs_blocked 1\n");
	put_proc(101, "dbench", 100, 100, 10 * hz, 0, 1000 + 4 * 1048576);
	put_proc(200, "my (odd) cp", 1, 200, 10 * hz, 5000 + 2 * 1048576, 2000 + 1048576);
	/* born 0.5 s before this scan, 1 MiB written since */
	put_proc(300, "late", 1, 300, (unsigned long long)(101.5 * hz), 0, 1048576);
	sched_yield();
	struct procio_row pr = { 0 };
	struct sample smp = { .thr_src = THR_SRC_KERNEL, .nwriters = 1,
			      .writers = { { .pid = 101, .comm = "dbench", .pauses = 3, .paused_ms = 40 } } };
	procio_note_pauses(&p, &smp);
	procio_note_pauses(&p, &smp);
	assert_int_equal(procio_scan(&p, 102.0, 100, NULL, &v, err, sizeof err), 0);
	assert_true(v.have_rates);
	assert_true(v.have_pauses);
	assert_int_equal(v.nwriters, 3);
	pr = v.writers[0];
	assert_int_equal(pr.pid, 101);
	assert_string_equal(pr.comm, "dbench");
	assert_true(pr.in_bench);
	assert_float_equal(pr.write_Bps, 2 * 1048576.0, 1e-6);
	assert_int_equal(pr.pauses, 6);
	assert_float_equal(pr.paused_ms, 80, 1e-9);
	/* the new process: over its half second of life */
	assert_int_equal(v.writers[1].pid, 300);
	assert_float_equal(v.writers[1].write_Bps, 2 * 1048576.0, 1e3);
	assert_false(v.writers[1].in_bench);
	assert_int_equal(v.writers[2].pid, 200);
	assert_string_equal(v.writers[2].comm, "my (odd) cp");
	assert_float_equal(v.writers[2].write_Bps, 1048576.0 / 2, 1e-6);
	assert_int_equal(v.nreaders, 1);
	assert_float_equal(v.readers[0].read_Bps, 1048576.0, 1e-6);
	/* iowait 100 and steal 100 of 1000 ticks */
	assert_true(v.have_cpu);
	assert_float_equal(v.iowait_pct, 10.0, 1e-9);
	assert_float_equal(v.steal_pct, 10.0, 1e-9);

	/* counters that fell: another process under a reused pid, read anew */
	put_proc(200, "reused", 1, 200, (unsigned long long)(102.5 * hz), 0, 100);
	assert_int_equal(procio_scan(&p, 103.0, 100, NULL, &v, err, sizeof err), 0);
	bool found = false;
	for (int i = 0; i < v.nwriters; i++)
		if (v.writers[i].pid == 200) {
			found = true;
			assert_string_equal(v.writers[i].comm, "reused");
			assert_float_equal(v.writers[i].write_Bps, 200, 1e-6);
		}
	assert_true(found);
	assert_int_equal(v.writers[0].pauses, 0);   /* the pauses went to the last scan */
	procio_free(&p);

	/* a proc directory that is not there */
	procio_init(&p, "/nonexistent-iodash");
	assert_int_equal(procio_scan(&p, 1.0, 0, NULL, &v, err, sizeof err), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent-iodash"));
	procio_free(&p);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	sample_free(&smp);
}

/* ---- the real /proc: a writer the test starts ------------------------ */

struct feeder {
	int fd;
	atomic_int stop;
};

static void *feed(void *arg)
{
	struct feeder *f = arg;
	static char block[1 << 20];
	/* at most 200 MiB/s: enough to stand out, gentle on a shared machine */
	while (!atomic_load(&f->stop)) {
		if (fdio_write_all(f->fd, block, sizeof block))
			break;
		usleep(5000);
	}
	close(f->fd);
	return NULL;
}

static uint64_t written(pid_t pid)
{
	char path[64], buf[512];
	uint64_t rb, wb;
	snprintf(path, sizeof path, "/proc/%d/io", (int)pid);
	assert_true(fdio_read_small(path, buf, sizeof buf) > 0);
	assert_int_equal(procio_parse_io(buf, &rb, &wb), 0);
	return wb;
}

/* The writer's row, or fail. */
static const struct procio_row *row_of(const struct procio_view *v, pid_t pid)
{
	for (int i = 0; i < v->nwriters; i++)
		if (v->writers[i].pid == pid)
			return &v->writers[i];
	fail_msg("pid %d is not among the %d top writers", (int)pid, v->nwriters);
	return NULL;
}

/* On a shared machine another process may write more than the test's:
 * that it is the top writer is checked in tests/e2e/test_ui_context.sh,
 * in a PID namespace of its own; here its rate is. */
static void test_real_writer(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		/* another user's writer would not be seen: the top writer of
		 * the machine cannot be asserted */
		print_message("SKIP: not root: other users' processes cannot be read\n");
		skip();
	}
	char dir[] = "/var/tmp/iodash-ctx-XXXXXX", exe[96], out[96], cmd[256];
	assert_non_null(mkdtemp(dir));
	snprintf(exe, sizeof exe, "%s/iodash-ctx-writer", dir);
	snprintf(out, sizeof out, "%s/out", dir);
	snprintf(cmd, sizeof cmd, "cp \"$(command -v dd)\" '%s'", exe);
	assert_int_equal(system(cmd), 0);

	struct procio p;
	struct procio_view v;
	char err[256];
	procio_init(&p, NULL);
	/* the scan before it starts: the writer is born after it */
	assert_int_equal(procio_scan(&p, procio_now(), 0, NULL, &v, err, sizeof err), 0);

	int pfd[2];
	assert_int_equal(pipe(pfd), 0);
	double t_start = procio_now();
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(pfd[0], 0);
		close(pfd[0]);
		close(pfd[1]);
		char of[128];
		snprintf(of, sizeof of, "of=%s", out);
		execl(exe, "iodash-ctx-writer", of, "bs=1M", "iflag=fullblock", "status=none", (char *)NULL);
		_exit(127);
	}
	close(pfd[0]);
	struct feeder fd = { .fd = pfd[1] };
	atomic_init(&fd.stop, 0);
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, feed, &fd), 0);

	/* once a second, as the sampler does */
	usleep(1000000);
	double t1 = procio_now();
	assert_int_equal(procio_scan(&p, t1, 0, NULL, &v, err, sizeof err), 0);
	uint64_t w1 = written(pid);
	double t1b = procio_now();
	assert_true(t1b - t_start < 2.0);
	assert_true(v.nwriters > 0);
	const struct procio_row *r = row_of(&v, pid);
	print_message("writer %s pid %d %.0f B/s at %.2f s\n", r->comm, (int)r->pid, r->write_Bps,
		      t1b - t_start);
	assert_string_equal(r->comm, "iodash-ctx-writ");   /* TASK_COMM_LEN: 15 characters */
	assert_true(r->write_Bps > 0);

	usleep(1000000);
	double t2 = procio_now();
	assert_int_equal(procio_scan(&p, t2, 0, NULL, &v, err, sizeof err), 0);
	uint64_t w2 = written(pid);
	double t2b = procio_now();
	atomic_store(&fd.stop, 1);
	pthread_join(th, NULL);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	/* what it wrote between the two scans, read by the test itself */
	double truth = (double)(w2 - w1) / ((t2b - t1b + t2 - t1) / 2);
	r = row_of(&v, pid);
	print_message("scan says %.0f B/s, the writer wrote %.0f B/s\n", r->write_Bps, truth);
	assert_true(truth > 0);
	assert_true(r->write_Bps > truth * 0.9 && r->write_Bps < truth * 1.1);
	procio_free(&p);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_scan_maths),
		cmocka_unit_test(test_real_writer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
