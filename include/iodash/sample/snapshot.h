/* snapshot: the kernel's raw counters at one instant, as read by a probe.
 * Nothing here is derived; derive.h turns two snapshots into a sample. */
#ifndef IODASH_SNAPSHOT_H
#define IODASH_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SNAP_DISK_NAME_LEN 32
#define SNAP_NOTE_LEN 200
/* A vmstat page count whose KiB at the largest page size, summed with
 * another, would not fit 64 bits is no machine's: out of range (n/a). */
#define SNAP_PAGES_MAX (UINT64_MAX >> 10)

/* /proc/diskstats fields after major, minor and name (kernel docs
 * Documentation/admin-guide/iostats.rst numbering 1..17). */
enum diskstat_field {
	DS_READS, DS_READS_MERGED, DS_SECTORS_READ, DS_MS_READING,
	DS_WRITES, DS_WRITES_MERGED, DS_SECTORS_WRITTEN, DS_MS_WRITING,
	DS_IOS_IN_PROGRESS, DS_MS_IO, DS_WEIGHTED_MS_IO,
	DS_DISCARDS, DS_DISCARDS_MERGED, DS_SECTORS_DISCARDED, DS_MS_DISCARDING,
	DS_FLUSHES, DS_MS_FLUSHING,
	DS_NFIELDS
};

struct snap_disk {
	char name[SNAP_DISK_NAME_LEN];
	unsigned major, minor;
	bool is_partition;
	int nfields;                 /* how many of f[] the kernel gave (11, 15 or 17) */
	uint64_t f[DS_NFIELDS];
};

/* Which groups of a snapshot were read; a missing group shows as n/a. */
enum snap_have {
	SNAP_HAVE_VMSTAT   = 1u << 0,
	SNAP_HAVE_MEMINFO  = 1u << 1,
	SNAP_HAVE_DISKS    = 1u << 2,
	SNAP_HAVE_KNOBS    = 1u << 3,
	SNAP_HAVE_PSI_IO   = 1u << 4,
	/* meminfo's values are an earlier read's: the live probe reads it
	 * once a second, so at -i 0.5 every other snapshot carries them */
	SNAP_MEMINFO_CARRIED = 1u << 5,
};

/* The counters a snapshot reads by name, one row each:
 * X(field, key in the file, libproc2 item, required).  The text reader
 * (probe_text.c) matches the keys, the libproc2 probe (probe.c) selects
 * the items in this order and reads them back by it; a file without a
 * required key is not that file.  A new counter is one row here and its
 * field below. */
#define SNAP_VMSTAT_ITEMS(X) \
	X(nr_dirty, "nr_dirty", VMSTAT_NR_DIRTY, true) \
	X(nr_writeback, "nr_writeback", VMSTAT_NR_WRITEBACK, true) \
	X(nr_writeback_temp, "nr_writeback_temp", VMSTAT_NR_WRITEBACK_TEMP, false) \
	X(nr_dirty_threshold, "nr_dirty_threshold", VMSTAT_NR_DIRTY_THRESHOLD, true) \
	X(nr_dirty_background_threshold, "nr_dirty_background_threshold", \
	  VMSTAT_NR_DIRTY_BACKGROUND_THRESHOLD, true) \
	X(nr_dirtied, "nr_dirtied", VMSTAT_NR_DIRTIED, false) \
	X(nr_written, "nr_written", VMSTAT_NR_WRITTEN, false) \
	X(pgpgin, "pgpgin", VMSTAT_PGPGIN, false) \
	X(pgpgout, "pgpgout", VMSTAT_PGPGOUT, false)
#define SNAP_MEMINFO_ITEMS(X) \
	X(mem_total_kb, "MemTotal", MEMINFO_MEM_TOTAL, true) \
	X(mem_free_kb, "MemFree", MEMINFO_MEM_FREE, false) \
	X(mem_available_kb, "MemAvailable", MEMINFO_MEM_AVAILABLE, false) \
	X(cached_kb, "Cached", MEMINFO_MEM_CACHED, false) \
	X(dirty_kb, "Dirty", MEMINFO_MEM_DIRTY, true) \
	X(writeback_kb, "Writeback", MEMINFO_MEM_WRITEBACK, true)
