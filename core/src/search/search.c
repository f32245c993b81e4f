/* search.c - A*, weighted A*, Dijkstra, BFS and greedy best-first over grids and graphs.
 *
 * One best-first loop serves every algorithm: f = g + hmul * h (greedy drops g, Dijkstra has
 * hmul = 0, BFS uses unit steps and FIFO ties). The grid loop is instantiated per movement rule and
 * per weighting so the neighbour tests and step costs are compile-time constants.
 */
#include <float.h>
#include <math.h>
#include <string.h>
#include "core_batch_internal.h"
#include "search/skeleton_internal.h"
#include "search/metric_internal.h"
#include "map/grid_moves_internal.h"
#include "map/nearest_internal.h"
#include "search/size_comp_internal.h"
#include "search/fsize_internal.h"
#include "jps/jps_internal.h"
#include "accel/accel_internal.h"
#include "search/anyangle_internal.h"

/* ---- heuristics ------------------------------------------------------------------------------ */

PF__INLINE double h_grid_kind(pf_heur k, int32_t dx, int32_t dy, int32_t x, int32_t y, int32_t gx,
                              int32_t gy)
{
    return k == PF_HEUR_HEX ? pf__grid_hex_dist(x, y, gx, gy) : pf__grid_metric(k, dx, dy);
}

double pf__grid_octile(int32_t dx, int32_t dy) { return pf__grid_metric(PF_HEUR_OCTILE, dx, dy); }

/* The user's heuristic of an inner node; a NaN (a broken callback) is taken as no estimate, 0, which
 * A* stays optimal with: as an open-list key it would sort first (heap_internal.h). At the goal it
 * is 0 whatever the callback says: A*'s goal test (the goal off the list ends the search) is
 * exact only then, and an admissible estimate of the goal's own distance is at most 0 (a
 * negative one let the goal out at the first sight of it, past a cheaper path: a review). */
static double user_h(const pf_ctx *c, uint32_t idx)
{
    const pf__search *s = &c->s;
    const pf_map *m = c->map;
    if (idx == s->goal) return 0.0;
    double v = s->d.heuristic_fn(m, pf__map_outer(m, idx), pf__map_outer(m, s->goal), s->d.heuristic_user);
    return v == v ? v : 0.0;
}

/* Heuristic of an inner node (unweighted, unscaled); x, y are unpadded grid coordinates. */
static double h_any(const pf_ctx *c, uint32_t idx, int32_t x, int32_t y)
{
    const pf__search *s = &c->s;
    const pf_map *m = c->map;
    pf_heur k = s->d.heuristic;
    if (k == PF_HEUR_ZERO) return 0.0;
    if (k == PF_HEUR_CALLBACK)
        return user_h(c, idx);
    if (m->kind == PF_MAP_GRID) {
        if (k != PF_HEUR_MAX) return h_grid_kind(k, x - s->hx, y - s->hy, x, y, s->hx, s->hy);
        double best = 0.0;
        for (int h = PF_HEUR_ZERO; h < PF_HEUR_MAX; h++) {
            if (!(s->d.heuristic_set & (1u << h))) continue;
            double v = h_grid_kind((pf_heur)h, x - s->hx, y - s->hy, x, y, s->hx, s->hy);
            if (v > best) best = v;
        }
        if ((s->d.heuristic_set & (1u << PF_HEUR_CALLBACK)) && s->d.heuristic_fn) {
            /* the callback returns costs, the built-ins steps; the result is multiplied by the
             * smallest multiplier (hadm) like a built-in, so bring the callback to steps first or
             * it would be scaled twice (inadmissible when every multiplier exceeds 1) */
            double v = user_h(c, idx) / s->hadm;
            if (v > best) best = v;
        }
        return best;
    }
    /* graph: Euclidean on coordinates, already scaled by h_scale through hmul */
    double e = 0.0;
    if (m->xy && m->h_scale > 0.0 &&
        (k == PF_HEUR_EUCLIDEAN || (k == PF_HEUR_MAX && (s->d.heuristic_set & (1u << PF_HEUR_EUCLIDEAN))))) {
        double dx = m->xy[2 * (size_t)idx] - m->xy[2 * (size_t)s->goal];
        double dy = m->xy[2 * (size_t)idx + 1] - m->xy[2 * (size_t)s->goal + 1];
        e = pf__hypot(dx, dy) * m->h_scale; /* as graph.c measured the arcs (no overflow past 1e154) */
    }
    if (k == PF_HEUR_MAX && (s->d.heuristic_set & (1u << PF_HEUR_CALLBACK)) && s->d.heuristic_fn) {
        double v = user_h(c, idx);
        if (v > e) e = v;
    }
    return e;
}


/* Theta*'s parents (any cell, not a neighbour): 4 bytes a cell, made by a context's first Theta*
 * search. */
static void *theta_create(pf_ctx *c) { return pf__alloc(&c->alloc, (size_t)c->count * sizeof(uint32_t), 64); }
static void theta_destroy(pf_ctx *c, void *x) { pf__free(&c->alloc, x, (size_t)c->count * sizeof(uint32_t)); }
const pf__ext_class pf__ext_theta = {theta_create, theta_destroy, NULL, NULL};

/* ---- grid loop ------------------------------------------------------------------------------- */

/* Partial paths: whether expanded node `cur` (unpadded x, y) is nearer the goal than the best so
 * far: least metric, then least g, then least node id (inner order is public order). Returns its
 * metric to the goal. */
static double note_nearest(pf_ctx *c, uint32_t cur, int32_t x, int32_t y)
{
    pf__search *s = &c->s;
    double h = h_grid_kind(s->near_heur, x - s->gx, y - s->gy, x, y, s->gx, s->gy);
    if (s->best != PF_NODE_NONE) {
        if (h > s->best_h) return h;
        if (h == s->best_h) {
            double gb = pf__nodes_g(&c->nodes, s->best), gc = pf__nodes_g(&c->nodes, cur);
            if (gc > gb || (gc == gb && cur > s->best)) return h;
        }
    }
    s->best = cur;
    s->best_h = h;
    return h;
}

/* The skeleton (skeleton_internal.h) instantiated per move rule MV, weighting WEIGHTED, heuristic
 * HK (PF_HEUR__COUNT = decided at run time), unit sizes SZ and movement filters FL, so the
 * neighbour tests, step costs and the heuristic are compile-time constants: the default (no
 * filter) instances compile to the loop they were before filters existed. */
PF__INLINE pf_status grid_run(pf_ctx *c, uint32_t budget, const int MV, const int WEIGHTED, const int HK,
                              const int SZ, const int BACK, const int FL)
{
    const pf_map *m = c->map;
    pf__search *s = &c->s;
    pf__grid_view gv = pf__grid_view_of(m);
    if (FL) gv.flt = s->d.filter;
    if (FL && SZ) gv.fmemo = s->fmemo;
    const uint8_t *cls = gv.cls;
    const uint32_t pw = gv.pw;
    const uint32_t goal = s->goal;
    const int unit = s->unit, reopen = s->reopen, partial = s->partial && s->note;
    const uint8_t size = s->size;
    const int32_t hx = s->hx, hy = s->hy;
    pf__hold hold = PF__HOLD_EMPTY;
    pf_status ret;
    for (;;) {
        uint32_t cur = pf__bf_next_expand(c, &hold, &budget, goal, &ret);
        if (cur == PF_NODE_NONE) return ret;
        {
            /* A long search waits on memory: when the wave runs along a vertical corridor each new
             * row is a cache miss in every record array. Loading the rows three above and below
             * ahead of time hid about a tenth of the maze-2000 query time. */
            uint32_t up = cur >= 3 * pw ? cur - 3 * pw : cur;
            uint32_t dn = cur + 3 * pw < c->count ? cur + 3 * pw : cur;
            PF__PREFETCH(&cls[up]);
            PF__PREFETCH(&cls[dn]);
            pf__nodes_prefetch(&c->nodes, up);
            pf__nodes_prefetch(&c->nodes, dn);
        }
        const double gc = pf__nodes_g(&c->nodes, cur);
        const int32_t py = (int32_t)(cur / pw), px = (int32_t)(cur - (uint32_t)py * pw);
        const int32_t x = px - 1, y = py - 1;
        const int32_t *hoff = m->nb_off[(uint32_t)py & 1u]; /* hex: offsets by row parity */
        const pf__unit u = {cls[cur], size};
        if (PF__UNLIKELY(partial)) {
            double hn = note_nearest(c, cur, x, y);
            /* finish: PF_PARTIAL, from best (aimed: only at its cell, the goal) */
            if (PF__UNLIKELY(hn <= s->near_d && !s->aimed)) return PF_NO_PATH;
        }
        for (uint32_t open = pf__grid_open_dirs_f(&gv, hoff, cur, u, MV, SZ, FL); open; open &= open - 1u) {
            uint32_t d = pf__ctz32(open);
            uint32_t nb = (uint32_t)((int32_t)cur + (MV == PF__MV_HEX ? hoff : gv.off)[d]);
            double ng = gc + (unit ? 1.0 : pf__grid_step_f(MV, WEIGHTED, BACK, FL, d, gv.cost, cls, gv.flt, cur, nb));
            uint32_t was = pf__bf_admit(c, nb, ng, reopen);
            if (!was) continue;
            int32_t nx = x + (MV == PF__MV_HEX ? pf__hex_dx[y & 1][d] : pf__dir_dx[d]);
            int32_t ny = y + (MV == PF__MV_HEX ? pf__hex_dy[d] : pf__dir_dy[d]);
            double h = HK == PF_HEUR__COUNT ? h_any(c, nb, nx, ny)
                                            : h_grid_kind((pf_heur)HK, nx - hx, ny - hy, nx, ny, hx, hy);
            if (!pf__bf_relax(c, &hold, nb, was, ng, h, pf__mv_back(MV, d), NULL, 0, 0)) return PF_OUT_OF_MEMORY;
        }
    }
}

