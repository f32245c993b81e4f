/* test_misuse.c - the public API under caller mistakes: NULL pointers for every public function,
 * out-of-range coordinates and node ids, invalid desc values, a context used with ids of another
 * map, and sliced-search calls out of order. Each must give a clear status (or the documented
 * neutral value for accessors) and never crash.
 *
 * Not testable here, by design or by nature:
 * - A context used with the wrong map: impossible through the API. pf_ctx_create binds a context to
 *   its map and no search call takes a map, so a node id is always read in the context's own map
 *   (ids of a bigger map come back as PF_INVALID_START / PF_INVALID_GOAL, tested below).
 *   PF_WRONG_MAP is reserved for objects that take a map and a context separately (batches, tables).
 * - Use after destroy in release builds: the handle is freed memory and any use is undefined
 *   behaviour; the ASan preset (`cmake --preset asan`) reports it as heap-use-after-free.
 *   Debug builds check handle tags and stop with a message naming the call (test_debug_handles,
 *   run in child processes): a destroyed context, map or batch passed in again, a pointer that is
 *   not a handle, and a map destroyed while a context made for it lives.
 */
#define _POSIX_C_SOURCE 200809L /* fork, pipe */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "pathfind.h"
#include "oracle.h"
#include "maps.h"
#include "testutil.h"

static const char MAP[] = "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@@.\n.@...\n..W..\n";
static const char GR[] = "p sp 3 2\na 1 2 1\na 2 3 1\n";

static pf_map *grid(void)
{
    return grid_parse(MAP, sizeof MAP - 1, PF_MOVES_DEFAULT);
}

static pf_map *graph(void)
{
    pf_map *m;
    assert_int_equal(pf_graph_parse_dimacs(GR, sizeof GR - 1, NULL, 0, NULL, &m, NULL), PF_OK);
    return m;
}

static void test_status_names(void **state)
{
    (void)state;
    assert_string_equal(pf_status_name(PF_NO_PATH), "NO_PATH");
    assert_non_null(pf_status_str((pf_status)12345));
    assert_string_equal(pf_status_name((pf_status)12345), "UNKNOWN");
    assert_non_null(pf_status_str((pf_status)-12345));
    assert_true(pf_failed(PF_INVALID_ARGUMENT) && !pf_failed(PF_NO_PATH));
    assert_string_equal(pf_algo_name((pf_algo)99), "unknown");
    assert_string_equal(pf_algo_name((pf_algo)-1), "unknown");
    assert_int_equal(pf_algo_parse(NULL), PF_ALGO_UNKNOWN);
    assert_int_equal(pf_algo_parse("no-such-algo"), PF_ALGO_UNKNOWN);
}

static void test_null_map_accessors(void **state)
{
    (void)state;
    pf_map_destroy(NULL);
    assert_int_equal(pf_map_kind_of(NULL), 0);
    assert_int_equal(pf_map_node_count(NULL), 0);
    assert_int_equal(pf_map_fingerprint(NULL), 0);
    assert_int_equal(pf_map_mem_size(NULL), 0);
    assert_int_equal(pf_grid_width(NULL), 0);
    assert_int_equal(pf_grid_height(NULL), 0);
    assert_int_equal(pf_grid_moves(NULL), PF_MOVES_DEFAULT);
    assert_int_equal(pf_grid_weighted(NULL), 0);
    assert_int_equal(pf_grid_node(NULL, 0, 0), PF_NODE_NONE);
    pf_point p = pf_grid_point(NULL, 0);
    assert_true(p.x == -1 && p.y == -1);
    assert_int_equal(pf_grid_class(NULL, 0, 0), 0);
    assert_true(pf_grid_cost(NULL, 0, 0) == 0.0f);
    assert_int_equal(pf_graph_edge_count(NULL), 0);
    assert_int_equal(pf_graph_has_coords(NULL), 0);
    assert_true(pf_graph_heuristic_scale(NULL) == 0.0);
    const uint32_t *to = NULL;
    const double *w = NULL;
    assert_int_equal(pf_graph_arcs(NULL, 0, 0, &to, &w), 0);
    double x = 5, y = 5;
    assert_int_equal(pf_graph_coords(NULL, 0, &x, &y), 0);
    assert_true(x == 5 && y == 5);
    pf_search_desc d = pf_search_desc_resolve(NULL, NULL);
    assert_int_equal(d.algo, PF_ALGO_ASTAR);
    assert_true(d.weight == 1.0);
}

