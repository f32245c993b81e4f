/* test_scen_jps.c - JPS and JPS+ (and with PF_SCEN_AUTO=1 PF_ALGO_AUTO through the accelerator)
 * on every Moving AI scenario file in ../shared/data/movingai and the 2000x2000 files in
 * ../shared/data/grids: zero cost mismatches (PF_SCEN_TOLERANCE), every path a legal full-cell path
 * of the reported cost.
 *
 * Sampling: every PF_SCEN_STRIDE-th query (default: enough to keep about 400 queries per Moving AI
 * file and 20 per 2000x2000 file); PF_SCEN_STRIDE=1 runs them all. */
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
#include "oracle.h"
#include "testutil.h"
#include "scen_run.h"

/* Lines run and, of those, where JPS+ expanded or pushed other than JPS did: the sign that it
 * jumped by its table's distances (without them it runs JPS's scans, step for step). Counted
 * over a case, not a file: in maze512-1-0's one-cell corridors both search alike. */
static uint32_t g_lines, g_differ;

static void check_differ(void)
{
    printf("JPS+ searched unlike JPS on %u of %u lines\n", g_differ, g_lines);
    assert_true(g_differ * 2 > g_lines);
}

/* Runs one map/scenario pair; returns the number of mismatches (printed). */
static uint32_t run_file(const char *map_path, const char *scen_path, uint32_t want, uint32_t *checked)
{
    pf_map *m;
    pf_scen *sc;
    if (!scen_load_pair(map_path, scen_path, &m, &sc)) return 1;
    pf_jps_table *t;
    assert_int_equal(pf_jps_table_create(m, NULL, &t), PF_OK);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_jps_table(c, t), PF_OK);
    /* PF_SCEN_AUTO=1 (CI's every-line run): PF_ALGO_AUTO too, through the accelerator built here
     * (seconds on a 2000x2000 map in a Release build, so not in the sampled and sanitizer runs) */
    const char *ae = getenv("PF_SCEN_AUTO");
    pf_accel *acc = NULL;
    int nalgo = 2;
    if (ae && atoi(ae) > 0 && pf_accel_supported(m)) {
        assert_int_equal(pf_accel_create(m, NULL, &acc), PF_OK);
        assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
        nalgo = 3;
    }
    static const pf_algo algos[3] = {PF_ALGO_JPS, PF_ALGO_JPS_PLUS, PF_ALGO_AUTO};
    uint32_t cap = pf_map_node_count(m);
    uint32_t *cells = malloc((size_t)cap * sizeof *cells);
    uint32_t n = pf_scen_count(sc), stride = scen_stride("PF_SCEN_STRIDE", n, want), bad = 0, differ = 0;
    for (uint32_t i = 0; i < n; i += stride) {
        const pf_scen_entry *e = pf_scen_get(sc, i);
        uint32_t s = pf_grid_node(m, e->sx, e->sy), g = pf_grid_node(m, e->gx, e->gy);
        pf_stats st[3];
        for (int a = 0; a < nalgo; a++) {
            pf_path p = {.nodes = cells, .capacity = cap};
            pf_status r = pf_search(c, s, g, &(pf_search_desc){.algo = algos[a]}, &p, &st[a]);
            (*checked)++;
            /* JPS and JPS+ themselves: the A* they fall back to is exact too */
            int ok = r == PF_OK && fabs(st[a].cost - e->optimal) <= PF_SCEN_TOLERANCE &&
                     fabs(oracle_path_cost(m, cells, p.len) - st[a].cost) < 1e-6 && cells[0] == s &&
                     cells[p.len - 1] == g &&
                     (algos[a] == PF_ALGO_AUTO || (st[a].algo == algos[a] && !(st[a].detail & PF_DETAIL_FALLBACK)));
            if (!ok) {
                if (bad < 5)
                    printf("%s line %u %s: (%d,%d)->(%d,%d) status %s cost %.6f, listed %.6f, answered by %s detail %#x\n",
                           scen_path, i + 2, pf_algo_name(algos[a]), e->sx, e->sy, e->gx, e->gy, pf_status_name(r),
                           st[a].cost, e->optimal, pf_algo_name(st[a].algo), (unsigned)st[a].detail);
                bad++;
            }
        }
        differ += st[0].expanded != st[1].expanded || st[0].pushed != st[1].pushed;
    }
    uint32_t lines = (n + stride - 1) / stride;
    g_lines += lines;
    g_differ += differ;
    printf("%-60s %5u queries (stride %u), %u mismatches, %u where JPS+ searched unlike JPS, table %zu bytes%s\n",
           scen_path, lines, stride, bad, differ, pf_jps_table_mem_size(t), acc ? ", auto too" : "");
    free(cells);
    pf_ctx_destroy(c);
    pf_accel_destroy(acc);
    pf_jps_table_destroy(t);
    pf_scen_destroy(sc);
    pf_map_destroy(m);
    return bad;
}

static void test_movingai(void **state)
{
    (void)state;
    const char *dir = PF_SHARED_DATA "/movingai";
    SKIP_IF_ABSENT(dir);
    g_lines = g_differ = 0;
    scen_check_dir(dir, run_file, 400, "searches", "mismatches");
    check_differ();
}

static void test_grids_2000(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        {"random-2000-20.map", "random-2000-20.map.scen"}, {"random-2000-20.map", "random-2000-20-short.map.scen"},
        {"rooms-2000.map", "rooms-2000.map.scen"},         {"maze-2000-w4.map", "maze-2000-w4.map.scen"},
        {"random-256-20.map", "random-256-20-short.map.scen"},
    };
    SKIP_IF_ABSENT(PF_SHARED_DATA "/grids");
    g_lines = g_differ = 0;
    scen_check_grids(pairs, sizeof pairs / sizeof pairs[0], run_file, 20, 200);
    check_differ();
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_movingai), cmocka_unit_test(test_grids_2000)};
    return RUN_TESTS(tests);
}
