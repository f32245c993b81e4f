/* jps_table.c - JPS data built from an immutable map: wall bitmaps and JPS+ distances.
 *
 * Everything here is a pure function of the map, written into memory no other thread sees until
 * the build returns, so the result is identical for any thread count. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise */
#endif
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "jps/jps_internal.h"
#include "map/grid_moves_internal.h"
#include "common/par_internal.h"
#include "grow_internal.h"
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* JPS reads a few cells per jump point at random places of arrays of tens of megabytes: with
 * 4 KiB pages nearly every read is also a TLB miss. 2 MiB pages (transparent huge pages, when the
 * system offers them on request) cut that; the advice covers only whole 2 MiB pages inside the
 * block, so it is harmless for memory from a user allocator. */
void pf__jps_hugepages(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), e = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (p && e > a) (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}


int pf__jps_map_ok(const pf_map *m)
{
    return m && m->kind == PF_MAP_GRID && !m->cost &&
           (m->moves == PF_MOVES_8_NO_CUT || m->moves == PF_MOVES_8_CUT);
}

int pf_jps_supported(const pf_map *map) { return pf__jps_map_ok(map); }

static uint32_t line_words(uint32_t len) { return (len + 127u) / 64u + 1u; }

void pf__jps_table_init(pf_jps_table *t, const pf_map *m, const pf_allocator *a)
{
    memset(t, 0, sizeof *t);
    t->map = m;
    t->fingerprint = m->fingerprint;
    t->version = m->version;
    t->alloc = pf__alloc_resolve(a);
    t->rw = line_words(m->pw);
    t->cw = line_words(m->ph);
}

pf_status pf__jps_table_class(pf_jps_table *t, uint8_t k, const pf__par *par)
{
    if (t->rows[k]) return PF_OK;
    size_t bytes;
    pf_status st = pf__jps_bitmaps(t->map, &t->alloc, k, 1, par, &t->rows[k], &t->cols[k], &bytes);
    if (st == PF_OK) t->bytes += bytes;
    return st;
}

typedef struct bitmap_job {
    const pf_map *m;
    uint64_t     *rows, *cols;
    uint32_t      rw, cw, rjobs; /* jobs [0, rjobs) fill rows, the others columns */
    uint8_t       size;
    uint8_t       open[256];     /* the classes the unit may stand on: its own, or a filter's set */
} bitmap_job;

/* a unit of side `size` is open on a cell of its classes whose clearance holds its footprint */
#define PF__BIT_OPEN(c, x) (open[(c)[x]] && (size <= 1 || clr[(size_t)((c) - cls) + (x)] >= size))

/* Rows and columns in one loop (one start of the workers): the first rjobs jobs take slices of rows,
 * the others slices of 64-column blocks. */
static void bitmap_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    const bitmap_job *j = ctx;
    const uint32_t pw = j->m->pw, ph = j->m->ph, rw = j->rw, cw = j->cw;
    const uint8_t *cls = j->m->cls, *clr = j->m->clr, *open = j->open, size = j->size;
    uint64_t *rows = j->rows, *cols = j->cols;
    const uint32_t nb = (pw + 63u) / 64u, rj = j->rjobs, cj = rj; /* as many column jobs as row jobs */
    (void)worker;
    for (uint64_t job = begin; job < end; job++) {
        if (job < rj) {
            uint32_t y0 = (uint32_t)((uint64_t)ph * job / rj), y1 = (uint32_t)((uint64_t)ph * (job + 1) / rj);
            for (uint32_t y = y0; y < y1; y++) {
                uint64_t *line = rows + (size_t)y * rw;
                const uint8_t *c = cls + (size_t)y * pw;
                for (uint32_t x = 0; x < pw; x++)
                    if (PF__BIT_OPEN(c, x)) line[(x + 64u) >> 6] |= UINT64_C(1) << ((x + 64u) & 63u);
            }
            continue;
        }
        /* The transpose by blocks of 64 columns: each job owns whole column lines (no shared
         * words), and a block's 64 lines stay in cache while the rows stream past. */
        uint64_t cjob = job - rj;
        uint32_t b0 = (uint32_t)((uint64_t)nb * cjob / cj), b1 = (uint32_t)((uint64_t)nb * (cjob + 1) / cj);
        for (uint32_t bx = b0; bx < b1; bx++) {
            uint32_t x0 = bx * 64u, x1 = x0 + 64u < pw ? x0 + 64u : pw;
            for (uint32_t y = 0; y < ph; y++) {
                const uint8_t *c = cls + (size_t)y * pw;
                uint64_t bit = UINT64_C(1) << ((y + 64u) & 63u);
                size_t w = (y + 64u) >> 6;
                for (uint32_t x = x0; x < x1; x++)
                    if (PF__BIT_OPEN(c, x)) cols[(size_t)x * cw + w] |= bit;
            }
        }
    }
}
#undef PF__BIT_OPEN

