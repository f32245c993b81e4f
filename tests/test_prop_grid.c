/* test_prop_grid.c - property test: random grids (every movement rule, several densities, terrain
 * classes, weighted and unweighted) against the oracle Dijkstra.
 *
 * For every query: the status matches reachability, optimal algorithms return the oracle's cost
 * (1e-9 relative), weighted A* stays within its bound, greedy and BFS never beat the optimum, and
 * every returned path is legal with a cost (oracle_path_cost) equal to the reported one.
 * PF_TEST_SCALE (float, default 1) scales the number of maps; PF_TEST_SEED replays a run. The seed
 * and the failing map/query are printed on failure. */
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

static const char *const MOVE_NAMES[] = {"default", "4", "8", "8cut", "hex"};

/* admissible built-in heuristics for a movement rule (bit set of pf_heur) */
static uint32_t admissible(pf_moves mv)
{
    uint32_t z = 1u << PF_HEUR_ZERO, o = 1u << PF_HEUR_OCTILE, c = 1u << PF_HEUR_CHEBYSHEV,
             e = 1u << PF_HEUR_EUCLIDEAN;
    switch (mv) {
    case PF_MOVES_4: return z | o | c | e | (1u << PF_HEUR_MANHATTAN);
    case PF_MOVES_HEX: return z | c | (1u << PF_HEUR_HEX);
    default: return z | o | c | e;
    }
}

static pf_heur random_heur(uint64_t *r, uint32_t set, uint32_t *max_set)
{
    *max_set = 0;
    if (rng_below(r, 5) == 0) {
        *max_set = set & (uint32_t)rng_next(r);
        if (!*max_set) *max_set = set;
        return PF_HEUR_MAX;
    }
    for (;;) {
        pf_heur h = (pf_heur)(PF_HEUR_ZERO + rng_below(r, PF_HEUR_MAX - PF_HEUR_ZERO));
        if (set & (1u << h)) return h;
    }
}

typedef struct totals { long queries, found, searches; } totals;

/* Runs one search and checks it. `opt` is the oracle's cost (INFINITY when unreachable). */
static void check(const pf_map *m, pf_ctx *ctx, uint32_t s, uint32_t g, const pf_search_desc *d, double opt,
                  uint32_t *nodes, uint32_t cap, totals *t)
{
    pf_path path = {.nodes = nodes, .capacity = cap};
    pf_stats st;
    pf_status r = pf_search(ctx, s, g, d, &path, &st);
    t->searches++;
    snprintf(g_where + strlen(g_where), 64, " algo %s heur %d tie %d w %.3f", pf_algo_name(d->algo), (int)d->heuristic,
             (int)d->tie, d->weight);
    if (!isfinite(opt)) {
        PCHECK(r == PF_NO_PATH);
        PCHECK(path.len == 0);
        return;
    }
    PCHECK(r == PF_OK);
    PCHECK(path.len >= 1 && nodes[0] == s && nodes[path.len - 1] == g);
    double pc = oracle_path_cost(m, nodes, path.len);
    PCHECK(isfinite(pc)); /* every step legal */
    PCHECK(close_to(pc, st.cost));
    switch (d->algo) {
    case PF_ALGO_WASTAR: PCHECK(st.cost <= d->weight * opt * (1 + 1e-9) + 1e-9); break;
    case PF_ALGO_GREEDY:
    case PF_ALGO_BFS: PCHECK(st.cost >= opt * (1 - 1e-9) - 1e-9); break;
    default: PCHECK(close_to(st.cost, opt));
    }
}

