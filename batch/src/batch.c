/* batch.c - batch lifecycle: workers, query slots, prepare/finish around the jobs, results. */
#include <limits.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include "batch_internal.h"
#include "search/metric_internal.h"

uint32_t pf__default_workers(void); /* sched_omp.c */

/* Grows the array whose pointer is at `arrp` (elements of `elem` bytes) to hold at least `need`;
 * 0 on out-of-memory (the old array stays). The pointer is read and written with memcpy so one
 * helper serves every element type without type-punned pointer-to-pointer casts. */
int pf__batch_grow(pf_batch *b, void *arrp, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return 1;
    uint64_t ncap = *cap ? (uint64_t)*cap : 64u;
    while (ncap < need) ncap *= 2u;
    if (ncap > UINT32_MAX) return 0;
    void *n = pf__alloc(&b->alloc, (size_t)ncap * elem, 64);
    if (!n) return 0;
    void *old;
    memcpy(&old, arrp, sizeof old);
    if (old) {
        memcpy(n, old, (size_t)*cap * elem);
        pf__free(&b->alloc, old, (size_t)*cap * elem);
    }
    memcpy(arrp, &n, sizeof n);
    *cap = (uint32_t)ncap;
    return 1;
}

pf_status pf_batch_create(const pf_map *map, const pf_batch_desc *desc, pf_batch **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    if (!map) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(map, PF__TAG_MAP, "pf_map");
    if (pf_map_node_count(map) == 0) return PF_INVALID_ARGUMENT;
    pf_batch_desc d = desc ? *desc : (pf_batch_desc){0};
    if (d.workers > 1024) return PF_INVALID_ARGUMENT;
    pf_allocator a = pf__alloc_resolve(&d.allocator);
    pf_batch *b = pf__calloc(&a, sizeof *b, 64);
    if (!b) return PF_OUT_OF_MEMORY;
    b->tag = PF__TAG_BATCH;
    b->map = map;
    b->jps = d.jps_table;
    b->accel = d.accel;
    b->alloc = a;
    b->flags = d.flags;
    b->group_min = PF__DEF(d.group_min, 4u);
    if (b->group_min < 2) b->group_min = 2;
    b->nworkers = PF__DEF(d.workers, pf__default_workers());
    b->nspare_want = PF__DEF(d.suspend_slots, b->nworkers);
    b->free_head = PF_NODE_NONE;
    atomic_flag_clear(&b->spare_lock);
    atomic_init(&b->budget_left, LLONG_MAX);
    size_t arena = PF__DEF(d.arena_bytes, (size_t)256 * 1024);

    b->workers = pf__calloc(&a, b->nworkers * sizeof *b->workers, 64);
    if (!b->workers) goto oom;
    pf_ctx_desc cd = {.allocator = a};
    for (uint32_t w = 0; w < b->nworkers; w++) {
        if (pf_ctx_create(map, &cd, &b->workers[w].ctx) != PF_OK) goto oom;
        if (!pf__arena_init(&b->workers[w].arena, &a, arena)) goto oom;
        if (b->jps) {
            pf_status js = pf_ctx_use_jps_table(b->workers[w].ctx, b->jps);
            if (js != PF_OK) {
                pf_batch_destroy(b);
                return js;
            }
        }
        if (b->accel) {
            pf_status as = pf_ctx_use_accel(b->workers[w].ctx, b->accel);
            if (as != PF_OK) {
                pf_batch_destroy(b);
                return as;
            }
        }
    }
    *out = b;
    return PF_OK;
oom:
    pf_batch_destroy(b);
    return PF_OUT_OF_MEMORY;
}

