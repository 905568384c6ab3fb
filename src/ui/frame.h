/* ui_frame: what one frame of the live (and replay) screen draws, copied
 * from the model under its lock, and the pure maths over it: the zone
 * badge, the disks worth a line, the graph buckets and the time a graph
 * spans.  No curses here (src/ui/frame.c), so it is unit-tested; the
 * panels (src/ui/panels.c) only draw what these return.
 *
 * Fit for ssh: graphs do not scroll by one column per sample (that would
 * resend every cell of every graph each frame): they fill to the right
 * and jump back a quarter of their width when full, and each sub-column
 * aggregates k samples (one refresh), so a frame usually changes one
 * column. */
#ifndef IODASH_UI_FRAME_H
#define IODASH_UI_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iodash/model/history.h"
#include "iodash/model/model.h"
#include "iodash/results/stats.h"
#include "iodash/sample/disk_filter.h"
#include "ui/theme.h"

#define FRAME_OUT_LINES 64
#define FRAME_EVENTS 256         /* the events pane scrolls back this far */
/* Rows the disk panels list at most (a sample holds any number of
 * devices: the busiest FRAME_DISKS, by the sort key, are listed) */
#define FRAME_DISKS 256
/* Disks the throughput panel draws a graph for */
#define FRAME_GRAPH_DISKS 16

/* The disk panels' order: busiest by %util, by bytes a second, by name */
enum frame_disk_sort { FRAME_SORT_UTIL, FRAME_SORT_BYTES, FRAME_SORT_NAME, FRAME_SORT_N };
const char *frame_disk_sort_name(int sort);

/* What a frame draws. */
struct frame {
	char host[64], kernel[128], source[MODEL_LINE_LEN];
	char remote_bench[MODEL_LINE_LEN];   /* --host: what an iodash there runs */
	bool replay, sampler_done, bench_done;
	bool had_bench;              /* a benchmark was seen in this session */
	int exit_code;
	char error[MODEL_LINE_LEN];
	struct bench_status bench;
	struct model_throttle thr;   /* writers, control loop, rates (kernel) */
	struct procio_view ctx;      /* the context panel's last scan */
	char ctx_why[MODEL_LINE_LEN];
	bool have_last;
	struct sample last;          /* its disks[] owned by the frame (sample_copy) */
	const struct disk_filter *disk_filter;   /* --disks or the filter key: NULL every device */
	int disk_sort;               /* enum frame_disk_sort */
	int badge_zone;              /* the worst zone of the last refresh period */
	struct history *hist;        /* the model's, copied (history.h); NULL before the first copy */
	int window;                  /* buckets a graph can show: two a column, and slack */
	char out[FRAME_OUT_LINES][MODEL_LINE_LEN];
	int nout;
	uint64_t noutput;
	struct model_event ev[FRAME_EVENTS];
	uint64_t nevents;            /* events in the session: ev[] are the last nev */
	int nev;
	struct result_set rs;
	size_t rs_seen;
	bool rs_changed;
};

/* Copy what the screen shows from the model (a short lock): the newest
 * sample, the graphs' history (only what changed since the last copy),
 * events, output, results; `cols` is the screen's width.  0 or -ENOMEM
 * (then the frame keeps what it had). */
int frame_copy(struct frame *f, struct model *m, int cols);
void frame_free(struct frame *f);

bool frame_bench_active(const struct frame *f);
/* The header's pause rates (the kernel's balance_dirty_pages): the
 * benchmark's while one runs; after it (or without one) the machine's
 * over the last sample, and only while writers pause: a sweep's last
 * "pauses 48/s 576 ms/s" stayed on after it ended.  false: none to say. */
bool frame_pause_rates(const struct frame *f, double *per_s, double *ms_per_s);
/* The share of a single run done, 0..1, by the length its command line
 * says (bench.run_length_s) and the session time of the last sample. */
double frame_run_done(const struct frame *f);
/* The last run_end event held says its run was stopped on request. */
bool frame_last_run_stopped(const struct frame *f);

/* What a curve's legend says of its runs: "3 runs" for one point,
 * "2 runs per point, 6 in all" for a sweep ("1-3 runs per point" when
 * they differ). */
void frame_curve_runs_text(const struct curve *c, char *buf, size_t n);

/* The worst zone of the samples within `period` seconds of the newest. */
int frame_worst_zone(const struct frame *f, double period);
/* The header's badge for a zone and its theme element; the short one
 * fits a one-row header. */
