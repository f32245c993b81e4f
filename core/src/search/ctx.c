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

/* Where a context's parts go: one block of records (arrays 64-byte aligned), the open list, and
 * for a static context its own struct first and the JPS state last. */
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
    if (!x) return ctx->fixed ? PF_CAPACITY_EXCEEDED : PF_OUT_OF_MEMORY;
    if (EXT[kind]->reserve && !EXT[kind]->reserve(ctx, x)) return ctx->fixed ? PF_CAPACITY_EXCEEDED : PF_OUT_OF_MEMORY;
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

static ctx_layout layout(const pf_map *map, uint32_t hcap)
{
    ctx_layout l;
    l.block = pf__nodes_bytes(map->count, map->kind == PF_MAP_GRAPH);
    l.hcap = hcap;
    l.heap = pf__align64(pf__open_bytes(hcap));
    return l;
}

/* Static contexts: the open list never grows, so by default it holds every node (no search puts
 * a node in it twice). */
static uint32_t static_hcap(const pf_map *map, const pf_ctx_desc *d)
{
    return d && d->heap_capacity ? d->heap_capacity : map->count;
}

/* Fills the header of a context whose records block `b` and open list `hb` are placed already. */
static void ctx_init(pf_ctx *ctx, const pf_map *map, pf_allocator a, char *b, const ctx_layout *l,
                     pf__hentry *hb, pf_prefault prefault)
{
    ctx->tag = PF__TAG_CTX;
    ctx->map = map;
    ctx->alloc = a;
    ctx->block = b;
    ctx->block_size = l->block;
    /* The records need only their stamps zeroed (pf__nodes_place), and lazy pages read as zeros
     * already. By default the whole block is still written once here so its pages are faulted in
     * at creation, not inside a frame: on a 2000x2000 map a 50-cell query otherwise takes ~100 page
     * faults, 3x its search time. PF_PREFAULT_NONE on lazy pages maps nothing: the context then
     * holds what its searches touch (a batch's spares). */
    if (prefault != PF_PREFAULT_NONE) memset(b, 0, l->block);
    if (prefault != PF_PREFAULT_NONE || ctx->lazy) pf__nodes_place_zeroed(&ctx->nodes, b, map->count, map->kind == PF_MAP_GRAPH);
    else pf__nodes_place(&ctx->nodes, b, map->count, map->kind == PF_MAP_GRAPH);
    if (prefault == PF_PREFAULT_ALL) memset(hb, 0, pf__open_bytes(l->hcap));
    ctx->open.heap = hb + PF__HEAP_PAD;
    ctx->open.cap = l->hcap;
    ctx->open.size = 0;
    ctx->open.pos = ctx->hpos;
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
}

static pf_status check_map(const pf_map *map, const pf_ctx_desc *d)
{
    if (!map) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(map, PF__TAG_MAP, "pf_map");
    if (map->count == 0) return PF_INVALID_ARGUMENT;
    if (d && (unsigned)d->prefault > PF_PREFAULT_NONE) return PF_INVALID_ARGUMENT;
    if (d && d->jps_table && (d->jps_table->map != map || d->jps_table->fingerprint != map->fingerprint))
        return PF_WRONG_MAP;
    return PF_OK;
}

/* Cells per liveness chunk of pf__ctx_trim: a page of g, the widest array, so that no page of any
 * array covers less. */
static size_t trim_chunk(size_t ps) { return ps / sizeof(double) ? ps / sizeof(double) : 1; }

