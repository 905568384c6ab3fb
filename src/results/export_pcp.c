/* export --pcp: a recording as a Performance Co-Pilot archive (through
 * libpcp-import), for pmrep -a, pmdumplog, pmchart and pmlogger's other
 * readers.  Metrics under iodash.*: the dirty levels and thresholds (kB),
 * the zone, the dirty-limit hits so far and the seconds in them, and per
 * disk its read and write kB/s and %util, at each sample's own time; the
 * host, kernel, label, command and knobs as the archive's labels; a mark
 * record at each run boundary.  Beside them the kernel's own metrics as
 * pmlogger logs them from pmdalinux (mem.vmstat.*, disk.dev.*, hinv.pagesize,
 * kernel.uname.*), so that `iodash view` and PCP's tools read the
 * archive as a pmlogger one: what iodash writes, it reads back. */
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iodash/base/pcplib.h"
#include "iodash/probe/probe.h"
#include "iodash/results/export_pcp.h"
#include "iodash/base/namemap.h"
#include "iodash/sample/sample_schema.h"

/* Not a PMDA's domain: an archive of iodash's own metrics. */
#define EXPORT_PCP_DOMAIN 490

static const pmUnits xp_kb = { .dimSpace = 1, .scaleSpace = PM_SPACE_KBYTE };
static const pmUnits xp_kb_s = { .dimSpace = 1, .dimTime = -1, .scaleSpace = PM_SPACE_KBYTE,
				 .scaleTime = PM_TIME_SEC };
static const pmUnits xp_none = { 0 };
static const pmUnits xp_count = { .dimCount = 1 };
static const pmUnits xp_sec = { .dimTime = 1, .scaleTime = PM_TIME_SEC };
static const pmUnits xp_ms = { .dimTime = 1, .scaleTime = PM_TIME_MSEC };

/* The metrics: the sample schema's rows with an archive name (item,
 * name, semantics: the row's SCP; type and units: the row's), then
 * these, per disk, of no schema row. */
struct xp_def {
	const char *name;
	unsigned item;
	int type, sem;
	const pmUnits *units;
};

enum xp_disk_metric { XP_DISK_READ, XP_DISK_WRITE, XP_DISK_UTIL, XP_DISK_N };

static const struct xp_def xp_disk_defs[XP_DISK_N] = {
	[XP_DISK_READ] = { "iodash.disk.read", 8, PM_TYPE_DOUBLE, PM_SEM_INSTANT, &xp_kb_s },
	[XP_DISK_WRITE] = { "iodash.disk.write", 9, PM_TYPE_DOUBLE, PM_SEM_INSTANT, &xp_kb_s },
	[XP_DISK_UTIL] = { "iodash.disk.util", 10, PM_TYPE_DOUBLE, PM_SEM_INSTANT, &xp_none },
};

/* The dirty levels the recording holds, as the vmstat counters they are
 * (pages): the row of SNAP_VMSTAT_ITEMS by key, the sample's field. */
static const struct { const char *key; size_t off; } xp_vmstat[] = {
	{ "nr_dirty", offsetof(struct sample, dirty_kb) },
	{ "nr_writeback", offsetof(struct sample, writeback_kb) },
	{ "nr_dirty_threshold", offsetof(struct sample, thresh_kb) },
	{ "nr_dirty_background_threshold", offsetof(struct sample, bg_thresh_kb) },
};
#define XP_NVM (sizeof(xp_vmstat) / sizeof(xp_vmstat[0]))
/* ... and meminfo's two, in kB, only in the records of the samples it
 * was read for (once a second live): a PCP reader sees no value between */
static const struct { const char *key; size_t off; } xp_meminfo[] = {
	{ "Dirty", offsetof(struct sample, meminfo_dirty_kb) },
	{ "Writeback", offsetof(struct sample, meminfo_writeback_kb) },
};
#define XP_NMI (sizeof(xp_meminfo) / sizeof(xp_meminfo[0]))

