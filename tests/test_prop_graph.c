/* test_prop_graph.c - property test: random directed graphs (with and without coordinates, parallel
 * arcs, self loops, zero weights) against the oracle Dijkstra.
 *
 * Checked per query: status vs reachability; A* (Euclidean with coordinates), Dijkstra, A* with an
 * admissible but inconsistent callback (must reopen), and the max of both give the oracle's cost;
 * reverse search gives the cost into the goal; weighted A* stays within its bound; greedy and BFS
 * never beat the optimum; every path is made of real arcs and costs what is reported; trees match.
 * PF_TEST_SCALE scales the number of graphs; PF_TEST_SEED replays a run (printed on failure). */
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
#include "testutil.h"

static uint64_t g_seed;
static char g_where[256];

/* Admissible, usually inconsistent heuristic: a random fraction of the true cost to the goal. */
typedef struct frac_h { const double *to_goal; const double *frac; uint32_t goal; } frac_h;
static double frac_cb(const pf_map *m, uint32_t node, uint32_t goal, void *user)
{
    (void)m;
    const frac_h *f = user;
    if (goal != f->goal) return 1e300; /* wrong goal handed over: make it show */
    double d = f->to_goal[node];
    return isfinite(d) ? d * f->frac[node] : 0.0;
}

/* Reverses a path in place (reverse searches return goal..start). */
static void reverse(uint32_t *a, uint32_t n)
{
    for (uint32_t i = 0; i < n / 2; i++) {
        uint32_t t = a[i];
        a[i] = a[n - 1 - i];
        a[n - 1 - i] = t;
    }
}

typedef struct totals { long queries, found, searches; } totals;

static void check(const pf_map *m, pf_ctx *ctx, uint32_t s, uint32_t g, const pf_search_desc *d, double opt,
                  uint32_t *nodes, uint32_t cap, totals *t)
{
    pf_path path = {.nodes = nodes, .capacity = cap};
    pf_stats st;
    /* reverse searches start at the goal */
    pf_status r = d->reverse ? pf_search(ctx, g, s, d, &path, &st) : pf_search(ctx, s, g, d, &path, &st);
    t->searches++;
    snprintf(g_where + strlen(g_where), 80, " algo %s heur %d tie %d w %.3f reverse %d", pf_algo_name(d->algo),
             (int)d->heuristic, (int)d->tie, d->weight, d->reverse);
    if (!isfinite(opt)) {
        PCHECK(r == PF_NO_PATH);
        PCHECK(path.len == 0);
        PCHECK(isinf(st.cost));
        return;
    }
    PCHECK(r == PF_OK);
    if (d->reverse) reverse(nodes, path.len);
    PCHECK(path.len >= 1 && nodes[0] == s && nodes[path.len - 1] == g);
    double pc = oracle_path_cost(m, nodes, path.len);
    PCHECK(isfinite(pc));
    PCHECK(close_to(pc, st.cost));
    PCHECK(st.path_len == path.len);
    switch (d->algo) {
    case PF_ALGO_WASTAR: PCHECK(st.cost <= d->weight * opt * (1 + 1e-9) + 1e-9); break;
    case PF_ALGO_GREEDY:
    case PF_ALGO_BFS: PCHECK(st.cost >= opt * (1 - 1e-9) - 1e-9); break;
    default: PCHECK(close_to(st.cost, opt));
    }
}

