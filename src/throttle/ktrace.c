/* ktrace: the writeback tracepoints in a private tracefs instance, read in
 * binary; see ktrace.h for the why. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>
#include "iodash/probe/proctree.h"
#include "iodash/base/fdio.h"
#include "iodash/throttle/ktrace.h"
#include "iodash/base/util.h"

#define TRACEFS_MAGIC_NR 0x74726163
#define CGROUP2_MAGIC_NR 0x63677270
#define DEFAULT_MOUNT "/sys/kernel/tracing"
#define KT_MAX_CPUS 256
#define KT_COMM_CACHE 64
/* The reader thread's drain period: a CPU's buffer (1.4 MB) holds some
 * 20 s of a throttled writer's events (the fixture's 1,200 a second) */
#define KT_READER_PERIOD_MS 2000

/* A field of an event, looked up by name once. */
struct kt_field {
	const char *name;
	struct tep_format_field *f;
};

enum { BF_BDI, BF_LIMIT, BF_SETPOINT, BF_DIRTY, BF_DRL, BF_TRL, BF_DIRTIED, BF_PAUSE, BF_CGROUP, BF_N };
enum { RF_BDI, RF_WBW, RF_DRATE, RF_DRL, RF_TRL, RF_BAL, RF_N };
enum { GF_DIRTY, GF_WB, GF_LIMIT, GF_N };

struct ktrace {
	pthread_mutex_t lock;
	pthread_t thread;
	bool thread_started;
	int stop_pipe[2];
	char dir[256];               /* tracefs mount */
	char inst_name[64];
	char inst_path[400];
	bool mounted_by_us;
	int guard;                   /* slot in the signal guard, -1 none */
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	int page_size;
	int ncpu;
	int fds[KT_MAX_CPUS];
	void *page;
	int id_bdp, id_rl, id_gds;
	struct kt_field bdp[BF_N], rl[RF_N], gds[GF_N];
	/* decoded but not yet used (between a drain and the sort) */
	struct kt_rec *recs;
	size_t nrecs, caprecs;
	/* state kept between collects, under lock */
	struct thr_builder builder;
	struct kt_cut cuts[KT_MAX_CUTS];   /* asked, not yet applied: in time order */
	int ncuts;
	struct kt_window win;        /* being filled */
	uint64_t loop_pauses;        /* pauses of win.loop's bdi */
	struct { int32_t pid; char comm[THR_COMM_LEN]; } comm_cache[KT_COMM_CACHE];
	/* cgroup paths by inode: the walk is done once per cgroup */
	struct { uint64_t ino; char path[KT_CGROUP_LEN]; } cg_cache[16];
	unsigned cg_next;
	unsigned comm_next;
};

/* ---- signal and exit guard ------------------------------------------------
 * What a fatal signal or exit() must undo, in fixed storage so that the
 * handler only makes async-signal-safe calls (rmdir, umount). */
#define GUARD_SLOTS 4
static struct {
	volatile sig_atomic_t used;
	char inst[400];
	char mnt[256];
	volatile sig_atomic_t umount;
	volatile sig_atomic_t nfds;
	int fds[KT_MAX_CPUS];        /* our buffers: open, they keep the instance busy */
	volatile sig_atomic_t wake_fd; /* the reader thread's stop pipe, -1 none */
} guard_slot[GUARD_SLOTS];
static bool guard_installed;
static struct sigaction guard_old[65];
static const int guard_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT,
				  SIGTERM, SIGHUP, SIGINT, SIGUSR1, SIGUSR2, SIGALRM };

static void guard_clean_now(void)
{
	for (int i = 0; i < GUARD_SLOTS; i++) {
		if (!guard_slot[i].used)
			continue;
		/* the kernel refuses (EBUSY) to remove an instance whose
		 * buffers are open: close ours first; rmdir then disables the
		 * events itself.  If it still fails, the next iodash removes it */
		/* a thread asleep in poll() on a buffer holds it open after
		 * close(): wake it (it then leaves) */
		if (guard_slot[i].wake_fd >= 0 && write(guard_slot[i].wake_fd, "x", 1) < 0) {
			/* nothing more to try: the retries below decide */
		}
		for (int c = 0; c < guard_slot[i].nfds; c++)
			if (guard_slot[i].fds[c] >= 0)
				close(guard_slot[i].fds[c]);
		guard_slot[i].nfds = 0;
		for (int tries = 0; tries < 200 && rmdir(guard_slot[i].inst) != 0 && errno == EBUSY; tries++) {
			struct timespec ms = { 0, 1000000 };
			nanosleep(&ms, NULL);
		}
		if (guard_slot[i].umount)
			umount(guard_slot[i].mnt);
		guard_slot[i].used = 0;
	}
}

static void guard_on_signal(int sig)
{
	int saved = errno;

	guard_clean_now();
	if (sig > 0 && sig < 65)
		sigaction(sig, &guard_old[sig], NULL);
	errno = saved;
	raise(sig);
}

