/* The recording writer.  The model calls the observer under its own lock
 * from the sampler and benchmark threads, so the callbacks only format
 * into a memory buffer; recorder_flush() (sampler thread, >= once a second)
 * hands the buffer to write() outside every lock, so a slow disk delays
 * the flush, never a sample.  Whole records go to write() at once, so a
 * kill -9 leaves whole lines plus at most one torn one. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "iodash/base/fdio.h"
#include "iodash/record/recorder.h"
#include "iodash/record/recording.h"
#include "rec_format.h"

#ifndef IODASH_VERSION
#define IODASH_VERSION "unknown"
#endif

/* Past this the callbacks stop buffering and count what they drop: a
 * writer stuck for minutes must not eat the machine's memory. */
#define REC_BUF_LIMIT (64u << 20)

struct recorder {
	pthread_mutex_t lock;        /* buf, last_t, last_bench */
	pthread_mutex_t flush_lock;  /* one flush at a time, in order */
	int fd;
	char *path;
	char *dest;              /* path with its symlinks followed: the file removed on failure */
	bool in_place;           /* a device or FIFO at -o: written, never removed */
	struct rec_buf buf;
	double last_t;
	char last_bench[2048];       /* body of the last B record, to skip repeats */
	int64_t start_rt;            /* H start_realtime_ns: the base of realtime_skew_ns */
	struct rec_buf last_disks;   /* body of the last L record */
	unsigned since_disks;        /* samples since the last L record */
	struct rec_buf bench_texts;  /* texts of the last B record that wrote them out */
	unsigned since_texts;        /* B records since then */
	uint64_t dropped;
	uint64_t written;
	int error;
	char errmsg[512];
};

static void put_sep(struct rec_buf *b) { rec_buf_putc(b, '\t'); }

static void put_d(struct rec_buf *b, double v)
{
	/* The shortest form that reads back as the same double: a replay must
	 * show the figures of the live session even where a figure sits on a
	 * rounding edge of the screen (9 digits were seen to flip 0.05 kB/s). */
	static const int digits[] = { 9, 12, 15, 17 };
	char tmp[40];

	for (size_t i = 0; i < sizeof(digits) / sizeof(digits[0]); i++) {
		snprintf(tmp, sizeof(tmp), "%.*g", digits[i], v);
		if (strtod(tmp, NULL) == v || v != v)
			break;
	}
	rec_buf_putc(b, '\t');
	rec_buf_puts(b, tmp);
}


/* Seconds of the sample clock.  derive makes them whole nanoseconds over
 * 1e9, and the nanoseconds as a decimal read back (strtod rounds
 * correctly, as the division did) as the very same double: 9 digits at
 * most where 17 would be needed in general, trailing zeros dropped.  Any
 * other value goes out in its shortest exact form. */
static void put_secs(struct rec_buf *b, double t)
{
	int64_t ns = rec_secs_to_ns(t);
	uint64_t a = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;
	unsigned frac = (unsigned)(a % 1000000000u);
	int w = 9;

	if ((double)ns / 1e9 != t) {
		put_d(b, t);
		return;
	}
	while (w > 0 && frac % 10 == 0) {
		frac /= 10;
		w--;
	}
	if (w)
		rec_buf_printf(b, "\t%s%llu.%0*u", ns < 0 ? "-" : "", (unsigned long long)(a / 1000000000u), w, frac);
	else
		rec_buf_printf(b, "\t%s%llu", ns < 0 ? "-" : "", (unsigned long long)(a / 1000000000u));
}
static void put_u(struct rec_buf *b, uint64_t v) { rec_buf_printf(b, "\t%llu", (unsigned long long)v); }
static void put_i(struct rec_buf *b, long long v) { rec_buf_printf(b, "\t%lld", v); }

static void put_cols(struct rec_buf *b, char type)
{
	int n;
	const char *const *cols = rec_cols_of(type, &n);
	size_t ls;

	rec_buf_begin(b, &ls, RT_COLS);
	rec_buf_printf(b, "\t%c", type);
	for (int i = 0; i < n; i++) {
		put_sep(b);
		rec_buf_puts(b, cols[i]);
	}
	rec_buf_end(b, ls);
}

