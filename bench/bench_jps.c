/* bench_jps.c - µs per long query for A*, JPS, JPS+ and the accelerator (PF_ALGO_AUTO, pf_accel.h)
 * on the 2000x2000 grids and every Moving AI map. Prints one JSON object.
 *
 * usage: bench_jps [--reps R] [--astar-queries N] [--queries N] [MAP.map ...]
 *   default maps: ../shared/data/grids/{random-2000-20,rooms-2000,maze-2000-w4}.map and every
 *   .map in ../shared/data/movingai; each reads MAP.map.scen.
 *   --queries N        queries per map, evenly strided over the file (default 200: all of a
 *                      2000x2000 file, the sample size of peers.md for Moving AI)
 *   --astar-queries N  A* runs N of those, evenly strided (default 20; A* costs 60+ ms a query at 2000²)
 *   --reps R           JPS and JPS+ repeat the set R times, the best time is kept (default 3)
 *   --prep FILE        read the accelerator of the (one) map from FILE (`pathfind prep`) instead
 *                      of building it; build_ms is then the time to read it
 * JPS+ uses a shared pf_jps_table built beforehand (its build time and size are reported);
 * JPS uses the table's bitmaps. "auto" runs on a second context with only the accelerator
 * attached (built beforehand, in parallel: its build time, size and bytes per cell are reported),
 * so its short queries run A* and nothing else of JPS is in reach. Each algorithm's costs are
 * checked against the listed optima. query_us_p99 and query_us_max: of each query's CPU time (its
 * least over the reps), the 99th percentile and the longest, per algorithm.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"

/* max_us, p99_us: of each query's thread CPU time, its least over the reps (a frame's budget
 * must hold the longest query, which the mean hides: an accelerated query is sliced by
 * pf_search_step's budget, so the longest tells what one unsliced call costs) */
typedef struct run { double us, wall_us, max_us, p99_us; uint64_t expanded; uint32_t mismatches, n; } run;

