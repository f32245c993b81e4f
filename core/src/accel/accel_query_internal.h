/* accel_query_internal.h - the accelerated query's per-context state and what its two files share
 * (never installed): accel_query.c runs the searches and slices the query, accel_path.c writes the
 * path of the meeting they found. accel_internal.h holds the accelerator's own layout. */
#ifndef PF_ACCEL_QUERY_INTERNAL_H
#define PF_ACCEL_QUERY_INTERNAL_H

#include "accel/accel_internal.h"
#include "grow_internal.h"

typedef struct meet {
    double   best;
    uint32_t node; /* PF_NODE_NONE until the sides meet */
    uint32_t ci;   /* node's core index where they met across the core (core_search), else PF_NODE_NONE */
} meet;

/* The heuristic of a side: the start's side is an A* towards the goal (x, y in the padded grid of
 * width pw): no path from v to the goal is shorter than the octile distance, so it stays exact,
 * and it keeps the search in the core pointed at the goal. In the core it also takes the landmark
 * bounds (accel_landmarks.c) of the nl landmarks that the goal's core labels reach: ub, lb per
 * landmark lm[j]. The goal's side has none (on = 0). */
typedef struct aim {
    uint32_t        pw;
    int32_t         x, y;
    int             on;
    const pf_accel *acc;
    uint32_t        nl;
    uint32_t        lm[PF__ACCEL_LANDMARKS_QUERY];
    double          ub[PF__ACCEL_LANDMARKS_QUERY], lb[PF__ACCEL_LANDMARKS_QUERY];
    /* the cache lines of a landmark row that hold lm[0 .. nl): their first entries, ascending */
    uint32_t        nline;
    uint32_t        line[PF__ACCEL_LANDMARKS_QUERY];
} aim;

/* The parts of a query, in the order it runs them (SLICES, accel_query.c): with a core Q_GOAL to Q_CORE,
 * without one Q_BOTH; then its path. */
enum { Q_BEGIN = 0, Q_GOAL, Q_START_BEGIN, Q_START, Q_CORE, Q_BOTH, Q_PATH_BEGIN, Q_PATH, Q_MOVE, Q_DONE };

