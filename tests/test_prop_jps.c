/* test_prop_jps.c - JPS and JPS+ against the Dijkstra oracle on random grids: many densities, both
 * corner rules, several terrain classes. Every answer is checked for cost, status and a legal
 * full-cell path; JPS and JPS+ must agree on every query. Seeds are printed on failure;
 * PF_TEST_SCALE scales the number of grids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathfind.h"
#include "testutil.h"
#include "oracle.h"
#include "maps.h"

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return (uint32_t)(rng_state >> 33);
}
static double urand(void) { return (double)rnd() / 2147483648.0; }

/* A random grid: blocked with probability `density`; with `classes` > 1, rectangles of other
 * terrain classes (water, trees) painted over it. Some grids get long walls with gaps, which make
 * the corridors and door cells where forced neighbours live. */
static pf_map *random_grid(uint32_t w, uint32_t h, double density, int classes, int walls, pf_moves mv)
{
    uint8_t *cells = malloc((size_t)w * h);
    for (uint32_t i = 0; i < w * h; i++) cells[i] = urand() < density ? 0 : 1;
    for (int r = 1; r < classes; r++) {
        uint32_t x0 = rnd() % w, y0 = rnd() % h, x1 = x0 + rnd() % (w / 2 + 1), y1 = y0 + rnd() % (h / 2 + 1);
        for (uint32_t y = y0; y <= y1 && y < h; y++)
            for (uint32_t x = x0; x <= x1 && x < w; x++)
                if (cells[y * w + x]) cells[y * w + x] = (uint8_t)(1 + r);
    }
    for (int k = 0; k < walls; k++) {
        if (rnd() & 1) {
            uint32_t x = rnd() % w;
            for (uint32_t y = 0; y < h; y++) cells[y * w + x] = (rnd() % 6) ? 0 : 1;
        } else {
            uint32_t y = rnd() % h;
            for (uint32_t x = 0; x < w; x++) cells[y * w + x] = (rnd() % 6) ? 0 : 1;
        }
    }
    pf_map *m = grid_make(w, h, mv, cells, NULL);
    free(cells);
    return m;
}

static uint32_t random_open(const pf_map *m)
{
    uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    for (int tries = 0; tries < 200; tries++) {
        int32_t x = (int32_t)(rnd() % w), y = (int32_t)(rnd() % h);
        if (pf_grid_class(m, x, y)) return pf_grid_node(m, x, y);
    }
    return PF_NODE_NONE;
}

/* Checks one answer against the oracle, and that `algo` gave it: A*, which answers where jump
 * points cannot, is exact too and would pass every other check. Returns 0 (after printing) on
 * disagreement. */
static int check_answer(const pf_map *m, uint32_t s, uint32_t g, double want, pf_status st, const pf_stats *ps,
                        const pf_path *path, pf_algo algo, const char *what, uint64_t seed)
{
    if (ps->algo != algo || (ps->detail & PF_DETAIL_FALLBACK)) {
        printf("seed %llu %s: (%u -> %u) answered by %s, detail %#x\n", (unsigned long long)seed, what, s, g,
               pf_algo_name(ps->algo), (unsigned)ps->detail);
        return 0;
    }
    if (isinf(want)) {
        if (st != PF_NO_PATH || path->len != 0) {
            printf("seed %llu %s: (%u -> %u) expected no path, got %s len %u\n", (unsigned long long)seed, what, s,
                   g, pf_status_name(st), path->len);
            return 0;
        }
        return 1;
    }
    if (st != PF_OK || fabs(ps->cost - want) > 1e-6 * (1.0 + want)) {
        printf("seed %llu %s: (%u -> %u) status %s cost %.9f, oracle %.9f\n", (unsigned long long)seed, what, s, g,
               pf_status_name(st), ps->cost, want);
        return 0;
    }
    double pc = oracle_path_cost(m, path->nodes, path->len);
    if (path->len != ps->path_len || path->nodes[0] != s || path->nodes[path->len - 1] != g ||
        fabs(pc - want) > 1e-6 * (1.0 + want)) {
        printf("seed %llu %s: (%u -> %u) bad path: len %u, walked cost %.9f, oracle %.9f\n",
               (unsigned long long)seed, what, s, g, path->len, pc, want);
        return 0;
    }
    return 1;
}

