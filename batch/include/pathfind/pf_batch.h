/*
 * pf_batch.h - many queries per frame against one map (read-only during a run, edited between
 * runs: LIVING MAPS), on several threads.
 *
 * A pf_batch owns one worker per thread (a pf_ctx with the node records, and a path arena), created
 * once and reused frame after frame. Each frame the game submits queries (start, goal, a
 * pf_search_desc, a priority and a user tag), runs the batch and reads one result per query. Paths
 * live in the workers' arenas: they stay valid until pf_batch_reset (the next frame) or
 * pf_batch_destroy.
 *
 *     pf_batch *b;
 *     pf_batch_create(map, &(pf_batch_desc){ .workers = 2 }, &b);
 *     pf_query_id id[2];
 *     pf_batch_submit(b, &(pf_batch_query){ .start = s0, .goal = g, .tag = 17,
 *                                           .priority = PF_PRIORITY_URGENT }, &id[0]);
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
 * the order of submission. With an expansion-only budget (pf_batch_budget.max_expansions, max_us 0)
 * in every run, the run in which each query completes is deterministic too (lockstep): it depends on
 * what was submitted and cancelled before each run, the budgets and `suspend_slots`, never on the
 * worker count, the order of submission within a run (except that a later query with
 * PF_QUERY_SUPERSEDE replaces an earlier one), OpenMP or the job-system path, nor on where the
 * caller's filter objects live (the batch orders its work by a filter's contents, never its
 * address). The other exception: queries that differ only in which of two filters with the same
 * contents they name (copies), or only in search.heuristic_fn or search.heuristic_user (callbacks
 * have no contents), are searched apart, as DEDUPLICATION compares those by address, and ordered
 * among themselves by their tags (a group's: its first member's), then by submission: lockstep peers submit such queries
 * in one order, or give them one filter object. Identical queries under PF_BATCH_NO_DEDUP are
 * ordered by their tags too. A time budget makes completion runs depend on the clock.
 * Nor do they depend on the host: peers on x86-64, aarch64, 32-bit x86 and wasm32 get the same
 * costs, paths and completion runs (the order's keys are hashed from the queries' fields written
 * out little-endian, never from a struct's memory; every cost is IEEE double arithmetic, each
 * operation rounded once: the build refuses x87 precision and fast-math, port_internal.h).
 *
 * DEDUPLICATION. Identical queries (same start, goal and effective options; keys hashed with XXH3)
 * submitted before one run are searched once; each submitter gets its own result (its own tag; the
 * path array is shared and read-only). The search runs at the highest priority among them: it is
 * the search of the highest-priority one (the oldest among those, then the first submitted), whose
 * result lacks PF_BATCH_RESULT_DEDUPED, which the others carry; so only among identical queries of
 * one priority and age does submission order choose which of them carries that flag. Filters and
 * heuristic callbacks are compared by address: queries naming two copies of one filter are not
 * identical (the search reads its own query's filter, which that query's caller may free once it
 * is cancelled).
 *
 * GROUP MOVES. On square grids, at least `group_min` queries (default 4) with the same goal, the same
 * priority (a query's highest among its duplicates: a unit ordered twice, once urgently, counts as
 * urgent) and the same options are solved by one backward A* from the goal, aimed at the
 * bounding box of the starts, that stops when every start is settled. Moves are symmetric on grids
 * but a step costs the multiplier of the cell *entered*, so the backward search charges the
 * multiplier of the node it expands (the cell a forward walker would enter), not of the neighbour it
 * reaches. Every unit gets an optimal path (its cost equals a separate A*'s; among equal-cost paths
 * it may pick another one). The options that group: A*, Dijkstra, JPS, JPS+ and AUTO (each a
 * shortest path; the group's search answers, pf_stats.algo PF_ALGO_ASTAR, and AUTO queries grouped
 * while the batch's accelerator was stale carry PF_DETAIL_ACCEL_STALE), any unit size (the group
 * searches with the sized move rule), movement filters (the filter's rule and prices; squads of
 * one type share one filter object, as deduplication compares its address), waypoints (the group's
 * path reduced to its turns), partial paths and max_cost. A member whose answer the backward search
 * cannot give as its own search would (a partial one it did not settle, whose answer ends nearest
 * the goal as seen from its own start; a max_cost one not settled, or not clearly within its limit)
 * is searched alone by the group's job, after the group's paths are read: its result keeps
 * PF_BATCH_RESULT_GROUPED, with its own search's stats. max_expansions, other tie rules, weighted
 * A*, greedy, BFS and Theta* are searched one by one: whether a forward A* reaches the goal within
 * N expansions is known only by running that search, so a group could not answer it alike. AUTO
 * moves that the batch's accelerator answers (one-cell units, longer than its short-query
 * threshold, the accelerator in use on the map) are not given to a group's backward A*, which
 * floods the region between the starts and the goal (on rooms-2000, squads of long moves took tens
 * of 4 ms frames), but form a squad of accelerated queries: each member is answered by its own
 * accelerated query, a job of its own (charged, budgeted and suspended like any query), and the
 * goal side of those queries (the goal's seeds, the search up the hierarchy from them and its
 * labels) is made once, by the first member that needs it, and read by the others. Each member
 * gets its own query's status, detail flags and cost, PF_BATCH_RESULT_GROUPED, and stats that
 * count the goal side as its own query would (so a budget charges it the same whoever made it);
 * on a hierarchy with a core also its own query's path, without one a shortest path of that cost.
 * pf_batch_stats.groups counts the goal sides made, grouped the members answered.
 *
 * FRAME BUDGET AND PRIORITIES. pf_batch_run can be given a budget in expansions and/or microseconds.
 * A search that runs out of budget halfway is suspended: it keeps a whole pf_ctx (node records: 16
 * bytes per grid cell, 20 per graph node, plus its open list: 64 MB on a 2000x2000 grid) until a
 * later run finishes it. Up to `suspend_slots` such spare contexts exist besides the workers'
 * (default PF_BATCH_DEFAULT_SUSPEND_SLOTS, whatever the worker count), and one more that only urgent
 * searches keep (the urgent slot); each is made the first time a search is suspended and finds none
 * free (see NO HITCHES), and kept for reuse until pf_batch_destroy. A search that cannot keep one
 * restarts later. The budget is handed out in this
 * order:
 *   1. urgent searches, oldest first, each as much as it needs;
 *   2. the fair round: every suspended normal or background search, and the oldest waiting normal or
 *      background one (by run of submission, then priority) when fewer than `suspend_slots` searches
 *      are suspended, each up to a quantum: with an expansion budget E shared by n such searches,
 *      E / (2n) expansions; with a time budget, the time of the run times workers / (n + 1), or
 *      workers / n when no other normal or background search waits or when these n searches hold
 *      or are owed every slot (the run's time is then theirs: other work that outlasted the run
 *      could not be kept, and would be thrown away at its end); a time quantum is counted from the
 *      search's start, and a search stopped at it goes on to the deadline once every job of the run
 *      has begun, on a worker that has ended its job (so a share another search left unused is
 *      not lost);
 *   3. the rest: normal searches, then background ones, oldest first, each as much as it needs,
 *      except that under an expansion budget a search of the fair round gets at most one more
 *      quantum here: n long searches in flight share a run evenly, so that they run side by side
 *      on several workers (lockstep's parallelism: a run is accounted serially).
 * Within one run of submission, "oldest" means an order of the queries' contents (kind, goal, start,
 * options), so that it does not depend on the order of submission. Searches that get nothing wait.
 * At the end of a run at most `suspend_slots` searches stay suspended, and one urgent search more in
 * the urgent slot: urgent ones first (in the order above; the first in the urgent slot), then the
 * others suspended before the run, then the one admitted by the fair round, then the others in the
 * order above; the rest restart later. So one long urgent search at a time displaces no other; an
 * urgent search beyond it does displace a suspended normal or background one, which restarts later
 * (urgent work may take the whole budget, and work that lost its slot every run would never
 * finish). That is the expansion budget's order; under a time budget a search parks at its
 * deadline in whatever spare is free (an urgent one also in the urgent slot's, which no other
 * takes), so an urgent search that outlasts a run with every spare held is dropped once, and
 * before the next run the last normal or background holder (in the order above) gives up its slot
 * for it and restarts later. What this guarantees:
 *   - Urgent never waits: every urgent query submitted before a run completes in that run if its
 *     budget covers the urgent searches pending then (expansion budget: the sum over them of their
 *     expansions plus one; time budget: their search time on the workers).
 *   - No starvation: in every run whose budget urgent work leaves at least the fair round's quanta,
 *     every suspended search advances by its quantum (or finishes), and the oldest waiting normal or
 *     background search starts whenever a slot is free. A query waits only for queries submitted in
 *     earlier runs (or of higher priority in the same run) to start, and for the finite urgent work of
 *     each run; it never waits for queries submitted after it, of any priority but urgent.
 * Urgent work may take the whole budget: with no budget left after it, nothing else advances.
 *
 * EXPANSION BUDGETS are accounted as if the searches ran one after another in the order above (a
 * completed search costs its expansions plus one), so what completes in a run does not depend on
 * which worker ran what when. Workers run searches in parallel and may search ahead of that account;
 * work done ahead is kept in the search's context when a spare one is free that no suspended or
 * admitted search still needs (those always keep theirs), otherwise it is done again later
 * (pf_batch_stats.redone counts it). A run's real expansions can therefore exceed its
 * budget on several workers, and the result of a search that finished ahead is published in a later
 * run, when the account reaches it.
 *
 * TIME BUDGETS are counted from the moment the run's first worker starts (its first
 * pf_batch_run_job call), not from pf_batch_prepare, and every worker stops at that deadline: the
 * frame's wall clock is the budget, however late a worker wakes (an idle core can take milliseconds
 * to come back: counted from each worker's own start, two workers' frames ran 1.5-2.4x the budget
 * at p99 on a quiet 2-core machine, and 1.1x once the deadline was shared). A worker checks the
 * clock whenever it takes a chunk of work, sized by the search's own pace to about a sixteenth of
 * the budget and to no more than the time left (at most 512 expansions; a JPS expansion can cost
 * 40 A* ones), and every 32 expansions within a chunk (an expansion's cost can jump inside one
 * search: one that reaches records whose pages it has not touched yet pays page faults), so a run
 * overshoots by little whatever the algorithm; the run's first chunk (512 expansions, on the
 * worker that starts the run) is always granted, so a batch converges with any budget, however
 * small. The time a worker is descheduled is not its to check: on a machine with no core to spare
 * (2 workers on 2 busy cores) a run overshoots by whatever the scheduler takes.
 *
 * NO HITCHES. Everything a budgeted run may need can be made before the first frame: pf_batch_reserve
 * (or pf_batch_desc.reserve) makes the spare contexts, open lists of a stated size, path arenas and
 * query tables; batches pre-fault their contexts (records and open lists) at creation by default
 * (pf_batch_desc.prefault). Without a reservation a spare context is made by the worker whose
 * search is being suspended and finds none free, at that moment, and not written then whatever the
 * prefault: with the default allocator on Linux its records are mapped as searches touch them, each
 * page once in the spare's life, spread over the frames (written at creation, the first frame's
 * spares cost 150-370 ms on 2000x2000); with another allocator its stamps are written (a quarter of
 * the records). With prefault PF_PREFAULT_NONE a parked spare moreover keeps only its search's
 * pages and gives them back when the search ends: memory that follows use, for page faults again
 * on every reuse. A batch thus holds
 * only as many spares as searches were ever suspended at once: 64 slots and one query cost one
 * spare, not 64. Open lists and arenas grow when a search or a frame outgrows them. A spare that cannot be made (the allocator
 * returns NULL) is not an error and loses no query: the search is treated as finding no spare free.
 * Under an expansion budget its state is dropped and redone (uncharged) up to its progress in the
 * next run (pf_batch_stats.redone), so it still completes in the same run as with the spare; under
 * a time budget it restarts in a later run (pf_batch_stats.restarted), so a search longer than one
 * frame's budget waits until memory comes back. pf_batch_stats.spare_failed counts these failures;
 * the next suspension tries again.
 *
 * LIMITS. What a batch may commit is checked before anything is made, by one function,
 * pf_batch_check, whichever door a size comes through (pf_batch_create, pf_batch_estimate,
 * pf_batch_init_static and pf_batch_reserve all call it), and refused with PF_TOO_LARGE and a
 * message that names the field:
 *   - workers and suspend_slots: at most PF_BATCH_MAX_WORKERS each;
 *   - a worker's path arena (arena_bytes, reserve.arena_bytes, pf_batch_reserve's arena_bytes): at
 *     most PF_BATCH_MAX_ARENA_BYTES;
 *   - workers x (one context + the larger of those arena sizes): at most PF_BATCH_MAX_WORKER_BYTES;
 *   - (suspend_slots + 1) x one context (the one: the urgent slot's): at most
 *     PF_BATCH_MAX_SPARE_BYTES (the spares are made lazily, but all of them may be needed at once,
 *     and pf_batch_init_static carves them all).
 * "One context" is pf_ctx_estimate's size for the batch's open-list size (16 bytes per grid cell, 20
 * per graph node, 16 per open-list entry: 65 MB on 2000x2000, so at most 262 slots there); for
 * pf_batch_estimate and pf_batch_init_static, the context they carve (an open list of every node
 * unless heap_capacity says less, and the JPS state with a jps_table: about 32 bytes a grid cell,
 * 40 with JPS: about 130 slots on 2000x2000, 105 with JPS). An open list never
 * holds a node twice, so open-list sizes (heap_capacity, reserve.open_list and pf_batch_reserve's
 * open_list) above the map's node count are clamped to it, not refused.
 *
 * CANCEL AND SUPERSEDE. pf_batch_cancel ends a pending query at once: its result has status
 * PF_CANCELLED, and when no other pending query shares its search (duplicates, group members) the
 * search is dropped and its suspended context goes back to the spares at once. A query submitted
 * with PF_QUERY_SUPERSEDE cancels the pending queries with the same tag first (status PF_SUPERSEDED):
 * the unit got a new order.
 *
 * OPENMP WAIT POLICY. pf_batch_run runs the jobs in an OpenMP parallel loop. After the loop, GCC's
 * libgomp keeps its idle threads spinning for GOMP_SPINCOUNT iterations (300,000 by default, a few
 * milliseconds) before they sleep: measured on this project's 2-core machine, 4.5 ms of CPU per
 * idle worker after every frame of a 60 Hz loop. A game wants them asleep: start the process with
 * OMP_WAIT_POLICY=passive (libgomp then sleeps at once; measured: 0.03 ms of CPU per frame gap, and
 * waking the team costs 20-60 us per run) or GOMP_SPINCOUNT set low. libgomp reads these variables
 * when it is loaded, before main, so a library cannot change them for its process; LLVM's libomp
 * reads them at its first parallel region (KMP_BLOCKTIME=0 is its equivalent). An engine with its
 * own job system calls the job API below instead, on threads it schedules itself, and gives the
 * batch its parallel-for (pf_batch_desc.parallel) for the JPS builds a context makes on big maps;
 * then no OpenMP team is woken (without the hook, a context's first JPS or JPS+ search on a map of
 * 2^18 cells or more built on one, from the engine's thread).
 *
 * LIVING MAPS. The map may be edited between runs (pf_grid_apply_edits; not between
 * pf_batch_prepare and pf_batch_finish: the edit returns PF_MAP_BUSY). The batch follows: no query
 * ever sees two versions. Queued queries are planned again on the new version (duplicates and
 * groups are found anew: an edit may wall a start off its group's goal), each keeping its age (the
 * run it was first planned for: "oldest" above). A query suspended by the
 * budget is restarted on the new version, from scratch (counted in `restarted`, its expansions in
 * `dropped`), except after a run under a time budget when it is a single A* or Dijkstra search on a
 * grid (not partial, not a flow field, no user heuristic) none of whose node records lies within
 * its unit's reach of a changed cell: it then goes on as it stands, its answer the shortest on the
 * new cells (under an expansion budget the restart is kept, so that lockstep peers answer alike); with
 * PF_BATCH_FINISH_ON_EDIT it is instead finished on the version it started on, inside the edit
 * call, before any cell changes: nothing of the old version is kept, so the price is the rest of
 * its search, paid in pf_grid_apply_edits (the run budget does not bound it; an edit call that
 * changes no cell, a footprint set again as it is, finishes nothing). Its result is then
 * available at once. pf_batch_result.map_version says which version a result was found on, and
 * pf_grid_path_changed whether a later edit broke its path.
 *
 * ADOPTED ACCELERATORS (experimental tier, with pf_accel.h). After an edit the accelerator of
 * PF_ALGO_AUTO is stale: AUTO answers by JPS (PF_DETAIL_ACCEL_STALE in the stats), exact, until an
 * accelerator of the edited cells is attached. Rebuilding one takes seconds (pf_accel.h, MAP
 * EDITS), so it is built off the frame (pf_accel_rebuild_begin between runs, pf_accel_rebuild_run
 * on any thread) and the batch adopts it at a run the caller names:
 * pf_batch_adopt_accel(b, acc, F) makes run F (pf_batch_frame counts runs: the next one is
 * pf_batch_frame(b)) and the later ones use `acc` in every context, from the start of run F. That
 * switch is part of DETERMINISM: lockstep peers that name the same F switch in the same run, and
 * their results match whatever their speed, because the batch never waits for a build nor looks at
 * whether one is done. It takes only finished accelerators: the caller waits for its build (joins
 * its thread) before run F at the latest, and that wait, not a skipped switch, is where a slow peer
 * pays. The switch costs nothing in the run when the contexts hold accelerator state already (a
 * batch made with desc.accel and reserve.algos naming AUTO); otherwise it makes that state for
 * every context (4 bytes per cell each) as pf_batch_reserve would. If the map was edited after the
 * rebuild's copy, the adopted accelerator is stale at once and answers nothing (JPS does, with
 * PF_DETAIL_ACCEL_STALE) unless an edit restores those cells: stale, never wrong. Rebuilt with
 * PF_ACCEL_EDITS_CHECK instead, it follows the map by its diff from the adoption: the edits since
 * the copy are its first diff (computed at the start of run F by one pass comparing the live cells
 * with its copy, 8 at a time), and it answers every query it proves on the edited map (pf_accel.h,
 * MAP EDITS). The accelerator it replaces may be destroyed once run F is prepared; a second
 * adoption before run F replaces the first (which is never used).
 *
 * THREAD SAFETY
 *   pf_map    immutable during a run; shared by every worker.
 *   pf_batch  pf_batch_run_job() may run concurrently for distinct `worker` values, between
 *             pf_batch_prepare() and pf_batch_finish(); every other call is one thread at a time.
 *             The allocator hook may be called from worker threads (open lists and arenas grow on
 *             demand beyond what was reserved, spare contexts are made as searches are suspended),
 *             and so may heuristic callbacks of the queries: both must be thread-safe.
 */
