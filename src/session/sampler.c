/* sampler: see sampler.h.  One thread, asleep between ticks in one
 * sem_clockwait on CLOCK_MONOTONIC (one futex call a tick: a timerfd
 * costs a poll and a read, a condition variable's time-out a second
 * futex call), posted only to stop. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "iodash/session/sampler.h"
#include "iodash/probe/knobs.h"
#include "iodash/probe/procio.h"
#include "iodash/base/util.h"
#include "iodash/session/throttle_follow.h"

struct sampler {
	pthread_t thread;
	bool started;
	struct probe *probe;
	struct model *model;
	struct sampler_config cfg;
	sem_t wake;                  /* posted to stop */
	atomic_bool stop;
	uint64_t step_ns;            /* live: the grid's step */
	uint64_t next_ns;            /* live: the next grid point */
	struct snapshot snap[2];     /* the last two reads: prev and cur point in */
	struct snapshot *prev, *cur;
	struct sample smp;           /* derived into, its disks[] kept from sample to sample */
	bool have_first;
	struct throttle_follow thr;
	unsigned long missed;
	unsigned long missed_said;  /* missed ticks already said in a note */
	double missed_said_t;       /* when, or < 0 never */
	double last_t;              /* of the last sample published */
	double gap_max;             /* the longest time between two samples since the last note */
	double slow_read_s;         /* the longest probe read since the last note */
	double host_down_t;         /* --host: when its pmcd went away, or < 0 */
	char last_note[SNAP_NOTE_LEN]; /* the probe's note last said: said again only when it changes */
	uint64_t replay_start_ns;   /* our mono time when a paced trace replay began */
	struct procio pio;          /* the context panel's scans of /proc */
	double pio_last;            /* util_mono_s() of the last scan; < 0 none */
	bool pio_said;              /* ctx_why was given for a probe without /proc */
};

static struct timespec ns_to_ts(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u) };
}

/* Live sampling keeps one grid: sample k is read at t0 + k * interval,
 * where t0 is sample 0's own read.  Arming the timer "one interval from
 * now" when the thread starts would shift every later sample by what ran
 * between sample 0 and here (the recording's header, the PCP publisher:
 * 2-3 ms measured, more when loaded), so that sample 1 spans more than an
 * interval and no sample lines up with a tool started with sample 0
 * (iostat -x 1 beside --batch -i 1).  Grid points already past when the
 * thread starts are not missed ticks (nothing was sampling yet): the first
 * tick is the next grid point still ahead. */
static void sampler_arm_grid(struct sampler *s, uint64_t t0_ns)
{
	uint64_t step = (uint64_t)(s->cfg.interval * 1e9), now = util_mono_ns(), first;

	if (!step)
		step = 1;
	first = t0_ns + step;
	if (t0_ns > now || now - t0_ns > 3600ull * 1000000000u)
		first = now + step;            /* not a time of this clock: start the grid here */
	else if (first <= now)
		first += (now - first) / step * step + step;
	s->step_ns = step;
	s->next_ns = first;
}

/* The read just published becomes prev; the next read goes to the other
 * buffer (a snapshot is 12 KB: not copied a sample). */
static void sampler_swap(struct sampler *s)
{
	struct snapshot *t = s->prev;

	s->prev = s->cur;
	s->cur = t;
}

static bool stop_requested(struct sampler *s)
{
	return atomic_load(&s->stop);
}

/* Sleep until CLOCK_MONOTONIC reaches at_ns.  Returns false when asked to
 * stop. */
static bool sampler_sleep_until(struct sampler *s, uint64_t at_ns)
{
	struct timespec ts = ns_to_ts(at_ns);

	while (!stop_requested(s) && sem_clockwait(&s->wake, CLOCK_MONOTONIC, &ts) == 0)
		;    /* a post is a stop (looked at above); EINTR: sleep on */
	return !stop_requested(s);
}

/* Wait until the next grid point.  Grid points that passed while this
 * thread was busy or not scheduled are missed ticks: counted, not read.
 * Returns false when asked to stop. */
