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
 * set last: until it equals the first, the agent does not read the file.
 *
 * The disks: every device of the sample (any number) is an instance of
 * one instance domain, and mmv.iodash.PID.disk.* (read and write kB/s,
 * r/s, w/s, r_await, w_await, aqu-sz, %util) have a value per instance.
 * An instance keeps its number for the session (by name).  The file's
 * size follows the list, so when the list changes the file is made again
 * under a hidden name and renamed over the old one (a new inode and
 * generation: the agent reloads it); a sample whose list has not changed
 * stores its values in place, one pass over its devices. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
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
#include "iodash/base/namemap.h"
#include "iodash/sample/sample_schema.h"

/* The cluster of this file within the mmv agent, part of every metric's
 * PMID: each session's file needs its own, or two sessions' metrics share
 * PMIDs and read the same values.  12 bits in a PMID; picked from the pid,
 * past those of the other iodash files there. */
#define PUBLISH_CLUSTER_MIN 64
#define PUBLISH_CLUSTER_MAX 4095

/* The metrics: the sample schema's rows with an mmv name (their items,
 * names, semantics and help are the row's SCP), then publish's own, of
 * the benchmark, whose items follow the schema's highest. */
enum pub_units { U_NONE, U_KB, U_MS, U_COUNT, U_SEC };

struct pub_def {
	const char *name;
	mmv_metric_type_t type;
	mmv_metric_sem_t sem;
	enum pub_units units;
	const char *help;
};

enum pub_bench {
	PB_STATE, PB_LABEL, PB_RUN, PB_RUNS, PB_FAILED, PB_ETA, PB_RESULT, PB_N
};

static const struct pub_def pub_bench_defs[PB_N] = {
	[PB_STATE] = { "bench.state", MMV_TYPE_STRING, MMV_SEM_INSTANT, U_NONE,
		       "benchmark: none, starting, running, between or done" },
	[PB_LABEL] = { "bench.label", MMV_TYPE_STRING, MMV_SEM_INSTANT, U_NONE,
		       "label of the runs (-l)" },
	[PB_RUN] = { "bench.run", MMV_TYPE_U32, MMV_SEM_INSTANT, U_NONE,
		     "1-based run of a sweep (0 when not a sweep)" },
	[PB_RUNS] = { "bench.runs", MMV_TYPE_U32, MMV_SEM_INSTANT, U_NONE,
		      "runs of the sweep (0 when not a sweep)" },
	[PB_FAILED] = { "bench.failed", MMV_TYPE_U32, MMV_SEM_INSTANT, U_NONE,
			"runs that failed so far" },
	[PB_ETA] = { "bench.eta", MMV_TYPE_U32, MMV_SEM_INSTANT, U_SEC,
		     "seconds until the sweep ends, as iodash estimates it (0: unknown)" },
	[PB_RESULT] = { "bench.result", MMV_TYPE_STRING, MMV_SEM_INSTANT, U_NONE,
			"the last result a run reported: LABEL METRIC=VALUE UNIT at X_NAME=X, run N" },
};

#define PUB_MAX (SF_N + PB_N)

