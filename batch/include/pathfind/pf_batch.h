/*
 * pf_batch.h - many queries per frame against one immutable map, on several threads.
 *
 * A pf_batch owns one worker per thread (a pf_ctx with the node records, and a path arena), created
 * once and reused frame after frame. Each frame the game submits queries (start, goal, a
 * pf_search_desc and a user tag), runs the batch and reads one result per query. Paths live in the
 * workers' arenas: they stay valid until pf_batch_reset (the next frame) or pf_batch_destroy.
 *
 *     pf_batch *b;
 *     pf_batch_create(map, &(pf_batch_desc){ .workers = 2 }, &b);
 *     pf_query_id id[2];
 *     pf_batch_submit(b, &(pf_batch_query){ .start = s0, .goal = g, .tag = 17 }, &id[0]);
 *     pf_batch_submit(b, &(pf_batch_query){ .start = s1, .goal = g, .tag = 18 }, &id[1]);
 *     pf_batch_run(b, NULL);                         // NULL: no budget, every query finishes
 *     pf_batch_result r;
 *     if (pf_batch_get(b, id[0], &r) == PF_OK && r.status == PF_OK)
 *         printf("unit %llu: cost %.2f, %u cells\n", (unsigned long long)r.tag, r.stats.cost, r.path_len);
 *     pf_batch_reset(b);                             // next frame: paths and finished ids expire
 *     pf_batch_destroy(b);
 *
 * DETERMINISM. A query's cost and path depend only on the query (and, for group moves, on the set of
 * same-goal queries submitted together before one run), never on the thread count, the scheduling or
 * the order of submission. Lockstep games rely on it and the tests compare every path.
 *
 * DEDUPLICATION. Identical queries (same start, goal and effective options; keys hashed with XXH3)
 * submitted before one run are searched once; each submitter gets its own result (its own tag; the
 * path array is shared and read-only).
 *
 * GROUP MOVES. On square grids, at least `group_min` queries (default 4) with the same goal and
 * optimal default options are solved by one backward A* from the goal, aimed at the bounding box of
 * the starts, that stops when every start is settled. Moves are symmetric on grids but a step costs
 * the multiplier of the cell *entered*, so the backward search charges the multiplier of the node it
 * expands (the cell a forward walker would enter), not of the neighbour it reaches. Every unit gets an
 * optimal path (its cost equals a separate A*'s; among equal-cost paths it may pick another one).
 *
 * FRAME BUDGET. pf_batch_run can be given a budget in expansions and/or microseconds, shared by the
 * workers and handed out in chunks. Queries that get no budget stay queued for the next run, in
 * submission order (the oldest runs first, so nothing starves). A query that runs out of budget
 * halfway is suspended: it keeps the whole pf_ctx it was searching in (node records: 16 bytes per
 * grid cell, 20 per graph node, plus its open list) until a later run finishes it, and its worker
 * takes a spare context. There are `suspend_slots` spares (default one per worker, created by the
 * first budgeted run; any that could not be allocated are tried again on later runs); when none is
 * free the query is restarted from scratch on a later run. While
 * any query is suspended, the last half of each run's budget (expansions and time) is kept for the
 * suspended ones, so fresh queries that restart cannot starve them: every suspended query advances.
 * A time budget is checked whenever a worker claims a chunk (512 expansions), so a run overshoots it
 * by up to one chunk per worker; and a run whose time is spent before anything was claimed (a budget
 * shorter than waking the workers, a preempted thread) still grants one chunk, so a batch run with
 * any budget, however small, converges.
 *
 * THREAD SAFETY
 *   pf_map    immutable; shared by every worker.
 *   pf_batch  pf_batch_run_job() may run concurrently for distinct `worker` values, between
 *             pf_batch_prepare() and pf_batch_finish(); every other call is one thread at a time.
 *             The allocator hook may be called from worker threads (open lists and arenas grow on
 *             demand), and so may heuristic callbacks of the queries: both must be thread-safe.
 */
