/* test_prop_unit_filters.c - movement types (pf_search_desc.filter) for units of every size,
 * against an oracle written apart from the library.
 *
 * The oracle of a unit of side K under filter f: the map rewritten so that a cell is open (one
 * class) exactly when the K x K block whose top-left cell it is lies on the map and holds only
 * classes f allows, mixed ones included; each open cell's multiplier the map's times f's
 * multiplier of its own class; searched by a plain Dijkstra without filter or size
 * (tests/support/oracle.c) under the map's move rule, whose diagonal rule then reads the side
 * positions. On random maps of ground, water and trees, square move rules, with and without cell
 * multipliers, random filters, sizes 1..3 and random edits between rounds of queries (the
 * context's memos and labels follow them):
 *   - A*, Dijkstra and JPS / JPS+ / AUTO (answered by A*, flagged) give the oracle's cost; their
 *     paths are legal for the oracle and cost what they say;
 *   - partial queries end on the reachable position nearest the goal (least metric, then cost);
 *   - endpoints the unit cannot stand on are refused.
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
#include "pathfind/pf_repair.h"
#include "oracle.h"
#include "testutil.h"
#include "seed_check.h"
#include "move_filter.h"
#include "random_grid.h"

static uint64_t cur_seed;

/* Ground with blobs of water, trees and walls. */
static void fill_cells(uint64_t *rs, uint8_t *c, uint32_t w, uint32_t h)
{
    memset(c, 1, (size_t)w * h);
    uint32_t rects = 3 + rng_below(rs, (w * h) / 30 + 1);
    paint_blobs(rs, c, w, h, rects, 6);
}

static double fmult(const pf_move_filter *f, uint8_t k) { return f->class_cost[k] > 0.0f ? f->class_cost[k] : 1.0; }

/* Whether a unit of side K under f may stand at (x, y), read cell by cell. */
static int stands(const uint8_t *c, uint32_t w, uint32_t h, const pf_move_filter *f, uint32_t K, uint32_t x, uint32_t y)
{
    if (x + K > w || y + K > h) return 0;
    for (uint32_t dy = 0; dy < K; dy++)
        for (uint32_t dx = 0; dx < K; dx++)
            if (!filter_allows(f, c[(size_t)(y + dy) * w + x + dx])) return 0;
    return 1;
}

/* A w x h map of random terrain (fill_cells), one in `costs_one_in` with cell multipliers of 1 to
 * 2.5; the caller frees *cells and *costs (NULL when none) after the map. */
static pf_map *random_map(uint64_t *rs, uint32_t w, uint32_t h, pf_moves mv, uint32_t costs_one_in, uint8_t **cells,
                          float **costs)
{
    *cells = malloc((size_t)w * h);
    fill_cells(rs, *cells, w, h);
    *costs = NULL;
    if (rng_below(rs, costs_one_in) == 0) {
        *costs = malloc((size_t)w * h * sizeof **costs);
        for (size_t i = 0; i < (size_t)w * h; i++) (*costs)[i] = 1.0f + 0.5f * (float)rng_below(rs, 4);
    }
    pf_map *m = NULL;
    CHECK_EQ(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = *cells, .costs = *costs}, &m),
             PF_OK);
    return m;
}

/* The oracle's map for side K under f (see the top of the file). */
static pf_map *oracle_map(const uint8_t *c, const float *costs, uint32_t w, uint32_t h, pf_moves mv,
                          const pf_move_filter *f, uint32_t K)
{
    uint8_t *oc = malloc((size_t)w * h);
    float *ok = malloc((size_t)w * h * sizeof *ok);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            oc[i] = stands(c, w, h, f, K, x, y) ? 1 : 0;
            ok[i] = (float)((costs ? costs[i] : 1.0f) * fmult(f, c[i]));
        }
    pf_map *m = NULL;
    CHECK_EQ(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = oc, .costs = ok}, &m), PF_OK);
    free(oc);
    free(ok);
    return m;
}

static int near_eq(double a, double b) { return fabs(a - b) <= 1e-6 * (1.0 + fabs(b)); }

/* A position the unit can stand on, drawn uniformly; PF_NODE_NONE when none is found. */
static uint32_t standing_cell(const uint8_t *c, uint32_t w, uint32_t h, const pf_move_filter *f, uint32_t K,
                              uint64_t *rs)
{
    for (int t = 0; t < 300; t++) {
        uint32_t x = rng_below(rs, w), y = rng_below(rs, h);
        if (stands(c, w, h, f, K, x, y)) return y * w + x;
    }
    return PF_NODE_NONE;
}

typedef struct run_counts {
    uint32_t queries, reached, partial, sized, mixed;
} run_counts;

