/* accel_query.c - PF_ALGO_AUTO's accelerated query: its two searches and their slices (its state
 * on the context: accel_ctx.c; its path: accel_path.c; which queries it takes: accel_pick.c).
 *
 * A query is two searches up the hierarchy: from the goal's seeds (the subgoals whose canonical
 * paths reach the goal), its g and parents kept as labels, and from the start's seeds on the
 * context's own records; each stops once its smallest key reaches the best meeting found. Both
 * stall on demand (a node reached more cheaply through a higher neighbour is not expanded). On a
 * hierarchy without a core they run at once, in turn a node each (both_ways). With a core the
 * goal's side runs first and whole up to the core (upward_goal); the start's then runs up the
 * contracted part, its core nodes reached becoming seeds, and from those crosses the core as an
 * A* bounded by landmarks through the goal's labels there (upward_start, core_search), on records
 * over core indices: the shape of a contraction hierarchy with a core.
 *
 * ONE SKELETON: every search here is the search skeleton's loop (search/skeleton_internal.h): its
 * loop head bounded by the best meeting (pf__bf_head), a successor generator over the hierarchy's
 * arcs, and the shared relaxation (pf__nodes_admit, pf__nodes_put) writing the accelerator's
 * parents. upward() runs on the context's records and open list; core_search() one level down, on
 * the per-context records of the core; both_ways' two sides on records by node index, each with
 * its open list. So a trace, a budget and max_expansions mean for a query what they mean for A*,
 * and a successful query's trace ends with the goal (conclude).
 */
#include <math.h>
#include <string.h>
#include "accel/accel_query_internal.h"
#include "search/skeleton_internal.h"
#include "search/metric_internal.h"
#include "jps/jps_internal.h"
#include "grow_internal.h"
#include "core_batch_internal.h"

/* Writes the seeds of `cell` (the start's when fwd, else the goal's) into x->seeds from index
 * `at`; returns their number, UINT32_MAX on allocation failure. */
static uint32_t scan_seeds(pf_ctx *c, pf__accel_ext *x, uint32_t at, uint32_t cell, int fwd)
{
    const pf__grid_view v = pf__accel_prep_view(x->acc, c->map);
    const uint8_t *sub = x->acc->sub;
    if (sub[cell]) { /* a subgoal is its own only seed */
        if (at + 1u > x->seeds_cap &&
            !pf__grow_slow(&c->alloc, &x->seeds, &x->seeds_cap, (uint64_t)at + 1u, sizeof *x->seeds, 64u, 0))
            return UINT32_MAX;
        x->seeds[at] = (pf__accel_seed){cell, 0, 0};
        return 1;
    }
    /* room for a few before the first scan: x->seeds + at on a NULL array is undefined (UBSan) */
    if (at + 8u > x->seeds_cap &&
        !pf__grow_slow(&c->alloc, &x->seeds, &x->seeds_cap, (uint64_t)at + 8u, sizeof *x->seeds, 64u, 0))
        return UINT32_MAX;
    for (;;) {
        uint32_t room = x->seeds_cap - at;
        /* by the walks' table where there is one (accel_jumps.c): the same seeds */
        uint32_t n = x->acc->jump ? (fwd ? pf__accel_jump_fwd(x->acc, cell, x->seeds + at, room)
                                         : pf__accel_jump_bwd(x->acc, cell, x->seeds + at, room))
                                  : (fwd ? pf__accel_scan_fwd(&v, sub, cell, x->seeds + at, room)
                                         : pf__accel_scan_bwd(&v, sub, cell, x->seeds + at, room));
        if (n <= room) return n;
        /* pf__grow_slow, not pf__grow: the cold growth of put_arc's arrays stays specialised to them */
        if (!pf__grow_slow(&c->alloc, &x->seeds, &x->seeds_cap, (uint64_t)at + n, sizeof *x->seeds, 64u, 0))
            return UINT32_MAX;
    }
}

/* ---- the goal side's labels ------------------------------------------------------------------ */


int pf__accel_labels_reset(pf_ctx *c, pf__accel_ext *x, uint32_t cap)
{
    if (cap > x->lcap) {
        pf__free(&c->alloc, x->lkey, (size_t)x->lcap * sizeof(uint32_t));
        pf__free(&c->alloc, x->lpar, (size_t)x->lcap * sizeof(uint32_t));
        pf__free(&c->alloc, x->lg, (size_t)x->lcap * sizeof(double));
        x->lkey = pf__alloc(&c->alloc, (size_t)cap * sizeof(uint32_t), 64);
        x->lpar = pf__alloc(&c->alloc, (size_t)cap * sizeof(uint32_t), 64);
        x->lg = pf__alloc(&c->alloc, (size_t)cap * sizeof(double), 64);
        x->lcap = cap;
        if (!x->lkey || !x->lpar || !x->lg) {
            pf__free(&c->alloc, x->lkey, (size_t)cap * sizeof(uint32_t));
            pf__free(&c->alloc, x->lpar, (size_t)cap * sizeof(uint32_t));
            pf__free(&c->alloc, x->lg, (size_t)cap * sizeof(double));
            x->lkey = x->lpar = NULL;
            x->lg = NULL;
            x->lcap = 0;
            return 0;
        }
    }
    memset(x->lkey, 0xFF, (size_t)x->lcap * sizeof(uint32_t));
    x->lcount = 0;
    return 1;
}

static int label_put(pf_ctx *c, pf__accel_ext *x, uint32_t cell, double g, uint32_t par)
{
    if (2u * (x->lcount + 1u) > x->lcap) { /* keep the table at most half full */
        uint32_t ocap = x->lcap, *okey = x->lkey, *opar = x->lpar;
        double *og = x->lg;
        x->lkey = x->lpar = NULL;
        x->lg = NULL;
        x->lcap = 0;
        int ok = pf__accel_labels_reset(c, x, ocap ? ocap * 2u : 1024u);
        for (uint32_t i = 0; ok && i < ocap; i++)
            if (okey[i] != PF_NODE_NONE) ok = label_put(c, x, okey[i], og[i], opar[i]);
        pf__free(&c->alloc, okey, (size_t)ocap * sizeof(uint32_t));
        pf__free(&c->alloc, opar, (size_t)ocap * sizeof(uint32_t));
        pf__free(&c->alloc, og, (size_t)ocap * sizeof(double));
        if (!ok) return 0;
    }
    uint32_t mask = x->lcap - 1u, i = pf__accel_label_slot(cell, mask);
    while (x->lkey[i] != PF_NODE_NONE) i = (i + 1u) & mask;
    x->lkey[i] = cell;
    x->lg[i] = g;
    x->lpar[i] = par;
    x->lcount++;
    return 1;
}


/* The goal side's labels at core nodes into the table by core index (ckey, cg); 0 when out of
 * memory. Counted first: the table is sized for them alone, at most half full. */
int pf__accel_core_labels_room(pf_ctx *c, pf__accel_ext *x, uint32_t cap)
{
    if (cap > x->ccap) {
        pf__free(&c->alloc, x->ckey, (size_t)x->ccap * sizeof(uint32_t));
        pf__free(&c->alloc, x->cg, (size_t)x->ccap * sizeof(double));
        x->ckey = pf__alloc(&c->alloc, (size_t)cap * sizeof(uint32_t), 64);
        x->cg = pf__alloc(&c->alloc, (size_t)cap * sizeof(double), 64);
        x->ccap = cap;
        if (!x->ckey || !x->cg) {
            pf__free(&c->alloc, x->ckey, (size_t)cap * sizeof(uint32_t));
            pf__free(&c->alloc, x->cg, (size_t)cap * sizeof(double));
            x->ckey = NULL;
            x->cg = NULL;
            x->ccap = x->ccount = 0;
            return 0;
        }
    }
    return 1;
}

