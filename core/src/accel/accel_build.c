/* accel_build.c - builds the accelerator: subgoals, the subgoal graph, its contraction hierarchy.
 *
 * The contraction runs in rounds (Vetter's parallel contraction): every remaining node whose
 * priority is below all of its neighbours' is contracted at once. Such nodes are never adjacent,
 * and their witness searches avoid every node of the round, so each shortcut decision holds for the
 * graph left after the whole round (pf_accel.h). Priorities, witness searches and shortcuts are
 * computed in parallel; the graph is changed serially, in node order, so the hierarchy is the same
 * bit for bit for any thread count.
 *
 * Costs are exact integer pairs (straight steps, diagonal steps): a witness of exactly the
 * shortcut's cost is recognised as such, which on grids (many equal-cost paths) saves most
 * shortcuts, and no rounding can ever take a longer path for a witness.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "accel/accel_internal.h"
#include "search/nodes_internal.h"
#include "grow_internal.h"


/* Witness searches stop after settling this many nodes: a longer witness is simply not found and
 * costs one unneeded shortcut. The priority estimate looks much less far than the contraction
 * itself, and only for nodes of at most PF__ACCEL_ESTIMATE_SEARCH arcs: above that it counts
 * direct-arc witnesses only (estimate). The search's cost grows with the square of the degree; a
 * search of 4 settled nodes from each neighbour of every node whose neighbourhood changed, in
 * every round, was 60% of the build (perf, a 512x512 random map), and on a 1000x1000 random map
 * (20% blocked) the direct-arc estimate cut its time in the build from 24.6 to 3.2 s (wall, on a
 * loaded machine) for the same query speed. Searching up to 8 arcs keeps the order of sparse
 * maps (rooms-2000: 178 expansions a query, 197 with direct arcs everywhere, 188 up to 6) for
 * 15% more build CPU on the random map. */
#define PF__ACCEL_SETTLE_CONTRACT 64u
#define PF__ACCEL_SETTLE_ESTIMATE 4u
#define PF__ACCEL_ESTIMATE_SEARCH 8u
/* The contraction stops, leaving a core that queries cross with A*, when the nodes left average
 * more arcs than this. On maps without hierarchy (random obstacles) the remaining graph densifies
 * and every further round costs more. A 512x512 map with 20% random obstacles (85,234 subgoals,
 * CPU seconds of the build / us per long query): fully contracted 1,042 s wall on a loaded
 * machine; core at 8 arcs 2.0 / 501; 16: 5.1 / 226; 24: 7.6 / 186; 32: 10.4 / 194. With the
 * cheaper priorities (estimate) and the query's landmark rows found by core index, 32 on
 * random-2000-20: core 49,721 instead of 65,514 nodes, 1,028 instead of 1,266 expansions a query,
 * 55.7 CPU s of build on 2 threads against the old 72.9 at 24 (docs/performance.md). */
#define PF__ACCEL_CORE_DEGREE 32u
/* Rounds over fewer remaining nodes run on one thread. */
#define PF__ACCEL_PAR_MIN 20000u
/* Nodes per range of the parallel loops: the graph's scans and the priorities (cheap each), and
 * the contractions (a few witness searches each). */
#define PF__ACCEL_SCAN_GRAIN 1024u
#define PF__ACCEL_PRIO_GRAIN 256u
#define PF__ACCEL_CONTRACT_GRAIN 64u

enum { ST_LEFT = 0, ST_ROUND = 1, ST_DONE = 2 };

/* A node's arcs to its remaining neighbours (targets and middles are node ids during the build). */
typedef struct bld_list {
    pf__accel_arc *v;
    uint32_t       n, cap;
} bld_list;

/* Arc storage: lists grow by moving to a block twice the size carved from large slabs; the blocks
 * left behind are not reused (the whole build is freed at once). */
typedef struct bld_slab {
    struct bld_slab *next;
    size_t           cap, used; /* in arcs */
    pf__accel_arc    arcs[];
} bld_slab;

/* A search for witnesses (a Dijkstra from one neighbour of the node being contracted): the shared
 * node records (search/nodes_internal.h) and open list over the build's node ids, one per thread. */
typedef struct bld_wit {
    pf__nodes r;
    pf__open  open;      /* its pos is r.hpos */
    void     *block;     /* the records' allocation */
    uint32_t *pa, *pb;   /* [n] exact tentative distance (straight, diagonal steps): g is their cost */
    uint32_t *tgt;       /* [n] == tgen for the targets of the running search */
    uint32_t  tgen;
} bld_wit;

/* A shortcut from one contraction, in the order the contractions of a round are applied. */
typedef struct bld_sc {
    uint32_t from, to, a, b, mid;
} bld_sc;

/* A worker's output and scratch: shortcuts found (in the order of its ranges), the seeds of its
 * graph scans, the marks of its pruning. */
typedef struct bld_buf {
    bld_sc         *v;
    uint32_t        n, cap;
    int             oom;
    pf__accel_seed *seeds; /* [scap] */
    uint32_t        scap;
    uint32_t       *mark;  /* [n] zero between uses */
} bld_buf;

/* The shortcuts of the contraction range starting at sel[begin] (indexed by begin / grain): the
 * range's end and where its worker's buffer holds them. */
typedef struct bld_span {
    uint32_t worker, end;
    uint32_t from, to;
} bld_span;