void pf_batch_destroy(pf_batch *b)
{
    if (!b) return;
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    b->tag = PF__TAG_DEAD;
    pf_allocator a = b->alloc;
    if (b->workers) {
        for (uint32_t w = 0; w < b->nworkers; w++) {
            pf_ctx_destroy(b->workers[w].ctx);
            pf__arena_free(&b->workers[w].arena);
        }
        pf__free(&a, b->workers, b->nworkers * sizeof *b->workers);
    }
    for (uint32_t i = 0; i < b->nspare; i++) pf_ctx_destroy(b->spares[i]);
    for (uint32_t i = 0; i < b->njobs; i++) pf_ctx_destroy(b->jobs[i].held);
    pf__free(&a, b->spares, b->spare_cap * sizeof *b->spares);
    pf__free(&a, b->q, b->qcap * sizeof *b->q);
    pf__free(&a, b->fresh, b->fresh_cap * sizeof *b->fresh);
    pf__free(&a, b->jobs, b->jobs_cap * sizeof *b->jobs);
    pf__free(&a, b->members, b->members_cap * sizeof *b->members);
    pf__free(&a, b->dups, b->dups_cap * sizeof *b->dups);
    pf__free(&a, b->table, b->table_cap * sizeof *b->table);
    pf__free(&a, b->scratch, b->scratch_cap * sizeof *b->scratch);
    pf__free(&a, b, sizeof *b);
}

pf_status pf_batch_submit(pf_batch *b, const pf_batch_query *q, pf_query_id *id)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (id) id->id = 0;
    if (!b || !q || b->prepared) return PF_INVALID_ARGUMENT;
    uint32_t slot = b->free_head;
    if (slot == PF_NODE_NONE) {
        if (b->qlen > PF__BQ_SLOT_MASK - 1u) return PF_TOO_LARGE;
        if (!GROW(b, b->q, b->qcap, b->qlen + 1u)) return PF_OUT_OF_MEMORY;
        slot = b->qlen;
        b->q[slot].gen = 1;
    }
    if (!GROW(b, b->fresh, b->fresh_cap, b->nfresh + 1u)) return PF_OUT_OF_MEMORY;
    if (slot == b->qlen) b->qlen++;
    else b->free_head = b->q[slot].next_free;
    pf__bquery *e = &b->q[slot];
    e->q = *q;
    e->rd = pf_search_desc_resolve(b->map, &q->search);
    e->seq = b->seq++;
    e->state = PF__Q_NEW;
    e->canon = slot;
    e->res = (pf_batch_result){.status = PF_IN_PROGRESS, .tag = q->tag, .stats = {.cost = INFINITY}};
    b->fresh[b->nfresh++] = slot;
    b->pending++;
    b->st.submitted++;
    if (id) id->id = slot | (e->gen << PF__BQ_SLOT_BITS);
    return PF_OK;
}

static void make_spares(pf_batch *b)
{
    /* Spares are made on budgeted runs only: unbudgeted users never pay for them. A shortfall is
     * not an error (queries restart instead of suspending) and is made up on a later run: a query
     * longer than the budget can only finish by suspending. */
    if (b->spare_made >= b->nspare_want) return;
    if (!GROW(b, b->spares, b->spare_cap, b->nspare_want)) return;
    pf_ctx_desc cd = {.allocator = b->alloc};
    while (b->spare_made < b->nspare_want) {
        pf_ctx *c;
        if (pf_ctx_create(b->map, &cd, &c) != PF_OK) break;
        if ((b->jps && pf_ctx_use_jps_table(c, b->jps) != PF_OK) ||
            (b->accel && pf_ctx_use_accel(c, b->accel) != PF_OK)) {
            pf_ctx_destroy(c);
            break;
        }
        b->spares[b->nspare++] = c;
        b->spare_made++;
    }
}

static double octile(int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
    return pf__grid_metric(PF_HEUR_OCTILE, ax - bx, ay - by);
}

