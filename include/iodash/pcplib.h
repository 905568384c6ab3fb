/* pcplib: libpcp and libpcp-mmv, loaded when first needed (--host, or
 * publishing mmv.iodash.*), not linked: a session that needs neither (view,
 * compare, export, --no-publish) never maps them and the dozen libraries
 * they bring (TLS, SASL, systemd ...).  Only the calls iodash makes. */
#ifndef IODASH_PCPLIB_H
#define IODASH_PCPLIB_H

#include <stddef.h>
#include <pcp/pmapi.h>
#include <pcp/mmv_stats.h>

struct pcplib {
	int (*pmNewContext)(int, const char *);
	int (*pmUseContext)(int);
	int (*pmReconnectContext)(int);
	int (*pmDestroyContext)(int);
	int (*pmLookupName)(int, const char **, pmID *);
	int (*pmLookupDesc)(pmID, pmDesc *);
	int (*pmFetch)(int, pmID *, pmResult **);
	void (*pmFreeResult)(pmResult *);
	int (*pmExtractValue)(int, const pmValue *, int, pmAtomValue *, int);
	int (*pmConvScale)(int, const pmAtomValue *, const pmUnits *, pmAtomValue *, const pmUnits *);
	int (*pmNameInDom)(pmInDom, int, char **);
	char *(*pmErrStr_r)(int, char *, int);
	char *(*pmGetConfig)(const char *);
	/* libpcp-mmv: NULL unless loaded with mmv */
	mmv_registry_t *(*mmv_stats_registry)(const char *, int, mmv_stats_flags_t);
	int (*mmv_stats_add_metric)(mmv_registry_t *, const char *, int, mmv_metric_type_t,
				    mmv_metric_sem_t, pmUnits, int, const char *, const char *);
	void *(*mmv_stats_start)(mmv_registry_t *);
	void (*mmv_stats_free)(mmv_registry_t *);
	pmAtomValue *(*mmv_lookup_value_desc)(void *, const char *, const char *);
	void (*mmv_set_string)(void *, pmAtomValue *, const char *, int);
};

/* Load libpcp (and libpcp-mmv when mmv) once; from the main thread, before
 * the sampler starts.  0 with *out, or -ENOENT with err naming the library
 * and the package to install. */
int pcplib_load(int mmv, const struct pcplib **out, char *err, size_t errlen);

#endif