static void run_grids(void **state)
{
    (void)state;
    double scale = env_scale();
    uint32_t maps = (uint32_t)(480 * scale);
    if (maps < 4) maps = 4;
    static const double dens[] = {0.0, 0.1, 0.25, 0.4};
    totals t = {0};
    for (uint32_t mi = 0; mi < maps; mi++) {
        uint64_t r = g_seed ^ (UINT64_C(0xA5A5) * (mi + 1));
        rng_next(&r);
        pf_moves mv = (pf_moves)(PF_MOVES_4 + mi % 4);
        int weighted = (mi / 4) % 2;
        double density = dens[(mi / 8) % 4];
        int classes = rng_below(&r, 4) == 0; /* sprinkle water (class 2) */
        uint32_t w = 1 + rng_below(&r, 40), h = 1 + rng_below(&r, 40);
        size_t n = (size_t)w * h;
        uint8_t *cls = malloc(n);
        float *cost = malloc(n * sizeof *cost);
        for (size_t i = 0; i < n; i++) {
            double u = rng_unit(&r);
            cls[i] = u < density ? 0 : (classes && u > 0.9 ? 2 : 1);
            /* multipliers from 0.5 to 4.0: below 1 too, so the heuristic scale (min) matters */
            cost[i] = (float)(0.5 * (1 + rng_below(&r, 8)));
        }
        pf_map *m;
        pf_grid_desc gd = {.width = w, .height = h, .moves = mv, .cells = cls, .costs = weighted ? cost : NULL};
        assert_int_equal(pf_grid_create(&gd, &m), PF_OK);
        pf_ctx *ctx;
        assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.heap_capacity = 1 + rng_below(&r, 16)}, &ctx), PF_OK);
        uint32_t *nodes = malloc(n * sizeof *nodes + 4);
        uint32_t set = admissible(mv);
        for (int si = 0; si < 4; si++) {
            uint32_t s = rng_below(&r, (uint32_t)n);
            if (!cls[s]) continue;
            double *o = oracle_all(m, s, 0);
            /* the shortest-path tree from s matches the oracle everywhere */
            if (si == 0) {
                snprintf(g_where, sizeof g_where, "map %u: %ux%u moves %s weighted %d density %.2f tree from %u", mi, w,
                         h, MOVE_NAMES[mv], weighted, density, s);
                PCHECK(pf_search_tree(ctx, s, NULL) == PF_OK);
                for (uint32_t v = 0; v < n; v++) {
                    double c = pf_ctx_cost(ctx, v);
                    PCHECK(close_to(c, o[v]) || (isinf(c) && isinf(o[v])));
                }
            }
            for (int gi = 0; gi < 12; gi++) {
                uint32_t g = rng_below(&r, (uint32_t)n);
                if (!cls[g]) continue;
                t.queries++;
                t.found += isfinite(o[g]);
                uint32_t mset;
                pf_search_desc d[6] = {
                    {.algo = PF_ALGO_ASTAR},
                    {.algo = PF_ALGO_DIJKSTRA},
                    {.algo = PF_ALGO_ASTAR, .heuristic = random_heur(&r, set, &mset),
                     .tie = (pf_tie)(PF_TIE_DEEPER + rng_below(&r, 4)), .tie_seed = rng_next(&r)},
                    {.algo = PF_ALGO_WASTAR, .weight = 1.0 + 2.0 * rng_unit(&r)},
                    {.algo = rng_below(&r, 2) ? PF_ALGO_GREEDY : PF_ALGO_BFS},
                    {.algo = PF_ALGO_JPS},
                };
                d[2].heuristic_set = mset;
                for (int k = 0; k < 6; k++) {
                    snprintf(g_where, sizeof g_where, "map %u: %ux%u moves %s weighted %d density %.2f query %u->%u",
                             mi, w, h, MOVE_NAMES[mv], weighted, density, s, g);
                    check(m, ctx, s, g, &d[k], o[g], nodes, (uint32_t)n + 1, &t);
                }
            }
            free(o);
        }
        free(nodes);
        pf_ctx_destroy(ctx);
        pf_map_destroy(m);
        free(cls);
        free(cost);
    }
    print_message("prop_grid: seed %llu, %u maps, %ld queries (%ld reachable), %ld searches\n",
                  (unsigned long long)g_seed, maps, t.queries, t.found, t.searches);
    assert_true(t.queries >= (long)(1000 * scale) || scale < 1);
    assert_true(t.found > t.queries / 4);
}

int main(void)
{
    const char *e = getenv("PF_TEST_SEED");
    g_seed = e ? strtoull(e, NULL, 10) : UINT64_C(20240601);
    const struct CMUnitTest tests[] = {cmocka_unit_test(run_grids)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
