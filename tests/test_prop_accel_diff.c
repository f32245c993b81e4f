/* test_prop_accel_diff.c - an accelerator made with PF_ACCEL_EDITS_CHECK follows its map's edits by
 * the diff (core/src/accel/accel_diff.c): random grids of every terrain class (blocked, ground,
 * water, trees) take random edits (buildings, walls, openings that free cells blocked at its build,
 * class changes, per-cell footprints, and edits that put its build's cells back), then random
 * queries by PF_ALGO_AUTO on a context and through two batches that follow the map (1 and 2
 * workers) are checked against the Dijkstra oracle: the cost exact, the path legal on the edited
 * map, every answer by the accelerator or said to be JPS's (PF_DETAIL_ACCEL_EDITED), never stale,
 * and the two batches' answers identical (status, cost, detail, path). The counts of proven and
 * refused answers must both be positive, so that both sides of the proof are exercised.
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

/* Obstacles at `density`, then rectangles of water (2) and trees (3) painted over open cells. */
static uint8_t *make_cells(uint64_t *rs, uint32_t w, uint32_t h, double density)
{
    uint8_t *c = malloc((size_t)w * h);
    for (uint32_t i = 0; i < w * h; i++) c[i] = rng_unit(rs) < density ? 0 : 1;
    for (int r = 0; r < 4; r++) paint_class_rect(rs, c, w, h, (uint8_t)(2 + (r & 1)));
    return c;
}

/* A random edit; `foot` receives per-cell classes where the edit is a footprint. Kinds: a 4x4
 * building, a wall, an opening of ground, a patch of any class, the build's own cells put back
 * (a footprint from `prep`), a footprint of random classes. */
static pf_grid_edit random_edit(uint64_t *rs, uint32_t w, uint32_t h, const uint8_t *prep, uint8_t *foot)
{
    pf_grid_edit e = {0};
    uint32_t kind = rng_below(rs, 6);
    uint32_t ew = kind == 0 ? 4 : 1 + rng_below(rs, 7), eh = kind == 0 ? 4 : kind == 1 ? 1 : 1 + rng_below(rs, 7);
    if (kind == 1 && rng_below(rs, 2)) { /* vertical wall */
        eh = ew;
        ew = 1;
    }
    if (kind == 4) { /* a larger area put back: it undoes several edits at once */
        ew = 4 + rng_below(rs, 12);
        eh = 4 + rng_below(rs, 12);
    }
    if (ew > w) ew = w;
    if (eh > h) eh = h;
    e.rect = (pf_rect){(int32_t)rng_below(rs, w - ew + 1), (int32_t)rng_below(rs, h - eh + 1), ew, eh};
    e.what = PF_EDIT_CLASS;
    e.cls = kind <= 1 ? 0 : kind == 2 ? 1 : (uint8_t)rng_below(rs, 4);
    if (kind >= 4) {
        for (uint32_t y = 0; y < eh; y++)
            for (uint32_t x = 0; x < ew; x++)
                foot[y * ew + x] = kind == 4 ? prep[((uint32_t)e.rect.y + y) * w + (uint32_t)e.rect.x + x]
                                             : (uint8_t)(rng_below(rs, 3) ? 0 : rng_below(rs, 4));
        e.classes = foot;
    }
    return e;
}

typedef struct tally {
    int  failures;
    long queries, proven, refused, edited_cells;
} tally;

static int path_ok(const pf_map *m, const uint32_t *p, uint32_t len, uint32_t s, uint32_t g, double want)
{
    return len >= 1 && p[0] == s && p[len - 1] == g && close_to(oracle_path_cost(m, p, len), want);
}

enum { NQ = 24 };

