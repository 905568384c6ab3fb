/* fdio: see include/iodash/base/fdio.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include "iodash/base/fdio.h"

int fdio_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

ssize_t fdio_read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r, got = 0;

	if (fd < 0)
		return -errno;
	while ((size_t)got < len - 1) {
		r = read(fd, buf + got, len - 1 - (size_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
	}
	close(fd);
	buf[got] = '\0';
	return got;
}

/* The directory part of path ("." when it has none). */
static void fdio_dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* A link in procfs (/proc/self/fd/1, where the standard output link of /dev leads) is no
 * path to rename over: it stands for an open file of some process. */
static bool fdio_in_procfs(const char *path)
{
	char dir[PATH_MAX];
	struct statfs sf;

	fdio_dir_of(path, dir, sizeof(dir));
	return statfs(dir, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC;
}

enum fdio_kind { FK_NEW, FK_REGULAR, FK_IN_PLACE };

/* Follow path's symlinks to what they name: dest gets the last one's
 * target (or path itself).  A kind, or -errno with err. */
static int fdio_resolve(const char *path, char *dest, size_t len, mode_t *mode, char *err, size_t errlen)
{
	char cur[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
	struct stat st;

	if (snprintf(cur, sizeof(cur), "%s", path) >= (int)sizeof(cur)) {
		snprintf(err, errlen, "%s: path too long (give a shorter one)", path);
		return -ENAMETOOLONG;
	}
	for (int hops = 0; hops < 40; hops++) {
		if (lstat(cur, &st) < 0) {
			if (errno != ENOENT) {
				int rc = -errno;
				snprintf(err, errlen, "%s: %s (give a path in a directory you can write)", path,
					 strerror(errno));
				return rc;
			}
			snprintf(dest, len, "%s", cur);
			return FK_NEW;
		}
		*mode = st.st_mode;
		if (S_ISREG(st.st_mode)) {
			snprintf(dest, len, "%s", cur);
			return FK_REGULAR;
		}
		if (S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s: is a directory (give a file name in it)", path);
			return -EISDIR;
		}
		if (S_ISSOCK(st.st_mode)) {
			snprintf(err, errlen, "%s: is a socket, which cannot be written as a file (give another path)",
				 path);
			return -ENXIO;
		}
		if (!S_ISLNK(st.st_mode) || fdio_in_procfs(cur)) {
			snprintf(dest, len, "%s", path);
			return FK_IN_PLACE;
		}
		ssize_t n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0) {
			int rc = -errno;
			snprintf(err, errlen, "%s: %s: %s", path, cur, strerror(errno));
			return rc;
		}
		link[n] = '\0';
		fdio_dir_of(cur, dir, sizeof(dir));
		if ((link[0] == '/' ? snprintf(cur, sizeof(cur), "%s", link)
				    : snprintf(cur, sizeof(cur), "%s/%s", dir, link)) >= (int)sizeof(cur)) {
			snprintf(err, errlen, "%s: path too long through its symlinks", path);
			return -ENAMETOOLONG;
		}
	}
	snprintf(err, errlen, "%s: too many levels of symbolic links", path);
	return -ELOOP;
}

static int fdio_fail(struct fdio_out *o, const char *path, const char *what, char *err, size_t errlen)
{
	int rc = -errno;

	snprintf(err, errlen, "%s: %s: %s (check the directory exists and is writable)", path, what, strerror(errno));
	fdio_out_discard(o);
	return rc;
}

int fdio_out_open(struct fdio_out *o, const char *path, unsigned flags, char *err, size_t errlen)
{
	char dest[PATH_MAX];
	mode_t mode = 0;
	int kind;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if ((kind = fdio_resolve(path, dest, sizeof(dest), &mode, err, errlen)) < 0)
		return kind;
	if (kind == FK_REGULAR && (flags & FDIO_OUT_EXCL)) {
		snprintf(err, errlen, "%s: the file exists (choose another path)", path);
		return -EEXIST;
	}
	if (!(o->dest = strdup(dest))) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	if (kind == FK_IN_PLACE && (flags & FDIO_OUT_FILE)) {
		snprintf(err, errlen, "%s: is not a file (a device, a FIFO or a link into /proc): give a file path",
			 path);
		fdio_out_discard(o);
		return -EINVAL;
	}
	if (kind == FK_IN_PLACE) {
		/* a FIFO waits for its reader here, as a shell's > does */
		o->in_place = true;
		if ((o->fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)) < 0)
			return fdio_fail(o, path, "cannot open it for writing", err, errlen);
		struct stat st;
		/* a regular file behind /proc (the standard output of a shell's > or
		 * >>): add to it, as writing to that descriptor would */
		if (fstat(o->fd, &st) == 0 && S_ISREG(st.st_mode))
			(void)fcntl(o->fd, F_SETFL, O_APPEND);
		return 0;
	}
	if (!(flags & FDIO_OUT_RENAME)) {
		int of = O_WRONLY | O_CLOEXEC | O_NOCTTY;
		if (kind == FK_NEW)
			of |= O_CREAT | O_EXCL;
		else if (!(flags & FDIO_OUT_NOTRUNC))
			of |= O_TRUNC;
		/* O_EXCL: a path made meanwhile is not ours to remove later */
		if ((o->fd = open(dest, of, 0666)) < 0)
			return fdio_fail(o, path, "cannot create or open it", err, errlen);
		o->created = kind == FK_NEW;
		return 0;
	}
	size_t tl = strlen(dest) + sizeof(".tmp-XXXXXX");
	if (!(o->tmp = malloc(tl))) {
		snprintf(err, errlen, "%s: out of memory", path);
		fdio_out_discard(o);
		return -ENOMEM;
	}
	snprintf(o->tmp, tl, "%s.tmp-XXXXXX", dest);
	if ((o->fd = mkostemp(o->tmp, O_CLOEXEC)) < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return fdio_fail(o, path, "cannot create a file there", err, errlen);
	}
	/* mkstemp makes it 0600: a replaced file keeps its mode, a new one
	 * gets what open(0666) would give */
	if (kind == FK_NEW) {
		mode_t um = umask(0);
		umask(um);
		mode = 0666 & ~um;
	}
	if (fchmod(o->fd, mode & 07777)) {
		/* harmless: written all the same, readable by its owner */
	}
	return 0;
}

