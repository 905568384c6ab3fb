/* replay: a recording played back through the live screens (`iodash view`).  A replay thread is
 * the model's producer, as the sampler is in a live session: it puts into
 * the model what the live session had at the chosen time (the samples up
 * to it, the events, output lines, results and benchmark status so far),
 * so the screens show the figures the live session showed then.
 *
 *   recording (mmap, index) --replay thread--> model --> the command's front end
 *                   ^ recording_refresh (follow)   |
 *                   +--- model_post_cmd <--------- key_hook (time travel)
 *
 * Two threads, no shared state but the model: the replay thread owns the
 * recording and its position; the key hook (the ui's thread) owns the
 * "go to" prompt being typed and posts commands through the model.
 *
 * Batch: every sample in order, paced by what the batch front end has
 * consumed, so `view --batch` prints what `--batch` printed live. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>
#include "iodash/record/recording.h"
#include "iodash/session/replay.h"
#include "iodash/base/signals.h"
#include "iodash/base/util.h"

#define VIEW_SERIES_CAP 256           /* batch's queue; a screen keeps history apart */
#define VIEW_POLL_S 0.25              /* how often a growing file is looked at */

/* Commands of the key hook to the replay thread (model_post_cmd). */
enum view_cmd {
	VC_STEP = 1,                     /* arg: +1 or -1 sample */
	VC_SEEK_REL,                     /* arg: seconds from the sample shown */
	VC_HOME, VC_END,
	VC_PROMPT,                       /* arg 1: the prompt is open, showing text; 0: closed */
	VC_GOTO,                         /* text: what was typed at the prompt (closes it) */
};

struct replay {
	struct recording *rec;
	struct model *m;
	bool follow;                     /* at the end, wait for the file to grow */
	bool batch;
	pthread_t thread;
	bool started;                    /* the thread runs: replay_stop() joins it */
	/* the key hook's, on the ui thread only */
	bool key_prompt_open;
	char key_prompt[MODEL_CMD_TEXT];
	/* replay thread only */
	bool prompt_open;                /* the prompt as the hook last posted it */
	char prompt[MODEL_CMD_TEXT];
	size_t pos;                      /* index of the newest sample shown; SIZE_MAX none */
	size_t next[RK_NKINDS];          /* next record of each kind to put into the model */
	double interval;
	char status_err[256];
	bool lost;                       /* the file was truncated or rewritten */
	bool writer_gone;                /* no end record, and nobody holds the file to write on */
	int file_no, nfiles;             /* view A B: which file, 1-based, of how many */
};

/* A recording without its end record is followed while its writer
 * holds it (the recorder keeps an exclusive flock on it for the whole
 * session, and the kernel drops it when the writer dies, however it
 * dies).  One that nobody holds will not grow: a killed session's, or a
 * copy.  Where the file system has no locks, it is followed as before. */
