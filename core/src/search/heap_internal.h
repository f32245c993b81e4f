/* heap_internal.h - the open list of a search context (never installed), shared by the grid and
 * graph loop (search.c), JPS (jps_search.c) and batch group searches (group.c).
 *
 * A 4-ary min-heap on (f, tie, node) with decrease-key, and an optional held entry in front of it
 * (pf__hold, below): c->heap holds the entries, c->hpos[node] the slot
 * of each open node. 4-ary halves the depth of a binary heap, and the four children of an entry are
 * one 64-byte line (ctx.c offsets the array by PF__HEAP_PAD). Everything is inline: it sits in the
 * hottest loops and its callers are compiled per movement rule.
 */
#ifndef PF_HEAP_INTERNAL_H
#define PF_HEAP_INTERNAL_H

#include "search/ctx_internal.h"

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

/* The open list's secondary key for a node pushed with heuristic h (PF_TIE_* of the search). */
PF__INLINE uint32_t pf__tie_key(pf__search *s, uint32_t node, double h)
{
    switch (s->d.tie) {
    case PF_TIE_FIFO: return s->fifo++;
    case PF_TIE_LIFO: return ~s->fifo++;
    case PF_TIE_RANDOM: return pf__mix32(s->d.tie_seed ^ ((uint64_t)node * UINT64_C(0x9E3779B97F4A7C15)));
    default: return pf__tie_deeper(h);
    }
}

/* Moves e up from slot i (a new slot at the end, or an entry whose key decreased). */
PF__INLINE void pf__sift_up(pf_ctx *c, uint32_t i, pf__hentry e)
{
    pf__hentry *h = c->heap;
    uint32_t *pos = c->hpos;
    while (i > 0) {
        uint32_t p = (i - 1) >> 2;
        if (!pf__hless(&e, &h[p])) break;
        h[i] = h[p];
        pos[h[i].node] = i;
        i = p;
    }
    h[i] = e;
    pos[e.node] = i;
}

/* Moves e down from slot i of a heap of c->hsize entries. */
PF__INLINE void pf__sift_down(pf_ctx *c, uint32_t i, pf__hentry e)
{
    pf__hentry *h = c->heap;
    uint32_t *pos = c->hpos;
    const uint32_t n = c->hsize;
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
        pos[h[i].node] = i;
        i = best;
    }
    h[i] = e;
    pos[e.node] = i;
}

/* Returns 0 when the heap could not grow. */
PF__INLINE int pf__heap_push_entry(pf_ctx *c, pf__hentry e)
{
    if (PF__UNLIKELY(c->hsize == c->hcap) && !pf__heap_grow(c)) return 0;
    pf__sift_up(c, c->hsize++, e);
    return 1;
}

/* Returns 0 when the heap could not grow. */
PF__INLINE int pf__heap_push(pf_ctx *c, uint32_t node, double f, uint32_t tie)
{
    return pf__heap_push_entry(c, pf__hentry_make(f, tie, node));
}

/* Removes the best entry (the heap must not be empty) and marks its node closed. */
PF__INLINE uint32_t pf__heap_pop_close(pf_ctx *c)
{
    uint32_t top = c->heap[0].node;
    uint32_t n = --c->hsize;
    if (n) pf__sift_down(c, 0, c->heap[n]);
    c->stamp[top] |= PF__CLOSED_BIT;
    return top;
}

/*
 * The held entry, a one-entry front to the open list kept by a search loop in a local: a node
 * just generated that beats the top of the heap would be pushed and popped straight back; it
 * waits here instead. It has no slot in hpos, so the loop must not decrease-key it through the
 * heap (A*'s neighbours are distinct within an expansion; JPS updates it in place). Before each
 * pop, pf__hold_settle puts it back on the heap if the top now beats it (a decrease-key may have
 * made one better), so the expansion order is the heap's. A search that returns to be resumed
 * must pf__hold_flush first: resuming starts from the heap alone.
 */
typedef struct pf__hold {
    pf__hentry e;
    int        have;
} pf__hold;

/* Pushes e, or holds it; returns 0 when the heap could not grow. */
PF__INLINE int pf__hold_push(pf_ctx *c, pf__hold *hd, pf__hentry e)
{
    if (hd->have) {
        if (pf__hless(&e, &hd->e)) {
            pf__hentry t = hd->e;
            hd->e = e;
            e = t;
        }
        return pf__heap_push_entry(c, e);
    }
    if (!c->hsize || pf__hless(&e, &c->heap[0])) {
        hd->e = e;
        hd->have = 1;
        return 1;
    }
    return pf__heap_push_entry(c, e);
}

PF__INLINE int pf__hold_flush(pf_ctx *c, pf__hold *hd)
{
    if (!hd->have) return 1;
    hd->have = 0;
    return pf__heap_push_entry(c, hd->e);
}

PF__INLINE int pf__hold_settle(pf_ctx *c, pf__hold *hd)
{
    if (hd->have && c->hsize && !pf__hless(&hd->e, &c->heap[0])) return pf__hold_flush(c, hd);
    return 1;
}

/* The node that would be popped next (after a settle); PF_NODE_NONE when none is open. */
PF__INLINE uint32_t pf__hold_top(const pf_ctx *c, const pf__hold *hd)
{
    return hd->have ? hd->e.node : (c->hsize ? c->heap[0].node : PF_NODE_NONE);
}

/* Pops the best open node (after a settle) and marks it closed; PF_NODE_NONE when none is open. */
PF__INLINE uint32_t pf__hold_pop_close(pf_ctx *c, pf__hold *hd)
{
    if (hd->have) {
        hd->have = 0;
        c->stamp[hd->e.node] |= PF__CLOSED_BIT;
        return hd->e.node;
    }
    return c->hsize ? pf__heap_pop_close(c) : PF_NODE_NONE;
}

#endif
