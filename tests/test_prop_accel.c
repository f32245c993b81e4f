/* test_prop_accel.c - the accelerator (PF_ALGO_AUTO with pf_accel) against the Dijkstra oracle on
 * random grids: random obstacles of every density, rooms joined by doors, corridors, several
 * terrain classes. Every answer is checked for status, cost, a legal full-cell path from start to
 * goal of that cost, and its waypoints. The accelerator answers every query here but s == g
 * (short_query 1), and pf_stats must say so: its fallbacks are exact too.
 * Seeds are printed on failure (PF_TEST_SEED replays one grid); PF_TEST_SCALE scales the count. */
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
#include "random_grid.h"
#include "oracle.h"
#include "accel/accel_internal.h"

static uint64_t g_seed;
static char g_where[256];

/* Cells of a random map: kind 0 random obstacles, 1 rooms with doors, 2 corridors (a grid of walls
 * with random gaps); with `classes` > 1, rectangles of other terrain classes painted over. */
static uint8_t *make_cells(uint64_t *rs, uint32_t w, uint32_t h, int kind, double density, int classes)
{
    uint8_t *c = malloc((size_t)w * h);
    for (uint32_t i = 0; i < w * h; i++) c[i] = rng_unit(rs) < density ? 0 : 1;
    if (kind == 1) {
        uint32_t room = 3 + rng_below(rs, 8);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                if (x % room == 0 || y % room == 0) c[y * w + x] = 0;
        /* a door or two in every wall segment */
        for (uint32_t y = 0; y < h; y += room)
            for (uint32_t x = 0; x + 1 < w; x += room) {
                uint32_t d = x + 1 + rng_below(rs, room - 1);
                for (uint32_t k = 0; k < 1 + rng_below(rs, 3) && d + k < w; k++) c[y * w + d + k] = 1;
            }
        for (uint32_t x = 0; x < w; x += room)
            for (uint32_t y = 0; y + 1 < h; y += room) {
                uint32_t d = y + 1 + rng_below(rs, room - 1);
                for (uint32_t k = 0; k < 1 + rng_below(rs, 3) && d + k < h; k++) c[(d + k) * w + x] = 1;
            }
    } else if (kind == 2) {
        uint32_t step = 2 + rng_below(rs, 5);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                if ((x % step == 0 || y % step == 0) && rng_unit(rs) < 0.7) c[y * w + x] = 0;
    }
    for (int r = 1; r < classes; r++) paint_class_rect(rs, c, w, h, (uint8_t)(1 + r));
    return c;
}

/* The waypoints must be the full path's ends and turning cells, in order. */
static int waypoints_match(const pf_map *m, const uint32_t *full, uint32_t n, const uint32_t *way, uint32_t k)
{
    uint32_t j = 0, w = pf_grid_width(m);
    for (uint32_t i = 0; i < n; i++) {
        int keep = i == 0 || i + 1 == n;
        if (!keep) {
            int32_t ax = (int32_t)(full[i] % w) - (int32_t)(full[i - 1] % w), ay = (int32_t)(full[i] / w) - (int32_t)(full[i - 1] / w);
            int32_t bx = (int32_t)(full[i + 1] % w) - (int32_t)(full[i] % w), by = (int32_t)(full[i + 1] / w) - (int32_t)(full[i] / w);
            keep = ax != bx || ay != by;
        }
        if (keep && (j >= k || way[j++] != full[i])) return 0;
    }
    return j == k;
}

/* The accelerator itself answered, not the JPS, JPS+ or A* that AUTO falls back to: the cost and
 * path checks alone pass with it switched off, the fallbacks being exact too. */
static int accel_answered(const pf_stats *st)
{
    return st->algo == PF_ALGO_AUTO && (st->detail & PF_DETAIL_ACCEL) &&
           !(st->detail & (PF_DETAIL_ACCEL_DECLINED | PF_DETAIL_ACCEL_STALE));
}

