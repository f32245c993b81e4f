/* test_scen_units.c - unit sizes on the shared benchmark maps: for K = 1..4, a scenario query for a
 * KxK unit (A*, and JPS, which runs A* for K > 1) answers exactly as the same query on the map
 * eroded by the rule of pf_search_desc.unit_size, built here cell by cell (a cell stays open when
 * the KxK block whose top-left cell it is lies on the map and is all of its class). A*: the same
 * status, cost, cells and, where a path exists, expansions; JPS: the same status and cost as JPS
 * on the eroded map. Every Moving AI file in ../shared/data/movingai and the 2000x2000 files.
 *
 * Sampling: every PF_SCEN_UNITS_STRIDE-th query (default: about 40 per Moving AI file and 6 per
 * 2000x2000 file, for each K); PF_SCEN_UNITS_STRIDE=1 runs them all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathfind.h"
#include "testutil.h"
#include "scen_run.h"

/* not PF_SCEN_STRIDE: CI's every-line preset sets that, and every line here is four sizes of
 * four searches (21 minutes for the Moving AI files alone on the 2-core machine) */
#define UNITS_STRIDE "PF_SCEN_UNITS_STRIDE"

typedef struct res {
    pf_status st;
    pf_stats  s;
    uint32_t  len;
} res;

static res one(pf_ctx *c, uint32_t s, uint32_t g, const pf_search_desc *d, uint32_t *cells, uint32_t cap)
{
    res r;
    pf_path p = {.nodes = cells, .capacity = cap};
    r.st = pf_search(c, s, g, d, &p, &r.s);
    r.len = p.len;
    return r;
}

static uint32_t run_file(const char *map_path, const char *scen_path, uint32_t want, uint32_t *checked)
{
    pf_map *m;
    pf_scen *sc;
    if (!scen_load_pair(map_path, scen_path, &m, &sc)) return 1;
    const uint32_t w = pf_grid_width(m), h = pf_grid_height(m), cap = w * h;
    uint8_t *cls = malloc(cap);
    assert_int_equal(pf_grid_read(m, (pf_rect){0, 0, w, h}, cls, NULL), PF_OK);
    uint32_t *a = malloc((size_t)cap * sizeof *a), *b = malloc((size_t)cap * sizeof *b);
    pf_ctx *cm;
    assert_int_equal(pf_ctx_create(m, NULL, &cm), PF_OK);
    uint32_t n = pf_scen_count(sc), stride = scen_stride(UNITS_STRIDE, n, want), bad = 0, unreachable = 0, nostand = 0, found = 0;
    for (uint32_t K = 1; K <= 4; K++) {
        uint8_t *e = erode_cells(cls, w, h, K);
        pf_map *me;
        assert_int_equal(pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = e}, &me), PF_OK);
        pf_ctx *ce;
        assert_int_equal(pf_ctx_create(me, NULL, &ce), PF_OK);
        for (uint32_t i = (K * 7u) % stride; i < n; i += stride) {
            const pf_scen_entry *en = pf_scen_get(sc, i);
            uint32_t s = pf_grid_node(m, en->sx, en->sy), g = pf_grid_node(m, en->gx, en->gy);
            res x = one(cm, s, g, &(pf_search_desc){.unit_size = K}, a, cap);
            res y = one(ce, s, g, NULL, b, cap);
            int same = x.st == y.st && x.len == y.len && (x.st != PF_OK || fabs(x.s.cost - y.s.cost) < 1e-9) &&
                       memcmp(a, b, (size_t)x.len * sizeof *a) == 0 && (x.st != PF_OK || x.s.expanded == y.s.expanded);
            unreachable += x.st == PF_NO_PATH;
            nostand += x.st == PF_INVALID_START || x.st == PF_INVALID_GOAL;
            found += x.st == PF_OK;
            res xj = one(cm, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS, .unit_size = K}, a, cap);
            res yj = one(ce, s, g, &(pf_search_desc){.algo = PF_ALGO_JPS}, b, cap);
            same = same && xj.st == yj.st && (xj.st != PF_OK || fabs(xj.s.cost - yj.s.cost) < 1e-6);
            *checked += 2;
            if (!same) {
                if (bad < 5)
                    printf("%s line %u size %u: A* %s %.6f len %u exp %u vs eroded %s %.6f len %u exp %u; JPS %s %.6f vs "
                           "%s %.6f\n",
                           scen_path, i + 2, K, pf_status_name(x.st), x.s.cost, x.len, x.s.expanded,
                           pf_status_name(y.st), y.s.cost, y.len, y.s.expanded, pf_status_name(xj.st), xj.s.cost,
                           pf_status_name(yj.st), yj.s.cost);
                bad++;
            }
        }
        pf_ctx_destroy(ce);
        pf_map_destroy(me);
        free(e);
    }
    printf("%-48s sizes 1-4: %u queries each (stride %u), %u differences; %u paths, %u unreachable, %u where the "
           "unit cannot stand\n",
           scen_path, (n + stride - 1) / stride, stride, bad, found, unreachable, nostand);
    pf_ctx_destroy(cm);
    free(a);
    free(b);
    free(cls);
    pf_scen_destroy(sc);
    pf_map_destroy(m);
    return bad;
}

static void test_movingai(void **state)
{
    (void)state;
    const char *dir = PF_SHARED_DATA "/movingai";
    SKIP_IF_ABSENT(dir);
    scen_check_dir(dir, run_file, 40, "sized searches", "differences");
}

static void test_grids_2000(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        {"random-2000-20.map", "random-2000-20.map.scen"},
        {"rooms-2000.map", "rooms-2000.map.scen"},
        {"maze-2000-w4.map", "maze-2000-w4.map.scen"},
    };
    SKIP_IF_ABSENT(PF_SHARED_DATA "/grids");
    scen_check_grids(pairs, sizeof pairs / sizeof pairs[0], run_file, 6, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_movingai), cmocka_unit_test(test_grids_2000)};
    return RUN_TESTS(tests);
}
