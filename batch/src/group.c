/* group.c - group jobs: the members of a group and their results. The search itself is core's
 * (pf__group_search_*, core_batch_internal.h): one backward search from the shared goal settles
 * every member's start. */
#include <math.h>
#include "batch_internal.h"

/* The job's members, for pf__group.starts_at. */
typedef struct group_members {
    const pf_batch *b;
    const pf__job  *j;
} group_members;

/* Number of members whose start is `node` (members are sorted by start). */
static uint32_t starts_at(const void *user, uint32_t node)
{
    const group_members *gm = user;
    const pf_batch *b = gm->b;
    const pf__job *j = gm->j;
    const uint32_t *mem = pf__plan_members(b, j);
    uint32_t lo = 0, hi = j->count;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (pf__query(b, mem[mid])->q.start < node) lo = mid + 1;
        else hi = mid;
    }
    uint32_t n = 0;
    while (lo + n < j->count && pf__query(b, mem[lo + n])->q.start == node) n++;
    return n;
}

/* The group of job j, its members in gm (which must outlive the calls it is passed to). */
static pf__group group_of(const pf_batch *b, const pf__job *j, group_members *gm)
{
    gm->b = b;
    gm->j = j;
    const pf__bquery *e = pf__query(b, j->query);
    pf__group g = {.goal = e->q.goal, .heuristic = e->rd.algo == PF_ALGO_DIJKSTRA ? PF_HEUR_ZERO : e->rd.heuristic,
                   .size = (uint8_t)(e->rd.unit_size > 1 ? e->rd.unit_size : 1u), .filter = e->rd.filter,
                   .bx0 = j->bx0, .by0 = j->by0, .bx1 = j->bx1, .by1 = j->by1,
                   .count = j->count, .settled = j->settled, .starts_at = starts_at, .user = gm};
    return g;
}

/* A waypoint path (pf_search_desc.waypoints): the start, the cells where the path turns and the
 * goal, compacted in place; returns their number. */
static uint32_t keep_turns(const pf_map *m, uint32_t *nodes, uint32_t len)
{
    if (len <= 2) return len;
    uint32_t n = 1;
    pf_point a = pf_grid_point(m, nodes[0]), b = pf_grid_point(m, nodes[1]);
    for (uint32_t i = 1; i + 1 < len; i++) {
        const pf_point c = pf_grid_point(m, nodes[i + 1]);
        if (b.x - a.x != c.x - b.x || b.y - a.y != c.y - b.y) nodes[n++] = nodes[i];
        a = b;
        b = c;
    }
    nodes[n++] = nodes[len - 1];
    return n;
}

pf_status pf__group_step(pf_batch *b, pf__job *j, pf_ctx *c, uint32_t budget, int begin)
{
    group_members gm;
    pf__group g = group_of(b, j, &gm);
    pf_status st = begin ? pf__group_search_begin(c, &g) : pf__group_search_step(c, &g, budget);
    j->settled = g.settled;
    return st;
}

/* A member the group could not answer as its own search would (pf__group_search_answers): its own
 * search, on the group's context once the group's paths are read. Deterministic like any search,
 * so the answers stay the same for any worker count. */
static void own_result(pf_batch *b, pf__bquery *e, pf_ctx *c, pf__arena *arena)
{
    pf_batch_result *r = &e->res;
    pf_path probe = {0}; /* its length only: the path is copied into the arena at that length */
    r->status = pf_search(c, e->q.start, e->q.goal, &e->q.search, &probe, &r->stats);
    if (probe.len && (r->status == PF_BUFFER_TOO_SMALL || !pf_failed(r->status))) pf__arena_take_path(arena, c, r);
    (void)b;
}

void pf__group_results(pf_batch *b, pf__job *j, pf_ctx *c, pf_status st, pf__arena *arena)
{
    group_members gm;
    const pf__group g = group_of(b, j, &gm);
    const pf_stats cs = pf__ctx_stats(c);
    const uint32_t *mem = pf__plan_members(b, j);
    uint32_t own = 0; /* members left to their own search */
    for (uint32_t k = 0; k < j->count; k++) {
        pf__bquery *e = pf__query(b, mem[k]);
        pf_batch_result *r = &e->res;
        r->flags |= PF_BATCH_RESULT_GROUPED | (j->sliced ? PF_BATCH_RESULT_SLICED : 0u);
        r->stats = cs;
        r->stats.algo = PF_ALGO_ASTAR; /* the group's backward A* answers (pf_batch.h, GROUP MOVES) */
        r->stats.detail |= j->detail; /* from its planning (plan.c) */
        r->stats.cost = INFINITY;
        r->stats.path_len = 0;
        r->path = NULL;
        r->path_len = 0;
        uint32_t len = pf_failed(st) ? 0 : pf__group_search_path_len(c, &g, e->q.start);
        if (!len) {
            r->status = pf_failed(st) ? st : PF_NO_PATH;
            if (!pf_failed(st) && !pf__group_search_answers(&e->rd, 0, INFINITY)) {
                r->status = PF_IN_PROGRESS;
                own++;
            }
            continue;
        }
        uint32_t *nodes = pf__arena_alloc(arena, (size_t)len * sizeof *nodes, sizeof *nodes);
        if (!nodes) {
            r->status = PF_OUT_OF_MEMORY;
            continue;
        }
        r->status = PF_OK;
        r->stats.cost = pf__group_search_path(c, &g, e->q.start, nodes, len);
        if (!pf__group_search_answers(&e->rd, len, r->stats.cost)) {
            r->status = PF_IN_PROGRESS;
            r->stats.cost = INFINITY;
            own++;
            continue;
        }
        if (e->rd.waypoints) len = keep_turns(b->map, nodes, len);
        r->stats.path_len = len;
        r->path = nodes;
        r->path_len = len;
    }
    /* the group's records are read: the context may search for the rest (and holds their records
     * then, not the group's: results taken back are not written from it again, account.c) */
    if (own) j->consumed = 1;
    for (uint32_t k = 0; own && k < j->count; k++) {
        pf__bquery *e = pf__query(b, mem[k]);
        if (e->res.status != PF_IN_PROGRESS) continue;
        own_result(b, e, c, arena);
        own--;
    }
}
