/* test_search_api.c - the search API end to end: every algorithm on small grids of every movement
 * rule, statuses, limits, output buffers, sliced search, shortest-path trees, generation-stamp
 * wrap-around, tie-breaking, reverse graph search, allocation behaviour. Costs are checked against
 * the independent oracle (tests/support/oracle.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "oracle.h"
#include "maps.h"
#include "testutil.h" /* test_tracker, close_to (1e-9 relative, as EPS) */
#include "search/ctx_internal.h" /* pf__ctx_set_gen, PF__GEN_MASK: force the generation wrap */

#define EPS 1e-9

/* Grid from rows: '.' open (class 1), '#' blocked, 'W' class 2, '1'..'9' class 1 with that cost
 * multiplier. */
static pf_map *grid_from(const char *const *rows, uint32_t h, pf_moves moves)
{
    uint32_t w = (uint32_t)strlen(rows[0]);
    uint8_t *cls = malloc((size_t)w * h);
    float *cost = malloc((size_t)w * h * sizeof(float));
    int weighted = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            char ch = rows[y][x];
            size_t i = (size_t)y * w + x;
            cls[i] = ch == '#' ? 0 : ch == 'W' ? 2 : 1;
            cost[i] = ch >= '1' && ch <= '9' ? (float)(ch - '0') : 1.0f;
            weighted |= cost[i] != 1.0f;
        }
    pf_map *m = grid_make(w, h, moves, cls, weighted ? cost : NULL);
    free(cls);
    free(cost);
    return m;
}

static const char *const MAZE[] = {
    "........",
    ".##.##..",
    ".#...#.#",
    ".#.#.#..",
    "...#...#",
    "##.#.#..",
};
static const char *const MAZE_W[] = {
    "..3.....",
    ".##.##9.",
    ".#.2.#.#",
    ".#5#.#..",
    "...#2.4#",
    "##.#.#..",
};
enum { MAZE_H = 6 };

static const pf_moves ALL_MOVES[] = {PF_MOVES_4, PF_MOVES_8_NO_CUT, PF_MOVES_8_CUT, PF_MOVES_HEX};

/* Checks one search result: status against the oracle, endpoints, legality and cost of the path. */
static void check_one(const pf_map *m, pf_ctx *ctx, uint32_t s, uint32_t g, const pf_search_desc *d, double opt)
{
    uint32_t nodes[512];
    pf_point pts[512];
    pf_path path = {.nodes = nodes, .points = pts, .capacity = 512};
    pf_stats st;
    pf_status r = pf_search(ctx, s, g, d, &path, &st);
    pf_algo a = d->algo;
    if (!isfinite(opt)) {
        assert_int_equal(r, PF_NO_PATH);
        assert_int_equal(path.len, 0);
        assert_true(isinf(st.cost));
        return;
    }
    assert_int_equal(r, PF_OK);
    assert_true(path.len >= 1);
    assert_int_equal(st.path_len, path.len);
    assert_int_equal(nodes[0], s);
    assert_int_equal(nodes[path.len - 1], g);
    double pc = oracle_path_cost(m, nodes, path.len);
    if (!close_to(pc, st.cost))
        fprintf(stderr, "algo %s %u->%u: path cost %.9f, reported %.9f\n", pf_algo_name(a), s, g, pc, st.cost);
    assert_true(close_to(pc, st.cost));
    for (uint32_t i = 0; i < path.len; i++) {
        pf_point p = pf_grid_point(m, nodes[i]);
        assert_int_equal(pts[i].x, p.x);
        assert_int_equal(pts[i].y, p.y);
    }
    switch (a) {
    case PF_ALGO_WASTAR: assert_true(st.cost <= d->weight * opt + EPS); break;
    case PF_ALGO_GREEDY:
    case PF_ALGO_BFS: assert_true(st.cost >= opt - EPS); break;
    default:
        if (!close_to(st.cost, opt)) fprintf(stderr, "algo %s %u->%u: %.9f, optimal %.9f\n", pf_algo_name(a), s, g, st.cost, opt);
        assert_true(close_to(st.cost, opt));
    }
}

static void test_every_algorithm_small_grids(void **state)
{
    (void)state;
    static const pf_algo algos[] = {PF_ALGO_ASTAR, PF_ALGO_WASTAR, PF_ALGO_DIJKSTRA, PF_ALGO_BFS,
                                    PF_ALGO_GREEDY, PF_ALGO_JPS, PF_ALGO_JPS_PLUS};
    for (int wi = 0; wi < 2; wi++)
        for (size_t mi = 0; mi < 4; mi++) {
            pf_map *m = grid_from(wi ? MAZE_W : MAZE, MAZE_H, ALL_MOVES[mi]);
            assert_int_equal(pf_grid_weighted(m), wi);
            pf_ctx *ctx;
            assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
            uint32_t n = pf_map_node_count(m);
            for (uint32_t s = 0; s < n; s++) {
                pf_point sp = pf_grid_point(m, s);
                if (!pf_grid_class(m, sp.x, sp.y)) continue;
                double *o = oracle_all(m, s, 0);
                for (uint32_t g = 0; g < n; g++) {
                    pf_point gp = pf_grid_point(m, g);
                    if (!pf_grid_class(m, gp.x, gp.y)) continue;
                    for (size_t ai = 0; ai < sizeof algos / sizeof algos[0]; ai++) {
                        pf_search_desc d = {.algo = algos[ai], .weight = algos[ai] == PF_ALGO_WASTAR ? 1.5 : 0};
                        check_one(m, ctx, s, g, &d, o[g]);
                    }
                    /* BFS minimises steps; with unit step costs that is the optimum */
                    if (!wi && (ALL_MOVES[mi] == PF_MOVES_4 || ALL_MOVES[mi] == PF_MOVES_HEX) && isfinite(o[g])) {
                        pf_stats st;
                        assert_int_equal(pf_search(ctx, s, g, &(pf_search_desc){.algo = PF_ALGO_BFS}, NULL, &st), PF_OK);
                        assert_true(close_to(st.cost, o[g]));
                    }
                }
                free(o);
            }
            pf_ctx_destroy(ctx);
            pf_map_destroy(m);
        }
}

