/* util: see util.h. */
#include <string.h>
#include <time.h>
#include "iodash/base/util.h"

uint64_t util_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double util_mono_s(void)
{
	return (double)util_mono_ns() / 1e9;
}

const char *util_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}
