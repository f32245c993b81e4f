/* accel_query.c - PF_ALGO_AUTO: the accelerated query, its per-context state, and the fallback.
 *
 * A query is two searches up the hierarchy: from the goal's seeds (the subgoals whose canonical
 * paths reach the goal), its g and parents kept as labels, and from the start's seeds on the
 * context's own records; each stops once its smallest key reaches the best meeting found. Both
 * stall on demand (a node reached more cheaply through a higher neighbour is not expanded). On a
 * hierarchy without a core they run at once, in turn a node each (both_ways). With a core the
 * goal's side runs first and whole up to the core (upward_goal); the start's then runs up the
 * contracted part, its core nodes reached becoming seeds, and from those crosses the core as an
 * A* bounded by landmarks through the goal's labels there (upward_start, core_search), on records
 * over core indices: the shape of a contraction hierarchy with a core.
 *
 * ONE SKELETON: upward() is the search skeleton's loop (search/skeleton_internal.h) on the
 * context's records and open list: its loop head bounded by the best meeting, a successor
 * generator over the hierarchy's arcs, and the shared relaxation writing the accelerator's parents.
 * core_search() is the same loop one level down, on the per-context records of the core (as the
 * build's witness searches run on theirs).
 */
#include <math.h>
#include <string.h>
#include "accel/accel_internal.h"
#include "search/skeleton_internal.h"
#include "search/metric_internal.h"
#include "jps/jps_internal.h"
#include "grow_internal.h"
#include "core_batch_internal.h"

/* An entry of both_ways' goal side heap: its key, g and node index. */
typedef struct pf__accel_gent {
    double   key, g;
    uint32_t node;
} pf__accel_gent;

typedef struct meet {
    double   best;
    uint32_t node; /* PF_NODE_NONE until the sides meet */
    uint32_t ci;   /* node's core index where they met across the core (core_search), else PF_NODE_NONE */
} meet;

/* The heuristic of a side: the start's side is an A* towards the goal (x, y in the padded grid of
 * width pw): no path from v to the goal is shorter than the octile distance, so it stays exact,
 * and it keeps the search in the core pointed at the goal. In the core it also takes the landmark
 * bounds (accel_landmarks.c) of the nl landmarks that the goal's core labels reach: ub, lb per
 * landmark lm[j]. The goal's side has none (on = 0). */
typedef struct aim {
    uint32_t        pw;
    int32_t         x, y;
    int             on;
    const pf_accel *acc;
    uint32_t        nl;
    uint32_t        lm[PF__ACCEL_LANDMARKS_QUERY];
    double          ub[PF__ACCEL_LANDMARKS_QUERY], lb[PF__ACCEL_LANDMARKS_QUERY];
    /* the cache lines of a landmark row that hold lm[0 .. nl): their first entries, ascending */
    uint32_t        nline;
    uint32_t        line[PF__ACCEL_LANDMARKS_QUERY];
} aim;

/* The parts of a query, in the order it runs them (SLICES, below): with a core Q_GOAL to Q_CORE,
 * without one Q_BOTH; then its path. */
enum { Q_BEGIN = 0, Q_GOAL, Q_START_BEGIN, Q_START, Q_CORE, Q_BOTH, Q_PATH_BEGIN, Q_PATH, Q_DONE };

/* Per-context state, hung on pf_ctx.accel. */
typedef struct pf__accel_ext {
    const pf_accel *acc;
    uint32_t       *parent;  /* [count] parent of each node reached by the running search */
    int             parent_lazy; /* parent is lazy pages, as the context's records are */
    pf__accel_seed *seeds;   /* [seeds_cap] the start's or the goal's seeds */
    uint32_t        seeds_cap;
    /* the goal side's labels: open addressing on the cell, PF_NODE_NONE = empty */
    uint32_t       *lkey, *lpar;
    double         *lg;
    uint32_t        lcap, lcount;
    /* the last path, goal first, as public ids; the unpacking stack */
    uint32_t       *path;
    uint32_t        path_cap, path_len;
    uint32_t        total;   /* steps of the path being written: path[total] is the start */
    uint32_t        fill;    /* its steps not written yet (put_cp) */
    uint32_t       *stk, *chain; /* put_arcs' queue; write_path's chain of the start's side */
    uint32_t        stk_cap, chain_cap;
    /* the goal side's open list when both sides run at once (both_ways): a binary heap of
     * (key, g, cell), an entry stale once its cell's label holds a smaller g */
    struct pf__accel_gent *gh;
    uint32_t        gh_cap, gh_n;
    /* the query between begin and step */
    uint32_t        nfwd;    /* start's seeds (in seeds[0..nfwd)) */
    uint32_t        sx, sy;  /* the start (padded), for choosing landmarks */
    /* the start side's A* across the core (core_search), on records over core indices: the
     * records of the core nodes one query reaches are 1.3 MB in all on random-2000-20 (core x 20
     * bytes), where the context's spread them over its 64 MB, a cache line each. cr.parent is the
     * core index a node was reached from, PF_NODE_NONE for a seed (reached from the contracted
     * part: its parent there is in `parent`, by cell). copen holds cr_count entries and never
     * grows: a node is on it at most once (no reopening: the heuristic is consistent) */
    pf__nodes       cr;
    double         *ch;      /* [core] the heuristic of a record written (cr), read back when its g
                              * is lowered: 60% of the core's relaxations that write (random-2000-20),
                              * whose landmark bounds cost 22% of a query's instructions */
    void           *cr_block;
    uint32_t        cr_count;
    pf__open        copen;
    /* the goal side's labels at core nodes, by core index (open addressing, PF_NODE_NONE =
     * empty): a few dozen to a few hundred, looked up at every expansion across the core, where
     * the labels by cell (thousands) spill out of the first-level cache */
    uint32_t       *ckey;
    double         *cg;
    uint32_t        ccap, ccount;
    /* both_ways, on a hierarchy without a core: its two sides' records by node index
     * (accel_nodes.c), the start's (nr, its open list nopen) and the goal's labels (gr: g and
     * parent; its open list is gh), in one block of nr_count nodes each */
    pf__nodes       nr, gr;
    pf__open        nopen;
    void           *nr_block;
    uint32_t        nr_count;
    /* an edited map (accel_diff.c): check = the path must be proven on it; clear = no canonical
     * path written so far crosses D; bound = no path using a cell of D better for the start's class
     * costs less; refused = the next pick does not take the accelerator (search.c's fallback);
     * long = the next pick skips the short move's A* (it ran past its cap: search.c) */
    int             check, clear, refused, long_only;
    double          bound;
    /* the squad whose member the next query is (pf__ctx_accel_squad; accel_squad.c), or NULL */
    pf__accel_squad *squad;
    /* the query across the steps that slice it (SLICES, below): the part it is in, the best
     * meeting so far, the start side's heuristics (up the contracted part, across the core), the
     * cost of the path found, put_arcs' queue x->stk[head .. tail), both_ways' two sides and whose
     * turn it is, and the answer kept while the units a step ran past its budget are charged */
    int             phase, turn;
    meet            mt;
    aim             at, atc;
    double          cost;
    uint32_t        head, tail;
    pf_status       ss, gs, final;
} pf__accel_ext;

/* ---- per-context state ---------------------------------------------------------------------- */

/* both_ways' records (nr, gr, nopen): freed, and made for acc's nodes (0 when out of memory); kept
 * while the attached accelerator's nodes fit them. */
static size_t node_bytes(uint32_t n) { return 2u * pf__nodes_bytes(n, 1); }

static void node_free(pf_ctx *c, pf__accel_ext *x)
{
    pf__free(&c->alloc, x->nr_block, node_bytes(x->nr_count));
    pf__open_free(&x->nopen, &c->alloc);
    x->nr_block = NULL;
    x->nr_count = 0;
    memset(&x->nr, 0, sizeof x->nr);
    memset(&x->gr, 0, sizeof x->gr);
}

/* A block of `bytes` for records of n nodes and an open list o of n entries that never grows (a
 * node is on it at most once: decrease-key); NULL, with nothing kept, when out of memory. */
static void *records_make(pf_ctx *c, size_t bytes, uint32_t n, pf__open *o)
{
    void *b = pf__alloc(&c->alloc, bytes, 64);
    if (!b) return NULL;
    if (!pf__open_resize(o, &c->alloc, n)) {
        pf__free(&c->alloc, b, bytes);
        return NULL;
    }
    o->grow = pf__open_no_grow;
    return b;
}

static int node_make(pf_ctx *c, pf__accel_ext *x)
{
    const uint32_t n = x->acc->nodes;
    if (x->nr_count >= n) return 1;
    node_free(c, x);
    void *b = records_make(c, node_bytes(n), n, &x->nopen);
    if (!b) return 0;
    pf__nodes_place(&x->nr, b, n, 1);
    pf__nodes_place(&x->gr, (char *)b + pf__nodes_bytes(n, 1), n, 1);
    x->nopen.pos = x->nr.hpos;
    x->nr_block = b;
    x->nr_count = n;
    return 1;
}

/* The records of the A* across the core (cr, copen): freed, and made for acc's core (0 when
 * out of memory); kept while the attached accelerator's core fits them. */
static size_t core_bytes(uint32_t n) { return pf__nodes_bytes(n, 1) + pf__align64((size_t)n * sizeof(double)); }

static void core_free(pf_ctx *c, pf__accel_ext *x)
{
    pf__free(&c->alloc, x->cr_block, core_bytes(x->cr_count));
    x->ch = NULL;
    pf__open_free(&x->copen, &c->alloc);
    x->cr_block = NULL;
    x->cr_count = 0;
    memset(&x->cr, 0, sizeof x->cr);
}

static int core_make(pf_ctx *c, pf__accel_ext *x)
{
    const uint32_t n = x->acc->core;
    if (x->cr_count >= n) return 1;
    core_free(c, x);
    void *b = records_make(c, core_bytes(n), n, &x->copen);
    if (!b) return 0;
    pf__nodes_place(&x->cr, b, n, 1);
    x->ch = (double *)(void *)((char *)b + pf__nodes_bytes(n, 1));
    x->copen.pos = x->cr.hpos;
    x->cr_block = b;
    x->cr_count = n;
    return 1;
}

static void ext_release_query(pf_ctx *c, pf__accel_ext *x)
{
    core_free(c, x);
    node_free(c, x);
    pf__free(&c->alloc, x->ckey, (size_t)x->ccap * sizeof(uint32_t));
    pf__free(&c->alloc, x->cg, (size_t)x->ccap * sizeof(double));
    pf__free_lazy(&c->alloc, x->parent, (size_t)c->count * sizeof(uint32_t), x->parent_lazy);
    x->parent_lazy = 0;
    pf__free(&c->alloc, x->seeds, (size_t)x->seeds_cap * sizeof(pf__accel_seed));
    pf__free(&c->alloc, x->lkey, (size_t)x->lcap * sizeof(uint32_t));
    pf__free(&c->alloc, x->lpar, (size_t)x->lcap * sizeof(uint32_t));
    pf__free(&c->alloc, x->lg, (size_t)x->lcap * sizeof(double));
    pf__free(&c->alloc, x->path, (size_t)x->path_cap * sizeof(uint32_t));
    pf__free(&c->alloc, x->stk, (size_t)x->stk_cap * sizeof(uint32_t));
    pf__free(&c->alloc, x->chain, (size_t)x->chain_cap * sizeof(uint32_t));
    pf__free(&c->alloc, x->gh, (size_t)x->gh_cap * sizeof(pf__accel_gent));
    const pf_accel *acc = x->acc;
    memset(x, 0, sizeof *x);
    x->acc = acc;
}

static void ext_destroy(pf_ctx *c, void *p)
{
    pf__accel_ext *x = p;
    ext_release_query(c, x);
    pf__free(&c->alloc, x, sizeof *x);
}

static void *ext_create(pf_ctx *c) { return pf__calloc(&c->alloc, sizeof(pf__accel_ext), 64); }

pf_status pf_ctx_use_accel(pf_ctx *ctx, const pf_accel *acc)
{
    if (!ctx) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(ctx, PF__TAG_CTX, "pf_ctx");
    if (acc && !pf__accel_attachable(acc, ctx->map)) return PF_WRONG_MAP;
    return pf__ctx_adopt_accel(ctx, acc);
}

/* The octile length of a move between inner cells: what AUTO calls short is measured by it. */
static double move_len(const pf_map *m, uint32_t si, uint32_t gi)
{
    const int32_t pw = (int32_t)m->pw;
    return pf__grid_metric(PF_HEUR_OCTILE, (int32_t)si % pw - (int32_t)gi % pw, (int32_t)si / pw - (int32_t)gi / pw);
}

/* A hierarchy whose build left most nodes uncontracted (open maps with few, far-seeing subgoals:
 * Berlin_0_1024 keeps all 9,914 in its core) is a plain subgoal graph search, slower there than
 * JPS+ (955 us against 10 us a query): AUTO then answers by JPS. */
static int contracted(const pf_accel *acc) { return acc->core * 2u <= acc->nodes; }

