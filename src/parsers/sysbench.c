/* sysbench fileio: the final report of 1.0 (File operations, Throughput,
 * Latency), of 1.1 (Throughput: "read:  IOPS=X Y MiB/s"), and of 0.4/0.5
 * ("Operations performed", "Total transferred ... (X Mb/sec)", per-request
 * statistics), the --report-interval lines "[ 1s ] reads: 0.00 MiB/s writes: 962.49
 * MiB/s fsyncs: 4926.95/s latency (ms,95%): 0.052" (0.4/0.5: "[   1s] reads:
 * 327.72 MB/s writes: 218.48 MB/s fsyncs: 1395.87/s response time: 0.051ms
 * (95%)"), and prepare's "N bytes written in S seconds (X MiB/sec)." (0.4/0.5:
 * "MB/sec").  0.4/0.5's "MB" is MiB: their sb_fileio.c divides by 1024 * 1024. */
#include <math.h>
#include <string.h>
#include "pinternal.h"

struct sysbench_state {
	double threads;
	int section;   /* 1 File operations, 2 Throughput, 3 Latency, 4 0.4/0.5 per-request statistics */
	/* 0.4/0.5: counts and sizes wait for "total time:" to become rates */
	bool have_ops, have_bytes;
	double ops[3];          /* Read, Write, Other */
	double mib[2];          /* Read, Written */
	/* this run is a fileio test: its latencies are per I/O request.  An
	 * OLTP run prints the same "response time:" / "Latency (ms):" blocks
	 * for its transactions, which are not fileio figures. */
	bool fileio;
	bool oltp_noted;
	/* a "FATAL:" line: the run failed; sysbench 0.5 still prints its report
	 * (all zeros), which is not a result */
	bool failed;
	struct pp_title tt;   /* a post's title over a run names it */
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

/* "327.72 MB/s" or "962.49 MiB/s" at s: the MiB/s figure (0.4/0.5's "MB" is
 * MiB), or NaN. */
static double sysbench_interval_mib(const char *s)
{
	double v;
	size_t n = pp_scan_number(s, &v);
	if (!n || !(pp_starts_with(s + n, " MiB/s") || pp_starts_with(s + n, " MB/s")))
		return NAN;
	return v;
}

/* The latency of an interval line, when it is the 95th percentile:
 * 1.0 "latency (ms,95%): 0.052", 0.4/0.5 "response time: 0.051ms (95%)"
 * (--percentile=99 prints "(99%)": not a p95). */
static double sysbench_interval_p95(const char *line)
{
	const char *l = strstr(line, "latency (ms,95%): ");
	double v;
	if (l && pp_scan_number(l + 18, &v))
		return v;
	l = strstr(line, "response time: ");
	size_t n;
	if (l && (n = pp_scan_number(l + 15, &v)) && pp_starts_with(l + 15 + n, "ms (95%)"))
		return v;
	return NAN;
}

static void sysbench_interval(struct parser *p, const char *line)
{
	/* "[ 1s ] reads: 0.00 MiB/s writes: 962.49 MiB/s fsyncs: 4926.95/s latency (ms,95%): 0.052",
	 * "[   1s] reads: 327.72 MB/s writes: 218.48 MB/s fsyncs: 1395.87/s response time: 0.051ms (95%)" */
	const char *s = line + 1;
	while (*s == ' ')
		s++;
	double sec;
	size_t n = pp_scan_number(s, &sec);
	if (!n || s[n] != 's')
		return;
	s += n + 1;
	while (*s == ' ')
		s++;
	if (*s != ']')
		return;
	const char *r = strstr(line, "reads: "), *w = strstr(line, "writes: ");
	const char *f = strstr(line, "fsyncs: ");
	double v, rb = r ? sysbench_interval_mib(r + 7) : NAN, wb = w ? sysbench_interval_mib(w + 8) : NAN;
	if (!isnan(rb))
		pp_emit(p, NULL, 0, "time_s", sec, "read_bw", rb, "MiB/s", RP_PROGRESS);
	if (!isnan(wb))
		pp_emit(p, NULL, 0, "time_s", sec, "write_bw", wb, "MiB/s", RP_PROGRESS);
	if (f && pp_scan_number(f + 8, &v))
		pp_emit(p, NULL, 0, "time_s", sec, "fsyncs_per_s", v, "/s", RP_PROGRESS);
	double lat = sysbench_interval_p95(line);
	if (!isnan(lat))
		pp_emit(p, NULL, 0, "time_s", sec, "latency_p95", lat, "ms", RP_PROGRESS);
	double tp = (isnan(rb) ? 0 : rb) + (isnan(wb) ? 0 : wb);
	pp_set_progress(p, "running", sec, (isnan(rb) && isnan(wb)) ? -1 : tp, "MiB/s", lat);
}

/* sysbench 0.4's size units ("b", "Kb", "Mb", "Gb", "Tb"): binary despite
 * the names (sb_options.c's sb_print_value_size() divides by 1024 until
 * the figure is under 1024 and prints "%.5g" and the prefix), their size in
 * MiB and the rate unit the same prefix names. */
static const struct { const char *u; double mib; const char *rate; } sysbench_sizes[] = {
	{ "b", 1.0 / (1024 * 1024), "B/s" }, { "Kb", 1.0 / 1024, "KiB/s" }, { "Mb", 1, "MiB/s" },
	{ "Gb", 1024, "GiB/s" }, { "Tb", 1024.0 * 1024, "TiB/s" },
};

/* "8Gb", "0b", "639.38Mb", "1.0406Gb", "426.25Mb", "16Kb": the figure as
 * printed and its unit's index in sysbench_sizes, or -1 when not one.  The
 * unit must be followed by end (a blank or the end of the string) or, for
 * the rate "(1.223Gb/sec)", by end itself ("/sec"). */
static int sysbench_size_end(const char *s, const char *end, double *v)
{
	size_t n = pp_scan_number(s, v);
	if (!n)
		return -1;
	for (size_t i = 0; i < sizeof(sysbench_sizes) / sizeof(sysbench_sizes[0]); i++) {
		size_t ul = strlen(sysbench_sizes[i].u);
		if (strncmp(s + n, sysbench_sizes[i].u, ul) != 0)
			continue;
		const char *q = s + n + ul;
		if (end ? strncmp(q, end, strlen(end)) == 0 : (*q == ' ' || *q == '\0' || *q == '\t'))
			return (int)i;
	}
	return -1;
}

/* A size in MiB, or NaN when not one. */
static double sysbench_mib(const char *s)
{
	double v;
	int u = sysbench_size_end(s, NULL, &v);
	return u < 0 ? NAN : v * sysbench_sizes[u].mib;
}

/* "Operations performed:  820665 Read, 547110 Write, 1750656 Other = 3118431 Total"
 * (0.5: "2996 reads, 2004 writes, 10 Other") */
static bool sysbench_ops(struct sysbench_state *s, const char *t)
{
	const char *q = t + strlen("Operations performed:");
	for (int i = 0; i < 3; i++) {
		while (*q == ' ' || *q == ',')
			q++;
		size_t n = pp_scan_number(q, &s->ops[i]);
		if (!n)
			return false;
		q += n;
		while (*q && *q != ',' && *q != '=')
			q++;
	}
	return true;
}

/* "Read 3.1306Gb  Written 2.0871Gb  Total transferred 5.2176Gb  (17.81Mb/sec)" */
static bool sysbench_transferred(struct parser *p, struct sysbench_state *s, const char *t)
{
	const char *w = strstr(t, "Written "), *par = strstr(t, "(");
	if (!w || !par)
		return false;
	s->mib[0] = sysbench_mib(t + 5);
	s->mib[1] = sysbench_mib(w + 8);
	s->have_bytes = isfinite(s->mib[0]) && isfinite(s->mib[1]);
	/* sysbench picks the rate's unit by its size: "(17.81Mb/sec)",
	 * "(1.223Gb/sec)", "(940.5Kb/sec)"; the figure is kept as printed, in
	 * the unit printed (1.223 GiB/s), as people quote it */
	double v;
	int u = sysbench_size_end(par + 1, "/sec)", &v);
	if (u >= 0)
		pp_emit(p, NULL, -1, "threads", s->threads, "total_bw", v, sysbench_sizes[u].rate, RP_FINAL);
	return true;
}

/* 0.4/0.5 "total time: 300.0009s": the counts and sizes over it are the
 * rates, as sysbench computes its own "Mb/sec". */
static void sysbench_total_time(struct parser *p, struct sysbench_state *s, double sec)
{
	if (sec <= 0)
		return;
	static const char *const ops_m[3] = { "reads_per_s", "writes_per_s", "fsyncs_per_s" };
	static const char *const bw_m[2] = { "read_bw", "write_bw" };
	if (s->have_ops)
		for (int i = 0; i < 3; i++)
			pp_emit(p, NULL, -1, "threads", s->threads, ops_m[i], s->ops[i] / sec, "/s", RP_FINAL);
	if (s->have_bytes)
		for (int i = 0; i < 2; i++)
			pp_emit(p, NULL, -1, "threads", s->threads, bw_m[i], s->mib[i] / sec, "MiB/s", RP_FINAL);
	s->have_ops = s->have_bytes = false;
}

/* 1.1 "read:  IOPS=141.90 141.90 MiB/s (148.79 MB/s)", "fsync: IOPS=4346.80" */
static bool sysbench_iops_line(struct parser *p, struct sysbench_state *s, const char *t)
{
	static const struct { const char *key, *ops, *bw; } tab[] = {
		{ "read:", "reads_per_s", "read_bw" }, { "write:", "writes_per_s", "write_bw" },
		{ "fsync:", "fsyncs_per_s", NULL },
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (!pp_starts_with(t, tab[i].key))
			continue;
		const char *q = t + strlen(tab[i].key);
		while (*q == ' ')
			q++;
		double v, bw;
		size_t n;
		if (strncmp(q, "IOPS=", 5) != 0 || !(n = pp_scan_number(q + 5, &v)))
			return false;
		pp_emit(p, NULL, -1, "threads", s->threads, tab[i].ops, v, "/s", RP_FINAL);
		q += 5 + n;
		while (*q == ' ')
			q++;
		if (tab[i].bw && (n = pp_scan_number(q, &bw)) && strncmp(q + n, " MiB/s", 6) == 0) {
			pp_emit(p, NULL, -1, "threads", s->threads, tab[i].bw, bw, "MiB/s", RP_FINAL);
			pp_set_progress(p, "done", p->prog.elapsed_s, bw, "MiB/s", p->prog.latency_ms);
		}
		return true;
	}
	return false;
}

/* The lines that say what the log holds: a banner (another run starts,
 * with sysbench's defaults), a failure (its report is not read), a fileio
 * or an OLTP report.  True when the line is read (or the run failed). */
static bool sysbench_run_marks(struct parser *p, struct sysbench_state *s, const char *t)
{
	if (pp_starts_with(t, "sysbench ")) {
		pp_title_apply(p, &s->tt);
		s->threads = 1;
		s->section = 0;
		s->have_ops = s->have_bytes = false;
		s->fileio = s->oltp_noted = s->failed = false;
		return true;
	}
	if (s->failed)
		return true;
	if (pp_starts_with(t, "FATAL:")) {
		s->failed = true;
		s->have_ops = s->have_bytes = false;
		pp_note(p, p->lineno, p->lineno, false, "sysbench run failed (%.120s): its report is not read", t);
		return true;
	}
	if (pp_starts_with(t, "Extra file open flags:") || pp_starts_with(t, "File operations:"))
		s->fileio = true;
	if (pp_starts_with(t, "OLTP test statistics:") || pp_starts_with(t, "SQL statistics:")) {
		s->fileio = false;
		s->section = 0;
		if (!s->oltp_noted)
			pp_note(p, p->lineno, p->lineno, false,
				"sysbench OLTP report: not read (only fileio reports are)");
		s->oltp_noted = true;
		return true;
	}
	return false;
}

/* 0.4's per-request statistics ("avg:  0.03ms", "approx.  95
 * percentile: ..."), a fileio run's only. */
static bool sysbench_request_stats(struct parser *p, struct sysbench_state *s, const char *t)
{
	static const struct { const char *key, *metric; } lat[] = {
		{ "avg:", "latency_avg" }, { "max:", "latency_max" }, { "approx.  95 percentile:", "latency_p95" },
	};
	if (pp_starts_with(t, "per-request statistics:") || pp_starts_with(t, "response time:")) {
		s->section = 4;
		return true;
	}
	if (s->section != 4 || !s->fileio)
		return false;
	for (size_t i = 0; i < sizeof(lat) / sizeof(lat[0]); i++) {
		size_t kl = strlen(lat[i].key);
		if (strncmp(t, lat[i].key, kl) != 0)
			continue;
		const char *q = t + kl;
		double v;
		while (*q == ' ' || *q == '\t')
			q++;
		size_t n = pp_scan_number(q, &v);
		double us = n ? pp_time_to_us(q + n, strlen(q + n)) : 0;
		if (us > 0)
			pp_emit(p, NULL, -1, "threads", s->threads, lat[i].metric, v * us / 1000.0, "ms", RP_FINAL);
		return true;
	}
	return false;
}

/* A report's section heading: which figures the lines under it hold. */
static bool sysbench_heading(struct sysbench_state *s, const char *t)
{
	static const struct { const char *head; int section; } heads[] = {
		{ "File operations:", 1 }, { "Throughput:", 2 }, { "Latency (ms):", 3 }, { "General statistics:", 0 },
		{ "Threads fairness:", 0 }, { "Test execution summary:", 0 },
	};
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++)
		if (pp_starts_with(t, heads[i].head)) {
			s->section = heads[i].section;
			return true;
		}
	return false;
}

