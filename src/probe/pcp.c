/* pcp: see pcp.h.  One libpcp host context; every metric looked up once
 * (pmLookupName), fetched together each sample (pmFetch), each value
 * extracted as what the snapshot holds (pmExtractValue, with the units
 * pmcd describes scaled to the snapshot's by pmConvScale).
 *
 * The linux agent of pmcd exports the same kernel counters iodash reads
 * from /proc: mem.vmstat.* (vmstat, in pages), mem.util.* (meminfo, KiB),
 * disk.dev.* (diskstats of whole disks), kernel.all.pressure.io.*.  It has
 * no vm.dirty_* knobs: a --host snapshot never has SNAP_HAVE_KNOBS.
 *
 * A fetch that fails for the connection marks the context down; the next
 * read asks libpcp to reconnect (pmReconnectContext), which it does at most
 * as often as PMCD_RECONNECT_TIMEOUT allows: iodash sets it to 1 s unless
 * the user has set it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>
#include <netdb.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <pcp/pmapi.h>

#include "iodash/base/util.h"
#include "iodash/base/pcplib.h"
#include "iodash/sample/sample_schema.h"
#include "pcp.h"

static const struct pcplib *P;   /* libpcp, loaded by probe_pcp_open */

/* meminfo, KiB: pmcd's name of each field of snapshot.h's
 * SNAP_MEMINFO_ITEMS (pmcd's names are not /proc/meminfo's keys). */
#define PCP_MEMINFO(X) \
	X(mem_total_kb, "mem.physmem") \
	X(mem_free_kb, "mem.util.free") \
	X(mem_available_kb, "mem.util.available") \
	X(cached_kb, "mem.util.cached") \
	X(dirty_kb, "mem.util.dirty") \
	X(writeback_kb, "mem.util.writeback")

/* The counters: vmstat's are snapshot.h's SNAP_VMSTAT_ITEMS, in their
 * order, as mem.vmstat.KEY (in pages); meminfo's follow them. */
#define PCP_VM_ENUM(field, key, item, req) PM_VM_##field,
#define PCP_MI_ENUM(field, name) PM_MI_##field,
enum pcp_metric {
	SNAP_VMSTAT_ITEMS(PCP_VM_ENUM)
	PCP_MEMINFO(PCP_MI_ENUM)
	/* pressure */
	PM_PSI_SOME_AVG, PM_PSI_FULL_AVG, PM_PSI_SOME_TOTAL, PM_PSI_FULL_TOTAL,
	/* disks: the first is the one whose instances list the disks */
	PM_DISK_FIRST,
	PM_D_READS = PM_DISK_FIRST, PM_D_READS_MERGED, PM_D_SECTORS_READ, PM_D_MS_READING,
	PM_D_WRITES, PM_D_WRITES_MERGED, PM_D_SECTORS_WRITTEN, PM_D_MS_WRITING,
	PM_D_IN_FLIGHT, PM_D_MS_IO, PM_D_WEIGHTED_MS_IO,
	PM_D_DISCARDS, PM_D_DISCARDS_MERGED, PM_D_SECTORS_DISCARDED, PM_D_MS_DISCARDING,
	PM_D_FLUSHES, PM_D_MS_FLUSHING,
	PM_N
};
#undef PCP_VM_ENUM
#undef PCP_MI_ENUM
#define PCP_MI_COUNT_ONE(field, name) + 1
#define PM_VM_END (0 SNAP_VMSTAT_ITEMS(SNAP_ITEM_COUNT_ONE))
#define PM_MI_END (PM_VM_END + SNAP_MEMINFO_NITEMS)
_Static_assert((0 PCP_MEMINFO(PCP_MI_COUNT_ONE)) == SNAP_MEMINFO_NITEMS, "every meminfo item has its pmcd name");
_Static_assert(PM_MI_END == PM_PSI_SOME_AVG, "the counters come first");
/* disk.dev.* in the order of /proc/diskstats' fields */
_Static_assert(PM_D_MS_FLUSHING - PM_DISK_FIRST == DS_MS_FLUSHING, "disk metrics follow enum diskstat_field");

#define PCP_VM_NAME(field, key, item, req) [PM_VM_##field] = "mem.vmstat." key,
#define PCP_MI_NAME(field, name) [PM_MI_##field] = name,
static const char *const pcp_names[PM_N] = {
	SNAP_VMSTAT_ITEMS(PCP_VM_NAME)
	PCP_MEMINFO(PCP_MI_NAME)
	[PM_PSI_SOME_AVG] = "kernel.all.pressure.io.some.avg",
	[PM_PSI_FULL_AVG] = "kernel.all.pressure.io.full.avg",
	[PM_PSI_SOME_TOTAL] = "kernel.all.pressure.io.some.total",
	[PM_PSI_FULL_TOTAL] = "kernel.all.pressure.io.full.total",
	[PM_D_READS] = "disk.dev.read",
	[PM_D_READS_MERGED] = "disk.dev.read_merge",
	[PM_D_SECTORS_READ] = "disk.dev.blkread",
	[PM_D_MS_READING] = "disk.dev.read_rawactive",
	[PM_D_WRITES] = "disk.dev.write",
	[PM_D_WRITES_MERGED] = "disk.dev.write_merge",
	[PM_D_SECTORS_WRITTEN] = "disk.dev.blkwrite",
	[PM_D_MS_WRITING] = "disk.dev.write_rawactive",
	[PM_D_IN_FLIGHT] = "disk.dev.inflight",
	[PM_D_MS_IO] = "disk.dev.avactive",
	[PM_D_WEIGHTED_MS_IO] = "disk.dev.aveq",
	[PM_D_DISCARDS] = "disk.dev.discard",
	[PM_D_DISCARDS_MERGED] = "disk.dev.discard_merge",
	[PM_D_SECTORS_DISCARDED] = "disk.dev.blkdiscard",
	[PM_D_MS_DISCARDING] = "disk.dev.discard_rawactive",
	[PM_D_FLUSHES] = "disk.dev.flush",
	[PM_D_MS_FLUSHING] = "disk.dev.flush_rawactive",
};
#undef PCP_VM_NAME
#undef PCP_MI_NAME

