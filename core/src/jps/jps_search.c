/* jps_search.c - jump point search (Harabor & Grastien 2011, 2014) and JPS+ on uniform grids.
 *
 * The best-first loop is A*'s, over jump points only: a node's successors are the jump points
 * found by scanning from it in the directions its arrival direction leaves unpruned. Straight
 * scans read 64 cells of the wall bitmaps per step (the bit-operation jumps of ICAPS 2014);
 * diagonal jumps step one cell at a time and scan straight from each. JPS+ reads the jump from a
 * precomputed distance table instead, stopping early where the goal's row or column is crossed.
 *
 * Records: g, stamp (closed bit; top bits = direction back along the last jump) and open-list
 * slot are the context's usual arrays; the jump-point parent lives in ext->parent. When the goal is reached the
 * path's cells are written out once, as public node ids from the goal back, into ext->path:
 * pf_search_path copies them without touching the grid again (paths on mazes run to 50,000 cells,
 * and a walk by cell index costs a division and a scattered load per cell).
 */
#include <math.h>
#include <string.h>
#include "search/skeleton_internal.h"
#include "search/metric_internal.h"
#include "map/grid_moves_internal.h"
#include "jps/jps_internal.h"
#include "grow_internal.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---- per-context state ---------------------------------------------------------------------- */

static size_t state_bytes(const pf_ctx *c, const pf__jps_ext *x)
{
    return (size_t)c->count * sizeof(uint32_t) + (size_t)x->path_cap * sizeof(uint32_t);
}

/* This holder's share of the sized bitmaps: a batch's memory report sums its contexts, and the
 * bitmaps are counted once in all (up to rounding) however many hold them. */
static size_t sz_share(const pf__jps_ext *x)
{
    if (!x->sz) return 0;
    uint32_t refs = atomic_load(&x->sz->refs);
    return x->sz->bytes / (refs ? refs : 1u);
}

/* Lets go of the sized bitmaps (a pair of rows and columns of the padded grid per class): the
 * last holder frees them. */
static void sz_release(pf_ctx *c, pf__jps_ext *x)
{
    pf__jps_sized *z = x->sz;
    x->sz = NULL;
    if (!z || atomic_fetch_sub(&z->refs, 1u) != 1u) return;
    const pf_map *m = c->map;
    size_t rb = (size_t)m->ph * x->own.rw * sizeof(uint64_t), cb = (size_t)m->pw * x->own.cw * sizeof(uint64_t);
    for (int k = 0; k < 256; k++)
        if (z->rows[k]) {
            pf__free(&c->alloc, z->rows[k], rb);
            pf__free(&c->alloc, z->cols[k], cb);
        }
    pf__free(&c->alloc, z, sizeof *z);
}

/* Frees the bitmaps of filter class set i. */
static void fs_release(pf_ctx *c, pf__jps_ext *x, uint32_t i)
{
    const pf_map *m = c->map;
    size_t rb = (size_t)m->ph * x->own.rw * sizeof(uint64_t), cb = (size_t)m->pw * x->own.cw * sizeof(uint64_t);
    if (!x->fs[i].rows) return;
    pf__free(&c->alloc, x->fs[i].rows, rb);
    pf__free(&c->alloc, x->fs[i].cols, cb);
    x->fs[i].rows = x->fs[i].cols = NULL;
    x->fs_bytes -= rb + cb;
}

static void ext_destroy(pf_ctx *c, void *p)
{
    pf__jps_ext *x = p;
    for (uint32_t i = 0; i < PF__JPS_SETS; i++) fs_release(c, x, i);
    sz_release(c, x);
    pf__jps_table_release(&x->own);
    pf__free_lazy(&c->alloc, x->parent, (size_t)c->count * sizeof(uint32_t), x->parent_lazy);
    pf__free(&c->alloc, x->path, (size_t)x->path_cap * sizeof(uint32_t));
    pf__free(&c->alloc, x, sizeof *x);
}

/* The map changed: the data this context built follows (an attached table follows on its own). */
static int ext_edit(pf_ctx *c, void *p, pf__edit_view *e)
{
    pf__jps_ext *x = p;
    /* a filter's bitmaps: the edited cells' bits (one that missed an edit is built again) */
    for (uint32_t i = 0; i < PF__JPS_SETS; i++) {
        if (!x->fs[i].rows) continue;
        if (x->fs[i].version + 1u != e->version) {
            fs_release(c, x, i);
            continue;
        }
        pf__jps_bitmaps_edit(c->map, x->fs[i].set, x->fs[i].rows, x->fs[i].cols, e);
        x->fs[i].version = e->version;
    }
    /* a sized unit's: likewise, where the edit reaches its blocks. Built again at the next sized
     * query instead, they cost that query 30 ms on rooms-2000 (both bitmaps' pages fresh): in an
     * RTS replay with a building every 15 frames, the frame p99 under JPS */
    pf__jps_sized *z = x->sz;
    if (z && z->version != e->version) { /* else another holder brought them to this version */
        if (z->version + 1u != e->version) {
            sz_release(c, x);
        } else {
            for (uint32_t k = 1; k < 256; k++)
                if (z->rows[k]) pf__jps_bitmaps_edit_sized(c->map, (uint8_t)k, z->size, z->rows[k], z->cols[k], e);
            z->version = e->version;
        }
    }
    return pf__jps_table_edit(&x->own, e);
}

static void *ext_create(pf_ctx *c)
{
    pf__jps_ext *x = pf__calloc(&c->alloc, sizeof *x, 64);
    if (x) {
        pf__jps_table_init(&x->own, c->map, &c->alloc);
        /* what an edit builds again for this context runs where its searches' builds do: on the
         * engine's threads when it gave a hook (pf_ctx_desc.parallel) */
        x->own.hook = c->parallel;
    }
    return x;
}

