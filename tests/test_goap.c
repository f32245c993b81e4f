/* test_goap.c - GOAP: the hunger/food/berries example of the seeds, domain validation, each
 * comparison and effect on a domain small enough to plan by hand, optimality on random action sets
 * against a Dijkstra of the test's own over world states, and batch planning equal to serial
 * planning. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "testutil.h"

/* The write-up's domain: Eat (hunger -1, food -1; needs food >= 1), Gather Berries (food +1; needs
 * see berries >= 1), Search Berries (see berries +1). */
static pf_goap *hunger_domain(uint32_t *hunger, uint32_t *food, uint32_t *see)
{
    pf_goap *g;
    assert_int_equal(pf_goap_create(NULL, &g), PF_OK);
    assert_int_equal(pf_goap_fact(g, "hunger", hunger), PF_OK);
    assert_int_equal(pf_goap_fact(g, "food", food), PF_OK);
    assert_int_equal(pf_goap_fact(g, "see_berries", see), PF_OK);
    pf_goap_cond has_food = {*food, PF_GOAP_GE, 1}, sees = {*see, PF_GOAP_GE, 1};
    pf_goap_effect eat[2] = {{*hunger, PF_GOAP_ADD, -1}, {*food, PF_GOAP_ADD, -1}};
    pf_goap_effect gather = {*food, PF_GOAP_ADD, 1}, search = {*see, PF_GOAP_ADD, 1};
    assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"eat", 1, &has_food, 1, eat, 2}, NULL), PF_OK);
    assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"gather_berries", 1, &sees, 1, &gather, 1}, NULL),
                     PF_OK);
    assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"search_berries", 1, NULL, 0, &search, 1}, NULL),
                     PF_OK);
    return g;
}

static void test_hunger_example(void **state)
{
    (void)state;
    uint32_t hunger, food, see;
    pf_goap *g = hunger_domain(&hunger, &food, &see);
    assert_int_equal(pf_goap_find_fact(g, "food"), food);
    assert_int_equal(pf_goap_find_fact(g, "water"), PF_GOAP_NONE);
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    int32_t world[3] = {0};
    world[hunger] = 1;
    pf_goap_cond goal = {hunger, PF_GOAP_EQ, 0};
    uint32_t acts[16];
    pf_goap_plan plan = {.actions = acts, .capacity = 16};
    assert_int_equal(pf_goap_plan_find(ctx, g, world, &goal, 1, NULL, &plan), PF_OK);
    assert_int_equal(plan.len, 3);
    assert_string_equal(pf_goap_action_name(g, acts[0]), "search_berries");
    assert_string_equal(pf_goap_action_name(g, acts[1]), "gather_berries");
    assert_string_equal(pf_goap_action_name(g, acts[2]), "eat");
    assert_true(plan.cost == 3.0);
    /* executing it reaches the goal */
    for (uint32_t i = 0; i < plan.len; i++) assert_int_equal(pf_goap_apply(g, acts[i], world), PF_OK);
    assert_true(pf_goap_holds(g, world, &goal, 1));
    /* already seeing berries: two actions; already holding food: one */
    int32_t w2[3] = {0};
    w2[hunger] = 2;
    w2[food] = 1;
    w2[see] = 1;
    assert_int_equal(pf_goap_plan_find(ctx, g, w2, &goal, 1, NULL, &plan), PF_OK);
    assert_int_equal(plan.len, 3); /* eat, gather, eat (in some order of equal cost) */
    /* goal already met: empty plan */
    int32_t w3[3] = {0};
    assert_int_equal(pf_goap_plan_find(ctx, g, w3, &goal, 1, NULL, &plan), PF_OK);
    assert_int_equal(plan.len, 0);
    /* an impossible goal in an infinite space stops at the expansion limit */
    pf_goap_cond never = {hunger, PF_GOAP_GT, 5};
    assert_int_equal(pf_goap_plan_find(ctx, g, world, &never, 1, &(pf_goap_plan_desc){.max_expansions = 500}, &plan),
                     PF_LIMIT_REACHED);
    assert_true(isinf(plan.cost));
    /* a buffer too small reports the length needed */
    world[hunger] = 1;
    world[food] = world[see] = 0;
    pf_goap_plan tiny = {.actions = acts, .capacity = 1};
    assert_int_equal(pf_goap_plan_find(ctx, g, world, &goal, 1, NULL, &tiny), PF_BUFFER_TOO_SMALL);
    assert_int_equal(tiny.len, 3);
    /* precondition unmet: apply refuses and leaves the world alone */
    int32_t w4[3] = {1, 0, 0};
    assert_int_equal(pf_goap_apply(g, 0, w4), PF_NO_PATH);
    assert_int_equal(w4[0], 1);
    pf_gen_ctx_destroy(ctx);
    pf_goap_destroy(g);
}

