/* generic_dfs.c - depth-first searches over implicit state spaces: IDA*, IDA* with a bounded
 * transposition table (the memory-bounded A*), and depth-first branch and bound (anytime).
 *
 * One explicit-stack loop serves all three. The current path lives in the context's path arrays
 * (one entry per depth); each level's successors sit in the shared successor scratch, used as a
 * stack: a level's range is [pbeg, pend), and popping a level truncates the scratch back to pbeg.
 * Memory is therefore O(depth * branching) (plus the table's fixed budget for IDASTAR_TT), and the
 * loop never allocates once the arrays have grown to the deepest path seen.
 */
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

static int bad_value(double v) { return !(v >= 0.0) || isinf(v); }

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
    uint32_t iter;      /* IDASTAR_TT: iteration stamp kept in the records' depth[] */
    double   thr;       /* IDA*: f threshold of this pass */
    double   next;      /* IDA*: smallest f above the threshold */
    double   best;      /* DFBnB: cost of the best plan so far */
    uint32_t found_len; /* IDA*: depth of the goal found */
} dfs;

/* Expands level L: successors into the scratch, h filled in, order in sord. */
static int expand(dfs *x, uint32_t L)
{
    pf_gen_ctx *c = x->c;
    const pf_gen_problem *p = x->p;
    const uint32_t ss = c->ssize;
    uint32_t beg = c->scount;
    c->pbeg[L] = beg;
    c->sink.parent_h = c->ph[L];
    p->successors(c->pstates + (size_t)L * ss, &c->sink, p->user);
    if (c->limit_hit) return PF__RUN_OOM;
    uint32_t end = c->scount;
    c->pend[L] = end;
    c->pnext[L] = beg;
    for (uint32_t i = beg; i < end; i++) {
        if (bad_value(c->scost[i])) return PF__RUN_BAD;
        if (!x->use_h) {
            c->sh[i] = 0.0;
        } else if (isnan(c->sh[i])) {
            c->sh[i] = p->heuristic(c->sstates + (size_t)i * ss, p->user);
        }
        if (bad_value(c->sh[i])) return PF__RUN_BAD;
        c->sord[i] = i;
    }
    if (x->bnb) {
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

/* Non-zero when the state at scratch index i repeats a state on the path (cycle rule). */
static int on_path(const pf_gen_ctx *c, const pf_gen_desc *d, uint32_t L, const uint8_t *s, uint64_t hv)
{
    const uint32_t ss = c->ssize;
    if (d->cycles == PF_GEN_CYCLES_PARENT) {
        if (memcmp(s, c->pstates + (size_t)L * ss, ss) == 0) return 1;
        return L > 0 && memcmp(s, c->pstates + (size_t)(L - 1) * ss, ss) == 0;
    }
    for (uint32_t j = 0; j <= L; j++)
        if (c->phash[j] == hv && memcmp(s, c->pstates + (size_t)j * ss, ss) == 0) return 1;
    return 0;
}

static int run(dfs *x)
{
    pf_gen_ctx *c = x->c;
    const pf_gen_problem *p = x->p;
    const pf_gen_desc *d = x->d;
    pf_gen_stats *st = x->st;
    const uint32_t ss = c->ssize;
    uint32_t L = 0;
    c->scount = 0;
    c->pbeg[0] = PF__FRESH;
    c->pmin[0] = INFINITY;

    for (;;) {
        if (c->pbeg[L] == PF__FRESH) {
            const uint8_t *s = c->pstates + (size_t)L * ss;
            int leaf = 0;
            if (p->is_goal(s, p->user)) {
                if (!x->bnb) {
                    x->found_len = L;
                    return PF__RUN_FOUND;
                }
                if (c->pg[L] < x->best) {
                    if (!save_best(c, L)) return PF__RUN_OOM;
                    x->best = c->pg[L];
                    st->iterations++;
                }
                leaf = 1; /* extending a goal never makes a cheaper plan (costs >= 0) */
            } else if (d->max_depth && L >= d->max_depth) {
                leaf = 1;
            } else if (d->max_expansions && st->expanded >= d->max_expansions) {
                return PF__RUN_LIMIT;
            }
            if (leaf) {
                c->pbeg[L] = c->pend[L] = c->pnext[L] = c->scount;
            } else {
                st->expanded++;
                int r = expand(x, L);
                if (r != PF__RUN_DONE) return r;
            }
        }

        int pushed = 0;
        while (c->pnext[L] < c->pend[L]) {
            uint32_t i = c->sord[c->pnext[L]++];
            const uint8_t *cs = c->sstates + (size_t)i * ss;
            double cg = c->pg[L] + c->scost[i], ch = c->sh[i];
            uint64_t hv = x->need_hash ? pf__gen_hash(cs, ss) : 0;
            if (on_path(c, d, L, cs, hv)) {
                /* a cycle is never part of a cheapest plan, but its bound still limits the
                 * backed-up value of this level (the best route may lead back through here) */
                if (cg + ch < c->pmin[L]) c->pmin[L] = cg + ch;
                continue;
            }
            st->generated++;
            uint32_t k = PF__GEN_NONE;
            if (x->tt) {
                k = pf__gen_find(c, cs, hv);
                if (k != PF__GEN_NONE) {
                    if (c->h[k] > ch) ch = c->h[k];
                    if (c->depth[k] == x->iter && !(cg < c->g[k])) {
                        /* reached before in this pass at no greater g: that visit had at least this
                         * much of the threshold left, so it already searched everything this would */
                        if (cg + ch < c->pmin[L]) c->pmin[L] = cg + ch;
                        continue;
                    }
                    c->g[k] = cg;
                    c->depth[k] = x->iter;
                } else if (c->ncount < d->max_states) {
                    k = pf__gen_insert(c, cs, hv);
                    if (k == PF__GEN_NONE) return PF__RUN_OOM;
                    c->g[k] = cg;
                    c->h[k] = ch;
                    c->depth[k] = x->iter;
                }
            }
            double f = cg + ch;
            if (x->bnb) {
                if (!(f < x->best) || (d->max_cost > 0 && f > d->max_cost)) {
                    c->pnext[L] = c->pend[L]; /* children are sorted by f: the rest are no better */
                    break;
                }
            } else {
                if (f > x->thr) {
                    if (!(d->max_cost > 0 && f > d->max_cost) && f < x->next) x->next = f;
                    if (f < c->pmin[L]) c->pmin[L] = f;
                    continue;
                }
            }
            if (!path_reserve(c, L + 2)) return PF__RUN_OOM;
            L++;
            memcpy(c->pstates + (size_t)L * ss, c->sstates + (size_t)i * ss, ss);
            c->pg[L] = cg;
            c->ph[L] = c->sh[i]; /* the domain's own h: pf_gen_sink_h must not see table bounds */
            c->phash[L] = hv;
            c->pact[L] = c->sact[i];
            c->ptt[L] = k;
            c->pbeg[L] = PF__FRESH;
            c->pmin[L] = INFINITY;
            pushed = 1;
            break;
        }
        if (pushed) continue;

        /* level L is exhausted: back up its bound, drop its successors, return to the parent */
        if (x->tt && c->ptt[L] != PF__GEN_NONE && c->pmin[L] < INFINITY) {
            double hb = c->pmin[L] - c->pg[L];
            if (hb > c->h[c->ptt[L]]) c->h[c->ptt[L]] = hb;
        }
        c->scount = c->pbeg[L];
        if (L == 0) return PF__RUN_DONE;
        if (c->pmin[L] < c->pmin[L - 1]) c->pmin[L - 1] = c->pmin[L];
        L--;
    }
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
    x.use_h = p->heuristic != NULL;
    x.need_hash = x.tt || d.cycles == PF_GEN_CYCLES_PATH;
    x.best = INFINITY;
    /* the table's cut rule assumes every arrival could go as deep as the threshold allows */
    if (x.tt) d.max_depth = 0;
    const uint32_t ss = c->ssize;

    c->scount = 0;
    c->blen = 0;
    pf__gen_records_clear(c);
    if (!path_reserve(c, 2)) return PF_OUT_OF_MEMORY;
    double h0 = x.use_h ? p->heuristic(start, p->user) : 0.0;
    if (bad_value(h0)) return PF_INVALID_ARGUMENT;
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
        c->h[k] = h0;
        c->depth[k] = 0;
        c->ptt[0] = k;
    }
    if (d.max_cost > 0 && h0 > d.max_cost) return PF_NO_PATH;

    x.thr = h0;
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
            if (c->blen == 0 && !(x.best < INFINITY)) return r == PF__RUN_LIMIT ? PF_LIMIT_REACHED : PF_NO_PATH;
            st->cost = x.best;
            st->plan_len = c->blen;
            pf_status w = write_plan(c->bact, c->bstates, c->blen, ss, plan);
            return w == PF_OK ? s : w;
        }
        if (r == PF__RUN_LIMIT) return PF_LIMIT_REACHED;
        if (!(x.next < INFINITY)) return PF_NO_PATH;
        x.thr = x.next;
    }
}
