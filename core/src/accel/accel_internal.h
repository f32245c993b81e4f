/* accel_internal.h - the long-query accelerator's layout, its canonical-path scans and its
 * per-context state (never installed). The design and its reasons are in pf_accel.h. */
#ifndef PF_ACCEL_INTERNAL_H
#define PF_ACCEL_INTERNAL_H

#include <stdatomic.h>
#include <math.h>
#include "pathfind/pf_accel.h"
#include "search/ctx_internal.h"
#include "map/grid_moves_internal.h"
#include "common/par_internal.h"
#include "map_user_internal.h"

#define PF__ACCEL_SQRT2 1.4142135623730951

/*
 * An arc of the hierarchy, stored in the list of its lower-ranked end. Costs are exact: a straight
 * and b diagonal steps (a + b * sqrt(2)); two different (a, b) never have the same cost, so the
 * build decides "witness at most as long" exactly, and a baked file holds integers only.
 *   mid  the middle node (padded cell) of a shortcut: the arcs mid->from and mid->to are both in
 *        mid's own list; or, for an arc of the subgoal graph itself, PF__ACCEL_FROM_SRC (the
 *        canonical path from the list's owner to `to` is legal) or PF__ACCEL_FROM_DST (the one from
 *        `to` to the owner is).
 */
typedef struct pf__accel_arc {
    uint32_t to;
    uint32_t mid;
    uint32_t a, b;
} pf__accel_arc;
#define PF__ACCEL_FROM_SRC 0xFFFFFFFFu
#define PF__ACCEL_FROM_DST 0xFFFFFFFEu

PF__INLINE double pf__accel_cost(uint32_t a, uint32_t b) { return (double)a + (double)b * PF__ACCEL_SQRT2; }

/* The two diagonal directions holding the straight direction e (0..3), in increasing order: the
 * order in which the backward scans (accel_scan.c, accel_jumps.c) list the seeds they find. */
PF__INLINE void pf__accel_diags_holding(uint32_t e, uint32_t *da, uint32_t *db)
{
    uint32_t a = pf__dir_diag[e][(e + 1u) & 3u], b = pf__dir_diag[e][(e + 3u) & 3u];
    *da = a < b ? a : b;
    *db = a < b ? b : a;
}

/* An arc of the core by core index (pf_accel.core_arc): ab = a | b << 16 (its straight and
 * diagonal steps), or PF__ACCEL_CARC_FAR where either outgrows 16 bits (then read the arc itself:
 * arcs[first[cell] + k], the same position in its cell's list). */
typedef struct pf__accel_carc {
    uint32_t to, ab;
} pf__accel_carc;
#define PF__ACCEL_CARC_FAR 0xFFFFFFFFu

/* A node's padded coordinates (pf_accel.node_xy). */
typedef struct pf__accel_nxy {
    int32_t x, y;
} pf__accel_nxy;

/* Landmarks over the core (accel_landmarks.c). A query's core expansions are the core nodes whose
 * f is below the optimum: on random-2000-20's 20 longest queries 96% lie within 1% of it, 82%
 * within 0.5% (a random map has many paths of almost the optimal cost), so only a tighter bound
 * cuts them, and the bound is tight where a landmark lies close behind the goal or the start.
 * On the border, core expansions of those 20 (callgrind instructions of their pf__accel_step):
 * 16: 55,315 (139.3 M); 32: 37,915; 64: 29,122 (88.4 M), at 8 a query. 64 is what the memory
 * allows: a row is 256 bytes, 3.2 bytes a cell on random-2000-20 (61.2 in all, goal 64). */
#define PF__ACCEL_LANDMARKS 64u
/* Landmarks a query uses: those that bound its start and goal best. Of 64, on those 20 queries:
 * 6: 30,260 core expansions (87.2 M instructions), 8: 29,122 (88.4 M), 12: 28,361 (90.9 M); picked
 * by the bound at the start's core seeds instead of by octile distances (below): no better
 * (29,122 alike at 8). Of 16, all 16 expanded 6% fewer nodes than 4 but paid for 16 terms at every
 * relaxation. */
#define PF__ACCEL_LANDMARKS_QUERY 8u