/* The jump-point parents, made by the first JPS search otherwise. */
static int ext_reserve(pf_ctx *c, void *p)
{
    pf__jps_ext *x = p;
    if (!x->parent) {
        /* a lazy context's parents are lazy too, on 4 KiB pages: a suspended JPS search keeps the
         * pages of its jump points (pf__ctx_trim), not 16 MB on 2000x2000 */
        if (c->lazy) x->parent = pf__alloc_lazy(&c->alloc, (size_t)c->count * sizeof(uint32_t), 0, &x->parent_lazy);
        else x->parent = pf__alloc(&c->alloc, (size_t)c->count * sizeof(uint32_t), 64);
        if (!x->parent) return 0;
        if (!x->parent_lazy) pf__jps_hugepages(x->parent, (size_t)c->count * sizeof(uint32_t));
        /* the context's own records (g, stamps, slots) are the other hot arrays; lazy records have
         * their advice from creation (huge only where pre-faulted: a lazy spare must map 4 KiB) */
        if (!c->lazy) pf__jps_hugepages(c->block, c->block_size);
    }
    /* the path buffer, for a path twice the map's half-perimeter: crossings of open and room maps
     * (a maze's longer ones still grow it once) */
    const uint64_t len = 2u * ((uint64_t)c->map->pw + c->map->ph);
    uint64_t want = len > 1024u ? len : 1024u;
    /* in caller memory the buffer is the cell count carved (pf__jps_static_init), which cannot
     * grow: asking more of it failed every JPS query on maps under 1,024 padded cells (a review) */
    if (c->fixed && want > x->path_cap) want = x->path_cap;
    return pf__grow(&c->alloc, &x->path, &x->path_cap, want, sizeof *x->path, 1024u, 0);
}

const pf__ext_class pf__ext_jps = {ext_create, ext_destroy, ext_reserve, ext_edit};

static pf__jps_ext *ext_get(pf_ctx *c) { return pf__ctx_ext(c, PF__EXT_JPS); }

size_t pf__jps_static_size(const pf_map *m)
{
    return pf__align64(sizeof(pf__jps_ext)) + 2u * pf__align64((size_t)m->count * sizeof(uint32_t));
}

void pf__jps_static_init(pf_ctx *c, void *mem, const pf_jps_table *table)
{
    char *p = mem;
    size_t words = pf__align64((size_t)c->count * sizeof(uint32_t));
    pf__jps_ext *x = (pf__jps_ext *)(void *)p;
    memset(x, 0, sizeof *x);
    pf__jps_table_init(&x->own, c->map, &c->alloc); /* stays empty: static_ready below */
    x->shared = table;
    x->parent = (uint32_t *)(void *)(p + pf__align64(sizeof *x));
    x->path = (uint32_t *)(void *)(p + pf__align64(sizeof *x) + words);
    x->path_cap = c->count; /* an optimal path visits a cell once; a weighted one may not fit */
    pf__ctx_ext_place(c, PF__EXT_JPS, x);
}

/* A static context runs JPS only on data an attached table has: building it would allocate. */
static int static_ready(const pf_ctx *c, uint8_t k)
{
    const pf__jps_ext *x = pf__ctx_ext_get(c, PF__EXT_JPS);
    const pf_jps_table *t = x ? x->shared : NULL;
    if (!t) return 0;
    return c->s.d.algo == PF_ALGO_JPS_PLUS ? t->dist != NULL : t->rows[k] != NULL;
}

pf_status pf_ctx_use_jps_table(pf_ctx *ctx, const pf_jps_table *table)
{
    if (!ctx) return PF_INVALID_ARGUMENT;
    if (table && (table->map != ctx->map || table->fingerprint != ctx->map->fingerprint ||
                  table->version != ctx->map->version))
        return PF_WRONG_MAP;
    /* a static context has room for the JPS state only when it was created with a table */
    if (ctx->fixed && !pf__ctx_ext_get(ctx, PF__EXT_JPS)) return table ? PF_CAPACITY_EXCEEDED : PF_OK;
    if (!table && !pf__ctx_ext_get(ctx, PF__EXT_JPS)) return PF_OK;
    pf__jps_ext *x = ext_get(ctx);
    if (!x) return PF_OUT_OF_MEMORY;
    if (table) pf__jps_table_release(&x->own); /* the shared copy replaces ours */
    x->shared = table;
    ctx->s.active = PF__SEARCH_NONE; /* a search in flight may point into the released data */
    return PF_OK;
}

size_t pf_ctx_jps_mem_size(const pf_ctx *ctx)
{
    if (!ctx || !pf__ctx_ext_get(ctx, PF__EXT_JPS)) return 0;
    const pf__jps_ext *x = pf__ctx_ext_get(ctx, PF__EXT_JPS);
    return sizeof *x + x->own.bytes + sz_share(x) + x->fs_bytes + (x->parent ? state_bytes(ctx, x) : 0);
}

/* ---- heuristic -------------------------------------------------------------------------------- */

/* The heuristic of padded cell (tx, ty): the metric asked for, to the goal (search.c uses the same
 * one, on unpadded coordinates: the offset is the same). */
PF__INLINE double jps_h(const pf__jps_ext *x, uint32_t tx, uint32_t ty)
{
    return pf__grid_metric((pf_heur)x->hkind, (int32_t)tx - (int32_t)x->gx, (int32_t)ty - (int32_t)x->gy);
}

/* ---- movement filters ------------------------------------------------------------------------ */

/* The bitmaps of the cells of any class in `set`, for the map's version: kept from an earlier
 * query of the same set (edits keep them current, ext_edit), else built into a free slot or the
 * least recently used one. */
