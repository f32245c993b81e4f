/* test_scen_movingai.c - every .scen in PF_SHARED_DATA/movingai, solved with the benchmark's own
 * convention (8-connected, no corner cutting, octile costs, terrain classes), against the listed
 * optimal lengths: A* and Dijkstra with zero mismatches (|cost - listed| <= PF_SCEN_TOLERANCE),
 * weighted A* (w = 1.5) within its bound.
 *
 * Running every line takes minutes (maze512 alone ~60 s of A* in Release), so lines are sampled with
 * a stride: env PF_SCEN_STRIDE (A* and weighted A*; default 32 in optimised builds, about 25 s on
 * a loaded 2-core machine, and 96 in Debug/sanitizer builds) and PF_SCEN_DIJKSTRA_STRIDE (default
 * 8x the A* stride: Dijkstra explores far more). PF_SCEN_STRIDE=1 runs every line (CI Release).
 * The stride starts at a different offset per map so that repeated runs are reproducible. Skips with
 * a message when the data is absent. */
#define _POSIX_C_SOURCE 200809L /* opendir, strdup, clock_gettime */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "pathfind.h"
#include "testutil.h"
#include "maps.h"

#define DIR_MOVINGAI PF_SHARED_DATA "/movingai"

static uint32_t env_u32(const char *name, uint32_t def)
{
    const char *e = getenv(name);
    long v = e ? strtol(e, NULL, 10) : 0;
    return v > 0 ? (uint32_t)v : def;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted names of the .scen files, NULL-terminated; NULL when the directory is absent. */
static char **list_scen(void)
{
    DIR *d = opendir(DIR_MOVINGAI);
    if (!d) return NULL;
    char **names = calloc(256, sizeof *names);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 255) {
        size_t l = strlen(e->d_name);
        if (l > 5 && strcmp(e->d_name + l - 5, ".scen") == 0) names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    return names;
}

typedef struct algo_tally { long runs, mismatches; double secs; } algo_tally;

static void solve_file(const char *scen_name, uint32_t stride, uint32_t dstride, algo_tally t[3])
{
    char path[1024], map_path[1024];
    snprintf(path, sizeof path, "%s/%s", DIR_MOVINGAI, scen_name);
    /* the map beside the scenario: "X.map.scen" -> "X.map" (the name inside may be a path) */
    snprintf(map_path, sizeof map_path, "%s/%.*s", DIR_MOVINGAI, (int)(strlen(scen_name) - 5), scen_name);
    pf_diag diag;
    pf_scen *sc;
    pf_map *map;
    if (pf_scen_load(path, NULL, &sc, &diag) != PF_OK) fail_msg("%s", diag.msg);
    map = grid_load(map_path);
    pf_ctx *ctx;
    assert_int_equal(pf_ctx_create(map, NULL, &ctx), PF_OK);
    uint32_t n = pf_scen_count(sc), offset = (uint32_t)(strlen(scen_name) % stride);
    static const pf_search_desc descs[3] = {{.algo = PF_ALGO_ASTAR}, {.algo = PF_ALGO_DIJKSTRA},
                                            {.algo = PF_ALGO_WASTAR, .weight = 1.5}};
    long runs[3] = {0}, bad[3] = {0};
    double secs[3] = {0};
    for (uint32_t i = offset; i < n; i += stride) {
        const pf_scen_entry *e = pf_scen_get(sc, i);
        assert_int_equal(e->map_width, pf_grid_width(map));
        assert_int_equal(e->map_height, pf_grid_height(map));
        uint32_t s = pf_grid_node(map, e->sx, e->sy), g = pf_grid_node(map, e->gx, e->gy);
        for (int a = 0; a < 3; a++) {
            if (a == 1 && (i / stride) % (dstride / stride) != 0) continue;
            pf_stats st;
            double t0 = now();
            pf_status r = pf_search(ctx, s, g, &descs[a], NULL, &st);
            secs[a] += now() - t0;
            runs[a]++;
            int ok;
            if (a == 2) ok = r == PF_OK && st.cost <= 1.5 * e->optimal + PF_SCEN_TOLERANCE &&
                             st.cost >= e->optimal - PF_SCEN_TOLERANCE;
            else ok = r == PF_OK && fabs(st.cost - e->optimal) <= PF_SCEN_TOLERANCE;
            if (!ok) {
                if (bad[a] < 5)
                    print_message("MISMATCH %s line %u (%d,%d)->(%d,%d) %s: %s cost %.6f listed %.6f\n", scen_name,
                                  i + 2, e->sx, e->sy, e->gx, e->gy, pf_algo_name(descs[a].algo), pf_status_name(r),
                                  st.cost, e->optimal);
                bad[a]++;
            }
        }
    }
    print_message("%-24s %5u lines: astar %4ld in %6.2f s, dijkstra %4ld in %6.2f s, wastar %4ld in %6.2f s, "
                  "mismatches %ld/%ld/%ld\n",
                  scen_name, n, runs[0], secs[0], runs[1], secs[1], runs[2], secs[2], bad[0], bad[1], bad[2]);
    for (int a = 0; a < 3; a++) {
        t[a].runs += runs[a];
        t[a].mismatches += bad[a];
        t[a].secs += secs[a];
    }
    pf_ctx_destroy(ctx);
    pf_map_destroy(map);
    pf_scen_destroy(sc);
}

static void test_every_scenario_file(void **state)
{
    (void)state;
    SKIP_IF_ABSENT(DIR_MOVINGAI);
    char **names = list_scen();
    if (!names) fail_msg("cannot list %s", DIR_MOVINGAI);
    if (!names[0]) fail_msg("no .scen files in %s", DIR_MOVINGAI);
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
    uint32_t stride = env_u32("PF_SCEN_STRIDE", 32);
#else
    uint32_t stride = env_u32("PF_SCEN_STRIDE", 96); /* unoptimised or instrumented: ~4x slower */
#endif
    uint32_t dstride = env_u32("PF_SCEN_DIJKSTRA_STRIDE", 8 * stride);
    if (dstride < stride) dstride = stride;
    dstride = dstride / stride * stride; /* a multiple of the A* stride: Dijkstra samples its lines */
    print_message("stride %u (A*, weighted A*), %u (Dijkstra)\n", stride, dstride);
    algo_tally t[3] = {{0}};
    size_t files = 0;
    for (char **p = names; *p; p++, files++) solve_file(*p, stride, dstride, t);
    print_message("%zu files: astar %ld queries (%.2f s), dijkstra %ld (%.2f s), wastar %ld (%.2f s)\n", files,
                  t[0].runs, t[0].secs, t[1].runs, t[1].secs, t[2].runs, t[2].secs);
    for (char **p = names; *p; p++) free(*p);
    free(names);
    assert_true(files >= 1);
    assert_true(t[0].runs > 0 && t[1].runs > 0 && t[2].runs > 0);
    assert_int_equal(t[0].mismatches, 0);
    assert_int_equal(t[1].mismatches, 0);
    assert_int_equal(t[2].mismatches, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_scenario_file)};
    return RUN_TESTS(tests);
}