#ifndef PATHFIND_PF_BATCH_H
#define PATHFIND_PF_BATCH_H

#include <stddef.h>
#include <stdint.h>
#include <pathfind/pf_search.h> /* core headers: same directory once installed */
#include <pathfind/pf_jps.h>
#include <pathfind/pf_accel.h>
#include <pathfind/pf_flow.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pf_batch pf_batch;

/** Handle of a submitted query: slot | generation << 20; 0 is never a valid id. An id expires at
 *  the pf_batch_reset after its result is final (PF_EXPIRED_ID from then on) for the next 4,094
 *  reuses of its slot: the generation has 12 bits, so an id kept past 4,095 resets that reused its
 *  slot can name a newer query (a review's frame loop: frame 0's id read frame 4,095's result).
 *  Keep an id no longer than its query lives. */
typedef struct pf_query_id { uint32_t id; } pf_query_id;

enum {
    PF_BATCH_NO_DEDUP = 1u << 0,       /* search every query, even identical ones */
    PF_BATCH_NO_GROUPS = 1u << 1,      /* never solve same-goal queries as a group */
    PF_BATCH_FINISH_ON_EDIT = 1u << 2  /* an edit finishes suspended queries on their version first */
};

/** Limits of one batch (see LIMITS); beyond them pf_batch_create, pf_batch_reserve or
 *  pf_batch_submit return PF_TOO_LARGE. */
