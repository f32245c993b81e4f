/* ctx.c - search context lifecycle: node records sized once, reset by generation stamp. */
#include <math.h>
#include <string.h>
#include "search/ctx_internal.h"

static size_t align64(size_t n) { return (n + 63u) & ~(size_t)63u; }

pf_status pf_ctx_create(const pf_map *map, const pf_ctx_desc *desc, pf_ctx **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    if (!map) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(map, PF__TAG_MAP, "pf_map");
    if (map->count == 0) return PF_INVALID_ARGUMENT;
    pf_ctx_desc d = desc ? *desc : (pf_ctx_desc){0};
    pf_allocator a = pf__alloc_resolve(&d.allocator);

    pf_ctx *ctx = pf__calloc(&a, sizeof *ctx, 64);
    if (!ctx) return PF_OUT_OF_MEMORY;
    ctx->tag = PF__TAG_CTX;
    ctx->map = map;
    ctx->alloc = a;
    ctx->count = map->count;

    size_t n = map->count;
    size_t sz_stamp = align64(n * sizeof(uint32_t));
    size_t sz_g = align64(n * sizeof(double));
    size_t sz_hpos = align64(n * sizeof(uint32_t));
    size_t sz_parent = map->kind == PF_MAP_GRAPH ? align64(n * sizeof(uint32_t)) : 0;
    ctx->block_size = sz_stamp + sz_g + sz_hpos + sz_parent;
    /* Only the stamps must start at zero ("never written"); every other record is written before
     * it is read, which is what makes the generation stamp a complete reset. The whole block is
     * still written once here so its pages are faulted in at creation, not inside a frame: on a
     * 2000x2000 map a 50-cell query otherwise takes ~100 page faults, 3x its search time. */
    char *b = pf__alloc(&a, ctx->block_size, 64);
    if (!b) {
        pf__free(&a, ctx, sizeof *ctx);
        return PF_OUT_OF_MEMORY;
    }
    ctx->block = b;
    /* every array starts on a 64-byte boundary (sizes are rounded up by align64) */
    ctx->g = (double *)(void *)b;
    ctx->stamp = (uint32_t *)(void *)(b + sz_g);
    ctx->hpos = (uint32_t *)(void *)(b + sz_g + sz_stamp);
    ctx->parent = sz_parent ? (uint32_t *)(void *)(b + sz_g + sz_stamp + sz_hpos) : NULL;
    memset(b, 0, ctx->block_size);
    ctx->gen = 0;

    /* The open list of a long grid query holds a thin frontier: start at 1/64 of the map (at least
     * 1024 entries) and double on demand. */
    uint32_t cap = d.heap_capacity ? d.heap_capacity : (uint32_t)(n / 64 > 1024 ? n / 64 : 1024);
    pf__hentry *hb = pf__alloc(&a, ((size_t)cap + PF__HEAP_PAD) * sizeof(pf__hentry), 64);
    if (!hb) {
        pf__free(&a, b, ctx->block_size);
        pf__free(&a, ctx, sizeof *ctx);
        return PF_OUT_OF_MEMORY;
    }
    ctx->heap = hb + PF__HEAP_PAD;
    ctx->hcap = cap;
    ctx->s.status = PF_INVALID_ARGUMENT;
    ctx->s.found = PF_NODE_NONE;
#ifdef PF__DEBUG_HANDLES
    /* maps are immutable for searches; this debug-only counter is the one field a context changes */
    atomic_fetch_add(&((pf_map *)map)->users, 1u);
#endif
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
    pf_allocator a = ctx->alloc;
    if (ctx->ext_free) ctx->ext_free(ctx);
    if (ctx->accel_free) ctx->accel_free(ctx);
    pf__free(&a, ctx->heap - PF__HEAP_PAD, ((size_t)ctx->hcap + PF__HEAP_PAD) * sizeof(pf__hentry));
    pf__free(&a, ctx->block, ctx->block_size);
    pf__free(&a, ctx, sizeof *ctx);
}

const pf_map *pf_ctx_map(const pf_ctx *ctx) { return ctx ? ctx->map : NULL; }

size_t pf_ctx_bytes_per_node(const pf_ctx *ctx)
{
    if (!ctx) return 0;
    return 2 * sizeof(uint32_t) + sizeof(double) + (ctx->parent ? sizeof(uint32_t) : 0);
}

size_t pf_ctx_mem_size(const pf_ctx *ctx)
{
    if (!ctx) return 0;
    return sizeof *ctx + ctx->block_size + ((size_t)ctx->hcap + PF__HEAP_PAD) * sizeof(pf__hentry);
}

void pf__ctx_next_gen(pf_ctx *ctx)
{
    if (++ctx->gen > PF__GEN_MASK) {
        /* wrapped after 2^28 - 1 searches on this context */
        memset(ctx->stamp, 0, (size_t)ctx->count * sizeof ctx->stamp[0]);
        ctx->gen = 1; /* 0 is reserved for "never written" */
    }
}

void pf__ctx_set_gen(pf_ctx *ctx, uint32_t gen) { ctx->gen = gen & PF__GEN_MASK; }

int pf__heap_grow(pf_ctx *ctx)
{
    uint64_t ncap = (uint64_t)ctx->hcap * 2u;
    if (ncap > UINT32_MAX - 1u) ncap = UINT32_MAX - 1u;
    if (ncap <= ctx->hcap) return 0;
    pf__hentry *nh = pf__alloc(&ctx->alloc, ((size_t)ncap + PF__HEAP_PAD) * sizeof(pf__hentry), 64);
    if (!nh) return 0;
    memcpy(nh + PF__HEAP_PAD, ctx->heap, (size_t)ctx->hsize * sizeof(pf__hentry));
    pf__free(&ctx->alloc, ctx->heap - PF__HEAP_PAD, ((size_t)ctx->hcap + PF__HEAP_PAD) * sizeof(pf__hentry));
    ctx->heap = nh + PF__HEAP_PAD;
    ctx->hcap = (uint32_t)ncap;
    return 1;
}

static int live(const pf_ctx *ctx, uint32_t idx) { return (ctx->stamp[idx] & PF__GEN_MASK) == ctx->gen; }

double pf_ctx_cost(const pf_ctx *ctx, uint32_t node)
{
    if (!ctx || !ctx->s.active) return INFINITY;
    uint32_t idx = pf__map_inner(ctx->map, node);
    if (idx == PF_NODE_NONE || !live(ctx, idx)) return INFINITY;
    return ctx->g[idx];
}

int pf_ctx_closed(const pf_ctx *ctx, uint32_t node)
{
    if (!ctx || !ctx->s.active) return 0;
    uint32_t idx = pf__map_inner(ctx->map, node);
    return idx != PF_NODE_NONE && live(ctx, idx) && (ctx->stamp[idx] & PF__CLOSED_BIT);
}

uint32_t pf_ctx_parent(const pf_ctx *ctx, uint32_t node)
{
    if (!ctx || !ctx->s.active) return PF_NODE_NONE;
    const pf_map *m = ctx->map;
    uint32_t idx = pf__map_inner(m, node);
    if (idx == PF_NODE_NONE || !live(ctx, idx) || idx == ctx->s.start) return PF_NODE_NONE;
    if (m->kind == PF_MAP_GRAPH) return ctx->parent[idx];
    uint32_t back = ctx->stamp[idx] >> PF__DIR_SHIFT;
    uint32_t p = (uint32_t)((int64_t)idx + m->nb_off[(idx / m->pw) & 1u][back]);
    return pf__map_outer(m, p);
}
