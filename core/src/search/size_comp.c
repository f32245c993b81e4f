/* size_comp.c - which cells a unit larger than one cell can reach, labelled for the whole map.
 *
 * The map's components (map/components.c) are for one-cell units: two cells in one of them may
 * still be apart for a 2x2 unit behind a one-cell gap, and a search for it then floods all it can
 * reach to say PF_NO_PATH (on random-2000-20 for size 2: 330 us a query where the map eroded for
 * size 2, whose components answer at once, takes 0.5 us). So a context labels, for the size of
 * its sized queries, every position of the map the unit can stand on, and answers from the labels:
 * a step stays in one class, so the classes share them. A query of another size makes them afresh.
 * 4 bytes a cell, made by the first sized query.
 *
 * WHOLE MAP, BY RUNS (label_rows). Until 2026-11-27 a query labelled only the components of its
 * start and goal, by a flood, the first time it met them: a 2x2 unit's first query on rooms-2000
 * flooded the main component, 3.55 million cells and 80-130 ms, inside the frame (the RTS replay's
 * frame p99 of 78 ms was that, on each context, after each edit that could not be followed
 * locally). Labelled whole from each row's runs, rooms-2000 costs 2.2 ms of CPU (85 ms by flood),
 * maze-2000-w4 7 ms (68), random-2000-20 13 ms (bench_size_comp): rows of many short runs cost
 * by the run, about 10 ns each. Random maps paid least by flood (a query meets a small component:
 * 20 us), and pay the whole map once now where they paid at every query.
 *
 * EDITS do not start them afresh (flooding the main component again after every building, on every
 * context of a batch, was 22% of the replay's cycles). The edit callback relabels only a window
 * around each changed rectangle (grown by the unit size and one cell for the diagonal rule): its
 * cells are flooded locally, over the window and the ring of cells just outside it, whose labels
 * the edit cannot change. A piece of the window that meets ring cells takes their label, and the
 * labels it joins are merged (a union-find over labels, so opening a wall is one union); a piece
 * that meets none is a component of its own, with a new label. A label whose ring cells fall into
 * two local pieces may have been cut in two: its component is flooded again from those ring cells
 * (split_cut: each part a new label; small on random maps), or, past a 64th of the map's cells,
 * the whole map is labelled again, in the edit rather than in the next query's frame (a maze
 * corridor closed; in rooms, a building in a room never cuts). So every position the unit can
 * stand on always holds a label, and two hold the same root iff they are connected.
 *
 * PER CONTEXT, not in the map: the map is read-only while a batch runs, so labels kept there would
 * have to be made outside runs for every size and filter a game might ask about, or under a lock
 * by whichever worker asks first. Answers do not depend on which context labelled (the labels only
 * say joined or apart), and a parked search hands its context's labels to its worker
 * (pf__ctx_hand_over), so a batch holds about one set per worker.
 *
 * MOVEMENT TYPES. A unit under a filter moves by the sized filtered rule (grid_moves_internal.h):
 * its runs and floods cross every class the filter allows, so the labels are for one set of
 * classes, kept beside the size; asking about another set makes them afresh, as another size
 * does. They read the blocks themselves (a row pass for label_rows); the nearest-cell scan reads
 * the context's memo of open blocks (fsize.c). */
#include <stdlib.h>
#include <string.h>
#include "search/ctx_internal.h"
#include "map/grid_moves_internal.h"
#include "search/size_comp_internal.h"
#include "search/fsize_internal.h"
#include "map/nearest_internal.h"
#include "grow_internal.h"

/* A run of a row: columns [a, b) of padded cells open to the unit, of class k (1 under a filter),
 * labelled l (a root when made). */
typedef struct szrun { uint32_t a, b, l, k; } szrun;