static void put_hdr(struct rec_buf *b, const char *key, const char *val)
{
	size_t ls;

	rec_buf_begin(b, &ls, RT_HEADER);
	put_sep(b);
	rec_buf_puts(b, key);
	put_sep(b);
	rec_buf_put_text(b, val ? val : "");
	rec_buf_end(b, ls);
}

static void put_hdr_u(struct rec_buf *b, const char *key, unsigned long long v)
{
	char s[32];

	snprintf(s, sizeof(s), "%llu", v);
	put_hdr(b, key, s);
}

static void format_header(struct rec_buf *b, const struct rec_meta *meta, int64_t *start_rt)
{
	size_t ls;
	char s[64];
	struct timespec now;

	rec_buf_begin(b, &ls, 'i');
	/* The magic is a whole word; begin() put its first letter. */
	rec_buf_printf(b, "%s\t%d\t%d", &RT_MAGIC[1], REC_FORMAT_MAJOR, REC_FORMAT_MINOR);
	rec_buf_end(b, ls);
	put_hdr(b, "writer", "iodash " IODASH_VERSION);
	put_hdr(b, "host", meta->host);
	put_hdr(b, "kernel", meta->kernel);
	put_hdr(b, "label", meta->label);
	put_hdr(b, "source", meta->source);
	put_hdr(b, "command", meta->command);
	snprintf(s, sizeof(s), "%g", meta->interval);
	put_hdr(b, "interval", s);
	/* The first sample's wall clock, when known: each S record then only
	 * stores how far the wall clock strayed from start + t (0 unless the
	 * clock was set or slewed), a few digits instead of 19. */
	if (meta->first && meta->first->realtime_ns) {
		*start_rt = meta->first->realtime_ns;
	} else {
		clock_gettime(CLOCK_REALTIME, &now);
		*start_rt = (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
	}
	snprintf(s, sizeof(s), "%lld", (long long)*start_rt);
	put_hdr(b, "start_realtime_ns", s);
	/* kernel event times are CLOCK_MONOTONIC: view --time mono joins
	 * a replay with ftrace/perf data of the same boot */
	if (meta->first && meta->first->mono_ns)
		put_hdr_u(b, "start_mono_ns", meta->first->mono_ns);
	if (meta->first && (meta->first->have & SNAP_HAVE_KNOBS)) {
		const struct snapshot *f = meta->first;
		put_hdr_u(b, "dirty_background_bytes", f->dirty_background_bytes);
		put_hdr_u(b, "dirty_background_ratio", f->dirty_background_ratio);
		put_hdr_u(b, "dirty_bytes", f->dirty_bytes);
		put_hdr_u(b, "dirty_ratio", f->dirty_ratio);
		put_hdr_u(b, "dirty_expire_centisecs", f->dirty_expire_centisecs);
		put_hdr_u(b, "dirty_writeback_centisecs", f->dirty_writeback_centisecs);
	}
	if (meta->first && meta->first->page_kb)
		put_hdr_u(b, "page_kb", meta->first->page_kb);
	if (meta->first && (meta->first->have & SNAP_HAVE_MEMINFO))
		put_hdr_u(b, "mem_total_kb", meta->first->mem_total_kb);
	put_cols(b, RT_SAMPLE);
	put_cols(b, RT_DISK);
	{
		/* L is a list of pairs, not fixed columns */
		size_t l;
		rec_buf_begin(b, &l, RT_COLS);
		rec_buf_printf(b, "\t%c\tdisk\tnfields\t...", RT_DISKS);
		rec_buf_end(b, l);
		rec_buf_begin(b, &l, RT_COLS);
		rec_buf_printf(b, "\t%c\tdisk\tnfields\t...", RT_DISKS_MORE);
		rec_buf_end(b, l);
	}
	{
		/* T: four columns, then a list of writers (four each) */
		size_t l;
		rec_buf_begin(b, &l, RT_COLS);
		rec_buf_printf(b, "\t%c\tkernel\tthrottled\tpauses\tpaused_ms\tpid\tcomm\tpauses\tpaused_ms\t...",
			       RT_THROTTLE);
		rec_buf_end(b, l);
	}
	put_cols(b, RT_EVENT);
	put_cols(b, RT_OUTPUT);
	put_cols(b, RT_RESULT);
	put_cols(b, RT_BENCH);
}

/* Suffixes tried for a default name that is taken: two sessions started
 * in the same second in one directory get -2, -3, ... */
#define REC_UNIQUE_TRIES 1000

/* "x.rec" with suffix n: "x-n.rec" (the suffix before a .rec ending). */
static int suffixed_path(char *buf, size_t len, const char *path, int n)
{
	size_t l = strlen(path);
	int w;

	if (l > 4 && !strcmp(path + l - 4, ".rec"))
		w = snprintf(buf, len, "%.*s-%d.rec", (int)(l - 4), path, n);
	else
		w = snprintf(buf, len, "%s-%d", path, n);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

/* Create the file (fdio_out_open: a device, a FIFO or a symlink's
 * target as it says), or with REC_FORCE open an existing one, and lock
 * it: a recording another iodash writes is never touched, not even with
 * --force.  Only then is a replaced file truncated.  Fills r->fd,
 * r->path and r->dest. */
static int create_file(struct recorder *r, const char *path, unsigned flags, char *err, size_t errlen)
{
	char try[4096];
	struct fdio_out out;
	int rc = 0;

	snprintf(try, sizeof(try), "%s", path);
	for (int n = 1; n <= REC_UNIQUE_TRIES; n++) {
		if (n > 1 && suffixed_path(try, sizeof(try), path, n)) {
			snprintf(err, errlen, "%s: cannot create the recording: name too long (choose another -o)", path);
			return -ENAMETOOLONG;
		}
		rc = fdio_out_open(&out, try, flags & REC_FORCE ? FDIO_OUT_NOTRUNC : FDIO_OUT_EXCL, err, errlen);
		if (rc != -EEXIST || !(flags & REC_UNIQUE))
			break;
	}
	if (rc) {
		if (rc == -EEXIST && (flags & REC_UNIQUE))
			snprintf(err, errlen, "%s: cannot create the recording: %d names with this stem are taken (choose -o, or --no-record)",
				 path, REC_UNIQUE_TRIES);
		else if (rc == -EEXIST)
			snprintf(err, errlen, "%s: the file exists, and a recording is never overwritten (choose another -o, or add --force to replace it)",
				 path);
		else
			snprintf(err + strlen(err), errlen - strlen(err), "; no recording (choose another -o, or --no-record)");
		return rc;
	}
	int fd = out.fd;
	/* flock: a lock of the open file, so a second iodash that opens the
	 * same path (even through another name) sees it, and the kernel
	 * drops it when we die. */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0 && errno != ENOLCK && errno != EOPNOTSUPP) {
		/* (a file system without locks: O_EXCL still keeps -o from
		 * overwriting; only --force on a shared file goes unseen) */
		rc = -errno;
		if (rc == -EWOULDBLOCK)
			snprintf(err, errlen, "%s: another iodash is recording to this file now; it is left alone (choose another -o)",
				 try);
		else
			snprintf(err, errlen, "%s: cannot lock the recording: %s (choose another -o)", try, strerror(errno));
		fdio_out_discard(&out);
		return rc;
	}
	if (flags & REC_FORCE) {
		struct stat st;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size && ftruncate(fd, 0) < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: cannot replace the recording: %s (choose another -o)", try,
				 strerror(errno));
			fdio_out_discard(&out);
			return rc;
		}
	}
	if (!(r->path = strdup(try))) {
		fdio_out_discard(&out);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	r->dest = out.dest;
	r->in_place = out.in_place;
	out.dest = NULL;
	fdio_out_release(&out);
	r->fd = fd;
	return 0;
}