typedef struct bld {
    const pf_map *m;
    pf_allocator  alloc;
    pf__par       par;
    int           nt;     /* workers: par.workers */
    uint32_t      n;
    uint32_t     *cell;   /* [n] padded cell of each node */
    uint32_t     *id;     /* [cells] node of a subgoal cell */
    bld_list     *adj;    /* [n] */
    bld_slab     *slabs;
    int32_t      *prio;   /* [n] */
    uint32_t     *depth;  /* [n] 1 + the deepest contracted neighbour: keeps the hierarchy shallow */
    uint32_t     *gone;   /* [n] contracted neighbours */
    uint8_t      *state;  /* [n] ST_* */
    uint8_t      *dirty;  /* [n] priority to recompute */
    uint32_t     *order;  /* [n] nodes in contraction order */
    bld_wit      *wit;    /* [nt] */
    bld_buf      *buf;    /* [nt] */
    bld_span     *span;   /* [n / PF__ACCEL_CONTRACT_GRAIN + 1] */
    const uint32_t *sel;  /* the round's nodes, while they are contracted */
    uint64_t      graph_arcs, shortcuts;
    uint32_t      ncore;
} bld;

/* ---- arc storage -------------------------------------------------------------------------- */

static pf__accel_arc *slab_get(bld *b, size_t n)
{
    bld_slab *s = b->slabs;
    if (!s || s->cap - s->used < n) {
        size_t cap = n > ((size_t)1 << 20) ? n : ((size_t)1 << 20);
        s = pf__alloc(&b->alloc, sizeof *s + cap * sizeof(pf__accel_arc), 64);
        if (!s) return NULL;
        s->next = b->slabs;
        s->cap = cap;
        s->used = 0;
        b->slabs = s;
    }
    pf__accel_arc *p = s->arcs + s->used;
    s->used += n;
    return p;
}

static int list_push(bld *b, bld_list *l, pf__accel_arc a)
{
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2u : 4u;
        pf__accel_arc *v = slab_get(b, cap);
        if (!v) return 0;
        if (l->n) memcpy(v, l->v, l->n * sizeof *v);
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = a;
    return 1;
}

/* Adds the arc p -> q or lowers the one there; 0 on allocation failure. */
static int list_offer(bld *b, uint32_t p, uint32_t q, uint32_t a, uint32_t bb, uint32_t mid)
{
    bld_list *l = &b->adj[p];
    double w = pf__accel_cost(a, bb);
    for (uint32_t i = 0; i < l->n; i++) {
        if (l->v[i].to != q) continue;
        if (w < pf__accel_cost(l->v[i].a, l->v[i].b)) l->v[i] = (pf__accel_arc){q, mid, a, bb};
        return 1;
    }
    return list_push(b, l, (pf__accel_arc){q, mid, a, bb});
}

static void list_drop(bld_list *l, uint32_t q)
{
    for (uint32_t i = 0; i < l->n; i++)
        if (l->v[i].to == q) {
            l->v[i] = l->v[--l->n];
            return;
        }
}

/* ---- per-thread output -------------------------------------------------------------------- */

static void buf_put(const pf_allocator *al, bld_buf *o, bld_sc sc)
{
    if (o->n == o->cap && !pf__grow_slow(al, &o->v, &o->cap, (uint64_t)o->n + 1u, sizeof *o->v, 4096u, 0)) {
        o->oom = 1;
        return;
    }
    o->v[o->n++] = sc;
}

/* ---- the subgoal graph ---------------------------------------------------------------------- */

static int cmp_arc(const void *x, const void *y)
{
    const pf__accel_arc *a = x, *b = y;
    if (a->to != b->to) return a->to < b->to ? -1 : 1;
    return (a->mid > b->mid) - (a->mid < b->mid);
}

/* Every subgoal's direct canonical paths (pf__accel_scan_fwd), made symmetric: u - v is an arc
 * when either end reaches the other, marked with the direction whose canonical path is legal.
 * Returns 0 on allocation failure. */
typedef struct graph_job {
    bld           *b;
    const uint8_t *sub;
} graph_job;

static void graph_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    const graph_job *j = ctx;
    bld *b = j->b;
    bld_buf *o = &b->buf[worker];
    const pf__grid_view v = pf__grid_view_of(b->m);
    for (uint64_t i = begin; i < end && !o->oom; i++) {
        uint32_t u = (uint32_t)i, c = b->cell[u];
        uint32_t k = o->scap ? pf__accel_scan_fwd(&v, j->sub, c, o->seeds, o->scap) : 256u;
        while (k > o->scap) { /* the scan says how many it needs: grow, then scan again */
            if (!pf__grow_slow(&b->alloc, &o->seeds, &o->scap, k, sizeof *o->seeds, 256u, 0)) {
                o->oom = 1;
                return;
            }
            k = pf__accel_scan_fwd(&v, j->sub, c, o->seeds, o->scap);
        }
        for (uint32_t s = 0; s < k; s++)
            buf_put(&b->alloc, o, (bld_sc){u, b->id[o->seeds[s].cell], o->seeds[s].a, o->seeds[s].b, PF__ACCEL_FROM_SRC});
    }
}

