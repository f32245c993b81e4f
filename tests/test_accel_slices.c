/* test_accel_slices.c - an accelerated query sliced by pf_search_step's budget (accel_query.c,
 * SLICES): stepped by 1, 7, 64 or 1000 units it answers exactly what one call answers (status,
 * path, cost, stats), each step but the last charged exactly its budget (pf__ctx_units), on
 * hierarchies with and without a core; squad members stepped in turn, the squad set only within
 * their steps as a batch sets it; a map edited while a query is suspended (it begins again on the
 * new cells, and answers as a fresh query there); its accelerator swapped while it is suspended,
 * alone and in a batch (it begins again with the new one), or the same one attached again (it goes
 * on). Batches of `auto` under an expansion budget are
 * in test_accel_squads.c (1-3 workers) and test_replay_cli.c (the CSV). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pathfind.h"
#include "testutil.h"
#include "oracle.h"
#include "maps.h"
#include "core_batch_internal.h"
#include "search/ctx_internal.h"

/* One query's answer: status, stats, path. */
typedef struct answer {
    pf_status st;
    pf_stats  stats;
    uint32_t  len;
    uint32_t *path;
} answer;

static void answer_read(pf_ctx *c, pf_status st, uint32_t cap, answer *a)
{
    a->st = st;
    a->path = calloc(cap, sizeof *a->path);
    pf_path p = {.nodes = a->path, .capacity = cap};
    pf_status r = pf_search_path(c, &p, &a->stats);
    assert_int_equal(r, st);
    a->len = st == PF_OK ? p.len : 0;
}

static void same_answer(const answer *x, const answer *y)
{
    assert_int_equal(x->st, y->st);
    assert_int_equal(x->stats.expanded, y->stats.expanded);
    assert_int_equal(x->stats.pushed, y->stats.pushed);
    assert_int_equal(x->stats.path_len, y->stats.path_len);
    assert_int_equal(x->stats.algo, y->stats.algo);
    assert_int_equal(x->stats.detail, y->stats.detail);
    assert_true(x->stats.cost == y->stats.cost || (isinf(x->stats.cost) && isinf(y->stats.cost)));
    assert_int_equal(x->len, y->len);
    if (x->len) assert_memory_equal(x->path, y->path, x->len * sizeof *x->path);
}

/* The work a search on c has done, charged or not: its expansions and its path's units. */
static uint64_t done_units(const pf_ctx *c) { return (uint64_t)c->s.st.expanded + c->s.work; }

/* The most units a step of an accelerated query may do past its budget, on map m: what it cannot
 * cut (accel_query.c, SLICES) writes a canonical path, at most a side of the map, or three (the
 * path's first pass writes the start's and the goal's; an entry of put_arcs' queue two halves). */
static uint64_t overrun(const pf_map *m)
{
    const uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    return 3u * ((w > h ? w : h) / 16u + 1u);
}

/* Steps the search begun on c by `budget` units until it answers: every step that leaves it in
 * progress charged exactly `budget` units, the last at most budget (its completion is not a unit
 * of the context's), and none does more than overrun() past its budget (sliced, not charged
 * later). Returns its status; *steps the calls made. `restart`: the map was edited since the last
 * step, so the first begins the search again, from no units. */
static pf_status step_out(pf_ctx *c, uint32_t budget, int restart, uint32_t *steps)
{
    pf_status st;
    *steps = 0;
    for (;;) {
        const uint64_t u0 = restart && !*steps ? 0 : pf__ctx_units(c), d0 = restart && !*steps ? 0 : done_units(c);
        st = pf_search_step(c, budget);
        ++*steps;
        assert_true(*steps < 10000000u);
        if (done_units(c) - d0 > budget + overrun(c->map))
            fail_msg("step %u did %llu units of %u", *steps, (unsigned long long)(done_units(c) - d0), budget);
        const uint64_t used = pf__ctx_units(c) - u0;
        if (st != PF_IN_PROGRESS) {
            assert_true(used <= budget);
            return st;
        }
        if (used != budget) fail_msg("step %u charged %llu units of %u", *steps, (unsigned long long)used, budget);
    }
}

