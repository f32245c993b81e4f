/*
 * pf_generic.h - search over implicit state spaces: best-first (A*, weighted A*, greedy,
 * uniform-cost, BFS), IDA*, memory-bounded IDA* with a transposition table, SMA*, and depth-first
 * branch and bound. Pattern databases for any of them: pf_pdb.h.
 *
 * The caller describes a problem with a fixed state size in bytes and three callbacks: successors
 * (state -> states with step cost and action id), an optional heuristic and a goal test. States are
 * plain bytes: two states are the same state iff their bytes are equal, so pad fields must be zeroed.
 * The best-first searches copy states by value into the context's state pool and find duplicates
 * with an open-addressing hash table keyed by XXH3-64 of the state bytes. The depth-first searches
 * keep only the current path (memory linear in depth).
 *
 * OWNERSHIP. A pf_gen_ctx owns its pools (node records, states, hash table, open list, successor
 * scratch); they grow by doubling and are kept between searches, so a context that is reused
 * allocates nothing in steady state, and no search loop allocates per node. The plan goes to caller
 * memory (pf_gen_plan) with a capacity.
 *
 *     static void succ(const void *s, pf_gen_sink *out, void *u) {
 *         int32_t x = *(const int32_t *)s, n;
 *         n = x + 1; pf_gen_push(out, &n, 1.0, 0);     // action 0: +1
 *         n = x * 2; pf_gen_push(out, &n, 1.0, 1);     // action 1: *2
 *     }
 *     static int goal(const void *s, void *u) { return *(const int32_t *)s == 37; }
 *
 *     pf_gen_problem p = { .state_size = 4, .successors = succ, .is_goal = goal };
 *     pf_gen_ctx *ctx; pf_gen_ctx_create(NULL, &ctx);
 *     uint32_t acts[64]; pf_gen_plan plan = { .actions = acts, .capacity = 64 };
 *     int32_t start = 1;
 *     pf_status st = pf_gen_search(ctx, &p, &start, NULL, &plan, NULL);  // A* (h = 0 here: uniform cost)
 *     pf_gen_ctx_destroy(ctx);
 *
 * ALGORITHMS (pf_gen_algo).
 *   ASTAR, UNIFORM   optimal with an admissible heuristic; closed states are reopened when a cheaper
 *                    path appears (only inconsistent heuristics cause that).
 *   WASTAR           f = g + weight * h, no reopening: cost <= weight * optimal with a consistent h
 *                    (h(s) <= cost(s, t) + h(t) for every step); with an admissible but
 *                    inconsistent h that bound can fail (a review's graph: 3.5 where 1.1 x 3 = 3.3):
 *                    ASTAR reopens and stays optimal.
 *   GREEDY           f = h: fast, any plan.
 *   BFS              fewest steps; the reported cost is the real cost of that plan. Ties among
 *                    states of one depth go by `tie` when it is set, FIFO (the textbook queue)
 *                    when it is left 0; any order gives the fewest steps.
 *   IDASTAR          Korf's iterative deepening A*: memory linear in the depth; optimal with an
 *                    admissible heuristic and step costs > 0.
 *   IDASTAR_TT       memory-bounded A*: IDA* with a transposition table of at most `max_states`
 *                    states (Reinefeld & Marsland, "Enhanced iterative-deepening search", 1994). The
 *                    table remembers, per state, the cheapest g at which the current iteration
 *                    reached it (later arrivals at no smaller g are cut: they could only repeat that
 *                    search) and a backed-up lower bound h' >= h learnt from earlier iterations. Both
 *                    rules keep IDA*'s optimality whatever the budget; a bigger budget only removes
 *                    more re-expansions.
 *   SMASTAR          simplified memory-bounded A* (Russell 1992), as the lecture presents it: A*
 *                    over the tree of paths with at most `max_states` nodes in memory. It expands
 *                    the deepest least-f node one successor at a time (f = max(f(parent), g + h)),
 *                    backs f up from the children once all are generated, and when memory is full
 *                    forgets the shallowest highest-f leaf, whose parent remembers its f and
 *                    regenerates it when every other branch looks worse. Optimal when an optimal
 *                    plan fits (max_states > its number of steps); otherwise the cheapest plan that
 *                    fits; PF_NO_PATH when none does. Cycles on the current path are cut (`cycles`).
 *
 * IDASTAR_TT OR SMASTAR? Both are optimal in a fixed memory budget. IDA* (plain or with its table)
 * suits unit-cost domains with few distinct f values and cheap nodes, such as the sliding-tile
 * puzzles: each iteration is a fast depth-first pass, memory is the path (plus the table), and it
 * never fails for lack of memory. SMA* suits domains with many distinct costs (road maps, GOAP
 * with varied action costs), where IDA* would need an iteration per distinct f: it keeps the best
 * frontier it can afford and expands each node about once while memory suffices (exactly A*'s
 * expansions when nothing has to be forgotten), and it answers "the best plan that fits" when the
 * optimal one does not. Its cost is bookkeeping per node and, at tight bounds, regeneration
 * (thrashing); it also does not merge transpositions (two paths to one state are two nodes).
 *   DFBNB            depth-first branch and bound, anytime: children are tried in order of f, and
 *                    branches with f >= the best plan so far are cut. When the expansion budget ends
 *                    it returns its best plan so far (PF_LIMIT_REACHED with a plan); when it runs to
 *                    completion the plan is optimal (PF_OK). Needs `max_depth` or `max_cost` on
 *                    infinite spaces; cycles along the current path are always cut.
 *
 * TIE-BREAKING (best-first, and SMA* among equal f and depth), as in pf_search.h: PF_TIE_DEEPER
 * (default; BFS: FIFO) expands the state with
 * the smaller h among equal f, FIFO the earliest generated, LIFO the latest, RANDOM a pseudo-random
 * one that depends only on `tie_seed` and the state bytes (the same seed gives the same plan; the
 * GOAP write-up uses this so agents with equal options do not all pick the first). RANDOM also picks
 * among equally cheap parents of one state (two actions that lead to the same world state).
 *
 * LIMITS. `max_expansions` ends a search with PF_LIMIT_REACHED. `max_bytes` (everything the context
 * holds, pools an earlier search left included, checked when the search grows them: a search that
 * fits in what the context already holds is not stopped by it; keep a context for a tight limit
 * to searches under it) and `max_states` (states stored at once) end best-first searches with
 * PF_OUT_OF_MEMORY; `max_states` is the node budget of IDASTAR_TT and SMASTAR (which never fail
 * for it). `max_bytes` holds for every algorithm: IDASTAR_TT's table and SMA*'s nodes grow towards
 * max_states under it, and a max_bytes too small for that budget (or for a depth-first path) ends
 * them with PF_OUT_OF_MEMORY too: lower max_states with it. `max_cost` cuts plans costing more: a search that does not reopen (BFS, GREEDY, WASTAR)
 * may reach a state first by a dearer path and cut its successors, so when it cut any and found
 * no plan it answers PF_LIMIT_REACHED, not PF_NO_PATH (there may be a plan within the limit).
 * Step costs each finite whose sums reach infinity are passed over; with no finite plan found the
 * search answers PF_COST_OVERFLOW.
 *
 * THREAD SAFETY: a pf_gen_ctx is used by one thread at a time; create one per worker. Callbacks are
 * called on the searching thread only; a problem may be shared by many contexts if its callbacks are.
 */
