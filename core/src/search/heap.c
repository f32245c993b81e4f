/* heap.c - the open list's entry array: allocation and growth (the hot operations are inline, in
 * heap_internal.h). */
#include "search/heap_internal.h"

size_t pf__open_bytes(uint32_t cap) { return ((size_t)cap + PF__HEAP_PAD) * sizeof(pf__hentry); }

int pf__open_resize(pf__open *o, const pf_allocator *a, uint32_t cap)
{
    if (cap < o->size) return 0;
    pf__hentry *nh = pf__alloc(a, pf__open_bytes(cap), 64);
    if (!nh) return 0;
    if (o->heap) {
        memcpy(nh + PF__HEAP_PAD, o->heap, (size_t)o->size * sizeof(pf__hentry));
        pf__free(a, o->heap - PF__HEAP_PAD, pf__open_bytes(o->cap));
    }
    o->heap = nh + PF__HEAP_PAD;
    o->cap = cap;
    return 1;
}

void pf__open_free(pf__open *o, const pf_allocator *a)
{
    if (o->heap) pf__free(a, o->heap - PF__HEAP_PAD, pf__open_bytes(o->cap));
    o->heap = NULL;
    o->cap = o->size = 0;
}

int pf__hold_park(pf__open *o, pf__hold *hd) { return pf__hold_flush(o, hd); }
