/* libFuzzer target: the two readers of a benchmark's raw streams, the pty
 * line splitter (escape sequences, \r updates, overlong lines) and the
 * trace_pipe counter of balance_dirty_pages pauses, fed in pieces. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/bench.h"
#include "iodash/tracefs.h"

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
	struct tracefs tf;
	size_t lines = 0;
	unsigned seed = (unsigned)size * 2654435761u;

	bench_linebuf_init(&lb);
	memset(&tf, 0, sizeof(tf));
	tf.pipe_fd = -1;
	for (size_t off = 0; off < size;) {
		seed = seed * 1103515245u + 12345u;
		size_t n = 1 + (seed >> 16) % 257;
		if (n > size - off)
			n = size - off;
		bench_linebuf_feed(&lb, (const char *)data + off, n, check_line, &lines);
		tracefs_feed(&tf, (const char *)data + off, n);
		off += n;
	}
	bench_linebuf_flush(&lb, check_line, &lines);
	if (tf.plen > sizeof(tf.part) || tf.pause_ms_total < 0)
		abort();
	return 0;
}
