/* test_prop_units.c - unit sizes and partial paths against references written apart from the library.
 *
 * Sizes: a search for a KxK unit must be exactly the search on the map "eroded" by the rule of
 * pf_search_desc.unit_size (a cell stays open only when the KxK block whose top-left cell it is lies
 * on the map and is all of one open class), computed here cell by cell: same status, cost,
 * expansions and cells, for every algorithm that takes sizes, every move rule, with and without
 * multipliers, and in a batch. The clearance bytes are checked against the same brute force, also
 * after random edits.
 * Partial paths: the path ends on the reachable cell nearest the goal, found by the Dijkstra oracle
 * over the start's reachable cells (least metric, then least cost).
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
#include "search/size_comp_internal.h" /* the sized labels themselves, checked below */
#include "map/map_internal.h"

/* Walls and class-2 areas as rectangles: open rooms wide enough for units of several sizes. */
static uint8_t *make_cells(uint64_t *rs, uint32_t w, uint32_t h)
{
    uint8_t *c = malloc((size_t)w * h);
    memset(c, 1, (size_t)w * h);
    uint32_t rects = 2 + rng_below(rs, (w * h) / 40 + 1);
    for (uint32_t r = 0; r < rects; r++) {
        uint32_t x0 = rng_below(rs, w), y0 = rng_below(rs, h);
        uint32_t rw = 1 + rng_below(rs, 5), rh = 1 + rng_below(rs, 5);
        uint8_t k = rng_below(rs, 8) == 0 ? 2 : 0;
        for (uint32_t y = y0; y < y0 + rh && y < h; y++)
            for (uint32_t x = x0; x < x0 + rw && x < w; x++) c[(size_t)y * w + x] = k;
    }
    return c;
}

static float *make_costs(uint64_t *rs, uint32_t w, uint32_t h)
{
    float *f = malloc((size_t)w * h * sizeof *f);
    for (size_t i = 0; i < (size_t)w * h; i++) f[i] = 1.0f + (float)rng_below(rs, 3);
    return f;
}

/* The side of the largest one-class open block at (x, y), capped: the rule, cell by cell. */
static uint32_t brute_clearance(const uint8_t *c, uint32_t w, uint32_t h, uint32_t x, uint32_t y)
{
    uint8_t k = c[(size_t)y * w + x];
    if (!k) return 0;
    uint32_t K = 1;
    while (K < PF_UNIT_SIZE_MAX) {
        uint32_t n = K + 1; /* does the block of side n hold? */
        if (x + n > w || y + n > h) break;
        int ok = 1;
        for (uint32_t dy = 0; dy < n && ok; dy++)
            for (uint32_t dx = 0; dx < n && ok; dx++) ok = c[(size_t)(y + dy) * w + x + dx] == k;
        if (!ok) break;
        K = n;
    }
    return K;
}

static uint8_t *erode(const uint8_t *c, uint32_t w, uint32_t h, uint32_t K)
{
    uint8_t *e = malloc((size_t)w * h);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            e[(size_t)y * w + x] = brute_clearance(c, w, h, x, y) >= K ? c[(size_t)y * w + x] : 0;
    return e;
}

static void check_clearance(const pf_map *m, const uint8_t *c, uint32_t w, uint32_t h, const char *when)
{
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t want = brute_clearance(c, w, h, x, y), got = pf_grid_clearance(m, (int32_t)x, (int32_t)y);
            if (want != got) {
                print_message("clearance (%u,%u) %s: %u, brute force %u\n", x, y, when, got, want);
                fail();
            }
        }
}

static void test_clearance(void **state)
{
    (void)state;
    uint64_t rs = 1811;
    int maps = (int)(40 * env_scale());
    for (int i = 0; i < maps; i++) {
        uint32_t w = 1 + rng_below(&rs, 70), h = 1 + rng_below(&rs, 50);
        uint8_t *c = make_cells(&rs, w, h);
        if (i % 5 == 0) memset(c, 1, (size_t)w * h); /* open: the cap applies */
        pf_map *m;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = c}, &m), PF_OK);
        check_clearance(m, c, w, h, "fresh");
        for (int e = 0; e < 6; e++) {
            pf_grid_edit ed = {.rect = {(int32_t)rng_below(&rs, w), (int32_t)rng_below(&rs, h), 1, 1},
                               .cls = (uint8_t)rng_below(&rs, 3)};
            ed.rect.w = 1 + rng_below(&rs, w - (uint32_t)ed.rect.x);
            ed.rect.h = 1 + rng_below(&rs, h - (uint32_t)ed.rect.y);
            if (ed.rect.w > 6) ed.rect.w = 6;
            if (ed.rect.h > 6) ed.rect.h = 6;
            assert_int_equal(pf_grid_apply_edits(m, &ed, 1, NULL), PF_OK);
            for (uint32_t y = 0; y < ed.rect.h; y++)
                for (uint32_t x = 0; x < ed.rect.w; x++)
                    c[(size_t)(ed.rect.y + (int32_t)y) * w + (uint32_t)ed.rect.x + x] = ed.cls;
            check_clearance(m, c, w, h, "after an edit");
        }
        pf_map_destroy(m);
        free(c);
    }
    assert_int_equal(pf_grid_clearance(NULL, 0, 0), 0);
}

typedef struct run_out {
    pf_status st;
    pf_stats  s;
    uint32_t  len;
    uint32_t *nodes;
} run_out;

static run_out run(pf_ctx *c, uint32_t s, uint32_t g, const pf_search_desc *d, uint32_t cap)
{
    run_out o = {.nodes = malloc(cap * sizeof(uint32_t))};
    pf_path p = {.nodes = o.nodes, .capacity = cap};
    o.st = pf_search(c, s, g, d, &p, &o.s);
    o.len = p.len;
    return o;
}

static const pf_moves MOVES[] = {PF_MOVES_8_NO_CUT, PF_MOVES_8_CUT, PF_MOVES_4};

/* One random map, every size 1..4: sized searches against searches on the eroded map. */
static long jps_checked; /* sized JPS, JPS+ and AUTO queries checked against JPS on the eroded map */

static void sizes_map(uint64_t seed, long *queries)
{
    uint64_t rs = seed;
    uint32_t w = 8 + rng_below(&rs, 50), h = 8 + rng_below(&rs, 40);
    pf_moves mv = MOVES[rng_below(&rs, 3)];
    uint8_t *c = make_cells(&rs, w, h);
    float *f = rng_below(&rs, 3) == 0 ? make_costs(&rs, w, h) : NULL;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = c, .costs = f}, &m),
                     PF_OK);
    pf_ctx *cm;
    assert_int_equal(pf_ctx_create(m, NULL, &cm), PF_OK);
    const pf_algo algos[] = {PF_ALGO_ASTAR, PF_ALGO_DIJKSTRA, PF_ALGO_BFS, PF_ALGO_WASTAR, PF_ALGO_GREEDY};
    for (uint32_t K = 1; K <= 4; K++) {
        uint8_t *e = erode(c, w, h, K);
        pf_map *me;
        assert_int_equal(
            pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = e, .costs = f}, &me), PF_OK);
        pf_ctx *ce;
        assert_int_equal(pf_ctx_create(me, NULL, &ce), PF_OK);
        for (int q = 0; q < 40; q++) {
            uint32_t s = rng_below(&rs, w * h), g = rng_below(&rs, w * h);
            pf_algo a = algos[rng_below(&rs, 5)];
            pf_search_desc dm = {.algo = a, .weight = a == PF_ALGO_WASTAR ? 1.5 : 0, .unit_size = K};
            pf_search_desc de = {.algo = a, .weight = dm.weight};
            run_out x = run(cm, s, g, &dm, w * h), y = run(ce, s, g, &de, w * h);
            (*queries)++;
            int same = x.st == y.st && x.len == y.len && (x.st != PF_OK || close_to(x.s.cost, y.s.cost)) &&
                       (x.len == 0 || memcmp(x.nodes, y.nodes, x.len * sizeof(uint32_t)) == 0);
            /* a goal that the eroded map's components show unreachable is answered there without
             * a search, while the sized search finds that out by searching (sizes have no
             * components of their own): the expansions agree wherever a path exists */
            if (x.st == PF_OK) same = same && x.s.expanded == y.s.expanded;
            if (!same) {
                print_message("size %u %s moves %d: %u -> %u: sized %s cost %.9f len %u exp %u; eroded %s cost %.9f "
                              "len %u exp %u (seed %llu)\n",
                              K, pf_algo_name(a), (int)mv, s, g, pf_status_name(x.st), x.s.cost, x.len, x.s.expanded,
                              pf_status_name(y.st), y.s.cost, y.len, y.s.expanded, (unsigned long long)seed);
                fail();
            }
            free(x.nodes);
            free(y.nodes);
            /* JPS, JPS+ and AUTO: for units over one cell, JPS on the cells open to them, which is
             * JPS on the eroded map: the same status, cost and jump points expanded */
            if ((mv == PF_MOVES_8_NO_CUT || mv == PF_MOVES_8_CUT) && !f) {
                static const pf_algo JA[3] = {PF_ALGO_JPS, PF_ALGO_JPS_PLUS, PF_ALGO_AUTO};
                pf_search_desc dj = {.algo = JA[rng_below(&rs, 3)], .unit_size = K};
                run_out j = run(cm, s, g, &dj, w * h), r = run(ce, s, g, &(pf_search_desc){0}, w * h);
                run_out je = run(ce, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS}, w * h);
                int ok_j = j.st == PF_OK, ok_r = r.st == PF_OK;
                int bad = ok_j != ok_r || (ok_r && !close_to(j.s.cost, r.s.cost));
                /* not a fallback to A*: JPS itself, jump point for jump point where a path exists (where
                 * none does, the eroded map's components answer without searching) */
                if (K > 1)
                    bad |= j.st != je.st || (j.s.detail & PF_DETAIL_FALLBACK) ||
                           (ok_j && (j.s.algo != PF_ALGO_JPS || j.s.expanded != je.s.expanded ||
                                     !close_to(j.s.cost, je.s.cost)));
                if (bad) {
                    print_message("size %u %s %u -> %u: %s %.9f exp %u by %s, eroded A* %s %.9f, eroded JPS exp %u "
                                  "(seed %llu)\n",
                                  K, pf_algo_name(dj.algo), s, g, pf_status_name(j.st), j.s.cost, j.s.expanded,
                                  pf_algo_name(j.s.algo), pf_status_name(r.st), r.s.cost, je.s.expanded,
                                  (unsigned long long)seed);
                    fail();
                }
                jps_checked++;
                free(j.nodes);
                free(r.nodes);
                free(je.nodes);
            }
        }
        pf_ctx_destroy(ce);
        pf_map_destroy(me);
        free(e);
    }
    pf_ctx_destroy(cm);
    pf_map_destroy(m);
    free(c);
    free(f);
}

