/* test_prop_jps_filter.c - JPS, JPS+ and AUTO under movement filters (pf_search_desc.filter)
 * against a Dijkstra with class costs written apart from the library (tests/support/oracle.c).
 *
 * On random 8-connected maps of ground, water and trees (with and without corner cutting), with
 * filters of one to three classes:
 *   - costs equal the oracle's within 1e-9 relative, and the paths cost what they say under the
 *     filter's rule (legal steps only);
 *   - a filter whose classes cost one multiplier is answered by jump points: no PF_DETAIL_FALLBACK,
 *     pf_stats.algo JPS (JPS+ for a single class asked as JPS+), never a silent A*; a filter of
 *     differing multipliers, or a map with cell multipliers, is A* with PF_DETAIL_FALLBACK;
 *   - the same after random edits, on the context that kept its bitmaps through them, with more
 *     class sets in turn than a context keeps (the oldest go and are built again);
 *   - through batches, one and two workers giving the same costs and paths.
 * PF_TEST_SCALE scales the number of maps; PF_TEST_SEED replays one map. */
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
#include "seed_check.h"
#include "move_filter.h"
#include "random_grid.h"

static uint64_t cur_seed;

/* exact but for the order of a sum of equal steps */
static int same_cost(double a, double b) { return fabs(a - b) <= 1e-9 * (1.0 + fabs(b)); }

/* A filter of a random non-empty subset of {1, 2, 3}; uniform: one multiplier for all of them. */
static void make_filter(uint64_t *rs, pf_move_filter *f, int uniform)
{
    memset(f, 0, sizeof *f);
    uint32_t set = 1 + rng_below(rs, 7);
    float common = FILTER_MULTS[rng_below(rs, FILTER_NMULTS)];
    for (uint8_t k = 1; k <= 3; k++)
        if (set & (1u << (k - 1)))
            pf_move_filter_allow(f, k, uniform ? common : FILTER_MULTS[rng_below(rs, FILTER_NMULTS)]);
}

static int classes_allowed(const pf_move_filter *f)
{
    int n = 0;
    for (int k = 1; k <= 255; k++) n += filter_allows(f, (uint8_t)k);
    return n;
}

typedef struct counts {
    uint32_t queries, reached, jumped, fell_back, batch;
} counts;

static const pf_algo JUMPY[] = {PF_ALGO_JPS, PF_ALGO_JPS_PLUS, PF_ALGO_AUTO};

/* One query by each jumping algorithm on ctx, checked against the oracle's costs from a. */
static void check_query(pf_ctx *ctx, const pf_map *m, int costs, const pf_move_filter *f, uint32_t a, uint32_t b,
                        const double *dist, uint32_t *nodes, uint32_t cap, counts *n)
{
    const double want = dist[b];
    const int jps_ok = !costs && filter_uniform(f);
    n->queries++;
    if (isfinite(want)) n->reached++;
    for (size_t ai = 0; ai < sizeof JUMPY / sizeof JUMPY[0]; ai++) {
        pf_search_desc d = {.algo = JUMPY[ai], .filter = f};
        pf_path p = {.nodes = nodes, .capacity = cap};
        pf_stats st;
        pf_status s = pf_search(ctx, a, b, &d, &p, &st);
        if (!isfinite(want)) {
            if (s != PF_NO_PATH) fail_msg("seed %llu: algo %d status %d, oracle: no path", (unsigned long long)cur_seed, JUMPY[ai], s);
        } else {
            if (s != PF_OK || !same_cost(st.cost, want))
                fail_msg("seed %llu: algo %d %u -> %u status %d cost %.12f, oracle %.12f", (unsigned long long)cur_seed,
                         JUMPY[ai], a, b, s, st.cost, want);
            CHECK(same_cost(oracle_path_cost_filter(m, nodes, p.len, f), want));
            CHECK_EQ(nodes[0], a);
            CHECK_EQ(nodes[p.len - 1], b);
        }
        if (jps_ok) { /* jump points answered, never a silent A* */
            CHECK(!(st.detail & PF_DETAIL_FALLBACK));
            int plus = JUMPY[ai] == PF_ALGO_JPS_PLUS && classes_allowed(f) == 1;
            if (JUMPY[ai] == PF_ALGO_AUTO) CHECK(st.algo == PF_ALGO_JPS || st.algo == PF_ALGO_JPS_PLUS);
            else CHECK_EQ(st.algo, plus ? PF_ALGO_JPS_PLUS : PF_ALGO_JPS);
            n->jumped++;
        } else if (JUMPY[ai] == PF_ALGO_AUTO && !pf_jps_supported(m)) {
            /* a map JPS cannot run on: A* is AUTO's pick, as for an unfiltered unit, not said */
            CHECK(!(st.detail & PF_DETAIL_FALLBACK));
            CHECK_EQ(st.algo, PF_ALGO_ASTAR);
        } else {
            CHECK(st.detail & PF_DETAIL_FALLBACK);
            CHECK_EQ(st.algo, PF_ALGO_ASTAR);
            n->fell_back++;
        }
    }
}

