/* fleet: see fleet.h.  Each poller process reads its share of the hosts in
 * turn through their --host probes (pcp.c), derives the sample as the live
 * dashboard does, and publishes a row per host into shared memory; the
 * front ends only copy rows. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "iodash/session/fleet.h"
#include "iodash/sample/snapshot.h"
#include "iodash/base/util.h"

/* A host that could not be opened is tried again this often. */
#define FLEET_REOPEN_S 2.0
/* The window is kept as buckets of its 60th (5 s): a poll adds to the
 * newest and the sums lose the ones that leave, so a poll costs the same
 * at any interval and after any time (a ring of polls walked at each poll
 * cost 600 steps a host at -i 0.5 once the window was full). */
#define FLEET_NBUCKETS 60
#define FLEET_BUCKET_S ((double)FLEET_WINDOW_S / FLEET_NBUCKETS)

struct fleet_bucket {
	int64_t epoch;       /* which FLEET_BUCKET_S of the fleet's time, -1 unused */
	unsigned hits;
	double throttled_s;
};

/* A poller's working state of one host (in the poller's memory only). */
struct fleet_host {
	struct fleet_row row;
	struct probe *probe;
	struct snapshot *prev;       /* its last reading (the next is read into the poller's scratch) */
	bool have_prev, was_throttled;
	uint64_t seq;
	double next_open_t, down_since_t;
	struct fleet_bucket bucket[FLEET_NBUCKETS];
	unsigned win_hits;
	double win_throttled_s;
};

/* Shared between the pollers and the front end (MAP_SHARED): one slot a
 * host, written under a sequence count (odd while the poller writes), so
 * no lock is held across processes and a reader never waits on a writer
 * that died. */
struct fleet_slot {
	_Atomic uint32_t seq;
	struct fleet_row row;
};

struct fleet_poller_shm {
	_Atomic uint64_t rounds;
	_Atomic uint64_t newest_ns;
};

struct fleet_shm {
	_Atomic uint64_t polls;
	struct fleet_poller_shm poller[];   /* then the slots */
};

struct fleet {
	double interval;
	uint64_t t0_ns;
	size_t n;
	unsigned npollers;
	pid_t *pid;
	bool *gone;                  /* a poller that ended, reaped */
	char (*gone_why)[96];        /* ... and how */
	uint64_t gone_rounds;        /* every poller gone: fleet_rows() calls since */
	int stop_pipe[2];            /* the pollers end when its write end closes */
	int news_pipe[2];            /* a byte per round, to wake the front end */
	struct fleet_shm *shm;
	struct fleet_slot *slot;
	size_t shm_len;
};

const char *fleet_state_name(enum fleet_state s)
{
	switch (s) {
	case FLEET_UNREACHABLE: return "unreachable";
	case FLEET_FAILED: return "failed";
	case FLEET_THROTTLED: return "throttled";
	case FLEET_BUSY: return "busy";
	case FLEET_OK: return "ok";
	}
	return "?";
}

static bool fleet_bench_active(const struct probe_iodash *b)
{
	return b->have && (!strcmp(b->state, "running") || !strcmp(b->state, "starting") ||
			   !strcmp(b->state, "between"));
}

enum fleet_state fleet_state_of(const struct fleet_row *r, bool reachable)
{
	if (!reachable)
		return FLEET_UNREACHABLE;
	if (r->iodash.have && r->iodash.failed > 0)
		return FLEET_FAILED;
	if ((r->have_sample && r->now.have_dirty && r->now.zone >= ZONE_THROTTLE) || r->hits > 0)
		return FLEET_THROTTLED;
	if (fleet_bench_active(&r->iodash) ||
	    (r->have_sample && r->now.have_dirty && r->now.zone == ZONE_BG_FLUSH))
		return FLEET_BUSY;
	return FLEET_OK;
}