static pf_status bitmaps_of(const pf_map *m, const pf_allocator *a, const uint8_t open[256], uint8_t size,
                            const pf__par *par, uint64_t **rows_out, uint64_t **cols_out, size_t *bytes)
{
    const uint32_t pw = m->pw, ph = m->ph, rw = line_words(pw), cw = line_words(ph);
    pf_allocator al = *a;
    size_t rb = (size_t)ph * rw * sizeof(uint64_t), cb = (size_t)pw * cw * sizeof(uint64_t);
    uint64_t *rows = pf__calloc(&al, rb, 64);
    uint64_t *cols = pf__calloc(&al, cb, 64);
    if (!rows || !cols) {
        pf__free(&al, rows, rb);
        pf__free(&al, cols, cb);
        return PF_OUT_OF_MEMORY;
    }
    pf__par p = par ? *par : pf__par_build(NULL, 0, (size_t)pw * ph);
    bitmap_job j = {m, rows, cols, rw, cw, p.workers, size, {0}};
    memcpy(j.open, open, sizeof j.open);
    pf__par_for(&p, 2u * (uint64_t)p.workers, 1, bitmap_body, &j);
    *rows_out = rows;
    *cols_out = cols;
    *bytes = rb + cb;
    return PF_OK;
}

pf_status pf__jps_bitmaps(const pf_map *m, const pf_allocator *a, uint8_t k, uint8_t size, const pf__par *par,
                          uint64_t **rows_out, uint64_t **cols_out, size_t *bytes)
{
    uint8_t open[256] = {0};
    open[k] = 1;
    return bitmaps_of(m, a, open, size, par, rows_out, cols_out, bytes);
}

pf_status pf__jps_bitmaps_set(const pf_map *m, const pf_allocator *a, const uint8_t set[32], const pf__par *par,
                              uint64_t **rows_out, uint64_t **cols_out, size_t *bytes)
{
    uint8_t open[256];
    for (uint32_t k = 0; k < 256; k++) open[k] = (uint8_t)(k && (((unsigned)set[k >> 3] >> (k & 7u)) & 1u));
    return bitmaps_of(m, a, open, 1, par, rows_out, cols_out, bytes);
}

/* The bits of padded cell (x, y), open or not, in both bitmaps. */
static void bit_set(const pf_map *m, uint64_t *rows, uint64_t *cols, uint32_t x, uint32_t y, int open)
{
    const uint32_t rw = line_words(m->pw), cw = line_words(m->ph);
    uint64_t bx = UINT64_C(1) << ((x + 64u) & 63u), by = UINT64_C(1) << ((y + 64u) & 63u);
    uint64_t *wr = &rows[(size_t)y * rw + ((x + 64u) >> 6)];
    uint64_t *wc = &cols[(size_t)x * cw + ((y + 64u) >> 6)];
    if (open) {
        *wr |= bx;
        *wc |= by;
    } else {
        *wr &= ~bx;
        *wc &= ~by;
    }
}

void pf__jps_bitmaps_edit(const pf_map *m, const uint8_t set[32], uint64_t *rows, uint64_t *cols,
                          const pf__edit_view *e)
{
    for (uint32_t r = 0; r < e->count; r++) {
        const pf_rect *q = &e->rects[r];
        for (uint32_t y = (uint32_t)q->y + 1u; y <= (uint32_t)q->y + q->h; y++)
            for (uint32_t x = (uint32_t)q->x + 1u; x <= (uint32_t)q->x + q->w; x++) {
                uint8_t k = m->cls[(size_t)y * m->pw + x];
                bit_set(m, rows, cols, x, y, k && (((unsigned)set[k >> 3] >> (k & 7u)) & 1u));
            }
    }
}

void pf__jps_bitmaps_edit_sized(const pf_map *m, uint8_t k, uint8_t size, uint64_t *rows, uint64_t *cols,
                                const pf__edit_view *e)
{
    for (uint32_t r = 0; r < e->count; r++) {
        const pf_rect *q = &e->rects[r];
        /* the cells whose size x size block (they are its top-left) meets the rectangle: the
         * clearance of no other cell changed below `size` or to it (map/clearance.c) */
        const uint32_t x0 = (uint32_t)q->x + 1u > size ? (uint32_t)q->x + 2u - size : 1u;
        const uint32_t y0 = (uint32_t)q->y + 1u > size ? (uint32_t)q->y + 2u - size : 1u;
        for (uint32_t y = y0; y <= (uint32_t)q->y + q->h; y++)
            for (uint32_t x = x0; x <= (uint32_t)q->x + q->w; x++) {
                const size_t i = (size_t)y * m->pw + x;
                bit_set(m, rows, cols, x, y, m->cls[i] == k && m->clr[i] >= size);
            }
    }
}

