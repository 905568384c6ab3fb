/* frame: the pure maths of a live frame (zone badge, active disks,
 * buckets, window span) over a history, and the copy from the model. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/model/model.h"
#include "ui/frame.h"

/* S[i]: samples 0.1 s apart; vda writes 100*seq kB/s, vdb is idle, vdc
 * has no rate; the dirty level rises 10 kB a sample. */
static struct sample S[64];
static struct history H;

static void samples(size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct sample *p = &S[i];
		sample_reset(p);
		for (int d = 0; d < 3; d++)
			assert_non_null(sample_add_disk(p));
		p->seq = i;
		p->t = 0.1 * (double)i;
		p->have_dirty = true;
		p->zone = ZONE_BELOW_BG;
		p->dirty_kb = 10 * i;
		snprintf(p->disks[0].name, sizeof p->disks[0].name, "vda");
		snprintf(p->disks[1].name, sizeof p->disks[1].name, "vdb");
		snprintf(p->disks[2].name, sizeof p->disks[2].name, "vdc");
		p->disks[0].have_rate = p->disks[1].have_rate = true;
		p->disks[0].wkB_s = (double)(100 * i);
	}
}

/* Every disk of S, for frame_buckets */
static const int ALL3[] = { 0, 1, 2 };

/* The frame of S[0..n), its history in buckets of `width` s (last: a
 * view of S[n - 1], sharing its disks). */
static void build(struct frame *f, size_t n, double width)
{
	memset(f, 0, sizeof *f);
	history_init(&H, width);
	for (size_t i = 0; i < n; i++)
		history_fold(&H, &S[i]);
	f->hist = &H;
	f->window = 1000;
	f->have_last = n > 0;
	if (n)
		f->last = S[n - 1];
}

static void test_worst_zone(void **state)
{
	(void)state;
	struct frame f;
	samples(30);
	build(&f, 30, 0.1);
	assert_int_equal(frame_worst_zone(&f, 1.0), ZONE_BELOW_BG);
	/* a throttled sample 0.5 s ago counts within a 1 s period ... */
	S[24].zone = ZONE_THROTTLE;
	build(&f, 30, 0.1);
	assert_int_equal(frame_worst_zone(&f, 1.0), ZONE_THROTTLE);
	/* ... not within 0.25 s */
	assert_int_equal(frame_worst_zone(&f, 0.25), ZONE_BELOW_BG);
	/* a sample without dirty levels says nothing */
	S[28].zone = ZONE_HARD_LIMIT;
	S[28].have_dirty = false;
	build(&f, 30, 0.1);
	assert_int_equal(frame_worst_zone(&f, 1.0), ZONE_THROTTLE);
	f.last.have_dirty = false;
	assert_int_equal(frame_worst_zone(&f, 1.0), ZONE_UNKNOWN);
	/* no history copied yet: the newest sample alone */
	f.last.have_dirty = true;
	f.hist = NULL;
	assert_int_equal(frame_worst_zone(&f, 1.0), ZONE_BELOW_BG);
}

static void test_zone_badge(void **state)
{
	(void)state;
	enum theme_elem e;
	assert_string_equal(frame_zone_badge(ZONE_THROTTLE, &e), " THROTTLE ");
	assert_int_equal(e, TE_BADGE_THROTTLE);
	assert_string_equal(frame_zone_badge(ZONE_HARD_LIMIT, &e), " HARD LIMIT ");
	assert_int_equal(e, TE_BADGE_HARD);
	assert_string_equal(frame_zone_badge(ZONE_UNKNOWN, &e), " zone n/a ");
	assert_int_equal(e, TE_BADGE_UNKNOWN);
	assert_string_equal(frame_zone_badge_short(ZONE_BG_FLUSH), " bg ");
	assert_string_equal(frame_zone_badge_short(ZONE_BELOW_BG), " ok ");
}