/* Remove the file we wrote, if its path still names it (not a file that
 * someone put there since, never a device or FIFO of -o). */
static void remove_file(struct recorder *r)
{
	struct stat ours, now;

	if (r->fd >= 0 && !r->in_place && fstat(r->fd, &ours) == 0 && lstat(r->dest, &now) == 0 &&
	    ours.st_dev == now.st_dev && ours.st_ino == now.st_ino && S_ISREG(now.st_mode))
		unlink(r->dest);
}

/* A header line the reader would take for damage (longer than
 * REC_MAX_LINE, escapes counted) is refused before anything is written:
 * the recording would be unreadable.  The -l label is checked where it is
 * given; this is for a benchmark's command line of many kilobytes. */
static int header_check(const struct rec_buf *b, const char *path, char *err, size_t errlen)
{
	for (size_t at = 0; at < b->len;) {
		const char *nl = memchr(b->p + at, '\n', b->len - at);
		size_t len = nl ? (size_t)(nl - (b->p + at)) : b->len - at;
		if (len > REC_MAX_LINE) {
			const char *key = b->p + at + 2;
			size_t kl = strcspn(key, "\t");
			snprintf(err, errlen, "%s: the recording's %.*s would be %zu bytes as written, more than the %d a line of it holds (shorten it: a long script goes in a file), or --no-record",
				 path, (int)(kl < 32 ? kl : 32), key, len, REC_MAX_LINE);
			return -E2BIG;
		}
		at += len + 1;
	}
	return 0;
}