static void test_sizes_match_eroded(void **state)
{
    (void)state;
    long queries = 0;
    const char *e = getenv("PF_TEST_SEED");
    if (e) {
        sizes_map(strtoull(e, NULL, 10), &queries);
        return;
    }
    int maps = (int)(60 * env_scale());
    for (int i = 0; i < maps; i++) sizes_map(UINT64_C(0x5123) + (uint64_t)i, &queries);
    print_message("%ld sized queries matched the eroded maps; %ld of them by JPS, JPS+ or AUTO matched JPS there, "
                  "jump point for jump point\n",
                  queries, jps_checked);
    assert_true(jps_checked > 100);
}

/* Sized queries on one context through a run of edits (size_comp.c relabels a window around each
 * edit instead of starting its labels afresh; sized JPS's bitmaps follow the edited cells): every
 * answer, A* and JPS, equals a fresh context's on the map eroded for the size, built from the
 * edited cells. Rooms-like maps, so that windows meet walls
 * and the larger windows are tried. */
static void sizes_after_edits(uint64_t seed, long *queries)
{
    uint64_t rs = seed;
    uint32_t w = 24 + rng_below(&rs, 60), h = 24 + rng_below(&rs, 50);
    pf_moves mv = MOVES[rng_below(&rs, 3)];
    uint8_t *c = make_cells(&rs, w, h);
    for (uint32_t y = 0; y < h; y++) /* walls every 10 cells with doors: rooms */
        for (uint32_t x = 0; x < w; x++)
            if ((x % 10 == 9 || y % 10 == 9) && rng_below(&rs, 8)) c[y * w + x] = 0;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = c}, &m), PF_OK);
    pf_ctx *cm;
    assert_int_equal(pf_ctx_create(m, NULL, &cm), PF_OK);
    const uint32_t K = 2 + rng_below(&rs, 2);
    static const uint8_t CLS[] = {0, 0, 1, 1, 2, 3};
    for (int edit = 0; edit < 12; edit++) {
        uint32_t ew = 1 + rng_below(&rs, 5), eh = 1 + rng_below(&rs, 5);
        pf_grid_edit ed = {.rect = {(int32_t)rng_below(&rs, w - ew + 1), (int32_t)rng_below(&rs, h - eh + 1), ew, eh},
                           .cls = CLS[rng_below(&rs, 6)]};
        assert_int_equal(pf_grid_apply_edits(m, &ed, 1, NULL), PF_OK);
        assert_int_equal(pf_grid_read(m, (pf_rect){0, 0, w, h}, c, NULL), PF_OK);
        uint8_t *e = erode(c, w, h, K);
        pf_map *me;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = e}, &me), PF_OK);
        pf_ctx *ce;
        assert_int_equal(pf_ctx_create(me, NULL, &ce), PF_OK);
        for (int q = 0; q < 30; q++) {
            uint32_t s = rng_below(&rs, w * h), g = rng_below(&rs, w * h);
            run_out x = run(cm, s, g, &(pf_search_desc){.unit_size = K}, w * h), y = run(ce, s, g, NULL, w * h);
            (*queries)++;
            /* the labels as such (a wrong "joined" costs only a search; a wrong "apart" a path) */
            uint32_t sp = pf__grid_pad(m, s), gp = pf__grid_pad(m, g);
            if (e[s] && e[s] == e[g]) {
                int same = -1;
                assert_int_equal(pf__szcomp_same(cm, sp, gp, (uint8_t)K, NULL, &same), PF_OK);
                if (same != pf_grid_same_component(me, s, g)) {
                    print_message("size %u after edit %d: labels say %s for %u, %u (seed %llu)\n", K, edit,
                                  same ? "joined" : "apart", s, g, (unsigned long long)seed);
                    fail();
                }
            }
            if (x.st != y.st || (x.st == PF_OK && !close_to(x.s.cost, y.s.cost))) {
                print_message("size %u moves %d after edit %d: %u -> %u: sized %s %.9f, eroded %s %.9f (seed %llu)\n", K,
                              (int)mv, edit, s, g, pf_status_name(x.st), x.s.cost, pf_status_name(y.st), y.s.cost,
                              (unsigned long long)seed);
                fail();
            }
            /* sized JPS on the same context: its bitmaps follow the edits too (jps_search.c) */
            run_out j = run(cm, s, g, &(pf_search_desc){.unit_size = K, .algo = PF_ALGO_JPS}, w * h);
            if (j.st != y.st || (j.st == PF_OK && !close_to(j.s.cost, y.s.cost))) {
                print_message("size %u moves %d after edit %d: %u -> %u: sized JPS %s %.9f, eroded %s %.9f (seed %llu)\n",
                              K, (int)mv, edit, s, g, pf_status_name(j.st), j.s.cost, pf_status_name(y.st), y.s.cost,
                              (unsigned long long)seed);
                fail();
            }
            free(j.nodes);
            free(x.nodes);
            free(y.nodes);
        }
        pf_ctx_destroy(ce);
        pf_map_destroy(me);
        free(e);
    }
    pf_ctx_destroy(cm);
    pf_map_destroy(m);
    free(c);
}

static void test_sizes_after_edits(void **state)
{
    (void)state;
    long queries = 0;
    const char *e = getenv("PF_TEST_SEED");
    if (e) {
        sizes_after_edits(strtoull(e, NULL, 10), &queries);
        return;
    }
    int maps = (int)(80 * env_scale());
    for (int i = 0; i < maps; i++) sizes_after_edits(UINT64_C(0x7e11) + (uint64_t)i, &queries);
    print_message("%ld sized queries after edits matched fresh eroded maps\n", queries);
    assert_true(queries > 1000);
}

static void test_sizes_refused(void **state)
{
    (void)state;
    uint8_t cells[16] = {1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0};
    pf_map *m, *hex;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 4, .height = 4, .cells = cells}, &m), PF_OK);
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 4, .height = 4, .moves = PF_MOVES_HEX}, &hex), PF_OK);
    pf_ctx *c, *ch;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_create(hex, NULL, &ch), PF_OK);
    pf_stats st;
    /* a 3x3 unit stands only on (0,0); a 2x2 on the four top-left cells */
    assert_int_equal(pf_search(c, 0, 5, &(pf_search_desc){.unit_size = 2}, NULL, &st), PF_OK);
    assert_true(close_to(st.cost, sqrt(2.0)));
    assert_int_equal(pf_search(c, 0, 5, &(pf_search_desc){.unit_size = 3}, NULL, &st), PF_INVALID_GOAL);
    assert_int_equal(pf_search(c, 2, 0, &(pf_search_desc){.unit_size = 2}, NULL, &st), PF_INVALID_START);
    assert_int_equal(pf_search(c, 0, 0, &(pf_search_desc){.unit_size = 3}, NULL, &st), PF_OK);
    assert_int_equal(pf_search(c, 0, 1, &(pf_search_desc){.unit_size = PF_UNIT_SIZE_MAX + 1}, NULL, &st),
                     PF_INVALID_ARGUMENT);
    assert_int_equal(pf_search(ch, 0, 1, &(pf_search_desc){.unit_size = 2}, NULL, &st), PF_UNSUPPORTED);
    assert_int_equal(pf_search(ch, 0, 1, &(pf_search_desc){.unit_size = 1}, NULL, &st), PF_OK);
    pf_ctx_destroy(c);
    pf_ctx_destroy(ch);
    pf_map_destroy(m);
    pf_map_destroy(hex);
}

/* Sized queries in a batch (deduplication and groups must keep sizes apart): each result is the
 * lone search's. */
