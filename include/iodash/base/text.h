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
/* The same rule over len bytes (a NUL byte is escaped too), keeping the
 * line ends when newlines: what reaches a terminal from outside (labels,
 * file and disk names) goes through it, so no escape sequence does.  C1
 * controls (U+0080-U+009F, a CSI to some terminals) are escaped too. */
void text_put_safe(FILE *out, const char *s, size_t len, bool newlines);
/* One line of a message for a person: prefix (ours) as it is, msg (which
 * may name a file, a label) through the rule above, then a newline. */
void text_put_message(FILE *out, const char *prefix, const char *msg);

/* A number of the machine formats: %.*g with `digits` significant digits;
 * a missing figure (NaN, infinite) is JSON's null, or nothing (an empty
 * CSV cell) when json is false. */
void text_put_number(FILE *out, double v, int digits, bool json);
/* printf's "%*.*f" (plus: "%+*.*f") of v, at a tenth of its cost for a
 * figure that is the double nearest a short decimal. */
void text_put_fixed(FILE *out, int width, int dec, bool plus, double v);

/* The value of one hexadecimal digit (either case), -1 when c is none:
 * quoted-printable's =XX in mails, the recording's escapes and CRCs. */
int text_hex_digit(int c);

/* v in the fewest significant digits (%.Ng, N up to 17) that read back as
 * the same double: every digit a benchmark printed, and none it did not
 * (134217728, not 1.34218e+08; 0.1, not 0.10000000000000001). */
char *text_fmt_exact(double v, char *buf, size_t n);

/* A figure for a person to read, the one way every screen writes one:
 * three significant digits (a trailing zero after the point is dropped
 * but one: "2.0 M", "1.46", "12.5", "125"; a whole number without a
 * prefix as it is: "2", "16") and a unit prefix, so that the digits stay
 * below 1000.  v is in units of base^p0 (base 1024: Ki Mi Gi
 * Ti Pi; base 1000: k M G T P), unit follows the prefix.
 *   text_fmt_si(1.57e9, 1024, 0, "B/s", false) -> "1.46 GiB/s"
 *   text_fmt_si(2e6, 1000, 0, "", false)       -> "2.0 M"
 *   text_fmt_si(1e9, 1000, 0, "/s", false)     -> "1.0 G/s"
 * compact (for narrow columns): one upper-case prefix letter and no
 * blank, "128M", "2.5G/s".  NaN or infinite: "n/a".  Returns buf. */
char *text_fmt_si(double v, unsigned base, int p0, const char *unit, bool compact, char *buf,
		  size_t n);

#endif
