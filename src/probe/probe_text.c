/* probe_text: the one parser of the /proc text formats (vmstat, meminfo,
 * diskstats, the dirty_* knobs, pressure/io) and of recorded trace samples.
 *
 * Every input here may come from outside (a --proc-root copied from another
 * box, a trace file cut short, a fuzzer), so nothing is NUL-terminated, every
 * line must end in '\n' (a missing one means the file was cut), numbers are
 * checked for overflow, and every error names "FILE:LINE" and the fix. */
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "iodash/probe/probe.h"

static const char *const text_relpath[PROBE_TEXT_COUNT] = {
	[PROBE_TEXT_VMSTAT] = "vmstat",
	[PROBE_TEXT_MEMINFO] = "meminfo",
	[PROBE_TEXT_DISKSTATS] = "diskstats",
	[PROBE_TEXT_DIRTY_BACKGROUND_BYTES] = "sys/vm/dirty_background_bytes",
	[PROBE_TEXT_DIRTY_BACKGROUND_RATIO] = "sys/vm/dirty_background_ratio",
	[PROBE_TEXT_DIRTY_BYTES] = "sys/vm/dirty_bytes",
	[PROBE_TEXT_DIRTY_EXPIRE_CENTISECS] = "sys/vm/dirty_expire_centisecs",
	[PROBE_TEXT_DIRTY_RATIO] = "sys/vm/dirty_ratio",
	[PROBE_TEXT_DIRTY_WRITEBACK_CENTISECS] = "sys/vm/dirty_writeback_centisecs",
	[PROBE_TEXT_PSI_IO] = "pressure/io",
};

const char *probe_text_relpath(enum probe_text what)
{
	if ((unsigned)what >= PROBE_TEXT_COUNT)
		return "?";
	return text_relpath[what];
}

__attribute__((format(printf, 5, 6)))
static int text_fail(char *err, size_t errlen, const char *name, unsigned line,
		     const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!err || !errlen)
		return -EINVAL;
	if (line)
		n = snprintf(err, errlen, "%s:%u: ", name ? name : "?", line);
	else
		n = snprintf(err, errlen, "%s: ", name ? name : "?");
	if (n < 0 || (size_t)n >= errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A value out of range (docs/parsers.md, numbers): that figure is n/a
 * and the read goes on; the first one of a read is kept in the
 * snapshot's note, "FILE:LINE: why".  A line of the wrong shape (no key,
 * no name) is still an error: the file is not what it stands for. */
__attribute__((format(printf, 4, 5)))
static void text_note(char *note, const char *name, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (note[0])
		return;
	n = snprintf(note, SNAP_NOTE_LEN, "%s:%u: ", name ? name : "?", line);
	if (n < 0 || n >= SNAP_NOTE_LEN)
		return;
	va_start(ap, fmt);
	vsnprintf(note + n, SNAP_NOTE_LEN - (size_t)n, fmt, ap);
	va_end(ap);
}

/* A cursor over one text; lines must end in '\n'. */
struct text_cursor {
	const char *p, *end;
	unsigned line;          /* number of the line last returned */
};

/* Next line without its '\n' into [*ls, *le).  1 = got one, 0 = end,
 * -1 = the last line has no '\n' (a file cut mid-write), -2 = NUL byte. */
static int cursor_next(struct text_cursor *c, const char **ls, const char **le)
{
	const char *nl;

	if (c->p >= c->end)
		return 0;
	c->line++;
	nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	if (memchr(c->p, '\0', (size_t)((nl ? nl : c->end) - c->p)))
		return -2;
	if (!nl)
		return -1;
	*ls = c->p;
	*le = nl;
	c->p = nl + 1;
	return 1;
}

static int cursor_fail(int rc, char *err, size_t errlen, const char *name, unsigned line)
{
	if (rc == -1)
		return text_fail(err, errlen, name, line,
				 "last line has no newline: the file was cut short; "
				 "copy it again whole");
	return text_fail(err, errlen, name, line,
			 "binary data (NUL byte) in a text file; "
			 "is this really a copy of a /proc file?");
}

static const char *skip_blank(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* Decimal digits to u64; false on no digit or overflow.  19 digits
 * cannot overflow (10^19 - 1 < 2^64): only from the 20th on is the
 * overflow test made (about 1,000 instructions a live sample fewer). */
static bool parse_u64(const char **pp, const char *e, uint64_t *out)
{
	const char *p = *pp, *safe_end = e - p > 19 ? p + 19 : e;
	uint64_t v = 0;

	if (p >= e || !is_digit(*p))
		return false;
	while (p < safe_end && is_digit(*p))
		v = v * 10 + (unsigned)(*p++ - '0');
	while (p < e && is_digit(*p)) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
		p++;
	}
	*pp = p;
	*out = v;
	return true;
}

