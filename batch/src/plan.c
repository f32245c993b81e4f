/* plan.c - planning: identical queries searched once, same-goal queries grouped, jobs listed; the
 * jobs' life until they are done or dropped.
 *
 * Only queries submitted since the previous run are considered (the "fresh" ones). That keeps every
 * decision a function of what the caller submitted between two runs, never of how far a budgeted
 * run got, so paths stay the same for any thread count.
 */
#define XXH_INLINE_ALL /* xxHash's advice for one hashing .c: no exported symbols */
#include <xxhash.h>
#include <string.h>
#include "batch_internal.h"
#include "bytes_internal.h"

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
    uintptr_t filter; /* movement types: by pointer, so two filters are never merged (one filter
                         shared by many units merges them, as it should). Not by contents: the
                         job searches with its first query's filter, which that query's caller
                         may free once it is cancelled while a copy's query still needs the job */
} qkey;

/* The last filter hashed: units of one movement type share one filter object, so most jobs hash
 * their filter once per plan. */
typedef struct filter_memo {
    const pf_move_filter *f;
    uint64_t              h;
} filter_memo;

/* Lockstep peers run other hosts (32-bit, wasm32, big-endian): what feeds the order's hash is
 * written out field by field, fixed width and little-endian, never a struct's memory (its padding,
 * widths and byte order are the host's: an i386 peer finished 36 of 48 tied jobs in other runs). */
static uint64_t double_bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

static uint64_t filter_hash(const pf_move_filter *f, filter_memo *memo)
{
    if (!f) return 0;
    if (memo && memo->f == f) return memo->h;
    uint8_t buf[sizeof f->classes + 4u * 256u];
    size_t n = 0;
    memcpy(buf, f->classes, sizeof f->classes);
    n += sizeof f->classes;
    for (int c = 0; c < 256; c++) {
        uint32_t u;
        memcpy(&u, &f->class_cost[c], sizeof u);
        pf__put32(buf + n, u);
        n += 4;
    }
    uint64_t h = XXH3_64bits(buf, n) | 1u; /* never 0, no filter's */
    if (memo) {
        memo->f = f;
        memo->h = h;
    }
    return h;
}

static void make_key(const pf__bquery *e, int with_start, qkey *k)
{
    memset(k, 0, sizeof *k);
    const pf_search_desc *d = &e->rd;
    k->start = with_start ? e->q.start : 0;
    /* the canonical query of a set of duplicates is its highest-ranked one (pf__plan_fresh), so
     * this is the highest priority among the queries the job answers, whatever their order */
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
    k->filter = (uintptr_t)d->filter;
}

/* Open-addressing table of fresh indices + 1 (0 = empty). For each fresh query i, out[i] receives
 * the first fresh index with an equal key. */
static void first_equal(pf_batch *b, const uint32_t *fresh, const uint32_t *idx, uint32_t n, int with_start,
                        uint32_t *out)
{
    uint32_t mask = b->table_cap - 1u;
    memset(b->table, 0, b->table_cap * sizeof *b->table);
    for (uint32_t t = 0; t < n; t++) {
        uint32_t i = idx[t];
        qkey k, o;
        const pf__bquery *e = pf__query(b, fresh[i]);
        make_key(e, with_start, &k);
        uint32_t h = (uint32_t)XXH3_64bits(&k, sizeof k) & mask;
        for (;;) {
            uint32_t v = b->table[h];
            if (!v) {
                b->table[h] = i + 1u;
                out[i] = i;
                break;
            }
            make_key(pf__query(b, fresh[v - 1u]), with_start, &o);
            if (memcmp(&k, &o, sizeof k) == 0) {
                out[i] = v - 1u;
                break;
            }
            h = (h + 1u) & mask;
        }
    }
}

/* How a query can join others of its goal: valid endpoints in one component of one terrain class
 * make it GROUP, a member of a group search, unless it is a long move the batch's accelerator
 * answers: a group's backward A* floods the region between its starts and its goal (tens of frames
 * at a 4 ms budget on rooms-2000, where the accelerator answers a unit in about 0.1 ms), so such a
 * query is a member of a SQUAD of accelerated queries instead, each answered by its own query on
 * the goal side they share (core_batch_internal.h). */
