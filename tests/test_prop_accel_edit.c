/* test_prop_accel_edit.c - an accelerator made with PF_ACCEL_EDITS_REBUILD follows its map's edits:
 * random grids of every terrain class take random edits (walls, openings, other classes, 4x4
 * buildings), then random queries by PF_ALGO_AUTO on a context and through a batch are checked
 * against the Dijkstra oracle, and must have been answered by the accelerator (never a silent
 * fallback). Also: the default still refuses an edited map (PF_DETAIL_ACCEL_STALE), an edit that
 * makes the map weighted leaves a following accelerator stale and exact, and a loaded one follows.
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
#include "maps.h"
#include "testutil.h"
#include "random_grid.h"
#include "oracle.h"

/* A random edit: a 4x4 building, a wall segment, an opening, or a patch of another class. */
static pf_grid_edit random_edit(uint64_t *rs, uint32_t w, uint32_t h, int classes)
{
    pf_grid_edit e = {0};
    uint32_t kind = rng_below(rs, 4);
    uint32_t ew = kind == 0 ? 4 : 1 + rng_below(rs, 6), eh = kind == 0 ? 4 : kind == 1 ? 1 : 1 + rng_below(rs, 6);
    if (kind == 1 && rng_below(rs, 2)) { /* vertical wall */
        eh = ew;
        ew = 1;
    }
    if (ew > w) ew = w;
    if (eh > h) eh = h;
    e.rect = (pf_rect){(int32_t)rng_below(rs, w - ew + 1), (int32_t)rng_below(rs, h - eh + 1), ew, eh};
    e.cls = kind <= 1 ? 0 : kind == 2 ? 1 : (uint8_t)(1 + rng_below(rs, (uint32_t)classes));
    return e;
}

typedef struct tally {
    int  failures;
    long queries;
} tally;

