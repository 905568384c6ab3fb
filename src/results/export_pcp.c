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
		return xp_put(x, name, "", "%.9g", sample_col_double(s, c));
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
	if (x)
		namemap_free(&x->disks);
	free(x);
	if (s)
		sample_free(s);
	free(s);
	return rc;
}