/*
 * Lazy Theta* (Nash, Koenig & Tovey 2010) on the skeleton. A generated node takes the expanded
 * node's parent as its own, assuming the line from it is clear, at the straight-line cost; the
 * assumption is checked once, when the node comes off the open list, and where the line is
 * blocked the node takes instead the best of its closed neighbours by a grid step (one of them
 * generated it, so there is one). One line-of-sight test per expansion instead of one per
 * successor (Theta*): 2.2x faster on den520d (717 against 1,594 us a query, bench_units) for paths
 * of the same length (0.85% and 0.87% shorter than smoothed A*). Parents are
 * kept in the context's PF__EXT_THETA extension; closed nodes are not reopened. Unweighted square grids.
 */
PF__INLINE pf_status theta_run(pf_ctx *c, uint32_t budget, const int MV, const int SZ, const int FL)
{
    const pf_map *m = c->map;
    pf__search *s = &c->s;
    pf__grid_view gv = pf__grid_view_of(m);
    if (FL) gv.flt = s->d.filter;
    if (FL && SZ) gv.fmemo = s->fmemo;
    /* under a filter every allowed class has one multiplier (pf__search_desc_check): lengths are scaled by it */
    const double fm = FL ? s->hadm : 1.0;
    const uint32_t pw = gv.pw, goal = s->goal, gen = c->gen;
    uint32_t *par = pf__ctx_ext_get(c, PF__EXT_THETA);
    pf__hold hold = PF__HOLD_EMPTY;
    pf_status ret;
    for (;;) {
        uint32_t cur = pf__bf_next(c, &hold, &budget, &ret);
        if (cur == PF_NODE_NONE) return ret;
        const pf__unit u = {gv.cls[cur], s->size};
        uint32_t p = par[cur];
        if (p != cur && !pf__grid_los_f(&gv, p, cur, u, FL)) {
            /* set the vertex: the best closed neighbour by a grid step (moves are symmetric) */
            double best = INFINITY;
            for (uint32_t open = pf__grid_open_dirs_f(&gv, NULL, cur, u, MV, SZ, FL); open; open &= open - 1u) {
                uint32_t d = pf__ctz32(open);
                uint32_t nb = (uint32_t)((int32_t)cur + gv.off[d]);
                uint32_t st = pf__nodes_stamp(&c->nodes, nb);
                if ((st & PF__GEN_MASK) != gen || !(st & PF__CLOSED_BIT)) continue;
                double v = pf__nodes_g(&c->nodes, nb) + pf__dir_step[d] * fm;
                if (v < best) {
                    best = v;
                    p = nb;
                }
            }
            par[cur] = p;
            pf__nodes_set_g(&c->nodes, cur, best);
            /* its cost rose: max_cost, checked on the assumed cost, is checked again */
            if (s->cost_cap > 0 && best + s->hadm * pf__grid_euclid(pw, cur, goal) > s->cost_cap) {
                s->pruned = 1;
                continue;
            }
        }
        if (cur == goal) {
            s->found = cur;
            return PF_OK;
        }
        s->st.expanded++;
        if (PF__UNLIKELY(s->partial)) {
            const int32_t py = (int32_t)(cur / pw);
            note_nearest(c, cur, (int32_t)(cur - (uint32_t)py * pw) - 1, py - 1);
        }
        const double gp = pf__nodes_g(&c->nodes, p);
        for (uint32_t open = pf__grid_open_dirs_f(&gv, NULL, cur, u, MV, SZ, FL); open; open &= open - 1u) {
            uint32_t d = pf__ctz32(open);
            uint32_t nb = (uint32_t)((int32_t)cur + gv.off[d]);
            /* from the start itself, a grid step (its own parent) */
            double ng = p == cur ? pf__nodes_g(&c->nodes, cur) + pf__dir_step[d] * fm : gp + pf__grid_euclid(pw, p, nb) * fm;
            uint32_t was = pf__bf_admit(c, nb, ng, 0);
            if (was && !pf__bf_relax(c, &hold, nb, was, ng, pf__grid_euclid(pw, nb, goal), pf__mv_back(MV, d), par,
                                     p, 0))
                return PF_OUT_OF_MEMORY;
        }
    }
}

/* Theta* commits to a parent when it first sees a node and never revisits it, so its path can
 * keep a bend that a later waypoint would see past: string pulling over the parents of the node
 * found (each waypoint's parent becomes its farthest ancestor in sight) shortened 14% of the
 * paths of test_prop_smooth when measured with the eager Theta* this file first had (not re-measured
 * for Lazy Theta*). Writes the new length into the node's g, its reported cost. */
static void theta_pull(pf_ctx *c, uint32_t found)
{
    pf__grid_view gv = pf__grid_view_of(c->map);
    const pf__unit u = {gv.cls[c->s.start], c->s.size};
    const int fl = c->s.d.filter != NULL;
    gv.flt = c->s.d.filter;
    gv.fmemo = c->s.fmemo;
    uint32_t *par = pf__ctx_ext_get(c, PF__EXT_THETA);
    double len = 0.0;
    for (uint32_t a = found; a != c->s.start;) {
        uint32_t far = par[a];
        while (far != c->s.start && (fl ? pf__grid_los_f(&gv, a, par[far], u, 1) : pf__grid_los(&gv, a, par[far], u)))
            far = par[far];
        par[a] = far;
        len += pf__grid_euclid(gv.pw, a, far);
        a = far;
    }
    pf__nodes_set_g(&c->nodes, found, len * (fl ? c->s.hadm : 1.0)); /* a filter's one multiplier (pf__search_desc_check) */
}

static pf_status run_theta(pf_ctx *c, uint32_t b)
{
    const int sz = c->s.size > 1;
    pf_status st;
    if (c->s.d.filter) { /* a movement type (any size: SZ = 1 reads the blocks, size 1 included) */
        switch (pf__mv_of(c->map->moves)) {
        case PF__MV_4: st = theta_run(c, b, PF__MV_4, 1, 1); break;
        case PF__MV_8CUT: st = theta_run(c, b, PF__MV_8CUT, 1, 1); break;
        default: st = theta_run(c, b, PF__MV_8, 1, 1); break;
        }
    } else {
        switch (pf__mv_of(c->map->moves)) {
        case PF__MV_4: st = sz ? theta_run(c, b, PF__MV_4, 1, 0) : theta_run(c, b, PF__MV_4, 0, 0); break;
        case PF__MV_8CUT: st = sz ? theta_run(c, b, PF__MV_8CUT, 1, 0) : theta_run(c, b, PF__MV_8CUT, 0, 0); break;
        default: st = sz ? theta_run(c, b, PF__MV_8, 1, 0) : theta_run(c, b, PF__MV_8, 0, 0); break;
        }
    }
    if (st == PF_OK && c->s.found != PF_NODE_NONE) theta_pull(c, c->s.found);
    return st;
}

#define PF__RUNNER(name, MV, W, HK) \
    static pf_status name(pf_ctx *c, uint32_t b) { return grid_run(c, b, MV, W, HK, 0, 0, 0); }
#define PF__RUNNER_SZ(name, MV, W) \
    static pf_status name(pf_ctx *c, uint32_t b) { return grid_run(c, b, MV, W, PF_HEUR__COUNT, 1, 0, 0); }
/* movement filters (one-cell units), forward: searches and pf_search_tree */
#define PF__RUNNER_FL(name, MV, W, HK) \
    static pf_status name(pf_ctx *c, uint32_t b) { return grid_run(c, b, MV, W, HK, 0, 0, 1); }