static int core_labels(pf_ctx *c, pf__accel_ext *x)
{
    const pf_accel *acc = x->acc;
    uint32_t n = 0, cap = 64u;
    for (uint32_t i = 0; i < x->lcap; i++) n += x->lkey[i] != PF_NODE_NONE && acc->sub[x->lkey[i]] == 2;
    while (cap < 2u * n) cap *= 2u;
    if (!pf__accel_core_labels_room(c, x, cap)) return 0;
    /* the table is used at its full size (a bigger one from an earlier query: fewer probes) */
    memset(x->ckey, 0xFF, (size_t)x->ccap * sizeof(uint32_t));
    x->ccount = n;
    const uint32_t mask = x->ccap - 1u;
    for (uint32_t i = 0; n && i < x->lcap; i++) {
        uint32_t k = x->lkey[i];
        if (k == PF_NODE_NONE || acc->sub[k] != 2) continue;
        uint32_t ci = pf__accel_core_index(acc, k), j = pf__accel_label_slot(ci, mask);
        while (x->ckey[j] != PF_NODE_NONE) j = (j + 1u) & mask;
        x->ckey[j] = ci;
        x->cg[j] = x->lg[i];
    }
    return 1;
}

/* Slot of the label of core index ci, or UINT32_MAX. */
PF__INLINE uint32_t core_label_find(const pf__accel_ext *x, uint32_t ci)
{
    return pf__accel_table_find(x->ckey, x->ccap, ci);
}

/* ---- the searches ---------------------------------------------------------------------------- */

/* The heuristic of v, whose core index is ci (PF_NODE_NONE: not in the core). */
PF__INLINE double aim_h_ci(const aim *t, uint32_t v, uint32_t ci)
{
    double h = pf__grid_metric(PF_HEUR_OCTILE, (int32_t)(v % t->pw) - t->x, (int32_t)(v / t->pw) - t->y);
    if (ci != PF_NODE_NONE) {
        const uint32_t *row = t->acc->lm_d + (size_t)ci * PF__ACCEL_LANDMARKS;
        double alt = 0.0;
        for (uint32_t j = 0; j < t->nl; j++) {
            double d = pf__accel_lm_dist(row[t->lm[j]]), up = d - t->ub[j], lo = t->lb[j] - d;
            alt = up > alt ? up : alt;
            alt = lo > alt ? lo : alt;
        }
        /* sums of doubles in a different order: shaved so rounding never overestimates; the
         * costs of different paths differ by far more than this (a + b sqrt(2), integers) */
        alt = alt * (1.0 - 1e-12) - 1e-7;
        h = alt > h ? alt : h;
    }
    return h;
}

/* The heuristic of a node outside the core (the searches up the contracted part): the octile
 * distance alone, or none. */
PF__INLINE double aim_h(const aim *t, uint32_t v)
{
    if (!t->on) return 0.0;
    return aim_h_ci(t, v, PF_NODE_NONE);
}

/* The landmark bounds of the start's side from the goal side's labels in the core (core_labels). */
static void aim_landmarks(const pf__accel_ext *x, aim *t)
{
    const pf_accel *acc = x->acc;
    t->acc = acc;
    t->nl = 0;
    if (!acc->lm_k) return;
    double ub[PF__ACCEL_LANDMARKS], lb[PF__ACCEL_LANDMARKS];
    for (uint32_t l = 0; l < PF__ACCEL_LANDMARKS; l++) ub[l] = INFINITY, lb[l] = -INFINITY;
    for (uint32_t i = 0; x->ccount && i < x->ccap; i++) {
        uint32_t k = x->ckey[i];
        if (k == PF_NODE_NONE) continue;
        const uint32_t *row = acc->lm_d + (size_t)k * PF__ACCEL_LANDMARKS;
        const double lg = x->cg[i];
        for (uint32_t l = 0; l < PF__ACCEL_LANDMARKS; l++) {
            if (row[l] == PF__ACCEL_LM_NONE || !acc->lm_ok[l]) continue;
            double d = pf__accel_lm_dist(row[l]);
            if (lg + d < ub[l]) ub[l] = lg + d;
            if (d - lg > lb[l]) lb[l] = d - lg;
        }
    }
    /* the landmarks whose octile distances to the start and the goal differ most: those lie
     * behind one end as seen from the other, where their bounds are tight */
    const uint32_t pw = t->pw, sx = x->sx, sy = x->sy;
    double score[PF__ACCEL_LANDMARKS];
    for (uint32_t l = 0; l < PF__ACCEL_LANDMARKS; l++) {
        int32_t lx = (int32_t)(acc->lm_cell[l] % pw), ly = (int32_t)(acc->lm_cell[l] / pw);
        double ds = pf__grid_metric(PF_HEUR_OCTILE, lx - (int32_t)sx, ly - (int32_t)sy);
        double dt = pf__grid_metric(PF_HEUR_OCTILE, lx - t->x, ly - t->y);
        score[l] = ub[l] < INFINITY ? fabs(ds - dt) : -1.0;
    }
    while (t->nl < PF__ACCEL_LANDMARKS_QUERY) {
        uint32_t best = 0;
        for (uint32_t l = 1; l < PF__ACCEL_LANDMARKS; l++)
            if (score[l] > score[best]) best = l;
        if (score[best] < 0.0) break;
        score[best] = -1.0;
        t->lm[t->nl] = best;
        t->ub[t->nl] = ub[best];
        t->lb[t->nl++] = lb[best];
    }
    /* a row is several cache lines: core_search prefetches the ones the picked landmarks lie in
     * (two or three: the landmarks behind the start and behind the goal are neighbours). Without
     * any row prefetch the 20 longest random-2000-20 queries ran 960-1115 us against 859-1026 us
     * (bench_jps, in turn); picking landmarks from at most two lines expanded 7% more, no faster */
    const uint32_t per_line = 64u / sizeof(uint32_t);
    t->nline = 0;
    for (uint32_t l = 0; l < PF__ACCEL_LANDMARKS; l += per_line) {
        int used = 0;
        for (uint32_t j = 0; j < t->nl; j++) used |= t->lm[j] / per_line == l / per_line;
        if (used) t->line[t->nline++] = l;
    }
}

/* The relaxation of y reached from `from` (PF_NODE_NONE: a seed) at cost ng through the shared one
 * (search/nodes_internal.h), the accelerator's parents written, the heuristic computed only for
 * a record it writes; 0 when the open list cannot grow. Closed nodes are not reopened: the keys
 * are consistent. Entries go straight onto the heap, not through the held entry: measured with
 * callgrind on rooms-2000, holding cost 0.6% more instructions here (a node's arcs lead up the
 * hierarchy to many nodes, seldom to the next one popped). */
PF__INLINE int reach(pf_ctx *c, uint32_t *par, const aim *t, uint32_t y, uint32_t from, double ng)
{
    uint32_t was = pf__nodes_admit(&c->nodes, y, ng, 0);
    if (!was) return 1;
    c->s.st.pushed += was == PF__WAS_NEW;
    double h = aim_h(t, y);
    return pf__nodes_put(&c->nodes, &c->open, NULL, y, was, ng, 0, par, from, ng + h, h, 1, 0);
}

/* The relaxation of core node y (core index) reached from `from` at cost ng, on the core's records
 * r and open list o: its heuristic computed when its record is first written in this query and
 * kept in ch (about 60% of the writes lower a record already open). The open list never grows. */
