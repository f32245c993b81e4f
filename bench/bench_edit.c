/* bench_edit.c - living maps: µs to place and to remove a 4x4 building on the 2000x2000 grids,
 * map plus all derived data, and the memory a map version costs. Prints one JSON object.
 *
 * usage: bench_edit [--buildings N] [--seed S] [MAP.map ...]
 *   default maps: ../shared/data/grids/{random-2000-20,rooms-2000,maze-2000-w4}.map
 *   --buildings N  buildings placed and removed per map and configuration (default 1000)
 *
 * Each building goes on a random 4x4 square of open ground and is removed again at once (the
 * ground comes back), so every edit is a real change. Two configurations per map:
 *   "map":  the map alone (cells, components, fingerprint tiles, edit log);
 *   "full": plus a shared JPS table (bitmaps and JPS+ distances) and two contexts using it,
 *           everything the library derives from a 2000x2000 grid (first-move tables stop at
 *           65536 cells).
 * The difference between the two is what the JPS+ distances cost. "rebuild_ms" is the way without
 * edits, for scale: read the cells out, pf_grid_create a new map from them and (full) build its
 * JPS table again, once. Times are per pf_grid_apply_edits
 * call: the calling thread's CPU time (the wall clock on a shared machine also counts other jobs)
 * and the wall clock; mean, 99th percentile and worst. After the run every building is gone, so
 * the fingerprint must be the loaded map's again ("restored").
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"
#include "map/map_internal.h"

typedef struct series { double *v; uint32_t n; } series;

static void print_series(const char *name, series *s)
{
    double sum = 0.0;
    for (uint32_t i = 0; i < s->n; i++) sum += s->v[i];
    qsort(s->v, s->n, sizeof *s->v, bench_cmp_d);
    double p99 = s->n ? s->v[(uint32_t)((s->n - 1) * 0.99)] : 0.0;
    printf("\"%s\":{\"mean\":%.2f,\"p99\":%.2f,\"worst\":%.2f}", name, s->n ? sum / s->n : 0.0, p99,
           s->n ? s->v[s->n - 1] : 0.0);
}

/* A random 4x4 square of open ground (class 1), or 0 when none was found. */
static int pick_square(const pf_map *m, uint64_t *rs, pf_rect *r)
{
    uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    uint8_t cls[16];
    for (int tries = 0; tries < 10000; tries++) {
        pf_rect c = {(int32_t)(bench_rng(rs) % (w - 3)), (int32_t)(bench_rng(rs) % (h - 3)), 4, 4};
        pf_grid_read(m, c, cls, NULL);
        int open = 1;
        for (int i = 0; i < 16; i++) open &= cls[i] == 1;
        if (open) {
            *r = c;
            return 1;
        }
    }
    return 0;
}

