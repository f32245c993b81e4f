/* cmd_table.c - `pathfind table build|path|update`: baked first-move tables from the command line. */
#define _POSIX_C_SOURCE 200809L /* isatty, fileno */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

static const char *HELP =
    "usage: pathfind table build  MAP -o FILE [--threads N]\n"
    "       pathfind table path   FILE MAP S T [--json]\n"
    "       pathfind table update FILE GRAPH.gr EDITS -o NEWFILE [--graph-out NEW.gr] [--rule tight|slides]\n"
    "                             [--threads N]\n"
    "\n"
    "First-move tables: for every pair of nodes, the first arc of a cheapest path (ties: fewest arcs,\n"
    "then smallest arc index), so a path is followed one O(1) lookup per step. MAP is a DIMACS graph\n"
    "(.gr) or a Moving AI grid (.map, up to 65536 cells; 64x64 = 16 MiB). Nodes: 1-based ids as in\n"
    "the .gr file, or X,Y cells on a grid. FILE is checked against MAP's fingerprint on load.\n"
    "\n"
    "  build    builds the table (one Dijkstra per row, rows in parallel; a progress bar when stderr\n"
    "           is a terminal) and writes it to FILE.\n"
    "  path     prints the path from S to T by following next hops, with its cost.\n"
    "  update   applies EDITS to GRAPH.gr, updates the table incrementally (only rows that can change\n"
    "           are rebuilt) and writes NEWFILE, which belongs to the edited graph: write that graph\n"
    "           with --graph-out to query NEWFILE later. Prints a JSON report on stdout. --rule\n"
    "           tight (default) re-examines only predecessors whose entries can change; slides also\n"
    "           every predecessor of a row whose next hops changed (pf_table.h, the same table).\n"
    "\n"
    "EDITS: one edit per line, 1-based node ids, integer weights >= 0 (DIMACS); '#' starts a comment.\n"
    "  remove U V      removes every arc U->V (an error if there is none)\n"
    "  add U V W       adds the arc U->V of weight W\n"
    "  set U V W       sets the weight of every arc U->V to W (an error if there is none)\n"
    "\n"
    "exit status: 0 ok (also when there is no path), 1 failure (I/O, bad file, bad edits), 2 usage.\n"
    "\n"
    "examples: pathfind table build rome99.gr -o rome99.pft\n"
    "          pathfind table path rome99.pft rome99.gr 1 3000\n"
    "          pathfind table update rome99.pft rome99.gr closures.txt -o rome99b.pft --graph-out rome99b.gr\n";

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static int load_map(const char *path, pf_map **map)
{
    pf_diag diag;
    pf_status s = ends_with(path, ".map") ? pf_grid_load_movingai(path, NULL, map, &diag)
                                          : pf_graph_load_dimacs(path, NULL, NULL, map, &diag);
    if (s != PF_OK) {
        cli_error("table", "%s", diag.msg);
        return 0;
    }
    if (pf_map_node_count(*map) > PF_TABLE_MAX_NODES) {
        cli_error("table", "%s has %u nodes; tables hold at most %u (PF_TABLE_MAX_NODES)", path,
                  pf_map_node_count(*map), PF_TABLE_MAX_NODES);
        pf_map_destroy(*map);
        return 0;
    }
    return 1;
}

/* "17" (1-based graph id) or "X,Y" (grid cell) -> node id. Each number is range-checked as typed:
 * a cast would take 4294967296,0 for 0,0. */
static int parse_node(const pf_map *map, const char *what, const char *s, uint32_t *out)
{
    if (pf_map_kind_of(map) == PF_MAP_GRID) {
        uint32_t w = pf_grid_width(map), h = pf_grid_height(map);
        const char *comma = strchr(s, ',');
        char xs[32];
        long x, y;
        if (!comma || (size_t)(comma - s) >= sizeof xs) {
            cli_error("table", "bad %s '%s' (expected X,Y inside the %ux%u grid)", what, s, w, h);
            return 0;
        }
        memcpy(xs, s, (size_t)(comma - s));
        xs[comma - s] = '\0';
        char nx[48], ny[48];
        snprintf(nx, sizeof nx, "%s's X", what);
        snprintf(ny, sizeof ny, "%s's Y", what);
        if (!cli_parse_int("table", nx, xs, 0, (long)w - 1, &x) || !cli_parse_int("table", ny, comma + 1, 0, (long)h - 1, &y))
            return 0;
        *out = pf_grid_node(map, (int32_t)x, (int32_t)y);
        return 1;
    }
    long v;
    if (!cli_parse_int("table", what, s, 1, (long)pf_map_node_count(map), &v)) return 0;
    *out = (uint32_t)(v - 1);
    return 1;
}