static void test_active_disks(void **state)
{
	(void)state;
	struct frame f;
	int idx[FRAME_DISKS], idle = -1;
	samples(10);
	build(&f, 10, 0.1);
	/* vda writes, vdb reads zero, vdc has no rate at all */
	assert_int_equal(frame_active_disks(&f, idx, FRAME_DISKS, &idle), 1);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idle, 2);
	S[3].disks[2].have_rate = true;
	S[3].disks[2].rkB_s = 5;
	build(&f, 10, 0.1);
	assert_int_equal(frame_active_disks(&f, idx, FRAME_DISKS, &idle), 2);
	assert_int_equal(idx[1], 2);
	assert_int_equal(idle, 1);
	/* at most max listed; the others busy are counted, not idle */
	assert_int_equal(frame_active_disks(&f, idx, 1, &idle), 2);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idle, 1);
	/* only the window counts: vdc's read is 6 buckets back */
	f.window = 5;
	assert_int_equal(frame_active_disks(&f, idx, FRAME_DISKS, &idle), 1);
	/* and the bucket being filled: 1 s buckets, none complete yet */
	build(&f, 9, 1.0);
	assert_int_equal(H.nclosed, 0);
	assert_int_equal(frame_active_disks(&f, idx, FRAME_DISKS, &idle), 2);
	f.have_last = false;
	assert_int_equal(frame_active_disks(&f, idx, FRAME_DISKS, &idle), 0);
	assert_int_equal(idle, 0);
}

static void test_buckets(void **state)
{
	(void)state;
	struct frame_column out[8];
	bool have[8];
	struct frame f;
	samples(21);
	build(&f, 20, 0.2);
	assert_int_equal(H.k, 2);
	/* 10 whole buckets of 2 in 8 sub-columns: full, so the window has
	 * jumped by a quarter (2): buckets 2..9 */
	frame_buckets(&f, 8, 0, ALL3, 3, out, have);
	for (int i = 0; i < 8; i++)
		assert_true(have[i]);
	assert_int_equal(out[0].b.seq, 4);
	assert_int_equal(out[7].b.seq, 18);
	assert_float_equal(out[7].wr[0], (1800 + 1900) / 2.0, 1e-3);   /* rates: mean */
	assert_float_equal(out[7].b.level_kb, 190, 1e-9);               /* level: peak */
	assert_true(isnan(out[7].wr[2]));                               /* no rate: n/a */
	/* phase 1: cells from bucket 1, the newest complete pair ends at 8 */
	frame_buckets(&f, 8, 1, ALL3, 3, out, have);
	assert_int_equal(out[0].b.seq, 2);
	assert_int_equal(out[7].b.seq, 16);
	/* a half-filled bucket is not drawn: a 21st sample changes nothing */
	build(&f, 21, 0.2);
	frame_buckets(&f, 8, 0, ALL3, 3, out, have);
	assert_int_equal(out[0].b.seq, 4);
	assert_int_equal(out[7].b.seq, 18);
	/* not yet full, more than half: from the left, the rest empty */
	struct frame_column o16[16];
	bool h16[16];
	build(&f, 20, 0.2);
	assert_int_equal(frame_zoom(&f, 16), 1);
	frame_buckets(&f, 16, 0, ALL3, 3, o16, h16);
	assert_true(h16[0] && h16[9]);
	assert_false(h16[10]);
	assert_int_equal(o16[0].b.seq, 0);
	/* half of it or less (a short run): each bucket over z sub-columns,
	 * across the graph; 4 buckets in 8: 2 each */
	build(&f, 8, 0.2);
	assert_int_equal(frame_zoom(&f, 8), 2);
	frame_buckets(&f, 8, 0, ALL3, 3, out, have);
	for (int i = 0; i < 8; i++)
		assert_true(have[i]);
	assert_int_equal(out[0].b.seq, 0);
	assert_int_equal(out[1].b.seq, 0);
	assert_int_equal(out[2].b.seq, 2);
	assert_int_equal(out[7].b.seq, 6);
	assert_float_equal(frame_window_span(&f, 8), 0.8, 1e-9);
	/* the worst zone of a bucket */
	S[5].zone = ZONE_THROTTLE;
	build(&f, 8, 0.2);
	frame_buckets(&f, 8, 0, ALL3, 3, out, have);
	assert_int_equal(out[4].b.zone, ZONE_THROTTLE);
	assert_int_equal(out[5].b.zone, ZONE_THROTTLE);
	assert_int_equal(out[2].b.zone, ZONE_BELOW_BG);
	/* rates follow the newest sample's order of disks: vda listed second */
	f.last.disks[0] = S[0].disks[1];
	f.last.disks[1] = S[0].disks[0];
	frame_buckets(&f, 8, 0, ALL3, 3, out, have);
	assert_float_equal(out[6].wr[1], (600 + 700) / 2.0, 1e-3);
	assert_float_equal(out[7].wr[1], (600 + 700) / 2.0, 1e-3);
	assert_float_equal(out[6].wr[0], 0, 1e-9);
	/* the rates of the first disk only: the second's are not touched */
	out[6].wr[1] = -1;
	frame_buckets(&f, 8, 0, ALL3, 1, out, have);
	assert_float_equal(out[6].wr[0], 0, 1e-9);
	assert_float_equal(out[6].wr[1], -1, 1e-9);
	/* no history: nothing */
	f.hist = NULL;
	frame_buckets(&f, 8, 0, ALL3, 3, out, have);
	assert_false(have[0]);
}

