/* fio: normal output (3.x, and 2.x's "read : io=..., bw=..KB/s"),
 * --output-format=json (3.x; 2.x with io_bytes in KiB and clat in us; the
 * client/server "client_stats"; several documents back to back from
 * --status-interval), terse v2 to v5, and the --eta=always status line.
 *
 * A "report" is one complete set of job blocks (text), one JSON document,
 * or the terse lines.  Its jobs are split by group (groupid): groups ran
 * one after another (stonewall), so each is a result of its own, with its
 * own block size; only the jobs of one group ran at once and add up.  --status-interval prints cumulative reports; the
 * rate over each interval is the difference of two reports' io and
 * runtime.  The last report is the final figure (fio prints it on exit,
 * also after SIGINT).
 *
 * JSON is read with json-c (Debian's libjson-c-dev, already linked by the
 * project): its json_tokener takes input in pieces and says where an
 * object ended, which is exactly what back-to-back documents arriving
 * line by line need; jansson would need the whole document first. */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pinternal.h"
#include "iodash/parsers/units.h"

#define FIO_JSON_MAX (16u * 1024 * 1024)   /* one document; fio's are a few KiB per job */
#define FIO_NPCT 5
#define FIO_NDIR 3
/* groups of one report; fio numbers them from 0, a job file rarely has 10 */
#define FIO_GROUPS 64
/* --client hosts of one run told apart when they share a name */
#define FIO_HOSTS 64
/* job blocks' own figures of one report, a record per block and
 * direction: numjobs=512 of a randrw job */
#define FIO_CLONES 1024

static const double fio_pct_keys[FIO_NPCT] = { 50, 90, 95, 99, 99.9 };
static const char *const fio_pct_names[FIO_NPCT] = { "p50", "p90", "p95", "p99", "p99_9" };
/* "mixed": unified_rw_reporting */
static const char *const fio_dir_names[FIO_NDIR] = { "read", "write", "mixed" };

struct fio_dir {
	bool have;
	double bw_kib, iops, io_kib, runtime_ms, issued;
	/* the bandwidth in the unit the text printed it in ("" for terse and
	 * JSON, which give KiB/s): a value is given as printed */
	double bw_shown;
	char bw_unit[RP_UNIT_LEN];
	/* latencies in the unit of their line: "us" "ns" "ms" "s" (fio's
	 * usec/nsec/msec; JSON's clat_ns in ns, terse's in us) */
	bool have_clat;
	double clat_avg;
	char clat_unit[RP_UNIT_LEN];
	bool have_lat;             /* total latency: submission + completion */
	double lat_avg;
	char lat_unit[RP_UNIT_LEN];
	double pct[FIO_NPCT];      /* NaN when not shown */
	char pct_unit[RP_UNIT_LEN];
};

/* One result of a report: the jobs of one name in one group (numjobs
 * clones, or group_reporting's block), which ran at the same time and
 * add up.  Jobs of other names in the same group are results of their
 * own: fio reports each, and a randread beside a randwrite is two
 * workloads, not one. */
struct fio_group {
	int id;
	char name[RP_LABEL_LEN];   /* the jobs' name */
	int nblocks;               /* job blocks (JSON entries): more than one are summed */
	bool clones_cut;           /* a block's own figures found no room (FIO_CLONES) */
	bool bs_known;
	double bs_kb;
	struct fio_dir d[FIO_NDIR];
};

/* One job block's own figures of one direction, as the block printed
 * them (NAN: not printed): where a group has several blocks of one name
 * (numjobs clones without group_reporting), each clone's are given
 * beside their sum. */
struct fio_clone {
	short g;                   /* its group's index in the report */
	signed char dir;
	double bw, iops, clat_avg, lat_avg;
	char bw_unit[RP_UNIT_LEN], clat_unit[RP_UNIT_LEN], lat_unit[RP_UNIT_LEN];
};

struct fio_report {
	char host[RP_LABEL_LEN];   /* --client: the host whose report it is, "" none */
	char hostname[42];         /* that host as fio names it (host is "vm#2" for a second "vm") */
	int ngroups;
	int cur;                   /* the group whose job block is being read, -1 none */
	bool closed;               /* "Run status group" seen after the job blocks */
	struct fio_group g[FIO_GROUPS];
	int nclones;
	struct fio_clone clones[FIO_CLONES];
};

/* What the previous report of a group had, for interval rates. */
struct fio_prev {
	int id;
	char name[RP_LABEL_LEN];
	double io[FIO_NDIR], rt[FIO_NDIR], issued[FIO_NDIR];
};

/* A group's block size from the "name: (g=N): rw=..., bs=..." lines. */
struct fio_hdr {
	int id;
	char host[42];             /* --client: the host of "<host> name: (g=0): ..." */
	char name[RP_LABEL_LEN];   /* the job's; "" for the whole group's */
	bool known, conflict;
	double bs_kb;
};

struct fio_state {
	int json_first;              /* the line a JSON document started on */
	struct fio_report cur, last;
	bool have_last;
	struct fio_prev prev[FIO_GROUPS];
	int nprev;
	struct fio_hdr hdr[FIO_GROUPS];
	int nhdr;
	int cur_dir, pct_dir;
	int clone_cur;               /* the record of the block and direction being read, -1 none */
	int status_gid1;             /* the group of the "Run status group N" lines being read, + 1; 0 none */
	char pct_unit[RP_UNIT_LEN];   /* of the "clat percentiles (usec):" being read */
	/* json */
	struct json_tokener *tok;
	bool in_json;
	bool json_done;              /* a document ended; no next one begun */
	size_t json_bytes;
	/* eta */
	unsigned eta_count;
	/* --client output: each client's report is its own, labelled by
	 * its host; fio's "All clients" block sums every client and group:
	 * skipped */
	bool clients, in_all;
	int nclient;                  /* client reports of this run so far */
	int host_first;               /* the line of the host line below, 0 none */
	bool host_two;                /* two hosts' lines since the last report */
	char host[RP_LABEL_LEN];      /* "<host> " line since the last report */
	char hosts[FIO_HOSTS][RP_LABEL_LEN];   /* the hosts named in this run, in order */
	int nhosts;
	struct pp_title tt;           /* a post's title over a run names it */
};

static void fio_report_clear(struct fio_report *r)
{
	memset(r, 0, sizeof(*r));
	r->cur = -1;
}

static void fio_group_init(struct fio_group *g, int id)
{
	memset(g, 0, sizeof(*g));
	g->id = id;
	for (int d = 0; d < FIO_NDIR; d++)
		for (int k = 0; k < FIO_NPCT; k++)
			g->d[d].pct[k] = NAN;
}

/* The jobs of this group id and name in the report, made when new (NULL
 * when the report already has FIO_GROUPS of them: the rest are dropped,
 * bounded). */
static struct fio_group *fio_group_get(struct fio_report *r, int id, const char *name)
{
	char nm[RP_LABEL_LEN];
	pp_strlcpy(nm, name ? name : "", sizeof(nm));
	for (int i = 0; i < r->ngroups; i++)
		if (r->g[i].id == id && strcmp(r->g[i].name, nm) == 0)
			return &r->g[i];
	if (r->ngroups >= FIO_GROUPS)
		return NULL;
	struct fio_group *g = &r->g[r->ngroups++];
	fio_group_init(g, id);
	pp_strlcpy(g->name, nm, sizeof(g->name));
	return g;
}

static void fio_init(struct parser *p)
{
	struct fio_state *f = p->st;
	fio_report_clear(&f->cur);
	fio_report_clear(&f->last);
	f->cur_dir = f->pct_dir = f->clone_cur = -1;
}

/* A record for one block's own figures of direction d, all NAN; -1 when
 * the report holds FIO_CLONES already (the group then gives its sum
 * only: a part of its clones would give a wrong min and max). */
static int fio_clone_add(struct fio_report *r, struct fio_group *g, int d)
{
	if (r->nclones >= FIO_CLONES) {
		g->clones_cut = true;
		return -1;
	}
	struct fio_clone *c = &r->clones[r->nclones];
	memset(c, 0, sizeof(*c));
	c->g = (short)(g - r->g);
	c->dir = (signed char)d;
	c->bw = c->iops = c->clat_avg = c->lat_avg = NAN;
	return r->nclones++;
}

