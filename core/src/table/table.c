/* table.c - first-move tables: rows from full Dijkstra searches, queries, incremental update.
 *
 * ROW OF s. pf_search_tree(s) settles nodes in non-decreasing cost g (its trace gives the order).
 * A post-pass then computes, for every settled t, hop[t] = fewest arcs among cheapest paths and
 * first[t] = smallest out-arc index of s that starts a cheapest, fewest-arc path:
 *     over in-arcs (x -> t, c) with g[x] + c == g[t] (exactly as the search added them),
 *     candidate (hop[x] + 1, x == s ? index of that arc : first[x]); keep the smallest pair.
 * Preds with g[x] < g[t] are final when t is reached in settle order. Preds with g[x] == g[t] (zero
 * or rounded-away arcs) may come later, so such runs of equal g are iterated to a fixpoint. We do
 * not walk the search's parent pointers: they depend on the heap's order among ties, which an edit
 * elsewhere in the graph can perturb; the rule above depends only on the map, which the
 * incremental update needs (below), and it makes tables identical for any thread count.
 *
 * WHY THE UPDATE IS COMPLETE. Write K_v(t) = (cost, hops) of v's best paths to t, compared
 * lexicographically, and F_v(t) its entry: the smallest arc k = (v -> w, c) of v with
 * (c + cost_w(t), 1 + hops_w(t)) == K_v(t). So a row is a function of the node's arcs and its
 * successors' K rows. Let S be the nodes whose out-arcs differ between old and new map (seeds).
 * Claim: if v is not in S and (K_v(t), F_v(t)) changes, some successor x has K_x(t) changed, and
 *   (i)   if K_v(t) improved: x = new F_v(t)'s target, K_x(t) improved, K'_x(t) < K'_v(t);
 *   (ii)  if K_v(t) worsened: x = old F_v(t)'s target, K_x(t) worsened, K_x(t) < K_v(t);
 *   (iii) if K_v(t) is equal but F_v(t) changed: either a candidate improved to K_v(t) (x
 *         improved) or the old choice worsened (x = old F_v(t)'s target, worsened).
 * (If no candidate improved and the old choice did not change, the minimum and its smallest
 * index stay.) An improved x falls again under (i), a worsened x under (ii), with the key
 * strictly decreasing along the chain, so the chain is finite and ends in S. The update enqueues a
 * predecessor v of an examined x exactly when x improved for some t, or worsened for some t with
 * v's old entry for t an arc to x; by induction from the seeds (examined first) backwards along
 * each chain, every node whose row changes is examined. Rows never examined keep their old
 * entries, which the claim shows are still right. v's old entry is read while v is unexamined,
 * so it is still the old one. The condition does not depend on the order nodes are examined in,
 * so processing the open list in parallel waves gives the same rows and the same counts.
 * PF_TABLE_RULE_SLIDES adds "x's next hops changed => all predecessors": a superset, still complete.
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "common/par_internal.h"
#include "table/table_internal.h"
#include "map/grid_moves_internal.h"
#include "search/ctx_internal.h"

#define PF__NOHOP UINT32_MAX

/* Grid arcs are the moves of map/grid_moves_internal.h: arc k of a cell is direction k. Every rule
 * is symmetric, so a cell's moves are also the cells that can step into it. */

/* Cost of the step from padded cell `from` in direction d, into padded cell nb. */
static double grid_step(const pf_map *m, uint32_t d, uint32_t from, uint32_t nb)
{
    return pf__grid_step(pf__mv_of(m->moves), m->cost != NULL, 0, d, m->cost, from, nb);
}

uint32_t pf__table_width_for(const pf_map *m)
{
    if (m->kind == PF_MAP_GRID) return 1;
    uint32_t maxdeg = 0;
    for (uint32_t u = 0; u < m->n; u++)
        if (m->off[u + 1] - m->off[u] > maxdeg) maxdeg = m->off[u + 1] - m->off[u];
    return maxdeg <= 254u ? 1u : maxdeg <= 65534u ? 2u : 4u;
}

uint32_t pf__table_arc_target(const pf_map *m, uint32_t u, uint32_t k)
{
    if (m->kind == PF_MAP_GRAPH) {
        if (u >= m->n || k >= m->off[u + 1] - m->off[u]) return PF_NODE_NONE;
        return m->dst[m->off[u] + k];
    }
    if (u >= m->width * m->height || k >= 8) return PF_NODE_NONE;
    uint32_t c = pf__grid_pad(m, u);
    if (!(pf__grid_moves_at(m, c) & (1u << k))) return PF_NODE_NONE;
    return pf__grid_unpad(m, (uint32_t)((int32_t)c + m->nb_off[(c / m->pw) & 1u][k]));
}

/* Cost of out-arc k of u (which must be legal). */
static double arc_cost(const pf_map *m, uint32_t u, uint32_t k)
{
    if (m->kind == PF_MAP_GRAPH) return m->w[m->off[u] + k];
    uint32_t c = pf__grid_pad(m, u);
    return grid_step(m, k, c, (uint32_t)((int32_t)c + m->nb_off[(c / m->pw) & 1u][k]));
}

