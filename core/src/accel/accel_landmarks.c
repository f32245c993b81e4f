/* accel_landmarks.c - landmark distances over the hierarchy's core (ALT), for the start side's A*
 * across it.
 *
 * Why: on maps whose contraction leaves a core (random-2000-20: 65,514 of 1,310,703 subgoals), a
 * query is almost all A* in the core: 718,000 of 736,452 expansions over 200 queries, with the
 * octile distance as heuristic. On a random map the shortest path is a few percent longer than the
 * octile distance, and that error over a long query makes a wide band of core nodes whose f is
 * below the optimum. Distances to landmarks on the map's border see the obstacles' detour along
 * their direction. The core graph keeps the shortest distances between its nodes (the contraction's
 * invariant), so one Dijkstra over the core per landmark gives exact distances d(L, v) for every
 * core node v: computed after a build and after a load (a fraction of a second; nothing is added
 * to the file), and again by whatever rebuilds the core.
 *
 * The query's bound for a core node v towards the goal t is, for each landmark L,
 *   d(v, t) >= d(v, L) - d(t, L) >= d(L, v) - ub(L)   with ub(L) = min_k lg(k) + d(L, k)
 *   d(v, t) >= d(L, t) - d(L, v) >= lb(L) - d(L, v)   with lb(L) = max_k d(L, k) - lg(k)
 * over the goal side's labels k in the core (lg(k) >= d(k, t): its cost to the goal), the graph
 * being undirected. Each term is consistent in v, so their maximum with the octile distance is.
 */
#include <math.h>
#include <string.h>
#include "accel/accel_internal.h"
#include "search/nodes_internal.h"

void pf__accel_landmarks_free(pf_accel *acc)
{
    pf__free(&acc->alloc, acc->lm_key, (size_t)acc->lm_cap * sizeof(uint32_t));
    pf__free(&acc->alloc, acc->lm_idx, (size_t)acc->lm_cap * sizeof(uint32_t));
    pf__free(&acc->alloc, acc->lm_d, (size_t)acc->core * PF__ACCEL_LANDMARKS * sizeof(uint32_t));
    pf__free(&acc->alloc, acc->lm_first, ((size_t)acc->core + 1u) * sizeof(uint32_t));
    pf__free(&acc->alloc, acc->core_arc, (size_t)acc->lm_narc * sizeof(pf__accel_carc));
    pf__free(&acc->alloc, acc->core_cell, (size_t)acc->core * sizeof(uint32_t));
    acc->lm_key = acc->lm_idx = NULL;
    acc->lm_d = acc->lm_first = acc->core_cell = NULL;
    acc->core_arc = NULL;
    acc->lm_narc = 0;
    acc->lm_cap = acc->lm_k = 0;
}

size_t pf__accel_landmarks_bytes(const pf_accel *acc)
{
    return acc->lm_d ? (size_t)acc->lm_cap * 2u * sizeof(uint32_t) + (size_t)acc->core * PF__ACCEL_LANDMARKS * sizeof(uint32_t) +
                           ((size_t)acc->core * 2u + 1u) * sizeof(uint32_t) + (size_t)acc->lm_narc * sizeof(pf__accel_carc)
                     : 0;
}

/* The side of the square tiles the core is numbered by (pf__accel_landmarks). */
#define PF__ACCEL_CORE_TILE 32u

/* Distances from core node `src` (core index) over the core's arcs into column `col` of lm_d, as
 * exact step pairs (pa, pb: scratch by core index); 0 when a pair outgrows 16 bits. lm_d holds
 * PF__ACCEL_LM_NONE where the search does not reach. */
static int core_dijkstra(pf_accel *acc, pf__nodes *r, pf__open *o, uint32_t *pa, uint32_t *pb, uint32_t src, uint32_t col)
{
    int fits = 1;
    pf__nodes_next_gen(r);
    pf__open_reset(o, PF_TIE_DEFAULT, 0);
    (void)pf__nodes_set(r, src, 0.0, 0); /* dense records */
    pa[src] = pb[src] = 0;
    (void)pf__open_push(o, pf__hentry_make(0.0, 0, src)); /* a node is on the list at most once */
    for (;;) {
        uint32_t x = pf__nodes_take(r, o, NULL);
        if (x == PF_NODE_NONE) break;
        if (pa[x] >= PF__ACCEL_LM_NONE_HALF || pb[x] >= PF__ACCEL_LM_NONE_HALF) fits = 0;
        else acc->lm_d[(size_t)x * PF__ACCEL_LANDMARKS + col] = pa[x] | pb[x] << 16;
        for (uint32_t q = acc->lm_first[x], e = acc->lm_first[x + 1u]; q < e; q++) {
            const pf__accel_carc *p = &acc->core_arc[q];
            const uint32_t y = p->to;
            if (y == PF_NODE_NONE) continue; /* not from a build: check_arcs lets no such file in */
            uint32_t na, nb;
            if (PF__LIKELY(p->ab != PF__ACCEL_CARC_FAR)) {
                na = pa[x] + (p->ab & 0xFFFFu);
                nb = pb[x] + (p->ab >> 16);
            } else {
                const pf__accel_arc *arc = acc->arcs + acc->first[acc->core_cell[x]] + (q - acc->lm_first[x]);
                na = pa[x] + arc->a;
                nb = pb[x] + arc->b;
            }
            double ng = pf__accel_cost(na, nb);
            uint32_t was = pf__nodes_admit(r, y, ng, 0);
            if (!was) continue;
            (void)pf__nodes_put(r, o, NULL, y, was, ng, 0, NULL, 0, ng, 0.0, 0, 0);
            pa[y] = na;
            pb[y] = nb;
        }
    }
    return fits;
}

