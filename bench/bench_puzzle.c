/* bench_puzzle.c - Korf's 15-puzzle instances 1-20 by the generic IDA*: nodes generated and nodes
 * per second per instance, with Manhattan distance (Korf's 1985 setting) and with linear conflicts.
 *
 *   bench_puzzle [--heuristic md|lc|both] [--ids 1,5,12] [--file korf20.txt]
 *
 * Prints one JSON object. Successors skip the parent (Korf's rule, PF_GEN_CYCLES_PARENT); the
 * Manhattan distance is pushed incrementally by the domain (pf_gen_push_h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pathfind.h"
#include "domains/puzzle.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *file = PF_SHARED_DATA "/korf/korf20.txt", *heur = "both", *ids = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--heuristic")) heur = argv[i + 1];
        else if (!strcmp(argv[i], "--ids")) ids = argv[i + 1];
        else if (!strcmp(argv[i], "--file")) file = argv[i + 1];
        else {
            fprintf(stderr, "usage: %s [--heuristic md|lc|both] [--ids 1,2,...] [--file korf20.txt]\n", argv[0]);
            return 2;
        }
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
    pf_gen_ctx *ctx;
    if (pf_gen_ctx_create(NULL, &ctx) != PF_OK) return 1;
    printf("{\"bench\":\"puzzle\",\"algo\":\"idastar\",\"cycles\":\"parent\",\"instances\":[");
    int first = 1, bad = 0;
    double tot_t[2] = {0, 0};
    unsigned long long tot_n[2] = {0, 0};
    for (int i = 0; i < n; i++) {
        if (any && !want[inst[i].id]) continue;
        for (int lc = 0; lc < 2; lc++) {
            if ((lc && !strcmp(heur, "md")) || (!lc && !strcmp(heur, "lc"))) continue;
            puz_domain d = {4, lc ? PUZ_LINEAR : PUZ_MANHATTAN, NULL};
            pf_gen_problem p = puz_problem(&d);
            uint32_t acts[128];
            pf_gen_plan plan = {acts, NULL, 128, 0};
            pf_gen_stats st;
            double t0 = now();
            pf_status s = pf_gen_search(ctx, &p, inst[i].s, &(pf_gen_desc){.algo = PF_GEN_IDASTAR,
                                                                           .cycles = PF_GEN_CYCLES_PARENT},
                                        &plan, &st);
            double t = now() - t0;
            int ok = s == PF_OK && plan.len == inst[i].optimal;
            bad |= !ok;
            tot_t[lc] += t;
            tot_n[lc] += st.generated;
            printf("%s\n {\"id\":%u,\"heuristic\":\"%s\",\"status\":\"%s\",\"length\":%u,\"optimal\":%u,\"ok\":%s,"
                   "\"generated\":%llu,\"expanded\":%llu,\"iterations\":%u,\"seconds\":%.3f,\"nodes_per_s\":%.0f}",
                   first ? "" : ",", inst[i].id, lc ? "manhattan+lc" : "manhattan", pf_status_name(s), plan.len,
                   inst[i].optimal, ok ? "true" : "false", (unsigned long long)st.generated,
                   (unsigned long long)st.expanded, st.iterations, t, t > 0 ? (double)st.generated / t : 0.0);
            fflush(stdout);
            first = 0;
        }
    }
    printf("],\n\"total\":{\"manhattan\":{\"generated\":%llu,\"seconds\":%.3f},"
           "\"manhattan+lc\":{\"generated\":%llu,\"seconds\":%.3f}},\"all_ok\":%s}\n",
           tot_n[0], tot_t[0], tot_n[1], tot_t[1], bad ? "false" : "true");
    pf_gen_ctx_destroy(ctx);
    return bad;
}
