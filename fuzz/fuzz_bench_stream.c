/* libFuzzer target: the reader of a benchmark's raw stream, the pty line
 * splitter (escape sequences, \r updates, overlong lines), fed in pieces. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/bench/linebuf.h"

static void check_line(void *ctx, const char *line)
{
	size_t *lines = ctx;
	/* a display line is bounded and has no control bytes left */
	size_t n = strnlen(line, BENCH_LINE_MAX + 2);
	if (n > BENCH_LINE_MAX)
		abort();
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
			abort();
	(*lines)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bench_linebuf lb;
	size_t lines = 0;
	unsigned seed = (unsigned)size * 2654435761u;

	bench_linebuf_init(&lb);
	for (size_t off = 0; off < size;) {
		seed = seed * 1103515245u + 12345u;
		size_t n = 1 + (seed >> 16) % 257;
		if (n > size - off)
			n = size - off;
		bench_linebuf_feed(&lb, (const char *)data + off, n, check_line, &lines);
		off += n;
	}
	bench_linebuf_flush(&lb, check_line, &lines);
	return 0;
}