enum { JOIN_NONE = 0, JOIN_GROUP, JOIN_SQUAD };

static int join_kind(const pf_batch *b, const pf_map *m, const pf__bquery *e)
{
    if ((e->q.flags & PF_QUERY_FLOW) || !pf__group_search_accepts(m, &e->rd, e->q.start, e->q.goal)) return JOIN_NONE;
    return pf__accel_takes(b->accel, m, &e->rd, e->q.start, e->q.goal) ? JOIN_SQUAD : JOIN_GROUP;
}

/* Same-goal queries of the list l[0..k) into gid (the first of each's goal group), or PF_NODE_NONE
 * for those in groups smaller than group_min; size[] is scratch indexed like gid. */
static void same_goal(pf_batch *b, const uint32_t *fresh, const uint32_t *l, uint32_t k, uint32_t *gid, uint32_t *size)
{
    if (k < b->group_min) {
        for (uint32_t t = 0; t < k; t++) gid[l[t]] = PF_NODE_NONE;
        return;
    }
    first_equal(b, fresh, l, k, 0, gid); /* gid[i] = first member of i's goal group */
    for (uint32_t t = 0; t < k; t++) size[l[t]] = 0;
    for (uint32_t t = 0; t < k; t++) size[gid[l[t]]]++;
    for (uint32_t t = 0; t < k; t++)
        if (size[gid[l[t]]] < b->group_min) gid[l[t]] = PF_NODE_NONE;
}

/* ---- squads of accelerated queries ------------------------------------------------------------ */

/* Room for `more` squads beyond those made; 0 when out of memory (a static batch's allocator always
 * refuses: its squads' members are answered alone). */
static int squads_room(pf_batch *b, uint32_t more)
{
    uint64_t need = (uint64_t)b->squads_made + more;
    return need <= UINT32_MAX / 2u && PF__GROW(b, b->squads, b->squads_cap, (uint32_t)need);
}

/* A squad for a new group of members (1 + its index), a free one or a new one; 0 when none can be
 * made. Room was reserved by squads_room. */
static uint32_t squad_take(pf_batch *b)
{
    uint32_t i;
    if (b->squad_free) {
        i = b->squad_free - 1u;
        b->squad_free = b->squads[i].next_free;
    } else {
        if (b->squads_made >= b->squads_cap) return 0;
        pf__accel_squad *q = pf__accel_squad_create(&b->alloc);
        if (!q) return 0;
        i = b->squads_made++;
        b->squads[i].q = q;
    }
    b->squads[i].refs = 0;
    return i + 1u;
}

/* A job leaves the plan: its squad is free again once no job of it is left. */
static void squad_leave(pf_batch *b, const pf__job *j)
{
    if (!j->squad) return;
    pf__squad_slot *sq = &b->squads[j->squad - 1u];
    if (--sq->refs) return;
    b->st.groups += (uint64_t)pf__accel_squad_made(sq->q); /* its goal side: a group search */
    pf__accel_squad_reset(sq->q);
    sq->next_free = b->squad_free;
    b->squad_free = j->squad;
}

/* The job's key in the budget order (account.c): the query's contents only, never an address,
 * which lockstep peers do not share: the filter's bytes stand for its pointer. Queries apart only
 * by the filter's address (copies of one filter) or by a heuristic callback (no contents, only
 * addresses) tie here and keep their submission order (pf_batch.h, DETERMINISM). */
