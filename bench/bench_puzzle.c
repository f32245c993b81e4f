/* bench_puzzle.c - Korf's 15-puzzle instances by the generic IDA*: nodes generated and nodes per
 * second per instance, with Manhattan distance (Korf's 1985 setting), Manhattan plus linear
 * conflicts, or a pattern database (additive, maximised over the diagonal reflection).
 *
 *   bench_puzzle [--heuristic md|lc|both|pdb] [--ids 1,5,12] [--file korf20.txt]
 *                [--pdb 6-6-3|7-8|5-5-5] [--pdb-file F [--pdb-rebuild]] [--no-reflect] [--threads N]
 *
 * Prints one JSON object; exits non-zero unless every instance is solved at its listed optimal
 * length. Successors skip the parent (Korf's rule, PF_GEN_CYCLES_PARENT). Manhattan is pushed
 * incrementally by the domain (pf_gen_push_h); so are the database values (two lookups per move).
 * With --heuristic pdb the database is built first (--threads N build threads, default 1: the
 * "one core" figure) unless --pdb-file names a valid baked one. A --pdb-file that does not exist
 * is built and saved there; one that exists and does not load (another partition, --no-reflect, not
 * a database at all) is reported and left as it is (exit 1), unless --pdb-rebuild asks to build the
 * database and replace it. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"
#include "domains/puzzle.h"

/* CPU seconds of the whole process (all threads): on a shared machine the wall clock also counts
 * the time other programs held the cores; with one thread this is the one-core figure. */
static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [--heuristic md|lc|both|pdb] [--ids 1,2,...] [--file korf20.txt]\n"
            "       [--pdb 6-6-3|7-8|5-5-5] [--pdb-file F [--pdb-rebuild]] [--no-reflect] [--threads N]\n",
            argv0);
    return 2;
}

/* Loads or builds the database (puz_pdb_get: a file that does not load is left alone unless
 * `rebuild`). NULL on failure, said on stderr. */
static pf_pdb *get_pdb(const puz_pdb_set *set, const char *file, int rebuild, const char **source, double *seconds,
                       double *cpu_seconds)
{
    pf_pdb *pdb = NULL;
    pf_diag diag = {0};
    puz_pdb_source src;
    double t0 = bench_wall_s(), c0 = cpu();
    pf_status st = puz_pdb_get(set, file, rebuild, &pdb, &src, &diag);
    *seconds = bench_wall_s() - t0;
    *cpu_seconds = cpu() - c0;
    if (st != PF_OK) {
        fprintf(stderr, "bench_puzzle: %s\n", diag.msg);
        if (src == PUZ_PDB_REFUSED)
            fprintf(stderr, "bench_puzzle: --pdb-file %s was not loaded and is left as it is (--pdb-rebuild builds the "
                            "database and replaces it)\n", file);
        return NULL;
    }
    if (src == PUZ_PDB_BUILT_UNSAVED) fprintf(stderr, "bench_puzzle: not saved: %s\n", diag.msg);
    *source = src == PUZ_PDB_LOADED ? "loaded" : "built";
    return pdb;
}

/* The database's JSON member. */
static void print_pdb(const puz_pdb_set *set, const pf_pdb *pdb, const char *source, double seconds,
                      double cpu_seconds)
{
    printf("\"pdb\":{\"source\":\"%s\",\"seconds\":%.3f,\"cpu_seconds\":%.3f,\"build_seconds\":%.3f,"
           "\"threads\":%u,\"bytes\":%zu,\"reflect\":%s,\"patterns\":[",
           source, seconds, cpu_seconds, pf_pdb_build_seconds(pdb), set->desc.threads, pf_pdb_mem_size(pdb),
           set->desc.symmetry_count ? "true" : "false");
    for (uint32_t j = 0; j < set->desc.pattern_count; j++) {
        pf_pdb_info in;
        pf_pdb_get_pattern_info(pdb, j, &in);
        printf("%s{\"tiles\":[", j ? "," : "");
        for (uint32_t i = 0; i < set->pat[j].k; i++) printf("%s%u", i ? "," : "", set->pat[j].tiles[i]);
        printf("],\"entries\":%llu,\"bits\":%u,\"bytes\":%zu,\"max_moves\":%u}", (unsigned long long)in.entries,
               in.bits, in.bytes, in.max_moves);
    }
    printf("]},\n");
}

