/* test_scen_korf.c - Korf's 15-puzzle instances (../shared/data/korf): the generic IDA* finds the
 * listed optimal lengths. Only the cheap instances run here (README: under 5e7 nodes with plain
 * Manhattan), with linear conflicts; PF_TEST_SCALE < 1 runs fewer. All 20: bench/bench_puzzle. */
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

static void test_korf_cheap(void **state)
{
    (void)state;
    puz_instance inst[100];
    int n = puz_load_korf(PF_SHARED_DATA "/korf/korf20.txt", inst, 100);
    if (n <= 0) {
        print_message("korf20.txt not found under %s: skipping\n", PF_SHARED_DATA);
        skip();
    }
    /* cheapest first, so a small PF_TEST_SCALE keeps the quick ones */
    static const uint32_t cheap[] = {12, 2, 6, 16, 19, 20, 13, 18, 9, 5, 8};
    int count = (int)(11 * env_scale() + 0.5);
    if (count < 1) count = 1;
    if (count > 11) count = 11;
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    for (int k = 0; k < count; k++) {
        const puz_instance *in = NULL;
        for (int i = 0; i < n; i++)
            if (inst[i].id == cheap[k]) in = &inst[i];
        assert_non_null(in);
        puz_domain d = {4, PUZ_LINEAR, NULL};
        assert_true(puz_solvable(&d, in->s));
        pf_gen_problem p = puz_problem(&d);
        uint32_t acts[128];
        pf_gen_plan plan = {acts, NULL, 128, 0};
        pf_gen_stats st;
        pf_status s = pf_gen_search(ctx, &p, in->s, &(pf_gen_desc){.algo = PF_GEN_IDASTAR, .cycles = PF_GEN_CYCLES_PARENT},
                                    &plan, &st);
        print_message("korf #%u: %s, %u moves (listed %u), %llu generated\n", in->id, pf_status_name(s), plan.len,
                      in->optimal, (unsigned long long)st.generated);
        assert_int_equal(s, PF_OK);
        assert_int_equal(plan.len, in->optimal);
        /* the plan really solves it */
        uint8_t t[PUZ_MAX + 1];
        memcpy(t, in->s, sizeof t);
        for (uint32_t i = 0; i < plan.len; i++) assert_true(puz_apply(&d, t, acts[i]));
        assert_true(puz_is_goal(t, &d));
    }
    /* the cheapest one with plain Manhattan too: Korf's count for #12 is about 0.55 million */
    const puz_instance *in = NULL;
    for (int i = 0; i < n; i++)
        if (inst[i].id == 12) in = &inst[i];
    puz_domain md = {4, PUZ_MANHATTAN, NULL};
    pf_gen_problem p = puz_problem(&md);
    pf_gen_stats st;
    assert_int_equal(pf_gen_search(ctx, &p, in->s, &(pf_gen_desc){.algo = PF_GEN_IDASTAR, .cycles = PF_GEN_CYCLES_PARENT},
                                   NULL, &st),
                     PF_OK);
    assert_int_equal(st.plan_len, in->optimal);
    assert_true(st.generated > 400000 && st.generated < 700000);
    pf_gen_ctx_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_korf_cheap)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