/* Is n a jump point when entered moving straight in direction a (class k)? */
static int forced_straight(const uint8_t *cls, const int32_t *off, uint32_t n, uint32_t a, uint8_t k, int cut)
{
    uint32_t p1 = (a + 1u) & 3u, p2 = (a + 3u) & 3u;
    if (!cut) {
        /* no corner cutting: a side cell that opens up beside n after being blocked beside the
         * cell behind can only be reached through n */
        uint32_t b = (uint32_t)((int32_t)n - off[a]);
        return (cls[(uint32_t)((int32_t)b + off[p1])] != k && cls[(uint32_t)((int32_t)n + off[p1])] == k) ||
               (cls[(uint32_t)((int32_t)b + off[p2])] != k && cls[(uint32_t)((int32_t)n + off[p2])] == k);
    }
    uint32_t f = (uint32_t)((int32_t)n + off[a]);
    return (cls[(uint32_t)((int32_t)n + off[p1])] != k && cls[(uint32_t)((int32_t)f + off[p1])] == k) ||
           (cls[(uint32_t)((int32_t)n + off[p2])] != k && cls[(uint32_t)((int32_t)f + off[p2])] == k);
}

/* Corner cutting only: forced neighbours of n entered diagonally in direction d. */
static int forced_diag_cut(const uint8_t *cls, const int32_t *off, uint32_t n, uint32_t d, uint8_t k)
{
    int32_t oh = off[pf__dir_h[d]], ov = off[pf__dir_v[d]];
    int32_t i = (int32_t)n;
    return (cls[i - oh] != k && cls[i - oh + ov] == k) || (cls[i - ov] != k && cls[i + oh - ov] == k);
}

PF__INLINE int16_t extend(int16_t v) { return (int16_t)(v > 0 ? v + 1 : v - 1); }

/* One cell, one straight direction: needs dist of the next cell in that direction. */
PF__INLINE void dist_straight(int16_t *D, const uint8_t *cls, const int32_t *off, uint32_t i, uint32_t a, int cut)
{
    uint8_t k = cls[i];
    if (!k) return;
    uint32_t n = (uint32_t)((int32_t)i + off[a]);
    int16_t v;
    if (cls[n] != k) v = 0;
    else if (forced_straight(cls, off, n, a, k, cut)) v = 1;
    else v = extend(D[(size_t)n * 8u + a]);
    D[(size_t)i * 8u + a] = v;
}

/* One cell, one diagonal: needs the straight distances of the next cell and its diagonal one. */
PF__INLINE void dist_diag(int16_t *D, const uint8_t *cls, const int32_t *off, uint32_t i, uint32_t d, int cut)
{
    uint8_t k = cls[i];
    if (!k) return;
    uint32_t n = (uint32_t)((int32_t)i + off[d]);
    int16_t v;
    const pf__grid_view gv = {.cls = cls, .off = off};
    if (!pf__grid_diag_ok(&gv, i, d, (pf__unit){k, 1}, cut))
        v = 0;
    else if (D[(size_t)n * 8u + pf__dir_h[d]] > 0 || D[(size_t)n * 8u + pf__dir_v[d]] > 0 ||
             (cut && forced_diag_cut(cls, off, n, d, k)))
        v = 1;
    else v = extend(D[(size_t)n * 8u + d]);
    D[(size_t)i * 8u + d] = v;
}

typedef struct dist_job {
    int16_t       *D;
    const uint8_t *cls;
    const int32_t *off;
    uint32_t       pw, ph, rjobs; /* pass 0: jobs [0, rjobs) take rows, the others column blocks */
    int            cut;
} dist_job;

/* Straight runs are independent per row (E, W) and per column (N, S); each sweep goes against its
 * direction so the next cell is always done. Borders stay 0 (blocked). Rows and columns share one
 * loop, as the bitmaps do (bitmap_body). */