static void test_null_constructors(void **state)
{
    (void)state;
    pf_map *m = (pf_map *)&m;
    pf_diag diag;
    assert_int_equal(pf_grid_create(NULL, &m), PF_INVALID_ARGUMENT);
    assert_null(m);
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 2, .height = 2}, NULL), PF_INVALID_ARGUMENT);

    m = (pf_map *)&m;
    assert_int_equal(pf_grid_parse_movingai(NULL, 10, "x", NULL, &m, &diag), PF_INVALID_ARGUMENT);
    assert_null(m);
    assert_int_equal(diag.status, PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_parse_movingai(MAP, sizeof MAP - 1, NULL, NULL, NULL, &diag), PF_INVALID_ARGUMENT);
    /* NULL with length 0 is an empty file: a parse error, not a crash */
    assert_int_equal(pf_grid_parse_movingai(NULL, 0, NULL, NULL, &m, NULL), PF_PARSE_ERROR);
    assert_null(m);
    m = (pf_map *)&m;
    assert_int_equal(pf_grid_load_movingai(NULL, NULL, &m, &diag), PF_INVALID_ARGUMENT);
    assert_null(m);
    assert_int_equal(pf_grid_load_movingai("/nonexistent/dir/x.map", NULL, &m, &diag), PF_IO_ERROR);
    assert_null(m);
    assert_int_equal(diag.status, PF_IO_ERROR);
    assert_non_null(strstr(diag.msg, "/nonexistent/dir/x.map"));

    m = (pf_map *)&m;
    assert_int_equal(pf_graph_create(NULL, &m), PF_INVALID_ARGUMENT);
    assert_null(m);
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 2}, NULL), PF_INVALID_ARGUMENT);
    m = (pf_map *)&m;
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 2, .edge_count = 1, .edges = NULL}, &m),
                     PF_INVALID_ARGUMENT);
    assert_null(m);
    m = (pf_map *)&m;
    assert_int_equal(pf_graph_parse_dimacs(NULL, 0, NULL, 0, NULL, &m, &diag), PF_INVALID_ARGUMENT);
    assert_null(m);
    assert_int_equal(pf_graph_parse_dimacs(GR, sizeof GR - 1, NULL, 0, NULL, NULL, &diag), PF_INVALID_ARGUMENT);
    m = (pf_map *)&m;
    assert_int_equal(pf_graph_load_dimacs(NULL, NULL, NULL, &m, &diag), PF_INVALID_ARGUMENT);
    assert_null(m);
    assert_int_equal(pf_graph_load_dimacs("/nonexistent.gr", NULL, NULL, &m, NULL), PF_IO_ERROR);
    assert_int_equal(pf_graph_load_dimacs("/nonexistent.gr", NULL, NULL, NULL, NULL), PF_INVALID_ARGUMENT);

    pf_scen *sc = (pf_scen *)&sc;
    assert_int_equal(pf_scen_parse(NULL, 5, "s", NULL, &sc, &diag), PF_INVALID_ARGUMENT);
    assert_null(sc);
    assert_int_equal(pf_scen_parse("version 1\n", 10, "s", NULL, NULL, &diag), PF_INVALID_ARGUMENT);
    sc = (pf_scen *)&sc;
    assert_int_equal(pf_scen_load(NULL, NULL, &sc, &diag), PF_INVALID_ARGUMENT);
    assert_null(sc);
    assert_int_equal(pf_scen_load("/nonexistent.scen", NULL, &sc, NULL), PF_IO_ERROR);
    assert_int_equal(pf_scen_count(NULL), 0);
    assert_null(pf_scen_get(NULL, 0));
    assert_string_equal(pf_scen_map_name(NULL), "");
    pf_scen_destroy(NULL);
}

