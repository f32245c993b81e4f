/* fuzz_movetypes.c - movement filters (pf_search_desc.filter) on a small grid built from fuzz
 * bytes, checked against the oracle's Dijkstra with the filter's rule (oracle_all_filter).
 *
 * Input layout (every read past the end yields 0, so any byte string is a valid input):
 *   byte 0            bits 0-1 move rule, bit 2 weighted
 *   grid              width-1, height-1 (mod 12), then one byte per cell: bits 0-1 the class
 *                     (0 blocked, 1 ground, 2 water, 3 trees), bits 4-6 pick a cost
 *   filter            a class mask (bits 0-3: classes 0..3; bit 0, "blocked", is invalid; bit 7
 *                     puts a stray bit on class 200), then per class 0..3 a multiplier selector
 *                     (0, 1, 0.5, 2.5, 1e3; -1, NaN, infinity are invalid)
 *   queries (<= 16)   6 bytes each: start, goal (mod cells), algo, flags (partial, sliced, tree,
 *                     repeat), sliced budget, a second mask for a second filter (a batch-like pair)
 *
 * The harness predicts independently which filters the library must refuse and what happens to
 * endpoints the unit may not enter; for accepted queries it checks statuses and costs against the
 * oracle (optimal algorithms exactly, the others a legal path), which search answered JPS, JPS+
 * and AUTO (jump points for filters of one multiplier, else A* flagged), partial answers, and
 * determinism.
 */
#include <math.h>
#include "fuzz_common.h"
#include "oracle.h"

typedef struct rd { const uint8_t *p, *end; } rd;
static uint8_t rb(rd *r) { return r->p < r->end ? *r->p++ : 0; }

static const float CELL_COSTS[8] = {1.0f, 1.0f, 2.0f, 1.5f, 0.25f, 8.0f, 1.0f, 3.0f};
static const float MULTS[8] = {0.0f, 1.0f, 0.5f, 2.5f, 1e3f, -1.0f, NAN, INFINITY};
static const pf_algo ALGOS[9] = {PF_ALGO_ASTAR, PF_ALGO_DIJKSTRA, PF_ALGO_WASTAR, PF_ALGO_BFS, PF_ALGO_GREEDY,
                                 PF_ALGO_JPS, PF_ALGO_JPS_PLUS, PF_ALGO_AUTO, PF_ALGO_THETA};

static fuzz_alloc_state g_as;

static int allows(const pf_move_filter *f, uint8_t k) { return (f->classes[k >> 3] >> (k & 7u)) & 1u; }

static double tol(double c) { return 1e-9 * (1.0 + fabs(c)); }

/* Whether every allowed class has one multiplier (0 reads as 1): what Theta* takes. */
static int one_mult(const pf_move_filter *f)
{
    double m = -1.0;
    for (uint32_t k = 1; k < 256; k++) {
        if (!allows(f, (uint8_t)k)) continue;
        double x = f->class_cost[k] > 0.0f ? (double)f->class_cost[k] : 1.0;
        if (m >= 0.0 && x != m) return 0;
        m = x;
    }
    return 1;
}

/* Whether the library must accept the filter (pf_search.h, MOVEMENT TYPES). */
static int filter_valid(const pf_move_filter *f)
{
    int any = 0;
    for (uint32_t k = 1; k < 256; k++) any |= allows(f, (uint8_t)k);
    if (!any || allows(f, 0)) return 0;
    for (uint32_t k = 0; k < 256; k++)
        if (!(f->class_cost[k] >= 0.0f) || isinf(f->class_cost[k])) return 0;
    return 1;
}

/* Whether JPS, JPS+ and AUTO answer by jump points (pf_search.h, MOVEMENT TYPES): every class
 * the filter allows of one multiplier, on a map JPS supports, not a partial query. */
static int jump_points(const pf_map *map, const pf_move_filter *f, int partial)
{
    pf_moves mv = pf_grid_moves(map);
    if (partial || pf_grid_weighted(map) || (mv != PF_MOVES_8_NO_CUT && mv != PF_MOVES_8_CUT)) return 0;
    double m0 = -1.0;
    for (uint32_t k = 1; k < 256; k++) {
        if (!allows(f, (uint8_t)k)) continue;
        double v = f->class_cost[k] > 0.0f ? (double)f->class_cost[k] : 1.0;
        if (m0 >= 0.0 && v != m0) return 0;
        m0 = v;
    }
    return 1;
}

