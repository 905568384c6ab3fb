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
#include <string.h>
#include "iodash/derive.h"

/* Kernel print widths of /proc/diskstats fields (block/genhd.c
 * diskstats_show): counts are unsigned long, times are unsigned int. */
static const unsigned char diskstat_bits[DS_NFIELDS] = {
	[DS_READS] = 64, [DS_READS_MERGED] = 64, [DS_SECTORS_READ] = 64, [DS_MS_READING] = 32,
	[DS_WRITES] = 64, [DS_WRITES_MERGED] = 64, [DS_SECTORS_WRITTEN] = 64, [DS_MS_WRITING] = 32,
	[DS_IOS_IN_PROGRESS] = 32, [DS_MS_IO] = 32, [DS_WEIGHTED_MS_IO] = 32,
	[DS_DISCARDS] = 64, [DS_DISCARDS_MERGED] = 64, [DS_SECTORS_DISCARDED] = 64, [DS_MS_DISCARDING] = 32,
	[DS_FLUSHES] = 64, [DS_MS_FLUSHING] = 32,
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

uint64_t dirty_freerun(uint64_t thresh, uint64_t bg_thresh)
{
	return (thresh + bg_thresh) / 2;
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

uint64_t counter_delta(uint64_t prev, uint64_t cur, unsigned bits)
{
	uint64_t d = cur - prev;          /* unsigned: wraps modulo 2^64 */

	if (bits < 64)
		d &= (UINT64_C(1) << bits) - 1;
	return d;
}

/* iostat -x (sysstat's compute_ext_disk_stats) over one interval. */
void derive_disk_rates(const uint64_t delta[DS_NFIELDS], int nfields, double dt,
		       struct disk_rate *out)
{
	double rd = delta[DS_READS], wr = delta[DS_WRITES];

	out->have_rate = dt > 0;
	if (!out->have_rate)
		return;
	out->r_s = rd / dt;
	out->w_s = wr / dt;
	out->rkB_s = delta[DS_SECTORS_READ] / 2.0 / dt;
	out->wkB_s = delta[DS_SECTORS_WRITTEN] / 2.0 / dt;
	out->r_await = rd > 0 ? delta[DS_MS_READING] / rd : 0;
	out->w_await = wr > 0 ? delta[DS_MS_WRITING] / wr : 0;
	out->aqu_sz = delta[DS_WEIGHTED_MS_IO] / (dt * 1000.0);
	out->util = delta[DS_MS_IO] / (dt * 10.0);
	if (out->util > 100.0)
		out->util = 100.0;   /* io_ticks may run a tick ahead of our clock */
	out->d_s = out->dkB_s = out->f_s = 0;
	if (nfields >= 15) {
		out->d_s = delta[DS_DISCARDS] / dt;
		out->dkB_s = delta[DS_SECTORS_DISCARDED] / 2.0 / dt;
	}
	if (nfields >= 17)
		out->f_s = delta[DS_FLUSHES] / dt;
}

static void derive_disk(const struct snap_disk *prev, const struct snap_disk *cur,
			double dt, struct disk_rate *out)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->name, cur->name, sizeof(out->name));
	if (!prev || dt <= 0)
		return;
	out->nfields = prev->nfields < cur->nfields ? prev->nfields : cur->nfields;
	for (int f = 0; f < out->nfields && f < DS_NFIELDS; f++)
		out->delta[f] = counter_delta(prev->f[f], cur->f[f], diskstat_bits[f]);
	out->delta[DS_IOS_IN_PROGRESS] = cur->f[DS_IOS_IN_PROGRESS];   /* a gauge, not a counter */
	derive_disk_rates(out->delta, out->nfields, dt, out);
}

/* Devices iostat hides by default and that only add noise here. */
static bool disk_is_shown(const struct snap_disk *d)
{
	if (d->is_partition)
		return false;   /* never summed with, nor shown beside, its disk */
	if (!strncmp(d->name, "ram", 3))
		return false;
	if (!strncmp(d->name, "loop", 4) || !strncmp(d->name, "zram", 4))
		return d->f[DS_READS] + d->f[DS_WRITES] > 0;   /* only once used */
	return true;
}

static const struct snap_disk *find_same_disk(const struct snapshot *s, const struct snap_disk *d)
{
	for (int i = 0; i < s->ndisks; i++) {
		const struct snap_disk *o = &s->disks[i];
		if (o->major == d->major && o->minor == d->minor && !strcmp(o->name, d->name))
			return o;
	}
	return NULL;
}

void derive_sample(const struct snapshot *prev, const struct snapshot *cur,
		   uint64_t t0_mono_ns, uint64_t seq, struct sample *out)
{
	memset(out, 0, sizeof(*out));
	out->seq = seq;
	out->t = cur->mono_ns >= t0_mono_ns ? (cur->mono_ns - t0_mono_ns) / 1e9 : 0;
	out->dt = prev && cur->mono_ns > prev->mono_ns ? (cur->mono_ns - prev->mono_ns) / 1e9 : 0;
	out->realtime_ns = cur->realtime_ns;
	out->zone = ZONE_UNKNOWN;

	if (cur->have & SNAP_HAVE_VMSTAT) {
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
		return;
	bool prev_disks = prev && (prev->have & SNAP_HAVE_DISKS);
	for (int i = 0; i < cur->ndisks && out->ndisks < SAMPLE_MAX_DISKS; i++) {
		const struct snap_disk *d = &cur->disks[i];
		if (!disk_is_shown(d))
			continue;
		/* a device new since the last sample has no rate yet (hotplug);
		 * one that vanished is simply not in cur */
		const struct snap_disk *p = prev_disks ? find_same_disk(prev, d) : NULL;
		derive_disk(p, d, out->dt, &out->disks[out->ndisks++]);
	}
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
