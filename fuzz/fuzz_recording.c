/* Fuzz the recording reader: open, index, and parse every record of any
 * bytes; then export both formats to /dev/null. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "iodash/record/recording.h"
#include "iodash/results/export.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	static FILE *devnull;
	struct recording *rec;
	char err[512];
	FILE *f;

	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/fuzz_recording.%d.rec", (int)getpid());
		devnull = fopen("/dev/null", "w");
	}
	f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	if (recording_open(&rec, path, err, sizeof(err)) == 0) {
		struct sample s = { 0 };
		struct model_event e;
		struct output_line l;
		struct result_point p;
		struct bench_status b;
		struct result_set rs = { 0 };
		for (size_t i = 0; i < recording_count(rec, RK_SAMPLE); i++)
			recording_sample(rec, i, &s);
		sample_free(&s);
		for (size_t i = 0; i < recording_count(rec, RK_EVENT); i++)
			recording_event(rec, i, &e);
		for (size_t i = 0; i < recording_count(rec, RK_OUTPUT); i++)
			recording_output(rec, i, &l);
		for (size_t i = 0; i < recording_count(rec, RK_RESULT); i++)
			recording_result(rec, i, &p);
		for (size_t i = 0; i < recording_count(rec, RK_BENCH); i++)
			recording_bench(rec, i, &b);
		recording_find(rec, RK_SAMPLE, 1.0);
		recording_load_results(rec, true, &rs);
		result_set_free(&rs);
		(void)recording_warning(rec);
		for (int t = EXPORT_SAMPLES; t <= EXPORT_RESULTS; t++) {
			recording_export(rec, FMT_CSV, (enum export_table)t, devnull, err, sizeof(err));
			recording_export(rec, FMT_NDJSON, (enum export_table)t, devnull, err, sizeof(err));
		}
		recording_export(rec, FMT_JSON, EXPORT_SAMPLES, devnull, err, sizeof(err));
		recording_refresh(rec, err, sizeof(err));
		recording_close(rec);
	}
	return 0;
}
