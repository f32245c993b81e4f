/* batch.c - the batch object: the limits of its sizes, its making (on the heap or in caller memory),
 * reservation and destruction, and the public calls on queries. Each part it is made of keeps its
 * own fields (batch_internal.h); this file holds what the batch is made with, and the workers. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "batch_internal.h"

/* ---- limits ----------------------------------------------------------------------------------- */

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
static pf_status check_fields(const pf_map *map, const pf_batch_desc *desc, batch_cfg *c, pf_diag *diag)
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
    /* as many slots as a growing batch can hold (queries.c, pf__query_room: slots 0 .. 2^20 - 2) */
    if (d->max_queries > PF_BATCH_MAX_QUERIES)
        return PF__REFUSE(diag, PF_INVALID_ARGUMENT, "max_queries: %u exceed PF_BATCH_MAX_QUERIES (%u)", d->max_queries,
                          PF_BATCH_MAX_QUERIES);
    if ((unsigned)d->prefault > PF_PREFAULT_NONE)
        return PF__REFUSE(diag, PF_INVALID_ARGUMENT, "prefault: %u is not a pf_prefault value",
                          (unsigned)d->prefault);
    if (d->flags & ~(uint32_t)(PF_BATCH_NO_DEDUP | PF_BATCH_NO_GROUPS | PF_BATCH_FINISH_ON_EDIT))
        return PF__REFUSE(diag, PF_INVALID_ARGUMENT, "flags: 0x%x holds bits of no PF_BATCH_* flag", d->flags);
    if (d->reserve.algos >> PF_ALGO__COUNT)
        return PF__REFUSE(diag, PF_INVALID_ARGUMENT, "reserve.algos: 0x%x names no pf_algo beyond bit %u",
                          d->reserve.algos, PF_ALGO__COUNT - 1u);
    if (d->reserve.unit_size > PF_UNIT_SIZE_MAX)
        return PF__REFUSE(diag, PF_INVALID_ARGUMENT, "reserve.unit_size: %u exceeds PF_UNIT_SIZE_MAX (%u)",
                          d->reserve.unit_size, (unsigned)PF_UNIT_SIZE_MAX);
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
    /* the tables the planner and the tag index size for qcap queries at once */
    c->tcap = 64;
    while (c->tcap < 2u * c->qcap) c->tcap *= 2u;
    c->prefault = PF__DEF(c->d.prefault, PF_PREFAULT_ALL);
    /* What the batch may commit: every worker's context and arena (as created or reserved), and
     * every spare (made lazily, but all of them may be needed at once). */
    c->d.heap_capacity = clamp_open(map, c->d.heap_capacity);
    c->d.reserve.open_list = clamp_open(map, c->d.reserve.open_list);
    return PF_OK;
}

/* What one spare (a context) and one worker (a context and its path arena) commit. */
static void commit_bytes(const pf_map *map, const batch_cfg *c, int fixed, uint64_t *ctx, uint64_t *worker)
{
    const pf_batch_desc *d = &c->d;
    uint32_t open = d->heap_capacity > d->reserve.open_list ? d->heap_capacity : d->reserve.open_list;
    /* in caller memory, the context pf_batch_init_static carves: its open list holds every node
     * unless heap_capacity says less, and a JPS table brings the JPS state (static_layout) */
    *ctx = fixed ? pf_ctx_estimate(map, &(pf_ctx_desc){.heap_capacity = d->heap_capacity, .jps_table = d->jps_table})
                 : ctx_bytes(map, open);
    *worker = *ctx + (c->arena > d->reserve.arena_bytes ? c->arena : d->reserve.arena_bytes);
}