/* Sorts and merges each list; counts the arcs left into b->graph_arcs (twice each). */
static void dedup_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    bld *b = ctx;
    uint64_t total = 0;
    (void)worker;
    for (uint64_t i = begin; i < end; i++) {
        bld_list *l = &b->adj[i];
        if (l->n > 1) qsort(l->v, l->n, sizeof *l->v, cmp_arc);
        uint32_t w = 0;
        for (uint32_t r = 0; r < l->n; r++) {
            /* found from both ends: one arc (the sort put FROM_SRC last, and it wins: the path
             * from this end is legal) */
            if (w && l->v[w - 1].to == l->v[r].to) l->v[w - 1] = l->v[r];
            else l->v[w++] = l->v[r];
        }
        l->n = w;
        total += w;
    }
    (void)pf__atomic_add_u64(&b->graph_arcs, total);
}

/* Every subgoal's direct canonical paths (pf__accel_scan_fwd), made symmetric: u - v is an arc
 * when either end reaches the other, marked with the direction whose canonical path is legal.
 * Returns 0 on allocation failure. */
static int make_graph(bld *b, const uint8_t *sub)
{
    const uint32_t n = b->n;
    int nt = b->nt, fail = 0;
    for (int t = 0; t < nt; t++) b->buf[t].n = 0;
    graph_job gj = {b, sub};
    pf__par_for(&b->par, n, PF__ACCEL_SCAN_GRAIN, graph_body, &gj);
    for (int t = 0; t < nt; t++) {
        pf__free(&b->alloc, b->buf[t].seeds, b->buf[t].scap * sizeof *b->buf[t].seeds);
        b->buf[t].seeds = NULL;
        b->buf[t].scap = 0;
    }
    for (int t = 0; t < nt; t++) fail |= b->buf[t].oom;
    if (fail) return 0;
    /* lists sized to their degree, filled, then sorted by target and merged: the result does not
     * depend on which thread found what */
    for (int t = 0; t < nt; t++)
        for (size_t i = 0; i < b->buf[t].n; i++) {
            b->adj[b->buf[t].v[i].from].cap++;
            b->adj[b->buf[t].v[i].to].cap++;
        }
    for (uint32_t u = 0; u < n; u++) {
        bld_list *l = &b->adj[u];
        if (!l->cap) continue;
        l->v = slab_get(b, l->cap);
        if (!l->v) return 0;
    }
    for (int t = 0; t < nt; t++)
        for (size_t i = 0; i < b->buf[t].n; i++) {
            bld_sc s = b->buf[t].v[i];
            bld_list *lu = &b->adj[s.from], *lv = &b->adj[s.to];
            lu->v[lu->n++] = (pf__accel_arc){s.to, PF__ACCEL_FROM_SRC, s.a, s.b};
            lv->v[lv->n++] = (pf__accel_arc){s.from, PF__ACCEL_FROM_DST, s.a, s.b};
        }
    b->graph_arcs = 0;
    pf__par_for(&b->par, n, PF__ACCEL_SCAN_GRAIN, dedup_body, b);
    b->graph_arcs /= 2u;
    return 1;
}

typedef struct prune_job {
    bld            *b;
    const uint32_t *first; /* [n + 1] where u's arcs start in drop */
    uint8_t        *drop;
} prune_job;

static void prune_mark_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    const prune_job *j = ctx;
    bld *b = j->b;
    bld_buf *o = &b->buf[worker];
    /* mark[v] = 1 + index of v in u's list, for the node u being examined */
    if (!o->mark && !o->oom) o->mark = pf__calloc(&b->alloc, (size_t)b->n * sizeof(uint32_t), 64);
    if (!o->mark) {
        o->oom = 1;
        return;
    }
    uint32_t *mark = o->mark;
    for (uint64_t i = begin; i < end; i++) {
        const bld_list *lu = &b->adj[i];
        for (uint32_t r = 0; r < lu->n; r++) mark[lu->v[r].to] = r + 1u;
        for (uint32_t r = 0; r < lu->n; r++) {
            const pf__accel_arc *ux = &lu->v[r];
            const bld_list *lx = &b->adj[ux->to];
            for (uint32_t q = 0; q < lx->n; q++) {
                uint32_t k = mark[lx->v[q].to];
                if (!k) continue;
                const pf__accel_arc *uv = &lu->v[k - 1u];
                if (ux->a + lx->v[q].a == uv->a && ux->b + lx->v[q].b == uv->b) j->drop[j->first[i] + k - 1u] = 1;
            }
        }
        for (uint32_t r = 0; r < lu->n; r++) mark[lu->v[r].to] = 0;
    }
}

static void prune_drop_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    const prune_job *j = ctx;
    bld *b = j->b;
    uint64_t total = 0;
    (void)worker;
    for (uint64_t i = begin; i < end; i++) {
        bld_list *l = &b->adj[i];
        uint32_t w = 0;
        for (uint32_t r = 0; r < l->n; r++)
            if (!j->drop[j->first[i] + r]) l->v[w++] = l->v[r];
        l->n = w;
        total += w;
    }
    (void)pf__atomic_add_u64(&b->graph_arcs, total);
}

/*
 * Drops every arc u - v of the subgoal graph for which some x has arcs u - x and x - v of exactly
 * the same total cost. Costs are positive, so the two arcs that justify a drop are strictly
 * shorter than it: by induction on cost every dropped arc keeps a path of its cost, and dropping
 * them all at once is safe. Open areas, where each subgoal sees many others, lose most of their
 * arcs (den520d: 75,652 -> 25,978), and the contraction has that much less to search.
 */
