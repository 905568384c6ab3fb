/* pcplib: see pcplib.h.  dlopen by soname (the Debian runtime packages
 * libpcp3 and libpcp-import1), dlsym of each call named in
 * the library's table; a missing symbol fails that library's load. */
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include "iodash/base/pcplib.h"

struct pcplib_sym {
	const char *name;
	size_t off;                 /* of its pointer in struct pcplib */
};
#define SYM(f) { #f, offsetof(struct pcplib, f) }

static const struct pcplib_sym pcp_syms[] = {
	SYM(pmNewContext), SYM(pmUseContext), SYM(pmReconnectContext), SYM(pmDestroyContext),
	SYM(pmLookupName), SYM(pmGetChildren), SYM(pmLookupDesc), SYM(pmFetch), SYM(pmFreeResult), SYM(pmExtractValue),
	SYM(pmConvScale), SYM(pmNameInDom), SYM(pmErrStr_r), SYM(pmGetConfig), SYM(pmGetArchiveLabel),
	SYM(pmSetMode),
};
static const struct pcplib_sym import_syms[] = {
	SYM(pmiStart), SYM(pmiEnd), SYM(pmiSetHostname), SYM(pmiSetTimezone), SYM(pmiAddMetric),
	SYM(pmiAddInstance), SYM(pmiPutValue), SYM(pmiWrite), SYM(pmiPutMark), SYM(pmiPutLabel),
	SYM(pmiErrStr_r), SYM(pmiID), SYM(pmiInDom),
};

/* One library of the set: its soname, the Debian package that has it, its
 * calls, and whether it is loaded. */
static struct pcplib_lib {
	const char *soname, *package;
	const struct pcplib_sym *syms;
	size_t nsyms;
	int global;                 /* the others resolve libpcp's symbols through it */
	int loaded;
} pcplib_libs[] = {
	{ "libpcp.so.3", "libpcp3", pcp_syms, sizeof pcp_syms / sizeof pcp_syms[0], RTLD_GLOBAL, 0 },
	{ "libpcp_import.so.1", "libpcp-import1", import_syms, sizeof import_syms / sizeof import_syms[0], 0, 0 },
};

static struct pcplib pcplib_fns;

static int pcplib_open(struct pcplib_lib *l, char *err, size_t errlen)
{
	void *h;

	if (l->loaded)
		return 0;
	if (!(h = dlopen(l->soname, RTLD_NOW | l->global))) {
		snprintf(err, errlen, "cannot load %s (%s); install the package %s", l->soname, dlerror(), l->package);
		return -ENOENT;
	}
	for (size_t i = 0; i < l->nsyms; i++) {
		void *f = dlsym(h, l->syms[i].name);
		if (!f) {
			snprintf(err, errlen, "%s has no %s (too old a PCP?)", l->soname, l->syms[i].name);
			return -ENOENT;
		}
		*(void **)((char *)&pcplib_fns + l->syms[i].off) = f;
	}
	l->loaded = 1;
	return 0;
}

int pcplib_load(int extra, const struct pcplib **out, char *err, size_t errlen)
{
	int rc;

	if ((rc = pcplib_open(&pcplib_libs[0], err, errlen)) ||
	    ((extra & PCPLIB_IMPORT) && (rc = pcplib_open(&pcplib_libs[1], err, errlen))))
		return rc;
	*out = &pcplib_fns;
	return 0;
}