static const uint32_t budgets[] = {1, 7, 64, 1000};

/* n queries between open cells: each stepped by every budget answers as one call does. want_core:
 * whether the hierarchy keeps a core (-1: either). */
static void slices_on(pf_map *m, int want_core, uint32_t n, uint64_t seed)
{
    pf_accel *acc;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1}, &acc), PF_OK);
    if (want_core >= 0) assert_true(want_core ? pf_accel_get_info(acc).core > 0 : pf_accel_get_info(acc).core == 0);
    pf_ctx *c;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
    const uint32_t cap = pf_map_node_count(m);
    uint64_t rs = seed;
    uint32_t accel = 0, long_path = 0, most = 0, longest = 0;
    for (uint32_t q = 0; q < n; q++) {
        const uint32_t s = open_cell(m, &rs), g = open_cell(m, &rs);
        const pf_search_desc d = {.algo = PF_ALGO_AUTO};
        answer whole;
        assert_int_equal(pf_search_begin(c, s, g, &d), PF_IN_PROGRESS);
        answer_read(c, pf_search_step(c, 0), cap, &whole);
        accel += (whole.stats.detail & PF_DETAIL_ACCEL) != 0;
        long_path += whole.len >= 64u;
        longest = whole.len > longest ? whole.len : longest;
        if (whole.st == PF_OK) assert_true(close_to(whole.stats.cost, oracle_cost(m, s, g)));
        for (size_t k = 0; k < sizeof budgets / sizeof budgets[0]; k++) {
            answer sliced;
            uint32_t steps;
            assert_int_equal(pf_search_begin(c, s, g, &d), PF_IN_PROGRESS);
            pf_status st = step_out(c, budgets[k], 0, &steps);
            answer_read(c, st, cap, &sliced);
            same_answer(&whole, &sliced);
            if (budgets[k] == 1 && steps > most) most = steps;
            free(sliced.path);
        }
        free(whole.path);
    }
    print_message("%s: %u of %u answered by the accelerator, %u paths of 64 cells or more (the longest %u), up to %u steps of 1 unit\n",
                  want_core > 0 ? "core" : "no core", accel, n, long_path, longest, most);
    assert_true(accel > n / 2);
    assert_true(long_path > 0);
    assert_true(most > 100);
    pf_ctx_destroy(c);
    pf_accel_destroy(acc);
}

static void test_slices_with_core(void **state)
{
    (void)state;
    pf_map *m = grid_core_or_walls(240, 200, 0, 3);
    slices_on(m, 1, 40, 17);
    pf_map_destroy(m);
}

static void test_slices_without_core(void **state)
{
    (void)state;
    pf_map *m = grid_core_or_walls(200, 160, 1, 3);
    slices_on(m, 0, 40, 19);
    pf_map_destroy(m);
}

/* A serpentine: walls every 4 rows, open at one end and the other in turn, so that paths are
 * thousands of cells (a maze's): their writing is cut too, not only the searches. */
static void test_slices_long_paths(void **state)
{
    (void)state;
    const uint32_t w = 120, h = 120;
    uint8_t *c = malloc((size_t)w * h);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            c[y * w + x] = !(y % 4 == 0 && y && (y % 8 == 0 ? x >= 2 : x + 2 < w));
    pf_map *m = grid_make(w, h, PF_MOVES_8_NO_CUT, c, NULL);
    free(c);
    slices_on(m, -1, 12, 31);
    pf_map_destroy(m);
}

/* Members of one goal on their own contexts, stepped in turn by a few units each, the squad set
 * only within each step (as a batch's workers do): each answers as its own query alone (with a
 * core the same path and stats; without one the same status, cost and length: the goal side
 * searched whole may meet the start side at another node of equal cost). The squad's goal side is
 * made once per goal. */
