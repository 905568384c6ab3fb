/* report: compare's data as one HTML page with inline SVG charts (report.h).
 *
 * Laid out for a reader who gets it attached to a mail: first who ran
 * what (host, kernel, knobs), then per metric the chart and the table
 * side by side (as mmtests' compare-kernels report puts its graphs beside
 * its tables), then per run what the machine did during it.  A change is
 * coloured only where Welch's test says it is significant, green when it
 * goes the better way for the unit (a rate up, a time down), red when not;
 * a change that is not significant stays grey, so noise never looks like
 * news. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iodash/results/report.h"
#include "iodash/results/runsum.h"
#include "iodash/base/text.h"
#include "iodash/base/util.h"

/* Okabe-Ito: told apart with the common colour blindnesses and in print. */
static const char *const palette[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

/* Text into HTML/SVG: markup characters escaped, bytes that are not UTF-8
 * (a benchmark or a mail may hold any) and control bytes as U+FFFD. */
static void put_esc(FILE *out, const char *s)
{
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n = text_utf8_len(s);
		if (!n || (c < 0x20 && c != '\t') || c == 0x7f) {
			fputs("\xef\xbf\xbd", out);
			s++;
			continue;
		}
		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fwrite(s, 1, n, out);
		}
		s += n;
	}
}

/* A number for an axis or a cell: 4 significant digits, k/M/G above 10^4
 * so a tick label stays short. */
static void fmt_num(char *b, size_t n, double v)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(b, n, "n/a");
	else if (a >= 1e10)
		snprintf(b, n, "%.4gG", v / 1e9);
	else if (a >= 1e7)
		snprintf(b, n, "%.4gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(b, n, "%.4gk", v / 1e3);
	else
		snprintf(b, n, "%.4g", v);
}

/* ---- charts ---- */

struct axis {
	double lo, hi;
	bool log2;
	double p0, p1;          /* pixels of lo and hi */
};

static double ax_map(const struct axis *a, double v)
{
	double t;

	if (a->log2)
		t = (log2(v) - log2(a->lo)) / (log2(a->hi) - log2(a->lo));
	else
		t = (v - a->lo) / (a->hi - a->lo);
	return a->p0 + t * (a->p1 - a->p0);
}

/* A step of 1, 2 or 5 times a power of ten that cuts span into about n. */
static double nice_step(double span, int n)
{
	double raw = span / n, mag = pow(10, floor(log10(raw))), f = raw / mag;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* The axis from lo..hi widened to whole steps; a flat range gets room. */
static void ax_fit(struct axis *a, double lo, double hi, bool from_zero)
{
	double step;

	if (from_zero && lo > 0)
		lo = 0;
	if (!(hi > lo)) {
		double d = fabs(hi) > 0 ? fabs(hi) * 0.5 : 1;
		lo -= from_zero && lo == 0 ? 0 : d;
		hi += d;
	}
	step = nice_step(hi - lo, 5);
	a->lo = floor(lo / step) * step;
	a->hi = ceil(hi / step) * step;
	a->log2 = false;
}

struct chart {
	double w, h;            /* the whole image */
	struct axis x, y;
};

static void chart_init(struct chart *c, double w, double h)
{
	memset(c, 0, sizeof(*c));
	c->w = w;
	c->h = h;
	c->x.p0 = 72;
	c->x.p1 = w - 16;
	c->y.p0 = h - 48;
	c->y.p1 = 14;
}

static void svg_open(FILE *out, const struct chart *c, bool standalone, const char *title)
{
	fprintf(out, "<svg %sviewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\" role=\"img\">",
		standalone ? "xmlns=\"http://www.w3.org/2000/svg\" " : "", c->w, c->h, c->w, c->h);
	fputs("<title>", out);
	put_esc(out, title);
	fputs("</title>\n", out);
	if (standalone)
		fprintf(out, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n", c->w, c->h);
}

/* Grid, ticks and axis names.  xs (n of them) are the x ticks when given
 * (a sweep's values, every one labelled while they fit), else even steps. */
static void chart_axes(FILE *out, const struct chart *c, const double *xs, size_t nxs, const char *xname,
		       const char *yname)
{
	const struct axis *x = &c->x, *y = &c->y;
	double step = nice_step(y->hi - y->lo, 5);
	char b[64];

	/* crisp: a 1 px line between two pixel rows would blur into two grey ones */
	fputs("<g class=\"axes\" stroke=\"#ddd\" stroke-width=\"1\" shape-rendering=\"crispEdges\">", out);
	for (double v = y->lo; v <= y->hi + step * 1e-6; v += step)
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x->p0, ax_map(y, v), x->p1,
			ax_map(y, v));
	fputs("</g>\n<g fill=\"#333\" text-anchor=\"end\">", out);
	for (double v = y->lo; v <= y->hi + step * 1e-6; v += step) {
		fmt_num(b, sizeof(b), fabs(v) < step * 1e-6 ? 0 : v);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>", x->p0 - 6, ax_map(y, v) + 4, b);
	}
	fputs("</g>\n<g fill=\"#333\" text-anchor=\"middle\">", out);
	if (xs) {
		/* about 7 px a character: label every k-th x so none overlap */
		size_t widest = 1, every = 1;
		for (size_t i = 0; i < nxs; i++) {
			compare_format_x(b, sizeof(b), xs[i]);
			widest = strlen(b) > widest ? strlen(b) : widest;
		}
		while (nxs / every > 1 && (double)(nxs / every) * (widest * 7.0 + 8) > x->p1 - x->p0)
			every++;
		for (size_t i = 0; i < nxs; i++) {
			double px = ax_map(x, xs[i]);
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>", px, y->p0, px,
				y->p0 + 4);
			if (i % every)
				continue;
			compare_format_x(b, sizeof(b), xs[i]);
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>", px, y->p0 + 17, b);
		}
	} else {
		double xstep = nice_step(x->hi - x->lo, 6);
		for (double v = x->lo; v <= x->hi + xstep * 1e-6; v += xstep) {
			fmt_num(b, sizeof(b), fabs(v) < xstep * 1e-6 ? 0 : v);
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>", ax_map(x, v), y->p0 + 17, b);
		}
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", (x->p0 + x->p1) / 2, y->p0 + 36);
	put_esc(out, xname);
	fprintf(out, "%s</text>", x->log2 ? " (log2 scale)" : "");
	fprintf(out, "<text transform=\"translate(14 %.1f) rotate(-90)\">", (y->p0 + y->p1) / 2);
	put_esc(out, yname);
	fputs("</text></g>\n", out);
	fprintf(out, "<rect class=\"plot\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#888\" "
		"shape-rendering=\"crispEdges\"/>\n",
		x->p0, y->p1, x->p1 - x->p0, y->p0 - y->p1);
}

/* A point's marker: its runs' verdict as a shape, so it survives a
 * grey-scale print.  device: disc; cache: hollow square; throttled:
 * triangle; runs of mixed verdicts: diamond; unknown: small disc. */
static void put_marker(FILE *out, char mark, double px, double py, const char *col)
{
	switch (mark) {
	case 'D':
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\"", px, py, col);
		break;
	case 'C':
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"#fff\" stroke=\"%s\" stroke-width=\"2\"",
			px - 4.5, py - 4.5, col);
		break;
	case 'T':
		fprintf(out, "<path d=\"M%.1f %.1fl5.5 9.5h-11z\" fill=\"%s\"", px, py - 6, col);
		break;
	case '+':
		fprintf(out, "<path d=\"M%.1f %.1fl5.5 5.5l-5.5 5.5l-5.5-5.5z\" fill=\"%s\"", px, py - 5.5, col);
		break;
	default:
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"", px, py, col);
	}
}

