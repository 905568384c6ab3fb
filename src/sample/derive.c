/* derive: two snapshots and their times -> one sample.  Pure functions only:
 * everything here is tested on recorded traces (tests/unit/test_derive.c).
 *
 * The dirty model is the kernel's own (mm/page-writeback.c):
 *   bg_thresh, thresh  from /proc/vmstat nr_dirty_background_threshold and
 *                      nr_dirty_threshold (already adjusted for the caller's
 *                      class by the kernel: RT tasks see higher ones, which
 *                      is why the sampler never runs real-time);
 *   freerun            (thresh + bg_thresh) / 2, dirty_freerun_ceiling():
 *                      below it balance_dirty_pages() never pauses a writer;
 *   the level compared is nr_dirty + nr_writeback, as balance_dirty_pages()
 *   compares nr_reclaimable + nr_writeback. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "iodash/base/namemap.h"
#include "iodash/sample/derive.h"

/* Kernel print widths of /proc/diskstats fields (block/genhd.c
 * diskstats_show): counts are unsigned long, times are unsigned int (ms,
 * wrapping at 2^32: 49.7 days of one request, far less of the weighted
 * sums on a deep queue). */
#define DS_COUNT_BITS ((unsigned char)(sizeof(unsigned long) * CHAR_BIT))
static const unsigned char diskstat_bits[DS_NFIELDS] = {
	[DS_READS] = DS_COUNT_BITS, [DS_READS_MERGED] = DS_COUNT_BITS,
	[DS_SECTORS_READ] = DS_COUNT_BITS, [DS_MS_READING] = 32,
	[DS_WRITES] = DS_COUNT_BITS, [DS_WRITES_MERGED] = DS_COUNT_BITS,
	[DS_SECTORS_WRITTEN] = DS_COUNT_BITS, [DS_MS_WRITING] = 32,
	[DS_IOS_IN_PROGRESS] = 32, [DS_MS_IO] = 32, [DS_WEIGHTED_MS_IO] = 32,
	[DS_DISCARDS] = DS_COUNT_BITS, [DS_DISCARDS_MERGED] = DS_COUNT_BITS,
	[DS_SECTORS_DISCARDED] = DS_COUNT_BITS, [DS_MS_DISCARDING] = 32,
	[DS_FLUSHES] = DS_COUNT_BITS, [DS_MS_FLUSHING] = 32,
};

static const char *const zone_names[] = {
	[ZONE_BELOW_BG] = "below_bg",
	[ZONE_BG_FLUSH] = "bg_flush",
	[ZONE_THROTTLE] = "throttle",
	[ZONE_HARD_LIMIT] = "hard_limit",
};

const char *dirty_zone_name(enum dirty_zone z)
{
	if (z < ZONE_BELOW_BG || z > ZONE_HARD_LIMIT)
		return "n/a";
	return zone_names[z];
}

int sample_reserve_disks(struct sample *s, int n)
{
	void *p = s->disks;
	int rc = snapshot_grow_array(&p, &s->disks_cap, n, sizeof(*s->disks));

	s->disks = p;
	return rc;
}

struct disk_rate *sample_add_disk(struct sample *s)
{
	if (sample_reserve_disks(s, s->ndisks + 1))
		return NULL;
	struct disk_rate *d = &s->disks[s->ndisks++];
	memset(d, 0, sizeof(*d));
	return d;
}

int sample_copy(struct sample *dst, const struct sample *src)
{
	struct disk_rate *keep = dst->disks;
	int cap = dst->disks_cap;

	if (dst == src)
		return 0;
	*dst = *src;
	dst->disks = keep;
	dst->disks_cap = cap;
	if (sample_reserve_disks(dst, src->ndisks)) {
		dst->ndisks = 0;
		return -ENOMEM;
	}
	if (src->ndisks)
		memcpy(dst->disks, src->disks, (size_t)src->ndisks * sizeof(*src->disks));
	return 0;
}

void sample_reset(struct sample *s)
{
	struct disk_rate *keep = s->disks;
	int cap = s->disks_cap;

	memset(s, 0, sizeof(*s));
	s->disks = keep;
	s->disks_cap = cap;
}

void sample_free(struct sample *s)
{
	free(s->disks);
	s->disks = NULL;
	s->disks_cap = 0;
	s->ndisks = 0;
}

