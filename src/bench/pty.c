/* Spawning a benchmark on a pty.  Benchmarks buffer or hide their progress
 * without a tty, so the child gets one; it also gets its own session so a
 * hangup of the user's terminal never reaches it, and a clean signal state
 * because a background shell leaves SIGINT ignored (dbench could then not
 * be stopped: see the dbench SIGINT fixtures).  It runs under a keeper
 * (keeper.c), so that nothing of its tree outlives iodash. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "iodash/bench/pty.h"
#include "bench/keeper.h"
#include "iodash/probe/proctree.h"
#include "iodash/parsers/parser.h"
#include "iodash/base/util.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

extern char **environ;

/* ---- the children iodash made, and the one way to signal them ---------
 *
 * Each benchmark runs under a keeper (keeper.c), our real child, which
 * holds its whole tree and ends it when iodash ends, however it ends.
 * The benchmark is the keeper's child: the keeper reaps it, tells us its
 * end, and sends the signals we ask for, so a signal never reaches a pid
 * that was reused.  A stop request comes from the front end's thread
 * while the driver's thread may be reading the same child's end, so the
 * table is read and changed under this lock. */
#define BENCH_MAX_CHILDREN 64
struct bench_kid {
	pid_t pid;        /* the benchmark; 0: slot free, -1: reserved */
	pid_t keeper;     /* our child that holds it; 0: reaped */
	int ctl;          /* to the keeper: a signal a byte; closed: end the tree */
	int msg;          /* from the keeper: struct keeper_msg */
	bool ended;       /* the benchmark's end was read: no longer ours to signal */
};
static pthread_mutex_t bench_children_lock = PTHREAD_MUTEX_INITIALIZER;
static struct bench_kid bench_children[BENCH_MAX_CHILDREN];

/* Under the lock: the slot of a benchmark that bench_spawn() started and
 * whose end is not known yet, or NULL. */
static struct bench_kid *bench_kid_find(pid_t pid)
{
	for (int i = 0; i < BENCH_MAX_CHILDREN; i++)
		if (bench_children[i].pid == pid && pid > 1 && !bench_children[i].ended)
			return &bench_children[i];
	return NULL;
}

static void bench_fd_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Under the lock: reap the slot's keeper, waiting for its exit at most
 * wait_s (0: only if it has exited); the slot is free once it is reaped
 * (or was reaped behind our back).  *ws its status.  Whether it was. */
static bool bench_kid_reap_keeper(struct bench_kid *k, double wait_s, int *ws)
{
	double t0 = util_mono_s();
	int st = 0;

	for (;;) {
		pid_t w = k->keeper > 0 ? waitpid(k->keeper, &st, WNOHANG) : -1;
		if (w < 0 && errno == EINTR)
			continue;
		if (w == k->keeper || w < 0) {
			if (ws)
				*ws = w == k->keeper ? st : 0;
			bench_fd_close(&k->ctl);
			bench_fd_close(&k->msg);
			memset(k, 0, sizeof(*k));
			k->ctl = k->msg = -1;
			return true;
		}
		if (util_mono_s() - t0 >= wait_s)
			return false;
		usleep(5000);
	}
}

/* A slot for the child about to be forked, taken before fork() so that a
 * child once forked is always in the table.  Keepers that have ended (the
 * processes their run left behind ended too) give their slot back. */
static int bench_child_reserve(void)
{
	int slot = -EAGAIN;

	pthread_mutex_lock(&bench_children_lock);
	for (int i = 0; i < BENCH_MAX_CHILDREN && slot < 0; i++) {
		struct bench_kid *k = &bench_children[i];
		if (k->pid == 0 && k->keeper == 0) {
			k->pid = -1;
			k->ctl = k->msg = -1;
			slot = i;
		} else if (k->ended && bench_kid_reap_keeper(k, 0, NULL)) {
			k->pid = -1;
			slot = i;
		}
	}
	pthread_mutex_unlock(&bench_children_lock);
	return slot;
}