static void test_heuristics_on_grids(void **state)
{
    (void)state;
    /* admissible heuristics per movement rule: A* stays optimal with each, and with their max */
    struct { pf_moves mv; uint32_t set; } cases[] = {
        {PF_MOVES_4, (1u << PF_HEUR_ZERO) | (1u << PF_HEUR_MANHATTAN) | (1u << PF_HEUR_OCTILE) |
                         (1u << PF_HEUR_CHEBYSHEV) | (1u << PF_HEUR_EUCLIDEAN)},
        {PF_MOVES_8_NO_CUT, (1u << PF_HEUR_ZERO) | (1u << PF_HEUR_OCTILE) | (1u << PF_HEUR_CHEBYSHEV) |
                                (1u << PF_HEUR_EUCLIDEAN)},
        {PF_MOVES_8_CUT, (1u << PF_HEUR_ZERO) | (1u << PF_HEUR_OCTILE) | (1u << PF_HEUR_CHEBYSHEV) |
                             (1u << PF_HEUR_EUCLIDEAN)},
        {PF_MOVES_HEX, (1u << PF_HEUR_ZERO) | (1u << PF_HEUR_HEX) | (1u << PF_HEUR_CHEBYSHEV)},
    };
    for (int wi = 0; wi < 2; wi++)
        for (size_t c = 0; c < 4; c++) {
            pf_map *m = grid_from(wi ? MAZE_W : MAZE, MAZE_H, cases[c].mv);
            pf_ctx *ctx;
            assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
            uint32_t n = pf_map_node_count(m);
            for (uint32_t s = 0; s < n; s += 3) {
                if (!pf_grid_class(m, pf_grid_point(m, s).x, pf_grid_point(m, s).y)) continue;
                double *o = oracle_all(m, s, 0);
                for (uint32_t g = 0; g < n; g++) {
                    if (!pf_grid_class(m, pf_grid_point(m, g).x, pf_grid_point(m, g).y)) continue;
                    for (int h = PF_HEUR_ZERO; h < PF_HEUR_MAX; h++) {
                        if (!(cases[c].set & (1u << h))) continue;
                        check_one(m, ctx, s, g, &(pf_search_desc){.heuristic = (pf_heur)h}, o[g]);
                    }
                    check_one(m, ctx, s, g, &(pf_search_desc){.heuristic = PF_HEUR_MAX, .heuristic_set = cases[c].set}, o[g]);
                }
                free(o);
            }
            /* Manhattan overestimates diagonals on 8-connected grids: still a legal path */
            if (cases[c].mv == PF_MOVES_8_CUT) {
                pf_stats st;
                assert_int_equal(pf_search(ctx, 0, n - 1, &(pf_search_desc){.heuristic = PF_HEUR_MANHATTAN}, NULL, &st),
                                 PF_OK);
                assert_true(st.cost >= oracle_cost(m, 0, n - 1) - EPS);
            }
            pf_ctx_destroy(ctx);
            pf_map_destroy(m);
        }
}

/* exact remaining cost as a callback heuristic: A* then expands only the path */
typedef struct exact_h { const double *dist; } exact_h;
static double exact_cb(const pf_map *m, uint32_t node, uint32_t goal, void *user)
{
    (void)m;
    (void)goal;
    double v = ((const exact_h *)user)->dist[node];
    return isfinite(v) ? v : 1e9;
}

