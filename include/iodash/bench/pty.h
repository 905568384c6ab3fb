/* bench/pty: a benchmark spawned on a pty, its signals and its reaping. */
#ifndef IODASH_BENCH_PTY_H
#define IODASH_BENCH_PTY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A child on a pty, in its own session with the pty as controlling
 * terminal (a dropped ssh session never reaches it), SIGINT/SIGQUIT/SIGPIPE
 * and every other signal at their default, signal mask empty. */
struct bench_child {
	pid_t pid;        /* also its process group and session id */
	int master_fd;    /* O_NONBLOCK | O_CLOEXEC; read the output here */
};

/* Spawn argv (PATH search, no shell) on a new pty, in a session of its
 * own.  Returns 0 or -errno with err filled: "cannot run 'foo': No such file or
 * directory (is it installed? ...)" when the exec fails (the child is then
 * reaped and c->pid is -1). */
int bench_spawn(char *const argv[], struct bench_child *c, char *err, size_t errlen);
/* The same with "NAME=value" strings added to (or replacing in) the
 * child's environment; NULL: none. */
int bench_spawn_env(char *const argv[], char *const extra_env[], struct bench_child *c,
		    char *err, size_t errlen);
/* The only place iodash sends a signal to a benchmark.  pid must be a
 * child that bench_spawn() forked and nobody has reaped yet; then its
 * process group (the session it made with setsid) gets sig, or the child
 * alone if it has not made it yet.  Anything else is refused with -EPERM
 * and nothing is sent: never pid <= 1, never a negative pid, never an
 * attached process.  0, -EPERM, or the -errno of kill(). */
int bench_signal_child(pid_t pid, int sig);
/* Reap a child of bench_spawn (block: wait for its exit first).  Returns
 * what waitpid(WNOHANG) returns; after this the pid is no longer ours. */
pid_t bench_reap_child(pid_t pid, int *wstatus, bool block);
/* Whether argv0 can be executed (PATH search as execvp does). 0 or -errno
 * with the same message as a failed spawn. */
int bench_check_exec(const char *argv0, char *err, size_t errlen);
/* "exit 0", "exit 3", "killed by SIGKILL", "killed by SIGSEGV (core dumped)" */
void bench_describe_status(int wstatus, char *buf, size_t len);

#endif
