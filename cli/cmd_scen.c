/* cmd_scen.c - `pathfind scen MAP SCEN`: solve every scenario line, check the listed lengths. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const char *HELP =
    "usage: pathfind scen MAP.map SCEN.scen [--algo NAME] [--weight W] [--moves 4|8|8cut|hex]\n"
    "                     [--csv FILE [--csv-us]] [--threads N] [--edits EDITS] [--prep FILE]\n"
    "                     [--size K] [--partial] [--classes CHARS [--class-cost C=X[,C=X]]]\n"
    "\n"
    "Solves every line of a Moving AI scenario file and prints, as its last line, one JSON object:\n"
    "queries, solved, mismatches, total_s, us_per_query, expanded, prep_s (JPS tables or the accelerator,\n"
    "built or read once before the timed queries), jps_table_bytes, accel_bytes, peak_rss_kb, then how\n"
    "the queries were answered: by_ALGO for each search that answered (by_auto: the accelerator) and\n"
    "the counts of each pf_stats.detail bit (detail_fallback, detail_accel, detail_accel_stale,\n"
    "detail_short, detail_partial, detail_accel_edited, detail_accel_declined).\n"
    "A mismatch is a cost that differs from the listed optimal length by more than 0.006 (the rounding\n"
    "of the listed values); with a weight (wastar, jps, jps+), a cost above weight x optimal; for greedy\n"
    "and bfs, a cost below the optimum; for theta (any-angle), a cost above the optimum or below the\n"
    "straight line. Lengths are checked only for --moves 8 (the benchmark's convention), without --edits\n"
    "and for one-cell units.\n"
    "\n"
    "  --algo NAME   astar (default), wastar, dijkstra, bfs, greedy, jps, jps+, auto (the accelerator for\n"
    "                long queries, A* for short ones; JPS or A* on maps it does not support), theta\n"
    "  --weight W    weight for wastar (default 1.5), jps and jps+; an error with the others\n"
    "  --moves M     8 = 8-connected without corner cutting (default), 8cut, 4, hex\n"
    "  --csv FILE    one row per query: id,bucket,sx,sy,gx,gy,status,cost,expanded,path_len\n"
    "  --csv-us      add a last CSV column `us` (microseconds for that search; 0 with --threads)\n"
    "  --threads N   solve the file as batches on N worker threads, up to 1,048,575 queries\n"
    "                (PF_BATCH_MAX_QUERIES) at a time (results do not depend on N)\n"
    "  --edits FILE  apply the edits (pathfind edit --help) to the loaded map first, JPS tables\n"
    "                built before and following them; adds edits and edit_us (mean microseconds\n"
    "                per edit line, derived data included) to the JSON\n"
    "  --prep FILE   with --algo auto: the accelerator baked by `pathfind prep` instead of building it\n"
    "  --accel-edits MODE  how the accelerator follows --edits: check (default: by the cells that\n"
    "                differ from its build's, microseconds an edit; queries it cannot prove on the\n"
    "                edited map are JPS's, detail_accel_edited), rebuild (rebuilt by each edit),\n"
    "                stale (not used after an edit: detail_accel_stale). Adds accel_edited_cells\n"
    "                (cells that differ from the accelerator's build at the end) to the JSON\n"
    "  --size K      units of K x K cells (1..32; a query's cells are the unit's top-left cell); a start\n"
    "                or goal where the unit cannot stand is invalid. jps, jps+ and auto run JPS for K > 1\n"
    "  --partial     a goal that cannot be reached gives status partial and the path to the reachable\n"
    "                cell nearest it (cost and path_len of that path; not counted as solved)\n"
    "  --classes CHARS  the Moving AI terrain the unit may enter: . G S ground, W water, T trees (e.g.\n"
    "                .W for a hover unit); without it a unit keeps to its start's terrain\n"
    "  --class-cost C=X[,C=X]  with --classes: the multiplier of a step into terrain C (default 1)\n"
    "                (lengths are not checked with them; jps, jps+ and auto run JPS where the\n"
    "                classes cost one multiplier, else A*: detail_fallback)\n"
    "\n"
    "example: pathfind scen arena.map arena.map.scen --algo astar --csv out.csv\n";

typedef struct scen_args {
    const char *map, *scen, *csv, *edits, *prep;
    pf_accel_edits accel_edits; /* --accel-edits */
    int            accel_edits_given;
    int csv_us;          /* the CSV contract is exactly ten columns; timings only on request */
    int weight_given, batched;
    long threads;
    pf_search_desc d;
    pf_moves moves;
    cli_filter filt; /* d.filter points here */
} scen_args;

