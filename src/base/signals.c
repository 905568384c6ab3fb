/* signals: the flags SIGHUP, SIGINT and SIGTERM set (signals.h), and their
 * one reader's interface. */
#include <signal.h>
#include <stddef.h>
#include "iodash/base/signals.h"

static volatile sig_atomic_t got_sighup;
static volatile sig_atomic_t got_sigint;     /* counts SIGINTs */
static volatile sig_atomic_t got_sigterm;

static void signals_on_signal(int sig)
{
	if (sig == SIGHUP)
		got_sighup = 1;
	else if (sig == SIGINT)
		got_sigint++;
	else
		got_sigterm = 1;
}

static void signals_catch(int sig)
{
	struct sigaction sa = { .sa_handler = signals_on_signal };

	/* no SA_RESTART: poll() in the front end returns EINTR and looks */
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

void signals_install(void)
{
	signals_catch(SIGHUP);
	signals_catch(SIGINT);
	signals_catch(SIGTERM);
	signal(SIGPIPE, SIG_IGN);
}

void signals_install_int_hup(void)
{
	signals_catch(SIGINT);
	signals_catch(SIGHUP);
}

bool signals_hangup(void) { return got_sighup; }
void signals_note_hangup(void) { got_sighup = 1; }
int signals_interrupts(void) { return got_sigint; }
bool signals_terminate(void) { return got_sigterm; }
bool signals_any(void) { return got_sigint || got_sigterm || got_sighup; }

void signals_mark(struct signals_mark *mk)
{
	mk->interrupts = got_sigint;
	mk->terminate = got_sigterm;
}

void signals_forget_since(const struct signals_mark *mk)
{
	got_sigint = mk->interrupts;
	got_sigterm = mk->terminate;
}
