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
 * beside the edit: a run of P's steps that keeps to one diagonal and one of its straight steps
 * costs the octile distance between its ends in any order of them, so a building on the run is
 * passed by another order legal on M, found by a table over the run's parallelogram of cells
 * (pf__accel_diff_reroute; rooms-2000 after 80 buildings: 14 of 22 refused answers kept so). The
 * moved P is a path of M of cost d0, still bounded as above: a shortest path of M.
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
    if (!acc->dbits || !acc->dblk) {
        pf__accel_diff_free(acc);
        return 0;
    }
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
    pf__map_attach(m, &acc->user);
    acc->following = 1;
    acc->diffing = 1;
    return 1;
oom:
    pf__accel_diff_free(acc);
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

typedef struct rr_dir {
    int32_t gx, gy, sx, sy; /* the window's diagonal step and its straight one */
} rr_dir;

PF__INLINE int rr_in(const rr_dir *d, int32_t dx, int32_t dy)
{
    return (dx == d->gx && dy == d->gy) || (dx == d->sx && dy == d->sy);
}

/* The step j of path (public ids, width w): from path[j + 1] to path[j]. */
PF__INLINE void rr_step(const uint32_t *path, uint32_t w, uint32_t j, int32_t *dx, int32_t *dy)
{
    *dx = (int32_t)(path[j] % w) - (int32_t)(path[j + 1u] % w);
    *dy = (int32_t)(path[j] / w) - (int32_t)(path[j + 1u] / w);
}

/* Steps lo..hi (from path[hi + 1] to path[lo]) taken again by a path of the same steps in another
 * order, all legal on the live map; 0 when there is none. bits holds (nd + 1) * (ns + 1) bits: the
 * cells o + a g + b s reached from o = path[hi + 1] by a diagonal and b straight steps. */
static int rr_window(const pf_map *m, uint32_t *path, uint32_t hi, const rr_dir *d, uint32_t nd,
                     uint32_t ns, uint8_t k, uint32_t *bits)
{
    const uint32_t w = m->width, cols = ns + 1u;
    const int32_t ox = (int32_t)(path[hi + 1u] % w), oy = (int32_t)(path[hi + 1u] / w);
    memset(bits, 0, (((size_t)nd + 1u) * cols + 31u) / 32u * sizeof *bits);
#define RR_GET(a, b) ((bits[((a) * cols + (b)) >> 5] >> (((a) * cols + (b)) & 31u)) & 1u)
    for (uint32_t a = 0; a <= nd; a++)
        for (uint32_t b = 0; b <= ns; b++) {
            const int32_t x = ox + (int32_t)a * d->gx + (int32_t)b * d->sx, y = oy + (int32_t)a * d->gy + (int32_t)b * d->sy;
            if (!open_xy(m, x, y, k)) continue;
            int r = (a == 0 && b == 0) || (b > 0 && RR_GET(a, b - 1u)) ||
                    (a > 0 && RR_GET(a - 1u, b) && open_xy(m, x - d->gx, y, k) && open_xy(m, x, y - d->gy, k));
            if (r) bits[(a * cols + b) >> 5] |= 1u << ((a * cols + b) & 31u);
        }
    if (!RR_GET(nd, ns)) return 0;
    /* back from the window's last cell: the cell t steps after o goes to path[hi + 1 - t] */
    uint32_t a = nd, b = ns;
    for (uint32_t t = nd + ns; t > 0; t--) {
        const int32_t x = ox + (int32_t)a * d->gx + (int32_t)b * d->sx, y = oy + (int32_t)a * d->gy + (int32_t)b * d->sy;
        path[hi + 1u - t] = (uint32_t)y * w + (uint32_t)x;
        if (b > 0 && RR_GET(a, b - 1u))
            b--;
        else
            a--; /* reached by its diagonal step: the test above held for it */
    }
#undef RR_GET
    return 1;
}

int pf__accel_diff_reroute(const pf_map *m, uint32_t *path, uint32_t steps, uint32_t *at, uint32_t *bits, uint32_t cap_bits,
                           uint64_t *cells, uint64_t upto)
{
    const uint32_t w = m->width;
    const uint8_t k = m->cls[pf__grid_pad(m, path[steps])];
    for (uint32_t i = *at; i < steps; i++) {
        if (*cells >= upto) {
            *at = i;
            return -1;
        }
        const int32_t bx = (int32_t)(path[i] % w), by = (int32_t)(path[i] / w);
        const int32_t ax = (int32_t)(path[i + 1u] % w), ay = (int32_t)(path[i + 1u] / w);
        *cells += 1u;
        if (step_legal(m, ax, ay, bx, by, k)) continue;
        const int32_t dx = bx - ax, dy = by - ay;
        int done = 0;
        for (int t = 0; t < 2 && !done; t++) {
            rr_dir d;
            if (dx && dy)
                d = t ? (rr_dir){dx, dy, 0, dy} : (rr_dir){dx, dy, dx, 0};
            else if (dx)
                d = (rr_dir){dx, t ? 1 : -1, dx, 0};
            else
                d = (rr_dir){t ? 1 : -1, dy, 0, dy};
            /* the window grows a step each side in turn while its steps keep to d and its table
             * fits in the bits given */
            uint32_t lo = i, hi = i, nd = dx && dy, ns = nd ^ 1u;
            for (int grew = 1; grew;) {
                grew = 0;
                int32_t sx, sy;
                if (lo > 0) {
                    rr_step(path, w, lo - 1u, &sx, &sy);
                    const uint32_t diag = sx && sy;
                    if (rr_in(&d, sx, sy) && (uint64_t)(nd + diag + 1u) * (ns + (diag ^ 1u) + 1u) <= cap_bits) {
                        lo--, nd += diag, ns += diag ^ 1u, grew = 1;
                    }
                }
                if (hi + 1u < steps) {
                    rr_step(path, w, hi + 1u, &sx, &sy);
                    const uint32_t diag = sx && sy;
                    if (rr_in(&d, sx, sy) && (uint64_t)(nd + diag + 1u) * (ns + (diag ^ 1u) + 1u) <= cap_bits) {
                        hi++, nd += diag, ns += diag ^ 1u, grew = 1;
                    }
                }
            }
            *cells += (uint64_t)(nd + 1u) * (ns + 1u);
            if (nd && ns && rr_window(m, path, hi, &d, nd, ns, k, bits)) {
                done = 1;
                i = hi; /* the loop's i++ goes on after the window */
            }
        }
        if (!done) return 0;
    }
    *at = steps;
    return 1;
}
