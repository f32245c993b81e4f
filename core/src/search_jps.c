/* search_jps.c - jump point search. Not implemented yet: every request falls back to A* and the
 * search reports PF_FALLBACK, so callers always get a correct (optimal) answer. */
#include "ctx_internal.h"

pf_status pf__jps_begin(pf_ctx *c);
pf_status pf__jps_step(pf_ctx *c, uint32_t budget);
uint32_t pf__path_next_back(const pf_ctx *c, uint32_t idx);

pf_status pf__jps_begin(pf_ctx *c)
{
    (void)c;
    return PF_UNSUPPORTED;
}

pf_status pf__jps_step(pf_ctx *c, uint32_t budget)
{
    (void)c;
    (void)budget;
    return PF_UNSUPPORTED;
}

uint32_t pf__path_next_back(const pf_ctx *c, uint32_t idx)
{
    (void)c;
    return idx;
}
