/* bench/pty: a benchmark spawned on a pty, its signals and its reaping. */
#ifndef IODASH_BENCH_PTY_H
#define IODASH_BENCH_PTY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct proctree_entry;

/* A child on a pty, in its own session with the pty as controlling
 * terminal (a dropped ssh session never reaches it), SIGINT/SIGQUIT/SIGPIPE
 * and every other signal at their default, signal mask empty.  It is the
 * child of a keeper, iodash's child, which holds its whole tree (the
 * processes that leave its session or its parentage too) and kills all of
 * it when iodash ends, whatever ends iodash. */
struct bench_child {
	pid_t pid;        /* also its process group and session id */
	int master_fd;    /* O_NONBLOCK | O_CLOEXEC; read the output here */
	int exit_fd;      /* readable once its end is known (bench_reap_child);
			   * the spawner's to poll, not to close */
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
/* The only way iodash signals a benchmark.  pid must be a benchmark that
 * bench_spawn() started and whose end is not known yet; then its keeper
 * sends sig to its process group (the session it made with setsid), or to
 * the child alone if it has not made it yet, unless it has reaped it.
 * Anything else is refused with -EPERM and nothing is sent: never
 * pid <= 1, never a negative pid, never an attached process.  0 (sig 0:
 * it is ours), -EPERM, or -ESRCH when its keeper is gone. */
int bench_signal_child(pid_t pid, int sig);
/* The end of a benchmark of bench_spawn (block: wait for it first), as
 * waitpid(WNOHANG) returns: pid with *wstatus, 0 not yet, -1 (ECHILD) not
 * ours.  After this the pid is no longer ours. */
pid_t bench_reap_child(pid_t pid, int *wstatus, bool block);
/* The same, with the benchmark's /proc/PID/io read at its exit before its
 * reaping (it holds its reaped children's counters) into io when not
 * NULL (io->have_io false when unreadable). */
pid_t bench_reap_child_io(pid_t pid, int *wstatus, bool block, struct proctree_entry *io);
/* The session is over: every keeper kills what is left of its tree (the
 * processes a run left behind) and is reaped, waiting at most wait_s in
 * all.  A keeper not done by then finishes on its own. */
void bench_release_children(double wait_s);
/* Whether argv0 can be executed (PATH search as execvp does). 0 or -errno
 * with the same message as a failed spawn. */
int bench_check_exec(const char *argv0, char *err, size_t errlen);
/* "exit 0", "exit 3", "killed by SIGKILL", "killed by SIGSEGV (core dumped)" */
void bench_describe_status(int wstatus, char *buf, size_t len);

#endif
