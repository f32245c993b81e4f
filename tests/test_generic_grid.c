/* test_generic_grid.c - the generic A* on a grid domain (states = cells of a Moving AI map) returns
 * the same costs as the core grid A* (pf_search) and the scenario file, on sampled queries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "testutil.h"
#include "maps.h"

#define SQRT2 1.4142135623730951

typedef struct grid_dom {
    const pf_map *map;
    int32_t gx, gy;
} grid_dom;

/* The Moving AI rule as pf_grid.h states it: 8 moves, steps only between cells of one terrain
 * class, a diagonal needs both side cells passable (same class). */
static void gd_succ(const void *s, pf_gen_sink *out, void *u)
{
    const grid_dom *d = u;
    int32_t p[2];
    memcpy(p, s, 8);
    uint8_t k = pf_grid_class(d->map, p[0], p[1]);
    static const int32_t DX[8] = {0, 1, 0, -1, 1, 1, -1, -1}, DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
    for (uint32_t a = 0; a < 8; a++) {
        int32_t q[2] = {p[0] + DX[a], p[1] + DY[a]};
        if (pf_grid_class(d->map, q[0], q[1]) != k) continue;
        if (a >= 4 && (pf_grid_class(d->map, q[0], p[1]) != k || pf_grid_class(d->map, p[0], q[1]) != k)) continue;
        pf_gen_push(out, q, a < 4 ? 1.0 : SQRT2, a);
    }
}
static double gd_h(const void *s, void *u)
{
    const grid_dom *d = u;
    int32_t p[2];
    memcpy(p, s, 8);
    double ax = fabs((double)(p[0] - d->gx)), ay = fabs((double)(p[1] - d->gy));
    return ax > ay ? ax + (SQRT2 - 1) * ay : ay + (SQRT2 - 1) * ax;
}
static int gd_goal(const void *s, void *u)
{
    const grid_dom *d = u;
    int32_t p[2];
    memcpy(p, s, 8);
    return p[0] == d->gx && p[1] == d->gy;
}

static void run_map(const char *name, int samples)
{
    char mp[512], sp[512];
    snprintf(mp, sizeof mp, "%s/movingai/%s", PF_SHARED_DATA, name);
    snprintf(sp, sizeof sp, "%s/movingai/%s.scen", PF_SHARED_DATA, name);
    SKIP_IF_ABSENT(mp);
    SKIP_IF_ABSENT(sp);
    pf_map *map;
    pf_scen *scen;
    pf_diag diag;
    map = grid_load(mp);
    if (pf_scen_load(sp, NULL, &scen, &diag) != PF_OK) fail_msg("%s", diag.msg);
    pf_ctx *core;
    assert_int_equal(pf_ctx_create(map, NULL, &core), PF_OK);
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    uint32_t n = pf_scen_count(scen), step = n / (uint32_t)samples + 1, checked = 0;
    for (uint32_t i = 0; i < n; i += step) {
        const pf_scen_entry *e = pf_scen_get(scen, i);
        grid_dom d = {map, e->gx, e->gy};
        pf_gen_problem p = {8, gd_succ, gd_h, gd_goal, &d};
        int32_t start[2] = {e->sx, e->sy};
        pf_gen_stats st;
        pf_stats cs;
        pf_status s = pf_gen_search(ctx, &p, start, NULL, NULL, &st);
        pf_status s2 = pf_search(core, pf_grid_node(map, e->sx, e->sy), pf_grid_node(map, e->gx, e->gy), NULL, NULL, &cs);
        assert_int_equal(s, PF_OK);
        assert_int_equal(s2, PF_OK);
        if (fabs(st.cost - cs.cost) > 1e-6 || fabs(st.cost - e->optimal) > PF_SCEN_TOLERANCE)
            print_error("%s #%u: generic %.6f core %.6f listed %.6f\n", name, i, st.cost, cs.cost, e->optimal);
        assert_true(fabs(st.cost - cs.cost) < 1e-6);
        assert_true(fabs(st.cost - e->optimal) < PF_SCEN_TOLERANCE);
        checked++;
    }
    print_message("%s: %u queries, generic A* == core A* == scenario\n", name, checked);
    assert_true(checked > 0);
    pf_gen_ctx_destroy(ctx);
    pf_ctx_destroy(core);
    pf_scen_destroy(scen);
    pf_map_destroy(map);
}

static int samples(int base)
{
    int n = (int)(base * env_scale());
    return n < 1 ? 1 : n;
}

static void test_arena(void **state)
{
    (void)state;
    run_map("arena.map", samples(1000));
}

static void test_den520d(void **state)
{
    (void)state;
    run_map("den520d.map", samples(300));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_arena), cmocka_unit_test(test_den520d)};
    return RUN_TESTS(tests);
}