static void test_sizes_batch(void **state)
{
    (void)state;
    uint64_t rs = 4242;
    const uint32_t w = 60, h = 40;
    uint8_t *c = make_cells(&rs, w, h);
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = c}, &m), PF_OK);
    pf_ctx *cx;
    assert_int_equal(pf_ctx_create(m, NULL, &cx), PF_OK);
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 2}, &b), PF_OK);
    enum { N = 240 };
    pf_query_id id[N];
    pf_batch_query q[N];
    uint32_t goal = rng_below(&rs, w * h);
    for (int i = 0; i < N; i++) {
        /* one shared goal and repeated starts: the batch would group and deduplicate them */
        q[i] = (pf_batch_query){.start = rng_below(&rs, w * h) / 4 * 4, .goal = i % 3 ? goal : rng_below(&rs, w * h)};
        q[i].search.unit_size = 1 + (uint32_t)(i % 4);
        q[i].search.partial = i % 5 == 0;
        assert_int_equal(pf_batch_submit(b, &q[i], &id[i]), PF_OK);
    }
    assert_int_equal(pf_batch_run(b, NULL), PF_OK);
    for (int i = 0; i < N; i++) {
        pf_batch_result r;
        assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
        run_out o = run(cx, q[i].start, q[i].goal, &q[i].search, w * h);
        /* a group search may pick another path of the same cost; units of any size that go to
         * their goal join groups, partial ones too (a member the group does not settle is searched
         * alone by the group's job, test_prop_unit_filters) */
        int grouped = (r.flags & PF_BATCH_RESULT_GROUPED) != 0;
        int same_path = grouped ? r.path_len && close_to(oracle_path_cost(m, r.path, r.path_len), o.s.cost)
                                : r.path_len == o.len && (!o.len || memcmp(r.path, o.nodes, o.len * 4u) == 0);
        if (r.status != o.st || !same_path || (r.path_len && !close_to(r.stats.cost, o.s.cost))) {
            print_message("batch query %d (size %u partial %d): %s len %u, alone %s len %u\n", i,
                          q[i].search.unit_size, q[i].search.partial, pf_status_name(r.status), r.path_len,
                          pf_status_name(o.st), o.len);
            fail();
        }
        free(o.nodes);
    }
    pf_batch_destroy(b);
    pf_ctx_destroy(cx);
    pf_map_destroy(m);
    free(c);
}

/* ---- partial paths ---------------------------------------------------------------------------- */

/* What a partial query toward an unreachable goal cost against a plain A* to the cell it returned
 * (issue 27: "never more than about twice"), over all of test_partial_nearest. */
static long g_near_n, g_near_over2;
static double g_near_worst;

static void partial_map(uint64_t seed, long *queries, long *partials)
{
    uint64_t rs = seed;
    uint32_t w = 6 + rng_below(&rs, 40), h = 6 + rng_below(&rs, 30);
    pf_moves mv = MOVES[rng_below(&rs, 3)];
    uint8_t *c = make_cells(&rs, w, h);
    /* a walled box: goals inside it are walled off */
    uint32_t bx = rng_below(&rs, w - 4), by = rng_below(&rs, h - 4);
    for (uint32_t y = by; y < by + 5; y++)
        for (uint32_t x = bx; x < bx + 5; x++)
            c[(size_t)y * w + x] = (x == bx || x == bx + 4 || y == by || y == by + 4) ? 0 : 1;
    float *f = rng_below(&rs, 3) == 0 ? make_costs(&rs, w, h) : NULL;
    uint32_t K = 1 + (rng_below(&rs, 3) == 0);
    uint8_t *e = erode(c, w, h, K);
    pf_map *m, *me;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = c, .costs = f}, &m),
                     PF_OK);
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = e, .costs = f}, &me),
                     PF_OK);
    pf_ctx *cx;
    assert_int_equal(pf_ctx_create(m, NULL, &cx), PF_OK);
    for (int q = 0; q < 30; q++) {
        uint32_t s = rng_below(&rs, w * h);
        if (!e[s]) continue; /* the unit must stand on its start */
        uint32_t g = rng_below(&rs, 3) == 0 ? (by + 1 + rng_below(&rs, 3)) * w + bx + 1 + rng_below(&rs, 3)
                                             : rng_below(&rs, w * h);
        double *all = oracle_all(me, s, 0); /* costs over the cells the unit can reach */
        /* every algorithm: toward an unreachable goal each gives the same answer */
        static const pf_algo ALGOS[] = {PF_ALGO_ASTAR, PF_ALGO_JPS,    PF_ALGO_WASTAR, PF_ALGO_DIJKSTRA,
                                        PF_ALGO_BFS,   PF_ALGO_GREEDY, PF_ALGO_JPS_PLUS, PF_ALGO_AUTO};
        pf_algo a = ALGOS[rng_below(&rs, 8)];
        pf_search_desc d = {.algo = a, .partial = 1, .unit_size = K, .weight = a == PF_ALGO_WASTAR ? 2.0 : 0.0};
        int exact = a != PF_ALGO_WASTAR && a != PF_ALGO_GREEDY && a != PF_ALGO_BFS;
        run_out o = run(cx, s, g, &d, w * h);
        (*queries)++;
        /* the nearest reachable cell: least metric, then least metric to the start, then node id */
        double bh, bc;
        const uint32_t want = oracle_nearest(me, all, mv, pf_grid_point(me, g), pf_grid_point(me, s), &bh, &bc);
        int ok;
        if (all[g] < INFINITY) {
            ok = o.st == PF_OK && (!exact || close_to(o.s.cost, all[g]));
        } else {
            (*partials)++;
            uint32_t end = o.len ? o.nodes[o.len - 1] : PF_NODE_NONE;
            ok = o.st == PF_PARTIAL && o.len && o.nodes[0] == s && end == want && close_to(o.s.cost, bc) &&
                 close_to(oracle_path_cost(me, o.nodes, o.len), o.s.cost) &&
                 (o.s.detail & PF_DETAIL_PARTIAL);
            if (ok && a != PF_ALGO_ASTAR) { /* every algorithm runs the same search: A*'s */
                run_out r = run(cx, s, g, &(pf_search_desc){.partial = 1, .unit_size = K}, w * h);
                ok = r.st == o.st && r.len == o.len && memcmp(r.nodes, o.nodes, o.len * sizeof *o.nodes) == 0 &&
                     r.s.expanded == o.s.expanded;
                free(r.nodes);
            }
            if (ok) { /* its cost against a plain query to the cell it returned */
                run_out p = run(cx, s, end, &(pf_search_desc){.unit_size = K}, w * h);
                double ratio = (double)(o.s.expanded + 1) / (double)(p.s.expanded + 1);
                g_near_n++;
                g_near_over2 += ratio > 2.0;
                if (ratio > g_near_worst) g_near_worst = ratio;
                free(p.nodes);
            }
        }
        if (!ok) {
            print_message("partial size %u moves %d %s %u -> %u: %s len %u cost %.9f; nearest metric %.6f cost %.9f "
                          "(seed %llu)\n",
                          K, (int)mv, pf_algo_name(a), s, g, pf_status_name(o.st), o.len, o.s.cost, bh, bc,
                          (unsigned long long)seed);
            fail();
        }
        free(o.nodes);
        free(all);
    }
    pf_ctx_destroy(cx);
    pf_map_destroy(m);
    pf_map_destroy(me);
    free(c);
    free(e);
    free(f);
}

static void test_partial_nearest(void **state)
{
    (void)state;
    long queries = 0, partials = 0;
    const char *e = getenv("PF_TEST_SEED");
    if (e) {
        partial_map(strtoull(e, NULL, 10), &queries, &partials);
        return;
    }
    int maps = (int)(150 * env_scale());
    for (int i = 0; i < maps; i++) partial_map(UINT64_C(0xFA11) + (uint64_t)i, &queries, &partials);
    print_message("%ld partial-option queries, %ld with the goal unreachable; against a plain A* to the cell "
                  "returned: %ld of %ld over 2x the expansions, worst %.2fx\n",
                  queries, partials, g_near_over2, g_near_n, g_near_worst);
    assert_true(partials > queries / 10);
}

/* Goals inside a disc of the map's own metric (a diamond on 4-connected grids, a hexagon on hex
 * grids), walled or of another class: the reachable cells nearest such a goal ring it, often more
 * than 8 of them, of which the one nearest the start is the answer (map/nearest.c). The answer is
 * the oracle's, every algorithm runs astar's search, and the cost against a plain A* to the cell
 * returned is printed for the queries with more than 8 tied cells. */