/* Returns -1 when the arguments are good, else the exit code (0 after --help). */
static int parse_args(int argc, char **argv, scen_args *a)
{
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (cli_is_help(s)) {
            fputs(HELP, stdout);
            return 0;
        }
        int has = cli_has_value(argc, argv, i);
        if (strcmp(s, "--algo") == 0 && has) {
            if (!cli_parse_algo("scen", argv[++i], &a->d.algo)) return 2;
        } else if (strcmp(s, "--weight") == 0 && has) {
            if (!cli_parse_double("scen", s, argv[++i], 1.0, &a->d.weight)) return 2;
            a->weight_given = 1;
        } else if (strcmp(s, "--moves") == 0 && has) {
            if (!cli_parse_moves("scen", argv[++i], &a->moves)) return 2;
        } else if (strcmp(s, "--csv") == 0 && has) {
            a->csv = argv[++i];
        } else if (strcmp(s, "--edits") == 0 && has) {
            a->edits = argv[++i];
        } else if (strcmp(s, "--prep") == 0 && has) {
            a->prep = argv[++i];
        } else if (strcmp(s, "--accel-edits") == 0 && has) {
            if (!cli_parse_accel_edits("scen", argv[++i], &a->accel_edits)) return 2;
            a->accel_edits_given = 1;
        } else if (strcmp(s, "--size") == 0 && has) {
            long k;
            if (!cli_parse_int("scen", s, argv[++i], 1, PF_UNIT_SIZE_MAX, &k)) return 2;
            a->d.unit_size = (uint32_t)k;
        } else if ((strcmp(s, "--classes") == 0 || strcmp(s, "--class-cost") == 0) && has) {
            if (cli_filter_opt("scen", s, argv[++i], &a->filt) != 1) return 2;
        } else if (strcmp(s, "--partial") == 0) {
            a->d.partial = 1;
        } else if (strcmp(s, "--csv-us") == 0) {
            a->csv_us = 1;
        } else if (strcmp(s, "--threads") == 0 && has) {
            if (!cli_parse_int("scen", s, argv[++i], 1, CLI_MAX_THREADS, &a->threads)) return 2;
            a->batched = 1;
        } else if (s[0] == '-' && s[1]) {
            cli_error("scen", "unknown or incomplete option '%s' (see --help)", s);
            return 2;
        } else if (npos < 2) {
            *(npos++ ? &a->scen : &a->map) = s;
        } else {
            cli_error("scen", "unexpected argument '%s'", s);
            return 2;
        }
    }
    if (npos != 2) {
        fputs(HELP, stderr);
        return 2;
    }
    if (!cli_check_weight("scen", a->d.algo, a->weight_given, 1)) return 2;
    if (!cli_filter_done("scen", &a->filt, &a->d.filter)) return 2;
    if (!cli_check_moves("scen", a->moves, a->d.algo, 0, a->d.unit_size)) return 2;
    /* usage errors, as replay says them */
    if (a->csv_us && !a->csv) {
        cli_error("scen", "--csv-us adds a column to the --csv file: give --csv FILE");
        return 2;
    }
    if ((a->prep || a->accel_edits_given) && a->d.algo != PF_ALGO_AUTO) {
        cli_error("scen", "%s is read by --algo auto only", a->prep ? "--prep" : "--accel-edits");
        return 2;
    }
    if (a->d.algo == PF_ALGO_WASTAR && a->d.weight == 0) a->d.weight = 1.5;
    const char *const in_opts[] = {"MAP", "SCEN", "--edits", "--prep"}, *const ins[] = {a->map, a->scen, a->edits, a->prep};
    if (cli_out_names_input("scen", "--csv", a->csv, 4, in_opts, ins)) return 2;
    return -1;
}

