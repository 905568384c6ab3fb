/* The text layout of a recording shared by the writer and the reader:
 * column names, CRC-32, enum names, escaping.  See docs/recording.md. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "iodash/base/text.h"
#include "rec_format.h"

/* S: built once from the sample schema, the writer's order and by id */
static const char *cols_S[SF_N];
static int ids_S[SF_N], ncols_S;
static const char *known_S[SF_N];
static pthread_once_t cols_S_once = PTHREAD_ONCE_INIT;

static void cols_S_init(void)
{
	for (int i = 0; i < SF_N; i++) {
		if (sample_cols[i].where & SCW_REC) {
			ids_S[ncols_S] = i;
			cols_S[ncols_S++] = sample_cols[i].name;
		}
		if (sample_cols[i].where & (SCW_REC | SCW_REC_V1))
			known_S[i] = sample_cols[i].name;
	}
}

/* The delta names follow Documentation/admin-guide/iostats.rst. */
const char *const rec_cols_D[DC_ALL] = {
	"disk", "have_rate", "nfields",
	"reads", "reads_merged", "sectors_read", "ms_reading",
	"writes", "writes_merged", "sectors_written", "ms_writing",
	"ios_in_progress", "ms_io", "weighted_ms_io",
	"discards", "discards_merged", "sectors_discarded", "ms_discarding",
	"flushes", "ms_flushing",
	[DC_V1_T] = "t", "r_s", "w_s", "rkB_s", "wkB_s", "r_await", "w_await",
	"aqu_sz", "util", "d_s", "dkB_s", "f_s",
};
const char *const rec_cols_E[EC_N] = { "t", "kind", "text" };
const char *const rec_cols_O[OC_N] = { "t", "run", "text" };
const char *const rec_cols_R[RC_N] = {
	"t", "label", "run", "x_name", "x", "metric", "value", "unit", "flags", "setting",
};
const char *const rec_cols_B[BC_N] = {
	"t", "state", "run_index", "run_total", "runs_failed", "pid",
	"ntasks", "throttled_tasks", "read_Bps", "write_Bps", "rchar_Bps",
	"wchar_Bps", "have_tracepoint", "pauses_per_s", "pause_ms_per_s",
	"pauses_total", "pause_total_ms", "last_exit_status", "last_signal", "eta_s",
	"run_start_t", "progress_valid", "phase", "progress_elapsed_s",
	"progress_throughput", "progress_unit", "progress_latency_ms", "label",
	"command",
};

const char *const *rec_cols_of(char type, int *ncols)
{
	switch (type) {
	case RT_SAMPLE:
		pthread_once(&cols_S_once, cols_S_init);
		*ncols = ncols_S;
		return cols_S;
	case RT_DISK: *ncols = DC_N; return rec_cols_D;
	case RT_EVENT: *ncols = EC_N; return rec_cols_E;
	case RT_OUTPUT: *ncols = OC_N; return rec_cols_O;
	case RT_RESULT: *ncols = RC_N; return rec_cols_R;
	case RT_BENCH: *ncols = BC_N; return rec_cols_B;
	}
	*ncols = 0;
	return NULL;
}

_Static_assert(DS_NFIELDS == 17, "the D column names list 17 diskstats deltas");

int64_t rec_secs_to_ns(double t)
{
	/* 9.2e9 s: inside int64 nanoseconds (292 years), with room */
	if (!(t > -9.2e9 && t < 9.2e9))
		return 0;
	return (int64_t)llround(t * 1e9);
}

int rec_col_id(char type, int i)
{
	int n;

	rec_cols_of(type, &n);
	if (i < 0 || i >= n)
		return -1;
	return type == RT_SAMPLE ? ids_S[i] : i;
}

const char *const *rec_cols_known(char type, int *ncols)
{
	const char *const *c = rec_cols_of(type, ncols);

	if (type == RT_SAMPLE) {
		*ncols = SF_N;
		return known_S;
	}
	if (type == RT_DISK)
		*ncols = DC_ALL;
	return c;
}

/* CRC-32 (IEEE, as zlib.crc32) by slicing eight bytes at a time: view
 * checks every record of a 24-hour file when it opens it, and must do so
 * in well under a second. */
