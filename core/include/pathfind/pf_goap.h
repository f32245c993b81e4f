/*
 * pf_goap.h - goal-oriented action planning (GOAP) on top of the generic search (pf_generic.h).
 *
 * A domain (pf_goap) holds named integer facts and actions. An action has preconditions (fact
 * comparisons), effects (set or add a value) and a cost. A world state is an int32 array with one
 * value per fact; a goal is a list of conditions. Planning is an A* (by default) over world states
 * whose successors are the applicable actions; it returns the cheapest action sequence.
 *
 * HEURISTIC. PF_GOAP_HEUR_UNMET (default) counts the goal conditions that do not hold. It is
 * admissible, so A* plans are optimal, only when every action costs >= 1 and no action can make
 * more than one goal condition true. One effect per goal fact is not enough: one effect that sets
 * x to 5 meets both x >= 5 and x != 0 (a review's domain: UNMET then plans 2.8 where 2 is the
 * cheapest). PF_GOAP_HEUR_UNMET_SCALED multiplies the count by the cheapest action cost, which
 * stays admissible for any positive costs under the same rule. Outside that rule, use PF_GOAP_HEUR_ZERO
 * (uniform-cost: always optimal) or accept plans that may cost a little more than optimal.
 * (In the hunger example, every action costs 1 and changes one fact: UNMET is admissible.)
 *
 * LIMITS. Add effects can make the state space infinite (a "search berries" loop counts up forever),
 * so a plan search stops after max_expansions (default 100000) with PF_LIMIT_REACHED when no plan is
 * found. Add effects saturate at INT32_MIN / INT32_MAX.
 *
 *     pf_goap *g; pf_goap_create(NULL, &g);
 *     uint32_t hunger, food;
 *     pf_goap_fact(g, "hunger", &hunger); pf_goap_fact(g, "food", &food);
 *     pf_goap_cond  need_food = {food, PF_GOAP_GE, 1};
 *     pf_goap_effect eat[2] = {{hunger, PF_GOAP_ADD, -1}, {food, PF_GOAP_ADD, -1}};
 *     pf_goap_add_action(g, &(pf_goap_action_desc){.name = "eat", .cost = 1, .pre = &need_food,
 *                        .pre_count = 1, .effects = eat, .effect_count = 2}, NULL);
 *     int32_t world[2] = {1, 1};                         // hungry, one food
 *     pf_goap_cond goal = {hunger, PF_GOAP_EQ, 0};
 *     uint32_t acts[16]; pf_goap_plan plan = {.actions = acts, .capacity = 16};
 *     pf_gen_ctx *ctx; pf_gen_ctx_create(NULL, &ctx);
 *     pf_goap_plan_find(ctx, g, world, &goal, 1, NULL, &plan);   // plan: "eat"
 *
 * THREAD SAFETY: build the domain on one thread; once built (no more pf_goap_fact/add_action) it is
 * read-only and may be planned on by any number of threads, each with its own pf_gen_ctx.
 * pf_goap_plan_many runs OpenMP threads (when built with PF_WITH_OPENMP; serial otherwise, same
 * results), one context per thread; its allocator must then be callable from several threads.
 */
#ifndef PATHFIND_PF_GOAP_H
#define PATHFIND_PF_GOAP_H

#include <stdint.h>
#include "pf_status.h"
#include "pf_alloc.h"
#include "pf_generic.h"
#include "pf_parallel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pf_goap pf_goap;

/** Most facts in a domain (a world state is at most 1 KiB). */
#define PF_GOAP_MAX_FACTS 256u
/** Fact or action id meaning "none". */
#define PF_GOAP_NONE UINT32_MAX

typedef enum pf_goap_cmp {
    PF_GOAP_EQ = 0, /* default */
    PF_GOAP_NE,
    PF_GOAP_LT,
    PF_GOAP_LE,
    PF_GOAP_GT,
    PF_GOAP_GE
} pf_goap_cmp;

/** Condition `world[fact] cmp value` (preconditions and goals). */
typedef struct pf_goap_cond {
    uint32_t    fact;
    pf_goap_cmp cmp;
    int32_t     value;
} pf_goap_cond;

typedef enum pf_goap_op {
    PF_GOAP_SET = 0, /* default: world[fact] = value */
    PF_GOAP_ADD      /* world[fact] += value (saturating) */
} pf_goap_op;

typedef struct pf_goap_effect {
    uint32_t   fact;
    pf_goap_op op;
    int32_t    value;
} pf_goap_effect;

typedef struct pf_goap_action_desc {
    const char           *name;          /* [opt] copied */
    double                cost;          /* > 0, finite; 0 = 1 */
    const pf_goap_cond   *pre;           /* [len: pre_count] */
    uint32_t              pre_count;
    const pf_goap_effect *effects;       /* [len: effect_count] */
    uint32_t              effect_count;
} pf_goap_action_desc;

typedef struct pf_goap_desc {
    pf_allocator allocator;
} pf_goap_desc;

/** @return PF_OK, PF_OUT_OF_MEMORY, PF_INVALID_ARGUMENT. */
PF_API pf_status pf_goap_create(const pf_goap_desc *desc, pf_goap **out);
/** NULL-safe. */
PF_API void      pf_goap_destroy(pf_goap *g);

/**
 * Id of the fact named `name`, added (with the next id) when new. Ids are 0, 1, 2... in order of
 * first mention, and index world arrays.
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL or empty name), PF_TOO_LARGE (PF_GOAP_MAX_FACTS facts),
 *         PF_OUT_OF_MEMORY.
 */
