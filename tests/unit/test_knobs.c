/* knobs: keys and values, write + read back, the journal (begin, restore,
 * left behind by a process that died, held by a live one), on a directory
 * laid out like /proc/sys.  The kernel's own behaviour (twins zeroed,
 * values refused) is tested on the real /proc/sys in tests/e2e/test_knobs.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "iodash/probe/knobs.h"

static char root[128], journal[192];

static void put(const char *rel, const char *val)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(val, f);
	fclose(f);
}

static const char *get(const char *key)
{
	static char v[KNOB_VAL_LEN];
	char err[256];
	assert_int_equal(knobs_read(key, v, sizeof(v), err, sizeof(err)), 0);
	return v;
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/iodash-knobs-unit.%d", (int)getpid());
	snprintf(journal, sizeof(journal), "%s/state/knobs.journal", root);
	mkdir(root, 0755);
	char p[256];
	snprintf(p, sizeof(p), "%s/vm", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/kernel", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/kernel/refuses", root);
	mkdir(p, 0755);      /* a directory: open for writing fails */
	put("vm/dirty_expire_centisecs", "3000\n");
	put("vm/swappiness", "60\n");
	put("kernel/ports", "32768\t60999\n");
	knobs_set_root(root);
	setenv("IODASH_KNOBS_JOURNAL", journal, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[300];
	(void)state;
	knobs_set_root(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void test_spec_and_values(void **state)
{
	struct knob k;
	char err[256], path[256], v[64];

	(void)state;
	assert_int_equal(knobs_parse_spec("vm.dirty_ratio=10", &k, err, sizeof(err)), 0);
	assert_string_equal(k.key, "vm.dirty_ratio");
	assert_string_equal(k.value, "10");
	assert_int_equal(knobs_parse_spec("vm/dirty_bytes=64M", &k, err, sizeof(err)), 0);
	assert_string_equal(k.key, "vm.dirty_bytes");
	assert_int_equal(knobs_parse_spec("vm.dirty_ratio", &k, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "expected KEY=VALUE"));
	assert_int_equal(knobs_parse_spec("../etc/passwd=1", &k, err, sizeof(err)), -EINVAL);
	assert_int_equal(knobs_parse_spec("/vm/x=1", &k, err, sizeof(err)), -EINVAL);
	assert_int_equal(knobs_key_path("vm.dirty_ratio", path, sizeof(path)), 0);
	snprintf(v, sizeof(v), "%s/vm/dirty_ratio", root);
	assert_string_equal(path, v);
	assert_string_equal(knobs_twin("vm.dirty_bytes"), "vm.dirty_ratio");
	assert_string_equal(knobs_twin("vm.dirty_background_ratio"), "vm.dirty_background_bytes");
	assert_null(knobs_twin("vm.swappiness"));
	knobs_normalize_value("64M", v, sizeof(v));
	assert_string_equal(v, "67108864");
	knobs_normalize_value("10", v, sizeof(v));
	assert_string_equal(v, "10");
	knobs_normalize_value("4096 16384", v, sizeof(v));
	assert_string_equal(v, "4096 16384");
	/* tabs and newline as the kernel prints them: one space */
	assert_string_equal(get("kernel.ports"), "32768 60999");
	assert_int_equal(knobs_check_writable("vm.nope", err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no such kernel knob"));
}

static void test_apply_reads_back(void **state)
{
	struct knob_list want = { .n = 2 };
	struct knob_change chg[8];
	char err[256];
	int n;

	(void)state;
	snprintf(want.v[0].key, KNOB_KEY_LEN, "vm.swappiness");
	snprintf(want.v[0].value, KNOB_VAL_LEN, "10");
	snprintf(want.v[1].key, KNOB_KEY_LEN, "kernel.ports");
	snprintf(want.v[1].value, KNOB_VAL_LEN, "1024	2048");
	assert_int_equal(knobs_apply(&want, chg, 8, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_string_equal(chg[0].key, "vm.swappiness");
	assert_string_equal(chg[0].old_value, "60");
	assert_string_equal(chg[0].new_value, "10");
	assert_string_equal(chg[1].new_value, "1024 2048");
	assert_true(knobs_is_own_value("vm.swappiness", "10"));
	assert_false(knobs_is_own_value("vm.swappiness", "11"));
	/* the same again: nothing moved */
	assert_int_equal(knobs_apply(&want, chg, 8, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	/* a key the kernel will not take: said with the key and the value */
	struct knob_list bad = { .n = 1 };
	snprintf(bad.v[0].key, KNOB_KEY_LEN, "kernel.refuses");
	snprintf(bad.v[0].value, KNOB_VAL_LEN, "1");
	assert_true(knobs_apply(&bad, chg, 8, &n, err, sizeof(err)) < 0);
	put("vm/swappiness", "60\n");
	put("kernel/ports", "32768\t60999\n");
}

static void test_journal(void **state)
{
	struct knob_list keys = { .n = 2 }, want = { .n = 2 };
	struct knobs_journal j;
	struct knob_change chg[8];
	enum knobs_journal_state st;
	char err[512], msg[512];
	pid_t pid;
	int n, status;

	(void)state;
	snprintf(keys.v[0].key, KNOB_KEY_LEN, "vm.swappiness");
	snprintf(keys.v[1].key, KNOB_KEY_LEN, "vm.dirty_expire_centisecs");
	want = keys;
	snprintf(want.v[0].value, KNOB_VAL_LEN, "1");
	snprintf(want.v[1].value, KNOB_VAL_LEN, "100");

	/* the sweep's life: originals saved, changes, restored, no journal */
	assert_int_equal(knobs_journal_check(&st, &pid, msg, sizeof(msg)), 0);
	assert_int_equal(st, KJ_NONE);
	assert_int_equal(knobs_journal_begin(&j, &keys, err, sizeof(err)), 0);
	assert_int_equal(access(journal, F_OK), 0);
	assert_int_equal(knobs_apply(&want, chg, 8, &n, err, sizeof(err)), 0);
	/* held by a live process: another one sees it so, and cannot begin */
	pid = fork();
	if (pid == 0) {
		struct knobs_journal j2;
		pid_t p2;
		char e2[512];
		knobs_journal_check(&st, &p2, e2, sizeof(e2));
		_exit(st == KJ_LIVE && p2 == getppid() &&
		      knobs_journal_begin(&j2, &keys, e2, sizeof(e2)) == -EBUSY ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(knobs_journal_restore(&j, chg, 8, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_string_equal(get("vm.swappiness"), "60");
	assert_string_equal(get("vm.dirty_expire_centisecs"), "3000");
	assert_int_equal(access(journal, F_OK), -1);

	/* a process killed after its changes: the journal says so, restore fixes it */
	pid = fork();
	if (pid == 0) {
		struct knobs_journal j3;
		char e3[512];
		if (knobs_journal_begin(&j3, &keys, e3, sizeof(e3)) ||
		    knobs_apply(&want, NULL, 0, NULL, e3, sizeof(e3)))
			_exit(1);
		_exit(0);      /* no restore: as after kill -9 */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(knobs_journal_check(&st, &pid, msg, sizeof(msg)), 0);
	assert_int_equal(st, KJ_CHANGED);
	assert_non_null(strstr(msg, "vm.swappiness is 1 (was 60)"));
	assert_non_null(strstr(msg, "vm.dirty_expire_centisecs is 100 (was 3000)"));
	/* a new sweep will not journal over it */
	assert_int_equal(knobs_journal_begin(&j, &keys, err, sizeof(err)), -EBUSY);
	assert_non_null(strstr(err, "iodash restore"));
	assert_int_equal(knobs_journal_recover(chg, 8, &n, msg, sizeof(msg)), 0);
	assert_int_equal(n, 2);
	assert_string_equal(get("vm.swappiness"), "60");
	assert_int_equal(access(journal, F_OK), -1);
	assert_int_equal(knobs_journal_recover(chg, 8, &n, msg, sizeof(msg)), -ENOENT);
}

/* IODASH_KNOBS_JOURNAL through a symlink: the journal is written where
 * it leads and the link stays a link (it was renamed over); a FIFO there
 * is refused and stays a FIFO. */
static void test_journal_path_kinds(void **state)
{
	struct knob_list keys = { .n = 1 };
	struct knobs_journal j;
	struct knob_change chg[4];
	char err[512], link[300], target[300], fifo[300];
	struct stat st;
	int n;

	(void)state;
	snprintf(keys.v[0].key, KNOB_KEY_LEN, "vm.swappiness");
	snprintf(link, sizeof(link), "%s/journal-link", root);
	snprintf(target, sizeof(target), "%s/journal-target", root);
	snprintf(fifo, sizeof(fifo), "%s/journal-fifo", root);
	assert_int_equal(symlink("journal-target", link), 0);
	setenv("IODASH_KNOBS_JOURNAL", link, 1);
	assert_int_equal(knobs_journal_begin(&j, &keys, err, sizeof(err)), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(target, &st), 0);
	assert_true(S_ISREG(st.st_mode) && st.st_size > 0);
	assert_int_equal(knobs_journal_restore(&j, chg, 4, &n, err, sizeof(err)), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(access(target, F_OK), -1);

	assert_int_equal(mkfifo(fifo, 0600), 0);
	setenv("IODASH_KNOBS_JOURNAL", fifo, 1);
	assert_int_equal(knobs_journal_begin(&j, &keys, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "is not a file"));
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	setenv("IODASH_KNOBS_JOURNAL", journal, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_and_values),
		cmocka_unit_test(test_apply_reads_back),
		cmocka_unit_test(test_journal),
		cmocka_unit_test(test_journal_path_kinds),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