#define PF_BATCH_MAX_WORKERS 1024u                       /* workers, and suspend_slots */
#define PF_BATCH_MAX_QUERIES ((UINT32_C(1) << 20) - 1u)  /* queries queued at once (20-bit slots) */
/* a worker's arena as created or reserved, through any door (it still grows past it on demand) */
#define PF_BATCH_MAX_ARENA_BYTES ((size_t)1 << 30)
#define PF_BATCH_MAX_WORKER_BYTES (UINT64_C(16) << 30)   /* workers x (context + arena) */
#define PF_BATCH_MAX_SPARE_BYTES (UINT64_C(16) << 30)    /* suspend_slots x context */
/** Spare contexts of a batch whose desc leaves suspend_slots at 0: a constant, never the worker
 * count, so lockstep peers with different core counts suspend (and answer) alike. */
#define PF_BATCH_DEFAULT_SUSPEND_SLOTS 2u

/** What to make ahead of the first frame (pf_batch_reserve). Zero fields reserve nothing. */
typedef struct pf_batch_reserve_desc {
    uint32_t queries;      /* query slots and planning tables for this many queries at once */
    uint32_t open_list;    /* open-list entries of every context (workers' and spares); at most
                              the map's node count is made (more is clamped) */
    size_t   arena_bytes;  /* path arena of every worker; at most PF_BATCH_MAX_ARENA_BYTES */
    /* non-zero: make all `suspend_slots` spare contexts now, and the urgent slot's (not written:
     * its pages are mapped as a search touches them); otherwise each is made when a search is
     * first suspended and finds none free: see NO HITCHES */
    int      spares;
    /* The algorithms the frames will run, a bit (1u << pf_algo) each: what their first searches
     * would allocate in every context is made now (and in every spare made later): JPS's and
     * JPS+'s search state, the accelerator's query state (AUTO), Theta*'s parents. For JPS, JPS+
     * and AUTO on a batch given no jps_table, the batch also builds one table (JPS+ distances
     * when JPS+ or AUTO is named) that all its contexts share, instead of each context building
     * its own on its first such search (on a 2000x2000 map: 100-200 ms inside a frame). */
    uint32_t algos;
    /* A unit size (> 1) the frames will search: each context's labels of where such a unit can go
     * (unfiltered; the first sized query otherwise labels the whole map inside its frame, 2-8 ms
     * on 2000x2000) and, for JPS, JPS+ and AUTO in `algos` (or an earlier reserve), JPS's bitmaps
     * for that size, of every class the map holds, are made now. A context keeps the labels of one
     * size (and filter) at a time: a query of another size makes its own. A spare made later gets
     * both from the worker that parks a search and takes it (not JPS's bitmaps while a parked
     * sized search may read them). At most PF_UNIT_SIZE_MAX; 0 or 1: nothing. */
    uint32_t unit_size;
} pf_batch_reserve_desc;

