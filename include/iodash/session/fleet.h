/* fleet: a lab of test machines at a glance, through each one's pmcd.
 * One row per host: its kernel, the dirty level against its thresholds,
 * the busiest disk, the dirty-limit hits of the last minutes and, where
 * an iodash runs there, its benchmark.  A poller thread reads every host
 * once per interval (a slow or dead host delays no one's screen); hosts
 * that cannot be reached are retried and come back without a restart.
 * Core: no curses, nothing printed. */
#ifndef IODASH_FLEET_H
#define IODASH_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iodash/sample/derive.h"
#include "iodash/probe/probe.h"

#define FLEET_MAX_HOSTS 64
/* Hits and throttled time are counted over this window (seconds). */
#define FLEET_WINDOW_S 300

/* How a host is doing, worst first: the order rows sort in. */
enum fleet_state {
	FLEET_UNREACHABLE,   /* pmcd cannot be reached (now, or never yet) */
	FLEET_FAILED,        /* an iodash there had a run fail */
	FLEET_THROTTLED,     /* in the throttle zone now, or hit the limit in the window */
	FLEET_BUSY,          /* a benchmark runs, or background writeback */
	FLEET_OK,
};

struct fleet_row {
	size_t index;                /* its place on the command line */
	char host[128];              /* as given (HOST or HOST:PORT) */
	char nodename[64], kernel[64];
	enum fleet_state state;
	char why[160];               /* unreachable: what libpcp said */
	double since_s;              /* unreachable: seconds it has been */
	bool have_sample;            /* a rate was derived: the fields below hold */
	struct {
		bool have_dirty;
		enum dirty_zone zone;
		uint64_t level_kb;   /* dirty + writeback */
		uint64_t bg_kb, freerun_kb, thresh_kb;
		char disk[32];       /* the busiest disk this interval, "" none */
		double rkB_s, wkB_s, util;
	} now;
	unsigned hits;               /* throttle-zone spans begun in the window */
	double throttled_s;          /* time in the throttle zone in the window */
	struct probe_iodash iodash;  /* what an iodash there publishes */
};

struct fleet;

/* Start polling hosts[0..n) every interval seconds.  0, or -errno with err
 * (too many hosts, an empty name, no libpcp). */
int fleet_start(struct fleet **out, const char *const *hosts, size_t n, double interval,
		char *err, size_t errlen);
/* Copy the rows, worst state first (then as given), into rows[max].
 * Returns how many; *rounds gets how many polling rounds have ended. */
size_t fleet_rows(struct fleet *f, struct fleet_row *rows, size_t max, uint64_t *rounds);
/* Stop the poller and free everything. */
void fleet_stop(struct fleet *f);

/* Pure parts, for tests: the state of a row from its fields, the order of
 * two rows, and the parse of a --hosts file (one host per line, '#'
 * comments, blank lines): 0 or -errno with err "FILE:LINE: why". */
enum fleet_state fleet_state_of(const struct fleet_row *r, bool reachable);
int fleet_row_cmp(const struct fleet_row *a, const struct fleet_row *b);
const char *fleet_state_name(enum fleet_state s);
int fleet_read_hosts(const char *path, char (*hosts)[128], size_t max, size_t *n,
		     char *err, size_t errlen);

#endif
