/* test_repair.c - paths after edits (pf_repair.h) against references written apart from the library:
 * whether a path still holds is judged on the map rebuilt from the edited cells, eroded for the
 * unit's size (the oracle's step rule, oracle_path_cost, for grid steps; pf_grid_line_of_sight for
 * segments), and a repaired path is checked step by step, from the unit to the goal, against the
 * Dijkstra oracle's optimum and the bound it states. */
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

static uint8_t *make_cells(uint64_t *rs, uint32_t w, uint32_t h)
{
    uint8_t *c = malloc((size_t)w * h);
    memset(c, 1, (size_t)w * h);
    for (uint32_t r = 2 + rng_below(rs, (w * h) / 60 + 1); r > 0; r--) {
        uint32_t x0 = rng_below(rs, w), y0 = rng_below(rs, h), rw = 1 + rng_below(rs, 4), rh = 1 + rng_below(rs, 4);
        for (uint32_t y = y0; y < y0 + rh && y < h; y++)
            for (uint32_t x = x0; x < x0 + rw && x < w; x++) c[(size_t)y * w + x] = 0;
    }
    return c;
}

/* The reference: the first index where the unit (on map `me`, the edited cells eroded for its size)
 * cannot stand or cannot take the leg to the next node. */
static uint32_t ref_check(const pf_map *me, const pf_map *m, const uint32_t *p, uint32_t len, uint32_t K, int segments)
{
    uint32_t w = pf_grid_width(me);
    for (uint32_t i = 0; i < len; i++) {
        if (!pf_grid_class(me, (int32_t)(p[i] % w), (int32_t)(p[i] / w))) return i;
        if (i + 1 == len) break;
        /* a grid step by the rule (8cut: a diagonal past a corner), else a segment in line of sight */
        int ok = isfinite(oracle_path_cost(me, p + i, 2)) || (segments && pf_grid_line_of_sight(m, p[i], p[i + 1], K));
        if (!ok) return i;
    }
    return PF_NODE_NONE;
}

/* The reference for a waypoint path (pf_search_desc.waypoints) way[0..nway) of the grid path
 * p[0..len) it was made from (pos[i]: where way[i] lies in p): a leg holds when the unit can walk
 * the grid steps it stands for, or (square grids) the segment is in line of sight. */
static uint32_t ref_check_way(const pf_map *me, const pf_map *m, const uint32_t *p, const uint32_t *way,
                              const uint32_t *pos, uint32_t nway, uint32_t K)
{
    uint32_t w = pf_grid_width(me);
    for (uint32_t i = 0; i < nway; i++) {
        if (!pf_grid_class(me, (int32_t)(way[i] % w), (int32_t)(way[i] / w))) return i;
        if (i + 1 == nway) break;
        int ok = isfinite(oracle_path_cost(me, p + pos[i], pos[i + 1] - pos[i] + 1)) ||
                 (pf_grid_moves(m) != PF_MOVES_HEX && pf_grid_line_of_sight(m, way[i], way[i + 1], K));
        if (!ok) return i;
    }
    return PF_NODE_NONE;
}

static unsigned long long g_exp_repair, g_exp_whole;
static long g_way_checks, g_way_broken;