static void test_null_ctx_and_search(void **state)
{
    (void)state;
    pf_map *map = grid();
    pf_ctx *ctx = (pf_ctx *)&ctx;
    assert_int_equal(pf_ctx_create(NULL, NULL, &ctx), PF_INVALID_ARGUMENT);
    assert_null(ctx);
    assert_int_equal(pf_ctx_create(map, NULL, NULL), PF_INVALID_ARGUMENT);
    pf_ctx_destroy(NULL);
    assert_null(pf_ctx_map(NULL));
    assert_int_equal(pf_ctx_bytes_per_node(NULL), 0);
    assert_int_equal(pf_ctx_mem_size(NULL), 0);

    pf_stats st;
    uint32_t cells[8];
    pf_path path = {.nodes = cells, .capacity = 8, .len = 77};
    assert_int_equal(pf_search(NULL, 0, 1, NULL, &path, &st), PF_INVALID_ARGUMENT);
    assert_int_equal(path.len, 0);
    assert_true(isinf(st.cost));
    assert_int_equal(pf_search_begin(NULL, 0, 1, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_search_step(NULL, 10), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_search_path(NULL, &path, &st), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_search_tree(NULL, 0, NULL), PF_INVALID_ARGUMENT);
    assert_true(isinf(pf_ctx_cost(NULL, 0)));
    assert_int_equal(pf_ctx_parent(NULL, 0), PF_NODE_NONE);
    assert_int_equal(pf_ctx_closed(NULL, 0), 0);

    /* a fresh context has no search to report */
    assert_int_equal(pf_ctx_create(map, NULL, &ctx), PF_OK);
    assert_true(pf_ctx_map(ctx) == map);
    assert_int_equal(pf_search_step(ctx, 10), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_search_path(ctx, &path, &st), PF_INVALID_ARGUMENT);
    assert_true(isinf(pf_ctx_cost(ctx, 0)));
    assert_int_equal(pf_ctx_parent(ctx, 0), PF_NODE_NONE);
    assert_int_equal(pf_ctx_closed(ctx, 0), 0);

    /* NULL path and stats are optional */
    uint32_t a = pf_grid_node(map, 0, 0), b = pf_grid_node(map, 4, 0);
    assert_int_equal(pf_search(ctx, a, b, NULL, NULL, NULL), PF_OK);
    assert_true(fabs(pf_ctx_cost(ctx, b) - 4.0) < 1e-12);
    /* a path with capacity but no arrays only reports the length */
    pf_path lonly = {.capacity = 100};
    assert_int_equal(pf_search(ctx, a, b, NULL, &lonly, NULL), PF_OK);
    assert_int_equal(lonly.len, 5);
    /* a trace with capacity but no array is a caller error */
    pf_trace bad = {.capacity = 4};
    assert_int_equal(pf_ctx_use_trace(ctx, &bad), PF_INVALID_ARGUMENT);
    pf_ctx_destroy(ctx);
    pf_map_destroy(map);
}

static void test_out_of_range_coordinates(void **state)
{
    (void)state;
    pf_map *map = grid();
    const int32_t xs[] = {-1, 5, 6, INT32_MIN, INT32_MAX, -2147483647};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        assert_int_equal(pf_grid_node(map, xs[i], 0), PF_NODE_NONE);
        assert_int_equal(pf_grid_node(map, 0, xs[i] == 5 ? 4 : xs[i]), PF_NODE_NONE);
        assert_int_equal(pf_grid_class(map, xs[i], 1), 0);
        assert_true(pf_grid_cost(map, 1, xs[i] == 5 ? 4 : xs[i]) == 0.0f);
    }
    const uint32_t ids[] = {20, 21, 1000, PF_NODE_NONE, UINT32_MAX - 1, 1u << 31};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        pf_point p = pf_grid_point(map, ids[i]);
        assert_true(p.x == -1 && p.y == -1);
    }
    /* the last valid cell and the first invalid one */
    assert_int_equal(pf_grid_node(map, 4, 3), 19);
    assert_int_equal(pf_grid_point(map, 19).y, 3);

    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(map, NULL, &ctx), PF_OK);
    pf_stats st;
    uint32_t cells[32];
    pf_path path = {.nodes = cells, .capacity = 32};
    uint32_t open = pf_grid_node(map, 0, 0), wall = pf_grid_node(map, 1, 1);
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        path.len = 99;
        assert_int_equal(pf_search(ctx, ids[i], open, NULL, &path, &st), PF_INVALID_START);
        assert_int_equal(path.len, 0);
        assert_true(isinf(st.cost));
        assert_int_equal(pf_search(ctx, open, ids[i], NULL, &path, &st), PF_INVALID_GOAL);
        assert_int_equal(pf_search_begin(ctx, ids[i], open, NULL), PF_INVALID_START);
        assert_int_equal(pf_search_tree(ctx, ids[i], NULL), PF_INVALID_START);
        assert_true(isinf(pf_ctx_cost(ctx, ids[i])));
        assert_int_equal(pf_ctx_parent(ctx, ids[i]), PF_NODE_NONE);
        assert_int_equal(pf_ctx_closed(ctx, ids[i]), 0);
    }
    /* blocked cells are invalid endpoints too */
    assert_int_equal(pf_search(ctx, wall, open, NULL, &path, &st), PF_INVALID_START);
    assert_int_equal(pf_search(ctx, open, wall, NULL, &path, &st), PF_INVALID_GOAL);
    /* a failed begin leaves no search behind */
    assert_int_equal(pf_search_step(ctx, 0), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_search_path(ctx, &path, &st), PF_INVALID_ARGUMENT);
    /* another terrain class is valid but unreachable */
    uint32_t water = pf_grid_node(map, 2, 3);
    assert_int_equal(pf_grid_class(map, 2, 3), 2);
    assert_int_equal(pf_search(ctx, open, water, NULL, &path, &st), PF_NO_PATH);
    assert_int_equal(path.len, 0);
    pf_ctx_destroy(ctx);

    pf_map *g = graph();
    assert_int_equal(pf_graph_arcs(g, 3, 0, NULL, NULL), 0);
    assert_int_equal(pf_graph_arcs(g, PF_NODE_NONE, 1, NULL, NULL), 0);
    assert_int_equal(pf_graph_arcs(map, 0, 0, NULL, NULL), 0); /* not a graph */
    double x, y;
    assert_int_equal(pf_graph_coords(g, 0, &x, &y), 0); /* no coordinates */
    assert_int_equal(pf_grid_node(g, 0, 0), PF_NODE_NONE); /* not a grid */
    assert_int_equal(pf_ctx_create(g, NULL, &ctx), PF_OK);
    assert_int_equal(pf_search(ctx, 3, 0, NULL, NULL, NULL), PF_INVALID_START);
    assert_int_equal(pf_search(ctx, 0, 3, NULL, NULL, NULL), PF_INVALID_GOAL);
    /* points on a graph path are (-1, -1): the nodes are not cells */
    pf_point pts[4];
    path = (pf_path){.nodes = cells, .points = pts, .capacity = 4};
    assert_int_equal(pf_search(ctx, 0, 2, NULL, &path, NULL), PF_OK);
    assert_int_equal(path.len, 3);
    assert_true(pts[1].x == -1 && pts[1].y == -1);
    pf_ctx_destroy(ctx);
    pf_map_destroy(g);
    pf_map_destroy(map);
}

