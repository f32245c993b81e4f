/* generic_dfs.c - depth-first searches over implicit state spaces: IDA*, IDA* with a bounded
 * transposition table (the memory-bounded A*), and depth-first branch and bound (anytime).
 *
 * One explicit-stack loop serves all three. The current path lives in the context's path arrays
 * (one entry per depth); each level's successors sit in the shared successor scratch, used as a
 * stack: a level's range is [pbeg, pend), and popping a level truncates the scratch back to pbeg.
 * Memory is therefore O(depth * branching) (plus the table's fixed budget for IDASTAR_TT), and the
 * loop never allocates once the arrays have grown to the deepest path seen.
 */
#include <float.h>
#include <math.h>
#include <string.h>
#include "generic/generic_internal.h"

#define PF__FRESH PF__GEN_NONE /* pbeg of a level that has not been expanded yet */

static int path_reserve(pf_gen_ctx *c, uint32_t need)
{
    if (need > c->pcap) {
        void **const ptrs[] = {(void **)&c->pg,   (void **)&c->ph,   (void **)&c->pmin, (void **)&c->phash,
                               (void **)&c->pact, (void **)&c->pbeg, (void **)&c->pend, (void **)&c->pnext,
                               (void **)&c->ptt};
        const size_t elems[] = {8, 8, 8, 8, 4, 4, 4, 4, 4};
        if (!pf__gen_grow(c, ptrs, elems, 9, &c->pcap, need)) return 0;
    }
    return pf__gen_grow_bytes(c, &c->pstates, &c->pstates_cap, (size_t)c->pcap * c->ssize);
}


/* DFBnB: remembers the current path (levels 1..L) as the best plan so far. */
static int save_best(pf_gen_ctx *c, uint32_t L)
{
    if (L > c->bcap) {
        void **const ptrs[] = {(void **)&c->bact};
        const size_t elems[] = {sizeof *c->bact};
        if (!pf__gen_grow(c, ptrs, elems, 1, &c->bcap, L)) return 0;
    }
    if (!pf__gen_grow_bytes(c, &c->bstates, &c->bstates_cap, (size_t)c->bcap * c->ssize)) return 0;
    if (L) {
        memcpy(c->bact, c->pact + 1, (size_t)L * sizeof *c->bact);
        memcpy(c->bstates, c->pstates + c->ssize, (size_t)L * c->ssize);
    }
    c->blen = L;
    return 1;
}

static pf_status write_plan(const uint32_t *acts, const uint8_t *states, uint32_t len, uint32_t ss,
                            pf_gen_plan *plan)
{
    if (!plan) return PF_OK;
    plan->len = len;
    if (len > plan->capacity) return PF_BUFFER_TOO_SMALL;
    if (plan->actions && len) memcpy(plan->actions, acts, (size_t)len * sizeof *acts);
    if (plan->states && len) memcpy(plan->states, states, (size_t)len * ss);
    return PF_OK;
}

/* Outcome of one depth-first pass. */
enum { PF__RUN_DONE, PF__RUN_FOUND, PF__RUN_LIMIT, PF__RUN_OOM, PF__RUN_BAD };

typedef struct dfs {
    pf_gen_ctx          *c;
    const pf_gen_problem *p;
    const pf_gen_desc   *d;
    pf_gen_stats        *st;
    int      tt, bnb, use_h, need_hash;
    int      more_h;    /* the problem has extra heuristics: sh holds the maximum, sh0 the domain's own */
    uint32_t iter;      /* IDASTAR_TT: iteration stamp kept in the records' depth[] */
    double   thr;       /* IDA*: f threshold of this pass */
    double   next;      /* IDA*: smallest f above the threshold */
    double   best;      /* DFBnB: cost of the best plan so far */
    uint32_t found_len; /* IDA*: depth of the goal found */
    int      overflow;  /* a successor's cost summed to infinity (steps near DBL_MAX): passed over */
    /* IDASTAR_TT's proof that no plan exists. Its learnt bounds keep the thresholds finite on a
     * problem with no plan but a cycle (the cycle's states raise each other's bound every pass),
     * so `next` never runs out: instead, once every state the table holds has been expanded and
     * none was left out of it (skipped: the table was full), the table is every state reachable
     * from the start (dead ends aside), each goal-tested, and there is no plan. GEN_HPOS, unused
     * by the depth-first searches, marks an entry expanded. */
    int      skipped;
    uint32_t nexpanded; /* entries marked expanded */
} dfs;