uint64_t dirty_freerun(uint64_t thresh, uint64_t bg_thresh)
{
	return (thresh + bg_thresh) / 2;
}

/* The least-squares slope of the n points, and the share of their
 * variance it explains (*r2); 0 when flat or fewer than two. */
static double trend_slope(const double *t, const double *kb, int n, double *r2)
{
	double mt = 0, mk = 0, stt = 0, skk = 0, stk = 0;
	for (int i = 0; i < n; i++) {
		mt += t[i];
		mk += kb[i];
	}
	mt /= n;
	mk /= n;
	for (int i = 0; i < n; i++) {
		stt += (t[i] - mt) * (t[i] - mt);
		skk += (kb[i] - mk) * (kb[i] - mk);
		stk += (t[i] - mt) * (kb[i] - mk);
	}
	*r2 = 0;
	if (n < 2 || stt <= 0 || skk <= 0)
		return 0;
	*r2 = stk * stk / (stt * skk);
	return stk / stt;
}

double derive_time_to_limit(const double *t, const double *kb, int n, double limit_kb, double horizon_s)
{
	if (n < DERIVE_TREND_MIN_POINTS || t[n - 1] - t[0] < 1.0 || kb[n - 1] >= limit_kb)
		return -1;
	double r2, r2_new, slope = trend_slope(t, kb, n, &r2);
	if (slope <= 0 || r2 < 0.5)
		return -1;
	/* and still rising at the end, on or above the line: a level that
	 * jumped and now falls back (writeback caught up) is not on its way */
	double mt = 0, mk = 0;
	for (int i = 0; i < n; i++) {
		mt += t[i] / n;
		mk += kb[i] / n;
	}
	int k = n / 3 > 2 ? n / 3 : 2;
	double on_line = mk + slope * (t[n - 1] - mt);
	if (kb[n - 1] < on_line - 1e-9 * fabs(on_line) || trend_slope(t + n - k, kb + n - k, k, &r2_new) <= 0)
		return -1;
	/* a trend seen over s seconds says little of the level more than
	 * DERIVE_TREND_REACH times s later: a level that creeps up by a few
	 * pages over 5 s is no forecast of the next half hour */
	double span = t[n - 1] - t[0], left = (limit_kb - kb[n - 1]) / slope;
	return left <= horizon_s && left <= DERIVE_TREND_REACH * span ? left : -1;
}

enum dirty_zone dirty_zone_of(uint64_t dirty, uint64_t writeback,
			      uint64_t bg_thresh, uint64_t thresh)
{
	uint64_t level = dirty + writeback;

	if (thresh > 0 && level >= thresh)
		return ZONE_HARD_LIMIT;
	if (level > dirty_freerun(thresh, bg_thresh))
		return ZONE_THROTTLE;
	if (dirty > bg_thresh)
		return ZONE_BG_FLUSH;
	return ZONE_BELOW_BG;
}

bool counter_delta(uint64_t prev, uint64_t cur, unsigned bits, uint64_t *delta)
{
	uint64_t d = cur - prev;          /* unsigned: wraps modulo 2^64 */
	uint64_t half = UINT64_C(1) << 63;

	if (bits < 64) {
		d &= (UINT64_C(1) << bits) - 1;
		half = UINT64_C(1) << (bits - 1);
	}
	/* A wrap leaves a small modular delta; a counter that started again
	 * from 0 below its old value leaves one near the full range. */
	if (cur < prev && d >= half)
		return false;
	*delta = d;
	return true;
}

bool diskstat_has_field(int nfields, enum diskstat_field f)
{
	if (nfields == 4)
		return f == DS_READS || f == DS_SECTORS_READ || f == DS_WRITES ||
		       f == DS_SECTORS_WRITTEN;
	return (int)f < nfields;
}

bool disk_deltas_impossible(const uint64_t delta[DS_NFIELDS], int nfields)
{
	for (int f = 0; f < DS_NFIELDS; f++) {
		unsigned bits = diskstat_bits[f];
		if (f == DS_IOS_IN_PROGRESS || !diskstat_has_field(nfields, f))
			continue;
		if (bits < 64 ? delta[f] >= (UINT64_C(1) << (bits - 1)) : delta[f] >= (UINT64_C(1) << 63))
			return true;
	}
	return false;
}