static uint64_t key_hash(const pf__bquery *e, int with_start, filter_memo *memo)
{
    qkey k;
    make_key(e, with_start, &k);
    const uint32_t w32[] = {k.start,     k.goal,      k.algo,      k.heuristic, k.heuristic_set,
                            k.tie,       k.max_expansions, k.reverse, k.prio,   k.waypoints,
                            k.unit_size, k.partial,   k.flow};
    const uint64_t w64[] = {double_bits(k.weight), double_bits(k.max_cost), k.tie_seed,
                            filter_hash(e->rd.filter, memo)};
    uint8_t buf[sizeof w32 + sizeof w64];
    size_t n = 0;
    for (size_t i = 0; i < sizeof w32 / sizeof w32[0]; i++, n += 4) pf__put32(buf + n, w32[i]);
    for (size_t i = 0; i < sizeof w64 / sizeof w64[0]; i++, n += 8) pf__put64(buf + n, w64[i]);
    return XXH3_64bits(buf, n);
}

static uint32_t rank_of(pf_priority p)
{
    return p == PF_PRIORITY_URGENT ? PF__RANK_URGENT
                                   : (p == PF_PRIORITY_BACKGROUND ? PF__RANK_BACKGROUND : PF__RANK_NORMAL);
}

/* Which of two identical queries a's set of duplicates is searched for: the higher-ranked, then the
 * older (planned in an earlier run), else the one already chosen (b, first in submission order).
 * A rule on content, so the job's priority (its group key, make_key) and age are the same for any
 * order of submission. */
static int better_canon(const pf__bquery *a, const pf__bquery *b)
{
    uint32_t ra = rank_of(a->q.priority), rb = rank_of(b->q.priority);
    return ra != rb ? ra < rb : a->planned < b->planned;
}

/* Capacity was reserved by pf__plan_fresh. Fields the plan does not set start at zero. */
static void append_job(pf_batch *b, const pf__job *j)
{
    pf__job *d = &b->jobs[b->njobs++];
    memcpy(d, j, sizeof *j);
    d->ea = d->eb = PF__NONE;
    atomic_init(&d->ran, 0);
}

int pf__plan_reserve_table(pf_batch *b, uint32_t n)
{
    uint32_t tcap = 64;
    while (tcap < 2u * n) tcap *= 2u;
    if (b->table_cap >= tcap) return 1;
    pf__free(&b->alloc, b->table, b->table_cap * sizeof *b->table);
    b->table = NULL;
    b->table_cap = 0;
    return PF__GROW(b, b->table, b->table_cap, tcap);
}

