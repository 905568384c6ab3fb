/* probe: the three ways a snapshot is read.
 *
 *   live   libproc2 for vmstat, meminfo and the disks (its _select/_reap
 *          re-read every call; _get caches for a second).  The disks'
 *          counters come from our own pread of /proc/diskstats, which must
 *          be read every sample anyway (libproc2 4.0 stops at field 11:
 *          discards and flushes are 12..17), so that all 17 are of one
 *          read; libproc2's reap gives each device's type (disk or
 *          partition) and is kept between its reads.  pread of the
 *          dirty_* knobs and /proc/pressure/io on fds kept open.
 *          vmstat and our diskstats every read; meminfo, the knobs, PSI
 *          and libproc2's disk list change slowly and are read at most
 *          every slow_period (the sampler: 1 s), at once when vmstat's
 *          dirty thresholds moved by 1 % since (a knob change moves them:
 *          a knob changed by hand is seen at the sample it took effect),
 *          and the disk list at once when a device it lacks appears.
 *   dir    --proc-root laid out like /proc: every file opened and read.
 *   trace  --proc-root holding index.tsv + samples/NNNNN.txt: one recorded
 *          sample per read, with its recorded times.
 *   host   --host: another machine's pmcd through libpcp (pcp.c).
 *
 * All text goes through probe_text.c, so live and file readers cannot
 * disagree on a format. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libproc2/diskstats.h>
#include <libproc2/meminfo.h>
#include <libproc2/vmstat.h>

#include "iodash/probe/probe.h"
#include "iodash/base/namemap.h"
#include "iodash/base/util.h"
#include "pcp.h"

/* Bounds on what one file may hold: a real sample is ~8 KiB, a /proc/vmstat
 * ~5 KiB; the caps only keep a hostile input from taking all memory. */
#define PROBE_MAX_TEXT   (4u << 20)
#define PROBE_MAX_INDEX  (64u << 20)
#define PROBE_HINT_LAYOUT \
	"give --proc-root a directory laid out like /proc (vmstat, meminfo, " \
	"diskstats, sys/vm/dirty_*) or a recorded trace (index.tsv + samples/)"

struct text_buf {
	char *p;
	size_t len, cap;
};

struct trace_row {
	long sample;
	uint64_t t_rel_ns;
	unsigned line;           /* in index.tsv, for messages */
	char *file;              /* points into probe.index (NUL-terminated there) */
};

struct probe {
	enum probe_kind kind;
	struct text_buf tb[PROBE_TEXT_COUNT];

	/* live */
	struct vmstat_info *vm;
	struct meminfo_info *mi;
	struct diskstats_info *ds;
	int fd[PROBE_TEXT_COUNT];
	bool text_ok[PROBE_TEXT_COUNT];   /* tb[] holds the file's last read */
	unsigned page_kb;
	uint64_t slow_period_ns;          /* 0: every source every read */
	uint64_t slow_read_ns;            /* when the slow sources were read; 0 never */
	uint64_t slow_thresh[2];          /* vmstat's dirty thresholds then */
	int i_thresh, i_bg_thresh;        /* their places in vm_items */
	uint64_t mi_last[SNAP_MEMINFO_NITEMS];  /* meminfo's items then */
	struct diskstats_reaped *disks_last;    /* libproc2's last disk list (its stacks) */
	int disks_last_n;                       /* our read's devices when it was read */
	struct namemap disk_type;               /* its devices by name: 1 a partition, 0 not */

	/* dir and trace */
	char *root;
	int rootfd;
	char *name[PROBE_TEXT_COUNT];     /* ROOT/relpath, for messages */

	/* trace */
	char *index;
	struct trace_row *rows;
	size_t nrows, next;
	char *sample_name;
	size_t sample_name_cap;

	/* host */
	struct probe_pcp *pcp;
};

/* The items of snapshot.h's tables, in their order: read back by it. */
#define SNAP_ITEM_ENUM(field, key, item, req) item,
static enum vmstat_item vm_items[] = { SNAP_VMSTAT_ITEMS(SNAP_ITEM_ENUM) };
enum { VM_N = sizeof(vm_items) / sizeof(vm_items[0]) };

static enum meminfo_item mi_items[] = { SNAP_MEMINFO_ITEMS(SNAP_ITEM_ENUM) };
enum { MI_N = sizeof(mi_items) / sizeof(mi_items[0]) };
#undef SNAP_ITEM_ENUM
_Static_assert(MI_N == SNAP_MEMINFO_NITEMS, "one meminfo item list");