int recorder_open(struct recorder **out, const char *path, unsigned flags, const struct rec_meta *meta,
		  char *err, size_t errlen)
{
	struct recorder *r;
	int rc;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	r->fd = -1;
	rc = create_file(r, path, flags, err, errlen);
	if (rc) {
		free(r);
		return rc;
	}
	pthread_mutex_init(&r->lock, NULL);
	pthread_mutex_init(&r->flush_lock, NULL);
	format_header(&r->buf, meta, &r->start_rt);
	if ((rc = header_check(&r->buf, path, err, errlen))) {
		remove_file(r);
		close(r->fd);
		rec_buf_free(&r->buf);
		pthread_mutex_destroy(&r->lock);
		pthread_mutex_destroy(&r->flush_lock);
		free(r->path);
		free(r->dest);
		free(r);
		return rc;
	}
	/* The header goes out now: a session killed in its first second still
	 * leaves a file that says what it was. */
	rc = recorder_flush(r);
	if (rc) {
		/* A full disk at the start: the session goes on as it does when
		 * the disk fills later (the caller sees recorder_error()); a file
		 * without a whole header is no recording, so it goes now. */
		remove_file(r);
		snprintf(r->errmsg, sizeof(r->errmsg),
			 "%s: cannot write the recording: %s (free space, or choose another -o); nothing was recorded and the file is removed",
			 r->path, strerror(-rc));
		r->written = 0;
		close(r->fd);
		r->fd = -1;
	}
	*out = r;
	return 0;
}

void recorder_discard(struct recorder *r)
{
	if (!r)
		return;
	remove_file(r);
	recorder_close(r);
}

const char *recorder_path(const struct recorder *r)
{
	return r ? r->path : "";
}

/* Index of the last nonzero delta of d, -1 when all are zero. */
static int disk_last_delta(const struct disk_rate *d)
{
	int n = DS_NFIELDS - 1;

	while (n >= 0 && !d->delta[n])
		n--;
	return n;
}

/* An L record (every disk of the sample, with its nfields) before the
 * sample, when the list changed or REC_DISKS_EVERY samples went by: the
 * reader takes an idle disk's name, place and nfields from it. */
static void put_disk_list(struct recorder *r, const struct sample *s)
{
	struct rec_buf body = { 0 };
	size_t ls;

	for (int i = 0; i < s->ndisks; i++) {
		put_sep(&body);
		rec_buf_put_text(&body, s->disks[i].name);
		put_i(&body, s->disks[i].nfields);
	}
	if (body.oom) {
		r->buf.oom = 1;   /* reported at the next flush */
		rec_buf_free(&body);
		return;
	}
	if (r->since_disks < REC_DISKS_EVERY && r->last_disks.p && body.len == r->last_disks.len &&
	    (!body.len || !memcmp(body.p, r->last_disks.p, body.len))) {
		r->since_disks++;
		rec_buf_free(&body);
		return;
	}
	/* the list in records of REC_LIST_PAIRS disks: L, then M ... */
	rec_buf_begin(&r->buf, &ls, RT_DISKS);
	for (int i = 0; i < s->ndisks; i++) {
		if (i && i % REC_LIST_PAIRS == 0) {
			rec_buf_end(&r->buf, ls);
			rec_buf_begin(&r->buf, &ls, RT_DISKS_MORE);
		}
		put_sep(&r->buf);
		rec_buf_put_text(&r->buf, s->disks[i].name);
		put_i(&r->buf, s->disks[i].nfields);
	}
	rec_buf_end(&r->buf, ls);
	rec_buf_free(&r->last_disks);
	r->last_disks = body;
	if (!r->last_disks.p)
		rec_buf_puts(&r->last_disks, "");   /* "no disks" differs from "none written yet" */
	r->since_disks = 1;
}

