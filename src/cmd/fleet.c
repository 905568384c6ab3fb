/* `iodash fleet HOST...`: a lab of test machines at a glance (fleet.h),
 * on the fleet screen or, with --batch, as one line per host per refresh:
 *   T HOST STATE KERNEL ZONE LEVEL_KB FREERUN_KB THRESH_KB DISK RKB_S WKB_S HITS THROTTLED_S BENCH
 * n/a as "-"; an unreachable host's reason follows "# ". */
#include <errno.h>
#include <stdlib.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cmd/commands.h"
#include "iodash/session/fleet.h"
#include "iodash/base/signals.h"
#include "iodash/base/text.h"
#include "iodash/ui/ui.h"
#include "iodash/base/util.h"
#include "cmd.h"

/* What a host's pmcd says (its kernel, disk names, an iodash's label)
 * comes from outside: through the text sanitizer, never raw. */
static void fleet_put(FILE *out, const char *s)
{
	text_put_line_safe(out, s[0] ? s : "-");
}

static void fleet_print_row(FILE *out, double t, const struct fleet_row *r)
{
	fprintf(out, "%.2f ", t);
	fleet_put(out, r->host);
	fprintf(out, " %s ", fleet_state_name(r->state));
	fleet_put(out, r->kernel);
	if (r->have_sample && r->now.have_dirty)
		fprintf(out, " %s %llu %llu %llu", dirty_zone_name(r->now.zone),
			(unsigned long long)r->now.level_kb, (unsigned long long)r->now.freerun_kb,
			(unsigned long long)r->now.thresh_kb);
	else
		fputs(" - - - -", out);
	if (r->have_sample && r->now.disk[0]) {
		fputc(' ', out);
		fleet_put(out, r->now.disk);
		fprintf(out, " %.1f %.1f", r->now.rkB_s, r->now.wkB_s);
	} else
		fputs(" - - -", out);
	fprintf(out, " %u %.1f", r->hits, r->throttled_s);
	if (r->iodash.have) {
		fputc(' ', out);
		fleet_put(out, r->iodash.state);
		fputc(':', out);
		fleet_put(out, r->iodash.label);
		fprintf(out, ":%u/%u:failed=%u:eta=%u", r->iodash.run, r->iodash.runs, r->iodash.failed,
			r->iodash.eta_s);
	} else {
		fputs(" -", out);
	}
	if (r->state == FLEET_UNREACHABLE) {
		fputs(" # ", out);
		fleet_put(out, r->why);
	}
	fputc('\n', out);
}

/* Until --count rounds or --duration, or a signal; each refresh, a block
 * of lines (a host's line only once it has been polled). */
static int fleet_batch(struct fleet *f, const struct iodash_opts *o, struct fleet_row *rows, size_t n)
{
	uint64_t start = util_mono_ns(), printed_round = 0;
	long blocks = 0;

	printf("# time host state kernel zone level_kb freerun_kb thresh_kb disk rkB_s wkB_s hits_%dm throttled_s bench\n",
	       FLEET_WINDOW_S / 60);
	for (;;) {
		double t = (double)(util_mono_ns() - start) / 1e9;
		if (signals_any())
			break;
		if (o->duration > 0 && t > o->duration + 1e-6)
			break;
		struct fleet_summary sum;
		size_t k = fleet_rows(f, rows, n, &sum);
		if (sum.rounds > printed_round) {
			printed_round = sum.rounds;
			for (size_t i = 0; i < k; i++)
				fleet_print_row(stdout, t, &rows[i]);
			if (fflush(stdout) == EOF || ferror(stdout))
				return 0;        /* the reader went away: done, as compare */
			if (o->count && ++blocks >= o->count)
				break;
		}
		poll(NULL, 0, (int)(o->refresh * 1000));
	}
	return 0;
}

/* Any number of hosts: the list, the names and the rows are as long as
 * the command line and the --hosts file make them. */
int cmd_fleet(const struct iodash_opts *o)
{
	struct fleet_hosts hl = { 0 };
	const char **names = NULL;
	struct fleet_row *rows = NULL;
	char err[512];
	struct fleet *f;
	int rc;

	if (o->hosts_file && (rc = fleet_read_hosts(o->hosts_file, &hl, err, sizeof(err)))) {
		fprintf(stderr, "iodash fleet: %s\n", err);
		fleet_hosts_free(&hl);
		return rc == -EINVAL || rc == -ENODATA ? 2 : 1;
	}
	for (int i = 0; i < o->nargs; i++)
		if ((rc = fleet_hosts_add(&hl, o->args[i]))) {
			fprintf(stderr, "iodash fleet: %s\n", rc == -ENOMEM ? "out of memory" :
				"a host name is empty or longer than 127 bytes");
			fleet_hosts_free(&hl);
			return rc == -ENOMEM ? 1 : 2;
		}
	if (!o->batch && (rc = ui_check_terminal(err, sizeof(err)))) {
		fprintf(stderr, "iodash: %s\n", err);
		fleet_hosts_free(&hl);
		return 2;
	}
	if (!(names = malloc(hl.n * sizeof(*names))) || !(rows = malloc(hl.n * sizeof(*rows)))) {
		fprintf(stderr, "iodash fleet: out of memory for %zu hosts\n", hl.n);
		free(names);
		fleet_hosts_free(&hl);
		return 1;
	}
	for (size_t i = 0; i < hl.n; i++)
		names[i] = hl.name[i];
	rc = fleet_start(&f, names, hl.n, o->interval, err, sizeof(err));
	free(names);
	if (rc) {
		fprintf(stderr, "iodash fleet: %s\n", err);
		free(rows);
		fleet_hosts_free(&hl);
		return rc == -EINVAL ? 2 : 1;
	}
	signals_install();
	if (o->batch) {
		rc = fleet_batch(f, o, rows, hl.n);
	} else {
		struct ui_look look;
		cmd_ui_look(o, &look);
		rc = ui_fleet_run(f, &look, o->interval, rows, hl.n);
	}
	fleet_stop(f);
	free(rows);
	fleet_hosts_free(&hl);
	return rc;
}