/* One grid: rounds of edits, each followed by NQ queries on a context and through two batches. */
static void check_grid(uint64_t seed, void *user)
{
    tally *t = user;
    uint64_t rs = seed * UINT64_C(0x9E3779B97F4A7C15) + 29;
    uint32_t w = 8 + rng_below(&rs, 49), h = 8 + rng_below(&rs, 49);
    static const double dens[] = {0.0, 0.1, 0.2, 0.3, 0.4};
    double density = dens[rng_below(&rs, 5)];
    uint8_t *prep = make_cells(&rs, w, h, density);
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = prep}, &m), PF_OK);
    pf_accel *acc;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1, .threads = 1, .edits = PF_ACCEL_EDITS_CHECK},
                                     &acc),
                     PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
    pf_batch *b[2];
    for (uint32_t k = 0; k < 2; k++)
        assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = k + 1, .accel = acc}, &b[k]), PF_OK);
    uint32_t cap = w * h + 1, *full = malloc(cap * sizeof *full);
    uint8_t *foot = malloc((size_t)w * h);
    const pf_search_desc auto_d = {.algo = PF_ALGO_AUTO};
    for (int round = 0; round < 6 && t->failures < 5; round++) {
        uint32_t ne = 1 + rng_below(&rs, 3);
        for (uint32_t i = 0; i < ne; i++) {
            pf_grid_edit ed = random_edit(&rs, w, h, prep, foot);
            assert_int_equal(pf_grid_apply_edits(m, &ed, 1, NULL), PF_OK);
        }
        /* D is exactly the cells that differ from the build's */
        uint32_t differ = 0;
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) differ += pf_grid_class(m, (int32_t)x, (int32_t)y) != prep[y * w + x];
        assert_int_equal(pf_accel_get_info(acc).edited_cells, differ);
        t->edited_cells += differ;
        uint32_t qs[NQ], qg[NQ];
        pf_query_id ids[2][NQ];
        double want[NQ];
        uint32_t nq = 0;
        for (; nq < NQ; nq++) {
            qs[nq] = some_open(&rs, m);
            qg[nq] = some_open(&rs, m);
            if (qs[nq] == PF_NODE_NONE || qg[nq] == PF_NODE_NONE) break;
            /* goals of the start's class mostly: different classes never connect */
            if (rng_below(&rs, 4)) {
                for (int k = 0; k < 40; k++) {
                    uint32_t g = some_open(&rs, m);
                    if (g == PF_NODE_NONE) break;
                    if (pf_grid_class(m, (int32_t)(g % w), (int32_t)(g / w)) ==
                        pf_grid_class(m, (int32_t)(qs[nq] % w), (int32_t)(qs[nq] / w))) {
                        qg[nq] = g;
                        break;
                    }
                }
            }
            want[nq] = oracle_cost(m, qs[nq], qg[nq]);
            for (uint32_t k = 0; k < 2; k++)
                assert_int_equal(pf_batch_submit(b[k], &(pf_batch_query){.start = qs[nq], .goal = qg[nq], .search = auto_d},
                                                 &ids[k][nq]),
                                 PF_OK);
        }
        for (uint32_t k = 0; k < 2; k++) assert_int_equal(pf_batch_run(b[k], NULL), PF_OK);
        for (uint32_t q = 0; q < nq; q++) {
            pf_path p = {.nodes = full, .capacity = cap};
            pf_stats st;
            pf_status r = pf_search(c, qs[q], qg[q], &auto_d, &p, &st);
            pf_batch_result br[2];
            for (uint32_t k = 0; k < 2; k++) assert_int_equal(pf_batch_get(b[k], ids[k][q], &br[k]), PF_OK);
            t->queries += 3;
            int ok, bok, same;
            if (isinf(want[q])) {
                ok = r == PF_NO_PATH;
                bok = br[0].status == PF_NO_PATH && br[1].status == PF_NO_PATH;
            } else {
                /* by the accelerator, or said to be JPS's (a start equal to the goal is answered
                 * before AUTO picks); never stale, never silent */
                int said = (st.detail & (PF_DETAIL_ACCEL | PF_DETAIL_ACCEL_EDITED)) || qs[q] == qg[q];
                int bsaid = (br[0].stats.detail & (PF_DETAIL_ACCEL | PF_DETAIL_ACCEL_EDITED)) || qs[q] == qg[q];
                ok = r == PF_OK && said && !(st.detail & PF_DETAIL_ACCEL_STALE) && close_to(st.cost, want[q]) &&
                     path_ok(m, full, p.len, qs[q], qg[q], want[q]);
                bok = br[0].status == PF_OK && bsaid && close_to(br[0].stats.cost, want[q]) &&
                      path_ok(m, br[0].path, br[0].path_len, qs[q], qg[q], want[q]);
                t->proven += (st.detail & PF_DETAIL_ACCEL) != 0;
                t->refused += (st.detail & PF_DETAIL_ACCEL_EDITED) != 0;
                /* exactly one of the two */
                ok = ok && !((st.detail & PF_DETAIL_ACCEL) && (st.detail & PF_DETAIL_ACCEL_EDITED));
            }
            /* 1 and 2 workers: the same answers */
            same = br[0].status == br[1].status && br[0].stats.cost == br[1].stats.cost &&
                   br[0].stats.detail == br[1].stats.detail && br[0].path_len == br[1].path_len &&
                   (!br[0].path_len || memcmp(br[0].path, br[1].path, br[0].path_len * sizeof *br[0].path) == 0);
            if (!ok || !bok || !same) {
                print_message("accel diff: %ux%u density %.2f round %d: %u -> %u: ctx %s cost %.9f detail %u, "
                              "batch %s cost %.9f detail %u (2 workers: %s %.9f %u), oracle %.9f\n  seed %llu "
                              "(PF_TEST_SEED)\n",
                              w, h, density, round, qs[q], qg[q], pf_status_name(r), st.cost, st.detail,
                              pf_status_name(br[0].status), br[0].stats.cost, br[0].stats.detail,
                              pf_status_name(br[1].status), br[1].stats.cost, br[1].stats.detail, want[q],
                              (unsigned long long)seed);
                t->failures++;
            }
        }
        for (uint32_t k = 0; k < 2; k++) assert_int_equal(pf_batch_reset(b[k]), PF_OK);
    }
    free(foot);
    free(full);
    free(prep);
    for (uint32_t k = 0; k < 2; k++) pf_batch_destroy(b[k]);
    pf_ctx_destroy(c);
    pf_accel_destroy(acc);
    pf_map_destroy(m);
}

