/* fio: normal output, --output-format=json (also several documents back to
 * back from --status-interval), terse v3, and the --eta=always status line.
 *
 * A "report" is one complete set of job blocks (text), one JSON document,
 * or the terse lines.  --status-interval prints cumulative reports; the
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

#define FIO_JSON_MAX (16u * 1024 * 1024)   /* one document; fio's are a few KiB per job */
#define FIO_NPCT 5

static const double fio_pct_keys[FIO_NPCT] = { 50, 90, 95, 99, 99.9 };
static const char *const fio_pct_names[FIO_NPCT] = { "p50", "p90", "p95", "p99", "p99_9" };
static const char *const fio_dir_names[2] = { "read", "write" };

struct fio_dir {
	bool have;
	double bw_kib, iops, io_kib, runtime_ms, issued;
	bool have_clat;
	double clat_avg_us;
	double pct_us[FIO_NPCT];   /* NaN when not shown */
};

struct fio_report {
	int njobs;
	bool closed;               /* "Run status group" seen after the job blocks */
	struct fio_dir d[2];
};

struct fio_state {
	struct fio_report cur, last;
	bool have_last;
	double prev_io[2], prev_rt[2], prev_issued[2];
	int cur_dir, pct_dir;
	double pct_factor;
	double bs_kb;
	bool bs_known;
	/* json */
	struct json_tokener *tok;
	bool in_json;
	size_t json_bytes;
	/* eta */
	unsigned eta_count;
};

static void fio_report_clear(struct fio_report *r)
{
	memset(r, 0, sizeof(*r));
	for (int d = 0; d < 2; d++)
		for (int k = 0; k < FIO_NPCT; k++)
			r->d[d].pct_us[k] = NAN;
}

static void fio_init(struct parser *p)
{
	struct fio_state *f = p->st;
	fio_report_clear(&f->cur);
	fio_report_clear(&f->last);
	f->cur_dir = f->pct_dir = -1;
}

static void fio_fini(struct parser *p)
{
	struct fio_state *f = p->st;
	if (f->tok)
		json_tokener_free(f->tok);
	f->tok = NULL;
}

static const char *fio_x(struct fio_state *f, double *x)
{
	if (f->bs_known) {
		*x = f->bs_kb;
		return "bs_kb";
	}
	*x = 0;
	return "run";
}

/* A complete report: its interval rates become progress points. */
static void fio_close_report(struct parser *p, struct fio_state *f)
{
	struct fio_report *r = &f->cur;
	if (!r->njobs)
		return;
	double tp = 0;
	bool any = false;
	for (int d = 0; d < 2; d++) {
		struct fio_dir *fd = &r->d[d];
		if (!fd->have || fd->runtime_ms <= 0)
			continue;
		double dt = fd->runtime_ms - f->prev_rt[d];
		/* the text report rounds io ("12.4GiB"): with a fixed block size
		 * the issued count is the exact amount */
		double io = f->bs_known && fd->issued > 0 ? fd->issued * f->bs_kb : fd->io_kib;
		if (dt > 0 && io >= f->prev_io[d]) {
			double x = fd->runtime_ms / 1000.0;
			char m[RP_NAME_LEN];
			double bw = (io - f->prev_io[d]) / dt * 1000.0;
			snprintf(m, sizeof(m), "%s_bw", fio_dir_names[d]);
			pp_emit(p, NULL, 0, "time_s", x, m, bw, "KiB/s", RP_PROGRESS);
			tp += bw;
			any = true;
			if (fd->issued >= f->prev_issued[d] && fd->issued > 0) {
				snprintf(m, sizeof(m), "%s_iops", fio_dir_names[d]);
				pp_emit(p, NULL, 0, "time_s", x, m, (fd->issued - f->prev_issued[d]) / dt * 1000.0,
					"IOPS", RP_PROGRESS);
			}
		}
		f->prev_rt[d] = fd->runtime_ms;
		f->prev_io[d] = io;
		f->prev_issued[d] = fd->issued;
	}
	double elapsed = fmax(r->d[0].runtime_ms, r->d[1].runtime_ms) / 1000.0;
	if (any)
		pp_set_progress(p, "running", elapsed, tp, "KiB/s", -1);
	f->last = *r;
	f->have_last = true;
	fio_report_clear(&f->cur);
}