#ifndef PATHFIND_PF_GENERIC_H
#define PATHFIND_PF_GENERIC_H

#include <stddef.h>
#include <stdint.h>
#include "pf_status.h"
#include "pf_alloc.h"
#include "pf_search.h" /* pf_tie */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pf_gen_ctx pf_gen_ctx;
/** Where a successor callback writes successors (owned by the context; valid during the call). */
typedef struct pf_gen_sink pf_gen_sink;

/** Largest state size in bytes. */
#define PF_GEN_MAX_STATE_SIZE 65536u

/** Writes every successor of `state` with pf_gen_push / pf_gen_push_h. */
typedef void (*pf_gen_successors_fn)(const void *state, pf_gen_sink *out, void *user);
/** Lower bound on the cost from `state` to a goal (admissible for optimal algorithms); >= 0.
 *  INFINITY says "no goal is reachable from here" (a dead end, as pf_pdb_value answers for an
 *  unreached entry): every search that uses a heuristic never expands such a state (SMA* keeps it
 *  as a leaf of f = INFINITY, like a branch past max_cost), a start with it answers PF_NO_PATH,
 *  and so does a search that runs out of other states. NaN or a negative value is an error
 *  (PF_INVALID_ARGUMENT). UNIFORM and BFS never call it. */
typedef double (*pf_gen_heuristic_fn)(const void *state, void *user);
/** Non-zero when `state` satisfies the goal. */
typedef int (*pf_gen_goal_fn)(const void *state, void *user);