PF__INLINE void core_reach(pf_ctx *c, pf__nodes *r, pf__open *o, double *ch, const aim *t, const uint32_t *cell, uint32_t y,
                           uint32_t from, double ng)
{
    const uint32_t was = pf__nodes_admit(r, y, ng, 0);
    if (!was) return;
    c->s.st.pushed += was == PF__WAS_NEW;
    const double h = was == PF__WAS_NEW ? (ch[y] = aim_h_ci(t, cell[y], y)) : ch[y];
    (void)pf__nodes_put(r, o, NULL, y, was, ng, 0, r->parent, from, ng + h, h, 1, 0);
}

/* reach() on the start's side, whose search up the contracted part stops at the core: a core
 * node y becomes a seed of the A* across the core (core_search), on its records by core index
 * with the landmark heuristic tc; its record here gets its g too (never this open list), which
 * the stall test reads, and its parent here is `from`. */
PF__INLINE int reach_start(pf_ctx *c, pf__accel_ext *x, const aim *t, const aim *tc, uint32_t y, uint32_t from, double ng)
{
    if (x->acc->sub[y] != 2) return reach(c, x->parent, t, y, from, ng);
    if (!pf__nodes_admit(&c->nodes, y, ng, 0)) return 1;
    if (!pf__nodes_set(&c->nodes, y, ng, 0)) return 0;
    x->parent[y] = from;
    core_reach(c, &x->cr, &x->copen, x->ch, tc, x->acc->core_cell, pf__accel_core_index(x->acc, y), PF_NODE_NONE, ng);
    return 1;
}

/* One side's search up the contracted part begins from seeds[0..n) on the context's records (as
 * upward(), which runs it); PF_OK or PF_OUT_OF_MEMORY. */
static pf_status upward_seed(pf_ctx *c, pf__accel_ext *x, const pf__accel_seed *seeds, uint32_t n, const int fwd,
                             const aim *tp, const aim *tc)
{
    const aim t0 = {.on = 0}, *tt = fwd ? tp : &t0;
    pf__nodes_next_gen(&c->nodes);
    pf__open_reset(&c->open, PF_TIE_DEFAULT, 0); /* unused: tie keys are 0 (pf__nodes_put) */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = seeds[i].cell;
        double g = pf__accel_cost(seeds[i].a, seeds[i].b);
        if (!(fwd ? reach_start(c, x, tt, tc, v, PF_NODE_NONE, g) : reach(c, x->parent, tt, v, PF_NODE_NONE, g)))
            return PF_OUT_OF_MEMORY;
    }
    return PF_OK;
}

/*
 * One side's search up the contracted part of the hierarchy, from the seeds upward_seed put on the
 * context's records, for at most `budget` expansions (a sliced query resumes it from its open list
 * alone, as any search). The goal's side (fwd = 0) runs until its open list is empty and labels
 * every node it expands, the core nodes it reaches included (it does not expand those); the
 * start's side stops when its smallest key reaches mt->best, meeting the labels as it expands, and
 * hands the core nodes it reaches to the A* across the core as seeds (reach_start: t its
 * heuristic, tc the core's). Returns PF_OK, PF_IN_PROGRESS (the budget spent), PF_LIMIT_REACHED
 * (max_expansions) or PF_OUT_OF_MEMORY.
 */
PF__INLINE pf_status upward(pf_ctx *c, pf__accel_ext *x, uint32_t budget, const int fwd, meet *mt, const aim *tp,
                            const aim *tc)
{
    const pf_accel *acc = x->acc;
    const uint8_t *sub = acc->sub;
    const aim t0 = {.on = 0}, *tt = fwd ? tp : &t0;
    const uint32_t *first = acc->first;
    const pf__accel_arc *arcs = acc->arcs;
    uint32_t *par = x->parent;
    /* the goal's side runs until its open list is empty (the unbounded loop head's PF_NO_PATH),
     * the start's until the best meeting; fwd is a constant of each instance, so the goal's side
     * has no bound to read at each step */
    pf_status ret;
    for (;;) {
        uint32_t v = pf__bf_head(&c->s, c->map, &c->nodes, &c->open, NULL, PF_NODE_NONE, NULL, &budget, &ret, fwd,
                                 fwd ? &mt->best : NULL);
        if (v == PF_NODE_NONE) break;
        c->s.st.expanded++;
        const double gv = pf__nodes_g(&c->nodes, v);
        if (fwd && x->lcount) {
            uint32_t k = pf__accel_label_find(x, v);
            if (k != UINT32_MAX && gv + x->lg[k] < mt->best) {
                mt->best = gv + x->lg[k];
                mt->node = v;
            }
        }
        const pf__accel_arc *a = arcs + first[v], *e = arcs + first[v + 1];
        /* the records of v's neighbours are scattered over the map's cells: their loads start
         * together here, not one miss after another in the loops below. Most nodes reached are
         * expanded in turn (the goal's side expands all it reaches): their arc ranges are fetched
         * with their records; the start's side tells the core nodes among them by acc->sub */
        for (const pf__accel_arc *p = a; p < e; p++) {
            PF__PREFETCH(pf__nodes_pair(&c->nodes, p->to));
            PF__PREFETCH(pf__nodes_gp(&c->nodes, p->to));
            PF__PREFETCH(&first[p->to]);
            if (fwd) PF__PREFETCH(&sub[p->to]);
        }
        /* stalled: a higher neighbour already reached reaches v more cheaply, so v's distance is
         * not a shortest one and nothing above it can be reached best through it (the relative
         * margin keeps a tie, summed in a different order, from looking like an improvement).
         * The start's side never expands a core node here (core_search does, without the test:
         * it crosses the core as an A* with a consistent heuristic, expanding a node at its
         * shortest distance; on random-2000-20 the test stalled 1,497 of 723,158 expansions there
         * while reading every arc twice). */
        const int vcore = !fwd && sub[v] == 2;
        int stalled = 0;
        for (const pf__accel_arc *p = a; p < e && !stalled && !vcore; p++)
            stalled = pf__nodes_live(&c->nodes, p->to) && pf__nodes_g(&c->nodes, p->to) + pf__accel_cost(p->a, p->b) < gv * (1.0 - 1e-12);
        if (stalled) continue;
        if (!fwd && !label_put(c, x, v, gv, par[v])) return PF_OUT_OF_MEMORY;
        if (vcore) continue; /* the goal's side stops at the core: the start's crosses it */
        for (const pf__accel_arc *p = a; p < e; p++) {
            const double ng = gv + pf__accel_cost(p->a, p->b);
            if (!(fwd ? reach_start(c, x, tt, tc, p->to, v, ng) : reach(c, par, tt, p->to, v, ng))) return PF_OUT_OF_MEMORY;
        }
    }
    return !fwd && ret == PF_NO_PATH ? PF_OK : ret;
}

/*
 * The start side's A* across the core from the seeds upward() put on its records (x->cr, by core
 * index), towards the goal by t (the octile distance and the landmark bounds through the goal
 * side's labels in the core), meeting those labels as it expands, until its smallest key reaches
 * mt->best. It is the skeleton's loop one level down, on records of its own: its loop head
 * (pf__bf_head: the bound, the step's budget, max_expansions, the trace) and relaxation
 * (pf__nodes_admit, pf__nodes_put). Every
 * core node's list holds all its arcs, to core nodes only, and acc->core_arc holds them by core
 * index. Returns PF_OK, PF_IN_PROGRESS (`budget` expansions done) or PF_LIMIT_REACHED.
 */
