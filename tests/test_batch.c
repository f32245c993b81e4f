/* test_batch.c - pf_batch through its public API: results equal pf_search, bad input isolated,
 * dedup and group moves against independent answers, budgets, frames and stale ids. */
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
#include "maps.h"

/* w x h grid, ~pct% blocked, multipliers in {1, 2, 3.5} when weighted. */
static pf_map *make_grid(uint32_t w, uint32_t h, uint32_t pct, int weighted, pf_moves mv, uint64_t seed)
{
    uint8_t *cls = malloc((size_t)w * h);
    float *cost = malloc((size_t)w * h * sizeof *cost);
    for (size_t i = 0; i < (size_t)w * h; i++) {
        cls[i] = lcg_next(&seed) % 100 < pct ? 0 : 1;
        uint32_t r = lcg_next(&seed) % 3;
        cost[i] = r == 0 ? 1.0f : (r == 1 ? 2.0f : 3.5f);
    }
    pf_map *m = grid_make(w, h, mv, cls, weighted ? cost : NULL);
    free(cls);
    free(cost);
    return m;
}

/* The batch result equals a direct pf_search, bit for bit (status, stats, path). */
static void expect_same_as_search(pf_ctx *ctx, const pf_batch_query *q, const pf_batch_result *r)
{
    static uint32_t buf[1 << 16];
    pf_path p = {.nodes = buf, .capacity = 1 << 16};
    pf_stats st;
    pf_status s = pf_search(ctx, q->start, q->goal, &q->search, &p, &st);
    assert_int_equal(r->status, s);
    assert_memory_equal(&r->stats.cost, &st.cost, sizeof st.cost);
    assert_int_equal(r->stats.expanded, st.expanded);
    assert_int_equal(r->path_len, s == PF_OK ? p.len : 0);
    if (r->path_len) assert_memory_equal(r->path, buf, p.len * sizeof *buf);
    assert_int_equal(r->tag, q->tag);
}

static void test_results_match_search(void **state)
{
    (void)state;
    pf_map *m = make_grid(120, 90, 25, 1, PF_MOVES_8_NO_CUT, 1);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 2, .flags = PF_BATCH_NO_GROUPS}, &b), PF_OK);
    enum { N = 300 };
    pf_batch_query q[N];
    pf_query_id id[N];
    uint64_t s = 7;
    for (int i = 0; i < N; i++) {
        q[i] = (pf_batch_query){.start = open_cell(m, &s), .goal = open_cell(m, &s), .tag = 1000u + (uint64_t)i};
        if (i % 7 == 0) q[i].search.algo = PF_ALGO_DIJKSTRA;
        if (i % 11 == 0) q[i].search = (pf_search_desc){.algo = PF_ALGO_WASTAR, .weight = 2.0};
        assert_int_equal(pf_batch_submit(b, &q[i], &id[i]), PF_OK);
    }
    assert_int_equal(pf_batch_run(b, NULL), PF_OK);
    for (int i = 0; i < N; i++) {
        pf_batch_result r;
        assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
        expect_same_as_search(ctx, &q[i], &r);
        if (r.status == PF_OK) assert_true(fabs(oracle_path_cost(m, r.path, r.path_len) - r.stats.cost) < 1e-9);
    }
    pf_batch_stats st = pf_batch_get_stats(b);
    assert_int_equal(st.completed, N);
    assert_int_equal(st.pending, 0);
    pf_batch_destroy(b);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

/* JPS and JPS+ run in a batch like any other algorithm: with one shared table or with each worker's
 * own data, budgeted (suspended and resumed) or not, results equal pf_search's bit for bit and do not
 * depend on the worker count. A table made for another map is refused. */
