/* cmd_scen.c - `pathfind scen MAP SCEN`: solve every scenario line, check the listed lengths. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const char *HELP =
    "usage: pathfind scen MAP.map SCEN.scen [--algo NAME] [--weight W] [--moves 4|8|8cut|hex]\n"
    "                     [--csv FILE [--csv-us]] [--threads N] [--prep FILE]\n"
    "\n"
    "Solves every line of a Moving AI scenario file and prints, as its last line, one JSON object:\n"
    "queries, solved, mismatches, total_s, us_per_query, expanded, prep_s (JPS tables or the accelerator,\n"
    "built or read once before the timed queries), jps_table_bytes, accel_bytes, peak_rss_kb.\n"
    "A mismatch is a cost that differs from the listed optimal length by more than 0.006 (the rounding\n"
    "of the listed values); for wastar, a cost above weight x optimal; for greedy and bfs, a cost below\n"
    "the optimum. Lengths are checked only for --moves 8 (the benchmark's convention).\n"
    "\n"
    "  --algo NAME   astar (default), wastar, dijkstra, bfs, greedy, jps, jps+, auto (the accelerator for\n"
    "                long queries, A* for short ones; JPS+ on maps it does not support)\n"
    "  --weight W    weight for wastar (default 1.5)\n"
    "  --moves M     8 = 8-connected without corner cutting (default), 8cut, 4, hex\n"
    "  --csv FILE    one row per query: id,bucket,sx,sy,gx,gy,status,cost,expanded,path_len\n"
    "  --csv-us      add a last CSV column `us` (microseconds for that search; 0 with --threads)\n"
    "  --threads N   solve the file as one batch on N worker threads (results do not depend on N)\n"
    "  --prep FILE   with --algo auto: the accelerator baked by `pathfind prep` instead of building it\n"
    "\n"
    "example: pathfind scen arena.map arena.map.scen --algo astar --csv out.csv\n";

int pf_cli_scen(int argc, char **argv)
{
    const char *pos[2] = {0};
    int npos = 0;
    const char *csv = NULL, *prep_file = NULL;
    int csv_us = 0; /* the CSV contract is exactly ten columns; timings only on request */
    pf_search_desc d = {0};
    pf_moves moves = PF_MOVES_8_NO_CUT;
    long threads = 1;
    int batched = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        }
        int has = i + 1 < argc;
        if (strcmp(a, "--algo") == 0 && has) {
            if (!cli_parse_algo("scen", argv[++i], &d.algo)) return 2;
        } else if (strcmp(a, "--weight") == 0 && has) {
            if (!cli_parse_double("scen", a, argv[++i], 1.0, &d.weight)) return 2;
        } else if (strcmp(a, "--moves") == 0 && has) {
            if (!cli_parse_moves("scen", argv[++i], &moves)) return 2;
        } else if (strcmp(a, "--csv") == 0 && has) {
            csv = argv[++i];
        } else if (strcmp(a, "--prep") == 0 && has) {
            prep_file = argv[++i];
        } else if (strcmp(a, "--csv-us") == 0) {
            csv_us = 1;
        } else if (strcmp(a, "--threads") == 0 && has) {
            if (!cli_parse_int("scen", a, argv[++i], 1, 1024, &threads)) return 2;
            batched = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "pathfind scen: unknown or incomplete option '%s' (see --help)\n", a);
            return 2;
        } else if (npos < 2) {
            pos[npos++] = a;
        } else {
            fprintf(stderr, "pathfind scen: unexpected argument '%s'\n", a);
            return 2;
        }
    }
    if (npos != 2) {
        fputs(HELP, stderr);
        return 2;
    }
    if (d.algo == PF_ALGO_WASTAR && d.weight == 0) d.weight = 1.5;

    pf_diag diag;
    pf_map *map;
    pf_grid_load_desc ld = {.moves = moves};
    if (pf_grid_load_movingai(pos[0], &ld, &map, &diag) != PF_OK) {
        fprintf(stderr, "pathfind scen: %s\n", diag.msg);
        return 1;
    }
    pf_scen *sc;
    if (pf_scen_load(pos[1], NULL, &sc, &diag) != PF_OK) {
        fprintf(stderr, "pathfind scen: %s\n", diag.msg);
        pf_map_destroy(map);
        return 1;
    }
    FILE *out = NULL;
    if (csv) {
        out = fopen(csv, "w");
        if (!out) {
            fprintf(stderr, "pathfind scen: cannot write '%s'\n", csv);
            pf_scen_destroy(sc);
            pf_map_destroy(map);
            return 1;
        }
        fprintf(out, "id,bucket,sx,sy,gx,gy,status,cost,expanded,path_len%s\n", csv_us ? ",us" : "");
    }
    pf_ctx *ctx;
    if (pf_ctx_create(map, NULL, &ctx) != PF_OK) {
        fprintf(stderr, "pathfind scen: out of memory creating a search context\n");
        if (out) fclose(out);
        pf_scen_destroy(sc);
        pf_map_destroy(map);
        return 1;
    }
    /* JPS tables or the accelerator once, outside the timed queries (one serves every context);
     * unsupported maps simply fall back inside the search. */
    cli_prep prep;
    if (!cli_prep_make("scen", map, d.algo, prep_file, &prep)) {
        if (out) fclose(out);
        pf_ctx_destroy(ctx);
        pf_scen_destroy(sc);
        pf_map_destroy(map);
        return 1;
    }
    cli_prep_attach(&prep, ctx);
    pf_jps_table *jt = prep.jps;
    double prep_s = prep.prep_s;
    pf_search_desc rd = pf_search_desc_resolve(map, &d);
    int check = moves == PF_MOVES_8_NO_CUT;
    uint32_t n = pf_scen_count(sc), solved = 0, mismatches = 0, size_warn = 0;
    uint64_t expanded = 0;
    double total = 0.0;
    cli_pathbuf pb = {0};
    cli_progress_state prog = {.label = "scen"};
    /* --threads: the whole file is one pf_batch run (groups off, so every row's expanded count is
     * that query's own search and the CSV matches the serial one; identical queries still share a
     * search and report its counts). total_s is then the run's wall time. */
    pf_batch *batch = NULL;
    pf_query_id *ids = NULL;
    if (batched) {
        ids = calloc(n ? n : 1, sizeof *ids);
        pf_batch_desc bd = {.workers = (uint32_t)threads, .flags = PF_BATCH_NO_GROUPS, .jps_table = jt,
                            .accel = prep.accel};
        if (!ids || pf_batch_create(map, &bd, &batch) != PF_OK) {
            fprintf(stderr, "pathfind scen: out of memory creating the batch\n");
            free(ids);
            if (out) fclose(out);
            pf_ctx_destroy(ctx);
            cli_prep_free(&prep);
            pf_scen_destroy(sc);
            pf_map_destroy(map);
            return 1;
        }
        for (uint32_t i = 0; i < n; i++) {
            const pf_scen_entry *e = pf_scen_get(sc, i);
            pf_batch_query q = {.start = pf_grid_node(map, e->sx, e->sy), .goal = pf_grid_node(map, e->gx, e->gy),
                                .search = d, .tag = i};
            if (pf_batch_submit(batch, &q, &ids[i]) != PF_OK) {
                fprintf(stderr, "pathfind scen: out of memory queueing queries\n");
                break;
            }
        }
        double t0 = cli_now();
        pf_batch_run(batch, NULL);
        total = cli_now() - t0;
    }
    for (uint32_t i = 0; i < n; i++) {
        const pf_scen_entry *e = pf_scen_get(sc, i);
        if (e->map_width != pf_grid_width(map) || e->map_height != pf_grid_height(map)) size_warn++;
        uint32_t s = pf_grid_node(map, e->sx, e->sy), g = pf_grid_node(map, e->gx, e->gy);
        pf_path path;
        pf_stats st;
        pf_status r;
        double dt = 0.0; /* per-query time is only known for serial runs */
        if (batch) {
            pf_batch_result br;
            if (pf_batch_get(batch, ids[i], &br) != PF_OK) br = (pf_batch_result){.status = PF_OUT_OF_MEMORY};
            r = br.status;
            st = br.stats;
        } else {
            double t0 = cli_now();
            r = cli_search(ctx, s, g, &d, &pb, &path, &st);
            dt = cli_now() - t0;
            total += dt;
            cli_progress(&prog, i + 1, n);
        }
        int ok = r == PF_OK || r == PF_FALLBACK;
        solved += ok;
        expanded += st.expanded;
        if (check) {
            int bad;
            if (!ok) bad = 1;
            else if (cli_algo_optimal(rd.algo)) bad = fabs(st.cost - e->optimal) > PF_SCEN_TOLERANCE;
            else if (rd.algo == PF_ALGO_WASTAR) bad = st.cost > rd.weight * e->optimal + PF_SCEN_TOLERANCE;
            else bad = st.cost < e->optimal - PF_SCEN_TOLERANCE;
            mismatches += bad;
        }
        if (out) {
            fprintf(out, "%u,%u,%d,%d,%d,%d,%s,%.8f,%u,%u", i, e->bucket, e->sx, e->sy, e->gx, e->gy,
                    cli_status_word(r), ok ? st.cost : -1.0, st.expanded, ok ? st.path_len : 0);
            if (csv_us) fprintf(out, ",%.3f", dt * 1e6);
            fputc('\n', out);
        }
    }
    if (size_warn)
        fprintf(stderr, "pathfind scen: warning: %u scenario lines name a map size other than %ux%u\n", size_warn,
                pf_grid_width(map), pf_grid_height(map));
    if (out) fclose(out);
    printf("{\"map\":\"%s\",\"algo\":\"%s\",\"weight\":%g,\"threads\":%ld,\"queries\":%u,\"solved\":%u,"
           "\"mismatches\":%u,\"checked\":%s,\"total_s\":%.6f,\"us_per_query\":%.3f,\"expanded\":%llu,"
           "\"ctx_bytes_per_cell\":%.2f,\"prep_s\":%.6f,\"jps_table_bytes\":%zu,\"accel_bytes\":%zu,\"peak_rss_kb\":%ld}\n",
           pos[0], pf_algo_name(rd.algo), rd.weight, threads, n, solved, mismatches, check ? "true" : "false",
           total, n ? total * 1e6 / n : 0.0, (unsigned long long)expanded,
           (double)pf_ctx_bytes_per_node(ctx) * (double)(pf_grid_width(map) + 2) * (pf_grid_height(map) + 2) /
               ((double)pf_grid_width(map) * pf_grid_height(map)),
           prep_s, pf_jps_table_mem_size(jt), pf_accel_mem_size(prep.accel), cli_peak_rss_kb());
    cli_pathbuf_free(&pb);
    pf_batch_destroy(batch);
    free(ids);
    pf_ctx_destroy(ctx);
    cli_prep_free(&prep);
    pf_scen_destroy(sc);
    pf_map_destroy(map);
    return mismatches ? 1 : 0;
}
