/* bench_frame.c - RTS frame simulation: each frame 500 short moves (optimal length <= 50) and 20
 * long queries on a 2000x2000 map, run as one pf_batch on 1..MAX_THREADS threads. Prints one JSON
 * object: queries/s and frame time p50/p99 per thread count, per-worker bytes per cell, RSS.
 *
 *     bench_frame [MAP [SHORT.scen [LONG.scen [FRAMES [MAX_THREADS [ALGO [PREP.pfa]]]]]]]
 *     defaults: ../shared/data/grids/random-2000-20.map, its -short.map.scen and .map.scen, 10, 2,
 *     astar. ALGO auto builds the map's accelerator first (its build time is build_s; the batch
 *     attaches it to every worker), or loads PREP.pfa (`pathfind prep`; load time in build_s), and
 *     runs every query as PF_ALGO_AUTO: A* for the short moves, the accelerator for the long ones.
 * Each batch is made with reserve.algos naming ALGO (pf_batch.h), so its first frame allocates
 * nothing for it; first_frame_ms is that frame, first_frame_ms_unreserved the first frame of a
 * batch made without the reservation (the per-context JPS and accelerator state then made, and a
 * JPS table built, inside it), measured once per thread count before the timed batch.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"

enum { NS = 500, NL = 20 };

/* One frame: reset, submit frame f's queries (the same for every thread count), run. Seconds. */
static double run_frame(pf_batch *b, const pf_map *map, const pf_scen *sh, const pf_scen *lo, uint32_t f, pf_algo algo)
{
    uint32_t nsh = pf_scen_count(sh), nlo = pf_scen_count(lo);
    double t0 = bench_wall_s();
    pf_batch_reset(b);
    for (uint32_t i = 0; i < NS + NL; i++) {
        const pf_scen_entry *e = i < NS ? pf_scen_get(sh, (f * NS + i) % nsh) : pf_scen_get(lo, (f * NL + i - NS) % nlo);
        pf_batch_query q = {.start = pf_grid_node(map, e->sx, e->sy), .goal = pf_grid_node(map, e->gx, e->gy),
                            .search = {.algo = algo}, .tag = i};
        pf_batch_submit(b, &q, NULL);
    }
    pf_batch_run(b, NULL);
    return bench_wall_s() - t0;
}

static double pct(const double *sorted, int n, double p)
{
    int i = (int)(p * (n - 1) + 0.5);
    return sorted[i < 0 ? 0 : (i >= n ? n - 1 : i)];
}