static bool any_mark(const struct curve_set *cs)
{
	for (size_t l = 0; l < cs->n; l++)
		for (size_t i = 0; i < cs->v[l].n; i++)
			if (compare_point_mark(&cs->v[l].pts[i]))
				return true;
	return false;
}

static void put_curve_name(FILE *out, const struct curve_set *cs, size_t l);

/* Legend entries a row: three, fewer for long names (a label with its
 * setting), about 7 px a character in 624 px. */
static size_t legend_cols(const struct curve_set *cs)
{
	size_t widest = 0;
	for (size_t l = 0; l < cs->n; l++) {
		size_t w = strlen(cs->v[l].label) + 11;   /* the line, " (baseline)" */
		if (cs->v[l].setting[0] && stats_block_end(cs, 0) < cs->n)
			w += strlen(cs->v[l].setting) + 1;
		widest = w > widest ? w : widest;
	}
	return widest * 7 + 30 <= 208 ? 3 : widest * 7 + 30 <= 312 ? 2 : 1;
}

/* A curve's name in a legend: its label, and its setting when the chart
 * holds more than one setting. */
static void put_curve_name(FILE *out, const struct curve_set *cs, size_t l)
{
	put_esc(out, cs->v[l].label);
	if (cs->v[l].setting[0] && stats_block_end(cs, 0) < cs->n) {
		fputs(" ", out);
		put_esc(out, cs->v[l].setting);
	}
}

/* The lowest and highest a chart of cs must show: every run's min and
 * max, and mean +- stddev where the bars reach beyond them. */
static void chart_y_range(const struct curve_set *cs, double *ylo, double *yhi)
{
	*ylo = INFINITY;
	*yhi = -INFINITY;
	for (size_t l = 0; l < cs->n; l++)
		for (size_t i = 0; i < cs->v[l].n; i++) {
			const struct curve_point *p = &cs->v[l].pts[i];
			double lo = p->min, hi = p->max;
			if (p->n >= 2 && isfinite(p->stddev)) {
				lo = fmin(lo, p->mean - p->stddev);
				hi = fmax(hi, p->mean + p->stddev);
			}
			*ylo = fmin(*ylo, lo);
			*yhi = fmax(*yhi, hi);
		}
}

/* The x axis over the nx (>= 1) xs, with room at either end. */
static void chart_fit_x(struct chart *ch, const double *xs, size_t nx, const struct report_opts *ro)
{
	/* a sweep that doubles its x (1, 2, 4 ... 128) spans octaves: log2 */
	ch->x.log2 = nx > 1 && xs[0] > 0 && ((ro && ro->log2x) || xs[nx - 1] / xs[0] >= 16);
	if (nx == 1) {
		ch->x.lo = ch->x.log2 ? xs[0] / 2 : xs[0] - 1;
		ch->x.hi = ch->x.log2 ? xs[0] * 2 : xs[0] + 1;
	} else if (ch->x.log2) {
		/* half an octave of room at either end */
		ch->x.lo = xs[0] / M_SQRT2;
		ch->x.hi = xs[nx - 1] * M_SQRT2;
	} else {
		double pad = (xs[nx - 1] - xs[0]) * 0.05;
		ch->x.lo = xs[0] - pad;
		ch->x.hi = xs[nx - 1] + pad;
	}
}

