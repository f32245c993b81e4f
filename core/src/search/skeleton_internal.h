/* skeleton_internal.h - the best-first skeleton over a search context's records (never installed).
 *
 * Every search on a pf_ctx is this loop: grid A* (one instance per move rule, weighting and
 * heuristic) and graph A* in search.c, JPS and JPS+ in jps_search.c, the backward group search in
 * group_search.c. Each piece below exists once; a search is the loop head, its own goal test, and
 * its own successor generator feeding the one relaxation:
 *
 *     pf__hold hold = PF__HOLD_EMPTY;                                     the open list's front
 *     pf_status ret;
 *     for (;;) {
 *         uint32_t cur = pf__bf_next(c, &hold, &budget, &ret);            budget, limit, pop, trace
 *         if (cur == PF_NODE_NONE) return ret;
 *         if (cur == goal) { s->found = cur; return PF_OK; }              the variant's goal test
 *         s->st.expanded++;                                               (A*'s: pf__bf_next_expand)
 *         for each successor nb of cur:                                   the variant's generator
 *             double ng = c->g[cur] + step;                               grids: pf__grid_step
 *             uint32_t was = pf__bf_admit(c, nb, ng, REOPEN);             the relaxation, in two
 *             if (was && !pf__bf_relax(c, &hold, nb, was, ng, h(nb), back, parent, cur, REPEATS))
 *                 return PF_OUT_OF_MEMORY;
 *     }
 *
 * The heuristic is an argument of the second half only, so it is computed for the successors that
 * are kept. The hooks are compile-time constants of the instantiating loop:
 *   the move rule and the step charging   map/grid_moves_internal.h: pf__grid_open_dirs, and
 *                                         pf__grid_step's BACKWARD (a search from the goal)
 *   REOPEN                                0, or the search's s->reopen (user heuristics)
 *   parent                                NULL when the stamp's direction bits are the parent
 *   REPEATS                               1 when one expansion may reach a node twice (JPS's
 *                                         jumps, a graph's parallel arcs); grid moves never do
 * The loop re-reads the map and the records through `c` at every step call and keeps nothing
 * across calls, so a map swapped between searches (map edits: a new version pointer) needs only a
 * new begin.
 *
 * THE VARIANTS BUILT ON IT (search.c unless said)
 *   unit sizes      grid_run's SZ = 1 instances: the move rule reads pf__cell_open_sz (class and
 *                   clearance >= size, map/grid_moves_internal.h); nothing else changes.
 *   partial paths   note_nearest in the loop body keeps the expanded node nearest the goal; finish()
 *                   reads the path back from it on PF_NO_PATH or PF_LIMIT_REACHED.
 *   Lazy Theta*     theta_run: pf__bf_next, a set-vertex step on the popped node (its assumed line of
 *                   sight checked), the goal test, then the grid move rule relaxing each successor
 *                   from the node's parent through pf__bf_admit / pf__bf_relax with a parent array.
 *   flow fields     a tree search rooted at the goal with BACK = 1 (flow.c reads the stamps), as
 *                   group_search.c searches backwards with a goal test on a set of starts.
 *   accelerator     accel/accel_query.c: every search of a query is this loop head, pf__bf_head
 *                   with no goal (BOUNDED: it ends at the best meeting; only the goal's side up to
 *                   a core runs dry instead), a successor generator over the hierarchy's arcs and
 *                   the shared relaxation (pf__nodes_admit, pf__nodes_put) writing the
 *                   accelerator's parents; only the records differ. With a core: the goal's and
 *                   the start's sides up the contracted part on the context's records (upward),
 *                   and core_search across the core on records by core index (x->cr, x->copen:
 *                   the context's are spread over every cell of the map). Without one: both sides at once (both_ways), each on its
 *                   records by node index (x->nr and x->nopen, x->gr and x->gopen), a step of a
 *                   side a call of pf__bf_head. So the trace, the budget and max_expansions mean
 *                   what they mean for A* (a query that needs N expansions answers under a limit
 *                   of N, and never expands more than the limit: its end, the bound, is tested
 *                   before the limit, and the goal taken off a side's list is an expansion there);
 *                   the goal, which the query reaches by a meeting rather than by a pop, ends a
 *                   successful query's trace (pf__bf_trace_goal, at its conclusion). What is the
 *                   accelerator's own: the meeting test, the stall-on-demand test, the heuristics.
 *                   The build's witness searches (accel_build.c) use the lower pieces only
 *                   (search/nodes_internal.h: records, pf__nodes_admit, pf__nodes_put and the
 *                   pop, pf__nodes_take), on records over the build's node ids, with loop heads
 *                   of their own (they have no trace, budget or limit).
 */
