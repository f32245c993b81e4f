/* test_prop_movetypes.c - movement types (pf_search_desc.filter) against references written apart
 * from the library.
 *
 * On random maps of every terrain class ('.' ground 1, 'W' water 2, 'T' trees 3, blocked), every
 * move rule, with and without cell multipliers, random filters (a non-empty set of classes, each
 * with a multiplier):
 *   (a) a filter with unit multipliers answers the costs of the map rewritten so that the allowed
 *       classes are one class (and the others blocked), searched without a filter;
 *   (b) A*, Dijkstra and JPS / JPS+ / AUTO (by jump points where the filter's classes cost one
 *       multiplier on a JPS map, else by A*, flagged) give the cost of a plain
 *       Dijkstra with the class multipliers (tests/support/oracle.c), their paths cost what they
 *       say under the filter's rule; BFS, weighted A* and greedy give legal paths (weighted A*
 *       within its bound); pf_search_tree gives every cell's cost;
 *   partial queries end on the reachable cell nearest the goal (least metric, then least cost).
 * Plus the refusals: bad filters, sizes, Theta*, graphs, endpoints on classes the unit may not enter.
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

/* The map under test, printed by every failed check so PF_TEST_SEED can replay it. */
static uint64_t cur_seed;

/* A mix of ground, water and trees in blobs, with walls. */
static uint8_t *make_cells(uint64_t *rs, uint32_t w, uint32_t h)
{
    uint8_t *c = malloc((size_t)w * h);
    memset(c, 1, (size_t)w * h);
    uint32_t rects = 3 + rng_below(rs, (w * h) / 24 + 1);
    paint_blobs(rs, c, w, h, rects, 6);
    return c;
}

static int near_eq(double a, double b) { return fabs(a - b) <= 1e-6 * (1.0 + fabs(b)); }

typedef struct run_counts {
    uint32_t queries, reached, partial;
} run_counts;