static void one_map(uint64_t seed, void *user)
{
    run_counts *rc = user;
    uint64_t rs = seed;
    cur_seed = seed;
    static const pf_moves RULES[] = {PF_MOVES_8_NO_CUT, PF_MOVES_4, PF_MOVES_8_CUT};
    uint32_t w = 10 + rng_below(&rs, 20), h = 8 + rng_below(&rs, 16);
    pf_moves mv = RULES[rng_below(&rs, 3)];
    uint8_t *cells;
    float *costs;
    pf_map *m = random_map(&rs, w, h, mv, 3, &cells, &costs);
    pf_ctx *ctx = NULL;
    CHECK_EQ(pf_ctx_create(m, NULL, &ctx), PF_OK);
    const uint32_t cap = w * h;
    uint32_t *nodes = malloc(cap * sizeof *nodes);

    for (int round = 0; round < 3; round++) {
        if (round) { /* edits between rounds: the context's memos and labels follow them */
            uint32_t ne = 1 + rng_below(&rs, 3);
            pf_grid_edit ed[3];
            for (uint32_t e = 0; e < ne; e++) {
                pf_rect r = {(int32_t)rng_below(&rs, w), (int32_t)rng_below(&rs, h), 1 + rng_below(&rs, 4),
                             1 + rng_below(&rs, 4)};
                if ((uint32_t)r.x + r.w > w) r.w = w - (uint32_t)r.x;
                if ((uint32_t)r.y + r.h > h) r.h = h - (uint32_t)r.y;
                ed[e] = (pf_grid_edit){.rect = r, .cls = (uint8_t)rng_below(&rs, 4)};
                for (uint32_t y = 0; y < r.h; y++)
                    for (uint32_t x = 0; x < r.w; x++) cells[(size_t)(r.y + (int32_t)y) * w + (uint32_t)r.x + x] = ed[e].cls;
            }
            CHECK_EQ(pf_grid_apply_edits(m, ed, ne, NULL), PF_OK);
        }
        for (int fi = 0; fi < 4; fi++) {
            pf_move_filter f;
            filter_random(&rs, &f, 0);
            const uint32_t K = 1 + rng_below(&rs, 3);
            pf_map *om = oracle_map(cells, costs, w, h, mv, &f, K);
            for (int q = 0; q < 5; q++) {
                uint32_t a = standing_cell(cells, w, h, &f, K, &rs), b = standing_cell(cells, w, h, &f, K, &rs);
                if (a == PF_NODE_NONE || b == PF_NODE_NONE) break;
                double *dist = oracle_all(om, a, 0);
                const double want = dist[b];
                rc->queries++;
                if (K > 1) rc->sized++;
                if (isfinite(want)) rc->reached++;
                static const pf_algo EXACT[] = {PF_ALGO_ASTAR, PF_ALGO_DIJKSTRA, PF_ALGO_JPS, PF_ALGO_JPS_PLUS, PF_ALGO_AUTO};
                for (size_t ai = 0; ai < sizeof EXACT / sizeof EXACT[0]; ai++) {
                    pf_search_desc d = {.algo = EXACT[ai], .filter = &f, .unit_size = K};
                    pf_path p = {.nodes = nodes, .capacity = cap};
                    pf_stats st;
                    pf_status s = pf_search(ctx, a, b, &d, &p, &st);
                    if (!isfinite(want)) {
                        if (s != PF_NO_PATH)
                            fail_msg("seed %llu: size %u algo %d status %d, oracle: no path", (unsigned long long)seed, K,
                                     EXACT[ai], s);
                        continue;
                    }
                    if (s != PF_OK || !near_eq(st.cost, want))
                        fail_msg("seed %llu: size %u algo %d status %d cost %.9f, oracle %.9f", (unsigned long long)seed, K,
                                 EXACT[ai], s, st.cost, want);
                    CHECK(near_eq(oracle_path_cost(om, nodes, p.len), want));
                    CHECK_EQ(nodes[0], a);
                    CHECK_EQ(nodes[p.len - 1], b);
                    if (K > 1) { /* a path that stands on mixed classes somewhere */
                        for (uint32_t i = 0; i < p.len && EXACT[ai] == PF_ALGO_ASTAR; i++) {
                            uint32_t x = nodes[i] % w, y = nodes[i] / w;
                            uint8_t k0 = cells[nodes[i]];
                            int mixed = 0;
                            for (uint32_t dy = 0; dy < K; dy++)
                                for (uint32_t dx = 0; dx < K; dx++) mixed |= cells[(y + dy) * w + x + dx] != k0;
                            if (mixed) {
                                rc->mixed++;
                                break;
                            }
                        }
                    }
                    /* jump points take filters of one multiplier for one-cell units only
                     * (test_prop_jps_filter); a sized unit under a filter is A*'s, flagged */
                    /* (AUTO on a map JPS cannot run on picks A* itself: not said) */
                    if (EXACT[ai] >= PF_ALGO_JPS && K > 1) {
                        if (EXACT[ai] == PF_ALGO_AUTO && !pf_jps_supported(m)) CHECK(!(st.detail & PF_DETAIL_FALLBACK));
                        else CHECK(st.detail & PF_DETAIL_FALLBACK);
                    }
                }
                /* partial: a goal anywhere */
                {
                    int32_t gx = (int32_t)rng_below(&rs, w), gy = (int32_t)rng_below(&rs, h);
                    uint32_t g = pf_grid_node(m, gx, gy);
                    pf_search_desc d = {.filter = &f, .unit_size = K, .partial = 1};
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
                        if (s != PF_PARTIAL) fail_msg("seed %llu: size %u partial status %d", (unsigned long long)seed, K, s);
                        CHECK(st.detail & PF_DETAIL_PARTIAL);
                        uint32_t end = nodes[p.len - 1];
                        CHECK_EQ(end, near);
                        CHECK(near_eq(oracle_metric(mv, pf_grid_point(m, end), gp), best_m));
                        CHECK(near_eq(st.cost, best_c));
                        CHECK(near_eq(oracle_path_cost(om, nodes, p.len), best_c));
                    }
                }
                /* a position the unit cannot stand on is refused */
                for (uint32_t i = 0; i < w * h; i++) {
                    if (stands(cells, w, h, &f, K, i % w, i / w)) continue;
                    pf_search_desc d = {.filter = &f, .unit_size = K};
                    CHECK_EQ(pf_search(ctx, i, b, &d, NULL, NULL), PF_INVALID_START);
                    CHECK_EQ(pf_search(ctx, a, i, &d, NULL, NULL), PF_INVALID_GOAL);
                    break;
                }
                free(dist);
            }
            pf_map_destroy(om);
        }
    }
    free(nodes);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
    free(costs);
    free(cells);
}

