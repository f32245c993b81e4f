/* components.c - connected components of grid maps: the labelling, and its update after edits.
 *
 * TWO LEVELS. The grid is cut into 64x64 tiles. Within a tile, cells connected by moves that stay
 * in the tile form a NODE; comp[c] is the node of cell c (0 = blocked). Nodes of neighbouring tiles
 * are joined by EDGES where a legal move crosses the tile border (each tile lists the edges of its
 * nodes). Components are connected sets of nodes: comp_root[node] is the component, so
 * `same component?` is comp_root[comp[a]] == comp_root[comp[b]], two loads.
 *
 * Why two levels: a 4x4 building in a 4-wide corridor of a perfect maze really cuts a component of
 * two million cells in two. With one label per cell, the smaller half must be relabelled cell by
 * cell (measured: 40 ms mean, 300 ms worst on maze-2000-w4); with nodes, only its nodes change
 * component (a few thousand), and the cells keep theirs (0.2 ms mean, 0.85 ms worst).
 *
 * AN EDIT, for the tiles T that hold a cell whose class changed:
 *   1. T's old nodes are freed, with their edges; their neighbours outside T that belonged to the
 *      same component are the PORTS of that component (every piece it may fall into has one);
 *   2. T's tiles are labelled again (4096 cells each) and their border edges found again; the new
 *      nodes have no component yet;
 *   3. SPLIT: for each component that lost nodes, a multi-front search starts from its ports, over
 *      its nodes and the new nodes. Fronts take turns, one node each; fronts that touch join; a
 *      front that runs out of nodes is a whole piece and gets a new component. It stops as soon
 *      as at most one front still grows: that one keeps the component, and nothing beyond it is
 *      visited. A building in the open costs a few nodes around its tile; a cut costs about twice
 *      the smaller side, in nodes;
 *   4. JOIN: new nodes no front reached get a new component; then every new node's edges are
 *      checked, and two components that meet merge: the larger (in nodes) keeps its id, the
 *      smaller's nodes are relabelled.
 */
#include <stdlib.h>
#include "map/map_internal.h"
#include "map/grid_moves_internal.h" /* the move rule: which cells join which */
#include "grow_internal.h"
#include "map/components_internal.h" /* the layout, shared with the tests' consistency check */

/* ---- growable arrays ---------------------------------------------------------------------------- */

/* Grows `*arr` of `per` u32 per element from *cap to at least `need` elements (zero-filled). Most
 * callers test the capacity first, in loops: the growth stays out of line. */
static int grow(const pf_allocator *a, uint32_t **arr, uint32_t *cap, uint64_t need, uint32_t per)
{
    return pf__grow_slow(a, arr, cap, need, (size_t)per * sizeof(uint32_t), 256u, 1);
}

static int push(const pf_allocator *a, uint32_t **arr, uint32_t *cap, uint32_t *n, uint32_t x)
{
    if (*n >= *cap && !grow(a, arr, cap, (uint64_t)*n + 1u, 1)) return 0;
    (*arr)[(*n)++] = x;
    return 1;
}

/* Doubles a list of n entries that starts in a stack buffer (*heap NULL) and moves to the heap
 * when full: *list and *heap point at the new block; 0 (nothing changed) when out of memory. */
static int list_grow(struct pf__comps *cc, uint32_t **list, uint32_t **heap, uint32_t *cap, uint32_t n)
{
    uint32_t cap2 = *cap, *fresh = NULL;
    if (!grow(&cc->alloc, &fresh, &cap2, (uint64_t)*cap * 2u, 1)) return 0;
    memcpy(fresh, *list, (size_t)n * sizeof(uint32_t));
    pf__free(&cc->alloc, *heap, (size_t)*cap * sizeof(uint32_t));
    *list = *heap = fresh;
    *cap = cap2;
    return 1;
}

static int edge_add(const pf_allocator *a, tile_edges *t, uint32_t u, uint32_t v)
{
    if (t->n >= t->cap && !pf__grow_slow(a, &t->e, &t->cap, (uint64_t)t->n + 1u, 2u * sizeof(uint32_t), 128u, 1))
        return 0;
    t->e[2 * t->n] = u;
    t->e[2 * t->n + 1] = v;
    t->n++;
    return 1;
}

/* ---- nodes and components ------------------------------------------------------------------------- */

/* Grows the node arrays together, all or none (comp_root lives in the map, where the
 * searches read it). */
static int nodes_grow(pf_map *m, uint32_t need)
{
    struct pf__comps *cc = m->cc;
    if (need > (UINT32_C(1) << 29)) return 0; /* the bound the node ids always had */
    void *const arr[8] = {&m->comp_root, &cc->ntile, &cc->nmark, &cc->nadj,
                          &cc->ndeg,      &cc->nbox,  &cc->ndiag, &cc->nband};
    const size_t elems[8] = {sizeof(uint32_t), sizeof(uint32_t), sizeof(uint32_t), sizeof(uint32_t),
                             sizeof(uint32_t), sizeof(uint32_t), sizeof(uint32_t), PF__NBANDS * sizeof(uint16_t)};
    return pf__grow_all(&cc->alloc, arr, elems, 8, &cc->ncap, need, 1024u, 1);
}