static void test_window_span(void **state)
{
	(void)state;
	struct frame f;
	samples(20);
	build(&f, 20, 0.2);
	assert_float_equal(frame_window_span(&f, 8), 1.6, 1e-9);
	build(&f, 1, 0.2);
	assert_float_equal(frame_window_span(&f, 8), 0, 0);
}

/* The graphs' time axis: session times at round steps, where they fall. */
static void test_time_ticks(void **state)
{
	(void)state;
	struct frame f;
	struct frame_tick tk[32];
	samples(60);
	/* 6 s in 60 buckets, 100 cells of 2: drawn 2 sub-columns a bucket,
	 * a cell 0.1 s; ticks at least 10 cells apart: every second */
	build(&f, 60, 0.1);
	assert_int_equal(frame_zoom(&f, 200), 2);
	int n = frame_time_ticks(&f, 200, 0, 2, 10, tk, 32);
	assert_int_equal(n, 10);
	assert_int_equal(tk[0].col, 0);
	assert_float_equal(tk[0].t, 0, 1e-9);
	assert_int_equal(tk[3].col, 30);
	assert_float_equal(tk[3].t, 3.0, 1e-9);
	/* 20 cells: the window jumped to bucket 20 (2.0 s), a cell 0.2 s:
	 * every 2 s from 2.0 */
	n = frame_time_ticks(&f, 40, 0, 2, 10, tk, 32);
	assert_int_equal(n, 2);
	assert_float_equal(tk[0].t, 2.0, 1e-9);
	assert_int_equal(tk[0].col, 0);
	assert_float_equal(tk[1].t, 4.0, 1e-9);
	assert_int_equal(tk[1].col, 10);
	/* no history, or no interval yet: no axis */
	build(&f, 1, 0.1);
	assert_int_equal(frame_time_ticks(&f, 40, 0, 2, 10, tk, 32), 0);
	f.hist = NULL;
	assert_int_equal(frame_time_ticks(&f, 40, 0, 2, 10, tk, 32), 0);
}

static void test_events_join(void **state)
{
	(void)state;
	char buf[128];
	assert_true(frame_event_joins_previous(MEV_HIT_START, MEV_HIT_END));
	assert_false(frame_event_joins_previous(MEV_MARK, MEV_HIT_END));
	frame_joined_hit_text("throttle start dirty+writeback=200M", "throttle end 0.20s", buf, sizeof buf);
	assert_string_equal(buf, "throttle 0.20s dirty+writeback=200M");
	frame_joined_hit_text("a", "b", buf, sizeof buf);
	assert_string_equal(buf, "a, b");
}

/* The copy from the model: the graphs' history the model folded, the
 * per-disk rates matched by name (a disk that moved in the list keeps
 * its graph), the badge; later copies bring only what is new, and a
 * clear (a replay's seek) starts them over. */
static void add_samples(struct model *m, int from, int to)
{
	struct sample s = { 0 };
	for (int i = from; i < to; i++) {
		sample_reset(&s);
		for (int d = 0; d < 2; d++)
			assert_non_null(sample_add_disk(&s));
		s.seq = (uint64_t)i;
		s.t = 0.1 * i;
		s.have_dirty = true;
		s.zone = i == 38 ? ZONE_THROTTLE : ZONE_BELOW_BG;
		s.dirty_kb = 100;
		s.writeback_kb = 20;
		/* the disks swap places at sample 20 */
		snprintf(s.disks[0].name, sizeof s.disks[0].name, "%s", i < 20 ? "vda" : "vdb");
		snprintf(s.disks[1].name, sizeof s.disks[1].name, "%s", i < 20 ? "vdb" : "vda");
		s.disks[0].have_rate = s.disks[1].have_rate = true;
		s.disks[i < 20 ? 0 : 1].wkB_s = 500 + i;    /* vda writes */
		model_add_sample(m, &s);
	}
	sample_free(&s);
}