static void guard_at_exit(void)
{
	guard_clean_now();
}

static void guard_install(void)
{
	struct sigaction sa;

	if (guard_installed)
		return;
	guard_installed = true;
	atexit(guard_at_exit);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = guard_on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	for (size_t i = 0; i < sizeof(guard_sigs) / sizeof(guard_sigs[0]); i++) {
		struct sigaction old;
		sigaction(guard_sigs[i], NULL, &old);
		/* the app's own handlers (SIGTERM, SIGHUP, SIGINT set a flag and
		 * the session ends through ktrace_close) and ignored signals stay */
		if (old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
			continue;
		guard_old[guard_sigs[i]] = old;
		sigaction(guard_sigs[i], &sa, NULL);
	}
}

static int guard_add(const char *inst, const char *mnt, bool umount_it)
{
	guard_install();
	for (int i = 0; i < GUARD_SLOTS; i++) {
		if (guard_slot[i].used)
			continue;
		snprintf(guard_slot[i].inst, sizeof(guard_slot[i].inst), "%s", inst);
		snprintf(guard_slot[i].mnt, sizeof(guard_slot[i].mnt), "%s", mnt);
		guard_slot[i].umount = umount_it;
		guard_slot[i].nfds = 0;
		guard_slot[i].wake_fd = -1;
		guard_slot[i].used = 1;
		return i;
	}
	return -1;
}

/* ---- small helpers -------------------------------------------------------- */

static bool is_fs(const char *dir, unsigned long magic)
{
	struct statfs sf;
	return statfs(dir, &sf) == 0 && (unsigned long)sf.f_type == magic;
}

static int write_inst(struct ktrace *k, const char *file, const char *val)
{
	int r = tracefs_instance_file_write(k->inst, file, val);
	return r < 0 ? -EIO : 0;
}

/* Name of a task: /proc/TID/comm, read once per writer. */
static void comm_of(struct ktrace *k, int32_t pid, char *comm)
{
	char path[64];
	int fd;
	ssize_t n;

	for (int i = 0; i < KT_COMM_CACHE; i++)
		if (k->comm_cache[i].pid == pid && k->comm_cache[i].comm[0]) {
			memcpy(comm, k->comm_cache[i].comm, THR_COMM_LEN);
			return;
		}
	snprintf(comm, THR_COMM_LEN, "?");
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, comm, THR_COMM_LEN - 1);
	close(fd);
	if (n <= 0) {
		snprintf(comm, THR_COMM_LEN, "?");
		return;
	}
	comm[n] = '\0';
	comm[strcspn(comm, "\n")] = '\0';
	unsigned s = k->comm_next++ % KT_COMM_CACHE;
	k->comm_cache[s].pid = pid;
	memcpy(k->comm_cache[s].comm, comm, THR_COMM_LEN);
}

static uint64_t cg_want;
static char cg_found[KT_CGROUP_LEN];
static const char *cg_root;
static pthread_mutex_t cg_lock = PTHREAD_MUTEX_INITIALIZER;

static int cg_visit(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)f;
	if (type != FTW_D || (uint64_t)st->st_ino != cg_want)
		return 0;
	const char *rel = path + strlen(cg_root);
	snprintf(cg_found, sizeof(cg_found), "%s", *rel ? rel : "/");
	return 1;
}

/* Where cgroup2 is mounted (alone, or as "unified" beside v1). */
static bool cgroup2_root(char *root, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char dev[128], dir[256], type[64];
	bool found = false;

	if (!f)
		return false;
	while (!found && fscanf(f, "%127s %255s %63s %*[^\n]", dev, dir, type) == 3)
		if (!strcmp(type, "cgroup2") && is_fs(dir, CGROUP2_MAGIC_NR)) {
			snprintf(root, len, "%s", dir);
			found = true;
		}
	fclose(f);
	return found;
}

void ktrace_cgroup_path(uint64_t ino, char *buf, size_t len)
{
	char root[256];

	snprintf(buf, len, "?");
	if (!cgroup2_root(root, sizeof(root)))
		return;
	pthread_mutex_lock(&cg_lock);
	cg_want = ino;
	cg_root = root;
	cg_found[0] = '\0';
	/* cgroup2 directory inode numbers are the kernfs ids the tracepoint
	 * reports as cgroup_ino */
	nftw(root, cg_visit, 16, FTW_PHYS | FTW_MOUNT);
	if (cg_found[0])
		snprintf(buf, len, "%s", cg_found);
	pthread_mutex_unlock(&cg_lock);
}

/* ---- stale instances ------------------------------------------------------ */

/* Instances are named iodash-PID-nsINODE: the pid and the inode of the pid
 * namespace it means something in.  One of another namespace (or of an
 * older iodash, named iodash-PID) cannot be checked for life from here:
 * it is stale only once older than this (a live one has its buffers open
 * by then, and the kernel refuses to remove it). */
