/* bench_jps_edit.c - one large edit followed by JPS+ distances: time and peak memory against
 * building the distances afresh. Prints one JSON object.
 *
 * usage: bench_jps_edit [--own] [--threads N] [--check] CASE [MAP.map]
 *   default map: ../shared/data/grids/rooms-2000.map
 *   CASE two        one edit whose footprint is the whole map, changing 2 cells (opposite corners)
 *        scattered  the same footprint changing every 97th cell (41k cells on 2000x2000)
 *        square     a 1000x1000 footprint at 0,0 changing every 97th cell of it (10k cells)
 *   --own       the distances a context builds for itself (its first JPS+ search) instead of a
 *               shared table
 *   --threads N the shared table's build threads (default 1)
 *   --check     afterwards, compare the followed distances with a fresh build's, byte for byte
 *
 * Each footprint's classes are the map's own, read out, with the chosen cells flipped between
 * blocked and open ground: an editor that writes back a whole region it touched in a few places.
 * "edit_ms" is the wall time of the one pf_grid_apply_edits call; "build_ms" that of the build.
 * The peak resident set is read from /proc/self/status (Linux; -1 elsewhere) before the edit
 * and after it; a whole-process tool gives the same peak from outside.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"
#include "jps/jps_internal.h"

/* Peak resident set in MB, or -1 where /proc is not there. */
static double peak_mb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1.0;
    char line[256];
    double mb = -1.0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) mb = strtod(line + 6, NULL) / 1024.0;
    fclose(f);
    return mb;
}

int main(int argc, char **argv)
{
    int own = 0, check = 0;
    uint32_t threads = 1;
    const char *kase = NULL, *path = PF_SHARED_DATA "/grids/rooms-2000.map";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--own") == 0) own = 1;
        else if (strcmp(argv[i], "--check") == 0) check = 1;
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!kase) kase = argv[i];
        else path = argv[i];
    }
    if (!kase || (strcmp(kase, "two") && strcmp(kase, "scattered") && strcmp(kase, "square"))) {
        fprintf(stderr, "usage: bench_jps_edit [--own] [--threads N] [--check] two|scattered|square [MAP.map]\n");
        return 2;
    }
    pf_map *m;
    pf_diag dg;
    if (pf_grid_load_movingai(path, NULL, &m, &dg) != PF_OK) {
        fprintf(stderr, "bench_jps_edit: %s\n", dg.msg);
        return 1;
    }
    const uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    pf_jps_table *jt = NULL;
    pf_ctx *ctx = NULL;
    double t0 = bench_wall_s();
    int ok = 1;
    if (own) {
        /* a JPS+ search on a context without a table builds the context's own distances */
        ok = pf_ctx_create(m, NULL, &ctx) == PF_OK;
        uint32_t a = PF_NODE_NONE;
        for (uint32_t i = 0; ok && i < pf_map_node_count(m) && a == PF_NODE_NONE; i++)
            if (pf_grid_class(m, pf_grid_point(m, i).x, pf_grid_point(m, i).y)) a = i;
        ok = ok && a != PF_NODE_NONE &&
             pf_search(ctx, a, a, &(pf_search_desc){.algo = PF_ALGO_JPS_PLUS}, NULL, NULL) == PF_OK;
        const pf__jps_ext *x = ok ? pf__ctx_ext_get(ctx, PF__EXT_JPS) : NULL;
        ok = x && x->own.dist;
    } else {
        ok = pf_jps_table_create(m, &(pf_jps_desc){.threads = threads}, &jt) == PF_OK;
    }
    double build_ms = (bench_wall_s() - t0) * 1e3;
    if (!ok) {
        fprintf(stderr, "bench_jps_edit: cannot build the JPS+ distances of %s\n", path);
        return 1;
    }
    pf_rect r = strcmp(kase, "square") == 0 ? (pf_rect){0, 0, w < 1000 ? w : 1000, h < 1000 ? h : 1000}
                                            : (pf_rect){0, 0, w, h};
    const size_t n = (size_t)r.w * r.h;
    uint8_t *cls = malloc(n);
    if (!cls || pf_grid_read(m, r, cls, NULL) != PF_OK) return 1;
    for (size_t i = 0; i < n; i++) {
        int flip = strcmp(kase, "two") == 0 ? (i == 0 || i == n - 1) : i % 97 == 0;
        if (flip) cls[i] = cls[i] ? 0 : 1;
    }
    double before_mb = peak_mb();
    pf_edit_report rep;
    double e0 = bench_wall_s();
    pf_status st = pf_grid_apply_edits(m, &(pf_grid_edit){.rect = r, .classes = cls}, 1, &rep);
    double edit_ms = (bench_wall_s() - e0) * 1e3;
    double after_mb = peak_mb();
    free(cls);
    const pf_jps_table *t = own ? &((const pf__jps_ext *)pf__ctx_ext_get(ctx, PF__EXT_JPS))->own : jt;
    int current = t->dist && t->version == pf_map_version(m);
    const char *same = "null";
    if (check) {
        pf_jps_table *f = NULL;
        same = pf_jps_table_create(m, NULL, &f) == PF_OK && t->dist &&
                       memcmp(f->dist, t->dist, (size_t)(w + 2u) * (h + 2u) * 16u) == 0
                   ? "true"
                   : "false";
        pf_jps_table_destroy(f);
    }
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    printf("{\"bench\":\"jps_edit\",\"map\":\"%s\",\"case\":\"%s\",\"data\":\"%s\",\"threads\":%u,\"rect\":[%u,%u],"
           "\"changed\":%u,\"status\":\"%s\",\"build_ms\":%.1f,\"edit_ms\":%.1f,\"jps_updated\":%u,"
           "\"peak_before_edit_mb\":%.1f,\"peak_after_edit_mb\":%.1f,\"current\":%s,\"same_as_build\":%s}\n",
           name, kase, own ? "context" : "table", own ? 0u : threads, r.w, r.h, rep.changed, pf_status_str(st),
           build_ms, edit_ms, rep.jps_updated, before_mb, after_mb, current ? "true" : "false", same);
    pf_ctx_destroy(ctx);
    pf_jps_table_destroy(jt);
    pf_map_destroy(m);
    return st == PF_OK && current && strcmp(same, "false") != 0 ? 0 : 1;
}
