/* snapshot: the kernel's raw counters at one instant, as read by a probe.
 * Nothing here is derived; derive.h turns two snapshots into a sample. */
#ifndef IODASH_SNAPSHOT_H
#define IODASH_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#define SNAP_MAX_DISKS 64
#define SNAP_DISK_NAME_LEN 32

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
};

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

	int ndisks;
	struct snap_disk disks[SNAP_MAX_DISKS];
};

/* Find a disk by name; NULL when the snapshot has none of that name. */
const struct snap_disk *snapshot_find_disk(const struct snapshot *s, const char *name);

#endif
