/* components.c - connected components of grid maps: the labelling, and its update after edits.
 *
 * comp[c] is the component label of padded cell c (0 = blocked); cells with equal labels are
 * connected. Labels are plain integers reused through a free list, with a cell count each, so
 * `same component?` stays one comparison (the search's early PF_NO_PATH reads it directly).
 *
 * After an edit, only components that had a cell whose class changed can split, and only through
 * the changed cells can components join (a step between two unchanged cells is legal before and
 * after, unless a side cell of a diagonal changed: that side cell is adjacent to both). So:
 *   1. every changed cell leaves its old component (label 0 for now);
 *   2. SPLIT: for each component that lost cells, a multi-front search starts from its remaining
 *      cells next to a changed cell (every piece it may fall into contains one). All fronts grow in
 *      one FIFO, layer by layer; fronts that touch join; a front that runs out of cells is a whole
 *      piece and gets a new label. It stops as soon as at most one front is still growing: that
 *      one keeps the old label without visiting the rest. A building put in the open costs a few
 *      rings around it; a wall that cuts a region in two costs about twice the smaller side;
 *   3. JOIN: changed cells that are passable are flooded (through changed cells only) into a new
 *      label, which then joins every component it touches: the largest keeps its label, the others
 *      are relabelled (a flood over each smaller one).
 * The cost grows with what changed (the cells, the pieces cut off, the smaller sides joined), never
 * with the map, except where the change itself is that large.
 */
#include <stdlib.h>
#include "map/map_internal.h"

/* Temporary labels of split fronts: above any real label (cells < 2^30). */
#define FRONT_BASE UINT32_C(0x80000000)

/* THE MOVE RULE, as the searches apply it: may a walker step from padded cell c in direction d
 * (N E S W NE SE SW NW, or the six hex directions)? Same class on both ends; without corner
 * cutting a diagonal also needs both side cells of that class. Every grid rule is symmetric. One
 * predicate for the labelling and the update, to be pointed at the search's shared move rule. */
static inline int may_step(const pf_map *m, uint32_t c, uint32_t d, uint32_t *to)
{
    const int32_t *off = m->nb_off[(c / m->pw) & 1u];
    uint32_t nb = (uint32_t)((int32_t)c + off[d]);
    uint8_t k = m->cls[c];
    *to = nb;
    if (!k || m->cls[nb] != k) return 0;
    if (d >= 4 && m->moves == PF_MOVES_8_NO_CUT) {
        /* diagonal d = 4 + j uses sides (j, j+1 mod 4) */
        static const uint8_t side_a[4] = {0, 2, 2, 0}, side_b[4] = {1, 1, 3, 3};
        if (m->cls[(uint32_t)((int32_t)c + off[side_a[d - 4]])] != k ||
            m->cls[(uint32_t)((int32_t)c + off[side_b[d - 4]])] != k)
            return 0;
    }
    return 1;
}

static uint32_t dir_count(const pf_map *m) { return m->moves == PF_MOVES_4 ? 4u : m->moves == PF_MOVES_HEX ? 6u : 8u; }

/* ---- label bookkeeping ------------------------------------------------------------------------ */

static int grow_u32(const pf_allocator *a, uint32_t **arr, uint32_t *cap, uint64_t need, uint32_t per)
{
    if (need <= *cap) return 1;
    uint64_t ncap = *cap ? *cap : 256u;
    while (ncap < need) ncap *= 2u;
    if (ncap > UINT32_MAX / 8u) return 0;
    uint32_t *n = pf__calloc(a, (size_t)ncap * per * sizeof(uint32_t), 64);
    if (!n) return 0;
    if (*arr) {
        memcpy(n, *arr, (size_t)*cap * per * sizeof(uint32_t));
        pf__free(a, *arr, (size_t)*cap * per * sizeof(uint32_t));
    }
    *arr = n;
    *cap = (uint32_t)ncap;
    return 1;
}