static void dist_straight_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    const dist_job *j = ctx;
    int16_t *D = j->D;
    const uint8_t *cls = j->cls;
    const int32_t *off = j->off;
    const uint32_t pw = j->pw, ph = j->ph, rj = j->rjobs, nb = (pw + 15u) / 16u;
    const int cut = j->cut;
    (void)worker;
    for (uint64_t job = begin; job < end; job++) {
        if (job < rj) {
            uint32_t y0 = 1u + (uint32_t)((uint64_t)(ph - 2u) * job / rj);
            uint32_t y1 = 1u + (uint32_t)((uint64_t)(ph - 2u) * (job + 1) / rj);
            for (uint32_t y = y0; y < y1; y++) {
                uint32_t row = y * pw;
                for (uint32_t x = pw - 2; x >= 1; x--) dist_straight(D, cls, off, row + x, 1, cut);
                for (uint32_t x = 1; x < pw - 1; x++) dist_straight(D, cls, off, row + x, 3, cut);
            }
            continue;
        }
        /* columns in blocks of 16 so a sweep reads rows in runs */
        uint64_t cjob = job - rj;
        uint32_t b0 = (uint32_t)((uint64_t)nb * cjob / rj), b1 = (uint32_t)((uint64_t)nb * (cjob + 1) / rj);
        for (uint32_t bx = b0; bx < b1; bx++) {
            uint32_t x0 = bx * 16u > 0 ? bx * 16u : 1u;
            uint32_t x1 = bx * 16u + 16u < pw - 1 ? bx * 16u + 16u : pw - 1;
            for (uint32_t y = 1; y < ph - 1; y++)
                for (uint32_t x = x0; x < x1; x++) dist_straight(D, cls, off, y * pw + x, 0, cut);
            for (uint32_t y = ph - 2; y >= 1; y--)
                for (uint32_t x = x0; x < x1; x++) dist_straight(D, cls, off, y * pw + x, 2, cut);
        }
    }
}

static void dist_main_line(const dist_job *j, int64_t l)
{
    int16_t *D = j->D;
    const uint8_t *cls = j->cls;
    const int32_t *off = j->off;
    const uint32_t pw = j->pw, ph = j->ph;
    const int cut = j->cut;
    /* diagonal x - y = l - (ph - 1): NW steps to (x-1, y-1), SE to (x+1, y+1) */
    int64_t dxy = l - (int64_t)(ph - 1u);
    uint32_t y0 = dxy >= 0 ? 0u : (uint32_t)(-dxy);
    uint32_t y1 = (int64_t)(pw - 1u) - dxy < (int64_t)(ph - 1u) ? (uint32_t)((int64_t)(pw - 1u) - dxy) : ph - 1u;
    for (uint32_t y = y0; y <= y1; y++) {
        uint32_t x = (uint32_t)((int64_t)y + dxy);
        if (y && y < ph - 1 && x && x < pw - 1) dist_diag(D, cls, off, y * pw + x, 7, cut);
    }
    for (uint32_t y = y1 + 1u; y-- > y0;) {
        uint32_t x = (uint32_t)((int64_t)y + dxy);
        if (y && y < ph - 1 && x && x < pw - 1) dist_diag(D, cls, off, y * pw + x, 5, cut);
    }
}

/* Diagonals: a cell needs the next cell along its own diagonal, so every diagonal line is an
 * independent chain, swept against each direction. Lines (not rows) keep the number of loops at
 * two: on a loaded machine each start of the workers can cost a scheduler time slice. A diagonal
 * distance reads the straight ones and its own direction's only, so the NE/SW lines (jobs
 * [0, lines)) and the NW/SE ones ([lines, 2 lines)) share the loop. */
static void dist_diag_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    const dist_job *j = ctx;
    int16_t *D = j->D;
    const uint8_t *cls = j->cls;
    const int32_t *off = j->off;
    const uint32_t pw = j->pw, ph = j->ph, lines = pw + ph - 1u;
    const int cut = j->cut;
    (void)worker;
    for (uint64_t job = begin; job < end; job++) {
        if (job >= lines) {
            dist_main_line(j, (int64_t)(job - lines));
            continue;
        }
        uint32_t l = (uint32_t)job;
        /* anti-diagonal x + y = l: NE steps to (x+1, y-1), SW to (x-1, y+1) */
        uint32_t y0 = l < pw ? 0u : l - (pw - 1u);
        uint32_t y1 = l < ph ? l : ph - 1u;
        for (uint32_t y = y0; y <= y1; y++) {
            uint32_t x = l - y;
            if (y && y < ph - 1 && x && x < pw - 1) dist_diag(D, cls, off, y * pw + x, 4, cut);
        }
        for (uint32_t y = y1 + 1u; y-- > y0;) {
            uint32_t x = l - y;
            if (y && y < ph - 1 && x && x < pw - 1) dist_diag(D, cls, off, y * pw + x, 6, cut);
        }
    }
}