static pf_status fs_bitmaps(pf_ctx *c, pf__jps_ext *x, const uint8_t set[32], const pf__par *par)
{
    const pf_map *m = c->map;
    uint32_t slot = PF__JPS_SETS;
    x->fs_tick++;
    for (uint32_t i = 0; i < PF__JPS_SETS; i++)
        if (x->fs[i].rows && !memcmp(x->fs[i].set, set, sizeof x->fs[i].set)) {
            if (x->fs[i].version == m->version) {
                x->fs[i].used = x->fs_tick;
                x->rows = x->fs[i].rows;
                x->cols = x->fs[i].cols;
                return PF_OK;
            }
            slot = i; /* stale (an edit it missed): built again in place */
        }
    for (uint32_t i = 0; i < PF__JPS_SETS && slot == PF__JPS_SETS; i++)
        if (!x->fs[i].rows) slot = i;
    if (slot == PF__JPS_SETS) {
        slot = 0;
        for (uint32_t i = 1; i < PF__JPS_SETS; i++)
            if (x->fs[i].used < x->fs[slot].used) slot = i;
    }
    fs_release(c, x, slot);
    size_t bytes;
    if (pf__jps_bitmaps_set(m, &c->alloc, set, par, &x->fs[slot].rows, &x->fs[slot].cols, &bytes) != PF_OK)
        return PF_OUT_OF_MEMORY;
    x->fs_bytes += bytes;
    memcpy(x->fs[slot].set, set, sizeof x->fs[slot].set);
    x->fs[slot].version = m->version;
    x->fs[slot].used = x->fs_tick;
    x->rows = x->fs[slot].rows;
    x->cols = x->fs[slot].cols;
    return PF_OK;
}

/* ---- begin ---------------------------------------------------------------------------------- */

/* The bitmaps a unit of side `size` reads in class k, current: kept from an earlier query of that
 * size (edits keep them, ext_edit), else built. */
static pf_status sz_bitmaps(pf_ctx *c, pf__jps_ext *x, uint8_t size, uint8_t k, const pf__par *par)
{
    const pf_map *m = c->map;
    pf__jps_sized *z = x->sz;
    const int current = z && z->size == size && z->version == m->version;
    if (current && z->rows[k]) return PF_OK; /* read only: shared or not */
    /* to be changed: only alone (pf__jps_sized) */
    if (z && (!current || atomic_load(&z->refs) != 1u)) sz_release(c, x);
    if (!x->sz) {
        if (!(z = pf__calloc(&c->alloc, sizeof *z, 64))) return PF_OUT_OF_MEMORY;
        atomic_init(&z->refs, 1u);
        z->size = size;
        z->version = m->version;
        x->sz = z;
    }
    z = x->sz;
    size_t bytes;
    if (pf__jps_bitmaps(m, &c->alloc, k, size, par, &z->rows[k], &z->cols[k], &bytes) != PF_OK)
        return PF_OUT_OF_MEMORY;
    z->bytes += bytes;
    return PF_OK;
}

pf_status pf__jps_reserve_size(pf_ctx *c, uint8_t size)
{
    const pf_map *m = c->map;
    if (size < 2 || c->fixed || !pf_jps_supported(m)) return PF_OK;
    pf__jps_ext *x = ext_get(c);
    if (!x) return PF_OUT_OF_MEMORY;
    uint8_t held[256] = {0};
    for (size_t i = 0, n = (size_t)m->pw * m->ph; i < n; i++) held[m->cls[i]] = 1;
    const pf__par par = pf__par_build(&c->parallel, 0, (size_t)m->pw * m->ph);
    for (int k = 1; k < 256; k++)
        if (held[k] && sz_bitmaps(c, x, size, (uint8_t)k, &par) != PF_OK) return PF_OUT_OF_MEMORY;
    return PF_OK;
}

void pf__jps_hand_over_sized(pf_ctx *from, pf_ctx *to)
{
    pf__jps_ext *a = pf__ctx_ext_get(from, PF__EXT_JPS), *b = pf__ctx_ext_get(to, PF__EXT_JPS);
    if (!a || !b || !a->sz || b->sz || a->sz->version != from->map->version) return;
    b->sz = a->sz;
    /* a sized search parked in `from` reads them through its jump steps (x->rows): shared */
    if (from->s.active != PF__SEARCH_NONE && from->s.d.unit_size > 1) atomic_fetch_add(&a->sz->refs, 1u);
    else a->sz = NULL;
}

