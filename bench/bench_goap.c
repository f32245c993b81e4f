/* bench_goap.c - GOAP plans per second for a 20-action domain (12 facts), serially on one context
 * and in batches through pf_goap_plan_many.
 *
 *   bench_goap [plans (default 20000)] [threads for the batch (default 0 = OpenMP default)]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "pathfind.h"
#include "bench_util.h"

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A survival-game domain: 12 facts in 0..3, 20 actions (each with one or two preconditions and
 * one effect: the heuristic is admissible), costs 1..4. Seeded, so every run plans the same. */
static pf_goap *domain(void)
{
    pf_goap *g;
    if (pf_goap_create(NULL, &g) != PF_OK) return NULL;
    static const char *facts[12] = {"hunger", "thirst", "food", "water", "wood", "fire", "axe",
                                    "see_berries", "see_river", "shelter", "tired", "safe"};
    for (int i = 0; i < 12; i++) pf_goap_fact(g, facts[i], NULL);
    uint64_t rs = 0xC0FFEE;
    for (int a = 0; a < 20; a++) {
        char name[16];
        snprintf(name, sizeof name, "action%02d", a);
        pf_goap_cond pre[2];
        uint32_t np = 1 + (uint32_t)(rng_next(&rs) % 2);
        for (uint32_t i = 0; i < np; i++)
            pre[i] = (pf_goap_cond){(uint32_t)(rng_next(&rs) % 12), PF_GOAP_GE, (int32_t)(rng_next(&rs) % 2)};
        pf_goap_effect e = {(uint32_t)(rng_next(&rs) % 12), PF_GOAP_SET, (int32_t)(rng_next(&rs) % 4)};
        pf_goap_add_action(g, &(pf_goap_action_desc){name, 1.0 + (double)(rng_next(&rs) % 4), pre, np, &e, 1}, NULL);
    }
    return g;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000;
    uint32_t threads = argc > 2 ? (uint32_t)atoi(argv[2]) : 0;
    if (n <= 0) n = 1;
    pf_goap *g = domain();
    if (!g) return 1;
    int32_t (*worlds)[12] = calloc((size_t)n, sizeof *worlds);
    pf_goap_cond (*goals)[2] = calloc((size_t)n, sizeof *goals);
    uint32_t (*acts)[32] = calloc((size_t)n, sizeof *acts);
    pf_goap_query *q = calloc((size_t)n, sizeof *q);
    if (!worlds || !goals || !acts || !q) return 1;
    uint64_t rs = 42;
    for (int i = 0; i < n; i++) {
        for (int f = 0; f < 12; f++) worlds[i][f] = (int32_t)(rng_next(&rs) % 2);
        for (int k = 0; k < 2; k++)
            goals[i][k] = (pf_goap_cond){(uint32_t)(rng_next(&rs) % 12), PF_GOAP_EQ, (int32_t)(rng_next(&rs) % 4)};
        q[i] = (pf_goap_query){.world = worlds[i], .goal = goals[i], .goal_count = 2,
                               .plan = {.actions = acts[i], .capacity = 32}};
    }
    pf_gen_ctx *ctx;
    if (pf_gen_ctx_create(NULL, &ctx) != PF_OK) return 1;
    int found = 0;
    unsigned long long expanded = 0;
    double t0 = bench_wall_s();
    for (int i = 0; i < n; i++) {
        pf_goap_plan p = {.actions = acts[i], .capacity = 32};
        pf_status s = pf_goap_plan_find(ctx, g, worlds[i], goals[i], 2, NULL, &p);
        found += s == PF_OK;
        expanded += p.expanded;
    }
    double ts = bench_wall_s() - t0;
    t0 = bench_wall_s();
    pf_goap_plan_many(g, q, (uint32_t)n, NULL, NULL, threads);
    double tb = bench_wall_s() - t0;
    int found_b = 0;
    for (int i = 0; i < n; i++) found_b += q[i].status == PF_OK;
    printf("{\"bench\":\"goap\",\"actions\":20,\"facts\":12,\"plans\":%d,\"found\":%d,\"found_batch\":%d,"
           "\"expanded_per_plan\":%.1f,\"serial\":{\"seconds\":%.4f,\"plans_per_s\":%.0f},"
           "\"batch\":{\"threads\":%u,\"seconds\":%.4f,\"plans_per_s\":%.0f}}\n",
           n, found, found_b, (double)expanded / n, ts, n / ts, threads, tb, n / tb);
    pf_gen_ctx_destroy(ctx);
    pf_goap_destroy(g);
    free(worlds);
    free(goals);
    free(acts);
    free(q);
    return found != found_b;
}
