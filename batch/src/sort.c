/* sort.c - the batch's one sort: indices ordered by the caller's comparison, in place.
 *
 * A heapsort, not qsort: glibc's qsort mallocs a buffer for arrays over 1 KiB, and a batch must not
 * allocate per frame (one in caller memory not at all). Not stable, so every order given to it is
 * total (the callers end on a unique key, seq), and the result is the one any correct sort gives. */
#include "batch_internal.h"

static void sift(uint32_t *v, uint32_t i, uint32_t n, int (*cmp)(const void *, uint32_t, uint32_t),
                 const void *ctx)
{
    for (;;) {
        uint32_t c = 2u * i + 1u;
        if (c >= n) return;
        if (c + 1u < n && cmp(ctx, v[c + 1u], v[c]) > 0) c++;
        if (cmp(ctx, v[c], v[i]) <= 0) return;
        uint32_t t = v[i];
        v[i] = v[c];
        v[c] = t;
        i = c;
    }
}

void pf__sort_idx(uint32_t *v, uint32_t n, int (*cmp)(const void *ctx, uint32_t a, uint32_t b), const void *ctx)
{
    for (uint32_t i = n / 2u; i-- > 0;) sift(v, i, n, cmp, ctx);
    for (uint32_t k = n; k-- > 1u;) {
        uint32_t t = v[0];
        v[0] = v[k];
        v[k] = t;
        sift(v, 0, k, cmp, ctx);
    }
}