static void test_jps(void **state)
{
    (void)state;
    pf_map *m = make_grid(160, 120, 20, 0, PF_MOVES_8_NO_CUT, 31);
    pf_map *other = make_grid(160, 120, 20, 0, PF_MOVES_8_NO_CUT, 32);
    pf_jps_table *t, *tother;
    assert_int_equal(pf_jps_table_create(m, NULL, &t), PF_OK);
    assert_int_equal(pf_jps_table_create(other, NULL, &tother), PF_OK);
    pf_batch *bad = NULL;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 2, .jps_table = tother}, &bad), PF_WRONG_MAP);
    assert_null(bad);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    enum { N = 240 };
    pf_batch_query q[N];
    uint64_t s = 77;
    uint32_t goal = open_cell(m, &s);
    for (int i = 0; i < N; i++) {
        q[i] = (pf_batch_query){.start = open_cell(m, &s), .goal = i % 5 ? open_cell(m, &s) : goal, .tag = (uint64_t)i};
        q[i].search.algo = i % 2 ? PF_ALGO_JPS_PLUS : PF_ALGO_JPS;
    }
    for (int shared = 0; shared < 2; shared++)
        for (uint32_t workers = 1; workers <= 3; workers += 2)
            for (int budgeted = 0; budgeted < 2; budgeted++) {
                pf_batch *b;
                /* JPS itself, query by query: squads of JPS queries are grouped (test_squads_with_options) */
                pf_batch_desc bd = {.workers = workers, .flags = PF_BATCH_NO_GROUPS, .jps_table = shared ? t : NULL};
                assert_int_equal(pf_batch_create(m, &bd, &b), PF_OK);
                pf_query_id id[N];
                for (int i = 0; i < N; i++) assert_int_equal(pf_batch_submit(b, &q[i], &id[i]), PF_OK);
                pf_batch_budget bud = {.max_expansions = 150};
                for (int run = 0; pf_batch_get_stats(b).pending; run++) {
                    assert_true(run < 10000);
                    assert_int_equal(pf_batch_run(b, budgeted ? &bud : NULL), PF_OK);
                }
                for (int i = 0; i < N; i++) {
                    pf_batch_result r;
                    assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
                    assert_int_equal(r.flags & PF_BATCH_RESULT_GROUPED, 0);
                    expect_same_as_search(ctx, &q[i], &r);
                }
                if (budgeted) assert_true(pf_batch_get_stats(b).suspended > 0);
                pf_batch_destroy(b);
            }
    pf_ctx_destroy(ctx);
    pf_jps_table_destroy(tother);
    pf_jps_table_destroy(t);
    pf_map_destroy(other);
    pf_map_destroy(m);
}

static void test_bad_input_isolated(void **state)
{
    (void)state;
    pf_map *m = make_grid(40, 30, 30, 0, PF_MOVES_8_NO_CUT, 2);
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 3}, &b), PF_OK);
    uint64_t s = 3;
    uint32_t blocked = 0;
    while (pf_grid_class(m, (int32_t)(blocked % 40), (int32_t)(blocked / 40))) blocked++;
    uint32_t good_s = open_cell(m, &s), good_g = open_cell(m, &s);
    pf_batch_query qs[] = {
        {.start = good_s, .goal = good_g, .tag = 1},
        {.start = 40 * 30, .goal = good_g, .tag = 2},                 /* start outside */
        {.start = good_s, .goal = blocked, .tag = 3},                 /* goal blocked */
        {.start = good_s, .goal = good_g, .search = {.max_cost = -1.0}, .tag = 4},
        {.start = good_s, .goal = good_g, .search = {.algo = (pf_algo)99}, .tag = 5},
        {.start = good_s, .goal = good_g, .search = {.algo = PF_ALGO_WASTAR, .weight = 0.5}, .tag = 6},
        {.start = good_g, .goal = good_s, .tag = 7},
    };
    enum { NQ = sizeof qs / sizeof qs[0] };
    pf_status want[NQ] = {PF_OK, PF_INVALID_START, PF_INVALID_GOAL, PF_INVALID_ARGUMENT,
                          PF_INVALID_ARGUMENT, PF_INVALID_ARGUMENT, PF_OK};
    double oc = oracle_cost(m, good_s, good_g);
    if (!isfinite(oc)) want[0] = want[6] = PF_NO_PATH;
    pf_query_id id[NQ];
    for (int i = 0; i < NQ; i++) assert_int_equal(pf_batch_submit(b, &qs[i], &id[i]), PF_OK);
    pf_query_id none;
    assert_int_equal(pf_batch_submit(b, NULL, &none), PF_INVALID_ARGUMENT);
    assert_int_equal(none.id, 0);
    assert_int_equal(pf_batch_run(b, NULL), PF_OK);
    for (int i = 0; i < NQ; i++) {
        pf_batch_result r;
        assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
        assert_int_equal(r.status, want[i]);
        assert_int_equal(r.tag, qs[i].tag);
        if (r.status == PF_OK) assert_true(fabs(r.stats.cost - oc) < 1e-9);
        else assert_null(r.path);
    }
    pf_batch_destroy(b);
    pf_batch_destroy(NULL);
    pf_map_destroy(m);
}

