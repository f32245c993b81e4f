/* core_batch_internal.h - what the batch module uses of core beyond the public headers (never
 * installed).
 *
 * batch/ includes the public headers, its own batch_internal.h, this file and the library's
 * growable array (grow_internal.h), and nothing else of core: core/src is not on its include path,
 * and nothing here shows the layout of a core object.
 * A batch needs three things the public API does not give: the library's base (allocation through
 * the user's hooks, handle checks: base_internal.h), the running statistics of a context's search
 * (the scheduler charges expansions to a budget), and the group search, which answers many units
 * sharing a goal with one backward search on a context (search/group_search.c).
 */
#ifndef PF_CORE_BATCH_INTERNAL_H
#define PF_CORE_BATCH_INTERNAL_H

#include "pathfind/pf_search.h"
#include "pathfind/pf_accel.h"
#include "base_internal.h"
#include "map_user_internal.h" /* a batch follows its map's edits (batch/src/follow.c) */

/* ---- handles ----------------------------------------------------------------------------------- */

#ifdef PF__DEBUG_HANDLES
/* PF__CHECK_HANDLE for a map, whose layout batch does not see. */
void pf__map_check_handle(const pf_map *m, const char *fn);
#define PF__CHECK_MAP(m) pf__map_check_handle((m), __func__)
#else
#define PF__CHECK_MAP(m) ((void)0)
#endif

/* ---- search contexts --------------------------------------------------------------------------- */

/* The statistics of the context's last search (group searches included), as they stand: a
 * running search's expansions so far. */
pf_stats pf__ctx_stats(const pf_ctx *ctx);
/* The units of work the context's running search has been charged: its expansions, and what an
 * accelerated query's path writing counts beside them, less what it owes (pf__search.work and
 * .owed). pf_search_step(ctx, n) returns PF_IN_PROGRESS after exactly n of them. */
uint64_t pf__ctx_units(const pf_ctx *ctx);
/* Whether the context holds an accelerated query in progress (suspended part way): it reads its
 * accelerator's arrays at its next step, so it cannot go on with another (pf__ctx_adopt_accel). */
int      pf__ctx_accel_running(const pf_ctx *ctx);

/* Makes the open list hold at least `cap` entries (keeping its contents) and, with `prefault`,
 * writes its unused part so its pages are mapped; 0 on allocation failure or when a context in
 * caller memory would have to grow (nothing changed). pf_batch_reserve's way to size contexts. */
int pf__ctx_reserve_open(pf_ctx *ctx, uint32_t cap, int prefault);
/* Gives back every page of lazy records (PF_PREFAULT_NONE: search/nodes_internal.h), so an idle
 * context (a batch's free spare) holds none of a finished search's memory: its spare pages are
 * zeroed for the next search and the backing pages, with the default allocator on Linux, go back
 * to the kernel (a user allocator's stay, cleared when taken again). Any search state is lost.
 * Nothing for dense records (pre-faulted contexts, caller memory). */
void pf__ctx_release(pf_ctx *ctx);
/* The same for the pages of lazy records that hold no record of the search in progress, so a
 * suspended search keeps what it touched, not what the context's earlier searches left. */
void pf__ctx_trim(pf_ctx *ctx);
/* Moves what `from` derived from the map alone, not from its search (the components of sized
 * units, 8 bytes a cell once a sized query asked), to `to`, freeing what `to` had of it: `from`
 * keeps a suspended search, which never reads them again, and `to` searches on. Without this
 * every suspended search kept its own copy (32 MB on 2000x2000: 4x what its records take). */
void pf__ctx_hand_over(pf_ctx *from, pf_ctx *to);

/* A search suspended in `ctx` when the map's edit `e` (between its version and e->version) changed
 * the cells of e->rects: carried to the new version as it stands (1) when it is a plain A* or
 * Dijkstra search on a grid none of whose records lies within a unit's reach of a changed cell,
 * its answer then shortest on the new cells (search.c says why); otherwise 0, and its next step
 * starts it again on the new version, as ever. */
