/* ctx.c - search context lifecycle: node records sized once, reset by generation stamp. */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "search/ctx_internal.h"
#include "jps/jps_internal.h" /* the JPS state of a static context */
#include "search/size_comp_internal.h"
#include "search/fsize_internal.h"
#include "core_batch_internal.h"
#include "pathfind/pf_accel.h" /* pf_ctx_desc.accel */

/* Where a context's parts go: one block of records (their directory, parents, and pages unless
 * they are lazy), the open list, and for a static context its own struct first and the JPS state
 * last. */
typedef struct ctx_layout {
    size_t   block;                                    /* records */
    uint32_t hcap;                                     /* open-list entries */
    size_t   heap;                                     /* bytes of the open list, padding included */
} ctx_layout;

/* The extensions' callbacks, by kind (ctx_internal.h). */
static const pf__ext_class *const EXT[PF__EXT__COUNT] = {&pf__ext_jps, &pf__ext_accel, &pf__ext_theta,
                                                          &pf__ext_fsize, &pf__ext_sized};

/* After an edit: the records need nothing (same cell count, reset by generation; a sliced search
 * in progress restarts at its next step, search.c), the extensions' derived data follows (the JPS
 * data this context built). */
static int ctx_after_edit(pf__map_user *u, const pf_map *m, pf__edit_view *e)
{
    pf_ctx *ctx = (pf_ctx *)(void *)((char *)u - offsetof(pf_ctx, user));
    (void)m;
    int ok = 1;
    for (int k = 0; k < PF__EXT__COUNT; k++)
        if (ctx->ext[k] && EXT[k]->edit && !(ctx->ext_placed >> k & 1u)) ok &= EXT[k]->edit(ctx, ctx->ext[k], e);
    return ok;
}

void *pf__ctx_ext(pf_ctx *ctx, pf__ext_kind kind)
{
    if (!ctx->ext[kind] && !ctx->fixed) ctx->ext[kind] = EXT[kind]->create(ctx);
    return ctx->ext[kind];
}

pf_status pf__ctx_ext_reserve(pf_ctx *ctx, pf__ext_kind kind)
{
    void *x = pf__ctx_ext(ctx, kind);
    if (!x || (EXT[kind]->reserve && !EXT[kind]->reserve(ctx, x))) return pf__ctx_oom_status(ctx, PF_OUT_OF_MEMORY);
    return PF_OK;
}

pf_status pf__ctx_reserve_algos(pf_ctx *ctx, uint32_t algos)
{
    const uint32_t jps = (1u << PF_ALGO_JPS) | (1u << PF_ALGO_JPS_PLUS) | (1u << PF_ALGO_AUTO);
    pf_status st = PF_OK;
    if ((algos & jps) && pf_jps_supported(ctx->map)) st = pf__ctx_ext_reserve(ctx, PF__EXT_JPS);
    if (st == PF_OK && (algos & (1u << PF_ALGO_AUTO)) && pf__ctx_ext_get(ctx, PF__EXT_ACCEL))
        st = pf__ctx_ext_reserve(ctx, PF__EXT_ACCEL);
    if (st == PF_OK && (algos & (1u << PF_ALGO_THETA)) && ctx->map->kind == PF_MAP_GRID)
        st = pf__ctx_ext_reserve(ctx, PF__EXT_THETA);
    return st;
}

pf_status pf__ctx_reserve_size(pf_ctx *ctx, uint32_t size, uint32_t algos)
{
    const uint32_t jps = (1u << PF_ALGO_JPS) | (1u << PF_ALGO_JPS_PLUS) | (1u << PF_ALGO_AUTO);
    if (size < 2 || ctx->fixed || ctx->map->kind != PF_MAP_GRID || ctx->map->moves == PF_MOVES_HEX) return PF_OK;
    pf_status st = pf__szcomp_reserve(ctx, (uint8_t)size);
    if (st == PF_OK && (algos & jps)) st = pf__jps_reserve_size(ctx, (uint8_t)size);
    return st;
}

