/* procio: see include/iodash/probe/procio.h.  Beside proctree (the benchmark's
 * processes), whose /proc/PID/stat parser it shares.
 *
 * Cost: a scan reads /proc/PID/io of every process (one small file each)
 * and /proc/PID/stat only of a process it has not seen before, of one
 * whose counters fell (a pid reused), and of the few rows it shows (for
 * their comm and parent, which exec and reparenting change). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "iodash/base/fdio.h"
#include "iodash/probe/proctree.h"
#include "iodash/probe/procio.h"

struct procio_proc {
	pid_t pid, ppid, sid;
	unsigned long long start;    /* starttime, clock ticks after boot */
	uint64_t rb, wb;             /* read_bytes, write_bytes */
	bool have_rate;
	double r_Bps, w_Bps;
};

void procio_init(struct procio *p, const char *proc_root)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->root, sizeof(p->root), "%s", proc_root ? proc_root : "/proc");
	p->prev_t = -1;
}

void procio_free(struct procio *p)
{
	free(p->prev);
	p->prev = NULL;
	p->nprev = 0;
	snapshot_free(&p->snap);
	p->have_snap = false;
}

double procio_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int procio_parse_io(const char *buf, uint64_t *read_bytes, uint64_t *write_bytes)
{
	const char *r = strstr(buf, "\nread_bytes: "), *w = strstr(buf, "\nwrite_bytes: ");

	if (!r || !w)
		return -EINVAL;
	*read_bytes = strtoull(r + 13, NULL, 10);
	*write_bytes = strtoull(w + 14, NULL, 10);
	return 0;
}

