/* fuzz_search.c - searches on a small grid or graph built from fuzz bytes, checked against the oracle.
 *
 * Input layout (every read past the end yields 0, so any byte string is a valid input):
 *   byte 0            bit 0: graph (else grid); grid: bits 1-2 move rule, bit 3 weighted;
 *                     graph: bit 1 coordinates
 *   grid              width-1, height-1 (mod 16), then width*height cell bytes: bits 0-1 == 0 is
 *                     blocked, bits 2-3 == 0 is terrain class 2 (else class 1), bits 4-6 pick a cost
 *   graph             nodes-1 (mod 48), arcs (mod 128), then per arc: from, to, weight selector;
 *                     then per node (with coordinates): x, y
 *   ctx               heap capacity selector, failing allocation number (1-based, < 40; else never)
 *   queries (<= 16)   14 bytes each: start (2), goal (2), algo, heuristic, heuristic_set, callback,
 *                     tie, weight, max_cost, max_expansions, flags, path capacity / slice budget
 *
 * Values deliberately include invalid ones (ids past the map, unknown enum values, NaN and negative
 * weights and limits, a callback heuristic without a function). The harness predicts independently
 * which descs the library must reject; for accepted queries it checks paths step by step with the
 * oracle, optimal costs where the algorithm promises them, the weighted-A* bound, limits, buffer
 * sizes, determinism, and that no allocation is leaked even when one fails.
 */
#include <math.h>
#include "fuzz_common.h"
#include "oracle.h"

typedef struct rd { const uint8_t *p, *end; } rd;
static uint8_t rb(rd *r) { return r->p < r->end ? *r->p++ : 0; }
static uint16_t rw(rd *r) { uint16_t a = rb(r); return (uint16_t)(a | (uint16_t)(rb(r) << 8)); }

static const float CELL_COSTS[8] = {1.0f, 1.0f, 2.0f, 1.5f, 0.25f, 8.0f, 1e-3f, 1e6f};
static const double ARC_WEIGHTS[8] = {0.0, 1.0, 2.0, 0.5, 10.0, 3.0, 1e6, 1e-6};
static const double WEIGHTS[10] = {0.0, 1.0, 1.5, 3.0, 0.5, -1.0, NAN, INFINITY, 1e308, 1.0 + 1e-12};
static const double MAX_COSTS[8] = {0.0, 0.0, 0.0, NAN, -1.0, INFINITY, 2.5, 10.0};

/* callback heuristics: 1 zero, 2 constant -1 (both admissible), 3 huge, 4 NaN (neither) */
static double cb_heur(const pf_map *map, uint32_t node, uint32_t goal, void *user)
{
    int kind = *(const int *)user;
    FUZZ_CHECK(node < pf_map_node_count(map) && goal < pf_map_node_count(map));
    switch (kind) {
    case 1: return 0.0;
    case 2: return -1.0;
    case 3: return 1e9;
    default: return NAN;
    }
}

static int cb_admissible(int kind) { return kind == 1 || kind == 2; }

/* Is heuristic `h` (one of the built-in kinds) a lower bound on this map? (see pf_search.h) */
static int builtin_admissible(const pf_map *map, pf_heur h)
{
    if (pf_map_kind_of(map) == PF_MAP_GRAPH) return 1; /* only ZERO and scaled EUCLIDEAN get here */
    pf_moves mv = pf_grid_moves(map);
    switch (h) {
    case PF_HEUR_OCTILE: return mv != PF_MOVES_HEX;
    case PF_HEUR_MANHATTAN: return mv == PF_MOVES_4;
    case PF_HEUR_EUCLIDEAN: return mv != PF_MOVES_HEX;
    case PF_HEUR_HEX: return mv == PF_MOVES_4 || mv == PF_MOVES_HEX;
    default: return 1; /* ZERO, CHEBYSHEV, and kinds the grid code evaluates as 0 */
    }
}