/* What AUTO calls a short move, and how long its A* may run before the accelerator answers instead
 * (pf_accel.h, QUERIES). The accelerator's short query costs what its scans and upward searches
 * touch: where at least one cell in 10 is a subgoal (random maps) the scans reach dozens of them
 * and the searches start from all of them. Cold, one query after another over the 1,000 short
 * moves (optimal length <= 50) of each 2000x2000 map, an accelerated short move costs 60-70 us on
 * random-2000-20 (33% of its cells are subgoals), 20-26 us on rooms-2000 (0.5%) and about 6 us on
 * maze-2000-w4 (2.8%), and A* about 80 ns an expansion (16-18 us at 32-50 steps on random), 2-8
 * expansions per octile step except in the maze. So on a map dense in subgoals A* is tried up to
 * twice the usual length, and given 16 expansions a step before it hands over: the waste is at
 * most 16 * 64 expansions, about one accelerated short move there. Elsewhere the cap is 64 a step,
 * a bound for the moves whose A* runs away (a maze's cells a few steps apart can be thousands apart
 * by path), which none of the 1,000 short moves of rooms-2000 or maze-2000-w4 reaches: measured on
 * the shared 2-core machine (cold, medians of 3 passes), a cap of 4, 16 or 32 a step handed 207, 69
 * or 18 of them over and made rooms-2000's moves under 32 steps 47%, 20% and 9% slower than A*
 * alone, the maze's 7% faster, 5% slower and equal; callgrind (a private 32 MiB cache) counted
 * those handovers as savings on both, so its cache model misses what the accelerator pays. */
static int dense(const pf_accel *acc) { return (uint64_t)acc->nodes * 10u >= acc->cells; }

static uint32_t short_limit(const pf_accel *acc)
{
    if (acc->desc.short_query) return acc->short_query;
    return dense(acc) ? 2u * acc->short_query : acc->short_query;
}

int pf__accel_takes(const pf_accel *acc, const pf_map *map, const pf_search_desc *rd, uint32_t start, uint32_t goal)
{
    if (!acc || rd->algo != PF_ALGO_AUTO || rd->unit_size > 1 || rd->filter || rd->partial) return 0;
    if (!pf__accel_answers(acc, map) || !contracted(acc)) return 0;
    uint32_t si = pf__map_inner(map, start), gi = pf__map_inner(map, goal);
    if (si == PF_NODE_NONE || gi == PF_NODE_NONE) return 0;
    return move_len(map, si, gi) >= (double)short_limit(acc);
}

/* One that follows the edits by its diff is attached whatever edits came since its build. */
int pf__accel_attachable(const pf_accel *acc, const pf_map *map)
{
    return acc->map == map && (acc->fingerprint == map->fingerprint || acc->desc.edits == PF_ACCEL_EDITS_CHECK);
}

const pf_map *pf__accel_map(const pf_accel *acc) { return acc->map; }

/* A batch adopts an accelerator at a named run whatever edits came since it was built (pf_batch.h,
 * ADOPTED ACCELERATORS): attached stale, it answers nothing until the map's fingerprint is its own
 * again (pf__auto_pick checks it at every query); with PF_ACCEL_EDITS_CHECK its first attachment
 * starts its diff against the live map (a rebuild's copy may be some edits old), and it answers
 * what it can prove from then on. The first attachment is made between runs, where the map is
 * quiet: the diff reads the live cells, and the accelerator's own state changes (its one mutable
 * part, like a PF_ACCEL_EDITS_REBUILD one's inside an edit). */
int pf__ctx_accel_running(const pf_ctx *ctx)
{
    const pf__search *s = &ctx->s;
    return s->active != PF__SEARCH_NONE && s->status == PF_IN_PROGRESS && s->d.algo == PF_ALGO_AUTO;
}

pf_status pf__ctx_adopt_accel(pf_ctx *ctx, const pf_accel *acc)
{
    if (acc && acc->map != ctx->map) return PF_WRONG_MAP;
    const pf__accel_ext *cur = pf__ctx_ext_get(ctx, PF__EXT_ACCEL);
    /* an accelerated query suspended part way (SLICES) holds seeds, records by node index and
     * queued arcs of its accelerator: with another, or none, it begins again at its next step, as
     * after an edit (pf_search_step: the version it searched is not the map's). A batch plans such
     * queries again before it adopts one (batch/src/adopt.c). */
    if (pf__ctx_accel_running(ctx) && (cur ? cur->acc : NULL) != acc) ctx->s.version = ~ctx->map->version;
    if (!acc) {
        pf__ctx_ext_drop(ctx, PF__EXT_ACCEL);
        return PF_OK;
    }
    if (acc->desc.edits == PF_ACCEL_EDITS_CHECK) {
        pf_accel *w = (pf_accel *)(uintptr_t)acc;
        while (atomic_flag_test_and_set_explicit(&w->diff_lock, memory_order_acquire)) {
        }
        int failed = !w->diff_tried && !pf__accel_diff_start(w);
        atomic_flag_clear_explicit(&w->diff_lock, memory_order_release);
        if (failed) return PF_OUT_OF_MEMORY;
    }
    pf__accel_ext *x = pf__ctx_ext(ctx, PF__EXT_ACCEL);
    if (!x) return PF_OUT_OF_MEMORY;
    /* the same accelerator again leaves a query and its path as they are: a query suspended with
     * its answer written and units still owed (SLICES) would otherwise answer with no path */
    if (x->acc != acc) {
        x->acc = acc;
        x->path_len = 0;
    }
    return PF_OK;
}

size_t pf_ctx_accel_mem_size(const pf_ctx *ctx)
{
    const pf__accel_ext *x = ctx ? pf__ctx_ext_get(ctx, PF__EXT_ACCEL) : NULL;
    if (!x) return 0;
    return sizeof *x + (x->parent ? (size_t)ctx->count * sizeof(uint32_t) : 0) +
           (size_t)x->seeds_cap * sizeof(pf__accel_seed) + (size_t)x->lcap * (2 * sizeof(uint32_t) + sizeof(double)) +
           ((size_t)x->path_cap + x->stk_cap + x->chain_cap) * sizeof(uint32_t) + (size_t)x->gh_cap * sizeof(pf__accel_gent) +
           (x->cr_block ? core_bytes(x->cr_count) + pf__open_bytes(x->cr_count) : 0) +
           (x->nr_block ? node_bytes(x->nr_count) + pf__open_bytes(x->nr_count) : 0) +
           (size_t)x->ccap * (sizeof(uint32_t) + sizeof(double));
}

/* Grows a u32 array to at least `need` entries (contents kept); 0 on allocation failure. */
PF__INLINE int grow_u32(pf_ctx *c, uint32_t **p, uint32_t *cap, uint64_t need)
{
    return pf__grow(&c->alloc, p, cap, need, sizeof(uint32_t), 256u, 0);
}

/* Writes the seeds of `cell` (the start's when fwd, else the goal's) into x->seeds from index
 * `at`; returns their number, UINT32_MAX on allocation failure. */
static uint32_t scan_seeds(pf_ctx *c, pf__accel_ext *x, uint32_t at, uint32_t cell, int fwd)
{
    const pf__grid_view v = pf__accel_prep_view(x->acc, c->map);
    const uint8_t *sub = x->acc->sub;
    if (sub[cell]) { /* a subgoal is its own only seed */
        if (at + 1u > x->seeds_cap &&
            !pf__grow_slow(&c->alloc, &x->seeds, &x->seeds_cap, (uint64_t)at + 1u, sizeof *x->seeds, 64u, 0))
            return UINT32_MAX;
        x->seeds[at] = (pf__accel_seed){cell, 0, 0};
        return 1;
    }
    /* room for a few before the first scan: x->seeds + at on a NULL array is undefined (UBSan) */
    if (at + 8u > x->seeds_cap &&
        !pf__grow_slow(&c->alloc, &x->seeds, &x->seeds_cap, (uint64_t)at + 8u, sizeof *x->seeds, 64u, 0))
        return UINT32_MAX;
    for (;;) {
        uint32_t room = x->seeds_cap - at;
        /* by the walks' table where there is one (accel_jumps.c): the same seeds */
        uint32_t n = x->acc->jump ? (fwd ? pf__accel_jump_fwd(x->acc, cell, x->seeds + at, room)
                                         : pf__accel_jump_bwd(x->acc, cell, x->seeds + at, room))
                                  : (fwd ? pf__accel_scan_fwd(&v, sub, cell, x->seeds + at, room)
                                         : pf__accel_scan_bwd(&v, sub, cell, x->seeds + at, room));
        if (n <= room) return n;
        /* pf__grow_slow, not pf__grow: the cold growth of put_arc's arrays stays specialised to them */
        if (!pf__grow_slow(&c->alloc, &x->seeds, &x->seeds_cap, (uint64_t)at + n, sizeof *x->seeds, 64u, 0))
            return UINT32_MAX;
    }
}

/* ---- the goal side's labels ------------------------------------------------------------------ */