struct pf__szcomp {
    uint32_t *lab;     /* [count] component label, 0 = the unit cannot stand there; compare roots (find) */
    uint32_t *queue;   /* [queue_cap] an edit window's local flood, and split_cut's */
    uint32_t  queue_cap;
    uint32_t *par;     /* [par_cap] union-find over labels: par[l] == l for a root */
    uint32_t  par_cap;
    uint32_t  next;    /* the last label given */
    uint64_t  version; /* the map version the labels describe */
    uint8_t   size;    /* and the unit size */
    int       filtered; /* and the filter's classes (flt.classes; its multipliers unused), or
                           none: each cell's own class */
    pf_move_filter flt;
    uint8_t  *seen;    /* [seen_cap] an edit window's local flood: cells visited */
    uint32_t  seen_cap;
    uint32_t *ring;    /* [ring_cap] pairs (cell, piece) of the ring cells met, for the cut test */
    uint32_t  ring_cap;
    uint32_t  nring;   /* pairs in ring */
    uint64_t *rkey;    /* [rkey_cap] the cut test's (root << 32 | ring index), sorted */
    uint32_t  rkey_cap;
    void     *rows;    /* [rows_bytes] label_all's scratch: a row's open values, its boundaries and
                          the runs of it and of the row above */
    size_t    rows_bytes;
};

/* label_all's scratch, carved from z->rows: a row's open values (pw + 8 bytes, the last 8 zero for
 * word loads), a filter's column values (pw), the row's boundaries and its segments' labels (pw + 1
 * each), and the runs of the row and of the row above (pw / 2 + 1 each). */
typedef struct scratch { uint8_t *o, *col; uint32_t *bnd, *segl; szrun *prev, *cur; } scratch;

static size_t scratch_bytes(uint32_t pw)
{
    return 2u * ((size_t)pw + 1u) * sizeof(uint32_t) + 2u * ((size_t)pw / 2u + 1u) * sizeof(szrun) + 2u * (size_t)pw + 8u;
}

static scratch scratch_of(void *rows, uint32_t pw)
{
    scratch t;
    t.bnd = rows; /* 64-byte aligned */
    t.segl = t.bnd + pw + 1u;
    t.prev = (szrun *)(void *)(t.segl + pw + 1u);
    t.cur = t.prev + pw / 2u + 1u;
    t.o = (uint8_t *)(void *)(t.cur + pw / 2u + 1u);
    t.col = t.o + pw + 8u;
    return t;
}

/* A window bigger than this (cells, ring included) is not relabelled locally: the whole map is
 * labelled again (an edit that large changes much of the map anyway). */
#define WINDOW_MAX (1u << 16)
/* Labels past the map's last cell: label_rows writes 8 labels a segment, and the last row's last
 * segment spills up to 7 past its row, past the blocked border row too when that is shorter (a
 * map under 5 cells wide). */
#define LAB_SPILL 8u
/* A ring cell's piece, marked: its label was met in another piece too (relabel_window). */
#define SUSPECT (1u << 31)

static void sized_destroy(pf_ctx *c, void *p)
{
    pf__szcomp *z = p;
    pf__free(&c->alloc, z->lab, ((size_t)c->count + LAB_SPILL) * sizeof(uint32_t));
    pf__free(&c->alloc, z->queue, (size_t)z->queue_cap * sizeof(uint32_t));
    pf__free(&c->alloc, z->par, (size_t)z->par_cap * sizeof(uint32_t));
    pf__free(&c->alloc, z->seen, z->seen_cap);
    pf__free(&c->alloc, z->ring, (size_t)z->ring_cap * sizeof(uint32_t));
    pf__free(&c->alloc, z->rkey, (size_t)z->rkey_cap * sizeof(uint64_t));
    pf__free(&c->alloc, z->rows, z->rows_bytes);
    pf__free(&c->alloc, z, sizeof *z);
}

static void *sized_create(pf_ctx *c)
{
    pf__szcomp *z = pf__calloc(&c->alloc, sizeof *z, 64);
    if (!z) return NULL;
    z->lab = pf__alloc(&c->alloc, ((size_t)c->count + LAB_SPILL) * sizeof(uint32_t), 64);
    z->rows_bytes = scratch_bytes(c->map->pw);
    z->rows = pf__alloc(&c->alloc, z->rows_bytes, 64);
    if (!z->lab || !z->rows) {
        sized_destroy(c, z);
        return NULL;
    }
    z->version = ~c->map->version; /* not labelled yet */
    return z;
}

static uint32_t find(pf__szcomp *z, uint32_t l)
{
    while (z->par[l] != l) {
        z->par[l] = z->par[z->par[l]]; /* path halving */
        l = z->par[l];
    }
    return l;
}

