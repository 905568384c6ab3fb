/* procio: what else the machine is doing, for the live screen's context
 * panel.  One scan reads /proc/PID/io of every process it may read (all
 * when root, else the user's own), /proc/stat's CPU iowait and steal and
 * procs_blocked, and takes memory, PSI and the disks' request sizes from
 * the probe's snapshot.  The sampler calls it at most once a second and
 * only while a front end shows the panel (model.ctx_wanted): a scan reads
 * a few hundred small files.  No curses, no printing. */
#ifndef IODASH_PROCIO_H
#define IODASH_PROCIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "iodash/sample/derive.h"
#include "iodash/sample/snapshot.h"

#define PROCIO_TOP 8
/* the context panel's device lines (a screen's worth, not the sample's
 * devices: those are any number) */
#define PROCIO_DEVS 16

/* One process of the top lists. */
struct procio_row {
	pid_t pid;
	char comm[16];
	double read_Bps, write_Bps;  /* read_bytes, write_bytes of /proc/PID/io per second */
	bool in_bench;               /* in the benchmark's process tree */
	uint32_t pauses;             /* the kernel's balance_dirty_pages pauses since the last scan */
	double paused_ms;            /* (kernel throttle data; 0 without it) */
};

struct procio_dev {
	char name[SNAP_DISK_NAME_LEN];
	bool is_partition;
	bool have_rate;
	double r_s, w_s, rareq_sz, wareq_sz;   /* kB per request, as iostat -x */
};

/* What the panel shows: the result of one scan. */
struct procio_view {
	bool valid;                  /* at least one scan */
	bool have_rates;             /* two scans: the rates below are valid */
	double dt;                   /* seconds the rates span */
	bool all_procs;              /* root: every process; else only those readable (the user's) */
	int nprocs, nunreadable;     /* processes seen; those whose io could not be read */
	int nwriters, nreaders;
	struct procio_row writers[PROCIO_TOP], readers[PROCIO_TOP];  /* most bytes/s first */
	bool have_pauses;            /* the kernel's throttle data reached the scan */

	bool have_cpu;               /* /proc/stat over dt */
	double iowait_pct, steal_pct;
	bool have_procs;
	unsigned procs_blocked, procs_running;

	bool have_mem;               /* meminfo of the snapshot, kB */
	uint64_t mem_total_kb, mem_free_kb, mem_available_kb, cached_kb;
	bool have_psi;
	double psi_some_avg10, psi_full_avg10;

	int ndevs;                   /* used disks, then their partitions (kernel order) */
	struct procio_dev devs[PROCIO_DEVS];
};

struct procio_proc;              /* one process as last seen (procio.c) */

struct procio {
	char root[256];              /* "/proc" or a directory laid out like it */
	struct procio_proc *prev;    /* the last scan, sorted by pid */
	size_t nprev;
	double prev_t;               /* boot-time seconds of the last scan; < 0 none */
	bool have_cpu;
	uint64_t cpu_total, cpu_iowait, cpu_steal;
	bool have_snap;
	struct snapshot snap;        /* the last scan's snapshot, for the disks' deltas */
	/* pauses seen in samples since the last scan (procio_note_pauses) */
	struct { pid_t pid; uint32_t pauses; double paused_ms; } pause[32];
	int npause;
	bool pauses_seen;
};

/* proc_root NULL: /proc. */
void procio_init(struct procio *p, const char *proc_root);
void procio_free(struct procio *p);

/* Seconds since boot (CLOCK_BOOTTIME): the clock of /proc/PID/stat's
 * starttime, which a scan needs to rate a process born since the last. */
double procio_now(void);

/* One scan at now_s (procio_now()).  bench_root > 0: mark that process
 * and its descendants (and its session's processes).  snap (NULL: none)
 * gives memory, PSI and the disks.  0, or -errno with a message (when
 * the proc directory itself cannot be read); out is filled either way
 * with what could be read. */
int procio_scan(struct procio *p, double now_s, pid_t bench_root, const struct snapshot *snap,
		struct procio_view *out, char *err, size_t errlen);

/* Add the kernel's per-writer pauses of one sample (sample.writers[]);
 * the next scan gives them to its rows. */
void procio_note_pauses(struct procio *p, const struct sample *s);

/* Parse /proc/PID/io: read_bytes and write_bytes.  0 or -EINVAL. */
int procio_parse_io(const char *buf, uint64_t *read_bytes, uint64_t *write_bytes);
/* Parse /proc/stat: the cpu line's total, iowait and steal ticks, and
 * procs_running / procs_blocked.  0 or -EINVAL (no cpu line). */
int procio_parse_stat(const char *buf, uint64_t *total, uint64_t *iowait, uint64_t *steal,
		      unsigned *running, unsigned *blocked, bool *have_procs);

#endif