static void test_sizes_against_oracle(void **state)
{
    (void)state;
    run_counts rc = {0};
    if (!each_seed(0x51e0000ull, (uint32_t)(200 * env_scale()), one_map, &rc, NULL)) return;
    print_message("%u queries (%u sized, %u on mixed blocks), %u reached, %u partial\n", rc.queries, rc.sized, rc.mixed,
                  rc.reached, rc.partial);
    assert_true(rc.queries > 2000 * env_scale()); /* CI's sanitizer runs scale by 0.25 */
    assert_true(rc.sized > rc.queries / 2);
    assert_true(rc.mixed > 50 * env_scale());
    assert_true(rc.reached > rc.queries / 4);
    assert_true(rc.queries - rc.reached > rc.queries / 20);
    assert_true(rc.partial > 100 * env_scale());
}

/* A 2x2 hover unit on a shore: the block half on ground, half on water is open to it (no one
 * class holds it, so clearance says 1), and a static context (no memo, no labels) answers the
 * same. */
static void test_shore(void **state)
{
    (void)state;
    const uint32_t w = 8, h = 6;
    uint8_t cells[8 * 6];
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) cells[y * w + x] = y < 3 ? 1 : 2;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = cells}, &m), PF_OK);
    pf_move_filter hover = {0}, walker = {0};
    pf_move_filter_allow(&hover, 1, 0.0f);
    pf_move_filter_allow(&hover, 2, 2.0f);
    pf_move_filter_allow(&walker, 1, 0.0f);
    uint32_t a = pf_grid_node(m, 0, 2), b = pf_grid_node(m, 6, 2); /* blocks rows 2-3: ground over water */
    size_t need = pf_ctx_estimate(m, NULL);
    void *mem = malloc(need);
    pf_ctx *ctx, *st_ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    assert_int_equal(pf_ctx_init_static(mem, need, m, NULL, &st_ctx), PF_OK);
    pf_stats st, st2;
    pf_search_desc d = {.filter = &hover, .unit_size = 2};
    assert_int_equal(pf_search(ctx, a, b, &d, NULL, &st), PF_OK);
    assert_true(near_eq(st.cost, 6.0)); /* six steps east, each into a ground cell */
    assert_int_equal(pf_search(st_ctx, a, b, &d, NULL, &st2), PF_OK);
    assert_true(near_eq(st2.cost, st.cost));
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.filter = &walker, .unit_size = 2}, NULL, &st), PF_INVALID_START);
    assert_int_equal(pf_search(ctx, a, b, &(pf_search_desc){.unit_size = 2}, NULL, &st), PF_INVALID_START);
    /* a wall across the ground rows and the water's top row: the hover unit goes below it */
    pf_grid_edit wall = {.rect = {4, 0, 1, 4}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &wall, 1, NULL), PF_OK);
    assert_int_equal(pf_search(ctx, a, b, &d, NULL, &st), PF_OK);
    assert_int_equal(pf_search(st_ctx, a, b, &d, NULL, &st2), PF_OK);
    assert_true(near_eq(st2.cost, st.cost));
    assert_true(st.cost > 6.0);
    pf_grid_edit wall2 = {.rect = {4, 0, 1, 6}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &wall2, 1, NULL), PF_OK);
    assert_int_equal(pf_search(ctx, a, b, &d, NULL, &st), PF_NO_PATH);
    assert_int_equal(st.expanded, 0); /* the labels knew: no search flooded */
    assert_int_equal(pf_search(st_ctx, a, b, &d, NULL, &st2), PF_NO_PATH);
    pf_ctx_destroy(st_ctx);
    free(mem);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
}

/* Where a path first breaks, by the oracle: the first node the unit cannot stand on (the oracle
 * map's cell closed) or whose leg to the next it cannot take, a leg being a grid step or a
 * straight or diagonal run of them (a waypoint path's segment, by the line-of-sight rule, which on
 * maps without corner cutting is the steps' rule). */
static uint32_t ref_break(const pf_map *om, const uint32_t *p, uint32_t len)
{
    uint32_t w = pf_grid_width(om);
    for (uint32_t i = 0; i < len; i++) {
        if (!pf_grid_class(om, (int32_t)(p[i] % w), (int32_t)(p[i] / w))) return i;
        if (i + 1 == len) break;
        int32_t ax = (int32_t)(p[i] % w), ay = (int32_t)(p[i] / w), bx = (int32_t)(p[i + 1] % w), by = (int32_t)(p[i + 1] / w);
        int32_t sx = bx > ax ? 1 : bx < ax ? -1 : 0, sy = by > ay ? 1 : by < ay ? -1 : 0;
        for (int32_t x = ax, y = ay; x != bx || y != by; x += sx, y += sy) {
            uint32_t st[2] = {(uint32_t)y * w + (uint32_t)x, (uint32_t)(y + sy) * w + (uint32_t)(x + sx)};
            if (!isfinite(oracle_path_cost(om, st, 2))) return i;
        }
    }
    return PF_NODE_NONE;
}