static void squads_on(pf_map *m, int want_core, uint64_t seed)
{
    enum { MEMBERS = 6 };
    pf_accel *acc;
    assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1}, &acc), PF_OK);
    assert_true(want_core ? pf_accel_get_info(acc).core > 0 : pf_accel_get_info(acc).core == 0);
    pf_ctx *c[MEMBERS], *alone;
    for (int i = 0; i < MEMBERS; i++) {
        assert_int_equal(pf_ctx_create(m, NULL, &c[i]), PF_OK);
        assert_int_equal(pf_ctx_use_accel(c[i], acc), PF_OK);
    }
    assert_int_equal(pf_ctx_create(m, NULL, &alone), PF_OK);
    assert_int_equal(pf_ctx_use_accel(alone, acc), PF_OK);
    const pf_allocator sys = {0};
    pf__accel_squad *q = pf__accel_squad_create(&sys);
    assert_non_null(q);
    const uint32_t cap = pf_map_node_count(m);
    uint64_t rs = seed;
    uint32_t made = 0, searched = 0;
    for (int round = 0; round < 6; round++) {
        const uint32_t g = open_cell(m, &rs), budget = budgets[round % 4];
        uint32_t s[MEMBERS];
        pf_status st[MEMBERS];
        for (int i = 0; i < MEMBERS; i++) {
            s[i] = open_cell(m, &rs);
            assert_int_equal(pf_search_begin(c[i], s[i], g, &(pf_search_desc){.algo = PF_ALGO_AUTO}), PF_IN_PROGRESS);
            st[i] = PF_IN_PROGRESS;
        }
        for (int left = MEMBERS; left;) {
            for (int i = 0; i < MEMBERS; i++) {
                if (st[i] != PF_IN_PROGRESS) continue;
                const uint64_t u0 = pf__ctx_units(c[i]);
                pf__ctx_accel_squad(c[i], q);
                st[i] = pf_search_step(c[i], budget);
                pf__ctx_accel_squad(c[i], NULL);
                const uint64_t used = pf__ctx_units(c[i]) - u0;
                assert_true(st[i] == PF_IN_PROGRESS ? used == budget : used <= budget);
                left -= st[i] != PF_IN_PROGRESS;
            }
        }
        made += pf__accel_squad_made(q);
        for (int i = 0; i < MEMBERS; i++) {
            answer a, own;
            answer_read(c[i], st[i], cap, &a);
            assert_int_equal(pf_search_begin(alone, s[i], g, &(pf_search_desc){.algo = PF_ALGO_AUTO}), PF_IN_PROGRESS);
            answer_read(alone, pf_search_step(alone, 0), cap, &own);
            searched += own.stats.expanded > 0;
            if (want_core) {
                same_answer(&own, &a);
            } else {
                assert_int_equal(a.st, own.st);
                assert_int_equal(a.stats.detail, own.stats.detail);
                assert_true(a.stats.cost == own.stats.cost || (isinf(a.stats.cost) && isinf(own.stats.cost)));
                assert_int_equal(a.len, own.len);
            }
            if (a.st == PF_OK) {
                assert_true(close_to(a.stats.cost, oracle_cost(m, s[i], g)));
                assert_int_equal(a.path[0], s[i]);
                assert_int_equal(a.path[a.len - 1u], g);
                assert_true(close_to(oracle_path_cost(m, a.path, a.len), a.stats.cost));
            }
            free(a.path);
            free(own.path);
        }
        pf__accel_squad_reset(q);
    }
    print_message("%s: %u goal sides made by squads, %u members searched\n", want_core ? "core" : "no core", made, searched);
    assert_true(made > 0);
    pf__accel_squad_destroy(q);
    for (int i = 0; i < MEMBERS; i++) pf_ctx_destroy(c[i]);
    pf_ctx_destroy(alone);
    pf_accel_destroy(acc);
}