static bool view_writer_gone(struct replay *v)
{
	if (v->writer_gone || recording_ended(v->rec))
		return v->writer_gone;
	int fd = open(recording_path(v->rec), O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return false;
	v->writer_gone = flock(fd, LOCK_SH | LOCK_NB) == 0;
	close(fd);     /* and our lock with it */
	return v->writer_gone;
}

static void view_set_source(struct replay *v)
{
	size_t n = recording_count(v->rec, RK_SAMPLE);
	double t = v->pos != SIZE_MAX ? recording_time(v->rec, RK_SAMPLE, v->pos) : 0;
	double end = n ? recording_time(v->rec, RK_SAMPLE, n - 1) : 0;
	char src[MODEL_LINE_LEN];
	const char *state;

	if (v->prompt_open)
		state = "go to (h:m:s, Enter)";
	else if (model_is_paused(v->m))
		state = "paused";
	else if (v->pos + 1 >= n)
		state = recording_ended(v->rec) ? "end of recording"
			: view_writer_gone(v) ? "end, not closed" : "end, following";
	else
		state = "playing";
	char which[32] = "";
	if (v->nfiles > 1)
		snprintf(which, sizeof(which), " (file %d/%d)", v->file_no, v->nfiles);
	snprintf(src, sizeof(src), "recording %s%s @ %d:%02d:%04.1f / %d:%02d:%02.0f %s%s%s",
		 util_base_name(recording_path(v->rec)), which, (int)(t / 3600), (int)fmod(t / 60, 60), fmod(t, 60),
		 (int)(end / 3600), (int)fmod(end / 60, 60), fmod(end, 60), state,
		 v->prompt_open ? ": " : "", v->prompt_open ? v->prompt : "");
	model_set_source(v->m, src);
}

/* Put records of one kind with time <= t into the model (in order).
 * The caller holds the model's lock. */
static void view_push_until(struct replay *v, double t, bool skip_old)
{
	struct model *m = v->m;
	size_t n;

	n = recording_count(v->rec, RK_EVENT);
	/* after a seek only the newest fit the rings: skip what they drop */
	if (skip_old && n > MODEL_EVENT_CAP && v->next[RK_EVENT] < n - MODEL_EVENT_CAP)
		v->next[RK_EVENT] = n - MODEL_EVENT_CAP;
	for (; v->next[RK_EVENT] < n && recording_time(v->rec, RK_EVENT, v->next[RK_EVENT]) <= t; v->next[RK_EVENT]++) {
		struct model_event e;
		if (recording_event(v->rec, v->next[RK_EVENT], &e))
			continue;
		model_put_event_locked(m, &e);
	}
	n = recording_count(v->rec, RK_OUTPUT);
	for (; v->next[RK_OUTPUT] < n && recording_time(v->rec, RK_OUTPUT, v->next[RK_OUTPUT]) <= t; v->next[RK_OUTPUT]++) {
		struct output_line l;
		size_t left = n - v->next[RK_OUTPUT];
		if (skip_old && left > MODEL_OUTPUT_CAP &&
		    recording_time(v->rec, RK_OUTPUT, v->next[RK_OUTPUT] + MODEL_OUTPUT_CAP) <= t)
			continue;   /* would be overwritten in the ring anyway */
		if (recording_output(v->rec, v->next[RK_OUTPUT], &l))
			continue;
		model_put_output_locked(m, &l);
	}
	n = recording_count(v->rec, RK_RESULT);
	for (; v->next[RK_RESULT] < n && recording_time(v->rec, RK_RESULT, v->next[RK_RESULT]) <= t; v->next[RK_RESULT]++) {
		struct result_point p;
		/* as model_add_result: progress points were the recording's only */
		if (!recording_result(v->rec, v->next[RK_RESULT], &p) && !(p.flags & RP_PROGRESS))
			result_set_add(&m->results, &p);
	}
	n = recording_count(v->rec, RK_BENCH);
	while (v->next[RK_BENCH] < n && recording_time(v->rec, RK_BENCH, v->next[RK_BENCH]) <= t)
		v->next[RK_BENCH]++;
	if (v->next[RK_BENCH])
		recording_bench(v->rec, v->next[RK_BENCH] - 1, &m->bench);
}

/* The throttle panel's figures from a recorded sample: who paused, as the
 * T record kept it (bdi, cgroup and the control loop are not recorded). */
static void view_set_throttle(struct model *m, const struct sample *s)
{
	struct kt_window *w = &m->thr.last;

	/* a recording that followed the kernel stays one (decided at open)
	 * through a sample without its T record, such as sample 0 of a
	 * recording made before the tracepoints came first */
	if (m->thr.src != THR_SRC_KERNEL)
		m->thr.src = s->thr_src;
	m->thr.last_dt = s->dt;
	if (s->thr_src != THR_SRC_KERNEL)
		return;
	memset(w, 0, sizeof(*w));
	w->pauses = s->pauses;
	w->paused_ms = s->paused_ms;
	for (int i = 0; i < s->nwriters && i < KT_MAX_WRITERS; i++) {
		struct kt_writer_rate *r = &w->writers[w->nwriters++];
		r->pid = s->writers[i].pid;
		memcpy(r->comm, s->writers[i].comm, sizeof(r->comm));
		snprintf(r->bdi, sizeof(r->bdi), "?");
		snprintf(r->cgroup, sizeof(r->cgroup), "?");
		r->pauses = s->writers[i].pauses;
		r->paused_ms = s->writers[i].paused_ms;
	}
}

/* Show the recording as it was at sample pos: rebuild the model. */
static void view_seek(struct replay *v, size_t pos)
{
	struct model *m = v->m;
	size_t n = recording_count(v->rec, RK_SAMPLE), first;
	double t;
	struct sample *s = calloc(1, sizeof(*s));

	if (!s)
		return;
	if (!n) {
		free(s);
		return;
	}
	if (pos >= n)
		pos = n - 1;
	t = recording_time(v->rec, RK_SAMPLE, pos);
	first = pos + 1 > m->series.cap ? pos + 1 - m->series.cap : 0;
	model_lock(m);
	if (m->hist) {
		/* as far back as the screen's graphs reach */
		double from = t - HIST_BUCKETS * m->hist->width;
		for (first = pos; first > 0 && recording_time(v->rec, RK_SAMPLE, first - 1) >= from; first--)
			;
	}
	model_clear_locked(m);
	for (size_t i = first; i <= pos; i++)
		if (!recording_sample(v->rec, i, s)) {   /* a damaged one: never written */
			model_put_sample_locked(m, s);
			view_set_throttle(m, s);
		}
	memset(v->next, 0, sizeof(v->next));
	/* at the last sample: what came after it too (the final output line,
	 * the run's end, its results) */
	view_push_until(v, pos + 1 >= n ? INFINITY : t, true);
	model_unlock(m);
	v->pos = pos;
	sample_free(s);
	free(s);
	view_set_source(v);
	model_notify(m);
}

/* Go one sample on, as the sampler would.  The last one brings what
 * follows it too, unless batch feeds that itself (rest false). */
static void view_step(struct replay *v, bool rest)
{
	struct model *m = v->m;
	size_t i = v->pos == SIZE_MAX ? 0 : v->pos + 1;
	struct sample *s;

	if (i >= recording_count(v->rec, RK_SAMPLE))
		return;
	s = calloc(1, sizeof(*s));
	if (!s)
		return;
	model_lock(m);
	if (!recording_sample(v->rec, i, s)) {
		model_put_sample_locked(m, s);
		view_set_throttle(m, s);
	}
	view_push_until(v, rest && i + 1 >= recording_count(v->rec, RK_SAMPLE) ? INFINITY :
			recording_time(v->rec, RK_SAMPLE, i), false);
	model_unlock(m);
	v->pos = i;
	sample_free(s);
	free(s);
}

/* The sample nearest to t: "go to 3.7" lands on the sample the screen
 * called 3.7 (recorded at 3.700118 s), not on the one before it. */
static size_t view_index_at(struct replay *v, double t)
{
	size_t i = recording_find(v->rec, RK_SAMPLE, t);
	size_t n = recording_count(v->rec, RK_SAMPLE);

	if (i == (size_t)-1)
		return 0;
	if (i + 1 < n && recording_time(v->rec, RK_SAMPLE, i + 1) - t < t - recording_time(v->rec, RK_SAMPLE, i))
		return i + 1;
	return i;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - floor(s)) * 1e9) };
	nanosleep(&ts, NULL);
}