/**
 * Adds one successor: `state` (state_size bytes, copied now), step `cost` (finite, >= 0) and the
 * caller's `action` id, returned in the plan.
 * @return 1, or 0 when the context could not grow (the search then ends with PF_OUT_OF_MEMORY) or
 *         the cost is negative or not finite or the state NULL (PF_INVALID_ARGUMENT); the callback
 *         may stop early.
 */
PF_API int pf_gen_push(pf_gen_sink *out, const void *state, double cost, uint32_t action);
/** As pf_gen_push, with the successor's heuristic value `h` when the domain can compute it
 *  incrementally (from pf_gen_sink_h, say); the heuristic callback is then not called for it.
 *  `h` must be >= 0 (INFINITY: a dead end, as from the callback), or NAN for "not given"; a
 *  negative h makes the push return 0 and the search PF_INVALID_ARGUMENT. A search that does not
 *  use heuristics (UNIFORM, BFS, or a problem with no heuristic at all) drops a pushed h unread,
 *  a bad one included: the push succeeds. */
PF_API int pf_gen_push_h(pf_gen_sink *out, const void *state, double cost, uint32_t action, double h);
/**
 * Zero-copy form of pf_gen_push_h: adds a successor and returns its state_size bytes for the
 * callback to write the state into (uninitialised; valid until the next push). Saves a copy of
 * every state, and lets a domain that copies its parent and edits a few bytes avoid reading them
 * back at once (a store-forwarding stall). `h` is NAN when not given.
 * @return the bytes, or NULL when the context could not grow (as pf_gen_push returning 0).
 */
PF_API void *pf_gen_push_slot(pf_gen_sink *out, double cost, uint32_t action, double h);
/** The domain's heuristic value of the state being expanded (from the callback or pf_gen_push_h;
 *  never a bound the search learnt itself, so incremental heuristics stay exact). */
PF_API double pf_gen_sink_h(const pf_gen_sink *out);

typedef struct pf_gen_problem {
    uint32_t             state_size;  /* required, 1..PF_GEN_MAX_STATE_SIZE */
    pf_gen_successors_fn successors;  /* required */
    pf_gen_heuristic_fn  heuristic;   /* [opt] NULL = 0 everywhere */
    pf_gen_goal_fn       is_goal;     /* required */
    void                *user;        /* passed to every callback */
} pf_gen_problem;

