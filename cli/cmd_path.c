/* cmd_path.c - `pathfind path MAP SX SY GX GY`: one query, printed. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const char *HELP =
    "usage: pathfind path MAP.map SX SY GX GY [--algo NAME] [--weight W] [--moves 4|8|8cut|hex] [--json]\n"
    "                     [--prep FILE] [--waypoints] [--size K] [--partial] [--smooth]\n"
    "                     [--classes CHARS [--class-cost C=X[,C=X]]]\n"
    "\n"
    "Finds one path and prints its status, the search that answered and how (answered_by, detail:\n"
    "fallback, accel, accel_stale, short, partial, accel_edited, accel_declined), cost, expansions and\n"
    "the cells (x,y) from start to goal.\n"
    "--weight W is read by wastar (default 1.5), jps and jps+; with another algorithm it is an error.\n"
    "--algo auto builds the accelerator first, or reads it from --prep FILE (`pathfind prep`); the\n"
    "time it took is prep_s. --waypoints prints only the start, the cells where the path turns and\n"
    "the goal (not with --smooth, which prints its own). --size K searches for a unit of K x K cells (1..32) whose top-left cell is at SX SY;\n"
    "jps, jps+ and auto run JPS for K > 1. --partial: when the goal cannot be reached, the status is\n"
    "partial and the path leads to the reachable cell nearest it (exit status 0, like no_path).\n"
    "--classes CHARS names the Moving AI terrain the unit may enter (. G S ground, W water, T trees;\n"
    "--classes .W: a hover unit); --class-cost C=X[,C=X] the multiplier of a step into terrain C\n"
    "(default 1). Without them a unit keeps to its start's terrain. jps, jps+ and auto answer a\n"
    "filtered query by JPS where its classes cost one multiplier, else by A* (detail: fallback);\n"
    "with --size the unit's whole block must be on them (answered by A*); --smooth does not take them.\n"
    "--smooth adds the path pulled into straight segments (pf_path_smooth): waypoints and their\n"
    "Euclidean length smooth_cost. --algo theta searches any-angle (Theta*): its path is already\n"
    "waypoints, and smooth_cost is its cost.\n"
    "\n"
    "example: pathfind path maps/demo-512.map 10 10 500 400 --algo astar\n";

int pf_cli_path(int argc, char **argv)
{
    const char *pos[5] = {0};
    int npos = 0, json = 0, smooth = 0;
    const char *prep_file = NULL;
    pf_search_desc d = {0};
    cli_filter filt = {0};
    pf_moves moves = PF_MOVES_8_NO_CUT;
    int weight_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = cli_has_value(argc, argv, i);
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        } else if (strcmp(a, "--algo") == 0 && has) {
            if (!cli_parse_algo("path", argv[++i], &d.algo)) return 2;
        } else if (strcmp(a, "--weight") == 0 && has) {
            if (!cli_parse_double("path", a, argv[++i], 1.0, &d.weight)) return 2;
            weight_given = 1;
        } else if (strcmp(a, "--moves") == 0 && has) {
            if (!cli_parse_moves("path", argv[++i], &moves)) return 2;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--prep") == 0 && has) {
            prep_file = argv[++i];
        } else if (strcmp(a, "--size") == 0 && has) {
            long k;
            if (!cli_parse_int("path", a, argv[++i], 1, PF_UNIT_SIZE_MAX, &k)) return 2;
            d.unit_size = (uint32_t)k;
        } else if (strcmp(a, "--smooth") == 0) {
            smooth = 1;
        } else if ((strcmp(a, "--classes") == 0 || strcmp(a, "--class-cost") == 0) && has) {
            if (cli_filter_opt("path", a, argv[++i], &filt) != 1) return 2;
        } else if (strcmp(a, "--partial") == 0) {
            d.partial = 1;
        } else if (strcmp(a, "--waypoints") == 0) {
            d.waypoints = 1;
        } else if (a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9')) {
            cli_error("path", "unknown or incomplete option '%s' (see --help)", a);
            return 2;
        } else if (npos < 5) {
            pos[npos++] = a;
        } else {
            cli_error("path", "unexpected argument '%s'", a);
            return 2;
        }
    }
    if (npos != 5) {
        fputs(HELP, stderr);
        return 2;
    }
    long c[4];
    static const char *const names[4] = {"SX", "SY", "GX", "GY"};
    for (int k = 0; k < 4; k++)
        if (!cli_parse_int("path", names[k], pos[k + 1], -2147483647L, 2147483647L, &c[k])) return 2;
    if (!cli_check_weight("path", d.algo, weight_given, 1)) return 2;
    if (!cli_filter_done("path", &filt, &d.filter)) return 2;
    if (d.filter && (smooth || d.algo == PF_ALGO_THETA)) {
        cli_error("path", "--classes goes with grid paths (not --smooth or theta)");
        return 2;
    }
    if (!cli_check_moves("path", moves, d.algo, smooth, d.unit_size)) return 2;
    if (smooth && d.waypoints) { /* pf_path_smooth reads a path of adjacent cells, not turns */
        cli_error("path", "--smooth pulls the whole path straight and --waypoints keeps only its turns: give "
                          "one of them (--smooth prints its own waypoints)");
        return 2;
    }
    if (prep_file && d.algo != PF_ALGO_AUTO) { /* a usage error, as replay says it */
        cli_error("path", "--prep is read by --algo auto only");
        return 2;
    }
    if (d.algo == PF_ALGO_WASTAR && d.weight == 0) d.weight = 1.5;
    if (cli_args_only) return 0;
    pf_diag diag;
    pf_map *map;
    if (pf_grid_load_movingai(pos[0], &(pf_grid_load_desc){.moves = moves}, &map, &diag) != PF_OK) {
        cli_error("path", "%s", diag.msg);
        return 1;
    }
    /* a point off the map is a usage error named here (as table path does), not a status "invalid" */
    uint32_t w = pf_grid_width(map), h = pf_grid_height(map);
    for (int k = 0; k < 4; k += 2) {
        if (c[k] < 0 || c[k + 1] < 0 || (uint64_t)c[k] >= w || (uint64_t)c[k + 1] >= h) {
            cli_error("path", "%s (%ld,%ld) is outside the %ux%u map", k ? "goal" : "start", c[k], c[k + 1], w, h);
            pf_map_destroy(map);
            return 2;
        }
    }
    pf_ctx *ctx;
    if (pf_ctx_create(map, NULL, &ctx) != PF_OK) {
        cli_error("path", "out of memory");
        pf_map_destroy(map);
        return 1;
    }
    cli_prep prep;
    if (!cli_prep_make("path", map, d.algo, prep_file, &prep)) {
        pf_ctx_destroy(ctx);
        pf_map_destroy(map);
        return 1;
    }
    cli_prep_attach(&prep, ctx);
    uint32_t s = pf_grid_node(map, (int32_t)c[0], (int32_t)c[1]), g = pf_grid_node(map, (int32_t)c[2], (int32_t)c[3]);
    cli_pathbuf pb = {0};
    pf_path path;
    pf_stats st;
    double t0 = cli_now();
    pf_status r = cli_search(ctx, s, g, &d, &pb, &path, &st);
    double us = (cli_now() - t0) * 1e6;
    int ok = r == PF_OK || r == PF_PARTIAL;
    /* waypoints: Theta*'s path itself, or the grid path pulled straight */
    uint32_t nway = 0;
    double smooth_cost = 0.0;
    uint32_t *way = NULL;
    int with_way = ok && (smooth || d.algo == PF_ALGO_THETA) && path.len;
    if (with_way) {
        way = malloc((size_t)path.len * sizeof *way);
        if (!way) {
            cli_error("path", "out of memory");
            cli_pathbuf_free(&pb);
            pf_ctx_destroy(ctx);
            cli_prep_free(&prep);
            pf_map_destroy(map);
            return 1;
        }
        if (d.algo == PF_ALGO_THETA) {
            memcpy(way, pb.nodes, (size_t)path.len * sizeof *way);
            nway = path.len;
            smooth_cost = st.cost;
        } else {
            pf_status ss = pf_path_smooth(map, pb.nodes, path.len, &(pf_smooth_desc){.unit_size = d.unit_size}, way,
                                          path.len, &nway, &smooth_cost);
            if (ss != PF_OK) { /* never a silent empty list */
                cli_error("path", "smoothing failed: %s", pf_status_str(ss));
                free(way);
                cli_pathbuf_free(&pb);
                pf_ctx_destroy(ctx);
                cli_prep_free(&prep);
                pf_map_destroy(map);
                return 1;
            }
        }
    }
    if (json) {
        printf("{\"status\":\"%s\",\"answered_by\":\"%s\",\"detail\":", cli_status_word(r), pf_algo_name(st.algo));
        cli_detail_json(stdout, st.detail);
        printf(",\"cost\":%.8f,\"expanded\":%u,\"path_len\":%u,\"us\":%.1f,\"prep_s\":%.6f,\"path\":[",
               ok ? st.cost : -1.0, st.expanded, ok ? st.path_len : 0, us, prep.prep_s);
        for (uint32_t i = 0; ok && i < path.len; i++) {
            pf_point p = pf_grid_point(map, pb.nodes[i]);
            printf("%s[%d,%d]", i ? "," : "", p.x, p.y);
        }
        printf("]");
        if (with_way) {
            printf(",\"smooth_cost\":%.8f,\"waypoints\":[", smooth_cost);
            for (uint32_t i = 0; i < nway; i++) {
                pf_point p = pf_grid_point(map, way[i]);
                printf("%s[%d,%d]", i ? "," : "", p.x, p.y);
            }
            printf("]");
        }
        printf("}\n");
    } else {
        printf("status: %s (%s)\nanswered by: %s ", cli_status_word(r), pf_status_str(r), pf_algo_name(st.algo));
        cli_detail_json(stdout, st.detail);
        putchar('\n');
        if (ok) {
            printf("cost: %.6f\nexpanded: %u\ncells: %u\ntime_us: %.1f\nprep_s: %.6f\npath:", st.cost, st.expanded,
                   st.path_len, us, prep.prep_s);
            for (uint32_t i = 0; i < path.len; i++) {
                pf_point p = pf_grid_point(map, pb.nodes[i]);
                printf(" %d,%d", p.x, p.y);
            }
            printf("\n");
        }
        if (with_way) {
            printf("smooth_cost: %.6f\nwaypoints:", smooth_cost);
            for (uint32_t i = 0; i < nway; i++) {
                pf_point p = pf_grid_point(map, way[i]);
                printf(" %d,%d", p.x, p.y);
            }
            printf("\n");
        }
    }
    free(way);
    cli_pathbuf_free(&pb);
    pf_ctx_destroy(ctx);
    cli_prep_free(&prep);
    pf_map_destroy(map);
    return ok || r == PF_NO_PATH ? 0 : 1; /* partial: ok */
}