/* pmdalinux's PMIDs (domain 60: cluster, item) of the counters above that
 * export --pcp writes, so its archive is read back as a pmlogger one and
 * merges with one (pmlogextract) without a clash; and of the metrics read
 * once.  From PCP's linux PMNS (stdpmid, root_linux). */
#define PCP_LINUX_DOMAIN 60
static const unsigned char pcp_linux_ids[PM_N][2] = {
	[PM_VM_nr_dirty] = { 28, 0 }, [PM_VM_nr_writeback] = { 28, 1 },
	[PM_VM_nr_writeback_temp] = { 28, 56 }, [PM_VM_nr_dirty_threshold] = { 28, 93 },
	[PM_VM_nr_dirty_background_threshold] = { 28, 92 }, [PM_VM_nr_dirtied] = { 28, 91 },
	[PM_VM_nr_written] = { 28, 94 }, [PM_VM_pgpgin] = { 28, 6 }, [PM_VM_pgpgout] = { 28, 7 },
	[PM_MI_mem_total_kb] = { 1, 9 }, [PM_MI_mem_free_kb] = { 1, 2 }, [PM_MI_mem_available_kb] = { 1, 58 },
	[PM_MI_cached_kb] = { 1, 5 }, [PM_MI_dirty_kb] = { 1, 22 }, [PM_MI_writeback_kb] = { 1, 23 },
	[PM_D_READS] = { 0, 4 }, [PM_D_READS_MERGED] = { 0, 49 }, [PM_D_SECTORS_READ] = { 0, 6 },
	[PM_D_MS_READING] = { 0, 72 }, [PM_D_WRITES] = { 0, 5 }, [PM_D_WRITES_MERGED] = { 0, 50 },
	[PM_D_SECTORS_WRITTEN] = { 0, 7 }, [PM_D_MS_WRITING] = { 0, 73 }, [PM_D_IN_FLIGHT] = { 0, 95 },
	[PM_D_MS_IO] = { 0, 46 }, [PM_D_WEIGHTED_MS_IO] = { 0, 47 }, [PM_D_DISCARDS] = { 0, 88 },
	[PM_D_DISCARDS_MERGED] = { 0, 91 }, [PM_D_SECTORS_DISCARDED] = { 0, 89 },
	[PM_D_MS_DISCARDING] = { 0, 92 }, [PM_D_FLUSHES] = { 0, 93 }, [PM_D_MS_FLUSHING] = { 0, 94 },
};
static const struct { const char *name; unsigned char cluster, item; } pcp_info[PROBE_PCP_INFO_N] = {
	[PROBE_PCP_PAGESIZE] = { "hinv.pagesize", 1, 11 },
	[PROBE_PCP_RELEASE] = { "kernel.uname.release", 12, 0 },
	[PROBE_PCP_NODENAME] = { "kernel.uname.nodename", 12, 4 },
};

const char *probe_pcp_kernel_metric(enum probe_pcp_group g, int i, unsigned *domain,
				    unsigned *cluster, unsigned *item)
{
	int m = g == PROBE_PCP_VMSTAT && i >= 0 && i < PM_VM_END ? i :
		g == PROBE_PCP_MEMINFO && i >= 0 && i < SNAP_MEMINFO_NITEMS ? PM_VM_END + i :
		g == PROBE_PCP_DISK && i >= 0 && i < DS_NFIELDS ? PM_DISK_FIRST + i : -1;

	*domain = PCP_LINUX_DOMAIN;
	if (g == PROBE_PCP_INFO) {
		if (i < 0 || i >= PROBE_PCP_INFO_N)
			return NULL;
		*cluster = pcp_info[i].cluster;
		*item = pcp_info[i].item;
		return pcp_info[i].name;
	}
	if (m < 0)
		return NULL;
	*cluster = pcp_linux_ids[m][0];
	*item = pcp_linux_ids[m][1];
	return pcp_names[m];
}

/* Where each counter goes in a snapshot (uint64_t), and which vmstat
 * ones the dirty-limit model needs (the others are extras). */
#define PCP_VM_OFF(field, key, item, req) [PM_VM_##field] = offsetof(struct snapshot, field),
#define PCP_MI_OFF(field, name) [PM_MI_##field] = offsetof(struct snapshot, field),
static const size_t pcp_offs[PM_MI_END] = { SNAP_VMSTAT_ITEMS(PCP_VM_OFF) PCP_MEMINFO(PCP_MI_OFF) };
#define PCP_VM_REQ(field, key, item, req) [PM_VM_##field] = req,
static const bool pcp_vm_required[PM_VM_END] = { SNAP_VMSTAT_ITEMS(PCP_VM_REQ) };
#undef PCP_VM_OFF
#undef PCP_MI_OFF
#undef PCP_VM_REQ

const char *probe_pcp_metric_name(int i)
{
	return i >= 0 && i < PM_N ? pcp_names[i] : NULL;
}

/* What an iodash publishes there (publish.c's names under
 * mmv.iodash.PID, one PID a session; mmv.iodash itself before 0.2). */
