/* ctx_internal.h - search context layout (never installed). Tests may include it to force the
 * generation counter. */
#ifndef PF_CTX_INTERNAL_H
#define PF_CTX_INTERNAL_H

#include "pathfind/pf_search.h"
#include "map/map_internal.h"
#include "search/nodes_internal.h"


/* What pf_search_path may read of a context's last search. */
typedef enum pf__search_state {
    PF__SEARCH_NONE = 0,   /* no search begun, or its data was released (pf_ctx_use_jps_table) */
    PF__SEARCH_BEGUN       /* begun (pf_stats.algo and .detail say by what) */
} pf__search_state;

typedef struct pf__search {
    pf_search_desc d;          /* resolved */
    pf_trace *trace;           /* the context's trace (pf_ctx_use_trace) when the search began */
    uint32_t  start, goal;     /* inner indices; goal PF_NODE_NONE for a tree search */
    int32_t   gx, gy;          /* goal coordinates (grids, unpadded) */
    int32_t   hx, hy;          /* where a grid heuristic of one kind aims: the goal, or the one
                                  cell a partial search toward an unreachable goal aims at */
    double    hmul;            /* multiplier on the heuristic in f (weight * scale) */
    double    hadm;            /* admissible multiplier (scale), for max_cost pruning */
    double    cost_cap;        /* what g + hadm * h is pruned above: pf__cost_cap(max_cost), or
                                  max_cost itself for BFS (its g counts steps: exact); 0 = none, as
                                  max_cost's 0 (a search state zeroed is one without a limit) */
    int       greedy;          /* f = hmul * h, g left out (PF_ALGO_GREEDY) */
    int       unit;            /* every step costs 1 (PF_ALGO_BFS): g counts steps, not cost */
    int       reopen;          /* a closed node reached more cheaply goes back on the open list
                                  (A* with a user heuristic, which may be inconsistent) */
    int       pruned;          /* max_cost dropped a node: running dry means LIMIT_REACHED,
                                  not NO_PATH */
    int       tree;            /* no goal: settle everything reachable (pf_search_tree) */
    int       back;            /* a tree rooted at the goal (flow fields): costs are to the root */
    uint8_t   size;            /* side of the unit (pf_search_desc.unit_size), 1 = one cell */
    uint8_t  *fmemo;           /* size > 1 under a filter: the context's memo of open blocks
                                  (search/fsize.c); NULL = read them (pf__grid_view.fmemo) */
    int       partial;         /* track `best` for PF_PARTIAL (grids) */
    int       short_cap;       /* AUTO's short move: d.max_expansions is its A*'s cap, past which
                                  the accelerator answers instead (search.c's give_up_short) */
    pf_heur   near_heur;       /* the map's metric, which "nearest the goal" is measured by */
    uint32_t  best;            /* partial: the expanded node nearest the goal so far */
    double    best_h;          /* partial: its metric to the goal */
    double    near_d;          /* partial, goal known unreachable: the least metric to the goal of a
                                  cell the unit can reach (map/nearest.c); < 0 when not known */
    uint32_t  near_cell;       /* the one such cell the search ends on (inner index; the heuristic
                                  aims at it: hx, hy) */
    int       aimed;           /* partial: the search runs to near_cell as to a goal, and its PF_OK
                                  is PF_PARTIAL */
    int       note;            /* partial: note `best` at every expansion (not when aimed without
                                  limits: there is no nearest node to keep) */
    uint32_t  found;           /* inner index reached, PF_NODE_NONE when none */
    pf_status status;          /* PF_IN_PROGRESS while running */
    pf_stats  st;
    /* units of a sliced step beside the expansions in st (pf_search_step's budget counts both, and
     * so does a batch: pf__ctx_units): `work`, what an accelerated query does that is not an
     * expansion (its path's cells, PF__ACCEL_PATH_UNIT a unit: accel/accel_query.c), and `owed`,
     * the units it did past a step's budget (a part it cannot cut) and charges to later steps */
    uint32_t  work, owed;
    pf__search_state active;
    /* living maps: the version searched, and the request, to restart it on a newer version */
    uint64_t  version;
    uint32_t  req_start, req_goal;
    int       req_tree, req_has_desc;
    pf_search_desc req_desc;
} pf__search;

typedef struct pf__szcomp pf__szcomp;

/*
 * Per-context extensions: what an algorithm keeps in a context beside the records, one slot per
 * kind, made on first use (pf__ctx_ext) or ahead of time (pf__ctx_ext_reserve), freed with the
 * context. Each kind's callbacks live with its algorithm.
 */
typedef enum pf__ext_kind {
    PF__EXT_JPS = 0, /* jps/jps_search.c: jump-point parents, the path, bitmaps/distances built here */
    PF__EXT_ACCEL,   /* accel/accel_query.c: the attached accelerator and its query buffers */
    PF__EXT_THETA,   /* search.c: Theta*'s parent of each cell (any cell, not a neighbour) */
    PF__EXT_FSIZE,   /* fsize.c: where units larger than a cell may stand under a filter (before
                        PF__EXT_SIZED: an edit clears its memos before the labels follow) */
    PF__EXT_SIZED,   /* size_comp.c: components for units larger than one cell */
    PF__EXT__COUNT
} pf__ext_kind;