typedef struct expect {
    int      valid;       /* the desc must be accepted */
    pf_algo  algo;        /* resolved */
    pf_heur  heur;        /* resolved */
    int      admissible;  /* resolved heuristic is a lower bound */
    int      natural;     /* resolved heuristic is the map's default (consistent) one, or zero */
    double   weight;      /* resolved */
} expect;

/* Independent prediction of pf_search_desc_resolve + validation (pf_search.h). */
static expect predict(const pf_map *map, const pf_search_desc *d, int cbkind, int tree)
{
    expect e = {1, d->algo, d->heuristic, 1, 0, d->weight};
    int graph = pf_map_kind_of(map) == PF_MAP_GRAPH;
    pf_heur natural;
    if (graph) natural = pf_graph_has_coords(map) ? PF_HEUR_EUCLIDEAN : PF_HEUR_ZERO;
    else {
        pf_moves mv = pf_grid_moves(map);
        natural = mv == PF_MOVES_4 ? PF_HEUR_MANHATTAN : mv == PF_MOVES_HEX ? PF_HEUR_HEX : PF_HEUR_OCTILE;
    }
    pf_tie tie = d->tie == PF_TIE_DEFAULT ? PF_TIE_DEEPER : d->tie;
    if (e.algo == PF_ALGO_DEFAULT) e.algo = PF_ALGO_ASTAR;
    if (e.heur == PF_HEUR_DEFAULT) e.heur = natural;
    if (e.algo == PF_ALGO_DIJKSTRA || e.algo == PF_ALGO_BFS) e.heur = PF_HEUR_ZERO;
    /* BFS defaults to the FIFO queue; a tie rule the caller sets is honoured, and checked */
    if (e.algo == PF_ALGO_BFS && d->tie == PF_TIE_DEFAULT) tie = PF_TIE_FIFO;
    if (e.algo == PF_ALGO_THETA) e.heur = PF_HEUR_EUCLIDEAN; /* straight lines */
    if (e.weight == 0.0) e.weight = 1.0;
    if (e.algo != PF_ALGO_WASTAR && e.algo != PF_ALGO_JPS && e.algo != PF_ALGO_JPS_PLUS) e.weight = 1.0;
    if (tree) {
        e.algo = PF_ALGO_DIJKSTRA;
        e.heur = PF_HEUR_ZERO;
        tie = PF_TIE_FIFO;
        e.weight = 1.0;
    }
    if ((unsigned)e.algo >= PF_ALGO__COUNT || (unsigned)e.heur >= PF_HEUR__COUNT) e.valid = 0;
    if ((unsigned)tie > PF_TIE_RANDOM) e.valid = 0;
    if (!(e.weight >= 1.0) || !isfinite(e.weight)) e.valid = 0;
    if (!(d->max_cost >= 0.0)) e.valid = 0;
    if (e.heur == PF_HEUR_CALLBACK && !d->heuristic_fn) e.valid = 0;
    if (e.heur == PF_HEUR_MAX && d->heuristic_set == 0) e.valid = 0;
    /* pf_search.h: a set naming no pf_heur, or the callback's bit without a function, is refused */
    if (e.heur == PF_HEUR_MAX && ((d->heuristic_set >> PF_HEUR__COUNT) ||
                                  ((d->heuristic_set >> PF_HEUR_CALLBACK & 1u) && !d->heuristic_fn)))
        e.valid = 0;
    /* Theta* where it is unsupported is refused so before the graph's heuristic rules and the
     * reverse flag (checked as PF_UNSUPPORTED by the caller) */
    if (e.valid && e.algo == PF_ALGO_THETA &&
        (graph || pf_grid_moves(map) == PF_MOVES_HEX || pf_grid_weighted(map)))
        return e;
    if (graph && e.heur != PF_HEUR_ZERO && e.heur != PF_HEUR_EUCLIDEAN && e.heur != PF_HEUR_CALLBACK &&
        e.heur != PF_HEUR_MAX)
        e.valid = 0;
    if (graph && e.heur == PF_HEUR_EUCLIDEAN && !pf_graph_has_coords(map)) e.valid = 0;
    /* on graphs, a PF_HEUR_MAX set naming a grid metric, or Euclidean without coordinates */
    if (graph && e.heur == PF_HEUR_MAX &&
        (d->heuristic_set & ((1u << PF_HEUR_MANHATTAN) | (1u << PF_HEUR_OCTILE) | (1u << PF_HEUR_CHEBYSHEV) |
                             (1u << PF_HEUR_HEX) | (pf_graph_has_coords(map) ? 0u : 1u << PF_HEUR_EUCLIDEAN))))
        e.valid = 0;
    if (d->reverse && !graph) e.valid = 0;
    if (!e.valid) return e;

    e.natural = e.heur == natural || e.heur == PF_HEUR_ZERO;
    if (e.heur == PF_HEUR_CALLBACK) e.admissible = cb_admissible(cbkind);
    else if (e.heur == PF_HEUR_MAX) {
        for (int h = 0; h < PF_HEUR_MAX; h++)
            if ((d->heuristic_set & (1u << h)) && !builtin_admissible(map, (pf_heur)h)) e.admissible = 0;
        if ((d->heuristic_set & (1u << PF_HEUR_CALLBACK)) && d->heuristic_fn && !cb_admissible(cbkind))
            e.admissible = 0;
    } else e.admissible = builtin_admissible(map, e.heur);
    return e;
}

