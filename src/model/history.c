/* history: see include/iodash/model/history.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "iodash/model/history.h"

static void bucket_empty(struct hist_bucket *b)
{
	memset(b, 0, sizeof(*b));
	b->zone = ZONE_UNKNOWN;
}

void history_init(struct history *h, double width)
{
	memset(h, 0, offsetof(struct history, rd));
	h->width = width;
	bucket_empty(&h->open);
}

void history_clear(struct history *h)
{
	double width = h->width;
	uint64_t epoch = h->epoch;
	/* the marks are found by count: only the header and the ring's
	 * bucket counts are wiped */
	memset(h, 0, offsetof(struct history, marks));
	h->width = width;
	h->epoch = epoch + 1;
	bucket_empty(&h->open);
	/* a bucket number of before the clear must not pass for one of after */
	for (int b = 0; b < HIST_BUCKETS; b++)
		h->ring[b].n = 0;
}

int history_slot(const struct history *h, const char *disk)
{
	for (int i = 0; i < h->nslots; i++)
		if (!strcmp(h->disk[i], disk))
			return i;
	return -1;
}

/* A slot for a disk first seen doing I/O: a new one, or, all taken, one
 * whose disk this sample did not list (slot_seen, set as the sample's
 * disks were looked up: no walk of the sample's list a slot); its old
 * rates are dropped from what is held.  -1 when every slot's disk is in
 * this sample: that disk has no graph row. */
static int slot_take(struct history *h, const char *disk, uint64_t seen)
{
	int slot = -1;
	if (h->nslots < HIST_DISKS) {
		slot = h->nslots++;
	} else {
		for (int i = 0; i < HIST_DISKS && slot < 0; i++)
			if (h->slot_seen[i] != seen)
				slot = i;
		for (int i = 0; i < HIST_DISKS && slot < 0; i++)
			if (!h->slot_busy[i])
				slot = i;
		if (slot < 0)
			return -1;
		h->epoch++;              /* buckets a copy holds changed: copy anew */
	}
	/* no rate for the disk in the buckets before it */
	for (int b = 0; b < HIST_BUCKETS; b++)
		h->rd[slot][b] = h->wr[slot][b] = NAN;
	h->rd_sum[slot] = h->wr_sum[slot] = 0;
	h->nrate[slot] = 0;
	h->slot_seen[slot] = seen;
	h->slot_busy[slot] = 0;
	snprintf(h->disk[slot], sizeof(h->disk[slot]), "%s", disk);
	return slot;
}

static void open_close(struct history *h)
{
	struct hist_bucket *o = &h->open;
	size_t at = o->index % HIST_BUCKETS;
	for (int d = 0; d < h->nslots; d++) {
		h->rd[d][at] = h->nrate[d] ? (float)(h->rd_sum[d] / h->nrate[d]) : NAN;
		h->wr[d][at] = h->nrate[d] ? (float)(h->wr_sum[d] / h->nrate[d]) : NAN;
		h->rd_sum[d] = h->wr_sum[d] = 0;
		h->nrate[d] = 0;
	}
	h->ring[at] = *o;
	h->nclosed = o->index + 1;
	bucket_empty(o);
}

