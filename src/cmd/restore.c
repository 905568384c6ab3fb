/* `iodash restore`, and the notice at every start: kernel knobs that a
 * sweep killed by SIGKILL, a crash or a reboot left changed (knobs.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cmd/commands.h"
#include "iodash/probe/knobs.h"

void cmd_knobs_notice(FILE *err)
{
	enum knobs_journal_state st;
	char msg[1024];
	pid_t pid;

	if (knobs_journal_check(&st, &pid, msg, sizeof(msg)) < 0 && !msg[0])
		return;       /* an unreadable journal is restore's to say */
	if (st == KJ_CHANGED)
		fprintf(err, "iodash: kernel knobs still changed by an iodash that did not end (pid %d, journal %s): %s; run iodash restore to put them back\n",
			(int)pid, knobs_journal_path(), msg);
}

int cmd_restore(const struct iodash_opts *o)
{
	struct knob_change chg[KNOBS_MAX * 2];
	char msg[1024];
	int n = 0, rc;

	(void)o;
	rc = knobs_journal_recover(chg, KNOBS_MAX * 2, &n, msg, sizeof(msg));
	for (int i = 0; i < n; i++)
		printf("%s %s -> %s\n", chg[i].key, chg[i].old_value, chg[i].new_value);
	if (rc == -ENOENT) {
		printf("iodash: %s\n", msg);
		return 0;
	}
	if (rc) {
		fprintf(stderr, "iodash restore: %s\n", msg);
		return 1;
	}
	printf("iodash: %s\n", msg);
	return 0;
}