static void fio_fini(struct parser *p)
{
	struct fio_state *f = p->st;
	if (f->tok)
		json_tokener_free(f->tok);
	f->tok = NULL;
}

static struct fio_hdr *fio_hdr_get(struct fio_state *f, int id, const char *host, const char *name)
{
	for (int i = 0; i < f->nhdr; i++)
		if (f->hdr[i].id == id && strcmp(f->hdr[i].host, host) == 0 && strcmp(f->hdr[i].name, name) == 0)
			return &f->hdr[i];
	if (f->nhdr >= FIO_GROUPS)
		return NULL;
	struct fio_hdr *h = &f->hdr[f->nhdr++];
	memset(h, 0, sizeof(*h));
	h->id = id;
	pp_strlcpy(h->host, host, sizeof(h->host));
	pp_strlcpy(h->name, name, sizeof(h->name));
	return h;
}

/* The block size the job headers give the group (name "") or a job of
 * it: one size, else none. */
static bool fio_hdr_bs(const struct fio_state *f, int id, const char *host, const char *name, double *bs)
{
	for (int i = 0; i < f->nhdr; i++) {
		const struct fio_hdr *h = &f->hdr[i];
		if (h->id == id && strcmp(h->host, host) == 0 && strcmp(h->name, name) == 0 && h->known &&
		    !h->conflict) {
			*bs = h->bs_kb;
			return true;
		}
	}
	return false;
}

static const char *fio_x(struct fio_state *f, const struct fio_report *r, const struct fio_group *g, double *x)
{
	if (g->bs_known) {
		*x = g->bs_kb;
		return "bs_kb";
	}
	/* the job headers (a client's: its host's): the group's one size,
	 * else, where the group's jobs of each name are a result of their
	 * own, the size of this name's jobs */
	bool own = false;
	for (int i = 0; i < r->ngroups; i++)
		own = own || (&r->g[i] != g && r->g[i].id == g->id);
	if (fio_hdr_bs(f, g->id, r->hostname, "", x) || (own && fio_hdr_bs(f, g->id, r->hostname, g->name, x)))
		return "bs_kb";
	*x = 0;
	return "run";
}

/* The label of a group's points: the run label alone when the report has
 * one group; else the run label and the group's job name (or "gN" when
 * the name is missing or shared, "gN name" when the group has jobs of
 * other names too), so that groups never pool as runs. */
static const char *fio_group_label(struct parser *p, const struct fio_report *r,
				   const struct fio_group *g, char *buf, size_t len)
{
	/* a client's report: the run label and its host come first */
	char base[RP_LABEL_LEN];
	int room = (int)sizeof(base) - (int)strlen(r->host) - 2;
	if (r->host[0])
		snprintf(base, sizeof(base), "%.*s%s%s", room > 0 ? room : 0, p->label,
			 p->label[0] && room > 0 ? " " : "", r->host);
	else
		pp_strlcpy(base, p->label, sizeof(base));
	if (r->ngroups <= 1) {
		if (!r->host[0])
			return NULL;
		/* a client's report also carries its job's name (client.c
		 * prints it over the report): the host alone does not tell
		 * two servers of one machine apart, nor a report no "<host> "
		 * line named ("client1"), and the job is what it ran */
		if (!g->name[0]) {
			pp_strlcpy(buf, base, len);
			return buf;
		}
		char who[2 * RP_LABEL_LEN];
		snprintf(who, sizeof(who), "%s %s", r->host, g->name);
		pp_label_join(buf, len, p->label, who);
		return buf;
	}
	bool shared = !g->name[0], id_shared = false;
	for (int i = 0; i < r->ngroups; i++)
		if (&r->g[i] != g) {
			shared = shared || strcmp(r->g[i].name, g->name) == 0;
			id_shared = id_shared || r->g[i].id == g->id;
		}
	char tail[RP_LABEL_LEN + 16];
	if (!shared)
		pp_strlcpy(tail, g->name, sizeof(tail));
	else if (id_shared && g->name[0])
		snprintf(tail, sizeof(tail), "g%d %s", g->id, g->name);
	else
		snprintf(tail, sizeof(tail), "g%d", g->id);
	/* where the two do not fit, the base gives way and the job's name
	 * stays (cut with a hash only when it is itself too long): the name
	 * is what fio printed over the group's report and what a person
	 * quotes it by; "gN" is no name of fio's (its terse lines give the
	 * group only as a number) */
	pp_label_join(buf, len, base, tail);
	return buf;
}

static struct fio_prev *fio_prev_get(struct fio_state *f, const struct fio_group *g)
{
	for (int i = 0; i < f->nprev; i++)
		if (f->prev[i].id == g->id && strcmp(f->prev[i].name, g->name) == 0)
			return &f->prev[i];
	if (f->nprev >= FIO_GROUPS)
		return NULL;
	struct fio_prev *v = &f->prev[f->nprev++];
	memset(v, 0, sizeof(*v));
	v->id = g->id;
	pp_strlcpy(v->name, g->name, sizeof(v->name));
	return v;
}

/* A complete report: its interval rates become progress points. */
static void fio_close_report(struct parser *p, struct fio_state *f)
{
	struct fio_report *r = &f->cur;
	if (!r->ngroups)
		return;
	double tp = 0, elapsed = 0;
	bool any = false;
	for (int gi = 0; gi < r->ngroups; gi++) {
		struct fio_group *g = &r->g[gi];
		struct fio_prev *pv = fio_prev_get(f, g);
		if (!pv)
			continue;
		char lb[RP_LABEL_LEN];
		const char *label = fio_group_label(p, r, g, lb, sizeof(lb));
		double bs;
		bool bs_fixed = strcmp(fio_x(f, r, g, &bs), "bs_kb") == 0;
		for (int d = 0; d < FIO_NDIR; d++) {
			struct fio_dir *fd = &g->d[d];
			if (!fd->have || fd->runtime_ms <= 0)
				continue;
			double dt = fd->runtime_ms - pv->rt[d];
			/* the text report rounds io ("12.4GiB"): with a fixed block size
			 * the issued count is the exact amount */
			double io = bs_fixed && fd->issued > 0 ? fd->issued * bs : fd->io_kib;
			if (dt > 0 && io >= pv->io[d]) {
				double x = fd->runtime_ms / 1000.0;
				char m[RP_NAME_LEN];
				double bw = (io - pv->io[d]) / dt * 1000.0;
				snprintf(m, sizeof(m), "%s_bw", fio_dir_names[d]);
				pp_emit(p, label, 0, "time_s", x, m, bw, "KiB/s", RP_PROGRESS);
				tp += bw;
				any = true;
				if (fd->issued >= pv->issued[d] && fd->issued > 0) {
					snprintf(m, sizeof(m), "%s_iops", fio_dir_names[d]);
					pp_emit(p, label, 0, "time_s", x, m,
						(fd->issued - pv->issued[d]) / dt * 1000.0, "IOPS", RP_PROGRESS);
				}
				if (x > elapsed)
					elapsed = x;
			}
			pv->rt[d] = fd->runtime_ms;
			pv->io[d] = io;
			pv->issued[d] = fd->issued;
		}
	}
	if (any)
		pp_set_progress(p, "running", elapsed, tp, "KiB/s", -1);
	f->last = *r;
	f->have_last = true;
	fio_report_clear(&f->cur);
}

/* A clone group's own figures of direction d (numjobs without
 * group_reporting: fio printed each clone's block), after its sums:
 * each clone's bandwidth and IOPS as its block printed them, and its
 * mean latencies (a mean over clones compares with group_reporting's
 * block, the mean over all the jobs' I/Os; percentiles do not: a mean
 * of p99s is no p99).  One point per clone, all of one run, so that
 * compare pools them as samples of the job (their spread is the jobs'
 * fairness), not as runs.  Not "_bw": the live run summary adds every
 * metric ending in "_bw" (runsum_add_result()).  Their label names the
 * job where the group's does not (a report of one group: the run label
 * alone): they are the job's, as fio printed them under its name, and
 * the sum keeps the label it has with group_reporting or one job. */
