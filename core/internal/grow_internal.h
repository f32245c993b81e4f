/* grow_internal.h - the library's growable array (never installed): one doubling helper through the
 * caller's allocator, for every array that grows on demand in core and batch (component labels,
 * the accelerator's build buffers and query state, JPS paths and seeds, the generic search's pools,
 * pattern-database stacks, scenarios, GOAP domains, the batch's tables), so that each does not
 * write its own. It lives in core/internal, the one core folder batch sees. The allocator hooks
 * have no realloc and take the size back on free, hence a copy into a fresh block.
 *
 * pf__grow(a, &arr, &cap, need, sizeof *arr, first, zero) grows the array whose pointer is at
 * `arrp` (elements of `elem` bytes, *cap of them) to hold at least `need`: the capacity doubles,
 * from `first` when it is 0, and stops at UINT32_MAX; the contents are kept, and with `zero` the
 * new elements are zero (without, the new block's pages are touched only as they are used: a large
 * buffer that doubles does not pay for its empty half). The pointer is read and written with
 * memcpy, so one helper serves every element type without type-punned pointer-to-pointer casts.
 * Returns 0, the array as it was, when `need` passes UINT32_MAX elements or the allocation fails.
 *
 * pf__grow_all does the same for `count` arrays that share one capacity (structure-of-arrays
 * records), all or none: every new block is allocated before any old one is let go.
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
#include "base_internal.h"

/* port_internal.h (through base_internal.h); `unused` there: not every file that includes this
 * header grows something. */
#define PF__GROW_SLOW_ATTR PF__NOINLINE_ATTR
#define PF__GROW_COLD_ATTR PF__COLD_ATTR

/* Most arrays pf__grow_all grows together (the generic search's path has nine). */
#define PF__GROW_MAX_ARRAYS 16

/* The capacity that holds `need` from `cap`: doubled from `cap` (from `first` when 0), cut to
 * UINT32_MAX when doubling would pass it; 0 when `need` itself does. */
static inline uint64_t pf__grow_cap(uint32_t cap, uint64_t need, uint32_t first)
{
    if (need > UINT32_MAX) return 0;
    uint64_t ncap = cap ? cap : (first ? first : 1u);
    while (ncap < need) ncap *= 2u;
    return ncap > UINT32_MAX ? UINT32_MAX : ncap;
}

static inline int pf__grow_all(const pf_allocator *a, void *const *arrps, const size_t *elems, int count, uint32_t *cap,
                               uint64_t need, uint32_t first, int zero)
{
    if (need <= *cap) return 1;
    uint64_t ncap = pf__grow_cap(*cap, need, first);
    if (!ncap || count > PF__GROW_MAX_ARRAYS) return 0;
    void *fresh[PF__GROW_MAX_ARRAYS];
    for (int i = 0; i < count; i++) {
        size_t bytes = (size_t)ncap * elems[i];
        fresh[i] = ncap > SIZE_MAX / elems[i] ? NULL : zero ? pf__calloc(a, bytes, 64) : pf__alloc(a, bytes, 64);
        if (!fresh[i]) {
            while (i--) pf__free(a, fresh[i], (size_t)ncap * elems[i]);
            return 0;
        }
    }
    for (int i = 0; i < count; i++) {
        void *old;
        memcpy(&old, arrps[i], sizeof old);
        if (old) {
            memcpy(fresh[i], old, (size_t)*cap * elems[i]);
            pf__free(a, old, (size_t)*cap * elems[i]);
        }
        memcpy(arrps[i], &fresh[i], sizeof fresh[i]);
    }
    *cap = (uint32_t)ncap;
    return 1;
}

static PF__GROW_SLOW_ATTR int pf__grow_slow(const pf_allocator *a, void *arrp, uint32_t *cap, uint64_t need,
                                            size_t elem, uint32_t first, int zero)
{
    return pf__grow_all(a, &arrp, &elem, 1, cap, need, first, zero);
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