/* A fresh label with size 0, or 0 on allocation failure. */
static uint32_t label_new(pf_map *m)
{
    pf__comp_state *cs = &m->cs;
    uint32_t l;
    if (cs->nfreed) {
        l = cs->freed[--cs->nfreed];
    } else {
        if (cs->end >= cs->cap) {
            /* size and mark grow together: both new blocks first, so a failure changes nothing */
            uint32_t ncap = cs->cap ? cs->cap * 2u : 1024u;
            if (ncap > UINT32_MAX / 8u) return 0;
            uint32_t *sz = pf__calloc(&m->alloc, (size_t)ncap * sizeof(uint32_t), 64);
            uint32_t *mk = pf__calloc(&m->alloc, (size_t)ncap * sizeof(uint32_t), 64);
            if (!sz || !mk) {
                pf__free(&m->alloc, sz, (size_t)ncap * sizeof(uint32_t));
                pf__free(&m->alloc, mk, (size_t)ncap * sizeof(uint32_t));
                return 0;
            }
            if (cs->cap) {
                memcpy(sz, cs->size, (size_t)cs->cap * sizeof(uint32_t));
                memcpy(mk, cs->mark, (size_t)cs->cap * sizeof(uint32_t));
            }
            pf__free(&m->alloc, cs->size, (size_t)cs->cap * sizeof(uint32_t));
            pf__free(&m->alloc, cs->mark, (size_t)cs->cap * sizeof(uint32_t));
            cs->size = sz;
            cs->mark = mk;
            cs->cap = ncap;
        }
        l = cs->end++;
    }
    cs->size[l] = 0;
    cs->mark[l] = 0;
    cs->count++;
    return l;
}

/* A new stamp for cs->mark (cleared on wrap-around). */
static uint32_t next_stamp(pf__comp_state *cs)
{
    if (++cs->stamp == 0) {
        memset(cs->mark, 0, (size_t)cs->cap * sizeof(uint32_t));
        cs->stamp = 1;
    }
    return cs->stamp;
}

static int label_free(pf_map *m, uint32_t l)
{
    pf__comp_state *cs = &m->cs;
    if (!grow_u32(&m->alloc, &cs->freed, &cs->freed_cap, (uint64_t)cs->nfreed + 1u, 1)) return 0;
    cs->freed[cs->nfreed++] = l;
    cs->size[l] = 0;
    cs->count--;
    return 1;
}

static int queue_reserve(pf_map *m, uint64_t need)
{
    return grow_u32(&m->alloc, &m->cs.queue, &m->cs.queue_cap, need, 1);
}

void pf__grid_components_free(pf_map *m)
{
    pf__comp_state *cs = &m->cs;
    size_t cells = (size_t)m->pw * m->ph;
    pf__free(&m->alloc, m->comp, cells * sizeof(uint32_t));
    pf__free(&m->alloc, cs->size, (size_t)cs->cap * sizeof(uint32_t));
    pf__free(&m->alloc, cs->mark, (size_t)cs->cap * sizeof(uint32_t));
    pf__free(&m->alloc, cs->freed, (size_t)cs->freed_cap * sizeof(uint32_t));
    pf__free(&m->alloc, cs->queue, (size_t)cs->queue_cap * sizeof(uint32_t));
    pf__free(&m->alloc, cs->fr, (size_t)cs->fr_cap * 4 * sizeof(uint32_t));
    m->comp = NULL;
    memset(cs, 0, sizeof *cs);
}

/* ---- labelling from scratch -------------------------------------------------------------------- */

/* Labels connected components by flood fill over the move rule, so a query whose goal lies in
 * another component returns PF_NO_PATH without exhausting the start's component. Uses the map's
 * allocator; returns 0 on allocation failure. */
int pf__grid_label_components(pf_map *m)
{
    size_t cells = (size_t)m->pw * m->ph;
    m->comp = pf__calloc(&m->alloc, cells * sizeof(uint32_t), 64);
    uint32_t *stack = pf__alloc(&m->alloc, cells * sizeof(uint32_t), 64);
    if (!m->comp || !stack) {
        pf__free(&m->alloc, stack, cells * sizeof(uint32_t));
        return 0;
    }
    uint32_t ndir = dir_count(m);
    pf__comp_state *cs = &m->cs;
    cs->end = 1; /* label 0 is "blocked" */
    for (uint32_t i = 0; i < cells; i++) {
        if (!m->cls[i] || m->comp[i]) continue;
        uint32_t label = label_new(m);
        if (!label) {
            pf__free(&m->alloc, stack, cells * sizeof(uint32_t));
            return 0;
        }
        size_t top = 0;
        uint32_t n = 1;
        stack[top++] = i;
        m->comp[i] = label;
        while (top) {
            uint32_t c = stack[--top], nb;
            for (uint32_t d = 0; d < ndir; d++) {
                if (!may_step(m, c, d, &nb) || m->comp[nb]) continue;
                m->comp[nb] = label;
                stack[top++] = nb;
                n++;
            }
        }
        cs->size[label] = n;
    }
    pf__free(&m->alloc, stack, cells * sizeof(uint32_t));
    return 1;
}