static pf_status check(const pf_map *map, const pf_batch_desc *desc, batch_cfg *c, pf_diag *diag, int fixed)
{
    pf_status st = check_fields(map, desc, c, diag);
    if (st != PF_OK) return st;
    uint64_t ctx, worker;
    commit_bytes(map, c, fixed, &ctx, &worker);
    if ((uint64_t)c->nworkers * worker > PF_BATCH_MAX_WORKER_BYTES)
        return PF__REFUSE(diag, PF_TOO_LARGE,
                          "workers: %u workers of %llu bytes each (a context and a path arena) exceed "
                          "PF_BATCH_MAX_WORKER_BYTES (%llu)",
                          c->nworkers, (unsigned long long)worker, (unsigned long long)PF_BATCH_MAX_WORKER_BYTES);
    if ((uint64_t)pf__spares_total(c->nspare) * ctx > PF_BATCH_MAX_SPARE_BYTES)
        return PF__REFUSE(diag, PF_TOO_LARGE,
                          "suspend_slots: %u spare contexts of %llu bytes each, and %u for urgent searches, exceed "
                          "PF_BATCH_MAX_SPARE_BYTES (%llu)",
                          c->nspare, (unsigned long long)ctx, PF__URGENT_SLOTS,
                          (unsigned long long)PF_BATCH_MAX_SPARE_BYTES);
    if (diag) *diag = (pf_diag){.status = PF_OK};
    return PF_OK;
}

static pf_status resolve(const pf_map *map, const pf_batch_desc *desc, batch_cfg *c, int fixed)
{
    return check(map, desc, c, NULL, fixed);
}

pf_status pf_batch_check(const pf_map *map, const pf_batch_desc *desc, pf_diag *diag)
{
    batch_cfg c;
    return check(map, desc, &c, diag, 0);
}

pf_status pf_batch_bounds_for(const pf_map *map, const pf_batch_desc *desc, pf_batch_bounds *out, pf_diag *diag)
{
    if (!out) return PF__REFUSE(diag, PF_INVALID_ARGUMENT, "out: NULL");
    *out = (pf_batch_bounds){0};
    /* the two counts asked for are the answer, not part of the question */
    pf_batch_desc d = desc ? *desc : (pf_batch_desc){0};
    d.workers = d.suspend_slots = 1;
    batch_cfg c;
    pf_status st = check_fields(map, &d, &c, diag);
    if (st != PF_OK) return st;
    uint64_t ctx, worker;
    commit_bytes(map, &c, 0, &ctx, &worker);
    uint64_t w = PF_BATCH_MAX_WORKER_BYTES / worker, s = PF_BATCH_MAX_SPARE_BYTES / ctx;
    s = s > PF__URGENT_SLOTS ? s - PF__URGENT_SLOTS : 0; /* the urgent slot's context counts too */
    out->max_workers = (uint32_t)(w < PF_BATCH_MAX_WORKERS ? w : PF_BATCH_MAX_WORKERS);
    out->max_suspend_slots = (uint32_t)(s < PF_BATCH_MAX_WORKERS ? s : PF_BATCH_MAX_WORKERS);
    return PF_OK;
}

/* A JPS table or an accelerator made for another map: PF_WRONG_MAP, as pf_batch_create and
 * pf_batch_init_static refuse them (and pf_batch_estimate with 0). Contexts attach the batch's
 * accelerator whatever its cells (pf__new_ctx: an adopted one may be stale), so it is checked here,
 * as pf_ctx_use_accel would. */
static pf_status tables_match(const pf_map *map, const batch_cfg *c)
{
    if (c->d.accel && !pf__accel_attachable(c->d.accel, map)) return PF_WRONG_MAP;
    if (c->d.jps_table && !pf__jps_table_attachable(c->d.jps_table, map)) return PF_WRONG_MAP;
    return PF_OK;
}

/* Fields every batch starts with; the tables are made or placed by the caller. */
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
                                .jps_table = c->d.jps_table, .accel = c->d.accel, .prefault = c->prefault,
                                .parallel = c->d.parallel};
    b->flags = c->d.flags;
    b->group_min = c->group_min;
    b->nworkers = c->nworkers;
    b->nspare_want = c->nspare;
    pf__queries_init(b);
    pf__spares_init(b);
    pf__account_init(b);
    pf__batch_follow(b);
}