/* vm_items' index of an item (the thresholds, looked at before the rest
 * of the snapshot is filled). */
static int vm_index(enum vmstat_item item)
{
	for (int i = 0; i < VM_N; i++)
		if (vm_items[i] == item)
			return i;
	return -1;
}

/* What libproc2's disk list gives us: the device's name and type. */
static enum diskstats_item ds_items[] = { DISKSTATS_NAME, DISKSTATS_TYPE };
enum { DS_N = sizeof(ds_items) / sizeof(ds_items[0]) };

__attribute__((format(printf, 3, 4)))
static void probe_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static char *str_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 2);

	if (!s)
		return NULL;
	memcpy(s, a, la);
	s[la] = '/';
	memcpy(s + la + 1, b, lb + 1);
	return s;
}

/* Whole file from offset 0 into b; pread so a kept-open /proc fd re-reads.
 * 0, or -errno (-EFBIG past PROBE_MAX_TEXT or `max`). */
static int buf_read_fd(struct text_buf *b, int fd, size_t max)
{
	b->len = 0;
	for (;;) {
		ssize_t n;

		if (b->cap - b->len < 4096) {
			size_t ncap = b->cap ? b->cap * 2 : 16384;
			char *np;
			if (b->cap >= max)
				return -EFBIG;
			if (ncap > max)
				ncap = max;
			np = realloc(b->p, ncap);
			if (!np)
				return -ENOMEM;
			b->p = np;
			b->cap = ncap;
		}
		size_t want = b->cap - b->len;
		n = pread(fd, b->p + b->len, want, (off_t)b->len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return 0;
		/* a short read is not the end: a procfs seq_file gives about a
		 * page a read (/proc/diskstats of 1,026 devices: 4,043 of its
		 * 56,560 bytes, 72 devices), so only a read of 0 ends the file */
		b->len += (size_t)n;
	}
}

static int buf_read_at(struct text_buf *b, int dirfd, const char *rel, size_t max)
{
	int fd = openat(dirfd, rel, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	int rc;

	if (fd < 0)
		return -errno;
	/* A fifo or device named like a /proc file would block or never end. */
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	rc = buf_read_fd(b, fd, max);
	close(fd);
	return rc;
}

static const char *read_errstr(int rc)
{
	if (rc == -EFBIG)
		return "larger than 4 MiB: not a /proc file nor a recorded sample";
	if (rc == -EINVAL)
		return "not a regular file";
	return strerror(-rc);
}

static void probe_stamp(struct snapshot *s)
{
	struct timespec r;

	s->mono_ns = util_mono_ns();
	clock_gettime(CLOCK_REALTIME, &r);
	s->realtime_ns = (int64_t)r.tv_sec * 1000000000ll + r.tv_nsec;
}

const struct snap_disk *snapshot_find_disk(const struct snapshot *s, const char *name)
{
	if (!s || !name)
		return NULL;
	for (int i = 0; i < s->ndisks; i++)
		if (strcmp(s->disks[i].name, name) == 0)
			return &s->disks[i];
	return NULL;
}

static struct probe *probe_alloc(enum probe_kind kind)
{
	struct probe *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->kind = kind;
	p->rootfd = -1;
	for (int i = 0; i < PROBE_TEXT_COUNT; i++)
		p->fd[i] = -1;
	return p;
}

void probe_close(struct probe *p)
{
	if (!p)
		return;
	if (p->vm)
		procps_vmstat_unref(&p->vm);
	if (p->mi)
		procps_meminfo_unref(&p->mi);
	if (p->ds)
		procps_diskstats_unref(&p->ds);
	namemap_free(&p->disk_type);
	for (int i = 0; i < PROBE_TEXT_COUNT; i++) {
		if (p->fd[i] >= 0)
			close(p->fd[i]);
		free(p->tb[i].p);
		free(p->name[i]);
	}
	if (p->rootfd >= 0)
		close(p->rootfd);
	free(p->root);
	free(p->index);
	free(p->rows);
	free(p->sample_name);
	probe_pcp_close(p->pcp);
	free(p);
}

enum probe_kind probe_kind(const struct probe *p)
{
	return p->kind;
}

/* --- live ---------------------------------------------------------------- */

int probe_open_live(struct probe **out, char *err, size_t errlen)
{
	struct probe *p = probe_alloc(PROBE_LIVE);
	long pg = sysconf(_SC_PAGESIZE);
	int rc;

	*out = NULL;
	if (!p) {
		probe_errf(err, errlen, "probe: out of memory");
		return -ENOMEM;
	}
	p->page_kb = pg >= 1024 ? (unsigned)(pg / 1024) : 4;
	p->i_thresh = vm_index(VMSTAT_NR_DIRTY_THRESHOLD);
	p->i_bg_thresh = vm_index(VMSTAT_NR_DIRTY_BACKGROUND_THRESHOLD);
	if ((rc = procps_vmstat_new(&p->vm)) < 0) {
		probe_errf(err, errlen, "/proc/vmstat: libproc2 cannot read it (%s); is /proc mounted?",
			   strerror(-rc));
		goto fail;
	}
	if ((rc = procps_meminfo_new(&p->mi)) < 0) {
		probe_errf(err, errlen, "/proc/meminfo: libproc2 cannot read it (%s); is /proc mounted?",
			   strerror(-rc));
		goto fail;
	}
	/* -ERANGE: a line of fewer than 11 counters (an old kernel's
	 * partition line) makes libproc2 refuse the whole file; our own
	 * reader takes such files whole, so that is no failure (see
	 * probe_reap_disks). */
	if ((rc = procps_diskstats_new(&p->ds)) < 0 && rc != -ERANGE) {
		probe_errf(err, errlen, "/proc/diskstats: libproc2 cannot read it (%s); is /proc mounted?",
			   strerror(-rc));
		goto fail;
	}
	if (rc < 0)
		p->ds = NULL;
	for (int i = PROBE_TEXT_DISKSTATS; i < PROBE_TEXT_COUNT; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%s", probe_text_relpath(i));
		p->fd[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (p->fd[i] < 0) {
			rc = -errno;
			/* PSI is optional: absent (before 4.20) or psi=0. */
			if (i == PROBE_TEXT_PSI_IO)
				continue;
			probe_errf(err, errlen, "%s: %s; is /proc mounted?", path, strerror(-rc));
			goto fail;
		}
	}
	*out = p;
	return 0;
fail:
	probe_close(p);
	return rc;
}

/* libproc2's diskstats reap, or *dr NULL where it refuses the file for a
 * line of fewer than 11 counters (ERANGE): then our own read of the same
 * file stands for every device, and the handle, which stays refused once
 * it refused, is made again at the next read. */
static int probe_reap_disks(struct probe *p, struct diskstats_reaped **dr)
{
	*dr = NULL;
	if (!p->ds && procps_diskstats_new(&p->ds) < 0) {
		p->ds = NULL;
		return 0;
	}
	errno = 0;
	*dr = procps_diskstats_reap(p->ds, ds_items, DS_N);
	if (*dr)
		return 0;
	if (errno == ERANGE) {
		procps_diskstats_unref(&p->ds);
		p->ds = NULL;
		return 0;
	}
	return errno ? -errno : -EIO;
}

/* libproc2's type of each device of our read (a line our reader found
 * odd keeps what it made of it).  A device's type does not change, so its
 * list is read again only when our read lists another number of devices
 * (one added or removed), or, at most once a slow period (`due`), when a
 * device of ours is not in it (one replaced by another); a device it
 * still lists after it vanished is not in our read, so never shown. */
static int probe_map_disk_types(struct probe *p)
{
	struct diskstats_reaped *dr = p->disks_last;

	namemap_clear(&p->disk_type);
	for (int k = 0; dr && k < dr->total; k++) {
		int part = DISKSTATS_VAL(1, s_int, dr->stacks[k], p->ds) == DISKSTATS_TYPE_PARTITION;
		if (namemap_put(&p->disk_type, DISKSTATS_VAL(0, str, dr->stacks[k], p->ds), part))
			return -ENOMEM;
	}
	return 0;
}

/* A device of our read that libproc2's last list lacks. */
static bool probe_disk_list_lacks(const struct probe *p, const struct snapshot *s)
{
	for (int i = 0; i < s->ndisks; i++)
		if (namemap_get(&p->disk_type, s->disks[i].name) < 0)
			return true;
	return false;
}

/* Each device's type by name through a map made when libproc2's list is
 * read: a hash a device, not a walk of the list (1,024 devices were a
 * million compares a sample). */
static int probe_disk_types(struct probe *p, struct snapshot *s, bool due)
{
	int rc;

	if (!p->disks_last || s->ndisks != p->disks_last_n || (due && probe_disk_list_lacks(p, s))) {
		if ((rc = probe_reap_disks(p, &p->disks_last)) < 0)
			return rc;
		p->disks_last_n = s->ndisks;
		if ((rc = probe_map_disk_types(p)) < 0)
			return rc;
	}
	if (!p->disks_last)
		return 0;               /* refused (ERANGE): our reader stands */
	for (int i = 0; i < s->ndisks; i++) {
		struct snap_disk *d = &s->disks[i];
		int part = namemap_get(&p->disk_type, d->name);

		if (part >= 0 && d->nfields >= 11)
			d->is_partition = part == 1;
	}
	return 0;
}

void probe_set_slow_period(struct probe *p, double seconds)
{
	p->slow_period_ns = seconds > 0 ? (uint64_t)(seconds * 1e9) : 0;
}

/* Whether the slow sources are due at mono time now: their period is
 * over, or a dirty threshold moved by 1 % since they were read (memory
 * use moves them by 0.01-0.3 % a second; a knob change by whole percents). */
static bool probe_slow_due(const struct probe *p, uint64_t now, const uint64_t thresh[2])
{
	if (!p->slow_period_ns || !p->slow_read_ns || now - p->slow_read_ns + 1000000u >= p->slow_period_ns)
		return true;
	for (int i = 0; i < 2; i++) {
		uint64_t a = p->slow_thresh[i], b = thresh[i], d = a > b ? a - b : b - a;
		if (d * 100 >= (a > b ? a : b) && d)
			return true;
	}
	return false;
}

static int probe_read_live(struct probe *p, struct snapshot *s, char *err, size_t errlen)
{
	struct vmstat_stack *vs;
	struct meminfo_stack *ms = NULL;
	struct probe_texts t;
	uint64_t mono, thresh[2];
	int64_t real;
	int rc;

	vs = procps_vmstat_select(p->vm, vm_items, VM_N);
	if (!vs) {
		probe_errf(err, errlen, "/proc/vmstat: libproc2 read failed (%s)", strerror(errno));
		return errno ? -errno : -EIO;
	}
	thresh[0] = VMSTAT_VAL(p->i_thresh, ul_int, vs, p->vm);
	thresh[1] = VMSTAT_VAL(p->i_bg_thresh, ul_int, vs, p->vm);
	bool slow = probe_slow_due(p, util_mono_ns(), thresh);
	if (slow) {
		ms = procps_meminfo_select(p->mi, mi_items, MI_N);
		if (!ms) {
			probe_errf(err, errlen, "/proc/meminfo: libproc2 read failed (%s)", strerror(errno));
			return errno ? -errno : -EIO;
		}
	}
	/* The time of the sample is the time of its disk counters: rates
	 * divide by it, and a busy box can delay this thread between a
	 * stamp taken first and the diskstats reads by milliseconds, 1 % of
	 * a second's rate.  vmstat and meminfo above are levels. */
	probe_stamp(s);
	mono = s->mono_ns;
	real = s->realtime_ns;

	memset(&t, 0, sizeof(t));
	for (int i = PROBE_TEXT_DISKSTATS; i < PROBE_TEXT_COUNT; i++) {
		if (p->fd[i] < 0)
			continue;
		if (i == PROBE_TEXT_DISKSTATS || slow) {
			rc = buf_read_fd(&p->tb[i], p->fd[i], PROBE_MAX_TEXT);
			p->text_ok[i] = rc >= 0;
			if (rc < 0) {
				if (i == PROBE_TEXT_PSI_IO)
					continue;       /* psi=0 on the command line: EOPNOTSUPP */
				probe_errf(err, errlen, "/proc/%s: %s", probe_text_relpath(i), read_errstr(rc));
				return rc;
			}
		}
		if (!p->text_ok[i])
			continue;
		t.buf[i] = p->tb[i].p;         /* read now, or the slow read's */
		t.len[i] = p->tb[i].len;
		t.name[i] = NULL;
	}
	s->mono_ns = mono;
	s->realtime_ns = real;
	rc = probe_parse_texts(&t, 0, s, err, errlen);
	if (rc < 0)
		return rc;
	s->page_kb = p->page_kb;

	bool vm_ok = true;
	for (int i = 0; i < VM_N; i++) {
		uint64_t v = VMSTAT_VAL(i, ul_int, vs, p->vm);
		*(uint64_t *)((char *)s + snap_vmstat_items[i].off) = v;
		if (v > SNAP_PAGES_MAX && vm_ok) {
			/* as the text reader: out of range is n/a, said */
			if (!s->note[0])
				snprintf(s->note, sizeof(s->note), "/proc/vmstat: %s %llu is more pages than any memory (out of range): the dirty figures are n/a",
					 snap_vmstat_items[i].key, (unsigned long long)v);
			vm_ok = false;
		}
	}
	if (vm_ok)
		s->have |= SNAP_HAVE_VMSTAT;

	if (slow) {
		for (int i = 0; i < MI_N; i++)
			p->mi_last[i] = MEMINFO_VAL(i, ul_int, ms, p->mi);
		p->slow_read_ns = mono;
		p->slow_thresh[0] = thresh[0];
		p->slow_thresh[1] = thresh[1];
	}
	for (int i = 0; i < MI_N; i++)
		*(uint64_t *)((char *)s + snap_meminfo_items[i].off) = p->mi_last[i];
	s->have |= SNAP_HAVE_MEMINFO | (slow ? 0 : SNAP_MEMINFO_CARRIED);

	if ((rc = probe_disk_types(p, s, slow)) < 0) {
		probe_errf(err, errlen, "/proc/diskstats: libproc2 read failed (%s)", strerror(-rc));
		return rc;
	}
	return 0;
}

/* --- dir laid out like /proc --------------------------------------------- */

static int probe_read_dir(struct probe *p, struct snapshot *s, char *err, size_t errlen)
{
	struct probe_texts t;
	unsigned required = 0;

	memset(&t, 0, sizeof(t));
	probe_stamp(s);
	for (int i = 0; i < PROBE_TEXT_COUNT; i++) {
		int rc = buf_read_at(&p->tb[i], p->rootfd, probe_text_relpath(i), PROBE_MAX_TEXT);

		if (i != PROBE_TEXT_PSI_IO)
			required |= 1u << i;
		if (rc < 0) {
			if (i == PROBE_TEXT_PSI_IO)
				continue;       /* absent before 4.20 or with psi=0 */
			probe_errf(err, errlen, "%s: %s; " PROBE_HINT_LAYOUT,
				   p->name[i], read_errstr(rc));
			return rc;
		}
		t.buf[i] = p->tb[i].p;
		t.len[i] = p->tb[i].len;
		t.name[i] = p->name[i];
	}
	return probe_parse_texts(&t, required, s, err, errlen);
}

/* --- recorded trace ------------------------------------------------------- */

static bool rel_path_ok(const char *f)
{
	if (!*f || *f == '/' || strlen(f) > 255)
		return false;
	for (const char *c = f; *c; c++)
		if ((unsigned char)*c < ' ')
			return false;
	/* Stay inside the trace directory. */
	for (const char *c = f; (c = strstr(c, "..")); c += 2)
		if ((c == f || c[-1] == '/') && (c[2] == '/' || c[2] == '\0'))
			return false;
	return true;
}

/* Non-negative "SEC[.FRAC]" to ns; the whole field must be consumed. */
static bool field_sec_ns(const char *f, uint64_t *out)
{
	uint64_t sec = 0, frac = 0;
	int nd = 0;
	const char *c = f;

	if (*c < '0' || *c > '9')
		return false;
	while (*c >= '0' && *c <= '9') {
		if (sec > 10000000000000ull)
			return false;
		sec = sec * 10 + (uint64_t)(*c++ - '0');
	}
	if (*c == '.') {
		c++;
		while (*c >= '0' && *c <= '9') {
			if (nd < 9) {
				frac = frac * 10 + (uint64_t)(*c - '0');
				nd++;
			}
			c++;
		}
	}
	if (*c)
		return false;
	while (nd++ < 9)
		frac *= 10;
	*out = sec * 1000000000ull + frac;
	return true;
}

static int trace_index_fail(char *err, size_t errlen, const struct probe *p, unsigned line,
			    const char *why)
{
	probe_errf(err, errlen, "%s/index.tsv:%u: %s", p->root, line, why);
	return -EINVAL;
}

/* index.tsv read whole into p->index (freed with the probe), refused
 * when empty, binary or cut short. */
static int trace_index_read(struct probe *p, struct text_buf *b, char *err, size_t errlen)
{
	int rc = buf_read_at(b, p->rootfd, "index.tsv", PROBE_MAX_INDEX);

	if (rc < 0) {
		free(b->p);
		if (rc == -EFBIG)
			probe_errf(err, errlen, "%s/index.tsv: larger than %u MiB; replay a shorter "
				   "trace (split it into several directories)", p->root,
				   PROBE_MAX_INDEX >> 20);
		else
			probe_errf(err, errlen, "%s/index.tsv: %s; a trace directory needs index.tsv "
				   "(sample, t_rel_s, realtime_epoch, file) and samples/",
				   p->root, read_errstr(rc));
		return rc;
	}
	p->index = b->p;
	if (b->len == 0) {
		probe_errf(err, errlen, "%s/index.tsv: empty; the recording stopped before its "
			   "first sample: record the trace again", p->root);
		return -EINVAL;
	}
	if (memchr(b->p, '\0', b->len))
		return trace_index_fail(err, errlen, p, 1, "binary data (NUL byte); "
					"is this the index.tsv of a recorded trace?");
	if (b->p[b->len - 1] != '\n') {
		unsigned last = 1;
		for (size_t i = 0; i < b->len; i++)
			last += b->p[i] == '\n';
		return trace_index_fail(err, errlen, p, last, "last line has no newline: the "
					"index was cut short; drop that line or record again");
	}
	return 0;
}

/* A row's sample number: digits only, at most 999999999. */
static bool trace_index_sample(const char *f, long *out)
{
	long n = 0;

	for (const char *d = f; ; d++) {
		if (*d < '0' || *d > '9' || n > 99999999) {
			if (*d || d == f || n > 999999999)
				return false;
			break;
		}
		n = n * 10 + (*d - '0');
	}
	*out = n;
	return true;
}

/* Row line (NUL-terminated at c, split in place) into p->rows[p->nrows],
 * checked against the row before it and the file it names. */
static int trace_index_row(struct probe *p, char *c, unsigned line, char *err, size_t errlen)
{
	char *f[4], *q = c;
	struct trace_row *r = &p->rows[p->nrows];
	uint64_t v;
	long sample;
	int nf = 0;

	while (nf < 4) {
		f[nf++] = q;
		q = strchr(q, '\t');
		if (!q)
			break;
		*q++ = '\0';
	}
	if (nf != 4 || q)
		return trace_index_fail(err, errlen, p, line, "expected 4 TAB-separated fields "
					"(sample, t_rel_s, realtime_epoch, file)");
	if (!trace_index_sample(f[0], &sample))
		return trace_index_fail(err, errlen, p, line, "sample is not a whole number");
	r->sample = sample;
	if (!field_sec_ns(f[1], &r->t_rel_ns))
		return trace_index_fail(err, errlen, p, line, "t_rel_s is not a number of seconds");
	if (!field_sec_ns(f[2], &v))
		return trace_index_fail(err, errlen, p, line, "realtime_epoch is not a number of seconds");
	if (!rel_path_ok(f[3]))
		return trace_index_fail(err, errlen, p, line, "file must be a path inside the "
					"trace directory, like samples/00012.txt");
	if (p->nrows > 0) {
		const struct trace_row *pr = &p->rows[p->nrows - 1];
		if (r->sample <= pr->sample)
			return trace_index_fail(err, errlen, p, line, "sample numbers must increase; "
						"was the index edited by hand?");
		if (r->t_rel_ns < pr->t_rel_ns)
			return trace_index_fail(err, errlen, p, line, "t_rel_s goes backwards; "
						"was the index edited by hand?");
	}
	if (faccessat(p->rootfd, f[3], R_OK, 0) != 0) {
		char why[400];
		snprintf(why, sizeof(why), "%.255s: %s; the trace is incomplete: drop this line "
			 "from index.tsv or record again", f[3], strerror(errno));
		return trace_index_fail(err, errlen, p, line, why);
	}
	r->file = f[3];
	r->line = line;
	p->nrows++;
	return 0;
}

/* index.tsv: a header "sample t_rel_s realtime_epoch file", then one row
 * per sample, TAB-separated; rows are split in place. */
static int trace_load_index(struct probe *p, char *err, size_t errlen)
{
	static const char header[] = "sample\tt_rel_s\trealtime_epoch\tfile";
	struct text_buf b = { 0 };
	size_t nlines = 0;
	unsigned line = 1;
	char *c, *end, *nl;
	int rc;

	if ((rc = trace_index_read(p, &b, err, errlen)))
		return rc;
	b.p[b.len - 1] = '\0';
	end = b.p + b.len - 1;
	for (c = b.p; c < end; c++)
		nlines += *c == '\n';
	p->rows = calloc(nlines + 1, sizeof(*p->rows));
	if (!p->rows) {
		probe_errf(err, errlen, "%s/index.tsv: out of memory for %zu rows", p->root, nlines);
		return -ENOMEM;
	}
	c = b.p;
	nl = strchr(c, '\n');
	if (nl)
		*nl = '\0';
	if (strcmp(c, header) != 0)
		return trace_index_fail(err, errlen, p, 1, "expected the header 'sample<TAB>"
					"t_rel_s<TAB>realtime_epoch<TAB>file'; is this the "
					"index.tsv of a recorded trace?");
	for (c = nl ? nl + 1 : end; c < end; c = nl ? nl + 1 : end) {
		nl = strchr(c, '\n');
		if (nl)
			*nl = '\0';
		if ((rc = trace_index_row(p, c, ++line, err, errlen)))
			return rc;
	}
	if (p->nrows == 0) {
		probe_errf(err, errlen, "%s/index.tsv: no samples, only the header; the recording "
			   "stopped before its first sample: record the trace again", p->root);
		return -EINVAL;
	}
	return 0;
}

static int probe_read_trace(struct probe *p, struct snapshot *s, char *err, size_t errlen)
{
	const struct trace_row *r;
	struct text_buf *b = &p->tb[0];
	size_t need;
	long no = -1;
	int rc;

	if (p->next >= p->nrows) {
		probe_errf(err, errlen, "%s: end of the trace (%zu samples)", p->root, p->nrows);
		return -ENODATA;
	}
	r = &p->rows[p->next];
	need = strlen(p->root) + strlen(r->file) + 2;
	if (need > p->sample_name_cap) {
		char *n = realloc(p->sample_name, need);
		if (!n) {
			probe_errf(err, errlen, "%s: out of memory", p->root);
			return -ENOMEM;
		}
		p->sample_name = n;
		p->sample_name_cap = need;
	}
	snprintf(p->sample_name, need, "%s/%s", p->root, r->file);
	rc = buf_read_at(b, p->rootfd, r->file, PROBE_MAX_TEXT);
	if (rc < 0) {
		probe_errf(err, errlen, "%s: %s (named by %s/index.tsv:%u); drop that line from "
			   "index.tsv or record again", p->sample_name, read_errstr(rc), p->root, r->line);
		return rc;
	}
	rc = probe_parse_trace_sample(b->p, b->len, p->sample_name, s, &no, err, errlen);
	if (rc < 0)
		return rc;
	if (no != r->sample) {
		probe_errf(err, errlen, "%s:1: says sample=%ld but %s/index.tsv:%u says %ld; "
			   "the index does not belong to these samples", p->sample_name, no,
			   p->root, r->line, r->sample);
		return -EINVAL;
	}
	p->next++;
	return 0;
}

double probe_trace_next_offset(const struct probe *p)
{
	if (p && p->kind == PROBE_TRACE && p->pcp)
		return probe_pcp_next_offset(p->pcp);
	if (!p || p->kind != PROBE_TRACE || p->next >= p->nrows)
		return -1.0;
	return (double)(p->rows[p->next].t_rel_ns - p->rows[0].t_rel_ns) / 1e9;
}

/* --- open --root ----------------------------------------------------------- */

int probe_open_root(struct probe **out, const char *dir, char *err, size_t errlen)
{
	struct probe *p;
	struct stat st;
	int rc;

	*out = NULL;
	if (!dir || !*dir) {
		probe_errf(err, errlen, "--proc-root: empty path; " PROBE_HINT_LAYOUT);
		return -EINVAL;
	}
	if (stat(dir, &st) != 0 && !probe_pcp_is_archive(dir)) {
		rc = -errno;
		probe_errf(err, errlen, "%s: %s; " PROBE_HINT_LAYOUT, dir, strerror(-rc));
		return rc;
	}
	if (probe_pcp_is_archive(dir)) {
		/* a PCP archive: replayed like a recorded trace */
		if (!(p = probe_alloc(PROBE_TRACE))) {
			probe_errf(err, errlen, "%s: out of memory", dir);
			return -ENOMEM;
		}
		if ((rc = probe_pcp_open_archive(&p->pcp, dir, err, errlen)) < 0) {
			probe_close(p);
			return rc;
		}
		*out = p;
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		probe_errf(err, errlen, "%s: not a directory; " PROBE_HINT_LAYOUT, dir);
		return -ENOTDIR;
	}
	p = probe_alloc(PROBE_PROC_DIR);
	if (!p || !(p->root = strdup(dir))) {
		probe_close(p);
		probe_errf(err, errlen, "%s: out of memory", dir);
		return -ENOMEM;
	}
	/* "DIR/" and "DIR" name the same root; keep messages tidy. */
	for (size_t n = strlen(p->root); n > 1 && p->root[n - 1] == '/'; n--)
		p->root[n - 1] = '\0';
	p->rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (p->rootfd < 0) {
		rc = -errno;
		probe_errf(err, errlen, "%s: %s; " PROBE_HINT_LAYOUT, dir, strerror(-rc));
		goto fail;
	}
	for (int i = 0; i < PROBE_TEXT_COUNT; i++) {
		if (!(p->name[i] = str_join(p->root, probe_text_relpath(i)))) {
			rc = -ENOMEM;
			probe_errf(err, errlen, "%s: out of memory", dir);
			goto fail;
		}
	}
	if (faccessat(p->rootfd, "index.tsv", F_OK, 0) == 0 ||
	    faccessat(p->rootfd, "samples", F_OK, 0) == 0) {
		p->kind = PROBE_TRACE;
		rc = trace_load_index(p, err, errlen);
		if (rc < 0)
			goto fail;
	} else if (faccessat(p->rootfd, "vmstat", F_OK, 0) == 0) {
		/* Read once now so a broken root is reported at open. */
		struct snapshot *s = calloc(1, sizeof(*s));
		if (!s) {
			rc = -ENOMEM;
			probe_errf(err, errlen, "%s: out of memory", dir);
			goto fail;
		}
		rc = probe_read_dir(p, s, err, errlen);
		snapshot_free(s);
		free(s);
		if (rc < 0)
			goto fail;
	} else {
		rc = -ENOENT;
		probe_errf(err, errlen, "%s: neither a recorded trace (no index.tsv) nor laid out "
			   "like /proc (no vmstat); " PROBE_HINT_LAYOUT, p->root);
		goto fail;
	}
	*out = p;
	return 0;
fail:
	probe_close(p);
	return rc;
}

int probe_read(struct probe *p, struct snapshot *out, char *err, size_t errlen)
{
	switch (p->kind) {
	case PROBE_LIVE:
		return probe_read_live(p, out, err, errlen);
	case PROBE_PROC_DIR:
		return probe_read_dir(p, out, err, errlen);
	case PROBE_TRACE:
		if (p->pcp)
			return probe_pcp_read(p->pcp, out, err, errlen);
		return probe_read_trace(p, out, err, errlen);
	case PROBE_HOST:
		return probe_pcp_read(p->pcp, out, err, errlen);
	}
	probe_errf(err, errlen, "probe: unknown kind %d", (int)p->kind);
	return -EINVAL;
}

/* --- another machine's pmcd ---------------------------------------------- */

int probe_open_host(struct probe **out, const char *host, char *err, size_t errlen)
{
	struct probe *p = probe_alloc(PROBE_HOST);
	int rc;

	*out = NULL;
	if (!p) {
		probe_errf(err, errlen, "--host %s: out of memory", host);
		return -ENOMEM;
	}
	if ((rc = probe_pcp_open(&p->pcp, host, err, errlen)) < 0) {
		probe_close(p);
		return rc;
	}
	*out = p;
	return 0;
}

bool probe_is_pcp_archive(const char *path)
{
	return path && *path && probe_pcp_is_archive(path);
}

bool probe_is_iodash_archive(const char *path)
{
	return probe_is_pcp_archive(path) && probe_pcp_archive_by_iodash(path);
}

int probe_host_read_iodash(struct probe *p, struct probe_iodash *out)
{
	memset(out, 0, sizeof(*out));
	return p->kind == PROBE_HOST ? probe_pcp_read_iodash(p->pcp, out) : -EINVAL;
}

const char *probe_host_nodename(const struct probe *p)
{
	return p->pcp ? probe_pcp_nodename(p->pcp) : NULL;
}

const char *probe_host_release(const struct probe *p)
{
	return p->pcp ? probe_pcp_release(p->pcp) : NULL;
}