static void test_copy(void **state)
{
	(void)state;
	struct model m;
	struct frame_column out[16];
	bool have[16];
	assert_int_equal(model_init(&m, 64), 0);
	add_samples(&m, 0, 3);             /* before the screen asked: from the queue */
	assert_int_equal(model_keep_history(&m, 0.5), 0);
	add_samples(&m, 3, 40);
	model_add_event(&m, MEV_MARK, 1.0, "mark %u", 1u);
	struct frame f;
	memset(&f, 0, sizeof f);
	assert_int_equal(frame_copy(&f, &m, 80), 0);
	assert_true(f.have_last);
	assert_int_equal(f.hist->k, 5);
	assert_int_equal(f.hist->nclosed, 8);
	frame_buckets(&f, 16, 0, ALL3, 2, out, have);
	/* 8 buckets in 16 sub-columns: two each, across the graph */
	assert_int_equal(frame_zoom(&f, 16), 2);
	assert_true(have[0] && have[15]);
	assert_float_equal(out[0].b.level_kb, 120, 1e-9);
	/* index 1 is vda in the newest sample: its rate all along */
	assert_float_equal(out[0].wr[1], 502, 1e-3);
	assert_float_equal(out[14].wr[1], 537, 1e-3);
	assert_float_equal(out[15].wr[1], 537, 1e-3);
	assert_float_equal(out[0].wr[0], 0, 1e-9);
	assert_int_equal(f.badge_zone, ZONE_THROTTLE);
	assert_int_equal(f.nev, 1);
	assert_string_equal(f.ev[0].text, "mark 1");
	assert_false(f.had_bench);
	/* the next copy brings the new buckets only, to the same result */
	add_samples(&m, 40, 60);
	assert_int_equal(frame_copy(&f, &m, 80), 0);
	assert_int_equal(f.hist->nclosed, 12);
	assert_int_equal(memcmp(f.hist->ring, m.hist->ring, sizeof m.hist->ring), 0);
	frame_buckets(&f, 16, 0, ALL3, 2, out, have);
	assert_float_equal(out[11].wr[1], 557, 1e-3);
	/* a seek clears the model: the copy starts over */
	model_lock(&m);
	model_clear_locked(&m);
	model_unlock(&m);
	add_samples(&m, 30, 36);
	assert_int_equal(frame_copy(&f, &m, 80), 0);
	assert_int_equal(f.hist->nclosed, 1);
	frame_buckets(&f, 16, 0, ALL3, 3, out, have);
	assert_true(have[0] && have[15]);  /* one bucket, across the graph */
	assert_int_equal(f.hist->nsamples, 6);
	frame_free(&f);
	model_free(&m);
}

/* Followed from the kernel, its pauses make the badge: THROTTLE when a
 * writer paused though no sample caught the level over freerun, and
 * background writeback when none paused though one sample was over it. */
static void test_worst_zone_kernel(void **state)
{
	(void)state;
	struct frame f;
	samples(30);
	S[27].throttled = true;
	build(&f, 30, 0.1);
	f.last.thr_src = THR_SRC_KERNEL;
	assert_int_equal(frame_worst_zone(&f, 1.0), ZONE_THROTTLE);
	S[27].throttled = false;
	S[27].zone = ZONE_THROTTLE;
	build(&f, 30, 0.1);
	f.last.thr_src = THR_SRC_KERNEL;
	assert_int_equal(frame_worst_zone(&f, 1.0), ZONE_BG_FLUSH);
	/* sampled: the level decides */
	f.last.thr_src = THR_SRC_SAMPLED;
	assert_int_equal(frame_worst_zone(&f, 1.0), ZONE_THROTTLE);
}

/* The header's pauses: the run's while it runs; after it the machine's,
 * only while writers pause (the sweep's last rates stayed on). */
static void test_pause_rates(void **state)
{
	(void)state;
	struct frame f;
	double p, ms;
	memset(&f, 0, sizeof f);
	f.bench.state = BENCH_RUNNING;
	f.bench.have_tracepoint = true;
	f.bench.pauses_per_s = 48;
	f.bench.pause_ms_per_s = 576;
	f.thr.src = THR_SRC_KERNEL;
	f.thr.last_dt = 0.5;
	assert_true(frame_pause_rates(&f, &p, &ms));
	assert_float_equal(p, 48, 1e-9);
	assert_float_equal(ms, 576, 1e-9);
	f.bench.state = BENCH_DONE;
	assert_false(frame_pause_rates(&f, &p, &ms));
	/* another writer pauses after the sweep: 10 pauses, 120 ms in 0.5 s */
	f.thr.last.pauses = 10;
	f.thr.last.paused_ms = 120;
	assert_true(frame_pause_rates(&f, &p, &ms));
	assert_float_equal(p, 20, 1e-9);
	assert_float_equal(ms, 240, 1e-9);
	f.thr.src = THR_SRC_SAMPLED;
	assert_false(frame_pause_rates(&f, &p, &ms));
}

