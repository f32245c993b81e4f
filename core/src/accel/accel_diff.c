/* accel_diff.c - the accelerator follows its map's edits by the diff (PF_ACCEL_EDITS_CHECK,
 * pf_accel.h MAP EDITS).
 *
 * The hierarchy is never repaired (accel_edit.c says why no exact local repair is known here).
 * Instead the accelerator keeps the cells it was built from (its prep map M0, acc->prep: the class
 * byte of each cell; accelerated maps have no cost multipliers) and every query reads those, so its
 * answer P is a shortest path of M0, of cost d0. Each edit updates the set D of cells whose class
 * differs from M0 now, at a cost proportional to the edit's cells plus |D| and the block map (2 KB
 * on 2000x2000; D grows until a rebuild empties it). A query of class X on the live
 * map M is then proven, or refused, in O(path + |D|):
 *   - P is a path of M iff no cell it enters and no side cell of its diagonal steps is in D: those
 *     cells are X on M0 and, outside D, X on M too.
 *   - Every cell outside D is unchanged, and a cell of D that is not open to X now is worse for X
 *     than at M0 (a step costs the same everywhere), so a path of M that uses no cell of D open to
 *     X now (better for X) is a path of M0 and costs at least d0. A path that enters such a cell f
 *     or cuts beside it passes within one straight step of f: it costs at least
 *     octile(s, f) + octile(f, g) - 2 sqrt(2) (the octile distance bounds every path's cost).
 *     So P is a shortest path of M when d0 is at most that bound for every such f.
 * Where P crosses D but costs no more than the bound, another path of the same cost often goes
 * beside the edit (pf__accel_diff_reroute). A run of P's steps that keeps to one diagonal and one
 * of its straight steps costs the octile distance between its ends in any order of them, so a
 * building on the run is passed by another order legal on M, found by a table over the run's
 * parallelogram of orders (open ground: a building in a room). A run that keeps to one quadrant
 * (x and y each move one way or not at all) costs by its count of diagonal steps alone, so a
 * path of M within the run's box with as many diagonals costs the same, found by a table over the
 * box (round an obstacle: the other side of it). After 80 buildings (35 removed), the refused
 * answers of the 200 longest queries went from 11, 19, 24 to 4, 4, 7 on rooms-2000 and from 11 to
 * 8 of 100 on random-2000-20 (bench_accel_edit, seeds 1-3). The moved P is a path of M of cost d0,
 * still bounded as above: a shortest path of M.
 * A query the proof refuses (P crosses D where no order moves it, a better cell lies near the
 * way, the start or the goal is in D) is answered by JPS in the same call and says so
 * (PF_DETAIL_ACCEL_EDITED). No answer is ever inexact, and an edit costs microseconds: the price of an edit is paid by the queries it can
 * affect, not by a rebuild. A rebuild off the frame (pf_accel_rebuild_run), adopted with the diff
 * against the live map, empties D again.
 *
 * Memory: 1 byte a cell (the prep copy), 1 bit a cell (D's bitmap) and 4 bytes per cell of D.
 */
#include <math.h>
#include <string.h>
#include "accel/accel_internal.h"
#include "search/metric_internal.h"
#include "grow_internal.h"

static int diff_put(pf_accel *acc, uint32_t c)
{
    if (acc->dn == acc->dcap &&
        !pf__grow_slow(&acc->alloc, &acc->dl, &acc->dcap, (uint64_t)acc->dn + 1u, sizeof *acc->dl, 256u, 0))
        return 0;
    acc->dl[acc->dn++] = c;
    acc->dbits[c >> 6] |= UINT64_C(1) << (c & 63u);
    return 1;
}

/* Drops from dl the cells whose bit was cleared, marks the blocks of those left, and lists the
 * cells of D open now into bl. */
static int diff_settle(pf_accel *acc, const pf_map *m)
{
    uint32_t w = 0;
    for (uint32_t i = 0; i < acc->dn; i++)
        if (pf__accel_diff_has(acc, acc->dl[i])) acc->dl[w++] = acc->dl[i];
    acc->dn = w;
    memset(acc->dblk, 0, ((size_t)acc->dbw * acc->dbh + 63u) / 64u * sizeof(uint64_t));
    acc->bn = 0;
    for (uint32_t i = 0; i < acc->dn; i++) {
        uint32_t c = acc->dl[i];
        uint32_t b = (c / m->pw >> PF__ACCEL_DBLK_SHIFT) * acc->dbw + (c % m->pw >> PF__ACCEL_DBLK_SHIFT);
        acc->dblk[b >> 6] |= UINT64_C(1) << (b & 63u);
        if (!m->cls[c]) continue;
        if (acc->bn == acc->bcap &&
            !pf__grow_slow(&acc->alloc, &acc->bl, &acc->bcap, (uint64_t)acc->bn + 1u, sizeof *acc->bl, 64u, 0))
            return 0;
        acc->bl[acc->bn++] = c;
    }
    return 1;
}