typedef struct pf__ext_class {
    /* Makes the extension of ctx; NULL when out of memory. Never called for a static context. */
    void *(*create)(pf_ctx *ctx);
    /* Frees it (with everything it holds). */
    void (*destroy)(pf_ctx *ctx, void *x);
    /* Optional: makes now what the first search would allocate (parents, buffers); 0 when out of
     * memory. Called after create, and on a placed extension too (it then has what it needs). */
    int (*reserve)(pf_ctx *ctx, void *x);
    /* Optional: follows the derived data it holds through a map edit; 0 when it could not (the data
     * is then dropped and rebuilt on demand). */
    int (*edit)(pf_ctx *ctx, void *x, pf__edit_view *e);
} pf__ext_class;

extern const pf__ext_class pf__ext_jps, pf__ext_accel, pf__ext_theta, pf__ext_fsize, pf__ext_sized;

struct pf_ctx {
    uint32_t      tag;         /* PF__TAG_CTX while alive */
    const pf_map *map;
    pf_allocator  alloc;
    /* The node records (search/nodes_internal.h): passed whole as `nodes` to the shared pieces;
     * count, gen and parent (graphs only) are read by name too. */
    union {
        pf__nodes nodes;
        struct {
            uint32_t  count;
            uint32_t  gen;
            char    **page;
            uint32_t *parent;
        };
    };
    void         *block;       /* the records' allocation: the directory, parents, and the pages
                                * unless they are lazy */
    size_t        block_size;
    int           lazy;        /* block is lazy pages (pf__alloc_lazy): 1, or 2 while they are
                                * offered as huge pages */
    unsigned char *resident;   /* PF_PREFAULT_NONE: pf__ctx_trim's map of JPS's lazy parents (a
                                * byte per page of them, then a byte per record page); made with the
                                * context */
    size_t        resident_size;
    pf__open      open;        /* open list; open.pg is the records' pages */
    pf__search    s;
    int           fixed;       /* placed in caller memory (pf_ctx_init_static): alloc refuses,
                                * and what would grow fails with PF_CAPACITY_EXCEEDED */
    pf__map_user  user;        /* busy during a search call; follows the map's edits */
    void         *ext[PF__EXT__COUNT]; /* extensions by kind, NULL until made */
    uint32_t      ext_placed;  /* bit per kind: placed in caller memory (static), never freed */
    pf_trace     *trace;       /* pf_ctx_use_trace; NULL = no recording */
    pf_parallel_for parallel;  /* pf_ctx_desc.parallel: the JPS data a context builds for itself */
};

/* st as a context reports it: a context in caller memory (pf_ctx_init_static) cannot grow, so a
 * failed allocation there means its fixed capacity ran out (PF_OUT_OF_MEMORY becomes
 * PF_CAPACITY_EXCEEDED); every other status, and any status of a context that allocates, as it is. */
PF__INLINE pf_status pf__ctx_oom_status(const pf_ctx *ctx, pf_status st)
{
    return st == PF_OUT_OF_MEMORY && ctx->fixed ? PF_CAPACITY_EXCEEDED : st;
}

/* The extension of `kind`, made on first use; NULL when it cannot be (out of memory, or a static
 * context, which allocates nothing). */
void *pf__ctx_ext(pf_ctx *ctx, pf__ext_kind kind);
/* The extension if it exists, else NULL: never makes it. */
PF__INLINE void *pf__ctx_ext_get(const pf_ctx *ctx, pf__ext_kind kind) { return ctx->ext[kind]; }
/* Makes the extension and what its first search would allocate, ahead of time (pf_batch_reserve:
 * a frame's first search then allocates nothing for it). PF_OK, PF_OUT_OF_MEMORY, or
 * PF_CAPACITY_EXCEEDED for a static context that was not given it. */
pf_status pf__ctx_ext_reserve(pf_ctx *ctx, pf__ext_kind kind);
/* Frees the extension (nothing when it does not exist or was placed). */
void pf__ctx_ext_drop(pf_ctx *ctx, pf__ext_kind kind);
/* Installs an extension placed in a static context's memory: never freed, never edited. */
void pf__ctx_ext_place(pf_ctx *ctx, pf__ext_kind kind, void *x);

/* Begins a tree search rooted at `goal` whose costs are to the goal (flow.c); pf_search_step
 * continues it. */
pf_status pf__flow_begin(pf_ctx *ctx, uint32_t goal, const pf_search_desc *desc);
/* A resolved desc (pf_search_desc_resolve) against map m: PF_OK, or the status pf_search's begin
 * refuses it with (PF_INVALID_ARGUMENT, PF_UNSUPPORTED); search.c. Callers that read a desc before
 * searching (pf_path_repair) refuse it as the search would. */
pf_status pf__search_desc_check(const pf_map *m, const pf_search_desc *d);
/* Forces the generation counter, so tests can exercise the wrap. */
void pf__ctx_set_gen(pf_ctx *ctx, uint32_t gen);

#endif
