/* batch_internal.h - layout of pf_batch and the internal API of its parts (never installed).
 *
 * A batch is made of parts, each a group of fields in struct pf_batch written by one file only,
 * which the other files reach through the functions declared in that file's section below:
 *
 *     queries.c     query slots and ids, the tag index, the fresh list, answered queries
 *     spares.c      spare contexts (suspended searches park in them) and making contexts
 *     plan.c        jobs planned from the fresh queries: duplicates, groups, cancelled jobs
 *     account.c     the prepared run: the order of its jobs and its budget account
 *     sched_jobs.c  the workers, and one job run on one worker (pf_batch_run_job)
 *     follow.c      the batch as a user of its map: held during runs, following its edits
 *     adopt.c       the run counter, and an accelerator adopted at a run the caller names
 *     batch.c       what the batch is made with (read by every part)
 *
 * and of files that hold no fields, which work on the parts through their APIs:
 *
 *     arena.c         a worker's path arena
 *     sort.c          the batch's one sort (of indices, without allocating)
 *     group.c         group jobs: the search over their members and their results
 *     results.c       a job's answers written into its queries' slots, taken back, counted
 *     run.c           a run: prepare and finish around the jobs
 *     sched_omp.c     the OpenMP driver over the job API
 *
 * Files call each other in one direction only; bottom to top:
 *
 *     arena.c sort.c  <  queries.c spares.c  <  plan.c  <  group.c  <  results.c  <  account.c
 *                     <  sched_jobs.c  <  follow.c  <  adopt.c  <  run.c  <  sched_omp.c  <  batch.c
 *
 * A file calls only files to its left. The counters in `st` are the one field every part adds
 * to (each its own counters: see struct pf_batch).
 *
 * The groups are anonymous structs (C11) so that tests reading a field (b->jobs, b->spare_made)
 * name it as before; the sections below say which file owns each.
 */
#ifndef PF_BATCH_INTERNAL_H
#define PF_BATCH_INTERNAL_H

#include <stdatomic.h>
#include "pathfind/pf_batch.h"
#include "pathfind/pf_grid.h"
#include "core_batch_internal.h" /* what batch uses of core besides the public headers */
#include "grow_internal.h"      /* and the library's growable array */

/* ---- arena.c: bump allocator for paths, one per worker --------------------------------------- */

typedef struct pf__arena_block {
    struct pf__arena_block *prev;
    size_t                  size; /* bytes after the header */
    size_t                  used;
    int                     lazy; /* pages mapped as paths fill them (pf__alloc_lazy) */
} pf__arena_block;

typedef struct pf__arena {
    pf_allocator     alloc;
    pf__arena_block *head;       /* current block; older blocks chained through prev */
    size_t           total;      /* capacity of all blocks */
} pf__arena;

int   pf__arena_init(pf__arena *a, const pf_allocator *alloc, size_t bytes);
/* Makes the arena hold `bytes` in all, with the new memory written once when `prefault`; 0 on
 * allocation failure (nothing changed). Paths handed out this frame stay valid. */
int   pf__arena_reserve(pf__arena *a, size_t bytes, int prefault);
/* Returns NULL only when a new block cannot be allocated (the query fails with OUT_OF_MEMORY). */
void *pf__arena_alloc(pf__arena *a, size_t size, size_t align);
/* The finished search's path in c copied into the arena (r->path, r->path_len); r->status and
 * r->stats as pf_search_path gives them, PF_OUT_OF_MEMORY when the arena cannot grow. */
void pf__arena_take_path(pf__arena *arena, pf_ctx *c, pf_batch_result *r);
/* Rewinds; when it had grown, replaces the chain by one block of the total size. */
void  pf__arena_reset(pf__arena *a);
void  pf__arena_free(pf__arena *a);
/* Static batches: bytes of an arena of `bytes` placed in caller memory, and its placement at `mem`
 * (64-byte aligned); it never grows (an allocation that does not fit returns NULL). */
size_t pf__arena_static_size(size_t bytes);
void   pf__arena_init_static(pf__arena *a, void *mem, size_t bytes);

/* ---- records: query slots, jobs, workers, account entries ------------------------------------ */

#define PF__BQ_SLOT_BITS 20u
#define PF__BQ_SLOT_MASK ((UINT32_C(1) << PF__BQ_SLOT_BITS) - 1u)
_Static_assert(PF__BQ_SLOT_MASK == PF_BATCH_MAX_QUERIES, "pf_batch.h documents the slot range");
#define PF__NONE UINT32_MAX

