/* The body of every fuzz_parse_<name> target: the parser PARSER_NAME on any
 * bytes, fed in pieces of varying size (as a pty delivers them).  It must
 * not crash, leak or loop, and the points it gives must keep the result.h
 * contract.  Each target defines PARSER_NAME and includes this file. */
#ifndef PARSER_NAME
#error "define PARSER_NAME before including fuzz_parse_body.h"
#endif
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/parsers/parser.h"

static void check_point(const struct result_point *p)
{
	/* a value is finite, or unknown only when flagged too fast */
	if (!isfinite(p->value) && !(p->flags & RP_TOO_FAST))
		abort();
	if (!isfinite(p->x))
		abort();
	if (p->run < 0 || !memchr(p->label, 0, sizeof(p->label)) || !memchr(p->metric, 0, sizeof(p->metric)) ||
	    !memchr(p->unit, 0, sizeof(p->unit)) || !memchr(p->x_name, 0, sizeof(p->x_name)))
		abort();
	if ((p->flags & RP_INCOMPLETE) && (p->flags & RP_FINAL))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct parser *p = parser_new(PARSER_NAME, "fuzz");
	if (!p)
		abort();
	struct result_set rs = { 0 };
	struct result_sink sink = result_set_sink(&rs);
	unsigned seed = (unsigned)size * 2654435761u;
	for (size_t off = 0; off < size;) {
		seed = seed * 1103515245u + 12345u;
		size_t n = 1 + (seed >> 16) % 301;
		if (n > size - off)
			n = size - off;
		parser_feed(p, (const char *)data + off, n, &sink);
		off += n;
		struct parser_progress pr;
		parser_get_progress(p, &pr);
	}
	parser_finish(p, &sink);
	for (size_t i = 0; i < rs.n; i++)
		check_point(&rs.v[i]);
	parser_free(p);
	result_set_free(&rs);
	return 0;
}