PF__INLINE pf_status core_search(pf_ctx *c, pf__accel_ext *x, meet *mt, const aim *tp, uint32_t budget)
{
    /* the heuristic on the stack: read through a pointer that the relaxations' stores may alias,
     * its fields were read again at every relaxation (callgrind: 3% more instructions a query on
     * random-2000-20 than with the copy, as when it was the caller's local) */
    const aim tl = *tp, *t = &tl;
    const pf_accel *acc = x->acc;
    pf__search *s = &c->s;
    pf__nodes *r = &x->cr;
    pf__open *o = &x->copen;
    const uint32_t *cell = acc->core_cell, *lm_first = acc->lm_first;
    const pf__accel_carc *core_arc = acc->core_arc;
    double *ch = x->ch;
    pf_status ret;
    for (;;) {
        /* the skeleton's loop head on these records (a sliced query resumes from the open list) */
        const uint32_t v = pf__bf_head(s, c->map, r, o, cell, PF_NODE_NONE, NULL, &budget, &ret, 1, &mt->best);
        if (v == PF_NODE_NONE) return ret;
        const uint32_t vc = cell[v];
        s->st.expanded++;
        const double gv = pf__nodes_g(r, v);
        if (x->ccount) {
            uint32_t k = core_label_find(x, v);
            if (k != UINT32_MAX && gv + x->cg[k] < mt->best) {
                mt->best = gv + x->cg[k];
                mt->node = vc;
                mt->ci = v;
            }
        }
        const pf__accel_carc *a = core_arc + lm_first[v], *e = core_arc + lm_first[v + 1u];
        /* the loads of the neighbours' records and landmark rows start together */
        for (const pf__accel_carc *p = a; p < e; p++) {
            PF__PREFETCH(pf__nodes_pair(r, p->to));
            PF__PREFETCH(pf__nodes_gp(r, p->to));
            const uint32_t *row = acc->lm_d + (size_t)p->to * PF__ACCEL_LANDMARKS;
            for (uint32_t k = 0; k < t->nline; k++) PF__PREFETCH(row + t->line[k]);
        }
        for (const pf__accel_carc *p = a; p < e; p++) {
            const uint32_t y = p->to;
            /* most arcs lead back into the expanded band: no cost to compute for those */
            if (pf__nodes_settled(r, y)) continue;
            double ng;
            if (PF__LIKELY(p->ab != PF__ACCEL_CARC_FAR)) {
                ng = gv + pf__accel_cost(p->ab & 0xFFFFu, p->ab >> 16);
            } else {
                const pf__accel_arc *far = acc->arcs + acc->first[vc] + (p - a);
                ng = gv + pf__accel_cost(far->a, far->b);
            }
            core_reach(c, r, o, ch, t, cell, y, v, ng);
        }
    }
}

/* The two sides, out of line: each side's loop is compiled once, for its own fwd. */
static pf_status upward_goal(pf_ctx *c, pf__accel_ext *x, uint32_t budget)
{
    return upward(c, x, budget, 0, &x->mt, NULL, NULL);
}

/* The start's, up the contracted part (an A* by the octile distance alone, x->at: no node there
 * has a landmark row); its core nodes reached are seeds of core_search (x->atc). */
static pf_status upward_start(pf_ctx *c, pf__accel_ext *x, uint32_t budget)
{
    const aim t = x->at, tc = x->atc; /* on the stack: as core_search's */
    return upward(c, x, budget, 1, &x->mt, &t, &tc);
}

/* The start's side begins: its seeds, its heuristics (x->at, and x->atc with the landmarks that
 * the goal side's labels in the core pick), its records up the contracted part and in the core. */
static pf_status start_side_core_begin(pf_ctx *c, pf__accel_ext *x)
{
    const uint32_t pw = c->map->pw, nf = scan_seeds(c, x, 0, c->s.start, 1);
    if (nf == UINT32_MAX) return PF_OUT_OF_MEMORY;
    x->at = (aim){.pw = pw, .x = (int32_t)(c->s.goal % pw), .y = (int32_t)(c->s.goal / pw), .on = 1, .acc = x->acc};
    x->sx = c->s.start % pw;
    x->sy = c->s.start / pw;
    if (!pf__accel_core_make(c, x)) return PF_OUT_OF_MEMORY;
    x->atc = x->at;
    aim_landmarks(x, &x->atc);
    pf__nodes_next_gen(&x->cr);
    pf__open_reset(&x->copen, PF_TIE_DEFAULT, 0); /* unused: tie keys are 0 (pf__nodes_put) */
    return upward_seed(c, x, x->seeds, nf, 1, &x->at, &x->atc);
}

/* ---- both sides at once, on a hierarchy without a core ----------------------------------------- */

/* The octile distance from node y to (tx, ty). */
PF__INLINE double node_h(const pf_accel *acc, uint32_t y, int32_t tx, int32_t ty)
{
    const pf__accel_nxy p = acc->node_xy[y];
    return pf__grid_metric(PF_HEUR_OCTILE, p.x - tx, p.y - ty);
}

/* One of the two sides: its records (own) and open list, the other side's records (where it
 * meets them) and the end its keys aim at. The start side's records are x->nr and its open list
 * x->nopen, towards the goal; the goal side's are x->gr (a squad's, lent, in squad_sides) and
 * x->gopen, towards the start. One body serves both, made per side by the inliner. */
typedef struct way {
    pf__nodes *own, *other;
    pf__open *open;
    int32_t tx, ty;
} way;

PF__INLINE way start_side(pf__accel_ext *x, int32_t tx, int32_t ty) { return (way){&x->nr, &x->gr, &x->nopen, tx, ty}; }
PF__INLINE way goal_side(pf__accel_ext *x, int32_t sx, int32_t sy) { return (way){&x->gr, &x->nr, &x->gopen, sx, sy}; }

/* Side d reaches node y from `from` (PF_NODE_NONE: a seed) at cost ng, an A* towards its end; 0
 * when the open list cannot grow (cannot happen: it holds every node).
 * Pruned: a key at or above the best meeting is never expanded (the side stops there), and no
 * meeting through y can beat it: the other side's g at y is the cost of a path from y to the
 * other end, at least h. So y is neither recorded nor pushed (on rooms-2000 most relaxations come
 * after the first meeting); a lower g reaching it later records it then. */
PF__INLINE int side_reach(pf_ctx *c, const pf_accel *acc, const way *d, uint32_t y, uint32_t from, double ng,
                          const meet *mt)
{
    const double h = node_h(acc, y, d->tx, d->ty);
    if (ng + h >= mt->best) return 1;
    uint32_t was = pf__nodes_admit(d->own, y, ng, 0);
    if (!was) return 1;
    c->s.st.pushed += was == PF__WAS_NEW;
    return pf__nodes_put(d->own, d->open, NULL, y, was, ng, 0, d->own->parent, from, ng + h, h, 1, 0);
}

/* Asks for node v's arc list (its targets and costs). */
PF__INLINE void prefetch_arcs(const pf_accel *acc, uint32_t v)
{
    const uint32_t a = acc->node_first[v], e = acc->node_first[v + 1u];
    if (a == e) return;
    PF__PREFETCH(&acc->node_to[a]);
    PF__PREFETCH(&acc->node_cost[a]);
    PF__PREFETCH(&acc->node_to[e - 1u]);
    PF__PREFETCH(&acc->node_cost[e - 1u]);
}

/* Side d's records begin anew with its seeds: PF_OK, or PF_INVALID_ARGUMENT / PF_OUT_OF_MEMORY
 * (cannot happen: a seed is a subgoal, the open list holds every node). */
