/* test_grid_moves.c - the grid move rule of map/grid_moves_internal.h, the one rule that the
 * searches, the component labels (map/components.c) and the accelerator (accel/) all read, checked
 * against the rule as pf_grid.h states it, written here apart from the library: a step enters a
 * cell of the start's class; a diagonal without corner cutting also needs both side cells of that
 * class; hex grids use the odd-r layout (odd rows shifted right).
 *
 * On random small grids with three terrain classes, for every rule and every cell: the moves of
 * pf__grid_moves_at; the neighbour each direction names (the map's offsets against pf__mv_dx,
 * pf__mv_dy); the direction-by-direction forms pf__grid_step_ok, pf__grid_diag_ok and
 * pf__grid_sides_open; the row-to-row reach pf__mv_up_reach the component labelling joins runs
 * by; and the canonical paths of the accelerator (pf__accel_cp_shape). PF_TEST_SEED replays a run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "pathfind.h"
#include "map/grid_moves_internal.h"
#include "accel/accel_internal.h"
#include "testutil.h"
#include "maps.h"

static uint64_t g_seed;
static char g_where[256];

/* pf_grid.h's directions: square N E S W NE SE SW NW; hex W E NW NE SW SE, x steps by row parity */
static const int SQ_DX[8] = {0, 1, 0, -1, 1, 1, -1, -1}, SQ_DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
static const int HEX_DY[6] = {0, 0, -1, -1, 1, 1};
static const int HEX_DX[2][6] = {{-1, 1, -1, 0, -1, 0}, {-1, 1, 0, 1, 0, 1}}; /* [row & 1] */

typedef struct grid {
    uint32_t w, h;
    uint8_t *cls;
} grid;

static int cls_at(const grid *g, int x, int y)
{
    if (x < 0 || y < 0 || x >= (int)g->w || y >= (int)g->h) return 0;
    return g->cls[(uint32_t)y * g->w + (uint32_t)x];
}

static int step_dx(pf_moves mv, int y, uint32_t d) { return mv == PF_MOVES_HEX ? HEX_DX[y & 1][d] : SQ_DX[d]; }
static int step_dy(pf_moves mv, uint32_t d) { return mv == PF_MOVES_HEX ? HEX_DY[d] : SQ_DY[d]; }

/* The rule as stated: may a walker on (x, y) step in direction d? */
static int legal(const grid *g, pf_moves mv, int x, int y, uint32_t d)
{
    int k = cls_at(g, x, y);
    if (!k || cls_at(g, x + step_dx(mv, y, d), y + step_dy(mv, d)) != k) return 0;
    if (mv == PF_MOVES_8_NO_CUT && d >= 4)
        return cls_at(g, x + SQ_DX[d], y) == k && cls_at(g, x, y + SQ_DY[d]) == k;
    return 1;
}

static pf_map *random_grid(uint64_t *rs, pf_moves mv, grid *g)
{
    g->w = 3 + rng_below(rs, 14);
    g->h = 3 + rng_below(rs, 14);
    g->cls = malloc((size_t)g->w * g->h);
    assert_non_null(g->cls);
    uint32_t wall = rng_below(rs, 50);
    for (uint32_t i = 0; i < g->w * g->h; i++)
        g->cls[i] = rng_below(rs, 100) < wall ? 0 : (uint8_t)(rng_below(rs, 6) ? 1 : 2 + rng_below(rs, 2));
    return grid_make(g->w, g->h, mv, g->cls, NULL);
}

static void check_map(const pf_map *m, const grid *g, pf_moves mv)
{
    const int MV = pf__mv_of(mv);
    const uint32_t ndir = pf__mv_dirs(MV);
    pf__grid_view v = pf__grid_view_of(m);
    PCHECK(ndir == (mv == PF_MOVES_4 ? 4u : mv == PF_MOVES_HEX ? 6u : 8u));
    for (uint32_t y = 0; y < g->h; y++)
        for (uint32_t x = 0; x < g->w; x++) {
            const uint32_t c = pf__grid_pad(m, y * g->w + x), py = c / m->pw;
            const uint32_t open = pf__grid_moves_at(m, c);
            const pf__unit u = {m->cls[c], 1};
            v.off = m->nb_off[py & 1u];
            snprintf(g_where, sizeof g_where, "rule %d, %ux%u grid, cell (%u, %u)", (int)mv, g->w, g->h, x, y);
            PCHECK(open >> ndir == 0);
            for (uint32_t d = 0; d < ndir; d++) {
                int nx = (int)x + step_dx(mv, (int)y, d), ny = (int)y + step_dy(mv, d);
                /* the direction's neighbour: the map's offset, and the rule's steps, as stated */
                PCHECK(pf__mv_dx(MV, py, d) == step_dx(mv, (int)y, d));
                PCHECK(pf__mv_dy(MV, d) == step_dy(mv, d));
                PCHECK((int64_t)c + m->nb_off[py & 1u][d] == (int64_t)(ny + 1) * m->pw + (nx + 1));
                PCHECK(((open >> d) & 1u) == (uint32_t)legal(g, mv, (int)x, (int)y, d));
                if (!u.k) continue;
                PCHECK(pf__grid_step_ok(&v, c, d, u, MV) == (int)((open >> d) & 1u));
                if (mv == PF_MOVES_HEX || d < 4) continue;
                int sides = cls_at(g, (int)x + SQ_DX[d], (int)y) == u.k && cls_at(g, (int)x, (int)y + SQ_DY[d]) == u.k;
                PCHECK(pf__grid_sides_open(&v, c, d, u) == sides);
                PCHECK(pf__grid_diag_ok(&v, c, d, u, 0) == legal(g, PF_MOVES_8_NO_CUT, (int)x, (int)y, d));
                PCHECK(pf__grid_diag_ok(&v, c, d, u, 1) == legal(g, PF_MOVES_8_CUT, (int)x, (int)y, d));
            }
        }
}