typedef enum pf_gen_algo {
    PF_GEN_DEFAULT = 0, /* PF_GEN_ASTAR */
    PF_GEN_ASTAR,
    PF_GEN_WASTAR,      /* weight >= 1 */
    PF_GEN_GREEDY,
    PF_GEN_UNIFORM,     /* uniform-cost (Dijkstra): the heuristic is ignored */
    PF_GEN_BFS,
    PF_GEN_IDASTAR,
    PF_GEN_IDASTAR_TT,  /* memory-bounded: node budget max_states (default 1 << 16) */
    PF_GEN_DFBNB,
    PF_GEN_SMASTAR,     /* simplified memory-bounded A*: at most max_states nodes (default 1 << 16) */
    PF_GEN__COUNT
} pf_gen_algo;

/** How the depth-first searches (IDASTAR, IDASTAR_TT) and SMASTAR avoid cycles. DFBNB always cuts
 *  every cycle along the current path, whatever this says. With PF_GEN_CYCLES_PARENT, plain IDA*
 *  on a problem with no plan but a cycle of three or more states never ends by itself (each
 *  iteration raises the threshold and follows the cycle further): bound it with max_depth,
 *  max_cost or max_expansions, or keep PF_GEN_CYCLES_PATH. IDASTAR_TT, under either rule, answers
 *  PF_NO_PATH once its table (max_states) holds every state reachable from the start, each
 *  expanded; on a problem with no plan whose reachable states outnumber its table, or that
 *  max_depth keeps it from expanding them all, its learnt bounds may keep it going round a cycle:
 *  bound it with max_expansions (max_depth does not end it). */
typedef enum pf_gen_cycles {
    PF_GEN_CYCLES_DEFAULT = 0, /* PF_GEN_CYCLES_PATH */
    PF_GEN_CYCLES_PATH,        /* cut a successor equal to any state on the current path */
    PF_GEN_CYCLES_PARENT       /* cut only a move back to the parent (or a self-loop): Korf's
                                  rule, cheapest; needs costs > 0 */
} pf_gen_cycles;

typedef struct pf_gen_desc {
    pf_gen_algo   algo;           /* default PF_GEN_ASTAR */
    double        weight;         /* default 1; PF_GEN_WASTAR: >= 1 */
    pf_tie        tie;            /* default PF_TIE_DEEPER, BFS PF_TIE_FIFO (best-first and SMA*) */
    uint64_t      tie_seed;       /* PF_TIE_RANDOM */
    uint64_t      max_expansions; /* 0 = unlimited; PF_LIMIT_REACHED */
    size_t        max_bytes;      /* 0 = unlimited; bytes held by the context; PF_OUT_OF_MEMORY */
    uint32_t      max_states;     /* 0 = unlimited (IDASTAR_TT, SMASTAR: 1 << 16); states stored at once */
    uint32_t      max_depth;      /* depth-first searches (IDA*, IDA*-TT, DFBnB) and SMA*: 0 = unlimited;
                                     best-first searches ignore it */
    double        max_cost;       /* 0 = unlimited; plans costing more are not searched (DFBNB: initial bound),
                                     up to rounding: g + h past max_cost * (1 + 1e-9), so that the cost a
                                     search returned, asked again as max_cost, is found */
    pf_gen_cycles cycles;         /* IDA*, IDA*-TT and SMA* (DFBNB always cuts path cycles) */
    /* [opt][len: heuristic_count] more admissible heuristics, called with problem->user. Every
     * search that uses a heuristic takes the maximum of problem->heuristic and these (the
     * lecture's "maximum of several admissible heuristics": admissible, consistent when each one
     * is, and at least as informed as any one; the grid side's PF_HEUR_MAX). An h pushed with
     * pf_gen_push_h stands for problem->heuristic alone: these are still called. */
    const pf_gen_heuristic_fn *heuristics;
    uint32_t      heuristic_count;
} pf_gen_desc;

/** Effective values of a desc (defaults filled in). NULL means all defaults. */
PF_API pf_gen_desc pf_gen_desc_resolve(const pf_gen_desc *desc);