enum pcp_iodash_metric {
	PI_STATE, PI_LABEL, PI_RUN, PI_RUNS, PI_FAILED, PI_EPISODES, PI_THROTTLED_MS, PI_ETA, PI_RESULT,
	PI_N
};
static const char *const pcp_iodash_names[PI_N] = {
	[PI_STATE] = "bench.state",
	[PI_LABEL] = "bench.label",
	[PI_RUN] = "bench.run",
	[PI_RUNS] = "bench.runs",
	[PI_FAILED] = "bench.failed",
	[PI_EPISODES] = "throttle.episodes",
	[PI_THROTTLED_MS] = "throttle.time",
	[PI_ETA] = "bench.eta",
	[PI_RESULT] = "bench.result",
};
#define IODASH_ROOT "mmv.iodash"
/* Which session a host shows is looked at again when pmcd's count of MMV
 * files moves (mmv.control.files, fetched with the kernel's metrics: no
 * round trip of its own), IODASH_LOOKUP_S after the shown one's metrics
 * went, every IODASH_RELOOK_S while several sessions run there (which one
 * runs a benchmark moves without a file coming or going), and else every
 * IODASH_SAFETY_S; every IODASH_LOOKUP_S where pmcd has no such count.  A
 * look is a PMNS round trip of its own per host: every 3 s it cost a
 * fleet 10-20 % of its CPU a poll at -i 1. */
#define IODASH_MMV_FILES "mmv.control.files"
#define IODASH_LOOKUP_S 3
#define IODASH_RELOOK_S 10
#define IODASH_SAFETY_S 60

/* Units the snapshot keeps, for the metrics pmcd describes with a space or
 * time dimension (counts are taken as they are). */
static const pmUnits pcp_kib = { .dimSpace = 1, .scaleSpace = PM_SPACE_KBYTE };
static const pmUnits pcp_ms = { .dimTime = 1, .scaleTime = PM_TIME_MSEC };
static const pmUnits pcp_us = { .dimTime = 1, .scaleTime = PM_TIME_USEC };

struct probe_pcp {
	int ctx;
	bool archive;                /* a PCP archive replayed, not a live pmcd */
	struct snapshot *ahead;      /* archive: the next record, read ahead */
	bool ahead_eol;              /* archive: no record after the current */
	uint64_t first_ns;           /* archive: the first record's time */
	/* archive: export --pcp's iodash.time, the recording's own clock (the
	 * wall clock's microseconds would move a rate's last digits) */
	pmID time_pmid;
	int64_t time_base_ns;        /* the record's wall clock at time 0 */
	bool have_time_base;
	bool down;                   /* the last fetch lost the connection */
	char host[256];
	char nodename[128], release[128];
	unsigned page_kb;
	pmID pmid[PM_N];             /* PM_ID_NULL: pmcd has no such metric */
	pmDesc desc[PM_N];
	/* the disks' instance names, cached: pmNameInDom once per instance */
	int ninst, inst_cap;
	struct pcp_inst { int inst; char name[SNAP_DISK_NAME_LEN]; } *inst;
	/* mmv.iodash.PID.*: they come and go with each iodash there, so
	 * looked up again (see IODASH_RELOOK_S) */
	pmID ipmid[PI_N];
	pmDesc idesc[PI_N];
	bool ilooked, istale;        /* istale: the shown session's metrics went */
	int isessions;               /* sessions the last look found */
	uint64_t ilookup_ns;
	pmID mmv_files_pmid;         /* live: mmv.control.files, PM_ID_NULL none */
	int mmv_files, ilook_files;  /* its last value (-1 n/a), and at the last look */
	/* the collector's clock against ours (see pcp_stamp) */
	bool anchored;
	int64_t remote0_ns;
	uint64_t mono0_ns, last_mono_ns;
};

static void pcp_err(char *err, size_t errlen, const struct probe_pcp *c, const char *what, int code)
{
	char buf[PM_MAXERRMSGLEN];

	snprintf(err, errlen, "%s: %s (%s)", c->host, what, P->pmErrStr_r(code, buf, sizeof(buf)));
}

/* An error of the connection rather than of one request: the host, its
 * pmcd or the way to it went away. */
static bool pcp_lost(int code)
{
	return code == PM_ERR_IPC || code == PM_ERR_TIMEOUT || code == PM_ERR_NOCONTEXT ||
	       code == -ECONNREFUSED || code == -ECONNRESET ||
	       code == -EPIPE || code == -ETIMEDOUT || code == -EHOSTUNREACH ||
	       code == -ENETUNREACH || code == -ENOTCONN || code == -EHOSTDOWN;
}

/* A value of metric i as uint64 in the snapshot's units. */
static int pcp_u64(const struct probe_pcp *c, int i, const pmValueSet *vs, int j, uint64_t *out)
{
	pmAtomValue a, b;
	const pmDesc *d = &c->desc[i];
	int rc;

	if ((rc = P->pmExtractValue(vs->valfmt, &vs->vlist[j], d->type, &a, PM_TYPE_U64)) < 0)
		return rc;
	const pmUnits *want = d->units.dimSpace == 1 ? &pcp_kib :
			      d->units.dimTime == 1 ? (i == PM_PSI_SOME_TOTAL || i == PM_PSI_FULL_TOTAL ?
						       &pcp_us : &pcp_ms) : NULL;
	if (want && memcmp(&d->units, want, sizeof(*want)) != 0) {
		if ((rc = P->pmConvScale(PM_TYPE_U64, &a, &d->units, &b, want)) < 0)
			return rc;
		a = b;
	}
	*out = a.ull;
	return 0;
}

static int pcp_double(const struct probe_pcp *c, int i, const pmValueSet *vs, int j, double *out)
{
	pmAtomValue a;
	int rc;

	if ((rc = P->pmExtractValue(vs->valfmt, &vs->vlist[j], c->desc[i].type, &a, PM_TYPE_DOUBLE)) < 0)
		return rc;
	*out = a.d;
	return 0;
}

/* The value set of metric i in r, or NULL when pmcd gave no value. */
static const pmValueSet *pcp_set(const pmResult *r, const int *slot, int i)
{
	if (slot[i] < 0 || slot[i] >= r->numpmid)
		return NULL;
	const pmValueSet *vs = r->vset[slot[i]];
	return vs->numval > 0 ? vs : NULL;
}

/* Fill *out from a metric without instances; false when n/a. */
static bool pcp_single(const struct probe_pcp *c, const pmResult *r, const int *slot, int i, uint64_t *out)
{
	const pmValueSet *vs = pcp_set(r, slot, i);

	return vs && pcp_u64(c, i, vs, 0, out) == 0;
}

