/* libFuzzer target: the "fio" parser (see fuzz_parse_body.h). */
#define PARSER_NAME "fio"
#include "fuzz_parse_body.h"