static void test_squads_stepped(void **state)
{
    (void)state;
    pf_map *m = grid_core_or_walls(240, 200, 0, 5);
    squads_on(m, 1, 23);
    pf_map_destroy(m);
    m = grid_core_or_walls(200, 160, 1, 5);
    squads_on(m, 0, 29);
    pf_map_destroy(m);
}

/* A query suspended part way (in each of its parts: a few units, then more) and the map edited
 * before it resumes: the next step begins it again on the new cells, and it answers what a fresh
 * query there answers, at the oracle's cost. The accelerator follows the edits by its diff. */
static void test_edit_while_suspended(void **state)
{
    (void)state;
    for (int walls = 0; walls < 2; walls++) {
        pf_map *m = walls ? grid_core_or_walls(200, 160, 1, 9) : grid_core_or_walls(240, 200, 0, 9);
        pf_accel *acc;
        assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1, .edits = PF_ACCEL_EDITS_CHECK}, &acc), PF_OK);
        pf_ctx *c, *fresh;
        assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
        assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
        assert_int_equal(pf_ctx_create(m, NULL, &fresh), PF_OK);
        assert_int_equal(pf_ctx_use_accel(fresh, acc), PF_OK);
        const uint32_t cap = pf_map_node_count(m);
        uint64_t rs = 41;
        uint32_t restarted = 0;
        for (int round = 0; round < 24; round++) {
            const uint32_t s = open_cell(m, &rs), g = open_cell(m, &rs);
            const pf_search_desc d = {.algo = PF_ALGO_AUTO};
            /* how far the query gets before the edit: a few units to most of it */
            answer whole;
            assert_int_equal(pf_search_begin(c, s, g, &d), PF_IN_PROGRESS);
            answer_read(c, pf_search_step(c, 0), cap, &whole);
            const uint32_t units = whole.stats.expanded + whole.len / 16u;
            const uint32_t before = 1u + (uint32_t)((uint64_t)units * (uint32_t)(round % 6) / 6u);
            free(whole.path);
            assert_int_equal(pf_search_begin(c, s, g, &d), PF_IN_PROGRESS);
            pf_status st = pf_search_step(c, before);
            /* a block closed and one opened, away from the endpoints */
            pf_grid_edit e[2];
            for (int k = 0; k < 2; k++) {
                int32_t x, y;
                do {
                    x = (int32_t)rng_below(&rs, pf_grid_width(m) - 4);
                    y = (int32_t)rng_below(&rs, pf_grid_height(m) - 4);
                } while (abs(x - (int32_t)(s % pf_grid_width(m))) < 6 || abs(x - (int32_t)(g % pf_grid_width(m))) < 6);
                e[k] = (pf_grid_edit){.rect = {x, y, 3, 3}, .cls = (uint8_t)k};
            }
            assert_int_equal(pf_grid_apply_edits(m, e, 2, NULL), PF_OK);
            if (st != PF_IN_PROGRESS) continue;
            restarted++;
            uint32_t steps;
            st = step_out(c, 5, 1, &steps);
            answer a, f;
            answer_read(c, st, cap, &a);
            assert_int_equal(pf_search_begin(fresh, s, g, &d), PF_IN_PROGRESS);
            answer_read(fresh, pf_search_step(fresh, 0), cap, &f);
            same_answer(&f, &a);
            if (a.st == PF_OK) assert_true(close_to(a.stats.cost, oracle_cost(m, s, g)));
            free(a.path);
            free(f.path);
        }
        print_message("%s: %u queries suspended across an edit\n", walls ? "no core" : "core", restarted);
        assert_true(restarted > 12);
        pf_ctx_destroy(c);
        pf_ctx_destroy(fresh);
        pf_accel_destroy(acc);
        pf_map_destroy(m);
    }
}