static void ring_map(uint64_t seed, long *queries, long *grouped, long *over2, double *worst)
{
    uint64_t rs = seed;
    uint32_t w = 16 + rng_below(&rs, 30), h = 14 + rng_below(&rs, 24);
    pf_moves mv = rng_below(&rs, 2) ? PF_MOVES_4 : PF_MOVES_HEX;
    uint8_t *c = make_cells(&rs, w, h);
    pf_point ctr = {(int32_t)(3 + rng_below(&rs, w - 6)), (int32_t)(3 + rng_below(&rs, h - 6))};
    double radius = 1 + rng_below(&rs, 6);
    uint8_t k = rng_below(&rs, 4) == 0 ? 2 : 0;
    for (uint32_t v = 0; v < w * h; v++)
        if (oracle_metric(mv, (pf_point){(int32_t)(v % w), (int32_t)(v / w)}, ctr) <= radius) c[v] = k;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = c}, &m), PF_OK);
    pf_ctx *cx;
    assert_int_equal(pf_ctx_create(m, NULL, &cx), PF_OK);
    static const pf_algo ALGOS[] = {PF_ALGO_ASTAR, PF_ALGO_JPS, PF_ALGO_WASTAR, PF_ALGO_DIJKSTRA, PF_ALGO_BFS,
                                    PF_ALGO_GREEDY, PF_ALGO_AUTO};
    for (int q = 0; q < 20; q++) {
        uint32_t s = rng_below(&rs, w * h);
        if (c[s] != 1) continue;
        /* the centre or next to it: whole rings, or stretches of them */
        pf_point gp = {ctr.x + (int32_t)rng_below(&rs, 3) - 1, ctr.y + (int32_t)rng_below(&rs, 3) - 1};
        uint32_t g = pf_grid_node(m, gp.x, gp.y);
        double *all = oracle_all(m, s, 0);
        if (all[g] < INFINITY) {
            free(all);
            continue;
        }
        double bm, bc;
        const uint32_t want = oracle_nearest(m, all, mv, gp, pf_grid_point(m, s), &bm, &bc);
        uint32_t ties = 0;
        for (uint32_t v = 0; v < w * h; v++)
            ties += all[v] < INFINITY && close_to(oracle_metric(mv, pf_grid_point(m, v), gp), bm);
        pf_algo a = ALGOS[rng_below(&rs, 7)];
        run_out o = run(cx, s, g, &(pf_search_desc){.algo = a, .partial = 1}, w * h);
        run_out r = run(cx, s, g, &(pf_search_desc){.partial = 1}, w * h);
        /* a limit the search does not reach: the same cell and path (it notes the nearest node
         * expanded, in case, but ends only on that cell) */
        run_out l = run(cx, s, g, &(pf_search_desc){.partial = 1, .max_expansions = 4 * w * h}, w * h);
        (*queries)++;
        uint32_t end = o.len ? o.nodes[o.len - 1] : PF_NODE_NONE;
        int ok = o.st == PF_PARTIAL && o.len && o.nodes[0] == s && end == want &&
                 close_to(oracle_metric(mv, pf_grid_point(m, end), gp), bm) && close_to(o.s.cost, bc) &&
                 close_to(oracle_path_cost(m, o.nodes, o.len), bc) && r.st == o.st && r.len == o.len &&
                 memcmp(r.nodes, o.nodes, o.len * sizeof *o.nodes) == 0 && r.s.expanded == o.s.expanded &&
                 l.st == o.st && l.len == o.len && memcmp(l.nodes, o.nodes, o.len * sizeof *o.nodes) == 0;
        if (!ok) {
            print_message("ring map seed %llu moves %d %s %u -> %u: %s len %u cost %.9f expanded %u (astar %u); "
                          "nearest metric %.6f cost %.9f\n",
                          (unsigned long long)seed, (int)mv, pf_algo_name(a), s, g, pf_status_name(o.st), o.len,
                          o.s.cost, o.s.expanded, r.s.expanded, bm, bc);
            fail();
        }
        if (ties > 8) {
            run_out p = run(cx, s, end, NULL, w * h);
            double ratio = (double)(o.s.expanded + 1) / (double)(p.s.expanded + 1);
            (*grouped)++;
            *over2 += ratio > 2.0;
            if (ratio > *worst) *worst = ratio;
            free(p.nodes);
        }
        free(o.nodes);
        free(r.nodes);
        free(l.nodes);
        free(all);
    }
    pf_ctx_destroy(cx);
    pf_map_destroy(m);
    free(c);
}

static void test_partial_rings(void **state)
{
    (void)state;
    long queries = 0, grouped = 0, over2 = 0;
    double worst = 0.0;
    const char *e = getenv("PF_TEST_SEED");
    if (e) {
        ring_map(strtoull(e, NULL, 10), &queries, &grouped, &over2, &worst);
        return;
    }
    int maps = (int)(150 * env_scale());
    for (int i = 0; i < maps; i++) ring_map(UINT64_C(0x819C) + (uint64_t)i, &queries, &grouped, &over2, &worst);
    print_message("%ld partial queries toward goals inside discs, %ld with more than 8 tied nearest cells; against "
                  "a plain A* to the cell returned: %ld of those over 2x the expansions, worst %.2fx\n",
                  queries, grouped, over2, worst);
    assert_true(grouped > queries / 8);
}

/* The metric between two cells of a grid of move rule mv. */
static double metric_of(pf_moves mv, int32_t vx, int32_t vy, int32_t x, int32_t y)
{
    double dx = fabs((double)vx - x), dy = fabs((double)vy - y);
    if (mv == PF_MOVES_4) return dx + dy;
    if (mv == PF_MOVES_HEX) { /* odd-r offset to cube coordinates */
        int64_t q1 = (int64_t)vx - ((int64_t)vy - (vy & 1)) / 2, q2 = (int64_t)x - ((int64_t)y - (y & 1)) / 2;
        double a = fabs((double)(q1 - q2)), b = fabs((double)vy - y), cc = fabs((double)(q1 - q2 + vy - y));
        return a > b ? (a > cc ? a : cc) : (b > cc ? b : cc);
    }
    double hi = dx > dy ? dx : dy, lo = dx > dy ? dy : dx;
    return hi + (sqrt(2.0) - 1.0) * lo;
}

/* The nearest cell by a scan of every cell: least metric to (x, y), then least node id, over the
 * cells of the class, clearance and component `d` asks (PF_NODE_NONE when none); *dist its metric. */
static uint32_t nearest_by_scan(const pf_map *m, pf_moves mv, int32_t x, int32_t y, const pf_nearest_desc *d,
                                double *dist)
{
    const uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    uint32_t want = PF_NODE_NONE;
    double bd = INFINITY;
    for (uint32_t v = 0; v < w * h; v++) {
        int32_t vx = (int32_t)(v % w), vy = (int32_t)(v / w);
        uint8_t k = pf_grid_class(m, vx, vy);
        if (!k || (d->cls && k != d->cls) || pf_grid_clearance(m, vx, vy) < (d->unit_size ? d->unit_size : 1u))
            continue;
        if (d->component && pf_grid_component(m, vx, vy) != d->component) continue;
        const double dd = metric_of(mv, vx, vy, x, y);
        if (dd < bd) {
            bd = dd;
            want = v;
        }
    }
    *dist = bd;
    return want;
}

/* A partial query's answer by a scan of every cell of the start's class and component: least metric
 * to the goal, then least metric to the start, then least node id. Distances are compared as
 * the library's are: the same formula, so ties are exact. */
static uint32_t partial_by_scan(const pf_map *m, pf_moves mv, pf_point g, pf_point s)
{
    const uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    const uint8_t k = pf_grid_class(m, s.x, s.y);
    const uint32_t comp = pf_grid_component(m, s.x, s.y);
    uint32_t want = PF_NODE_NONE;
    double bd = INFINITY, bf = INFINITY;
    for (uint32_t v = 0; v < w * h; v++) {
        int32_t vx = (int32_t)(v % w), vy = (int32_t)(v / w);
        if (pf_grid_class(m, vx, vy) != k || pf_grid_component(m, vx, vy) != comp) continue;
        double dd = metric_of(mv, vx, vy, g.x, g.y), ff = metric_of(mv, vx, vy, s.x, s.y);
        if (dd < bd - 1e-9 || (fabs(dd - bd) <= 1e-9 && ff < bf - 1e-9)) {
            bd = dd;
            bf = ff;
            want = v;
        }
    }
    return want;
}

/* Partial queries on maps of several 64x64 tiles with wide walls and pockets of a second class,
 * so that the nearest reachable cell lies many rows from the goal, among nodes of several tiles
 * (map/nearest.c reads the start component's nodes near the goal, by their rectangles and diagonal
 * extents), or is the unit's own cell, or lies in a component of one node: the cell returned is
 * the rule's exactly (partial_by_scan), every move rule, before and after edits (which relabel
 * the nodes of the tiles they touch, rectangles and extents included). */
