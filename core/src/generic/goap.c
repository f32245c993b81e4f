/* goap.c - goal-oriented action planning: a domain of named integer facts and actions, planned by
 * the generic search (generic.c) over world states (int32 per fact). */
#include <math.h>
#include <string.h>
#include "pathfind/pf_goap.h"
#include "common/pf_internal.h"
#include "common/par_internal.h"
#include "grow_internal.h"

/* Actions are flat: conditions and effects of all actions live in two growable arrays and each
 * action holds a [begin, end) range into them, so successor generation walks contiguous memory. */
typedef struct goap_action {
    double   cost;
    uint32_t pre_beg, pre_end;
    uint32_t eff_beg, eff_end;
    uint32_t name;            /* offset into names */
} goap_action;

struct pf_goap {
    pf_allocator    alloc;
    uint32_t        nfacts;
    uint32_t        fact_name[PF_GOAP_MAX_FACTS];  /* offsets into names */
    goap_action    *acts;
    uint32_t        nacts, acap;
    pf_goap_cond   *conds;
    uint32_t        ncond, ccap;
    pf_goap_effect *effs;
    uint32_t        neff, ecap;
    char           *names;
    size_t          nlen;
    uint32_t        ncap;
    double          min_cost;
};

/* The domain's arrays grow through its allocator; only while building, never while planning. */
static int add_name(pf_goap *g, const char *s, uint32_t *off)
{
    size_t n = strlen(s) + 1;
    if (g->nlen + n > UINT32_MAX) return 0;
    if (!pf__grow(&g->alloc, &g->names, &g->ncap, g->nlen + n, 1, 256u, 0)) return 0;
    memcpy(g->names + g->nlen, s, n);
    *off = (uint32_t)g->nlen;
    g->nlen += n;
    return 1;
}

pf_status pf_goap_create(const pf_goap_desc *desc, pf_goap **out)
{
    if (!out) return PF_INVALID_ARGUMENT;
    *out = NULL;
    pf_allocator a = pf__alloc_resolve(desc ? &desc->allocator : NULL);
    pf_goap *g = pf__calloc(&a, sizeof *g, 16);
    if (!g) return PF_OUT_OF_MEMORY;
    g->alloc = a;
    uint32_t off;
    if (!add_name(g, "", &off)) { /* offset 0 is the empty name of unnamed actions */
        pf__free(&a, g, sizeof *g);
        return PF_OUT_OF_MEMORY;
    }
    *out = g;
    return PF_OK;
}

void pf_goap_destroy(pf_goap *g)
{
    if (!g) return;
    pf_allocator a = g->alloc;
    pf__free(&a, g->acts, (size_t)g->acap * sizeof *g->acts);
    pf__free(&a, g->conds, (size_t)g->ccap * sizeof *g->conds);
    pf__free(&a, g->effs, (size_t)g->ecap * sizeof *g->effs);
    pf__free(&a, g->names, g->ncap);
    pf__free(&a, g, sizeof *g);
}

uint32_t pf_goap_find_fact(const pf_goap *g, const char *name)
{
    if (!g || !name) return PF_GOAP_NONE;
    for (uint32_t i = 0; i < g->nfacts; i++)
        if (strcmp(g->names + g->fact_name[i], name) == 0) return i;
    return PF_GOAP_NONE;
}

pf_status pf_goap_fact(pf_goap *g, const char *name, uint32_t *out_id)
{
    if (!g || !name || !name[0]) return PF_INVALID_ARGUMENT;
    uint32_t id = pf_goap_find_fact(g, name);
    if (id == PF_GOAP_NONE) {
        if (g->nfacts >= PF_GOAP_MAX_FACTS) return PF_TOO_LARGE;
        uint32_t off;
        if (!add_name(g, name, &off)) return PF_OUT_OF_MEMORY;
        id = g->nfacts++;
        g->fact_name[id] = off;
    }
    if (out_id) *out_id = id;
    return PF_OK;
}