pf_status pf_ctx_create(const pf_map *map, const pf_ctx_desc *desc, pf_ctx **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    pf_status st = check_map(map, desc);
    if (st != PF_OK) return st;
    pf_ctx_desc d = desc ? *desc : (pf_ctx_desc){0};
    pf_allocator a = pf__alloc_resolve(&d.allocator);

    /* The open list of a long grid query holds a thin frontier: start at 1/64 of the map (at least
     * 1024 entries) and double on demand. */
    size_t n = map->count;
    ctx_layout l = layout(map, d.heap_capacity ? d.heap_capacity : (uint32_t)(n / 64 > 1024 ? n / 64 : 1024));
    pf_ctx *ctx = pf__calloc(&a, sizeof *ctx, 64);
    /* Huge pages only where the whole block is written now anyway: on lazy pages a touch would
     * map 2 MiB, and the context would no longer cost what it touches. */
    int lazy = 0;
    int huge = d.prefault != PF_PREFAULT_NONE;
    char *b = ctx ? pf__alloc_lazy(&a, l.block, huge, &lazy) : NULL;
    pf__hentry *hb = b ? pf__alloc(&a, pf__open_bytes(l.hcap), 64) : NULL;
    if (!hb) {
        pf__free_lazy(&a, b, l.block, lazy);
        pf__free(&a, ctx, sizeof *ctx);
        return PF_OUT_OF_MEMORY;
    }
    ctx->lazy = lazy ? 1 + huge : 0;
    if (lazy) {
        /* pf__ctx_trim's page map, made now: a batch's frames allocate nothing after its reserve */
        size_t ps = pf__page_size();
        ctx->resident_size = (l.block + ps - 1) / ps + map->count / trim_chunk(ps) + 1;
        ctx->resident = pf__alloc(&a, ctx->resident_size, 64);
        if (!ctx->resident) {
            pf__free_lazy(&a, b, l.block, lazy);
            pf__free(&a, hb, pf__open_bytes(l.hcap));
            pf__free(&a, ctx, sizeof *ctx);
            return PF_OUT_OF_MEMORY;
        }
    }
    ctx_init(ctx, map, a, b, &l, hb, d.prefault);
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
    ctx_layout l = layout(map, static_hcap(map, d));
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
    ctx_layout l = layout(map, static_hcap(map, desc));
    pf_ctx *ctx = (pf_ctx *)(void *)p;
    memset(ctx, 0, sizeof *ctx);
    p += pf__align64(sizeof *ctx);
    char *b = p;
    pf__hentry *hb = (pf__hentry *)(void *)(p + l.block);
    ctx_init(ctx, map, pf__alloc_none(), b, &l, hb, PF_PREFAULT_RECORDS);
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
    pf__free_lazy(&a, ctx->block, ctx->block_size, ctx->lazy);
    pf__free(&a, ctx->resident, ctx->resident_size);
    pf__free(&a, ctx, sizeof *ctx);
}

/* Before the first pages go back: from then on a touch maps 4 KiB, not 2 MiB. */
static void small_pages(pf_ctx *ctx)
{
    if (ctx->lazy != 2) return;
    pf__lazy_small_pages(ctx->block, ctx->block_size);
    ctx->lazy = 1;
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
    if (!ctx->lazy) return;
    uint32_t *par = lazy_parents(ctx);
    if (par) pf__release_lazy(par, (size_t)ctx->count * sizeof(uint32_t));
    small_pages(ctx);
    /* the stamps read as zeros again: stale for every generation (the counter is never 0 once a
     * search has begun, and 0 is "never written" before that) */
    pf__release_lazy(ctx->block, ctx->block_size);
    ctx->s.active = PF__SEARCH_NONE;
    ctx->s.status = PF_INVALID_ARGUMENT;
    ctx->s.found = PF_NODE_NONE;
}

/* live[c]: whether chunk c holds a live record. Stamps are read only on mapped pages (`map`, one
 * byte per page of the block, bit 0): an unmapped one reads as zeros, and reading it would map it. */
static void chunks_live(const pf_ctx *ctx, const unsigned char *map, size_t ps, unsigned char *live)
{
    size_t cc = trim_chunk(ps), soff = (size_t)((const char *)ctx->stamp - (const char *)ctx->block);
    for (size_t c = 0; c * cc < ctx->count; c++) {
        uint32_t lo = (uint32_t)(c * cc), hi = (uint32_t)((c + 1) * cc < ctx->count ? (c + 1) * cc : ctx->count);
        unsigned char v = 0;
        for (uint32_t i = lo; i < hi && !v;) {
            size_t pg = (soff + (size_t)i * sizeof(uint32_t)) / ps;
            uint32_t end = (uint32_t)(((pg + 1) * ps - soff) / sizeof(uint32_t));
            if (end > hi) end = hi;
            if (map[pg] & 1u)
                for (uint32_t k = i; k < end; k++) v |= (ctx->stamp[k] & PF__GEN_MASK) == ctx->gen;
            i = end;
        }
        live[c] = v;
    }
}

