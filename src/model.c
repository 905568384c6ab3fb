/* model: the state shared by producers (sampler, benchmark driver, replay)
 * and the front end.  One mutex; producers hold it only to copy in. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "iodash/model.h"

int model_init(struct model *m, size_t series_cap)
{
	memset(m, 0, sizeof(*m));
	m->wake_pipe[0] = m->wake_pipe[1] = -1;
	if (pthread_mutex_init(&m->lock, NULL))
		return -ENOMEM;
	if (pipe2(m->wake_pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
		int e = -errno;
		pthread_mutex_destroy(&m->lock);
		return e;
	}
	int rc = series_init(&m->series, series_cap);
	if (rc) {
		close(m->wake_pipe[0]);
		close(m->wake_pipe[1]);
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
	result_set_free(&m->results);
	if (m->wake_pipe[0] >= 0)
		close(m->wake_pipe[0]);
	if (m->wake_pipe[1] >= 0)
		close(m->wake_pipe[1]);
	m->wake_pipe[0] = m->wake_pipe[1] = -1;
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

void model_notify(struct model *m)
{
	char c = 1;
	/* Non-blocking: a full pipe already means "wake up". */
	if (write(m->wake_pipe[1], &c, 1) < 0 && errno != EAGAIN)
		return;
}

int model_wake_fd(const struct model *m)
{
	return m->wake_pipe[0];
}

void model_drain_wake(struct model *m)
{
	char buf[256];

	while (read(m->wake_pipe[0], buf, sizeof(buf)) > 0)
		;
}

void model_add_sample(struct model *m, const struct sample *s)
{
	model_lock(m);
	series_push(&m->series, s);
	if (m->obs.on_sample)
		m->obs.on_sample(m->obs.ctx, s);
	model_unlock(m);
	model_notify(m);
}

void model_add_event(struct model *m, enum model_event_kind kind, double t, const char *fmt, ...)
{
	struct model_event e = { .kind = kind, .t = t };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e.text, sizeof(e.text), fmt, ap);
	va_end(ap);
	model_lock(m);
	m->events[m->nevents % MODEL_EVENT_CAP] = e;
	m->nevents++;
	if (m->obs.on_event)
		m->obs.on_event(m->obs.ctx, &e);
	model_unlock(m);
	model_notify(m);
}

void model_add_output(struct model *m, double t, int run, const char *line)
{
	struct output_line l = { .t = t, .run = run };

	snprintf(l.text, sizeof(l.text), "%s", line);
	model_lock(m);
	m->output[m->noutput % MODEL_OUTPUT_CAP] = l;
	m->noutput++;
	if (m->obs.on_output)
		m->obs.on_output(m->obs.ctx, &l);
	model_unlock(m);
	model_notify(m);
}

void model_add_result(struct model *m, const struct result_point *p)
{
	model_lock(m);
	/* progress points (one a second for hours) go to the recording only:
	 * the screens show the latest through bench.progress, and memory
	 * stays flat */
	if (!(p->flags & RP_PROGRESS))
		result_set_add(&m->results, p);
	if (m->obs.on_result)
		m->obs.on_result(m->obs.ctx, p);
	model_unlock(m);
	model_notify(m);
}

void model_set_bench(struct model *m, const struct bench_status *b)
{
	model_lock(m);
	m->bench = *b;
	if (m->obs.on_bench)
		m->obs.on_bench(m->obs.ctx, b);
	model_unlock(m);
	model_notify(m);
}

void model_set_t0(struct model *m, uint64_t t0_mono_ns)
{
	model_lock(m);
	m->t0_mono_ns = t0_mono_ns;
	m->clock0_mono_ns = t0_mono_ns;
	model_unlock(m);
}

double model_now(const struct model *m)
{
	struct timespec ts;
	uint64_t t0 = __atomic_load_n(&m->t0_mono_ns, __ATOMIC_RELAXED);

	if (!t0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
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
	}
	return "?";
}
