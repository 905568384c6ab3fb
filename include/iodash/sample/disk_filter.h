/* disk_filter: the devices a user asked to see, as iostat takes them
 * (`iostat -x sda nvme0n1`): `--disks sda,nvme0n1`, or a key on the live
 * screen.  Names match exactly, words with * ? [ as shell globs (sd*,
 * nvme*n1).  Exact names go through a hash, so a list of hundreds costs
 * a lookup a device, not a walk of the list. */
#ifndef IODASH_DISK_FILTER_H
#define IODASH_DISK_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include "iodash/base/namemap.h"

struct disk_filter {
	struct namemap exact;
	char **glob;                 /* the words with a glob character */
	int nglob;
	char *text;                  /* the list as given ("" or NULL: every device) */
};

/* Parse a list of names or globs separated by commas or spaces ("/dev/"
 * before a name is dropped, as iostat does).  An empty list is every
 * device.  0, or -EINVAL / -ENOMEM with a message naming the word.  f is
 * emptied first (disk_filter_free) and owns what it holds. */
int disk_filter_parse(struct disk_filter *f, const char *list, char *err, size_t errlen);
/* Does the filter let this device through?  (Every device when empty.) */
bool disk_filter_match(const struct disk_filter *f, const char *name);
bool disk_filter_empty(const struct disk_filter *f);
void disk_filter_free(struct disk_filter *f);

#endif