static void test_callback_heuristic_on_grid(void **state)
{
    (void)state;
    /* unit costs: grid distances are symmetric, so the oracle from the goal is the exact h */
    pf_map *m = grid_from(MAZE, MAZE_H, PF_MOVES_8_NO_CUT);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t s = pf_grid_node(m, 0, 0), g = pf_grid_node(m, 7, 5);
    double *to_goal = oracle_all(m, g, 0);
    exact_h eh = {to_goal};
    uint32_t nodes[64];
    pf_path path = {.nodes = nodes, .capacity = 64};
    pf_stats st;
    pf_search_desc d = {.heuristic = PF_HEUR_CALLBACK, .heuristic_fn = exact_cb, .heuristic_user = &eh};
    assert_int_equal(pf_search(ctx, s, g, &d, &path, &st), PF_OK);
    assert_true(close_to(st.cost, oracle_cost(m, s, g)));
    /* a perfect h and deeper-first ties: only the path is expanded */
    assert_int_equal(st.expanded, path.len - 1);
    d = (pf_search_desc){.heuristic = PF_HEUR_MAX, .heuristic_set = (1u << PF_HEUR_CALLBACK) | (1u << PF_HEUR_OCTILE),
                         .heuristic_fn = exact_cb, .heuristic_user = &eh};
    assert_int_equal(pf_search(ctx, s, g, &d, &path, &st), PF_OK);
    assert_true(close_to(st.cost, oracle_cost(m, s, g)));
    assert_int_equal(st.expanded, path.len - 1);
    free(to_goal);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

/* the exact cost less a constant: still consistent, and negative on most cells */
typedef struct shifted_h { const double *dist; double shift; } shifted_h;
static double shifted_cb(const pf_map *m, uint32_t node, uint32_t goal, void *user)
{
    (void)m;
    (void)goal;
    const shifted_h *sh = user;
    double v = sh->dist[node];
    return isfinite(v) ? v - sh->shift : 1e9;
}

static void test_negative_callback_heuristic(void **state)
{
    (void)state;
    /* f along the path is opt - shift < 0, and f elsewhere straddles zero: the open list must order
     * negative keys below positive ones and among themselves, and the deeper-first tie key must
     * order negative h too, or A* pops the goal early at a dearer cost. The goal's own estimate is
     * taken as 0 (test_negative_callback_at_goal), so every node whose key is below opt comes off
     * before it: more expansions than the path's nodes, never a reopening (still consistent) */
    pf_map *m = grid_from(MAZE, MAZE_H, PF_MOVES_8_NO_CUT);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t n = pf_map_node_count(m);
    for (uint32_t g = 0; g < n; g += 7) {
        double *to_goal = oracle_all(m, g, 0);
        for (uint32_t s = 0; s < n; s += 3) {
            double opt = to_goal[s];
            if (!isfinite(opt) || s == g) continue;
            shifted_h sh = {to_goal, opt + 1.5};
            uint32_t nodes[64];
            pf_path path = {.nodes = nodes, .capacity = 64};
            pf_stats st;
            pf_search_desc d = {.heuristic = PF_HEUR_CALLBACK, .heuristic_fn = shifted_cb, .heuristic_user = &sh};
            assert_int_equal(pf_search(ctx, s, g, &d, &path, &st), PF_OK);
            assert_true(close_to(st.cost, opt));
            assert_true(st.expanded >= path.len - 1);
            assert_int_equal(st.reopened, 0);
        }
        free(to_goal);
    }
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void test_callback_in_max_on_expensive_grid(void **state)
{
    (void)state;
    /* Every multiplier is >= 2, so built-in heuristics (in steps) are scaled by 2. A callback
     * already returns costs: scaled again inside PF_HEUR_MAX it would overestimate and lure A*
     * through the cost-9 cell (11) instead of around it (8). */
    static const char *const rows[] = {"292", "222"};
    pf_map *m = grid_from(rows, 2, PF_MOVES_4);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t s = pf_grid_node(m, 0, 0), g = pf_grid_node(m, 2, 0);
    static const double exact[6] = {8, 2, 0, 6, 4, 2}; /* cost from each cell to the goal */
    exact_h eh = {exact};
    double opt = oracle_cost(m, s, g);
    assert_true(opt == 8.0);
    pf_stats st;
    pf_search_desc d = {.heuristic = PF_HEUR_CALLBACK, .heuristic_fn = exact_cb, .heuristic_user = &eh};
    assert_int_equal(pf_search(ctx, s, g, &d, NULL, &st), PF_OK);
    assert_true(st.cost == opt);
    d.heuristic = PF_HEUR_MAX;
    d.heuristic_set = (1u << PF_HEUR_CALLBACK) | (1u << PF_HEUR_MANHATTAN);
    assert_int_equal(pf_search(ctx, s, g, &d, NULL, &st), PF_OK);
    assert_true(st.cost == opt);
    /* max_cost pruning uses the admissible h: a budget equal to the optimum still finds it */
    d.max_cost = opt;
    assert_int_equal(pf_search(ctx, s, g, &d, NULL, &st), PF_OK);
    assert_true(st.cost == opt);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void test_hex_layout(void **state)
{
    (void)state;
    /* odd-r: odd rows are shifted half a cell right */
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 4, .height = 4, .moves = PF_MOVES_HEX}, &m), PF_OK);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    struct { int sx, sy, gx, gy; double cost; } q[] = {
        {0, 0, 0, 1, 1}, /* even row: SE is (x, y+1) */
        {1, 0, 0, 1, 1}, /* even row: SW is (x-1, y+1) */
        {1, 1, 2, 0, 1}, /* odd row: NE is (x+1, y-1) */
        {1, 1, 1, 0, 1}, /* odd row: NW is (x, y-1) */
        {0, 1, 1, 2, 1}, /* odd row: SE is (x+1, y+1) */
        {0, 0, 1, 1, 2}, /* not a neighbour on an even row */
        {1, 1, 0, 0, 2}, /* not a neighbour from an odd row */
        {0, 0, 3, 3, 5},
        {0, 3, 3, 0, 4},
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        pf_stats st;
        uint32_t s = pf_grid_node(m, q[i].sx, q[i].sy), g = pf_grid_node(m, q[i].gx, q[i].gy);
        assert_int_equal(pf_search(ctx, s, g, NULL, NULL, &st), PF_OK);
        if (st.cost != q[i].cost) fprintf(stderr, "hex (%d,%d)->(%d,%d): %g\n", q[i].sx, q[i].sy, q[i].gx, q[i].gy, st.cost);
        assert_true(st.cost == q[i].cost);
        assert_true(oracle_cost(m, s, g) == q[i].cost);
    }
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static pf_map *maze(pf_moves mv) { return grid_from(MAZE, MAZE_H, mv); }

static void test_start_equals_goal(void **state)
{
    (void)state;
    pf_map *m = maze(PF_MOVES_8_NO_CUT);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    for (int a = PF_ALGO_ASTAR; a <= PF_ALGO_GREEDY; a++) {
        uint32_t nodes[4] = {99, 99, 99, 99};
        pf_path path = {.nodes = nodes, .capacity = 4};
        pf_stats st;
        assert_int_equal(pf_search(ctx, 11, 11, &(pf_search_desc){.algo = (pf_algo)a}, &path, &st), PF_OK);
        assert_int_equal(path.len, 1);
        assert_int_equal(nodes[0], 11);
        assert_int_equal(nodes[1], 99);
        assert_true(st.cost == 0.0);
        assert_int_equal(st.expanded, 0);
        assert_int_equal(st.path_len, 1);
    }
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void test_invalid_start_goal(void **state)
{
    (void)state;
    pf_map *m = maze(PF_MOVES_8_NO_CUT);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t open = pf_grid_node(m, 0, 0), blocked = pf_grid_node(m, 1, 1);
    uint32_t n = pf_map_node_count(m);
    uint32_t nodes[8];
    pf_path path = {.nodes = nodes, .capacity = 8, .len = 77};
    pf_stats st = {.cost = 5, .expanded = 5};
    assert_int_equal(pf_search(ctx, blocked, open, NULL, &path, &st), PF_INVALID_START);
    assert_int_equal(path.len, 0);
    assert_true(isinf(st.cost));
    assert_int_equal(st.expanded, 0);
    assert_int_equal(pf_search(ctx, n, open, NULL, &path, &st), PF_INVALID_START);
    assert_int_equal(pf_search(ctx, PF_NODE_NONE, open, NULL, &path, &st), PF_INVALID_START);
    assert_int_equal(pf_search(ctx, open, blocked, NULL, &path, &st), PF_INVALID_GOAL);
    assert_int_equal(pf_search(ctx, open, n, NULL, &path, &st), PF_INVALID_GOAL);
    assert_int_equal(pf_search(ctx, open, PF_NODE_NONE, NULL, &path, &st), PF_INVALID_GOAL);
    assert_int_equal(pf_search(NULL, open, open, NULL, &path, &st), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_search_begin(ctx, blocked, open, NULL), PF_INVALID_START);
    assert_int_equal(pf_search_tree(ctx, blocked, NULL), PF_INVALID_START);
    /* graphs: only the id range matters */
    pf_map *g;
    pf_edge e[1] = {{0, 1, 1}};
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 2, .edge_count = 1, .edges = e}, &g), PF_OK);
    pf_ctx *gc;
    assert_int_equal(pf_ctx_create(g, NULL, &gc), PF_OK);
    assert_int_equal(pf_search(gc, 2, 0, NULL, NULL, NULL), PF_INVALID_START);
    assert_int_equal(pf_search(gc, 0, 2, NULL, NULL, NULL), PF_INVALID_GOAL);
    assert_int_equal(pf_search(gc, 1, 0, NULL, NULL, NULL), PF_NO_PATH);
    assert_int_equal(pf_search(gc, 0, 1, NULL, NULL, NULL), PF_OK);
    pf_ctx_destroy(gc);
    pf_map_destroy(g);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void test_terrain_classes_and_components(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "..WW#...",
        "..WW#...",
        "....#...",
    };
    for (size_t mi = 0; mi < 4; mi++) {
        pf_map *m = grid_from(rows, 3, ALL_MOVES[mi]);
        pf_ctx *ctx;
        assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
        pf_stats st;
        uint32_t path_nodes[8];
        pf_path path = {.nodes = path_nodes, .capacity = 8};
        /* ground to water: different classes never connect, answered without searching */
        assert_int_equal(pf_search(ctx, pf_grid_node(m, 0, 0), pf_grid_node(m, 2, 0), NULL, &path, &st), PF_NO_PATH);
        assert_int_equal(st.expanded, 0);
        assert_int_equal(path.len, 0);
        assert_true(isinf(st.cost));
        /* water to water is fine */
        assert_int_equal(pf_search(ctx, pf_grid_node(m, 2, 0), pf_grid_node(m, 3, 1), NULL, NULL, &st), PF_OK);
        /* ground on the other side of the wall: another component */
        for (int a = PF_ALGO_ASTAR; a <= PF_ALGO_GREEDY; a++) {
            assert_int_equal(pf_search(ctx, pf_grid_node(m, 0, 2), pf_grid_node(m, 7, 2),
                                       &(pf_search_desc){.algo = (pf_algo)a}, NULL, &st), PF_NO_PATH);
            assert_true(isinf(st.cost));
        }
        /* walking around the water on ground */
        assert_int_equal(pf_search(ctx, pf_grid_node(m, 0, 0), pf_grid_node(m, 3, 2), NULL, NULL, &st), PF_OK);
        assert_true(close_to(st.cost, oracle_cost(m, pf_grid_node(m, 0, 0), pf_grid_node(m, 3, 2))));
        pf_ctx_destroy(ctx);
        pf_map_destroy(m);
    }
}

