/* export --pcp: a recording as a Performance Co-Pilot archive (through
 * libpcp-import), for pmrep -a, pmdumplog, pmchart and pmlogger's other
 * readers.  Metrics under iodash.*: the dirty levels and thresholds (kB),
 * the zone, the dirty-limit hits so far and the seconds in them, and per
 * disk its read and write kB/s and %util, at each sample's own time; the
 * host, kernel, label, command and knobs as the archive's labels; a mark
 * record at each run boundary. */
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/base/pcplib.h"
#include "iodash/record/recording.h"

/* Not a PMDA's domain: an archive of iodash's own metrics. */
#define EXPORT_PCP_DOMAIN 490

enum xp_metric {
	XP_DIRTY, XP_WRITEBACK, XP_BG, XP_FREERUN, XP_THRESH, XP_ZONE, XP_HITS, XP_HIT_S,
	XP_DISK_READ, XP_DISK_WRITE, XP_DISK_UTIL, XP_N
};

static const pmUnits xp_kb = { .dimSpace = 1, .scaleSpace = PM_SPACE_KBYTE };
static const pmUnits xp_kb_s = { .dimSpace = 1, .dimTime = -1, .scaleSpace = PM_SPACE_KBYTE,
				 .scaleTime = PM_TIME_SEC };
static const pmUnits xp_none = { 0 };
static const pmUnits xp_count = { .dimCount = 1 };
static const pmUnits xp_sec = { .dimTime = 1, .scaleTime = PM_TIME_SEC };

static const struct xp_def {
	const char *name;
	int type, sem;
	const pmUnits *units;
	bool per_disk;
} xp_defs[XP_N] = {
	[XP_DIRTY] = { "iodash.dirty", PM_TYPE_U64, PM_SEM_INSTANT, &xp_kb, false },
	[XP_WRITEBACK] = { "iodash.writeback", PM_TYPE_U64, PM_SEM_INSTANT, &xp_kb, false },
	[XP_BG] = { "iodash.thresholds.background", PM_TYPE_U64, PM_SEM_INSTANT, &xp_kb, false },
	[XP_FREERUN] = { "iodash.thresholds.freerun", PM_TYPE_U64, PM_SEM_INSTANT, &xp_kb, false },
	[XP_THRESH] = { "iodash.thresholds.dirty", PM_TYPE_U64, PM_SEM_INSTANT, &xp_kb, false },
	[XP_ZONE] = { "iodash.zone", PM_TYPE_STRING, PM_SEM_INSTANT, &xp_none, false },
	[XP_HITS] = { "iodash.throttle.hits", PM_TYPE_U32, PM_SEM_COUNTER, &xp_count, false },
	[XP_HIT_S] = { "iodash.throttle.seconds", PM_TYPE_DOUBLE, PM_SEM_COUNTER, &xp_sec, false },
	[XP_DISK_READ] = { "iodash.disk.read", PM_TYPE_DOUBLE, PM_SEM_INSTANT, &xp_kb_s, true },
	[XP_DISK_WRITE] = { "iodash.disk.write", PM_TYPE_DOUBLE, PM_SEM_INSTANT, &xp_kb_s, true },
	[XP_DISK_UTIL] = { "iodash.disk.util", PM_TYPE_DOUBLE, PM_SEM_INSTANT, &xp_none, true },
};

#define XP_MAX_DISKS 256

struct xp {
	const struct pcplib *P;
	char disks[XP_MAX_DISKS][SNAP_DISK_NAME_LEN];
	int ndisks;
	char *err;
	size_t errlen;
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
	for (int i = 0; i < x->ndisks; i++)
		if (!strcmp(x->disks[i], name))
			return i;
	if (x->ndisks >= XP_MAX_DISKS)
		return -1;
	if (x->P->pmiAddInstance(indom, name, x->ndisks) < 0)
		return -1;
	snprintf(x->disks[x->ndisks], SNAP_DISK_NAME_LEN, "%s", name);
	return x->ndisks++;
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

static int xp_put(struct xp *x, enum xp_metric m, const char *inst, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int xp_put(struct xp *x, enum xp_metric m, const char *inst, const char *fmt, ...)
{
	char v[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	int rc = x->P->pmiPutValue(xp_defs[m].name, inst, v);
	return rc < 0 ? xp_fail(x, xp_defs[m].name, rc) : 0;
}

static int xp_sample(struct xp *x, const struct sample *s, pmInDom indom)
{
	int rc = 0;

	if (s->have_dirty) {
		if ((rc = xp_put(x, XP_DIRTY, "", "%llu", (unsigned long long)s->dirty_kb)) ||
		    (rc = xp_put(x, XP_WRITEBACK, "", "%llu", (unsigned long long)s->writeback_kb)) ||
		    (rc = xp_put(x, XP_BG, "", "%llu", (unsigned long long)s->bg_thresh_kb)) ||
		    (rc = xp_put(x, XP_FREERUN, "", "%llu", (unsigned long long)s->freerun_kb)) ||
		    (rc = xp_put(x, XP_THRESH, "", "%llu", (unsigned long long)s->thresh_kb)) ||
		    (rc = xp_put(x, XP_ZONE, "", "%s", dirty_zone_name(s->zone))))
			return rc;
	}
	if ((rc = xp_put(x, XP_HITS, "", "%u", s->hits)) || (rc = xp_put(x, XP_HIT_S, "", "%.9g", s->hit_seconds)))
		return rc;
	for (int d = 0; d < s->ndisks; d++) {
		const struct disk_rate *dr = &s->disks[d];
		if (!dr->have_rate || xp_disk(x, dr->name, indom) < 0)
			continue;
		if ((rc = xp_put(x, XP_DISK_READ, dr->name, "%.9g", dr->rkB_s)) ||
		    (rc = xp_put(x, XP_DISK_WRITE, dr->name, "%.9g", dr->wkB_s)))
			return rc;
		double u = disk_rate_figure(dr, DF_UTIL);
		if (!isnan(u) && (rc = xp_put(x, XP_DISK_UTIL, dr->name, "%.9g", u)))
			return rc;
	}
	return 0;
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
	struct sample *s = malloc(sizeof(*s));
	struct model_event ev;
	pmInDom indom = PM_INDOM_NULL;
	size_t ns = recording_count(rec, RK_SAMPLE), ne = recording_count(rec, RK_EVENT), ie = 0;
	char buf[256];
	int rc, ctx = -1;

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
	for (int m = 0; m < XP_N; m++) {
		const struct xp_def *d = &xp_defs[m];
		rc = x->P->pmiAddMetric(d->name, x->P->pmiID(EXPORT_PCP_DOMAIN, 0, m), d->type,
					d->per_disk ? indom : PM_INDOM_NULL, d->sem, *d->units);
		if (rc < 0) {
			rc = xp_fail(x, d->name, rc);
			goto out;
		}
	}
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
		if ((rc = xp_sample(x, s, indom)))
			goto out;
		int64_t ns_t = s->realtime_ns ? s->realtime_ns : h->start_realtime_ns + (int64_t)(s->t * 1e9);
		if ((rc = x->P->pmiWrite((int)(ns_t / 1000000000), (int)(ns_t % 1000000000 / 1000))) < 0) {
			rc = xp_fail(x, path, rc);
			goto out;
		}
	}
	rc = 0;
out:
	if (ctx >= 0) {
		int e = x->P->pmiEnd();
		if (!rc && e < 0)
			rc = xp_fail(x, path, e);
	}
	free(x);
	free(s);
	return rc;
}
