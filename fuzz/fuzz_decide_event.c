/* libFuzzer target: a decision event's text (sweep --until-decided), as
 * compare reads it from any recording.  Never a crash; what it reads is
 * whole strings and a known state, and formats to a whole line (a read
 * back is not the same when a label holds the keys' words: the recorder
 * never writes one, tests/unit/test_decide.c checks its lines). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/results/decide.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[300], again[1024];
	struct decide_event a;

	if (size >= sizeof(text))
		size = sizeof(text) - 1;
	memcpy(text, data, size);
	text[size] = '\0';
	if (decide_event_parse(text, &a) != 0)
		return 0;
	if ((unsigned)a.state > DECIDE_FAILED || !memchr(a.label, 0, sizeof(a.label)) ||
	    !memchr(a.setting, 0, sizeof(a.setting)) || !memchr(a.x_text, 0, sizeof(a.x_text)))
		abort();
	decide_event_format(&a, again, sizeof(again));
	if (!memchr(again, 0, sizeof(again)))
		abort();
	return 0;
}