typedef struct pf_batch_desc {
    pf_allocator allocator;
    uint32_t     workers;        /* worker contexts; 0 = OpenMP's max threads (1 without OpenMP) */
    uint32_t     flags;          /* PF_BATCH_NO_DEDUP | PF_BATCH_NO_GROUPS | PF_BATCH_FINISH_ON_EDIT;
                                    0 = dedup and groups on, suspended queries restart on edits */
    uint32_t     group_min;      /* smallest group solved together; 0 = 4 */
    /* Spare contexts for suspended searches, besides the urgent slot's one;
     * 0 = PF_BATCH_DEFAULT_SUSPEND_SLOTS. Completion runs under an expansion budget depend on it
     * (never on the worker count); at most PF_BATCH_MAX_WORKERS, and with the urgent slot's
     * PF_BATCH_MAX_SPARE_BYTES of contexts. Made when searches are suspended (reserve.spares: at
     * creation); static batches make them all at init. */
    uint32_t     suspend_slots;
    size_t       arena_bytes;    /* initial path arena per worker; 0 = 256 KiB (grows, see reset;
                                  * static batches: fixed); at most PF_BATCH_MAX_ARENA_BYTES */
    uint32_t     heap_capacity;  /* open-list entries per context, as pf_ctx_desc.heap_capacity;
                                    clamped to the map's node count */
    uint32_t     max_queries;    /* static batches: query slots (submitted, not yet expired by a
                                  * reset); 0 = 4096. pf_batch_create: unused, tables grow */
    /* [opt] JPS / JPS+ data shared by every worker and spare context (pf_jps.h); it must be made for
     * `map` (else PF_WRONG_MAP) and outlive the batch. Without it each context builds its own copy
     * on its first JPS query (JPS+: 16 bytes per cell per context). */
    const pf_jps_table *jps_table;
    /* [opt] the long-query accelerator (pf_accel.h) for PF_ALGO_AUTO queries, attached to every
     * context; made for `map` as it is (else PF_WRONG_MAP) and outliving the batch, or its
     * replacement by pf_batch_adopt_accel (ADOPTED ACCELERATORS) */
    const pf_accel     *accel;
    pf_prefault  prefault;       /* contexts' pages written at creation; default PF_PREFAULT_ALL */
    pf_batch_reserve_desc reserve; /* made at creation (see pf_batch_reserve); zero = nothing more */
    /* [opt] the builds a batch's contexts run (JPS's and JPS+'s bitmaps and distances, on a
     * context's first search of a terrain class when no jps_table is given, and the table
     * reserve.algos makes; on maps of 2^18 cells or more they are parallel loops) on the engine's
     * threads (pf_parallel.h), as pf_ctx_desc.parallel; zero: OpenMP's team. A context builds
     * inside a run, so `run` is called from inside pf_batch_run_job (or the OpenMP team's
     * workers), by several workers at once: it must be reentrant and must never wait for jobs
     * queued behind the one calling it (a pool that only queues would deadlock) */
    pf_parallel_for parallel;
} pf_batch_desc;

