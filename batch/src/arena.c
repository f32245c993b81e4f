/* arena.c - per-worker bump allocator for paths; rewound once per frame. */
#include <string.h>
#include "batch_internal.h"

#define HDR ((sizeof(pf__arena_block) + 63u) & ~(size_t)63u)

static pf__arena_block *new_block(pf__arena *a, size_t bytes)
{
    pf__arena_block *blk = pf__alloc(&a->alloc, HDR + bytes, 64);
    if (!blk) return NULL;
    blk->prev = NULL;
    blk->size = bytes;
    blk->used = 0;
    return blk;
}

int pf__arena_init(pf__arena *a, const pf_allocator *alloc, size_t bytes)
{
    a->alloc = *alloc;
    a->head = new_block(a, bytes);
    a->total = a->head ? bytes : 0;
    return a->head != NULL;
}

int pf__arena_reserve(pf__arena *a, size_t bytes, int prefault)
{
    pf__arena_block *h = a->head;
    if (a->total < bytes) {
        pf__arena_block *nb = new_block(a, bytes - (h && !h->used && !h->prev ? 0 : a->total));
        if (!nb) return 0;
        if (h && !h->used && !h->prev) {
            /* empty: one block of the new size replaces it (the common case, before any frame) */
            pf__free(&a->alloc, h, HDR + h->size);
            a->total = 0;
            h = NULL;
        }
        nb->prev = h;
        a->head = h = nb;
        a->total += nb->size;
    }
    if (prefault && h) memset((char *)h + HDR + h->used, 0, h->size - h->used);
    return 1;
}

void *pf__arena_alloc(pf__arena *a, size_t size, size_t align)
{
    pf__arena_block *h = a->head;
    size_t off = h ? (h->used + align - 1u) & ~(align - 1u) : 0;
    if (!h || off + size > h->size) {
        /* Grows by chaining (rare: only in the first frames, since reset keeps the size reached);
         * the old block stays valid because paths handed out this frame point into it. */
        size_t cur = h ? h->size : 4096u;
        size_t want = cur * 2u > size + align ? cur * 2u : size + align;
        pf__arena_block *nb = new_block(a, want);
        if (!nb) return NULL;
        nb->prev = h;
        a->head = h = nb;
        a->total += want;
        off = 0;
    }
    h->used = off + size;
    return (char *)h + HDR + off;
}

void pf__arena_reset(pf__arena *a)
{
    if (!a->head) return;
    if (a->head->prev) {
        size_t total = a->total;
        pf__arena_free(a);
        a->head = new_block(a, total);
        if (!a->head) a->head = new_block(a, 4096); /* keep a usable arena; later allocs may grow */
        a->total = a->head ? a->head->size : 0;
        return;
    }
    a->head->used = 0;
}

void pf__arena_free(pf__arena *a)
{
    pf__arena_block *h = a->head;
    while (h) {
        pf__arena_block *p = h->prev;
        pf__free(&a->alloc, h, HDR + h->size);
        h = p;
    }
    a->head = NULL;
    a->total = 0;
}