static void fio_final(struct parser *p, struct fio_state *f)
{
	if (!f->have_last)
		return;
	struct fio_report *r = &f->last;
	double x;
	const char *xn = fio_x(f, &x);
	char m[RP_NAME_LEN];
	for (int d = 0; d < 2; d++) {
		struct fio_dir *fd = &r->d[d];
		if (!fd->have || (fd->io_kib <= 0 && fd->bw_kib <= 0 && fd->iops <= 0))
			continue;
		const char *dn = fio_dir_names[d];
		snprintf(m, sizeof(m), "%s_bw", dn);
		pp_emit(p, NULL, -1, xn, x, m, fd->bw_kib, "KiB/s", RP_FINAL);
		snprintf(m, sizeof(m), "%s_iops", dn);
		pp_emit(p, NULL, -1, xn, x, m, fd->iops, "IOPS", RP_FINAL);
		/* latency of several jobs does not add up; only one job's is a figure */
		if (r->njobs != 1)
			continue;
		if (fd->have_clat) {
			snprintf(m, sizeof(m), "%s_clat_avg", dn);
			pp_emit(p, NULL, -1, xn, x, m, fd->clat_avg_us, "us", RP_FINAL);
		}
		for (int k = 0; k < FIO_NPCT; k++)
			if (!isnan(fd->pct_us[k])) {
				snprintf(m, sizeof(m), "%s_clat_%s", dn, fio_pct_names[k]);
				pp_emit(p, NULL, -1, xn, x, m, fd->pct_us[k], "us", RP_FINAL);
			}
	}
	pp_set_progress(p, "done", p->prog.elapsed_s, p->prog.throughput, "KiB/s", -1);
}

/* --- normal text --------------------------------------------------- */

/* "812MiB/s" or "90.0k" style figures after "KEY=" in s. */
static bool fio_field(const char *s, const char *key, double *v, const char **after)
{
	const char *k = strstr(s, key);
	if (!k)
		return false;
	k += strlen(key);
	size_t n = pp_scan_number(k, v);
	if (!n)
		return false;
	*after = k + n;
	return true;
}

static void fio_dir_line(struct fio_state *f, int d, const char *s)
{
	/* "write: IOPS=812, BW=812MiB/s (852MB/s)(8122MiB/10001msec); 0 zone resets" */
	struct fio_dir *fd = &f->cur.d[d];
	double v;
	const char *a;
	const char *k = strstr(s, "IOPS=");
	if (k) {
		size_t n = pp_scan_suffixed(k + 5, 1000, &v);
		if (n)
			fd->iops += v;
	}
	if (fio_field(s, "BW=", &v, &a)) {
		const char *e = a;
		while (*e && *e != ' ' && *e != '(' && *e != ',')
			e++;
		double fac = pp_unit_to_kib(a, (size_t)(e - a));
		if (fac > 0)
			fd->bw_kib += v * fac;
	}
	const char *io = strstr(s, ")(");
	if (io) {
		io += 2;
		size_t n = pp_scan_number(io, &v);
		if (n) {
			const char *u = io + n, *e = u;
			while (*e && *e != '/')
				e++;
			double fac = pp_unit_to_kib(u, (size_t)(e - u));
			double ms;
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
	struct fio_dir *fd = &f->cur.d[f->pct_dir];
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
					if (fabs(pct - fio_pct_keys[k]) < 1e-6)
						fd->pct_us[k] = v * f->pct_factor;
		}
		q += 4;
	}
}

