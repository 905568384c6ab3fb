/* bench/follow: tail -F of the file an attached benchmark writes (attach --log). */
#ifndef IODASH_BENCH_FOLLOW_H
#define IODASH_BENCH_FOLLOW_H

#include <stddef.h>
#include <sys/types.h>

/* Follows a file the benchmark writes, as tail -F does: from its start,
 * then what is appended; a truncated file is read again from the start, a
 * replaced one (new inode: rotation) from the start of the new file, a
 * missing one is waited for. */
struct bench_follow {
	char path[4096];
	int fd;
	dev_t dev;
	ino_t ino;
	off_t off;
};
enum { FOLLOW_APPEARED = 1, FOLLOW_TRUNCATED = 2, FOLLOW_REPLACED = 4, FOLLOW_GONE = 8 };
void bench_follow_init(struct bench_follow *f, const char *path);
/* Read what is new (at most max bytes), calling data() per chunk.  Returns
 * a mask of FOLLOW_* that happened, or -errno for a read error. */
int bench_follow_poll(struct bench_follow *f, size_t max,
		      void (*data)(void *ctx, const char *buf, size_t len), void *ctx);
void bench_follow_close(struct bench_follow *f);

#endif