/* Every distance of D from the classes alone: what the build does, and what an edit too large to
 * follow cell by cell does in place (allocating nothing). */
static void dist_fill(int16_t *D, const pf_map *m, const pf__par *p)
{
    const uint32_t pw = m->pw, ph = m->ph;
    memset(D, 0, (size_t)pw * ph * 8u * sizeof(int16_t));
    dist_job j = {D, m->cls, m->nb_off[0], pw, ph, p->workers, m->moves == PF_MOVES_8_CUT};
    pf__par_for(p, 2u * (uint64_t)p->workers, 1, dist_straight_body, &j);
    pf__par_for(p, 2u * ((uint64_t)pw + ph - 1u), 32, dist_diag_body, &j);
}

pf_status pf__jps_table_dist(pf_jps_table *t, const pf__par *par)
{
    if (t->dist) return PF_OK;
    const pf_map *m = t->map;
    const uint32_t pw = m->pw, ph = m->ph;
    size_t bytes = (size_t)pw * ph * 8u * sizeof(int16_t);
    int16_t *D = pf__alloc(&t->alloc, bytes, 64);
    if (!D) return PF_OUT_OF_MEMORY;
    pf__jps_hugepages(D, bytes); /* before the first touch, so the pages are born huge */
    pf__par p = par ? *par : pf__par_build(NULL, 0, (size_t)pw * ph);
    dist_fill(D, m, &p);
    t->dist = D;
    t->bytes += bytes;
    return PF_OK;
}

/* ---- following edits ----------------------------------------------------------------------------
 *
 * Bitmaps: the edited cells' bits, per class. Distances: D[i][d] is a function of a few cells
 * within two steps of i and of D[i + step(d)][d] (diagonals also of the sign of the two straight
 * distances of i + step(d)). So after an edit:
 *   - seeds are the cells within two steps of a cell whose class changed, in all eight directions
 *     (the changed cells, not their edit's box: a footprint of the whole map that changes two
 *     cells seeds 144 entries, not 32 million);
 *   - a direction's seeds are recomputed in the order its dependencies run (the cell its step leads
 *     to first), and from each seed whose value changed the walk goes on backwards along the line
 *     while values keep changing: a wall put in a corridor rewrites the distances up to the
 *     previous wall or jump point, and no further;
 *   - straight directions come first; a straight distance whose sign changed (a jump point now
 *     seen, or no longer) seeds the two diagonals that test it, at the cell one diagonal step back.
 * A seed pushed (8 bytes, sorted) or an entry recomputed out of order costs about what the build
 * spends on a whole cell of eight entries. So the update cell by cell has a budget: interior cells
 * / PF__JPS_EDIT_SHARE seeds and recomputations (PF__JPS_EDIT_MIN at least). Past it (known in
 * advance from the seeds, or met on the walks), or when a seed cannot be allocated, every distance
 * is computed again in place by the build's own passes, allocating nothing: an edit costs at most
 * about a build and a share of one, and the distances never go stale. The result equals a fresh
 * build bit for bit (the tests compare them). */

/* The share of a build the update cell by cell may spend before it gives way to a recomputation:
 * on rooms-2000 a seed or a recomputation cost 30-70 ns, a build 60-85 ns a cell (one thread).
 * At least PF__JPS_EDIT_MIN on any map (a few buildings' worth, well under a millisecond). */
#define PF__JPS_EDIT_SHARE 4u
#define PF__JPS_EDIT_MIN 16384u

typedef struct seedvec {
    uint64_t *v;
    uint32_t  n, cap;
} seedvec;

/* The seeds of an update and what it may still spend. */
typedef struct seeding {
    seedvec             sv[8];
    uint64_t            left; /* seeds and recomputations before the budget is spent */
    const pf_allocator *a;
} seeding;

/* 0 when the budget is spent or the allocation failed. */
static int seed_push(seeding *s, uint32_t d, uint64_t x)
{
    seedvec *v = &s->sv[d];
    if (!s->left || !pf__grow(s->a, &v->v, &v->cap, (uint64_t)v->n + 1u, sizeof *v->v, 1024u, 0)) return 0;
    s->left--;
    v->v[v->n++] = x;
    return 1;
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

static const int8_t SX[8] = {0, 1, 0, -1, 1, 1, -1, -1};
static const int8_t SY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};

