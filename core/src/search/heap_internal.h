/* heap_internal.h - the open list (never installed): one 4-ary heap with decrease-key and a held
 * entry in front of it, embedded by every best-first search of the library: the search context
 * (grid and graph A*, JPS, group searches; search/skeleton_internal.h) and the generic state-space
 * search (generic/generic.c).
 *
 * The list orders entries by (f, tie, node). `pg` is the embedder's directory of record pages
 * (search/nodes_internal.h): the slot of node n is the second word of the 8-byte pair
 * (n & PF__PAGE_MASK) of page pg[n >> PF__PAGE_SHIFT]. The list writes a node's slot whenever its
 * entry moves, and reads it only for decrease-key, so the embedder says by its own records which
 * nodes are open. 4-ary halves the depth of a binary
 * heap, and the four children of an entry are one 64-byte line (the array starts PF__HEAP_PAD
 * entries into an aligned block). Everything here is inline: it sits in the hottest loops and its
 * callers are compiled per movement rule.
 */
#ifndef PF_HEAP_INTERNAL_H
#define PF_HEAP_INTERNAL_H

#include "pathfind/pf_search.h"
#include "common/pf_internal.h"

/* Record pages (search/nodes_internal.h): 256 records, [stamp, hpos] pairs then g. */
#define PF__PAGE_SHIFT 8u
#define PF__PAGE_RECS (1u << PF__PAGE_SHIFT)
#define PF__PAGE_MASK (PF__PAGE_RECS - 1u)
#define PF__PAGE_G (PF__PAGE_RECS * 8u)
#define PF__PAGE_BYTES (PF__PAGE_RECS * 16u)

/* An open-list entry, ordered by (f, tie, node): compared as one 128-bit unsigned integer built
 * from the fields. fkey is f mapped to an unsigned integer of the same order (pf__fkey), so the
 * comparison is integer arithmetic instead of floating-point tests with NaN paths; node as the
 * last key makes the order total, so the pop order never depends on the heap's inner layout. */
typedef struct pf__hentry {
    uint32_t node;  /* record index */
    uint32_t tie;   /* secondary key: smaller first */
    uint64_t fkey;  /* pf__fkey(f) */
} pf__hentry;

/* f as an unsigned integer of the same order: flip the sign bit of a non-negative value, every
 * bit of a negative one (a user heuristic may be negative). */
PF__INLINE uint64_t pf__fkey(double f)
{
    uint64_t u;
    memcpy(&u, &f, sizeof u);
    return u ^ ((uint64_t)((int64_t)u >> 63) | UINT64_C(0x8000000000000000));
}

PF__INLINE pf__hentry pf__hentry_make(double f, uint32_t tie, uint32_t node)
{
    pf__hentry e = {node, tie, pf__fkey(f)};
    return e;
}

/* The open list starts PF__HEAP_PAD entries into a 64-byte aligned block, so the four children of
 * every entry (4i+1..4i+4) share one cache line instead of straddling two. */
#define PF__HEAP_PAD 3u

typedef struct pf__open {
    pf__hentry *heap;   /* [cap] entries, PF__HEAP_PAD entries into its block */
    char      **pg;     /* the embedder's record pages: the slot of each open record */
    uint32_t    size, cap;
    pf_tie      tie;    /* secondary key of new entries (PF_TIE_*; 0 = deeper first) */
    uint64_t    tie_seed;
    uint32_t    fifo;   /* entries pushed so far (PF_TIE_FIFO and PF_TIE_LIFO keys) */
    /* Makes room for at least one more entry (cold): pf__open_resize through the embedder's
     * allocator, under its memory limits. 0 when it cannot. */
    int       (*grow)(struct pf__open *o);
    void       *owner;  /* the embedder, for grow */
} pf__open;

/* The grow hook of an open list sized for its worst case up front (every node on it at most once):
 * it never grows. */
PF__INLINE int pf__open_no_grow(pf__open *o)
{
    (void)o;
    return 0;
}

/* Empties the list and sets the tie rule of the search about to start. */
PF__INLINE void pf__open_reset(pf__open *o, pf_tie tie, uint64_t tie_seed)
{
    o->size = 0;
    o->fifo = 0;
    o->tie = tie;
    o->tie_seed = tie_seed;
}

/* heap.c: (re)allocates the entry array for `cap` entries through `a`, keeping the entries;
 * 0 on allocation failure (the list is unchanged). */