/* ---- the update ---------------------------------------------------------------------------------- */

/* Union-find over the fronts of one split check: fr[4f] = label written in its cells (FRONT_BASE + f),
 * fr[4f+1] parent, fr[4f+2] cells queued and not yet expanded (valid at a root), fr[4f+3] final label. */
static uint32_t fr_find(uint32_t *fr, uint32_t f)
{
    while (fr[4 * f + 1] != f) {
        fr[4 * f + 1] = fr[4 * fr[4 * f + 1] + 1];
        f = fr[4 * f + 1];
    }
    return f;
}

/* Relabels component `from` (seeded at cell s) as `to`; returns 0 on allocation failure. */
static int relabel(pf_map *m, uint32_t s, uint32_t from, uint32_t to)
{
    pf__comp_state *cs = &m->cs;
    if (!queue_reserve(m, cs->size[from] + 1u)) return 0;
    uint32_t ndir = dir_count(m), head = 0, tail = 0;
    cs->queue[tail++] = s;
    m->comp[s] = to;
    while (head < tail) {
        uint32_t c = cs->queue[head++], nb;
        for (uint32_t d = 0; d < ndir; d++)
            if (may_step(m, c, d, &nb) && m->comp[nb] == from) {
                m->comp[nb] = to;
                cs->queue[tail++] = nb;
            }
    }
    cs->visited += tail;
    cs->size[to] += tail;
    return label_free(m, from);
}

/* Step 2 for label L, which lost cells: `ports` [np] are its cells next to a changed cell. */
static int split(pf_map *m, uint32_t L, const uint32_t *ports, uint32_t np)
{
    pf__comp_state *cs = &m->cs;
    if (np < 2) return 1; /* one port: whatever is left hangs together through it */
    if (!grow_u32(&m->alloc, &cs->fr, &cs->fr_cap, np, 4)) return 0;
    uint32_t *fr = cs->fr;
    uint32_t head = 0, tail = 0, active = np;
    if (!queue_reserve(m, np)) return 0;
    for (uint32_t f = 0; f < np; f++) {
        fr[4 * f] = FRONT_BASE + f;
        fr[4 * f + 1] = f;
        fr[4 * f + 2] = 1;
        fr[4 * f + 3] = 0;
        m->comp[ports[f]] = FRONT_BASE + f;
        cs->queue[tail++] = ports[f];
    }
    uint32_t ndir = dir_count(m);
    while (active > 1 && head < tail) {
        uint32_t c = cs->queue[head++], nb;
        uint32_t f = fr_find(fr, m->comp[c] - FRONT_BASE);
        fr[4 * f + 2]--;
        for (uint32_t d = 0; d < ndir; d++) {
            if (!may_step(m, c, d, &nb)) continue;
            uint32_t l = m->comp[nb];
            if (l == L) {
                if (tail >= cs->queue_cap && !queue_reserve(m, (uint64_t)tail + 1u)) return 0;
                m->comp[nb] = m->comp[c];
                cs->queue[tail++] = nb;
                fr[4 * f + 2]++;
            } else if (l >= FRONT_BASE && l - FRONT_BASE < np) {
                uint32_t g = fr_find(fr, l - FRONT_BASE);
                if (g != f) { /* two growing fronts meet: one piece */
                    fr[4 * g + 1] = f;
                    fr[4 * f + 2] += fr[4 * g + 2];
                    active--;
                }
            }
        }
        if (fr[4 * f + 2] == 0) active--; /* f ran out of cells: a whole piece */
    }
    /* The one front still growing (if any) keeps L: its unvisited cells are L already. When every
     * front ran out, the largest piece keeps it. Every other piece gets a label of its own. */
    uint32_t keep = UINT32_MAX;
    for (uint32_t f = 0; f < np; f++)
        if (fr_find(fr, f) == f && fr[4 * f + 2] > 0) keep = f;
    for (uint32_t i = 0; i < tail; i++) fr[4 * fr_find(fr, m->comp[cs->queue[i]] - FRONT_BASE) + 3]++;
    if (keep == UINT32_MAX) {
        uint32_t best = 0;
        for (uint32_t f = 0; f < np; f++)
            if (fr_find(fr, f) == f && fr[4 * f + 3] >= best) {
                best = fr[4 * f + 3];
                keep = f;
            }
    }
    for (uint32_t f = 0; f < np; f++) {
        if (fr_find(fr, f) != f) continue;
        uint32_t n = fr[4 * f + 3];
        if (f == keep) {
            fr[4 * f + 3] = L;
            continue;
        }
        uint32_t nl = label_new(m);
        if (!nl) return 0;
        cs->size[nl] = n;
        cs->size[L] -= n;
        fr[4 * f + 3] = nl;
    }
    for (uint32_t i = 0; i < tail; i++) {
        uint32_t c = cs->queue[i];
        m->comp[c] = fr[4 * fr_find(fr, m->comp[c] - FRONT_BASE) + 3];
    }
    cs->visited += tail;
    return 1;
}

