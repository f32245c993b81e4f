/* cmd_demo.c - `pathfind demo`: the main job on the bundled default map. */
#define _POSIX_C_SOURCE 200809L /* readlink */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

/* Where the bundled map is looked for, in order: installed beside the tool (PF_DATA_FROM_BINDIR:
 * the way from the executable's directory to the map's, ../share/pathfind once installed), the
 * source tree the tool was built from (PF_DEFAULT_MAP, absolute), the current directory. */
#ifndef PF_DEFAULT_MAP
#define PF_DEFAULT_MAP "maps/demo-512.map"
#endif
#ifndef PF_DATA_FROM_BINDIR
#define PF_DATA_FROM_BINDIR "../share/pathfind"
#endif
#define DEMO_MAP_NAME "demo-512.map"

static const char *HELP =
    "usage: pathfind demo [--map FILE.map] [--queries N] [--seed S]\n"
    "\n"
    "Loads the bundled default map (maps/demo-512.map, made by `pathfind gen`), answers a few hundred\n"
    "random queries between open ground cells with A*, checks every cost against Dijkstra, and prints\n"
    "a summary: costs, expansions, time per query for A* and Dijkstra. Exits 1 if any cost differs.\n"
    "Without --map the map is looked for installed beside the tool (" PF_DATA_FROM_BINDIR "/ from its\n"
    "directory), in the source tree it was built from, then in ./maps/.\n"
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

/* The installed copy: the running executable's directory (/proc/self/exe), PF_DATA_FROM_BINDIR.
 * 0 where /proc is not there or the path does not fit. */
static int installed_map(char *buf, size_t size)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 0;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return 0;
    *slash = '\0';
    int len = snprintf(buf, size, "%s/%s/%s", exe, PF_DATA_FROM_BINDIR, DEMO_MAP_NAME);
    return len > 0 && (size_t)len < size;
}

static int readable(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f) fclose(f);
    return f != NULL;
}

int pf_cli_demo(int argc, char **argv)
{
    const char *mapfile = NULL;
    long nq = 300, seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = cli_has_value(argc, argv, i);
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
    char installed[4096 + 64];
    if (!mapfile) {
        /* the installed copy, the source tree's, then the current directory's */
        const char *tried[3];
        int ntried = 0;
        if (installed_map(installed, sizeof installed)) tried[ntried++] = installed;
        tried[ntried++] = PF_DEFAULT_MAP;
        if (strcmp(PF_DEFAULT_MAP, "maps/" DEMO_MAP_NAME) != 0) tried[ntried++] = "maps/" DEMO_MAP_NAME;
        for (int k = 0; k < ntried && !mapfile; k++)
            if (readable(tried[k])) mapfile = tried[k];
        if (!mapfile) {
            cli_error("demo", "the bundled map %s is in none of %s%s%s%s%s: give a map with --map FILE.map",
                      DEMO_MAP_NAME, tried[0], ntried > 1 ? ", " : "", ntried > 1 ? tried[1] : "",
                      ntried > 2 ? ", " : "", ntried > 2 ? tried[2] : "");
            return 1;
        }
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
        /* "0.8x faster" reads as a speed-up: below 1 it is said the other way round */
        double ratio = t_d / (t_a > 0 ? t_a : 1e-9);
        if (ratio >= 1.0)
            printf("speedup  A* is %.1fx faster than Dijkstra, with identical costs\n", ratio);
        else
            printf("speedup  A* is slower than Dijkstra here (%.2fx as fast), with identical costs\n", ratio);
    }
    printf("check    %u of %ld A* costs differ from Dijkstra: %s\n", mismatches, nq, mismatches ? "FAIL" : "ok");
    cli_pathbuf_free(&pb);
    pf_ctx_destroy(ctx);
    pf_map_destroy(map);
    return mismatches ? 1 : 0;
}