/* Query slot states. A cancelled query that a live search still reads (a group member, or the
 * canonical query of duplicates) stays QUEUED, with `cancel` set, until that search ends. */
enum { PF__Q_FREE = 0, PF__Q_NEW, PF__Q_QUEUED, PF__Q_DONE };
/* Job states. SUSPENDED: the job keeps budget progress between runs (`vprog`) and one of the
 * `suspend_slots`; its real search state may be in `held` (else it is redone when it runs next). */
enum { PF__J_WAITING = 0, PF__J_SUSPENDED, PF__J_DONE, PF__J_CANCELLED };
enum { PF__J_SINGLE = 0, PF__J_GROUP };
/* Priority ranks: the order in which budget is handed out. */
enum { PF__RANK_URGENT = 0, PF__RANK_NORMAL, PF__RANK_BACKGROUND, PF__RANK_NONE };
/* Run modes. */
enum { PF__MODE_FREE = 0, PF__MODE_EXP, PF__MODE_TIME };

/* A query slot (queries.c), except `canon`, `job` and `planned` (plan.c) and `res`, the answer: written by
 * results.c and group.c when a search ends, by plan.c for a duplicate or a refused query (and by
 * queries.c: in progress when submitted, out of memory when an edit finds no room to requeue). */
typedef struct pf__bquery {
    pf_batch_query  q;
    pf_search_desc  rd;        /* resolved desc */
    uint64_t        seq;       /* submission order */
    uint32_t        gen;       /* generation of the slot (12 bits, never 0) */
    uint32_t        state;     /* PF__Q_* */
    uint32_t        canon;     /* slot answering this query (itself unless a duplicate) */
    uint32_t        next_free;
    uint32_t        job;       /* QUEUED, not a duplicate: its job's index in b->jobs */
    uint32_t        planned;   /* 1 + the run that first planned it (its age, kept when an edit
                                * plans it again), 0 until then */
    pf_status       cancel;    /* PF_CANCELLED or PF_SUPERSEDED once cancelled, else PF_OK */
    uint32_t        tag_prev, tag_next; /* pending queries with the same tag (the tag index) */
    pf_batch_result res;
} pf__bquery;

/* A job: made by plan.c; its budget fields are account.c's, its search state is the scheduler's
 * (sched_jobs.c), which parks it in `held` and finishes it. */
typedef struct pf__job {
    uint32_t kind;             /* PF__J_SINGLE or PF__J_GROUP */
    uint32_t state;            /* PF__J_* */
    uint32_t query;            /* single: its canonical slot; group: a member (options, goal) */
    uint32_t first, count;     /* group: members in b->members[first .. first+count) */
    uint32_t live;             /* queries it answers that are not cancelled (duplicates included) */
    uint32_t epoch;            /* run that planned it: "oldest" is the smallest epoch */
    uint32_t rank;             /* PF__RANK_* of its most urgent live query (pf__plan_rank) */
    /* order within an epoch: the query's content, so that submission order does not matter */
    uint32_t kgoal, kstart;
    uint64_t khash;
    uint64_t seq;              /* last tie-break: the oldest member's submission */
    /* budget account (units: expansions, plus one when the search completes) */
    uint64_t vprog;            /* units granted in earlier runs */
    pf_ctx  *held;             /* context with its real search state, or NULL */
    uint64_t rprog;            /* units done in `held` */
    int      rdone;            /* `held` holds the finished search (rprog is all it needs) */
    int      written;          /* its results are written in the query slots */
    int      consumed;         /* a group's results ran members' own searches on `held`: its
                                * records are theirs now, so results taken back cannot be read
                                * from it again (group.c) */
    pf_status fin;             /* final status of the real search, once rdone */
    int      carried;          /* an edit left its suspended search valid (follow.c): kept */
    uint32_t squad;            /* single: 1 + the index in b->squads of the squad of accelerated
                                * queries it is a member of (plan.c), 0 = none */
    uint32_t settled;          /* group: starts settled so far */
    int32_t  bx0, by0, bx1, by1; /* group: bounding box of the starts */
    uint32_t sliced;
    uint32_t detail;           /* group: PF_DETAIL_* bits its answers carry from its planning (AUTO
                                * on an accelerator stale then: PF_DETAIL_ACCEL_STALE) */
    uint32_t starved;          /* time budgets: urgent, outlasted a run with every slot held by normal
                                * searches, and was dropped at its deadline (account.c, order_run) */
    double   est;              /* unbudgeted runs: estimated length, longest jobs first */
    /* prepared run */
    uint32_t ea, eb;           /* entries of the budget account: fair round, main (PF__NONE if none) */
    uint32_t role;             /* 0, or PF__ROLE_HELD / PF__ROLE_ADMITTED (slot order) */
    uint32_t pos;              /* place in the run's budget order (budgeted runs) */
    uint64_t r;                /* units charged this run (its worker's view) */
    uint64_t pub_a, pub_b;     /* what it has published to the account's entries */
    atomic_int ran;            /* run_job guard: 1 once run in the current prepared run */
    atomic_int capped;         /* time budgets, fair round: PF__CAP_* (account.c, AFTER THE JOBS) */
} pf__job;
enum { PF__ROLE_HELD = 1, PF__ROLE_ADMITTED = 2 };
/* A fair-round search under a time budget: not stopped at its cap, stopped there and parked (it
 * waits for a worker with no job left), or taken by such a worker to go on without a cap. */
