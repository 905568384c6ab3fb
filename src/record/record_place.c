/* record_place: a recording on the benchmark's device (record_place.h). */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "iodash/record/record_place.h"

/* The device of path, or of its directory when it does not exist yet
 * (a file the benchmark is about to create).  0 or -errno. */
static int place_dev(const char *path, dev_t *dev)
{
	char dir[PATH_MAX];
	struct stat st;
	char *slash;

	if (stat(path, &st) == 0) {
		*dev = st.st_dev;
		return 0;
	}
	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir) || !(slash = strrchr(dir, '/')))
		return -ENOENT;
	if (slash == dir)
		slash[1] = '\0';     /* "/x": its directory is "/" */
	else
		*slash = '\0';
	if (stat(dir, &st))
		return -errno;
	*dev = st.st_dev;
	return 0;
}

/* An existing regular file with an execute bit: a program. */
static bool place_is_program(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH));
}

int record_place_check(const char *rec_path, char *const *argv, int argc, char *why, size_t len)
{
	dev_t rec, d;
	int rc, npaths = 0;

	if ((rc = place_dev(rec_path, &rec)))
		return rc;
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i], *eq = strchr(w, '=');
		if (eq && eq[1])
			w = eq + 1;
		/* a path, not an option or a number: has a '/' or exists */
		if (w[0] == '-' || (!strchr(w, '/') && place_dev(w, &d)))
			continue;
		/* the benchmark's own program (/bin/echo, or one a wrapper
		 * such as env or taskset runs) is read, not written */
		if (i == 0 || place_is_program(w))
			continue;
		if (place_dev(w, &d))
			continue;
		npaths++;
		if (d == rec) {
			snprintf(why, len, "%s", w);
			return 1;
		}
	}
	if (!npaths && place_dev(".", &d) == 0 && d == rec) {
		snprintf(why, len, "the current directory (where the benchmark works)");
		return 1;
	}
	return 0;
}
