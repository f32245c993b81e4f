/* bench_size_comp.c - what a sized unit's component labels cost (search/size_comp.c), one JSON
 * object per map and unit kind (size 2 and 3 of the start's class; size 2 under a filter that allows
 * every class):
 *   first_ms      the first "same component?" on a fresh context: the labels made
 *   relabel_ms    the same made again on warm memory (after a query of another size), median of 9
 *   query_us      mean and max over the next queries (scenario pairs the unit can stand on)
 *   edit_ms       mean and max of an edit (a 6x6 building, the context's labels following it)
 *   after_edit_ms mean and max of the first query after each edit (labels started afresh, if the
 *                 edit could not keep them)
 * Times are CPU time of the one thread (CLOCK_THREAD_CPUTIME_ID); compare builds alternately
 * (farm-bench --vs).
 *
 *     bench_size_comp [MAP SCEN]   default: the three 2000x2000 maps of ../shared/data/grids
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"
#include "map/map_internal.h"
#include "search/size_comp_internal.h"

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Whether a unit of `size` stands on padded cell p (under f [opt]). */
static int stands(const pf_map *m, uint32_t p, uint8_t size, const pf_move_filter *f)
{
    if (!f) return m->cls[p] && m->clr[p] >= size;
    for (uint32_t y = 0; y < size; y++)
        for (uint32_t x = 0; x < size; x++) {
            uint8_t k = m->cls[p + y * m->pw + x];
            if (!(f->classes[k >> 3] >> (k & 7u) & 1u)) return 0;
        }
    return 1;
}

