/* cmd_prep.c - `pathfind prep MAP -o FILE`: bake the long-query accelerator; and what every
 * subcommand that searches does before its timed queries (cli_prep_make). */
#include <string.h>
#include "cli.h"

static const char *HELP =
    "usage: pathfind prep MAP.map -o FILE [--threads N]\n"
    "\n"
    "Builds the long-query accelerator of a map (a contraction hierarchy over its subgoal graph, see\n"
    "pf_accel.h) and bakes it to FILE, which `scen`, `path` and `replay` read with --prep FILE\n"
    "and --algo auto. The file carries the map's fingerprint: it is refused for any other map, or\n"
    "for the same map edited (an accelerator read or built by those commands follows `scen --edits`\n"
    "and replay's edit lines by the cells that differ from its file's: it answers every query it can\n"
    "prove on the edited map, JPS the others, detail_accel_edited; see --accel-edits).\n"
    "Supported: 8-connected maps without corner\n"
    "cutting and without cost multipliers (other maps answer --algo auto with JPS or A*, and need no\n"
    "file).\n"
    "Prints one JSON object: map, prep_s (build), save_s, subgoals, graph_arcs, shortcuts, arcs,\n"
    "bytes, bytes_per_cell, file_bytes, peak_rss_kb.\n"
    "\n"
    "  -o FILE       output file (written beside FILE, then renamed over it)\n"
    "  --threads N   OpenMP threads for the build (default: all); the result does not depend on N\n"
    "\n"
    "example: pathfind prep rooms-2000.map -o rooms-2000.pfa\n"
    "         pathfind scen rooms-2000.map rooms-2000.map.scen --algo auto --prep rooms-2000.pfa\n";

int cli_prep_make(const char *cmd, const pf_map *map, pf_algo algo, const char *file, cli_prep *p)
{
    /* the accelerator follows the edits of --edits by its diff (microseconds an edit) */
    return cli_prep_make_edits(cmd, map, algo, file, PF_ACCEL_EDITS_CHECK, p);
}

int cli_prep_make_edits(const char *cmd, const pf_map *map, pf_algo algo, const char *file, pf_accel_edits edits,
                        cli_prep *p)
{
    *p = (cli_prep){0};
    if (file && algo != PF_ALGO_AUTO) {
        cli_error(cmd, "--prep FILE is read by --algo auto only");
        return 0;
    }
    double t0 = cli_now();
    const pf_accel_desc ad = {.edits = edits};
    if (algo == PF_ALGO_AUTO && file) {
        pf_diag diag;
        if (pf_accel_load(file, map, &ad, &p->accel, &diag) != PF_OK) {
            cli_error(cmd, "%s", diag.msg);
            return 0;
        }
    } else if (algo == PF_ALGO_AUTO && pf_accel_supported(map)) {
        pf_status st = pf_accel_create(map, &ad, &p->accel);
        if (st != PF_OK) {
            cli_error(cmd, "cannot build the accelerator: %s", pf_status_str(st));
            return 0;
        }
    }
    if (p->accel) {
        /* following edits by the diff, JPS answers what the accelerator cannot prove: its bitmaps
         * once here (1 MB on 2000x2000, following the edits), not inside the first such query */
        if (edits == PF_ACCEL_EDITS_CHECK && pf_jps_supported(map) &&
            pf_jps_table_create(map, &(pf_jps_desc){.bitmaps_only = 1}, &p->jps) != PF_OK)
            p->jps = NULL;
    } else if ((algo == PF_ALGO_JPS || algo == PF_ALGO_JPS_PLUS || algo == PF_ALGO_AUTO) && pf_jps_supported(map)) {
        /* JPS's tables once, outside the timed queries (one serves every context); AUTO without
         * an accelerator runs JPS+ on them */
        if (pf_jps_table_create(map, &(pf_jps_desc){.bitmaps_only = algo == PF_ALGO_JPS}, &p->jps) != PF_OK)
            p->jps = NULL; /* searches build their own */
    }
    p->prep_s = cli_now() - t0;
    return 1;
}

