/* test_puzzle.c - the 8-puzzle by every algorithm: IDA* (Manhattan and linear conflicts), A*,
 * the memory-bounded IDA*, against BFS; the whole space has 9!/2 states (OEIS A089473). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "domains/puzzle.h"
#include "testutil.h"

static int never(const void *s, void *u)
{
    (void)s;
    (void)u;
    return 0;
}

static void test_whole_space(void **state)
{
    (void)state;
    puz_domain d = {3, PUZ_MANHATTAN, NULL};
    pf_gen_problem p = puz_problem(&d);
    p.is_goal = never;
    p.heuristic = NULL;
    uint8_t goal[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 0};
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    pf_gen_stats st;
    assert_int_equal(pf_gen_search(ctx, &p, goal, &(pf_gen_desc){.algo = PF_GEN_BFS}, NULL, &st), PF_NO_PATH);
    assert_int_equal(st.stored, 181440);
    assert_int_equal(st.expanded, 181440);
    pf_gen_ctx_destroy(ctx);
}

/* Manhattan distance for any puz_domain: an extra heuristic beside the domain's own one. */
static double h_manhattan(const void *s, void *u)
{
    return (double)puz_manhattan(u, s);
}

static void test_random_eights(void **state)
{
    (void)state;
    int rounds = (int)(40 * env_scale());
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    uint64_t rs = 0x1234567;
    int unsolvable = 0;
    uint32_t mis_iters = 0, md_iters = 0;
    for (int r = 0; r < rounds; r++) {
        puz_domain md = {3, PUZ_MANHATTAN, NULL}, lc = {3, PUZ_LINEAR, NULL};
        uint8_t s[10];
        for (int i = 0; i < 9; i++) s[i] = (uint8_t)i;
        for (int i = 8; i > 0; i--) {
            int j = (int)(xorshift_next(&rs) % (uint64_t)(i + 1));
            uint8_t t = s[i];
            s[i] = s[j];
            s[j] = t;
        }
        assert_true(puz_finish(&md, s));
        pf_gen_problem pm = puz_problem(&md), pl = puz_problem(&lc);
        pf_gen_stats bfs, a, ida_md, ida_lc, tt;
        uint32_t acts[64];
        pf_gen_plan plan = {acts, NULL, 64, 0};
        pf_status sb = pf_gen_search(ctx, &pm, s, &(pf_gen_desc){.algo = PF_GEN_BFS}, &plan, &bfs);
        if (!puz_solvable(&md, s)) {
            assert_int_equal(sb, PF_NO_PATH);
            unsolvable++;
            continue;
        }
        assert_int_equal(sb, PF_OK);
        assert_int_equal(pf_gen_search(ctx, &pl, s, NULL, &plan, &a), PF_OK);
        assert_int_equal(pf_gen_search(ctx, &pm, s, &(pf_gen_desc){.algo = PF_GEN_IDASTAR, .cycles = PF_GEN_CYCLES_PARENT},
                                       &plan, &ida_md),
                         PF_OK);
        assert_int_equal(pf_gen_search(ctx, &pl, s, &(pf_gen_desc){.algo = PF_GEN_IDASTAR}, &plan, &ida_lc), PF_OK);
        uint8_t t[10];
        memcpy(t, s, sizeof t);
        for (uint32_t i = 0; i < plan.len; i++) assert_true(puz_apply(&lc, t, acts[i]));
        assert_true(puz_is_goal(t, &lc));
        assert_int_equal(pf_gen_search(ctx, &pm, s, &(pf_gen_desc){.algo = PF_GEN_IDASTAR_TT, .max_states = 1000},
                                       &plan, &tt),
                         PF_OK);
        assert_true(a.cost == bfs.cost && ida_md.cost == bfs.cost && ida_lc.cost == bfs.cost && tt.cost == bfs.cost);
        /* misplaced tiles (the lecture's h1) is admissible and dominated by Manhattan (h2); the
         * maximum of the two is Manhattan again, so IDA* takes as many iterations as with it */
        puz_domain mp = {3, PUZ_MISPLACED, NULL};
        pf_gen_problem pmis = puz_problem(&mp);
        pf_gen_stats mis, mx;
        assert_int_equal(pf_gen_search(ctx, &pmis, s, &(pf_gen_desc){.algo = PF_GEN_IDASTAR}, &plan, &mis), PF_OK);
        const pf_gen_heuristic_fn more[] = {h_manhattan};
        pf_gen_desc dmax = {.algo = PF_GEN_IDASTAR, .heuristics = more, .heuristic_count = 1};
        assert_int_equal(pf_gen_search(ctx, &pmis, s, &dmax, &plan, &mx), PF_OK);
        assert_true(mis.cost == bfs.cost && mx.cost == bfs.cost);
        assert_true(puz_h(s, &mp) <= puz_h(s, &md));
        assert_int_equal(mx.iterations, ida_md.iterations);
        assert_true(mx.iterations <= mis.iterations);
        mis_iters += mis.iterations;
        md_iters += ida_md.iterations;
        /* linear conflicts dominate Manhattan: never more iterations, admissible (h <= optimal) */
        assert_true(ida_lc.iterations <= ida_md.iterations);
        assert_true(puz_h(s, &lc) <= bfs.cost && puz_h(s, &md) <= puz_h(s, &lc));
    }
    assert_true(unsolvable > 0 && unsolvable < rounds);
    assert_true(md_iters < mis_iters); /* h2 dominates h1 */
    pf_gen_ctx_destroy(ctx);
}

