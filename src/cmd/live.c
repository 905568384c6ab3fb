/* `iodash` (live): the dashboard of this machine, no benchmark. */
#include "cmd/commands.h"
#include "cmd.h"

int cmd_live(const struct iodash_opts *o)
{
	return cmd_session_run(o, NULL);
}
