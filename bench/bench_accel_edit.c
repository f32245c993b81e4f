/* bench_accel_edit.c - the accelerator on a map that changes: ms per edit with the accelerator
 * following (PF_ACCEL_EDITS_REBUILD, or by its diff: PF_ACCEL_EDITS_CHECK), whether AUTO still
 * answers by it and exactly, and its speedup over JPS+ before and after the edits, both on the map
 * as it is. Prints one JSON object.
 *
 * usage: bench_accel_edit MAP.map MAP.scen [--buildings N] [--side K] [--remove K] [--seed S]
 *                         [--threads T] [--prep FILE] [--queries Q] [--follow rebuild|check]
 *   --buildings N  buildings placed on random open ground, one pf_grid_apply_edits each (default 10)
 *   --side K       a building's side in cells, 1 to 8 (default 4: 4x4; a 4-wide maze is closed
 *                  by them, --side 2 leaves its corridors open)
 *   --remove K     of them removed again afterwards, one edit each (default N / 2): the map ends
 *                  edited, not restored
 *   --threads T    threads of the accelerator's build and rebuilds (default: OpenMP's)
 *   --prep FILE    the accelerator baked by `pathfind prep` instead of building it
 *   --queries Q    the scenario's last Q queries (the longest; default 200)
 *   --follow F     rebuild (default: rebuilt inside each edit) or check (by its diff; the queries
 *                  it cannot prove are answered by JPS+ on the same table as the JPS+ side's,
 *                  counted in accel_edited)
 *
 * Queries run before and after the edits, AUTO and JPS+ (a JPS table following the same edits)
 * alternately, query by query, so both see the same machine load, each first on every other
 * query. Every AUTO answer is compared with JPS+'s cost (JPS+ is exact: test_prop_jps checks it
 * against Dijkstra). Queries whose start or goal a building covers are skipped. edit_ms is the wall clock per pf_grid_apply_edits call,
 * the JPS table's update and the accelerator's rebuild included.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"

/* A random side x side square of open ground (class 1), or 0 when none was found. */
static int pick_square(const pf_map *m, uint32_t side, uint64_t *rs, pf_rect *r)
{
    uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    uint8_t cls[64];
    if (w < side || h < side) return 0;
    for (int tries = 0; tries < 10000; tries++) {
        pf_rect c = {(int32_t)(bench_rng(rs) % (w - side + 1u)), (int32_t)(bench_rng(rs) % (h - side + 1u)), side, side};
        pf_grid_read(m, c, cls, NULL);
        int open = 1;
        for (uint32_t i = 0; i < side * side; i++) open &= cls[i] == 1;
        if (open) {
            *r = c;
            return 1;
        }
    }
    return 0;
}

typedef struct qround {
    uint32_t queries, skipped, no_path, by_accel, stale, edited, mismatches;
    double   auto_s, jps_s;
    double   accel_s; /* AUTO's time on the queries the accelerator answered */
} qround;

/* One search, timed by the wall clock. */
static double timed(pf_ctx *c, uint32_t s, uint32_t g, const pf_search_desc *d, pf_stats *st, pf_status *r)
{
    double t0 = bench_wall_s();
    *r = pf_search(c, s, g, d, NULL, st);
    return bench_wall_s() - t0;
}

static qround run_queries(const pf_map *m, const pf_scen *sc, uint32_t from, pf_ctx *ca, pf_ctx *cj)
{
    qround r = {0};
    const pf_search_desc da = {.algo = PF_ALGO_AUTO}, dj = {.algo = PF_ALGO_JPS_PLUS};
    for (uint32_t i = from; i < pf_scen_count(sc); i++) {
        const pf_scen_entry *e = pf_scen_get(sc, i);
        if (!pf_grid_class(m, e->sx, e->sy) || !pf_grid_class(m, e->gx, e->gy)) {
            r.skipped++;
            continue;
        }
        uint32_t s = pf_grid_node(m, e->sx, e->sy), g = pf_grid_node(m, e->gx, e->gy);
        pf_stats sa, sj;
        pf_status ra, rj;
        double ta, tj;
        /* which side goes first alternates: the second finds the lines of the map and of the JPS
         * table that the first read in the cache (AUTO's fallback reads the same as JPS+) */
        if ((i - from) % 2u == 0) {
            ta = timed(ca, s, g, &da, &sa, &ra);
            tj = timed(cj, s, g, &dj, &sj, &rj);
        } else {
            tj = timed(cj, s, g, &dj, &sj, &rj);
            ta = timed(ca, s, g, &da, &sa, &ra);
        }
        r.auto_s += ta;
        r.jps_s += tj;
        r.queries++;
        r.no_path += rj == PF_NO_PATH; /* a building closed the way: answered before AUTO picks */
        r.by_accel += (sa.detail & PF_DETAIL_ACCEL) != 0;
        r.stale += (sa.detail & PF_DETAIL_ACCEL_STALE) != 0;
        r.edited += (sa.detail & PF_DETAIL_ACCEL_EDITED) != 0;
        if (sa.detail & PF_DETAIL_ACCEL) r.accel_s += ta;
        int same = ra == rj && (ra != PF_OK || fabs(sa.cost - sj.cost) <= 1e-6 * (1.0 + sj.cost));
        r.mismatches += !same;
    }
    return r;
}

