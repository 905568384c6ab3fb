/* bench: run, sweep and attach drivers (the benchmark half of iodash).
 *
 *   cmd_run / cmd_sweep / cmd_attach -> bench_driver_create() -> app_session_start()
 *   driver thread: spawn on a pty -> raw bytes -> parser -> result points
 *                                   \-> lines -> model_add_output
 *                  every sample period: proctree (io, throttled tasks),
 *                  tracefs pauses -> model_set_bench
 *
 * Exit code of a session with a benchmark (m->exit_code): 0 when the run
 * (or every run of a sweep) exited 0; 1 when any run failed, was killed,
 * was stopped by the user, or could not be started.  A sweep goes on after
 * a failed run (unless --stop-on-fail) and still returns 1 at its end, so a
 * script sees that something failed; the failed runs are marked in events.
 * attach returns 0 when the watched process exits (its status is not
 * visible: it is not our child) and when iodash stops watching (q, SIGINT,
 * SIGTERM, SIGHUP, --count/--duration): an attached process is watched,
 * never signalled, and is left running. */
#ifndef IODASH_BENCH_H
#define IODASH_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include "iodash/session/app.h"

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
/* Whether pid is there and has not exited (a zombie counts as gone), from
 * /proc: for processes iodash only looks at, so no kill(pid, 0). */
bool bench_pid_alive(pid_t pid);
/* Whether argv0 can be executed (PATH search as execvp does). 0 or -errno
 * with the same message as a failed spawn. */
int bench_check_exec(const char *argv0, char *err, size_t errlen);
/* "exit 0", "exit 3", "killed by SIGKILL", "killed by SIGSEGV (core dumped)" */
void bench_describe_status(int wstatus, char *buf, size_t len);

/* Splits a byte stream into display lines: \n, \r\n and a lone \r end a
 * line (a \r-redrawn status line becomes one line per update); escape
 * sequences and control bytes are dropped; lines longer than the cap are
 * cut into pieces so nothing is lost and memory stays bounded. */
#define BENCH_LINE_MAX 255
struct bench_linebuf {
	char buf[BENCH_LINE_MAX + 1];
	size_t len;
	int esc;          /* 0 none, 1 after ESC, 2 in CSI, 3 in OSC */
	bool cr;          /* last byte was \r */
	bool cr_line;     /* ... and it ended a non-empty line */
};
void bench_linebuf_init(struct bench_linebuf *lb);
/* Calls emit for each complete line. */
void bench_linebuf_feed(struct bench_linebuf *lb, const char *data, size_t len,
			void (*emit)(void *ctx, const char *line), void *ctx);
/* Emit what is left (end of output). */
void bench_linebuf_flush(struct bench_linebuf *lb,
			 void (*emit)(void *ctx, const char *line), void *ctx);

/* Follows a file the benchmark writes, as tail -F does: from its start,
 * then what is appended; a truncated file is read again from the start, a
 * replaced one (new inode: rotation) from the start of the new file, a
 * missing one is waited for. */
struct bench_follow {
	char path[4096];
	int fd;
	dev_t dev;
	ino_t ino;
	off_t off;
};
enum { FOLLOW_APPEARED = 1, FOLLOW_TRUNCATED = 2, FOLLOW_REPLACED = 4, FOLLOW_GONE = 8 };
void bench_follow_init(struct bench_follow *f, const char *path);
/* Read what is new (at most max bytes), calling data() per chunk.  Returns
 * a mask of FOLLOW_* that happened, or -errno for a read error. */
int bench_follow_poll(struct bench_follow *f, size_t max,
		      void (*data)(void *ctx, const char *buf, size_t len), void *ctx);
void bench_follow_close(struct bench_follow *f);

/* How long argv runs, where its command line says (dbench -t N, fio
 * --runtime with --time_based and --ramp_time, sysbench --time): 0 with
 * *secs, and *at_most when it may end sooner (fio without time_based,
 * sysbench with --events); -ENOENT when the command line does not say. */
int bench_run_length(char *const argv[], double *secs, bool *at_most);

/* What the driver runs or watches; src/cmd/ fills it from the command
 * line.  The strings are the caller's and must outlive the driver. */
enum bench_kind { BENCH_KIND_NONE, BENCH_KIND_RUN, BENCH_KIND_SWEEP, BENCH_KIND_ATTACH };
struct bench_config {
	enum bench_kind kind;
	double interval;                 /* -i: a tick of the process tree */
	const char *label;               /* -l, NULL: from the command (or the process) */
	const char *parser;              /* --parser, NULL: from argv[0] */
	char *const *argv;               /* run, sweep: the benchmark's command */
	int argc;
	const char *const *params;       /* sweep -p NAME=V1,V2 */
	int nparams;
	int repeat;                      /* sweep --repeat, 1 */
	const char *between;             /* sweep --between CMD */
	bool stop_on_fail;               /* sweep --stop-on-fail */
	const char *const *sysctls;      /* run, sweep --sysctl KEY=VALUE */
	int nsysctls;
	pid_t pid;                       /* attach PID */
	const char *log;                 /* attach --log FILE */
	bool live_counters;              /* the session samples this machine (not
					  * --proc-root, --host): the runs' summaries */
};

/* Build the driver of cfg->kind.  Usage errors return -EINVAL (exit 2),
 * others -errno (exit 1). */
int bench_driver_create(const struct bench_config *cfg, struct bench_driver **out,
			char *err, size_t errlen);

#endif