/* Expands level L: successors into the scratch, h filled in; DFBnB also orders them in sord. */
PF__INLINE int expand(dfs *x, uint32_t L, const int bnb)
{
    pf_gen_ctx *c = x->c;
    const pf_gen_problem *p = x->p;
    const uint32_t ss = c->ssize;
    uint32_t beg = c->scount;
    c->pbeg[L] = beg;
    c->sink.parent_h = c->ph[L];
    c->snan = 0;
    p->successors(c->pstates + (size_t)L * ss, &c->sink, p->user);
    if (c->limit_hit) return PF__RUN_OOM;
    if (c->bad_push) return PF__RUN_BAD;
    uint32_t end = c->scount;
    c->pend[L] = end;
    c->pnext[L] = beg;
    /* costs and pushed h were checked by the sink: a domain that pushes every h skips this pass */
    const int fill = !x->use_h || c->snan || x->more_h;
    for (uint32_t i = beg; fill && i < end; i++) {
        if (!x->use_h) {
            c->sh[i] = 0.0;
        } else if (isnan(c->sh[i])) {
            c->sh[i] = p->heuristic ? p->heuristic(c->sstates + (size_t)i * ss, p->user) : 0.0;
        }
        if (pf__gen_bad_h(c->sh[i])) return PF__RUN_BAD;
        if (x->more_h) {
            c->sh0[i] = c->sh[i];
            c->sh[i] = pf__gen_hmax(p, x->d, c->sstates + (size_t)i * ss, c->sh[i]);
            if (pf__gen_bad_h(c->sh[i])) return PF__RUN_BAD;
        }
    }
    if (bnb) {
        for (uint32_t i = beg; i < end; i++) c->sord[i] = i;
        /* most promising child first (stable insertion sort: branching factors are small) */
        const double g = c->pg[L];
        for (uint32_t i = beg + 1; i < end; i++) {
            uint32_t v = c->sord[i];
            double fv = g + c->scost[v] + c->sh[v];
            uint32_t j = i;
            while (j > beg) {
                uint32_t u = c->sord[j - 1];
                if (!(g + c->scost[u] + c->sh[u] > fv)) break;
                c->sord[j] = u;
                j--;
            }
            c->sord[j] = v;
        }
    }
    return PF__RUN_DONE;
}

/* Non-zero when the state repeats a state on the current path (hash hv). */
static int on_path(const pf_gen_ctx *c, uint32_t L, const uint8_t *s, uint64_t hv)
{
    const uint32_t ss = c->ssize;
    for (uint32_t j = 0; j <= L; j++)
        if (c->phash[j] == hv && pf__gen_equal(s, c->pstates + (size_t)j * ss, ss)) return 1;
    return 0;
}

/* One pass of the depth-first loop. It is inlined once per algorithm and cycle rule (run()
 * below), so the flags are constants there and each search runs only its own branches; the
 * context's arrays are held in locals, reloaded only where they can move (after a successor
 * callback, which may grow the scratch, and after the path grows). Together with the inlined state
 * copy and compare this took the 15-puzzle IDA* from 22 to ~30 M generated nodes per CPU second
 * (docs/generic-search.md). */
