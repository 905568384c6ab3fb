/* model: what the front ends (ui, batch) show, fed by producers (sampler
 * thread, benchmark driver, replay).  Producers change it under lock, with
 * the model_add_* / model_set_* functions below, and then notify; front
 * ends poll model_wake_fd() and copy what they draw under a short lock.
 * An observer (the recorder) sees every sample, event, output line and
 * result as it is added.  The way back, front end to producer, is the
 * command queue (model_post_cmd): a key hook runs on the front end's
 * thread and never touches its producer's state, it posts a command.
 *
 * Waking costs: a sample, an output line, a result or a progress figure
 * wakes a front end only where it asked for each (wake_on_sample: batch
 * prints every sample; --fast keeps pace with its front end); the screen
 * wakes for its own refresh and looks at gen.  Events, a benchmark's
 * state changing, the end and errors wake every front end at once. */
#ifndef IODASH_MODEL_H
#define IODASH_MODEL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "iodash/sample/derive.h"
#include "iodash/model/history.h"
#include "iodash/model/series.h"
#include "iodash/parsers/result_set.h"
#include "iodash/parsers/parser.h"
#include "iodash/throttle/ktrace.h"
#include "iodash/probe/procio.h"

#define MODEL_EVENT_CAP 1024
#define MODEL_OUTPUT_CAP 512
#define MODEL_LINE_LEN 256
#define MODEL_CMD_CAP 32              /* commands waiting for the producer */
#define MODEL_CMD_TEXT 32

/* A command from the front end to its producer (replay time travel).
 * kind is the producer's own (> 0); MODEL_CMD_QUIT is the model's. */
#define MODEL_CMD_QUIT (-1)           /* the front end is gone: stop (never dropped) */
#define MODEL_CMD_SEEK (-2)           /* a replay: show the session as at second arg */
struct model_cmd {
	int kind;
	double arg;
	char text[MODEL_CMD_TEXT];
};

enum model_event_kind {
	MEV_HIT_START, MEV_HIT_END,   /* dirty limit hit and its end */
	MEV_MARK,                     /* user pressed m */
	MEV_RUN_START, MEV_RUN_END,   /* benchmark run boundaries (text has status) */
	MEV_NOTE,                     /* anything else worth a line (errors, SIGHUP) */
	MEV_KNOB,                     /* a kernel knob changed (old -> new), or the knobs of a run */
	MEV_RUN_SUMMARY,              /* what a run measured: device or page cache (runsum.h) */
	MEV_DECISION,                 /* sweep --until-decided: a point's state after its run (bench/sweep.h) */
};

struct model_event {
	enum model_event_kind kind;
	double t;                     /* session seconds (same clock as sample.t) */
	char text[MODEL_LINE_LEN];
};

struct output_line {
	double t;
	int run;                      /* run number in the session (0-based) */
	char text[MODEL_LINE_LEN];
};

enum bench_state { BENCH_NONE, BENCH_STARTING, BENCH_RUNNING, BENCH_BETWEEN, BENCH_DONE };

/* The benchmark side, as the header and panels show it. */
struct bench_status {
	enum bench_state state;
	char command[MODEL_LINE_LEN]; /* what runs now ("" when nothing) */
	char label[RP_LABEL_LEN];
	pid_t pid;
	int run_index, run_total;     /* 1-based position in a sweep; total 0 if not a sweep */
	int runs_failed;
	double run_start_t;           /* session seconds */
	double eta_s;                 /* < 0 unknown */
	double run_length_s;          /* how long this run takes, as its command line says; < 0 unknown */
	bool run_length_at_most;      /* ... or less (fio without time_based) */
	int last_exit_status;         /* -1 unknown */
	int last_signal;              /* 0 none */
	bool attached;                /* attach: watched, never signalled; its exit status is unknowable */
	bool left_running;            /* attach: iodash stopped watching, the process goes on */
	/* followed process tree */
	int ntasks;
	int throttled_tasks;          /* state D, wchan balance_dirty_pages */
	double read_Bps, write_Bps, rchar_Bps, wchar_Bps;
	bool have_tracepoint;         /* --trace-throttle active */
	double pauses_per_s, pause_ms_per_s;
	uint64_t pauses_total;
	double pause_total_ms;
	/* throttle episodes of the run in progress (or the last), live only:
	 * the session's count is the sample's */
	bool have_run_hits;
	unsigned run_hits;
	struct parser_progress progress;
};

