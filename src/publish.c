/* publish: see publish.h.  One MMV file named "iodash", so the mmv agent
 * names the metrics mmv.iodash.*; MMV_FLAG_PROCESS ties it to this process
 * (the agent drops it when iodash is gone, and libpcp-mmv removes it when
 * iodash ends).  One iodash per machine publishes: a second one started
 * replaces the file of the first. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pcp/pmapi.h>
#include <pcp/mmv_stats.h>

#include "iodash/pcplib.h"
#include "iodash/publish.h"

static const struct pcplib *P;   /* libpcp and libpcp-mmv, loaded by publish_open */

/* an arbitrary cluster number of this file within the mmv agent */
#define PUBLISH_CLUSTER 417

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

struct publisher {
	mmv_registry_t *reg;
	void *map;
	pmAtomValue *v[PUB_N];
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

int publish_open(struct publisher **out, char *err, size_t errlen)
{
	struct publisher *p;
	struct stat st;
	char dir[PATH_MAX];

	*out = NULL;
	/* no libpcp, or no mmv directory: PCP is not set up here, nobody
	 * would read what iodash publishes */
	if (pcplib_load(PCPLIB_MMV, &P, err, errlen) < 0) {
		err[0] = '\0';
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/mmv", P->pmGetConfig("PCP_TMP_DIR"));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	if (!(p = calloc(1, sizeof(*p)))) {
		snprintf(err, errlen, "not publishing mmv.iodash: out of memory");
		return -ENOMEM;
	}
	p->reg = P->mmv_stats_registry("iodash", PUBLISH_CLUSTER, MMV_FLAG_PROCESS);
	if (!p->reg) {
		snprintf(err, errlen, "not publishing mmv.iodash: libpcp-mmv: %s", strerror(errno));
		free(p);
		return -EIO;
	}
	for (int i = 0; i < PUB_N; i++) {
		const struct pub_def *d = &pub_defs[i];
		if (P->mmv_stats_add_metric(p->reg, d->name, i + 1, d->type, d->sem, pub_units(d->units),
					 0, d->help, d->help) < 0) {
			snprintf(err, errlen, "not publishing mmv.iodash: cannot add metric %s", d->name);
			P->mmv_stats_free(p->reg);
			free(p);
			return -EINVAL;
		}
	}
	if (!(p->map = P->mmv_stats_start(p->reg))) {
		int e = errno ? errno : EIO;
		snprintf(err, errlen, "not publishing mmv.iodash: cannot create %s/iodash: %s "
			 "(--no-publish to not try)", dir, strerror(e));
		P->mmv_stats_free(p->reg);
		free(p);
		return -e;
	}
	for (int i = 0; i < PUB_N; i++)
		p->v[i] = P->mmv_lookup_value_desc(p->map, pub_defs[i].name, NULL);
	*out = p;
	return 0;
}

static void pub_u64(struct publisher *p, enum pub_metric i, uint64_t v)
{
	if (p->v[i])
		p->v[i]->ull = v;
}

static void pub_u32(struct publisher *p, enum pub_metric i, uint32_t v)
{
	if (p->v[i])
		p->v[i]->ul = v;
}

static void pub_str(struct publisher *p, enum pub_metric i, const char *s)
{
	if (p->v[i])
		P->mmv_set_string(p->map, p->v[i], s, (int)strlen(s));
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
	if (!p)
		return;
	P->mmv_stats_free(p->reg);       /* unmaps and, MMV_FLAG_PROCESS, removes the file */
	free(p);
}
