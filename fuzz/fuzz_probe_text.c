/* libFuzzer target: the /proc text parsers and the trace-sample parser.
 * The first byte picks the parser (0..PROBE_TEXT_COUNT-1: one /proc text;
 * anything else: a whole recorded sample); the rest is its input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iodash/probe/probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct snapshot s;
	char err[512];
	const char *text;
	size_t len;
	char *copy;

	if (size < 1)
		return 0;
	len = size - 1;
	/* An exact-size heap copy, so ASan sees any read past the end. */
	copy = malloc(len ? len : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, len);
	text = copy;
	if (data[0] < PROBE_TEXT_COUNT) {
		struct probe_texts t;
		memset(&t, 0, sizeof(t));
		t.buf[data[0]] = text;
		t.len[data[0]] = len;
		t.name[data[0]] = "fuzz";
		if (probe_parse_texts(&t, 1u << data[0], &s, err, sizeof(err)) < 0 &&
		    (!err[0] || strchr(err, '\n')))
			abort();        /* an error must be one line, never empty */
	} else {
		long no;
		if (probe_parse_trace_sample(text, len, "fuzz", &s, &no, err, sizeof(err)) < 0 &&
		    (!err[0] || strchr(err, '\n')))
			abort();
	}
	if (s.ndisks < 0 || s.ndisks > s.disks_cap)
		abort();
	free(copy);
	return 0;
}
