/* runsum: per-run device / page-cache figures and the verdict (runsum.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/results/runsum.h"
#include "iodash/parsers/units.h"

void runsum_begin(struct runsum_acc *a, const struct snapshot *start)
{
	struct snapshot keep = a->start;   /* its disks[], reused */

	memset(a, 0, sizeof(*a));
	a->start.disks = keep.disks;
	a->start.disks_cap = keep.disks_cap;
	if (start)
		a->have_start = snapshot_copy(&a->start, start) == 0;
}

void runsum_release(struct runsum_acc *a)
{
	snapshot_free(&a->start);
	a->have_start = false;
}

static void note_level(struct runsum_acc *a, uint64_t kB, uint64_t freerun, uint64_t thresh)
{
	if (!a->have_dirty || kB > a->peak_kB) {
		a->peak_kB = kB;
		a->peak_freerun_kB = freerun;
		a->peak_thresh_kB = thresh;
	}
	a->have_dirty = true;
}

void runsum_add_sample(struct runsum_acc *a, const struct sample *s)
{
	if (!s->have_dirty)
		return;
	note_level(a, s->dirty_kb + s->writeback_kb, s->freerun_kb, s->thresh_kb);
	if (s->zone >= ZONE_THROTTLE)
		a->sampled_throttled_s += s->dt;
	if (s->thr_src != THR_SRC_KERNEL)
		return;
	for (int i = 0; i < s->nwriters && i < (int)(sizeof(s->writers) / sizeof(s->writers[0])); i++)
		if (runsum_has_task(a, s->writers[i].pid)) {
			a->own_pauses += s->writers[i].pauses;
			a->own_paused_ms += s->writers[i].paused_ms;
		}
}

bool runsum_has_task(const struct runsum_acc *a, pid_t tid)
{
	for (int i = 0; i < a->ntasks; i++)
		if (a->tasks[i] == tid)
			return true;
	return false;
}

bool runsum_add_task(struct runsum_acc *a, pid_t tid)
{
	if (tid <= 0 || runsum_has_task(a, tid))
		return true;
	if (a->ntasks >= RUNSUM_MAX_TASKS)
		return false;
	a->tasks[a->ntasks++] = tid;
	return true;
}

void runsum_add_tick(struct runsum_acc *a, double dt, double rw_Bps, int blocked_tasks, int paused_tasks)
{
	if (dt <= 0)
		return;
	a->ticks++;
	if (paused_tasks > 0)
		a->caught_s += dt;
	/* a writer paused, or a direct write waiting on the disk, through
	 * the whole tick moved nothing, and was doing I/O all the same */
	if (!(rw_Bps >= RUNSUM_IO_FLOOR_BPS) && blocked_tasks <= 0 && paused_tasks <= 0)
		return;
	a->io_secs += dt;
	if (rw_Bps > 0)
		a->tree_Bps_sum += rw_Bps * dt;
}

void runsum_set_end(struct runsum_acc *a, enum run_end_kind how)
{
	a->ended = how;
}

void runsum_set_tree_total(struct runsum_acc *a, double bytes)
{
	a->have_tree_total = true;
	a->tree_total_B = bytes;
}

void runsum_set_episodes(struct runsum_acc *a, const struct run_episodes *e)
{
	a->eps = *e;
}

void runsum_add_result(struct runsum_acc *a, const struct result_point *p)
{
	double f = units_get_factor(p->unit, UNITS_RATE);
	size_t ml = strlen(p->metric);
	bool bw = ml > 3 && !strcmp(p->metric + ml - 3, "_bw");

	if (!f || !isfinite(p->value) || (p->flags & RP_PROGRESS))
		return;
	if (bw && a->reported_is_bw) {
		a->reported_Bps += p->value * f;     /* fio: read + write */
	} else if (!a->have_reported || (bw && !a->reported_is_bw)) {
		a->reported_Bps = p->value * f;
		a->reported_is_bw = bw;
	}
	a->have_reported = true;
}

