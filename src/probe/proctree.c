/* Following the benchmark's processes through /proc.  A scan reads every
 * /proc/PID/stat once (a few hundred small files), decides membership by
 * parent links, session and what was a member before (so a child that is
 * reparented to init when its parent exits stays followed), and then reads
 * io, and state and wchan of each thread, for the members only. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iodash/base/fdio.h"
#include "iodash/probe/proctree.h"

struct scan_proc {
	pid_t pid, ppid, sid;
	unsigned long long start;
	bool member;
};

int proctree_parse_stat(const char *buf, char *state, pid_t *ppid, pid_t *pgrp,
			pid_t *session, unsigned long long *start)
{
	const char *p = strrchr(buf, ')');
	long pp, pg, sid;
	unsigned long long st;
	char s;
	int consumed = 0;

	if (!p)
		return -EINVAL;
	/* ") S ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
	 *  utime stime cutime cstime priority nice nthreads itrealvalue start" */
	if (sscanf(p + 1, " %c %ld %ld %ld %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu%n",
		   &s, &pp, &pg, &sid, &st, &consumed) != 5 || !consumed)
		return -EINVAL;
	if (state) *state = s;
	if (ppid) *ppid = (pid_t)pp;
	if (pgrp) *pgrp = (pid_t)pg;
	if (session) *session = (pid_t)sid;
	if (start) *start = st;
	return 0;
}

int proctree_init(struct proctree *t, const char *proc_root, pid_t root, bool same_session)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->root_dir, sizeof(t->root_dir), "%s", proc_root ? proc_root : "/proc");
	t->root = root;
	t->session = same_session ? root : 0;
	return root > 0 ? 0 : -EINVAL;
}

void proctree_free(struct proctree *t)
{
	free(t->e);
	t->e = NULL;
	t->n = t->cap = 0;
}

static struct proctree_entry *tree_find(struct proctree *t, pid_t pid, unsigned long long start)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->e[i].pid == pid && t->e[i].start == start)
			return &t->e[i];
	return NULL;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = ((const struct scan_proc *)a)->pid, y = ((const struct scan_proc *)b)->pid;
	return (x > y) - (x < y);
}

static struct scan_proc *find_proc(struct scan_proc *v, size_t n, pid_t pid)
{
	struct scan_proc key = { .pid = pid };
	return bsearch(&key, v, n, sizeof(*v), cmp_pid);
}

void proctree_parse_io(const char *buf, struct proctree_entry *e)
{
	const char *p;
	unsigned long long v;

	e->have_io = false;
	if (!(p = strstr(buf, "rchar:")) || sscanf(p + 6, "%llu", &v) != 1) return;
	e->rchar = v;
	if (!(p = strstr(buf, "wchar:")) || sscanf(p + 6, "%llu", &v) != 1) return;
	e->wchar = v;
	if (!(p = strstr(buf, "\nread_bytes:")) || sscanf(p + 12, "%llu", &v) != 1) return;
	e->read_bytes = v;
	if (!(p = strstr(buf, "\nwrite_bytes:")) || sscanf(p + 13, "%llu", &v) != 1) return;
	e->write_bytes = v;
	e->have_io = true;
}

/* Threads of one member: count them, the ones waiting in state D and the
 * throttled ones. */
static void scan_tasks(const struct proctree *t, pid_t pid, int *ntasks, int *blocked, int *throttled)
{
	char path[512], buf[1024];
	DIR *d;
	struct dirent *de;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%d/task", t->root_dir, (int)pid);
	d = opendir(path);
	if (!d) {
		(*ntasks)++;
		return;
	}
	while ((de = readdir(d)) && n < 100000) {
		char st;
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		n++;
		if (t->on_task)
			t->on_task(t->on_task_ctx, (pid_t)atoi(de->d_name));
		snprintf(path, sizeof(path), "%s/%d/task/%.32s/stat", t->root_dir, (int)pid, de->d_name);
		if (fdio_read_small(path, buf, sizeof(buf)) <= 0 ||
		    proctree_parse_stat(buf, &st, NULL, NULL, NULL, NULL) || st != 'D')
			continue;
		(*blocked)++;
		snprintf(path, sizeof(path), "%s/%d/task/%.32s/wchan", t->root_dir, (int)pid, de->d_name);
		/* balance_dirty_pages may be inlined into
		 * balance_dirty_pages_ratelimited_flags: match the prefix */
		if (fdio_read_small(path, buf, sizeof(buf)) > 0 &&
		    !strncmp(buf, "balance_dirty_pages", 19))
			(*throttled)++;
	}
	closedir(d);
	*ntasks += n ? n : 1;
}

/* What the members' io counters moved since the last scan. */
struct io_delta {
	uint64_t rchar, wchar, read_bytes, write_bytes;
	bool any_io, io_missing;
};

/* Every process under the proc root, sorted by pid for find_proc. */
static int proctree_list(const struct proctree *t, struct scan_proc **outv, size_t *outn)
{
	struct scan_proc *v = NULL;
	size_t nv = 0, capv = 0;
	struct dirent *de;
	char path[512], buf[1024];
	DIR *d = opendir(t->root_dir);

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct scan_proc sp = { 0 };
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "%s/%ld/stat", t->root_dir, pid);
		if (fdio_read_small(path, buf, sizeof(buf)) <= 0 ||
		    proctree_parse_stat(buf, NULL, &sp.ppid, NULL, &sp.sid, &sp.start))
			continue;         /* gone meanwhile, or not a process */
		sp.pid = (pid_t)pid;
		if (nv == capv) {
			size_t nc = capv ? capv * 2 : 512;
			struct scan_proc *nvp;
			if (nc > 4u * 1024 * 1024) /* pid_max is at most 4M */
				break;
			nvp = realloc(v, nc * sizeof(*v));
			if (!nvp) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nvp;
			capv = nc;
		}
		v[nv++] = sp;
	}
	closedir(d);
	qsort(v, nv, sizeof(*v), cmp_pid);
	*outv = v;
	*outn = nv;
	return 0;
}