static pf_status side_begin(pf_ctx *c, pf__accel_ext *x, const way *d, const pf__accel_seed *seeds, uint32_t n,
                            const meet *mt)
{
    pf__nodes_next_gen(d->own);
    pf__open_reset(d->open, PF_TIE_DEFAULT, 0); /* unused: tie keys are 0 (pf__nodes_put) */
    d->open->pg = d->own->page;                 /* the goal side's may be a squad's, lent */
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t y = pf__accel_node_of(x->acc, seeds[i].cell);
        if (y == PF_NODE_NONE) return PF_INVALID_ARGUMENT;
        if (!side_reach(c, x->acc, d, y, PF_NODE_NONE, pf__accel_cost(seeds[i].a, seeds[i].b), mt))
            return PF_OUT_OF_MEMORY;
    }
    return PF_OK;
}

/* One expansion of side d, meeting the other side's records: PF_IN_PROGRESS, PF_OK once its
 * smallest key reaches the best meeting, PF_LIMIT_REACHED (max_expansions), PF_OUT_OF_MEMORY. */
PF__INLINE pf_status side_step(pf_ctx *c, const pf_accel *acc, const way *d, meet *mt)
{
    const uint32_t *first = acc->node_first, *cell = acc->node_cell, *to = acc->node_to;
    const double *cost = acc->node_cost;
    pf__search *s = &c->s;
    pf__nodes *own = d->own, *other = d->other;
    /* the skeleton's loop head on these records: the bound, max_expansions (the goal coming off
     * the list is not an expansion), the trace; both_ways counts the budget */
    uint32_t budget = UINT32_MAX;
    pf_status ret;
    const uint32_t v = pf__bf_head(s, c->map, own, d->open, cell, PF_NODE_NONE, NULL, &budget, &ret, 1, &mt->best);
    if (v == PF_NODE_NONE) return ret;
    s->st.expanded++;
    const double gv = pf__nodes_g(own, v);
    if (pf__nodes_live(other, v) && gv + pf__nodes_g(other, v) < mt->best) {
        mt->best = gv + pf__nodes_g(other, v);
        mt->node = cell[v];
    }
    const uint32_t a = first[v], e = first[v + 1u];
    for (uint32_t q = a; q < e; q++) {
        PF__PREFETCH(pf__nodes_pair(own, to[q]));
        PF__PREFETCH(pf__nodes_gp(own, to[q]));
        PF__PREFETCH(&first[to[q]]);
        PF__PREFETCH(&acc->node_xy[to[q]]);
    }
    /* stalled: as in upward() */
    int stalled = 0;
    for (uint32_t q = a; q < e && !stalled; q++)
        stalled = pf__nodes_live(own, to[q]) && pf__nodes_g(own, to[q]) + cost[q] < gv * (1.0 - 1e-12);
    for (uint32_t q = a; q < e && !stalled; q++)
        if (!side_reach(c, acc, d, to[q], v, gv + cost[q], mt)) return PF_OUT_OF_MEMORY;
    return PF_IN_PROGRESS;
}

/*
 * The two upward searches interleaved, one expansion each in turn, each an A* towards the other
 * end that stops once its smallest key reaches the best meeting: on a hierarchy without a core the
 * goal's side need not run dry first (rooms-2000: it made 45% of a query's instructions, twice the
 * start's). Both run on records by node index (accel_nodes.c): the start's on x->nr and its open
 * list, the goal's labels (g and parent) on x->gr, its open list its own heap. A meeting is tested
 * as each side expands a node, against the other side's g whether final or not (each is the cost of
 * a path): the optimal up-down path's top node has a key below any larger best on both sides, so
 * the second side to expand it finds the first's final g there. Every heuristic is the octile
 * distance (consistent): no node is expanded twice. x->mt.node is the meeting's cell.
 * both_ways_begin seeds the two sides (PF_OK, or an error); both_ways runs them for at most
 * `budget` expansions, the side whose turn is next kept in x->turn: PF_OK, PF_IN_PROGRESS,
 * PF_LIMIT_REACHED (max_expansions) or PF_OUT_OF_MEMORY.
 */
static pf_status both_ways_begin(pf_ctx *c, pf__accel_ext *x, uint32_t ng_, uint32_t nf)
{
    pf__search *s = &c->s;
    const uint32_t pw = c->map->pw;
    const int32_t tx = (int32_t)(s->goal % pw), ty = (int32_t)(s->goal / pw);
    const int32_t sx = (int32_t)(s->start % pw), sy = (int32_t)(s->start / pw);
    if (!pf__accel_node_make(c, x)) return PF_OUT_OF_MEMORY;
    /* the context's own records are not searched, but begin anew as after any search: the goal's
     * record gets the cost (pf__accel_step) and no other is live */
    pf__nodes_next_gen(&c->nodes);
    pf__open_reset(&c->open, PF_TIE_DEFAULT, 0);
    const way sd = start_side(x, tx, ty), gd = goal_side(x, sx, sy);
    pf_status ss = side_begin(c, x, &sd, x->seeds + ng_, nf, &x->mt);
    pf_status gs = ss == PF_OK ? side_begin(c, x, &gd, x->seeds, ng_, &x->mt) : ss;
    if (gs != PF_OK) return gs;
    x->ss = x->gs = PF_IN_PROGRESS;
    x->turn = 0;
    return PF_OK;
}

static pf_status both_ways(pf_ctx *c, pf__accel_ext *x, uint32_t budget)
{
    pf__search *s = &c->s;
    const uint32_t pw = c->map->pw, e0 = s->st.expanded;
    const int32_t tx = (int32_t)(s->goal % pw), ty = (int32_t)(s->goal / pw);
    const int32_t sx = (int32_t)(s->start % pw), sy = (int32_t)(s->start / pw);
    meet *mt = &x->mt;
    const way sd = start_side(x, tx, ty), gd = goal_side(x, sx, sy);
    /* the sides' states in locals, kept in x between steps (in x alone, they were read again
     * after every store of a step: 2% more instructions a query on rooms-2000, callgrind) */
    pf_status ss = x->ss, gs = x->gs, ret = PF_OK;
    int turn = x->turn;
    while (ss == PF_IN_PROGRESS || gs == PF_IN_PROGRESS) {
        if (s->st.expanded - e0 >= budget) { /* a side's step expands one node or none */
            ret = PF_IN_PROGRESS;
            break;
        }
        if (!turn) {
            /* the arc lists of the node each side takes next, asked for a turn ahead: the other
             * side's expansion runs meanwhile (a side's next node is known once its own turn has
             * relaxed). Read when taken they missed the cache (node_to and node_cost, 1.3 MB on
             * rooms-2000): 15% of a query's time (perf) */
            if (gs == PF_IN_PROGRESS && x->gopen.size) prefetch_arcs(x->acc, x->gopen.heap[0].node);
            if (ss == PF_IN_PROGRESS && (ss = side_step(c, x->acc, &sd, mt)) != PF_IN_PROGRESS && ss != PF_OK) {
                ret = ss;
                break;
            }
            if (ss == PF_IN_PROGRESS && x->nopen.size) prefetch_arcs(x->acc, x->nopen.heap[0].node);
            turn = 1;
        } else {
            if (gs == PF_IN_PROGRESS && (gs = side_step(c, x->acc, &gd, mt)) != PF_IN_PROGRESS && gs != PF_OK) {
                ret = gs;
                break;
            }
            turn = 0;
        }
    }
    x->ss = ss;
    x->gs = gs;
    x->turn = turn;
    return ret;
}

/* ---- begin / step ---------------------------------------------------------------------------- */

/* A query the accelerator answers without searching: the canonical path itself, in either
 * direction. Writes it (goal first) and returns 1. */
