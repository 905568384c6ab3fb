/* knobs: kernel tunables under /proc/sys, as `sweep --sysctl` and `run
 * --sysctl` set them, and the journal that puts them back.
 *
 * A key is written as sysctl(8) writes it ("vm.dirty_ratio") or as its
 * path under /proc/sys ("vm/dirty_ratio").  Values are written as given,
 * except that a number with a K/M/G suffix ("64M") is written in bytes, as
 * the kernel takes no suffix.  Every write is read back: a value the kernel
 * refused or changed is an error that names the key and both values.
 *
 * The kernel pairs vm.dirty_bytes with vm.dirty_ratio and
 * vm.dirty_background_bytes with vm.dirty_background_ratio: writing one
 * zeroes its twin.  Changes say so (the twin's old and new value), and
 * the journal saves and restores both.
 *
 * Journal: before the first change, the original values of every key (and
 * twin) go to a small file, held under flock(2) while the sweep lives:
 * /var/lib/iodash/knobs.journal, or $IODASH_KNOBS_JOURNAL.  The sweep puts
 * the originals back and removes it when it ends, however it ends (last
 * run, failed run, Ctrl-C, SIGTERM, SIGHUP).  After a kill -9, a crash or
 * a reboot the file stays, unlocked: the next iodash says which knobs are
 * still changed, and `iodash restore` puts them back.
 *
 * Core code: returns 0 or -errno and fills a message; never prints. */
#ifndef IODASH_KNOBS_H
#define IODASH_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define KNOB_KEY_LEN 96
#define KNOB_VAL_LEN 128
#define KNOBS_MAX 40

struct knob {
	char key[KNOB_KEY_LEN];       /* "vm.dirty_ratio" */
	char value[KNOB_VAL_LEN];     /* as the kernel shows it (tabs and newlines as spaces) */
};

struct knob_list {
	struct knob v[KNOBS_MAX];
	int n;
};

/* One value that moved: a key iodash wrote, or its twin that the kernel
 * zeroed, or a knob someone else changed. */
struct knob_change {
	char key[KNOB_KEY_LEN];
	char old_value[KNOB_VAL_LEN];
	char new_value[KNOB_VAL_LEN];
};

/* Tests point the module at a directory laid out like /proc/sys; NULL
 * puts it back to /proc/sys. */
void knobs_set_root(const char *dir);

/* "vm.dirty_ratio=10" -> key "vm.dirty_ratio", value "10".  The key in
 * dotted form whichever form was given.  0 or -EINVAL with err. */
int knobs_parse_spec(const char *spec, struct knob *out, char *err, size_t errlen);
/* The file of a key ("/proc/sys/vm/dirty_ratio"); -EINVAL for a key that
 * is not a plain name under /proc/sys (no "..", no leading '/'). */
int knobs_key_path(const char *key, char *path, size_t len);
/* The key the kernel zeroes when key is written, or NULL. */
const char *knobs_twin(const char *key);
/* The value to write: "64M" -> "67108864"; anything else unchanged. */
void knobs_normalize_value(const char *in, char *out, size_t len);

/* Read a key's value (whitespace runs as one space, trimmed). */
int knobs_read(const char *key, char *val, size_t len, char *err, size_t errlen);
/* Can this key be set here?  -ENOENT (no such knob), -EACCES (needs
 * root), with err saying which and what to do. */
int knobs_check_writable(const char *key, char *err, size_t errlen);

/* Write every knob of want in order and read each back.  chg gets what
 * moved (keys and twins, old and new, as the kernel shows them; up to
 * maxchg).  0, or -errno with err naming the key: "vm.dirty_ratio=150:
 * the kernel refused it (Invalid argument)" or "...: the kernel shows 100". */
int knobs_apply(const struct knob_list *want, struct knob_change *chg, int maxchg, int *nchg,
		char *err, size_t errlen);
/* Current values of the keys of `keys` and their twins, in that order. */
int knobs_read_all(const struct knob_list *keys, struct knob_list *out, char *err, size_t errlen);
/* "vm.dirty_bytes=134217728 vm.dirty_ratio=0": one line for events. */
void knobs_format_list(const struct knob_list *l, char *buf, size_t len);

/* Remember a value iodash itself wrote, so that the watcher of snapshots
 * tells iodash's changes from anyone else's.  Thread-safe. */
void knobs_note_own_write(const char *key, const char *value);
/* Did iodash write this value to this key (the last value it wrote)? */
bool knobs_is_own_value(const char *key, const char *value);

/* The vm.dirty_* knobs that differ between two snapshots (both must have
 * SNAP_HAVE_KNOBS), as changes; a change to the value iodash itself last
 * wrote is left out (and forgotten, so the same value set again by
 * someone else is reported).  Returns how many were put in out. */
struct snapshot;
int knobs_snapshot_changes(const struct snapshot *prev, const struct snapshot *cur,
			   struct knob_change *out, int max);

/* ---- journal ---- */

struct knobs_journal {
	char path[256];
	int fd;                       /* open and flock'ed while active */
	bool active;
	struct knob_list orig;        /* keys and twins, as found at start */
};

/* $IODASH_KNOBS_JOURNAL or /var/lib/iodash/knobs.journal. */
const char *knobs_journal_path(void);
/* Save the current values of keys (and twins) before any change, and hold
 * the journal.  Refuses (-EBUSY) while another iodash holds one or a
 * killed one left its journal (err: run iodash restore). */
int knobs_journal_begin(struct knobs_journal *j, const struct knob_list *keys,
			char *err, size_t errlen);
/* Put the originals back (a *_bytes and *_ratio pair through the member that
 * was in use), read them back, remove the journal.  chg gets what moved.
 * Safe to call twice.  0 or -errno with err naming what stayed changed. */
int knobs_journal_restore(struct knobs_journal *j, struct knob_change *chg, int maxchg,
			  int *nchg, char *err, size_t errlen);

enum knobs_journal_state {
	KJ_NONE,        /* no journal */
	KJ_LIVE,        /* a running iodash holds it (pid in *pid) */
	KJ_CLEAN,       /* left behind, but every knob is back at its original */
	KJ_CHANGED,     /* left behind with knobs still changed (msg lists them) */
};
/* What a journal left on this machine says.  msg: "vm.dirty_bytes is
 * 134217728 (was 0), ...".  A negative errno when it cannot be read. */
int knobs_journal_check(enum knobs_journal_state *state, pid_t *pid, char *msg, size_t len);
/* `iodash restore`: put back what a left-behind journal saved and remove
 * it.  msg says what was done.  -EBUSY when a live iodash holds it. */
int knobs_journal_recover(struct knob_change *chg, int maxchg, int *nchg, char *msg, size_t len);

#endif