static void test_dedup(void **state)
{
    (void)state;
    pf_map *m = make_grid(100, 100, 20, 1, PF_MOVES_8_NO_CUT, 4);
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 2}, &b), PF_OK);
    uint64_t s = 5;
    uint32_t a = open_cell(m, &s), g = open_cell(m, &s), c = open_cell(m, &s);
    pf_query_id id[10];
    for (uint32_t i = 0; i < 10; i++) {
        pf_batch_query q = {.start = i < 8 ? a : c, .goal = g, .tag = 50 + i};
        if (i == 9) q.search.algo = PF_ALGO_DIJKSTRA; /* other options: not a duplicate of 8 */
        assert_int_equal(pf_batch_submit(b, &q, &id[i]), PF_OK);
    }
    assert_int_equal(pf_batch_run(b, NULL), PF_OK);
    pf_batch_stats st = pf_batch_get_stats(b);
    assert_int_equal(st.deduped, 7);
    assert_int_equal(st.searches, 3);
    assert_int_equal(st.grouped, 0); /* 3 distinct queries: fewer than group_min */
    pf_batch_result r0;
    assert_int_equal(pf_batch_get(b, id[0], &r0), PF_OK);
    assert_int_equal(r0.flags & PF_BATCH_RESULT_DEDUPED, 0);
    for (uint32_t i = 0; i < 10; i++) {
        pf_batch_result r;
        assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
        assert_int_equal(r.tag, 50 + i);
        double oc = oracle_cost(m, i < 8 ? a : c, g);
        if (isfinite(oc)) assert_true(fabs(r.stats.cost - oc) < 1e-9);
        else assert_int_equal(r.status, PF_NO_PATH);
        if (i > 0 && i < 8) {
            assert_true(r.flags & PF_BATCH_RESULT_DEDUPED);
            assert_int_equal(r.path_len, r0.path_len);
            if (r.path_len) assert_memory_equal(r.path, r0.path, r.path_len * sizeof *r.path);
        }
    }
    pf_batch_destroy(b);
    pf_map_destroy(m);
}

/* DETERMINISM: a set of queries gives the same results (status, cost, path, flags but which of
 * identical queries is searched) and, under an expansion budget, the same completion run for each
 * query, whatever its order of submission and wherever its filter objects live. Duplicates of other
 * priorities (a group's key takes the highest: once it took the first submitted's, so the group
 * below formed in one order and not in another), and filters at other addresses in each trial (the
 * budget order hashed the filter's address: a hover and a walker from one cell finished in either
 * order). */
enum { ORD_N = 40 };
typedef struct ord_out {
    int32_t  status;
    double   cost;
    uint32_t flags, run, len;
    uint32_t path[256];
} ord_out;

static void order_trial(const pf_map *m, const pf_batch_query *base, const int *kind, uint32_t workers,
                        uint32_t trial, ord_out *out)
{
    /* filter copies: hover (0, 1) and walker (2, 3), allocated in an order of the trial's, apart */
    pf_move_filter *f[4];
    void *pad[4];
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t a = (k + trial) & 3u;
        pad[k] = malloc(64u + 1000u * ((trial + k) % 3u));
        f[a] = calloc(1, sizeof *f[a]);
        assert_non_null(f[a]);
        pf_move_filter_allow(f[a], 1, 1.0f);
        if (a < 2) pf_move_filter_allow(f[a], 2, 1.5f);
    }
    uint32_t perm[ORD_N];
    for (uint32_t i = 0; i < ORD_N; i++) perm[i] = trial == 1 ? ORD_N - 1u - i : i;
    uint64_t s = 1000u + trial;
    if (trial >= 2)
        for (uint32_t i = ORD_N - 1u; i > 0; i--) {
            uint32_t j = lcg_next(&s) % (i + 1u), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = workers}, &b), PF_OK);
    pf_query_id id[ORD_N];
    for (uint32_t t = 0; t < ORD_N; t++) {
        uint32_t i = perm[t];
        pf_batch_query q = base[i];
        /* identical queries name one object (copies are two movement types to deduplication) */
        if (kind[i]) q.search.filter = f[(kind[i] == 1 ? 0u : 2u) + ((q.start + trial) & 1u)];
        assert_int_equal(pf_batch_submit(b, &q, &id[i]), PF_OK);
    }
    uint32_t ndone = 0, runs = 0;
    for (uint32_t i = 0; i < ORD_N; i++) out[i].run = UINT32_MAX;
    while (ndone < ORD_N) {
        assert_true(++runs < 2000);
        assert_int_equal(pf_batch_run(b, &(pf_batch_budget){.max_expansions = 120}), PF_OK);
        for (uint32_t i = 0; i < ORD_N; i++) {
            pf_batch_result r;
            if (out[i].run != UINT32_MAX) continue;
            assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
            if (r.status == PF_IN_PROGRESS) continue;
            assert_true(r.path_len <= 256);
            out[i] = (ord_out){.status = r.status, .cost = r.stats.cost, .flags = r.flags, .run = runs,
                               .len = r.path_len};
            if (r.path_len) memcpy(out[i].path, r.path, r.path_len * sizeof *r.path);
            ndone++;
        }
    }
    assert_true(runs > 3); /* the budget slices the set */
    pf_batch_destroy(b);
    for (uint32_t k = 0; k < 4; k++) {
        free(f[k]);
        free(pad[k]);
    }
}

