/* ui_live: the live (and replay) screen's state, shared by its event loop
 * and keys (live.c) and its panels (panels.c).  Private to src/ui/. */
#ifndef IODASH_UI_LIVE_H
#define IODASH_UI_LIVE_H

#include "ui/layout.h"
#include "iodash/model/model.h"
#include "ui/frame.h"
#include "ui/keys.h"
#include "ui_screen.h"

/* A status message ("refresh every 1 s") stands in for the key hints
 * this long. */
#define UI_MSG_SECONDS 4.0
/* news (an event, a run's end) is drawn at once, but not more often */
#define UI_URGENT_MIN_S 0.1

struct ui_live {
	struct model *m;
	const struct ui_config *cfg;
	struct ui_screen scr;
	unsigned screen;             /* UI_SCREEN_LIVE or UI_SCREEN_VIEW: its keys */
	WINDOW *win[UI_PANEL_COUNT];
	WINDOW *help_win;
	struct layout lay;
	int cols, rows, disk_rows;
	unsigned hidden;
	bool curves_view, help, paused;
	int focus;
	double refresh;
	bool asking_stop;            /* "stop the benchmark? y/n" */
	bool quit_when_done;         /* q + y: quit once the benchmark has exited */
	int out_back;                /* output pane: lines scrolled back */
	bool ev_selecting;           /* events pane: a line is selected (up/down with the focus) */
	uint64_t ev_sel, ev_top;     /* its key (session index of its first event), the top line's */
	int metric_idx;
	struct frame v;
	struct curve_set cs;
	bool have_cs;
	char metric[RP_NAME_LEN];
	char cs_msg[128];
	int sigints_seen;
	unsigned marks;
	bool ctx_partitions;         /* context panel: partitions too (p) */
	bool ctx_wanted;             /* what the model was last told (model_want_context) */
	bool marking;                /* m: typing a mark's text, Enter puts it */
	char mark_text[80];
	struct disk_filter disks;    /* --disks, then f: the disks listed (v.disk_filter) */
	bool filtering;              /* f: typing a disk filter, Enter applies it */
	char filter_text[128];
	char msg_seen[512];          /* scr.msg as last seen, and since when: */
	double msg_t;                /* a message gives the hints back after UI_MSG_SECONDS */
	uint64_t gen_seen;           /* the model's gen at the last copy */
};


#endif
