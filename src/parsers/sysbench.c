/* sysbench fileio: the final report (File operations, Throughput, Latency),
 * the --report-interval lines "[ 1s ] reads: 0.00 MiB/s writes: 962.49
 * MiB/s fsyncs: 4926.95/s latency (ms,95%): 0.052", and prepare's
 * "N bytes written in S seconds (X MiB/sec)." */
#include <math.h>
#include <string.h>
#include "pinternal.h"

struct sysbench_state {
	double threads;
	int section;   /* 1 File operations, 2 Throughput, 3 Latency */
};

static void sysbench_init(struct parser *p)
{
	struct sysbench_state *s = p->st;
	s->threads = 1;   /* sysbench's default when the banner is missing */
}

/* The number after "key:" in "    written, MiB/s:   1071.30". */
static bool sysbench_value(const char *line, const char *key, double *v)
{
	size_t l;
	const char *t = pp_trim(line, &l);
	size_t kl = strlen(key);
	if (strncmp(t, key, kl) != 0)
		return false;
	t += kl;
	while (*t == ' ' || *t == '\t')
		t++;
	size_t n = pp_scan_number(t, v);
	return n > 0;
}

static void sysbench_interval(struct parser *p, const char *line)
{
	/* "[ 1s ] reads: 0.00 MiB/s writes: 962.49 MiB/s fsyncs: 4926.95/s latency (ms,95%): 0.052" */
	const char *s = line + 1;
	while (*s == ' ')
		s++;
	double sec;
	size_t n = pp_scan_number(s, &sec);
	if (!n || s[n] != 's')
		return;
	const char *r = strstr(line, "reads: "), *w = strstr(line, "writes: ");
	const char *f = strstr(line, "fsyncs: "), *l = strstr(line, "latency (ms,95%): ");
	double v, rb = NAN, wb = NAN;
	if (r && pp_scan_number(r + 7, &v) && strstr(r, "MiB/s")) {
		rb = v;
		pp_emit(p, NULL, 0, "time_s", sec, "read_bw", v, "MiB/s", RP_PROGRESS);
	}
	if (w && pp_scan_number(w + 8, &v)) {
		wb = v;
		pp_emit(p, NULL, 0, "time_s", sec, "write_bw", v, "MiB/s", RP_PROGRESS);
	}
	if (f && pp_scan_number(f + 8, &v))
		pp_emit(p, NULL, 0, "time_s", sec, "fsyncs_per_s", v, "/s", RP_PROGRESS);
	double lat = NAN;
	if (l && pp_scan_number(l + 18, &lat))
		pp_emit(p, NULL, 0, "time_s", sec, "latency_p95", lat, "ms", RP_PROGRESS);
	double tp = (isnan(rb) ? 0 : rb) + (isnan(wb) ? 0 : wb);
	pp_set_progress(p, "running", sec, (isnan(rb) && isnan(wb)) ? -1 : tp, "MiB/s", lat);
}

static void sysbench_line(struct parser *p, char *line, size_t len, bool by_cr, bool truncated)
{
	struct sysbench_state *s = p->st;
	double v;
	size_t l;
	const char *t = pp_trim(line, &l);
	if (l == 0)
		return;
	if (t[0] == '[' && strstr(t, "s ]")) {
		sysbench_interval(p, t);
		return;
	}
	if (sysbench_value(t, "Number of threads:", &v) && v > 0) {
		s->threads = v;
		return;
	}
	if (pp_starts_with(t, "File operations:")) {
		s->section = 1;
		return;
	}
	if (pp_starts_with(t, "Throughput:")) {
		s->section = 2;
		return;
	}
	if (pp_starts_with(t, "Latency (ms):")) {
		s->section = 3;
		return;
	}
	if (pp_starts_with(t, "General statistics:") || pp_starts_with(t, "Threads fairness:")) {
		s->section = 0;
		return;
	}
	const char *bw = strstr(t, " bytes written in ");
	if (bw && strstr(t, "MiB/sec)")) {
		const char *paren = strchr(bw, '(');
		if (paren && pp_scan_number(paren + 1, &v))
			pp_emit(p, NULL, -1, "threads", s->threads, "prepare_write_bw", v, "MiB/s", RP_FINAL);
		return;
	}
	static const struct { int sec; const char *key, *metric, *unit; } tab[] = {
		{ 1, "reads/s:", "reads_per_s", "/s" },
		{ 1, "writes/s:", "writes_per_s", "/s" },
		{ 1, "fsyncs/s:", "fsyncs_per_s", "/s" },
		{ 2, "read, MiB/s:", "read_bw", "MiB/s" },
		{ 2, "written, MiB/s:", "write_bw", "MiB/s" },
		{ 3, "avg:", "latency_avg", "ms" },
		{ 3, "max:", "latency_max", "ms" },
		{ 3, "95th percentile:", "latency_p95", "ms" },
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (s->section == tab[i].sec && sysbench_value(t, tab[i].key, &v)) {
			pp_emit(p, NULL, -1, "threads", s->threads, tab[i].metric, v, tab[i].unit, RP_FINAL);
			if (tab[i].sec == 2)
				pp_set_progress(p, "done", p->prog.elapsed_s, v, "MiB/s", p->prog.latency_ms);
			return;
		}
	(void)by_cr;
	(void)truncated;
	(void)len;
}

const struct parser_ops parser_sysbench_ops = {
	.name = "sysbench",
	.state_size = sizeof(struct sysbench_state),
	.init = sysbench_init,
	.line = sysbench_line,
};