/* The value of instance `inst` (the avg's "10 second") among a set. */
static bool pcp_inst_double(const struct probe_pcp *c, const pmResult *r, const int *slot, int i,
			    int inst, double *out)
{
	const pmValueSet *vs = pcp_set(r, slot, i);

	for (int j = 0; vs && j < vs->numval; j++)
		if (vs->vlist[j].inst == inst)
			return pcp_double(c, i, vs, j, out) == 0;
	return false;
}

/* The name of a disk instance, from the cache or from pmcd.  pmcd lists
 * the instances in the same order fetch after fetch, so the cache is
 * looked at the fetch's index first: a walk only when the list changed. */
static const char *pcp_disk_name(struct probe_pcp *c, int inst, int hint)
{
	char *name = NULL;

	if (hint < c->ninst && c->inst[hint].inst == inst)
		return c->inst[hint].name;
	for (int k = 0; k < c->ninst; k++)
		if (c->inst[k].inst == inst)
			return c->inst[k].name;
	if (P->pmNameInDom(c->desc[PM_DISK_FIRST].indom, inst, &name) < 0)
		return NULL;
	void *p = c->inst;
	if (snapshot_grow_array(&p, &c->inst_cap, c->ninst + 1, sizeof(*c->inst))) {
		free(name);
		return NULL;
	}
	c->inst = p;
	/* the new one at the fetch's index where it can go, so the next
	 * fetch finds it there */
	int k = hint < c->ninst ? hint : c->ninst;
	if (k < c->ninst)
		c->inst[c->ninst] = c->inst[k];
	c->ninst++;
	c->inst[k].inst = inst;
	snprintf(c->inst[k].name, SNAP_DISK_NAME_LEN, "%s", name);
	free(name);
	return c->inst[k].name;
}

/* The sample's time: the collector's timestamp of the fetch (when its
 * counters were read, not when the answer reached us), counted from ours at
 * the first fetch, so rates divide by the remote interval.  If the two
 * clocks part by more than a second (the remote clock was set), start again
 * from ours; mono_ns never goes back. */
static void pcp_stamp(struct probe_pcp *c, const struct timeval *tv, struct snapshot *s)
{
	struct timespec rt;
	int64_t remote = (int64_t)tv->tv_sec * 1000000000ll + (int64_t)tv->tv_usec * 1000;
	uint64_t now, mono;

	now = util_mono_ns();
	clock_gettime(CLOCK_REALTIME, &rt);
	s->realtime_ns = (int64_t)rt.tv_sec * 1000000000ll + rt.tv_nsec;
	mono = c->mono0_ns + (uint64_t)(remote - c->remote0_ns);
	if (!c->anchored || remote < c->remote0_ns || mono > now + 1000000000ull ||
	    now > mono + 1000000000ull) {
		c->anchored = true;
		c->remote0_ns = remote;
		c->mono0_ns = now;
		mono = now;
	}
	if (mono <= c->last_mono_ns)
		mono = c->last_mono_ns + 1;
	c->last_mono_ns = mono;
	s->mono_ns = mono;
}

static void pcp_fill_disks(struct probe_pcp *c, const pmResult *r, const int *slot, struct snapshot *s)
{
	const pmValueSet *first = pcp_set(r, slot, PM_DISK_FIRST);
	bool has_1517 = c->pmid[PM_D_DISCARDS] != PM_ID_NULL && c->pmid[PM_D_FLUSHES] != PM_ID_NULL;

	s->ndisks = 0;
	for (int j = 0; first && j < first->numval; j++) {
		const char *name = pcp_disk_name(c, first->vlist[j].inst, j);
		if (!name)
			continue;
		struct snap_disk *d = snapshot_add_disk(s);
		if (!d)
			break;
		snprintf(d->name, sizeof(d->name), "%s", name);
		d->nfields = has_1517 ? DS_NFIELDS : DS_WEIGHTED_MS_IO + 1;
		for (int f = 0; f < d->nfields; f++) {
			int i = PM_DISK_FIRST + f;
			const pmValueSet *vs = pcp_set(r, slot, i);
			/* the same instance at the same index in each metric's
			 * set, unless pmcd's list moved between them */
			int k = vs && j < vs->numval && vs->vlist[j].inst == first->vlist[j].inst ? j : 0;
			for (; vs && k < vs->numval; k++)
				if (vs->vlist[k].inst == first->vlist[j].inst) {
					pcp_u64(c, i, vs, k, &d->f[f]);
					break;
				}
		}
	}
	if (s->ndisks)
		s->have |= SNAP_HAVE_DISKS;
}

