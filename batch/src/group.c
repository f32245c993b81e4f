/* group.c - shared destinations: one backward A* from the goal settles every unit's start.
 *
 * Why backward: the units share the goal, so a search rooted there builds one shortest-path tree
 * that serves all of them; 200 forward A* runs would each re-expand the corridor to the goal.
 *
 * Grid moves are symmetric (the same neighbour tests, including the no-corner-cutting side cells,
 * allow u -> v and v -> u), but the forward step u -> v costs base * cost[v], the multiplier of the
 * cell entered. Expanding v backwards therefore charges cost[v] (the expanded node) to reach its
 * neighbour u, never cost[u].
 *
 * The heuristic is the map's metric (octile, or Manhattan on 4-connected grids) to the bounding box
 * of the starts, scaled by the smallest multiplier: a distance to a convex set under a norm is
 * 1-Lipschitz, so it is consistent and no node is ever reopened. The search stops once every start
 * is settled; a settled node's parent never changes again, so the paths do not depend on where it
 * stops (only on the goal, the options and the set of starts).
 *
 * Each unit's cost is re-summed forward along its path, in the order a forward A* adds the steps,
 * so a path the two searches share gets bit-identical costs.
 */
#include <math.h>
#include <string.h>
#include "batch_internal.h"
#include "search/heap_internal.h"
#include "search/metric_internal.h"


int pf__group_eligible(const pf_map *m, const pf_search_desc *rd)
{
    if (m->kind != PF_MAP_GRID || m->moves == PF_MOVES_HEX) return 0;
    if (rd->algo != PF_ALGO_ASTAR && rd->algo != PF_ALGO_DIJKSTRA) return 0;
    if (rd->waypoints) return 0; /* a group writes whole paths */
    if (rd->max_expansions || rd->max_cost != 0.0 || rd->trace || rd->reverse) return 0;
    if (rd->tie != PF_TIE_DEEPER) return 0;
    pf_heur def = m->moves == PF_MOVES_4 ? PF_HEUR_MANHATTAN : PF_HEUR_OCTILE;
    return rd->heuristic == def || rd->heuristic == PF_HEUR_ZERO;
}

/* ---- search ---------------------------------------------------------------------------------- */

static double h_box(const pf__job *j, int32_t x, int32_t y, int four)
{
    int32_t dx = x < j->bx0 ? j->bx0 - x : (x > j->bx1 ? x - j->bx1 : 0);
    int32_t dy = y < j->by0 ? j->by0 - y : (y > j->by1 ? y - j->by1 : 0);
    return pf__grid_metric(four ? PF_HEUR_MANHATTAN : PF_HEUR_OCTILE, dx, dy);
}

/* Number of members whose start is `node` (members are sorted by start). */
static uint32_t starts_at(const pf_batch *b, const pf__job *j, uint32_t node)
{
    const uint32_t *mem = &b->members[j->first];
    uint32_t lo = 0, hi = j->count;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (b->q[mem[mid]].q.start < node) lo = mid + 1;
        else hi = mid;
    }
    uint32_t n = 0;
    while (lo + n < j->count && b->q[mem[lo + n]].q.start == node) n++;
    return n;
}

static const int8_t DX8[8] = {0, 1, 0, -1, 1, 1, -1, -1};
static const int8_t DY8[8] = {-1, 0, 1, 0, -1, 1, 1, -1};