/* The min-max bands, all of them before any line, so that none veils
 * another label's line. */
static void chart_draw_bands(FILE *out, const struct chart *ch, const struct curve_set *cs)
{
	for (size_t l = 0; l < cs->n; l++) {
		const struct curve *cv = &cs->v[l];
		const char *col = palette[l % NPALETTE];
		bool spread = false;

		for (size_t i = 0; i < cv->n; i++)
			spread = spread || cv->pts[i].n >= 2;
		if (spread && cv->n >= 2) {
			fprintf(out, "<polygon fill=\"%s\" fill-opacity=\"0.13\" stroke=\"none\" points=\"", col);
			for (size_t i = 0; i < cv->n; i++)
				fprintf(out, "%.1f,%.1f ", ax_map(&ch->x, cv->pts[i].x), ax_map(&ch->y, cv->pts[i].max));
			for (size_t i = cv->n; i-- > 0;)
				fprintf(out, "%.1f,%.1f ", ax_map(&ch->x, cv->pts[i].x), ax_map(&ch->y, cv->pts[i].min));
			fputs("\"/>\n", out);
		}
	}
}

/* A point's marker (its verdict's shape) with a tooltip: label, x, mean,
 * sd, runs and verdict. */
static void chart_put_point(FILE *out, const struct chart *ch, const struct curve *cv, const struct curve_point *p,
			    double dodge, const char *col)
{
	char xb[64], m[32], verdict[64];
	char mk = compare_point_mark(p);

	compare_format_x(xb, sizeof(xb), p->x);
	compare_point_verdict(p, verdict, sizeof(verdict));
	put_marker(out, mk, ax_map(&ch->x, p->x) + dodge, ax_map(&ch->y, p->mean), col);
	fputs("><title>", out);
	put_esc(out, cv->label);
	fprintf(out, ", %s=%s: ", cv->x_name, xb);
	fmt_num(m, sizeof(m), p->mean);
	fprintf(out, "mean %s", m);
	if (p->n >= 2) {
		fmt_num(m, sizeof(m), p->stddev);
		fprintf(out, " sd %s", m);
	}
	fprintf(out, ", %d run%s%s%s</title></", p->n, p->n == 1 ? "" : "s", verdict[0] ? ", " : "", verdict);
	/* the element's name back, to close what put_marker opened */
	fputs(mk == 'C' ? "rect>" : mk == 'T' || mk == '+' ? "path>" : "circle>", out);
}

/* Label l's curve: +-1 stddev bars, the line of means, the points.
 * Dodged a little per label so two labels' bars at one x stay apart. */
static void chart_draw_curve(FILE *out, const struct chart *ch, const struct curve_set *cs, size_t l)
{
	const struct curve *cv = &cs->v[l];
	const char *col = palette[l % NPALETTE];
	double dodge = ((double)l - (double)(cs->n - 1) / 2) * 5;

	fprintf(out, "<g class=\"curve\" data-label=\"");
	put_esc(out, cv->label);
	fputs("\">\n", out);
	for (size_t i = 0; i < cv->n; i++) {
		const struct curve_point *p = &cv->pts[i];
		double px = ax_map(&ch->x, p->x) + dodge, a, b;
		if (p->n < 2 || !isfinite(p->stddev))
			continue;
		a = ax_map(&ch->y, p->mean - p->stddev);
		b = ax_map(&ch->y, p->mean + p->stddev);
		fprintf(out, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\" stroke=\"%s\" stroke-width=\"1.5\" fill=\"none\"/>",
			px, a, b, px - 4, a, px - 4, b, col);
	}
	fprintf(out, "\n<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
	for (size_t i = 0; i < cv->n; i++)
		fprintf(out, "%.1f,%.1f ", ax_map(&ch->x, cv->pts[i].x) + dodge, ax_map(&ch->y, cv->pts[i].mean));
	fputs("\"/>\n", out);
	for (size_t i = 0; i < cv->n; i++)
		chart_put_point(out, ch, cv, &cv->pts[i], dodge, col);
	fputs("</g>\n", out);
}

/* The legend under the x axis name: labels lcols a row, then the
 * verdicts' shapes when any point has one. */
static void chart_draw_legend(FILE *out, const struct chart *ch, const struct curve_set *cs, size_t lcols, bool marks)
{
	double ly = ch->y.p0 + 48 + 14;

	for (size_t l = 0; l < cs->n; l++) {
		double lx = 16 + (double)(l % lcols) * (624.0 / (double)lcols), y = ly + (double)(l / lcols) * 18;
		fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"3\"/>"
			"<text x=\"%.0f\" y=\"%.0f\">", lx, y - 4, lx + 18, y - 4, palette[l % NPALETTE], lx + 24, y);
		put_curve_name(out, cs, l);
		fprintf(out, "%s</text>\n", cs->v[l].is_base ? " (baseline)" : "");
	}
	if (marks) {
		static const struct { char m; const char *name; } v[] = {
			{ 'D', "device" }, { 'C', "cache" }, { 'T', "throttled" }, { '+', "mixed" },
		};
		double y = ly + (double)((cs->n + lcols - 1) / lcols) * 18;
		fprintf(out, "<text x=\"16\" y=\"%.0f\" fill=\"#555\">runs measured:</text>", y);
		for (size_t i = 0; i < 4; i++) {
			double lx = 120 + (double)i * 100;
			put_marker(out, v[i].m, lx, y - 4, "#555");
			fprintf(out, "/><text x=\"%.0f\" y=\"%.0f\" fill=\"#555\">%s</text>", lx + 10, y, v[i].name);
		}
		fputc('\n', out);
	}
}