static int pcp_fetch(struct probe_pcp *c, struct snapshot *s, char *err, size_t errlen)
{
	pmID ids[PM_N + 2];
	int slot[PM_N], n = 0, rc, time_slot = -1, files_slot = -1;
	pmResult *r = NULL;

	for (int i = 0; i < PM_N; i++) {
		slot[i] = -1;
		if (c->pmid[i] != PM_ID_NULL) {
			slot[i] = n;
			ids[n++] = c->pmid[i];
		}
	}
	if (c->archive && c->time_pmid != PM_ID_NULL) {
		time_slot = n;
		ids[n++] = c->time_pmid;
	}
	if (c->mmv_files_pmid != PM_ID_NULL) {
		files_slot = n;
		ids[n++] = c->mmv_files_pmid;
	}
	if ((rc = P->pmUseContext(c->ctx)) < 0 || (rc = P->pmFetch(n, ids, &r)) < 0) {
		if (c->archive && rc == PM_ERR_EOL)
			return -ENODATA;
		if (pcp_lost(rc)) {
			c->down = true;
			pcp_err(err, errlen, c, "pmcd unreachable, retrying", rc);
			return -EHOSTDOWN;
		}
		pcp_err(err, errlen, c, "pmFetch failed", rc);
		return -EIO;
	}

	bool vm_ok = true, mi_ok = true;

	s->have = 0;
	s->note[0] = 0;
	if (c->archive) {
		/* the recorded time is the replay's clock */
		s->realtime_ns = (int64_t)r->timestamp.tv_sec * 1000000000ll + (int64_t)r->timestamp.tv_usec * 1000;
		s->mono_ns = (uint64_t)s->realtime_ns;
		pmAtomValue t;
		if (time_slot >= 0 && r->vset[time_slot]->numval > 0 &&
		    P->pmExtractValue(r->vset[time_slot]->valfmt, &r->vset[time_slot]->vlist[0], PM_TYPE_DOUBLE,
				      &t, PM_TYPE_DOUBLE) >= 0 && t.d >= 0 && t.d < 1e9) {
			int64_t t_ns = llround(t.d * 1e9);
			if (!c->have_time_base) {
				c->have_time_base = true;
				c->time_base_ns = s->realtime_ns - t_ns;
			}
			s->mono_ns = (uint64_t)(c->time_base_ns + t_ns);
		}
	} else {
		pcp_stamp(c, &r->timestamp, s);
	}
	if (files_slot >= 0) {
		pmAtomValue a;
		const pmValueSet *vs = files_slot < r->numpmid ? r->vset[files_slot] : NULL;
		c->mmv_files = vs && vs->numval > 0 && P->pmExtractValue(vs->valfmt, &vs->vlist[0], PM_TYPE_32, &a,
								   PM_TYPE_32) >= 0 ? a.l : -1;
	}
	s->page_kb = c->page_kb;
	/* the dirty-limit model needs all of them; the others are extras */
	for (int i = 0; i < PM_VM_END; i++)
		if (!pcp_single(c, r, slot, i, (uint64_t *)((char *)s + pcp_offs[i])) && pcp_vm_required[i])
			vm_ok = false;
	/* pmcd's meminfo: all of it or none */
	for (int i = PM_VM_END; i < PM_MI_END; i++)
		if (!pcp_single(c, r, slot, i, (uint64_t *)((char *)s + pcp_offs[i])))
			mi_ok = false;
	if (vm_ok && c->page_kb)
		s->have |= SNAP_HAVE_VMSTAT;
	if (mi_ok)
		s->have |= SNAP_HAVE_MEMINFO;
	/* instance 10 of the avg metrics is the 10-second average */
	if (pcp_inst_double(c, r, slot, PM_PSI_SOME_AVG, 10, &s->psi_io_some_avg10) &&
	    pcp_inst_double(c, r, slot, PM_PSI_FULL_AVG, 10, &s->psi_io_full_avg10) &&
	    pcp_single(c, r, slot, PM_PSI_SOME_TOTAL, &s->psi_io_some_total_us) &&
	    pcp_single(c, r, slot, PM_PSI_FULL_TOTAL, &s->psi_io_full_total_us))
		s->have |= SNAP_HAVE_PSI_IO;
	pcp_fill_disks(c, r, slot, s);
	P->pmFreeResult(r);
	return 0;
}

/* The value of a metric without instances as `type` (kernel.uname.*,
 * hinv.pagesize): false when n/a.  An archive holds such a metric in the
 * few records pmlogger logged it in ("once"): those are looked through
 * from the start, and the archive is left at its start. */
static bool pcp_value_once(struct probe_pcp *c, const char *name, int type, pmAtomValue *a)
{
	pmID id;
	pmDesc d;
	pmLogLabel label;
	bool ok = false;

	if (P->pmLookupName(1, &name, &id) < 1 || id == PM_ID_NULL || P->pmLookupDesc(id, &d) < 0)
		return false;
	if (c->archive && P->pmGetArchiveLabel(&label) >= 0)
		P->pmSetMode(PM_MODE_FORW, &label.ll_start, 0);
	for (int tries = 0; !ok && tries < (c->archive ? 32 : 1); tries++) {
		pmResult *r = NULL;
		if (P->pmFetch(1, &id, &r) < 0)
			break;
		ok = r->numpmid == 1 && r->vset[0]->numval > 0 &&
		     P->pmExtractValue(r->vset[0]->valfmt, &r->vset[0]->vlist[0], d.type, a, type) >= 0;
		P->pmFreeResult(r);
	}
	if (c->archive && P->pmGetArchiveLabel(&label) >= 0)
		P->pmSetMode(PM_MODE_FORW, &label.ll_start, 0);
	return ok;
}

static void pcp_string(struct probe_pcp *c, const char *name, char *out, size_t len)
{
	pmAtomValue a;

	out[0] = '\0';
	if (pcp_value_once(c, name, PM_TYPE_STRING, &a)) {
		snprintf(out, len, "%s", a.cp);
		free(a.cp);
	}
}

/* Look the metrics up (one name at a time: a metric the source lacks is
 * n/a, not an error) and the page size.  False when neither the vmstat nor
 * the disk metrics are there. */
static bool pcp_lookup(struct probe_pcp *c)
{
	uint64_t pagesize = 0;

	for (int i = 0; i < PM_N; i++) {
		const char *name = pcp_names[i];
		c->pmid[i] = PM_ID_NULL;
		if (P->pmLookupName(1, &name, &c->pmid[i]) < 1 || c->pmid[i] == PM_ID_NULL ||
		    P->pmLookupDesc(c->pmid[i], &c->desc[i]) < 0)
			c->pmid[i] = PM_ID_NULL;
	}
	if (c->pmid[PM_VM_nr_dirty] == PM_ID_NULL && c->pmid[PM_D_READS] == PM_ID_NULL)
		return false;
	const char *tname = sample_cols[SF_T].pcp.archive_name;
	c->time_pmid = PM_ID_NULL;
	if (c->archive && (P->pmLookupName(1, &tname, &c->time_pmid) < 1))
		c->time_pmid = PM_ID_NULL;
	const char *fname = IODASH_MMV_FILES;
	c->mmv_files_pmid = PM_ID_NULL;
	c->mmv_files = -1;
	if (!c->archive && (P->pmLookupName(1, &fname, &c->mmv_files_pmid) < 1))
		c->mmv_files_pmid = PM_ID_NULL;
	pmAtomValue a;
	if (pcp_value_once(c, pcp_info[PROBE_PCP_PAGESIZE].name, PM_TYPE_U64, &a))
		pagesize = a.ull;
	/* vmstat counts pages: without the page size they cannot be read
	 * (an archive without hinv.pagesize: this machine's) */
	if (!pagesize && c->archive)
		pagesize = (uint64_t)sysconf(_SC_PAGESIZE);
	c->page_kb = pagesize >= 1024 ? (unsigned)(pagesize / 1024) : 0;
	return true;
}