static int prune_graph(bld *b)
{
    const uint32_t n = b->n;
    int nt = b->nt, fail = 0;
    uint8_t *drop = NULL;
    uint32_t *first = pf__alloc(&b->alloc, ((size_t)n + 1) * sizeof(uint32_t), 64);
    if (!first) return 0;
    uint64_t acc = 0;
    for (uint32_t u = 0; u < n; u++) {
        first[u] = (uint32_t)acc;
        acc += b->adj[u].n;
    }
    first[n] = (uint32_t)acc;
    /* (size_t: a 32-bit host cannot hold more flags than it has addresses) */
    drop = acc < SIZE_MAX ? pf__calloc(&b->alloc, (size_t)(acc ? acc : 1), 64) : NULL;
    if (!drop) {
        pf__free(&b->alloc, first, ((size_t)n + 1) * sizeof(uint32_t));
        return 0;
    }
    prune_job pj = {b, first, drop};
    pf__par_for(&b->par, n, PF__ACCEL_SCAN_GRAIN, prune_mark_body, &pj);
    for (int t = 0; t < nt; t++) {
        fail |= b->buf[t].oom;
        pf__free(&b->alloc, b->buf[t].mark, (size_t)n * sizeof(uint32_t));
        b->buf[t].mark = NULL;
    }
    if (!fail) {
        b->graph_arcs = 0;
        pf__par_for(&b->par, n, 0, prune_drop_body, &pj);
        b->graph_arcs /= 2u;
    }
    pf__free(&b->alloc, drop, (size_t)(acc ? acc : 1));
    pf__free(&b->alloc, first, ((size_t)n + 1) * sizeof(uint32_t));
    return !fail;
}

/* ---- witness searches ----------------------------------------------------------------------- */

/* The witness searches' records and open list; the list never grows (a node is on it at most once). */
static int wit_init(bld *b, bld_wit *w)
{
    memset(w, 0, sizeof *w);
    size_t n = b->n ? b->n : 1;
    w->block = pf__alloc(&b->alloc, pf__nodes_bytes((uint32_t)n, 0), 64);
    if (w->block) pf__nodes_place(&w->r, w->block, (uint32_t)n, 0);
    w->open.pg = w->r.page;
    w->open.grow = pf__open_no_grow;
    int heap_ok = pf__open_resize(&w->open, &b->alloc, (uint32_t)n);
    w->pa = pf__alloc(&b->alloc, n * sizeof(uint32_t), 64);
    w->pb = pf__alloc(&b->alloc, n * sizeof(uint32_t), 64);
    w->tgt = pf__calloc(&b->alloc, n * sizeof(uint32_t), 64);
    return w->block && heap_ok && w->pa && w->pb && w->tgt;
}

static void wit_free(bld *b, bld_wit *w)
{
    size_t n = b->n ? b->n : 1;
    pf__free(&b->alloc, w->block, pf__nodes_bytes((uint32_t)n, 0));
    pf__open_free(&w->open, &b->alloc);
    pf__free(&b->alloc, w->pa, n * sizeof(uint32_t));
    pf__free(&b->alloc, w->pb, n * sizeof(uint32_t));
    pf__free(&b->alloc, w->tgt, n * sizeof(uint32_t));
}

/*
 * Distances from u in the remaining graph without v (and without the nodes of the running round
 * when `round` is set), up to cost maxd, stopping once `ntgt` targets are settled or `limit` nodes
 * are. Afterwards w's distance is (pa, pb) when its stamp is live: an upper bound on the shortest,
 * which is all a witness needs.
 */
PF__INLINE void witness(const bld *b, bld_wit *w, uint32_t u, uint32_t v, double maxd, uint32_t ntgt, uint32_t limit,
                    int round)
{
    pf__nodes *r = &w->r;
    pf__open *o = &w->open;
    pf__nodes_next_gen(r);
    pf__open_reset(o, PF_TIE_DEFAULT, 0); /* unused: tie keys are 0 (pf__nodes_put) */
    (void)pf__nodes_set(r, u, 0.0, 0); /* dense records */
    w->pa[u] = w->pb[u] = 0;
    /* the list holds every node and a node is on it at most once: it never needs to grow */
    (void)pf__open_push(o, pf__hentry_make(0.0, 0, u));
    for (uint32_t settled = 0;;) {
        uint32_t x = pf__nodes_take(r, o, NULL); /* nothing is held: entries go straight onto the heap */
        if (x == PF_NODE_NONE || pf__nodes_g(r, x) > maxd) break;
        if (w->tgt[x] == w->tgen && --ntgt == 0) break;
        if (++settled > limit) break;
        const bld_list *l = &b->adj[x];
        for (uint32_t i = 0; i < l->n; i++) {
            uint32_t y = l->v[i].to;
            if (y == v || (round && b->state[y] == ST_ROUND)) continue;
            uint32_t na = w->pa[x] + l->v[i].a, nb = w->pb[x] + l->v[i].b;
            double nd = pf__accel_cost(na, nb);
            if (nd > maxd) continue;
            uint32_t was = pf__nodes_admit(r, y, nd, 0);
            if (!was) continue;
            (void)pf__nodes_put(r, o, NULL, y, was, nd, 0, NULL, 0, nd, 0.0, 0, 0);
            w->pa[y] = na;
            w->pb[y] = nb;
        }
    }
}

/*
 * Contracts v (with out == NULL, only counts the shortcuts): for every pair of
 * remaining neighbours u, x whose only path of cost c(u, v) + c(v, x) found is through v, a
 * shortcut u - x. Returns the number of shortcuts.
 */