static void on_sample(void *ctx, const struct sample *s)
{
	struct recorder *r = ctx;
	struct rec_buf *b = &r->buf;
	size_t ls;

	pthread_mutex_lock(&r->lock);
	if (b->len > REC_BUF_LIMIT || r->error) {
		r->dropped++;
		pthread_mutex_unlock(&r->lock);
		return;
	}
	r->last_t = s->t;
	put_disk_list(r, s);
	rec_buf_begin(b, &ls, RT_SAMPLE);
	for (int i = 0; i < SF_N; i++) {
		const struct sample_col *c = &sample_cols[i];
		if (!(c->where & SCW_REC))
			continue;
		switch (c->type) {
		case SCT_TIME: case SCT_SECS: put_secs(b, sample_col_double(s, c)); break;
		case SCT_DOUBLE: put_d(b, sample_col_double(s, c)); break;
		case SCT_U64: case SCT_U32: put_u(b, (uint64_t)sample_col_int(s, c)); break;
		case SCT_ZONE:
			put_sep(b);
			rec_buf_puts(b, rec_zone_name(s->zone));
			break;
		case SCT_SKEW:
			/* unsigned: a wild clock must not overflow a signed subtraction */
			put_i(b, (long long)((uint64_t)s->realtime_ns - (uint64_t)r->start_rt -
					     (uint64_t)rec_secs_to_ns(s->t)));
			break;
		default: put_i(b, sample_col_int(s, c)); break;
		}
	}
	rec_buf_end(b, ls);
	for (int i = 0; i < s->ndisks; i++) {
		const struct disk_rate *d = &s->disks[i];
		int n = disk_last_delta(d);
		if (d->have_rate && n < 0)
			continue;   /* idle: the L record names it */
		rec_buf_begin(b, &ls, RT_DISK);
		put_sep(b);
		rec_buf_put_text(b, d->name);
		put_i(b, d->have_rate);
		put_i(b, d->nfields);
		/* trailing zero deltas are left out: a missing column reads as 0 */
		for (int f = 0; f <= n; f++)
			put_u(b, d->delta[f]);
		rec_buf_end(b, ls);
	}
	if (s->thr_src == THR_SRC_KERNEL) {
		/* the kernel's word, so a replay shows the badge and shading
		 * live showed, and who paused */
		rec_buf_begin(b, &ls, RT_THROTTLE);
		put_i(b, 1);
		put_i(b, s->throttled);
		put_u(b, s->pauses);
		put_d(b, s->paused_ms);
		for (int i = 0; i < s->nwriters && i < 4; i++) {
			put_i(b, s->writers[i].pid);
			put_sep(b);
			rec_buf_put_text(b, s->writers[i].comm);
			put_u(b, s->writers[i].pauses);
			put_d(b, s->writers[i].paused_ms);
		}
		rec_buf_end(b, ls);
	}
	pthread_mutex_unlock(&r->lock);
}

static void on_event(void *ctx, const struct model_event *e)
{
	struct recorder *r = ctx;
	size_t ls;

	pthread_mutex_lock(&r->lock);
	if (!r->error) {
		rec_buf_begin(&r->buf, &ls, RT_EVENT);
		put_secs(&r->buf, e->t);
		put_sep(&r->buf);
		rec_buf_puts(&r->buf, rec_event_kind_name(e->kind));
		put_sep(&r->buf);
		rec_buf_put_text(&r->buf, e->text);
		rec_buf_end(&r->buf, ls);
	}
	pthread_mutex_unlock(&r->lock);
}

static void on_output(void *ctx, const struct output_line *l)
{
	struct recorder *r = ctx;
	size_t ls;

	pthread_mutex_lock(&r->lock);
	if (r->buf.len > REC_BUF_LIMIT || r->error) {
		r->dropped++;
	} else {
		rec_buf_begin(&r->buf, &ls, RT_OUTPUT);
		put_secs(&r->buf, l->t);
		put_i(&r->buf, l->run);
		put_sep(&r->buf);
		rec_buf_put_text(&r->buf, l->text);
		rec_buf_end(&r->buf, ls);
	}
	pthread_mutex_unlock(&r->lock);
}