static void one_map(uint64_t seed, long *checks, long *broken, long *repaired)
{
    uint64_t rs = seed;
    uint32_t w = 8 + rng_below(&rs, 40), h = 8 + rng_below(&rs, 30);
    pf_moves mv = MOVES[rng_below(&rs, 4)];
    uint32_t K = mv == PF_MOVES_HEX ? 1 : 1 + (rng_below(&rs, 3) == 0);
    uint8_t *c = make_cells(&rs, w, h);
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = c}, &m), PF_OK);
    pf_ctx *cx;
    assert_int_equal(pf_ctx_create(m, NULL, &cx), PF_OK);
    uint32_t cap = w * h;
    uint32_t *path = malloc(cap * sizeof *path), *way = malloc(cap * sizeof *way), *out = malloc(cap * sizeof *out);
    uint32_t *pos = malloc(cap * sizeof *pos), *inpl = malloc(cap * sizeof *inpl);
    for (int q = 0; q < 12; q++) {
        uint32_t s = rng_below(&rs, w * h), g = rng_below(&rs, w * h);
        pf_path p = {.nodes = path, .capacity = cap};
        pf_stats st;
        if (pf_search(cx, s, g, &(pf_search_desc){.unit_size = K}, &p, &st) != PF_OK || p.len < 2) continue;
        uint32_t len = p.len, nway = 0;
        int segments = mv != PF_MOVES_HEX && rng_below(&rs, 2);
        /* or the same query's waypoint path: its turning points, each leg a run of one step (a
         * review: legs that cut corners on 8_CUT, and every hex leg, were read as broken) */
        int waypoints = !segments && rng_below(&rs, 2);
        if (segments) /* the smoothed path: waypoints joined by straight segments */
            assert_int_equal(pf_path_smooth(m, path, len, &(pf_smooth_desc){.unit_size = K}, way, cap, &nway, NULL), PF_OK);
        if (waypoints) {
            pf_path wp = {.nodes = way, .capacity = cap};
            assert_int_equal(pf_search(cx, s, g, &(pf_search_desc){.unit_size = K, .waypoints = 1}, &wp, NULL), PF_OK);
            nway = wp.len;
            for (uint32_t i = 0, j = 0; i < nway; i++) { /* where each turning point lies on the grid path */
                while (j < len && path[j] != way[i]) j++;
                assert_true(j < len);
                pos[i] = j;
            }
            assert_true(nway >= 2 && pos[nway - 1] == len - 1);
        }
        segments |= waypoints;
        const uint32_t *use = segments ? way : path;
        uint32_t ulen = segments ? nway : len;
        {
            uint32_t at0 = pf_grid_path_check(m, use, ulen, &(pf_path_check_desc){.unit_size = K});
            if (at0 != PF_NODE_NONE)
                fail_msg("seed %llu query %d (moves %d size %u %s): the path breaks at %u with no edit (%d,%d)->(%d,%d)",
                         (unsigned long long)seed, q, (int)mv, K, waypoints ? "waypoints" : segments ? "segments" : "steps",
                         at0, (int)(use[at0] % w), (int)(use[at0] / w), (int)(use[at0 + 1] % w), (int)(use[at0 + 1] / w));
        }
        /* a few walls, some of them on the path */
        uint8_t *c2 = malloc((size_t)w * h);
        memcpy(c2, c, (size_t)w * h);
        pf_grid_edit ed[3];
        uint32_t ne = 1 + rng_below(&rs, 3);
        for (uint32_t k = 0; k < ne; k++) {
            uint32_t at = k == 0 ? path[1 + rng_below(&rs, len - 1)] : rng_below(&rs, w * h);
            uint32_t x = at % w, y = at / w, rw = 1 + rng_below(&rs, 3), rh = 1 + rng_below(&rs, 3);
            if (x + rw > w) rw = w - x;
            if (y + rh > h) rh = h - y;
            ed[k] = (pf_grid_edit){.rect = {(int32_t)x, (int32_t)y, rw, rh}, .cls = 0};
            for (uint32_t yy = y; yy < y + rh; yy++)
                for (uint32_t xx = x; xx < x + rw; xx++) c2[(size_t)yy * w + xx] = 0;
        }
        assert_int_equal(pf_grid_apply_edits(m, ed, ne, NULL), PF_OK);
        uint8_t *e2 = erode_cells(c2, w, h, K);
        pf_map *me;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .moves = mv, .cells = e2}, &me), PF_OK);
        uint32_t got = pf_grid_path_check(m, use, ulen, &(pf_path_check_desc){.unit_size = K});
        uint32_t want = waypoints ? ref_check_way(me, m, path, way, pos, nway, K) : ref_check(me, m, use, ulen, K, segments);
        g_way_checks += waypoints;
        g_way_broken += waypoints && want != PF_NODE_NONE;
        if (got != want)
            fail_msg("seed %llu query %d (moves %d size %u %s): check %u, reference %u", (unsigned long long)seed, q, (int)mv,
                     K, segments ? "segments" : "steps", got, want);
        (*checks)++;
        if (got != PF_NODE_NONE && pf_grid_class(me, (int32_t)(use[0] % w), (int32_t)(use[0] / w))) {
            (*broken)++;
            /* the unit stands on the first node: repair from there */
            pf_path o = {.nodes = out, .capacity = cap};
            pf_repair_info info;
            pf_status r = pf_path_repair(cx, use, ulen, 0, &(pf_search_desc){.unit_size = K}, &o, &info);
            /* repaired in place (out->nodes the old path itself): the same answer (it was a path
             * that never reached the goal, from the stretch written over the old nodes) */
            memcpy(inpl, use, ulen * sizeof *use);
            pf_path oi = {.nodes = inpl, .capacity = cap};
            pf_repair_info ii;
            assert_int_equal(pf_path_repair(cx, inpl, ulen, 0, &(pf_search_desc){.unit_size = K}, &oi, &ii), r);
            if (r == PF_OK) {
                assert_int_equal(oi.len, o.len);
                assert_memory_equal(inpl, out, o.len * sizeof *out);
                assert_true(ii.bound == info.bound && ii.rejoin == info.rejoin && ii.broken == info.broken);
            } else {
                assert_memory_equal(inpl, use, ulen * sizeof *use); /* left as it was */
            }
            double opt = oracle_cost(me, use[0], use[ulen - 1]);
            if (r == PF_NO_PATH || r == PF_INVALID_GOAL) {
                assert_false(isfinite(opt) && pf_grid_class(me, (int32_t)(use[ulen - 1] % w), (int32_t)(use[ulen - 1] / w)));
            } else {
                assert_int_equal(r, PF_OK);
                assert_int_equal(info.broken, got);
                assert_true(o.len >= 2 && out[0] == use[0] && out[o.len - 1] == use[ulen - 1]);
                assert_int_equal(pf_grid_path_check(m, out, o.len, &(pf_path_check_desc){.unit_size = K}), PF_NODE_NONE);
                /* its cost: the searched stretch in grid steps, then the old legs */
                double cost = 0.0;
                for (uint32_t i = 0; i + 1 < o.len; i++) {
                    double step = oracle_path_cost(me, out + i, 2);
                    cost += isfinite(step) ? step : 0.0;
                    if (!isfinite(step)) { /* a segment */
                        double dx = (double)(out[i] % w) - (double)(out[i + 1] % w);
                        double dy = (double)(out[i] / w) - (double)(out[i + 1] / w);
                        cost += sqrt(dx * dx + dy * dy);
                    }
                }
                /* a waypoint path's kept legs cost their grid steps: the stretch searched, then the
                 * grid path from the rejoin point on */
                if (waypoints)
                    cost = info.stats.cost + oracle_path_cost(me, path + pos[info.rejoin], len - pos[info.rejoin]);
                if (!segments || waypoints) {
                    /* edits only blocked cells: within the stated bound of the optimum */
                    assert_true(cost <= opt + info.bound + 1e-9 * (1 + opt));
                }
                (*repaired)++;
                pf_stats ws; /* what a whole new query would have cost */
                assert_int_equal(pf_search(cx, use[0], use[ulen - 1], &(pf_search_desc){.unit_size = K}, NULL, &ws), PF_OK);
                g_exp_repair += info.stats.expanded;
                g_exp_whole += ws.expanded;
            }
        }
        /* put the cells back for the next query */
        for (uint32_t k = 0; k < ne; k++) ed[k].cls = 1;
        /* (cells that were walls before the edit go back to walls) */
        assert_int_equal(pf_grid_apply_edits(m, ed, ne, NULL), PF_OK);
        for (uint32_t k = 0; k < ne; k++)
            for (uint32_t yy = (uint32_t)ed[k].rect.y; yy < (uint32_t)ed[k].rect.y + ed[k].rect.h; yy++)
                for (uint32_t xx = (uint32_t)ed[k].rect.x; xx < (uint32_t)ed[k].rect.x + ed[k].rect.w; xx++)
                    if (!c[(size_t)yy * w + xx]) {
                        pf_grid_edit back = {.rect = {(int32_t)xx, (int32_t)yy, 1, 1}, .cls = 0};
                        assert_int_equal(pf_grid_apply_edits(m, &back, 1, NULL), PF_OK);
                    }
        pf_map_destroy(me);
        free(e2);
        free(c2);
    }
    free(path);
    free(way);
    free(out);
    free(pos);
    free(inpl);
    pf_ctx_destroy(cx);
    pf_map_destroy(m);
    free(c);
}

