/* batch.c - batch lifecycle: workers, query slots, cancel, prepare/finish around the jobs, results. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
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

/* A context like the workers': the batch's allocator, open-list size, pre-faulting and JPS table.
 * Also called by workers during a run (a spare made when a search is suspended): it reads only
 * what a run never changes. */
pf_status pf__new_ctx(pf_batch *b, pf_ctx **out)
{
    pf_ctx_desc cd = b->ctx_desc;
    cd.heap_capacity = b->open_cap;
    pf_status st = pf_ctx_create(b->map, &cd, out);
    if (st == PF_OK && b->accel && (st = pf_ctx_use_accel(*out, b->accel)) != PF_OK) {
        pf_ctx_destroy(*out);
        *out = NULL;
    }
    return st;
}

/* reserve.spares: every spare now, for a hitch-free first frame. Otherwise each is made by the
 * worker whose search is suspended and finds none free (pf__take_spare): a batch holds no more
 * spares than searches were ever suspended at once, and unbudgeted users never pay for them. */
static int make_spares(pf_batch *b)
{
    while (b->spare_made < b->nspare_want) {
        pf_ctx *c;
        if (pf__new_ctx(b, &c) != PF_OK) return 0;
        b->spares[b->nspare++] = c;
        b->spare_made++;
    }
    return 1;
}

/* ---- limits ----------------------------------------------------------------------------------- */

#if defined(__GNUC__)
#define PF__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PF__PRINTF(f, a)
#endif

/* A refusal: diag (if any) gets the status and a message that names the field first. */
static void refusal(pf_diag *diag, pf_status st, const char *fmt, ...) PF__PRINTF(3, 4);
static void refusal(pf_diag *diag, pf_status st, const char *fmt, ...)
{
    if (!diag) return;
    diag->status = st;
    diag->line = diag->column = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->msg, sizeof diag->msg, fmt, ap);
    va_end(ap);
}
/* The status is the macro's value, not the (never inlined) variadic function's, so the compiler
 * sees that a refusal never returns PF_OK (GCC -O2 otherwise warns of uninitialised results). */
#define PF__REFUSE(diag, st, ...) (refusal((diag), (st), __VA_ARGS__), (st))

/* An open list never holds a node twice: more entries than nodes would never be used (a search
 * that somehow outgrows it still grows it on demand). */
static uint32_t clamp_open(const pf_map *map, uint32_t entries)
{
    uint32_t n = pf_map_node_count(map);
    return entries < n ? entries : n;
}

/* Bytes of one of the batch's contexts: records, and an open list of `open` entries (0: the size
 * pf_ctx_create starts with). */
static uint64_t ctx_bytes(const pf_map *map, uint32_t open)
{
    uint32_t n = pf_map_node_count(map);
    if (!open) open = n / 64u > 1024u ? n / 64u : 1024u;
    return pf_ctx_estimate(map, &(pf_ctx_desc){.heap_capacity = open});
}

/* A desc with its defaults resolved: what create, estimate and init_static share. */
typedef struct batch_cfg {
    pf_batch_desc d;
    uint32_t      nworkers, nspare, group_min;
    size_t        arena;
    uint32_t      qcap, tcap;  /* static batches: query slots, hash table and tag index entries */
    pf_prefault   prefault;
} batch_cfg;

/* The one check of every size a batch is given, whichever door it comes through: pf_batch_create,
 * pf_batch_estimate and pf_batch_init_static pass the caller's desc, pf_batch_reserve the batch's
 * own with its reservation in `reserve` (pf_batch.h, LIMITS). Sizes are checked before anything is
 * made: each worker and spare is a whole context. On PF_OK `c` holds the desc with its defaults
 * resolved and its open-list sizes clamped. */
