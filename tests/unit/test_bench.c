/* bench: pty spawn (session, signals, exec errors), line splitting, the
 * log follower.  Spawns real programs: echo, sh, cat, grep. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "iodash/bench/pty.h"
#include "iodash/bench/linebuf.h"
#include "iodash/bench/follow.h"
#include "iodash/probe/proctree.h"

/* Everything the child writes until EOF (EIO) and its wait status. */
static size_t slurp_child(struct bench_child *c, char *out, size_t cap, int *ws)
{
	size_t n = 0;
	for (;;) {
		struct pollfd pf = { .fd = c->master_fd, .events = POLLIN };
		if (poll(&pf, 1, 5000) <= 0)
			break;
		ssize_t r = read(c->master_fd, out + n, cap - 1 - n);
		if (r < 0 && errno == EAGAIN)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
		if (n >= cap - 1)
			break;
	}
	out[n] = '\0';
	assert_int_equal(bench_reap_child(c->pid, ws, true), c->pid);
	close(c->master_fd);
	return n;
}

static void test_spawn_echo_on_pty(void **state)
{
	char *argv[] = { "echo", "hello", "pty", NULL };
	struct bench_child c;
	char err[256], out[256];
	int ws;

	(void)state;
	assert_int_equal(bench_spawn(argv, &c, err, sizeof(err)), 0);
	assert_true(c.pid > 0);
	slurp_child(&c, out, sizeof(out), &ws);
	/* the pty's ONLCR turns \n into \r\n, as the fixture made with script(1) shows */
	assert_string_equal(out, "hello pty\r\n");
	assert_true(WIFEXITED(ws));
	assert_int_equal(WEXITSTATUS(ws), 0);
}

static void test_spawn_session_and_tty(void **state)
{
	/* /proc/self/stat of the exec'd program itself: pid, pgrp, session, tty */
	char *argv[] = { "cat", "/proc/self/stat", NULL };
	struct bench_child c;
	char err[256], out[2048];
	int ws, pid, pgrp, sid, tty;

	(void)state;
	assert_int_equal(bench_spawn(argv, &c, err, sizeof(err)), 0);
	slurp_child(&c, out, sizeof(out), &ws);
	char *p = strrchr(out, ')');
	assert_non_null(p);
	assert_int_equal(sscanf(out, "%d", &pid), 1);
	assert_int_equal(sscanf(p + 1, " %*c %*d %d %d %d", &pgrp, &sid, &tty), 3);
	assert_int_equal(pid, c.pid);
	assert_int_equal(pgrp, c.pid);     /* own process group: SIGINT to -pid */
	assert_int_equal(sid, c.pid);      /* own session: a hangup never reaches it */
	assert_int_not_equal(tty, 0);      /* the pty is its controlling terminal */
	assert_int_not_equal(sid, getsid(0));
}

