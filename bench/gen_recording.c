/* Write a synthetic recording through the real recorder: N hours at an
 * interval with D disks, values like a busy box (rates from integer
 * counts over a jittered dt, so they carry their full digits), for
 * bench/20-record.sh.  Usage: gen_recording FILE HOURS INTERVAL DISKS BUSY */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/recording.h"

int main(int argc, char **argv)
{
	struct rec_meta meta = { .host = "benchbox", .kernel = "6.18.44", .command = "dbench -t 86400 16",
				 .label = "bench", .source = "live /proc", .interval = 0.5 };
	struct recorder *r;
	struct model_observer obs;
	struct sample s;
	struct bench_status b = { .state = BENCH_RUNNING, .pid = 4242, .last_exit_status = -1 };
	char err[256];
	double hours, interval;
	int disks, busy;
	unsigned long n;

	if (argc != 6) {
		fprintf(stderr, "usage: %s FILE HOURS INTERVAL DISKS BUSY_DISKS\n", argv[0]);
		return 2;
	}
	hours = atof(argv[2]);
	interval = atof(argv[3]);
	disks = atoi(argv[4]);
	busy = atoi(argv[5]);
	meta.interval = interval;
	if (recorder_open(&r, argv[1], &meta, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	obs = recorder_observer(r);
	n = (unsigned long)(hours * 3600 / interval);
	srand(1);
	for (unsigned long i = 0; i < n; i++) {
		double dt = interval + (rand() % 2000 - 1000) * 1e-6;
		memset(&s, 0, sizeof(s));
		s.seq = i;
		s.t = i * interval;
		s.dt = dt;
		s.realtime_ns = 1764690000000000000LL + (long long)(s.t * 1e9);
		s.have_dirty = true;
		s.dirty_kb = 100000 + (unsigned)(rand() % 100000);
		s.writeback_kb = (unsigned)(rand() % 40000);
		s.bg_thresh_kb = 2429296;
		s.freerun_kb = 3646916;
		s.thresh_kb = 4864536;
		s.meminfo_dirty_kb = s.dirty_kb;
		s.meminfo_writeback_kb = s.writeback_kb;
		s.zone = ZONE_BG_FLUSH;
		s.have_psi = true;
		s.psi_io_some_avg10 = (rand() % 10000) / 100.0;
		s.ndisks = disks;
		for (int d = 0; d < disks && d < SAMPLE_MAX_DISKS; d++) {
			struct disk_rate *dr = &s.disks[d];
			snprintf(dr->name, sizeof(dr->name), "sd%c", 'a' + d);
			dr->have_rate = true;
			if (d >= busy)
				continue;
			dr->r_s = (rand() % 500) / dt;
			dr->w_s = (rand() % 3000) / dt;
			dr->rkB_s = dr->r_s * 4;
			dr->wkB_s = (rand() % 2000000) / dt;
			dr->r_await = (rand() % 10000) / 1000.0 / (1 + rand() % 7);
			dr->w_await = (rand() % 10000) / 1000.0 / (1 + rand() % 7);
			dr->aqu_sz = (rand() % 10000) / dt / 1000;
			dr->util = (rand() % 500) / dt / 10;
			dr->f_s = (rand() % 50) / dt;
		}
		obs.on_sample(obs.ctx, &s);
		b.ntasks = 17;
		b.throttled_tasks = rand() % 3;
		b.write_Bps = (rand() % 2000000) / dt * 1024;
		b.wchar_Bps = b.write_Bps * 1.5;
		obs.on_bench(obs.ctx, &b);
		if (i % 2 == 0)
			recorder_flush(r);
	}
	recorder_close(r);
	return 0;
}