int    pf__open_resize(pf__open *o, const pf_allocator *a, uint32_t cap);
void   pf__open_free(pf__open *o, const pf_allocator *a);
/* Bytes an entry array of `cap` entries takes. */
size_t pf__open_bytes(uint32_t cap);

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 pf__u128;
/* (f, tie, node) as one integer: a compare and a subtract-with-borrow. */
PF__INLINE int pf__hless(const pf__hentry *a, const pf__hentry *b)
{
    pf__u128 ka = ((pf__u128)a->fkey << 64) | ((uint64_t)a->tie << 32 | a->node);
    pf__u128 kb = ((pf__u128)b->fkey << 64) | ((uint64_t)b->tie << 32 | b->node);
    return ka < kb;
}
#else
PF__INLINE int pf__hless(const pf__hentry *a, const pf__hentry *b)
{
    uint64_t la = (uint64_t)a->tie << 32 | a->node, lb = (uint64_t)b->tie << 32 | b->node;
    return (a->fkey < b->fkey) | ((a->fkey == b->fkey) & (la < lb));
}
#endif

/* The secondary key of a new entry with heuristic h. `id` identifies the record for the seeded
 * random order: the node index in a search context, the state's hash in the generic search. */
PF__INLINE uint32_t pf__open_tie(pf__open *o, uint64_t id, double h)
{
    switch (o->tie) {
    case PF_TIE_FIFO: return o->fifo++;
    case PF_TIE_LIFO: return ~o->fifo++;
    case PF_TIE_RANDOM: return pf__mix32(o->tie_seed ^ (id * UINT64_C(0x9E3779B97F4A7C15)));
    default: return pf__tie_deeper(h);
    }
}

PF__INLINE uint32_t *pf__open_slot(char *const *pg, uint32_t node)
{
    return (uint32_t *)(void *)(pg[node >> PF__PAGE_SHIFT] + (size_t)(node & PF__PAGE_MASK) * 8u + 4u);
}
PF__INLINE uint32_t pf__open_pos(const pf__open *o, uint32_t node) { return *pf__open_slot(o->pg, node); }

/* Moves e up from slot i (a new slot at the end, or an entry whose key decreased). */
PF__INLINE void pf__open_sift_up(pf__open *o, uint32_t i, pf__hentry e)
{
    pf__hentry *h = o->heap;
    char *const *pg = o->pg;
    while (i > 0) {
        uint32_t p = (i - 1) >> 2;
        if (!pf__hless(&e, &h[p])) break;
        h[i] = h[p];
        *pf__open_slot(pg, h[i].node) = i;
        i = p;
    }
    h[i] = e;
    *pf__open_slot(pg, e.node) = i;
}

/* Moves e down from slot i of a heap of o->size entries. */
PF__INLINE void pf__open_sift_down(pf__open *o, uint32_t i, pf__hentry e)
{
    pf__hentry *h = o->heap;
    char *const *pg = o->pg;
    const uint32_t n = o->size;
    for (;;) {
        uint32_t first = 4 * i + 1, best;
        if (PF__LIKELY(first + 4 <= n)) {
            /* A full group: a branch-free tournament. Which child wins is a coin toss to the
             * branch predictor; selecting instead of branching cut grid A* time by 7-15%. */
            uint32_t a = first + (uint32_t)pf__hless(&h[first + 1], &h[first]);
            uint32_t b = first + 2 + (uint32_t)pf__hless(&h[first + 3], &h[first + 2]);
            best = a ^ ((a ^ b) & (0u - (uint32_t)pf__hless(&h[b], &h[a]))); /* no branch */
        } else {
            if (first >= n) break;
            best = first;
            for (uint32_t k = first + 1; k < n; k++)
                if (pf__hless(&h[k], &h[best])) best = k;
        }
        if (!pf__hless(&h[best], &e)) break;
        h[i] = h[best];
        *pf__open_slot(pg, h[i].node) = i;
        i = best;
    }
    h[i] = e;
    *pf__open_slot(pg, e.node) = i;
}

/* Returns 0 when the heap could not grow. */
PF__INLINE int pf__open_push(pf__open *o, pf__hentry e)
{
    if (PF__UNLIKELY(o->size == o->cap) && !o->grow(o)) return 0;
    pf__open_sift_up(o, o->size++, e);
    return 1;
}

/* Removes the best entry (the heap must not be empty) and returns its node. */
PF__INLINE uint32_t pf__open_pop(pf__open *o)
{
    uint32_t top = o->heap[0].node;
    uint32_t n = --o->size;
    if (n) pf__open_sift_down(o, 0, o->heap[n]);
    return top;
}