static pf_status check(const pf_map *map, const pf_batch_desc *desc, batch_cfg *c, pf_diag *diag)
{
    if (!map) return PF__REFUSE(diag, PF_INVALID_ARGUMENT, "map: NULL");
    PF__CHECK_MAP(map);
    if (pf_map_node_count(map) == 0) return PF__REFUSE(diag, PF_INVALID_ARGUMENT, "map: no nodes");
    c->d = desc ? *desc : (pf_batch_desc){0};
    const pf_batch_desc *d = &c->d;
    const size_t amax = PF_BATCH_MAX_ARENA_BYTES;
    if (d->workers > PF_BATCH_MAX_WORKERS)
        return PF__REFUSE(diag, PF_TOO_LARGE, "workers: %u exceed PF_BATCH_MAX_WORKERS (%u)", d->workers,
                          PF_BATCH_MAX_WORKERS);
    if (d->suspend_slots > PF_BATCH_MAX_WORKERS)
        return PF__REFUSE(diag, PF_TOO_LARGE, "suspend_slots: %u exceed PF_BATCH_MAX_WORKERS (%u)",
                          d->suspend_slots, PF_BATCH_MAX_WORKERS);
    if (d->arena_bytes > amax)
        return PF__REFUSE(diag, PF_TOO_LARGE,
                          "arena_bytes: %zu bytes per worker exceed PF_BATCH_MAX_ARENA_BYTES (%zu)",
                          d->arena_bytes, amax);
    if (d->reserve.arena_bytes > amax)
        return PF__REFUSE(diag, PF_TOO_LARGE,
                          "reserve.arena_bytes: %zu bytes per worker exceed PF_BATCH_MAX_ARENA_BYTES (%zu)",
                          d->reserve.arena_bytes, amax);
    if (d->max_queries > PF__BQ_SLOT_MASK - 1u)
        return PF__REFUSE(diag, PF_INVALID_ARGUMENT, "max_queries: %u exceed %u", d->max_queries,
                          PF__BQ_SLOT_MASK - 1u);
    if ((unsigned)d->prefault > PF_PREFAULT_NONE)
        return PF__REFUSE(diag, PF_INVALID_ARGUMENT, "prefault: %u is not a pf_prefault value",
                          (unsigned)d->prefault);
    if (d->reserve.queries > PF__BQ_SLOT_MASK)
        return PF__REFUSE(diag, PF_INVALID_ARGUMENT, "reserve.queries: %u exceed PF_BATCH_MAX_QUERIES (%u)",
                          d->reserve.queries, PF_BATCH_MAX_QUERIES);
    c->nworkers = PF__DEF(c->d.workers, pf__default_workers());
    /* never from the worker count: lockstep peers with different cores must suspend alike */
    c->nspare = PF__DEF(c->d.suspend_slots, PF_BATCH_DEFAULT_SUSPEND_SLOTS);
    c->group_min = PF__DEF(c->d.group_min, 4u);
    if (c->group_min < 2) c->group_min = 2;
    c->arena = PF__DEF(c->d.arena_bytes, (size_t)256 * 1024);
    c->qcap = PF__DEF(c->d.max_queries, 4096u);
    /* the tables pf__batch_plan and the tag index size for qcap queries at once */
    c->tcap = 64;
    while (c->tcap < 2u * c->qcap) c->tcap *= 2u;
    c->prefault = PF__DEF(c->d.prefault, PF_PREFAULT_ALL);
    /* What the batch may commit: every worker's context and arena (as created or reserved), and
     * every spare (made lazily, but all of them may be needed at once). */
    c->d.heap_capacity = clamp_open(map, c->d.heap_capacity);
    c->d.reserve.open_list = clamp_open(map, c->d.reserve.open_list);
    uint32_t open = d->heap_capacity > d->reserve.open_list ? d->heap_capacity : d->reserve.open_list;
    uint64_t ctx = ctx_bytes(map, open);
    uint64_t worker = ctx + (c->arena > d->reserve.arena_bytes ? c->arena : d->reserve.arena_bytes);
    if ((uint64_t)c->nworkers * worker > PF_BATCH_MAX_WORKER_BYTES)
        return PF__REFUSE(diag, PF_TOO_LARGE,
                          "workers: %u workers of %llu bytes each (a context and a path arena) exceed "
                          "PF_BATCH_MAX_WORKER_BYTES (%llu)",
                          c->nworkers, (unsigned long long)worker, (unsigned long long)PF_BATCH_MAX_WORKER_BYTES);
    if ((uint64_t)c->nspare * ctx > PF_BATCH_MAX_SPARE_BYTES)
        return PF__REFUSE(diag, PF_TOO_LARGE,
                          "suspend_slots: %u spare contexts of %llu bytes each exceed PF_BATCH_MAX_SPARE_BYTES "
                          "(%llu)",
                          c->nspare, (unsigned long long)ctx, (unsigned long long)PF_BATCH_MAX_SPARE_BYTES);
    if (diag) *diag = (pf_diag){.status = PF_OK};
    return PF_OK;
}

