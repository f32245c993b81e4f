/* size_comp_internal.h - components for units larger than one cell (and for movement types),
 * labelled per context for the whole map (size_comp.c; never installed). */
#ifndef PF_SIZE_COMP_INTERNAL_H
#define PF_SIZE_COMP_INTERNAL_H

#include "search/ctx_internal.h"
#include "map/nearest_internal.h"

/* Whether a unit of side `size` (> 1) of the class of padded cell si, or under filter f [opt], can
 * go from si to gi (both open to it; without f, gi of si's class): *same. PF_UNSUPPORTED in a
 * static context (the caller searches instead), PF_OUT_OF_MEMORY. */
pf_status pf__szcomp_same(pf_ctx *c, uint32_t si, uint32_t gi, uint8_t size, const pf_move_filter *f, int *same);
/* A partial query's first half for a unit of side `size` (1 included under a filter f [opt]): the
 * start's component labelled, *reach whether padded gi is in it; if not, the cell of it nearest
 * (gx, gy) by `metric` where the unit stands, ties to the one nearest si (pf__grid_nearest_by):
 * *cell, *dist (*dist < 0 when there is none). PF_UNSUPPORTED in a static context,
 * PF_OUT_OF_MEMORY. */
pf_status pf__szcomp_nearest(pf_ctx *c, uint32_t si, uint32_t gi, uint8_t size, const pf_move_filter *f, int32_t gx,
                             int32_t gy, pf_heur metric, int *reach, uint32_t *cell, double *dist);
size_t    pf__szcomp_bytes(const pf_ctx *c);
/* Makes the labels of unfiltered units of `size` now (pf_batch_reserve_desc.unit_size), not in
 * the first such query: PF_OK, PF_OUT_OF_MEMORY, PF_UNSUPPORTED (a static context). */
pf_status pf__szcomp_reserve(pf_ctx *c, uint8_t size);

#endif