static void test_invalid_descs(void **state)
{
    (void)state;
    pf_map *map = grid(), *g = graph();
    pf_ctx *ctx, *gctx;
    assert_int_equal(pf_ctx_create(map, NULL, &ctx), PF_OK);
    assert_int_equal(pf_ctx_create(g, NULL, &gctx), PF_OK);
    uint32_t a = pf_grid_node(map, 0, 0), b = pf_grid_node(map, 4, 3);
    const pf_search_desc bad[] = {
        {.algo = (pf_algo)PF_ALGO__COUNT},
        {.algo = PF_ALGO_UNKNOWN},
        {.algo = (pf_algo)-1},
        {.heuristic = (pf_heur)PF_HEUR__COUNT},
        {.heuristic = (pf_heur)-3},
        {.tie = (pf_tie)(PF_TIE_RANDOM + 1)},
        {.algo = PF_ALGO_WASTAR, .weight = 0.5},
        {.algo = PF_ALGO_WASTAR, .weight = -1.0},
        {.algo = PF_ALGO_WASTAR, .weight = NAN},
        {.algo = PF_ALGO_WASTAR, .weight = INFINITY},
        {.max_cost = -1.0},
        {.max_cost = NAN},
        {.heuristic = PF_HEUR_CALLBACK},               /* no function */
        {.heuristic = PF_HEUR_MAX, .heuristic_set = 0}, /* empty set */
        /* bits past the last pf_heur, and the callback's without a function (were ignored) */
        {.heuristic = PF_HEUR_MAX, .heuristic_set = (1u << PF_HEUR_OCTILE) | (1u << 12)},
        {.heuristic = PF_HEUR_MAX, .heuristic_set = (1u << PF_HEUR_ZERO) | (1u << PF_HEUR_CALLBACK)},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pf_stats st;
        assert_int_equal(pf_search(ctx, a, b, &bad[i], NULL, &st), PF_INVALID_ARGUMENT);
        assert_true(isinf(st.cost));
        assert_int_equal(pf_search_begin(ctx, a, b, &bad[i]), PF_INVALID_ARGUMENT);
        assert_int_equal(pf_search(gctx, 0, 2, &bad[i], NULL, NULL), PF_INVALID_ARGUMENT);
    }
    /* a weight only matters to the algorithms that use it: plain A* ignores a bad one */
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.weight = NAN}, NULL, NULL), PF_OK);
    /* map-specific: grids have no reverse arcs; graphs have no grid metrics or, here, coordinates */
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.reverse = 1}, NULL, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_search_tree(ctx, a, &(pf_search_desc){.reverse = 1}), PF_INVALID_ARGUMENT);
    const pf_heur grid_only[] = {PF_HEUR_MANHATTAN, PF_HEUR_OCTILE, PF_HEUR_CHEBYSHEV, PF_HEUR_HEX,
                                 PF_HEUR_EUCLIDEAN};
    for (size_t i = 0; i < sizeof grid_only / sizeof grid_only[0]; i++) {
        assert_int_equal(pf_search(gctx, 0, 2, &(pf_search_desc){.heuristic = grid_only[i]}, NULL, NULL),
                         PF_INVALID_ARGUMENT);
        /* in a PF_HEUR_MAX set too (a review: ignored there, and Euclidean without coordinates taken) */
        pf_search_desc in_set = {.heuristic = PF_HEUR_MAX, .heuristic_set = (1u << PF_HEUR_ZERO) | (1u << grid_only[i])};
        assert_int_equal(pf_search(gctx, 0, 2, &in_set, NULL, NULL), PF_INVALID_ARGUMENT);
    }
    assert_int_equal(pf_search(gctx, 0, 2, &(pf_search_desc){.heuristic = PF_HEUR_MAX, .heuristic_set = 1u << PF_HEUR_ZERO},
                               NULL, NULL),
                     PF_OK);
    /* after all that, both contexts still answer */
    pf_stats st;
    assert_int_equal(pf_search(ctx, a, b, NULL, NULL, &st), PF_OK);
    assert_true(fabs(st.cost - oracle_cost(map, a, b)) < 1e-9);
    assert_int_equal(pf_search(gctx, 0, 2, NULL, NULL, &st), PF_OK);
    assert_true(fabs(st.cost - 2.0) < 1e-12);
    pf_ctx_destroy(gctx);
    pf_ctx_destroy(ctx);
    pf_map_destroy(g);
    pf_map_destroy(map);
}