/* Follow a file that grows.  false when it cannot be followed any more
 * (truncated, rewritten): said at once (the screen's error line; batch
 * ends and prints it), the exit status is 1, and the replay keeps what it
 * had read. */
static bool view_refresh(struct replay *v)
{
	char err[256];

	if (v->lost)
		return false;
	if (recording_refresh(v->rec, err, sizeof(err)) < 0) {
		v->lost = true;
		model_set_error(v->m, err);
		model_lock(v->m);
		v->m->exit_code = 1;
		model_unlock(v->m);
		model_notify(v->m);
		return false;
	}
	return true;
}

/* Does the next sample change the benchmark columns that --batch prints
 * (from the status at the time it takes a chunk)? */
static bool view_bench_columns_change(struct replay *v, size_t next_sample)
{
	size_t i = recording_find(v->rec, RK_BENCH, recording_time(v->rec, RK_SAMPLE, next_sample));
	struct bench_status a, b;

	if (i == (size_t)-1 || i + 1 == v->next[RK_BENCH] || !v->next[RK_BENCH])
		return i != (size_t)-1 && !v->next[RK_BENCH];
	if (recording_bench(v->rec, i, &a) || recording_bench(v->rec, v->next[RK_BENCH] - 1, &b))
		return true;
	return a.throttled_tasks != b.throttled_tasks || a.have_tracepoint != b.have_tracepoint ||
	       a.pauses_per_s != b.pauses_per_s || a.pause_ms_per_s != b.pause_ms_per_s;
}