/* A node of tile t with no component and no edges, or 0 on allocation failure. */
static uint32_t node_new(pf_map *m, uint32_t t)
{
    struct pf__comps *cc = m->cc;
    uint32_t id;
    if (cc->nfreed) {
        id = cc->nfree[--cc->nfreed];
    } else {
        if (!nodes_grow(m, cc->nend + 1u)) return 0;
        id = cc->nend++;
    }
    m->comp_root[id] = 0;
    cc->ntile[id] = t;
    cc->nmark[id] = 0;
    cc->nadj[id] = cc->ndeg[id] = 0;
    cc->nbox[id] = cc->ndiag[id] = 0x00ff00ffu; /* empty: each min 255, each max 0; tile_label widens them */
    for (uint32_t b = 0; b < PF__NBANDS; b++) cc->nband[(size_t)id * PF__NBANDS + b] = 0x00ffu;
    return id;
}

static int node_free(pf_map *m, uint32_t id)
{
    struct pf__comps *cc = m->cc;
    if (!push(&cc->alloc, &cc->nfree, &cc->nfree_cap, &cc->nfreed, id)) return 0;
    cc->ntile[id] = FREED;
    m->comp_root[id] = 0;
    return 1;
}

static uint32_t comp_new(struct pf__comps *cc)
{
    uint32_t l;
    if (cc->cfreed) {
        l = cc->cfree[--cc->cfreed];
    } else {
        if (cc->cend >= cc->ccap) {
            /* both arrays or neither, so their sizes stay cc->ccap */
            uint32_t c1 = cc->ccap, c2 = cc->ccap, *sz = NULL, *mk = NULL;
            uint64_t need = (uint64_t)cc->cend + 1u;
            if (!grow(&cc->alloc, &sz, &c1, need, 1) || !grow(&cc->alloc, &mk, &c2, need, 1)) {
                pf__free(&cc->alloc, sz, (size_t)c1 * sizeof(uint32_t));
                return 0;
            }
            if (cc->ccap) {
                memcpy(sz, cc->csize, (size_t)cc->ccap * sizeof(uint32_t));
                memcpy(mk, cc->cmark, (size_t)cc->ccap * sizeof(uint32_t));
            }
            pf__free(&cc->alloc, cc->csize, (size_t)cc->ccap * sizeof(uint32_t));
            pf__free(&cc->alloc, cc->cmark, (size_t)cc->ccap * sizeof(uint32_t));
            cc->csize = sz;
            cc->cmark = mk;
            cc->ccap = c1;
        }
        l = cc->cend++;
    }
    cc->csize[l] = 0;
    cc->cmark[l] = 0;
    cc->count++;
    return l;
}

static int comp_free(struct pf__comps *cc, uint32_t l)
{
    if (!push(&cc->alloc, &cc->cfree, &cc->cfree_cap, &cc->cfreed, l)) return 0;
    cc->csize[l] = 0;
    cc->count--;
    return 1;
}

static uint32_t next_stamp(struct pf__comps *cc)
{
    if (++cc->stamp == 0) {
        for (uint32_t l = 0; l < cc->ccap; l++) cc->cmark[l] = 0;
        for (uint32_t t = 0; t < cc->tx * cc->ty; t++) cc->te[t].stamp = cc->te[t].nstamp = 0;
        cc->stamp = 1;
    }
    return cc->stamp;
}

/* ---- one tile ---------------------------------------------------------------------------------------- */

static uint32_t run_find(uint32_t *par, uint32_t r)
{
    while (par[r] != r) {
        par[r] = par[par[r]];
        r = par[r];
    }
    return r;
}

/* Labels the nodes of tile t (cells connected by moves inside it) and appends them to cc->v from
 * index *nv; cells counted in *cells. 0 on allocation failure.
 *
 * By runs, not by a flood: a row's maximal runs of one class are connected, and a run joins the
 * runs of the row above that its cells can step to. Without corner cutting (and on 4-connected
 * grids) that is overlap, since a legal diagonal has both side cells of its class and so a path of
 * straight steps; with corner cutting the diagonals reach one column further each way; on hex grids
 * the row above is shifted half a cell, left or right by the row's parity (pf_grid.h). A tile costs
 * about three operations a cell where a flood over the move rule cost thirty (measured). The tests
 * check the result against a flood over the move rule (pf__grid_moves_at). */
