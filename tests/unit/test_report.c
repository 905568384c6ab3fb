/* The report (report.h) and what compare_load gives it for the runs of a
 * recording: throttle episodes per run, the host, the threshold series.
 * On the real two-label knob sweeps of tests/fixtures/recordings/. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iodash/results/compare.h"
#include "iodash/results/report.h"

#define REC618 "tests/fixtures/recordings/knobs-sweep-6.18.rec"
#define REC224 "tests/fixtures/recordings/knobs-sweep-as-2.6.24.rec"

static int load(struct compare_data *cd)
{
	char *paths[] = { REC618, REC224 };
	char err[512];
	int rc = compare_load(cd, paths, 2, NULL, NULL, NULL, err, sizeof(err), NULL);
	if (rc)
		fprintf(stderr, "compare_load: %s\n", err);
	return rc;
}

static const struct compare_run *run_of(const struct compare_data *cd, const char *label, int index)
{
	for (size_t i = 0; i < cd->nruns; i++)
		if (!strcmp(cd->runs[i].label, label) && cd->runs[i].index == index)
			return &cd->runs[i];
	return NULL;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The hit_start/hit_end events of the 6.18 recording: run 1 (t0
 * 0.006473717, end 0.619980783) has 0.450523941-0.552503112 and one
 * opened at 0.600492835 that ends at 0.650483498, in run 2 (t0
 * 0.620057433); run 4 has none (the last hit_start comes after its end). */
static void test_throttle_spans(void **st)
{
	struct compare_data cd;
	const struct compare_run *r;

	(void)st;
	assert_int_equal(load(&cd), 0);
	r = run_of(&cd, "6.18.44-fc-v1147", 0);
	assert_non_null(r);
	assert_int_equal(r->nthrottled, 2);
	assert_true(fabs(r->throttled[0].t0 - (0.450523941 - 0.006473717)) < 1e-6);
	assert_true(fabs(r->throttled[0].t1 - (0.552503112 - 0.006473717)) < 1e-6);
	assert_true(fabs(r->throttled[1].t0 - (0.600492835 - 0.006473717)) < 1e-6);
	assert_true(fabs(r->throttled[1].t1 - (0.619980783 - 0.006473717)) < 1e-6);
	r = run_of(&cd, "6.18.44-fc-v1147", 1);
	assert_non_null(r);
	assert_int_equal(r->nthrottled, 1);
	assert_true(fabs(r->throttled[0].t0) < 1e-9);
	assert_true(fabs(r->throttled[0].t1 - (0.650483498 - 0.620057433)) < 1e-6);
	r = run_of(&cd, "6.18.44-fc-v1147", 3);
	assert_non_null(r);
	assert_int_equal(r->nthrottled, 0);
	compare_free(&cd);
}

/* Who ran it and the thresholds over the run: host "vm"; in run 1 the
 * knobs were dirty_bytes 128M / background 64M: freerun 96M. */
static void test_host_and_thresholds(void **st)
{
	struct compare_data cd;
	const struct compare_run *r;
	bool seen = false;

	(void)st;
	assert_int_equal(load(&cd), 0);
	assert_int_equal(cd.nlabels, 2);
	assert_string_equal(cd.labels[0].host, "vm");
	assert_string_equal(cd.labels[1].kernel, "2.6.24-rc2");
	r = run_of(&cd, "6.18.44-fc-v1147", 0);
	for (size_t i = 0; i < r->n; i++)
		if (r->thresh_kb[i] == 131072) {
			assert_true(r->freerun_kb[i] == 98304);
			assert_true(r->bg_kb[i] == 65536);
			seen = true;
		}
	assert_true(seen);
	compare_free(&cd);
}

static char *html_of(const struct compare_data *cd)
{
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report_opts ro = { .title = "knobs <sweep> & more" };

	assert_non_null(f);
	assert_int_equal(report_write_html(cd, &ro, f, err, sizeof(err)), 0);
	fclose(f);
	return buf;
}

/* The page: one chart per metric and two per run, each closed, a shaded
 * rect per throttle episode, no script and nothing fetched, the title
 * escaped. */