static int by_est_desc(const void *pa, const void *pb)
{
    const pf__job *a = pa, *b = pb;
    if (a->est != b->est) return a->est > b->est ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Longest first (the LPT rule): with dynamic scheduling, a long query picked last would leave the
 * other threads idle at the end of the frame. Lengths are guessed from grid distance; only the
 * order of work changes, never a result. Budgeted runs keep submission order instead, which is what
 * makes them starvation-free. */
static void order_longest_first(pf_batch *b)
{
    if (pf_map_kind_of(b->map) != PF_MAP_GRID || b->njobs < 2) return;
    for (uint32_t i = 0; i < b->njobs; i++) {
        pf__job *j = &b->jobs[i];
        if (j->kind == PF__J_GROUP) {
            pf_point g = pf_grid_point(b->map, b->q[b->members[j->first]].q.goal);
            double e0 = octile(g.x, g.y, j->bx0, j->by0), e1 = octile(g.x, g.y, j->bx1, j->by1);
            double e2 = octile(g.x, g.y, j->bx0, j->by1), e3 = octile(g.x, g.y, j->bx1, j->by0);
            j->est = fmax(fmax(e0, e1), fmax(e2, e3));
        } else {
            const pf_batch_query *q = &b->q[j->query].q;
            pf_point s = pf_grid_point(b->map, q->start), g = pf_grid_point(b->map, q->goal);
            /* bad endpoints (negative coordinates) are answered at once: last */
            j->est = s.x < 0 || g.x < 0 ? -1.0 : octile(s.x, s.y, g.x, g.y);
        }
    }
    qsort(b->jobs, b->njobs, sizeof *b->jobs, by_est_desc);
}

pf_status pf_batch_prepare(pf_batch *b, const pf_batch_budget *budget)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b || b->prepared) return PF_INVALID_ARGUMENT;
    if (!pf__batch_plan(b)) return PF_OUT_OF_MEMORY;
    b->run_jobs = b->njobs;
    for (uint32_t i = 0; i < b->njobs; i++) atomic_store(&b->jobs[i].ran, 0);
    b->budgeted = budget && (budget->max_expansions || budget->max_us);
    if (!b->budgeted) order_longest_first(b);
    long long left = LLONG_MAX;
    if (budget && budget->max_expansions && budget->max_expansions < (uint64_t)LLONG_MAX)
        left = (long long)budget->max_expansions;
    atomic_store(&b->budget_left, left);
    double now = budget && budget->max_us ? pf__now() : 0.0;
    b->deadline = budget && budget->max_us ? now + (double)budget->max_us * 1e-6 : 0.0;
    uint32_t suspended = 0;
    for (uint32_t i = 0; i < b->njobs; i++) suspended += b->jobs[i].state == PF__J_SUSPENDED;
    b->reserve = suspended && left != LLONG_MAX ? left / 2 : 0;
    b->fresh_deadline = suspended && b->deadline > 0.0 ? now + (double)budget->max_us * 0.5e-6 : b->deadline;
    b->any_suspended = suspended > 0;
    atomic_store(&b->progressed, 0);
    if (b->budgeted) make_spares(b);
    b->prepared = 1;
    return PF_OK;
}

uint32_t pf_batch_job_count(const pf_batch *b) { return b && b->prepared ? b->run_jobs : 0; }
uint32_t pf_batch_worker_count(const pf_batch *b) { return b ? b->nworkers : 0; }

static void mark_done(pf_batch *b, uint32_t slot)
{
    b->q[slot].state = PF__Q_DONE;
    b->pending--;
    b->st.completed++;
}

