/* The options cut into each layer's config: the session's (app.h), the
 * driver's (bench/driver.h), the screens' (ui.h) and --batch's (batch.h).  The
 * one place that knows which option goes where; below src/cmd/ nothing
 * sees struct iodash_opts. */
#include <string.h>
#include "cmd.h"

double cmd_graph_seconds(const struct iodash_opts *o)
{
	return o->refresh > 0 ? o->refresh : 1;
}

void cmd_app_config(const struct iodash_opts *o, struct app_config *ac)
{
	bool runs = o->cmd == CMD_RUN || o->cmd == CMD_SWEEP;

	*ac = (struct app_config){
		.interval = o->interval, .graph_seconds = cmd_graph_seconds(o),
		.count = o->count, .duration = o->duration,
		.proc_root = o->proc_root, .host = o->host, .fast = o->fast, .batch = o->batch,
		.no_publish = o->no_publish, .publish = o->publish, .disks = o->disks,
		.trace_throttle = o->trace_throttle, .no_trace = o->no_trace, .throttle_gap = o->throttle_gap,
		.output = o->output, .force = o->force,
		/* run and sweep record unless told not to; live and attach on -o */
		.record_default = runs && !o->no_record,
		.record_dir = o->record_dir, .label = o->label,
		.bench_argv = runs ? o->args : NULL, .bench_argc = runs ? o->nargs : 0,
	};
}

static enum bench_kind cmd_bench_kind(enum iodash_cmd cmd)
{
	switch (cmd) {
	case CMD_RUN: return BENCH_KIND_RUN;
	case CMD_SWEEP: return BENCH_KIND_SWEEP;
	case CMD_ATTACH: return BENCH_KIND_ATTACH;
	default: return BENCH_KIND_NONE;
	}
}

void cmd_bench_config(const struct iodash_opts *o, struct bench_config *bc)
{
	*bc = (struct bench_config){
		.kind = cmd_bench_kind(o->cmd), .interval = o->interval,
		.label = o->label, .parser = o->parser,
		.argv = o->args, .argc = o->nargs,
		.params = o->params, .nparams = o->nparams, .repeat = o->repeat,
		.between = o->between, .stop_on_fail = o->stop_on_fail,
		.decide = { .on = o->until_decided, .budget_s = o->budget_s,
			    .metric = o->cmd == CMD_SWEEP ? o->metric : NULL,
			    .dc = { .min_repeat = o->min_repeat, .max_repeat = o->max_repeat, .ci_pct = o->ci_pct,
				    .min_change_pct = o->min_change_pct, .alpha = 0.05 } },
		.sysctls = o->sysctls, .nsysctls = o->nsysctls,
		.pid = o->pid, .log = o->log,
		.live_counters = !o->proc_root && !o->host,
	};
}

void cmd_ui_look(const struct iodash_opts *o, struct ui_look *look)
{
	*look = (struct ui_look){ .theme = o->theme, .ascii = o->ascii, .mono = o->mono,
				  .no_braille = o->no_braille };
}

void cmd_ui_config(const struct iodash_opts *o, struct ui_config *uc)
{
	*uc = (struct ui_config){
		.interval = o->interval, .graph_seconds = cmd_graph_seconds(o),
		.timed = o->count || o->duration > 0, .attached = o->cmd == CMD_ATTACH,
		.log2x = o->log2x, .disks = o->disks_list,
	};
	cmd_ui_look(o, &uc->look);
}

void cmd_batch_config(const struct iodash_opts *o, struct batch_config *bc)
{
	*bc = (struct batch_config){
		.time_base = o->time_base, .every_sample = !o->refresh_set, .refresh = o->refresh,
		.ndisk_cols = o->ndisk_cols, .attached = o->cmd == CMD_ATTACH,
		.disks = o->disks_list ? &o->disk_filter : NULL,
	};
	memcpy(bc->disk_cols, o->disk_cols, sizeof(bc->disk_cols));
}
