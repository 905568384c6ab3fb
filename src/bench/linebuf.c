/* Display lines from a pty byte stream.  The parser gets the raw bytes;
 * this only decides what the output pane and the recording show. */
#include <string.h>
#include "iodash/bench/linebuf.h"

void bench_linebuf_init(struct bench_linebuf *lb)
{
	memset(lb, 0, sizeof(*lb));
}

static void linebuf_end(struct bench_linebuf *lb,
			void (*emit)(void *ctx, const char *line), void *ctx)
{
	lb->buf[lb->len] = '\0';
	emit(ctx, lb->buf);
	lb->len = 0;
}

void bench_linebuf_feed(struct bench_linebuf *lb, const char *data, size_t len,
			void (*emit)(void *ctx, const char *line), void *ctx)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)data[i];
		bool was_cr = lb->cr, was_cr_line = lb->cr_line;

		lb->cr = lb->cr_line = false;
		/* Terminal escapes would repaint the user's screen in --batch
		 * and in the recording: drop CSI/OSC sequences whole. */
		if (lb->esc == 1) {
			lb->esc = ch == '[' ? 2 : ch == ']' ? 3 : 0;
			continue;
		}
		if (lb->esc == 2) {
			if (ch >= 0x40 && ch <= 0x7e)
				lb->esc = 0;
			continue;
		}
		if (lb->esc == 3) {
			if (ch == 0x07)
				lb->esc = 0;
			else if (ch == 0x1b)
				lb->esc = 1;   /* ST is ESC \ */
			continue;
		}
		if (ch == 0x1b) {
			lb->esc = 1;
			continue;
		}
		if (ch == '\n') {
			/* \r\n was already ended at the \r; an empty \r\n
			 * is an empty line of the output */
			if (!(was_cr && was_cr_line))
				linebuf_end(lb, emit, ctx);
			continue;
		}
		if (ch == '\r') {
			/* a lone \r redraws a status line: each update is a line,
			 * but empty redraws (padding, \r\r) are not */
			lb->cr_line = lb->len > 0;
			if (lb->len)
				linebuf_end(lb, emit, ctx);
			lb->cr = true;
			continue;
		}
		if (ch < 0x20 && ch != '\t')
			continue;
		if (ch == 0x7f)
			continue;
		if (lb->len == BENCH_LINE_MAX)
			linebuf_end(lb, emit, ctx);
		lb->buf[lb->len++] = (char)ch;
	}
}

void bench_linebuf_flush(struct bench_linebuf *lb,
			 void (*emit)(void *ctx, const char *line), void *ctx)
{
	if (lb->len)
		linebuf_end(lb, emit, ctx);
	lb->cr = lb->cr_line = false;
	lb->esc = 0;
}