static int direct(pf_ctx *c, pf__accel_ext *x, double *cost)
{
    const pf_map *m = c->map;
    const pf__search *s = &c->s;
    const pf__grid_view pv = pf__accel_prep_view(x->acc, m);
    uint32_t a, b;
    int fwd = pf__accel_cp_legal_any(x->acc, &pv, s->start, s->goal, &a, &b);
    if (!fwd && !pf__accel_cp_legal_any(x->acc, &pv, s->goal, s->start, &a, &b)) return 0;
    x->path_len = 0;
    if (!pf__accel_grow_u32(c, &x->path, &x->path_cap, (uint64_t)a + b + 1u)) return 0;
    /* goal first, written from the start's end: start -> goal, or the reverse of goal -> start */
    x->total = x->fill = a + b;
    x->path[x->total] = pf__grid_unpad(m, s->start);
    if (!pf__accel_put_cp(c, x, s->start, s->goal, fwd, 0, 0)) return 0;
    x->path_len = a + b + 1u;
    *cost = pf__accel_cost(a, b);
    return 1;
}


pf_status pf__accel_begin(pf_ctx *c)
{
    pf__accel_ext *x = pf__ctx_ext_get(c, PF__EXT_ACCEL);
    const pf_accel *acc = x->acc;
    const pf_map *m = c->map;
    x->path_len = 0;
    x->phase = Q_BEGIN;
    x->mt = (meet){INFINITY, PF_NODE_NONE, PF_NODE_NONE};
    x->cost = INFINITY;
    x->check = acc->dn != 0;
    x->clear = 1;
    x->bound = INFINITY;
    if (x->check) {
        /* no answer can cost less than the octile distance: a better cell whose bound is below it
         * refuses every answer, so JPS answers at once (accel_diff.c) */
        const uint32_t si = c->s.start, gi = c->s.goal, pw = m->pw;
        x->bound = pf__accel_diff_bound(acc, m, si, gi, m->cls[si]);
        double oct = pf__grid_metric(PF_HEUR_OCTILE, (int32_t)(si % pw) - (int32_t)(gi % pw),
                                     (int32_t)(si / pw) - (int32_t)(gi / pw));
        if (x->bound < oct) return PF_UNSUPPORTED;
    }
    return !acc->core || x->parent || pf__accel_make_parent(c, x) ? PF_IN_PROGRESS : PF_OUT_OF_MEMORY;
}


/* With a core, the goal side of the query begins: its seeds, its labels reset, its records. The
 * start's side crosses the core bounded by landmarks through the goal side's labels there
 * (aim_landmarks), so the goal's side runs first, whole (upward_goal, then core_labels). */
static pf_status goal_side_core_begin(pf_ctx *c, pf__accel_ext *x)
{
    const uint32_t nb = scan_seeds(c, x, 0, c->s.goal, 0);
    if (nb == UINT32_MAX || !pf__accel_labels_reset(c, x, 1024u)) return PF_OUT_OF_MEMORY;
    return upward_seed(c, x, x->seeds, nb, 0, NULL, NULL);
}

/* The goal side in one call (a squad's member: SQUADS). */
static pf_status goal_side_core(pf_ctx *c, pf__accel_ext *x)
{
    pf_status st = goal_side_core_begin(c, x);
    if (st == PF_OK) st = upward_goal(c, x, UINT32_MAX);
    return st == PF_OK && !core_labels(c, x) ? PF_OUT_OF_MEMORY : st;
}

/* Without a core, both sides begin at once: the goal's seeds, then the start's. */
static pf_status both_sides_begin(pf_ctx *c, pf__accel_ext *x)
{
    const uint32_t nb = scan_seeds(c, x, 0, c->s.goal, 0);
    if (nb == UINT32_MAX) return PF_OUT_OF_MEMORY;
    const uint32_t nf = scan_seeds(c, x, nb, c->s.start, 1);
    if (nf == UINT32_MAX) return PF_OUT_OF_MEMORY;
    return both_ways_begin(c, x, nb, nf);
}

/* The path of the best meeting begins (pf__accel_path_begin); none when the sides never met. */
static pf_status meet_path(pf_ctx *c, pf__accel_ext *x)
{
    /* the live map's components matched: on an edited map the prep map may not connect the
     * two (an edit opened the way), else it cannot happen */
    if (x->mt.node == PF_NODE_NONE) return x->check ? PF_UNSUPPORTED : PF_NO_PATH;
    return pf__accel_path_begin(c, x);
}

/* ---- squads (accel_internal.h, SQUADS) -------------------------------------------------------- */

void pf__ctx_accel_squad(pf_ctx *ctx, pf__accel_squad *q)
{
    pf__accel_ext *x = ctx ? pf__ctx_ext_get(ctx, PF__EXT_ACCEL) : NULL;
    if (x) x->squad = q;
}

/* The squad whose member c's query is, or NULL: a trace or max_expansions needs the query's own
 * expansions, and on an edited map a hierarchy without a core proves the path both_ways finds
 * (accel_diff.c), which among paths of equal cost may not be the one the squad's member finds. */
static pf__accel_squad *squad_of(const pf_ctx *c, const pf__accel_ext *x)
{
    if (!x->squad || c->s.trace || c->s.d.max_expansions) return NULL;
    return x->acc->core || !x->check ? x->squad : NULL;
}

/* The goal side's state of an ext, lent to it from a squad and given back. */
typedef struct goal_state {
    uint32_t *lkey, *lpar;
    double   *lg;
    uint32_t  lcap, lcount;
    uint32_t *ckey;
    double   *cg;
    uint32_t  ccap, ccount;
    pf__nodes gr;
} goal_state;

static void goal_swap(pf__accel_ext *x, goal_state *o)
{
    goal_state t = {x->lkey, x->lpar, x->lg, x->lcap, x->lcount, x->ckey, x->cg, x->ccap, x->ccount, x->gr};
    x->lkey = o->lkey;
    x->lpar = o->lpar;
    x->lg = o->lg;
    x->lcap = o->lcap;
    x->lcount = o->lcount;
    x->ckey = o->ckey;
    x->cg = o->cg;
    x->ccap = o->ccap;
    x->ccount = o->ccount;
    x->gr = o->gr;
    *o = t;
}

static goal_state squad_state(const pf__accel_squad *q)
{
    return (goal_state){q->lkey, q->lpar, q->lg, q->lcap, q->lcount, q->ckey, q->cg, q->ccap, q->ccount, q->gr};
}

/* What a member does with its squad's goal side: reads it, makes it (claimed), or makes its own
 * (the squad's is for another accelerator, map version or goal, or could not be made). */
enum { SQUAD_READ, SQUAD_MAKE, SQUAD_OWN };

static int squad_claim(pf__accel_squad *q, const pf_accel *acc, uint64_t version, uint32_t goal)
{
    int seen = PF__SQUAD_EMPTY;
    if (atomic_compare_exchange_strong_explicit(&q->state, &seen, PF__SQUAD_BUILDING, memory_order_acquire,
                                                memory_order_acquire)) {
        q->acc_serial = acc->serial;
        q->version = version;
        q->goal = goal;
        return SQUAD_MAKE;
    }
    /* another member makes it now, on another worker: this one makes its own (the same labels)
     * rather than wait, since the maker may be descheduled for a time slice (a game's frame on a
     * loaded machine: more threads than cores), where making one costs one goal side */
    return seen == PF__SQUAD_READY && q->acc_serial == acc->serial && q->version == version && q->goal == goal ? SQUAD_READ : SQUAD_OWN;
}

/* The goal side made by this member, into the squad (without a core it was made in the squad's
 * records, lent to x); the squad READY, or FAILED when out of memory. */
