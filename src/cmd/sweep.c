/* `iodash sweep -p NAME=V1,V2 -- CMD {NAME}`: one run per value (and
 * --repeat), each its own run in one recording. */
#include "cmd/commands.h"
#include "cmd.h"

int cmd_sweep(const struct iodash_opts *o)
{
	return cmd_bench_run(o);
}
