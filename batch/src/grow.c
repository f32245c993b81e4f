/* grow.c - the one growth helper of the batch's tables: every part's arrays grow through it. */
#include <string.h>
#include "batch_internal.h"

/* Grows the array whose pointer is at `arrp` (elements of `elem` bytes) to hold at least `need`;
 * 0 on out-of-memory (the old array stays). The pointer is read and written with memcpy so one
 * helper serves every element type without type-punned pointer-to-pointer casts. */
int pf__batch_grow(pf_batch *b, void *arrp, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return 1;
    uint64_t ncap = *cap ? (uint64_t)*cap : 64u;
    while (ncap < need) ncap *= 2u;
    if (ncap > UINT32_MAX) return 0;
    void *n = pf__alloc(&b->alloc, (size_t)ncap * elem, 64);
    if (!n) return 0;
    void *old;
    memcpy(&old, arrp, sizeof old);
    if (old) {
        memcpy(n, old, (size_t)*cap * elem);
        pf__free(&b->alloc, old, (size_t)*cap * elem);
    }
    memcpy(arrp, &n, sizeof n);
    *cap = (uint32_t)ncap;
    return 1;
}