static double tol(double c) { return 1e-9 * (1.0 + fabs(c)); }

static int node_ok(const pf_map *map, uint32_t v)
{
    if (v >= pf_map_node_count(map)) return 0;
    if (pf_map_kind_of(map) == PF_MAP_GRAPH) return 1;
    pf_point p = pf_grid_point(map, v);
    return pf_grid_class(map, p.x, p.y) != 0;
}

/* Path cost by the oracle; reverse searches walk arcs backwards, so check the reversed path. */
static double path_cost(const pf_map *map, const uint32_t *nodes, uint32_t len, int reverse)
{
    if (!reverse) return oracle_path_cost(map, nodes, len);
    uint32_t tmp[256];
    FUZZ_CHECK(len <= 256);
    for (uint32_t i = 0; i < len; i++) tmp[i] = nodes[len - 1 - i];
    return oracle_path_cost(map, tmp, len);
}

static void check_path(const pf_map *map, const pf_path *path, const pf_stats *stats, uint32_t start,
                       uint32_t goal, int reverse)
{
    FUZZ_CHECK(path->len >= 1 && path->len == stats->path_len);
    FUZZ_CHECK(path->nodes[0] == start && path->nodes[path->len - 1] == goal);
    double pc = path_cost(map, path->nodes, path->len, reverse);
    FUZZ_CHECK(isfinite(pc));
    FUZZ_CHECK(fabs(pc - stats->cost) <= tol(pc));
    if (path->points)
        for (uint32_t i = 0; i < path->len; i++) {
            pf_point p = pf_grid_point(map, path->nodes[i]);
            FUZZ_CHECK(path->points[i].x == p.x && path->points[i].y == p.y);
        }
}

static fuzz_alloc_state g_as;
static int g_verbose = -1; /* PF_FUZZ_VERBOSE=1: one line per query, to see what a corpus covers */

static void log_query(const char *what, uint32_t start, uint32_t goal, const pf_search_desc *d, pf_status st)
{
    if (g_verbose < 0) g_verbose = getenv("PF_FUZZ_VERBOSE") != NULL;
    if (!g_verbose) return;
    fprintf(stderr, "  %s %u->%u algo=%d heur=%d set=0x%x cb=%d tie=%d w=%g max_cost=%g max_exp=%u rev=%d: %s\n",
            what, start, goal, (int)d->algo, (int)d->heuristic, d->heuristic_set,
            d->heuristic_fn ? *(const int *)d->heuristic_user : 0, (int)d->tie, d->weight, d->max_cost,
            d->max_expansions, d->reverse, pf_status_name(st));
}

