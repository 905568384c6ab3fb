/* `iodash sweep -p NAME=V1,V2 -- CMD {NAME}`: one run per value (and
 * --repeat), each its own run in one recording; with --until-decided
 * the runs go where the answer is not yet known (bench/sweep.h), and
 * --baseline REC is the recording each point is compared with. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "cmd/commands.h"
#include "cmd.h"
#include "iodash/record/recording.h"

/* The final result points of the --baseline recording. */
static int load_baseline(const char *path, struct result_set *rs)
{
	struct recording *rec;
	char err[512];
	int rc;

	if ((rc = recording_open(&rec, path, err, sizeof(err)))) {
		fprintf(stderr, "iodash: --baseline %s (give the recording of the other kernel or setting)\n", err);
		return rc;
	}
	rc = recording_load_results(rec, false, rs);
	recording_close(rec);
	if (rc) {
		fprintf(stderr, "iodash: --baseline %s: %s\n", path, strerror(-rc));
		return rc;
	}
	if (!rs->n) {
		fprintf(stderr, "iodash: --baseline %s: the recording holds no results to compare with\n", path);
		return -ENODATA;
	}
	return 0;
}

/* --baseline NAME=VALUE with NAME one of the -p: a point of the sweep
 * itself, not a recording. */
static bool baseline_is_param(const struct iodash_opts *o)
{
	const char *eq = strchr(o->baseline, '=');

	for (int i = 0; eq && i < o->nparams; i++) {
		const char *pe = strchr(o->params[i], '=');
		if (pe && pe - o->params[i] == eq - o->baseline && !strncmp(o->params[i], o->baseline, (size_t)(eq - o->baseline)))
			return true;
	}
	return false;
}

int cmd_sweep(const struct iodash_opts *o)
{
	struct result_set base = { 0 };
	struct bench_config bc;
	int rc;

	if (!o->until_decided || !o->baseline)
		return cmd_bench_run(o);
	if (baseline_is_param(o)) {
		cmd_bench_config(o, &bc);
		bc.decide.baseline_param = o->baseline;
		return cmd_bench_run_config(o, &bc);
	}
	if (load_baseline(o->baseline, &base)) {
		result_set_free(&base);
		return 1;
	}
	cmd_bench_config(o, &bc);
	bc.decide.baseline = &base;
	bc.decide.baseline_name = o->baseline;
	rc = cmd_bench_run_config(o, &bc);
	result_set_free(&base);
	return rc;
}