static void test_random_edits(void **state)
{
    (void)state;
    tally t = {0};
    const int drawn = each_seed(UINT64_C(0xD1FF), (uint32_t)(120 * env_scale()), check_grid, &t, &t.failures);
    print_message("%ld queries after edits (%ld edited cells over the rounds): %ld proven by the accelerator, "
                  "%ld refused (JPS), %d failures\n",
                  t.queries, t.edited_cells, t.proven, t.refused, t.failures);
    assert_int_equal(t.failures, 0);
    if (drawn) {
        assert_true(t.proven > 0);
        assert_true(t.refused > 0);
    }
}

/* A 40x40 open map with a wall across it but for a gap at x = 35. */
static pf_stats query(pf_map *m, pf_ctx *c, int32_t sx, int32_t sy, int32_t gx, int32_t gy)
{
    uint32_t s = pf_grid_node(m, sx, sy), g = pf_grid_node(m, gx, gy);
    pf_stats st;
    assert_int_equal(pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    assert_true(close_to(st.cost, oracle_cost(m, s, g)));
    return st;
}

/* The cases by hand: an edit away from the way keeps the accelerator's answer; one on its path, or
 * a gap opened near the way (a better cell), hands it to JPS, said; putting the cells back
 * empties D, and the accelerator answers everything again. */
static void test_cases(void **state)
{
    (void)state;
    pf_map *m = grid_walled_40();
    pf_accel *acc;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1, .edits = PF_ACCEL_EDITS_CHECK}, &acc), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
    /* a building far from the way: proven */
    pf_grid_edit far = {.rect = {2, 30, 4, 4}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &far, 1, NULL), PF_OK);
    assert_int_equal(pf_accel_get_info(acc).edited_cells, 16);
    assert_int_equal(query(m, c, 30, 2, 37, 37).detail, PF_DETAIL_ACCEL);
    /* a new gap at x = 5: a query from (2,2) to (3,37) goes through it now; the old answer (through
     * x = 35) is refused by the bound, and JPS answers */
    pf_grid_edit gap = {.rect = {5, 20, 1, 1}, .cls = 1};
    assert_int_equal(pf_grid_apply_edits(m, &gap, 1, NULL), PF_OK);
    assert_int_equal(query(m, c, 2, 2, 3, 37).detail, PF_DETAIL_ACCEL_EDITED);
    /* the gap is far from a query along the right edge: proven */
    assert_int_equal(query(m, c, 38, 2, 38, 37).detail, PF_DETAIL_ACCEL);
    /* the old gap closed: the path through it crosses D */
    pf_grid_edit shut = {.rect = {35, 20, 1, 1}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &shut, 1, NULL), PF_OK);
    assert_int_equal(query(m, c, 38, 2, 38, 37).detail, PF_DETAIL_ACCEL_EDITED);
    /* water across a straight way: the canonical path crosses D (cells worse for ground) */
    pf_grid_edit water = {.rect = {10, 5, 3, 3}, .cls = 2};
    assert_int_equal(pf_grid_apply_edits(m, &water, 1, NULL), PF_OK);
    assert_int_equal(query(m, c, 8, 6, 30, 6).detail, PF_DETAIL_ACCEL_EDITED);
    /* a start inside D: a wall cell opened */
    pf_grid_edit open = {.rect = {20, 20, 1, 1}, .cls = 1};
    assert_int_equal(pf_grid_apply_edits(m, &open, 1, NULL), PF_OK);
    assert_int_equal(query(m, c, 20, 20, 20, 37).detail, PF_DETAIL_ACCEL_EDITED);
    /* everything put back: D empty, the accelerator answers all again */
    pf_grid_edit back[5] = {{.rect = {2, 30, 4, 4}, .cls = 1},
                            {.rect = {5, 20, 1, 1}, .cls = 0},
                            {.rect = {35, 20, 1, 1}, .cls = 1},
                            {.rect = {10, 5, 3, 3}, .cls = 1},
                            {.rect = {20, 20, 1, 1}, .cls = 0}};
    assert_int_equal(pf_grid_apply_edits(m, back, 5, NULL), PF_OK);
    assert_int_equal(pf_accel_get_info(acc).edited_cells, 0);
    assert_int_equal(query(m, c, 2, 2, 3, 37).detail, PF_DETAIL_ACCEL);
    assert_true(pf_accel_current(acc, m));
    /* an edit that makes the map weighted: stale, said, exact */
    pf_grid_edit heavy = {.rect = {10, 10, 3, 3}, .what = PF_EDIT_COST, .cost = 3.0f};
    assert_int_equal(pf_grid_apply_edits(m, &heavy, 1, NULL), PF_OK);
    assert_int_equal(query(m, c, 2, 2, 3, 37).detail & (PF_DETAIL_ACCEL | PF_DETAIL_ACCEL_STALE), PF_DETAIL_ACCEL_STALE);
    heavy.cost = 1.0f;
    assert_int_equal(pf_grid_apply_edits(m, &heavy, 1, NULL), PF_OK);
    assert_int_equal(query(m, c, 2, 2, 3, 37).detail, PF_DETAIL_ACCEL);
    pf_ctx_destroy(c);
    pf_accel_destroy(acc);
    pf_map_destroy(m);
}

