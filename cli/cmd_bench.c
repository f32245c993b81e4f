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
    "worker count of --threads (queries per second, frame times; a batch holds at most 1,048,575\n"
    "queries: use --queries N for larger files). wastar runs with weight 1.5 (the default of scen and\n"
    "path), the others with 1; each entry records it as \"weight\". Costs are checked against the\n"
    "file's optimal lengths where the algorithm is optimal. Writes one JSON object (to FILE with -o,\n"
    "else to stdout); --plot DIR also draws it with gnuplot (see pathfind plot --help).\n"
    "\n"
    "  --algo LIST     comma-separated: astar (default), wastar, dijkstra, bfs, greedy, jps, jps+,\n"
    "                  auto (without an accelerator here: JPS+), theta\n"
    "  --threads LIST  worker counts for the batch runs, e.g. 1,2,4 (default 1,2; 0 = skip them)\n"
    "  --frames N      batch frames per worker count (default 5)\n"
    "  --queries N     use N scenario lines, evenly spread over the file (default all)\n"
    "  --plot DIR      plot the JSON into DIR (written to DIR/bench.json unless -o names a file)\n"
    "\n"
    "JSON: {\"map\", \"queries\": [{\"algo\", \"path_len\", \"cost\", \"us\"}...], \"summary\": [{\"algo\",\n"
    "\"us_per_query\", \"mismatches\", \"weight\"}...], \"threads\": [{\"algo\", \"threads\", \"queries_per_s\",\n"
    "\"weight\"}...], \"frames\": [{\"label\", \"frame_ms\": [...]}...]}\n"
    "\n"
    "examples:\n"
    "  pathfind bench arena.map arena.map.scen --algo astar,jps,dijkstra --plot plots/\n"
    "  pathfind bench random-2000-20.map random-2000-20-short.map.scen --threads 1,2 --frames 20 -o f.json\n";

enum { MAX_ALGOS = 8, MAX_THREADS = 16 };

/* "a,b,c" -> algorithms; 0 on a bad name. */
static int parse_algos(const char *s, pf_algo *out, int *n)
{
    char buf[256];
    const size_t len = strlen(s);
    if (len >= sizeof buf) return 0;
    /* every item a number: ",,," ran no batch and "1,,2" read as "1,2", without a word */
    if (!len || s[0] == ',' || s[len - 1] == ',' || strstr(s, ",,")) return 0; /* the caller says it */
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
    const size_t len = strlen(s);
    if (len >= sizeof buf) return 0;
    /* every item a number: ",,," ran no batch and "1,,2" read as "1,2", without a word */
    if (!len || s[0] == ',' || s[len - 1] == ',' || strstr(s, ",,")) return 0; /* the caller says it */
    strcpy(buf, s);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        long v; /* read quietly: the caller says what is wrong with the list, once */
        if (*n == MAX_THREADS || !cli_read_int(t, 0, CLI_MAX_THREADS, &v)) return 0;
        if (v == 0) return *n == 0 && !strtok_r(NULL, ",", &save); /* "0": no batch runs */
        out[(*n)++] = v;
    }
    return 1;
}

typedef struct bench_args {
    const char *map, *scen, *out, *plot;
    pf_algo algos[MAX_ALGOS];
    int nalgos, nthreads;
    long threads[MAX_THREADS], frames, maxq;
    pf_moves moves;
} bench_args;

