/* knobs: /proc/sys keys written, read back, journaled and restored.
 * See include/iodash/probe/knobs.h for the contract. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include "iodash/base/fdio.h"
#include "iodash/base/util.h"
#include "iodash/probe/knobs.h"
#include "iodash/sample/snapshot.h"

#define JOURNAL_MAGIC "iodash-knobs-journal 1"
#define JOURNAL_DEFAULT "/var/lib/iodash/knobs.journal"

static char knobs_root[256] = "/proc/sys";

void knobs_set_root(const char *dir)
{
	snprintf(knobs_root, sizeof(knobs_root), "%s", dir ? dir : "/proc/sys");
}

/* ---- keys and values ---------------------------------------------------- */

int knobs_key_path(const char *key, char *path, size_t len)
{
	size_t n = strlen(key), off;

	if (!n || n >= KNOB_KEY_LEN || key[0] == '.' || key[0] == '/' || strstr(key, "..") ||
	    key[n - 1] == '.' || key[n - 1] == '/')
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)key[i]) && !strchr("._-/", key[i]))
			return -EINVAL;
	off = (size_t)snprintf(path, len, "%s/", knobs_root);
	if (off + n + 1 > len)
		return -ENAMETOOLONG;
	/* sysctl(8): dots are directories (a key holding a dot in a name,
	 * like a network interface "eth0.5", must be given with slashes) */
	for (size_t i = 0; i <= n; i++)
		path[off + i] = strchr(key, '/') ? key[i] : key[i] == '.' ? '/' : key[i];
	return 0;
}

int knobs_parse_spec(const char *spec, struct knob *out, char *err, size_t errlen)
{
	const char *eq = strchr(spec, '=');
	char path[512];
	size_t kl;

	memset(out, 0, sizeof(*out));
	kl = eq ? (size_t)(eq - spec) : 0;
	if (!eq || !kl || kl >= sizeof(out->key) || !eq[1] || strlen(eq + 1) >= sizeof(out->value)) {
		snprintf(err, errlen, "--sysctl '%s': expected KEY=VALUE (e.g. --sysctl vm.dirty_ratio=20)", spec);
		return -EINVAL;
	}
	memcpy(out->key, spec, kl);
	out->key[kl] = '\0';
	if (knobs_key_path(out->key, path, sizeof(path))) {
		snprintf(err, errlen, "--sysctl '%s': '%s' is not a key under /proc/sys (e.g. vm.dirty_ratio)",
			 spec, out->key);
		return -EINVAL;
	}
	/* the dotted form, as sysctl(8) and the events show it */
	if (!strchr(out->key, '.'))
		for (char *c = out->key; *c; c++)
			if (*c == '/')
				*c = '.';
	snprintf(out->value, sizeof(out->value), "%s", eq + 1);
	return 0;
}

const char *knobs_twin(const char *key)
{
	static const char *const pairs[][2] = {
		{ "vm.dirty_bytes", "vm.dirty_ratio" },
		{ "vm.dirty_background_bytes", "vm.dirty_background_ratio" },
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		if (!strcmp(key, pairs[i][0]))
			return pairs[i][1];
		if (!strcmp(key, pairs[i][1]))
			return pairs[i][0];
	}
	return NULL;
}

static bool is_bytes_member(const char *key)
{
	size_t n = strlen(key);
	return n > 6 && !strcmp(key + n - 6, "_bytes");
}

void knobs_normalize_value(const char *in, char *out, size_t len)
{
	double v;
	size_t n = strlen(in);

	/* only a figure with a unit: "10" or "0.5" are the user's own text */
	if (n && isalpha((unsigned char)in[n - 1]) && util_parse_number(in, &v) == 0 &&
	    v >= 0 && v < 9.2e18 && v == floor(v)) {
		snprintf(out, len, "%.0f", v);
		return;
	}
	snprintf(out, len, "%s", in);
}

/* Whitespace runs as one space, trimmed: how values are compared and shown. */
static void squeeze(char *s)
{
	char *w = s;
	bool sp = false;

	for (char *r = s; *r; r++) {
		if (isspace((unsigned char)*r)) {
			sp = w != s;
			continue;
		}
		if (sp)
			*w++ = ' ';
		sp = false;
		*w++ = *r;
	}
	*w = '\0';
}