static int tile_label(pf_map *m, uint32_t t, uint32_t *nv, uint32_t *cells)
{
    struct pf__comps *cc = m->cc;
    const uint32_t pw = m->pw;
    const uint32_t x0 = (t % cc->tx) * TS + 1u, y0 = (t / cc->tx) * TS + 1u;
    const uint32_t x1 = x0 + TS < pw - 1u ? x0 + TS : pw - 1u, y1 = y0 + TS < m->ph - 1u ? y0 + TS : m->ph - 1u;
    const uint32_t tw = x1 - x0, th = y1 - y0;
    uint8_t *rx0 = cc->rx0, *rx1 = cc->rx1, *rk = cc->rk;
    uint32_t *par = cc->rpar, *rrow = cc->rrow, nr = 0, n = 0;
    for (uint32_t ly = 0; ly < th; ly++) {
        const uint32_t y = y0 + ly;
        const uint8_t *row = m->cls + (size_t)y * pw + x0;
        rrow[ly] = nr;
        for (uint32_t x = 0; x < tw;) {
            uint8_t k = row[x];
            if (!k) {
                x++;
                continue;
            }
            uint32_t xs = x;
            while (x < tw && row[x] == k) x++;
            rx0[nr] = (uint8_t)xs;
            rx1[nr] = (uint8_t)(x - 1u); /* inclusive: TS columns fit a byte */
            rk[nr] = k;
            par[nr] = nr;
            n += x - xs;
            nr++;
        }
        if (!ly) continue;
        /* the cells of the row above that a run [a, b] reaches: [a - lo, b + hi] */
        uint32_t lo, hi;
        pf__mv_up_reach(pf__mv_of(m->moves), y, &lo, &hi);
        uint32_t i = rrow[ly - 1], iend = rrow[ly];
        for (uint32_t j = rrow[ly]; j < nr; j++) {
            uint32_t a = rx0[j], b = rx1[j];
            while (i < iend && (uint32_t)rx1[i] + lo < a) i++;
            for (uint32_t p = i; p < iend && rx0[p] <= b + hi; p++) {
                if (rk[p] != rk[j]) continue;
                uint32_t ra = run_find(par, j), rb = run_find(par, p);
                if (ra != rb) par[ra] = rb;
            }
        }
    }
    rrow[th] = nr;
    for (uint32_t r = 0; r < nr; r++) cc->rnode[r] = 0;
    for (uint32_t ly = 0; ly < th; ly++) {
        uint32_t *crow = m->comp + (size_t)(y0 + ly) * pw + x0;
        memset(crow, 0, (size_t)tw * sizeof(uint32_t));
        for (uint32_t r = rrow[ly]; r < rrow[ly + 1]; r++) {
            uint32_t root = run_find(par, r);
            if (!cc->rnode[root]) {
                uint32_t id = node_new(m, t);
                if (!id || !push(&cc->alloc, &cc->v, &cc->vcap, nv, id)) return 0;
                cc->rnode[root] = id;
            }
            uint32_t id = cc->rnode[root], b = cc->nbox[id];
            for (uint32_t x = rx0[r]; x <= rx1[r]; x++) crow[x] = id;
            /* rows come in order: the first run of a node sets y0, each sets y1 */
            const uint32_t bx0 = PF__NBOX_X0(b) < rx0[r] ? PF__NBOX_X0(b) : rx0[r];
            const uint32_t bx1 = PF__NBOX_X1(b) > rx1[r] ? PF__NBOX_X1(b) : rx1[r];
            const uint32_t by0 = PF__NBOX_Y0(b) < ly ? PF__NBOX_Y0(b) : ly;
            cc->nbox[id] = bx0 | bx1 << 8 | by0 << 16 | ly << 24;
            uint32_t u0, v0, u1, v1, dg = cc->ndiag[id];
            pf__ndiag_uv(m->moves == PF_MOVES_HEX, rx0[r], ly, &u0, &v0);
            pf__ndiag_uv(m->moves == PF_MOVES_HEX, rx1[r], ly, &u1, &v1);
            u0 = u0 < (dg & 0xffu) ? u0 : (dg & 0xffu);
            u1 = u1 > (dg >> 8 & 0xffu) ? u1 : (dg >> 8 & 0xffu);
            v0 = v0 < (dg >> 16 & 0xffu) ? v0 : (dg >> 16 & 0xffu);
            v1 = v1 > (dg >> 24) ? v1 : (dg >> 24);
            cc->ndiag[id] = u0 | u1 << 8 | v0 << 16 | v1 << 24;
            uint16_t *band = &cc->nband[(size_t)id * PF__NBANDS + (ly >> PF__NBAND_SHIFT)];
            const uint32_t c0 = (*band & 0xffu) < rx0[r] ? (*band & 0xffu) : rx0[r];
            const uint32_t c1 = (uint32_t)(*band >> 8) > rx1[r] ? (uint32_t)(*band >> 8) : rx1[r];
            *band = (uint16_t)(c0 | c1 << 8);
        }
    }
    *cells += n;
    return 1;
}

static int cmp_pair(const void *pa, const void *pb)
{
    const uint32_t *a = pa, *b = pb;
    if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
    return a[1] < b[1] ? -1 : a[1] > b[1];
}

/* The edges out of the border cells of the tile [x0, x1) x [y0, y1) into te, under rule MV (a
 * constant: one loop per rule, the directions unrolled, as the searches are instantiated). */
PF__INLINE int border_edges(pf_map *m, tile_edges *te, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, const int MV)
{
    const uint32_t pw = m->pw;
    for (uint32_t y = y0; y < y1; y++) {
        int edge_row = y == y0 || y == y1 - 1u;
        pf__grid_view v = pf__grid_view_of(m);
        v.off = m->nb_off[y & 1u]; /* hex: the offsets of the row's parity */
        for (uint32_t x = x0; x < x1; x += edge_row ? 1u : (x1 - 1u - x0 ? x1 - 1u - x0 : 1u)) {
            uint32_t c = y * pw + x;
            const pf__unit walker = {v.cls[c], 1};
            if (!walker.k) continue;
            for (uint32_t d = 0; d < pf__mv_dirs(MV); d++) {
                int32_t nx = (int32_t)x + pf__mv_dx(MV, y, d), ny = (int32_t)y + pf__mv_dy(MV, d);
                if (nx >= (int32_t)x0 && nx < (int32_t)x1 && ny >= (int32_t)y0 && ny < (int32_t)y1) continue;
                if (!pf__grid_step_ok(&v, c, d, walker, MV)) continue;
                /* a border mostly meets the same neighbour node again: skip a repeat of the last */
                uint32_t a = m->comp[c], b = m->comp[(uint32_t)((int32_t)c + v.off[d])];
                if (te->n && te->e[2 * te->n - 2] == a && te->e[2 * te->n - 1] == b) continue;
                if (!edge_add(&m->cc->alloc, te, a, b)) return 0;
            }
        }
    }
    return 1;
}

