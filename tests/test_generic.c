/* test_generic.c - generic search over implicit state spaces: every algorithm against independent
 * answers (Romania of the seeds, Bellman-Ford on random graphs), ties, limits, allocation failure. */
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

/* ---- an explicit weighted graph as an implicit domain (state = uint32 vertex) ----------------- */

#define GMAX 64
typedef struct graph {
    uint32_t n, goal;
    uint32_t deg[GMAX];
    uint32_t to[GMAX][8];
    double   w[GMAX][8];
    double   h[GMAX];
    int      negative; /* make the first arc's cost negative (bad input test) */
    int      null_state; /* push the first arc's successor with no state (bad input test) */
} graph;

static void g_succ(const void *s, pf_gen_sink *out, void *u)
{
    const graph *g = u;
    uint32_t v;
    memcpy(&v, s, 4);
    for (uint32_t i = 0; i < g->deg[v]; i++)
        pf_gen_push(out, g->null_state && i == 0 ? NULL : &g->to[v][i], g->negative && i == 0 ? -1.0 : g->w[v][i], i);
}
static double g_h(const void *s, void *u)
{
    const graph *g = u;
    uint32_t v;
    memcpy(&v, s, 4);
    return g->h[v];
}
static int g_goal(const void *s, void *u)
{
    const graph *g = u;
    uint32_t v;
    memcpy(&v, s, 4);
    return v == g->goal;
}
static void g_arc(graph *g, uint32_t a, uint32_t b, double w)
{
    g->to[a][g->deg[a]] = b;
    g->w[a][g->deg[a]++] = w;
}
/* Follows a plan's actions and returns its cost (INFINITY when an action does not exist). */
static double g_plan_cost(const graph *g, uint32_t s, const uint32_t *acts, uint32_t len, uint32_t *end)
{
    double c = 0;
    for (uint32_t i = 0; i < len; i++) {
        if (acts[i] >= g->deg[s]) return INFINITY;
        c += g->w[s][acts[i]];
        s = g->to[s][acts[i]];
    }
    *end = s;
    return c;
}

/* Romania (the seeds' A* walk): A=0 B=1 C=2 D=3 E=4 F=5 G=6 H=7 I=8 L=9 M=10 N=11 O=12 P=13 R=14
 * S=15 T=16 U=17 V=18 Z=19; straight-line distances to Bucharest as h. */
static graph romania(void)
{
    graph g;
    memset(&g, 0, sizeof g);
    g.n = 20;
    g.goal = 1;
    static const struct { int a, b; double w; } roads[] = {
        {0, 19, 75}, {0, 15, 140}, {0, 16, 118}, {19, 12, 71}, {12, 15, 151}, {16, 9, 111}, {9, 10, 70},
        {10, 3, 75}, {3, 2, 120}, {2, 14, 146}, {2, 13, 138}, {15, 5, 99}, {15, 14, 80}, {14, 13, 97},
        {5, 1, 211}, {13, 1, 101}, {1, 6, 90}, {1, 17, 85}, {17, 7, 98}, {17, 18, 142}, {7, 4, 86},
        {18, 8, 92}, {8, 11, 87}};
    for (size_t i = 0; i < sizeof roads / sizeof roads[0]; i++) {
        g_arc(&g, (uint32_t)roads[i].a, (uint32_t)roads[i].b, roads[i].w);
        g_arc(&g, (uint32_t)roads[i].b, (uint32_t)roads[i].a, roads[i].w);
    }
    static const double sld[20] = {366, 0, 160, 242, 161, 176, 77, 151, 226, 244,
                                   241, 234, 380, 100, 193, 253, 329, 80, 199, 374};
    memcpy(g.h, sld, sizeof sld);
    return g;
}

static pf_gen_problem g_problem(graph *g)
{
    pf_gen_problem p = {4, g_succ, g_h, g_goal, g};
    return p;
}

static void test_romania_all_algorithms(void **state)
{
    (void)state;
    graph g = romania();
    pf_gen_problem p = g_problem(&g);
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    uint32_t start = 0, acts[32], states[32];
    static const pf_gen_algo optimal[] = {PF_GEN_ASTAR, PF_GEN_UNIFORM, PF_GEN_IDASTAR, PF_GEN_IDASTAR_TT,
                                          PF_GEN_DFBNB};
    for (size_t i = 0; i < sizeof optimal / sizeof optimal[0]; i++) {
        pf_gen_plan plan = {acts, states, 32, 0};
        pf_gen_stats st;
        pf_status s = pf_gen_search(ctx, &p, &start, &(pf_gen_desc){.algo = optimal[i]}, &plan, &st);
        assert_int_equal(s, PF_OK);
        assert_true(fabs(st.cost - 418.0) < 1e-9); /* A -> S -> R -> P -> B */
        assert_int_equal(plan.len, 4);
        static const uint32_t via[4] = {15, 14, 13, 1};
        assert_memory_equal(states, via, sizeof via);
        uint32_t end;
        assert_true(fabs(g_plan_cost(&g, 0, acts, plan.len, &end) - 418.0) < 1e-9);
    }
    /* A* dequeues A, S, RV, F, P, then B (f 418 < T's 447): five expansions, as in the seeds */
    pf_gen_stats st;
    pf_gen_plan plan = {acts, NULL, 32, 0};
    assert_int_equal(pf_gen_search(ctx, &p, &start, NULL, &plan, &st), PF_OK);
    assert_int_equal(st.expanded, 5);
    /* greedy follows h: A -> S -> F -> B (450), as in the seeds */
    assert_int_equal(pf_gen_search(ctx, &p, &start, &(pf_gen_desc){.algo = PF_GEN_GREEDY}, &plan, &st), PF_OK);
    assert_true(fabs(st.cost - 450.0) < 1e-9);
    assert_int_equal(plan.len, 3);
    /* BFS: fewest roads (3: A S F B) and its real cost */
    assert_int_equal(pf_gen_search(ctx, &p, &start, &(pf_gen_desc){.algo = PF_GEN_BFS}, &plan, &st), PF_OK);
    assert_int_equal(plan.len, 3);
    assert_true(fabs(st.cost - 450.0) < 1e-9);
    /* weighted A*: within the bound */
    assert_int_equal(pf_gen_search(ctx, &p, &start, &(pf_gen_desc){.algo = PF_GEN_WASTAR, .weight = 2}, &plan, &st),
                     PF_OK);
    assert_true(st.cost <= 2 * 418.0 + 1e-9);
    pf_gen_ctx_destroy(ctx);
}

