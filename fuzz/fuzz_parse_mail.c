/* libFuzzer target: the "mail" parser (see fuzz_parse_body.h). */
#define PARSER_NAME "mail"
#include "fuzz_parse_body.h"