/* n * n entries of `width` bytes, where that fits a size_t: on a 32-bit target (wasm32) a table of
 * 65,536 nodes at 1 byte, 46,341 at 2 or 32,768 at 4 does not, and the product wrapped to a block
 * of a byte or so that the rows were then written past. 0 when it does not fit. */
static int table_bytes(uint32_t n, uint32_t width, size_t *bytes)
{
    const uint64_t b = (uint64_t)n * n * width;
    if (b > (uint64_t)SIZE_MAX) return 0;
    *bytes = (size_t)b;
    return 1;
}

pf_status pf__table_alloc(const pf_map *map, const pf_allocator *alloc, uint32_t width, pf_table **out)
{
    *out = NULL;
    uint32_t n = pf_map_node_count(map);
    if (n == 0) return PF_INVALID_ARGUMENT;
    size_t bytes;
    if (n > PF_TABLE_MAX_NODES || !table_bytes(n, width, &bytes)) return PF_TOO_LARGE;
    pf_allocator a = pf__alloc_resolve(alloc);
    pf_table *t = pf__calloc(&a, sizeof *t, 64);
    if (!t) return PF_OUT_OF_MEMORY;
    t->alloc = a;
    t->map = map;
    t->n = n;
    t->width = width;
    t->bytes = bytes;
    t->data = pf__alloc(&a, t->bytes, 64);
    if (!t->data) {
        pf__free(&a, t, sizeof *t);
        return PF_OUT_OF_MEMORY;
    }
    *out = t;
    return PF_OK;
}

void pf_table_destroy(pf_table *t)
{
    if (!t) return;
    pf_allocator a = t->alloc;
    if (t->user.after) pf__map_detach(t->map, &t->user);
    pf_map_destroy(t->old);
    pf__free(&a, t->data, t->bytes);
    pf__free(&a, t, sizeof *t);
}

/* ---- one row ----------------------------------------------------------------------------------- */

/* One worker's scratch: a context and per-node arrays, all sized once (no allocation per row). */
typedef struct row_work {
    pf_ctx   *ctx;
    uint32_t *order;   /* [n] settle order of the last row (public ids) */
    uint32_t  len;
    double   *g;       /* [n] cost from the row's source; INFINITY when unreached */
    uint32_t *hop;     /* [n] fewest arcs among cheapest paths; PF__NOHOP when unreached */
    uint32_t *first;   /* [n] entry (arc index); meaningful where hop != PF__NOHOP */
} row_work;

static void work_free(row_work *w, const pf_allocator *a, uint32_t n)
{
    pf_ctx_destroy(w->ctx);
    pf__free(a, w->order, (size_t)n * sizeof(uint32_t));
    pf__free(a, w->g, (size_t)n * sizeof(double));
    pf__free(a, w->hop, (size_t)n * sizeof(uint32_t));
    pf__free(a, w->first, (size_t)n * sizeof(uint32_t));
    memset(w, 0, sizeof *w);
}

static pf_status work_init(row_work *w, const pf_map *m, const pf_allocator *a)
{
    uint32_t n = pf_map_node_count(m);
    memset(w, 0, sizeof *w);
    /* An open list as large as the node count never has to grow: a row cannot fail half-way. */
    pf_status st = pf_ctx_create(m, &(pf_ctx_desc){.allocator = *a, .heap_capacity = n + 1}, &w->ctx);
    if (st == PF_OK) w->ctx->user.internal = 1; /* rows may be built inside an edit (pf__table_follow) */
    w->order = pf__alloc(a, (size_t)n * sizeof(uint32_t), 64);
    w->g = pf__alloc(a, (size_t)n * sizeof(double), 64);
    w->hop = pf__alloc(a, (size_t)n * sizeof(uint32_t), 64);
    w->first = pf__alloc(a, (size_t)n * sizeof(uint32_t), 64);
    if (st != PF_OK || !w->order || !w->g || !w->hop || !w->first) {
        work_free(w, a, n);
        return st != PF_OK ? st : PF_OUT_OF_MEMORY;
    }
    for (uint32_t v = 0; v < n; v++) {
        w->g[v] = INFINITY;
        w->hop[v] = PF__NOHOP;
    }
    return PF_OK;
}

/* Offers t the candidate (h, f); returns 1 when it was better. */
static inline int offer(row_work *w, uint32_t t, uint32_t h, uint32_t f)
{
    if (h < w->hop[t] || (h == w->hop[t] && f < w->first[t])) {
        w->hop[t] = h;
        w->first[t] = f;
        return 1;
    }
    return 0;
}

/* Index of s's out-arc to t of weight c (smallest such index). */
static uint32_t graph_arc_index(const pf_map *m, uint32_t s, uint32_t t, double c)
{
    for (uint32_t e = m->off[s]; e < m->off[s + 1]; e++)
        if (m->dst[e] == t && m->w[e] == c) return e - m->off[s];
    return PF__NOHOP; /* unreachable: the in-arc exists */
}

/* Relaxes t from its tight predecessors. `same` = 0: preds with smaller g (sets *zero when a tight
 * pred has equal g); `same` = 1: preds with equal g. Returns 1 when t improved. */