/* The queries of a batch with `workers` workers: costs and paths into cost[] and path[]. */
static void run_batch(const pf_map *m, uint32_t workers, const uint32_t *qa, const uint32_t *qb,
                      pf_move_filter *const *qf, const pf_algo *qalgo, uint32_t nq, double *cost, pf_status *status,
                      uint32_t **path, uint32_t *plen)
{
    pf_batch *b = NULL;
    CHECK_EQ(pf_batch_create(m, &(pf_batch_desc){.workers = workers}, &b), PF_OK);
    pf_query_id *ids = malloc(nq * sizeof *ids);
    for (uint32_t i = 0; i < nq; i++) {
        pf_batch_query q = {.start = qa[i], .goal = qb[i], .search = {.algo = qalgo[i], .filter = qf[i]}};
        CHECK_EQ(pf_batch_submit(b, &q, &ids[i]), PF_OK);
    }
    CHECK_EQ(pf_batch_run(b, NULL), PF_OK);
    for (uint32_t i = 0; i < nq; i++) {
        pf_batch_result r;
        CHECK_EQ(pf_batch_get(b, ids[i], &r), PF_OK);
        status[i] = r.status;
        cost[i] = r.stats.cost;
        plen[i] = r.path_len;
        path[i] = malloc((r.path_len + 1) * sizeof **path);
        if (r.path_len) memcpy(path[i], r.path, r.path_len * sizeof **path);
    }
    free(ids);
    pf_batch_destroy(b);
}

