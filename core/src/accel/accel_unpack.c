/* accel_unpack.c - where each shortcut's two halves lie, for writing a path's cells.
 *
 * Why: an accelerated query's path is the hierarchy's arcs unpacked into cells, each shortcut into
 * the two arcs through its middle node (both in that node's list). Found by a scan of the middle's
 * list, each half costs two dependent cache misses: first[mid] (4 bytes a cell of the map, 16 MB on
 * 2000x2000) and then the list. On maze-2000-w4 a query unpacks about 8,600 shortcuts and `perf`
 * put 83% of put_arc's cycles (65% of the query) on those two loads. With the halves' indices in a
 * table beside the arcs, unpacking a shortcut reads the halves themselves and nothing else; and
 * with a byte saying which halves are arcs of the subgoal graph and which way their canonical
 * paths are legal, a half that is one is written without reading it (about half of the arcs an
 * unpacking visits).
 *
 * Not in the file: computed after a build and after a load (one pass over the arcs, as the
 * loader's own check makes), so files made before it load and answer the same.
 */
#include "accel/accel_internal.h"

/* ---- finding an arc by its ends (accel_internal.h) ---------------------------------------------- */

static int by_to_less(const pf_accel *acc, uint32_t i, uint32_t j)
{
    const uint32_t ti = acc->arcs[i].to, tj = acc->arcs[j].to;
    return ti < tj || (ti == tj && i < j);
}

static void sift(const pf_accel *acc, uint32_t *v, uint32_t r, uint32_t n)
{
    for (;;) {
        uint64_t c = 2u * (uint64_t)r + 1u;
        if (c >= n) return;
        if (c + 1u < n && by_to_less(acc, v[c], v[c + 1u])) c++;
        if (!by_to_less(acc, v[r], v[c])) return;
        const uint32_t t = v[r];
        v[r] = v[c];
        v[c] = t;
        r = (uint32_t)c;
    }
}

/* Heapsort of v[0..n) by (to, index): in place, n log n whatever a file holds. */
static void sort_by_to(const pf_accel *acc, uint32_t *v, uint32_t n)
{
    for (uint32_t k = n / 2u; k-- > 0;) sift(acc, v, k, n);
    for (uint32_t end = n; end > 1u;) {
        end--;
        const uint32_t t = v[0];
        v[0] = v[end];
        v[end] = t;
        sift(acc, v, 0, end);
    }
}

int pf__accel_finder_make(const pf_accel *acc, uint32_t longest, pf__accel_finder *f)
{
    f->by_to = NULL;
    f->twice = UINT32_MAX;
    if (!longest) {
        /* a loop without an exit, so that it vectorises (with one, 9 instructions a cell) */
        const uint32_t *first = acc->first, cells = acc->cells;
        for (uint32_t c = 0; c < cells; c++) {
            const uint32_t n = first[c + 1u] - first[c];
            longest = n > longest ? n : longest;
        }
    }
    if (longest <= PF__ACCEL_FIND_SCAN) return 1;
    f->by_to = pf__alloc(&acc->alloc, (size_t)acc->narcs * sizeof(uint32_t), 64);
    if (!f->by_to) return 0;
    for (uint32_t c = 0; c < acc->cells; c++) {
        const uint32_t b = acc->first[c], n = acc->first[c + 1u] - b;
        if (n <= PF__ACCEL_FIND_SCAN) continue;
        uint32_t *v = f->by_to + b;
        for (uint32_t k = 0; k < n; k++) v[k] = b + k;
        sort_by_to(acc, v, n);
        for (uint32_t k = 1; k < n; k++)
            if (acc->arcs[v[k]].to == acc->arcs[v[k - 1u]].to && v[k] < f->twice) f->twice = v[k];
    }
    return 1;
}

void pf__accel_finder_free(const pf_accel *acc, pf__accel_finder *f)
{
    pf__free(&acc->alloc, f->by_to, (size_t)acc->narcs * sizeof(uint32_t));
    f->by_to = NULL;
}

/* ---- the unpacking index ------------------------------------------------------------------------- */

/* A half's two bits in acc->halves: PF__ACCEL_HALF_GRAPH when it is an arc of the subgoal graph,
 * PF__ACCEL_HALF_SRC when its canonical path is legal from its owner (the middle node). */
static uint8_t half_bits(const pf__accel_arc *h)
{
    if (h->mid < PF__ACCEL_FROM_DST) return 0;
    return (uint8_t)(PF__ACCEL_HALF_GRAPH | (h->mid == PF__ACCEL_FROM_SRC ? PF__ACCEL_HALF_SRC : 0u));
}

int pf__accel_unpack_index(pf_accel *acc)
{
    pf__accel_finder fd;
    if (!pf__accel_finder_make(acc, 0, &fd)) return 0;
    const int ok = pf__accel_unpack_index_by(acc, &fd);
    pf__accel_finder_free(acc, &fd);
    return ok;
}

int pf__accel_unpack_index_by(pf_accel *acc, const pf__accel_finder *fd)
{
    pf__accel_unpack_free(acc);
    if (!acc->narcs) return 1;
    acc->down = pf__alloc(&acc->alloc, (size_t)acc->narcs * sizeof(uint32_t), 64);
    acc->halves = pf__alloc(&acc->alloc, acc->narcs, 64);
    if (!acc->down || !acc->halves) {
        pf__accel_unpack_free(acc);
        return 0;
    }
    for (uint32_t c = 0; c < acc->cells; c++) {
        for (uint32_t i = acc->first[c]; i < acc->first[c + 1u]; i++) {
            const pf__accel_arc *e = &acc->arcs[i];
            uint32_t d = PF__ACCEL_DOWN_NONE;
            uint8_t h = 0;
            if (e->mid < PF__ACCEL_FROM_DST) {
                uint32_t k0 = pf__accel_find(acc, fd, e->mid, c), k1 = pf__accel_find(acc, fd, e->mid, e->to);
                /* both in one list: the second as a small offset from the first; an index or an
                 * offset that does not fit leaves the arc to the scan (put_arc) */
                int64_t off = (int64_t)k1 - (int64_t)k0;
                if (k0 <= PF__ACCEL_DOWN_MASK && k1 != UINT32_MAX && off >= -128 && off < 127) {
                    d = k0 | (uint32_t)(off + 128) << PF__ACCEL_DOWN_SHIFT;
                    h = (uint8_t)(half_bits(&acc->arcs[k0]) | half_bits(&acc->arcs[k1]) << 2);
                }
            }
            acc->down[i] = d;
            acc->halves[i] = h;
        }
    }
    return 1;
}

void pf__accel_unpack_free(pf_accel *acc)
{
    pf__free(&acc->alloc, acc->down, (size_t)acc->narcs * sizeof(uint32_t));
    pf__free(&acc->alloc, acc->halves, acc->narcs);
    acc->down = NULL;
    acc->halves = NULL;
}

size_t pf__accel_unpack_bytes(const pf_accel *acc) { return acc->down ? (size_t)acc->narcs * (sizeof(uint32_t) + 1u) : 0; }