static int relax_in(row_work *w, const pf_map *m, uint32_t s, uint32_t t, int same, int *zero)
{
    const double gt = w->g[t];
    int better = 0;
    if (m->kind == PF_MAP_GRAPH) {
        for (uint32_t e = m->roff[t]; e < m->roff[t + 1]; e++) {
            uint32_t x = m->rdst[e];
            double gx = w->g[x];
            if (gx + m->rw[e] != gt) continue; /* not tight (or x unreached: INFINITY) */
            if ((gx == gt) != same) {
                if (!same) *zero = 1;
                continue;
            }
            if (w->hop[x] == PF__NOHOP) continue;
            uint32_t f = x == s ? graph_arc_index(m, s, t, m->rw[e]) : w->first[x];
            better |= offer(w, t, w->hop[x] + 1, f);
        }
        return better;
    }
    uint32_t c = pf__grid_pad(m, t);
    uint32_t open = pf__grid_moves_at(m, c);
    const int32_t *off = m->nb_off[(c / m->pw) & 1u];
    while (open) {
        uint32_t d = pf__ctz32(open);
        open &= open - 1u;
        uint32_t xc = (uint32_t)((int32_t)c + off[d]);
        uint32_t x = pf__grid_unpad(m, xc);
        uint32_t back = pf__mv_back(pf__mv_of(m->moves), d); /* direction of the move x -> t */
        double gx = w->g[x];
        if (gx + grid_step(m, back, xc, c) != gt) continue;
        if ((gx == gt) != same) {
            if (!same) *zero = 1;
            continue;
        }
        if (w->hop[x] == PF__NOHOP) continue;
        better |= offer(w, t, w->hop[x] + 1, x == s ? back : w->first[x]);
    }
    return better;
}

/* Computes the row of s into w (g, hop, first over w->order). */
static pf_status row_compute(row_work *w, const pf_map *m, uint32_t s)
{
    for (uint32_t i = 0; i < w->len; i++) { /* forget the previous row */
        w->g[w->order[i]] = INFINITY;
        w->hop[w->order[i]] = PF__NOHOP;
    }
    w->len = 0;
    uint32_t n = pf_map_node_count(m);
    pf_trace tr = {.nodes = w->order, .capacity = n};
    pf_ctx_use_trace(w->ctx, &tr);
    pf_status st = pf_search_tree(w->ctx, s, NULL);
    pf_ctx_use_trace(w->ctx, NULL);
    if (st == PF_INVALID_START) return PF_OK; /* blocked grid cell: an empty row */
    if (st != PF_OK) return pf_failed(st) ? st : PF_OUT_OF_MEMORY;
    w->len = tr.len;
    for (uint32_t i = 0; i < w->len; i++) {
        uint32_t v = w->order[i];
        w->g[v] = pf_ctx_cost(w->ctx, v);
        w->hop[v] = PF__NOHOP;
        w->first[v] = PF_TABLE_NO_ROUTE;
    }
    w->hop[s] = 0;
    w->first[s] = PF_TABLE_AT_GOAL;
    for (uint32_t i = 0; i < w->len;) {
        uint32_t j = i;
        double gi = w->g[w->order[i]];
        while (j < w->len && w->g[w->order[j]] == gi) j++;
        int zero = 0;
        for (uint32_t k = i; k < j; k++)
            if (w->order[k] != s) relax_in(w, m, s, w->order[k], 0, &zero);
        /* equal-cost predecessors (zero-weight arcs): Bellman-Ford on hops within the run */
        for (int again = zero; again;) {
            again = 0;
            for (uint32_t k = i; k < j; k++)
                if (w->order[k] != s && relax_in(w, m, s, w->order[k], 1, &zero)) again = 1;
        }
        i = j;
    }
    return PF_OK;
}

/* Writes w's row as table entries (width bytes each). */
static void row_emit(const row_work *w, uint8_t *row, uint32_t n, uint32_t width, uint32_t s)
{
    memset(row, 0xFF, (size_t)n * width); /* all ones = no route, in every width */
    for (uint32_t i = 0; i < w->len; i++) {
        uint32_t t = w->order[i];
        if (t != s && w->hop[t] != PF__NOHOP) pf__tab_store(row, width, t, w->first[t]);
    }
    if (w->len) pf__tab_store(row, width, s, pf__tab_self(width));
}

/* ---- build --------------------------------------------------------------------------------------- */

static pf_status works_create(row_work **out, uint32_t nt, const pf_map *m, const pf_allocator *a)
{
    row_work *ws = pf__calloc(a, (size_t)nt * sizeof *ws, 64);
    *out = ws;
    if (!ws) return PF_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < nt; i++) {
        pf_status st = work_init(&ws[i], m, a);
        if (st != PF_OK) return st;
    }
    return PF_OK;
}

static void works_destroy(row_work *ws, uint32_t nt, const pf_allocator *a, uint32_t n)
{
    if (!ws) return;
    for (uint32_t i = 0; i < nt; i++) work_free(&ws[i], a, n);
    pf__free(a, ws, (size_t)nt * sizeof *ws);
}