static void test_partial_nodes(void **state)
{
    (void)state;
    long checked = 0, own = 0, far = 0;
    int maps = (int)(24 * env_scale());
    for (int i = 0; i < maps; i++) {
        uint64_t rs = UINT64_C(0x90DE5) + (uint64_t)i;
        uint32_t w = 65 + rng_below(&rs, 200), h = 65 + rng_below(&rs, 200);
        pf_moves mv = i % 4 == 3 ? PF_MOVES_HEX : MOVES[rng_below(&rs, 3)];
        uint8_t *c = make_cells(&rs, w, h);
        for (uint32_t r = 0, rects = 4 + rng_below(&rs, 8); r < rects; r++) { /* walls, some holding pockets */
            uint32_t rw = 8 + rng_below(&rs, 40), rh = 8 + rng_below(&rs, 40);
            uint32_t x0 = rng_below(&rs, w), y0 = rng_below(&rs, h), pocket = rng_below(&rs, 2);
            for (uint32_t y = y0; y < y0 + rh && y < h; y++)
                for (uint32_t x = x0; x < x0 + rw && x < w; x++)
                    c[(size_t)y * w + x] = pocket && (x + y) % 7 < 2 && x % 5 ? 2 : 0;
        }
        pf_map *m;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = c}, &m), PF_OK);
        pf_ctx *cx;
        assert_int_equal(pf_ctx_create(m, NULL, &cx), PF_OK);
        uint32_t *nodes = malloc((size_t)w * h * sizeof *nodes);
        assert_non_null(nodes);
        for (int round = 0; round < 3; round++) {
            for (int q = 0; q < 60; q++) {
                uint32_t s = rng_below(&rs, w * h), g = rng_below(&rs, w * h);
                pf_point sp = pf_grid_point(m, s), gp = pf_grid_point(m, g);
                /* within 64 cells of the goal on most: the scan's tiles are few */
                if (q % 4) {
                    sp.x = gp.x + (int32_t)rng_below(&rs, 129) - 64;
                    sp.y = gp.y + (int32_t)rng_below(&rs, 129) - 64;
                    if (sp.x < 0 || sp.y < 0 || sp.x >= (int32_t)w || sp.y >= (int32_t)h) continue;
                    s = pf_grid_node(m, sp.x, sp.y);
                }
                if (!pf_grid_class(m, sp.x, sp.y) || pf_grid_same_component(m, s, g)) continue;
                pf_path p = {.nodes = nodes, .capacity = w * h};
                assert_int_equal(pf_search(cx, s, g, &(pf_search_desc){.partial = 1}, &p, NULL), PF_PARTIAL);
                const uint32_t want = partial_by_scan(m, mv, gp, sp), end = nodes[p.len - 1];
                if (end != want) {
                    pf_point e = pf_grid_point(m, end), wp = pf_grid_point(m, want);
                    fail_msg("map %d (%ux%u moves %d) round %d partial %d,%d -> %d,%d: ends at %d,%d (%g from the "
                             "goal, %g from the start), the rule's cell is %d,%d (%g, %g)",
                             i, w, h, (int)mv, round, sp.x, sp.y, gp.x, gp.y, e.x, e.y,
                             metric_of(mv, e.x, e.y, gp.x, gp.y), metric_of(mv, e.x, e.y, sp.x, sp.y), wp.x, wp.y,
                             metric_of(mv, wp.x, wp.y, gp.x, gp.y), metric_of(mv, wp.x, wp.y, sp.x, sp.y));
                }
                checked++;
                own += end == s;
                far += metric_of(mv, pf_grid_point(m, end).x, pf_grid_point(m, end).y, gp.x, gp.y) > 8.0;
            }
            pf_grid_edit e[4];
            for (int k = 0; k < 4; k++) {
                uint32_t ew = 1 + rng_below(&rs, w / 3), eh = 1 + rng_below(&rs, h / 3);
                int32_t ex = (int32_t)rng_below(&rs, w - ew + 1), ey = (int32_t)rng_below(&rs, h - eh + 1);
                e[k] = (pf_grid_edit){.rect = {ex, ey, ew, eh}, .cls = (uint8_t)rng_below(&rs, 3u)};
            }
            assert_int_equal(pf_grid_apply_edits(m, e, 4, NULL), PF_OK);
        }
        free(nodes);
        pf_ctx_destroy(cx);
        pf_map_destroy(m);
        free(c);
    }
    print_message("%ld partial queries on maps of several tiles end at the rule's cell (%ld more than 8 from "
                  "the goal, %ld on the unit's own cell), before and after edits\n",
                  checked, far, own);
    assert_true(far > (long)(50 * env_scale()) && own > (long)(5 * env_scale()));
}

/* Partial queries where the scan's shortcuts decide (map/nearest.c): a unit on a line of a second
 * class (trees) a cell wide and up to 150 long, a component of a few nodes over several tiles,
 * whose nodes are read by a walk of the component rather than by the tiles within reach of a click
 * up to 64 cells away; and a unit beside a wide diagonal wall, clicking inside or across it, where
 * many cells of the wall's edge lie at one distance from the click (on 4-connected grids all of
 * them) and the rule's second test, the distance to the unit, picks among them (nodes no nearer
 * than the best are read only near the unit). The cell returned is the rule's (partial_by_scan),
 * every move rule, before and after edits; ties of more than one cell at the least distance are
 * counted, and must be common. */
static void test_partial_ties_lines(void **state)
{
    (void)state;
    long checked = 0, on_line = 0, tied = 0;
    int maps = (int)(30 * env_scale());
    for (int i = 0; i < maps; i++) {
        uint64_t rs = UINT64_C(0x71E5) + (uint64_t)i;
        uint32_t w = 130 + rng_below(&rs, 140), h = 130 + rng_below(&rs, 140);
        pf_moves mv = i % 4 == 3 ? PF_MOVES_HEX : i % 4 == 2 ? PF_MOVES_4 : MOVES[rng_below(&rs, 3)];
        uint8_t *c = malloc((size_t)w * h);
        assert_non_null(c);
        memset(c, 1, (size_t)w * h);
        for (uint32_t r = 0, walls = 2 + rng_below(&rs, 3); r < walls; r++) { /* diagonal walls */
            const int64_t c0 = (int64_t)rng_below(&rs, w + h) - (int64_t)h, width = 6 + rng_below(&rs, 30);
            const int anti = (int)rng_below(&rs, 2);
            const uint32_t ya = rng_below(&rs, h / 2), yb = ya + h / 3 + rng_below(&rs, h / 2);
            for (uint32_t y = ya; y < h && y < yb; y++)
                for (uint32_t x = 0; x < w; x++) {
                    const int64_t d = anti ? (int64_t)x + y - (int64_t)w / 2 : (int64_t)x - (int64_t)y;
                    if (d >= c0 && d < c0 + width) c[(size_t)y * w + x] = 0;
                }
        }
        for (uint32_t r = 0, lines = 4 + rng_below(&rs, 6); r < lines; r++) { /* lines of trees, some broken */
            const uint32_t len = 30 + rng_below(&rs, 120), across = rng_below(&rs, 2), gap = rng_below(&rs, 3);
            uint32_t x = rng_below(&rs, w), y = rng_below(&rs, h);
            for (uint32_t k = 0; k < len && x < w && y < h; k++, across ? x++ : y++)
                if (!gap || k % 40 != 39) c[(size_t)y * w + x] = 2;
        }
        pf_map *m;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = c}, &m), PF_OK);
        pf_ctx *cx;
        assert_int_equal(pf_ctx_create(m, NULL, &cx), PF_OK);
        uint32_t *nodes = malloc((size_t)w * h * sizeof *nodes);
        assert_non_null(nodes);
        for (int round = 0; round < 2; round++) {
            for (int q = 0, asked = 0; q < 4000 && asked < 40; q++) {
                const uint32_t s = rng_below(&rs, w * h);
                pf_point sp = pf_grid_point(m, s);
                /* on a line or beside a wall (a blocked cell within 3): the cases above */
                int near_wall = 0;
                for (int32_t dy = -3; dy <= 3; dy++)
                    for (int32_t dx = -3; dx <= 3; dx++) {
                        const int32_t nx = sp.x + dx, ny = sp.y + dy;
                        near_wall |= nx >= 0 && ny >= 0 && nx < (int32_t)w && ny < (int32_t)h &&
                                     !pf_grid_class(m, nx, ny);
                    }
                const uint8_t k = pf_grid_class(m, sp.x, sp.y);
                if (!k || (k == 1 && !near_wall)) continue;
                pf_point gp = {sp.x + (int32_t)rng_below(&rs, 129) - 64, sp.y + (int32_t)rng_below(&rs, 129) - 64};
                if (gp.x < 0 || gp.y < 0 || gp.x >= (int32_t)w || gp.y >= (int32_t)h) continue;
                const uint32_t g = pf_grid_node(m, gp.x, gp.y);
                if (pf_grid_same_component(m, s, g)) continue;
                pf_path p = {.nodes = nodes, .capacity = w * h};
                assert_int_equal(pf_search(cx, s, g, &(pf_search_desc){.partial = 1}, &p, NULL), PF_PARTIAL);
                const uint32_t want = partial_by_scan(m, mv, gp, sp), end = nodes[p.len - 1];
                pf_point wp = pf_grid_point(m, want);
                if (end != want) {
                    pf_point e = pf_grid_point(m, end);
                    fail_msg("map %d (%ux%u moves %d) round %d partial %d,%d -> %d,%d: ends at %d,%d (%g from the "
                             "goal, %g from the start), the rule's cell is %d,%d (%g, %g)",
                             i, w, h, (int)mv, round, sp.x, sp.y, gp.x, gp.y, e.x, e.y,
                             metric_of(mv, e.x, e.y, gp.x, gp.y), metric_of(mv, e.x, e.y, sp.x, sp.y), wp.x, wp.y,
                             metric_of(mv, wp.x, wp.y, gp.x, gp.y), metric_of(mv, wp.x, wp.y, sp.x, sp.y));
                }
                checked++;
                asked++;
                on_line += k == 2;
                /* another cell of the unit's component as near the goal */
                const double bd = metric_of(mv, wp.x, wp.y, gp.x, gp.y);
                const uint32_t comp = pf_grid_component(m, sp.x, sp.y);
                int ties = 0;
                for (uint32_t v = 0; v < w * h && !ties; v++) {
                    const int32_t vx = (int32_t)(v % w), vy = (int32_t)(v / w);
                    ties = v != want && pf_grid_class(m, vx, vy) == k && pf_grid_component(m, vx, vy) == comp &&
                           fabs(metric_of(mv, vx, vy, gp.x, gp.y) - bd) <= 1e-9;
                }
                tied += ties;
            }
            pf_grid_edit e[3];
            for (int n = 0; n < 3; n++) {
                uint32_t ew = 1 + rng_below(&rs, w / 4), eh = 1 + rng_below(&rs, h / 4);
                e[n] = (pf_grid_edit){.rect = {(int32_t)rng_below(&rs, w - ew + 1), (int32_t)rng_below(&rs, h - eh + 1), ew, eh},
                                      .cls = (uint8_t)rng_below(&rs, 3u)};
            }
            assert_int_equal(pf_grid_apply_edits(m, e, 3, NULL), PF_OK);
        }
        free(nodes);
        pf_ctx_destroy(cx);
        pf_map_destroy(m);
        free(c);
    }
    print_message("%ld partial queries by lines of trees and diagonal walls end at the rule's cell (%ld from a "
                  "line, %ld with the least distance tied), before and after edits\n",
                  checked, on_line, tied);
    assert_true(on_line > (long)(100 * env_scale()) && tied > (long)(100 * env_scale()));
}