/* Throttling now, as the live screen's throttle panel shows it. */
struct model_throttle {
	enum throttle_source src;     /* kernel (tracefs) or sampled zone */
	char why_sampled[MODEL_LINE_LEN]; /* why not the kernel ("" when it is) */
	char note[MODEL_LINE_LEN];    /* what following it did ("mounted tracefs ...", the instance) */
	struct kt_window last;        /* the last sample's window (kernel only) */
	double last_dt;               /* its length in seconds */
	uint64_t pauses_total;        /* since the session began (kernel only) */
	double paused_ms_total;
	bool in_episode;
	double episode_start_t;       /* session seconds */
	unsigned episodes;
	/* episode cuts at a run's start and end (throttle_follow_cut): asked
	 * by the driver, applied in time order by the sampler */
	struct kt_cut cuts[KT_MAX_CUTS];
	int ncuts;
	unsigned cut_tickets, cuts_done;
	struct thr_run run;           /* the run in progress, or the last one */
};

struct model_observer {
	void (*on_sample)(void *ctx, const struct sample *s);
	void (*on_event)(void *ctx, const struct model_event *e);
	void (*on_output)(void *ctx, const struct output_line *l);
	void (*on_result)(void *ctx, const struct result_point *p);
	void (*on_bench)(void *ctx, const struct bench_status *b);  /* throttle counts per sample */
	void *ctx;
};

struct model {
	pthread_mutex_t lock;
	int wake_pipe[2];             /* one byte per notify; non-blocking */

	/* what is being watched, for the header */
	char host[64];
	char kernel[128];
	char source[MODEL_LINE_LEN];  /* "live /proc", "trace DIR", "recording FILE" */
	/* --host: the benchmark an iodash on that host publishes, "" none */
	char remote_bench[MODEL_LINE_LEN];
	bool replay;                  /* a recording or trace, not this machine now */
	bool replay_seekable;         /* a recording in view: paused, it still moves on seeks */

	/* The newest samples, for a front end that takes each one (batch,
	 * the benchmark driver's run summary): a short queue, not history. */
	struct series series;
	/* What the graphs show, folded as samples come; NULL until a screen
	 * asks for it (model_keep_history). */
	struct history *hist;
	/* The rings below are allocated apart (fresh zero pages), so a
	 * session holds only the pages its events and lines have filled:
	 * together 400 KB, most of which a quiet hour never touches. */
	struct model_event *events;   /* MODEL_EVENT_CAP */
	uint64_t nevents;             /* total added; ring index = n % CAP */
	struct output_line *output;   /* MODEL_OUTPUT_CAP */
	uint64_t noutput;
	struct result_set results;    /* final points only; progress points go to the observer */
	struct bench_status bench;
	struct model_throttle thr;
	/* The context panel's data (procio.h): the sampler scans /proc at
	 * most once a second, and only while a front end shows the panel
	 * (ctx_wanted, model_want_context); ctx_why says why there is none
	 * (a replay, --host: not this machine's /proc). */
	bool ctx_wanted;
	struct procio_view ctx;
	char ctx_why[MODEL_LINE_LEN];

	bool sampler_done;            /* no more samples will come (count, duration, trace end, error) */
	bool bench_done;              /* the benchmark or sweep has finished (or none was asked for) */
	bool with_bench;              /* one was asked for: set before the session starts, never changed
	                               * (bench_done may already be true when a front end first looks) */
	int exit_code;                /* what iodash should exit with when done */
	char error[MODEL_LINE_LEN];   /* last fatal error of a producer, "" if none */

	/* front-end requests to producers (set by ui/batch, read by producers) */
	bool paused;                  /* display paused; sampling continues (model_set_paused) */
	void (*stop_bench)(void *ctx);/* ask the benchmark to stop (Ctrl-C) */
	void *stop_bench_ctx;
	/* keys the ui does not handle itself (replay time travel) go here;
	 * return true when handled.  Called on the front end's thread: it
	 * keeps its own state and posts commands, never reads the producer's. */
	bool (*key_hook)(void *ctx, int key);
	void *key_ctx;
	/* the command queue: cmds[(cmd_first + i) % CAP], i < ncmds */
	pthread_cond_t cmd_cond;      /* signalled on post and on pause */
	struct model_cmd cmds[MODEL_CMD_CAP];
	unsigned cmd_first, ncmds;
	bool cmd_quit;

	struct model_observer obs;    /* obs.ctx NULL: none */

	/* The front end ends the session: stop sampling now, so the events
	 * of its end (an open episode's close) are in the model to print.
	 * NULL when there is no sampler (view). */
	void (*halt_sampler)(void *ctx);
	void *halt_ctx;

