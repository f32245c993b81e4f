/* test_prop_batch.c - determinism: the same queries give bit-identical costs and paths for 1, 2, 3
 * and 8 threads and any order of submission; single searches equal pf_search, group and dedup
 * answers equal independent A* costs. Seed: PF_TEST_SEED (printed on failure); size: PF_TEST_SCALE. */
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
#include "maps.h"

static uint64_t g_seed;

#define CHECK(c)                                                                       \
    do {                                                                               \
        if (!(c)) {                                                                    \
            print_error("seed %llu: %s\n", (unsigned long long)g_seed, #c);            \
            fail();                                                                    \
        }                                                                              \
    } while (0)

static pf_map *make_map(pf_moves mv, int weighted, uint64_t *s)
{
    uint32_t w = 96 + lcg_next(s) % 64, h = 80 + lcg_next(s) % 64;
    uint8_t *cls = malloc((size_t)w * h);
    float *cost = malloc((size_t)w * h * sizeof *cost);
    for (size_t i = 0; i < (size_t)w * h; i++) {
        uint32_t r = lcg_next(s) % 100;
        cls[i] = r < 22 ? 0 : (r < 25 ? 2 : 1); /* a little water: a class of its own */
        cost[i] = 1.0f + (float)(lcg_next(s) % 5) * 0.75f;
    }
    pf_map *m = grid_make(w, h, mv, cls, weighted ? cost : NULL);
    free(cls);
    free(cost);
    return m;
}

/* The cells a waypoint path stands for, each leg a straight run of one move (waypoints are the
 * ends and the turns); 0 when a leg is not straight or out grows past cap. */
static uint32_t expand_waypoints(const pf_map *m, const uint32_t *way, uint32_t k, uint32_t *out, uint32_t cap)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < k; i++) {
        if (i == 0) {
            if (n == cap) return 0;
            out[n++] = way[0];
            continue;
        }
        pf_point a = pf_grid_point(m, way[i - 1]), b = pf_grid_point(m, way[i]);
        int32_t dx = b.x - a.x, dy = b.y - a.y, ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
        if ((ax && ay && ax != ay) || (!ax && !ay)) return 0;
        int32_t steps = ax > ay ? ax : ay, sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
        for (int32_t t = 1; t <= steps; t++) {
            if (n == cap) return 0;
            out[n++] = pf_grid_node(m, a.x + t * sx, a.y + t * sy);
        }
    }
    return n;
}

typedef struct run_out {
    pf_batch     *b;
    pf_query_id  *id;  /* [n] by query index */
} run_out;

static run_out run_batch(const pf_map *m, const pf_batch_query *q, uint32_t n, uint32_t threads, int shuffle,
                         uint64_t *s)
{
    run_out o = {0};
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = threads}, &o.b), PF_OK);
    o.id = malloc(n * sizeof *o.id);
    uint32_t *perm = malloc(n * sizeof *perm);
    for (uint32_t i = 0; i < n; i++) perm[i] = i;
    if (shuffle)
        for (uint32_t i = n; i > 1; i--) {
            uint32_t j = lcg_next(s) % i, t = perm[i - 1];
            perm[i - 1] = perm[j];
            perm[j] = t;
        }
    for (uint32_t k = 0; k < n; k++) assert_int_equal(pf_batch_submit(o.b, &q[perm[k]], &o.id[perm[k]]), PF_OK);
    assert_int_equal(pf_batch_run(o.b, NULL), PF_OK);
    free(perm);
    return o;
}