/* Per-context state, hung on pf_ctx.accel. */
typedef struct pf__accel_ext {
    const pf_accel *acc;
    uint32_t       *parent;  /* [count] parent of each node reached by the running search */
    int             parent_lazy; /* parent is lazy pages, as the context's records are */
    pf__accel_seed *seeds;   /* [seeds_cap] the start's or the goal's seeds */
    uint32_t        seeds_cap;
    /* the goal side's labels: open addressing on the cell, PF_NODE_NONE = empty */
    uint32_t       *lkey, *lpar;
    double         *lg;
    uint32_t        lcap, lcount;
    /* the last path, goal first, as public ids; the unpacking stack */
    uint32_t       *path;
    uint32_t        path_cap, path_len;
    uint32_t        total;   /* steps of the path being written: path[total] is the start */
    uint32_t        fill;    /* its steps not written yet (pf__accel_put_cp) */
    uint32_t       *stk, *chain; /* put_arcs' queue; pf__accel_write_path's chain of the start's side */
    uint32_t        stk_cap, chain_cap;
    /* the query between begin and step */
    uint32_t        nfwd;    /* start's seeds (in seeds[0..nfwd)) */
    uint32_t        sx, sy;  /* the start (padded), for choosing landmarks */
    /* the start side's A* across the core (core_search), on records over core indices: the
     * records of the core nodes one query reaches are 1.3 MB in all on random-2000-20 (core x 20
     * bytes), where the context's spread them over its 64 MB, a cache line each. cr.parent is the
     * core index a node was reached from, PF_NODE_NONE for a seed (reached from the contracted
     * part: its parent there is in `parent`, by cell). copen holds cr_count entries and never
     * grows: a node is on it at most once (no reopening: the heuristic is consistent) */
    pf__nodes       cr;
    double         *ch;      /* [core] the heuristic of a record written (cr), read back when its g
                              * is lowered: 60% of the core's relaxations that write (random-2000-20),
                              * whose landmark bounds cost 22% of a query's instructions */
    void           *cr_block;
    uint32_t        cr_count;
    pf__open        copen;
    /* the goal side's labels at core nodes, by core index (open addressing, PF_NODE_NONE =
     * empty): a few dozen to a few hundred, looked up at every expansion across the core, where
     * the labels by cell (thousands) spill out of the first-level cache */
    uint32_t       *ckey;
    double         *cg;
    uint32_t        ccap, ccount;
    /* both_ways, on a hierarchy without a core: its two sides' records by node index
     * (accel_nodes.c), the start's (nr, its open list nopen) and the goal's labels (gr: g and
     * parent; its open list gopen, whose pg is set to gr's pages as its side begins: gr may be a
     * squad's, lent), in one block of nr_count nodes each; the open lists hold nr_count entries
     * each and never grow (decrease-key: a node is on one at most once) */
    pf__nodes       nr, gr;
    pf__open        nopen, gopen;
    void           *nr_block;
    uint32_t        nr_count;
    /* an edited map (accel_diff.c): check = the path must be proven on it; clear = no canonical
     * path written so far crosses D; bound = no path using a cell of D better for the start's class
     * costs less; refused = the next pick does not take the accelerator (search.c's fallback);
     * long = the next pick skips the short move's A* (it ran past its cap: search.c) */
    int             check, clear, refused, long_only;
    double          bound;
    /* Q_MOVE (a path crossing D moved beside it, pf__accel_diff_reroute): the step and the try it
     * goes on from, the cells it read (its units: PF__ACCEL_PATH_UNIT cells a unit) */
    uint32_t        move_at, move_try;
    uint64_t        move_cells;
    /* the squad whose member the next query is (pf__ctx_accel_squad; accel_squad.c), or NULL */
    pf__accel_squad *squad;
    /* the query across the steps that slice it (SLICES, accel_query.c): the part it is in, the best
     * meeting so far, the start side's heuristics (up the contracted part, across the core), the
     * cost of the path found, put_arcs' queue x->stk[head .. tail), both_ways' two sides and whose
     * turn it is, and the answer kept while the units a step ran past its budget are charged */
    int             phase, turn;
    meet            mt;
    aim             at, atc;
    double          cost;
    uint32_t        head, tail;
    pf_status       ss, gs, final;
} pf__accel_ext;

/* Grows a u32 array to at least `need` entries (contents kept); 0 on allocation failure. */
PF__INLINE int pf__accel_grow_u32(pf_ctx *c, uint32_t **p, uint32_t *cap, uint64_t need)
{
    return pf__grow(&c->alloc, p, cap, need, sizeof(uint32_t), 256u, 0);
}

/* ---- the goal side's labels (open addressing on the cell) -------------------------------------- */

