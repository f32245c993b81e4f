/* bench_table.c - first-move tables on a DIMACS graph: build time (whole table and per row) on 1 and
 * 2 threads, path queries by table versus A*, and incremental updates versus a full rebuild for
 * single-edge edits. Prints one JSON object.
 *
 *     bench_table [GRAPH.gr] [--queries N] [--edits N]      (default ../shared/data/dimacs/rome99.gr)
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"

static uint64_t rs = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(uint32_t n)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)((rs >> 11) % n);
}

static double build_secs(const pf_map *g, uint32_t threads, pf_table **keep)
{
    pf_table *t;
    double t0 = bench_wall_s();
    if (pf_table_create(g, &(pf_table_desc){.threads = threads}, &t) != PF_OK) {
        fprintf(stderr, "bench_table: build failed\n");
        exit(1);
    }
    double s = bench_wall_s() - t0;
    if (keep) *keep = t;
    else pf_table_destroy(t);
    return s;
}

int main(int argc, char **argv)
{
    const char *path = PF_SHARED_DATA "/dimacs/rome99.gr";
    long queries = 20000, edits = 24;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--queries") == 0 && i + 1 < argc) queries = atol(argv[++i]);
        else if (strcmp(argv[i], "--edits") == 0 && i + 1 < argc) edits = atol(argv[++i]);
        else path = argv[i];
    }
    if (queries < 1) queries = 1;
    if (edits < 1) edits = 1;
    pf_map *g;
    pf_diag diag;
    if (pf_graph_load_dimacs(path, NULL, NULL, &g, &diag) != PF_OK) {
        printf("{\"bench\":\"table\",\"error\":\"%s\"}\n", diag.msg);
        return 1;
    }
    uint32_t n = pf_map_node_count(g);

    /* build: 1 thread, then 2 (best of two runs each: the machine is shared) */
    pf_table *t;
    double b1 = build_secs(g, 1, NULL), b1b = build_secs(g, 1, &t);
    if (b1b < b1) b1 = b1b;
    double b2 = build_secs(g, 2, NULL), b2b = build_secs(g, 2, NULL);
    if (b2b < b2) b2 = b2b;

    /* queries: the same random pairs by table path (nodes written) and by A* (no coordinates in
     * a .gr alone, so A* runs with h = 0) */
    uint32_t *pairs = malloc(2 * (size_t)queries * sizeof *pairs), *buf = malloc((size_t)n * sizeof *buf);
    for (long i = 0; i < 2 * queries; i++) pairs[i] = rnd(n);
    double sum_t = 0, sum_a = 0;
    uint64_t hops = 0;
    long mism = 0;
    double t0 = bench_wall_s();
    for (long i = 0; i < queries; i++) {
        pf_path p = {.nodes = buf, .capacity = n};
        double c;
        pf_table_path(t, pairs[2 * i], pairs[2 * i + 1], &p, &c);
        sum_t += isfinite(c) ? c : 0;
        hops += p.len;
    }
    double tq = (bench_wall_s() - t0) / (double)queries;
    volatile uint32_t sink = 0;
    t0 = bench_wall_s();
    for (long i = 0; i < queries; i++) sink += pf_table_next(t, pairs[2 * i], pairs[2 * i + 1]);
    double tn = (bench_wall_s() - t0) / (double)queries;
    pf_ctx *ctx;
    pf_ctx_create(g, NULL, &ctx);
    long aq = queries < 2000 ? queries : 2000; /* A* is slow enough that a sample suffices */
    t0 = bench_wall_s();
    for (long i = 0; i < aq; i++) {
        pf_path p = {.nodes = buf, .capacity = n};
        pf_stats st;
        pf_search(ctx, pairs[2 * i], pairs[2 * i + 1], NULL, &p, &st);
        sum_a += isfinite(st.cost) ? st.cost : 0;
    }
    double ta = (bench_wall_s() - t0) / (double)aq;
    for (long i = 0; i < aq; i++) { /* check the table against A* on the sample */
        double c;
        pf_stats st;
        pf_table_path(t, pairs[2 * i], pairs[2 * i + 1], NULL, &c);
        pf_search(ctx, pairs[2 * i], pairs[2 * i + 1], NULL, NULL, &st);
        if (!(c == st.cost || (isinf(c) && isinf(st.cost)))) mism++;
    }
    (void)sum_t;
    (void)sum_a;
    (void)sink;

    /* single-edge edits, applied one after another: remove an arc, double a weight, halve one,
     * add a shortcut u -> (neighbour of a neighbour) one cheaper than the two arcs */
    uint32_t m = pf_graph_edge_count(g), cap = m + (uint32_t)edits + 1, ne = 0;
    pf_edge *el = malloc((size_t)cap * sizeof *el);
    for (uint32_t u = 0; u < n; u++) {
        const uint32_t *to;
        const double *w;
        uint32_t k = pf_graph_arcs(g, u, 0, &to, &w);
        for (uint32_t i = 0; i < k; i++) el[ne++] = (pf_edge){u, to[i], w[i]};
    }
    const pf_map *cur = g;
    pf_map **made = calloc((size_t)edits, sizeof *made);
    double upd_sum = 0, upd_max = 0, upd2_sum = 0;
    uint64_t examined = 0, changed = 0, searches = 0;
    const char *kinds[4] = {"remove", "increase", "decrease", "add"};
    double kind_s[4] = {0};
    uint64_t kind_rows[4] = {0};
    uint32_t kind_n[4] = {0};
    for (long e = 0; e < edits; e++) {
        int kind = (int)(e % 4);
        uint32_t i = rnd(ne);
        if (kind == 0) el[i] = el[--ne];
        else if (kind == 1) el[i].weight *= 2;
        else if (kind == 2) el[i].weight = floor(el[i].weight / 2);
        else {
            const uint32_t *to;
            const double *w;
            uint32_t k = pf_graph_arcs(cur, el[i].to, 0, &to, &w);
            uint32_t x = k ? to[rnd(k)] : el[i].to;
            double wx = k ? w[0] : 0;
            el[ne++] = (pf_edge){el[i].from, x, fmax(0.0, el[i].weight + wx - 1)};
        }
        if (pf_graph_create(&(pf_graph_desc){.node_count = n, .edge_count = ne, .edges = el}, &made[e]) != PF_OK) {
            fprintf(stderr, "bench_table: edited graph rejected\n");
            return 1;
        }
        pf_table_report rep;
        /* 1 thread for the headline number (comparable with the 1-thread rebuild) */
        t0 = bench_wall_s();
        pf_table_update(t, made[e], &(pf_table_update_desc){.threads = 1}, &rep);
        double s = bench_wall_s() - t0;
        upd_sum += s;
        if (s > upd_max) upd_max = s;
        examined += rep.rows_examined;
        changed += rep.rows_changed;
        searches += rep.searches;
        kind_s[kind] += s;
        kind_rows[kind] += rep.rows_examined;
        kind_n[kind]++;
        cur = made[e];
    }
    /* the same edits replayed on 2 threads from the original map */
    pf_table *t2;
    pf_table_create(g, NULL, &t2);
    for (long e = 0; e < edits; e++) {
        t0 = bench_wall_s();
        pf_table_update(t2, made[e], &(pf_table_update_desc){.threads = 2}, NULL);
        upd2_sum += bench_wall_s() - t0;
    }
    /* the final tables must equal a rebuild */
    pf_table *full;
    pf_table_create(cur, NULL, &full);
    size_t fs = pf_table_file_size(full);
    uint8_t *fa = malloc(fs), *fb = malloc(fs), *fc = malloc(fs);
    pf_table_save_mem(full, fa, fs, NULL);
    pf_table_save_mem(t, fb, fs, NULL);
    pf_table_save_mem(t2, fc, fs, NULL);
    int equal = memcmp(fa, fb, fs) == 0 && memcmp(fa, fc, fs) == 0;

    printf("{\"bench\":\"table\",\"graph\":\"%s\",\"nodes\":%u,\"arcs\":%u,\"entry_bytes\":%u,\"table_bytes\":%zu,\n",
           path, n, m, pf_table_entry_bytes(t), pf_table_mem_size(t));
    printf(" \"build_1t_s\":%.3f,\"build_2t_s\":%.3f,\"speedup_2t\":%.2f,\"row_1t_us\":%.1f,\"row_2t_us\":%.1f,\n", b1, b2,
           b1 / b2, b1 / n * 1e6, b2 / n * 1e6);
    printf(" \"queries\":%ld,\"table_path_us\":%.3f,\"avg_path_nodes\":%.1f,\"table_next_ns\":%.1f,\"astar_queries\":%ld,"
           "\"astar_path_us\":%.2f,\"astar_over_table\":%.0f,\"cost_mismatches\":%ld,\n",
           queries, tq * 1e6, (double)hops / (double)queries, tn * 1e9, aq, ta * 1e6, ta / tq, mism);
    printf(" \"edits\":%ld,\"update_1t_avg_s\":%.4f,\"update_1t_max_s\":%.4f,\"update_2t_avg_s\":%.4f,"
           "\"rebuild_1t_s\":%.3f,\"rebuild_over_update\":%.1f,\"avg_rows_examined\":%.1f,\"avg_rows_changed\":%.1f,"
           "\"avg_searches\":%.1f,\n",
           edits, upd_sum / (double)edits, upd_max, upd2_sum / (double)edits, b1, b1 / (upd_sum / (double)edits),
           (double)examined / (double)edits, (double)changed / (double)edits, (double)searches / (double)edits);
    printf(" \"by_kind\":{");
    for (int k = 0; k < 4; k++)
        printf("%s\"%s\":{\"n\":%u,\"avg_s\":%.4f,\"avg_rows_examined\":%.1f}", k ? "," : "", kinds[k], kind_n[k],
               kind_n[k] ? kind_s[k] / kind_n[k] : 0.0, kind_n[k] ? (double)kind_rows[k] / kind_n[k] : 0.0);
    printf("},\"updates_equal_rebuild\":%s}\n", equal ? "true" : "false");

    free(fa);
    free(fb);
    free(fc);
    pf_table_destroy(full);
    pf_table_destroy(t2);
    pf_table_destroy(t);
    for (long e = 0; e < edits; e++) pf_map_destroy(made[e]);
    free(made);
    free(el);
    free(pairs);
    free(buf);
    pf_ctx_destroy(ctx);
    pf_map_destroy(g);
    return equal && mism == 0 ? 0 : 1;
}