static bool same_value(const char *a, const char *b)
{
	char x[KNOB_VAL_LEN], y[KNOB_VAL_LEN], *ea, *eb;
	long long va, vb;

	snprintf(x, sizeof(x), "%s", a);
	snprintf(y, sizeof(y), "%s", b);
	squeeze(x);
	squeeze(y);
	errno = 0;
	va = strtoll(x, &ea, 10);
	vb = strtoll(y, &eb, 10);
	if (!errno && ea != x && eb != y && !*ea && !*eb)
		return va == vb;
	return !strcmp(x, y);
}

int knobs_read(const char *key, char *val, size_t len, char *err, size_t errlen)
{
	char path[512];
	ssize_t r;
	int fd, rc;

	if ((rc = knobs_key_path(key, path, sizeof(path)))) {
		snprintf(err, errlen, "%s: not a key under /proc/sys", key);
		return rc;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s (%s)", key, rc == -ENOENT ? "no such kernel knob" : strerror(-rc), path);
		return rc;
	}
	r = read(fd, val, len - 1);
	rc = r < 0 ? -errno : 0;
	close(fd);
	if (rc) {
		snprintf(err, errlen, "%s: cannot read %s: %s", key, path, strerror(-rc));
		return rc;
	}
	val[r] = '\0';
	squeeze(val);
	return 0;
}

int knobs_check_writable(const char *key, char *err, size_t errlen)
{
	char path[512];
	int rc;

	if ((rc = knobs_key_path(key, path, sizeof(path)))) {
		snprintf(err, errlen, "--sysctl %s: not a key under /proc/sys (e.g. vm.dirty_ratio)", key);
		return rc;
	}
	if (access(path, F_OK)) {
		rc = -errno;
		snprintf(err, errlen, "--sysctl %s: no such kernel knob (%s)", key, path);
		return rc;
	}
	if (access(path, W_OK)) {
		rc = -errno;
		snprintf(err, errlen, "--sysctl %s: cannot write %s (%s): kernel knobs need root",
			 key, path, strerror(-rc));
		return rc;
	}
	return 0;
}

static int write_value(const char *key, const char *value, char *err, size_t errlen)
{
	char path[512], line[KNOB_VAL_LEN + 2];
	int fd, rc = 0;
	size_t n;

	knobs_key_path(key, path, sizeof(path));
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);   /* O_TRUNC as a shell redirect: a plain file in tests */
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s=%s: cannot open %s: %s", key, value, path, strerror(-rc));
		return rc;
	}
	n = (size_t)snprintf(line, sizeof(line), "%s\n", value);
	if (write(fd, line, n) != (ssize_t)n)
		rc = errno ? -errno : -EIO;
	close(fd);
	if (rc)
		snprintf(err, errlen, "%s=%s: the kernel refused it (%s)", key, value, strerror(-rc));
	return rc;
}

static void add_change(struct knob_change *chg, int maxchg, int *nchg, const char *key,
		       const char *o, const char *n)
{
	if (same_value(o, n) || !chg || *nchg >= maxchg)
		return;
	struct knob_change *c = &chg[(*nchg)++];
	snprintf(c->key, sizeof(c->key), "%s", key);
	snprintf(c->old_value, sizeof(c->old_value), "%s", o);
	snprintf(c->new_value, sizeof(c->new_value), "%s", n);
}