/* SMA* on the lecture's Romania. The optimal plan A S R P B has 4 roads: it needs 5 nodes in
 * memory at once (the path and nothing else). So every bound from 5 up finds 418, the bounds that
 * force forgetting included; 4 nodes hold at most 3 roads, and the best plan of 3 roads is A S F B
 * (450: the "best path that fits"); 3 nodes hold 2 roads, and no 2-road plan exists.
 *
 * At 5 nodes, by the lecture's rules (expand the deepest least-f node one successor at a time,
 * f = max(f(parent), g + h); a non-goal at depth 4 cannot be expanded, f = infinity; when memory
 * is full forget the shallowest highest-f leaf, its parent remembering its f; back f up once a
 * node's successors are all generated), worked by hand:
 *   A gives Z 449, S 393, T 447 (A backs up to 393); S gives O 671, then F 415 (O forgotten), then
 *   R 413 (Z forgotten; S 413, A 413); R gives C 526 (T forgotten), then P 417 (C forgotten; R 417,
 *   S 415, A 415); F gives B 450 (P forgotten; F 450, S 417, A 417); R regenerates P at its
 *   remembered 417 (B forgotten); P gives C (depth 4: infinity; F forgotten), then B 418 (C
 *   forgotten); B is the best node: 418.
 * That is 12 successors generated, 8 forgotten, 1 regenerated, and the successor callback asked in
 * the order A S R F R P (the expansions, one successor list per run of selections). */
static int sma_log[64], sma_logged;
static void g_succ_logged(const void *s, pf_gen_sink *out, void *u)
{
    uint32_t v;
    memcpy(&v, s, 4);
    if (sma_logged < 64) sma_log[sma_logged++] = (int)v;
    g_succ(s, out, u);
}

static void test_smastar_romania(void **state)
{
    (void)state;
    graph g = romania();
    pf_gen_problem p = g_problem(&g);
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    uint32_t start = 0, acts[32], states[32];
    static const uint32_t via[4] = {15, 14, 13, 1}, via3[3] = {15, 5, 1};
    uint64_t forgot_at_5 = 0;
    for (uint32_t m = 1; m <= 40; m++) {
        pf_gen_plan plan = {acts, states, 32, 0};
        pf_gen_stats st;
        pf_status s = pf_gen_search(ctx, &p, &start, &(pf_gen_desc){.algo = PF_GEN_SMASTAR, .max_states = m}, &plan, &st);
        assert_true(st.stored <= m);
        if (m <= 3) {
            assert_int_equal(s, PF_NO_PATH);
            continue;
        }
        assert_int_equal(s, PF_OK);
        uint32_t end;
        assert_true(fabs(g_plan_cost(&g, 0, acts, plan.len, &end) - st.cost) < 1e-9);
        assert_int_equal(end, 1);
        if (m == 4) {
            assert_true(st.cost == 450.0);
            assert_int_equal(plan.len, 3);
            assert_memory_equal(states, via3, sizeof via3);
            continue;
        }
        assert_true(st.cost == 418.0);
        assert_int_equal(plan.len, 4);
        assert_memory_equal(states, via, sizeof via);
        if (m == 5) forgot_at_5 = st.iterations;
        if (m >= 12) assert_true(st.iterations == 0 && st.reopened == 0); /* plain A*, one successor at a time */
        else assert_true(st.iterations > 0);
    }
    assert_true(forgot_at_5 > 0);
    /* the hand-worked run at 5 nodes */
    p.successors = g_succ_logged;
    sma_logged = 0;
    pf_gen_stats st5;
    pf_gen_plan plan5 = {acts, states, 32, 0};
    assert_int_equal(pf_gen_search(ctx, &p, &start, &(pf_gen_desc){.algo = PF_GEN_SMASTAR, .max_states = 5}, &plan5, &st5),
                     PF_OK);
    static const int order[] = {0, 15, 14, 5, 14, 13}; /* A S R F R P */
    assert_int_equal(sma_logged, 6);
    assert_memory_equal(sma_log, order, sizeof order);
    assert_int_equal(st5.generated, 12);
    assert_int_equal(st5.iterations, 8);
    assert_int_equal(st5.reopened, 1);
    assert_true(st5.cost == 418.0);
    p.successors = g_succ;
    /* the default bound (1 << 16) is plenty: A*'s order, nothing forgotten */
    pf_gen_stats st;
    assert_int_equal(pf_gen_search(ctx, &p, &start, &(pf_gen_desc){.algo = PF_GEN_SMASTAR}, NULL, &st), PF_OK);
    assert_true(st.cost == 418.0 && st.iterations == 0);
    assert_string_equal(pf_gen_algo_name(PF_GEN_SMASTAR), "smastar");
    assert_int_equal(pf_gen_desc_resolve(&(pf_gen_desc){.algo = PF_GEN_SMASTAR}).max_states, 1u << 16);
    pf_gen_ctx_destroy(ctx);
}