/* After an edit: the cells of its boxes join D or, back to their prep class, leave it. */
static int diff_after(pf__map_user *u, const pf_map *m, pf__edit_view *e)
{
    pf_accel *acc = (pf_accel *)(void *)((char *)u - offsetof(pf_accel, user));
    if (acc->diff_lost) return 1;
    const uint32_t pw = m->pw;
    for (uint32_t r = 0; r < e->count; r++) {
        const pf_rect b = e->rects[r];
        for (uint32_t y = 0; y < b.h; y++) {
            uint32_t c = ((uint32_t)b.y + y + 1u) * pw + (uint32_t)b.x + 1u;
            for (uint32_t x = 0; x < b.w; x++, c++) {
                int in = pf__accel_diff_has(acc, c), differs = m->cls[c] != acc->prep[c];
                if (differs && !in) {
                    if (!diff_put(acc, c)) goto lost;
                } else if (!differs && in) {
                    acc->dbits[c >> 6] &= ~(UINT64_C(1) << (c & 63u)); /* dl drops it in diff_settle */
                }
            }
        }
    }
    if (diff_settle(acc, m)) return 1;
lost:
    /* D is no longer known: the accelerator answers nothing more (stale, never wrong) */
    acc->diff_lost = 1;
    return 0;
}

int pf__accel_diff_start(pf_accel *acc)
{
    if (acc->diff_tried) return acc->diffing && !acc->diff_lost;
    acc->diff_tried = 1;
    const pf_map *m = acc->map;
    const size_t words = ((size_t)acc->cells + 63u) / 64u;
    acc->dbits = pf__calloc(&acc->alloc, words * sizeof(uint64_t), 64);
    acc->dbw = (m->pw >> PF__ACCEL_DBLK_SHIFT) + 1u;
    acc->dbh = (m->ph >> PF__ACCEL_DBLK_SHIFT) + 1u;
    acc->dblk = pf__calloc(&acc->alloc, ((size_t)acc->dbw * acc->dbh + 63u) / 64u * sizeof(uint64_t), 64);
    if (!acc->dbits || !acc->dblk) goto oom;
    acc->dn = acc->bn = 0;
    /* D against the live map: a rebuild's copy may be some edits old when it is adopted. Eight cells
     * at a time: the maps agree almost everywhere */
    const uint8_t *a = acc->prep, *b = m->cls;
    const uint32_t n = acc->cells;
    uint32_t c = 0;
    for (; c + 8u <= n; c += 8u) {
        uint64_t wa, wb;
        memcpy(&wa, a + c, 8);
        memcpy(&wb, b + c, 8);
        if (wa == wb) continue;
        for (uint32_t k = c; k < c + 8u; k++)
            if (a[k] != b[k] && !diff_put(acc, k)) goto oom;
    }
    for (; c < n; c++)
        if (a[c] != b[c] && !diff_put(acc, c)) goto oom;
    if (!diff_settle(acc, m)) goto oom;
    acc->user = (pf__map_user){0};
    acc->user.after = diff_after;
    acc->user.data = 1;
    pf__map_attach(m, &acc->user);
    acc->following = 1;
    acc->diffing = 1;
    return 1;
oom:
    /* not tried, for the next attachment to try again (D is made against the live map whenever
     * it is made): latched, the accelerator followed no edit for good, as a stale one (a review) */
    pf__accel_diff_free(acc);
    acc->diff_tried = 0;
    return 0;
}

void pf__accel_diff_free(pf_accel *acc)
{
    pf__free(&acc->alloc, acc->dbits, ((size_t)acc->cells + 63u) / 64u * sizeof(uint64_t));
    pf__free(&acc->alloc, acc->dl, (size_t)acc->dcap * sizeof(uint32_t));
    pf__free(&acc->alloc, acc->bl, (size_t)acc->bcap * sizeof(uint32_t));
    pf__free(&acc->alloc, acc->dblk, ((size_t)acc->dbw * acc->dbh + 63u) / 64u * sizeof(uint64_t));
    acc->dbits = acc->dblk = NULL;
    acc->dl = acc->bl = NULL;
    acc->dn = acc->dcap = acc->bn = acc->bcap = 0;
}