static void test_domain_validation(void **state)
{
    (void)state;
    pf_goap *g;
    assert_int_equal(pf_goap_create(NULL, &g), PF_OK);
    uint32_t f;
    assert_int_equal(pf_goap_fact(g, "", &f), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_goap_fact(g, NULL, &f), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_goap_fact(g, "a", &f), PF_OK);
    assert_int_equal(f, 0);
    assert_int_equal(pf_goap_fact(g, "a", &f), PF_OK); /* same name, same id */
    assert_int_equal(f, 0);
    pf_goap_cond badc = {7, PF_GOAP_EQ, 0};
    pf_goap_effect e = {0, PF_GOAP_SET, 1}, bade = {0, (pf_goap_op)9, 1};
    assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"x", 1, &badc, 1, &e, 1}, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"x", 1, NULL, 0, &bade, 1}, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"x", -1, NULL, 0, &e, 1}, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"x", NAN, NULL, 0, &e, 1}, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_goap_action_count(g), 0);
    char name[16];
    for (uint32_t i = 1; i < PF_GOAP_MAX_FACTS; i++) {
        snprintf(name, sizeof name, "f%u", i);
        assert_int_equal(pf_goap_fact(g, name, &f), PF_OK);
    }
    assert_int_equal(pf_goap_fact(g, "one_too_many", &f), PF_TOO_LARGE);
    /* saturating add */
    pf_goap_effect up = {1, PF_GOAP_ADD, INT32_MAX};
    uint32_t a;
    assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"up", 0, NULL, 0, &up, 1}, &a), PF_OK);
    assert_true(pf_goap_action_cost(g, a) == 1.0); /* 0 means 1 */
    static int32_t w[PF_GOAP_MAX_FACTS];
    w[1] = 5;
    assert_int_equal(pf_goap_apply(g, a, w), PF_OK);
    assert_int_equal(w[1], INT32_MAX);
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    pf_goap_plan plan = {0};
    pf_goap_cond unknown = {PF_GOAP_MAX_FACTS, PF_GOAP_EQ, 0};
    assert_int_equal(pf_goap_plan_find(ctx, g, w, &unknown, 1, NULL, &plan), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_goap_plan_find(NULL, g, w, NULL, 0, NULL, &plan), PF_INVALID_ARGUMENT);
    pf_gen_ctx_destroy(ctx);
    pf_goap_destroy(g);
    pf_goap_destroy(NULL);
}

/* ---- one small domain per comparison and per effect: the plan's cost is known by hand --------- */

/* x starts at v; inc and dec move it by 1 and finish (cost 1, needs `x cmp 2`) sets done, the goal.
 * The cheapest plan walks x to the nearest value where the precondition holds, then finishes. */
