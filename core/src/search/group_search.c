/* group_search.c - shared destinations: one backward A* from the goal settles every unit's start
 * (the batch's group jobs; interface in core_batch_internal.h).
 *
 * Why backward: the units share the goal, so a search rooted there builds one shortest-path tree
 * that serves all of them; 200 forward A* runs would each re-expand the corridor to the goal.
 *
 * Grid moves are symmetric (the same neighbour tests, including the no-corner-cutting side cells,
 * allow u -> v and v -> u), but the forward step u -> v costs base * cost[v], the multiplier of the
 * cell entered. Expanding v backwards therefore charges cost[v] (the expanded node) to reach its
 * neighbour u, never cost[u]: pf__grid_step with BACKWARD = 1.
 *
 * The heuristic is the map's metric (octile, or Manhattan on 4-connected grids) to the bounding box
 * of the starts, scaled by the smallest multiplier: a distance to a convex set under a norm is
 * 1-Lipschitz, so it is consistent and no node is ever reopened. The search stops once every start
 * is settled; a settled node's parent never changes again, so the paths do not depend on where it
 * stops (only on the goal, the options and the set of starts).
 *
 * Each unit's cost is re-summed forward along its path, in the order a forward A* adds the steps,
 * so a path the two searches share gets bit-identical costs.
 *
 * Movement types: the rule and the prices are the filter's (FL = 1), the heuristic scaled by its
 * least multiplier too; sized units under a filter read the context's memo of open blocks. With a
 * filter nothing says beforehand that a start reaches the goal (the components are one class's):
 * a start the search does not settle is answered PF_NO_PATH, as its own search answers it.
 *
 * Options the backward search cannot reproduce are left to the member's own search, run by the
 * group's job once the group's paths are read (batch/src/group.c): a partial member it did not
 * settle (its answer ends nearest the goal as seen from its own start), and a max_cost member not
 * settled or not clearly within its limit (its own A* decides between PF_LIMIT_REACHED and
 * PF_NO_PATH). A settled member within max_cost gets the group's path: A* with an admissible
 * heuristic never expands a node of f above the optimum, so pruning at max_cost >= optimum changes
 * nothing it expands before the goal. max_expansions cannot be matched: whether a forward A* gets
 * to the goal within N expansions is known only by running it, which is the member's whole search,
 * so such members are never grouped.
 */
#include <string.h>
#include "core_batch_internal.h"
#include "search/skeleton_internal.h"
#include "search/metric_internal.h"
#include "map/grid_moves_internal.h"
#include "search/fsize_internal.h"

int pf__group_search_accepts(const pf_map *m, const pf_search_desc *rd, uint32_t start, uint32_t goal)
{
    if (m->kind != PF_MAP_GRID || m->moves == PF_MOVES_HEX) return 0;
    /* the algorithms that promise a shortest path: the group's own search gives one too (JPS, JPS+
     * and AUTO answer the same cost by other means) */
    if (rd->algo != PF_ALGO_ASTAR && rd->algo != PF_ALGO_DIJKSTRA && rd->algo != PF_ALGO_JPS &&
        rd->algo != PF_ALGO_JPS_PLUS && rd->algo != PF_ALGO_AUTO)
        return 0;
    if ((rd->algo == PF_ALGO_JPS || rd->algo == PF_ALGO_JPS_PLUS) && rd->weight != 1.0) return 0;
    if (rd->unit_size > PF_UNIT_SIZE_MAX) return 0;
    if (rd->max_expansions || !(rd->max_cost >= 0.0) || rd->reverse) return 0;
    if (rd->tie != PF_TIE_DEEPER) return 0;
    pf_heur def = m->moves == PF_MOVES_4 ? PF_HEUR_MANHATTAN : PF_HEUR_OCTILE;
    if (rd->heuristic != def && rd->heuristic != PF_HEUR_ZERO) return 0;
    uint32_t si = pf__map_inner(m, start), gi = pf__map_inner(m, goal);
    if (si == PF_NODE_NONE || gi == PF_NODE_NONE) return 0;
    if (rd->filter) { /* a unit that can stand on both ends: a bad filter is refused by its own search */
        const uint32_t k = rd->unit_size > 1 ? rd->unit_size : 1u;
        return pf__filter_valid(rd->filter) && pf__block_allowed(m->cls, m->pw, rd->filter, si, k) &&
               pf__block_allowed(m->cls, m->pw, rd->filter, gi, k);
    }
    if (!m->cls[si] || m->cls[si] != m->cls[gi]) return 0;
    /* a unit of side K stands where its K x K block is of one class (the sized move rule) */
    if (rd->unit_size > 1 && (m->clr[si] < rd->unit_size || m->clr[gi] < rd->unit_size)) return 0;
    return !m->comp || pf__grid_comp(m, si) == pf__grid_comp(m, gi);
}