typedef struct rows_job {
    const pf_map        *map;
    pf_table            *t;
    row_work            *ws;
    const pf_table_desc *d;
    int                  failed;
    uint32_t             done;
} rows_job;

/* Rows are independent and each is a function of the map alone, so any split gives the same
 * bytes. Progress is reported by worker 0 only: the callback need not be thread-safe. */
static void rows_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    rows_job *j = ctx;
    row_work *w = &j->ws[worker];
    const uint32_t n = j->t->n;
    for (uint64_t u = begin; u < end; u++) {
        if (pf__atomic_load_int(&j->failed)) return;
        if (row_compute(w, j->map, (uint32_t)u) != PF_OK) {
            pf__atomic_store_int(&j->failed, 1);
            return;
        }
        row_emit(w, j->t->data + (size_t)u * n * j->t->width, n, j->t->width, (uint32_t)u);
        uint32_t now = pf__atomic_add_u32(&j->done, 1u) + 1u;
        if (worker == 0 && j->d->progress && (now & 63u) == 0) j->d->progress(now, n, j->d->progress_user);
    }
}

pf_status pf_table_create(const pf_map *map, const pf_table_desc *desc, pf_table **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    if (!map) return PF_INVALID_ARGUMENT;
    pf_table_desc d = desc ? *desc : (pf_table_desc){0};
    pf_table *t;
    pf_status st = pf__table_alloc(map, &d.allocator, pf__table_width_for(map), &t);
    if (st != PF_OK) return st;
    const uint32_t n = t->n;
    const pf__par par = pf__par_upto(&d.parallel, d.threads, n);
    const uint32_t nt = par.workers;
    row_work *ws;
    st = works_create(&ws, nt, map, &t->alloc);
    if (st != PF_OK) {
        works_destroy(ws, nt, &t->alloc, n);
        pf_table_destroy(t);
        return st;
    }
    /* the rows are the map's as it is now: an edit on another thread while they are built is
     * refused, until the table follows the map's edits itself (it was taken: rows through walls) */
    pf__map_user hold;
    if (!pf__map_hold(map, &hold)) {
        works_destroy(ws, nt, &t->alloc, n);
        pf_table_destroy(t);
        return PF_MAP_BUSY;
    }
    rows_job j = {map, t, ws, &d, 0, 0};
    pf__par_for(&par, n, 4, rows_body, &j);
    works_destroy(ws, nt, &t->alloc, n);
    if (!j.failed) pf__table_follow(t);
    pf__map_release(map, &hold);
    if (j.failed) {
        pf_table_destroy(t);
        return PF_OUT_OF_MEMORY;
    }
    if (d.progress) d.progress(n, n, d.progress_user);
    *out = t;
    return PF_OK;
}

/* ---- queries ------------------------------------------------------------------------------------- */

const pf_map *pf_table_map(const pf_table *t) { return t ? t->map : NULL; }
uint32_t pf_table_node_count(const pf_table *t) { return t ? t->n : 0; }
uint32_t pf_table_entry_bytes(const pf_table *t) { return t ? t->width : 0; }
size_t pf_table_mem_size(const pf_table *t) { return t ? sizeof *t + t->bytes : 0; }

uint32_t pf_table_entry(const pf_table *t, uint32_t from, uint32_t to)
{
    if (!t || from >= t->n || to >= t->n || pf__table_stale(t)) return PF_TABLE_NO_ROUTE;
    uint32_t e = pf__tab_load(pf__tab_row(t, from), t->width, to);
    if (e == pf__tab_none(t->width)) return PF_TABLE_NO_ROUTE;
    if (e == pf__tab_self(t->width)) return PF_TABLE_AT_GOAL;
    return e;
}

uint32_t pf_table_next(const pf_table *t, uint32_t from, uint32_t to)
{
    uint32_t e = pf_table_entry(t, from, to);
    if (e == PF_TABLE_NO_ROUTE || e == PF_TABLE_AT_GOAL) return PF_NODE_NONE;
    const pf_map *m = t->map;
    if (m->kind == PF_MAP_GRAPH) return m->dst[m->off[from] + e]; /* entries are validated */
    uint32_t c = pf__grid_pad(m, from);
    return pf__grid_unpad(m, (uint32_t)((int32_t)c + m->nb_off[(c / m->pw) & 1u][e]));
}

