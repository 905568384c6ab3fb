/* text: what the machine formats (export's JSON and CSV, --batch) need to
 * keep a benchmark's bytes from breaking them: a benchmark may print
 * anything, including bytes that are not UTF-8 and control bytes. */
#ifndef IODASH_TEXT_H
#define IODASH_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Length (1-4) of the well-formed UTF-8 sequence at s (RFC 3629: no
 * overlong forms, no surrogates, nothing past U+10FFFF), or 0 when the
 * byte at s does not start one (or *s is NUL). */
size_t text_utf8_len(const char *s);

/* s as one line of plain text: control bytes (but TAB) and bytes that are
 * not UTF-8 become \xHH, so the text never ends or rewrites the line. */
void text_put_line_safe(FILE *out, const char *s);

/* A number of the machine formats: %.*g with `digits` significant digits;
 * a missing figure (NaN, infinite) is JSON's null, or nothing (an empty
 * CSV cell) when json is false. */
void text_put_number(FILE *out, double v, int digits, bool json);

#endif