int pf__plan_fresh(pf_batch *b)
{
    if (b->jobs_dirty) pf__plan_compact(b);
    uint32_t n;
    const uint32_t *fresh = pf__queries_fresh(b, &n);
    if (n == 0) return 1;
    /* scratch: canon[n] | gid[n] | cnt[n] | order[n] | ndup[n] | sid[n] | sl[n] */
    if (!PF__GROW(b, b->scratch, b->scratch_cap, 7u * n)) return 0;
    if (!pf__plan_reserve_table(b, n)) return 0;
    uint32_t *canon = b->scratch, *gid = canon + n, *cnt = gid + n, *order = cnt + n, *ndup = order + n;
    uint32_t *sid = ndup + n, *sl = sid + n;
    /* Worst case every fresh query is a duplicate or a group member: reserve now so nothing below
     * can fail halfway. */
    if (!PF__GROW(b, b->dups, b->dups_cap, b->ndups + n)) return 0;
    if (!PF__GROW(b, b->members, b->members_cap, b->nmembers + n)) return 0;
    if (!PF__GROW(b, b->jobs, b->jobs_cap, b->njobs + n)) return 0;

    /* 1. Queries cancelled before any run are done already. */
    uint32_t nvalid = 0;
    for (uint32_t i = 0; i < n; i++) {
        pf__bquery *e = pf__query(b, fresh[i]);
        canon[i] = i;
        ndup[i] = 0;
        if (e->state != PF__Q_NEW) continue;
        e->state = PF__Q_QUEUED;
        /* A query keeps the run it was first planned for: an edit plans pending queries again
         * (pf__plan_unplan), and with this run's number they lost their age, so that an order given
         * long before ranked against this run's new ones by content, and could wait behind them. */
        if (!e->planned) e->planned = b->epoch + 1u;
        order[nvalid++] = i;
    }
    /* 2. Deduplicate. */
    if (!(b->flags & PF_BATCH_NO_DEDUP)) {
        first_equal(b, fresh, order, nvalid, 1, canon); /* canon[i]: the first submitted of i's set */
        /* each set's canonical query by content (better_canon), not submission order: gid[r], free
         * until step 3, holds the best of r's set; every member, r included, then points at it
         * (gid is only read there, so r's own entry changing first misleads no later member) */
        for (uint32_t t = 0; t < nvalid; t++) gid[order[t]] = order[t];
        for (uint32_t t = 0; t < nvalid; t++) {
            uint32_t i = order[t], r = canon[i];
            if (i != r && better_canon(pf__query(b, fresh[i]), pf__query(b, fresh[gid[r]]))) gid[r] = i;
        }
        for (uint32_t t = 0; t < nvalid; t++) canon[order[t]] = gid[canon[order[t]]];
    }
    uint32_t ncanon = 0;
    for (uint32_t t = 0; t < nvalid; t++) {
        uint32_t i = order[t];
        if (canon[i] != i) {
            pf__query(b, fresh[i])->canon = fresh[canon[i]];
            b->dups[b->ndups++] = fresh[i];
            ndup[canon[i]]++;
        } else {
            order[ncanon++] = i;
        }
    }
    /* 3. Group same-goal queries (key without the start). */
    const pf_map *m = b->map;
    int grouping = !(b->flags & PF_BATCH_NO_GROUPS) && pf_map_kind_of(m) == PF_MAP_GRID &&
                   pf_grid_moves(m) != PF_MOVES_HEX;
    uint32_t *gl = cnt, k = 0, ns = 0; /* groupable canonical queries, in submission order; squads' in sl */
    for (uint32_t t = 0; t < ncanon; t++) {
        uint32_t i = order[t];
        gid[i] = sid[i] = PF_NODE_NONE;
        int join = grouping ? join_kind(b, m, pf__query(b, fresh[i])) : JOIN_NONE;
        if (join == JOIN_GROUP) gl[k++] = i;
        else if (join == JOIN_SQUAD) sl[ns++] = i;
    }
    /* canon[] is free once duplicates are recorded: reused for the group sizes, then for each
     * squad's index at its first member */
    same_goal(b, fresh, gl, k, gid, canon);
    same_goal(b, fresh, sl, ns, sid, canon);
    uint32_t nsq = 0;
    for (uint32_t t = 0; t < ns; t++) nsq += sid[sl[t]] == sl[t];
    if (nsq && !squads_room(b, nsq))
        for (uint32_t t = 0; t < ns; t++) sid[sl[t]] = PF_NODE_NONE; /* answered alone */
    filter_memo memo = {0};
    /* 4. Jobs in submission order: a single per ungrouped canonical query, a group at the position
     * of its first member. */
    for (uint32_t t = 0; t < ncanon; t++) {
        uint32_t i = order[t];
        uint32_t slot = fresh[i];
        pf__bquery *e = pf__query(b, slot);
        if (gid[i] == PF_NODE_NONE) {
            pf__job j = {.kind = PF__J_SINGLE, .query = slot, .seq = e->seq, .epoch = e->planned - 1u,
                         .live = 1u + ndup[i], .kgoal = e->q.goal, .kstart = e->q.start,
                         .khash = key_hash(e, 1, &memo)};
            if (sid[i] != PF_NODE_NONE) { /* a squad's member; its first member takes the squad */
                if (sid[i] == i) canon[i] = squad_take(b);
                j.squad = canon[sid[i]];
                if (j.squad) b->squads[j.squad - 1u].refs++;
            }
            e->job = b->njobs;
            append_job(b, &j);
            continue;
        }
        if (gid[i] != i) continue;
        pf__job j = {.kind = PF__J_GROUP, .query = slot, .seq = e->seq, .first = b->nmembers,
                     .epoch = e->planned - 1u, .kgoal = e->q.goal, .khash = key_hash(e, 0, &memo)};
        /* AUTO's squads go to the accelerator where it answers (join_kind): a group of them is
         * answered by its backward A* because it did not, and no fallback is silent. Decided now,
         * not when its answers are written: an accelerator adopted meanwhile did not plan it. */
        if (e->rd.algo == PF_ALGO_AUTO && pf__accel_stale(b->accel, m)) j.detail = PF_DETAIL_ACCEL_STALE;
        if (e->rd.algo == PF_ALGO_AUTO && pf__accel_declined(b->accel, m)) j.detail = PF_DETAIL_ACCEL_DECLINED;
        const pf_point p0 = pf_grid_point(m, e->q.start);
        j.bx0 = j.bx1 = p0.x;
        j.by0 = j.by1 = p0.y;
        for (uint32_t u = t; u < ncanon; u++) {
            uint32_t mi = order[u];
            if (gid[mi] != i) continue;
            uint32_t ms = fresh[mi];
            pf__bquery *me = pf__query(b, ms);
            j.live += 1u + ndup[mi];
            me->job = b->njobs;
            if (me->planned - 1u < j.epoch) j.epoch = me->planned - 1u; /* as old as its oldest member */
            pf_point p = pf_grid_point(m, me->q.start);
            if (p.x < j.bx0) j.bx0 = p.x;
            if (p.x > j.bx1) j.bx1 = p.x;
            if (p.y < j.by0) j.by0 = p.y;
            if (p.y > j.by1) j.by1 = p.y;
            /* insertion by start node keeps members sorted for the search's lookups; groups are
             * small (hundreds), and ties (NO_DEDUP) keep submission order */
            uint32_t *mem = &b->members[j.first];
            uint32_t pos = j.count++;
            while (pos > 0 && pf__query(b, mem[pos - 1u])->q.start > me->q.start) {
                mem[pos] = mem[pos - 1u];
                pos--;
            }
            mem[pos] = ms;
        }
        b->nmembers += j.count;
        j.kstart = pf__query(b, b->members[j.first])->q.start; /* the smallest start */
        j.khash ^= j.count;
        append_job(b, &j);
    }
    pf__queries_fresh_planned(b);
    return 1;
}