static void test_check_and_repair(void **state)
{
    (void)state;
    long checks = 0, broken = 0, repaired = 0;
    int maps = (int)(200 * env_scale());
    for (int i = 0; i < maps; i++) one_map(UINT64_C(0x2E9A12) + (uint64_t)i, &checks, &broken, &repaired);
    print_message("%ld paths checked after edits against the reference (%ld waypoint paths, %ld of them broken), %ld "
                  "broken, %ld repaired; expansions: %llu for the repairs, %llu for whole new queries\n",
                  checks, g_way_checks, g_way_broken, broken, repaired, g_exp_repair, g_exp_whole);
    assert_true(g_way_checks > maps / 2 && g_way_broken > maps / 8);
    /* about 9 checks, 8 broken and 6 repaired a map: the thresholds follow PF_TEST_SCALE */
    assert_true(checks > 2L * maps && broken > maps / 2 && repaired > maps / 4);
}

/* A 2x2 unit: a wall beside its path (not on the path's own cells) breaks it; a one-cell unit's
 * path through the same cells holds. A repair goes round and rejoins. */
static void test_sizes_and_rejoin(void **state)
{
    (void)state;
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 30, .height = 10}, &m), PF_OK);
    uint32_t path[29]; /* x 0..28: a 2x2 unit at x = 28 covers the last column */
    for (uint32_t x = 0; x < 29; x++) path[x] = pf_grid_node(m, (int32_t)x, 2);
    pf_grid_edit wall = {.rect = {15, 3, 1, 1}, .cls = 0}; /* under the 2x2 footprint at x = 14, 15 */
    assert_int_equal(pf_grid_apply_edits(m, &wall, 1, NULL), PF_OK);
    assert_int_equal(pf_grid_path_check(m, path, 29, NULL), PF_NODE_NONE);
    assert_int_equal(pf_grid_path_check(m, path, 29, &(pf_path_check_desc){.unit_size = 2}), 13); /* 13 -> 14 */
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    uint32_t out[64];
    pf_path o = {.nodes = out, .capacity = 64};
    pf_repair_info info;
    assert_int_equal(pf_path_repair(c, path, 29, 5, &(pf_search_desc){.unit_size = 2}, &o, &info), PF_OK);
    assert_int_equal(info.broken, 13);
    assert_int_equal(info.rejoin, 16); /* after the last node whose footprint holds the wall */
    assert_int_equal(out[0], path[5]);
    assert_int_equal(out[o.len - 1], path[28]);
    assert_int_equal(pf_grid_path_check(m, out, o.len, &(pf_path_check_desc){.unit_size = 2}), PF_NODE_NONE);
    assert_true(info.bound > 0.0 && info.bound < 2.0); /* one step up and one down: 2 (sqrt 2 - 1) */
    /* too small a buffer: the length needed */
    pf_path small = {.nodes = out, .capacity = 3};
    assert_int_equal(pf_path_repair(c, path, 29, 5, &(pf_search_desc){.unit_size = 2}, &small, &info), PF_BUFFER_TOO_SMALL);
    assert_int_equal(small.len, o.len);
    /* nothing broken: the path from the unit on */
    assert_int_equal(pf_path_repair(c, path, 29, 5, NULL, &o, &info), PF_OK);
    assert_int_equal(o.len, 24);
    assert_int_equal(info.broken, PF_NODE_NONE);
    /* walled off from where it rejoins, and so from the goal: no path */
    pf_grid_edit box = {.rect = {20, 0, 1, 10}, .cls = 0};
    assert_int_equal(pf_grid_apply_edits(m, &box, 1, NULL), PF_OK);
    assert_int_equal(pf_path_repair(c, path, 29, 5, NULL, &o, &info), PF_NO_PATH);
    /* misuse */
    assert_int_equal(pf_path_repair(NULL, path, 29, 0, NULL, &o, &info), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_path_repair(c, path, 29, 29, NULL, &o, &info), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_grid_path_check(NULL, path, 29, NULL), PF_NODE_NONE);
    uint32_t off[2] = {0, 4000000000u};
    assert_int_equal(pf_grid_path_check(m, off, 2, NULL), 0);
    pf_ctx_destroy(c);
    pf_map_destroy(m);
}