int knobs_apply(const struct knob_list *want, struct knob_change *chg, int maxchg, int *nchg,
		char *err, size_t errlen)
{
	int dummy = 0;

	if (!nchg)
		nchg = &dummy;
	*nchg = 0;
	for (int i = 0; i < want->n; i++) {
		const struct knob *k = &want->v[i];
		const char *twin = knobs_twin(k->key);
		char val[KNOB_VAL_LEN], old[KNOB_VAL_LEN], now[KNOB_VAL_LEN];
		char tw_old[KNOB_VAL_LEN] = "", tw_now[KNOB_VAL_LEN] = "";
		int rc;

		knobs_normalize_value(k->value, val, sizeof(val));
		if ((rc = knobs_read(k->key, old, sizeof(old), err, errlen)))
			return rc;
		if (twin && knobs_read(twin, tw_old, sizeof(tw_old), err, errlen))
			twin = NULL;
		knobs_note_own_write(k->key, val);
		rc = write_value(k->key, val, err, errlen);
		if (knobs_read(k->key, now, sizeof(now), err, errlen) == 0) {
			add_change(chg, maxchg, nchg, k->key, old, now);
			knobs_note_own_write(k->key, now);
		}
		if (twin && knobs_read(twin, tw_now, sizeof(tw_now), err, errlen) == 0) {
			add_change(chg, maxchg, nchg, twin, tw_old, tw_now);
			knobs_note_own_write(twin, tw_now);
		}
		if (rc) {
			/* err from write_value was overwritten by nothing above
			 * only when the reads failed too: say it again */
			snprintf(err, errlen, "%s=%s: the kernel refused it (%s)", k->key, val, strerror(-rc));
			return rc;
		}
		if (!same_value(now, val)) {
			snprintf(err, errlen, "%s=%s: the kernel shows %s after the write", k->key, val, now);
			return -ERANGE;
		}
	}
	return 0;
}

static bool list_has(const struct knob_list *l, const char *key)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].key, key))
			return true;
	return false;
}

int knobs_read_all(const struct knob_list *keys, struct knob_list *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < keys->n; i++) {
			const char *key = pass ? knobs_twin(keys->v[i].key) : keys->v[i].key;
			int rc;
			if (!key || list_has(out, key))
				continue;
			if (out->n == KNOBS_MAX) {
				snprintf(err, errlen, "more than %d kernel knobs", KNOBS_MAX);
				return -E2BIG;
			}
			snprintf(out->v[out->n].key, sizeof(out->v[0].key), "%s", key);
			if ((rc = knobs_read(key, out->v[out->n].value, sizeof(out->v[0].value), err, errlen)))
				return rc;
			out->n++;
		}
	return 0;
}

void knobs_format_list(const struct knob_list *l, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < l->n && off < len; i++) {
		int w = snprintf(buf + off, len - off, "%s%s=%s", i ? " " : "", l->v[i].key, l->v[i].value);
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

/* ---- what iodash itself wrote ------------------------------------------- */

#define OWN_MAX 64
static pthread_mutex_t own_lock = PTHREAD_MUTEX_INITIALIZER;
static struct knob own[OWN_MAX];
static int nown;

void knobs_note_own_write(const char *key, const char *value)
{
	int i;

	pthread_mutex_lock(&own_lock);
	for (i = 0; i < nown && strcmp(own[i].key, key); i++)
		;
	if (i < OWN_MAX) {
		snprintf(own[i].key, sizeof(own[i].key), "%s", key);
		snprintf(own[i].value, sizeof(own[i].value), "%s", value);
		if (i == nown)
			nown++;
	}
	pthread_mutex_unlock(&own_lock);
}

bool knobs_is_own_value(const char *key, const char *value)
{
	bool yes = false;

	pthread_mutex_lock(&own_lock);
	for (int i = 0; i < nown; i++)
		if (!strcmp(own[i].key, key)) {
			yes = same_value(own[i].value, value);
			break;
		}
	pthread_mutex_unlock(&own_lock);
	return yes;
}

/* Like knobs_is_own_value(), and forgets the value when it matches. */
static bool take_own_value(const char *key, const char *value)
{
	bool yes = false;

	pthread_mutex_lock(&own_lock);
	for (int i = 0; i < nown; i++)
		if (!strcmp(own[i].key, key)) {
			yes = same_value(own[i].value, value);
			if (yes)
				own[i].value[0] = '\0';
			break;
		}
	pthread_mutex_unlock(&own_lock);
	return yes;
}

int knobs_snapshot_changes(const struct snapshot *prev, const struct snapshot *cur,
			   struct knob_change *out, int max)
{
	const struct { const char *key; unsigned long long a, b; } k[] = {
		{ "vm.dirty_background_bytes", prev->dirty_background_bytes, cur->dirty_background_bytes },
		{ "vm.dirty_background_ratio", prev->dirty_background_ratio, cur->dirty_background_ratio },
		{ "vm.dirty_bytes", prev->dirty_bytes, cur->dirty_bytes },
		{ "vm.dirty_ratio", prev->dirty_ratio, cur->dirty_ratio },
		{ "vm.dirty_expire_centisecs", prev->dirty_expire_centisecs, cur->dirty_expire_centisecs },
		{ "vm.dirty_writeback_centisecs", prev->dirty_writeback_centisecs, cur->dirty_writeback_centisecs },
	};
	int n = 0;

	if (!(prev->have & SNAP_HAVE_KNOBS) || !(cur->have & SNAP_HAVE_KNOBS))
		return 0;
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]) && n < max; i++) {
		char nv[32];
		if (k[i].a == k[i].b)
			continue;
		snprintf(nv, sizeof(nv), "%llu", k[i].b);
		if (take_own_value(k[i].key, nv))
			continue;
		snprintf(out[n].key, sizeof(out[n].key), "%s", k[i].key);
		snprintf(out[n].old_value, sizeof(out[n].old_value), "%llu", k[i].a);
		snprintf(out[n].new_value, sizeof(out[n].new_value), "%s", nv);
		n++;
	}
	return n;
}