/* Sort key: cells further along direction d first (their value is an input of the cells behind). */
static uint64_t seed_key(const pf_map *m, uint32_t i, uint32_t d)
{
    int64_t x = i % m->pw, y = i / m->pw;
    int64_t k = (int64_t)m->pw + m->ph - (SX[d] * x + SY[d] * y);
    return ((uint64_t)k << 32) | i;
}

/* Recomputes D[i][d]; returns 1 when it changed. Blocked cells hold 0 (a fresh build's memset). */
static int redo(int16_t *D, const pf_map *m, uint32_t i, uint32_t d, int cut, int16_t *old)
{
    int16_t *p = &D[(size_t)i * 8u + d];
    *old = *p;
    if (!m->cls[i]) *p = 0;
    else if (d < 4) dist_straight(D, m->cls, m->nb_off[0], i, d, cut);
    else dist_diag(D, m->cls, m->nb_off[0], i, d, cut);
    return *p != *old;
}

static int interior(const pf_map *m, uint32_t i)
{
    uint32_t x = i % m->pw, y = i / m->pw;
    return x >= 1 && y >= 1 && x + 1 < m->pw && y + 1 < m->ph;
}

/* 64 bits of a row of changed-class bits from bit `pos` on (pf__edit_view's layout). */
static uint64_t chg_window(const uint64_t *row, uint32_t pos)
{
    const uint32_t w = pos >> 6, s = pos & 63u;
    return s ? (row[w] >> s) | (row[w + 1] << (64u - s)) : row[w];
}

/* Which of padded cells x .. min(x + 63, x1) of row y are seeds: within two steps of a cell whose
 * class changed (bit j for cell x + j). Border rows never change. The five rows' bits of cells
 * x - 2 .. x + 65 are OR-ed first (v0: the first 64, v1: the last 4; v1's window may end in the
 * next row's first word, which the shifts below drop), then spread sideways. */
static uint64_t seed_mask(const pf_map *m, const pf__edit_view *e, uint32_t x, uint32_t y, uint32_t x1)
{
    uint64_t v0 = 0, v1 = 0;
    for (uint32_t yy = y > 2u ? y - 2u : 1u; yy <= y + 2u && yy + 1u < m->ph; yy++) {
        const uint64_t *row = e->cls_changed + (size_t)yy * e->cls_words;
        v0 |= chg_window(row, x + 62u);
        v1 |= chg_window(row, x + 126u);
    }
    uint64_t any = v0;
    for (uint32_t dx = 1; dx <= 4; dx++) any |= (v0 >> dx) | (v1 << (64u - dx));
    return x1 - x >= 63u ? any : any & ((UINT64_C(1) << (x1 - x + 1u)) - 1u);
}

/* The seed cells of box r (unpadded), grown by two inside the border: counted into *count, or with
 * s given pushed in all eight directions (0 when a push fails). */
static int box_seeds(const pf_map *m, const pf__edit_view *e, const pf_rect *r, uint64_t *count, seeding *s)
{
    const uint32_t x0 = r->x >= 2 ? (uint32_t)r->x - 1u : 1u, y0 = r->y >= 2 ? (uint32_t)r->y - 1u : 1u;
    const uint32_t x1 = (uint32_t)r->x + r->w + 2u < m->pw - 2u ? (uint32_t)r->x + r->w + 2u : m->pw - 2u;
    const uint32_t y1 = (uint32_t)r->y + r->h + 2u < m->ph - 2u ? (uint32_t)r->y + r->h + 2u : m->ph - 2u;
    for (uint32_t y = y0; y <= y1; y++)
        for (uint32_t x = x0; x <= x1; x += 64u) {
            uint64_t b = seed_mask(m, e, x, y, x1);
            if (!s) {
                for (; b; b &= b - 1u) (*count)++;
                continue;
            }
            for (; b; b &= b - 1u) {
                uint32_t i = y * m->pw + x + pf__ctz64(b);
                for (uint32_t d = 0; d < 8; d++)
                    if (!seed_push(s, d, seed_key(m, i, d))) return 0;
            }
        }
    return 1;
}

/* The distances after the edit, seed by seed; 0 when the budget ran out or a seed could not be
 * allocated (D is then partly updated: only a recomputation of all of it helps). */
