/* The balance_dirty_pages tracepoint in a private tracefs instance; see
 * tracefs.h for why an instance and how the state found is restored. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include "iodash/bench.h"
#include "iodash/tracefs.h"

#define TRACEFS_MAGIC_NR 0x74726163
#define DEFAULT_MOUNT "/sys/kernel/tracing"

/* What a fatal-signal handler or atexit must undo: fixed storage, no
 * locks, so that the handler only makes async-signal-safe calls. */
#define CLEAN_SLOTS 4
static struct {
	volatile sig_atomic_t used;
	char inst[320];
	char enable[400];
	char mnt[256];
	volatile sig_atomic_t umount;
} clean_slot[CLEAN_SLOTS];
static bool clean_installed;
static struct sigaction clean_old[32];
static const int clean_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGQUIT };

static void clean_all_now(void)
{
	for (int i = 0; i < CLEAN_SLOTS; i++) {
		int fd;
		if (!clean_slot[i].used)
			continue;
		fd = open(clean_slot[i].enable, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (write(fd, "0", 1) < 0) { /* removing the instance is what counts */ }
			close(fd);
		}
		rmdir(clean_slot[i].inst);
		if (clean_slot[i].umount)
			umount(clean_slot[i].mnt);
		clean_slot[i].used = 0;
	}
}

static void clean_on_signal(int sig)
{
	int saved = errno;

	clean_all_now();
	/* Give the signal to whoever had it before (the app's SIGTERM flag,
	 * the default action) and deliver it again. */
	for (size_t i = 0; i < sizeof(clean_sigs) / sizeof(clean_sigs[0]); i++)
		if (clean_sigs[i] == sig)
			sigaction(sig, &clean_old[sig], NULL);
	errno = saved;
	raise(sig);
}

static void clean_at_exit(void)
{
	clean_all_now();
}

static void clean_install(void)
{
	struct sigaction sa;

	if (clean_installed)
		return;
	clean_installed = true;
	atexit(clean_at_exit);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = clean_on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	for (size_t i = 0; i < sizeof(clean_sigs) / sizeof(clean_sigs[0]); i++) {
		struct sigaction old;
		sigaction(clean_sigs[i], NULL, &old);
		/* A handler that only sets a flag (the app's SIGTERM) means the
		 * app exits through its normal path: leave it alone. */
		if (old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
			continue;
		clean_old[clean_sigs[i]] = old;
		sigaction(clean_sigs[i], &sa, NULL);
	}
}

static int write_file(const char *dir, const char *name, const char *val)
{
	char path[512];
	int fd, e = 0;
	size_t n = strlen(val);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, n) != (ssize_t)n)
		e = -errno;
	close(fd);
	return e ? e : 0;
}

static bool is_tracefs(const char *dir)
{
	struct statfs sf;
	return statfs(dir, &sf) == 0 && (unsigned long)sf.f_type == TRACEFS_MAGIC_NR;
}

/* Instances named iodash-PID-N whose PID is gone: left by a killed iodash. */
static void remove_stale(const char *dir)
{
	char path[512];
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof(path), "%s/instances", dir);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		int pid;
		if (sscanf(de->d_name, "iodash-%d-", &pid) != 1 || pid <= 0)
			continue;
		if (bench_pid_alive(pid))
			continue;
		snprintf(path, sizeof(path), "%s/instances/%.64s", dir, de->d_name);
		write_file(path, "events/writeback/balance_dirty_pages/enable", "0");
		rmdir(path);
	}
	closedir(d);
}

int tracefs_open(struct tracefs *t, const char *mount_point, char *err, size_t errlen)
{
	static int seq;
	const char *dir = mount_point;
	int rc, slot = -1;
	char path[512];

	memset(t, 0, sizeof(*t));
	t->pipe_fd = -1;
	if (geteuid() != 0) {
		snprintf(err, errlen, "--trace-throttle needs root (tracefs); run as root or drop the option");
		return -EPERM;
	}
	if (!dir) {
		if (is_tracefs(DEFAULT_MOUNT))
			dir = DEFAULT_MOUNT;
		else if (is_tracefs("/sys/kernel/debug/tracing"))
			dir = "/sys/kernel/debug/tracing";
		else if (mount("nodev", DEFAULT_MOUNT, "tracefs", 0, NULL) == 0) {
			dir = DEFAULT_MOUNT;
			t->mounted_by_us = true;
			snprintf(t->note, sizeof(t->note),
				 "tracefs was not mounted: mounted it at %s (unmounted at exit)", DEFAULT_MOUNT);
		} else {
			rc = -errno;
			snprintf(err, errlen, "--trace-throttle: tracefs is not mounted and mounting it at %s failed: %s (mount -t tracefs nodev %s)",
				 DEFAULT_MOUNT, strerror(-rc), DEFAULT_MOUNT);
			return rc;
		}
	}
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/events/writeback/balance_dirty_pages", dir);
	if (access(path, F_OK) != 0) {
		rc = -errno;
		snprintf(err, errlen, "--trace-throttle: %s: %s (kernel without the writeback tracepoints?)",
			 path, strerror(-rc));
		goto fail;
	}
	remove_stale(dir);
	snprintf(t->inst, sizeof(t->inst), "%s/instances/iodash-%d-%d", dir, (int)getpid(), seq++);
	if (mkdir(t->inst, 0700) != 0) {
		rc = -errno;
		snprintf(err, errlen, "--trace-throttle: cannot create the tracefs instance %s: %s",
			 t->inst, strerror(-rc));
		t->inst[0] = '\0';
		goto fail;
	}
	clean_install();
	for (int i = 0; i < CLEAN_SLOTS; i++)
		if (!clean_slot[i].used) { slot = i; break; }
	if (slot >= 0) {
		snprintf(clean_slot[slot].inst, sizeof(clean_slot[slot].inst), "%s", t->inst);
		snprintf(clean_slot[slot].enable, sizeof(clean_slot[slot].enable),
			 "%s/events/writeback/balance_dirty_pages/enable", t->inst);
		snprintf(clean_slot[slot].mnt, sizeof(clean_slot[slot].mnt), "%s", t->dir);
		clean_slot[slot].umount = t->mounted_by_us;
		clean_slot[slot].used = 1;
	}
	/* Only real pauses reach us: the kernel also traces pause <= 0
	 * (under the ratelimit) and those are most of the events. */
	write_file(t->inst, "events/writeback/balance_dirty_pages/filter", "pause > 0");
	rc = write_file(t->inst, "events/writeback/balance_dirty_pages/enable", "1");
	if (rc) {
		snprintf(err, errlen, "--trace-throttle: enabling %s/events/writeback/balance_dirty_pages: %s",
			 t->inst, strerror(-rc));
		goto fail;
	}
	snprintf(path, sizeof(path), "%s/trace_pipe", t->inst);
	t->pipe_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (t->pipe_fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "--trace-throttle: %s: %s", path, strerror(-rc));
		goto fail;
	}
	return 0;