typedef struct repair_counts {
    uint32_t checks, broken, repaired, waypoint;
} repair_counts;

/* Paths found for a unit of random size and movement type, then edits: pf_grid_path_check says
 * where each first breaks as the oracle does (grid and waypoint paths), and pf_path_repair gives,
 * from a node of the path, a legal path to the goal on the edited map, within its stated bound of
 * the optimum when the edits only closed cells. */
static void repair_map(uint64_t seed, void *user)
{
    repair_counts *rc = user;
    uint64_t rs = seed;
    cur_seed = seed;
    static const pf_moves RULES[] = {PF_MOVES_8_NO_CUT, PF_MOVES_4};
    uint32_t w = 10 + rng_below(&rs, 24), h = 8 + rng_below(&rs, 20);
    pf_moves mv = RULES[rng_below(&rs, 2)];
    uint8_t *cells;
    float *costs;
    pf_map *m = random_map(&rs, w, h, mv, 3, &cells, &costs);
    pf_ctx *ctx = NULL;
    CHECK_EQ(pf_ctx_create(m, NULL, &ctx), PF_OK);
    const uint32_t cap = w * h;
    uint32_t *path = malloc(cap * sizeof *path), *way = malloc(cap * sizeof *way), *out = malloc(cap * sizeof *out);
    for (int t = 0; t < 8; t++) {
        pf_move_filter f;
        filter_random(&rs, &f, 0);
        const uint32_t K = 1 + rng_below(&rs, 3);
        uint32_t a = standing_cell(cells, w, h, &f, K, &rs), b = standing_cell(cells, w, h, &f, K, &rs);
        if (a == PF_NODE_NONE || b == PF_NODE_NONE) continue;
        pf_search_desc d = {.filter = &f, .unit_size = K};
        pf_path p = {.nodes = path, .capacity = cap}, q = {.nodes = way, .capacity = cap};
        if (pf_search(ctx, a, b, &d, &p, NULL) != PF_OK || p.len < 2) continue;
        d.waypoints = 1;
        CHECK_EQ(pf_search(ctx, a, b, &d, &q, NULL), PF_OK);
        d.waypoints = 0;
        pf_path_check_desc cd = {.unit_size = K, .filter = &f};
        CHECK_EQ(pf_grid_path_check(m, path, p.len, &cd), PF_NODE_NONE);
        CHECK_EQ(pf_grid_path_check(m, way, q.len, &cd), PF_NODE_NONE);
        /* one edit somewhere near the path: a wall, or another class */
        uint32_t on = path[rng_below(&rs, p.len)];
        pf_rect r = {(int32_t)(on % w) - 1 + (int32_t)rng_below(&rs, 3), (int32_t)(on / w) - 1 + (int32_t)rng_below(&rs, 3),
                     1 + rng_below(&rs, 3), 1 + rng_below(&rs, 3)};
        if (r.x < 0) r.x = 0;
        if (r.y < 0) r.y = 0;
        if ((uint32_t)r.x + r.w > w) r.w = w - (uint32_t)r.x;
        if ((uint32_t)r.y + r.h > h) r.h = h - (uint32_t)r.y;
        pf_grid_edit ed = {.rect = r, .cls = (uint8_t)rng_below(&rs, 4)};
        int only_closed = ed.cls == 0;
        for (uint32_t y = 0; y < r.h; y++)
            for (uint32_t x = 0; x < r.w; x++) cells[(size_t)(r.y + (int32_t)y) * w + (uint32_t)r.x + x] = ed.cls;
        CHECK_EQ(pf_grid_apply_edits(m, &ed, 1, NULL), PF_OK);
        pf_map *om = oracle_map(cells, costs, w, h, mv, &f, K);
        uint32_t want = ref_break(om, path, p.len), wantw = ref_break(om, way, q.len);
        CHECK_EQ(pf_grid_path_check(m, path, p.len, &cd), want);
        CHECK_EQ(pf_grid_path_check(m, way, q.len, &cd), wantw);
        rc->checks += 2;
        if (q.len < p.len) rc->waypoint++;
        if (want != PF_NODE_NONE) rc->broken++;
        /* a repair from a node before the break (or anywhere when nothing broke) */
        uint32_t at = want == PF_NODE_NONE ? rng_below(&rs, p.len) : rng_below(&rs, want + 1);
        pf_path o = {.nodes = out, .capacity = cap};
        pf_repair_info info;
        pf_status s = pf_path_repair(ctx, path, p.len, at, &d, &o, &info);
        double *dist = oracle_all(om, path[at], 0);
        const double best = dist[b];
        if (!pf_grid_class(om, (int32_t)(path[at] % w), (int32_t)(path[at] / w))) {
            CHECK_EQ(s, PF_INVALID_START);
        } else if (!pf_grid_class(om, (int32_t)(b % w), (int32_t)(b / w))) {
            CHECK_EQ(s, PF_INVALID_GOAL);
        } else if (!isfinite(best)) {
            CHECK_EQ(s, PF_NO_PATH);
        } else {
            CHECK_EQ(s, PF_OK);
            CHECK_EQ(out[0], path[at]);
            CHECK_EQ(out[o.len - 1], b);
            double got = oracle_path_cost(om, out, o.len);
            CHECK(isfinite(got));
            CHECK(got >= best - 1e-6);
            if (only_closed) CHECK(got <= best + info.bound + 1e-6 * (1.0 + best));
            if (want != PF_NODE_NONE) rc->repaired++;
        }
        free(dist);
        pf_map_destroy(om);
        /* the next round starts from the edited map's own paths */
    }
    free(path);
    free(way);
    free(out);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
    free(costs);
    free(cells);
}