static void one_map(uint64_t seed, void *user)
{
    counts *n = user;
    uint64_t rs = seed;
    cur_seed = seed;
    uint32_t w = 12 + rng_below(&rs, 40), h = 12 + rng_below(&rs, 30);
    pf_moves mv = rng_below(&rs, 3) ? PF_MOVES_8_NO_CUT : PF_MOVES_8_CUT;
    const int costs = rng_below(&rs, 8) == 0; /* cell multipliers: JPS never runs there */
    uint8_t *cells = malloc((size_t)w * h);
    memset(cells, 1, (size_t)w * h);
    paint_blobs(&rs, cells, w, h, 3 + (w * h) / 20, 7);
    float *cm = NULL;
    if (costs) {
        cm = malloc((size_t)w * h * sizeof *cm);
        for (size_t i = 0; i < (size_t)w * h; i++) cm[i] = 1.0f + 0.5f * (float)rng_below(&rs, 3);
    }
    pf_map *m = NULL;
    CHECK_EQ(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = cells, .costs = cm}, &m), PF_OK);
    pf_ctx *ctx = NULL;
    CHECK_EQ(pf_ctx_create(m, NULL, &ctx), PF_OK);
    const uint32_t cap = w * h * 2;
    uint32_t *nodes = malloc(cap * sizeof *nodes);

    /* six filters in turn on one context: more class sets than it keeps bitmaps for */
    enum { NF = 6 };
    pf_move_filter filt[NF];
    for (int i = 0; i < NF; i++) make_filter(&rs, &filt[i], rng_below(&rs, 5) != 0);

    for (int round = 0; round < 3; round++) {
        if (round) { /* random edits between rounds: the context's bitmaps follow them */
            pf_grid_edit e[3];
            uint32_t ne = 1 + rng_below(&rs, 3);
            for (uint32_t i = 0; i < ne; i++) {
                uint32_t x = rng_below(&rs, w), y = rng_below(&rs, h);
                uint32_t ew = 1 + rng_below(&rs, 5), eh = 1 + rng_below(&rs, 5);
                if (x + ew > w) ew = w - x;
                if (y + eh > h) eh = h - y;
                e[i] = (pf_grid_edit){.rect = {(int32_t)x, (int32_t)y, ew, eh}, .cls = (uint8_t)rng_below(&rs, 4)};
            }
            CHECK_EQ(pf_grid_apply_edits(m, e, ne, NULL), PF_OK);
        }
        for (int q = 0; q < 8; q++) {
            const pf_move_filter *f = &filt[rng_below(&rs, NF)];
            uint32_t a = filter_allowed_cell(m, f, &rs), b = filter_allowed_cell(m, f, &rs);
            if (a == PF_NODE_NONE || b == PF_NODE_NONE) continue;
            double *dist = oracle_all_filter(m, a, 0, f);
            check_query(ctx, m, costs, f, a, b, dist, nodes, cap, n);
            free(dist);
        }
    }

    /* a batch of filtered jumping queries: one worker and two give the same answers, the oracle's */
    if (seed % 4 == 0) {
        enum { NQ = 24 };
        uint32_t qa[NQ], qb[NQ], nq = 0;
        pf_move_filter *qf[NQ];
        pf_algo qalgo[NQ];
        for (uint32_t i = 0; i < NQ; i++) {
            pf_move_filter *f = &filt[rng_below(&rs, NF)];
            uint32_t a = filter_allowed_cell(m, f, &rs), b = filter_allowed_cell(m, f, &rs);
            if (a == PF_NODE_NONE || b == PF_NODE_NONE) continue;
            qa[nq] = a;
            qb[nq] = b;
            qf[nq] = f;
            qalgo[nq] = JUMPY[rng_below(&rs, 3)];
            nq++;
        }
        double c1[NQ], c2[NQ];
        pf_status s1[NQ], s2[NQ];
        uint32_t *p1[NQ], *p2[NQ], l1[NQ], l2[NQ];
        run_batch(m, 1, qa, qb, qf, qalgo, nq, c1, s1, p1, l1);
        run_batch(m, 2, qa, qb, qf, qalgo, nq, c2, s2, p2, l2);
        for (uint32_t i = 0; i < nq; i++) {
            CHECK_EQ(s1[i], s2[i]);
            CHECK(c1[i] == c2[i] || (isinf(c1[i]) && isinf(c2[i])));
            CHECK_EQ(l1[i], l2[i]);
            CHECK(!l1[i] || !memcmp(p1[i], p2[i], l1[i] * sizeof *p1[i]));
            double *dist = oracle_all_filter(m, qa[i], 0, qf[i]);
            if (isfinite(dist[qb[i]])) {
                CHECK_EQ(s1[i], PF_OK);
                if (!same_cost(c1[i], dist[qb[i]]))
                    fail_msg("seed %llu: batch query %u cost %.12f, oracle %.12f", (unsigned long long)seed, i, c1[i],
                             dist[qb[i]]);
                CHECK(same_cost(oracle_path_cost_filter(m, p1[i], l1[i], qf[i]), dist[qb[i]]));
            } else {
                CHECK_EQ(s1[i], PF_NO_PATH);
            }
            free(dist);
            free(p1[i]);
            free(p2[i]);
            n->batch++;
        }
    }
    free(nodes);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
    free(cm);
    free(cells);
}

static void test_against_oracle(void **state)
{
    (void)state;
    counts n = {0};
    uint32_t maps = 250 * env_scale();
    if (!each_seed(0x7e550000ull, maps, one_map, &n, NULL)) return;
    print_message("%u queries (%u reached), %u answered by jump points, %u by A*, %u batch queries\n", n.queries,
                  n.reached, n.jumped, n.fell_back, n.batch);
    /* the draw must cover what the test claims to check (about 24 queries and 6 in a batch a map:
     * 6,000 and 1,500 at full scale, a quarter of that under the sanitizer presets) */
    assert_true(n.queries > 16 * maps);
    assert_true(n.reached > n.queries / 3);
    assert_true(n.queries - n.reached > n.queries / 50);
    assert_true(n.jumped > 3 * n.fell_back);
    assert_true(n.fell_back > maps / 3);
    assert_true(n.batch > 4 * maps);
}

