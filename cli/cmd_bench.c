/* cmd_bench.c - `pathfind bench`: time algorithms and thread counts on a scenario file, print JSON,
 * and with --plot draw it through `pathfind plot`. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, strtok_r */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"

static const char HELP[] =
    "usage: pathfind bench MAP.map SCEN.scen [--algo LIST] [--threads LIST] [--frames N]\n"
    "                      [--queries N] [--moves 4|8|8cut|hex] [-o FILE.json] [--plot DIR]\n"
    "\n"
    "Times every algorithm of LIST on the scenario file, one query at a time on one thread (µs per\n"
    "query against its path length), then runs the same queries as one pf_batch per frame on each\n"
    "worker count of --threads (queries per second, frame times). Costs are checked against the\n"
    "file's optimal lengths where the algorithm is optimal. Writes one JSON object (to FILE with -o,\n"
    "else to stdout); --plot DIR also draws it with gnuplot (see pathfind plot --help).\n"
    "\n"
    "  --algo LIST     comma-separated: astar (default), wastar, dijkstra, bfs, greedy, jps, jps+\n"
    "  --threads LIST  worker counts for the batch runs, e.g. 1,2,4 (default 1,2; 0 = skip them)\n"
    "  --frames N      batch frames per worker count (default 5)\n"
    "  --queries N     use N scenario lines, evenly spread over the file (default all)\n"
    "  --plot DIR      write DIR/bench.json and plot it into DIR\n"
    "\n"
    "JSON: {\"map\", \"queries\": [{\"algo\", \"path_len\", \"cost\", \"us\"}...], \"summary\": [{\"algo\",\n"
    "\"us_per_query\", \"mismatches\"}...], \"threads\": [{\"algo\", \"threads\", \"queries_per_s\"}...],\n"
    "\"frames\": [{\"label\", \"frame_ms\": [...]}...]}\n"
    "\n"
    "examples:\n"
    "  pathfind bench arena.map arena.map.scen --algo astar,jps,dijkstra --plot plots/\n"
    "  pathfind bench random-2000-20.map random-2000-20-short.map.scen --threads 1,2 --frames 20 -o f.json\n";

enum { MAX_ALGOS = 8, MAX_THREADS = 16 };

/* "a,b,c" -> algorithms; 0 on a bad name. */
static int parse_algos(const char *s, pf_algo *out, int *n)
{
    char buf[256];
    if (strlen(s) >= sizeof buf) return 0;
    strcpy(buf, s);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (*n == MAX_ALGOS || !cli_parse_algo("bench", t, &out[*n])) return 0;
        (*n)++;
    }
    return *n > 0;
}

static int parse_threads(const char *s, long *out, int *n)
{
    char buf[256];
    if (strlen(s) >= sizeof buf) return 0;
    strcpy(buf, s);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        long v;
        if (*n == MAX_THREADS || !cli_parse_int("bench", "--threads", t, 0, 1024, &v)) return 0;
        if (v == 0) return *n == 0 && !strtok_r(NULL, ",", &save); /* "0": no batch runs */
        out[(*n)++] = v;
    }
    return 1;
}