void history_fold(struct history *h, const struct sample *s)
{
	if (h->nsamples && s->seq <= h->seq_last)
		return;
	if (!h->nsamples) {
		h->seq0 = s->seq;
		h->t0 = s->t;
	} else if (!h->k) {
		/* the second sample: one refresh period at this interval */
		double per = s->t - h->t_last;
		long k = h->width > 0 && per > 0 ? lround(h->width / per) : 1;
		h->k = k < 1 ? 1 : (int)k;
	}
	h->nsamples++;
	h->seq_last = s->seq;
	h->t_last = s->t;

	struct hist_mark *mk = &h->marks[h->nmarks++ % HIST_MARKS];
	mk->t = s->t;
	mk->zone = (signed char)s->zone;
	mk->have_dirty = s->have_dirty;
	mk->throttled = s->throttled;

	uint64_t k = h->k ? (uint64_t)h->k : 1, idx = (s->seq - h->seq0) / k;
	struct hist_bucket *o = &h->open;
	if (o->n && o->index != idx)
		open_close(h);           /* samples skipped the rest of it */
	if (!o->n) {
		o->index = idx;
		o->seq = s->seq;
		o->t = s->t;
	}
	o->n++;
	o->kernel |= s->thr_src == THR_SRC_KERNEL;
	o->throttled |= s->throttled;
	if (s->have_dirty) {
		o->have_dirty = true;
		o->level_kb = fmax(o->level_kb, (double)(s->dirty_kb + s->writeback_kb));
		o->bg_kb = (double)s->bg_thresh_kb;
		o->freerun_kb = (double)s->freerun_kb;
		o->thresh_kb = (double)s->thresh_kb;
		if (s->zone > o->zone)
			o->zone = s->zone;
	}
	/* the rows' disks where they were in the last sample (the kernel's
	 * list rarely changes), looked for by name only when not there: a
	 * constant per row, so a sample costs what its devices cost */
	uint64_t seen = s->seq + 1;
	bool relist = s->ndisks != h->last_ndisks, room = h->nslots < HIST_DISKS;
	h->last_ndisks = s->ndisks;
	for (int i = 0; i < h->nslots; i++) {
		int j = h->slot_at[i];
		if (j >= 0 && (j >= s->ndisks || strcmp(s->disks[j].name, h->disk[i])))
			j = -2;
		if (j == -2 || (j == -1 && relist))
			for (j = 0; j < s->ndisks && strcmp(s->disks[j].name, h->disk[i]); j++)
				;
		h->slot_at[i] = j >= 0 && j < s->ndisks ? j : -1;
		if (h->slot_at[i] < 0) {
			room = true;
			continue;
		}
		const struct disk_rate *d = &s->disks[h->slot_at[i]];
		h->slot_seen[i] = seen;
		if (d->have_rate && (d->rkB_s > 0 || d->wkB_s > 0))
			h->slot_busy[i] = seen;
		if (d->have_rate) {
			h->rd_sum[i] += d->rkB_s;
			h->wr_sum[i] += d->wkB_s;
			h->nrate[i]++;
		}
	}
	/* a row for a disk without one: any with a rate while rows are free,
	 * then one doing I/O, while a row is free or held by a disk that
	 * never did any */
	for (int i = 0; i < h->nslots && !room; i++)
		room = !h->slot_busy[i];
	for (int j = 0; j < s->ndisks && room; j++) {
		const struct disk_rate *d = &s->disks[j];
		bool has = false, busy = d->have_rate && (d->rkB_s > 0 || d->wkB_s > 0);
		if (!d->have_rate || (!busy && h->nslots >= HIST_DISKS))
			continue;
		for (int i = 0; i < h->nslots && !has; i++)
			has = h->slot_at[i] == j && h->slot_seen[i] == seen;
		if (has)
			continue;
		int slot = slot_take(h, d->name, seen);
		if (slot < 0)
			break;   /* every row's disk is in this sample, and busy */
		h->slot_at[slot] = j;
		h->slot_busy[slot] = busy ? seen : 0;
		h->rd_sum[slot] += d->rkB_s;
		h->wr_sum[slot] += d->wkB_s;
		h->nrate[slot]++;
	}
	/* the bucket's last sample: complete now, not at the next one */
	if (h->k && (s->seq - h->seq0 + 1) % k == 0)
		open_close(h);
}

/* The rows of the slots in use, whole. */
static void copy_rows(struct history *dst, const struct history *src)
{
	for (int d = 0; d < src->nslots; d++) {
		memcpy(dst->rd[d], src->rd[d], sizeof(src->rd[d]));
		memcpy(dst->wr[d], src->wr[d], sizeof(src->wr[d]));
	}
}

void history_copy(struct history *dst, const struct history *src)
{
	if (!dst->nsamples || dst->epoch != src->epoch || dst->width != src->width ||
	    dst->nsamples > src->nsamples || dst->nslots != src->nslots ||
	    src->nclosed - dst->nclosed >= HIST_BUCKETS || src->nmarks - dst->nmarks >= HIST_MARKS) {
		memcpy(dst, src, offsetof(struct history, rd));
		copy_rows(dst, src);
		return;
	}
	for (uint64_t b = dst->nclosed; b < src->nclosed; b++) {
		size_t at = b % HIST_BUCKETS;
		dst->ring[at] = src->ring[at];
		for (int d = 0; d < src->nslots; d++) {
			dst->rd[d][at] = src->rd[d][at];
			dst->wr[d][at] = src->wr[d][at];
		}
	}
	for (uint64_t i = dst->nmarks; i < src->nmarks; i++)
		dst->marks[i % HIST_MARKS] = src->marks[i % HIST_MARKS];
	memcpy(dst, src, offsetof(struct history, marks));
}

const struct hist_bucket *history_bucket(const struct history *h, uint64_t b)
{
	if (b >= h->nclosed || h->nclosed - b > HIST_BUCKETS)
		return NULL;
	const struct hist_bucket *r = &h->ring[b % HIST_BUCKETS];
	return r->index == b && r->n > 0 ? r : NULL;
}

float history_rate(const struct history *h, uint64_t b, int slot, bool write)
{
	if (slot < 0 || slot >= h->nslots || !history_bucket(h, b))
		return NAN;
	return write ? h->wr[slot][b % HIST_BUCKETS] : h->rd[slot][b % HIST_BUCKETS];
}

double history_period(const struct history *h)
{
	if (h->nsamples < 2 || h->seq_last <= h->seq0)
		return -1;
	return (h->t_last - h->t0) / (double)(h->seq_last - h->seq0);
}