/* A node of one 64x64 tile whose rows 24..31 (a band of its rows, map/nearest.c) reach from a
 * corridor at x = 2 to x = 20 on row 24 only, and a pocket of it at rows 33..38 right under a
 * click at (32, 30): on row 31 the node's columns there (2..20) have no cell of the class within
 * reach, and the class bits' band of rows 31..38 none in those columns either. Passing over the
 * rest of that band (to row 39) also passed over the pocket, 3 cells from the click, whose rows
 * are of the node's next band: the answer was (32, 39), 9 away. Every move rule. (The random
 * maps of test_partial_nodes and test_partial_ties_lines met this only at PF_TEST_SCALE=20.) */
static void test_partial_band_edge(void **state)
{
    (void)state;
    const uint32_t w = 64, h = 64;
    uint8_t c[64 * 64];
    memset(c, 0, sizeof c);
    for (uint32_t y = 0; y < h; y++) c[y * w + 2] = 1;      /* the corridor */
    for (uint32_t x = 2; x <= 20; x++) c[24 * w + x] = 1;   /* band 3's reach, on its first row */
    for (uint32_t y = 25; y <= 31; y++)
        for (uint32_t x = 2; x <= 10; x++) c[y * w + x] = 1;
    for (uint32_t y = 33; y <= 38; y++)                       /* the pocket under the click */
        for (uint32_t x = 30; x <= 34; x++) c[y * w + x] = 1;
    for (uint32_t y = 38; y <= 45; y++) c[y * w + 32] = 1;  /* joined to the corridor at row 45 */
    for (uint32_t x = 2; x <= 32; x++) c[45 * w + x] = 1;
    const pf_moves rules[4] = {PF_MOVES_4, PF_MOVES_8_NO_CUT, PF_MOVES_8_CUT, PF_MOVES_HEX};
    for (int k = 0; k < 4; k++) {
        const pf_moves mv = rules[k];
        pf_map *m;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = c}, &m), PF_OK);
        pf_ctx *cx;
        assert_int_equal(pf_ctx_create(m, NULL, &cx), PF_OK);
        uint32_t nodes[64 * 64];
        pf_path p = {.nodes = nodes, .capacity = w * h};
        const pf_point sp = {2, 0}, gp = {32, 30};
        assert_int_equal(pf_search(cx, pf_grid_node(m, sp.x, sp.y), pf_grid_node(m, gp.x, gp.y),
                                   &(pf_search_desc){.partial = 1}, &p, NULL),
                         PF_PARTIAL);
        const pf_point e = pf_grid_point(m, nodes[p.len - 1]), wp = pf_grid_point(m, partial_by_scan(m, mv, gp, sp));
        if (e.x != wp.x || e.y != wp.y)
            fail_msg("moves %d: ends at %d,%d (%g from the click), the rule's cell is %d,%d (%g)", (int)mv, e.x, e.y,
                     metric_of(mv, e.x, e.y, gp.x, gp.y), wp.x, wp.y, metric_of(mv, wp.x, wp.y, gp.x, gp.y));
        assert_true(wp.y >= 33 && wp.y <= 38); /* the pocket: the case above */
        pf_ctx_destroy(cx);
        pf_map_destroy(m);
    }
}

/* pf_grid_nearest against a scan of every cell: least metric to the point, then least node id, over
 * the cells of the class, clearance and component asked; points inside the map and off its edges.
 * Partial queries toward blocked goals, whose scan is bounded by the unit's own cell and by the
 * tiles of a small component: the metric of the cell each returns is the least a full scan finds
 * in the unit's class and component. Both again after edits (the scan reads each class's cell
 * bits, which edits keep; class 3 first appears in an edit). */
static void test_nearest_oracle(void **state)
{
    (void)state;
    long checked = 0, partial = 0;
    int maps = (int)(60 * env_scale());
    for (int i = 0; i < maps; i++) {
        uint64_t rs = UINT64_C(0x4EA5) + (uint64_t)i;
        uint32_t w = 4 + rng_below(&rs, 40), h = 4 + rng_below(&rs, 30);
        if (i % 5 == 4) { /* components over several 64x64 tiles, whose tiles bound a partial query's scan */
            w = 65 + rng_below(&rs, 100);
            h = 65 + rng_below(&rs, 100);
        }
        pf_moves mv = i % 4 == 3 ? PF_MOVES_HEX : MOVES[rng_below(&rs, 3)];
        uint8_t *c = make_cells(&rs, w, h);
        pf_map *m;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = c}, &m), PF_OK);
        pf_ctx *cx;
        assert_int_equal(pf_ctx_create(m, NULL, &cx), PF_OK);
        uint32_t *nodes = malloc((size_t)w * h * sizeof *nodes);
        assert_non_null(nodes);
        for (int round = 0; round < 3; round++) {
            for (int q = 0; q < 40; q++) {
                int32_t x = (int32_t)rng_below(&rs, w + 20) - 10, y = (int32_t)rng_below(&rs, h + 20) - 10;
                pf_nearest_desc d = {0};
                if (rng_below(&rs, 2) && mv != PF_MOVES_HEX) d.unit_size = 1 + rng_below(&rs, 3);
                if (rng_below(&rs, 2)) d.cls = 1 + rng_below(&rs, 3);
                if (rng_below(&rs, 2)) {
                    uint32_t v = rng_below(&rs, w * h);
                    d.component = pf_grid_component(m, (int32_t)(v % w), (int32_t)(v / w));
                }
                double bd;
                uint32_t got = pf_grid_nearest(m, x, y, &d), want = nearest_by_scan(m, mv, x, y, &d, &bd);
                if (got != want)
                    fail_msg("map %d (%ux%u moves %d) round %d point %d,%d size %u cls %u comp %u: got %u, want %u", i,
                             w, h, (int)mv, round, x, y, d.unit_size, d.cls, d.component, got, want);
                checked++;
            }
            for (int q = 0; q < 20; q++) {
                uint32_t s = rng_below(&rs, w * h), g = rng_below(&rs, w * h);
                int32_t sx = (int32_t)(s % w), sy = (int32_t)(s / w), gx = (int32_t)(g % w), gy = (int32_t)(g / w);
                if (!pf_grid_class(m, sx, sy) || pf_grid_class(m, gx, gy)) continue;
                pf_path p = {.nodes = nodes, .capacity = w * h};
                assert_int_equal(pf_search(cx, s, g, &(pf_search_desc){.partial = 1}, &p, NULL), PF_PARTIAL);
                double bd, got;
                const pf_nearest_desc d = {.cls = pf_grid_class(m, sx, sy), .component = pf_grid_component(m, sx, sy)};
                nearest_by_scan(m, mv, gx, gy, &d, &bd);
                pf_point e = pf_grid_point(m, nodes[p.len - 1]);
                { /* the metric of the cell returned */
                    double dx = fabs((double)e.x - gx), dy = fabs((double)e.y - gy);
                    if (mv == PF_MOVES_4) got = dx + dy;
                    else if (mv == PF_MOVES_HEX) {
                        int32_t q1 = e.x - (e.y - (e.y & 1)) / 2, q2 = gx - (gy - (gy & 1)) / 2;
                        double a = fabs((double)(q1 - q2)), b = fabs((double)(e.y - gy)),
                               cc = fabs((double)(q1 - q2 + e.y - gy));
                        got = a > b ? (a > cc ? a : cc) : (b > cc ? b : cc);
                    } else {
                        double hi = dx > dy ? dx : dy, lo = dx > dy ? dy : dx;
                        got = hi + (sqrt(2.0) - 1.0) * lo;
                    }
                }
                if (fabs(got - bd) > 1e-9)
                    fail_msg("map %d (%ux%u moves %d) round %d partial %d,%d -> %d,%d: ends %g from the goal, the "
                             "nearest cell is %g",
                             i, w, h, (int)mv, round, sx, sy, gx, gy, got, bd);
                partial++;
            }
            /* edits: rectangles of blocked cells and of classes 1 to 3; on a third of the maps up to
             * class 12, past the classes that keep cell bits (the scan then reads the classes) */
            pf_grid_edit e[4];
            for (int k = 0; k < 4; k++) {
                uint32_t ew = 1 + rng_below(&rs, w / 2), eh = 1 + rng_below(&rs, h / 2);
                e[k] = (pf_grid_edit){.rect = {(int32_t)rng_below(&rs, w - ew + 1), (int32_t)rng_below(&rs, h - eh + 1), ew, eh},
                                      .cls = (uint8_t)rng_below(&rs, i % 3 == 1 ? 13u : 4u)};
            }
            assert_int_equal(pf_grid_apply_edits(m, e, 4, NULL), PF_OK);
        }
        /* max_radius bounds the look: nothing beyond it */
        uint32_t far = pf_grid_nearest(m, -1000, -1000, &(pf_nearest_desc){.max_radius = 10});
        assert_int_equal(far, PF_NODE_NONE);
        free(nodes);
        pf_ctx_destroy(cx);
        pf_map_destroy(m);
        free(c);
    }
    assert_int_equal(pf_grid_nearest(NULL, 0, 0, NULL), PF_NODE_NONE);
    print_message("%ld nearest-cell queries agree with a full scan, before and after edits; %ld partial queries end "
                  "at the least metric a full scan finds\n",
                  checked, partial);
    /* about 7 partial queries a map reach the check (the rest start blocked or aim at an open cell) */
    assert_true(partial > (long)(100 * env_scale()));
}

