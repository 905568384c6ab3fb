/* result: one point of a benchmark's result, the unit of every curve.
 * (run label, setting, run number, x name, x value, metric, value, unit) */
#ifndef IODASH_RESULT_H
#define IODASH_RESULT_H

#include <stddef.h>

#define RP_LABEL_LEN 64
#define RP_NAME_LEN 64 /* lkp-tests metric names run past 40: "stress-ng.time.percent_of_cpu_this_job_got" */
#define RP_UNIT_LEN 16

enum result_flags {
	RP_FINAL      = 1u << 0,  /* the tool's final figure for the run */
	RP_PROGRESS   = 1u << 1,  /* a live/interval figure (x is seconds) */
	RP_INCOMPLETE = 1u << 2,  /* the run was cut short: no final figure */
	RP_TOO_FAST   = 1u << 3,  /* bonnie++ "+++++": too fast to measure, value unknown, not 0 */
	RP_SPREAD     = 1u << 4,  /* spread holds the spread the source states ("59580 ± 312") */
};

struct result_point {
	char label[RP_LABEL_LEN];   /* run label: kernel, patch, -l LABEL */
	char setting[RP_LABEL_LEN]; /* the knob setting it ran under, a dimension of its
	                             * own, never folded into label: "(5,10)" from a
	                             * mail, "vm.dirty_ratio=10" from a --sysctl sweep;
	                             * "" when none is known */
	int run;                    /* 0-based run number within the label */
	char x_name[RP_NAME_LEN];   /* "clients", "procs", "record_kb", "bs_kb", "time_s" ... */
	double x;
	char metric[RP_NAME_LEN];   /* "throughput", "write_bw", "read_iops", "clat_p99" ... */
	double value;
	char unit[RP_UNIT_LEN];     /* "MB/s", "KiB/s", "IOPS", "us", "ms" ... */
	unsigned flags;             /* enum result_flags */
	double t;                   /* session seconds it came at (model_add_result stamps it) */
	double spread;              /* with RP_SPREAD: the stated spread of value, in its unit
	                             * (a "± 18%" is turned into 0.18 * value); never a run */
};

/* Where parsers put their points.  emit() copies what it keeps. */
struct result_sink {
	void (*emit)(void *ctx, const struct result_point *p);
	void *ctx;
};

/* A growable array of points (for import and sessions). */
struct result_set {
	struct result_point *v;
	size_t n, cap;
};

int result_set_add(struct result_set *rs, const struct result_point *p);
void result_set_free(struct result_set *rs);
/* A sink that appends into a result_set. */
struct result_sink result_set_sink(struct result_set *rs);

#endif