static void fio_final_clones(struct parser *p, const struct fio_report *r, int gi, int d, const char *label,
			     const char *xn, double x)
{
	static const char *const what[4] = { "bw_per_job", "iops_per_job", "clat_avg", "lat_avg" };
	char named[RP_LABEL_LEN];
	if (!label && r->g[gi].name[0]) {
		pp_label_join(named, sizeof(named), p->label, r->g[gi].name);
		label = named;
	}
	for (int k = 0; k < 4; k++) {
		int run = -1;
		for (int i = 0; i < r->nclones; i++) {
			const struct fio_clone *c = &r->clones[i];
			if (c->g != gi || c->dir != d)
				continue;
			const double v[4] = { c->bw, c->iops, c->clat_avg, c->lat_avg };
			const char *const u[4] = { c->bw_unit, "IOPS", c->clat_unit, c->lat_unit };
			if (!isfinite(v[k]))
				continue;
			struct result_point pt;
			memset(&pt, 0, sizeof(pt));
			pp_strlcpy(pt.label, label ? label : "", sizeof(pt.label));
			pt.run = run;   /* the first clone's takes the key's next run; the others share it */
			pp_strlcpy(pt.x_name, xn, sizeof(pt.x_name));
			pt.x = x;
			snprintf(pt.metric, sizeof(pt.metric), "%s_%s", fio_dir_names[d], what[k]);
			pt.value = v[k];
			pp_strlcpy(pt.unit, u[k], sizeof(pt.unit));
			pt.flags = RP_FINAL;
			pp_emit_point(p, &pt);
			run = pt.run;
		}
	}
}

static void fio_final(struct parser *p, struct fio_state *f)
{
	if (!f->have_last)
		return;
	struct fio_report *r = &f->last;
	char m[RP_NAME_LEN];
	for (int gi = 0; gi < r->ngroups; gi++) {
		struct fio_group *g = &r->g[gi];
		char lb[RP_LABEL_LEN];
		const char *label = fio_group_label(p, r, g, lb, sizeof(lb));
		double x;
		const char *xn = fio_x(f, r, g, &x);
		if (g->nblocks > 1 && g->clones_cut)
			pp_note(p, p->lineno, p->lineno, false,
				"fio: job \"%.40s\" of group %d: its clones' own figures are past %d job blocks "
				"in one report: their sum only", g->name, g->id, FIO_CLONES);
		for (int d = 0; d < FIO_NDIR; d++) {
			struct fio_dir *fd = &g->d[d];
			if (!fd->have || (fd->io_kib <= 0 && fd->bw_kib <= 0 && fd->iops <= 0))
				continue;
			const char *dn = fio_dir_names[d];
			snprintf(m, sizeof(m), "%s_bw", dn);
			if (fd->bw_unit[0])
				pp_emit(p, label, -1, xn, x, m, fd->bw_shown, fd->bw_unit, RP_FINAL);
			else
				pp_emit(p, label, -1, xn, x, m, fd->bw_kib, "KiB/s", RP_FINAL);
			snprintf(m, sizeof(m), "%s_iops", dn);
			pp_emit(p, label, -1, xn, x, m, fd->iops, "IOPS", RP_FINAL);
			/* latencies of jobs that ran at once do not add up: only a
			 * group of one job block (one job, or group_reporting) has
			 * them as a whole; clones have each their own */
			if (g->nblocks != 1) {
				if (g->nblocks > 1 && !g->clones_cut)
					fio_final_clones(p, r, gi, d, label, xn, x);
				continue;
			}
			if (fd->have_clat) {
				snprintf(m, sizeof(m), "%s_clat_avg", dn);
				pp_emit(p, label, -1, xn, x, m, fd->clat_avg, fd->clat_unit, RP_FINAL);
			}
			if (fd->have_lat) {
				snprintf(m, sizeof(m), "%s_lat_avg", dn);
				pp_emit(p, label, -1, xn, x, m, fd->lat_avg, fd->lat_unit, RP_FINAL);
			}
			for (int k = 0; k < FIO_NPCT; k++)
				if (!isnan(fd->pct[k])) {
					snprintf(m, sizeof(m), "%s_clat_%s", dn, fio_pct_names[k]);
					pp_emit(p, label, -1, xn, x, m, fd->pct[k], fd->pct_unit, RP_FINAL);
				}
		}
	}
	pp_set_progress(p, "done", p->prog.elapsed_s, p->prog.throughput, "KiB/s", -1);
}

/* A client's report is complete: its figures are final, under its host.
 * (Clients' reports are not the cumulative reports of one run: no
 * interval rates between them.) */
static void fio_client_done(struct parser *p, struct fio_state *f)
{
	if (!f->cur.ngroups)
		return;
	f->last = f->cur;
	f->have_last = true;
	fio_final(p, f);
	f->have_last = false;
	fio_report_clear(&f->last);
	fio_report_clear(&f->cur);
}

/* The name of a client's report, from the host fio names for it: a
 * second client of a host already named is "host#2" (two servers on one
 * machine; the text gives no port).  When fio printed no host line
 * before the report, or two hosts' lines, the report is "clientN" and a
 * note says why: its host is not guessed. */
static void fio_client_name(struct parser *p, struct fio_state *f, const char *host, bool two,
			    int first, struct fio_report *r)
{
	char *out = r->host;
	size_t n = sizeof(r->host);
	f->nclient++;
	if (host[0] && !two)
		pp_strlcpy(r->hostname, host, sizeof(r->hostname));
	if (!host[0] || two) {
		snprintf(out, n, "client%d", f->nclient);
		pp_note(p, first, first, false,
			"fio --client output: %s before this client's report: labelled %s",
			two ? "two hosts' lines came (which one's report it is cannot be told)"
			    : "no host line came", out);
		return;
	}
	int same = 0;
	for (int i = 0; i < f->nhosts; i++)
		same += strcmp(f->hosts[i], host) == 0;
	if (f->nhosts < FIO_HOSTS)
		pp_strlcpy(f->hosts[f->nhosts++], host, sizeof(f->hosts[0]));
	if (same)
		snprintf(out, n, "%.40s#%d", host, same + 1);
	else
		snprintf(out, n, "%.40s", host);
}

/* --- normal text --------------------------------------------------- */

/* "812MiB/s" or "90.0k" style figures after "KEY=" in s. */
static bool fio_field(const char *s, const char *key, double *v, const char **after)
{
	const char *k = strstr(s, key);
	if (!k)
		return false;
	k += strlen(key);
	while (*k == ' ')
		k++;   /* fio 2.x pads: "runt=  1653msec" */
	size_t n = pp_scan_number(k, v);
	if (!n)
		return false;
	*after = k + n;
	return true;
}

/* fio 2.x prints binary sizes with decimal-looking names ("KB" is KiB):
 * the name it meant, NULL for another. */
static const char *fio2_binary_unit(const char *u, size_t len)
{
	static const char *const tab[][2] = {
		{ "B", "B" }, { "KB", "KiB" }, { "MB", "MiB" }, { "GB", "GiB" }, { "TB", "TiB" },
	};
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strlen(tab[i][0]) == len && strncmp(u, tab[i][0], len) == 0)
			return tab[i][1];
	return NULL;
}

/* The figure after "KEY=" with its size unit, in KiB ("812MiB/s", and in
 * fio 2.x "1935.9KB/s"); shown/unit (may be NULL): the figure as printed
 * and its unit by what it means (2.x's "KB/s" is "KiB/s"), so that it
 * pools right with a 3.x run's. */
static bool fio_size_field(const char *s, const char *key, bool v2, double *kib, const char **after,
			   double *shown, char *unit)
{
	double v;
	const char *a;
	if (!fio_field(s, key, &v, &a))
		return false;
	const char *e = a;
	while (*e && *e != ' ' && *e != '(' && *e != ',' && *e != '/')
		e++;
	const char *u = a;
	size_t ul = (size_t)(e - a);
	if (v2) {
		if (!(u = fio2_binary_unit(a, ul)))
			return false;
		ul = strlen(u);
	}
	double fac = pp_unit_to_kib(u, ul);
	if (fac <= 0)
		return false;
	*kib = v * fac;
	*after = e;
	if (shown) {
		*shown = v;
		/* the rate's "/s" is the field's: "BW=812MiB/s" */
		pp_strlcpy_span(unit, RP_UNIT_LEN - 2, u, ul);
		if (*e == '/')
			strcat(unit, "/s");
	}
	return true;
}

/* A bandwidth as printed added to the direction's: clones (numjobs)
 * that printed one unit are summed in it, else in the smaller unit of
 * the two (fio picks a unit per figure: 950MiB/s beside 1.2GiB/s). */