static void run_graphs(void **state)
{
    (void)state;
    double scale = env_scale();
    uint32_t graphs = (uint32_t)(300 * scale);
    if (graphs < 4) graphs = 4;
    totals t = {0};
    for (uint32_t gi = 0; gi < graphs; gi++) {
        uint64_t r = g_seed ^ (UINT64_C(0x5A5A) * (gi + 1));
        rng_next(&r);
        int coords = gi % 2;
        int integer = (gi / 2) % 2; /* integer weights: many ties */
        uint32_t n = 1 + rng_below(&r, 120);
        uint32_t m = rng_below(&r, 4 * n + 1);
        double *xy = malloc(2 * (size_t)n * sizeof *xy);
        for (uint32_t i = 0; i < 2 * n; i++) xy[i] = integer ? (double)rng_below(&r, 50) : 1000.0 * rng_unit(&r);
        pf_edge *e = malloc(((size_t)m * 2 + 1) * sizeof *e);
        uint32_t k = 0;
        for (uint32_t i = 0; i < m; i++) {
            uint32_t u = rng_below(&r, n), v = rng_below(&r, n);
            double dx = xy[2 * u] - xy[2 * v], dy = xy[2 * u + 1] - xy[2 * v + 1];
            double dist = sqrt(dx * dx + dy * dy);
            /* weights at least the distance most of the time, so the coordinates carry information;
             * some zero weights and some arbitrary ones (the heuristic scale must absorb them) */
            double w = rng_below(&r, 10) == 0 ? 0.0
                       : rng_below(&r, 8) == 0 ? (integer ? rng_below(&r, 5) : 3.0 * rng_unit(&r))
                                               : dist * (1.0 + rng_unit(&r));
            if (integer) w = floor(w);
            e[k++] = (pf_edge){u, v, w};
            if (rng_below(&r, 6) == 0) e[k++] = (pf_edge){u, v, integer ? w + rng_below(&r, 3) : w * rng_unit(&r) * 2};
        }
        pf_map *map;
        pf_graph_desc gd = {.node_count = n, .edge_count = k, .edges = e, .coords = coords ? xy : NULL};
        assert_int_equal(pf_graph_create(&gd, &map), PF_OK);
        pf_ctx *ctx;
        assert_int_equal(pf_ctx_create(map, &(pf_ctx_desc){.heap_capacity = 1 + rng_below(&r, 8)}, &ctx), PF_OK);
        uint32_t *nodes = malloc(((size_t)n + 1) * sizeof *nodes);
        double *frac = malloc((size_t)n * sizeof *frac);
        for (int si = 0; si < 5; si++) {
            uint32_t s = rng_below(&r, n);
            double *o = oracle_all(map, s, 0);
            snprintf(g_where, sizeof g_where, "graph %u: n %u arcs %u coords %d integer %d tree from %u", gi, n, k, coords,
                     integer, s);
            for (int rev = 0; rev < 2; rev++) {
                PCHECK(pf_search_tree(ctx, s, &(pf_search_desc){.reverse = rev}) == PF_OK);
                double *orv = rev ? oracle_all(map, s, 1) : o;
                for (uint32_t v = 0; v < n; v++) {
                    double c = pf_ctx_cost(ctx, v);
                    PCHECK(close_to(c, orv[v]) || (isinf(c) && isinf(orv[v])));
                    PCHECK(pf_ctx_closed(ctx, v) == (int)isfinite(orv[v]));
                }
                if (rev) free(orv);
            }
            for (int qi = 0; qi < 8; qi++) {
                uint32_t g = rng_below(&r, n);
                t.queries++;
                t.found += isfinite(o[g]);
                double *to_goal = oracle_all(map, g, 1);
                PCHECK(close_to(to_goal[s], o[g]) || (isinf(to_goal[s]) && isinf(o[g])));
                for (uint32_t v = 0; v < n; v++) frac[v] = rng_unit(&r);
                frac_h fh = {to_goal, frac, g};
                pf_search_desc d[8] = {
                    {.algo = PF_ALGO_ASTAR, .tie = (pf_tie)(PF_TIE_DEEPER + rng_below(&r, 4)), .tie_seed = rng_next(&r)},
                    {.algo = PF_ALGO_DIJKSTRA},
                    {.algo = PF_ALGO_ASTAR, .heuristic = PF_HEUR_CALLBACK, .heuristic_fn = frac_cb, .heuristic_user = &fh},
                    {.algo = PF_ALGO_ASTAR, .heuristic = PF_HEUR_MAX,
                     .heuristic_set = (1u << PF_HEUR_CALLBACK) | (coords ? (1u << PF_HEUR_EUCLIDEAN) : 0),
                     .heuristic_fn = frac_cb, .heuristic_user = &fh},
                    {.algo = PF_ALGO_ASTAR, .reverse = 1},
                    {.algo = PF_ALGO_WASTAR, .weight = 1.0 + 3.0 * rng_unit(&r)},
                    {.algo = PF_ALGO_GREEDY},
                    {.algo = PF_ALGO_BFS, .reverse = (int)rng_below(&r, 2)},
                };
                for (int j = 0; j < 8; j++) {
                    snprintf(g_where, sizeof g_where, "graph %u: n %u arcs %u coords %d integer %d query %u->%u", gi, n,
                             k, coords, integer, s, g);
                    check(map, ctx, s, g, &d[j], o[g], nodes, n + 1, &t);
                }
                free(to_goal);
            }
            free(o);
        }
        free(frac);
        free(nodes);
        pf_ctx_destroy(ctx);
        pf_map_destroy(map);
        free(e);
        free(xy);
    }
    print_message("prop_graph: seed %llu, %u graphs, %ld queries (%ld reachable), %ld searches\n",
                  (unsigned long long)g_seed, graphs, t.queries, t.found, t.searches);
    assert_true(t.queries >= (long)(1000 * scale) || scale < 1);
    assert_true(t.found > t.queries / 10);
}

int main(void)
{
    const char *e = getenv("PF_TEST_SEED");
    g_seed = e ? strtoull(e, NULL, 10) : UINT64_C(20240602);
    const struct CMUnitTest tests[] = {cmocka_unit_test(run_graphs)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