/* Whether the name in a host spec (NAME, NAME:PORT, [V6]:PORT) fails to
 * resolve, with why: libpcp reports such a name as "No route to host",
 * which sends the user to check a network that was never reached.  A spec
 * of another form (local:, unix:, NAME@PROXY ...) is left to libpcp. */
static bool pcp_name_unresolved(const char *host, char *why, size_t len)
{
	char name[256];
	const char *s = host, *e;

	if (!strncmp(host, "local:", 6) || !strncmp(host, "unix:", 5) || strpbrk(host, "@?/,"))
		return false;
	if (*s == '[') {
		s++;
		e = strchr(s, ']');
		if (!e)
			return false;
	} else {
		e = strchr(s, ':');
		if (!e)
			e = s + strlen(s);
	}
	if (e == s || (size_t)(e - s) >= sizeof(name))
		return false;
	memcpy(name, s, (size_t)(e - s));
	name[e - s] = '\0';
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res = NULL;
	int rc = getaddrinfo(name, NULL, &hints, &res);
	if (!rc) {
		freeaddrinfo(res);
		return false;
	}
	if (rc != EAI_NONAME && rc != EAI_FAIL && rc != EAI_AGAIN
#ifdef EAI_NODATA
	    && rc != EAI_NODATA
#endif
	    )
		return false;
	snprintf(why, len, "%s", gai_strerror(rc));
	return true;
}

int probe_pcp_open(struct probe_pcp **out, const char *host, char *err, size_t errlen)
{
	struct probe_pcp *c = calloc(1, sizeof(*c));
	int rc;

	*out = NULL;
	if ((rc = pcplib_load(0, &P, err, errlen)) < 0) {
		free(c);
		return rc;
	}
	if (!c) {
		snprintf(err, errlen, "%s: out of memory", host);
		return -ENOMEM;
	}
	snprintf(c->host, sizeof(c->host), "%s", host);
	/* libpcp waits 10 s, then longer, between reconnects by default: a
	 * host that comes back should be seen within a second or two */
	setenv("PMCD_RECONNECT_TIMEOUT", "1", 0);
	c->ctx = P->pmNewContext(PM_CONTEXT_HOST, host);
	if (c->ctx < 0) {
		char buf[PM_MAXERRMSGLEN];
		if (pcp_name_unresolved(host, buf, sizeof(buf))) {
			snprintf(err, errlen, "--host %s: the host name does not resolve (%s); "
				 "check its spelling, /etc/hosts or DNS", host, buf);
			free(c);
			return -EHOSTUNREACH;
		}
		snprintf(err, errlen, "--host %s: cannot reach its pmcd (%s); is pmcd running there, "
			 "and its port (44321 unless HOST:PORT says) open to this machine?",
			 host, P->pmErrStr_r(c->ctx, buf, sizeof(buf)));
		free(c);
		return -EHOSTDOWN;
	}
	if (!pcp_lookup(c)) {
		snprintf(err, errlen, "--host %s: its pmcd has neither mem.vmstat nor disk.dev metrics; "
			 "is its linux agent (pmdalinux) configured in pmcd.conf?", host);
		probe_pcp_close(c);
		return -ENOENT;
	}
	pcp_string(c, pcp_info[PROBE_PCP_NODENAME].name, c->nodename, sizeof(c->nodename));
	pcp_string(c, pcp_info[PROBE_PCP_RELEASE].name, c->release, sizeof(c->release));
	if ((rc = P->pmUseContext(c->ctx)) < 0) {
		pcp_err(err, errlen, c, "pmUseContext failed", rc);
		probe_pcp_close(c);
		return -EIO;
	}
	*out = c;
	return 0;
}

bool probe_pcp_is_archive(const char *path)
{
	static const char *const ext[] = { ".meta", ".index", ".0", ".meta.xz", ".0.xz" };
	char f[PATH_MAX];
	size_t n = strlen(path);
	struct stat st;

	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		size_t e = strlen(ext[i]);
		if (n > e && !strcmp(path + n - e, ext[i]))
			return stat(path, &st) == 0;
	}
	snprintf(f, sizeof(f), "%s.meta", path);
	if (stat(f, &st) == 0)
		return true;
	snprintf(f, sizeof(f), "%s.meta.xz", path);
	return stat(f, &st) == 0;
}

bool probe_pcp_archive_by_iodash(const char *path)
{
	char err[256];
	const char *tname = sample_cols[SF_T].pcp.archive_name;
	pmID id;
	bool yes;

	if (pcplib_load(0, &P, err, sizeof(err)) < 0)
		return false;
	int ctx = P->pmNewContext(PM_CONTEXT_ARCHIVE, path);
	if (ctx < 0)
		return false;
	yes = P->pmLookupName(1, &tname, &id) == 1 && id != PM_ID_NULL;
	P->pmDestroyContext(ctx);
	return yes;
}

/* The next record that holds any of the metrics (pmlogger's prologue and
 * epilogue records hold only its own). */
static int pcp_archive_next(struct probe_pcp *c, struct snapshot *s, char *err, size_t errlen)
{
	int rc;
	do
		rc = pcp_fetch(c, s, err, errlen);
	while (!rc && !(s->have & SNAP_HAVE_VMSTAT) && !s->ndisks);
	return rc;
}

