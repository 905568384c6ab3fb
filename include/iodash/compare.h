/* compare: what `iodash compare SRC...` shows: recordings and text files
 * (benchmark output, mails with result tables) mixed; one curve per label
 * and metric (session.h), and for recordings the time series of each run
 * aligned at its start.  Core: no curses; the compare screen (ui) and the
 * --text/--csv/--json printers read the same struct. */
#ifndef IODASH_COMPARE_H
#define IODASH_COMPARE_H

#include <stdio.h>
#include "iodash/cli.h"
#include "iodash/parser.h"
#include "iodash/result.h"
#include "iodash/session.h"

#define COMPARE_RUN_MAX_POINTS 2000   /* per-run series are thinned to this */

/* One benchmark run of a recording (or a whole recording without run
 * events): dirty memory and throughput against seconds since its start. */
struct compare_run {
	char label[RP_LABEL_LEN];
	char source[256];      /* the file */
	int index;             /* 0-based run number within its file */
	int exit_status;       /* from the run_end event, -1 unknown */
	size_t n;
	double *t;             /* seconds since the run started */
	double *dirty_kb;      /* dirty + writeback (vmstat), KiB */
	double *thresh_kb;     /* the hard threshold, KiB (0 unknown) */
	double *tput_kBps;     /* all disks: read + write kB/s */
};

struct compare_data {
	struct result_set results;   /* final points of every source; runs renumbered per label */
	size_t nmetrics;
	char (*metrics)[RP_NAME_LEN];
	struct curve_set *curves;    /* curves[i] is metrics[i] */
	struct compare_run *runs;
	size_t nruns;
	char baseline[RP_LABEL_LEN]; /* "" = the first label of each metric */
	size_t nsources;
	/* how the tables of text sources were read (mail tables), with their
	 * file: printed under the --text table and by --explain */
	struct compare_note {
		char source[256];
		struct parser_note n;
	} *notes;
	size_t nnotes;
};

/* Load every source (a recording when it starts like one, else a text file
 * through the parsers: parser NULL guesses the format, else that parser,
 * --parser) and build the curves.  metric NULL = all.  Two text sources
 * with one file name in different directories get "dir/name" labels; a
 * label given by two sources is said on warn (counted as runs of it).
 * Returns 0, -ENOENT when no result was found (err says where it looked),
 * -ESRCH for an unknown --baseline or --metric (err lists the known ones),
 * or another -errno with err "FILE: byte N: why". Warnings (torn records,
 * sources without results) go to warn (may be NULL), one per line. */
int compare_load(struct compare_data *cd, char *const *paths, int npaths,
		 const char *baseline, const char *metric, const char *parser,
		 char *err, size_t errlen, FILE *warn);
void compare_free(struct compare_data *cd);
/* The notes on how the text sources' tables were read, one a line
 * ("mail.txt:12-22: mmtests table: ..."); only the tables not understood
 * when all is false. */
void compare_print_notes(const struct compare_data *cd, bool all, const char *prefix, FILE *out);

/* The table of every metric: FMT_TEXT (a mail table), FMT_CSV, FMT_JSON. */
int compare_print(const struct compare_data *cd, enum out_format fmt, FILE *out);
/* The text table of one metric (what --text prints for it). */
void compare_print_text_metric(const struct curve_set *cs, FILE *out);

#endif