/** Priority of a query (see FRAME BUDGET AND PRIORITIES). 0 is normal. */
typedef enum pf_priority {
    PF_PRIORITY_NORMAL = 0,
    PF_PRIORITY_URGENT,          /* served first; may take the whole budget */
    PF_PRIORITY_BACKGROUND       /* served after normal, but never starved */
} pf_priority;

enum {
    PF_QUERY_SUPERSEDE = 1u << 0, /* cancel the pending queries with the same tag (PF_SUPERSEDED) */
    /* a flow field to `goal` (pf_flow.h; grids): `start` is ignored, search.unit_size and
     * search.max_cost and search.filter (the units' movement type, pf_flow_desc.filter) are read,
     * the rest of `search` is not. The result's `field` holds one
     * direction per node; it is sliced by budgets like any search and deduplicated with identical
     * fields, never grouped */
    PF_QUERY_FLOW = 1u << 1
};

/** One query. */
typedef struct pf_batch_query {
    uint32_t       start, goal;  /* node ids (pf_grid_node on grids) */
    pf_search_desc search;       /* zero = defaults (A*). A search.filter must stay valid and unchanged
                                    until the query's result is read; queries are deduplicated and
                                    grouped by the filter's address (one filter shared by many
                                    units) */
    uint64_t       tag;          /* user value, returned in the result (a unit id, say) */
    pf_priority    priority;     /* default PF_PRIORITY_NORMAL */
    uint32_t       flags;        /* PF_QUERY_SUPERSEDE */
} pf_batch_query;

enum {
    PF_BATCH_RESULT_DEDUPED = 1u << 0, /* answered by an identical query's search */
    PF_BATCH_RESULT_GROUPED = 1u << 1, /* answered by a group's job; stats are the group search's (a
                                          member left to its own search: that search's, GROUP MOVES);
                                          or a member of a squad of accelerated queries (its own
                                          query's stats) */
    PF_BATCH_RESULT_SLICED = 1u << 2   /* its search did not finish in the run it started in */
};