static bool sampler_wait_tick(struct sampler *s)
{
	if (!sampler_sleep_until(s, s->next_ns))
		return false;
	uint64_t now = util_mono_ns();
	if (now >= s->next_ns + s->step_ns) {
		uint64_t late = (now - s->next_ns) / s->step_ns;
		s->missed += late;
		s->next_ns += late * s->step_ns;
	}
	s->next_ns += s->step_ns;
	return true;
}

/* A paced trace replay: sleep until the recorded offset of the next sample. */
static bool sampler_wait_trace(struct sampler *s)
{
	double off = probe_trace_next_offset(s->probe);

	if (off < 0)
		return !stop_requested(s);      /* at the end: probe_read says so */
	return sampler_sleep_until(s, s->replay_start_ns + (uint64_t)(off * 1e9) + 1);
}

/* --fast: never overrun what the front end has not taken yet. */
static bool sampler_wait_consumer(struct sampler *s)
{
	struct model *m = s->model;

	for (;;) {
		if (stop_requested(s))
			return false;
		model_lock(m);
		bool room = m->series.pushed - m->consumed < m->series.cap / 2;
		model_unlock(m);
		if (room)
			return true;
		usleep(500);
	}
}

/* Missed ticks are counted in every sample (the live header shows the
 * count, the recording keeps it) and said as a note when they happen:
 * at once the first time, then at most once a second, so a machine that
 * stays too busy does not flood the events; what is left is said at the
 * end (last). */
static void sampler_note_missed(struct sampler *s, double t, bool last)
{
	unsigned long n = s->missed - s->missed_said;
	char why[160];

	if (!n || (!last && s->missed_said_t >= 0 && t - s->missed_said_t < 1.0))
		return;
	/* a read that itself outlasted a tick (a pmcd that stalls, a /proc
	 * that blocks) is why, not the machine; the gap is the one measured
	 * between samples, not the ticks' count (a --host outage skips
	 * ticks without counting each) */
	if (s->slow_read_s >= s->cfg.interval && probe_kind(s->probe) == PROBE_HOST)
		snprintf(why, sizeof(why), "%s took up to %.1f s to answer", s->model->source,
			 s->slow_read_s);
	else if (s->slow_read_s >= s->cfg.interval)
		snprintf(why, sizeof(why), "reading the counters took up to %.1f s", s->slow_read_s);
	else
		snprintf(why, sizeof(why), "the machine is too busy for -i %g", s->cfg.interval);
	double gap = s->gap_max > n * s->cfg.interval ? s->gap_max : n * s->cfg.interval;
	model_add_event(s->model, MEV_NOTE, t, "missed %lu sampling tick%s: %.2f s without a sample (%lu in all); %s",
			n, n > 1 ? "s" : "", gap, s->missed, why);
	s->missed_said = s->missed;
	s->missed_said_t = t;
	s->gap_max = s->slow_read_s = 0;
}

static void sampler_finish(struct sampler *s, int exit_code, const char *error)
{
	struct model *m = s->model;

	if (!error)
		sampler_note_missed(s, s->last_t, true);

	model_lock(m);
	m->sampler_done = true;
	if (error && !m->error[0]) {
		snprintf(m->error, sizeof(m->error), "%s", error);
		m->exit_code = exit_code;
	}
	model_unlock(m);
	model_notify(m);
}

/* --host: the host's pmcd went away (said once, with why) or came back. */
static void sampler_note_host(struct sampler *s, bool back, const char *why)
{
	double t = model_now(s->model);

	if (back) {
		/* since the last sample: the outage began before the read
		 * that timed out said so */
		model_add_event(s->model, MEV_NOTE, t, "%s: reachable again after %.1f s without samples",
				s->model->source, t - (s->last_t < s->host_down_t ? s->last_t : s->host_down_t));
		s->host_down_t = -1;
		sampler_swap(s);
	} else if (s->host_down_t < 0) {
		model_add_event(s->model, MEV_NOTE, t, "%s", why);
		s->host_down_t = t;
	}
}

/* The context panel: while a front end shows it, scan /proc at most once
 * a second (a scan reads a file per process: not per sample), with the
 * benchmark's pid to mark its tree and the kernel's pauses of the
 * samples since the last scan. */