static void prop_case(pf_moves mv, int weighted)
{
    uint64_t s = g_seed ^ ((uint64_t)mv * 0x9E3779B97F4A7C15ull) ^ (uint64_t)weighted;
    pf_map *m = make_map(mv, weighted, &s);
    uint32_t nodes = pf_map_node_count(m), w = pf_grid_width(m);
    uint32_t n = (uint32_t)(2500 * env_scale());
    pf_batch_query *q = calloc(n, sizeof *q);
    uint32_t goal = 0, anchor = 0;
    pf_search_desc squad = {0}; /* a group's options: squads are grouped whenever theirs match */
    static const pf_algo SQUAD_ALGOS[] = {PF_ALGO_ASTAR, PF_ALGO_DIJKSTRA, PF_ALGO_JPS, PF_ALGO_JPS_PLUS, PF_ALGO_AUTO};
    for (uint32_t i = 0; i < n; i++) {
        uint32_t kind = lcg_next(&s) % 100;
        if (i % 40 == 0) {
            goal = lcg_next(&s) % nodes;
            anchor = lcg_next(&s) % nodes;
            uint32_t o = lcg_next(&s);
            squad = (pf_search_desc){.algo = SQUAD_ALGOS[o % 5], .unit_size = o / 5 % 3 ? 0u : 2u + o / 15 % 2,
                                     .waypoints = o / 30 % 4 == 0};
            if (i % 80 == 0) squad = (pf_search_desc){0}; /* half the squads: the defaults */
        }
        if (kind < 35) { /* a group move: starts near an anchor, one goal */
            int32_t ax = (int32_t)(anchor % w) + (int32_t)(lcg_next(&s) % 9) - 4;
            int32_t ay = (int32_t)(anchor / w) + (int32_t)(lcg_next(&s) % 9) - 4;
            uint32_t st = pf_grid_node(m, ax, ay);
            q[i].start = st == PF_NODE_NONE ? anchor : st;
            q[i].goal = goal;
            q[i].search = squad;
        } else if (kind < 45 && i) { /* a duplicate */
            q[i] = q[lcg_next(&s) % i];
        } else if (kind < 47) { /* out of range */
            q[i].start = nodes + lcg_next(&s) % 10;
            q[i].goal = lcg_next(&s) % nodes;
        } else {
            q[i].start = lcg_next(&s) % nodes;
            q[i].goal = lcg_next(&s) % nodes;
            if (kind % 7 == 0) q[i].search.algo = PF_ALGO_DIJKSTRA;
            if (kind % 11 == 0) q[i].search = (pf_search_desc){.algo = PF_ALGO_WASTAR, .weight = 1.7};
            if (kind % 13 == 0) q[i].search = (pf_search_desc){.tie = PF_TIE_FIFO};
        }
        q[i].tag = i;
    }
    uint32_t grouped_with[2] = {0, 0}; /* grouped members with options: one-cell, sized */
    run_out ref = run_batch(m, q, n, 1, 0, &s);
    pf_batch_stats rs = pf_batch_get_stats(ref.b);
    CHECK(rs.completed == n);
    CHECK(rs.deduped > 0);
    CHECK(mv == PF_MOVES_HEX ? rs.grouped == 0 : rs.grouped > 0); /* hex: no groups (see pf_batch.h) */

    /* against pf_search: singles bit for bit, groups and duplicates by cost */
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t *buf = malloc((size_t)nodes * sizeof *buf), *cells = malloc((size_t)nodes * sizeof *cells);
    for (uint32_t i = 0; i < n; i++) {
        pf_batch_result r;
        assert_int_equal(pf_batch_get(ref.b, ref.id[i], &r), PF_OK);
        CHECK(r.tag == i);
        pf_path p = {.nodes = buf, .capacity = nodes};
        pf_stats st;
        pf_status ss = pf_search(ctx, q[i].start, q[i].goal, &q[i].search, &p, &st);
        CHECK(r.status == ss);
        if (r.flags & PF_BATCH_RESULT_GROUPED) {
            grouped_with[q[i].search.unit_size > 1 ? 1 : 0] += q[i].search.algo != PF_ALGO_ASTAR || q[i].search.unit_size > 1 ||
                                                               q[i].search.waypoints;
            if (ss == PF_OK) {
                CHECK(fabs(r.stats.cost - st.cost) <= 1e-9 * (1.0 + st.cost));
                CHECK(r.path[0] == q[i].start && r.path[r.path_len - 1] == q[i].goal);
                /* waypoints: the cells they stand for make a legal path of the cost (another path
                 * of that cost than the single search's may turn more or less often) */
                uint32_t len = q[i].search.waypoints ? expand_waypoints(m, r.path, r.path_len, cells, nodes) : r.path_len;
                const uint32_t *full = q[i].search.waypoints ? cells : r.path;
                CHECK(len >= r.path_len);
                CHECK(fabs(oracle_path_cost(m, full, len) - r.stats.cost) <= 1e-9 * (1.0 + st.cost));
                /* a sized unit's path keeps its block on its class at every cell */
                for (uint32_t k = 0; q[i].search.unit_size > 1 && k < r.path_len; k++) {
                    pf_point pt = pf_grid_point(m, r.path[k]);
                    CHECK(pf_grid_clearance(m, pt.x, pt.y) >= q[i].search.unit_size);
                }
            }
        } else {
            CHECK(memcmp(&r.stats.cost, &st.cost, sizeof st.cost) == 0);
            CHECK(r.path_len == (ss == PF_OK ? p.len : 0));
            if (r.path_len) CHECK(memcmp(r.path, buf, p.len * sizeof *buf) == 0);
        }
    }
    /* squads with options were grouped too (not on hex grids, which take no groups) */
    /* (sized squads seldom find four starts open to them on these maps: test_batch's
     * test_squads_with_options groups them on an open one) */
    if (mv != PF_MOVES_HEX) CHECK(grouped_with[0] > 0);
    /* against the oracle, so a bug shared by search and batch cannot hide: every NO_PATH and every
     * SAMPLEth path found, of one-cell units (the oracle's) and exact algorithms */
    enum { SAMPLE = 10 };
    uint32_t oracle_paths = 0, oracle_none = 0, exact = 0;
    for (uint32_t i = 0; i < n; i++) {
        pf_batch_result r;
        assert_int_equal(pf_batch_get(ref.b, ref.id[i], &r), PF_OK);
        pf_search_desc rd = pf_search_desc_resolve(m, &q[i].search);
        if (rd.algo == PF_ALGO_WASTAR || rd.unit_size > 1 || (r.status != PF_OK && r.status != PF_NO_PATH)) continue;
        exact++;
        if (r.status == PF_OK && i % SAMPLE) continue;
        double oc = oracle_cost(m, q[i].start, q[i].goal);
        if (r.status == PF_NO_PATH) {
            CHECK(isinf(oc));
            oracle_none++;
        } else {
            CHECK(fabs(oc - r.stats.cost) <= 1e-9 * (1.0 + oc));
            oracle_paths++;
        }
    }
    print_message("%u queries, %u exact one-cell answers: %u paths and %u NO_PATH against the oracle\n", n, exact,
                  oracle_paths, oracle_none);
    /* a floor, so that a change of the mix above cannot leave the oracle nothing to check */
    CHECK(oracle_paths > 0);
    CHECK((oracle_paths + oracle_none) * SAMPLE * 2 >= exact);

    const uint32_t threads[] = {2, 3, 8, 1};
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        run_out o = run_batch(m, q, n, threads[t], 1, &s);
        for (uint32_t i = 0; i < n; i++) {
            pf_batch_result a, b;
            assert_int_equal(pf_batch_get(ref.b, ref.id[i], &a), PF_OK);
            assert_int_equal(pf_batch_get(o.b, o.id[i], &b), PF_OK);
            CHECK(a.status == b.status && a.tag == b.tag);
            CHECK(memcmp(&a.stats.cost, &b.stats.cost, sizeof a.stats.cost) == 0);
            CHECK(a.path_len == b.path_len);
            if (a.path_len) CHECK(memcmp(a.path, b.path, a.path_len * sizeof *a.path) == 0);
        }
        pf_batch_destroy(o.b);
        free(o.id);
    }
    free(buf);
    free(cells);
    pf_ctx_destroy(ctx);
    pf_batch_destroy(ref.b);
    free(ref.id);
    free(q);
    pf_map_destroy(m);
}

static void test_prop_8_weighted(void **state) { (void)state; prop_case(PF_MOVES_8_NO_CUT, 1); }
static void test_prop_8(void **state) { (void)state; prop_case(PF_MOVES_8_NO_CUT, 0); }
static void test_prop_8cut_weighted(void **state) { (void)state; prop_case(PF_MOVES_8_CUT, 1); }
static void test_prop_4_weighted(void **state) { (void)state; prop_case(PF_MOVES_4, 1); }
static void test_prop_hex(void **state) { (void)state; prop_case(PF_MOVES_HEX, 1); }

int main(void)
{
    const char *e = getenv("PF_TEST_SEED");
    g_seed = e ? strtoull(e, NULL, 10) : (uint64_t)time(NULL);
    printf("test_prop_batch: seed %llu (PF_TEST_SEED to replay)\n", (unsigned long long)g_seed);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prop_8_weighted), cmocka_unit_test(test_prop_8),
        cmocka_unit_test(test_prop_8cut_weighted), cmocka_unit_test(test_prop_4_weighted),
        cmocka_unit_test(test_prop_hex),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