static void test_buffer_and_bad_input(void **state)
{
    (void)state;
    graph g = romania();
    pf_gen_problem p = g_problem(&g);
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    uint32_t start = 0, acts[2];
    pf_gen_plan plan = {acts, NULL, 2, 0};
    assert_int_equal(pf_gen_search(ctx, &p, &start, NULL, &plan, NULL), PF_BUFFER_TOO_SMALL);
    assert_int_equal(plan.len, 4);
    assert_int_equal(pf_gen_search(NULL, &p, &start, NULL, NULL, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_gen_search(ctx, &p, NULL, NULL, NULL, NULL), PF_INVALID_ARGUMENT);
    pf_gen_problem bad = p;
    bad.state_size = 0;
    assert_int_equal(pf_gen_search(ctx, &bad, &start, NULL, NULL, NULL), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_gen_search(ctx, &p, &start, &(pf_gen_desc){.algo = PF_GEN_WASTAR, .weight = 0.5}, NULL, NULL),
                     PF_INVALID_ARGUMENT);
    assert_int_equal(pf_gen_search(ctx, &p, &start, &(pf_gen_desc){.algo = (pf_gen_algo)99}, NULL, NULL),
                     PF_INVALID_ARGUMENT);
    g.negative = 1;
    for (int a = PF_GEN_ASTAR; a < PF_GEN__COUNT; a++)
        assert_int_equal(pf_gen_search(ctx, &p, &start, &(pf_gen_desc){.algo = (pf_gen_algo)a}, NULL, NULL),
                         PF_INVALID_ARGUMENT);
    /* a successor pushed with no state is the domain's error too: it was dropped in silence, and
     * every search answered PF_NO_PATH or a plan that avoided it (a review) */
    g.negative = 0;
    g.null_state = 1;
    for (int a = PF_GEN_ASTAR; a < PF_GEN__COUNT; a++)
        assert_int_equal(pf_gen_search(ctx, &p, &start, &(pf_gen_desc){.algo = (pf_gen_algo)a}, NULL, NULL),
                         PF_INVALID_ARGUMENT);
    pf_gen_ctx_destroy(NULL);
    pf_gen_ctx_destroy(ctx);
    assert_string_equal(pf_gen_algo_name(PF_GEN_IDASTAR_TT), "idastar-tt");
    pf_gen_desc r = pf_gen_desc_resolve(NULL);
    assert_int_equal(r.algo, PF_GEN_ASTAR);
    assert_int_equal(r.tie, PF_TIE_DEEPER);
    assert_true(r.weight == 1.0);
}

/* ---- random graphs: every optimal algorithm equals Bellman-Ford -------------------------------- */

static void random_graph(graph *g, uint64_t *rs, double hfrac)
{
    memset(g, 0, sizeof *g);
    g->n = 6 + (uint32_t)(xorshift_next(rs) % 12); /* small: depth-first searches enumerate simple paths */
    g->goal = (uint32_t)(xorshift_next(rs) % g->n);
    for (uint32_t v = 0; v < g->n; v++) {
        uint32_t d = (uint32_t)(xorshift_next(rs) % 4);
        for (uint32_t k = 0; k < d; k++)
            g_arc(g, v, (uint32_t)(xorshift_next(rs) % g->n), 1.0 + (double)(xorshift_next(rs) % 9));
    }
    /* exact distances to the goal by Bellman-Ford on reversed arcs; h = hfrac * exact (admissible) */
    double dist[GMAX];
    for (uint32_t v = 0; v < g->n; v++) dist[v] = INFINITY;
    dist[g->goal] = 0;
    for (uint32_t it = 0; it < g->n; it++)
        for (uint32_t v = 0; v < g->n; v++)
            for (uint32_t k = 0; k < g->deg[v]; k++)
                if (dist[g->to[v][k]] + g->w[v][k] < dist[v]) dist[v] = dist[g->to[v][k]] + g->w[v][k];
    for (uint32_t v = 0; v < g->n; v++) g->h[v] = isinf(dist[v]) ? 0.0 : hfrac * dist[v];
    /* the exact distance rides in the unused arc slot 7 (degrees stay below 5) */
    for (uint32_t v = 0; v < g->n; v++) g->w[v][7] = dist[v];
}

static void test_prop_random_graphs(void **state)
{
    (void)state;
    int rounds = (int)(300 * env_scale());
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    for (int r = 0; r < rounds; r++) {
        uint64_t seed = 0x9E3779B97F4A7C15ull ^ (uint64_t)(r + 1) * 7919u, rs = seed;
        graph g;
        random_graph(&g, &rs, (r & 1) ? 1.0 : 0.5);
        pf_gen_problem p = g_problem(&g);
        uint32_t start = (uint32_t)(xorshift_next(&rs) % g.n);
        double exact = g.w[start][7];
        /* SMA* with 20 nodes: every simple path of these graphs (at most 17 states) fits */
        static const pf_gen_algo algos[] = {PF_GEN_ASTAR, PF_GEN_UNIFORM, PF_GEN_IDASTAR, PF_GEN_IDASTAR_TT,
                                            PF_GEN_IDASTAR_TT, PF_GEN_DFBNB, PF_GEN_SMASTAR, PF_GEN_SMASTAR,
                                            PF_GEN_BFS, PF_GEN_GREEDY, PF_GEN_WASTAR};
        for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
            uint32_t acts[GMAX];
            pf_gen_plan plan = {acts, NULL, GMAX, 0};
            pf_gen_stats st;
            pf_gen_desc d = {.algo = algos[a], .weight = 1.5, .max_states = a == 3 ? 3 : a == 7 ? 20 : 0};
            pf_status s = pf_gen_search(ctx, &p, &start, &d, &plan, &st);
            if (isinf(exact)) {
                if (s != PF_NO_PATH) print_error("seed %llu algo %s: expected NO_PATH, got %s\n",
                                                 (unsigned long long)seed, pf_gen_algo_name(algos[a]), pf_status_name(s));
                assert_int_equal(s, PF_NO_PATH);
                continue;
            }
            if (s != PF_OK) print_error("seed %llu algo %s: %s\n", (unsigned long long)seed,
                                        pf_gen_algo_name(algos[a]), pf_status_name(s));
            assert_int_equal(s, PF_OK);
            uint32_t end = UINT32_MAX;
            double pc = g_plan_cost(&g, start, acts, plan.len, &end);
            assert_int_equal(end, g.goal);
            assert_true(fabs(pc - st.cost) < 1e-9);
            int opt = a <= 7;
            if (opt && fabs(st.cost - exact) > 1e-9)
                print_error("seed %llu algo %s: cost %g, optimal %g\n", (unsigned long long)seed,
                            pf_gen_algo_name(algos[a]), st.cost, exact);
            if (opt) assert_true(fabs(st.cost - exact) < 1e-9);
            if (algos[a] == PF_GEN_WASTAR) assert_true(st.cost <= 1.5 * exact + 1e-9);
            assert_true(st.cost >= exact - 1e-9);
        }
    }
    pf_gen_ctx_destroy(ctx);
}

/* ---- an open grid: ties, limits, the memory-bounded search's budget ---------------------------- */

typedef struct open_grid {
    int32_t w, gx, gy, wall_x, wall_h; /* cells x == wall_x, y < wall_h are blocked */
} open_grid;