/*
 * The accelerator of one map. Nodes are the map's subgoals, named by their padded cell index, so
 * a query runs on a context's own records (indexed the same way).
 *   sub   [cells] 1 where the cell is a subgoal (scans stop at the first one they meet), 2 where
 *         it is a subgoal of the core
 *   first [cells + 1] arcs of cell c (the arcs up to higher-ranked nodes): arcs[first[c]..first[c+1])
 *   arcs  [narcs]
 */
struct pf_accel {
    const pf_map  *map;
    uint64_t       fingerprint;
    uint64_t       serial;     /* unique in the process (pf__accel_new): squads name their accelerator by it,
                                  not by an address a freed one's successor may reuse */
    pf_allocator   alloc;
    uint32_t       cells;      /* pw * ph */
    uint32_t       nodes;      /* subgoals */
    uint32_t       narcs;
    uint32_t       graph_arcs; /* undirected arcs of the subgoal graph before contraction */
    uint32_t       shortcuts;  /* arcs added by the contraction (in arcs) */
    uint32_t       core;       /* nodes left uncontracted (sub == 2): their lists hold all their arcs */
    uint32_t       short_query; /* AUTO runs A* below this octile distance */
    uint8_t       *sub;
    uint32_t      *first;
    pf__accel_arc *arcs;
    /* following the map's edits (accel_edit.c): the desc it was made with, rebuilt from */
    pf_accel_desc  desc;
    pf__map_user   user;
    int            following;
    /* landmark distances over the core (accel_landmarks.c; not in the file: computed after a
     * build or a load): lm_key/lm_idx [lm_cap] cell -> core index (open addressing, PF_NODE_NONE
     * = empty), lm_d [core * PF__ACCEL_LANDMARKS] d(L, v) by core index, landmark-minor, as the
     * exact steps a | b << 16 (pf__accel_lm_dist): half what doubles took (the query's A* misses
     * the cache on most rows it reads, and a query's landmarks, neighbours along the border
     * behind its start and goal, lie in two or three of a row's four lines) */
    uint32_t       lm_k, lm_cap;
    uint32_t       lm_cell[PF__ACCEL_LANDMARKS];   /* the landmarks' cells */
    uint8_t        lm_ok[PF__ACCEL_LANDMARKS];     /* 0: some distance outgrew 16 bits, unused */
    uint32_t      *lm_key, *lm_idx;
    uint32_t      *lm_d;
    /* the core's arcs by core index: core_arc[lm_first[i] + k] is the k-th arc in the list of
     * core node i (parallel to arcs[first[its cell] ..]), its target as a core index and its cost.
     * The query's A* across the core reads these alone (8 bytes an arc, the lists of nearby core
     * nodes side by side), where the lists by cell cost it three cache misses an expansion
     * (first[], arcs[] and a table to find the targets' core indices) */
    uint32_t      *lm_first;
    struct pf__accel_carc *core_arc;
    uint32_t       lm_narc;
    /* core_cell [core]: the cell of each core index (numbered by tiles of the map,
     * accel_landmarks.c), for the A* across the core, which keeps its records by core index
     * (accel_query.c) */
    uint32_t      *core_cell;
    /* a hierarchy without a core, by node index (accel_nodes.c; not in the file): node_cell [nodes]
     * the cell of each node, ascending, node_xy [nodes] its padded coordinates; the arcs of node i
     * at [node_first[i] .. node_first[i + 1]) of node_to [narcs] (their targets' node indices) and
     * node_cost [narcs] (their costs, pf__accel_cost), parallel to arcs[first[node_cell[i]] ..] */
    uint32_t      *node_cell, *node_first, *node_to;
    uint32_t       node_base; /* node_to[q] is the target of arcs[node_base + q] */
    struct pf__accel_nxy *node_xy;
    double        *node_cost;
    /* down [narcs] (accel_unpack.c; not in the file): where a shortcut's halves lie in its middle's
     * list, for writing paths: the index of mid -> (its owner) in the low 24 bits, the index of
     * mid -> (its to) as an offset + 128 in the high 8; PF__ACCEL_DOWN_NONE for an arc of the
     * subgoal graph, and for a shortcut whose halves do not fit (put_arc then scans mid's list) */
    uint32_t      *down;
    /* halves [narcs]: for a shortcut whose down is set, two bits a half (the owner's half in bits
     * 0-1, the other in 2-3): PF__ACCEL_HALF_GRAPH, PF__ACCEL_HALF_SRC */
    uint8_t       *halves;
    /* jump [cells * 8] (accel_jumps.c; not in the file, and NULL on a hierarchy with a core): the
     * scans' walks, from each cell in each direction, to the first subgoal or the wall */
    uint8_t       *jump;
    /* the cells it was built from (its prep map): [cells] the class of each padded cell. Queries
     * read these, never the live map, so an answer is a shortest path of the prep map whatever
     * edits came since (accel_diff.c proves it on the live map or refuses it) */
    uint8_t       *prep;
    /* PF_ACCEL_EDITS_CHECK (accel_diff.c): the set D of cells whose class differs from prep now,
     * as a bitmap [(cells + 63) / 64] and a list dl [dn]; bl [bn] holds the cells of D open now
     * (better than at prep for their class). diffing: the map's edits update them; diff_lost: an
     * update ran out of memory, D is unknown and the accelerator stale for good */
    uint64_t      *dbits;
    uint32_t      *dl, *bl;
    uint32_t       dn, dcap, bn, bcap;
    int            diffing, diff_lost, diff_tried;
    /* guards diff_tried and the diff's start: contexts of any thread may attach a rebuild at once
     * (pf_ctx_use_accel follows the context's rule only), and two starts would attach acc->user
     * twice (a user list that loops) */
    atomic_flag    diff_lock;
    /* D by blocks of PF__ACCEL_DBLK x PF__ACCEL_DBLK padded cells, 1 bit a block (dbw blocks a
     * row; 2 KB on 2000x2000): the path check reads it first and the cell bitmap only in a block
     * that holds a cell of D. A path's steps down a column each touch another row of the cell
     * bitmap (a cache line a step); this one stays in L1 */
    uint64_t      *dblk;
    uint32_t       dbw, dbh;
};
#define PF__ACCEL_DBLK_SHIFT 4u

