/* cmd_graph.c - `pathfind graph GRAPH.gr PAIRS`: s-t queries on a DIMACS graph. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const char *HELP =
    "usage: pathfind graph GRAPH.gr [--co COORDS.co] PAIRS [--algo NAME] [--weight W] [--csv FILE]\n"
    "\n"
    "Solves every 's t' line of PAIRS (1-based node ids, as in the .gr file) and prints, as its last\n"
    "line, one JSON object: algo, weight, queries, solved, mismatches, total_s, us_per_query, expanded,\n"
    "peak_rss_kb, then scen's by_ALGO and detail_* counts (scen --help).\n"
    "With --co, A* uses the Euclidean heuristic scaled to stay consistent; without it A* equals\n"
    "Dijkstra.\n"
    "Parallel arcs are all kept; a search uses the cheapest. A PAIRS line may carry a third column,\n"
    "the expected cost: then a mismatch (exit 1) is, for the optimal algorithms, a cost off it by more\n"
    "than 1e-6 of it (of 1 at or below 1); for wastar, above weight x it; for greedy and bfs, below it.\n"
    "Lines hold at most 4094 bytes; a line starting with 'c' or '#' is a comment.\n"
    "\n"
    "  --csv FILE    one row per query: s,t,status,cost,expanded,path_len\n"
    "  --weight W    weight for wastar (default 1.5); an error with the other algorithms\n"
    "\n"
    "example: pathfind graph rome99.gr pairs.txt --algo dijkstra\n";

typedef struct graph_args { const char *gr, *pairs, *co, *csv; pf_search_desc d; int weight_given; } graph_args;

/* Returns -1 when the arguments are good, else the exit code (0 after --help). */
static int parse_args(int argc, char **argv, graph_args *g)
{
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = cli_has_value(argc, argv, i);
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        } else if (strcmp(a, "--algo") == 0 && has) {
            if (!cli_parse_algo("graph", argv[++i], &g->d.algo)) return 2;
        } else if (strcmp(a, "--weight") == 0 && has) {
            if (!cli_parse_double("graph", a, argv[++i], 1.0, &g->d.weight)) return 2;
            g->weight_given = 1;
        } else if (strcmp(a, "--co") == 0 && has) {
            g->co = argv[++i];
        } else if (strcmp(a, "--csv") == 0 && has) {
            g->csv = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            cli_error("graph", "unknown or incomplete option '%s' (see --help)", a);
            return 2;
        } else if (npos < 2) {
            *(npos++ ? &g->pairs : &g->gr) = a;
        } else {
            cli_error("graph", "unexpected argument '%s'", a);
            return 2;
        }
    }
    if (npos != 2) {
        fputs(HELP, stderr);
        return 2;
    }
    if (g->d.algo == PF_ALGO_JPS || g->d.algo == PF_ALGO_JPS_PLUS || g->d.algo == PF_ALGO_THETA) {
        cli_error("graph", "%s works on grids only", pf_algo_name(g->d.algo));
        return 2;
    }
    if (!cli_check_weight("graph", g->d.algo, g->weight_given, 0)) return 2;
    if (g->d.algo == PF_ALGO_WASTAR && g->d.weight == 0) g->d.weight = 1.5;
    const char *const in_opts[] = {"GRAPH", "PAIRS", "--co"}, *const ins[] = {g->gr, g->pairs, g->co};
    if (cli_out_names_input("graph", "--csv", g->csv, 3, in_opts, ins)) return 2;
    return -1;
}

/* A whole token of digits (no sign, no blanks: strtoul would take "-18446744073709551615" as 1). */
static int node_token(const char *t, size_t n, uint32_t max, unsigned long *out)
{
    if (n == 0 || n > 10) return 0; /* ten digits cannot overflow 64 bits */
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9') return 0;
        v = v * 10 + (uint64_t)(t[i] - '0');
    }
    if (v < 1 || v > max) return 0;
    *out = (unsigned long)v;
    return 1;
}

/* "s t [expected]" -> 1; blank or comment -> 0; malformed -> -1 with a message. An expected cost
 * must be a finite number >= 0: "nan" or "1e999" would compare unequal to nothing. */
static int parse_pair(const char *file, unsigned lineno, char *line, uint32_t n, unsigned long *s,
                      unsigned long *t, double *expect, int *has_expect)
{
    char *tok[4];
    int k = 0;
    for (char *save = NULL, *p = strtok_r(line, " \t\r", &save); p && k < 4; p = strtok_r(NULL, " \t\r", &save))
        tok[k++] = p;
    if (k == 0 || tok[0][0] == '#' || tok[0][0] == 'c') return 0;
    /* said as the scen reader says it: the line, the column of the field at fault and what was
     * expected there ("expected 's t'" for a fourth column read as a bad node id) */
    if (k < 2) {
        cli_error("graph", "%s:%u: expected 's t [expected cost]' (2 or 3 columns), found 1", file, lineno);
        return -1;
    }
    if (k > 3) {
        cli_error("graph", "%s:%u:%u: unexpected fourth column '%s': expected 's t [expected cost]' (2 or 3 columns)",
                  file, lineno, (unsigned)(tok[3] - line) + 1, tok[3]);
        return -1;
    }
    for (int i = 0; i < 2; i++)
        if (!node_token(tok[i], strlen(tok[i]), n, i ? t : s)) {
            cli_error("graph", "%s:%u:%u: bad %s '%s': expected a node id in 1..%u", file, lineno,
                      (unsigned)(tok[i] - line) + 1, i ? "target" : "source", tok[i], n);
            return -1;
        }
    *has_expect = k == 3;
    if (k == 3) {
        char *e;
        errno = 0;
        *expect = strtod(tok[2], &e);
        if (!(tok[2][0] >= '0' && tok[2][0] <= '9') || *e || errno || !isfinite(*expect)) {
            cli_error("graph", "%s:%u:%u: expected cost '%s' is not a finite number >= 0", file, lineno,
                      (unsigned)(tok[2] - line) + 1, tok[2]);
            return -1;
        }
    }
    return 1;
}