fail:
	tracefs_close(t);
	return rc;
}

int tracefs_set_pids(struct tracefs *t, const pid_t *pids, size_t n)
{
	char buf[4096];
	size_t off = 0;
	int rc;

	if (!t->inst[0])
		return -EBADF;
	for (size_t i = 0; i < n && off < sizeof(buf) - 16; i++)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%d ", (int)pids[i]);
	if (!off)
		return -EINVAL;
	buf[off - 1] = '\n';
	buf[off] = '\0';
	write_file(t->inst, "options/event-fork", "1");
	rc = write_file(t->inst, "set_event_pid", buf);
	t->pid_filter = rc == 0;
	return rc;
}

int tracefs_fd(const struct tracefs *t)
{
	return t->pipe_fd;
}

int tracefs_parse_line(const char *line, size_t len, long *pause_ms)
{
	static const char tag[] = "balance_dirty_pages:";
	static const char key[] = " pause=";
	const char *p = memmem(line, len, tag, sizeof(tag) - 1);
	const char *q;
	long v = 0;
	bool neg = false, digits = false;

	if (!p)
		return 0;
	/* " pause=" with its space: dirtied_pause= and paused= also contain it */
	q = memmem(p, len - (size_t)(p - line), key, sizeof(key) - 1);
	if (!q)
		return 0;
	q += sizeof(key) - 1;
	if (q < line + len && *q == '-') {
		neg = true;
		q++;
	}
	while (q < line + len && *q >= '0' && *q <= '9') {
		if (v < 100000000)
			v = v * 10 + (*q - '0');
		digits = true;
		q++;
	}
	if (!digits)
		return 0;
	*pause_ms = neg ? -v : v;
	return 1;
}

static void feed_line(struct tracefs *t, const char *line, size_t len)
{
	long ms;

	if (tracefs_parse_line(line, len, &ms) != 1)
		return;
	t->lines++;
	if (ms <= 0)
		return;
	t->pauses_total++;
	t->pauses_window++;
	t->pause_ms_total += ms;
	t->pause_ms_window += ms;
}

void tracefs_feed(struct tracefs *t, const char *buf, size_t len)
{
	while (len) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;

		if (t->plen || !nl) {
			/* keep a bounded tail; a longer line is not a trace line
			 * we know, keep its start (the tag is near the start) */
			size_t room = sizeof(t->part) - t->plen;
			size_t c = n < room ? n : room;
			memcpy(t->part + t->plen, buf, c);
			t->plen += c;
			if (nl) {
				feed_line(t, t->part, t->plen);
				t->plen = 0;
			}
		} else {
			feed_line(t, buf, n);
		}
		if (!nl)
			break;
		buf += n + 1;
		len -= n + 1;
	}
}

int tracefs_read(struct tracefs *t)
{
	char buf[16384];
	int rounds = 0;

	if (t->pipe_fd < 0)
		return -EBADF;
	/* Bounded: a flood must not starve the pty reader of the same loop. */
	while (rounds++ < 64) {
		ssize_t r = read(t->pipe_fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno == EAGAIN ? 0 : -errno;
		if (r == 0)
			return 0;
		tracefs_feed(t, buf, (size_t)r);
	}
	return 0;
}

void tracefs_take(struct tracefs *t, uint64_t *pauses, double *pause_ms)
{
	*pauses = t->pauses_window;
	*pause_ms = t->pause_ms_window;
	t->pauses_window = 0;
	t->pause_ms_window = 0;
}

void tracefs_close(struct tracefs *t)
{
	if (t->pipe_fd >= 0) {
		close(t->pipe_fd);
		t->pipe_fd = -1;
	}
	if (t->inst[0]) {
		write_file(t->inst, "events/writeback/balance_dirty_pages/enable", "0");
		/* EBUSY while a reader still holds trace_pipe: retry briefly */
		for (int i = 0; i < 20 && rmdir(t->inst) != 0 && errno == EBUSY; i++)
			usleep(10000);
		for (int i = 0; i < CLEAN_SLOTS; i++)
			if (clean_slot[i].used && !strcmp(clean_slot[i].inst, t->inst))
				clean_slot[i].used = 0;
		t->inst[0] = '\0';
	}
	if (t->mounted_by_us) {
		umount(t->dir);
		t->mounted_by_us = false;
	}
}