pf_status pf_batch_finish(pf_batch *b)
{
    if (!b || !b->prepared) return PF_INVALID_ARGUMENT;
    /* Workers wrote their own slots and counters; everything below is serial. */
    uint32_t keep = 0, mkeep = 0;
    for (uint32_t i = 0; i < b->njobs; i++) {
        pf__job *j = &b->jobs[i];
        if (j->state == PF__J_DONE) {
            if (j->kind == PF__J_SINGLE) mark_done(b, j->query);
            else
                for (uint32_t k = 0; k < j->count; k++) {
                    mark_done(b, b->members[j->first + k]);
                    b->st.grouped++;
                }
            continue;
        }
        if (j->kind == PF__J_GROUP) {
            /* members of live groups move down in order (ranges were appended in job order) */
            memmove(&b->members[mkeep], &b->members[j->first], j->count * sizeof *b->members);
            j->first = mkeep;
            mkeep += j->count;
        }
        if (keep != i) memcpy(&b->jobs[keep], j, sizeof *j);
        keep++;
    }
    b->njobs = keep;
    b->nmembers = mkeep;
    uint32_t dkeep = 0;
    for (uint32_t i = 0; i < b->ndups; i++) {
        uint32_t s = b->dups[i];
        pf__bquery *e = &b->q[s];
        const pf__bquery *c = &b->q[e->canon];
        if (c->state != PF__Q_DONE) {
            b->dups[dkeep++] = s;
            continue;
        }
        uint64_t tag = e->res.tag;
        e->res = c->res;
        e->res.tag = tag;
        e->res.flags |= PF_BATCH_RESULT_DEDUPED;
        mark_done(b, s);
        b->st.deduped++;
    }
    b->ndups = dkeep;
    for (uint32_t w = 0; w < b->nworkers; w++) {
        pf__worker *wk = &b->workers[w];
        b->st.expanded += wk->expanded;
        b->st.searches += wk->searches;
        b->st.suspended += wk->suspended;
        b->st.restarted += wk->restarted;
        b->st.groups += wk->groups;
        wk->expanded = wk->searches = wk->suspended = wk->restarted = wk->groups = 0;
    }
    b->prepared = 0;
    b->run_jobs = 0;
    return PF_OK;
}

pf_status pf_batch_get(const pf_batch *b, pf_query_id id, pf_batch_result *out)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b || !out || b->prepared) return PF_INVALID_ARGUMENT;
    uint32_t slot = id.id & PF__BQ_SLOT_MASK, gen = id.id >> PF__BQ_SLOT_BITS;
    if (id.id == 0 || slot >= b->qlen) return PF_INVALID_ARGUMENT;
    const pf__bquery *e = &b->q[slot];
    if (e->state == PF__Q_FREE || e->gen != gen) return PF_INVALID_ARGUMENT;
    *out = e->res;
    return PF_OK;
}

pf_status pf_batch_reset(pf_batch *b)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b || b->prepared) return PF_INVALID_ARGUMENT;
    for (uint32_t s = 0; s < b->qlen; s++) {
        pf__bquery *e = &b->q[s];
        if (e->state != PF__Q_DONE) continue;
        e->state = PF__Q_FREE;
        e->gen = (e->gen + 1u) & 0xFFFu; /* 12 bits of generation catch stale ids */
        if (e->gen == 0) e->gen = 1;
        e->next_free = b->free_head;
        b->free_head = s;
    }
    for (uint32_t w = 0; w < b->nworkers; w++) pf__arena_reset(&b->workers[w].arena);
    return PF_OK;
}

pf_batch_stats pf_batch_get_stats(const pf_batch *b)
{
    if (!b) return (pf_batch_stats){0};
    pf_batch_stats s = b->st;
    s.pending = b->pending;
    return s;
}

size_t pf_batch_mem_size(const pf_batch *b)
{
    if (!b) return 0;
    size_t n = sizeof *b + b->nworkers * sizeof *b->workers;
    for (uint32_t w = 0; w < b->nworkers; w++)
        n += pf_ctx_mem_size(b->workers[w].ctx) + b->workers[w].arena.total;
    for (uint32_t i = 0; i < b->nspare; i++) n += pf_ctx_mem_size(b->spares[i]);
    for (uint32_t i = 0; i < b->njobs; i++) n += pf_ctx_mem_size(b->jobs[i].held);
    n += b->qcap * sizeof *b->q + b->fresh_cap * sizeof *b->fresh + b->jobs_cap * sizeof *b->jobs;
    n += (b->members_cap + b->dups_cap + b->table_cap + b->scratch_cap) * sizeof(uint32_t);
    return n;
}
