/* bench_fleet ROUNDS INTERVAL HOST...: what `iodash fleet` costs a host.
 * Starts the fleet's pollers on the hosts, waits until each has ended two
 * rounds (connected, and a rate derived), then follows ROUNDS more rounds
 * as the fleet screen does (woken by the pollers' news, rows copied and
 * sorted at most every FLEET_FRAME_S), and prints one line:
 *   hosts N pollers P polls Q cpu_us_per_host_poll C pss_kB M
 *   age_ms_mean A age_ms_max B rows_us R unreachable U front_us_per_host_poll F
 * cpu: this process and its pollers on a CPU (schedstat: user and system)
 * over those rounds, per host poll; pss: the proportional set size of the
 * process and its pollers at the end; age: from a host's poll to the front
 * end's copy of its row (what the screen draws from); rows_us: a copy and
 * sort of all rows; front: the part of cpu that is this process's (the
 * front end's), the rest is the pollers'.  Exit 1 when a poller could not start or no poll ended. */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iodash/session/fleet.h"
#include "iodash/base/util.h"

/* The pids of this process's children (the pollers), from procfs. */
static size_t bench_children(pid_t *pid, size_t max)
{
	char path[64];
	size_t n = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	long p;
	while (n < max && fscanf(f, "%ld", &p) == 1)
		pid[n++] = (pid_t)p;
	fclose(f);
	return n;
}

/* ns on a CPU of every thread of pid so far: /proc/PID/schedstat counts
 * only the thread group's leader, so each task's own file is summed (the
 * threads live as long as the process, so none ended uncounted) */
static uint64_t bench_cpu_ns(pid_t pid)
{
	char path[64];
	uint64_t sum = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/schedstat", (int)pid, e->d_name);
		FILE *f = fopen(path, "r");
		if (f) {
			unsigned long long ns;
			if (fscanf(f, "%llu", &ns) == 1)
				sum += ns;
			fclose(f);
		}
	}
	closedir(d);
	return sum;
}

static uint64_t bench_tree_cpu(void)
{
	pid_t kids[4096];
	size_t n = bench_children(kids, 4096);
	uint64_t sum = bench_cpu_ns(getpid());

	for (size_t i = 0; i < n; i++)
		sum += bench_cpu_ns(kids[i]);
	return sum;
}

static long bench_pss_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = 0;

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Pss: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: bench_fleet ROUNDS INTERVAL HOST...\n");
		return 2;
	}
	long rounds = strtol(argv[1], NULL, 10);
	double interval = strtod(argv[2], NULL);
	size_t n = (size_t)(argc - 3);
	struct fleet_row *rows = malloc(n * sizeof(*rows));
	struct fleet_summary sum;
	struct fleet *f;
	char err[512];

	if (!rows || fleet_start(&f, (const char *const *)argv + 3, n, interval, err, sizeof(err))) {
		fprintf(stderr, "bench_fleet: %s\n", rows ? err : "out of memory");
		return 1;
	}
	uint64_t cpu0 = 0, front0 = 0, polls0 = 0, start_round = 0, seen_ns = 0, copy_ns = 0, copies = 0;
	double age_sum = 0, age_max = 0;
	size_t aged = 0, unreachable = 0;
	bool counting = false;
	/* rounds of several ms at a short interval run longer than asked: 30 s more */
	uint64_t deadline = util_mono_ns() + (uint64_t)((rounds + 30) * interval * 4e9 + 30e9);
	uint64_t last_copy = 0, copied_polls = UINT64_MAX;
	bool news = true;
	for (;;) {
		/* as the screen (ui/fleet.c): rows are copied only when a poller
		 * sent news or a poll was published since the last copy, at most
		 * every FLEET_FRAME_S; a wake with nothing new copies nothing */
		int wait_ms = (int)(interval * 2000) + 1000;
		if (news || fleet_polls(f) != copied_polls) {
			uint64_t t0 = util_mono_ns();
			if (t0 - last_copy >= (uint64_t)(FLEET_FRAME_S * 1e9)) {
				news = false;
				last_copy = t0;
				copied_polls = fleet_polls(f);
				fleet_rows(f, rows, n, &sum);
				uint64_t t1 = util_mono_ns();
				if (!counting && sum.rounds >= 2) {
					counting = true;
					start_round = sum.rounds;
					cpu0 = bench_tree_cpu();
					front0 = bench_cpu_ns(getpid());
					polls0 = sum.polls;
					seen_ns = t1;
				} else if (counting) {
					copy_ns += t1 - t0;
					copies++;
					for (size_t i = 0; i < n; i++)
						if (rows[i].polled_ns > seen_ns) {
							double age = (double)(t1 - rows[i].polled_ns) / 1e6;
							age_sum += age;
							age_max = age > age_max ? age : age_max;
							aged++;
						}
					seen_ns = t1;
					if (sum.rounds >= start_round + (uint64_t)rounds)
						break;
				}
			} else {
				wait_ms = (int)((last_copy + (uint64_t)(FLEET_FRAME_S * 1e9) - t0) / 1000000) + 1;
			}
		}
		if (util_mono_ns() > deadline)
			break;
		struct pollfd pf = { .fd = fleet_news_fd(f), .events = POLLIN };
		/* pending news: wait for the frame's time only */
		if (poll(&pf, news ? 0 : 1, wait_ms) > 0 && !news && (pf.revents & POLLIN))
			news = true;
	}
	uint64_t cpu1 = bench_tree_cpu(), front1 = bench_cpu_ns(getpid()), polls = sum.polls - polls0;
	pid_t kids[4096];
	size_t nk = bench_children(kids, 4096);
	long pss = bench_pss_kb(getpid());
	for (size_t i = 0; i < nk; i++)
		pss += bench_pss_kb(kids[i]);
	unreachable = sum.by_state[FLEET_UNREACHABLE];
	fleet_stop(f);
	free(rows);
	if (!counting || !polls) {
		fprintf(stderr, "bench_fleet: no round ended\n");
		return 1;
	}
	printf("hosts %zu pollers %u polls %llu cpu_us_per_host_poll %.1f pss_kB %ld age_ms_mean %.1f "
	       "age_ms_max %.1f rows_us %.0f unreachable %zu front_us_per_host_poll %.1f\n",
	       n, sum.pollers, (unsigned long long)polls, (double)(cpu1 - cpu0) / 1e3 / (double)polls, pss,
	       aged ? age_sum / (double)aged : 0.0, age_max, copies ? (double)copy_ns / 1e3 / (double)copies : 0.0,
	       unreachable, (double)(front1 - front0) / 1e3 / (double)polls);
	return 0;
}
