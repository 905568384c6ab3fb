/* libFuzzer target: the "tables" reader of result tables (see fuzz_parse_body.h). */
#define PARSER_NAME "tables"
#include "fuzz_parse_body.h"