static const struct {
	const char *name, *label;
	enum diskstat_field needs;     /* the last field the figure reads */
} figures[DF_N] = {
	[DF_R_S] = { "r_s", "r/s", DS_READS },
	[DF_W_S] = { "w_s", "w/s", DS_WRITES },
	[DF_RKB_S] = { "rkB_s", "rkB/s", DS_SECTORS_READ },
	[DF_WKB_S] = { "wkB_s", "wkB/s", DS_SECTORS_WRITTEN },
	[DF_R_AWAIT] = { "r_await", "r_await", DS_MS_READING },
	[DF_W_AWAIT] = { "w_await", "w_await", DS_MS_WRITING },
	[DF_AQU_SZ] = { "aqu_sz", "aqu-sz", DS_WEIGHTED_MS_IO },
	[DF_UTIL] = { "util", "%util", DS_MS_IO },
	[DF_D_S] = { "d_s", "d/s", DS_DISCARDS },
	[DF_DKB_S] = { "dkB_s", "dkB/s", DS_SECTORS_DISCARDED },
	[DF_F_S] = { "f_s", "f/s", DS_FLUSHES },
	[DF_RRQM_S] = { "rrqm_s", "rrqm/s", DS_READS_MERGED },
	[DF_WRQM_S] = { "wrqm_s", "wrqm/s", DS_WRITES_MERGED },
	[DF_RRQM_PCT] = { "rrqm_pct", "%rrqm", DS_READS_MERGED },
	[DF_WRQM_PCT] = { "wrqm_pct", "%wrqm", DS_WRITES_MERGED },
	[DF_RAREQ_SZ] = { "rareq_sz", "rareq-sz", DS_SECTORS_READ },
	[DF_WAREQ_SZ] = { "wareq_sz", "wareq-sz", DS_SECTORS_WRITTEN },
	[DF_DRQM_S] = { "drqm_s", "drqm/s", DS_DISCARDS_MERGED },
	[DF_DRQM_PCT] = { "drqm_pct", "%drqm", DS_DISCARDS_MERGED },
	[DF_D_AWAIT] = { "d_await", "d_await", DS_MS_DISCARDING },
	[DF_DAREQ_SZ] = { "dareq_sz", "dareq-sz", DS_SECTORS_DISCARDED },
	[DF_F_AWAIT] = { "f_await", "f_await", DS_MS_FLUSHING },
};

const char *disk_figure_name(enum disk_figure f)
{
	return (unsigned)f < DF_N ? figures[f].name : "?";
}

const char *disk_figure_label(enum disk_figure f)
{
	return (unsigned)f < DF_N ? figures[f].label : "?";
}

int disk_figure_parse(const char *name)
{
	for (int f = 0; f < DF_N; f++)
		if (!strcmp(name, figures[f].name) || !strcmp(name, figures[f].label))
			return f;
	return -1;
}

double disk_rate_figure(const struct disk_rate *d, enum disk_figure f)
{
	if ((unsigned)f >= DF_N || !d->have_rate || !(d->figures & (UINT32_C(1) << f)))
		return NAN;
	switch (f) {
	case DF_R_S: return d->r_s;
	case DF_W_S: return d->w_s;
	case DF_RKB_S: return d->rkB_s;
	case DF_WKB_S: return d->wkB_s;
	case DF_R_AWAIT: return d->r_await;
	case DF_W_AWAIT: return d->w_await;
	case DF_AQU_SZ: return d->aqu_sz;
	case DF_UTIL: return d->util;
	case DF_D_S: return d->d_s;
	case DF_DKB_S: return d->dkB_s;
	case DF_F_S: return d->f_s;
	case DF_RRQM_S: return d->rrqm_s;
	case DF_WRQM_S: return d->wrqm_s;
	case DF_RRQM_PCT: return d->rrqm_pct;
	case DF_WRQM_PCT: return d->wrqm_pct;
	case DF_RAREQ_SZ: return d->rareq_sz;
	case DF_WAREQ_SZ: return d->wareq_sz;
	case DF_DRQM_S: return d->drqm_s;
	case DF_DRQM_PCT: return d->drqm_pct;
	case DF_D_AWAIT: return d->d_await;
	case DF_DAREQ_SZ: return d->dareq_sz;
	case DF_F_AWAIT: return d->f_await;
	case DF_N: break;
	}
	return NAN;
}