static void squad_publish(pf__accel_squad *q, const pf__accel_ext *x, int ok, uint32_t expanded, uint32_t pushed)
{
    if (ok && x->acc->core) {
        ok = pf__accel_squad_room(q, x->lcap, x->ccap, 0);
        if (ok) {
            memcpy(q->lkey, x->lkey, (size_t)x->lcap * sizeof(uint32_t));
            memcpy(q->lpar, x->lpar, (size_t)x->lcap * sizeof(uint32_t));
            memcpy(q->lg, x->lg, (size_t)x->lcap * sizeof(double));
            memcpy(q->ckey, x->ckey, (size_t)x->ccap * sizeof(uint32_t));
            memcpy(q->cg, x->cg, (size_t)x->ccap * sizeof(double));
            /* read by its sizes: a bigger table than x's from an earlier squad holds nothing else */
            q->lcap = x->lcap;
            q->ccap = x->ccap;
            q->lcount = x->lcount;
            q->ccount = x->ccount;
        }
    } else if (ok) {
        q->gr = x->gr; /* its generation moved on in x's copy */
    }
    q->expanded = expanded;
    q->pushed = pushed;
    atomic_store_explicit(&q->state, ok ? PF__SQUAD_READY : PF__SQUAD_FAILED, memory_order_release);
}

/* Without a core, a member's goal side whole: from the goal's seeds until its heap runs dry (no
 * meeting prunes it), keyed towards the goal itself: any consistent key settles every node at its
 * distance. */
static pf_status goal_side_whole(pf_ctx *c, pf__accel_ext *x)
{
    const uint32_t pw = c->map->pw, nb = scan_seeds(c, x, 0, c->s.goal, 0);
    if (nb == UINT32_MAX) return PF_OUT_OF_MEMORY;
    const int32_t gx = (int32_t)(c->s.goal % pw), gy = (int32_t)(c->s.goal / pw);
    meet none = {INFINITY, PF_NODE_NONE, PF_NODE_NONE};
    /* no start side yet: its records all stale, or an earlier query's would meet this goal side
     * and prune it */
    pf__nodes_next_gen(&x->nr);
    const way gd = goal_side(x, gx, gy);
    pf_status st = side_begin(c, x, &gd, x->seeds, nb, &none);
    if (st == PF_OK) do
            st = side_step(c, x->acc, &gd, &none);
        while (st == PF_IN_PROGRESS);
    return st;
}

/* Without a core, a member's start side against its goal side's labels, whole: the start side of
 * both_ways alone. */
static pf_status start_side_alone(pf_ctx *c, pf__accel_ext *x, meet *mt)
{
    const uint32_t pw = c->map->pw, nf = scan_seeds(c, x, 0, c->s.start, 1);
    if (nf == UINT32_MAX) return PF_OUT_OF_MEMORY;
    const int32_t tx = (int32_t)(c->s.goal % pw), ty = (int32_t)(c->s.goal / pw);
    pf__nodes_next_gen(&c->nodes); /* as both_ways: the context's records begin anew */
    pf__open_reset(&c->open, PF_TIE_DEFAULT, 0);
    const way sd = start_side(x, tx, ty);
    pf_status st = side_begin(c, x, &sd, x->seeds, nf, mt);
    if (st == PF_OK) do
            st = side_step(c, x->acc, &sd, mt);
        while (st == PF_IN_PROGRESS);
    return st;
}

/* Without a core, the query's sides and the start of its path as a member of squad q, in one call:
 * the goal side read from q, or made (into q when this member claimed it), then the start side
 * against it and the path's first pass (pf__accel_path_begin), the last that reads the goal side; q's
 * records are lent to x within this call alone (SLICES). */
static pf_status squad_sides(pf_ctx *c, pf__accel_ext *x, pf__accel_squad *q)
{
    const pf_accel *acc = x->acc;
    pf__search *s = &c->s;
    if (!pf__accel_node_make(c, x)) return PF_OUT_OF_MEMORY; /* before x->gr is lent */
    int role = squad_claim(q, acc, c->map->version, s->goal), lent = 0;
    goal_state own = {0}; /* q's fields are read only by a member that claimed it or saw it READY */
    pf_status st = PF_OK;
    if (role == SQUAD_MAKE) {
        if (pf__accel_squad_room(q, 0, 0, acc->nodes)) {
            own = squad_state(q);
            goal_swap(x, &own); /* made in the squad's records */
            lent = 1;
        } else {
            squad_publish(q, x, 0, 0, 0);
            role = SQUAD_OWN;
        }
    }
    if (role == SQUAD_READ) {
        own = squad_state(q);
        goal_swap(x, &own);
        lent = 1;
        s->st.expanded += q->expanded;
        s->st.pushed += q->pushed;
    } else {
        const uint32_t e0 = s->st.expanded, p0 = s->st.pushed;
        st = goal_side_whole(c, x);
        if (role == SQUAD_MAKE) {
            q->gr = x->gr; /* lent: its generation moved on, made or not */
            squad_publish(q, x, st == PF_OK, s->st.expanded - e0, s->st.pushed - p0);
        }
    }
    if (st == PF_OK) st = start_side_alone(c, x, &x->mt);
    if (st == PF_OK) st = meet_path(c, x);
    if (lent) goal_swap(x, &own);
    return st;
}

/* With a core, the goal side of a member of squad q, in one call: read from q, or made (into q when
 * this member claimed it). Read, q's labels are put into x's own (as many as the member that made
 * them put into q): a query sliced over several steps reads them after this step, when q may be
 * another goal's (SLICES). */
static pf_status squad_goal_core(pf_ctx *c, pf__accel_ext *x, pf__accel_squad *q)
{
    pf__search *s = &c->s;
    const int role = squad_claim(q, x->acc, c->map->version, s->goal);
    if (role == SQUAD_READ) {
        if (!pf__accel_labels_reset(c, x, 1024u)) return PF_OUT_OF_MEMORY;
        for (uint32_t i = 0; i < q->lcap; i++)
            if (q->lkey[i] != PF_NODE_NONE && !label_put(c, x, q->lkey[i], q->lg[i], q->lpar[i])) return PF_OUT_OF_MEMORY;
        if (!core_labels(c, x)) return PF_OUT_OF_MEMORY;
        s->st.expanded += q->expanded;
        s->st.pushed += q->pushed;
        return PF_OK;
    }
    const uint32_t e0 = s->st.expanded, p0 = s->st.pushed;
    pf_status st = goal_side_core(c, x);
    if (role == SQUAD_MAKE) squad_publish(q, x, st == PF_OK, s->st.expanded - e0, s->st.pushed - p0);
    return st;
}

/* ---- slices ----------------------------------------------------------------------------------- */

/*
 * SLICES. A query runs over as many pf_search_step calls as its budget asks, as any search: a
 * step returns PF_IN_PROGRESS after exactly its budget's units, and the query is the same (path,
 * cost, stats) however it was sliced. Its units are its expansions (the two sides up the
 * hierarchy, the A* across the core: pf_stats.expanded) and its path's cells, PF__ACCEL_PATH_UNIT
 * a unit (pf__search.work, not in the stats). It keeps where it stands in x: the part below it is
 * in (phase), the searches' records and open lists (resumed from them alone, as any search), the
 * best meeting, the heuristics, put_arcs' queue. It stops between expansions, between the
 * entries of put_arcs' queue (an entry writes one canonical path, at most a side of the map), and
 * on an edited map between the steps of a path being moved beside an edit (Q_MOVE: a window
 * around a building is read whole, at most two units per PF__ACCEL_PATH_UNIT cells of the side).
 * Uncut, and counted as what they do: the scans for the seeds (a few dozen walks; not units),
 * the first pass of the path (a pass over the arcs of the hierarchy it takes, tens to hundreds),
 * and the canonical paths from the start and to the goal. A squad's member (SQUADS) takes its
 * squad's goal side (with a core; without one its sides and its path's first pass) in one step:
 * the squad is lent to it within a step alone, and a member that reads it is charged what the
 * maker did, all at once. What a step does past its budget it owes (pf__search.owed): the next
 * steps pay it before they do more, and an answer found meanwhile waits in x->final (Q_DONE), so
 * that the units charged to each step, and the step that answers, do not depend on whether the
 * member made the goal side or read it, nor on where an entry ended.
 */

