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
    uint32_t  start, goal;     /* inner indices; goal PF_NODE_NONE for a tree search */
    int32_t   gx, gy;          /* goal coordinates (grids, unpadded) */
    double    hmul;            /* multiplier on the heuristic in f (weight * scale) */
    double    hadm;            /* admissible multiplier (scale), for max_cost pruning */
    int       greedy;          /* f = hmul * h, g left out (PF_ALGO_GREEDY) */
    int       unit;            /* every step costs 1 (PF_ALGO_BFS): g counts steps, not cost */
    int       reopen;          /* a closed node reached more cheaply goes back on the open list
                                  (A* with a user heuristic, which may be inconsistent) */
    int       pruned;          /* max_cost dropped a node: running dry means LIMIT_REACHED,
                                  not NO_PATH */
    int       tree;            /* no goal: settle everything reachable (pf_search_tree) */
    int       back;            /* a tree rooted at the goal (flow fields): costs are to the root */
    uint8_t   size;            /* side of the unit (pf_search_desc.unit_size), 1 = one cell */
    int       partial;         /* track `best` for PF_PARTIAL (grids) */
    pf_heur   near_heur;       /* the map's metric, which "nearest the goal" is measured by */
    uint32_t  best;            /* partial: the expanded node nearest the goal so far */
    double    best_h;          /* partial: its metric to the goal */
    double    near_d;          /* partial, goal known unreachable: the least metric to the goal of a
                                  cell the unit can reach (map/nearest.c); < 0 when not known */
    uint32_t  near_n;          /* those cells, when at most 8 (else 0): the heuristic aims at the
                                  nearest of them instead of at the goal */
    int32_t   near_x[8], near_y[8];
    uint32_t  found;           /* inner index reached, PF_NODE_NONE when none */
    pf_status status;          /* PF_IN_PROGRESS while running */
    pf_stats  st;
    pf__search_state active;
    /* living maps: the version searched, and the request, to restart it on a newer version */
    uint64_t  version;
    uint32_t  req_start, req_goal;
    int       req_tree, req_has_desc;
    pf_search_desc req_desc;
} pf__search;

typedef struct pf__szcomp pf__szcomp;

struct pf_ctx {
    uint32_t      tag;         /* PF__TAG_CTX while alive */
    const pf_map *map;
    pf_allocator  alloc;
    /* The node records (search/nodes_internal.h): passed whole as `nodes` to the shared pieces,
     * read by name in the hot loops (c->stamp, c->g); parent is kept for graphs only. */
    union {
        pf__nodes nodes;
        struct {
            uint32_t  count;
            uint32_t  gen;
            uint32_t *stamp;
            double   *g;
            uint32_t *hpos;
            uint32_t *parent;
        };
    };
    void         *block;       /* the records' allocation */
    size_t        block_size;
    pf__open      open;        /* open list; open.pos is hpos */
    pf__search    s;
    void         *ext;         /* algorithm extensions (JPS+ tables...), owned */
    void        (*ext_free)(pf_ctx *ctx);
    int           fixed;       /* placed in caller memory (pf_ctx_init_static): alloc refuses,
                                * and what would grow fails with PF_CAPACITY_EXCEEDED */
    /* follows the extension's derived data (JPS tables built by this context) through an edit;
     * 0 when it could not (the data is then dropped and rebuilt on demand) */
    int         (*ext_edit)(pf_ctx *ctx, pf__edit_view *e);
    pf__map_user  user;        /* busy during a search call; follows the map's edits */
    void         *accel;       /* the accelerator's query state (accel/), owned */
    void        (*accel_free)(pf_ctx *ctx);
    uint32_t     *aparent;     /* [count] Theta*'s parents (any cell, not a neighbour), made by the
                                  first Theta* search on a grid; NULL until then */
    struct pf__szcomp *szcomp; /* components for sized units (size_comp.c), made by the first
                                  sized query; NULL until then */
};

/* Begins a tree search rooted at `goal` whose costs are to the goal (flow.c); pf_search_step
 * continues it. */
pf_status pf__flow_begin(pf_ctx *ctx, uint32_t goal, const pf_search_desc *desc);
/* Forces the generation counter, so tests can exercise the wrap. */
void pf__ctx_set_gen(pf_ctx *ctx, uint32_t gen);

#endif