/* Step 3 from changed passable cell s (label 0): flood the changed cells it reaches, then join. */
static int join(pf_map *m, uint32_t s)
{
    pf__comp_state *cs = &m->cs;
    uint32_t N = label_new(m);
    if (!N) return 0;
    uint32_t ndir = dir_count(m), head = 0, tail = 0;
    if (!queue_reserve(m, 1)) return 0;
    cs->queue[tail++] = s;
    m->comp[s] = N;
    /* the flood only meets label-0 passable cells that changed: every other cell is labelled */
    while (head < tail) {
        uint32_t c = cs->queue[head++], nb;
        for (uint32_t d = 0; d < ndir; d++)
            if (may_step(m, c, d, &nb) && m->comp[nb] == 0) {
                if (tail >= cs->queue_cap && !queue_reserve(m, (uint64_t)tail + 1u)) return 0;
                m->comp[nb] = N;
                cs->queue[tail++] = nb;
            }
    }
    cs->size[N] = tail;
    cs->visited += tail;
    /* the labels N touches, each with a cell to seed its relabelling (pairs after the flood) */
    uint32_t nflood = tail, keep = N;
    next_stamp(cs);
    cs->mark[N] = cs->stamp;
    for (uint32_t i = 0; i < nflood; i++) {
        uint32_t c = cs->queue[i], nb;
        for (uint32_t d = 0; d < ndir; d++) {
            if (!may_step(m, c, d, &nb)) continue;
            uint32_t l = m->comp[nb];
            if (cs->mark[l] == cs->stamp) continue;
            cs->mark[l] = cs->stamp;
            if (tail + 2u > cs->queue_cap && !queue_reserve(m, (uint64_t)tail + 2u)) return 0;
            cs->queue[tail++] = l;
            cs->queue[tail++] = nb;
            if (cs->size[l] > cs->size[keep]) keep = l;
        }
    }
    if (tail == nflood) return 1;
    /* the largest keeps its label; relabel() reuses the queue, so take the pairs out first */
    uint32_t npairs = (tail - nflood) / 2u;
    uint32_t buf[64];
    uint32_t *pairs = npairs * 2u <= 64u ? buf : pf__alloc(&m->alloc, (size_t)npairs * 2u * sizeof(uint32_t), 64);
    if (!pairs) return 0;
    memcpy(pairs, cs->queue + nflood, (size_t)npairs * 2u * sizeof(uint32_t));
    int ok = 1;
    if (keep != N) ok = relabel(m, s, N, keep);
    for (uint32_t i = 0; ok && i < npairs; i++)
        if (pairs[2 * i] != keep) ok = relabel(m, pairs[2 * i + 1], pairs[2 * i], keep);
    if (pairs != buf) pf__free(&m->alloc, pairs, (size_t)npairs * 2u * sizeof(uint32_t));
    return ok;
}

static int by_label_then_cell(const void *pa, const void *pb)
{
    const uint32_t *a = pa, *b = pb;
    if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
    return a[1] < b[1] ? -1 : a[1] > b[1];
}