pf_status pf_table_path(const pf_table *t, uint32_t from, uint32_t to, pf_path *path, double *cost)
{
    if (cost) *cost = INFINITY;
    if (path) path->len = 0;
    if (!t || (path && path->capacity && !path->nodes && !path->points)) return PF_INVALID_ARGUMENT;
    if (path && path->points && t->map->kind != PF_MAP_GRID) return PF_INVALID_ARGUMENT;
    if (pf__table_stale(t)) return PF_WRONG_MAP;
    if (from >= t->n) return PF_INVALID_START;
    if (to >= t->n) return PF_INVALID_GOAL;
    uint32_t e0 = pf_table_entry(t, from, from);
    if (e0 != PF_TABLE_AT_GOAL) return PF_INVALID_START; /* blocked cell */
    if (pf_table_entry(t, to, to) != PF_TABLE_AT_GOAL) return PF_INVALID_GOAL;
    /* Pass 1: length and cost. Every step decreases (cost, hops) to `to` in a built table; the
     * bound only guards loaded tables whose entries are legal moves but not shortest ones. */
    uint32_t len = 1;
    double sum = 0.0;
    for (uint32_t u = from; u != to; len++) {
        uint32_t e = pf_table_entry(t, u, to);
        if (e == PF_TABLE_NO_ROUTE) return PF_NO_PATH;
        if (len > t->n) return PF_LIMIT_REACHED;
        sum += arc_cost(t->map, u, e);
        u = pf_table_next(t, u, to);
    }
    if (!(sum <= DBL_MAX)) return PF_COST_OVERFLOW; /* weights near DBL_MAX: no finite cost */
    if (cost) *cost = sum;
    if (!path) return PF_OK;
    path->len = len;
    if (!path->nodes && !path->points) return PF_OK;
    if (len > path->capacity) return PF_BUFFER_TOO_SMALL;
    uint32_t u = from;
    for (uint32_t i = 0; i < len; i++) {
        if (path->nodes) path->nodes[i] = u;
        if (path->points) path->points[i] = pf_grid_point(t->map, u);
        if (u != to) u = pf_table_next(t, u, to);
    }
    return PF_OK;
}

/* ---- incremental update -------------------------------------------------------------------------- */

/* Lexicographic comparison of (cost, hops): -1, 0, 1. */
static inline int key_cmp(double g1, uint32_t h1, double g2, uint32_t h2)
{
    if (g1 != g2) return g1 < g2 ? -1 : 1;
    return h1 == h2 ? 0 : h1 < h2 ? -1 : 1;
}

static int same_arcs(const pf_map *a, const pf_map *b, uint32_t u)
{
    if (a->kind == PF_MAP_GRID) {
        /* a cell's out-arcs: its legal moves and their costs (the multiplier of the cell entered) */
        uint32_t c = pf__grid_pad(a, u), ma = pf__grid_moves_at(a, c);
        /* a passable cell with no moves still has a row (it reaches itself); a blocked one has none */
        if (ma != pf__grid_moves_at(b, c) || !a->cls[c] != !b->cls[c]) return 0;
        const int32_t *off = a->nb_off[(c / a->pw) & 1u];
        for (uint32_t open = ma; open; open &= open - 1u) {
            uint32_t d = pf__ctz32(open), nb = (uint32_t)((int32_t)c + off[d]);
            if (grid_step(a, d, c, nb) != grid_step(b, d, c, nb)) return 0;
        }
        return 1;
    }
    uint32_t da = a->off[u + 1] - a->off[u], db = b->off[u + 1] - b->off[u];
    if (da != db) return 0;
    return memcmp(a->dst + a->off[u], b->dst + b->off[u], (size_t)da * sizeof(uint32_t)) == 0 &&
           memcmp(a->w + a->off[u], b->w + b->off[u], (size_t)da * sizeof(double)) == 0;
}

/* The in-arcs of x on map m, each with a slot of its own for the update's cand[]: a graph's
 * reverse arcs (slot = arc), or on a grid the cells that can step into x, which are x's own moves
 * since every grid rule is symmetric (slot = 8x + direction). Calls the body with (slot, tail). */
#define FOR_IN_ARCS(m, x, slot, v, ...)                                                               \
    do {                                                                                               \
        if ((m)->kind == PF_MAP_GRAPH) {                                                               \
            for (uint32_t slot = (m)->roff[x]; slot < (m)->roff[(x) + 1]; slot++) {                    \
                uint32_t v = (m)->rdst[slot];                                                          \
                __VA_ARGS__                                                                            \
            }                                                                                          \
        } else {                                                                                       \
            uint32_t c_ = pf__grid_pad(m, x);                                                          \
            const int32_t *off_ = (m)->nb_off[(c_ / (m)->pw) & 1u];                                    \
            for (uint32_t open_ = pf__grid_moves_at(m, c_); open_; open_ &= open_ - 1u) {                     \
                uint32_t d_ = pf__ctz32(open_), slot = (x) * 8u + d_;                    \
                uint32_t v = pf__grid_unpad(m, (uint32_t)((int32_t)c_ + off_[d_]));                    \
                __VA_ARGS__                                                                            \
            }                                                                                          \
        }                                                                                              \
    } while (0)

/* Per-worker scratch of the update: rows on both maps, the new row's entries, worsened targets. */
typedef struct upd_work {
    row_work old_row, new_row;
    uint8_t *entries;   /* [n * width] */
    uint32_t *worse;    /* [n] */
} upd_work;

/* Where a node stands in the update. */
enum { PF__UPD_UNTOUCHED = 0, PF__UPD_QUEUED, PF__UPD_EXAMINED };