/* A query suspended part way and its context given another accelerator (of the same map, made
 * before or after some edits: another hierarchy), or none: the next step begins it again with what
 * is attached now, and it answers what a fresh query answers there (it never reads the other's
 * arrays). A batch does the same at the run it adopts one (pf_batch_adopt_accel): every answer is
 * the new accelerator's own query's, at the oracle's cost. */
static void test_accel_swapped_while_suspended(void **state)
{
    (void)state;
    for (int walls = 0; walls < 2; walls++) {
        pf_map *m = walls ? grid_core_or_walls(200, 160, 1, 13) : grid_core_or_walls(240, 200, 0, 13);
        /* a1 made before some edits (following them by its diff), a2 after: two hierarchies */
        pf_accel *a1, *a2;
        assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1, .edits = PF_ACCEL_EDITS_CHECK}, &a1), PF_OK);
        uint64_t es = 7;
        for (int k = 0; k < 8; k++) {
            pf_grid_edit e = {.rect = {(int32_t)rng_below(&es, pf_grid_width(m) - 8), (int32_t)rng_below(&es, pf_grid_height(m) - 8), 6, 6},
                              .cls = (uint8_t)(k % 2)};
            assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_OK);
        }
        assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1}, &a2), PF_OK);
        assert_true(pf_accel_get_info(a1).subgoals != pf_accel_get_info(a2).subgoals);
        pf_ctx *c, *fresh;
        assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
        assert_int_equal(pf_ctx_create(m, NULL, &fresh), PF_OK);
        const uint32_t cap = pf_map_node_count(m);
        uint64_t rs = 43;
        uint32_t swapped = 0;
        for (int round = 0; round < 12; round++) {
            const uint32_t s = open_cell(m, &rs), g = open_cell(m, &rs);
            const pf_search_desc d = {.algo = PF_ALGO_AUTO};
            pf_accel *now = round % 3 == 2 ? NULL : (round % 3 ? a1 : a2);
            assert_int_equal(pf_ctx_use_accel(c, round % 3 == 1 ? a2 : a1), PF_OK);
            assert_int_equal(pf_search_begin(c, s, g, &d), PF_IN_PROGRESS);
            pf_status st = pf_search_step(c, 3u + (uint32_t)round * 5u);
            /* JPS answering for an unproven query (a1 on the edited map) goes on as it is */
            const int again = pf__ctx_accel_running(c);
            swapped += again;
            assert_int_equal(pf_ctx_use_accel(c, now), PF_OK);
            uint32_t steps;
            if (st == PF_IN_PROGRESS) st = step_out(c, 4, again, &steps);
            answer a, f;
            answer_read(c, st, cap, &a);
            assert_int_equal(pf_ctx_use_accel(fresh, now), PF_OK);
            assert_int_equal(pf_search_begin(fresh, s, g, &d), PF_IN_PROGRESS);
            answer_read(fresh, pf_search_step(fresh, 0), cap, &f);
            if (again) same_answer(&f, &a); /* else it ended before, or JPS answers it (a1 refused) */
            assert_int_equal(a.st, f.st);
            if (a.st == PF_OK) assert_true(close_to(a.stats.cost, oracle_cost(m, s, g)));
            free(a.path);
            free(f.path);
        }
        assert_true(swapped >= 4);
        /* a batch: long queries suspended part way by a budget of 25, the other accelerator adopted
         * at the next run */
        enum { NQ = 16 };
        pf_batch *b;
        assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 1, .accel = a1, .suspend_slots = NQ}, &b), PF_OK);
        pf_query_id id[NQ];
        uint32_t qs[NQ], qg[NQ];
        for (int i = 0; i < NQ; i++) {
            qs[i] = open_cell(m, &rs);
            qg[i] = open_cell(m, &rs);
            assert_int_equal(pf_batch_submit(b, &(pf_batch_query){.start = qs[i], .goal = qg[i], .search = {.algo = PF_ALGO_AUTO}}, &id[i]),
                             PF_OK);
        }
        const pf_batch_budget bud = {.max_expansions = 25};
        assert_int_equal(pf_batch_run(b, &bud), PF_OK);
        assert_int_equal(pf_batch_adopt_accel(b, a2, pf_batch_frame(b)), PF_OK);
        for (int run = 0; pf_batch_get_stats(b).pending; run++) {
            assert_true(run < 100000);
            assert_int_equal(pf_batch_run(b, &bud), PF_OK);
        }
        assert_int_equal(pf_ctx_use_accel(fresh, a2), PF_OK);
        for (int i = 0; i < NQ; i++) {
            pf_batch_result r;
            assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
            answer f;
            assert_int_equal(pf_search_begin(fresh, qs[i], qg[i], &(pf_search_desc){.algo = PF_ALGO_AUTO}), PF_IN_PROGRESS);
            answer_read(fresh, pf_search_step(fresh, 0), cap, &f);
            assert_int_equal(r.status, f.st);
            if (r.status == PF_OK) {
                assert_true(r.stats.cost == f.stats.cost);
                assert_int_equal(r.stats.expanded, f.stats.expanded);
                assert_int_equal(r.path_len, f.len);
                assert_memory_equal(r.path, f.path, f.len * sizeof *f.path);
            }
            free(f.path);
        }
        pf_batch_destroy(b);
        pf_ctx_destroy(c);
        pf_ctx_destroy(fresh);
        pf_accel_destroy(a1);
        pf_accel_destroy(a2);
        pf_map_destroy(m);
    }
}