static void og_succ(const void *s, pf_gen_sink *out, void *u)
{
    const open_grid *o = u;
    int32_t p[2];
    memcpy(p, s, 8);
    static const int32_t D[4][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
    for (uint32_t a = 0; a < 4; a++) {
        int32_t q[2] = {p[0] + D[a][0], p[1] + D[a][1]};
        if (q[0] < 0 || q[1] < 0 || q[0] >= o->w || q[1] >= o->w) continue;
        if (q[0] == o->wall_x && q[1] < o->wall_h) continue;
        pf_gen_push(out, q, 1.0, a);
    }
}
static double og_h(const void *s, void *u)
{
    const open_grid *o = u;
    int32_t p[2];
    memcpy(p, s, 8);
    return (double)(abs(p[0] - o->gx) + abs(p[1] - o->gy));
}
static int og_goal(const void *s, void *u)
{
    const open_grid *o = u;
    int32_t p[2];
    memcpy(p, s, 8);
    return p[0] == o->gx && p[1] == o->gy;
}

static void test_ties(void **state)
{
    (void)state;
    open_grid o = {16, 6, 6, 0, 0};
    pf_gen_problem p = {8, og_succ, og_h, og_goal, &o};
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    int32_t start[2] = {0, 0};
    uint32_t a1[64], a2[64];
    pf_gen_stats st;
    /* RANDOM: the same seed gives the same plan; some seed gives another */
    int differ = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        pf_gen_plan p1 = {a1, NULL, 64, 0}, p2 = {a2, NULL, 64, 0};
        pf_gen_desc d = {.tie = PF_TIE_RANDOM, .tie_seed = seed};
        assert_int_equal(pf_gen_search(ctx, &p, start, &d, &p1, &st), PF_OK);
        assert_true(st.cost == 12.0);
        assert_int_equal(pf_gen_search(ctx, &p, start, &d, &p2, &st), PF_OK);
        assert_int_equal(p1.len, p2.len);
        assert_memory_equal(a1, a2, p1.len * sizeof a1[0]);
        d.tie_seed = seed + 100;
        assert_int_equal(pf_gen_search(ctx, &p, start, &d, &p2, &st), PF_OK);
        differ |= memcmp(a1, a2, p1.len * sizeof a1[0]) != 0;
    }
    assert_true(differ);
    /* DEEPER expands only the plateau it needs (f = 12 everywhere towards the goal); FIFO does more */
    pf_gen_stats deep, fifo, lifo;
    pf_gen_plan pp = {a1, NULL, 64, 0};
    assert_int_equal(pf_gen_search(ctx, &p, start, &(pf_gen_desc){.tie = PF_TIE_DEEPER}, &pp, &deep), PF_OK);
    assert_int_equal(pf_gen_search(ctx, &p, start, &(pf_gen_desc){.tie = PF_TIE_FIFO}, &pp, &fifo), PF_OK);
    assert_int_equal(pf_gen_search(ctx, &p, start, &(pf_gen_desc){.tie = PF_TIE_LIFO}, &pp, &lifo), PF_OK);
    assert_true(deep.cost == 12.0 && fifo.cost == 12.0 && lifo.cost == 12.0);
    assert_int_equal(deep.expanded, 12);
    assert_true(fifo.expanded > deep.expanded);
    /* BFS: FIFO by default, a rule the caller sets otherwise; the fewest steps either way */
    assert_int_equal(pf_gen_desc_resolve(&(pf_gen_desc){.algo = PF_GEN_BFS}).tie, PF_TIE_FIFO);
    assert_int_equal(pf_gen_desc_resolve(&(pf_gen_desc){.algo = PF_GEN_BFS, .tie = PF_TIE_LIFO}).tie, PF_TIE_LIFO);
    pf_gen_stats bf, bl;
    pf_gen_plan pf_ = {a1, NULL, 64, 0}, pl = {a2, NULL, 64, 0};
    assert_int_equal(pf_gen_search(ctx, &p, start, &(pf_gen_desc){.algo = PF_GEN_BFS}, &pf_, &bf), PF_OK);
    assert_int_equal(pf_gen_search(ctx, &p, start, &(pf_gen_desc){.algo = PF_GEN_BFS, .tie = PF_TIE_LIFO}, &pl, &bl),
                     PF_OK);
    assert_true(bf.cost == 12.0 && bl.cost == 12.0);
    assert_true(memcmp(a1, a2, 12 * sizeof a1[0]) != 0); /* another order: another plan of 12 */
    pf_gen_ctx_destroy(ctx);
}

static void test_limits_and_bounded_memory(void **state)
{
    (void)state;
    open_grid o = {64, 40, 33, 0, 0};
    pf_gen_problem p = {8, og_succ, og_h, og_goal, &o};
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    int32_t start[2] = {2, 3};
    pf_gen_stats st;
    uint32_t acts[256];
    pf_gen_plan plan = {acts, NULL, 256, 0};
    assert_int_equal(pf_gen_search(ctx, &p, start, &(pf_gen_desc){.algo = PF_GEN_UNIFORM, .max_expansions = 50},
                                   &plan, &st),
                     PF_LIMIT_REACHED);
    assert_int_equal(st.expanded, 50);
    assert_int_equal(pf_gen_search(ctx, &p, start, &(pf_gen_desc){.algo = PF_GEN_UNIFORM, .max_states = 100}, &plan,
                                   &st),
                     PF_OUT_OF_MEMORY);
    pf_gen_ctx *small;
    assert_int_equal(pf_gen_ctx_create(&(pf_gen_ctx_desc){.initial_states = 16}, &small), PF_OK);
    assert_int_equal(pf_gen_search(small, &p, start, &(pf_gen_desc){.algo = PF_GEN_UNIFORM, .max_bytes = 20000},
                                   &plan, &st),
                     PF_OUT_OF_MEMORY);
    assert_true(pf_gen_ctx_mem_size(small) <= 20000);
    /* the limit was a limit, not damage: the same context then succeeds without it */
    assert_int_equal(pf_gen_search(small, &p, start, &(pf_gen_desc){.algo = PF_GEN_UNIFORM}, &plan, &st), PF_OK);
    assert_true(st.cost == 68.0);
    pf_gen_ctx_destroy(small);
    /* memory-bounded IDA* around a wall (IDA*'s worst case: heuristic error and transpositions):
     * optimal with any budget, and a bigger budget removes re-expansions */
    open_grid w = {16, 13, 5, 8, 12};
    pf_gen_problem pw = {8, og_succ, og_h, og_goal, &w};
    pf_gen_stats ref, tiny, big, ida;
    assert_int_equal(pf_gen_search(ctx, &pw, start, NULL, &plan, &ref), PF_OK);
    assert_true(ref.cost == 27.0);
    assert_int_equal(pf_gen_search(ctx, &pw, start, &(pf_gen_desc){.algo = PF_GEN_IDASTAR_TT, .max_states = 32},
                                   &plan, &tiny),
                     PF_OK);
    assert_int_equal(pf_gen_search(ctx, &pw, start, &(pf_gen_desc){.algo = PF_GEN_IDASTAR_TT, .max_states = 256},
                                   &plan, &big),
                     PF_OK);
    assert_true(tiny.cost == 27.0 && big.cost == 27.0);
    assert_true(big.stored <= 256 && tiny.stored <= 32);
    assert_true(big.expanded * 10 < tiny.expanded);
    assert_int_equal(pf_gen_search(ctx, &pw, start, &(pf_gen_desc){.algo = PF_GEN_IDASTAR, .max_expansions = 100000},
                                   &plan, &ida),
                     PF_LIMIT_REACHED);
    pf_gen_ctx_destroy(ctx);
}

/* The maximum of several admissible heuristics (desc.heuristics): every search that uses h takes
 * the maximum, and pf_gen_sink_h still reports the domain's own heuristic (incremental domains
 * depend on it). On an open grid the Manhattan distance is exact; the domain's own h is half of it. */
static int sink_h_wrong;
static double og_half(const void *s, void *u) { return 0.5 * og_h(s, u); }
static double og_negative(const void *s, void *u)
{
    (void)s;
    (void)u;
    return -1.0;
}
static void og_succ_check(const void *s, pf_gen_sink *out, void *u)
{
    if (pf_gen_sink_h(out) != og_half(s, u)) sink_h_wrong++;
    og_succ(s, out, u);
}

