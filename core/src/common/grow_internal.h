/* grow_internal.h - the growable array of core (never installed): one doubling helper through the
 * caller's allocator, for the arrays that grow on demand (component labels, the accelerator's
 * build buffers and query state), so that each does not write its own. The allocator hooks have no
 * realloc and take the size back on free, hence a copy into a fresh block.
 *
 * pf__grow(a, &arr, &cap, need, sizeof *arr, first, zero) grows the array whose pointer is at
 * `arrp` (elements of `elem` bytes, *cap of them) to hold at least `need`: the capacity doubles,
 * from `first` when it is 0; the contents are kept, and with `zero` the new elements are zero
 * (without, the new block's pages are touched only as they are used: a large buffer that doubles
 * does not pay for its empty half). The pointer is read and written with memcpy, so one helper
 * serves every element type without type-punned pointer-to-pointer casts (batch/src/grow.c does the
 * same for the batch's tables). Returns 0, the array as it was, when the capacity would pass
 * UINT32_MAX elements or the allocation fails.
 *
 * Two forms, chosen by measurement: pf__grow tests the capacity inline and calls the growth as a
 * cold function (a call for every test cost the accelerator's queries 7% more instructions; the
 * cold mark, 2.6% fewer than a plain call); pf__grow_slow is the whole thing out of line, for
 * callers that test the capacity themselves inside loops (the component labels: there the cold
 * mark made the split search keep its counters in memory, 9% more stores, and the growth inlined
 * cost 1% more instructions).
 */
#ifndef PF_GROW_INTERNAL_H
#define PF_GROW_INTERNAL_H

#include <string.h>
#include "common/pf_internal.h"

#define PF__GROW_SLOW_ATTR PF__NOINLINE_ATTR
#define PF__GROW_COLD_ATTR PF__COLD_ATTR

static PF__GROW_SLOW_ATTR int pf__grow_slow(const pf_allocator *a, void *arrp, uint32_t *cap, uint64_t need,
                                            size_t elem, uint32_t first, int zero)
{
    if (need <= *cap) return 1;
    uint64_t ncap = *cap ? *cap : (first ? first : 1u);
    while (ncap < need) ncap *= 2u;
    if (ncap > UINT32_MAX || ncap > SIZE_MAX / elem) return 0;
    void *old, *fresh = zero ? pf__calloc(a, (size_t)ncap * elem, 64) : pf__alloc(a, (size_t)ncap * elem, 64);
    if (!fresh) return 0;
    memcpy(&old, arrp, sizeof old);
    if (old) {
        memcpy(fresh, old, (size_t)*cap * elem);
        pf__free(a, old, (size_t)*cap * elem);
    }
    memcpy(arrp, &fresh, sizeof fresh);
    *cap = (uint32_t)ncap;
    return 1;
}

static PF__GROW_COLD_ATTR int pf__grow_cold(const pf_allocator *a, void *arrp, uint32_t *cap, uint64_t need,
                                            size_t elem, uint32_t first, int zero)
{
    return pf__grow_slow(a, arrp, cap, need, elem, first, zero);
}

PF__INLINE int pf__grow(const pf_allocator *a, void *arrp, uint32_t *cap, uint64_t need, size_t elem, uint32_t first,
                        int zero)
{
    return PF__LIKELY(need <= *cap) || pf__grow_cold(a, arrp, cap, need, elem, first, zero);
}

#endif
