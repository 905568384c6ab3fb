/* fleet: see fleet.h.  One poller thread reads every host in turn through
 * its --host probe (pcp.c), derives the sample as the live dashboard does,
 * and publishes a row per host under the lock; the front ends only copy
 * rows. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iodash/session/fleet.h"
#include "iodash/sample/snapshot.h"
#include "iodash/base/util.h"

/* A host that could not be opened is tried again this often. */
#define FLEET_REOPEN_S 2.0
/* Polls remembered for the window; at the shortest interval (0.5 s) they
 * span more than FLEET_WINDOW_S. */
#define FLEET_RING 1024

struct fleet_poll_mark {
	double t;            /* seconds since the fleet started */
	double dt;
	bool throttled;      /* in the throttle zone at this poll */
	bool hit_start;      /* a throttle-zone span began here */
};

struct fleet_host {
	struct fleet_row row;        /* the poller's working copy */
	struct fleet_row shown;      /* what fleet_rows() copies, under the lock */
	struct probe *probe;
	struct snapshot *prev, *cur;
	struct sample *smp;
	bool have_prev, was_throttled;
	uint64_t seq;
	double next_open_t, down_since_t;
	struct fleet_poll_mark ring[FLEET_RING];
	size_t nring, ring_head;
};

struct fleet {
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	int stop_pipe[2];
	double interval;
	uint64_t t0_ns;
	uint64_t rounds;
	size_t n;
	struct fleet_host *h;
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

int fleet_read_hosts(const char *path, char (*hosts)[128], size_t max, size_t *n,
		     char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int lineno = 0;

	*n = 0;
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
		if (strpbrk(h, " \t") || strlen(h) >= sizeof(hosts[0]) || *h == ':' || end[-1] == ':') {
			snprintf(err, errlen, "%s:%d: '%.60s' is not a host: one HOST or HOST:PORT per line",
				 path, lineno, h);
			fclose(f);
			return -EINVAL;
		}
		if (*n >= max) {
			snprintf(err, errlen, "%s:%d: more than %zu hosts", path, lineno, max);
			fclose(f);
			return -E2BIG;
		}
		snprintf(hosts[(*n)++], sizeof(hosts[0]), "%s", h);
	}
	fclose(f);
	if (!*n) {
		snprintf(err, errlen, "%s: no host in it (one HOST or HOST:PORT per line)", path);
		return -ENODATA;
	}
	return 0;
}

static double fleet_now(const struct fleet *f)
{
	return (double)(util_mono_ns() - f->t0_ns) / 1e9;
}

/* The window's hits and throttled time, from the marks still in it. */
static void fleet_window(struct fleet_host *h, double now)
{
	h->row.hits = 0;
	h->row.throttled_s = 0;
	for (size_t i = 0; i < h->nring; i++) {
		const struct fleet_poll_mark *m = &h->ring[(h->ring_head + FLEET_RING - 1 - i) % FLEET_RING];
		if (m->t < now - FLEET_WINDOW_S)
			break;
		h->row.hits += m->hit_start;
		if (m->throttled)
			h->row.throttled_s += m->dt;
	}
}

static void fleet_mark(struct fleet_host *h, const struct sample *s, double now)
{
	bool throttled = s->have_dirty && s->zone >= ZONE_THROTTLE;
	struct fleet_poll_mark *m = &h->ring[h->ring_head];

	*m = (struct fleet_poll_mark){ .t = now, .dt = s->dt, .throttled = throttled,
				       .hit_start = throttled && !h->was_throttled };
	h->was_throttled = throttled;
	h->ring_head = (h->ring_head + 1) % FLEET_RING;
	if (h->nring < FLEET_RING)
		h->nring++;
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

static void fleet_poll_host(struct fleet *f, struct fleet_host *h)
{
	char err[256] = "";
	double now = fleet_now(f);
	int rc;

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
	rc = probe_read(h->probe, h->cur, err, sizeof(err));
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
		derive_sample(h->prev, h->cur, h->prev->mono_ns, ++h->seq, NULL, h->smp);
		fleet_fill_now(&h->row, h->smp);
		fleet_mark(h, h->smp, now);
	}
	struct snapshot *t = h->prev;
	h->prev = h->cur;
	h->cur = t;
	h->have_prev = true;
	fleet_window(h, now);
	if (probe_host_read_iodash(h->probe, &h->row.iodash) == -EHOSTDOWN) {
		fleet_unreachable(h, "pmcd unreachable, retrying", now);
		return;
	}
	h->row.state = fleet_state_of(&h->row, true);
}