static void test_check_and_repair(void **state)
{
    (void)state;
    repair_counts rc = {0};
    if (!each_seed(0xbe7a0000ull, (uint32_t)(300 * env_scale()), repair_map, &rc, NULL)) return;
    print_message("%u checks, %u broken, %u repaired, %u waypoint paths shorter\n", rc.checks, rc.broken, rc.repaired,
                  rc.waypoint);
    assert_true(rc.checks > 2000 * env_scale());
    assert_true(rc.broken > rc.checks / 20);
    assert_true(rc.repaired > 100 * env_scale());
    assert_true(rc.waypoint > rc.checks / 8);
}

/* Flow fields of a movement type: every cell's cost to the goal is the oracle's (its map is
 * symmetric in moves, and a field charges the cell a forward step enters, so the oracle's tree
 * from the goal, read with each step's price at its far end, is the same: checked through
 * pf_search from each cell instead, which the first test holds to the oracle), each direction
 * leads one step on, and a batch's field with a filter equals pf_flow_build's. Hex grids too. */
static void flow_map(uint64_t seed, void *user)
{
    uint32_t *cells_checked = user;
    uint64_t rs = seed;
    cur_seed = seed;
    static const pf_moves RULES[] = {PF_MOVES_8_NO_CUT, PF_MOVES_4, PF_MOVES_8_CUT, PF_MOVES_HEX};
    uint32_t w = 8 + rng_below(&rs, 16), h = 8 + rng_below(&rs, 12);
    pf_moves mv = RULES[rng_below(&rs, 4)];
    uint8_t *cells;
    float *costs;
    pf_map *m = random_map(&rs, w, h, mv, 2, &cells, &costs);
    pf_ctx *fc = NULL, *sc = NULL;
    CHECK_EQ(pf_ctx_create(m, NULL, &fc), PF_OK);
    CHECK_EQ(pf_ctx_create(m, NULL, &sc), PF_OK);
    for (int t = 0; t < 3; t++) {
        pf_move_filter f;
        filter_random(&rs, &f, 0);
        const uint32_t K = mv == PF_MOVES_HEX ? 1 : 1 + rng_below(&rs, 3);
        uint32_t g = standing_cell(cells, w, h, &f, K, &rs);
        if (g == PF_NODE_NONE) continue;
        pf_flow_desc fd = {.unit_size = K, .filter = &f};
        CHECK_EQ(pf_flow_build(fc, g, &fd), PF_OK);
        for (uint32_t i = 0; i < w * h; i++) {
            double fcost = pf_flow_cost(fc, i);
            pf_stats st;
            pf_status s = pf_search(sc, i, g, &(pf_search_desc){.filter = &f, .unit_size = K}, NULL, &st);
            if (!stands(cells, w, h, &f, K, i % w, i / w)) {
                CHECK_EQ(s, PF_INVALID_START);
                CHECK(!isfinite(fcost));
                continue;
            }
            (*cells_checked)++;
            if (s == PF_NO_PATH) {
                CHECK(!isfinite(fcost));
                CHECK_EQ(pf_flow_dir(fc, i), PF_FLOW_NONE);
                continue;
            }
            CHECK_EQ(s, PF_OK);
            if (!near_eq(fcost, st.cost))
                fail_msg("seed %llu: size %u cell %u field %.9f, search %.9f", (unsigned long long)seed, K, i, fcost, st.cost);
            if (i == g) continue;
            /* the direction: one legal step to a cell whose cost plus the step's price is this one's */
            uint32_t nx = pf_flow_next(fc, i);
            CHECK(nx != PF_NODE_NONE);
            uint32_t leg[2] = {i, nx};
            pf_map *om = NULL;
            if (mv != PF_MOVES_HEX) {
                om = oracle_map(cells, costs, w, h, mv, &f, K);
                CHECK(near_eq(oracle_path_cost(om, leg, 2) + pf_flow_cost(fc, nx), fcost));
                pf_map_destroy(om);
            } else {
                CHECK(near_eq(oracle_path_cost_filter(m, leg, 2, &f) + pf_flow_cost(fc, nx), fcost));
            }
        }
        /* the same field through a batch */
        pf_batch *b = NULL;
        CHECK_EQ(pf_batch_create(m, &(pf_batch_desc){.workers = 1}, &b), PF_OK);
        pf_query_id id;
        pf_batch_query q = {.goal = g, .flags = PF_QUERY_FLOW, .search = {.filter = &f, .unit_size = K}};
        CHECK_EQ(pf_batch_submit(b, &q, &id), PF_OK);
        CHECK_EQ(pf_batch_run(b, NULL), PF_OK);
        pf_batch_result r;
        CHECK_EQ(pf_batch_get(b, id, &r), PF_OK);
        CHECK_EQ(r.status, PF_OK);
        uint8_t *dirs = malloc((size_t)w * h);
        CHECK_EQ(pf_flow_export(fc, dirs, (size_t)w * h), PF_OK);
        CHECK(r.field != NULL);
        CHECK(memcmp(r.field, dirs, (size_t)w * h) == 0);
        free(dirs);
        pf_batch_destroy(b);
    }
    pf_ctx_destroy(fc);
    pf_ctx_destroy(sc);
    pf_map_destroy(m);
    free(costs);
    free(cells);
}