/* The goal turned to another class, or blocked: PF_INVALID_GOAL, as pf_repair.h says, and where the
 * path broke (a review: the search to the rejoin point answered PF_NO_PATH). A one-class unit
 * whose own cell changed class is refused when its filter says what it is. */
static void test_goal_changed(void **state)
{
    (void)state;
    uint8_t c[12] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2}; /* row 0 ground, row 1 water */
    pf_map *m;
    assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 6, .height = 2, .moves = PF_MOVES_4, .cells = c}, &m), PF_OK);
    pf_ctx *cx;
    assert_int_equal(pf_ctx_create(m, NULL, &cx), PF_OK);
    uint32_t n[8], out[16];
    pf_path p = {.nodes = n, .capacity = 8};
    assert_int_equal(pf_search(cx, 0, 5, NULL, &p, NULL), PF_OK);
    assert_int_equal(p.len, 6);
    pf_path o = {.nodes = out, .capacity = 16};
    pf_repair_info info;
    assert_int_equal(pf_grid_apply_edits(m, &(pf_grid_edit){.rect = {5, 0, 1, 1}, .cls = 2}, 1, NULL), PF_OK);
    assert_int_equal(pf_path_repair(cx, n, p.len, 0, NULL, &o, &info), PF_INVALID_GOAL);
    assert_int_equal(info.broken, 4); /* the step onto the goal */
    assert_int_equal(pf_grid_apply_edits(m, &(pf_grid_edit){.rect = {5, 0, 1, 1}, .cls = 0}, 1, NULL), PF_OK);
    assert_int_equal(pf_path_repair(cx, n, p.len, 0, NULL, &o, &info), PF_INVALID_GOAL);
    /* the unit's own cell flooded too: by its filter it is a ground unit standing on water */
    assert_int_equal(pf_grid_apply_edits(m, &(pf_grid_edit){.rect = {5, 0, 1, 1}, .cls = 2}, 1, NULL), PF_OK);
    assert_int_equal(pf_grid_apply_edits(m, &(pf_grid_edit){.rect = {0, 0, 1, 1}, .cls = 2}, 1, NULL), PF_OK);
    pf_move_filter ground = {0};
    pf_move_filter_allow(&ground, 1, 0.0f);
    assert_int_equal(pf_path_repair(cx, n, p.len, 0, &(pf_search_desc){.filter = &ground}, &o, &info), PF_INVALID_START);
    pf_ctx_destroy(cx);
    pf_map_destroy(m);
}