int pf__ctx_carry_search(pf_ctx *ctx, const pf__edit_view *e);

/* Makes now the per-context state the algorithms of `algos` (bit 1u << pf_algo each) allocate on
 * their first search: JPS's and JPS+'s jump-point state (JPS, JPS+, AUTO on maps JPS supports), the
 * accelerator's query state (AUTO, when one is attached), Theta*'s parents (THETA). PF_OK,
 * PF_OUT_OF_MEMORY, PF_CAPACITY_EXCEEDED (a context in caller memory without it).
 * pf_batch_reserve's way to keep a frame's first searches from allocating. */
pf_status pf__ctx_reserve_algos(pf_ctx *ctx, uint32_t algos);
/* The JPS table attached to ctx (pf_ctx_use_jps_table); NULL when none. */
const pf_jps_table *pf__ctx_jps_table(const pf_ctx *ctx);
/* What a unit of `size` > 1 reads in ctx, made now: its component labels, and JPS's bitmaps for
 * it when `algos` names JPS, JPS+ or AUTO (pf_batch_reserve_desc.unit_size). */
pf_status pf__ctx_reserve_size(pf_ctx *ctx, uint32_t size, uint32_t algos);

/* Attaches `acc` (NULL detaches) as pf_ctx_use_accel does, but one made for the context's map
 * object whatever its cells: a stale one answers no query until the map's fingerprint is its own
 * (pf_batch_adopt_accel). PF_OK, PF_WRONG_MAP (another map object), PF_OUT_OF_MEMORY. */
pf_status pf__ctx_adopt_accel(pf_ctx *ctx, const pf_accel *acc);
/* The map object an accelerator was made for. */
const pf_map *pf__accel_map(const pf_accel *acc);
/* Whether pf_ctx_use_accel would take `acc` for `map`: made for it, and current
 * (pf_accel_current) or following its edits by the diff (PF_ACCEL_EDITS_CHECK). */
int pf__accel_attachable(const pf_accel *acc, const pf_map *map);
/* Whether a context of `map` may use `t` (made for this map, at its cells): pf_ctx_create's test. */
int pf__jps_table_attachable(const pf_jps_table *t, const pf_map *map);
/* Whether `acc` [opt] would answer the query start -> goal (public ids) with the resolved options
 * rd on map: AUTO, a one-cell unit without filter or partial answer, the accelerator in use on the
 * map, and a move longer than its short-query threshold. The batch then groups the query with
 * others of its goal as a squad of accelerated queries (below), not as a group search
 * (batch/src/plan.c). */
int pf__accel_takes(const pf_accel *acc, const pf_map *map, const pf_search_desc *rd, uint32_t start, uint32_t goal);
/* Whether `acc` is attached but answers nothing on the map as it is now (stale: AUTO answers by
 * another search and says so, PF_DETAIL_ACCEL_STALE); 0 for NULL. */
int pf__accel_stale(const pf_accel *acc, const pf_map *map);
/* Current for `map` but not used by AUTO: its build left most subgoals uncontracted
 * (PF_DETAIL_ACCEL_DECLINED). */
int pf__accel_declined(const pf_accel *acc, const pf_map *map);

/* Squads of accelerated queries (accel/accel_squad.c): queries pf__accel_takes with one goal and
 * the same options share the goal side of their queries (the goal's seeds, its search up the
 * hierarchy, its labels), made by the first member that needs it and read by the others, each
 * member then running only its start side. A member answers what its own query answers: the same
 * status, detail flags and cost (with a core the same path and stats; without one a shortest path,
 * and the stats of the goal side run whole). Shared between threads: one member makes it; one
 * that needs it meanwhile makes its own (the same) rather than wait. */