#ifndef PATHFIND_PF_BATCH_H
#define PATHFIND_PF_BATCH_H

#include <stddef.h>
#include <stdint.h>
#include <pathfind/pf_search.h> /* core headers: same directory once installed */
#include <pathfind/pf_jps.h>
#include <pathfind/pf_accel.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pf_batch pf_batch;

/** Handle of a submitted query: slot | generation << 20; 0 is never a valid id. */
typedef struct pf_query_id { uint32_t id; } pf_query_id;

enum {
    PF_BATCH_NO_DEDUP = 1u << 0,  /* search every query, even identical ones */
    PF_BATCH_NO_GROUPS = 1u << 1  /* never solve same-goal queries as a group */
};

typedef struct pf_batch_desc {
    pf_allocator allocator;
    uint32_t     workers;        /* worker contexts; 0 = OpenMP's max threads (1 without OpenMP) */
    uint32_t     flags;          /* PF_BATCH_NO_DEDUP | PF_BATCH_NO_GROUPS; 0 = both on */
    uint32_t     group_min;      /* smallest group solved together; 0 = 4 */
    uint32_t     suspend_slots;  /* spare contexts for suspended queries; 0 = one per worker */
    size_t       arena_bytes;    /* initial path arena per worker; 0 = 256 KiB (grows, see reset) */
    /* [opt] JPS / JPS+ data shared by every worker and spare context (pf_jps.h); it must be made for
     * `map` (else PF_WRONG_MAP) and outlive the batch. Without it each context builds its own copy
     * on its first JPS query (JPS+: 16 bytes per cell per context). */
    const pf_jps_table *jps_table;
    /* [opt] the long-query accelerator (pf_accel.h) for PF_ALGO_AUTO queries, attached to every
     * context; made for `map` (else PF_WRONG_MAP) and outliving the batch */
    const pf_accel     *accel;
} pf_batch_desc;

/** One query. `search.trace` must be NULL (workers would write it concurrently). */
typedef struct pf_batch_query {
    uint32_t       start, goal;  /* node ids (pf_grid_node on grids) */
    pf_search_desc search;       /* zero = defaults (A*) */
    uint64_t       tag;          /* user value, returned in the result (a unit id, say) */
} pf_batch_query;

enum {
    PF_BATCH_RESULT_DEDUPED = 1u << 0, /* answered by an identical query's search */
    PF_BATCH_RESULT_GROUPED = 1u << 1, /* answered by a group search; stats are the group's */
    PF_BATCH_RESULT_SLICED = 1u << 2   /* suspended at least once by the budget */
};

typedef struct pf_batch_result {
    pf_status       status;    /* the search's status; PF_IN_PROGRESS while queued or suspended */
    uint32_t        flags;     /* PF_BATCH_RESULT_* */
    uint64_t        tag;
    pf_stats        stats;     /* as pf_search fills them */
    const uint32_t *path;      /* [len: path_len] nodes start..goal; NULL when none; owned by the batch */
    uint32_t        path_len;
} pf_batch_result;

/** Budget of one run; zero fields mean unlimited. */
typedef struct pf_batch_budget {
    uint64_t max_expansions;
    uint64_t max_us;
} pf_batch_budget;

typedef struct pf_batch_stats {
    uint64_t submitted;     /* queries submitted since creation */
    uint64_t completed;     /* queries answered since creation */
    uint64_t searches;      /* searches run to completion (single or group) */
    uint64_t deduped;       /* queries answered by an identical query */
    uint64_t grouped;       /* queries answered by a group search */
    uint64_t groups;        /* group searches completed */
    uint64_t expanded;      /* node expansions, all searches */
    uint64_t suspended;     /* times a search was suspended by the budget */
    uint64_t restarted;     /* times a search was dropped for lack of a spare context */
    uint32_t pending;       /* queries not yet answered */
} pf_batch_stats;