const char *frame_zone_badge(int zone, enum theme_elem *e);
const char *frame_zone_badge_short(int zone);

/* Seconds until dirty+writeback reaches freerun at the rate the level
 * itself rises (derive_time_to_limit over the history's buckets of the
 * last 10 s, else 60 s, else 600 s); < 0 when it
 * is not rising steadily, or would take longer than an hour
 * (FRAME_FREERUN_HORIZON_S) or ten times what was seen.  The kernel's
 * dirtied minus written pages are no measure of it: pages dirtied and
 * deleted (dbench) are never written, and a flat level read "freerun in
 * 455392.7 s". */
#define FRAME_FREERUN_HORIZON_S 3600.0
double frame_time_to_freerun(const struct frame *f);

/* Indexes in last.disks of the disks the filter lets through with I/O in
 * the window or in the last sample, ordered by disk_sort (busiest first),
 * at most max; *idle counts the others the filter lets through (those
 * past max are not idle: the caller says how many more there are).
 * Returns how many there are in all (may be > max).  Linear in the
 * devices but for the sort of the busy ones. */
int frame_active_disks(const struct frame *f, int *idx, int max, int *idle);

/* Seconds between samples: from the points held (a replay's own pace),
 * else `interval` (-i). */
double frame_sample_period(const struct frame *f, double interval);
/* The refresh after + (dir > 0: slower) or - (dir < 0: faster) from
 * `refresh`, in steps of 0.1 .. 10 s, never faster than the samples come
 * (a frame without new data would show nothing new). */
double frame_refresh_step(const struct frame *f, double interval, double refresh, int dir);
/* A graph sub-column: a history bucket and the rates (kB/s, NAN: none)
 * of the disks asked for, in the order asked. */
struct frame_column {
	struct hist_bucket b;
	float rd[FRAME_GRAPH_DISKS], wr[FRAME_GRAPH_DISKS];
};
/* Fill G sub-columns, one history bucket each (out[i] valid where
 * have[i]), with the rates of the newest sample's disks idx[0..ndisks)
 * (at most FRAME_GRAPH_DISKS; rd/wr past them are left as they were);
 * phase 0 or 1 shifts which pair of buckets makes a braille cell. */
void frame_buckets(const struct frame *f, int G, int phase, const int *idx, int ndisks,
		   struct frame_column *out, bool *have);
/* Seconds that G sub-columns span (0 while unknown). */
double frame_window_span(const struct frame *f, int G);
/* Sub-columns a history bucket takes in a graph of G: 1, or, while the
 * history would fill at most half of them, the power of two up to
 * FRAME_ZOOM_MAX that fills most: a run of a few seconds is drawn across
 * the graph, not in its first one or two columns. */
#define FRAME_ZOOM_MAX 32
int frame_zoom(const struct frame *f, int G);
/* The time axis of a graph of G sub-columns (sc a cell, phase as
 * frame_buckets): the cells where session times that are multiples of
 * a round step (1, 2, 5, 10, 15, 30 s, 1 min ...) fall, at least `gap`
 * cells apart, from the left; at most max.  Returns how many. */
struct frame_tick {
	int col;                     /* the cell */
	double t;                    /* session seconds */
};
int frame_time_ticks(const struct frame *f, int G, int phase, int sc, int gap, struct frame_tick *out, int max);

/* The events pane: an event of `kind` that ends the hit the previous
 * event started shares its line; the joined text of such a line. */
bool frame_event_joins_previous(int prev_kind, int kind);
/* The pane's lines among the events held: line j starts at ev[line_ev[j]]
 * whose session index is key[j] (arrays of FRAME_EVENTS).  Returns the
 * number of lines. */
int frame_event_lines(const struct frame *f, uint64_t *key, int *line_ev);
/* The line a selection (a key) stands on now: the line of that key, or
 * the first after it when it went (0 when every line is newer). */
int frame_event_line_of(const uint64_t *key, int n, uint64_t sel);
void frame_joined_hit_text(const char *start, const char *end, char *out, size_t n);

/* The context panel's process rows: the top writers, then the top
 * readers not listed already, at most max.  Returns how many. */
int frame_context_rows(const struct procio_view *c, const struct procio_row **rows, int max);
/* Its devices: indexes in c->devs of the disks that did I/O over the
 * scan (and of their partitions when `partitions`), at most max; *idle
 * counts the devices left out for doing none. */
int frame_context_devs(const struct procio_view *c, bool partitions, int *idx, int max, int *idle);

#endif
