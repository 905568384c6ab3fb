/* libFuzzer target: the "dbench" parser (see fuzz_parse_body.h). */
#define PARSER_NAME "dbench"
#include "fuzz_parse_body.h"
