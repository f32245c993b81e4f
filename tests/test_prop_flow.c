/* test_prop_flow.c - flow fields against the Dijkstra oracle: on random grids (every move rule,
 * with and without multipliers, unit sizes 1-3 against the eroded map), every cell's walk along
 * the field reaches the goal with the optimal cost from that cell, cells the goal cannot be
 * reached from have no direction, and the dense export, pf_flow_dir and a sliced build agree.
 * PF_TEST_SCALE scales the number of maps; PF_TEST_SEED replays one. */
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

static const pf_moves MOVES[] = {PF_MOVES_8_NO_CUT, PF_MOVES_8_CUT, PF_MOVES_4, PF_MOVES_HEX};

static void check_map(uint64_t seed, long *cells_checked)
{
    uint64_t rs = seed;
    uint32_t w = 3 + rng_below(&rs, 28), h = 3 + rng_below(&rs, 22), n = w * h;
    pf_moves mv = MOVES[rng_below(&rs, 4)];
    uint32_t K = mv == PF_MOVES_HEX ? 1 : 1 + rng_below(&rs, 3) / 2 + rng_below(&rs, 4) / 3;
    double density = 0.3 * rng_unit(&rs);
    uint8_t *c = malloc(n);
    for (uint32_t i = 0; i < n; i++) c[i] = rng_unit(&rs) < density ? 0 : (rng_below(&rs, 10) ? 1 : 2);
    float *f = NULL;
    if (rng_below(&rs, 2)) {
        f = malloc(n * sizeof *f);
        for (uint32_t i = 0; i < n; i++) f[i] = 0.5f + (float)rng_below(&rs, 6) * 0.5f;
    }
    uint8_t *e = erode_cells(c, w, h, K);
    pf_map *m, *me;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = c, .costs = f}, &m),
                     PF_OK);
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = e, .costs = f}, &me),
                     PF_OK);
    pf_ctx *ctx, *sl;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    assert_int_equal(pf_ctx_create(m, NULL, &sl), PF_OK);
    uint8_t *dirs = malloc(n), *dirs2 = malloc(n);
    for (int q = 0; q < 3; q++) {
        uint32_t goal = rng_below(&rs, n);
        pf_flow_desc fd = {.unit_size = K};
        pf_status st = pf_flow_build(ctx, goal, &fd);
        if (!e[goal]) {
            assert_int_equal(st, PF_INVALID_GOAL);
            continue;
        }
        assert_int_equal(st, PF_OK);
        assert_int_equal(pf_flow_export(ctx, dirs, n), PF_OK);
        /* the same field grown a few expansions a call */
        assert_int_equal(pf_flow_begin(sl, goal, &fd), PF_IN_PROGRESS);
        while ((st = pf_search_step(sl, 1 + rng_below(&rs, 7))) == PF_IN_PROGRESS) {
        }
        assert_int_equal(st, PF_OK);
        assert_int_equal(pf_flow_export(sl, dirs2, n), PF_OK);
        assert_memory_equal(dirs, dirs2, n);
        for (uint32_t v = 0; v < n; v++) {
            double want = oracle_cost(me, v, goal);
            assert_int_equal(dirs[v], pf_flow_dir(ctx, v));
            if (!isfinite(want)) {
                if (dirs[v] != PF_FLOW_NONE) {
                    print_message("cell %u has direction %u, goal %u unreachable (seed %llu)\n", v, dirs[v], goal,
                                  (unsigned long long)seed);
                    fail();
                }
                continue;
            }
            /* walk the field, summing the oracle's step costs */
            uint32_t walk[2048], len = 0, x = v;
            while (x != PF_NODE_NONE && len < 2048) {
                walk[len++] = x;
                x = pf_flow_next(ctx, x);
            }
            double got = oracle_path_cost(me, walk, len);
            if (walk[len - 1] != goal || !close_to(got, want) || !close_to(pf_flow_cost(ctx, v), want)) {
                print_message("moves %d size %u: walk from %u ends at %u (goal %u), cost %.9f, field %.9f, oracle %.9f "
                              "(seed %llu)\n",
                              (int)mv, K, v, walk[len - 1], goal, got, pf_flow_cost(ctx, v), want,
                              (unsigned long long)seed);
                fail();
            }
            (*cells_checked)++;
        }
        assert_int_equal(dirs[goal], PF_FLOW_GOAL);
        assert_int_equal(pf_flow_next(ctx, goal), PF_NODE_NONE);
    }
    free(dirs);
    free(dirs2);
    pf_ctx_destroy(ctx);
    pf_ctx_destroy(sl);
    pf_map_destroy(m);
    pf_map_destroy(me);
    free(c);
    free(e);
    free(f);
}

static void test_fields(void **state)
{
    (void)state;
    long cells = 0;
    const char *e = getenv("PF_TEST_SEED");
    if (e) {
        check_map(strtoull(e, NULL, 10), &cells);
    } else {
        int maps = (int)(120 * env_scale());
        for (int i = 0; i < maps; i++) check_map(UINT64_C(0xF10) + (uint64_t)i, &cells);
    }
    print_message("%ld cells walked to the goal at the oracle's cost\n", cells);
    assert_true(cells > 0);
}

