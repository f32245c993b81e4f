/* bench_group.c - the gains of group moves and deduplication, each as a ratio against solving the
 * queries one by one (same batch, PF_BATCH_NO_GROUPS | PF_BATCH_NO_DEDUP), on one worker.
 *
 * group: 200 units in a 20x20 area sent to one goal 1000 cells away (the case).
 * dedup: a frame of 500 short moves in which each of 100 distinct moves is ordered 5 times.
 *
 *     bench_group [MAP [SHORT.scen]]   defaults: ../shared/data/grids/random-2000-20.map, its -short scen
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"

static uint32_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static uint32_t box_cell(const pf_map *m, int32_t x0, int32_t y0, uint64_t *s)
{
    for (int tries = 0; tries < 100000; tries++) {
        int32_t x = x0 + (int32_t)(rng(s) % 20), y = y0 + (int32_t)(rng(s) % 20);
        if (pf_grid_class(m, x, y)) return pf_grid_node(m, x, y);
    }
    return PF_NODE_NONE;
}

typedef struct res { double s; uint64_t expanded; double cost_sum; uint32_t ok; } res;

static res run(const pf_map *m, const pf_batch_query *q, uint32_t n, uint32_t flags)
{
    pf_batch *b;
    res r = {0};
    if (pf_batch_create(m, &(pf_batch_desc){.workers = 1, .flags = flags}, &b) != PF_OK) return r;
    pf_query_id *id = malloc(n * sizeof *id);
    double t0 = bench_wall_s();
    for (uint32_t i = 0; i < n; i++) pf_batch_submit(b, &q[i], &id[i]);
    pf_batch_run(b, NULL);
    r.s = bench_wall_s() - t0;
    r.expanded = pf_batch_get_stats(b).expanded;
    for (uint32_t i = 0; i < n; i++) {
        pf_batch_result br;
        if (pf_batch_get(b, id[i], &br) == PF_OK && br.status == PF_OK) {
            r.ok++;
            r.cost_sum += br.stats.cost;
        }
    }
    free(id);
    pf_batch_destroy(b);
    return r;
}

int main(int argc, char **argv)
{
    const char *mp = argc > 1 ? argv[1] : PF_SHARED_DATA "/grids/random-2000-20.map";
    const char *sp = argc > 2 ? argv[2] : PF_SHARED_DATA "/grids/random-2000-20-short.map.scen";
    pf_map *m;
    pf_scen *sh;
    pf_diag d;
    if (pf_grid_load_movingai(mp, NULL, &m, &d) != PF_OK || pf_scen_load(sp, NULL, &sh, &d) != PF_OK) {
        fprintf(stderr, "bench_group: %s\n", d.msg);
        return 1;
    }
    /* group: units around (300..319, 1000..1019), goal in (1300..1319, 1000..1019); on other maps
     * the same places scaled to the map's size */
    uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    int32_t ux = (int32_t)(w * 3 / 20), gx = ux + (int32_t)(w / 2), y0 = (int32_t)(h / 2);
    uint64_t s = 2024;
    enum { UNITS = 200 };
    pf_batch_query gq[UNITS];
    uint32_t goal = box_cell(m, gx, y0, &s);
    for (uint32_t i = 0; i < UNITS; i++) gq[i] = (pf_batch_query){.start = box_cell(m, ux, y0, &s), .goal = goal, .tag = i};
    res grp = run(m, gq, UNITS, 0);
    res sep = run(m, gq, UNITS, PF_BATCH_NO_GROUPS | PF_BATCH_NO_DEDUP);

    enum { DISTINCT = 100, COPIES = 5 };
    pf_batch_query dq[DISTINCT * COPIES];
    for (uint32_t i = 0; i < DISTINCT * COPIES; i++) {
        const pf_scen_entry *e = pf_scen_get(sh, (i % DISTINCT) % pf_scen_count(sh));
        dq[i] = (pf_batch_query){.start = pf_grid_node(m, e->sx, e->sy), .goal = pf_grid_node(m, e->gx, e->gy), .tag = i};
    }
    res ded = run(m, dq, DISTINCT * COPIES, PF_BATCH_NO_GROUPS);
    res dsep = run(m, dq, DISTINCT * COPIES, PF_BATCH_NO_GROUPS | PF_BATCH_NO_DEDUP);

    printf("{\"bench\":\"group\",\"map\":\"%s\",\"note\":\"2-core machine shared with other jobs: timings are noisy\","
           "\"group\":{\"units\":%d,\"solved\":%u,\"group_s\":%.6f,\"separate_s\":%.6f,\"group_expanded\":%llu,"
           "\"separate_expanded\":%llu,\"ratio_time\":%.2f,\"ratio_expanded\":%.2f,\"cost_sum_group\":%.6f,"
           "\"cost_sum_separate\":%.6f},"
           "\"dedup\":{\"queries\":%d,\"distinct\":%d,\"dedup_s\":%.6f,\"separate_s\":%.6f,\"dedup_expanded\":%llu,"
           "\"separate_expanded\":%llu,\"ratio_time\":%.2f,\"ratio_expanded\":%.2f}}\n",
           mp, UNITS, grp.ok, grp.s, sep.s, (unsigned long long)grp.expanded, (unsigned long long)sep.expanded,
           sep.s / grp.s, (double)sep.expanded / (double)(grp.expanded ? grp.expanded : 1), grp.cost_sum, sep.cost_sum,
           DISTINCT * COPIES, DISTINCT, ded.s, dsep.s, (unsigned long long)ded.expanded,
           (unsigned long long)dsep.expanded, dsep.s / ded.s,
           (double)dsep.expanded / (double)(ded.expanded ? ded.expanded : 1));
    pf_scen_destroy(sh);
    pf_map_destroy(m);
    return 0;
}