enum { PF__CAP_NONE = 0, PF__CAP_STOPPED, PF__CAP_RESUMED };

/* A worker (sched_jobs.c): during a run, the job running on it uses its context, arena and
 * counters (results.c writes its answers' paths into the arena and counts them). */
typedef struct pf__worker {
    pf_ctx   *ctx;
    pf__arena arena;
    uint64_t  expanded, redone, searches, suspended, restarted, groups, dropped;
    double    t0;              /* monotonic start of its share of the run; 0 until its first job */
    int       granted;         /* it obeys the run's clock: its first chunk was handed out, or
                                * another worker started the run's clock */
    int       first;           /* it started the run's clock (its first chunk ignores it) */
    char      pad[64];         /* workers write these during a run: keep them off each other's lines */
} pf__worker;

/* One entry of the budget account (expansion budgets): a job and the most it may get there. */
typedef struct pf__entry {
    uint32_t job;              /* index in b->jobs */
    uint32_t fair;             /* 1: capped at the quantum: a fair-round entry, or the main entry of
                                * a job in the fair round (expansion budgets) */
    uint32_t extra;            /* capped at one unit more than the quantum (the rest of a budget
                                * the quanta do not divide: account.c, order_run) */
} pf__entry;

/* A squad of accelerated queries kept by the plan (plan.c): the jobs that are its members, or the
 * next free one. */
typedef struct pf__squad_slot {
    pf__accel_squad *q;
    uint32_t         refs;      /* jobs planned as its members and not yet gone */
    uint32_t         next_free; /* while free: 1 + the next free one's index, 0 = none */
} pf__squad_slot;

/* ---- the batch --------------------------------------------------------------------------------- */

struct pf_batch {
    /* batch.c: what the batch is made with. Set at creation (open_cap also by pf_batch_reserve,
     * between runs) and read by every part. */
    uint32_t      tag;         /* PF__TAG_BATCH while alive */
    const pf_map *map;
    struct { /* follow.c: the batch as a user of its map */
        pf__map_user user;     /* busy from prepare to finish; follows the map's edits */
    };
    const pf_jps_table *jps;   /* attached to every context made, when given or built */
    const pf_accel *accel;     /* likewise; replaced at the start of a run by adopt.c */
    pf_jps_table *jps_own;     /* the table reserve.algos built (jps points to it), owned */
    int           jps_own_plus; /* jps_own has JPS+ distances */
    pf_jps_table *jps_retired; /* a bitmaps-only jps_own replaced while suspended searches read it */
    uint32_t      algos;       /* reserve.algos so far: their state is made in every context */
    pf_allocator  alloc;
    pf_ctx_desc   ctx_desc;    /* how the batch's contexts are made (workers and spares) */
    uint32_t      flags, group_min, nspare_want; /* nspare_want: suspend_slots */
    int           fixed;       /* placed in caller memory (pf_batch_init_static): alloc refuses,
                                * every table has its final capacity, spares exist from the start */
    pf_prefault   prefault;
    uint32_t      open_cap;    /* open-list entries reserved in every context (0: their default) */
    struct { /* sched_jobs.c: the workers */
        pf__worker *workers;   /* [nworkers] */
    };
    uint32_t      nworkers;

    struct { /* adopt.c: runs begun, and the accelerator waiting for its run */
        uint64_t        runs;        /* runs prepared so far: the next one is run `runs` */
        const pf_accel *adopt;       /* adopted at the start of run adopt_run (NULL: detach) */
        uint64_t        adopt_run;
        int             adopt_pending;
    };