/* x / n, 0 when nothing was done (iostat prints 0.00 there too). */
static double per(double x, double n)
{
	return n > 0 ? x / n : 0;
}

/* iostat -x (sysstat's write_ext_stat and compute_ext_disk_stats) over one
 * interval: the same formulas for the three kinds of request. */
void derive_disk_rates(const uint64_t delta[DS_NFIELDS], int nfields, double dt,
		       struct disk_rate *out)
{
	double rd = delta[DS_READS], wr = delta[DS_WRITES], dc = delta[DS_DISCARDS];
	double rm = delta[DS_READS_MERGED], wm = delta[DS_WRITES_MERGED];
	double dm = delta[DS_DISCARDS_MERGED], fl = delta[DS_FLUSHES];

	out->have_rate = dt > 0 && nfields > 0;
	out->figures = 0;
	if (!out->have_rate)
		return;
	for (int f = 0; f < DF_N; f++)
		if (diskstat_has_field(nfields, figures[f].needs))
			out->figures |= UINT32_C(1) << f;
	out->r_s = rd / dt;
	out->w_s = wr / dt;
	out->rkB_s = delta[DS_SECTORS_READ] / 2.0 / dt;
	out->wkB_s = delta[DS_SECTORS_WRITTEN] / 2.0 / dt;
	out->rrqm_s = rm / dt;
	out->wrqm_s = wm / dt;
	out->rrqm_pct = per(rm * 100.0, rm + rd);
	out->wrqm_pct = per(wm * 100.0, wm + wr);
	out->rareq_sz = per(delta[DS_SECTORS_READ] / 2.0, rd);
	out->wareq_sz = per(delta[DS_SECTORS_WRITTEN] / 2.0, wr);
	out->r_await = per(delta[DS_MS_READING], rd);
	out->w_await = per(delta[DS_MS_WRITING], wr);
	out->aqu_sz = delta[DS_WEIGHTED_MS_IO] / (dt * 1000.0);
	out->util = delta[DS_MS_IO] / (dt * 10.0);
	if (out->util > 100.0)
		out->util = 100.0;   /* io_ticks may run a tick ahead of our clock */
	out->d_s = dc / dt;
	out->dkB_s = delta[DS_SECTORS_DISCARDED] / 2.0 / dt;
	out->drqm_s = dm / dt;
	out->drqm_pct = per(dm * 100.0, dm + dc);
	out->d_await = per(delta[DS_MS_DISCARDING], dc);
	out->dareq_sz = per(delta[DS_SECTORS_DISCARDED] / 2.0, dc);
	out->f_s = fl / dt;
	out->f_await = per(delta[DS_MS_FLUSHING], fl);
}

static void derive_disk(const struct snap_disk *prev, const struct snap_disk *cur,
			double dt, struct disk_rate *out)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->name, cur->name, sizeof(out->name));
	out->is_partition = cur->is_partition;
	if (!prev || dt <= 0)
		return;
	/* the kernel's line kept its layout: 4 on one end and 11+ on the
	 * other is a different device, not fewer fields */
	if ((prev->nfields == 4) != (cur->nfields == 4))
		out->nfields = 0;
	else
		out->nfields = prev->nfields < cur->nfields ? prev->nfields : cur->nfields;
	if (out->nfields == 0)
		return;   /* an unreadable line on either end: n/a */
	for (int f = 0; f < DS_NFIELDS; f++) {
		if (f == DS_IOS_IN_PROGRESS || !diskstat_has_field(out->nfields, f))
			continue;
		if (!counter_delta(prev->f[f], cur->f[f], diskstat_bits[f], &out->delta[f])) {
			/* re-created under the same name: no rate this interval,
			 * and nothing of this fall may reach a recording */
			out->reset = true;
			memset(out->delta, 0, sizeof(out->delta));
			return;
		}
	}
	if (diskstat_has_field(out->nfields, DS_IOS_IN_PROGRESS))
		out->delta[DS_IOS_IN_PROGRESS] = cur->f[DS_IOS_IN_PROGRESS];   /* a gauge */
	derive_disk_rates(out->delta, out->nfields, dt, out);
}

