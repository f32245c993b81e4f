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
#include "search/heap_internal.h"
#include "search/metric_internal.h"
#include "jps/jps_internal.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif


static const int8_t DX[8] = {0, 1, 0, -1, 1, 1, -1, -1};
static const int8_t DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
static const uint8_t DH[8] = {0, 0, 0, 0, 1, 1, 3, 3};
static const uint8_t DV[8] = {0, 0, 0, 0, 0, 2, 2, 0};
/* DIAG[a][b]: the diagonal between perpendicular straight directions a and b */
static const uint8_t DIAG[4][4] = {{0, 4, 0, 7}, {4, 0, 5, 0}, {0, 5, 0, 6}, {7, 0, 6, 0}};

/* ---- per-context state ---------------------------------------------------------------------- */

static size_t state_bytes(const pf_ctx *c, const pf__jps_ext *x)
{
    return (size_t)c->count * sizeof(uint32_t) + (size_t)x->path_cap * sizeof(uint32_t);
}

static void ext_free(pf_ctx *c)
{
    pf__jps_ext *x = c->ext;
    if (!x) return;
    pf__jps_table_release(&x->own);
    pf__free(&c->alloc, x->parent, (size_t)c->count * sizeof(uint32_t));
    pf__free(&c->alloc, x->path, (size_t)x->path_cap * sizeof(uint32_t));
    pf__free(&c->alloc, x, sizeof *x);
    c->ext = NULL;
    c->ext_free = NULL;
}

static pf__jps_ext *ext_get(pf_ctx *c)
{
    if (c->ext) return c->ext;
    pf__jps_ext *x = pf__calloc(&c->alloc, sizeof *x, 64);
    if (!x) return NULL;
    pf__jps_table_init(&x->own, c->map, &c->alloc);
    c->ext = x;
    c->ext_free = ext_free;
    return x;
}

pf_status pf_ctx_use_jps_table(pf_ctx *ctx, const pf_jps_table *table)
{
    if (!ctx) return PF_INVALID_ARGUMENT;
    if (table && (table->map != ctx->map || table->fingerprint != ctx->map->fingerprint)) return PF_WRONG_MAP;
    if (!table && !ctx->ext) return PF_OK;
    pf__jps_ext *x = ext_get(ctx);
    if (!x) return PF_OUT_OF_MEMORY;
    if (table) pf__jps_table_release(&x->own); /* the shared copy replaces ours */
    x->shared = table;
    ctx->s.active = 0; /* a search in flight may point into the released data */
    return PF_OK;
}

size_t pf_ctx_jps_mem_size(const pf_ctx *ctx)
{
    if (!ctx || !ctx->ext) return 0;
    const pf__jps_ext *x = ctx->ext;
    return sizeof *x + x->own.bytes + (x->parent ? state_bytes(ctx, x) : 0);
}

/* ---- heuristic and tie key (the same rules as search.c) ------------------------------------- */

PF__INLINE double heur(int kind, int32_t dx, int32_t dy) { return pf__grid_metric((pf_heur)kind, dx, dy); }


/* ---- begin ---------------------------------------------------------------------------------- */