PF__INLINE uint32_t label_slot(uint32_t cell, uint32_t mask) { return (uint32_t)(((uint64_t)cell * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & mask; }

static int labels_reset(pf_ctx *c, pf__accel_ext *x, uint32_t cap)
{
    if (cap > x->lcap) {
        pf__free(&c->alloc, x->lkey, (size_t)x->lcap * sizeof(uint32_t));
        pf__free(&c->alloc, x->lpar, (size_t)x->lcap * sizeof(uint32_t));
        pf__free(&c->alloc, x->lg, (size_t)x->lcap * sizeof(double));
        x->lkey = pf__alloc(&c->alloc, (size_t)cap * sizeof(uint32_t), 64);
        x->lpar = pf__alloc(&c->alloc, (size_t)cap * sizeof(uint32_t), 64);
        x->lg = pf__alloc(&c->alloc, (size_t)cap * sizeof(double), 64);
        x->lcap = cap;
        if (!x->lkey || !x->lpar || !x->lg) {
            pf__free(&c->alloc, x->lkey, (size_t)cap * sizeof(uint32_t));
            pf__free(&c->alloc, x->lpar, (size_t)cap * sizeof(uint32_t));
            pf__free(&c->alloc, x->lg, (size_t)cap * sizeof(double));
            x->lkey = x->lpar = NULL;
            x->lg = NULL;
            x->lcap = 0;
            return 0;
        }
    }
    memset(x->lkey, 0xFF, (size_t)x->lcap * sizeof(uint32_t));
    x->lcount = 0;
    return 1;
}

static int label_put(pf_ctx *c, pf__accel_ext *x, uint32_t cell, double g, uint32_t par)
{
    if (2u * (x->lcount + 1u) > x->lcap) { /* keep the table at most half full */
        uint32_t ocap = x->lcap, *okey = x->lkey, *opar = x->lpar;
        double *og = x->lg;
        x->lkey = x->lpar = NULL;
        x->lg = NULL;
        x->lcap = 0;
        int ok = labels_reset(c, x, ocap ? ocap * 2u : 1024u);
        for (uint32_t i = 0; ok && i < ocap; i++)
            if (okey[i] != PF_NODE_NONE) ok = label_put(c, x, okey[i], og[i], opar[i]);
        pf__free(&c->alloc, okey, (size_t)ocap * sizeof(uint32_t));
        pf__free(&c->alloc, opar, (size_t)ocap * sizeof(uint32_t));
        pf__free(&c->alloc, og, (size_t)ocap * sizeof(double));
        if (!ok) return 0;
    }
    uint32_t mask = x->lcap - 1u, i = label_slot(cell, mask);
    while (x->lkey[i] != PF_NODE_NONE) i = (i + 1u) & mask;
    x->lkey[i] = cell;
    x->lg[i] = g;
    x->lpar[i] = par;
    x->lcount++;
    return 1;
}

/* Slot of cell's label, or UINT32_MAX. */
PF__INLINE uint32_t label_find(const pf__accel_ext *x, uint32_t cell)
{
    uint32_t mask = x->lcap - 1u, i = label_slot(cell, mask);
    for (;;) {
        uint32_t k = x->lkey[i];
        if (k == cell) return i;
        if (k == PF_NODE_NONE) return UINT32_MAX;
        i = (i + 1u) & mask;
    }
}

/* The goal side's labels at core nodes into the table by core index (ckey, cg); 0 when out of
 * memory. Counted first: the table is sized for them alone, at most half full. */
static int core_labels_room(pf_ctx *c, pf__accel_ext *x, uint32_t cap)
{
    if (cap > x->ccap) {
        pf__free(&c->alloc, x->ckey, (size_t)x->ccap * sizeof(uint32_t));
        pf__free(&c->alloc, x->cg, (size_t)x->ccap * sizeof(double));
        x->ckey = pf__alloc(&c->alloc, (size_t)cap * sizeof(uint32_t), 64);
        x->cg = pf__alloc(&c->alloc, (size_t)cap * sizeof(double), 64);
        x->ccap = cap;
        if (!x->ckey || !x->cg) {
            pf__free(&c->alloc, x->ckey, (size_t)cap * sizeof(uint32_t));
            pf__free(&c->alloc, x->cg, (size_t)cap * sizeof(double));
            x->ckey = NULL;
            x->cg = NULL;
            x->ccap = x->ccount = 0;
            return 0;
        }
    }
    return 1;
}

static int core_labels(pf_ctx *c, pf__accel_ext *x)
{
    const pf_accel *acc = x->acc;
    uint32_t n = 0, cap = 64u;
    for (uint32_t i = 0; i < x->lcap; i++) n += x->lkey[i] != PF_NODE_NONE && acc->sub[x->lkey[i]] == 2;
    while (cap < 2u * n) cap *= 2u;
    if (!core_labels_room(c, x, cap)) return 0;
    /* the table is used at its full size (a bigger one from an earlier query: fewer probes) */
    memset(x->ckey, 0xFF, (size_t)x->ccap * sizeof(uint32_t));
    x->ccount = n;
    const uint32_t mask = x->ccap - 1u;
    for (uint32_t i = 0; n && i < x->lcap; i++) {
        uint32_t k = x->lkey[i];
        if (k == PF_NODE_NONE || acc->sub[k] != 2) continue;
        uint32_t ci = pf__accel_core_index(acc, k), j = label_slot(ci, mask);
        while (x->ckey[j] != PF_NODE_NONE) j = (j + 1u) & mask;
        x->ckey[j] = ci;
        x->cg[j] = x->lg[i];
    }
    return 1;
}

/* Slot of the label of core index ci, or UINT32_MAX. */
PF__INLINE uint32_t core_label_find(const pf__accel_ext *x, uint32_t ci)
{
    uint32_t mask = x->ccap - 1u, i = label_slot(ci, mask);
    for (;;) {
        uint32_t k = x->ckey[i];
        if (k == ci) return i;
        if (k == PF_NODE_NONE) return UINT32_MAX;
        i = (i + 1u) & mask;
    }
}

/* ---- the searches ---------------------------------------------------------------------------- */

/* The heuristic of v, whose core index is ci (PF_NODE_NONE: not in the core). */
PF__INLINE double aim_h_ci(const aim *t, uint32_t v, uint32_t ci)
{
    double h = pf__grid_metric(PF_HEUR_OCTILE, (int32_t)(v % t->pw) - t->x, (int32_t)(v / t->pw) - t->y);
    if (ci != PF_NODE_NONE) {
        const uint32_t *row = t->acc->lm_d + (size_t)ci * PF__ACCEL_LANDMARKS;
        double alt = 0.0;
        for (uint32_t j = 0; j < t->nl; j++) {
            double d = pf__accel_lm_dist(row[t->lm[j]]), up = d - t->ub[j], lo = t->lb[j] - d;
            alt = up > alt ? up : alt;
            alt = lo > alt ? lo : alt;
        }
        /* sums of doubles in a different order: shaved so rounding never overestimates; the
         * costs of different paths differ by far more than this (a + b sqrt(2), integers) */
        alt = alt * (1.0 - 1e-12) - 1e-7;
        h = alt > h ? alt : h;
    }
    return h;
}

/* The heuristic of a node outside the core (the searches up the contracted part): the octile
 * distance alone, or none. */
PF__INLINE double aim_h(const aim *t, uint32_t v)
{
    if (!t->on) return 0.0;
    return aim_h_ci(t, v, PF_NODE_NONE);
}

/* The landmark bounds of the start's side from the goal side's labels in the core (core_labels). */
static void aim_landmarks(const pf__accel_ext *x, aim *t)
{
    const pf_accel *acc = x->acc;
    t->acc = acc;
    t->nl = 0;
    if (!acc->lm_k) return;
    double ub[PF__ACCEL_LANDMARKS], lb[PF__ACCEL_LANDMARKS];
    for (uint32_t l = 0; l < PF__ACCEL_LANDMARKS; l++) ub[l] = INFINITY, lb[l] = -INFINITY;
    for (uint32_t i = 0; x->ccount && i < x->ccap; i++) {
        uint32_t k = x->ckey[i];
        if (k == PF_NODE_NONE) continue;
        const uint32_t *row = acc->lm_d + (size_t)k * PF__ACCEL_LANDMARKS;
        const double lg = x->cg[i];
        for (uint32_t l = 0; l < PF__ACCEL_LANDMARKS; l++) {
            if (row[l] == PF__ACCEL_LM_NONE || !acc->lm_ok[l]) continue;
            double d = pf__accel_lm_dist(row[l]);
            if (lg + d < ub[l]) ub[l] = lg + d;
            if (d - lg > lb[l]) lb[l] = d - lg;
        }
    }
    /* the landmarks whose octile distances to the start and the goal differ most: those lie
     * behind one end as seen from the other, where their bounds are tight */
    const uint32_t pw = t->pw, sx = x->sx, sy = x->sy;
    double score[PF__ACCEL_LANDMARKS];
    for (uint32_t l = 0; l < PF__ACCEL_LANDMARKS; l++) {
        int32_t lx = (int32_t)(acc->lm_cell[l] % pw), ly = (int32_t)(acc->lm_cell[l] / pw);
        double ds = pf__grid_metric(PF_HEUR_OCTILE, lx - (int32_t)sx, ly - (int32_t)sy);
        double dt = pf__grid_metric(PF_HEUR_OCTILE, lx - t->x, ly - t->y);
        score[l] = ub[l] < INFINITY ? fabs(ds - dt) : -1.0;
    }
    while (t->nl < PF__ACCEL_LANDMARKS_QUERY) {
        uint32_t best = 0;
        for (uint32_t l = 1; l < PF__ACCEL_LANDMARKS; l++)
            if (score[l] > score[best]) best = l;
        if (score[best] < 0.0) break;
        score[best] = -1.0;
        t->lm[t->nl] = best;
        t->ub[t->nl] = ub[best];
        t->lb[t->nl++] = lb[best];
    }
    /* a row is several cache lines: core_search prefetches the ones the picked landmarks lie in
     * (two or three: the landmarks behind the start and behind the goal are neighbours). Without
     * any row prefetch the 20 longest random-2000-20 queries ran 960-1115 us against 859-1026 us
     * (bench_jps, in turn); picking landmarks from at most two lines expanded 7% more, no faster */
    const uint32_t per_line = 64u / sizeof(uint32_t);
    t->nline = 0;
    for (uint32_t l = 0; l < PF__ACCEL_LANDMARKS; l += per_line) {
        int used = 0;
        for (uint32_t j = 0; j < t->nl; j++) used |= t->lm[j] / per_line == l / per_line;
        if (used) t->line[t->nline++] = l;
    }
}

/* The relaxation of y reached from `from` (PF_NODE_NONE: a seed) at cost ng through the shared one
 * (search/nodes_internal.h), the accelerator's parents written, the heuristic computed only for
 * a record it writes; 0 when the open list cannot grow. Closed nodes are not reopened: the keys
 * are consistent. Entries go straight onto the heap, not through the held entry: measured with
 * callgrind on rooms-2000, holding cost 0.6% more instructions here (a node's arcs lead up the
 * hierarchy to many nodes, seldom to the next one popped). */
PF__INLINE int reach(pf_ctx *c, uint32_t *par, const aim *t, uint32_t y, uint32_t from, double ng)
{
    uint32_t was = pf__nodes_admit(&c->nodes, y, ng, 0);
    if (!was) return 1;
    c->s.st.pushed += was == PF__WAS_NEW;
    double h = aim_h(t, y);
    return pf__nodes_put(&c->nodes, &c->open, NULL, y, was, ng, 0, par, from, ng + h, h, 1, 0);
}

/* The relaxation of core node y (core index) reached from `from` at cost ng, on the core's records
 * r and open list o: its heuristic computed when its record is first written in this query and
 * kept in ch (about 60% of the writes lower a record already open). The open list never grows. */
PF__INLINE void core_reach(pf_ctx *c, pf__nodes *r, pf__open *o, double *ch, const aim *t, const uint32_t *cell, uint32_t y,
                           uint32_t from, double ng)
{
    const uint32_t was = pf__nodes_admit(r, y, ng, 0);
    if (!was) return;
    c->s.st.pushed += was == PF__WAS_NEW;
    const double h = was == PF__WAS_NEW ? (ch[y] = aim_h_ci(t, cell[y], y)) : ch[y];
    (void)pf__nodes_put(r, o, NULL, y, was, ng, 0, r->parent, from, ng + h, h, 1, 0);
}

/* reach() on the start's side, whose search up the contracted part stops at the core: a core
 * node y becomes a seed of the A* across the core (core_search), on its records by core index
 * with the landmark heuristic tc; its record here gets its g too (never this open list), which
 * the stall test reads, and its parent here is `from`. */
PF__INLINE int reach_start(pf_ctx *c, pf__accel_ext *x, const aim *t, const aim *tc, uint32_t y, uint32_t from, double ng)
{
    if (x->acc->sub[y] != 2) return reach(c, x->parent, t, y, from, ng);
    if (!pf__nodes_admit(&c->nodes, y, ng, 0)) return 1;
    pf__nodes_set(&c->nodes, y, ng, 0);
    x->parent[y] = from;
    core_reach(c, &x->cr, &x->copen, x->ch, tc, x->acc->core_cell, pf__accel_core_index(x->acc, y), PF_NODE_NONE, ng);
    return 1;
}

/* One side's search up the contracted part begins from seeds[0..n) on the context's records (as
 * upward(), which runs it); PF_OK or PF_OUT_OF_MEMORY. */
static pf_status upward_seed(pf_ctx *c, pf__accel_ext *x, const pf__accel_seed *seeds, uint32_t n, const int fwd,
                             const aim *tp, const aim *tc)
{
    const aim t0 = {.on = 0}, *tt = fwd ? tp : &t0;
    pf__nodes_next_gen(&c->nodes);
    pf__open_reset(&c->open, PF_TIE_DEFAULT, 0); /* unused: tie keys are 0 (pf__nodes_put) */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = seeds[i].cell;
        double g = pf__accel_cost(seeds[i].a, seeds[i].b);
        if (!(fwd ? reach_start(c, x, tt, tc, v, PF_NODE_NONE, g) : reach(c, x->parent, tt, v, PF_NODE_NONE, g)))
            return PF_OUT_OF_MEMORY;
    }
    return PF_OK;
}

/*
 * One side's search up the contracted part of the hierarchy, from the seeds upward_seed put on the
 * context's records, for at most `budget` expansions (a sliced query resumes it from its open list
 * alone, as any search). The goal's side (fwd = 0) runs until its open list is empty and labels
 * every node it expands, the core nodes it reaches included (it does not expand those); the
 * start's side stops when its smallest key reaches mt->best, meeting the labels as it expands, and
 * hands the core nodes it reaches to the A* across the core as seeds (reach_start: t its
 * heuristic, tc the core's). Returns PF_OK, PF_IN_PROGRESS (the budget spent), PF_LIMIT_REACHED
 * (max_expansions) or PF_OUT_OF_MEMORY.
 */
PF__INLINE pf_status upward(pf_ctx *c, pf__accel_ext *x, uint32_t budget, const int fwd, meet *mt, const aim *tp,
                            const aim *tc)
{
    const pf_accel *acc = x->acc;
    const uint8_t *sub = acc->sub;
    const aim t0 = {.on = 0}, *tt = fwd ? tp : &t0;
    const uint32_t *first = acc->first;
    const pf__accel_arc *arcs = acc->arcs;
    uint32_t *par = x->parent;
    /* the goal's side runs until its open list is empty (the unbounded loop head's PF_NO_PATH),
     * the start's until the best meeting; fwd is a constant of each instance, so the goal's side
     * has no bound to read at each step */
    pf_status ret;
    for (;;) {
        uint32_t v = pf__bf_next_bounded(c, NULL, &budget, &ret, fwd, fwd ? &mt->best : NULL);
        if (v == PF_NODE_NONE) break;
        c->s.st.expanded++;
        const double gv = c->g[v];
        if (fwd && x->lcount) {
            uint32_t k = label_find(x, v);
            if (k != UINT32_MAX && gv + x->lg[k] < mt->best) {
                mt->best = gv + x->lg[k];
                mt->node = v;
            }
        }
        const pf__accel_arc *a = arcs + first[v], *e = arcs + first[v + 1];
        /* the records of v's neighbours are scattered over the map's cells: their loads start
         * together here, not one miss after another in the loops below. Most nodes reached are
         * expanded in turn (the goal's side expands all it reaches): their arc ranges are fetched
         * with their records; the start's side tells the core nodes among them by acc->sub */
        for (const pf__accel_arc *p = a; p < e; p++) {
            PF__PREFETCH(&c->nodes.stamp[p->to]);
            PF__PREFETCH(&c->nodes.g[p->to]);
            PF__PREFETCH(&first[p->to]);
            if (fwd) PF__PREFETCH(&sub[p->to]);
        }
        /* stalled: a higher neighbour already reached reaches v more cheaply, so v's distance is
         * not a shortest one and nothing above it can be reached best through it (the relative
         * margin keeps a tie, summed in a different order, from looking like an improvement).
         * The start's side never expands a core node here (core_search does, without the test:
         * it crosses the core as an A* with a consistent heuristic, expanding a node at its
         * shortest distance; on random-2000-20 the test stalled 1,497 of 723,158 expansions there
         * while reading every arc twice). */
        const int vcore = !fwd && sub[v] == 2;
        int stalled = 0;
        for (const pf__accel_arc *p = a; p < e && !stalled && !vcore; p++)
            stalled = pf__nodes_live(&c->nodes, p->to) && c->g[p->to] + pf__accel_cost(p->a, p->b) < gv * (1.0 - 1e-12);
        if (stalled) continue;
        if (!fwd && !label_put(c, x, v, gv, par[v])) return PF_OUT_OF_MEMORY;
        if (vcore) continue; /* the goal's side stops at the core: the start's crosses it */
        for (const pf__accel_arc *p = a; p < e; p++) {
            const double ng = gv + pf__accel_cost(p->a, p->b);
            if (!(fwd ? reach_start(c, x, tt, tc, p->to, v, ng) : reach(c, par, tt, p->to, v, ng))) return PF_OUT_OF_MEMORY;
        }
    }
    return !fwd && ret == PF_NO_PATH ? PF_OK : ret;
}

/*
 * The start side's A* across the core from the seeds upward() put on its records (x->cr, by core
 * index), towards the goal by t (the octile distance and the landmark bounds through the goal
 * side's labels in the core), meeting those labels as it expands, until its smallest key reaches
 * mt->best. It is the loop of pf__bf_next_bounded one level down, on records of its own (as
 * accel_build.c's witness searches): the same pieces (pf__nodes_take, pf__nodes_admit,
 * pf__nodes_put), the same ends (the bound, the step's budget, max_expansions, the trace). Every
 * core node's list holds all its arcs, to core nodes only, and acc->core_arc holds them by core
 * index. Returns PF_OK, PF_IN_PROGRESS (`budget` expansions done) or PF_LIMIT_REACHED.
 */
static pf_status core_search(pf_ctx *c, pf__accel_ext *x, meet *mt, const aim *tp, uint32_t budget)
{
    /* the heuristic on the stack: read through a pointer that the relaxations' stores may alias,
     * its fields were read again at every relaxation (callgrind: 3% more instructions a query on
     * random-2000-20 than with the copy, as when it was the caller's local) */
    const aim tl = *tp, *t = &tl;
    const pf_accel *acc = x->acc;
    pf__search *s = &c->s;
    pf__nodes *r = &x->cr;
    pf__open *o = &x->copen;
    const uint32_t *cell = acc->core_cell, *lm_first = acc->lm_first;
    const pf__accel_carc *core_arc = acc->core_arc;
    double *ch = x->ch;
    for (;;) {
        if (!o->size || o->heap[0].fkey >= pf__fkey(mt->best)) return PF_OK;
        if (budget-- == 0) return PF_IN_PROGRESS; /* resumed from its open list alone */
        /* as the loop head's: the goal coming off the open list is not an expansion */
        if (s->d.max_expansions && s->st.expanded >= s->d.max_expansions && cell[o->heap[0].node] != s->goal)
            return PF_LIMIT_REACHED;
        const uint32_t v = pf__nodes_take(r, o, NULL), vc = cell[v];
        if (s->trace) {
            pf_trace *tr = s->trace;
            if (tr->len < tr->capacity) tr->nodes[tr->len++] = pf__map_outer(c->map, vc);
            tr->total++;
        }
        s->st.expanded++;
        const double gv = r->g[v];
        if (x->ccount) {
            uint32_t k = core_label_find(x, v);
            if (k != UINT32_MAX && gv + x->cg[k] < mt->best) {
                mt->best = gv + x->cg[k];
                mt->node = vc;
                mt->ci = v;
            }
        }
        const pf__accel_carc *a = core_arc + lm_first[v], *e = core_arc + lm_first[v + 1u];
        /* the loads of the neighbours' records and landmark rows start together */
        for (const pf__accel_carc *p = a; p < e; p++) {
            PF__PREFETCH(&r->stamp[p->to]);
            PF__PREFETCH(&r->g[p->to]);
            const uint32_t *row = acc->lm_d + (size_t)p->to * PF__ACCEL_LANDMARKS;
            for (uint32_t k = 0; k < t->nline; k++) PF__PREFETCH(row + t->line[k]);
        }
        for (const pf__accel_carc *p = a; p < e; p++) {
            const uint32_t y = p->to;
            /* most arcs lead back into the expanded band: no cost to compute for those */
            if (pf__nodes_settled(r, y)) continue;
            double ng;
            if (PF__LIKELY(p->ab != PF__ACCEL_CARC_FAR)) {
                ng = gv + pf__accel_cost(p->ab & 0xFFFFu, p->ab >> 16);
            } else {
                const pf__accel_arc *far = acc->arcs + acc->first[vc] + (p - a);
                ng = gv + pf__accel_cost(far->a, far->b);
            }
            core_reach(c, r, o, ch, t, cell, y, v, ng);
        }
    }
}

/* The two sides, out of line: each side's loop is compiled once, for its own fwd. */
static pf_status upward_goal(pf_ctx *c, pf__accel_ext *x, uint32_t budget)
{
    return upward(c, x, budget, 0, &x->mt, NULL, NULL);
}

/* The start's, up the contracted part (an A* by the octile distance alone, x->at: no node there
 * has a landmark row); its core nodes reached are seeds of core_search (x->atc). */
static pf_status upward_start(pf_ctx *c, pf__accel_ext *x, uint32_t budget)
{
    const aim t = x->at, tc = x->atc; /* on the stack: as core_search's */
    return upward(c, x, budget, 1, &x->mt, &t, &tc);
}

/* The start's side begins: its seeds, its heuristics (x->at, and x->atc with the landmarks that
 * the goal side's labels in the core pick), its records up the contracted part and in the core. */
static pf_status start_side_core_begin(pf_ctx *c, pf__accel_ext *x)
{
    const uint32_t pw = c->map->pw, nf = scan_seeds(c, x, 0, c->s.start, 1);
    if (nf == UINT32_MAX) return PF_OUT_OF_MEMORY;
    x->at = (aim){.pw = pw, .x = (int32_t)(c->s.goal % pw), .y = (int32_t)(c->s.goal / pw), .on = 1, .acc = x->acc};
    x->sx = c->s.start % pw;
    x->sy = c->s.start / pw;
    if (!core_make(c, x)) return PF_OUT_OF_MEMORY;
    x->atc = x->at;
    aim_landmarks(x, &x->atc);
    pf__nodes_next_gen(&x->cr);
    pf__open_reset(&x->copen, PF_TIE_DEFAULT, 0); /* unused: tie keys are 0 (pf__nodes_put) */
    return upward_seed(c, x, x->seeds, nf, 1, &x->at, &x->atc);
}

/* ---- both sides at once, on a hierarchy without a core ----------------------------------------- */

/* The goal side's heap: (key, node) ordered, so the pop order is the same on every run (and the
 * same as by cell: nodes are numbered in the order of their cells). */
PF__INLINE int gent_less(const pf__accel_gent *a, const pf__accel_gent *b)
{
    return a->key < b->key || (a->key == b->key && a->node < b->node);
}

static int gh_push(pf_ctx *c, pf__accel_ext *x, double key, double g, uint32_t node)
{
    if (x->gh_n + 1u > x->gh_cap &&
        !pf__grow_slow(&c->alloc, &x->gh, &x->gh_cap, (uint64_t)x->gh_n + 1u, sizeof *x->gh, 256u, 0))
        return 0;
    pf__accel_gent e = {key, g, node}, *h = x->gh;
    uint32_t i = x->gh_n++;
    while (i) {
        uint32_t up = (i - 1u) / 2u;
        if (!gent_less(&e, &h[up])) break;
        h[i] = h[up];
        i = up;
    }
    h[i] = e;
    return 1;
}

static pf__accel_gent gh_pop(pf__accel_ext *x)
{
    pf__accel_gent *h = x->gh, top = h[0], e = h[--x->gh_n];
    uint32_t i = 0, n = x->gh_n;
    for (;;) {
        uint32_t k = 2u * i + 1u;
        if (k >= n) break;
        if (k + 1u < n && gent_less(&h[k + 1u], &h[k])) k++;
        if (!gent_less(&h[k], &e)) break;
        h[i] = h[k];
        i = k;
    }
    if (n) h[i] = e;
    return top;
}

/* The octile distance from node y to (tx, ty). */
PF__INLINE double node_h(const pf_accel *acc, uint32_t y, int32_t tx, int32_t ty)
{
    const pf__accel_nxy p = acc->node_xy[y];
    return pf__grid_metric(PF_HEUR_OCTILE, p.x - tx, p.y - ty);
}

/* The start side reaches node y from `from` (PF_NODE_NONE: a seed) at cost ng, an A* towards the
 * goal (tx, ty); 0 when the open list cannot grow (cannot happen: it holds every node).
 * Pruned: a key at or above the best meeting is never expanded (the side stops there), and no
 * meeting through y can beat it: the other side's g at y is the cost of a path from y to the
 * goal, at least h. So y is neither recorded nor pushed (on rooms-2000 most relaxations come after
 * the first meeting); a lower g reaching it later records it then. */
PF__INLINE int start_reach(pf_ctx *c, pf__accel_ext *x, uint32_t y, uint32_t from, double ng, int32_t tx, int32_t ty,
                           const meet *mt)
{
    const double h = node_h(x->acc, y, tx, ty);
    if (ng + h >= mt->best) return 1;
    uint32_t was = pf__nodes_admit(&x->nr, y, ng, 0);
    if (!was) return 1;
    c->s.st.pushed += was == PF__WAS_NEW;
    return pf__nodes_put(&x->nr, &x->nopen, NULL, y, was, ng, 0, x->nr.parent, from, ng + h, h, 1, 0);
}

/* The goal side reaches node y from `from` (PF_NODE_NONE: a seed) at cost ng: its label is made or
 * lowered, and it goes on the heap keyed by ng + the octile distance to the start (sx, sy); 0 when
 * out of memory. Pruned at the best meeting as start_reach. */
static int goal_reach(pf_ctx *c, pf__accel_ext *x, uint32_t y, uint32_t from, double ng, int32_t sx, int32_t sy, const meet *mt)
{
    pf__nodes *r = &x->gr;
    const double key = ng + node_h(x->acc, y, sx, sy);
    if (key >= mt->best) return 1;
    if (pf__nodes_live(r, y) && !(ng < r->g[y])) return 1;
    pf__nodes_set(r, y, ng, 0);
    r->parent[y] = from;
    return gh_push(c, x, key, ng, y);
}

/* Asks for node v's arc list (its targets and costs). */
PF__INLINE void prefetch_arcs(const pf_accel *acc, uint32_t v)
{
    const uint32_t a = acc->node_first[v], e = acc->node_first[v + 1u];
    if (a == e) return;
    PF__PREFETCH(&acc->node_to[a]);
    PF__PREFETCH(&acc->node_to[e - 1u]);
    PF__PREFETCH(&acc->node_cost[a]);
    PF__PREFETCH(&acc->node_cost[e - 1u]);
}

/* The start side's records begin anew with its seeds, an A* towards the goal (tx, ty); PF_OK, or
 * PF_INVALID_ARGUMENT / PF_OUT_OF_MEMORY (cannot happen: a seed is a subgoal, the open list holds
 * every node). */
static pf_status start_side_begin(pf_ctx *c, pf__accel_ext *x, const pf__accel_seed *sseeds, uint32_t nf, int32_t tx,
                                  int32_t ty, const meet *mt)
{
    pf__nodes_next_gen(&x->nr);
    pf__open_reset(&x->nopen, PF_TIE_DEFAULT, 0); /* unused: tie keys are 0 (pf__nodes_put) */
    for (uint32_t i = 0; i < nf; i++) {
        const uint32_t y = pf__accel_node_of(x->acc, sseeds[i].cell);
        if (y == PF_NODE_NONE) return PF_INVALID_ARGUMENT;
        if (!start_reach(c, x, y, PF_NODE_NONE, pf__accel_cost(sseeds[i].a, sseeds[i].b), tx, ty, mt)) return PF_OUT_OF_MEMORY;
    }
    return PF_OK;
}

/* The goal side's labels begin anew with its seeds, keyed towards the start (sx, sy). */
static pf_status goal_side_begin(pf_ctx *c, pf__accel_ext *x, const pf__accel_seed *gseeds, uint32_t ng_, int32_t sx,
                                 int32_t sy, const meet *mt)
{
    pf__nodes_next_gen(&x->gr);
    x->gh_n = 0;
    for (uint32_t i = 0; i < ng_; i++) {
        const uint32_t y = pf__accel_node_of(x->acc, gseeds[i].cell);
        if (y == PF_NODE_NONE) return PF_INVALID_ARGUMENT;
        if (!goal_reach(c, x, y, PF_NODE_NONE, pf__accel_cost(gseeds[i].a, gseeds[i].b), sx, sy, mt)) return PF_OUT_OF_MEMORY;
    }
    return PF_OK;
}

/* One expansion of the start side, meeting the goal side's labels: PF_IN_PROGRESS, PF_OK once its
 * smallest key reaches the best meeting, PF_LIMIT_REACHED (max_expansions), PF_OUT_OF_MEMORY. */
PF__INLINE pf_status start_side_step(pf_ctx *c, pf__accel_ext *x, int32_t tx, int32_t ty, meet *mt)
{
    const pf_accel *acc = x->acc;
    const uint32_t *first = acc->node_first, *cell = acc->node_cell, *to = acc->node_to;
    const double *cost = acc->node_cost;
    pf__search *s = &c->s;
    pf__nodes *nr = &x->nr, *gr = &x->gr;
    pf__open *o = &x->nopen;
    /* the loop head of pf__bf_next_bounded on these records: the bound, max_expansions (the goal
     * coming off the list is not an expansion), the trace */
    if (!o->size || o->heap[0].fkey >= pf__fkey(mt->best)) return PF_OK;
    if (s->d.max_expansions && s->st.expanded >= s->d.max_expansions && cell[o->heap[0].node] != s->goal)
        return PF_LIMIT_REACHED;
    const uint32_t v = pf__nodes_take(nr, o, NULL), vc = cell[v];
    if (s->trace) {
        pf_trace *tr = s->trace;
        if (tr->len < tr->capacity) tr->nodes[tr->len++] = pf__map_outer(c->map, vc);
        tr->total++;
    }
    s->st.expanded++;
    const double gv = nr->g[v];
    if (pf__nodes_live(gr, v) && gv + gr->g[v] < mt->best) {
        mt->best = gv + gr->g[v];
        mt->node = vc;
    }
    const uint32_t a = first[v], e = first[v + 1u];
    for (uint32_t q = a; q < e; q++) {
        PF__PREFETCH(&nr->stamp[to[q]]);
        PF__PREFETCH(&nr->g[to[q]]);
        PF__PREFETCH(&first[to[q]]);
        PF__PREFETCH(&acc->node_xy[to[q]]);
    }
    /* stalled: as in upward() */
    int stalled = 0;
    for (uint32_t q = a; q < e && !stalled; q++)
        stalled = pf__nodes_live(nr, to[q]) && nr->g[to[q]] + cost[q] < gv * (1.0 - 1e-12);
    for (uint32_t q = a; q < e && !stalled; q++)
        if (!start_reach(c, x, to[q], v, gv + cost[q], tx, ty, mt)) return PF_OUT_OF_MEMORY;
    return PF_IN_PROGRESS;
}

/* One expansion of the goal side (stale heap entries skipped), meeting the start side's records:
 * as start_side_step. */
PF__INLINE pf_status goal_side_step(pf_ctx *c, pf__accel_ext *x, int32_t sx, int32_t sy, meet *mt)
{
    const pf_accel *acc = x->acc;
    const uint32_t *first = acc->node_first, *cell = acc->node_cell, *to = acc->node_to;
    const double *cost = acc->node_cost;
    pf__search *s = &c->s;
    pf__nodes *nr = &x->nr, *gr = &x->gr;
    for (;;) {
        if (!x->gh_n || x->gh[0].key >= mt->best) return PF_OK;
        if (s->d.max_expansions && s->st.expanded >= s->d.max_expansions) return PF_LIMIT_REACHED;
        const pf__accel_gent top = gh_pop(x);
        const uint32_t v = top.node, vc = cell[v];
        const double gv = top.g;
        if (gr->g[v] < gv) continue; /* stale: lowered since it was pushed */
        s->st.expanded++;
        if (pf__nodes_live(nr, v) && gv + nr->g[v] < mt->best) {
            mt->best = gv + nr->g[v];
            mt->node = vc;
        }
        const uint32_t a = first[v], e = first[v + 1u];
        for (uint32_t q = a; q < e; q++) {
            PF__PREFETCH(&gr->stamp[to[q]]);
            PF__PREFETCH(&gr->g[to[q]]);
            PF__PREFETCH(&acc->node_xy[to[q]]);
        }
        int stalled = 0;
        for (uint32_t q = a; q < e && !stalled; q++)
            stalled = pf__nodes_live(gr, to[q]) && gr->g[to[q]] + cost[q] < gv * (1.0 - 1e-12);
        for (uint32_t q = a; q < e && !stalled; q++)
            if (!goal_reach(c, x, to[q], v, gv + cost[q], sx, sy, mt)) return PF_OUT_OF_MEMORY;
        return PF_IN_PROGRESS;
    }
}

/*
 * The two upward searches interleaved, one expansion each in turn, each an A* towards the other
 * end that stops once its smallest key reaches the best meeting: on a hierarchy without a core the
 * goal's side need not run dry first (rooms-2000: it made 45% of a query's instructions, twice the
 * start's). Both run on records by node index (accel_nodes.c): the start's on x->nr and its open
 * list, the goal's labels (g and parent) on x->gr, its open list its own heap. A meeting is tested
 * as each side expands a node, against the other side's g whether final or not (each is the cost of
 * a path): the optimal up-down path's top node has a key below any larger best on both sides, so
 * the second side to expand it finds the first's final g there. Every heuristic is the octile
 * distance (consistent): no node is expanded twice. x->mt.node is the meeting's cell.
 * both_ways_begin seeds the two sides (PF_OK, or an error); both_ways runs them for at most
 * `budget` expansions, the side whose turn is next kept in x->turn: PF_OK, PF_IN_PROGRESS,
 * PF_LIMIT_REACHED (max_expansions) or PF_OUT_OF_MEMORY.
 */
static pf_status both_ways_begin(pf_ctx *c, pf__accel_ext *x, uint32_t ng_, uint32_t nf)
{
    pf__search *s = &c->s;
    const uint32_t pw = c->map->pw;
    const int32_t tx = (int32_t)(s->goal % pw), ty = (int32_t)(s->goal / pw);
    const int32_t sx = (int32_t)(s->start % pw), sy = (int32_t)(s->start / pw);
    if (!node_make(c, x)) return PF_OUT_OF_MEMORY;
    /* the context's own records are not searched, but begin anew as after any search: the goal's
     * record gets the cost (pf__accel_step) and no other is live */
    pf__nodes_next_gen(&c->nodes);
    pf__open_reset(&c->open, PF_TIE_DEFAULT, 0);
    pf_status ss = start_side_begin(c, x, x->seeds + ng_, nf, tx, ty, &x->mt);
    pf_status gs = ss == PF_OK ? goal_side_begin(c, x, x->seeds, ng_, sx, sy, &x->mt) : ss;
    if (gs != PF_OK) return gs;
    x->ss = x->gs = PF_IN_PROGRESS;
    x->turn = 0;
    return PF_OK;
}

static pf_status both_ways(pf_ctx *c, pf__accel_ext *x, uint32_t budget)
{
    pf__search *s = &c->s;
    const uint32_t pw = c->map->pw, e0 = s->st.expanded;
    const int32_t tx = (int32_t)(s->goal % pw), ty = (int32_t)(s->goal / pw);
    const int32_t sx = (int32_t)(s->start % pw), sy = (int32_t)(s->start / pw);
    meet *mt = &x->mt;
    /* the sides' states in locals, kept in x between steps (in x alone, they were read again
     * after every store of a step: 2% more instructions a query on rooms-2000, callgrind) */
    pf_status ss = x->ss, gs = x->gs, ret = PF_OK;
    int turn = x->turn;
    while (ss == PF_IN_PROGRESS || gs == PF_IN_PROGRESS) {
        if (s->st.expanded - e0 >= budget) { /* a side's step expands one node or none */
            ret = PF_IN_PROGRESS;
            break;
        }
        if (!turn) {
            /* the arc lists of the node each side takes next, asked for a turn ahead: the other
             * side's expansion runs meanwhile (a side's next node is known once its own turn has
             * relaxed). Read when taken they missed the cache (node_to and node_cost, 1.3 MB on
             * rooms-2000): 15% of a query's time (perf) */
            if (gs == PF_IN_PROGRESS && x->gh_n) prefetch_arcs(x->acc, x->gh[0].node);
            if (ss == PF_IN_PROGRESS && (ss = start_side_step(c, x, tx, ty, mt)) != PF_IN_PROGRESS && ss != PF_OK) {
                ret = ss;
                break;
            }
            if (ss == PF_IN_PROGRESS && x->nopen.size) prefetch_arcs(x->acc, x->nopen.heap[0].node);
            turn = 1;
        } else {
            if (gs == PF_IN_PROGRESS && (gs = goal_side_step(c, x, sx, sy, mt)) != PF_IN_PROGRESS && gs != PF_OK) {
                ret = gs;
                break;
            }
            turn = 0;
        }
    }
    x->ss = ss;
    x->gs = gs;
    x->turn = turn;
    return ret;
}

/* ---- the path -------------------------------------------------------------------------------- */

/* Cells of the path a query writes per unit of its work (SLICES, below). Writing a cell costs
 * about 35 instructions (unpacking shortcuts and put_cp, maze-2000-w4); an expansion of the
 * query's searches a few hundred (up the contracted part) to a few thousand (across the core, its
 * landmark bounds), one of A* on a grid about 250: 16 cells cost about as much as the searches'
 * cheapest expansions, so that a budget in units bounds a maze's 100,000-cell path (6,250 units)
 * about as it bounds the searches. */
#define PF__ACCEL_PATH_UNIT 16u

/* The path's units so far: its cells written (put_cp lowers fill), PF__ACCEL_PATH_UNIT a unit. */
PF__INLINE void path_work(pf_ctx *c, const pf__accel_ext *x)
{
    c->s.work = (x->total - x->fill) / PF__ACCEL_PATH_UNIT;
}

/* pf__accel_cp_legal on the prep map pv, by the walks' table where there is one (accel_jumps.c):
 * the start's and the goal's canonical paths (direct, write_path) cost a read a step without it. */
PF__INLINE int cp_legal(const pf_accel *acc, const pf__grid_view *pv, uint32_t from, uint32_t to, uint32_t *a, uint32_t *b)
{
    return acc->jump ? pf__accel_jump_cp_legal(acc, from, to, a, b) : pf__accel_cp_legal(pv, from, to, a, b);
}

/* The arc between a and b in owner's list (owner is the lower of the two); NULL when absent. */
static const pf__accel_arc *arc_between(const pf_accel *acc, uint32_t owner, uint32_t other)
{
    const pf__accel_arc *p = acc->arcs + acc->first[owner], *e = acc->arcs + acc->first[owner + 1];
    for (; p < e; p++)
        if (p->to == other) return p;
    return NULL;
}

/* Writes the cells after `from` up to `to` of the canonical path between them (from -> to when
 * `forward`, else the reverse of to -> from) goal first, into their places in x->path: `from` is
 * `d` steps from the start, or `to` is when `at_to` (the path's length is then known only here,
 * from the two cells). The path is written in place, its length known before (write_path,
 * direct): no reversal afterwards, and a backward segment is generated straight into its place
 * instead of reversed and moved (on maze-2000-w4 writing the paths' cells is most of a query).
 * Lowers x->fill, the steps not written yet; 0 when the segment does not lie within the path
 * (cannot happen: the loader checks every shortcut's steps against its halves'). */
static int put_cp(pf_ctx *c, pf__accel_ext *x, uint32_t from, uint32_t to, int forward, uint64_t d, int at_to)
{
    const pf_map *m = c->map;
    const uint32_t pw = m->pw;
    const int32_t fx = (int32_t)(from % pw), fy = (int32_t)(from / pw), tx = (int32_t)(to % pw), ty = (int32_t)(to / pw);
    const int32_t dx = tx - fx, dy = ty - fy;
    const uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx), ay = (uint32_t)(dy < 0 ? -dy : dy);
    /* pf__accel_cp_shape's path: nd diagonal steps, then ns along the longer axis */
    const uint32_t nd = ax < ay ? ax : ay, ns = ax > ay ? ax - ay : ay - ax;
    const uint32_t steps = nd + ns;
    if (!steps) return 1;
    if (at_to) {
        if (d < steps) return 0;
        d -= steps;
    }
    /* path[total - d] is `from`'s place; the cells go just below it */
    if (d + steps > x->total || steps > x->fill) return 0;
    /* on an edited map: the canonical path walked the way it is legal on the prep map */
    if (x->check && x->clear)
        x->clear = forward ? pf__accel_diff_cp_clear(x->acc, pw, from, to) : pf__accel_diff_cp_clear(x->acc, pw, to, from);
    /* out[0 .. steps) runs from `to` back to the cell after `from`: the reverse of from -> to is its
     * straight steps back, then its diagonal ones; to -> from (the canonical path from `to`) takes
     * its diagonal steps first. Public ids step by the signs of dx and dy (dy's times the width)
     * from `to`'s id, which the divisions above give: `from` may not be written yet (put_arcs), and
     * the steps need no table (a segment is 5.4 cells on average on maze-2000-w4: its set-up counts) */
    uint32_t *out = x->path + (x->total - d - steps);
    const int64_t w = (int64_t)m->width;
    const int64_t ux = (dx > 0) - (dx < 0), uy = ((dy > 0) - (dy < 0)) * w;
    const int64_t sd = ux + uy, ss = ax > ay ? ux : uy;
    int64_t id = (int64_t)(ty - 1) * w + (tx - 1);
    const uint32_t n1 = forward ? ns : nd;
    const int64_t s1 = forward ? ss : sd, s2 = forward ? sd : ss;
    out[0] = (uint32_t)id;
    uint32_t i = 1;
    for (; i <= n1; i++) out[i] = (uint32_t)(id -= s1);
    for (; i < steps; i++) out[i] = (uint32_t)(id -= s2);
    x->fill -= steps;
    return 1;
}