static int update(pf_map *m, pf_rect r, const uint8_t *old)
{
    pf__comp_state *cs = &m->cs;
    const uint32_t pw = m->pw, ndir = dir_count(m);
    const uint32_t x0 = (uint32_t)r.x, y0 = (uint32_t)r.y;
    /* 1. changed cells leave their components; the labels that lost cells are marked, and freed
     * when nothing is left of them */
    uint32_t nchanged = 0, stamp = next_stamp(cs);
    for (uint32_t y = 0; y < r.h; y++)
        for (uint32_t x = 0; x < r.w; x++) {
            uint32_t c = (y0 + y) * pw + x0 + x;
            if (old[(size_t)y * r.w + x] == m->cls[c]) continue;
            nchanged++;
            uint32_t l = m->comp[c];
            m->comp[c] = 0;
            if (!l) continue;
            cs->mark[l] = stamp;
            if (--cs->size[l] == 0 && !label_free(m, l)) return 0;
        }
    if (!nchanged) return 1;
    /* 2. ports: (old label, cell) of unchanged cells next to a changed cell whose old label lost
     * cells; the old labels are read from the neighbours, which kept theirs. */
    uint32_t np = 0;
    for (uint32_t y = 0; y < r.h; y++)
        for (uint32_t x = 0; x < r.w; x++) {
            uint32_t c = (y0 + y) * pw + x0 + x;
            if (old[(size_t)y * r.w + x] == m->cls[c] || !old[(size_t)y * r.w + x]) continue;
            /* the cell was passable with class k: any neighbour of class k still labelled may
             * have been joined to it (a step or a diagonal's side); list it under its label */
            const int32_t *off = m->nb_off[(c / pw) & 1u];
            for (uint32_t d = 0; d < ndir; d++) {
                uint32_t nb = (uint32_t)((int32_t)c + off[d]);
                uint32_t l = m->comp[nb];
                if (m->cls[nb] != old[(size_t)y * r.w + x] || !l || cs->mark[l] != stamp) continue;
                if (np * 2u + 2u > cs->queue_cap && !queue_reserve(m, (uint64_t)np * 2u + 2u)) return 0;
                cs->queue[2 * np] = l;
                cs->queue[2 * np + 1] = nb;
                np++;
            }
        }
    if (np) {
        qsort(cs->queue, np, 2 * sizeof(uint32_t), by_label_then_cell);
        /* split() reuses the queue: keep the sorted ports in their own block */
        uint32_t *pairs = pf__alloc(&m->alloc, (size_t)np * 2u * sizeof(uint32_t), 64);
        uint32_t *cells = pf__alloc(&m->alloc, (size_t)np * sizeof(uint32_t), 64);
        int ok = pairs && cells;
        if (ok) memcpy(pairs, cs->queue, (size_t)np * 2u * sizeof(uint32_t));
        for (uint32_t i = 0; ok && i < np;) {
            uint32_t L = pairs[2 * i], n = 0;
            for (; i < np && pairs[2 * i] == L; i++)
                if (!n || cells[n - 1] != pairs[2 * i + 1]) cells[n++] = pairs[2 * i + 1];
            ok = split(m, L, cells, n);
        }
        pf__free(&m->alloc, pairs, (size_t)np * 2u * sizeof(uint32_t));
        pf__free(&m->alloc, cells, (size_t)np * sizeof(uint32_t));
        if (!ok) return 0;
    }
    /* 3. passable changed cells join their neighbours */
    for (uint32_t y = 0; y < r.h; y++)
        for (uint32_t x = 0; x < r.w; x++) {
            uint32_t c = (y0 + y) * pw + x0 + x;
            if (m->cls[c] && !m->comp[c] && !join(m, c)) return 0;
        }
    return 1;
}

int pf__grid_components_edit(pf_map *m, pf_rect r, const uint8_t *old)
{
    if (!m->comp) {
        /* dropped after an earlier failure: label from scratch */
        pf__grid_components_free(m);
        if (pf__grid_label_components(m)) return 1;
        pf__grid_components_free(m);
        return 0;
    }
    if (update(m, r, old)) return 1;
    pf__grid_components_free(m); /* searches only lose the early unreachable answer */
    return 0;
}

/* ---- public ------------------------------------------------------------------------------------ */

uint32_t pf_grid_component(const pf_map *m, int32_t x, int32_t y)
{
    uint32_t n = pf_grid_node(m, x, y);
    if (n == PF_NODE_NONE || !m->comp) return 0;
    return m->comp[pf__grid_pad(m, n)];
}

int pf_grid_same_component(const pf_map *m, uint32_t a, uint32_t b)
{
    if (!m || m->kind != PF_MAP_GRID || !m->comp) return 0;
    uint32_t n = m->width * m->height;
    if (a >= n || b >= n) return 0;
    uint32_t ca = m->comp[pf__grid_pad(m, a)];
    return ca != 0 && ca == m->comp[pf__grid_pad(m, b)];
}

uint32_t pf_grid_component_count(const pf_map *m)
{
    return m && m->kind == PF_MAP_GRID && m->comp ? m->cs.count : 0;
}