static void on_result(void *ctx, const struct result_point *p)
{
	struct recorder *r = ctx;
	struct rec_buf *b = &r->buf;
	size_t ls;

	pthread_mutex_lock(&r->lock);
	if (!r->error) {
		rec_buf_begin(b, &ls, RT_RESULT);
		put_secs(b, p->t);
		put_sep(b);
		rec_buf_put_text(b, p->label);
		put_i(b, p->run);
		put_sep(b);
		rec_buf_put_text(b, p->x_name);
		put_d(b, p->x);
		put_sep(b);
		rec_buf_put_text(b, p->metric);
		put_d(b, p->value);
		put_sep(b);
		rec_buf_put_text(b, p->unit);
		put_u(b, p->flags);
		put_sep(b);
		rec_buf_put_text(b, p->setting);   /* 2.2, after flags: older readers skip it */
		rec_buf_end(b, ls);
	}
	pthread_mutex_unlock(&r->lock);
}

/* A text column of B: "\\=" (which the escaping never makes) when it is
 * the one of the last B record that wrote its texts out. */
static void put_bench_text(struct rec_buf *b, const char *v, bool same)
{
	put_sep(b);
	if (same && *v)
		rec_buf_puts(b, "\\=");
	else
		rec_buf_put_text(b, v);
}

static void bench_texts_key(struct rec_buf *k, const struct bench_status *s)
{
	rec_buf_put_text(k, s->progress.phase);
	rec_buf_putc(k, '\t');
	rec_buf_put_text(k, s->progress.unit);
	rec_buf_putc(k, '\t');
	rec_buf_put_text(k, s->label);
	rec_buf_putc(k, '\t');
	rec_buf_put_text(k, s->command);
}

static void format_bench_body(struct rec_buf *b, const struct bench_status *s, bool same)
{
	const struct parser_progress *p = &s->progress;

	put_sep(b);
	rec_buf_puts(b, rec_bench_state_name(s->state));
	put_i(b, s->run_index);
	put_i(b, s->run_total);
	put_i(b, s->runs_failed);
	put_i(b, s->pid);
	put_i(b, s->ntasks);
	put_i(b, s->throttled_tasks);
	put_d(b, s->read_Bps);
	put_d(b, s->write_Bps);
	put_d(b, s->rchar_Bps);
	put_d(b, s->wchar_Bps);
	put_i(b, s->have_tracepoint);
	put_d(b, s->pauses_per_s);
	put_d(b, s->pause_ms_per_s);
	put_u(b, s->pauses_total);
	put_d(b, s->pause_total_ms);
	put_i(b, s->last_exit_status);
	put_i(b, s->last_signal);
	put_d(b, s->eta_s);
	put_secs(b, s->run_start_t);
	put_i(b, p->valid);
	put_bench_text(b, p->phase, same);
	put_d(b, p->elapsed_s);
	put_d(b, p->throughput);
	put_bench_text(b, p->unit, same);
	put_d(b, p->latency_ms);
	put_bench_text(b, s->label, same);
	put_bench_text(b, s->command, same);
}

static void on_bench(void *ctx, const struct bench_status *s)
{
	struct recorder *r = ctx;
	struct rec_buf body = { 0 }, key = { 0 };
	size_t ls;

	format_bench_body(&body, s, false);
	bench_texts_key(&key, s);
	if (!body.p || !key.p) {
		rec_buf_free(&body);
		rec_buf_free(&key);
		return;
	}
	pthread_mutex_lock(&r->lock);
	/* The driver reports every sample; most reports repeat the last. */
	if (!r->error && r->buf.len <= REC_BUF_LIMIT && strcmp(body.p, r->last_bench)) {
		size_t l = body.len < sizeof(r->last_bench) ? body.len : sizeof(r->last_bench) - 1;
		memcpy(r->last_bench, body.p, l);
		r->last_bench[l] = 0;
		/* The driver reports every sample and its rates change every
		 * sample, its command and label hardly ever: those are written
		 * out again every REC_DISKS_EVERY B records at least, so a
		 * damaged one costs little. */
		bool same = r->since_texts < REC_DISKS_EVERY && r->bench_texts.p &&
			    !strcmp(key.p, r->bench_texts.p);
		rec_buf_begin(&r->buf, &ls, RT_BENCH);
		put_secs(&r->buf, r->last_t);
		if (same) {
			struct rec_buf compact = { 0 };
			format_bench_body(&compact, s, true);
			rec_buf_puts(&r->buf, compact.p ? compact.p : "");
			if (compact.oom)
				r->buf.oom = 1;
			rec_buf_free(&compact);
			r->since_texts++;
		} else {
			rec_buf_puts(&r->buf, body.p);
			rec_buf_free(&r->bench_texts);
			r->bench_texts = key;
			key = (struct rec_buf){ 0 };
			r->since_texts = 1;
		}
		rec_buf_end(&r->buf, ls);
	}
	pthread_mutex_unlock(&r->lock);
	rec_buf_free(&body);
	rec_buf_free(&key);
}

