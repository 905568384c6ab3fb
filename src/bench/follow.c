/* tail -F for attach --log: benchmarks write their log while we watch,
 * sometimes truncate it between runs or rotate it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "iodash/bench/follow.h"

void bench_follow_init(struct bench_follow *f, const char *path)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->fd = -1;
}

void bench_follow_close(struct bench_follow *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

static int follow_read(struct bench_follow *f, size_t max,
		       void (*data)(void *ctx, const char *buf, size_t len), void *ctx)
{
	char buf[8192];
	size_t got = 0;

	while (got < max) {
		size_t want = max - got < sizeof(buf) ? max - got : sizeof(buf);
		ssize_t r = pread(f->fd, buf, want, f->off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		f->off += r;
		got += (size_t)r;
		data(ctx, buf, (size_t)r);
	}
	return 0;
}

int bench_follow_poll(struct bench_follow *f, size_t max,
		      void (*data)(void *ctx, const char *buf, size_t len), void *ctx)
{
	struct stat pst, fst;
	int mask = 0, rc;

	if (f->fd < 0) {
		f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
		if (f->fd < 0)
			return errno == ENOENT ? 0 : -errno;
		if (fstat(f->fd, &fst) == 0) {
			f->dev = fst.st_dev;
			f->ino = fst.st_ino;
		}
		f->off = 0;
		mask |= FOLLOW_APPEARED;
	}
	if (fstat(f->fd, &fst) == 0 && fst.st_size < f->off) {
		f->off = 0;
		mask |= FOLLOW_TRUNCATED;
	}
	if ((rc = follow_read(f, max, data, ctx)))
		return rc;
	/* Only after the old file is read to its end: a rotated log's last
	 * lines come before the new file's first ones. */
	if (stat(f->path, &pst) != 0) {
		if (errno == ENOENT)
			mask |= FOLLOW_GONE;   /* keep the old fd: it may come back */
	} else if (pst.st_ino != f->ino || pst.st_dev != f->dev) {
		bench_follow_close(f);
		f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
		if (f->fd < 0)
			return errno == ENOENT ? mask : -errno;
		if (fstat(f->fd, &fst) == 0) {
			f->dev = fst.st_dev;
			f->ino = fst.st_ino;
		}
		f->off = 0;
		mask |= FOLLOW_REPLACED;
		if ((rc = follow_read(f, max, data, ctx)))
			return rc;
	}
	return mask;
}