static void test_each_comparison(void **state)
{
    (void)state;
    static const char *const names[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    for (int cmp = PF_GOAP_EQ; cmp <= PF_GOAP_GE; cmp++) {
        pf_goap *g;
        uint32_t x, done;
        assert_int_equal(pf_goap_create(NULL, &g), PF_OK);
        assert_int_equal(pf_goap_fact(g, "x", &x), PF_OK);
        assert_int_equal(pf_goap_fact(g, "done", &done), PF_OK);
        pf_goap_effect inc = {x, PF_GOAP_ADD, 1}, dec = {x, PF_GOAP_ADD, -1}, fin = {done, PF_GOAP_SET, 1};
        pf_goap_cond pre = {x, (pf_goap_cmp)cmp, 2}, goal = {done, PF_GOAP_EQ, 1};
        assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"inc", 1, NULL, 0, &inc, 1}, NULL), PF_OK);
        assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"dec", 1, NULL, 0, &dec, 1}, NULL), PF_OK);
        assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"finish", 1, &pre, 1, &fin, 1}, NULL), PF_OK);
        for (int32_t v = 0; v <= 4; v++) {
            /* steps from v to the nearest x with `x cmp 2` */
            static const int32_t steps[6][5] = {
                {2, 1, 0, 1, 2}, /* EQ */
                {0, 0, 1, 0, 0}, /* NE */
                {0, 0, 1, 2, 3}, /* LT */
                {0, 0, 0, 1, 2}, /* LE */
                {3, 2, 1, 0, 0}, /* GT */
                {2, 1, 0, 0, 0}, /* GE */
            };
            int32_t world[2] = {0};
            world[x] = v;
            assert_int_equal(pf_goap_holds(g, world, &pre, 1), steps[cmp][v] == 0);
            uint32_t acts[16];
            pf_goap_plan plan = {.actions = acts, .capacity = 16};
            pf_status r = pf_goap_plan_find(ctx, g, world, &goal, 1, NULL, &plan);
            if (r != PF_OK || plan.cost != steps[cmp][v] + 1.0)
                fail_msg("x %s 2 from x = %d: %s cost %g, want %d", names[cmp], v, pf_status_name(r), plan.cost,
                         steps[cmp][v] + 1);
            assert_int_equal(plan.len, steps[cmp][v] + 1);
            /* and the goal, as a goal: no action when it holds */
            pf_goap_plan direct = {.actions = acts, .capacity = 16};
            assert_int_equal(pf_goap_plan_find(ctx, g, world, &pre, 1, NULL, &direct), PF_OK);
            assert_true(direct.cost == steps[cmp][v]);
        }
        pf_goap_destroy(g);
    }
    pf_gen_ctx_destroy(ctx);
}

/* From x = 1, set (x = 5) then add (x += 2) twice reaches 9 in 3; add alone needs 4, and a SET
 * that added (1 + 5 = 6) would leave only the 4, an ADD that set never leaves 5. */
static void test_set_and_add(void **state)
{
    (void)state;
    pf_goap *g;
    uint32_t x, set, add;
    assert_int_equal(pf_goap_create(NULL, &g), PF_OK);
    assert_int_equal(pf_goap_fact(g, "x", &x), PF_OK);
    pf_goap_effect es = {x, PF_GOAP_SET, 5}, ea = {x, PF_GOAP_ADD, 2};
    assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"set", 1, NULL, 0, &es, 1}, &set), PF_OK);
    assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"add", 1, NULL, 0, &ea, 1}, &add), PF_OK);
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    int32_t world[1] = {1};
    pf_goap_cond goal = {x, PF_GOAP_EQ, 9};
    uint32_t acts[16];
    pf_goap_plan plan = {.actions = acts, .capacity = 16};
    assert_int_equal(pf_goap_plan_find(ctx, g, world, &goal, 1, NULL, &plan), PF_OK);
    assert_int_equal(plan.len, 3);
    assert_true(plan.cost == 3.0);
    assert_int_equal(acts[0], set);
    assert_int_equal(acts[1], add);
    assert_int_equal(acts[2], add);
    assert_int_equal(pf_goap_apply(g, set, world), PF_OK);
    assert_int_equal(world[0], 5);
    assert_int_equal(pf_goap_apply(g, set, world), PF_OK); /* SET again: still 5 */
    assert_int_equal(world[0], 5);
    assert_int_equal(pf_goap_apply(g, add, world), PF_OK);
    assert_int_equal(world[0], 7);
    pf_goap_effect down = {x, PF_GOAP_ADD, -3};
    uint32_t sub;
    assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"sub", 1, NULL, 0, &down, 1}, &sub), PF_OK);
    assert_int_equal(pf_goap_apply(g, sub, world), PF_OK);
    assert_int_equal(world[0], 4);
    pf_gen_ctx_destroy(ctx);
    pf_goap_destroy(g);
}

/* ---- random action sets: A* with the unmet-facts heuristic equals uniform-cost search ---------- */

/* A copy of a random domain's actions, for the reference below to read by its own rules. */
typedef struct ref_action {
    double         cost;
    uint32_t       np, ne;
    pf_goap_cond   pre[3];
    pf_goap_effect eff[2];
} ref_action;

typedef struct ref_domain {
    uint32_t   nfacts, nacts;
    ref_action act[20];
} ref_domain;

/* Facts range over 0..3; effects set a value or add +-1 behind a guard that keeps the range, so the
 * space is finite. `one_effect`: every action has exactly one effect (the admissibility rule).
 * `ref` [opt] receives the actions. */