PF__INLINE int run_impl(dfs *x, const int tt, const int bnb, const int parent_only)
{
    pf_gen_ctx *c = x->c;
    const pf_gen_problem *p = x->p;
    const pf_gen_desc *d = x->d;
    pf_gen_stats *st = x->st;
    const uint32_t ss = c->ssize;
    const int need_hash = x->need_hash;
    const double thr = x->thr, max_cost = pf__cost_cap(d->max_cost);
    const uint32_t max_depth = d->max_depth;
    const uint64_t max_exp = d->max_expansions;
    uint64_t generated = st->generated, expanded = st->expanded;
    double next = x->next;
    int ret = PF__RUN_DONE;
    uint32_t L = 0;

    /* scratch (moves when a successor callback grows it) and path (moves when it grows) */
    const uint8_t *sstates = NULL;
    const double *scost = NULL, *sh = NULL, *sh0 = NULL;
    const uint32_t *sact = NULL, *sord = NULL;
#define RELOAD_SCRATCH()                                                                           \
    (sstates = c->sstates, scost = c->scost, sh = c->sh, sh0 = x->more_h ? c->sh0 : c->sh,         \
     sact = c->sact, sord = c->sord)
    uint8_t *pstates;
    double *pg, *ph, *pmin;
    uint64_t *phash;
    uint32_t *pact, *pbeg, *pend, *pnext, *ptt;
#define RELOAD_PATH()                                                                              \
    (pstates = c->pstates, pg = c->pg, ph = c->ph, pmin = c->pmin, phash = c->phash,               \
     pact = c->pact, pbeg = c->pbeg, pend = c->pend, pnext = c->pnext, ptt = c->ptt)
    RELOAD_SCRATCH();
    RELOAD_PATH();

    c->scount = 0;
    pbeg[0] = PF__FRESH;
    pmin[0] = INFINITY;

    for (;;) {
        if (pbeg[L] == PF__FRESH) {
            const uint8_t *s = pstates + (size_t)L * ss;
            int leaf = 0;
            if (p->is_goal(s, p->user)) {
                if (!bnb) {
                    x->found_len = L;
                    ret = PF__RUN_FOUND;
                    goto out;
                }
                if (pg[L] < x->best) {
                    if (!save_best(c, L)) {
                        ret = PF__RUN_OOM;
                        goto out;
                    }
                    x->best = pg[L];
                    st->iterations++;
                }
                leaf = 1; /* extending a goal never makes a cheaper plan (costs >= 0) */
            } else if (max_depth && L >= max_depth) {
                leaf = 1;
                /* IDASTAR_TT: cut by depth, not by the threshold (a shallower arrival may go on),
                 * so neither this state nor its ancestors on the path learn a bound from it */
                if (tt) pmin[L] = -INFINITY;
            } else if (max_exp && expanded >= max_exp) {
                ret = PF__RUN_LIMIT;
                goto out;
            }
            if (leaf) {
                pbeg[L] = pend[L] = pnext[L] = c->scount;
            } else {
                expanded++;
                if (tt && ptt[L] != PF__GEN_NONE && !GEN_HPOS(c, ptt[L])) {
                    GEN_HPOS(c, ptt[L]) = 1;
                    x->nexpanded++;
                }
                int r = expand(x, L, bnb);
                RELOAD_SCRATCH();
                if (r != PF__RUN_DONE) {
                    ret = r;
                    goto out;
                }
            }
        }

        int pushed = 0;
        while (pnext[L] < pend[L]) {
            uint32_t i = bnb ? sord[pnext[L]++] : pnext[L]++;
            const uint8_t *cs = sstates + (size_t)i * ss;
            double cg = pg[L] + scost[i], ch = sh[i];
            if (!(cg <= DBL_MAX)) {
                x->overflow = 1;
                continue;
            }
            uint64_t hv = need_hash ? pf__gen_hash(cs, ss) : 0;
            int cycle;
            if (parent_only)
                cycle = pf__gen_equal(cs, pstates + (size_t)L * ss, ss) ||
                        (L > 0 && pf__gen_equal(cs, pstates + (size_t)(L - 1) * ss, ss));
            else
                cycle = on_path(c, L, cs, hv);
            if (cycle) {
                /* a cycle is never part of a cheapest plan, but its bound still limits the
                 * backed-up value of this level (the best route may lead back through here) */
                if (tt && cg + ch < pmin[L]) pmin[L] = cg + ch;
                continue;
            }
            generated++;
            if (ch == INFINITY) continue; /* a dead end (h = INFINITY): never descended into */
            uint32_t k = PF__GEN_NONE;
            if (tt) {
                k = pf__gen_find(c, cs, hv);
                if (k != PF__GEN_NONE) {
                    if (c->h[k] > ch) ch = c->h[k];
                    if (c->depth[k] == x->iter && !(cg < c->g[k]) && (!max_depth || L + 1 >= GEN_PTIE(c, k))) {
                        /* reached before in this pass at no greater g (and, under max_depth, no
                         * smaller depth): that visit had at least this much of the threshold (and
                         * of the depth) left, so it already searched everything this would */
                        if (cg + ch < pmin[L]) pmin[L] = cg + ch;
                        continue;
                    }
                    c->g[k] = cg;
                    c->depth[k] = x->iter;
                    GEN_PTIE(c, k) = L + 1; /* the arrival's depth (the table has no tie keys) */
                } else if (c->ncount < d->max_states) {
                    k = pf__gen_insert(c, cs, hv);
                    if (k == PF__GEN_NONE) {
                        ret = PF__RUN_OOM;
                        goto out;
                    }
                    c->g[k] = cg;
                    c->h[k] = ch;
                    c->depth[k] = x->iter;
                    GEN_PTIE(c, k) = L + 1;
                    GEN_HPOS(c, k) = 0;
                } else {
                    x->skipped = 1;
                }
            }
            double f = cg + ch;
            if (bnb) {
                if (!(f < x->best) || (max_cost > 0 && f > max_cost)) {
                    pnext[L] = pend[L]; /* children are sorted by f: the rest are no better */
                    break;
                }
            } else if (f > thr) {
                if (!(max_cost > 0 && f > max_cost) && f < next) next = f;
                if (tt && f < pmin[L]) pmin[L] = f;
                continue;
            }
            if (PF__UNLIKELY(L + 2 > c->pcap)) {
                if (!path_reserve(c, L + 2)) {
                    ret = PF__RUN_OOM;
                    goto out;
                }
                RELOAD_PATH();
            }
            L++;
            pf__gen_copy(pstates + (size_t)L * ss, cs, ss);
            pg[L] = cg;
            ph[L] = sh0[i]; /* the domain's own h: pf_gen_sink_h must not see table bounds or maxima */
            if (need_hash) phash[L] = hv;
            pact[L] = sact[i];
            if (tt) ptt[L] = k;
            pbeg[L] = PF__FRESH;
            if (tt) pmin[L] = INFINITY;
            pushed = 1;
            break;
        }
        if (pushed) continue;

        /* level L is exhausted: back up its bound, drop its successors, return to the parent */
        if (tt && ptt[L] != PF__GEN_NONE && pmin[L] < INFINITY) { /* -INFINITY: a depth cut below */
            double hb = pmin[L] - pg[L];
            if (hb > c->h[ptt[L]]) c->h[ptt[L]] = hb;
        }
        c->scount = pbeg[L];
        if (L == 0) break;
        if (tt && pmin[L] < pmin[L - 1]) pmin[L - 1] = pmin[L];
        L--;
    }
out:
    st->generated = generated;
    st->expanded = expanded;
    x->next = next;
    return ret;
#undef RELOAD_SCRATCH
#undef RELOAD_PATH
}

