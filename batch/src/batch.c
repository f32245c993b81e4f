/* batch.c - batch lifecycle: workers, query slots, prepare/finish around the jobs, results. */
#include <limits.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include "batch_internal.h"

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

/* A desc with its defaults resolved: what create, estimate and init_static share. */
typedef struct batch_cfg {
    pf_batch_desc d;
    uint32_t      nworkers, nspare, group_min;
    size_t        arena;
    uint32_t      qcap, tcap;  /* static batches: query slots, hash table entries (dedup.c) */
} batch_cfg;

static pf_status resolve(const pf_map *map, const pf_batch_desc *desc, batch_cfg *c)
{
    if (!map) return PF_INVALID_ARGUMENT;
    PF__CHECK_MAP(map);
    if (pf_map_node_count(map) == 0) return PF_INVALID_ARGUMENT;
    c->d = desc ? *desc : (pf_batch_desc){0};
    /* sizes are checked before anything is made: each worker and spare is a whole context */
    if (c->d.workers > PF_BATCH_MAX_WORKERS || c->d.suspend_slots > PF_BATCH_MAX_WORKERS ||
        c->d.arena_bytes > PF_BATCH_MAX_ARENA_BYTES)
        return PF_TOO_LARGE;
    if (c->d.max_queries > PF__BQ_SLOT_MASK - 1u) return PF_INVALID_ARGUMENT;
    c->nworkers = PF__DEF(c->d.workers, pf__default_workers());
    c->nspare = PF__DEF(c->d.suspend_slots, c->nworkers);
    c->group_min = PF__DEF(c->d.group_min, 4u);
    if (c->group_min < 2) c->group_min = 2;
    c->arena = PF__DEF(c->d.arena_bytes, (size_t)256 * 1024);
    c->qcap = PF__DEF(c->d.max_queries, 4096u);
    /* the table pf__batch_plan sizes for a run of qcap fresh queries */
    c->tcap = 64;
    while (c->tcap < 2u * c->qcap) c->tcap *= 2u;
    return PF_OK;
}

/* Fields every batch starts with; `workers` is placed by the caller. */
static void batch_init(pf_batch *b, const pf_map *map, const batch_cfg *c, pf_allocator a)
{
    b->tag = PF__TAG_BATCH;
    b->map = map;
    b->jps = c->d.jps_table;
    b->alloc = a;
    b->ctx_desc = (pf_ctx_desc){.allocator = a, .heap_capacity = c->d.heap_capacity,
                                .jps_table = c->d.jps_table};
    b->flags = c->d.flags;
    b->group_min = c->group_min;
    b->nworkers = c->nworkers;
    b->nspare_want = c->nspare;
    b->free_head = PF_NODE_NONE;
    atomic_flag_clear(&b->spare_lock);
    atomic_init(&b->budget_left, LLONG_MAX);
}

pf_status pf_batch_create(const pf_map *map, const pf_batch_desc *desc, pf_batch **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    batch_cfg c;
    pf_status st = resolve(map, desc, &c);
    if (st != PF_OK) return st;
    pf_allocator a = pf__alloc_resolve(&c.d.allocator);
    pf_batch *b = pf__calloc(&a, sizeof *b, 64);
    if (!b) return PF_OUT_OF_MEMORY;
    batch_init(b, map, &c, a);
    b->workers = pf__calloc(&a, b->nworkers * sizeof *b->workers, 64);
    if (!b->workers) goto fail;
    st = PF_OUT_OF_MEMORY;
    for (uint32_t w = 0; w < b->nworkers; w++) {
        if ((st = pf_ctx_create(map, &b->ctx_desc, &b->workers[w].ctx)) != PF_OK) goto fail;
        if (!pf__arena_init(&b->workers[w].arena, &a, c.arena)) goto fail;
    }
    *out = b;
    return PF_OK;
fail:
    pf_batch_destroy(b);
    return st == PF_OK ? PF_OUT_OF_MEMORY : st;
}

/* A static batch, part by part in the order init_static carves them (each 64-byte aligned). */
typedef struct batch_layout {
    size_t head, workers, spares, q, fresh, jobs, members, dups, scratch, table; /* tables */
    size_t ctx, arena;                                                          /* each */
    size_t total;
} batch_layout;

static batch_layout static_layout(const pf_map *map, const batch_cfg *c)
{
    batch_layout l;
    size_t q = c->qcap, u32 = sizeof(uint32_t);
    l.head = pf__align64(sizeof(pf_batch));
    l.workers = pf__align64(c->nworkers * sizeof(pf__worker));
    l.spares = pf__align64(c->nspare * sizeof(pf_ctx *));
    l.q = pf__align64(q * sizeof(pf__bquery));
    l.fresh = pf__align64(q * u32);
    l.jobs = pf__align64(q * sizeof(pf__job));
    l.members = pf__align64(q * u32);
    l.dups = pf__align64(q * u32);
    l.scratch = pf__align64(4u * q * u32); /* pf__batch_plan: four arrays of the fresh queries */
    l.table = pf__align64(c->tcap * u32);
    pf_ctx_desc cd = {.heap_capacity = c->d.heap_capacity, .jps_table = c->d.jps_table};
    l.ctx = pf__align64(pf_ctx_estimate(map, &cd));
    l.arena = pf__arena_static_size(c->arena);
    l.total = l.head + l.workers + l.spares + l.q + l.fresh + l.jobs + l.members + l.dups + l.scratch +
              l.table + c->nworkers * (l.ctx + l.arena) + c->nspare * l.ctx;
    return l;
}