static void fio_add_shown(struct fio_dir *fd, double v, const char *unit)
{
	double cur = 0;
	if (!fd->bw_unit[0]) {
		fd->bw_shown = v;
		pp_strlcpy(fd->bw_unit, unit, sizeof(fd->bw_unit));
		return;
	}
	if (strcmp(fd->bw_unit, unit) == 0) {
		fd->bw_shown += v;
		return;
	}
	enum units_kind k = units_get_kind(unit);
	if (units_get_factor(unit, k) < units_get_factor(fd->bw_unit, k) &&
	    units_convert_value(fd->bw_shown, fd->bw_unit, unit, &cur)) {
		fd->bw_shown = cur + v;
		pp_strlcpy(fd->bw_unit, unit, sizeof(fd->bw_unit));
	} else if (units_convert_value(v, unit, fd->bw_unit, &cur))
		fd->bw_shown += cur;
}

static struct fio_dir *fio_cur_dir(struct fio_state *f, int d)
{
	if (f->cur.cur < 0 || f->cur.cur >= f->cur.ngroups || d < 0 || d >= FIO_NDIR)
		return NULL;
	return &f->cur.g[f->cur.cur].d[d];
}

/* The record of the block and direction whose lines are being read;
 * NULL none. */
static struct fio_clone *fio_clone_cur(struct fio_state *f)
{
	if (f->clone_cur < 0 || f->clone_cur >= f->cur.nclones)
		return NULL;
	struct fio_clone *c = &f->cur.clones[f->clone_cur];
	return c->g == f->cur.cur && c->dir == f->cur_dir ? c : NULL;
}

static void fio_dir_line(struct fio_state *f, int d, const char *s)
{
	/* 3.x: "write: IOPS=812, BW=812MiB/s (852MB/s)(8122MiB/10001msec); 0 zone resets"
	 * 2.x: "write: io=3200.0KB, bw=1935.9KB/s, iops=483, runt=  1653msec" */
	struct fio_dir *fd = fio_cur_dir(f, d);
	if (!fd)
		return;
	/* the block's own figures, kept for a group of clones */
	f->clone_cur = fio_clone_add(&f->cur, &f->cur.g[f->cur.cur], d);
	struct fio_clone *c = f->clone_cur >= 0 ? &f->cur.clones[f->clone_cur] : NULL;
	bool v2 = !strstr(s, "IOPS=");
	double v, kib, shown;
	const char *a;
	char unit[RP_UNIT_LEN];
	const char *k = strstr(s, v2 ? "iops=" : "IOPS=");
	if (k && pp_scan_suffixed(k + 5, 1000, &v)) {
		fd->iops += v;
		if (c)
			c->iops = v;
	}
	if (fio_size_field(s, v2 ? "bw=" : "BW=", v2, &kib, &a, &shown, unit)) {
		fd->bw_kib += kib;
		fio_add_shown(fd, shown, unit);
		if (c) {
			c->bw = shown;
			pp_strlcpy(c->bw_unit, unit, sizeof(c->bw_unit));
		}
	}
	double ms;
	if (v2) {
		if (fio_size_field(s, "io=", true, &kib, &a, NULL, NULL))
			fd->io_kib += kib;
		if (fio_field(s, "runt=", &ms, &a) && strncmp(a, "msec", 4) == 0 && ms > fd->runtime_ms)
			fd->runtime_ms = ms;
	} else {
		/* "(8122MiB/10001msec)": the io and the runtime */
		const char *io = strstr(s, ")(");
		size_t n = io ? pp_scan_number(io + 2, &v) : 0;
		if (n) {
			const char *u = io + 2 + n, *e = u;
			while (*e && *e != '/')
				e++;
			double fac = pp_unit_to_kib(u, (size_t)(e - u));
			if (*e == '/' && pp_scan_number(e + 1, &ms) && fac > 0) {
				fd->io_kib += v * fac;
				if (ms > fd->runtime_ms)
					fd->runtime_ms = ms;
			}
		}
	}
	fd->have = true;
}

static void fio_pct_line(struct fio_state *f, const char *s)
{
	/* "|  1.00th=[  125],  5.00th=[  145], 10.00th=[  147], 20.00th=[  149]," */
	struct fio_dir *fd = fio_cur_dir(f, f->pct_dir);
	if (!fd)
		return;
	const char *q = s;
	while ((q = strstr(q, "th=[")) != NULL) {
		const char *b = q;
		while (b > s && (b[-1] == '.' || (b[-1] >= '0' && b[-1] <= '9')))
			b--;
		double pct, v;
		if (pp_scan_number(b, &pct)) {
			const char *vs = q + 4;
			while (*vs == ' ')
				vs++;
			if (pp_scan_number(vs, &v))
				for (int k = 0; k < FIO_NPCT; k++)
					if (fabs(pct - fio_pct_keys[k]) < 1e-6) {
						fd->pct[k] = v;
						pp_strlcpy(fd->pct_unit, f->pct_unit, sizeof(fd->pct_unit));
					}
		}
		q += 4;
	}
}

/* The group number after "KEY" ("(g=" in job headers, "(groupid=" in job
 * blocks); -1 when absent. */
static int fio_group_id(const char *s, const char *key)
{
	const char *k = strstr(s, key);
	double v;
	if (!k || !pp_scan_number(k + strlen(key), &v) || v < 0 || v > 1e6 || v != floor(v))
		return -1;
	return (int)v;
}

static void fio_header_bs(struct fio_state *f, const char *s)
{
	/* 3.x: "seqwrite: (g=0): rw=write, bs=(R) 1024KiB-1024KiB, (W) 1024KiB-1024KiB, ..."
	 * 2.x: "create-files: (g=0): rw=write, bs=4K-4K/4K-4K/4K-4K, ioengine=sync" */
	int id = fio_group_id(s, "(g=");
	const char *r = strstr(s, "bs=(R) "), *w = r ? strstr(r, "(W) ") : NULL;
	if (r && w) {
		r += 7;
		w += 4;
	} else if ((r = strstr(s, " bs=")) != NULL) {
		r += 4;
		w = strchr(r, '/');
		if (!w || w > r + strcspn(r, ", "))
			return;
		w++;
	} else
		return;
	size_t rl = strcspn(r, "-, "), wl = strcspn(w, "-, /");
	double rk, wk;
	/* --client: "<host> seqwrite: (g=0): ..." */
	char host[42] = "";
	const char *gt = strstr(s, "> ");
	if (s[0] == '<' && gt && gt < strstr(s, ": (g="))
		pp_strlcpy_span(host, sizeof(host), s + 1, (size_t)(gt - s - 1));
	const char *ns = host[0] ? gt + 2 : s, *ne = strstr(s, ": (g=");
	char name[RP_LABEL_LEN] = "";
	if (ne && ne > ns)
		pp_strlcpy_span(name, sizeof(name), ns, (size_t)(ne - ns));
	bool one = pp_size_to_kib(r, rl, &rk) && pp_size_to_kib(w, wl, &wk) && rk == wk && rk > 0;
	/* the group's, then its jobs of this name */
	for (int k = 0; k < 2; k++) {
		struct fio_hdr *h = fio_hdr_get(f, id < 0 ? 0 : id, host, k ? name : "");
		if (!h)
			return;
		if (one) {
			/* jobs of one group with different block sizes: no single x */
			if (h->known && h->bs_kb != rk)
				h->conflict = true;
			h->bs_kb = rk;
			h->known = true;
		} else
			h->conflict = true;
	}
}