/* Everything an update uses, allocated before the table is touched: a failure leaves it as it was. */
typedef struct upd_scratch {
    uint32_t  n, width;   /* nodes; entry width of the rows while the update runs */
    uint32_t  final;      /* entry width for the new map: width, or narrower (re-encoded after) */
    uint8_t  *state;      /* [n] PF__UPD_* */
    uint32_t *cur, *next; /* [n] rows of this wave, of the next one */
    uint8_t  *changed;    /* [n] per row of the wave: its next hops changed */
    uint8_t  *cand;       /* [mcand] per in-arc of the new map: enqueue its tail */
    size_t    mcand;
    uint8_t  *wide;       /* [n * n * final] the table re-encoded, when the width changes; else NULL */
    size_t    wide_bytes; /* its size */
    upd_work *ws;         /* [nt] one per worker */
    uint32_t  nt;         /* workers: par.workers */
    pf__par   par;
} upd_scratch;

static void upd_free(upd_scratch *u, const pf_allocator *a)
{
    const uint32_t n = u->n;
    for (uint32_t i = 0; u->ws && i < u->nt; i++) {
        work_free(&u->ws[i].old_row, a, n);
        work_free(&u->ws[i].new_row, a, n);
        pf__free(a, u->ws[i].entries, (size_t)n * u->width);
        pf__free(a, u->ws[i].worse, (size_t)n * sizeof(uint32_t));
    }
    pf__free(a, u->ws, (size_t)u->nt * sizeof *u->ws);
    pf__free(a, u->wide, u->wide_bytes);
    pf__free(a, u->cand, u->mcand);
    pf__free(a, u->changed, n);
    pf__free(a, u->next, (size_t)n * sizeof(uint32_t));
    pf__free(a, u->cur, (size_t)n * sizeof(uint32_t));
    pf__free(a, u->state, n);
}

static pf_status upd_alloc(upd_scratch *u, const pf_table *t, const pf_map *om, const pf_map *nm,
                           const pf_table_update_desc *d)
{
    const pf_allocator *a = &t->alloc;
    const uint32_t n = t->n;
    memset(u, 0, sizeof *u);
    u->n = n;
    /* a wider table is re-encoded before the update writes rows, a narrower one after it: the
     * old entries it compares with (arc indices past 254, say) keep their width until then */
    u->final = pf__table_width_for(nm);
    u->width = u->final > t->width ? u->final : t->width;
    u->mcand = nm->kind == PF_MAP_GRID ? (size_t)n * 8u : nm->m ? nm->m : 1;
    u->state = pf__calloc(a, n, 64);
    u->cur = pf__alloc(a, (size_t)n * sizeof(uint32_t), 64);
    u->next = pf__alloc(a, (size_t)n * sizeof(uint32_t), 64);
    u->changed = pf__alloc(a, n, 64);
    u->cand = pf__alloc(a, u->mcand, 64);
    /* a wider table that does not fit the address space (32-bit targets): out of memory */
    size_t wide_bytes = 0;
    u->wide = u->final != t->width && table_bytes(n, u->final, &wide_bytes) ? pf__alloc(a, wide_bytes, 64) : NULL;
    u->wide_bytes = wide_bytes;
    u->par = pf__par_upto(&d->parallel, d->threads, n);
    u->nt = u->par.workers;
    u->ws = pf__calloc(a, (size_t)u->nt * sizeof *u->ws, 64);
    pf_status st = (u->state && u->cur && u->next && u->changed && u->cand && u->ws &&
                    (u->wide || u->final == t->width))
                       ? PF_OK : PF_OUT_OF_MEMORY;
    for (uint32_t i = 0; st == PF_OK && i < u->nt; i++) {
        upd_work *w = &u->ws[i];
        st = work_init(&w->old_row, om, a);
        if (st == PF_OK) st = work_init(&w->new_row, nm, a);
        w->entries = pf__alloc(a, (size_t)n * u->width, 64);
        w->worse = pf__alloc(a, (size_t)n * sizeof(uint32_t), 64);
        if (st == PF_OK && (!w->entries || !w->worse)) st = PF_OUT_OF_MEMORY;
    }
    return st;
}

/* A full rebuild would pick the new map's entry width: the table is re-encoded into u->wide, which
 * becomes its data. */
static void reencode(pf_table *t, upd_scratch *u)
{
    const uint32_t n = t->n, width = u->final;
    uint32_t onone = pf__tab_none(t->width), oself = pf__tab_self(t->width);
    for (uint32_t v = 0; v < n; v++) {
        const uint8_t *src = pf__tab_row(t, v);
        uint8_t *dst = u->wide + (size_t)v * n * width;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t e = pf__tab_load(src, t->width, k);
            e = e == onone ? pf__tab_none(width) : e == oself ? pf__tab_self(width) : e;
            pf__tab_store(dst, width, k, e);
        }
    }
    pf__free(&t->alloc, t->data, t->bytes);
    t->data = u->wide;
    t->width = width;
    t->bytes = u->wide_bytes;
    u->wide = NULL;
}

/* The seeds: nodes whose out-arcs differ between the maps, queued as the first wave. */
static uint32_t queue_seeds(upd_scratch *u, const pf_map *om, const pf_map *nm)
{
    uint32_t ncur = 0;
    for (uint32_t v = 0; v < u->n; v++)
        if (!same_arcs(om, nm, v)) {
            u->state[v] = PF__UPD_QUEUED;
            u->cur[ncur++] = v;
        }
    return ncur;
}

