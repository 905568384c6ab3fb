/* The table reader's vocabulary: what a word of a header, a title or a
 * row's key names.  A statistic ("Hmean", "p99"), x ("clients",
 * "threads"), a metric ("throughput", "MB/s"), a derived column ("diff",
 * "%change"), what is compared (a version, "baseline", "patched", a file
 * system), a benchmark ("tbench").  Kept apart from the rules that use
 * them, so that a word learnt from one more generator is added in one
 * list and every rule sees it. */
#include <ctype.h>
#include <string.h>
#include "tables_internal.h"

/* One of mmtests' statistic names, exactly ("Hmean", "BAmean-99",
 * "Max-1"): a row key that says how the row's figures were computed. */
bool tables_is_stat_word(const char *w)
{
	static const char *const stats[] = { "Hmean", "Amean", "Gmean", "Min", "Max", "Stddev", "CoeffVar",
		"Mean", "Median", "Average", "Avg", "1st-qrtle", "2nd-qrtle", "3rd-qrtle", NULL };
	for (size_t i = 0; stats[i]; i++)
		if (!strcmp(w, stats[i]))
			return true;
	return !strncmp(w, "BAmean-", 7) || !strncmp(w, "BHmean-", 7) || !strncmp(w, "Max-", 4) ||
	       !strncmp(w, "Min-", 4);
}

/* A head that names a derived column ("diff", "%change", "speed-up",
 * "ratio", at either end of it): its cells are computed from others,
 * never runs. */
bool tables_is_derived_head(const char *h)
{
	char low[RP_LABEL_LEN];
	size_t i;
	for (i = 0; h[i] && i < sizeof(low) - 1; i++)
		low[i] = (char)tolower((unsigned char)h[i]);
	low[i] = 0;
	static const char *const words[] = { "diff", "delta", "change", "ratio", "speedup", "speed-up", "gain", NULL };
	for (size_t k = 0; words[k]; k++) {
		size_t n = strlen(words[k]);
		if (!strncmp(low, words[k], n) || (i >= n && !strcmp(low + i - n, words[k])))
			return true;
	}
	/* "%diff", "%change"; not "% >2 sec" (tiobench's share of slow requests) */
	return low[0] == '%' && isalpha((unsigned char)low[1]);
}

/* A statistic or a percentile: "min", "avg", "stddev", "p99", "p99.9",
 * "99th", "Hmean" (a header of them says what each column computes, never
 * what is compared). */
bool tables_is_statistic_head(const char *h)
{
	static const char *const words[] = { "min", "max", "avg", "average", "mean", "median", "stddev", "stdev",
		"std", "dev", "sd", "cov", "minimum", "maximum", "best", "worst", "total", "sum", "result", "results",
		"value", "values", "score", "units", "unit", NULL };
	for (size_t k = 0; words[k]; k++)
		if (!strcasecmp(h, words[k]))
			return true;
	if (tables_is_stat_word(h))
		return true;
	/* "p50", "p99.9", "99th", "99.9th" */
	const char *q = (h[0] == 'p' || h[0] == 'P') ? h + 1 : h;
	if (!isdigit((unsigned char)*q))
		return false;
	while (isdigit((unsigned char)*q) || *q == '.')
		q++;
	return q > h + 1 && (h[0] == 'p' || h[0] == 'P' ? !*q : !strcasecmp(q, "th"));
}

/* Is w[0, n) a commit id ("91caa5ae2424": 7 or more hex digits, both
 * figures and letters)? */
bool tables_is_commit_id(const char *w, size_t n)
{
	size_t digits = 0, letters = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)w[i]))
			return false;
		digits += isdigit((unsigned char)w[i]) != 0;
		letters += isalpha((unsigned char)w[i]) != 0;
	}
	return n >= 7 && digits && letters;
}

/* A bracket in a head that holds a commit id ("tip (91caa5ae2424)"):
 * the head names a tree, not a unit. */
bool tables_has_commit_bracket(const char *h)
{
	const char *b = strchr(h, '(');
	return b && tables_is_commit_id(b + 1, strcspn(b + 1, ")")) && b[1 + strcspn(b + 1, ")")] == ')';
}