uint32_t pf_goap_fact_count(const pf_goap *g) { return g ? g->nfacts : 0; }
const char *pf_goap_fact_name(const pf_goap *g, uint32_t f)
{
    return g && f < g->nfacts ? g->names + g->fact_name[f] : "";
}
uint32_t pf_goap_action_count(const pf_goap *g) { return g ? g->nacts : 0; }
const char *pf_goap_action_name(const pf_goap *g, uint32_t a)
{
    return g && a < g->nacts ? g->names + g->acts[a].name : "";
}
double pf_goap_action_cost(const pf_goap *g, uint32_t a) { return g && a < g->nacts ? g->acts[a].cost : 0.0; }

pf_status pf_goap_add_action(pf_goap *g, const pf_goap_action_desc *a, uint32_t *out_id)
{
    if (!g || !a || (a->pre_count && !a->pre) || (a->effect_count && !a->effects)) return PF_INVALID_ARGUMENT;
    double cost = a->cost == 0.0 ? 1.0 : a->cost;
    if (!(cost > 0.0) || isinf(cost)) return PF_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < a->pre_count; i++)
        if (a->pre[i].fact >= g->nfacts || (unsigned)a->pre[i].cmp > PF_GOAP_GE) return PF_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < a->effect_count; i++)
        if (a->effects[i].fact >= g->nfacts || (unsigned)a->effects[i].op > PF_GOAP_ADD) return PF_INVALID_ARGUMENT;
    if (!pf__grow(&g->alloc, &g->acts, &g->acap, (uint64_t)g->nacts + 1, sizeof *g->acts, 16u, 0) ||
        !pf__grow(&g->alloc, &g->conds, &g->ccap, (uint64_t)g->ncond + a->pre_count, sizeof *g->conds, 16u, 0) ||
        !pf__grow(&g->alloc, &g->effs, &g->ecap, (uint64_t)g->neff + a->effect_count, sizeof *g->effs, 16u, 0))
        return PF_OUT_OF_MEMORY;
    uint32_t name = 0;
    if (a->name && a->name[0] && !add_name(g, a->name, &name)) return PF_OUT_OF_MEMORY;
    goap_action *x = &g->acts[g->nacts];
    x->cost = cost;
    x->name = name;
    x->pre_beg = g->ncond;
    if (a->pre_count) memcpy(g->conds + g->ncond, a->pre, (size_t)a->pre_count * sizeof *a->pre);
    g->ncond += a->pre_count;
    x->pre_end = g->ncond;
    x->eff_beg = g->neff;
    if (a->effect_count) memcpy(g->effs + g->neff, a->effects, (size_t)a->effect_count * sizeof *a->effects);
    g->neff += a->effect_count;
    x->eff_end = g->neff;
    if (g->nacts == 0 || cost < g->min_cost) g->min_cost = cost;
    if (out_id) *out_id = g->nacts;
    g->nacts++;
    return PF_OK;
}

static inline int cond_holds(const pf_goap_cond *c, const int32_t *w)
{
    int32_t v = w[c->fact];
    switch (c->cmp) {
    case PF_GOAP_EQ: return v == c->value;
    case PF_GOAP_NE: return v != c->value;
    case PF_GOAP_LT: return v < c->value;
    case PF_GOAP_LE: return v <= c->value;
    case PF_GOAP_GT: return v > c->value;
    case PF_GOAP_GE: return v >= c->value;
    }
    return 0;
}

static int conds_valid(const pf_goap *g, const pf_goap_cond *c, uint32_t n)
{
    if (n && !c) return 0;
    for (uint32_t i = 0; i < n; i++)
        if (c[i].fact >= g->nfacts || (unsigned)c[i].cmp > PF_GOAP_GE) return 0;
    return 1;
}

