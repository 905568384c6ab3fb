/* `iodash run -- CMD`: one benchmark on a pty, sampled and recorded. */
#include "cmd/commands.h"
#include "cmd.h"

int cmd_run(const struct iodash_opts *o)
{
	return cmd_bench_run(o);
}