static void test_spawn_resets_signals(void **state)
{
	/* A parent that ignores SIGINT/SIGQUIT/SIGPIPE and blocks SIGINT, as a
	 * background shell does: the benchmark must not inherit any of it. */
	char *argv[] = { "grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status", NULL };
	struct bench_child c;
	char err[256], out[512];
	struct sigaction ign = { .sa_handler = SIG_IGN }, oi, oq, op;
	sigset_t blk, old;
	unsigned long long ignmask = ~0ull, blkmask = ~0ull;
	int ws;

	(void)state;
	sigaction(SIGINT, &ign, &oi);
	sigaction(SIGQUIT, &ign, &oq);
	sigaction(SIGPIPE, &ign, &op);
	sigemptyset(&blk);
	sigaddset(&blk, SIGINT);
	sigaddset(&blk, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &blk, &old);
	assert_int_equal(bench_spawn(argv, &c, err, sizeof(err)), 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	sigaction(SIGINT, &oi, NULL);
	sigaction(SIGQUIT, &oq, NULL);
	sigaction(SIGPIPE, &op, NULL);
	slurp_child(&c, out, sizeof(out), &ws);
	char *p = strstr(out, "SigBlk:");
	assert_non_null(p);
	assert_int_equal(sscanf(p + 7, "%llx", &blkmask), 1);
	p = strstr(out, "SigIgn:");
	assert_non_null(p);
	assert_int_equal(sscanf(p + 7, "%llx", &ignmask), 1);
	assert_int_equal(blkmask, 0);
	assert_int_equal(ignmask & (1ull << (SIGINT - 1)), 0);
	assert_int_equal(ignmask & (1ull << (SIGQUIT - 1)), 0);
	assert_int_equal(ignmask & (1ull << (SIGPIPE - 1)), 0);
}

static void test_spawn_missing_command(void **state)
{
	char *argv[] = { "iodash-no-such-benchmark", "-t", "5", NULL };
	char *fio[] = { "/nonexistent/dir/fio", NULL };
	struct bench_child c;
	char err[256];

	(void)state;
	assert_int_equal(bench_spawn(argv, &c, err, sizeof(err)), -ENOENT);
	assert_int_equal(c.pid, -1);
	assert_string_equal(err, "cannot run 'iodash-no-such-benchmark': No such file or directory (is it installed and in PATH?)");
	assert_int_equal(bench_check_exec("iodash-no-such-benchmark", err, sizeof(err)), -ENOENT);
	assert_int_equal(bench_spawn(fio, &c, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "cannot run '/nonexistent/dir/fio': No such file or directory");
	assert_int_equal(bench_check_exec("sh", err, sizeof(err)), 0);
	assert_int_equal(bench_check_exec("/tmp", err, sizeof(err)), -EACCES);
	assert_int_equal(bench_check_exec("", err, sizeof(err)), -EINVAL);
	/* no zombie left behind by the failed spawns */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void test_missing_known_tool_hint(void **state)
{
	char err[256];
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

	(void)state;
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(bench_check_exec("dbench", err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "cannot run 'dbench': No such file or directory (is it installed? apt-get install dbench)");
	assert_int_equal(bench_check_exec("iozone", err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "iozone3"));
	if (old) {
		setenv("PATH", old, 1);
		free(old);
	}
}

static void test_describe_status(void **state)
{
	char *sh[] = { "sh", "-c", "kill -KILL $$", NULL };
	char *ex[] = { "sh", "-c", "exit 3", NULL };
	struct bench_child c;
	char err[256], out[64], d[64];
	int ws;

	(void)state;
	assert_int_equal(bench_spawn(sh, &c, err, sizeof(err)), 0);
	slurp_child(&c, out, sizeof(out), &ws);
	bench_describe_status(ws, d, sizeof(d));
	assert_string_equal(d, "killed by SIGKILL");
	assert_int_equal(bench_spawn(ex, &c, err, sizeof(err)), 0);
	slurp_child(&c, out, sizeof(out), &ws);
	bench_describe_status(ws, d, sizeof(d));
	assert_string_equal(d, "exit 3");
}

/* ---- the one function that signals ---- */

/* Signal 0 throughout: it checks the target and sends nothing, so even a
 * broken bench_signal_child() cannot hurt init or this test's parent. */
static void test_signal_only_own_children(void **state)
{
	char *cat[] = { "cat", NULL };
	char *tru[] = { "true", NULL };
	struct bench_child c;
	char err[256];
	int ws, gate[2];
	pid_t other;

	(void)state;
	/* never init, our own group, everyone, or a negative pid */
	assert_int_equal(bench_signal_child(1, 0), -EPERM);
	assert_int_equal(bench_signal_child(0, 0), -EPERM);
	assert_int_equal(bench_signal_child(-1, 0), -EPERM);
	assert_int_equal(bench_signal_child(-getpgrp(), 0), -EPERM);
	assert_int_equal(bench_signal_child(getpid(), 0), -EPERM);
	assert_int_equal(bench_signal_child(getppid(), 0), -EPERM);

	/* a child of ours that bench_spawn did not make: refused */
	assert_int_equal(pipe(gate), 0);
	other = fork();
	assert_true(other >= 0);
	if (other == 0) {
		char ch;
		close(gate[1]);
		_exit(read(gate[0], &ch, 1) == 0 ? 0 : 1);   /* until the parent closes */
	}
	close(gate[0]);
	assert_int_equal(bench_signal_child(other, 0), -EPERM);
	close(gate[1]);
	assert_int_equal(waitpid(other, &ws, 0), other);

	/* a spawned one: yes, until it is reaped */
	assert_int_equal(bench_spawn(cat, &c, err, sizeof(err)), 0);
	assert_int_equal(bench_signal_child(c.pid, 0), 0);
	close(c.master_fd);                 /* cat gets the hangup and ends */
	assert_int_equal(bench_reap_child(c.pid, &ws, true), c.pid);
	assert_int_equal(bench_signal_child(c.pid, 0), -EPERM);

	/* alive: from /proc, and an exited child not yet reaped (a zombie)
	 * is gone already */
	assert_true(proctree_pid_alive(getpid()));
	assert_int_equal(bench_spawn(tru, &c, err, sizeof(err)), 0);
	struct pollfd pf = { .fd = c.exit_fd, .events = POLLIN };
	assert_int_equal(poll(&pf, 1, 5000), 1);
	assert_false(proctree_pid_alive(c.pid));
	assert_int_equal(bench_signal_child(c.pid, 0), 0);   /* still ours until its end is read */
	/* its keeper has nothing left to hold and exits: a signal asked
	 * then is refused, and its closed pipe raises no SIGPIPE here
	 * (this test does not ignore it) */
	int rc = 0;
	for (int i = 0; i < 200 && rc != -ESRCH; i++) {
		rc = bench_signal_child(c.pid, SIGTERM);
		if (rc != -ESRCH)
			usleep(10000);
	}
	assert_int_equal(rc, -ESRCH);
	assert_int_equal(bench_reap_child(c.pid, &ws, false), c.pid);
	assert_true(WIFEXITED(ws));
	assert_int_equal(WEXITSTATUS(ws), 0);
	assert_int_equal(bench_signal_child(c.pid, 0), -EPERM);
	assert_int_equal(bench_reap_child(c.pid, &ws, false), -1);
	assert_int_equal(errno, ECHILD);
	close(c.master_fd);

	/* the benchmark is its keeper's child, not ours: no plain waitpid
	 * can reap it behind the table's back */
	assert_int_equal(bench_spawn(cat, &c, err, sizeof(err)), 0);
	assert_int_equal(waitpid(c.pid, &ws, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	close(c.master_fd);
	assert_int_equal(bench_reap_child(c.pid, &ws, true), c.pid);
}

/* The keeper holds what leaves the benchmark's session and parentage
 * (setsid, a double fork) and kills it when the session is released. */
static void test_keeper_holds_the_tree(void **state)
{
	char dir[] = "/tmp/iodash-keeper.XXXXXX", path[300], buf[64];
	char cmd[768];
	struct bench_child c;
	char err[256], out[256];
	int ws, orphan = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* a child in a session of its own, left behind: its pid in a file
	 * (the leader waits for it: its end hangs up the pty, whose SIGHUP
	 * would reach the child still in its group) */
	snprintf(cmd, sizeof(cmd), "setsid sh -c 'echo $$ >%s/pid.tmp; mv %s/pid.tmp %s/pid; exec sleep 300' </dev/null >/dev/null 2>&1 & "
		 "while [ ! -s %s/pid ]; do sleep 0.01; done; echo started", dir, dir, dir, dir);
	char *argv[] = { "sh", "-c", cmd, NULL };
	assert_int_equal(bench_spawn(argv, &c, err, sizeof(err)), 0);
	slurp_child(&c, out, sizeof(out), &ws);
	assert_true(WIFEXITED(ws));
	snprintf(path, sizeof(path), "%s/pid", dir);
	for (int i = 0; i < 500 && !orphan; i++) {
		FILE *f = fopen(path, "r");
		if (f) {
			if (fgets(buf, sizeof(buf), f))
				orphan = atoi(buf);
			fclose(f);
		}
		if (!orphan)
			usleep(10000);
	}
	assert_true(orphan > 1);
	/* its leader has ended, and the orphan lives on, held */
	for (int i = 0; i < 100 && !proctree_pid_alive(orphan); i++)
		usleep(10000);
	assert_true(proctree_pid_alive(orphan));
	/* not ours to signal: its leader's end is known */
	assert_int_equal(bench_signal_child(orphan, 0), -EPERM);
	bench_release_children(5.0);
	assert_false(proctree_pid_alive(orphan));
	/* every keeper reaped */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	unlink(path);
	rmdir(dir);
}

/* ---- linebuf ---- */

struct lines { char v[64][BENCH_LINE_MAX + 1]; int n; };

static void collect(void *ctx, const char *line)
{
	struct lines *l = ctx;
	if (l->n < 64)
		snprintf(l->v[l->n++], sizeof(l->v[0]), "%s", line);
}

static void test_linebuf_crlf_and_cr(void **state)
{
	struct bench_linebuf lb;
	struct lines l = { .n = 0 };
	/* dbench on a pty (\r\n, an empty line), then fio's \r-redrawn eta
	 * line as in fio-seqwrite-buffered-eta-always.txt, split mid-\r\n */
	const char *a = "dbench version 4.00\r\n\r\nRunning\r";
	const char *b2 = "\nJobs: 1 (f=1): [W(1)][27.3%][eta 00m:08s]\rJobs: 1 (f=1): [W(1)][36.4%][eta 00m:07s]  \r\rdone\n";

	(void)state;
	bench_linebuf_init(&lb);
	bench_linebuf_feed(&lb, a, strlen(a), collect, &l);
	bench_linebuf_feed(&lb, b2, strlen(b2), collect, &l);
	bench_linebuf_flush(&lb, collect, &l);
	assert_int_equal(l.n, 6);
	assert_string_equal(l.v[0], "dbench version 4.00");
	assert_string_equal(l.v[1], "");
	assert_string_equal(l.v[2], "Running");
	assert_string_equal(l.v[3], "Jobs: 1 (f=1): [W(1)][27.3%][eta 00m:08s]");
	assert_string_equal(l.v[4], "Jobs: 1 (f=1): [W(1)][36.4%][eta 00m:07s]  ");
	assert_string_equal(l.v[5], "done");
}

static void test_linebuf_escapes_and_long(void **state)
{
	struct bench_linebuf lb;
	struct lines l = { .n = 0 };
	char big[700];

	(void)state;
	bench_linebuf_init(&lb);
	const char *e = "\x1b[1;31mred\x1b[0m \x1b]0;title\x07ok\x01\n";
	bench_linebuf_feed(&lb, e, strlen(e), collect, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0], "red ok");
	memset(big, 'x', sizeof(big));
	bench_linebuf_feed(&lb, big, sizeof(big), collect, &l);
	bench_linebuf_feed(&lb, "\n", 1, collect, &l);
	/* 700 bytes: 255 + 255 + 190, nothing lost */
	assert_int_equal(l.n, 4);
	assert_int_equal(strlen(l.v[1]), BENCH_LINE_MAX);
	assert_int_equal(strlen(l.v[2]), BENCH_LINE_MAX);
	assert_int_equal(strlen(l.v[3]), 700 - 2 * BENCH_LINE_MAX);
}

static void test_linebuf_fixture_dbench_pty(void **state)
{
	/* the real capture of dbench under a pty: every line ends in \r\n */
	FILE *f = fopen("tests/fixtures/bench-output/dbench/dbench-t10-2clients-under-pty-via-script.txt", "rb");
	struct bench_linebuf lb;
	static struct lines l;
	char buf[37];      /* odd chunk size: \r\n split across chunks */
	size_t r;
	int total = 0;

	(void)state;
	assert_non_null(f);
	bench_linebuf_init(&lb);
	l.n = 0;
	struct lines *lp = &l;
	while ((r = fread(buf, 1, sizeof(buf), f)) > 0) {
		bench_linebuf_feed(&lb, buf, r, collect, lp);
		if (l.n == 64) { total += 64; l.n = 0; }
	}
	bench_linebuf_flush(&lb, collect, lp);
	fclose(f);
	total += l.n;
	/* wc -l of the capture: 39 lines, the last the Throughput line */
	assert_int_equal(total, 39);
	assert_string_equal(l.v[l.n - 1], "Throughput 822.361 MB/sec  2 clients  2 procs  max_latency=29.253 ms");
}

/* ---- follow ---- */

struct got { char buf[4096]; size_t n; };

static void follow_cb(void *ctx, const char *b, size_t len)
{
	struct got *g = ctx;
	if (g->n + len < sizeof(g->buf)) {
		memcpy(g->buf + g->n, b, len);
		g->n += len;
		g->buf[g->n] = '\0';
	}
}

static void test_follow_tail_F(void **state)
{
	char dir[] = "/tmp/iodash-follow.XXXXXX", path[256], path2[256];
	struct bench_follow f;
	struct got g = { .n = 0 };
	FILE *w;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/log", dir);
	snprintf(path2, sizeof(path2), "%s/log.1", dir);
	bench_follow_init(&f, path);
	assert_int_equal(bench_follow_poll(&f, 1 << 20, follow_cb, &g), 0);   /* not there yet */
	w = fopen(path, "w");
	fputs("one\n", w);
	fflush(w);
	assert_int_equal(bench_follow_poll(&f, 1 << 20, follow_cb, &g), FOLLOW_APPEARED);
	assert_string_equal(g.buf, "one\n");
	fputs("two\n", w);
	fflush(w);
	assert_int_equal(bench_follow_poll(&f, 1 << 20, follow_cb, &g), 0);
	assert_string_equal(g.buf, "one\ntwo\n");
	/* truncated and rewritten (a new run of the tool) */
	assert_int_equal(ftruncate(fileno(w), 0), 0);
	fseek(w, 0, SEEK_SET);
	fputs("3\n", w);
	fflush(w);
	assert_int_equal(bench_follow_poll(&f, 1 << 20, follow_cb, &g), FOLLOW_TRUNCATED);
	assert_string_equal(g.buf, "one\ntwo\n3\n");
	/* rotated: the last line of the old file, then the new file */
	fputs("4\n", w);
	fclose(w);
	assert_int_equal(rename(path, path2), 0);
	w = fopen(path, "w");
	fputs("new\n", w);
	fclose(w);
	assert_int_equal(bench_follow_poll(&f, 1 << 20, follow_cb, &g), FOLLOW_REPLACED);
	assert_string_equal(g.buf, "one\ntwo\n3\n4\nnew\n");
	/* bounded reads */
	w = fopen(path, "a");
	for (int i = 0; i < 100; i++)
		fputs("0123456789", w);
	fclose(w);
	size_t before = g.n;
	assert_int_equal(bench_follow_poll(&f, 300, follow_cb, &g), 0);
	assert_int_equal(g.n - before, 300);
	bench_follow_close(&f);
	unlink(path);
	unlink(path2);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spawn_echo_on_pty),
		cmocka_unit_test(test_spawn_session_and_tty),
		cmocka_unit_test(test_spawn_resets_signals),
		cmocka_unit_test(test_spawn_missing_command),
		cmocka_unit_test(test_missing_known_tool_hint),
		cmocka_unit_test(test_describe_status),
		cmocka_unit_test(test_signal_only_own_children),
		cmocka_unit_test(test_keeper_holds_the_tree),
		cmocka_unit_test(test_linebuf_crlf_and_cr),
		cmocka_unit_test(test_linebuf_escapes_and_long),
		cmocka_unit_test(test_linebuf_fixture_dbench_pty),
		cmocka_unit_test(test_follow_tail_F),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