/* Examines row x (the wave's i-th): recomputes it on both maps, writes the new entries, and marks
 * in cand[] the in-arcs whose tails must be examined next (the rule of the header comment). Reads
 * only rows of untouched nodes, which nobody writes during a wave, and writes only row x and the
 * cand[] slots of x's in-arcs, so the rows of a wave can be examined in parallel. Returns 0 when a
 * row search failed. */
static int examine_row(pf_table *t, const pf_map *om, const pf_map *nm, upd_scratch *u, upd_work *w, uint32_t i,
                       int slides)
{
    const uint32_t n = u->n, width = u->width, x = u->cur[i];
    if (row_compute(&w->old_row, om, x) != PF_OK || row_compute(&w->new_row, nm, x) != PF_OK) return 0;
    const row_work *o = &w->old_row, *nw = &w->new_row;
    int improved = 0;
    uint32_t nworse = 0;
    for (uint32_t v = 0; v < n; v++) {
        int c = key_cmp(nw->g[v], nw->hop[v], o->g[v], o->hop[v]);
        if (c < 0) improved = 1;
        else if (c > 0) w->worse[nworse++] = v;
    }
    row_emit(nw, w->entries, n, width, x);
    uint8_t *row = t->data + (size_t)x * n * width;
    int diff = 0;
    int seed = !same_arcs(om, nm, x);
    if (seed || memcmp(row, w->entries, (size_t)n * width) != 0) {
        /* compare next hops, not arc indices: a seed's arcs may have been renumbered */
        for (uint32_t v = 0; v < n && !diff; v++) {
            uint32_t eo = pf__tab_load(row, width, v), en = pf__tab_load(w->entries, width, v);
            uint32_t ho = eo >= pf__tab_self(width) ? eo : pf__table_arc_target(om, x, eo);
            uint32_t hn = en >= pf__tab_self(width) ? en : pf__table_arc_target(nm, x, en);
            diff = ho != hn;
        }
        memcpy(row, w->entries, (size_t)n * width);
    }
    u->changed[i] = (uint8_t)diff;
    FOR_IN_ARCS(nm, x, e, v, {
        uint8_t want = 0;
        if (u->state[v] == PF__UPD_UNTOUCHED) {
            if ((slides && diff) || improved) want = 1;
            else {
                /* v is untouched, so not a seed: its arcs and its row are the old ones */
                const uint8_t *vrow = pf__tab_row(t, v);
                for (uint32_t k = 0; k < nworse && !want; k++) {
                    uint32_t ev = pf__tab_load(vrow, width, w->worse[k]);
                    if (ev < pf__tab_self(width) && pf__table_arc_target(om, v, ev) == x) want = 1;
                }
            }
        }
        u->cand[e] = want;
    });
    return 1;
}

typedef struct wave_job {
    pf_table     *t;
    const pf_map *om, *nm;
    upd_scratch  *u;
    int           slides, failed;
} wave_job;

static void wave_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    wave_job *j = ctx;
    for (uint64_t i = begin; i < end; i++)
        if (!examine_row(j->t, j->om, j->nm, j->u, &j->u->ws[worker], (uint32_t)i, j->slides))
            pf__atomic_store_int(&j->failed, 1);
}

/* Examines the wave's ncur rows, in parallel; 0 when a row search failed. */
static int examine_wave(pf_table *t, const pf_map *om, const pf_map *nm, upd_scratch *u, uint32_t ncur, int slides)
{
    for (uint32_t i = 0; i < ncur; i++) u->state[u->cur[i]] = PF__UPD_EXAMINED;
    wave_job j = {t, om, nm, u, slides, 0};
    pf__par_for(&u->par, ncur, 1, wave_body, &j);
    return !j.failed;
}

/* After a wave: reports its rows in wave order (deterministic) and queues the next wave into
 * u->next; returns its length. */
static uint32_t queue_next_wave(const pf_map *nm, upd_scratch *u, uint32_t ncur, const pf_table_update_desc *d,
                                pf_table_report *rep)
{
    uint32_t nnext = 0;
    for (uint32_t i = 0; i < ncur; i++) {
        uint32_t x = u->cur[i];
        uint32_t pos = rep->rows_examined + i;
        if (pos < d->capacity && d->examined) d->examined[pos] = x;
        if (pos < d->capacity && d->changed) d->changed[pos] = u->changed[i];
        rep->rows_changed += u->changed[i];
        FOR_IN_ARCS(nm, x, e, v, {
            if (u->cand[e] && u->state[v] == PF__UPD_UNTOUCHED) {
                u->state[v] = PF__UPD_QUEUED;
                u->next[nnext++] = v;
            }
        });
    }
    rep->rows_examined += ncur;
    rep->searches += 2 * ncur;
    rep->waves++;
    return nnext;
}