/* Under PF_BATCH_NO_DEDUP identical queries are searched apart and ordered by their tags, the
 * caller's unit ids (a review: by submission, so the unit answered first depended on the order in
 * which a peer submitted them). A budget of one search and a bit: the lower tag's completes in the
 * first run whichever came first. */
static void test_no_dedup_order_by_tag(void **state)
{
    (void)state;
    pf_map *m = grid_make(64, 64, PF_MOVES_8_NO_CUT, NULL, NULL);
    const uint32_t s = pf_grid_node(m, 0, 0), g = pf_grid_node(m, 63, 40);
    pf_ctx *c;
    pf_stats st;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_search(c, s, g, NULL, NULL, &st), PF_OK);
    pf_ctx_destroy(c);
    for (int order = 0; order < 2; order++) {
        pf_batch *b;
        assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 1, .flags = PF_BATCH_NO_DEDUP}, &b), PF_OK);
        pf_query_id id[2];
        for (int k = 0; k < 2; k++) {
            const int i = order ? 1 - k : k; /* tag 7 first, then tag 9; or the other way */
            assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = s, .goal = g, .tag = i ? 9u : 7u}, &id[i]),
                             PF_OK);
        }
        assert_int_equal(pf_batch_run(b, &(pf_batch_budget){.max_expansions = st.expanded + 2}), PF_OK);
        pf_batch_result r7, r9;
        assert_int_equal(pf_batch_get(b, id[0], &r7), PF_OK);
        assert_int_equal(pf_batch_get(b, id[1], &r9), PF_OK);
        assert_int_equal(r7.tag, 7);
        assert_int_equal(r7.status, PF_OK);
        assert_int_equal(r9.status, PF_IN_PROGRESS);
        assert_false(r7.flags & PF_BATCH_RESULT_DEDUPED);
        pf_batch_destroy(b);
    }
    pf_map_destroy(m);
}

static void test_submission_order_free(void **state)
{
    (void)state;
    enum { W = 48, H = 48 };
    uint8_t cls[W * H];
    for (uint32_t y = 0; y < H; y++) /* ground; a lake in columns 20..27 above row 40; a few walls */
        for (uint32_t x = 0; x < W; x++)
            cls[y * W + x] = x >= 20 && x < 28 && y < 40 ? 2 : ((x * 7u + y * 13u) % 17u == 0 ? 0 : 1);
    pf_map *m = grid_make(W, H, PF_MOVES_8_NO_CUT, cls, NULL);
    pf_batch_query base[ORD_N];
    int kind[ORD_N] = {0}; /* 1 hover, 2 walker */
    memset(base, 0, sizeof base);
    uint64_t s = 77;
    uint32_t n = 0, g1 = pf_grid_node(m, 10, 10), g2 = pf_grid_node(m, 40, 30);
    /* group 1: four starts, the last twice (normal and urgent), the first once more (background) */
    const uint32_t st1[4][2] = {{1, 1}, {1, 15}, {3, 19}, {17, 3}};
    for (uint32_t k = 0; k < 4; k++) base[n++] = (pf_batch_query){.start = pf_grid_node(m, st1[k][0], st1[k][1]), .goal = g1};
    base[n] = base[3], base[n++].priority = PF_PRIORITY_URGENT;
    base[n] = base[0], base[n++].priority = PF_PRIORITY_BACKGROUND;
    /* group 2: five starts of one priority, one of them twice (urgent) */
    const uint32_t st2[5][2] = {{33, 44}, {45, 45}, {35, 31}, {44, 20}, {31, 37}};
    for (uint32_t k = 0; k < 5; k++) base[n++] = (pf_batch_query){.start = pf_grid_node(m, st2[k][0], st2[k][1]), .goal = g2};
    base[n] = base[8], base[n++].priority = PF_PRIORITY_URGENT;
    /* movement types: hovers cross the lake, walkers go round; from one cell to one goal, and
     * duplicates of them */
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t a = pf_grid_node(m, 2 + k, 25 + 3 * k), g = pf_grid_node(m, 45, 5 + 4 * k);
        base[n] = (pf_batch_query){.start = a, .goal = g};
        kind[n++] = 1;
        base[n] = (pf_batch_query){.start = a, .goal = g};
        kind[n++] = 2;
        base[n] = (pf_batch_query){.start = a, .goal = g, .priority = k & 1 ? PF_PRIORITY_URGENT : PF_PRIORITY_NORMAL};
        kind[n++] = 1 + (k & 1);
    }
    while (n < ORD_N) { /* random moves of random priorities, some filtered */
        base[n] = (pf_batch_query){.start = open_cell(m, &s), .goal = open_cell(m, &s),
                                   .priority = (pf_priority)(lcg_next(&s) % 3u)};
        kind[n++] = (int)(lcg_next(&s) % 4u) % 3;
    }
    for (uint32_t i = 0; i < ORD_N; i++) base[i].tag = i;
    static ord_out ref[ORD_N], got[ORD_N];
    order_trial(m, base, kind, 1, 0, ref);
    uint32_t grouped = 0;
    for (uint32_t i = 0; i < ORD_N; i++) grouped += (ref[i].flags & PF_BATCH_RESULT_GROUPED) != 0;
    assert_true(grouped >= 4); /* group 2 at least (its urgent duplicate is searched alone) */
    for (uint32_t workers = 1; workers <= 2; workers++)
        for (uint32_t trial = workers == 1 ? 1u : 0u; trial < 6; trial++) {
            order_trial(m, base, kind, workers, trial, got);
            uint32_t dr = 0, dg = 0;
            for (uint32_t i = 0; i < ORD_N; i++) {
                dr += (ref[i].flags & PF_BATCH_RESULT_DEDUPED) != 0;
                dg += (got[i].flags & PF_BATCH_RESULT_DEDUPED) != 0;
                if (ref[i].status != got[i].status || ref[i].run != got[i].run || ref[i].len != got[i].len ||
                    memcmp(&ref[i].cost, &got[i].cost, sizeof ref[i].cost) != 0 ||
                    (ref[i].flags & ~PF_BATCH_RESULT_DEDUPED) != (got[i].flags & ~PF_BATCH_RESULT_DEDUPED) ||
                    memcmp(ref[i].path, got[i].path, ref[i].len * sizeof *ref[i].path) != 0)
                    fail_msg("workers %u order %u: query %u differs (status %d/%d run %u/%u flags %x/%x len %u/%u)",
                             workers, trial, i, ref[i].status, got[i].status, ref[i].run, got[i].run,
                             ref[i].flags, got[i].flags, ref[i].len, got[i].len);
            }
            assert_int_equal(dr, dg);
        }
    pf_map_destroy(m);
}