/* Points anywhere in int32, as pf_grid_nearest accepts: a point 2^31 from the map overflowed the
 * metric's 32-bit differences and named far cells ((-2^31, 4) gave (2, 4) for (0, 4)). Every move
 * rule, points at every magnitude up to the int32 limits, on each side and corner of a small map,
 * against the full scan. */
static void test_nearest_far_points(void **state)
{
    (void)state;
    const uint32_t w = 12, h = 9;
    uint8_t c[12 * 9];
    for (uint32_t i = 0; i < w * h; i++) c[i] = (i * 7 % 5) ? 1 : (i % 3 ? 2 : 0);
    const int64_t mags[] = {100, 1000000, INT64_C(1) << 24, INT64_C(1) << 28, INT64_C(1) << 30, INT32_MAX, -(int64_t)INT32_MIN};
    const pf_moves rules[4] = {PF_MOVES_4, PF_MOVES_8_NO_CUT, PF_MOVES_8_CUT, PF_MOVES_HEX};
    long checked = 0;
    for (int k = 0; k < 4; k++) {
        pf_map *m;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = rules[k], .cells = c}, &m), PF_OK);
        for (size_t a = 0; a < sizeof mags / sizeof mags[0]; a++)
            for (int sx = -1; sx <= 1; sx++)
                for (int sy = -1; sy <= 1; sy++) {
                    const int64_t px = sx < 0 ? -mags[a] : sx > 0 ? mags[a] - 1 : 5;
                    const int64_t py = sy < 0 ? -mags[a] : sy > 0 ? mags[a] - 1 : 4;
                    if (px < INT32_MIN || px > INT32_MAX || py < INT32_MIN || py > INT32_MAX) continue;
                    const pf_nearest_desc d = {0};
                    double bd;
                    const uint32_t got = pf_grid_nearest(m, (int32_t)px, (int32_t)py, &d);
                    const uint32_t want = nearest_by_scan(m, rules[k], (int32_t)px, (int32_t)py, &d, &bd);
                    if (got != want)
                        fail_msg("moves %d point %lld,%lld: got %u, the nearest cell is %u", (int)rules[k], (long long)px,
                                 (long long)py, got, want);
                    checked++;
                }
        pf_map_destroy(m);
    }
    assert_true(checked > 100);
}

/* Cell bits are kept for a few classes only: a map of 20 classes keeps none (they would add 2.5
 * bytes a cell), one of 8 keeps them, and both give the full scan's nearest cells. */
static void test_many_classes_bounded(void **state)
{
    (void)state;
    const uint32_t w = 300, h = 200;
    uint8_t *c = malloc((size_t)w * h);
    assert_non_null(c);
    size_t mem[2];
    for (int k = 0; k < 2; k++) {
        const uint32_t classes = k ? 20u : 8u;
        for (uint32_t i = 0; i < w * h; i++) c[i] = (uint8_t)(i % 7 == 0 ? 0 : 1 + (i / 3) % classes);
        pf_map *m;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = c}, &m), PF_OK);
        mem[k] = pf__grid_class_bits_mem(m);
        assert_int_equal(m->cbits_ok, !k);
        uint64_t rs = 77;
        for (int q = 0; q < 200; q++) {
            int32_t x = (int32_t)rng_below(&rs, w), y = (int32_t)rng_below(&rs, h);
            pf_nearest_desc d = {.cls = (uint8_t)(1 + rng_below(&rs, classes))};
            double bd;
            assert_int_equal(pf_grid_nearest(m, x, y, &d), nearest_by_scan(m, PF_MOVES_8_NO_CUT, x, y, &d, &bd));
        }
        pf_map_destroy(m);
    }
    assert_int_equal(mem[1], 0);
    assert_true(mem[0] > 0);
    free(c);
}

/* A class that comes and goes leaves no array behind, and a map that went past the cap keeps its
 * bits again once an edit brings it back within it, as a fresh map of its cells does (a review: a
 * ninth class seen once turned them off for good, and every class seen kept its array). */
static void test_class_bits_follow_edits(void **state)
{
    (void)state;
    const uint32_t w = 512, h = 512;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h}, &m), PF_OK);
    const size_t mem0 = pf__grid_class_bits_mem(m);
    assert_true(mem0 > 0);
    for (uint8_t k = 2; k <= 12; k++) {
        pf_grid_edit e = {.rect = {5, 5, 1, 1}, .cls = k};
        assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_OK);
        assert_int_equal(m->cbits_ok, 1);
        assert_int_equal(pf__grid_class_bits_mem(m), 2 * mem0);
        e.cls = 1;
        assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_OK);
        assert_int_equal(m->cbits_ok, 1);
        assert_int_equal(pf__grid_class_bits_mem(m), mem0);
    }
    /* nine classes at once: the ninth goes without bits, the others keep theirs; back within
     * the cap nothing is made again (a review: a scan of the map each time one cell of a ninth
     * class was set and cleared) */
    const uint64_t *one = m->cbits[1];
    uint8_t row[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    pf_grid_edit many = {.rect = {10, 10, 9, 1}, .classes = row};
    assert_int_equal(pf_grid_apply_edits(m, &many, 1, NULL), PF_OK);
    assert_int_equal(m->cbits_ok, 1);
    assert_null(m->cbits[9]);
    assert_int_equal(pf__grid_class_bits_mem(m), 8 * mem0);
    uint64_t rs = 5;
    for (int round = 0; round < 3; round++) {
        pf_grid_edit ninth = {.rect = {30, 30, 1, 1}, .cls = 9}; /* a second cell of class 9 */
        assert_int_equal(pf_grid_apply_edits(m, &ninth, 1, NULL), PF_OK);
        for (int q = 0; q < 100; q++) {
            int32_t x = (int32_t)rng_below(&rs, 40), y = (int32_t)rng_below(&rs, 40);
            pf_nearest_desc d = {.cls = (uint8_t)(1 + rng_below(&rs, 9))};
            double bd;
            assert_int_equal(pf_grid_nearest(m, x, y, &d), nearest_by_scan(m, PF_MOVES_8_NO_CUT, x, y, &d, &bd));
        }
        ninth.cls = 1;
        assert_int_equal(pf_grid_apply_edits(m, &ninth, 1, NULL), PF_OK);
        assert_ptr_equal(m->cbits[1], one);
    }
    row[8] = 0;
    assert_int_equal(pf_grid_apply_edits(m, &many, 1, NULL), PF_OK);
    assert_int_equal(m->cbits_ok, 1);
    assert_ptr_equal(m->cbits[1], one);
    assert_int_equal(pf__grid_class_bits_mem(m), 8 * mem0);
    /* class 9 gone, a class that comes now has its bits from its first cell */
    pf_grid_edit tenth = {.rect = {12, 20, 1, 1}, .cls = 10};
    row[7] = 1; /* class 8 leaves: room for one */
    assert_int_equal(pf_grid_apply_edits(m, &many, 1, NULL), PF_OK);
    assert_int_equal(pf_grid_apply_edits(m, &tenth, 1, NULL), PF_OK);
    assert_non_null(m->cbits[10]);
    for (int q = 0; q < 300; q++) {
        int32_t x = (int32_t)rng_below(&rs, 40), y = (int32_t)rng_below(&rs, 40);
        pf_nearest_desc d = {.cls = (uint8_t)(1 + rng_below(&rs, 10))};
        double bd;
        assert_int_equal(pf_grid_nearest(m, x, y, &d), nearest_by_scan(m, PF_MOVES_8_NO_CUT, x, y, &d, &bd));
    }
    pf_map_destroy(m);
}

/* A click on a wall: the answer is found by a look around the wall and a search as far as the cell
 * it returns, not by searching the unit's whole component (3.8 million expansions on rooms-2000
 * before). An open 1000x1000 map with a 9x9 block 20 cells from the unit. */