/* The smaller root stays: the same merges give the same roots on every machine. */
static uint32_t join(pf__szcomp *z, uint32_t a, uint32_t b)
{
    a = find(z, a);
    b = find(z, b);
    if (a == b) return a;
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    z->par[b] = a;
    return a;
}

/* A new label, its own root; 0 when out of memory or out of labels. */
static uint32_t new_label(pf_ctx *c, pf__szcomp *z)
{
    if (z->next >= UINT32_MAX - 2u) return 0;
    if (!pf__grow(&c->alloc, &z->par, &z->par_cap, (uint64_t)z->next + 2u, sizeof *z->par, 1024u, 0)) return 0;
    z->next++;
    z->par[z->next] = z->next;
    return z->next;
}

/* The labels made afresh for (size, f) by label_all, which writes every cell. */
static void reset(pf__szcomp *z, const pf_map *m, uint8_t size, const pf_move_filter *f)
{
    z->next = 0;
    z->version = m->version;
    z->size = size;
    z->filtered = f != NULL;
    memset(&z->flt, 0, sizeof z->flt);
    if (f) memcpy(z->flt.classes, f->classes, sizeof z->flt.classes);
}

/* The map as the labels' unit reads it: with the labels' filter, if any, and memo [opt]. */
static pf__grid_view view_of(const pf_map *m, const pf__szcomp *z, uint8_t *memo)
{
    pf__grid_view v = pf__grid_view_of(m);
    if (z->filtered) {
        v.flt = &z->flt;
        v.fmemo = memo;
    }
    return v;
}

/* Whether padded cell p is open to the labels' unit (of class k where unfiltered). */
static int open_at(const pf__grid_view *v, uint32_t p, pf__unit u)
{
    return v->flt ? pf__cell_open_f(v, p, u, 1, 1) : pf__cell_open_sz(v, p, u, 1);
}