static void test_max_expansions(void **state)
{
    (void)state;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 30, .height = 1, .moves = PF_MOVES_4}, &m), PF_OK);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t nodes[64];
    pf_path path = {.nodes = nodes, .capacity = 64};
    pf_stats st;
    for (int a = PF_ALGO_ASTAR; a <= PF_ALGO_GREEDY; a++) {
        pf_search_desc d = {.algo = (pf_algo)a, .max_expansions = 5};
        assert_int_equal(pf_search(ctx, 0, 29, &d, &path, &st), PF_LIMIT_REACHED);
        assert_int_equal(st.expanded, 5);
        assert_int_equal(path.len, 0);
        assert_true(isinf(st.cost));
        d.max_expansions = 29; /* 29 expansions: cells 0..28; the goal is popped, not expanded */
        assert_int_equal(pf_search(ctx, 0, 29, &d, &path, &st), PF_OK);
        assert_int_equal(st.expanded, 29);
        assert_true(st.cost == 29.0);
        d.max_expansions = 28;
        assert_int_equal(pf_search(ctx, 0, 29, &d, &path, &st), PF_LIMIT_REACHED);
    }
    /* a tree search has no goal: it stops at the limit, on grids as on graphs */
    pf_search_desc td = {.max_expansions = 30};
    assert_int_equal(pf_search_tree(ctx, 0, &td), PF_LIMIT_REACHED);
    td.max_expansions = 31; /* 30 cells, all expanded, then the open list runs dry */
    assert_int_equal(pf_search_tree(ctx, 0, &td), PF_OK);
    pf_map *g;
    pf_edge e3[2] = {{0, 1, 1.0}, {1, 2, 1.0}};
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 3, .edge_count = 2, .edges = e3}, &g), PF_OK);
    pf_ctx *gc;
    assert_int_equal(pf_ctx_create(g, NULL, &gc), PF_OK);
    td.max_expansions = 3;
    assert_int_equal(pf_search_tree(gc, 0, &td), PF_LIMIT_REACHED);
    pf_map *l3;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 3, .height = 1, .moves = PF_MOVES_4}, &l3), PF_OK);
    pf_ctx *lc;
    assert_int_equal(pf_ctx_create(l3, NULL, &lc), PF_OK);
    assert_int_equal(pf_search_tree(lc, 0, &td), PF_LIMIT_REACHED);
    pf_ctx_destroy(lc);
    pf_map_destroy(l3);
    pf_ctx_destroy(gc);
    pf_map_destroy(g);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

/* a broken callback: NaN everywhere but at the goal */
/* Admissible but below zero at the goal alone (h* there is 0, so any h <= 0 is admissible). */
static double low_goal_cb(const pf_map *m, uint32_t node, uint32_t goal, void *user)
{
    (void)m;
    (void)user;
    return node == goal ? -100.0 : 0.0;
}

static void test_negative_callback_at_goal(void **state)
{
    (void)state;
    /* 0 -> 1 costs 10 direct, 2 through node 2: with the goal's key at g - 100 the goal came off
     * the list at its first sight, by the dear arc (cost 10); its estimate is taken as 0 */
    const pf_edge e[] = {{0, 1, 10.0}, {0, 2, 1.0}, {2, 1, 1.0}};
    pf_map *g;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 3, .edge_count = 3, .edges = e}, &g), PF_OK);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(g, NULL, &ctx), PF_OK);
    const pf_algo algos[] = {PF_ALGO_ASTAR, PF_ALGO_WASTAR};
    for (size_t a = 0; a < 2; a++) {
        pf_stats st;
        pf_search_desc d = {.algo = algos[a], .heuristic = PF_HEUR_CALLBACK, .heuristic_fn = low_goal_cb};
        assert_int_equal(pf_search(ctx, 0, 1, &d, NULL, &st), PF_OK);
        assert_true(close_to(st.cost, 2.0));
    }
    pf_ctx_destroy(ctx);
    pf_map_destroy(g);
}

static double nan_cb(const pf_map *m, uint32_t node, uint32_t goal, void *user)
{
    (void)m;
    (void)user;
    return node == goal ? 0.0 : NAN;
}

static void test_nan_callback_heuristic(void **state)
{
    (void)state;
    /* NaN is taken as no estimate: costs stay optimal (as a key it would sort first and let the
     * goal out at the first sight of it) */
    for (size_t mi = 0; mi < 3; mi++) {
        pf_map *m = grid_from(MAZE_W, MAZE_H, ALL_MOVES[mi]);
        pf_ctx *ctx;
        assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
        uint32_t n = pf_map_node_count(m);
        for (uint32_t s = 0; s < n; s += 5)
            for (uint32_t g = 2; g < n; g += 7) {
                double opt = oracle_cost(m, s, g);
                pf_stats st;
                pf_search_desc d = {.heuristic = PF_HEUR_CALLBACK, .heuristic_fn = nan_cb};
                pf_status r = pf_search(ctx, s, g, &d, NULL, &st);
                if (!isfinite(opt)) {
                    assert_true(r == PF_NO_PATH || r == PF_INVALID_START || r == PF_INVALID_GOAL);
                    continue;
                }
                assert_int_equal(r, PF_OK);
                assert_true(close_to(st.cost, opt));
            }
        pf_ctx_destroy(ctx);
        pf_map_destroy(m);
    }
}

