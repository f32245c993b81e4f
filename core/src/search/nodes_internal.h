/* nodes_internal.h - node records (never installed): the one implementation of "reset by
 * generation stamp, read and write g, parent and closed", shared by every best-first search of a
 * search context (search/skeleton_internal.h), flow fields (flow.c) and the accelerator's query
 * and witness searches (accel/), which keep records over the build's own node ids.
 *
 * Structure of arrays, each array 64-byte aligned:
 *   stamp  [count] u32  bits 0..26: generation that last wrote the record (live iff equal to gen);
 *                       bit 27: closed (expanded); bits 28..31: grids: direction back to the parent
 *   g      [count] f64  cost so far (valid only when live)
 *   hpos   [count] u32  slot in the open list (valid only when live and not closed)
 *   parent [count] u32  optional (graphs): parent node
 * Grids: 16 bytes per cell. Graphs: 20 bytes per node.
 *
 * Why this shape: A* on big grids is memory-bound. The closed bit in the stamp lets a neighbour that
 * is already expanded be rejected on one load, without touching g. Parent directions ride in the
 * stamp word so a grid needs no parent array; 27 bits of generation give 134 million searches
 * between the (handled) wrap-arounds. The open list keeps decrease-key (hence hpos): lazy deletion
 * was measured on rooms-2000 and doubled the heap operations (on 8-connected grids a node is
 * improved about once after its first push), 4.9 -> 3.6 M expansions/s.
 */
#ifndef PF_NODES_INTERNAL_H
#define PF_NODES_INTERNAL_H

#include "search/heap_internal.h"

#define PF__GEN_BITS 27u
#define PF__GEN_MASK ((UINT32_C(1) << PF__GEN_BITS) - 1u)
#define PF__CLOSED_BIT (UINT32_C(1) << PF__GEN_BITS)
#define PF__DIR_SHIFT 28u

/* The records. pf_ctx names these fields directly too (ctx_internal.h), so its field order is
 * this struct's. */
typedef struct pf__nodes {
    uint32_t  count;
    uint32_t  gen;
    uint32_t *stamp;
    double   *g;
    uint32_t *hpos;
    uint32_t *parent; /* NULL when the records keep no parent array */
} pf__nodes;

/* nodes.c: bytes of the records of `count` nodes (with or without parents), every array rounded
 * to 64 bytes; pf__nodes_place lays them out in `block` (64-byte aligned, that many bytes) and
 * zeroes the stamps ("never written"); the rest is written before it is read. */
size_t pf__nodes_bytes(uint32_t count, int with_parent);
void   pf__nodes_place(pf__nodes *r, void *block, uint32_t count, int with_parent);
/* The same over a block known to read as zeros (fresh lazy pages): clears nothing, so the pages
 * stay unmapped until a search touches them. */
void   pf__nodes_place_zeroed(pf__nodes *r, void *block, uint32_t count, int with_parent);
/* Starts a new generation: every record stale (the stamps are cleared only on wrap-around). */
void   pf__nodes_next_gen(pf__nodes *r);

PF__INLINE int pf__nodes_live(const pf__nodes *r, uint32_t i) { return (r->stamp[i] & PF__GEN_MASK) == r->gen; }
/* Live and expanded. */
PF__INLINE int pf__nodes_settled(const pf__nodes *r, uint32_t i)
{
    uint32_t st = r->stamp[i];
    return (st & PF__GEN_MASK) == r->gen && (st & PF__CLOSED_BIT);
}
/* The direction bits of a live grid record. */
PF__INLINE uint32_t pf__nodes_dir(const pf__nodes *r, uint32_t i) { return r->stamp[i] >> PF__DIR_SHIFT; }

/* Writes record i as reached (open or about to be) at cost g, `back` in its direction bits. */
PF__INLINE void pf__nodes_set(pf__nodes *r, uint32_t i, double g, uint32_t back)
{
    r->stamp[i] = r->gen | (back << PF__DIR_SHIFT);
    r->g[i] = g;
}

PF__INLINE void pf__nodes_close(pf__nodes *r, uint32_t i) { r->stamp[i] |= PF__CLOSED_BIT; }

/* ---- the relaxation, shared by every best-first loop ------------------------------------------ */

/* What a record was before a relaxation writes it (pf__nodes_admit); 0: it is left alone. */
enum { PF__WAS_NEW = 1, PF__WAS_OPEN = 2, PF__WAS_CLOSED = 3 };

/* First half: whether nb's record is to be written for cost ng. A stale record (another search's)
 * always is; a live one by pf__relax_improves. REOPEN: 0, or the search's reopening rule. */
PF__INLINE uint32_t pf__nodes_admit(const pf__nodes *r, uint32_t nb, double ng, int REOPEN)
{
    uint32_t st = r->stamp[nb];
    if ((st & PF__GEN_MASK) != r->gen) return PF__WAS_NEW;
    if (!pf__relax_improves((st >> PF__GEN_BITS) & 1u, REOPEN, ng, r->g[nb])) return 0u;
    return PF__WAS_OPEN + ((st >> PF__GEN_BITS) & 1u);
}

/* Second half, for a record admitted as `was`: writes g = ng, the direction back (`back`, grids)
 * and the parent (`parent`: NULL, or an array that gets `from`), then puts it on the open list with
 * key f, or lowers its key there (where it is held, with REPEATS: one expansion may reach a node
 * twice). TIES: the tie key of a new entry is the open list's rule applied to h (pf__open_tie); 0:
 * the key is 0, equal keys popping in node order (the accelerator's exact searches, compiled
 * without the rule's switch). Returns 0 only when the open list cannot grow. */
PF__INLINE int pf__nodes_put(pf__nodes *r, pf__open *o, pf__hold *hd, uint32_t nb, uint32_t was, double ng,
                             uint32_t back, uint32_t *parent, uint32_t from, double f, double h, const int REPEATS,
                             const int TIES)
{
    pf__nodes_set(r, nb, ng, back);
    if (parent) parent[nb] = from;
    if (was == PF__WAS_OPEN) {
        /* without the rule every tie key is 0: the stored one need not be read back */
        if (!TIES && !(REPEATS && hd)) pf__open_sift_up(o, o->pos[nb], pf__hentry_make(f, 0, nb));
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