void pf__ctx_ext_drop(pf_ctx *ctx, pf__ext_kind kind)
{
    if (!ctx->ext[kind] || (ctx->ext_placed >> kind & 1u)) return;
    EXT[kind]->destroy(ctx, ctx->ext[kind]);
    ctx->ext[kind] = NULL;
}

void pf__ctx_ext_place(pf_ctx *ctx, pf__ext_kind kind, void *x)
{
    ctx->ext[kind] = x;
    ctx->ext_placed |= 1u << kind;
}

/* The open list doubles on demand (pf__open.grow); a static context's never grows, and its search
 * reports PF_CAPACITY_EXCEEDED instead. */
static int ctx_open_grow(pf__open *o)
{
    pf_ctx *ctx = o->owner;
    if (ctx->fixed) return 0;
    uint64_t ncap = (uint64_t)o->cap * 2u;
    if (ncap > UINT32_MAX - 1u) ncap = UINT32_MAX - 1u;
    if (ncap <= o->cap) return 0;
    return pf__open_resize(o, &ctx->alloc, (uint32_t)ncap);
}

static ctx_layout layout(const pf_map *map, uint32_t hcap, int lazy_records)
{
    ctx_layout l;
    int par = map->kind == PF_MAP_GRAPH;
    l.block = lazy_records ? pf__nodes_lazy_bytes(map->count, par) : pf__nodes_bytes(map->count, par);
    l.hcap = hcap;
    l.heap = pf__align64(pf__open_bytes(hcap));
    return l;
}

/* A heap_capacity asked for, within the node count: no search holds a node in the open list twice,
 * so more entries are never used (asked for 2^32 - 1 on a 32x32 map, a context committed gigabytes
 * where a batch clamps it). */
static uint32_t hcap_asked(const pf_map *map, const pf_ctx_desc *d)
{
    const uint32_t n = map->count ? map->count : 1u;
    return d && d->heap_capacity ? (d->heap_capacity < n ? d->heap_capacity : n) : 0u;
}

/* Static contexts: the open list never grows, so by default it holds every node (no search puts
 * a node in it twice). */
static uint32_t static_hcap(const pf_map *map, const pf_ctx_desc *d)
{
    const uint32_t asked = hcap_asked(map, d);
    return asked ? asked : map->count;
}

/* Fills the header of a context whose records block `b` and open list `hb` are placed already; 0
 * when the spare pages of lazy records cannot be made (pf__nodes_free then frees those made). */
static int ctx_init(pf_ctx *ctx, const pf_map *map, pf_allocator a, char *b, const ctx_layout *l,
                     pf__hentry *hb, pf_prefault prefault)
{
    ctx->tag = PF__TAG_CTX;
    ctx->map = map;
    ctx->alloc = a;
    ctx->block = b;
    ctx->block_size = l->block;
    /* By default every page of records is written once here, so that it is faulted in at creation,
     * not inside a frame: on a 2000x2000 map a 50-cell query otherwise takes ~100 page faults, 3x
     * its search time. PF_PREFAULT_NONE makes the records lazy (nodes_internal.h): an entry gets a
     * page (a spare made now, else its lazily mapped one) when a search first writes it, and the
     * context holds what its searches touch (a batch's spares). */
    if (prefault == PF_PREFAULT_NONE) {
        if (!pf__nodes_place_lazy(&ctx->nodes, b, ctx->lazy != 0, map->count, map->kind == PF_MAP_GRAPH, &ctx->alloc))
            return 0;
    } else {
        memset(b, 0, l->block);
        pf__nodes_place_zeroed(&ctx->nodes, b, map->count, map->kind == PF_MAP_GRAPH);
    }
    if (prefault == PF_PREFAULT_ALL) memset(hb, 0, pf__open_bytes(l->hcap));
    ctx->open.heap = hb + PF__HEAP_PAD;
    ctx->open.cap = l->hcap;
    ctx->open.size = 0;
    ctx->open.pg = ctx->page;
    ctx->open.grow = ctx_open_grow;
    ctx->open.owner = ctx;
    ctx->s.status = PF_INVALID_ARGUMENT;
    ctx->s.found = PF_NODE_NONE;
    ctx->user.after = ctx_after_edit;
    pf__map_attach(map, &ctx->user);
#ifdef PF__DEBUG_HANDLES
    /* maps are immutable for searches; this debug-only counter and the user list are the fields a
     * context changes */
    atomic_fetch_add(&((pf_map *)map)->users, 1u);
#endif
    return 1;
}