static void *fleet_main(void *arg)
{
	struct fleet *f = arg;

	for (;;) {
		uint64_t start = util_mono_ns();
		for (size_t i = 0; i < f->n; i++) {
			fleet_poll_host(f, &f->h[i]);
			pthread_mutex_lock(&f->lock);
			f->h[i].shown = f->h[i].row;
			pthread_mutex_unlock(&f->lock);
		}
		pthread_mutex_lock(&f->lock);
		f->rounds++;
		pthread_mutex_unlock(&f->lock);
		double spent = (double)(util_mono_ns() - start) / 1e9;
		int ms = spent >= f->interval ? 0 : (int)((f->interval - spent) * 1000);
		struct pollfd pf = { .fd = f->stop_pipe[0], .events = POLLIN };
		if (poll(&pf, 1, ms) > 0)
			break;
	}
	return NULL;
}

static void fleet_free(struct fleet *f)
{
	for (size_t i = 0; f->h && i < f->n; i++) {
		probe_close(f->h[i].probe);
		if (f->h[i].prev)
			snapshot_free(f->h[i].prev);
		if (f->h[i].cur)
			snapshot_free(f->h[i].cur);
		if (f->h[i].smp)
			sample_free(f->h[i].smp);
		free(f->h[i].prev);
		free(f->h[i].cur);
		free(f->h[i].smp);
	}
	free(f->h);
	if (f->stop_pipe[0] >= 0) {
		close(f->stop_pipe[0]);
		close(f->stop_pipe[1]);
	}
	pthread_mutex_destroy(&f->lock);
	free(f);
}

int fleet_start(struct fleet **out, const char *const *hosts, size_t n, double interval,
		char *err, size_t errlen)
{
	struct fleet *f;
	int rc;

	*out = NULL;
	if (!n || n > FLEET_MAX_HOSTS) {
		snprintf(err, errlen, "fleet watches 1 to %d hosts, not %zu", FLEET_MAX_HOSTS, n);
		return -EINVAL;
	}
	if (!(f = calloc(1, sizeof(*f)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&f->lock, NULL);
	f->stop_pipe[0] = f->stop_pipe[1] = -1;
	f->interval = interval;
	f->n = n;
	f->t0_ns = util_mono_ns();
	if (!(f->h = calloc(n, sizeof(*f->h))) || pipe(f->stop_pipe) < 0) {
		snprintf(err, errlen, "cannot start: %s", strerror(errno ? errno : ENOMEM));
		fleet_free(f);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct fleet_host *h = &f->h[i];
		if (!hosts[i][0] || strlen(hosts[i]) >= sizeof(h->row.host)) {
			snprintf(err, errlen, "'%.60s' is not a host name", hosts[i]);
			fleet_free(f);
			return -EINVAL;
		}
		h->row.index = i;
		snprintf(h->row.host, sizeof(h->row.host), "%s", hosts[i]);
		snprintf(h->row.why, sizeof(h->row.why), "not read yet");
		h->row.state = FLEET_UNREACHABLE;
		h->down_since_t = -1;
		h->shown = h->row;
		if (!(h->prev = calloc(1, sizeof(*h->prev))) || !(h->cur = calloc(1, sizeof(*h->cur))) ||
		    !(h->smp = calloc(1, sizeof(*h->smp)))) {
			snprintf(err, errlen, "out of memory");
			fleet_free(f);
			return -ENOMEM;
		}
	}
	if ((rc = -pthread_create(&f->thread, NULL, fleet_main, f))) {
		snprintf(err, errlen, "cannot start the poller: %s", strerror(-rc));
		fleet_free(f);
		return rc;
	}
	f->started = true;
	*out = f;
	return 0;
}

static int fleet_qsort_cmp(const void *a, const void *b)
{
	return fleet_row_cmp(a, b);
}

size_t fleet_rows(struct fleet *f, struct fleet_row *rows, size_t max, uint64_t *rounds)
{
	size_t n = f->n < max ? f->n : max;

	pthread_mutex_lock(&f->lock);
	for (size_t i = 0; i < n; i++)
		rows[i] = f->h[i].shown;
	if (rounds)
		*rounds = f->rounds;
	pthread_mutex_unlock(&f->lock);
	qsort(rows, n, sizeof(*rows), fleet_qsort_cmp);
	return n;
}

void fleet_stop(struct fleet *f)
{
	if (!f)
		return;
	if (f->started) {
		if (write(f->stop_pipe[1], "x", 1) < 0) {
			/* our own empty pipe: cannot fail short of EBADF */
		}
		pthread_join(f->thread, NULL);
	}
	fleet_free(f);
}