pf_status pf__jps_begin(pf_ctx *c)
{
    const pf_map *m = c->map;
    pf__search *s = &c->s;
    if (!pf__jps_map_ok(m)) return PF_UNSUPPORTED;
    pf_heur hk = s->d.heuristic;
    if (hk != PF_HEUR_OCTILE && hk != PF_HEUR_ZERO && hk != PF_HEUR_MANHATTAN && hk != PF_HEUR_CHEBYSHEV &&
        hk != PF_HEUR_EUCLIDEAN)
        return PF_UNSUPPORTED;
    uint32_t si = s->start, gi = s->goal;
    if (m->cls[si] != m->cls[gi] || (m->comp && m->comp[si] != m->comp[gi])) {
        /* different classes or components never connect: answer without searching */
        c->stamp[si] = c->gen | (PF__JPS_NONE << PF__DIR_SHIFT);
        c->g[si] = 0.0;
        return PF_NO_PATH;
    }

    pf__jps_ext *x = ext_get(c);
    if (!x) return PF_OUT_OF_MEMORY;
    if (!x->parent) {
        x->parent = pf__alloc(&c->alloc, (size_t)c->count * sizeof(uint32_t), 64);
        if (!x->parent) return PF_OUT_OF_MEMORY;
        pf__jps_hugepages(x->parent, (size_t)c->count * sizeof(uint32_t));
        /* the context's own records (g, stamps, slots) are the other hot arrays */
        pf__jps_hugepages(c->block, c->block_size);
    }
    x->path_len = 0;
    uint8_t k = m->cls[si];
    const pf_jps_table *t = x->shared;
    if (s->d.algo == PF_ALGO_JPS_PLUS) {
        if (!t || !t->dist) {
            /* the distances need no bitmaps: build only what this context lacks */
            if (pf__jps_table_dist(&x->own, 0) != PF_OK) return PF_OUT_OF_MEMORY;
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
            if (pf__jps_table_class(&x->own, k, 0) != PF_OK) return PF_OUT_OF_MEMORY;
            x->rows = x->own.rows[k];
            x->cols = x->own.cols[k];
        }
    }
    x->k = k;
    x->cut = m->moves == PF_MOVES_8_CUT;
    x->hkind = (int)hk;
    x->gx = (uint32_t)s->gx + 1u;
    x->gy = (uint32_t)s->gy + 1u;

    c->stamp[si] = c->gen | (PF__JPS_NONE << PF__DIR_SHIFT);
    c->g[si] = 0.0;
    x->parent[si] = si;
    s->st.pushed = 1;
    uint32_t sy = si / m->pw, sx = si - sy * m->pw;
    double h = heur(x->hkind, (int32_t)sx - (int32_t)x->gx, (int32_t)sy - (int32_t)x->gy);
    if (!pf__heap_push(c, si, s->hmul * h, pf__tie_key(s, si, h))) return PF_OUT_OF_MEMORY;
    return PF_IN_PROGRESS;
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
            uint32_t j = (uint32_t)__builtin_ctzll(any);
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
            uint32_t j = (uint32_t)__builtin_clzll(any);
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

/* ---- search loop ---------------------------------------------------------------------------- */

/* Directions left after pruning, for a node entered moving in direction a (PF__JPS_NONE: all).
 * op: bit d set when the neighbour in direction d is open. Either meaning of "open" works for a
 * diagonal: the cell itself (JPS, from the bitmaps) or the diagonal move (JPS+, from the cell's own
 * distances). They differ only without corner cutting, when a side of the diagonal is blocked, and
 * the one test below that reads a diagonal there has both sides open (the cell behind and p1). */
PF__INLINE uint32_t succ_dirs(uint32_t op, uint32_t a, const int CUT)
{
    if (a == PF__JPS_NONE) return 0xFFu;
    if (a < 4) {
        uint32_t mask = 1u << a;
        uint32_t p1 = (a + 1u) & 3u, p2 = (a + 3u) & 3u;
        if (!CUT) {
            uint32_t r = a ^ 2u;
            if ((op >> p1 & 1u) && !(op >> DIAG[r][p1] & 1u)) mask |= (1u << p1) | (1u << DIAG[a][p1]);
            if ((op >> p2 & 1u) && !(op >> DIAG[r][p2] & 1u)) mask |= (1u << p2) | (1u << DIAG[a][p2]);
        } else {
            if (!(op >> p1 & 1u) && (op >> DIAG[a][p1] & 1u)) mask |= 1u << DIAG[a][p1];
            if (!(op >> p2 & 1u) && (op >> DIAG[a][p2] & 1u)) mask |= 1u << DIAG[a][p2];
        }
        return mask;
    }
    uint32_t h = DH[a], v = DV[a];
    uint32_t mask = (1u << a) | (1u << h) | (1u << v);
    if (CUT) {
        if (!(op >> (h ^ 2u) & 1u)) mask |= 1u << DIAG[h ^ 2u][v];
        if (!(op >> (v ^ 2u) & 1u)) mask |= 1u << DIAG[h][v ^ 2u];
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

/* A successor waiting to be relaxed (jps_run). */
typedef struct pf__jpend {
    uint32_t t, back, tx, ty;
    double   ng;
} pf__jpend;
#define PF__JPS_PEND 32u

/* A*'s relaxation for a jump from `from` to t; returns 0 on out-of-memory. */
PF__INLINE int jrelax(pf_ctx *c, pf__jps_ext *x, pf__hold *hd, uint32_t t, double ng, uint32_t back,
                      uint32_t from, uint32_t tx, uint32_t ty)
{
    pf__search *s = &c->s;
    uint32_t st = c->stamp[t];
    if ((st & PF__GEN_MASK) != c->gen) {
        double h = heur(x->hkind, (int32_t)tx - (int32_t)x->gx, (int32_t)ty - (int32_t)x->gy);
        if (s->d.max_cost > 0 && ng + s->hadm * h > s->d.max_cost) {
            s->pruned = 1;
            return 1;
        }
        c->stamp[t] = c->gen | (back << PF__DIR_SHIFT);
        c->g[t] = ng;
        x->parent[t] = from;
        s->st.pushed++;
        return pf__hold_push(c, hd, pf__hentry_make(ng + s->hmul * h, pf__tie_key(s, t, h), t));
    }
    /* The octile heuristic is consistent along jumps too (they are runs of grid moves), so a
     * closed jump point is never improved: no reopening, as in Warthog. */
    if (!(ng < c->g[t])) return 1;
    if (st & PF__CLOSED_BIT) return 1;
    double h = heur(x->hkind, (int32_t)tx - (int32_t)x->gx, (int32_t)ty - (int32_t)x->gy);
    c->stamp[t] = c->gen | (back << PF__DIR_SHIFT);
    c->g[t] = ng;
    x->parent[t] = from;
    /* one expansion can reach a jump point twice: the held one is improved where it is */
    int held = hd->have && hd->e.node == t;
    uint32_t pos = held ? 0 : c->hpos[t];
    pf__hentry e = pf__hentry_make(ng + s->hmul * h, held ? hd->e.tie : c->heap[pos].tie, t);
    if (s->d.tie == PF_TIE_DEEPER) e.tie = pf__tie_key(s, t, h);
    if (held) hd->e = e;
    else pf__sift_up(c, pos, e);
    return 1;
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
    if (len > x->path_cap) {
        uint32_t cap = x->path_cap ? x->path_cap : 1024u;
        while (cap < len) cap = cap > UINT32_MAX / 2u ? len : cap * 2u;
        uint32_t *np = pf__alloc(&c->alloc, (size_t)cap * sizeof(uint32_t), 64);
        if (!np) return 0;
        pf__free(&c->alloc, x->path, (size_t)x->path_cap * sizeof(uint32_t));
        x->path = np;
        x->path_cap = cap;
    }
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

PF__INLINE pf_status jps_run(pf_ctx *c, uint32_t budget, const int CUT, const int PLUS)
{
    const pf_map *m = c->map;
    pf__search *s = &c->s;
    pf__jps_ext *x = c->ext;
    const int32_t *off = m->nb_off[0];
    const uint32_t pw = m->pw, goal = s->goal;
    const uint32_t rw = x->own.rw, cw = x->own.cw; /* same for any table of this map */
    const int16_t *D = x->dist;
    const uint32_t gx = x->gx, gy = x->gy;
    /* The successors of one expansion are relaxed together at its end, in the order found: the
     * loads of their records (jump points lie far apart: each a likely cache miss) are started as
     * each is found and overlap the scans that find the rest, where relaxing at once waited on each
     * in turn. */
    pf__jpend pend[PF__JPS_PEND];
    uint32_t npend = 0;
#define PF__JFLUSH()                                                                               \
    do {                                                                                           \
        for (uint32_t i_ = 0; i_ < npend; i_++)                                                    \
            if (!jrelax(c, x, &hold, pend[i_].t, pend[i_].ng, pend[i_].back, cur, pend[i_].tx, pend[i_].ty)) \
                return PF_OUT_OF_MEMORY;                                                           \
        npend = 0;                                                                                 \
    } while (0)
#define PF__JEMIT(T, NG, BACK, TX, TY)                                                             \
    do {                                                                                           \
        uint32_t t_ = (T);                                                                         \
        __builtin_prefetch(&c->stamp[t_]);                                                         \
        __builtin_prefetch(&c->g[t_]);                                                             \
        if (npend == PF__JPS_PEND) PF__JFLUSH();                                                   \
        pend[npend++] = (pf__jpend){t_, (BACK), (TX), (TY), (NG)};                                 \
    } while (0)

    pf__hold hold = {{0, 0, 0}, 0}; /* heap_internal.h */
    for (;;) {
        if (!pf__hold_settle(c, &hold)) return PF_OUT_OF_MEMORY;
        if (pf__hold_top(c, &hold) == PF_NODE_NONE) break;
        if (budget-- == 0) return pf__hold_flush(c, &hold) ? PF_IN_PROGRESS : PF_OUT_OF_MEMORY;
        /* as in search.c: the goal coming off the open list is not an expansion */
        if (s->d.max_expansions && s->st.expanded >= s->d.max_expansions && pf__hold_top(c, &hold) != goal)
            return pf__hold_flush(c, &hold) ? PF_LIMIT_REACHED : PF_OUT_OF_MEMORY;
        uint32_t cur = pf__hold_pop_close(c, &hold);
        if (c->hsize) {
            /* the next node is most often the one expanded next: start its loads now, they
             * overlap this expansion (JPS touches few cells, each one a likely cache miss) */
            uint32_t nx = c->heap[0].node;
            __builtin_prefetch(&c->stamp[nx]);
            __builtin_prefetch(&c->g[nx]);
            if (PLUS) __builtin_prefetch(&D[(size_t)nx * 8u]);
        }
        if (s->d.trace) {
            pf_trace *tr = s->d.trace;
            if (tr->len < tr->capacity) tr->nodes[tr->len++] = pf__map_outer(m, cur);
            tr->total++;
        }
        if (cur == goal) {
            s->found = cur;
            return mark_path(c, x) ? PF_OK : PF_OUT_OF_MEMORY;
        }
        s->st.expanded++;
        const double gc = c->g[cur];
        const uint32_t py = cur / pw, px = cur - py * pw;
        const uint32_t back = c->stamp[cur] >> PF__DIR_SHIFT;
        uint32_t dirs = 0xFFu;
        if (back != PF__JPS_NONE)
            dirs = succ_dirs(PLUS ? open_moves(D, cur) : open_bits(x->rows, rw, px, py), back ^ 2u, CUT);
        if (PLUS) {
            /* Every first hop is in cur's entry: start all their misses now so they overlap, where
             * the loop below would meet them one after another (the distances, 16 bytes a cell,
             * outgrow the caches on big maps). */
            const int16_t *e = D + (size_t)cur * 8u;
            for (uint32_t r = dirs; r; r &= r - 1u) {
                uint32_t d = (uint32_t)__builtin_ctz(r);
                int32_t n = e[d];
                if (n <= 0) continue;
                uint32_t t = (uint32_t)((int32_t)cur + n * off[d]);
                if (d < 4) __builtin_prefetch(&c->stamp[t]);
                else __builtin_prefetch(&D[(size_t)t * 8u]);
            }
        }
        while (dirs) {
            uint32_t d = (uint32_t)__builtin_ctz(dirs);
            dirs &= dirs - 1u;
            if (d < 4) {
                uint32_t n = PLUS ? plus_straight(D, cur, px, py, d, gx, gy) : jump_straight(x, rw, cw, px, py, d, CUT);
                if (n)
                    PF__JEMIT((uint32_t)((int32_t)cur + (int32_t)n * off[d]), gc + (double)n, d ^ 2u,
                              (uint32_t)((int32_t)px + (int32_t)n * DX[d]), (uint32_t)((int32_t)py + (int32_t)n * DY[d]));
                continue;
            }
            /*
             * Diagonal, with jump point pruning (Harabor & Grastien 2014): a diagonal jump point y
             * found only through its straight scans is not put on the open list; the jump points
             * those scans reach are generated at once with cur as parent (the two-leg jump is
             * rebuilt by mark_path), and the diagonal goes on, which is what expanding y would
             * have done. Only the goal and, with corner cutting, cells with forced neighbours
             * become nodes.
             */
            const uint32_t h = DH[d], v = DV[d];
            const int32_t o = off[d], oh = off[h], ov = off[v], dx = DX[d], dy = DY[d];
            uint32_t y = cur, yx = px, yy = py, kk = 0;
            for (;;) {
                if (PLUS) {
                    int32_t dv = D[(size_t)y * 8u + d];
                    uint32_t reach = (uint32_t)(dv < 0 ? -dv : dv);
                    if ((dx > 0 ? gx > yx : gx < yx) && (dy > 0 ? gy > yy : gy < yy)) {
                        /* the goal's row or column is crossed within reach: stop there (Rabin's
                         * target jump point), expanded like a diagonal arrival */
                        uint32_t ax = gx > yx ? gx - yx : yx - gx, ay = gy > yy ? gy - yy : yy - gy;
                        uint32_t tt = ax < ay ? ax : ay;
                        if (tt <= reach) {
                            kk += tt;
                            PF__JEMIT((uint32_t)((int32_t)y + (int32_t)tt * o), gc + (double)kk * PF__SQRT2, d ^ 2u,
                                      (uint32_t)((int32_t)yx + (int32_t)tt * dx), (uint32_t)((int32_t)yy + (int32_t)tt * dy));
                            break;
                        }
                    }
                    if (dv <= 0) break;
                    y = (uint32_t)((int32_t)y + dv * o);
                    yx = (uint32_t)((int32_t)yx + dv * dx);
                    yy = (uint32_t)((int32_t)yy + dv * dy);
                    kk += (uint32_t)dv;
                    {
                        /* the same for this diagonal jump point: its two straight jumps, next hop */
                        const int16_t *e = D + (size_t)y * 8u;
                        int32_t nh = e[h], nv = e[v], nd = e[d];
                        if (nh > 0) __builtin_prefetch(&c->stamp[(uint32_t)((int32_t)y + nh * oh)]);
                        if (nv > 0) __builtin_prefetch(&c->stamp[(uint32_t)((int32_t)y + nv * ov)]);
                        if (nd > 0) __builtin_prefetch(&D[(size_t)(uint32_t)((int32_t)y + nd * o) * 8u]);
                    }
                } else {
                    const uint64_t *R = x->rows;
                    if (!bit_at(R, rw, yx + (uint32_t)dx, yy + (uint32_t)dy)) break;
                    if (!CUT && !(bit_at(R, rw, yx + (uint32_t)dx, yy) & bit_at(R, rw, yx, yy + (uint32_t)dy))) break;
                    y = (uint32_t)((int32_t)y + o);
                    yx = (uint32_t)((int32_t)yx + dx);
                    yy = (uint32_t)((int32_t)yy + dy);
                    kk++;
                    if (y == goal) {
                        PF__JEMIT(y, gc + (double)kk * PF__SQRT2, d ^ 2u, yx, yy);
                        break;
                    }
                }
                const double gy_ = gc + (double)kk * PF__SQRT2;
                if (CUT) {
                    /* forced neighbours of a diagonal arrival: a blocked side behind, open beyond */
                    uint32_t op = PLUS ? open_moves(D, y) : open_bits(x->rows, rw, yx, yy);
                    uint32_t hb = h ^ 2u, vb = v ^ 2u;
                    if ((!(op >> hb & 1u) && (op >> DIAG[hb][v] & 1u)) || (!(op >> vb & 1u) && (op >> DIAG[h][vb] & 1u))) {
                        PF__JEMIT(y, gy_, d ^ 2u, yx, yy);
                        break;
                    }
                }
                uint32_t nh = PLUS ? plus_straight(D, y, yx, yy, h, gx, gy) : jump_straight(x, rw, cw, yx, yy, h, CUT);
                if (nh)
                    PF__JEMIT((uint32_t)((int32_t)y + (int32_t)nh * oh), gy_ + (double)nh, h ^ 2u,
                              (uint32_t)((int32_t)yx + (int32_t)nh * DX[h]), yy);
                uint32_t nv = PLUS ? plus_straight(D, y, yx, yy, v, gx, gy) : jump_straight(x, rw, cw, yx, yy, v, CUT);
                if (nv)
                    PF__JEMIT((uint32_t)((int32_t)y + (int32_t)nv * ov), gy_ + (double)nv, v ^ 2u, yx,
                              (uint32_t)((int32_t)yy + (int32_t)nv * DY[v]));
            }
        }
        PF__JFLUSH();
    }
#undef PF__JEMIT
#undef PF__JFLUSH
    return s->pruned ? PF_LIMIT_REACHED : PF_NO_PATH;
}

static pf_status run_nocut(pf_ctx *c, uint32_t b) { return jps_run(c, b, 0, 0); }
static pf_status run_cut(pf_ctx *c, uint32_t b) { return jps_run(c, b, 1, 0); }
static pf_status run_plus_nocut(pf_ctx *c, uint32_t b) { return jps_run(c, b, 0, 1); }
static pf_status run_plus_cut(pf_ctx *c, uint32_t b) { return jps_run(c, b, 1, 1); }

pf_status pf__jps_step(pf_ctx *c, uint32_t budget)
{
    const pf__jps_ext *x = c->ext;
    if (!x || !x->parent) return PF_INVALID_ARGUMENT;
    if (x->dist) return x->cut ? run_plus_cut(c, budget) : run_plus_nocut(c, budget);
    return x->cut ? run_cut(c, budget) : run_nocut(c, budget);
}

const uint32_t *pf__jps_path(const pf_ctx *c, uint32_t *len)
{
    const pf__jps_ext *x = c->ext;
    *len = x ? x->path_len : 0;
    return x ? x->path : NULL;
}

int pf__jps_has_plus(const pf_ctx *c)
{
    const pf__jps_ext *x = c->ext;
    return x && ((x->shared && x->shared->dist) || x->own.dist);
}