/* Finds the edges of tile t's nodes across its border into te[t] (tile_index sorts them); with `mirror`,
 * also appends each edge's reverse to the neighbour's list when the neighbour is not stamped
 * `skip_stamp` (a neighbour being rebuilt lists its own). */
static int tile_border(pf_map *m, uint32_t t, int mirror, uint32_t skip_stamp)
{
    struct pf__comps *cc = m->cc;
    const uint32_t pw = m->pw;
    const uint32_t x0 = (t % cc->tx) * TS + 1u, y0 = (t / cc->tx) * TS + 1u;
    const uint32_t x1 = x0 + TS < pw - 1u ? x0 + TS : pw - 1u, y1 = y0 + TS < m->ph - 1u ? y0 + TS : m->ph - 1u;
    tile_edges *te = &cc->te[t];
    te->n = 0;
    int ok;
    switch (pf__mv_of(m->moves)) {
    case PF__MV_4: ok = border_edges(m, te, x0, y0, x1, y1, PF__MV_4); break;
    case PF__MV_8CUT: ok = border_edges(m, te, x0, y0, x1, y1, PF__MV_8CUT); break;
    case PF__MV_HEX: ok = border_edges(m, te, x0, y0, x1, y1, PF__MV_HEX); break;
    default: ok = border_edges(m, te, x0, y0, x1, y1, PF__MV_8); break;
    }
    if (!ok) return 0;
    if (mirror)
        for (uint32_t i = 0; i < te->n; i++) {
            uint32_t v = te->e[2 * i + 1], tv = cc->ntile[v];
            if (cc->te[tv].stamp == skip_stamp) continue;
            if (!edge_add(&cc->alloc, &cc->te[tv], v, te->e[2 * i])) return 0;
        }
    return 1;
}

/* Sorts tile t's edges, drops repeats and points each node at its range. */
static void tile_index(struct pf__comps *cc, uint32_t t)
{
    tile_edges *te = &cc->te[t];
    if (te->n > 1) {
        qsort(te->e, te->n, 2 * sizeof(uint32_t), cmp_pair);
        uint32_t k = 1;
        for (uint32_t i = 1; i < te->n; i++)
            if (te->e[2 * i] != te->e[2 * k - 2] || te->e[2 * i + 1] != te->e[2 * k - 1]) {
                te->e[2 * k] = te->e[2 * i];
                te->e[2 * k + 1] = te->e[2 * i + 1];
                k++;
            }
        te->n = k;
    }
    for (uint32_t i = 0; i < te->n; i++) {
        uint32_t u = te->e[2 * i];
        if (!i || te->e[2 * i - 2] != u) {
            cc->nadj[u] = i;
            cc->ndeg[u] = 0;
        }
        cc->ndeg[u]++;
    }
}

/* Before tile t's edges change: its nodes' ranges are void. */
static void tile_unindex(struct pf__comps *cc, uint32_t t)
{
    const tile_edges *te = &cc->te[t];
    for (uint32_t i = 0; i < te->n; i++) cc->ndeg[te->e[2 * i]] = 0;
}

/* Runs the body with v_ set to every neighbour of node u. */
#define FOR_EDGES(cc, u, v_, ...)                                                                     \
    do {                                                                                               \
        const uint32_t *e_ = (cc)->te[(cc)->ntile[u]].e;                                               \
        for (uint32_t k_ = (cc)->nadj[u], ke_ = k_ + (cc)->ndeg[u]; k_ < ke_; k_++) {                   \
            uint32_t v_ = e_[2 * k_ + 1];                                                              \
            __VA_ARGS__                                                                                \
        }                                                                                              \
    } while (0)

/* Gives node s, and every node of component `from` it reaches, the component `to` (from 0: nodes
 * without one). The queue must hold them all. Returns how many. */
static uint32_t flood(pf_map *m, uint32_t s, uint32_t from, uint32_t to)
{
    struct pf__comps *cc = m->cc;
    uint32_t *root = m->comp_root;
    uint32_t head = 0, tail = 0;
    cc->q[tail++] = s;
    root[s] = to;
    while (head < tail) {
        uint32_t u = cc->q[head++];
        FOR_EDGES(cc, u, v, {
            if (root[v] == from) {
                root[v] = to;
                cc->q[tail++] = v;
            }
        });
    }
    return tail;
}

/* Component `from` (seeded at s) joins `to`. */
static int relabel(pf_map *m, uint32_t s, uint32_t from, uint32_t to, uint32_t *visited)
{
    struct pf__comps *cc = m->cc;
    if (!grow(&cc->alloc, &cc->q, &cc->qcap, (uint64_t)cc->csize[from] + 1u, 1)) return 0;
    uint32_t n = flood(m, s, from, to);
    *visited += n;
    cc->csize[to] += n;
    cc->csize[from] -= n;
    return cc->csize[from] ? 1 : comp_free(cc, from);
}

/* A new component for node s and the nodes without one it reaches; the queue must hold them all.
 * Returns how many, 0 on allocation failure. */
static uint32_t claim(pf_map *m, uint32_t s)
{
    uint32_t l = comp_new(m->cc);
    if (!l) return 0;
    return m->cc->csize[l] = flood(m, s, 0, l);
}

/* ---- labelling from scratch ---------------------------------------------------------------------- */