static void test_max_cost(void **state)
{
    (void)state;
    pf_map *m = maze(PF_MOVES_4);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t s = pf_grid_node(m, 0, 0), g = pf_grid_node(m, 7, 5);
    double opt = oracle_cost(m, s, g);
    assert_true(opt == 12.0); /* along the top row, then down column 6 */
    pf_stats st;
    static const pf_algo algos[] = {PF_ALGO_ASTAR, PF_ALGO_DIJKSTRA};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pf_search(ctx, s, g, &(pf_search_desc){.algo = algos[i], .max_cost = opt - 0.5}, NULL, &st),
                         PF_LIMIT_REACHED);
        assert_true(isinf(st.cost));
        assert_int_equal(pf_search(ctx, s, g, &(pf_search_desc){.algo = algos[i], .max_cost = opt}, NULL, &st), PF_OK);
        assert_true(st.cost == opt);
        /* nothing beyond max_cost is ever reached */
        assert_int_equal(pf_search_tree(ctx, s, &(pf_search_desc){.max_cost = 5}), PF_OK);
        for (uint32_t v = 0; v < pf_map_node_count(m); v++) {
            double c = pf_ctx_cost(ctx, v);
            assert_true(isinf(c) || c <= 5.0);
        }
        assert_true(pf_ctx_cost(ctx, pf_grid_node(m, 5, 0)) == 5.0);
    }
    /* a goal that is unreachable anyway: no path, not a limit */
    static const char *const rows[] = {"..#..", "..#.."};
    pf_map *m2 = grid_from(rows, 2, PF_MOVES_4);
    pf_ctx *c2;
    assert_int_equal(pf_ctx_create(m2, NULL, &c2), PF_OK);
    assert_int_equal(pf_search(c2, 0, 4, &(pf_search_desc){.max_cost = 100}, NULL, &st), PF_NO_PATH);
    pf_ctx_destroy(c2);
    pf_map_destroy(m2);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void test_buffer_too_small(void **state)
{
    (void)state;
    pf_map *m = maze(PF_MOVES_8_NO_CUT);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t s = pf_grid_node(m, 0, 0), g = pf_grid_node(m, 7, 5);
    uint32_t small[3] = {7, 7, 7};
    pf_path path = {.nodes = small, .capacity = 3};
    pf_stats st;
    assert_int_equal(pf_search(ctx, s, g, NULL, &path, &st), PF_BUFFER_TOO_SMALL);
    uint32_t need = path.len;
    assert_true(need > 3);
    assert_int_equal(small[0], 7); /* nothing written */
    assert_int_equal(small[2], 7);
    assert_int_equal(st.path_len, need);
    /* the result stays in the context: ask again with room */
    uint32_t *big = malloc(need * sizeof *big);
    pf_point *pts = malloc(need * sizeof *pts);
    pf_path p2 = {.nodes = big, .points = pts, .capacity = need};
    pf_stats st2;
    assert_int_equal(pf_search_path(ctx, &p2, &st2), PF_OK);
    assert_int_equal(p2.len, need);
    assert_int_equal(big[0], s);
    assert_int_equal(big[need - 1], g);
    assert_true(close_to(oracle_path_cost(m, big, need), st2.cost));
    assert_true(close_to(st2.cost, oracle_cost(m, s, g)));
    assert_int_equal(st2.expanded, st.expanded);
    for (uint32_t i = 0; i < need; i++) {
        assert_int_equal(pts[i].x, (int32_t)(big[i] % 8));
        assert_int_equal(pts[i].y, (int32_t)(big[i] / 8));
    }
    /* points only, too small */
    pf_point few[2];
    pf_path p3 = {.points = few, .capacity = 2};
    assert_int_equal(pf_search_path(ctx, &p3, NULL), PF_BUFFER_TOO_SMALL);
    assert_int_equal(p3.len, need);
    /* no arrays at all: just the length */
    pf_path p4 = {0};
    assert_int_equal(pf_search(ctx, s, g, NULL, &p4, NULL), PF_OK);
    assert_int_equal(p4.len, need);
    assert_int_equal(pf_search_path(NULL, &p4, NULL), PF_INVALID_ARGUMENT);
    free(big);
    free(pts);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void test_sliced_equals_full(void **state)
{
    (void)state;
    for (size_t mi = 0; mi < 4; mi++)
        for (int wi = 0; wi < 2; wi++) {
            pf_map *m = grid_from(wi ? MAZE_W : MAZE, MAZE_H, ALL_MOVES[mi]);
            pf_ctx *full, *sl;
            assert_int_equal(pf_ctx_create(m, NULL, &full), PF_OK);
            assert_int_equal(pf_ctx_create(m, NULL, &sl), PF_OK);
            assert_int_equal(pf_search_step(sl, 1), PF_INVALID_ARGUMENT); /* nothing begun */
            assert_int_equal(pf_search_path(sl, NULL, NULL), PF_INVALID_ARGUMENT);
            uint32_t n = pf_map_node_count(m);
            for (uint32_t s = 0; s < n; s += 5)
                for (uint32_t g = 1; g < n; g += 3) {
                    for (int a = PF_ALGO_ASTAR; a <= PF_ALGO_GREEDY; a++) {
                        pf_search_desc d = {.algo = (pf_algo)a, .weight = a == PF_ALGO_WASTAR ? 2.0 : 0};
                        uint32_t n1[128], n2[128];
                        pf_path p1 = {.nodes = n1, .capacity = 128}, p2 = {.nodes = n2, .capacity = 128};
                        pf_stats s1, s2;
                        pf_status r1 = pf_search(full, s, g, &d, &p1, &s1);
                        pf_status r2 = pf_search_begin(sl, s, g, &d);
                        if (pf_failed(r1)) {
                            assert_int_equal(r2, r1);
                            continue;
                        }
                        /* begin answers at once when start and goal cannot connect */
                        assert_true(r2 == PF_IN_PROGRESS || r2 == PF_NO_PATH);
                        uint32_t budget = 1 + (s + g + (uint32_t)a) % 4, calls = 0;
                        while (r2 == PF_IN_PROGRESS && (r2 = pf_search_step(sl, budget)) == PF_IN_PROGRESS) {
                            assert_int_equal(pf_search_path(sl, &p2, NULL), PF_IN_PROGRESS);
                            calls++;
                            assert_true(calls < 1000);
                        }
                        assert_int_equal(pf_search_step(sl, budget), r2); /* finished: stays finished */
                        assert_int_equal(pf_search_path(sl, &p2, &s2), r1);
                        assert_int_equal(r2, r1);
                        assert_int_equal(s2.expanded, s1.expanded);
                        assert_int_equal(s2.pushed, s1.pushed);
                        assert_int_equal(p2.len, p1.len);
                        assert_memory_equal(n1, n2, p1.len * sizeof n1[0]);
                        assert_true(s1.cost == s2.cost || (isinf(s1.cost) && isinf(s2.cost)));
                        if (s1.expanded > budget) assert_true(calls > 0);
                    }
                }
            pf_ctx_destroy(full);
            pf_ctx_destroy(sl);
            pf_map_destroy(m);
        }
}

static pf_map *random_graph(uint32_t n, uint32_t m, unsigned seed, int coords)
{
    srand(seed);
    pf_edge *e = malloc(m * sizeof *e);
    double *xy = malloc(2 * n * sizeof *xy);
    for (uint32_t i = 0; i < 2 * n; i++) xy[i] = rand() % 100;
    for (uint32_t i = 0; i < m; i++) {
        uint32_t u = (uint32_t)rand() % n, v = (uint32_t)rand() % n;
        double dx = xy[2 * u] - xy[2 * v], dy = xy[2 * u + 1] - xy[2 * v + 1];
        e[i] = (pf_edge){u, v, sqrt(dx * dx + dy * dy) * (1.0 + rand() % 5)};
        if (i % 17 == 0) e[i].weight = 0;
    }
    pf_map *g;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = n, .edge_count = m, .edges = e,
                                                      .coords = coords ? xy : NULL}, &g), PF_OK);
    free(e);
    free(xy);
    return g;
}

static void test_tree_matches_oracle(void **state)
{
    (void)state;
    for (size_t mi = 0; mi < 4; mi++)
        for (int wi = 0; wi < 2; wi++) {
            pf_map *m = grid_from(wi ? MAZE_W : MAZE, MAZE_H, ALL_MOVES[mi]);
            pf_ctx *ctx;
            assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
            uint32_t n = pf_map_node_count(m);
            for (uint32_t s = 0; s < n; s++) {
                pf_point sp = pf_grid_point(m, s);
                if (!pf_grid_class(m, sp.x, sp.y)) continue;
                assert_int_equal(pf_search_tree(ctx, s, NULL), PF_OK);
                double *o = oracle_all(m, s, 0);
                for (uint32_t v = 0; v < n; v++) {
                    double c = pf_ctx_cost(ctx, v);
                    assert_true(close_to(c, o[v]) || (isinf(c) && isinf(o[v])));
                    assert_int_equal(pf_ctx_closed(ctx, v), isfinite(o[v]));
                    uint32_t p = pf_ctx_parent(ctx, v);
                    if (v == s || !isfinite(o[v])) {
                        assert_int_equal(p, PF_NODE_NONE);
                    } else {
                        uint32_t step[2] = {p, v};
                        assert_true(close_to(o[p] + oracle_path_cost(m, step, 2), o[v]));
                    }
                }
                free(o);
            }
            assert_true(isinf(pf_ctx_cost(ctx, n)));
            assert_int_equal(pf_ctx_parent(ctx, n), PF_NODE_NONE);
            /* a tree has no goal: its status and no path, and the context keeps its status (it
             * was PF_COST_OVERFLOW, the tree's "cost" being INFINITY, and stayed so; a review) */
            uint32_t buf[4];
            pf_path p = {.nodes = buf, .capacity = 4};
            pf_stats st;
            assert_int_equal(pf_search_path(ctx, &p, &st), PF_OK);
            assert_int_equal(p.len, 0);
            assert_true(isinf(st.cost));
            assert_int_equal(pf_search_step(ctx, 0), PF_OK);
            { /* a flow field alike */
                uint32_t goal = 0;
                while (!pf_grid_class(m, pf_grid_point(m, goal).x, pf_grid_point(m, goal).y)) goal++;
                assert_int_equal(pf_flow_build(ctx, goal, NULL), PF_OK);
                assert_int_equal(pf_search_path(ctx, &p, NULL), PF_OK);
                assert_int_equal(p.len, 0);
                assert_int_equal(pf_search_step(ctx, 0), PF_OK);
            }
            pf_ctx_destroy(ctx);
            pf_map_destroy(m);
        }
    for (int coords = 0; coords < 2; coords++) {
        pf_map *g = random_graph(60, 200, 7u + (unsigned)coords, coords);
        pf_ctx *ctx;
        assert_int_equal(pf_ctx_create(g, NULL, &ctx), PF_OK);
        for (uint32_t s = 0; s < 60; s++)
            for (int rev = 0; rev < 2; rev++) {
                assert_int_equal(pf_search_tree(ctx, s, &(pf_search_desc){.reverse = rev}), PF_OK);
                double *o = oracle_all(g, s, rev);
                for (uint32_t v = 0; v < 60; v++) {
                    double c = pf_ctx_cost(ctx, v);
                    assert_true(close_to(c, o[v]) || (isinf(c) && isinf(o[v])));
                }
                free(o);
            }
        /* a tree with an expansion limit stops early */
        assert_int_equal(pf_search_tree(ctx, 0, &(pf_search_desc){.max_expansions = 1}) == PF_LIMIT_REACHED ||
                             pf_graph_arcs(g, 0, 0, NULL, NULL) == 0, 1);
        pf_ctx_destroy(ctx);
        pf_map_destroy(g);
    }
}