/* Index of the arc between owner and other in owner's list (owner the lower of the two). */
PF__INLINE uint32_t arc_at(const pf_accel *acc, const pf__accel_arc *arc) { return (uint32_t)(arc - acc->arcs); }

/* Queue entries of put_arcs naming an arc of the subgoal graph by the way its canonical path is
 * written: from -> to (FWD), or the reverse of to -> from (BWD). Arc indices stay below them: a
 * build makes at most UINT32_MAX - 1 arcs, and a file of more would hold 64 GB of them. */
#define LEAF_FWD 0xFFFFFFFFu
#define LEAF_BWD 0xFFFFFFFEu
/* Words of a queue entry: from, to, arc index, d, at_to (put_cp's). */
#define QW 5u
/* put_arcs asks for the records of the arc this many entries ahead of the one it unpacks: asked for
 * when queued instead, a record waited behind a whole level of the queue (thousands of arcs on a
 * long maze path) and was often out of the cache again when read (the 20 longest maze-2000-w4
 * queries, one thread, caches flushed: 12.2 against 11.5 ms; 8 to 64 ahead measure alike). A
 * shorter queue has its last entry asked for: rooms-2000's paths unpack into a few dozen shortcuts,
 * a queue never 32 long, whose arc reads were all cold (14% of a query's time, perf; 8% faster
 * with it, the maze within 1%, best of 3 passes over 200 queries in turn) */