static void run_query(const pf_map *map, pf_ctx *ctx, rd *r)
{
    uint32_t n = pf_map_node_count(map);
    uint16_t sv = rw(r), gv = rw(r);
    /* mostly in range, sometimes one or two past the end, sometimes the extremes */
    uint32_t start = sv >= 0xFFF0 ? UINT32_MAX - (sv & 15u) : sv % (n + 2);
    uint32_t goal = gv >= 0xFFF0 ? UINT32_MAX - (gv & 15u) : gv % (n + 2);
    pf_search_desc d = {0};
    int cbkind;
    d.algo = (pf_algo)(rb(r) % (PF_ALGO__COUNT + 2));
    d.heuristic = (pf_heur)(rb(r) % (PF_HEUR__COUNT + 2));
    d.heuristic_set = rb(r);
    cbkind = rb(r) % 5;
    d.heuristic_fn = cbkind ? cb_heur : NULL;
    d.heuristic_user = &cbkind;
    uint8_t tb = rb(r);
    d.tie = (pf_tie)(tb % 7);
    d.tie_seed = tb;
    d.weight = WEIGHTS[rb(r) % 10];
    d.max_cost = MAX_COSTS[rb(r) % 8];
    uint8_t me = rb(r);
    d.max_expansions = me < 200 ? 0 : me - 200u;
    uint8_t fl = rb(r);
    if (fl & 1) d.heuristic_set |= 1u << PF_HEUR_CALLBACK;
    d.reverse = (fl >> 1) & 1;
    int sliced = (fl >> 2) & 1, use_trace = (fl >> 3) & 1, tree = (fl >> 4) & 1, points = (fl >> 5) & 1;
    int small = (fl >> 6) & 1, repeat = (fl >> 7) & 1;
    uint8_t cap = rb(r);

    uint32_t trace_nodes[64];
    pf_trace trace = {.nodes = trace_nodes, .capacity = (uint32_t)(cap % 65)};
    FUZZ_CHECK(pf_ctx_use_trace(ctx, use_trace ? &trace : NULL) == PF_OK); /* detached by the caller */

    expect e = predict(map, &d, cbkind, tree);
    pf_search_desc res = pf_search_desc_resolve(map, &d);
    if (!tree && (unsigned)res.algo < PF_ALGO__COUNT) {
        FUZZ_CHECK(res.algo == e.algo);
        if (e.valid) FUZZ_CHECK(res.heuristic == e.heur && res.weight == e.weight);
    }

    int limited = d.max_expansions != 0 || d.max_cost != 0.0;
    if (tree) {
        pf_status st = pf_search_tree(ctx, start, &d);
        log_query("tree", start, goal, &d, st);
        if (st == PF_OUT_OF_MEMORY) return;
        if (!e.valid) {
            FUZZ_CHECK(st == PF_INVALID_ARGUMENT);
            return;
        }
        if (!node_ok(map, start)) {
            FUZZ_CHECK(st == PF_INVALID_START);
            return;
        }
        FUZZ_CHECK(st == PF_OK || (limited && st == PF_LIMIT_REACHED));
        double *want = oracle_all(map, start, d.reverse);
        for (uint32_t v = 0; v < n; v++) {
            double got = pf_ctx_cost(ctx, v);
            if (st == PF_OK && d.max_cost == 0.0) {
                FUZZ_CHECK(isfinite(got) == isfinite(want[v]));
                if (isfinite(got)) FUZZ_CHECK(fabs(got - want[v]) <= tol(want[v]));
            }
            /* settled nodes carry their exact cost whatever the limits */
            if (pf_ctx_closed(ctx, v)) FUZZ_CHECK(fabs(got - want[v]) <= tol(want[v]));
            uint32_t p = pf_ctx_parent(ctx, v);
            FUZZ_CHECK(p == PF_NODE_NONE || p < n);
        }
        free(want);
        return;
    }

    uint32_t nodes[256], nodes2[256];
    pf_point pts[256];
    pf_path path = {.nodes = nodes, .points = points ? pts : NULL, .capacity = small ? cap % 4u : 256u};
    pf_stats stats;
    memset(&stats, 0x5a, sizeof stats);
    pf_status st;
    if (sliced) {
        st = pf_search_begin(ctx, start, goal, &d);
        uint32_t budget = 1u + cap % 5u, rounds = 0;
        while (st == PF_IN_PROGRESS) {
            FUZZ_CHECK(pf_search_path(ctx, &path, &stats) == PF_IN_PROGRESS);
            st = pf_search_step(ctx, budget);
            FUZZ_CHECK(++rounds <= 64u * n + 64u); /* every step expands at least one node */
        }
        if (st == PF_OUT_OF_MEMORY) return;
        if (!pf_failed(st)) {
            pf_status fin = st;
            FUZZ_CHECK(pf_search_step(ctx, budget) == fin); /* stepping a finished search is a no-op */
            st = pf_search_path(ctx, &path, &stats);
            FUZZ_CHECK(st == fin || st == PF_BUFFER_TOO_SMALL);
        }
    } else {
        st = pf_search(ctx, start, goal, &d, &path, &stats);
    }
    log_query(sliced ? "sliced" : "search", start, goal, &d, st);
    if (st == PF_OUT_OF_MEMORY) return;

    if (!e.valid) {
        FUZZ_CHECK(st == PF_INVALID_ARGUMENT);
        return;
    }
    /* Theta* (pf_anyangle.h): unweighted square grids only; its path is turning points joined by
     * clear segments, so the grid-step checks below do not apply */
    if (e.algo == PF_ALGO_THETA) {
        int sup = pf_map_kind_of(map) == PF_MAP_GRID && pf_grid_moves(map) != PF_MOVES_HEX && !pf_grid_weighted(map);
        if (!sup) {
            FUZZ_CHECK(st == PF_UNSUPPORTED);
            return;
        }
        if (!node_ok(map, start) || !node_ok(map, goal)) {
            FUZZ_CHECK(st == (node_ok(map, start) ? PF_INVALID_GOAL : PF_INVALID_START));
            return;
        }
        double opt = oracle_cost(map, start, goal);
        if (st == PF_OK) {
            FUZZ_CHECK(isfinite(opt) && path.len >= 1 && (!path.capacity || path.len > path.capacity ||
                       (nodes[0] == start && nodes[path.len - 1] == goal)));
            pf_point a = pf_grid_point(map, start), b = pf_grid_point(map, goal);
            double straight = hypot((double)(a.x - b.x), (double)(a.y - b.y));
            FUZZ_CHECK(stats.cost >= straight - tol(straight)); /* not optimal: no upper bound promised */
            /* each segment is clear, or one legal grid step (a diagonal that cuts a corner where
             * the map allows it: pf_anyangle.h) */
            for (uint32_t i = 0; i + 1 < path.len && path.len <= path.capacity; i++)
                FUZZ_CHECK(pf_grid_line_of_sight(map, nodes[i], nodes[i + 1], 0) ||
                           isfinite(oracle_path_cost(map, nodes + i, 2)));
        } else {
            FUZZ_CHECK(st == PF_NO_PATH || st == PF_LIMIT_REACHED || st == PF_BUFFER_TOO_SMALL);
            if (st == PF_NO_PATH) FUZZ_CHECK(!isfinite(opt));
        }
        return;
    }
    if (!node_ok(map, start)) {
        FUZZ_CHECK(st == PF_INVALID_START);
        return;
    }
    if (!node_ok(map, goal)) {
        FUZZ_CHECK(st == PF_INVALID_GOAL);
        return;
    }
    FUZZ_CHECK(!pf_failed(st) || st == PF_BUFFER_TOO_SMALL);
    FUZZ_CHECK(stats.expanded <= stats.pushed);
    if (use_trace) {
        FUZZ_CHECK(trace.len <= trace.capacity && trace.len == (trace.total < trace.capacity ? trace.total : trace.capacity));
        FUZZ_CHECK(trace.total >= stats.expanded && trace.total <= stats.expanded + 1u);
        for (uint32_t i = 0; i < trace.len; i++) FUZZ_CHECK(trace_nodes[i] < n);
    }

    if (st == PF_BUFFER_TOO_SMALL) {
        FUZZ_CHECK(path.len > path.capacity && path.len <= n);
        /* the result stays in the context: read it again with room for it */
        path = (pf_path){.nodes = nodes, .points = points ? pts : NULL, .capacity = 256};
        st = pf_search_path(ctx, &path, &stats);
        FUZZ_CHECK(st == PF_OK);
    }

    double opt = d.reverse ? oracle_cost(map, goal, start) : oracle_cost(map, start, goal);
    /* algorithms that promise the optimal cost (with a lower-bound heuristic) */
    int optimal = e.algo == PF_ALGO_ASTAR || e.algo == PF_ALGO_DIJKSTRA ||
                  ((e.algo == PF_ALGO_JPS || e.algo == PF_ALGO_JPS_PLUS) && e.weight == 1.0);
    if (st == PF_NO_PATH) {
        FUZZ_CHECK(!isfinite(opt)); /* every algorithm here is complete */
        FUZZ_CHECK(path.len == 0 && stats.path_len == 0 && isinf(stats.cost));
        return;
    }
    if (st == PF_LIMIT_REACHED) {
        FUZZ_CHECK(limited);
        FUZZ_CHECK(path.len == 0 && isinf(stats.cost));
        if (d.max_expansions) FUZZ_CHECK(stats.expanded <= d.max_expansions);
        /* an optimal search with a lower-bound heuristic prunes only what cannot be under the limit
         * (weighted A* and greedy may close a node by a dear route and then prune past it) */
        if (!d.max_expansions && optimal && e.admissible && isfinite(opt) &&
            opt < d.max_cost * (1 - 1e-9) - 1e-9)
            FUZZ_CHECK(!"max_cost pruned a path under the limit");
        return;
    }
    FUZZ_CHECK(st == PF_OK);
    FUZZ_CHECK(isfinite(opt));
    /* a fallback is said in the stats, never by a status of its own */
    FUZZ_CHECK(!(stats.detail & PF_DETAIL_FALLBACK) || (stats.algo == PF_ALGO_ASTAR &&
               (e.algo == PF_ALGO_JPS || e.algo == PF_ALGO_JPS_PLUS || e.algo == PF_ALGO_AUTO)));
    check_path(map, &path, &stats, start, goal, d.reverse);
    /* g at the goal is the reported cost, except for BFS (g counts steps) and after reopenings (the
     * cost is then summed along the returned path: pf_search_path) */
    if (e.algo != PF_ALGO_BFS && stats.reopened == 0)
        FUZZ_CHECK(fabs(pf_ctx_cost(ctx, goal) - stats.cost) <= tol(stats.cost));
    /* max_cost bounds g + h at every push, so g at the goal; BFS's g counts steps (pf_search.h).
     * A callback returning NaN or a negative value weakens the bound: the caller's bug, not checked. */
    int sane_h = e.heur != PF_HEUR_CALLBACK || cbkind == 1 || cbkind == 3;
    if (d.max_cost > 0.0 && sane_h) {
        if (e.algo == PF_ALGO_BFS) FUZZ_CHECK((double)(path.len - 1) <= d.max_cost);
        else FUZZ_CHECK(stats.cost <= d.max_cost + tol(d.max_cost));
    }
    if (d.max_expansions) FUZZ_CHECK(stats.expanded <= d.max_expansions);
    if (optimal && e.admissible) FUZZ_CHECK(fabs(stats.cost - opt) <= tol(opt));
    if (e.algo == PF_ALGO_WASTAR && e.natural) FUZZ_CHECK(stats.cost <= e.weight * opt + tol(e.weight * opt));

    if (repeat && !sliced) {
        /* same query, same context, later generation: the same answer (ties included) */
        pf_stats s2;
        pf_path p2 = {.nodes = nodes2, .capacity = 256};
        pf_status st2 = pf_search(ctx, start, goal, &d, &p2, &s2);
        if (st2 == PF_OUT_OF_MEMORY) return;
        FUZZ_CHECK(st2 == st && p2.len == path.len && s2.expanded == stats.expanded && s2.cost == stats.cost);
        FUZZ_CHECK(memcmp(nodes, nodes2, path.len * sizeof nodes[0]) == 0);
    }
}