static void one_map(uint64_t seed, void *user)
{
    run_counts *rc = user;
    uint64_t rs = seed;
    cur_seed = seed;
    static const pf_moves RULES[] = {PF_MOVES_8_NO_CUT, PF_MOVES_4, PF_MOVES_8_CUT, PF_MOVES_HEX};
    uint32_t w = 8 + rng_below(&rs, 20), h = 8 + rng_below(&rs, 16);
    pf_moves mv = RULES[rng_below(&rs, 4)];
    uint8_t *cells = make_cells(&rs, w, h);
    float *costs = NULL;
    if (rng_below(&rs, 3) == 0) {
        costs = malloc((size_t)w * h * sizeof *costs);
        for (size_t i = 0; i < (size_t)w * h; i++) costs[i] = 1.0f + 0.5f * (float)rng_below(&rs, 4);
    }
    pf_map *m = NULL;
    CHECK_EQ(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = cells, .costs = costs}, &m),
                     PF_OK);
    pf_ctx *ctx = NULL;
    CHECK_EQ(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t cap = w * h;
    uint32_t *nodes = malloc(cap * sizeof *nodes);

    for (int fi = 0; fi < 4; fi++) {
        pf_move_filter f;
        const int unit_costs = fi == 0;
        filter_random(&rs, &f, unit_costs);

        /* (a) the map rewritten: the allowed classes one class, the rest blocked, no filter */
        pf_map *one = NULL;
        pf_ctx *one_ctx = NULL;
        if (unit_costs) {
            uint8_t *rc1 = malloc((size_t)w * h);
            for (size_t i = 0; i < (size_t)w * h; i++) rc1[i] = filter_allows(&f, cells[i]) ? 1 : 0;
            CHECK_EQ(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = rc1, .costs = costs},
                                            &one),
                             PF_OK);
            CHECK_EQ(pf_ctx_create(one, NULL, &one_ctx), PF_OK);
            free(rc1);
        }

        for (int q = 0; q < 6; q++) {
            uint32_t a = filter_allowed_cell(m, &f, &rs), b = filter_allowed_cell(m, &f, &rs);
            if (a == PF_NODE_NONE || b == PF_NODE_NONE) break;
            double *dist = oracle_all_filter(m, a, 0, &f);
            double want = dist[b];
            rc->queries++;
            if (isfinite(want)) rc->reached++;

            static const pf_algo EXACT[] = {PF_ALGO_ASTAR, PF_ALGO_DIJKSTRA, PF_ALGO_JPS, PF_ALGO_JPS_PLUS, PF_ALGO_AUTO};
            uint32_t astar_expanded = 0;
            /* JPS searches a filter whose classes cost one multiplier on 8-connected maps without
             * cell multipliers (tests/test_prop_jps_filter.c); elsewhere A* answers */
            const int jump_points = filter_uniform(&f) && !costs && (mv == PF_MOVES_8_NO_CUT || mv == PF_MOVES_8_CUT);
            for (size_t ai = 0; ai < sizeof EXACT / sizeof EXACT[0]; ai++) {
                pf_search_desc d = {.algo = EXACT[ai], .filter = &f};
                pf_path p = {.nodes = nodes, .capacity = cap};
                pf_stats st;
                pf_status s = pf_search(ctx, a, b, &d, &p, &st);
                if (!isfinite(want)) {
                    if (s != PF_NO_PATH) fail_msg("seed %llu: algo %d status %d, oracle: no path", (unsigned long long)seed, EXACT[ai], s);
                    continue;
                }
                if (s != PF_OK || !near_eq(st.cost, want))
                    fail_msg("seed %llu: algo %d status %d cost %.9f, oracle %.9f", (unsigned long long)seed, EXACT[ai], s,
                             st.cost, want);
                CHECK(near_eq(oracle_path_cost_filter(m, nodes, p.len, &f), want));
                CHECK_EQ(nodes[0], a);
                CHECK_EQ(nodes[p.len - 1], b);
                int jumpy = EXACT[ai] == PF_ALGO_JPS || EXACT[ai] == PF_ALGO_JPS_PLUS || EXACT[ai] == PF_ALGO_AUTO;
                if (EXACT[ai] == PF_ALGO_ASTAR) astar_expanded = st.expanded;
                if (jumpy && jump_points) { /* one multiplier on a JPS map: jump points answer */
                    CHECK(!(st.detail & PF_DETAIL_FALLBACK));
                    CHECK(st.algo == PF_ALGO_JPS || st.algo == PF_ALGO_JPS_PLUS);
                } else if (jumpy) { /* answered as A* answers it, expansion for expansion */
                    /* (on a map JPS cannot run on, AUTO's own pick: not a fallback) */
                    if (EXACT[ai] == PF_ALGO_AUTO && !pf_jps_supported(m)) CHECK(!(st.detail & PF_DETAIL_FALLBACK));
                    else CHECK(st.detail & PF_DETAIL_FALLBACK);
                    CHECK_EQ(st.algo, PF_ALGO_ASTAR);
                    CHECK_EQ(st.expanded, astar_expanded);
                }
            }
            if (one) {
                pf_stats st1;
                pf_status s1 = pf_search(one_ctx, a, b, NULL, NULL, &st1);
                CHECK_EQ(s1, isfinite(want) ? PF_OK : PF_NO_PATH);
                if (isfinite(want)) CHECK(near_eq(st1.cost, want));
            }
            /* suboptimal searches: legal paths under the filter, weighted A* within its bound */
            static const pf_algo LOOSE[] = {PF_ALGO_BFS, PF_ALGO_WASTAR, PF_ALGO_GREEDY};
            for (size_t ai = 0; ai < sizeof LOOSE / sizeof LOOSE[0]; ai++) {
                pf_search_desc d = {.algo = LOOSE[ai], .weight = 1.5, .filter = &f};
                pf_path p = {.nodes = nodes, .capacity = cap};
                pf_stats st;
                pf_status s = pf_search(ctx, a, b, &d, &p, &st);
                CHECK_EQ(s, isfinite(want) ? PF_OK : PF_NO_PATH);
                if (!isfinite(want)) continue;
                double pc = oracle_path_cost_filter(m, nodes, p.len, &f);
                CHECK(isfinite(pc));
                CHECK(near_eq(st.cost, pc));
                if (LOOSE[ai] == PF_ALGO_WASTAR) CHECK(pc <= 1.5 * want + 1e-6);
            }
            /* partial: a goal anywhere, blocked or of a class the unit may not enter included */
            {
                int32_t gx = (int32_t)rng_below(&rs, w), gy = (int32_t)rng_below(&rs, h);
                uint32_t g = pf_grid_node(m, gx, gy);
                pf_search_desc d = {.filter = &f, .partial = 1};
                pf_path p = {.nodes = nodes, .capacity = cap};
                pf_stats st;
                pf_status s = pf_search(ctx, a, g, &d, &p, &st);
                pf_point gp = {gx, gy};
                double best_m, best_c;
                const uint32_t near = oracle_nearest(m, dist, mv, gp, pf_grid_point(m, a), &best_m, &best_c);
                if (isfinite(dist[g])) {
                    CHECK_EQ(s, PF_OK);
                    CHECK(near_eq(st.cost, dist[g]));
                } else {
                    rc->partial++;
                    if (s != PF_PARTIAL) fail_msg("seed %llu: partial status %d", (unsigned long long)seed, s);
                    CHECK(st.detail & PF_DETAIL_PARTIAL);
                    uint32_t end = nodes[p.len - 1];
                    CHECK_EQ(end, near);
                    CHECK(near_eq(oracle_metric(mv, pf_grid_point(m, end), gp), best_m));
                    CHECK(near_eq(st.cost, dist[end]));
                    CHECK(near_eq(st.cost, best_c));
                }
            }
            /* the tree: every cell's cost */
            if (q == 0) {
                CHECK_EQ(pf_search_tree(ctx, a, &(pf_search_desc){.filter = &f}), PF_OK);
                for (uint32_t i = 0; i < w * h; i++) {
                    double c = pf_ctx_cost(ctx, i);
                    if (isfinite(dist[i]) != isfinite(c) || (isfinite(c) && !near_eq(c, dist[i])))
                        fail_msg("seed %llu: tree cell %u cost %.9f, oracle %.9f", (unsigned long long)seed, i, c, dist[i]);
                }
            }
            /* an endpoint the unit may not enter is refused, as a blocked one is */
            for (uint32_t i = 0; i < w * h; i++) {
                uint8_t k = cells[i];
                if (!k || filter_allows(&f, k)) continue;
                pf_search_desc d = {.filter = &f};
                CHECK_EQ(pf_search(ctx, i, b, &d, NULL, NULL), PF_INVALID_START);
                CHECK_EQ(pf_search(ctx, a, i, &d, NULL, NULL), PF_INVALID_GOAL);
                break;
            }
            free(dist);
        }
        pf_ctx_destroy(one_ctx);
        pf_map_destroy(one);
    }
    free(nodes);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
    free(costs);
    free(cells);
}