/* iostat's rule: a device that never did I/O since boot is not listed
 * unless asked for (ALL).  One whose line could not be read may have: it
 * is listed, n/a, rather than hidden. */
static bool disk_was_used(const struct snap_disk *d)
{
	return d->nfields == 0 || d->f[DS_READS] || d->f[DS_WRITES] ||
	       (diskstat_has_field(d->nfields, DS_DISCARDS) && d->f[DS_DISCARDS]) ||
	       (diskstat_has_field(d->nfields, DS_FLUSHES) && d->f[DS_FLUSHES]);
}

/* The disk a partition belongs to: the whole disk listed last before it,
 * when the partition's name extends it (the kernel lists a disk's
 * partitions right after it).  Only the partitions between are walked:
 * linear over a list, however many disks it has. */
static const struct snap_disk *partition_parent(const struct snapshot *s, int i)
{
	const struct snap_disk *p = &s->disks[i];

	for (int k = i - 1; k >= 0; k--) {
		const struct snap_disk *d = &s->disks[k];
		if (d->is_partition)
			continue;
		return strncmp(p->name, d->name, strlen(d->name)) ? NULL : d;
	}
	return NULL;
}

static bool disk_is_shown(const struct snapshot *s, int i, const struct derive_opts *o)
{
	const struct snap_disk *d = &s->disks[i];

	if (!o->all_disks && !disk_was_used(d))
		return false;
	if (!d->is_partition)
		return true;
	if (o->all_partitions)
		return true;
	const struct snap_disk *parent = partition_parent(s, i);
	for (int k = 0; parent && k < o->npartitions_of; k++)
		if (!strcmp(parent->name, o->partitions_of[k]))
			return true;
	return false;
}

int derive_opts_parse_partitions(struct derive_opts *o, const char *arg,
				 char *err, size_t errlen)
{
	const char *p = arg;

	if (!strcmp(arg, "ALL")) {
		o->all_partitions = true;
		return 0;
	}
	while (*p) {
		size_t n = strcspn(p, ",");
		if (n == 0 || n >= SNAP_DISK_NAME_LEN || o->npartitions_of == 8) {
			snprintf(err, errlen, "-p wants ALL or up to 8 disk names separated by commas "
				 "(e.g. -p sda,nvme0n1), not '%s'", arg);
			return -EINVAL;
		}
		if (!strncmp(p, "/dev/", 5) && n > 5) {
			p += 5;   /* iostat takes /dev/sda too */
			n -= 5;
		}
		memcpy(o->partitions_of[o->npartitions_of], p, n);
		o->partitions_of[o->npartitions_of++][n] = '\0';
		p += n;
		if (*p == ',')
			p++;
	}
	if (!o->npartitions_of) {
		snprintf(err, errlen, "-p wants ALL or disk names (e.g. -p sda), not an empty list");
		return -EINVAL;
	}
	return 0;
}

static bool same_disk(const struct snap_disk *a, const struct snap_disk *b)
{
	return a->major == b->major && a->minor == b->minor && !strcmp(a->name, b->name);
}

/* prev's device that is cur's device i: at the same index while the
 * kernel's list stays as it was; else by name through *byname, made from
 * prev the first time a device is not where it was (hotplug). */
static const struct snap_disk *prev_disk(const struct snapshot *prev, const struct snap_disk *d,
					 int i, struct namemap *byname, bool *made, bool *nomem)
{
	if (i < prev->ndisks && same_disk(&prev->disks[i], d))
		return &prev->disks[i];
	if (!*made) {
		*made = true;
		for (int k = 0; k < prev->ndisks && !*nomem; k++)
			*nomem = namemap_put(byname, prev->disks[k].name, k) != 0;
	}
	int k = *nomem ? -1 : namemap_get(byname, d->name);
	if (k < 0 && *nomem) {
		/* no memory for the map: the slow walk, still right */
		for (k = 0; k < prev->ndisks && !same_disk(&prev->disks[k], d); k++)
			;
		return k < prev->ndisks ? &prev->disks[k] : NULL;
	}
	return k >= 0 && same_disk(&prev->disks[k], d) ? &prev->disks[k] : NULL;
}

