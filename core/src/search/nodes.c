/* nodes.c - node records (nodes_internal.h): layout, lazy pages and the generation counter. */
#include <stdlib.h>
#include <string.h>
#include "search/nodes_internal.h"

/* What every untaken entry of lazy records points at: stamps of zero are stale for every
 * generation (the counter is never 0 once a search has begun). Never written: pf__nodes_set takes
 * a page first. */
static _Alignas(64) const char zero_page[PF__PAGE_BYTES];

static uint32_t npages(uint32_t count) { return (uint32_t)(((uint64_t)count + PF__PAGE_MASK) >> PF__PAGE_SHIFT); }

static size_t dir_bytes(uint32_t count) { return pf__align64((size_t)npages(count) * sizeof(char *)); }

static size_t parent_bytes(uint32_t count, int with_parent)
{
    return with_parent ? pf__align64((size_t)count * sizeof(uint32_t)) : 0u;
}

size_t pf__nodes_bytes(uint32_t count, int with_parent)
{
    return dir_bytes(count) + parent_bytes(count, with_parent) + (size_t)npages(count) * PF__PAGE_BYTES;
}

/* Lazy records' parents take whole pages, so that they can be given back without touching the
 * directory after them. */
static size_t lazy_parent_bytes(uint32_t count, int with_parent)
{
    return with_parent ? ((size_t)count * sizeof(uint32_t) + PF__PAGE_BYTES - 1u) / PF__PAGE_BYTES * PF__PAGE_BYTES : 0u;
}

size_t pf__nodes_lazy_bytes(uint32_t count, int with_parent)
{
    return (size_t)npages(count) * PF__PAGE_BYTES + lazy_parent_bytes(count, with_parent) + dir_bytes(count) +
           pf__align64((size_t)npages(count) * 2u * sizeof(uint32_t));
}

/* The directory and parents at `b`; returns the byte after them. */
static char *place_front(pf__nodes *r, char *b, uint32_t count, int with_parent)
{
    memset(r, 0, sizeof *r);
    r->count = count;
    r->npage = npages(count);
    r->page = (char **)(void *)b;
    b += dir_bytes(count);
    r->parent = with_parent ? (uint32_t *)(void *)b : NULL;
    return b + parent_bytes(count, with_parent);
}

void pf__nodes_place_zeroed(pf__nodes *r, void *block, uint32_t count, int with_parent)
{
    /* pages are 4 KiB from a 64-byte aligned start: every array of a page stays 64-byte aligned */
    char *p = place_front(r, block, count, with_parent);
    for (uint32_t k = 0; k < r->npage; k++) r->page[k] = p + (size_t)k * PF__PAGE_BYTES;
}

void pf__nodes_place(pf__nodes *r, void *block, uint32_t count, int with_parent)
{
    pf__nodes_place_zeroed(r, block, count, with_parent);
    /* Only the stamps must start at zero ("never written"); every other record is written before
     * it is read, which is what makes the generation stamp a complete reset. */
    for (uint32_t k = 0; k < r->npage; k++) memset(r->page[k], 0, PF__PAGE_G);
}

/* A zeroed page onto the spares (the link is the first pair, cleared again when it is taken). */
static void spare_put(pf__nodes *r, char *p)
{
    memset(p, 0, PF__PAGE_G);
    memcpy(p, &r->spare, sizeof r->spare);
    r->spare = p;
    r->nspare++;
}

int pf__nodes_place_lazy(pf__nodes *r, void *block, int block_lazy, uint32_t count, int with_parent,
                         const pf_allocator *a)
{
    /* The backing pages first, then the parents: the block is page-aligned, so where the OS's
     * pages are 4 KiB each entry's page and the parents' are whole OS pages, which can be given
     * back alone. With larger OS pages (16 or 64 KiB: some arm64 kernels) a page given back would
     * zero its neighbours too: the backing is then cleared as it is taken, as a user's memory is. */
    char *b = block;
    const size_t back = (size_t)npages(count) * PF__PAGE_BYTES, par = lazy_parent_bytes(count, with_parent);
    r->tlist = (uint32_t *)(void *)place_front(r, b + back + par, count, 0);
    r->parent = with_parent ? (uint32_t *)(void *)(b + back) : NULL;
    r->back = b;
    r->back_lazy = block_lazy && pf__page_size() == PF__PAGE_BYTES;
    r->zero = (char *)(uintptr_t)zero_page;
    r->alloc = a;
    for (uint32_t k = 0; k < r->npage; k++) r->page[k] = r->zero;
    r->spare_cap = r->npage < PF__NODES_SPARE ? r->npage : PF__NODES_SPARE; /* no more than a small map's */
    r->spare_block = pf__alloc(a, (size_t)r->spare_cap * PF__PAGE_BYTES, 64);
    if (!r->spare_block) return 0;
    for (uint32_t k = 0; k < r->spare_cap; k++) spare_put(r, r->spare_block + (size_t)k * PF__PAGE_BYTES);
    return 1;
}

