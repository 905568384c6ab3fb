/* proctree: the benchmark's process tree, followed as it forks, and what
 * it does per sample period: summed /proc/PID/io rates and the tasks that
 * the kernel is throttling right now (state D in balance_dirty_pages). */
#ifndef IODASH_PROCTREE_H
#define IODASH_PROCTREE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct proctree_entry {
	pid_t pid;
	unsigned long long start;   /* starttime: tells a reused pid apart */
	uint64_t rchar, wchar, read_bytes, write_bytes;
	bool have_io;
	bool member;                /* in the tree at the last scan */
};

struct proctree_sample {
	int nprocs;                 /* processes in the tree (root included) */
	int ntasks;                 /* their threads */
	int blocked;                /* tasks in state D (waiting, mostly on I/O) */
	int throttled;              /* tasks in state D with wchan balance_dirty_pages* */
	bool root_alive;
	bool have_io;               /* /proc/PID/io readable for the tree (false: no rates) */
	bool have_rates;            /* a previous scan exists: the rates are valid */
	double rchar_Bps, wchar_Bps, read_Bps, write_Bps;  /* whole B/s */
};

struct proctree {
	char root_dir[256];         /* "/proc" or a directory laid out like it */
	pid_t root;
	pid_t session;              /* > 0: every process of this session is ours too */
	struct proctree_entry *e;   /* known processes (bounded by PROCTREE_MAX) */
	size_t n, cap;
	double last_t;
	bool scanned;
	/* optional: told every task (the pid, then each tid) of the tree at
	 * every scan, so a caller can tell the tree's tasks after they end */
	void (*on_task)(void *ctx, pid_t tid);
	void *on_task_ctx;
};

#define PROCTREE_MAX 16384

/* Follow root and its descendants.  With same_session, every process in
 * root's session belongs to the tree too (a spawned benchmark is a session
 * leader, so this keeps daemonised or reparented children). */
int proctree_init(struct proctree *t, const char *proc_root, pid_t root, bool same_session);
/* One scan at time now_s (seconds, any monotonic origin).  0 or -errno. */
int proctree_scan(struct proctree *t, double now_s, struct proctree_sample *out);
void proctree_free(struct proctree *t);

/* The text of a /proc/PID/io into e's counters (e->have_io: all four
 * read).  Read from an exited process before it is reaped, it holds what
 * its whole tree moved: the kernel adds each reaped child's counters to
 * its parent's, which a scan between two ticks never sees (the keeper
 * reads it so: bench_reap_child_io). */
void proctree_parse_io(const char *buf, struct proctree_entry *e);

/* Parse the interesting fields of a /proc/PID/stat line (comm may hold
 * spaces and parentheses).  0 or -EINVAL. */
int proctree_parse_stat(const char *buf, char *state, pid_t *ppid, pid_t *pgrp,
			pid_t *session, unsigned long long *start);

/* Whether pid is there and has not exited (a zombie counts as gone), from
 * /proc: for processes iodash only looks at, so no kill(pid, 0). */
bool proctree_pid_alive(pid_t pid);

#endif