PF__INLINE double octile(uint32_t pw, uint32_t a, uint32_t b)
{
    return pf__grid_metric(PF_HEUR_OCTILE, (int32_t)(a % pw) - (int32_t)(b % pw), (int32_t)(a / pw) - (int32_t)(b / pw));
}

double pf__accel_diff_bound(const pf_accel *acc, const pf_map *m, uint32_t s, uint32_t g, uint8_t k)
{
    double best = INFINITY;
    const uint32_t pw = m->pw;
    for (uint32_t i = 0; i < acc->bn; i++) {
        uint32_t f = acc->bl[i];
        if (m->cls[f] != k) continue;
        double b = octile(pw, s, f) + octile(pw, f, g) - 2.0 * PF__ACCEL_SQRT2;
        best = b < best ? b : best;
    }
    return best;
}

int pf__accel_diff_cp_clear(const pf_accel *acc, uint32_t pw, uint32_t from, uint32_t to)
{
    /* by coordinates: the block bitmap is indexed by them, and they step without a division */
    const pf__accel_cp p = pf__accel_cp_shape(pw, from, to);
    uint32_t x = from % pw, y = from / pw;
    if (pf__accel_diff_has_xy(acc, pw, x, y)) return 0;
    const uint32_t ddx = (uint32_t)pf__dir_dx[p.dd], ddy = (uint32_t)pf__dir_dy[p.dd];
    const uint32_t sdx = (uint32_t)pf__dir_dx[p.ds], sdy = (uint32_t)pf__dir_dy[p.ds];
    for (uint32_t i = 0; i < p.nd; i++) {
        /* the diagonal's two sides, then the cell it enters (unsigned wrap-around adds -1) */
        if (pf__accel_diff_has_xy(acc, pw, x + ddx, y) || pf__accel_diff_has_xy(acc, pw, x, y + ddy)) return 0;
        x += ddx;
        y += ddy;
        if (pf__accel_diff_has_xy(acc, pw, x, y)) return 0;
    }
    for (uint32_t i = 0; i < p.ns; i++) {
        x += sdx;
        y += sdy;
        if (pf__accel_diff_has_xy(acc, pw, x, y)) return 0;
    }
    return 1;
}

/* ---- an answer crossing D moved beside it at the same cost ------------------------------------ */

/* Whether the padded cell of public (x, y) is of class k on the live map: the border is padding,
 * never k, so the neighbours of any cell of the map can be read. */
PF__INLINE int open_xy(const pf_map *m, int32_t x, int32_t y, uint8_t k)
{
    return m->cls[(uint32_t)(y + 1) * m->pw + (uint32_t)(x + 1)] == k;
}

PF__INLINE int step_legal(const pf_map *m, int32_t ax, int32_t ay, int32_t bx, int32_t by, uint8_t k)
{
    return open_xy(m, ax, ay, k) && open_xy(m, bx, by, k) &&
           (ax == bx || ay == by || (open_xy(m, bx, ay, k) && open_xy(m, ax, by, k)));
}

/* The step j of path (public ids, width w): from path[j + 1] to path[j]. */
PF__INLINE void rr_step(const uint32_t *path, uint32_t w, uint32_t j, int32_t *dx, int32_t *dy)
{
    *dx = (int32_t)(path[j] % w) - (int32_t)(path[j + 1u] % w);
    *dy = (int32_t)(path[j] / w) - (int32_t)(path[j + 1u] / w);
}

/* A run of a path's steps around an illegal one, to be taken again by another path of the same
 * cost: steps lo..hi (from o = path[hi + 1] to path[lo]), ex across and ey along, nd of them
 * diagonal, all keeping to the quadrant (qx, qy) (x moves by 0 or qx, y by 0 or qy). A run of two
 * directions (two: the diagonal and the straight step (sx, sy) alone) is searched over the
 * parallelogram of its orders; any run in a quadrant over its box. */
typedef struct rr_run {
    int32_t  qx, qy, sx, sy;
    int      two;
    uint32_t lo, hi, ex, ey, nd;
} rr_run;

PF__INLINE int run_has(const rr_run *r, int32_t dx, int32_t dy)
{
    if ((dx && dx != r->qx) || (dy && dy != r->qy)) return 0;
    return !r->two || (dx && dy) || (dx == r->sx && dy == r->sy);
}