typedef struct pf_gen_stats {
    uint64_t expanded;     /* states whose successors were generated (SMA*: successors generated
                              one at a time, so the same as `generated`) */
    uint64_t generated;    /* successors produced (after parent/cycle cuts for depth-first searches) */
    uint64_t reopened;     /* best-first: closed states reopened; SMA*: forgotten nodes regenerated */
    uint32_t stored;       /* best-first / IDASTAR_TT: distinct states stored at the end; SMA*: nodes
                              in memory at the end (<= max_states) */
    uint32_t iterations;   /* IDA*: thresholds tried; DFBNB: improving plans found; SMA*: nodes
                              forgotten */
    uint32_t plan_len;     /* actions in the plan; 0 when none */
    size_t   peak_bytes;   /* bytes held by the context at the end of the search */
    double   cost;         /* plan cost; INFINITY when none */
} pf_gen_stats;

/**
 * Plan in caller memory: actions (start to goal) and optionally the states after each action.
 * When it does not fit, nothing is written, `len` is set to the number of actions needed and the call
 * returns PF_BUFFER_TOO_SMALL.
 */
typedef struct pf_gen_plan {
    uint32_t *actions;   /* [opt][len: capacity] */
    void     *states;    /* [opt][len: capacity * state_size] state after action i at i * state_size */
    uint32_t  capacity;
    uint32_t  len;
} pf_gen_plan;

typedef struct pf_gen_ctx_desc {
    pf_allocator allocator;
    uint32_t     initial_states;  /* states the first search reserves room for (the context knows
                                     no state size before it), growing as needed after; 0 = 1024.
                                     A search that cannot have that much memory ends with
                                     PF_OUT_OF_MEMORY */
} pf_gen_ctx_desc;

/** @return PF_OK, PF_OUT_OF_MEMORY. `*out` is NULL on failure. */
PF_API pf_status pf_gen_ctx_create(const pf_gen_ctx_desc *desc, pf_gen_ctx **out);
/** NULL-safe. */
PF_API void      pf_gen_ctx_destroy(pf_gen_ctx *ctx);
/** Bytes held by the context now. */
PF_API size_t    pf_gen_ctx_mem_size(const pf_gen_ctx *ctx);

/**
 * Searches from `start` for a state satisfying problem->is_goal.
 *
 * @param start [len: problem->state_size] copied.
 * @param desc  [opt] NULL for defaults (A*, no limits).
 * @param plan  [opt] receives the actions (and states); `len` is set even on PF_BUFFER_TOO_SMALL.
 * @param stats [opt] filled on every return.
 * @return PF_OK (plan found; optimal for ASTAR, UNIFORM, IDASTAR, IDASTAR_TT, finished DFBNB, and
 *         SMASTAR when an optimal plan fits in max_states nodes),
 *         PF_NO_PATH (no goal reachable within the limits of cost and depth), PF_LIMIT_REACHED
 *         (max_expansions; DFBNB then returns its best plan so far if it has one, stats->cost finite;
 *         or max_cost cut a search that does not reopen, LIMITS), PF_COST_OVERFLOW (only plans
 *         whose cost sums to infinity),
 *         or an error: PF_INVALID_ARGUMENT (bad problem or desc, or a callback gave a negative or
 *         non-finite cost, or a negative or NaN h: h = INFINITY is a dead end, not an error),
 *         PF_OUT_OF_MEMORY (allocation failed or max_bytes / max_states
 *         reached), PF_BUFFER_TOO_SMALL.
 */
PF_API pf_status pf_gen_search(pf_gen_ctx *ctx, const pf_gen_problem *problem, const void *start,
                               const pf_gen_desc *desc, pf_gen_plan *plan, pf_gen_stats *stats);

/** Names: "astar", "wastar", "greedy", "uniform", "bfs", "idastar", "idastar-tt", "dfbnb", "smastar". */
PF_API const char *pf_gen_algo_name(pf_gen_algo a);

#ifdef __cplusplus
}
#endif
#endif