/**
 * Creates a batch for `map` with its workers (one pf_ctx and one arena each).
 * @param desc [opt] NULL for defaults.
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_OUT_OF_MEMORY, PF_WRONG_MAP (desc->jps_table or desc->accel made for another map).
 */
pf_status pf_batch_create(const pf_map *map, const pf_batch_desc *desc, pf_batch **out);
/** NULL-safe. Must not be called during a run. */
void      pf_batch_destroy(pf_batch *b);

/**
 * Queues a query for the next run. Bad input (start or goal outside the map or blocked, a bad
 * desc) is not an error here: the query's result carries the status.
 * @param id [opt] receives the handle used by pf_batch_get.
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL batch or query, or called during a run), PF_OUT_OF_MEMORY,
 *         PF_TOO_LARGE (2^20 queries pending).
 */
pf_status pf_batch_submit(pf_batch *b, const pf_batch_query *q, pf_query_id *id);

/**
 * Runs the queued queries: pf_batch_prepare, then pf_batch_run_job for every job on OpenMP threads
 * (dynamic scheduling; serial when built without OpenMP, with the same results), then
 * pf_batch_finish.
 * @param budget [opt] NULL = unlimited.
 * @return PF_OK (per-query outcomes are in the results), PF_INVALID_ARGUMENT, PF_OUT_OF_MEMORY.
 */
pf_status pf_batch_run(pf_batch *b, const pf_batch_budget *budget);

/**
 * Job-system entry, step 1: deduplicates and groups the new queries and lists this run's jobs:
 * without a budget, longest first by grid distance (so a long query does not start last and hold
 * up the frame; graphs keep submission order), with a budget in submission order. Run jobs in
 * index order for the best balance. Allocates (outside the per-query loop) when the batch grew.
 * @return PF_OK, PF_INVALID_ARGUMENT (already prepared), PF_OUT_OF_MEMORY.
 */
pf_status pf_batch_prepare(pf_batch *b, const pf_batch_budget *budget);
/** Number of jobs of the prepared run (0 when not prepared). */
uint32_t  pf_batch_job_count(const pf_batch *b);
/** Number of workers: valid `worker` arguments are 0..count-1. */
uint32_t  pf_batch_worker_count(const pf_batch *b);
/**
 * Job-system entry, step 2: runs job `job` on worker `worker`'s context and arena. Safe to call
 * concurrently for distinct workers; each job must be run exactly once per prepared run.
 * @return PF_OK, PF_INVALID_ARGUMENT (not prepared, index out of range, job already run).
 */
pf_status pf_batch_run_job(pf_batch *b, uint32_t job, uint32_t worker);
/**
 * Job-system entry, step 3: publishes the results (duplicates get their copies) and keeps the
 * unfinished queries queued for the next run.
 * @return PF_OK, PF_INVALID_ARGUMENT (not prepared).
 */
pf_status pf_batch_finish(pf_batch *b);

/**
 * Reads the result of a query.
 * @return PF_OK, or PF_INVALID_ARGUMENT for an unknown or expired id (finished before a reset).
 */
pf_status pf_batch_get(const pf_batch *b, pf_query_id id, pf_batch_result *out);

/**
 * Starts a new frame: finished queries expire (their ids and paths become invalid) and the arenas
 * are rewound (an arena that had to grow is replaced by one block of the size it reached, so steady
 * state allocates nothing). Queued and suspended queries stay, in order.
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL, or during a run).
 */
pf_status pf_batch_reset(pf_batch *b);

/** Counters since creation; `pending` is the current number of unanswered queries. */
pf_batch_stats pf_batch_get_stats(const pf_batch *b);
/** Bytes held by the batch: contexts, arenas and query tables. */
size_t    pf_batch_mem_size(const pf_batch *b);

#ifdef __cplusplus
}
#endif
#endif
