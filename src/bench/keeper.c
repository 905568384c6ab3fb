/* The keeper: a small process between iodash and the benchmark that holds
 * the benchmark's whole tree and ends it when iodash ends, however iodash
 * ends (q, a signal, a crash, kill -9).
 *
 *   iodash --ctl pipe--> keeper (own session, child subreaper)
 *          <--msg pipe--   `- benchmark (own session, on the pty) - ...
 *
 * A signal to the benchmark's group misses what left it: fio's workers
 * call setsid(), a daemon double-forks, and PR_SET_PDEATHSIG reaches only
 * a direct child.  The kernel has no "tree" to signal, but a child
 * subreaper inherits every orphan of its descendants, so whatever the
 * benchmark's processes do, they stay the keeper's descendants.  Only
 * iodash holds the ctl pipe's write end: when iodash is gone, whoever
 * ended it, the keeper reads end of file, and SIGKILLs its children until
 * none is left (a child's children become the keeper's children as it
 * dies; a killed process forks no more).  A child of the keeper can be
 * reaped by the keeper alone, so its pid cannot be anyone else's when the
 * keeper signals it.
 *
 * While iodash lives the keeper only relays: the benchmark's pid, the
 * signals iodash sends its group (iodash cannot signal what it did not
 * fork: the pid could be reused once the keeper reaped it), and its exit
 * with its /proc/PID/io read before the reaping.  Processes a run leaves
 * behind stay held until iodash ends.
 *
 * This runs in the child of a fork of a threaded process: system calls
 * only (no malloc, no stdio), and no other thread exists here. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "bench/keeper.h"

struct keeper {
	int ctl, msg, sfd;
	pid_t self;
	pid_t bench;
	bool bench_reaped;
	bool exit_sent;
	struct keeper_msg exit;     /* the benchmark's end, to send */
};

static void keeper_send(int fd, const struct keeper_msg *m)
{
	/* iodash gone: EPIPE (SIGPIPE is ignored here), nothing to do */
	while (write(fd, m, sizeof(*m)) < 0 && errno == EINTR)
		;
}

/* Every descriptor but the three kept (and 0-2): the pty's master, the
 * recording, and above all the ctl pipes of other keepers, whose end of
 * file must not wait for this one. */
static void keeper_close_others(int a, int b, int c)
{
	int keep[3] = { a, b, c }, lo = 3;

	/* sort the three */
	for (int i = 0; i < 3; i++)
		for (int j = i + 1; j < 3; j++)
			if (keep[j] < keep[i]) {
				int t = keep[i];
				keep[i] = keep[j];
				keep[j] = t;
			}
	for (int i = 0; i < 3; i++) {
		if (keep[i] < lo)
			continue;
		if (keep[i] > lo)
			syscall(SYS_close_range, (unsigned)lo, (unsigned)keep[i] - 1, 0U);
		lo = keep[i] + 1;
	}
	syscall(SYS_close_range, (unsigned)lo, ~0U, 0U);
}

/* The keeper has no use for the terminal, and must not hold a pipe that
 * iodash's reader waits on (iodash --batch | head, $(iodash ...)). */
static void keeper_null_stdio(void)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	for (int i = 0; i < 3; i++) {
		if (fd >= 0)
			dup2(fd, i);
		else
			close(i);
	}
	if (fd > 2)
		close(fd);
}

static long keeper_parse_long(const char *s, const char **end)
{
	long v = 0;

	while (*s == ' ')
		s++;
	if (*s < '0' || *s > '9') {
		*end = NULL;
		return -1;
	}
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	*end = s;
	return v;
}

/* Whether /proc is of our PID namespace (a /proc of another one names
 * other processes by our pids: nothing may be signalled from it). */
static bool keeper_procfs_is_ours(pid_t self)
{
	char buf[32];
	const char *end;
	ssize_t r = readlink("/proc/self", buf, sizeof(buf) - 1);

	if (r <= 0)
		return false;
	buf[r] = '\0';
	return keeper_parse_long(buf, &end) == self && end && *end == '\0';
}

/* The parent of pid from /proc/PID/stat, or -1. */
static pid_t keeper_parent_of(const char *pid)
{
	char path[64] = "/proc/", buf[512];
	const char *p, *end;
	size_t n = strlen(path), k = strlen(pid);
	ssize_t r;
	int fd;

	if (n + k + sizeof("/stat") > sizeof(path))
		return -1;
	memcpy(path + n, pid, k);
	memcpy(path + n + k, "/stat", sizeof("/stat"));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return -1;
	buf[r] = '\0';
	/* "pid (comm) S ppid ...": comm may hold anything, ')' included */
	if (!(p = strrchr(buf, ')')) || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -1;
	long ppid = keeper_parse_long(p + 4, &end);
	return end ? (pid_t)ppid : -1;
}

/* SIGKILL to every child of ours /proc lists.  Whether any was found. */
static bool keeper_kill_children(struct keeper *k)
{
	char buf[8192];
	bool any = false;
	int fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long n;

	if (fd < 0)
		return false;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			/* struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name */
			unsigned short reclen;
			const char *name = buf + off + 19, *end;
			memcpy(&reclen, buf + off + 16, sizeof(reclen));
			off += reclen;
			long pid = keeper_parse_long(name, &end);
			if (!end || *end || pid <= 1 || pid == k->self)
				continue;
			if (keeper_parent_of(name) == k->self) {
				kill((pid_t)pid, SIGKILL);
				any = true;
			}
		}
	}
	close(fd);
	return any;
}

