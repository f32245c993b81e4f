/* batch_internal.h - layout of pf_batch, shared by the batch's .c files (never installed). */
#ifndef PF_BATCH_INTERNAL_H
#define PF_BATCH_INTERNAL_H

#include <stdatomic.h>
#include "pathfind/pf_batch.h"
#include "pathfind/pf_grid.h"
#include "core_batch_internal.h" /* the one core header batch includes besides the public ones */

/* ---- arena: bump allocator for paths, one per worker --------------------------------------- */

typedef struct pf__arena_block {
    struct pf__arena_block *prev;
    size_t                  size; /* bytes after the header */
    size_t                  used;
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
/* Rewinds; when it had grown, replaces the chain by one block of the total size. */
void  pf__arena_reset(pf__arena *a);
void  pf__arena_free(pf__arena *a);
/* Static batches: bytes of an arena of `bytes` placed in caller memory, and its placement at `mem`
 * (64-byte aligned); it never grows (an allocation that does not fit returns NULL). */
size_t pf__arena_static_size(size_t bytes);
void   pf__arena_init_static(pf__arena *a, void *mem, size_t bytes);

/* ---- queries, jobs, workers ------------------------------------------------------------------ */

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

typedef struct pf__bquery {
    pf_batch_query  q;
    pf_search_desc  rd;        /* resolved desc */
    uint64_t        seq;       /* submission order */
    uint32_t        gen;       /* generation of the slot (12 bits, never 0) */
    uint32_t        state;     /* PF__Q_* */
    uint32_t        canon;     /* slot answering this query (itself unless a duplicate) */
    uint32_t        next_free;
    uint32_t        job;       /* QUEUED, not a duplicate: its job's index in b->jobs */
    pf_status       cancel;    /* PF_CANCELLED or PF_SUPERSEDED once cancelled, else PF_OK */
    uint32_t        tag_prev, tag_next; /* pending queries with the same tag (tags.c) */
    pf_batch_result res;
} pf__bquery;

typedef struct pf__job {
    uint32_t kind;             /* PF__J_SINGLE or PF__J_GROUP */
    uint32_t state;            /* PF__J_* */
    uint32_t query;            /* single: its canonical slot; group: a member (options, goal) */
    uint32_t first, count;     /* group: members in b->members[first .. first+count) */
    uint32_t live;             /* queries it answers that are not cancelled (duplicates included) */
    uint32_t epoch;            /* run that planned it: "oldest" is the smallest epoch */
    uint32_t rank;             /* PF__RANK_* of its most urgent live query (set by prepare) */
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
    pf_status fin;             /* final status of the real search, once rdone */
    uint32_t settled;          /* group: starts settled so far */
    int32_t  bx0, by0, bx1, by1; /* group: bounding box of the starts */
    uint32_t sliced;
    double   est;              /* unbudgeted runs: estimated length, longest jobs first */
    /* prepared run */
    uint32_t ea, eb;           /* entries of the budget account: fair round, main (PF__NONE if none) */
    uint32_t role;             /* 0, or PF__ROLE_HELD / PF__ROLE_ADMITTED (slot order) */
    uint32_t pos;              /* place in the run's budget order (budgeted runs) */
    uint64_t r;                /* units charged this run (its worker's view) */
    uint64_t pub_a, pub_b;     /* what it has published to the account's entries */
    atomic_int ran;            /* run_job guard: 1 once run in the current prepared run */
} pf__job;
enum { PF__ROLE_HELD = 1, PF__ROLE_ADMITTED = 2 };

typedef struct pf__worker {
    pf_ctx   *ctx;
    pf__arena arena;
    uint64_t  expanded, redone, searches, suspended, restarted, groups;
    double    t0;              /* monotonic start of its share of the run; 0 until its first job */
    int       granted;         /* its first chunk of the run was handed out */
    char      pad[64];         /* workers write these during a run: keep them off each other's lines */
} pf__worker;

/* One entry of the budget account (expansion budgets): a job and the most it may get there. */
typedef struct pf__entry {
    uint32_t job;              /* index in b->jobs */
    uint32_t fair;             /* 1: fair-round entry (cap = quantum) */
} pf__entry;

struct pf_batch {
    uint32_t      tag;         /* PF__TAG_BATCH while alive */
    const pf_map *map;
    pf__map_user  user;        /* busy from prepare to finish; follows the map's edits (follow.c) */
    const pf_jps_table *jps;   /* attached to every context made, when given */
    const pf_accel *accel;     /* likewise */
    pf_allocator  alloc;
    pf_ctx_desc   ctx_desc;    /* how the batch's contexts are made (workers and spares) */
    uint32_t      flags, group_min, nspare_want;
    int           fixed;       /* placed in caller memory (pf_batch_init_static): alloc refuses,
                                * every table has its final capacity, spares exist from the start */
    pf_prefault   prefault;
    uint32_t      open_cap;    /* open-list entries reserved in every context (0: their default) */

    pf__worker   *workers;
    uint32_t      nworkers;

    pf_ctx      **spares;      /* [spare_cap = nspare_want] free spare contexts (stack) */
    /* spare_made: spares that exist (free or held), at most nspare_want; the others are made when
     * a search is suspended and finds none free (pf__take_spare) */
    uint32_t      nspare, spare_cap, spare_made;
    uint32_t      spare_owed;  /* spares kept for this run's slot holders that have no context yet */
    atomic_flag   spare_lock;

    pf__bquery   *q;           /* slots */
    uint32_t      qcap, qlen;  /* qlen: slots ever used */
    uint32_t      free_head;   /* free slot list, PF_NODE_NONE when empty */
    uint64_t      seq;
    uint32_t      pending;
    uint32_t      epoch;       /* runs prepared so far */

    /* tag -> newest pending query with that tag (open addressing, linear probing) */
    uint64_t     *tag_keys;
    uint32_t     *tag_vals;    /* slot + 1; 0 = empty */
    uint32_t      tag_cap, tag_len;

    uint32_t     *fresh;       /* slots submitted since the last prepare, in order */
    uint32_t      nfresh, fresh_cap;

    pf__job      *jobs;        /* unfinished jobs */
    uint32_t      njobs, jobs_cap;
    int           jobs_dirty;  /* some job was cancelled since the last compaction */
    uint32_t     *members;     /* group member slots, contiguous per group, sorted by start */
    uint32_t      nmembers, members_cap;
    uint32_t     *dups;        /* duplicate slots waiting for their canonical query */
    uint32_t      ndups, dups_cap;

    /* hashing scratch (prepare) */
    uint32_t     *table;
    uint32_t      table_cap;
    uint32_t     *scratch;
    uint32_t      scratch_cap;

    /* prepared run */
    int           prepared;
    int           mode;        /* PF__MODE_* */
    uint32_t     *run;         /* jobs of the run, in order: run[i] is the job index of job i */
    uint32_t      run_jobs, run_cap;
    pf__entry    *entries;     /* budget account, in order (expansion budgets) */
    uint32_t      nentries, entries_cap;
    atomic_llong *fen;         /* [nentries + 1] Fenwick tree of what each entry has surely used */
    uint32_t      fen_cap;
    long long     budget;      /* expansion budget (LLONG_MAX: none) */
    uint64_t      quantum;     /* fair-round cap (expansions) */
    /* The waiting non-urgent job that has waited longest, besides the admitted one: (epoch, rank,
     * pos), or all ones. A search newer than it may not take a free slot (it would hold the slot
     * the older one needs to be admitted: starvation with one slot). */
    uint32_t      wait_epoch, wait_rank, wait_pos;
    double        max_s;       /* time budget per worker in seconds (0: none) */
    double        fair_s;      /* fair-round cap per job in seconds (0: none) */
    atomic_llong  budget_left; /* time mode with an expansion budget too: shared counter */
    atomic_llong  run_start_ns; /* time mode: when the run's first worker started (0 until then) */

    pf_batch_stats st;
};

/* group.c: with `begin`, starts a group job's search on `ctx` (PF_IN_PROGRESS or out-of-memory);
 * otherwise resumes it with an expansion budget (0 = unlimited): PF_IN_PROGRESS when the budget
 * ran out, PF_OK when every start is settled. */
pf_status pf__group_step(pf_batch *b, pf__job *j, pf_ctx *ctx, uint32_t budget, int begin);
/* Writes the members' results after the search ended with `st` (paths into `arena`). */
void      pf__group_results(pf_batch *b, pf__job *j, pf_ctx *ctx, pf_status st, pf__arena *arena);

/* dedup.c: fills canon for the fresh queries; groups the rest; appends jobs. 0 on out-of-memory. */
int       pf__batch_plan(pf_batch *b);

/* plan.c: the run's order and budget account (prepare), and settling it (finish). */
int       pf__plan_run(pf_batch *b, const pf_batch_budget *budget);
void      pf__settle_run(pf_batch *b);
/* Removes done and cancelled jobs (and their members), keeping the others in order. */
void      pf__compact_jobs(pf_batch *b);
/* Marks a query answered (or, if it was cancelled, just finished). */
void      pf__query_done(pf_batch *b, uint32_t slot);

/* Whether job j may take a free slot for its search (see wait_epoch). */
int       pf__may_take_slot(const pf_batch *b, const pf__job *j);

/* follow.c: the batch follows its map's edits (attach at create, detach at destroy). */
void      pf__batch_follow(pf_batch *b);
void      pf__batch_unfollow(pf_batch *b);
/* PF_BATCH_FINISH_ON_EDIT, before an edit: every suspended search runs to its end and its queries
 * are answered as at the end of a run (batch.c). */
void      pf__finish_suspended(pf_batch *b);

/* sched_omp.c: workers of a batch created with 0 (OpenMP's thread count; 1 without OpenMP). */
uint32_t  pf__default_workers(void);

/* sched_jobs.c */
double    pf__now(void);
/* Runs job j to its end on `wk` (a suspended one in its held context) and writes its results. */
void      pf__run_to_end(pf_batch *b, pf__job *j, pf__worker *wk);
/* A spare context for job j, or NULL. Jobs the plan gives a slot (suspended ones, the admitted
 * one) are owed one each; others, which only run ahead of the account, get what is left over. A
 * spare not made yet is made here, on the calling worker; NULL (counted in st.spare_failed) when
 * that allocation fails. */
pf_ctx   *pf__take_spare(pf_batch *b, const pf__job *j);
void      pf__put_spare(pf_batch *b, pf_ctx *c);
/* Units a search in `c` has done: its expansions, plus one once it has finished. The one place
 * the batch reads a context's counters. */
uint64_t  pf__ctx_units(const pf_ctx *c, int finished);
/* Puts back the results of a job whose search finished ahead of the budget account. */
void      pf__unwrite_results(pf_batch *b, pf__job *j);

/* tags.c */
int       pf__tag_insert(pf_batch *b, uint32_t slot);  /* 0 on out-of-memory */
void      pf__tag_remove(pf_batch *b, uint32_t slot);
uint32_t  pf__tag_newest(const pf_batch *b, uint64_t tag); /* PF__NONE when none pending */
int       pf__tag_reserve(pf_batch *b, uint32_t n);

/* batch.c */
/* A new context like the workers' (also for spares, from worker threads during a run). */
pf_status pf__new_ctx(pf_batch *b, pf_ctx **out);
int       pf__batch_grow(pf_batch *b, void *arrp, uint32_t *cap, uint32_t need, size_t elem);
#define PF__GROW(b, arr, cap, need) pf__batch_grow((b), &(arr), &(cap), (need), sizeof *(arr))

#endif
