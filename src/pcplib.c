/* pcplib: see pcplib.h.  dlopen by soname (the Debian runtime packages
 * libpcp3 and libpcp-mmv1), dlsym of each call; a missing symbol fails the
 * load as a whole. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include "iodash/pcplib.h"

static struct pcplib pcplib_fns;
static int pcplib_have, pcplib_have_mmv;

static int pcplib_sym(void *h, const char *lib, const char *name, void **slot, char *err, size_t errlen)
{
	if (!(*slot = dlsym(h, name))) {
		snprintf(err, errlen, "%s has no %s (too old a PCP?)", lib, name);
		return -ENOENT;
	}
	return 0;
}

#define PCPLIB_SYM(h, lib, f) \
	do { if ((rc = pcplib_sym(h, lib, #f, (void **)&pcplib_fns.f, err, errlen))) return rc; } while (0)

int pcplib_load(int mmv, const struct pcplib **out, char *err, size_t errlen)
{
	void *h;
	int rc;

	if (!pcplib_have) {
		if (!(h = dlopen("libpcp.so.3", RTLD_NOW | RTLD_GLOBAL))) {
			snprintf(err, errlen, "cannot load libpcp.so.3 (%s); install the package libpcp3", dlerror());
			return -ENOENT;
		}
		PCPLIB_SYM(h, "libpcp.so.3", pmNewContext);
		PCPLIB_SYM(h, "libpcp.so.3", pmUseContext);
		PCPLIB_SYM(h, "libpcp.so.3", pmReconnectContext);
		PCPLIB_SYM(h, "libpcp.so.3", pmDestroyContext);
		PCPLIB_SYM(h, "libpcp.so.3", pmLookupName);
		PCPLIB_SYM(h, "libpcp.so.3", pmLookupDesc);
		PCPLIB_SYM(h, "libpcp.so.3", pmFetch);
		PCPLIB_SYM(h, "libpcp.so.3", pmFreeResult);
		PCPLIB_SYM(h, "libpcp.so.3", pmExtractValue);
		PCPLIB_SYM(h, "libpcp.so.3", pmConvScale);
		PCPLIB_SYM(h, "libpcp.so.3", pmNameInDom);
		PCPLIB_SYM(h, "libpcp.so.3", pmErrStr_r);
		PCPLIB_SYM(h, "libpcp.so.3", pmGetConfig);
		pcplib_have = 1;
	}
	if (mmv && !pcplib_have_mmv) {
		if (!(h = dlopen("libpcp_mmv.so.1", RTLD_NOW))) {
			snprintf(err, errlen, "cannot load libpcp_mmv.so.1 (%s); install the package libpcp-mmv1",
				 dlerror());
			return -ENOENT;
		}
		PCPLIB_SYM(h, "libpcp_mmv.so.1", mmv_stats_registry);
		PCPLIB_SYM(h, "libpcp_mmv.so.1", mmv_stats_add_metric);
		PCPLIB_SYM(h, "libpcp_mmv.so.1", mmv_stats_start);
		PCPLIB_SYM(h, "libpcp_mmv.so.1", mmv_stats_free);
		PCPLIB_SYM(h, "libpcp_mmv.so.1", mmv_lookup_value_desc);
		PCPLIB_SYM(h, "libpcp_mmv.so.1", mmv_set_string);
		pcplib_have_mmv = 1;
	}
	*out = &pcplib_fns;
	return 0;
}