#define PF__UNPACK_AHEAD 32u

/* The queue entry of the half k (held by the middle node v, its bits hb in acc->halves) walked
 * from `from` to `to`: LEAF_* for an arc of the subgoal graph (no need to read it), else k. */
PF__INLINE uint32_t half_entry(uint32_t k, uint32_t hb, uint32_t v, uint32_t from)
{
    if (!(hb & PF__ACCEL_HALF_GRAPH)) return k;
    /* legal from its owner v: forward when walked from v */
    return ((hb & PF__ACCEL_HALF_SRC) != 0) == (v == from) ? LEAF_FWD : LEAF_BWD;
}

/* Appends the arc from -> to (arc index i) placed as put_cp's d and at_to says to put_arcs' queue,
 * x->stk[head .. *tail); a leaf is written at once. The queue moves down to the array's start
 * before it grows, when more than half of it is consumed. */
PF__INLINE int queue_arc(pf_ctx *c, pf__accel_ext *x, uint32_t *head, uint32_t *tail, uint32_t from, uint32_t to,
                         uint32_t i, uint64_t d, int at_to)
{
    if (i >= LEAF_BWD) return put_cp(c, x, from, to, i == LEAF_FWD, d, at_to);
    if (d > UINT32_MAX) return 0; /* cannot happen: total < UINT32_MAX (write_path) */
    if (*tail + QW > x->stk_cap) {
        if (*head != 0 && *head >= x->stk_cap / 2u) { /* head 0: nothing to move, and stk may be NULL */
            memmove(x->stk, x->stk + *head, (size_t)(*tail - *head) * sizeof(uint32_t));
            *tail -= *head;
            *head = 0;
        }
        if (!grow_u32(c, &x->stk, &x->stk_cap, (uint64_t)*tail + QW)) return -1;
    }
    uint32_t *e = x->stk + *tail;
    e[0] = from;
    e[1] = to;
    e[2] = i;
    e[3] = (uint32_t)d;
    e[4] = (uint32_t)at_to;
    *tail += QW;
    return 1;
}