static int run(dfs *x)
{
    const int parent_only = x->d->cycles == PF_GEN_CYCLES_PARENT;
    if (x->tt) return parent_only ? run_impl(x, 1, 0, 1) : run_impl(x, 1, 0, 0);
    /* DFBnB cuts every cycle along the path whatever the rule: its first dive has no bound to
     * stop it (IDA* has its threshold), so with the parent rule alone a cycle of three or more
     * states was followed forever on a finite graph */
    if (x->bnb) return run_impl(x, 0, 1, 0);
    return parent_only ? run_impl(x, 0, 0, 1) : run_impl(x, 0, 0, 0);
}

pf_status pf__gen_dfs(pf_gen_ctx *c, const pf_gen_problem *p, const void *start, const pf_gen_desc *d_in,
                      pf_gen_plan *plan, pf_gen_stats *st)
{
    pf_gen_desc d = *d_in;
    dfs x = {0};
    x.c = c;
    x.p = p;
    x.d = &d;
    x.st = st;
    x.tt = d.algo == PF_GEN_IDASTAR_TT;
    x.bnb = d.algo == PF_GEN_DFBNB;
    x.use_h = p->heuristic != NULL || d.heuristic_count > 0;
    x.more_h = d.heuristic_count > 0;
    c->take_h = x.use_h;
    x.need_hash = x.tt || x.bnb || d.cycles == PF_GEN_CYCLES_PATH;
    x.best = INFINITY;
    const uint32_t ss = c->ssize;

    c->scount = 0;
    c->blen = 0;
    pf__gen_records_clear(c);
    if (!path_reserve(c, 2)) return PF_OUT_OF_MEMORY;
    double h0 = p->heuristic ? p->heuristic(start, p->user) : 0.0;
    if (pf__gen_bad_h(h0)) return PF_INVALID_ARGUMENT;
    double hx0 = x.more_h ? pf__gen_hmax(p, &d, start, h0) : h0; /* the bound; h0 is for sink_h */
    if (pf__gen_bad_h(hx0)) return PF_INVALID_ARGUMENT;
    if (hx0 == INFINITY) return PF_NO_PATH; /* the start is a dead end */
    memcpy(c->pstates, start, ss);
    c->pg[0] = 0.0;
    c->ph[0] = h0;
    c->phash[0] = x.need_hash ? pf__gen_hash(start, ss) : 0;
    c->pact[0] = 0;
    c->ptt[0] = PF__GEN_NONE;
    if (x.tt && d.max_states > 0) {
        uint32_t k = pf__gen_insert(c, start, c->phash[0]);
        if (k == PF__GEN_NONE) return PF_OUT_OF_MEMORY;
        c->g[k] = 0.0;
        c->h[k] = hx0;
        c->depth[k] = 0;
        GEN_PTIE(c, k) = 0;
        GEN_HPOS(c, k) = 0;
        c->ptt[0] = k;
    } else if (x.tt) {
        x.skipped = 1;
    }
    if (d.max_cost > 0 && hx0 > pf__cost_cap(d.max_cost)) return PF_NO_PATH;

    x.thr = hx0;
    for (;;) {
        x.iter++;
        x.next = INFINITY;
        if (x.tt && c->ptt[0] != PF__GEN_NONE) {
            uint32_t k = c->ptt[0];
            c->g[k] = 0.0;
            c->depth[k] = x.iter;
            if (x.thr < c->h[k]) x.thr = c->h[k];
        }
        if (!x.bnb) st->iterations++;
        int r = run(&x);
        switch (r) {
        case PF__RUN_FOUND:
            st->cost = c->pg[x.found_len];
            st->plan_len = x.found_len;
            return write_plan(c->pact + 1, c->pstates + ss, x.found_len, ss, plan);
        case PF__RUN_OOM: return PF_OUT_OF_MEMORY;
        case PF__RUN_BAD: return PF_INVALID_ARGUMENT;
        default: break;
        }
        if (x.bnb) {
            pf_status s = r == PF__RUN_LIMIT ? PF_LIMIT_REACHED : PF_OK;
            if (c->blen == 0 && !(x.best < INFINITY))
                return r == PF__RUN_LIMIT ? PF_LIMIT_REACHED : x.overflow ? PF_COST_OVERFLOW : PF_NO_PATH;
            st->cost = x.best;
            st->plan_len = c->blen;
            pf_status w = write_plan(c->bact, c->bstates, c->blen, ss, plan);
            return w == PF_OK ? s : w;
        }
        if (r == PF__RUN_LIMIT) return PF_LIMIT_REACHED;
        if (!(x.next < INFINITY) || (x.tt && !x.skipped && x.nexpanded == c->ncount))
            return x.overflow ? PF_COST_OVERFLOW : PF_NO_PATH;
        x.thr = x.next;
    }
}