static void test_invalid_map_descs(void **state)
{
    (void)state;
    pf_map *m = (pf_map *)&m;
    const float bad_costs[][4] = {{1, 1, 0, 1}, {1, -1, 1, 1}, {1, 1, 1, NAN}, {INFINITY, 1, 1, 1}};
    for (size_t i = 0; i < 4; i++) {
        m = (pf_map *)&m;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 2, .height = 2, .costs = bad_costs[i]}, &m),
                         PF_INVALID_ARGUMENT);
        assert_null(m);
    }
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 0, .height = 2}, &m), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 2, .height = 0}, &m), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 2, .height = 2, .moves = (pf_moves)99}, &m),
                     PF_INVALID_ARGUMENT);
    assert_null(m);

    pf_grid_load_desc ld = {.moves = (pf_moves)7};
    pf_diag diag;
    assert_int_equal(pf_grid_parse_movingai(MAP, sizeof MAP - 1, "t", &ld, &m, &diag), PF_INVALID_ARGUMENT);
    ld = (pf_grid_load_desc){0};
    ld.char_cost['S'] = -2.0f;
    assert_int_equal(pf_grid_parse_movingai(MAP, sizeof MAP - 1, "t", &ld, &m, &diag), PF_INVALID_ARGUMENT);
    ld.char_cost['S'] = NAN;
    assert_int_equal(pf_grid_parse_movingai(MAP, sizeof MAP - 1, "t", &ld, &m, &diag), PF_INVALID_ARGUMENT);
    ld.char_cost['S'] = INFINITY;
    assert_int_equal(pf_grid_parse_movingai(MAP, sizeof MAP - 1, "t", &ld, &m, &diag), PF_INVALID_ARGUMENT);
    assert_null(m);
    assert_int_equal(diag.status, PF_INVALID_ARGUMENT);

    const pf_edge bad_edges[][1] = {{{0, 3, 1}}, {{3, 0, 1}}, {{0, 1, -1}}, {{0, 1, NAN}}, {{0, 1, INFINITY}}};
    for (size_t i = 0; i < 5; i++) {
        m = (pf_map *)&m;
        assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 3, .edge_count = 1, .edges = bad_edges[i]}, &m),
                         PF_INVALID_ARGUMENT);
        assert_null(m);
    }
    const double bad_xy[] = {0, 0, NAN, 1};
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 2, .coords = bad_xy}, &m), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 0}, &m), PF_INVALID_ARGUMENT);
}

