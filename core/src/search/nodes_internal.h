/* nodes_internal.h - node records (never installed): the one implementation of "reset by
 * generation stamp, read and write g, parent and closed", shared by every best-first search of a
 * search context (search/skeleton_internal.h), flow fields (flow.c) and the accelerator's query
 * and witness searches (accel/), which keep records over the build's own node ids.
 *
 * Records live in pages of PF__PAGE_RECS (256) consecutive nodes, found through a directory
 * (page[i >> PF__PAGE_SHIFT]). A page holds, for its 256 nodes:
 *   [stamp, hpos] u32 pairs   bytes 0..2047: stamp bits 0..26: generation that last wrote the record
 *                             (live iff equal to gen); bit 27: closed (expanded); bits 28..31:
 *                             grids: direction back to the parent. hpos: slot in the open list
 *                             (valid only when live and not closed)
 *   g f64                     bytes 2048..4095: cost so far (valid only when live)
 * and graphs keep a flat parent array beside the pages (`parent`). 16 bytes per node (20 with
 * parents), a 4 KiB page per 256 nodes.
 *
 * Why pages: a batch keeps searches suspended between frames, and a fresh context must cost what
 * its first search touches, not the map. Dense records (one array per field over every node) do
 * that only through the kernel's lazy pages, at a page fault (1.2-1.4 us here) for every 4 KiB of
 * each array a search first touches: a 20-expansion query on a fresh context of a 2000x2000 map
 * faulted 11-51 pages (three arrays, a row of each 8-16 KiB apart) and took 25-45x its warm time.
 * Lazy records (pf__nodes_place_lazy) point every directory entry at one shared page of zeros
 * (every record stale), and give an entry a page when a record on it is first written: one of
 * PF__NODES_SPARE zeroed pages made with the records (warm, no fault), else the entry's own page
 * of a lazily mapped backing block (a fault, as before, but one per 256 records of all fields).
 * So a first short query touches no new memory, a long search maps what it touches, and frames
 * call no allocator. Dense records (pf__nodes_place) are the same directory over one block.
 * Stamp and hpos share an 8-byte pair: a page's stamps are cleared as 2 KiB.
 *
 * Why this shape otherwise: A* on big grids is memory-bound. The closed bit in the stamp lets a
 * neighbour that is already expanded be rejected on one load, without touching g. Parent
 * directions ride in the stamp word so a grid needs no parent array; 27 bits of generation give
 * 134 million searches between the (handled) wrap-arounds. The open list keeps decrease-key
 * (hence hpos): lazy deletion was measured on rooms-2000 and doubled the heap operations (on
 * 8-connected grids a node is improved about once after its first push), 4.9 -> 3.6 M expansions/s.
 */
#ifndef PF_NODES_INTERNAL_H
#define PF_NODES_INTERNAL_H

#include "search/heap_internal.h"

#define PF__GEN_BITS 27u
#define PF__GEN_MASK ((UINT32_C(1) << PF__GEN_BITS) - 1u)
#define PF__CLOSED_BIT (UINT32_C(1) << PF__GEN_BITS)
#define PF__DIR_SHIFT 28u

/* The page geometry (PF__PAGE_SHIFT, PF__PAGE_RECS, PF__PAGE_MASK, PF__PAGE_BYTES, the offset of
 * g) is heap_internal.h's: the open list writes hpos through the same directory. */

/* The records. */
typedef struct pf__nodes {
    uint32_t  count;
    uint32_t  gen;
    char    **page;   /* [npage] the page of records i >> PF__PAGE_SHIFT */
    uint32_t *parent; /* flat [count], optional (graphs, the accelerator's): parent node; NULL when
                         the records keep none */
    uint32_t  npage;
    uint32_t  taken;  /* lazy: entries holding a page, listed in tlist (none while dense) */
    uint32_t *tlist;  /* lazy: [npage], then room for pf__nodes_trim's list of entries to give back */
    char     *zero;   /* lazy: the shared page of an untaken entry; NULL when dense */
    char     *back;   /* lazy: [npage] pages, entry p's at back + p * PF__PAGE_BYTES */
    int       back_lazy; /* back is lazy pages (read as zeros until written; given back by runs) */
    char     *spare;  /* lazy: zeroed pages ready to take, linked through their first word */
    char     *spare_block; /* lazy: the spare pages' allocation, spare_cap of them */
    uint32_t  nspare, spare_cap;
    const pf_allocator *alloc; /* lazy: the spare pages' allocator */
} pf__nodes;