static void fio_eta_line(struct parser *p, struct fio_state *f, const char *s)
{
	/* "Jobs: 1 (f=1): [W(1)][27.3%][w=2050MiB/s][w=2050 IOPS][eta 00m:08s]"
	 * (with reads: "[r=10.0MiB/s,w=5MiB/s][r=2560,w=1280 IOPS]") */
	double bw[2] = { NAN, NAN }, iops[2] = { NAN, NAN };
	bool seen = false;
	for (const char *b = strchr(s, '['); b; b = strchr(b + 1, '[')) {
		const char *e = strchr(b, ']');
		if (!e)
			break;
		bool is_iops = false;
		for (const char *q = b; q + 4 <= e; q++)
			if (strncmp(q, "IOPS", 4) == 0)
				is_iops = true;
		for (const char *q = b + 1; q < e; q++) {
			int d = -1;
			if ((q[0] == 'r' || q[0] == 'w') && q[1] == '=' && (q == b + 1 || q[-1] == ','))
				d = q[0] == 'r' ? 0 : 1;
			if (d < 0)
				continue;
			double v;
			size_t n = is_iops ? pp_scan_suffixed(q + 2, 1000, &v) : pp_scan_number(q + 2, &v);
			if (!n)
				continue;
			if (is_iops)
				iops[d] = v;
			else {
				const char *u = q + 2 + n, *ue = u;
				while (ue < e && *ue != ',' && *ue != ']')
					ue++;
				double fac = pp_unit_to_kib(u, (size_t)(ue - u));
				if (fac <= 0)
					continue;
				bw[d] = v * fac;
			}
			seen = true;
		}
	}
	if (!seen)
		return;
	f->eta_count++;
	double x = f->eta_count;
	double tp = 0;
	for (int d = 0; d < 2; d++) {
		char m[RP_NAME_LEN];
		if (!isnan(bw[d])) {
			snprintf(m, sizeof(m), "%s_bw", fio_dir_names[d]);
			pp_emit(p, NULL, 0, "time_s", x, m, bw[d], "KiB/s", RP_PROGRESS);
			tp += bw[d];
		}
		if (!isnan(iops[d])) {
			snprintf(m, sizeof(m), "%s_iops", fio_dir_names[d]);
			pp_emit(p, NULL, 0, "time_s", x, m, iops[d], "IOPS", RP_PROGRESS);
		}
	}
	pp_set_progress(p, "running", x, tp, "KiB/s", -1);
}

/* A terse line: "3;fio-", "4;fio-", "5;fio-", or v2's "2;name;gid;err;"
 * with its 80 and more fields (v2 names no fio version). */
static bool fio_is_terse(const char *t)
{
	if (t[0] >= '3' && t[0] <= '5' && pp_starts_with(t + 1, ";fio-"))
		return true;
	if (!pp_starts_with(t, "2;"))
		return false;
	int semis = 0;
	for (const char *c = t; *c; c++)
		semis += *c == ';';
	return semis >= 80;
}

static void fio_terse_line(struct parser *p, struct fio_state *f, char *line)
{
	char *fl[140];
	size_t n = 0;
	for (char *s = line; s && n < 140;) {
		fl[n++] = s;
		char *c = strchr(s, ';');
		if (c)
			*c = '\0';
		s = c ? c + 1 : NULL;
	}
	/* fio's stat.c: "2;name;groupid;error;" (v2 names no fio version),
	 * "V;fio-X;name;groupid;error;" (v3-v5); then a block a direction
	 * (read, write; trim from v4): io KiB, bw, iops, runtime, slat
	 * (4), clat (4), 20 percentiles, lat (4), bw min/max/agg/mean/dev:
	 * 41 fields, and in v5 6 more (bw samples, iops min/max/mean/dev/
	 * samples) */
	int ver = line[0] - '0';   /* fio_is_terse: one digit, 2 to 5 */
	int base = ver == 2 ? 0 : 1, block = ver == 5 ? 47 : 41;
	int io0 = 4 + base;
	if (n < (size_t)(io0 + 2 * block))
		return;
	double gid;
	if (!pp_is_number(fl[2 + base], &gid) || gid < 0 || gid > 1e6)
		gid = 0;
	struct fio_group *g = fio_group_get(&f->cur, (int)gid, fl[1 + base]);
	if (!g)
		return;
	const int io[2] = { io0, io0 + block };
	const int clat[2] = { io[0] + 10, io[1] + 10 }, pct[2] = { io[0] + 12, io[1] + 12 };
	const int lat[2] = { io[0] + 34, io[1] + 34 };   /* total latency's mean */
	double v;
	struct fio_dir got[2];
	for (int d = 0; d < 2; d++) {
		struct fio_dir *fd = &got[d];
		memset(fd, 0, sizeof(*fd));
		for (int k = 0; k < FIO_NPCT; k++)
			fd->pct[k] = NAN;
		/* terse gives KiB/s and us */
		pp_strlcpy(fd->clat_unit, "us", sizeof(fd->clat_unit));
		pp_strlcpy(fd->lat_unit, "us", sizeof(fd->lat_unit));
		pp_strlcpy(fd->pct_unit, "us", sizeof(fd->pct_unit));
		double kb, bw, iops, rt;
		if (!pp_is_number(fl[io[d]], &kb) || !pp_is_number(fl[io[d] + 1], &bw) ||
		    !pp_is_number(fl[io[d] + 2], &iops) || !pp_is_number(fl[io[d] + 3], &rt))
			return;
		fd->have = true;
		fd->io_kib = kb;
		fd->bw_kib = bw;
		fd->iops = iops;
		fd->runtime_ms = rt;
		if (pp_is_number(fl[clat[d]], &v) && kb > 0) {
			fd->have_clat = true;
			fd->clat_avg = v;
		}
		if (pp_is_number(fl[lat[d]], &v) && kb > 0) {
			fd->have_lat = true;
			fd->lat_avg = v;
		}
		for (int k = 0; k < 20 && kb > 0; k++) {
			char *e = strchr(fl[pct[d] + k], '=');
			double pc;
			if (!e)
				continue;
			*e = '\0';
			size_t pn = pp_scan_number(fl[pct[d] + k], &pc);
			if (pn && pp_is_number(e + 1, &v))
				for (int q = 0; q < FIO_NPCT; q++)
					if (fabs(pc - fio_pct_keys[q]) < 1e-6)
						fd->pct[q] = v;
		}
	}
	/* a whole line read: add it to its group */
	for (int d = 0; d < 2; d++) {
		struct fio_dir *fd = &g->d[d];
		fd->have = true;
		fd->io_kib += got[d].io_kib;
		fd->bw_kib += got[d].bw_kib;
		fd->iops += got[d].iops;
		if (got[d].runtime_ms > fd->runtime_ms)
			fd->runtime_ms = got[d].runtime_ms;
		fd->have_clat = got[d].have_clat;
		fd->clat_avg = got[d].clat_avg;
		fd->have_lat = got[d].have_lat;
		fd->lat_avg = got[d].lat_avg;
		memcpy(fd->pct, got[d].pct, sizeof(fd->pct));
		memcpy(fd->clat_unit, got[d].clat_unit, sizeof(fd->clat_unit));
		memcpy(fd->lat_unit, got[d].lat_unit, sizeof(fd->lat_unit));
		memcpy(fd->pct_unit, got[d].pct_unit, sizeof(fd->pct_unit));
		/* the line's own figures, kept for a group of clones */
		int ci = fio_clone_add(&f->cur, g, d);
		if (ci >= 0) {
			struct fio_clone *c = &f->cur.clones[ci];
			c->bw = got[d].bw_kib;
			pp_strlcpy(c->bw_unit, "KiB/s", sizeof(c->bw_unit));
			c->iops = got[d].iops;
			if (got[d].have_clat)
				c->clat_avg = got[d].clat_avg;
			if (got[d].have_lat)
				c->lat_avg = got[d].lat_avg;
			pp_strlcpy(c->clat_unit, "us", sizeof(c->clat_unit));
			pp_strlcpy(c->lat_unit, "us", sizeof(c->lat_unit));
		}
	}
	g->nblocks++;
	f->cur.closed = true;
	(void)p;
}

/* --- json ------------------------------------------------------------ */

/* Where a JSON number is, for a note: the parser, the document's lines,
 * the job and the direction. */
struct fio_jwhere {
	struct parser *p;
	int first;
	const char *job, *dir;
};

/* A number of the document: *ok false when absent or not a number.  One
 * out of range (docs/parsers.md, numbers: 1e309, NaN, Infinity, or an
 * integer json-c saturated at 2^63-1 / 2^64-1, past any figure) is NAN,
 * n/a, with a note naming its lines, job and key when w is given. */
static double jnum_at(struct json_object *o, const char *key, bool *ok, const struct fio_jwhere *w)
{
	struct json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int))) {
		*ok = false;
		return 0;
	}
	double d = json_object_get_double(v);
	bool sat = json_object_is_type(v, json_type_int) &&
		   (json_object_get_uint64(v) == UINT64_MAX || json_object_get_int64(v) == INT64_MAX ||
		    json_object_get_int64(v) == INT64_MIN);
	if (!isfinite(d) || sat) {
		if (w && w->p)
			pp_note(w->p, w->first, w->p->lineno, false,
				"fio JSON, job \"%.40s\": %s.%s %.32s is out of range: n/a",
				w->job ? w->job : "?", w->dir ? w->dir : "", key,
				sat ? "(an integer past 64 bits)" : json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
		return NAN;
	}
	return d;
}