/* The metric from grid cell (x, y) to the box of the starts. */
PF__INLINE double h_box(const pf__group *g, int32_t x, int32_t y, const int MV)
{
    int32_t dx = x < g->bx0 ? g->bx0 - x : (x > g->bx1 ? x - g->bx1 : 0);
    int32_t dy = y < g->by0 ? g->by0 - y : (y > g->by1 ? y - g->by1 : 0);
    return pf__grid_metric(MV == PF__MV_4 ? PF_HEUR_MANHATTAN : PF_HEUR_OCTILE, dx, dy);
}

pf_status pf__group_search_begin(pf_ctx *c, pf__group *g)
{
    const pf_map *m = c->map;
    pf__search *s = &c->s;
    /* The context's own search state is reset so pf_ctx_* accessors report nothing stale: no
     * search is active for them, and the desc is all defaults (no limits, deeper-first ties). */
    memset(s, 0, sizeof *s);
    s->found = PF_NODE_NONE;
    s->goal = PF_NODE_NONE;
    s->status = PF_IN_PROGRESS;
    s->hmul = g->heuristic == PF_HEUR_ZERO ? 0.0 : m->min_cost * (g->filter ? pf__filter_min_mult(g->filter) : 1.0);
    if (g->filter && g->size > 1) s->fmemo = pf__fsize_memo(c, g->filter, g->size);
    pf__bf_reset(c);
    g->settled = 0;
    pf_point gp = pf_grid_point(m, g->goal);
    double h = h_box(g, gp.x, gp.y, pf__mv_of(m->moves));
    return pf__bf_root(c, pf__map_inner(m, g->goal), 0, h) ? PF_IN_PROGRESS : PF_OUT_OF_MEMORY;
}

/* The skeleton (skeleton_internal.h) backwards from the goal, instantiated per move rule and
 * weighting; its goal test is "every start settled". */
PF__INLINE pf_status group_run(pf_ctx *c, pf__group *g, uint32_t budget, const int MV, const int WEIGHTED,
                               const int SZ, const int FL)
{
    const pf_map *m = c->map;
    pf__grid_view gv = pf__grid_view_of(m);
    if (FL) gv.flt = g->filter;
    if (FL && SZ) gv.fmemo = c->s.fmemo;
    pf__hold hold = PF__HOLD_EMPTY;
    pf_status ret;
    for (;;) {
        uint32_t cur = pf__bf_next(c, &hold, &budget, &ret);
        if (cur == PF_NODE_NONE) return ret;
        const int32_t py = (int32_t)(cur / gv.pw), px = (int32_t)(cur - (uint32_t)py * gv.pw);
        const int32_t x = px - 1, y = py - 1;
        if (x >= g->bx0 && x <= g->bx1 && y >= g->by0 && y <= g->by1) {
            g->settled += g->starts_at(g->user, pf__grid_unpad(m, cur));
            if (g->settled == g->count) return PF_OK;
        }
        c->s.st.expanded++;
        const double gc = pf__nodes_g(&c->nodes, cur);
        const pf__unit u = {gv.cls[cur], SZ ? g->size : 1u};
        for (uint32_t open = pf__grid_open_dirs_f(&gv, NULL, cur, u, MV, SZ, FL); open; open &= open - 1u) {
            uint32_t d = pf__ctz32(open);
            uint32_t nb = (uint32_t)((int32_t)cur + gv.off[d]);
            double ng = gc + pf__grid_step_f(MV, WEIGHTED, 1, FL, d, gv.cost, gv.cls, gv.flt, cur, nb);
            uint32_t was = pf__bf_admit(c, nb, ng, 0); /* consistent: never reopens */
            if (was && !pf__bf_relax(c, &hold, nb, was, ng, h_box(g, x + pf__dir_dx[d], y + pf__dir_dy[d], MV),
                                     d ^ 2u, NULL, 0, 0))
                return PF_OUT_OF_MEMORY;
        }
    }
}