pf_status pf__jps_begin(pf_ctx *c)
{
    const pf_map *m = c->map;
    pf__search *s = &c->s;
    if (!pf__jps_map_ok(m)) return PF_UNSUPPORTED;
    pf_heur hk = s->d.heuristic;
    if (hk != PF_HEUR_OCTILE && hk != PF_HEUR_ZERO && hk != PF_HEUR_MANHATTAN && hk != PF_HEUR_CHEBYSHEV &&
        hk != PF_HEUR_EUCLIDEAN)
        return PF_UNSUPPORTED;
    /* A movement filter whose classes all cost one multiplier M is a uniform grid of the cells of
     * those classes at M times the costs: JPS on their bitmaps is exact. Otherwise, and for sized
     * units and partial queries with a filter (the search must find the unit's reachable region
     * itself), A* answers (PF_DETAIL_FALLBACK). */
    const pf_move_filter *f = s->d.filter;
    double mul = 1.0;
    uint8_t one = 0;
    if (f && (s->size > 1 || s->partial || !pf__filter_uniform(f, &mul, &one))) return PF_UNSUPPORTED;
    const int multi = f && !one; /* several classes: the bitmaps of the set */
    uint32_t si = s->start, gi = s->goal;
    /* what this context builds for itself, on the engine's threads when it gave a hook */
    const pf__par par = pf__par_build(&c->parallel, 0, (size_t)m->pw * m->ph);
    if (!multi && (m->cls[si] != m->cls[gi] || (m->comp && pf__grid_comp(m, si) != pf__grid_comp(m, gi)))) {
        /* different classes or components never connect: answer without searching */
        return pf__nodes_set(&c->nodes, si, 0.0, PF__JPS_NONE) ? PF_NO_PATH : PF_OUT_OF_MEMORY;
    }

    /* a static context holds no room for bitmaps it was not given: A* runs (PF_DETAIL_FALLBACK) */
    if (c->fixed && (s->size > 1 || multi || !static_ready(c, m->cls[si]))) return PF_UNSUPPORTED;
    pf__jps_ext *x = ext_get(c);
    if (!x) return PF_OUT_OF_MEMORY;
    if (!ext_reserve(c, x)) return PF_OUT_OF_MEMORY;
    x->path_len = 0;
    uint8_t k = m->cls[si];
    const pf_jps_table *t = x->shared;
    if (t && t->version != m->version) return PF_WRONG_MAP; /* it could not follow an edit */
    if (x->own.version != m->version) {
        pf__jps_table_release(&x->own); /* nor could ours: built again below */
        x->own.version = m->version;
    }
    if (s->size > 1) {
        /* a unit of side K moves on the cells whose K x K block is of its class: JPS on that map's
         * bitmaps is exact (the sized rule is the one-cell rule there); JPS+'s distances are for
         * one cell, so JPS answers a sized JPS+ query. Built on the first such query, kept for the
         * next ones of that class and size, and through edits (ext_edit). */
        if (sz_bitmaps(c, x, s->size, k, &par) != PF_OK) return PF_OUT_OF_MEMORY;
        s->d.algo = s->st.algo = PF_ALGO_JPS;
        x->dist = NULL;
        x->rows = x->sz->rows[k];
        x->cols = x->sz->cols[k];
    } else if (multi) {
        /* JPS+'s distances are of one class, and a table per set would cost 16 bytes a cell and a
         * whole build for each: JPS answers a JPS+ query of several classes (pf_stats.algo) on
         * bitmaps of a quarter byte a cell */
        if (fs_bitmaps(c, x, f->classes, &par) != PF_OK) return PF_OUT_OF_MEMORY;
        s->d.algo = s->st.algo = PF_ALGO_JPS;
        x->dist = NULL;
    } else if (s->d.algo == PF_ALGO_JPS_PLUS) {
        if (!t || !t->dist) {
            /* the distances need no bitmaps: build only what this context lacks */
            if (pf__jps_table_dist(&x->own, &par) != PF_OK) return PF_OUT_OF_MEMORY;
            x->dist = x->own.dist;
        } else {
            x->dist = t->dist;
        }
        x->rows = x->cols = NULL;
    } else {
        x->dist = NULL;
        if (t && t->rows[k]) {
            x->rows = t->rows[k];
            x->cols = t->cols[k];
        } else {
            if (pf__jps_table_class(&x->own, k, &par) != PF_OK) return PF_OUT_OF_MEMORY;
            x->rows = x->own.rows[k];
            x->cols = x->own.cols[k];
        }
    }
    x->k = k;
    x->mul_s = mul;
    x->mul_d = PF__SQRT2 * mul; /* as A* prices a diagonal step under the filter */
    x->cut = m->moves == PF_MOVES_8_CUT;
    x->hkind = (int)hk;
    x->gx = (uint32_t)s->gx + 1u;
    x->gy = (uint32_t)s->gy + 1u;

    x->parent[si] = si;
    uint32_t sy = si / m->pw, sx = si - sy * m->pw;
    return pf__bf_root(c, si, PF__JPS_NONE, jps_h(x, sx, sy)) ? PF_IN_PROGRESS : PF_OUT_OF_MEMORY;
}

/* ---- bit scans ------------------------------------------------------------------------------ */

/* 64 bits of a line from storage bit b (bit 0 of the result = bit b). */
PF__INLINE uint64_t rd(const uint64_t *line, uint32_t b)
{
    uint32_t i = b >> 6, sh = b & 63u;
    /* (x << 1) << (63 - sh) is x << (64 - sh) without the undefined shift by 64 when sh == 0 */
    return (line[i] >> sh) | ((line[i + 1] << 1) << (63u - sh));
}

/*
 * Straight jump along a line (a row of `rows` or a column of `cols`) from position p, forward
 * (+1) or backward (-1); A and B are the two neighbouring lines. Returns the steps to the first
 * jump point or to the goal (position gp, or UINT32_MAX when the goal is not on this line), 0 when
 * the scan runs into a wall first.
 *
 * Forced neighbours, bit j of a window (side line s):
 *   no corner cutting: s[j-1] blocked and s[j] open (the side opens up beside the cell);
 *   corner cutting:    s[j] blocked and s[j+1] open (a diagonal past the blocked side).
 */
PF__INLINE uint32_t scan_fwd(const uint64_t *C, const uint64_t *A, const uint64_t *B, uint32_t p, uint32_t gp,
                             const int CUT)
{
    uint32_t p0 = p, stop;
    int jp;
    uint64_t first = CUT ? ~UINT64_C(1) : ~UINT64_C(0);
    for (;;) {
        uint64_t c = rd(C, p + 64u), a = rd(A, p + 64u), b = rd(B, p + 64u);
        uint64_t f = CUT ? ((~a & (a >> 1)) | (~b & (b >> 1))) & first & (~UINT64_C(0) >> 1)
                         : ((~a << 1) & a) | ((~b << 1) & b);
        uint64_t bl = ~c;
        uint64_t any = f | bl;
        first = ~UINT64_C(0);
        if (any) {
            uint32_t j = pf__ctz64(any);
            jp = !((bl >> j) & 1u);
            stop = p + j - (uint32_t)!jp;
            break;
        }
        p += 63u; /* bit 63 needed bit 62 (or 64): re-read it as bit 0 */
    }
    if (gp != UINT32_MAX && gp > p0 && gp <= stop) return gp - p0;
    return jp ? stop - p0 : 0u;
}

PF__INLINE uint32_t scan_bwd(const uint64_t *C, const uint64_t *A, const uint64_t *B, uint32_t p, uint32_t gp,
                             const int CUT)
{
    uint32_t p0 = p, stop;
    int jp;
    uint64_t first = CUT ? ~(UINT64_C(1) << 63) : ~UINT64_C(0);
    for (;;) {
        /* bit 63 of the window is position p, bit 63 - j is p - j */
        uint64_t c = rd(C, p + 1u), a = rd(A, p + 1u), b = rd(B, p + 1u);
        uint64_t f = CUT ? ((~a & (a << 1)) | (~b & (b << 1))) & first & ~UINT64_C(1)
                         : ((~a >> 1) & a) | ((~b >> 1) & b);
        uint64_t bl = ~c;
        uint64_t any = f | bl;
        first = ~UINT64_C(0);
        if (any) {
            uint32_t j = pf__clz64(any);
            jp = !((bl >> (63u - j)) & 1u);
            stop = p - j + (uint32_t)!jp;
            break;
        }
        p -= 63u;
    }
    if (gp != UINT32_MAX && gp < p0 && gp >= stop) return p0 - gp;
    return jp ? p0 - stop : 0u;
}