static void print_node(const pf_map *map, uint32_t v)
{
    if (pf_map_kind_of(map) == PF_MAP_GRID) {
        pf_point p = pf_grid_point(map, v);
        printf("%d,%d", p.x, p.y);
    } else printf("%u", v + 1);
}

typedef struct bar { double t0; int shown; } bar;

static void on_progress(uint32_t done, uint32_t total, void *user)
{
    bar *b = user;
    int width = 40, fill = total ? (int)((uint64_t)done * (uint64_t)width / total) : width;
    double el = cli_now() - b->t0;
    double eta = done ? el * (double)(total - done) / (double)done : 0.0;
    fprintf(stderr, "\rbuilding table [%.*s%*s] %3u%% %u/%u rows, %.1f s, eta %.1f s ", fill,
            "########################################", width - fill, "",
            total ? (unsigned)((uint64_t)done * 100 / total) : 100u, done, total, el, eta);
    if (done == total) fputc('\n', stderr);
    b->shown = 1;
}

static int cmd_build(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    long threads = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has = cli_has_value(argc, argv, i);
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        } else if (strcmp(a, "-o") == 0 && has) out = argv[++i];
        else if (strcmp(a, "--threads") == 0 && has) {
            if (!cli_parse_int("table build", a, argv[++i], 1, CLI_MAX_THREADS, &threads)) return 2;
        } else if (a[0] == '-' && a[1]) {
            cli_error("table build", "unknown or incomplete option '%s' (see --help)", a);
            return 2;
        } else if (!in) in = a;
        else {
            cli_error("table build", "unexpected argument '%s'", a);
            return 2;
        }
    }
    if (!in || !out) {
        cli_error("table build", "need MAP and -o FILE (see --help)");
        return 2;
    }
    if (cli_out_same("table build", "MAP", in, "-o", out)) return 2;
    if (cli_args_only) return 0;
    /* before the build (seconds to minutes), as prep does: it was found only when saving */
    if (!cli_out_check("table build", out)) return 1;
    pf_map *map;
    if (!load_map(in, &map)) return 1;
    bar b = {cli_now(), 0};
    pf_table_desc d = {.threads = (uint32_t)threads};
    if (isatty(fileno(stderr))) {
        d.progress = on_progress;
        d.progress_user = &b;
    }
    pf_table *t;
    double t0 = cli_now();
    pf_status s = pf_table_create(map, &d, &t);
    double secs = cli_now() - t0;
    if (s != PF_OK) {
        cli_error("table build", "%s: %s", in, pf_status_str(s));
        pf_map_destroy(map);
        return 1;
    }
    pf_diag diag;
    s = pf_table_save(t, out, &diag);
    if (s != PF_OK) cli_error("table build", "%s", diag.msg);
    else
        printf("{\"nodes\":%u,\"entry_bytes\":%u,\"file_bytes\":%zu,\"build_s\":%.3f,\"fingerprint\":\"%016llx\"}\n",
               pf_table_node_count(t), pf_table_entry_bytes(t), pf_table_file_size(t), secs,
               (unsigned long long)pf_map_fingerprint(map));
    pf_table_destroy(t);
    pf_map_destroy(map);
    return s == PF_OK ? 0 : 1;
}