/* A group move on weighted maps of every square move rule: every unit's cost equals the oracle's,
 * every path is legal and costs what it says, and the group expands far less than separate A*. */
static void group_case(pf_moves mv, int weighted, uint64_t seed)
{
    pf_map *m = make_grid(160, 160, 22, weighted, mv, seed);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 2}, &b), PF_OK);
    uint64_t s = seed * 31u;
    uint32_t goal = open_cell(m, &s);
    enum { N = 40 };
    uint32_t starts[N];
    pf_query_id id[N];
    uint32_t n = 0;
    while (n < N) { /* units in a 12x12 box in the opposite corner */
        int32_t x = 140 + (int32_t)(lcg_next(&s) % 12), y = 4 + (int32_t)(lcg_next(&s) % 12);
        if (!pf_grid_class(m, x, y)) continue;
        uint32_t node = pf_grid_node(m, x, y);
        int dup = 0;
        for (uint32_t k = 0; k < n; k++) dup |= starts[k] == node;
        if (dup) continue;
        starts[n] = node;
        assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = node, .goal = goal, .tag = n}, &id[n]), PF_OK);
        n++;
    }
    assert_int_equal(pf_batch_run(b, NULL), PF_OK);
    uint64_t separate = 0;
    for (uint32_t i = 0; i < N; i++) {
        pf_batch_result r;
        assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
        double oc = oracle_cost(m, starts[i], goal);
        pf_stats st;
        pf_status ss = pf_search(ctx, starts[i], goal, NULL, NULL, &st);
        separate += st.expanded;
        if (!isfinite(oc)) {
            assert_int_equal(r.status, PF_NO_PATH);
            assert_int_equal(ss, PF_NO_PATH);
            continue;
        }
        assert_int_equal(r.status, PF_OK);
        assert_true(r.flags & PF_BATCH_RESULT_GROUPED);
        assert_true(fabs(r.stats.cost - oc) < 1e-9 * (1.0 + oc));
        assert_true(fabs(r.stats.cost - st.cost) < 1e-9 * (1.0 + oc));
        assert_int_equal(r.path[0], starts[i]);
        assert_int_equal(r.path[r.path_len - 1], goal);
        assert_true(fabs(oracle_path_cost(m, r.path, r.path_len) - r.stats.cost) < 1e-9 * (1.0 + oc));
    }
    pf_batch_stats bs = pf_batch_get_stats(b);
    if (bs.groups) {
        assert_true(bs.expanded * 3 < separate);
    }
    pf_batch_destroy(b);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