typedef struct pf__accel_squad pf__accel_squad;
/* An empty squad (its memory through alloc); NULL when out of memory. */
pf__accel_squad *pf__accel_squad_create(const pf_allocator *alloc);
/* Empty again for another squad (keeping its memory); no query may be reading it. */
void             pf__accel_squad_reset(pf__accel_squad *q);
/* Whether a goal side was made in it. */
int              pf__accel_squad_made(const pf__accel_squad *q);
void             pf__accel_squad_destroy(pf__accel_squad *q); /* NULL-safe */
size_t           pf__accel_squad_mem_size(const pf__accel_squad *q);
/* The queries ctx's accelerator answers from now on are members of q [opt] (NULL: none). */
void             pf__ctx_accel_squad(pf_ctx *ctx, pf__accel_squad *q);

/* Octile distance of the offset (dx, dy): the batch orders jobs by it (longest first). */
double pf__grid_octile(int32_t dx, int32_t dy);

/* ---- group searches ----------------------------------------------------------------------------- */

/*
 * A group: units whose starts lie in one box share a goal. One backward search from the goal
 * settles every start (search/group_search.c explains why it is exact). The caller owns this and
 * passes it to every call; the search state itself lives in the context, so a group search can be
 * suspended and resumed like a sliced pf_search (pf__group_search_step with a budget).
 */
typedef struct pf__group {
    uint32_t goal;                /* public node */
    pf_heur  heuristic;           /* the map's metric, or PF_HEUR_ZERO (Dijkstra) */
    uint8_t  size;                /* the units' side (pf_search_desc.unit_size), 1 = one cell */
    const pf_move_filter *filter; /* [opt] their movement type (pf_search_desc.filter) */
    int32_t  bx0, by0, bx1, by1;  /* bounding box of the starts, grid coordinates */
    uint32_t count;               /* starts to settle, a start shared by k units counted k times */
    uint32_t settled;             /* starts settled so far: written by the search */
    /* How many of the group's starts are at public node `node` (asked for each node of the box as
     * it is settled). */
    uint32_t (*starts_at)(const void *user, uint32_t node);
    const void *user;
} pf__group;

/* Whether a query (resolved desc `rd`, public start and goal) may join a group: a shortest-path
 * algorithm (A*, Dijkstra, JPS, JPS+, AUTO), any unit size and movement filter, waypoints, partial
 * or max_cost or not, no max_expansions, default ties, on a square grid, endpoints the unit can
 * stand on and (without a filter) connected for one cell. Members a group cannot answer as their
 * own search would (pf__group_search_answers) are searched alone by the group's job. */
int       pf__group_search_accepts(const pf_map *m, const pf_search_desc *rd, uint32_t start, uint32_t goal);
/* Starts g's search on ctx: PF_IN_PROGRESS, or PF_OUT_OF_MEMORY. */
pf_status pf__group_search_begin(pf_ctx *ctx, pf__group *g);
/* Runs it for up to `budget` expansions (0 = unlimited): PF_IN_PROGRESS when the budget ran out,
 * PF_OK once every start is settled, PF_NO_PATH when the search ran dry first, PF_OUT_OF_MEMORY. */
pf_status pf__group_search_step(pf_ctx *ctx, pf__group *g, uint32_t budget);
/* After PF_OK: the number of nodes on the path from `start` to the goal, 0 when start (a public
 * node) was not settled. */
uint32_t  pf__group_search_path_len(const pf_ctx *ctx, const pf__group *g, uint32_t start);
/* Writes that path (len nodes, start first, public ids) and returns its cost, summed forward as a
 * forward A* sums it, so a path the two searches share gets bit-identical costs. */
double    pf__group_search_path(const pf_ctx *ctx, const pf__group *g, uint32_t start, uint32_t *nodes, uint32_t len);
/* Whether the group's answer for a member with resolved desc rd, settled (path_len > 0) at cost
 * `cost` or not, is the one its own search gives: a settled member without max_cost always; with
 * max_cost, one whose cost is clearly within it. The others (a partial member not settled, a
 * max_cost member not settled or near or past its limit) get their own search. */
int       pf__group_search_answers(const pf_search_desc *rd, uint32_t path_len, double cost);

#endif