static void test_flow_fields(void **state)
{
    (void)state;
    uint32_t checked = 0;
    if (!each_seed(0xf10e0000ull, (uint32_t)(60 * env_scale()), flow_map, &checked, NULL)) return;
    print_message("%u cells checked\n", checked);
    assert_true(checked > 5000 * env_scale());
}

/* Squads with options: on random maps, squads of 4 to 8 units ordered to one goal, each squad with
 * its own options drawn from movement filters (two filter objects, so squads of one type share a
 * filter as a game's units would), sizes 1..3, A* / Dijkstra / JPS / AUTO, waypoints, partial goals
 * (some on walls) and max_cost (some below the members' costs): every squad whose endpoints the
 * unit can stand on is one group (GROUPED, one group search each), and every member's answer
 * (status, cost, path end, path cost) is a single pf_search's with the same options. Run for 1 and
 * 2 workers, whose answers must be identical. */
static uint32_t squads_map(uint64_t seed, uint32_t workers, double *sum_out)
{
    uint64_t rs = seed;
    cur_seed = seed;
    static const pf_moves RULES[] = {PF_MOVES_8_NO_CUT, PF_MOVES_4, PF_MOVES_8_CUT};
    uint32_t w = 24 + rng_below(&rs, 20), h = 20 + rng_below(&rs, 16);
    pf_moves mv = RULES[rng_below(&rs, 3)];
    uint8_t *cells;
    float *costs;
    pf_map *m = random_map(&rs, w, h, mv, 3, &cells, &costs);
    pf_ctx *ctx = NULL;
    CHECK_EQ(pf_ctx_create(m, NULL, &ctx), PF_OK);
    pf_move_filter types[2];
    filter_random(&rs, &types[0], 0);
    filter_random(&rs, &types[1], 0);
    enum { SQ = 10, MAXN = 8 };
    pf_batch_query q[SQ][MAXN];
    pf_query_id id[SQ][MAXN];
    uint32_t n[SQ], expect_grouped = 0, squads_grouped = 0;
    int whole[SQ]; /* a filtered squad whose units all stand where they are ordered: one group */
    pf_batch *b = NULL;
    CHECK_EQ(pf_batch_create(m, &(pf_batch_desc){.workers = workers}, &b), PF_OK);
    static const pf_algo ALGOS[] = {PF_ALGO_ASTAR, PF_ALGO_DIJKSTRA, PF_ALGO_JPS, PF_ALGO_AUTO};
    for (uint32_t sq = 0; sq < SQ; sq++) {
        pf_search_desc d = {.algo = ALGOS[rng_below(&rs, 4)], .unit_size = 1 + rng_below(&rs, 3),
                            .waypoints = rng_below(&rs, 4) == 0, .partial = rng_below(&rs, 3) == 0};
        if (rng_below(&rs, 4) != 0) d.filter = &types[rng_below(&rs, 2)];
        if (rng_below(&rs, 4) == 0) d.max_cost = 4.0 + rng_below(&rs, 30);
        pf_move_filter any = {0};
        if (!d.filter) pf_move_filter_allow(&any, 1, 0.0f); /* unfiltered squads stand on ground */
        const pf_move_filter *sf = d.filter ? d.filter : &any;
        uint32_t goal = standing_cell(cells, w, h, sf, d.unit_size, &rs);
        if (d.partial && rng_below(&rs, 2) == 0) goal = rng_below(&rs, w * h); /* anywhere, walls included */
        if (goal == PF_NODE_NONE) goal = 0;
        n[sq] = 4 + rng_below(&rs, MAXN - 3);
        int all_stand = stands(cells, w, h, sf, d.unit_size, goal % w, goal / w);
        for (uint32_t i = 0; i < n[sq]; i++) {
            uint32_t st = standing_cell(cells, w, h, sf, d.unit_size, &rs);
            if (st == PF_NODE_NONE) st = 0;
            for (uint32_t k = 0; k < i; k++) /* distinct starts: duplicates would be merged, not grouped */
                if (q[sq][k].start == st) {
                    st = (st + 1) % (w * h);
                    k = (uint32_t)-1;
                }
            all_stand &= stands(cells, w, h, sf, d.unit_size, st % w, st / w);
            q[sq][i] = (pf_batch_query){.start = st, .goal = goal, .search = d, .tag = sq * MAXN + i};
            CHECK_EQ(pf_batch_submit(b, &q[sq][i], &id[sq][i]), PF_OK);
        }
        /* the groups a filter takes are decided by standing alone (no component labels for a type);
         * without one, by the class and the one-cell components as before */
        whole[sq] = d.filter && all_stand;
        if (whole[sq]) expect_grouped++;
    }
    CHECK_EQ(pf_batch_run(b, NULL), PF_OK);
    uint32_t *nodes = malloc((size_t)w * h * sizeof *nodes);
    double sum = 0.0;
    for (uint32_t sq = 0; sq < SQ; sq++) {
        uint32_t grouped = 0;
        for (uint32_t i = 0; i < n[sq]; i++) {
            pf_batch_result r;
            CHECK_EQ(pf_batch_get(b, id[sq][i], &r), PF_OK);
            pf_path p = {.nodes = nodes, .capacity = w * h};
            pf_stats st;
            pf_status ss = pf_search(ctx, q[sq][i].start, q[sq][i].goal, &q[sq][i].search, &p, &st);
            grouped += (r.flags & (PF_BATCH_RESULT_GROUPED | PF_BATCH_RESULT_DEDUPED)) != 0;
            if (r.status != ss)
                fail_msg("seed %llu squad %u unit %u: batch status %d, search %d", (unsigned long long)seed, sq, i, r.status, ss);
            if (ss != PF_OK && ss != PF_PARTIAL) continue;
            if (!near_eq(r.stats.cost, st.cost))
                fail_msg("seed %llu squad %u unit %u: batch cost %.9f, search %.9f", (unsigned long long)seed, sq, i,
                         r.stats.cost, st.cost);
            CHECK(r.path_len >= 1);
            CHECK_EQ(r.path[0], q[sq][i].start);
            CHECK_EQ(r.path[r.path_len - 1], nodes[p.len - 1]); /* a partial answer ends on the same cell */
            sum += r.stats.cost + r.path[r.path_len - 1];
        }
        if (whole[sq]) CHECK_EQ(grouped, n[sq]); /* its duplicates answered by their first */
        if (grouped) squads_grouped++;
    }
    CHECK(squads_grouped >= expect_grouped);
    CHECK(pf_batch_get_stats(b).groups >= expect_grouped);
    *sum_out = sum;
    free(nodes);
    pf_batch_destroy(b);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
    free(costs);
    free(cells);
    return squads_grouped;
}