/* backward trees (flow fields) on weighted grids: a step is charged the multiplier of the cell the
 * forward step enters, which is the expanded one (pf__grid_step) */
#define PF__RUNNER_BACK(name, MV, SZ) \
    static pf_status name(pf_ctx *c, uint32_t b) { return grid_run(c, b, MV, 1, PF_HEUR__COUNT, SZ, 1, 0); }
PF__RUNNER(run_grid8_oct, PF__MV_8, 0, PF_HEUR_OCTILE)
PF__RUNNER(run_grid8w_oct, PF__MV_8, 1, PF_HEUR_OCTILE)
PF__RUNNER(run_grid8c_oct, PF__MV_8CUT, 0, PF_HEUR_OCTILE)
PF__RUNNER(run_grid4_man, PF__MV_4, 0, PF_HEUR_MANHATTAN)
PF__RUNNER(run_hex_hex, PF__MV_HEX, 0, PF_HEUR_HEX)
PF__RUNNER(run_grid_zero8, PF__MV_8, 0, PF_HEUR_ZERO)
PF__RUNNER(run_grid4, PF__MV_4, 0, PF_HEUR__COUNT)
PF__RUNNER(run_grid4w, PF__MV_4, 1, PF_HEUR__COUNT)
PF__RUNNER(run_grid8, PF__MV_8, 0, PF_HEUR__COUNT)
PF__RUNNER(run_grid8w, PF__MV_8, 1, PF_HEUR__COUNT)
PF__RUNNER(run_grid8c, PF__MV_8CUT, 0, PF_HEUR__COUNT)
PF__RUNNER(run_grid8cw, PF__MV_8CUT, 1, PF_HEUR__COUNT)
PF__RUNNER(run_hex, PF__MV_HEX, 0, PF_HEUR__COUNT)
PF__RUNNER(run_hexw, PF__MV_HEX, 1, PF_HEUR__COUNT)
PF__RUNNER_SZ(run_sz4, PF__MV_4, 0)
PF__RUNNER_SZ(run_sz4w, PF__MV_4, 1)
PF__RUNNER_SZ(run_sz8, PF__MV_8, 0)
PF__RUNNER_SZ(run_sz8w, PF__MV_8, 1)
PF__RUNNER_SZ(run_sz8c, PF__MV_8CUT, 0)
PF__RUNNER_SZ(run_sz8cw, PF__MV_8CUT, 1)
#undef PF__RUNNER_SZ
PF__RUNNER_FL(run_fl4, PF__MV_4, 0, PF_HEUR__COUNT)
PF__RUNNER_FL(run_fl4w, PF__MV_4, 1, PF_HEUR__COUNT)
PF__RUNNER_FL(run_fl8, PF__MV_8, 0, PF_HEUR__COUNT)
PF__RUNNER_FL(run_fl8w, PF__MV_8, 1, PF_HEUR__COUNT)
/* the Moving AI case with its octile heuristic inlined: h_any was 15% of a filtered query's
 * instructions on arena */
PF__RUNNER_FL(run_fl8_oct, PF__MV_8, 0, PF_HEUR_OCTILE)
PF__RUNNER_FL(run_fl8w_oct, PF__MV_8, 1, PF_HEUR_OCTILE)
PF__RUNNER_FL(run_fl8c, PF__MV_8CUT, 0, PF_HEUR__COUNT)
PF__RUNNER_FL(run_fl8cw, PF__MV_8CUT, 1, PF_HEUR__COUNT)
PF__RUNNER_FL(run_flhex, PF__MV_HEX, 0, PF_HEUR__COUNT)
PF__RUNNER_FL(run_flhexw, PF__MV_HEX, 1, PF_HEUR__COUNT)
#undef PF__RUNNER_FL
/* movement filters for units larger than a cell (square grids) */
#define PF__RUNNER_FLSZ(name, MV, W) \
    static pf_status name(pf_ctx *c, uint32_t b) { return grid_run(c, b, MV, W, PF_HEUR__COUNT, 1, 0, 1); }
PF__RUNNER_FLSZ(run_flsz4, PF__MV_4, 0)
PF__RUNNER_FLSZ(run_flsz4w, PF__MV_4, 1)
PF__RUNNER_FLSZ(run_flsz8, PF__MV_8, 0)
PF__RUNNER_FLSZ(run_flsz8w, PF__MV_8, 1)
PF__RUNNER_FLSZ(run_flsz8c, PF__MV_8CUT, 0)
PF__RUNNER_FLSZ(run_flsz8cw, PF__MV_8CUT, 1)
#undef PF__RUNNER_FLSZ
PF__RUNNER_BACK(run_back4w, PF__MV_4, 0)
PF__RUNNER_BACK(run_back8w, PF__MV_8, 0)
PF__RUNNER_BACK(run_back8cw, PF__MV_8CUT, 0)
PF__RUNNER_BACK(run_backhexw, PF__MV_HEX, 0)
PF__RUNNER_BACK(run_szback4w, PF__MV_4, 1)
PF__RUNNER_BACK(run_szback8w, PF__MV_8, 1)
PF__RUNNER_BACK(run_szback8cw, PF__MV_8CUT, 1)
#undef PF__RUNNER_BACK
/* backward trees under a filter (flow fields of a movement type): weighted or not, sized or not */
#define PF__RUNNER_BACKFL(name, MV, W, SZ) \
    static pf_status name(pf_ctx *c, uint32_t b) { return grid_run(c, b, MV, W, PF_HEUR__COUNT, SZ, 1, 1); }
PF__RUNNER_BACKFL(run_flback4, PF__MV_4, 0, 0)
PF__RUNNER_BACKFL(run_flback4w, PF__MV_4, 1, 0)
PF__RUNNER_BACKFL(run_flback8, PF__MV_8, 0, 0)
PF__RUNNER_BACKFL(run_flback8w, PF__MV_8, 1, 0)
PF__RUNNER_BACKFL(run_flback8c, PF__MV_8CUT, 0, 0)
PF__RUNNER_BACKFL(run_flback8cw, PF__MV_8CUT, 1, 0)
PF__RUNNER_BACKFL(run_flbackhex, PF__MV_HEX, 0, 0)
PF__RUNNER_BACKFL(run_flbackhexw, PF__MV_HEX, 1, 0)
PF__RUNNER_BACKFL(run_flszback4, PF__MV_4, 0, 1)
PF__RUNNER_BACKFL(run_flszback4w, PF__MV_4, 1, 1)
PF__RUNNER_BACKFL(run_flszback8, PF__MV_8, 0, 1)
PF__RUNNER_BACKFL(run_flszback8w, PF__MV_8, 1, 1)
PF__RUNNER_BACKFL(run_flszback8c, PF__MV_8CUT, 0, 1)
PF__RUNNER_BACKFL(run_flszback8cw, PF__MV_8CUT, 1, 1)
#undef PF__RUNNER_BACKFL
#undef PF__RUNNER

/* ---- graph loop ------------------------------------------------------------------------------ */

static pf_status graph_run(pf_ctx *c, uint32_t budget)
{
    const pf_map *m = c->map;
    pf__search *s = &c->s;
    const uint32_t *off = s->d.reverse ? m->roff : m->off;
    const uint32_t *dst = s->d.reverse ? m->rdst : m->dst;
    const double *w = s->d.reverse ? m->rw : m->w;
    const uint32_t goal = s->goal;
    pf__hold hold = PF__HOLD_EMPTY;
    pf_status ret;
    for (;;) {
        uint32_t cur = pf__bf_next_expand(c, &hold, &budget, goal, &ret);
        if (cur == PF_NODE_NONE) return ret;
        double gc = pf__nodes_g(&c->nodes, cur);
        for (uint32_t e = off[cur]; e < off[cur + 1]; e++) {
            uint32_t nb = dst[e];
            double ng = gc + (s->unit ? 1.0 : w[e]);
            uint32_t was = pf__bf_admit(c, nb, ng, s->reopen);
            if (was && !pf__bf_relax(c, &hold, nb, was, ng, h_any(c, nb, 0, 0), 0, c->parent, cur, 1))
                return PF_OUT_OF_MEMORY;
        }
    }
}

typedef pf_status (*run_fn)(pf_ctx *, uint32_t);