/* One command byte to a keeper.  A keeper that has exited must not kill
 * us with SIGPIPE (main() ignores it; a library caller may not): it is
 * blocked in this thread for the write, and one it raised is taken back. */
static int bench_keeper_command(int fd, unsigned char c)
{
	sigset_t pipe_set, old, pending;
	struct timespec zero = { 0, 0 };
	ssize_t w;
	int e;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	sigpending(&pending);
	bool was_pending = sigismember(&pending, SIGPIPE);
	do
		w = write(fd, &c, 1);
	while (w < 0 && errno == EINTR);
	e = errno;
	if (w < 0 && e == EPIPE && !was_pending)
		while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
			;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (w == 1)
		return 0;
	return e == EPIPE ? -ESRCH : -e;
}

int bench_signal_child(pid_t pid, int sig)
{
	int rc = -EPERM;
	struct bench_kid *k;

	/* never 0 (our own group), -1 (everyone), 1 (init) or a group we did
	 * not make: only a positive pid, and only one of ours */
	if (pid <= 1 || sig < 0 || sig >= NSIG)
		return -EPERM;
	pthread_mutex_lock(&bench_children_lock);
	if ((k = bench_kid_find(pid))) {
		/* the keeper signals the group the benchmark made with
		 * setsid() right after fork, or before that the benchmark
		 * alone; signal 0 only asks whether it is ours */
		rc = sig ? bench_keeper_command(k->ctl, (unsigned char)sig) : 0;
	}
	pthread_mutex_unlock(&bench_children_lock);
	return rc;
}

pid_t bench_reap_child_io(pid_t pid, int *wstatus, bool block, struct proctree_entry *io)
{
	struct keeper_msg m;
	struct bench_kid *k;
	pid_t rc;
	ssize_t r;
	int fd;

	if (io)
		memset(io, 0, sizeof(*io));
	pthread_mutex_lock(&bench_children_lock);
	k = bench_kid_find(pid);
	fd = k ? k->msg : -1;
	pthread_mutex_unlock(&bench_children_lock);
	if (!k) {
		errno = ECHILD;
		return -1;
	}
	if (block) {
		/* wait for the end without the lock: a stop request must not
		 * block behind it */
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		while (poll(&pf, 1, -1) < 0 && errno == EINTR)
			;
	}
	pthread_mutex_lock(&bench_children_lock);
	if (!(k = bench_kid_find(pid))) {
		pthread_mutex_unlock(&bench_children_lock);
		errno = ECHILD;
		return -1;
	}
	do
		r = read(k->msg, &m, sizeof(m));
	while (r < 0 && errno == EINTR);
	if (r < 0 && errno == EAGAIN) {
		rc = 0;
	} else if (r == (ssize_t)sizeof(m) && m.kind == KEEPER_MSG_EXIT) {
		k->ended = true;
		if (wstatus)
			*wstatus = m.value;
		if (io && m.iolen > 0 && m.iolen < (int32_t)sizeof(m.io)) {
			m.io[m.iolen] = '\0';
			proctree_parse_io(m.io, io);
			io->pid = pid;
		}
		/* the keeper exits right after its last word */
		if (m.last)
			bench_kid_reap_keeper(k, 5.0, NULL);
		rc = pid;
	} else {
		/* the keeper ended without a word (killed by hand): the
		 * benchmark's end is unknown; its status stands for it */
		int ws = 0;
		k->ended = true;
		bench_kid_reap_keeper(k, 5.0, &ws);
		if (wstatus)
			*wstatus = ws;
		rc = pid;
	}
	pthread_mutex_unlock(&bench_children_lock);
	return rc;
}

pid_t bench_reap_child(pid_t pid, int *wstatus, bool block)
{
	return bench_reap_child_io(pid, wstatus, block, NULL);
}

