/* The PCP lists are made from the schemas, not kept beside them: the
 * counters the --host reader asks pmcd for are snapshot.h's vmstat items,
 * what publish puts in its MMV file and what export --pcp writes are the
 * sample schema's rows with a PCP name, each at its item, plus only their
 * own metrics of no row (bench.*, iodash.disk.*).  A row added to a
 * schema and missing from a list, or a list's own metric added where a
 * row belongs, fails here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "iodash/session/publish.h"
#include "iodash/results/export_pcp.h"
#include "iodash/sample/sample_schema.h"
#include "iodash/sample/snapshot.h"
#include "../../src/probe/pcp.h"

#define MAX_METRICS 256

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* mem.vmstat.* of the --host reader: one a SNAP_VMSTAT_ITEMS row, in its order. */
static void test_probe_pcp_vmstat(void **state)
{
	char want[128];
	int nvm = 0, n = 0;

	(void)state;
	for (const char *name; (name = probe_pcp_metric_name(n)); n++) {
		if (!starts_with(name, "mem.vmstat."))
			continue;
		if (nvm >= snap_vmstat_nitems)
			fail_msg("pmcd is asked for %s, which is no vmstat item of snapshot.h", name);
		snprintf(want, sizeof(want), "mem.vmstat.%s", snap_vmstat_items[nvm].key);
		if (strcmp(name, want))
			fail_msg("vmstat metric %d of the --host reader is %s, the snapshot's item %s", nvm, name, want);
		nvm++;
	}
	assert_true(n > 0);
	if (nvm != snap_vmstat_nitems)
		fail_msg("the --host reader asks for %d vmstat counters, snapshot.h has %d", nvm, snap_vmstat_nitems);
}

/* Which list a schema row is in: its name there and its item. */
typedef const char *(*pcp_name_of)(const struct sample_col *c, unsigned *item);

static const char *mmv_name_of(const struct sample_col *c, unsigned *item)
{
	*item = c->pcp.mmv_item;
	return c->pcp.mmv_name;
}

static const char *archive_name_of(const struct sample_col *c, unsigned *item)
{
	*item = c->pcp.archive_item;
	return c->pcp.archive_name;
}

/* names/items (n of them) are the schema's rows that name_of names, each
 * at its item, and others only with the prefix own (the list's own
 * metrics); no item twice.  what: the list, for the messages. */
static void check_list(const char *what, const char **names, const unsigned *items, int n,
		       pcp_name_of name_of, const char *own)
{
	int nschema = 0, nown = 0;

	assert_in_range(n, 1, MAX_METRICS);
	for (int i = 0; i < SF_N; i++) {
		unsigned item;
		const char *name = name_of(&sample_cols[i], &item);
		int found = -1;
		if (!name)
			continue;
		nschema++;
		for (int k = 0; k < n; k++)
			if (!strcmp(names[k], name))
				found = k;
		if (found < 0)
			fail_msg("%s: the schema's row %s (%s) is not in it", what, sample_cols[i].name, name);
		if (items[found] != item)
			fail_msg("%s: %s has item %u, its schema row says %u", what, name, items[found], item);
	}
	for (int k = 0; k < n; k++) {
		bool in_schema = false;
		for (int i = 0; i < SF_N; i++) {
			unsigned item;
			const char *name = name_of(&sample_cols[i], &item);
			in_schema |= name && !strcmp(name, names[k]);
		}
		if (!in_schema && !starts_with(names[k], own))
			fail_msg("%s: %s is in it and in no schema row", what, names[k]);
		nown += !in_schema;
		for (int j = 0; j < k; j++)
			if (items[j] == items[k])
				fail_msg("%s: item %u twice (%s, %s)", what, items[k], names[j], names[k]);
	}
	if (n != nschema + nown)
		fail_msg("%s: %d metrics, the schema's %d and %d of its own", what, n, nschema, nown);
}

static void test_publish_list(void **state)
{
	const char *names[MAX_METRICS];
	unsigned items[MAX_METRICS];
	int n = publish_metrics(names, items, MAX_METRICS);

	(void)state;
	check_list("publish (mmv.iodash.PID.*)", names, items, n, mmv_name_of, "bench.");
	/* laid out in item order, from 1: the MMV file's metric k is item k + 1 */
	for (int k = 0; k < n; k++)
		if (items[k] != (unsigned)k + 1)
			fail_msg("publish: metric %d (%s) has item %u", k, names[k], items[k]);
}

static void test_export_pcp_list(void **state)
{
	const char *names[MAX_METRICS];
	unsigned items[MAX_METRICS];
	int n = recording_export_pcp_metrics(names, items, MAX_METRICS);

	(void)state;
	check_list("export --pcp (iodash.*)", names, items, n, archive_name_of, "iodash.disk.");
}

/* What the lists take from a row: a name under iodash. in an archive,
 * a help text, a type they can put. */
static void test_schema_pcp_rows(void **state)
{
	(void)state;
	for (int i = 0; i < SF_N; i++) {
		const struct sample_col *c = &sample_cols[i];
		if (!c->pcp.mmv_name && !c->pcp.archive_name)
			continue;
		if (c->pcp.archive_name && !starts_with(c->pcp.archive_name, "iodash."))
			fail_msg("row %s: archive name %s not under iodash.", c->name, c->pcp.archive_name);
		if (c->pcp.mmv_name && (!c->pcp.help || !c->pcp.help[0] || !c->pcp.mmv_item))
			fail_msg("row %s: published without a help text or an item (from 1)", c->name);
		if (c->pcp.sem != SCP_INSTANT && c->pcp.sem != SCP_COUNTER)
			fail_msg("row %s: no PCP semantics", c->name);
		switch (c->type) {
		case SCT_U64: case SCT_U32: case SCT_INT: case SCT_SECS: case SCT_DOUBLE: case SCT_ZONE:
			break;
		case SCT_TIME:          /* the archive's clock (iodash.time): export --pcp puts doubles */
			if (!c->pcp.mmv_name)
				break;
			/* fall through */
		default:
			fail_msg("row %s: a type PCP's lists do not put", c->name);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_pcp_vmstat),
		cmocka_unit_test(test_publish_list),
		cmocka_unit_test(test_export_pcp_list),
		cmocka_unit_test(test_schema_pcp_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