#ifndef PF_SKELETON_INTERNAL_H
#define PF_SKELETON_INTERNAL_H

#include "search/ctx_internal.h"

/* Starts a new search on c's records once c->s.d is resolved: a new generation (every record
 * stale) and an empty open list ordered by the desc's tie rule. */
PF__INLINE void pf__bf_reset(pf_ctx *c)
{
    pf__nodes_next_gen(&c->nodes);
    pf__open_reset(&c->open, c->s.d.tie, c->s.d.tie_seed);
}

/* Writes the root record (g = 0, `back` in the stamp's direction bits) and puts it on the open list
 * with heuristic h; 0 when the open list cannot grow or the root's page of lazy records cannot be
 * taken. The caller writes its parent, if it keeps
 * parents. */
PF__INLINE int pf__bf_root(pf_ctx *c, uint32_t node, uint32_t back, double h)
{
    if (!pf__nodes_set(&c->nodes, node, 0.0, back)) return 0;
    c->s.st.pushed = 1;
    return pf__open_push(&c->open, pf__hentry_make(c->s.hmul * h, pf__open_tie(&c->open, node, h), node));
}

/*
 * The loop head. Returns the node to expand: taken off the open list, closed and traced. Returns
 * PF_NODE_NONE when the search is to return *ret: PF_IN_PROGRESS when the step's budget is spent,
 * PF_LIMIT_REACHED at max_expansions, or at the end of the open list PF_OK (a tree search),
 * PF_LIMIT_REACHED (max_cost pruned a node) or PF_NO_PATH. A search that returns to be resumed
 * leaves its held entry on the heap. (pf__bf_next, below, is the BOUNDED = 0 instance on the
 * context's records.) hd is NULL for a search that never holds an entry (its relaxation passes
 * NULL to pf__nodes_put). `goal` is the node whose coming off the list ends the search, so the
 * limit lets it off (s->goal for A* and its kin); PF_NODE_NONE for a search that has none (a tree
 * search) or ends otherwise (BOUNDED: the accelerator ends at its bound, tested first, and every
 * node it takes off, the goal too, is an expansion of its own, counted against the limit).
 *
 * BOUNDED (a compile-time constant) is an exact search that ends once its best open key reaches
 * *bound (PF_OK), the bound read anew at every step (the accelerator's query: the best meeting
 * found so far), and whose open list running dry is PF_OK too.
 *
 * pf__bf_head is the loop head itself, on any records r and open list o: the context's (through
 * pf__bf_next), or a search's one level down (the accelerator's, on records by node or
 * core index), whose record i stands for the map's node cell[i] (NULL: i itself) in the trace and
 * in the goal test of the limit.
 */
PF__INLINE uint32_t pf__bf_head(pf__search *s, const pf_map *map, pf__nodes *r, pf__open *o, const uint32_t *cell,
                                uint32_t goal, pf__hold *hd, uint32_t *budget, pf_status *ret, const int BOUNDED,
                                const double *bound)
{
    if (!pf__hold_settle(o, hd)) {
        *ret = PF_OUT_OF_MEMORY;
        return PF_NODE_NONE;
    }
    if (BOUNDED) {
        uint64_t top = hd && hd->have ? hd->e.fkey : o->size ? o->heap[0].fkey : UINT64_MAX;
        if (top >= pf__fkey(*bound)) {
            *ret = PF_OK;
            return PF_NODE_NONE;
        }
    }
    if ((*budget)-- == 0) { /* a sliced search resumes from the heap alone */
        *ret = !hd || pf__hold_park(o, hd) ? PF_IN_PROGRESS : PF_OUT_OF_MEMORY;
        return PF_NODE_NONE;
    }
    /* the goal coming off the open list is not an expansion: a search that needs exactly
     * max_expansions expansions still succeeds (tree searches have no goal) */
    if (s->d.max_expansions && s->st.expanded >= s->d.max_expansions) {
        uint32_t top = pf__hold_top(o, hd);
        if (cell && top != PF_NODE_NONE) top = cell[top];
        if (top != goal || goal == PF_NODE_NONE) {
            *ret = !hd || pf__hold_park(o, hd) ? PF_LIMIT_REACHED : PF_OUT_OF_MEMORY;
            return PF_NODE_NONE;
        }
    }
    uint32_t n = pf__nodes_take(r, o, hd);
    if (n == PF_NODE_NONE) { /* (bounded: caught above) */
        *ret = s->tree || BOUNDED ? PF_OK : (s->pruned ? PF_LIMIT_REACHED : PF_NO_PATH);
        return PF_NODE_NONE;
    }
    if (s->trace) {
        pf_trace *t = s->trace;
        if (t->len < t->capacity) t->nodes[t->len++] = pf__map_outer(map, cell ? cell[n] : n);
        t->total++;
    }
    return n;
}