static uint32_t contract(const bld *b, bld_wit *w, uint32_t v, uint32_t limit, int round, bld_buf *out)
{
    const bld_list *l = &b->adj[v];
    uint32_t cnt = 0;
    for (uint32_t i = 0; i + 1 < l->n; i++) {
        const pf__accel_arc *ui = &l->v[i];
        double maxd = 0.0;
        w->tgen++;
        if (w->tgen == 0) { /* wrapped: no stale mark may look current */
            memset(w->tgt, 0, (size_t)b->n * sizeof(uint32_t));
            w->tgen = 1;
        }
        for (uint32_t j = i + 1; j < l->n; j++) {
            double cj = pf__accel_cost(ui->a + l->v[j].a, ui->b + l->v[j].b);
            if (cj > maxd) maxd = cj;
            w->tgt[l->v[j].to] = w->tgen;
        }
        witness(b, w, ui->to, v, maxd, l->n - 1u - i, limit, round);
        for (uint32_t j = i + 1; j < l->n; j++) {
            uint32_t x = l->v[j].to, a = ui->a + l->v[j].a, bb = ui->b + l->v[j].b;
            if (pf__nodes_live(&w->r, x) && pf__nodes_g(&w->r, x) <= pf__accel_cost(a, bb))
                continue; /* a witness: a path at most as long that avoids v */
            cnt++;
            if (out) buf_put(&b->alloc, out, (bld_sc){ui->to, x, a, bb, v});
        }
    }
    return cnt;
}

/*
 * What contracting v would add, estimated for its priority: the pairs of neighbours u, x with no
 * arc u - x at most as long as the way through v. Only direct arcs count as witnesses here, read
 * from u's list through stamped marks: no search, no heap. The estimate only orders the
 * contraction; the contraction itself (contract) searches for witnesses properly.
 */
static uint32_t estimate(const bld *b, bld_wit *w, uint32_t v)
{
    const bld_list *l = &b->adj[v];
    uint32_t cnt = 0;
    for (uint32_t i = 0; i + 1 < l->n; i++) {
        const pf__accel_arc *ui = &l->v[i];
        const bld_list *lu = &b->adj[ui->to];
        w->tgen++;
        if (w->tgen == 0) {
            memset(w->tgt, 0, (size_t)b->n * sizeof(uint32_t));
            w->tgen = 1;
        }
        for (uint32_t k = 0; k < lu->n; k++) {
            uint32_t y = lu->v[k].to;
            w->tgt[y] = w->tgen;
            w->pa[y] = lu->v[k].a;
            w->pb[y] = lu->v[k].b;
        }
        for (uint32_t j = i + 1; j < l->n; j++) {
            uint32_t x = l->v[j].to;
            if (w->tgt[x] == w->tgen &&
                pf__accel_cost(w->pa[x], w->pb[x]) <= pf__accel_cost(ui->a + l->v[j].a, ui->b + l->v[j].b))
                continue;
            cnt++;
        }
    }
    return cnt;
}

PF__INLINE uint64_t node_hash(uint32_t x)
{
    uint64_t z = (uint64_t)x * UINT64_C(0x9E3779B97F4A7C15);
    z ^= z >> 31;
    z *= UINT64_C(0xbf58476d1ce4e5b9);
    return z ^ (z >> 29);
}

/* ---- the contraction ------------------------------------------------------------------------ */

static void prio_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    bld *b = ctx;
    const uint32_t *left = b->sel;
    bld_wit *w = &b->wit[worker];
    for (uint64_t i = begin; i < end; i++) {
        uint32_t v = left[i];
        if (!b->dirty[v]) continue;
        const uint32_t deg = b->adj[v].n;
        int32_t s = (int32_t)(deg <= PF__ACCEL_ESTIMATE_SEARCH ? contract(b, w, v, PF__ACCEL_SETTLE_ESTIMATE, 0, NULL)
                                                               : estimate(b, w, v));
        b->prio[v] = 2 * (s - (int32_t)b->adj[v].n) + (int32_t)b->gone[v] + (int32_t)b->depth[v];
        b->dirty[v] = 0;
    }
}

/* the round: every node below all of its neighbours (ties by a hash of the id) */
static void select_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    bld *b = ctx;
    const uint32_t *left = b->sel;
    (void)worker;
    for (uint64_t i = begin; i < end; i++) {
        uint32_t v = left[i];
        const bld_list *l = &b->adj[v];
        uint64_t hv = node_hash(v);
        int low = 1;
        for (uint32_t j = 0; j < l->n && low; j++) {
            uint32_t u = l->v[j].to;
            low = b->prio[v] < b->prio[u] || (b->prio[v] == b->prio[u] && hv < node_hash(u)) ||
                  (b->prio[v] == b->prio[u] && hv == node_hash(u) && v < u);
        }
        b->state[v] = low ? ST_ROUND : ST_LEFT;
    }
}

/* The contractions of sel[begin, end): the worker's shortcuts come out in the order of sel, each
 * with its node in `mid`, and the range's span says where. */
static void contract_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    bld *b = ctx;
    bld_buf *o = &b->buf[worker];
    uint32_t from = o->n;
    for (uint64_t i = begin; i < end; i++)
        (void)contract(b, &b->wit[worker], b->sel[i], PF__ACCEL_SETTLE_CONTRACT, 1, o);
    b->span[begin / PF__ACCEL_CONTRACT_GRAIN] = (bld_span){worker, (uint32_t)end, from, o->n};
}