/* Straight jump from padded (px, py) in direction d (0..3). */
PF__INLINE uint32_t jump_straight(const pf__jps_ext *x, uint32_t rw, uint32_t cw, uint32_t px, uint32_t py,
                                  uint32_t d, const int CUT)
{
    if (d & 1u) { /* E, W: along row py */
        const uint64_t *C = x->rows + (size_t)py * rw;
        uint32_t gp = x->gy == py ? x->gx : UINT32_MAX;
        return d == 1 ? scan_fwd(C, C - rw, C + rw, px, gp, CUT) : scan_bwd(C, C - rw, C + rw, px, gp, CUT);
    }
    const uint64_t *C = x->cols + (size_t)px * cw; /* N, S: along column px */
    uint32_t gp = x->gx == px ? x->gy : UINT32_MAX;
    return d == 2 ? scan_fwd(C, C - cw, C + cw, py, gp, CUT) : scan_bwd(C, C - cw, C + cw, py, gp, CUT);
}

/* ---- pruning, open neighbours, paths ------------------------------------------------------- */

/* Directions left after pruning, for a node entered moving in direction a (PF__JPS_NONE: all).
 * op: bit d set when the neighbour in direction d is open. Either meaning of "open" works for a
 * diagonal: the cell itself (JPS, from the bitmaps) or the diagonal move (JPS+, from the cell's own
 * distances). They differ only without corner cutting, when a side of the diagonal is blocked, and
 * the one test below that reads a diagonal there has both sides open (the cell behind and p1). */
PF__INLINE uint32_t succ_dirs(uint32_t op, uint32_t a, const int CUT)
{
    const uint8_t (*diag)[4] = pf__dir_diag;
    if (a == PF__JPS_NONE) return 0xFFu;
    if (a < 4) {
        uint32_t mask = 1u << a;
        uint32_t p1 = (a + 1u) & 3u, p2 = (a + 3u) & 3u;
        if (!CUT) {
            uint32_t r = a ^ 2u;
            if ((op >> p1 & 1u) && !(op >> diag[r][p1] & 1u)) mask |= (1u << p1) | (1u << diag[a][p1]);
            if ((op >> p2 & 1u) && !(op >> diag[r][p2] & 1u)) mask |= (1u << p2) | (1u << diag[a][p2]);
        } else {
            if (!(op >> p1 & 1u) && (op >> diag[a][p1] & 1u)) mask |= 1u << diag[a][p1];
            if (!(op >> p2 & 1u) && (op >> diag[a][p2] & 1u)) mask |= 1u << diag[a][p2];
        }
        return mask;
    }
    uint32_t h = pf__dir_h[a], v = pf__dir_v[a];
    uint32_t mask = (1u << a) | (1u << h) | (1u << v);
    if (CUT) {
        if (!(op >> (h ^ 2u) & 1u)) mask |= 1u << diag[h ^ 2u][v];
        if (!(op >> (v ^ 2u) & 1u)) mask |= 1u << diag[h][v ^ 2u];
    }
    return mask;
}

/* The open neighbours of padded (px, py) from the row bitmaps, as succ_dirs reads them: the
 * bitmaps are 1/8 of the class bytes and mostly in cache, where three rows of cls would be three
 * likely misses per expansion. */
PF__INLINE uint32_t open_bits(const uint64_t *rows, uint32_t rw, uint32_t px, uint32_t py)
{
    const uint64_t *r = rows + (size_t)py * rw;
    uint32_t up = (uint32_t)rd(r - rw, px + 63u) & 7u, mid = (uint32_t)rd(r, px + 63u) & 7u;
    uint32_t dn = (uint32_t)rd(r + rw, px + 63u) & 7u; /* bit 0 = px - 1 */
    return (up >> 1 & 1u) | (mid >> 2 & 1u) << 1 | (dn >> 1 & 1u) << 2 | (mid & 1u) << 3 | (up >> 2 & 1u) << 4 |
           (dn >> 2 & 1u) << 5 | (dn & 1u) << 6 | (up & 1u) << 7;
}

/* JPS+: the moves out of cell i, from its own distances (0 = a wall or a blocked diagonal next). */
PF__INLINE uint32_t open_moves(const int16_t *D, uint32_t i)
{
    const int16_t *e = D + (size_t)i * 8u;
#if defined(__SSE2__)
    __m128i z = _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(const void *)e), _mm_setzero_si128());
    return ~(uint32_t)_mm_movemask_epi8(_mm_packs_epi16(z, z)) & 0xFFu;
#else
    uint32_t op = 0;
    for (uint32_t d = 0; d < 8; d++) op |= (uint32_t)(e[d] != 0) << d;
    return op;
#endif
}

/* Is padded (px, py) open in the row bitmaps? */
PF__INLINE uint32_t bit_at(const uint64_t *rows, uint32_t rw, uint32_t px, uint32_t py)
{
    uint32_t b = px + 64u;
    return (uint32_t)(rows[(size_t)py * rw + (b >> 6)] >> (b & 63u)) & 1u;
}

/* Writes the path found into x->path, goal first, as public node ids. A jump from p to t is
 * straight, diagonal, or diagonal then straight (pruned diagonal jump points): walking back from t,
 * go straight along the longer axis until p lies on a diagonal, then diagonally. Returns 0 when
 * the buffer cannot grow. */