pf_status pf__group_step(pf_batch *b, pf__job *j, pf_ctx *c, uint32_t budget, int begin)
{
    const pf_map *m = b->map;
    const pf_search_desc *rd = &b->q[j->query].rd;
    const int four = m->moves == PF_MOVES_4, cut = m->moves == PF_MOVES_8_CUT;
    const double hmul = rd->heuristic == PF_HEUR_ZERO ? 0.0 : m->min_cost;
    const uint8_t *cls = m->cls;
    const float *cost = m->cost;
    const uint32_t pw = m->pw;
    const int32_t *off = m->nb_off[0];
    pf__search *s = &c->s;

    if (begin) {
        /* The context's own search state is reset so pf_ctx_* accessors report nothing stale. */
        memset(s, 0, sizeof *s);
        s->found = PF_NODE_NONE;
        s->status = PF_IN_PROGRESS;
        pf__ctx_next_gen(c);
        c->hsize = 0;
        j->settled = 0;
        uint32_t gi = pf__map_inner(m, b->q[j->query].q.goal);
        pf_point gp = pf_grid_point(m, b->q[j->query].q.goal);
        c->stamp[gi] = c->gen;
        c->g[gi] = 0.0;
        double h = h_box(j, gp.x, gp.y, four);
        s->st.pushed = 1;
        return pf__heap_push(c, gi, hmul * h, pf__tie_deeper(h)) ? PF_IN_PROGRESS : PF_OUT_OF_MEMORY;
    }
    if (budget == 0) budget = UINT32_MAX;
    while (c->hsize) {
        if (budget-- == 0) return PF_IN_PROGRESS;
        uint32_t cur = pf__heap_pop_close(c);
        const int32_t py = (int32_t)(cur / pw), px = (int32_t)(cur - (uint32_t)py * pw);
        const int32_t x = px - 1, y = py - 1;
        if (x >= j->bx0 && x <= j->bx1 && y >= j->by0 && y <= j->by1) {
            j->settled += starts_at(b, j, pf__grid_unpad(m, cur));
            if (j->settled == j->count) return PF_OK;
        }
        s->st.expanded++;
        const double gc = c->g[cur];
        const uint8_t k = cls[cur];
        const double into = cost ? (double)cost[cur] : 1.0; /* forward steps end in `cur` */
        uint32_t open = 0;
        if (cls[cur - pw] == k) open |= 1u;
        if (cls[cur + 1] == k) open |= 2u;
        if (cls[cur + pw] == k) open |= 4u;
        if (cls[cur - 1] == k) open |= 8u;
        if (cut) {
            if (cls[cur - pw + 1] == k) open |= 16u;
            if (cls[cur + pw + 1] == k) open |= 32u;
            if (cls[cur + pw - 1] == k) open |= 64u;
            if (cls[cur - pw - 1] == k) open |= 128u;
        } else if (!four) {
            if ((open & 3u) == 3u && cls[cur - pw + 1] == k) open |= 16u;
            if ((open & 6u) == 6u && cls[cur + pw + 1] == k) open |= 32u;
            if ((open & 12u) == 12u && cls[cur + pw - 1] == k) open |= 64u;
            if ((open & 9u) == 9u && cls[cur - pw - 1] == k) open |= 128u;
        }
        while (open) {
            uint32_t d = (uint32_t)__builtin_ctz(open);
            open &= open - 1u;
            uint32_t nb = (uint32_t)((int32_t)cur + off[d]);
            double ng = gc + (d < 4 ? 1.0 : PF__SQRT2) * into;
            uint32_t back = (d ^ 2u) << PF__DIR_SHIFT; /* from nb towards the goal */
            if ((c->stamp[nb] & PF__GEN_MASK) != c->gen) {
                double h = h_box(j, x + DX8[d], y + DY8[d], four);
                c->stamp[nb] = c->gen | back;
                c->g[nb] = ng;
                s->st.pushed++;
                if (!pf__heap_push(c, nb, ng + hmul * h, pf__tie_deeper(h))) return PF_OUT_OF_MEMORY;
            } else if (ng < c->g[nb] && !(c->stamp[nb] & PF__CLOSED_BIT)) {
                double h = h_box(j, x + DX8[d], y + DY8[d], four);
                c->stamp[nb] = c->gen | back;
                c->g[nb] = ng;
                pf__hentry e = pf__hentry_make(ng + hmul * h, pf__tie_deeper(h), nb);
                pf__sift_up(c, c->hpos[nb], e);
            }
        }
    }
    return PF_NO_PATH; /* unreachable for members vetted by the planner; reported per member */
}

void pf__group_results(pf_batch *b, pf__job *j, pf_ctx *c, pf_status st, pf__arena *arena)
{
    const pf_map *m = b->map;
    const uint32_t gi = pf__map_inner(m, b->q[j->query].q.goal);
    const int32_t *off = m->nb_off[0];
    for (uint32_t k = 0; k < j->count; k++) {
        pf__bquery *e = &b->q[b->members[j->first + k]];
        pf_batch_result *r = &e->res;
        r->flags |= PF_BATCH_RESULT_GROUPED | (j->sliced ? PF_BATCH_RESULT_SLICED : 0u);
        r->stats = c->s.st;
        r->stats.cost = INFINITY;
        r->stats.path_len = 0;
        r->path = NULL;
        r->path_len = 0;
        uint32_t si = pf__map_inner(m, e->q.start);
        int settled = (c->stamp[si] & PF__GEN_MASK) == c->gen && (c->stamp[si] & PF__CLOSED_BIT);
        if (pf_failed(st) || !settled) {
            r->status = pf_failed(st) ? st : PF_NO_PATH;
            continue;
        }
        uint32_t len = 1;
        for (uint32_t i = si; i != gi && len <= m->count; len++)
            i = (uint32_t)((int64_t)i + off[c->stamp[i] >> PF__DIR_SHIFT]);
        uint32_t *nodes = pf__arena_alloc(arena, (size_t)len * sizeof *nodes, sizeof *nodes);
        if (!nodes) {
            r->status = PF_OUT_OF_MEMORY;
            continue;
        }
        double g = 0.0;
        uint32_t i = si;
        nodes[0] = e->q.start;
        for (uint32_t t = 1; t < len; t++) {
            uint32_t nx = (uint32_t)((int64_t)i + off[c->stamp[i] >> PF__DIR_SHIFT]);
            uint32_t diff = nx > i ? nx - i : i - nx;
            double base = (diff == 1u || diff == m->pw) ? 1.0 : PF__SQRT2;
            g += base * (m->cost ? (double)m->cost[nx] : 1.0);
            nodes[t] = pf__grid_unpad(m, nx);
            i = nx;
        }
        r->status = PF_OK;
        r->stats.cost = g;
        r->stats.path_len = len;
        r->path = nodes;
        r->path_len = len;
    }
}