/* A schema row as an archive's metric: its type's PCP type (the zone
 * by its name), its unit's PCP units. */
static struct xp_def xp_def_of_col(const struct sample_col *c)
{
	struct xp_def d = { .name = c->pcp.archive_name, .item = c->pcp.archive_item,
			    .sem = c->pcp.sem == SCP_COUNTER ? PM_SEM_COUNTER : PM_SEM_INSTANT };

	d.type = c->type == SCT_ZONE ? PM_TYPE_STRING : sample_col_is_double(c) ? PM_TYPE_DOUBLE :
		 c->type == SCT_U32 ? PM_TYPE_U32 : c->type == SCT_INT ? PM_TYPE_32 : PM_TYPE_U64;
	d.units = !strcmp(c->unit, "kB") ? &xp_kb : !strcmp(c->unit, "count") ? &xp_count :
		  !strcmp(c->unit, "s") ? &xp_sec : !strcmp(c->unit, "ms") ? &xp_ms : &xp_none;
	return d;
}

int recording_export_pcp_metrics(const char **names, unsigned *items, int max)
{
	int n = 0;

	for (int i = 0; i < SF_N; i++)
		if (sample_cols[i].pcp.archive_name) {
			if (n < max) {
				names[n] = sample_cols[i].pcp.archive_name;
				items[n] = sample_cols[i].pcp.archive_item;
			}
			n++;
		}
	for (int i = 0; i < XP_DISK_N; i++, n++)
		if (n < max) {
			names[n] = xp_disk_defs[i].name;
			items[n] = xp_disk_defs[i].item;
		}
	return n;
}

struct xp {
	const struct pcplib *P;
	struct namemap disks;        /* name -> instance number: any number of devices */
	char *err;
	size_t errlen;

	/* the kernel's metrics: their names, the disks' domain (pmdalinux's
	 * disk.dev one), the page size, and each disk's counters so far (by
	 * its instance number) */
	const char *vm_names[XP_NVM], *mi_names[XP_NMI], *disk_names[DS_NFIELDS];
	pmInDom kindom;
	unsigned page_kb;
	struct xp_kdisk { bool seen; uint64_t counters[DS_NFIELDS]; } *kd;
	int nkd;
};

static int xp_fail(struct xp *x, const char *what, int rc)
{
	char buf[PM_MAXERRMSGLEN];
	snprintf(x->err, x->errlen, "%s: %s", what, x->P->pmiErrStr_r(rc, buf, sizeof(buf)));
	return -EIO;
}

/* The disk's instance number, added to the domain on first sight. */
static int xp_disk(struct xp *x, const char *name, pmInDom indom)
{
	int i = namemap_get(&x->disks, name);
	if (i >= 0)
		return i;
	i = (int)x->disks.n;
	if (x->P->pmiAddInstance(indom, name, i) < 0 || namemap_put(&x->disks, name, i))
		return -1;
	return i;
}

/* A label's value as libpcp-import wants it: the text of a JSON string
 * without its quotes (pmiPutLabel adds them), " and \ escaped, control
 * characters dropped. */
static void xp_label_value(const char *s, char *out, size_t len)
{
	size_t o = 0;
	for (; *s && o + 3 < len; s++) {
		if ((unsigned char)*s < 0x20)
			continue;
		if (*s == '"' || *s == '\\')
			out[o++] = '\\';
		out[o++] = *s;
	}
	out[o] = '\0';
}

static int xp_label(struct xp *x, const char *name, const char *value)
{
	char text[1200];
	if (!value || !value[0])
		return 0;
	xp_label_value(value, text, sizeof(text));
	int rc = x->P->pmiPutLabel(PM_LABEL_CONTEXT, 0, 0, name, text);
	return rc < 0 ? xp_fail(x, name, rc) : 0;
}