typedef struct pf_batch_result {
    /* the search's status; PF_IN_PROGRESS while queued or suspended; PF_CANCELLED or PF_SUPERSEDED
     * once cancelled (then no path and an infinite cost) */
    pf_status       status;
    uint32_t        flags;     /* PF_BATCH_RESULT_* */
    uint64_t        tag;
    pf_stats        stats;     /* as pf_search fills them */
    const uint32_t *path;      /* [len: path_len] nodes start..goal; NULL when none; owned by the batch */
    uint32_t        path_len;
    const uint8_t  *field;     /* PF_QUERY_FLOW: [len: node count] pf_flow_export's directions; NULL
                                  otherwise; owned by the batch like `path` (until reset) */
    uint64_t        map_version; /* pf_map_version of the map the answer was found on */
} pf_batch_result;

/** Budget of one run; zero fields mean unlimited. */
typedef struct pf_batch_budget {
    /* alone: deterministic completion runs (see DETERMINISM). Counted in a search's units of
     * work: its expansions, and for a query the accelerator answers 16 cells of the path it writes
     * a unit besides (pf_accel.h, QUERIES) */
    uint64_t max_expansions;
    uint64_t max_us;          /* wall time of the run, from the first worker's start (TIME BUDGETS) */
} pf_batch_budget;

typedef struct pf_batch_stats {
    uint64_t submitted;     /* queries submitted since creation */
    uint64_t completed;     /* queries answered since creation (cancelled ones not included) */
    uint64_t cancelled;     /* queries cancelled by pf_batch_cancel */
    uint64_t superseded;    /* queries replaced by a PF_QUERY_SUPERSEDE query */
    uint64_t searches;      /* searches run to completion (single or group) */
    uint64_t deduped;       /* queries answered by an identical query */
    uint64_t grouped;       /* queries answered by a group search or in a squad of accelerated queries */
    uint64_t groups;        /* group searches completed, and goal sides made for such squads (those
                               made ahead of the account count too: with the job API the count may
                               vary with the order jobs ran in; the results do not) */
    uint64_t expanded;      /* units of work, all searches: node expansions, and an accelerated query's path
                               cells, 16 a unit, as budgets count them (work done ahead and again included) */
    uint64_t redone;        /* expansions done again: expansion budgets, state of a search done ahead lost */
    uint64_t suspended;     /* times a search was suspended by the budget */
    uint64_t restarted;     /* times a search was dropped for lack of a spare context, or by an edit */
    uint64_t dropped;       /* expansions thrown away with a search's state: at the end of a run (no
                               spare context could keep it; expansion budgets redo them) or by an
                               edit that restarted it (see LIVING MAPS) */
    uint64_t spare_failed;  /* spare contexts that could not be made when a search was suspended
                               (allocation failed): that search was redone or restarted instead */
    uint32_t pending;       /* queries not yet answered */
} pf_batch_stats;

/**
 * Checks a desc against the batch limits (see LIMITS) without making anything: the one check
 * pf_batch_create, pf_batch_estimate, pf_batch_init_static and pf_batch_reserve apply. Ask it why
 * one of them returned PF_TOO_LARGE or PF_INVALID_ARGUMENT; for pf_batch_reserve(b, r), pass the
 * desc `b` was made with, its `reserve` replaced by *r. diag->msg names the field first, e.g.
 * "suspend_slots: 1024 spare contexts of 65128959 bytes each exceed PF_BATCH_MAX_SPARE_BYTES
 * (17179869184)" (a 2000x2000 grid) or "reserve.arena_bytes: 2147483648 bytes per worker exceed
 * PF_BATCH_MAX_ARENA_BYTES (1073741824)".
 * @param desc [opt] NULL for defaults.
 * @param diag [opt] receives the status and, on a refusal, the message (empty on PF_OK).
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL or empty map, a bad prefault, flags of no PF_BATCH_*
 *         value, max_queries or reserve.queries above PF_BATCH_MAX_QUERIES, reserve.algos bits of no
 *         pf_algo, reserve.unit_size above PF_UNIT_SIZE_MAX), PF_TOO_LARGE (a limit
 *         of LIMITS).
 */
PF_API pf_status pf_batch_check(const pf_map *map, const pf_batch_desc *desc, pf_diag *diag);

/** The largest workers and suspend_slots pf_batch_check accepts for `map` (LIMITS), each with the
 *  rest of `desc` as given (its own workers and suspend_slots are not read): a tool that takes these
 *  counts from a user can name the bound instead of only refusing. 0 where not even one fits (the
 *  map is too large for one context). For pf_batch_create; pf_batch_init_static carves larger
 *  contexts (LIMITS), so its bounds are smaller: ask pf_batch_check there.
 *  @return PF_OK (*out filled), PF_INVALID_ARGUMENT (out NULL: nothing written) or what pf_batch_check
 *          returns for another field of desc (*out zeroed). */
typedef struct pf_batch_bounds {
    uint32_t max_workers;       /* workers x (context + path arena) within PF_BATCH_MAX_WORKER_BYTES */
    uint32_t max_suspend_slots; /* (suspend_slots + 1) x context within PF_BATCH_MAX_SPARE_BYTES */
} pf_batch_bounds;
PF_API pf_status pf_batch_bounds_for(const pf_map *map, const pf_batch_desc *desc, pf_batch_bounds *out,
                                     pf_diag *diag);