/* What one run holds: the map, its queries, a context, and the shared JPS tables. */
typedef struct scen_run {
    pf_map *map;
    pf_scen *sc;
    pf_ctx *ctx;
    cli_prep prep; /* JPS tables or the accelerator, and the time they took */
} scen_run;

static void run_free(scen_run *r)
{
    pf_ctx_destroy(r->ctx);
    cli_prep_free(&r->prep);
    pf_scen_destroy(r->sc);
    pf_map_destroy(r->map);
}

static int run_load(scen_run *r, const scen_args *a)
{
    pf_diag diag;
    if (pf_grid_load_movingai(a->map, &(pf_grid_load_desc){.moves = a->moves}, &r->map, &diag) != PF_OK ||
        pf_scen_load(a->scen, NULL, &r->sc, &diag) != PF_OK) {
        cli_error("scen", "%s", diag.msg);
        return 0;
    }
    if (pf_ctx_create(r->map, NULL, &r->ctx) != PF_OK) {
        cli_error("scen", "out of memory creating a search context");
        return 0;
    }
    /* JPS tables or the accelerator once, outside the timed queries (one serves every context);
     * unsupported maps simply fall back inside the search. */
    if (!cli_prep_make_edits("scen", r->map, a->d.algo, a->prep, a->accel_edits, &r->prep)) return 0;
    cli_prep_attach(&r->prep, r->ctx);
    return 1;
}

/* --threads: the file runs as pf_batch runs of at most PF_BATCH_MAX_QUERIES queries each, one after
 * the other on one batch (a file of more lines was refused: "queueing query 1048575: input exceeds
 * a documented size limit"). Groups are off, so every row's expanded count is that query's own
 * search and the CSV matches the serial one; identical queries of a run share a search and report
 * its counts, which are the same. */
typedef struct scen_batch {
    pf_batch    *batch;
    pf_query_id *ids;        /* the current chunk's, ids[i - first] */
    uint32_t     first, end; /* the chunk's lines: first <= i < end */
} scen_batch;

static int batch_open(scen_batch *sb, const scen_run *r, const scen_args *a)
{
    uint32_t n = pf_scen_count(r->sc), cap = n < PF_BATCH_MAX_QUERIES ? n : PF_BATCH_MAX_QUERIES;
    sb->ids = calloc(cap ? cap : 1, sizeof *sb->ids);
    pf_batch_desc bd = {.workers = (uint32_t)a->threads, .flags = PF_BATCH_NO_GROUPS, .jps_table = r->prep.jps,
                        .accel = r->prep.accel};
    pf_status s = sb->ids ? pf_batch_create(r->map, &bd, &sb->batch) : PF_OUT_OF_MEMORY;
    if (s != PF_OK) {
        cli_error("scen", "creating the batch: %s", pf_status_str(s));
        return 0;
    }
    return 1;
}

/* Queues and runs the lines from `first` (at most PF_BATCH_MAX_QUERIES), the previous chunk's
 * results expired first; adds the run's wall time to *total. */