int derive_sample(const struct snapshot *prev, const struct snapshot *cur,
		  uint64_t t0_mono_ns, uint64_t seq, const struct derive_opts *opts,
		  struct sample *out)
{
	static const struct derive_opts defaults;

	if (!opts)
		opts = &defaults;
	sample_reset(out);
	out->seq = seq;
	out->t = cur->mono_ns >= t0_mono_ns ? (cur->mono_ns - t0_mono_ns) / 1e9 : 0;
	out->dt = prev && cur->mono_ns > prev->mono_ns ? (cur->mono_ns - prev->mono_ns) / 1e9 : 0;
	out->realtime_ns = cur->realtime_ns;
	out->zone = ZONE_UNKNOWN;

	/* page counts times the page size must not wrap: a count past any
	 * memory (a damaged file, a bogus pmcd) makes the figures n/a */
	if ((cur->have & SNAP_HAVE_VMSTAT) &&
	    cur->nr_dirty <= SNAP_PAGES_MAX && cur->nr_writeback <= SNAP_PAGES_MAX &&
	    cur->nr_dirty_threshold <= SNAP_PAGES_MAX && cur->nr_dirty_background_threshold <= SNAP_PAGES_MAX &&
	    (cur->page_kb ? cur->page_kb : 4) <= 1024) {
		unsigned pk = cur->page_kb ? cur->page_kb : 4;
		out->have_dirty = true;
		out->dirty_kb = cur->nr_dirty * pk;
		out->writeback_kb = cur->nr_writeback * pk;
		out->bg_thresh_kb = cur->nr_dirty_background_threshold * pk;
		out->thresh_kb = cur->nr_dirty_threshold * pk;
		out->freerun_kb = dirty_freerun(cur->nr_dirty_threshold,
						cur->nr_dirty_background_threshold) * pk;
		out->zone = dirty_zone_of(cur->nr_dirty, cur->nr_writeback,
					  cur->nr_dirty_background_threshold,
					  cur->nr_dirty_threshold);
	}
	out->meminfo_unread = !(cur->have & SNAP_HAVE_MEMINFO) || (cur->have & SNAP_MEMINFO_CARRIED);
	if (cur->have & SNAP_HAVE_MEMINFO) {
		out->meminfo_dirty_kb = cur->dirty_kb;
		out->meminfo_writeback_kb = cur->writeback_kb;
	}
	if (cur->have & SNAP_HAVE_PSI_IO) {
		out->have_psi = true;
		out->psi_io_some_avg10 = cur->psi_io_some_avg10;
		out->psi_io_full_avg10 = cur->psi_io_full_avg10;
	}
	if (!(cur->have & SNAP_HAVE_DISKS))
		return 0;
	if (sample_reserve_disks(out, cur->ndisks))
		return -ENOMEM;
	bool prev_disks = prev && (prev->have & SNAP_HAVE_DISKS);
	struct namemap byname = { 0 };
	bool made = false, nomem = false;
	for (int i = 0; i < cur->ndisks; i++) {
		const struct snap_disk *d = &cur->disks[i];
		if (!disk_is_shown(cur, i, opts))
			continue;
		/* a device new since the last sample has no rate yet (hotplug);
		 * one that vanished is simply not in cur */
		const struct snap_disk *p = prev_disks ? prev_disk(prev, d, i, &byname, &made, &nomem) : NULL;
		derive_disk(p, d, out->dt, &out->disks[out->ndisks++]);
	}
	namemap_free(&byname);
	return 0;
}

void dirty_tracker_update(struct dirty_tracker *tr, struct sample *s)
{
	bool hit = s->have_dirty && s->zone >= ZONE_THROTTLE;

	s->hit_event = 0;
	s->hit_duration = 0;
	if (hit && !tr->in_hit) {
		tr->in_hit = true;
		tr->start_t = s->t;
		tr->hits++;
		s->hit_event = +1;
	} else if (!hit && tr->in_hit) {
		tr->in_hit = false;
		s->hit_duration = s->t - tr->start_t;
		tr->closed_seconds += s->hit_duration;
		s->hit_event = -1;
	}
	s->hits = tr->hits;
	s->hit_seconds = tr->closed_seconds + (tr->in_hit ? s->t - tr->start_t : 0);
}