static uint64_t disk_bytes(const struct snapshot *a, const struct snapshot *b, int field)
{
	uint64_t sum = 0;

	/* whole disks only: a partition's sectors are its disk's too */
	for (int i = 0; i < b->ndisks; i++) {
		const struct snap_disk *d = &b->disks[i];
		/* at the same index while the kernel's list stayed as it was */
		const struct snap_disk *p = d->is_partition ? NULL
			: i < a->ndisks && !strcmp(a->disks[i].name, d->name) ? &a->disks[i]
			: snapshot_find_disk(a, d->name);
		uint64_t sectors;
		/* sectors: unsigned long, 512 B; a device re-created during the
		 * run (a reset, not a wrap) adds nothing rather than 2^64 */
		if (p && p->nfields > field && d->nfields > field &&
		    counter_delta(p->f[field], d->f[field], 64, &sectors))
			sum += sectors * 512;
	}
	return sum;
}

void runsum_finish(const struct runsum_acc *a, const struct snapshot *end, double secs,
		   double traced_pause_ms, struct run_summary *out)
{
	struct runsum_acc acc = *a;

	memset(out, 0, sizeof(*out));
	out->secs = secs;
	out->io_secs = a->io_secs;
	if (end && (end->have & SNAP_HAVE_VMSTAT)) {
		uint64_t thresh = end->nr_dirty_threshold * end->page_kb;
		uint64_t bg = end->nr_dirty_background_threshold * end->page_kb;
		out->end_kB = (end->nr_dirty + end->nr_writeback) * end->page_kb;
		note_level(&acc, out->end_kB, dirty_freerun(thresh, bg), thresh);
	}
	if (acc.have_dirty) {
		out->have_dirty = true;
		out->peak_kB = acc.peak_kB;
		out->freerun_kB = acc.peak_freerun_kB;
		out->thresh_kB = acc.peak_thresh_kB;
	}
	if (a->have_start && end && (a->start.have & SNAP_HAVE_DISKS) && (end->have & SNAP_HAVE_DISKS)) {
		double t = a->io_secs > 0 ? a->io_secs : secs;
		out->have_disks = true;
		out->read_B = disk_bytes(&a->start, end, DS_SECTORS_READ);
		out->write_B = disk_bytes(&a->start, end, DS_SECTORS_WRITTEN);
		out->device_Bps = t > 0 ? (out->read_B + out->write_B) / t : 0;
	}
	if (a->have_reported) {
		out->have_reported = true;
		out->reported_Bps = a->reported_Bps;
	} else {
		/* no figure of its own: what its processes moved, as the ticks
		 * saw it, or (all of it between two ticks: dd of 200 MB into
		 * the cache in 0.09 s, or a tick that found it blocked and
		 * moving nothing yet) what the tree moved by its exit, over
		 * the run: the larger */
		double ticks_Bps = a->io_secs > 0 ? a->tree_Bps_sum / a->io_secs : 0;
		double exit_Bps = a->have_tree_total && a->tree_total_B >= RUNSUM_TREE_MIN_B && secs > 0
				  ? a->tree_total_B / secs : 0;
		if (a->io_secs > 0 || exit_Bps > 0) {
			out->have_reported = true;
			out->reported_Bps = ticks_Bps > exit_Bps ? ticks_Bps : exit_Bps;
		}
	}
	if (out->have_reported && out->have_disks)
		out->inflation = out->device_Bps > 0 ? out->reported_Bps / out->device_Bps : INFINITY;
	else
		out->inflation = NAN;
	if (traced_pause_ms >= 0) {
		out->throttle_src = THR_SRC_KERNEL;
		out->throttled_s = traced_pause_ms / 1000.0;
	} else {
		/* the ticks that found one of its tasks asleep in
		 * balance_dirty_pages: its own pauses, sampled; the zone's
		 * time (any writer's) only when no tick saw its tree */
		out->throttle_src = THR_SRC_SAMPLED;
		out->throttled_s = a->ticks ? a->caught_s : a->sampled_throttled_s;
	}
	/* a share of the time the benchmark was moving data: the only time
	 * it could be throttled (its start-up and exit cannot) */
	double busy = a->io_secs > 0 ? a->io_secs : secs;
	if (out->throttled_s > busy)
		out->throttled_s = busy;
	out->throttled_pct = busy > 0 ? out->throttled_s / busy * 100.0 : 0;
	out->ended = a->ended;
	out->eps = a->eps;
	out->verdict = runsum_verdict(out);
	out->na = out->verdict == RV_UNKNOWN ? runsum_na_reason(out) : RNA_NONE;
}