/* Has the batch front end taken every sample given to it? */
static bool view_batch_caught_up(struct replay *v)
{
	bool r;

	model_lock(v->m);
	r = v->m->consumed >= v->m->series.pushed;
	model_unlock(v->m);
	return r;
}

/* batch has no keys: the only command is the quit (which the model keeps) */
static bool view_quit_asked(struct replay *v)
{
	struct model_cmd c;

	return model_wait_cmd(v->m, &c, 0) && c.kind == MODEL_CMD_QUIT;
}

/* Has a ring of cap room for more, with `taken` of its `total` taken by
 * the batch front end?  Half of it, as for the samples: the front end
 * copies while we add. */
static bool view_ring_room(uint64_t total, uint64_t taken, size_t cap)
{
	return total - taken < cap / 2;
}

/* Batch: put the events, output lines and results before time t
 * (strictly: those of a sample's own instant come with it, as live) into
 * the model in time order, across the three (ties as batch merges them:
 * event, line, result), and no faster than the front end takes them, so
 * none is overwritten in its ring before it is printed.  Whatever the
 * front end has taken so far is then a prefix of one order, and it prints
 * the same bytes however its chunks fall.  Before the first sample the
 * front end holds everything (it names the disks of that sample first):
 * those go at once.  false when asked to quit. */
static bool view_batch_feed(struct replay *v, double t)
{
	struct model *m = v->m;

	for (;;) {
		size_t ne = recording_count(v->rec, RK_EVENT), no = recording_count(v->rec, RK_OUTPUT);
		size_t nr = recording_count(v->rec, RK_RESULT);
		bool more = false;
		model_lock(m);
		bool held = !m->series.pushed;
		for (;;) {
			double te = v->next[RK_EVENT] < ne ? recording_time(v->rec, RK_EVENT, v->next[RK_EVENT]) : INFINITY;
			double to = v->next[RK_OUTPUT] < no ? recording_time(v->rec, RK_OUTPUT, v->next[RK_OUTPUT]) : INFINITY;
			double tr = v->next[RK_RESULT] < nr ? recording_time(v->rec, RK_RESULT, v->next[RK_RESULT]) : INFINITY;
			if (te <= to && te <= tr && te < t) {
				struct model_event e;
				if (!held && !view_ring_room(m->nevents, m->consumed_events, MODEL_EVENT_CAP)) {
					more = true;
					break;
				}
				if (!recording_event(v->rec, v->next[RK_EVENT], &e))
					model_put_event_locked(m, &e);
				v->next[RK_EVENT]++;
			} else if (to <= tr && to < t) {
				struct output_line l;
				if (!held && !view_ring_room(m->noutput, m->consumed_output, MODEL_OUTPUT_CAP)) {
					more = true;
					break;
				}
				if (!recording_output(v->rec, v->next[RK_OUTPUT], &l))
					model_put_output_locked(m, &l);
				v->next[RK_OUTPUT]++;
			} else if (tr < t) {
				struct result_point p;
				/* as model_add_result: progress points were the recording's only */
				if (!recording_result(v->rec, v->next[RK_RESULT], &p) && !(p.flags & RP_PROGRESS))
					result_set_add(&m->results, &p);
				v->next[RK_RESULT]++;
			} else {
				break;
			}
		}
		model_unlock(m);
		model_notify_data(m);
		if (!more)
			return true;
		if (view_quit_asked(v))
			return false;
		sleep_s(0.0005);
	}
}

/* Batch: all samples in order; the batch front end prints each.  Its
 * output depends only on the file: a sample whose benchmark columns
 * differ from the last one's waits until the front end has taken the
 * samples before it (it prints one status per chunk), and the end is
 * declared only once it has taken them all. */