/* ---- canonical paths ------------------------------------------------------------------------ */

/* The move rule is the grid's (map/grid_moves_internal.h): 8 directions without corner cutting,
 * the only rule the accelerator takes (pf_accel_supported), 0..7 = N E S W NE SE SW NW, and a
 * diagonal d is straight pf__dir_h[d] plus straight pf__dir_v[d]. Scans walk in the terrain class of
 * the cell they start from, since a legal step never changes class; a step is legal when
 * pf__grid_step_ok(view, cell, d, unit, PF__MV_8) says so. */
PF__INLINE pf__unit pf__accel_unit(const pf__grid_view *v, uint32_t c)
{
    pf__unit u = {v->cls[c], 1};
    return u;
}

/* The map m as the accelerator was built from it: its prep copy's classes. */
PF__INLINE pf__grid_view pf__accel_prep_view(const pf_accel *acc, const pf_map *m)
{
    pf__grid_view v = pf__grid_view_of(m);
    v.cls = acc->prep;
    return v;
}

/* The canonical path from -> to (padded cells, padded width pw): nd diagonal steps in direction dd
 * towards `to`, then ns straight steps in direction ds along the longer axis. nd + ns is the
 * number of steps, ns + nd * sqrt(2) the octile distance. */
typedef struct pf__accel_cp {
    uint32_t dd, nd, ds, ns;
} pf__accel_cp;

PF__INLINE pf__accel_cp pf__accel_cp_shape(uint32_t pw, uint32_t from, uint32_t to)
{
    int32_t fx = (int32_t)(from % pw), fy = (int32_t)(from / pw), tx = (int32_t)(to % pw), ty = (int32_t)(to / pw);
    int32_t dx = tx - fx, dy = ty - fy;
    uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx), ay = (uint32_t)(dy < 0 ? -dy : dy);
    pf__accel_cp p;
    /* NE SE SW NW by the signs; N E S W by the longer axis */
    p.dd = pf__dir_diag[dx >= 0 ? 1 : 3][dy < 0 ? 0 : 2];
    p.nd = ax < ay ? ax : ay;
    p.ds = ax > ay ? (dx > 0 ? 1u : 3u) : (dy > 0 ? 2u : 0u);
    p.ns = ax > ay ? ax - ay : ay - ax;
    return p;
}

