/* bench_squads.c - squads of long `auto` moves on a map with its accelerator: time per unit in a
 * batch that groups them (a squad's members share the goal side of their queries) against the same
 * batch answering them unit by unit (PF_BATCH_NO_GROUPS), for squads of 8, 16 and 32 units.
 *
 * Each size: 256 units in squads standing in 24x24 boxes, each squad sent to one goal across the
 * map (at least half the map's width away: moves the accelerator answers), one batch run on
 * `workers` workers, best of 3 passes of each mode, in turn. Built against a library without squads
 * (before they were grouped) both modes answer unit by unit: run the two binaries alternately.
 *
 *     bench_squads MAP PREP.pfa [WORKERS [grouped|alone]]
 *
 * With a mode, one pass of that mode alone: for instruction counts (valgrind --tool=callgrind
 * --toggle-collect=bench_squads_run counts the batches' runs, not the loading).
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

static uint32_t cell_in(const pf_map *m, int32_t x0, int32_t y0, int32_t side, uint64_t *s)
{
    for (int tries = 0; tries < 100000; tries++) {
        int32_t x = x0 + (int32_t)(rng(s) % (uint32_t)side), y = y0 + (int32_t)(rng(s) % (uint32_t)side);
        if (pf_grid_class(m, x, y)) return pf_grid_node(m, x, y);
    }
    return PF_NODE_NONE;
}

enum { UNITS = 256 };

typedef struct res {
    double   s;         /* the run's wall time */
    uint32_t ok, grouped;
    double   cost_sum;
    uint64_t groups;
} res;

#if defined(__GNUC__)
__attribute__((noinline)) /* a symbol of its own for callgrind's --toggle-collect */
#endif
res bench_squads_run(const pf_map *m, const pf_accel *acc, const pf_batch_query *q, uint32_t workers, uint32_t flags);
res bench_squads_run(const pf_map *m, const pf_accel *acc, const pf_batch_query *q, uint32_t workers, uint32_t flags)
{
    res r = {0};
    pf_batch *b;
    if (pf_batch_create(m, &(pf_batch_desc){.workers = workers, .accel = acc, .flags = flags}, &b) != PF_OK) return r;
    pf_query_id id[UNITS];
    double t0 = bench_wall_s();
    for (uint32_t i = 0; i < UNITS; i++) pf_batch_submit(b, &q[i], &id[i]);
    pf_batch_run(b, NULL);
    r.s = bench_wall_s() - t0;
    for (uint32_t i = 0; i < UNITS; i++) {
        pf_batch_result br;
        if (pf_batch_get(b, id[i], &br) != PF_OK || br.status != PF_OK) continue;
        r.ok++;
        r.grouped += (br.flags & PF_BATCH_RESULT_GROUPED) != 0;
        r.cost_sum += br.stats.cost;
    }
    r.groups = pf_batch_get_stats(b).groups;
    pf_batch_destroy(b);
    return r;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_squads MAP PREP.pfa [WORKERS]\n");
        return 2;
    }
    uint32_t workers = argc > 3 ? (uint32_t)atoi(argv[3]) : 1u;
    const int only = argc > 4 ? (argv[4][0] == 'g' ? 1 : 2) : 0; /* 1 grouped, 2 alone, 0 both */
    pf_map *m;
    pf_accel *acc;
    pf_diag d;
    if (pf_grid_load_movingai(argv[1], NULL, &m, &d) != PF_OK || pf_accel_load(argv[2], m, NULL, &acc, &d) != PF_OK) {
        fprintf(stderr, "bench_squads: %s\n", d.msg);
        return 1;
    }
    const int32_t w = (int32_t)pf_grid_width(m), h = (int32_t)pf_grid_height(m);
    static const uint32_t sizes[] = {8, 16, 32};
    printf("{\"bench\":\"squads\",\"map\":\"%s\",\"workers\":%u,\"units\":%d,\"sizes\":[", argv[1], workers, UNITS);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const uint32_t size = sizes[k];
        uint64_t s = 2026 + size;
        pf_batch_query q[UNITS];
        for (uint32_t i = 0; i < UNITS; i += size) {
            /* a box anywhere; the goal at least half the map away from it on both axes */
            int32_t bx = (int32_t)(rng(&s) % (uint32_t)(w / 2 - 24)), by = (int32_t)(rng(&s) % (uint32_t)(h - 24));
            if (rng(&s) & 1u) bx += w / 2; /* the right half: the goal on the left */
            int32_t gx = bx < w / 2 ? w / 2 + (int32_t)(rng(&s) % (uint32_t)(w / 2 - 1)) : (int32_t)(rng(&s) % (uint32_t)(w / 2 - 24));
            uint32_t goal = cell_in(m, gx, (int32_t)(rng(&s) % (uint32_t)(h - 24)), 24, &s);
            for (uint32_t u = i; u < i + size && u < UNITS; u++)
                q[u] = (pf_batch_query){.start = cell_in(m, bx, by, 24, &s), .goal = goal, .tag = u,
                                        .search = {.algo = PF_ALGO_AUTO}};
        }
        res g = {0}, a = {0};
        for (int pass = 0; pass < (only ? 1 : 3); pass++) { /* in turn; the best of each */
            res rg = only == 2 ? g : bench_squads_run(m, acc, q, workers, 0);
            res ra = only == 1 ? a : bench_squads_run(m, acc, q, workers, PF_BATCH_NO_GROUPS);
            if (pass == 0 || rg.s < g.s) g = rg;
            if (pass == 0 || ra.s < a.s) a = ra;
        }
        printf("%s{\"size\":%u,\"squads\":%u,\"us_per_unit_grouped\":%.2f,\"us_per_unit_alone\":%.2f,\"ratio\":%.2f,"
               "\"answered\":%u,\"grouped\":%u,\"goal_sides_made\":%llu,\"cost_sum_grouped\":%.4f,\"cost_sum_alone\":%.4f}",
               k ? "," : "", size, UNITS / size, g.s * 1e6 / UNITS, a.s * 1e6 / UNITS, g.s > 0.0 ? a.s / g.s : 0.0, g.ok, g.grouped,
               (unsigned long long)g.groups, g.cost_sum, a.cost_sum);
    }
    printf("]}\n");
    pf_accel_destroy(acc);
    pf_map_destroy(m);
    return 0;
}