static void check_grid(uint64_t seed, int *failures, long *queries, long *accelerated)
{
    uint64_t rs = seed * UINT64_C(0x9E3779B97F4A7C15) + 7;
    g_seed = seed;
    uint32_t w = 1 + rng_below(&rs, 64), h = 1 + rng_below(&rs, 64);
    static const double dens[] = {0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.55};
    int kind = (int)rng_below(&rs, 3);
    double density = kind ? 0.05 * rng_unit(&rs) : dens[rng_below(&rs, 7)];
    int classes = rng_below(&rs, 3) == 0 ? 3 : 1;
    uint8_t *cells = make_cells(&rs, w, h, kind, density, classes);
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = cells}, &m), PF_OK);
    free(cells);
    pf_accel *acc;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1}, &acc), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
    uint32_t cap = w * h + 1, *full = malloc(cap * sizeof *full), *way = malloc(cap * sizeof *way);
    for (int q = 0; q < 40 && *failures < 5; q++) {
        uint32_t s = some_open(&rs, m), g = some_open(&rs, m);
        if (s == PF_NODE_NONE || g == PF_NODE_NONE) break;
        snprintf(g_where, sizeof g_where, "%ux%u kind %d density %.3f classes %d: query %u -> %u", w, h, kind,
                 density, classes, s, g);
        double want = oracle_cost(m, s, g);
        pf_path p = {.nodes = full, .capacity = cap};
        pf_stats st;
        pf_status r = pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, &p, &st);
        (*queries)++;
        int ok;
        if (isinf(want)) {
            ok = r == PF_NO_PATH && p.len == 0;
        } else {
            /* short_query 1 leaves only s == g to AUTO's A* */
            int accel = accel_answered(&st);
            *accelerated += accel;
            ok = r == PF_OK && (accel || s == g) && close_to(st.cost, want) && p.len == st.path_len && p.len >= 1 &&
                 full[0] == s && full[p.len - 1] == g && close_to(oracle_path_cost(m, full, p.len), want);
            if (ok) {
                pf_path wp = {.nodes = way, .capacity = cap};
                pf_stats ws;
                ok = pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO, .waypoints = 1}, &wp, &ws) == PF_OK &&
                     close_to(ws.cost, want) && waypoints_match(m, full, p.len, way, wp.len);
            }
        }
        if (!ok) {
            print_message("accel: %s: status %s cost %.9f, oracle %.9f, len %u, algo %d detail %#x\n  seed %llu (PF_TEST_SEED)\n",
                          g_where, pf_status_name(r), st.cost, want, p.len, (int)st.algo, (unsigned)st.detail,
                          (unsigned long long)seed);
            (*failures)++;
        }
    }
    free(full);
    free(way);
    pf_ctx_destroy(c);
    pf_accel_destroy(acc);
    pf_map_destroy(m);
}

static void test_random_grids(void **state)
{
    (void)state;
    int failures = 0;
    long queries = 0, accelerated = 0;
    const char *e = getenv("PF_TEST_SEED");
    if (e) {
        check_grid(strtoull(e, NULL, 10), &failures, &queries, &accelerated);
    } else {
        /* a few grids at any scale: at 0.001 none ran and the test passed */
        int grids = (int)(400 * env_scale());
        if (grids < 8) grids = 8;
        for (int i = 0; i < grids && failures < 5; i++)
            check_grid(UINT64_C(0xACCE1) + (uint64_t)i, &failures, &queries, &accelerated);
    }
    print_message("%ld queries, %ld answered by the accelerator, %d failures\n", queries, accelerated, failures);
    assert_int_equal(failures, 0);
    /* about a third are unreachable or s == g: the rest must be the accelerator's */
    if (!e) assert_true(accelerated * 2 > queries);
}

/* Whether the accelerator answered and the path passes a node of its core (its A* across the core,
 * on records by core index, then answered): the count shows the test reaches that search. A path
 * found by the fallbacks crosses the core just as often, so only the accelerator's answers count. */
static int crosses_core(const pf_accel *acc, const pf_map *m, const pf_stats *st, const uint32_t *path, uint32_t n)
{
    if (!accel_answered(st)) return 0;
    for (uint32_t i = 0; i < n; i++)
        if (pf__accel_core_index(acc, pf__map_inner(m, path[i])) != PF_NODE_NONE) return 1;
    return 0;
}