/* After the path is written: on an edited map, a path that crosses D (an edit since the build) but
 * costs no more than any path using a cell opened since (x->bound) goes to Q_MOVE, where most such
 * paths are moved beside the edit at the same cost (accel_diff.c); 0 when the path answers as it is
 * (conclude proves or refuses it). */
static int move_begin(pf__accel_ext *x)
{
    if (!x->check || x->clear || x->cost > x->bound) return 0;
    x->phase = Q_MOVE;
    x->move_at = x->move_try = 0;
    x->move_cells = 0;
    return 1;
}

/* Q_MOVE for at most `budget` units: PF_OK once the path is legal on the live map or found not to
 * be movable (x->clear says which), else PF_IN_PROGRESS. The table is put_arcs' queue, empty now;
 * its units join the path's (s->work). */
static pf_status move(pf_ctx *c, pf__accel_ext *x, uint32_t budget)
{
    const pf_map *m = c->map;
    const uint32_t side = m->width > m->height ? m->width : m->height;
    const uint32_t cap = PF__ACCEL_MOVE_CELLS * (side / PF__ACCEL_PATH_UNIT + 1u);
    if (!pf__accel_grow_u32(c, &x->stk, &x->stk_cap, cap)) return PF_OUT_OF_MEMORY;
    const uint64_t upto = budget == UINT32_MAX ? UINT64_MAX : x->move_cells + (uint64_t)budget * PF__ACCEL_PATH_UNIT;
    const uint64_t before = x->move_cells / PF__ACCEL_PATH_UNIT;
    int r = pf__accel_diff_reroute(m, x->path, x->total, &x->move_at, &x->move_try, x->stk, cap, &x->move_cells, upto);
    c->s.work += (uint32_t)(x->move_cells / PF__ACCEL_PATH_UNIT - before); /* at most budget + a window */
    if (r < 0) return PF_IN_PROGRESS;
    x->clear = r;
    return PF_OK;
}

/* The query on from x->phase for at most `budget` units (an uncut part may run past it):
 * PF_IN_PROGRESS, or its end (PF_OK with the path written and its cost in x->cost). */
static pf_status run(pf_ctx *c, pf__accel_ext *x, uint32_t budget)
{
    pf__search *s = &c->s;
    const uint64_t u0 = (uint64_t)s->st.expanded + s->work;
    for (;;) {
        const uint64_t used = (uint64_t)s->st.expanded + s->work - u0;
        if (budget != UINT32_MAX && used >= budget) return PF_IN_PROGRESS;
        const uint32_t left = budget == UINT32_MAX ? UINT32_MAX : budget - (uint32_t)used;
        pf_status st = PF_OK;
        int next = x->phase; /* where the query goes once this part is done */
        switch (x->phase) {
        case Q_BEGIN: {
            if (direct(c, x, &x->cost)) {
                pf__accel_path_work(c, x);
                if (!move_begin(x)) return PF_OK;
                continue;
            }
            pf__accel_squad *q = squad_of(c, x);
            if (q && x->acc->core) {
                st = squad_goal_core(c, x, q);
                next = Q_START_BEGIN;
            } else if (q) {
                st = squad_sides(c, x, q);
                next = Q_PATH;
            } else if (x->acc->core) {
                st = goal_side_core_begin(c, x);
                next = Q_GOAL;
            } else {
                st = both_sides_begin(c, x);
                next = Q_BOTH;
            }
            break;
        }
        case Q_GOAL:
            st = upward_goal(c, x, left);
            if (st == PF_OK && !core_labels(c, x)) st = PF_OUT_OF_MEMORY;
            next = Q_START_BEGIN;
            break;
        case Q_START_BEGIN:
            st = start_side_core_begin(c, x);
            next = Q_START;
            break;
        case Q_START:
            st = upward_start(c, x, left);
            next = Q_CORE;
            break;
        case Q_CORE:
            st = core_search(c, x, &x->mt, &x->atc, left);
            next = Q_PATH_BEGIN;
            break;
        case Q_BOTH:
            st = both_ways(c, x, left);
            next = Q_PATH_BEGIN;
            break;
        case Q_PATH_BEGIN:
            st = meet_path(c, x);
            next = Q_PATH;
            break;
        case Q_PATH:
            st = pf__accel_write_path(c, x, left);
            if (st != PF_OK || !move_begin(x)) return st;
            continue;
        case Q_MOVE:
            return move(c, x, left);
        default:
            return PF_INVALID_ARGUMENT; /* cannot happen: Q_DONE is pf__accel_step's */
        }
        if (st != PF_OK) return st; /* PF_IN_PROGRESS: the part goes on at the next step */
        x->phase = next;
    }
}

/* The query's answer once its path is written (or PF_UNSUPPORTED, PF_LIMIT_REACHED). */
static pf_status conclude(pf_ctx *c, pf__accel_ext *x)
{
    pf__search *s = &c->s;
    const double cost = x->cost;
    /* on an edited map the answer stands only where it is proven (accel_diff.c): a path of the
     * live map (no cell of D entered or cut beside), and no better cell near enough to shorten it */
    if (x->check && (!x->clear || cost > x->bound)) {
        x->path_len = 0;
        return PF_UNSUPPORTED;
    }
    if (s->cost_cap > 0 && cost > s->cost_cap) {
        x->path_len = 0;
        s->pruned = 1;
        return PF_LIMIT_REACHED;
    }
    /* the goal's record holds the cost, as after any search (pf_ctx_cost, pf_search_path) */
    if (!pf__nodes_set(&c->nodes, s->goal, cost, 0)) return PF_OUT_OF_MEMORY;
    pf__nodes_close(&c->nodes, s->goal);
    s->found = s->goal;
    s->st.path_len = x->path_len;
    pf__bf_trace_goal(s, c->map); /* as A*'s: the trace ends with the goal, not an expansion */
    return PF_OK;
}

pf_status pf__accel_step(pf_ctx *c, uint32_t budget)
{
    pf__accel_ext *x = pf__ctx_ext_get(c, PF__EXT_ACCEL);
    pf__search *s = &c->s;
    if (s->owed) { /* units done past an earlier step's budget: charged first */
        const uint32_t pay = s->owed < budget ? s->owed : budget;
        s->owed -= pay;
        if (budget != UINT32_MAX) budget -= pay;
        if (s->owed || !budget) return x->phase == Q_DONE && !s->owed ? x->final : PF_IN_PROGRESS;
    }
    if (x->phase == Q_DONE) return x->final;
    const uint64_t u0 = (uint64_t)s->st.expanded + s->work;
    pf_status st = run(c, x, budget);
    if (st == PF_OK) st = conclude(c, x);
    const uint64_t used = (uint64_t)s->st.expanded + s->work - u0;
    if (budget != UINT32_MAX && used > budget) {
        s->owed = (uint32_t)(used - budget);
        if (st != PF_IN_PROGRESS) { /* answered once the units are paid */
            x->final = st;
            x->phase = Q_DONE;
            st = PF_IN_PROGRESS;
        }
    }
    return st;
}

const uint32_t *pf__accel_path(const pf_ctx *c, uint32_t *len)
{
    const pf__accel_ext *x = pf__ctx_ext_get(c, PF__EXT_ACCEL);
    *len = x ? x->path_len : 0;
    return x ? x->path : NULL;
}