/* Returns -1 when the arguments are good, else the exit code (0 after --help). */
static int parse_args(int argc, char **argv, bench_args *b)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = cli_has_value(argc, argv, i);
        if (cli_is_help(a)) {
            fputs(HELP, stdout);
            return 0;
        } else if (strcmp(a, "--algo") == 0 && more) {
            if (!parse_algos(argv[++i], b->algos, &b->nalgos)) {
                cli_error("bench", "bad --algo list '%s'", argv[i]);
                return 2;
            }
        } else if (strcmp(a, "--threads") == 0 && more) {
            if (!parse_threads(argv[++i], b->threads, &b->nthreads)) {
                cli_error("bench", "bad --threads list '%s' (e.g. 1,2,4; at most %d)", argv[i], MAX_THREADS);
                return 2;
            }
        } else if (strcmp(a, "--frames") == 0 && more) {
            if (!cli_parse_int("bench", "--frames", argv[++i], 1, 100000, &b->frames)) return 2;
        } else if (strcmp(a, "--queries") == 0 && more) {
            if (!cli_parse_int("bench", "--queries", argv[++i], 1, 100000000, &b->maxq)) return 2;
        } else if (strcmp(a, "--moves") == 0 && more) {
            if (!cli_parse_moves("bench", argv[++i], &b->moves)) return 2;
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "--out") == 0) && more) {
            b->out = argv[++i];
        } else if (strcmp(a, "--plot") == 0 && more) {
            b->plot = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            cli_error("bench", "unknown or incomplete option '%s' (see --help)", a);
            return 2;
        } else if (!b->map) {
            b->map = a;
        } else if (!b->scen) {
            b->scen = a;
        } else {
            cli_error("bench", "unexpected argument '%s'", a);
            return 2;
        }
    }
    if (!b->map || !b->scen) {
        cli_error("bench", "need MAP.map and SCEN.scen");
        fputc('\n', stderr);
        fputs(HELP, stderr);
        return 2;
    }
    const char *const in_opts[] = {"MAP", "SCEN"}, *const ins[] = {b->map, b->scen};
    if (cli_out_names_input("bench", "-o", b->out, 2, in_opts, ins)) return 2;
    return -1;
}

/* The weight a search of `algo` runs with: wastar's documented default (1.5, as scen, path and
 * render use), 1 (the library's default) for the others. bench takes no --weight; the JSON records
 * it ("weight" in "summary" and "threads"). It ran wastar with 2.0. */
static double bench_weight(pf_algo algo) { return algo == PF_ALGO_WASTAR ? 1.5 : 1.0; }

/* The selected queries (n of them, evenly spread over the file), as node ids and optimal lengths. */
typedef struct bench_set { uint32_t n, *s, *g; double *opt; } bench_set;

static int pick_queries(bench_set *q, const pf_map *map, const pf_scen *sc, long maxq)
{
    uint32_t total = pf_scen_count(sc);
    q->n = maxq && (uint32_t)maxq < total ? (uint32_t)maxq : total;
    size_t cnt = q->n ? q->n : 1;
    q->s = malloc(cnt * sizeof *q->s);
    q->g = malloc(cnt * sizeof *q->g);
    q->opt = malloc(cnt * sizeof *q->opt);
    if (!q->s || !q->g || !q->opt) return 0;
    for (uint32_t i = 0; i < q->n; i++) {
        const pf_scen_entry *e = pf_scen_get(sc, (uint32_t)((uint64_t)i * total / q->n));
        q->s[i] = pf_grid_node(map, e->sx, e->sy);
        q->g[i] = pf_grid_node(map, e->gx, e->gy);
        q->opt[i] = e->optimal;
    }
    return 1;
}

/* One query at a time per algorithm: the "queries" array, then "summary". Returns the number of
 * costs that differ from the optimum where the algorithm is optimal, or -1 when out of memory. */
static long time_singles(FILE *out, const bench_args *b, const bench_set *q, pf_ctx *ctx, int check)
{
    double *us_sum = calloc((size_t)b->nalgos, sizeof *us_sum);
    uint32_t *mism = calloc((size_t)b->nalgos, sizeof *mism), *solved = calloc((size_t)b->nalgos, sizeof *solved);
    cli_pathbuf pb = {0};
    long bad = -1;
    if (!us_sum || !mism || !solved) goto done;
    int first = 1;
    cli_progress_state prog = {.label = "bench"};
    for (int a = 0; a < b->nalgos; a++) {
        pf_search_desc sd = {.algo = b->algos[a], .weight = bench_weight(b->algos[a])};
        for (uint32_t i = 0; i < q->n; i++) {
            pf_path path;
            pf_stats st;
            double t0 = cli_now();
            pf_status s = cli_search(ctx, q->s[i], q->g[i], &sd, &pb, &path, &st);
            double us = (cli_now() - t0) * 1e6;
            us_sum[a] += us;
            int ok = s == PF_OK;
            solved[a] += ok;
            if (check && cli_algo_optimal(b->algos[a]) && (!ok || !(fabs(st.cost - q->opt[i]) <= PF_SCEN_TOLERANCE)))
                mism[a]++;
            if (ok) {
                fprintf(out, "%s\n{\"algo\":\"%s\",\"path_len\":%u,\"cost\":%.6f,\"us\":%.3f}", first ? "" : ",",
                        pf_algo_name(b->algos[a]), path.len, st.cost, us);
                first = 0;
            }
            cli_progress(&prog, (uint64_t)a * q->n + i + 1, (uint64_t)b->nalgos * q->n);
        }
    }
    fprintf(out, "],\n\"summary\":[");
    bad = 0;
    for (int a = 0; a < b->nalgos; a++) {
        fprintf(out, "%s{\"algo\":\"%s\",\"queries\":%u,\"solved\":%u,\"mismatches\":%u,\"checked\":%s,\"us_per_query\":%.3f,"
                "\"weight\":%g}",
                a ? "," : "", pf_algo_name(b->algos[a]), q->n, solved[a], mism[a],
                check && cli_algo_optimal(b->algos[a]) ? "true" : "false", q->n ? us_sum[a] / q->n : 0.0,
                bench_weight(b->algos[a]));
        bad += mism[a];
    }
done:
    cli_pathbuf_free(&pb);
    free(us_sum);
    free(mism);
    free(solved);
    return bad;
}