static pf_status check_map(const pf_map *map, const pf_ctx_desc *d)
{
    if (!map) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(map, PF__TAG_MAP, "pf_map");
    if (map->count == 0) return PF_INVALID_ARGUMENT;
    if (d && (unsigned)d->prefault > PF_PREFAULT_NONE) return PF_INVALID_ARGUMENT;
    if (d && d->jps_table && !pf__jps_table_attachable(d->jps_table, map)) return PF_WRONG_MAP;
    return PF_OK;
}

int pf__jps_table_attachable(const pf_jps_table *t, const pf_map *map)
{
    return t->map == map && t->fingerprint == map->fingerprint;
}

pf_status pf_ctx_create(const pf_map *map, const pf_ctx_desc *desc, pf_ctx **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    pf_status st = check_map(map, desc);
    if (st != PF_OK) return st;
    pf_ctx_desc d = desc ? *desc : (pf_ctx_desc){0};
    pf_allocator a = pf__alloc_resolve(&d.allocator);

    /* The open list of a long grid query holds a thin frontier: start at 1/64 of the map (at least
     * 1024 entries) and double on demand; with lazy records at 1024 (16 KiB, taken warm from the
     * allocator like the pages), so that a fresh context's first short query maps nothing. */
    size_t n = map->count;
    int lazy_rec = d.prefault == PF_PREFAULT_NONE;
    const uint32_t asked = hcap_asked(map, &d);
    ctx_layout l = layout(map, asked ? asked : (uint32_t)(n / 64 > 1024 && !lazy_rec ? n / 64 : 1024), lazy_rec);
    pf_ctx *ctx = pf__calloc(&a, sizeof *ctx, 64);
    /* Huge pages only where the whole block is written now anyway: on lazy pages a touch would
     * map 2 MiB, and the context would no longer cost what it touches. */
    int lazy = 0;
    int huge = !lazy_rec;
    char *b = ctx ? pf__alloc_lazy(&a, l.block, huge, &lazy) : NULL;
    pf__hentry *hb = b ? pf__alloc(&a, pf__open_bytes(l.hcap), 64) : NULL;
    if (!hb) {
        pf__free_lazy(&a, b, l.block, lazy);
        pf__free(&a, ctx, sizeof *ctx);
        return PF_OUT_OF_MEMORY;
    }
    ctx->lazy = lazy ? 1 + huge : 0;
    if (lazy_rec) {
        /* pf__ctx_trim's maps, made now: a batch's frames allocate nothing after its reserve */
        size_t ps = pf__page_size();
        ctx->resident_size = ((size_t)map->count * sizeof(uint32_t) + ps - 1) / ps +
                             (((size_t)map->count + PF__PAGE_MASK) >> PF__PAGE_SHIFT) + 1;
        ctx->resident = pf__alloc(&a, ctx->resident_size, 64);
        if (!ctx->resident) {
            pf__free_lazy(&a, b, l.block, lazy);
            pf__free(&a, hb, pf__open_bytes(l.hcap));
            pf__free(&a, ctx, sizeof *ctx);
            return PF_OUT_OF_MEMORY;
        }
    }
    if (!ctx_init(ctx, map, a, b, &l, hb, d.prefault)) {
        pf__nodes_free(&ctx->nodes);
        pf__free_lazy(&a, b, l.block, lazy);
        pf__free(&a, hb, pf__open_bytes(l.hcap));
        pf__free(&a, ctx->resident, ctx->resident_size);
        pf__free(&a, ctx, sizeof *ctx);
        return PF_OUT_OF_MEMORY;
    }
    ctx->parallel = d.parallel;
    if ((d.jps_table && (st = pf_ctx_use_jps_table(ctx, d.jps_table)) != PF_OK) ||
        (d.accel && (st = pf_ctx_use_accel(ctx, d.accel)) != PF_OK)) {
        pf_ctx_destroy(ctx);
        return st;
    }
    *out = ctx;
    return PF_OK;
}