static int build(pf_map *m)
{
    struct pf__comps *cc = m->cc;
    uint32_t tiles = cc->tx * cc->ty, nv = 0, cells = 0;
    cc->nend = 1; /* node 0 is "blocked" */
    cc->cend = 1; /* component 0 likewise */
    if (!nodes_grow(m, 1024)) return 0;
    for (uint32_t t = 0; t < tiles; t++) {
        nv = 0; /* the list of new nodes is not needed here */
        if (!tile_label(m, t, &nv, &cells)) return 0;
    }
    for (uint32_t t = 0; t < tiles; t++) {
        if (!tile_border(m, t, 0, 0)) return 0;
        tile_index(cc, t);
    }
    /* components: a search over the nodes */
    uint32_t *root = m->comp_root;
    if (!grow(&cc->alloc, &cc->q, &cc->qcap, cc->nend, 1)) return 0;
    for (uint32_t s = 1; s < cc->nend; s++)
        if (!root[s] && !claim(m, s)) return 0;
    return 1;
}

int pf__grid_label_components(pf_map *m)
{
    size_t cells = (size_t)m->pw * m->ph;
    pf__grid_components_free(m);
    m->cc = pf__calloc(&m->alloc, sizeof *m->cc, 64);
    m->comp = pf__calloc(&m->alloc, cells * sizeof(uint32_t), 64);
    if (!m->cc || !m->comp) {
        pf__free(&m->alloc, m->cc, sizeof *m->cc);
        pf__free(&m->alloc, m->comp, cells * sizeof(uint32_t));
        m->cc = NULL;
        m->comp = NULL;
        return 0;
    }
    struct pf__comps *cc = m->cc;
    cc->alloc = m->alloc;
    cc->tx = (m->width + TS - 1u) / TS;
    cc->ty = (m->height + TS - 1u) / TS;
    cc->te = pf__calloc(&m->alloc, (size_t)cc->tx * cc->ty * sizeof *cc->te, 64);
    cc->rx0 = pf__alloc(&m->alloc, TS * TS, 64);
    cc->rx1 = pf__alloc(&m->alloc, TS * TS, 64);
    cc->rk = pf__alloc(&m->alloc, TS * TS, 64);
    cc->rpar = pf__alloc(&m->alloc, TS * TS * sizeof(uint32_t), 64);
    cc->rnode = pf__alloc(&m->alloc, TS * TS * sizeof(uint32_t), 64);
    cc->rrow = pf__alloc(&m->alloc, (TS + 1u) * sizeof(uint32_t), 64);
    if (!cc->te || !cc->rx0 || !cc->rx1 || !cc->rk || !cc->rpar || !cc->rnode || !cc->rrow || !build(m)) {
        pf__grid_components_free(m);
        return 0;
    }
    return 1;
}

void pf__grid_components_free(pf_map *m)
{
    struct pf__comps *cc = m->cc;
    const pf_allocator *a = &m->alloc;
    pf__free(a, m->comp, (size_t)m->pw * m->ph * sizeof(uint32_t));
    m->comp = NULL;
    if (!cc) return;
    pf__free(a, m->comp_root, (size_t)cc->ncap * sizeof(uint32_t));
    m->comp_root = NULL;
    if (cc->te)
        for (uint32_t t = 0; t < cc->tx * cc->ty; t++) pf__free(a, cc->te[t].e, (size_t)cc->te[t].cap * 2u * sizeof(uint32_t));
    pf__free(a, cc->te, (size_t)cc->tx * cc->ty * sizeof *cc->te);
    pf__free(a, cc->ntile, (size_t)cc->ncap * sizeof(uint32_t));
    pf__free(a, cc->nmark, (size_t)cc->ncap * sizeof(uint32_t));
    pf__free(a, cc->nadj, (size_t)cc->ncap * sizeof(uint32_t));
    pf__free(a, cc->ndeg, (size_t)cc->ncap * sizeof(uint32_t));
    pf__free(a, cc->nbox, (size_t)cc->ncap * sizeof(uint32_t));
    pf__free(a, cc->ndiag, (size_t)cc->ncap * sizeof(uint32_t));
    pf__free(a, cc->nband, (size_t)cc->ncap * PF__NBANDS * sizeof(uint16_t));
    pf__free(a, cc->rx0, TS * TS);
    pf__free(a, cc->rx1, TS * TS);
    pf__free(a, cc->rk, TS * TS);
    pf__free(a, cc->rpar, TS * TS * sizeof(uint32_t));
    pf__free(a, cc->rnode, TS * TS * sizeof(uint32_t));
    pf__free(a, cc->rrow, (TS + 1u) * sizeof(uint32_t));
    pf__free(a, cc->nfree, (size_t)cc->nfree_cap * sizeof(uint32_t));
    pf__free(a, cc->csize, (size_t)cc->ccap * sizeof(uint32_t));
    pf__free(a, cc->cmark, (size_t)cc->ccap * sizeof(uint32_t));
    pf__free(a, cc->cfree, (size_t)cc->cfree_cap * sizeof(uint32_t));
    pf__free(a, cc->q, (size_t)cc->qcap * sizeof(uint32_t));
    pf__free(a, cc->v, (size_t)cc->vcap * sizeof(uint32_t));
    pf__free(a, cc->fr, (size_t)cc->frcap * (FR + 1u) * sizeof(uint32_t));
    pf__free(a, cc->qn, (size_t)cc->qncap * sizeof(uint32_t));
    pf__free(a, cc, sizeof *cc);
    m->cc = NULL;
}