static int bench(const char *map_path, const char *scen_path, const char *name, uint8_t size, int filtered)
{
    pf_map *m;
    pf_scen *sc;
    pf_diag d;
    if (pf_grid_load_movingai(map_path, NULL, &m, &d) != PF_OK || pf_scen_load(scen_path, NULL, &sc, &d) != PF_OK) {
        fprintf(stderr, "bench_size_comp: %s\n", d.msg);
        return 1;
    }
    pf_move_filter all;
    memset(&all, 0, sizeof all);
    memset(all.classes, 0xFF, sizeof all.classes);
    all.classes[0] = 0xFE;
    const pf_move_filter *f = filtered ? &all : NULL;
    /* pairs the unit can stand on at both ends, of one class where unfiltered */
    uint32_t n = pf_scen_count(sc), np = 0, *pairs = malloc((size_t)n * 2 * sizeof *pairs);
    for (uint32_t i = 0; i < n; i++) {
        const pf_scen_entry *e = pf_scen_get(sc, i);
        uint32_t s = pf_grid_node(m, e->sx, e->sy), g = pf_grid_node(m, e->gx, e->gy);
        uint32_t sp = pf__grid_pad(m, s), gp = pf__grid_pad(m, g);
        if (!stands(m, sp, size, f) || !stands(m, gp, size, f) || (!f && m->cls[sp] != m->cls[gp])) continue;
        pairs[2 * np] = sp;
        pairs[2 * np + 1] = gp;
        np++;
    }
    if (!np) {
        fprintf(stderr, "bench_size_comp: no pair for size %u on %s\n", size, name);
        return 1;
    }
    pf_ctx *c;
    if (pf_ctx_create(m, NULL, &c) != PF_OK) return 1;
    int same = 0, joined = 0;
    double t0 = bench_cpu_s();
    if (pf__szcomp_same(c, pairs[0], pairs[1], size, f, &same) != PF_OK) return 1;
    const double first_ms = (bench_cpu_s() - t0) * 1e3;
    const uint32_t nq = np < 2000 ? np : 2000;
    double q_sum = 0, q_max = 0;
    for (uint32_t i = 1; i < nq; i++) {
        double t = bench_cpu_s();
        if (pf__szcomp_same(c, pairs[2 * i], pairs[2 * i + 1], size, f, &same) != PF_OK) return 1;
        t = bench_cpu_s() - t;
        q_sum += t;
        q_max = t > q_max ? t : q_max;
        joined += same;
    }
    /* the labels made again, memory warm: each call asks for another size than the last (the
     * labels are of one size), the median of REPEAT */
    enum { REPEAT = 9 };
    double rl[REPEAT];
    for (int i = 0; i < REPEAT; i++) {
        const uint8_t other = (uint8_t)(size == 2 ? 3 : 2);
        int o = 0;
        (void)pf__szcomp_same(c, pairs[0], pairs[0], other, f, &o);
        double t = bench_cpu_s();
        if (pf__szcomp_same(c, pairs[0], pairs[1], size, f, &same) != PF_OK) return 1;
        rl[i] = bench_cpu_s() - t;
    }
    for (int i = 1; i < REPEAT; i++) /* insertion sort */
        for (int j = i; j > 0 && rl[j] < rl[j - 1]; j--) {
            double t = rl[j];
            rl[j] = rl[j - 1];
            rl[j - 1] = t;
        }
    const double relabel_ms = rl[REPEAT / 2] * 1e3;
    /* buildings: 6x6 blocks on open cells, a query after each */
    enum { EDITS = 30 };
    uint64_t rs = 0x9E3779B97F4A7C15ull;
    const uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    double e_sum = 0, e_max = 0, a_sum = 0, a_max = 0;
    for (int i = 0; i < EDITS; i++) {
        pf_grid_edit ed = {.rect = {(int32_t)(rng(&rs) % (w - 6)), (int32_t)(rng(&rs) % (h - 6)), 6, 6}, .cls = 0};
        double t = bench_cpu_s();
        if (pf_grid_apply_edits(m, &ed, 1, NULL) != PF_OK) return 1;
        t = bench_cpu_s() - t;
        e_sum += t;
        e_max = t > e_max ? t : e_max;
        uint32_t j = (uint32_t)(rng(&rs) % nq);
        if (!stands(m, pairs[2 * j], size, f) || !stands(m, pairs[2 * j + 1], size, f)) j = 0;
        if (!stands(m, pairs[2 * j], size, f) || !stands(m, pairs[2 * j + 1], size, f)) continue;
        t = bench_cpu_s();
        if (pf__szcomp_same(c, pairs[2 * j], pairs[2 * j + 1], size, f, &same) != PF_OK) return 1;
        t = bench_cpu_s() - t;
        a_sum += t;
        a_max = t > a_max ? t : a_max;
    }
    printf("{\"bench\":\"size_comp\",\"map\":\"%s\",\"size\":%u,\"filtered\":%d,\"first_ms\":%.3f,\"relabel_ms\":%.3f,\"queries\":%u,"
           "\"joined\":%d,\"query_us_mean\":%.3f,\"query_us_max\":%.1f,\"edits\":%d,\"edit_ms_mean\":%.3f,"
           "\"edit_ms_max\":%.3f,\"after_edit_ms_mean\":%.3f,\"after_edit_ms_max\":%.3f,\"label_bytes\":%zu}\n",
           name, size, filtered, first_ms, relabel_ms, nq, joined, nq > 1 ? q_sum * 1e6 / (nq - 1) : 0.0, q_max * 1e6, EDITS,
           e_sum * 1e3 / EDITS, e_max * 1e3, a_sum * 1e3 / EDITS, a_max * 1e3, pf__szcomp_bytes(c));
    fflush(stdout);
    pf_ctx_destroy(c);
    free(pairs);
    pf_scen_destroy(sc);
    pf_map_destroy(m);
    return 0;
}

static int bench_map(const char *mp, const char *sp, const char *name)
{
    return bench(mp, sp, name, 2, 0) | bench(mp, sp, name, 3, 0) | bench(mp, sp, name, 2, 1);
}

int main(int argc, char **argv)
{
    if (argc >= 3) return bench_map(argv[1], argv[2], argv[1]);
    static const char *const maps[] = {"rooms-2000", "random-2000-20", "maze-2000-w4"};
    int rc = 0;
    for (int i = 0; i < 3; i++) {
        char mp[512], sp[512];
        snprintf(mp, sizeof mp, "%s/grids/%s.map", PF_SHARED_DATA, maps[i]);
        snprintf(sp, sizeof sp, "%s/grids/%s.map.scen", PF_SHARED_DATA, maps[i]);
        rc |= bench_map(mp, sp, maps[i]);
    }
    return rc;
}
