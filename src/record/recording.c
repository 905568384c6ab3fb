/* The recording reader.  The file is read into memory, every line's CRC
 * is checked once at open, and an index (offset and time per record) is
 * kept: a 24-hour recording is ~170k samples, and a parsed struct sample
 * is 2 KB, so samples are parsed when the screen asks for them.
 *
 * Read, not mapped: the file may be one that another iodash writes and
 * someone truncates or rewrites under us (view --follow); a mapping would
 * fault (SIGBUS) on the pages that went away, a copy cannot.  A file that
 * shrinks or whose start changed is an error of recording_refresh(),
 * never a crash.  It is read a chunk at a time, each chunk indexed before
 * the next is read, so a file that is not a recording is refused after
 * its first chunk, and the reading stops where the records stop: a line
 * longer than any record (a run of zero bytes a crash left, garbage), a
 * long run of damaged lines, or a second recording's first line (two
 * files joined with cat: read on, its header would rename the session
 * and its times run backwards).  What was not read is said with its
 * byte offset in recording_warning().
 *
 * Damage policy (docs/recording.md): the header must be whole, or the file
 * is refused with the byte offset; in it, a damaged H line (host, kernel,
 * knobs: nothing a sample needs) is skipped like any damaged record; after
 * it, a record whose checksum fails reads as never written and is counted
 * for one warning line; a last line without its newline is a torn record
 * of a writer that died (or is still writing: follow mode indexes it once
 * it is whole).  A file that ends in its header has nothing to show and is
 * refused. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "iodash/base/text.h"
#include "iodash/record/recording.h"
#include "iodash/probe/probe.h"
#include "rec_format.h"

#define NTYPES 6   /* S D E O R B: record types with columns */

#define NO_BASE UINT64_MAX

struct rec_ix {
	uint64_t off;
	double t;
	uint64_t base;   /* B: the B record whose texts "\=" stands for, or NO_BASE */
};

struct rec_vec {
	struct rec_ix *v;
	size_t n, cap;
};

/* Where an L record (disk list) starts; bad when its checksum failed, so
 * the samples after it are not filled from an older list. */
struct list_ix {
	uint64_t off;
	bool bad;
};

/* Bytes of the file's start compared at each refresh: a new session
 * writes a new header (another start_realtime_ns), so a rewrite shows. */
#define REC_CHECK_HEAD 4096
/* Bytes read and indexed at a time: what a reader holds beyond the
 * records it keeps. */
#define REC_READ_CHUNK (1u << 20)
/* Damaged lines in a row past this many bytes are not records any more:
 * the reading stops at the first of them. */
#define REC_GARBAGE_RUN (1u << 20)

struct recording {
	char *path;
	int fd;
	const char *map;             /* the file's bytes read so far (heap) */
	size_t maplen, mapcap;
	size_t scanned;              /* lines before this offset are indexed */
	bool seen_magic, seen_data;
	struct rec_header hdr;
	signed char colmap[NTYPES][REC_MAX_FIELDS]; /* column position -> column id, -1 unknown */
	int ncols[NTYPES];
	struct rec_vec ix[RK_NKINDS];
	struct list_ix *lists;       /* L records, in file order */
	size_t nlists, caplists;
	uint64_t bench_base;         /* the last whole B record that wrote its texts out */
	size_t nbad, nunknown, nbad_header;
	long long first_bad;
	size_t torn_len;             /* bytes of an incomplete last line */
	bool ended;                  /* a Z record: the writer closed the file */
	size_t filesize;             /* as the last fstat said */
	long long bad_run;           /* offset of the first of the damaged lines in a row, or -1 */
	long long stop_at;           /* reading stopped here (stop_why), or -1 */
	const char *stop_why;
	char warning[768];
};

static int type_slot(char t)
{
	switch (t) {
	case RT_SAMPLE: return 0;
	case RT_DISK: return 1;
	case RT_EVENT: return 2;
	case RT_OUTPUT: return 3;
	case RT_RESULT: return 4;
	case RT_BENCH: return 5;
	}
	return -1;
}

static const char slot_types[NTYPES] = { RT_SAMPLE, RT_DISK, RT_EVENT, RT_OUTPUT, RT_RESULT, RT_BENCH };

/* A line split into fields; f[0] is the type, f[nf-1] the CRC. */
struct fields {
	const char *p[REC_MAX_FIELDS];
	size_t len[REC_MAX_FIELDS];
	int nf;
};

static void split(const char *line, size_t len, struct fields *f)
{
	size_t start = 0;

	f->nf = 0;
	for (size_t i = 0; i <= len && f->nf < REC_MAX_FIELDS; i++) {
		if (i == len || line[i] == '\t') {
			f->p[f->nf] = line + start;
			f->len[f->nf] = i - start;
			f->nf++;
			start = i + 1;
		}
	}
}

/* The last field is the CRC-32 of everything before the TAB in front of it. */
static bool line_ok(const char *line, size_t len)
{
	uint32_t want = 0;

	if (len < 10 || line[len - 9] != '\t')
		return false;
	for (size_t i = len - 8; i < len; i++) {
		int h = text_hex_digit(line[i]);
		if (h < 0)
			return false;
		want = want << 4 | (uint32_t)h;
	}
	return rec_crc32(line, len - 9) == want;
}

static double fd_double(const char *p, size_t n)
{
	char b[64];

	if (!n || n >= sizeof(b))
		return 0;
	memcpy(b, p, n);
	b[n] = 0;
	return strtod(b, NULL);
}

static long long fd_ll(const char *p, size_t n)
{
	char b[32];

	if (!n || n >= sizeof(b))
		return 0;
	memcpy(b, p, n);
	b[n] = 0;
	return strtoll(b, NULL, 10);
}

static unsigned long long fd_ull(const char *p, size_t n)
{
	char b[32];

	if (!n || n >= sizeof(b) || *p == '-')
		return 0;
	memcpy(b, p, n);
	b[n] = 0;
	return strtoull(b, NULL, 10);
}

static void copy_str(char *d, size_t n, const char *s)
{
	size_t l = strlen(s);

	if (l >= n)
		l = n - 1;
	memcpy(d, s, l);
	d[l] = 0;
}