/* A building on the accelerator's path where the same steps in another order go beside it: the
 * answer is moved there (pf__accel_diff_reroute) and stays the accelerator's, with the same cost, on
 * a legal path of the edited map; a building across a straight way (one order only) is still
 * refused. Both ends of a diagonal way and the middle of it are tried. */
static void test_moved_beside(void **state)
{
    (void)state;
    pf_map *m = grid_walled_40();
    pf_accel *acc;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1, .edits = PF_ACCEL_EDITS_CHECK}, &acc), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
    const pf_search_desc ad = {.algo = PF_ALGO_AUTO};
    uint32_t path[128], before[128];
    const uint32_t s = pf_grid_node(m, 2, 2), g = pf_grid_node(m, 17, 12);
    for (uint32_t at = 2; at <= 10; at += 4) {
        pf_path p = {.nodes = before, .capacity = 128};
        pf_stats st;
        assert_int_equal(pf_search(c, s, g, &ad, &p, &st), PF_OK);
        assert_int_equal(st.detail, PF_DETAIL_ACCEL);
        const double cost = st.cost;
        /* a 2x2 building on the path's cell `at` steps from the start */
        const pf_point b = pf_grid_point(m, before[at]);
        pf_grid_edit put = {.rect = {b.x, b.y, 2, 2}, .cls = 0};
        assert_int_equal(pf_grid_apply_edits(m, &put, 1, NULL), PF_OK);
        p.nodes = path;
        assert_int_equal(pf_search(c, s, g, &ad, &p, &st), PF_OK);
        assert_int_equal(st.detail, PF_DETAIL_ACCEL);
        assert_true(close_to(st.cost, cost));
        assert_true(close_to(oracle_cost(m, s, g), cost));
        assert_true(path_ok(m, path, p.len, s, g, cost));
        for (uint32_t i = 0; i < p.len; i++) assert_int_not_equal(path[i], before[at]);
        put.cls = 1;
        assert_int_equal(pf_grid_apply_edits(m, &put, 1, NULL), PF_OK);
    }
    /* straight along y = 6: one order of its steps only */
    pf_grid_edit wall = {.rect = {12, 5, 2, 2}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &wall, 1, NULL), PF_OK);
    pf_stats st;
    assert_int_equal(pf_search(c, pf_grid_node(m, 4, 6), pf_grid_node(m, 30, 6), &ad, NULL, &st), PF_OK);
    assert_int_equal(st.detail, PF_DETAIL_ACCEL_EDITED);
    assert_true(close_to(st.cost, oracle_cost(m, pf_grid_node(m, 4, 6), pf_grid_node(m, 30, 6))));
    pf_ctx_destroy(c);
    pf_accel_destroy(acc);
    pf_map_destroy(m);
}

