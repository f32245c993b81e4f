/* repair.c - paths after edits (pf_repair.h): whether a unit can still follow its path, and a
 * repair of the broken stretch. The check applies the one move rule (map/grid_moves_internal.h) to
 * grid steps and the one line-of-sight test (anyangle_internal.h) to longer segments, so a path is
 * judged by exactly what the searches and the smoother that made it allowed. */
#include <math.h>
#include <string.h>
#include "search/ctx_internal.h"
#include "search/anyangle_internal.h"
#include "pathfind/pf_repair.h"

/* The direction of the grid step a -> b (padded cells), or -1 when they are not neighbours. */
static int step_dir(const pf_map *m, uint32_t a, uint32_t b)
{
    const uint32_t dirs = m->moves == PF_MOVES_HEX ? 6u : 8u;
    const int32_t *off = m->nb_off[(a / m->pw) & 1u];
    for (uint32_t d = 0; d < dirs; d++)
        if ((int64_t)a + off[d] == (int64_t)b) return (int)d;
    return -1;
}

/* A leg a -> b (padded) that repeats one step (dx, dy) of the grid's own coordinates, as
 * pf_search_desc.waypoints cuts a path (at each change of that step): its padded offset *st and
 * count *n; 0 when a and b do not line up so; 2 for a diagonal of a square grid. On hex grids a
 * run of (0, 1) or (0, -1) zigzags, each step a neighbour by its row's parity. */
static int leg_run(const pf_map *m, uint32_t a, uint32_t b, int64_t *st, uint32_t *n)
{
    const int64_t dx = (int64_t)(b % m->pw) - (int64_t)(a % m->pw), dy = (int64_t)(b / m->pw) - (int64_t)(a / m->pw);
    const int64_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
    if (!(ax == 0 || ay == 0 || ax == ay) || (ax == 0 && ay == 0)) return 0;
    *st = (dx > 0 ? 1 : dx < 0 ? -1 : 0) + (dy > 0 ? 1 : dy < 0 ? -1 : 0) * (int64_t)m->pw;
    *n = (uint32_t)(ax > ay ? ax : ay);
    return ax && ay && m->moves != PF_MOVES_HEX ? 2 : 1;
}

/* Whether the unit may go from padded a to padded b: a legal grid step, a run of one legal grid
 * step repeated (a waypoint path's leg, corners cut where the map's rule allows it), or else
 * (square grids) a segment in line of sight. a itself is known open to the unit. */
static int leg_ok(const pf_map *m, const pf__grid_view *v, uint32_t a, uint32_t b, pf__unit u)
{
    if (a == b) return 1;
    int64_t st = 0;
    uint32_t n = 0, t = 0, c = a;
    if (leg_run(m, a, b, &st, &n)) {
        for (; t < n; t++) {
            const uint32_t next = (uint32_t)((int64_t)c + st);
            const int d = step_dir(m, c, next);
            if (d < 0 || !(pf__grid_moves_view(m, v, c, u) & (1u << d))) break;
            c = next;
        }
        if (t == n) return 1;
    }
    if (m->moves == PF_MOVES_HEX) return 0;
    return v->flt ? pf__grid_los_f(v, a, b, u, 1) : pf__grid_los(v, a, b, u);
}

/* The unit a check describes, or {0} when it cannot move at all (hex grids take one-cell units);
 * under a filter its class is unused (the view's filter decides). */
static pf__unit unit_of(const pf_map *m, uint32_t first, const pf_path_check_desc *d)
{
    uint32_t size = d && d->unit_size ? d->unit_size : 1u, cls = d && d->cls ? d->cls : m->cls[first];
    if (d && d->filter) cls = pf__filter_valid(d->filter) ? 1u : 0u;
    if (size > PF_UNIT_SIZE_MAX || cls > 255u || (size > 1 && m->moves == PF_MOVES_HEX)) return (pf__unit){0, 0};
    return (pf__unit){(uint8_t)cls, (uint8_t)size};
}

/* The map as the unit under filter f [opt] reads it (no memo: a check reads the blocks). */
static pf__grid_view view_for(const pf_map *m, const pf_move_filter *f)
{
    pf__grid_view v = pf__grid_view_of(m);
    v.flt = f;
    return v;
}

/* Whether the unit may stand on padded cell a. */
static int stands(const pf__grid_view *v, uint32_t a, pf__unit u)
{
    return v->flt ? pf__cell_open_f(v, a, u, 1, 1) : pf__cell_open_sz(v, a, u, 1);
}

