/* cmd_demo.c - `pathfind demo`: the main job on the bundled default map. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

#ifndef PF_DEFAULT_MAP
#define PF_DEFAULT_MAP "maps/demo-512.map"
#endif

static const char *HELP =
    "usage: pathfind demo [--map FILE.map] [--queries N] [--seed S]\n"
    "\n"
    "Loads the bundled default map (maps/demo-512.map, made by `pathfind gen`), answers a few hundred\n"
    "random queries between open ground cells with A*, checks every cost against Dijkstra, and prints\n"
    "a summary: costs, expansions, time per query for A* and Dijkstra. Exits 1 if any cost differs.\n"
    "\n"
    "example: pathfind demo --queries 1000 --seed 7\n";

static cli_rng st_rng;
static uint32_t rnd(void) { return cli_rng_next(&st_rng); }

/* A random open ground cell (class 1) of the w x h map holding `open` of them (open > 0).
 * Rejection sampling keeps the draws of earlier versions (same seed, same queries) but is bounded:
 * on a map that is nearly all water or rock it would spin for ever, so after 64 misses the
 * (draw mod open)-th ground cell is taken by counting. */
static uint32_t pick_ground(const pf_map *map, uint32_t w, uint32_t h, uint32_t open)
{
    for (int tries = 0; tries < 64; tries++) {
        uint32_t c = rnd() % (w * h);
        if (pf_grid_class(map, (int32_t)(c % w), (int32_t)(c / w)) == 1) return c;
    }
    uint32_t k = rnd() % open;
    for (uint32_t c = 0; c < w * h; c++)
        if (pf_grid_class(map, (int32_t)(c % w), (int32_t)(c / w)) == 1 && k-- == 0) return c;
    return 0; /* unreachable: open counts the ground cells */
}

int pf_cli_demo(int argc, char **argv)
{
    const char *mapfile = NULL;
    long nq = 300, seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        } else if (strcmp(a, "--map") == 0 && has) {
            mapfile = argv[++i];
        } else if (strcmp(a, "--queries") == 0 && has) {
            if (!cli_parse_int("demo", a, argv[++i], 1, 1000000, &nq)) return 2;
        } else if (strcmp(a, "--seed") == 0 && has) {
            if (!cli_parse_int("demo", a, argv[++i], 0, 2147483647L, &seed)) return 2;
        } else {
            cli_error("demo", "unknown or incomplete option '%s' (see --help)", a);
            return 2;
        }
    }
    if (cli_args_only) return 0;
    pf_diag diag;
    pf_map *map = NULL;
    if (!mapfile) {
        /* the build tree's copy first, then the current directory */
        mapfile = PF_DEFAULT_MAP;
        FILE *f = fopen(mapfile, "r");
        if (f) fclose(f);
        else mapfile = "maps/demo-512.map";
    }
    double t0 = cli_now();
    if (pf_grid_load_movingai(mapfile, NULL, &map, &diag) != PF_OK) {
        cli_error("demo", "%s", diag.msg);
        return 1;
    }
    double load_ms = (cli_now() - t0) * 1e3;
    uint32_t w = pf_grid_width(map), h = pf_grid_height(map);
    pf_ctx *ctx;
    if (pf_ctx_create(map, NULL, &ctx) != PF_OK) {
        cli_error("demo", "out of memory");
        pf_map_destroy(map);
        return 1;
    }
    uint32_t open = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) open += pf_grid_class(map, (int32_t)x, (int32_t)y) == 1;
    if (open == 0) {
        cli_error("demo", "%s has no open ground cell ('.', 'G' or 'S') to pick queries from", mapfile);
        pf_ctx_destroy(ctx);
        pf_map_destroy(map);
        return 1;
    }
    printf("pathfind %s demo\n", PF_VERSION_STRING);
    cli_say("map      %s: %ux%u, %u open ground cells (%.1f%%), loaded in %.1f ms", mapfile, w, h, open,
           100.0 * open / ((double)w * h), load_ms);
    printf("context  %zu bytes per node, %.1f MiB\n", pf_ctx_bytes_per_node(ctx), pf_ctx_mem_size(ctx) / 1048576.0);

    st_rng = cli_rng_seed((uint64_t)seed, 7);
    uint32_t solved = 0, nopath = 0, mismatches = 0;
    uint64_t exp_a = 0, exp_d = 0, cells = 0;
    double t_a = 0, t_d = 0, cost_sum = 0, longest = 0;
    cli_pathbuf pb = {0};
    for (long q = 0; q < nq; q++) {
        uint32_t s, g;
        s = pick_ground(map, w, h, open);
        g = pick_ground(map, w, h, open);
        pf_path path;
        pf_stats sa, sd;
        double t = cli_now();
        pf_status ra = cli_search(ctx, s, g, NULL, &pb, &path, &sa);
        t_a += cli_now() - t;
        t = cli_now();
        pf_status rdj = pf_search(ctx, s, g, &(pf_search_desc){.algo = PF_ALGO_DIJKSTRA}, NULL, &sd);
        t_d += cli_now() - t;
        if (ra != rdj || (ra == PF_OK && fabs(sa.cost - sd.cost) > 1e-9 * (1 + sd.cost))) mismatches++;
        if (ra == PF_OK) {
            solved++;
            exp_a += sa.expanded;
            exp_d += sd.expanded;
            cells += sa.path_len;
            cost_sum += sa.cost;
            if (sa.cost > longest) longest = sa.cost;
        } else if (ra == PF_NO_PATH) {
            nopath++;
        }
    }
    printf("queries  %ld random pairs of ground cells (seed %ld): %u solved, %u unreachable\n", nq, seed, solved, nopath);
    if (solved) {
        printf("paths    mean cost %.1f, longest %.1f, mean %.0f cells\n", cost_sum / solved, longest,
               (double)cells / solved);
        printf("A*       %8.1f us/query, %9.0f expansions/query\n", t_a * 1e6 / nq, (double)exp_a / solved);
        printf("Dijkstra %8.1f us/query, %9.0f expansions/query\n", t_d * 1e6 / nq, (double)exp_d / solved);
        printf("speedup  A* is %.1fx faster than Dijkstra, with identical costs\n", t_d / (t_a > 0 ? t_a : 1e-9));
    }
    printf("check    %u of %ld A* costs differ from Dijkstra: %s\n", mismatches, nq, mismatches ? "FAIL" : "ok");
    cli_pathbuf_free(&pb);
    pf_ctx_destroy(ctx);
    pf_map_destroy(map);
    return mismatches ? 1 : 0;
}