static void test_context_bound_to_its_map(void **state)
{
    (void)state;
    /* small map A and a bigger map B; a context made for A reads every id in A */
    pf_map *a = grid();
    pf_map *b;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 50, .height = 50, .moves = PF_MOVES_4}, &b), PF_OK);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(a, NULL, &ctx), PF_OK);
    assert_true(pf_ctx_map(ctx) == a);
    uint32_t far_b = pf_grid_node(b, 49, 49);
    assert_int_equal(pf_search(ctx, far_b, 0, NULL, NULL, NULL), PF_INVALID_START);
    assert_int_equal(pf_search(ctx, 0, far_b, NULL, NULL, NULL), PF_INVALID_GOAL);
    /* ids valid in both maps are answered in A's geometry (8-connected, walls), not B's */
    uint32_t s = pf_grid_node(a, 0, 2), g = pf_grid_node(a, 2, 2);
    pf_stats st;
    assert_int_equal(pf_search(ctx, s, g, NULL, NULL, &st), PF_OK);
    assert_true(fabs(st.cost - oracle_cost(a, s, g)) < 1e-9);
    assert_true(st.cost > 2.0 + 1e-9); /* in the open 4-connected B it would be exactly 2 */
    /* destroying the other map does not touch this context */
    pf_map_destroy(b);
    assert_int_equal(pf_search(ctx, s, g, NULL, NULL, &st), PF_OK);
    pf_ctx_destroy(ctx);
    pf_map_destroy(a);
}

static void test_sliced_out_of_order(void **state)
{
    (void)state;
    pf_map *map = grid();
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(map, NULL, &ctx), PF_OK);
    uint32_t a = pf_grid_node(map, 0, 0), b = pf_grid_node(map, 4, 3), c = pf_grid_node(map, 2, 2);
    uint32_t cells[32];
    pf_path path = {.nodes = cells, .capacity = 32};
    pf_stats st;
    assert_int_equal(pf_search_begin(ctx, a, b, NULL), PF_IN_PROGRESS);
    assert_int_equal(pf_search_path(ctx, &path, &st), PF_IN_PROGRESS); /* not finished yet */
    assert_int_equal(pf_search_step(ctx, 1), PF_IN_PROGRESS);
    /* beginning again abandons the running search */
    assert_int_equal(pf_search_begin(ctx, a, c, NULL), PF_IN_PROGRESS);
    pf_status s;
    while ((s = pf_search_step(ctx, 1)) == PF_IN_PROGRESS) {}
    assert_int_equal(s, PF_OK);
    assert_int_equal(pf_search_step(ctx, 1), PF_OK); /* stepping a finished search changes nothing */
    assert_int_equal(pf_search_path(ctx, &path, &st), PF_OK);
    assert_int_equal(cells[path.len - 1], c);
    assert_true(fabs(st.cost - oracle_cost(map, a, c)) < 1e-9);
    /* reading the path twice gives the same answer */
    uint32_t again[32];
    pf_path p2 = {.nodes = again, .capacity = 32};
    assert_int_equal(pf_search_path(ctx, &p2, NULL), PF_OK);
    assert_int_equal(p2.len, path.len);
    assert_memory_equal(again, cells, path.len * sizeof cells[0]);
    /* a one-shot search replaces the sliced one */
    assert_int_equal(pf_search(ctx, a, b, NULL, &path, &st), PF_OK);
    assert_int_equal(cells[path.len - 1], b);
    pf_ctx_destroy(ctx);
    pf_map_destroy(map);
}