size_t pf_batch_estimate(const pf_map *map, const pf_batch_desc *desc)
{
    batch_cfg c;
    if (resolve(map, desc, &c) != PF_OK) return 0;
    return static_layout(map, &c).total + 63u;
}

/* Takes `n` bytes (a multiple of 64) from the cursor. */
static void *carve(char **p, size_t n)
{
    void *r = *p;
    *p += n;
    return r;
}

pf_status pf_batch_init_static(void *mem, size_t size, const pf_map *map, const pf_batch_desc *desc,
                               pf_batch **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    batch_cfg c;
    pf_status st = resolve(map, desc, &c);
    if (st != PF_OK) return st;
    if (!mem) return PF_INVALID_ARGUMENT;
    batch_layout l = static_layout(map, &c);
    size_t skip = (size_t)(-(uintptr_t)mem & 63u);
    if (size < skip || size - skip < l.total) return PF_BUFFER_TOO_SMALL;
    char *p = (char *)mem + skip;
    /* the tables start empty with their final capacities: zeroed like the calloc'd ones */
    memset(p, 0, l.head + l.workers + l.spares + l.q + l.fresh + l.jobs + l.members + l.dups + l.scratch +
                     l.table);
    pf_batch *b = carve(&p, l.head);
    batch_init(b, map, &c, pf__alloc_none());
    b->fixed = 1;
    b->workers = carve(&p, l.workers);
    b->spares = carve(&p, l.spares);
    b->spare_cap = c.nspare;
    b->q = carve(&p, l.q);
    b->fresh = carve(&p, l.fresh);
    b->jobs = carve(&p, l.jobs);
    b->members = carve(&p, l.members);
    b->dups = carve(&p, l.dups);
    b->scratch = carve(&p, l.scratch);
    b->table = carve(&p, l.table);
    b->qcap = b->fresh_cap = b->jobs_cap = b->members_cap = b->dups_cap = c.qcap;
    b->scratch_cap = 4u * c.qcap;
    b->table_cap = c.tcap;
    for (uint32_t w = 0; w < b->nworkers; w++) {
        /* Only the first can fail (PF_WRONG_MAP: the desc's JPS table), before any other part
         * exists; each part has its estimate. */
        st = pf_ctx_init_static(carve(&p, l.ctx), l.ctx, map, &b->ctx_desc, &b->workers[w].ctx);
        if (st != PF_OK) return st;
        pf__arena_init_static(&b->workers[w].arena, carve(&p, l.arena), c.arena);
    }
    /* Spares exist from the start: a budgeted run could not make them later. */
    for (uint32_t i = 0; i < c.nspare; i++)
        pf_ctx_init_static(carve(&p, l.ctx), l.ctx, map, &b->ctx_desc, &b->spares[i]);
    b->nspare = b->spare_made = c.nspare;
    *out = b;
    return PF_OK;
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
        if (!PF__GROW(b, b->q, b->qcap, b->qlen + 1u)) return b->fixed ? PF_CAPACITY_EXCEEDED : PF_OUT_OF_MEMORY;
        slot = b->qlen;
        b->q[slot].gen = 1;
    }
    if (!PF__GROW(b, b->fresh, b->fresh_cap, b->nfresh + 1u)) return PF_OUT_OF_MEMORY;
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
    if (!PF__GROW(b, b->spares, b->spare_cap, b->nspare_want)) return;
    while (b->spare_made < b->nspare_want) {
        pf_ctx *c;
        if (pf_ctx_create(b->map, &b->ctx_desc, &c) != PF_OK) break;
        b->spares[b->nspare++] = c;
        b->spare_made++;
    }
}

static double octile(int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
    return pf__grid_octile(ax - bx, ay - by);
}

static int by_est_desc(const void *pa, const void *pb)
{
    const pf__job *a = pa, *b = pb;
    if (a->est != b->est) return a->est > b->est ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Heapsort by by_est_desc, in place. Not qsort: glibc's mallocs a buffer for arrays over 1 KiB,
 * and a batch must not allocate per frame (one in caller memory not at all). The order is total
 * (seq is unique), so the result is the one any correct sort gives. */
static void swap_jobs(pf__job *a, pf__job *b)
{
    pf__job t;
    memcpy(&t, a, sizeof t);
    memcpy(a, b, sizeof t);
    memcpy(b, &t, sizeof t);
}

static void sift_jobs(pf__job *j, uint32_t i, uint32_t n)
{
    for (;;) {
        uint32_t c = 2u * i + 1u;
        if (c >= n) return;
        if (c + 1u < n && by_est_desc(&j[c + 1u], &j[c]) > 0) c++;
        if (by_est_desc(&j[c], &j[i]) <= 0) return;
        swap_jobs(&j[i], &j[c]);
        i = c;
    }
}

static void sort_jobs(pf__job *j, uint32_t n)
{
    for (uint32_t i = n / 2u; i-- > 0;) sift_jobs(j, i, n);
    for (uint32_t k = n; k-- > 1u;) {
        swap_jobs(&j[0], &j[k]);
        sift_jobs(j, 0, k);
    }
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
    sort_jobs(b->jobs, b->njobs);
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