/* A hover unit over ground and water at one multiplier: JPS answers with the scaled cost of the
 * map where both are one class, keeps one bitmap pair per class set (a quarter byte a cell each),
 * and a JPS+ query of several classes is answered by JPS (pf_stats.algo). */
static void test_hover_river(void **state)
{
    (void)state;
    const uint32_t w = 64, h = 40;
    uint8_t *cells = malloc(w * h);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) cells[y * w + x] = x >= 20 && x < 30 ? 2 : (x == 40 && y > 5 ? 0 : 1);
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = cells}, &m), PF_OK);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    pf_move_filter hover = {0};
    pf_move_filter_allow(&hover, 1, 1.5f);
    pf_move_filter_allow(&hover, 2, 1.5f);
    uint32_t a = pf_grid_node(m, 2, 20), b = pf_grid_node(m, 60, 30);
    pf_stats st, sa;
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.algo = PF_ALGO_ASTAR, .filter = &hover}, NULL, &sa), PF_OK);
    /* a plain JPS query first: the context's JPS state (parents, path, the ground's bitmaps) */
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.algo = PF_ALGO_JPS}, NULL, &st), PF_NO_PATH); /* the river */
    assert_int_equal(pf_search(ctx, a, pf_grid_node(m, 10, 5), &(pf_search_desc){.algo = PF_ALGO_JPS}, NULL, &st), PF_OK);
    size_t before = pf_ctx_jps_mem_size(ctx);
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.algo = PF_ALGO_JPS_PLUS, .filter = &hover}, NULL, &st), PF_OK);
    assert_int_equal(st.algo, PF_ALGO_JPS);
    assert_false(st.detail & PF_DETAIL_FALLBACK);
    assert_true(same_cost(st.cost, sa.cost));
    assert_true(st.expanded < sa.expanded);
    /* one pair of bitmaps for the set: rows and columns, a bit a cell plus padding */
    size_t grew = pf_ctx_jps_mem_size(ctx) - before;
    assert_true(grew >= 2u * (w + 2) * (h + 2) / 8u && grew < 2u * (w + 2 + 192) * (h + 2 + 192) / 8u);
    /* the same set again: no more memory; a set with other multipliers of the same classes too */
    pf_move_filter dear = hover;
    dear.class_cost[1] = dear.class_cost[2] = 3.0f;
    size_t after = pf_ctx_jps_mem_size(ctx);
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.algo = PF_ALGO_JPS, .filter = &dear}, NULL, &st), PF_OK);
    assert_true(same_cost(st.cost, sa.cost * 2.0));
    assert_int_equal(pf_ctx_jps_mem_size(ctx), after);
    /* a dry river: the edit moves the bits, no rebuild (same memory), the cost follows */
    pf_grid_edit wall = {.rect = {20, 0, 10, 39}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &wall, 1, NULL), PF_OK);
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.algo = PF_ALGO_JPS, .filter = &hover}, NULL, &st), PF_OK);
    assert_int_equal(pf_ctx_jps_mem_size(ctx), after);
    double *dist = oracle_all_filter(m, a, 0, &hover);
    assert_true(same_cost(st.cost, dist[b]));
    assert_true(st.cost > sa.cost);
    free(dist);
    /* differing multipliers: A*, flagged */
    dear.class_cost[2] = 2.0f;
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.algo = PF_ALGO_JPS, .filter = &dear}, NULL, &st), PF_OK);
    assert_int_equal(st.algo, PF_ALGO_ASTAR);
    assert_true(st.detail & PF_DETAIL_FALLBACK);
    /* a partial query with a filter: A*, flagged (the search must find the reachable region) */
    assert_int_equal(pf_search(ctx, a, pf_grid_node(m, 25, 39), &(pf_search_desc){.algo = PF_ALGO_JPS, .filter = &hover, .partial = 1},
                               NULL, &st),
                     PF_OK);
    assert_true(st.detail & PF_DETAIL_FALLBACK);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
    free(cells);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hover_river),
        cmocka_unit_test(test_against_oracle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