void bench_release_children(double wait_s)
{
	double t0 = util_mono_s();

	pthread_mutex_lock(&bench_children_lock);
	/* every keeper reads end of file at once, then each is waited for */
	for (int i = 0; i < BENCH_MAX_CHILDREN; i++)
		if (bench_children[i].keeper > 0)
			bench_fd_close(&bench_children[i].ctl);
	for (int i = 0; i < BENCH_MAX_CHILDREN; i++) {
		double left = wait_s - (util_mono_s() - t0);
		if (bench_children[i].keeper > 0)
			bench_kid_reap_keeper(&bench_children[i], left > 0 ? left : 0, NULL);
	}
	pthread_mutex_unlock(&bench_children_lock);
}

static void bench_exec_message(const char *argv0, int e, char *err, size_t errlen)
{
	const char *base = util_base_name(argv0);
	const char *pkg = parser_package_for_command(base);

	if (e == ENOENT && !strchr(argv0, '/') && pkg)
		snprintf(err, errlen, "cannot run '%s': %s (is it installed? apt-get install %s)",
			 argv0, strerror(e), pkg);
	else if (e == ENOENT && !strchr(argv0, '/'))
		snprintf(err, errlen, "cannot run '%s': %s (is it installed and in PATH?)",
			 argv0, strerror(e));
	else if (e == EACCES)
		snprintf(err, errlen, "cannot run '%s': %s (is it executable? chmod +x)",
			 argv0, strerror(e));
	else
		snprintf(err, errlen, "cannot run '%s': %s", argv0, strerror(e));
}

int bench_check_exec(const char *argv0, char *err, size_t errlen)
{
	char path[PATH_MAX];
	const char *p, *end;
	int e = ENOENT;
	struct stat st;

	if (!argv0 || !*argv0) {
		snprintf(err, errlen, "no command given after --");
		return -EINVAL;
	}
	if (strchr(argv0, '/')) {
		if (stat(argv0, &st) < 0)
			e = errno;
		else if (S_ISDIR(st.st_mode) || access(argv0, X_OK) < 0)
			e = EACCES;
		else
			return 0;
		bench_exec_message(argv0, e, err, errlen);
		return -e;
	}
	p = getenv("PATH");
	if (!p)
		p = "/usr/local/bin:/usr/bin:/bin";
	for (; ; p = end + 1) {
		end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		int w = n ? snprintf(path, sizeof(path), "%.*s/%s", (int)n, p, argv0)
			  : snprintf(path, sizeof(path), "./%s", argv0);
		if (w > 0 && (size_t)w < sizeof(path) && stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
			if (access(path, X_OK) == 0)
				return 0;
			e = EACCES;
		}
		if (!end)
			break;
	}
	bench_exec_message(argv0, e, err, errlen);
	return -e;
}

void bench_describe_status(int ws, char *buf, size_t len)
{
	if (WIFEXITED(ws)) {
		snprintf(buf, len, "exit %d", WEXITSTATUS(ws));
	} else if (WIFSIGNALED(ws)) {
		const char *ab = sigabbrev_np(WTERMSIG(ws));
		if (ab)
			snprintf(buf, len, "killed by SIG%s%s", ab, WCOREDUMP(ws) ? " (core dumped)" : "");
		else
			snprintf(buf, len, "killed by signal %d%s", WTERMSIG(ws),
				 WCOREDUMP(ws) ? " (core dumped)" : "");
	} else {
		snprintf(buf, len, "wait status 0x%x", (unsigned)ws);
	}
}