static pf_status resolve(const pf_map *map, const pf_batch_desc *desc, batch_cfg *c)
{
    return check(map, desc, c, NULL);
}

pf_status pf_batch_check(const pf_map *map, const pf_batch_desc *desc, pf_diag *diag)
{
    batch_cfg c;
    return check(map, desc, &c, diag);
}

/* Fields every batch starts with; `workers` is placed by the caller. */
static void batch_init(pf_batch *b, const pf_map *map, const batch_cfg *c, pf_allocator a)
{
    b->tag = PF__TAG_BATCH;
    b->map = map;
    b->jps = c->d.jps_table;
    b->accel = c->d.accel;
    b->alloc = a;
    b->prefault = c->prefault;
    b->open_cap = c->d.heap_capacity;
    b->ctx_desc = (pf_ctx_desc){.allocator = a, .heap_capacity = c->d.heap_capacity,
                                .jps_table = c->d.jps_table, .prefault = c->prefault};
    b->flags = c->d.flags;
    b->group_min = c->group_min;
    b->nworkers = c->nworkers;
    b->nspare_want = c->nspare;
    b->free_head = PF_NODE_NONE;
    atomic_flag_clear(&b->spare_lock);
    atomic_init(&b->budget_left, LLONG_MAX);
    atomic_init(&b->run_start_ns, 0);
    pf__batch_follow(b);
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
    st = PF_OUT_OF_MEMORY;
    b->workers = pf__calloc(&a, b->nworkers * sizeof *b->workers, 64);
    if (!b->workers) goto fail;
    /* the spare stack has its final size: workers push and pop it during runs */
    b->spares = pf__calloc(&a, (size_t)b->nspare_want * sizeof *b->spares, 64);
    if (!b->spares) goto fail;
    b->spare_cap = b->nspare_want;
    for (uint32_t w = 0; w < b->nworkers; w++) {
        if ((st = pf__new_ctx(b, &b->workers[w].ctx)) != PF_OK) goto fail;
        st = PF_OUT_OF_MEMORY;
        if (!pf__arena_init(&b->workers[w].arena, &a, c.arena)) goto fail;
        if (b->prefault == PF_PREFAULT_ALL && !pf__arena_reserve(&b->workers[w].arena, c.arena, 1)) goto fail;
    }
    if ((st = pf_batch_reserve(b, &c.d.reserve)) != PF_OK) goto fail;
    *out = b;
    return PF_OK;
fail:
    pf_batch_destroy(b);
    return st == PF_OK ? PF_OUT_OF_MEMORY : st;
}