    struct { /* spares.c: spare contexts */
        pf_ctx      **spares;      /* [spare_cap = pf__spares_total] free spare contexts (stack) */
        /* spare_made: spares that exist (free or held), at most spare_cap; the others are made
         * when a search is suspended and finds none free (pf__spare_take) */
        uint32_t      nspare, spare_cap, spare_made;
        uint32_t      spare_owed;  /* spares kept for this run's slot holders that have no context yet */
        uint32_t      spare_urgent_slots; /* spares kept for urgent searches this run (0 or PF__URGENT_SLOTS) */
        uint32_t      spare_urgent_held;  /* spares urgent searches hold now: counted as they take and
                                           * give back during the run, so one an urgent search frees
                                           * mid-run stays kept for urgent work */
        atomic_flag   spare_lock;
    };

    struct { /* queries.c: query slots, the tag index, the fresh list */
        pf__bquery   *q;           /* slots */
        uint32_t      qcap, qlen;  /* qlen: slots ever used */
        uint32_t      free_head;   /* free slot list, PF_NODE_NONE when empty */
        uint64_t      seq;
        uint32_t      pending;
        /* tag -> newest pending query with that tag (open addressing, linear probing) */
        uint64_t     *tag_keys;
        uint32_t     *tag_vals;    /* slot + 1; 0 = empty */
        uint32_t      tag_cap, tag_len;
        uint32_t     *fresh;       /* slots submitted since the last prepare, in order */
        uint32_t      nfresh, fresh_cap;
    };

    struct { /* plan.c: jobs, group members, duplicates */
        pf__job      *jobs;        /* unfinished jobs */
        uint32_t      njobs, jobs_cap;
        int           jobs_dirty;  /* some job was cancelled since the last compaction */
        uint32_t     *members;     /* group member slots, contiguous per group, sorted by start */
        uint32_t      nmembers, members_cap;
        uint32_t     *dups;        /* duplicate slots waiting for their canonical query */
        uint32_t      ndups, dups_cap;
        /* hashing scratch (planning; the account borrows scratch when it orders a run) */
        uint32_t     *table;
        uint32_t      table_cap;
        uint32_t     *scratch;
        uint32_t      scratch_cap;
        uint32_t      epoch;       /* runs finished so far: the run the next jobs are planned for */
        /* squads of accelerated queries: made as squads are planned and kept for the next ones
         * (their memory with them), those no job refers to in a free list */
        pf__squad_slot *squads;
        uint32_t      squads_made, squads_cap, squad_free; /* free: 1 + an index, 0 = none */
    };

    struct { /* account.c: the prepared run and its budget account */
        int           prepared;
        int           mode;        /* PF__MODE_* */
        uint32_t     *run;         /* jobs of the run, in order: run[i] is the job index of job i */
        uint32_t      run_jobs, run_cap;
        pf__entry    *entries;     /* budget account, in order (expansion budgets) */
        uint32_t      nentries, entries_cap;
        atomic_llong *fen;         /* [nentries + 1] Fenwick tree of what each entry has surely used */
        uint32_t      fen_cap;
        long long     budget;      /* expansion budget (LLONG_MAX: none) */
        uint64_t      quantum;     /* fair-round cap (expansions), and the cap of those jobs' main entries */
        /* The waiting non-urgent job that has waited longest, besides the admitted one: (epoch,
         * rank, pos), or all ones. A search newer than it may not take a free slot (it would hold
         * the slot the older one needs to be admitted: starvation with one slot). */
        uint32_t      wait_epoch, wait_rank, wait_pos;
        double        max_s;       /* time budget per worker in seconds (0: none) */
        double        fair_s;      /* fair-round cap per job in seconds (0: none) */
        uint32_t      fair_at, fair_n; /* the fair round's jobs: run[fair_at .. fair_at + fair_n) */
        atomic_uint   jobs_taken;  /* jobs of the run that pf_batch_run_job has begun */
        atomic_llong  budget_left; /* time mode with an expansion budget too: shared counter */
        atomic_llong  run_start_ns; /* time mode: when the run's first worker started (0 until then) */
        /* Time mode's clock in seconds, always positive (0 in run_start_ns means "not started");
         * NULL: CLOCK_MONOTONIC. A test seam: tests give a clock driven by the searches' own work,
         * so that where a worker stops is deterministic. Set between runs only; called by every
         * worker, it must be thread-safe. */
        double      (*clock)(void *user);
        void         *clock_user;
    };