int main(int argc, char **argv)
{
    const char *mp = argc > 1 ? argv[1] : PF_SHARED_DATA "/grids/random-2000-20.map";
    const char *sp = argc > 2 ? argv[2] : PF_SHARED_DATA "/grids/random-2000-20-short.map.scen";
    const char *lp = argc > 3 ? argv[3] : PF_SHARED_DATA "/grids/random-2000-20.map.scen";
    int frames = argc > 4 ? atoi(argv[4]) : 10;
    int maxt = argc > 5 ? atoi(argv[5]) : 2;
    pf_algo algo = argc > 6 ? pf_algo_parse(argv[6]) : PF_ALGO_ASTAR;
    if (frames < 1) frames = 1;
    if (maxt < 1) maxt = 1;
    if (algo == PF_ALGO_UNKNOWN) {
        fprintf(stderr, "bench_frame: unknown algorithm '%s'\n", argv[6]);
        return 2;
    }
    pf_map *map;
    pf_scen *sh, *lo;
    pf_diag d;
    if (pf_grid_load_movingai(mp, NULL, &map, &d) != PF_OK || pf_scen_load(sp, NULL, &sh, &d) != PF_OK ||
        pf_scen_load(lp, NULL, &lo, &d) != PF_OK) {
        fprintf(stderr, "bench_frame: %s\n", d.msg);
        return 1;
    }
    pf_accel *acc = NULL;
    double build_s = 0.0;
    if (algo == PF_ALGO_AUTO) {
        double t0 = bench_wall_s();
        if (argc > 7 ? pf_accel_load(argv[7], map, NULL, &acc, &d) != PF_OK : pf_accel_create(map, NULL, &acc) != PF_OK) {
            fprintf(stderr, "bench_frame: cannot %s the accelerator%s%s\n", argc > 7 ? "load" : "build",
                    argc > 7 ? ": " : "", argc > 7 ? d.msg : "");
            return 1;
        }
        build_s = bench_wall_s() - t0;
    }
    double *ft = malloc((size_t)frames * sizeof *ft);
    long rss_before = bench_status_kb("VmRSS:");
    printf("{\"bench\":\"frame\",\"map\":\"%s\",\"algo\":\"%s\",\"build_s\":%.3f,\"frames\":%d,"
           "\"short_per_frame\":%u,\"long_per_frame\":%u,"
           "\"note\":\"2-core machine shared with other jobs: timings are noisy\",\"runs\":[",
           mp, pf_algo_name(algo), build_s, frames, NS, NL);
    double qps1 = 0.0;
    for (int t = 1; t <= maxt; t++) {
        double first_unreserved = 0.0, first = 0.0;
        pf_batch *b;
        for (int reserved = 0; reserved < 2; reserved++) {
            pf_batch_desc bd = {.workers = (uint32_t)t, .accel = acc};
            if (reserved) bd.reserve.algos = 1u << algo;
            if (pf_batch_create(map, &bd, &b) != PF_OK) return 1;
            if (!reserved) {
                first_unreserved = run_frame(b, map, sh, lo, 0, algo);
                pf_batch_destroy(b);
            }
        }
        double total = 0.0;
        for (int f = 0; f < frames; f++) {
            /* a frame = reset + submit + run; the same queries for every thread count */
            ft[f] = run_frame(b, map, sh, lo, (uint32_t)f, algo);
            if (f == 0) first = ft[f];
            total += ft[f];
        }
        /* each frame in order, before the sort: a slow frame is the same frame in every run when its
         * queries are the cause, a different one when the machine is */
        char order[4096];
        size_t ol = 0;
        for (int f = 0; f < frames && ol + 16 < sizeof order; f++)
            ol += (size_t)snprintf(order + ol, sizeof order - ol, "%s%.3f", f ? "," : "", ft[f] * 1e3);
        order[ol] = 0;
        pf_batch_stats st = pf_batch_get_stats(b);
        qsort(ft, (size_t)frames, sizeof *ft, bench_cmp_d);
        double qps = (double)(NS + NL) * frames / total;
        if (t == 1) qps1 = qps;
        long rss = bench_status_kb("VmRSS:");
        printf("%s{\"threads\":%d,\"queries_per_s\":%.1f,\"frame_ms_p50\":%.3f,\"frame_ms_p99\":%.3f,"
               "\"frame_ms_max\":%.3f,\"frame_ms\":[%s],\"first_frame_ms\":%.3f,\"first_frame_ms_unreserved\":%.3f,\"speedup\":%.3f,\"expanded\":%llu,\"unanswered\":%llu,"
               "\"batch_bytes\":%zu,\"rss_kb\":%ld}",
               t > 1 ? "," : "", t, qps, pct(ft, frames, 0.5) * 1e3, pct(ft, frames, 0.99) * 1e3,
               ft[frames - 1] * 1e3, order, first * 1e3, first_unreserved * 1e3, qps / qps1, (unsigned long long)st.expanded,
               (unsigned long long)(st.submitted - st.completed), pf_batch_mem_size(b), rss);
        pf_batch_destroy(b);
    }
    pf_ctx *c;
    if (pf_ctx_create(map, NULL, &c) != PF_OK) return 1;
    double cells = (double)pf_grid_width(map) * pf_grid_height(map);
    double padded = (double)(pf_grid_width(map) + 2) * (pf_grid_height(map) + 2);
    printf("],\"worker_bytes_per_cell\":%.2f,\"map_bytes\":%zu,\"rss_kb_at_start\":%ld,\"peak_rss_kb\":%ld}\n",
           (double)pf_ctx_bytes_per_node(c) * padded / cells, pf_map_mem_size(map), rss_before,
           bench_status_kb("VmHWM:"));
    pf_ctx_destroy(c);
    free(ft);
    pf_scen_destroy(sh);
    pf_scen_destroy(lo);
    pf_accel_destroy(acc);
    pf_map_destroy(map);
    return 0;
}