static int cmd_path(int argc, char **argv)
{
    const char *pos[4] = {0};
    int npos = 0, json = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        } else if (strcmp(a, "--json") == 0) json = 1;
        else if (a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9')) {
            cli_error("table path", "unknown option '%s' (see --help)", a);
            return 2;
        } else if (npos < 4) pos[npos++] = a;
        else {
            cli_error("table path", "unexpected argument '%s'", a);
            return 2;
        }
    }
    if (npos != 4) {
        cli_error("table path", "need FILE MAP S T (see --help)");
        return 2;
    }
    if (cli_args_only) return 0;
    pf_map *map;
    if (!load_map(pos[1], &map)) return 1;
    uint32_t s, g;
    if (!parse_node(map, "S", pos[2], &s) || !parse_node(map, "T", pos[3], &g)) {
        pf_map_destroy(map);
        return 2;
    }
    pf_table *t;
    pf_diag diag;
    if (pf_table_load(pos[0], map, NULL, &t, &diag) != PF_OK) {
        cli_error("table path", "%s", diag.msg);
        pf_map_destroy(map);
        return 1;
    }
    uint32_t n = pf_map_node_count(map);
    uint32_t *nodes = malloc((size_t)n * sizeof *nodes);
    pf_path path = {.nodes = nodes, .capacity = nodes ? n : 0};
    double cost;
    double t0 = cli_now();
    pf_status r = pf_table_path(t, s, g, &path, &cost);
    double us = (cli_now() - t0) * 1e6;
    if (json) {
        printf("{\"status\":\"%s\",\"cost\":%.8f,\"path_len\":%u,\"us\":%.2f,\"path\":[", cli_status_word(r),
               r == PF_OK ? cost : -1.0, r == PF_OK ? path.len : 0, us);
        for (uint32_t i = 0; r == PF_OK && i < path.len; i++) {
            printf(i ? "," : "");
            if (pf_map_kind_of(map) == PF_MAP_GRID) {
                pf_point p = pf_grid_point(map, nodes[i]);
                printf("[%d,%d]", p.x, p.y);
            } else printf("%u", nodes[i] + 1);
        }
        printf("]}\n");
    } else {
        printf("status: %s (%s)\n", cli_status_word(r), pf_status_str(r));
        if (r == PF_OK) {
            printf("cost: %.6f\nnodes: %u\ntime_us: %.2f\npath:", cost, path.len, us);
            for (uint32_t i = 0; i < path.len; i++) {
                putchar(' ');
                print_node(map, nodes[i]);
            }
            putchar('\n');
        }
    }
    free(nodes);
    pf_table_destroy(t);
    pf_map_destroy(map);
    return r == PF_OK || r == PF_NO_PATH ? 0 : 1;
}

/* ---- edit scripts ------------------------------------------------------------------------------ */

typedef struct elist { pf_edge *e; uint32_t n, cap; } elist;

static int elist_push(elist *l, pf_edge e)
{
    if (l->n == PF_GRAPH_MAX_ARCS) {
        cli_error("table update", "the edited graph would have more than %u arcs (PF_GRAPH_MAX_ARCS)",
                  PF_GRAPH_MAX_ARCS);
        return 0;
    }
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 1024;
        pf_edge *ne = realloc(l->e, (size_t)cap * sizeof *ne);
        if (!ne) {
            cli_error("table update", "out of memory");
            return 0;
        }
        l->e = ne;
        l->cap = cap;
    }
    l->e[l->n++] = e;
    return 1;
}

/* Reads a whole-token unsigned integer; returns 0 when the token is not one or overflows. */
static int tok_u64(const char *t, unsigned long long *v)
{
    char *e;
    if (!t || !(*t >= '0' && *t <= '9')) return 0;
    errno = 0;
    *v = strtoull(t, &e, 10);
    return *e == '\0' && errno == 0;
}

/* One edit line (comment already cut): applies it to `l`. Returns 1, or 0 with a message. */
static int apply_edit(const char *path, unsigned lineno, char *line, elist *l, uint32_t n)
{
    char *tok[5] = {0};
    int nt = 0;
    for (char *save = NULL, *p = strtok_r(line, " \t\r", &save); p; p = strtok_r(NULL, " \t\r", &save))
        if (nt < 5) tok[nt++] = p;
        else nt = 6;
    if (nt == 0) return 1;
    int is_rm = strcmp(tok[0], "remove") == 0, is_add = strcmp(tok[0], "add") == 0, is_set = strcmp(tok[0], "set") == 0;
    if (!is_rm && !is_add && !is_set) {
        cli_error("table update", "%s:%u: unknown edit '%s' (remove, add, set)", path, lineno, tok[0]);
        return 0;
    }
    int want = is_rm ? 3 : 4;
    unsigned long long u, v, w = 0;
    if (nt != want || !tok_u64(tok[1], &u) || !tok_u64(tok[2], &v) || (want == 4 && !tok_u64(tok[3], &w))) {
        cli_error("table update", "%s:%u: expected '%s U V%s' with integers", path, lineno, tok[0], is_rm ? "" : " W");
        return 0;
    }
    if (u < 1 || u > n || v < 1 || v > n) {
        cli_error("table update", "%s:%u: node out of range 1..%u", path, lineno, n);
        return 0;
    }
    /* the DIMACS loader's limit: the edited graph must load again (--graph-out) */
    if (w > PF_DIMACS_MAX_WEIGHT) {
        cli_error("table update", "%s:%u: weight %llu exceeds 2^53 (PF_DIMACS_MAX_WEIGHT)", path, lineno, w);
        return 0;
    }
    uint32_t a = (uint32_t)(u - 1), b = (uint32_t)(v - 1), hit = 0;
    if (is_add) return elist_push(l, (pf_edge){a, b, (double)w});
    for (uint32_t i = 0; i < l->n;) {
        if (l->e[i].from == a && l->e[i].to == b) {
            hit++;
            if (is_rm) {
                l->e[i] = l->e[--l->n];
                continue;
            }
            l->e[i].weight = (double)w;
        }
        i++;
    }
    if (!hit) cli_error("table update", "%s:%u: no arc %llu -> %llu to %s", path, lineno, u, v, tok[0]);
    return hit != 0;
}