static void test_flow_misuse(void **state)
{
    (void)state;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 10, .height = 1}, &m), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    uint8_t d[10];
    /* no field yet, or the context's last search was not one */
    assert_int_equal(pf_flow_export(c, d, 10), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_search(c, 0, 9, NULL, NULL, NULL), PF_OK);
    assert_int_equal(pf_flow_export(c, d, 10), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_flow_dir(c, 3), PF_FLOW_NONE);
    assert_int_equal(pf_flow_build(c, 10, NULL), PF_INVALID_GOAL);
    assert_int_equal(pf_flow_build(c, 9, &(pf_flow_desc){.max_cost = 3.5}), PF_OK);
    assert_int_equal(pf_flow_export(c, d, 9), PF_BUFFER_TOO_SMALL);
    assert_int_equal(pf_flow_export(c, d, 10), PF_OK);
    assert_int_equal(d[9], PF_FLOW_GOAL);
    assert_int_equal(d[6], 1); /* east, toward x = 9 */
    assert_int_equal(d[5], PF_FLOW_NONE); /* 4 steps: beyond max_cost */
    assert_true(isinf(pf_flow_cost(c, 5)));
    assert_true(close_to(pf_flow_cost(c, 6), 3.0));
    /* a sliced field whose goal an edit blocks: the next step says so */
    assert_int_equal(pf_flow_begin(c, 9, NULL), PF_IN_PROGRESS);
    assert_int_equal(pf_flow_dir(c, 9), PF_FLOW_NONE); /* not settled yet */
    assert_int_equal(pf_flow_export(c, d, 10), PF_OK);
    assert_int_equal(d[9], PF_FLOW_NONE);
    assert_int_equal(pf_grid_apply_edits(m, &(pf_grid_edit){.rect = {9, 0, 1, 1}, .cls = 0}, 1, NULL), PF_OK);
    assert_int_equal(pf_search_step(c, 0), PF_INVALID_GOAL);
    assert_int_equal(pf_grid_apply_edits(m, &(pf_grid_edit){.rect = {9, 0, 1, 1}, .cls = 1}, 1, NULL), PF_OK);
    assert_int_equal(pf_flow_build(c, 9, &(pf_flow_desc){.max_cost = 3.5}), PF_OK);
    /* an edit makes the field stale */
    assert_int_equal(pf_grid_apply_edits(m, &(pf_grid_edit){.rect = {0, 0, 1, 1}, .cls = 0}, 1, NULL), PF_OK);
    assert_int_equal(pf_flow_export(c, d, 10), PF_MAP_CHANGED);
    assert_int_equal(pf_flow_next(c, 8), PF_NODE_NONE);
    assert_int_equal(pf_flow_begin(NULL, 0, NULL), PF_INVALID_ARGUMENT);
    pf_ctx_destroy(c);
    pf_map_destroy(m);
}

/* Fields in a batch among ordinary queries, under an expansion budget over several runs: each
 * field is the one pf_flow_build makes, whatever the worker count; identical fields share one
 * search; start and other options do not split them. */
static void test_flow_batch(void **state)
{
    (void)state;
    uint64_t rs = 77;
    const uint32_t w = 70, h = 50, n = w * h;
    uint8_t *c = malloc(n);
    for (uint32_t i = 0; i < n; i++) c[i] = rng_below(&rs, 5) ? 1 : 0;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = c}, &m), PF_OK);
    pf_ctx *ref;
    assert_int_equal(pf_ctx_create(m, NULL, &ref), PF_OK);
    uint8_t *want = malloc(n);
    for (uint32_t workers = 1; workers <= 2; workers++) {
        pf_batch *b;
        assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = workers}, &b), PF_OK);
        enum { N = 24 };
        pf_query_id id[N];
        pf_batch_query q[N];
        uint64_t qs = 5;
        for (int i = 0; i < N; i++) {
            uint32_t goal = rng_below(&qs, n);
            q[i] = (pf_batch_query){.start = rng_below(&qs, n), .goal = i % 4 == 3 ? q[i - 2].goal : goal};
            if (i % 2) {
                q[i].flags = PF_QUERY_FLOW;
                q[i].search.unit_size = i % 3 == 0 ? 2 : 0;
                q[i].search.algo = i % 5 == 0 ? PF_ALGO_BFS : PF_ALGO_ASTAR; /* not read by a field */
            }
            assert_int_equal(pf_batch_submit(b, &q[i], &id[i]), PF_OK);
        }
        int runs = 0, deduped = 0;
        while (pf_batch_get_stats(b).pending) {
            assert_int_equal(pf_batch_run(b, &(pf_batch_budget){.max_expansions = 700}), PF_OK);
            assert_true(++runs < 1000);
        }
        assert_true(runs > 3); /* the fields were sliced */
        for (int i = 0; i < N; i++) {
            pf_batch_result r;
            assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
            if (!(q[i].flags & PF_QUERY_FLOW)) {
                assert_null(r.field);
                continue;
            }
            pf_status st = pf_flow_build(ref, q[i].goal, &(pf_flow_desc){.unit_size = q[i].search.unit_size});
            assert_int_equal(r.status, st);
            if (st != PF_OK) {
                assert_null(r.field);
                continue;
            }
            assert_int_equal(pf_flow_export(ref, want, n), PF_OK);
            assert_non_null(r.field);
            assert_memory_equal(r.field, want, n);
            if (i % 4 == 3 && q[i - 2].search.unit_size == q[i].search.unit_size) {
                /* the same field, asked with another start and another algo: one search */
                assert_true(r.flags & PF_BATCH_RESULT_DEDUPED);
                deduped++;
            }
        }
        assert_true(deduped > 0);
        pf_batch_destroy(b);
    }
    free(want);
    free(c);
    pf_ctx_destroy(ref);
    pf_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_fields), cmocka_unit_test(test_flow_misuse),
                                       cmocka_unit_test(test_flow_batch)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