/* Whether the page at byte `off` of the block holds a live record of any array. */
static int page_live(const pf_ctx *ctx, const unsigned char *live, size_t ps, size_t off)
{
    const char *base = ctx->block;
    const struct {
        const void *a;
        size_t      e;
    } arr[4] = {{ctx->g, sizeof(double)}, {ctx->stamp, 4}, {ctx->hpos, 4}, {ctx->parent, 4}};
    size_t cc = trim_chunk(ps);
    for (int k = 0; k < 4; k++) {
        if (!arr[k].a) continue;
        size_t s0 = (size_t)((const char *)arr[k].a - base), s1 = s0 + (size_t)ctx->count * arr[k].e;
        size_t lo = off > s0 ? off : s0, hi = off + ps < s1 ? off + ps : s1;
        if (lo >= hi) continue;
        size_t c0 = (lo - s0) / arr[k].e / cc, c1 = ((hi - s0 + arr[k].e - 1) / arr[k].e - 1) / cc;
        for (size_t c = c0; c <= c1; c++)
            if (live[c]) return 1;
    }
    return 0;
}

/* Gives back the pages of JPS's lazy parents that hold no live record's parent (`live` as
 * chunks_live made it; `map` has room for a byte per page of them, fewer than the block's). */
static void trim_parents(const pf_ctx *ctx, unsigned char *map, const unsigned char *live, size_t ps)
{
    uint32_t *par = lazy_parents(ctx);
    size_t bytes = (size_t)ctx->count * sizeof(uint32_t), np = (bytes + ps - 1) / ps;
    if (!par || !pf__resident_pages(par, bytes, map)) return;
    size_t cc = trim_chunk(ps), per = ps / sizeof(uint32_t), run = 0, n = 0;
    for (size_t pg = 0; pg <= np; pg++) {
        if (pg < np && (map[pg] & 1u)) {
            size_t c1 = ((pg + 1) * per < ctx->count ? (pg + 1) * per : ctx->count) - 1;
            int used = 0;
            for (size_t c = pg * per / cc; c <= c1 / cc && !used; c++) used = live[c];
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
    if (!ctx->lazy) return;
    size_t ps = pf__page_size();
    size_t np = (ctx->block_size + ps - 1) / ps;
    unsigned char *map = ctx->resident, *live = ctx->resident + np;
    if (!pf__resident_pages(ctx->block, ctx->block_size, map)) return;
    /* a record is live iff its stamp is: pages holding no live record of the search in progress
     * (records of searches before it, or pages of a pre-faulted block) go back in runs; every
     * stamp is read before any page goes */
    chunks_live(ctx, map, ps, live);
    small_pages(ctx);
    size_t run = 0, n = 0;
    for (size_t pg = 0; pg <= np; pg++) {
        if (pg < np && (map[pg] & 1u) && !page_live(ctx, live, ps, pg * ps)) {
            if (!n) run = pg;
            n++;
            continue;
        }
        if (n) {
            size_t end = (run + n) * ps < ctx->block_size ? (run + n) * ps : ctx->block_size;
            pf__release_lazy((char *)ctx->block + run * ps, end - run * ps);
        }
        n = 0;
    }
    trim_parents(ctx, map, live, ps);
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
    return 2 * sizeof(uint32_t) + sizeof(double) + (ctx->parent ? sizeof(uint32_t) : 0);
}

size_t pf_ctx_mem_size(const pf_ctx *ctx)
{
    if (!ctx) return 0;
    return sizeof *ctx + ctx->block_size + pf__open_bytes(ctx->open.cap) +
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
    return ctx->g[idx];
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