static void fio_header_bs(struct fio_state *f, const char *s)
{
	/* "seqwrite: (g=0): rw=write, bs=(R) 1024KiB-1024KiB, (W) 1024KiB-1024KiB, ..." */
	const char *r = strstr(s, "bs=(R) "), *w = strstr(s, "(W) ");
	if (!r || !w)
		return;
	r += 7;
	w += 4;
	size_t rl = strcspn(r, "-, "), wl = strcspn(w, "-, ");
	double rk, wk;
	if (pp_size_to_kib(r, rl, &rk) && pp_size_to_kib(w, wl, &wk) && rk == wk && rk > 0) {
		f->bs_kb = rk;
		f->bs_known = true;
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
	if (n < 80)
		return;
	static const int io[2] = { 5, 46 }, clat[2] = { 15, 56 }, pct[2] = { 17, 58 };
	double v;
	for (int d = 0; d < 2; d++) {
		struct fio_dir *fd = &f->cur.d[d];
		double kb, bw, iops, rt;
		if (!pp_is_number(fl[io[d]], &kb) || !pp_is_number(fl[io[d] + 1], &bw) ||
		    !pp_is_number(fl[io[d] + 2], &iops) || !pp_is_number(fl[io[d] + 3], &rt))
			return;
		fd->have = true;
		fd->io_kib += kb;
		fd->bw_kib += bw;
		fd->iops += iops;
		if (rt > fd->runtime_ms)
			fd->runtime_ms = rt;
		if (pp_is_number(fl[clat[d]], &v) && kb > 0) {
			fd->have_clat = true;
			fd->clat_avg_us = v;
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
						fd->pct_us[q] = v;
		}
	}
	f->cur.njobs++;
	f->cur.closed = true;
}

/* --- json ------------------------------------------------------------ */

static double jnum(struct json_object *o, const char *key, bool *ok)
{
	struct json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int))) {
		*ok = false;
		return 0;
	}
	double d = json_object_get_double(v);
	if (!isfinite(d)) {
		*ok = false;
		return 0;
	}
	return d;
}

static void fio_json_bs(struct fio_state *f, struct json_object *opts)
{
	struct json_object *bs;
	if (!opts || !json_object_object_get_ex(opts, "bs", &bs) || !json_object_is_type(bs, json_type_string))
		return;
	const char *s = json_object_get_string(bs);
	double kb;
	if (s && pp_size_to_kib(s, strlen(s), &kb) && kb > 0) {
		f->bs_kb = kb;
		f->bs_known = true;
	}
}