/* pf_ctx_use_accel with the accelerator the context already has, while a query is suspended with
 * units still owed (its answer may be written and waiting): the query goes on, and answers what
 * one call answers. The re-attachment used to empty the written path: PF_OK with no cells (found
 * in review: 30 of 240 queries on the map without a core). */
static void test_same_accel_again_while_owed(void **state)
{
    (void)state;
    /* the map without a core: its scans and its path's first pass are owed in these budgets */
    {
        pf_map *m = grid_core_or_walls(200, 160, 1, 3);
        pf_accel *acc;
        assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1}, &acc), PF_OK);
        pf_ctx *c, *one;
        assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.accel = acc}, &c), PF_OK);
        assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.accel = acc}, &one), PF_OK);
        const uint32_t cap = pf_map_node_count(m);
        uint64_t rs = 7;
        uint32_t readopted = 0;
        for (int q = 0; q < 60; q++) {
            const uint32_t s = open_cell(m, &rs), g = open_cell(m, &rs);
            const pf_search_desc d = {.algo = PF_ALGO_AUTO};
            answer want, got;
            answer_read(one, pf_search(one, s, g, &d, NULL, NULL), cap, &want);
            for (uint32_t budget = 1; budget <= 4; budget++) {
                pf_status st = pf_search_begin(c, s, g, &d);
                int did = 0;
                while (st == PF_IN_PROGRESS) {
                    st = pf_search_step(c, budget);
                    if (st == PF_IN_PROGRESS && c->s.owed && !did) {
                        assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
                        did = 1;
                        readopted++;
                    }
                }
                answer_read(c, st, cap, &got);
                same_answer(&got, &want);
                free(got.path);
            }
            free(want.path);
        }
        /* the draw must reach the case, or the test checks nothing */
        print_message("%u re-attachments while owed\n", readopted);
        assert_true(readopted >= 10);
        pf_ctx_destroy(c);
        pf_ctx_destroy(one);
        pf_accel_destroy(acc);
        pf_map_destroy(m);
    }
}