	uint64_t t0_mono_ns;          /* first sample's CLOCK_MONOTONIC; 0 until then (atomic: model_set_t0) */
	uint64_t clock0_mono_ns;      /* CLOCK_MONOTONIC of session second 0 for --time mono
				       * (live: t0_mono_ns; view: the recording's; atomic too) */

	/* --fast replay only: the front end's count of samples it has taken,
	 * so the sampler never overruns the ring it has not read yet */
	uint64_t consumed;
	/* batch's count of events and output lines taken: a batch replay
	 * waits for room in those rings too, so it prints every one */
	uint64_t consumed_events, consumed_output;
	bool backpressure;
	bool wake_on_sample;          /* set before the producers start */
	uint64_t gen;                 /* +1 on every change of what is shown */
};

int model_init(struct model *m, size_t series_cap);
void model_free(struct model *m);
void model_lock(struct model *m);
void model_unlock(struct model *m);
/* Wake the front end for news it shows at once: call after unlocking. */
void model_notify(struct model *m);
/* Wake it for data it may take at its next refresh (a replay's step). */
void model_notify_data(struct model *m);
/* What changed since a front end last looked (under the lock). */
uint64_t model_gen_locked(const struct model *m);
int model_wake_fd(const struct model *m);
/* Read and discard pending wake bytes; true if one was news. */
bool model_drain_wake(struct model *m);

/* A screen's graphs: fold every sample into buckets of `width` seconds
 * from now on (those still in the series too).  0 or -ENOMEM. */
int model_keep_history(struct model *m, double width);

/* These take the lock themselves, call the observer, and notify. */
void model_add_sample(struct model *m, const struct sample *s);
void model_add_event(struct model *m, enum model_event_kind kind, double t,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void model_add_output(struct model *m, double t, int run, const char *line);
void model_add_result(struct model *m, const struct result_point *p);
/* Copy of the bench status with the lock held briefly. */
void model_set_bench(struct model *m, const struct bench_status *b);
/* The header's "what is watched" line; a fatal error of a producer. */
void model_set_source(struct model *m, const char *source);
/* --host: what an iodash there runs, as one line ("" none); notifies only
 * when it changed. */
void model_set_remote_bench(struct model *m, const char *text);
void model_set_error(struct model *m, const char *error);
/* The context panel: a front end says whether it shows it; the sampler
 * gives each scan (why: "" or why nothing can be scanned). */
void model_want_context(struct model *m, bool want);
void model_set_context(struct model *m, const struct procio_view *v, const char *why);

/* For a producer that rebuilds what is shown in one step (a replay seek),
 * so the front end never draws a half-built model: the caller holds the
 * lock.  No observer is called: what is replayed was observed when it was
 * recorded. */
void model_clear_locked(struct model *m);
void model_put_sample_locked(struct model *m, const struct sample *s);
void model_put_event_locked(struct model *m, const struct model_event *e);
void model_put_output_locked(struct model *m, const struct output_line *l);

/* Front end -> producer.  model_set_paused also wakes a producer waiting
 * in model_wait_cmd, so a replay stops at once. */
void model_set_paused(struct model *m, bool paused);
bool model_is_paused(struct model *m);
/* Queue a command (kind MODEL_CMD_QUIT: a flag that cannot be lost).
 * 0, or -EAGAIN when the queue is full (the producer is stuck). */
int model_post_cmd(struct model *m, int kind, double arg, const char *text);
/* The producer takes the oldest command, waiting up to timeout_s (0: do
 * not wait).  true with *c filled, false on time out or when paused
 * changed.  A quit comes first: what was queued before it is moot. */
bool model_wait_cmd(struct model *m, struct model_cmd *c, double timeout_s);

/* Session seconds now (same clock as samples): for producers that are not
 * the sampler, so output lines and events line up with samples. */
double model_now(const struct model *m);
/* Set by the sampler when the first sample is taken (mono ns). */
void model_set_t0(struct model *m, uint64_t t0_mono_ns);

const char *model_event_kind_name(enum model_event_kind k);
/* A run_end event's verdict is "ok", "FAILED" or this: the run was
 * stopped on request (Ctrl-C, SIGTERM), which is no failure. */
#define MODEL_RUN_STOPPED "stopped"
/* Whether a run_end event's text ("run 2/3 stopped: killed by SIGINT
 * after 3.1 s ...") says its run was stopped on request. */
bool model_run_end_stopped(const char *text);

#endif
