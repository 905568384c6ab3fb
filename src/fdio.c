/* fdio: see include/iodash/fdio.h. */
#include <errno.h>
#include <unistd.h>
#include "iodash/fdio.h"

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