int fleet_row_cmp(const struct fleet_row *a, const struct fleet_row *b)
{
	if (a->state != b->state)
		return a->state < b->state ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

int fleet_hosts_add(struct fleet_hosts *hl, const char *name)
{
	if (!name[0] || strlen(name) >= sizeof(hl->name[0]))
		return -EINVAL;
	if (hl->n == hl->cap) {
		size_t cap = hl->cap ? hl->cap * 2 : 16;
		void *p = realloc(hl->name, cap * sizeof(hl->name[0]));
		if (!p)
			return -ENOMEM;
		hl->name = p;
		hl->cap = cap;
	}
	snprintf(hl->name[hl->n++], sizeof(hl->name[0]), "%s", name);
	return 0;
}

void fleet_hosts_free(struct fleet_hosts *hl)
{
	free(hl->name);
	*hl = (struct fleet_hosts){ 0 };
}

int fleet_read_hosts(const char *path, struct fleet_hosts *hl, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int lineno = 0;
	size_t n0 = hl->n;

	if (!f) {
		int e = errno;
		snprintf(err, errlen, "%s: %s (give a file of host names, one per line)", path, strerror(e));
		return -e;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		char *h = line, *end;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%d: line too long for a host name", path, lineno);
			fclose(f);
			return -EINVAL;
		}
		char *hash = strchr(h, '#');
		if (hash)
			*hash = '\0';
		while (*h == ' ' || *h == '\t')
			h++;
		end = h + strlen(h);
		while (end > h && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
			*--end = '\0';
		if (!*h)
			continue;
		if (strpbrk(h, " \t") || strlen(h) >= sizeof(hl->name[0]) || *h == ':' || end[-1] == ':') {
			snprintf(err, errlen, "%s:%d: '%.60s' is not a host: one HOST or HOST:PORT per line",
				 path, lineno, h);
			fclose(f);
			return -EINVAL;
		}
		if (fleet_hosts_add(hl, h)) {
			snprintf(err, errlen, "%s:%d: out of memory", path, lineno);
			fclose(f);
			return -ENOMEM;
		}
	}
	fclose(f);
	if (hl->n == n0) {
		snprintf(err, errlen, "%s: no host in it (one HOST or HOST:PORT per line)", path);
		return -ENODATA;
	}
	return 0;
}

static double fleet_now(const struct fleet *f)
{
	return (double)(util_mono_ns() - f->t0_ns) / 1e9;
}

/* Move the window to now: the buckets that left it leave the sums. */
static void fleet_window(struct fleet_host *h, double now)
{
	int64_t epoch = (int64_t)(now / FLEET_BUCKET_S);

	for (int i = 0; i < FLEET_NBUCKETS; i++) {
		struct fleet_bucket *b = &h->bucket[i];
		if (b->epoch >= 0 && b->epoch <= epoch - FLEET_NBUCKETS) {
			h->win_hits -= b->hits;
			h->win_throttled_s -= b->throttled_s;
			*b = (struct fleet_bucket){ .epoch = -1 };
		}
	}
	h->row.hits = h->win_hits;
	h->row.throttled_s = h->win_throttled_s > 1e-9 ? h->win_throttled_s : 0;
}

static void fleet_mark(struct fleet_host *h, const struct sample *s, double now)
{
	bool throttled = s->have_dirty && s->zone >= ZONE_THROTTLE;
	int64_t epoch = (int64_t)(now / FLEET_BUCKET_S);
	struct fleet_bucket *b = &h->bucket[epoch % FLEET_NBUCKETS];

	if (b->epoch != epoch) {
		/* a bucket a whole window old: fleet_window drops it first */
		h->win_hits -= b->epoch >= 0 ? b->hits : 0;
		h->win_throttled_s -= b->epoch >= 0 ? b->throttled_s : 0;
		*b = (struct fleet_bucket){ .epoch = epoch };
	}
	if (throttled && !h->was_throttled) {
		b->hits++;
		h->win_hits++;
	}
	if (throttled) {
		b->throttled_s += s->dt;
		h->win_throttled_s += s->dt;
	}
	h->was_throttled = throttled;
}

/* The figures of one derived sample into the row. */
static void fleet_fill_now(struct fleet_row *r, const struct sample *s)
{
	const struct disk_rate *best = NULL;

	r->have_sample = true;
	r->now.have_dirty = s->have_dirty;
	r->now.zone = s->zone;
	r->now.level_kb = s->dirty_kb + s->writeback_kb;
	r->now.bg_kb = s->bg_thresh_kb;
	r->now.freerun_kb = s->freerun_kb;
	r->now.thresh_kb = s->thresh_kb;
	for (int i = 0; i < s->ndisks; i++) {
		const struct disk_rate *d = &s->disks[i];
		if (d->is_partition || !d->have_rate)
			continue;
		if (!best || d->rkB_s + d->wkB_s > best->rkB_s + best->wkB_s)
			best = d;
	}
	r->now.disk[0] = '\0';
	r->now.rkB_s = r->now.wkB_s = r->now.util = 0;
	if (best) {
		snprintf(r->now.disk, sizeof(r->now.disk), "%s", best->name);
		r->now.rkB_s = best->rkB_s;
		r->now.wkB_s = best->wkB_s;
		r->now.util = best->util;
	}
}

static void fleet_unreachable(struct fleet_host *h, const char *why, double now)
{
	if (h->row.state != FLEET_UNREACHABLE || h->down_since_t < 0)
		h->down_since_t = now;
	snprintf(h->row.why, sizeof(h->row.why), "%s", why);
	h->row.since_s = now - h->down_since_t;
	h->row.state = FLEET_UNREACHABLE;
	h->row.have_sample = false;
	h->have_prev = false;        /* rates never span the gap */
	memset(&h->row.iodash, 0, sizeof(h->row.iodash));
}

/* What a poller reads into and derives into, one for all its hosts: a
 * host keeps only its last snapshot (each owns its disks' array: swapped,
 * never copied). */
struct fleet_scratch {
	struct snapshot *cur;
	struct sample *smp;
};

static void fleet_poll_host(struct fleet *f, struct fleet_host *h, struct fleet_scratch *x)
{
	char err[256] = "";
	double now = fleet_now(f);
	int rc;

	h->row.polled_ns = util_mono_ns();
	if (!h->probe) {
		if (now < h->next_open_t)
			return;
		h->next_open_t = now + FLEET_REOPEN_S;
		if ((rc = probe_open_host(&h->probe, h->row.host, err, sizeof(err)))) {
			h->probe = NULL;
			fleet_unreachable(h, err, now);
			return;
		}
		const char *nn = probe_host_nodename(h->probe), *rel = probe_host_release(h->probe);
		snprintf(h->row.nodename, sizeof(h->row.nodename), "%s", nn ? nn : "");
		snprintf(h->row.kernel, sizeof(h->row.kernel), "%s", rel && rel[0] ? rel : "n/a");
		h->have_prev = false;
	}
	rc = probe_read(h->probe, x->cur, err, sizeof(err));
	if (rc == -EHOSTDOWN) {
		/* the probe reconnects on its next read */
		fleet_unreachable(h, err, now);
		return;
	}
	if (rc) {
		probe_close(h->probe);
		h->probe = NULL;
		fleet_unreachable(h, err, now);
		return;
	}
	h->down_since_t = -1;
	h->row.why[0] = '\0';
	h->row.since_s = 0;
	if (h->have_prev) {
		derive_sample(h->prev, x->cur, h->prev->mono_ns, ++h->seq, NULL, x->smp);
		fleet_fill_now(&h->row, x->smp);
		fleet_mark(h, x->smp, now);
	}
	struct snapshot *t = h->prev;
	h->prev = x->cur;
	x->cur = t;
	h->have_prev = true;
	fleet_window(h, now);
	if (probe_host_read_iodash(h->probe, &h->row.iodash) == -EHOSTDOWN) {
		fleet_unreachable(h, "pmcd unreachable, retrying", now);
		return;
	}
	h->row.state = fleet_state_of(&h->row, true);
}

/* A seqlock over shared memory: the writer is a poller process, the
 * reader the front end, so the fences order two processes' accesses.
 * GCC's ThreadSanitizer build refuses fences (-Wtsan: it does not model
 * them); it cannot see another process's accesses either, so nothing of
 * its checking is lost here. */
#if defined(__SANITIZE_THREAD__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wtsan"
#endif

static void fleet_slot_write(struct fleet_slot *s, const struct fleet_row *r)
{
	uint32_t q = atomic_load_explicit(&s->seq, memory_order_relaxed);

	atomic_store_explicit(&s->seq, q + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	memcpy(&s->row, r, sizeof(*r));
	atomic_store_explicit(&s->seq, q + 2, memory_order_release);
}

/* A copy that no write went through; a slot held odd for long (its poller
 * died writing) is taken as it is. */
static void fleet_slot_read(const struct fleet_slot *s, struct fleet_row *r)
{
	for (int tries = 0;; tries++) {
		uint32_t a = atomic_load_explicit(&s->seq, memory_order_acquire);
		if ((a & 1) && tries < 1000)
			continue;
		memcpy(r, &s->row, sizeof(*r));
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&s->seq, memory_order_relaxed) == a || tries >= 1000)
			return;
	}
}