static int dist_seeds(pf_jps_table *t, const pf__edit_view *e, seeding *s, uint32_t *updated)
{
    const pf_map *m = t->map;
    const int cut = m->moves == PF_MOVES_8_CUT;
    const int32_t *off = m->nb_off[0];
    int16_t *D = t->dist;
    int ok = 1;
    uint64_t walked = 0; /* entries rewritten along the walks: with the seeds, within the budget */
    uint32_t n = 0;      /* locals, not *updated and s->left: the stores through D may alias neither */
    for (uint32_t r = 0; r < e->count && ok; r++) ok = box_seeds(m, e, &e->rects[r], NULL, s);
    for (uint32_t d = 0; d < 8 && ok; d++) {
        seedvec *sv = &s->sv[d];
        if (sv->n) qsort(sv->v, sv->n, sizeof *sv->v, cmp_u64); /* none: only multipliers changed */
        for (size_t k = 0; k < sv->n && ok; k++) {
            uint32_t i = (uint32_t)sv->v[k];
            if (k && (uint32_t)sv->v[k - 1] == i) continue;
            int16_t was;
            uint32_t steps = 0;
            while (ok && redo(D, m, i, d, cut, &was)) {
                steps++;
                int16_t now = D[(size_t)i * 8u + d];
                if (d < 4 && (was > 0) != (now > 0)) {
                    /* the diagonals that test this straight distance, one step back from i */
                    for (uint32_t g = 4; g < 8 && ok; g++) {
                        if (pf__dir_h[g] != d && pf__dir_v[g] != d) continue;
                        uint32_t j = (uint32_t)((int32_t)i - off[g]);
                        if (interior(m, j)) ok = seed_push(s, g, seed_key(m, j, g));
                    }
                }
                i = (uint32_t)((int32_t)i - off[d]);
                if (!interior(m, i)) break;
            }
            /* the budget is checked once a walk (one line's length past it at most) */
            n += steps + 1u;
            walked += steps;
            ok = ok && walked <= s->left;
        }
    }
    *updated = n;
    return ok;
}

static void edit_dist(pf_jps_table *t, const pf__edit_view *e, uint32_t *updated)
{
    const pf_map *m = t->map;
    const uint64_t inner = (uint64_t)(m->pw - 2u) * (m->ph - 2u);
    /* the seed cells: at most the boxes grown by two, counted only when those pass the budget */
    uint64_t cells = 0;
    for (uint32_t r = 0; r < e->count; r++) cells += ((uint64_t)e->rects[r].w + 4u) * (e->rects[r].h + 4u);
    if (cells * 8u > (inner / PF__JPS_EDIT_SHARE > PF__JPS_EDIT_MIN ? inner / PF__JPS_EDIT_SHARE : PF__JPS_EDIT_MIN)) {
        cells = 0;
        for (uint32_t r = 0; r < e->count; r++) (void)box_seeds(m, e, &e->rects[r], &cells, NULL);
    }
    seeding s = {.left = inner / PF__JPS_EDIT_SHARE > PF__JPS_EDIT_MIN ? inner / PF__JPS_EDIT_SHARE : PF__JPS_EDIT_MIN,
                 .a = &t->alloc};
    uint32_t n = 0;
    /* eight seeds a cell, known before any is pushed */
    int done = cells * 8u <= s.left && dist_seeds(t, e, &s, &n);
    for (uint32_t d = 0; d < 8; d++) pf__free(&t->alloc, s.sv[d].v, (size_t)s.sv[d].cap * sizeof *s.sv[d].v);
    if (!done) {
        pf__par p = pf__par_build(&t->hook, t->threads, (size_t)m->pw * m->ph);
        dist_fill(t->dist, m, &p);
        n = 8u * inner > UINT32_MAX ? UINT32_MAX : (uint32_t)(8u * inner);
    }
    *updated = UINT32_MAX - *updated < n ? UINT32_MAX : *updated + n;
}