/* The per-disk metrics: one value per instance of the disks' domain. */
enum pub_disk { PD_READ, PD_WRITE, PD_R_S, PD_W_S, PD_R_AWAIT, PD_W_AWAIT, PD_AQU_SZ, PD_UTIL, PD_N };
enum pub_units_disk { UD_KBPS = 16, UD_PER_S };
static const struct {
	const char *name;
	enum disk_figure f;
	int units;                   /* enum pub_units or pub_units_disk */
	const char *help;
} pub_disk_defs[PD_N] = {
	[PD_READ] = { "disk.read", DF_RKB_S, UD_KBPS, "kB/s read from the disk (iostat -x rkB/s)" },
	[PD_WRITE] = { "disk.write", DF_WKB_S, UD_KBPS, "kB/s written to the disk (iostat -x wkB/s)" },
	[PD_R_S] = { "disk.r_s", DF_R_S, UD_PER_S, "reads completed a second (iostat -x r/s)" },
	[PD_W_S] = { "disk.w_s", DF_W_S, UD_PER_S, "writes completed a second (iostat -x w/s)" },
	[PD_R_AWAIT] = { "disk.r_await", DF_R_AWAIT, U_MS, "ms a read took, queue included (iostat -x r_await)" },
	[PD_W_AWAIT] = { "disk.w_await", DF_W_AWAIT, U_MS, "ms a write took, queue included (iostat -x w_await)" },
	[PD_AQU_SZ] = { "disk.aqu_sz", DF_AQU_SZ, U_NONE, "requests queued on average (iostat -x aqu-sz)" },
	[PD_UTIL] = { "disk.util", DF_UTIL, U_NONE, "percent of the time the disk was busy (iostat -x %util)" },
};
#define PUB_DISK_INDOM 1

/* One metric of the file: its definition, item, and where its value
 * comes from (a schema row, or a bench metric). */
struct pub_metric {
	struct pub_def def;
	uint32_t item;
	int col;                     /* enum sample_field, -1 for a bench metric */
	int bench;                   /* enum pub_bench, -1 for a schema row */
};

/* A schema row as published: a number of seconds as whole ms (MMV's
 * integer counters), a zone by its name, other numbers as U64. */
static struct pub_def pub_def_of_col(const struct sample_col *c)
{
	struct pub_def d = { .name = c->pcp.mmv_name, .help = c->pcp.help,
			     .sem = c->pcp.sem == SCP_COUNTER ? MMV_SEM_COUNTER : MMV_SEM_INSTANT };

	if (c->type == SCT_ZONE) {
		d.type = MMV_TYPE_STRING;
		d.units = U_NONE;
	} else if (sample_col_is_double(c) && !strcmp(c->unit, "s")) {
		d.type = MMV_TYPE_U64;
		d.units = U_MS;
	} else if (sample_col_is_double(c)) {
		d.type = MMV_TYPE_DOUBLE;
		d.units = !strcmp(c->unit, "ms") ? U_MS : U_NONE;
	} else {
		d.type = MMV_TYPE_U64;
		d.units = !strcmp(c->unit, "kB") ? U_KB : !strcmp(c->unit, "count") ? U_COUNT :
			  !strcmp(c->unit, "ms") ? U_MS : U_NONE;
	}
	return d;
}

static int pub_by_item(const void *a, const void *b)
{
	const struct pub_metric *x = a, *y = b;

	return (x->item > y->item) - (x->item < y->item);
}

/* Every published metric, in item order; how many. */
static int pub_metrics(struct pub_metric m[PUB_MAX])
{
	uint32_t last = 0;
	int n = 0;

	for (int i = 0; i < SF_N; i++) {
		const struct sample_col *c = &sample_cols[i];
		if (!c->pcp.mmv_name)
			continue;
		m[n++] = (struct pub_metric){ .def = pub_def_of_col(c), .item = c->pcp.mmv_item,
					      .col = i, .bench = -1 };
		if (c->pcp.mmv_item > last)
			last = c->pcp.mmv_item;
	}
	for (int b = 0; b < PB_N; b++)
		m[n++] = (struct pub_metric){ .def = pub_bench_defs[b], .item = last + 1 + (uint32_t)b,
					      .col = -1, .bench = b };
	qsort(m, (size_t)n, sizeof(*m), pub_by_item);
	return n;
}

int publish_metrics(const char **names, unsigned *items, int max)
{
	struct pub_metric m[PUB_MAX];
	int n = pub_metrics(m);

	for (int i = 0; i < n && i < max; i++) {
		names[i] = m[i].def.name;
		items[i] = m[i].item;
	}
	return n;
}

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