static pf_goap *random_domain(uint64_t *rs, uint32_t nfacts, uint32_t nacts, int one_effect, double min_cost,
                              ref_domain *ref)
{
    pf_goap *g;
    assert_int_equal(pf_goap_create(NULL, &g), PF_OK);
    char name[16];
    for (uint32_t i = 0; i < nfacts; i++) {
        snprintf(name, sizeof name, "f%u", i);
        assert_int_equal(pf_goap_fact(g, name, NULL), PF_OK);
    }
    for (uint32_t a = 0; a < nacts; a++) {
        pf_goap_cond pre[3];
        pf_goap_effect eff[2];
        uint32_t np = (uint32_t)(xorshift_next(rs) % 3), ne = one_effect ? 1 : 1 + (uint32_t)(xorshift_next(rs) % 2);
        for (uint32_t i = 0; i < np; i++)
            pre[i] = (pf_goap_cond){(uint32_t)(xorshift_next(rs) % nfacts), (pf_goap_cmp)(xorshift_next(rs) % 6),
                                    (int32_t)(xorshift_next(rs) % 4)};
        for (uint32_t i = 0; i < ne; i++) {
            uint32_t f = (uint32_t)(xorshift_next(rs) % nfacts);
            if (xorshift_next(rs) % 3 == 0) {
                int32_t d = xorshift_next(rs) % 2 ? 1 : -1;
                eff[i] = (pf_goap_effect){f, PF_GOAP_ADD, d};
                if (np < 3) pre[np++] = (pf_goap_cond){f, d > 0 ? PF_GOAP_LT : PF_GOAP_GT, d > 0 ? 3 : 0};
            } else {
                eff[i] = (pf_goap_effect){f, PF_GOAP_SET, (int32_t)(xorshift_next(rs) % 4)};
            }
            if (np == 3 && eff[i].op == PF_GOAP_ADD) eff[i].op = PF_GOAP_SET, eff[i].value = 1; /* no room for a guard */
        }
        double cost = min_cost + (double)(xorshift_next(rs) % 5) * (min_cost < 1 ? 0.25 : 1.0);
        assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){NULL, cost, pre, np, eff, ne}, NULL), PF_OK);
        if (ref) {
            assert_true(a < 20);
            ref_action *ra = &ref->act[a];
            ra->cost = cost;
            ra->np = np;
            ra->ne = ne;
            memcpy(ra->pre, pre, np * sizeof pre[0]);
            memcpy(ra->eff, eff, ne * sizeof eff[0]);
        }
    }
    if (ref) ref->nfacts = nfacts, ref->nacts = nacts;
    return g;
}

/* The reference's rules, written apart from goap.c's: which signs of (value - bound) each
 * comparison accepts, and the two effects (values stay small here: no saturation). */
static int ref_holds(const pf_goap_cond *c, uint32_t n, const int32_t *w)
{
    static const int accepts[6][3] = {
        /* below, equal, above */
        [PF_GOAP_EQ] = {0, 1, 0}, [PF_GOAP_NE] = {1, 0, 1}, [PF_GOAP_LT] = {1, 0, 0},
        [PF_GOAP_LE] = {1, 1, 0}, [PF_GOAP_GT] = {0, 0, 1}, [PF_GOAP_GE] = {0, 1, 1},
    };
    for (uint32_t i = 0; i < n; i++) {
        int32_t d = w[c[i].fact] - c[i].value;
        if (!accepts[c[i].cmp][d < 0 ? 0 : d == 0 ? 1 : 2]) return 0;
    }
    return 1;
}

static void ref_apply(const ref_action *a, int32_t *w)
{
    for (uint32_t e = 0; e < a->ne; e++)
        w[a->eff[e].fact] = a->eff[e].op == PF_GOAP_SET ? a->eff[e].value : w[a->eff[e].fact] + a->eff[e].value;
}

/* World states as base-8 numbers of (value + REF_OFF): random_domain's guards keep every fact in
 * -1..4 (two +-1 effects on one fact pass the same guard), inside -2..5. */
enum { REF_OFF = 2, REF_BITS = 3, REF_STATES = 1 << (7 * REF_BITS) };

static uint32_t ref_code(const int32_t *w, uint32_t n)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (w[i] + REF_OFF < 0 || w[i] + REF_OFF >= 1 << REF_BITS) fail_msg("reference: fact %u left its range: %d", i, w[i]);
        k |= (uint32_t)(w[i] + REF_OFF) << (i * REF_BITS);
    }
    return k;
}