pf_status pf_batch_create(const pf_map *map, const pf_batch_desc *desc, pf_batch **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    batch_cfg c;
    pf_status st = resolve(map, desc, &c, 0);
    if (st != PF_OK) return st;
    if ((st = tables_match(map, &c)) != PF_OK) return st;
    pf_allocator a = pf__alloc_resolve(&c.d.allocator);
    pf_batch *b = pf__calloc(&a, sizeof *b, 64);
    if (!b) return PF_OUT_OF_MEMORY;
    batch_init(b, map, &c, a);
    st = PF_OUT_OF_MEMORY;
    /* the spare stack has its final size: workers push and pop it during runs */
    if (!pf__workers_alloc(b) || !pf__spares_alloc(b)) goto fail;
    if ((st = pf__workers_init(b, c.arena)) != PF_OK) goto fail;
    if ((st = pf_batch_reserve(b, &c.d.reserve)) != PF_OK) goto fail;
    *out = b;
    return PF_OK;
fail:
    pf_batch_destroy(b);
    return st == PF_OK ? PF_OUT_OF_MEMORY : st;
}

/* A static batch, part by part in the order init_static carves them (each 64-byte aligned). */
typedef struct batch_layout {
    size_t head, workers, spares, tables; /* zeroed: the tables start empty, like calloc'd ones */
    size_t ctx, arena;                    /* each worker's context and arena; each spare's context */
    size_t total;
} batch_layout;

static batch_layout static_layout(const pf_map *map, const batch_cfg *c)
{
    batch_layout l;
    l.head = pf__align64(sizeof(pf_batch));
    l.workers = pf__workers_static_size(c->nworkers);
    l.spares = pf__spares_static_size(pf__spares_total(c->nspare));
    l.tables = pf__queries_static_size(c->qcap, c->tcap) + pf__plan_static_size(c->qcap, c->tcap) +
               pf__account_static_size(c->qcap);
    pf_ctx_desc cd = {.heap_capacity = c->d.heap_capacity, .jps_table = c->d.jps_table};
    l.ctx = pf__align64(pf_ctx_estimate(map, &cd));
    l.arena = pf__arena_static_size(c->arena);
    l.total = l.head + l.workers + l.spares + l.tables + c->nworkers * (l.ctx + l.arena) +
              pf__spares_total(c->nspare) * l.ctx;
    return l;
}

size_t pf_batch_estimate(const pf_map *map, const pf_batch_desc *desc)
{
    batch_cfg c;
    if (resolve(map, desc, &c, 1) != PF_OK || tables_match(map, &c) != PF_OK) return 0;
    return static_layout(map, &c).total + 63u;
}

pf_status pf_batch_init_static(void *mem, size_t size, const pf_map *map, const pf_batch_desc *desc,
                               pf_batch **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    batch_cfg c;
    pf_status st = resolve(map, desc, &c, 1);
    if (st != PF_OK) return st;
    if ((st = tables_match(map, &c)) != PF_OK) return st; /* before the batch follows the map */
    if (!mem) return PF_INVALID_ARGUMENT;
    if (c.d.accel) return PF_UNSUPPORTED; /* its query state is allocated on first use */
    batch_layout l = static_layout(map, &c);
    size_t skip = (size_t)(-(uintptr_t)mem & 63u);
    if (size < skip || size - skip < l.total) return PF_BUFFER_TOO_SMALL;
    char *p = (char *)mem + skip;
    memset(p, 0, l.head + l.workers + l.spares + l.tables);
    pf_batch *b = pf__carve(&p, l.head);
    batch_init(b, map, &c, pf__alloc_none());
    b->fixed = 1;
    pf__workers_place(b, pf__carve(&p, l.workers));
    pf__spares_place(b, pf__carve(&p, l.spares), pf__spares_total(c.nspare));
    pf__queries_place(b, &p, c.qcap, c.tcap);
    pf__plan_place(b, &p, c.qcap, c.tcap);
    pf__account_place(b, &p, c.qcap);
    /* only the first context can fail, before any other part exists; each part has its estimate.
     * The batch follows the map from batch_init on: a failure lets go of it, or the map's next
     * edit would call into the caller's memory after the caller reused it (a review: ASan,
     * heap-use-after-free, after a JPS table of another map) */
    if ((st = pf__workers_place_contexts(b, &p, l.ctx, l.arena, c.arena)) != PF_OK) {
        pf__batch_unfollow(b);
        return st;
    }
    pf__spares_place_contexts(b, &p, l.ctx);
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
    pf__workers_free(b);
    pf__spares_free(b);
    pf__queries_free(b);
    pf__plan_free(b);
    pf__account_free(b);
    pf_jps_table_destroy(b->jps_own); /* after the contexts that used it */
    pf_jps_table_destroy(b->jps_retired);
    pf__free(&a, b, sizeof *b);
}