static void test_heuristic_max(void **state)
{
    (void)state;
    open_grid o = {10, 6, 5, 0, 0}; /* small: IDA* and DFBnB re-expand the grid's transpositions */
    pf_gen_problem p = {8, og_succ_check, og_half, og_goal, &o};
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    int32_t start[2] = {1, 1};
    const pf_gen_heuristic_fn more[] = {og_h, og_half};
    static const pf_gen_algo algos[] = {PF_GEN_ASTAR, PF_GEN_WASTAR, PF_GEN_GREEDY, PF_GEN_IDASTAR,
                                        PF_GEN_IDASTAR_TT, PF_GEN_DFBNB};
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
        pf_gen_stats alone, both;
        pf_gen_desc d = {.algo = algos[a], .weight = 1.5, .max_depth = 12};
        sink_h_wrong = 0;
        assert_int_equal(pf_gen_search(ctx, &p, start, &d, NULL, &alone), PF_OK);
        d.heuristics = more;
        d.heuristic_count = 2;
        assert_int_equal(pf_gen_search(ctx, &p, start, &d, NULL, &both), PF_OK);
        assert_int_equal(sink_h_wrong, 0);
        if (algos[a] != PF_GEN_GREEDY && algos[a] != PF_GEN_WASTAR) {
            assert_true(alone.cost == 9.0 && both.cost == 9.0);
        }
        /* the exact heuristic leads straight to the goal; half of it explores (greedy orders by h
         * alone, which halving does not change; DFBnB's first dive is already straight) */
        if (algos[a] == PF_GEN_GREEDY || algos[a] == PF_GEN_DFBNB)
            assert_true(both.expanded <= alone.expanded);
        else
            assert_true(both.expanded < alone.expanded);
        if (algos[a] == PF_GEN_ASTAR) assert_int_equal(both.expanded, 9);
    }
    /* no own heuristic: the extra ones alone */
    p.heuristic = NULL;
    pf_gen_stats st;
    pf_gen_desc d = {.heuristics = more, .heuristic_count = 1};
    assert_int_equal(pf_gen_search(ctx, &p, start, &d, NULL, &st), PF_OK);
    assert_int_equal(st.expanded, 9);
    d.algo = PF_GEN_IDASTAR;
    assert_int_equal(pf_gen_search(ctx, &p, start, &d, NULL, &st), PF_OK);
    assert_int_equal(st.iterations, 1);
    /* bad input: a NULL list, a NULL entry, a negative value */
    d.heuristics = NULL;
    assert_int_equal(pf_gen_search(ctx, &p, start, &d, NULL, &st), PF_INVALID_ARGUMENT);
    const pf_gen_heuristic_fn holes[] = {og_h, NULL};
    d.heuristics = holes;
    d.heuristic_count = 2;
    assert_int_equal(pf_gen_search(ctx, &p, start, &d, NULL, &st), PF_INVALID_ARGUMENT);
    const pf_gen_heuristic_fn neg[] = {og_negative};
    d.heuristics = neg;
    d.heuristic_count = 1;
    for (int a = PF_GEN_ASTAR; a < PF_GEN__COUNT; a++) {
        d.algo = (pf_gen_algo)a;
        pf_status s = pf_gen_search(ctx, &p, start, &d, NULL, &st);
        /* uniform-cost and BFS ignore heuristics */
        assert_int_equal(s, a == PF_GEN_UNIFORM || a == PF_GEN_BFS ? PF_OK : PF_INVALID_ARGUMENT);
    }
    pf_gen_ctx_destroy(ctx);
}

/* DFBnB as an anytime search: a small budget gives some plan, a full run the optimal one. */
static void test_dfbnb_anytime(void **state)
{
    (void)state;
    open_grid o = {8, 7, 7, 0, 0};
    pf_gen_problem p = {8, og_succ, NULL, og_goal, &o};
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    int32_t start[2] = {0, 0};
    uint32_t acts[64];
    pf_gen_plan plan = {acts, NULL, 64, 0};
    pf_gen_stats st;
    pf_gen_desc d = {.algo = PF_GEN_DFBNB, .max_depth = 30, .max_expansions = 40};
    assert_int_equal(pf_gen_search(ctx, &p, start, &d, &plan, &st), PF_LIMIT_REACHED);
    assert_true(isfinite(st.cost) && st.cost >= 14.0);
    assert_int_equal(plan.len, (uint32_t)st.cost);
    double first = st.cost;
    /* with the heuristic the first dive is already optimal; without it, more budget improves */
    p.heuristic = og_h;
    d.max_expansions = 0;
    assert_int_equal(pf_gen_search(ctx, &p, start, &d, &plan, &st), PF_OK);
    assert_true(st.cost == 14.0);
    assert_true(first >= st.cost);
    /* unreachable within depth: NO_PATH */
    d.max_depth = 5;
    assert_int_equal(pf_gen_search(ctx, &p, start, &d, &plan, &st), PF_NO_PATH);
    pf_gen_ctx_destroy(ctx);
}

/* ---- allocation failure: every allocation may fail; no crash, no leak, sizes given back ------- */


static void test_alloc_failure(void **state)
{
    (void)state;
    open_grid o = {40, 30, 20, 0, 0};
    pf_gen_problem p = {8, og_succ, og_h, og_goal, &o};
    int32_t start[2] = {1, 1};
    for (int algo = PF_GEN_ASTAR; algo < PF_GEN__COUNT; algo++) {
        int ok_seen = 0;
        for (int n = 0; n < 400 && !ok_seen; n++) {
            test_tracker t = {.countdown = n};
            pf_gen_ctx *ctx;
            pf_status s = pf_gen_ctx_create(&(pf_gen_ctx_desc){.allocator = {test_track_alloc, test_track_free, &t}, .initial_states = 8},
                                            &ctx);
            if (s == PF_OK) {
                uint32_t acts[128];
                pf_gen_plan plan = {acts, NULL, 128, 0};
                pf_gen_desc d = {.algo = (pf_gen_algo)algo, .max_depth = 60, .max_expansions = 100000};
                s = pf_gen_search(ctx, &p, start, &d, &plan, NULL);
                assert_true(s == PF_OK || s == PF_OUT_OF_MEMORY || (algo == PF_GEN_IDASTAR && s == PF_LIMIT_REACHED));
                ok_seen = s == PF_OK;
                assert_int_equal(t.bytes, pf_gen_ctx_mem_size(ctx));
                pf_gen_ctx_destroy(ctx);
            } else {
                assert_int_equal(s, PF_OUT_OF_MEMORY);
                assert_null(ctx);
            }
            assert_int_equal(t.live, 0);
            assert_int_equal(t.bytes, 0);
        }
        if (algo != PF_GEN_IDASTAR) assert_true(ok_seen);
    }
}