enum run_na runsum_na_reason(const struct run_summary *s)
{
	/* a broken run's figures are of the breakage, not of the system */
	if (s->ended == RUN_ENDED_FAILED)
		return RNA_FAILED;
	if (s->ended == RUN_ENDED_STOPPED)
		return RNA_STOPPED;
	/* its own pauses are evidence enough (of the limit and its share) */
	if (s->throttled_pct >= RUNSUM_THROTTLED_SHARE * 100.0)
		return RNA_NONE;
	/* no tick saw its tree move data or wait in D, and it reported no
	 * rate: nothing to judge (sleep 3 is neither device nor cache) */
	if (!s->have_reported || !(s->reported_Bps > 0))
		return RNA_NO_IO;
	if (!s->have_disks)
		return RNA_NO_DISKS;
	return RNA_NONE;
}

enum run_verdict runsum_verdict(const struct run_summary *s)
{
	if (runsum_na_reason(s) != RNA_NONE)
		return RV_UNKNOWN;
	/* balance_dirty_pages set the figure: the limit was reached (the
	 * tracepoint saw the benchmark paused; sampled, the ticks found it
	 * asleep there) and the pauses took a real share of its time */
	if (s->throttled_pct >= RUNSUM_THROTTLED_SHARE * 100.0)
		return RV_THROTTLED;
	/* Pauses under that share are a budget, not a veto: they cost the
	 * figure less than 18 %, and a figure over RUNSUM_CACHE_INFLATION
	 * times the disks' is the page cache's all the same (one 12 ms pause
	 * in a run of inflation 7.37 used to make it "device").  A read
	 * served from the cache is cache too: the disks did not do it. */
	if (s->inflation > RUNSUM_CACHE_INFLATION)
		return RV_CACHE;
	return RV_DEVICE;
}

const char *runsum_na_name(enum run_na n)
{
	switch (n) {
	case RNA_NO_IO: return "no_io";
	case RNA_FAILED: return "failed";
	case RNA_STOPPED: return "stopped";
	case RNA_NO_DISKS: return "no_disks";
	case RNA_NONE: break;
	}
	return "";
}

const char *runsum_verdict_name(enum run_verdict v)
{
	switch (v) {
	case RV_DEVICE: return "device";
	case RV_CACHE: return "cache";
	case RV_THROTTLED: return "throttled";
	case RV_UNKNOWN: break;
	}
	return "n/a";
}

void runsum_format(const struct run_summary *s, char *buf, size_t len)
{
	size_t off = 0;
	bool full = false;

	if (!len)
		return;
	buf[0] = '\0';
	/* whole words only: the first group that does not fit ends the text,
	 * never cut in a word (the reader takes key=value words) */
#define ADD(...) do { if (!full) { int w_ = snprintf(buf + off, len - off, __VA_ARGS__); \
		if (w_ > 0 && (size_t)w_ < len - off) off += (size_t)w_; else { buf[off] = '\0'; full = true; } } } while (0)
	ADD("%s:", runsum_verdict_name(s->verdict));
	if (s->verdict == RV_UNKNOWN && s->na != RNA_NONE)
		ADD(" why=%s", runsum_na_name(s->na));
	ADD(" secs=%.3g io_s=%.3g", s->secs, s->io_secs);
	if (s->have_disks)
		ADD(" read_B=%llu write_B=%llu dev_Bps=%.4g", (unsigned long long)s->read_B,
		    (unsigned long long)s->write_B, s->device_Bps);
	if (s->have_reported)
		ADD(" rep_Bps=%.4g", s->reported_Bps);
	if (!isnan(s->inflation))
		ADD(" infl=%.3g", s->inflation);
	if (s->have_dirty)
		ADD(" peak_kB=%llu freerun_kB=%llu thresh_kB=%llu end_kB=%llu", (unsigned long long)s->peak_kB,
		    (unsigned long long)s->freerun_kB, (unsigned long long)s->thresh_kB,
		    (unsigned long long)s->end_kB);
	ADD(" thr_s=%.3g thr_pct=%.3g thr_src=%s", s->throttled_s, s->throttled_pct,
	    s->throttle_src == THR_SRC_KERNEL ? "tracepoint" : "sampled");
	/* one word, the line has little room left: count, first start (s
	 * after the run's start), paused s, duty % */
	if (s->eps.have && s->eps.count)
		ADD(" eps=%u,%.3g,%.3g,%.2g", s->eps.count, s->eps.first_s, s->eps.paused_s, s->eps.duty_pct);
	else if (s->eps.have)
		ADD(" eps=0");
