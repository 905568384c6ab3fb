/* libFuzzer target: the config file reader.  Any bytes give 0 or an error
 * that names the file, never a crash; every entry it keeps has a known
 * key and a value. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "iodash/base/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	static struct config c;
	char err[1400] = "";
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/fuzz_config.%d", (int)getpid());
	if (!(f = fopen(path, "wb")))
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	int rc = config_load(path, &c, err, sizeof(err));
	if (rc && strncmp(err, path, strlen(path)))
		abort();   /* an error always names the file */
	for (size_t i = 0; !rc && i < c.n; i++)
		if (!c.v[i].key || !c.v[i].option || !c.v[i].value[0])
			abort();
	return 0;
}