/* A desc the search refuses is refused by the repair with the search's status, not taken for a
 * unit that cannot stand (an engine re-places a stuck unit on PF_INVALID_START, hiding its own
 * bug): a size past PF_UNIT_SIZE_MAX, a size on a hex grid, a bad weight. */
static void test_refused_desc(void **state)
{
    (void)state;
    for (int hex = 0; hex <= 1; hex++) {
        uint8_t c[64];
        memset(c, 1, sizeof c);
        pf_map *m;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = 8, .height = 8, .cells = c,
                                                       .moves = hex ? PF_MOVES_HEX : PF_MOVES_8_NO_CUT},
                                        &m),
                         PF_OK);
        pf_ctx *cx;
        assert_int_equal(pf_ctx_create(m, NULL, &cx), PF_OK);
        uint32_t n[16], out[16];
        pf_path p = {.nodes = n, .capacity = 16}, o = {.nodes = out, .capacity = 16};
        assert_int_equal(pf_search(cx, 0, 54, NULL, &p, NULL), PF_OK);
        const pf_search_desc big = {.unit_size = PF_UNIT_SIZE_MAX + 1u}, two = {.unit_size = 2},
                             heavy = {.algo = PF_ALGO_WASTAR, .weight = -1.0};
        assert_int_equal(pf_search(cx, 0, 63, &big, &o, NULL), PF_INVALID_ARGUMENT);
        assert_int_equal(pf_path_repair(cx, n, p.len, 0, &big, &o, NULL), PF_INVALID_ARGUMENT);
        assert_int_equal(pf_search(cx, 0, 63, &heavy, &o, NULL), PF_INVALID_ARGUMENT);
        assert_int_equal(pf_path_repair(cx, n, p.len, 0, &heavy, &o, NULL), PF_INVALID_ARGUMENT);
        assert_int_equal(pf_path_repair(cx, n, p.len, 0, &two, &o, NULL), hex ? PF_UNSUPPORTED : PF_OK);
        pf_ctx_destroy(cx);
        pf_map_destroy(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_and_repair),
        cmocka_unit_test(test_sizes_and_rejoin),
        cmocka_unit_test(test_goal_changed),
        cmocka_unit_test(test_refused_desc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