/* One bigger map, many queries: the hierarchy grows deep, shortcuts nest, and a round of the
 * contraction runs on several threads; two thread counts give the same bytes. */
static void test_big_grid(void **state)
{
    (void)state;
    uint64_t rs = 99;
    g_seed = 99;
    const uint32_t w = 520, h = 510; /* over 2^18 cells: the build runs in parallel */
    uint8_t *cells = make_cells(&rs, w, h, 0, 0.2, 3);
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = cells}, &m), PF_OK);
    free(cells);
    pf_accel *a1, *a2;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.threads = 1}, &a1), PF_OK);
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.threads = 2}, &a2), PF_OK);
    /* the contraction leaves a core here: queries cross it by A* with the landmark bounds */
    assert_true(pf_accel_get_info(a1).core > 0);
    size_t n1 = pf_accel_file_size(a1), n2 = pf_accel_file_size(a2);
    assert_int_equal(n1, n2);
    uint8_t *b1 = malloc(n1), *b2 = malloc(n2);
    assert_int_equal(pf_accel_save_mem(a1, b1, n1, NULL), PF_OK);
    assert_int_equal(pf_accel_save_mem(a2, b2, n2, NULL), PF_OK);
    assert_memory_equal(b1, b2, n1);
    free(b1);
    free(b2);
    pf_accel_destroy(a2);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, a1), PF_OK);
    uint32_t cap = w * h, *full = malloc(cap * sizeof *full);
    int queries = (int)(200 * env_scale()), bad = 0, crossed = 0;
    if (queries < 16) queries = 16; /* enough for the shares below at any scale */
    for (int q = 0; q < queries; q++) {
        uint32_t s = some_open(&rs, m), g = some_open(&rs, m);
        double want = oracle_cost(m, s, g);
        pf_path p = {.nodes = full, .capacity = cap};
        pf_stats st;
        pf_status r = pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, &p, &st);
        int ok = isinf(want) ? r == PF_NO_PATH
                             : r == PF_OK && close_to(st.cost, want) && full[0] == s && full[p.len - 1] == g &&
                                   close_to(oracle_path_cost(m, full, p.len), want);
        if (!ok && bad++ < 5)
            print_message("big grid: %u -> %u: status %s cost %.9f, oracle %.9f\n", s, g, pf_status_name(r), st.cost, want);
        crossed += r == PF_OK && crosses_core(a1, m, &st, full, p.len);
    }
    print_message("big grid: %d of %d queries crossed the core (%u of %u subgoals)\n", crossed, queries,
                  pf_accel_get_info(a1).core, pf_accel_get_info(a1).subgoals);
    assert_int_equal(bad, 0);
    assert_true(crossed > queries / 4);
    /* the core's arcs whose steps outgrow 16 bits are read from the full arc (PF__ACCEL_CARC_FAR):
     * none does on this map, so every one is made to, and the answers stay exact */
    for (uint32_t i = 0; i < a1->lm_first[a1->core]; i++) a1->core_arc[i].ab = PF__ACCEL_CARC_FAR;
    int far_crossed = 0;
    for (int q = 0; q < queries / 2; q++) {
        uint32_t s = some_open(&rs, m), g = some_open(&rs, m);
        double want = oracle_cost(m, s, g);
        pf_path p = {.nodes = full, .capacity = cap};
        pf_stats st;
        pf_status r = pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, &p, &st);
        assert_true(isinf(want) ? r == PF_NO_PATH : r == PF_OK && close_to(st.cost, want));
        far_crossed += r == PF_OK && crosses_core(a1, m, &st, full, p.len);
    }
    print_message("big grid, far arcs: %d of %d queries crossed the core\n", far_crossed, queries / 2);
    assert_true(far_crossed > queries / 8);
    free(full);
    pf_ctx_destroy(c);
    pf_accel_destroy(a1);
    pf_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_random_grids), cmocka_unit_test(test_big_grid)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
