/* libFuzzer target: the theme file parser.  Any bytes give 0 or a
 * "FILE:LINE: why" message, never a crash, and leave a usable theme. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ui/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct theme t;
	char err[256] = "";

	theme_default(&t);
	int rc = theme_parse((const char *)data, size, "fuzz.theme", &t, err, sizeof(err));
	if (rc != 0 && strncmp(err, "fuzz.theme:", 11) != 0)
		abort();   /* an error always names the file (and line) */
	if (!memchr(err, 0, sizeof(err)))
		abort();
	return 0;
}
