/* dedup.c - planning a run: identical queries searched once, same-goal queries grouped, jobs listed.
 *
 * Only queries submitted since the previous run are considered (the "fresh" ones). That keeps every
 * decision a function of what the caller submitted between two runs, never of how far a budgeted
 * run got, so paths stay the same for any thread count.
 */
#define XXH_INLINE_ALL /* xxHash's advice for one hashing .c: no exported symbols */
#include <xxhash.h>
#include <string.h>
#include "batch_internal.h"

/* Everything a result depends on, with padding zeroed so the bytes can be hashed and compared.
 * Group keys (no start) add the priority: a group is searched at one priority, so an urgent unit
 * never waits for a normal squad's search, nor does a squad take the urgent budget. */
typedef struct qkey {
    uint32_t  start, goal;
    uint32_t  algo, heuristic, heuristic_set, tie;
    uint32_t  max_expansions, reverse;
    uint32_t  prio, waypoints;
    uint32_t  unit_size, partial, flow;
    double    weight, max_cost;
    uint64_t  tie_seed;
    uintptr_t fn, user;
} qkey;

static void make_key(const pf__bquery *e, int with_start, qkey *k)
{
    memset(k, 0, sizeof *k);
    const pf_search_desc *d = &e->rd;
    k->start = with_start ? e->q.start : 0;
    k->prio = with_start ? 0u : (uint32_t)e->q.priority;
    k->goal = e->q.goal;
    k->algo = (uint32_t)d->algo;
    k->heuristic = (uint32_t)d->heuristic;
    k->heuristic_set = d->heuristic_set;
    k->tie = (uint32_t)d->tie;
    k->max_expansions = d->max_expansions;
    k->reverse = d->reverse != 0;
    k->waypoints = d->waypoints != 0;
    k->unit_size = d->unit_size;
    k->partial = d->partial != 0;
    k->flow = (e->q.flags & PF_QUERY_FLOW) != 0;
    k->weight = d->weight;
    k->max_cost = d->max_cost;
    k->tie_seed = d->tie_seed;
    memcpy(&k->fn, &d->heuristic_fn, sizeof d->heuristic_fn < sizeof k->fn ? sizeof d->heuristic_fn : sizeof k->fn);
    k->user = (uintptr_t)d->heuristic_user;
}

/* Open-addressing table of fresh indices + 1 (0 = empty). For each fresh query i, out[i] receives
 * the first fresh index with an equal key. */
static void first_equal(pf_batch *b, const uint32_t *idx, uint32_t n, int with_start, uint32_t *out)
{
    uint32_t mask = b->table_cap - 1u;
    memset(b->table, 0, b->table_cap * sizeof *b->table);
    for (uint32_t t = 0; t < n; t++) {
        uint32_t i = idx[t];
        qkey k, o;
        make_key(&b->q[b->fresh[i]], with_start, &k);
        uint32_t h = (uint32_t)XXH3_64bits(&k, sizeof k) & mask;
        for (;;) {
            uint32_t v = b->table[h];
            if (!v) {
                b->table[h] = i + 1u;
                out[i] = i;
                break;
            }
            make_key(&b->q[b->fresh[v - 1u]], with_start, &o);
            if (memcmp(&k, &o, sizeof k) == 0) {
                out[i] = v - 1u;
                break;
            }
            h = (h + 1u) & mask;
        }
    }
}

/* Whether a query can join a group: valid endpoints in one component of one terrain class. */
static int groupable(const pf_map *m, const pf__bquery *e)
{
    return !(e->q.flags & PF_QUERY_FLOW) && pf__group_search_accepts(m, &e->rd, e->q.start, e->q.goal);
}

static uint64_t key_hash(const pf__bquery *e, int with_start)
{
    qkey k;
    make_key(e, with_start, &k);
    return XXH3_64bits(&k, sizeof k);
}

/* Capacity was reserved by pf__batch_plan. Fields the plan does not set start at zero. */
static void append_job(pf_batch *b, const pf__job *j)
{
    pf__job *d = &b->jobs[b->njobs++];
    memcpy(d, j, sizeof *j);
    d->ea = d->eb = PF__NONE;
    atomic_init(&d->ran, 0);
}

