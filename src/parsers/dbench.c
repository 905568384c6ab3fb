/* dbench: the final "Throughput" line of 1.x-3.x ("N procs", possibly
 * wrapped so that "procs" is on the next line) and of 4.x ("N clients
 * N procs max_latency=X ms"), 4.x's per-second progress lines, and 4.x's
 * table of operations above the Throughput line ("Operation Count AvgLat
 * MaxLat", latencies in ms; with --per-client-results one more table a
 * client after "Client N did ..."): each operation's count and
 * latencies, at the Throughput line's x, a client's under its own label. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "pinternal.h"

#define DBENCH_OPS 24        /* dbench 4 has 14 operations (its loadfile's verbs: 20 or so) */
#define DBENCH_CLIENTS 16    /* per-client tables kept; more are counted, not read */

/* One table of operations: the whole run's, or one client's. */
struct dbench_ops {
	char client[16];         /* "Client 2", "" the whole run's */
	int n;
	struct {
		char name[24];
		double count, avg_ms, max_ms;
	} op[DBENCH_OPS];
};

struct dbench_state {
	bool pending;            /* a Throughput line that ended in its x, waiting for "procs" */
	double pend_value, pend_x;
	double warmup_s;         /* last warmup second seen: execute seconds come after it */
	struct dbench_ops tab[1 + DBENCH_CLIENTS];
	int ntab;                /* tables read since the last Throughput line */
	bool in_ops;             /* inside a table: its rows follow */
	char client[16];         /* the "Client N did" line above the next table */
};

/* The operations' tables since the last Throughput line, at its x. */
static void dbench_emit_ops(struct parser *p, struct dbench_state *d, const char *x_name, double x)
{
	for (int k = 0; k < d->ntab; k++) {
		const struct dbench_ops *t = &d->tab[k];
		char label[RP_LABEL_LEN] = "";
		if (t->client[0])
			pp_label_join(label, sizeof(label), p->label, t->client);
		for (int i = 0; i < t->n; i++) {
			char m[RP_NAME_LEN];
			snprintf(m, sizeof(m), "%s_count", t->op[i].name);
			pp_emit(p, label, -1, x_name, x, m, t->op[i].count, "ops", RP_FINAL);
			snprintf(m, sizeof(m), "%s_avg_lat", t->op[i].name);
			pp_emit(p, label, -1, x_name, x, m, t->op[i].avg_ms, "ms", RP_FINAL);
			snprintf(m, sizeof(m), "%s_max_lat", t->op[i].name);
			pp_emit(p, label, -1, x_name, x, m, t->op[i].max_ms, "ms", RP_FINAL);
		}
	}
	d->ntab = 0;
}

/* A line of the operations' tables, or of what announces one.  True
 * when it was one. */
static bool dbench_ops_line(struct dbench_state *d, const struct pp_tok *t, size_t n)
{
	if (n == 4 && pp_tok_eq(&t[0], "Operation") && pp_tok_eq(&t[1], "Count") && pp_tok_eq(&t[2], "AvgLat") &&
	    pp_tok_eq(&t[3], "MaxLat")) {
		d->in_ops = false;
		if (d->ntab < 1 + DBENCH_CLIENTS) {
			struct dbench_ops *o = &d->tab[d->ntab++];
			memset(o, 0, sizeof(*o));
			pp_strlcpy(o->client, d->client, sizeof(o->client));
			d->in_ops = true;
		}
		d->client[0] = '\0';
		return true;
	}
	/* "Client 2 did 108929 lines and 486234264 bytes" */
	if (n >= 4 && pp_tok_eq(&t[0], "Client") && pp_tok_number(&t[1], NULL) && pp_tok_eq(&t[2], "did")) {
		d->in_ops = false;
		snprintf(d->client, sizeof(d->client), "Client %.*s", (int)(t[1].len < 8 ? t[1].len : 8), t[1].s);
		return true;
	}
	if (!d->in_ops)
		return false;
	if (n == 1 && t[0].s[0] == '-')
		return true;   /* the rule under the header */
	struct dbench_ops *o = &d->tab[d->ntab - 1];
	double c, a, m;
	if (n == 4 && pp_tok_number(&t[1], &c) && pp_tok_number(&t[2], &a) && pp_tok_number(&t[3], &m) &&
	    t[0].len < sizeof(o->op[0].name) && !pp_tok_number(&t[0], NULL)) {
		if (o->n < DBENCH_OPS) {
			pp_strlcpy(o->op[o->n].name, t[0].s, t[0].len + 1);
			o->op[o->n].count = c;
			o->op[o->n].avg_ms = a;
			o->op[o->n].max_ms = m;
			o->n++;
		}
		return true;
	}
	d->in_ops = false;   /* a blank line or anything else ends the table */
	return false;
}

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
	/* the headline first: the operations after it */
	dbench_emit_ops(p, p->st, x_name, x);
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
	if (n == 0) {
		d->in_ops = false;
		return;
	}
	if (pp_tok_eq(&t[0], "dbench") && n >= 3 && pp_tok_eq(&t[1], "version")) {
		/* a new run in a log of several: a killed run's tables are not its */
		d->warmup_s = 0;
		d->ntab = 0;
		d->in_ops = false;
		return;
	}
	if (dbench_ops_line(d, t, n))
		return;
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