/* Bytes of a static context, without the alignment slack of an arbitrary `mem`. */
static size_t static_bytes(const pf_map *map, const pf_ctx_desc *d)
{
    ctx_layout l = layout(map, static_hcap(map, d), 0);
    return pf__align64(sizeof(pf_ctx)) + l.block + l.heap +
           (d && d->jps_table ? pf__jps_static_size(map) : 0);
}

size_t pf_ctx_estimate(const pf_map *map, const pf_ctx_desc *desc)
{
    if (check_map(map, NULL) != PF_OK) return 0;
    return static_bytes(map, desc) + 63u;
}

pf_status pf_ctx_init_static(void *mem, size_t size, const pf_map *map, const pf_ctx_desc *desc,
                             pf_ctx **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    pf_status st = check_map(map, desc);
    if (st != PF_OK) return st;
    if (!mem) return PF_INVALID_ARGUMENT;
    if (desc && desc->accel) return PF_UNSUPPORTED;
    size_t skip = (size_t)(-(uintptr_t)mem & 63u);
    if (size < skip || size - skip < static_bytes(map, desc)) return PF_BUFFER_TOO_SMALL;
    char *p = (char *)mem + skip;
    ctx_layout l = layout(map, static_hcap(map, desc), 0);
    pf_ctx *ctx = (pf_ctx *)(void *)p;
    memset(ctx, 0, sizeof *ctx);
    p += pf__align64(sizeof *ctx);
    char *b = p;
    pf__hentry *hb = (pf__hentry *)(void *)(p + l.block);
    (void)ctx_init(ctx, map, pf__alloc_none(), b, &l, hb, PF_PREFAULT_RECORDS); /* dense: cannot fail */
    ctx->fixed = 1;
    if (desc) ctx->parallel = desc->parallel;
    if (desc && desc->jps_table) pf__jps_static_init(ctx, p + l.block + l.heap, desc->jps_table);
    *out = ctx;
    return PF_OK;
}

void pf_ctx_destroy(pf_ctx *ctx)
{
    if (!ctx) return;
    PF__CHECK_HANDLE(ctx, PF__TAG_CTX, "pf_ctx");
#ifdef PF__DEBUG_HANDLES
    atomic_fetch_sub(&((pf_map *)ctx->map)->users, 1u);
#endif
    ctx->tag = PF__TAG_DEAD;
    pf__map_detach(ctx->map, &ctx->user);
    pf_allocator a = ctx->alloc;
    for (int k = 0; k < PF__EXT__COUNT; k++) pf__ctx_ext_drop(ctx, (pf__ext_kind)k);
    pf__open_free(&ctx->open, &a);
    pf__nodes_free(&ctx->nodes);
    pf__free_lazy(&a, ctx->block, ctx->block_size, ctx->lazy);
    pf__free(&a, ctx->resident, ctx->resident_size);
    pf__free(&a, ctx, sizeof *ctx);
}

/* JPS's jump-point parents when they are lazy pages too (jps_search.c): written before they are
 * read by every search, so any page of them may go. */
static uint32_t *lazy_parents(const pf_ctx *ctx)
{
    const pf__jps_ext *x = ctx->ext[PF__EXT_JPS];
    return x && x->parent_lazy && !(ctx->ext_placed >> PF__EXT_JPS & 1u) ? x->parent : NULL;
}