/* A subgoal reached by a canonical path: its padded cell and the path's a straight, b diagonal steps. */
typedef struct pf__accel_seed {
    uint32_t cell, a, b;
} pf__accel_seed;

/* The subgoals v with a legal canonical path c -> v (diagonal steps first) that passes no other
 * subgoal: up to cap are written; returns how many there are (call again with more room when that
 * exceeds cap). */
uint32_t pf__accel_scan_fwd(const pf__grid_view *v, const uint8_t *sub, uint32_t c, pf__accel_seed *out, uint32_t cap);
/* The subgoals v with a legal canonical path v -> c that passes no other subgoal (c's backward
 * seeds); as pf__accel_scan_fwd. */
uint32_t pf__accel_scan_bwd(const pf__grid_view *v, const uint8_t *sub, uint32_t c, pf__accel_seed *out, uint32_t cap);
/* Whether the canonical path from -> to is legal; its steps when it is. The scans read the cells
 * of the view they are given: the map's while building or loading, the prep map's (pf__accel_prep_view)
 * in queries. */
int pf__accel_cp_legal(const pf__grid_view *v, uint32_t from, uint32_t to, uint32_t *a, uint32_t *b);

/* ---- build, query ----------------------------------------------------------------------------- */

/* Marks the subgoals of m into sub[cells] (in parallel); returns how many there are. */
uint32_t pf__accel_mark_subgoals(const pf_map *m, uint8_t *sub, const pf__par *par);
/* Allocates an empty accelerator shell for m (no arrays) with desc's allocator and policy. */
pf_accel *pf__accel_new(const pf_map *m, const pf_accel_desc *d);
/* pf_accel_create without holding the map: for a caller that holds it or edits it (accel_edit.c,
 * inside the edit). out is not NULL. */
pf_status pf__accel_create_held(const pf_map *map, const pf_accel_desc *desc, pf_accel **out);

/* With desc.edits = PF_ACCEL_EDITS_REBUILD, attaches acc to its map so that every edit rebuilds it
 * (accel_edit.c); with PF_ACCEL_EDITS_CHECK, starts its diff; called once a create or a load
 * succeeded: 0 when out of memory (the create or load fails). The detach is NULL-safe and
 * idempotent. */
int  pf__accel_follow(pf_accel *acc);
void pf__accel_unfollow(pf_accel *acc);

/* ---- following edits by the diff (accel_diff.c, PF_ACCEL_EDITS_CHECK) ------------------------ */

/* Starts following acc's map by the diff: D = the cells whose class differs from prep now, then
 * kept by every edit. Call where the map is quiet (no edit running) and no search reads acc. Tried
 * once: later calls change nothing (a batch's spares attach from worker threads, after the batch's
 * own attachment tried it on the caller's thread); 0 when that try ran out of memory (acc then
 * answers nothing on an edited map: stale). */
int  pf__accel_diff_start(pf_accel *acc);
void pf__accel_diff_free(pf_accel *acc);
/* Whether padded cell c is in D. */
PF__INLINE int pf__accel_diff_has(const pf_accel *acc, uint32_t c)
{
    return (int)((acc->dbits[c >> 6] >> (c & 63u)) & 1u);
}
/* The same for the padded cell (x, y) of a map of padded width pw, through the block bitmap. */
PF__INLINE int pf__accel_diff_has_xy(const pf_accel *acc, uint32_t pw, uint32_t x, uint32_t y)
{
    uint32_t b = (y >> PF__ACCEL_DBLK_SHIFT) * acc->dbw + (x >> PF__ACCEL_DBLK_SHIFT);
    if (!((acc->dblk[b >> 6] >> (b & 63u)) & 1u)) return 0;
    return pf__accel_diff_has(acc, y * pw + x);
}
/* A lower bound on the cost, on the live map m, of any path s -> g of class k that enters or cuts
 * beside a cell of D open to k now (better than at prep); INFINITY when D has none. */