static void test_generation_wrap(void **state)
{
    (void)state;
    pf_map *m = grid_from(MAZE_W, MAZE_H, PF_MOVES_8_NO_CUT);
    pf_ctx *ctx, *ref;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    assert_int_equal(pf_ctx_create(m, NULL, &ref), PF_OK);
    uint32_t n = pf_map_node_count(m);
    /* dirty every record with real searches first, so stale stamps exist when the counter wraps */
    for (uint32_t s = 0; s < n; s += 7) pf_search_tree(ctx, s, NULL);
    uint32_t gens[] = {PF__GEN_MASK, PF__GEN_MASK - 1, PF__GEN_MASK - 2};
    for (size_t gi = 0; gi < 3; gi++) {
        pf__ctx_set_gen(ctx, gens[gi]);
        for (uint32_t k = 0; k < 6; k++) {
            uint32_t s = (k * 11 + gi) % n, g = (k * 29 + 5) % n;
            uint32_t n1[128], n2[128];
            pf_path p1 = {.nodes = n1, .capacity = 128}, p2 = {.nodes = n2, .capacity = 128};
            pf_stats s1, s2;
            pf_status r1 = pf_search(ctx, s, g, NULL, &p1, &s1);
            pf_status r2 = pf_search(ref, s, g, NULL, &p2, &s2);
            assert_int_equal(r1, r2);
            assert_true(ctx->gen >= 1 && ctx->gen <= PF__GEN_MASK);
            if (r1 != PF_OK) continue;
            assert_true(s1.cost == s2.cost);
            assert_int_equal(s1.expanded, s2.expanded);
            assert_int_equal(p1.len, p2.len);
            assert_memory_equal(n1, n2, p1.len * sizeof n1[0]);
        }
        /* the tree after a wrap is the oracle's */
        pf__ctx_set_gen(ctx, PF__GEN_MASK);
        assert_int_equal(pf_search_tree(ctx, 0, NULL), PF_OK);
        assert_int_equal(ctx->gen, 1);
        double *o = oracle_all(m, 0, 0);
        for (uint32_t v = 0; v < n; v++) {
            double c = pf_ctx_cost(ctx, v);
            assert_true(close_to(c, o[v]) || (isinf(c) && isinf(o[v])));
        }
        free(o);
    }
    /* graphs too (the parent array is separate there) */
    pf_map *g = random_graph(50, 150, 3, 1);
    pf_ctx *gc;
    assert_int_equal(pf_ctx_create(g, NULL, &gc), PF_OK);
    for (uint32_t s = 0; s < 50; s++) pf_search_tree(gc, s, NULL);
    pf__ctx_set_gen(gc, PF__GEN_MASK);
    for (uint32_t k = 0; k < 10; k++) {
        uint32_t s = (k * 7) % 50, t = (k * 13 + 1) % 50;
        pf_stats st;
        pf_status r = pf_search(gc, s, t, NULL, NULL, &st);
        double oc = oracle_cost(g, s, t);
        if (isfinite(oc)) assert_true(r == PF_OK && close_to(st.cost, oc));
        else assert_int_equal(r, PF_NO_PATH);
    }
    pf_ctx_destroy(gc);
    pf_map_destroy(g);
    pf_ctx_destroy(ctx);
    pf_ctx_destroy(ref);
    pf_map_destroy(m);
}

