/* libFuzzer target: the "bonnie" parser (see fuzz_parse_body.h). */
#define PARSER_NAME "bonnie"
#include "fuzz_parse_body.h"