static void view_run_batch(struct replay *v)
{
	struct model *m = v->m;

	for (;;) {
		size_t n = recording_count(v->rec, RK_SAMPLE);
		while ((v->pos == SIZE_MAX ? 0 : v->pos + 1) < n) {
			bool room;
			model_lock(m);
			room = m->series.pushed - m->consumed < m->series.cap / 2;
			model_unlock(m);
			if (view_quit_asked(v))
				return;
			if (!room) {
				sleep_s(0.002);
				continue;
			}
			/* the front end wakes on our notify and takes the chunk at
			 * once: a short wait, polled finely */
			if (view_bench_columns_change(v, v->pos == SIZE_MAX ? 0 : v->pos + 1) &&
			    !view_batch_caught_up(v)) {
				sleep_s(0.00005);
				continue;
			}
			size_t next = v->pos == SIZE_MAX ? 0 : v->pos + 1;
			if (!view_batch_feed(v, recording_time(v->rec, RK_SAMPLE, next)))
				return;
			view_step(v, false);
			model_notify_data(m);
		}
		/* what follows the last sample (run end, final results) */
		if (!view_batch_feed(v, INFINITY))
			return;
		model_lock(m);
		view_push_until(v, INFINITY, false);
		model_unlock(m);
		model_notify(m);
		/* a closed recording has ended: --follow too, and so has one
		 * whose writer is gone */
		if (!v->follow || recording_ended(v->rec) || v->writer_gone) {
			while (!view_batch_caught_up(v) && !view_quit_asked(v))
				sleep_s(0.002);
			break;
		}
		if (view_quit_asked(v) || signals_interrupts() || signals_hangup())
			break;
		sleep_s(VIEW_POLL_S);
		/* before the refresh: what a writer wrote before it went is
		 * read and printed, then the loop ends */
		view_writer_gone(v);
		if (!view_refresh(v))
			break;
	}
}

/* A command of the key hook, on the replay thread (n samples now). */
static void view_do_cmd(struct replay *v, const struct model_cmd *c, size_t n)
{
	double now_t = v->pos == SIZE_MAX ? 0 : recording_time(v->rec, RK_SAMPLE, v->pos);
	double t;

	switch (c->kind) {
	case VC_STEP: view_seek(v, c->arg > 0 ? v->pos + 1 : (v->pos ? v->pos - 1 : 0)); break;
	case VC_SEEK_REL: view_seek(v, view_index_at(v, now_t + c->arg)); break;
	case MODEL_CMD_SEEK: {
		/* the first sample at or after arg: what happened then is shown */
		size_t i = view_index_at(v, c->arg);
		if (i + 1 < n && recording_time(v->rec, RK_SAMPLE, i) < c->arg - 1e-9)
			i++;
		view_seek(v, i);
		break;
	}
	case VC_HOME: view_seek(v, 0); break;
	case VC_END: view_seek(v, n ? n - 1 : 0); break;
	case VC_PROMPT:
		v->prompt_open = c->arg != 0;
		snprintf(v->prompt, sizeof(v->prompt), "%s", c->text);
		break;
	case VC_GOTO:
		/* relative times (+10, -1:00) are from the sample shown now,
		 * which only this thread knows */
		v->prompt_open = false;
		if (!replay_parse_time(c->text, now_t, &t))
			view_seek(v, view_index_at(v, t));
		break;
	}
}

static void view_run_screen(struct replay *v)
{
	struct model *m = v->m;
	double last = util_mono_s(), since_step = 0;

	view_seek(v, SIZE_MAX);
	for (;;) {
		struct model_cmd c;
		size_t n = recording_count(v->rec, RK_SAMPLE);
		bool paused;

		/* wait for a command or the next look at the file; then take
		 * every command queued (a key held down) before drawing */
		for (bool got = model_wait_cmd(m, &c, VIEW_POLL_S); got; got = model_wait_cmd(m, &c, 0)) {
			if (c.kind == MODEL_CMD_QUIT)
				return;
			view_do_cmd(v, &c, n);
		}
		/* follow a file that grows, and play when not paused */
		bool at_end = v->pos == SIZE_MAX || v->pos + 1 >= n;
		view_refresh(v);
		n = recording_count(v->rec, RK_SAMPLE);
		paused = model_is_paused(m);
		double now = util_mono_s();
		since_step += now - last;
		last = now;
		if (!paused && at_end && v->pos + 1 < n) {
			/* following: catch up with what was appended */
			if (n - (v->pos + 1) > 1000)
				view_seek(v, n - 1);
			while (v->pos + 1 < n)
				view_step(v, true);
			since_step = 0;
		} else if (!paused && v->pos + 1 < n) {
			/* playing at the recorded pace */
			while (since_step >= v->interval && v->pos + 1 < n) {
				view_step(v, true);
				since_step -= v->interval;
			}
		} else {
			since_step = 0;
		}
		view_set_source(v);
		model_notify_data(m);
	}
}