static void test_time_to_freerun(void **state)
{
	(void)state;
	struct frame f;
	/* the level rises 100 kB/s (10 kB a sample) to 290 kB in 2.9 s:
	 * 1,710 kB to go is 17.1 s */
	samples(30);
	for (int i = 0; i < 30; i++)
		S[i].freerun_kb = 2000;
	build(&f, 30, 0.1);
	assert_float_equal(frame_time_to_freerun(&f), 17.1, 1e-6);
	/* far more than ten times the 2.9 s seen: no forecast */
	for (int i = 0; i < 30; i++)
		S[i].freerun_kb = 100000;
	build(&f, 30, 0.1);
	assert_true(frame_time_to_freerun(&f) < 0);
	/* a flat level, whatever the kernel dirties and writes (pages
	 * dirtied and deleted are never written): none */
	for (int i = 0; i < 30; i++) {
		S[i].dirty_kb = 120;
		S[i].freerun_kb = 2120;
	}
	build(&f, 30, 0.1);
	assert_true(frame_time_to_freerun(&f) < 0);
	/* already over */
	samples(30);
	build(&f, 30, 0.1);
	assert_true(frame_time_to_freerun(&f) < 0);
	/* no history yet: none */
	f.hist = NULL;
	assert_true(frame_time_to_freerun(&f) < 0);
}

static void test_run_done(void **state)
{
	(void)state;
	static struct frame f;
	memset(&f, 0, sizeof f);
	f.bench.run_length_s = -1;
	f.have_last = true;
	f.last.t = 14;
	f.bench.run_start_t = 4;
	assert_float_equal(frame_run_done(&f), 0, 0);
	f.bench.run_length_s = 40;
	assert_float_equal(frame_run_done(&f), 0.25, 1e-12);
	f.last.t = 100;
	assert_float_equal(frame_run_done(&f), 1, 0);
	f.last.t = 1;
	assert_float_equal(frame_run_done(&f), 0, 0);
}

/* The context panel's rows: writers, then readers not listed already;
 * its devices: used ones, partitions on asking. */
static void test_context(void **state)
{
	(void)state;
	static struct procio_view c;
	const struct procio_row *rows[8];
	memset(&c, 0, sizeof c);
	c.nwriters = 2;
	c.writers[0].pid = 10;
	c.writers[1].pid = 11;
	c.nreaders = 2;
	c.readers[0].pid = 11;
	c.readers[1].pid = 12;
	assert_int_equal(frame_context_rows(&c, rows, 8), 3);
	assert_int_equal(rows[0]->pid, 10);
	assert_int_equal(rows[1]->pid, 11);
	assert_int_equal(rows[2]->pid, 12);
	assert_int_equal(frame_context_rows(&c, rows, 1), 1);
	c.ndevs = 4;
	c.devs[0] = (struct procio_dev){ .name = "vda", .have_rate = true, .w_s = 5 };
	c.devs[1] = (struct procio_dev){ .name = "vda1", .is_partition = true, .have_rate = true, .w_s = 5 };
	c.devs[2] = (struct procio_dev){ .name = "vdb", .have_rate = true };
	c.devs[3] = (struct procio_dev){ .name = "vdc", .have_rate = false, .r_s = 1 };
	int idx[4], idle;
	assert_int_equal(frame_context_devs(&c, false, idx, 4, &idle), 1);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idle, 2);
	assert_int_equal(frame_context_devs(&c, true, idx, 4, &idle), 2);
	assert_int_equal(idx[1], 1);
}

/* The events pane's lines (a hit's end joins its start) and where a
 * selection stands when lines come and go. */
