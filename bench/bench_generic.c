/* bench_generic.c - generic A* throughput: states expanded per second on a grid domain (states =
 * cells of a Moving AI map, 8 bytes each, found through the XXH3 table), next to the core grid A*
 * on the same queries for scale.
 *
 *   bench_generic [map name under movingai/ (default den520d.map)] [queries (default 200)]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"

#define SQRT2 1.4142135623730951

typedef struct grid_dom {
    const pf_map *map;
    int32_t gx, gy;
} grid_dom;

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

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "den520d.map";
    int want = argc > 2 ? atoi(argv[2]) : 200;
    char mp[512], sp[512];
    snprintf(mp, sizeof mp, "%s/movingai/%s", PF_SHARED_DATA, name);
    snprintf(sp, sizeof sp, "%s/movingai/%s.scen", PF_SHARED_DATA, name);
    pf_map *map;
    pf_scen *scen;
    if (pf_grid_load_movingai(mp, NULL, &map, NULL) != PF_OK || pf_scen_load(sp, NULL, &scen, NULL) != PF_OK) {
        fprintf(stderr, "cannot load %s\n", mp);
        return 1;
    }
    pf_gen_ctx *ctx;
    pf_ctx *core;
    if (pf_gen_ctx_create(NULL, &ctx) != PF_OK || pf_ctx_create(map, NULL, &core) != PF_OK) return 1;
    uint32_t n = pf_scen_count(scen), step = want > 0 && (uint32_t)want < n ? n / (uint32_t)want : 1;
    unsigned long long gexp = 0, cexp = 0;
    double gt = 0, ct = 0;
    int queries = 0, mismatches = 0;
    for (uint32_t i = 0; i < n && queries < want; i += step) {
        const pf_scen_entry *e = pf_scen_get(scen, i);
        grid_dom d = {map, e->gx, e->gy};
        pf_gen_problem p = {8, gd_succ, gd_h, gd_goal, &d};
        int32_t start[2] = {e->sx, e->sy};
        pf_gen_stats st;
        pf_stats cs;
        double t0 = bench_wall_s();
        pf_gen_search(ctx, &p, start, NULL, NULL, &st);
        double t1 = bench_wall_s();
        pf_search(core, pf_grid_node(map, e->sx, e->sy), pf_grid_node(map, e->gx, e->gy), NULL, NULL, &cs);
        double t2 = bench_wall_s();
        gt += t1 - t0;
        ct += t2 - t1;
        gexp += st.expanded;
        cexp += cs.expanded;
        mismatches += fabs(st.cost - cs.cost) > 1e-6;
        queries++;
    }
    printf("{\"bench\":\"generic\",\"map\":\"%s\",\"queries\":%d,\"mismatches\":%d,"
           "\"generic_astar\":{\"expanded\":%llu,\"seconds\":%.4f,\"expanded_per_s\":%.0f},"
           "\"core_astar\":{\"expanded\":%llu,\"seconds\":%.4f,\"expanded_per_s\":%.0f}}\n",
           name, queries, mismatches, gexp, gt, gt > 0 ? (double)gexp / gt : 0.0, cexp, ct,
           ct > 0 ? (double)cexp / ct : 0.0);
    pf_gen_ctx_destroy(ctx);
    pf_ctx_destroy(core);
    pf_scen_destroy(scen);
    pf_map_destroy(map);
    return mismatches != 0;
}