/* Cells of the run's table: (nd + 1) x (straight steps + 1) orders, or the box. */
PF__INLINE uint64_t run_cells(const rr_run *r, uint32_t ex, uint32_t ey, uint32_t nd)
{
    return r->two ? (uint64_t)(nd + 1u) * (ex + ey - 2u * nd + 1u) : (uint64_t)(ex + 1u) * (ey + 1u);
}

/* The run grows a step each side in turn while its steps keep to it and its table fits in cap. */
static void run_grow(rr_run *r, const uint32_t *path, uint32_t steps, uint32_t w, uint32_t cap)
{
    for (int grew = 1; grew;) {
        grew = 0;
        for (int side = 0; side < 2; side++) {
            const int low = side == 0;
            if (low ? r->lo == 0 : r->hi + 1u >= steps) continue;
            int32_t dx, dy;
            rr_step(path, w, low ? r->lo - 1u : r->hi + 1u, &dx, &dy);
            const uint32_t ex = r->ex + (dx != 0), ey = r->ey + (dy != 0), nd = r->nd + (dx && dy);
            if (!run_has(r, dx, dy) || run_cells(r, ex, ey, nd) > cap) continue;
            if (low)
                r->lo--;
            else
                r->hi++;
            r->ex = ex, r->ey = ey, r->nd = nd, grew = 1;
        }
    }
}

#define RR_X(i) (ox + (int32_t)(i) * r->qx)
#define RR_Y(j) (oy + (int32_t)(j) * r->qy)

/* A two-direction run taken again in another order of its steps legal on the live map: the table
 * t[a * (ns + 1) + b] says whether the cell a diagonal and b straight steps from o is reached. */
static int run_orders(const pf_map *m, uint32_t *path, const rr_run *r, uint8_t k, uint32_t *t)
{
    const uint32_t w = m->width, nd = r->nd, ns = r->ex + r->ey - 2u * nd, cols = ns + 1u;
    const int32_t ox = (int32_t)(path[r->hi + 1u] % w), oy = (int32_t)(path[r->hi + 1u] / w);
    for (uint32_t a = 0; a <= nd; a++)
        for (uint32_t b = 0; b <= ns; b++) {
            const int32_t x = ox + (int32_t)a * r->qx + (int32_t)b * r->sx, y = oy + (int32_t)a * r->qy + (int32_t)b * r->sy;
            uint32_t v = 0;
            if (open_xy(m, x, y, k))
                v = (a == 0 && b == 0) || (b > 0 && t[a * cols + b - 1u]) ||
                    (a > 0 && t[(a - 1u) * cols + b] && open_xy(m, x, y - r->qy, k) && open_xy(m, x - r->qx, y, k));
            t[a * cols + b] = v;
        }
    if (!t[nd * cols + ns]) return 0;
    /* back from the run's end: the cell s steps after o goes to path[hi + 1 - s] */
    uint32_t a = nd, b = ns;
    for (uint32_t s = nd + ns; s > 0; s--) {
        const int32_t x = ox + (int32_t)a * r->qx + (int32_t)b * r->sx, y = oy + (int32_t)a * r->qy + (int32_t)b * r->sy;
        path[r->hi + 1u - s] = (uint32_t)y * w + (uint32_t)x;
        if (b > 0 && t[a * cols + b - 1u])
            b--;
        else
            a--; /* reached by its diagonal step: the test above held for it */
    }
    return 1;
}

/* A run in a quadrant taken again by a path of the same cost legal on the live map. A path that
 * keeps to the quadrant from o to the run's end takes ex + ey - 2 d straight steps and d diagonal
 * ones, so its cost falls as d grows: the table t[j * (ex + 1) + i], cell (i, j) the map's
 * (ox + i qx, oy + j qy), holds 1 + the most diagonal steps of such a path reaching it (0: none),
 * row by row. The run is a part of a shortest path of the prep map and no cell opened since can
 * shorten the answer (the bound), so no path here has more diagonal steps than its nd: the same
 * cost is the table's end reaching nd, and that path has as many steps as the run, so it is
 * written in the run's place. */