/* pf__mv_up_reach, against the steps that go up one row: the columns they reach, but for the
 * diagonals without corner cutting, which need both side cells and so add no connection that
 * straight steps do not make. */
static void check_up_reach(pf_moves mv)
{
    const int MV = pf__mv_of(mv);
    for (uint32_t py = 1; py <= 2; py++) { /* both parities: padded row py is layout row py - 1 */
        uint32_t lo, hi;
        pf__mv_up_reach(MV, py, &lo, &hi);
        const int r = (int)py - 1;
        int want_lo = 0, want_hi = 0;
        for (uint32_t d = 0; d < pf__mv_dirs(MV); d++) {
            if (step_dy(mv, d) != -1) continue;
            int dx = step_dx(mv, r, d);
            if (mv == PF_MOVES_8_NO_CUT && dx != 0) continue; /* needs its sides: a path of straight steps */
            if (-dx > want_lo) want_lo = -dx;
            if (dx > want_hi) want_hi = dx;
        }
        snprintf(g_where, sizeof g_where, "rule %d, padded row %u: reach [-%u, +%u]", (int)mv, py, lo, hi);
        PCHECK(lo == (uint32_t)want_lo && hi == (uint32_t)want_hi);
    }
}

/* The canonical path from -> to: min(|dx|, |dy|) diagonal steps towards `to`, then the rest
 * straight; it ends on `to`. */
static void check_cp_shape(const pf_map *m, uint64_t *rs)
{
    const uint32_t w = m->pw - 2u, h = m->ph - 2u;
    for (int i = 0; i < 200; i++) {
        uint32_t a = pf__grid_pad(m, rng_below(rs, w * h)), b = pf__grid_pad(m, rng_below(rs, w * h));
        int dx = (int)(b % m->pw) - (int)(a % m->pw), dy = (int)(b / m->pw) - (int)(a / m->pw);
        uint32_t ax = (uint32_t)abs(dx), ay = (uint32_t)abs(dy);
        pf__accel_cp p = pf__accel_cp_shape(m->pw, a, b);
        snprintf(g_where, sizeof g_where, "canonical path %u -> %u", a, b);
        PCHECK(p.nd == (ax < ay ? ax : ay) && p.nd + p.ns == (ax > ay ? ax : ay));
        PCHECK(p.dd >= 4 && p.dd < 8 && p.ds < 4);
        if (p.nd) PCHECK(SQ_DX[p.dd] == (dx > 0 ? 1 : -1) && SQ_DY[p.dd] == (dy > 0 ? 1 : -1));
        int64_t c = (int64_t)a + (int64_t)p.nd * m->nb_off[0][p.dd] + (int64_t)p.ns * m->nb_off[0][p.ds];
        PCHECK(c == (int64_t)b);
    }
}

static uint64_t base_seed(void)
{
    const char *e = getenv("PF_TEST_SEED");
    return e ? strtoull(e, NULL, 10) : 0;
}

static void run_rule(pf_moves mv)
{
    uint64_t fixed = base_seed();
    uint32_t maps = fixed ? 1u : (uint32_t)(60 * env_scale()) + 1u;
    check_up_reach(mv);
    for (uint32_t i = 0; i < maps; i++) {
        g_seed = fixed ? fixed : 100u * (uint64_t)mv + i + 1u;
        uint64_t rs = g_seed;
        grid g;
        pf_map *m = random_grid(&rs, mv, &g);
        check_map(m, &g, mv);
        if (mv != PF_MOVES_HEX) check_cp_shape(m, &rs);
        pf_map_destroy(m);
        free(g.cls);
    }
}

static void test_8_no_cut(void **state) { (void)state; run_rule(PF_MOVES_8_NO_CUT); }
static void test_8_cut(void **state) { (void)state; run_rule(PF_MOVES_8_CUT); }
static void test_4(void **state) { (void)state; run_rule(PF_MOVES_4); }
static void test_hex(void **state) { (void)state; run_rule(PF_MOVES_HEX); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_8_no_cut),
        cmocka_unit_test(test_8_cut),
        cmocka_unit_test(test_4),
        cmocka_unit_test(test_hex),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