int pf_goap_holds(const pf_goap *g, const int32_t *world, const pf_goap_cond *conds, uint32_t count)
{
    if (!g || !world || !conds_valid(g, conds, count)) return 0;
    for (uint32_t i = 0; i < count; i++)
        if (!cond_holds(&conds[i], world)) return 0;
    return 1;
}

static void apply_effects(const pf_goap *g, const goap_action *a, int32_t *w)
{
    for (uint32_t e = a->eff_beg; e < a->eff_end; e++) {
        const pf_goap_effect *x = &g->effs[e];
        if (x->op == PF_GOAP_SET) {
            w[x->fact] = x->value;
        } else {
            int64_t v = (int64_t)w[x->fact] + x->value; /* saturate instead of overflowing */
            w[x->fact] = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
        }
    }
}

pf_status pf_goap_apply(const pf_goap *g, uint32_t action, int32_t *world)
{
    if (!g || !world || action >= g->nacts) return PF_INVALID_ARGUMENT;
    const goap_action *a = &g->acts[action];
    for (uint32_t i = a->pre_beg; i < a->pre_end; i++)
        if (!cond_holds(&g->conds[i], world)) return PF_NO_PATH;
    apply_effects(g, a, world);
    return PF_OK;
}

/* ---- planning through the generic search ------------------------------------------------------ */

typedef struct goap_problem {
    const pf_goap      *g;
    const pf_goap_cond *goal;
    uint32_t            goal_count;
    double              hscale;  /* 0 = zero heuristic */
} goap_problem;

static void goap_successors(const void *state, pf_gen_sink *out, void *user)
{
    const goap_problem *q = user;
    const pf_goap *g = q->g;
    const int32_t *w = state;
    int32_t next[PF_GOAP_MAX_FACTS];
    const size_t bytes = (size_t)g->nfacts * sizeof(int32_t);
    for (uint32_t i = 0; i < g->nacts; i++) {
        const goap_action *a = &g->acts[i];
        uint32_t c = a->pre_beg;
        while (c < a->pre_end && cond_holds(&g->conds[c], w)) c++;
        if (c < a->pre_end) continue;
        memcpy(next, w, bytes);
        apply_effects(g, a, next);
        if (!pf_gen_push(out, next, a->cost, i)) return;
    }
}

static double goap_heuristic(const void *state, void *user)
{
    const goap_problem *q = user;
    uint32_t unmet = 0;
    for (uint32_t i = 0; i < q->goal_count; i++) unmet += !cond_holds(&q->goal[i], state);
    return (double)unmet * q->hscale;
}

static int goap_goal(const void *state, void *user)
{
    const goap_problem *q = user;
    for (uint32_t i = 0; i < q->goal_count; i++)
        if (!cond_holds(&q->goal[i], state)) return 0;
    return 1;
}

pf_status pf_goap_plan_find(pf_gen_ctx *ctx, const pf_goap *g, const int32_t *world, const pf_goap_cond *goal,
                            uint32_t goal_count, const pf_goap_plan_desc *desc, pf_goap_plan *plan)
{
    if (plan) {
        plan->len = 0;
        plan->cost = INFINITY;
        plan->expanded = 0;
    }
    pf_goap_plan_desc d = desc ? *desc : (pf_goap_plan_desc){0};
    if (!ctx || !g || !world || !plan || (plan->capacity && !plan->actions) || !conds_valid(g, goal, goal_count) ||
        (unsigned)d.heuristic > PF_GOAP_HEUR_ZERO || g->nfacts == 0)
        return PF_INVALID_ARGUMENT;
    goap_problem q = {g, goal, goal_count, 1.0};
    switch (d.heuristic) {
    case PF_GOAP_HEUR_UNMET_SCALED: q.hscale = g->nacts ? g->min_cost : 1.0; break;
    case PF_GOAP_HEUR_ZERO: q.hscale = 0.0; break;
    default: break;
    }
    pf_gen_problem p = {
        .state_size = g->nfacts * (uint32_t)sizeof(int32_t),
        .successors = goap_successors,
        .heuristic = q.hscale > 0.0 ? goap_heuristic : NULL,
        .is_goal = goap_goal,
        .user = &q,
    };
    pf_gen_desc gd = {
        .algo = d.algo,
        .weight = d.weight,
        .tie = d.tie,
        .tie_seed = d.tie_seed,
        .max_expansions = PF__DEF(d.max_expansions, 100000u),
        .max_bytes = d.max_bytes,
        .max_depth = PF__DEF(d.max_depth, 64u),
    };
    pf_gen_plan gp = {.actions = plan->actions, .capacity = plan->capacity};
    pf_gen_stats st;
    pf_status s = pf_gen_search(ctx, &p, world, &gd, &gp, &st);
    plan->len = gp.len;
    plan->expanded = st.expanded;
    if (s == PF_OK || (s == PF_LIMIT_REACHED && st.plan_len)) plan->cost = st.cost;
    return s;
}