/* Writes (put_cp) the cells of the arcs queued in x->stk[x->head .. x->tail), unpacking shortcuts
 * into their halves (acc->down and acc->halves, else a scan of the middle's list), until the cells
 * of the path written reach `upto` (PF_IN_PROGRESS, read between entries: the queue, in x, is
 * all a later call needs) or the queue is empty (PF_OK). Breadth first, each arc
 * placed by its own length (a + b) from the end its parent fixes: the arcs waiting in the queue
 * are independent, so their records' cache misses overlap. Unpacked depth first (a stack, cells in
 * order), each shortcut's halves were found only after its own record arrived, one miss after the
 * other: on maze-2000-w4 that load was 64% of the unpacking's samples (perf). */
static pf_status put_arcs(pf_ctx *c, pf__accel_ext *x, uint64_t upto)
{
    const pf_accel *acc = x->acc;
    const pf__accel_arc *arcs = acc->arcs;
    const uint32_t *down = acc->down;
    const uint8_t *halves = acc->halves;
    uint32_t head = x->head, tail = x->tail;
    while (head < tail) {
        if ((uint64_t)(x->total - x->fill) >= upto) {
            x->head = head;
            x->tail = tail;
            return PF_IN_PROGRESS;
        }
        const uint32_t *e = x->stk + head;
        const uint32_t ahead = tail - head > PF__UNPACK_AHEAD * QW ? PF__UNPACK_AHEAD * QW : tail - head - QW;
        const uint32_t k = e[ahead + 2u];
        PF__PREFETCH(&arcs[k]);
        PF__PREFETCH(&down[k]);
        PF__PREFETCH(&halves[k]);
        const uint32_t from = e[0], to = e[1], i = e[2], at_to = e[4];
        uint64_t d = e[3];
        head += QW;
        const pf__accel_arc *arc = arcs + i;
        const uint64_t steps = (uint64_t)arc->a + arc->b;
        if (at_to) {
            if (d < steps) return PF_INVALID_ARGUMENT; /* cannot happen: as in put_cp */
            d -= steps;
        }
        /* the arc's ends are its owner and arc->to */
        const uint32_t own = arc->to == to ? from : to;
        int ok;
        if (arc->mid < PF__ACCEL_FROM_DST) {
            /* the halves mid -> own and mid -> arc->to */
            const uint32_t v = arc->mid, dn = down[i];
            uint32_t e_from, e_to;
            if (dn != PF__ACCEL_DOWN_NONE) {
                const uint32_t k_own = dn & PF__ACCEL_DOWN_MASK, k_oth = k_own + (dn >> PF__ACCEL_DOWN_SHIFT) - 128u;
                const uint32_t h_own = halves[i] & 3u, h_oth = (uint32_t)halves[i] >> 2;
                /* from -> v is the owner's half when the walk starts at the owner */
                e_from = own == from ? half_entry(k_own, h_own, v, from) : half_entry(k_oth, h_oth, v, from);
                e_to = own == from ? half_entry(k_oth, h_oth, v, v) : half_entry(k_own, h_own, v, v);
            } else {
                const pf__accel_arc *h0 = arc_between(acc, v, own), *h1 = arc_between(acc, v, arc->to);
                if (!h0 || !h1) return PF_INVALID_ARGUMENT; /* cannot happen: creation and loading check it */
                e_from = own == from ? arc_at(acc, h0) : arc_at(acc, h1);
                e_to = own == from ? arc_at(acc, h1) : arc_at(acc, h0);
            }
            /* from -> v starts where the arc starts, v -> to ends where it ends */
            ok = queue_arc(c, x, &head, &tail, from, v, e_from, d, 0);
            if (ok > 0) ok = queue_arc(c, x, &head, &tail, v, to, e_to, d + steps, 1);
        } else {
            /* an arc of the subgoal graph: its canonical path is legal from the owner (FROM_SRC) or
             * from the other end */
            int legal_from_owner = arc->mid == PF__ACCEL_FROM_SRC;
            ok = put_cp(c, x, from, to, legal_from_owner == (own == from), d, 0);
        }
        if (ok < 0) return PF_OUT_OF_MEMORY;
        if (!ok) return PF_INVALID_ARGUMENT;
    }
    x->head = x->tail = 0;
    return PF_OK;
}

/* The arc between nodes owner and other (node indices, accel_nodes.c) in owner's list; NULL when
 * absent. Found in the lists by node index, which both_ways just read, where arc_between reads
 * first[] by cell (16 MB on 2000x2000), cold after a search that never touched it. */
static const pf__accel_arc *node_arc_between(const pf_accel *acc, uint32_t owner, uint32_t other)
{
    for (uint32_t q = acc->node_first[owner]; q < acc->node_first[owner + 1u]; q++)
        if (acc->node_to[q] == other) return acc->arcs + acc->node_base + q;
    return NULL;
}

/* A cell of write_path's chain: by node index for both_ways' records. */
PF__INLINE uint32_t chain_cell(const pf_accel *acc, int by_node, uint32_t v) { return by_node ? acc->node_cell[v] : v; }

/* The path s -> seed ... meet ... seed -> t of the best meeting x->mt, begun in x->path, goal
 * first; its exact cost into x->cost. A first pass over the arcs sums the steps (a + b of each
 * arc: its canonical paths take one cell a step) and queues each arc where it starts (put_arcs'
 * queue), so that the cells are then written in place: here the canonical paths from the start
 * and to the goal (put_cp), the rest by put_arcs (write_path). Reads the two sides' records and
 * labels, which nothing needs afterwards: a squad's member lends its goal side no longer. */
static pf_status path_begin(pf_ctx *c, pf__accel_ext *x)
{
    const meet *mt = &x->mt;
    const uint32_t meet_node = mt->node;
    const pf_map *m = c->map;
    const pf__search *s = &c->s;
    const pf_accel *acc = x->acc;
    const pf__grid_view pv = pf__accel_prep_view(acc, m);
    x->path_len = 0;
    /* the start's side: meet, its parents, ..., a seed (then read backwards); met across the
     * core: its parents there by core index up to the core's seed, then the seed's parents below */
    uint32_t n = 0, v0 = meet_node;
    const int by_node = !acc->core; /* both_ways' records (accel_nodes.c) */
    if (by_node) {
        uint32_t vi = pf__accel_node_of(acc, meet_node);
        if (vi == PF_NODE_NONE) return PF_INVALID_ARGUMENT;
        for (; vi != PF_NODE_NONE; vi = x->nr.parent[vi]) { /* node indices: see chain_cell */
            if (!grow_u32(c, &x->chain, &x->chain_cap, (uint64_t)n + 1u)) return PF_OUT_OF_MEMORY;
            x->chain[n++] = vi;
        }
        v0 = PF_NODE_NONE;
    } else if (mt->ci != PF_NODE_NONE) {
        for (uint32_t ci = mt->ci; ci != PF_NODE_NONE; ci = x->cr.parent[ci]) {
            if (!grow_u32(c, &x->chain, &x->chain_cap, (uint64_t)n + 1u)) return PF_OUT_OF_MEMORY;
            x->chain[n++] = acc->core_cell[ci];
        }
        v0 = x->parent[x->chain[n - 1u]];
    }
    for (uint32_t v = v0; v != PF_NODE_NONE; v = x->parent[v]) {
        if (!grow_u32(c, &x->chain, &x->chain_cap, (uint64_t)n + 1u)) return PF_OUT_OF_MEMORY;
        x->chain[n++] = v;
    }
    const uint32_t *chain = x->chain;
    uint32_t seed = chain_cell(acc, by_node, chain[n - 1u]), sa = 0, sb = 0, ga = 0, gb = 0, head = 0, tail = 0;
    if (seed != s->start && !cp_legal(acc, &pv, s->start, seed, &sa, &sb)) return PF_INVALID_ARGUMENT;
    uint64_t pa = sa, pb = sb;
    /* queued with the steps from the start to their first cell; nothing is written yet */
    x->total = UINT32_MAX;
    x->fill = UINT32_MAX;
    for (uint32_t i = n - 1u; i > 0; i--) {
        const pf__accel_arc *arc = by_node ? node_arc_between(acc, chain[i], chain[i - 1u]) : arc_between(acc, chain[i], chain[i - 1u]);
        if (!arc) return PF_INVALID_ARGUMENT;
        if (queue_arc(c, x, &head, &tail, chain_cell(acc, by_node, chain[i]), chain_cell(acc, by_node, chain[i - 1u]),
                      arc_at(acc, arc), pa + pb, 0) < 0)
            return PF_OUT_OF_MEMORY;
        pa += arc->a;
        pb += arc->b;
    }
    /* the goal's side: meet, its label parents, ..., a seed; each arc is held by its lower end */
    uint32_t v = meet_node, vk = by_node ? pf__accel_node_of(acc, meet_node) : PF_NODE_NONE;
    for (;;) {
        uint32_t p, pk = PF_NODE_NONE;
        const pf__accel_arc *arc;
        if (by_node) {
            if (vk == PF_NODE_NONE || !pf__nodes_live(&x->gr, vk)) return PF_INVALID_ARGUMENT;
            pk = x->gr.parent[vk];
            if (pk == PF_NODE_NONE) break;
            p = acc->node_cell[pk];
            arc = node_arc_between(acc, pk, vk);
        } else {
            const uint32_t k = label_find(x, v);
            if (k == UINT32_MAX) return PF_INVALID_ARGUMENT;
            p = x->lpar[k];
            if (p == PF_NODE_NONE) break;
            arc = arc_between(acc, p, v);
        }
        if (!arc) return PF_INVALID_ARGUMENT;
        if (queue_arc(c, x, &head, &tail, v, p, arc_at(acc, arc), pa + pb, 0) < 0) return PF_OUT_OF_MEMORY;
        pa += arc->a;
        pb += arc->b;
        v = p;
        vk = pk;
    }
    const uint32_t gseed = v;
    if (gseed != s->goal && !cp_legal(acc, &pv, gseed, s->goal, &ga, &gb)) return PF_INVALID_ARGUMENT;
    pa += ga;
    pb += gb;
    /* A shortest path visits no cell twice: more steps than the map has cells come only from a
     * forged file whose arcs claim them (fuzz_accel), and are refused before the path is sized. */
    if (pa + pb >= acc->cells) return PF_INVALID_ARGUMENT;
    if (!grow_u32(c, &x->path, &x->path_cap, pa + pb + 1u)) return PF_OUT_OF_MEMORY;
    x->total = x->fill = (uint32_t)(pa + pb);
    x->path[x->total] = pf__grid_unpad(m, s->start);
    if (seed != s->start && !put_cp(c, x, s->start, seed, 1, 0, 0)) return PF_INVALID_ARGUMENT;
    if (gseed != s->goal && !put_cp(c, x, gseed, s->goal, 1, x->total, 1)) return PF_INVALID_ARGUMENT;
    path_work(c, x);
    x->head = 0;
    x->tail = tail;
    x->cost = pf__accel_cost((uint32_t)pa, (uint32_t)pb);
    return PF_OK;
}