double pf__accel_diff_bound(const pf_accel *acc, const pf_map *m, uint32_t s, uint32_t g, uint8_t k);
/* Whether the canonical path from -> to (padded width pw) enters no cell of
 * D and cuts beside none: then every step of it is as legal on the live map as on the prep map. */
int  pf__accel_diff_cp_clear(const pf_accel *acc, uint32_t pw, uint32_t from, uint32_t to);
/* An answer whose path crosses D, moved beside it at the same cost where it can be: each illegal
 * step of path (public ids, goal first, path[steps] the start) is taken again inside the longest
 * run of steps around it that keeps to one quadrant (x and y each move one way or not at all), by
 * a path of the same cost within the run's box that is legal on the live map m, found by a table of
 * the box's cells (table, at most cap of them; first over the orders of a run of two directions,
 * which reach further for the same table). Goes on from step *at and its try *tried (0 at first),
 * adding the cells it reads to *cells, and stops between two tables once they reach upto (-1, *at
 * and *tried where to go on). 1 when every step of path is legal on m now, 0 when a step cannot
 * be moved (path then partly moved, to be thrown away). */
int  pf__accel_diff_reroute(const pf_map *m, uint32_t *path, uint32_t steps, uint32_t *at, uint32_t *tried,
                            uint32_t *table, uint32_t cap, uint64_t *cells, uint64_t upto);
/* Whether acc answers AUTO on m: made for it, unweighted, and its cells unchanged since the build
 * (the fingerprint) or followed by the diff. */
PF__INLINE int pf__accel_answers(const pf_accel *acc, const pf_map *m)
{
    if (acc->map != m) return 0;
    if (acc->diffing) return !acc->diff_lost && !m->cost;
    return acc->fingerprint == m->fingerprint;
}
/* accel_landmarks.c: computes acc's landmark distances over its core (after a build or a load;
 * nothing when it has no core); 0 on allocation failure. */