/* Header words that name what a column measures, not what is compared. */
bool tables_is_metric_head(const char *h)
{
	const char *sl = strchr(h, '/');
	const char *last = strrchr(h, ' ');
	if ((sl && sl[1] && sl[1] != ' ') || strchr(h, '%') || (strchr(h, '(') && !tables_has_commit_bracket(h)) ||
	    tables_is_statistic_head(h) ||
	    (last && tables_is_statistic_head(last + 1)))
		return true;
	static const char *const words[] = { "count", "size", "time", "write", "rewrite", "read", "reread",
		"reclen", "kb", "iops", "bw", "latency", "loads", "lat", "avglat", "maxlat", "throughput",
		"thr", "rate", "files", "overhead", "app overhead", "seq read", "rand read", "seq write",
		"rand write", "mb/s", "ops", NULL };
	char low[RP_LABEL_LEN];
	size_t i;
	for (i = 0; h[i] && i < sizeof(low) - 1; i++)
		low[i] = (char)tolower((unsigned char)h[i]);
	low[i] = 0;
	for (size_t k = 0; words[k]; k++) {
		if (!strcmp(low, words[k]))
			return true;
		const char *sp = strrchr(low, ' ');
		if (sp && !strcmp(sp + 1, words[k]))
			return true;
	}
	return false;
}

/* A head naming x: "clients", "Num Thr", "# tasks", "threads:". */
bool tables_names_x(const char *h)
{
	if (tables_is_x_word(h))
		return true;
	const char *sp = strrchr(h, ' ');
	return sp && tables_is_x_word(sp + 1);
}

/* Is h, in any case and without its ':', a word that names x? */
bool tables_is_x_word(const char *h)
{
	static const char *const words[] = { "clients", "threads", "thr", "procs", "tasks", "jobs", "numjobs",
		"bs", "reclen", "size", "count", "groups", "workers", "#workers", "# tasks", "nr_task", "block",
		"client", "thread", "proc", "task", "job", "worker", "processes", "process",
		"streams", "stream", "qd", "iodepth", NULL };
	char low[RP_NAME_LEN];
	size_t i, k = 0;
	for (i = 0; h[i] && k < sizeof(low) - 1; i++)
		if (h[i] != ':')
			low[k++] = (char)tolower((unsigned char)h[i]);
	low[k] = 0;
	for (size_t j = 0; words[j]; j++)
		if (!strcmp(low, words[j]))
			return true;
	return false;
}

/* A kernel or version name: "2.5.70-mm2", "6.7.0", "v6.2". */
bool tables_is_version(const char *s)
{
	if (*s == 'v')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	return *s == '.' && isdigit((unsigned char)s[1]) && !strchr(s, ' ');
}

/* A name made fit for a metric: lower case, [a-z0-9_.-] kept, others '_'. */
void tables_make_metric_name(const char *s, char *out, size_t len)
{
	size_t k = 0;
	bool us = false;
	for (; *s && k + 1 < len; s++) {
		unsigned char c = (unsigned char)*s;
		/* a ':' inside a name is the name's ("sched_debug.cfs_rq:/.util_est.avg") */
		if (isalnum(c) || c == '.' || c == '-' || c == '%' || c == '/' || c == '_' ||
		    (c == ':' && k && s[1] && s[1] != ' ')) {
			out[k++] = (char)tolower(c);
			us = false;
		} else if (!us && k) {
			out[k++] = c == ' ' ? ' ' : '_';
			us = true;
		}
	}
	while (k && (out[k - 1] == '_' || out[k - 1] == ' '))
		k--;
	out[k] = 0;
}

/* A title's text made a label: trimmed, a last ':' off, quotes off. */
void tables_trim_title(const char *s, char *out, size_t len)
{
	while (*s == ' ' || *s == '\'' || *s == '*' || *s == '[' || *s == '#')
		s++;
	/* "[1] Performance in KIOPS:": a footnote's number */
	if (isdigit((unsigned char)*s) && s[strspn(s, "0123456789")] == ']')
		s += strspn(s, "0123456789") + 1 + (s[strspn(s, "0123456789") + 1] == ' ');
	/* "---- (5,10) - default": the heading after the rule's dashes */
	size_t d = strspn(s, "-");
	if (d >= 3 && s[d] == ' ')
		s += d + strspn(s + d, " ");
	/* "- 10 runs": a list's bullet */
	if (d == 1 && s[1] == ' ')
		s += 1 + strspn(s + 1, " ");
	size_t n = strlen(s);
	while (n && strchr(" :,'*]", s[n - 1]))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(out, s, n);
	out[n] = 0;
}

/* Filler that says nothing of what is compared ("Before this change:",
 * "Results after applying patchset:") is left out of a title's label. */
void tables_make_title_label(const char *s, char *out, size_t len)
{
	char raw[RP_LABEL_LEN * 2];
	tables_trim_title(s, raw, sizeof(raw));
	static const char *const filler[] = { "this", "change", "changes", "results", "result", "the", "of", NULL };
	size_t k = 0;
	int kept = 0, words = 0;
	for (const char *w = raw; *w;) {
		while (*w == ' ')
			w++;
		if (!*w)
			break;
		size_t n = strcspn(w, " ");
		words++;
		bool fill = false;
		for (size_t f = 0; filler[f]; f++)
			fill = fill || (strlen(filler[f]) == n && !strncasecmp(w, filler[f], n));
		if (!fill && k + n + 2 < len) {
			if (k)
				out[k++] = ' ';
			memcpy(out + k, w, n);
			k += n;
			kept++;
		}
		w += n;
	}
	out[k] = 0;
	if (!kept || words > 6)
		pp_strlcpy(out, raw, len);
}

