/* bench/keeper: the process between iodash and a benchmark that holds the
 * benchmark's whole tree and ends it when iodash ends, however iodash ends
 * (keeper.c says how).  Only pty.c uses it. */
#ifndef IODASH_BENCH_KEEPER_H
#define IODASH_BENCH_KEEPER_H

#include <stdint.h>

/* What the keeper tells iodash, one whole record a write (smaller than
 * PIPE_BUF, so a read never sees half of one). */
enum keeper_msg_kind {
	KEEPER_MSG_PID = 1,          /* value: the benchmark's pid */
	KEEPER_MSG_EXIT = 2,         /* value: its wait status; io: its /proc/PID/io */
	KEEPER_MSG_FORK_FAILED = 3,  /* value: fork's errno */
};

struct keeper_msg {
	int32_t kind;
	int32_t value;
	int32_t last;                /* EXIT: no other process is left, the keeper exits now */
	int32_t iolen;
	char io[496];                /* the exited benchmark's counters, read before
				      * its reaping: they hold its reaped children's */
};

/* Commands from iodash on ctl: one byte, a signal number for the
 * benchmark's group.  End of file on ctl (iodash closed it, or iodash is
 * gone): every process of the tree is killed, then the keeper exits. */

/* In the child of fork(): become the keeper (own session, child subreaper),
 * fork the benchmark, which runs start(ctx) (it must not return), and hold
 * its tree.  ctl: the command pipe's read end; msg: the message pipe's
 * write end; pass_fd: a descriptor only the benchmark keeps (closed here
 * once it is forked), -1 none.  Every other descriptor is closed.
 * System calls only: the caller may be a fork of a threaded process.
 * Never returns. */
_Noreturn void keeper_main(int ctl, int msg, int pass_fd, void (*start)(void *ctx), void *ctx);

#endif
