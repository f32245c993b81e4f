/* fsize_internal.h - the sized move rule under a movement filter, remembered per context
 * (fsize.c; never installed). */
#ifndef PF_FSIZE_INTERNAL_H
#define PF_FSIZE_INTERNAL_H

#include "search/ctx_internal.h"

typedef struct pf__fsize pf__fsize;

/* The context's memo for units of side `size` under filter f's classes, exact for the map's
 * current version (pf__grid_view.fmemo); NULL in a static context or when out of memory (the rule
 * then reads each block). */
uint8_t *pf__fsize_memo(pf_ctx *c, const pf_move_filter *f, uint8_t size);
size_t   pf__fsize_bytes(const pf_ctx *c);

#endif