static run_fn pick_runner(const pf_ctx *c)
{
    const pf_map *m = c->map;
    if (m->kind == PF_MAP_GRAPH) return graph_run;
    if (c->s.d.algo == PF_ALGO_THETA) return run_theta;
    int w = m->cost != NULL;
    pf_heur h = c->s.d.heuristic;
    if (c->s.back && c->s.d.filter) { /* a flow field of a movement type (hex: one-cell units) */
        const int sz = c->s.size > 1;
        if (m->moves == PF_MOVES_4) return sz ? (w ? run_flszback4w : run_flszback4) : (w ? run_flback4w : run_flback4);
        if (m->moves == PF_MOVES_8_CUT)
            return sz ? (w ? run_flszback8cw : run_flszback8c) : (w ? run_flback8cw : run_flback8c);
        if (m->moves == PF_MOVES_HEX) return w ? run_flbackhexw : run_flbackhex;
        return sz ? (w ? run_flszback8w : run_flszback8) : (w ? run_flback8w : run_flback8);
    }
    if (c->s.back && w) { /* a flow field's tree on a weighted grid */
        if (m->moves == PF_MOVES_4) return c->s.size > 1 ? run_szback4w : run_back4w;
        if (m->moves == PF_MOVES_8_CUT) return c->s.size > 1 ? run_szback8cw : run_back8cw;
        if (m->moves == PF_MOVES_HEX) return run_backhexw;
        return c->s.size > 1 ? run_szback8w : run_back8w;
    }
    if (c->s.d.filter && c->s.size > 1) { /* sized movement types: hex grids refused by pf__search_desc_check */
        if (m->moves == PF_MOVES_4) return w ? run_flsz4w : run_flsz4;
        if (m->moves == PF_MOVES_8_CUT) return w ? run_flsz8cw : run_flsz8c;
        return w ? run_flsz8w : run_flsz8;
    }
    if (c->s.d.filter) { /* movement types, forward only (begin_on) */
        if (m->moves == PF_MOVES_4) return w ? run_fl4w : run_fl4;
        if (m->moves == PF_MOVES_8_CUT) return w ? run_fl8cw : run_fl8c;
        if (m->moves == PF_MOVES_HEX) return w ? run_flhexw : run_flhex;
        if (h == PF_HEUR_OCTILE) return w ? run_fl8w_oct : run_fl8_oct;
        return w ? run_fl8w : run_fl8;
    }
    if (c->s.size > 1) { /* units larger than a cell: hex grids were refused by pf__search_desc_check */
        if (m->moves == PF_MOVES_4) return w ? run_sz4w : run_sz4;
        if (m->moves == PF_MOVES_8_CUT) return w ? run_sz8cw : run_sz8c;
        return w ? run_sz8w : run_sz8;
    }
    switch (m->moves) {
    case PF_MOVES_4:
        if (!w && h == PF_HEUR_MANHATTAN) return run_grid4_man;
        return w ? run_grid4w : run_grid4;
    case PF_MOVES_8_CUT:
        if (!w && h == PF_HEUR_OCTILE) return run_grid8c_oct;
        return w ? run_grid8cw : run_grid8c;
    case PF_MOVES_HEX:
        if (!w && h == PF_HEUR_HEX) return run_hex_hex;
        return w ? run_hexw : run_hex;
    default:
        if (h == PF_HEUR_OCTILE) return w ? run_grid8w_oct : run_grid8_oct;
        if (!w && h == PF_HEUR_ZERO) return run_grid_zero8;
        return w ? run_grid8w : run_grid8;
    }
}

/* ---- desc resolution ------------------------------------------------------------------------- */

pf_search_desc pf_search_desc_resolve(const pf_map *map, const pf_search_desc *desc)
{
    pf_search_desc d = desc ? *desc : (pf_search_desc){0};
    d.algo = PF__DEF(d.algo, PF_ALGO_ASTAR);
    /* BFS's default is the textbook queue; a tie rule the caller sets is honoured (any order
     * among nodes of one depth still gives the fewest steps) */
    d.tie = PF__DEF(d.tie, d.algo == PF_ALGO_BFS ? PF_TIE_FIFO : PF_TIE_DEEPER);
    if (d.weight == 0) d.weight = 1.0;
    d.unit_size = PF__DEF(d.unit_size, 1u);
    if (d.heuristic == PF_HEUR_DEFAULT) {
        if (!map) d.heuristic = PF_HEUR_OCTILE;
        else if (map->kind == PF_MAP_GRAPH) d.heuristic = map->xy ? PF_HEUR_EUCLIDEAN : PF_HEUR_ZERO;
        else if (map->moves == PF_MOVES_4) d.heuristic = PF_HEUR_MANHATTAN;
        else if (map->moves == PF_MOVES_HEX) d.heuristic = PF_HEUR_HEX;
        else if (map->moves == PF_MOVES_8_CUT || map->moves == PF_MOVES_8_NO_CUT) d.heuristic = PF_HEUR_OCTILE;
        else d.heuristic = PF_HEUR_OCTILE;
    }
    if (d.algo == PF_ALGO_DIJKSTRA || d.algo == PF_ALGO_BFS) d.heuristic = PF_HEUR_ZERO;
    if (d.algo == PF_ALGO_THETA) d.heuristic = PF_HEUR_EUCLIDEAN; /* straight lines: octile overestimates */
    if (d.algo != PF_ALGO_WASTAR && d.algo != PF_ALGO_JPS && d.algo != PF_ALGO_JPS_PLUS) d.weight = 1.0; /* AUTO is exact */
    return d;
}

pf_status pf__search_desc_check(const pf_map *m, const pf_search_desc *d)
{
    if ((unsigned)d->algo >= PF_ALGO__COUNT || (unsigned)d->heuristic >= PF_HEUR__COUNT) return PF_INVALID_ARGUMENT;
    if ((unsigned)d->tie > PF_TIE_RANDOM) return PF_INVALID_ARGUMENT;
    if (!(d->weight >= 1.0) || !isfinite(d->weight)) return PF_INVALID_ARGUMENT;
    if (!(d->max_cost >= 0.0)) return PF_INVALID_ARGUMENT;
    if (d->heuristic == PF_HEUR_CALLBACK && !d->heuristic_fn) return PF_INVALID_ARGUMENT;
    /* before the graph's heuristic rules: Theta* (its Euclidean heuristic forced) on a graph is
     * unsupported, with coordinates or without (it was PF_INVALID_ARGUMENT without) */
    if (d->algo == PF_ALGO_THETA && (m->kind != PF_MAP_GRID || m->moves == PF_MOVES_HEX || m->cost))
        return PF_UNSUPPORTED;
    if (d->heuristic == PF_HEUR_MAX && d->heuristic_set == 0) return PF_INVALID_ARGUMENT;
    /* bits past the last pf_heur, or the callback's without a function */
    if (d->heuristic == PF_HEUR_MAX &&
        ((d->heuristic_set >> PF_HEUR__COUNT) || ((d->heuristic_set >> PF_HEUR_CALLBACK & 1u) && !d->heuristic_fn)))
        return PF_INVALID_ARGUMENT;
    if (m->kind == PF_MAP_GRAPH) {
        pf_heur h = d->heuristic;
        if (h != PF_HEUR_ZERO && h != PF_HEUR_EUCLIDEAN && h != PF_HEUR_CALLBACK && h != PF_HEUR_MAX)
            return PF_INVALID_ARGUMENT;
        if (h == PF_HEUR_EUCLIDEAN && !m->xy) return PF_INVALID_ARGUMENT;
        /* a set of PF_HEUR_MAX is held to the same rule as each of its heuristics alone */
        const uint32_t grid_only = (1u << PF_HEUR_MANHATTAN) | (1u << PF_HEUR_OCTILE) | (1u << PF_HEUR_CHEBYSHEV) |
                                   (1u << PF_HEUR_HEX) | (m->xy ? 0u : 1u << PF_HEUR_EUCLIDEAN);
        if (h == PF_HEUR_MAX && (d->heuristic_set & grid_only)) return PF_INVALID_ARGUMENT;
    }
    if (d->reverse && m->kind != PF_MAP_GRAPH) return PF_INVALID_ARGUMENT; /* before "unsupported" */
    if (d->unit_size > PF_UNIT_SIZE_MAX) return PF_INVALID_ARGUMENT;
    if (d->unit_size > 1 && (m->kind != PF_MAP_GRID || m->moves == PF_MOVES_HEX)) return PF_UNSUPPORTED;
    if (d->partial && m->kind != PF_MAP_GRID) return PF_UNSUPPORTED;
    if (d->filter) {
        /* checked at every begin: no class, "blocked", or a bad multiplier */
        if (!pf__filter_valid(d->filter)) return PF_INVALID_ARGUMENT;
        if (m->kind != PF_MAP_GRID) return PF_UNSUPPORTED;
        /* Theta*'s segments cross classes: measured by Euclidean length, they are priced right only
         * when every allowed class has one multiplier (then lengths are scaled by it) */
        double mul;
        uint8_t one;
        if (d->algo == PF_ALGO_THETA && !pf__filter_uniform(d->filter, &mul, &one)) return PF_UNSUPPORTED;
    }
    return PF_OK;
}