int pf__plan_reserve(pf_batch *b, uint32_t n)
{
    return PF__GROW(b, b->jobs, b->jobs_cap, n) && PF__GROW(b, b->members, b->members_cap, n) &&
           PF__GROW(b, b->dups, b->dups_cap, n) && PF__GROW(b, b->scratch, b->scratch_cap, 7u * n);
}

uint32_t *pf__plan_scratch(pf_batch *b, uint32_t n)
{
    return PF__GROW(b, b->scratch, b->scratch_cap, n) ? b->scratch : NULL;
}

/* ---- the jobs' life --------------------------------------------------------------------------- */

void pf__plan_compact(pf_batch *b)
{
    uint32_t keep = 0, mkeep = 0;
    for (uint32_t i = 0; i < b->njobs; i++) {
        pf__job *j = &b->jobs[i];
        if (j->state == PF__J_DONE || j->state == PF__J_CANCELLED) {
            squad_leave(b, j);
            continue;
        }
        if (j->kind == PF__J_GROUP) {
            /* members of live groups move down in order (ranges were appended in job order) */
            memmove(&b->members[mkeep], &b->members[j->first], j->count * sizeof *b->members);
            j->first = mkeep;
            mkeep += j->count;
            for (uint32_t k = 0; k < j->count; k++) pf__query(b, b->members[j->first + k])->job = keep;
        } else {
            pf__query(b, j->query)->job = keep;
        }
        if (keep != i) memcpy(&b->jobs[keep], j, sizeof *j);
        keep++;
    }
    b->njobs = keep;
    b->nmembers = mkeep;
    b->jobs_dirty = 0;
}