/* One context, two problems with different state sizes, in turn. */
/* max_cost under searches that do not reopen (a review's graph): S0 -> A1 4.5, S0 -> B2 1, B2 -> A1
 * 1, A1 -> G3 4; h = 0, 2, 2.5, 0 (admissible and consistent); max_cost 7. The plan S B A G costs
 * 6, but BFS, GREEDY and WASTAR reach A first by S A (4.5), close it, and cut G (8.5 > 7): they
 * used to answer PF_NO_PATH, which says no plan within the limit exists. They answer
 * PF_LIMIT_REACHED now; the searches that reopen (or search every path) find the 6. */
static void test_max_cost_without_reopening(void **state)
{
    (void)state;
    graph g;
    memset(&g, 0, sizeof g);
    g.n = 4;
    g.goal = 3;
    g_arc(&g, 0, 1, 4.5);
    g_arc(&g, 0, 2, 1.0);
    g_arc(&g, 2, 1, 1.0);
    g_arc(&g, 1, 3, 4.0);
    g.h[1] = 2.0;
    g.h[2] = 2.5;
    pf_gen_problem p = g_problem(&g);
    pf_gen_ctx *c;
    assert_int_equal(pf_gen_ctx_create(NULL, &c), PF_OK);
    static const pf_gen_algo cut[] = {PF_GEN_BFS, PF_GEN_GREEDY, PF_GEN_WASTAR};
    static const pf_gen_algo exact[] = {PF_GEN_ASTAR, PF_GEN_UNIFORM, PF_GEN_IDASTAR, PF_GEN_DFBNB, PF_GEN_SMASTAR};
    uint32_t s0 = 0, acts[8];
    for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++) {
        pf_gen_plan plan = {.actions = acts, .capacity = 8};
        pf_gen_stats st;
        assert_int_equal(pf_gen_search(c, &p, &s0, &(pf_gen_desc){.algo = cut[i], .weight = 8, .max_cost = 7}, &plan, &st),
                         PF_LIMIT_REACHED);
        /* without the limit they find a plan */
        assert_int_equal(pf_gen_search(c, &p, &s0, &(pf_gen_desc){.algo = cut[i], .weight = 8}, &plan, &st), PF_OK);
    }
    for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++) {
        pf_gen_plan plan = {.actions = acts, .capacity = 8};
        pf_gen_stats st;
        assert_int_equal(pf_gen_search(c, &p, &s0, &(pf_gen_desc){.algo = exact[i], .max_cost = 7, .max_states = 8}, &plan, &st),
                         PF_OK);
        assert_true(fabs(st.cost - 6.0) < 1e-12);
    }
    /* a limit that no plan meets: A* proves it (PF_NO_PATH) */
    pf_gen_plan plan = {.actions = acts, .capacity = 8};
    assert_int_equal(pf_gen_search(c, &p, &s0, &(pf_gen_desc){.algo = PF_GEN_ASTAR, .max_cost = 5.5}, &plan, NULL),
                     PF_NO_PATH);
    pf_gen_ctx_destroy(c);
}

/* The cost a search returned, asked again as max_cost, is found (pf_generic.h: tested up to a
 * relative 1e-9): on chains whose heuristic is the exact remaining cost, summed from the goal's end,
 * g + h at a state of the plan rounds past the plan's cost summed from the start, and A*, IDA* and
 * SMA* answered PF_NO_PATH at their own cost (a review: 1,470 of 2,000 chains). */
static void test_max_cost_at_the_optimum(void **state)
{
    (void)state;
    static const pf_gen_algo algos[] = {PF_GEN_ASTAR, PF_GEN_UNIFORM, PF_GEN_IDASTAR, PF_GEN_DFBNB, PF_GEN_SMASTAR};
    pf_gen_ctx *c;
    assert_int_equal(pf_gen_ctx_create(NULL, &c), PF_OK);
    uint64_t rs = 2811;
    uint32_t asked = 0;
    for (int chain = 0; chain < 300; chain++) {
        graph g;
        memset(&g, 0, sizeof g);
        g.n = 4 + rng_below(&rs, GMAX - 4);
        g.goal = g.n - 1;
        for (uint32_t v = 0; v + 1 < g.n; v++) g_arc(&g, v, v + 1, 0.1 + 1.6 * rng_unit(&rs));
        for (uint32_t v = g.n - 1; v-- > 0;) g.h[v] = g.h[v + 1] + g.w[v][0];
        pf_gen_problem p = g_problem(&g);
        uint32_t s0 = 0, acts[GMAX];
        for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++) {
            pf_gen_plan plan = {.actions = acts, .capacity = GMAX};
            pf_gen_stats st;
            pf_gen_desc d = {.algo = algos[i], .max_states = GMAX + 4};
            if (algos[i] == PF_GEN_DFBNB) d.max_depth = GMAX;
            assert_int_equal(pf_gen_search(c, &p, &s0, &d, &plan, &st), PF_OK);
            const double opt = st.cost;
            d.max_cost = opt;
            pf_status r = pf_gen_search(c, &p, &s0, &d, &plan, &st);
            if (r != PF_OK)
                fail_msg("chain %d (%u states), algo %d: %s at max_cost = its cost %.17g", chain, g.n, (int)algos[i],
                         pf_status_name(r), opt);
            d.max_cost = opt * (1.0 - 1e-6);
            assert_true(pf_gen_search(c, &p, &s0, &d, &plan, &st) != PF_OK);
            asked++;
        }
    }
    print_message("%u searches asked again at their cost\n", asked);
    pf_gen_ctx_destroy(c);
}

/* Step costs each finite whose sum reaches infinity (three steps of 1e308): every algorithm answers
 * PF_COST_OVERFLOW, where the best-first ones answered PF_OK with a plan of cost inf (INFINITY
 * means no plan) and the depth-first ones and SMA* PF_NO_PATH (a plan exists). */
static void test_cost_overflow(void **state)
{
    (void)state;
    graph g;
    memset(&g, 0, sizeof g);
    g.n = 4;
    g.goal = 3;
    g_arc(&g, 0, 1, 1e308);
    g_arc(&g, 1, 2, 1e308);
    g_arc(&g, 2, 3, 1e308);
    pf_gen_problem p = g_problem(&g);
    pf_gen_ctx *c;
    assert_int_equal(pf_gen_ctx_create(NULL, &c), PF_OK);
    uint32_t s0 = 0, acts[8];
    for (int a = 0; a < PF_GEN__COUNT; a++) {
        pf_gen_plan plan = {.actions = acts, .capacity = 8};
        pf_gen_stats st;
        pf_status r = pf_gen_search(c, &p, &s0, &(pf_gen_desc){.algo = (pf_gen_algo)a, .max_states = 8, .max_depth = 6}, &plan, &st);
        if (r != PF_COST_OVERFLOW) fail_msg("%s: %s", pf_gen_algo_name((pf_gen_algo)a), pf_status_name(r));
        assert_true(isinf(st.cost));
    }
    pf_gen_ctx_destroy(c);
}