/*
 * The held entry, a one-entry front to the open list kept by a search loop in a local: a node
 * just generated that beats the top of the heap would be pushed and popped straight back; it
 * waits here instead. It has no slot: pf__open_lower updates it where it is. Before each
 * pop, pf__hold_settle puts it back on the heap if the top now beats it (a decrease-key may have
 * made one better), so the expansion order is the heap's. A search that returns to be resumed
 * must pf__hold_flush first: resuming starts from the heap alone.
 */
typedef struct pf__hold {
    pf__hentry e;
    int        have;
} pf__hold;

#define PF__HOLD_EMPTY {{0, 0, 0}, 0}

/* Pushes e, or holds it; returns 0 when the heap could not grow. */
PF__INLINE int pf__hold_push(pf__open *o, pf__hold *hd, pf__hentry e)
{
    if (hd->have) {
        if (pf__hless(&e, &hd->e)) {
            pf__hentry t = hd->e;
            hd->e = e;
            e = t;
        }
        return pf__open_push(o, e);
    }
    if (!o->size || pf__hless(&e, &o->heap[0])) {
        hd->e = e;
        hd->have = 1;
        return 1;
    }
    return pf__open_push(o, e);
}

PF__INLINE int pf__hold_flush(pf__open *o, pf__hold *hd)
{
    if (!hd->have) return 1;
    hd->have = 0;
    return pf__open_push(o, hd->e);
}

/* The loop-head functions below take hd == NULL for a search that never holds an entry (the
 * accelerator's): a constant NULL folds the held entry's tests away, where the address of a local
 * that reaches the out-of-line park would be reloaded at every pop. */

/* heap.c: pf__hold_flush out of line, for the rare flushes of a loop head (a held entry beaten
 * by the top, a search about to return to be resumed): inlined there they only cost registers. */
int pf__hold_park(pf__open *o, pf__hold *hd);

PF__INLINE int pf__hold_settle(pf__open *o, pf__hold *hd)
{
    if (hd && hd->have && o->size && !pf__hless(&hd->e, &o->heap[0])) return pf__hold_park(o, hd);
    return 1;
}

/* The node that would be popped next (after a settle); PF_NODE_NONE when none is open. */
PF__INLINE uint32_t pf__hold_top(const pf__open *o, const pf__hold *hd)
{
    return hd && hd->have ? hd->e.node : (o->size ? o->heap[0].node : PF_NODE_NONE);
}

/* Pops the best open node (after a settle); PF_NODE_NONE when none is open. */
PF__INLINE uint32_t pf__hold_pop(pf__open *o, pf__hold *hd)
{
    if (hd && hd->have) {
        hd->have = 0;
        return hd->e.node;
    }
    return o->size ? pf__open_pop(o) : PF_NODE_NONE;
}

/* ---- the open list's side of a relaxation (every best-first search) ---------------------------- */

/* The relaxation rule for a record that holds a cost g already: it is rewritten for cost ng when
 * ng is lower and the record is open, or closed under a reopening policy. "Not better" is the
 * common answer and is tested first; the closed bit is read only for the few that are better
 * (callgrind, one maze query: 3% fewer instructions in the loop than testing both at once). */
PF__INLINE int pf__relax_improves(uint32_t closed, int reopen, double ng, double g)
{
    return (ng < g) && !(closed && !reopen);
}

/* Adds a record that is not open (new, or closed and reopened) with key f and heuristic h (for
 * the tie key), through the held entry `hd` or, when hd is NULL, straight onto the heap; returns 0
 * when the heap could not grow. */
PF__INLINE int pf__open_add(pf__open *o, pf__hold *hd, uint32_t node, uint64_t id, double f, double h)
{
    pf__hentry e = pf__hentry_make(f, pf__open_tie(o, id, h), node);
    return hd ? pf__hold_push(o, hd, e) : pf__open_push(o, e);
}

/* Lowers the key of open record `node` to f, keeping its tie key. One expansion may reach a node
 * twice (JPS's jumps, parallel arcs of a graph), so the held entry (if hd) may be the one lowered. */
PF__INLINE void pf__open_lower(pf__open *o, pf__hold *hd, uint32_t node, double f)
{
    if (hd && hd->have && hd->e.node == node) {
        hd->e.fkey = pf__fkey(f);
        return;
    }
    uint32_t i = pf__open_pos(o, node);
    pf__open_sift_up(o, i, pf__hentry_make(f, o->heap[i].tie, node));
}

#endif