/* Every selected query as one batch per frame, first algorithm, per worker count: the "threads"
 * array, then "frames" (frame times per worker count). Returns PF_OK, else the status that stopped
 * it, said (a refusal was reported as "out of memory"). */
static pf_status time_frames(FILE *out, const bench_args *b, const bench_set *q, const pf_map *map, const pf_jps_table *jt)
{
    fprintf(out, "],\n\"threads\":[");
    char *frames_json = NULL;
    size_t fj_len = 0;
    double *ft = malloc((size_t)b->frames * sizeof *ft);
    FILE *fj = ft ? open_memstream(&frames_json, &fj_len) : NULL;
    pf_status s = fj ? PF_OK : PF_OUT_OF_MEMORY;
    if (s != PF_OK) cli_error("bench", "out of memory");
    for (int t = 0; s == PF_OK && t < b->nthreads; t++) {
        pf_batch *batch;
        pf_batch_desc bd = {.workers = (uint32_t)b->threads[t], .jps_table = jt};
        if ((s = pf_batch_create(map, &bd, &batch)) != PF_OK) {
            cli_error("bench", "creating a batch of %ld workers: %s", b->threads[t], pf_status_str(s));
            break;
        }
        double sum = 0.0;
        for (long f = 0; s == PF_OK && f < b->frames; f++) {
            double t0 = cli_now();
            s = pf_batch_reset(batch);
            for (uint32_t i = 0; s == PF_OK && i < q->n; i++) {
                pf_batch_query bq = {.start = q->s[i], .goal = q->g[i],
                                     .search = {.algo = b->algos[0], .weight = bench_weight(b->algos[0])}, .tag = i};
                if ((s = pf_batch_submit(batch, &bq, NULL)) != PF_OK)
                    cli_error("bench", "queueing query %u: %s", i, pf_status_str(s));
            }
            if (s == PF_OK && (s = pf_batch_run(batch, NULL)) != PF_OK) cli_error("bench", "running the batch: %s", pf_status_str(s));
            ft[f] = cli_now() - t0;
            sum += ft[f];
        }
        pf_batch_destroy(batch);
        if (s != PF_OK) break;
        fprintf(out, "%s{\"algo\":\"%s\",\"threads\":%ld,\"queries_per_s\":%.1f,\"frame_queries\":%u,\"weight\":%g}",
                t ? "," : "", pf_algo_name(b->algos[0]), b->threads[t],
                sum > 0 ? (double)q->n * (double)b->frames / sum : 0.0, q->n, bench_weight(b->algos[0]));
        fprintf(fj, "%s{\"label\":\"%ld thread%s\",\"frame_ms\":[", t ? "," : "", b->threads[t], b->threads[t] > 1 ? "s" : "");
        for (long f = 0; f < b->frames; f++) fprintf(fj, "%s%.3f", f ? "," : "", ft[f] * 1e3);
        fprintf(fj, "]}");
    }
    if (fj && fclose(fj) != 0 && s == PF_OK) {
        s = PF_OUT_OF_MEMORY;
        cli_error("bench", "out of memory");
    }
    if (s == PF_OK) fprintf(out, "],\n\"frames\":[%s],\"peak_rss_kb\":%ld}\n", frames_json ? frames_json : "", cli_peak_rss_kb());
    free(frames_json);
    free(ft);
    return s;
}