static pmUnits pub_units(enum pub_units u)
{
	pmUnits kb = MMV_UNITS(1, 0, 0, PM_SPACE_KBYTE, 0, 0);
	pmUnits ms = MMV_UNITS(0, 1, 0, 0, PM_TIME_MSEC, 0);
	pmUnits count = MMV_UNITS(0, 0, 1, 0, 0, PM_COUNT_ONE);
	pmUnits sec = MMV_UNITS(0, 1, 0, 0, PM_TIME_SEC, 0);
	pmUnits none = MMV_UNITS(0, 0, 0, 0, 0, 0);
	pmUnits kbps = MMV_UNITS(1, -1, 0, PM_SPACE_KBYTE, PM_TIME_SEC, 0);
	pmUnits per_s = MMV_UNITS(0, -1, 1, 0, PM_TIME_SEC, PM_COUNT_ONE);

	return u == U_KB ? kb : u == U_MS ? ms : u == U_COUNT ? count : u == U_SEC ? sec :
	       (int)u == UD_KBPS ? kbps : (int)u == UD_PER_S ? per_s : none;
}

struct publisher {
	char path[PATH_MAX];         /* $PCP_TMP_DIR/mmv/iodash.PID */
	char tmp[PATH_MAX];          /* $PCP_TMP_DIR/mmv/.iodash.PID.new, until shown */
	int fd;                      /* held, with its flock, for the session */
	uint32_t cluster;
	void *map;
	size_t size;
	dev_t dev;                   /* the file made, to not remove a later one's */
	ino_t ino;
	int new_fd;                  /* a file being made again (pub_remake) */
	dev_t new_dev;
	ino_t new_ino;
	int n;
	struct pub_metric m[PUB_MAX];   /* the file's metrics, in its order */
	mmv_disk_value_t *v;         /* n values, in m's order */
	int slot_of_bench[PB_N];     /* where in m a bench metric is */
	uint32_t disk_item0;         /* the disk metrics' first item */
	/* the disks of the file: its instances, in the sample's order */
	int ndisks, disks_cap;
	char (*disk)[SNAP_DISK_NAME_LEN];
	int *disk_inst;              /* each one's instance number */
	struct namemap inst_of;      /* name -> instance number, kept for the session */
	mmv_disk_value_t *dv;        /* PD_N * ndisks values: dv[metric * ndisks + disk] */
	bool disks_failed;           /* a remake failed: said once, disks no longer published */
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
static void *pub_map_file(struct publisher *p, bool remake)
{
	struct stat st;
	mode_t um;
	void *map;
	int fd, e;

	/* a file of our name that nobody holds is a stale one (its pid came
	 * back); one that is held is another PID namespace's session (or,
	 * when the file is made again, ours) */
	fd = remake ? -1 : open(p->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
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
	/* made under a hidden name and shown by publish_show_file once held
	 * and laid out: a file of the real name is held from its first
	 * moment, so the stale scan needs no grace period (one went by a
	 * modification time that a killed session's last stores kept young) */
	unlink(p->tmp);
	um = umask(S_IWGRP | S_IWOTH);
	fd = open(p->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	umask(um);
	if (fd < 0)
		return NULL;
	/* held until the end: what tells a live session's file from a stale one */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		e = errno;
		close(fd);
		unlink(p->tmp);
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
		unlink(p->tmp);
		errno = e;
		return NULL;
	}
	map = mmap(NULL, p->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e = errno;
	if (map == MAP_FAILED) {
		close(fd);
		unlink(p->tmp);
		errno = e;
		return NULL;
	}
	if (!remake) {
		p->fd = fd;
		p->dev = st.st_dev;
		p->ino = st.st_ino;
	} else {
		p->new_fd = fd;
		p->new_dev = st.st_dev;
		p->new_ino = st.st_ino;
	}
	return map;
}

/* Where each section of a file of p->n metrics and nd disks goes. */
struct pub_layout {
	uint64_t indoms, instances, metrics, values, strings, size;
	int ntocs, nmetrics, nvalues, nstrings;
};

static void pub_plan(const struct publisher *p, int nd, struct pub_layout *l)
{
	int nstr = p->n;

	for (int i = 0; i < p->n; i++)
		nstr += p->m[i].def.type == MMV_TYPE_STRING;
	l->ntocs = nd ? 5 : 3;
	l->nmetrics = p->n + (nd ? PD_N : 0);
	l->nvalues = p->n + (nd ? PD_N * nd : 0);
	l->nstrings = nstr + (nd ? PD_N + 1 : 0);   /* + the disk metrics' and the domain's help */
	l->indoms = sizeof(mmv_disk_header_t) + (uint64_t)l->ntocs * sizeof(mmv_disk_toc_t);
	l->instances = l->indoms + (nd ? sizeof(mmv_disk_indom_t) : 0);
	l->metrics = l->instances + (uint64_t)nd * sizeof(mmv_disk_instance_t);
	l->values = l->metrics + (uint64_t)l->nmetrics * sizeof(mmv_disk_metric_t);
	l->strings = l->values + (uint64_t)l->nvalues * sizeof(mmv_disk_value_t);
	l->size = l->strings + (uint64_t)l->nstrings * MMV_STRINGMAX;
}

/* Lay out header, contents, the disks' domain and instances, metrics,
 * values and strings in map (the disks: p->disk[0 .. nd)). */
static void pub_lay_out(struct publisher *p, void *map, const struct pub_layout *l, int nd)
{
	char *base = map;
	mmv_disk_header_t *hdr = map;
	mmv_disk_toc_t *toc = (mmv_disk_toc_t *)(base + sizeof(*hdr));
	mmv_disk_indom_t *dom = (mmv_disk_indom_t *)(base + l->indoms);
	mmv_disk_instance_t *ins = (mmv_disk_instance_t *)(base + l->instances);
	mmv_disk_metric_t *m = (mmv_disk_metric_t *)(base + l->metrics);
	mmv_disk_value_t *v = (mmv_disk_value_t *)(base + l->values);
	struct timeval now;
	int si = 0, t = 0;

	gettimeofday(&now, NULL);
	memcpy(hdr->magic, "MMV", 4);
	hdr->version = MMV_VERSION1;
	hdr->g1 = ((uint64_t)(uint32_t)now.tv_sec << 32) | (uint32_t)now.tv_usec;
	hdr->g2 = 0;
	hdr->tocs = l->ntocs;
	hdr->flags = MMV_FLAG_PROCESS;
	hdr->process = (int32_t)getpid();
	hdr->cluster = p->cluster;
	if (nd) {
		toc[t++] = (mmv_disk_toc_t){ .type = MMV_TOC_INDOMS, .count = 1, .offset = l->indoms };
		toc[t++] = (mmv_disk_toc_t){ .type = MMV_TOC_INSTANCES, .count = nd, .offset = l->instances };
	}
	toc[t++] = (mmv_disk_toc_t){ .type = MMV_TOC_METRICS, .count = l->nmetrics, .offset = l->metrics };
	toc[t++] = (mmv_disk_toc_t){ .type = MMV_TOC_VALUES, .count = l->nvalues, .offset = l->values };
	toc[t++] = (mmv_disk_toc_t){ .type = MMV_TOC_STRINGS, .count = l->nstrings, .offset = l->strings };

	/* the strings section: each string value's, then each metric's help */
	for (int i = 0; i < p->n; i++) {
		const struct pub_def *d = &p->m[i].def;

		snprintf(m[i].name, sizeof(m[i].name), "%s", d->name);
		m[i].item = p->m[i].item;
		m[i].type = d->type;
		m[i].semantics = d->sem;
		m[i].dimension = pub_units(d->units);
		m[i].indom = PM_INDOM_NULL;
		v[i].metric = l->metrics + (uint64_t)i * sizeof(*m);
		if (d->type == MMV_TYPE_STRING)
			v[i].extra = (int64_t)(l->strings + (uint64_t)si++ * MMV_STRINGMAX);
	}
	for (int i = 0; i < p->n; i++) {
		/* the help text is both the short and the long one */
		uint64_t off = l->strings + (uint64_t)si++ * MMV_STRINGMAX;

		snprintf(base + off, MMV_STRINGMAX, "%s", p->m[i].def.help);
		m[i].shorttext = m[i].helptext = off;
	}
	if (nd) {
		uint64_t off = l->strings + (uint64_t)si++ * MMV_STRINGMAX;
		snprintf(base + off, MMV_STRINGMAX, "the disks of /proc/diskstats (iostat -x's devices)");
		*dom = (mmv_disk_indom_t){ .serial = PUB_DISK_INDOM, .count = (uint32_t)nd,
					   .offset = l->instances, .shorttext = off, .helptext = off };
		for (int k = 0; k < nd; k++) {
			ins[k] = (mmv_disk_instance_t){ .indom = l->indoms, .internal = p->disk_inst[k] };
			snprintf(ins[k].external, sizeof(ins[k].external), "%s", p->disk[k]);
		}
		for (int j = 0; j < PD_N; j++) {
			mmv_disk_metric_t *dm = &m[p->n + j];
			uint64_t hoff = l->strings + (uint64_t)si++ * MMV_STRINGMAX;

			snprintf(base + hoff, MMV_STRINGMAX, "%s", pub_disk_defs[j].help);
			*dm = (mmv_disk_metric_t){ .item = p->disk_item0 + (uint32_t)j, .type = MMV_TYPE_DOUBLE,
						   .semantics = MMV_SEM_INSTANT, .indom = PUB_DISK_INDOM,
						   .dimension = pub_units((enum pub_units)pub_disk_defs[j].units),
						   .shorttext = hoff, .helptext = hoff };
			snprintf(dm->name, sizeof(dm->name), "%s", pub_disk_defs[j].name);
			for (int k = 0; k < nd; k++) {
				mmv_disk_value_t *x = &v[p->n + j * nd + k];
				x->metric = l->metrics + (uint64_t)(p->n + j) * sizeof(*m);
				x->instance = l->instances + (uint64_t)k * sizeof(*ins);
				x->value.d = NAN;   /* no rate yet */
			}
		}
	}
}

/* Show a laid-out map to the agent: the second generation last. */
static void pub_show(void *map)
{
	mmv_disk_header_t *hdr = map;

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
 * a session ends with its process, however it ended, and a file has its
 * name only once held (pub_map_file).  Bit c of used[] is set for the
 * cluster c of each file left.  The number removed. */
static int pub_remove_stale(const char *dir, uint64_t used[64])
{
	DIR *d = opendir(dir);
	struct dirent *de;
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
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    flock(fd, LOCK_EX | LOCK_NB) == 0 && unlinkat(dirfd(d), de->d_name, 0) == 0)
			n++;
		else if (pread(fd, &hdr, sizeof(hdr), 0) == (ssize_t)sizeof(hdr) && hdr.cluster <= PUBLISH_CLUSTER_MAX)
			used[hdr.cluster / 64] |= UINT64_C(1) << (hdr.cluster % 64);
		close(fd);   /* releases the lock taken to remove it */
	}
	closedir(d);
	return n;
}

/* The one message of a file that could not be made; frees p. */
static int pub_create_failed(struct publisher *p, int e, char *err, size_t errlen)
{
	snprintf(err, errlen, "not publishing mmv.iodash.%d: cannot create %s: %s "
		 "(--no-publish to not try)", (int)getpid(), p->path, strerror(e));
	free(p);
	return -e;
}

int publish_open(struct publisher **out, char *err, size_t errlen)
{
	struct publisher *p;
	struct stat st;
	char dir[PATH_MAX - 8];
	struct pub_layout l;

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
	p->n = pub_metrics(p->m);
	for (int i = 0; i < p->n; i++) {
		if (p->m[i].bench >= 0)
			p->slot_of_bench[p->m[i].bench] = i;
		if (p->m[i].item >= p->disk_item0)
			p->disk_item0 = p->m[i].item + 1;
	}
	pub_plan(p, 0, &l);
	p->size = l.size;
	p->fd = p->new_fd = -1;
	uint64_t used[64] = { 0 };
	pub_remove_stale(dir, used);
	p->cluster = PUBLISH_CLUSTER_MIN + (uint32_t)getpid() % (PUBLISH_CLUSTER_MAX + 1 - PUBLISH_CLUSTER_MIN);
	for (int i = 0; i < PUBLISH_CLUSTER_MAX && (used[p->cluster / 64] >> (p->cluster % 64) & 1); i++)
		p->cluster = p->cluster == PUBLISH_CLUSTER_MAX ? PUBLISH_CLUSTER_MIN : p->cluster + 1;
	snprintf(p->path, sizeof(p->path), "%s/iodash.%d", dir, (int)getpid());
	snprintf(p->tmp, sizeof(p->tmp), "%s/.iodash.%d.new", dir, (int)getpid());
	if (!(p->map = pub_map_file(p, false)))
		return pub_create_failed(p, errno ? errno : EIO, err, errlen);
	pub_lay_out(p, p->map, &l, 0);
	p->v = (mmv_disk_value_t *)((char *)p->map + l.values);
	pub_show(p->map);
	/* shown under its name: link() never replaces (a held file of the
	 * name is another PID namespace's session) */
	if (link(p->tmp, p->path) < 0) {
		int e = errno;
		munmap(p->map, p->size);
		close(p->fd);
		unlink(p->tmp);
		return pub_create_failed(p, e, err, errlen);
	}
	unlink(p->tmp);
	*out = p;
	return 0;
}

static void pub_u64(struct publisher *p, int i, uint64_t v)
{
	p->v[i].value.ull = v;
}

static void pub_u32(struct publisher *p, int i, uint32_t v)
{
	p->v[i].value.ul = v;
}

/* A string value, rewritten only when it changed (most samples it has not). */
static void pub_str(struct publisher *p, int i, const char *s)
{
	char *dst = (char *)p->map + p->v[i].extra;
	size_t n = strnlen(s, MMV_STRINGMAX - 1);

	if ((size_t)p->v[i].value.l == n && !memcmp(dst, s, n))
		return;
	memset(dst, 0, MMV_STRINGMAX);
	memcpy(dst, s, n);
	p->v[i].value.l = (int32_t)n;
}

/* A schema row's value, as pub_def_of_col published it. */
static void pub_col(struct publisher *p, int i, const struct sample *s, const struct sample_col *c)
{
	switch (p->m[i].def.type) {
	case MMV_TYPE_STRING:
		pub_str(p, i, dirty_zone_name((enum dirty_zone)sample_col_int(s, c)));
		break;
	case MMV_TYPE_DOUBLE:
		p->v[i].value.d = sample_col_double(s, c);
		break;
	default:
		if (sample_col_is_double(c))   /* seconds, as ms */
			pub_u64(p, i, (uint64_t)(sample_col_double(s, c) * 1000.0 + 0.5));
		else
			pub_u64(p, i, (uint64_t)sample_col_int(s, c));
		break;
	}
}

/* Has the sample another list of disks than the file? (One pass.) */
static bool pub_disks_changed(const struct publisher *p, const struct sample *s)
{
	if (s->ndisks != p->ndisks)
		return true;
	for (int k = 0; k < s->ndisks; k++)
		if (strcmp(s->disks[k].name, p->disk[k]))
			return true;
	return false;
}

/* The file made again for the sample's disks, its values carried over,
 * renamed over the old one.  0, or -errno (the old file stays). */
static int pub_remake(struct publisher *p, const struct sample *s)
{
	struct pub_layout l;
	int nd = s->ndisks, cap = p->disks_cap;
	void *names = p->disk, *inst = p->disk_inst, *map;

	if (snapshot_grow_array(&names, &p->disks_cap, nd, sizeof(*p->disk)) ||
	    (p->disk = names, snapshot_grow_array(&inst, &cap, nd, sizeof(*p->disk_inst))))
		return -ENOMEM;
	p->disk = names;
	p->disk_inst = inst;
	for (int k = 0; k < nd; k++) {
		int id = namemap_get(&p->inst_of, s->disks[k].name);
		if (id < 0 && namemap_put(&p->inst_of, s->disks[k].name, id = (int)p->inst_of.n))
			return -ENOMEM;
		memcpy(p->disk[k], s->disks[k].name, SNAP_DISK_NAME_LEN);
		p->disk_inst[k] = id;
	}
	pub_plan(p, nd, &l);
	size_t old_size = p->size;
	p->size = l.size;
	if (!(map = pub_map_file(p, true))) {
		p->size = old_size;
		p->ndisks = 0;   /* the names above are not the file's: compared again */
		return -(errno ? errno : EIO);
	}
	pub_lay_out(p, map, &l, nd);
	mmv_disk_value_t *v = (mmv_disk_value_t *)((char *)map + l.values);
	for (int i = 0; i < p->n; i++) {
		v[i].value = p->v[i].value;
		if (p->m[i].def.type == MMV_TYPE_STRING)
			memcpy((char *)map + v[i].extra, (char *)p->map + p->v[i].extra, MMV_STRINGMAX);
	}
	pub_show(map);
	if (rename(p->tmp, p->path) < 0) {
		int e = errno;
		munmap(map, l.size);
		close(p->new_fd);
		unlink(p->tmp);
		p->size = old_size;
		p->ndisks = 0;
		return -e;
	}
	munmap(p->map, old_size);
	close(p->fd);                /* the old inode's lock with it */
	p->map = map;
	p->fd = p->new_fd;
	p->dev = p->new_dev;
	p->ino = p->new_ino;
	p->new_fd = -1;
	p->v = v;
	p->dv = v + p->n;
	p->ndisks = nd;
	return 0;
}

void publish_sample(struct publisher *p, const struct sample *s, const struct bench_status *b,
		    const struct result_point *last)
{
	const int *bs;

	if (!p)
		return;
	if (!p->disks_failed && pub_disks_changed(p, s) && pub_remake(p, s) < 0)
		p->disks_failed = true;   /* the scalars go on in the old file */
	for (int j = 0; j < PD_N && p->ndisks == s->ndisks && !p->disks_failed; j++)
		for (int k = 0; k < s->ndisks; k++)
			p->dv[j * p->ndisks + k].value.d = disk_rate_figure(&s->disks[k], pub_disk_defs[j].f);
	for (int i = 0; i < p->n; i++) {
		const struct sample_col *c = p->m[i].col >= 0 ? &sample_cols[p->m[i].col] : NULL;
		if (c && sample_guard_holds(s, c->pcp.guard))
			pub_col(p, i, s, c);
	}
	bs = p->slot_of_bench;
	if (b) {
		pub_str(p, bs[PB_STATE], pub_state_name(b->state));
		pub_str(p, bs[PB_LABEL], b->label);
		pub_u32(p, bs[PB_RUN], (uint32_t)(b->run_index > 0 ? b->run_index : 0));
		pub_u32(p, bs[PB_RUNS], (uint32_t)(b->run_total > 0 ? b->run_total : 0));
		pub_u32(p, bs[PB_FAILED], (uint32_t)(b->runs_failed > 0 ? b->runs_failed : 0));
		pub_u32(p, bs[PB_ETA], (uint32_t)(b->eta_s > 0 ? b->eta_s + 0.5 : 0));
	}
	if (last) {
		char text[256];
		snprintf(text, sizeof(text), "%s %s=%.6g %s at %s=%g, run %d", last->label, last->metric,
			 last->value, last->unit, last->x_name[0] ? last->x_name : "x", last->x, last->run + 1);
		pub_str(p, bs[PB_RESULT], text);
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
	free(p->disk);
	free(p->disk_inst);
	namemap_free(&p->inst_of);
	free(p);
}