int pf__jps_table_edit(pf_jps_table *t, pf__edit_view *e)
{
    const pf_map *m = t->map;
    if (!m) return 1;
    if (t->version + 1u != e->version) {
        /* it missed an edit (an earlier failure): only a rebuild helps. A shared table stays
         * stale (searches report PF_WRONG_MAP); a context's own data is rebuilt on demand. */
        pf__jps_table_release(t);
        if (t->all_classes) return 1; /* stale already (reported by the edit that failed it) */
        t->version = e->version;
        t->fingerprint = m->fingerprint;
        return 1;
    }
    /* the bits of the cells whose class changed: a class new to the map gets its bitmaps first
     * (built from the edited map, on the build's threads), then every class's bit of each such
     * cell is written */
    const pf__par cpar = pf__par_build(&t->hook, t->threads, (size_t)m->pw * m->ph);
    for (int pass = 0; pass < 2; pass++) {
        uint8_t ks[255];
        uint32_t nk = 0;
        for (uint32_t k = 1; pass && k < 256; k++)
            if (t->rows[k]) ks[nk++] = (uint8_t)k;
        for (uint32_t r = 0; r < e->count; r++) {
            const pf_rect *q = &e->rects[r];
            const uint32_t x1 = (uint32_t)q->x + q->w;
            for (uint32_t y = (uint32_t)q->y + 1u; y <= (uint32_t)q->y + q->h; y++)
                for (uint32_t x0 = (uint32_t)q->x + 1u; x0 <= x1; x0 += 64u) {
                    uint64_t b = chg_window(e->cls_changed + (size_t)y * e->cls_words, x0 + 64u);
                    if (x1 - x0 < 63u) b &= (UINT64_C(1) << (x1 - x0 + 1u)) - 1u;
                    for (; b; b &= b - 1u) {
                        const uint32_t x = x0 + pf__ctz64(b);
                        const uint8_t c = m->cls[(size_t)y * m->pw + x];
                        if (!pass) {
                            if (c && !t->rows[c] && t->all_classes && pf__jps_table_class(t, c, &cpar) != PF_OK) return 0;
                            continue;
                        }
                        for (uint32_t j = 0; j < nk; j++) bit_set(m, t->rows[ks[j]], t->cols[ks[j]], x, y, c == ks[j]);
                    }
                }
        }
    }
    if (t->dist) edit_dist(t, e, &e->jps_updated);
    t->version = e->version;
    t->fingerprint = m->fingerprint;
    return 1;
}

void pf__jps_table_release(pf_jps_table *t)
{
    const pf_map *m = t->map;
    if (!m) return;
    size_t rb = (size_t)m->ph * t->rw * sizeof(uint64_t), cb = (size_t)m->pw * t->cw * sizeof(uint64_t);
    for (int k = 0; k < 256; k++) {
        pf__free(&t->alloc, t->rows[k], rb);
        pf__free(&t->alloc, t->cols[k], cb);
        t->rows[k] = t->cols[k] = NULL;
    }
    pf__free(&t->alloc, t->dist, (size_t)m->pw * m->ph * 8u * sizeof(int16_t));
    t->dist = NULL;
    t->bytes = 0;
}

static int table_after_edit(pf__map_user *u, const pf_map *m, pf__edit_view *e)
{
    pf_jps_table *t = (pf_jps_table *)(void *)((char *)u - offsetof(pf_jps_table, user));
    (void)m;
    return pf__jps_table_edit(t, e);
}

pf_status pf_jps_table_create(const pf_map *map, const pf_jps_desc *desc, pf_jps_table **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    if (!map) return PF_INVALID_ARGUMENT;
    if (!pf__jps_map_ok(map)) return PF_UNSUPPORTED;
    pf_jps_desc d = desc ? *desc : (pf_jps_desc){0};
    pf_allocator a = pf__alloc_resolve(&d.allocator);
    pf_jps_table *t = pf__alloc(&a, sizeof *t, 64);
    if (!t) return PF_OUT_OF_MEMORY;
    pf__jps_table_init(t, map, &a);
    t->all_classes = 1;
    /* an edit that recomputes the distances in place runs on the build's OpenMP threads; a hook
     * is the caller's for this call only (pf_parallel.h), so there it runs serially */
    t->threads = d.parallel.run ? 1u : d.threads;
    /* the table follows the map's edits; while it builds, the map must not change */
    t->user.after = table_after_edit;
    t->user.data = 1;
    pf__map_attach(map, &t->user);
    if (!pf__map_enter(map, &t->user)) {
        pf_jps_table_destroy(t);
        return PF_MAP_BUSY;
    }
    int present[256] = {0};
    size_t cells = (size_t)map->pw * map->ph;
    for (size_t i = 0; i < cells; i++) present[map->cls[i]] = 1;
    pf_status st = PF_OK;
    const pf__par par = pf__par_build(&d.parallel, d.threads, cells);
    for (int k = 1; k < 256 && st == PF_OK; k++)
        if (present[k]) st = pf__jps_table_class(t, (uint8_t)k, &par);
    if (st == PF_OK && !d.bitmaps_only) st = pf__jps_table_dist(t, &par);
    pf__map_leave(&t->user);
    if (st != PF_OK) {
        pf_jps_table_destroy(t);
        return st;
    }
    *out = t;
    return PF_OK;
}

void pf_jps_table_destroy(pf_jps_table *t)
{
    if (!t) return;
    pf_allocator a = t->alloc;
    pf__map_detach(t->map, &t->user);
    pf__jps_table_release(t);
    pf__free(&a, t, sizeof *t);
}

size_t pf_jps_table_mem_size(const pf_jps_table *t) { return t ? sizeof *t + t->bytes : 0; }
