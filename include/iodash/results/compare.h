/* compare: what `iodash compare SRC...` shows: recordings and text files
 * (benchmark output, mails with result tables) mixed; one curve per label
 * and metric (stats.h), and for recordings the time series of each run
 * aligned at its start.  Core: no curses; the compare screen (ui) and the
 * --text/--csv/--json printers read the same struct. */
#ifndef IODASH_COMPARE_H
#define IODASH_COMPARE_H

#include <stdio.h>
#include "iodash/results/decide.h"
#include "iodash/results/emit.h"
#include "iodash/model/model.h"
#include "iodash/parsers/parser.h"
#include "iodash/parsers/result_set.h"
#include "iodash/results/runsum.h"
#include "iodash/results/stats.h"

#define COMPARE_RUN_MAX_POINTS 2000   /* per-run series are thinned to this */
/* A run's own figures as result points, so that a sweep of any command
 * compares (x: the x of the run's results, else "run" 1):
 * run_dev_Bps (the disks' bytes a second while the run did I/O),
 * run_rep_Bps (the benchmark's own figure), run_inflation, run_secs,
 * run_throttled_pct, run_peak_dirty_kB, run_freerun_kB, run_thresh_kB. */
#define COMPARE_RUN_METRIC_PREFIX "run_"

/* One benchmark run of a recording (or a whole recording without run
 * events): dirty memory and throughput against seconds since its start. */
struct compare_run {
	char label[RP_LABEL_LEN];
	char source[256];      /* the file */
	int index;             /* 0-based run number within its file */
	int exit_status;       /* from the run_end event, -1 unknown */
	bool stopped;          /* its run_end says stopped on request (Ctrl-C): not failed */
	size_t n;
	double *t;             /* seconds since the run started */
	double *dirty_kb;      /* dirty + writeback (vmstat), KiB */
	double *thresh_kb;     /* the hard threshold, KiB (0 unknown) */
	double *freerun_kb;    /* (thresh + bg_thresh) / 2: writers are throttled above it */
	double *bg_kb;         /* the background threshold, KiB */
	double *tput_kBps;     /* all disks: read + write kB/s */
	double t0, t1;         /* the run's span in its recording (session seconds) */
	bool have_summary;     /* its run_summary event: device or page cache */
	struct run_summary sum;
	char knobs[MODEL_LINE_LEN];  /* "KEY=VALUE ..." the run started with, "" unknown */
	char setting[RP_LABEL_LEN];  /* the knobs iodash set for it, "KEY=V,KEY=V" (knobs
	                              * without the twins the kernel zeroed), "" none */
	/* its throttle episodes (hit_start .. hit_end events), seconds since
	 * its start, clipped to the run: one still open at either end of the
	 * run runs to that end */
	struct compare_span { double t0, t1; } *throttled;
	size_t nthrottled;
};

/* Who a label is: the kernel it ran on, where it came from, the knob
 * values of its runs ("k=v" when all runs had v, "k=v1|v2" when they
 * varied, e.g. with the x of a knob sweep). */
struct compare_label {
	char label[RP_LABEL_LEN];
	char kernel[128];
	char host[64];         /* the recording's host, "" for a text source */
	char source[256];
	char knobs[1024];
	char sources[1024];    /* every source it pooled, ", " between them */
	int nsources;
};

struct compare_data {
	struct result_set results;   /* final points of every source; runs renumbered per label;
	                              * and of every recorded run with a summary its own
	                              * figures (metrics run_*: COMPARE_RUN_METRICS) */
	size_t nmetrics;
	char (*metrics)[RP_NAME_LEN];
	struct curve_set *curves;    /* curves[i] is metrics[i] */
	struct compare_run *runs;
	size_t nruns;
	unsigned char *verdicts;     /* per results.v[i]: enum run_verdict of its run */
	double *inflation;           /* per results.v[i]: its run's cache inflation, NAN unknown */
	struct compare_label *labels;
	size_t nlabels;
	char baseline[RP_LABEL_LEN]; /* "" = the first label of each metric */
	size_t nsources;
	/* how the tables of text sources were read (mail tables), with their
	 * file: printed under the --text table and by --explain */
	struct compare_note {
		char source[256];
		struct parser_note n;
	} *notes;
	size_t nnotes;
	/* sweep --until-decided: each point's last decision event (decide.h),
	 * with the label of its runs */
	struct compare_decision {
		char label[RP_LABEL_LEN];
		char source[256];
		struct decide_event e;
	} *decisions;
	size_t ndecisions;
};