/* Applies the edit script at `path` to `l` (node ids 1..n in the file). Prints errors. */
static int apply_edits(const char *path, elist *l, uint32_t n, uint32_t *count)
{
    cli_text f;
    if (!cli_text_open(&f, "table update", path, "edit list", CLI_EDITS_MAX_BYTES)) return 0;
    char line[512];
    *count = 0;
    int got, ok = 1;
    while (ok && (got = cli_text_line(&f, line, sizeof line)) != 0) {
        if (got < 0) {
            ok = 0;
            break;
        }
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        int blank = *p == '\0';
        ok = apply_edit(path, f.line, line, l, n);
        if (ok && !blank) (*count)++;
    }
    cli_text_close(&f);
    return ok;
}

/* Writes g as DIMACS. Every weight must be one the loader takes back (an integer up to 2^53,
 * which "%.0f" prints exactly): a weight of INT64_MAX once came out as 9223372036854775808. */
/* Writes g as DIMACS into o, opened on path and left open: the caller closes it (renamed over
 * path) once the table beside it is written too, or throws it away. 0 when refused or unwritable
 * (o then closed). */
static int write_dimacs(cli_out *o, const char *path, const pf_map *g)
{
    uint32_t n = pf_map_node_count(g);
    for (uint32_t u = 0; u < n; u++) {
        const uint32_t *to;
        const double *w;
        uint32_t k = pf_graph_arcs(g, u, 0, &to, &w);
        for (uint32_t i = 0; i < k; i++)
            if (!(w[i] >= 0 && w[i] <= (double)PF_DIMACS_MAX_WEIGHT && w[i] == floor(w[i]))) {
                cli_error("table update", "%s: arc %u -> %u has weight %g, which DIMACS cannot hold", path, u + 1,
                          to[i] + 1, w[i]);
                return 0;
            }
    }
    FILE *f = cli_out_open(o, "table update", path);
    if (!f) return 0;
    fprintf(f, "c written by pathfind table update\np sp %u %u\n", n, pf_graph_edge_count(g));
    for (uint32_t u = 0; u < n; u++) {
        const uint32_t *to;
        const double *w;
        uint32_t k = pf_graph_arcs(g, u, 0, &to, &w);
        for (uint32_t i = 0; i < k; i++) fprintf(f, "a %u %u %.0f\n", u + 1, to[i] + 1, w[i]);
    }
    /* written out now, before the table is saved: a full disk is found here, not at the rename */
    if (fflush(f) != 0 || ferror(f)) {
        cli_out_close(o, "table update", 0); /* says why, once: the first failed write's cause */
        return 0;
    }
    return 1;
}