static int xp_put(struct xp *x, const char *name, const char *inst, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int xp_put(struct xp *x, const char *name, const char *inst, const char *fmt, ...)
{
	char v[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	int rc = x->P->pmiPutValue(name, inst, v);
	return rc < 0 ? xp_fail(x, name, rc) : 0;
}

/* A schema row's value, in its xp_def_of_col type. */
static int xp_put_col(struct xp *x, const struct sample *s, const struct sample_col *c)
{
	const char *name = c->pcp.archive_name;

	switch (xp_def_of_col(c).type) {
	case PM_TYPE_STRING:
		return xp_put(x, name, "", "%s", dirty_zone_name((enum dirty_zone)sample_col_int(s, c)));
	case PM_TYPE_DOUBLE:
		return xp_put(x, name, "", "%.17g", sample_col_double(s, c));   /* the very double */
	case PM_TYPE_U32:
		return xp_put(x, name, "", "%u", (unsigned)sample_col_int(s, c));
	case PM_TYPE_32:
		return xp_put(x, name, "", "%d", (int)sample_col_int(s, c));
	default:
		return xp_put(x, name, "", "%llu", (unsigned long long)sample_col_int(s, c));
	}
}

static int xp_sample(struct xp *x, const struct sample *s, pmInDom indom)
{
	int rc = 0;

	for (int i = 0; i < SF_N; i++) {
		const struct sample_col *c = &sample_cols[i];
		if (c->pcp.archive_name && sample_guard_holds(s, c->pcp.guard) && (rc = xp_put_col(x, s, c)))
			return rc;
	}
	for (int d = 0; d < s->ndisks; d++) {
		const struct disk_rate *dr = &s->disks[d];
		if (!dr->have_rate || xp_disk(x, dr->name, indom) < 0)
			continue;
		if ((rc = xp_put(x, xp_disk_defs[XP_DISK_READ].name, dr->name, "%.9g", dr->rkB_s)) ||
		    (rc = xp_put(x, xp_disk_defs[XP_DISK_WRITE].name, dr->name, "%.9g", dr->wkB_s)))
			return rc;
		double u = disk_rate_figure(dr, DF_UTIL);
		if (!isnan(u) && (rc = xp_put(x, xp_disk_defs[XP_DISK_UTIL].name, dr->name, "%.9g", u)))
			return rc;
	}
	return 0;
}

/* The kernel's metrics of a sample: the dirty levels in pages, and every
 * disk's diskstats counters, which count from 0 at the recording's start
 * (it holds their deltas; in-flight is a gauge), so the rates a reader
 * derives from them are the recording's.  A disk without a rate after
 * its first sample had its counters reset: they start from 0 again, and
 * a reader sees them fall, as it saw the kernel's (one still at 0, a disk
 * that did nothing since it was first seen, cannot fall: that interval
 * reads as idle, not n/a). */
static int xp_kernel_sample(struct xp *x, const struct sample *s, pmInDom indom)
{
	int rc;

	for (size_t i = 0; i < XP_NVM && s->have_dirty && x->page_kb; i++) {
		uint64_t kb;
		memcpy(&kb, (const char *)s + xp_vmstat[i].off, sizeof(kb));
		if (x->vm_names[i] && (rc = xp_put(x, x->vm_names[i], "", "%llu",
						   (unsigned long long)(kb / x->page_kb))))
			return rc;
	}
	for (size_t i = 0; i < XP_NMI && sample_guard_holds(s, SCG_MEMINFO); i++) {
		uint64_t kb;
		memcpy(&kb, (const char *)s + xp_meminfo[i].off, sizeof(kb));
		if (x->mi_names[i] && (rc = xp_put(x, x->mi_names[i], "", "%llu", (unsigned long long)kb)))
			return rc;
	}
	for (int d = 0; d < s->ndisks; d++) {
		const struct disk_rate *dr = &s->disks[d];
		int k = xp_disk(x, dr->name, indom);
		if (k < 0)
			continue;
		if (k >= x->nkd) {
			struct xp_kdisk *kd = realloc(x->kd, (size_t)(k + 1) * sizeof(*kd));
			if (!kd) {
				snprintf(x->err, x->errlen, "out of memory");
				return -ENOMEM;
			}
			memset(kd + x->nkd, 0, (size_t)(k + 1 - x->nkd) * sizeof(*kd));
			x->kd = kd;
			x->nkd = k + 1;
		}
		struct xp_kdisk *c = &x->kd[k];
		if (!c->seen && (rc = x->P->pmiAddInstance(x->kindom, dr->name, k)) < 0)
			return xp_fail(x, dr->name, rc);
		if (!dr->have_rate && c->seen)
			memset(c->counters, 0, sizeof(c->counters));
		for (int f = 0; f < DS_NFIELDS && dr->have_rate; f++)
			c->counters[f] = f == DS_IOS_IN_PROGRESS ? dr->delta[f] : c->counters[f] + dr->delta[f];
		c->seen = true;
		for (int f = 0; f < DS_NFIELDS; f++) {
			/* a field its kernel line lacks has no value (n/a) */
			if (dr->have_rate && !diskstat_has_field(dr->nfields, (enum diskstat_field)f))
				continue;
			if ((rc = xp_put(x, x->disk_names[f], dr->name, "%llu",
					 (unsigned long long)c->counters[f])))
				return rc;
		}
	}
	return 0;
}

/* Describe the kernel's metrics (pmdalinux's PMIDs, types of ours: every
 * counter 64 bits), and put the ones read once. */
static int xp_kernel_metrics(struct xp *x, const struct rec_header *h)
{
	static const pmUnits ms = { .dimTime = 1, .scaleTime = PM_TIME_MSEC };
	static const pmUnits count = { .dimCount = 1 };
	static const pmUnits bytes = { .dimSpace = 1, .scaleSpace = PM_SPACE_BYTE };
	unsigned dom, cl, it;
	const char *name;
	int rc;

	for (size_t i = 0; i < XP_NVM; i++)
		for (int r = 0; r < snap_vmstat_nitems; r++)
			if (!strcmp(snap_vmstat_items[r].key, xp_vmstat[i].key) &&
			    (name = probe_pcp_kernel_metric(PROBE_PCP_VMSTAT, r, &dom, &cl, &it))) {
				rc = x->P->pmiAddMetric(name, x->P->pmiID((int)dom, (int)cl, (int)it), PM_TYPE_U64,
							PM_INDOM_NULL, PM_SEM_INSTANT, count);
				if (rc < 0)
					return xp_fail(x, name, rc);
				x->vm_names[i] = name;
			}
	for (size_t i = 0; i < XP_NMI; i++)
		for (int r = 0; r < snap_meminfo_nitems; r++)
			if (!strcmp(snap_meminfo_items[r].key, xp_meminfo[i].key) &&
			    (name = probe_pcp_kernel_metric(PROBE_PCP_MEMINFO, r, &dom, &cl, &it))) {
				rc = x->P->pmiAddMetric(name, x->P->pmiID((int)dom, (int)cl, (int)it), PM_TYPE_U64,
							PM_INDOM_NULL, PM_SEM_INSTANT, xp_kb);
				if (rc < 0)
					return xp_fail(x, name, rc);
				x->mi_names[i] = name;
			}
	for (int f = 0; f < DS_NFIELDS; f++) {
		if (!(name = probe_pcp_kernel_metric(PROBE_PCP_DISK, f, &dom, &cl, &it))) {
			snprintf(x->err, x->errlen, "no PCP name for diskstats field %d", f);
			return -EINVAL;
		}
		bool is_ms = f == DS_MS_READING || f == DS_MS_WRITING || f == DS_MS_IO || f == DS_WEIGHTED_MS_IO ||
			     f == DS_MS_DISCARDING || f == DS_MS_FLUSHING;
		x->kindom = x->P->pmiInDom((int)dom, 1);   /* pmdalinux's disk domain */
		rc = x->P->pmiAddMetric(name, x->P->pmiID((int)dom, (int)cl, (int)it), PM_TYPE_U64, x->kindom,
					f == DS_IOS_IN_PROGRESS ? PM_SEM_INSTANT : PM_SEM_COUNTER, is_ms ? ms : count);
		if (rc < 0)
			return xp_fail(x, name, rc);
		x->disk_names[f] = name;
	}
	x->page_kb = h->page_kb ? h->page_kb : (unsigned)(sysconf(_SC_PAGESIZE) / 1024);
	const struct { int i, type; const pmUnits *u; const char *s; } once[] = {
		{ PROBE_PCP_PAGESIZE, PM_TYPE_U32, &bytes, "" },
		{ PROBE_PCP_RELEASE, PM_TYPE_STRING, &xp_none, h->kernel },
		{ PROBE_PCP_NODENAME, PM_TYPE_STRING, &xp_none, h->host },
	};
	for (size_t i = 0; i < sizeof(once) / sizeof(once[0]); i++) {
		name = probe_pcp_kernel_metric(PROBE_PCP_INFO, once[i].i, &dom, &cl, &it);
		/* an unknown kernel or host is no metric (a value "" says nothing) */
		if (!name || (once[i].type == PM_TYPE_STRING && !once[i].s[0]))
			continue;
		rc = x->P->pmiAddMetric(name, x->P->pmiID((int)dom, (int)cl, (int)it), once[i].type, PM_INDOM_NULL,
					PM_SEM_DISCRETE, *once[i].u);
		if (rc < 0)
			return xp_fail(x, name, rc);
	}
	return 0;
}

/* The metrics read once, in the first record (pmlogger's "log once"). */
static int xp_kernel_once(struct xp *x, const struct rec_header *h)
{
	unsigned dom, cl, it;
	const char *name;
	int rc;

	if ((name = probe_pcp_kernel_metric(PROBE_PCP_INFO, PROBE_PCP_PAGESIZE, &dom, &cl, &it)) &&
	    (rc = xp_put(x, name, "", "%u", x->page_kb * 1024)))
		return rc;
	if (h->kernel[0] && (name = probe_pcp_kernel_metric(PROBE_PCP_INFO, PROBE_PCP_RELEASE, &dom, &cl, &it)) &&
	    (rc = xp_put(x, name, "", "%s", h->kernel)))
		return rc;
	if (h->host[0] && (name = probe_pcp_kernel_metric(PROBE_PCP_INFO, PROBE_PCP_NODENAME, &dom, &cl, &it)) &&
	    (rc = xp_put(x, name, "", "%s", h->host)))
		return rc;
	return 0;
}

/* Describe one metric to libpcp-import. */
static int xp_add_metric(struct xp *x, const struct xp_def *d, pmInDom indom)
{
	int rc = x->P->pmiAddMetric(d->name, x->P->pmiID(EXPORT_PCP_DOMAIN, 0, d->item), d->type, indom,
				    d->sem, *d->units);
	return rc < 0 ? xp_fail(x, d->name, rc) : 0;
}

/* libpcp would print these itself: an archive is never
 * overwritten, and its directory must be there. */
static int xp_check_path(const char *path, char *err, size_t errlen)
{
	static const char *const ext[] = { ".0", ".index", ".meta" };
	char f[PATH_MAX], dir[PATH_MAX];
	struct stat st;

	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		snprintf(f, sizeof(f), "%s%s", path, ext[i]);
		if (lstat(f, &st) == 0) {
			snprintf(err, errlen, "%s: an archive is there already (%s), and it is never overwritten; "
				 "choose another --pcp name", path, f);
			return -EEXIST;
		}
	}
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s: no directory %s to write the archive in", path, dir);
			return -ENOENT;
		}
	}
	return 0;
}

