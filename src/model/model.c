/* model: the state shared by producers (sampler, benchmark driver, replay)
 * and the front end.  One mutex; producers hold it only to copy in. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "iodash/model/model.h"
#include "iodash/base/util.h"

int model_init(struct model *m, size_t series_cap)
{
	memset(m, 0, sizeof(*m));
	m->wake_pipe[0] = m->wake_pipe[1] = -1;
	if (pthread_mutex_init(&m->lock, NULL))
		return -ENOMEM;
	/* the producer's timed waits must not jump with the wall clock */
	pthread_condattr_t ca;
	int rc = pthread_condattr_init(&ca);
	if (!rc) {
		rc = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		if (!rc)
			rc = pthread_cond_init(&m->cmd_cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	if (rc) {
		pthread_mutex_destroy(&m->lock);
		return -rc;
	}
	if (pipe2(m->wake_pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
		int e = -errno;
		pthread_cond_destroy(&m->cmd_cond);
		pthread_mutex_destroy(&m->lock);
		return e;
	}
	rc = series_init(&m->series, series_cap);
	if (!rc && (!(m->events = calloc(MODEL_EVENT_CAP, sizeof(*m->events))) ||
		    !(m->output = calloc(MODEL_OUTPUT_CAP, sizeof(*m->output))))) {
		free(m->events);
		series_free(&m->series);
		rc = -ENOMEM;
	}
	if (rc) {
		close(m->wake_pipe[0]);
		close(m->wake_pipe[1]);
		pthread_cond_destroy(&m->cmd_cond);
		pthread_mutex_destroy(&m->lock);
		return rc;
	}
	m->bench.last_exit_status = -1;
	m->bench.eta_s = -1;
	return 0;
}

void model_free(struct model *m)
{
	series_free(&m->series);
	free(m->hist);
	free(m->events);
	free(m->output);
	m->hist = NULL;
	m->events = NULL;
	m->output = NULL;
	result_set_free(&m->results);
	if (m->wake_pipe[0] >= 0)
		close(m->wake_pipe[0]);
	if (m->wake_pipe[1] >= 0)
		close(m->wake_pipe[1]);
	m->wake_pipe[0] = m->wake_pipe[1] = -1;
	pthread_cond_destroy(&m->cmd_cond);
	pthread_mutex_destroy(&m->lock);
}

void model_lock(struct model *m)
{
	pthread_mutex_lock(&m->lock);
}

void model_unlock(struct model *m)
{
	pthread_mutex_unlock(&m->lock);
}

/* The wake pipe carries one byte a notify: 1 for news a screen shows at
 * once, 0 for data it may take at its refresh. */
static void model_wake(struct model *m, char c)
{
	/* Non-blocking: a full pipe already means "wake up". */
	if (write(m->wake_pipe[1], &c, 1) < 0 && errno != EAGAIN)
		return;
}

void model_notify(struct model *m)
{
	model_wake(m, 1);
}

void model_notify_data(struct model *m)
{
	model_wake(m, 0);
}

/* A change only a front end that asked for each one is woken for. */
static void model_notify_routine(struct model *m)
{
	if (m->wake_on_sample || m->backpressure)
		model_notify_data(m);
}

uint64_t model_gen_locked(const struct model *m)
{
	return m->gen;
}

int model_wake_fd(const struct model *m)
{
	return m->wake_pipe[0];
}

bool model_drain_wake(struct model *m)
{
	char buf[256];
	bool news = false;
	ssize_t n;

	while ((n = read(m->wake_pipe[0], buf, sizeof(buf))) > 0)
		news = news || memchr(buf, 1, (size_t)n) != NULL;
	return news;
}

int model_keep_history(struct model *m, double width)
{
	struct history *h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	history_init(h, width);
	model_lock(m);
	free(m->hist);
	m->hist = h;
	for (size_t i = 0, n = series_len(&m->series); i < n; i++)
		history_fold(h, series_at(&m->series, i));
	model_unlock(m);
	return 0;
}

void model_put_sample_locked(struct model *m, const struct sample *s)
{
	series_push(&m->series, s);
	if (m->hist)
		history_fold(m->hist, s);
}

void model_add_sample(struct model *m, const struct sample *s)
{
	model_lock(m);
	model_put_sample_locked(m, s);
	if (m->obs.on_sample)
		m->obs.on_sample(m->obs.ctx, s);
	m->gen++;
	model_unlock(m);
	model_notify_routine(m);
}

void model_put_event_locked(struct model *m, const struct model_event *e)
{
	m->events[m->nevents % MODEL_EVENT_CAP] = *e;
	m->nevents++;
}

void model_put_output_locked(struct model *m, const struct output_line *l)
{
	m->output[m->noutput % MODEL_OUTPUT_CAP] = *l;
	m->noutput++;
}

void model_clear_locked(struct model *m)
{
	series_clear(&m->series);
	if (m->hist)
		history_clear(m->hist);
	m->nevents = m->noutput = 0;
	m->results.n = 0;
	memset(&m->bench, 0, sizeof(m->bench));
	m->bench.last_exit_status = -1;
	m->bench.eta_s = -1;
}

void model_add_event(struct model *m, enum model_event_kind kind, double t, const char *fmt, ...)
{
	struct model_event e = { .kind = kind, .t = t };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e.text, sizeof(e.text), fmt, ap);
	va_end(ap);
	model_lock(m);
	model_put_event_locked(m, &e);
	if (m->obs.on_event)
		m->obs.on_event(m->obs.ctx, &e);
	m->gen++;
	model_unlock(m);
	model_notify(m);
}

void model_add_output(struct model *m, double t, int run, const char *line)
{
	struct output_line l = { .t = t, .run = run };

	snprintf(l.text, sizeof(l.text), "%s", line);
	model_lock(m);
	model_put_output_locked(m, &l);
	if (m->obs.on_output)
		m->obs.on_output(m->obs.ctx, &l);
	m->gen++;
	model_unlock(m);
	model_notify_routine(m);
}

void model_add_result(struct model *m, const struct result_point *p)
{
	struct result_point q = *p;

	/* on the samples' clock, so front ends print it where it came */
	q.t = model_now(m);
	p = &q;
	model_lock(m);
	/* progress points (one a second for hours) go to the recording only:
	 * the screens show the latest through bench.progress, and memory
	 * stays flat */
	if (!(p->flags & RP_PROGRESS))
		result_set_add(&m->results, p);
	if (m->obs.on_result)
		m->obs.on_result(m->obs.ctx, p);
	m->gen++;
	model_unlock(m);
	model_notify_routine(m);
}

void model_set_bench(struct model *m, const struct bench_status *b)
{
	model_lock(m);
	/* a run starting or ending shows at once; its figures at the refresh */
	bool news = m->bench.state != b->state || m->bench.run_index != b->run_index;
	m->bench = *b;
	if (m->obs.on_bench)
		m->obs.on_bench(m->obs.ctx, b);
	m->gen++;
	model_unlock(m);
	if (news)
		model_notify(m);
	else
		model_notify_routine(m);
}

void model_set_source(struct model *m, const char *source)
{
	model_lock(m);
	snprintf(m->source, sizeof(m->source), "%s", source);
	m->gen++;
	model_unlock(m);
	model_notify(m);
}

void model_set_remote_bench(struct model *m, const char *text)
{
	model_lock(m);
	bool changed = strcmp(m->remote_bench, text) != 0;
	if (changed) {
		snprintf(m->remote_bench, sizeof(m->remote_bench), "%s", text);
		m->gen++;
	}
	model_unlock(m);
	if (changed)
		model_notify(m);
}

void model_set_error(struct model *m, const char *error)
{
	model_lock(m);
	snprintf(m->error, sizeof(m->error), "%s", error);
	m->gen++;
	model_unlock(m);
	model_notify(m);
}

void model_want_context(struct model *m, bool want)
{
	model_lock(m);
	m->ctx_wanted = want;
	model_unlock(m);
}

void model_set_context(struct model *m, const struct procio_view *v, const char *why)
{
	model_lock(m);
	if (v)
		m->ctx = *v;
	snprintf(m->ctx_why, sizeof(m->ctx_why), "%s", why ? why : "");
	m->gen++;
	model_unlock(m);
	model_notify_routine(m);
}

void model_set_paused(struct model *m, bool paused)
{
	model_lock(m);
	m->paused = paused;
	pthread_cond_broadcast(&m->cmd_cond);
	model_unlock(m);
}

bool model_is_paused(struct model *m)
{
	bool p;

	model_lock(m);
	p = m->paused;
	model_unlock(m);
	return p;
}

int model_post_cmd(struct model *m, int kind, double arg, const char *text)
{
	int rc = 0;

	model_lock(m);
	if (kind == MODEL_CMD_QUIT) {
		m->cmd_quit = true;
	} else if (m->ncmds == MODEL_CMD_CAP) {
		rc = -EAGAIN;
	} else {
		struct model_cmd *c = &m->cmds[(m->cmd_first + m->ncmds) % MODEL_CMD_CAP];
		c->kind = kind;
		c->arg = arg;
		snprintf(c->text, sizeof(c->text), "%s", text ? text : "");
		m->ncmds++;
	}
	if (!rc)
		pthread_cond_broadcast(&m->cmd_cond);
	model_unlock(m);
	return rc;
}

/* With the lock held: take the first command, the quit before all. */
static bool model_take_cmd(struct model *m, struct model_cmd *c)
{
	if (m->cmd_quit) {
		memset(c, 0, sizeof(*c));
		c->kind = MODEL_CMD_QUIT;
		return true;
	}
	if (!m->ncmds)
		return false;
	*c = m->cmds[m->cmd_first];
	m->cmd_first = (m->cmd_first + 1) % MODEL_CMD_CAP;
	m->ncmds--;
	return true;
}

bool model_wait_cmd(struct model *m, struct model_cmd *c, double timeout_s)
{
	bool got;

	model_lock(m);
	got = model_take_cmd(m, c);
	if (!got && timeout_s > 0) {
		/* the condition variable waits on CLOCK_MONOTONIC (model_init) */
		uint64_t until = util_mono_ns() + (uint64_t)(timeout_s * 1e9);
		struct timespec ts = { .tv_sec = (time_t)(until / 1000000000u),
				       .tv_nsec = (long)(until % 1000000000u) };
		/* one wait: a pause or a spurious wake-up returns false, and the
		 * producer looks at its state again */
		pthread_cond_timedwait(&m->cmd_cond, &m->lock, &ts);
		got = model_take_cmd(m, c);
	}
	model_unlock(m);
	return got;
}

void model_set_t0(struct model *m, uint64_t t0_mono_ns)
{
	/* model_now() reads it without the lock, from any thread: both sides
	 * atomic (a plain store under the lock still races with that read) */
	__atomic_store_n(&m->clock0_mono_ns, t0_mono_ns, __ATOMIC_RELEASE);
	__atomic_store_n(&m->t0_mono_ns, t0_mono_ns, __ATOMIC_RELEASE);
}

double model_now(const struct model *m)
{
	uint64_t t0 = __atomic_load_n(&m->t0_mono_ns, __ATOMIC_ACQUIRE);

	if (!t0)
		return 0;
	uint64_t now = util_mono_ns();
	return now > t0 ? (now - t0) / 1e9 : 0;
}

const char *model_event_kind_name(enum model_event_kind k)
{
	switch (k) {
	case MEV_HIT_START: return "hit_start";
	case MEV_HIT_END: return "hit_end";
	case MEV_MARK: return "mark";
	case MEV_RUN_START: return "run_start";
	case MEV_RUN_END: return "run_end";
	case MEV_NOTE: return "note";
	case MEV_KNOB: return "knob";
	case MEV_RUN_SUMMARY: return "run_summary";
	case MEV_DECISION: return "decision";
	}
	return "?";
}

bool model_run_end_stopped(const char *text)
{
	/* the verdict is the word before the first ": " (the tag before it,
	 * "run" or "run 2/3", has none) */
	const char *c = strstr(text, ": ");
	size_t n = sizeof(MODEL_RUN_STOPPED) - 1;
	return c && (size_t)(c - text) >= n && !strncmp(c - n, MODEL_RUN_STOPPED, n) &&
	       (c - text == (ptrdiff_t)n || c[-(ptrdiff_t)n - 1] == ' ');
}