/* Tables sized for `n` queries at once: planning never allocates below that. Grown in the order
 * they always were, so that the n-th allocation of a reservation is the same table. */
static int reserve_queries(pf_batch *b, uint32_t n)
{
    return pf__plan_reserve_table(b, n) && pf__queries_reserve(b, n) && pf__plan_reserve(b, n) &&
           pf__account_reserve(b, n) && pf__tag_reserve(b, n);
}

/* reserve.algos: one JPS table for all contexts when they would each build their own, then each
 * context's per-algorithm state (workers' and spares'; spares made later get it in pf__new_ctx). */
static pf_status reserve_algos(pf_batch *b, uint32_t algos)
{
    const uint32_t jps = (1u << PF_ALGO_JPS) | (1u << PF_ALGO_JPS_PLUS) | (1u << PF_ALGO_AUTO);
    const int plus = (algos & ((1u << PF_ALGO_JPS_PLUS) | (1u << PF_ALGO_AUTO))) != 0;
    if ((algos & jps) && !b->fixed && pf_jps_supported(b->map) &&
        (!b->jps || (b->jps_own && plus && !b->jps_own_plus))) {
        pf_jps_table *t;
        pf_status st = pf_jps_table_create(b->map,
                                           &(pf_jps_desc){.allocator = b->alloc, .bitmaps_only = !plus,
                                                          .parallel = b->ctx_desc.parallel},
                                           &t);
        if (st != PF_OK) return st;
        pf__workers_use_jps(b, t);
        pf__spares_use_jps(b, t);
        /* a bitmaps-only one, replaced: the contexts of suspended searches still read it (switching
         * their table would end their searches), so it lives as long as the batch; it is replaced
         * at most once (the new one has the distances), and edits keep it current like any table */
        b->jps_retired = b->jps_own;
        b->jps = b->jps_own = t;
        b->jps_own_plus = plus;
        b->ctx_desc.jps_table = t;
    }
    b->algos |= algos;
    pf_status st = pf__workers_reserve_algos(b, b->algos);
    return st == PF_OK ? pf__spares_reserve_algos(b, b->algos) : st;
}

pf_status pf_batch_reserve(pf_batch *b, const pf_batch_reserve_desc *r)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b || !r) return PF_INVALID_ARGUMENT;
    if (pf__account_prepared(b)) return PF_BATCH_BUSY;
    /* the check pf_batch_create applies to desc->reserve, on the batch as it is */
    batch_cfg c;
    pf_status st = check(b->map,
                         &(pf_batch_desc){.workers = b->nworkers, .suspend_slots = b->nspare_want,
                                          .heap_capacity = b->open_cap, .prefault = b->prefault, .reserve = *r},
                         &c, NULL, 0);
    if (st != PF_OK) return st;
    r = &c.d.reserve; /* open_list clamped to the node count */
    /* a batch in caller memory has every table at its final size: more is its capacity exceeded
     * (checked first: reserve_queries replaces the hash table, which a static one cannot) */
    const pf_status fail = b->fixed ? PF_CAPACITY_EXCEEDED : PF_OUT_OF_MEMORY;
    if (b->fixed && r->queries > pf__queries_capacity(b)) return fail;
    if (r->queries && !reserve_queries(b, r->queries)) return fail;
    int pre = b->prefault == PF_PREFAULT_ALL;
    if (r->open_list > b->open_cap) b->open_cap = r->open_list;
    if (r->open_list && (!pf__workers_reserve_open(b, b->open_cap, pre) || !pf__spares_reserve_open(b, b->open_cap, pre) ||
                         !pf__plan_reserve_open(b, b->open_cap, pre)))
        return fail;
    if (r->arena_bytes && !pf__workers_reserve_arena(b, r->arena_bytes, pre)) return fail;
    if (r->spares && !pf__spares_make_all(b)) return fail;
    if (r->algos && (st = reserve_algos(b, r->algos)) != PF_OK) return st == PF_OUT_OF_MEMORY ? fail : st;
    /* after the algorithms: JPS's sized bitmaps go with them */
    if (r->unit_size > 1 && !b->fixed &&
        ((st = pf__workers_reserve_size(b, r->unit_size)) != PF_OK || (st = pf__spares_reserve_size(b, r->unit_size)) != PF_OK))
        return st == PF_OUT_OF_MEMORY ? fail : st;
    return PF_OK;
}