static int mark_path(pf_ctx *c, pf__jps_ext *x)
{
    const pf_map *m = c->map;
    const uint32_t pw = m->pw, w = m->width, start = c->s.start;
    /* first the length, over jump points only: a jump covers max(|dx|, |dy|) cells */
    uint32_t len = 1;
    for (uint32_t t = c->s.found; t != start; t = x->parent[t]) {
        uint32_t p = x->parent[t];
        int32_t dx = (int32_t)(p % pw) - (int32_t)(t % pw), dy = (int32_t)(p / pw) - (int32_t)(t / pw);
        int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
        len += (uint32_t)(ax > ay ? ax : ay);
    }
    if (!pf__grow(&c->alloc, &x->path, &x->path_cap, len, sizeof *x->path, 1024u, 0)) return 0;
    uint32_t *out = x->path, n = 0;
    uint32_t t = c->s.found;
    while (t != start) {
        uint32_t p = x->parent[t];
        int32_t tx = (int32_t)(t % pw), ty = (int32_t)(t / pw);
        int32_t dx = (int32_t)(p % pw) - tx, dy = (int32_t)(p / pw) - ty;
        int32_t u = (ty - 1) * (int32_t)w + tx - 1; /* public id: unpadded */
        int32_t sx = dx > 0 ? 1 : -1, sy = dy > 0 ? (int32_t)w : -(int32_t)w;
        int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
        int32_t step = ax > ay ? sx : sy, run = ax > ay ? ax - ay : ay - ax, diag = ax < ay ? ax : ay;
        for (int32_t i = 0; i < run; i++, u += step) out[n++] = (uint32_t)u;
        for (int32_t i = 0; i < diag; i++, u += sx + sy) out[n++] = (uint32_t)u;
        t = p;
    }
    out[n++] = pf__grid_unpad(m, start);
    x->path_len = n;
    return 1;
}

/* JPS+ straight jump: steps to the jump point or to the goal ahead, 0 when neither. */
PF__INLINE uint32_t plus_straight(const int16_t *D, uint32_t i, uint32_t px, uint32_t py, uint32_t d, uint32_t gx,
                                  uint32_t gy)
{
    int32_t v = D[(size_t)i * 8u + d];
    uint32_t reach = (uint32_t)(v < 0 ? -v : v);
    uint32_t t = UINT32_MAX;
    if (d == 0) {
        if (gx == px && gy < py) t = py - gy;
    } else if (d == 2) {
        if (gx == px && gy > py) t = gy - py;
    } else if (d == 1) {
        if (gy == py && gx > px) t = gx - px;
    } else if (gy == py && gx < px) {
        t = px - gx;
    }
    if (t <= reach) return t;
    return v > 0 ? (uint32_t)v : 0u;
}

/* ---- one expansion ---------------------------------------------------------------------------- */

/*
 * The successors of one expansion are relaxed together at its end, in the order found: the loads
 * of their records (jump points lie far apart: each a likely cache miss) are started as each is
 * found and overlap the scans that find the rest, where relaxing at once waited on each in turn.
 * Every successor has the expanded node as parent, those found from a pruned diagonal jump point
 * too (mark_path rebuilds the two-leg jump).
 */
#define PF__JPS_PEND 32u

typedef struct jps_out {
    pf_ctx      *c;
    pf__jps_ext *x;
    pf__hold    *hold;
    const int32_t *off;              /* the map's neighbour offsets */
    uint32_t     goal;
    uint32_t     from;               /* the node expanded */
    uint32_t     n;
    struct {
        uint32_t t, back, tx, ty;    /* node, direction back towards `from`, padded coordinates */
        double   ng;
    } pend[PF__JPS_PEND];
} jps_out;

/* Relaxes the waiting successors (the skeleton's relaxation, no reopening: the heuristics JPS runs
 * with are consistent along jumps too, which are runs of grid moves, so a closed jump point is
 * never improved, as in Warthog). Returns 0 when the open list cannot grow. */
PF__INLINE int jps_flush(jps_out *o)
{
    for (uint32_t i = 0; i < o->n; i++) {
        uint32_t t = o->pend[i].t;
        double ng = o->pend[i].ng;
        uint32_t was = pf__bf_admit(o->c, t, ng, 0);
        if (was && !pf__bf_relax(o->c, o->hold, t, was, ng, jps_h(o->x, o->pend[i].tx, o->pend[i].ty),
                                 o->pend[i].back, o->x->parent, o->from, 1))
            return 0;
    }
    o->n = 0;
    return 1;
}

/* Queues successor t at padded (tx, ty), reached at cost ng moving in direction back ^ 2. */
PF__INLINE int jps_emit(jps_out *o, uint32_t t, double ng, uint32_t back, uint32_t tx, uint32_t ty)
{
    PF__PREFETCH(pf__nodes_pair(&o->c->nodes, t));
    PF__PREFETCH(pf__nodes_gp(&o->c->nodes, t));
    if (o->n == PF__JPS_PEND && !jps_flush(o)) return 0;
    o->pend[o->n].t = t;
    o->pend[o->n].back = back;
    o->pend[o->n].tx = tx;
    o->pend[o->n].ty = ty;
    o->pend[o->n].ng = ng;
    o->n++;
    return 1;
}

/* The straight jump from cell y at padded (yx, yy), reached at cost gy, in direction d (0..3):
 * queues the jump point or the goal it reaches. 0 when the open list cannot grow. */
PF__INLINE int jps_straight(jps_out *o, uint32_t y, uint32_t yx, uint32_t yy, double gy, uint32_t d, const int CUT,
                            const int PLUS)
{
    const pf__jps_ext *x = o->x;
    uint32_t n = PLUS ? plus_straight(x->dist, y, yx, yy, d, x->gx, x->gy)
                      : jump_straight(x, x->own.rw, x->own.cw, yx, yy, d, CUT);
    if (!n) return 1;
    return jps_emit(o, (uint32_t)((int32_t)y + (int32_t)n * o->off[d]), gy + (double)n * x->mul_s, d ^ 2u,
                    (uint32_t)((int32_t)yx + (int32_t)n * pf__dir_dx[d]),
                    (uint32_t)((int32_t)yy + (int32_t)n * pf__dir_dy[d]));
}

