/* ctx_internal.h - search context layout (never installed). Tests may include it to force the
 * generation counter. */
#ifndef PF_CTX_INTERNAL_H
#define PF_CTX_INTERNAL_H

#include "pathfind/pf_search.h"
#include "map/map_internal.h"

/*
 * Node records, structure of arrays, one allocation aligned to 64 bytes:
 *   stamp  [count] u32  bits 0..26: generation that last wrote the record (live iff equal to gen);
 *                       bit 27: closed (expanded); bits 28..31: grids: direction back to the parent
 *   g      [count] f64  cost so far (valid only when live)
 *   hpos   [count] u32  slot in the open list (valid only when live and not closed)
 *   parent [count] u32  graphs only: parent node
 * Grids: 16 bytes per cell. Graphs: 20 bytes per node.
 *
 * Why this shape: A* on big grids is memory-bound. The closed bit in the stamp lets a neighbour that
 * is already expanded be rejected on one load, without touching g. Parent directions ride in the
 * stamp word so a grid needs no parent array; 27 bits of generation give 134 million searches
 * between the (handled) wrap-arounds. The open list keeps decrease-key (hence hpos): lazy deletion
 * was measured on rooms-2000 and doubled the heap operations (on 8-connected grids a node is
 * improved about once after its first push), 4.9 -> 3.6 M expansions/s.
 */
#define PF__GEN_BITS 27u
#define PF__GEN_MASK ((UINT32_C(1) << PF__GEN_BITS) - 1u)
#define PF__CLOSED_BIT (UINT32_C(1) << PF__GEN_BITS)
#define PF__DIR_SHIFT 28u

/* An open-list entry, ordered by (f, tie, node): compared as one 128-bit unsigned integer built
 * from the fields (heap_internal.h). fkey is f mapped to an unsigned integer of the same order
 * (pf__fkey), so the comparison is integer arithmetic instead of floating-point tests with NaN
 * paths; node as the last key makes the order total, so the pop order never depends on the heap's
 * inner layout. */
typedef struct pf__hentry {
    uint32_t node;  /* inner index */
    uint32_t tie;   /* secondary key: smaller first */
    uint64_t fkey;  /* pf__fkey(f) */
} pf__hentry;

/* f as an unsigned integer of the same order: flip the sign bit of a non-negative value, every
 * bit of a negative one (a user heuristic may be negative). */
static inline uint64_t pf__fkey(double f)
{
    uint64_t u;
    memcpy(&u, &f, sizeof u);
    return u ^ ((uint64_t)((int64_t)u >> 63) | UINT64_C(0x8000000000000000));
}

static inline pf__hentry pf__hentry_make(double f, uint32_t tie, uint32_t node)
{
    pf__hentry e = {node, tie, pf__fkey(f)};
    return e;
}

/* The open list starts PF__HEAP_PAD entries into a 64-byte aligned block, so the four children of
 * every entry (4i+1..4i+4) share one cache line instead of straddling two. */
#define PF__HEAP_PAD 3u

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
    uint32_t      tag;         /* PF__TAG_CTX while alive */
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
    void         *accel;       /* the accelerator's query state (accel/), owned */
    void        (*accel_free)(pf_ctx *ctx);
};

/* Starts a new generation (clears stamps only on wrap-around). */
void pf__ctx_next_gen(pf_ctx *ctx);
/* Forces the generation counter, so tests can exercise the wrap. */
void pf__ctx_set_gen(pf_ctx *ctx, uint32_t gen);
/* Grows the open list; returns 0 on allocation failure. */
int pf__heap_grow(pf_ctx *ctx);

#endif