static void test_html(void **st)
{
	struct compare_data cd;
	size_t spans = 0, runs = 0, blocks = 0;
	char *h;

	(void)st;
	assert_int_equal(load(&cd), 0);
	h = html_of(&cd);
	for (size_t i = 0; i < cd.nruns; i++) {
		spans += cd.runs[i].nthrottled;
		runs += cd.runs[i].n > 0;
	}
	/* a chart per metric and setting: the sweep's two byte settings */
	for (size_t k = 0; k < cd.nmetrics; k++)
		for (size_t a = 0; a < cd.curves[k].n; a = stats_block_end(&cd.curves[k], a))
			blocks++;
	assert_int_equal(blocks, 2 * cd.nmetrics);
	assert_int_equal(count(h, "<h3 class=\"setting\">setting vm.dirty_background_bytes=64M,vm.dirty_bytes=128M</h3>"),
			 cd.nmetrics);
	assert_int_equal(count(h, "<svg "), blocks + 2 * runs);
	assert_int_equal(count(h, "</svg>"), blocks + 2 * runs);
	/* both charts of a run shade its episodes */
	assert_int_equal(count(h, "class=\"throttled\""), 2 * spans);
	assert_true(spans >= 5);
	assert_int_equal(count(h, "<script"), 0);
	assert_int_equal(count(h, "http://www.w3.org"), 0);   /* inline SVG needs no namespace */
	assert_int_equal(count(h, "url("), 0);
	assert_non_null(strstr(h, "<title>knobs &lt;sweep&gt; &amp; more</title>"));
	for (size_t k = 0; k < cd.nmetrics; k++) {
		char id[64];
		snprintf(id, sizeof(id), "<h2 id=\"m%zu\">%s", k, cd.metrics[k]);
		assert_non_null(strstr(h, id));
	}
	/* the change of write_bw at d=134217728: +18.31 %, not significant */
	assert_non_null(strstr(h, "+18.31%</td>"));
	/* the runs table: run 1 of 6.18, as compare --text's runs table */
	assert_non_null(strstr(h, "<td>1</td><td class=\"l\">throttled</td><td>1577.0</td><td>744.3</td><td>2.12</td>"
				  "<td>374.0</td><td>100 / 96 / 128</td><td>0.15 s (30%)</td><td>61.4</td>"));
	/* its hits: the two episodes inside it (test_throttle_spans), and
	 * the session's under the table */
	assert_non_null(strstr(h, "<td>61.4</td><td>2</td></tr>"));
	assert_non_null(strstr(h, "throttle episodes, "));
	free(h);
	compare_free(&cd);
}

/* A run's dirty chart is scaled to its own thresholds: run 1 of 6.18 ran
 * under 64M/128M, but the sample before its start still had the previous
 * 256M limit, and the chart went to 300 MiB (a 5 GB ratio limit before a
 * `run --sysctl` made a 256M run a flat line); run 3's sample before its
 * start had the 512M run's limit (600 MiB; its own dirty peaks at 256). */
static void test_run_chart_own_scale(void **st)
{
	struct compare_data cd;
	const char *want[] = { ">150</text></g>", NULL, ">300</text></g>" };
	char *h;
	const char *p;

	(void)st;
	assert_int_equal(load(&cd), 0);
	h = html_of(&cd);
	p = h;
	for (int i = 0; i < 3; i++) {
		p = strstr(p, "<title>dirty + writeback against the thresholds</title>");
		assert_non_null(p);
		p++;
		const char *y = strstr(p, "<g fill=\"#333\" text-anchor=\"end\">");
		assert_non_null(y);
		const char *end = strstr(y, "</g>");
		if (want[i]) {
			const char *hit = strstr(y, want[i]);
			assert_true(hit && hit <= end);
		}
	}
	free(h);
	compare_free(&cd);
}

/* compare --svg's image: a document of its own, one line per label,
 * the throttled runs of 6.18 at d=128M as triangles. */
