/* signals: what SIGHUP, SIGINT and SIGTERM asked of the session.  The
 * handlers only set flags (no SA_RESTART: a poll returns EINTR and its
 * caller looks); the front ends, the replay and the commands look at them
 * through these calls, and nothing else names the flags. */
#ifndef IODASH_SIGNALS_H
#define IODASH_SIGNALS_H

#include <stdbool.h>

/* SIGHUP, SIGINT and SIGTERM set the flags; SIGPIPE is ignored (a closed
 * output, a dropped ssh, `| head`, must not kill the session). */
void signals_install(void);
/* view of recordings: SIGINT and SIGHUP only; SIGTERM and SIGPIPE keep
 * their default. */
void signals_install_int_hup(void);

/* SIGHUP came, or a front end saw its terminal hang up: drop the screen,
 * go on headless until the benchmark ends. */
bool signals_hangup(void);
/* The terminal hung up without a SIGHUP (its shell ignores it): as one. */
void signals_note_hangup(void);
/* How many SIGINTs came: a front end compares with the count it saw. */
int signals_interrupts(void);
/* SIGTERM came: stop the benchmark (as a confirmed Ctrl-C) and end. */
bool signals_terminate(void);
/* Any of the three: a watcher with nothing to finish ends. */
bool signals_any(void);

/* A child iodash ran in our terminal (fleet's Enter): the SIGINTs and the
 * SIGTERM it got were its own.  Mark before, forget after. */
struct signals_mark {
	int interrupts;
	bool terminate;
};
void signals_mark(struct signals_mark *mk);
void signals_forget_since(const struct signals_mark *mk);

#endif