/* Where a diagonal walk stands: a cell, its padded coordinates, the diagonal steps from the node
 * expanded. */
typedef struct jps_at {
    uint32_t cell, x, y, steps;
} jps_at;

/* One move of a diagonal walk: it stopped (nothing beyond, or the goal queued), moved on to the
 * next diagonal jump point, or ran out of memory. */
enum { PF__DIAG_STOP, PF__DIAG_ON, PF__DIAG_OOM };

/* JPS+: from p, the next diagonal jump point in direction d, read from p's distances; stops at the
 * goal's row or column when the walk crosses it within reach (Rabin's target jump point). gc is the
 * cost of the node expanded. */
PF__INLINE int plus_diag_move(jps_out *o, jps_at *p, double gc, uint32_t d)
{
    const pf__jps_ext *x = o->x;
    const int16_t *D = x->dist;
    const int32_t *off = o->off;
    const int32_t dx = pf__dir_dx[d], dy = pf__dir_dy[d], od = off[d];
    const uint32_t gx = x->gx, gy = x->gy;
    int32_t dv = D[(size_t)p->cell * 8u + d];
    uint32_t reach = (uint32_t)(dv < 0 ? -dv : dv);
    if ((dx > 0 ? gx > p->x : gx < p->x) && (dy > 0 ? gy > p->y : gy < p->y)) {
        uint32_t ax = gx > p->x ? gx - p->x : p->x - gx, ay = gy > p->y ? gy - p->y : p->y - gy;
        uint32_t tt = ax < ay ? ax : ay;
        if (tt <= reach) { /* expanded like a diagonal arrival */
            p->steps += tt;
            int ok = jps_emit(o, (uint32_t)((int32_t)p->cell + (int32_t)tt * od), gc + (double)p->steps * x->mul_d,
                              d ^ 2u, (uint32_t)((int32_t)p->x + (int32_t)tt * dx),
                              (uint32_t)((int32_t)p->y + (int32_t)tt * dy));
            return ok ? PF__DIAG_STOP : PF__DIAG_OOM;
        }
    }
    if (dv <= 0) return PF__DIAG_STOP;
    p->cell = (uint32_t)((int32_t)p->cell + dv * od);
    p->x = (uint32_t)((int32_t)p->x + dv * dx);
    p->y = (uint32_t)((int32_t)p->y + dv * dy);
    p->steps += (uint32_t)dv;
    /* the new point's two straight jumps and next hop: start their misses now */
    const int16_t *e = D + (size_t)p->cell * 8u;
    const uint32_t h = pf__dir_h[d], v = pf__dir_v[d];
    int32_t nh = e[h], nv = e[v], nd = e[d];
    if (nh > 0) PF__PREFETCH(pf__nodes_pair(&o->c->nodes, (uint32_t)((int32_t)p->cell + nh * off[h])));
    if (nv > 0) PF__PREFETCH(pf__nodes_pair(&o->c->nodes, (uint32_t)((int32_t)p->cell + nv * off[v])));
    if (nd > 0) PF__PREFETCH(&D[(size_t)(uint32_t)((int32_t)p->cell + nd * od) * 8u]);
    return PF__DIAG_ON;
}

/* JPS: from p, one diagonal step in direction d on the wall bitmaps (without corner cutting both
 * sides must be open); the goal is queued when reached. */
PF__INLINE int bits_diag_move(jps_out *o, jps_at *p, double gc, uint32_t d, const int CUT)
{
    const uint64_t *R = o->x->rows;
    const uint32_t rw = o->x->own.rw;
    const uint32_t dx = (uint32_t)(int32_t)pf__dir_dx[d], dy = (uint32_t)(int32_t)pf__dir_dy[d];
    if (!bit_at(R, rw, p->x + dx, p->y + dy)) return PF__DIAG_STOP;
    if (!CUT && !(bit_at(R, rw, p->x + dx, p->y) & bit_at(R, rw, p->x, p->y + dy))) return PF__DIAG_STOP;
    p->cell = (uint32_t)((int32_t)p->cell + o->off[d]);
    p->x += dx;
    p->y += dy;
    p->steps++;
    if (p->cell == o->goal)
        return jps_emit(o, p->cell, gc + (double)p->steps * o->x->mul_d, d ^ 2u, p->x, p->y) ? PF__DIAG_STOP
                                                                                         : PF__DIAG_OOM;
    return PF__DIAG_ON;
}

/* With corner cutting, does a diagonal arrival in direction d at p have forced neighbours (a side
 * blocked behind, open beyond)? */
PF__INLINE int diag_forced(const jps_out *o, const jps_at *p, uint32_t d, const int PLUS)
{
    uint32_t op = PLUS ? open_moves(o->x->dist, p->cell) : open_bits(o->x->rows, o->x->own.rw, p->x, p->y);
    uint32_t h = pf__dir_h[d], v = pf__dir_v[d], hb = h ^ 2u, vb = v ^ 2u;
    return (!(op >> hb & 1u) && (op >> pf__dir_diag[hb][v] & 1u)) ||
           (!(op >> vb & 1u) && (op >> pf__dir_diag[h][vb] & 1u));
}

/*
 * The diagonal from cur (at padded (px, py), cost gc) in direction d (4..7), with jump point
 * pruning (Harabor & Grastien 2014): a diagonal jump point y found only through its straight scans
 * is not put on the open list; the jump points those scans reach are queued at once with cur as
 * parent, and the diagonal goes on, which is what expanding y would have done. Only the goal and,
 * with corner cutting, cells with forced neighbours become nodes. 0 when out of memory.
 */