PF__INLINE uint32_t pf__accel_label_slot(uint32_t cell, uint32_t mask) { return (uint32_t)(((uint64_t)cell * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & mask; }

/* Slot of `key` in an open-addressing table of `cap` slots (a power of two, PF_NODE_NONE = empty),
 * or UINT32_MAX: the labels by cell and by core index alike. */
PF__INLINE uint32_t pf__accel_table_find(const uint32_t *keys, uint32_t cap, uint32_t key)
{
    uint32_t mask = cap - 1u, i = pf__accel_label_slot(key, mask);
    for (;;) {
        uint32_t k = keys[i];
        if (k == key) return i;
        if (k == PF_NODE_NONE) return UINT32_MAX;
        i = (i + 1u) & mask;
    }
}

/* Slot of cell's label, or UINT32_MAX. */
PF__INLINE uint32_t pf__accel_label_find(const pf__accel_ext *x, uint32_t cell)
{
    return pf__accel_table_find(x->lkey, x->lcap, cell);
}

/* Cells of the path a query writes per unit of its work (SLICES, accel_query.c). Writing a cell costs
 * about 35 instructions (unpacking shortcuts and pf__accel_put_cp, maze-2000-w4); an expansion of the
 * query's searches a few hundred (up the contracted part) to a few thousand (across the core, its
 * landmark bounds), one of A* on a grid about 250: 16 cells cost about as much as the searches'
 * cheapest expansions, so that a budget in units bounds a maze's 100,000-cell path (6,250 units)
 * about as it bounds the searches. */
#define PF__ACCEL_PATH_UNIT 16u

/* Cells of a table an answer crossing an edit is moved beside it with (pf__accel_diff_reroute),
 * per PF__ACCEL_PATH_UNIT of the map's longer side: a table is read whole, two units per 16 cells
 * of the side, and a step reads at most one past its budget (a building tries up to four, the
 * next one in a later step), within what a step may run past its budget elsewhere (SLICES: three
 * canonical paths of a side; test_accel_slices' overrun()); on 2000x2000, 4,032 cells (16 KB on
 * the context), a box of 63 x 63 around a building. A longer run is cut to it, which finds a way
 * beside the building less often, never a wrong one. */
#define PF__ACCEL_MOVE_CELLS 32u

/* The path's units so far: its cells written (pf__accel_put_cp lowers fill), PF__ACCEL_PATH_UNIT a unit. */
PF__INLINE void pf__accel_path_work(pf_ctx *c, const pf__accel_ext *x)
{
    c->s.work = (x->total - x->fill) / PF__ACCEL_PATH_UNIT;
}

/* pf__accel_cp_legal on the prep map pv, by the walks' table where there is one (accel_jumps.c):
 * the start's and the goal's canonical paths (direct, pf__accel_write_path) cost a read a step without it. */
PF__INLINE int pf__accel_cp_legal_any(const pf_accel *acc, const pf__grid_view *pv, uint32_t from, uint32_t to, uint32_t *a, uint32_t *b)
{
    return acc->jump ? pf__accel_jump_cp_legal(acc, from, to, a, b) : pf__accel_cp_legal(pv, from, to, a, b);
}

/* Words of an entry of put_arcs' queue: from, to, arc index, d, at_to (pf__accel_put_cp's). */
#define PF__ACCEL_QW 5u

/* ---- accel_ctx.c: the records the searches run on, made on first use (0 when out of memory) ---- */

/* both_ways' records (nr, gr, nopen), for the attached accelerator's nodes */
int pf__accel_node_make(pf_ctx *c, pf__accel_ext *x);
/* the core's A* records (cr, ch, copen), for its core */
int pf__accel_core_make(pf_ctx *c, pf__accel_ext *x);
/* the parents by cell of the running search */
int pf__accel_make_parent(pf_ctx *c, pf__accel_ext *x);

/* ---- accel_query.c: the goal side's labels (0 when out of memory) ---------------------------- */

/* empties the labels by cell, with room for at least `cap` */
int pf__accel_labels_reset(pf_ctx *c, pf__accel_ext *x, uint32_t cap);
/* room for `cap` labels by core index */
int pf__accel_core_labels_room(pf_ctx *c, pf__accel_ext *x, uint32_t cap);

/* ---- accel_path.c ----------------------------------------------------------------------------- */

/* Writes the cells after `from` up to `to` of the canonical path between them into their places
 * in x->path (accel_path.c says how); 0 when out of memory. */
int       pf__accel_put_cp(pf_ctx *c, pf__accel_ext *x, uint32_t from, uint32_t to, int forward, uint64_t d, int at_to);
/* The path of the best meeting (x->mt) begins: its first pass, which reads the goal side's labels. */
pf_status pf__accel_path_begin(pf_ctx *c, pf__accel_ext *x);
/* Writes up to `budget` units of the path begun (PF__ACCEL_PATH_UNIT cells a unit). */
pf_status pf__accel_write_path(pf_ctx *c, pf__accel_ext *x, uint32_t budget);

#endif