/* The blank-delimited token at *pp as a count: true with *out when the
 * whole token is one (a u64); false for a sign, a point, an exponent,
 * letters or more than 2^64-1, with [*tok, *pp) the token for a note. */
static bool parse_count(const char **pp, const char *e, uint64_t *out, const char **tok)
{
	const char *p = *pp;
	bool ok = parse_u64(&p, e, out) && (p == e || *p == ' ' || *p == '\t');

	*tok = *pp;
	if (!ok)
		for (p = *pp; p < e && *p != ' ' && *p != '\t'; p++)
			;
	*pp = p;
	return ok;
}

/* "SEC[.FRAC]" to nanoseconds, FRAC up to 9 digits (more are dropped:
 * the recorder writes 6 or 9). */
static bool parse_sec_ns(const char **pp, const char *e, uint64_t *out)
{
	const char *p = *pp;
	uint64_t sec, frac = 0;
	int nd = 0;

	if (!parse_u64(&p, e, &sec) || sec > UINT64_MAX / 1000000000ull - 1)
		return false;
	if (p < e && *p == '.') {
		p++;
		while (p < e && is_digit(*p)) {
			if (nd < 9) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				nd++;
			}
			p++;
		}
	}
	while (nd < 9) {
		frac *= 10;
		nd++;
	}
	*pp = p;
	*out = sec * 1000000000ull + frac;
	return true;
}

/* "D[.DD]" (PSI averages) to a double without strtod: input is not
 * NUL-terminated. */
static bool parse_decimal(const char **pp, const char *e, double *out)
{
	const char *p = *pp;
	uint64_t ip;
	double v, scale = 0.1;

	if (!parse_u64(&p, e, &ip))
		return false;
	v = (double)ip;
	if (p < e && *p == '.') {
		p++;
		while (p < e && is_digit(*p)) {
			v += (*p - '0') * scale;
			scale /= 10;
			p++;
		}
	}
	*pp = p;
	*out = v;
	return true;
}

