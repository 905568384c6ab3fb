/* publish: see publish.h.  One MMV file per session, named "iodash.PID",
 * so the mmv agent names its metrics mmv.iodash.PID.*: two sessions on a
 * machine publish side by side, and mmv.iodash (pmlogger's `log ...
 * { mmv.iodash }`, a pmseries glob mmv.iodash.*.bench.state) is all of
 * them.  MMV_FLAG_PROCESS ties the file to this process, and iodash
 * removes it when it ends.  The file is held with flock(2) for the whole
 * session: one that nobody holds is a stale one (its iodash was killed,
 * even by SIGKILL, which releases the lock; a pid that came back as
 * another process, or another PID namespace, changes nothing), and a
 * later session removes it, and the "iodash" of iodash before 0.2, at
 * its start.
 *
 * The file is written here, in PCP's version-1 layout (the structs of
 * <pcp/mmv_dev.h>), not through libpcp-mmv: that library needs libpcp,
 * which maps TLS, SASL and systemd libraries whose relocated pages are
 * ~0.5 MB of private memory for the whole session, to write a file of a
 * few KiB once.  The layout, as libpcp-mmv writes it and the mmv agent
 * reads it: header, table of contents (metrics, values, strings), the
 * metrics, one value each, then the strings (string values and help
 * texts, MMV_STRINGMAX each).  The header's second generation number is
 * set last: until it equals the first, the agent does not read the file. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <pcp/pmapi.h>
#include <pcp/mmv_stats.h>
#include <pcp/mmv_dev.h>

#include "iodash/session/publish.h"

/* The cluster of this file within the mmv agent, part of every metric's
 * PMID: each session's file needs its own, or two sessions' metrics share
 * PMIDs and read the same values.  12 bits in a PMID; picked from the pid,
 * past those of the other iodash files there. */
#define PUBLISH_CLUSTER_MIN 64
#define PUBLISH_CLUSTER_MAX 4095

enum pub_metric {
	PUB_ZONE, PUB_DIRTY, PUB_WRITEBACK, PUB_BG_THRESH, PUB_FREERUN, PUB_THRESH,
	PUB_EPISODES, PUB_THROTTLED_MS, PUB_BENCH_STATE, PUB_BENCH_LABEL,
	PUB_BENCH_RUN, PUB_BENCH_RUNS, PUB_BENCH_FAILED, PUB_BENCH_ETA, PUB_BENCH_RESULT, PUB_N
};

struct pub_def {
	const char *name;
	mmv_metric_type_t type;
	mmv_metric_sem_t sem;
	enum { U_NONE, U_KB, U_MS, U_COUNT, U_SEC } units;
	const char *help;
};