static int run_box(const pf_map *m, uint32_t *path, const rr_run *r, uint8_t k, uint32_t *t)
{
    const uint32_t w = m->width, ex = r->ex, ey = r->ey, cols = ex + 1u;
    const int32_t ox = (int32_t)(path[r->hi + 1u] % w), oy = (int32_t)(path[r->hi + 1u] / w);
#define RR_AT(i, j) t[(size_t)(j) * cols + (i)]
#define RR_DIAG(i, j) (RR_AT((i) - 1u, (j) - 1u) && open_xy(m, RR_X(i), RR_Y((j) - 1u), k) && open_xy(m, RR_X((i) - 1u), RR_Y(j), k))
    for (uint32_t j = 0; j <= ey; j++)
        for (uint32_t i = 0; i <= ex; i++) {
            uint32_t v = 0;
            if (open_xy(m, RR_X(i), RR_Y(j), k)) {
                if (i == 0 && j == 0) v = 1;
                if (i > 0 && RR_AT(i - 1u, j) > v) v = RR_AT(i - 1u, j);
                if (j > 0 && RR_AT(i, j - 1u) > v) v = RR_AT(i, j - 1u);
                /* diagonal: both cells beside it open (no corner cutting) */
                if (i > 0 && j > 0 && RR_AT(i - 1u, j - 1u) + 1u > v && RR_DIAG(i, j)) v = RR_AT(i - 1u, j - 1u) + 1u;
            }
            RR_AT(i, j) = v;
        }
    if (RR_AT(ex, ey) != r->nd + 1u) return 0; /* none, or fewer diagonals: longer */
    uint32_t i = ex, j = ey;
    for (uint32_t s = ex + ey - r->nd; s > 0; s--) {
        path[r->hi + 1u - s] = (uint32_t)RR_Y(j) * w + (uint32_t)RR_X(i);
        const uint32_t v = RR_AT(i, j);
        if (i > 0 && j > 0 && RR_AT(i - 1u, j - 1u) + 1u == v && RR_DIAG(i, j))
            i--, j--;
        else if (i > 0 && RR_AT(i - 1u, j) == v)
            i--;
        else
            j--; /* reached from below: one of the three holds for a cell reached */
    }
#undef RR_AT
#undef RR_DIAG
    return 1;
}
#undef RR_X
#undef RR_Y

int pf__accel_diff_reroute(const pf_map *m, uint32_t *path, uint32_t steps, uint32_t *at, uint32_t *tried, uint32_t *table,
                           uint32_t cap, uint64_t *cells, uint64_t upto)
{
    const uint32_t w = m->width;
    const uint8_t k = m->cls[pf__grid_pad(m, path[steps])];
    for (uint32_t i = *at; i < steps; i++) {
        if (*cells >= upto) {
            *at = i;
            return -1;
        }
        const uint32_t from = *tried;
        *tried = 0;
        const int32_t bx = (int32_t)(path[i] % w), by = (int32_t)(path[i] / w);
        const int32_t ax = (int32_t)(path[i + 1u] % w), ay = (int32_t)(path[i + 1u] / w);
        *cells += 1u;
        if (step_legal(m, ax, ay, bx, by, k)) continue;
        const int32_t dx = bx - ax, dy = by - ay;
        const int diag = dx && dy;
        /* the orders of two directions first (a long run for its table: open ground), then the
         * boxes of the quadrants (a shorter run, any turns: around obstacles); a diagonal step
         * is in one quadrant, a straight one in two */
        int done = 0;
        for (uint32_t tr = from; tr < 4 && !done; tr++) {
            const int two = tr < 2, q = tr & 1;
            if (!two && q && diag) break;
            if (tr > from && *cells >= upto) { /* a table a step at most: go on with this try */
                *at = i;
                *tried = tr;
                return -1;
            }
            rr_run r = {.qx = dx ? dx : (q ? 1 : -1), .qy = dy ? dy : (q ? 1 : -1), .two = two, .lo = i, .hi = i,
                        .ex = (uint32_t)(dx != 0), .ey = (uint32_t)(dy != 0), .nd = (uint32_t)diag};
            /* the straight step of two directions: the other's when this one is diagonal */
            r.sx = diag ? (q ? 0 : dx) : dx;
            r.sy = diag ? (q ? dy : 0) : dy;
            run_grow(&r, path, steps, w, cap);
            *cells += run_cells(&r, r.ex, r.ey, r.nd);
            if (r.ex && r.ey && (two ? run_orders(m, path, &r, k, table) : run_box(m, path, &r, k, table))) {
                done = 1;
                i = r.hi; /* the loop's i++ goes on after the run */
            }
        }
        if (!done) return 0;
    }
    *at = steps;
    return 1;
}
