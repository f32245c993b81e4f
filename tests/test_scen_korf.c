/* test_scen_korf.c - Korf's 15-puzzle instances (../shared/data/korf): the generic IDA* finds the
 * listed optimal lengths, with linear conflicts and with a 5-5-5 pattern database (built here:
 * about a second; 6-6-3 and 7-8 are the benchmark's). Only the cheap instances run here (docs/generic-search.md:
 * under 5e7 nodes with plain Manhattan); PF_TEST_SCALE < 1 runs fewer. All 20: bench/bench_puzzle. */
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

/* Korf's instances; skips (ctest: skipped) only when the file does not exist, fails when it does
 * not load. */
static int load_or_skip(puz_instance *inst)
{
    const char *path = PF_SHARED_DATA "/korf/korf20.txt";
    SKIP_IF_ABSENT(path);
    int n = puz_load_korf(path, inst, 100);
    if (n < 20) fail_msg("%s: %d instances read, 20 expected", path, n);
    return n;
}

/* nodes generated with linear conflicts, by instance id (0: not run), for the database test */
static unsigned long long lc_generated[101];

static void test_korf_cheap(void **state)
{
    (void)state;
    static puz_instance inst[100];
    int n = load_or_skip(inst);
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
        if (in->id <= 100) lc_generated[in->id] = st.generated;
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

/* IDA* over the puzzle's incremental database domain: optimal, its h equal to the library's
 * pf_pdb_value on every state of the plan, and fewer nodes than linear conflicts. */
static void test_korf_pdb(void **state)
{
    (void)state;
    static puz_instance inst[100];
    int n = load_or_skip(inst);
    static puz_pdb_set set;
    assert_true(puz_pdb_set_init(&set, "5-5-5", 1, 0));
    pf_pdb *pdb;
    assert_int_equal(pf_pdb_build(&set.desc, &pdb), PF_OK);
    for (uint32_t j = 0; j < 3; j++) {
        pf_pdb_info in;
        assert_int_equal(pf_pdb_get_pattern_info(pdb, j, &in), PF_OK);
        assert_int_equal(in.entries, 524160); /* 16!/11! */
        assert_int_equal(in.unreached, 0);
        assert_int_equal(in.bits, 4);
    }
    static puz_pdb_search ps;
    assert_true(puz_pdb_search_init(&ps, &set, pdb));
    pf_gen_problem p = puz_pdb_problem(&ps);
    puz_domain lc = {4, PUZ_LINEAR, NULL}, ref = {4, PUZ_PDB, pdb};
    pf_gen_ctx *ctx;
    assert_int_equal(pf_gen_ctx_create(NULL, &ctx), PF_OK);
    static const uint32_t cheap[] = {12, 19, 13, 9, 2, 16, 20, 6};
    int count = (int)(8 * env_scale() + 0.5);
    if (count < 1) count = 1;
    if (count > 8) count = 8;
    for (int k = 0; k < count; k++) {
        const puz_instance *in = NULL;
        for (int i = 0; i < n; i++)
            if (inst[i].id == cheap[k]) in = &inst[i];
        assert_non_null(in);
        uint8_t start[64], states[128 * 23];
        puz_pdb_start(&ps, in->s, start);
        assert_true(p.heuristic(start, &ps) == puz_h(in->s, &ref));
        uint32_t acts[128];
        pf_gen_plan plan = {acts, states, 128, 0};
        pf_gen_stats st;
        pf_status s = pf_gen_search(ctx, &p, start, &(pf_gen_desc){.algo = PF_GEN_IDASTAR, .cycles = PF_GEN_CYCLES_PARENT},
                                    &plan, &st);
        print_message("korf #%u: %s, %u moves (listed %u), %llu generated (linear conflicts: %llu)\n", in->id,
                      pf_status_name(s), plan.len, in->optimal, (unsigned long long)st.generated,
                      lc_generated[in->id]);
        assert_int_equal(s, PF_OK);
        assert_int_equal(plan.len, in->optimal);
        if (lc_generated[in->id]) assert_true(st.generated < lc_generated[in->id]);
        /* every state of the plan: the incremental values are the library's, and the plan moves */
        uint8_t t[PUZ_MAX + 1];
        memcpy(t, in->s, sizeof t);
        const uint32_t ss = puz_pdb_state_size(&ps);
        for (uint32_t i = 0; i < plan.len; i++) {
            assert_true(puz_apply(&lc, t, acts[i]));
            const uint8_t *x = states + (size_t)i * ss;
            assert_memory_equal(x, t, 17);
            assert_true(p.heuristic(x, &ps) == puz_h(t, &ref));
        }
        assert_true(puz_is_goal(t, &lc));
    }
    pf_gen_ctx_destroy(ctx);
    pf_pdb_destroy(pdb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_korf_cheap), cmocka_unit_test(test_korf_pdb)};
    return RUN_TESTS(tests);
}