/* ---- journal ------------------------------------------------------------ */

const char *knobs_journal_path(void)
{
	const char *e = getenv("IODASH_KNOBS_JOURNAL");
	return e && *e ? e : JOURNAL_DEFAULT;
}

static int mkdir_parent(const char *path)
{
	char dir[256], *s;

	snprintf(dir, sizeof(dir), "%s", path);
	if (!(s = strrchr(dir, '/')) || s == dir)
		return 0;
	*s = '\0';
	if (mkdir(dir, 0755) == 0 || errno == EEXIST)
		return 0;
	if (errno == ENOENT && mkdir_parent(dir) == 0 && mkdir(dir, 0755) == 0)
		return 0;
	return -errno;
}

/* Parse a journal's text into pid and the original values. */
static int journal_parse(FILE *f, pid_t *pid, struct knob_list *orig)
{
	char line[512];

	memset(orig, 0, sizeof(*orig));
	*pid = 0;
	if (!fgets(line, sizeof(line), f) || strncmp(line, JOURNAL_MAGIC, strlen(JOURNAL_MAGIC)))
		return -EBADMSG;
	while (fgets(line, sizeof(line), f)) {
		char *t1, *t2;
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "pid\t", 4)) {
			*pid = (pid_t)atoi(line + 4);
			continue;
		}
		if (strncmp(line, "knob\t", 5) || !(t1 = strchr(line + 5, '\t')))
			continue;
		*t1 = '\0';
		t2 = t1 + 1;
		if (orig->n < KNOBS_MAX && strlen(line + 5) < KNOB_KEY_LEN) {
			snprintf(orig->v[orig->n].key, KNOB_KEY_LEN, "%s", line + 5);
			snprintf(orig->v[orig->n].value, KNOB_VAL_LEN, "%s", t2);
			orig->n++;
		}
	}
	return orig->n ? 0 : -EBADMSG;
}

/* Knobs of orig whose value now differs: "k is N (was M)", and how many. */
static int journal_diff(const struct knob_list *orig, char *msg, size_t len)
{
	size_t off = 0;
	int n = 0;

	if (len)
		msg[0] = '\0';
	for (int i = 0; i < orig->n; i++) {
		char now[KNOB_VAL_LEN], e[256];
		if (knobs_read(orig->v[i].key, now, sizeof(now), e, sizeof(e)))
			continue;       /* a knob this kernel lacks cannot be changed */
		if (same_value(now, orig->v[i].value))
			continue;
		n++;
		if (off < len) {
			int w = snprintf(msg + off, len - off, "%s%s is %s (was %s)", off ? ", " : "",
					 orig->v[i].key, now, orig->v[i].value);
			if (w > 0)
				off += (size_t)w;
		}
	}
	return n;
}