/* ---- begin / step / path --------------------------------------------------------------------- */

static pf_status finish(pf_ctx *c, pf_status st)
{
    pf__search *s = &c->s;
    st = pf__ctx_oom_status(c, st); /* a context in caller memory: its fixed capacity ran out */
    if ((st == PF_NO_PATH || st == PF_LIMIT_REACHED) && s->partial && s->best != PF_NODE_NONE) {
        s->found = s->best; /* the nearest node expanded: its g is its cost (A*, never JPS) */
        st = PF_PARTIAL;
        s->st.detail |= PF_DETAIL_PARTIAL;
    }
    if (st == PF_OK && s->aimed) { /* the nearest cell, reached as a goal */
        st = PF_PARTIAL;
        s->st.detail |= PF_DETAIL_PARTIAL;
    }
    if (st != PF_IN_PROGRESS) {
        s->status = st;
        if ((st == PF_OK || st == PF_PARTIAL) && s->found != PF_NODE_NONE) s->st.cost = pf__nodes_g(&c->nodes, s->found);
    }
    return st;
}

/* A partial search toward a goal the unit cannot reach, once the cell it is to end on is known
 * (padded index `cell`, at the least metric nd): A* with the map's metric to that cell.
 *
 * Which of the cells at the least metric: the one nearest the start by the same metric, then the
 * least node id, read off by the scan. The least cost among them, as before, made the search aim
 * at all of them at once (the least metric to any as its heuristic): on 4-connected and hex grids,
 * where the cells at one metric from a goal ring it along straight sides, that search had to rule
 * out every tied cell nearer by metric but walled off, which a plain query to the cell returned
 * need not (den520d, bench_partial, by instructions: 6 of 9 and 23 of 27 of the clicks over twice
 * the plain query, up to 11.7x, and a heuristic over up to 8 cells that cost about as much as the
 * rest of an expansion). Now the second half is a plain A* to one cell, for every algorithm. */
static void aim_near(pf__search *s, const pf_map *m, double nd, uint32_t cell)
{
    s->near_d = nd;
    s->near_cell = cell;
    pf_point p = pf_grid_point(m, pf__map_outer(m, cell));
    s->hx = p.x;
    s->hy = p.y;
    /* Theta*: an any-angle path to the same cell, by its own (Euclidean) heuristic */
    if (s->d.algo == PF_ALGO_THETA) return;
    s->d.algo = PF_ALGO_ASTAR;
    s->d.weight = 1.0;
    /* A*'s own default tie rule, not BFS's queue: among nodes of equal f a queue expands the
     * oldest, that is every cheaper cell around the start before the first at the cost of the
     * answer (4.7x a plain A* to the cell returned), and the rule decides which of equally cheap
     * paths is returned, which must not depend on the algorithm asked */
    if (!s->req_has_desc || s->req_desc.tie == PF_TIE_DEFAULT) s->d.tie = PF_TIE_DEEPER;
    s->d.heuristic = pf__grid_near_metric(m);
}

/* Whether the heuristic is, or takes in, the caller's callback: the only one that may be
 * inconsistent, so the only one A* reopens nodes for. */
static int user_heuristic(const pf_search_desc *d)
{
    return d->heuristic == PF_HEUR_CALLBACK ||
           (d->heuristic == PF_HEUR_MAX && (d->heuristic_set & (1u << PF_HEUR_CALLBACK)));
}

static pf_status accel_fall_back(pf_ctx *c);

