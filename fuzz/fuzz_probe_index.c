/* libFuzzer target: a trace directory's index.tsv (rows, paths, numbers),
 * opened and replayed through probe_open_root/probe_read.  The directory
 * holds two valid samples (00000, 00001) and the fuzzed index. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iodash/probe/probe.h"

static const char sample_fmt[] =
	"# sample=%05d t_rel=0.%d00000 mono=100.%d00000 realtime=1796226582.%d00000000\n"
	"==> /proc/vmstat <==\nnr_free_pages 1000\nnr_dirty 5\nnr_writeback 1\n"
	"nr_dirty_threshold 65536\nnr_dirty_background_threshold 32768\n"
	"==> /proc/meminfo <==\nMemTotal: 100 kB\nMemFree: 4000 kB\nDirty: 20 kB\nWriteback: 4 kB\n"
	"==> /proc/diskstats <==\n 254 0 vda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n"
	"==> /proc/sys/vm/dirty_background_bytes <==\n0\n"
	"==> /proc/sys/vm/dirty_background_ratio <==\n10\n"
	"==> /proc/sys/vm/dirty_bytes <==\n0\n"
	"==> /proc/sys/vm/dirty_expire_centisecs <==\n3000\n"
	"==> /proc/sys/vm/dirty_ratio <==\n20\n"
	"==> /proc/sys/vm/dirty_writeback_centisecs <==\n500\n";

static char dir[64], index_path[128];

static void write_all(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		abort();
	close(fd);
}

static void cleanup(void)
{
	char path[160];

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/samples/%05d.txt", dir, i);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/samples", dir);
	rmdir(path);
	unlink(index_path);
	rmdir(dir);
}

static void setup(void)
{
	char path[160], buf[2048];

	snprintf(dir, sizeof(dir), "%s/iodash-fuzz-index.XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/samples", dir);
	mkdir(path, 0755);
	for (int i = 0; i < 2; i++) {
		int n = snprintf(buf, sizeof(buf), sample_fmt, i, i, i, i);
		snprintf(path, sizeof(path), "%s/samples/%05d.txt", dir, i);
		write_all(path, buf, (size_t)n);
	}
	snprintf(index_path, sizeof(index_path), "%s/index.tsv", dir);
	atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct snapshot s;
	struct probe *p = NULL;
	char err[1024];

	if (!dir[0])
		setup();
	write_all(index_path, data, size);
	if (probe_open_root(&p, dir, err, sizeof(err)) == 0) {
		for (int i = 0; i < 8; i++) {
			double off = probe_trace_next_offset(p);
			int rc = probe_read(p, &s, err, sizeof(err));
			if (rc < 0)
				break;
			if (off < 0)
				abort();        /* a sample was read, so there was a next one */
		}
		probe_close(p);
	}
	if (strchr(err, '\n'))
		abort();
	return 0;
}
