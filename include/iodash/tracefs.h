/* tracefs: the exact throttling signal, writeback:balance_dirty_pages
 * (pause > 0), for the session.
 *
 * It works in a private tracefs instance (instances/iodash-PID-N): its
 * own buffer, event enables, filter and tracing_on, so the global tracing
 * state that was found (top-level enable, tracing_on, buffer size, filters,
 * other users' instances) is never changed.  Leaving restores by removing
 * the instance (normal exit, atexit, and a fatal-signal handler); an
 * instance left by a killed iodash (SIGKILL) is removed by the next one,
 * and tools/ or test traps can `rmdir instances/iodash-*`.  If tracefs was
 * not mounted, it is mounted at /sys/kernel/tracing and unmounted again. */
#ifndef IODASH_TRACEFS_H
#define IODASH_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct tracefs {
	char dir[256];              /* tracefs mount point */
	char inst[320];             /* our instance directory */
	int pipe_fd;                /* its trace_pipe, O_NONBLOCK */
	bool mounted_by_us;
	bool pid_filter;            /* set_event_pid + event-fork in use */
	char part[512];             /* a line split across reads */
	size_t plen;
	uint64_t pauses_total, pauses_window;
	double pause_ms_total, pause_ms_window;
	uint64_t lines;             /* balance_dirty_pages lines seen, pause or not */
	char note[256];             /* what was done ("mounted tracefs at ...") */
};

/* Root only.  mount_point NULL: find tracefs in /proc/self/mounts or mount
 * it at /sys/kernel/tracing.  0 or -errno with err naming the fix. */
int tracefs_open(struct tracefs *t, const char *mount_point, char *err, size_t errlen);
/* Trace only these pids and their future children (event-fork); replaces
 * the previous list.  0 or -errno (then everything is traced). */
int tracefs_set_pids(struct tracefs *t, const pid_t *pids, size_t n);
/* The fd to poll for input, -1 when closed. */
int tracefs_fd(const struct tracefs *t);
/* Read what is there (non-blocking) and count it.  0 or -errno. */
int tracefs_read(struct tracefs *t);
/* Counts since the last take. */
void tracefs_take(struct tracefs *t, uint64_t *pauses, double *pause_ms);
/* Disable, remove the instance, unmount if we mounted.  Idempotent. */
void tracefs_close(struct tracefs *t);

/* One trace_pipe line: 1 and *pause_ms when it is a balance_dirty_pages
 * event, 0 when it is another line, never reads past len. */
int tracefs_parse_line(const char *line, size_t len, long *pause_ms);
/* Count one chunk of trace_pipe text (lines may split across chunks). */
void tracefs_feed(struct tracefs *t, const char *buf, size_t len);

#endif