/* SMA* on 8-puzzles: optimal at every memory bound that holds an optimal path (more than d
 * nodes for a d-move optimum), the tight ones that force forgetting and regenerating included;
 * nothing fits below that (every plan has at least d moves). */
static void test_smastar_eights(void **state)
{
    (void)state;
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    puz_domain md = {3, PUZ_MANHATTAN, NULL};
    pf_gen_problem p = puz_problem(&md);
    uint64_t rs = 0xC0FFEE;
    int rounds = (int)(12 * env_scale()) + 1;
    uint64_t forgot = 0, regenerated = 0;
    for (int r = 0; r < rounds; r++) {
        uint8_t s[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 0};
        int walk = 10 + (int)(xorshift_next(&rs) % 10);
        for (int i = 0; i < walk; i++) puz_apply(&md, s, (uint32_t)(xorshift_next(&rs) % 4));
        pf_gen_stats ref;
        assert_int_equal(pf_gen_search(ctx, &p, s, &(pf_gen_desc){.algo = PF_GEN_IDASTAR}, NULL, &ref), PF_OK);
        const uint32_t d = ref.plan_len;
        const uint32_t bounds[] = {d - 1 + (d == 0), d, d + 1, d + 2, d + 3, d + 5, d + 8, 2 * d + 2, 4 * d + 4, 1000, 0};
        for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
            uint32_t m = bounds[b], acts[64];
            pf_gen_plan plan = {acts, NULL, 64, 0};
            pf_gen_stats st;
            pf_status res = pf_gen_search(ctx, &p, s, &(pf_gen_desc){.algo = PF_GEN_SMASTAR, .max_states = m}, &plan, &st);
            if (m != 0) assert_true(st.stored <= m);
            if (m != 0 && m <= d) {
                assert_int_equal(res, PF_NO_PATH);
                continue;
            }
            if (res != PF_OK || st.cost != ref.cost)
                print_error("round %d, %u moves, bound %u: %s, cost %g\n", r, d, m, pf_status_name(res), st.cost);
            assert_int_equal(res, PF_OK);
            assert_true(st.cost == ref.cost);
            uint8_t t[10];
            memcpy(t, s, sizeof t);
            for (uint32_t i = 0; i < plan.len; i++) assert_true(puz_apply(&md, t, acts[i]));
            assert_true(puz_is_goal(t, &md));
            if (m == d + 1) {
                forgot += st.iterations;
                regenerated += st.reopened;
            }
        }
    }
    /* the tightest bounds did forget and regenerate */
    assert_true(forgot > 0 && regenerated > 0);
    pf_gen_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_whole_space), cmocka_unit_test(test_random_eights),
                                       cmocka_unit_test(test_smastar_eights)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
