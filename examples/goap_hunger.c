/* goap_hunger.c - the hunger/food/berries agent of the "Generic A* for Games" write-up: a hungry
 * agent with no food plans Search Berries -> Gather Berries -> Eat. Then 1000 agents with different
 * needs are planned in one batch (OpenMP threads when built with PF_WITH_OPENMP). */
#include <stdio.h>
#include "pathfind.h"

int main(void)
{
    pf_goap *g;
    if (pf_goap_create(NULL, &g) != PF_OK) return 1;
    uint32_t hunger, food, see;
    pf_goap_fact(g, "hunger", &hunger);
    pf_goap_fact(g, "food", &food);
    pf_goap_fact(g, "see_berries", &see);
    pf_goap_cond has_food = {food, PF_GOAP_GE, 1}, sees = {see, PF_GOAP_GE, 1};
    pf_goap_effect eat[2] = {{hunger, PF_GOAP_ADD, -1}, {food, PF_GOAP_ADD, -1}};
    pf_goap_effect gather = {food, PF_GOAP_ADD, 1}, search = {see, PF_GOAP_ADD, 1};
    pf_goap_add_action(g, &(pf_goap_action_desc){"Eat", 1, &has_food, 1, eat, 2}, NULL);
    pf_goap_add_action(g, &(pf_goap_action_desc){"Gather Berries", 1, &sees, 1, &gather, 1}, NULL);
    pf_goap_add_action(g, &(pf_goap_action_desc){"Search Berries", 1, NULL, 0, &search, 1}, NULL);

    pf_gen_ctx *ctx;
    if (pf_gen_ctx_create(NULL, &ctx) != PF_OK) return 1;
    int32_t world[3] = {0};
    world[hunger] = 1;
    pf_goap_cond goal = {hunger, PF_GOAP_EQ, 0}; /* goal "satisfy hunger": hunger = 0 */
    uint32_t acts[16];
    pf_goap_plan plan = {.actions = acts, .capacity = 16};
    pf_status s = pf_goap_plan_find(ctx, g, world, &goal, 1, NULL, &plan);
    printf("satisfy hunger: %s, cost %g, %llu states expanded\n", pf_status_name(s), plan.cost,
           (unsigned long long)plan.expanded);
    for (uint32_t i = 0; i < plan.len; i++) printf("  %u. %s\n", i + 1, pf_goap_action_name(g, acts[i]));

    /* a batch: agent i is i % 4 hungry, holds i % 3 food and sometimes already sees berries */
    enum { N = 1000 };
    static int32_t worlds[N][3];
    static uint32_t bacts[N][32];
    static pf_goap_query q[N];
    for (int i = 0; i < N; i++) {
        worlds[i][hunger] = i % 4;
        worlds[i][food] = i % 3;
        worlds[i][see] = i % 5 == 0;
        q[i] = (pf_goap_query){.world = worlds[i], .goal = &goal, .goal_count = 1,
                               .plan = {.actions = bacts[i], .capacity = 32}};
    }
    pf_goap_plan_many(g, q, N, NULL, NULL, 0);
    double total = 0;
    for (int i = 0; i < N; i++) total += q[i].status == PF_OK ? q[i].plan.cost : 0;
    printf("batch of %d agents: total plan cost %g (agent 7: %u actions)\n", N, total, q[7].plan.len);
    pf_gen_ctx_destroy(ctx);
    pf_goap_destroy(g);
    return s == PF_OK ? 0 : 1;
}