static void fd_text(const char *p, size_t n, char *out, size_t outlen)
{
	rec_unescape(p, n, out, outlen);
}

static bool fd_is(const char *p, size_t n, const char *s)
{
	return strlen(s) == n && !memcmp(p, s, n);
}

static int vec_push(struct rec_vec *v, uint64_t off, double t)
{
	if (v->n == v->cap) {
		size_t nc = v->cap ? v->cap * 2 : 1024;
		struct rec_ix *nv = realloc(v->v, nc * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		v->v = nv;
		v->cap = nc;
	}
	v->v[v->n].off = off;
	v->v[v->n].t = t;
	v->v[v->n].base = NO_BASE;
	v->n++;
	return 0;
}

static int lists_push(struct recording *rec, uint64_t off, bool bad)
{
	if (rec->nlists == rec->caplists) {
		size_t nc = rec->caplists ? rec->caplists * 2 : 64;
		struct list_ix *nv = realloc(rec->lists, nc * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		rec->lists = nv;
		rec->caplists = nc;
	}
	rec->lists[rec->nlists].off = off;
	rec->lists[rec->nlists].bad = bad;
	rec->nlists++;
	return 0;
}

static void set_default_cols(struct recording *rec)
{
	for (int s = 0; s < NTYPES; s++) {
		int n;
		rec_cols_of(slot_types[s], &n);
		rec->ncols[s] = n;
		for (int i = 0; i < REC_MAX_FIELDS; i++)
			rec->colmap[s][i] = (signed char)(i < n ? rec_col_id(slot_types[s], i) : -1);
	}
}

static void apply_cols(struct recording *rec, const struct fields *f)
{
	int slot, n;
	const char *const *names;

	/* C <type> <col>... <crc> */
	if (f->nf < 3 || f->len[1] != 1 || (slot = type_slot(f->p[1][0])) < 0)
		return;
	names = rec_cols_known(f->p[1][0], &n);
	rec->ncols[slot] = f->nf - 3;
	for (int i = 0; i < REC_MAX_FIELDS; i++)
		rec->colmap[slot][i] = -1;
	for (int i = 2; i < f->nf - 1; i++)
		for (int c = 0; c < n; c++)
			if (names[c] && fd_is(f->p[i], f->len[i], names[c]))
				rec->colmap[slot][i - 2] = (signed char)c;
}

static void apply_header(struct recording *rec, const struct fields *f)
{
	struct rec_header *h = &rec->hdr;
	char v[1024];

	if (f->nf < 4)
		return;
	fd_text(f->p[2], f->len[2], v, sizeof(v));
#define KEY(k) fd_is(f->p[1], f->len[1], k)
	if (KEY("host"))
		copy_str(h->host, sizeof(h->host), v);
	else if (KEY("kernel"))
		copy_str(h->kernel, sizeof(h->kernel), v);
	else if (KEY("label"))
		copy_str(h->label, sizeof(h->label), v);
	else if (KEY("source"))
		copy_str(h->source, sizeof(h->source), v);
	else if (KEY("command"))
		copy_str(h->command, sizeof(h->command), v);
	else if (KEY("writer"))
		copy_str(h->writer, sizeof(h->writer), v);
	else if (KEY("interval"))
		h->interval = strtod(v, NULL);
	else if (KEY("start_realtime_ns"))
		h->start_realtime_ns = strtoll(v, NULL, 10);
	else if (KEY("start_mono_ns"))
		h->start_mono_ns = strtoull(v, NULL, 10);
	else if (KEY("dirty_background_bytes"))
		h->have_knobs = true, h->dirty_background_bytes = strtoull(v, NULL, 10);
	else if (KEY("dirty_bytes"))
		h->have_knobs = true, h->dirty_bytes = strtoull(v, NULL, 10);
	else if (KEY("dirty_background_ratio"))
		h->have_knobs = true, h->dirty_background_ratio = (unsigned)strtoul(v, NULL, 10);
	else if (KEY("dirty_ratio"))
		h->have_knobs = true, h->dirty_ratio = (unsigned)strtoul(v, NULL, 10);
	else if (KEY("dirty_expire_centisecs"))
		h->dirty_expire_centisecs = (unsigned)strtoul(v, NULL, 10);
	else if (KEY("dirty_writeback_centisecs"))
		h->dirty_writeback_centisecs = (unsigned)strtoul(v, NULL, 10);
	else if (KEY("page_kb"))
		h->page_kb = (unsigned)strtoul(v, NULL, 10);
#undef KEY
}

static void note_bad(struct recording *rec, size_t off)
{
	if (!rec->nbad)
		rec->first_bad = (long long)off;
	rec->nbad++;
	if (rec->bad_run < 0)
		rec->bad_run = (long long)off;
}

/* Read no further than off: what follows is not this session's records. */
static void stop_reading(struct recording *rec, size_t off, const char *why)
{
	rec->stop_at = (long long)off;
	rec->stop_why = why;
	rec->scanned = off;
}

static int scan_nomem(const struct recording *rec, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: out of memory indexing the recording", rec->path);
	return -ENOMEM;
}

/* A file that does not start with the magic is refused before its first
 * line is looked for: it may be anything, of any size. */
static int scan_check_magic(const struct recording *rec, size_t pos, char *err, size_t errlen)
{
	const char *line = rec->map + pos;
	size_t avail = rec->maplen - pos, ml = strlen(RT_MAGIC);

	if (avail >= ml + 1 && !memcmp(line, RT_MAGIC "\t", ml + 1))
		return 0;
	if (avail <= ml && !memcmp(line, RT_MAGIC, avail))
		snprintf(err, errlen, "%s: byte %zu: truncated: the file ends inside the first line (%zu bytes)",
			 rec->path, pos, avail);
	else
		snprintf(err, errlen, "%s: byte %zu: not an iodash recording (it does not start with \"%s\"); view and export read the .rec files that iodash -o writes",
			 rec->path, pos, RT_MAGIC);
	return -EINVAL;
}

/* The end of the line at pos in *nl: 1, or 0 when reading stops before
 * it (torn, too long, another recording), or -errno. */
static int scan_line_end(struct recording *rec, size_t pos, const char **nl, char *err, size_t errlen)
{
	const char *line = rec->map + pos;
	size_t avail = rec->maplen - pos;

	*nl = memchr(line, '\n', avail < REC_MAX_LINE + 1 ? avail : REC_MAX_LINE + 1);
	if (!*nl) {
		if (avail <= REC_MAX_LINE) {
			/* torn: not indexed, so a follow reader picks it up once whole */
			rec->torn_len = avail;
			return 0;
		}
		if (!rec->seen_data) {
			snprintf(err, errlen, "%s: byte %zu: damaged header (a line longer than %d bytes)",
				 rec->path, pos, REC_MAX_LINE);
			return -EBADMSG;
		}
		/* no writer makes such a line: zero bytes a crash left,
		 * or garbage; reading on would hold all of it */
		rec->torn_len = 0;
		stop_reading(rec, pos, "a line longer than any record (zero bytes or garbage)");
		return 0;
	}
	rec->torn_len = 0;
	if (rec->seen_magic && avail > strlen(RT_MAGIC) && !memcmp(line, RT_MAGIC "\t", strlen(RT_MAGIC) + 1)) {
		stop_reading(rec, pos, "a second recording starts here (files joined?)");
		return 0;
	}
	return 1;
}

/* A line whose checksum fails: counted and skipped (0), or reading stops
 * (1), or the file is refused (-errno). */
static int scan_bad_line(struct recording *rec, size_t pos, size_t len, char *err, size_t errlen)
{
	const char *line = rec->map + pos;

	/* An H line holds what the session was (host, kernel, knobs):
	 * losing one costs that, never the samples.  The magic line
	 * and the C lines say how to read them: refused. */
	if (!rec->seen_data && (!rec->seen_magic || len < 2 || line[0] != RT_HEADER || line[1] != '\t')) {
		snprintf(err, errlen, "%s: byte %zu: damaged header record (checksum mismatch); the file cannot be trusted",
			 rec->path, pos);
		return -EBADMSG;
	}
	if (!rec->seen_data)
		rec->nbad_header++;
	note_bad(rec, pos);
	if (*line == RT_BENCH)
		rec->bench_base = NO_BASE;   /* its texts are lost: never guess them */
	if (*line == RT_DISKS && lists_push(rec, pos, true))
		return scan_nomem(rec, err, errlen);
	if (pos + len + 1 - (size_t)rec->bad_run > REC_GARBAGE_RUN) {
		stop_reading(rec, (size_t)rec->bad_run, "more than 1 MiB of damaged lines in a row (garbage)");
		return 1;
	}
	return 0;
}

/* The magic line: the format version, refused when newer than ours. */
static int scan_first_line(struct recording *rec, const struct fields *f, size_t pos, char *err, size_t errlen)
{
	long major = f->nf > 2 ? (long)fd_ll(f->p[1], f->len[1]) : 0;

	if (major < 1) {
		snprintf(err, errlen, "%s: byte %zu: no format version in the first line", rec->path, pos);
		return -EBADMSG;
	}
	/* Format 1 stored derived figures in D: still read, see
	 * docs/recording.md. */
	if (major > REC_FORMAT_MAJOR) {
		snprintf(err, errlen, "%s: byte %zu: recording format %ld is newer than this iodash reads (%d); use a newer iodash",
			 rec->path, pos, major, REC_FORMAT_MAJOR);
		return -EPROTONOSUPPORT;
	}
	rec->hdr.major = (int)major;
	rec->hdr.minor = f->nf > 3 ? (int)fd_ll(f->p[2], f->len[2]) : 0;
	rec->seen_magic = true;
	return 0;
}

/* A timed record (sample, event, output, result, bench) into its index
 * with its t; a bench record also points at the last one whose texts it
 * repeats ("\="). */
static int scan_index_timed(struct recording *rec, const struct fields *f, size_t pos, char *err, size_t errlen)
{
	static const enum rec_kind kinds[] = {
		[0] = RK_SAMPLE, [2] = RK_EVENT, [3] = RK_OUTPUT, [4] = RK_RESULT, [5] = RK_BENCH };
	int slot = type_slot(f->p[0][0]);
	int tcol = -1;
	double t = 0;

	for (int i = 0; i < f->nf - 2 && i < REC_MAX_FIELDS; i++)
		if (rec->colmap[slot][i] == 0) {   /* column 0 of every type is t */
			tcol = i + 1;
			break;
		}
	if (tcol > 0)
		t = fd_double(f->p[tcol], f->len[tcol]);
	rec->seen_data = true;
	if (vec_push(&rec->ix[kinds[slot]], pos, t))
		return scan_nomem(rec, err, errlen);
	if (slot == 5) {
		bool same = false;
		for (int i = 1; i < f->nf - 1 && !same; i++)
			same = fd_is(f->p[i], f->len[i], "\\=");
		if (!same)
			rec->bench_base = pos;
		rec->ix[RK_BENCH].v[rec->ix[RK_BENCH].n - 1].base = rec->bench_base;
	}
	return 1;
}

/* One good record after the magic line: 1 when it was indexed as a
 * timed record, 0 otherwise, or -errno. */
static int scan_record(struct recording *rec, const struct fields *f, size_t pos, char *err, size_t errlen)
{
	if (f->len[0] != 1) {
		rec->nunknown++;
		return 0;
	}
	switch (f->p[0][0]) {
	case RT_HEADER:
		apply_header(rec, f);
		return 0;
	case RT_COLS:
		apply_cols(rec, f);
		return 0;
	case RT_DISK:
	case RT_DISKS_MORE: /* read with its L */
	case RT_THROTTLE:   /* read with its sample */
		rec->seen_data = true;
		return 0;
	case RT_END:
		rec->ended = true;
		return 0;
	case RT_DISKS:
		rec->seen_data = true;
		return lists_push(rec, pos, false) ? scan_nomem(rec, err, errlen) : 0;
	case RT_SAMPLE: case RT_EVENT: case RT_OUTPUT: case RT_RESULT: case RT_BENCH:
		return scan_index_timed(rec, f, pos, err, errlen);
	default:
		rec->nunknown++;   /* a later version's record: skip */
		return 0;
	}
}

/* Index the whole lines in [rec->scanned, rec->maplen). */
static int scan(struct recording *rec, char *err, size_t errlen)
{
	size_t pos = rec->scanned;
	int added = 0;

	while (pos < rec->maplen && rec->stop_at < 0) {
		const char *line = rec->map + pos;
		const char *nl;
		size_t len;
		struct fields f;
		int rc;

		if (!rec->seen_magic && (rc = scan_check_magic(rec, pos, err, errlen)))
			return rc;
		if ((rc = scan_line_end(rec, pos, &nl, err, errlen)) <= 0)
			return rc < 0 ? rc : added;
		len = (size_t)(nl - line);
		if (!line_ok(line, len)) {
			if ((rc = scan_bad_line(rec, pos, len, err, errlen)))
				return rc < 0 ? rc : added;
		} else {
			rec->bad_run = -1;
			split(line, len - 9, &f);
			/* the CRC field was cut off above: add an empty one so f.nf-1 is it */
			if (f.nf < REC_MAX_FIELDS) {
				f.p[f.nf] = line + len - 8;
				f.len[f.nf] = 8;
				f.nf++;
			}
			if (!rec->seen_magic)
				rc = scan_first_line(rec, &f, pos, err, errlen);
			else
				rc = scan_record(rec, &f, pos, err, errlen);
			if (rc < 0)
				return rc;
			added += rc;
		}
		pos = (size_t)(nl - rec->map) + 1;
		rec->scanned = pos;
	}
	return added;
}

/* pread exactly n bytes at off: 0, -ESTALE when the file ended first
 * (it shrank since fstat), or -errno. */
static int read_at(int fd, char *buf, size_t n, size_t off)
{
	while (n) {
		ssize_t r = pread(fd, buf, n, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			return -ESTALE;
		buf += r;
		n -= (size_t)r;
		off += (size_t)r;
	}
	return 0;
}

/* The file shrank or its start changed: it is not the file we indexed. */
static int rewritten(struct recording *rec, size_t at, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: byte %zu: the file %s since it was opened: it was truncated or rewritten; open it again",
		 rec->path, at, at < rec->maplen ? "shrank" : "changed");
	return -ESTALE;
}

/* Before reading on: the file must still be the one indexed (it never
 * shrinks, its start never changes).  Sets rec->filesize. */
static int load_check(struct recording *rec, char *err, size_t errlen)
{
	struct stat st;
	char head[REC_CHECK_HEAD];
	size_t nh;
	int rc;

	if (fstat(rec->fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", rec->path, strerror(errno));
		return -errno;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: byte 0: not a regular file", rec->path);
		return -EINVAL;
	}
	rec->filesize = (size_t)st.st_size;
	if (rec->filesize < rec->maplen)
		return rewritten(rec, rec->filesize, err, errlen);
	/* a follower: the start must still be what we read */
	nh = rec->maplen < sizeof(head) ? rec->maplen : sizeof(head);
	if (nh) {
		rc = read_at(rec->fd, head, nh, 0);
		if (rc == -ESTALE || (!rc && memcmp(head, rec->map, nh)))
			return rewritten(rec, rc ? 0 : nh, err, errlen);
		if (rc) {
			snprintf(err, errlen, "%s: cannot read: %s", rec->path, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/* Read the next chunk of what was appended. */
static int load_chunk(struct recording *rec, char *err, size_t errlen)
{
	size_t n = rec->filesize - rec->maplen, want;
	int rc;

	if (n > REC_READ_CHUNK)
		n = REC_READ_CHUNK;
	want = rec->maplen + n;
	if (want > rec->mapcap) {
		size_t cap = rec->mapcap ? rec->mapcap : 65536;
		char *p;
		while (cap < want)
			cap = cap > SIZE_MAX / 2 ? want : cap * 2;
		p = realloc((char *)rec->map, cap);
		if (!p) {
			snprintf(err, errlen, "%s: out of memory reading %zu bytes", rec->path, want);
			return -ENOMEM;
		}
		rec->map = p;
		rec->mapcap = cap;
	}
	rc = read_at(rec->fd, (char *)rec->map + rec->maplen, n, rec->maplen);
	if (rc == -ESTALE)
		return rewritten(rec, rec->maplen, err, errlen);
	if (rc) {
		snprintf(err, errlen, "%s: cannot read: %s", rec->path, strerror(-rc));
		return rc;
	}
	rec->maplen = want;
	return 0;
}

/* Read and index what was appended since the last call, a chunk at a
 * time, up to where the records stop.  The records added, or -errno. */
static int load_and_scan(struct recording *rec, char *err, size_t errlen)
{
	int rc, added = 0;

	if ((rc = load_check(rec, err, errlen)))
		return rc;
	while (rec->maplen < rec->filesize && rec->stop_at < 0) {
		if ((rc = load_chunk(rec, err, errlen)))
			return rc;
		if ((rc = scan(rec, err, errlen)) < 0)
			return rc;
		added += rc;
	}
	return added;
}

int recording_open(struct recording **out, const char *path, char *err, size_t errlen)
{
	struct recording *rec;
	int rc;

	*out = NULL;
	rec = calloc(1, sizeof(*rec));
	if (!rec || !(rec->path = strdup(path))) {
		free(rec);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	rec->first_bad = -1;
	rec->bad_run = -1;
	rec->stop_at = -1;
	rec->bench_base = NO_BASE;
	set_default_cols(rec);
	rec->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (rec->fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		recording_close(rec);
		return rc;
	}
	rc = load_and_scan(rec, err, errlen);
	if (rc >= 0 && !rec->maplen) {
		snprintf(err, errlen, "%s: byte 0: empty file, not an iodash recording", path);
		rc = -EINVAL;
	}
	if (rc >= 0 && !rec->seen_magic) {
		snprintf(err, errlen, "%s: byte 0: truncated: the file ends inside the first line (%zu bytes)",
			 path, rec->maplen);
		rc = -EBADMSG;
	} else if (rc >= 0 && !rec->seen_data && rec->torn_len) {
		snprintf(err, errlen, "%s: byte %zu: truncated: the file ends inside its header (a record without its newline); nothing was recorded after it",
			 path, rec->maplen - rec->torn_len);
		rc = -EBADMSG;
	} else if (rc >= 0 && !rec->seen_data) {
		snprintf(err, errlen, "%s: byte %zu: the file ends after its header: no sample, event or result was written (a session that ended as it started)",
			 path, rec->maplen);
		rc = -ENODATA;
	}
	if (rc < 0) {
		recording_close(rec);
		return rc;
	}
	*out = rec;
	return 0;
}

int recording_refresh(struct recording *rec, char *err, size_t errlen)
{
	return load_and_scan(rec, err, errlen);
}

void recording_close(struct recording *rec)
{
	if (!rec)
		return;
	free((char *)rec->map);
	if (rec->fd >= 0)
		close(rec->fd);
	for (int k = 0; k < RK_NKINDS; k++)
		free(rec->ix[k].v);
	free(rec->lists);
	free(rec->path);
	free(rec);
}

int recording_sniff(const char *path)
{
	char b[sizeof(RT_MAGIC)];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, b, sizeof(b));
	close(fd);
	return n == (ssize_t)sizeof(b) && !memcmp(b, RT_MAGIC "\t", sizeof(b));
}

const char *recording_path(const struct recording *rec) { return rec->path; }
bool recording_ended(const struct recording *rec) { return rec->ended; }
const struct rec_header *recording_header(const struct recording *rec) { return &rec->hdr; }
long long recording_first_bad_offset(const struct recording *rec) { return rec->first_bad; }
size_t recording_nbad(const struct recording *rec) { return rec->nbad; }

const char *recording_warning(const struct recording *rec)
{
	struct recording *w = (struct recording *)rec;   /* a cache of the message */
	size_t o = 0;

	w->warning[0] = 0;
	if (rec->nbad)
		o += (size_t)snprintf(w->warning + o, sizeof(w->warning) - o,
				      "%s: byte %lld: %zu damaged record%s skipped (checksum mismatch)",
				      rec->path, rec->first_bad, rec->nbad, rec->nbad > 1 ? "s" : "");
	if (rec->nbad_header && o < sizeof(w->warning))
		o += (size_t)snprintf(w->warning + o, sizeof(w->warning) - o,
				      ", %zu of them header lines: what they said (host, kernel, knobs ...) reads as unknown",
				      rec->nbad_header);
	if (rec->torn_len && o < sizeof(w->warning))
		o += (size_t)snprintf(w->warning + o, sizeof(w->warning) - o,
				      "%s%s: byte %zu: torn last record (%zu bytes, no newline) skipped",
				      o ? "; " : "", rec->path, rec->maplen - rec->torn_len, rec->torn_len);
	if (rec->nunknown && o < sizeof(w->warning))
		o += (size_t)snprintf(w->warning + o, sizeof(w->warning) - o, "%s%s: %zu record%s of a newer format skipped",
				      o ? "; " : "", rec->path, rec->nunknown, rec->nunknown > 1 ? "s" : "");
	if (rec->stop_at >= 0 && o < sizeof(w->warning))
		snprintf(w->warning + o, sizeof(w->warning) - o,
			 "%s%s: byte %lld: %s: the rest of the file (%llu bytes) is not read; `tail -c +%lld FILE` gives it",
			 o ? "; " : "", rec->path, rec->stop_at, rec->stop_why,
			 (unsigned long long)(rec->filesize - (size_t)rec->stop_at), rec->stop_at + 1);
	return w->warning;
}

size_t recording_count(const struct recording *rec, enum rec_kind k)
{
	return (unsigned)k < RK_NKINDS ? rec->ix[k].n : 0;
}

double recording_time(const struct recording *rec, enum rec_kind k, size_t i)
{
	return (unsigned)k < RK_NKINDS && i < rec->ix[k].n ? rec->ix[k].v[i].t : 0;
}

size_t recording_find(const struct recording *rec, enum rec_kind k, double t)
{
	size_t lo = 0, hi;

	if ((unsigned)k >= RK_NKINDS)
		return (size_t)-1;
	hi = rec->ix[k].n;
	/* first index with time > t, minus one */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (rec->ix[k].v[mid].t <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : (size_t)-1;
}

/* The checked line at off: fields (CRC last) and the offset after it. */
static int read_line(const struct recording *rec, size_t off, struct fields *f, size_t *next)
{
	const char *line = rec->map + off, *nl;
	size_t len;

	if (off >= rec->scanned)
		return -ENOENT;
	nl = memchr(line, '\n', rec->scanned - off);
	if (!nl)
		return -ENOENT;
	len = (size_t)(nl - line);
	*next = off + len + 1;
	if (!line_ok(line, len))
		return -EBADMSG;
	split(line, len - 9, f);
	if (f->nf < REC_MAX_FIELDS) {
		f->p[f->nf] = line + len - 8;
		f->len[f->nf] = 8;
		f->nf++;
	}
	return 0;
}

/* Iterate the data columns of a checked record: c is the column id. */
#define FOR_COLS(rec, slot, f, i, c) \
	for (int i = 1, c; i < (f)->nf - 1; i++) \
		if ((c = (i - 1 < REC_MAX_FIELDS ? (rec)->colmap[slot][i - 1] : -1)) >= 0)

/* A D record.  Format 2 stores the counter deltas: the figures are
 * derived here with the sampler's own function and the sample's dt, so
 * they are the very doubles the live session showed.  Format 1 stored
 * the figures. */
static void parse_disk(const struct recording *rec, const struct fields *f, double dt,
		       struct disk_rate *d)
{
	bool deltas = false;

	memset(d, 0, sizeof(*d));
	FOR_COLS(rec, 1, f, i, c) {
		const char *p = f->p[i];
		size_t n = f->len[i];
		switch (c) {
		case DC_NAME: fd_text(p, n, d->name, sizeof(d->name)); break;
		case DC_HAVE_RATE: d->have_rate = fd_ll(p, n) != 0; break;
		case DC_NFIELDS: {
			long long v = fd_ll(p, n);
			d->nfields = v < 0 ? 0 : v > DS_NFIELDS ? DS_NFIELDS : (int)v;
			deltas = true;
			break;
		}
		case DC_V1_R_S: d->r_s = fd_double(p, n); break;
		case DC_V1_W_S: d->w_s = fd_double(p, n); break;
		case DC_V1_RKB_S: d->rkB_s = fd_double(p, n); break;
		case DC_V1_WKB_S: d->wkB_s = fd_double(p, n); break;
		case DC_V1_R_AWAIT: d->r_await = fd_double(p, n); break;
		case DC_V1_W_AWAIT: d->w_await = fd_double(p, n); break;
		case DC_V1_AQU_SZ: d->aqu_sz = fd_double(p, n); break;
		case DC_V1_UTIL: d->util = fd_double(p, n); break;
		case DC_V1_D_S: d->d_s = fd_double(p, n); break;
		case DC_V1_DKB_S: d->dkB_s = fd_double(p, n); break;
		case DC_V1_F_S: d->f_s = fd_double(p, n); break;
		default:
			if (c >= DC_DELTA0 && c < DC_DELTA0 + DS_NFIELDS) {
				d->delta[c - DC_DELTA0] = fd_ull(p, n);
				deltas = true;
			}
		}
	}
	if (!deltas && d->have_rate)
		d->figures = (UINT32_C(1) << (DF_F_S + 1)) - 1;   /* format 1 stored r_s .. f_s */
	if (deltas && d->have_rate && disk_deltas_impossible(d->delta, d->nfields)) {
		/* a reset an older writer stored as a wrap: n/a, as live */
		d->have_rate = false;
		d->reset = true;
		memset(d->delta, 0, sizeof(d->delta));
	}
	if (deltas && d->have_rate) {
		derive_disk_rates(d->delta, d->nfields, dt, d);
		d->have_rate = true;   /* as recorded, even where dt says otherwise */
	}
}

/* The disk list of the L record at off and the M records after it:
 * names and nfields in sample order, into s->disks (grown).  The count,
 * or -1 when it cannot be used (a damaged part: which disks it held is
 * unknown). */
static int parse_list(const struct recording *rec, uint64_t off, struct sample *s)
{
	struct fields f;
	size_t next;
	int n = 0;

	for (char type = RT_DISKS;; type = RT_DISKS_MORE) {
		if (read_line(rec, off, &f, &next) || f.len[0] != 1 || f.p[0][0] != type)
			return -1;
		if ((f.nf - 2) % 2 || f.nf >= REC_MAX_FIELDS)
			return -1;   /* fields of an L that no writer made */
		if (sample_reserve_disks(s, n + (f.nf - 2) / 2))
			return -1;
		for (int i = 1; i + 1 < f.nf - 1; i += 2, n++) {
			struct disk_rate *list = s->disks;
			long long nf = fd_ll(f.p[i + 1], f.len[i + 1]);
			memset(&list[n], 0, sizeof(list[n]));
			fd_text(f.p[i], f.len[i], list[n].name, sizeof(list[n].name));
			list[n].nfields = nf < 0 ? 0 : nf > DS_NFIELDS ? DS_NFIELDS : (int)nf;
		}
		off = next;
		if (off >= rec->scanned || rec->map[off] != RT_DISKS_MORE)
			return n;
	}
}

/* The L record that governs the sample at off: the last one before it. */
static const struct list_ix *list_before(const struct recording *rec, uint64_t off)
{
	size_t lo = 0, hi = rec->nlists;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (rec->lists[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &rec->lists[lo - 1] : NULL;
}

/* Not stored: the kernel's naming tells a partition from its disk, as
 * the text probe tells it (the whole disk listed last before it). */
static void mark_partitions(struct sample *s)
{
	int whole = -1;

	for (int j = 0; j < s->ndisks; j++) {
		s->disks[j].is_partition = whole >= 0 &&
			probe_name_is_partition_of(s->disks[whole].name, s->disks[j].name);
		if (!s->disks[j].is_partition)
			whole = j;
	}
}

/* The list's entry named name: from `from` on first (the writer puts the
 * D records in the list's order, so a sample's lookups walk the list
 * once), then from its start; -1 when not there or taken. */
static int list_find(const struct sample *s, int n, const unsigned char *used, int from,
		     const char *name)
{
	for (int pass = 0; pass < 2; pass++)
		for (int j = pass ? 0 : from; j < (pass ? from : n); j++)
			if (!used[j] && !strcmp(s->disks[j].name, name))
				return j;
	return -1;
}

/* The disks of the sample at off, whose S record ends at next: its D
 * records, placed in the order of the L record before it, and the disks
 * the L names without a D record are idle (every delta 0).  Without a
 * usable L (format 1, a damaged one, or one that disagrees with the S's
 * ndisks or the D names) the disks are the D records as they come.  Any
 * number of devices (2.3; 2.2's writer kept 16), in time linear in them. */
static void read_disks(const struct recording *rec, uint64_t off, size_t next, int ndisks,
		       struct sample *s)
{
	struct disk_rate *dl = NULL;
	unsigned char *used = NULL;
	int capd = 0;
	const struct list_ix *li = list_before(rec, off);
	struct fields f;
	int nd = 0, nlist = -1;
	bool lost = false;   /* a damaged D: which disk it was is unknown */

	for (size_t o = next; o < rec->scanned && rec->map[o] == RT_DISK; o = next) {
		int rc = read_line(rec, o, &f, &next);
		if (rc == -ENOENT)
			break;
		void *p = dl;
		if (rc || f.len[0] != 1 || snapshot_grow_array(&p, &capd, nd + 1, sizeof(*dl))) {
			lost = true;   /* a damaged disk line reads as never written */
			continue;
		}
		dl = p;
		parse_disk(rec, &f, s->dt, &dl[nd++]);
	}
	if (li && !li->bad)
		nlist = parse_list(rec, li->off, s);
	if (nlist < 0 || nlist != ndisks || nlist < nd || !(used = calloc((size_t)nlist + 1, 1)))
		goto as_they_come;
	for (int k = 0, from = 0; k < nd; k++) {
		int j = list_find(s, nlist, used, from, dl[k].name);
		if (j < 0)
			goto as_they_come;
		used[j] = 1;
		s->disks[j] = dl[k];
		from = j + 1;
	}
	for (int j = 0; j < nlist; j++) {
		if (used[j])
			continue;
		/* a listed disk without its D was idle, unless a D of this
		 * sample was damaged: it may have been that disk's, busy, so
		 * each of them is n/a, never a wrong 0.0 */
		if (lost)
			continue;
		derive_disk_rates(s->disks[j].delta, s->disks[j].nfields, s->dt, &s->disks[j]);
		s->disks[j].have_rate = true;
	}
	s->ndisks = nlist;
	goto partitions;
as_they_come:
	if (sample_reserve_disks(s, nd))
		nd = 0;
	if (nd)
		memcpy(s->disks, dl, (size_t)nd * sizeof(dl[0]));
	s->ndisks = nd;
partitions:
	mark_partitions(s);
	free(dl);
	free(used);
}

/* The T record after the sample's D records, if any (2.1): the kernel's
 * throttling over the sample.  Without one the sample had the zone. */
static void read_throttle(const struct recording *rec, size_t next, struct sample *s)
{
	struct fields f;

	s->thr_src = s->have_dirty ? THR_SRC_SAMPLED : THR_SRC_NONE;
	s->throttled = s->have_dirty && s->zone >= ZONE_THROTTLE;
	size_t o = next;
	while (o < rec->scanned && rec->map[o] == RT_DISK) {
		size_t n;
		if (read_line(rec, o, &f, &n) == -ENOENT)
			return;
		o = n;
	}
	if (o >= rec->scanned || rec->map[o] != RT_THROTTLE)
		return;
	if (read_line(rec, o, &f, &next) || f.len[0] != 1 || f.nf < 6)
		return;   /* damaged: the sampled zone, as if never written */
	if (fd_ll(f.p[1], f.len[1]) != 1)
		return;
	s->thr_src = THR_SRC_KERNEL;
	s->throttled = fd_ll(f.p[2], f.len[2]) != 0;
	s->pauses = (uint32_t)fd_ull(f.p[3], f.len[3]);
	s->paused_ms = fd_double(f.p[4], f.len[4]);
	s->nwriters = 0;
	for (int i = 5; i + 3 < f.nf - 1 && s->nwriters < 4; i += 4) {
		struct sample_writer *w = &s->writers[s->nwriters++];
		w->pid = (int32_t)fd_ll(f.p[i], f.len[i]);
		fd_text(f.p[i + 1], f.len[i + 1], w->comm, sizeof(w->comm));
		w->pauses = (uint32_t)fd_ull(f.p[i + 2], f.len[i + 2]);
		w->paused_ms = fd_double(f.p[i + 3], f.len[i + 3]);
	}
}

int recording_sample(const struct recording *rec, size_t i, struct sample *s)
{
	struct fields f;
	size_t off, next;
	int rc, ndisks = -1;
	bool have_skew = false;
	long long skew = 0;

	if (i >= rec->ix[RK_SAMPLE].n)
		return -ERANGE;
	sample_reset(s);
	s->zone = ZONE_UNKNOWN;
	off = rec->ix[RK_SAMPLE].v[i].off;
	rc = read_line(rec, off, &f, &next);
	if (rc)
		return rc == -ENOENT ? -EBADMSG : rc;
	FOR_COLS(rec, 0, &f, k, c) {
		const char *p = f.p[k];
		size_t n = f.len[k];
		const struct sample_col *col = &sample_cols[c];
		char z[16];
		switch (c) {
		case SF_REALTIME_SKEW_NS: skew = fd_ll(p, n); have_skew = true; continue;
		case SF_NDISKS: {
			long long v = fd_ll(p, n);
			ndisks = v < 0 || v > INT_MAX / 2 ? -1 : (int)v;
			continue;
		}
		}
		switch (col->type) {
		case SCT_TIME: case SCT_SECS: case SCT_DOUBLE:
			sample_col_set_double(s, col, fd_double(p, n));
			break;
		case SCT_U64: case SCT_U32:
			sample_col_set_int(s, col, (int64_t)fd_ull(p, n));
			break;
		case SCT_ZONE:
			fd_text(p, n, z, sizeof(z));
			s->zone = (enum dirty_zone)rec_zone_parse(z);
			break;
		default:
			sample_col_set_int(s, col, fd_ll(p, n));
		}
	}
	/* the writer's sum, undone in the same unsigned (wrapping) arithmetic;
	 * without the header's base (a damaged H line) the wall clock is
	 * unknown (0), not a date in 1970 */
	if (have_skew && rec->hdr.start_realtime_ns)
		s->realtime_ns = (int64_t)((uint64_t)rec->hdr.start_realtime_ns +
					   (uint64_t)rec_secs_to_ns(s->t) + (uint64_t)skew);
	read_disks(rec, off, next, ndisks, s);
	read_throttle(rec, next, s);
	return 0;
}

int recording_event(const struct recording *rec, size_t i, struct model_event *e)
{
	struct fields f;
	size_t next;
	int rc;

	if (i >= rec->ix[RK_EVENT].n)
		return -ERANGE;
	memset(e, 0, sizeof(*e));
	e->kind = MEV_NOTE;
	rc = read_line(rec, rec->ix[RK_EVENT].v[i].off, &f, &next);
	if (rc)
		return -EBADMSG;
	FOR_COLS(rec, 2, &f, k, c) {
		char kind[32];
		switch (c) {
		case EC_T: e->t = fd_double(f.p[k], f.len[k]); break;
		case EC_KIND:
			fd_text(f.p[k], f.len[k], kind, sizeof(kind));
			rc = rec_event_kind_parse(kind);
			e->kind = rc < 0 ? MEV_NOTE : (enum model_event_kind)rc;
			break;
		case EC_TEXT: fd_text(f.p[k], f.len[k], e->text, sizeof(e->text)); break;
		}
	}
	return 0;
}

int recording_output(const struct recording *rec, size_t i, struct output_line *l)
{
	struct fields f;
	size_t next;

	if (i >= rec->ix[RK_OUTPUT].n)
		return -ERANGE;
	memset(l, 0, sizeof(*l));
	if (read_line(rec, rec->ix[RK_OUTPUT].v[i].off, &f, &next))
		return -EBADMSG;
	FOR_COLS(rec, 3, &f, k, c) {
		switch (c) {
		case OC_T: l->t = fd_double(f.p[k], f.len[k]); break;
		case OC_RUN: l->run = (int)fd_ll(f.p[k], f.len[k]); break;
		case OC_TEXT: fd_text(f.p[k], f.len[k], l->text, sizeof(l->text)); break;
		}
	}
	return 0;
}

int recording_result(const struct recording *rec, size_t i, struct result_point *p)
{
	struct fields f;
	size_t next;

	if (i >= rec->ix[RK_RESULT].n)
		return -ERANGE;
	memset(p, 0, sizeof(*p));
	if (read_line(rec, rec->ix[RK_RESULT].v[i].off, &f, &next))
		return -EBADMSG;
	FOR_COLS(rec, 4, &f, k, c) {
		const char *s = f.p[k];
		size_t n = f.len[k];
		switch (c) {
		case RC_T: p->t = fd_double(s, n); break;
		case RC_LABEL: fd_text(s, n, p->label, sizeof(p->label)); break;
		case RC_RUN: p->run = (int)fd_ll(s, n); break;
		case RC_X_NAME: fd_text(s, n, p->x_name, sizeof(p->x_name)); break;
		case RC_X: p->x = fd_double(s, n); break;
		case RC_METRIC: fd_text(s, n, p->metric, sizeof(p->metric)); break;
		case RC_VALUE: p->value = fd_double(s, n); break;
		case RC_UNIT: fd_text(s, n, p->unit, sizeof(p->unit)); break;
		case RC_FLAGS: p->flags = (unsigned)fd_ull(s, n); break;
		case RC_SETTING: fd_text(s, n, p->setting, sizeof(p->setting)); break;
		}
	}
	return 0;
}

static bool bench_is_text(int c)
{
	return c == BC_LABEL || c == BC_COMMAND || c == BC_P_PHASE || c == BC_P_UNIT;
}

static void bench_text(struct bench_status *b, int c, const char *s, size_t n)
{
	switch (c) {
	case BC_LABEL: fd_text(s, n, b->label, sizeof(b->label)); break;
	case BC_COMMAND: fd_text(s, n, b->command, sizeof(b->command)); break;
	case BC_P_PHASE: fd_text(s, n, b->progress.phase, sizeof(b->progress.phase)); break;
	case BC_P_UNIT: fd_text(s, n, b->progress.unit, sizeof(b->progress.unit)); break;
	}
}

int recording_bench(const struct recording *rec, size_t i, struct bench_status *b)
{
	struct fields f;
	size_t next;
	uint64_t same = 0;   /* bit c: column c is "\\=" */

	if (i >= rec->ix[RK_BENCH].n)
		return -ERANGE;
	memset(b, 0, sizeof(*b));
	b->last_exit_status = -1;
	b->eta_s = -1;
	if (read_line(rec, rec->ix[RK_BENCH].v[i].off, &f, &next))
		return -EBADMSG;
	FOR_COLS(rec, 5, &f, k, c) {
		const char *s = f.p[k];
		size_t n = f.len[k];
		char st[32];
		int v;
		if (bench_is_text(c) && fd_is(s, n, "\\=")) {
			same |= UINT64_C(1) << c;
			continue;
		}
		switch (c) {
		case BC_STATE:
			fd_text(s, n, st, sizeof(st));
			v = rec_bench_state_parse(st);
			b->state = v < 0 ? BENCH_NONE : (enum bench_state)v;
			break;
		case BC_RUN_INDEX: b->run_index = (int)fd_ll(s, n); break;
		case BC_RUN_TOTAL: b->run_total = (int)fd_ll(s, n); break;
		case BC_RUNS_FAILED: b->runs_failed = (int)fd_ll(s, n); break;
		case BC_PID: b->pid = (pid_t)fd_ll(s, n); break;
		case BC_NTASKS: b->ntasks = (int)fd_ll(s, n); break;
		case BC_THROTTLED: b->throttled_tasks = (int)fd_ll(s, n); break;
		case BC_READ_BPS: b->read_Bps = fd_double(s, n); break;
		case BC_WRITE_BPS: b->write_Bps = fd_double(s, n); break;
		case BC_RCHAR_BPS: b->rchar_Bps = fd_double(s, n); break;
		case BC_WCHAR_BPS: b->wchar_Bps = fd_double(s, n); break;
		case BC_HAVE_TP: b->have_tracepoint = fd_ll(s, n) != 0; break;
		case BC_PAUSES_PER_S: b->pauses_per_s = fd_double(s, n); break;
		case BC_PAUSE_MS_PER_S: b->pause_ms_per_s = fd_double(s, n); break;
		case BC_PAUSES_TOTAL: b->pauses_total = fd_ull(s, n); break;
		case BC_PAUSE_TOTAL_MS: b->pause_total_ms = fd_double(s, n); break;
		case BC_EXIT: b->last_exit_status = (int)fd_ll(s, n); break;
		case BC_SIGNAL: b->last_signal = (int)fd_ll(s, n); break;
		case BC_ETA: b->eta_s = fd_double(s, n); break;
		case BC_RUN_START_T: b->run_start_t = fd_double(s, n); break;
		case BC_P_VALID: b->progress.valid = fd_ll(s, n) != 0; break;
		case BC_P_ELAPSED: b->progress.elapsed_s = fd_double(s, n); break;
		case BC_P_TPUT: b->progress.throughput = fd_double(s, n); break;
		case BC_P_LAT: b->progress.latency_ms = fd_double(s, n); break;
		case BC_LABEL: case BC_COMMAND: case BC_P_PHASE: case BC_P_UNIT:
			bench_text(b, c, s, n);
			break;
		}
	}
	/* "\=": the text of the B record the scan found for it (none after a
	 * damaged B record: left empty, never a wrong command) */
	if (same && rec->ix[RK_BENCH].v[i].base != NO_BASE &&
	    !read_line(rec, rec->ix[RK_BENCH].v[i].base, &f, &next))
		FOR_COLS(rec, 5, &f, k, c)
			if ((same >> c & 1) && !fd_is(f.p[k], f.len[k], "\\="))
				bench_text(b, c, f.p[k], f.len[k]);
	return 0;
}

int recording_load_results(const struct recording *rec, bool with_progress, struct result_set *out)
{
	struct result_point p;

	for (size_t i = 0; i < rec->ix[RK_RESULT].n; i++) {
		if (recording_result(rec, i, &p))
			continue;
		if (!with_progress && (p.flags & RP_PROGRESS))
			continue;
		if (result_set_add(out, &p))
			return -ENOMEM;
	}
	return 0;
}
