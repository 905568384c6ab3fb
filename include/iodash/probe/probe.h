/* probe: fills a struct snapshot from the kernel (libproc2, live /proc),
 * from files (--proc-root: a directory laid out like /proc, or a recorded
 * trace of snapshots replayed in order) or from another machine's
 * Performance Co-Pilot collector (--host).  All backends fill the same struct. */
#ifndef IODASH_PROBE_H
#define IODASH_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include "iodash/sample/snapshot.h"

struct probe;

enum probe_kind { PROBE_LIVE, PROBE_PROC_DIR, PROBE_TRACE, PROBE_HOST };

/* Open the live probe (libproc2 for vmstat, meminfo, diskstats; small file
 * reads for the rest).  Returns 0 or -errno and fills err. */
int probe_open_live(struct probe **out, char *err, size_t errlen);

/* Open --proc-root DIR: a trace directory (has index.tsv and samples/) or a
 * directory laid out like /proc.  Returns 0 or -errno with err naming the file. */
int probe_open_root(struct probe **out, const char *dir, char *err, size_t errlen);

/* Open --host HOST[:PORT]: that machine's pmcd through libpcp.  Returns 0
 * or -errno with err saying what to check there. */
int probe_open_host(struct probe **out, const char *host, char *err, size_t errlen);

/* For --host and a PCP archive: the machine's name and kernel release as
 * its pmcd reported them ("" when it did not); NULL for the other kinds. */
const char *probe_host_nodename(const struct probe *p);
const char *probe_host_release(const struct probe *p);

/* What an iodash running on that host publishes (mmv.iodash.*, see
 * publish.h), for the fleet screen: have is false when no iodash runs
 * there now. */
struct probe_iodash {
	bool have;
	char state[16];              /* none, starting, running, between, done */
	char label[64];
	unsigned run, runs, failed;  /* run k of n, failed runs so far */
	uint64_t episodes;           /* throttle episodes it counted (counter) */
	uint64_t throttled_ms;       /* time throttled (counter, ms) */
	unsigned eta_s;              /* its estimate of the sweep's end, 0 unknown */
	char result[128];            /* the last result a run reported, "" none */
};
/* For --host probes: read it.  0 (have false when none runs there),
 * -EHOSTDOWN when pmcd is unreachable, -EINVAL for another kind. */
int probe_host_read_iodash(struct probe *p, struct probe_iodash *out);

/* Whether path names a Performance Co-Pilot archive (BASE, or one of its
 * BASE.meta, BASE.index, BASE.0): --proc-root and view replay those too. */
bool probe_is_pcp_archive(const char *path);
/* ... one that export --pcp wrote: it lists the devices of its recording,
 * every one that recording showed. */
bool probe_is_iodash_archive(const char *path);

/* The kernel metrics the PCP reader reads, by pmdalinux's name and PMID
 * (domain.cluster.item), for export --pcp to write: an archive of them
 * reads back like pmlogger's.  vmstat's row i (SNAP_VMSTAT_ITEMS order,
 * mem.vmstat.KEY, in pages), meminfo's row i (SNAP_MEMINFO_ITEMS order,
 * mem.util.* in kB), diskstats' field i (enum diskstat_field:
 * disk.dev.read ... as counters, in-flight a gauge), or one of the
 * metrics read once.  NULL when there is no such metric. */
enum probe_pcp_group { PROBE_PCP_VMSTAT, PROBE_PCP_MEMINFO, PROBE_PCP_DISK, PROBE_PCP_INFO };
enum { PROBE_PCP_PAGESIZE, PROBE_PCP_RELEASE, PROBE_PCP_NODENAME, PROBE_PCP_INFO_N };
const char *probe_pcp_kernel_metric(enum probe_pcp_group g, int i, unsigned *domain,
				    unsigned *cluster, unsigned *item);

enum probe_kind probe_kind(const struct probe *p);