size_t pf__grid_components_mem(const pf_map *m)
{
    const struct pf__comps *cc = m->cc;
    if (!cc) return 0;
    size_t s = sizeof *cc + (size_t)m->pw * m->ph * sizeof(uint32_t);
    s += (size_t)cc->ncap * (7u * sizeof(uint32_t) + PF__NBANDS * sizeof(uint16_t));
    s += (size_t)cc->nfree_cap * sizeof(uint32_t);
    s += TS * TS * (3u + 2u * sizeof(uint32_t)) + (TS + 1u) * sizeof(uint32_t);
    s += (size_t)cc->ccap * 2u * sizeof(uint32_t) + (size_t)cc->cfree_cap * sizeof(uint32_t);
    s += ((size_t)cc->qcap + cc->qncap + cc->vcap + (size_t)cc->frcap * (FR + 1u)) * sizeof(uint32_t);
    s += (size_t)cc->tx * cc->ty * sizeof *cc->te;
    for (uint32_t t = 0; t < cc->tx * cc->ty; t++) s += (size_t)cc->te[t].cap * 2u * sizeof(uint32_t);
    return s;
}


/* ---- the update ------------------------------------------------------------------------------------- */

/* Split fronts, FR words each (FR is defined at the top): parent (union-find), pending (nodes queued, at a root), head and tail
 * of the root's queue (positions in cc->q, linked by cc->qn), count (nodes claimed), final
 * component. */
enum { F_PARENT, F_PENDING, F_HEAD, F_TAIL, F_COUNT, F_FINAL };

static uint32_t fr_find(uint32_t *fr, uint32_t f)
{
    while (fr[FR * f + F_PARENT] != f) {
        fr[FR * f + F_PARENT] = fr[FR * fr[FR * f + F_PARENT] + F_PARENT];
        f = fr[FR * f + F_PARENT];
    }
    return f;
}

/* Step 3 for component L: `ports` [np] (distinct) are its nodes that touched a freed node.
 *
 * The fronts take turns, one node each (a queue per front, joined when fronts meet), so when L
 * is cut in two the search stops after about twice the smaller side's nodes, whatever the shapes
 * of the two sides (one FIFO for all fronts went layer by layer instead: a bushy large side then
 * out-grew a long thin small one, measured 1.5-2x more nodes on the maze). */
static int split(pf_map *m, uint32_t L, const uint32_t *ports, uint32_t np, uint32_t *visited)
{
    struct pf__comps *cc = m->cc;
    uint32_t *root = m->comp_root;
    if (!grow(&cc->alloc, &cc->fr, &cc->frcap, np, FR + 1u)) return 0;
    if (!grow(&cc->alloc, &cc->q, &cc->qcap, np, 1) || !grow(&cc->alloc, &cc->qn, &cc->qncap, cc->qcap, 1)) return 0;
    uint32_t *fr = cc->fr, *act = fr + (size_t)FR * np; /* act: the fronts in turn, [np] */
    uint32_t tail = 0, active = np, nact = np;
    for (uint32_t f = 0; f < np; f++) {
        uint32_t *e = fr + FR * f;
        e[F_PARENT] = f;
        e[F_PENDING] = 1;
        e[F_HEAD] = e[F_TAIL] = tail;
        e[F_COUNT] = 0;
        cc->nmark[ports[f]] = FRONT_BASE + f;
        cc->qn[tail] = UINT32_MAX;
        cc->q[tail++] = ports[f];
        act[f] = f;
    }
    int ok = 1;
    for (uint32_t turn = 0; active > 1 && ok;) {
        if (turn >= nact) turn = 0;
        uint32_t f = act[turn];
        uint32_t *e = fr + FR * f;
        if (e[F_PARENT] != f || e[F_PENDING] == 0) { /* joined another, or ran out: off the list */
            act[turn] = act[--nact];
            continue;
        }
        uint32_t pos = e[F_HEAD], u = cc->q[pos];
        e[F_HEAD] = cc->qn[pos];
        e[F_PENDING]--;
        const uint32_t mu = cc->nmark[u];
        FOR_EDGES(cc, u, v, {
            uint32_t mk = cc->nmark[v];
            if (mk == mu) continue; /* claimed by the same front: most neighbours */
            if (mk >= FRONT_BASE) {
                uint32_t g = fr_find(fr, mk - FRONT_BASE);
                if (g != f) { /* two growing fronts meet: one piece, g's queue after f's */
                    uint32_t *eg = fr + FR * g;
                    if (eg[F_PENDING]) {
                        if (e[F_PENDING]) cc->qn[e[F_TAIL]] = eg[F_HEAD];
                        else e[F_HEAD] = eg[F_HEAD];
                        e[F_TAIL] = eg[F_TAIL];
                    }
                    e[F_PENDING] += eg[F_PENDING];
                    eg[F_PARENT] = f;
                    active--;
                }
            } else if (root[v] == L || root[v] == 0) {
                /* its own nodes, and new nodes no component owns yet */
                if (tail >= cc->qcap && (!grow(&cc->alloc, &cc->q, &cc->qcap, (uint64_t)tail + 1u, 1) ||
                                         !grow(&cc->alloc, &cc->qn, &cc->qncap, cc->qcap, 1))) {
                    ok = 0;
                    break;
                }
                cc->nmark[v] = mu;
                cc->q[tail] = v;
                cc->qn[tail] = UINT32_MAX;
                if (e[F_PENDING]) cc->qn[e[F_TAIL]] = tail;
                else e[F_HEAD] = tail;
                e[F_TAIL] = tail++;
                e[F_PENDING]++;
            }
        });
        if (e[F_PENDING] == 0) active--; /* f ran out of nodes: a whole piece */
        turn++;
    }
    if (ok) {
        /* Each front's piece is its root's. The front still growing (if any) keeps L: its
         * unvisited nodes are L already. When every front ran out, the largest piece keeps it.
         * Every other piece gets a component. */
        uint32_t keep = UINT32_MAX;
        for (uint32_t f = 0; f < np; f++)
            if (fr_find(fr, f) == f && fr[FR * f + F_PENDING] > 0) keep = f;
        if (keep == UINT32_MAX) {
            for (uint32_t i = 0; i < tail; i++) fr[FR * (cc->nmark[cc->q[i]] - FRONT_BASE) + F_COUNT]++;
            for (uint32_t f = 0; f < np; f++)
                if (fr_find(fr, f) != f) fr[FR * fr_find(fr, f) + F_COUNT] += fr[FR * f + F_COUNT];
            uint32_t best = 0;
            for (uint32_t f = 0; f < np; f++)
                if (fr_find(fr, f) == f && fr[FR * f + F_COUNT] >= best) {
                    best = fr[FR * f + F_COUNT];
                    keep = f;
                }
        }
        for (uint32_t f = 0; f < np && ok; f++) {
            if (fr_find(fr, f) != f) continue;
            uint32_t nl = f == keep ? L : comp_new(cc);
            if (!nl) ok = 0;
            fr[FR * f + F_FINAL] = nl;
        }
        /* every front reads its root's component once, then each node one load */
        for (uint32_t f = 0; f < np && ok; f++) fr[FR * f + F_COUNT] = fr[FR * fr_find(fr, f) + F_FINAL];
        for (uint32_t i = 0; i < tail && ok; i++) {
            uint32_t u = cc->q[i], to = fr[FR * (cc->nmark[u] - FRONT_BASE) + F_COUNT];
            cc->nmark[u] = 0;
            if (root[u]) cc->csize[root[u]]--; /* L; a new node was in none */
            root[u] = to;
            cc->csize[to]++;
        }
    }
    if (!ok)
        for (uint32_t i = 0; i < tail; i++) cc->nmark[cc->q[i]] = 0;
    *visited += tail;
    return ok;
}