/* A static batch, part by part in the order init_static carves them (each 64-byte aligned). */
typedef struct batch_layout {
    size_t head, workers, spares, q, fresh, jobs, members, dups, scratch, table, tag_keys, tag_vals, run,
        entries, fen;                                                          /* tables */
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
    l.scratch = pf__align64(5u * q * u32); /* pf__batch_plan: five arrays of the fresh queries */
    l.table = pf__align64(c->tcap * u32);
    l.tag_keys = pf__align64(c->tcap * sizeof(uint64_t)); /* the tag index, at most half full */
    l.tag_vals = pf__align64(c->tcap * u32);
    l.run = pf__align64(q * u32);                            /* pf__plan_run, for q jobs */
    l.entries = pf__align64((2u * q + 1u) * sizeof(pf__entry));
    l.fen = pf__align64((2u * q + 2u) * sizeof(atomic_llong));
    pf_ctx_desc cd = {.heap_capacity = c->d.heap_capacity, .jps_table = c->d.jps_table};
    l.ctx = pf__align64(pf_ctx_estimate(map, &cd));
    l.arena = pf__arena_static_size(c->arena);
    l.total = l.head + l.workers + l.spares + l.q + l.fresh + l.jobs + l.members + l.dups + l.scratch +
              l.table + l.tag_keys + l.tag_vals + l.run + l.entries + l.fen + c->nworkers * (l.ctx + l.arena) +
              c->nspare * l.ctx;
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
    if (c.d.accel) return PF_UNSUPPORTED; /* its query state is allocated on first use */
    batch_layout l = static_layout(map, &c);
    size_t skip = (size_t)(-(uintptr_t)mem & 63u);
    if (size < skip || size - skip < l.total) return PF_BUFFER_TOO_SMALL;
    char *p = (char *)mem + skip;
    /* the tables start empty with their final capacities: zeroed like the calloc'd ones */
    memset(p, 0, l.head + l.workers + l.spares + l.q + l.fresh + l.jobs + l.members + l.dups + l.scratch +
                     l.table + l.tag_keys + l.tag_vals + l.run + l.entries + l.fen);
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
    b->tag_keys = carve(&p, l.tag_keys);
    b->tag_vals = carve(&p, l.tag_vals);
    b->run = carve(&p, l.run);
    b->entries = carve(&p, l.entries);
    b->fen = carve(&p, l.fen);
    b->qcap = b->fresh_cap = b->jobs_cap = b->members_cap = b->dups_cap = b->run_cap = c.qcap;
    b->scratch_cap = 5u * c.qcap;
    b->table_cap = b->tag_cap = c.tcap;
    b->entries_cap = 2u * c.qcap + 1u;
    b->fen_cap = 2u * c.qcap + 2u;
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
    pf__batch_unfollow(b);
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
    pf__free(&a, b->tag_keys, b->tag_cap * sizeof *b->tag_keys);
    pf__free(&a, b->tag_vals, b->tag_cap * sizeof *b->tag_vals);
    pf__free(&a, b->fresh, b->fresh_cap * sizeof *b->fresh);
    pf__free(&a, b->jobs, b->jobs_cap * sizeof *b->jobs);
    pf__free(&a, b->members, b->members_cap * sizeof *b->members);
    pf__free(&a, b->dups, b->dups_cap * sizeof *b->dups);
    pf__free(&a, b->table, b->table_cap * sizeof *b->table);
    pf__free(&a, b->scratch, b->scratch_cap * sizeof *b->scratch);
    pf__free(&a, b->run, b->run_cap * sizeof *b->run);
    pf__free(&a, b->entries, b->entries_cap * sizeof *b->entries);
    pf__free(&a, b->fen, b->fen_cap * sizeof *b->fen);
    pf__free(&a, b, sizeof *b);
}

/* Tables sized for `n` queries at once: planning never allocates below that. */
static int reserve_queries(pf_batch *b, uint32_t n)
{
    uint32_t tcap = 64;
    while (tcap < 2u * n) tcap *= 2u;
    if (b->table_cap < tcap) {
        pf__free(&b->alloc, b->table, b->table_cap * sizeof *b->table);
        b->table = NULL;
        b->table_cap = 0;
        if (!PF__GROW(b, b->table, b->table_cap, tcap)) return 0;
    }
    return PF__GROW(b, b->q, b->qcap, n) && PF__GROW(b, b->fresh, b->fresh_cap, n) && PF__GROW(b, b->jobs, b->jobs_cap, n) &&
           PF__GROW(b, b->members, b->members_cap, n) && PF__GROW(b, b->dups, b->dups_cap, n) &&
           PF__GROW(b, b->scratch, b->scratch_cap, 5u * n) && PF__GROW(b, b->run, b->run_cap, n) &&
           PF__GROW(b, b->entries, b->entries_cap, 2u * n + 1u) && PF__GROW(b, b->fen, b->fen_cap, 2u * n + 2u) &&
           pf__tag_reserve(b, n);
}