#define KTRACE_STALE_S 60

static unsigned long ktrace_pidns(void)
{
	struct stat st;
	return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long)st.st_ino : 0;
}

int ktrace_remove_stale(const char *tracing_dir)
{
	char path[512];
	DIR *d;
	struct dirent *de;
	int removed = 0;

	snprintf(path, sizeof(path), "%s/instances", tracing_dir);
	d = opendir(path);
	if (!d)
		return 0;
	unsigned long my_ns = ktrace_pidns();
	while ((de = readdir(d))) {
		int pid;
		unsigned long ns = 0;
		if (sscanf(de->d_name, "iodash-%d-ns%lu", &pid, &ns) < 1 || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "%s/instances/%.64s", tracing_dir, de->d_name);
		if (ns && ns == my_ns) {
			/* a live iodash of this namespace may be setting it up */
			if (pid != getpid() && proctree_pid_alive(pid))
				continue;
		} else {
			/* its pid means nothing here: only an old one is stale
			 * (a live one keeps its buffers open: EBUSY) */
			struct stat st;
			if (stat(path, &st) == 0 && time(NULL) - st.st_mtime < KTRACE_STALE_S)
				continue;
		}
		if (rmdir(path) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}

/* ---- decoding ------------------------------------------------------------- */

/* The three tracepoints the follower enables. */
static const char *const kt_events[] = { "balance_dirty_pages", "bdi_dirty_ratelimit", "global_dirty_state" };

/* An event parser that knows the ring buffer's page header and our three
 * events, read from their format files.  Not tracefs_local_events_system():
 * besides every writeback event it parses /proc/kallsyms and the printk
 * formats, which held 7-14 MB of the process for the whole session (a
 * function name per kernel symbol) and are never used: these events print
 * no kernel addresses. */
static struct tep_handle *kt_load_formats(const char *dir, char *err, size_t errlen)
{
	struct tep_handle *tep = tep_alloc();
	char path[512], buf[16384];
	ssize_t n;

	if (!tep) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	if ((n = fdio_read_small(path, buf, sizeof(buf))) <= 0 ||
	    tep_parse_header_page(tep, buf, (unsigned long)n, (int)sizeof(long))) {
		snprintf(err, errlen, "%s: cannot read the trace buffer's page format", path);
		goto fail;
	}
	for (size_t i = 0; i < sizeof(kt_events) / sizeof(kt_events[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/writeback/%s/format", dir, kt_events[i]);
		n = fdio_read_small(path, buf, sizeof(buf));
		if (n <= 0) {
			snprintf(err, errlen, "this kernel has no writeback:%s tracepoint (%s: %s)", kt_events[i],
				 path, n < 0 ? strerror((int)-n) : "empty");
			goto fail;
		}
		if (tep_parse_event(tep, buf, (unsigned long)n, "writeback")) {
			snprintf(err, errlen, "%s: cannot parse the event's format", path);
			goto fail;
		}
	}
	return tep;
fail:
	tep_free(tep);
	return NULL;
}

static int find_event(struct ktrace *k, const char *name, struct kt_field *fl, int n,
		      int *id, char *err, size_t errlen)
{
	struct tep_event *ev = tep_find_event_by_name(k->tep, "writeback", name);

	if (!ev) {
		snprintf(err, errlen, "this kernel has no writeback:%s tracepoint", name);
		return -ENOENT;
	}
	*id = ev->id;
	for (int i = 0; i < n; i++) {
		fl[i].f = tep_find_field(ev, fl[i].name);
		if (!fl[i].f) {
			snprintf(err, errlen, "writeback:%s has no field %s on this kernel", name, fl[i].name);
			return -ENOENT;
		}
	}
	return 0;
}

static uint64_t num(const struct kt_field *f, const void *data)
{
	unsigned long long v = 0;
	tep_read_number_field(f->f, data, &v);
	return v;
}

static void str_field(const struct kt_field *f, const void *data, char *out, size_t len)
{
	size_t n = (size_t)f->f->size < len - 1 ? (size_t)f->f->size : len - 1;
	memcpy(out, (const char *)data + f->f->offset, n);
	out[n] = '\0';
}

static struct kt_rec *rec_new(struct ktrace *k)
{
	if (k->nrecs == k->caprecs) {
		size_t cap = k->caprecs ? k->caprecs * 2 : 1024;
		struct kt_rec *r = realloc(k->recs, cap * sizeof(*r));
		if (!r)
			return NULL;
		k->recs = r;
		k->caprecs = cap;
	}
	return &k->recs[k->nrecs++];
}

static void decode(struct ktrace *k, void *data, int size, uint64_t ts)
{
	struct tep_record rec = { .ts = ts, .data = data, .size = size };
	int type = tep_data_type(k->tep, &rec);
	struct kt_rec *r;

	if (type != k->id_bdp && type != k->id_rl && type != k->id_gds)
		return;
	if (!(r = rec_new(k)))
		return;
	memset(r, 0, sizeof(*r));
	if (type == k->id_bdp) {
		struct thr_pause *p = &r->u.p;
		r->kind = KR_PAUSE;
		p->ts_ns = ts;
		p->pid = tep_data_pid(k->tep, &rec);
		str_field(&k->bdp[BF_BDI], data, p->bdi, sizeof(p->bdi));
		p->limit = num(&k->bdp[BF_LIMIT], data);
		p->setpoint = num(&k->bdp[BF_SETPOINT], data);
		p->dirty = num(&k->bdp[BF_DIRTY], data);
		p->dirty_ratelimit = num(&k->bdp[BF_DRL], data);
		p->task_ratelimit = num(&k->bdp[BF_TRL], data);
		p->dirtied = (uint32_t)num(&k->bdp[BF_DIRTIED], data);
		p->pause_ms = (int64_t)num(&k->bdp[BF_PAUSE], data);
		p->cgroup_ino = num(&k->bdp[BF_CGROUP], data);
	} else if (type == k->id_rl) {
		r->kind = KR_RATELIMIT;
		r->u.r.ts_ns = ts;
		str_field(&k->rl[RF_BDI], data, r->u.r.bdi, sizeof(r->u.r.bdi));
		r->u.r.write_bw = num(&k->rl[RF_WBW], data);
		r->u.r.dirty_rate = num(&k->rl[RF_DRATE], data);
		r->u.r.dirty_ratelimit = num(&k->rl[RF_DRL], data);
		r->u.r.task_ratelimit = num(&k->rl[RF_TRL], data);
		r->u.r.balanced = num(&k->rl[RF_BAL], data);
	} else {
		r->kind = KR_GLOBAL;
		r->u.g.ts_ns = ts;
		r->u.g.nr_dirty = num(&k->gds[GF_DIRTY], data);
		r->u.g.nr_writeback = num(&k->gds[GF_WB], data);
		r->u.g.limit = num(&k->gds[GF_LIMIT], data);
	}
}

/* Room in bytes that a full sub-buffer may still have: more than the
 * largest of our events (writeback's are 60-120 bytes) with a margin. */
#define KT_ROOM_LEFT_MIN 512

/* Read every CPU's buffer until it is empty (non-blocking).  One poll
 * says which have anything (buffer_percent 0: readable when not empty), so
 * a quiet CPU costs no read: one call a tick, not one a CPU. */
static void drain_locked(struct ktrace *k)
{
	struct pollfd pf[KT_MAX_CPUS];

	for (int c = 0; c < k->ncpu; c++)
		pf[c] = (struct pollfd){ .fd = k->fds[c], .events = POLLIN };
	bool polled = poll(pf, (nfds_t)k->ncpu, 0) >= 0;
	for (int c = 0; c < k->ncpu; c++) {
		if (k->fds[c] < 0 || (polled && !(pf[c].revents & POLLIN)))
			continue;
		for (int rounds = 0; rounds < 4096; rounds++) {
			ssize_t n = read(k->fds[c], k->page, (size_t)k->page_size);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			if (kbuffer_load_subbuffer(k->kbuf, k->page) < 0)
				break;
			int missed = kbuffer_missed_events(k->kbuf);
			if (missed > 0)
				k->win.lost_events += (uint64_t)missed;
			/* a sub-buffer with room left for several more events
			 * was the one being written: the CPU's buffer is empty
			 * now, and asking again would only say EAGAIN (a read a
			 * CPU a tick, the most of this thread's calls) */
			bool last = kbuffer_subbuffer_size(k->kbuf) + KT_ROOM_LEFT_MIN <
				    (int)n - kbuffer_start_of_data(k->kbuf);
			unsigned long long ts;
			void *data = kbuffer_read_event(k->kbuf, &ts);
			while (data) {
				decode(k, data, kbuffer_event_size(k->kbuf), ts);
				data = kbuffer_next_event(k->kbuf, &ts);
			}
			if (last)
				break;
		}
	}
}

static uint64_t rec_ts(const struct kt_rec *r)
{
	return r->kind == KR_PAUSE ? r->u.p.ts_ns : r->kind == KR_RATELIMIT ? r->u.r.ts_ns : r->u.g.ts_ns;
}

static int rec_cmp(const void *a, const void *b)
{
	uint64_t x = rec_ts(a), y = rec_ts(b);
	return x < y ? -1 : x > y;
}

size_t ktrace_order_events(struct kt_rec *recs, size_t n, uint64_t horizon_ns)
{
	size_t ready = 0;

	qsort(recs, n, sizeof(*recs), rec_cmp);
	while (ready < n && rec_ts(&recs[ready]) <= horizon_ns)
		ready++;
	return ready;
}

static struct kt_transition *add_transition(struct kt_window *w, int kind, const struct thr_episode *e)
{
	/* the last slots are kept for cuts: a driver waits for its cut */
	if (w->ntrans >= KT_MAX_TRANSITIONS - (kind == THR_CUT ? 0 : KT_MAX_CUTS)) {
		w->trans_dropped++;
		return NULL;
	}
	w->trans[w->ntrans].kind = kind;
	if (e)
		w->trans[w->ntrans].ep = *e;
	return &w->trans[w->ntrans++];
}

static void window_writer(struct ktrace *k, const struct thr_pause *p)
{
	struct kt_window *w = &k->win;
	struct kt_writer_rate *wr = NULL;

	for (int i = 0; i < w->nwriters; i++)
		if (w->writers[i].pid == p->pid && !strcmp(w->writers[i].bdi, p->bdi)) {
			wr = &w->writers[i];
			break;
		}
	if (!wr) {
		if (w->nwriters == KT_MAX_WRITERS) {
			w->writers_dropped++;
			return;
		}
		wr = &w->writers[w->nwriters++];
		memset(wr, 0, sizeof(*wr));
		wr->pid = p->pid;
		memcpy(wr->comm, p->comm, sizeof(wr->comm));
		memcpy(wr->bdi, p->bdi, sizeof(wr->bdi));
		wr->cgroup_ino = p->cgroup_ino;
	}
	if (p->pause_ms > 0) {
		wr->pauses++;
		wr->paused_ms += (double)p->pause_ms;
	}
	wr->dirtied_pages += p->dirtied;
	wr->task_ratelimit = p->task_ratelimit;
}

/* The cuts due by `t`: what is open ends there, and the window says
 * where (a THR_CUT transition after the episode's end). */
static void cuts_due_locked(struct ktrace *k, uint64_t t)
{
	struct thr_episode closed;
	int n = 0;

	while (n < k->ncuts && k->cuts[n].at_ns <= t) {
		if (throttle_cut(&k->builder, k->cuts[n].at_ns, &closed))
			add_transition(&k->win, THR_CLOSED, &closed);
		struct kt_transition *tr = add_transition(&k->win, THR_CUT, NULL);
		if (tr)
			tr->cut = k->cuts[n];
		k->win.cuts_done = k->cuts[n].ticket;
		n++;
	}
	memmove(k->cuts, k->cuts + n, (size_t)(k->ncuts - n) * sizeof(k->cuts[0]));
	k->ncuts -= n;
}

int ktrace_cut(struct ktrace *k, const struct kt_cut *c)
{
	int rc = 0;

	pthread_mutex_lock(&k->lock);
	if (k->ncuts == KT_MAX_CUTS)
		rc = -ENOSPC;
	else
		k->cuts[k->ncuts++] = *c;
	pthread_mutex_unlock(&k->lock);
	return rc;
}

/* Use what was drained, in time order, into the window and the builder:
 * the events up to `horizon_ns`, a time taken before the drain began.
 * The CPUs' buffers are read one after another, and a drain preempted
 * between two of them (a loaded machine, a writer on every CPU) reads the
 * second CPU's later events before the first CPU's events of the same
 * time: those come at the next drain.  Used at once, a pause read a drain
 * late went into an episode already started at a later pause, and the
 * episode began 11 ms after its first pause (seen in a clean-clone check).
 * Every CPU was read after the horizon, so what is up to it is all here;
 * what is after it waits for the next drain. */
static void process_locked(struct ktrace *k, uint64_t horizon_ns)
{
	struct kt_window *w = &k->win;
	struct thr_episode closed;
	size_t ready = ktrace_order_events(k->recs, k->nrecs, horizon_ns);

	for (size_t i = 0; i < ready; i++) {
		struct kt_rec *r = &k->recs[i];
		if (k->ncuts)
			cuts_due_locked(k, rec_ts(r));
		if (r->kind == KR_PAUSE) {
			struct thr_pause *p = &r->u.p;
			comm_of(k, p->pid, p->comm);
			int t = throttle_feed(&k->builder, p, &closed);
			if (t & THR_CLOSED)
				add_transition(w, THR_CLOSED, &closed);
			if (t & THR_STARTED)
				add_transition(w, THR_STARTED, &k->builder.cur);
			if (p->pause_ms > 0) {
				w->pauses++;
				w->paused_ms += (double)p->pause_ms;
			}
			window_writer(k, p);
			if (!strcmp(p->bdi, w->loop.bdi) || !w->loop.bdi[0]) {
				memcpy(w->loop.bdi, p->bdi, sizeof(w->loop.bdi));
				w->loop.setpoint = p->setpoint;
				w->loop.dirty = p->dirty;
				w->loop.limit = p->limit;
			}
		} else if (r->kind == KR_RATELIMIT) {
			/* the busiest bdi: the one writers pause on; else the last */
			if (!w->loop.bdi[0] || !strcmp(r->u.r.bdi, w->loop.bdi)) {
				w->loop.have = true;
				memcpy(w->loop.bdi, r->u.r.bdi, sizeof(w->loop.bdi));
				w->loop.write_bw = r->u.r.write_bw;
				w->loop.dirty_rate = r->u.r.dirty_rate;
				w->loop.dirty_ratelimit = r->u.r.dirty_ratelimit;
				w->loop.task_ratelimit = r->u.r.task_ratelimit;
				w->loop.balanced_ratelimit = r->u.r.balanced;
			}
		} else {
			throttle_feed_level(&k->builder, r->u.g.nr_dirty + r->u.g.nr_writeback, r->u.g.limit);
		}
	}
	memmove(k->recs, k->recs + ready, (k->nrecs - ready) * sizeof(*k->recs));
	k->nrecs -= ready;
}

static void *reader_main(void *arg)
{
	struct ktrace *k = arg;
	struct pollfd pf = { .fd = k->stop_pipe[0], .events = POLLIN };

	for (;;) {
		/* The sampler drains at each tick; this thread only keeps the
		 * kernel's buffers from filling up between two ticks of a long
		 * interval: a drain every KT_READER_PERIOD_MS.  (Woken by the
		 * buffers themselves it would wake for every event: with
		 * buffer_percent 0 they poll readable when not empty.) */
		int r = poll(&pf, 1, KT_READER_PERIOD_MS);
		if (r < 0 && errno == EINTR)
			continue;
		if (r != 0)
			break;          /* stop asked, or the pipe failed */
		pthread_mutex_lock(&k->lock);
		uint64_t horizon = util_mono_ns();
		drain_locked(k);
		process_locked(k, horizon);
		pthread_mutex_unlock(&k->lock);
	}
	return NULL;
}

/* ---- open / collect / close ----------------------------------------------- */

static int find_mount(struct ktrace *k, char *err, size_t errlen, char *note, size_t notelen)
{
	if (is_fs(DEFAULT_MOUNT, TRACEFS_MAGIC_NR)) {
		snprintf(k->dir, sizeof(k->dir), "%s", DEFAULT_MOUNT);
	} else if (is_fs("/sys/kernel/debug/tracing", TRACEFS_MAGIC_NR)) {
		snprintf(k->dir, sizeof(k->dir), "/sys/kernel/debug/tracing");
	} else if (mount("nodev", DEFAULT_MOUNT, "tracefs", 0, NULL) == 0) {
		snprintf(k->dir, sizeof(k->dir), "%s", DEFAULT_MOUNT);
		k->mounted_by_us = true;
		snprintf(note, notelen, "tracefs was not mounted: mounted it at %s (unmounted at exit)",
			 DEFAULT_MOUNT);
	} else {
		int rc = -errno;
		snprintf(err, errlen, "tracefs is not mounted and mounting it at %s failed: %s "
			 "(mount -t tracefs nodev %s)", DEFAULT_MOUNT, strerror(-rc), DEFAULT_MOUNT);
		return rc;
	}
	return 0;
}

/* mkdir our instance: iodash-PID-nsINODE (see KTRACE_STALE_S), with -N
 * after it should that name be taken all the same. */
static int make_instance(struct ktrace *k, char *err, size_t errlen)
{
	unsigned long ns = ktrace_pidns();

	for (int n = 0; n < 16; n++) {
		if (n)
			snprintf(k->inst_name, sizeof(k->inst_name), "iodash-%d-ns%lu-%d", (int)getpid(), ns, n);
		else
			snprintf(k->inst_name, sizeof(k->inst_name), "iodash-%d-ns%lu", (int)getpid(), ns);
		snprintf(k->inst_path, sizeof(k->inst_path), "%s/instances/%s", k->dir, k->inst_name);
		if (mkdir(k->inst_path, 0700) == 0)
			return 0;
		if (errno != EEXIST) {
			int rc = -errno;
			snprintf(err, errlen, "cannot create the tracefs instance %s: %s",
				 k->inst_path, strerror(-rc));
			k->inst_path[0] = '\0';
			return rc;
		}
	}
	snprintf(err, errlen, "cannot create a tracefs instance under %s/instances: all names taken", k->dir);
	k->inst_path[0] = '\0';
	return -EEXIST;
}

static void field_names(struct ktrace *k)
{
	static const char *const b[BF_N] = { "bdi", "limit", "setpoint", "dirty", "dirty_ratelimit",
		"task_ratelimit", "dirtied", "pause", "cgroup_ino" };
	static const char *const r[RF_N] = { "bdi", "write_bw", "dirty_rate", "dirty_ratelimit",
		"task_ratelimit", "balanced_dirty_ratelimit" };
	/* the dirty level and the limit: an episode's peak (the thresholds
	 * and counters of the event come from /proc in every sample) */
	static const char *const g[GF_N] = { "nr_dirty", "nr_writeback", "dirty_limit" };
	for (int i = 0; i < BF_N; i++) k->bdp[i].name = b[i];
	for (int i = 0; i < RF_N; i++) k->rl[i].name = r[i];
	for (int i = 0; i < GF_N; i++) k->gds[i].name = g[i];
}

int ktrace_open(struct ktrace **out, double gap_s, char *err, size_t errlen,
		char *note, size_t notelen)
{
	struct ktrace *k;
	int rc;
	char path[512];

	*out = NULL;
	if (notelen)
		note[0] = '\0';
	if (geteuid() != 0) {
		snprintf(err, errlen, "the kernel's throttling tracepoints need root (tracefs)");
		return -EPERM;
	}
	if (!(k = calloc(1, sizeof(*k)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&k->lock, NULL);
	k->stop_pipe[0] = k->stop_pipe[1] = -1;
	k->guard = -1;
	for (int c = 0; c < KT_MAX_CPUS; c++)
		k->fds[c] = -1;
	field_names(k);
	throttle_init(&k->builder, gap_s);
	if ((rc = find_mount(k, err, errlen, note, notelen)))
		goto fail;
	snprintf(path, sizeof(path), "%s/events/writeback/balance_dirty_pages", k->dir);
	if (access(path, F_OK) != 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s (a kernel without the writeback tracepoints?)", path, strerror(-rc));
		goto fail;
	}
	ktrace_remove_stale(k->dir);
	if ((rc = make_instance(k, err, errlen)))
		goto fail;
	k->guard = guard_add(k->inst_path, k->dir, k->mounted_by_us);
	k->inst = tracefs_instance_alloc(k->dir, k->inst_name);
	if (!k->inst) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (!(k->tep = kt_load_formats(k->dir, err, errlen))) {
		rc = -ENOENT;
		goto fail;
	}
	if ((rc = find_event(k, "balance_dirty_pages", k->bdp, BF_N, &k->id_bdp, err, errlen)) ||
	    (rc = find_event(k, "bdi_dirty_ratelimit", k->rl, RF_N, &k->id_rl, err, errlen)) ||
	    (rc = find_event(k, "global_dirty_state", k->gds, GF_N, &k->id_gds, err, errlen)))
		goto fail;
	/* the kernel's own layout: same long size and endianness as us */
	k->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
	k->page_size = getpagesize();
	k->page = malloc((size_t)k->page_size);
	if (!k->kbuf || !k->page) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	/* event times in CLOCK_MONOTONIC, as the samples' */
	if ((rc = write_inst(k, "trace_clock", "mono"))) {
		snprintf(err, errlen, "%s/trace_clock: cannot select the mono clock", k->inst_path);
		goto fail;
	}
	/* poll on a CPU's buffer: readable when it holds anything */
	write_inst(k, "buffer_percent", "0");
	for (size_t i = 0; i < sizeof(kt_events) / sizeof(kt_events[0]); i++)
		if (tracefs_event_enable(k->inst, "writeback", kt_events[i]) < 0) {
			rc = -EIO;
			snprintf(err, errlen, "cannot enable writeback:%s in %s", kt_events[i], k->inst_path);
			goto fail;
		}
	k->ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (k->ncpu > KT_MAX_CPUS)
		k->ncpu = KT_MAX_CPUS;
	int opened = 0;
	for (int c = 0; c < k->ncpu; c++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", k->inst_path, c);
		k->fds[c] = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		opened += k->fds[c] >= 0;
	}
	if (k->guard >= 0) {
		memcpy(guard_slot[k->guard].fds, k->fds, sizeof(k->fds));
		guard_slot[k->guard].nfds = k->ncpu;
	}
	if (!opened) {
		rc = -errno;
		snprintf(err, errlen, "%s/per_cpu/cpu*/trace_pipe_raw: %s", k->inst_path, strerror(errno));
		goto fail;
	}
	if (pipe2(k->stop_pipe, O_CLOEXEC) < 0 ||
	    (rc = -pthread_create(&k->thread, NULL, reader_main, k))) {
		rc = rc ? rc : -errno;
		snprintf(err, errlen, "cannot start the trace reader: %s", strerror(-rc));
		goto fail;
	}
	k->thread_started = true;
	if (k->guard >= 0)
		guard_slot[k->guard].wake_fd = k->stop_pipe[1];
	*out = k;
	return 0;
fail:
	if (notelen)
		note[0] = '\0';
	ktrace_close(k);
	return rc;
}

static int writer_cmp(const void *a, const void *b)
{
	const struct kt_writer_rate *x = a, *y = b;
	return x->paused_ms < y->paused_ms ? 1 : x->paused_ms > y->paused_ms ? -1 : 0;
}

static void cgroup_cached(struct ktrace *k, uint64_t ino, char *out)
{
	const size_t n = sizeof(k->cg_cache) / sizeof(k->cg_cache[0]);

	for (size_t i = 0; i < n; i++)
		if (k->cg_cache[i].ino == ino && k->cg_cache[i].path[0]) {
			memcpy(out, k->cg_cache[i].path, KT_CGROUP_LEN);
			return;
		}
	ktrace_cgroup_path(ino, out, KT_CGROUP_LEN);
	unsigned s = k->cg_next++ % n;
	k->cg_cache[s].ino = ino;
	memcpy(k->cg_cache[s].path, out, KT_CGROUP_LEN);
}

int ktrace_ignore_reader(struct ktrace *k, pid_t tid)
{
	char filter[64];

	if (!k)
		return 0;
	snprintf(filter, sizeof(filter), "common_pid != %d", (int)tid);
	return write_inst(k, "events/writeback/global_dirty_state/filter", filter);
}

void kt_window_copy(struct kt_window *dst, const struct kt_window *src)
{
	dst->to_ns = src->to_ns;
	dst->pauses = src->pauses;
	dst->paused_ms = src->paused_ms;
	dst->nwriters = src->nwriters;
	dst->writers_dropped = src->writers_dropped;
	memcpy(dst->writers, src->writers, (size_t)src->nwriters * sizeof(src->writers[0]));
	dst->loop = src->loop;
	dst->in_episode = src->in_episode;
	dst->ntrans = src->ntrans;
	dst->trans_dropped = src->trans_dropped;
	dst->cuts_done = src->cuts_done;
	memcpy(dst->trans, src->trans, (size_t)src->ntrans * sizeof(src->trans[0]));
	dst->lost_events = src->lost_events;
}

int ktrace_collect(struct ktrace *k, struct kt_window *w)
{
	struct thr_episode closed;
	uint64_t now;

	pthread_mutex_lock(&k->lock);
	/* the time first: every event drained below happened before it */
	now = util_mono_ns();
	drain_locked(k);
	process_locked(k, now);
	cuts_due_locked(k, now);
	if (throttle_advance(&k->builder, now, &closed))
		add_transition(&k->win, THR_CLOSED, &closed);
	k->win.to_ns = now;
	k->win.in_episode = k->builder.open;
	kt_window_copy(w, &k->win);
	/* a new window; it keeps the control loop: its events come a few
	 * times a second at most, a window without one still has
	 * the last (the arrays are zeroed entry by entry as they fill) */
	struct kt_window *n = &k->win;
	n->to_ns = 0;
	n->pauses = 0;
	n->paused_ms = 0;
	n->nwriters = 0;
	n->writers_dropped = 0;
	n->in_episode = false;
	n->ntrans = 0;
	n->trans_dropped = 0;
	n->cuts_done = 0;
	n->lost_events = 0;
	pthread_mutex_unlock(&k->lock);
	qsort(w->writers, (size_t)w->nwriters, sizeof(w->writers[0]), writer_cmp);
	for (int i = 0; i < w->nwriters; i++)
		cgroup_cached(k, w->writers[i].cgroup_ino, w->writers[i].cgroup);
	return 0;
}

void ktrace_finish(struct ktrace *k, struct kt_window *w)
{
	struct thr_episode closed;

	memset(w, 0, sizeof(*w));
	pthread_mutex_lock(&k->lock);
	w->to_ns = util_mono_ns();
	if (throttle_flush(&k->builder, &closed))
		add_transition(w, THR_CLOSED, &closed);
	pthread_mutex_unlock(&k->lock);
}

const char *ktrace_instance(const struct ktrace *k)
{
	return k ? k->inst_path : "";
}

void ktrace_close(struct ktrace *k)
{
	if (!k)
		return;
	if (k->thread_started) {
		if (write(k->stop_pipe[1], "x", 1) < 0) {
			/* our own empty pipe: cannot fail short of EBADF */
		}
		pthread_join(k->thread, NULL);
	}
	if (k->guard >= 0) {
		guard_slot[k->guard].nfds = 0;   /* a signal now must not close them twice */
		guard_slot[k->guard].wake_fd = -1;
	}
	for (int c = 0; c < KT_MAX_CPUS; c++)
		if (k->fds[c] >= 0)
			close(k->fds[c]);
	if (k->stop_pipe[0] >= 0) {
		close(k->stop_pipe[0]);
		close(k->stop_pipe[1]);
	}
	if (k->inst_path[0]) {
		/* EBUSY for a moment after the last close: retry briefly */
		for (int i = 0; i < 50 && rmdir(k->inst_path) != 0 && errno == EBUSY; i++)
			usleep(10000);
	}
	if (k->guard >= 0) {
		guard_slot[k->guard].nfds = 0;
		guard_slot[k->guard].used = 0;
	}
	if (k->mounted_by_us)
		umount(k->dir);
	if (k->inst)
		tracefs_instance_free(k->inst);
	if (k->kbuf)
		kbuffer_free(k->kbuf);
	if (k->tep)
		tep_free(k->tep);
	free(k->page);
	free(k->recs);
	pthread_mutex_destroy(&k->lock);
	free(k);
}