static uint32_t crc_tab[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		crc_tab[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_tab[t][i] = (crc_tab[t - 1][i] >> 8) ^ crc_tab[0][crc_tab[t - 1][i] & 0xff];
}

uint32_t rec_crc32(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t c = 0xFFFFFFFFu;

	pthread_once(&crc_once, crc_init);
	while (len >= 8) {
		uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
				   (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 |
			      (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
		c = crc_tab[7][lo & 0xff] ^ crc_tab[6][(lo >> 8) & 0xff] ^
		    crc_tab[5][(lo >> 16) & 0xff] ^ crc_tab[4][lo >> 24] ^
		    crc_tab[3][hi & 0xff] ^ crc_tab[2][(hi >> 8) & 0xff] ^
		    crc_tab[1][(hi >> 16) & 0xff] ^ crc_tab[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		c = crc_tab[0][(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xFFFFFFFFu;
}

static const char *const event_names[] = {
	[MEV_HIT_START] = "hit_start", [MEV_HIT_END] = "hit_end", [MEV_MARK] = "mark",
	[MEV_RUN_START] = "run_start", [MEV_RUN_END] = "run_end", [MEV_NOTE] = "note",
	[MEV_KNOB] = "knob", [MEV_RUN_SUMMARY] = "run_summary", [MEV_DECISION] = "decision",
};
static const char *const state_names[] = {
	[BENCH_NONE] = "none", [BENCH_STARTING] = "starting", [BENCH_RUNNING] = "running",
	[BENCH_BETWEEN] = "between", [BENCH_DONE] = "done",
};
static const char *const zone_names[] = {
	"below_bg", "bg_flush", "throttle", "hard_limit",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const char *rec_event_kind_name(enum model_event_kind k)
{
	return (unsigned)k < NELEM(event_names) && event_names[k] ? event_names[k] : "note";
}

int rec_event_kind_parse(const char *s)
{
	for (size_t i = 0; i < NELEM(event_names); i++)
		if (event_names[i] && !strcmp(s, event_names[i]))
			return (int)i;
	return -1;
}

const char *rec_bench_state_name(enum bench_state s)
{
	return (unsigned)s < NELEM(state_names) && state_names[s] ? state_names[s] : "none";
}

int rec_bench_state_parse(const char *s)
{
	for (size_t i = 0; i < NELEM(state_names); i++)
		if (state_names[i] && !strcmp(s, state_names[i]))
			return (int)i;
	return -1;
}

const char *rec_zone_name(enum dirty_zone z)
{
	return z >= 0 && (unsigned)z < NELEM(zone_names) ? zone_names[z] : "unknown";
}

int rec_zone_parse(const char *s)
{
	for (size_t i = 0; i < NELEM(zone_names); i++)
		if (!strcmp(s, zone_names[i]))
			return (int)i;
	return ZONE_UNKNOWN;
}

void rec_buf_free(struct rec_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

static int buf_reserve(struct rec_buf *b, size_t more)
{
	size_t need = b->len + more + 1, ncap;
	char *np;

	if (b->oom)
		return -1;
	if (need <= b->cap)
		return 0;
	ncap = b->cap ? b->cap : 4096;
	while (ncap < need)
		ncap *= 2;
	np = realloc(b->p, ncap);
	if (!np) {
		b->oom = 1;
		return -1;
	}
	b->p = np;
	b->cap = ncap;
	return 0;
}

void rec_buf_putc(struct rec_buf *b, char c)
{
	if (buf_reserve(b, 1))
		return;
	b->p[b->len++] = c;
	b->p[b->len] = 0;
}

void rec_buf_puts(struct rec_buf *b, const char *s)
{
	size_t n = strlen(s);

	if (buf_reserve(b, n))
		return;
	memcpy(b->p + b->len, s, n + 1);
	b->len += n;
}

void rec_buf_printf(struct rec_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || buf_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void rec_buf_put_text(struct rec_buf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '\t': rec_buf_puts(b, "\\t"); break;
		case '\n': rec_buf_puts(b, "\\n"); break;
		case '\r': rec_buf_puts(b, "\\r"); break;
		case '\\': rec_buf_puts(b, "\\\\"); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				rec_buf_printf(b, "\\x%02x", *p);
			else
				rec_buf_putc(b, (char)*p);
		}
	}
}

void rec_buf_begin(struct rec_buf *b, size_t *line_start, char type)
{
	*line_start = b->len;
	rec_buf_putc(b, type);
}

void rec_buf_end(struct rec_buf *b, size_t line_start)
{
	uint32_t c;

	if (b->oom)
		return;
	c = rec_crc32(b->p + line_start, b->len - line_start);
	rec_buf_printf(b, "\t%08x\n", c);
}

void rec_unescape(const char *s, size_t n, char *out, size_t outlen)
{
	size_t o = 0;

	if (!outlen)
		return;
	for (size_t i = 0; i < n && o + 1 < outlen; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < n) {
			char e = s[++i];
			switch (e) {
			case 't': c = '\t'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case '\\': c = '\\'; break;
			case 'x':
				if (i + 2 < n && text_hex_digit(s[i + 1]) >= 0 && text_hex_digit(s[i + 2]) >= 0) {
					c = (char)(text_hex_digit(s[i + 1]) * 16 + text_hex_digit(s[i + 2]));
					i += 2;
				} else {
					c = 'x';
				}
				break;
			default: c = e;
			}
		}
		out[o++] = c;
	}
	out[o] = 0;
}

/* A byte that is not UTF-8 (a benchmark may print any) is written as
 * U+FFFD, one per byte, so CSV and JSON readers that insist on UTF-8
 * (pandas, jq, Python's json) take the file; docs/recording.md. */
static const char *const utf8_replacement = "\xEF\xBF\xBD";

void rec_csv_str(FILE *out, const char *s)
{
	bool quote = strpbrk(s, ",\"\n\r") != NULL;

	if (quote)
		fputc('"', out);
	while (*s) {
		/* plain ASCII goes out as one run, not a character at a time */
		size_t r = 0;
		while ((unsigned char)s[r] - 1u < 0x7f && s[r] != '"')
			r++;
		if (r) {
			fwrite(s, 1, r, out);
			s += r;
			continue;
		}
		size_t n = text_utf8_len(s);
		if (!n) {
			fputs(utf8_replacement, out);
			s++;
			continue;
		}
		if (*s == '"')
			fputc('"', out);
		fwrite(s, 1, n, out);
		s += n;
	}
	if (quote)
		fputc('"', out);
}

void rec_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n = text_utf8_len(s);
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else if (!n)
			fputs("\\ufffd", out);
		else
			fwrite(s, 1, n, out);
		s += n ? n : 1;
	}
	fputc('"', out);
}