static void *view_thread(void *arg)
{
	struct replay *v = arg;

	if (v->batch)
		view_run_batch(v);
	else
		view_run_screen(v);
	model_lock(v->m);
	v->m->sampler_done = true;
	v->m->bench_done = true;
	model_unlock(v->m);
	model_notify(v->m);
	return NULL;
}

int replay_parse_time(const char *s, double now_t, double *out)
{
	double parts[3], t = 0;
	int np = 0, sign = 0;
	char *end;

	while (*s == ' ')
		s++;
	if (*s == '+' || *s == '-')
		sign = *s++ == '+' ? 1 : -1;
	if (!*s)
		return -EINVAL;
	for (;;) {
		if (np == 3 || !((*s >= '0' && *s <= '9') || *s == '.'))
			return -EINVAL;
		parts[np++] = strtod(s, &end);
		if (end == s || !isfinite(parts[np - 1]))
			return -EINVAL;
		s = end;
		if (*s == ':') {
			s++;
			continue;
		}
		break;
	}
	while (*s == ' ')
		s++;
	if (*s)
		return -EINVAL;
	for (int i = 0; i < np; i++)
		t = t * 60 + parts[i];
	*out = sign ? now_t + sign * t : t;
	return 0;
}

/* The ui's keys for time travel.  This runs on the ui thread: it keeps the
 * prompt being typed and posts commands; the replay thread moves.  A
 * command that does not fit in the queue (the replay thread stuck for 32
 * keys) is dropped: the key did nothing, as a key pressed into a hung
 * program does. */
static bool view_key(void *ctx, int key)
{
	struct replay *v = ctx;
	struct model *m = v->m;

	if (v->key_prompt_open) {
		size_t l = strlen(v->key_prompt);
		if (key == '\n' || key == '\r' || key == REPLAY_KEY_ENTER) {
			v->key_prompt_open = false;
			model_post_cmd(m, VC_GOTO, 0, v->key_prompt);
			return true;
		}
		if (key == 27) {
			v->key_prompt_open = false;
		} else if (key == REPLAY_KEY_BACKSPACE || key == 127 || key == 8) {
			if (l)
				v->key_prompt[l - 1] = 0;
		} else if (((key >= '0' && key <= '9') || key == ':' || key == '.' || key == '+' ||
			    key == '-') && l + 1 < sizeof(v->key_prompt)) {
			v->key_prompt[l] = (char)key;
			v->key_prompt[l + 1] = 0;
		}
		model_post_cmd(m, VC_PROMPT, v->key_prompt_open, v->key_prompt);
		return true;
	}
	switch (key) {
	case REPLAY_KEY_LEFT: model_post_cmd(m, VC_STEP, -1, NULL); break;
	case REPLAY_KEY_RIGHT: model_post_cmd(m, VC_STEP, 1, NULL); break;
	case '[': model_post_cmd(m, VC_SEEK_REL, -60, NULL); break;
	case ']': model_post_cmd(m, VC_SEEK_REL, 60, NULL); break;
	case REPLAY_KEY_HOME: model_post_cmd(m, VC_HOME, 0, NULL); break;
	case REPLAY_KEY_END: model_post_cmd(m, VC_END, 0, NULL); break;
	case 'g':
		v->key_prompt_open = true;
		v->key_prompt[0] = 0;
		model_post_cmd(m, VC_PROMPT, 1, "");
		break;
	default:
		return false;
	}
	return true;
}