static void test_group_8(void **state) { (void)state; group_case(PF_MOVES_8_NO_CUT, 1, 11); group_case(PF_MOVES_8_NO_CUT, 0, 12); }
static void test_group_8cut(void **state) { (void)state; group_case(PF_MOVES_8_CUT, 1, 13); }
static void test_group_4(void **state) { (void)state; group_case(PF_MOVES_4, 1, 14); }

/* Budgets: every query completes eventually, in a bounded number of runs, with the same answers as
 * an unbudgeted run; long ones are sliced; ids survive resets while pending. */
static void budget_case(pf_batch_budget budget, uint32_t slots)
{
    pf_map *m = make_grid(150, 150, 20, 1, PF_MOVES_8_NO_CUT, 21);
    pf_batch *ref, *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 1}, &ref), PF_OK);
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 2, .suspend_slots = slots}, &b), PF_OK);
    enum { N = 120 };
    pf_query_id idr[N], idb[N];
    uint64_t s = 99;
    uint32_t goal = open_cell(m, &s);
    for (uint32_t i = 0; i < N; i++) {
        pf_batch_query q = {.start = open_cell(m, &s), .goal = i % 3 ? open_cell(m, &s) : goal, .tag = i};
        assert_int_equal(pf_batch_submit(ref, &q, &idr[i]), PF_OK);
        assert_int_equal(pf_batch_submit(b, &q, &idb[i]), PF_OK);
    }
    assert_int_equal(pf_batch_run(ref, NULL), PF_OK);
    int done[N] = {0};
    uint32_t runs = 0, ndone = 0;
    while (ndone < N) {
        assert_true(++runs < 5000);
        assert_int_equal(pf_batch_run(b, &budget), PF_OK);
        for (uint32_t i = 0; i < N; i++) {
            if (done[i]) continue;
            pf_batch_result r, rr;
            assert_int_equal(pf_batch_get(b, idb[i], &r), PF_OK);
            if (r.status == PF_IN_PROGRESS) continue;
            assert_int_equal(pf_batch_get(ref, idr[i], &rr), PF_OK);
            assert_int_equal(r.status, rr.status);
            assert_memory_equal(&r.stats.cost, &rr.stats.cost, sizeof r.stats.cost);
            assert_int_equal(r.path_len, rr.path_len);
            if (r.path_len) assert_memory_equal(r.path, rr.path, r.path_len * sizeof *r.path);
            done[i] = 1;
            ndone++;
        }
        assert_int_equal(pf_batch_reset(b), PF_OK); /* finished ids expire, pending ones stay */
    }
    pf_batch_result r;
    assert_int_equal(pf_batch_get(b, idb[0], &r), PF_EXPIRED_ID);
    pf_batch_stats st = pf_batch_get_stats(b);
    assert_int_equal(st.pending, 0);
    if (budget.max_expansions) {
        assert_true(runs > 1);
        if (slots != UINT32_MAX) assert_true(st.suspended > 0);
    }
    pf_batch_destroy(b);
    pf_batch_destroy(ref);
    pf_map_destroy(m);
}

static void test_budget_expansions(void **state)
{
    (void)state;
    budget_case((pf_batch_budget){.max_expansions = 700}, 0);
    budget_case((pf_batch_budget){.max_expansions = 700}, 1); /* one spare: others restart */
}

static void test_budget_time(void **state)
{
    (void)state;
    budget_case((pf_batch_budget){.max_us = 300}, 0);
    /* spent before any worker claims: each run still grants one chunk, and the batch converges */
    budget_case((pf_batch_budget){.max_us = 1}, 0);
    budget_case((pf_batch_budget){.max_us = 1}, 1);
    /* four slots on two workers: the fair round's searches are capped at a share of the run and
     * those stopped there go on after the jobs, on whichever worker ends one (account.c, AFTER THE
     * JOBS), with a time budget alone and with an expansion budget beside it */
    budget_case((pf_batch_budget){.max_us = 200}, 4);
    budget_case((pf_batch_budget){.max_us = 300, .max_expansions = 900}, 4);
}