static void test_state_size_change(void **state)
{
    (void)state;
    graph g = romania();
    pf_gen_problem pg = g_problem(&g);
    open_grid o = {16, 9, 4, 0, 0};
    pf_gen_problem po = {8, og_succ, og_h, og_goal, &o};
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    uint32_t s0 = 0;
    int32_t s1[2] = {0, 0};
    pf_gen_stats st;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(pf_gen_search(ctx, &pg, &s0, NULL, NULL, &st), PF_OK);
        assert_true(st.cost == 418.0);
        assert_int_equal(pf_gen_search(ctx, &po, s1, NULL, NULL, &st), PF_OK);
        assert_true(st.cost == 13.0);
    }
    pf_gen_ctx_destroy(ctx);
}

/* ---- dead ends: h = INFINITY (a pattern database's unreached entry) ------------------------------ */

/* states 0..3: 0->1 (1 has no moves: a dead end), 0->2, 2->3; goal 3. `how` says where h comes
 * from: 0 the heuristic callback, 1 pushed with pf_gen_push_h, 2 an extra heuristic (desc). */
typedef struct dead_end {
    double h[4];
    int    how;
    uint8_t goal;
} dead_end;
static void de_succ(const void *s, pf_gen_sink *out, void *u)
{
    const dead_end *e = u;
    uint8_t v = *(const uint8_t *)s, t[2] = {1, 2};
    if (v == 2) t[0] = 3;
    uint32_t n = v == 0 ? 2 : v == 2 ? 1 : 0;
    for (uint32_t i = 0; i < n; i++) {
        if (e->how == 1) pf_gen_push_h(out, &t[i], 1.0, i, e->h[t[i]]);
        else pf_gen_push(out, &t[i], 1.0, i);
    }
}
static double de_h(const void *s, void *u) { return ((const dead_end *)u)->h[*(const uint8_t *)s]; }
static int de_goal(const void *s, void *u) { return *(const uint8_t *)s == ((const dead_end *)u)->goal; }

/* Every search that uses a heuristic takes h = INFINITY for "no goal from here": such a state is
 * never stored nor expanded, a start with it answers PF_NO_PATH, and a search that runs dry of the
 * others PF_NO_PATH. They were refused (PF_INVALID_ARGUMENT), though pf_pdb_value gives INFINITY
 * for an unreached entry and pf_pdb.h plugs it into a pf_gen_heuristic_fn. NaN and negative h
 * stay refused. */
static void test_dead_end_heuristic(void **state)
{
    (void)state;
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    uint32_t acts[8];
    pf_gen_plan plan = {acts, NULL, 8, 0};
    pf_gen_stats st;
    for (int how = 0; how < 3; how++) {
        dead_end e = {{2.0, INFINITY, 1.0, 0.0}, how, 3};
        const pf_gen_heuristic_fn extra[] = {de_h};
        pf_gen_problem p = {1, de_succ, how == 2 ? NULL : de_h, de_goal, &e};
        for (int a = PF_GEN_ASTAR; a < PF_GEN__COUNT; a++) {
            pf_gen_desc d = {.algo = (pf_gen_algo)a};
            if (how == 2) d.heuristics = extra, d.heuristic_count = 1;
            uint8_t s0 = 0;
            e.h[1] = INFINITY;
            e.h[2] = 1.0;
            assert_int_equal(pf_gen_search(ctx, &p, &s0, &d, &plan, &st), PF_OK);
            assert_true(st.cost == 2.0);
            assert_int_equal(plan.len, 2);
            assert_int_equal(acts[0], 1);
            /* the start is a dead end */
            s0 = 1;
            assert_int_equal(pf_gen_search(ctx, &p, &s0, &d, &plan, &st), PF_NO_PATH);
            assert_true(isinf(st.cost) && plan.len == 0);
            /* every successor is a dead end: the search runs dry (uniform-cost and BFS ignore
             * heuristics and find the plan) */
            const int uses_h = a != PF_GEN_UNIFORM && a != PF_GEN_BFS;
            s0 = 0;
            e.h[2] = INFINITY;
            assert_int_equal(pf_gen_search(ctx, &p, &s0, &d, &plan, &st), uses_h ? PF_NO_PATH : PF_OK);
            /* NaN and negative values stay refused (uniform-cost and BFS never ask; a pushed NaN
             * means "not given": the callback is asked instead) */
            e.h[2] = -1.0;
            assert_int_equal(pf_gen_search(ctx, &p, &s0, &d, &plan, &st), uses_h ? PF_INVALID_ARGUMENT : PF_OK);
            e.h[2] = NAN;
            if (how != 1) {
                assert_int_equal(pf_gen_search(ctx, &p, &s0, &d, &plan, &st),
                                 uses_h ? PF_INVALID_ARGUMENT : PF_OK);
            }
        }
    }
    pf_gen_ctx_destroy(ctx);
}

/* DFBnB cuts cycles along the current path whatever the cycle rule (pf_generic.h): with the parent
 * rule alone its first dive followed 0->1->2->0->... forever on this finite graph (memory growing
 * with the path) and never found the plan 0->1->2->3. */
static void c3_succ(const void *s, pf_gen_sink *out, void *u)
{
    (void)u;
    int32_t x, n;
    memcpy(&x, s, 4);
    if (x == 2) {
        n = 0;
        pf_gen_push(out, &n, 1.0, 0);
        n = 3;
        pf_gen_push(out, &n, 100.0, 1);
    } else if (x < 2) {
        n = x + 1;
        pf_gen_push(out, &n, 1.0, 0);
    }
}
static int c3_goal(const void *s, void *u)
{
    (void)u;
    int32_t x;
    memcpy(&x, s, 4);
    return x == 3;
}
static void test_dfbnb_parent_rule_cycles(void **state)
{
    (void)state;
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    pf_gen_problem p = {4, c3_succ, NULL, c3_goal, NULL};
    uint32_t acts[8];
    pf_gen_plan plan = {acts, NULL, 8, 0};
    pf_gen_stats st;
    int32_t s0 = 0;
    for (int rule = PF_GEN_CYCLES_PATH; rule <= PF_GEN_CYCLES_PARENT; rule++) {
        pf_gen_desc d = {.algo = PF_GEN_DFBNB, .cycles = (pf_gen_cycles)rule, .max_expansions = 100000};
        assert_int_equal(pf_gen_search(ctx, &p, &s0, &d, &plan, &st), PF_OK);
        assert_true(st.cost == 102.0);
        assert_int_equal(plan.len, 3);
        assert_true(st.expanded < 10);
        /* IDA* with the parent rule ends here too: it has a plan to find */
        d.algo = PF_GEN_IDASTAR;
        assert_int_equal(pf_gen_search(ctx, &p, &s0, &d, &plan, &st), PF_OK);
        assert_true(st.cost == 102.0);
    }
    pf_gen_ctx_destroy(ctx);
}

