/* view: replay recordings through the live screens.  A replay thread is
 * the model's producer, as the sampler is in a live session: it puts into
 * the model what the live session had at the chosen time (the samples up
 * to it, the events, output lines, results and benchmark status so far),
 * so the screens show the figures the live session showed then.
 *
 *   recording (mmap, index) --replay thread--> model --> ui_run / batch_run
 *                   ^ recording_refresh (follow)   ^ key_hook (time travel)
 *
 * Batch: every sample in order, paced by what the batch front end has
 * consumed, so `view --batch` prints what `--batch` printed live. */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "iodash/app.h"
#include "iodash/batch.h"
#include "iodash/commands.h"
#include "iodash/recording.h"
#include "iodash/ui.h"

#define VIEW_SERIES_CAP 7200          /* one hour at 0.5 s: what a screen can show */
#define VIEW_POLL_S 0.25              /* how often a growing file is looked at */

enum view_cmd { VC_NONE, VC_SEEK_REL, VC_SEEK_T, VC_HOME, VC_END };

struct view {
	struct recording *rec;
	struct model *m;
	const struct iodash_opts *o;
	bool batch;
	pthread_t thread;
	pthread_mutex_t lock;            /* cmd, prompt, quit */
	pthread_cond_t cond;
	enum view_cmd cmd;
	double cmd_arg;
	bool quit;
	bool prompt_open;
	char prompt[32];
	/* replay thread only */
	size_t pos;                      /* index of the newest sample shown; SIZE_MAX none */
	size_t next[RK_NKINDS];          /* next record of each kind to put into the model */
	double interval;
	char status_err[256];
};

static void view_set_source(struct view *v)
{
	size_t n = recording_count(v->rec, RK_SAMPLE);
	double t = v->pos != SIZE_MAX ? recording_time(v->rec, RK_SAMPLE, v->pos) : 0;
	double end = n ? recording_time(v->rec, RK_SAMPLE, n - 1) : 0;
	char name[256];
	const char *state;

	snprintf(name, sizeof(name), "%s", recording_path(v->rec));
	pthread_mutex_lock(&v->lock);
	if (v->prompt_open)
		state = "go to (h:m:s, Enter)";
	else if (v->m->paused)
		state = "paused";
	else if (v->pos + 1 >= n)
		state = "end, following";
	else
		state = "playing";
	snprintf(v->m->source, sizeof(v->m->source), "recording %s @ %d:%02d:%04.1f / %d:%02d:%02.0f %s%s%s",
		 basename(name), (int)(t / 3600), (int)fmod(t / 60, 60), fmod(t, 60),
		 (int)(end / 3600), (int)fmod(end / 60, 60), fmod(end, 60), state,
		 v->prompt_open ? ": " : "", v->prompt_open ? v->prompt : "");
	pthread_mutex_unlock(&v->lock);
}