/* Marks every query of a job cancelled at once as done, and the job as dropped. */
static void drop_job(pf_batch *b, uint32_t ji)
{
    pf__job *j = &b->jobs[ji];
    if (j->held) pf__spare_put(b, j, j->held); /* the suspended context is free again now */
    j->held = NULL;
    j->state = PF__J_CANCELLED;
    b->jobs_dirty = 1;
    if (j->kind == PF__J_SINGLE) pf__query_done(b, j->query);
    else
        for (uint32_t k = 0; k < j->count; k++) pf__query_done(b, b->members[j->first + k]);
    uint32_t keep = 0;
    for (uint32_t i = 0; i < b->ndups; i++) {
        uint32_t s = b->dups[i];
        const pf__bquery *c = pf__query(b, pf__query(b, s)->canon);
        if (c->job == ji && c->state == PF__Q_DONE) pf__query_done(b, s);
        else b->dups[keep++] = s;
    }
    b->ndups = keep;
}

/* The search goes on while another pending query needs it (the cancelled slot stays readable to
 * it until then); otherwise it is dropped now. */
void pf__plan_cancel(pf_batch *b, uint32_t slot)
{
    const pf__bquery *e = pf__query(b, slot);
    uint32_t ji = e->canon != slot ? pf__query(b, e->canon)->job : e->job;
    if (--b->jobs[ji].live == 0) drop_job(b, ji);
}

static void lower_rank(pf__job *j, const pf__bquery *e)
{
    uint32_t r = rank_of(e->q.priority);
    if (e->cancel == PF_OK && r < j->rank) j->rank = r;
}

void pf__plan_rank(pf_batch *b)
{
    for (uint32_t i = 0; i < b->njobs; i++) {
        pf__job *j = &b->jobs[i];
        j->rank = PF__RANK_NONE;
        if (j->kind == PF__J_SINGLE) lower_rank(j, pf__query(b, j->query));
        else
            for (uint32_t k = 0; k < j->count; k++) lower_rank(j, pf__query(b, b->members[j->first + k]));
    }
    for (uint32_t i = 0; i < b->ndups; i++) {
        const pf__bquery *e = pf__query(b, b->dups[i]);
        lower_rank(&b->jobs[pf__query(b, e->canon)->job], e);
    }
}

void pf__plan_answer_dups(pf_batch *b)
{
    uint32_t dkeep = 0;
    for (uint32_t i = 0; i < b->ndups; i++) {
        uint32_t s = b->dups[i];
        pf__bquery *e = pf__query(b, s);
        const pf__bquery *c = pf__query(b, e->canon);
        if (c->state != PF__Q_DONE) {
            b->dups[dkeep++] = s;
            continue;
        }
        if (e->cancel == PF_OK) {
            uint64_t tag = e->res.tag;
            e->res = c->res;
            e->res.tag = tag;
            e->res.flags |= PF_BATCH_RESULT_DEDUPED;
            b->st.deduped++;
        }
        pf__query_done(b, s);
    }
    b->ndups = dkeep;
}

void pf__plan_end_run(pf_batch *b) { b->epoch++; }

/* Re-planning is what keeps groups sound after an edit (follow.c): a group was formed from starts
 * in its goal's component, which the edit may have changed. */
void pf__plan_unplan(pf_batch *b, int ok)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < b->njobs; i++) {
        pf__job *j = &b->jobs[i];
        if (j->carried) { /* its search goes on as it stands, from the same place in the queue */
            j->carried = 0;
            b->q[j->query].job = kept;
            b->jobs[kept++] = *j;
            continue;
        }
        squad_leave(b, j); /* planned again: its members may make another squad */
        if (j->held && !j->rdone) b->st.dropped += j->rprog; /* the edit throws that work away */
        if (j->held) pf__spare_put(b, j, j->held);
        j->held = NULL;
        if (j->state == PF__J_SUSPENDED) b->st.restarted++; /* its search starts again from scratch */
        if (j->state == PF__J_DONE || j->state == PF__J_CANCELLED) continue;
        uint32_t n = j->kind == PF__J_GROUP ? j->count : 1u;
        for (uint32_t k = 0; k < n; k++)
            pf__query_requeue(b, j->kind == PF__J_GROUP ? b->members[j->first + k] : j->query, ok);
    }
    uint32_t dkeep = 0;
    for (uint32_t i = 0; i < b->ndups; i++) {
        uint32_t c = b->q[b->dups[i]].canon; /* still queued only when its job was kept */
        if (b->q[c].state == PF__Q_QUEUED) b->dups[dkeep++] = b->dups[i];
        else pf__query_requeue(b, b->dups[i], ok);
    }
    b->njobs = kept;
    b->nmembers = 0;
    b->ndups = dkeep;
    b->jobs_dirty = 0;
}