/* Around a block: from (2,10) to (10,2) on a 40x40 map with a block over x, y in 3..9, the two
 * shortest ways go round it, north then east or east then north, 16 straight steps each (its
 * corners cannot be cut). A building on the way taken moves the answer to the other: not an order
 * of two directions (no run of one diagonal and one straight step reaches round the block) but a
 * path that keeps to the quadrant, found over its box. The answer stays the accelerator's, with the
 * same cost, on a legal path; sliced by one unit a step it answers the same. */
static void test_moved_round_a_block(void **state)
{
    (void)state;
    uint8_t cells[40 * 40];
    memset(cells, 1, sizeof cells);
    for (uint32_t y = 3; y <= 9; y++)
        for (uint32_t x = 3; x <= 9; x++) cells[y * 40 + x] = 0;
    pf_map *m = grid_make(40, 40, PF_MOVES_DEFAULT, cells, NULL);
    pf_accel *acc;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1, .edits = PF_ACCEL_EDITS_CHECK}, &acc), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
    const pf_search_desc ad = {.algo = PF_ALGO_AUTO};
    const uint32_t s = pf_grid_node(m, 2, 10), g = pf_grid_node(m, 10, 2);
    uint32_t before[64], path[64], sliced[64];
    pf_path p = {.nodes = before, .capacity = 64};
    pf_stats st;
    assert_int_equal(pf_search(c, s, g, &ad, &p, &st), PF_OK);
    assert_int_equal(st.detail, PF_DETAIL_ACCEL);
    assert_true(close_to(st.cost, 16.0));
    /* a 1x1 building on the way, halfway: the other way round costs the same */
    const pf_point b = pf_grid_point(m, before[8]);
    pf_grid_edit put = {.rect = {b.x, b.y, 1, 1}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &put, 1, NULL), PF_OK);
    p.nodes = path;
    assert_int_equal(pf_search(c, s, g, &ad, &p, &st), PF_OK);
    assert_int_equal(st.detail, PF_DETAIL_ACCEL);
    assert_true(close_to(st.cost, 16.0));
    assert_true(close_to(oracle_cost(m, s, g), 16.0));
    assert_true(path_ok(m, path, p.len, s, g, 16.0));
    const uint32_t len = p.len;
    /* the same by steps of one unit */
    assert_int_equal(pf_search_begin(c, s, g, &ad), PF_IN_PROGRESS);
    pf_status r;
    uint32_t calls = 0;
    while ((r = pf_search_step(c, 1)) == PF_IN_PROGRESS) assert_true(++calls < 100000u);
    assert_int_equal(r, PF_OK);
    p = (pf_path){.nodes = sliced, .capacity = 64};
    assert_int_equal(pf_search_path(c, &p, &st), PF_OK);
    assert_int_equal(st.detail, PF_DETAIL_ACCEL);
    assert_int_equal(p.len, len);
    assert_memory_equal(sliced, path, len * sizeof *path);
    /* both ways shut: longer, JPS's, said */
    const pf_point o = pf_grid_point(m, path[8]);
    pf_grid_edit shut = {.rect = {o.x, o.y, 1, 1}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &shut, 1, NULL), PF_OK);
    assert_int_equal(pf_search(c, s, g, &ad, NULL, &st), PF_OK);
    assert_int_equal(st.detail, PF_DETAIL_ACCEL_EDITED);
    assert_true(close_to(st.cost, oracle_cost(m, s, g)));
    assert_true(st.cost > 16.5);
    pf_ctx_destroy(c);
    pf_accel_destroy(acc);
    pf_map_destroy(m);
}