static void sampler_context(struct sampler *s, const struct sample *smp)
{
	struct model *m = s->model;
	char err[MODEL_LINE_LEN] = "";

	model_lock(m);
	bool want = m->ctx_wanted;
	pid_t root = m->bench.state == BENCH_RUNNING || m->bench.state == BENCH_STARTING
		     ? m->bench.pid : 0;
	model_unlock(m);
	if (!want)
		return;
	if (probe_kind(s->probe) != PROBE_LIVE) {
		if (!s->pio_said)
			model_set_context(m, NULL, probe_kind(s->probe) == PROBE_HOST
					  ? "processes and CPU are read from this machine's /proc: not with --host"
					  : "processes and CPU are read live from /proc: not in a replay");
		s->pio_said = true;
		return;
	}
	double now = util_mono_s();
	if (s->pio_last >= 0 && now - s->pio_last > 2.5 * (s->cfg.interval > 1 ? s->cfg.interval : 1)) {
		/* shown again after a while hidden: rates over that while would
		 * be an average of the past, not what is going on; start over */
		procio_free(&s->pio);
		procio_init(&s->pio, NULL);
	}
	procio_note_pauses(&s->pio, smp);
	if (s->pio_last >= 0 && now - s->pio_last < 1.0 - 1e-3)
		return;
	s->pio_last = now;
	struct procio_view *v = malloc(sizeof(*v));
	if (!v)
		return;
	int rc = procio_scan(&s->pio, procio_now(), root, s->cur, v, err, sizeof(err));
	model_set_context(m, v, rc ? err : "");
	free(v);
}

/* Derive, follow throttling, publish: the one path every sample takes. */
static void sampler_publish(struct sampler *s, const struct snapshot *prev,
			    uint64_t t0_ns, uint64_t seq)
{
	struct model *m = s->model;
	struct sample smp;

	if (derive_sample(prev, s->cur, t0_ns, seq, &s->cfg.disks, &s->smp))
		model_add_event(m, MEV_NOTE, s->smp.t, "out of memory for %d devices: sample %llu has none",
				s->cur->ndisks, (unsigned long long)seq);
	smp = s->smp;   /* a view: disks[] stays the sampler's */
	throttle_follow_sample(&s->thr, m, &smp, s->cur->mono_ns);
	smp.missed = s->missed;
	model_add_sample(m, &smp);
	if (prev && smp.t - s->last_t > s->gap_max)
		s->gap_max = smp.t - s->last_t;
	s->last_t = smp.t;
	sampler_note_missed(s, smp.t, false);
	/* a value out of range the probe read as n/a: where, once while it lasts */
	if (strcmp(s->cur->note, s->last_note)) {
		if (s->cur->note[0])
			model_add_event(m, MEV_NOTE, smp.t, "%s", s->cur->note);
		memcpy(s->last_note, s->cur->note, sizeof(s->last_note));
	}
	for (int i = 0; i < smp.ndisks; i++)
		if (smp.disks[i].reset)
			model_add_event(m, MEV_NOTE, smp.t, "%s: counters reset (device re-created?)",
					smp.disks[i].name);
	throttle_follow_emit(&s->thr, m);
	sampler_context(s, &smp);
	if (seq == 0)
		throttle_follow_announce(m);
	if (prev) {
		/* a knob set by hand (or by a script) during the session is
		 * part of what the figures mean; iodash's own writes it says itself */
		struct knob_change kc[6];
		int nk = knobs_snapshot_changes(prev, s->cur, kc, 6);
		for (int i = 0; i < nk; i++)
			model_add_event(m, MEV_KNOB, smp.t, "%s %s -> %s (not by iodash)",
					kc[i].key, kc[i].old_value, kc[i].new_value);
	}
	if (s->cfg.after_sample)
		s->cfg.after_sample(s->cfg.ctx, &smp);
}