/* A poller process: hosts [first, first + n), until the front end closes
 * the stop pipe (or ends: the pipe closes with it). */
static void fleet_poller(struct fleet *f, unsigned w, size_t first, size_t n)
{
	struct fleet_host *h = calloc(n, sizeof(*h));
	struct fleet_poller_shm *ps = &f->shm->poller[w];
	struct fleet_scratch x = { calloc(1, sizeof(*x.cur)), calloc(1, sizeof(*x.smp)) };

	/* the terminal's Ctrl-C and hangup are the front end's to act on */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	close(f->stop_pipe[1]);
	close(f->news_pipe[0]);
	if (!h || !x.cur || !x.smp)
		_exit(1);
	for (size_t i = 0; i < n; i++) {
		struct fleet_host *hp = &h[i];
		hp->row = f->slot[first + i].row;
		hp->down_since_t = -1;
		for (int b = 0; b < FLEET_NBUCKETS; b++)
			hp->bucket[b].epoch = -1;
		if (!(hp->prev = calloc(1, sizeof(*hp->prev))))   /* zeroed: it owns no disks yet */
			_exit(1);
	}
	/* the pollers' rounds spread over the interval: started together,
	 * they would wake together, queue on the CPUs (and on a pmcd serving
	 * many of the hosts) and keep the front end's rows waiting */
	struct pollfd pf = { .fd = f->stop_pipe[0], .events = POLLIN };
	if (poll(&pf, 1, (int)(f->interval * 1000 * w / f->npollers)) > 0)
		_exit(0);
	for (;;) {
		uint64_t start = util_mono_ns();
		for (size_t i = 0; i < n; i++) {
			fleet_poll_host(f, &h[i], &x);
			fleet_slot_write(&f->slot[first + i], &h[i].row);
			atomic_fetch_add_explicit(&f->shm->polls, 1, memory_order_release);
		}
		atomic_store_explicit(&ps->newest_ns, util_mono_ns(), memory_order_relaxed);
		atomic_fetch_add_explicit(&ps->rounds, 1, memory_order_release);
		if (write(f->news_pipe[1], "r", 1) < 0) {
			/* full (the front end has not looked yet) or gone: either way no news is lost */
		}
		double spent = (double)(util_mono_ns() - start) / 1e9;
		int ms = spent >= f->interval ? 0 : (int)((f->interval - spent) * 1000);
		if (poll(&pf, 1, ms) > 0)
			break;
	}
	_exit(0);
}