/* A search suspended by its budget (JPS after a refusal) and an edit before it resumes: it begins
 * again on the new version, as AUTO, and answers exactly. */
static void test_suspended_restarts(void **state)
{
    (void)state;
    pf_map *m = grid_walled_40();
    pf_accel *acc;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1, .edits = PF_ACCEL_EDITS_CHECK}, &acc), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
    pf_grid_edit gap = {.rect = {5, 20, 1, 1}, .cls = 1};
    assert_int_equal(pf_grid_apply_edits(m, &gap, 1, NULL), PF_OK);
    uint32_t s = pf_grid_node(m, 2, 2), g = pf_grid_node(m, 3, 37);
    assert_int_equal(pf_search_begin(c, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}), PF_IN_PROGRESS);
    assert_int_equal(pf_search_step(c, 1), PF_IN_PROGRESS); /* refused, JPS under way */
    /* the gap closes and the old one stays: the restart is AUTO's, proven */
    pf_grid_edit shut = {.rect = {5, 20, 1, 1}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &shut, 1, NULL), PF_OK);
    pf_status st;
    while ((st = pf_search_step(c, 1)) == PF_IN_PROGRESS) {
    }
    assert_int_equal(st, PF_OK);
    pf_stats ps;
    assert_int_equal(pf_search_path(c, NULL, &ps), PF_OK);
    assert_true(close_to(ps.cost, oracle_cost(m, s, g)));
    assert_int_equal(ps.detail, PF_DETAIL_ACCEL);
    pf_ctx_destroy(c);
    pf_accel_destroy(acc);
    pf_map_destroy(m);
}