struct model_observer recorder_observer(struct recorder *r)
{
	return (struct model_observer){
		.on_sample = on_sample, .on_event = on_event, .on_output = on_output,
		.on_result = on_result, .on_bench = on_bench, .ctx = r,
	};
}

int recorder_flush(struct recorder *r)
{
	struct rec_buf out;
	int rc = 0;

	if (!r)
		return 0;
	pthread_mutex_lock(&r->flush_lock);
	pthread_mutex_lock(&r->lock);
	out = r->buf;
	memset(&r->buf, 0, sizeof(r->buf));
	rc = r->error;
	if (out.oom && !rc) {
		r->error = rc = -ENOMEM;
		snprintf(r->errmsg, sizeof(r->errmsg), "%s: out of memory while recording; the file ends here",
			 r->path);
	}
	pthread_mutex_unlock(&r->lock);
	if (!rc && out.len && r->fd >= 0) {
		/* The buffer only ever holds whole records. */
		rc = fdio_write_all(r->fd, out.p, out.len);
		pthread_mutex_lock(&r->lock);
		if (rc) {
			r->error = rc;
			snprintf(r->errmsg, sizeof(r->errmsg),
				 "%s: cannot write the recording: %s (free space, or choose another -o); the file is whole up to byte %llu",
				 r->path, strerror(-rc), (unsigned long long)r->written);
		} else {
			r->written += out.len;
		}
		pthread_mutex_unlock(&r->lock);
	}
	pthread_mutex_unlock(&r->flush_lock);
	rec_buf_free(&out);
	return rc;
}

void recorder_close(struct recorder *r)
{
	size_t ls;

	if (!r)
		return;
	/* the end marker: a reader that follows the file knows nothing more
	 * will come (a killed writer leaves none) */
	pthread_mutex_lock(&r->lock);
	if (!r->error && r->written) {
		rec_buf_begin(&r->buf, &ls, RT_END);
		put_secs(&r->buf, r->last_t);
		rec_buf_end(&r->buf, ls);
	}
	pthread_mutex_unlock(&r->lock);
	recorder_flush(r);
	if (r->fd >= 0) {
		fdatasync(r->fd);
		close(r->fd);
	}
	rec_buf_free(&r->buf);
	rec_buf_free(&r->last_disks);
	rec_buf_free(&r->bench_texts);
	pthread_mutex_destroy(&r->lock);
	pthread_mutex_destroy(&r->flush_lock);
	free(r->path);
	free(r->dest);
	free(r);
}

const char *recorder_error(const struct recorder *r)
{
	return r ? r->errmsg : "";
}

uint64_t recorder_bytes(const struct recorder *r)
{
	return r ? r->written : 0;
}

int recording_default_path(char *buf, size_t len, const char *host, time_t now)
{
	struct tm tm;
	char safe[64];
	size_t i;
	int n;

	/* A host name is a path component here, and in a UTS namespace it can
	 * be anything ("a/../../x"): keep letters, digits, '-' and '.', and
	 * make every other byte '_', so the name stays one file in the
	 * current directory. */
	for (i = 0; host && host[i] && i + 1 < sizeof(safe); i++) {
		char c = host[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  c == '-' || c == '.';
		safe[i] = ok ? c : '_';
	}
	safe[i] = 0;
	if (!i)
		snprintf(safe, sizeof(safe), "localhost");
	if (!localtime_r(&now, &tm))
		return -EINVAL;
	n = snprintf(buf, len, "iodash-%s-%04d%02d%02d-%02d%02d%02d.rec", safe,
		     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