static void ref_world(uint32_t k, uint32_t n, int32_t *w)
{
    for (uint32_t i = 0; i < n; i++) w[i] = (int32_t)((k >> (i * REF_BITS)) & ((1u << REF_BITS) - 1)) - REF_OFF;
}

typedef struct ref_entry {
    double   cost;
    uint32_t code;
} ref_entry;

/* Dijkstra over world states by the rules above: the cheapest plan's cost, INFINITY when none. */
static double ref_cost(const ref_domain *d, const int32_t *world, const pf_goap_cond *goal, uint32_t ng)
{
    static double   *dist;  /* REF_STATES, all INFINITY between calls */
    static uint32_t *touched;
    if (!dist) {
        dist = malloc(REF_STATES * sizeof *dist);
        touched = malloc(REF_STATES * sizeof *touched);
        assert_non_null(dist);
        assert_non_null(touched);
        for (uint32_t i = 0; i < REF_STATES; i++) dist[i] = INFINITY;
    }
    size_t cap = 1024, n = 0, nt = 0;
    ref_entry *heap = malloc(cap * sizeof *heap);
    uint32_t start = ref_code(world, d->nfacts);
    dist[start] = 0;
    touched[nt++] = start;
    heap[n++] = (ref_entry){0, start};
    double best = INFINITY;
    while (n) {
        ref_entry top = heap[0], last = heap[--n];
        size_t i = 0; /* sift `last` down from the root */
        for (;;) {
            size_t c = 2 * i + 1;
            if (c >= n) break;
            if (c + 1 < n && heap[c + 1].cost < heap[c].cost) c++;
            if (heap[c].cost >= last.cost) break;
            heap[i] = heap[c];
            i = c;
        }
        if (n) heap[i] = last;
        if (top.cost > dist[top.code]) continue; /* an older entry */
        int32_t w[8], v[8];
        ref_world(top.code, d->nfacts, w);
        if (ref_holds(goal, ng, w)) {
            best = top.cost;
            break;
        }
        for (uint32_t a = 0; a < d->nacts; a++) {
            if (!ref_holds(d->act[a].pre, d->act[a].np, w)) continue;
            memcpy(v, w, sizeof v);
            ref_apply(&d->act[a], v);
            uint32_t k = ref_code(v, d->nfacts);
            double nc = top.cost + d->act[a].cost;
            if (nc >= dist[k]) continue;
            if (isinf(dist[k])) touched[nt++] = k;
            dist[k] = nc;
            if (n == cap) heap = realloc(heap, (cap *= 2) * sizeof *heap);
            size_t j = n++;
            for (; j && heap[(j - 1) / 2].cost > nc; j = (j - 1) / 2) heap[j] = heap[(j - 1) / 2];
            heap[j] = (ref_entry){nc, k};
        }
    }
    for (size_t i = 0; i < nt; i++) dist[touched[i]] = INFINITY;
    free(heap);
    return best;
}

/* A plan's cost replayed by the reference's rules (-1: a precondition fails or the goal does not
 * hold at the end); pf_goap_apply and pf_goap_holds must agree with them at every step. */
static double replay(const pf_goap *g, const ref_domain *d, const int32_t *world, const uint32_t *acts, uint32_t len,
                     const pf_goap_cond *goal, uint32_t ng)
{
    int32_t w[8], lw[8];
    memcpy(w, world, d->nfacts * sizeof w[0]);
    memcpy(lw, world, d->nfacts * sizeof w[0]);
    double c = 0;
    for (uint32_t i = 0; i < len; i++) {
        const ref_action *a = &d->act[acts[i]];
        int ok = ref_holds(a->pre, a->np, w);
        assert_int_equal(pf_goap_apply(g, acts[i], lw), ok ? PF_OK : PF_NO_PATH);
        if (!ok) return -1;
        ref_apply(a, w);
        assert_memory_equal(w, lw, d->nfacts * sizeof w[0]);
        c += a->cost;
    }
    assert_int_equal(pf_goap_holds(g, w, goal, ng), ref_holds(goal, ng, w));
    return ref_holds(goal, ng, w) ? c : -1;
}