static void test_random_ties(void **state)
{
    (void)state;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 12, .height = 12, .moves = PF_MOVES_4}, &m), PF_OK);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t s = 0, g = 143;
    uint32_t first[64][32];
    int distinct = 0;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        uint32_t a[32], b[32];
        pf_path pa = {.nodes = a, .capacity = 32}, pb = {.nodes = b, .capacity = 32};
        pf_stats sa, sb;
        pf_search_desc d = {.tie = PF_TIE_RANDOM, .tie_seed = seed};
        assert_int_equal(pf_search(ctx, s, g, &d, &pa, &sa), PF_OK);
        assert_int_equal(pf_search(ctx, g, s, NULL, NULL, NULL), PF_OK); /* something in between */
        assert_int_equal(pf_search(ctx, s, g, &d, &pb, &sb), PF_OK);
        /* the same seed gives the same path and the same work */
        assert_true(sa.cost == 22.0 && sb.cost == 22.0);
        assert_int_equal(pa.len, pb.len);
        assert_memory_equal(a, b, pa.len * sizeof a[0]);
        assert_int_equal(sa.expanded, sb.expanded);
        int seen = 0;
        for (int k = 0; k < distinct; k++) seen |= memcmp(first[k], a, sizeof a[0] * pa.len) == 0;
        if (!seen) memcpy(first[distinct++], a, sizeof a[0] * pa.len);
    }
    /* and the seed matters: a 12x12 open grid has C(22, 11) shortest paths corner to corner */
    assert_true(distinct >= 4);
    /* FIFO and LIFO are deterministic too, and still optimal */
    for (int t = PF_TIE_DEEPER; t <= PF_TIE_LIFO; t++) {
        pf_stats st;
        assert_int_equal(pf_search(ctx, s, g, &(pf_search_desc){.tie = (pf_tie)t}, NULL, &st), PF_OK);
        assert_true(st.cost == 22.0);
    }
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void test_weighted_and_inexact_bounds(void **state)
{
    (void)state;
    pf_map *m = grid_from(MAZE_W, MAZE_H, PF_MOVES_8_NO_CUT);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t n = pf_map_node_count(m);
    double ws[] = {1.0, 1.2, 2.0, 5.0};
    for (uint32_t s = 0; s < n; s += 2) {
        double *o = oracle_all(m, s, 0);
        for (uint32_t g = 0; g < n; g++) {
            if (!isfinite(o[g])) continue;
            for (int wi = 0; wi < 4; wi++) {
                pf_stats st;
                assert_int_equal(pf_search(ctx, s, g, &(pf_search_desc){.algo = PF_ALGO_WASTAR, .weight = ws[wi]},
                                           NULL, &st), PF_OK);
                assert_true(st.cost <= ws[wi] * o[g] + EPS);
                assert_true(st.cost >= o[g] - EPS);
            }
            pf_stats st;
            assert_int_equal(pf_search(ctx, s, g, &(pf_search_desc){.algo = PF_ALGO_GREEDY}, NULL, &st), PF_OK);
            assert_true(st.cost >= o[g] - EPS);
            assert_int_equal(pf_search(ctx, s, g, &(pf_search_desc){.algo = PF_ALGO_BFS}, NULL, &st), PF_OK);
            assert_true(st.cost >= o[g] - EPS);
        }
        free(o);
    }
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void test_reverse_graph_search(void **state)
{
    (void)state;
    pf_map *g = random_graph(80, 300, 11, 1);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(g, NULL, &ctx), PF_OK);
    int found = 0;
    for (uint32_t s = 0; s < 80; s += 3)
        for (uint32_t t = 1; t < 80; t += 7) {
            uint32_t fw[128], bw[128];
            pf_path pf = {.nodes = fw, .capacity = 128}, pb = {.nodes = bw, .capacity = 128};
            pf_stats sf, sb;
            pf_status rf = pf_search(ctx, s, t, NULL, &pf, &sf);
            /* searching the reverse arcs from t finds the cost of reaching t from s */
            pf_status rb = pf_search(ctx, t, s, &(pf_search_desc){.reverse = 1}, &pb, &sb);
            assert_int_equal(rf, rb);
            if (rf != PF_OK) continue;
            found++;
            assert_true(close_to(sf.cost, sb.cost));
            assert_int_equal(bw[0], t);
            assert_int_equal(bw[pb.len - 1], s);
            /* read backwards, the reverse path is a forward path of the same cost */
            for (uint32_t i = 0; i < pb.len / 2; i++) {
                uint32_t tmp = bw[i];
                bw[i] = bw[pb.len - 1 - i];
                bw[pb.len - 1 - i] = tmp;
            }
            assert_true(close_to(oracle_path_cost(g, bw, pb.len), sf.cost));
            /* BFS backwards reports the real cost of its path */
            pf_stats sbfs;
            uint32_t bb[128];
            pf_path pbb = {.nodes = bb, .capacity = 128};
            assert_int_equal(pf_search(ctx, t, s, &(pf_search_desc){.algo = PF_ALGO_BFS, .reverse = 1}, &pbb, &sbfs),
                             PF_OK);
            for (uint32_t i = 0; i < pbb.len / 2; i++) {
                uint32_t tmp = bb[i];
                bb[i] = bb[pbb.len - 1 - i];
                bb[pbb.len - 1 - i] = tmp;
            }
            assert_true(close_to(oracle_path_cost(g, bb, pbb.len), sbfs.cost));
        }
    assert_true(found > 20);
    pf_ctx_destroy(ctx);
    pf_map_destroy(g);
    /* grids have no reverse adjacency */
    pf_map *m = maze(PF_MOVES_4);
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    assert_int_equal(pf_search(ctx, 0, 1, &(pf_search_desc){.reverse = 1}, NULL, NULL), PF_INVALID_ARGUMENT);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static double dummy_h(const pf_map *m, uint32_t n, uint32_t g, void *u)
{
    (void)m, (void)n, (void)g, (void)u;
    return 0;
}

static void test_invalid_desc_and_resolve(void **state)
{
    (void)state;
    pf_map *m = maze(PF_MOVES_8_NO_CUT);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    pf_search_desc bad[] = {
        {.algo = (pf_algo)PF_ALGO__COUNT},
        {.heuristic = (pf_heur)PF_HEUR__COUNT},
        {.tie = (pf_tie)9},
        {.algo = PF_ALGO_WASTAR, .weight = 0.5},
        {.algo = PF_ALGO_WASTAR, .weight = -2},
        {.algo = PF_ALGO_WASTAR, .weight = NAN},
        {.algo = PF_ALGO_WASTAR, .weight = INFINITY},
        {.max_cost = -1},
        {.max_cost = NAN},
        {.heuristic = PF_HEUR_CALLBACK},
        {.heuristic = PF_HEUR_MAX},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pf_stats st;
        pf_status r = pf_search(ctx, 0, 1, &bad[i], NULL, &st);
        if (r != PF_INVALID_ARGUMENT) fprintf(stderr, "bad desc %zu gave %s\n", i, pf_status_name(r));
        assert_int_equal(r, PF_INVALID_ARGUMENT);
        assert_int_equal(pf_search_begin(ctx, 0, 1, &bad[i]), PF_INVALID_ARGUMENT);
    }
    /* defaults */
    pf_search_desc r = pf_search_desc_resolve(m, NULL);
    assert_int_equal(r.algo, PF_ALGO_ASTAR);
    assert_int_equal(r.heuristic, PF_HEUR_OCTILE);
    assert_int_equal(r.tie, PF_TIE_DEEPER);
    assert_true(r.weight == 1.0);
    r = pf_search_desc_resolve(m, &(pf_search_desc){.algo = PF_ALGO_BFS, .weight = 3});
    assert_int_equal(r.heuristic, PF_HEUR_ZERO);
    assert_int_equal(r.tie, PF_TIE_FIFO);
    assert_int_equal(pf_search_desc_resolve(m, &(pf_search_desc){.algo = PF_ALGO_BFS, .tie = PF_TIE_LIFO}).tie,
                     PF_TIE_LIFO); /* honoured, not forced to FIFO */
    assert_true(r.weight == 1.0); /* weight only means something for weighted A* */
    r = pf_search_desc_resolve(m, &(pf_search_desc){.algo = PF_ALGO_WASTAR, .weight = 3});
    assert_true(r.weight == 3.0);
    pf_map *m4 = maze(PF_MOVES_4), *mh = maze(PF_MOVES_HEX);
    assert_int_equal(pf_search_desc_resolve(m4, NULL).heuristic, PF_HEUR_MANHATTAN);
    assert_int_equal(pf_search_desc_resolve(mh, NULL).heuristic, PF_HEUR_HEX);
    pf_map_destroy(m4);
    pf_map_destroy(mh);
    /* graphs: grid metrics make no sense, Euclidean needs coordinates */
    pf_map *g = random_graph(10, 20, 1, 0), *gx = random_graph(10, 20, 1, 1);
    assert_int_equal(pf_search_desc_resolve(g, NULL).heuristic, PF_HEUR_ZERO);
    assert_int_equal(pf_search_desc_resolve(gx, NULL).heuristic, PF_HEUR_EUCLIDEAN);
    pf_ctx *gc;
    assert_int_equal(pf_ctx_create(g, NULL, &gc), PF_OK);
    assert_int_equal(pf_search(gc, 0, 1, &(pf_search_desc){.heuristic = PF_HEUR_EUCLIDEAN}, NULL, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_search(gc, 0, 1, &(pf_search_desc){.heuristic = PF_HEUR_OCTILE}, NULL, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_search(gc, 0, 1, &(pf_search_desc){.heuristic = PF_HEUR_HEX}, NULL, NULL), PF_INVALID_ARGUMENT);
    assert_true(pf_failed(pf_search(gc, 0, 1, &(pf_search_desc){.heuristic = PF_HEUR_CALLBACK, .heuristic_fn = dummy_h},
                                    NULL, NULL)) == 0);
    /* Theta* on a graph: unsupported, whether it has coordinates or not (without, its forced
     * Euclidean heuristic was refused first: PF_INVALID_ARGUMENT; a review) */
    pf_ctx *gxc;
    assert_int_equal(pf_ctx_create(gx, NULL, &gxc), PF_OK);
    assert_int_equal(pf_search(gc, 0, 1, &(pf_search_desc){.algo = PF_ALGO_THETA}, NULL, NULL), PF_UNSUPPORTED);
    assert_int_equal(pf_search(gxc, 0, 1, &(pf_search_desc){.algo = PF_ALGO_THETA}, NULL, NULL), PF_UNSUPPORTED);
    pf_ctx_destroy(gxc);
    pf_ctx_destroy(gc);
    pf_map_destroy(g);
    pf_map_destroy(gx);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void test_trace_capacity(void **state)
{
    (void)state;
    pf_map *m = maze(PF_MOVES_4);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t buf[4];
    pf_trace t = {.nodes = buf, .capacity = 4, .len = 99, .total = 99};
    pf_stats st;
    assert_int_equal(pf_ctx_use_trace(ctx, &t), PF_OK);
    assert_int_equal(pf_search(ctx, 0, pf_grid_node(m, 7, 5), NULL, NULL, &st), PF_OK);
    assert_int_equal(t.len, 4);
    assert_int_equal(t.total, st.expanded + 1); /* the goal is popped too */
    assert_int_equal(buf[0], 0);
    pf_trace t0 = {0}; /* capacity 0: count only */
    assert_int_equal(pf_ctx_use_trace(ctx, &t0), PF_OK);
    assert_int_equal(pf_search(ctx, 0, pf_grid_node(m, 7, 5), NULL, NULL, &st), PF_OK);
    assert_int_equal(t0.len, 0);
    assert_int_equal(t0.total, st.expanded + 1);
    /* detached: the next search leaves the old trace alone */
    const uint32_t counted = t0.total;
    assert_int_equal(pf_ctx_use_trace(ctx, NULL), PF_OK);
    assert_int_equal(pf_search(ctx, pf_grid_node(m, 7, 5), 0, NULL, NULL, &st), PF_OK);
    assert_int_equal(t0.total, counted);
    assert_int_equal(pf_ctx_use_trace(NULL, &t0), PF_INVALID_ARGUMENT);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

/* ---- allocation ------------------------------------------------------------------------------ */

static void test_allocation(void **state)
{
    (void)state;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 64, .height = 64}, &m), PF_OK);
    test_tracker ca = {.countdown = -1};
    pf_ctx *ctx;
    pf_ctx_desc cd = {.allocator = test_tracked(&ca), .heap_capacity = 4};
    assert_int_equal(pf_ctx_create(m, &cd, &ctx), PF_OK);
    assert_ptr_equal(pf_ctx_map(ctx), m);
    assert_int_equal(pf_ctx_bytes_per_node(ctx), 16); /* the issue's bound: at most 16 bytes per cell */
    size_t before = pf_ctx_mem_size(ctx);
    pf_stats st;
    /* the open list starts at 4 entries and doubles on demand; a full tree has the widest frontier */
    assert_int_equal(pf_search(ctx, 0, 64 * 64 - 1, NULL, NULL, &st), PF_OK);
    assert_int_equal(pf_search_tree(ctx, 64 * 32 + 32, NULL), PF_OK);
    assert_true(pf_ctx_mem_size(ctx) > before);
    unsigned long after_first = ca.calls;
    /* steady state: searches of the same size allocate nothing */
    for (int i = 0; i < 20; i++) {
        assert_int_equal(pf_search(ctx, (uint32_t)i, 64 * 64 - 1 - (uint32_t)i, NULL, NULL, &st), PF_OK);
        assert_int_equal(pf_search_tree(ctx, (uint32_t)i * 100, &(pf_search_desc){.max_expansions = 50}), PF_LIMIT_REACHED);
    }
    assert_int_equal(ca.calls, after_first);
    pf_ctx_destroy(ctx);
    assert_int_equal(ca.live, 0);
    /* growth failure surfaces as PF_OUT_OF_MEMORY, and the context stays usable */
    test_tracker cf = {.countdown = -1};
    pf_ctx_desc fd = {.allocator = test_tracked(&cf), .heap_capacity = 2};
    assert_int_equal(pf_ctx_create(m, &fd, &ctx), PF_OK);
    cf.countdown = 0; /* the next allocation, and every one after it, fails */
    assert_int_equal(pf_search(ctx, 0, 64 * 64 - 1, &(pf_search_desc){.algo = PF_ALGO_DIJKSTRA}, NULL, &st),
                     PF_OUT_OF_MEMORY);
    assert_true(isinf(st.cost));
    cf.countdown = -1;
    assert_int_equal(pf_search(ctx, 0, 64 * 64 - 1, NULL, NULL, &st), PF_OK);
    assert_true(close_to(st.cost, 63 * sqrt(2.0)));
    pf_ctx_destroy(ctx);
    assert_int_equal(cf.live, 0);
    /* creation failures at every allocation leak nothing */
    for (int k = 0; k < 3; k++) {
        test_tracker c = {.countdown = k};
        pf_ctx_desc kd = {.allocator = test_tracked(&c)};
        pf_ctx *x = (pf_ctx *)&x;
        assert_int_equal(pf_ctx_create(m, &kd, &x), PF_OUT_OF_MEMORY);
        assert_null(x);
        assert_int_equal(c.live, 0);
    }
    assert_int_equal(pf_ctx_create(NULL, NULL, &ctx), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_ctx_create(m, NULL, NULL), PF_INVALID_ARGUMENT);
    pf_ctx_destroy(NULL);
    assert_int_equal(pf_ctx_bytes_per_node(NULL), 0);
    pf_map_destroy(m);
    /* graphs carry a parent array */
    pf_map *g = random_graph(10, 20, 1, 0);
    assert_int_equal(pf_ctx_create(g, NULL, &ctx), PF_OK);
    assert_int_equal(pf_ctx_bytes_per_node(ctx), 20);
    pf_ctx_destroy(ctx);
    pf_map_destroy(g);
}

static void test_jps_request(void **state)
{
    (void)state;
    /* JPS on a weighted or hex grid (or any map, while unimplemented) answers like A* */
    pf_map *m = grid_from(MAZE_W, MAZE_H, PF_MOVES_8_NO_CUT);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    pf_stats st;
    uint32_t s = pf_grid_node(m, 0, 0), g = pf_grid_node(m, 7, 5);
    pf_status r = pf_search(ctx, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS}, NULL, &st);
    assert_int_equal(r, PF_OK);
    assert_true(close_to(st.cost, oracle_cost(m, s, g)));
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_algorithm_small_grids),
        cmocka_unit_test(test_heuristics_on_grids),
        cmocka_unit_test(test_callback_heuristic_on_grid),
        cmocka_unit_test(test_callback_in_max_on_expensive_grid),
        cmocka_unit_test(test_negative_callback_heuristic),
        cmocka_unit_test(test_hex_layout),
        cmocka_unit_test(test_start_equals_goal),
        cmocka_unit_test(test_invalid_start_goal),
        cmocka_unit_test(test_terrain_classes_and_components),
        cmocka_unit_test(test_max_expansions),
        cmocka_unit_test(test_nan_callback_heuristic),
        cmocka_unit_test(test_negative_callback_at_goal),
        cmocka_unit_test(test_max_cost),
        cmocka_unit_test(test_buffer_too_small),
        cmocka_unit_test(test_sliced_equals_full),
        cmocka_unit_test(test_tree_matches_oracle),
        cmocka_unit_test(test_generation_wrap),
        cmocka_unit_test(test_random_ties),
        cmocka_unit_test(test_weighted_and_inexact_bounds),
        cmocka_unit_test(test_reverse_graph_search),
        cmocka_unit_test(test_invalid_desc_and_resolve),
        cmocka_unit_test(test_trace_capacity),
        cmocka_unit_test(test_allocation),
        cmocka_unit_test(test_jps_request),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