pf_status pf_batch_reserve(pf_batch *b, const pf_batch_reserve_desc *r)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b || !r) return PF_INVALID_ARGUMENT;
    if (b->prepared) return PF_BATCH_BUSY;
    /* the check pf_batch_create applies to desc->reserve, on the batch as it is */
    batch_cfg c;
    pf_status st = check(b->map,
                         &(pf_batch_desc){.workers = b->nworkers, .suspend_slots = b->nspare_want,
                                          .heap_capacity = b->open_cap, .prefault = b->prefault, .reserve = *r},
                         &c, NULL);
    if (st != PF_OK) return st;
    r = &c.d.reserve; /* open_list clamped to the node count */
    /* a batch in caller memory has every table at its final size: more is its capacity exceeded
     * (checked first: reserve_queries replaces the hash table, which a static one cannot) */
    const pf_status fail = b->fixed ? PF_CAPACITY_EXCEEDED : PF_OUT_OF_MEMORY;
    if (b->fixed && r->queries > b->qcap) return fail;
    if (r->queries && !reserve_queries(b, r->queries)) return fail;
    int pre = b->prefault == PF_PREFAULT_ALL;
    if (r->open_list > b->open_cap) b->open_cap = r->open_list;
    if (r->open_list) {
        for (uint32_t w = 0; w < b->nworkers; w++)
            if (!pf__ctx_reserve_open(b->workers[w].ctx, b->open_cap, pre)) return fail;
        for (uint32_t i = 0; i < b->nspare; i++)
            if (!pf__ctx_reserve_open(b->spares[i], b->open_cap, pre)) return fail;
        for (uint32_t i = 0; i < b->njobs; i++)
            if (b->jobs[i].held && !pf__ctx_reserve_open(b->jobs[i].held, b->open_cap, pre)) return fail;
    }
    if (r->arena_bytes)
        for (uint32_t w = 0; w < b->nworkers; w++)
            if (!pf__arena_reserve(&b->workers[w].arena, r->arena_bytes, pre)) return fail;
    if (r->spares && !make_spares(b)) return fail;
    return PF_OK;
}

/* ---- queries ---------------------------------------------------------------------------------- */

/* Marks every query of a job cancelled at once as done, and the job as dropped. */
static void drop_job(pf_batch *b, uint32_t ji)
{
    pf__job *j = &b->jobs[ji];
    if (j->held) pf__put_spare(b, j->held); /* the suspended context is free again now */
    j->held = NULL;
    j->state = PF__J_CANCELLED;
    b->jobs_dirty = 1;
    if (j->kind == PF__J_SINGLE) pf__query_done(b, j->query);
    else
        for (uint32_t k = 0; k < j->count; k++) pf__query_done(b, b->members[j->first + k]);
    uint32_t keep = 0;
    for (uint32_t i = 0; i < b->ndups; i++) {
        uint32_t s = b->dups[i];
        if (b->q[b->q[s].canon].job == ji && b->q[b->q[s].canon].state == PF__Q_DONE) pf__query_done(b, s);
        else b->dups[keep++] = s;
    }
    b->ndups = keep;
}

static void cancel_slot(pf_batch *b, uint32_t slot, pf_status why)
{
    pf__bquery *e = &b->q[slot];
    e->cancel = why;
    pf__tag_remove(b, slot);
    b->pending--;
    if (why == PF_SUPERSEDED) b->st.superseded++;
    else b->st.cancelled++;
    if (e->state == PF__Q_NEW) {
        e->state = PF__Q_DONE; /* never planned: prepare skips it */
        return;
    }
    /* Queued: the search goes on while another pending query needs it (this slot stays readable to
     * it until then); otherwise it is dropped now. */
    uint32_t ji = e->canon != slot ? b->q[e->canon].job : e->job;
    if (--b->jobs[ji].live == 0) drop_job(b, ji);
}

static int lookup(const pf_batch *b, pf_query_id id, uint32_t *slot)
{
    uint32_t s = id.id & PF__BQ_SLOT_MASK, gen = id.id >> PF__BQ_SLOT_BITS;
    if (id.id == 0 || s >= b->qlen) return 0;
    const pf__bquery *e = &b->q[s];
    if (e->state == PF__Q_FREE || e->gen != gen) return 0;
    *slot = s;
    return 1;
}