    /* shared: the public counters, each added to by the part that counts it: queries.c
     * (submitted, completed, cancelled, superseded), plan.c (deduped, restarted by an edit),
     * results.c (grouped; searches and groups taken back; plan.c: squads whose goal side was made, in
     * groups), account.c (suspended, restarted),
     * spares.c (spare_failed), sched_jobs.c (what the workers counted in a run) */
    pf_batch_stats st;
};

/* ---- growing the parts' tables, placing them in caller memory -------------------------------- */

/* Grows the array `arr` (capacity `cap`) to hold `need` through the batch's allocator, with the
 * library's one growable array (core/internal/grow_internal.h); 0 on out-of-memory, or always in
 * a static batch, whose allocator fails. */
#define PF__GROW(b, arr, cap, need) pf__grow(&(b)->alloc, &(arr), &(cap), (need), sizeof *(arr), 64u, 0)
/* Static batches: takes `n` bytes (a multiple of 64) from the cursor. */
static inline void *pf__carve(char **p, size_t n)
{
    void *r = *p;
    *p += n;
    return r;
}

/* ---- sort.c: the one sort of the batch -------------------------------------------------------- */

/* Sorts the n indices of v ascending by cmp(ctx, a, b) (< 0: a first), in place and without
 * allocating; cmp must be a total order. */
void pf__sort_idx(uint32_t *v, uint32_t n, int (*cmp)(const void *ctx, uint32_t a, uint32_t b), const void *ctx);

/* ---- queries.c: query slots, the tag index, the fresh list ----------------------------------- */

void      pf__queries_init(pf_batch *b);
/* Slots and the fresh list for `n` queries at once; the tag index has its own (pf__tag_reserve). */
int       pf__queries_reserve(pf_batch *b, uint32_t n);
int       pf__tag_reserve(pf_batch *b, uint32_t n);
/* Room in the fresh list for every pending query (an edit plans them all again). */
int       pf__queries_reserve_fresh(pf_batch *b);
/* Everything a new query needs, reserved: its slot in *slot. PF_OK, PF_TOO_LARGE, or
 * PF_OUT_OF_MEMORY (PF_CAPACITY_EXCEEDED in caller memory); nothing changed on failure. */
pf_status pf__query_room(pf_batch *b, uint32_t *slot);
/* Takes the slot pf__query_room found for `q`, queued fresh; returns its id. */
uint32_t  pf__query_add(pf_batch *b, uint32_t slot, const pf_batch_query *q);
/* The slot of a live id; 0 when the id is stale or was never given. */
int       pf__query_lookup(const pf_batch *b, pf_query_id id, uint32_t *slot);
/* Not answered and not cancelled. */
int       pf__query_live(const pf_batch *b, uint32_t slot);
/* Marks a query cancelled for `why` (unlinked, counted). Returns 1 when it was planned already:
 * its job must hear of it (pf__plan_cancel); 0 when it was only fresh (it is done now). */
int       pf__query_cancel(pf_batch *b, uint32_t slot, pf_status why);
/* Marks a query answered (or, if it was cancelled, just finished). */
void      pf__query_done(pf_batch *b, uint32_t slot);
/* An edit: back to the fresh list, or answered PF_OUT_OF_MEMORY without room (`ok` 0). */
void      pf__query_requeue(pf_batch *b, uint32_t slot, int ok);
/* The fresh list in submission order (edits requeue queries job by job). */
void      pf__queries_sort_fresh(pf_batch *b);
/* pf_batch_get's answer for a live id; PF_EXPIRED_ID otherwise. */
pf_status pf__query_result(const pf_batch *b, pf_query_id id, pf_batch_result *out);
/* pf_batch_reset: answered slots free again (their ids expire). */
void      pf__queries_reset(pf_batch *b);
uint32_t  pf__tag_newest(const pf_batch *b, uint64_t tag); /* PF__NONE when none pending */
size_t    pf__queries_mem_size(const pf_batch *b);
void      pf__queries_free(pf_batch *b);
size_t    pf__queries_static_size(uint32_t qcap, uint32_t tcap);
void      pf__queries_place(pf_batch *b, char **p, uint32_t qcap, uint32_t tcap);

/* A query slot, for the parts that plan, search and answer it. */
static inline pf__bquery *pf__query(const pf_batch *b, uint32_t slot) { return &b->q[slot]; }
static inline uint32_t pf__queries_capacity(const pf_batch *b) { return b->qcap; }
static inline uint32_t pf__queries_npending(const pf_batch *b) { return b->pending; }
/* The fresh list (slots in submission order), planned by pf__plan_fresh, which then clears it. */
static inline const uint32_t *pf__queries_fresh(const pf_batch *b, uint32_t *n)
{
    *n = b->nfresh;
    return b->fresh;
}
static inline void pf__queries_fresh_planned(pf_batch *b) { b->nfresh = 0; }