/* Lazy records keep this many zeroed pages (64 KiB; fewer where the map has fewer) for the first
 * entries a search writes, made with them and zeroed again as they are given back: a fresh
 * context's first short query (about 10 pages on a 2000-wide map) then maps nothing and clears
 * nothing. */
#define PF__NODES_SPARE 16u

/* nodes.c: bytes of records of `count` nodes (directory, pages, parents when asked) placed dense,
 * and placed lazy (the same, and the directory's list). */
size_t pf__nodes_bytes(uint32_t count, int with_parent);
size_t pf__nodes_lazy_bytes(uint32_t count, int with_parent);
/* Dense: lays the records out in `block` (64-byte aligned, pf__nodes_bytes bytes) and zeroes the
 * stamps ("never written"); the rest is written before it is read. */
void   pf__nodes_place(pf__nodes *r, void *block, uint32_t count, int with_parent);
/* The same over a block known to read as zeros (fresh lazy pages): writes the directory only. */
void   pf__nodes_place_zeroed(pf__nodes *r, void *block, uint32_t count, int with_parent);
/* Lazy: in `block` (pf__nodes_lazy_bytes, page-aligned; `block_lazy`: lazy pages that read as
 * zeros), every entry untaken; makes the spare pages through `a` (which must outlive the records):
 * 0 when it fails. pf__nodes_free frees them (before the block goes). */
int    pf__nodes_place_lazy(pf__nodes *r, void *block, int block_lazy, uint32_t count, int with_parent,
                            const pf_allocator *a);
void   pf__nodes_free(pf__nodes *r);
/* Lazy: gives every taken page back (all records stale), or only those holding no live record:
 * spares are zeroed for the next, backing pages given to the kernel (lazy backing). */
void   pf__nodes_release(pf__nodes *r);
void   pf__nodes_trim(pf__nodes *r, const unsigned char *live);
/* Lazy: whether page p holds a live record (pf__nodes_trim's test, unless its caller passes
 * `live`, a byte per entry it has read already). */
int    pf__nodes_page_live(const pf__nodes *r, uint32_t p);
/* Bytes the records hold, placed in a block of `block_bytes`: the block (dense, or lazy over a
 * user's memory), else the block without its backing, the backing pages taken and the spares. */
size_t pf__nodes_mem(const pf__nodes *r, size_t block_bytes);
/* Gives the untaken entry of record i a page (lazy records); 1 (the return leaves room for records
 * whose pages may fail to come). */
int    pf__nodes_take_page(pf__nodes *r, uint32_t i);
/* Starts a new generation: every record stale (the stamps are cleared only on wrap-around). */
void   pf__nodes_next_gen(pf__nodes *r);

PF__INLINE uint32_t *pf__nodes_pair(const pf__nodes *r, uint32_t i)
{
    return (uint32_t *)(void *)(r->page[i >> PF__PAGE_SHIFT] + (size_t)(i & PF__PAGE_MASK) * 8u);
}
PF__INLINE double *pf__nodes_gp(const pf__nodes *r, uint32_t i)
{
    return (double *)(void *)(r->page[i >> PF__PAGE_SHIFT] + PF__PAGE_G + (size_t)(i & PF__PAGE_MASK) * 8u);
}
PF__INLINE uint32_t pf__nodes_stamp(const pf__nodes *r, uint32_t i) { return pf__nodes_pair(r, i)[0]; }
/* g of a live record */
PF__INLINE double pf__nodes_g(const pf__nodes *r, uint32_t i) { return *pf__nodes_gp(r, i); }
PF__INLINE void pf__nodes_set_g(pf__nodes *r, uint32_t i, double g) { *pf__nodes_gp(r, i) = g; }
/* Prefetches what a relaxation of i reads first. */
PF__INLINE void pf__nodes_prefetch(const pf__nodes *r, uint32_t i)
{
    const char *pg = r->page[i >> PF__PAGE_SHIFT];
    PF__PREFETCH(pg + (size_t)(i & PF__PAGE_MASK) * 8u);
    PF__PREFETCH(pg + PF__PAGE_G + (size_t)(i & PF__PAGE_MASK) * 8u);
}