/* Runs in the child between fork and exec: async-signal-safe calls only. */
static void bench_child_exec(char *const argv[], char *const envp[], const char *slave,
			     int errfd)
{
	struct sigaction sa;
	sigset_t none;
	int fd, e;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			sigaction(s, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	if (setsid() < 0)
		goto fail;
	fd = open(slave, O_RDWR);   /* first tty opened by a session leader: ctty */
	if (fd < 0)
		goto fail;
	ioctl(fd, TIOCSCTTY, 0);
	if (dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		goto fail;
	if (fd > 2)
		close(fd);
	/* iodash's own descriptors (recording, wake pipe, tracefs buffers) must not
	 * leak into the benchmark; errfd is already close-on-exec. */
	syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
	if (envp)
		execvpe(argv[0], argv, envp);
	else
		execvp(argv[0], argv);
fail:
	e = errno;
	while (write(errfd, &e, sizeof(e)) < 0 && errno == EINTR)
		;
	_exit(127);
}

/* Wait for the exec verdict on the close-on-exec pipe. */
static int bench_exec_verdict(struct bench_child *c, int errfd, const char *argv0,
			      char *err, size_t errlen)
{
	int e = 0;
	ssize_t r;

	do
		r = read(errfd, &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	close(errfd);
	if (r == (ssize_t)sizeof(e)) {
		int ws;
		bench_reap_child(c->pid, &ws, true);
		close(c->master_fd);
		c->master_fd = -1;
		c->exit_fd = -1;
		c->pid = -1;
		bench_exec_message(argv0, e, err, errlen);
		return -(e ? e : EIO);
	}
	return 0;
}

/* environ with extra "NAME=value" entries, which replace the same names:
 * built before fork, since the child of a threaded process may only make
 * async-signal-safe calls.  The strings are shared, not copied. */
static char **bench_build_env(char *const extra[])
{
	size_t n = 0, k = 0, nx = 0;
	char **env;

	while (environ && environ[n])
		n++;
	while (extra[nx])
		nx++;
	if (!(env = calloc(n + nx + 1, sizeof(*env))))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t len = strcspn(environ[i], "=");
		bool replaced = false;
		for (size_t x = 0; x < nx && !replaced; x++)
			replaced = !strncmp(environ[i], extra[x], len) && extra[x][len] == '=';
		if (!replaced)
			env[k++] = environ[i];
	}
	for (size_t x = 0; x < nx; x++)
		env[k++] = extra[x];
	env[k] = NULL;
	return env;
}

int bench_spawn(char *const argv[], struct bench_child *c, char *err, size_t errlen)
{
	return bench_spawn_env(argv, NULL, c, err, errlen);
}

/* What the benchmark's process needs from bench_spawn_env's frame: the
 * keeper forks it from its own copy of that frame. */
struct bench_exec_args {
	char *const *argv;
	char *const *envp;
	const char *slave;
	int errfd;
};

static void bench_child_start(void *ctx)
{
	const struct bench_exec_args *a = ctx;

	bench_child_exec(a->argv, a->envp, a->slave, a->errfd);
}

static void bench_close_pipes(int *p, int n)
{
	for (int i = 0; i < n; i++)
		bench_fd_close(&p[i]);
}

/* In the parent after the keeper's fork: its first word, the benchmark's
 * pid.  0, or -errno with err (the keeper is then reaped). */
static int bench_keeper_hello(int slot, pid_t keeper, int ctl, int msg, const char *argv0,
			      pid_t *pid, char *err, size_t errlen)
{
	struct keeper_msg m;
	ssize_t r;
	int e = EIO;

	pthread_mutex_lock(&bench_children_lock);
	bench_children[slot].keeper = keeper;
	bench_children[slot].ctl = ctl;
	bench_children[slot].msg = msg;
	pthread_mutex_unlock(&bench_children_lock);
	do
		r = read(msg, &m, sizeof(m));
	while (r < 0 && errno == EINTR);
	pthread_mutex_lock(&bench_children_lock);
	if (r == (ssize_t)sizeof(m) && m.kind == KEEPER_MSG_PID && m.value > 1) {
		bench_children[slot].pid = m.value;
		pthread_mutex_unlock(&bench_children_lock);
		*pid = m.value;
		fcntl(msg, F_SETFL, fcntl(msg, F_GETFL) | O_NONBLOCK);
		fcntl(ctl, F_SETFL, fcntl(ctl, F_GETFL) | O_NONBLOCK);
		return 0;
	}
	if (r == (ssize_t)sizeof(m) && m.kind == KEEPER_MSG_FORK_FAILED && m.value > 0)
		e = m.value;
	bench_kid_reap_keeper(&bench_children[slot], 5.0, NULL);
	pthread_mutex_unlock(&bench_children_lock);
	snprintf(err, errlen, "cannot spawn '%s': fork: %s", argv0, strerror(e));
	return -e;
}

int bench_spawn_env(char *const argv[], char *const extra_env[], struct bench_child *c,
		    char *err, size_t errlen)
{
	char slave[128];
	int p[6] = { -1, -1, -1, -1, -1, -1 };   /* exec verdict, ctl, msg: read, write */
	int mfd, e, slot, rc;
	pid_t keeper, pid = -1;
	struct winsize ws = { .ws_row = 40, .ws_col = 160 };
	char **envp = NULL;

	c->pid = -1;
	c->master_fd = -1;
	c->exit_fd = -1;
	if (!argv || !argv[0] || !argv[0][0]) {
		snprintf(err, errlen, "no command given after --");
		return -EINVAL;
	}
	if (extra_env && !(envp = bench_build_env(extra_env))) {
		snprintf(err, errlen, "cannot spawn '%s': out of memory", argv[0]);
		return -ENOMEM;
	}
	if ((slot = bench_child_reserve()) < 0) {
		free(envp);
		snprintf(err, errlen, "cannot spawn '%s': %d children of iodash still running",
			 argv[0], BENCH_MAX_CHILDREN);
		return slot;
	}
	mfd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (mfd < 0 || grantpt(mfd) || unlockpt(mfd) || ptsname_r(mfd, slave, sizeof(slave))) {
		e = errno;
		if (mfd >= 0)
			close(mfd);
		snprintf(err, errlen, "cannot open a pty for '%s': %s (is /dev/pts mounted?)",
			 argv[0], strerror(e));
		goto unfork;
	}
	/* Wide enough that tools formatting to the terminal do not wrap. */
	ioctl(mfd, TIOCSWINSZ, &ws);
	if (pipe2(p, O_CLOEXEC) < 0 || pipe2(p + 2, O_CLOEXEC) < 0 || pipe2(p + 4, O_CLOEXEC) < 0) {
		e = errno;
		close(mfd);
		bench_close_pipes(p, 6);
		snprintf(err, errlen, "cannot spawn '%s': pipe: %s", argv[0], strerror(e));
		goto unfork;
	}
	keeper = fork();
	if (keeper < 0) {
		e = errno;
		close(mfd);
		bench_close_pipes(p, 6);
		snprintf(err, errlen, "cannot spawn '%s': fork: %s", argv[0], strerror(e));
		goto unfork;
	}
	if (keeper == 0) {
		struct bench_exec_args a = { argv, envp, slave, p[1] };
		keeper_main(p[2], p[5], p[1], bench_child_start, &a);
	}
	free(envp);
	/* ours: the verdict's and the messages' read ends, the commands' write end */
	bench_fd_close(&p[1]);
	bench_fd_close(&p[2]);
	bench_fd_close(&p[5]);
	if ((rc = bench_keeper_hello(slot, keeper, p[3], p[4], argv[0], &pid, err, errlen))) {
		close(mfd);
		close(p[0]);
		return rc;
	}
	c->pid = pid;
	c->master_fd = mfd;
	c->exit_fd = p[4];
	fcntl(mfd, F_SETFL, fcntl(mfd, F_GETFL) | O_NONBLOCK);
	return bench_exec_verdict(c, p[0], argv[0], err, errlen);
unfork:
	pthread_mutex_lock(&bench_children_lock);
	bench_children[slot].pid = 0;
	pthread_mutex_unlock(&bench_children_lock);
	free(envp);
	return -e;
}