static double jnum(struct json_object *o, const char *key, bool *ok)
{
	double d = jnum_at(o, key, ok, NULL);

	if (isnan(d))
		*ok = false;
	return d;
}

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* The block size of "job options" or "global options", when it is one. */
static bool fio_json_bs(struct json_object *opts, double *kb)
{
	const char *s = jstr(opts, "bs");
	if (!s)
		s = jstr(opts, "blocksize");
	return s && pp_size_to_kib(s, strlen(s), kb) && *kb > 0;
}

static int fio_json_gid(struct json_object *job)
{
	bool ok = true;
	double g = jnum(job, "groupid", &ok);
	if (!ok || g < 0 || g > 1e6)
		return 0;
	return (int)g;
}

/* One direction of a job entry.  fio 3.x: io_kbytes (KiB), io_bytes
 * (bytes), clat_ns; fio 2.x: io_bytes in KiB, clat in us. */
static bool fio_json_dir(struct json_object *dir, struct fio_dir *fd, struct fio_clone *c,
			 const struct fio_jwhere *w)
{
	bool ok = true;
	double bw = jnum_at(dir, "bw", &ok, w), iops = jnum_at(dir, "iops", &ok, w),
	       rt = jnum_at(dir, "runtime", &ok, w);
	if (!ok)
		return false;
	bool okk = true;
	double io = jnum_at(dir, "io_kbytes", &okk, w);
	if (!okk) {
		okk = true;
		io = jnum_at(dir, "io_bytes", &okk, w);   /* 2.x: KiB */
		if (!okk)
			return false;
	}
	bool ok2 = true;
	double tot = jnum_at(dir, "total_ios", &ok2, w);
	fd->have = true;
	fd->bw_kib += bw;
	fd->iops += iops;
	fd->io_kib += io;
	c->bw = bw;
	pp_strlcpy(c->bw_unit, "KiB/s", sizeof(c->bw_unit));
	c->iops = iops;
	if (ok2)
		fd->issued += tot;
	if (rt > fd->runtime_ms || isnan(rt))
		fd->runtime_ms = rt;   /* n/a stays n/a */
	struct json_object *clat, *pct, *lat;
	const char *tu = "ns";   /* clat_ns; 2.x's clat: us */
	/* the total latency: "lat_ns" (3.x), "lat" in us (2.x) */
	bool lat_ns = json_object_object_get_ex(dir, "lat_ns", &lat);
	if ((lat_ns || json_object_object_get_ex(dir, "lat", &lat)) && io > 0 &&
	    json_object_is_type(lat, json_type_object)) {
		bool okl = true;
		double mean = jnum_at(lat, "mean", &okl, w);
		if (okl) {
			fd->have_lat = true;
			fd->lat_avg = c->lat_avg = mean;
			pp_strlcpy(fd->lat_unit, lat_ns ? "ns" : "us", sizeof(fd->lat_unit));
			pp_strlcpy(c->lat_unit, fd->lat_unit, sizeof(c->lat_unit));
		}
	}
	if (!json_object_object_get_ex(dir, "clat_ns", &clat)) {
		tu = "us";
		if (!json_object_object_get_ex(dir, "clat", &clat))
			return true;
	}
	if (io <= 0 || !json_object_is_type(clat, json_type_object))
		return true;
	bool ok3 = true;
	double mean = jnum_at(clat, "mean", &ok3, w);
	if (ok3) {
		fd->have_clat = true;
		fd->clat_avg = c->clat_avg = mean;
		pp_strlcpy(fd->clat_unit, tu, sizeof(fd->clat_unit));
		pp_strlcpy(c->clat_unit, tu, sizeof(c->clat_unit));
	}
	if (json_object_object_get_ex(clat, "percentile", &pct) && json_object_is_type(pct, json_type_object)) {
		json_object_object_foreach(pct, key, val) {
			double pc;
			if (!pp_is_number(key, &pc))
				continue;
			for (int k = 0; k < FIO_NPCT; k++)
				if (fabs(pc - fio_pct_keys[k]) < 1e-6) {
					bool okp = true;
					double v = jnum_at(pct, key, &okp, w);
					if (okp) {
						fd->pct[k] = v;
						pp_strlcpy(fd->pct_unit, tu, sizeof(fd->pct_unit));
					}
				}
		}
	}
	return true;
}

/* One entry of "jobs" (or "client_stats") added to its group of the
 * current report; gbs: the block size of "global options", NULL none. */
static void fio_json_job(struct parser *p, struct fio_state *f, struct json_object *job, const double *gbs)
{
	struct json_object *o;
	if (!json_object_is_type(job, json_type_object))
		return;
	const char *name = jstr(job, "jobname");
	struct fio_group *g = fio_group_get(&f->cur, fio_json_gid(job), name);
	if (!g)
		return;
	double kb;
	if (!g->bs_known) {
		if (json_object_object_get_ex(job, "job options", &o) && fio_json_bs(o, &kb)) {
			g->bs_kb = kb;
			g->bs_known = true;
		} else if (gbs) {
			g->bs_kb = *gbs;
			g->bs_known = true;
		}
	}
	bool any = false;
	for (int d = 0; d < FIO_NDIR; d++) {
		struct json_object *dir;
		struct fio_jwhere w = { p, f->json_first, name, fio_dir_names[d] };
		if (!json_object_object_get_ex(job, fio_dir_names[d], &dir) ||
		    !json_object_is_type(dir, json_type_object))
			continue;
		/* the entry's own figures, kept for a group of clones (a
		 * record dropped again when the direction is not read) */
		int ci = fio_clone_add(&f->cur, g, d);
		struct fio_clone spare;
		if (fio_json_dir(dir, &g->d[d], ci >= 0 ? &f->cur.clones[ci] : &spare, &w))
			any = true;
		else if (ci >= 0)
			f->cur.nclones--;
	}
	if (any)
		g->nblocks++;
}

static bool fio_json_is_all(struct json_object *job)
{
	const char *name = jstr(job, "jobname");
	return name && strcmp(name, "All clients") == 0;
}

/* A client's entry: its "hostname" (fio's --client argument) and
 * "port"; the client is the pair. */
static void fio_json_client_key(struct json_object *job, char *host, size_t n, int *port)
{
	const char *h = jstr(job, "hostname");
	bool ok = true;
	double pt = jnum(job, "port", &ok);
	pp_strlcpy(host, h ? h : "", n);
	*port = ok && pt >= 0 && pt < 1e6 ? (int)pt : -1;
}

/* client_stats: each client's entries are its own report, labelled by
 * its host (host:port when two clients share a host name); "All
 * clients" (fio's sum over every client and group) is not read. */
static void fio_json_clients(struct parser *p, struct fio_state *f, struct json_object *jobs, size_t n,
			     const double *gbs)
{
	char keys[FIO_HOSTS][48];
	int ports[FIO_HOSTS], nkeys = 0;
	for (size_t j = 0; j < n; j++) {
		struct json_object *job = json_object_array_get_idx(jobs, j);
		if (!json_object_is_type(job, json_type_object) || fio_json_is_all(job))
			continue;
		char h[48];
		int port, k;
		fio_json_client_key(job, h, sizeof(h), &port);
		for (k = 0; k < nkeys; k++)
			if (ports[k] == port && strcmp(keys[k], h) == 0)
				break;
		if (k == nkeys && nkeys < FIO_HOSTS) {
			pp_strlcpy(keys[nkeys], h, sizeof(keys[0]));
			ports[nkeys++] = port;
		}
	}
	for (int k = 0; k < nkeys; k++) {
		fio_report_clear(&f->cur);
		bool shared = false;
		for (int i = 0; i < nkeys; i++)
			shared = shared || (i != k && strcmp(keys[i], keys[k]) == 0);
		if (shared && ports[k] >= 0)
			snprintf(f->cur.host, sizeof(f->cur.host), "%s:%d", keys[k], ports[k]);
		else
			pp_strlcpy(f->cur.host, keys[k], sizeof(f->cur.host));
		for (size_t j = 0; j < n; j++) {
			struct json_object *job = json_object_array_get_idx(jobs, j);
			char h[48];
			int port;
			if (!json_object_is_type(job, json_type_object) || fio_json_is_all(job))
				continue;
			fio_json_client_key(job, h, sizeof(h), &port);
			if (port == ports[k] && strcmp(h, keys[k]) == 0)
				fio_json_job(p, f, job, gbs);
		}
		f->cur.closed = true;
		fio_client_done(p, f);
	}
}