static void read_filter(rd *r, pf_move_filter *f, uint8_t mask)
{
    memset(f, 0, sizeof *f);
    f->classes[0] = (uint8_t)(mask & 15u);
    if (mask & 0x80u) f->classes[200 >> 3] = (uint8_t)(1u << (200 & 7));
    for (uint32_t k = 0; k < 4; k++) f->class_cost[k] = MULTS[rb(r) & 7u];
}

static void run_query(const pf_map *map, pf_ctx *ctx, const pf_move_filter *f, rd *r)
{
    const uint32_t n = pf_map_node_count(map);
    uint32_t start = rb(r) % n, goal = rb(r) % n;
    pf_algo algo = ALGOS[rb(r) % 9u];
    uint8_t fl = rb(r), budget = rb(r);
    int partial = fl & 1, sliced = (fl >> 1) & 1, tree = (fl >> 2) & 1, repeat = (fl >> 3) & 1;
    pf_search_desc d = {.algo = algo, .weight = algo == PF_ALGO_WASTAR ? 1.5 : 0.0, .partial = partial, .filter = f};
    pf_point sp = pf_grid_point(map, start), gp = pf_grid_point(map, goal);
    uint8_t sk = pf_grid_class(map, sp.x, sp.y), gk = pf_grid_class(map, gp.x, gp.y);

    uint32_t nodes[160], nodes2[160];
    pf_path path = {.nodes = nodes, .capacity = 160};
    pf_stats st;
    pf_status s;
    if (tree) {
        s = pf_search_tree(ctx, start, &d);
    } else if (sliced) {
        s = pf_search_begin(ctx, start, goal, &d);
        while (s == PF_IN_PROGRESS) s = pf_search_step(ctx, 1u + budget % 7u);
        if (!pf_failed(s)) s = pf_search_path(ctx, &path, &st);
    } else {
        s = pf_search(ctx, start, goal, &d, &path, &st);
    }
    if (s == PF_OUT_OF_MEMORY) return;
    /* Theta* on a map it cannot search is refused before the filter is looked at */
    int theta_off = algo == PF_ALGO_THETA && (pf_grid_moves(map) == PF_MOVES_HEX || pf_grid_weighted(map));
    if (!filter_valid(f)) {
        FUZZ_CHECK(s == (theta_off && !tree ? PF_UNSUPPORTED : PF_INVALID_ARGUMENT));
        return;
    }
    if (algo == PF_ALGO_THETA && !tree) {
        /* one multiplier: searched (held to the map rewritten to one class by
         * test_prop_unit_filters' test_theta); several: refused */
        if (theta_off || !one_mult(f)) FUZZ_CHECK(s == PF_UNSUPPORTED);
        else FUZZ_CHECK(s != PF_UNSUPPORTED && s != PF_INVALID_ARGUMENT);
        return;
    }
    if (!sk || !allows(f, sk)) {
        FUZZ_CHECK(s == PF_INVALID_START);
        return;
    }
    double *dist = oracle_all_filter(map, start, 0, f);
    if (tree) {
        FUZZ_CHECK(s == PF_OK);
        for (uint32_t v = 0; v < n; v++) {
            double c = pf_ctx_cost(ctx, v);
            FUZZ_CHECK(isfinite(c) == isfinite(dist[v]));
            if (isfinite(c)) FUZZ_CHECK(fabs(c - dist[v]) <= tol(dist[v]));
        }
        free(dist);
        return;
    }
    if (!partial && (!gk || !allows(f, gk))) {
        FUZZ_CHECK(s == PF_INVALID_GOAL);
        free(dist);
        return;
    }
    double opt = dist[goal];
    int exact = algo == PF_ALGO_ASTAR || algo == PF_ALGO_DIJKSTRA || algo == PF_ALGO_JPS || algo == PF_ALGO_JPS_PLUS ||
                algo == PF_ALGO_AUTO;
    if (isfinite(opt)) {
        FUZZ_CHECK(s == PF_OK);
        FUZZ_CHECK(path.len >= 1 && nodes[0] == start && nodes[path.len - 1] == goal);
        double pc = oracle_path_cost_filter(map, nodes, path.len, f);
        FUZZ_CHECK(isfinite(pc) && fabs(pc - st.cost) <= tol(pc));
        if (exact) FUZZ_CHECK(fabs(st.cost - opt) <= tol(opt));
        if (algo == PF_ALGO_WASTAR) FUZZ_CHECK(st.cost <= 1.5 * opt + tol(opt));
        if ((algo == PF_ALGO_JPS || algo == PF_ALGO_JPS_PLUS || algo == PF_ALGO_AUTO) && jump_points(map, f, partial))
            FUZZ_CHECK(!(st.detail & PF_DETAIL_FALLBACK) && (st.algo == PF_ALGO_JPS || st.algo == PF_ALGO_JPS_PLUS));
        else if (algo == PF_ALGO_AUTO && !pf_jps_supported(map)) /* AUTO's own pick there: not said */
            FUZZ_CHECK(!(st.detail & PF_DETAIL_FALLBACK) && st.algo == PF_ALGO_ASTAR);
        else if (algo == PF_ALGO_JPS || algo == PF_ALGO_JPS_PLUS || algo == PF_ALGO_AUTO)
            FUZZ_CHECK((st.detail & PF_DETAIL_FALLBACK) && st.algo == PF_ALGO_ASTAR);
    } else if (partial) {
        FUZZ_CHECK(s == PF_PARTIAL && path.len >= 1 && nodes[0] == start);
        uint32_t end = nodes[path.len - 1];
        double pc = oracle_path_cost_filter(map, nodes, path.len, f);
        FUZZ_CHECK(isfinite(dist[end]) && isfinite(pc) && fabs(st.cost - pc) <= tol(pc));
        if (exact) FUZZ_CHECK(fabs(st.cost - dist[end]) <= tol(dist[end])); /* g of a closed node */
    } else {
        FUZZ_CHECK(s == PF_NO_PATH && path.len == 0);
    }
    if (repeat && !sliced && s == PF_OK) {
        pf_stats s2;
        pf_path p2 = {.nodes = nodes2, .capacity = 160};
        pf_status r2 = pf_search(ctx, start, goal, &d, &p2, &s2);
        if (r2 != PF_OUT_OF_MEMORY) {
            FUZZ_CHECK(r2 == s && p2.len == path.len && s2.cost == st.cost && s2.expanded == st.expanded);
            FUZZ_CHECK(memcmp(nodes, nodes2, path.len * sizeof nodes[0]) == 0);
        }
    }
    free(dist);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rd r = {data, data + size};
    memset(&g_as, 0, sizeof g_as);
    uint8_t b = rb(&r);
    uint32_t w = 1u + rb(&r) % 12u, h = 1u + rb(&r) % 12u;
    uint8_t cells[144];
    float costs[144];
    for (uint32_t i = 0; i < w * h; i++) {
        uint8_t c = rb(&r);
        cells[i] = (uint8_t)(c & 3u);
        costs[i] = CELL_COSTS[(c >> 4) & 7u];
    }
    pf_grid_desc gd = {.width = w, .height = h, .moves = (pf_moves)(1 + (b & 3u)), .cells = cells,
                       .costs = (b >> 2) & 1 ? costs : NULL, .allocator = fuzz_alloc_hooks(&g_as)};
    pf_map *map = NULL;
    FUZZ_CHECK(pf_grid_create(&gd, &map) == PF_OK);
    pf_ctx *ctx = NULL;
    FUZZ_CHECK(pf_ctx_create(map, &(pf_ctx_desc){.allocator = fuzz_alloc_hooks(&g_as)}, &ctx) == PF_OK);
    pf_move_filter f;
    read_filter(&r, &f, rb(&r));
    for (int q = 0; q < 16 && r.p < r.end; q++) {
        run_query(map, ctx, &f, &r);
        uint8_t m2 = rb(&r);
        if (m2 & 0x40u) read_filter(&r, &f, m2); /* the next queries run another movement type */
    }
    pf_ctx_destroy(ctx);
    pf_map_destroy(map);
    FUZZ_CHECK(fuzz_alloc_live(&g_as) == 0 && g_as.bytes == 0);
    fuzz_alloc_reset(&g_as);
    return 0;
}