static void test_prop_random_optimal(void **state)
{
    (void)state;
    int rounds = (int)(400 * env_scale());
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    int found = 0, unreachable = 0;
    for (int r = 0; r < rounds; r++) {
        uint64_t seed = 0xD1B54A32D192ED03ull * (uint64_t)(r + 1), rs = seed;
        uint32_t nf = 3 + (uint32_t)(xorshift_next(&rs) % 5), na = 4 + (uint32_t)(xorshift_next(&rs) % 16);
        int mode = r % 3; /* 0: costs >= 1, one effect (UNMET); 1: costs >= 0.25, one effect (SCALED); 2: many effects */
        ref_domain rd;
        pf_goap *g = random_domain(&rs, nf, na, mode != 2, mode == 1 ? 0.25 : 1.0, &rd);
        int32_t world[8];
        for (uint32_t i = 0; i < nf; i++) world[i] = (int32_t)(xorshift_next(&rs) % 4);
        pf_goap_cond goal[3];
        uint32_t ng = 1 + (uint32_t)(xorshift_next(&rs) % 3);
        for (uint32_t i = 0; i < ng; i++)
            goal[i] = (pf_goap_cond){(uint32_t)(xorshift_next(&rs) % nf), PF_GOAP_EQ, (int32_t)(xorshift_next(&rs) % 4)};
        uint32_t a1[64], a2[64];
        pf_goap_plan ucs = {.actions = a1, .capacity = 64}, ast = {.actions = a2, .capacity = 64};
        pf_status s1 = pf_goap_plan_find(ctx, g, world, goal, ng,
                                         &(pf_goap_plan_desc){.algo = PF_GEN_UNIFORM, .heuristic = PF_GOAP_HEUR_ZERO},
                                         &ucs);
        pf_goap_heur h = mode == 0 ? PF_GOAP_HEUR_UNMET : mode == 1 ? PF_GOAP_HEUR_UNMET_SCALED : PF_GOAP_HEUR_ZERO;
        pf_status s2 = pf_goap_plan_find(ctx, g, world, goal, ng, &(pf_goap_plan_desc){.heuristic = h}, &ast);
        if (s1 != s2 || (s1 == PF_OK && fabs(ucs.cost - ast.cost) > 1e-9))
            print_error("seed %llu mode %d: uniform %s %g, A* %s %g\n", (unsigned long long)seed, mode,
                        pf_status_name(s1), ucs.cost, pf_status_name(s2), ast.cost);
        assert_int_equal(s1, s2);
        assert_true(s1 == PF_OK || s1 == PF_NO_PATH);
        /* the planners agreeing proves little when they share goap.c's conditions and effects */
        double want = ref_cost(&rd, world, goal, ng);
        if (isinf(want) ? s1 != PF_NO_PATH : s1 != PF_OK || fabs(ucs.cost - want) > 1e-9)
            fail_msg("seed %llu mode %d: uniform %s %g, reference %g", (unsigned long long)seed, mode,
                     pf_status_name(s1), ucs.cost, want);
        unreachable += isinf(want);
        if (s1 == PF_OK) {
            found++;
            assert_true(fabs(ucs.cost - ast.cost) < 1e-9);
            assert_true(fabs(replay(g, &rd, world, a2, ast.len, goal, ng) - ast.cost) < 1e-9);
            assert_true(fabs(replay(g, &rd, world, a1, ucs.len, goal, ng) - ucs.cost) < 1e-9);
            assert_true(ast.expanded <= ucs.expanded + 1);
            /* the depth-first planners agree too */
            pf_goap_plan ida = {.actions = a2, .capacity = 64};
            assert_int_equal(pf_goap_plan_find(ctx, g, world, goal, ng,
                                               &(pf_goap_plan_desc){.algo = PF_GEN_IDASTAR_TT, .heuristic = h,
                                                                    .max_expansions = 10000000},
                                               &ida),
                             PF_OK);
            assert_true(fabs(ida.cost - ucs.cost) < 1e-9);
        }
        pf_goap_destroy(g);
    }
    print_message("%d rounds: %d plans, %d without one by the reference\n", rounds, found, unreachable);
    assert_true(found > rounds / 10); /* the generator makes solvable problems often enough */
    pf_gen_ctx_destroy(ctx);
}

/* ---- batches: identical to serial planning, whatever the thread count ------------------------ */

