/* fleet: a lab of test machines at a glance, through each one's pmcd.
 * One row per host: its kernel, the dirty level against its thresholds,
 * the busiest disk, the dirty-limit hits of the last minutes and, where
 * an iodash runs there, its benchmark.  Poller processes read every host
 * once per interval, FLEET_HOSTS_PER_POLLER each (libpcp selects on its
 * sockets, so one process holds fewer than 1,024 pmcd connections, and
 * its context table is searched linearly: a bounded share per process
 * keeps a host's cost the same however many there are); their rows reach
 * the front end through shared memory.  Hosts that cannot be reached are
 * retried and come back without a restart.
 * Core: no curses, nothing printed. */
#ifndef IODASH_FLEET_H
#define IODASH_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iodash/sample/derive.h"
#include "iodash/probe/probe.h"

/* Hosts one poller process reads in turn. */
#define FLEET_HOSTS_PER_POLLER 64
/* A front end copies the rows for the pollers' news at most this often
 * (seconds): the pollers' rounds are spread over the interval, so each
 * round's news alone would copy and sort every row once a poller, a cost
 * that grows as the square of the hosts. */
#define FLEET_FRAME_S 0.2
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
#define FLEET_NSTATES (FLEET_OK + 1)

struct fleet_row {
	size_t index;                /* its place on the command line */
	char host[128];              /* as given (HOST or HOST:PORT) */
	char nodename[64], kernel[64];
	enum fleet_state state;
	char why[160];               /* unreachable: what libpcp said */
	double since_s;              /* unreachable: seconds it has been */
	uint64_t polled_ns;          /* util_mono_ns() of its last poll, 0 never */
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

/* What fleet_rows() saw besides the rows. */
struct fleet_summary {
	size_t hosts;
	size_t by_state[FLEET_NSTATES];  /* hosts in each state */
	uint64_t rounds;             /* rounds every poller has ended (all hosts read) */
	uint64_t polls;              /* host polls published: changes with any row */
	uint64_t newest_ns;          /* util_mono_ns() of the newest poll, 0 none */
	unsigned pollers;
};

/* A growing list of host names (the command line's and --hosts files'). */
struct fleet_hosts {
	char (*name)[128];
	size_t n, cap;
};
/* Append one: 0, -ENOMEM, or -EINVAL for a name that is empty or too long. */
int fleet_hosts_add(struct fleet_hosts *hl, const char *name);
void fleet_hosts_free(struct fleet_hosts *hl);

/* Start polling hosts[0..n) every interval seconds: forks the pollers
 * (call it before any thread starts).  0, or -errno with err (no host,
 * an empty name, no memory, fork failed). */
int fleet_start(struct fleet **out, const char *const *hosts, size_t n, double interval,
		char *err, size_t errlen);
/* Copy the rows, worst state first (then as given), into rows[max].
 * Returns how many; sum (may be NULL) gets the counts. */
size_t fleet_rows(struct fleet *f, struct fleet_row *rows, size_t max, struct fleet_summary *sum);
/* Host polls published so far: cheap, to see whether anything changed. */
uint64_t fleet_polls(const struct fleet *f);
/* A descriptor that becomes readable when a poller ends a round (for
 * poll(); fleet_rows() drains it). */
int fleet_news_fd(const struct fleet *f);
/* Stop the pollers and free everything. */
void fleet_stop(struct fleet *f);

/* Pure parts, for tests: the state of a row from its fields, the order of
 * two rows, and the parse of a --hosts file (one host per line, '#'
 * comments, blank lines), appended to hl: 0 or -errno with err
 * "FILE:LINE: why". */
enum fleet_state fleet_state_of(const struct fleet_row *r, bool reachable);
int fleet_row_cmp(const struct fleet_row *a, const struct fleet_row *b);
const char *fleet_state_name(enum fleet_state s);
int fleet_read_hosts(const char *path, struct fleet_hosts *hl, char *err, size_t errlen);

#endif