static int contract_all(bld *b)
{
    const uint32_t n = b->n;
    int nt = b->nt;
    uint32_t *left = pf__alloc(&b->alloc, ((size_t)n + 1) * sizeof(uint32_t), 64);
    uint32_t *sel = pf__alloc(&b->alloc, ((size_t)n + 1) * sizeof(uint32_t), 64);
    if (!left || !sel) {
        pf__free(&b->alloc, left, ((size_t)n + 1) * sizeof(uint32_t));
        pf__free(&b->alloc, sel, ((size_t)n + 1) * sizeof(uint32_t));
        return 0;
    }
    uint32_t nleft = n, nord = 0;
    for (uint32_t i = 0; i < n; i++) left[i] = i;
    memset(b->dirty, 1, n);
    int ok = 1;
    while (nleft && ok) {
        /* the core: once the nodes left average more than PF__ACCEL_CORE_DEGREE arcs, each further
         * contraction costs more than it saves (see the header) */
        uint64_t deg = 0;
        for (uint32_t i = 0; i < nleft; i++) deg += b->adj[left[i]].n;
        if (deg > (uint64_t)PF__ACCEL_CORE_DEGREE * nleft) break;
        /* priorities of the nodes whose neighbourhood changed: shortcuts added minus arcs removed,
         * plus contracted neighbours and depth (both spread the contraction evenly) */
        /* the tail of the contraction is hundreds of rounds over few nodes: run those serially,
         * where a team's wake-ups and barriers cost more than the work (and spin on a busy machine) */
        const pf__par par = nleft > PF__ACCEL_PAR_MIN ? b->par : (pf__par){b->par.hook, 1};
        b->sel = left;
        pf__par_for(&par, nleft, PF__ACCEL_PRIO_GRAIN, prio_body, b);
        pf__par_for(&par, nleft, 0, select_body, b);
        uint32_t ns = 0;
        for (uint32_t i = 0; i < nleft; i++)
            if (b->state[left[i]] == ST_ROUND) sel[ns++] = left[i];
        /* the contractions, in parallel; the workers' buffers merge back into the order of `sel`
         * by the spans of their ranges, so neither the split into ranges nor the order they ran
         * in shows in the hierarchy */
        for (int t = 0; t < nt; t++) b->buf[t].n = 0;
        b->sel = sel;
        pf__par_for(&par, ns, PF__ACCEL_CONTRACT_GRAIN, contract_body, b);
        for (int t = 0; t < nt; t++) ok &= !b->buf[t].oom;
        if (!ok) break;
        /* apply, serially and in node order: first the contracted nodes leave their neighbours'
         * lists (their own lists stay: they are their arcs up the hierarchy) */
        for (uint32_t i = 0; i < ns; i++) {
            uint32_t v = sel[i];
            b->state[v] = ST_DONE;
            b->order[nord++] = v;
            const bld_list *l = &b->adj[v];
            for (uint32_t j = 0; j < l->n; j++) {
                uint32_t u = l->v[j].to;
                list_drop(&b->adj[u], v);
                b->dirty[u] = 1;
                b->gone[u]++;
                if (b->depth[u] < b->depth[v] + 1u) b->depth[u] = b->depth[v] + 1u;
            }
        }
        /* then the shortcuts, range by range in the order of sel */
        for (uint32_t i = 0; i < ns && ok;) {
            const bld_span *sp = &b->span[i / PF__ACCEL_CONTRACT_GRAIN];
            const bld_buf *o = &b->buf[sp->worker];
            for (uint32_t r = sp->from; r < sp->to && ok; r++) {
                bld_sc sc = o->v[r];
                ok &= list_offer(b, sc.from, sc.to, sc.a, sc.b, sc.mid) && list_offer(b, sc.to, sc.from, sc.a, sc.b, sc.mid);
                b->shortcuts++;
            }
            i = sp->end;
        }
        uint32_t k = 0;
        for (uint32_t i = 0; i < nleft; i++)
            if (b->state[left[i]] != ST_DONE) left[k++] = left[i];
        nleft = k;
    }
    b->ncore = nleft; /* the core: left uncontracted, searched goal-directed by queries */
    pf__free(&b->alloc, left, ((size_t)n + 1) * sizeof(uint32_t));
    pf__free(&b->alloc, sel, ((size_t)n + 1) * sizeof(uint32_t));
    return ok;
}

/* ---- the result ----------------------------------------------------------------------------- */

