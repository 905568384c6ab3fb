/* fdio: small helpers for writing to file descriptors and reading small
 * files, and the one way every output path is opened. */
#ifndef IODASH_FDIO_H
#define IODASH_FDIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Write all n bytes (retrying short writes and EINTR): 0 or -errno. */
int fdio_write_all(int fd, const char *p, size_t n);

/* Read a small file (a /proc entry) whole into buf (len > 0), NUL
 * terminated, at most len - 1 bytes: its length, or -errno. */
ssize_t fdio_read_small(const char *path, char *buf, size_t len);

/* An output path a user gave (report -o, compare --svg, export -o,
 * --batch-events, a recording's -o).  Only a path that does not exist or
 * is a regular file is ever created, truncated or replaced; a device, a
 * FIFO or a link into /proc (/dev/stdout) is opened and written where it
 * is; a symlink is followed, and what it points to is written by the
 * same rule, the link itself is never replaced; a directory or a socket
 * is refused. */
#define FDIO_OUT_RENAME  1u  /* a new or regular file is written beside it and renamed over it at
			      * commit: a failure leaves the old one whole */
#define FDIO_OUT_EXCL    2u  /* an existing regular file is refused (-EEXIST) */
#define FDIO_OUT_NOTRUNC 4u  /* an existing regular file is opened as it is (the caller truncates
			      * it once it holds its lock) */
#define FDIO_OUT_FILE    8u  /* only a file will do (it is read back): a device, a FIFO or a /proc
			      * link is refused (-EINVAL) before it is opened */

struct fdio_out {
	int fd;          /* write here */
	bool in_place;   /* not a regular file of ours: written where it is, never removed */
	bool created;    /* a new file (not FDIO_OUT_RENAME): ours to remove on failure */
	char *dest;      /* the path written, symlinks followed */
	char *tmp;       /* FDIO_OUT_RENAME: the file renamed over dest at commit, else NULL */
};

/* Open path for writing by the rule above.  0, or -errno with a one-line
 * message ("PATH: why (what to do)") in err. */
int fdio_out_open(struct fdio_out *o, const char *path, unsigned flags, char *err, size_t errlen);
/* Close it; with FDIO_OUT_RENAME put the new file in place.  0, or -errno
 * with a message (the old file is then left as it was). */
int fdio_out_commit(struct fdio_out *o, char *err, size_t errlen);
/* Close it and undo what was made: the temporary file, or a file created
 * for it (if that path still names it).  A device or a file that was
 * there before is left alone. */
void fdio_out_discard(struct fdio_out *o);
/* Free the paths and forget the descriptor (the caller keeps and closes
 * o->fd itself); what was created stays. */
void fdio_out_release(struct fdio_out *o);

#endif