/* The first broken index of nodes[0..len) (PF_NODE_NONE: none); with `last`, the last one. */
static uint32_t scan(const pf_map *m, const uint32_t *nodes, uint32_t len, pf__unit u, const pf_move_filter *f,
                     int last)
{
    const uint32_t n = m->width * m->height;
    const pf__grid_view v = view_for(m, f);
    uint32_t found = PF_NODE_NONE;
    for (uint32_t i = 0; i < len; i++) {
        int ok = nodes[i] < n && u.k;
        uint32_t a = ok ? pf__grid_pad(m, nodes[i]) : 0;
        ok = ok && stands(&v, a, u);
        if (ok && i + 1 < len) ok = nodes[i + 1] < n && leg_ok(m, &v, a, pf__grid_pad(m, nodes[i + 1]), u);
        if (!ok) {
            found = i;
            if (!last) break;
        }
    }
    return found;
}

uint32_t pf_grid_path_check(const pf_map *map, const uint32_t *nodes, uint32_t len, const pf_path_check_desc *desc)
{
    if (!map || map->kind != PF_MAP_GRID || !nodes || len == 0) return PF_NODE_NONE;
    if (nodes[0] >= map->width * map->height) return 0;
    return scan(map, nodes, len, unit_of(map, pf__grid_pad(map, nodes[0]), desc), desc ? desc->filter : NULL, 0);
}

/* The least multiplier filter f puts on a step. */
static double least_mult(const pf_move_filter *f)
{
    double lo = INFINITY;
    for (uint32_t k = 1; k < 256; k++)
        if (pf__filter_allows(f, (uint8_t)k) && pf__filter_mult(f, (uint8_t)k) < lo) lo = pf__filter_mult(f, (uint8_t)k);
    return lo;
}

/* The price of a grid step into padded cell b: its base times the map's multiplier of b and the
 * filter's [opt] of b's class. A cell the filter refuses now (an edit closed it, or gave it a class
 * the unit may not enter) had some allowed class when the path was found: it is priced at the
 * least multiplier, so that the bound, which subtracts the old stretch's price, never falls short. */
static double step_cost(const pf_map *m, const pf_move_filter *f, double least, int diag, uint32_t b)
{
    double fm = !f ? 1.0 : pf__filter_allows(f, m->cls[b]) ? pf__filter_mult(f, m->cls[b]) : least;
    return (diag ? PF__SQRT2 : 1.0) * (m->cost ? (double)m->cost[b] : 1.0) * fm;
}

/* The cost of the old path's legs i .. j (as the map now prices them, for the unit under filter f
 * [opt]): a grid step as step_cost, a straight or diagonal segment (a waypoint path's) by the
 * steps along it, another segment its Euclidean length. */
static double legs_cost(const pf_map *m, const pf_move_filter *f, const uint32_t *nodes, uint32_t i, uint32_t j)
{
    double sum = 0.0;
    const double least = f ? least_mult(f) : 1.0;
    for (uint32_t k = i; k < j; k++) {
        uint32_t a = pf__grid_pad(m, nodes[k]), b = pf__grid_pad(m, nodes[k + 1]);
        int d = step_dir(m, a, b);
        if (d >= 0) {
            sum += step_cost(m, f, least, m->moves != PF_MOVES_HEX && d >= 4, b);
            continue;
        }
        int64_t st = 0;
        uint32_t n = 0;
        const int run = leg_run(m, a, b, &st, &n);
        if (run) {
            for (uint32_t c = a, t = 0; t < n; t++, c = (uint32_t)((int64_t)c + st))
                sum += step_cost(m, f, least, run == 2, (uint32_t)((int64_t)c + st));
        } else {
            sum += pf__grid_euclid(m->pw, a, b);
        }
    }
    return sum;
}

/* nodes[from..from + n) to out[at..), nodes and points: out->nodes may be the old path itself (a
 * unit's path repaired in place), so the points are made first and the nodes moved as memmove does. */
static void keep_tail(const pf_map *m, const uint32_t *nodes, uint32_t from, uint32_t n, pf_path *out, uint32_t at)
{
    if (out->points)
        for (uint32_t k = 0; k < n; k++) out->points[at + k] = pf_grid_point(m, nodes[from + k]);
    if (out->nodes && n) memmove(out->nodes + at, nodes + from, (size_t)n * sizeof *nodes);
}