static int batch_chunk(scen_batch *sb, const scen_run *r, const scen_args *a, uint32_t first, double *total)
{
    uint32_t n = pf_scen_count(r->sc), left = n - first;
    uint32_t end = first + (left < PF_BATCH_MAX_QUERIES ? left : PF_BATCH_MAX_QUERIES);
    pf_status s = pf_batch_reset(sb->batch);
    for (uint32_t i = first; s == PF_OK && i < end; i++) {
        const pf_scen_entry *e = pf_scen_get(r->sc, i);
        pf_batch_query q = {.start = pf_grid_node(r->map, e->sx, e->sy), .goal = pf_grid_node(r->map, e->gx, e->gy),
                            .search = a->d, .tag = i};
        if ((s = pf_batch_submit(sb->batch, &q, &sb->ids[i - first])) != PF_OK) {
            cli_error("scen", "queueing query %u: %s (a run holds at most %u: PF_BATCH_MAX_QUERIES)", i,
                      pf_status_str(s), (unsigned)PF_BATCH_MAX_QUERIES);
            return 0;
        }
    }
    double t0 = cli_now();
    if (s == PF_OK) s = pf_batch_run(sb->batch, NULL);
    *total += cli_now() - t0;
    if (s != PF_OK) {
        cli_error("scen", "running the batch: %s", pf_status_str(s));
        return 0;
    }
    sb->first = first;
    sb->end = end;
    return 1;
}

/* Whether a result contradicts the listed optimal length (NaN-proof: the comparisons are written
 * so that anything not a number counts as a mismatch). */
static int is_mismatch(const pf_search_desc *rd, int ok, double cost, const pf_scen_entry *e)
{
    const double optimal = e->optimal;
    if (!ok) return 1;
    /* a weight (resolved: 1 for the algorithms that take none) bounds WA*, JPS and JPS+ alike */
    if (rd->weight > 1.0 || rd->algo == PF_ALGO_WASTAR) return !(cost <= rd->weight * optimal + PF_SCEN_TOLERANCE);
    if (cli_algo_optimal(rd->algo)) return !(fabs(cost - optimal) <= PF_SCEN_TOLERANCE);
    if (rd->algo == PF_ALGO_THETA) {
        /* any-angle: never longer than the grid's optimum, never shorter than the straight line */
        const double dx = (double)e->gx - e->sx, dy = (double)e->gy - e->sy;
        return !(cost <= optimal + PF_SCEN_TOLERANCE && cost >= sqrt(dx * dx + dy * dy) - PF_SCEN_TOLERANCE);
    }
    return !(cost >= optimal - PF_SCEN_TOLERANCE);
}