/* One grid: rounds of edits, each followed by queries on a context and through a batch. */
static void check_grid(uint64_t seed, void *user)
{
    tally *t = user;
    uint64_t rs = seed * UINT64_C(0x9E3779B97F4A7C15) + 11;
    uint32_t w = 8 + rng_below(&rs, 57), h = 8 + rng_below(&rs, 57);
    static const double dens[] = {0.0, 0.1, 0.2, 0.3, 0.4};
    double density = dens[rng_below(&rs, 5)];
    int classes = 1 + (int)rng_below(&rs, 3);
    uint8_t *cells = cells_random(&rs, w, h, density, classes);
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = cells}, &m), PF_OK);
    free(cells);
    pf_accel *acc;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1, .threads = 1, .edits = PF_ACCEL_EDITS_REBUILD},
                                     &acc),
                     PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 1, .accel = acc}, &b), PF_OK);
    uint32_t cap = w * h + 1, *full = malloc(cap * sizeof *full);
    const pf_search_desc auto_d = {.algo = PF_ALGO_AUTO};
    for (int round = 0; round < 4 && t->failures < 5; round++) {
        uint32_t ne = 1 + rng_below(&rs, 3);
        pf_grid_edit ed[3];
        for (uint32_t i = 0; i < ne; i++) ed[i] = random_edit(&rs, w, h, classes);
        assert_int_equal(pf_grid_apply_edits(m, ed, ne, NULL), PF_OK);
        enum { NQ = 12 };
        uint32_t qs[NQ], qg[NQ];
        pf_query_id ids[NQ];
        double want[NQ];
        uint32_t nq = 0;
        for (; nq < NQ; nq++) {
            qs[nq] = some_open(&rs, m);
            qg[nq] = some_open(&rs, m);
            if (qs[nq] == PF_NODE_NONE || qg[nq] == PF_NODE_NONE) break;
            want[nq] = oracle_cost(m, qs[nq], qg[nq]);
            assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = qs[nq], .goal = qg[nq], .search = auto_d}, &ids[nq]),
                             PF_OK);
        }
        assert_int_equal(pf_batch_run(b, NULL), PF_OK);
        for (uint32_t q = 0; q < nq; q++) {
            pf_path p = {.nodes = full, .capacity = cap};
            pf_stats st;
            pf_status r = pf_search(c, qs[q], qg[q], &auto_d, &p, &st);
            pf_batch_result br;
            assert_int_equal(pf_batch_get(b, ids[q], &br), PF_OK);
            t->queries += 2;
            int ok, bok;
            if (isinf(want[q])) {
                ok = r == PF_NO_PATH;
                bok = br.status == PF_NO_PATH;
            } else {
                /* answered by the accelerator (a start equal to the goal is answered before AUTO picks) */
                int by_acc = (st.detail & PF_DETAIL_ACCEL) || qs[q] == qg[q];
                int bby_acc = (br.stats.detail & PF_DETAIL_ACCEL) || qs[q] == qg[q];
                ok = r == PF_OK && by_acc && !(st.detail & PF_DETAIL_ACCEL_STALE) && close_to(st.cost, want[q]) &&
                     p.len >= 1 && full[0] == qs[q] && full[p.len - 1] == qg[q] &&
                     close_to(oracle_path_cost(m, full, p.len), want[q]);
                bok = br.status == PF_OK && bby_acc && close_to(br.stats.cost, want[q]) && br.path_len >= 1 &&
                      close_to(oracle_path_cost(m, br.path, br.path_len), want[q]);
            }
            if (!ok || !bok) {
                print_message("accel edits: %ux%u density %.2f classes %d round %d: %u -> %u: ctx %s cost %.9f detail %u, "
                              "batch %s cost %.9f detail %u, oracle %.9f\n  seed %llu (PF_TEST_SEED)\n",
                              w, h, density, classes, round, qs[q], qg[q], pf_status_name(r), st.cost, st.detail,
                              pf_status_name(br.status), br.stats.cost, br.stats.detail, want[q],
                              (unsigned long long)seed);
                t->failures++;
            }
        }
        assert_int_equal(pf_batch_reset(b), PF_OK);
    }
    free(full);
    pf_batch_destroy(b);
    pf_ctx_destroy(c);
    pf_accel_destroy(acc);
    pf_map_destroy(m);
}

static void test_random_edits(void **state)
{
    (void)state;
    tally t = {0};
    each_seed(UINT64_C(0xED17), (uint32_t)(150 * env_scale()), check_grid, &t, &t.failures);
    print_message("%ld queries after edits, %d failures\n", t.queries, t.failures);
    assert_int_equal(t.failures, 0);
}

/* A 40x40 open map with a wall across it but for a gap at x = 35; a query from left to right. */
static void query_after(pf_map *m, pf_ctx *c, uint32_t want_detail, uint32_t refuse_detail)
{
    uint32_t s = pf_grid_node(m, 2, 2), g = pf_grid_node(m, 3, 37);
    pf_stats st;
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    assert_true(close_to(st.cost, oracle_cost(m, s, g)));
    assert_true((st.detail & want_detail) == want_detail);
    assert_int_equal(st.detail & refuse_detail, 0);
}