static int update(pf_map *m, pf_rect r, const uint8_t *old, uint32_t *visited)
{
    struct pf__comps *cc = m->cc;
    uint32_t *root = m->comp_root;
    const uint32_t pw = m->pw;
    /* the tiles holding a cell whose class changed, stamped */
    const uint32_t ts = next_stamp(cc);
    uint32_t tiles[64], nt = 0;
    uint32_t *tl = tiles;
    uint32_t tl_cap = 64, *tl_heap = NULL;
    for (uint32_t y = 0; y < r.h; y++)
        for (uint32_t x = 0; x < r.w; x++) {
            uint32_t px = (uint32_t)r.x + x, py = (uint32_t)r.y + y;
            if (old[(size_t)y * r.w + x] == m->cls[py * pw + px]) continue;
            uint32_t t = pf__comps_tile_of(cc, px, py);
            if (cc->te[t].stamp == ts) continue;
            cc->te[t].stamp = ts;
            if (nt == tl_cap && !list_grow(cc, &tl, &tl_heap, &tl_cap, nt)) {
                pf__free(&cc->alloc, tl_heap, (size_t)tl_cap * sizeof(uint32_t));
                return 0;
            }
            tl[nt++] = t;
        }
    int ok = 1;
    uint32_t nv = 0; /* cc->v: ports as (component, node) pairs, then the new nodes */
    /* 1. free T's old nodes; their neighbours outside T in the same component are ports */
    for (uint32_t i = 0; i < nt && ok; i++) {
        const uint32_t t = tl[i];
        const uint32_t x0 = (t % cc->tx) * TS + 1u, y0 = (t / cc->tx) * TS + 1u;
        const uint32_t x1 = x0 + TS < pw - 1u ? x0 + TS : pw - 1u, y1 = y0 + TS < m->ph - 1u ? y0 + TS : m->ph - 1u;
        for (uint32_t y = y0; y < y1 && ok; y++)
            for (uint32_t x = x0; x < x1 && ok; x++) {
                uint32_t id = m->comp[y * pw + x];
                if (!id || cc->ntile[id] == FREED) continue;
                uint32_t l = root[id];
                cc->cmark[l] = ts;
                ok = node_free(m, id);
                if (ok && --cc->csize[l] == 0) ok = comp_free(cc, l);
            }
        tile_edges *te = &cc->te[t];
        for (uint32_t k = 0; k < te->n && ok; k++) {
            uint32_t v = te->e[2 * k + 1];
            if (cc->ntile[v] == FREED || cc->te[cc->ntile[v]].stamp == ts) continue;
            ok = push(&cc->alloc, &cc->v, &cc->vcap, &nv, root[v]) && push(&cc->alloc, &cc->v, &cc->vcap, &nv, v);
        }
        te->n = 0;
    }
    /* neighbours outside T forget the edges to freed nodes (listed after the ports and new nodes,
     * at the end of cc->q, to be indexed again once T's edges are mirrored into them) */
    uint32_t nnb = 0, nb_list[64];
    uint32_t *nbl = nb_list, nbl_cap = 64, *nbl_heap = NULL;
    for (uint32_t i = 0; i < nt && ok; i++) {
        const uint32_t t = tl[i], tx = t % cc->tx, ty = t / cc->tx;
        for (int dy = -1; dy <= 1 && ok; dy++)
            for (int dx = -1; dx <= 1 && ok; dx++) {
                int64_t nx = (int64_t)tx + dx, ny = (int64_t)ty + dy;
                if (nx < 0 || ny < 0 || nx >= cc->tx || ny >= cc->ty) continue;
                uint32_t tn = (uint32_t)ny * cc->tx + (uint32_t)nx;
                tile_edges *te = &cc->te[tn];
                if (te->stamp == ts || te->nstamp == ts) continue; /* in T: rebuilt below; or done */
                te->nstamp = ts;
                if (nnb == nbl_cap && !list_grow(cc, &nbl, &nbl_heap, &nbl_cap, nnb)) {
                    ok = 0;
                    break;
                }
                nbl[nnb++] = tn;
                tile_unindex(cc, tn);
                uint32_t k = 0;
                for (uint32_t j = 0; j < te->n; j++)
                    if (cc->ntile[te->e[2 * j + 1]] != FREED) {
                        te->e[2 * k] = te->e[2 * j];
                        te->e[2 * k + 1] = te->e[2 * j + 1];
                        k++;
                    }
                te->n = k;
            }
    }
    /* the ports, sorted by component */
    uint32_t np = nv / 2u;
    if (ok && np > 1) qsort(cc->v, np, 2 * sizeof(uint32_t), cmp_pair);
    /* 2. label T again, border edges (mirrored to neighbours outside T) */
    uint32_t first_new = nv, cells = 0;
    for (uint32_t i = 0; i < nt && ok; i++) ok = tile_label(m, tl[i], &nv, &cells);
    for (uint32_t i = 0; i < nt && ok; i++) ok = tile_border(m, tl[i], 1, ts);
    for (uint32_t i = 0; i < nt && ok; i++) tile_index(cc, tl[i]);
    for (uint32_t i = 0; i < nnb && ok; i++) tile_index(cc, nbl[i]);
    pf__free(&cc->alloc, nbl_heap, (size_t)nbl_cap * sizeof(uint32_t));
    root = m->comp_root; /* node_new may have moved it */
    *visited += cells;
    /* 3. split: the ports of each component that lost nodes (the list is copied out: split()
     * reuses no list, but cc->v may move when it grows, and it does not grow here) */
    for (uint32_t i = 0; i < np && ok;) {
        uint32_t L = cc->v[2 * i], n = 0, start = i;
        for (; i < np && cc->v[2 * i] == L; i++)
            if (!n || cc->v[2 * (start + n - 1u) + 1] != cc->v[2 * i + 1]) {
                cc->v[2 * (start + n) + 1] = cc->v[2 * i + 1];
                n++;
            }
        if (root[cc->v[2 * start + 1]] != L || cc->csize[L] == 0) continue;
        /* the distinct ports, contiguous: reuse the pair slots' second halves */
        uint32_t buf[64];
        uint32_t *ports = n <= 64 ? buf : pf__alloc(&cc->alloc, (size_t)n * sizeof(uint32_t), 64);
        if (!ports) {
            ok = 0;
            break;
        }
        for (uint32_t k = 0; k < n; k++) ports[k] = cc->v[2 * (start + k) + 1];
        if (n > 1) ok = split(m, L, ports, n, visited);
        if (ports != buf) pf__free(&cc->alloc, ports, (size_t)n * sizeof(uint32_t));
        root = m->comp_root;
    }
    /* 4. join: new nodes no front reached get a component of their own (one per connected group
     * of such nodes), then every new node meets its neighbours and components merge */
    for (uint32_t i = first_new; i < nv && ok; i++) {
        uint32_t s = cc->v[i];
        if (root[s]) continue;
        /* only new nodes lack a component here: the queue needs room for them all */
        uint32_t took = grow(&cc->alloc, &cc->q, &cc->qcap, (uint64_t)(nv - first_new) + 1u, 1) ? claim(m, s) : 0;
        if (!took) {
            ok = 0;
            break;
        }
        *visited += took;
    }
    for (uint32_t i = first_new; i < nv && ok; i++) {
        uint32_t u = cc->v[i];
        FOR_EDGES(cc, u, v, {
            if (ok && root[v] != root[u]) {
                uint32_t a = root[u], b = root[v];
                /* the larger keeps its id; the smaller is relabelled from its node */
                if (cc->csize[a] >= cc->csize[b]) ok = relabel(m, v, b, a, visited);
                else ok = relabel(m, u, a, b, visited);
            }
        });
    }
    pf__free(&cc->alloc, tl_heap, (size_t)tl_cap * sizeof(uint32_t));
    return ok;
}