static void test_plan_many(void **state)
{
    (void)state;
    uint64_t rs = 12345;
    pf_goap *g = random_domain(&rs, 6, 20, 1, 1.0, NULL);
    enum { N = 300 };
    static int32_t worlds[N][6];
    static pf_goap_cond goals[N][2];
    static uint32_t acts[2][N][32];
    static pf_goap_query q[2][N];
    for (int i = 0; i < N; i++) {
        for (int f = 0; f < 6; f++) worlds[i][f] = (int32_t)(xorshift_next(&rs) % 4);
        for (int k = 0; k < 2; k++)
            goals[i][k] = (pf_goap_cond){(uint32_t)(xorshift_next(&rs) % 6), PF_GOAP_EQ, (int32_t)(xorshift_next(&rs) % 4)};
        for (int t = 0; t < 2; t++)
            q[t][i] = (pf_goap_query){.world = worlds[i], .goal = goals[i], .goal_count = 2,
                                      .tie_seed = (uint64_t)i + 1,
                                      .plan = {.actions = acts[t][i], .capacity = 32}};
    }
    pf_goap_plan_desc d = {.tie = PF_TIE_RANDOM};
    assert_int_equal(pf_goap_plan_many(g, q[0], N, &d, NULL, 1), PF_OK);
    assert_int_equal(pf_goap_plan_many(g, q[1], N, &d, NULL, 4), PF_OK);
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    int ok = 0;
    for (int i = 0; i < N; i++) {
        assert_int_equal(q[0][i].status, q[1][i].status);
        assert_int_equal(q[0][i].plan.len, q[1][i].plan.len);
        assert_memory_equal(acts[0][i], acts[1][i], q[0][i].plan.len * sizeof(uint32_t));
        /* and equal to one plan on one context with the same seed */
        uint32_t a[32];
        pf_goap_plan p = {.actions = a, .capacity = 32};
        pf_goap_plan_desc di = d;
        di.tie_seed = (uint64_t)i + 1;
        assert_int_equal(pf_goap_plan_find(ctx, g, worlds[i], goals[i], 2, &di, &p), q[0][i].status);
        assert_memory_equal(a, acts[0][i], p.len * sizeof(uint32_t));
        ok += q[0][i].status == PF_OK;
    }
    assert_true(ok > 0);
    assert_int_equal(pf_goap_plan_many(NULL, q[0], N, NULL, NULL, 0), PF_INVALID_ARGUMENT);
    pf_gen_ctx_destroy(ctx);
    pf_goap_destroy(g);
}

/* Two equally cheap ways to be happy: seeded random ties pick both across agents (the write-up's
 * "one more trick"), and a seed always picks the same one. */
static void test_random_ties_vary_plans(void **state)
{
    (void)state;
    pf_goap *g;
    assert_int_equal(pf_goap_create(NULL, &g), PF_OK);
    uint32_t happy;
    assert_int_equal(pf_goap_fact(g, "happy", &happy), PF_OK);
    pf_goap_effect e = {happy, PF_GOAP_SET, 1};
    assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"dance", 1, NULL, 0, &e, 1}, NULL), PF_OK);
    assert_int_equal(pf_goap_add_action(g, &(pf_goap_action_desc){"sing", 1, NULL, 0, &e, 1}, NULL), PF_OK);
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    int32_t world = 0;
    pf_goap_cond goal = {happy, PF_GOAP_EQ, 1};
    int seen[2] = {0, 0};
    for (uint64_t seed = 1; seed <= 32; seed++) {
        uint32_t a[4], b[4];
        pf_goap_plan p = {.actions = a, .capacity = 4}, p2 = {.actions = b, .capacity = 4};
        pf_goap_plan_desc d = {.tie = PF_TIE_RANDOM, .tie_seed = seed};
        assert_int_equal(pf_goap_plan_find(ctx, g, &world, &goal, 1, &d, &p), PF_OK);
        assert_int_equal(pf_goap_plan_find(ctx, g, &world, &goal, 1, &d, &p2), PF_OK);
        assert_int_equal(p.len, 1);
        assert_int_equal(a[0], b[0]);
        seen[a[0]]++;
    }
    assert_true(seen[0] > 0 && seen[1] > 0);
    pf_gen_ctx_destroy(ctx);
    pf_goap_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hunger_example),      cmocka_unit_test(test_domain_validation),
        cmocka_unit_test(test_each_comparison),     cmocka_unit_test(test_set_and_add),
        cmocka_unit_test(test_prop_random_optimal), cmocka_unit_test(test_plan_many),
        cmocka_unit_test(test_random_ties_vary_plans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