/* A figure of the report: prepare's write rate, or one of a section's. */
static void sysbench_figure(struct parser *p, struct sysbench_state *s, const char *t)
{
	static const struct { int sec; const char *key, *metric, *unit; } tab[] = {
		{ 1, "reads/s:", "reads_per_s", "/s" },
		{ 1, "writes/s:", "writes_per_s", "/s" },
		{ 1, "fsyncs/s:", "fsyncs_per_s", "/s" },
		{ 2, "read, MiB/s:", "read_bw", "MiB/s" },
		{ 2, "written, MiB/s:", "write_bw", "MiB/s" },
		/* 1.1.0 master of 2017-08/09 (sb_fileio.c before feb0346) */
		{ 2, "write, MiB/s:", "write_bw", "MiB/s" },
		{ 3, "avg:", "latency_avg", "ms" },
		{ 3, "max:", "latency_max", "ms" },
		{ 3, "95th percentile:", "latency_p95", "ms" },
	};
	double v;
	const char *bw = strstr(t, " bytes written in ");
	if (bw && (strstr(t, "MiB/sec)") || strstr(t, " MB/sec)"))) {
		s->fileio = true;
		const char *paren = strchr(bw, '(');
		if (paren && pp_scan_number(paren + 1, &v))
			pp_emit(p, NULL, -1, "threads", s->threads, "prepare_write_bw", v, "MiB/s", RP_FINAL);
		return;
	}
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (s->section == tab[i].sec && (s->fileio || tab[i].sec != 3) && sysbench_value(t, tab[i].key, &v)) {
			pp_emit(p, NULL, -1, "threads", s->threads, tab[i].metric, v, tab[i].unit, RP_FINAL);
			if (tab[i].sec == 2)
				pp_set_progress(p, "done", p->prog.elapsed_s, v, "MiB/s", p->prog.latency_ms);
			return;
		}
}