/* ---- debug-build handle checks, each in a child process ------------------------------------- */

#ifndef NDEBUG
/* Runs fn in a child; returns its stderr. *clean: it returned normally (exit 0); *code [opt]: its
 * exit code (-1 when a signal ended it). */
static const char *in_child_code(void (*fn)(void), int *clean, int *code)
{
    static char buf[8192];
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        fn();
        _exit(0);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t r;
    while (n < sizeof buf - 1 && (r = read(fds[0], buf + n, sizeof buf - 1 - n)) > 0) n += (size_t)r;
    buf[n] = '\0';
    close(fds[0]);
    int ws;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    *clean = WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
    if (code) *code = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    return buf;
}

static const char *in_child(void (*fn)(void), int *clean) { return in_child_code(fn, clean, NULL); }

static void map_destroyed_under_context(void)
{
    pf_map *m = grid();
    pf_ctx *c;
    if (pf_ctx_create(m, NULL, &c) != PF_OK) _exit(3);
    pf_map_destroy(m);
}

static void search_on_destroyed_context(void)
{
    pf_map *m = grid();
    pf_ctx *c;
    if (pf_ctx_create(m, NULL, &c) != PF_OK) _exit(3);
    pf_ctx_destroy(c);
    pf_search(c, 0, 1, NULL, NULL, NULL);
}

static void batch_destroyed_twice(void)
{
    pf_map *m = grid();
    pf_batch *b;
    if (pf_batch_create(m, &(pf_batch_desc){.workers = 1}, &b) != PF_OK) _exit(3);
    pf_batch_destroy(b);
    pf_batch_destroy(b);
}

static void not_a_context(void)
{
    static _Alignas(64) unsigned char junk[4096]; /* zeroed: no handle tag */
    pf_search((pf_ctx *)(void *)junk, 0, 1, NULL, NULL, NULL);
}

/* The job API's doors check the handle too (an engine's job system calls them from its threads) */
static _Alignas(64) unsigned char g_junk_batch[8192]; /* zeroed: no handle tag */
#define JUNK_BATCH ((pf_batch *)(void *)g_junk_batch)
static void not_a_batch_run_job(void) { pf_batch_run_job(JUNK_BATCH, 0, 0); }
static void not_a_batch_finish(void) { pf_batch_finish(JUNK_BATCH); }
static void not_a_batch_job_count(void) { (void)pf_batch_job_count(JUNK_BATCH); }
static void not_a_batch_worker_count(void) { (void)pf_batch_worker_count(JUNK_BATCH); }
static void not_a_batch_stats(void) { (void)pf_batch_get_stats(JUNK_BATCH); }
static void not_a_batch_mem_size(void) { (void)pf_batch_mem_size(JUNK_BATCH); }

/* A field's reads and the context's sizes check the handle too (they read a map as a context) */
static _Alignas(64) unsigned char g_junk_ctx[8192]; /* zeroed: no handle tag */
#define JUNK_CTX ((const pf_ctx *)(const void *)g_junk_ctx)
static void not_a_context_flow_dir(void) { (void)pf_flow_dir(JUNK_CTX, 0); }
static void not_a_context_flow_next(void) { (void)pf_flow_next(JUNK_CTX, 0); }
static void not_a_context_flow_cost(void) { (void)pf_flow_cost(JUNK_CTX, 0); }
static void not_a_context_flow_export(void)
{
    uint8_t d[4];
    (void)pf_flow_export(JUNK_CTX, d, sizeof d);
}
static void not_a_context_mem_size(void) { (void)pf_ctx_mem_size(JUNK_CTX); }
static void not_a_context_bytes_per_node(void) { (void)pf_ctx_bytes_per_node(JUNK_CTX); }