int pf_cli_scen(int argc, char **argv)
{
    scen_args a = {.threads = 1, .moves = PF_MOVES_8_NO_CUT, .accel_edits = PF_ACCEL_EDITS_CHECK};
    int prc = parse_args(argc, argv, &a);
    if (prc >= 0) return prc;
    if (cli_args_only) return 0;
    scen_run r = {0};
    cli_out csv = {0};
    FILE *out = NULL;
    scen_batch sb = {0};
    int rc = 1;
    if (!run_load(&r, &a)) goto done;
    /* --edits: the map changes in place; the context and the JPS table follow each edit */
    cli_edit_stats es = {0};
    if (a.edits && !cli_apply_edits("scen", r.map, a.edits, NULL, NULL, &es)) goto done;
    if (a.csv) {
        if (!(out = cli_out_open(&csv, "scen", a.csv))) goto done;
        fprintf(out, "id,bucket,sx,sy,gx,gy,status,cost,expanded,path_len%s\n", a.csv_us ? ",us" : "");
    }
    pf_search_desc rd = pf_search_desc_resolve(r.map, &a.d);
    /* the listed lengths are the unedited map's, for one-cell units */
    int check = a.moves == PF_MOVES_8_NO_CUT && !a.edits && rd.unit_size <= 1 && !rd.filter;
    uint32_t n = pf_scen_count(r.sc), solved = 0, mismatches = 0, size_warn = 0;
    cli_answers answers = {0};
    uint64_t expanded = 0;
    double total = 0.0;
    cli_pathbuf pb = {0};
    cli_progress_state prog = {.label = "scen"};
    if (a.batched && !batch_open(&sb, &r, &a)) goto done;
    for (uint32_t i = 0; i < n; i++) {
        if (sb.batch && i == sb.end && !batch_chunk(&sb, &r, &a, i, &total)) goto done;
        const pf_scen_entry *e = pf_scen_get(r.sc, i);
        if (e->map_width != pf_grid_width(r.map) || e->map_height != pf_grid_height(r.map)) size_warn++;
        pf_path path;
        pf_stats st;
        pf_status s;
        double dt = 0.0; /* per-query time is only known for serial runs */
        if (sb.batch) {
            pf_batch_result br;
            if (pf_batch_get(sb.batch, sb.ids[i - sb.first], &br) != PF_OK) br = (pf_batch_result){.status = PF_OUT_OF_MEMORY};
            s = br.status;
            st = br.stats;
        } else {
            uint32_t sn = pf_grid_node(r.map, e->sx, e->sy), gn = pf_grid_node(r.map, e->gx, e->gy);
            double t0 = cli_now();
            s = cli_search(r.ctx, sn, gn, &a.d, &pb, &path, &st);
            dt = cli_now() - t0;
            total += dt;
            cli_progress(&prog, i + 1, n);
        }
        int ok = s == PF_OK, has_path = ok || s == PF_PARTIAL;
        cli_answers_add(&answers, &st);
        solved += ok;
        expanded += st.expanded;
        if (check) mismatches += is_mismatch(&rd, ok, st.cost, e);
        if (out) {
            fprintf(out, "%u,%u,%d,%d,%d,%d,%s,%.8f,%u,%u", i, e->bucket, e->sx, e->sy, e->gx, e->gy,
                    cli_status_word(s), has_path ? st.cost : -1.0, st.expanded, has_path ? st.path_len : 0);
            if (a.csv_us) fprintf(out, ",%.3f", dt * 1e6);
            fputc('\n', out);
        }
    }
    cli_pathbuf_free(&pb);
    if (size_warn)
        cli_error("scen", "warning: %u scenario lines name a map size other than %ux%u", size_warn,
                  pf_grid_width(r.map), pf_grid_height(r.map));
    if (out && !cli_out_close(&csv, "scen", 1)) {
        out = NULL;
        goto done;
    }
    out = NULL;
    printf("{\"map\":");
    cli_json_str(stdout, a.map);
    printf(",\"algo\":\"%s\",\"weight\":%g,\"size\":%u,\"threads\":%ld,\"queries\":%u,\"solved\":%u,"
           "\"mismatches\":%u,\"checked\":%s,\"total_s\":%.6f,\"us_per_query\":%.3f,\"expanded\":%llu,"
           "\"ctx_bytes_per_cell\":%.2f,\"prep_s\":%.6f,\"jps_table_bytes\":%zu,\"accel_bytes\":%zu,\"peak_rss_kb\":%ld",
           pf_algo_name(rd.algo), rd.weight, rd.unit_size, a.threads, n, solved, mismatches, check ? "true" : "false", total,
           n ? total * 1e6 / n : 0.0, (unsigned long long)expanded,
           (double)pf_ctx_bytes_per_node(r.ctx) * (double)(pf_grid_width(r.map) + 2) * (pf_grid_height(r.map) + 2) /
               ((double)pf_grid_width(r.map) * pf_grid_height(r.map)),
           r.prep.prep_s, pf_jps_table_mem_size(r.prep.jps), pf_accel_mem_size(r.prep.accel), cli_peak_rss_kb());
    if (a.edits) printf(",\"edits\":%u,\"edit_us\":%.3f", es.edits, es.edits ? es.seconds * 1e6 / es.edits : 0.0);
    if (a.edits && r.prep.accel) printf(",\"accel_edited_cells\":%u", pf_accel_get_info(r.prep.accel).edited_cells);
    cli_answers_json(stdout, &answers);
    printf("}\n");
    rc = mismatches ? 1 : 0;
done:
    if (out) cli_out_close(&csv, "scen", 0);
    pf_batch_destroy(sb.batch);
    free(sb.ids);
    run_free(&r);
    return rc;
}