int      pf__accel_landmarks(pf_accel *acc);
void     pf__accel_landmarks_free(pf_accel *acc);
size_t   pf__accel_landmarks_bytes(const pf_accel *acc);
PF__INLINE uint32_t pf__accel_lm_slot(uint32_t cell, uint32_t mask)
{
    return (uint32_t)(((uint64_t)cell * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & mask;
}

/* A landmark distance as stored in lm_d: PF__ACCEL_LM_NONE where the landmark does not reach. */
#define PF__ACCEL_LM_NONE      0xFFFFFFFFu
#define PF__ACCEL_LM_NONE_HALF 0xFFFFu
PF__INLINE double pf__accel_lm_dist(uint32_t e)
{
    return e == PF__ACCEL_LM_NONE ? INFINITY : pf__accel_cost(e & 0xFFFFu, e >> 16);
}

/* Finding the arc owner -> other in owner's list (accel_unpack.c): the first arc to it, as
 * unpacking takes it. A scan, as a build's lists need (their nodes' arcs up the hierarchy, a few
 * dozen); but a file may make a list as long as it likes, and every shortcut through it a scan
 * of it (the loader's check and the unpacking index: quadratic, a forged file of 1.3 MB took
 * 3.3 s to load, one of 320 KB 0.22 s). Lists longer than PF__ACCEL_FIND_SCAN get their arc indices ordered by target in
 * by_to (NULL when no list is that long), found by halving. */
#define PF__ACCEL_FIND_SCAN 32u
typedef struct pf__accel_finder {
    uint32_t *by_to; /* [narcs] for a long list c: by_to[first[c] .. first[c + 1]) its arcs by (to, index) */
    uint32_t  twice; /* the lowest index of an arc of a long list with an earlier arc to the same
                        end in that list (seen when sorting); UINT32_MAX when none */
} pf__accel_finder;
/* 0 on allocation failure. longest: the longest list's length when the caller knows it (the
 * loader, from its pass over the offsets), else 0 (measured here: one more pass over first[]). */
int      pf__accel_finder_make(const pf_accel *acc, uint32_t longest, pf__accel_finder *f);
void     pf__accel_finder_free(const pf_accel *acc, pf__accel_finder *f);
/* The index of the first arc to `other` in owner's list; UINT32_MAX when there is none. Inline:
 * the loader and the unpacking index call it twice a shortcut (a call each cost 15% more
 * instructions loading random-256-20, callgrind). */
PF__INLINE uint32_t pf__accel_find(const pf_accel *acc, const pf__accel_finder *f, uint32_t owner, uint32_t other)
{
    const uint32_t b = acc->first[owner], e = acc->first[owner + 1u];
    if (e - b <= PF__ACCEL_FIND_SCAN || !f->by_to) {
        for (uint32_t k = b; k < e; k++)
            if (acc->arcs[k].to == other) return k;
        return UINT32_MAX;
    }
    /* the first of the list's arcs (by index) whose target is not below `other` */
    uint32_t lo = b, hi = e;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2u;
        if (acc->arcs[f->by_to[mid]].to < other) lo = mid + 1u;
        else hi = mid;
    }
    return lo < e && acc->arcs[f->by_to[lo]].to == other ? f->by_to[lo] : UINT32_MAX;
}

/* accel_unpack.c: computes acc->down (after a build or a load); 0 on allocation failure. The
 * _by form finds the halves through fd (the loader's, made for its check) instead of its own. */
#define PF__ACCEL_DOWN_NONE  0xFFFFFFFFu
#define PF__ACCEL_DOWN_SHIFT 24u
#define PF__ACCEL_DOWN_MASK  0xFFFFFFu
#define PF__ACCEL_HALF_GRAPH 1u
#define PF__ACCEL_HALF_SRC   2u
int    pf__accel_unpack_index(pf_accel *acc);
int    pf__accel_unpack_index_by(pf_accel *acc, const pf__accel_finder *fd);
void   pf__accel_unpack_free(pf_accel *acc);
size_t pf__accel_unpack_bytes(const pf_accel *acc);

/* accel_nodes.c: computes the index by node of a hierarchy without a core (after a build or a
 * load; nothing for one with a core); 0 on allocation failure. */
int    pf__accel_nodes_index(pf_accel *acc);
void   pf__accel_nodes_free(pf_accel *acc);
size_t pf__accel_nodes_bytes(const pf_accel *acc);

/* accel_jumps.c: computes acc->jump (after a build or a load; nothing for a hierarchy with a
 * core); 0 on allocation failure. The scans by it list the same seeds in the same order as
 * pf__accel_scan_fwd and pf__accel_scan_bwd on the prep map (call them where acc->jump is set). */
int      pf__accel_jumps_index(pf_accel *acc);
/* The same whatever the hierarchy (tests: the scans by it on maps with a core too). */
int      pf__accel_jumps_make(pf_accel *acc);
void     pf__accel_jumps_free(pf_accel *acc);
size_t   pf__accel_jumps_bytes(const pf_accel *acc);
uint32_t pf__accel_jump_fwd(const pf_accel *acc, uint32_t c, pf__accel_seed *out, uint32_t cap);
uint32_t pf__accel_jump_bwd(const pf_accel *acc, uint32_t c, pf__accel_seed *out, uint32_t cap);
/* pf__accel_cp_legal on the prep map by the table: a hop a subgoal on the way, not a read a step. */
int      pf__accel_jump_cp_legal(const pf_accel *acc, uint32_t from, uint32_t to, uint32_t *a, uint32_t *b);

/* The node index of a subgoal's cell (node_cell is ascending); PF_NODE_NONE for any other cell. */
PF__INLINE uint32_t pf__accel_node_of(const pf_accel *acc, uint32_t cell)
{
    uint32_t lo = 0, hi = acc->nodes;
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2u;
        if (acc->node_cell[mid] < cell) lo = mid + 1u;
        else hi = mid;
    }
    return lo < acc->nodes && acc->node_cell[lo] == cell ? lo : PF_NODE_NONE;
}

/* The core index of a core cell; PF_NODE_NONE for any other. */
PF__INLINE uint32_t pf__accel_core_index(const pf_accel *acc, uint32_t cell)
{
    uint32_t mask = acc->lm_cap - 1u, i = pf__accel_lm_slot(cell, mask);
    for (;;) {
        uint32_t k = acc->lm_key[i];
        if (k == cell) return acc->lm_idx[i];
        if (k == PF_NODE_NONE) return PF_NODE_NONE;
        i = (i + 1u) & mask;
    }
}

