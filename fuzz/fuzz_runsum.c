/* libFuzzer target: a run_summary event's text, as compare reads it from
 * any recording.  Never a crash; a text that parses formats and parses
 * back to the same verdict and byte counts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/results/runsum.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[300], again[300];
	struct run_summary a, b;

	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';
	if (runsum_parse(text, &a) != 0)
		return 0;
	if ((unsigned)a.verdict > RV_THROTTLED)
		abort();
	runsum_format(&a, again, sizeof(again));
	if (!memchr(again, 0, sizeof(again)))
		abort();
	if (runsum_parse(again, &b) != 0 || b.verdict != a.verdict ||
	    (a.have_disks && (b.read_B != a.read_B || b.write_B != a.write_B)))
		abort();
	return 0;
}