/* One instance per move rule and weighting, for one-cell (SZ = 0) or sized (SZ = 1) units, with
 * or without a movement filter (FL). */
PF__INLINE pf_status group_run_sz(pf_ctx *c, pf__group *g, uint32_t budget, int w, const int SZ, const int FL)
{
    switch (pf__mv_of(c->map->moves)) {
    case PF__MV_4:
        return w ? group_run(c, g, budget, PF__MV_4, 1, SZ, FL) : group_run(c, g, budget, PF__MV_4, 0, SZ, FL);
    case PF__MV_8CUT:
        return w ? group_run(c, g, budget, PF__MV_8CUT, 1, SZ, FL) : group_run(c, g, budget, PF__MV_8CUT, 0, SZ, FL);
    default: return w ? group_run(c, g, budget, PF__MV_8, 1, SZ, FL) : group_run(c, g, budget, PF__MV_8, 0, SZ, FL);
    }
}

pf_status pf__group_search_step(pf_ctx *c, pf__group *g, uint32_t budget)
{
    if (budget == 0) budget = UINT32_MAX;
    int w = c->map->cost != NULL;
    /* sized units: the move rule reads clearance too (SZ = 1); movement types their filter (FL) */
    pf_status st;
    if (g->filter) st = g->size > 1 ? group_run_sz(c, g, budget, w, 1, 1) : group_run_sz(c, g, budget, w, 0, 1);
    else st = g->size > 1 ? group_run_sz(c, g, budget, w, 1, 0) : group_run_sz(c, g, budget, w, 0, 0);
    /* as pf_search reports it: a context in caller memory cannot grow, so its capacity ran out */
    return pf__ctx_oom_status(c, st);
}

uint32_t pf__group_search_path_len(const pf_ctx *c, const pf__group *g, uint32_t start)
{
    const pf_map *m = c->map;
    const uint32_t gi = pf__map_inner(m, g->goal), si = pf__map_inner(m, start);
    const int32_t *off = m->nb_off[0];
    int settled = pf__nodes_settled(&c->nodes, si);
    if (!settled) return 0;
    uint32_t len = 1;
    for (uint32_t i = si; i != gi && len <= m->count; len++)
        i = (uint32_t)((int64_t)i + off[pf__nodes_stamp(&c->nodes, i) >> PF__DIR_SHIFT]);
    return len;
}

int pf__group_search_answers(const pf_search_desc *rd, uint32_t path_len, double cost)
{
    if (!path_len) return !rd->partial && rd->max_cost == 0.0;
    /* the member's own A* compares its g, summed in another order, with max_cost: a cost within
     * rounding of the limit is left to it */
    return rd->max_cost == 0.0 || cost < rd->max_cost * (1.0 - 1e-9);
}

double pf__group_search_path(const pf_ctx *c, const pf__group *g, uint32_t start, uint32_t *nodes, uint32_t len)
{
    const pf_map *m = c->map;
    const int32_t *off = m->nb_off[0];
    const int mv = pf__mv_of(m->moves);
    double cost = 0.0;
    uint32_t i = pf__map_inner(m, start);
    nodes[0] = start;
    for (uint32_t t = 1; t < len; t++) {
        uint32_t d = pf__nodes_stamp(&c->nodes, i) >> PF__DIR_SHIFT; /* towards the goal */
        uint32_t nx = (uint32_t)((int64_t)i + off[d]);
        cost += pf__grid_step(mv, m->cost != NULL, 0, d, m->cost, i, nx) *
                (g->filter ? pf__filter_mult(g->filter, m->cls[nx]) : 1.0);
        nodes[t] = pf__grid_unpad(m, nx);
        i = nx;
    }
    return cost;
}