void pf__ctx_release(pf_ctx *ctx)
{
    if (!ctx->nodes.zero) return; /* lazy records only */
    uint32_t *par = lazy_parents(ctx);
    if (par) pf__release_lazy(par, (size_t)ctx->count * sizeof(uint32_t));
    pf__nodes_release(&ctx->nodes);
    ctx->s.active = PF__SEARCH_NONE;
    ctx->s.status = PF_INVALID_ARGUMENT;
    ctx->s.found = PF_NODE_NONE;
}

/* Gives back the pages of lazy parents `par` (JPS's jump-point parents, a graph's parents: whole
 * pages of their own) that hold no live record's parent (`live`: a byte per record page; `map` has
 * room for a byte per page of the parents). */
static void trim_parents(const pf_ctx *ctx, uint32_t *par, unsigned char *map, const unsigned char *live, size_t ps)
{
    size_t bytes = (size_t)ctx->count * sizeof(uint32_t), np = (bytes + ps - 1) / ps;
    if (!pf__resident_pages(par, bytes, map)) return;
    size_t per = ps / sizeof(uint32_t), run = 0, n = 0;
    for (size_t pg = 0; pg <= np; pg++) {
        if (pg < np && (map[pg] & 1u)) {
            size_t c1 = ((pg + 1) * per < ctx->count ? (pg + 1) * per : ctx->count) - 1;
            int used = 0;
            for (size_t r = (pg * per) >> PF__PAGE_SHIFT; r <= c1 >> PF__PAGE_SHIFT && !used; r++) used = live[r];
            if (!used) {
                if (!n) run = pg;
                n++;
                continue;
            }
        }
        if (n) {
            size_t end = (run + n) * ps < bytes ? (run + n) * ps : bytes;
            pf__release_lazy((char *)par + run * ps, end - run * ps);
        }
        n = 0;
    }
}

void pf__ctx_trim(pf_ctx *ctx)
{
    pf__nodes *r = &ctx->nodes;
    if (!r->zero) return; /* lazy records only */
    /* a record is live iff its stamp is: pages holding no live record of the search in progress
     * (records of searches before it) go back to the allocator, and so do the pages of JPS's
     * parents over them; every stamp is read before any page goes */
    uint32_t *jps = lazy_parents(ctx), *graph = r->back_lazy ? r->parent : NULL;
    if (jps || graph) {
        size_t ps = pf__page_size();
        size_t np = ((size_t)ctx->count * sizeof(uint32_t) + ps - 1) / ps;
        unsigned char *map = ctx->resident, *live = ctx->resident + np;
        for (uint32_t p = 0; p < r->npage; p++) live[p] = r->page[p] != r->zero && pf__nodes_page_live(r, p);
        if (jps) trim_parents(ctx, jps, map, live, ps);
        if (graph) trim_parents(ctx, graph, map, live, ps);
        pf__nodes_trim(r, live);
        return;
    }
    pf__nodes_trim(r, NULL);
}

void pf__ctx_hand_over(pf_ctx *from, pf_ctx *to)
{
    /* only what is the map's alone moves: the sized components, and JPS's bitmaps for a unit size
     * when no parked sized search reads them (JPS's search state, the accelerator's and Theta*'s
     * are per search; a batch's JPS table is shared already) */
    const pf__ext_kind k = PF__EXT_SIZED;
    if (from == to || from->map != to->map) return;
    /* freed later through `to`'s allocator */
    if (from->alloc.alloc != to->alloc.alloc || from->alloc.free != to->alloc.free || from->alloc.user != to->alloc.user)
        return;
    if (!((from->ext_placed | to->ext_placed) >> PF__EXT_JPS & 1u)) pf__jps_hand_over_sized(from, to);
    if (!from->ext[k] || ((from->ext_placed | to->ext_placed) >> k & 1u)) return;
    pf__ctx_ext_drop(to, k);
    to->ext[k] = from->ext[k];
    from->ext[k] = NULL;
}

const pf_map *pf_ctx_map(const pf_ctx *ctx) { return ctx ? ctx->map : NULL; }