static void fio_json_doc(struct parser *p, struct fio_state *f, struct json_object *root)
{
	struct json_object *jobs, *o;
	if (!json_object_is_type(root, json_type_object))
		return;
	/* client/server output: one entry per client and job, each client's
	 * its own report.  The "All clients" entry is fio's sum over every
	 * client and group (fio-3.33 gives it the last groupid), so it is used
	 * only when there is nothing else. */
	bool clients = false;
	if (!json_object_object_get_ex(root, "jobs", &jobs)) {
		if (!json_object_object_get_ex(root, "client_stats", &jobs))
			return;
		clients = true;
	}
	if (!json_object_is_type(jobs, json_type_array))
		return;
	double gbs = 0;
	bool gbs_known = json_object_object_get_ex(root, "global options", &o) && fio_json_bs(o, &gbs);
	fio_report_clear(&f->cur);
	size_t n = json_object_array_length(jobs), nown = 0;
	if (n > 4096)
		n = 4096;
	for (size_t j = 0; clients && j < n; j++) {
		const char *name = jstr(json_object_array_get_idx(jobs, j), "jobname");
		if (!name || strcmp(name, "All clients") != 0)
			nown++;
	}
	if (clients && nown) {
		fio_json_clients(p, f, jobs, n, gbs_known ? &gbs : NULL);
		return;
	}
	for (size_t j = 0; j < n; j++)
		fio_json_job(p, f, json_object_array_get_idx(jobs, j), gbs_known ? &gbs : NULL);
	f->cur.closed = true;
	fio_close_report(p, f);
}

static void fio_json_feed(struct parser *p, struct fio_state *f, const char *s, size_t len)
{
	char nl = '\n';
	for (int pass = 0; pass < 2; pass++) {
		const char *buf = pass ? &nl : s;
		size_t n = pass ? 1 : len;
		while (f->in_json && n) {
			if (!f->tok) {
				f->tok = json_tokener_new();
				if (!f->tok) {
					f->in_json = false;
					return;
				}
			}
			f->json_bytes += n;
			if (f->json_bytes > FIO_JSON_MAX) {
				json_tokener_reset(f->tok);
				f->in_json = false;
				return;
			}
			if (f->json_done && n == 1 && *buf == '\n')
				break;   /* the end of the document's last line */
			f->json_done = false;
			struct json_object *o = json_tokener_parse_ex(f->tok, buf, (int)n);
			enum json_tokener_error err = json_tokener_get_error(f->tok);
			if (o) {
				size_t used = json_tokener_get_parse_end(f->tok);
				fio_json_doc(p, f, o);
				json_object_put(o);
				json_tokener_reset(f->tok);
				f->json_bytes = 0;
				if (used > n)
					used = n;
				buf += used;
				n -= used;
				while (n && (*buf == ' ' || *buf == '\t' || *buf == '\n'))
					buf++, n--;
				if (n && *buf != '{')
					f->in_json = false;   /* text after the document */
				f->json_done = n == 0;
				f->json_first = p->lineno;
				continue;
			}
			if (err == json_tokener_continue)
				break;
			json_tokener_reset(f->tok);
			f->json_bytes = 0;
			f->in_json = false;
		}
		if (!f->in_json)
			return;
	}
}

/* --- lines ----------------------------------------------------------- */

/* The end of one fio run: its last report is the final figure; the
 * next run starts afresh (its points are numbered as further runs). */
static void fio_end_run(struct parser *p, struct fio_state *f)
{
	if (f->clients)
		fio_client_done(p, f);
	f->nclient = f->nhosts = f->host_first = 0;
	f->host[0] = '\0';
	f->host_two = false;
	fio_close_report(p, f);
	fio_final(p, f);
	f->have_last = false;
	fio_report_clear(&f->last);
	fio_report_clear(&f->cur);
	f->nprev = f->nhdr = 0;
	f->cur_dir = f->pct_dir = f->clone_cur = -1;
}

/* "read: ", "write: ", "mixed: " (fio 2.x pads: "read : "); -1 when none. */
static int fio_dir_of(const char *t)
{
	for (int d = 0; d < FIO_NDIR; d++) {
		size_t n = strlen(fio_dir_names[d]);
		if (strncmp(t, fio_dir_names[d], n) != 0)
			continue;
		while (t[n] == ' ')
			n++;
		if (t[n] == ':' && t[n + 1] == ' ')
			return d;
	}
	return -1;
}

/* The lines around the reports: a JSON document's start, the ETA line,
 * a terse line, the job headers, a client's hostname.  True when t (of
 * length l, in line) was one. */
static bool fio_outer_line(struct parser *p, struct fio_state *f, char *line, const char *t, size_t l,
			   bool truncated)
{
	if (t[0] == '{' && !truncated) {
		pp_title_apply(p, &f->tt);
		f->in_json = true;
		f->json_done = false;
		f->json_first = p->lineno;
		f->json_bytes = 0;
		fio_json_feed(p, f, t, l);
		return true;
	}
	if (pp_starts_with(t, "Jobs: ")) {
		fio_eta_line(p, f, t);
		return true;
	}
	if (fio_is_terse(t) && !truncated) {
		fio_terse_line(p, f, line + (t - line));
		return true;
	}
	if (strstr(t, ": (g=") && strstr(t, "rw=")) {
		/* job headers after a complete report: the log holds another
		 * fio run (a script that runs fio again); --status-interval
		 * prints its headers once, at the top */
		if (f->have_last || f->cur.closed)
			fio_end_run(p, f);
		pp_title_apply(p, &f->tt);
		fio_header_bs(f, t);
		return true;
	}
	if (pp_starts_with(t, "hostname=") && strstr(t, " fio=")) {
		f->clients = true;   /* "hostname=vm, be=0, 64-bit, os=Linux, ..., fio=fio-3.33" */
		return true;
	}
	if (f->clients && l > 2 && t[0] == '<' && t[l - 1] == '>' && !memchr(t, ' ', l)) {
		/* "<host> " alone: a server's last text, printed just before fio
		 * prints that client's report (client.c: handle_text, then the
		 * report when the client goes) */
		char h[RP_LABEL_LEN];
		pp_strlcpy_span(h, sizeof(h) < 42 ? sizeof(h) : 42, t + 1, l - 2);
		if (f->host[0] && strcmp(f->host, h) != 0)
			f->host_two = true;
		pp_strlcpy(f->host, h, sizeof(f->host));
		f->host_first = p->lineno;
		return true;
	}
	return false;
}

/* A line under "Run status group N" ("READ: bw=39.7MiB/s (41.7MB/s),
 * 19.9MiB/s-19.9MiB/s ...", 2.x "READ: io=..., aggrb=79.2MB/s, ..."):
 * fio's own sum of the group's jobs.  Where the group's job blocks were
 * clones of one job (numjobs without group_reporting), it is that job's
 * bandwidth as fio printed it: the clones' figures are rounded, and
 * their sum (19.9 + 19.9) is not what fio said (39.7). */
static void fio_status_line(struct fio_state *f, const char *t)
{
	static const char *const keys[FIO_NDIR] = { "READ:", "WRITE:", "MIXED:" };
	int d = 0;
	while (d < FIO_NDIR && !pp_starts_with(t, keys[d]))
		d++;
	if (d == FIO_NDIR)
		return;
	struct fio_group *clones = NULL;
	for (int i = 0; i < f->cur.ngroups; i++)
		if (f->cur.g[i].id == f->status_gid1 - 1 && f->cur.g[i].d[d].have) {
			if (clones)
				return;   /* two jobs' names did this direction: the sum is not one job's */
			clones = &f->cur.g[i];
		}
	if (!clones || clones->nblocks < 2 || !clones->d[d].bw_unit[0])
		return;
	bool v2 = strstr(t, "aggrb=") != NULL;
	double kib, shown;
	const char *a;
	char unit[RP_UNIT_LEN];
	if (fio_size_field(t, v2 ? "aggrb=" : "bw=", v2, &kib, &a, &shown, unit)) {
		clones->d[d].bw_kib = kib;
		clones->d[d].bw_shown = shown;
		pp_strlcpy(clones->d[d].bw_unit, unit, sizeof(clones->d[d].bw_unit));
	}
}

