/* dbench: the final "Throughput" line of 1.x-3.x ("N procs", possibly
 * wrapped so that "procs" is on the next line) and of 4.x ("N clients
 * N procs max_latency=X ms"), and 4.x's per-second progress lines. */
#include <math.h>
#include <string.h>
#include "pinternal.h"

struct dbench_state {
	bool pending;            /* a Throughput line that ended in its x, waiting for "procs" */
	double pend_value, pend_x;
	double warmup_s;         /* last warmup second seen: execute seconds come after it */
};

/* Parse "Throughput V MB/sec ..." into value and, when present, the x.
 * Returns 0 not a throughput line, 1 complete, 2 value only with a
 * trailing number (wrapped line: the unit is on the next line). */
static int dbench_throughput(const char *line, double *value, const char **x_name, double *x,
			     double *max_lat)
{
	struct pp_tok t[32];
	size_t n = pp_tokens(line, t, 32);
	size_t i = 0;
	while (i < n && !pp_tok_eq(&t[i], "Throughput"))
		i++;
	if (i + 2 >= n || !pp_tok_number(&t[i + 1], value) || !pp_tok_eq(&t[i + 2], "MB/sec"))
		return 0;
	*max_lat = NAN;
	*x_name = NULL;
	double clients = NAN, procs = NAN;
	for (size_t k = i + 3; k < n; k++) {
		double v;
		if (k + 1 < n && pp_tok_number(&t[k], &v)) {
			if (pp_tok_eq(&t[k + 1], "clients"))
				clients = v;
			else if (pp_tok_eq(&t[k + 1], "procs"))
				procs = v;
		}
		if (t[k].len > 12 && strncmp(t[k].s, "max_latency=", 12) == 0)
			pp_scan_number(t[k].s + 12, max_lat);
	}
	if (!isnan(clients)) {
		*x_name = "clients";
		*x = clients;
		return 1;
	}
	if (!isnan(procs)) {
		*x_name = "procs";
		*x = procs;
		return 1;
	}
	/* "... 1160.98 MBit/sec)  16" with "procs" on the next line */
	if (n > i + 3 && pp_tok_number(&t[n - 1], x))
		return 2;
	return 0;
}

static void dbench_progress_line(struct parser *p, struct dbench_state *d, const struct pp_tok *t, size_t n)
{
	/* "   4    326248   645.95 MB/sec  execute   5 sec  latency 71.951 ms"
	 * "   4  cleanup  10 sec" */
	double clients, v, sec, lat = NAN;
	if (n >= 4 && pp_tok_number(&t[0], &clients) && pp_tok_eq(&t[1], "cleanup") &&
	    pp_tok_number(&t[2], &sec) && pp_tok_eq(&t[3], "sec")) {
		pp_set_progress(p, "cleanup", sec, p->prog.throughput, "MB/s", p->prog.latency_ms);
		return;
	}
	if (n < 7 || !pp_tok_number(&t[0], &clients) || !pp_tok_number(&t[1], NULL) ||
	    !pp_tok_number(&t[2], &v) || !pp_tok_eq(&t[3], "MB/sec") || !pp_tok_number(&t[5], &sec) ||
	    !pp_tok_eq(&t[6], "sec"))
		return;
	char phase[16];
	pp_strlcpy(phase, t[4].s, t[4].len + 1 < sizeof(phase) ? t[4].len + 1 : sizeof(phase));
	if (n >= 10 && pp_tok_eq(&t[7], "latency") && pp_tok_number(&t[8], &lat)) {
		double f = pp_time_to_us(t[9].s, t[9].len);
		lat = f > 0 ? lat * f / 1000.0 : NAN;
	}
	double elapsed = sec;
	if (strcmp(phase, "warmup") == 0)
		d->warmup_s = sec;
	else if (strcmp(phase, "execute") == 0)
		elapsed = d->warmup_s + sec;
	pp_set_progress(p, phase, elapsed, v, "MB/s", lat);
	pp_emit(p, NULL, 0, "time_s", elapsed, "throughput", v, "MB/s", RP_PROGRESS);
	if (!isnan(lat))
		pp_emit(p, NULL, 0, "time_s", elapsed, "latency", lat, "ms", RP_PROGRESS);
}

static void dbench_final(struct parser *p, const char *x_name, double x, double v, double max_lat)
{
	pp_emit(p, NULL, -1, x_name, x, "throughput", v, "MB/s", RP_FINAL);
	if (!isnan(max_lat))
		pp_emit(p, NULL, -1, x_name, x, "max_latency", max_lat, "ms", RP_FINAL);
	pp_set_progress(p, "done", p->prog.elapsed_s, v, "MB/s", isnan(max_lat) ? -1 : max_lat);
}

static void dbench_line(struct parser *p, char *line, size_t len, bool by_cr, bool truncated)
{
	struct dbench_state *d = p->st;
	struct pp_tok t[16];
	size_t n = pp_tokens(line, t, 16);
	if (d->pending) {
		d->pending = false;
		if (n >= 1 && (pp_tok_eq(&t[0], "procs") || pp_tok_eq(&t[0], "clients"))) {
			char xn[16];
			pp_strlcpy(xn, t[0].s, t[0].len + 1);
			dbench_final(p, xn, d->pend_x, d->pend_value, NAN);
			return;
		}
	}
	if (n == 0)
		return;
	if (pp_tok_eq(&t[0], "dbench") && n >= 3 && pp_tok_eq(&t[1], "version")) {
		/* a new run in a log of several */
		d->warmup_s = 0;
		return;
	}
	if (pp_tok_eq(&t[0], "Throughput")) {
		double v, x, max_lat;
		const char *xn;
		int r = dbench_throughput(line, &v, &xn, &x, &max_lat);
		if (r == 1)
			dbench_final(p, xn, x, v, max_lat);
		else if (r == 2) {
			d->pending = true;
			d->pend_value = v;
			d->pend_x = x;
		}
		return;
	}
	dbench_progress_line(p, d, t, n);
}

/* "dbench version", its Throughput line, or a warmup/execute progress line. */
static bool dbench_sniff(const char *t)
{
	return pp_starts_with(t, "dbench version") ||
	       ((strstr(t, "procs") || strstr(t, "clients")) && pp_starts_with(t, "Throughput ") &&
		strstr(t, "MB/sec")) ||
	       strstr(t, " MB/sec  warmup ") || strstr(t, " MB/sec  execute ");
}

const struct parser_ops parser_dbench_ops = {
	.name = "dbench",
	.state_size = sizeof(struct dbench_state),
	.line = dbench_line,
	.commands = (const char *const[]){ "dbench", "tbench", NULL },
	.headline = (const char *const[]){ "throughput", NULL },
	.package = "dbench",
	.sniff = dbench_sniff,
};

int dbench_parse_throughput(const char *line, double *value, const char **x_name, double *x)
{
	double ml;
	return dbench_throughput(line, value, x_name, x, &ml);
}

int dbench_parse_final(const char *line, double *value, const char **x_name, double *x, double *max_lat)
{
	return dbench_throughput(line, value, x_name, x, max_lat);
}