/* A path moved beside an edit (Q_MOVE, accel_diff.c) sliced: on a 64x64 map a path of 11 straight
 * steps across, 11 diagonal and 11 straight down hugs an obstacle's edge; a 1x1 building on its
 * diagonal is not passed by any order of the run's steps nor within a quadrant's box (the obstacle
 * is in the way), so every table is read and fails, and JPS answers. Read whole, the tables of one
 * building ran a step past its budget by 4 units per 16 cells of the side where overrun() allows
 * 3 (a review's harness: 18 units of budget 1 where 16 are allowed). The same with the building
 * beside the way instead (the path moved, the accelerator's answer). Every budget answers as one
 * call, within overrun(). */
static void test_move_sliced(void **state)
{
    (void)state;
    enum { W = 64, O = 5, A = 11, B = 11, C = 11 };
    static uint8_t cells[W * W];
    for (uint32_t y = 0; y < W; y++)
        for (uint32_t x = 0; x < W; x++) {
            int64_t lim = (int64_t)y + A - 2, cap = O + A + B - 1;
            if (lim > cap || y >= O + 1 + B) lim = cap;
            cells[y * W + x] = !(y >= O + 1 && (int64_t)x <= lim);
        }
    const int32_t at[2][2] = {{O + A + B / 2, O + B / 2}, {O + A + B / 2 + 1, O + B / 2 - 1}};
    for (int k = 0; k < 2; k++) {
        pf_map *m = grid_make(W, W, PF_MOVES_8_NO_CUT, cells, NULL);
        pf_accel *acc;
        assert_int_equal(pf_accel_create(m, &(pf_accel_desc){.short_query = 1, .threads = 1, .edits = PF_ACCEL_EDITS_CHECK},
                                         &acc),
                         PF_OK);
        pf_ctx *c;
        assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
        assert_int_equal(pf_ctx_use_accel(c, acc), PF_OK);
        const uint32_t s = pf_grid_node(m, O, O), g = pf_grid_node(m, O + A + B, O + B + C);
        const pf_search_desc d = {.algo = PF_ALGO_AUTO};
        pf_stats st;
        assert_int_equal(pf_search(c, s, g, &d, NULL, &st), PF_OK);
        assert_int_equal(st.detail, PF_DETAIL_ACCEL);
        pf_grid_edit bld = {.rect = {at[k][0], at[k][1], 1, 1}, .cls = 0};
        assert_int_equal(pf_grid_apply_edits(m, &bld, 1, NULL), PF_OK);
        const uint32_t cap = pf_map_node_count(m);
        answer whole;
        assert_int_equal(pf_search_begin(c, s, g, &d), PF_IN_PROGRESS);
        answer_read(c, pf_search_step(c, 0), cap, &whole);
        assert_int_equal(whole.st, PF_OK);
        assert_true(close_to(whole.stats.cost, oracle_cost(m, s, g)));
        /* on the diagonal: refused; beside it, where the old path went by a corner: moved */
        assert_int_equal(whole.stats.detail & (PF_DETAIL_ACCEL | PF_DETAIL_ACCEL_EDITED),
                         k == 0 ? PF_DETAIL_ACCEL_EDITED : PF_DETAIL_ACCEL);
        for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {
            answer sliced;
            uint32_t steps;
            assert_int_equal(pf_search_begin(c, s, g, &d), PF_IN_PROGRESS);
            pf_status r = step_out(c, budgets[b], 0, &steps);
            answer_read(c, r, cap, &sliced);
            same_answer(&whole, &sliced);
            free(sliced.path);
        }
        free(whole.path);
        pf_ctx_destroy(c);
        pf_accel_destroy(acc);
        pf_map_destroy(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_slices_with_core), cmocka_unit_test(test_slices_without_core),
                                       cmocka_unit_test(test_slices_long_paths),
                                       cmocka_unit_test(test_squads_stepped), cmocka_unit_test(test_edit_while_suspended),
                                       cmocka_unit_test(test_accel_swapped_while_suspended),
                                       cmocka_unit_test(test_same_accel_again_while_owed),
                                       cmocka_unit_test(test_move_sliced)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