static void test_svg(void **st)
{
	struct compare_data cd;
	char *buf = NULL, err[256];
	size_t len = 0, k;
	FILE *f;

	(void)st;
	assert_int_equal(load(&cd), 0);
	for (k = 0; k < cd.nmetrics && strcmp(cd.metrics[k], "write_bw"); k++)
		;
	assert_true(k < cd.nmetrics);
	f = open_memstream(&buf, &len);
	assert_int_equal(report_write_svg(&cd, k, NULL, f, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(strncmp(buf, "<?xml", 5), 0);
	assert_non_null(strstr(buf, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	/* a line per label and setting: 2 kernels x 2 byte settings */
	assert_int_equal(count(buf, "<polyline fill=\"none\" stroke=\"#"), 4);
	assert_non_null(strstr(buf, "6.18.44-fc-v1147, d=128M: mean 1689k sd 210k, 2 runs, throttled</title></path>"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(report_write_svg(&cd, cd.nmetrics, NULL, f, err, sizeof(err)), -EINVAL);
	fclose(f);
	free(buf);
	compare_free(&cd);
}

/* A latency percentile that rose (significantly) is coloured worse, in the
 * table and the summary; a bandwidth that rose better. */
static void test_latency_colour(void **st)
{
	static const struct { const char *metric, *unit, *cls; } m[] = {
		{ "write_clat_p99_9", "us", "worse" }, { "write_clat_p99_9", "", "worse" }, { "write_bw", "KiB/s", "better" },
	};
	(void)st;
	for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		struct compare_data cd;
		memset(&cd, 0, sizeof(cd));
		for (int r = 0; r < 3; r++)
			for (int l = 0; l < 2; l++) {
				struct result_point p = { .run = r, .x = 4, .value = (l ? 120 : 100) + r, .flags = RP_FINAL };
				snprintf(p.label, sizeof(p.label), "%s", l ? "B" : "A");
				snprintf(p.x_name, sizeof(p.x_name), "bs_kb");
				snprintf(p.metric, sizeof(p.metric), "%s", m[k].metric);
				snprintf(p.unit, sizeof(p.unit), "%s", m[k].unit);
				assert_int_equal(result_set_add(&cd.results, &p), 0);
			}
		cd.nmetrics = 1;
		cd.metrics = calloc(1, sizeof(*cd.metrics));
		cd.curves = calloc(1, sizeof(*cd.curves));
		assert_non_null(cd.metrics);
		assert_non_null(cd.curves);
		snprintf(cd.metrics[0], sizeof(cd.metrics[0]), "%s", m[k].metric);
		assert_int_equal(stats_build_curves(&cd.results, m[k].metric, NULL, &cd.curves[0]), 0);
		char *h = html_of(&cd), want[64];
		snprintf(want, sizeof(want), "<td class=\"%s\" title=\"Welch p=", m[k].cls);
		assert_non_null(strstr(h, want));   /* the table's change cell, +19.80%* */
		assert_non_null(strstr(h, "+19.80%*"));
		snprintf(want, sizeof(want), "<td class=\"%s\">+19.80%%</td>", m[k].cls);
		assert_non_null(strstr(h, want));   /* the summary's gmean change */
		free(h);
		compare_free(&cd);
	}
}

/* Which way is better: a latency that rose is worse, a bandwidth that
 * rose better, whatever its unit says. */
static void test_direction(void **st)
{
	(void)st;
	assert_int_equal(compare_metric_better("write_clat_p99_9", "us"), -1);
	assert_int_equal(compare_metric_better("write_clat_p99_9", ""), -1);
	assert_int_equal(compare_metric_better("lat_max", "ms"), -1);
	assert_int_equal(compare_metric_better("write_bw", "KiB/s"), 1);
	assert_int_equal(compare_metric_better("read_iops", "IOPS"), 1);
	assert_int_equal(compare_metric_better("throughput", "MB/sec"), 1);
	assert_int_equal(compare_metric_better("run_secs", "s"), -1);
	assert_int_equal(compare_metric_better("files", ""), 0);
	char b[32];
	compare_format_x(b, sizeof(b), 134217728);
	assert_string_equal(b, "128M");
	compare_format_x(b, sizeof(b), 1536.0 * 1048576);
	assert_string_equal(b, "1536M");
	compare_format_x(b, sizeof(b), 4294967296.0);
	assert_string_equal(b, "4G");
	compare_format_x(b, sizeof(b), 100000000);
	assert_string_equal(b, "100000000");
	compare_format_x(b, sizeof(b), 4096);
	assert_string_equal(b, "4096");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_throttle_spans),
		cmocka_unit_test(test_host_and_thresholds),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_run_chart_own_scale),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_direction),
		cmocka_unit_test(test_latency_colour),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