/* A worker's scratch for core_dijkstra: records and open list over the core, the step pairs. */
typedef struct lm_scratch {
    pf__nodes r;
    pf__open  o;
    void     *block;
    uint32_t *pa, *pb;
} lm_scratch;

typedef struct lm_job {
    pf_accel       *acc;
    lm_scratch     *w;   /* [workers] */
    const uint32_t *src; /* [PF__ACCEL_LANDMARKS] each landmark's core index */
} lm_job;

/* Landmarks [b, e): one search each, on the worker's scratch, into a column of their own. */
static void lm_body(void *ctx, uint64_t b, uint64_t e, uint32_t worker)
{
    const lm_job *j = ctx;
    lm_scratch *s = &j->w[worker];
    for (uint64_t l = b; l < e; l++)
        j->acc->lm_ok[l] = (uint8_t)core_dijkstra(j->acc, &s->r, &s->o, s->pa, s->pb, j->src[l], (uint32_t)l);
}

static void lm_scratch_free(const pf_allocator *al, lm_scratch *s, uint32_t n)
{
    pf__open_free(&s->o, al);
    pf__free(al, s->block, pf__nodes_bytes(n, 0));
    pf__free(al, s->pa, (size_t)n * sizeof(uint32_t));
    pf__free(al, s->pb, (size_t)n * sizeof(uint32_t));
}

static int lm_scratch_make(const pf_allocator *al, lm_scratch *s, uint32_t n)
{
    memset(s, 0, sizeof *s);
    s->block = pf__alloc(al, pf__nodes_bytes(n, 0), 64);
    s->pa = pf__alloc(al, (size_t)n * sizeof(uint32_t), 64);
    s->pb = pf__alloc(al, (size_t)n * sizeof(uint32_t), 64);
    if (!s->block || !s->pa || !s->pb) return 0;
    pf__nodes_place(&s->r, s->block, n, 0);
    s->o.pg = s->r.page;
    s->o.grow = pf__open_no_grow;
    return pf__open_resize(&s->o, al, n);
}

