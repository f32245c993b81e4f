/* test_scen_dimacs.c - the DIMACS road graphs of PF_SHARED_DATA/dimacs.
 *
 * rome99 (no coordinates): A*, Dijkstra, reverse search and the oracle agree on random pairs.
 * NY with coordinates: A* with the Euclidean heuristic (scaled at build so it stays consistent for
 * distances, USA-road-d, and for travel times, USA-road-t) gives Dijkstra's costs on a sample of
 * pairs, with fewer expansions. Every path is made of real arcs and costs what is reported.
 * PF_TEST_SCALE scales the number of pairs. Skips with a message when the data is absent. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "pathfind.h"
#include "oracle.h"
#include "testutil.h"

#define DIR_DIMACS PF_SHARED_DATA "/dimacs"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


static pf_map *load(const char *gr, const char *co)
{
    pf_map *m;
    pf_diag d;
    double t0 = now();
    if (pf_graph_load_dimacs(gr, co, NULL, &m, &d) != PF_OK) fail_msg("%s", d.msg);
    print_message("loaded %s%s%s: %u nodes, %u arcs in %.2f s\n", strrchr(gr, '/') + 1, co ? " + " : "",
                  co ? strrchr(co, '/') + 1 : "", pf_map_node_count(m), pf_graph_edge_count(m), now() - t0);
    return m;
}

/* Checks that `nodes` is a path s..g of real arcs costing `cost`. */
static void check_path(const pf_map *m, const uint32_t *nodes, uint32_t len, uint32_t s, uint32_t g, double cost)
{
    assert_true(len >= 1);
    assert_int_equal(nodes[0], s);
    assert_int_equal(nodes[len - 1], g);
    assert_true(close_to(oracle_path_cost(m, nodes, len), cost));
}

static void test_rome99(void **state)
{
    (void)state;
    const char *gr = DIR_DIMACS "/rome99.gr";
    SKIP_IF_ABSENT(gr);
    pf_map *m = load(gr, NULL);
    assert_int_equal(pf_map_node_count(m), 3353);
    assert_int_equal(pf_graph_edge_count(m), 8870); /* parallel arcs all kept */
    assert_int_equal(pf_graph_has_coords(m), 0);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t n = pf_map_node_count(m);
    uint32_t *nodes = malloc(n * sizeof *nodes);
    uint64_t r = 99;
    int pairs = (int)(200 * env_scale());
    for (int q = 0; q < pairs; q++) {
        uint32_t s = (uint32_t)(rng_next(&r) % n), g = (uint32_t)(rng_next(&r) % n);
        pf_path p = {.nodes = nodes, .capacity = n};
        pf_stats sa, sd, sr;
        assert_int_equal(pf_search(ctx, s, g, NULL, &p, &sa), PF_OK); /* strongly connected */
        check_path(m, nodes, p.len, s, g, sa.cost);
        assert_int_equal(pf_search(ctx, s, g, &(pf_search_desc){.algo = PF_ALGO_DIJKSTRA}, &p, &sd), PF_OK);
        check_path(m, nodes, p.len, s, g, sd.cost);
        assert_int_equal(pf_search(ctx, g, s, &(pf_search_desc){.reverse = 1}, NULL, &sr), PF_OK);
        assert_true(sa.cost == sd.cost);
        assert_true(sr.cost == sd.cost);
        if (q < 10) assert_true(oracle_cost(m, s, g) == sd.cost);
    }
    free(nodes);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void run_ny(const char *gr, int pairs)
{
    const char *co = DIR_DIMACS "/USA-road-d.NY.co";
    SKIP_IF_ABSENT(gr);
    SKIP_IF_ABSENT(co);
    pf_map *m = load(gr, co);
    assert_int_equal(pf_graph_has_coords(m), 1);
    assert_true(pf_graph_heuristic_scale(m) > 0);
    print_message("heuristic scale %.6g\n", pf_graph_heuristic_scale(m));
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t n = pf_map_node_count(m);
    uint32_t *nodes = malloc(n * sizeof *nodes);
    uint64_t r = 2006;
    long exp_a = 0, exp_d = 0;
    double ta = 0, td = 0;
    for (int q = 0; q < pairs; q++) {
        uint32_t s = (uint32_t)(rng_next(&r) % n), g = (uint32_t)(rng_next(&r) % n);
        pf_path p = {.nodes = nodes, .capacity = n};
        pf_stats sa, sd;
        double t0 = now();
        assert_int_equal(pf_search(ctx, s, g, NULL, &p, &sa), PF_OK);
        ta += now() - t0;
        check_path(m, nodes, p.len, s, g, sa.cost);
        t0 = now();
        assert_int_equal(pf_search(ctx, s, g, &(pf_search_desc){.algo = PF_ALGO_DIJKSTRA}, NULL, &sd), PF_OK);
        td += now() - t0;
        if (sa.cost != sd.cost) print_message("pair %d: %u -> %u: A* %.0f, Dijkstra %.0f\n", q, s + 1, g + 1, sa.cost, sd.cost);
        assert_true(sa.cost == sd.cost); /* integer weights: sums are exact */
        exp_a += sa.expanded;
        exp_d += sd.expanded;
    }
    /* one pair against the independent oracle (a full O(n log n) run) */
    uint32_t s = (uint32_t)(rng_next(&r) % n), g = (uint32_t)(rng_next(&r) % n);
    pf_stats st;
    assert_int_equal(pf_search(ctx, s, g, NULL, NULL, &st), PF_OK);
    assert_true(st.cost == oracle_cost(m, s, g));
    print_message("%d pairs: A* %ld expansions in %.2f s, Dijkstra %ld in %.2f s\n", pairs, exp_a, ta, exp_d, td);
    assert_true(exp_a < exp_d); /* the heuristic does its job */
    free(nodes);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void test_ny_distance(void **state)
{
    (void)state;
    run_ny(DIR_DIMACS "/USA-road-d.NY.gr", (int)(60 * env_scale()) + 1);
}

static void test_ny_time(void **state)
{
    (void)state;
    /* travel times with distance coordinates: the build-time scale keeps the heuristic admissible;
     * NY-t also has parallel arcs with different weights (the cheapest must be used) */
    run_ny(DIR_DIMACS "/USA-road-t.NY.gr", (int)(40 * env_scale()) + 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rome99),
        cmocka_unit_test(test_ny_distance),
        cmocka_unit_test(test_ny_time),
    };
    return RUN_TESTS(tests);
}