static void fio_json_doc(struct parser *p, struct fio_state *f, struct json_object *root)
{
	struct json_object *jobs, *o;
	if (!json_object_is_type(root, json_type_object) || !json_object_object_get_ex(root, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array))
		return;
	if (json_object_object_get_ex(root, "global options", &o) && json_object_is_type(o, json_type_object))
		fio_json_bs(f, o);
	fio_report_clear(&f->cur);
	size_t n = json_object_array_length(jobs);
	for (size_t j = 0; j < n && j < 4096; j++) {
		struct json_object *job = json_object_array_get_idx(jobs, j);
		if (!json_object_is_type(job, json_type_object))
			continue;
		if (json_object_object_get_ex(job, "job options", &o) && json_object_is_type(o, json_type_object))
			fio_json_bs(f, o);
		bool any = false;
		for (int d = 0; d < 2; d++) {
			struct json_object *dir, *clat, *pct;
			if (!json_object_object_get_ex(job, fio_dir_names[d], &dir) ||
			    !json_object_is_type(dir, json_type_object))
				continue;
			bool ok = true;
			double bw = jnum(dir, "bw", &ok), iops = jnum(dir, "iops", &ok);
			double io = jnum(dir, "io_kbytes", &ok), rt = jnum(dir, "runtime", &ok);
			if (!ok)
				continue;
			struct fio_dir *fd = &f->cur.d[d];
			bool ok2 = true;
			double tot = jnum(dir, "total_ios", &ok2);
			fd->have = true;
			fd->bw_kib += bw;
			fd->iops += iops;
			fd->io_kib += io;
			if (ok2)
				fd->issued += tot;
			if (rt > fd->runtime_ms)
				fd->runtime_ms = rt;
			any = true;
			if (json_object_object_get_ex(dir, "clat_ns", &clat) && io > 0) {
				bool ok3 = true;
				double mean = jnum(clat, "mean", &ok3);
				if (ok3) {
					fd->have_clat = true;
					fd->clat_avg_us = mean / 1000.0;
				}
				if (json_object_object_get_ex(clat, "percentile", &pct) &&
				    json_object_is_type(pct, json_type_object)) {
					json_object_object_foreach(pct, key, val) {
						double pc;
						if (!pp_is_number(key, &pc))
							continue;
						for (int k = 0; k < FIO_NPCT; k++)
							if (fabs(pc - fio_pct_keys[k]) < 1e-6 &&
							    (json_object_is_type(val, json_type_int) ||
							     json_object_is_type(val, json_type_double)))
								fd->pct_us[k] = json_object_get_double(val) / 1000.0;
					}
				}
			}
		}
		if (any)
			f->cur.njobs++;
	}
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

static void fio_line(struct parser *p, char *line, size_t len, bool by_cr, bool truncated)
{
	struct fio_state *f = p->st;
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
	if (l == 0)
		return;
	if (t[0] == '{' && !truncated) {
		f->in_json = true;
		f->json_bytes = 0;
		fio_json_feed(p, f, t, l);
		return;
	}
	if (pp_starts_with(t, "Jobs: ")) {
		fio_eta_line(p, f, t);
		return;
	}
	if (pp_starts_with(t, "3;fio-") && !truncated) {
		fio_terse_line(p, f, line + (t - line));
		return;
	}
	if (strstr(t, ": (g=") && strstr(t, "rw=")) {
		fio_header_bs(f, t);
		return;
	}
	if (strstr(t, ": (groupid=")) {
		if (f->cur.closed)
			fio_close_report(p, f);
		f->cur.njobs++;
		f->cur_dir = f->pct_dir = -1;
		return;
	}
	if (pp_starts_with(t, "Run status group")) {
		f->cur.closed = true;
		f->cur_dir = f->pct_dir = -1;
		return;
	}
	if (!f->cur.njobs || f->cur.closed)
		return;
	if (pp_starts_with(t, "read: ") || pp_starts_with(t, "write: ")) {
		f->cur_dir = t[0] == 'r' ? 0 : 1;
		f->pct_dir = -1;
		fio_dir_line(f, f->cur_dir, t);
		return;
	}
	if (pp_starts_with(t, "trim: ")) {
		f->cur_dir = f->pct_dir = -1;
		return;
	}
	if (f->cur_dir < 0)
		return;
	if (pp_starts_with(t, "clat (") || pp_starts_with(t, "clat percentiles (")) {
		const char *u = strchr(t, '(') + 1;
		const char *e = strchr(u, ')');
		double fac = e ? pp_time_to_us(u, (size_t)(e - u)) : 0;
		if (fac <= 0)
			return;
		if (t[5] == 'p') {
			f->pct_dir = f->cur_dir;
			f->pct_factor = fac;
			return;
		}
		const char *a;
		double v;
		if (fio_field(t, "avg=", &v, &a)) {
			f->cur.d[f->cur_dir].have_clat = true;
			f->cur.d[f->cur_dir].clat_avg_us = v * fac;
		}
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
		if (n && s[n] == ',' && pp_scan_number(s + n + 1, &w)) {
			f->cur.d[0].issued += r;
			f->cur.d[1].issued += w;
		}
	}
	(void)by_cr;
}

static void fio_finish(struct parser *p)
{
	struct fio_state *f = p->st;
	fio_close_report(p, f);
	fio_final(p, f);
}

const struct parser_ops parser_fio_ops = {
	.name = "fio",
	.state_size = sizeof(struct fio_state),
	.init = fio_init,
	.line = fio_line,
	.finish = fio_finish,
	.fini = fio_fini,
};