/* Put records of one kind with time <= t into the model (in order). */
static void view_push_until(struct view *v, double t, bool skip_old)
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
		m->events[m->nevents % MODEL_EVENT_CAP] = e;
		m->nevents++;
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
		m->output[m->noutput % MODEL_OUTPUT_CAP] = l;
		m->noutput++;
	}
	n = recording_count(v->rec, RK_RESULT);
	for (; v->next[RK_RESULT] < n && recording_time(v->rec, RK_RESULT, v->next[RK_RESULT]) <= t; v->next[RK_RESULT]++) {
		struct result_point p;
		if (!recording_result(v->rec, v->next[RK_RESULT], &p))
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
static void view_seek(struct view *v, size_t pos)
{
	struct model *m = v->m;
	size_t n = recording_count(v->rec, RK_SAMPLE), first;
	double t;
	struct sample *s = malloc(sizeof(*s));

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
	series_clear(&m->series);
	for (size_t i = first; i <= pos; i++)
		if (!recording_sample(v->rec, i, s)) {   /* a damaged one: never written */
			series_push(&m->series, s);
			view_set_throttle(m, s);
		}
	m->nevents = m->noutput = 0;
	m->results.n = 0;
	memset(&m->bench, 0, sizeof(m->bench));
	m->bench.last_exit_status = -1;
	memset(v->next, 0, sizeof(v->next));
	view_push_until(v, t, true);
	model_unlock(m);
	v->pos = pos;
	free(s);
	view_set_source(v);
	model_notify(m);
}

/* Go one sample on, as the sampler would. */
static void view_step(struct view *v)
{
	struct model *m = v->m;
	size_t i = v->pos == SIZE_MAX ? 0 : v->pos + 1;
	struct sample *s;

	if (i >= recording_count(v->rec, RK_SAMPLE))
		return;
	s = malloc(sizeof(*s));
	if (!s)
		return;
	model_lock(m);
	if (!recording_sample(v->rec, i, s)) {
		series_push(&m->series, s);
		view_set_throttle(m, s);
	}
	view_push_until(v, recording_time(v->rec, RK_SAMPLE, i), false);
	model_unlock(m);
	v->pos = i;
	free(s);
}

/* The sample nearest to t: "go to 3.7" lands on the sample the screen
 * called 3.7 (recorded at 3.700118 s), not on the one before it. */
static size_t view_index_at(struct view *v, double t)
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

static void view_refresh(struct view *v)
{
	char err[256];

	if (recording_refresh(v->rec, err, sizeof(err)) < 0) {
		model_lock(v->m);
		snprintf(v->m->error, sizeof(v->m->error), "%s", err);
		model_unlock(v->m);
	}
}

/* Batch: all samples in order; the batch front end prints each. */
static void view_run_batch(struct view *v)
{
	struct model *m = v->m;

	for (;;) {
		size_t n = recording_count(v->rec, RK_SAMPLE);
		bool quit;
		while ((v->pos == SIZE_MAX ? 0 : v->pos + 1) < n) {
			bool room;
			model_lock(m);
			room = m->series.pushed - m->consumed < m->series.cap / 2;
			model_unlock(m);
			pthread_mutex_lock(&v->lock);
			quit = v->quit;
			pthread_mutex_unlock(&v->lock);
			if (quit)
				return;
			if (!room) {
				sleep_s(0.002);
				continue;
			}
			view_step(v);
			model_notify(m);
		}
		/* what follows the last sample (run end, final results) */
		model_lock(m);
		view_push_until(v, INFINITY, false);
		model_unlock(m);
		model_notify(m);
		if (!v->o->follow)
			break;
		pthread_mutex_lock(&v->lock);
		quit = v->quit;
		pthread_mutex_unlock(&v->lock);
		if (quit || app_got_sigint || app_got_sighup)
			break;
		sleep_s(VIEW_POLL_S);
		view_refresh(v);
	}
}

static void view_run_screen(struct view *v)
{
	struct model *m = v->m;
	struct timespec last;
	double since_step = 0;

	clock_gettime(CLOCK_MONOTONIC, &last);
	view_seek(v, SIZE_MAX);
	for (;;) {
		enum view_cmd cmd;
		double arg;
		struct timespec ts, now;
		size_t n = recording_count(v->rec, RK_SAMPLE);
		bool paused;

		pthread_mutex_lock(&v->lock);
		if (!v->quit && v->cmd == VC_NONE) {
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += (long)(VIEW_POLL_S * 1e9);
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&v->cond, &v->lock, &ts);
		}
		if (v->quit) {
			pthread_mutex_unlock(&v->lock);
			return;
		}
		cmd = v->cmd;
		arg = v->cmd_arg;
		v->cmd = VC_NONE;
		pthread_mutex_unlock(&v->lock);

		switch (cmd) {
		case VC_SEEK_REL: {
			double t = (v->pos == SIZE_MAX ? 0 : recording_time(v->rec, RK_SAMPLE, v->pos)) + arg;
			size_t i;
			if (arg == 1e-9 || arg == -1e-9) {   /* one sample */
				i = arg > 0 ? v->pos + 1 : (v->pos ? v->pos - 1 : 0);
			} else {
				i = view_index_at(v, t);
			}
			view_seek(v, i);
			break;
		}
		case VC_SEEK_T: view_seek(v, view_index_at(v, arg)); break;
		case VC_HOME: view_seek(v, 0); break;
		case VC_END: view_seek(v, n ? n - 1 : 0); break;
		case VC_NONE: break;
		}
		/* follow a file that grows, and play when not paused */
		bool at_end = v->pos == SIZE_MAX || v->pos + 1 >= n;
		view_refresh(v);
		n = recording_count(v->rec, RK_SAMPLE);
		model_lock(m);
		paused = m->paused;
		model_unlock(m);
		clock_gettime(CLOCK_MONOTONIC, &now);
		since_step += (double)(now.tv_sec - last.tv_sec) + (double)(now.tv_nsec - last.tv_nsec) / 1e9;
		last = now;
		if (!paused && at_end && v->pos + 1 < n) {
			/* following: catch up with what was appended */
			if (n - (v->pos + 1) > 1000)
				view_seek(v, n - 1);
			while (v->pos + 1 < n)
				view_step(v);
			since_step = 0;
		} else if (!paused && v->pos + 1 < n) {
			/* playing at the recorded pace */
			while (since_step >= v->interval && v->pos + 1 < n) {
				view_step(v);
				since_step -= v->interval;
			}
		} else {
			since_step = 0;
		}
		view_set_source(v);
		model_notify(m);
	}
}

