/* fdio: see include/iodash/fdio.h. */
#include <errno.h>
#include <fcntl.h>
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