pf_status pf_ctx_use_trace(pf_ctx *ctx, pf_trace *trace)
{
    if (!ctx) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(ctx, PF__TAG_CTX, "pf_ctx");
    if (trace && trace->capacity && !trace->nodes) return PF_INVALID_ARGUMENT;
    ctx->trace = trace;
    return PF_OK;
}

size_t pf_ctx_bytes_per_node(const pf_ctx *ctx)
{
    if (!ctx) return 0;
    PF__CHECK_HANDLE(ctx, PF__TAG_CTX, "pf_ctx");
    return 2 * sizeof(uint32_t) + sizeof(double) + (ctx->parent ? sizeof(uint32_t) : 0);
}

size_t pf_ctx_mem_size(const pf_ctx *ctx)
{
    if (!ctx) return 0;
    PF__CHECK_HANDLE(ctx, PF__TAG_CTX, "pf_ctx");
    return sizeof *ctx + pf__nodes_mem(&ctx->nodes, ctx->block_size) +
           pf__open_bytes(ctx->open.cap) +
           (ctx->ext[PF__EXT_THETA] ? (size_t)ctx->count * sizeof(uint32_t) : 0) + /* Theta*'s parents */
           pf__szcomp_bytes(ctx) +                                      /* sized units' components */
           pf__fsize_bytes(ctx);                                        /* and where filtered ones stand */
}

void pf__ctx_set_gen(pf_ctx *ctx, uint32_t gen) { ctx->gen = gen & PF__GEN_MASK; }

int pf__ctx_reserve_open(pf_ctx *ctx, uint32_t cap, int prefault)
{
    if (cap > UINT32_MAX - 1u) return 0;
    if (cap > ctx->open.cap && (ctx->fixed || !pf__open_resize(&ctx->open, &ctx->alloc, cap))) return 0;
    /* entries past the live ones only: a suspended search may sit in this context */
    if (prefault)
        memset(ctx->open.heap + ctx->open.size, 0, ((size_t)ctx->open.cap - ctx->open.size) * sizeof(pf__hentry));
    return 1;
}

pf_stats pf__ctx_stats(const pf_ctx *ctx) { return ctx->s.st; }

uint64_t pf__ctx_units(const pf_ctx *ctx) { return (uint64_t)ctx->s.st.expanded + ctx->s.work - ctx->s.owed; }

double pf_ctx_cost(const pf_ctx *ctx, uint32_t node)
{
    if (!ctx || ctx->s.active == PF__SEARCH_NONE) return INFINITY;
    uint32_t idx = pf__map_inner(ctx->map, node);
    if (idx == PF_NODE_NONE || !pf__nodes_live(&ctx->nodes, idx)) return INFINITY;
    return pf__nodes_g(&ctx->nodes, idx);
}

int pf_ctx_closed(const pf_ctx *ctx, uint32_t node)
{
    if (!ctx || ctx->s.active == PF__SEARCH_NONE) return 0;
    uint32_t idx = pf__map_inner(ctx->map, node);
    return idx != PF_NODE_NONE && pf__nodes_settled(&ctx->nodes, idx);
}

uint32_t pf_ctx_parent(const pf_ctx *ctx, uint32_t node)
{
    if (!ctx || ctx->s.active == PF__SEARCH_NONE) return PF_NODE_NONE;
    const pf_map *m = ctx->map;
    uint32_t idx = pf__map_inner(m, node);
    if (idx == PF_NODE_NONE || !pf__nodes_live(&ctx->nodes, idx) || idx == ctx->s.start) return PF_NODE_NONE;
    if (m->kind == PF_MAP_GRAPH) return ctx->parent[idx];
    if (ctx->s.d.algo == PF_ALGO_THETA) return pf__map_outer(m, ((const uint32_t *)ctx->ext[PF__EXT_THETA])[idx]);
    uint32_t p = (uint32_t)((int64_t)idx + m->nb_off[(idx / m->pw) & 1u][pf__nodes_dir(&ctx->nodes, idx)]);
    return pf__map_outer(m, p);
}