static void test_squads(void **state)
{
    (void)state;
    const char *one = getenv("PF_TEST_SEED");
    uint32_t maps = one ? 1 : 120 * env_scale(), grouped = 0;
    for (uint32_t i = 0; i < maps; i++) {
        uint64_t seed = one ? strtoull(one, NULL, 10) : 0x5a0d0000ull + i;
        double s1 = 0.0, s2 = 0.0;
        grouped += squads_map(seed, 1, &s1);
        squads_map(seed, 2, &s2);
        CHECK(s1 == s2); /* the same answers for 1 and 2 workers */
    }
    print_message("%u squads grouped\n", grouped);
    if (!one) assert_true(grouped > maps * 3);
}

/* A click on a wall for a unit of a movement type (issue 27 item 1): on a 300x300 map of ground and
 * a lake, a hover tank of side 2 ordered onto a wall block 20 cells away gets the nearest position
 * it can reach by searching about that far, not the whole map; a static context (no labels) floods
 * and gives the same answer. */
static void test_wall_click(void **state)
{
    (void)state;
    const uint32_t w = 300, h = 300;
    uint8_t *cells = malloc((size_t)w * h);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) cells[y * w + x] = (x > 100 && x < 200 && y > 100 && y < 200) ? 2 : 1;
    for (uint32_t y = 40; y < 50; y++)
        for (uint32_t x = 60; x < 70; x++) cells[y * w + x] = 0; /* the wall block */
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = cells}, &m), PF_OK);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    pf_move_filter hover = {0};
    pf_move_filter_allow(&hover, 1, 0.0f);
    pf_move_filter_allow(&hover, 2, 1.5f);
    pf_search_desc d = {.filter = &hover, .unit_size = 2, .partial = 1};
    uint32_t a = pf_grid_node(m, 45, 45), g = pf_grid_node(m, 65, 45);
    pf_stats st, st2;
    uint32_t pn[400], pn2[400];
    pf_path p = {.nodes = pn, .capacity = 400}, p2 = {.nodes = pn2, .capacity = 400};
    for (int round = 0; round < 2; round++) { /* the second: labels made, the search alone */
        assert_int_equal(pf_search(ctx, a, g, &d, &p, &st), PF_PARTIAL);
        assert_true(st.expanded < 100);
    }
    /* below the wall (its block's top row at y 50), 5 away; beside it on the left would be 7 */
    assert_int_equal(pf_grid_point(m, pn[p.len - 1]).x, 65);
    assert_int_equal(pf_grid_point(m, pn[p.len - 1]).y, 50);
    size_t need = pf_ctx_estimate(m, NULL);
    void *mem = malloc(need);
    pf_ctx *sc;
    assert_int_equal(pf_ctx_init_static(mem, need, m, NULL, &sc), PF_OK);
    assert_int_equal(pf_search(sc, a, g, &d, &p2, &st2), PF_PARTIAL);
    assert_true(st2.expanded > 10000); /* it flooded */
    assert_int_equal(pn2[p2.len - 1], pn[p.len - 1]);
    assert_true(near_eq(st2.cost, st.cost));
    /* an edit that walls the unit in: the labels follow, the answer is where it stands */
    pf_grid_edit box[4] = {{.rect = {40, 40, 12, 1}, .cls = 0}, {.rect = {40, 51, 12, 1}, .cls = 0},
                           {.rect = {40, 40, 1, 12}, .cls = 0}, {.rect = {51, 40, 1, 12}, .cls = 0}};
    assert_int_equal(pf_grid_apply_edits(m, box, 4, NULL), PF_OK);
    assert_int_equal(pf_search(ctx, a, g, &d, &p, &st), PF_PARTIAL);
    assert_int_equal(pf_search(sc, a, g, &d, &p2, &st2), PF_PARTIAL);
    assert_int_equal(pn2[p2.len - 1], pn[p.len - 1]);
    assert_true(near_eq(st2.cost, st.cost));
    assert_int_equal(pf_grid_point(m, pn[p.len - 1]).x, 49);
    pf_ctx_destroy(sc);
    free(mem);
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
    /* without a filter, a 2x2 unit before a one-cell gap in a long wall: the goal beyond is in its
     * one-cell component but not in its own; its labels say so, and the nearest cell before the
     * wall is answered by searching that far, not the side of the map it is on */
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) cells[y * w + x] = x == 150 && y != 50 ? 0 : 1;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = cells}, &m), PF_OK);
    assert_int_equal(pf_ctx_create(m, NULL, &ctx), PF_OK);
    pf_search_desc d2 = {.unit_size = 2, .partial = 1};
    for (int round = 0; round < 2; round++) {
        assert_int_equal(pf_search(ctx, pf_grid_node(m, 140, 50), pf_grid_node(m, 160, 50), &d2, &p, &st), PF_PARTIAL);
        assert_true(st.expanded < 100);
    }
    assert_int_equal(pf_grid_point(m, pn[p.len - 1]).x, 148);
    assert_int_equal(pf_grid_point(m, pn[p.len - 1]).y, 50);
    assert_true(near_eq(st.cost, 8.0));
    pf_ctx_destroy(ctx);
    pf_map_destroy(m);
    free(cells);
}