int probe_pcp_open_archive(struct probe_pcp **out, const char *path, char *err, size_t errlen)
{
	struct probe_pcp *c = calloc(1, sizeof(*c));
	pmLogLabel label;
	char buf[PM_MAXERRMSGLEN];
	int rc;

	*out = NULL;
	if ((rc = pcplib_load(0, &P, err, errlen)) < 0) {
		free(c);
		return rc;
	}
	if (!c || !(c->ahead = calloc(1, sizeof(*c->ahead)))) {
		free(c);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	c->archive = true;
	snprintf(c->host, sizeof(c->host), "%s", path);
	if ((c->ctx = P->pmNewContext(PM_CONTEXT_ARCHIVE, path)) < 0) {
		snprintf(err, errlen, "%s: not a PCP archive libpcp can read (%s)", path,
			 P->pmErrStr_r(c->ctx, buf, sizeof(buf)));
		free(c->ahead);
		free(c);
		return -EINVAL;
	}
	if ((rc = P->pmGetArchiveLabel(&label)) < 0 ||
	    (rc = P->pmSetMode(PM_MODE_FORW, &label.ll_start, 0)) < 0) {
		snprintf(err, errlen, "%s: %s", path, P->pmErrStr_r(rc, buf, sizeof(buf)));
		probe_pcp_close(c);
		return -EINVAL;
	}
	snprintf(c->nodename, sizeof(c->nodename), "%s", label.ll_hostname);
	if (!pcp_lookup(c)) {
		snprintf(err, errlen, "%s: the archive has neither mem.vmstat nor disk.dev metrics "
			 "(log them: pmlogger's config needs mem.vmstat and disk.dev)", path);
		probe_pcp_close(c);
		return -ENOENT;
	}
	pcp_string(c, pcp_info[PROBE_PCP_RELEASE].name, c->release, sizeof(c->release));
	if ((rc = pcp_archive_next(c, c->ahead, err, errlen))) {
		if (rc == -ENODATA)
			snprintf(err, errlen, "%s: the archive holds no record of mem.vmstat or disk.dev", path);
		probe_pcp_close(c);
		return rc;
	}
	c->first_ns = c->ahead->mono_ns;
	*out = c;
	return 0;
}

double probe_pcp_next_offset(const struct probe_pcp *c)
{
	if (!c->archive || c->ahead_eol)
		return -1.0;
	return (double)(c->ahead->mono_ns - c->first_ns) / 1e9;
}

static int pcp_archive_read(struct probe_pcp *c, struct snapshot *s, char *err, size_t errlen)
{
	int rc;

	if (c->ahead_eol)
		return -ENODATA;
	/* swapped, not copied: each keeps a disks[] of its own */
	struct snapshot t = *s;
	*s = *c->ahead;
	*c->ahead = t;
	rc = pcp_archive_next(c, c->ahead, err, errlen);
	if (rc == -ENODATA)
		c->ahead_eol = true;
	else if (rc)
		return rc;
	return 0;
}

int probe_pcp_read(struct probe_pcp *c, struct snapshot *s, char *err, size_t errlen)
{
	int rc;

	if (c->archive) {
		if ((rc = P->pmUseContext(c->ctx)) < 0) {
			pcp_err(err, errlen, c, "pmUseContext failed", rc);
			return -EIO;
		}
		return pcp_archive_read(c, s, err, errlen);
	}

	/* the current context is per thread: the sampler's is set here */
	if ((rc = P->pmUseContext(c->ctx)) < 0) {
		pcp_err(err, errlen, c, "pmUseContext failed", rc);
		return -EIO;
	}
	if (c->down) {
		rc = P->pmReconnectContext(c->ctx);
		if (rc < 0) {
			pcp_err(err, errlen, c, "pmcd unreachable, retrying", rc);
			return -EHOSTDOWN;
		}
		c->down = false;
		c->anchored = false;    /* a restarted pmcd: its clock anew */
		c->ilooked = false;     /* ... and its sessions */
	}
	return pcp_fetch(c, s, err, errlen);
}

/* One value of an iodash metric as a string or a number; false when n/a. */
static bool pcp_iodash_value(const struct probe_pcp *c, const pmResult *r, int slot, int i,
			     int type, pmAtomValue *a)
{
	const pmValueSet *vs = slot >= 0 && slot < r->numpmid ? r->vset[slot] : NULL;

	return vs && vs->numval > 0 &&
	       P->pmExtractValue(vs->valfmt, &vs->vlist[0], c->idesc[i].type, a, type) >= 0;
}

/* The bench.state of the session under prefix as a rank: 2 when a
 * benchmark runs (starting, running, between), 1 for another state, 0
 * when it has none (gone). */
static int pcp_iodash_rank(const char *prefix)
{
	char name[160];
	const char *np = name;
	pmID id = PM_ID_NULL;
	pmDesc d;
	pmResult *r = NULL;
	pmAtomValue a;
	int rank = 0;

	snprintf(name, sizeof(name), "%s.%s", prefix, pcp_iodash_names[PI_STATE]);
	if (P->pmLookupName(1, &np, &id) < 1 || id == PM_ID_NULL || P->pmLookupDesc(id, &d) < 0 ||
	    P->pmFetch(1, &id, &r) < 0)
		return 0;
	if (r->numpmid == 1 && r->vset[0]->numval > 0 &&
	    P->pmExtractValue(r->vset[0]->valfmt, &r->vset[0]->vlist[0], d.type, &a, PM_TYPE_STRING) >= 0) {
		rank = !strcmp(a.cp, "running") || !strcmp(a.cp, "starting") || !strcmp(a.cp, "between") ? 2 : 1;
		free(a.cp);
	}
	P->pmFreeResult(r);
	return rank;
}

/* Which session of the host to show: one per PID under mmv.iodash; the
 * one whose benchmark runs, else the highest pid (most often the one
 * started last).  Fills
 * c->ipmid/idesc, PI_STATE PM_ID_NULL when there is none. */
static void pcp_iodash_lookup(struct probe_pcp *c)
{
	char **kids = NULL, prefix[128] = "";
	int n = P->pmGetChildren(IODASH_ROOT, &kids), best = 0;
	long best_pid = -1;

	for (int i = 0; i < PI_N; i++)
		c->ipmid[i] = PM_ID_NULL;
	c->isessions = 0;
	for (int i = 0; i < n; i++) {
		char *end, cand[128];
		long pid = strtol(kids[i], &end, 10);
		int rank;
		if (!strcmp(kids[i], "bench"))
			pid = 0;   /* an iodash before 0.2: mmv.iodash.bench.* */
		else if (end == kids[i] || *end || pid <= 0)
			continue;
		snprintf(cand, sizeof(cand), pid ? IODASH_ROOT ".%s" : IODASH_ROOT, kids[i]);
		rank = pcp_iodash_rank(cand);
		c->isessions += rank > 0;
		if (rank > best || (rank && rank == best && pid > best_pid)) {
			best = rank;
			best_pid = pid;
			snprintf(prefix, sizeof(prefix), "%s", cand);
		}
	}
	free(kids);
	if (!best)
		return;
	for (int i = 0; i < PI_N; i++) {
		char name[160];
		const char *np = name;
		snprintf(name, sizeof(name), "%s.%s", prefix, pcp_iodash_names[i]);
		if (P->pmLookupName(1, &np, &c->ipmid[i]) < 1 || c->ipmid[i] == PM_ID_NULL ||
		    P->pmLookupDesc(c->ipmid[i], &c->idesc[i]) < 0)
			c->ipmid[i] = PM_ID_NULL;
	}
}

int probe_pcp_read_iodash(struct probe_pcp *c, struct probe_iodash *out)
{
	pmID ids[PI_N];
	int slot[PI_N], n = 0, rc;
	pmResult *r = NULL;
	pmAtomValue a;
	uint64_t now = util_mono_ns();

	memset(out, 0, sizeof(*out));
	if (c->down)
		return -EHOSTDOWN;
	if ((rc = P->pmUseContext(c->ctx)) < 0)
		return -EIO;
	/* sessions come and go: which one to show is looked at again when
	 * they may have (see IODASH_RELOOK_S) */
	uint64_t age = now - c->ilookup_ns;
	bool counted = c->mmv_files_pmid != PM_ID_NULL;
	if (!c->ilooked || (counted && c->mmv_files != c->ilook_files) ||
	    ((c->istale || !counted) && age > IODASH_LOOKUP_S * 1000000000ull) ||
	    (c->isessions > 1 && age > IODASH_RELOOK_S * 1000000000ull) ||
	    age > IODASH_SAFETY_S * 1000000000ull) {
		c->ilooked = true;
		c->istale = false;
		c->ilookup_ns = now;
		c->ilook_files = c->mmv_files;
		pcp_iodash_lookup(c);
	}
	if (c->ipmid[PI_STATE] == PM_ID_NULL)
		return 0;
	for (int i = 0; i < PI_N; i++) {
		slot[i] = -1;
		if (c->ipmid[i] != PM_ID_NULL) {
			slot[i] = n;
			ids[n++] = c->ipmid[i];
		}
	}
	if ((rc = P->pmFetch(n, ids, &r)) < 0) {
		if (pcp_lost(rc)) {
			c->down = true;
			return -EHOSTDOWN;
		}
		/* the names went with the iodash that published them */
		c->ipmid[PI_STATE] = PM_ID_NULL;
		c->istale = true;
		return 0;
	}
	if (pcp_iodash_value(c, r, slot[PI_STATE], PI_STATE, PM_TYPE_STRING, &a)) {
		out->have = true;
		snprintf(out->state, sizeof(out->state), "%s", a.cp);
		free(a.cp);
	} else {
		c->istale = true;
	}
	if (pcp_iodash_value(c, r, slot[PI_LABEL], PI_LABEL, PM_TYPE_STRING, &a)) {
		snprintf(out->label, sizeof(out->label), "%s", a.cp);
		free(a.cp);
	}
	unsigned *u32[] = { [PI_RUN] = &out->run, [PI_RUNS] = &out->runs, [PI_FAILED] = &out->failed,
			    [PI_ETA] = &out->eta_s };
	for (int i = PI_RUN; i <= PI_ETA; i++)
		if (u32[i] && pcp_iodash_value(c, r, slot[i], i, PM_TYPE_U32, &a))
			*u32[i] = a.ul;
	/* bench.runs is 0 for a run that is not a sweep's: it is run 1 of 1,
	 * not "1/0" */
	if (out->run && !out->runs)
		out->runs = out->run;
	if (pcp_iodash_value(c, r, slot[PI_RESULT], PI_RESULT, PM_TYPE_STRING, &a)) {
		snprintf(out->result, sizeof(out->result), "%s", a.cp);
		free(a.cp);
	}
	if (pcp_iodash_value(c, r, slot[PI_EPISODES], PI_EPISODES, PM_TYPE_U64, &a))
		out->episodes = a.ull;
	if (pcp_iodash_value(c, r, slot[PI_THROTTLED_MS], PI_THROTTLED_MS, PM_TYPE_U64, &a))
		out->throttled_ms = a.ull;
	P->pmFreeResult(r);
	return 0;
}

const char *probe_pcp_nodename(const struct probe_pcp *c)
{
	return c->nodename;
}

const char *probe_pcp_release(const struct probe_pcp *c)
{
	return c->release;
}

void probe_pcp_close(struct probe_pcp *c)
{
	if (!c)
		return;
	if (c->ctx >= 0)
		P->pmDestroyContext(c->ctx);
	if (c->ahead)
		snapshot_free(c->ahead);
	free(c->ahead);
	free(c->inst);
	free(c);
}