#undef ADD
}

int runsum_parse(const char *text, struct run_summary *out)
{
	char buf[512], *save = NULL, *w;
	const char *colon = strchr(text, ':');
	bool any = false;

	memset(out, 0, sizeof(*out));
	out->inflation = NAN;
	if (!colon)
		return -EINVAL;
	/* "run 2/4 throttled: ..." or "throttled: ..." */
	const char *v = colon;
	while (v > text && v[-1] != ' ')
		v--;
	for (int k = RV_DEVICE; k <= RV_THROTTLED; k++)
		if ((size_t)(colon - v) == strlen(runsum_verdict_name(k)) &&
		    !strncmp(v, runsum_verdict_name(k), (size_t)(colon - v)))
			out->verdict = k;
	snprintf(buf, sizeof(buf), "%s", colon + 1);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');
		if (!eq)
			continue;
		*eq++ = '\0';
		double d = strtod(eq, NULL);
		unsigned long long u = strtoull(eq, NULL, 10);
		any = true;
		if (!strcmp(w, "secs")) out->secs = d;
		else if (!strcmp(w, "io_s")) out->io_secs = d;
		else if (!strcmp(w, "read_B")) { out->read_B = u; out->have_disks = true; }
		else if (!strcmp(w, "write_B")) { out->write_B = u; out->have_disks = true; }
		else if (!strcmp(w, "dev_Bps")) out->device_Bps = d;
		else if (!strcmp(w, "rep_Bps")) { out->reported_Bps = d; out->have_reported = true; }
		else if (!strcmp(w, "infl")) out->inflation = d;
		else if (!strcmp(w, "peak_kB")) { out->peak_kB = u; out->have_dirty = true; }
		else if (!strcmp(w, "freerun_kB")) out->freerun_kB = u;
		else if (!strcmp(w, "thresh_kB")) out->thresh_kB = u;
		else if (!strcmp(w, "end_kB")) out->end_kB = u;
		else if (!strcmp(w, "thr_s")) out->throttled_s = d;
		else if (!strcmp(w, "thr_pct")) out->throttled_pct = d;
		else if (!strcmp(w, "thr_src")) out->throttle_src = !strcmp(eq, "tracepoint") ? THR_SRC_KERNEL : THR_SRC_SAMPLED;
		else if (!strcmp(w, "eps")) {
			char *e = NULL;
			out->eps.have = true;
			out->eps.count = (unsigned)u;
			out->eps.first_s = -1;
			if ((e = strchr(eq, ',')))
				out->eps.first_s = strtod(e + 1, &e);
			if (e && *e == ',')
				out->eps.paused_s = strtod(e + 1, &e);
			if (e && *e == ',')
				out->eps.duty_pct = strtod(e + 1, &e);
		}
		else if (!strcmp(w, "why"))
			for (int k = RNA_NO_IO; k <= RNA_NO_DISKS; k++)
				if (!strcmp(eq, runsum_na_name(k)))
					out->na = k;
	}
	return any ? 0 : -EINVAL;
}