#define SNAP_ITEM_COUNT_ONE(field, key, item, req) + 1
#define SNAP_MEMINFO_NITEMS (0 SNAP_MEMINFO_ITEMS(SNAP_ITEM_COUNT_ONE))

/* The rows as data: a field of struct snapshot (uint64_t) by its key. */
struct snap_item {
	const char *key;
	size_t off;
	bool required;
};
extern const struct snap_item snap_vmstat_items[];
extern const struct snap_item snap_meminfo_items[];
extern const int snap_vmstat_nitems, snap_meminfo_nitems;

struct snapshot {
	unsigned have;               /* enum snap_have bits */
	uint64_t mono_ns;            /* CLOCK_MONOTONIC when read (recorded, for traces) */
	int64_t realtime_ns;         /* CLOCK_REALTIME when read */
	unsigned page_kb;            /* page size in KiB (vmstat counts pages) */

	/* /proc/vmstat, in pages (pgpgin/pgpgout in KiB, as the kernel counts them) */
	uint64_t nr_dirty, nr_writeback, nr_writeback_temp;
	uint64_t nr_dirty_threshold, nr_dirty_background_threshold;
	uint64_t nr_dirtied, nr_written;
	uint64_t pgpgin, pgpgout;

	/* /proc/meminfo, in KiB */
	uint64_t mem_total_kb, mem_free_kb, mem_available_kb, cached_kb;
	uint64_t dirty_kb, writeback_kb;

	/* /proc/sys/vm/dirty_* */
	uint64_t dirty_background_bytes, dirty_bytes;
	unsigned dirty_background_ratio, dirty_ratio;
	unsigned dirty_expire_centisecs, dirty_writeback_centisecs;

	/* /proc/pressure/io: avg10 in percent, totals in microseconds */
	double psi_io_some_avg10, psi_io_full_avg10;
	uint64_t psi_io_some_total_us, psi_io_full_total_us;

	/* The first value of this read that was out of range, and so is n/a
	 * ("FILE:LINE: what, where": docs/parsers.md, numbers): "" when
	 * none.  The sampler says it as a note when it changes. */
	char note[SNAP_NOTE_LEN];

	/* As many devices as the kernel lists (storage boxes: hundreds).
	 * disks[] is owned by the snapshot and grows, never shrinks: a
	 * snapshot read again reuses it.  Copy with snapshot_copy() (a plain
	 * struct copy would share it), free with snapshot_free().  Keep these
	 * three last: probe_parse_texts() zeroes what is before them. */
	int ndisks;
	int disks_cap;
	struct snap_disk *disks;
};

/* Find a disk by name; NULL when the snapshot has none of that name. */
const struct snap_disk *snapshot_find_disk(const struct snapshot *s, const char *name);

/* Room for n devices in s->disks (kept: [0, ndisks)).  0, or -ENOMEM. */
int snapshot_reserve_disks(struct snapshot *s, int n);
/* A new zeroed device at the end of s->disks; NULL when out of memory. */
struct snap_disk *snapshot_add_disk(struct snapshot *s);
/* dst = src, dst keeping (and growing) its own disks[].  0, or -ENOMEM
 * (dst then has no disks). */
int snapshot_copy(struct snapshot *dst, const struct snapshot *src);
void snapshot_free(struct snapshot *s);
/* Zero every field of s but its disks' storage (ndisks 0). */
void snapshot_reset(struct snapshot *s);
/* Grow *p, an array of *cap elements of size sz, to hold n (doubling).
 * 0, or -ENOMEM with *p as it was. */
int snapshot_grow_array(void **p, int *cap, int n, size_t sz);

#endif