#define SNAP_ITEM_ROW(field, key, item, req) { key, offsetof(struct snapshot, field), req },
#define SNAP_ITEM_U64(field, key, item, req) \
	_Static_assert(sizeof(((struct snapshot *)0)->field) == sizeof(uint64_t), #field " is a uint64_t");
const struct snap_item snap_vmstat_items[] = { SNAP_VMSTAT_ITEMS(SNAP_ITEM_ROW) };
const struct snap_item snap_meminfo_items[] = { SNAP_MEMINFO_ITEMS(SNAP_ITEM_ROW) };
const int snap_vmstat_nitems = sizeof(snap_vmstat_items) / sizeof(snap_vmstat_items[0]);
const int snap_meminfo_nitems = sizeof(snap_meminfo_items) / sizeof(snap_meminfo_items[0]);
SNAP_VMSTAT_ITEMS(SNAP_ITEM_U64)
SNAP_MEMINFO_ITEMS(SNAP_ITEM_U64)
#undef SNAP_ITEM_ROW
#undef SNAP_ITEM_U64

static bool key_is(const char *k, size_t klen, const char *want)
{
	return strlen(want) == klen && memcmp(k, want, klen) == 0;
}

/* The row of a table with this key, -1 for none. */
static int item_find(const struct snap_item *t, int n, const char *k, size_t klen)
{
	/* the first letter first: /proc/vmstat has ~180 lines, a few wanted */
	for (int i = 0; i < n; i++)
		if (t[i].key[0] == k[0] && key_is(k, klen, t[i].key))
			return i;
	return -1;
}

/* The first required row not seen (bit i: row i), NULL when all were. */
static const char *item_missing(const struct snap_item *t, int n, uint64_t seen)
{
	for (int i = 0; i < n; i++)
		if (t[i].required && !(seen >> i & 1))
			return t[i].key;
	return NULL;
}

/* Scratch shared by the parsers of one snapshot: what is not a snapshot
 * field but is needed to finish one. */
struct parse_ctx {
	struct snapshot *s;
	uint64_t nr_free_pages;
	bool have_nr_free, have_mem_free;
	char *err;
	size_t errlen;
};

/* The end of a key/value file (/proc/vmstat, /proc/meminfo): a read
 * error, an empty file or a missing required key fails it; a value out of
 * range (bad) leaves its figures n/a; otherwise the snapshot has them. */
struct keyed_file {
	const char *path;                /* "/proc/vmstat" */
	const char *not_it;              /* what a missing key says it is not */
	const struct snap_item *items;
	int nitems;
	unsigned have;                   /* SNAP_HAVE_* */
};

static int keyed_file_end(struct parse_ctx *cx, const struct keyed_file *f, int rc,
			  const struct text_cursor *c, const char *name, unsigned line0,
			  uint64_t seen, bool bad)
{
	const char *missing;

	if (rc < 0)
		return cursor_fail(rc, cx->err, cx->errlen, name, c->line);
	if (c->line < line0)
		return text_fail(cx->err, cx->errlen, name, 0, "empty; copy %s into it", f->path);
	if ((missing = item_missing(f->items, f->nitems, seen)))
		return text_fail(cx->err, cx->errlen, name, 0,
				 "no %s line: %s, or cut short; copy it again whole", missing, f->not_it);
	if (!bad)
		cx->s->have |= f->have;
	return 0;
}

/* --- /proc/vmstat: "name value" per line ------------------------------- */

static int parse_vmstat(struct parse_ctx *cx, const char *buf, size_t len,
			const char *name, unsigned line0)
{
	struct snapshot *s = cx->s;
	struct text_cursor c = { buf, buf + len, line0 - 1 };
	const char *ls, *le;
	uint64_t seen = 0;   /* bit i: row i of the table */
	bool bad = false;
	int rc;

	while ((rc = cursor_next(&c, &ls, &le)) == 1) {
		const char *p = ls, *k;
		size_t klen;
		uint64_t v;

		k = p;
		while (p < le && ((*p >= 'a' && *p <= 'z') || is_digit(*p) || *p == '_'))
			p++;
		klen = (size_t)(p - k);
		if (klen == 0 || p >= le || *p != ' ')
			return text_fail(cx->err, cx->errlen, name, c.line,
					 "expected 'name number' as in /proc/vmstat; "
					 "is this a copy of /proc/vmstat?");
		p = skip_blank(p, le);
		if (p >= le)
			return text_fail(cx->err, cx->errlen, name, c.line,
					 "expected a number after '%.*s'; "
					 "is this a copy of /proc/vmstat?", (int)klen, k);
		const char *tok;
		bool ok = parse_count(&p, le, &v, &tok) && skip_blank(p, le) == le;
		uint64_t *dst = NULL, bit = 0;
		int item = item_find(snap_vmstat_items, snap_vmstat_nitems, k, klen);
		if (item >= 0) {
			dst = (uint64_t *)((char *)s + snap_vmstat_items[item].off);
			bit = 1ull << item;
		} else if (klen == 13 && key_is(k, klen, "nr_free_pages")) {
			dst = &cx->nr_free_pages;
			cx->have_nr_free = true;
		}
		if (!dst)
			continue;   /* not ours: whatever its value */
		seen |= bit;
		if ((!ok || v > SNAP_PAGES_MAX) && !bit) {
			cx->have_nr_free = false;
			continue;
		}
		if (!ok || v > SNAP_PAGES_MAX) {
			/* the zone needs them all: the vmstat figures are n/a */
			int tl = p - tok > 24 ? 24 : (int)(p - tok);
			text_note(s->note, name, c.line, "%.*s %.*s is %s: the dirty figures are n/a",
				  (int)klen, k, tl, tok,
				  ok ? "more pages than any memory (out of range)" : "not a count (out of range)");
			bad = true;
			continue;
		}
		*dst = v;
	}
	const struct keyed_file vmstat = {
		"/proc/vmstat", "not a /proc/vmstat of kernel 2.6.37 or later",
		snap_vmstat_items, snap_vmstat_nitems, SNAP_HAVE_VMSTAT,
	};
	return keyed_file_end(cx, &vmstat, rc, &c, name, line0, seen, bad);
}

/* --- /proc/meminfo: "Key:   value kB" -------------------------------- */

static int parse_meminfo(struct parse_ctx *cx, const char *buf, size_t len,
			 const char *name, unsigned line0)
{
	struct snapshot *s = cx->s;
	struct text_cursor c = { buf, buf + len, line0 - 1 };
	const char *ls, *le;
	uint64_t seen = 0;   /* bit i: row i of the table */
	bool bad = false;
	int rc;

	while ((rc = cursor_next(&c, &ls, &le)) == 1) {
		const char *p = ls, *k = ls;
		size_t klen;
		uint64_t v, *dst = NULL, bit = 0;

		while (p < le && *p != ':' && *p != ' ' && *p != '\t')
			p++;
		klen = (size_t)(p - k);
		if (klen == 0 || p >= le || *p != ':')
			return text_fail(cx->err, cx->errlen, name, c.line,
					 "expected 'Name: number [kB]' as in /proc/meminfo; "
					 "is this a copy of /proc/meminfo?");
		p = skip_blank(p + 1, le);
		if (p >= le)
			return text_fail(cx->err, cx->errlen, name, c.line,
					 "expected a number after '%.*s:'; "
					 "is this a copy of /proc/meminfo?", (int)klen, k);
		const char *tok;
		if (!parse_count(&p, le, &v, &tok)) {
			int item = item_find(snap_meminfo_items, snap_meminfo_nitems, k, klen);
			if (item < 0)
				continue;   /* not ours: whatever its value */
			text_note(s->note, name, c.line, "%.*s: %.*s is not a count (out of range): the meminfo figures are n/a",
				  (int)klen, k, p - tok > 24 ? 24 : (int)(p - tok), tok);
			seen |= 1ull << item;
			bad = true;
			continue;
		}
		p = skip_blank(p, le);
		if (p < le && le - p == 2 && p[0] == 'k' && p[1] == 'B')
			p += 2;
		if (p != le)
			return text_fail(cx->err, cx->errlen, name, c.line,
					 "unexpected text after the number of '%.*s' "
					 "(only ' kB' may follow)", (int)klen, k);
		int item = item_find(snap_meminfo_items, snap_meminfo_nitems, k, klen);
		if (item >= 0) {
			dst = (uint64_t *)((char *)s + snap_meminfo_items[item].off);
			bit = 1ull << item;
			if (dst == &s->mem_free_kb)
				cx->have_mem_free = true;
		}
		if (dst) {
			*dst = v;
			seen |= bit;
		}
	}
	const struct keyed_file meminfo = {
		"/proc/meminfo", "not a /proc/meminfo",
		snap_meminfo_items, snap_meminfo_nitems, SNAP_HAVE_MEMINFO,
	};
	return keyed_file_end(cx, &meminfo, rc, &c, name, line0, seen, bad);
}

/* --- /proc/diskstats: "major minor name f1 .. fN" ---------------------- */

bool probe_name_is_partition_of(const char *disk, const char *name)
{
	size_t nlen = strlen(name), dlen = strlen(disk);
	const char *rest;

	if (dlen == 0 || dlen >= nlen || memcmp(disk, name, dlen) != 0)
		return false;
	rest = name + dlen;
	/* The kernel puts a 'p' between a disk name ending in a digit
	 * and the partition number (nvme0n1p1, loop0p1, mmcblk0p2). */
	if (is_digit(disk[dlen - 1])) {
		if (*rest != 'p')
			return false;
		rest++;
	}
	if (!*rest)
		return false;
	while (is_digit(*rest))
		rest++;
	return !*rest;
}

/* Only the whole disk listed last is a candidate: the kernel lists a
 * disk's partitions right after it, and walking every disk before made
 * a list of 1,024 devices half a million compares a read. */
bool probe_name_is_partition(const struct snap_disk *disks, int ndisks, const char *name)
{
	for (int i = ndisks - 1; i >= 0; i--)
		if (!disks[i].is_partition)
			return probe_name_is_partition_of(disks[i].name, name);
	return false;
}

/* The counters after the name, read as iostat reads them (sysstat's
 * read_diskstats_stat): 4 is an old kernel's partition line (reads,
 * sectors read, writes, sectors written); from 11 on the disk layout, of
 * which the first 11, 15 or 17 are known (14 reads as 11, 16 as 15) and
 * what a later kernel adds past 17 is ignored.  Any other count, or a
 * counter that is not a number, leaves the device without counters
 * (nfields 0, n/a): one odd line never costs the other devices.
 * Returns the usable field count. */
static int diskstats_read_counters(const char *p, const char *le, struct snap_disk *d,
				   char *note, const char *name, unsigned line)
{
	uint64_t v[DS_NFIELDS];
	int nf = 0;

	for (;;) {
		uint64_t x;
		const char *tok;
		p = skip_blank(p, le);
		if (p >= le)
			break;
		if (!parse_count(&p, le, &x, &tok)) {
			text_note(note, name, line, "%s: counter %d '%.*s' is not a count (out of range): its figures are n/a",
				  d->name, nf + 1, p - tok > 24 ? 24 : (int)(p - tok), tok);
			return 0;
		}
		if (nf < DS_NFIELDS)
			v[nf] = x;
		nf++;
	}
	if (nf == 4) {
		d->f[DS_READS] = v[0];
		d->f[DS_SECTORS_READ] = v[1];
		d->f[DS_WRITES] = v[2];
		d->f[DS_SECTORS_WRITTEN] = v[3];
		return 4;
	}
	if (nf < 11) {
		text_note(note, name, line, "%s: %d counters (a kernel prints 4, 11, 14, 15, 17 or more): its figures are n/a",
			  d->name, nf);
		return 0;
	}
	nf = nf >= 17 ? 17 : nf >= 15 ? 15 : 11;
	memcpy(d->f, v, sizeof(v[0]) * (size_t)nf);
	return nf;
}

static int parse_diskstats(struct parse_ctx *cx, const char *buf, size_t len,
			   const char *name, unsigned line0)
{
	struct snapshot *s = cx->s;
	struct text_cursor c = { buf, buf + len, line0 - 1 };
	const char *ls, *le;
	int rc;

	s->ndisks = 0;
	while ((rc = cursor_next(&c, &ls, &le)) == 1) {
		struct snap_disk d;
		const char *p = skip_blank(ls, le), *n;
		uint64_t major, minor;
		size_t nlen;

		memset(&d, 0, sizeof(d));
		if (!parse_u64(&p, le, &major) || p >= le || (*p != ' ' && *p != '\t'))
			return text_fail(cx->err, cx->errlen, name, c.line,
					 "expected 'major minor name counters...' as in "
					 "/proc/diskstats; is this a copy of /proc/diskstats?");
		p = skip_blank(p, le);
		if (!parse_u64(&p, le, &minor) || p >= le || (*p != ' ' && *p != '\t') ||
		    major > UINT32_MAX || minor > UINT32_MAX)
			return text_fail(cx->err, cx->errlen, name, c.line,
					 "bad minor number; is this a copy of /proc/diskstats?");
		p = skip_blank(p, le);
		n = p;
		while (p < le && *p != ' ' && *p != '\t')
			p++;
		nlen = (size_t)(p - n);
		if (nlen == 0 || nlen >= SNAP_DISK_NAME_LEN)
			return text_fail(cx->err, cx->errlen, name, c.line,
					 "device name %s (the kernel's are 1..%d characters)",
					 nlen ? "too long" : "missing", SNAP_DISK_NAME_LEN - 1);
		memcpy(d.name, n, nlen);
		d.nfields = diskstats_read_counters(p, le, &d, s->note, name, c.line);
		d.major = (unsigned)major;
		d.minor = (unsigned)minor;
		/* only partitions ever had the 4-field line */
		d.is_partition = d.nfields == 4 ||
				 probe_name_is_partition(s->disks, s->ndisks, d.name);
		struct snap_disk *slot = snapshot_add_disk(s);
		if (!slot)
			return text_fail(cx->err, cx->errlen, name, c.line,
					 "out of memory for %d devices", s->ndisks + 1);
		*slot = d;
	}
	if (rc < 0)
		return cursor_fail(rc, cx->err, cx->errlen, name, c.line);
	/* An empty diskstats is legal (a box with no block device). */
	s->have |= SNAP_HAVE_DISKS;
	return 0;
}

/* --- one number per file: /proc/sys/vm/dirty_* ------------------------- */

static int parse_knob(struct parse_ctx *cx, enum probe_text what, const char *buf,
		      size_t len, const char *name, unsigned line0)
{
	struct snapshot *s = cx->s;
	struct text_cursor c = { buf, buf + len, line0 - 1 };
	const char *ls, *le, *p;
	uint64_t v;
	int rc;

	rc = cursor_next(&c, &ls, &le);
	if (rc == 0)
		return text_fail(cx->err, cx->errlen, name, 0,
				 "empty; it holds one number, as /proc/sys/vm/%s",
				 probe_text_relpath(what) + 7);
	if (rc < 0)
		return cursor_fail(rc, cx->err, cx->errlen, name, c.line);
	const char *tok;
	bool ok;
	unsigned vline;
	p = skip_blank(ls, le);
	ok = parse_count(&p, le, &v, &tok);
	if (tok == le || skip_blank(p, le) != le)
		return text_fail(cx->err, cx->errlen, name, c.line,
				 "expected one number, as in /proc/sys/vm/%s",
				 probe_text_relpath(what) + 7);
	vline = c.line;
	if (cursor_next(&c, &ls, &le) != 0)
		return text_fail(cx->err, cx->errlen, name, c.line,
				 "more than one line; /proc/sys/vm/%s holds one number",
				 probe_text_relpath(what) + 7);
	if (!ok || (what != PROBE_TEXT_DIRTY_BACKGROUND_BYTES && what != PROBE_TEXT_DIRTY_BYTES &&
		    v > UINT32_MAX)) {
		/* the knobs are n/a (SNAP_HAVE_KNOBS needs all six) */
		text_note(s->note, name, vline, "%.*s is out of range for %s: the knobs are n/a",
			  p - tok > 24 ? 24 : (int)(p - tok), tok, probe_text_relpath(what));
		return 1;
	}
	switch (what) {
	case PROBE_TEXT_DIRTY_BACKGROUND_BYTES: s->dirty_background_bytes = v; break;
	case PROBE_TEXT_DIRTY_BYTES: s->dirty_bytes = v; break;
	case PROBE_TEXT_DIRTY_BACKGROUND_RATIO: s->dirty_background_ratio = (unsigned)v; break;
	case PROBE_TEXT_DIRTY_RATIO: s->dirty_ratio = (unsigned)v; break;
	case PROBE_TEXT_DIRTY_EXPIRE_CENTISECS: s->dirty_expire_centisecs = (unsigned)v; break;
	case PROBE_TEXT_DIRTY_WRITEBACK_CENTISECS: s->dirty_writeback_centisecs = (unsigned)v; break;
	default: break;
	}
	return 0;
}

/* --- /proc/pressure/io: "some avg10=.. avg60=.. avg300=.. total=.." ---- */

static int parse_psi(struct parse_ctx *cx, const char *buf, size_t len,
		     const char *name, unsigned line0)
{
	struct snapshot *s = cx->s;
	struct text_cursor c = { buf, buf + len, line0 - 1 };
	const char *ls, *le;
	bool some = false, full = false, bad = false;
	int rc;

	while ((rc = cursor_next(&c, &ls, &le)) == 1) {
		const char *p = ls;
		double avg10 = 0, tmp = 0;
		uint64_t total = 0;
		bool is_some, got_avg10 = false, got_total = false;

		if (le - p >= 5 && memcmp(p, "some ", 5) == 0)
			is_some = true;
		else if (le - p >= 5 && memcmp(p, "full ", 5) == 0)
			is_some = false;
		else
			return text_fail(cx->err, cx->errlen, name, c.line,
					 "expected 'some ...' or 'full ...' as in /proc/pressure/io");
		p += 5;
		while ((p = skip_blank(p, le)) < le) {
			const char *k = p;
			while (p < le && *p != '=' && *p != ' ')
				p++;
			if (p >= le || *p != '=')
				return text_fail(cx->err, cx->errlen, name, c.line,
						 "expected key=value pairs as in /proc/pressure/io");
			size_t klen = (size_t)(p - k);
			p++;
			const char *v = p;
			bool ok = key_is(k, klen, "total") ? parse_u64(&p, le, &total) : parse_decimal(&p, le, &tmp);
			if (!ok || (p < le && *p != ' ')) {
				/* out of range: the pressure figures are n/a */
				while (p < le && *p != ' ')
					p++;
				text_note(s->note, name, c.line, "%.*s=%.*s is not a number (out of range): the pressure figures are n/a",
					  (int)klen, k, p - v > 24 ? 24 : (int)(p - v), v);
				bad = true;
			}
			if (key_is(k, klen, "total"))
				got_total = true;
			else if (key_is(k, klen, "avg10")) {
				avg10 = tmp;
				got_avg10 = true;
			}
			if (p < le && *p != ' ')
				return text_fail(cx->err, cx->errlen, name, c.line,
						 "unexpected text after a value");
		}
		if (!got_avg10 || !got_total)
			return text_fail(cx->err, cx->errlen, name, c.line,
					 "no avg10= or total= in this line");
		if (is_some) {
			s->psi_io_some_avg10 = avg10;
			s->psi_io_some_total_us = total;
			some = true;
		} else {
			s->psi_io_full_avg10 = avg10;
			s->psi_io_full_total_us = total;
			full = true;
		}
	}
	if (rc < 0)
		return cursor_fail(rc, cx->err, cx->errlen, name, c.line);
	/* io has printed both lines since PSI appeared (4.20): one missing
	 * means the copy is damaged. */
	if (!some || !full)
		return text_fail(cx->err, cx->errlen, name, 0,
				 "no '%s' line; copy /proc/pressure/io again whole",
				 some ? "full" : "some");
	if (!bad)
		s->have |= SNAP_HAVE_PSI_IO;
	return 0;
}

/* --- a whole snapshot -------------------------------------------------- */

/* This machine's page size in KiB (asked once: sysconf is not free, and
 * this is on every sample's path). */
static unsigned host_page_kb(void)
{
	static _Atomic unsigned kb;
	unsigned v = kb;

	if (!v) {
		long host = sysconf(_SC_PAGESIZE);
		kb = v = host >= 1024 ? (unsigned)(host / 1024) : 4;
	}
	return v;
}

static unsigned page_kb_guess(const struct parse_ctx *cx)
{
	unsigned host_kb = host_page_kb();
	unsigned best = host_kb;
	double ratio, best_dist = 1e300;

	/* meminfo Dirty is vmstat nr_dirty (the same NR_FILE_DIRTY counter)
	 * in KiB, read within a few µs of it: their ratio is the page size of
	 * the box the texts came from.  (MemFree is not nr_free_pages * 4 on
	 * 6.18: the fixtures' kernel shows 19276292 kB against 2963772.) */
	if (!(cx->s->have & SNAP_HAVE_VMSTAT) || !(cx->s->have & SNAP_HAVE_MEMINFO) ||
	    cx->s->nr_dirty < 256)
		return host_kb;
	ratio = (double)cx->s->dirty_kb / (double)cx->s->nr_dirty;
	for (unsigned kb = 4; kb <= 256; kb *= 2) {
		double d = ratio > kb ? ratio / kb : kb / ratio;
		if (d < best_dist) {
			best_dist = d;
			best = kb;
		}
	}
	return best_dist < 1.5 ? best : host_kb;
}

int probe_parse_texts(const struct probe_texts *t, unsigned required,
		      struct snapshot *s, char *err, size_t errlen)
{
	struct parse_ctx cx = { .s = s, .err = err, .errlen = errlen };
	uint64_t mono = s->mono_ns;
	int64_t real = s->realtime_ns;
	unsigned knobs = 0;
	int rc = 0;

	/* the devices' storage is kept (only [0, ndisks) is ever read):
	 * zeroing or freeing it each read would cost what a read costs */
	memset(s, 0, offsetof(struct snapshot, ndisks));
	s->ndisks = 0;
	s->mono_ns = mono;
	s->realtime_ns = real;
	for (int i = 0; i < PROBE_TEXT_COUNT; i++) {
		const char *name = t->name[i] ? t->name[i] : probe_text_relpath(i);
		unsigned line0 = t->line0[i] ? t->line0[i] : 1;

		if (!t->buf[i]) {
			if (required & (1u << i))
				return text_fail(err, errlen, name, 0,
						 "missing; give a directory laid out like /proc "
						 "(vmstat, meminfo, diskstats, sys/vm/dirty_*) "
						 "or a recorded trace");
			continue;
		}
		switch (i) {
		case PROBE_TEXT_VMSTAT:
			rc = parse_vmstat(&cx, t->buf[i], t->len[i], name, line0);
			break;
		case PROBE_TEXT_MEMINFO:
			rc = parse_meminfo(&cx, t->buf[i], t->len[i], name, line0);
			break;
		case PROBE_TEXT_DISKSTATS:
			rc = parse_diskstats(&cx, t->buf[i], t->len[i], name, line0);
			break;
		case PROBE_TEXT_PSI_IO:
			rc = parse_psi(&cx, t->buf[i], t->len[i], name, line0);
			break;
		default:
			rc = parse_knob(&cx, i, t->buf[i], t->len[i], name, line0);
			if (rc == 0)
				knobs++;
			else if (rc > 0)
				rc = 0;   /* out of range: n/a, noted */
			break;
		}
		if (rc < 0)
			return rc;
	}
	if (knobs == 6)
		s->have |= SNAP_HAVE_KNOBS;
	s->page_kb = page_kb_guess(&cx);
	return 0;
}

/* --- recorded trace samples ---------------------------------------------- */

static int text_of_path(const char *p, size_t n)
{
	static const char prefix[] = "/proc/";

	if (n <= sizeof(prefix) - 1 || memcmp(p, prefix, sizeof(prefix) - 1) != 0)
		return -1;
	p += sizeof(prefix) - 1;
	n -= sizeof(prefix) - 1;
	for (int i = 0; i < PROBE_TEXT_COUNT; i++)
		if (key_is(p, n, text_relpath[i]))
			return i;
	return -1;
}

/* "# sample=N t_rel=S mono=S realtime=S" */
static int parse_trace_header(const char *ls, const char *le, const char *name,
			      struct snapshot *s, long *sample_no, char *err, size_t errlen)
{
	const char *p = ls;
	bool got_sample = false, got_mono = false, got_real = false;

	if (le - p < 2 || p[0] != '#' || p[1] != ' ')
		goto bad;
	p += 2;
	while ((p = skip_blank(p, le)) < le) {
		const char *k = p;
		uint64_t v;
		size_t klen;

		while (p < le && *p != '=' && *p != ' ')
			p++;
		if (p >= le || *p != '=')
			goto bad;
		klen = (size_t)(p - k);
		p++;
		if (key_is(k, klen, "sample")) {
			if (!parse_u64(&p, le, &v) || v > 999999999)
				goto bad;
			*sample_no = (long)v;
			got_sample = true;
		} else if (key_is(k, klen, "mono")) {
			if (!parse_sec_ns(&p, le, &v))
				goto bad;
			s->mono_ns = v;
			got_mono = true;
		} else if (key_is(k, klen, "realtime")) {
			if (!parse_sec_ns(&p, le, &v) || v > INT64_MAX)
				goto bad;
			s->realtime_ns = (int64_t)v;
			got_real = true;
		} else {
			while (p < le && *p != ' ')
				p++;
		}
		if (p < le && *p != ' ')
			goto bad;
	}
	if (got_sample && got_mono && got_real)
		return 0;
bad:
	return text_fail(err, errlen, name, 1,
			 "expected '# sample=N t_rel=SEC mono=SEC realtime=SEC' "
			 "(a sample of a recorded trace; see fixtures/README.md)");
}

int probe_parse_trace_sample(const char *buf, size_t len, const char *name,
			     struct snapshot *s, long *sample_no,
			     char *err, size_t errlen)
{
	struct probe_texts t;
	struct text_cursor c = { buf, buf + len, 0 };
	const char *ls, *le;
	int cur = -1, rc;
	unsigned required = 0;
	long no = -1;

	memset(&t, 0, sizeof(t));
	if (len == 0)
		return text_fail(err, errlen, name, 0,
				 "empty sample file; the trace was cut short: "
				 "drop this line from index.tsv or record again");
	rc = cursor_next(&c, &ls, &le);
	if (rc < 0)
		return cursor_fail(rc, err, errlen, name, c.line);
	rc = parse_trace_header(ls, le, name, s, &no, err, errlen);
	if (rc < 0)
		return rc;
	while ((rc = cursor_next(&c, &ls, &le)) == 1) {
		size_t n = (size_t)(le - ls);

		if (n >= 8 && memcmp(ls, "==> ", 4) == 0 && memcmp(le - 4, " <==", 4) == 0) {
			if (cur >= 0)
				t.len[cur] = (size_t)(ls - t.buf[cur]);
			cur = text_of_path(ls + 4, n - 8);
			if (cur < 0)
				continue;       /* a source this version does not read */
			if (t.buf[cur])
				return text_fail(err, errlen, name, c.line,
						 "second '==> %.*s <==' section; "
						 "a sample holds each source once",
						 (int)(n - 8), ls + 4);
			t.buf[cur] = le + 1;
			t.name[cur] = name;
			t.line0[cur] = c.line + 1;
			continue;
		}
		if (cur < 0 && t.buf[0] == NULL && c.line == 2)
			return text_fail(err, errlen, name, c.line,
					 "expected a '==> /proc/... <==' section header");
	}
	if (rc < 0)
		return cursor_fail(rc, err, errlen, name, c.line);
	if (cur >= 0)
		t.len[cur] = (size_t)(buf + len - t.buf[cur]);
	for (int i = 0; i < PROBE_TEXT_COUNT; i++)
		if (i != PROBE_TEXT_PSI_IO)
			required |= 1u << i;
	for (int i = 0; i < PROBE_TEXT_COUNT; i++) {
		if ((required & (1u << i)) && !t.buf[i])
			return text_fail(err, errlen, name, 0,
					 "no '==> /proc/%s <==' section: the sample was cut "
					 "short; drop it from index.tsv or record again",
					 text_relpath[i]);
	}
	rc = probe_parse_texts(&t, required, s, err, errlen);
	if (rc < 0)
		return rc;
	*sample_no = no;
	return 0;
}