/**
 * Creates a batch for `map` with its workers (one pf_ctx and one arena each), then reserves what
 * desc->reserve asks for. Spare contexts are made later, as searches are suspended, unless
 * desc->reserve.spares asks for them now.
 * @param desc [opt] NULL for defaults.
 * @return PF_OK, PF_INVALID_ARGUMENT, PF_TOO_LARGE (a limit of LIMITS: pf_batch_check says which),
 *         PF_OUT_OF_MEMORY, PF_WRONG_MAP (desc->jps_table or desc->accel made for another map).
 */
PF_API pf_status pf_batch_create(const pf_map *map, const pf_batch_desc *desc, pf_batch **out);
/** NULL-safe. Must not be called during a run. A batch made by pf_batch_init_static frees
 *  nothing: its memory is the caller's. */
PF_API void      pf_batch_destroy(pf_batch *b);

/*
 * ENGINE-OWNED MEMORY. A batch can live in memory the caller owns, as a pf_ctx can (pf_search.h):
 * pf_batch_estimate gives the bytes, pf_batch_init_static places the batch there, and nothing is
 * allocated then or later. Everything is carved from that memory up front with fixed capacities:
 * the worker and spare contexts (static contexts: see pf_search.h for their open lists and JPS),
 * one path arena of arena_bytes per worker, and query tables for max_queries queries. Past them:
 * pf_batch_submit returns PF_CAPACITY_EXCEEDED when max_queries are live (pf_batch_reset frees
 * the finished ones; a cancelled query that shared a search still running for another, its
 * duplicate or squad, holds its slot until that search ends); a path that does not fit its worker's arena fails that query with
 * PF_OUT_OF_MEMORY (as in any batch, the others are unaffected); a search whose open list is full
 * (only with a heap_capacity below the node count) fails that query with PF_CAPACITY_EXCEEDED, a
 * group search with PF_OUT_OF_MEMORY. The spare contexts for suspended queries
 * (suspend_slots, default PF_BATCH_DEFAULT_SUSPEND_SLOTS) are carved at once, budgets or not.
 *
 *     pf_batch_desc bd = { .workers = 4, .max_queries = 2048, .jps_table = jps };
 *     size_t need = pf_batch_estimate(map, &bd);
 *     void *mem = engine_alloc(need);
 *     pf_batch *b;
 *     if (pf_batch_init_static(mem, need, map, &bd, &b) == PF_OK) {
 *         ... frames: pf_batch_submit, pf_batch_run, pf_batch_get, pf_batch_reset ...
 *         pf_batch_destroy(b);                        // frees nothing
 *     }
 *     engine_free(mem);
 */

/**
 * Bytes a batch for `map` needs in caller memory (pf_batch_init_static with the same desc). The
 * worker count must resolve the same way: pass desc->workers rather than rely on OpenMP's default.
 * @return the size, or 0 for a NULL or empty map or a desc pf_batch_create would refuse.
 */
PF_API size_t    pf_batch_estimate(const pf_map *map, const pf_batch_desc *desc);
/**
 * Creates a batch for `map` inside `mem` (`size` bytes, any alignment), allocating nothing then or
 * later; desc->allocator is ignored. The memory must stay valid, and not be touched by the caller,
 * until pf_batch_destroy.
 * @return PF_OK, PF_INVALID_ARGUMENT (also: max_queries above PF_BATCH_MAX_QUERIES, 2^20 - 1),
 *         PF_TOO_LARGE (LIMITS),
 *         PF_BUFFER_TOO_SMALL (size less than the batch needs past the first 64-byte boundary of
 *         `mem`: pf_batch_estimate, whose last 63 bytes are that slack, always suffices),
 *         PF_WRONG_MAP (desc->jps_table made for another map; the memory is then the caller's
 *         again, nothing in it is used).
 */
PF_API pf_status pf_batch_init_static(void *mem, size_t size, const pf_map *map,
                                      const pf_batch_desc *desc, pf_batch **out);

/**
 * Makes now what later frames would otherwise allocate (see NO HITCHES): the spare contexts, every
 * context's open list, every worker's arena and the query tables, up to the sizes given. Sizes only
 * grow; already-made parts are kept (pre-faulted as the batch's `prefault` says). The sizes are
 * checked as pf_batch_create checks desc->reserve (LIMITS), before anything is made; an open list
 * is made at most as large as the map's node count.
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL, queries above PF_BATCH_MAX_QUERIES, algos bits of no
 *         pf_algo, unit_size above PF_UNIT_SIZE_MAX), PF_BATCH_BUSY (during a run), PF_TOO_LARGE (arena_bytes above PF_BATCH_MAX_ARENA_BYTES, or workers x
 *         (context + arena_bytes) above PF_BATCH_MAX_WORKER_BYTES; nothing made),
 *         PF_CAPACITY_EXCEEDED (a static batch's fixed sizes), PF_OUT_OF_MEMORY (what was made
 *         stays; the batch works as before).
 */
PF_API pf_status pf_batch_reserve(pf_batch *b, const pf_batch_reserve_desc *r);

/**
 * Queues a query for the next run. Bad input (start or goal outside the map or blocked, a bad
 * desc) is not an error here: the query's result carries the status. With PF_QUERY_SUPERSEDE in
 * q->flags, pending queries with the same tag are cancelled first (status PF_SUPERSEDED).
 * @param id [opt] receives the handle used by pf_batch_get and pf_batch_cancel.
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL batch or query, a bad priority, or flags of no
 *         PF_QUERY_* value), PF_BATCH_BUSY (during
 *         a run), PF_OUT_OF_MEMORY, PF_TOO_LARGE (PF_BATCH_MAX_QUERIES
 *         held: pending, and answered ones not yet freed by pf_batch_reset), PF_CAPACITY_EXCEEDED (a
 *         static batch's max_queries).
 */