static pf_status begin_on(pf_ctx *c, uint32_t start, uint32_t goal, const pf_search_desc *desc, int tree)
{
    const pf_map *m = c->map;
    pf__search *s = &c->s;
    memset(s, 0, sizeof *s);
    /* what was asked, on which version: a later step restarts it if the map changed meanwhile */
    s->version = m->version;
    s->req_start = start;
    s->req_goal = goal;
    s->req_tree = tree;
    s->req_has_desc = desc != NULL;
    if (desc) s->req_desc = *desc;
    s->found = PF_NODE_NONE;
    s->st.cost = INFINITY;
    s->status = PF_INVALID_ARGUMENT;
    s->d = pf_search_desc_resolve(m, desc);
    if (tree) {
        s->d.algo = PF_ALGO_DIJKSTRA;
        s->d.heuristic = PF_HEUR_ZERO;
        s->d.tie = PF_TIE_FIFO;
        s->d.weight = 1.0;
    }
    pf_status st = pf__search_desc_check(m, &s->d);
    if (st != PF_OK) return s->status = st;
    if (s->d.reverse && m->kind != PF_MAP_GRAPH) return s->status = PF_INVALID_ARGUMENT;

    const uint8_t size = (uint8_t)s->d.unit_size;
    const int partial = s->d.partial && !tree;
    /* a filter charges the class of the cell a step enters: a tree rooted at the goal (flow fields)
     * runs the backward instances, which charge the expanded cell's (pick_runner) */
    const pf_move_filter *flt = s->d.filter;
    uint32_t si = pf__map_inner(m, start);
    /* a unit under a filter stands where its block is of allowed classes, mixed ones included */
    if (si == PF_NODE_NONE || (m->kind == PF_MAP_GRID && !flt && m->clr[si] < size) ||
        (flt && !pf__block_allowed(m->cls, m->pw, flt, si, size)))
        return s->status = tree == 2 ? PF_INVALID_GOAL : PF_INVALID_START; /* a flow field's root is its goal */
    /* Theta* under a filter runs the sized instance for every size (its size 1 reads one cell) */
    if (flt && (size > 1 || s->d.algo == PF_ALGO_THETA)) s->fmemo = pf__fsize_memo(c, flt, size);
    uint32_t gi = PF_NODE_NONE;
    int unreachable = 0; /* partial: known before searching */
    if (!tree) {
        gi = pf__map_inner(m, goal);
        if (gi == PF_NODE_NONE) return s->status = PF_INVALID_GOAL;
        if (flt) {
            /* the one-class component labels say nothing of a unit crossing classes: whether it
             * reaches the goal is known only by searching (a partial one floods its region) */
            if (!partial && !pf__block_allowed(m->cls, m->pw, flt, gi, size)) return s->status = PF_INVALID_GOAL;
        } else if (m->kind == PF_MAP_GRID) {
            /* without component labels (an edit ran out of memory) reachability is unknown */
            unreachable = m->clr[gi] < size || m->cls[si] != m->cls[gi] || !m->comp ||
                          pf__grid_comp(m, si) != pf__grid_comp(m, gi);
            if (m->clr[gi] < size && !partial) return s->status = PF_INVALID_GOAL;
        }
    }
    /* A goal the unit cannot reach: the nearest cell it can reach is found first (a scan outward
     * from the goal over the start's component), and the search goes no further than that cell's
     * distance (near_done), by A* with the map's metric whatever was asked, so every algorithm
     * gives the same answer. Without component labels (an edit ran out of memory) the search
     * floods the start's component instead. */
    s->near_d = -1.0;
    int labelled = 0;
    if (partial && (flt || size > 1) && !tree) {
        /* A movement type's components, and a sized unit's, are its own: labelled for it
         * (search/size_comp.c, the whole map labelled by the first such query, kept across
         * queries and edits), they say whether the goal is reachable and where the nearest
         * reachable cells are, as the map's components do for one cell of one class (the one-cell
         * scan below may name cells a sized unit cannot get to, and its search then floods). A
         * static context has no room for labels: the scan below, or under a filter the search
         * alone, answers instead. */
        pf_point gp = pf_grid_point(m, goal);
        int reach = 1;
        double nd = -1.0;
        uint32_t cell = PF_NODE_NONE;
        st = pf__szcomp_nearest(c, si, gi, size, flt, gp.x, gp.y, pf__grid_near_metric(m), &reach, &cell, &nd);
        if (st == PF_OUT_OF_MEMORY) return s->status = st;
        if (st == PF_OK) {
            labelled = 1;
            unreachable = !reach;
            if (!reach && nd >= 0.0) aim_near(s, m, nd, cell);
        }
    }
    if (!labelled && partial && unreachable && m->comp) {
        pf_point gp = pf_grid_point(m, goal);
        double nd;
        uint32_t cell = pf__grid_nearest(m, gp.x, gp.y, m->cls[si], size, pf__grid_comp(m, si),
                                         pf__grid_near_metric(m), 0, si, si, &nd);
        if (cell != PF_NODE_NONE) aim_near(s, m, nd, cell);
    }
    /* JPS, JPS+ and the accelerator expand jump points, not every cell a partial path may end on:
     * A* answers for them. A sized unit is searched by JPS on the bitmaps of the cells open to it
     * (jps/jps_search.c); the accelerator knows one-cell units only, so AUTO takes JPS for it. */
    /* (a partial sized query too: components are for one-cell units, so whether a sized unit can
     * reach its goal is known only by searching) */
    const int cells_only = partial && (size > 1 || unreachable || s->d.max_expansions || s->d.max_cost > 0);
    /* the accelerator is of one class: AUTO answers a filtered query by JPS, which searches the
     * cells of the filter's classes when they cost one multiplier, else falls back to A*
     * (PF_DETAIL_FALLBACK, below) */
    /* ... where JPS can run at all, as for a one-cell unit (pf__auto_pick): on a 4-connected, hex
     * or weighted map, or under a heuristic JPS does not take, A* is AUTO's pick, not a fallback
     * (a sized or filtered unit there was flagged PF_DETAIL_FALLBACK where a one-cell unit was not:
     * false alarms, a review) */
    if ((flt || size > 1) && s->d.algo == PF_ALGO_AUTO && !(pf_jps_supported(m) && s->d.heuristic == PF_HEUR_OCTILE))
        s->d.algo = PF_ALGO_ASTAR;
    if (flt && s->d.algo == PF_ALGO_AUTO) s->d.algo = pf__jps_has_plus(c) ? PF_ALGO_JPS_PLUS : PF_ALGO_JPS;
    if (cells_only && s->d.algo == PF_ALGO_AUTO) s->d.algo = PF_ALGO_ASTAR;
    if (size > 1 && s->d.algo == PF_ALGO_AUTO) s->d.algo = PF_ALGO_JPS;
    /* AUTO becomes the search it picks, or stays AUTO for the accelerator (accel/accel_query.c) */
    if (s->d.algo == PF_ALGO_AUTO) {
        uint32_t cap = 0;
        s->d.algo = pf__auto_pick(c, si, gi, &s->st.detail, &cap);
        /* a caller's own limits keep A* to the end, as before the cap: its LIMIT_REACHED is theirs */
        if (cap && !partial && !s->d.max_expansions && !(s->d.max_cost > 0)) {
            s->d.max_expansions = cap;
            s->short_cap = 1;
        }
    }
    s->st.algo = s->d.algo;
    s->start = si;
    s->goal = gi;
    s->tree = tree;
    s->back = tree == 2;
    s->size = size;
    s->partial = partial;
    s->best = PF_NODE_NONE;
    /* The cell to end on known reachable: a plain search to it, which without limits notes no
     * nearest node at every expansion (that and the test against near_d made a partial query
     * about 1.15-1.3x a plain query to the same cell, bench_partial). With a limit the nearest
     * node expanded before it is the answer instead, so it is noted. Known reachable: the unit's
     * own labels, or a one-cell unfiltered unit's component (a static context's sized unit is
     * aimed by the one-cell scan, whose cell it may not get to: its search floods and answers
     * with the nearest node it reached, from the first within near_d). */
    const int limited = s->d.max_expansions || s->d.max_cost > 0;
    s->note = 1;
    if (partial && s->near_d >= 0.0 && (labelled || (size <= 1 && !flt))) {
        s->goal = s->near_cell;
        s->aimed = 1;
        s->note = limited;
    }
    s->near_heur = m->moves == PF_MOVES_4 ? PF_HEUR_MANHATTAN : m->moves == PF_MOVES_HEX ? PF_HEUR_HEX : PF_HEUR_OCTILE;
    s->greedy = s->d.algo == PF_ALGO_GREEDY;
    s->unit = s->d.algo == PF_ALGO_BFS;
    /* Reopening keeps A* optimal under admissible but inconsistent heuristics (user callbacks); the
     * built-in heuristics are consistent, so it never fires for them. Weighted A* and greedy keep
     * the textbook no-reopening rule (bounded suboptimality, fewer expansions). */
    s->reopen = s->d.algo == PF_ALGO_ASTAR && user_heuristic(&s->d);
    double scale = 1.0;
    if (m->kind == PF_MAP_GRID) {
        scale = m->min_cost;
        if (flt) scale *= pf__filter_min_mult(flt);
        pf_point gp = pf_grid_point(m, tree ? start : goal);
        s->gx = gp.x;
        s->gy = gp.y;
        if (s->near_d < 0.0) { /* else aim_near aimed at its cell */
            s->hx = gp.x;
            s->hy = gp.y;
        }
    }
    if (s->d.heuristic == PF_HEUR_CALLBACK) scale = 1.0;
    s->hadm = scale;
    s->hmul = scale * s->d.weight;
    s->cost_cap = !(s->d.max_cost > 0) ? 0.0 : s->unit ? s->d.max_cost : pf__cost_cap(s->d.max_cost);
    s->active = PF__SEARCH_BEGUN;
    s->trace = c->trace;
    if (s->trace) s->trace->len = s->trace->total = 0;

    pf__bf_reset(c);

    if (!tree && !partial && m->kind == PF_MAP_GRID && size > 1 && (flt || m->cls[si] == m->cls[gi])) {
        /* one component for a cell, apart for the unit: known without a search that floods (for
         * every algorithm; different classes are answered below). A filtered unit's labels are of
         * its classes: no search floods for it either */
        int same = 1;
        pf_status cs = pf__szcomp_same(c, si, gi, size, flt, &same);
        if (cs == PF_OUT_OF_MEMORY) return s->status = cs;
        if (!same) {
            if (!pf__nodes_set(&c->nodes, si, 0.0, 0)) return s->status = PF_OUT_OF_MEMORY;
            return finish(c, PF_NO_PATH);
        }
    }

    if (s->d.algo == PF_ALGO_JPS || s->d.algo == PF_ALGO_JPS_PLUS) {
        st = cells_only ? PF_UNSUPPORTED : pf__jps_begin(c);
        if (st != PF_UNSUPPORTED) return s->status = st;
        s->d.algo = s->st.algo = PF_ALGO_ASTAR; /* fall back, and say so in the stats */
        s->st.detail |= PF_DETAIL_FALLBACK;
        /* answered as --algo astar would answer it, expansions included (pf_search.h: a limited
         * partial answer is A*'s where JPS was asked): with the built-in heuristics reopening
         * fires only on rounding (sums of sqrt 2 in two orders); it made 35% more expansions on
         * nighthaven under a filter (19.7 against 14.6 million), and without one a partial answer
         * under max_expansions that ended on another cell than A*'s (a review: 26 of 67,961) */
        s->reopen = user_heuristic(&s->d);
        s->d.weight = 1.0;
        s->hmul = s->hadm;
        s->st.reopened = 0;
    }

    if (!tree && !partial && !flt && m->kind == PF_MAP_GRID && m->cls[si] != m->cls[gi]) {
        /* different terrain classes never connect: answer without searching */
        if (!pf__nodes_set(&c->nodes, si, 0.0, 0)) return s->status = PF_OUT_OF_MEMORY;
        return finish(c, PF_NO_PATH);
    }
    if (!tree && !partial && !flt && m->kind == PF_MAP_GRID && m->comp && pf__grid_comp(m, si) != pf__grid_comp(m, gi)) {
        if (!pf__nodes_set(&c->nodes, si, 0.0, 0)) return s->status = PF_OUT_OF_MEMORY;
        return finish(c, PF_NO_PATH);
    }
    if (s->d.algo == PF_ALGO_AUTO) { /* the accelerator picked */
        s->st.detail |= PF_DETAIL_ACCEL;
        st = pf__accel_begin(c);
        return s->status = st == PF_UNSUPPORTED ? accel_fall_back(c) : st;
    }
    if (c->parent) c->parent[si] = PF_NODE_NONE;
    if (s->d.algo == PF_ALGO_THETA) {
        /* any-angle parents: 4 bytes a cell, made once per context by its first Theta* search */
        uint32_t *ap = pf__ctx_ext(c, PF__EXT_THETA);
        if (!ap) return s->status = pf__ctx_oom_status(c, PF_OUT_OF_MEMORY);
        ap[si] = si;
    }
    int32_t x = s->gx, y = s->gy;
    if (m->kind == PF_MAP_GRID) {
        pf_point sp = pf_grid_point(m, start);
        x = sp.x;
        y = sp.y;
    }
    if (!pf__bf_root(c, si, 0, h_any(c, si, x, y))) return s->status = PF_OUT_OF_MEMORY;
    return s->status = PF_IN_PROGRESS;
}

/* The query begins again in the same call, `pick` set while it begins (it steers AUTO's choice),
 * as asked (what was asked stays, so a restart after a later edit is AUTO's again). The work
 * already spent counts, in the stats and in a trace, whose first nodes stay in front (the begin
 * empties it; the web demo checks a trace's length against the batch's expansions); `units`
 * also carries the units paid (s->work). */
