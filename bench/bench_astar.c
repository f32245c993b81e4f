/* bench_astar.c - single-thread A* on Moving AI scenario files: us per query, expansions per second,
 * memory per cell. Prints one JSON object.
 *
 * usage: bench_astar [--algo NAME] [--reps N] MAP.map SCEN.scen [MAP SCEN ...]
 * Each file pair is loaded once, one context is created, then every scenario line is searched
 * `reps` times (best total kept, to shave noise on a shared machine).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"

int main(int argc, char **argv)
{
    pf_search_desc d = {0};
    int reps = 1, first = 1;
    while (first < argc && argv[first][0] == '-') {
        if (strcmp(argv[first], "--algo") == 0 && first + 1 < argc) {
            d.algo = pf_algo_parse(argv[first + 1]);
            if (d.algo == PF_ALGO_UNKNOWN) {
                fprintf(stderr, "bench_astar: unknown algorithm %s\n", argv[first + 1]);
                return 2;
            }
            if (d.algo == PF_ALGO_WASTAR) d.weight = 1.5;
            first += 2;
        } else if (strcmp(argv[first], "--reps") == 0 && first + 1 < argc) {
            reps = atoi(argv[first + 1]);
            if (reps < 1) reps = 1;
            first += 2;
        } else {
            fprintf(stderr, "usage: bench_astar [--algo NAME] [--reps N] MAP.map SCEN.scen ...\n");
            return 2;
        }
    }
    if (first >= argc || (argc - first) % 2) {
        fprintf(stderr, "usage: bench_astar [--algo NAME] [--reps N] MAP.map SCEN.scen ...\n");
        return 2;
    }
    printf("{\"bench\":\"astar\",\"algo\":\"%s\",\"reps\":%d,\"results\":[", pf_algo_name(d.algo ? d.algo : PF_ALGO_ASTAR), reps);
    int rc = 0;
    for (int i = first; i < argc; i += 2) {
        pf_map *map;
        pf_scen *sc;
        pf_diag diag;
        if (pf_grid_load_movingai(argv[i], NULL, &map, &diag) != PF_OK) {
            fprintf(stderr, "bench_astar: %s\n", diag.msg);
            return 1;
        }
        if (pf_scen_load(argv[i + 1], NULL, &sc, &diag) != PF_OK) {
            fprintf(stderr, "bench_astar: %s\n", diag.msg);
            return 1;
        }
        pf_ctx *ctx;
        if (pf_ctx_create(map, NULL, &ctx) != PF_OK) return 1;
        uint32_t n = pf_scen_count(sc), mism = 0;
        uint64_t exp = 0, pushed = 0;
        double best = INFINITY, len_sum = 0;
        for (int r = 0; r < reps; r++) {
            exp = pushed = 0;
            mism = 0;
            len_sum = 0;
            double total = 0;
            for (uint32_t q = 0; q < n; q++) {
                const pf_scen_entry *e = pf_scen_get(sc, q);
                pf_stats st;
                double t0 = bench_wall_s();
                pf_status s = pf_search(ctx, pf_grid_node(map, e->sx, e->sy), pf_grid_node(map, e->gx, e->gy), &d,
                                        NULL, &st);
                total += bench_wall_s() - t0;
                exp += st.expanded;
                pushed += st.pushed;
                len_sum += e->optimal;
                if (s != PF_OK || (d.algo != PF_ALGO_WASTAR && d.algo != PF_ALGO_GREEDY &&
                                                         d.algo != PF_ALGO_BFS && fabs(st.cost - e->optimal) > PF_SCEN_TOLERANCE))
                    mism++;
            }
            if (total < best) best = total;
        }
        uint32_t cells = pf_grid_width(map) * pf_grid_height(map);
        printf("%s{\"map\":\"%s\",\"scen\":\"%s\",\"queries\":%u,\"mismatches\":%u,\"mean_optimal\":%.1f,"
               "\"us_per_query\":%.2f,\"expanded_per_query\":%.0f,\"pushed_per_query\":%.0f,"
               "\"mexp_per_s\":%.2f,\"record_bytes_per_cell\":%.2f,\"ctx_bytes_per_cell\":%.2f}",
               i == first ? "" : ",", argv[i], argv[i + 1], n, mism, n ? len_sum / n : 0, n ? best * 1e6 / n : 0,
               n ? (double)exp / n : 0, n ? (double)pushed / n : 0, best > 0 ? (double)exp / best / 1e6 : 0,
               (double)pf_ctx_bytes_per_node(ctx), (double)pf_ctx_mem_size(ctx) / cells);
        rc |= mism != 0;
        pf_ctx_destroy(ctx);
        pf_scen_destroy(sc);
        pf_map_destroy(map);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("],\"peak_rss_kb\":%ld}\n", ru.ru_maxrss);
    return rc;
}