static void test_partial_wall_click(void **state)
{
    (void)state;
    uint32_t w = 1000, h = 1000;
    uint8_t *c = malloc((size_t)w * h);
    assert_non_null(c);
    memset(c, 1, (size_t)w * h);
    for (uint32_t y = 496; y < 505; y++)
        for (uint32_t x = 516; x < 525; x++) c[(size_t)y * w + x] = 0;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = c}, &m), PF_OK);
    pf_ctx *cx;
    assert_int_equal(pf_ctx_create(m, NULL, &cx), PF_OK);
    uint32_t s = pf_grid_node(m, 500, 500), g = pf_grid_node(m, 520, 500);
    static const pf_algo algos[] = {PF_ALGO_ASTAR, PF_ALGO_JPS, PF_ALGO_JPS_PLUS, PF_ALGO_DIJKSTRA, PF_ALGO_AUTO};
    double cost0 = -1.0;
    for (int k = 0; k < 5; k++) {
        pf_stats st;
        uint32_t nodes[64];
        pf_path p = {.nodes = nodes, .capacity = 64};
        assert_int_equal(pf_search(cx, s, g, &(pf_search_desc){.algo = algos[k], .partial = 1}, &p, &st), PF_PARTIAL);
        assert_int_equal(nodes[p.len - 1], pf_grid_node(m, 515, 500)); /* the cell before the block */
        assert_true(close_to(st.cost, 15.0));
        if (cost0 < 0) cost0 = st.cost;
        assert_true(close_to(st.cost, cost0)); /* the same answer whatever was asked */
        assert_true(st.detail & PF_DETAIL_PARTIAL);
        if (st.expanded > 100) fail_msg("%s expanded %u nodes for a 15-step answer", pf_algo_name(algos[k]), st.expanded);
    }
    pf_ctx_destroy(cx);
    pf_map_destroy(m);
    free(c);
}

/* With an expansion limit the path goes to the best node expanded so far; without the option the
 * same search is PF_LIMIT_REACHED, and a blocked goal PF_INVALID_GOAL. */
static void test_partial_limit(void **state)
{
    (void)state;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 50, .height = 1}, &m), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    uint32_t nodes[50];
    pf_path p = {.nodes = nodes, .capacity = 50};
    pf_stats st;
    assert_int_equal(pf_search(c, 0, 49, &(pf_search_desc){.max_expansions = 10}, &p, &st), PF_LIMIT_REACHED);
    assert_int_equal(pf_search(c, 0, 49, &(pf_search_desc){.max_expansions = 10, .partial = 1}, &p, &st), PF_PARTIAL);
    assert_int_equal(p.len, 10); /* cells 0..9 expanded: 9 is nearest */
    assert_int_equal(nodes[9], 9);
    assert_true(close_to(st.cost, 9.0));
    assert_int_equal(pf_search(c, 0, 49, &(pf_search_desc){.algo = PF_ALGO_JPS, .max_expansions = 10, .partial = 1}, &p,
                               &st),
                     PF_PARTIAL);
    /* a limit the search does not reach: the goal itself */
    assert_int_equal(pf_search(c, 0, 49, &(pf_search_desc){.max_expansions = 100, .partial = 1}, &p, &st), PF_OK);
    assert_int_equal(p.len, 50);
    pf_ctx_destroy(c);
    pf_map_destroy(m);

    uint8_t cells[5] = {1, 1, 0, 1, 1};
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 5, .height = 1, .cells = cells}, &m), PF_OK);
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_search(c, 0, 2, NULL, &p, &st), PF_INVALID_GOAL);
    assert_int_equal(pf_search(c, 0, 4, NULL, &p, &st), PF_NO_PATH);
    assert_int_equal(pf_search(c, 0, 2, &(pf_search_desc){.partial = 1}, &p, &st), PF_PARTIAL);
    assert_int_equal(p.len, 2);
    assert_int_equal(pf_search(c, 0, 4, &(pf_search_desc){.partial = 1}, &p, &st), PF_PARTIAL);
    assert_int_equal(nodes[p.len - 1], 1);
    assert_int_equal(pf_search(c, 0, 7, &(pf_search_desc){.partial = 1}, &p, &st), PF_INVALID_GOAL);
    assert_false(pf_failed(PF_PARTIAL));
    pf_ctx_destroy(c);
    pf_map_destroy(m);
}

/* Every algorithm gives A*'s partial answer (pf_search.h): JPS, JPS+ and AUTO where they fall back
 * to A* (a limit, a sized unit, a goal out of reach) expand exactly what A* does and end on its
 * cell, and Theta* aims at the same cell for a goal out of reach. A review found the fallback
 * reopening nodes on rounding where A* does not (another cell under max_expansions: 26 of 67,961
 * queries) and Theta* ending on another tied cell (248 of 21,277). */
static void any_algo_map(uint64_t seed, long *queries, long *limited, long *theta)
{
    uint64_t rs = seed;
    uint32_t w = 8 + rng_below(&rs, 20), h = 8 + rng_below(&rs, 20);
    static const pf_moves MV[] = {PF_MOVES_8_NO_CUT, PF_MOVES_8_CUT, PF_MOVES_4, PF_MOVES_HEX};
    pf_moves mv = MV[rng_below(&rs, 4)];
    uint8_t *c = make_cells(&rs, w, h);
    float *f = rng_below(&rs, 4) == 0 ? make_costs(&rs, w, h) : NULL;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = c, .costs = f}, &m),
                     PF_OK);
    pf_ctx *cx;
    assert_int_equal(pf_ctx_create(m, NULL, &cx), PF_OK);
    static const pf_algo ALGOS[] = {PF_ALGO_JPS, PF_ALGO_JPS_PLUS, PF_ALGO_AUTO, PF_ALGO_THETA};
    for (int q = 0; q < 24; q++) {
        uint32_t s = rng_below(&rs, w * h), g = rng_below(&rs, w * h);
        if (c[s] == 0) continue;
        uint32_t size = mv != PF_MOVES_HEX && rng_below(&rs, 4) == 0 ? 2u : 1u;
        uint32_t lim = rng_below(&rs, 2) ? 1u + rng_below(&rs, w * h / 2u) : 0u;
        pf_search_desc d = {.partial = 1, .unit_size = size, .max_expansions = lim};
        run_out a = run(cx, s, g, &d, w * h);
        if (a.st != PF_PARTIAL && a.st != PF_OK) { /* a start the unit cannot stand on */
            free(a.nodes);
            continue;
        }
        (*queries)++;
        *limited += lim != 0;
        for (int k = 0; k < 4; k++) {
            d.algo = ALGOS[k];
            if (d.algo == PF_ALGO_THETA && (mv == PF_MOVES_HEX || f || lim)) continue; /* its own limit's nodes */
            run_out o = run(cx, s, g, &d, w * h);
            int ok = o.st == a.st && o.len && a.len && o.nodes[o.len - 1] == a.nodes[a.len - 1];
            if (ok && d.algo != PF_ALGO_THETA) ok = close_to(o.s.cost, a.s.cost);
            /* answered by A* (a fallback, or a partial answer's second step): A*'s very search */
            if (ok && d.algo != PF_ALGO_THETA && o.s.algo == PF_ALGO_ASTAR)
                ok = o.s.expanded == a.s.expanded && o.len == a.len &&
                     memcmp(o.nodes, a.nodes, a.len * sizeof *a.nodes) == 0;
            *theta += d.algo == PF_ALGO_THETA && a.st == PF_PARTIAL;
            if (!ok) {
                print_message("seed %llu moves %d%s size %u limit %u, %u -> %u: astar %s end %u cost %.9f expanded %u; "
                              "%s %s end %u cost %.9f expanded %u (answered by %s)\n",
                              (unsigned long long)seed, (int)mv, f ? " weighted" : "", size, lim, s, g,
                              pf_status_name(a.st), a.len ? a.nodes[a.len - 1] : 0, a.s.cost, a.s.expanded,
                              pf_algo_name(d.algo), pf_status_name(o.st), o.len ? o.nodes[o.len - 1] : 0, o.s.cost,
                              o.s.expanded, pf_algo_name(o.s.algo));
                fail();
            }
            free(o.nodes);
        }
        free(a.nodes);
    }
    pf_ctx_destroy(cx);
    pf_map_destroy(m);
    free(c);
    free(f);
}

static void test_partial_any_algo(void **state)
{
    (void)state;
    long queries = 0, limited = 0, theta = 0;
    int maps = (int)(400 * env_scale());
    for (int i = 0; i < maps; i++) any_algo_map(UINT64_C(0xA110) + (uint64_t)i, &queries, &limited, &theta);
    print_message("%ld partial queries (%ld under max_expansions, %ld Theta* answers out of reach): every algorithm "
                  "ends on A*'s cell\n", queries, limited, theta);
    assert_true(limited > 100 * env_scale() && theta > 100 * env_scale());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clearance),       cmocka_unit_test(test_sizes_match_eroded),
        cmocka_unit_test(test_sizes_after_edits),
        cmocka_unit_test(test_sizes_refused),   cmocka_unit_test(test_sizes_batch),
        cmocka_unit_test(test_partial_nearest), cmocka_unit_test(test_partial_rings),
        cmocka_unit_test(test_partial_limit),   cmocka_unit_test(test_partial_any_algo),
        cmocka_unit_test(test_nearest_oracle),  cmocka_unit_test(test_many_classes_bounded), cmocka_unit_test(test_class_bits_follow_edits), cmocka_unit_test(test_partial_wall_click),
        cmocka_unit_test(test_partial_nodes),   cmocka_unit_test(test_partial_ties_lines),
        cmocka_unit_test(test_partial_band_edge),
        cmocka_unit_test(test_nearest_far_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
