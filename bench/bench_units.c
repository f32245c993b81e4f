/* bench_units.c - what units cost (issue 18), one JSON object per map:
 *   clearance   bytes and build time of the per-cell clearance every grid keeps
 *   sizes       A* microseconds per query for units of 1..4 cells on the same queries
 *   smooth      string pulling of A* paths: mean Euclidean length saved against the grid cost,
 *               microseconds per path (mean, p99), and Theta* (length against the smoothed path,
 *               microseconds per query against A*)
 *   flow        one flow field to a goal (build and dense export) against 50 separate A* queries
 *               from the scenario's starts to that goal
 * Times are wall clock of one thread.
 *
 *     bench_units [MAP SCEN [QUERIES]]   default: the three 2000x2000 maps of ../shared/data/grids
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"
#include "map/map_internal.h"

static double p99(double *v, uint32_t n)
{
    if (!n) return 0.0;
    qsort(v, n, sizeof *v, bench_cmp_d);
    return v[(uint32_t)((n - 1) * 0.99)];
}

static int bench(const char *map_path, const char *scen_path, uint32_t want)
{
    pf_map *m;
    pf_scen *sc;
    pf_diag d;
    if (pf_grid_load_movingai(map_path, NULL, &m, &d) != PF_OK || pf_scen_load(scen_path, NULL, &sc, &d) != PF_OK) {
        fprintf(stderr, "bench_units: %s\n", d.msg);
        return 1;
    }
    const uint32_t w = pf_grid_width(m), h = pf_grid_height(m), n = w * h;
    /* clearance: rebuilt in place, the map's own array */
    size_t clr_bytes = (size_t)m->pw * m->ph;
    double t0 = bench_wall_s();
    pf__free(&m->alloc, m->clr, clr_bytes);
    m->clr = NULL;
    if (!pf__grid_clearance_build(m)) return 1;
    double clr_ms = (bench_wall_s() - t0) * 1e3;

    pf_ctx *c;
    if (pf_ctx_create(m, NULL, &c) != PF_OK) return 1;
    uint32_t *path = malloc(n * sizeof *path), *way = malloc(n * sizeof *way);
    uint32_t total = pf_scen_count(sc), stride = total > want ? total / want : 1, q = 0;
    double *us_s = malloc((total / stride + 1) * sizeof *us_s);
    double grid_sum = 0, smooth_sum = 0, theta_sum = 0, astar_s = 0, theta_s = 0, size_s[5] = {0};
    uint32_t size_ok[5] = {0}, theta_longer = 0;
    for (uint32_t i = 0; i < total; i += stride) {
        const pf_scen_entry *e = pf_scen_get(sc, i);
        uint32_t s = pf_grid_node(m, e->sx, e->sy), g = pf_grid_node(m, e->gx, e->gy);
        pf_path p = {.nodes = path, .capacity = n};
        pf_stats st;
        double a0 = bench_wall_s();
        if (pf_search(c, s, g, NULL, &p, &st) != PF_OK) continue;
        astar_s += bench_wall_s() - a0;
        uint32_t nw;
        double len;
        double s0 = bench_wall_s();
        pf_path_smooth(m, path, p.len, NULL, way, n, &nw, &len);
        us_s[q] = (bench_wall_s() - s0) * 1e6;
        grid_sum += st.cost;
        smooth_sum += len;
        pf_stats ts;
        pf_path tp = {.nodes = way, .capacity = n};
        double h0 = bench_wall_s();
        pf_search(c, s, g, &(pf_search_desc){.algo = PF_ALGO_THETA}, &tp, &ts);
        theta_s += bench_wall_s() - h0;
        theta_sum += ts.cost;
        theta_longer += ts.cost > len + 1e-9;
        for (uint32_t k = 2; k <= 4; k++) {
            double k0 = bench_wall_s();
            pf_status r = pf_search(c, s, g, &(pf_search_desc){.unit_size = k}, NULL, NULL);
            size_s[k] += bench_wall_s() - k0;
            size_ok[k] += r == PF_OK;
        }
        q++;
    }
    double smooth_mean = 0;
    for (uint32_t i = 0; i < q; i++) smooth_mean += us_s[i];
    smooth_mean = q ? smooth_mean / q : 0;
    double smooth_p99 = p99(us_s, q);

    /* flow: the first scenario goal, its field against 50 A* queries from the first 50 starts */
    const pf_scen_entry *e0 = pf_scen_get(sc, 0);
    uint32_t goal = pf_grid_node(m, e0->gx, e0->gy);
    uint8_t *dirs = malloc(n);
    double f0 = bench_wall_s();
    pf_status fs = pf_flow_build(c, goal, NULL);
    double field_ms = (bench_wall_s() - f0) * 1e3;
    double x0 = bench_wall_s();
    pf_flow_export(c, dirs, n);
    double export_ms = (bench_wall_s() - x0) * 1e3;
    uint32_t reach = 0;
    for (uint32_t i = 0; i < n; i++) reach += dirs[i] != PF_FLOW_NONE;
    double q0 = bench_wall_s();
    uint32_t solved = 0;
    for (uint32_t i = 0; i < 50 && i < total; i++) {
        const pf_scen_entry *e = pf_scen_get(sc, i * (total / 50 ? total / 50 : 1));
        solved += pf_search(c, pf_grid_node(m, e->sx, e->sy), goal, NULL, NULL, NULL) == PF_OK;
    }
    double astar50_ms = (bench_wall_s() - q0) * 1e3;

    printf("{\"map\":\"%s\",\"cells\":%u,\"clearance_bytes\":%zu,\"clearance_bytes_per_cell\":%.3f,"
           "\"clearance_build_ms\":%.2f,\"queries\":%u,\"astar_us\":%.1f,\"size2_us\":%.1f,\"size3_us\":%.1f,"
           "\"size4_us\":%.1f,\"size_solved\":[%u,%u,%u],\"grid_len_mean\":%.3f,\"smooth_len_mean\":%.3f,"
           "\"smooth_saved_pct\":%.2f,\"smooth_us_mean\":%.1f,\"smooth_us_p99\":%.1f,\"theta_len_mean\":%.3f,"
           "\"theta_vs_smooth_pct\":%.2f,\"theta_longer_than_smooth\":%u,\"theta_us\":%.1f,"
           "\"flow_status\":\"%s\",\"flow_cells\":%u,\"flow_field_ms\":%.2f,\"flow_export_ms\":%.2f,"
           "\"astar50_ms\":%.2f,\"astar50_solved\":%u,\"field_vs_astar50\":%.2f}\n",
           map_path, n, clr_bytes, (double)clr_bytes / n, clr_ms, q, q ? astar_s * 1e6 / q : 0,
           q ? size_s[2] * 1e6 / q : 0, q ? size_s[3] * 1e6 / q : 0, q ? size_s[4] * 1e6 / q : 0, size_ok[2],
           size_ok[3], size_ok[4], q ? grid_sum / q : 0, q ? smooth_sum / q : 0,
           grid_sum > 0 ? 100.0 * (1 - smooth_sum / grid_sum) : 0, smooth_mean, smooth_p99, q ? theta_sum / q : 0,
           smooth_sum > 0 ? 100.0 * (1 - theta_sum / smooth_sum) : 0, theta_longer, q ? theta_s * 1e6 / q : 0,
           pf_status_name(fs), reach, field_ms, export_ms, astar50_ms, solved,
           field_ms > 0 ? astar50_ms / (field_ms + export_ms) : 0);
    fflush(stdout);
    free(dirs);
    free(us_s);
    free(path);
    free(way);
    pf_ctx_destroy(c);
    pf_scen_destroy(sc);
    pf_map_destroy(m);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3) return bench(argv[1], argv[2], argc > 3 ? (uint32_t)atoi(argv[3]) : 20);
    static const char *const maps[] = {"random-2000-20", "rooms-2000", "maze-2000-w4"};
    int rc = 0;
    for (int i = 0; i < 3; i++) {
        char mp[512], sp[512];
        snprintf(mp, sizeof mp, "%s/grids/%s.map", PF_SHARED_DATA, maps[i]);
        snprintf(sp, sizeof sp, "%s/grids/%s.map.scen", PF_SHARED_DATA, maps[i]);
        rc |= bench(mp, sp, 20);
    }
    return rc;
}