/* Whether a result contradicts the expected cost of its PAIRS line, by docs/cli.md's rules (as
 * scen's): an optimal algorithm off it, weighted A* above weight x it, greedy and BFS below it;
 * the tolerance 1e-6 of it (of 1 at or below 1). NaN-proof. */
static int graph_mismatch(const pf_search_desc *rd, int ok, double cost, double expect)
{
    const double tol = 1e-6 * (expect > 1 ? expect : 1);
    if (!ok) return 1;
    if (cli_algo_optimal(rd->algo)) return !(fabs(cost - expect) <= tol);
    if (rd->algo == PF_ALGO_WASTAR) return !(cost <= rd->weight * expect + tol);
    return !(cost >= expect - tol);
}

int pf_cli_graph(int argc, char **argv)
{
    graph_args g = {0};
    int prc = parse_args(argc, argv, &g);
    if (prc >= 0) return prc;
    if (cli_args_only) return 0;
    pf_diag diag;
    pf_map *map;
    if (pf_graph_load_dimacs(g.gr, g.co, NULL, &map, &diag) != PF_OK) {
        cli_error("graph", "%s", diag.msg);
        return 1;
    }
    int rc = 1, complete = 0; /* complete: every PAIRS line read and answered */
    pf_ctx *ctx = NULL;
    cli_out out = {0};
    cli_text pf = {0};
    FILE *csv = NULL;
    if (!cli_text_open(&pf, "graph", g.pairs, "PAIRS file", CLI_PAIRS_MAX_BYTES)) goto done;
    if (g.csv) {
        if (!(csv = cli_out_open(&out, "graph", g.csv))) goto done;
        fprintf(csv, "s,t,status,cost,expanded,path_len\n");
    }
    if (pf_ctx_create(map, NULL, &ctx) != PF_OK) {
        cli_error("graph", "out of memory");
        goto done;
    }
    pf_search_desc rd = pf_search_desc_resolve(map, &g.d);
    char line[4096];
    uint32_t n = 0, solved = 0, mismatches = 0, nodes = pf_map_node_count(map);
    uint64_t expanded = 0;
    double total = 0.0;
    cli_pathbuf pb = {0};
    cli_answers answers = {0};
    int got;
    while ((got = cli_text_line(&pf, line, sizeof line)) != 0) {
        unsigned long s, t;
        double expect = 0;
        int has_expect = 0, kind = got < 0 ? -1 : parse_pair(g.pairs, pf.line, line, nodes, &s, &t, &expect, &has_expect);
        if (kind < 0) break;
        if (kind == 0) continue;
        pf_path path;
        pf_stats st;
        double t0 = cli_now();
        pf_status r = cli_search(ctx, (uint32_t)(s - 1), (uint32_t)(t - 1), &g.d, &pb, &path, &st);
        total += cli_now() - t0;
        int ok = r == PF_OK;
        n++;
        solved += ok;
        expanded += st.expanded;
        cli_answers_add(&answers, &st);
        if (has_expect && graph_mismatch(&rd, ok, st.cost, expect)) mismatches++;
        if (csv)
            fprintf(csv, "%lu,%lu,%s,%.6f,%u,%u\n", s, t, cli_status_word(r), ok ? st.cost : -1.0, st.expanded,
                    ok ? st.path_len : 0);
    }
    cli_pathbuf_free(&pb);
    complete = got == 0;
    /* a run cut short by a bad PAIRS line has no summary: a script reading the last line gets the
     * error, not the figures of part of the file */
    if (!complete) goto done;
    /* the CSV is closed (and its write checked) before the summary, as scen does: a summary on
     * stdout followed by "error writing" read as success to a script taking the last line */
    if (csv) {
        int ok = cli_out_close(&out, "graph", 1);
        csv = NULL;
        if (!ok) goto done;
    }
    printf("{\"graph\":");
    cli_json_str(stdout, g.gr);
    printf(",\"algo\":\"%s\",\"weight\":%g,\"queries\":%u,\"solved\":%u,\"mismatches\":%u,\"total_s\":%.6f,"
           "\"us_per_query\":%.3f,\"expanded\":%llu,\"peak_rss_kb\":%ld",
           pf_algo_name(rd.algo), rd.weight, n, solved, mismatches, total, n ? total * 1e6 / n : 0.0,
           (unsigned long long)expanded, cli_peak_rss_kb());
    cli_answers_json(stdout, &answers);
    printf("}\n");
    rc = mismatches ? 1 : 0;
done:
    /* a CSV cut short by a bad PAIRS line is discarded; one with mismatches is the evidence */
    if (csv && !cli_out_close(&out, "graph", complete)) rc = 1;
    pf_ctx_destroy(ctx);
    cli_text_close(&pf);
    pf_map_destroy(map);
    return rc;
}