int knobs_journal_check(enum knobs_journal_state *state, pid_t *pid, char *msg, size_t len)
{
	struct knob_list orig;
	const char *path = knobs_journal_path();
	/* O_NONBLOCK: a FIFO put there must not hold us at the open */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc;
	struct stat st;
	FILE *f;

	*state = KJ_NONE;
	*pid = 0;
	if (len)
		msg[0] = '\0';
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(msg, len, "the knobs journal %s is not a file: set IODASH_KNOBS_JOURNAL to a file path", path);
		close(fd);
		return -EINVAL;
	}
	if (flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK)
		*state = KJ_LIVE;
	if (!(f = fdopen(fd, "r"))) {
		rc = -errno;
		close(fd);
		return rc;
	}
	rc = journal_parse(f, pid, &orig);
	fclose(f);
	if (*state == KJ_LIVE)
		return 0;
	if (rc) {
		snprintf(msg, len, "%s: not an iodash knobs journal (remove it by hand)", path);
		*state = KJ_CHANGED;
		return rc;
	}
	*state = journal_diff(&orig, msg, len) ? KJ_CHANGED : KJ_CLEAN;
	return 0;
}

int knobs_journal_begin(struct knobs_journal *j, const struct knob_list *keys,
			char *err, size_t errlen)
{
	enum knobs_journal_state st;
	char msg[512], *buf = NULL;
	size_t blen = 0;
	pid_t pid;
	FILE *m;
	int rc, fd = -1;
	struct fdio_out out;

	memset(j, 0, sizeof(*j));
	j->fd = -1;
	snprintf(j->path, sizeof(j->path), "%s", knobs_journal_path());
	rc = knobs_journal_check(&st, &pid, msg, sizeof(msg));
	if (st == KJ_LIVE) {
		snprintf(err, errlen, "another iodash (pid %d) is changing kernel knobs now (journal %s): wait for it to end",
			 (int)pid, j->path);
		return -EBUSY;
	}
	if (st == KJ_CHANGED) {
		snprintf(err, errlen, "kernel knobs left changed by an iodash that did not end (%s): %s; run iodash restore first",
			 j->path, msg);
		return -EBUSY;
	}
	if (rc && rc != -EBADMSG) {
		if (msg[0])
			snprintf(err, errlen, "%s", msg);
		else
			snprintf(err, errlen, "%s: %s", j->path, strerror(-rc));
		return rc;
	}
	/* KJ_CLEAN: a left-behind journal with nothing changed is replaced */
	if ((rc = knobs_read_all(keys, &j->orig, err, errlen)))
		return rc;
	if ((rc = mkdir_parent(j->path))) {
		snprintf(err, errlen, "cannot make the directory of the knobs journal %s: %s (set IODASH_KNOBS_JOURNAL)",
			 j->path, strerror(-rc));
		return rc;
	}
	/* the output rule of fdio.h: a new file renamed over a regular one
	 * (a crash leaves the old journal or the new one, whole); the link
	 * of a symlinked path stays; a device or FIFO is no journal */
	if ((rc = fdio_out_open(&out, j->path, FDIO_OUT_RENAME | FDIO_OUT_FILE, msg, sizeof(msg)))) {
		snprintf(err, errlen, "the knobs journal (IODASH_KNOBS_JOURNAL): %s", msg);
		return rc;
	}
	/* the lock is on the open file: it is the journal's once renamed,
	 * and held through fd, a second descriptor of it */
	flock(out.fd, LOCK_EX);
	if ((fd = dup(out.fd)) < 0) {
		rc = -errno;
		goto fail;
	}
	if (!(m = open_memstream(&buf, &blen))) {
		rc = -ENOMEM;
		goto fail;
	}
	fprintf(m, "%s\npid\t%d\n", JOURNAL_MAGIC, (int)getpid());
	for (int i = 0; i < j->orig.n; i++)
		fprintf(m, "knob\t%s\t%s\n", j->orig.v[i].key, j->orig.v[i].value);
	fclose(m);
	rc = fdio_write_all(fd, buf, blen);
	free(buf);
	if (!rc && fsync(fd))
		rc = -errno;
	if (rc)
		goto fail;
	/* from now on the journal is where the symlinks led */
	snprintf(j->path, sizeof(j->path), "%s", out.dest);
	if ((rc = fdio_out_commit(&out, err, errlen))) {
		close(fd);
		return rc;
	}
	j->fd = fd;
	j->active = true;
	return 0;
fail:
	snprintf(err, errlen, "cannot write the knobs journal %s: %s", j->path, strerror(-rc));
	if (fd >= 0)
		close(fd);
	fdio_out_discard(&out);
	return rc;
}