/* Each node's list at its contraction is its arcs up the hierarchy: stored by cell. */
static int finalize(bld *b, pf_accel *acc)
{
    uint64_t narcs = 0;
    for (uint32_t v = 0; v < b->n; v++) narcs += b->adj[v].n;
    if (narcs > UINT32_MAX - 1u || narcs >= SIZE_MAX / sizeof(pf__accel_arc)) return 0;
    acc->narcs = (uint32_t)narcs;
    acc->core = b->ncore;
    acc->first = pf__alloc(&acc->alloc, ((size_t)acc->cells + 1) * sizeof(uint32_t), 64);
    acc->arcs = pf__alloc(&acc->alloc, (size_t)(narcs ? narcs : 1) * sizeof(pf__accel_arc), 64);
    if (!acc->first || !acc->arcs) return 0;
    /* node ids run in cell order, so one pass writes both arrays in order */
    uint32_t at = 0, v = 0;
    for (uint32_t c = 0; c < acc->cells; c++) {
        acc->first[c] = at;
        if (v < b->n && b->cell[v] == c) {
            const bld_list *l = &b->adj[v];
            for (uint32_t j = 0; j < l->n; j++) {
                pf__accel_arc a = l->v[j];
                a.to = b->cell[a.to];
                if (a.mid < PF__ACCEL_FROM_DST) a.mid = b->cell[a.mid];
                acc->arcs[at++] = a;
            }
            if (b->state[v] != ST_DONE) acc->sub[c] = 2;
            v++;
        }
    }
    acc->first[acc->cells] = at;
    /* counted as stored (a core arc is in both of its ends' lists), as a loaded file counts them */
    for (uint32_t i = 0; i < at; i++) {
        acc->graph_arcs += acc->arcs[i].mid >= PF__ACCEL_FROM_DST;
        acc->shortcuts += acc->arcs[i].mid < PF__ACCEL_FROM_DST;
    }
    return 1;
}

int pf_accel_supported(const pf_map *map)
{
    return map && map->kind == PF_MAP_GRID && map->moves == PF_MOVES_8_NO_CUT && !map->cost;
}

pf_accel *pf__accel_new(const pf_map *m, const pf_accel_desc *d)
{
    static atomic_uint_fast64_t serials;
    pf_allocator al = pf__alloc_resolve(&d->allocator);
    pf_accel *acc = pf__calloc(&al, sizeof *acc, 64);
    if (!acc) return NULL;
    atomic_flag_clear(&acc->diff_lock);
    acc->map = m;
    acc->serial = atomic_fetch_add_explicit(&serials, 1, memory_order_relaxed) + 1u;
    acc->fingerprint = m->fingerprint;
    acc->alloc = al;
    acc->cells = m->pw * m->ph;
    acc->short_query = PF__DEF(d->short_query, (uint32_t)PF_ACCEL_SHORT_QUERY);
    acc->desc = *d;
    /* its prep map: queries read these cells, not the live ones (accel_diff.c) */
    acc->prep = pf__alloc(&al, acc->cells, 64);
    if (!acc->prep) {
        pf__free(&al, acc, sizeof *acc);
        return NULL;
    }
    memcpy(acc->prep, m->cls, acc->cells);
    return acc;
}

static void bld_free(bld *b)
{
    const pf_allocator *al = &b->alloc;
    size_t n = b->n ? b->n : 1;
    pf__free(al, b->cell, n * sizeof(uint32_t));
    pf__free(al, b->id, (size_t)b->m->pw * b->m->ph * sizeof(uint32_t));
    pf__free(al, b->adj, n * sizeof(bld_list));
    pf__free(al, b->prio, n * sizeof(int32_t));
    pf__free(al, b->depth, n * sizeof(uint32_t));
    pf__free(al, b->gone, n * sizeof(uint32_t));
    pf__free(al, b->state, n);
    pf__free(al, b->dirty, n);
    pf__free(al, b->order, n * sizeof(uint32_t));
    for (int t = 0; t < b->nt; t++) {
        if (b->wit) wit_free(b, &b->wit[t]);
        if (b->buf) {
            pf__free(al, b->buf[t].v, b->buf[t].cap * sizeof(bld_sc));
            pf__free(al, b->buf[t].seeds, b->buf[t].scap * sizeof(pf__accel_seed));
            pf__free(al, b->buf[t].mark, n * sizeof(uint32_t));
        }
    }
    pf__free(al, b->span, (n / PF__ACCEL_CONTRACT_GRAIN + 1) * sizeof(bld_span));
    pf__free(al, b->wit, (size_t)b->nt * sizeof(bld_wit));
    pf__free(al, b->buf, (size_t)b->nt * sizeof(bld_buf));
    while (b->slabs) {
        bld_slab *s = b->slabs;
        b->slabs = s->next;
        pf__free(al, s, sizeof *s + s->cap * sizeof(pf__accel_arc));
    }
}

static pf_status build(pf_accel *acc, const pf_accel_desc *d)
{
    const pf_map *m = acc->map;
    const size_t cells = acc->cells;
    acc->sub = pf__alloc(&acc->alloc, cells, 64);
    if (!acc->sub) return PF_OUT_OF_MEMORY;
    bld b = {.m = m, .alloc = acc->alloc};
    b.par = pf__par_build(&d->parallel, d->threads, cells);
    b.nt = (int)b.par.workers;
    b.n = acc->nodes = pf__accel_mark_subgoals(m, acc->sub, &b.par);
    size_t n = b.n ? b.n : 1;
    b.cell = pf__alloc(&b.alloc, n * sizeof(uint32_t), 64);
    b.id = pf__alloc(&b.alloc, cells * sizeof(uint32_t), 64);
    b.adj = pf__calloc(&b.alloc, n * sizeof(bld_list), 64);
    b.prio = pf__calloc(&b.alloc, n * sizeof(int32_t), 64);
    b.depth = pf__calloc(&b.alloc, n * sizeof(uint32_t), 64);
    b.gone = pf__calloc(&b.alloc, n * sizeof(uint32_t), 64);
    b.state = pf__calloc(&b.alloc, n, 64);
    b.dirty = pf__calloc(&b.alloc, n, 64);
    b.order = pf__alloc(&b.alloc, n * sizeof(uint32_t), 64);
    b.wit = pf__calloc(&b.alloc, (size_t)b.nt * sizeof(bld_wit), 64);
    b.buf = pf__calloc(&b.alloc, (size_t)b.nt * sizeof(bld_buf), 64);
    b.span = pf__alloc(&b.alloc, (n / PF__ACCEL_CONTRACT_GRAIN + 1) * sizeof(bld_span), 64);
    int ok = b.cell && b.id && b.adj && b.prio && b.depth && b.gone && b.state && b.dirty && b.order && b.wit && b.buf &&
             b.span;
    for (int t = 0; ok && t < b.nt; t++) ok = wit_init(&b, &b.wit[t]);
    if (ok) {
        uint32_t v = 0;
        for (uint32_t c = 0; c < cells; c++)
            if (acc->sub[c]) {
                b.id[c] = v;
                b.cell[v++] = c;
            }
        ok = make_graph(&b, acc->sub) && prune_graph(&b) && contract_all(&b) && finalize(&b, acc);
    }
    bld_free(&b);
    return ok ? PF_OK : PF_OUT_OF_MEMORY;
}

