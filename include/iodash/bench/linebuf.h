/* bench/linebuf: a benchmark's byte stream as display lines. */
#ifndef IODASH_BENCH_LINEBUF_H
#define IODASH_BENCH_LINEBUF_H

#include <stdbool.h>
#include <stddef.h>

/* Splits a byte stream into display lines: \n, \r\n and a lone \r end a
 * line (a \r-redrawn status line becomes one line per update); escape
 * sequences and control bytes are dropped; lines longer than the cap are
 * cut into pieces so nothing is lost and memory stays bounded. */
#define BENCH_LINE_MAX 255
struct bench_linebuf {
	char buf[BENCH_LINE_MAX + 1];
	size_t len;
	int esc;          /* 0 none, 1 after ESC, 2 in CSI, 3 in OSC */
	bool cr;          /* last byte was \r */
	bool cr_line;     /* ... and it ended a non-empty line */
};
void bench_linebuf_init(struct bench_linebuf *lb);
/* Calls emit for each complete line. */
void bench_linebuf_feed(struct bench_linebuf *lb, const char *data, size_t len,
			void (*emit)(void *ctx, const char *line), void *ctx);
/* Emit what is left (end of output). */
void bench_linebuf_flush(struct bench_linebuf *lb,
			 void (*emit)(void *ctx, const char *line), void *ctx);

#endif
