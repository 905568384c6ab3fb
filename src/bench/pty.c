/* Spawning a benchmark on a pty.  Benchmarks buffer or hide their progress
 * without a tty, so the child gets one; it also gets its own session so a
 * hangup of the user's terminal never reaches it, and a clean signal state
 * because a background shell leaves SIGINT ignored (dbench could then not
 * be stopped: see the dbench SIGINT fixtures). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "iodash/bench/pty.h"
#include "iodash/parsers/parser.h"
#include "iodash/base/util.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

extern char **environ;

/* ---- the children iodash made, and the one way to signal them ---------
 *
 * A stop request comes from the front end's thread while the driver's
 * thread may be reaping the same child, and a reaped pid can belong to
 * anyone a moment later.  So the pids bench_spawn() forked are kept here,
 * reaped only under this lock (bench_reap_child), and bench_signal_child()
 * is the only place in iodash that calls kill() on a benchmark. */
#define BENCH_MAX_CHILDREN 16
static pthread_mutex_t bench_children_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t bench_children[BENCH_MAX_CHILDREN];

/* Under the lock: whether pid is one we forked and nobody has reaped yet.
 * The kernel has the last word (a child reaped behind our back, by a plain
 * waitpid, is no longer ours): such an entry is dropped. */
static bool bench_child_is_ours(pid_t pid)
{
	siginfo_t si;

	for (int i = 0; i < BENCH_MAX_CHILDREN; i++) {
		if (bench_children[i] != pid)
			continue;
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0)
			return true;
		bench_children[i] = 0;
	}
	return false;
}

/* A slot for the child about to be forked, taken before fork() so that a
 * child once forked is always in the table (-1: reserved). */
static int bench_child_reserve(void)
{
	int slot = -EAGAIN;

	pthread_mutex_lock(&bench_children_lock);
	for (int i = 0; i < BENCH_MAX_CHILDREN && slot < 0; i++) {
		if (bench_children[i] > 1 && !bench_child_is_ours(bench_children[i]))
			bench_children[i] = 0;
		if (bench_children[i] == 0) {
			bench_children[i] = -1;
			slot = i;
		}
	}
	pthread_mutex_unlock(&bench_children_lock);
	return slot;
}

static void bench_child_set(int slot, pid_t pid)
{
	pthread_mutex_lock(&bench_children_lock);
	bench_children[slot] = pid > 1 ? pid : 0;
	pthread_mutex_unlock(&bench_children_lock);
}

int bench_signal_child(pid_t pid, int sig)
{
	int rc = -EPERM;

	/* never 0 (our own group), -1 (everyone), 1 (init) or a group we did
	 * not make: only a positive pid, and only one of ours */
	if (pid <= 1)
		return -EPERM;
	pthread_mutex_lock(&bench_children_lock);
	if (bench_child_is_ours(pid)) {
		/* The child made its own process group with setsid() right
		 * after fork: then the group (the benchmark's own children
		 * too), before that only the child itself.  A group id equal
		 * to the pid of our unreaped child can only be the group that
		 * child made. */
		if (getpgid(pid) == pid)
			rc = kill(-pid, sig) == 0 ? 0 : -errno;
		else
			rc = kill(pid, sig) == 0 ? 0 : -errno;
	}
	pthread_mutex_unlock(&bench_children_lock);
	return rc;
}

pid_t bench_reap_child(pid_t pid, int *wstatus, bool block)
{
	pid_t w;

	if (pid <= 1)
		return -1;
	if (block) {
		/* wait for the exit without reaping, so the lock is not held
		 * while waiting: a stop request must not block behind it */
		siginfo_t si;
		while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
			;
	}
	pthread_mutex_lock(&bench_children_lock);
	do
		w = waitpid(pid, wstatus, WNOHANG);
	while (w < 0 && errno == EINTR);
	if (w == pid || (w < 0 && errno == ECHILD))
		for (int i = 0; i < BENCH_MAX_CHILDREN; i++)
			if (bench_children[i] == pid)
				bench_children[i] = 0;
	pthread_mutex_unlock(&bench_children_lock);
	return w;
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

int bench_spawn_env(char *const argv[], char *const extra_env[], struct bench_child *c,
		    char *err, size_t errlen)
{
	char slave[128];
	int errp[2];
	int mfd, e, slot;
	pid_t pid;
	struct winsize ws = { .ws_row = 40, .ws_col = 160 };
	char **envp = NULL;

	c->pid = -1;
	c->master_fd = -1;
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
	if (pipe2(errp, O_CLOEXEC) < 0) {
		e = errno;
		close(mfd);
		snprintf(err, errlen, "cannot spawn '%s': pipe: %s", argv[0], strerror(e));
		goto unfork;
	}
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(mfd);
		close(errp[0]); close(errp[1]);
		snprintf(err, errlen, "cannot spawn '%s': fork: %s", argv[0], strerror(e));
		goto unfork;
	}
	if (pid == 0)
		bench_child_exec(argv, envp, slave, errp[1]);
	bench_child_set(slot, pid);
	free(envp);
	close(errp[1]);
	c->pid = pid;
	c->master_fd = mfd;
	fcntl(mfd, F_SETFL, fcntl(mfd, F_GETFL) | O_NONBLOCK);
	return bench_exec_verdict(c, errp[0], argv[0], err, errlen);
unfork:
	bench_child_set(slot, 0);
	free(envp);
	return -e;
}