int cli_parse_accel_edits(const char *cmd, const char *s, pf_accel_edits *out)
{
    static const char *const names[] = {"stale", "rebuild", "check"};
    for (int k = 0; k < 3; k++)
        if (strcmp(s, names[k]) == 0) {
            *out = (pf_accel_edits)k;
            return 1;
        }
    cli_error(cmd, "--accel-edits: unknown mode '%s' (valid: check, rebuild, stale)", s);
    return 0;
}

void cli_prep_attach(const cli_prep *p, pf_ctx *ctx)
{
    if (p->jps) pf_ctx_use_jps_table(ctx, p->jps);
    if (p->accel) pf_ctx_use_accel(ctx, p->accel);
}

void cli_prep_free(cli_prep *p)
{
    pf_accel_destroy(p->accel);
    pf_jps_table_destroy(p->jps);
    *p = (cli_prep){0};
}

int pf_cli_prep(int argc, char **argv)
{
    const char *map_path = NULL, *out = NULL;
    long threads = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = cli_has_value(argc, argv, i);
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        } else if (strcmp(a, "-o") == 0 && has) {
            out = argv[++i];
        } else if (strcmp(a, "--threads") == 0 && has) {
            if (!cli_parse_int("prep", a, argv[++i], 1, CLI_MAX_THREADS, &threads)) return 2;
        } else if (a[0] == '-' && a[1]) {
            cli_error("prep", "unknown or incomplete option '%s' (see --help)", a);
            return 2;
        } else if (!map_path) {
            map_path = a;
        } else {
            cli_error("prep", "unexpected argument '%s'", a);
            return 2;
        }
    }
    if (!map_path || !out) {
        fputs(HELP, stderr);
        return 2;
    }
    if (cli_out_same("prep", "MAP", map_path, "-o", out)) return 2;
    if (cli_args_only) return 0;
    if (!cli_out_check("prep", out)) return 1; /* before a build of up to a minute, not after it */
    pf_diag diag;
    pf_map *map;
    if (pf_grid_load_movingai(map_path, NULL, &map, &diag) != PF_OK) {
        cli_error("prep", "%s", diag.msg);
        return 1;
    }
    if (!pf_accel_supported(map)) {
        cli_error("prep", "%s: the accelerator supports 8-connected maps without corner cutting "
                          "and without cost multipliers", map_path);
        pf_map_destroy(map);
        return 1;
    }
    double t0 = cli_now();
    pf_accel *acc;
    pf_status st = pf_accel_create(map, &(pf_accel_desc){.threads = (uint32_t)threads}, &acc);
    double prep_s = cli_now() - t0;
    if (st != PF_OK) {
        cli_error("prep", "cannot build the accelerator: %s", pf_status_str(st));
        pf_map_destroy(map);
        return 1;
    }
    t0 = cli_now();
    st = pf_accel_save(acc, out, &diag);
    double save_s = cli_now() - t0;
    if (st != PF_OK) {
        cli_error("prep", "%s", diag.msg);
        pf_accel_destroy(acc);
        pf_map_destroy(map);
        return 1;
    }
    pf_accel_info ai = pf_accel_get_info(acc);
    /* pf_search.h, PF_DETAIL_ACCEL_DECLINED: said before the minutes a game would spend loading it */
    const int declined = (uint64_t)ai.core * 2u > ai.subgoals;
    if (declined)
        fprintf(stderr,
                "pathfind prep: warning: the build left %u of its %u subgoals uncontracted (an open map whose "
                "subgoals see far): --algo auto answers by JPS here, faster than this accelerator "
                "(detail_accel_declined)\n",
                ai.core, ai.subgoals);
    printf("{\"map\":");
    cli_json_str(stdout, map_path);
    printf(",\"prep_s\":%.3f,\"save_s\":%.3f,\"subgoals\":%u,\"graph_arcs\":%u,\"shortcuts\":%u,"
           "\"arcs\":%u,\"core\":%u,\"used_by_auto\":%s,\"bytes\":%zu,\"bytes_per_cell\":%.2f,\"file_bytes\":%zu,"
           "\"peak_rss_kb\":%ld}\n",
           prep_s, save_s, ai.subgoals, ai.graph_arcs, ai.shortcuts, ai.arcs, ai.core, declined ? "false" : "true",
           ai.bytes, ai.bytes_per_cell, pf_accel_file_size(acc), cli_peak_rss_kb());
    pf_accel_destroy(acc);
    pf_map_destroy(map);
    return 0;
}
