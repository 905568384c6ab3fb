/* replay: a recording played back into a model by its own thread, as the
 * sampler feeds a live one: what `iodash view` shows, through the same
 * front ends.  The command opens it, starts it, runs its front end on
 * replay_model(), then stops and closes it.  Core: no printing, no curses.
 */
#ifndef IODASH_REPLAY_H
#define IODASH_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include "iodash/model/model.h"

struct replay;

struct replay_config {
	bool batch;            /* every sample in order, paced by the batch front end */
	bool follow;           /* batch: at the end, keep printing as the file grows */
	int file_no, nfiles;   /* view A B: which file, 1-based, of how many */
};

/* 0, or -errno with err "FILE: why". */
int replay_open(struct replay **out, const char *path, const struct replay_config *cfg,
		char *err, size_t errlen);
/* What the reader found wrong but could read past (a torn tail), "" none. */
const char *replay_warning(const struct replay *r);
struct model *replay_model(struct replay *r);
/* Seconds a graph bucket of this recording stands for: `refresh`, or for
 * a finished recording too short to fill REPLAY_MIN_BUCKETS of them, its
 * length over that many (never below its sampling interval): a run of
 * 2.5 s sampled every 0.05 s is 50 points on the graphs, not 2. */
#define REPLAY_MIN_BUCKETS 64
double replay_graph_seconds(struct replay *r, double refresh);
/* Start the replay thread: 0, or -errno with err filled. */
int replay_start(struct replay *r, char *err, size_t errlen);
/* Ask the thread to end and wait for it (after the front end returned). */
void replay_stop(struct replay *r);
void replay_close(struct replay *r);

/* The key protocol with the ui.
 * The replay's model.key_hook takes curses key codes; these are their
 * values (checked against curses.h where the ui includes it), so the core
 * stays free of curses.  Left/right: one sample; '[' ']': one minute;
 * Home/End: the ends; 'g': a "go to" prompt (then digits, ':', '.', '+',
 * '-', Backspace, Enter, Esc) whose text shows in model.source.  While
 * the prompt is open the hook returns true for every key: the ui offers
 * keys to the hook first.  Space
 * is the ui's pause: a paused replay stands still, else it plays (at the
 * end: follows the file as it grows). */
#define REPLAY_KEY_LEFT 0404
#define REPLAY_KEY_RIGHT 0405
#define REPLAY_KEY_HOME 0406
#define REPLAY_KEY_BACKSPACE 0407
#define REPLAY_KEY_ENTER 0527
#define REPLAY_KEY_END 0550

/* Parse a "go to" time: [+|-][[H:]M:]S[.f] (session seconds; + and -
 * relative to now_t).  0, or -EINVAL. */
int replay_parse_time(const char *s, double now_t, double *out);

#endif