PF__INLINE int pf__nodes_live(const pf__nodes *r, uint32_t i) { return (pf__nodes_stamp(r, i) & PF__GEN_MASK) == r->gen; }
/* Live and expanded. */
PF__INLINE int pf__nodes_settled(const pf__nodes *r, uint32_t i)
{
    uint32_t st = pf__nodes_stamp(r, i);
    return (st & PF__GEN_MASK) == r->gen && (st & PF__CLOSED_BIT);
}
/* The direction bits of a live grid record. */
PF__INLINE uint32_t pf__nodes_dir(const pf__nodes *r, uint32_t i) { return pf__nodes_stamp(r, i) >> PF__DIR_SHIFT; }

/* Writes record i as reached (open or about to be) at cost g, `back` in its direction bits; 0 when
 * its page could not be taken (lazy records, allocator failure). */
PF__INLINE int pf__nodes_set(pf__nodes *r, uint32_t i, double g, uint32_t back)
{
    if (PF__UNLIKELY(r->page[i >> PF__PAGE_SHIFT] == r->zero) && !pf__nodes_take_page(r, i)) return 0;
    pf__nodes_pair(r, i)[0] = r->gen | (back << PF__DIR_SHIFT);
    *pf__nodes_gp(r, i) = g;
    return 1;
}

PF__INLINE void pf__nodes_close(pf__nodes *r, uint32_t i) { pf__nodes_pair(r, i)[0] |= PF__CLOSED_BIT; }

/* ---- the relaxation, shared by every best-first loop ------------------------------------------ */

/* What a record was before a relaxation writes it (pf__nodes_admit); 0: it is left alone. */
enum { PF__WAS_NEW = 1, PF__WAS_OPEN = 2, PF__WAS_CLOSED = 3 };

/* First half: whether nb's record is to be written for cost ng. A stale record (another search's)
 * always is; a live one by pf__relax_improves. REOPEN: 0, or the search's reopening rule. */
PF__INLINE uint32_t pf__nodes_admit(const pf__nodes *r, uint32_t nb, double ng, int REOPEN)
{
    uint32_t st = pf__nodes_stamp(r, nb);
    if ((st & PF__GEN_MASK) != r->gen) return PF__WAS_NEW;
    if (!pf__relax_improves((st >> PF__GEN_BITS) & 1u, REOPEN, ng, pf__nodes_g(r, nb))) return 0u;
    return PF__WAS_OPEN + ((st >> PF__GEN_BITS) & 1u);
}

/* Second half, for a record admitted as `was`: writes g = ng, the direction back (`back`, grids)
 * and the parent (`parent`: NULL, or an array that gets `from`), then puts it on the open list with
 * key f, or lowers its key there (where it is held, with REPEATS: one expansion may reach a node
 * twice). TIES: the tie key of a new entry is the open list's rule applied to h (pf__open_tie); 0:
 * the key is 0, equal keys popping in node order (the accelerator's exact searches, compiled
 * without the rule's switch). Returns 0 only when the open list cannot grow or a page of lazy
 * records cannot be taken. */
PF__INLINE int pf__nodes_put(pf__nodes *r, pf__open *o, pf__hold *hd, uint32_t nb, uint32_t was, double ng,
                             uint32_t back, uint32_t *parent, uint32_t from, double f, double h, const int REPEATS,
                             const int TIES)
{
    if (was == PF__WAS_NEW) {
        if (!pf__nodes_set(r, nb, ng, back)) return 0;
    } else {
        pf__nodes_pair(r, nb)[0] = r->gen | (back << PF__DIR_SHIFT);
        *pf__nodes_gp(r, nb) = ng;
    }
    if (parent) parent[nb] = from;
    if (was == PF__WAS_OPEN) {
        /* without the rule every tie key is 0: the stored one need not be read back */
        if (!TIES && !(REPEATS && hd)) pf__open_sift_up(o, pf__open_pos(o, nb), pf__hentry_make(f, 0, nb));
        else pf__open_lower(o, REPEATS ? hd : NULL, nb, f);
        return 1;
    }
    if (!TIES) return hd ? pf__hold_push(o, hd, pf__hentry_make(f, 0, nb)) : pf__open_push(o, pf__hentry_make(f, 0, nb));
    return pf__open_add(o, hd, nb, nb, f, h);
}

/* The loop head's last step, after the held entry is settled (pf__hold_settle): takes the best
 * open record off the list and closes it; PF_NODE_NONE when none is open. */
PF__INLINE uint32_t pf__nodes_take(pf__nodes *r, pf__open *o, pf__hold *hd)
{
    uint32_t n = pf__hold_pop(o, hd);
    if (n != PF_NODE_NONE) pf__nodes_close(r, n);
    return n;
}

#endif