int pf__grid_components_edit(pf_map *m, pf_rect r, const uint8_t *old, uint32_t *visited)
{
    if (!m->comp) {
        /* dropped after an earlier failure: label from scratch */
        return pf__grid_label_components(m);
    }
    if (update(m, r, old, visited)) return 1;
    pf__grid_components_free(m); /* searches only lose the early unreachable answer */
    return 0;
}

/* ---- public ------------------------------------------------------------------------------------ */

uint32_t pf_grid_component(const pf_map *m, int32_t x, int32_t y)
{
    uint32_t n = pf_grid_node(m, x, y);
    if (n == PF_NODE_NONE || !m->comp) return 0;
    return pf__grid_comp(m, pf__grid_pad(m, n));
}

int pf_grid_same_component(const pf_map *m, uint32_t a, uint32_t b)
{
    if (!m || m->kind != PF_MAP_GRID || !m->comp) return 0;
    uint32_t n = m->width * m->height;
    if (a >= n || b >= n) return 0;
    uint32_t ca = pf__grid_comp(m, pf__grid_pad(m, a));
    return ca != 0 && ca == pf__grid_comp(m, pf__grid_pad(m, b));
}

uint32_t pf_grid_component_count(const pf_map *m)
{
    return m && m->kind == PF_MAP_GRID && m->comp ? m->cc->count : 0;
}