int fdio_out_commit(struct fdio_out *o, char *err, size_t errlen)
{
	struct stat st;
	int rc = 0;

	if (o->fd >= 0 && close(o->fd) < 0 && errno != EINTR) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", o->dest, strerror(errno));
	}
	o->fd = -1;
	if (!rc && o->tmp) {
		/* what is there now may have changed since it was opened: only
		 * a regular file or nothing is ever replaced */
		if (lstat(o->dest, &st) == 0 && !S_ISREG(st.st_mode)) {
			rc = -EEXIST;
			snprintf(err, errlen, "%s: something other than a file was put there meanwhile; it is left alone",
				 o->dest);
		} else if (rename(o->tmp, o->dest)) {
			rc = -errno;
			snprintf(err, errlen, "%s: %s", o->dest, strerror(errno));
		} else {
			free(o->tmp);
			o->tmp = NULL;
		}
	}
	if (rc)
		fdio_out_discard(o);
	else
		fdio_out_release(o);
	return rc;
}

void fdio_out_discard(struct fdio_out *o)
{
	struct stat ours, now;

	if (o->tmp)
		unlink(o->tmp);
	else if (o->created && o->fd >= 0 && fstat(o->fd, &ours) == 0 && lstat(o->dest, &now) == 0 &&
		 ours.st_dev == now.st_dev && ours.st_ino == now.st_ino && S_ISREG(now.st_mode))
		unlink(o->dest);
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	fdio_out_release(o);
}

void fdio_out_release(struct fdio_out *o)
{
	free(o->dest);
	free(o->tmp);
	o->dest = o->tmp = NULL;
	o->fd = -1;
}