/* The update from `om` (the map the rows describe) to `nm`. */
static pf_status update_rows(pf_table *t, const pf_map *om, const pf_map *nm, const pf_table_update_desc *desc,
                             pf_table_report *report)
{
    pf_table_report rep = {0};
    if (report) *report = rep;
    if (om->kind != nm->kind || pf_map_node_count(om) != pf_map_node_count(nm)) return PF_INVALID_ARGUMENT;
    if (om->kind == PF_MAP_GRID && (om->width != nm->width || om->moves != nm->moves)) return PF_INVALID_ARGUMENT;
    pf_table_update_desc d = desc ? *desc : (pf_table_update_desc){0};
    if ((unsigned)d.rule > PF_TABLE_RULE_SLIDES) return PF_INVALID_ARGUMENT;

    upd_scratch u;
    pf_status st = upd_alloc(&u, t, om, nm, &d);
    if (st == PF_OK && u.wide && u.final > t->width) reencode(t, &u);
    uint32_t ncur = 0;
    if (st == PF_OK) rep.seeds = ncur = queue_seeds(&u, om, nm);
    while (st == PF_OK && ncur) {
        if (!examine_wave(t, om, nm, &u, ncur, d.rule == PF_TABLE_RULE_SLIDES)) {
            st = PF_OUT_OF_MEMORY; /* cannot happen: open lists are pre-sized */
            break;
        }
        uint32_t nnext = queue_next_wave(nm, &u, ncur, &d, &rep);
        uint32_t *tmp = u.cur;
        u.cur = u.next;
        u.next = tmp;
        ncur = nnext;
    }
    if (st == PF_OK && u.wide) reencode(t, &u); /* narrower: every entry is the new map's now */
    if (st == PF_OK) {
        t->map = nm;
        t->version = nm->version;
    }
    if (report) *report = rep;
    upd_free(&u, &t->alloc);
    return st;
}

pf_status pf_table_update(pf_table *t, const pf_map *nm, const pf_table_update_desc *desc,
                          pf_table_report *report)
{
    if (report) *report = (pf_table_report){0};
    if (!t || !nm || (desc && (unsigned)desc->rule > PF_TABLE_RULE_SLIDES)) return PF_INVALID_ARGUMENT;
    const pf_map *om = t->map;
    if (nm == om) return pf__table_stale(t) ? PF_WRONG_MAP : PF_OK; /* follows its edits already */
    if (pf__table_stale(t)) return PF_WRONG_MAP; /* the old rows are not om's */
    /* both maps stay as they are until the table follows nm (an edit of nm during the update was
     * taken, and the table then described cells nm never had) */
    pf__map_user ho, hn;
    if (!pf__map_hold(om, &ho)) return PF_MAP_BUSY;
    if (!pf__map_hold(nm, &hn)) {
        pf__map_release(om, &ho);
        return PF_MAP_BUSY;
    }
    pf_status st = update_rows(t, om, nm, desc, report);
    if (st == PF_OK && t->user.after) {
        /* a grid table follows the map it now describes */
        pf__map_detach(om, &t->user);
        pf__map_attach(nm, &t->user);
    }
    pf__map_release(nm, &hn);
    pf__map_release(om, &ho);
    return st;
}

/* ---- following a grid's edits ------------------------------------------------------------------ */

/* Before the cells change: a copy of the grid as the rows describe it (the update compares rows on
 * both). Tables stop at 65536 cells, so the copy is at most 65536 cells. */
static void table_before_edit(pf__map_user *u, const pf_map *m)
{
    pf_table *t = (pf_table *)(void *)((char *)u - offsetof(pf_table, user));
    if (pf__table_stale(t)) return;
    if (t->old && t->old->fingerprint == m->fingerprint) return; /* an edit that changed nothing */
    pf_map_destroy(t->old);
    t->old = NULL;
    uint32_t w = m->width, h = m->height;
    uint8_t *cls = pf__alloc(&t->alloc, (size_t)w * h, 64);
    float *cost = m->cost ? pf__alloc(&t->alloc, (size_t)w * h * sizeof(float), 64) : NULL;
    if (cls && (cost || !m->cost) && pf_grid_read(m, (pf_rect){0, 0, w, h}, cls, cost) == PF_OK)
        (void)pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = m->moves, .cells = cls, .costs = cost,
                                             .allocator = t->alloc},
                             &t->old);
    pf__free(&t->alloc, cls, (size_t)w * h);
    pf__free(&t->alloc, cost, (size_t)w * h * sizeof(float));
}

/* After: the incremental update from the copy to the map (rows that can change, pf_table.h). */
static int table_after_edit(pf__map_user *u, const pf_map *m, pf__edit_view *e)
{
    pf_table *t = (pf_table *)(void *)((char *)u - offsetof(pf_table, user));
    /* no copy: stale before this edit (already reported), or the copy failed now (report it) */
    if (!t->old) return t->version + 1u != e->version;
    pf_status st = update_rows(t, t->old, m, NULL, NULL);
    pf_map_destroy(t->old);
    t->old = NULL;
    return st == PF_OK;
}

void pf__table_follow(pf_table *t)
{
    if (t->map->kind != PF_MAP_GRID) return;
    t->version = t->map->version;
    t->user.before = table_before_edit;
    t->user.after = table_after_edit;
    t->user.data = 1;
    pf__map_attach(t->map, &t->user);
}