static pf_status begin_again(pf_ctx *c, void (*pick)(pf_ctx *, int), int units)
{
    const pf__search q = c->s;
    const uint32_t tlen = q.trace ? q.trace->len : 0;
    const uint32_t ttotal = q.trace ? q.trace->total : 0;
    pick(c, 1);
    pf_status st = begin_on(c, q.req_start, q.req_goal, q.req_has_desc ? &q.req_desc : NULL, q.req_tree);
    pick(c, 0);
    if (c->s.trace && c->s.trace == q.trace) {
        c->s.trace->len = tlen;
        c->s.trace->total = ttotal;
    }
    c->s.st.expanded += q.st.expanded;
    c->s.st.pushed += q.st.pushed;
    if (units) c->s.work += q.work;
    return st;
}

/* The accelerator of an edited map could not prove its answer (accel/accel_diff.c): AUTO begins
 * again without it (JPS), with PF_DETAIL_ACCEL_EDITED; the trace holds the accelerator's nodes,
 * then JPS's (total == expanded + 1), and its path's units count (owed none: pf__accel_step
 * answers once they are paid). */
static pf_status accel_fall_back(pf_ctx *c) { return begin_again(c, pf__accel_refuse, 1); }

/* AUTO's short move ran past its A*'s cap (pf__auto_pick): the query begins again, the accelerator
 * picked; PF_DETAIL_SHORT stays set beside PF_DETAIL_ACCEL, and the trace holds A*'s nodes, then
 * the accelerator's. */
static pf_status give_up_short(pf_ctx *c) { return begin_again(c, pf__auto_long_only, 0); }

/* Search calls hold the map (pf__map_enter): an edit cannot start under them, nor they under an edit. */
static pf_status begin(pf_ctx *c, uint32_t start, uint32_t goal, const pf_search_desc *desc, int tree)
{
    if (!c) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(c, PF__TAG_CTX, "pf_ctx");
    if (!pf__map_enter(c->map, &c->user)) return PF_MAP_BUSY;
    pf_status st = begin_on(c, start, goal, desc, tree);
    pf__map_leave(&c->user);
    return st;
}

pf_status pf_search_begin(pf_ctx *ctx, uint32_t start, uint32_t goal, const pf_search_desc *desc)
{
    return begin(ctx, start, goal, desc, 0);
}

pf_status pf_search_step(pf_ctx *ctx, uint32_t max_expansions)
{
    PF__CHECK_HANDLE(ctx, PF__TAG_CTX, "pf_ctx");
    if (!ctx || ctx->s.active == PF__SEARCH_NONE) return PF_INVALID_ARGUMENT;
    pf__search *s = &ctx->s;
    if (s->status != PF_IN_PROGRESS) return s->status;
    if (!pf__map_enter(ctx->map, &ctx->user)) return PF_MAP_BUSY;
    pf_status st = PF_IN_PROGRESS;
    if (PF__UNLIKELY(s->version != ctx->map->version)) {
        /* the map was edited while this search was suspended: never a mix of two versions, the
         * search starts again on the new one (its endpoints may now be blocked) */
        pf__search q = *s;
        st = begin_on(ctx, q.req_start, q.req_goal, q.req_has_desc ? &q.req_desc : NULL, q.req_tree);
    }
    uint32_t budget = max_expansions ? max_expansions : UINT32_MAX;
    for (;;) {
        if (st == PF_IN_PROGRESS && s->d.algo == PF_ALGO_AUTO) {
            /* sliced as any search: PF_IN_PROGRESS after exactly `budget` units (accel_query.c) */
            const uint64_t u0 = pf__ctx_units(ctx);
            st = pf__accel_step(ctx, budget);
            if (st == PF_UNSUPPORTED) {
                /* unproven on the edited map: JPS begins, and runs below within what is left */
                const uint64_t used = pf__ctx_units(ctx) - u0;
                st = accel_fall_back(ctx);
                if (budget != UINT32_MAX) {
                    if (used >= budget) break;
                    budget -= (uint32_t)used;
                }
            } else {
                st = finish(ctx, st);
                break; /* answered, or in progress: the budget is spent */
            }
        }
        if (st != PF_IN_PROGRESS) break;
        uint32_t e0 = s->st.expanded;
        if ((s->d.algo == PF_ALGO_JPS || s->d.algo == PF_ALGO_JPS_PLUS)) st = pf__jps_step(ctx, budget);
        else st = pick_runner(ctx)(ctx, budget);
        st = finish(ctx, st);
        if (st != PF_LIMIT_REACHED || !s->short_cap) break;
        /* the rest of this call's budget goes to what answers instead (at least one expansion:
         * 0 would mean no limit) */
        uint32_t used = s->st.expanded - e0;
        if (budget != UINT32_MAX) budget = used < budget ? budget - used : 1u;
        st = give_up_short(ctx);
    }
    pf__map_leave(&ctx->user);
    return st;
}

/* The argument (A* on a grid): an edit changes the moves out of a node only if it changes a cell
 * within a unit's reach of it (the cells its footprint enters, and the corners a diagonal step
 * must keep clear). When no record of the search, closed or open, lies within that reach of a
 * changed cell, the moves out of every closed node, and so every g and parent, are those of the
 * new cells; a shortest path on the new cells that improves on a closed node's g would enter the
 * changed area through a node the search never generated, after an open one: the usual A*
 * invariant holds on the new version. Only plain searches are carried: JPS and the accelerator
 * scan cells they never record, a partial search's targets and a sized unit's filtered blocks
 * were read from the old cells, a user heuristic may be inconsistent, and Theta* looks far. */
int pf__ctx_carry_search(pf_ctx *ctx, const pf__edit_view *e)
{
    const pf_map *m = ctx->map;
    pf__search *s = &ctx->s;
    if (m->kind != PF_MAP_GRID || s->active == PF__SEARCH_NONE || s->status != PF_IN_PROGRESS) return 0;
    if (s->d.algo != PF_ALGO_ASTAR && s->d.algo != PF_ALGO_DIJKSTRA) return 0;
    if (s->greedy || s->unit || s->reopen || s->tree || s->back || s->partial || s->aimed || s->trace ||
        s->d.heuristic == PF_HEUR_CALLBACK || s->d.heuristic == PF_HEUR_MAX ||
        (s->size > 1 && s->d.filter))
        return 0;
    if (s->version + 1u != e->version) return 0; /* one edit at a time, from the version it searched */
    /* The heuristic is scaled by the smallest step multiplier when the search began (hadm): an edit
     * that lowered it anywhere, however far from the records, makes h overestimate on the new cells
     * (and max_cost prune paths it must not): a cheap road laid across the map gave a carried A*
     * 357.47 where the shortest was 357.10. */
    if (m->min_cost * (s->d.filter ? pf__filter_min_mult(s->d.filter) : 1.0) < s->hadm) return 0;
    const int32_t r = (int32_t)s->size + 1, w = (int32_t)m->width, h = (int32_t)m->height;
    for (uint32_t k = 0; k < e->count; k++) {
        const pf_rect *q = &e->rects[k];
        int32_t x0 = q->x - r, y0 = q->y - r, x1 = q->x + (int32_t)q->w + r, y1 = q->y + (int32_t)q->h + r;
        /* a goal the edit reaches may no longer be one the unit can stand on: a new query says so
         * (PF_INVALID_GOAL) where the carried search would flood its component */
        if (s->gx >= x0 && s->gx < x1 && s->gy >= y0 && s->gy < y1) return 0;
        x0 = x0 < 0 ? 0 : x0;
        y0 = y0 < 0 ? 0 : y0;
        x1 = x1 > w ? w : x1;
        y1 = y1 > h ? h : y1;
        for (int32_t y = y0; y < y1; y++)
            for (int32_t x = x0; x < x1; x++)
                if (pf__nodes_live(&ctx->nodes, pf__grid_pad(m, (uint32_t)(y * w + x)))) return 0;
    }
    s->version = e->version;
    return 1;
}

/* Walks parents from `idx` back to the start; returns the inner index of the parent. */
static uint32_t parent_of(const pf_ctx *c, uint32_t idx)
{
    const pf_map *m = c->map;
    if (m->kind == PF_MAP_GRAPH) return c->parent[idx];
    if (c->s.d.algo == PF_ALGO_THETA) return ((const uint32_t *)pf__ctx_ext_get(c, PF__EXT_THETA))[idx];
    uint32_t back = pf__nodes_stamp(&c->nodes, idx) >> PF__DIR_SHIFT;
    return (uint32_t)((int64_t)idx + m->nb_off[(idx / m->pw) & 1u][back]);
}