int recording_export_pcp(const struct recording *rec, const char *path, char *err, size_t errlen)
{
	const struct rec_header *h = recording_header(rec);
	struct xp *x = calloc(1, sizeof(*x));
	struct sample *s = calloc(1, sizeof(*s));
	struct model_event ev;
	pmInDom indom = PM_INDOM_NULL;
	size_t ns = recording_count(rec, RK_SAMPLE), ne = recording_count(rec, RK_EVENT), ie = 0;
	char buf[256];
	int rc, ctx = -1;
	bool once = false;

	if (!x || !s) {
		free(x);
		free(s);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	x->err = err;
	x->errlen = errlen;
	if ((rc = pcplib_load(PCPLIB_IMPORT, &x->P, err, errlen)))
		goto out;
	indom = x->P->pmiInDom(EXPORT_PCP_DOMAIN, 0);
	if (!ns) {
		snprintf(err, errlen, "the recording has no sample: nothing to put in an archive");
		rc = -ENODATA;
		goto out;
	}
	if ((rc = xp_check_path(path, err, errlen)))
		goto out;
	if ((ctx = x->P->pmiStart(path, 0)) < 0) {
		rc = xp_fail(x, path, ctx);
		goto out;
	}
	x->P->pmiSetHostname(h->host[0] ? h->host : "unknown");
	x->P->pmiSetTimezone("UTC");
	for (int i = 0; i < SF_N; i++) {
		struct xp_def d = xp_def_of_col(&sample_cols[i]);
		if (d.name && (rc = xp_add_metric(x, &d, PM_INDOM_NULL)))
			goto out;
	}
	for (int i = 0; i < XP_DISK_N; i++)
		if ((rc = xp_add_metric(x, &xp_disk_defs[i], indom)))
			goto out;
	if ((rc = xp_kernel_metrics(x, h)))
		goto out;
	if ((rc = xp_label(x, "hostname_recorded", h->host)) || (rc = xp_label(x, "kernel", h->kernel)) ||
	    (rc = xp_label(x, "label", h->label)) || (rc = xp_label(x, "command", h->command)) ||
	    (rc = xp_label(x, "source", h->source)))
		goto out;
	if (h->have_knobs) {
		snprintf(buf, sizeof(buf), "dirty_background_bytes=%llu dirty_background_ratio=%u dirty_bytes=%llu dirty_ratio=%u",
			 (unsigned long long)h->dirty_background_bytes, h->dirty_background_ratio,
			 (unsigned long long)h->dirty_bytes, h->dirty_ratio);
		if ((rc = xp_label(x, "knobs", buf)))
			goto out;
	}
	for (size_t i = 0; i < ns; i++) {
		if (recording_sample(rec, i, s))
			continue;
		/* a run that began since the last sample: a mark before this one */
		bool boundary = false;
		while (ie < ne && recording_time(rec, RK_EVENT, ie) <= s->t) {
			if (!recording_event(rec, ie, &ev) && (ev.kind == MEV_RUN_START || ev.kind == MEV_RUN_END))
				boundary = true;
			ie++;
		}
		if (boundary && i > 0 && (rc = x->P->pmiPutMark()) < 0) {
			rc = xp_fail(x, "a run boundary's mark", rc);
			goto out;
		}
		if ((rc = xp_sample(x, s, indom)) || (rc = xp_kernel_sample(x, s, indom)) ||
		    (!once && (rc = xp_kernel_once(x, h))))
			goto out;
		once = true;
		int64_t ns_t = s->realtime_ns ? s->realtime_ns : h->start_realtime_ns + (int64_t)(s->t * 1e9);
		if ((rc = x->P->pmiWrite((int)(ns_t / 1000000000), (int)(ns_t % 1000000000 / 1000))) < 0) {
			rc = xp_fail(x, path, rc);
			goto out;
		}
	}
	rc = 0;
out:
	free(x->kd);
	if (ctx >= 0) {
		int e = x->P->pmiEnd();
		if (!rc && e < 0)
			rc = xp_fail(x, path, e);
	}
	if (x)
		namemap_free(&x->disks);
	free(x);
	if (s)
		sample_free(s);
	free(s);
	return rc;
}