static void test_lifecycle(void **state)
{
    (void)state;
    pf_map *m = make_grid(30, 30, 0, 0, PF_MOVES_8_NO_CUT, 5);
    pf_batch *b = (pf_batch *)1;
    assert_int_equal(pf_batch_create(NULL, NULL, &b), PF_INVALID_ARGUMENT);
    assert_null(b);
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 1, .arena_bytes = 16}, &b), PF_OK);
    assert_int_equal(pf_batch_job_count(b), 0);
    assert_int_equal(pf_batch_run_job(b, 0, 0), PF_NOT_PREPARED);
    assert_int_equal(pf_batch_finish(b), PF_NOT_PREPARED);
    pf_batch_result r;
    assert_int_equal(pf_batch_get(b, (pf_query_id){0}, &r), PF_EXPIRED_ID);
    assert_int_equal(pf_batch_cancel(b, (pf_query_id){0}), PF_EXPIRED_ID);
    /* frames: a tiny arena grows in the first frame and keeps its size after the reset */
    for (int frame = 0; frame < 3; frame++) {
        pf_query_id id[20];
        for (uint32_t i = 0; i < 20; i++)
            assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = i, .goal = 899 - i}, &id[i]), PF_OK);
        assert_int_equal(pf_batch_prepare(b, NULL), PF_OK);
        /* each misuse has its own status */
        assert_int_equal(pf_batch_prepare(b, NULL), PF_BATCH_BUSY);
        assert_int_equal(pf_batch_submit(b, &(pf_batch_query){0}, NULL), PF_BATCH_BUSY);
        assert_int_equal(pf_batch_cancel(b, id[0]), PF_BATCH_BUSY);
        assert_int_equal(pf_batch_get(b, id[0], &r), PF_BATCH_BUSY);
        assert_int_equal(pf_batch_reset(b), PF_BATCH_BUSY);
        assert_int_equal(pf_batch_reserve(b, &(pf_batch_reserve_desc){.queries = 8}), PF_BATCH_BUSY);
        uint32_t nj = pf_batch_job_count(b);
        assert_int_equal(nj, 20);
        assert_int_equal(pf_batch_run_job(b, nj, 0), PF_BAD_JOB);
        for (uint32_t j = nj; j-- > 0;) assert_int_equal(pf_batch_run_job(b, j, 0), PF_OK);
        assert_int_equal(pf_batch_run_job(b, 0, 0), PF_JOB_ALREADY_RUN);
        assert_int_equal(pf_batch_run_job(b, 0, 1), PF_BAD_WORKER);
        assert_int_equal(pf_batch_finish(b), PF_OK);
        for (uint32_t i = 0; i < 20; i++) {
            assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
            assert_int_equal(r.status, PF_OK);
            assert_int_equal(r.path[0], i);
            assert_int_equal(r.path[r.path_len - 1], 899 - i);
        }
        size_t mem = pf_batch_mem_size(b);
        assert_int_equal(pf_batch_reset(b), PF_OK);
        assert_int_equal(pf_batch_get(b, id[0], &r), PF_EXPIRED_ID);
        assert_int_equal(pf_batch_cancel(b, id[0]), PF_EXPIRED_ID);
        if (frame > 0) assert_true(pf_batch_mem_size(b) <= mem);
    }
    pf_batch_destroy(b);
    pf_map_destroy(m);
}

/* An open cell of the 20x20 box at (x0, y0). */
static uint32_t box_cell(const pf_map *m, int32_t x0, int32_t y0, uint64_t *s)
{
    for (;;) {
        int32_t x = x0 + (int32_t)(lcg_next(s) % 20), y = y0 + (int32_t)(lcg_next(s) % 20);
        if (pf_grid_class(m, x, y)) return pf_grid_node(m, x, y);
    }
}

/* The group move on the real 2000x2000 map, sampled: costs of 12 of the units equal
 * separate A*; the full 200-unit gain is measured by bench_group. */
/* Squads with options (sizes, JPS, JPS+, AUTO, Dijkstra, waypoints) are grouped whenever their
 * options match, each unit's cost the optimal one for its options (a single pf_search's). */