/* Load every source (a recording when it starts like one, else a text file
 * through the parsers: parser NULL guesses the format, else that parser,
 * --parser) and build the curves.  metric NULL = all.  Two text sources
 * with one file name in different directories get "dir/name" labels.
 *
 * Labels: -l LABEL as recorded; else, for a recording, the kernel release
 * of its header plus the swept parameters (not the command name), so two
 * kernels' recordings of one command are two curves.  A label that an
 * earlier source already has is never pooled with it: it becomes
 * "LABEL#2" (#3 ...) and a note says so.
 * Returns 0, -ENOENT when no result was found (err says where it looked),
 * -ESRCH for an unknown --baseline or --metric (err lists the known ones),
 * or another -errno with err "FILE: byte N: why". Warnings (torn records,
 * sources without results) go to warn (may be NULL), one per line. */
int compare_load(struct compare_data *cd, char *const *paths, int npaths,
		 const char *baseline, const char *metric, const char *parser,
		 char *err, size_t errlen, FILE *warn);
/* The same with labels given at compare time: names[i] is "SRC=NAME" (SRC
 * the path as given, or its file name).  A label given so, or recorded
 * with -l, is explicit: the sources that share it pool as runs of one
 * label; labels that only came from defaults stay apart (LABEL#2).  For
 * a text source NAME replaces the file-name label; for a recording, the
 * recorded or kernel label (a sweep's other parameters stay after it).
 * -EINVAL when a SRC is none of the sources. */
int compare_load_named(struct compare_data *cd, char *const *paths, int npaths, const char *const *names,
		       int nnames, const char *baseline, const char *metric, const char *parser, char *err,
		       size_t errlen, FILE *warn);
void compare_free(struct compare_data *cd);
/* The notes on how the text sources' tables were read, one a line
 * ("mail.txt:12-22: mmtests table: ..."); only the tables not understood
 * when all is false. */
void compare_print_notes(const struct compare_data *cd, bool all, const char *prefix, FILE *out);

/* The table of every metric: FMT_TEXT (a mail table), FMT_CSV, FMT_JSON. */
int compare_print(const struct compare_data *cd, enum out_format fmt, FILE *out);
/* The text table of metric k (what --text prints for it): per label the
 * mean, for rates the harmonic mean beside it, stddev, CoV, N, change
 * against the baseline with * where Welch's p < 0.05, and the verdict of
 * the runs (device / cache / throttled) where recordings say it. */
void compare_print_text_metric(const struct compare_data *cd, size_t k, FILE *out);
/* The verdicts of the runs behind one point (its tags): "throttled",
 * "cache/device" (distinct, in that order), "" when none is known. */
const char *compare_point_verdict(const struct curve_point *p, char *buf, size_t len);
/* One letter per verdict for a curve point: T throttled, C cache, D device,
 * '+' for a mix, 0 for none. */
char compare_point_mark(const struct curve_point *p);
/* The point of curve c at x, NULL when it has none there. */
const struct curve_point *compare_point_at(const struct curve *c, double x);
/* Every x of any label of cs, ascending, in *out (malloc'd); the count. */
size_t compare_curve_xs(const struct curve_set *cs, double **out);
/* The same for the curves cs->v[first .. end) (one setting's block). */
size_t compare_curve_xs_range(const struct curve_set *cs, size_t first, size_t end, double **out);
/* An x value as the tables print it: whole numbers without a fraction; a
 * whole number of MiB, GiB or TiB (1 MiB and up) in that binary unit
 * ("128M" swept is 134217728 bytes and shows as 128M again). */
void compare_format_x(char *b, size_t n, double x);
/* Which way is better for a metric: +1 higher (bandwidth, IOPS, any rate),
 * -1 lower (latencies, percentiles, elapsed time, a time unit), 0 unknown. */
int compare_metric_better(const char *metric, const char *unit);
/* A throughput unit (MB/sec, KiB/s, IOPS, ops/s): higher is better. */
bool compare_unit_is_rate(const char *unit);

#endif