static void warm_jps(const pf_map *m, const pf_scen *sc, uint32_t from, pf_ctx *c)
{
    const pf_search_desc dj = {.algo = PF_ALGO_JPS_PLUS};
    for (uint32_t i = from; i < pf_scen_count(sc); i++) {
        const pf_scen_entry *e = pf_scen_get(sc, i);
        if (pf_grid_class(m, e->sx, e->sy) && pf_grid_class(m, e->gx, e->gy))
            (void)pf_search(c, pf_grid_node(m, e->sx, e->sy), pf_grid_node(m, e->gx, e->gy), &dj, NULL, NULL);
    }
}

static void print_round(const char *name, const qround *r)
{
    printf("\"%s\":{\"queries\":%u,\"skipped\":%u,\"no_path\":%u,\"by_accel\":%u,\"accel_stale\":%u,"
           "\"accel_edited\":%u,\"mismatches\":%u,\"auto_us\":%.2f,\"by_accel_us\":%.2f,\"jps_plus_us\":%.2f,"
           "\"speedup\":%.2f}",
           name, r->queries, r->skipped, r->no_path, r->by_accel, r->stale, r->edited, r->mismatches, r->queries ? r->auto_s * 1e6 / r->queries : 0.0,
           r->by_accel ? r->accel_s * 1e6 / r->by_accel : 0.0, r->queries ? r->jps_s * 1e6 / r->queries : 0.0, r->auto_s > 0 ? r->jps_s / r->auto_s : 0.0);
}