int main(int argc, char **argv)
{
    const char *file = PF_SHARED_DATA "/korf/korf20.txt", *heur = "both", *ids = NULL, *part = "6-6-3",
               *pdb_file = NULL;
    int reflect = 1, rebuild = 0;
    uint32_t threads = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--no-reflect")) {
            reflect = 0;
            continue;
        }
        if (!strcmp(argv[i], "--pdb-rebuild")) {
            rebuild = 1;
            continue;
        }
        if (i + 1 >= argc) return usage(argv[0]);
        if (!strcmp(argv[i], "--heuristic")) heur = argv[++i];
        else if (!strcmp(argv[i], "--ids")) ids = argv[++i];
        else if (!strcmp(argv[i], "--file")) file = argv[++i];
        else if (!strcmp(argv[i], "--pdb")) part = argv[++i];
        else if (!strcmp(argv[i], "--pdb-file")) pdb_file = argv[++i];
        else if (!strcmp(argv[i], "--threads")) threads = (uint32_t)strtoul(argv[++i], NULL, 10);
        else return usage(argv[0]);
    }
    const int use_pdb = !strcmp(heur, "pdb");
    if (!use_pdb && strcmp(heur, "md") && strcmp(heur, "lc") && strcmp(heur, "both")) return usage(argv[0]);
    if (rebuild && !pdb_file) {
        fprintf(stderr, "bench_puzzle: --pdb-rebuild replaces the file of --pdb-file, and none was given\n");
        return usage(argv[0]);
    }
    puz_instance inst[100];
    int n = puz_load_korf(file, inst, 100);
    if (n <= 0) {
        fprintf(stderr, "cannot read %s\n", file);
        return 1;
    }
    int want[101] = {0}, any = 0;
    if (ids) {
        for (const char *p = ids; *p;) {
            long v = strtol(p, (char **)&p, 10);
            if (v > 0 && v <= 100) want[v] = any = 1;
            if (*p == ',') p++;
            else if (*p) break;
        }
    }
    static puz_pdb_set set;
    static puz_pdb_search ps;
    pf_pdb *pdb = NULL;
    const char *pdb_source = "built";
    double pdb_seconds = 0, pdb_cpu = 0;
    if (use_pdb) {
        if (!puz_pdb_set_init(&set, part, reflect, threads) || set.dom.n != 4) {
            fprintf(stderr, "unknown 15-puzzle partition %s\n", part);
            return 2;
        }
        /* before any output: a refused file leaves no half-written JSON behind */
        pdb = get_pdb(&set, pdb_file, rebuild, &pdb_source, &pdb_seconds, &pdb_cpu);
        if (!pdb || !puz_pdb_search_init(&ps, &set, pdb)) {
            pf_pdb_destroy(pdb);
            return 1;
        }
    }
    pf_gen_ctx *ctx;
    if (pf_gen_ctx_create(NULL, &ctx) != PF_OK) {
        pf_pdb_destroy(pdb);
        return 1;
    }
    printf("{\"bench\":\"puzzle\",\"algo\":\"idastar\",\"cycles\":\"parent\",");
    if (use_pdb) {
        printf("\"partition\":\"%s\",", part);
        print_pdb(&set, pdb, pdb_source, pdb_seconds, pdb_cpu);
    }
    printf("\"instances\":[");
    int first = 1, bad = 0;
    /* [0] Manhattan, [1] linear conflicts, [2] database */
    double tot_t[3] = {0, 0, 0}, tot_c[3] = {0, 0, 0};
    unsigned long long tot_n[3] = {0, 0, 0};
    static const char *const names[3] = {"manhattan", "manhattan+lc", "pdb"};
    for (int i = 0; i < n; i++) {
        if (any && !want[inst[i].id]) continue;
        for (int h = 0; h < 3; h++) {
            if (use_pdb != (h == 2)) continue;
            if ((h == 1 && !strcmp(heur, "md")) || (h == 0 && !strcmp(heur, "lc"))) continue;
            puz_domain d = {4, h == 1 ? PUZ_LINEAR : PUZ_MANHATTAN, NULL};
            pf_gen_problem p = h == 2 ? puz_pdb_problem(&ps) : puz_problem(&d);
            uint8_t start[64];
            if (h == 2) puz_pdb_start(&ps, inst[i].s, start);
            else memcpy(start, inst[i].s, 17);
            uint32_t acts[128];
            pf_gen_plan plan = {acts, NULL, 128, 0};
            pf_gen_stats st;
            double t0 = bench_wall_s(), c0 = cpu();
            pf_status s = pf_gen_search(ctx, &p, start, &(pf_gen_desc){.algo = PF_GEN_IDASTAR,
                                                                        .cycles = PF_GEN_CYCLES_PARENT},
                                        &plan, &st);
            double t = bench_wall_s() - t0, tc = cpu() - c0;
            /* the plan really solves the board */
            uint8_t b[PUZ_MAX + 1];
            memcpy(b, inst[i].s, sizeof b);
            int ok = s == PF_OK && plan.len == inst[i].optimal;
            for (uint32_t k = 0; ok && k < plan.len; k++) ok = puz_apply(&d, b, acts[k]);
            ok = ok && puz_is_goal(b, &d);
            bad |= !ok;
            tot_t[h] += t;
            tot_c[h] += tc;
            tot_n[h] += st.generated;
            printf("%s\n {\"id\":%u,\"heuristic\":\"%s\",\"status\":\"%s\",\"length\":%u,\"optimal\":%u,\"ok\":%s,"
                   "\"generated\":%llu,\"expanded\":%llu,\"iterations\":%u,\"seconds\":%.3f,\"cpu_seconds\":%.3f,"
                   "\"nodes_per_s\":%.0f,\"nodes_per_cpu_s\":%.0f}",
                   first ? "" : ",", inst[i].id, names[h], pf_status_name(s), plan.len, inst[i].optimal,
                   ok ? "true" : "false", (unsigned long long)st.generated, (unsigned long long)st.expanded,
                   st.iterations, t, tc, t > 0 ? (double)st.generated / t : 0.0,
                   tc > 0 ? (double)st.generated / tc : 0.0);
            fflush(stdout);
            first = 0;
        }
    }
    printf("],\n\"total\":{");
    int comma = 0;
    for (int h = 0; h < 3; h++) {
        if (use_pdb != (h == 2)) continue;
        if ((h == 1 && !strcmp(heur, "md")) || (h == 0 && !strcmp(heur, "lc"))) continue;
        printf("%s\"%s\":{\"generated\":%llu,\"seconds\":%.3f,\"cpu_seconds\":%.3f,\"nodes_per_s\":%.0f,"
               "\"nodes_per_cpu_s\":%.0f",
               comma ? "," : "", names[h], tot_n[h], tot_t[h], tot_c[h], tot_t[h] > 0 ? (double)tot_n[h] / tot_t[h] : 0.0,
               tot_c[h] > 0 ? (double)tot_n[h] / tot_c[h] : 0.0);
        if (h == 2)
            printf(",\"seconds_with_pdb\":%.3f,\"cpu_seconds_with_pdb\":%.3f", tot_t[h] + pdb_seconds,
                   tot_c[h] + pdb_cpu);
        printf("}");
        comma = 1;
    }
    printf("},\"all_ok\":%s}\n", bad ? "false" : "true");
    pf_pdb_destroy(pdb);
    pf_gen_ctx_destroy(ctx);
    return bad;
}