static const struct pub_def pub_defs[PUB_N] = {
	[PUB_ZONE] = { "zone", MMV_TYPE_STRING, MMV_SEM_INSTANT, U_NONE,
		       "dirty-limit zone: below_bg, background, freerun, throttle or hard_limit" },
	[PUB_DIRTY] = { "dirty", MMV_TYPE_U64, MMV_SEM_INSTANT, U_KB, "dirty page cache (vmstat nr_dirty)" },
	[PUB_WRITEBACK] = { "writeback", MMV_TYPE_U64, MMV_SEM_INSTANT, U_KB, "under writeback (nr_writeback)" },
	[PUB_BG_THRESH] = { "thresholds.background", MMV_TYPE_U64, MMV_SEM_INSTANT, U_KB,
			    "background writeback threshold (nr_dirty_background_threshold)" },
	[PUB_FREERUN] = { "thresholds.freerun", MMV_TYPE_U64, MMV_SEM_INSTANT, U_KB,
			  "freerun ceiling: (thresh + background) / 2" },
	[PUB_THRESH] = { "thresholds.dirty", MMV_TYPE_U64, MMV_SEM_INSTANT, U_KB,
			 "dirty threshold (nr_dirty_threshold)" },
	[PUB_EPISODES] = { "throttle.episodes", MMV_TYPE_U64, MMV_SEM_COUNTER, U_COUNT,
			   "dirty-limit hits (throttle episodes) since iodash started" },
	[PUB_THROTTLED_MS] = { "throttle.time", MMV_TYPE_U64, MMV_SEM_COUNTER, U_MS,
			       "time spent in dirty-limit hits since iodash started" },
	[PUB_BENCH_STATE] = { "bench.state", MMV_TYPE_STRING, MMV_SEM_INSTANT, U_NONE,
			      "benchmark: none, starting, running, between or done" },
	[PUB_BENCH_LABEL] = { "bench.label", MMV_TYPE_STRING, MMV_SEM_INSTANT, U_NONE,
			      "label of the runs (-l)" },
	[PUB_BENCH_RUN] = { "bench.run", MMV_TYPE_U32, MMV_SEM_INSTANT, U_NONE,
			    "1-based run of a sweep (0 when not a sweep)" },
	[PUB_BENCH_RUNS] = { "bench.runs", MMV_TYPE_U32, MMV_SEM_INSTANT, U_NONE,
			     "runs of the sweep (0 when not a sweep)" },
	[PUB_BENCH_FAILED] = { "bench.failed", MMV_TYPE_U32, MMV_SEM_INSTANT, U_NONE,
			       "runs that failed so far" },
	[PUB_BENCH_ETA] = { "bench.eta", MMV_TYPE_U32, MMV_SEM_INSTANT, U_SEC,
			    "seconds until the sweep ends, as iodash estimates it (0: unknown)" },
	[PUB_BENCH_RESULT] = { "bench.result", MMV_TYPE_STRING, MMV_SEM_INSTANT, U_NONE,
			       "the last result a run reported: LABEL METRIC=VALUE UNIT at X_NAME=X, run N" },
};

static const char *pub_state_name(enum bench_state s)
{
	switch (s) {
	case BENCH_NONE: return "none";
	case BENCH_STARTING: return "starting";
	case BENCH_RUNNING: return "running";
	case BENCH_BETWEEN: return "between";
	case BENCH_DONE: return "done";
	}
	return "?";
}

static pmUnits pub_units(int u)
{
	pmUnits kb = MMV_UNITS(1, 0, 0, PM_SPACE_KBYTE, 0, 0);
	pmUnits ms = MMV_UNITS(0, 1, 0, 0, PM_TIME_MSEC, 0);
	pmUnits count = MMV_UNITS(0, 0, 1, 0, 0, PM_COUNT_ONE);
	pmUnits sec = MMV_UNITS(0, 1, 0, 0, PM_TIME_SEC, 0);
	pmUnits none = MMV_UNITS(0, 0, 0, 0, 0, 0);

	return u == U_KB ? kb : u == U_MS ? ms : u == U_COUNT ? count : u == U_SEC ? sec : none;
}

struct publisher {
	char path[PATH_MAX];         /* $PCP_TMP_DIR/mmv/iodash.PID */
	int fd;                      /* held, with its flock, for the session */
	uint32_t cluster;
	void *map;
	size_t size;
	dev_t dev;                   /* the file made, to not remove a later one's */
	ino_t ino;
	mmv_disk_value_t *v;         /* PUB_N values, in pub_defs' order */
};

/* PCP_TMP_DIR as libpcp's pmGetConfig finds it: the environment, else the
 * line PCP_TMP_DIR= of $PCP_CONF, $PCP_DIR/etc/pcp.conf or /etc/pcp.conf.
 * 0, or -1 when neither says (PCP is not set up here). */