/* Eight bytes from p, the first lowest (one load where the machine is little-endian). */
PF__INLINE uint64_t load8(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
           (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

/* A row's open values: for each padded cell of row y, the cell's class when the unit stands there
 * (unfiltered: clearance at least `size`), or 1 (filtered: its size x size block all of classes
 * `allow` marks); 0 where it cannot. Blocked border: 0. Straight loops over the row, which the
 * compiler vectorises: a branch per cell mispredicted on every short run of a random map. */
PF__INLINE void row_open(const pf_map *m, uint32_t y, uint8_t size, const uint8_t *allow, scratch *t, const int FL)
{
    const uint32_t pw = m->pw, row = y * pw;
    uint8_t *o = t->o;
    memset(o, 0, (size_t)pw + 8u);
    if (FL) {
        /* a block reaching the border's row or column holds class 0, never allowed */
        if (y + size > m->ph - 1u) return;
        /* the block's rows ANDed into col, then its columns into o: whole-row passes (the block
         * read cell by cell, pf__cell_open_fsz, took 47 instructions a cell under callgrind) */
        uint8_t *col = t->col;
        for (uint32_t x = 0; x < pw; x++) col[x] = allow[m->cls[row + x]];
        for (uint32_t dy = 1; dy < size; dy++) {
            const uint8_t *cls = m->cls + row + dy * pw;
            for (uint32_t x = 0; x < pw; x++) col[x] = (uint8_t)(col[x] & allow[cls[x]]);
        }
        const uint32_t n = pw - size; /* columns 1..n - 1 hold blocks inside the border */
        for (uint32_t x = 1; x < n; x++) o[x] = col[x];
        for (uint32_t dx = 1; dx < size; dx++)
            for (uint32_t x = 1; x < n; x++) o[x] = (uint8_t)(o[x] & col[x + dx]);
    } else {
        const uint8_t *cls = m->cls + row, *clr = m->clr + row;
        for (uint32_t x = 1; x + 1u < pw; x++) o[x] = (uint8_t)(cls[x] & (uint8_t)-(uint8_t)(clr[x] >= size));
    }
}

/* Labels every position of the map open to the labels' unit, row by row, by runs (as
 * map/components.c labels a tile): a row's maximal run of open positions of one class (any allowed
 * class under a filter: a step may cross them) is connected by straight steps, and it joins the runs
 * of the row above that a step from it reaches (pf__mv_up_reach: its own columns without corner
 * cutting, whose diagonals need both side positions and so add nothing; one column further each way
 * with it; the hex row's shift). A run takes the label of the first run it meets, merged with the
 * others (the union-find over labels), or a new one. The runs come from the row's boundaries (where
 * its open value changes), found eight cells at a time, so the work per row follows its runs, not
 * its cells. 0 when out of memory or labels. */
PF__INLINE int label_rows(pf_ctx *c, pf__szcomp *z, const pf__grid_view *v, const int FL)
{
    const pf_map *m = c->map;
    const uint32_t pw = m->pw, ph = m->ph;
    const uint8_t size = z->size;
    const int mv = pf__mv_of(m->moves);
    scratch t = scratch_of(z->rows, pw);
    uint8_t allow[256] = {0};
    if (FL)
        for (uint32_t k = 1; k < 256; k++) allow[k] = (uint8_t)pf__filter_allows(v->flt, (uint8_t)k);
    const uint64_t lo7 = 0x7F7F7F7F7F7F7F7Full, hi1 = 0x8080808080808080ull;
    uint32_t nprev = 0;
    memset(z->lab, 0, (size_t)pw * sizeof *z->lab);
    memset(z->lab + (size_t)(ph - 1u) * pw, 0, (size_t)pw * sizeof *z->lab);
    for (uint32_t y = 1; y + 1u < ph; y++) {
        row_open(m, y, size, allow, &t, FL);
        /* boundaries: the columns whose open value differs from their left neighbour's (a byte of
         * the xor of two overlapping words that is not 0); every run starts at one and ends,
         * exclusive, at the next, the border column being 0 */
        uint32_t nb = 0;
        for (uint32_t x = 1; x < pw; x += 8u) {
            const uint64_t d = load8(t.o + x) ^ load8(t.o + x - 1u);
            for (uint64_t nz = (((d & lo7) + lo7) | d) & hi1; nz; nz &= nz - 1u) t.bnd[nb++] = x + pf__ctz64(nz) / 8u;
        }
        uint32_t lo, hi;
        pf__mv_up_reach(mv, y, &lo, &hi);
        uint32_t ncur = 0, i = 0;
        t.segl[0] = 0; /* the columns before the first boundary are blocked, as the border is */
        for (uint32_t s = 0; s + 1u < nb; s++) {
            const uint32_t a = t.bnd[s], b = t.bnd[s + 1u], k = t.o[a];
            t.segl[s + 1u] = 0;
            if (!k) continue;
            /* the runs above that meet [a - lo, b - 1 + hi], of the run's class (blocks of size 2
             * or more of two classes never touch: only one-cell units need the test) */
            while (i < nprev && t.prev[i].b + lo <= a) i++;
            uint32_t l = 0;
            for (uint32_t p = i; p < nprev && t.prev[p].a < b + hi; p++)
                if (t.prev[p].k == k) l = l ? join(z, l, t.prev[p].l) : find(z, t.prev[p].l);
            if (!l && !(l = new_label(c, z))) return 0;
            t.cur[ncur++] = (szrun){a, b, l, k};
            t.segl[s + 1u] = l;
        }
        if (nb) t.segl[nb] = 0; /* from the last boundary on: blocked (it ends the last run) */
        t.bnd[nb] = pw;
        /* each segment writes 8 labels whatever its length, then the rest if longer: the next
         * segment overwrites what spilled past its end (no branch per short segment; a cell-by-
         * cell walk cost 10 instructions a cell on maze-2000-w4). The last segment is blocked:
         * it spills zeros into the next rows, which are written after (or are the blocked border
         * and LAB_SPILL) */
        uint32_t *lab = z->lab + (size_t)y * pw;
        for (uint32_t s = 0, x = 0; s <= nb; s++) {
            const uint32_t l = t.segl[s], e = t.bnd[s];
            for (uint32_t q = 0; q < 8u; q++) lab[x + q] = l;
            for (uint32_t q = x + 8u; q < e; q++) lab[q] = l;
            x = e;
        }
        szrun *sw = t.prev;
        t.prev = t.cur;
        t.cur = sw;
        nprev = ncur;
    }
    return 1;
}

static int label_all(pf_ctx *c, pf__szcomp *z, const pf__grid_view *v)
{
    return v->flt ? label_rows(c, z, v, 1) : label_rows(c, z, v, 0);
}

typedef struct box { uint32_t x0, y0, x1, y1; } box; /* padded cells, inclusive */

/* Relabels window w (its ring: the cells just outside it). 1 done; 0 when a label's ring cells are
 * not all joined inside the box (it may have been cut in two; a larger window may show it was not;
 * those ring cells are left in z->ring marked SUSPECT, for split_cut); -1 when the box is too large
 * or memory ran out. */
static int cmp_key(const void *pa, const void *pb)
{
    const uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

static int relabel_window(pf_ctx *c, pf__szcomp *z, box w)
{
    const pf_map *m = c->map;
    const uint8_t size = z->size;
    /* the box flooded: the window and its ring, inside the blocked border */
    box r = {w.x0 > 1 ? w.x0 - 1 : 1, w.y0 > 1 ? w.y0 - 1 : 1, w.x1 + 2 < m->pw ? w.x1 + 1 : m->pw - 2,
             w.y1 + 2 < m->ph ? w.y1 + 1 : m->ph - 2};
    const uint32_t rw = r.x1 - r.x0 + 1, rh = r.y1 - r.y0 + 1;
    if ((uint64_t)rw * rh > WINDOW_MAX) return -1;
    if (!pf__grow(&c->alloc, &z->seen, &z->seen_cap, (uint64_t)rw * rh, 1, 4096u, 0) ||
        !pf__grow(&c->alloc, &z->queue, &z->queue_cap, (uint64_t)rw * rh, sizeof *z->queue, 4096u, 0))
        return -1;
    memset(z->seen, 0, (size_t)rw * rh);
    for (uint32_t y = w.y0; y <= w.y1; y++)
        for (uint32_t x = w.x0; x <= w.x1; x++) z->lab[y * m->pw + x] = 0;
    const pf__grid_view v = view_of(m, z, NULL);
    uint32_t nring = 0, piece = 0;
    for (uint32_t y0 = r.y0; y0 <= r.y1; y0++)
        for (uint32_t x0 = r.x0; x0 <= r.x1; x0++) {
            const uint32_t s0 = y0 * m->pw + x0;
            const pf__unit u = {m->cls[s0], size};
            if (z->seen[(y0 - r.y0) * rw + (x0 - r.x0)] || !open_at(&v, s0, u)) continue;
            /* one local piece: its window cells are queued, its ring labels noted */
            piece++;
            uint32_t head = 0, tail = 0, rep = 0;
            z->seen[(y0 - r.y0) * rw + (x0 - r.x0)] = 1;
            z->queue[tail++] = s0;
            while (head < tail) {
                const uint32_t cur = z->queue[head++], cx = cur % m->pw, cy = cur / m->pw;
                if (cx < w.x0 || cx > w.x1 || cy < w.y0 || cy > w.y1) { /* a ring cell */
                    const uint32_t l = z->lab[cur];
                    if (l) {
                        rep = rep ? join(z, rep, l) : find(z, l);
                        if (!pf__grow(&c->alloc, &z->ring, &z->ring_cap, 2u * (uint64_t)nring + 2u, sizeof *z->ring,
                                      256u, 0))
                            return -1;
                        z->ring[2 * nring] = cur;
                        z->ring[2 * nring + 1] = piece;
                        nring++;
                    }
                }
                const int32_t *off = m->nb_off[(cur / m->pw) & 1u];
                for (uint32_t open = pf__grid_moves_view(m, &v, cur, u); open; open &= open - 1u) {
                    const uint32_t nb = (uint32_t)((int32_t)cur + off[pf__ctz32(open)]), nx = nb % m->pw,
                                   ny = nb / m->pw;
                    if (nx < r.x0 || nx > r.x1 || ny < r.y0 || ny > r.y1) continue;
                    uint8_t *sn = &z->seen[(ny - r.y0) * rw + (nx - r.x0)];
                    if (*sn) continue;
                    *sn = 1;
                    z->queue[tail++] = nb;
                }
            }
            /* the window's cells of the piece take the ring's label (none met: the piece is a
             * component of its own, inside the window) */
            if (!rep && !(rep = new_label(c, z))) return -1;
            for (uint32_t i = 0; i < tail; i++) {
                const uint32_t cur = z->queue[i], cx = cur % m->pw, cy = cur / m->pw;
                if (cx >= w.x0 && cx <= w.x1 && cy >= w.y0 && cy <= w.y1) z->lab[cur] = rep;
            }
        }
    /* a label met in two pieces (after the merges) may be cut: the way between them may leave the
     * window, or may not exist any more. Such ring cells are marked (SUSPECT) for split_cut. */
    int cut = 0;
    z->nring = nring;
    if (nring < 2) return 1;
    /* by root, sorted: comparing every pair of ring cells cost the square of the ring (a wall
     * across a 9000-wide map: 170-255 ms inside the edit) */
    if (!pf__grow(&c->alloc, &z->rkey, &z->rkey_cap, nring, sizeof *z->rkey, 256u, 0)) return -1;
    for (uint32_t i = 0; i < nring; i++) z->rkey[i] = (uint64_t)find(z, z->lab[z->ring[2 * i]]) << 32 | i;
    qsort(z->rkey, nring, sizeof *z->rkey, cmp_key);
    for (uint32_t a = 0, b; a < nring; a = b) {
        const uint32_t root = (uint32_t)(z->rkey[a] >> 32), p0 = z->ring[2 * (uint32_t)z->rkey[a] + 1];
        int two = 0;
        for (b = a + 1; b < nring && (uint32_t)(z->rkey[b] >> 32) == root; b++)
            two |= z->ring[2 * (uint32_t)z->rkey[b] + 1] != p0;
        if (!two) continue;
        for (uint32_t k = a; k < b; k++) z->ring[2 * (uint32_t)z->rkey[k] + 1] |= SUSPECT;
        cut = 1;
    }
    return cut ? 0 : 1;
}

/* After relabel_window found labels that may be cut: the components under them are labelled again
 * by floods from their ring cells (every part of a cut component holds one: a path from outside
 * the window into it crosses the ring), each part a new label. On a random map the components a
 * building meets are small, where labelling the whole map costs 13 ms (random-2000-20); a cut of a
 * large one gives up at `cap` cells flooded, for label_all. 1 done; -1 given up or out of memory
 * (the labels are then half rewritten: the caller labels the whole map). */
static int split_cut(pf_ctx *c, pf__szcomp *z, uint64_t cap)
{
    const pf_map *m = c->map;
    const pf__grid_view v = view_of(m, z, NULL);
    const uint32_t mark = z->next; /* labels above it are the parts' */
    uint64_t flooded = 0;
    for (uint32_t i = 0; i < z->nring; i++) {
        const uint32_t s = z->ring[2 * i];
        if (!(z->ring[2 * i + 1] & SUSPECT) || z->lab[s] > mark) continue; /* not suspect, or flooded already */
        const uint32_t l = new_label(c, z);
        if (!l) return -1;
        const pf__unit u = {m->cls[s], z->size};
        uint32_t head = 0, tail = 0;
        z->lab[s] = l;
        z->queue[tail++] = s; /* the queue holds a window's cells: at least one */
        while (head < tail) {
            const uint32_t cur = z->queue[head++];
            const int32_t *off = m->nb_off[(cur / m->pw) & 1u];
            for (uint32_t open = pf__grid_moves_view(m, &v, cur, u); open; open &= open - 1u) {
                const uint32_t nb = (uint32_t)((int32_t)cur + off[pf__ctz32(open)]);
                if (z->lab[nb] > mark) continue; /* this part's already */
                if (++flooded > cap ||
                    !pf__grow(&c->alloc, &z->queue, &z->queue_cap, (uint64_t)tail + 1u, sizeof *z->queue, 4096u, 0))
                    return -1;
                z->lab[nb] = l;
                z->queue[tail++] = nb;
            }
        }
    }
    return 1;
}

/* Follows an edit (version e->version - 1 to e->version): windows around the changed rectangles,
 * merged where they touch, relabelled; the whole map is labelled afresh when that cannot be shown
 * to keep them exact. Never fails: labels left stale (out of memory) are made by the next query. */
static int sized_edit(pf_ctx *c, void *p, pf__edit_view *e)
{
    pf__szcomp *z = p;
    const pf_map *m = c->map;
    if (z->version != e->version - 1u) return 1; /* stale already: the next query labels afresh */
    const uint32_t k = z->size;
    enum { MAXW = 64 };
    box w[MAXW];
    uint32_t nw = 0;
    int r = 1; /* 1 while every window is relabelled */
    for (uint32_t i = 0; i < e->count && r == 1; i++) {
        const pf_rect rc = e->rects[i];
        /* cells whose k x k block meets the rectangle (top-left anchored), and one cell more for the
         * diagonal rule's side cells; padded coordinates, clipped to the map */
        int64_t x0 = (int64_t)rc.x + 1 - (int64_t)k, y0 = (int64_t)rc.y + 1 - (int64_t)k;
        int64_t x1 = (int64_t)rc.x + rc.w + 1, y1 = (int64_t)rc.y + rc.h + 1;
        box b = {(uint32_t)(x0 < 1 ? 1 : x0), (uint32_t)(y0 < 1 ? 1 : y0),
                 (uint32_t)(x1 > (int64_t)m->pw - 2 ? m->pw - 2 : x1), (uint32_t)(y1 > (int64_t)m->ph - 2 ? m->ph - 2 : y1)};
        /* merge with every window it touches (rings overlapping count as touching) */
        for (uint32_t j = 0; j < nw;) {
            if (b.x0 <= w[j].x1 + 2 && w[j].x0 <= b.x1 + 2 && b.y0 <= w[j].y1 + 2 && w[j].y0 <= b.y1 + 2) {
                b = (box){b.x0 < w[j].x0 ? b.x0 : w[j].x0, b.y0 < w[j].y0 ? b.y0 : w[j].y0,
                          b.x1 > w[j].x1 ? b.x1 : w[j].x1, b.y1 > w[j].y1 ? b.y1 : w[j].y1};
                w[j] = w[--nw];
                j = 0;
            } else {
                j++;
            }
        }
        if (nw == MAXW) r = -1;
        else w[nw++] = b;
    }
    /* A ring that crosses a wall splits into pieces joined only outside the window: a larger window
     * often joins them (around the wall, through the room's door). Grown only when the edit made one
     * window, so that no window's ring holds another's changed cells. */
    static const uint32_t grow_by[] = {0, 8, 24, 64};
    for (uint32_t i = 0; i < nw && r == 1; i++) {
        r = 0;
        for (uint32_t g = 0; r == 0 && g < (nw == 1 ? 4u : 1u); g++) {
            const uint32_t d = grow_by[g];
            box b = {w[i].x0 > d + 1 ? w[i].x0 - d : 1, w[i].y0 > d + 1 ? w[i].y0 - d : 1,
                     w[i].x1 + d + 2 < m->pw ? w[i].x1 + d : m->pw - 2, w[i].y1 + d + 2 < m->ph ? w[i].y1 + d : m->ph - 2};
            r = relabel_window(c, z, b);
        }
        /* a cut: its parts flooded, up to a 64th of the map (about the time label_all takes on
         * rooms-2000, the cheapest map to label whole) */
        if (r == 0) r = split_cut(c, z, (uint64_t)c->count / 64u > WINDOW_MAX ? (uint64_t)c->count / 64u : WINDOW_MAX);
        if (r != 1) break;
    }
    z->version = e->version;
    if (r != 1) {
        /* started afresh now, off the frame: the whole map costs about 2 ms (rooms-2000), where a
         * query would pay it inside its frame (a frame's worth on every context that asks) */
        const pf_move_filter flt = z->flt; /* reset clears z->flt before it copies f */
        reset(z, m, z->size, z->filtered ? &flt : NULL);
        const pf__grid_view v = view_of(m, z, NULL);
        if (!label_all(c, z, &v)) z->version = ~e->version; /* out of memory: the next query tries */
    }
    return 1;
}

const pf__ext_class pf__ext_sized = {sized_create, sized_destroy, NULL, sized_edit};

size_t pf__szcomp_bytes(const pf_ctx *c)
{
    const pf__szcomp *z = pf__ctx_ext_get(c, PF__EXT_SIZED);
    return z ? sizeof(pf__szcomp) + (size_t)c->count * sizeof(uint32_t) + (size_t)z->par_cap * sizeof(uint32_t) +
                   (size_t)z->queue_cap * sizeof(uint32_t) + z->seen_cap + (size_t)z->ring_cap * sizeof(uint32_t) +
                   (size_t)z->rkey_cap * sizeof(uint64_t) + z->rows_bytes
             : 0;
}

/* The labels for (size, f), fresh for the map's version, and the view their unit reads the map
 * through; NULL: static context (PF_UNSUPPORTED) or out of memory. */
static pf__szcomp *labels_for(pf_ctx *c, uint8_t size, const pf_move_filter *f, pf__grid_view *v, pf_status *err)
{
    const pf_map *m = c->map;
    *err = PF_OUT_OF_MEMORY;
    if (c->fixed) {
        *err = PF_UNSUPPORTED;
        return NULL;
    }
    uint8_t *memo = f ? pf__fsize_memo(c, f, size) : NULL;
    pf__szcomp *z = pf__ctx_ext(c, PF__EXT_SIZED);
    if (!z) return NULL;
    const int fresh = z->version == m->version && z->size == size && z->next <= UINT32_MAX - 4u &&
                      z->filtered == (f != NULL) && (!f || !memcmp(z->flt.classes, f->classes, sizeof z->flt.classes));
    if (!fresh) reset(z, m, size, f);
    *v = view_of(m, z, memo);
    if (!fresh && !label_all(c, z, v)) {
        z->version = ~m->version; /* cut short: made afresh next time */
        return NULL;
    }
    return z;
}

/* The nearest-cell scan's rule: open to the unit, and under the start's root label. */
typedef struct in_comp { pf__szcomp *z; const pf__grid_view *v; uint8_t size; uint32_t root; } in_comp;

static int stands_in(void *user, const pf_map *m, uint32_t p)
{
    in_comp *q = user;
    (void)m;
    if (!q->z->lab[p] || find(q->z, q->z->lab[p]) != q->root) return 0; /* not open, or another component */
    return open_at(q->v, p, (pf__unit){q->v->cls[p], q->size});
}

pf_status pf__szcomp_nearest(pf_ctx *c, uint32_t si, uint32_t gi, uint8_t size, const pf_move_filter *f, int32_t gx,
                             int32_t gy, pf_heur metric, int *reach, uint32_t *cell, double *dist)
{
    pf_status err;
    pf__grid_view v;
    pf__szcomp *z = labels_for(c, size, f, &v, &err);
    if (!z) return err;
    /* every position open to the unit is labelled: a goal unlabelled, or under another root, is apart */
    in_comp q = {z, &v, size, z->lab[si] ? find(z, z->lab[si]) : 0}; /* 0: stands nowhere */
    *reach = stands_in(&q, c->map, gi);
    if (*reach) return PF_OK;
    /* the start, where the unit stands, bounds the scan */
    const uint32_t hint = stands_in(&q, c->map, si) ? si : PF_NODE_NONE;
    *cell = pf__grid_nearest_by(c->map, gx, gy, stands_in, &q, metric, 0, hint, si, dist);
    if (*cell == PF_NODE_NONE) *dist = -1.0;
    return PF_OK;
}

pf_status pf__szcomp_reserve(pf_ctx *c, uint8_t size)
{
    pf__grid_view v;
    pf_status err;
    return labels_for(c, size, NULL, &v, &err) ? PF_OK : err;
}

pf_status pf__szcomp_same(pf_ctx *c, uint32_t si, uint32_t gi, uint8_t size, const pf_move_filter *f, int *same)
{
    pf_status err;
    pf__grid_view v;
    pf__szcomp *z = labels_for(c, size, f, &v, &err);
    if (!z) return err;
    /* unfiltered, the labels of every class live side by side (a step stays in one class); a
     * filter's labels cross its classes and are its own */
    *same = z->lab[si] && z->lab[gi] && find(z, z->lab[si]) == find(z, z->lab[gi]);
    return PF_OK;
}