/* Members: the root, its session when asked, what was a member before,
 * and children of members. */
static void proctree_mark_members(struct proctree *t, struct scan_proc *v, size_t nv,
				  struct proctree_sample *out)
{
	for (size_t i = 0; i < nv; i++) {
		v[i].member = v[i].pid == t->root ||
			      (t->session > 0 && v[i].sid == t->session) ||
			      tree_find(t, v[i].pid, v[i].start) != NULL;
		if (v[i].pid == t->root)
			out->root_alive = true;
	}
	/* Children of members, to a fixed point (pids wrap, so order does
	 * not tell parents from children); bounded by the tree depth. */
	for (int pass = 0; pass < 4096; pass++) {
		bool changed = false;
		for (size_t i = 0; i < nv; i++) {
			struct scan_proc *pp;
			if (v[i].member)
				continue;
			pp = find_proc(v, nv, v[i].ppid);
			if (pp && pp->member) {
				v[i].member = true;
				changed = true;
			}
		}
		if (!changed)
			break;
	}
}

/* A member's io against what it had at the last scan. */
static void proctree_add_io(struct proctree *t, const struct proctree_entry *cur, struct io_delta *dl)
{
	const struct proctree_entry *old;

	if (!cur->have_io) {
		dl->io_missing = true;
		return;
	}
	dl->any_io = true;
	old = tree_find(t, cur->pid, cur->start);
	/* New since the last scan: it started after it, so all of
	 * its counters are this period's.  Counters never go
	 * backwards; guard anyway against a torn read. */
	struct proctree_entry base = { 0 };
	if (old && old->have_io)
		base = *old;
	if (t->scanned) {
		dl->rchar += cur->rchar >= base.rchar ? cur->rchar - base.rchar : 0;
		dl->wchar += cur->wchar >= base.wchar ? cur->wchar - base.wchar : 0;
		dl->read_bytes += cur->read_bytes >= base.read_bytes ? cur->read_bytes - base.read_bytes : 0;
		dl->write_bytes += cur->write_bytes >= base.write_bytes ? cur->write_bytes - base.write_bytes : 0;
	}
}

/* The members' tasks and io into out and the new entries (*nep, *nnp). */
static int proctree_read_members(struct proctree *t, const struct scan_proc *v, size_t nv,
				 struct proctree_sample *out, struct proctree_entry **nep, size_t *nnp,
				 struct io_delta *dl)
{
	struct proctree_entry *ne = NULL;
	size_t nn = 0;
	char path[512], buf[1024];

	for (size_t i = 0; i < nv && nn < PROCTREE_MAX; i++) {
		struct proctree_entry cur = { .pid = v[i].pid, .start = v[i].start, .member = true };
		if (!v[i].member)
			continue;
		if (!ne && !(ne = calloc(PROCTREE_MAX < nv ? PROCTREE_MAX : nv, sizeof(*ne))))
			return -ENOMEM;
		out->nprocs++;
		if (t->on_task)
			t->on_task(t->on_task_ctx, v[i].pid);
		scan_tasks(t, v[i].pid, &out->ntasks, &out->blocked, &out->throttled);
		snprintf(path, sizeof(path), "%s/%d/io", t->root_dir, (int)v[i].pid);
		if (fdio_read_small(path, buf, sizeof(buf)) > 0)
			proctree_parse_io(buf, &cur);
		proctree_add_io(t, &cur, dl);
		ne[nn++] = cur;
	}
	*nep = ne;
	*nnp = nn;
	return 0;
}

int proctree_scan(struct proctree *t, double now_s, struct proctree_sample *out)
{
	struct scan_proc *v = NULL;
	size_t nv = 0, nn = 0;
	struct io_delta dl = { 0 };
	struct proctree_entry *ne = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = proctree_list(t, &v, &nv)))
		return rc;
	proctree_mark_members(t, v, nv, out);
	rc = proctree_read_members(t, v, nv, out, &ne, &nn, &dl);
	free(v);
	if (rc)
		return rc;
	out->have_io = dl.any_io && !dl.io_missing;
	if (dl.any_io && t->scanned && now_s > t->last_t) {
		double dt = now_s - t->last_t;
		out->have_rates = true;
		/* Whole bytes per second: finer is noise (the screens show
		 * kB/s), and a recording stores it in a few digits. */
		out->rchar_Bps = round(dl.rchar / dt);
		out->wchar_Bps = round(dl.wchar / dt);
		out->read_Bps = round(dl.read_bytes / dt);
		out->write_Bps = round(dl.write_bytes / dt);
	}
	free(t->e);
	t->e = ne;
	t->n = t->cap = nn;
	t->last_t = now_s;
	t->scanned = true;
	return 0;
}

bool proctree_pid_alive(pid_t pid)
{
	char path[64], buf[512];
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno != ENOENT && errno != ESRCH;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (r <= 0)
		return false;
	buf[r] = '\0';
	const char *rp = strrchr(buf, ')');
	return !rp || (rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X');
}
