/* bench_cold.c - what a fresh context costs: its creation, and its first query against the same
 * query run again on it (warm), for each pre-faulting mode. Prints one JSON object.
 *
 * usage: bench_cold [--queries N] MAP.map SCEN.scen
 * For each of the first N scenario lines (default 200) and each mode, a context is created, the
 * line is searched twice, and the context is destroyed. Medians are reported: a first query that
 * meets unmapped records pays the page faults of what it touches (PF_PREFAULT_NONE: the batch's
 * spares), a pre-faulted context pays at creation instead. A second fresh context, made beside the
 * first, then runs the line too: its first query meets the map's cells in cache (the first
 * context's searches read them), so it shows what the context alone costs cold
 * (first_map_warm_us_p50), apart from the map's cache misses that any query in a new place pays.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"

static double median(double *v, uint32_t n)
{
    qsort(v, n, sizeof *v, bench_cmp_d);
    return n ? (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2])) : 0;
}

int main(int argc, char **argv)
{
    uint32_t want = 200;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--queries") == 0) {
        want = (uint32_t)strtoul(argv[2], NULL, 10);
        first = 3;
    }
    if (argc - first != 2 || want == 0) {
        fprintf(stderr, "usage: bench_cold [--queries N] MAP.map SCEN.scen\n");
        return 2;
    }
    pf_map *map;
    pf_scen *sc;
    pf_diag diag;
    if (pf_grid_load_movingai(argv[first], NULL, &map, &diag) != PF_OK ||
        pf_scen_load(argv[first + 1], NULL, &sc, &diag) != PF_OK) {
        fprintf(stderr, "bench_cold: %s\n", diag.msg);
        return 1;
    }
    uint32_t n = pf_scen_count(sc) < want ? pf_scen_count(sc) : want;
    double *create = malloc(n * sizeof *create), *cold = malloc(n * sizeof *cold), *warm = malloc(n * sizeof *warm);
    double *cold2 = malloc(n * sizeof *cold2);
    if (!create || !cold || !warm || !cold2) return 1;
    static const struct {
        const char *name;
        pf_prefault p;
    } modes[] = {{"records", PF_PREFAULT_RECORDS}, {"none", PF_PREFAULT_NONE}};
    int rc = 0;
    printf("{\"map\":\"%s\",\"scen\":\"%s\",\"queries\":%u,\"modes\":[", argv[first], argv[first + 1], n);
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        uint64_t exp = 0;
        for (uint32_t q = 0; q < n; q++) {
            const pf_scen_entry *e = pf_scen_get(sc, q);
            uint32_t a = pf_grid_node(map, e->sx, e->sy), b = pf_grid_node(map, e->gx, e->gy);
            pf_ctx *ctx, *ctx2;
            pf_stats st1, st2, st3;
            double t0 = bench_wall_s();
            if (pf_ctx_create(map, &(pf_ctx_desc){.prefault = modes[m].p}, &ctx) != PF_OK) return 1;
            double t1 = bench_wall_s();
            if (pf_ctx_create(map, &(pf_ctx_desc){.prefault = modes[m].p}, &ctx2) != PF_OK) return 1;
            double t2 = bench_wall_s();
            pf_status s1 = pf_search(ctx, a, b, NULL, NULL, &st1);
            double t3 = bench_wall_s();
            pf_status s2 = pf_search(ctx, a, b, NULL, NULL, &st2);
            double t4 = bench_wall_s();
            pf_status s3 = pf_search(ctx2, a, b, NULL, NULL, &st3);
            double t5 = bench_wall_s();
            pf_ctx_destroy(ctx);
            pf_ctx_destroy(ctx2);
            /* every run must be the same search, or the comparison means nothing */
            if (s1 != s2 || st1.expanded != st2.expanded || st1.cost != st2.cost || s3 != s1 ||
                st3.expanded != st1.expanded || st3.cost != st1.cost)
                rc = 1;
            create[q] = t1 - t0;
            cold[q] = t3 - t2;
            warm[q] = t4 - t3;
            cold2[q] = t5 - t4;
            exp += st1.expanded;
        }
        double c = median(create, n), f = median(cold, n), w = median(warm, n), f2 = median(cold2, n);
        printf("%s{\"prefault\":\"%s\",\"create_us_p50\":%.1f,\"first_us_p50\":%.2f,\"warm_us_p50\":%.2f,"
               "\"first_over_warm\":%.2f,\"first_map_warm_us_p50\":%.2f,\"first_map_warm_over_warm\":%.2f,"
               "\"expanded_per_query\":%.0f}",
               m ? "," : "", modes[m].name, c * 1e6, f * 1e6, w * 1e6, w > 0 ? f / w : 0, f2 * 1e6, w > 0 ? f2 / w : 0,
               (double)exp / n);
    }
    printf("],\"consistent\":%s}\n", rc ? "false" : "true");
    free(create);
    free(cold);
    free(warm);
    free(cold2);
    pf_scen_destroy(sc);
    pf_map_destroy(map);
    return rc;
}