int pf_cli_bench(int argc, char **argv)
{
    const char *mp = NULL, *sp = NULL, *outp = NULL, *plot = NULL;
    pf_algo algos[MAX_ALGOS] = {PF_ALGO_ASTAR};
    int nalgos = 1, nthreads = 2;
    long threads[MAX_THREADS] = {1, 2}, frames = 5, maxq = 0;
    pf_moves moves = PF_MOVES_8_NO_CUT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        } else if (strcmp(a, "--algo") == 0 && more) {
            if (!parse_algos(argv[++i], algos, &nalgos)) {
                fprintf(stderr, "pathfind bench: bad --algo list '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--threads") == 0 && more) {
            if (!parse_threads(argv[++i], threads, &nthreads)) {
                fprintf(stderr, "pathfind bench: bad --threads list '%s' (e.g. 1,2,4; at most %d)\n", argv[i], MAX_THREADS);
                return 2;
            }
        } else if (strcmp(a, "--frames") == 0 && more) {
            if (!cli_parse_int("bench", "--frames", argv[++i], 1, 100000, &frames)) return 2;
        } else if (strcmp(a, "--queries") == 0 && more) {
            if (!cli_parse_int("bench", "--queries", argv[++i], 1, 100000000, &maxq)) return 2;
        } else if (strcmp(a, "--moves") == 0 && more) {
            if (!cli_parse_moves("bench", argv[++i], &moves)) return 2;
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "--out") == 0) && more) {
            outp = argv[++i];
        } else if (strcmp(a, "--plot") == 0 && more) {
            plot = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "pathfind bench: unknown or incomplete option '%s' (see --help)\n", a);
            return 2;
        } else if (!mp) {
            mp = a;
        } else if (!sp) {
            sp = a;
        } else {
            fprintf(stderr, "pathfind bench: unexpected argument '%s'\n", a);
            return 2;
        }
    }
    if (!mp || !sp) {
        fprintf(stderr, "pathfind bench: need MAP.map and SCEN.scen\n\n");
        fputs(HELP, stderr);
        return 2;
    }

    pf_map *map = NULL;
    pf_scen *sc = NULL;
    pf_diag d;
    if (pf_grid_load_movingai(mp, &(pf_grid_load_desc){.moves = moves}, &map, &d) != PF_OK ||
        pf_scen_load(sp, NULL, &sc, &d) != PF_OK) {
        fprintf(stderr, "pathfind bench: %s\n", d.msg);
        pf_map_destroy(map);
        return 1;
    }
    uint32_t total = pf_scen_count(sc), n = maxq && (uint32_t)maxq < total ? (uint32_t)maxq : total;
    int rc = 1;
    FILE *out = NULL;
    char jpath[4096];
    pf_ctx *ctx = NULL;
    pf_jps_table *jt = NULL;
    uint32_t *node_s = malloc((n ? n : 1) * sizeof *node_s), *node_g = malloc((n ? n : 1) * sizeof *node_g);
    double *opt = malloc((n ? n : 1) * sizeof *opt), *ft = malloc((size_t)frames * sizeof *ft);
    cli_pathbuf pb = {0};
    if (!node_s || !node_g || !opt || !ft) goto oom;
    for (uint32_t i = 0; i < n; i++) {
        const pf_scen_entry *e = pf_scen_get(sc, (uint32_t)((uint64_t)i * total / n));
        node_s[i] = pf_grid_node(map, (int32_t)e->sx, (int32_t)e->sy);
        node_g[i] = pf_grid_node(map, (int32_t)e->gx, (int32_t)e->gy);
        opt[i] = e->optimal;
    }
    if (plot) {
        if (mkdir(plot, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "pathfind bench: cannot create '%s': %s\n", plot, strerror(errno));
            goto done;
        }
        snprintf(jpath, sizeof jpath, "%s/bench.json", plot);
        if (!outp) outp = jpath;
    }
    out = outp ? fopen(outp, "w") : stdout;
    if (!out) {
        fprintf(stderr, "pathfind bench: cannot write '%s': %s\n", outp, strerror(errno));
        goto done;
    }
    if (pf_ctx_create(map, NULL, &ctx) != PF_OK) goto oom;
    int need_jps = 0;
    for (int a = 0; a < nalgos; a++) need_jps |= algos[a] == PF_ALGO_JPS || algos[a] == PF_ALGO_JPS_PLUS;
    if (need_jps && pf_jps_supported(map)) {
        /* built once, outside the timings, and shared by every context below */
        if (pf_jps_table_create(map, NULL, &jt) != PF_OK) goto oom;
        pf_ctx_use_jps_table(ctx, jt);
    }
    int check = moves == PF_MOVES_8_NO_CUT;
    fprintf(out, "{\"bench\":\"pathfind bench\",\"map\":\"%s\",\"scen\":\"%s\",\"moves\":\"%s\",\"queries\":[", mp, sp,
            moves == PF_MOVES_4 ? "4" : moves == PF_MOVES_8_CUT ? "8cut" : moves == PF_MOVES_HEX ? "hex" : "8");
    double *us_sum = calloc((size_t)nalgos, sizeof *us_sum);
    uint32_t *mism = calloc((size_t)nalgos, sizeof *mism), *solved = calloc((size_t)nalgos, sizeof *solved);
    if (!us_sum || !mism || !solved) {
        free(us_sum);
        free(mism);
        free(solved);
        goto oom;
    }
    int first = 1;
    cli_progress_state prog = {.label = "bench"};
    for (int a = 0; a < nalgos; a++) {
        pf_search_desc sd = {.algo = algos[a], .weight = algos[a] == PF_ALGO_WASTAR ? 2.0 : 0.0};
        for (uint32_t i = 0; i < n; i++) {
            pf_path path;
            pf_stats st;
            double t0 = cli_now();
            pf_status s = cli_search(ctx, node_s[i], node_g[i], &sd, &pb, &path, &st);
            double us = (cli_now() - t0) * 1e6;
            us_sum[a] += us;
            int ok = s == PF_OK || s == PF_FALLBACK;
            solved[a] += ok;
            if (check && cli_algo_optimal(algos[a]) && (!ok || fabs(st.cost - opt[i]) > PF_SCEN_TOLERANCE)) mism[a]++;
            if (ok) {
                fprintf(out, "%s\n{\"algo\":\"%s\",\"path_len\":%u,\"cost\":%.6f,\"us\":%.3f}", first ? "" : ",",
                        pf_algo_name(algos[a]), path.len, st.cost, us);
                first = 0;
            }
            cli_progress(&prog, (uint64_t)a * n + i + 1, (uint64_t)nalgos * n);
        }
    }
    fprintf(out, "],\n\"summary\":[");
    for (int a = 0; a < nalgos; a++)
        fprintf(out, "%s{\"algo\":\"%s\",\"queries\":%u,\"solved\":%u,\"mismatches\":%u,\"checked\":%s,\"us_per_query\":%.3f}",
                a ? "," : "", pf_algo_name(algos[a]), n, solved[a], mism[a],
                check && cli_algo_optimal(algos[a]) ? "true" : "false", n ? us_sum[a] / n : 0.0);
    uint32_t bad = 0;
    for (int a = 0; a < nalgos; a++) bad += mism[a];
    free(us_sum);
    free(mism);
    free(solved);

    /* batch frames: every selected query, first algorithm, per worker count */
    fprintf(out, "],\n\"threads\":[");
    char *frames_json = NULL;
    size_t fj_len = 0;
    FILE *fj = open_memstream(&frames_json, &fj_len);
    if (!fj) goto oom;
    for (int t = 0; t < nthreads; t++) {
        pf_batch *b;
        pf_batch_desc bd = {.workers = (uint32_t)threads[t], .jps_table = jt};
        if (pf_batch_create(map, &bd, &b) != PF_OK) {
            fclose(fj);
            free(frames_json);
            goto oom;
        }
        double sum = 0.0;
        for (long f = 0; f < frames; f++) {
            double t0 = cli_now();
            pf_batch_reset(b);
            for (uint32_t i = 0; i < n; i++) {
                pf_batch_query q = {.start = node_s[i], .goal = node_g[i], .search = {.algo = algos[0]}, .tag = i};
                if (algos[0] == PF_ALGO_WASTAR) q.search.weight = 2.0;
                pf_batch_submit(b, &q, NULL);
            }
            pf_batch_run(b, NULL);
            ft[f] = cli_now() - t0;
            sum += ft[f];
        }
        pf_batch_destroy(b);
        fprintf(out, "%s{\"algo\":\"%s\",\"threads\":%ld,\"queries_per_s\":%.1f,\"frame_queries\":%u}", t ? "," : "",
                pf_algo_name(algos[0]), threads[t], sum > 0 ? (double)n * (double)frames / sum : 0.0, n);
        fprintf(fj, "%s{\"label\":\"%ld thread%s\",\"frame_ms\":[", t ? "," : "", threads[t], threads[t] > 1 ? "s" : "");
        for (long f = 0; f < frames; f++) fprintf(fj, "%s%.3f", f ? "," : "", ft[f] * 1e3);
        fprintf(fj, "]}");
    }
    fclose(fj);
    fprintf(out, "],\n\"frames\":[%s],\"peak_rss_kb\":%ld}\n", frames_json ? frames_json : "", cli_peak_rss_kb());
    free(frames_json);
    if (out != stdout) {
        if (fclose(out) != 0) {
            out = NULL;
            fprintf(stderr, "pathfind bench: error writing '%s'\n", outp);
            goto done;
        }
        out = NULL;
        fprintf(stderr, "pathfind bench: wrote %s\n", outp);
    }
    rc = bad ? 1 : 0;
    if (bad) fprintf(stderr, "pathfind bench: %u costs differ from the optimal lengths\n", bad);
    if (plot) {
        char *pargv[] = {"plot", (char *)outp, "--out", (char *)plot, NULL};
        int prc = pf_cli_plot(4, pargv);
        if (prc) rc = prc;
    }
    goto done;
oom:
    fprintf(stderr, "pathfind bench: out of memory\n");
    rc = 1;
done:
    if (out && out != stdout) fclose(out);
    cli_pathbuf_free(&pb);
    pf_ctx_destroy(ctx);
    pf_jps_table_destroy(jt);
    free(node_s);
    free(node_g);
    free(opt);
    free(ft);
    pf_scen_destroy(sc);
    pf_map_destroy(map);
    return rc;
}