static void *sampler_main(void *arg)
{
	struct sampler *s = arg;
	char err[256] = "";
	bool trace = probe_kind(s->probe) == PROBE_TRACE;
	int rc;

	/* our own vmstat reads are no writer's: not an event a sample */
	ktrace_ignore_reader(s->cfg.ktrace, gettid());
	if (!s->have_first && (rc = probe_read(s->probe, s->cur, err, sizeof(err)))) {
		sampler_finish(s, 1, err);
		return NULL;
	}
	/* sample 0 sets the session's t0: recorded time for a trace, ours live */
	uint64_t t0_ns = s->cur->mono_ns;
	/* live: the first snapshot's own time, so that kernel event times
	 * (CLOCK_MONOTONIC) and samples share one session clock */
	model_set_t0(s->model, trace ? util_mono_ns() : t0_ns);
	s->replay_start_ns = util_mono_ns();
	if (!trace)
		sampler_arm_grid(s, t0_ns);
	sampler_publish(s, NULL, t0_ns, 0);
	sampler_swap(s);

	for (uint64_t seq = 1; !s->cfg.count || (long)seq < s->cfg.count; seq++) {
		bool go;
		if (trace && s->cfg.fast)
			go = sampler_wait_consumer(s);
		else if (trace)
			go = sampler_wait_trace(s);
		else
			go = sampler_wait_tick(s);
		if (!go)
			break;
		uint64_t r0 = util_mono_ns();
		rc = probe_read(s->probe, s->cur, err, sizeof(err));
		double took = (util_mono_ns() - r0) / 1e9;
		if (took > s->slow_read_s)
			s->slow_read_s = took;
		if (rc == -ENODATA)
			break;
		if (rc == -EHOSTDOWN || (!rc && s->host_down_t >= 0)) {
			/* --host: a tick without the host is no sample (seq
			 * stays); the first read after it only restarts the
			 * rates, which would otherwise span the gap */
			sampler_note_host(s, rc == 0, err);
			seq--;
			if (s->cfg.duration > 0 && (util_mono_ns() - s->replay_start_ns) / 1e9 > s->cfg.duration + 1e-6)
				break;
			continue;
		}
		if (rc) {
			sampler_finish(s, 1, err);
			return NULL;
		}
		if (s->cfg.duration > 0 && (s->cur->mono_ns - t0_ns) / 1e9 > s->cfg.duration + 1e-6)
			break;
		sampler_publish(s, s->prev, t0_ns, seq);
		sampler_swap(s);
	}
	throttle_follow_finish(&s->thr, s->model);
	sampler_finish(s, 0, NULL);
	return NULL;
}

int sampler_start(struct sampler **out, struct probe *p, struct model *m,
		  const struct sampler_config *cfg, const struct snapshot *first,
		  char *err, size_t errlen)
{
	struct sampler *s = calloc(1, sizeof(*s));
	int rc;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	s->probe = p;
	s->model = m;
	s->prev = &s->snap[0];
	s->cur = &s->snap[1];
	s->cfg = *cfg;
	/* meminfo, the knobs and PSI: once a second is their pace */
	probe_set_slow_period(p, 1.0);
	throttle_follow_init(&s->thr, cfg->ktrace, cfg->throttle_gap);
	procio_init(&s->pio, NULL);
	s->pio_last = -1;
	s->missed_said_t = -1;
	s->host_down_t = -1;
	if (first) {
		if (snapshot_copy(s->cur, first)) {
			snprintf(err, errlen, "out of memory for %d devices", first->ndisks);
			free(s);
			return -ENOMEM;
		}
		s->have_first = true;
	}
	sem_init(&s->wake, 0, 0);
	atomic_init(&s->stop, false);
	rc = -pthread_create(&s->thread, NULL, sampler_main, s);
	if (rc) {
		snprintf(err, errlen, "cannot start the sampler thread: %s", strerror(-rc));
		goto fail;
	}
	s->started = true;
	*out = s;
	return 0;
fail:
	sem_destroy(&s->wake);
	procio_free(&s->pio);
	snapshot_free(&s->snap[0]);
	snapshot_free(&s->snap[1]);
	free(s);
	return rc;
}

void sampler_halt(struct sampler *s)
{
	if (!s || !s->started)
		return;
	atomic_store(&s->stop, true);
	sem_post(&s->wake);
	pthread_join(s->thread, NULL);
	s->started = false;
}

void sampler_stop(struct sampler *s)
{
	if (!s)
		return;
	sampler_halt(s);
	sem_destroy(&s->wake);
	procio_free(&s->pio);
	snapshot_free(&s->snap[0]);
	snapshot_free(&s->snap[1]);
	sample_free(&s->smp);
	free(s);
}