/* A word that counts repetitions: "Run", "run", "iteration", "pass", "trial". */
bool tables_is_run_word(const char *w)
{
	static const char *const words[] = { "run", "iteration", "iter", "pass", "trial", "round", NULL };
	for (size_t i = 0; words[i]; i++)
		if (!strcasecmp(w, words[i]))
			return true;
	return false;
}

/* A head that counts repetitions: "run1", "Run 2", "#3", "iter4". */
bool tables_is_run_head(const char *h)
{
	if (h[0] == '#')
		return h[1] && strspn(h + 1, "0123456789") == strlen(h + 1);
	char w[16];
	size_t n = strcspn(h, "0123456789 ");
	if (!n || n >= sizeof(w))
		return false;
	memcpy(w, h, n);
	w[n] = 0;
	const char *d = h + n + (h[n] == ' ');
	return tables_is_run_word(w) && *d && strspn(d, "0123456789") == strlen(d);
}

/* A word that names what is compared: a kernel version, "baseline",
 * "patched", "before"..., a file system or an I/O scheduler. */
bool tables_is_label_word(const char *w)
{
	static const char *const words[] = { "baseline", "base", "patched", "vanilla", "before", "after", "unpatched",
		"mainline", "upstream", "tip", "default", "old", "new", "original", "modified",
		/* what an I/O benchmark compares: file systems, I/O schedulers */
		"ext2", "ext3", "ext4", "xfs", "btrfs", "reiserfs", "jfs", "f2fs", "bcachefs", "zfs", "tmpfs", "nilfs2",
		"cfq", "bfq", "noop", "deadline", "anticipatory", "mq-deadline", "kyber", NULL };
	bool ok = tables_is_version(w);
	for (size_t q = 0; words[q] && !ok; q++)
		ok = !strcasecmp(w, words[q]);
	return ok;
}

/* Does a title name what is measured ("Throughput (MB/s)", "Read
 * latency", "Average time")?  Then it is no label, whatever the rows. */
bool tables_title_names_metric(const char *title)
{
	static const char *const words[] = { "throughput", "latency", "latencies", "bandwidth", "iops", "ops/s",
		"ops/sec", "mb/s", "mb/sec", "kb/s", "kb/sec", "gb/s", "mib/s", "kib/s", "transactions/sec", "tps",
		"files/sec", "runtime", "elapsed", "time", "rate", "usec", "msec", "(ms)", "(us)", "(s)", "(sec)",
		"seconds", "cpu", NULL };
	if (tables_title_names_label(title))
		return false;
	char w[64];
	for (const char *q = title; tables_next_title_word(&q, w, sizeof(w), ":,");) {
		for (size_t i = 0; words[i]; i++)
			if (!strcasecmp(w, words[i]))
				return true;
		if (tables_is_statistic_head(w))
			return true;
	}
	return false;
}

/* Does a title name what is compared ("baseline:", "2.6.32 with the
 * patch")?  Some word of it is a version or a label word; "Initial
 * writers", "Read throughput" name what is measured. */
bool tables_title_names_label(const char *title)
{
	char w[64];
	for (const char *q = title; tables_next_title_word(&q, w, sizeof(w), ":,()");)
		if (tables_is_label_word(w))
			return true;
	return false;
}

/* Is w a benchmark's name ("tbench", "dbench4", "netperf-udp": the name
 * and its variant)?  Its metric name into out. */
bool tables_is_bench_word(const char *w, char *out, size_t len)
{
	static const char *const bench[] = { "dbench", "tbench", "netperf", "sockperf", "hackbench", "schbench",
		"pgbench", "sysbench", "fio", "iozone", "bonnie++", "locktorture", "kernbench", "will-it-scale",
		"specjbb", "ebizzy", "reaim", "fs_mark", "fsmark", "ffsb", "compilebench", "postmark", "unixbench",
		"lmbench", "stress-ng", "aim9", "tiobench", NULL };
	for (size_t i = 0; bench[i]; i++) {
		size_t bl = strlen(bench[i]);
		if (!strncasecmp(w, bench[i], bl) &&
		    (!w[bl] || w[bl] == '-' || strspn(w + bl, "0123456789") == strlen(w + bl))) {
			tables_make_metric_name(w, out, len);
			return true;
		}
	}
	return false;
}