/* A group's report starts: "seqwrite: (groupid=0, jobs=1): err= 0:
 * pid=..."; with clients, each client's report adds to the group's, and
 * "All clients:" is their sum (not read again). */
static void fio_group_start(struct parser *p, struct fio_state *f, const char *t)
{
	f->status_gid1 = 0;
	if (f->clients) {
		/* a client's report ends where the next one or "All clients"
		 * starts (each ends with its "Run status group" lines) */
		bool all = pp_starts_with(t, "All clients: (groupid=");
		if (f->cur.closed || all)
			fio_client_done(p, f);
		f->in_all = all;
		if (all) {
			f->cur.cur = -1;
			return;
		}
		f->cur.closed = false;
		if (!f->cur.ngroups) {
			fio_client_name(p, f, f->host, f->host_two, p->lineno, &f->cur);
			f->host[0] = '\0';
			f->host_two = false;
		}
	} else if (f->cur.closed)
		fio_close_report(p, f);
	else if (!f->cur.ngroups && !f->have_last)
		pp_title_apply(p, &f->tt);   /* a run pasted without its job headers */
	char name[RP_LABEL_LEN];
	size_t nl = (size_t)(strstr(t, ": (groupid=") - t);
	pp_strlcpy(name, t, nl + 1 < sizeof(name) ? nl + 1 : sizeof(name));
	int gid = fio_group_id(t, "(groupid=");
	struct fio_group *g = fio_group_get(&f->cur, gid < 0 ? 0 : gid, name);
	f->cur.cur = g ? (int)(g - f->cur.g) : -1;
	if (g)
		g->nblocks++;
	f->cur_dir = f->pct_dir = f->clone_cur = -1;
}

/* "clat (usec): min=..., avg=..." (the mean of the direction read last)
 * or "clat percentiles (usec):" (the lines under it are its percentiles). */
static void fio_clat_line(struct fio_state *f, const char *t)
{
	const char *u = strchr(t, '(') + 1;
	const char *e = strchr(u, ')');
	char unit[RP_UNIT_LEN];
	if (!e || !pp_time_unit(u, (size_t)(e - u), unit))
		return;
	if (t[5] == 'p') {
		f->pct_dir = f->cur_dir;
		pp_strlcpy(f->pct_unit, unit, sizeof(f->pct_unit));
		return;
	}
	const char *a;
	double v;
	struct fio_dir *fd = fio_cur_dir(f, f->cur_dir);
	if (fd && fio_field(t, "avg=", &v, &a)) {
		fd->have_clat = true;
		fd->clat_avg = v;
		pp_strlcpy(fd->clat_unit, unit, sizeof(fd->clat_unit));
		struct fio_clone *c = fio_clone_cur(f);
		if (c) {
			c->clat_avg = v;
			pp_strlcpy(c->clat_unit, unit, sizeof(c->clat_unit));
		}
	}
}

/* "lat (usec): min=18, max=32908, avg=274.20, stdev=1386.78": the total
 * latency (submission + completion) of the direction read last.  Not
 * "lat (usec)   : 2=0.01%, 10=0.01%, ...", the share of I/Os per latency
 * bucket over all directions, which has no avg=. */
static void fio_lat_line(struct fio_state *f, const char *t)
{
	const char *u = t + 5;
	const char *e = strchr(u, ')');
	char unit[RP_UNIT_LEN];
	const char *a;
	double v;
	struct fio_dir *fd = fio_cur_dir(f, f->cur_dir);
	if (e && pp_time_unit(u, (size_t)(e - u), unit) && fd && fio_field(t, "avg=", &v, &a)) {
		fd->have_lat = true;
		fd->lat_avg = v;
		pp_strlcpy(fd->lat_unit, unit, sizeof(fd->lat_unit));
		struct fio_clone *c = fio_clone_cur(f);
		if (c) {
			c->lat_avg = v;
			pp_strlcpy(c->lat_unit, unit, sizeof(c->lat_unit));
		}
	}
}

/* A line inside a group's report: a direction's figures, its latencies
 * and percentiles, the requests issued. */
static void fio_report_line(struct fio_state *f, const char *t)
{
	int d = fio_dir_of(t);
	if (d >= 0) {
		f->cur_dir = d;
		f->pct_dir = -1;
		fio_dir_line(f, f->cur_dir, t);
		return;
	}
	if (pp_starts_with(t, "trim: ") || pp_starts_with(t, "trim : ")) {
		f->cur_dir = f->pct_dir = f->clone_cur = -1;
		return;
	}
	if (f->cur_dir < 0)
		return;
	if (pp_starts_with(t, "clat (") || pp_starts_with(t, "clat percentiles (")) {
		fio_clat_line(f, t);
		return;
	}
	if (pp_starts_with(t, "lat (") && strstr(t, "avg=")) {
		fio_lat_line(f, t);
		return;
	}
	if (t[0] == '|' && f->pct_dir >= 0) {
		fio_pct_line(f, t);
		return;
	}
	f->pct_dir = -1;
	if (pp_starts_with(t, "issued rwts: total=")) {
		double r, w;
		const char *s = t + strlen("issued rwts: total=");
		size_t n = pp_scan_number(s, &r);
		struct fio_group *g = &f->cur.g[f->cur.cur];
		if (n && s[n] == ',' && pp_scan_number(s + n + 1, &w)) {
			g->d[0].issued += r;
			g->d[1].issued += w;
		}
	}
}

static void fio_line(struct parser *p, char *line, size_t len, bool by_cr, bool truncated)
{
	struct fio_state *f = p->st;
	(void)by_cr;
	size_t q = pp_quote_len(line);
	line += q;
	len -= q;
	if (f->in_json && f->json_done) {
		/* between documents: another one, or the text that follows
		 * (--output-format=normal,json prints the JSON document, then
		 * the same run's normal report: fio's stat.c writes its output
		 * buffers terse, JSON, normal in turn) */
		size_t tl;
		const char *tt = pp_trim(line, &tl);
		if (tl == 0)
			return;
		if (tt[0] != '{') {
			f->in_json = f->json_done = false;
			json_tokener_reset(f->tok);
		}
	}
	if (f->in_json) {
		if (truncated) {
			/* a cut line is a broken document: give it up */
			json_tokener_reset(f->tok);
			f->in_json = false;
			return;
		}
		fio_json_feed(p, f, line, len);
		return;
	}
	size_t l;
	const char *t = pp_trim(line, &l);
	if (l == 0 || pp_title_line(&f->tt, t, l) || fio_outer_line(p, f, line, t, l, truncated))
		return;
	if (strstr(t, ": (groupid=")) {
		fio_group_start(p, f, t);
		return;
	}
	if (pp_starts_with(t, "Run status group")) {
		f->cur.closed = true;
		f->cur.cur = -1;
		f->cur_dir = f->pct_dir = f->clone_cur = -1;
		f->status_gid1 = fio_group_id(t, "Run status group ") + 1;
		return;
	}
	if (f->status_gid1 && f->cur.closed) {
		fio_status_line(f, t);
		return;
	}
	if (f->cur.cur >= 0 && !f->cur.closed)
		fio_report_line(f, t);
}

static void fio_finish(struct parser *p)
{
	fio_end_run(p, p->st);
}

/* fio's version line, a job or group header, terse or JSON output. */
static bool fio_sniff(const char *t)
{
	t = pp_unquoted(t);
	return pp_starts_with(t, "fio-") || strstr(t, "(groupid=") || pp_starts_with(t, "\"fio version\"") ||
	       fio_is_terse(t) ||
	       pp_starts_with(t, "Run status group") || (pp_starts_with(t, "Jobs: ") && strstr(t, "(f=")) ||
	       (strstr(t, ": (g=") && strstr(t, "rw="));
}

const struct parser_ops parser_fio_ops = {
	.name = "fio",
	.state_size = sizeof(struct fio_state),
	.init = fio_init,
	.line = fio_line,
	.finish = fio_finish,
	.fini = fio_fini,
	.commands = (const char *const[]){ "fio", NULL },
	.headline = (const char *const[]){ "read_bw", "write_bw", NULL },
	.package = "fio",
	.sniff = fio_sniff,
};
