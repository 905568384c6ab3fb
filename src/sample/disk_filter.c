/* disk_filter: see include/iodash/sample/disk_filter.h. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/sample/disk_filter.h"
#include "iodash/sample/snapshot.h"

void disk_filter_free(struct disk_filter *f)
{
	namemap_free(&f->exact);
	for (int i = 0; i < f->nglob; i++)
		free(f->glob[i]);
	free(f->glob);
	free(f->text);
	memset(f, 0, sizeof(*f));
}

bool disk_filter_empty(const struct disk_filter *f)
{
	return !f->exact.n && !f->nglob;
}

int disk_filter_parse(struct disk_filter *f, const char *list, char *err, size_t errlen)
{
	const char *p = list ? list : "";
	int capg = 0;

	disk_filter_free(f);
	if (!(f->text = strdup(p)))
		goto oom;
	while (*p) {
		size_t n = strcspn(p, ", \t");
		if (n == 0) {
			p++;
			continue;
		}
		if (n > 5 && !strncmp(p, "/dev/", 5)) {
			p += 5;   /* iostat takes /dev/sda too */
			n -= 5;
		}
		if (n >= SNAP_DISK_NAME_LEN) {
			snprintf(err, errlen, "--disks: '%.*s' is longer than a device name (%d characters at most); "
				 "give names as /proc/diskstats lists them (sda,nvme0n1) or globs (sd*)",
				 (int)n, p, SNAP_DISK_NAME_LEN - 1);
			disk_filter_free(f);
			return -EINVAL;
		}
		char word[SNAP_DISK_NAME_LEN];
		memcpy(word, p, n);
		word[n] = '\0';
		p += n;
		if (strpbrk(word, "*?[")) {
			void *g = f->glob;
			if (snapshot_grow_array(&g, &capg, f->nglob + 1, sizeof(*f->glob)))
				goto oom;
			f->glob = g;
			if (!(f->glob[f->nglob] = strdup(word)))
				goto oom;
			f->nglob++;
		} else if (namemap_put(&f->exact, word, 1)) {
			goto oom;
		}
	}
	return 0;
oom:
	disk_filter_free(f);
	snprintf(err, errlen, "--disks: out of memory");
	return -ENOMEM;
}

bool disk_filter_match(const struct disk_filter *f, const char *name)
{
	if (disk_filter_empty(f))
		return true;
	if (namemap_get(&f->exact, name) >= 0)
		return true;
	for (int i = 0; i < f->nglob; i++)
		if (!fnmatch(f->glob[i], name, 0))
			return true;
	return false;
}