PF__INLINE int jps_diagonal(jps_out *o, uint32_t cur, uint32_t px, uint32_t py, double gc, uint32_t d, const int CUT,
                            const int PLUS)
{
    const uint32_t h = pf__dir_h[d], v = pf__dir_v[d];
    jps_at p = {cur, px, py, 0};
    for (;;) {
        int r = PLUS ? plus_diag_move(o, &p, gc, d) : bits_diag_move(o, &p, gc, d, CUT);
        if (r != PF__DIAG_ON) return r == PF__DIAG_STOP;
        const double gy = gc + (double)p.steps * o->x->mul_d;
        if (CUT && diag_forced(o, &p, d, PLUS)) return jps_emit(o, p.cell, gy, d ^ 2u, p.x, p.y);
        if (!jps_straight(o, p.cell, p.x, p.y, gy, h, CUT, PLUS)) return 0;
        if (!jps_straight(o, p.cell, p.x, p.y, gy, v, CUT, PLUS)) return 0;
    }
}

/* ---- search loop ------------------------------------------------------------------------------ */

/* The skeleton (skeleton_internal.h) over jump points: the successors of a node are the jumps in
 * the directions its arrival leaves unpruned. Instantiated per corner rule and per table kind
 * (PLUS: JPS+ distances; otherwise the wall bitmaps). */
PF__INLINE pf_status jps_run(pf_ctx *c, uint32_t budget, const int CUT, const int PLUS)
{
    pf__search *s = &c->s;
    pf__jps_ext *x = pf__ctx_ext_get(c, PF__EXT_JPS);
    const int32_t *off = c->map->nb_off[0];
    const uint32_t pw = c->map->pw, goal = s->goal;
    const int16_t *D = x->dist;
    pf__hold hold = PF__HOLD_EMPTY;
    jps_out out;
    out.c = c;
    out.x = x;
    out.hold = &hold;
    out.off = off;
    out.goal = goal;
    out.n = 0;
    pf_status ret;
    for (;;) {
        uint32_t cur = pf__bf_next(c, &hold, &budget, &ret);
        if (cur == PF_NODE_NONE) return ret;
        if (c->open.size) {
            /* the next node is most often the one expanded next: start its loads now, they
             * overlap this expansion (JPS touches few cells, each one a likely cache miss) */
            uint32_t nx = c->open.heap[0].node;
            PF__PREFETCH(pf__nodes_pair(&c->nodes, nx));
            PF__PREFETCH(pf__nodes_gp(&c->nodes, nx));
            if (PLUS) PF__PREFETCH(&D[(size_t)nx * 8u]);
        }
        if (cur == goal) {
            s->found = cur;
            return mark_path(c, x) ? PF_OK : PF_OUT_OF_MEMORY;
        }
        s->st.expanded++;
        const double gc = pf__nodes_g(&c->nodes, cur);
        const uint32_t py = cur / pw, px = cur - py * pw;
        const uint32_t back = pf__nodes_stamp(&c->nodes, cur) >> PF__DIR_SHIFT;
        uint32_t dirs = 0xFFu;
        if (back != PF__JPS_NONE)
            dirs = succ_dirs(PLUS ? open_moves(D, cur) : open_bits(x->rows, x->own.rw, px, py), back ^ 2u, CUT);
        if (PLUS) {
            /* Every first hop is in cur's entry: start all their misses now so they overlap, where
             * the loop below would meet them one after another (the distances, 16 bytes a cell,
             * outgrow the caches on big maps). */
            const int16_t *e = D + (size_t)cur * 8u;
            for (uint32_t r = dirs; r; r &= r - 1u) {
                uint32_t d = pf__ctz32(r);
                int32_t n = e[d];
                if (n <= 0) continue;
                uint32_t t = (uint32_t)((int32_t)cur + n * off[d]);
                if (d < 4) PF__PREFETCH(pf__nodes_pair(&c->nodes, t));
                else PF__PREFETCH(&D[(size_t)t * 8u]);
            }
        }
        out.from = cur;
        for (; dirs; dirs &= dirs - 1u) {
            uint32_t d = pf__ctz32(dirs);
            int ok = d < 4 ? jps_straight(&out, cur, px, py, gc, d, CUT, PLUS)
                           : jps_diagonal(&out, cur, px, py, gc, d, CUT, PLUS);
            if (!ok) return PF_OUT_OF_MEMORY;
        }
        if (!jps_flush(&out)) return PF_OUT_OF_MEMORY;
    }
}

static pf_status run_nocut(pf_ctx *c, uint32_t b) { return jps_run(c, b, 0, 0); }
static pf_status run_cut(pf_ctx *c, uint32_t b) { return jps_run(c, b, 1, 0); }
static pf_status run_plus_nocut(pf_ctx *c, uint32_t b) { return jps_run(c, b, 0, 1); }
static pf_status run_plus_cut(pf_ctx *c, uint32_t b) { return jps_run(c, b, 1, 1); }

pf_status pf__jps_step(pf_ctx *c, uint32_t budget)
{
    const pf__jps_ext *x = pf__ctx_ext_get(c, PF__EXT_JPS);
    if (!x || !x->parent) return PF_INVALID_ARGUMENT;
    if (x->dist) return x->cut ? run_plus_cut(c, budget) : run_plus_nocut(c, budget);
    return x->cut ? run_cut(c, budget) : run_nocut(c, budget);
}

const uint32_t *pf__jps_path(const pf_ctx *c, uint32_t *len)
{
    const pf__jps_ext *x = pf__ctx_ext_get(c, PF__EXT_JPS);
    *len = x ? x->path_len : 0;
    return x ? x->path : NULL;
}

const pf_jps_table *pf__ctx_jps_table(const pf_ctx *ctx)
{
    const pf__jps_ext *x = pf__ctx_ext_get(ctx, PF__EXT_JPS);
    return x ? x->shared : NULL;
}

int pf__jps_has_plus(const pf_ctx *c)
{
    /* a table attached, not distances this context built for itself by an earlier JPS+ query: the
     * pick must not depend on a context's past (a batch's workers answered one AUTO query by JPS+
     * on one worker and JPS on another, a review: other expansions, another run under a budget) */
    const pf__jps_ext *x = pf__ctx_ext_get(c, PF__EXT_JPS);
    return x && x->shared && x->shared->dist;
}