int pf_cli_bench(int argc, char **argv)
{
    bench_args b = {.algos = {PF_ALGO_ASTAR}, .nalgos = 1, .nthreads = 2, .threads = {1, 2}, .frames = 5,
                    .moves = PF_MOVES_8_NO_CUT};
    int rc = parse_args(argc, argv, &b);
    if (rc >= 0) return rc;
    if (cli_args_only) return 0;
    pf_map *map = NULL;
    pf_scen *sc = NULL;
    pf_diag d;
    if (pf_grid_load_movingai(b.map, &(pf_grid_load_desc){.moves = b.moves}, &map, &d) != PF_OK ||
        pf_scen_load(b.scen, NULL, &sc, &d) != PF_OK) {
        cli_error("bench", "%s", d.msg);
        pf_map_destroy(map);
        return 1;
    }
    rc = 1;
    cli_out o = {0};
    FILE *out = NULL;
    char *jpath = NULL;
    const char *outp = b.out;
    pf_ctx *ctx = NULL;
    pf_jps_table *jt = NULL;
    bench_set q = {0};
    if (!pick_queries(&q, map, sc, b.maxq)) goto oom;
    /* a frame is one pf_batch run: said before the timings, not as "out of memory" after them */
    if (b.nthreads > 0 && q.n > PF_BATCH_MAX_QUERIES) {
        cli_error("bench", "%u queries: a frame's batch holds at most %u (PF_BATCH_MAX_QUERIES); use --queries N "
                  "or --threads 0",
                  q.n, (unsigned)PF_BATCH_MAX_QUERIES);
        goto done;
    }
    if (b.plot) {
        if (mkdir(b.plot, 0777) != 0 && errno != EEXIST) {
            cli_error("bench", "cannot create '%s': %s", b.plot, strerror(errno));
            goto done;
        }
        size_t jl = strlen(b.plot) + 16;
        if (!(jpath = malloc(jl))) goto oom;
        snprintf(jpath, jl, "%s/bench.json", b.plot);
        if (!outp) outp = jpath;
    }
    out = outp ? cli_out_open(&o, "bench", outp) : stdout;
    if (!out) goto done;
    if (pf_ctx_create(map, NULL, &ctx) != PF_OK) goto oom;
    int need_jps = 0;
    for (int a = 0; a < b.nalgos; a++) need_jps |= b.algos[a] == PF_ALGO_JPS || b.algos[a] == PF_ALGO_JPS_PLUS;
    if (need_jps && pf_jps_supported(map)) {
        /* built once, outside the timings, and shared by every context below */
        if (pf_jps_table_create(map, NULL, &jt) != PF_OK) goto oom;
        pf_ctx_use_jps_table(ctx, jt);
    }
    int check = b.moves == PF_MOVES_8_NO_CUT;
    /* the JSON is read back by pathfind plot: strings written escaped */
    fprintf(out, "{\"bench\":\"pathfind bench\",\"map\":");
    cli_json_str(out, b.map);
    fprintf(out, ",\"scen\":");
    cli_json_str(out, b.scen);
    fprintf(out, ",\"moves\":\"%s\",\"queries\":[",
            b.moves == PF_MOVES_4 ? "4" : b.moves == PF_MOVES_8_CUT ? "8cut" : b.moves == PF_MOVES_HEX ? "hex" : "8");
    long bad = time_singles(out, &b, &q, ctx, check);
    if (bad < 0) goto oom;
    if (time_frames(out, &b, &q, map, jt) != PF_OK) goto done; /* said */
    if (out != stdout) {
        int ok = cli_out_close(&o, "bench", 1);
        out = NULL;
        if (!ok) goto done;
        cli_error("bench", "wrote %s", outp);
    }
    rc = bad ? 1 : 0;
    if (bad) cli_error("bench", "%ld costs differ from the optimal lengths", bad);
    if (b.plot) {
        char *pargv[] = {"plot", (char *)outp, "--out", (char *)b.plot, NULL};
        int prc = pf_cli_plot(4, pargv);
        if (prc) rc = prc;
    }
    goto done;
oom:
    cli_error("bench", "out of memory");
    rc = 1;
done:
    if (out && out != stdout) cli_out_close(&o, "bench", 0);
    pf_ctx_destroy(ctx);
    pf_jps_table_destroy(jt);
    free(q.s);
    free(q.g);
    free(q.opt);
    free(jpath);
    pf_scen_destroy(sc);
    pf_map_destroy(map);
    return rc;
}
