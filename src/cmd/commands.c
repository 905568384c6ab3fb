/* The table of subcommands main.c dispatches from (as git's commands[] in
 * git.c): a new command is its file in src/cmd/ and one row here.
 * tests/unit/test_commands.c checks every row. */
#include "cmd/commands.h"

/* In --help's order; the usage lines are --help's first block. */
const struct cmd_struct commands[] = {
	{ "live", CMD_LIVE, "iodash [OPTIONS]                                   live dashboard of this machine",
	  cmd_live, 0 },
	{ "run", CMD_RUN, "iodash run   [-l LABEL] [-o REC] -- CMD [ARG...]   spawn one benchmark",
	  cmd_run, 0 },
	{ "sweep", CMD_SWEEP, "iodash sweep [-l LABEL] [-o REC] -p NAME=V1,V2,... [--repeat N] [--between CMD]\n"
	  "               [-p A,B=A1:B1,A2:B2,...] [--sysctl KEY=VALUE]...\n"
	  "               [--until-decided [--ci PCT] [--baseline REC|NAME=VALUE] [--min-change PCT]\n"
	  "                [--min-repeat N] [--max-repeat N] [--budget DURATION] [--metric NAME]]\n"
	  "               [--stop-on-fail] -- CMD ... {NAME} ...  one run per value",
	  cmd_sweep, 0 },
	{ "attach", CMD_ATTACH, "iodash attach [-l LABEL] [-o REC] [--log FILE] PID  watch a running benchmark",
	  cmd_attach, 0 },
	{ "view", CMD_VIEW, "iodash view  REC...                                 replay recordings",
	  cmd_view, CMD_F_READS_FILES },
	{ "compare", CMD_COMPARE, "iodash compare [--text|--csv|--json] [--svg FILE] [--baseline LABEL] [--label SRC=NAME] [--metric NAME] SRC...",
	  cmd_compare, CMD_F_READS_FILES | CMD_F_ONLY_PRINTS },
	{ "export", CMD_EXPORT, "iodash export [--csv|--ndjson [--table samples|events|results]|--json|--pcp ARCHIVE] REC",
	  cmd_export, CMD_F_READS_FILES | CMD_F_ONLY_PRINTS },
	{ "report", CMD_REPORT, "iodash report [--baseline LABEL] [--label SRC=NAME] [--metric NAME] [--title TEXT] -o FILE.html SRC...\n"
	  "                                                    one self-contained HTML report with graphs",
	  cmd_report, CMD_F_READS_FILES },
	{ "fleet", CMD_FLEET, "iodash fleet [--hosts FILE] HOST[:PORT]...            one row per test box, from its pmcd",
	  cmd_fleet, 0 },
	{ "restore", CMD_RESTORE, "iodash restore                                      put back knobs a killed sweep left",
	  cmd_restore, CMD_F_NO_NOTICE },
};
const size_t cmd_count = sizeof(commands) / sizeof(commands[0]);