/* The curves of metric k: per label its mean per x as a line, the min-max
 * of its runs as a band, +-1 stddev as bars, a legend of labels and
 * verdicts. */
static void chart_metric(FILE *out, const struct compare_data *cd, size_t k, const struct curve_set *cs,
			 const struct report_opts *ro, bool standalone)
{
	const struct curve *c0 = cs->n ? &cs->v[0] : NULL;
	double *xs = NULL, ylo, yhi;
	size_t nx = compare_curve_xs(cs, &xs);
	bool marks = any_mark(cs);
	size_t lcols = legend_cols(cs), legend_rows = (cs->n + lcols - 1) / lcols + (marks ? 1 : 0);
	struct chart ch;
	char title[256], yname[128];

	chart_init(&ch, 640, 330 + 18 * (double)legend_rows);
	ch.y.p0 = 330 - 48;
	snprintf(title, sizeof(title), "%s by %s%s%s", cd->metrics[k], c0 ? c0->x_name : "x",
		 c0 && c0->setting[0] && stats_block_end(cs, 0) == cs->n ? ", setting " : "",
		 c0 && c0->setting[0] && stats_block_end(cs, 0) == cs->n ? c0->setting : "");
	snprintf(yname, sizeof(yname), "%s%s%s%s", cd->metrics[k], c0 && c0->unit[0] ? " (" : "",
		 c0 ? c0->unit : "", c0 && c0->unit[0] ? ")" : "");
	svg_open(out, &ch, standalone, title);
	chart_y_range(cs, &ylo, &yhi);
	if (!nx || !isfinite(ylo)) {
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">no results for this metric</text></svg>\n",
			ch.w / 2, ch.h / 2);
		free(xs);
		return;
	}
	ax_fit(&ch.y, ylo, yhi, ylo >= 0);
	chart_fit_x(&ch, xs, nx, ro);
	chart_axes(out, &ch, xs, nx, c0->x_name, yname);
	chart_draw_bands(out, &ch, cs);
	for (size_t l = 0; l < cs->n; l++)
		chart_draw_curve(out, &ch, cs, l);
	chart_draw_legend(out, &ch, cs, lcols, marks);
	fputs("</svg>\n", out);
	free(xs);
}

/* One series of a run against time; NaN breaks the line. */
static void put_series(FILE *out, const struct chart *ch, const double *t, const double *v, size_t n, double scale,
		       const char *col, const char *dash, const char *name)
{
	bool open = false;

	fputs("<g>", out);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i])) {
			if (open)
				fputs("\"/>", out);
			open = false;
			continue;
		}
		if (!open)
			fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s%s%s points=\"", col,
				dash ? " stroke-dasharray=\"" : "", dash ? dash : "", dash ? "\"" : "");
		open = true;
		fprintf(out, "%.1f,%.1f ", ax_map(&ch->x, t[i]), ax_map(&ch->y, v[i] * scale));
	}
	if (open)
		fputs("\"/>", out);
	fputs("<title>", out);
	put_esc(out, name);
	fputs("</title></g>\n", out);
}

/* The run's throttle episodes as shaded spans behind its lines. */
static void put_throttled(FILE *out, const struct chart *ch, const struct compare_run *r)
{
	for (size_t i = 0; i < r->nthrottled; i++) {
		double a = ax_map(&ch->x, r->throttled[i].t0), b = ax_map(&ch->x, r->throttled[i].t1);
		fprintf(out, "<rect class=\"throttled\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#d62728\" "
			"fill-opacity=\"0.16\"><title>writers throttled %.2f-%.2f s</title></rect>\n",
			a, ch->y.p1, b - a < 1 ? 1 : b - a, ch->y.p0 - ch->y.p1, r->throttled[i].t0, r->throttled[i].t1);
	}
}

static void legend_item(FILE *out, double x, double y, const char *col, const char *dash, const char *name)
{
	fprintf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"%s\"%s%s%s/>"
		"<text x=\"%.0f\" y=\"%.0f\">%s</text>",
		x, y - 4, x + 18, y - 4, col, dash && !strcmp(dash, "shade") ? "8\" stroke-opacity=\"0.3" : "2",
		dash && strcmp(dash, "shade") ? " stroke-dasharray=\"" : "", dash && strcmp(dash, "shade") ? dash : "",
		dash && strcmp(dash, "shade") ? "\"" : "", x + 23, y, name);
}

static double series_max(const double *v, size_t n)
{
	double m = -INFINITY;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			m = fmax(m, v[i]);
	return m;
}

/* Throughput (all whole disks, and the benchmark's own figure) and dirty
 * + writeback against the background threshold, the freerun ceiling and
 * the hard threshold, over the run, throttle episodes shaded in both. */