static void run_random(pf_moves mv, uint64_t base_seed)
{
    static const double densities[] = {0.0, 0.05, 0.1, 0.2, 0.3, 0.35, 0.45, 0.6};
    int grids = (int)(160 * env_scale());
    if (grids < 8) grids = 8; /* every density once at any scale: at 0.001 none ran and it passed */
    uint32_t *cells = malloc(4096 * sizeof *cells);
    uint32_t *cells2 = malloc(4096 * sizeof *cells2);
    int failures = 0;
    /* found: paths found; differ: of those, JPS+ expanded or pushed other than JPS did, the sign
     * that it jumped by its distances (without them it runs JPS's scans, step for step) */
    long queries = 0, found = 0, differ = 0;
    for (int gi = 0; gi < grids && failures < 5; gi++) {
        uint64_t seed = base_seed + (uint64_t)gi;
        rng_state = seed * UINT64_C(0x9E3779B97F4A7C15) + 1;
        uint32_t w = 1 + rnd() % 48, h = 1 + rnd() % 48;
        double dens = densities[gi % 8];
        int classes = (gi % 3 == 2) ? 3 : 1;
        int walls = (gi % 4 == 1) ? 1 + (int)(rnd() % 4) : 0;
        pf_map *m = random_grid(w, h, dens, classes, walls, mv);
        pf_ctx *a = NULL, *b = NULL;
        assert_int_equal(pf_ctx_create(m, NULL, &a), PF_OK);
        assert_int_equal(pf_ctx_create(m, NULL, &b), PF_OK);
        for (int q = 0; q < 24 && failures < 5; q++) {
            uint32_t s = random_open(m), g = random_open(m);
            if (s == PF_NODE_NONE || g == PF_NODE_NONE) break;
            double want = oracle_cost(m, s, g);
            pf_path p1 = {.nodes = cells, .capacity = 4096}, p2 = {.nodes = cells2, .capacity = 4096};
            pf_stats s1, s2;
            pf_status r1 = pf_search(a, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS}, &p1, &s1);
            pf_status r2 = pf_search(b, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS_PLUS}, &p2, &s2);
            queries++;
            if (!check_answer(m, s, g, want, r1, &s1, &p1, PF_ALGO_JPS, "jps", seed)) failures++;
            if (!check_answer(m, s, g, want, r2, &s2, &p2, PF_ALGO_JPS_PLUS, "jps+", seed)) failures++;
            if (r1 == PF_OK) {
                found++;
                differ += s1.expanded != s2.expanded || s1.pushed != s2.pushed;
            }
            if (r1 != r2 || (r1 == PF_OK && fabs(s1.cost - s2.cost) > 1e-9)) {
                printf("seed %llu: jps and jps+ disagree on (%u -> %u)\n", (unsigned long long)seed, s, g);
                failures++;
            }
        }
        pf_ctx_destroy(a);
        pf_ctx_destroy(b);
        pf_map_destroy(m);
    }
    free(cells);
    free(cells2);
    printf("%s: %d grids, %ld queries, %ld paths, %ld where JPS+ searched unlike JPS, %d failures\n",
           mv == PF_MOVES_8_CUT ? "8cut" : "8", grids, queries, found, differ, failures);
    assert_int_equal(failures, 0);
    /* some 60% of the paths at every scale tried */
    assert_true(found > 0 && differ * 4 > found);
}

static void test_random_no_cut(void **state)
{
    (void)state;
    run_random(PF_MOVES_8_NO_CUT, 1000);
}

static void test_random_cut(void **state)
{
    (void)state;
    run_random(PF_MOVES_8_CUT, 500000);
}

/* Larger open-ish grids: long scans cross several 64-bit windows in every direction. */
static void test_random_wide(void **state)
{
    (void)state;
    int failures = 0;
    int grids = (int)(12 * env_scale());
    if (grids < 2) grids = 2; /* both corner rules at any scale: at 0.08 none ran and it passed */
    long queries = 0;
    uint32_t *cells = malloc(90000 * sizeof(uint32_t));
    for (int gi = 0; gi < grids && !failures; gi++) {
        uint64_t seed = 77000 + (uint64_t)gi;
        rng_state = seed;
        pf_moves mv = (gi & 1) ? PF_MOVES_8_CUT : PF_MOVES_8_NO_CUT;
        uint32_t w = 100 + rnd() % 200, h = 100 + rnd() % 200;
        pf_map *m = random_grid(w, h, (gi % 3) * 0.02, 1 + (gi % 2) * 2, 2 + gi % 3, mv);
        pf_ctx *ctx = NULL;
        assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
        for (int q = 0; q < 6 && !failures; q++) {
            uint32_t s = random_open(m);
            if (s == PF_NODE_NONE) break;
            double *all = oracle_all(m, s, 0);
            for (int j = 0; j < 8; j++) {
                uint32_t g = random_open(m);
                pf_path p = {.nodes = cells, .capacity = 90000};
                pf_stats ps;
                for (int alg = 0; alg < 2; alg++) {
                    pf_algo algo = alg ? PF_ALGO_JPS_PLUS : PF_ALGO_JPS;
                    pf_status r = pf_search(ctx, s, g, &(pf_search_desc){.algo = algo}, &p, &ps);
                    if (!check_answer(m, s, g, all[g], r, &ps, &p, algo, alg ? "wide jps+" : "wide jps", seed)) failures++;
                    queries++;
                }
            }
            free(all);
        }
        pf_ctx_destroy(ctx);
        pf_map_destroy(m);
    }
    free(cells);
    printf("wide: %d grids, %ld searches, %d failures\n", grids, queries, failures);
    assert_int_equal(failures, 0);
    assert_true(queries > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_no_cut),
        cmocka_unit_test(test_random_cut),
        cmocka_unit_test(test_random_wide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
