/* cmd_graph.c - `pathfind graph GRAPH.gr PAIRS`: s-t queries on a DIMACS graph. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const char *HELP =
    "usage: pathfind graph GRAPH.gr [--co COORDS.co] PAIRS [--algo NAME] [--weight W] [--csv FILE]\n"
    "\n"
    "Solves every 's t' line of PAIRS (1-based node ids, as in the .gr file) and prints, as its last\n"
    "line, one JSON object: queries, solved, total_s, us_per_query, expanded, peak_rss_kb. With --co,\n"
    "A* uses the Euclidean heuristic scaled to stay consistent; without it A* equals Dijkstra.\n"
    "Parallel arcs are all kept; a search uses the cheapest. A PAIRS line may carry a third column,\n"
    "the expected cost: then a mismatch is a cost that differs from it by more than 1e-6 relative.\n"
    "\n"
    "  --csv FILE    one row per query: s,t,status,cost,expanded,path_len\n"
    "\n"
    "example: pathfind graph rome99.gr pairs.txt --algo dijkstra\n";

int pf_cli_graph(int argc, char **argv)
{
    const char *pos[2] = {0}, *co = NULL, *csv = NULL;
    int npos = 0;
    pf_search_desc d = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        } else if (strcmp(a, "--algo") == 0 && has) {
            if (!cli_parse_algo("graph", argv[++i], &d.algo)) return 2;
        } else if (strcmp(a, "--weight") == 0 && has) {
            if (!cli_parse_double("graph", a, argv[++i], 1.0, &d.weight)) return 2;
        } else if (strcmp(a, "--co") == 0 && has) {
            co = argv[++i];
        } else if (strcmp(a, "--csv") == 0 && has) {
            csv = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "pathfind graph: unknown or incomplete option '%s' (see --help)\n", a);
            return 2;
        } else if (npos < 2) {
            pos[npos++] = a;
        } else {
            fprintf(stderr, "pathfind graph: unexpected argument '%s'\n", a);
            return 2;
        }
    }
    if (npos != 2) {
        fputs(HELP, stderr);
        return 2;
    }
    if (d.algo == PF_ALGO_JPS || d.algo == PF_ALGO_JPS_PLUS) {
        fprintf(stderr, "pathfind graph: %s works on grids only\n", pf_algo_name(d.algo));
        return 2;
    }
    if (d.algo == PF_ALGO_WASTAR && d.weight == 0) d.weight = 1.5;
    pf_diag diag;
    pf_map *map;
    if (pf_graph_load_dimacs(pos[0], co, NULL, &map, &diag) != PF_OK) {
        fprintf(stderr, "pathfind graph: %s\n", diag.msg);
        return 1;
    }
    FILE *pf = fopen(pos[1], "r");
    if (!pf) {
        fprintf(stderr, "pathfind graph: cannot open '%s'\n", pos[1]);
        pf_map_destroy(map);
        return 1;
    }
    FILE *out = csv ? fopen(csv, "w") : NULL;
    if (csv && !out) {
        fprintf(stderr, "pathfind graph: cannot write '%s'\n", csv);
        fclose(pf);
        pf_map_destroy(map);
        return 1;
    }
    if (out) fprintf(out, "s,t,status,cost,expanded,path_len\n");
    pf_ctx *ctx;
    if (pf_ctx_create(map, NULL, &ctx) != PF_OK) {
        fprintf(stderr, "pathfind graph: out of memory\n");
        if (out) fclose(out);
        fclose(pf);
        pf_map_destroy(map);
        return 1;
    }
    pf_search_desc rd = pf_search_desc_resolve(map, &d);
    char line[256];
    uint32_t lineno = 0, n = 0, solved = 0, mismatches = 0;
    uint64_t expanded = 0;
    double total = 0.0;
    int rc = 0;
    cli_pathbuf pb = {0};
    while (fgets(line, sizeof line, pf)) {
        lineno++;
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '\n' || *p == '\r' || *p == '\0' || *p == '#' || *p == 'c') continue;
        char *e1, *e2, *e3;
        unsigned long s = strtoul(p, &e1, 10), t = strtoul(e1, &e2, 10);
        double expect = strtod(e2, &e3);
        int has_expect = e3 != e2;
        while (*e3 == ' ' || *e3 == '\t' || *e3 == '\r' || *e3 == '\n') e3++;
        if (e1 == p || e2 == e1 || *e3 || s == 0 || t == 0 || s > pf_map_node_count(map) || t > pf_map_node_count(map)) {
            fprintf(stderr, "pathfind graph: %s:%u: expected 's t' with node ids in 1..%u\n", pos[1], lineno,
                    pf_map_node_count(map));
            rc = 1;
            break;
        }
        pf_path path;
        pf_stats st;
        double t0 = cli_now();
        pf_status r = cli_search(ctx, (uint32_t)(s - 1), (uint32_t)(t - 1), &d, &pb, &path, &st);
        total += cli_now() - t0;
        int ok = r == PF_OK;
        n++;
        solved += ok;
        expanded += st.expanded;
        if (has_expect && cli_algo_optimal(rd.algo) && (!ok || fabs(st.cost - expect) > 1e-6 * (expect > 1 ? expect : 1)))
            mismatches++;
        if (out) fprintf(out, "%lu,%lu,%s,%.6f,%u,%u\n", s, t, cli_status_word(r), ok ? st.cost : -1.0, st.expanded, ok ? st.path_len : 0);
    }
    printf("{\"graph\":\"%s\",\"algo\":\"%s\",\"queries\":%u,\"solved\":%u,\"mismatches\":%u,\"total_s\":%.6f,"
           "\"us_per_query\":%.3f,\"expanded\":%llu,\"peak_rss_kb\":%ld}\n",
           pos[0], pf_algo_name(rd.algo), n, solved, mismatches, total, n ? total * 1e6 / n : 0.0,
           (unsigned long long)expanded, cli_peak_rss_kb());
    cli_pathbuf_free(&pb);
    pf_ctx_destroy(ctx);
    if (out) fclose(out);
    fclose(pf);
    pf_map_destroy(map);
    return rc ? rc : (mismatches ? 1 : 0);
}