static int cmp_dbl(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static run time_set(pf_ctx *c, const pf_map *m, const pf_scen *sc, const uint32_t *idx, uint32_t n, pf_algo a,
                    int reps, uint32_t *cells, uint32_t cap)
{
    run best = {INFINITY, INFINITY, 0, 0, 0, 0, n};
    double *q = malloc((n ? n : 1) * sizeof *q);
    for (uint32_t i = 0; i < n; i++) q[i] = INFINITY;
    for (int r = 0; r < reps; r++) {
        run cur = {0, 0, 0, 0, 0, 0, n};
        double t0 = bench_cpu_s(), w0 = bench_wall_s();
        for (uint32_t i = 0; i < n; i++) {
            const pf_scen_entry *e = pf_scen_get(sc, idx[i]);
            pf_path p = {.nodes = cells, .capacity = cap};
            pf_stats st;
            const double q0 = bench_cpu_s();
            pf_status s = pf_search(c, pf_grid_node(m, e->sx, e->sy), pf_grid_node(m, e->gx, e->gy),
                                    &(pf_search_desc){.algo = a}, &p, &st);
            const double qt = (bench_cpu_s() - q0) * 1e6;
            q[i] = qt < q[i] ? qt : q[i];
            cur.expanded += st.expanded;
            if (s != PF_OK || fabs(st.cost - e->optimal) > PF_SCEN_TOLERANCE) cur.mismatches++;
        }
        cur.us = n ? (bench_cpu_s() - t0) * 1e6 / n : 0.0;
        cur.wall_us = n ? (bench_wall_s() - w0) * 1e6 / n : 0.0;
        if (cur.us < best.us) best = cur;
    }
    if (n) {
        qsort(q, n, sizeof *q, cmp_dbl);
        best.max_us = q[n - 1u];
        best.p99_us = q[(uint32_t)((uint64_t)(n - 1u) * 99u / 100u)];
    }
    free(q);
    return best;
}

static const char *g_prep; /* --prep FILE */

static int bench_map(const char *map_path, uint32_t nq, uint32_t na, int reps, int first)
{
    char scen_path[1100];
    snprintf(scen_path, sizeof scen_path, "%s.scen", map_path);
    pf_map *m;
    pf_scen *sc;
    pf_diag d;
    if (pf_grid_load_movingai(map_path, NULL, &m, &d) != PF_OK) {
        fprintf(stderr, "bench_jps: %s\n", d.msg);
        return 0;
    }
    if (pf_scen_load(scen_path, NULL, &sc, &d) != PF_OK) {
        fprintf(stderr, "bench_jps: %s\n", d.msg);
        pf_map_destroy(m);
        return 0;
    }
    uint32_t total = pf_scen_count(sc);
    uint32_t n = nq < total ? nq : total;
    uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
    for (uint32_t i = 0; i < n; i++) idx[i] = (uint32_t)((uint64_t)i * total / n);
    /* A*'s subset: evenly strided over the set too, so it has the same mix of lengths */
    uint32_t nas = na < n ? na : n;
    uint32_t *aidx = malloc((nas ? nas : 1) * sizeof *aidx);
    for (uint32_t i = 0; i < nas; i++) aidx[i] = idx[(uint64_t)i * n / nas];
    double t0 = bench_wall_s();
    pf_jps_table *t = NULL;
    pf_status ts = pf_jps_table_create(m, NULL, &t);
    double table_ms = (bench_wall_s() - t0) * 1e3;
    pf_ctx *c;
    if (ts != PF_OK || pf_ctx_create(m, NULL, &c) != PF_OK) {
        fprintf(stderr, "bench_jps: %s: %s\n", map_path, pf_status_str(ts));
        return 0;
    }
    pf_ctx_use_jps_table(c, t);
    /* the accelerator on a context of its own, built before any query is timed */
    double a0 = bench_wall_s();
    pf_accel *acc = NULL;
    pf_diag ad;
    pf_status as = g_prep ? pf_accel_load(g_prep, m, NULL, &acc, &ad) : pf_accel_create(m, NULL, &acc);
    if (g_prep && as != PF_OK) fprintf(stderr, "bench_jps: %s\n", ad.msg);
    double accel_ms = (bench_wall_s() - a0) * 1e3;
    pf_ctx *ca = NULL;
    if (as == PF_OK && pf_ctx_create(m, NULL, &ca) == PF_OK) pf_ctx_use_accel(ca, acc);
    uint32_t cap = pf_map_node_count(m);
    uint32_t *cells = malloc((size_t)cap * sizeof *cells);
    run a = time_set(c, m, sc, aidx, nas, PF_ALGO_ASTAR, 1, cells, cap);
    run j = time_set(c, m, sc, idx, n, PF_ALGO_JPS, reps, cells, cap);
    run p = time_set(c, m, sc, idx, n, PF_ALGO_JPS_PLUS, reps, cells, cap);
    /* JPS on the same subset A* ran, for an apples-to-apples speed-up */
    run js = time_set(c, m, sc, aidx, nas, PF_ALGO_JPS, reps, cells, cap);
    run au = ca ? time_set(ca, m, sc, idx, n, PF_ALGO_AUTO, reps, cells, cap) : (run){0, 0, 0, 0, 0, n, n};
    pf_accel_info ai = pf_accel_get_info(acc);
    const char *name = strrchr(map_path, '/') ? strrchr(map_path, '/') + 1 : map_path;
    printf("%s\n    {\"map\":\"%s\",\"width\":%u,\"height\":%u,\"queries\":%u,\"astar_queries\":%u,"
           "\"astar_us\":%.1f,\"jps_us\":%.2f,\"jpsplus_us\":%.2f,\"jps_us_on_astar_set\":%.2f,"
           "\"speedup_jps_vs_astar\":%.1f,\"wall_us\":{\"astar\":%.1f,\"jps\":%.2f,\"jpsplus\":%.2f},\"expanded_per_query\":{\"astar\":%.0f,\"jps\":%.1f,\"jpsplus\":%.1f},"
           "\"mismatches\":{\"astar\":%u,\"jps\":%u,\"jpsplus\":%u},\"table_build_ms\":%.1f,\"table_bytes\":%zu,"
           "\"ctx_jps_bytes\":%zu,\"auto_us\":%.2f,\"auto_wall_us\":%.2f,\"auto_expanded_per_query\":%.1f,"
           "\"auto_mismatches\":%u,\"speedup_auto_vs_jps\":%.2f,\"speedup_auto_vs_jpsplus\":%.2f,"
           "\"accel\":{\"build_ms\":%.1f,\"bytes\":%zu,\"bytes_per_cell\":%.2f,\"file_bytes\":%zu,"
           "\"subgoals\":%u,\"graph_arcs\":%u,\"shortcuts\":%u,\"core\":%u,\"arcs\":%u,\"ctx_bytes\":%zu},"
           "\"query_us_p99\":{\"astar\":%.1f,\"jps\":%.1f,\"jpsplus\":%.1f,\"auto\":%.1f},"
           "\"query_us_max\":{\"astar\":%.1f,\"jps\":%.1f,\"jpsplus\":%.1f,\"auto\":%.1f}}",
           first ? "" : ",", name, pf_grid_width(m), pf_grid_height(m), n, a.n, a.us, j.us, p.us, js.us,
           js.us > 0 ? a.us / js.us : 0.0, a.wall_us, j.wall_us, p.wall_us, a.n ? (double)a.expanded / a.n : 0.0, n ? (double)j.expanded / n : 0.0,
           n ? (double)p.expanded / n : 0.0, a.mismatches, j.mismatches, p.mismatches, table_ms,
           pf_jps_table_mem_size(t), pf_ctx_jps_mem_size(c), au.us, au.wall_us, n ? (double)au.expanded / n : 0.0,
           au.mismatches, au.us > 0 ? j.us / au.us : 0.0, au.us > 0 ? p.us / au.us : 0.0, accel_ms, ai.bytes,
           ai.bytes_per_cell, pf_accel_file_size(acc), ai.subgoals, ai.graph_arcs, ai.shortcuts, ai.core, ai.arcs,
           pf_ctx_accel_mem_size(ca), a.p99_us, j.p99_us, p.p99_us, au.p99_us, a.max_us, j.max_us, p.max_us, au.max_us);
    fflush(stdout);
    free(cells);
    free(idx);
    free(aidx);
    pf_ctx_destroy(c);
    pf_ctx_destroy(ca);
    pf_accel_destroy(acc);
    pf_jps_table_destroy(t);
    pf_scen_destroy(sc);
    pf_map_destroy(m);
    return 1;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

int main(int argc, char **argv)
{
    uint32_t nq = 200, na = 20;
    int reps = 3;
    const char *maps[256];
    int nm = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--queries") == 0 && i + 1 < argc) nq = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--astar-queries") == 0 && i + 1 < argc) na = (uint32_t)atoi(argv[++i]);
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--prep") == 0 && i + 1 < argc) g_prep = argv[++i];
        else if (argv[i][0] == '-') { /* --help, or an option it does not know: not a map name */
            int help = strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0;
            fprintf(help ? stdout : stderr, "usage: bench_jps [--reps R] [--astar-queries N] [--queries N] [--prep FILE] "
                                            "[MAP.map ...] (see the comment at the top of bench/bench_jps.c)\n");
            return help ? 0 : 2;
        } else if (nm < 256) maps[nm++] = argv[i];
    }
    if (reps < 1) reps = 1;
    static char paths[256][1024];
    const int named = nm > 0; /* maps named on the command line: each must load (exit 1 otherwise) */
    if (nm == 0) {
        static const char *const big[] = {"random-2000-20", "rooms-2000", "maze-2000-w4"};
        for (int i = 0; i < 3; i++) {
            snprintf(paths[nm], sizeof paths[nm], "%s/grids/%s.map", PF_SHARED_DATA, big[i]);
            maps[nm] = paths[nm];
            nm++;
        }
        DIR *dp = opendir(PF_SHARED_DATA "/movingai");
        int first_mai = nm;
        struct dirent *de;
        while (dp && (de = readdir(dp)) && nm < 256) {
            size_t l = strlen(de->d_name);
            if (l < 5 || strcmp(de->d_name + l - 4, ".map") != 0) continue;
            snprintf(paths[nm], sizeof paths[nm], "%s/movingai/%s", PF_SHARED_DATA, de->d_name);
            maps[nm] = paths[nm];
            nm++;
        }
        if (dp) closedir(dp);
        qsort(maps + first_mai, (size_t)(nm - first_mai), sizeof maps[0], cmp_str);
    }
    printf("{\"bench\":\"jps\",\"unit\":\"us per query of thread CPU time, best of reps (A*: one pass); wall_us: wall clock\",\"reps\":%d,\"maps\":[", reps);
    int first = 1, missed = 0;
    for (int i = 0; i < nm; i++) {
        if (bench_map(maps[i], nq, na, reps, first)) first = 0;
        else missed++;
    }
    printf("\n]}\n");
    /* the default list passes over what the shared data lacks; a map the caller named does not */
    return named && missed ? 1 : 0;
}