/* The path begun by path_begin, written on by put_arcs for at most `budget` units of
 * PF__ACCEL_PATH_UNIT cells (read between its queue's entries: an entry may write more, owed);
 * PF_OK once whole, PF_IN_PROGRESS, or an error. */
static pf_status write_path(pf_ctx *c, pf__accel_ext *x, uint32_t budget)
{
    const uint64_t done = (uint64_t)(x->total - x->fill) / PF__ACCEL_PATH_UNIT;
    pf_status st = put_arcs(c, x, budget == UINT32_MAX ? UINT64_MAX : (done + budget) * PF__ACCEL_PATH_UNIT);
    path_work(c, x);
    if (st != PF_OK) return st;
    if (x->fill != 0) return PF_INVALID_ARGUMENT; /* cannot happen: every step is one cell */
    x->path_len = x->total + 1u;
    return PF_OK;
}

/* ---- begin / step ---------------------------------------------------------------------------- */

/* A query the accelerator answers without searching: the canonical path itself, in either
 * direction. Writes it (goal first) and returns 1. */
static int direct(pf_ctx *c, pf__accel_ext *x, double *cost)
{
    const pf_map *m = c->map;
    const pf__search *s = &c->s;
    const pf__grid_view pv = pf__accel_prep_view(x->acc, m);
    uint32_t a, b;
    int fwd = cp_legal(x->acc, &pv, s->start, s->goal, &a, &b);
    if (!fwd && !cp_legal(x->acc, &pv, s->goal, s->start, &a, &b)) return 0;
    x->path_len = 0;
    if (!grow_u32(c, &x->path, &x->path_cap, (uint64_t)a + b + 1u)) return 0;
    /* goal first, written from the start's end: start -> goal, or the reverse of goal -> start */
    x->total = x->fill = a + b;
    x->path[x->total] = pf__grid_unpad(m, s->start);
    if (!put_cp(c, x, s->start, s->goal, fwd, 0, 0)) return 0;
    x->path_len = a + b + 1u;
    *cost = pf__accel_cost(a, b);
    return 1;
}

pf_algo pf__auto_pick(const pf_ctx *c, uint32_t si, uint32_t gi, uint32_t *detail, uint32_t *cap)
{
    const pf_map *m = c->map;
    const pf__accel_ext *x = pf__ctx_ext_get(c, PF__EXT_ACCEL);
    *cap = 0;
    if (m->kind != PF_MAP_GRID) return PF_ALGO_ASTAR;
    /* a short move touches fewer cells than the accelerator's scans or JPS's jumps would */
    double oct = move_len(m, si, gi);
    int have = x && x->acc && pf__accel_answers(x->acc, m);
    if (x && x->acc && !have) *detail |= PF_DETAIL_ACCEL_STALE; /* never a silent fallback */
    if (have && !contracted(x->acc)) have = 0;
    /* an edited map whose edits reach the start or the goal, or a query whose proof failed (the
     * fallback begins it again): JPS answers, and says why */
    int edited = have && (x->refused || (x->acc->dn && (pf__accel_diff_has(x->acc, si) || pf__accel_diff_has(x->acc, gi))));
    if (oct < (double)(have ? short_limit(x->acc) : (uint32_t)PF_ACCEL_SHORT_QUERY)) {
        *detail |= PF_DETAIL_SHORT;
        if (!have || edited) return PF_ALGO_ASTAR; /* no accelerator to hand over to: A* to the end */
        if (!x->long_only) {
            *cap = (uint32_t)((dense(x->acc) ? 16.0 : 64.0) * oct) + 1u;
            return PF_ALGO_ASTAR;
        }
    }
    if (edited) {
        *detail |= PF_DETAIL_ACCEL_EDITED;
        have = 0;
    }
    if (have) return PF_ALGO_AUTO;
    if (pf_jps_supported(m) && c->s.d.heuristic == PF_HEUR_OCTILE)
        return pf__jps_has_plus(c) ? PF_ALGO_JPS_PLUS : PF_ALGO_JPS;
    return PF_ALGO_ASTAR;
}

void pf__auto_long_only(pf_ctx *c, int on)
{
    pf__accel_ext *x = pf__ctx_ext_get(c, PF__EXT_ACCEL);
    if (x) x->long_only = on;
}

/* The parents, made by the first query (or a reserve); 0 when out of memory. */
static int make_parent(pf_ctx *c, pf__accel_ext *x)
{
    size_t bytes = (size_t)c->count * sizeof(uint32_t);
    /* a lazy context's (a batch's spare made inside a run) are lazy too, as JPS's are: written
     * now, 16 MB on 2000x2000, they cost the frame that made the spare 40 ms (rooms-2000 replay,
     * auto). Only reached nodes' parents are ever read, so nothing needs them cleared. */
    if (c->lazy) {
        x->parent = pf__alloc_lazy(&c->alloc, bytes, 0, &x->parent_lazy);
        return x->parent != NULL;
    }
    x->parent = pf__alloc(&c->alloc, bytes, 64);
    if (!x->parent) return 0;
    /* faulted in now, once, not a page at a time inside later queries (as ctx.c does) */
    memset(x->parent, 0xFF, bytes);
    return 1;
}

/* The parents, and room for the buffers a typical query uses (they grow on demand beyond it). */
static int ext_reserve(pf_ctx *c, void *p)
{
    pf__accel_ext *x = p;
    /* a hierarchy without a core is searched on records by node index (both_ways) alone */
    if (x->acc && !x->acc->core) {
        if (!node_make(c, x)) return 0;
    } else {
        if (!x->parent && !make_parent(c, x)) return 0;
        if (!x->lcap && !labels_reset(c, x, 1024u)) return 0;
        if (x->acc && x->acc->core && (!core_make(c, x) || !core_labels_room(c, x, 1024u))) return 0;
    }
    /* put_arcs' queue holds a level of the path's arcs, QW words each, never more than the path's
     * steps: as many entries as the path reserved has cells */
    return grow_u32(c, &x->path, &x->path_cap, 1024u) && grow_u32(c, &x->stk, &x->stk_cap, QW * 1024u) &&
           grow_u32(c, &x->chain, &x->chain_cap, 256u) &&
           pf__grow_slow(&c->alloc, &x->seeds, &x->seeds_cap, 256u, sizeof *x->seeds, 64u, 0) &&
           pf__grow_slow(&c->alloc, &x->gh, &x->gh_cap, 1024u, sizeof *x->gh, 64u, 0);
}

const pf__ext_class pf__ext_accel = {ext_create, ext_destroy, ext_reserve, NULL};

pf_status pf__accel_begin(pf_ctx *c)
{
    pf__accel_ext *x = pf__ctx_ext_get(c, PF__EXT_ACCEL);
    const pf_accel *acc = x->acc;
    const pf_map *m = c->map;
    x->path_len = 0;
    x->phase = Q_BEGIN;
    x->mt = (meet){INFINITY, PF_NODE_NONE, PF_NODE_NONE};
    x->cost = INFINITY;
    x->check = acc->dn != 0;
    x->clear = 1;
    x->bound = INFINITY;
    if (x->check) {
        /* no answer can cost less than the octile distance: a better cell whose bound is below it
         * refuses every answer, so JPS answers at once (accel_diff.c) */
        const uint32_t si = c->s.start, gi = c->s.goal, pw = m->pw;
        x->bound = pf__accel_diff_bound(acc, m, si, gi, m->cls[si]);
        double oct = pf__grid_metric(PF_HEUR_OCTILE, (int32_t)(si % pw) - (int32_t)(gi % pw),
                                     (int32_t)(si / pw) - (int32_t)(gi / pw));
        if (x->bound < oct) return PF_UNSUPPORTED;
    }
    return !acc->core || x->parent || make_parent(c, x) ? PF_IN_PROGRESS : PF_OUT_OF_MEMORY;
}

void pf__accel_refuse(pf_ctx *c, int on)
{
    pf__accel_ext *x = pf__ctx_ext_get(c, PF__EXT_ACCEL);
    if (x) x->refused = on;
}

/* With a core, the goal side of the query begins: its seeds, its labels reset, its records. The
 * start's side crosses the core bounded by landmarks through the goal side's labels there
 * (aim_landmarks), so the goal's side runs first, whole (upward_goal, then core_labels). */
static pf_status goal_side_core_begin(pf_ctx *c, pf__accel_ext *x)
{
    const uint32_t nb = scan_seeds(c, x, 0, c->s.goal, 0);
    if (nb == UINT32_MAX || !labels_reset(c, x, 1024u)) return PF_OUT_OF_MEMORY;
    return upward_seed(c, x, x->seeds, nb, 0, NULL, NULL);
}

/* The goal side in one call (a squad's member: SQUADS). */
static pf_status goal_side_core(pf_ctx *c, pf__accel_ext *x)
{
    pf_status st = goal_side_core_begin(c, x);
    if (st == PF_OK) st = upward_goal(c, x, UINT32_MAX);
    return st == PF_OK && !core_labels(c, x) ? PF_OUT_OF_MEMORY : st;
}

/* Without a core, both sides begin at once: the goal's seeds, then the start's. */
static pf_status both_sides_begin(pf_ctx *c, pf__accel_ext *x)
{
    const uint32_t nb = scan_seeds(c, x, 0, c->s.goal, 0);
    if (nb == UINT32_MAX) return PF_OUT_OF_MEMORY;
    const uint32_t nf = scan_seeds(c, x, nb, c->s.start, 1);
    if (nf == UINT32_MAX) return PF_OUT_OF_MEMORY;
    return both_ways_begin(c, x, nb, nf);
}

/* The path of the best meeting begins (path_begin); none when the sides never met. */
static pf_status meet_path(pf_ctx *c, pf__accel_ext *x)
{
    /* the live map's components matched: on an edited map the prep map may not connect the
     * two (an edit opened the way), else it cannot happen */
    if (x->mt.node == PF_NODE_NONE) return x->check ? PF_UNSUPPORTED : PF_NO_PATH;
    return path_begin(c, x);
}

/* ---- squads (accel_internal.h, SQUADS) -------------------------------------------------------- */

void pf__ctx_accel_squad(pf_ctx *ctx, pf__accel_squad *q)
{
    pf__accel_ext *x = ctx ? pf__ctx_ext_get(ctx, PF__EXT_ACCEL) : NULL;
    if (x) x->squad = q;
}

/* The squad whose member c's query is, or NULL: a trace or max_expansions needs the query's own
 * expansions, and on an edited map a hierarchy without a core proves the path both_ways finds
 * (accel_diff.c), which among paths of equal cost may not be the one the squad's member finds. */
static pf__accel_squad *squad_of(const pf_ctx *c, const pf__accel_ext *x)
{
    if (!x->squad || c->s.trace || c->s.d.max_expansions) return NULL;
    return x->acc->core || !x->check ? x->squad : NULL;
}

/* The goal side's state of an ext, lent to it from a squad and given back. */
typedef struct goal_state {
    uint32_t *lkey, *lpar;
    double   *lg;
    uint32_t  lcap, lcount;
    uint32_t *ckey;
    double   *cg;
    uint32_t  ccap, ccount;
    pf__nodes gr;
} goal_state;

static void goal_swap(pf__accel_ext *x, goal_state *o)
{
    goal_state t = {x->lkey, x->lpar, x->lg, x->lcap, x->lcount, x->ckey, x->cg, x->ccap, x->ccount, x->gr};
    x->lkey = o->lkey;
    x->lpar = o->lpar;
    x->lg = o->lg;
    x->lcap = o->lcap;
    x->lcount = o->lcount;
    x->ckey = o->ckey;
    x->cg = o->cg;
    x->ccap = o->ccap;
    x->ccount = o->ccount;
    x->gr = o->gr;
    *o = t;
}

static goal_state squad_state(const pf__accel_squad *q)
{
    return (goal_state){q->lkey, q->lpar, q->lg, q->lcap, q->lcount, q->ckey, q->cg, q->ccap, q->ccount, q->gr};
}

/* What a member does with its squad's goal side: reads it, makes it (claimed), or makes its own
 * (the squad's is for another accelerator, map version or goal, or could not be made). */
enum { SQUAD_READ, SQUAD_MAKE, SQUAD_OWN };

static int squad_claim(pf__accel_squad *q, const pf_accel *acc, uint64_t version, uint32_t goal)
{
    int seen = PF__SQUAD_EMPTY;
    if (atomic_compare_exchange_strong_explicit(&q->state, &seen, PF__SQUAD_BUILDING, memory_order_acquire,
                                                memory_order_acquire)) {
        q->acc_serial = acc->serial;
        q->version = version;
        q->goal = goal;
        return SQUAD_MAKE;
    }
    /* another member makes it now, on another worker: this one makes its own (the same labels)
     * rather than wait, since the maker may be descheduled for a time slice (a game's frame on a
     * loaded machine: more threads than cores), where making one costs one goal side */
    return seen == PF__SQUAD_READY && q->acc_serial == acc->serial && q->version == version && q->goal == goal ? SQUAD_READ : SQUAD_OWN;
}