static void *view_thread(void *arg)
{
	struct view *v = arg;

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

int recording_parse_time(const char *s, double now_t, double *out)
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

bool recording_view_grabs_keys(void *key_ctx)
{
	struct view *v = key_ctx;
	bool g;

	if (!v)
		return false;
	pthread_mutex_lock(&v->lock);
	g = v->prompt_open;
	pthread_mutex_unlock(&v->lock);
	return g;
}

static void view_command(struct view *v, enum view_cmd c, double arg)
{
	v->cmd = c;
	v->cmd_arg = arg;
	pthread_cond_signal(&v->cond);
}

static bool view_key(void *ctx, int key)
{
	struct view *v = ctx;
	bool handled = true;
	double now_t = 0;

	pthread_mutex_lock(&v->lock);
	if (v->prompt_open) {
		size_t l = strlen(v->prompt);
		if (key == '\n' || key == '\r' || key == REPLAY_KEY_ENTER) {
			double t;
			v->prompt_open = false;
			if (v->pos != SIZE_MAX)
				now_t = recording_time(v->rec, RK_SAMPLE, v->pos);
			if (!recording_parse_time(v->prompt, now_t, &t))
				view_command(v, VC_SEEK_T, t);
		} else if (key == 27) {
			v->prompt_open = false;
		} else if (key == REPLAY_KEY_BACKSPACE || key == 127 || key == 8) {
			if (l)
				v->prompt[l - 1] = 0;
		} else if (((key >= '0' && key <= '9') || key == ':' || key == '.' || key == '+' ||
			    key == '-') && l + 1 < sizeof(v->prompt)) {
			v->prompt[l] = (char)key;
			v->prompt[l + 1] = 0;
		}
		pthread_cond_signal(&v->cond);
		pthread_mutex_unlock(&v->lock);
		view_set_source(v);
		model_notify(v->m);
		return true;
	}
	switch (key) {
	case REPLAY_KEY_LEFT: view_command(v, VC_SEEK_REL, -1e-9); break;
	case REPLAY_KEY_RIGHT: view_command(v, VC_SEEK_REL, 1e-9); break;
	case '[': view_command(v, VC_SEEK_REL, -60); break;
	case ']': view_command(v, VC_SEEK_REL, 60); break;
	case REPLAY_KEY_HOME: view_command(v, VC_HOME, 0); break;
	case REPLAY_KEY_END: view_command(v, VC_END, 0); break;
	case 'g':
		v->prompt_open = true;
		v->prompt[0] = 0;
		pthread_cond_signal(&v->cond);
		break;
	default:
		handled = false;
	}
	pthread_mutex_unlock(&v->lock);
	if (handled) {
		view_set_source(v);
		model_notify(v->m);
	}
	return handled;
}

static void view_on_signal(int sig)
{
	if (sig == SIGINT)
		app_got_sigint++;
	else
		app_got_sighup = 1;
}

static int view_one(const char *path, const struct iodash_opts *o)
{
	struct model *m;
	struct view v;
	char err[1024];
	const struct rec_header *h;
	int rc;

	memset(&v, 0, sizeof(v));
	rc = recording_open(&v.rec, path, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "iodash view: %s\n", err);
		return 1;
	}
	if (recording_warning(v.rec)[0])
		fprintf(stderr, "iodash view: warning: %s\n", recording_warning(v.rec));
	m = calloc(1, sizeof(*m));
	if (!m || model_init(m, VIEW_SERIES_CAP)) {
		fprintf(stderr, "iodash view: out of memory\n");
		free(m);
		recording_close(v.rec);
		return 1;
	}
	h = recording_header(v.rec);
	snprintf(m->host, sizeof(m->host), "%s", h->host);
	snprintf(m->kernel, sizeof(m->kernel), "%s", h->kernel);
	m->replay = true;
	m->exit_code = 0;
	/* a benchmark session shows its benchmark columns, as it did live */
	m->bench_done = recording_count(v.rec, RK_BENCH) == 0;
	m->clock0_mono_ns = h->start_mono_ns;   /* --time mono: the recorded clock */
	{
		/* the kernel's columns and panel when it was followed */
		struct sample *s0 = malloc(sizeof(*s0));
		if (s0 && !recording_sample(v.rec, 0, s0))
			m->thr.src = s0->thr_src;
		if (m->thr.src != THR_SRC_KERNEL)
			snprintf(m->thr.why_sampled, sizeof(m->thr.why_sampled), "recorded without the tracepoints");
		free(s0);
	}
	v.m = m;
	v.o = o;
	v.batch = o->batch;
	v.pos = SIZE_MAX;
	v.interval = h->interval > 0 ? h->interval : 0.5;
	pthread_mutex_init(&v.lock, NULL);
	pthread_cond_init(&v.cond, NULL);
	snprintf(m->source, sizeof(m->source), "recording %s", path);
	if (!v.batch) {
		m->key_hook = view_key;
		m->replay_seekable = true;
		m->key_ctx = &v;
	}
	if ((rc = pthread_create(&v.thread, NULL, view_thread, &v))) {
		fprintf(stderr, "iodash view: cannot start the replay: %s\n", strerror(rc));
		rc = 1;
	} else {
		rc = v.batch ? batch_run(m, o, stdout) : ui_run(m, o);
		pthread_mutex_lock(&v.lock);
		v.quit = true;
		pthread_cond_signal(&v.cond);
		pthread_mutex_unlock(&v.lock);
		pthread_join(v.thread, NULL);
	}
	model_free(m);
	free(m);
	pthread_mutex_destroy(&v.lock);
	pthread_cond_destroy(&v.cond);
	recording_close(v.rec);
	return rc;
}

int cmd_view(const struct iodash_opts *o)
{
	struct sigaction sa;
	int rc = 0;

	if (o->nargs < 1) {
		fprintf(stderr, "iodash view: give one or more recordings (.rec files that iodash -o writes)\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = view_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* several recordings: one after the other */
	for (int i = 0; i < o->nargs && !app_got_sigint; i++) {
		int r = view_one(o->args[i], o);
		if (r && !rc)
			rc = r;
	}
	return rc;
}