void pf__nodes_free(pf__nodes *r)
{
    if (r->spare_block) pf__free(r->alloc, r->spare_block, (size_t)r->spare_cap * PF__PAGE_BYTES);
    r->spare_block = r->spare = NULL;
    r->nspare = 0;
}

int pf__nodes_take_page(pf__nodes *r, uint32_t i)
{
    const uint32_t e = i >> PF__PAGE_SHIFT;
    char *p = r->spare;
    if (p) {
        memcpy(&r->spare, p, sizeof r->spare);
        r->nspare--;
        memset(p, 0, 8u); /* the link */
    } else {
        /* a lazy backing page reads as zeros (entries are given back to the kernel); another
         * may hold records of an earlier search, and a page clears its stamps in 2 KiB */
        p = r->back + (size_t)e * PF__PAGE_BYTES;
        if (!r->back_lazy) memset(p, 0, PF__PAGE_G);
    }
    r->page[e] = p;
    r->tlist[r->taken++] = e;
    return 1;
}

int pf__nodes_page_live(const pf__nodes *r, uint32_t p)
{
    const uint32_t *pr = (const uint32_t *)(const void *)r->page[p];
    uint32_t v = 0;
    for (uint32_t k = 0; k < PF__PAGE_RECS; k++) v |= (pr[2u * k] & PF__GEN_MASK) == r->gen;
    return (int)v;
}

static int is_spare(const pf__nodes *r, const char *p)
{
    return r->spare_block && p >= r->spare_block && p < r->spare_block + (size_t)r->spare_cap * PF__PAGE_BYTES;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Gives the backing pages of entries e[0..n) back to the kernel, in runs of consecutive entries.
 * Where the kernel refuses (a locked mapping), those pages keep what they held, so from then on
 * every backing page is cleared as it is taken. */
static void back_release(pf__nodes *r, uint32_t *e, uint32_t n)
{
    if (!r->back_lazy || !n) return;
    qsort(e, n, sizeof *e, cmp_u32);
    for (uint32_t k = 0; k < n;) {
        uint32_t j = k + 1;
        while (j < n && e[j] == e[j - 1] + 1u) j++;
        if (!pf__release_lazy(r->back + (size_t)e[k] * PF__PAGE_BYTES, (size_t)(j - k) * PF__PAGE_BYTES))
            r->back_lazy = 0;
        k = j;
    }
}

void pf__nodes_release(pf__nodes *r)
{
    if (!r->zero) return;
    /* parents are written before they are read: any page of them may go */
    if (r->parent && r->back_lazy) (void)pf__release_lazy(r->parent, lazy_parent_bytes(r->count, 1));
    uint32_t nb = 0;
    for (uint32_t k = 0; k < r->taken; k++) {
        uint32_t e = r->tlist[k];
        if (is_spare(r, r->page[e])) spare_put(r, r->page[e]);
        else r->tlist[nb++] = e;
        r->page[e] = r->zero;
    }
    back_release(r, r->tlist, nb);
    r->taken = 0;
}

void pf__nodes_trim(pf__nodes *r, const unsigned char *live)
{
    if (!r->zero) return;
    /* live entries stay at the front of the list, dead backing ones gather past it */
    uint32_t w = 0, nb = 0, *dead = r->tlist + r->npage;
    for (uint32_t k = 0; k < r->taken; k++) {
        uint32_t e = r->tlist[k];
        if (live ? live[e] : pf__nodes_page_live(r, e)) {
            r->tlist[w++] = e;
            continue;
        }
        if (is_spare(r, r->page[e])) spare_put(r, r->page[e]);
        else dead[nb++] = e;
        r->page[e] = r->zero;
    }
    r->taken = w;
    back_release(r, dead, nb);
}

size_t pf__nodes_mem(const pf__nodes *r, size_t block_bytes)
{
    if (!r->zero) return block_bytes;
    const size_t spares = r->spare_block ? (size_t)r->spare_cap * PF__PAGE_BYTES : 0;
    if (!r->back_lazy) return block_bytes + spares;
    const uint32_t on_spares = r->spare_cap - r->nspare; /* entries holding a spare page */
    const size_t backing = (size_t)r->npage * PF__PAGE_BYTES;
    return block_bytes - backing + spares + (size_t)(r->taken - on_spares) * PF__PAGE_BYTES;
}

void pf__nodes_next_gen(pf__nodes *r)
{
    if (++r->gen > PF__GEN_MASK) {
        /* wrapped after 2^27 - 1 searches on these records (PF__GEN_BITS) */
        for (uint32_t p = 0; p < r->npage; p++)
            if (r->page[p] != r->zero) memset(r->page[p], 0, PF__PAGE_G); /* spares are zeroed, lazy
                                                                            backing given back */
        r->gen = 1; /* 0 is reserved for "never written" */
    }
}