pf_status pf_batch_submit(pf_batch *b, const pf_batch_query *q, pf_query_id *id)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (id) id->id = 0;
    if (!b || !q || (unsigned)q->priority > PF_PRIORITY_BACKGROUND) return PF_INVALID_ARGUMENT;
    if (b->prepared) return PF_BATCH_BUSY;
    uint32_t slot = b->free_head;
    if (slot == PF_NODE_NONE) {
        if (b->qlen > PF__BQ_SLOT_MASK - 1u) return PF_TOO_LARGE;
        if (!PF__GROW(b, b->q, b->qcap, b->qlen + 1u)) return b->fixed ? PF_CAPACITY_EXCEEDED : PF_OUT_OF_MEMORY;
        slot = b->qlen;
        b->q[slot].gen = 1;
    }
    /* everything that can fail comes before the first change */
    if (!PF__GROW(b, b->fresh, b->fresh_cap, b->nfresh + 1u) || !pf__tag_reserve(b, b->tag_len + 1u))
        return b->fixed ? PF_CAPACITY_EXCEEDED : PF_OUT_OF_MEMORY;
    if (q->flags & PF_QUERY_SUPERSEDE)
        for (uint32_t old; (old = pf__tag_newest(b, q->tag)) != PF__NONE;) cancel_slot(b, old, PF_SUPERSEDED);
    if (slot == b->qlen) b->qlen++;
    else b->free_head = b->q[slot].next_free;
    pf__bquery *e = &b->q[slot];
    e->q = *q;
    if (q->flags & PF_QUERY_FLOW) {
        /* a field has no start and reads two options: keep the rest out of its identity */
        e->q.start = q->goal;
        e->q.search = (pf_search_desc){.unit_size = q->search.unit_size, .max_cost = q->search.max_cost};
    }
    e->rd = pf_search_desc_resolve(b->map, &e->q.search);
    e->seq = b->seq++;
    e->state = PF__Q_NEW;
    e->canon = slot;
    e->job = PF__NONE;
    e->cancel = PF_OK;
    e->res = (pf_batch_result){.status = PF_IN_PROGRESS, .tag = q->tag, .stats = {.cost = INFINITY}};
    pf__tag_insert(b, slot); /* cannot fail: reserved above */
    b->fresh[b->nfresh++] = slot;
    b->pending++;
    b->st.submitted++;
    if (id) id->id = slot | (e->gen << PF__BQ_SLOT_BITS);
    return PF_OK;
}

pf_status pf_batch_cancel(pf_batch *b, pf_query_id id)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b) return PF_INVALID_ARGUMENT;
    if (b->prepared) return PF_BATCH_BUSY;
    uint32_t slot;
    if (!lookup(b, id, &slot)) return PF_EXPIRED_ID;
    const pf__bquery *e = &b->q[slot];
    if (e->state != PF__Q_DONE && e->cancel == PF_OK) cancel_slot(b, slot, PF_CANCELLED);
    return PF_OK;
}

/* ---- runs ------------------------------------------------------------------------------------- */

pf_status pf_batch_prepare(pf_batch *b, const pf_batch_budget *budget)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b) return PF_INVALID_ARGUMENT;
    if (b->prepared) return PF_BATCH_BUSY;
    /* from here to pf_batch_finish the map must not change (pf_grid_apply_edits checks it) */
    if (!pf__map_enter_call(b->map, &b->user)) return PF_MAP_BUSY;
    if (b->jobs_dirty) pf__compact_jobs(b);
    if (!pf__batch_plan(b) || !pf__plan_run(b, budget)) {
        pf__map_leave(&b->user);
        return PF_OUT_OF_MEMORY;
    }
    b->prepared = 1;
    return PF_OK;
}

uint32_t pf_batch_job_count(const pf_batch *b) { return b && b->prepared ? b->run_jobs : 0; }
uint32_t pf_batch_worker_count(const pf_batch *b) { return b ? b->nworkers : 0; }

/* A finished job's queries are answered. */
static void job_answered(pf_batch *b, const pf__job *j)
{
    if (j->kind == PF__J_SINGLE) {
        pf__query_done(b, j->query);
        return;
    }
    for (uint32_t k = 0; k < j->count; k++) {
        if (b->q[b->members[j->first + k]].cancel == PF_OK) b->st.grouped++;
        pf__query_done(b, b->members[j->first + k]);
    }
}

/* What ends a run, serially: duplicates of answered queries take their results, finished and
 * cancelled jobs leave, the workers' counters join the batch's. */