/* ---- memory ----------------------------------------------------------------------------------- */

int pf__plan_reserve_open(pf_batch *b, uint32_t open, int prefault)
{
    for (uint32_t i = 0; i < b->njobs; i++)
        if (b->jobs[i].held && !pf__ctx_reserve_open(b->jobs[i].held, open, prefault)) return 0;
    return 1;
}

pf_status pf__plan_use_accel(pf_batch *b, const pf_accel *acc)
{
    pf_status st = PF_OK;
    for (uint32_t i = 0; i < b->njobs && st == PF_OK; i++)
        if (b->jobs[i].held && (st = pf__ctx_adopt_accel(b->jobs[i].held, acc)) == PF_OK && b->algos)
            st = pf__ctx_reserve_algos(b->jobs[i].held, b->algos);
    return st;
}

size_t pf__plan_mem_size(const pf_batch *b)
{
    size_t n = 0;
    for (uint32_t i = 0; i < b->njobs; i++) n += pf_ctx_mem_size(b->jobs[i].held);
    n += b->jobs_cap * sizeof *b->jobs;
    n += (b->members_cap + b->dups_cap + b->table_cap + b->scratch_cap) * sizeof(uint32_t);
    for (uint32_t i = 0; i < b->squads_made; i++) n += pf__accel_squad_mem_size(b->squads[i].q);
    n += b->squads_cap * sizeof *b->squads;
    return n;
}

void pf__plan_free(pf_batch *b)
{
    for (uint32_t i = 0; i < b->njobs; i++) pf_ctx_destroy(b->jobs[i].held);
    pf__free(&b->alloc, b->jobs, b->jobs_cap * sizeof *b->jobs);
    pf__free(&b->alloc, b->members, b->members_cap * sizeof *b->members);
    pf__free(&b->alloc, b->dups, b->dups_cap * sizeof *b->dups);
    pf__free(&b->alloc, b->table, b->table_cap * sizeof *b->table);
    pf__free(&b->alloc, b->scratch, b->scratch_cap * sizeof *b->scratch);
    for (uint32_t i = 0; i < b->squads_made; i++) pf__accel_squad_destroy(b->squads[i].q);
    pf__free(&b->alloc, b->squads, b->squads_cap * sizeof *b->squads);
}

/* qcap jobs, members and duplicates; the hash table of tcap entries; scratch of seven arrays of
 * the fresh queries. */
size_t pf__plan_static_size(uint32_t qcap, uint32_t tcap)
{
    size_t q = qcap, u32 = sizeof(uint32_t);
    return pf__align64(q * sizeof(pf__job)) + 2u * pf__align64(q * u32) + pf__align64(7u * q * u32) +
           pf__align64(tcap * u32);
}

void pf__plan_place(pf_batch *b, char **p, uint32_t qcap, uint32_t tcap)
{
    size_t q = qcap;
    b->jobs = pf__carve(p, pf__align64(q * sizeof *b->jobs));
    b->members = pf__carve(p, pf__align64(q * sizeof *b->members));
    b->dups = pf__carve(p, pf__align64(q * sizeof *b->dups));
    b->scratch = pf__carve(p, pf__align64(7u * q * sizeof *b->scratch));
    b->table = pf__carve(p, pf__align64(tcap * sizeof *b->table));
    b->jobs_cap = b->members_cap = b->dups_cap = qcap;
    b->scratch_cap = 7u * qcap;
    b->table_cap = tcap;
}
