/* `iodash attach PID`: watch a benchmark that runs already; leave it
 * running at the end. */
#include "cmd/commands.h"
#include "cmd.h"

int cmd_attach(const struct iodash_opts *o)
{
	return cmd_bench_run(o);
}
