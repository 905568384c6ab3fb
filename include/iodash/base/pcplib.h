/* pcplib: libpcp and libpcp-import, loaded when first needed (--host,
 * export --pcp), not linked: a session that needs neither never maps them
 * and the dozen libraries they bring (TLS, SASL, systemd ...).  Only the
 * calls iodash makes.  (Publishing mmv.iodash.* needs neither: publish.c
 * writes the MMV file itself.) */
#ifndef IODASH_PCPLIB_H
#define IODASH_PCPLIB_H

#include <stddef.h>
#include <pcp/pmapi.h>
#include <pcp/import.h>

struct pcplib {
	int (*pmNewContext)(int, const char *);
	int (*pmUseContext)(int);
	int (*pmReconnectContext)(int);
	int (*pmDestroyContext)(int);
	int (*pmLookupName)(int, const char **, pmID *);
	int (*pmGetChildren)(const char *, char ***);
	int (*pmLookupDesc)(pmID, pmDesc *);
	int (*pmFetch)(int, pmID *, pmResult **);
	void (*pmFreeResult)(pmResult *);
	int (*pmExtractValue)(int, const pmValue *, int, pmAtomValue *, int);
	int (*pmConvScale)(int, const pmAtomValue *, const pmUnits *, pmAtomValue *, const pmUnits *);
	int (*pmNameInDom)(pmInDom, int, char **);
	char *(*pmErrStr_r)(int, char *, int);
	char *(*pmGetConfig)(const char *);
	int (*pmGetArchiveLabel)(pmLogLabel *);
	int (*pmSetMode)(int, const struct timeval *, int);
	/* libpcp-import: NULL unless loaded with PCPLIB_IMPORT */
	int (*pmiStart)(const char *, int);
	int (*pmiEnd)(void);
	int (*pmiSetHostname)(const char *);
	int (*pmiSetTimezone)(const char *);
	int (*pmiAddMetric)(const char *, pmID, int, pmInDom, int, pmUnits);
	int (*pmiAddInstance)(pmInDom, const char *, int);
	int (*pmiPutValue)(const char *, const char *, const char *);
	int (*pmiWrite)(int, int);
	int (*pmiPutMark)(void);
	int (*pmiPutLabel)(unsigned int, unsigned int, unsigned int, const char *, const char *);
	char *(*pmiErrStr_r)(int, char *, int);
	pmID (*pmiID)(int, int, int);
	pmInDom (*pmiInDom)(int, int);
};

/* What to load besides libpcp itself. */
enum { PCPLIB_IMPORT = 1 };

/* Load libpcp (and the libraries `extra` names) once; from the main
 * thread, before the sampler starts.  0 with *out, or -ENOENT with err
 * naming the library and the package to install. */
int pcplib_load(int extra, const struct pcplib **out, char *err, size_t errlen);

#endif