static void test_against_oracle(void **state)
{
    (void)state;
    run_counts rc = {0};
    if (!each_seed(0x5eed0000ull, (uint32_t)(300 * env_scale()), one_map, &rc, NULL)) return;
    /* the draw must cover both answers, or the test checks less than it says */
    print_message("%u queries, %u reached, %u partial\n", rc.queries, rc.reached, rc.partial);
    assert_true(rc.queries > 1000);
    assert_true(rc.reached > rc.queries / 4);
    assert_true(rc.queries - rc.reached > rc.queries / 20);
    assert_true(rc.partial > 100);
}

/* A river of water between two banks of ground: a walker cannot cross, a hover unit can, and
 * pays the water's multiplier; a ship on water alone cannot start on the bank. */
static void test_river(void **state)
{
    (void)state;
    const uint32_t w = 9, h = 5;
    uint8_t cells[9 * 5];
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) cells[y * w + x] = x >= 3 && x <= 5 ? 2 : 1;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = PF_MOVES_4, .cells = cells}, &m), PF_OK);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t a = pf_grid_node(m, 0, 2), b = pf_grid_node(m, 8, 2);
    pf_stats st;
    assert_int_equal(pf_search(ctx, a, b, NULL, NULL, &st), PF_NO_PATH);
    pf_move_filter hover = {0};
    pf_move_filter_allow(&hover, 1, 0.0f);
    pf_move_filter_allow(&hover, 2, 2.0f);
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.filter = &hover}, NULL, &st), PF_OK);
    assert_true(near_eq(st.cost, 3.0 * 2.0 + 5.0)); /* three water cells entered, five ground */
    pf_move_filter ship = {0};
    pf_move_filter_allow(&ship, 2, 0.0f);
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.filter = &ship}, NULL, &st), PF_INVALID_START);
    assert_int_equal(pf_search(ctx, pf_grid_node(m, 3, 0), pf_grid_node(m, 5, 4), &(pf_search_desc){.filter = &ship}, NULL, &st),
                     PF_OK);
    assert_true(near_eq(st.cost, 6.0));
    /* a sliced search with a filter, and again after an edit that dries part of the river */
    assert_int_equal(pf_search_begin(ctx, a, b, &(pf_search_desc){.filter = &hover}), PF_IN_PROGRESS);
    pf_grid_edit dry = {.rect = {3, 0, 3, 5}, .cls = 1};
    assert_int_equal(pf_grid_apply_edits(m, &dry, 1, NULL), PF_OK);
    pf_status s;
    while ((s = pf_search_step(ctx, 2)) == PF_IN_PROGRESS) {
    }
    assert_int_equal(s, PF_OK);
    assert_int_equal(pf_search_path(ctx, NULL, &st), PF_OK);
    assert_true(near_eq(st.cost, 8.0));
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