static void test_squads_with_options(void **state)
{
    (void)state;
    static const pf_moves MV[] = {PF_MOVES_8_NO_CUT, PF_MOVES_8_CUT, PF_MOVES_4};
    for (int mi = 0; mi < 3; mi++)
        for (int weighted = 0; weighted < 2; weighted++) {
            pf_map *m = make_grid(120, 90, 6, weighted, MV[mi], 40u + (uint64_t)mi);
            pf_ctx *ctx;
            assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
            const pf_search_desc opts[] = {
                {.unit_size = 2}, {.unit_size = 3, .algo = PF_ALGO_DIJKSTRA}, {.algo = PF_ALGO_JPS},
                {.algo = PF_ALGO_JPS_PLUS, .unit_size = 2}, {.algo = PF_ALGO_AUTO}, {.waypoints = 1, .unit_size = 2},
            };
            enum { NOPT = sizeof opts / sizeof opts[0], N = 8 };
            pf_batch *b;
            assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 2}, &b), PF_OK);
            uint64_t s = 77;
            pf_query_id id[NOPT][N];
            pf_batch_query q[NOPT][N];
            for (int o = 0; o < NOPT; o++) {
                uint32_t goal;
                do goal = box_cell(m, 90, 60, &s);
                while (pf_grid_clearance(m, pf_grid_point(m, goal).x, pf_grid_point(m, goal).y) < 3);
                for (int i = 0; i < N; i++) {
                    uint32_t st;
                    do st = box_cell(m, 5, 5, &s);
                    while (pf_grid_clearance(m, pf_grid_point(m, st).x, pf_grid_point(m, st).y) < 3);
                    q[o][i] = (pf_batch_query){.start = st, .goal = goal, .search = opts[o], .tag = (uint64_t)(o * N + i)};
                    assert_int_equal(pf_batch_submit(b, &q[o][i], &id[o][i]), PF_OK);
                }
            }
            assert_int_equal(pf_batch_run(b, NULL), PF_OK);
            uint32_t grouped = 0;
            for (int o = 0; o < NOPT; o++)
                for (int i = 0; i < N; i++) {
                    pf_batch_result r;
                    assert_int_equal(pf_batch_get(b, id[o][i], &r), PF_OK);
                    pf_stats st;
                    pf_status ss = pf_search(ctx, q[o][i].start, q[o][i].goal, &opts[o], NULL, &st);
                    assert_int_equal(r.status, ss);
                    grouped += (r.flags & PF_BATCH_RESULT_GROUPED) != 0;
                    if (ss != PF_OK) continue;
                    if (fabs(r.stats.cost - st.cost) > 1e-9 * (1.0 + st.cost))
                        fail_msg("moves %d weighted %d option %d unit %d: group %.9f, search %.9f", (int)MV[mi], weighted, o,
                                 i, r.stats.cost, st.cost);
                    if (opts[o].waypoints) assert_true(r.path_len <= st.path_len + 8u && r.path_len >= 2);
                }
            assert_int_equal(grouped, NOPT * N); /* every squad: one group each */
            assert_int_equal(pf_batch_get_stats(b).groups, NOPT);
            pf_batch_destroy(b);
            pf_ctx_destroy(ctx);
            pf_map_destroy(m);
        }
}

static void test_group_2000(void **state)
{
    (void)state;
    const char *path = PF_SHARED_DATA "/grids/random-2000-20.map";
    SKIP_IF_ABSENT(path);
    pf_map *m = grid_load(path);
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 2}, &b), PF_OK);
    uint64_t s = 2024;
    uint32_t goal = box_cell(m, 1300, 1000, &s); /* 1000 cells east of the units */
    enum { N = 200 };
    uint32_t starts[N];
    pf_query_id id[N];
    for (uint32_t i = 0; i < N; i++) {
        uint32_t node = box_cell(m, 300, 1000, &s); /* a 20x20 area */
        starts[i] = node;
        assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = node, .goal = goal, .tag = i}, &id[i]), PF_OK);
    }
    assert_int_equal(pf_batch_run(b, NULL), PF_OK);
    pf_batch_stats bs = pf_batch_get_stats(b);
    assert_int_equal(bs.groups, 1);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    uint64_t separate = 0;
    for (uint32_t i = 0; i < N; i += N / 12) {
        pf_batch_result r;
        pf_stats st;
        assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
        assert_int_equal(pf_search(ctx, starts[i], goal, NULL, NULL, &st), PF_OK);
        separate += st.expanded;
        assert_int_equal(r.status, PF_OK);
        assert_true(fabs(r.stats.cost - st.cost) < 1e-9 * st.cost);
    }
    /* 12 separate searches already cost more than the whole group (of 200) */
    assert_true(bs.expanded < separate);
    pf_ctx_destroy(ctx);
    pf_batch_destroy(b);
    pf_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_results_match_search), cmocka_unit_test(test_bad_input_isolated),
        cmocka_unit_test(test_jps),
        cmocka_unit_test(test_dedup),                cmocka_unit_test(test_submission_order_free),
        cmocka_unit_test(test_no_dedup_order_by_tag),
        cmocka_unit_test(test_group_8),
        cmocka_unit_test(test_group_8cut),           cmocka_unit_test(test_group_4),
        cmocka_unit_test(test_squads_with_options),
        cmocka_unit_test(test_budget_expansions),    cmocka_unit_test(test_budget_time),
        cmocka_unit_test(test_lifecycle),            cmocka_unit_test(test_group_2000),
    };
    return RUN_TESTS(tests);
}
