/* libFuzzer target: the "auto" parser (see fuzz_parse_body.h). */
#define PARSER_NAME "auto"
#include "fuzz_parse_body.h"