/* Batches: two filters are two queries even for one start and goal, one filter shared by two units
 * is one search, squads of each movement type are grouped apart, a flow field takes a filter; the
 * answers equal pf_search's. */
static void test_batch(void **state)
{
    (void)state;
    const uint32_t w = 24, h = 16;
    uint8_t cells[24 * 16];
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) cells[y * w + x] = x >= 10 && x <= 12 ? 2 : (x == 5 && y > 2 ? 0 : 1);
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = cells}, &m), PF_OK);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    pf_move_filter hover = {0}, dear = {0};
    pf_move_filter_allow(&hover, 1, 0.0f);
    pf_move_filter_allow(&hover, 2, 0.0f);
    dear = hover;
    dear.class_cost[2] = 4.0f;
    const pf_move_filter *kinds[3] = {NULL, &hover, &dear};
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 2}, &b), PF_OK);
    pf_query_id ids[40];
    uint32_t goal = pf_grid_node(m, 20, 8);
    for (uint32_t i = 0; i < 40; i++) {
        uint32_t start = pf_grid_node(m, (int32_t)(i % 4), (int32_t)(i / 4 % 16));
        pf_batch_query q = {.start = i < 6 ? pf_grid_node(m, 0, 0) : start, .goal = i < 6 ? pf_grid_node(m, 23, 0) : goal,
                            .search = {.filter = kinds[i % 3]}};
        assert_int_equal(pf_batch_submit(b, &q, &ids[i]), PF_OK);
    }
    pf_query_id fid;
    pf_batch_query fq = {.goal = goal, .flags = PF_QUERY_FLOW, .search = {.filter = &hover}};
    assert_int_equal(pf_batch_submit(b, &fq, &fid), PF_OK);
    assert_int_equal(pf_batch_run(b, NULL), PF_OK);
    uint32_t deduped = 0;
    for (uint32_t i = 0; i < 40; i++) {
        pf_batch_result r;
        assert_int_equal(pf_batch_get(b, ids[i], &r), PF_OK);
        uint32_t start = i < 6 ? pf_grid_node(m, 0, 0) : pf_grid_node(m, (int32_t)(i % 4), (int32_t)(i / 4 % 16));
        pf_stats st;
        pf_status s = pf_search(ctx, start, i < 6 ? pf_grid_node(m, 23, 0) : goal, &(pf_search_desc){.filter = kinds[i % 3]},
                                NULL, &st);
        assert_int_equal(r.status, s);
        if (s == PF_OK) assert_true(near_eq(r.stats.cost, st.cost));
        /* the squads of each type to the shared goal are grouped (test_prop_unit_filters) */
        if (i >= 6 && s == PF_OK) assert_true(r.flags & (PF_BATCH_RESULT_GROUPED | PF_BATCH_RESULT_DEDUPED));
        if (i < 6 && (r.flags & PF_BATCH_RESULT_DEDUPED)) deduped++;
    }
    /* queries 0..5: three kinds twice over, each second one answered by the first of its kind */
    assert_int_equal(deduped, 3);
    pf_batch_result fr;
    assert_int_equal(pf_batch_get(b, fid, &fr), PF_OK);
    assert_int_equal(fr.status, PF_OK); /* a hover unit's field (test_prop_unit_filters holds it to pf_search) */
    assert_true(fr.field != NULL);
    pf_batch_destroy(b);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void test_refusals(void **state)
{
    (void)state;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 8, .height = 8}, &m), PF_OK);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint32_t a = pf_grid_node(m, 0, 0), b = pf_grid_node(m, 5, 5);
    pf_move_filter f = {0};
    /* no class at all */
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.filter = &f}, NULL, NULL), PF_INVALID_ARGUMENT);
    /* a filter of classes the map does not have is valid, whichever byte of the mask holds them;
     * the unit just cannot stand anywhere */
    const uint8_t lone[] = {8, 64, 200, 255};
    for (size_t i = 0; i < sizeof lone; i++) {
        pf_move_filter o = {0};
        pf_move_filter_allow(&o, lone[i], 2.0f);
        assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.filter = &o}, NULL, NULL), PF_INVALID_START);
    }
    pf_move_filter_allow(&f, 1, 0.0f);
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.filter = &f}, NULL, NULL), PF_OK);
    /* class 0 is "blocked": never enterable */
    pf_move_filter g = f;
    g.classes[0] |= 1u;
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.filter = &g}, NULL, NULL), PF_INVALID_ARGUMENT);
    /* negative, NaN and infinite multipliers, on any class */
    const float bad[] = {-1.0f, NAN, INFINITY};
    for (size_t i = 0; i < 3; i++) {
        g = f;
        g.class_cost[i == 0 ? 1 : 200] = bad[i];
        assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.filter = &g}, NULL, NULL), PF_INVALID_ARGUMENT);
    }
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.filter = &f, .unit_size = 2}, NULL, NULL), PF_OK);
    /* Theta* takes a filter of one multiplier (test_prop_unit_filters), not two */
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.filter = &f, .algo = PF_ALGO_THETA}, NULL, NULL), PF_OK);
    pf_move_filter two = f;
    pf_move_filter_allow(&two, 2, 2.0f);
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.filter = &two, .algo = PF_ALGO_THETA}, NULL, NULL), PF_UNSUPPORTED);
    /* repairs take the unit's filter (test_prop_unit_filters), and refuse a bad one as a search does */
    uint32_t old[2] = {a, pf_grid_node(m, 1, 1)}, outn[8];
    pf_path out = {.nodes = outn, .capacity = 8};
    assert_int_equal(pf_path_repair(ctx, old, 2, 0, &(pf_search_desc){.filter = &f}, &out, NULL), PF_OK);
    pf_move_filter none = {0};
    assert_int_equal(pf_path_repair(ctx, old, 2, 0, &(pf_search_desc){.filter = &none}, &out, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_path_repair(ctx, old, 2, 0, NULL, &out, NULL), PF_OK);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);

    pf_map *gm;
    const pf_edge e[] = {{0, 1, 1.0}};
    assert_int_equal(pf_graph_create(&(pf_graph_desc){.node_count = 2, .edge_count = 1, .edges = e}, &gm), PF_OK);
    assert_int_equal(pf_ctx_create(gm, NULL, &ctx), PF_OK);
    assert_int_equal(pf_search(ctx, 0, 1, &(pf_search_desc){.filter = &f}, NULL, NULL), PF_UNSUPPORTED);
    pf_ctx_destroy(ctx);
    pf_map_destroy(gm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_river),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_against_oracle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