/* Walks the path found goal first (the written path jp, or the parents) and keeps every node, or
 * with `way` the goal, each cell where the direction changes and the start; writes them into
 * path [opt] start first (n_out kept, counted before) and returns how many it keeps. */
static uint32_t walk_path(const pf_ctx *c, const uint32_t *jp, uint32_t len, int way, pf_path *path, uint32_t n_out)
{
    const pf_map *m = c->map;
    if (jp && !way) {
        /* cells already (JPS, the accelerator), goal first: a reversed copy, not a branch per
         * cell (a 2,000-cell path was a tenth of an accelerated query on rooms-2000) */
        if (path && path->nodes) {
            /* through a pointer stepping down: gcc vectorises it, not the unsigned index (a maze's
             * long path is 100,000 cells) */
            uint32_t *o = path->nodes + n_out;
            for (uint32_t k = 0; k < len; k++) *--o = jp[k];
        }
        if (path && path->points)
            for (uint32_t k = 0; k < len; k++) path->points[n_out - 1u - k] = pf_grid_point(m, jp[k]);
        return len;
    }
    uint32_t i = c->s.found, n = 0, last = 0;
    int lastdir = -1;
#define PF__KEEP(o)                                                                                \
    do {                                                                                           \
        if (path) {                                                                                \
            uint32_t k_ = n_out - 1u - n;                                                          \
            if (path->nodes) path->nodes[k_] = (o);                                                \
            if (path->points) path->points[k_] = pf_grid_point(m, (o));                            \
        }                                                                                          \
        n++;                                                                                       \
    } while (0)
    for (uint32_t k = 0; k < len; k++) {
        uint32_t o = jp ? jp[k] : pf__map_outer(m, i);
        if (!jp && k + 1u < len) i = parent_of(c, i);
        if (!way || k == 0) {
            PF__KEEP(o);
        } else {
            /* `last` turns when the step into it and the step out of it differ */
            int32_t dx = (int32_t)(o % m->width) - (int32_t)(last % m->width);
            int32_t dy = (int32_t)(o / m->width) - (int32_t)(last / m->width);
            int dir = (dx + 1) * 3 + (dy + 1);
            if (k >= 2 && dir != lastdir) PF__KEEP(last);
            lastdir = dir;
            if (k + 1u == len) PF__KEEP(o);
        }
        last = o;
    }
#undef PF__KEEP
    return n;
}

pf_status pf_search_path(pf_ctx *ctx, pf_path *path, pf_stats *stats)
{
    PF__CHECK_HANDLE(ctx, PF__TAG_CTX, "pf_ctx");
    if (!ctx || ctx->s.active == PF__SEARCH_NONE) return PF_INVALID_ARGUMENT;
    pf__search *s = &ctx->s;
    const pf_map *m = ctx->map;
    pf_status st = s->status;
    if (st == PF_IN_PROGRESS) return PF_IN_PROGRESS;
    if (s->version != m->version) return PF_MAP_CHANGED; /* its cells and costs are gone */
    int jps = s->d.algo == PF_ALGO_JPS || s->d.algo == PF_ALGO_JPS_PLUS;
    int accel = s->d.algo == PF_ALGO_AUTO; /* still AUTO after begin: the accelerator answered */
    uint32_t len = 0;
    double cost = s->st.cost;
    /* BFS orders by steps, so g is not the cost. After a reopening (inconsistent heuristic) a node's
     * g can be older than its parent's improved g, so g at the goal can exceed the cost of the path
     * the parents now describe (found by fuzz_search). Both report the cost of the path returned. */
    int recost = s->unit || s->st.reopened;
    const uint32_t *jp = NULL; /* JPS and the accelerator wrote their path out already: no walk by cell */
    const int got = st == PF_OK || st == PF_PARTIAL; /* a path to read back */
    if ((jps || accel) && st == PF_OK && s->found != PF_NODE_NONE) {
        jp = accel ? pf__accel_path(ctx, &len) : pf__jps_path(ctx, &len);
        if (recost) {
            double sum = 0.0;
            for (uint32_t k = 0; k + 1 < len; k++) {
                uint32_t diff = jp[k] > jp[k + 1] ? jp[k] - jp[k + 1] : jp[k + 1] - jp[k];
                sum += diff != 1 && diff != m->width ? PF__SQRT2 : 1.0; /* JPS: uniform 8-connected grids */
            }
            cost = sum;
        }
    } else if (got && s->found != PF_NODE_NONE) {
        len = 1;
        double sum = 0.0;
        for (uint32_t i = s->found; i != s->start; len++) {
            uint32_t p = parent_of(ctx, i);
            if (recost) {
                if (m->kind == PF_MAP_GRAPH) {
                    const uint32_t *off = s->d.reverse ? m->roff : m->off;
                    const uint32_t *dst = s->d.reverse ? m->rdst : m->dst;
                    const double *w = s->d.reverse ? m->rw : m->w;
                    double best = INFINITY;
                    for (uint32_t e = off[p]; e < off[p + 1]; e++)
                        if (dst[e] == i && w[e] < best) best = w[e];
                    sum += best;
                } else {
                    uint32_t diff = i > p ? i - p : p - i;
                    double base = (m->moves != PF_MOVES_HEX && diff != 1 && diff != m->pw) ? PF__SQRT2 : 1.0;
                    sum += base * (m->cost ? (double)m->cost[i] : 1.0) *
                           (s->d.filter ? pf__filter_mult(s->d.filter, m->cls[i]) : 1.0);
                }
            }
            i = p;
        }
        if (recost) cost = sum;
    }
    /* a tree or a flow field has no goal, so no path and no cost to overflow: its status stands */
    if (st == PF_OK && s->found != PF_NODE_NONE && !(cost <= DBL_MAX)) {
        /* Weights near DBL_MAX (possible through pf_graph_create) sum to infinity: the path exists
         * but has no cost to report, so it is an error rather than an answer with cost inf. */
        st = s->status = PF_COST_OVERFLOW;
        len = 0;
    }
    /* with waypoints, only the cells where the path turns (and its ends) are written */
    int way = s->d.waypoints && m->kind == PF_MAP_GRID && len > 2 && s->d.algo != PF_ALGO_THETA;
    uint32_t n_out = way ? walk_path(ctx, jp, len, 1, NULL, 0) : len;
    if (stats) {
        *stats = s->st;
        stats->cost = st == PF_OK || st == PF_PARTIAL ? cost : INFINITY;
        stats->path_len = n_out;
    }
    if (path) {
        path->len = n_out;
        if (n_out > path->capacity && (path->nodes || path->points)) return PF_BUFFER_TOO_SMALL;
        if (n_out && (path->nodes || path->points)) walk_path(ctx, jp, len, way, path, n_out);
    }
    return st;
}

pf_status pf_search(pf_ctx *ctx, uint32_t start, uint32_t goal, const pf_search_desc *desc,
                    pf_path *path, pf_stats *stats)
{
    pf_status st = begin(ctx, start, goal, desc, 0);
    if (st == PF_IN_PROGRESS) st = pf_search_step(ctx, 0);
    if (pf_failed(st) && st != PF_OUT_OF_MEMORY) {
        if (stats) *stats = (pf_stats){.cost = INFINITY};
        if (path) path->len = 0;
        return st;
    }
    return pf_search_path(ctx, path, stats);
}

pf_status pf__flow_begin(pf_ctx *ctx, uint32_t goal, const pf_search_desc *desc)
{
    return begin(ctx, goal, PF_NODE_NONE, desc, 2);
}

pf_status pf_search_tree(pf_ctx *ctx, uint32_t source, const pf_search_desc *desc)
{
    pf_status st = begin(ctx, source, PF_NODE_NONE, desc, 1);
    if (st == PF_IN_PROGRESS) st = pf_search_step(ctx, 0);
    return st;
}

static const char *const ALGO_NAMES[PF_ALGO__COUNT] = {"astar", "astar", "wastar", "dijkstra",
                                                      "bfs", "greedy", "jps", "jps+", "auto", "theta"};

const char *pf_algo_name(pf_algo a) { return (unsigned)a < PF_ALGO__COUNT ? ALGO_NAMES[a] : "unknown"; }

pf_algo pf_algo_parse(const char *name)
{
    if (!name) return PF_ALGO_UNKNOWN;
    for (int a = 1; a < PF_ALGO__COUNT; a++)
        if (strcmp(name, ALGO_NAMES[a]) == 0) return (pf_algo)a;
    if (strcmp(name, "ucs") == 0) return PF_ALGO_DIJKSTRA;
    if (strcmp(name, "jpsplus") == 0) return PF_ALGO_JPS_PLUS;
    return PF_ALGO_UNKNOWN;
}