int procio_parse_stat(const char *buf, uint64_t *total, uint64_t *iowait, uint64_t *steal,
		      unsigned *running, unsigned *blocked, bool *have_procs)
{
	unsigned long long v[8] = { 0 };
	const char *l;
	int n;

	if (strncmp(buf, "cpu ", 4))
		return -EINVAL;
	/* user nice system idle iowait irq softirq steal (guest is in user) */
	n = sscanf(buf + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	if (n < 4)
		return -EINVAL;
	*total = 0;
	for (int i = 0; i < n; i++)
		*total += v[i];
	*iowait = v[4];
	*steal = v[7];
	*have_procs = false;
	if ((l = strstr(buf, "\nprocs_running ")) && sscanf(l + 15, "%u", running) == 1 &&
	    (l = strstr(buf, "\nprocs_blocked ")) && sscanf(l + 15, "%u", blocked) == 1)
		*have_procs = true;
	return 0;
}

static const struct procio_proc *find_proc(const struct procio_proc *v, size_t n, pid_t pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (v[mid].pid == pid)
			return &v[mid];
		if (v[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int by_pid(const void *a, const void *b)
{
	pid_t x = ((const struct procio_proc *)a)->pid, y = ((const struct procio_proc *)b)->pid;

	return (x > y) - (x < y);
}

/* Read /proc/PID/stat: comm (may be NULL), parent, session, start. */
static int read_stat(const char *root, pid_t pid, char *comm, size_t commlen, struct procio_proc *e)
{
	char path[300], buf[1024];
	char st;

	snprintf(path, sizeof(path), "%s/%d/stat", root, (int)pid);
	if (fdio_read_small(path, buf, sizeof(buf)) <= 0 ||
	    proctree_parse_stat(buf, &st, &e->ppid, NULL, &e->sid, &e->start))
		return -ENOENT;
	if (comm) {
		const char *o = strchr(buf, '('), *c = strrchr(buf, ')');
		size_t n = o && c > o ? (size_t)(c - o - 1) : 0;
		if (n >= commlen)
			n = commlen - 1;
		memcpy(comm, o ? o + 1 : "", n);
		comm[n] = '\0';
		for (char *s = comm; *s; s++)
			if (!isprint((unsigned char)*s))
				*s = '?';     /* a name is the process's to choose: keep the screen's lines whole */
	}
	return 0;
}

/* Is pid the root, a descendant of it, or in its session? */
static bool in_tree(const struct procio_proc *v, size_t n, const struct procio_proc *e, pid_t root)
{
	if (root <= 0)
		return false;
	if (e->sid == root)
		return true;
	for (int depth = 0; e && depth < 64; depth++) {
		if (e->pid == root)
			return true;
		if (e->ppid <= 1)
			break;
		e = find_proc(v, n, e->ppid);
	}
	return false;
}

/* Keep the top PROCIO_TOP of n by rate (write: which == 1), most first. */
static void top_insert(const struct procio_proc **top, int *ntop, const struct procio_proc *e, bool write)
{
	double r = write ? e->w_Bps : e->r_Bps;
	int i = *ntop < PROCIO_TOP ? (*ntop)++ : PROCIO_TOP;

	while (i > 0 && (write ? top[i - 1]->w_Bps : top[i - 1]->r_Bps) < r) {
		if (i < PROCIO_TOP)
			top[i] = top[i - 1];
		i--;
	}
	if (i < PROCIO_TOP)
		top[i] = e;
}

static void fill_rows(struct procio *p, const struct procio_proc *v, size_t n,
		      const struct procio_proc *const *top, int ntop, pid_t root, struct procio_row *rows)
{
	for (int i = 0; i < ntop; i++) {
		struct procio_row *r = &rows[i];
		struct procio_proc fresh = *top[i];
		memset(r, 0, sizeof(*r));
		r->pid = top[i]->pid;
		r->read_Bps = top[i]->r_Bps;
		r->write_Bps = top[i]->w_Bps;
		/* comm and parent now: an exec or a reparenting since it was
		 * first seen changed them */
		if (read_stat(p->root, r->pid, r->comm, sizeof(r->comm), &fresh))
			snprintf(r->comm, sizeof(r->comm), "(gone)");
		r->in_bench = in_tree(v, n, &fresh, root);
		for (int k = 0; k < p->npause; k++)
			if (p->pause[k].pid == r->pid) {
				r->pauses = p->pause[k].pauses;
				r->paused_ms = p->pause[k].paused_ms;
			}
	}
}

static void scan_cpu(struct procio *p, struct procio_view *out)
{
	char path[300], buf[4096];
	uint64_t total, iow, steal;
	unsigned run = 0, blk = 0;
	bool have_procs;

	snprintf(path, sizeof(path), "%s/stat", p->root);
	if (fdio_read_small(path, buf, sizeof(buf)) <= 0 ||
	    procio_parse_stat(buf, &total, &iow, &steal, &run, &blk, &have_procs)) {
		p->have_cpu = false;
		return;
	}
	out->have_procs = have_procs;
	out->procs_running = run;
	out->procs_blocked = blk;
	if (p->have_cpu && total > p->cpu_total && iow >= p->cpu_iowait && steal >= p->cpu_steal) {
		double d = (double)(total - p->cpu_total);
		out->have_cpu = true;
		out->iowait_pct = 100.0 * (double)(iow - p->cpu_iowait) / d;
		out->steal_pct = 100.0 * (double)(steal - p->cpu_steal) / d;
	}
	p->have_cpu = true;
	p->cpu_total = total;
	p->cpu_iowait = iow;
	p->cpu_steal = steal;
}

/* Memory, PSI and every used disk and partition over the scan's interval
 * (the sample's own selection is the user's -p; the panel has its own key). */
static void scan_snapshot(struct procio *p, const struct snapshot *snap, struct procio_view *out)
{
	static const struct derive_opts all = { .all_partitions = true };
	struct sample *s;

	if (!snap)
		return;
	if (snap->have & SNAP_HAVE_MEMINFO) {
		out->have_mem = true;
		out->mem_total_kb = snap->mem_total_kb;
		out->mem_free_kb = snap->mem_free_kb;
		out->mem_available_kb = snap->mem_available_kb;
		out->cached_kb = snap->cached_kb;
	}
	if (snap->have & SNAP_HAVE_PSI_IO) {
		out->have_psi = true;
		out->psi_some_avg10 = snap->psi_io_some_avg10;
		out->psi_full_avg10 = snap->psi_io_full_avg10;
	}
	if ((snap->have & SNAP_HAVE_DISKS) && (s = calloc(1, sizeof(*s)))) {
		derive_sample(p->have_snap ? &p->snap : NULL, snap, snap->mono_ns, 0, &all, s);
		for (int i = 0; i < s->ndisks && out->ndevs < PROCIO_DEVS; i++) {
			const struct disk_rate *d = &s->disks[i];
			struct procio_dev *o = &out->devs[out->ndevs++];
			memcpy(o->name, d->name, sizeof(o->name));
			o->is_partition = d->is_partition;
			o->have_rate = d->have_rate;
			o->r_s = d->r_s;
			o->w_s = d->w_s;
			o->rareq_sz = d->rareq_sz;
			o->wareq_sz = d->wareq_sz;
		}
		sample_free(s);
		free(s);
	}
	p->have_snap = snapshot_copy(&p->snap, snap) == 0;
}

int procio_scan(struct procio *p, double now_s, pid_t bench_root, const struct snapshot *snap,
		struct procio_view *out, char *err, size_t errlen)
{
	struct procio_proc *v = NULL;
	size_t nv = 0, cap = 0;
	double dt = p->prev_t >= 0 ? now_s - p->prev_t : 0;
	long hz = sysconf(_SC_CLK_TCK);
	char path[300], buf[512];
	struct dirent *de;
	DIR *d;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->all_procs = geteuid() == 0;
	scan_cpu(p, out);
	scan_snapshot(p, snap, out);
	d = opendir(p->root);
	if (!d) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", p->root, strerror(errno));
		return rc;
	}
	while ((de = readdir(d))) {
		struct procio_proc e = { 0 };
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		e.pid = (pid_t)pid;
		snprintf(path, sizeof(path), "%s/%ld/io", p->root, pid);
		ssize_t got = fdio_read_small(path, buf, sizeof(buf));
		if (got == -EACCES || got == -EPERM) {
			out->nunreadable++;
			continue;
		}
		if (got <= 0 || procio_parse_io(buf, &e.rb, &e.wb))
			continue;   /* gone since readdir */
		const struct procio_proc *o = find_proc(p->prev, p->nprev, e.pid);
		if (o && e.rb >= o->rb && e.wb >= o->wb) {
			e.ppid = o->ppid;
			e.sid = o->sid;
			e.start = o->start;
			if (dt > 0) {
				e.have_rate = true;
				e.r_Bps = (double)(e.rb - o->rb) / dt;
				e.w_Bps = (double)(e.wb - o->wb) / dt;
			}
		} else {
			if (read_stat(p->root, e.pid, NULL, 0, &e))
				continue;
			/* born since the last scan: all it did, over its life */
			double born = hz > 0 ? (double)e.start / (double)hz : -1;
			if (p->prev_t >= 0 && born >= p->prev_t - 0.01 && now_s > born) {
				double life = now_s - born < 0.01 ? 0.01 : now_s - born;
				e.have_rate = true;
				e.r_Bps = (double)e.rb / life;
				e.w_Bps = (double)e.wb / life;
			}
		}
		if (nv == cap) {
			size_t nc = cap ? cap * 2 : 256;
			struct procio_proc *nvp = realloc(v, nc * sizeof(*v));
			if (!nvp) {
				rc = -ENOMEM;
				snprintf(err, errlen, "out of memory scanning %s", p->root);
				break;
			}
			v = nvp;
			cap = nc;
		}
		v[nv++] = e;
	}
	closedir(d);
	if (rc) {
		free(v);
		return rc;
	}
	qsort(v, nv, sizeof(*v), by_pid);
	out->nprocs = (int)nv + out->nunreadable;

	const struct procio_proc *tw[PROCIO_TOP + 1], *tr[PROCIO_TOP + 1];
	int nw = 0, nr = 0;
	for (size_t i = 0; i < nv; i++) {
		if (!v[i].have_rate)
			continue;
		if (v[i].w_Bps > 0)
			top_insert(tw, &nw, &v[i], true);
		if (v[i].r_Bps > 0)
			top_insert(tr, &nr, &v[i], false);
	}
	out->valid = true;
	out->have_rates = dt > 0;
	out->dt = dt;
	out->have_pauses = p->pauses_seen;
	out->nwriters = nw;
	out->nreaders = nr;
	fill_rows(p, v, nv, tw, nw, bench_root, out->writers);
	fill_rows(p, v, nv, tr, nr, bench_root, out->readers);
	p->npause = 0;
	free(p->prev);
	p->prev = v;
	p->nprev = nv;
	p->prev_t = now_s;
	return 0;
}

void procio_note_pauses(struct procio *p, const struct sample *s)
{
	if (s->thr_src != THR_SRC_KERNEL)
		return;
	p->pauses_seen = true;
	for (int i = 0; i < s->nwriters && i < 4; i++) {
		const struct sample_writer *w = &s->writers[i];
		int k = 0;
		while (k < p->npause && p->pause[k].pid != w->pid)
			k++;
		if (k == p->npause) {
			if (p->npause == (int)(sizeof(p->pause) / sizeof(p->pause[0])))
				continue;   /* 32 writers paused in one second: the top ones are in */
			p->npause++;
			p->pause[k].pid = w->pid;
			p->pause[k].pauses = 0;
			p->pause[k].paused_ms = 0;
		}
		p->pause[k].pauses += w->pauses;
		p->pause[k].paused_ms += w->paused_ms;
	}
}