/* The default is unchanged: stale after an edit, said in the stats; following ones are not. */
static void test_default_stale_following_not(void **state)
{
    (void)state;
    pf_map *m = grid_walled_40();
    pf_accel *stale, *follow;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1}, &stale), PF_OK);
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1, .edits = PF_ACCEL_EDITS_REBUILD}, &follow),
                     PF_OK);
    pf_ctx *c1, *c2;
    assert_int_equal(pf_ctx_create(m, NULL, &c1), PF_OK);
    assert_int_equal(pf_ctx_create(m, NULL, &c2), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c1, stale), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c2, follow), PF_OK);
    /* the gap moves from x = 35 to x = 5: the old hierarchy's path through 35 is no longer there */
    pf_grid_edit ed[2] = {{.rect = {35, 20, 1, 1}, .cls = 0}, {.rect = {5, 20, 1, 1}, .cls = 1}};
    assert_int_equal(pf_grid_apply_edits(m, ed, 2, NULL), PF_OK);
    query_after(m, c1, PF_DETAIL_ACCEL_STALE, PF_DETAIL_ACCEL);
    query_after(m, c2, PF_DETAIL_ACCEL, PF_DETAIL_ACCEL_STALE);
    assert_int_equal(pf_ctx_use_accel(c1, stale), PF_WRONG_MAP);
    pf_accel *bad = NULL;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.edits = (pf_accel_edits)7}, &bad), PF_INVALID_ARGUMENT);
    assert_null(bad);
    assert_int_equal(pf_ctx_use_accel(c1, follow), PF_OK); /* follows: made for the map as it is */
    pf_ctx_destroy(c1);
    pf_ctx_destroy(c2);
    pf_accel_destroy(stale);
    pf_accel_destroy(follow);
    pf_map_destroy(m);
}

/* An edit that makes the map weighted: no accelerator supports it, so the following one stays
 * stale (said) and answers stay exact; an edit back to unweighted rebuilds it. */
static void test_weighted_edit_goes_stale(void **state)
{
    (void)state;
    pf_map *m = grid_walled_40();
    pf_accel *acc;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1, .edits = PF_ACCEL_EDITS_REBUILD}, &acc), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
    pf_grid_edit heavy = {.rect = {10, 10, 3, 3}, .what = PF_EDIT_COST, .cost = 3.0f};
    assert_int_equal(pf_grid_apply_edits(m, &heavy, 1, NULL), PF_OK);
    query_after(m, c, PF_DETAIL_ACCEL_STALE, PF_DETAIL_ACCEL);
    heavy.cost = 1.0f;
    assert_int_equal(pf_grid_apply_edits(m, &heavy, 1, NULL), PF_OK);
    query_after(m, c, PF_DETAIL_ACCEL, PF_DETAIL_ACCEL_STALE);
    pf_ctx_destroy(c);
    pf_accel_destroy(acc);
    pf_map_destroy(m);
}

/* A baked accelerator loaded with PF_ACCEL_EDITS_REBUILD follows too, and a destroyed one leaves
 * the map's users (later edits do not reach it: ASan would see a use after free). */
static void test_loaded_follows(void **state)
{
    (void)state;
    pf_map *m = grid_walled_40();
    pf_accel *acc;
    assert_int_equal(pf_accel_create(m, NULL, &acc), PF_OK);
    size_t n = pf_accel_file_size(acc);
    void *buf = malloc(n);
    assert_int_equal(pf_accel_save_mem(acc, buf, n, NULL), PF_OK);
    pf_accel_destroy(acc);
    pf_accel *ld;
    assert_int_equal(pf_accel_load_mem(buf, n, "mem", m, &(pf_accel_desc){.short_query = 1, .edits = PF_ACCEL_EDITS_REBUILD},
                                       &ld, NULL),
                     PF_OK);
    free(buf);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, ld), PF_OK);
    pf_grid_edit ed[2] = {{.rect = {35, 20, 1, 1}, .cls = 0}, {.rect = {5, 20, 1, 1}, .cls = 1}};
    assert_int_equal(pf_grid_apply_edits(m, ed, 2, NULL), PF_OK);
    query_after(m, c, PF_DETAIL_ACCEL, PF_DETAIL_ACCEL_STALE);
    pf_ctx_destroy(c);
    pf_accel_destroy(ld);
    assert_int_equal(pf_grid_apply_edits(m, ed, 1, NULL), PF_OK);
    pf_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_random_edits), cmocka_unit_test(test_default_stale_following_not),
                                       cmocka_unit_test(test_weighted_edit_goes_stale), cmocka_unit_test(test_loaded_follows)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