PF_API pf_status   pf_goap_fact(pf_goap *g, const char *name, uint32_t *out_id);
/** Id of an existing fact, or PF_GOAP_NONE. */
PF_API uint32_t    pf_goap_find_fact(const pf_goap *g, const char *name);
PF_API uint32_t    pf_goap_fact_count(const pf_goap *g);
/** Name of a fact or action; "" when out of range. */
PF_API const char *pf_goap_fact_name(const pf_goap *g, uint32_t fact);

/**
 * Adds an action (everything is copied).
 * @param out_id [opt] receives the action id (0, 1, 2... in order of addition).
 * @return PF_OK, PF_INVALID_ARGUMENT (unknown fact id, bad comparison or operation, cost <= 0 or not
 *         finite), PF_OUT_OF_MEMORY.
 */
PF_API pf_status   pf_goap_add_action(pf_goap *g, const pf_goap_action_desc *a, uint32_t *out_id);
PF_API uint32_t    pf_goap_action_count(const pf_goap *g);
PF_API const char *pf_goap_action_name(const pf_goap *g, uint32_t action);
/** Cost of an action; 0 when out of range. */
PF_API double      pf_goap_action_cost(const pf_goap *g, uint32_t action);

/** Non-zero when every condition holds in `world` [len: fact count]. */
PF_API int       pf_goap_holds(const pf_goap *g, const int32_t *world, const pf_goap_cond *conds,
                                uint32_t count);
/**
 * Applies an action to `world` in place (for executing or checking plans).
 * @return PF_OK, PF_NO_PATH (a precondition does not hold; world unchanged), PF_INVALID_ARGUMENT.
 */
PF_API pf_status pf_goap_apply(const pf_goap *g, uint32_t action, int32_t *world);

typedef enum pf_goap_heur {
    PF_GOAP_HEUR_DEFAULT = 0,  /* PF_GOAP_HEUR_UNMET */
    PF_GOAP_HEUR_UNMET,
    PF_GOAP_HEUR_UNMET_SCALED,
    PF_GOAP_HEUR_ZERO
} pf_goap_heur;

typedef struct pf_goap_plan_desc {
    pf_gen_algo  algo;           /* default PF_GEN_ASTAR (any best-first or depth-first algorithm) */
    pf_goap_heur heuristic;      /* default PF_GOAP_HEUR_UNMET */
    double       weight;         /* PF_GEN_WASTAR */
    pf_tie       tie;            /* default PF_TIE_DEEPER; PF_TIE_RANDOM varies plans of equal cost */
    uint64_t     tie_seed;
    uint64_t     max_expansions; /* default 100000 */
    size_t       max_bytes;      /* 0 = unlimited */
    uint32_t     max_depth;      /* most actions in a plan for IDASTAR, IDASTAR_TT, DFBNB and SMASTAR
                                    (best-first algorithms have no such limit): 0 = 64 */
    pf_parallel_for parallel;    /* [opt] pf_goap_plan_many's queries on the engine's threads
                                    (pf_parallel.h); the `threads` argument is then unused */
} pf_goap_plan_desc;

/** Plan in caller memory. On PF_BUFFER_TOO_SMALL nothing is written and `len` is the length needed. */
typedef struct pf_goap_plan {
    uint32_t *actions;   /* [len: capacity] */
    uint32_t  capacity;
    uint32_t  len;
    double    cost;      /* INFINITY when no plan */
    uint64_t  expanded;  /* world states expanded */
} pf_goap_plan;

/**
 * Plans the cheapest action sequence from `world` to a state where every goal condition holds.
 *
 * @param ctx   search context (one per thread), reused between plans.
 * @param world [len: pf_goap_fact_count(g)]
 * @param goal  [len: goal_count] conditions; goal_count 0 gives the empty plan.
 * @param desc  [opt] NULL for defaults.
 * @return PF_OK, PF_NO_PATH (no plan exists; for IDASTAR, IDASTAR_TT, DFBNB and SMASTAR: none
 *         of at most max_depth actions, 64 by default, and for SMASTAR none that fits its node
 *         budget), PF_LIMIT_REACHED (max_expansions), or an error:
 *         PF_INVALID_ARGUMENT, PF_OUT_OF_MEMORY, PF_BUFFER_TOO_SMALL.
 */
PF_API pf_status pf_goap_plan_find(pf_gen_ctx *ctx, const pf_goap *g, const int32_t *world,
                                   const pf_goap_cond *goal, uint32_t goal_count,
                                   const pf_goap_plan_desc *desc, pf_goap_plan *plan);

/** One agent's request in a batch: inputs, then outputs written by pf_goap_plan_many. */
typedef struct pf_goap_query {
    const int32_t      *world;      /* [len: fact count] */
    const pf_goap_cond *goal;       /* [len: goal_count] */
    uint32_t            goal_count;
    uint64_t            tie_seed;   /* [opt] overrides desc->tie_seed when non-zero (PF_TIE_RANDOM) */
    pf_goap_plan        plan;       /* caller sets actions and capacity */
    pf_status           status;     /* out */
} pf_goap_query;

/**
 * Plans many agents' goals, on OpenMP threads with one search context per thread (serially when
 * built without OpenMP or when threads == 1). Each query's result depends only on the query, so the
 * results are identical for any thread count.
 *
 * @param threads  0 = OpenMP's default.
 * @param ctx_desc [opt] for the per-thread contexts (the allocator must be thread-safe).
 * @return PF_OK when every query ran (see each status), PF_INVALID_ARGUMENT, PF_OUT_OF_MEMORY
 *         (a thread's context could not be created: its queries say PF_OUT_OF_MEMORY too).
 */
PF_API pf_status pf_goap_plan_many(const pf_goap *g, pf_goap_query *queries, uint32_t count,
                                   const pf_goap_plan_desc *desc, const pf_gen_ctx_desc *ctx_desc,
                                   uint32_t threads);

#ifdef __cplusplus
}
#endif
#endif