/* ---- squads (accel_squad.c, accel_query.c) ---------------------------------------------------- */

/*
 * The goal side of accelerated queries sharing a goal, made once by the first member that needs it
 * and read by the others (core_batch_internal.h says how a batch uses it). A query's goal side does
 * not depend on its start where it runs whole: the goal's seeds, its search up the hierarchy and
 * its labels (by cell, and by core index in the core). A hierarchy without a core searches both
 * sides at once, each pruned by the other (both_ways); a squad's member runs the goal side whole
 * instead (the labels on records by node index) and its start side against it alone.
 *   state  EMPTY until a member claims it (BUILDING), then READY, or FAILED (out of memory: each
 *          member makes its own); written with release, read with acquire
 *   acc, version, goal  what it was made for: another accelerator, map version or goal makes it
 *          useless to a query (the query then makes its own goal side)
 *   expanded, pushed  what making it counted: a member that reads it counts them too, so its stats
 *          (and the budget a batch charges it) do not depend on which member made it
 */
enum { PF__SQUAD_EMPTY = 0, PF__SQUAD_BUILDING, PF__SQUAD_READY, PF__SQUAD_FAILED };
typedef struct pf__accel_squad pf__accel_squad; /* as core_batch_internal.h names it */
struct pf__accel_squad {
    pf_allocator    alloc;
    atomic_int      state;
    uint64_t        acc_serial; /* its accelerator's serial (pf_accel.serial) */
    uint64_t        version;
    uint32_t        goal;
    uint32_t        expanded, pushed;
    /* with a core: the labels by cell [lcap] and by core index [ccap] (open addressing, as the
     * member that made them had them), in arrays of lroom and croom entries */
    uint32_t       *lkey, *lpar;
    double         *lg;
    uint32_t        lcap, lcount, lroom;
    uint32_t       *ckey;
    double         *cg;
    uint32_t        ccap, ccount, croom;
    /* without: the goal side's records by node index (g and parent), [gr_count] nodes */
    pf__nodes       gr;
    void           *gr_block;
    uint32_t        gr_count;
};
/* Room in q for labels of lcap and ccap slots, and for records of n nodes (0: none); 0 when out of
 * memory. Contents are not kept. */
int pf__accel_squad_room(pf__accel_squad *q, uint32_t lcap, uint32_t ccap, uint32_t n);

/* What PF_ALGO_AUTO runs for the query si -> gi (inner indices) on c: PF_ALGO_AUTO itself when the
 * context's accelerator answers it, else the search that will (A*, JPS or JPS+); adds to *detail
 * why it did not take the accelerator (PF_DETAIL_SHORT, PF_DETAIL_ACCEL_STALE). *cap is 0, or for
 * a short move the accelerator could answer, the expansions after which its A* gives up and the
 * query begins again with pf__auto_long_only(c, 1) set (search.c), the accelerator answering
 * (accel_pick.c). */
pf_algo   pf__auto_pick(const pf_ctx *c, uint32_t si, uint32_t gi, uint32_t *detail, uint32_t *cap);
void      pf__auto_long_only(pf_ctx *c, int on);
/* The accelerated query of c->s, begun by search.c once PF_ALGO_AUTO picked the accelerator and
 * the start and goal were found in one component: begin prepares, step runs it for `budget` units
 * (UINT32_MAX: to its end), PF_IN_PROGRESS after exactly that many (accel_query.c, SLICES). */
pf_status pf__accel_begin(pf_ctx *c);
pf_status pf__accel_step(pf_ctx *c, uint32_t budget);
/* Both return PF_UNSUPPORTED where the accelerator cannot prove its answer on an edited map
 * (accel_diff.c): search.c then begins the query again with the accelerator refused (on = 1 until
 * that begin returns), JPS answering with PF_DETAIL_ACCEL_EDITED. */
void      pf__accel_refuse(pf_ctx *c, int on); /* accel_pick.c */
/* The last path found, goal first, as public node ids (len 0 when none). */
const uint32_t *pf__accel_path(const pf_ctx *c, uint32_t *len);

#endif