PF_API pf_status pf_batch_submit(pf_batch *b, const pf_batch_query *q, pf_query_id *id);

/**
 * Cancels a pending query: its result becomes PF_CANCELLED at once, and its search (unless another
 * pending query shares it) is dropped with its suspended context. A query that has its result
 * already keeps it (the call changes nothing).
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL), PF_EXPIRED_ID (unknown id, or finished before a
 *         reset), PF_BATCH_BUSY (during a run).
 */
PF_API pf_status pf_batch_cancel(pf_batch *b, pf_query_id id);

/**
 * Runs the queued queries: pf_batch_prepare, then pf_batch_run_job for every job on OpenMP threads
 * (dynamic scheduling; serial when built without OpenMP, with the same results), then
 * pf_batch_finish.
 * @param budget [opt] NULL = unlimited.
 * @return PF_OK (per-query outcomes are in the results), PF_INVALID_ARGUMENT, PF_BATCH_BUSY,
 *         PF_OUT_OF_MEMORY, PF_MAP_BUSY (the map is being edited).
 */
PF_API pf_status pf_batch_run(pf_batch *b, const pf_batch_budget *budget);

/**
 * Job-system entry, step 1: deduplicates and groups the new queries and lists this run's jobs:
 * without a budget, longest first by grid distance (so a long query does not start last and hold
 * up the frame; graphs keep submission order), with a budget in the order of FRAME BUDGET AND
 * PRIORITIES. Run jobs in index order for the best balance. Allocates (outside the per-query loop)
 * when the batch grew beyond its reservation. Spare contexts are not made here but by the worker
 * that suspends a search (NO HITCHES).
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL), PF_BATCH_BUSY (already prepared), PF_OUT_OF_MEMORY,
 *         PF_MAP_BUSY (the map is being edited).
 */
PF_API pf_status pf_batch_prepare(pf_batch *b, const pf_batch_budget *budget);
/** Number of jobs of the prepared run (0 when not prepared). */
PF_API uint32_t  pf_batch_job_count(const pf_batch *b);
/** Number of workers: valid `worker` arguments are 0..count-1. */
PF_API uint32_t  pf_batch_worker_count(const pf_batch *b);
/**
 * Job-system entry, step 2: runs job `job` on worker `worker`'s context and arena. Safe to call
 * concurrently for distinct workers; each job runs at most once per prepared run (a second call
 * is PF_JOB_ALREADY_RUN), in any order (index order balances best), and every call returns before
 * pf_batch_finish is called. A time budget starts at the run's first call (TIME BUDGETS).
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL), PF_NOT_PREPARED, PF_BAD_JOB (index out of range),
 *         PF_BAD_WORKER, PF_JOB_ALREADY_RUN.
 */
PF_API pf_status pf_batch_run_job(pf_batch *b, uint32_t job, uint32_t worker);
/**
 * Job-system entry, step 3: runs any job not yet run (serially, on worker 0, the caller's thread),
 * settles the run's budget account, publishes the results (duplicates get their copies) and keeps
 * the unfinished queries queued for the next run.
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL), PF_NOT_PREPARED.
 */
PF_API pf_status pf_batch_finish(pf_batch *b);

/**
 * Reads the result of a query.
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL), PF_EXPIRED_ID (unknown id, or finished before a
 *         reset), PF_BATCH_BUSY (during a run: results are written by then-running workers).
 */
PF_API pf_status pf_batch_get(const pf_batch *b, pf_query_id id, pf_batch_result *out);

/**
 * Starts a new frame: finished and cancelled queries expire (their ids and paths become invalid) and
 * the arenas are rewound (an arena that had to grow is replaced by one block of the size it reached,
 * so steady state allocates nothing). Queued and suspended queries stay.
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL), PF_BATCH_BUSY (during a run).
 */
PF_API pf_status pf_batch_reset(pf_batch *b);

/* EXPERIMENTAL tier (pf_export.h): declared only where PF_EXPERIMENTAL_API is defined. */
#ifdef PF_EXPERIMENTAL_API
/** Runs prepared since creation: the next pf_batch_prepare (or pf_batch_run) is run number
 *  pf_batch_frame(b). A run that failed to prepare is not counted. 0 for NULL. */
PF_API uint64_t  pf_batch_frame(const pf_batch *b);
/**
 * Makes run `frame` and the later ones answer PF_ALGO_AUTO by `acc` (NULL: no accelerator), in
 * every context, from the start of that run (see ADOPTED ACCELERATORS). `acc` may be stale (made
 * for this map before its latest edits): it answers only while the map's cells are those it was
 * built for. It must outlive its use (until another adoption's run is prepared, or the batch's
 * destruction). A run whose switch runs out of memory fails to prepare (PF_OUT_OF_MEMORY) and the
 * switch is tried again by the next.
 * @return PF_OK, PF_INVALID_ARGUMENT (NULL batch, or `frame` below pf_batch_frame(b): that run has
 *         begun), PF_WRONG_MAP (made for another map object), PF_BATCH_BUSY (during a run),
 *         PF_UNSUPPORTED (a batch in caller memory: pf_batch_init_static takes no accelerator).
 */
PF_API pf_status pf_batch_adopt_accel(pf_batch *b, const pf_accel *acc, uint64_t frame);
#endif /* PF_EXPERIMENTAL_API */

/** Counters since creation; `pending` is the current number of unanswered queries. */
PF_API pf_batch_stats pf_batch_get_stats(const pf_batch *b);
/** Bytes held by the batch: contexts, arenas and query tables. */
PF_API size_t    pf_batch_mem_size(const pf_batch *b);

#ifdef __cplusplus
}
#endif
#endif