static pf_status plan_one(pf_gen_ctx *ctx, const pf_goap *g, pf_goap_query *q, const pf_goap_plan_desc *d)
{
    pf_goap_plan_desc qd = *d;
    if (q->tie_seed) qd.tie_seed = q->tie_seed;
    return pf_goap_plan_find(ctx, g, q->world, q->goal, q->goal_count, &qd, &q->plan);
}

typedef struct many_job {
    const pf_goap           *g;
    pf_goap_query           *queries;
    const pf_goap_plan_desc *d;
    const pf_gen_ctx_desc   *ctx_desc;
    pf_gen_ctx             **ctx;    /* [workers] made by the worker's first range */
    int                      failed; /* a context could not be made */
} many_job;

/* Each query's result depends only on the query: any split gives the same plans. */
static void many_body(void *ctx, uint64_t begin, uint64_t end, uint32_t worker)
{
    many_job *j = ctx;
    pf_gen_ctx **c = &j->ctx[worker];
    if (!*c && pf_gen_ctx_create(j->ctx_desc, c) != PF_OK) {
        *c = NULL;
        pf__atomic_store_int(&j->failed, 1);
    }
    for (uint64_t i = begin; i < end; i++)
        j->queries[i].status = *c ? plan_one(*c, j->g, &j->queries[i], j->d) : PF_OUT_OF_MEMORY;
}

pf_status pf_goap_plan_many(const pf_goap *g, pf_goap_query *queries, uint32_t count,
                            const pf_goap_plan_desc *desc, const pf_gen_ctx_desc *ctx_desc, uint32_t threads)
{
    if (!g || (count && !queries)) return PF_INVALID_ARGUMENT;
    pf_goap_plan_desc d = desc ? *desc : (pf_goap_plan_desc){0};
    if (!count) return PF_OK;
    const pf__par par = pf__par_upto(&d.parallel, threads, count);
    /* one context per worker, made by that worker: no search state is ever shared. The array
     * comes from the contexts' allocator, as the contexts do. */
    pf_allocator a = pf__alloc_resolve(ctx_desc ? &ctx_desc->allocator : NULL);
    pf_gen_ctx **ctxs = pf__calloc(&a, (size_t)par.workers * sizeof *ctxs, 64);
    if (!ctxs) {
        for (uint32_t i = 0; i < count; i++) queries[i].status = PF_OUT_OF_MEMORY;
        return PF_OUT_OF_MEMORY;
    }
    many_job j = {g, queries, &d, ctx_desc, ctxs, 0};
    pf__par_for(&par, count, 8, many_body, &j);
    for (uint32_t w = 0; w < par.workers; w++) pf_gen_ctx_destroy(ctxs[w]);
    pf__free(&a, ctxs, (size_t)par.workers * sizeof *ctxs);
    return j.failed ? PF_OUT_OF_MEMORY : PF_OK;
}
