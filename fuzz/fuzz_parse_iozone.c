/* libFuzzer target: the "iozone" parser (see fuzz_parse_body.h). */
#define PARSER_NAME "iozone"
#include "fuzz_parse_body.h"
