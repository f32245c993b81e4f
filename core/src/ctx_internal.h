/* ctx_internal.h - search context layout (never installed). Tests may include it to force the
 * generation counter. */
#ifndef PF_CTX_INTERNAL_H
#define PF_CTX_INTERNAL_H

#include "pathfind/pf_search.h"
#include "map_internal.h"

/*
 * Node records, structure of arrays, one allocation aligned to 64 bytes:
 *   stamp  [count] u32  bits 0..27: generation that last wrote the record (live iff equal to gen);
 *                       bits 28..31: grids: direction from the node back to its parent
 *   g      [count] f64  cost so far (valid only when live)
 *   hpos   [count] u32  slot in the open list, PF__CLOSED once expanded (valid only when live)
 *   parent [count] u32  graphs only: parent node
 * Grids: 16 bytes per cell. Graphs: 20 bytes per node. Parent directions ride in the stamp word so a
 * grid needs no parent array; 28 bits of generation still give 268 million searches between the
 * (handled) wrap-arounds.
 */
#define PF__GEN_BITS 28u
#define PF__GEN_MASK ((UINT32_C(1) << PF__GEN_BITS) - 1u)
#define PF__CLOSED UINT32_MAX

typedef struct pf__hentry {
    double   f;
    uint32_t tie;   /* secondary key: smaller first */
    uint32_t node;  /* inner index */
} pf__hentry;

typedef struct pf__search {
    pf_search_desc d;          /* resolved */
    uint32_t  start, goal;     /* inner indices; goal PF_NODE_NONE for a tree search */
    int32_t   gx, gy;          /* goal coordinates (grids, unpadded) */
    double    hmul;            /* multiplier on the heuristic in f (weight * scale) */
    double    hadm;            /* admissible multiplier (scale), for max_cost pruning */
    int       greedy, unit, reopen, pruned, tree;
    uint32_t  fifo;
    uint32_t  found;           /* inner index reached, PF_NODE_NONE when none */
    pf_status status;          /* PF_IN_PROGRESS while running */
    pf_stats  st;
    int       active;          /* a search was begun on this context */
} pf__search;

struct pf_ctx {
    const pf_map *map;
    pf_allocator  alloc;
    uint32_t      count;
    uint32_t      gen;
    uint32_t     *stamp;
    double       *g;
    uint32_t     *hpos;
    uint32_t     *parent;      /* graphs only */
    void         *block;       /* the records' allocation */
    size_t        block_size;
    pf__hentry   *heap;
    uint32_t      hsize, hcap;
    pf__search    s;
    void         *ext;         /* algorithm extensions (JPS+ tables...), owned */
    void        (*ext_free)(pf_ctx *ctx);
};

/* Starts a new generation (clears stamps only on wrap-around). */
void pf__ctx_next_gen(pf_ctx *ctx);
/* Forces the generation counter, so tests can exercise the wrap. */
void pf__ctx_set_gen(pf_ctx *ctx, uint32_t gen);
/* Grows the open list; returns 0 on allocation failure. */
int pf__heap_grow(pf_ctx *ctx);

/* ---- open list: 4-ary min-heap on (f, tie) with decrease-key -------------------------------- */
/* 4-ary: half the depth of a binary heap, and the four children share a cache line (16-byte
 * entries), which pays off for the pop-heavy grid workload. */

PF__INLINE int pf__heap_less(const pf__hentry *a, const pf__hentry *b)
{
    return a->f < b->f || (a->f == b->f && a->tie < b->tie);
}

PF__INLINE void pf__heap_sift_up(pf_ctx *c, uint32_t i, pf__hentry e)
{
    pf__hentry *h = c->heap;
    uint32_t *pos = c->hpos;
    while (i > 0) {
        uint32_t p = (i - 1) >> 2;
        if (!pf__heap_less(&e, &h[p])) break;
        h[i] = h[p];
        pos[h[i].node] = i;
        i = p;
    }
    h[i] = e;
    pos[e.node] = i;
}

PF__INLINE void pf__heap_sift_down(pf_ctx *c, uint32_t i, pf__hentry e)
{
    pf__hentry *h = c->heap;
    uint32_t *pos = c->hpos;
    uint32_t n = c->hsize;
    for (;;) {
        uint32_t first = 4 * i + 1;
        if (first >= n) break;
        uint32_t best = first;
        uint32_t last = first + 4 < n ? first + 4 : n;
        for (uint32_t k = first + 1; k < last; k++)
            if (pf__heap_less(&h[k], &h[best])) best = k;
        if (!pf__heap_less(&h[best], &e)) break;
        h[i] = h[best];
        pos[h[i].node] = i;
        i = best;
    }
    h[i] = e;
    pos[e.node] = i;
}

PF__INLINE int pf__heap_push(pf_ctx *c, uint32_t node, double f, uint32_t tie)
{
    if (PF__UNLIKELY(c->hsize == c->hcap) && !pf__heap_grow(c)) return 0;
    pf__hentry e = {f, tie, node};
    pf__heap_sift_up(c, c->hsize++, e);
    return 1;
}

PF__INLINE uint32_t pf__heap_pop(pf_ctx *c)
{
    uint32_t top = c->heap[0].node;
    pf__hentry last = c->heap[--c->hsize];
    if (c->hsize) pf__heap_sift_down(c, 0, last);
    c->hpos[top] = PF__CLOSED;
    return top;
}

#endif