int pf__batch_plan(pf_batch *b)
{
    uint32_t n = b->nfresh;
    if (n == 0) return 1;
    uint32_t tcap = 64;
    while (tcap < 2u * n) tcap *= 2u;
    /* scratch: canon[n] | gid[n] | cnt[n] | order[n] | ndup[n] */
    if (!PF__GROW(b, b->scratch, b->scratch_cap, 5u * n)) return 0;
    if (b->table_cap < tcap) {
        pf__free(&b->alloc, b->table, b->table_cap * sizeof *b->table);
        b->table = NULL;
        b->table_cap = 0;
        if (!PF__GROW(b, b->table, b->table_cap, tcap)) return 0;
    }
    uint32_t *canon = b->scratch, *gid = canon + n, *cnt = gid + n, *order = cnt + n, *ndup = order + n;
    /* Worst case every fresh query is a duplicate or a group member: reserve now so nothing below
     * can fail halfway. */
    if (!PF__GROW(b, b->dups, b->dups_cap, b->ndups + n)) return 0;
    if (!PF__GROW(b, b->members, b->members_cap, b->nmembers + n)) return 0;
    if (!PF__GROW(b, b->jobs, b->jobs_cap, b->njobs + n)) return 0;

    /* 1. Queries cancelled before any run are done already; bad options that the search would
     * misuse (a shared trace buffer) fail right here. */
    uint32_t nvalid = 0;
    for (uint32_t i = 0; i < n; i++) {
        pf__bquery *e = &b->q[b->fresh[i]];
        canon[i] = i;
        ndup[i] = 0;
        if (e->state != PF__Q_NEW) continue;
        if (e->q.search.trace) {
            e->res.status = PF_INVALID_ARGUMENT;
            pf__query_done(b, b->fresh[i]);
            continue;
        }
        e->state = PF__Q_QUEUED;
        order[nvalid++] = i;
    }
    /* 2. Deduplicate. */
    if (!(b->flags & PF_BATCH_NO_DEDUP)) first_equal(b, order, nvalid, 1, canon);
    uint32_t ncanon = 0;
    for (uint32_t t = 0; t < nvalid; t++) {
        uint32_t i = order[t];
        if (canon[i] != i) {
            b->q[b->fresh[i]].canon = b->fresh[canon[i]];
            b->dups[b->ndups++] = b->fresh[i];
            ndup[canon[i]]++;
        } else {
            order[ncanon++] = i;
        }
    }
    /* 3. Group same-goal queries (key without the start). */
    const pf_map *m = b->map;
    int grouping = !(b->flags & PF_BATCH_NO_GROUPS) && pf_map_kind_of(m) == PF_MAP_GRID &&
                   pf_grid_moves(m) != PF_MOVES_HEX;
    uint32_t *gl = cnt, k = 0; /* groupable canonical queries, in submission order */
    for (uint32_t t = 0; t < ncanon; t++) {
        uint32_t i = order[t];
        gid[i] = PF_NODE_NONE;
        if (grouping && groupable(m, &b->q[b->fresh[i]])) gl[k++] = i;
    }
    if (k >= b->group_min) {
        first_equal(b, gl, k, 0, gid); /* gid[i] = first member of i's goal group */
        /* canon[] is free once duplicates are recorded: reuse it for the group sizes */
        for (uint32_t t = 0; t < k; t++) canon[gl[t]] = 0;
        for (uint32_t t = 0; t < k; t++) canon[gid[gl[t]]]++;
        for (uint32_t t = 0; t < k; t++)
            if (canon[gid[gl[t]]] < b->group_min) gid[gl[t]] = PF_NODE_NONE;
    } else {
        for (uint32_t t = 0; t < k; t++) gid[gl[t]] = PF_NODE_NONE;
    }
    /* 4. Jobs in submission order: a single per ungrouped canonical query, a group at the position
     * of its first member. */
    for (uint32_t t = 0; t < ncanon; t++) {
        uint32_t i = order[t];
        uint32_t slot = b->fresh[i];
        if (gid[i] == PF_NODE_NONE) {
            const pf__bquery *e = &b->q[slot];
            pf__job j = {.kind = PF__J_SINGLE, .query = slot, .seq = e->seq, .epoch = b->epoch,
                         .live = 1u + ndup[i], .kgoal = e->q.goal, .kstart = e->q.start,
                         .khash = key_hash(e, 1)};
            b->q[slot].job = b->njobs;
            append_job(b, &j);
            continue;
        }
        if (gid[i] != i) continue;
        pf__job j = {.kind = PF__J_GROUP, .query = slot, .seq = b->q[slot].seq, .first = b->nmembers,
                     .epoch = b->epoch, .kgoal = b->q[slot].q.goal, .khash = key_hash(&b->q[slot], 0)};
        const pf_point p0 = pf_grid_point(m, b->q[slot].q.start);
        j.bx0 = j.bx1 = p0.x;
        j.by0 = j.by1 = p0.y;
        for (uint32_t u = t; u < ncanon; u++) {
            uint32_t mi = order[u];
            if (gid[mi] != i) continue;
            uint32_t ms = b->fresh[mi];
            j.live += 1u + ndup[mi];
            b->q[ms].job = b->njobs;
            pf_point p = pf_grid_point(m, b->q[ms].q.start);
            if (p.x < j.bx0) j.bx0 = p.x;
            if (p.x > j.bx1) j.bx1 = p.x;
            if (p.y < j.by0) j.by0 = p.y;
            if (p.y > j.by1) j.by1 = p.y;
            /* insertion by start node keeps members sorted for the search's lookups; groups are
             * small (hundreds), and ties (NO_DEDUP) keep submission order */
            uint32_t *mem = &b->members[j.first];
            uint32_t pos = j.count++;
            while (pos > 0 && b->q[mem[pos - 1u]].q.start > b->q[ms].q.start) {
                mem[pos] = mem[pos - 1u];
                pos--;
            }
            mem[pos] = ms;
        }
        b->nmembers += j.count;
        j.kstart = b->q[b->members[j.first]].q.start; /* the smallest start */
        j.khash ^= j.count;
        append_job(b, &j);
    }
    b->nfresh = 0;
    return 1;
}