static int cmd_update(int argc, char **argv)
{
    const char *pos[3] = {0}, *out = NULL, *gout = NULL;
    int npos = 0;
    long threads = 0;
    pf_table_update_desc ud = {0};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has = cli_has_value(argc, argv, i);
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        } else if (strcmp(a, "-o") == 0 && has) out = argv[++i];
        else if (strcmp(a, "--graph-out") == 0 && has) gout = argv[++i];
        else if (strcmp(a, "--threads") == 0 && has) {
            if (!cli_parse_int("table update", a, argv[++i], 1, CLI_MAX_THREADS, &threads)) return 2;
        } else if (strcmp(a, "--rule") == 0 && has) {
            const char *r = argv[++i];
            if (strcmp(r, "tight") == 0) ud.rule = PF_TABLE_RULE_TIGHT;
            else if (strcmp(r, "slides") == 0) ud.rule = PF_TABLE_RULE_SLIDES;
            else {
                cli_error("table update", "bad value '%s' for --rule (tight or slides)", r);
                return 2;
            }
        } else if (a[0] == '-' && a[1]) {
            cli_error("table update", "unknown or incomplete option '%s' (see --help)", a);
            return 2;
        } else if (npos < 3) pos[npos++] = a;
        else {
            cli_error("table update", "unexpected argument '%s'", a);
            return 2;
        }
    }
    if (npos != 3 || !out) {
        cli_error("table update", "need FILE GRAPH.gr EDITS and -o NEWFILE (see --help)");
        return 2;
    }
    ud.threads = (uint32_t)threads;
    if (cli_out_same("table update", "-o", out, "--graph-out", gout)) return 2;
    /* -o FILE replaces the table in place (it is read whole first), as edit -o MAP does a map;
     * the graph and the edits are not to be replaced by a table or a graph, nor FILE by a graph */
    {
        const char *const in_opts[] = {"GRAPH", "EDITS"}, *const ins[] = {pos[1], pos[2]};
        if (cli_out_names_input("table update", "-o", out, 2, in_opts, ins) ||
            cli_out_names_input("table update", "--graph-out", gout, 2, in_opts, ins) ||
            cli_out_same("table update", "FILE", pos[0], "--graph-out", gout))
            return 2;
    }
    if (ends_with(pos[1], ".map")) {
        cli_error("table update", "grids cannot be edited; rebuild the table instead");
        return 2;
    }
    if (cli_args_only) return 0;
    /* before the update, as table build and prep check theirs */
    if (!cli_out_check("table update", out) || (gout && !cli_out_check("table update", gout))) return 1;
    pf_map *old;
    if (!load_map(pos[1], &old)) return 1;
    int rc = 1;
    pf_map *nm = NULL;
    pf_table *t = NULL;
    elist l = {0};
    pf_diag diag;
    if (pf_table_load(pos[0], old, NULL, &t, &diag) != PF_OK) {
        cli_error("table update", "%s", diag.msg);
        goto done;
    }
    uint32_t n = pf_map_node_count(old);
    for (uint32_t u = 0; u < n; u++) {
        const uint32_t *to;
        const double *w;
        uint32_t k = pf_graph_arcs(old, u, 0, &to, &w);
        for (uint32_t i = 0; i < k; i++)
            if (!elist_push(&l, (pf_edge){u, to[i], w[i]})) goto done;
    }
    uint32_t nedits;
    if (!apply_edits(pos[2], &l, n, &nedits)) goto done;
    pf_status s = pf_graph_create(&(pf_graph_desc){.node_count = n, .edge_count = l.n, .edges = l.e}, &nm);
    if (s != PF_OK) {
        cli_error("table update", "edited graph: %s", pf_status_str(s));
        goto done;
    }
    pf_table_report rep;
    double t0 = cli_now();
    s = pf_table_update(t, nm, &ud, &rep);
    double secs = cli_now() - t0;
    if (s != PF_OK) {
        cli_error("table update", "%s", pf_status_str(s));
        goto done;
    }
    /* the graph first: the new table is of no use without it, and it is the output that can be
     * refused (a weight DIMACS cannot hold); but it replaces the old graph only once the table is
     * written too, so that a failed write leaves the two files as they were, matching */
    cli_out go = {0};
    if (gout && !write_dimacs(&go, gout, nm)) goto done;
    if (pf_table_save(t, out, &diag) != PF_OK) {
        cli_error("table update", "%s", diag.msg);
        if (gout) cli_out_close(&go, "table update", 0);
        goto done;
    }
    if (gout && !cli_out_close(&go, "table update", 1)) goto done;
    printf("{\"edits\":%u,\"seeds\":%u,\"rows_examined\":%u,\"rows_changed\":%u,\"rows\":%u,\"searches\":%u,"
           "\"waves\":%u,\"update_s\":%.4f,\"fingerprint\":\"%016llx\"}\n",
           nedits, rep.seeds, rep.rows_examined, rep.rows_changed, n, rep.searches, rep.waves, secs,
           (unsigned long long)pf_map_fingerprint(nm));
    rc = 0;
done:
    free(l.e);
    pf_table_destroy(t);
    pf_map_destroy(nm);
    pf_map_destroy(old);
    return rc;
}

int pf_cli_table(int argc, char **argv)
{
    if (argc < 2 || cli_is_help(argv[1])) {
        fputs(HELP, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "build") == 0) return cmd_build(argc - 2, argv + 2);
    if (strcmp(argv[1], "path") == 0) return cmd_path(argc - 2, argv + 2);
    if (strcmp(argv[1], "update") == 0) return cmd_update(argc - 2, argv + 2);
    cli_error("table", "unknown subcommand '%s' (build, path, update; see --help)", argv[1]);
    return 2;
}