/* ---- spares.c: spare contexts ---------------------------------------------------------------- */

void      pf__spares_init(pf_batch *b);
/* The spare stack at its final size (workers push and pop it during runs); 0 on out-of-memory. */
int       pf__spares_alloc(pf_batch *b);
/* A new context like the workers' (also for spares, from worker threads during a run). */
pf_status pf__new_ctx(pf_batch *b, pf_ctx **out);
/* reserve.spares: every spare made now; 0 on out-of-memory. */
int       pf__spares_make_all(pf_batch *b);
/* Suspend slots beyond suspend_slots that only urgent searches may keep, and spares with them
 * (account.c: a normal search held its slot until an urgent one displaced it and lost its work). */
#define PF__URGENT_SLOTS 1u
static inline uint32_t pf__spares_total(uint32_t suspend_slots) { return suspend_slots + PF__URGENT_SLOTS; }
/* Who asks for a spare: a job the plan gives a slot (suspended, or admitted), owed one each; an
 * urgent search not suspended yet, which may take the spares kept for urgent work or any other that
 * no holder is owed; a job that only runs ahead of the account, which gets what is left over. */
enum { PF__SPARE_AHEAD = 0, PF__SPARE_HOLDER, PF__SPARE_URGENT };
/* A spare context for a job (`who`: PF__SPARE_*), or NULL. A spare not made yet is made here, on
 * the calling worker; NULL (counted in st.spare_failed) when that allocation fails. */
pf_ctx   *pf__spare_take(pf_batch *b, int who);
/* Gives back job j's context c (j->held). */
void      pf__spare_put(pf_batch *b, const pf__job *j, pf_ctx *c);
/* Spares kept this run: `n` for slot holders that have no context yet, and, while urgent searches
 * hold fewer than `urgent_slots` spares (`urgent_held` of them at the run's start), the rest of
 * those for urgent searches that may be suspended (pf__spare_take). */
void      pf__spares_owe(pf_batch *b, uint32_t n, uint32_t urgent_slots, uint32_t urgent_held);
int       pf__spares_reserve_open(pf_batch *b, uint32_t open, int prefault);
pf_status pf__spares_reserve_algos(pf_batch *b, uint32_t algos);
pf_status pf__spares_reserve_size(pf_batch *b, uint32_t size);
void      pf__spares_use_jps(pf_batch *b, const pf_jps_table *t);
/* The free spares use `acc` (pf__ctx_adopt_accel), with the state b->algos needs. */
pf_status pf__spares_use_accel(pf_batch *b, const pf_accel *acc);
size_t    pf__spares_mem_size(const pf_batch *b); /* the contexts */
void      pf__spares_free(pf_batch *b);
size_t    pf__spares_static_size(uint32_t n);
void      pf__spares_place(pf_batch *b, void *mem, uint32_t n);
/* Every spare made in caller memory, each `ctx` bytes from the cursor. */
void      pf__spares_place_contexts(pf_batch *b, char **p, size_t ctx);

/* ---- plan.c: jobs planned from the fresh queries ---------------------------------------------- */

/* After removing dropped jobs: fills canon for the fresh queries, groups the rest, appends jobs
 * and empties the fresh list. 0 on out-of-memory. */
int       pf__plan_fresh(pf_batch *b);
/* The hash table of planning, for `n` fresh queries (replaced, not grown: its contents are
 * never kept). */
int       pf__plan_reserve_table(pf_batch *b, uint32_t n);
/* Jobs, members, duplicates and scratch for `n` queries at once. */
int       pf__plan_reserve(pf_batch *b, uint32_t n);
/* Scratch of `n` entries, free between planning and the end of pf__account_open; NULL on
 * out-of-memory. */
uint32_t *pf__plan_scratch(pf_batch *b, uint32_t n);
/* Removes done and cancelled jobs (and their members), keeping the others in order. */
void      pf__plan_compact(pf_batch *b);
/* A planned query was cancelled (pf__query_cancel): its job is dropped when no live query is left. */
void      pf__plan_cancel(pf_batch *b, uint32_t slot);
/* Each job's rank: the most urgent priority among the live queries it answers. */
void      pf__plan_rank(pf_batch *b);
/* Duplicates of answered queries take their results. */
void      pf__plan_answer_dups(pf_batch *b);
/* A run ended: jobs planned from now on are younger. */
void      pf__plan_end_run(pf_batch *b);
/* An edit: every job dropped but those marked `carried` (suspended singles whose search the edit
 * left valid: kept as they are, with the duplicates waiting for them), its queries and the waiting
 * duplicates requeued (pf__query_requeue). */
