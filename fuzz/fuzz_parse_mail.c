/* libFuzzer target: the mail reader, tables*.c (see fuzz_parse_body.h); the
 * "tables" parser is the same reader under another name.  Seeded with every
 * fixture post (tests/fixtures/mail, the seed mails) and the working half of
 * tests/fixtures/tables. */
#define PARSER_NAME "mail"
#include "fuzz_parse_body.h"