int main(int argc, char **argv)
{
    const char *map = NULL, *scen = NULL, *prep = NULL;
    uint32_t buildings = 10, queries = 200, threads = 0, side = 4;
    long remove = -1;
    uint64_t seed = 1;
    pf_accel_edits follow = PF_ACCEL_EDITS_REBUILD;
    for (int i = 1; i < argc; i++) {
        int has = i + 1 < argc;
        if (!strcmp(argv[i], "--buildings") && has) buildings = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--remove") && has) remove = strtol(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && has) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--side") && has) side = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--threads") && has) threads = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--queries") && has) queries = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--prep") && has) prep = argv[++i];
        else if (!strcmp(argv[i], "--follow") && has) {
            const char *f = argv[++i];
            if (strcmp(f, "check") && strcmp(f, "rebuild")) {
                fprintf(stderr, "bench_accel_edit: --follow rebuild|check, not %s\n", f);
                return 2;
            }
            follow = strcmp(f, "check") ? PF_ACCEL_EDITS_REBUILD : PF_ACCEL_EDITS_CHECK;
        }
        else if (!map) map = argv[i];
        else if (!scen) scen = argv[i];
        else {
            fprintf(stderr, "bench_accel_edit: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (!map || !scen || side < 1 || side > 8) {
        fprintf(stderr, "usage: bench_accel_edit MAP.map MAP.scen [--buildings N] [--side 1..8] [--remove K] [--seed S] "
                        "[--threads T] [--prep FILE] [--queries Q] [--follow rebuild|check]\n");
        return 2;
    }
    if (remove < 0 || remove > (long)buildings) remove = buildings / 2;
    pf_map *m;
    pf_scen *sc;
    pf_diag dg;
    if (pf_grid_load_movingai(map, NULL, &m, &dg) != PF_OK || pf_scen_load(scen, NULL, &sc, &dg) != PF_OK) {
        fprintf(stderr, "bench_accel_edit: %s\n", dg.msg);
        return 1;
    }
    const pf_accel_desc ad = {.threads = threads, .edits = follow};
    pf_accel *acc = NULL;
    pf_jps_table *jt = NULL;
    double t0 = bench_wall_s();
    pf_status st = prep ? pf_accel_load(prep, m, &ad, &acc, &dg) : pf_accel_create(m, &ad, &acc);
    double prep_s = bench_wall_s() - t0;
    if (st != PF_OK || pf_jps_table_create(m, NULL, &jt) != PF_OK) {
        fprintf(stderr, "bench_accel_edit: cannot make the accelerator or the JPS table: %s\n", pf_status_str(st));
        return 1;
    }
    pf_ctx *ca, *cj;
    if (pf_ctx_create(m, NULL, &ca) != PF_OK || pf_ctx_create(m, NULL, &cj) != PF_OK) return 1;
    pf_ctx_use_accel(ca, acc);
    pf_ctx_use_jps_table(cj, jt);
    /* by the diff, AUTO's unproven queries are JPS+'s on the same table: the two sides differ only
     * in what the accelerator answers */
    if (follow == PF_ACCEL_EDITS_CHECK) pf_ctx_use_jps_table(ca, jt);
    uint32_t n = pf_scen_count(sc), from = n > queries ? n - queries : 0;
    /* once untimed first: the contexts' first queries make their state (the accelerator's parents,
     * JPS's records) and fault its pages in, which the round before the edits would pay alone; and
     * the AUTO side's JPS+ too, once: its refused queries after the edits search by it on the
     * context's grid records, which the accelerator's queries never touch (in a game the same
     * context answers short moves and fallbacks on them), where the JPS+ side's are warm */
    (void)run_queries(m, sc, from, ca, cj);
    if (follow == PF_ACCEL_EDITS_CHECK) warm_jps(m, sc, from, ca);
    qround before = run_queries(m, sc, from, ca, cj);

    uint64_t rs = seed;
    pf_rect *placed = calloc(buildings ? buildings : 1, sizeof *placed);
    uint32_t np = 0, edits = 0;
    double edit_s = 0.0, edit_max = 0.0;
    for (uint32_t b = 0; b < buildings && pick_square(m, side, &rs, &placed[np]); b++) {
        pf_grid_edit e = {.rect = placed[np], .cls = 0};
        double e0 = bench_wall_s();
        st = pf_grid_apply_edits(m, &e, 1, NULL);
        double dt = bench_wall_s() - e0;
        if (st != PF_OK) break;
        np++;
        edits++;
        edit_s += dt;
        if (dt > edit_max) edit_max = dt;
    }
    for (uint32_t k = 0; st == PF_OK && k < (uint32_t)remove && k < np; k++) {
        pf_grid_edit e = {.rect = placed[k], .cls = 1};
        double e0 = bench_wall_s();
        st = pf_grid_apply_edits(m, &e, 1, NULL);
        double dt = bench_wall_s() - e0;
        edits++;
        edit_s += dt;
        if (dt > edit_max) edit_max = dt;
    }
    if (st != PF_OK) fprintf(stderr, "bench_accel_edit: an edit failed: %s\n", pf_status_str(st));
    qround after = run_queries(m, sc, from, ca, cj);
    printf("{\"map\":\"%s\",\"follow\":\"%s\",\"threads\":%u,\"prep_s\":%.3f,\"buildings\":%u,\"side\":%u,\"removed\":%ld,\"edits\":%u,"
           "\"edit_ms\":{\"mean\":%.2f,\"worst\":%.2f},\"edits_ok\":%s,",
           map, follow == PF_ACCEL_EDITS_CHECK ? "check" : "rebuild", threads, prep_s, np, side, remove < (long)np ? remove : (long)np, edits, edits ? edit_s * 1e3 / edits : 0.0,
           edit_max * 1e3, st == PF_OK ? "true" : "false");
    print_round("before", &before);
    printf(",");
    print_round("after", &after);
    printf(",\"speedup_kept\":%.3f,\"exact\":%s}\n",
           before.auto_s > 0 && after.auto_s > 0 ? (after.jps_s / after.auto_s) / (before.jps_s / before.auto_s) : 0.0,
           before.mismatches + after.mismatches == 0 ? "true" : "false");
    free(placed);
    pf_ctx_destroy(ca);
    pf_ctx_destroy(cj);
    pf_accel_destroy(acc);
    pf_jps_table_destroy(jt);
    pf_scen_destroy(sc);
    pf_map_destroy(m);
    return before.mismatches + after.mismatches ? 1 : 0;
}