/* The goal side made by this member, into the squad (without a core it was made in the squad's
 * records, lent to x); the squad READY, or FAILED when out of memory. */
static void squad_publish(pf__accel_squad *q, const pf__accel_ext *x, int ok, uint32_t expanded, uint32_t pushed)
{
    if (ok && x->acc->core) {
        ok = pf__accel_squad_room(q, x->lcap, x->ccap, 0);
        if (ok) {
            memcpy(q->lkey, x->lkey, (size_t)x->lcap * sizeof(uint32_t));
            memcpy(q->lpar, x->lpar, (size_t)x->lcap * sizeof(uint32_t));
            memcpy(q->lg, x->lg, (size_t)x->lcap * sizeof(double));
            memcpy(q->ckey, x->ckey, (size_t)x->ccap * sizeof(uint32_t));
            memcpy(q->cg, x->cg, (size_t)x->ccap * sizeof(double));
            /* read by its sizes: a bigger table than x's from an earlier squad holds nothing else */
            q->lcap = x->lcap;
            q->ccap = x->ccap;
            q->lcount = x->lcount;
            q->ccount = x->ccount;
        }
    } else if (ok) {
        q->gr = x->gr; /* its generation moved on in x's copy */
    }
    q->expanded = expanded;
    q->pushed = pushed;
    atomic_store_explicit(&q->state, ok ? PF__SQUAD_READY : PF__SQUAD_FAILED, memory_order_release);
}

/* Without a core, a member's goal side whole: from the goal's seeds until its heap runs dry (no
 * meeting prunes it), keyed towards the goal itself: any consistent key settles every node at its
 * distance. */
static pf_status goal_side_whole(pf_ctx *c, pf__accel_ext *x)
{
    const uint32_t pw = c->map->pw, nb = scan_seeds(c, x, 0, c->s.goal, 0);
    if (nb == UINT32_MAX) return PF_OUT_OF_MEMORY;
    const int32_t gx = (int32_t)(c->s.goal % pw), gy = (int32_t)(c->s.goal / pw);
    meet none = {INFINITY, PF_NODE_NONE, PF_NODE_NONE};
    /* no start side yet: its records all stale, or an earlier query's would meet this goal side
     * and prune it */
    pf__nodes_next_gen(&x->nr);
    pf_status st = goal_side_begin(c, x, x->seeds, nb, gx, gy, &none);
    if (st == PF_OK) do
            st = goal_side_step(c, x, gx, gy, &none);
        while (st == PF_IN_PROGRESS);
    return st;
}

/* Without a core, a member's start side against its goal side's labels, whole: the start side of
 * both_ways alone. */
static pf_status start_side_alone(pf_ctx *c, pf__accel_ext *x, meet *mt)
{
    const uint32_t pw = c->map->pw, nf = scan_seeds(c, x, 0, c->s.start, 1);
    if (nf == UINT32_MAX) return PF_OUT_OF_MEMORY;
    const int32_t tx = (int32_t)(c->s.goal % pw), ty = (int32_t)(c->s.goal / pw);
    pf__nodes_next_gen(&c->nodes); /* as both_ways: the context's records begin anew */
    pf__open_reset(&c->open, PF_TIE_DEFAULT, 0);
    pf_status st = start_side_begin(c, x, x->seeds, nf, tx, ty, mt);
    if (st == PF_OK) do
            st = start_side_step(c, x, tx, ty, mt);
        while (st == PF_IN_PROGRESS);
    return st;
}

/* Without a core, the query's sides and the start of its path as a member of squad q, in one call:
 * the goal side read from q, or made (into q when this member claimed it), then the start side
 * against it and the path's first pass (path_begin), the last that reads the goal side; q's
 * records are lent to x within this call alone (SLICES). */
static pf_status squad_sides(pf_ctx *c, pf__accel_ext *x, pf__accel_squad *q)
{
    const pf_accel *acc = x->acc;
    pf__search *s = &c->s;
    if (!node_make(c, x)) return PF_OUT_OF_MEMORY; /* before x->gr is lent */
    int role = squad_claim(q, acc, c->map->version, s->goal), lent = 0;
    goal_state own = {0}; /* q's fields are read only by a member that claimed it or saw it READY */
    pf_status st = PF_OK;
    if (role == SQUAD_MAKE) {
        if (pf__accel_squad_room(q, 0, 0, acc->nodes)) {
            own = squad_state(q);
            goal_swap(x, &own); /* made in the squad's records */
            lent = 1;
        } else {
            squad_publish(q, x, 0, 0, 0);
            role = SQUAD_OWN;
        }
    }
    if (role == SQUAD_READ) {
        own = squad_state(q);
        goal_swap(x, &own);
        lent = 1;
        s->st.expanded += q->expanded;
        s->st.pushed += q->pushed;
    } else {
        const uint32_t e0 = s->st.expanded, p0 = s->st.pushed;
        st = goal_side_whole(c, x);
        if (role == SQUAD_MAKE) {
            q->gr = x->gr; /* lent: its generation moved on, made or not */
            squad_publish(q, x, st == PF_OK, s->st.expanded - e0, s->st.pushed - p0);
        }
    }
    if (st == PF_OK) st = start_side_alone(c, x, &x->mt);
    if (st == PF_OK) st = meet_path(c, x);
    if (lent) goal_swap(x, &own);
    return st;
}

/* With a core, the goal side of a member of squad q, in one call: read from q, or made (into q when
 * this member claimed it). Read, q's labels are put into x's own (as many as the member that made
 * them put into q): a query sliced over several steps reads them after this step, when q may be
 * another goal's (SLICES). */
static pf_status squad_goal_core(pf_ctx *c, pf__accel_ext *x, pf__accel_squad *q)
{
    pf__search *s = &c->s;
    const int role = squad_claim(q, x->acc, c->map->version, s->goal);
    if (role == SQUAD_READ) {
        if (!labels_reset(c, x, 1024u)) return PF_OUT_OF_MEMORY;
        for (uint32_t i = 0; i < q->lcap; i++)
            if (q->lkey[i] != PF_NODE_NONE && !label_put(c, x, q->lkey[i], q->lg[i], q->lpar[i])) return PF_OUT_OF_MEMORY;
        if (!core_labels(c, x)) return PF_OUT_OF_MEMORY;
        s->st.expanded += q->expanded;
        s->st.pushed += q->pushed;
        return PF_OK;
    }
    const uint32_t e0 = s->st.expanded, p0 = s->st.pushed;
    pf_status st = goal_side_core(c, x);
    if (role == SQUAD_MAKE) squad_publish(q, x, st == PF_OK, s->st.expanded - e0, s->st.pushed - p0);
    return st;
}

/* ---- slices ----------------------------------------------------------------------------------- */

/*
 * SLICES. A query runs over as many pf_search_step calls as its budget asks, as any search: a
 * step returns PF_IN_PROGRESS after exactly its budget's units, and the query is the same (path,
 * cost, stats) however it was sliced. Its units are its expansions (the two sides up the
 * hierarchy, the A* across the core: pf_stats.expanded) and its path's cells, PF__ACCEL_PATH_UNIT
 * a unit (pf__search.work, not in the stats). It keeps where it stands in x: the part below it is
 * in (phase), the searches' records and open lists (resumed from them alone, as any search), the
 * best meeting, the heuristics, put_arcs' queue. It stops between expansions, and between the
 * entries of put_arcs' queue (an entry writes one canonical path, at most a side of the map).
 * Uncut, and counted as what they do: the scans for the seeds (a few dozen walks; not units),
 * the first pass of the path (a pass over the arcs of the hierarchy it takes, tens to hundreds),
 * and the canonical paths from the start and to the goal. A squad's member (SQUADS) takes its
 * squad's goal side (with a core; without one its sides and its path's first pass) in one step:
 * the squad is lent to it within a step alone, and a member that reads it is charged what the
 * maker did, all at once. What a step does past its budget it owes (pf__search.owed): the next
 * steps pay it before they do more, and an answer found meanwhile waits in x->final (Q_DONE), so
 * that the units charged to each step, and the step that answers, do not depend on whether the
 * member made the goal side or read it, nor on where an entry ended.
 */

/* The query on from x->phase for at most `budget` units (an uncut part may run past it):
 * PF_IN_PROGRESS, or its end (PF_OK with the path written and its cost in x->cost). */
static pf_status run(pf_ctx *c, pf__accel_ext *x, uint32_t budget)
{
    pf__search *s = &c->s;
    const uint64_t u0 = (uint64_t)s->st.expanded + s->work;
    for (;;) {
        const uint64_t used = (uint64_t)s->st.expanded + s->work - u0;
        if (budget != UINT32_MAX && used >= budget) return PF_IN_PROGRESS;
        const uint32_t left = budget == UINT32_MAX ? UINT32_MAX : budget - (uint32_t)used;
        pf_status st = PF_OK;
        int next = x->phase; /* where the query goes once this part is done */
        switch (x->phase) {
        case Q_BEGIN: {
            if (direct(c, x, &x->cost)) {
                path_work(c, x);
                return PF_OK;
            }
            pf__accel_squad *q = squad_of(c, x);
            if (q && x->acc->core) {
                st = squad_goal_core(c, x, q);
                next = Q_START_BEGIN;
            } else if (q) {
                st = squad_sides(c, x, q);
                next = Q_PATH;
            } else if (x->acc->core) {
                st = goal_side_core_begin(c, x);
                next = Q_GOAL;
            } else {
                st = both_sides_begin(c, x);
                next = Q_BOTH;
            }
            break;
        }
        case Q_GOAL:
            st = upward_goal(c, x, left);
            if (st == PF_OK && !core_labels(c, x)) st = PF_OUT_OF_MEMORY;
            next = Q_START_BEGIN;
            break;
        case Q_START_BEGIN:
            st = start_side_core_begin(c, x);
            next = Q_START;
            break;
        case Q_START:
            st = upward_start(c, x, left);
            next = Q_CORE;
            break;
        case Q_CORE:
            st = core_search(c, x, &x->mt, &x->atc, left);
            next = Q_PATH_BEGIN;
            break;
        case Q_BOTH:
            st = both_ways(c, x, left);
            next = Q_PATH_BEGIN;
            break;
        case Q_PATH_BEGIN:
            st = meet_path(c, x);
            next = Q_PATH;
            break;
        case Q_PATH:
            return write_path(c, x, left);
        default:
            return PF_INVALID_ARGUMENT; /* cannot happen: Q_DONE is pf__accel_step's */
        }
        if (st != PF_OK) return st; /* PF_IN_PROGRESS: the part goes on at the next step */
        x->phase = next;
    }
}

/* The query's answer once its path is written (or PF_UNSUPPORTED, PF_LIMIT_REACHED). */
static pf_status conclude(pf_ctx *c, pf__accel_ext *x)
{
    pf__search *s = &c->s;
    const double cost = x->cost;
    /* on an edited map the answer stands only where it is proven (accel_diff.c): a path of the
     * live map (no cell of D entered or cut beside), and no better cell near enough to shorten it */
    if (x->check && (!x->clear || cost > x->bound)) {
        x->path_len = 0;
        return PF_UNSUPPORTED;
    }
    if (s->d.max_cost > 0 && cost > s->d.max_cost) {
        x->path_len = 0;
        s->pruned = 1;
        return PF_LIMIT_REACHED;
    }
    /* the goal's record holds the cost, as after any search (pf_ctx_cost, pf_search_path) */
    pf__nodes_set(&c->nodes, s->goal, cost, 0);
    pf__nodes_close(&c->nodes, s->goal);
    s->found = s->goal;
    s->st.path_len = x->path_len;
    return PF_OK;
}

pf_status pf__accel_step(pf_ctx *c, uint32_t budget)
{
    pf__accel_ext *x = pf__ctx_ext_get(c, PF__EXT_ACCEL);
    pf__search *s = &c->s;
    if (s->owed) { /* units done past an earlier step's budget: charged first */
        const uint32_t pay = s->owed < budget ? s->owed : budget;
        s->owed -= pay;
        if (budget != UINT32_MAX) budget -= pay;
        if (s->owed || !budget) return x->phase == Q_DONE && !s->owed ? x->final : PF_IN_PROGRESS;
    }
    if (x->phase == Q_DONE) return x->final;
    const uint64_t u0 = (uint64_t)s->st.expanded + s->work;
    pf_status st = run(c, x, budget);
    if (st == PF_OK) st = conclude(c, x);
    const uint64_t used = (uint64_t)s->st.expanded + s->work - u0;
    if (budget != UINT32_MAX && used > budget) {
        s->owed = (uint32_t)(used - budget);
        if (st != PF_IN_PROGRESS) { /* answered once the units are paid */
            x->final = st;
            x->phase = Q_DONE;
            st = PF_IN_PROGRESS;
        }
    }
    return st;
}

const uint32_t *pf__accel_path(const pf_ctx *c, uint32_t *len)
{
    const pf__accel_ext *x = pf__ctx_ext_get(c, PF__EXT_ACCEL);
    *len = x ? x->path_len : 0;
    return x ? x->path : NULL;
}