static void fleet_free(struct fleet *f)
{
	for (int i = 0; i < 2; i++) {
		if (f->stop_pipe[i] >= 0)
			close(f->stop_pipe[i]);
		if (f->news_pipe[i] >= 0)
			close(f->news_pipe[i]);
	}
	if (f->shm)
		munmap(f->shm, f->shm_len);
	free(f->pid);
	free(f->gone);
	free(f->gone_why);
	free(f);
}

/* Stop the pollers started so far and wait for them. */
static void fleet_end_pollers(struct fleet *f)
{
	if (f->stop_pipe[1] >= 0) {
		close(f->stop_pipe[1]);
		f->stop_pipe[1] = -1;
	}
	for (unsigned w = 0; w < f->npollers; w++)
		if (f->pid[w] > 0 && !f->gone[w])
			while (waitpid(f->pid[w], NULL, 0) < 0 && errno == EINTR)
				;
}

int fleet_start(struct fleet **out, const char *const *hosts, size_t n, double interval,
		char *err, size_t errlen)
{
	struct fleet *f;

	*out = NULL;
	if (!n) {
		snprintf(err, errlen, "fleet watches at least one host");
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++)
		if (!hosts[i][0] || strlen(hosts[i]) >= sizeof(((struct fleet_row *)0)->host)) {
			snprintf(err, errlen, "'%.60s' is not a host name", hosts[i]);
			return -EINVAL;
		}
	if (!(f = calloc(1, sizeof(*f)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	f->stop_pipe[0] = f->stop_pipe[1] = f->news_pipe[0] = f->news_pipe[1] = -1;
	f->interval = interval;
	f->n = n;
	f->t0_ns = util_mono_ns();
	f->npollers = (unsigned)((n + FLEET_HOSTS_PER_POLLER - 1) / FLEET_HOSTS_PER_POLLER);
	f->shm_len = sizeof(*f->shm) + f->npollers * sizeof(f->shm->poller[0]) + n * sizeof(*f->slot);
	f->shm = mmap(NULL, f->shm_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (f->shm == MAP_FAILED)
		f->shm = NULL;
	if (!f->shm || !(f->pid = calloc(f->npollers, sizeof(*f->pid))) ||
	    !(f->gone = calloc(f->npollers, sizeof(*f->gone))) ||
	    !(f->gone_why = calloc(f->npollers, sizeof(*f->gone_why))) ||
	    pipe2(f->stop_pipe, O_CLOEXEC) < 0 || pipe2(f->news_pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
		snprintf(err, errlen, "cannot start: %s", strerror(errno ? errno : ENOMEM));
		fleet_free(f);
		return -ENOMEM;
	}
	f->slot = (struct fleet_slot *)&f->shm->poller[f->npollers];
	for (size_t i = 0; i < n; i++) {
		struct fleet_row *r = &f->slot[i].row;
		r->index = i;
		snprintf(r->host, sizeof(r->host), "%s", hosts[i]);
		snprintf(r->why, sizeof(r->why), "not read yet");
		r->state = FLEET_UNREACHABLE;
	}
	for (unsigned w = 0; w < f->npollers; w++) {
		size_t first = (size_t)w * FLEET_HOSTS_PER_POLLER;
		size_t k = n - first < FLEET_HOSTS_PER_POLLER ? n - first : FLEET_HOSTS_PER_POLLER;
		pid_t pid = fork();
		if (pid == 0)
			fleet_poller(f, w, first, k);
		if (pid < 0) {
			int e = errno;
			snprintf(err, errlen, "cannot start poller %u of %u: %s", w + 1, f->npollers, strerror(e));
			fleet_end_pollers(f);
			fleet_free(f);
			return -e;
		}
		f->pid[w] = pid;
	}
	*out = f;
	return 0;
}

static int fleet_qsort_cmp(const void *a, const void *b)
{
	return fleet_row_cmp(a, b);
}

uint64_t fleet_polls(const struct fleet *f)
{
	return atomic_load_explicit(&f->shm->polls, memory_order_acquire);
}

int fleet_news_fd(const struct fleet *f)
{
	return f->news_pipe[0];
}

/* A poller that ended (killed, out of memory): its hosts say so rather
 * than show their last figures as if they were current. */
static bool fleet_poller_gone(struct fleet *f, unsigned w)
{
	int ws;

	if (!f->gone[w] && waitpid(f->pid[w], &ws, WNOHANG) == f->pid[w]) {
		f->gone[w] = true;
		if (WIFSIGNALED(ws))
			snprintf(f->gone_why[w], sizeof(f->gone_why[w]), "its poller process ended by signal %d",
				 WTERMSIG(ws));
		else
			snprintf(f->gone_why[w], sizeof(f->gone_why[w]), "its poller process ended (exit %d)",
				 WEXITSTATUS(ws));
	}
	return f->gone[w];
}

size_t fleet_rows(struct fleet *f, struct fleet_row *rows, size_t max, struct fleet_summary *sum)
{
	size_t n = f->n < max ? f->n : max;
	char buf[64];
	uint64_t rounds = UINT64_MAX, newest = 0, most = 0;

	/* a short read emptied the pipe: no second read only to hear EAGAIN */
	while (read(f->news_pipe[0], buf, sizeof(buf)) == (ssize_t)sizeof(buf))
		;
	for (size_t i = 0; i < n; i++)
		fleet_slot_read(&f->slot[i], &rows[i]);
	for (unsigned w = 0; w < f->npollers; w++) {
		struct fleet_poller_shm *ps = &f->shm->poller[w];
		uint64_t r = atomic_load_explicit(&ps->rounds, memory_order_acquire);
		uint64_t t = atomic_load_explicit(&ps->newest_ns, memory_order_relaxed);
		newest = t > newest ? t : newest;
		most = r > most ? r : most;
		if (!fleet_poller_gone(f, w)) {
			rounds = r < rounds ? r : rounds;
		} else {
			size_t first = (size_t)w * FLEET_HOSTS_PER_POLLER;
			for (size_t i = first; i < n && i < first + FLEET_HOSTS_PER_POLLER; i++) {
				rows[i].state = FLEET_UNREACHABLE;
				rows[i].have_sample = false;
				snprintf(rows[i].why, sizeof(rows[i].why), "%s", f->gone_why[w]);
			}
		}
	}
	if (rounds == UINT64_MAX)        /* every poller gone: each look is news, the rows say why */
		rounds = most + ++f->gone_rounds;
	qsort(rows, n, sizeof(*rows), fleet_qsort_cmp);
	if (sum) {
		*sum = (struct fleet_summary){ .hosts = n, .rounds = rounds, .polls = fleet_polls(f),
					       .newest_ns = newest, .pollers = f->npollers };
		for (size_t i = 0; i < n; i++)
			sum->by_state[rows[i].state]++;
	}
	return n;
}

void fleet_stop(struct fleet *f)
{
	if (!f)
		return;
	fleet_end_pollers(f);
	fleet_free(f);
}