static void test_event_lines(void **state)
{
	(void)state;
	static struct frame f;
	memset(&f, 0, sizeof f);
	enum model_event_kind k[] = { MEV_MARK, MEV_HIT_START, MEV_HIT_END, MEV_NOTE, MEV_HIT_START };
	f.nev = 5;
	f.nevents = 105;   /* the session's events 100..104 held */
	for (int i = 0; i < 5; i++)
		f.ev[i].kind = k[i];
	uint64_t key[FRAME_EVENTS];
	int line_ev[FRAME_EVENTS];
	assert_int_equal(frame_event_lines(&f, key, line_ev), 4);
	assert_int_equal(key[0], 100);
	assert_int_equal(key[1], 101);
	assert_int_equal(key[2], 103);   /* 102 joined 101's line */
	assert_int_equal(line_ev[2], 3);
	assert_int_equal(frame_event_line_of(key, 4, 103), 2);
	assert_int_equal(frame_event_line_of(key, 4, 102), 1);   /* inside a joined line */
	assert_int_equal(frame_event_line_of(key, 4, 50), 0);    /* gone from the ring: the oldest */
	assert_int_equal(frame_event_line_of(key, 4, 999), 3);
}

/* + is slower, - faster, and - stops at the sampling interval */
static void test_refresh_step(void **state)
{
	(void)state;
	struct frame f;
	samples(4);
	build(&f, 4, 0.1);         /* samples every 0.1 s */
	assert_float_equal(frame_refresh_step(&f, 0.5, 1, 1), 2, 1e-9);
	assert_float_equal(frame_refresh_step(&f, 0.5, 1, -1), 0.5, 1e-9);
	assert_float_equal(frame_refresh_step(&f, 0.5, 0.1, -1), 0.1, 1e-9);
	assert_float_equal(frame_refresh_step(&f, 0.5, 10, 1), 10, 1e-9);
	for (int i = 0; i < 4; i++)
		S[i].t = 0.5 * i;     /* every 0.5 s: - stops at 0.5 */
	build(&f, 4, 0.1);
	assert_float_equal(frame_refresh_step(&f, 0.5, 0.5, -1), 0.5, 1e-9);
	assert_float_equal(frame_refresh_step(&f, 0.5, 1, -1), 0.5, 1e-9);
	for (int i = 0; i < 4; i++)
		S[i].t = 0.515 * i;   /* -i 0.5 on a loaded machine, each sample late */
	build(&f, 4, 0.1);
	assert_float_equal(frame_refresh_step(&f, 0.5, 1, -1), 0.5, 1e-9);
	for (int i = 0; i < 4; i++)
		S[i].t = 0.6 * i;     /* slower than 0.5 by more than jitter: 1 s */
	build(&f, 4, 0.1);
	assert_float_equal(frame_refresh_step(&f, 0.5, 1, -1), 1, 1e-9);
	build(&f, 0, 0.1);         /* no samples yet: -i says */
	assert_float_equal(frame_refresh_step(&f, 2, 2, -1), 2, 1e-9);
	assert_float_equal(frame_refresh_step(&f, 30, 10, -1), 30, 1e-9);
	assert_float_equal(frame_sample_period(&f, 2), 2, 1e-9);
	f.hist = NULL;
	assert_float_equal(frame_sample_period(&f, 0), 0.5, 1e-9);
}

static void test_curve_runs_text(void **state)
{
	(void)state;
	struct curve_point pts[3] = { { .x = 1, .n = 2 }, { .x = 2, .n = 2 }, { .x = 4, .n = 2 } };
	struct curve c = { .runs = 2, .pts = pts, .n = 3 };
	char b[64];
	frame_curve_runs_text(&c, b, sizeof b);
	assert_string_equal(b, "2 runs per point, 6 in all");
	pts[1].n = 3;
	frame_curve_runs_text(&c, b, sizeof b);
	assert_string_equal(b, "2-3 runs per point, 7 in all");
	c.n = 1;
	frame_curve_runs_text(&c, b, sizeof b);
	assert_string_equal(b, "2 runs");
	pts[0].n = 1;
	frame_curve_runs_text(&c, b, sizeof b);
	assert_string_equal(b, "1 run");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worst_zone), cmocka_unit_test(test_worst_zone_kernel),
		cmocka_unit_test(test_time_to_freerun), cmocka_unit_test(test_pause_rates),
		cmocka_unit_test(test_time_ticks), cmocka_unit_test(test_zone_badge),
		cmocka_unit_test(test_active_disks),
		cmocka_unit_test(test_buckets), cmocka_unit_test(test_window_span),
		cmocka_unit_test(test_events_join), cmocka_unit_test(test_copy),
		cmocka_unit_test(test_run_done), cmocka_unit_test(test_context),
		cmocka_unit_test(test_event_lines),
		cmocka_unit_test(test_curve_runs_text), cmocka_unit_test(test_refresh_step),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
