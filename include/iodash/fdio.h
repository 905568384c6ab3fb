/* fdio: small helpers for writing to file descriptors. */
#ifndef IODASH_FDIO_H
#define IODASH_FDIO_H

#include <stddef.h>

/* Write all n bytes (retrying short writes and EINTR): 0 or -errno. */
int fdio_write_all(int fd, const char *p, size_t n);

#endif