static void sysbench_line(struct parser *p, char *line, size_t len, bool by_cr, bool truncated)
{
	struct sysbench_state *s = p->st;
	double v;
	size_t l;
	const char *t = pp_trim(line + pp_quote_len(line), &l);
	(void)by_cr;
	(void)truncated;
	(void)len;
	if (l == 0 || pp_title_line(&s->tt, t, l))
		return;
	if (t[0] == '[' && (strstr(t, "s ]") || strstr(t, "s] "))) {
		/* an OLTP run's interval lines ("tps: ..., response time: 3.09ms
		 * (95%)") are per transaction: only a fileio run's are read
		 * (fsyncs are fileio's own, for a log joined mid-run) */
		if (s->fileio || strstr(t, " fsyncs: "))
			sysbench_interval(p, t);
		return;
	}
	if (sysbench_run_marks(p, s, t))
		return;
	if (pp_starts_with(t, "Operations performed:")) {
		s->have_ops = sysbench_ops(s, t);
		s->fileio = true;
		return;
	}
	if (pp_starts_with(t, "Read ") && strstr(t, "Total transferred ")) {
		sysbench_transferred(p, s, t);
		return;
	}
	if (strstr(t, " Requests/sec executed") && pp_scan_number(t, &v)) {
		pp_emit(p, NULL, -1, "threads", s->threads, "requests_per_s", v, "/s", RP_FINAL);
		return;
	}
	if ((s->have_ops || s->have_bytes) && sysbench_value(t, "total time:", &v)) {
		sysbench_total_time(p, s, v);
		return;
	}
	if (sysbench_request_stats(p, s, t))
		return;
	if (s->section == 2 && sysbench_iops_line(p, s, t)) {
		s->fileio = true;
		return;
	}
	if (sysbench_value(t, "Number of threads:", &v) && v > 0) {
		s->threads = v;
		return;
	}
	if (!sysbench_heading(s, t))
		sysbench_figure(p, s, t);
}

/* sysbench's banner, its fileio summary, or a 1.x interim report line. */
static bool sysbench_sniff(const char *t)
{
	t = pp_unquoted(t);
	return pp_starts_with(t, "sysbench ") || pp_starts_with(t, "File operations:") ||
	       (t[0] == '[' && (strstr(t, "s ] reads:") || strstr(t, "s] reads:")));
}

const struct parser_ops parser_sysbench_ops = {
	.name = "sysbench",
	.state_size = sizeof(struct sysbench_state),
	.init = sysbench_init,
	.line = sysbench_line,
	.commands = (const char *const[]){ "sysbench", NULL },
	.headline = (const char *const[]){ "read_bw", "write_bw", NULL },
	.package = "sysbench",
	.sniff = sysbench_sniff,
};