/* An allocator that fails once, the first allocation of `fail_size` bytes while armed. */
typedef struct fail_once { size_t fail_size; int armed; } fail_once;
static void *fo_alloc(size_t n, size_t a, void *u)
{
    fail_once *f = u;
    if (f->armed && n == f->fail_size) {
        f->armed = 0;
        return NULL;
    }
    return aligned_alloc(a < 16 ? 16 : a, (n + a - 1) / a * a);
}
static void fo_free(void *p, size_t n, void *u)
{
    (void)n;
    (void)u;
    free(p);
}

/* The diff that lets a PF_ACCEL_EDITS_CHECK accelerator follow edits could not be made (its
 * bitmap's allocation fails): a create says PF_OUT_OF_MEMORY, and a rebuild's copy whose first
 * attachment failed is tried again by the next one, then follows edits. Both used to say PF_OK
 * and answer as a stale accelerator for good, edited_cells 0 (a review). */
static void test_diff_out_of_memory(void **state)
{
    (void)state;
    enum { W = 64, H = 64 };
    static uint8_t cells[W * H];
    for (int i = 0; i < W * H; i++) cells[i] = (i % W == 32 && i / W != 10) ? 0 : 1;
    pf_map *map;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = W, .height = H, .cells = cells}, &map), PF_OK);
    fail_once fo = {((size_t)(W + 2) * (H + 2) + 63) / 64 * 8, 0}; /* D's bitmap, over the padded cells */
    pf_accel_desc d = {.threads = 1, .edits = PF_ACCEL_EDITS_CHECK, .short_query = 1, .allocator = {fo_alloc, fo_free, &fo}};
    pf_accel *acc = NULL;
    fo.armed = 1;
    assert_int_equal(pf_accel_create(map, &d, &acc), PF_OUT_OF_MEMORY);
    assert_null(acc);
    assert_int_equal(fo.armed, 0); /* the failure was the bitmap's */

    pf_accel_rebuild *rb;
    assert_int_equal(pf_accel_rebuild_begin(map, &d, &rb), PF_OK);
    assert_int_equal(pf_accel_rebuild_run(rb, &acc), PF_OK);
    pf_accel_rebuild_destroy(rb);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(map, NULL, &ctx), PF_OK);
    fo.armed = 1;
    assert_int_equal(pf_ctx_use_accel(ctx, acc), PF_OUT_OF_MEMORY);
    assert_int_equal(fo.armed, 0);
    assert_int_equal(pf_ctx_use_accel(ctx, acc), PF_OK);
    pf_grid_edit e = {.rect = {5, 50, 3, 3}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(map, &e, 1, NULL), PF_OK);
    assert_int_equal(pf_accel_get_info(acc).edited_cells, 9);
    pf_stats st;
    const uint32_t s = pf_grid_node(map, 1, 1), g = pf_grid_node(map, 60, 60);
    assert_int_equal(pf_search(ctx, s, g, &(pf_search_desc){.algo = PF_ALGO_AUTO}, NULL, &st), PF_OK);
    assert_false(st.detail & PF_DETAIL_ACCEL_STALE);
    assert_true(st.detail & (PF_DETAIL_ACCEL | PF_DETAIL_ACCEL_EDITED));
    assert_true(fabs(st.cost - oracle_cost(map, s, g)) < 1e-9);
    pf_ctx_destroy(ctx);
    pf_accel_destroy(acc);
    pf_map_destroy(map);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_random_edits), cmocka_unit_test(test_cases), cmocka_unit_test(test_moved_beside), cmocka_unit_test(test_moved_round_a_block),
                                       cmocka_unit_test(test_suspended_restarts), cmocka_unit_test(test_diff_out_of_memory)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