static void publish(pf_batch *b)
{
    uint32_t dkeep = 0;
    for (uint32_t i = 0; i < b->ndups; i++) {
        uint32_t s = b->dups[i];
        pf__bquery *e = &b->q[s];
        const pf__bquery *c = &b->q[e->canon];
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
    pf__compact_jobs(b);
    for (uint32_t w = 0; w < b->nworkers; w++) {
        pf__worker *wk = &b->workers[w];
        b->st.expanded += wk->expanded;
        b->st.redone += wk->redone;
        b->st.searches += wk->searches;
        b->st.suspended += wk->suspended;
        b->st.restarted += wk->restarted;
        b->st.groups += wk->groups;
        wk->expanded = wk->redone = wk->searches = wk->suspended = wk->restarted = wk->groups = 0;
    }
}

pf_status pf_batch_finish(pf_batch *b)
{
    if (!b) return PF_INVALID_ARGUMENT;
    if (!b->prepared) return PF_NOT_PREPARED;
    /* A job the caller did not run would break the budget account: it runs here, serially. */
    for (uint32_t i = 0; i < b->run_jobs; i++)
        if (!atomic_load(&b->jobs[b->run[i]].ran)) pf_batch_run_job(b, i, 0);
    /* Workers wrote their own slots and counters; everything below is serial. */
    pf__settle_run(b);
    for (uint32_t i = 0; i < b->run_jobs; i++)
        if (b->jobs[b->run[i]].state == PF__J_DONE) job_answered(b, &b->jobs[b->run[i]]);
    publish(b);
    b->epoch++;
    b->prepared = 0;
    b->run_jobs = 0;
    pf__map_leave(&b->user);
    return PF_OK;
}

void pf__finish_suspended(pf_batch *b)
{
    int any = 0;
    for (uint32_t i = 0; i < b->njobs; i++) {
        pf__job *j = &b->jobs[i];
        if (j->state != PF__J_SUSPENDED) continue;
        /* in its held context, or redone from the start on a worker's when it kept none */
        pf__run_to_end(b, j, &b->workers[0]);
        job_answered(b, j);
        any = 1;
    }
    if (any) publish(b);
}

pf_status pf_batch_get(const pf_batch *b, pf_query_id id, pf_batch_result *out)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b || !out) return PF_INVALID_ARGUMENT;
    if (b->prepared) return PF_BATCH_BUSY;
    uint32_t slot;
    if (!lookup(b, id, &slot)) return PF_EXPIRED_ID;
    const pf__bquery *e = &b->q[slot];
    if (e->cancel != PF_OK) *out = (pf_batch_result){.status = e->cancel, .tag = e->q.tag, .stats = {.cost = INFINITY}};
    else *out = e->res;
    return PF_OK;
}

pf_status pf_batch_reset(pf_batch *b)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b) return PF_INVALID_ARGUMENT;
    if (b->prepared) return PF_BATCH_BUSY;
    /* queries cancelled before any run leave the fresh list before their slots can be reused */
    uint32_t keep = 0;
    for (uint32_t i = 0; i < b->nfresh; i++)
        if (b->q[b->fresh[i]].state == PF__Q_NEW) b->fresh[keep++] = b->fresh[i];
    b->nfresh = keep;
    for (uint32_t s = 0; s < b->qlen; s++) {
        pf__bquery *e = &b->q[s];
        int pinned = e->state == PF__Q_QUEUED && e->cancel != PF_OK; /* a live search still reads it */
        if (e->state != PF__Q_DONE && !pinned) continue;
        e->gen = (e->gen + 1u) & 0xFFFu; /* 12 bits of generation catch stale ids */
        if (e->gen == 0) e->gen = 1;
        if (pinned) continue; /* its id expires like the others; the slot is freed after the search */
        e->state = PF__Q_FREE;
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
    n += (b->members_cap + b->dups_cap + b->table_cap + b->scratch_cap + b->run_cap) * sizeof(uint32_t);
    n += b->tag_cap * (sizeof *b->tag_keys + sizeof *b->tag_vals) + b->entries_cap * sizeof *b->entries;
    n += b->fen_cap * sizeof *b->fen;
    return n;
}