/* Searches from -> to and writes its path followed by nodes[tail..len) into out. The old nodes are
 * moved into place before the new stretch is written over what may be their old place. */
static pf_status plan(pf_ctx *ctx, uint32_t from, uint32_t to, const pf_search_desc *d, const uint32_t *nodes,
                      uint32_t tail, uint32_t len, pf_path *out, pf_stats *st)
{
    pf_status s = pf_search(ctx, from, to, d, NULL, st);
    if (s != PF_OK) return s;
    const uint32_t rest = tail < len ? len - tail : 0, total = st->path_len + rest;
    out->len = total;
    if (total > out->capacity) return PF_BUFFER_TOO_SMALL;
    keep_tail(ctx->map, nodes, tail, rest, out, st->path_len);
    pf_path p = {.nodes = out->nodes, .points = out->points, .capacity = out->capacity};
    if ((s = pf_search_path(ctx, &p, NULL)) != PF_OK) return s;
    out->len = total;
    return PF_OK;
}

pf_status pf_path_repair(pf_ctx *ctx, const uint32_t *nodes, uint32_t len, uint32_t at, const pf_search_desc *desc,
                         pf_path *out, pf_repair_info *info)
{
    pf_repair_info in = {.broken = PF_NODE_NONE, .rejoin = at};
    if (info) *info = in;
    if (!ctx || !nodes || !out || at >= len || (out->capacity && !out->nodes && !out->points))
        return PF_INVALID_ARGUMENT;
    const pf_map *m = ctx->map;
    if (m->kind != PF_MAP_GRID) return PF_INVALID_ARGUMENT;
    const uint32_t n = m->width * m->height;
    for (uint32_t i = at; i < len; i++)
        if (nodes[i] >= n) return PF_INVALID_ARGUMENT;
    pf_search_desc d = desc ? *desc : (pf_search_desc){0};
    d.partial = 0;
    d.waypoints = 0;
    /* a desc the search would refuse is refused as it would be, before the unit is read: a size
     * past PF_UNIT_SIZE_MAX, or above 1 on hex, is the caller's error, not a unit that cannot stand */
    const pf_search_desc rd = pf_search_desc_resolve(m, &d);
    const pf_status dst = pf__search_desc_check(m, &rd);
    if (dst != PF_OK) return dst;
    pf_path_check_desc cd = {.unit_size = d.unit_size, .filter = d.filter};
    pf__unit u = unit_of(m, pf__grid_pad(m, nodes[at]), &cd);
    if (d.filter && !u.k) return PF_INVALID_ARGUMENT; /* as pf_search refuses such a filter */
    const pf__grid_view v = view_for(m, d.filter);
    if (!u.k || !stands(&v, pf__grid_pad(m, nodes[at]), u)) return PF_INVALID_START;
    uint32_t first = scan(m, nodes + at, len - at, u, d.filter, 0);
    if (first == PF_NODE_NONE) { /* nothing broke: the path from the unit on */
        out->len = len - at;
        if (out->len > out->capacity) return PF_BUFFER_TOO_SMALL;
        keep_tail(m, nodes, at, len - at, out, 0);
        if (info) *info = in;
        return PF_OK;
    }
    in.broken = at + first;
    /* the old path ends where the unit could stand: a goal it cannot stand on now is said so, not
     * left to the search to the rejoin point (PF_NO_PATH) */
    if (!stands(&v, pf__grid_pad(m, nodes[len - 1]), u)) {
        if (info) *info = in;
        return PF_INVALID_GOAL;
    }
    /* rejoin after the last break: from there on the old path holds */
    uint32_t last = at + scan(m, nodes + at, len - at, u, d.filter, 1), j = last + 1 < len ? last + 1 : len - 1;
    in.rejoin = j;
    /* the old path joins the rejoin point to the goal, so it is reachable iff the goal is: a whole
     * new query could only find the same PF_NO_PATH, at a higher price */
    const double old_legs = legs_cost(m, d.filter, nodes, at, j); /* before out, maybe nodes, is written */
    pf_status s = plan(ctx, nodes[at], nodes[j], &d, nodes, j + 1, len, out, &in.stats);
    if (s == PF_OK) {
        double bound = in.stats.cost - old_legs;
        in.bound = bound > 0.0 ? bound : 0.0;
    }
    if (info) *info = in;
    return s;
}
