/* batch_internal.h - layout of pf_batch, shared by the batch's .c files (never installed). */
#ifndef PF_BATCH_INTERNAL_H
#define PF_BATCH_INTERNAL_H

#include <stdatomic.h>
#include "pathfind/pf_batch.h"
#include "search/ctx_internal.h"

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
/* Returns NULL only when a new block cannot be allocated (the query fails with OUT_OF_MEMORY). */
void *pf__arena_alloc(pf__arena *a, size_t size, size_t align);
/* Rewinds; when it had grown, replaces the chain by one block of the total size. */
void  pf__arena_reset(pf__arena *a);
void  pf__arena_free(pf__arena *a);

/* ---- queries, jobs, workers ------------------------------------------------------------------ */

#define PF__BQ_SLOT_BITS 20u
#define PF__BQ_SLOT_MASK ((UINT32_C(1) << PF__BQ_SLOT_BITS) - 1u)

enum { PF__Q_FREE = 0, PF__Q_NEW, PF__Q_QUEUED, PF__Q_DONE };
enum { PF__J_WAITING = 0, PF__J_SUSPENDED, PF__J_DONE };
enum { PF__J_SINGLE = 0, PF__J_GROUP };

typedef struct pf__bquery {
    pf_batch_query  q;
    pf_search_desc  rd;        /* resolved desc */
    uint64_t        seq;       /* submission order */
    uint32_t        gen;       /* generation of the slot (12 bits, never 0) */
    uint32_t        state;     /* PF__Q_* */
    uint32_t        canon;     /* slot answering this query (itself unless a duplicate) */
    uint32_t        next_free;
    pf_batch_result res;
} pf__bquery;

typedef struct pf__job {
    uint32_t kind;             /* PF__J_SINGLE or PF__J_GROUP */
    uint32_t state;            /* PF__J_* */
    uint32_t query;            /* single: its slot */
    uint32_t first, count;     /* group: members in b->members[first .. first+count) */
    uint64_t seq;              /* order: the oldest member's submission */
    pf_ctx  *held;             /* suspended: the context holding the search */
    uint32_t settled;          /* group: starts settled so far */
    int32_t  bx0, by0, bx1, by1; /* group: bounding box of the starts */
    uint32_t sliced;
    double   est;              /* unbudgeted runs: estimated length, longest jobs first */
    atomic_int ran;            /* run_job guard: 1 once run in the current prepared run */
} pf__job;

typedef struct pf__worker {
    pf_ctx   *ctx;
    pf__arena arena;
    uint64_t  expanded, searches, suspended, restarted, groups;
} pf__worker;

struct pf_batch {
    uint32_t      tag;         /* PF__TAG_BATCH while alive */
    const pf_map *map;
    const pf_jps_table *jps;   /* attached to every context made, when given */
    const pf_accel *accel;     /* likewise */
    pf_allocator  alloc;
    uint32_t      flags, group_min, nspare_want;

    pf__worker   *workers;
    uint32_t      nworkers;

    pf_ctx      **spares;      /* free spare contexts (stack) */
    uint32_t      nspare, spare_cap, spare_made; /* spare_made: created so far */
    atomic_flag   spare_lock;

    pf__bquery   *q;           /* slots */
    uint32_t      qcap, qlen;  /* qlen: slots ever used */
    uint32_t      free_head;   /* free slot list, PF_NODE_NONE when empty */
    uint64_t      seq;
    uint32_t      pending;

    uint32_t     *fresh;       /* slots submitted since the last prepare, in order */
    uint32_t      nfresh, fresh_cap;

    pf__job      *jobs;        /* unfinished jobs, oldest first */
    uint32_t      njobs, jobs_cap;
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
    int           prepared, running;
    uint32_t      run_jobs;    /* jobs 0..run_jobs-1 of `jobs` belong to the prepared run */
    int           budgeted;
    atomic_llong  budget_left; /* expansions; LLONG_MAX when unlimited */
    double        deadline;    /* monotonic seconds; 0 when unlimited */
    /* Suspended searches own the last half of the budget (expansions and time): queries started
     * fresh stop short of it, so a suspended search always advances and cannot be starved by fresh
     * ones that run out of budget and restart (two workers, one spare: livelock otherwise). */
    long long     reserve;     /* expansions fresh jobs may not claim */
    double        fresh_deadline;
    int           any_suspended;
    /* Set by the run's first granted claim (first claim of a suspended search while any are). A run whose deadline passes before anything was granted
     * (workers woken late, a thread preempted, a budget shorter than the wake-up) still grants one
     * chunk, so a time-budgeted batch always converges. */
    atomic_int    progressed;

    pf_batch_stats st;
};

/* group.c: with `begin`, starts a group job's search on `ctx` (PF_IN_PROGRESS or out-of-memory);
 * otherwise resumes it with an expansion budget (0 = unlimited): PF_IN_PROGRESS when the budget
 * ran out, PF_OK when every start is settled. */
pf_status pf__group_step(pf_batch *b, pf__job *j, pf_ctx *ctx, uint32_t budget, int begin);
/* Writes the members' results after the search ended with `st` (paths into `arena`). */
void      pf__group_results(pf_batch *b, pf__job *j, pf_ctx *ctx, pf_status st, pf__arena *arena);
/* Whether a query may join a group (optimal default options on a square grid). */
int       pf__group_eligible(const pf_map *m, const pf_search_desc *rd);

/* dedup.c: fills canon for the fresh queries; groups the rest; appends jobs. 0 on out-of-memory. */
int       pf__batch_plan(pf_batch *b);

double    pf__now(void);
int       pf__batch_grow(pf_batch *b, void *arrp, uint32_t *cap, uint32_t need, size_t elem);
#define GROW(b, arr, cap, need) pf__batch_grow((b), &(arr), &(cap), (need), sizeof *(arr))

#endif
