/* arena.c - per-worker bump allocator for paths, rewound once per frame, and the copy of a finished
 * search's path into it (results.c and group.c both take paths this way). */
#include <stdint.h>
#include <string.h>
#include "batch_internal.h"

#define PF__HDR ((sizeof(pf__arena_block) + 63u) & ~(size_t)63u)

/* Every size below may come from a caller (pf_batch_desc.arena_bytes, a path length): each sum and
 * product is checked before it is formed, so a huge value fails the allocation instead of wrapping
 * to a small block recorded as a big one. */
/* A block is lazy memory in small pages: a frame maps only the part its paths fill. Offered as huge
 * pages (as big blocks from the default allocator otherwise are), each first touch of 2 MiB zeroed
 * it whole inside the frame, 0.5-2.5 ms of kernel time: maze-2000-w4's frames with long paths ran
 * 14-22 ms on 2 threads against 6-10 with huge pages off (bench_frame). */
static pf__arena_block *new_block(pf__arena *a, size_t bytes)
{
    if (bytes > SIZE_MAX - PF__HDR) return NULL;
    int lazy;
    pf__arena_block *blk = pf__alloc_lazy(&a->alloc, PF__HDR + bytes, 0, &lazy);
    if (!blk) return NULL;
    blk->lazy = lazy;
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
            pf__free_lazy(&a->alloc, h, PF__HDR + h->size, h->lazy);
            a->total = 0;
            h = NULL;
        }
        nb->prev = h;
        a->head = h = nb;
        a->total += nb->size;
    }
    if (prefault && h) memset((char *)h + PF__HDR + h->used, 0, h->size - h->used);
    return 1;
}

void *pf__arena_alloc(pf__arena *a, size_t size, size_t align)
{
    pf__arena_block *h = a->head;
    PF_ASSERT(align && (align & (align - 1u)) == 0 && align <= 64u);
    size_t off = h ? (h->used + align - 1u) & ~(align - 1u) : 0;
    if (!h || off > h->size || size > h->size - off) {
        /* Grows by chaining (rare: only in the first frames, since reset keeps the size reached);
         * the old block stays valid because paths handed out this frame point into it. */
        size_t cur = h ? h->size : 4096u;
        if (size > SIZE_MAX - align) return NULL;
        size_t twice = cur <= SIZE_MAX / 2u ? cur * 2u : SIZE_MAX;
        size_t want = twice > size + align ? twice : size + align;
        pf__arena_block *nb = new_block(a, want);
        if (!nb) return NULL;
        nb->prev = h;
        a->head = h = nb;
        a->total = a->total <= SIZE_MAX - want ? a->total + want : SIZE_MAX;
        off = 0;
    }
    h->used = off + size;
    return (char *)h + PF__HDR + off;
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
        pf__free_lazy(&a->alloc, h, PF__HDR + h->size, h->lazy);
        h = p;
    }
    a->head = NULL;
    a->total = 0;
}

size_t pf__arena_static_size(size_t bytes) { return PF__HDR + pf__align64(bytes); }

void pf__arena_init_static(pf__arena *a, void *mem, size_t bytes)
{
    a->alloc = pf__alloc_none(); /* growth fails: the query gets PF_OUT_OF_MEMORY */
    a->head = mem;
    a->head->prev = NULL;
    a->head->lazy = 0;
    a->head->size = bytes;
    a->head->used = 0;
    a->total = bytes;
}

void pf__arena_take_path(pf__arena *arena, pf_ctx *c, pf_batch_result *r)
{
    pf_path probe = {0};
    r->status = pf_search_path(c, &probe, &r->stats);
    if (probe.len == 0) return;
    uint32_t *nodes = pf__arena_alloc(arena, (size_t)probe.len * sizeof *nodes, sizeof *nodes);
    if (!nodes) {
        r->status = PF_OUT_OF_MEMORY;
        return;
    }
    pf_path p = {.nodes = nodes, .capacity = probe.len};
    pf_search_path(c, &p, NULL);
    r->path = nodes;
    r->path_len = p.len;
}