void      pf__plan_unplan(pf_batch *b, int ok);
/* The contexts suspended searches hold. */
int       pf__plan_reserve_open(pf_batch *b, uint32_t open, int prefault);
/* The contexts held by suspended jobs use `acc` from their next search on (a suspended search goes
 * on as it began: AUTO picked its algorithm then), with the state b->algos needs. */
pf_status pf__plan_use_accel(pf_batch *b, const pf_accel *acc);
size_t    pf__plan_mem_size(const pf_batch *b);
void      pf__plan_free(pf_batch *b);
size_t    pf__plan_static_size(uint32_t qcap, uint32_t tcap);
void      pf__plan_place(pf_batch *b, char **p, uint32_t qcap, uint32_t tcap);

static inline uint32_t pf__plan_njobs(const pf_batch *b) { return b->njobs; }
static inline pf__job *pf__plan_job(const pf_batch *b, uint32_t i) { return &b->jobs[i]; }
/* No job and no waiting duplicate. */
static inline int pf__plan_idle(const pf_batch *b) { return !b->njobs && !b->ndups; }
/* The squad of accelerated queries a single job is a member of, or NULL. */
static inline pf__accel_squad *pf__plan_squad(const pf_batch *b, const pf__job *j)
{
    return j->squad ? b->squads[j->squad - 1u].q : NULL;
}
/* A group's member slots: [j->count], sorted by start. */
static inline const uint32_t *pf__plan_members(const pf_batch *b, const pf__job *j) { return &b->members[j->first]; }

/* ---- group.c: group jobs ---------------------------------------------------------------------- */

/* With `begin`, starts a group job's search on `ctx` (PF_IN_PROGRESS or out-of-memory); otherwise
 * resumes it with an expansion budget (0 = unlimited): PF_IN_PROGRESS when the budget ran out,
 * PF_OK when every start is settled. */
pf_status pf__group_step(pf_batch *b, pf__job *j, pf_ctx *ctx, uint32_t budget, int begin);
/* Writes the members' results after the search ended with `st` (paths into `arena`). */
void      pf__group_results(pf_batch *b, pf__job *j, pf_ctx *ctx, pf_status st, pf__arena *arena);

/* ---- results.c: a job's answers --------------------------------------------------------------- */

/* Writes the results of job j, whose search in `c` ended with `st`, paths into wk's arena. */
void      pf__results_write(pf_batch *b, pf__job *j, pf_ctx *c, pf_status st, pf__worker *wk);
/* Puts back the results of a job whose search finished ahead of the budget account. */
void      pf__results_unwrite(pf_batch *b, pf__job *j);
/* A finished job's queries are answered. */
void      pf__results_answered(pf_batch *b, const pf__job *j);

/* ---- account.c: the prepared run and its budget account --------------------------------------- */

void      pf__account_init(pf_batch *b);
/* Run order, jobs' per-run fields and, under a budget, the account; `prepared` is set. 0 on
 * out-of-memory. */
int       pf__account_open(pf_batch *b, const pf_batch_budget *budget);
/* Expansion budgets: walks the account in order and settles each job of the run. */
void      pf__account_settle(pf_batch *b);
void      pf__account_close(pf_batch *b);
/* Whether job j may take a free slot for its search (see wait_epoch). */
int       pf__account_may_take_slot(const pf_batch *b, const pf__job *j);
/* Expansion budgets: publishes r units of charged progress; the most the account can still grant
 * the job this run, counted from the run's start. */
void      pf__account_publish(pf_batch *b, pf__job *j, uint64_t r);
uint64_t  pf__account_allowed(pf_batch *b, const pf__job *j);
/* Time budgets: up to `want` units of the shared expansion budget (all when there is none), and
 * what a search did not use back. */
uint32_t  pf__account_claim(pf_batch *b, uint32_t want);
void      pf__account_give_back(pf_batch *b, uint64_t n);
/* Time budgets: the deadline of a worker whose share of the run started at *t0 (0: not yet, then
 * set to the run's start), and the fair-round cap of job j, starting `now` (0: none). Returns 1
 * when this call started the run's clock (the run's first worker, at its first job). */