static pf_map *build_map(rd *r)
{
    uint8_t b = rb(r);
    pf_map *map = NULL;
    pf_status st;
    if (!(b & 1)) {
        uint32_t w = 1u + rb(r) % 16u, h = 1u + rb(r) % 16u;
        uint8_t cells[256];
        float costs[256];
        for (uint32_t i = 0; i < w * h; i++) {
            uint8_t c = rb(r);
            cells[i] = (c & 3u) == 0 ? 0 : ((c >> 2) & 3u) == 0 ? 2 : 1;
            costs[i] = CELL_COSTS[(c >> 4) & 7u];
        }
        pf_grid_desc gd = {.width = w, .height = h, .moves = (pf_moves)(1 + ((b >> 1) & 3u)), .cells = cells,
                           .costs = (b >> 3) & 1 ? costs : NULL, .allocator = fuzz_alloc_hooks(&g_as)};
        st = pf_grid_create(&gd, &map);
    } else {
        uint32_t nn = 1u + rb(r) % 48u, ne = rb(r) % 128u;
        pf_edge edges[128];
        double xy[96];
        for (uint32_t i = 0; i < ne; i++) {
            edges[i].from = rb(r) % nn;
            edges[i].to = rb(r) % nn;
            edges[i].weight = ARC_WEIGHTS[rb(r) & 7u];
        }
        int coords = (b >> 1) & 1;
        for (uint32_t i = 0; coords && i < 2 * nn; i++) xy[i] = (double)(rb(r) % 16u) * 0.5;
        pf_graph_desc gd = {.node_count = nn, .edge_count = ne, .edges = edges, .coords = coords ? xy : NULL,
                            .allocator = fuzz_alloc_hooks(&g_as)};
        st = pf_graph_create(&gd, &map);
    }
    if (st == PF_OUT_OF_MEMORY) {
        FUZZ_CHECK(map == NULL);
        return NULL;
    }
    FUZZ_CHECK(st == PF_OK && map != NULL);
    return map;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rd r = {data, data + size};
    /* the failing allocation number is read from the end so the map bytes stay in front */
    uint8_t fa = size ? data[size - 1] : 0;
    memset(&g_as, 0, sizeof g_as);
    g_as.fail_at = fa < 40 ? fa : 0;
    pf_map *map = build_map(&r);
    if (map) {
        uint8_t hc = rb(&r);
        pf_ctx_desc cd = {.allocator = fuzz_alloc_hooks(&g_as), .heap_capacity = hc < 128 ? 1u + hc % 4u : 0u};
        pf_ctx *ctx;
        pf_status st = pf_ctx_create(map, &cd, &ctx);
        if (st == PF_OK) {
            FUZZ_CHECK(pf_ctx_map(ctx) == map);
            for (int q = 0; q < 16 && r.p < r.end; q++) {
                run_query(map, ctx, &r);
                pf_ctx_use_trace(ctx, NULL); /* the trace was run_query's local */
            }
            /* probes with any id, including past the end */
            uint32_t n = pf_map_node_count(map);
            for (uint32_t v = n > 4 ? n - 4 : 0; v < n + 4; v++) {
                (void)pf_ctx_cost(ctx, v);
                (void)pf_ctx_closed(ctx, v);
                uint32_t p = pf_ctx_parent(ctx, v);
                FUZZ_CHECK(p == PF_NODE_NONE || p < n);
            }
            pf_ctx_destroy(ctx);
        } else {
            FUZZ_CHECK(st == PF_OUT_OF_MEMORY && ctx == NULL);
        }
        pf_map_destroy(map);
    }
    FUZZ_CHECK(fuzz_alloc_live(&g_as) == 0 && g_as.bytes == 0);
    fuzz_alloc_reset(&g_as);
    return 0;
}
