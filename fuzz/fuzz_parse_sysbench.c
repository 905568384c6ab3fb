/* libFuzzer target: the "sysbench" parser (see fuzz_parse_body.h). */
#define PARSER_NAME "sysbench"
#include "fuzz_parse_body.h"