static int pcp_tmp_dir(char *out, size_t outlen)
{
	const char *env = getenv("PCP_TMP_DIR"), *conf = getenv("PCP_CONF"), *pcpdir = getenv("PCP_DIR");
	char path[PATH_MAX], line[PATH_MAX + 32];
	int found = -1;
	FILE *f;

	if (env && *env) {
		snprintf(out, outlen, "%s", env);
		return 0;
	}
	if (conf && *conf)
		snprintf(path, sizeof(path), "%s", conf);
	else
		snprintf(path, sizeof(path), "%s/etc/pcp.conf", pcpdir && *pcpdir ? pcpdir : "");
	if (!(f = fopen(path, "re")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *v;
		size_t n;

		if (strncmp(line, "PCP_TMP_DIR=", 12))
			continue;
		v = line + 12;
		n = strcspn(v, "\r\n");
		if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
			v++;
			n -= 2;
		}
		if (n > 0 && n < outlen) {
			memcpy(out, v, n);
			out[n] = '\0';
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/* The file, mapped, made afresh (a new inode makes the agent reload it)
 * and locked.  NULL with errno (EBUSY: another session holds the name). */
static void *pub_map_file(struct publisher *p)
{
	struct stat st;
	mode_t um;
	void *map;
	int fd, e;

	/* a file of our name that nobody holds is a stale one (its pid came
	 * back); one that is held is another PID namespace's session */
	fd = open(p->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd >= 0) {
		e = flock(fd, LOCK_EX | LOCK_NB) < 0 ? EBUSY : 0;
		if (!e)
			unlink(p->path);
		close(fd);
		if (e) {
			errno = e;
			return NULL;
		}
	}
	um = umask(S_IWGRP | S_IWOTH);
	fd = open(p->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	umask(um);
	if (fd < 0)
		return NULL;
	/* held until the end: what tells a live session's file from a stale one */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		e = errno;
		close(fd);
		unlink(p->path);
		errno = e;
		return NULL;
	}
	/* the blocks reserved now: a page of a shared mapping that the file
	 * system cannot give at the first store is SIGBUS (a full disk) */
	e = posix_fallocate(fd, 0, (off_t)p->size);
	if (e == EOPNOTSUPP || e == EINVAL)
		e = ftruncate(fd, (off_t)p->size) < 0 ? errno : 0;
	if (!e && fstat(fd, &st) < 0)
		e = errno;
	if (e) {
		close(fd);
		unlink(p->path);
		errno = e;
		return NULL;
	}
	map = mmap(NULL, p->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e = errno;
	if (map == MAP_FAILED) {
		close(fd);
		unlink(p->path);
		errno = e;
		return NULL;
	}
	p->fd = fd;
	p->dev = st.st_dev;
	p->ino = st.st_ino;
	return map;
}

/* Lay out header, contents, metrics, values and strings in p->map. */
static void pub_lay_out(struct publisher *p, uint64_t metrics_off, uint64_t values_off,
			uint64_t strings_off, int nstrings)
{
	char *base = p->map;
	mmv_disk_header_t *hdr = p->map;
	mmv_disk_toc_t *toc = (mmv_disk_toc_t *)(base + sizeof(*hdr));
	mmv_disk_metric_t *m = (mmv_disk_metric_t *)(base + metrics_off);
	struct timeval now;
	int si = 0;

	gettimeofday(&now, NULL);
	memcpy(hdr->magic, "MMV", 4);
	hdr->version = MMV_VERSION1;
	hdr->g1 = ((uint64_t)(uint32_t)now.tv_sec << 32) | (uint32_t)now.tv_usec;
	hdr->g2 = 0;
	hdr->tocs = 3;
	hdr->flags = MMV_FLAG_PROCESS;
	hdr->process = (int32_t)getpid();
	hdr->cluster = p->cluster;
	toc[0] = (mmv_disk_toc_t){ .type = MMV_TOC_METRICS, .count = PUB_N, .offset = metrics_off };
	toc[1] = (mmv_disk_toc_t){ .type = MMV_TOC_VALUES, .count = PUB_N, .offset = values_off };
	toc[2] = (mmv_disk_toc_t){ .type = MMV_TOC_STRINGS, .count = nstrings, .offset = strings_off };

	p->v = (mmv_disk_value_t *)(base + values_off);
	/* the strings section: each string value's, then each metric's help */
	for (int i = 0; i < PUB_N; i++) {
		const struct pub_def *d = &pub_defs[i];

		snprintf(m[i].name, sizeof(m[i].name), "%s", d->name);
		m[i].item = (uint32_t)i + 1;
		m[i].type = d->type;
		m[i].semantics = d->sem;
		m[i].dimension = pub_units(d->units);
		m[i].indom = PM_INDOM_NULL;
		p->v[i].metric = metrics_off + (uint64_t)i * sizeof(*m);
		if (d->type == MMV_TYPE_STRING)
			p->v[i].extra = (int64_t)(strings_off + (uint64_t)si++ * MMV_STRINGMAX);
	}
	for (int i = 0; i < PUB_N; i++) {
		/* the help text is both the short and the long one */
		uint64_t off = strings_off + (uint64_t)si * MMV_STRINGMAX;

		snprintf(base + off, MMV_STRINGMAX, "%s", pub_defs[i].help);
		m[i].shorttext = m[i].helptext = off;
		si++;
	}
	__atomic_store_n(&hdr->g2, hdr->g1, __ATOMIC_RELEASE);   /* the agent may read it now */
}

/* Is name one of iodash's MMV files: "iodash" (before 0.2) or "iodash.PID"? */
static bool pub_is_ours(const char *name)
{
	if (strncmp(name, "iodash", 6))
		return false;
	if (!name[6])
		return true;
	if (name[6] != '.' || !name[7])
		return false;
	for (const char *c = name + 7; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	return true;
}

/* Remove the iodash MMV files in dir that no session holds: the lock of
 * a session ends with its process, however it ended.  A file of a few
 * seconds is left alone: its session may be between creating and
 * locking it.  Bit c of used[] is set for the cluster c of each file
 * left.  The number removed. */
static int pub_remove_stale(const char *dir, uint64_t used[64])
{
	DIR *d = opendir(dir);
	struct dirent *de;
	time_t now = time(NULL);
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		mmv_disk_header_t hdr;
		struct stat st;
		int fd;

		if (!pub_is_ours(de->d_name))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && now - st.st_mtime >= 5 &&
		    flock(fd, LOCK_EX | LOCK_NB) == 0 && unlinkat(dirfd(d), de->d_name, 0) == 0)
			n++;
		else if (pread(fd, &hdr, sizeof(hdr), 0) == (ssize_t)sizeof(hdr) && hdr.cluster <= PUBLISH_CLUSTER_MAX)
			used[hdr.cluster / 64] |= UINT64_C(1) << (hdr.cluster % 64);
		close(fd);   /* releases the lock taken to remove it */
	}
	closedir(d);
	return n;
}

int publish_open(struct publisher **out, char *err, size_t errlen)
{
	struct publisher *p;
	struct stat st;
	char dir[PATH_MAX - 8];
	uint64_t metrics_off, values_off, strings_off;
	int nstrings = PUB_N;

	*out = NULL;
	/* no PCP configuration, or no mmv directory: PCP is not set up here,
	 * nobody would read what iodash publishes */
	if (pcp_tmp_dir(dir, sizeof(dir) - 4) < 0)
		return 0;
	strcat(dir, "/mmv");
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	if (!(p = calloc(1, sizeof(*p)))) {
		snprintf(err, errlen, "not publishing mmv.iodash.%d: out of memory", (int)getpid());
		return -ENOMEM;
	}
	for (int i = 0; i < PUB_N; i++)
		nstrings += pub_defs[i].type == MMV_TYPE_STRING;
	metrics_off = sizeof(mmv_disk_header_t) + 3 * sizeof(mmv_disk_toc_t);
	values_off = metrics_off + PUB_N * sizeof(mmv_disk_metric_t);
	strings_off = values_off + PUB_N * sizeof(mmv_disk_value_t);
	p->size = strings_off + (size_t)nstrings * MMV_STRINGMAX;
	p->fd = -1;
	uint64_t used[64] = { 0 };
	pub_remove_stale(dir, used);
	p->cluster = PUBLISH_CLUSTER_MIN + (uint32_t)getpid() % (PUBLISH_CLUSTER_MAX + 1 - PUBLISH_CLUSTER_MIN);
	for (int i = 0; i < PUBLISH_CLUSTER_MAX && (used[p->cluster / 64] >> (p->cluster % 64) & 1); i++)
		p->cluster = p->cluster == PUBLISH_CLUSTER_MAX ? PUBLISH_CLUSTER_MIN : p->cluster + 1;
	snprintf(p->path, sizeof(p->path), "%s/iodash.%d", dir, (int)getpid());
	if (!(p->map = pub_map_file(p))) {
		int e = errno ? errno : EIO;
		snprintf(err, errlen, "not publishing mmv.iodash.%d: cannot create %s: %s "
			 "(--no-publish to not try)", (int)getpid(), p->path, strerror(e));
		free(p);
		return -e;
	}
	pub_lay_out(p, metrics_off, values_off, strings_off, nstrings);
	*out = p;
	return 0;
}

static void pub_u64(struct publisher *p, enum pub_metric i, uint64_t v)
{
	p->v[i].value.ull = v;
}

static void pub_u32(struct publisher *p, enum pub_metric i, uint32_t v)
{
	p->v[i].value.ul = v;
}

/* A string value, rewritten only when it changed (most samples it has not). */
static void pub_str(struct publisher *p, enum pub_metric i, const char *s)
{
	char *dst = (char *)p->map + p->v[i].extra;
	size_t n = strnlen(s, MMV_STRINGMAX - 1);

	if ((size_t)p->v[i].value.l == n && !memcmp(dst, s, n))
		return;
	memset(dst, 0, MMV_STRINGMAX);
	memcpy(dst, s, n);
	p->v[i].value.l = (int32_t)n;
}

void publish_sample(struct publisher *p, const struct sample *s, const struct bench_status *b,
		    const struct result_point *last)
{
	if (!p)
		return;
	if (s->have_dirty) {
		pub_str(p, PUB_ZONE, dirty_zone_name(s->zone));
		pub_u64(p, PUB_DIRTY, s->dirty_kb);
		pub_u64(p, PUB_WRITEBACK, s->writeback_kb);
		pub_u64(p, PUB_BG_THRESH, s->bg_thresh_kb);
		pub_u64(p, PUB_FREERUN, s->freerun_kb);
		pub_u64(p, PUB_THRESH, s->thresh_kb);
	}
	pub_u64(p, PUB_EPISODES, s->hits);
	pub_u64(p, PUB_THROTTLED_MS, (uint64_t)(s->hit_seconds * 1000.0 + 0.5));
	if (b) {
		pub_str(p, PUB_BENCH_STATE, pub_state_name(b->state));
		pub_str(p, PUB_BENCH_LABEL, b->label);
		pub_u32(p, PUB_BENCH_RUN, (uint32_t)(b->run_index > 0 ? b->run_index : 0));
		pub_u32(p, PUB_BENCH_RUNS, (uint32_t)(b->run_total > 0 ? b->run_total : 0));
		pub_u32(p, PUB_BENCH_FAILED, (uint32_t)(b->runs_failed > 0 ? b->runs_failed : 0));
		pub_u32(p, PUB_BENCH_ETA, (uint32_t)(b->eta_s > 0 ? b->eta_s + 0.5 : 0));
	}
	if (last) {
		char text[256];
		snprintf(text, sizeof(text), "%s %s=%.6g %s at %s=%g, run %d", last->label, last->metric,
			 last->value, last->unit, last->x_name[0] ? last->x_name : "x", last->x, last->run + 1);
		pub_str(p, PUB_BENCH_RESULT, text);
	}
}

void publish_close(struct publisher *p)
{
	struct stat st;

	if (!p)
		return;
	munmap(p->map, p->size);
	/* still the file this iodash made (not one a later iodash made) */
	if (stat(p->path, &st) == 0 && st.st_dev == p->dev && st.st_ino == p->ino)
		unlink(p->path);
	close(p->fd);
	free(p);
}
