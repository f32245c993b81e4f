/* flow.c - flow fields (pf_flow.h): a backward Dijkstra tree from the goal on the search skeleton,
 * read through the context's records. */
#include <math.h>
#include <string.h>
#include "search/ctx_internal.h"
#include "pathfind/pf_flow.h"

pf_status pf_flow_begin(pf_ctx *ctx, uint32_t goal, const pf_flow_desc *desc)
{
    if (!ctx) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(ctx, PF__TAG_CTX, "pf_ctx");
    if (ctx->map->kind != PF_MAP_GRID) return PF_INVALID_ARGUMENT;
    pf_flow_desc d = desc ? *desc : (pf_flow_desc){0};
    pf_search_desc sd = {.algo = PF_ALGO_DIJKSTRA, .unit_size = d.unit_size, .max_cost = d.max_cost, .filter = d.filter};
    return pf__flow_begin(ctx, goal, &sd);
}

pf_status pf_flow_build(pf_ctx *ctx, uint32_t goal, const pf_flow_desc *desc)
{
    pf_status st = pf_flow_begin(ctx, goal, desc);
    if (st == PF_IN_PROGRESS) st = pf_search_step(ctx, 0);
    return st;
}

/* The inner index of `node` when ctx holds a field and the node is settled in it. */
static uint32_t settled(const pf_ctx *ctx, uint32_t node)
{
    if (!ctx || ctx->s.active == PF__SEARCH_NONE || !ctx->s.back) return PF_NODE_NONE;
    if (ctx->s.version != ctx->map->version) return PF_NODE_NONE; /* its cells are gone */
    uint32_t i = pf__map_inner(ctx->map, node);
    if (i == PF_NODE_NONE) return PF_NODE_NONE;
    return pf__nodes_settled(&ctx->nodes, i) ? i : PF_NODE_NONE;
}

uint8_t pf_flow_dir(const pf_ctx *ctx, uint32_t node)
{
    PF__CHECK_HANDLE(ctx, PF__TAG_CTX, "pf_ctx"); /* pf_map.h: every call taking a context */
    uint32_t i = settled(ctx, node);
    if (i == PF_NODE_NONE) return PF_FLOW_NONE;
    if (i == ctx->s.start) return PF_FLOW_GOAL;
    return (uint8_t)pf__nodes_dir(&ctx->nodes, i);
}

uint32_t pf_flow_next(const pf_ctx *ctx, uint32_t node)
{
    PF__CHECK_HANDLE(ctx, PF__TAG_CTX, "pf_ctx"); /* pf_map.h: every call taking a context */
    uint32_t i = settled(ctx, node);
    if (i == PF_NODE_NONE || i == ctx->s.start) return PF_NODE_NONE;
    const pf_map *m = ctx->map;
    uint32_t d = pf__nodes_dir(&ctx->nodes, i);
    return pf__map_outer(m, (uint32_t)((int64_t)i + m->nb_off[(i / m->pw) & 1u][d]));
}

double pf_flow_cost(const pf_ctx *ctx, uint32_t node)
{
    PF__CHECK_HANDLE(ctx, PF__TAG_CTX, "pf_ctx"); /* pf_map.h: every call taking a context */
    uint32_t i = settled(ctx, node);
    return i == PF_NODE_NONE ? INFINITY : pf__nodes_g(&ctx->nodes, i);
}

pf_status pf_flow_export(const pf_ctx *ctx, uint8_t *dirs, size_t len)
{
    if (!ctx) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(ctx, PF__TAG_CTX, "pf_ctx");
    if (!dirs || ctx->s.active == PF__SEARCH_NONE || !ctx->s.back) return PF_INVALID_ARGUMENT;
    const pf_map *m = ctx->map;
    if (ctx->s.version != m->version) return PF_MAP_CHANGED;
    const uint32_t w = m->width, h = m->height, pw = m->pw;
    if (len < (size_t)w * h) return PF_BUFFER_TOO_SMALL;
    const pf__nodes *r = &ctx->nodes;
    const uint32_t root = ctx->s.start;
    /* row by row over the padded records: one pass, no per-cell address arithmetic */
    for (uint32_t y = 0; y < h; y++) {
        const uint32_t row = (y + 1u) * pw + 1u;
        uint8_t *out = dirs + (size_t)y * w;
        for (uint32_t x = 0; x < w; x++)
            out[x] = pf__nodes_settled(r, row + x) ? (uint8_t)pf__nodes_dir(r, row + x) : PF_FLOW_NONE;
    }
    if (pf__nodes_settled(r, root)) dirs[pf__map_outer(m, root)] = PF_FLOW_GOAL; /* as pf_flow_dir */
    return PF_OK;
}