/* IDASTAR_TT on a problem with no plan but a cycle ends with PF_NO_PATH (its learnt bounds kept
 * raising each other round the cycle 4 <-> 5, so the thresholds never ran out: 250,000 passes to
 * the expansion guard, a review): once the table holds every reachable state, each expanded, there
 * is none. With a table too small to hold them the guard still stops it, as documented. */
static void test_idastar_tt_no_plan_cycle(void **state)
{
    (void)state;
    graph g;
    memset(&g, 0, sizeof g);
    g.n = 6;
    g.goal = 0; /* unreachable from 2 */
    g_arc(&g, 2, 1, 1.0);
    g_arc(&g, 2, 5, 1.0);
    g_arc(&g, 1, 4, 1.0);
    g_arc(&g, 4, 5, 1.0);
    g_arc(&g, 5, 4, 1.0);
    pf_gen_problem p = {4, g_succ, NULL, g_goal, &g};
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    uint32_t acts[8];
    pf_gen_plan plan = {acts, NULL, 8, 0};
    pf_gen_stats st;
    uint32_t s0 = 2;
    for (int rule = PF_GEN_CYCLES_PATH; rule <= PF_GEN_CYCLES_PARENT; rule++)
        for (int withh = 0; withh < 2; withh++) {
            p.heuristic = withh ? g_h : NULL; /* h = 0 from the table either way */
            pf_gen_desc d = {.algo = PF_GEN_IDASTAR_TT, .cycles = (pf_gen_cycles)rule, .max_states = 6,
                             .max_expansions = 1000000};
            assert_int_equal(pf_gen_search(ctx, &p, &s0, &d, &plan, &st), PF_NO_PATH);
            assert_true(st.expanded < 100);
            d.max_states = 64;
            assert_int_equal(pf_gen_search(ctx, &p, &s0, &d, &plan, &st), PF_NO_PATH);
            assert_true(st.expanded < 100);
            /* a goal that can be reached is still found, at its cost */
            g.goal = 4;
            assert_int_equal(pf_gen_search(ctx, &p, &s0, &d, &plan, &st), PF_OK);
            assert_true(st.cost == 2.0);
            g.goal = 0;
            /* three states of four fit: the table cannot prove it, the guard ends it */
            d.max_states = 3;
            d.max_expansions = 5000;
            pf_status r = pf_gen_search(ctx, &p, &s0, &d, &plan, &st);
            assert_true(r == PF_LIMIT_REACHED || r == PF_NO_PATH);
        }
    pf_gen_ctx_destroy(ctx);
}

/* max_depth bounds every depth-first search, IDASTAR_TT included (its table used to drop it, so it
 * answered plans longer than max_depth): on random graphs each one's plan equals the cheapest plan
 * of at most max_depth steps (Bellman-Ford over max_depth rounds), with tables large and tiny. */
static void test_max_depth_all_depth_first(void **state)
{
    (void)state;
    int rounds = (int)(300 * env_scale());
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    for (int r = 0; r < rounds; r++) {
        uint64_t rs = 0x51ED2701ull ^ (uint64_t)(r + 1) * 104729u;
        graph g;
        random_graph(&g, &rs, (r & 1) ? 1.0 : 0.5);
        pf_gen_problem p = g_problem(&g);
        uint32_t start = (uint32_t)(xorshift_next(&rs) % g.n);
        uint32_t depth = 1 + (uint32_t)(xorshift_next(&rs) % 5);
        /* cheapest cost from start in at most `depth` steps */
        double dist[GMAX], nd[GMAX];
        for (uint32_t v = 0; v < g.n; v++) dist[v] = INFINITY;
        dist[start] = 0;
        double want = g.goal == start ? 0.0 : INFINITY;
        for (uint32_t it = 0; it < depth; it++) {
            memcpy(nd, dist, sizeof nd);
            for (uint32_t v = 0; v < g.n; v++)
                for (uint32_t k = 0; k < g.deg[v]; k++)
                    if (dist[v] + g.w[v][k] < nd[g.to[v][k]]) nd[g.to[v][k]] = dist[v] + g.w[v][k];
            memcpy(dist, nd, sizeof nd);
            if (dist[g.goal] < want) want = dist[g.goal];
        }
        static const pf_gen_algo algos[] = {PF_GEN_IDASTAR, PF_GEN_IDASTAR_TT, PF_GEN_IDASTAR_TT, PF_GEN_DFBNB};
        for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
            uint32_t acts[GMAX];
            pf_gen_plan plan = {acts, NULL, GMAX, 0};
            pf_gen_stats st;
            pf_gen_desc d = {.algo = algos[a], .max_depth = depth, .max_states = a == 2 ? 3 : 0};
            pf_status s = pf_gen_search(ctx, &p, &start, &d, &plan, &st);
            if (isinf(want)) {
                if (s != PF_NO_PATH)
                    print_error("round %d algo %s depth %u: expected NO_PATH, got %s (len %u)\n", r,
                                pf_gen_algo_name(algos[a]), depth, pf_status_name(s), plan.len);
                assert_int_equal(s, PF_NO_PATH);
                continue;
            }
            assert_int_equal(s, PF_OK);
            assert_true(plan.len <= depth);
            uint32_t end = UINT32_MAX;
            assert_true(fabs(g_plan_cost(&g, start, acts, plan.len, &end) - st.cost) < 1e-9);
            assert_int_equal(end, g.goal);
            if (fabs(st.cost - want) > 1e-9)
                print_error("round %d algo %s depth %u: cost %g, want %g\n", r, pf_gen_algo_name(algos[a]), depth,
                            st.cost, want);
            assert_true(fabs(st.cost - want) < 1e-9);
        }
    }
    pf_gen_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_romania_all_algorithms), cmocka_unit_test(test_buffer_and_bad_input),
        cmocka_unit_test(test_prop_random_graphs),     cmocka_unit_test(test_ties),
        cmocka_unit_test(test_limits_and_bounded_memory), cmocka_unit_test(test_dfbnb_anytime),
        cmocka_unit_test(test_alloc_failure),          cmocka_unit_test(test_state_size_change), cmocka_unit_test(test_max_cost_without_reopening),
        cmocka_unit_test(test_max_cost_at_the_optimum),
        cmocka_unit_test(test_cost_overflow),
        cmocka_unit_test(test_heuristic_max),         cmocka_unit_test(test_smastar_romania),
        cmocka_unit_test(test_dead_end_heuristic),    cmocka_unit_test(test_dfbnb_parent_rule_cycles),
        cmocka_unit_test(test_max_depth_all_depth_first),  cmocka_unit_test(test_idastar_tt_no_plan_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