/* What to write to put orig back: of a *_bytes and *_ratio pair only the
 * member that was in use (the kernel zeroes the other itself, and refuses
 * a *_bytes of 0). */
static void restore_list(const struct knob_list *orig, struct knob_list *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < orig->n; i++) {
		const struct knob *k = &orig->v[i];
		const char *twin = knobs_twin(k->key);
		if (twin) {
			const struct knob *t = NULL;
			for (int x = 0; x < orig->n; x++)
				if (!strcmp(orig->v[x].key, twin))
					t = &orig->v[x];
			bool bytes = is_bytes_member(k->key);
			const struct knob *bytes_k = bytes ? k : t;
			bool bytes_in_use = bytes_k && !same_value(bytes_k->value, "0");
			if (t && bytes != bytes_in_use)
				continue;
		}
		out->v[out->n++] = *k;
	}
}

int knobs_journal_restore(struct knobs_journal *j, struct knob_change *chg, int maxchg,
			  int *nchg, char *err, size_t errlen)
{
	struct knob_list todo;
	char left[512];
	int first_rc = 0, dummy = 0;

	if (!nchg)
		nchg = &dummy;
	*nchg = 0;
	if (!j->active)
		return 0;
	restore_list(&j->orig, &todo);
	for (int i = 0; i < todo.n; i++) {
		struct knob_list one = { .n = 1 };
		char e[512];
		int n = 0, rc;
		one.v[0] = todo.v[i];
		rc = knobs_apply(&one, chg ? chg + *nchg : NULL, maxchg - *nchg, &n, e, sizeof(e));
		*nchg += n;
		if (rc && !first_rc) {
			first_rc = rc;
			snprintf(err, errlen, "restoring %s", e);
		}
	}
	if (journal_diff(&j->orig, left, sizeof(left))) {
		/* the journal stays: iodash restore can try again */
		if (!first_rc)
			first_rc = -EIO;
		snprintf(err, errlen, "kernel knobs not restored: %s (journal %s kept: iodash restore)",
			 left, j->path);
		close(j->fd);
		j->fd = -1;
		j->active = false;
		return first_rc;
	}
	unlink(j->path);
	close(j->fd);
	j->fd = -1;
	j->active = false;
	return 0;
}

int knobs_journal_recover(struct knob_change *chg, int maxchg, int *nchg, char *msg, size_t len)
{
	struct knobs_journal j;
	pid_t pid;
	FILE *f;
	int rc;

	*nchg = 0;
	memset(&j, 0, sizeof(j));
	snprintf(j.path, sizeof(j.path), "%s", knobs_journal_path());
	j.fd = open(j.path, O_RDWR | O_CLOEXEC);
	if (j.fd < 0) {
		rc = -errno;
		if (rc == -ENOENT)
			snprintf(msg, len, "no knobs journal (%s): nothing to restore", j.path);
		else
			snprintf(msg, len, "%s: %s", j.path, strerror(-rc));
		return rc;
	}
	if (flock(j.fd, LOCK_EX | LOCK_NB)) {
		rc = -errno;
		FILE *r = fdopen(dup(j.fd), "r");
		if (r) {
			journal_parse(r, &pid, &j.orig);
			fclose(r);
		}
		close(j.fd);
		snprintf(msg, len, "a running iodash (pid %d) holds %s: it restores the knobs itself when it ends",
			 r ? (int)pid : 0, j.path);
		return rc == -EWOULDBLOCK ? -EBUSY : rc;
	}
	f = fdopen(dup(j.fd), "r");
	rc = f ? journal_parse(f, &pid, &j.orig) : -errno;
	if (f)
		fclose(f);
	if (rc) {
		close(j.fd);
		snprintf(msg, len, "%s: not an iodash knobs journal (remove it by hand)", j.path);
		return rc;
	}
	j.active = true;
	rc = knobs_journal_restore(&j, chg, maxchg, nchg, msg, len);
	if (!rc)
		snprintf(msg, len, "restored %d kernel knob%s from %s (left by pid %d)", j.orig.n,
			 j.orig.n == 1 ? "" : "s", j.path, (int)pid);
	return rc;
}