/* A successful search's trace ends with the goal, taken off (or, for the accelerator, reached)
 * and not expanded: total == expanded + 1 (pf_search.h). */
PF__INLINE void pf__bf_trace_goal(pf__search *s, const pf_map *map)
{
    pf_trace *t = s->trace;
    if (!t) return;
    if (t->len < t->capacity) t->nodes[t->len++] = pf__map_outer(map, s->goal);
    t->total++;
}

PF__INLINE uint32_t pf__bf_next(pf_ctx *c, pf__hold *hd, uint32_t *budget, pf_status *ret)
{
    return pf__bf_head(&c->s, c->map, &c->nodes, &c->open, NULL, c->s.goal, hd, budget, ret, 0, NULL);
}

/* The loop head with the goal test of A* and its kin: the goal (s->goal, passed in a register)
 * coming off the open list ends the search (PF_OK, s->found); any other node is counted as
 * expanded and returned. */
PF__INLINE uint32_t pf__bf_next_expand(pf_ctx *c, pf__hold *hd, uint32_t *budget, uint32_t goal, pf_status *ret)
{
    uint32_t cur = pf__bf_next(c, hd, budget, ret);
    if (cur == PF_NODE_NONE) return cur;
    if (cur == goal) {
        c->s.found = cur;
        *ret = PF_OK;
        return PF_NODE_NONE;
    }
    c->s.st.expanded++;
    return cur;
}

/* The relaxation, first half (search/nodes_internal.h): whether nb's record is to be written for
 * cost ng, and what it was (PF__WAS_*). REOPEN: 0, or s->reopen. */
PF__INLINE uint32_t pf__bf_admit(const pf_ctx *c, uint32_t nb, double ng, int REOPEN)
{
    return pf__nodes_admit(&c->nodes, nb, ng, REOPEN);
}

/*
 * The relaxation, second half, for a record admitted as `was`: drops it when max_cost prunes it,
 * else writes g = ng, the direction back (`back`, grids) and the parent (`parent`: NULL, or an
 * array that gets `from`), then puts it on the open list with f = ng + hmul * h (greedy: hmul * h)
 * or lowers its key there (where it is held, with REPEATS). Returns 0 only when the open list
 * cannot grow.
 */
PF__INLINE int pf__bf_relax(pf_ctx *c, pf__hold *hd, uint32_t nb, uint32_t was, double ng, double h, uint32_t back,
                            uint32_t *parent, uint32_t from, const int REPEATS)
{
    pf__search *s = &c->s;
    if (s->cost_cap > 0 && ng + s->hadm * h > s->cost_cap) {
        s->pruned = 1;
        return 1;
    }
    double f = s->greedy ? s->hmul * h : ng + s->hmul * h;
    /* the open case first and apart, as the common one: each call below folds to its half */
    if (was == PF__WAS_OPEN)
        return pf__nodes_put(&c->nodes, &c->open, hd, nb, PF__WAS_OPEN, ng, back, parent, from, f, h, REPEATS, 1);
    if (was == PF__WAS_CLOSED) s->st.reopened++;
    s->st.pushed++;
    return pf__nodes_put(&c->nodes, &c->open, hd, nb, was, ng, back, parent, from, f, h, REPEATS, 1);
}

#endif