static int run_config(const char *path, int full, uint32_t buildings, uint64_t seed, int first)
{
    pf_map *m;
    pf_diag dg;
    if (pf_grid_load_movingai(path, NULL, &m, &dg) != PF_OK) {
        fprintf(stderr, "bench_edit: %s\n", dg.msg);
        return 0;
    }
    uint64_t fp0 = pf_map_fingerprint(m);
    pf_jps_table *jt = NULL;
    pf_ctx *ctx[2] = {NULL, NULL};
    double build_s = 0.0;
    if (full) {
        double t0 = bench_wall_s();
        if (pf_jps_table_create(m, NULL, &jt) != PF_OK) {
            fprintf(stderr, "bench_edit: cannot build the JPS table of %s\n", path);
            pf_map_destroy(m);
            return 0;
        }
        build_s = bench_wall_s() - t0;
        for (int i = 0; i < 2; i++) {
            pf_ctx_create(m, NULL, &ctx[i]);
            pf_ctx_use_jps_table(ctx[i], jt);
        }
    }
    size_t mem0 = pf_map_mem_size(m);
    /* the old way, once: a new map from the cells (and a new JPS table) */
    double rebuild_ms = 0.0;
    {
        uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
        uint8_t *cls = malloc((size_t)w * h);
        double t0 = bench_wall_s();
        pf_map *copy = NULL;
        pf_jps_table *cjt = NULL;
        if (cls && pf_grid_read(m, (pf_rect){0, 0, w, h}, cls, NULL) == PF_OK &&
            pf_grid_create(&(pf_grid_desc){.width = w, .height = h, .cells = cls}, &copy) == PF_OK && full)
            pf_jps_table_create(copy, NULL, &cjt);
        rebuild_ms = (bench_wall_s() - t0) * 1e3;
        pf_jps_table_destroy(cjt);
        pf_map_destroy(copy);
        free(cls);
    }
    series cpu[2] = {{calloc(buildings, sizeof(double)), 0}, {calloc(buildings, sizeof(double)), 0}};
    series wall[2] = {{calloc(buildings, sizeof(double)), 0}, {calloc(buildings, sizeof(double)), 0}};
    uint64_t visited[2] = {0, 0}, jps[2] = {0, 0};
    uint32_t visited_max[2] = {0, 0}, jps_max[2] = {0, 0};
    uint64_t rs = seed;
    int ok = 1;
    for (uint32_t b = 0; b < buildings && ok; b++) {
        pf_rect r;
        if (!pick_square(m, &rs, &r)) break;
        for (int phase = 0; phase < 2 && ok; phase++) { /* 0 place, 1 remove */
            pf_grid_edit e = {.rect = r, .cls = (uint8_t)(phase ? 1 : 0)};
            pf_edit_report rep;
            double c0 = bench_cpu_s(), w0 = bench_wall_s();
            pf_status st = pf_grid_apply_edits(m, &e, 1, &rep);
            double c1 = bench_cpu_s(), w1 = bench_wall_s();
            ok = st == PF_OK && rep.changed == 16;
            cpu[phase].v[cpu[phase].n++] = (c1 - c0) * 1e6;
            wall[phase].v[wall[phase].n++] = (w1 - w0) * 1e6;
            visited[phase] += rep.comp_visited;
            jps[phase] += rep.jps_updated;
            if (rep.comp_visited > visited_max[phase]) visited_max[phase] = rep.comp_visited;
            if (rep.jps_updated > jps_max[phase]) jps_max[phase] = rep.jps_updated;
        }
    }
    /* a search still runs on the map and the table after all that */
    if (ok && full) {
        uint32_t a = PF_NODE_NONE, g = PF_NODE_NONE;
        for (uint32_t i = 0; i < pf_map_node_count(m) && g == PF_NODE_NONE; i += 9973) {
            pf_point p = pf_grid_point(m, i);
            if (pf_grid_class(m, p.x, p.y) != 1) continue;
            if (a == PF_NODE_NONE) a = i;
            else if (pf_grid_same_component(m, a, i)) g = i;
        }
        pf_status sa = pf_search(ctx[0], a, g, &(pf_search_desc){.algo = PF_ALGO_JPS_PLUS}, NULL, NULL);
        ok = sa == PF_OK;
    }
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    uint32_t n = cpu[0].n ? cpu[0].n : 1;
    printf("%s{\"map\":\"%s\",\"config\":\"%s\",\"buildings\":%u,", first ? "" : ",", name, full ? "full" : "map",
           cpu[0].n);
    print_series("place_cpu_us", &cpu[0]);
    putchar(',');
    print_series("remove_cpu_us", &cpu[1]);
    putchar(',');
    print_series("place_wall_us", &wall[0]);
    putchar(',');
    print_series("remove_wall_us", &wall[1]);
    printf(",\"comp_cells_visited\":{\"place_mean\":%.1f,\"place_max\":%u,\"remove_mean\":%.1f,\"remove_max\":%u},"
           "\"jps_entries_updated\":{\"place_mean\":%.1f,\"place_max\":%u,\"remove_mean\":%.1f,\"remove_max\":%u},"
           "\"map_bytes\":%zu,\"map_bytes_after\":%zu,\"jps_table_bytes\":%zu,\"jps_build_s\":%.3f,\"rebuild_ms\":%.1f,"
           "\"version_bytes\":%zu,\"components\":%u,\"restored\":%s,\"ok\":%s}",
           (double)visited[0] / n, visited_max[0], (double)visited[1] / n, visited_max[1], (double)jps[0] / n, jps_max[0],
           (double)jps[1] / n, jps_max[1], mem0, pf_map_mem_size(m), pf_jps_table_mem_size(jt), build_s, rebuild_ms,
           sizeof(pf__log_entry), pf_grid_component_count(m), pf_map_fingerprint(m) == fp0 ? "true" : "false",
           ok ? "true" : "false");
    for (int i = 0; i < 2; i++) {
        free(cpu[i].v);
        free(wall[i].v);
        pf_ctx_destroy(ctx[i]);
    }
    pf_jps_table_destroy(jt);
    pf_map_destroy(m);
    return ok;
}

int main(int argc, char **argv)
{
    uint32_t buildings = 1000;
    uint64_t seed = 1;
    const char *maps[16];
    int nmaps = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--buildings") == 0 && i + 1 < argc) buildings = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
        else if (nmaps < 16) maps[nmaps++] = argv[i];
    }
    if (!nmaps) {
        maps[nmaps++] = PF_SHARED_DATA "/grids/random-2000-20.map";
        maps[nmaps++] = PF_SHARED_DATA "/grids/rooms-2000.map";
        maps[nmaps++] = PF_SHARED_DATA "/grids/maze-2000-w4.map";
    }
    if (!buildings) buildings = 1;
    printf("{\"bench\":\"edit\",\"building\":\"4x4\",\"seed\":%llu,\"runs\":[", (unsigned long long)seed);
    int ok = 1, first = 1;
    for (int i = 0; i < nmaps; i++)
        for (int full = 0; full < 2; full++) {
            ok &= run_config(maps[i], full, buildings, seed, first);
            first = 0;
        }
    printf("]}\n");
    return ok ? 0 : 1;
}