/* The benchmark's io counters, exited and not yet reaped. */
static void keeper_read_io(struct keeper *k)
{
	char path[64] = "/proc/", num[16];
	int i = 0, fd;
	unsigned v = (unsigned)k->bench;
	ssize_t r;

	do
		num[i++] = (char)('0' + v % 10);
	while ((v /= 10) && i < (int)sizeof(num));
	size_t n = strlen(path);
	while (i > 0)
		path[n++] = num[--i];
	memcpy(path + n, "/io", sizeof("/io"));
	k->exit.iolen = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	r = read(fd, k->exit.io, sizeof(k->exit.io) - 1);
	close(fd);
	if (r > 0)
		k->exit.iolen = (int32_t)r;
}

/* Reap what has exited; the benchmark's end is kept for keeper_tell_exit.
 * Whether no child is left. */
static bool keeper_reap(struct keeper *k)
{
	for (;;) {
		siginfo_t si;
		int ws;

		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
			if (errno == EINTR)
				continue;
			return errno == ECHILD;
		}
		if (si.si_pid == 0)
			return false;
		if (si.si_pid == k->bench && !k->bench_reaped) {
			keeper_read_io(k);
			while (waitpid(k->bench, &ws, 0) < 0 && errno == EINTR)
				;
			k->bench_reaped = true;
			k->exit.kind = KEEPER_MSG_EXIT;
			k->exit.value = ws;
		} else {
			while (waitpid(si.si_pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	}
}

/* The benchmark's end to iodash, once; with last set the keeper exits
 * right after, so iodash may wait for it. */
static void keeper_tell_exit(struct keeper *k, bool empty)
{
	if (!k->bench_reaped || k->exit_sent)
		return;
	k->exit.last = empty;
	keeper_send(k->msg, &k->exit);
	k->exit_sent = true;
}

/* A signal iodash asked for: the benchmark's group once it has made it
 * (its pid is its group's id: it called setsid), else the benchmark
 * alone; nothing once it is reaped. */
static void keeper_signal_bench(struct keeper *k, int sig)
{
	if (k->bench_reaped || sig <= 0 || sig >= NSIG)
		return;
	if (getpgid(k->bench) == k->bench)
		kill(-k->bench, sig);
	else
		kill(k->bench, sig);
}

/* iodash is gone (or said to end): SIGKILL to the benchmark's group and
 * to every child, as long as any is left.  The orphans of a child killed
 * in one round are our children in the next. */
static _Noreturn void keeper_end_tree(struct keeper *k)
{
	bool procfs = keeper_procfs_is_ours(k->self);

	for (;;) {
		bool empty = keeper_reap(k);
		struct signalfd_siginfo si;

		keeper_tell_exit(k, empty);
		if (empty)
			break;
		keeper_signal_bench(k, SIGKILL);
		/* without a /proc of our own, children left by the benchmark
		 * cannot be found: they are reaped as they end */
		bool killed = procfs && keeper_kill_children(k);
		struct pollfd pf = { .fd = k->sfd, .events = POLLIN };
		poll(&pf, 1, killed ? 20 : 200);
		while (read(k->sfd, &si, sizeof(si)) > 0)
			;
	}
	_exit(0);
}

void keeper_main(int ctl, int msg, int pass_fd, void (*start)(void *ctx), void *ctx)
{
	struct keeper k = { .ctl = ctl, .msg = msg, .sfd = -1 };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	static const int ignored[] = { SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU };
	struct keeper_msg m = { .kind = KEEPER_MSG_PID };
	sigset_t set;
	pid_t pid;

	keeper_close_others(ctl, msg, pass_fd);
	keeper_null_stdio();
	/* out of iodash's session and group: the terminal's Ctrl-C, its
	 * hangup and a kill of iodash's group must leave the keeper alive
	 * to end the tree */
	setsid();
	prctl(PR_SET_NAME, "iodash-keeper", 0, 0, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	k.self = getpid();
	for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		sigaction(ignored[i], &ign, NULL);
	/* SIGCHLD (a child's end) and SIGTERM (ended by hand: the tree too)
	 * come through a signalfd; blocked before the fork, so no end is
	 * lost before the loop */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	k.sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	fcntl(ctl, F_SETFL, fcntl(ctl, F_GETFL) | O_NONBLOCK);

	pid = fork();
	if (pid == 0) {
		close(ctl);
		close(msg);
		if (k.sfd >= 0)
			close(k.sfd);
		start(ctx);
		_exit(127);
	}
	if (pass_fd >= 0)
		close(pass_fd);
	if (pid < 0) {
		m.kind = KEEPER_MSG_FORK_FAILED;
		m.value = errno;
		keeper_send(msg, &m);
		_exit(1);
	}
	k.bench = pid;
	m.value = pid;
	keeper_send(msg, &m);
	if (k.sfd < 0)
		keeper_end_tree(&k);   /* cannot learn of a child's end: do not hold */

	for (;;) {
		struct pollfd pf[2] = { { .fd = ctl, .events = POLLIN }, { .fd = k.sfd, .events = POLLIN } };
		struct signalfd_siginfo si;
		unsigned char cmd[64];
		bool term = false;

		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			keeper_end_tree(&k);
		while (read(k.sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
			term |= si.ssi_signo == SIGTERM;
		if (term)
			keeper_end_tree(&k);
		bool empty = keeper_reap(&k);
		keeper_tell_exit(&k, empty);
		if (empty && k.bench_reaped)
			_exit(0);
		if (pf[0].revents) {
			ssize_t r = read(ctl, cmd, sizeof(cmd));
			if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN))
				keeper_end_tree(&k);
			for (ssize_t i = 0; i < r; i++)
				keeper_signal_bench(&k, cmd[i]);
		}
	}
}