int       pf__account_time(pf_batch *b, pf__job *j, double now, double *t0, double *deadline, double *cap);
/* Time budgets, after the jobs: a job of the run was begun (pf_batch_run_job, once per job); fair-
 * round search j stopped at its cap with its state parked; and, once every job has been begun, a
 * search stopped so that the caller now owns and runs on to the deadline (each handed out once),
 * or NULL. */
void      pf__account_job_taken(pf_batch *b);
void      pf__account_capped(pf__job *j);
pf__job  *pf__account_resume_capped(pf_batch *b);
int       pf__account_reserve(pf_batch *b, uint32_t n);
size_t    pf__account_mem_size(const pf_batch *b);
void      pf__account_free(pf_batch *b);
size_t    pf__account_static_size(uint32_t qcap);
void      pf__account_place(pf_batch *b, char **p, uint32_t qcap);

static inline int      pf__account_prepared(const pf_batch *b) { return b->prepared; }
static inline int      pf__account_mode(const pf_batch *b) { return b->mode; }
static inline uint32_t pf__account_jobs(const pf_batch *b) { return b->run_jobs; }
/* Job i of the prepared run. */
static inline pf__job *pf__account_job(const pf_batch *b, uint32_t i) { return pf__plan_job(b, b->run[i]); }

/* ---- sched_jobs.c: the workers, and one job on one worker ----------------------------------- */

/* The workers' table (zeroed); then each worker's context and arena of `arena` bytes. */
int       pf__workers_alloc(pf_batch *b);
pf_status pf__workers_init(pf_batch *b, size_t arena);
int       pf__workers_reserve_open(pf_batch *b, uint32_t open, int prefault);
pf_status pf__workers_reserve_algos(pf_batch *b, uint32_t algos);
pf_status pf__workers_reserve_size(pf_batch *b, uint32_t size);
void      pf__workers_use_jps(pf_batch *b, const pf_jps_table *t);
/* The workers' contexts use `acc` (pf__ctx_adopt_accel), with the state b->algos needs. */
pf_status pf__workers_use_accel(pf_batch *b, const pf_accel *acc);
int       pf__workers_reserve_arena(pf_batch *b, size_t bytes, int prefault);
/* pf_batch_reset: the paths of the frame are given up. */
void      pf__workers_reset(pf_batch *b);
/* A run starts: no worker has started its share of it. */
void      pf__workers_begin_run(pf_batch *b);
/* What ends a run, serially: duplicates of answered queries take their results, finished and
 * cancelled jobs leave, the workers' counters join the batch's. */
void      pf__workers_publish(pf_batch *b);
size_t    pf__workers_mem_size(const pf_batch *b);
void      pf__workers_free(pf_batch *b);
size_t    pf__workers_static_size(uint32_t n);
void      pf__workers_place(pf_batch *b, void *mem);
/* Each worker's context (`ctx` bytes) and arena (`arena_static` bytes holding `arena`) in caller
 * memory. Only the first context can fail (PF_WRONG_MAP: the desc's JPS table). */
pf_status pf__workers_place_contexts(pf_batch *b, char **p, size_t ctx, size_t arena_static, size_t arena);
/* Runs job j to its end on worker `worker` (a suspended one in its held context) and writes its
 * results. */
void      pf__run_to_end(pf_batch *b, pf__job *j, uint32_t worker);

/* ---- follow.c: the batch as a user of its map ------------------------------------------------- */

/* Attached at creation, detached at destruction: the batch follows the map's edits. */
void      pf__batch_follow(pf_batch *b);
void      pf__batch_unfollow(pf_batch *b);
/* From prepare to finish the map must not change; 0 when it is being edited (PF_MAP_BUSY). */
int       pf__batch_hold_map(pf_batch *b);
void      pf__batch_release_map(pf_batch *b);

/* ---- adopt.c: the run counter, an accelerator adopted at a named run ------------------------------ */

/* pf_batch_prepare, once the map is held: the waiting accelerator replaces b->accel in every
 * context when this is its run (PF_OK, or PF_OUT_OF_MEMORY: it waits for the next run). */
pf_status pf__adopt_due(pf_batch *b);
/* pf_batch_prepare, once it succeeded: the run counter moves on. */
void      pf__adopt_run_begun(pf_batch *b);

/* ---- sched_omp.c: workers of a batch created with 0 (OpenMP's thread count; 1 without OpenMP) -- */

uint32_t  pf__default_workers(void);

#endif