/* ---- queries ---------------------------------------------------------------------------------- */

static void cancel_slot(pf_batch *b, uint32_t slot, pf_status why)
{
    if (pf__query_cancel(b, slot, why)) pf__plan_cancel(b, slot);
}

pf_status pf_batch_submit(pf_batch *b, const pf_batch_query *q, pf_query_id *id)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (id) id->id = 0;
    if (!b || !q || (unsigned)q->priority > PF_PRIORITY_BACKGROUND) return PF_INVALID_ARGUMENT;
    if (q->flags & ~(uint32_t)(PF_QUERY_SUPERSEDE | PF_QUERY_FLOW)) return PF_INVALID_ARGUMENT; /* a flag of no meaning */
    if (pf__account_prepared(b)) return PF_BATCH_BUSY;
    /* everything that can fail comes before the first change */
    uint32_t slot;
    pf_status st = pf__query_room(b, &slot);
    if (st != PF_OK) return st;
    if (q->flags & PF_QUERY_SUPERSEDE)
        for (uint32_t old; (old = pf__tag_newest(b, q->tag)) != PF__NONE;) cancel_slot(b, old, PF_SUPERSEDED);
    uint32_t qid = pf__query_add(b, slot, q);
    if (id) id->id = qid;
    return PF_OK;
}

pf_status pf_batch_cancel(pf_batch *b, pf_query_id id)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b) return PF_INVALID_ARGUMENT;
    if (pf__account_prepared(b)) return PF_BATCH_BUSY;
    uint32_t slot;
    if (!pf__query_lookup(b, id, &slot)) return PF_EXPIRED_ID;
    if (pf__query_live(b, slot)) cancel_slot(b, slot, PF_CANCELLED);
    return PF_OK;
}

pf_status pf_batch_get(const pf_batch *b, pf_query_id id, pf_batch_result *out)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b || !out) return PF_INVALID_ARGUMENT;
    if (pf__account_prepared(b)) return PF_BATCH_BUSY;
    return pf__query_result(b, id, out);
}

pf_status pf_batch_reset(pf_batch *b)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b) return PF_INVALID_ARGUMENT;
    if (pf__account_prepared(b)) return PF_BATCH_BUSY;
    pf__queries_reset(b);
    pf__workers_reset(b);
    return PF_OK;
}

/* ---- introspection ---------------------------------------------------------------------------- */

uint32_t pf_batch_worker_count(const pf_batch *b)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    return b ? b->nworkers : 0;
}

pf_batch_stats pf_batch_get_stats(const pf_batch *b)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b) return (pf_batch_stats){0};
    pf_batch_stats s = b->st;
    s.pending = pf__queries_npending(b);
    return s;
}

size_t pf_batch_mem_size(const pf_batch *b)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b) return 0;
    return sizeof *b + pf__workers_mem_size(b) + pf__spares_mem_size(b) + pf__queries_mem_size(b) +
           pf__plan_mem_size(b) + pf__account_mem_size(b);
}
