/* fdio: small helpers for writing to file descriptors and reading small files. */
#ifndef IODASH_FDIO_H
#define IODASH_FDIO_H

#include <stddef.h>
#include <sys/types.h>

/* Write all n bytes (retrying short writes and EINTR): 0 or -errno. */
int fdio_write_all(int fd, const char *p, size_t n);

/* Read a small file (a /proc entry) whole into buf (len > 0), NUL
 * terminated, at most len - 1 bytes: its length, or -errno. */
ssize_t fdio_read_small(const char *path, char *buf, size_t len);

#endif