pf_status pf_accel_create(const pf_map *map, const pf_accel_desc *desc, pf_accel **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    if (!map) return PF_INVALID_ARGUMENT;
    PF__CHECK_HANDLE(map, PF__TAG_MAP, "pf_map");
    /* the build reads the live cells throughout and takes the map's fingerprint at the end: an
     * edit on another thread meanwhile is refused until the accelerator follows the map (it was
     * taken, and AUTO answered from cells the map never had, as proven) */
    pf__map_user hold;
    if (!pf__map_hold(map, &hold)) return PF_MAP_BUSY;
    pf_status st = pf__accel_create_held(map, desc, out);
    pf__map_release(map, &hold);
    return st;
}

pf_status pf__accel_create_held(const pf_map *map, const pf_accel_desc *desc, pf_accel **out)
{
    *out = NULL;
    if (!pf_accel_supported(map)) return PF_UNSUPPORTED;
    pf_accel_desc d = desc ? *desc : (pf_accel_desc){0};
    if ((unsigned)d.edits > PF_ACCEL_EDITS_CHECK) return PF_INVALID_ARGUMENT;
    pf_accel *acc = pf__accel_new(map, &d);
    if (!acc) return PF_OUT_OF_MEMORY;
    pf_status st = build(acc, &d);
    if (st == PF_OK && (!pf__accel_landmarks(acc) || !pf__accel_unpack_index(acc) || !pf__accel_nodes_index(acc) ||
                         !pf__accel_jumps_index(acc)))
        st = PF_OUT_OF_MEMORY;
    if (st != PF_OK) {
        pf_accel_destroy(acc);
        return st;
    }
    if (!pf__accel_follow(acc)) {
        pf_accel_destroy(acc);
        return PF_OUT_OF_MEMORY;
    }
    *out = acc;
    return PF_OK;
}

void pf_accel_destroy(pf_accel *acc)
{
    if (!acc) return;
    pf__accel_unfollow(acc);
    pf_allocator a = acc->alloc;
    pf__accel_landmarks_free(acc);
    pf__accel_unpack_free(acc);
    pf__accel_nodes_free(acc);
    pf__accel_jumps_free(acc);
    pf__accel_diff_free(acc);
    pf__free(&a, acc->prep, acc->cells);
    pf__free(&a, acc->sub, acc->cells);
    pf__free(&a, acc->first, ((size_t)acc->cells + 1) * sizeof(uint32_t));
    pf__free(&a, acc->arcs, (acc->narcs ? acc->narcs : 1) * sizeof(pf__accel_arc));
    pf__free(&a, acc, sizeof *acc);
}

size_t pf_accel_mem_size(const pf_accel *acc)
{
    if (!acc) return 0;
    /* sub and prep: 2 bytes a cell; D's bitmap and lists while it follows edits by the diff */
    size_t diff = acc->dbits ? ((size_t)acc->cells + 63u) / 64u * sizeof(uint64_t) +
                                   ((size_t)acc->dbw * acc->dbh + 63u) / 64u * sizeof(uint64_t)
                             : 0;
    diff += ((size_t)acc->dcap + acc->bcap) * sizeof(uint32_t);
    return sizeof *acc + 2u * (size_t)acc->cells + ((size_t)acc->cells + 1) * sizeof(uint32_t) +
           (size_t)acc->narcs * sizeof(pf__accel_arc) + pf__accel_landmarks_bytes(acc) +
           pf__accel_unpack_bytes(acc) + pf__accel_nodes_bytes(acc) + pf__accel_jumps_bytes(acc) + diff;
}

pf_accel_info pf_accel_get_info(const pf_accel *acc)
{
    pf_accel_info i = {0};
    if (!acc) return i;
    i.subgoals = acc->nodes;
    i.graph_arcs = acc->graph_arcs;
    i.shortcuts = acc->shortcuts;
    i.core = acc->core;
    i.arcs = acc->narcs;
    i.bytes = pf_accel_mem_size(acc);
    i.edited_cells = acc->diffing ? acc->dn : 0;
    uint64_t cells = (uint64_t)pf_grid_width(acc->map) * pf_grid_height(acc->map);
    i.bytes_per_cell = cells ? (double)i.bytes / (double)cells : 0.0;
    return i;
}