static void chart_run(FILE *out, const struct compare_run *r, bool dirty)
{
	struct chart ch;
	double tmax = r->n ? r->t[r->n - 1] : 0, ymax;
	const double mib = 1.0 / 1024;    /* kB (KiB) to MiB */

	chart_init(&ch, 460, 250);
	ch.y.p0 = 250 - 62;
	tmax = fmax(tmax, r->t1 - r->t0);
	ch.x.lo = 0;
	ch.x.hi = tmax > 0 ? tmax : 1;
	/* the dirty chart is the run's own: from its first sample after its
	 * start (its knobs are set before it; the sample before still has the
	 * last setting's thresholds, 5,000 MiB over a 256M run's line) */
	size_t k = 0;
	while (dirty && k + 1 < r->n && !(r->t[k] > 0))
		k++;
	if (dirty) {
		ymax = fmax(series_max(r->dirty_kb + k, r->n - k), series_max(r->thresh_kb + k, r->n - k));
		svg_open(out, &ch, false, "dirty + writeback against the thresholds");
	} else {
		ymax = series_max(r->tput_kBps, r->n);
		if (r->have_summary && r->sum.have_reported)
			ymax = fmax(ymax, r->sum.reported_Bps / 1024);
		if (r->have_summary)
			ymax = fmax(ymax, r->sum.device_Bps / 1024);
		svg_open(out, &ch, false, "throughput");
	}
	ax_fit(&ch.y, 0, isfinite(ymax) ? ymax * mib : 1, true);
	put_throttled(out, &ch, r);
	chart_axes(out, &ch, NULL, 0, "seconds since the run started", dirty ? "MiB" : "MiB/s");
	double ly = ch.h - 8;
	if (dirty) {
		put_series(out, &ch, r->t + k, r->bg_kb + k, r->n - k, mib, "#7f7f7f", "2 3", "background threshold");
		put_series(out, &ch, r->t + k, r->freerun_kb + k, r->n - k, mib, "#e69f00", "6 3", "freerun ceiling");
		put_series(out, &ch, r->t + k, r->thresh_kb + k, r->n - k, mib, "#d62728", "6 3", "hard threshold");
		put_series(out, &ch, r->t + k, r->dirty_kb + k, r->n - k, mib, "#0072b2", NULL, "dirty + writeback");
		legend_item(out, 8, ly, "#0072b2", NULL, "dirty+writeback");
		legend_item(out, 128, ly, "#7f7f7f", "2 3", "bg");
		legend_item(out, 178, ly, "#e69f00", "6 3", "freerun");
		legend_item(out, 250, ly, "#d62728", "6 3", "thresh");
		legend_item(out, 318, ly, "#d62728", "shade", "throttled");
	} else {
		put_series(out, &ch, r->t, r->tput_kBps, r->n, mib, "#009e73", NULL, "disks: read + write");
		legend_item(out, 8, ly, "#009e73", NULL, "disks");
		if (r->have_summary && r->sum.have_reported) {
			double y = ax_map(&ch.y, r->sum.reported_Bps / 1024 * mib);
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#cc79a7\" stroke-width=\"1.6\" "
				"stroke-dasharray=\"6 3\"><title>the benchmark's figure</title></line>\n", ch.x.p0, y, ch.x.p1, y);
			legend_item(out, 70, ly, "#cc79a7", "6 3", "benchmark said");
		}
		if (r->have_summary && r->sum.device_Bps > 0) {
			double y = ax_map(&ch.y, r->sum.device_Bps / 1024 * mib);
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#009e73\" stroke-width=\"1\" "
				"stroke-dasharray=\"2 3\"><title>the disks over the I/O time</title></line>\n", ch.x.p0, y, ch.x.p1, y);
			legend_item(out, 200, ly, "#009e73", "2 3", "disks over I/O time");
		}
		legend_item(out, 350, ly, "#d62728", "shade", "throttled");
	}
	fputs("</svg>\n", out);
}

/* ---- the page ---- */

static const char page_css[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1400px}"
	"h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;margin-top:2em}h3{font-size:1.05em}"
	"table{border-collapse:collapse;font-size:13px;margin:.5em 0}"
	"th,td{border:1px solid #ccc;padding:2px 6px;text-align:right;white-space:nowrap}"
	"th{background:#f3f3f3}td.l,th.l{text-align:left}td.w{white-space:normal}"
	".metric{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}.metric>.chart{flex:none}"
	".runs{display:flex;flex-wrap:wrap;gap:.5em}"
	".better{background:#c6efce}.worse{background:#ffc7ce}.ns{color:#888}"
	".note{color:#555;font-size:13px}code{font-size:12px}"
	"svg{max-width:100%;height:auto}";

static void put_change(FILE *out, const struct curve_point *p, int dir)
{
	const char *cls = "ns";

	if (!p->have_change) {
		fputs("<td></td>", out);
		return;
	}
	if (p->significant && dir)
		cls = (p->change_pct > 0) == (dir > 0) ? "better" : "worse";
	else if (p->significant)
		cls = "";
	fprintf(out, "<td class=\"%s\"", cls);
	if (p->p_value >= 0)
		fprintf(out, " title=\"Welch p=%.3g\"", p->p_value);
	fprintf(out, ">%+.2f%%%s</td>", p->change_pct, p->significant ? "*" : "");
}

/* Decimals for a table cell: whole numbers from 1000 up (as the text
 * table, no exponent), else about 4 significant digits. */
static int decimals(double v)
{
	double a = fabs(v);

	return a >= 1000 ? 0 : a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4;
}

/* The table of metric k: one row per x, per label mean, stddev, CoV, N,
 * change against the baseline (with *), what the runs measured. */