/* Read one snapshot.  For a trace, this is the next recorded sample, and
 * snapshot.mono_ns / realtime_ns are the recorded times.
 * Returns 0, -ENODATA at the end of a trace, -EHOSTDOWN while a --host
 * cannot be reached (err says so; the next read retries), or another
 * -errno with err filled ("FILE:LINE: why"). */
int probe_read(struct probe *p, struct snapshot *out, char *err, size_t errlen);
/* Live: read meminfo, the dirty_* knobs and PSI at most every `seconds`
 * (and at once when vmstat's dirty thresholds move by 1 %), carrying
 * their last values in between; 0 (the default): every read. */
void probe_set_slow_period(struct probe *p, double seconds);

/* For a trace: recorded seconds from the first sample to the next one to be
 * read (the sampler paces a replay with it); < 0 when not a trace or at end. */
double probe_trace_next_offset(const struct probe *p);

void probe_close(struct probe *p);

/* --- the /proc text formats, one parser for every path ---------------------
 * The --proc-root directory reader, the trace reader, the live probe's own
 * reads (discard/flush fields, dirty_* knobs, pressure) and the fuzzer all go
 * through these, so a format is understood in exactly one place. */

enum probe_text {
	PROBE_TEXT_VMSTAT,                     /* /proc/vmstat */
	PROBE_TEXT_MEMINFO,                    /* /proc/meminfo */
	PROBE_TEXT_DISKSTATS,                  /* /proc/diskstats */
	PROBE_TEXT_DIRTY_BACKGROUND_BYTES,     /* /proc/sys/vm/dirty_background_bytes */
	PROBE_TEXT_DIRTY_BACKGROUND_RATIO,
	PROBE_TEXT_DIRTY_BYTES,
	PROBE_TEXT_DIRTY_EXPIRE_CENTISECS,
	PROBE_TEXT_DIRTY_RATIO,
	PROBE_TEXT_DIRTY_WRITEBACK_CENTISECS,
	PROBE_TEXT_PSI_IO,                     /* /proc/pressure/io */
	PROBE_TEXT_COUNT
};

/* Path of a source relative to a /proc-like root ("vmstat", "sys/vm/dirty_ratio"). */
const char *probe_text_relpath(enum probe_text what);

/* The texts of one snapshot: buf[i] NULL when that source was not read.
 * name[i] is what error messages call it; line0[i] the line number of its
 * first line there (1 for a whole file, more inside a trace sample). */
struct probe_texts {
	const char *buf[PROBE_TEXT_COUNT];
	size_t len[PROBE_TEXT_COUNT];
	const char *name[PROBE_TEXT_COUNT];
	unsigned line0[PROBE_TEXT_COUNT];
};

/* Parse every text present into s (zeroed first, except disks[] past
 * ndisks, which are left as they were; mono/realtime kept), set
 * s->have, and infer page_kb from vmstat nr_free_pages against meminfo
 * MemFree (a root may come from another machine).  `required` is a mask of
 * (1u << enum probe_text): a missing one is an error.  0 or -errno with err
 * "NAME:LINE: why; what to do". */
int probe_parse_texts(const struct probe_texts *t, unsigned required,
		      struct snapshot *s, char *err, size_t errlen);

/* Parse one recorded trace sample file (header line, then `==> PATH <==`
 * sections); fills s including the recorded mono_ns/realtime_ns.  sample_no
 * receives the header's sample number.  0 or -errno, err "NAME:LINE: why". */
int probe_parse_trace_sample(const char *buf, size_t len, const char *name,
			     struct snapshot *s, long *sample_no,
			     char *err, size_t errlen);

/* Whether diskstats name `name` is a partition of the whole disk listed
 * last in `disks` (the kernel lists a disk's partitions right after it),
 * by the kernel's naming rule (sda -> sda1, nvme0n1 -> nvme0n1p1): the
 * file readers cannot see another root's /sys/block. */
bool probe_name_is_partition(const struct snap_disk *disks, int ndisks, const char *name);
/* The naming rule alone: is `name` a partition name of disk `disk`? */
bool probe_name_is_partition_of(const char *disk, const char *name);

#endif
