/* report: what `iodash report` and `compare --svg` draw from compare's
 * data (compare.h): one self-contained HTML file (inline SVG and CSS, no
 * script, nothing fetched) to attach to a mail or a bug, and the curves
 * of one metric as a standalone SVG image.
 *
 * The SVG is written by hand: the browser (or any SVG viewer) sets the
 * text in its own fonts, so the labels, values and metric names stay text
 * that can be searched, selected and copied, and the report needs no
 * drawing library on the test box.  Core: no printing of its own, it
 * writes to the FILE * it is given. */
#ifndef IODASH_REPORT_H
#define IODASH_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "iodash/results/compare.h"

struct report_opts {
	const char *title;      /* NULL: "iodash report" */
	bool log2x;             /* log2 x axis; also chosen when x spans octaves */
};

/* The whole report: sources (host, kernel, knobs), per metric its curves
 * (mean per x, stddev bars, min-max band, points shaped by the runs'
 * verdict) and its table (mean, stddev, CoV, N, change against the
 * baseline, significance, verdict), per recorded run its throughput and
 * dirty-vs-thresholds over time with the throttle episodes shaded.
 * 0, or -EIO with err when out could not be written. */
int report_write_html(const struct compare_data *cd, const struct report_opts *ro, FILE *out,
		      char *err, size_t errlen);

/* The curves of metric k alone, as an SVG document.  0 or -EIO/-EINVAL. */
int report_write_svg(const struct compare_data *cd, size_t k, const struct report_opts *ro, FILE *out,
		     char *err, size_t errlen);

#endif