static void table_metric(FILE *out, const struct curve_set *cs)
{
	double *xs = NULL;
	size_t nx = compare_curve_xs(cs, &xs);
	int dir = cs->n ? compare_metric_better(cs->v[0].metric, cs->v[0].unit) : 0;
	bool marks = any_mark(cs);
	int ncol = marks ? 5 : 4;
	char b[64];

	fputs("<table class=\"cmp\"><tr><th class=\"l\" rowspan=\"2\">", out);
	put_esc(out, cs->n ? cs->v[0].x_name : "x");
	fputs("</th>", out);
	for (size_t l = 0; l < cs->n; l++) {
		bool base = cs->v[l].is_base;
		fprintf(out, "<th colspan=\"%d\" style=\"border-top:3px solid %s\">", base ? ncol : ncol + 1,
			palette[l % NPALETTE]);
		put_curve_name(out, cs, l);
		fprintf(out, "%s</th>", base ? " (baseline)" : "");
	}
	fputs("</tr>\n<tr>", out);
	for (size_t l = 0; l < cs->n; l++)
		fprintf(out, "<th>mean</th><th>stddev</th><th>CoV</th><th>N</th>%s%s",
			!cs->v[l].is_base ? "<th>change</th>" : "", marks ? "<th>measured</th>" : "");
	fputs("</tr>\n", out);
	for (size_t i = 0; i < nx; i++) {
		compare_format_x(b, sizeof(b), xs[i]);
		fprintf(out, "<tr><td class=\"l\">%s</td>", b);
		for (size_t l = 0; l < cs->n; l++) {
			const struct curve_point *p = compare_point_at(&cs->v[l], xs[i]);
			bool base = cs->v[l].is_base;
			char verdict[64];
			if (!p) {
				fprintf(out, "<td colspan=\"%d\" class=\"ns\">n/a</td>", base ? ncol : ncol + 1);
				continue;
			}
			fprintf(out, "<td>%.*f</td>", decimals(p->mean), p->mean);
			if (p->n >= 2)
				fprintf(out, "<td>%.*f</td><td>%.2f%%</td>", decimals(p->stddev), p->stddev, p->cov);
			else
				fputs("<td class=\"ns\">n/a</td><td class=\"ns\">n/a</td>", out);
			fprintf(out, "<td>%d</td>", p->n);
			if (!base)
				put_change(out, p, dir);
			if (!marks)
				continue;
			compare_point_verdict(p, verdict, sizeof(verdict));
			fprintf(out, "<td class=\"l\">%s</td>", verdict);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	free(xs);
}

/* Per metric and label, the change against the baseline over the whole
 * sweep, as mmtests' Gmean rows: the geometric mean of mean / baseline
 * mean over the x both have, with how many of those points Welch's test
 * calls significant.  Coloured only when the significant ones all go one
 * way. */
static void summary_table(FILE *out, const struct compare_data *cd)
{
	bool any = false;

	for (size_t k = 0; k < cd->nmetrics; k++)
		any = any || cd->curves[k].n > 1;
	if (!any)
		return;
	fputs("<h2 id=\"summary\">Summary</h2>\n<table><tr><th class=\"l\">metric</th><th class=\"l\">baseline</th>"
	      "<th class=\"l\">label</th><th>gmean change</th><th>significant points</th></tr>\n", out);
	for (size_t k = 0; k < cd->nmetrics; k++) {
		const struct curve_set *cs = &cd->curves[k];
		int dir = cs->n ? compare_metric_better(cs->v[0].metric, cs->v[0].unit) : 0;
		for (size_t l = 0; l < cs->n; l++) {
			const struct curve *cv = &cs->v[l], *base = cv;
			for (size_t a = l; a-- > 0 && !strcmp(cs->v[a].setting, cv->setting);)
				base = cs->v[a].is_base ? &cs->v[a] : base;
			for (size_t a = l + 1; a < cs->n && !strcmp(cs->v[a].setting, cv->setting); a++)
				base = cs->v[a].is_base ? &cs->v[a] : base;
			double logsum = 0;
			int n = 0, up = 0, down = 0;
			const char *cls = "ns";
			if (cv == base)
				continue;
			for (size_t i = 0; i < cv->n; i++) {
				const struct curve_point *b = compare_point_at(base, cv->pts[i].x);
				if (!b || !(b->mean > 0) || !(cv->pts[i].mean > 0))
					continue;
				logsum += log(cv->pts[i].mean / b->mean);
				n++;
				if (cv->pts[i].significant)
					cv->pts[i].mean > b->mean ? up++ : down++;
			}
			double chg = n ? (exp(logsum / n) - 1) * 100 : NAN;
			if (dir && (up || down) && !(up && down))
				cls = (up > 0) == (dir > 0) ? "better" : "worse";
			fprintf(out, "<tr><td class=\"l\"><a href=\"#m%zu\">", k);
			put_esc(out, cd->metrics[k]);
			fputs("</a></td><td class=\"l\">", out);
			put_esc(out, base->label);
			fputs("</td><td class=\"l\">", out);
			put_esc(out, cv->label);
			if (cv->setting[0]) {
				fputs(" <small>", out);
				put_esc(out, cv->setting);
				fputs("</small>", out);
			}
			if (n)
				fprintf(out, "</td><td class=\"%s\">%+.2f%%</td><td>%d of %d</td></tr>\n", cls, chg, up + down, n);
			else
				fputs("</td><td class=\"ns\">n/a</td><td>no common x</td></tr>\n", out);
		}
	}
	fputs("</table>\n", out);
}

/* Every run in one table, as mmtests sets its monitors' figures side by
 * side per kernel: what the disks did against what the benchmark said,
 * the peak of dirty memory against the limits, the time throttled. */
static void runs_table(FILE *out, const struct compare_data *cd)
{
	bool any = false;
	size_t session_hits = 0;

	for (size_t i = 0; i < cd->nruns; i++)
		any = any || cd->runs[i].have_summary;
	if (!any)
		return;
	fputs("<table><tr><th class=\"l\">label</th><th>run</th><th class=\"l\">measured</th><th>benchmark MB/s</th>"
	      "<th>disks MB/s</th><th>inflation</th><th>wrote MB</th><th>peak / freerun / thresh MiB</th>"
	      "<th>throttled</th><th>dirty left MiB</th><th>hits</th></tr>\n", out);
	for (size_t i = 0; i < cd->nruns; i++) {
		const struct compare_run *r = &cd->runs[i];
		const struct run_summary *u = &r->sum;
		if (!r->have_summary)
			continue;
		fputs("<tr><td class=\"l\">", out);
		put_esc(out, r->label);
		fprintf(out, "</td><td>%d</td><td class=\"l\">%s%s%s%s</td>", r->index + 1, runsum_verdict_name(u->verdict),
			u->na ? " (" : "", runsum_na_name(u->na), u->na ? ")" : "");
		if (u->have_reported)
			fprintf(out, "<td>%.1f</td>", u->reported_Bps / 1e6);
		else
			fputs("<td class=\"ns\">n/a</td>", out);
		fprintf(out, "<td>%.1f</td>", u->device_Bps / 1e6);
		if (isfinite(u->inflation))
			fprintf(out, "<td>%.2f</td>", u->inflation);
		else
			fprintf(out, "<td class=\"ns\">%s</td>", isinf(u->inflation) ? "inf" : "n/a");
		fprintf(out, "<td>%.1f</td>", (double)u->write_B / 1e6);
		if (u->have_dirty)
			fprintf(out, "<td>%.0f / %.0f / %.0f</td>", u->peak_kB / 1024.0, u->freerun_kB / 1024.0,
				u->thresh_kB / 1024.0);
		else
			fputs("<td class=\"ns\">n/a</td>", out);
		fprintf(out, "<td>%s%.2f s (%.0f%%)</td><td>%.1f</td>", u->throttle_src == THR_SRC_SAMPLED ? "~" : "",
			u->throttled_s, u->throttled_pct, u->end_kB / 1024.0);
		/* the run's own dirty-limit hits: its summary's, or the episodes
		 * of an older recording clipped to the run */
		fprintf(out, "<td>%zu</td></tr>\n", u->eps.have ? (size_t)u->eps.count : r->nthrottled);
		session_hits += u->eps.have ? (size_t)u->eps.count : r->nthrottled;
	}
	fprintf(out, "</table>\n<p class=\"note\">inflation: the benchmark's figure over the disks' (above 2 and "
		"not throttled: the page cache took the writes or served the reads); ~: throttled time from the sampled "
		"zone, not the tracepoint; hits: the run's throttle episodes, %zu in all.</p>\n", session_hits);
}

/* sweep --until-decided: each point's state when the sweep left it. */
static void put_decisions(FILE *out, const struct compare_data *cd)
{
	if (!cd->ndecisions)
		return;
	fputs("<h2 id=\"decisions\">Decisions</h2>\n<p class=\"note\">sweep --until-decided ran each point until "
	      "its mean was known within --ci, or its change against --baseline was shown or ruled out "
	      "(group-sequential, 5 % false findings); open: --max-repeat or --budget reached first.</p>\n"
	      "<table><tr><th class=\"l\">label</th><th class=\"l\">setting</th><th class=\"l\">point</th>"
	      "<th class=\"l\">state</th><th>runs</th><th>failed</th><th>outliers</th><th class=\"l\">answer</th></tr>\n",
	      out);
	for (size_t i = 0; i < cd->ndecisions; i++) {
		const struct compare_decision *d = &cd->decisions[i];
		fputs("<tr><td class=\"l\">", out);
		put_esc(out, d->label);
		fputs("</td><td class=\"l\">", out);
		put_esc(out, d->e.setting);
		fputs("</td><td class=\"l\">", out);
		put_esc(out, d->e.x_name);
		fputc('=', out);
		put_esc(out, d->e.x_text);
		fprintf(out, "</td><td class=\"l\">%s</td><td>%d</td><td>%d</td><td>%d</td><td class=\"l\">",
			decide_state_name(d->e.state), d->e.runs, d->e.failed, d->e.outliers);
		put_esc(out, d->e.what);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void put_runs(FILE *out, const struct compare_data *cd)
{
	bool any = false;

	for (size_t i = 0; i < cd->nruns; i++)
		any = any || cd->runs[i].n;
	if (!any)
		return;
	fputs("<h2 id=\"runs\">Runs</h2>\n<p class=\"note\">Per recorded run: the whole disks' throughput "
	      "(diskstats) and the benchmark's own figure; dirty + writeback against the background threshold, "
	      "the freerun ceiling (above it writers are throttled) and the hard threshold.  Shaded: the "
	      "throttle episodes the recording holds.</p>\n", out);
	runs_table(out, cd);
	for (size_t i = 0; i < cd->nruns; i++) {
		const struct compare_run *r = &cd->runs[i];
		const struct run_summary *u = &r->sum;
		if (!r->n)
			continue;
		fputs("<h3>", out);
		put_esc(out, r->label);
		fprintf(out, " &middot; run %d", r->index + 1);
		if (r->have_summary)
			fprintf(out, " &middot; %s", runsum_verdict_name(u->verdict));
		fputs("</h3>\n<p class=\"note\">", out);
		if (r->knobs[0]) {
			fputs("knobs <code>", out);
			put_esc(out, r->knobs);
			fputs("</code>; ", out);
		}
		if (r->exit_status >= 0)
			fprintf(out, "exit status %d; ", r->exit_status);
		if (r->have_summary) {
			fprintf(out, "%.2f s, disks %.1f MB/s", u->secs, u->device_Bps / 1e6);
			if (u->have_reported)
				fprintf(out, ", benchmark %.1f MB/s", u->reported_Bps / 1e6);
			if (u->have_dirty)
				fprintf(out, ", peak dirty %.0f MiB (freerun %.0f, thresh %.0f)", u->peak_kB / 1024.0,
					u->freerun_kB / 1024.0, u->thresh_kB / 1024.0);
			fprintf(out, ", throttled %.2f s (%.0f%%, %s); ", u->throttled_s, u->throttled_pct,
				u->throttle_src == THR_SRC_SAMPLED ? "sampled zone" : "tracepoint");
		}
		fputs("from ", out);
		put_esc(out, util_base_name(r->source));
		fputs("</p>\n<div class=\"runs\">\n", out);
		chart_run(out, r, false);
		chart_run(out, r, true);
		fputs("</div>\n", out);
	}
}

static int check_out(FILE *out, char *err, size_t errlen)
{
	if (ferror(out)) {
		snprintf(err, errlen, "writing the report failed");
		return -EIO;
	}
	return 0;
}

int report_write_html(const struct compare_data *cd, const struct report_opts *ro, FILE *out, char *err,
		      size_t errlen)
{
	const char *title = ro && ro->title ? ro->title : "iodash report";

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"generator\" content=\"iodash " IODASH_VERSION "\"><title>", out);
	put_esc(out, title);
	fprintf(out, "</title><style>%s</style></head>\n<body>\n<h1>", page_css);
	put_esc(out, title);
	fputs("</h1>\n<h2 id=\"sources\">Sources</h2>\n<table><tr><th class=\"l\">label</th><th class=\"l\">host</th>"
	      "<th class=\"l\">kernel</th><th class=\"l\">knobs</th><th class=\"l\">source</th></tr>\n", out);
	for (size_t i = 0; i < cd->nlabels; i++) {
		const struct compare_label *l = &cd->labels[i];
		fputs("<tr><td class=\"l\">", out);
		put_esc(out, l->label);
		fputs("</td><td class=\"l\">", out);
		put_esc(out, l->host[0] ? l->host : "n/a");
		fputs("</td><td class=\"l\">", out);
		put_esc(out, l->kernel[0] ? l->kernel : "n/a");
		fputs("</td><td class=\"l w\"><code>", out);
		put_esc(out, l->knobs);
		fputs("</code></td><td class=\"l\">", out);
		put_esc(out, l->sources);   /* every source a label pooled */
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n<p class=\"note\">Each chart: the mean of the runs per x as a line, the runs' min&ndash;max "
	      "as a band, &plusmn;1 stddev as bars; a point's shape says what its runs measured (device, cache, "
	      "throttled) where the recording says it.  Tables: change against the baseline; * where Welch's "
	      "t-test gives p &lt; 0.05, coloured green (better) or red (worse) only then.</p>\n<p class=\"note\">Metrics:",
	      out);
	for (size_t k = 0; k < cd->nmetrics; k++) {
		fprintf(out, " <a href=\"#m%zu\">", k);
		put_esc(out, cd->metrics[k]);
		fputs("</a>", out);
	}
	if (cd->ndecisions)
		fputs(" &middot; <a href=\"#decisions\">decisions</a>", out);
	if (cd->nruns)
		fputs(" &middot; <a href=\"#runs\">runs</a>", out);
	fputs("</p>\n", out);
	summary_table(out, cd);
	for (size_t k = 0; k < cd->nmetrics; k++) {
		const struct curve_set *cs = &cd->curves[k];
		fprintf(out, "<h2 id=\"m%zu\">", k);
		put_esc(out, cd->metrics[k]);
		if (cs->n && cs->v[0].unit[0]) {
			fputs(" <small>(", out);
			put_esc(out, cs->v[0].unit);
			fputs(")</small>", out);
		}
		fputs("</h2>\n", out);
		/* one chart and table per setting: the change of each label
		 * against the baseline under that same setting */
		for (size_t a = 0, e; a < cs->n; a = e) {
			struct curve_set block = *cs;
			e = stats_block_end(cs, a);
			block.v = cs->v + a;
			block.n = e - a;
			if (cs->v[a].setting[0]) {
				fputs("<h3 class=\"setting\">setting ", out);
				put_esc(out, cs->v[a].setting);
				fputs("</h3>\n", out);
			}
			fputs("<div class=\"metric\"><div class=\"chart\">\n", out);
			chart_metric(out, cd, k, &block, ro, false);
			fputs("</div>\n<div>\n", out);
			table_metric(out, &block);
			fputs("</div></div>\n", out);
		}
	}
	put_decisions(out, cd);
	put_runs(out, cd);
	fputs("<p class=\"note\">Made by iodash " IODASH_VERSION ".</p>\n</body></html>\n", out);
	return check_out(out, err, errlen);
}

int report_write_svg(const struct compare_data *cd, size_t k, const struct report_opts *ro, FILE *out, char *err,
		     size_t errlen)
{
	if (k >= cd->nmetrics) {
		snprintf(err, errlen, "no metric %zu", k);
		return -EINVAL;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	chart_metric(out, cd, k, &cd->curves[k], ro, true);
	return check_out(out, err, errlen);
}