/* Theta* under a filter whose allowed classes share one multiplier: on the map rewritten so that
 * the allowed classes are one class, Theta* of the same size without a filter finds the same
 * path, at the cost divided by that multiplier; a filter of two multipliers is refused. */
static void test_theta(void **state)
{
    (void)state;
    uint32_t compared = 0;
    const uint64_t maps = (uint64_t)(80 * env_scale());
    for (uint64_t seed = 0x7e7a0000ull; seed < 0x7e7a0000ull + maps; seed++) {
        uint64_t rs = seed;
        cur_seed = seed;
        static const pf_moves RULES[] = {PF_MOVES_8_NO_CUT, PF_MOVES_4, PF_MOVES_8_CUT};
        uint32_t w = 10 + rng_below(&rs, 24), h = 8 + rng_below(&rs, 20);
        pf_moves mv = RULES[rng_below(&rs, 3)];
        uint8_t *cells = malloc((size_t)w * h), *one = malloc((size_t)w * h);
        fill_cells(&rs, cells, w, h);
        pf_move_filter f;
        filter_random(&rs, &f, 0);
        const float mult = FILTER_MULTS[rng_below(&rs, FILTER_NMULTS)];
        for (uint32_t k = 1; k < 256; k++)
            if (filter_allows(&f, (uint8_t)k)) f.class_cost[k] = mult;
        for (size_t i = 0; i < (size_t)w * h; i++) one[i] = filter_allows(&f, cells[i]) ? 1 : 0;
        pf_map *m = NULL, *om = NULL;
        CHECK_EQ(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = cells}, &m), PF_OK);
        CHECK_EQ(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = one}, &om), PF_OK);
        pf_ctx *c = NULL, *oc = NULL;
        CHECK_EQ(pf_ctx_create(m, NULL, &c), PF_OK);
        CHECK_EQ(pf_ctx_create(om, NULL, &oc), PF_OK);
        uint32_t pa[1024], pb[1024];
        for (int q = 0; q < 8; q++) {
            const uint32_t K = 1 + rng_below(&rs, 3);
            uint32_t a = standing_cell(cells, w, h, &f, K, &rs), b = standing_cell(cells, w, h, &f, K, &rs);
            if (a == PF_NODE_NONE || b == PF_NODE_NONE) continue;
            pf_path p1 = {.nodes = pa, .capacity = 1024}, p2 = {.nodes = pb, .capacity = 1024};
            pf_stats s1, s2;
            pf_status r1 = pf_search(c, a, b, &(pf_search_desc){.algo = PF_ALGO_THETA, .filter = &f, .unit_size = K}, &p1, &s1);
            pf_status r2 = pf_search(oc, a, b, &(pf_search_desc){.algo = PF_ALGO_THETA, .unit_size = K}, &p2, &s2);
            CHECK_EQ(r1, r2);
            if (r1 != PF_OK) continue;
            const double fm = mult > 0.0f ? mult : 1.0;
            if (!near_eq(s1.cost, s2.cost * fm))
                fail_msg("seed %llu: size %u theta %.9f, on the rewritten map %.9f x %g", (unsigned long long)seed, K,
                         s1.cost, s2.cost, fm);
            CHECK_EQ(p1.len, p2.len);
            CHECK(memcmp(pa, pb, p1.len * sizeof *pa) == 0);
            CHECK_EQ(s1.expanded, s2.expanded);
            compared++;
        }
        pf_move_filter two = f;
        pf_move_filter_allow(&two, 1, 1.0f);
        pf_move_filter_allow(&two, 2, 2.0f);
        CHECK_EQ(pf_search(c, 0, 1, &(pf_search_desc){.algo = PF_ALGO_THETA, .filter = &two}, NULL, NULL), PF_UNSUPPORTED);
        pf_ctx_destroy(c);
        pf_ctx_destroy(oc);
        pf_map_destroy(m);
        pf_map_destroy(om);
        free(cells);
        free(one);
    }
    print_message("%u Theta* queries compared\n", compared);
    assert_true(compared > 200 * env_scale());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shore),
        cmocka_unit_test(test_wall_click),
        cmocka_unit_test(test_sizes_against_oracle),
        cmocka_unit_test(test_check_and_repair),
        cmocka_unit_test(test_flow_fields),
        cmocka_unit_test(test_squads),
        cmocka_unit_test(test_theta),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