int replay_open(struct replay **out, const char *path, const struct replay_config *cfg,
		char *err, size_t errlen)
{
	struct replay *v;
	struct model *m;
	const struct rec_header *h;
	int rc;

	*out = NULL;
	if (!(v = calloc(1, sizeof(*v)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if ((rc = recording_open(&v->rec, path, err, errlen))) {
		free(v);
		return rc;
	}
	m = calloc(1, sizeof(*m));
	if (!m || model_init(m, VIEW_SERIES_CAP)) {
		snprintf(err, errlen, "out of memory");
		free(m);
		recording_close(v->rec);
		free(v);
		return -ENOMEM;
	}
	h = recording_header(v->rec);
	snprintf(m->host, sizeof(m->host), "%s", h->host);
	snprintf(m->kernel, sizeof(m->kernel), "%s", h->kernel);
	m->replay = true;
	m->exit_code = 0;
	/* a benchmark session shows its benchmark columns, as it did live */
	m->bench_done = recording_count(v->rec, RK_BENCH) == 0;
	m->with_bench = !m->bench_done;
	m->clock0_mono_ns = h->start_mono_ns;   /* --time mono: the recorded clock */
	{
		/* the kernel's columns and panel when it was followed: decided
		 * here, before any front end looks, from the first samples (a
		 * recording made before the tracepoints were set up first has
		 * sample 0 without its T record) */
		struct sample *s0 = calloc(1, sizeof(*s0));
		size_t ns = recording_count(v->rec, RK_SAMPLE);
		for (size_t i = 0; s0 && i < ns && i < 3; i++)
			if (!recording_sample(v->rec, i, s0) && (i == 0 || s0->thr_src == THR_SRC_KERNEL))
				m->thr.src = s0->thr_src;
		/* a recording of a format before the samples' T records says
		 * in its benchmark records that the kernel was followed (the
		 * header's pauses come from them) */
		struct bench_status *b0 = s0 ? malloc(sizeof(*b0)) : NULL;
		size_t nb = recording_count(v->rec, RK_BENCH);
		for (size_t i = 0; b0 && m->thr.src != THR_SRC_KERNEL && i < nb && i < 3; i++)
			if (!recording_bench(v->rec, i, b0) && b0->have_tracepoint) {
				m->thr.src = THR_SRC_KERNEL;
				snprintf(m->thr.note, sizeof(m->thr.note),
					 "this recording has the kernel's pauses per run only");
			}
		free(b0);
		if (m->thr.src != THR_SRC_KERNEL)
			snprintf(m->thr.why_sampled, sizeof(m->thr.why_sampled), "recorded without the tracepoints");
		if (s0)
			sample_free(s0);
		free(s0);
	}
	v->m = m;
	v->follow = cfg->follow;
	v->batch = cfg->batch;
	v->pos = SIZE_MAX;
	v->file_no = cfg->file_no;
	v->nfiles = cfg->nfiles;
	v->interval = h->interval > 0 ? h->interval : 0.5;
	snprintf(m->source, sizeof(m->source), "recording %s", path);
	if (!v->batch) {
		m->key_hook = view_key;
		m->replay_seekable = true;
		m->key_ctx = v;
	}
	*out = v;
	return 0;
}

const char *replay_warning(const struct replay *v)
{
	return recording_warning(v->rec);
}

struct model *replay_model(struct replay *v)
{
	return v->m;
}

double replay_graph_seconds(struct replay *v, double refresh)
{
	size_t n = recording_count(v->rec, RK_SAMPLE);
	/* one still being written grows: its graphs keep the refresh */
	if (n < 2 || !(recording_ended(v->rec) || view_writer_gone(v)))
		return refresh;
	double span = recording_time(v->rec, RK_SAMPLE, n - 1) - recording_time(v->rec, RK_SAMPLE, 0);
	double w = span / REPLAY_MIN_BUCKETS;
	if (w < v->interval)
		w = v->interval;
	return w < refresh ? w : refresh;
}

int replay_start(struct replay *v, char *err, size_t errlen)
{
	int rc = pthread_create(&v->thread, NULL, view_thread, v);

	if (rc) {
		snprintf(err, errlen, "cannot start the replay: %s", strerror(rc));
		return -rc;
	}
	v->started = true;
	return 0;
}

void replay_stop(struct replay *v)
{
	if (!v->started)
		return;
	model_post_cmd(v->m, MODEL_CMD_QUIT, 0, NULL);
	pthread_join(v->thread, NULL);
	v->started = false;
}

void replay_close(struct replay *v)
{
	if (!v)
		return;
	replay_stop(v);
	model_free(v->m);
	free(v->m);
	recording_close(v->rec);
	free(v);
}