int pf__accel_landmarks(pf_accel *acc)
{
    pf__accel_landmarks_free(acc);
    const uint32_t n = acc->core;
    if (!n) return 1;
    uint32_t cap = 1024u;
    while (cap < 2u * n) cap *= 2u;
    const pf_allocator *al = &acc->alloc;
    acc->lm_cap = cap;
    acc->lm_key = pf__alloc(al, (size_t)cap * sizeof(uint32_t), 64);
    acc->lm_idx = pf__alloc(al, (size_t)cap * sizeof(uint32_t), 64);
    acc->lm_d = pf__alloc(al, (size_t)n * PF__ACCEL_LANDMARKS * sizeof(uint32_t), 64);
    uint32_t *cells = acc->core_cell = pf__alloc(al, (size_t)n * sizeof(uint32_t), 64);
    int ok = acc->lm_key && acc->lm_idx && acc->lm_d && cells;
    if (ok) {
        memset(acc->lm_key, 0xFF, (size_t)cap * sizeof(uint32_t));
        /* core indices by tiles of PF__ACCEL_CORE_TILE x PF__ACCEL_CORE_TILE cells (rows of tiles,
         * each tile by rows): the core nodes one query crosses lie in a band across the map, and
         * their records, arc lists and landmark rows (all by core index) then share cache lines
         * and pages, where by rows of the map a band's neighbours lie a row of the core apart */
        const uint32_t pw = acc->map->pw, ph = (uint32_t)(acc->cells / pw), T = PF__ACCEL_CORE_TILE;
        uint32_t k = 0;
        for (uint32_t ty = 0; ty < ph; ty += T)
            for (uint32_t tx = 0; tx < pw; tx += T)
                for (uint32_t y = ty; y < ty + T && y < ph; y++)
                    for (uint32_t c = y * pw + tx, e = y * pw + (tx + T < pw ? tx + T : pw); c < e; c++) {
                        if (acc->sub[c] != 2) continue;
                        uint32_t i = pf__accel_lm_slot(c, cap - 1u);
                        while (acc->lm_key[i] != PF_NODE_NONE) i = (i + 1u) & (cap - 1u);
                        acc->lm_key[i] = c;
                        acc->lm_idx[i] = k;
                        if (k < n) cells[k] = c;
                        k++;
                    }
        ok = k == n;
    }
    if (ok) {
        uint64_t na = 0;
        for (uint32_t i = 0; i < n; i++) na += acc->first[cells[i] + 1u] - acc->first[cells[i]];
        acc->lm_first = pf__alloc(al, ((size_t)n + 1u) * sizeof(uint32_t), 64);
        acc->core_arc = na <= UINT32_MAX && na < SIZE_MAX / sizeof(pf__accel_carc)
                            ? pf__alloc(al, (size_t)(na ? na : 1u) * sizeof(pf__accel_carc), 64)
                            : NULL;
        acc->lm_narc = acc->core_arc ? (uint32_t)(na ? na : 1u) : 0;
        ok = acc->lm_first && acc->core_arc;
        for (uint32_t i = 0, at = 0; ok && i < n; i++) {
            acc->lm_first[i] = at;
            for (uint32_t q = acc->first[cells[i]]; q < acc->first[cells[i] + 1u]; q++) {
                const pf__accel_arc *p = &acc->arcs[q];
                pf__accel_carc *e = &acc->core_arc[at++];
                e->to = pf__accel_core_index(acc, p->to);
                e->ab = p->a < 0xFFFFu && p->b < 0xFFFFu ? p->a | p->b << 16 : PF__ACCEL_CARC_FAR;
            }
            acc->lm_first[i + 1u] = at;
        }
    }
    if (ok) {
        /* landmarks: the core nodes nearest PF__ACCEL_LANDMARKS points spaced evenly along the
         * map's border, so that some landmark lies behind the goal of any long query */
        const uint32_t pw = acc->map->pw, ph = (uint32_t)(acc->cells / pw);
        const double per = 2.0 * ((double)pw + (double)ph);
        uint32_t src[PF__ACCEL_LANDMARKS];
        for (uint32_t l = 0; l < PF__ACCEL_LANDMARKS; l++) {
            double t = per * (double)l / (double)PF__ACCEL_LANDMARKS, px, py;
            if (t < pw) px = t, py = 0;
            else if (t < (double)pw + ph) px = pw - 1.0, py = t - pw;
            else if (t < 2.0 * pw + ph) px = pw - 1.0 - (t - pw - ph), py = ph - 1.0;
            else px = 0, py = ph - 1.0 - (t - 2.0 * pw - ph);
            uint32_t best = 0;
            double bd = INFINITY;
            for (uint32_t i = 0; i < n; i++) {
                double dx = (double)(cells[i] % pw) - px, dy = (double)(cells[i] / pw) - py, d = dx * dx + dy * dy;
                if (d < bd) bd = d, best = i;
            }
            acc->lm_cell[l] = cells[best];
            src[l] = best;
        }
        /* core nodes a landmark's search does not reach (another component) keep
         * PF__ACCEL_LM_NONE (infinitely far); a query skips a landmark that none of its goal's
         * core labels reaches, and one whose distances outgrew their 16 bits. The searches run
         * on the build's (or the load's) threads, a column of lm_d each: 64 of them over
         * random-2000-20's core take about 2 s on one thread */
        memset(acc->lm_d, 0xFF, (size_t)n * PF__ACCEL_LANDMARKS * sizeof(uint32_t));
        pf__par par = pf__par_build(&acc->desc.parallel, acc->desc.threads, acc->cells);
        if (par.workers > PF__ACCEL_LANDMARKS) par.workers = PF__ACCEL_LANDMARKS;
        lm_scratch w[PF__ACCEL_LANDMARKS];
        uint32_t made = 0;
        while (ok && made < par.workers) ok = lm_scratch_make(al, &w[made++], n);
        if (ok) {
            lm_job job = {acc, w, src};
            pf__par_for(&par, PF__ACCEL_LANDMARKS, 1, lm_body, &job);
        }
        for (uint32_t i = 0; i < made; i++) lm_scratch_free(al, &w[i], n);
        acc->lm_k = PF__ACCEL_LANDMARKS;
    }
    if (!ok) pf__accel_landmarks_free(acc);
    return ok;
}