/* The engine's hook (pf_set_misuse_hook) is called before the abort, with the call and the
 * message: here it writes them and leaves with its own exit code. */
static void hook_exit(const char *call, const char *message, void *user)
{
    fprintf(stderr, "hook[%s]: %s: %s\n", (const char *)user, call, message);
    _exit(42);
}

static void hooked_not_a_context(void)
{
    pf_set_misuse_hook(hook_exit, (void *)"engine");
    not_a_context(); /* no freed memory read: sanitizers stay out of it */
}

/* The library's own message, or where the child's reads of freed memory are caught first by
 * AddressSanitizer, its report. */
static void expect_stopped(void (*fn)(void), const char *call, const char *why)
{
    int clean;
    const char *err = in_child(fn, &clean);
    if (clean) fail_msg("%s: misuse was not stopped", call);
    if (strstr(err, "AddressSanitizer") && (strstr(err, "use-after-free") || strstr(err, "double-free"))) return;
    /* after free the allocator may have reused the tag word: a destroyed handle then reads as foreign */
    int ok = strstr(err, why) || (!strcmp(why, "used after it was destroyed") && strstr(err, "not a live handle"));
    if (!strstr(err, call) || !ok) fail_msg("%s: unexpected message: %s", call, err);
}
#endif

static void test_debug_handles(void **state)
{
    (void)state;
#ifdef NDEBUG
    SKIP_BECAUSE("a Release build (NDEBUG): the handle checks are compiled out (see pf_internal.h)");
#else
    expect_stopped(map_destroyed_under_context, "pf_map_destroy", "still has live contexts");
    expect_stopped(search_on_destroyed_context, "pf_ctx", "used after it was destroyed");
    expect_stopped(batch_destroyed_twice, "pf_batch_destroy", "used after it was destroyed");
    expect_stopped(not_a_context, "pf_ctx", "not a live handle");
    expect_stopped(not_a_batch_run_job, "pf_batch_run_job", "not a live handle");
    expect_stopped(not_a_batch_finish, "pf_batch_finish", "not a live handle");
    expect_stopped(not_a_batch_job_count, "pf_batch_job_count", "not a live handle");
    expect_stopped(not_a_batch_worker_count, "pf_batch_worker_count", "not a live handle");
    expect_stopped(not_a_batch_stats, "pf_batch_get_stats", "not a live handle");
    expect_stopped(not_a_batch_mem_size, "pf_batch_mem_size", "not a live handle");
    expect_stopped(not_a_context_flow_dir, "pf_flow_dir", "not a live handle");
    expect_stopped(not_a_context_flow_next, "pf_flow_next", "not a live handle");
    expect_stopped(not_a_context_flow_cost, "pf_flow_cost", "not a live handle");
    expect_stopped(not_a_context_flow_export, "pf_flow_export", "not a live handle");
    expect_stopped(not_a_context_mem_size, "pf_ctx_mem_size", "not a live handle");
    expect_stopped(not_a_context_bytes_per_node, "pf_ctx_bytes_per_node", "not a live handle");
    /* with a hook: it is called first, and may take over (exit 42 here, not an abort) */
    int clean, code;
    const char *buf = in_child_code(hooked_not_a_context, &clean, &code);
    assert_int_equal(code, 42);
    if (!strstr(buf, "hook[engine]: ") || !strstr(buf, "pf_ctx")) fail_msg("the hook was not called as expected: %s", buf);
    pf_set_misuse_hook(NULL, NULL);
    /* destroying in the right order is quiet */
    pf_map *m = grid();
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    pf_ctx_destroy(c);
    pf_map_destroy(m);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_null_map_accessors),
        cmocka_unit_test(test_null_constructors),
        cmocka_unit_test(test_null_ctx_and_search),
        cmocka_unit_test(test_out_of_range_coordinates),
        cmocka_unit_test(test_invalid_descs),
        cmocka_unit_test(test_invalid_map_descs),
        cmocka_unit_test(test_context_bound_to_its_map),
        cmocka_unit_test(test_sliced_out_of_order),
        cmocka_unit_test(test_debug_handles),
    };
    return RUN_TESTS(tests);
}
