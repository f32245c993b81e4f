/* test_batch_limits.c - what a batch may commit (issue 24, defects 7 and 8).
 *
 * Defect 7: a size is one value with one check, whichever door it comes through. The path arena of
 * a worker (pf_batch_desc.arena_bytes, pf_batch_desc.reserve.arena_bytes, pf_batch_reserve) is
 * refused above PF_BATCH_MAX_ARENA_BYTES before anything is asked of the allocator; workers times
 * what each worker holds is bounded too; an open-list reservation (pf_batch_desc.heap_capacity,
 * reserve.open_list) never makes more entries than the map has nodes.
 *
 * Defect 8: spare contexts (for suspended searches) are made when a search is suspended, one at a
 * time, not one per slot up front; suspend_slots times a context's size is bounded; a spare that
 * cannot be made degrades the search (it is redone), visibly, without losing it.
 *
 * Sizes are measured with a counting allocator that refuses requests above a limit, so a defect
 * shows as an assertion instead of gigabytes committed.
 */
#define _POSIX_C_SOURCE 200809L
#define PF_EXAMPLE_NO_MAIN
#include "../examples/jobs_pthreads.c" /* example_run_pthreads: workers on engine threads */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pathfind.h"
#include "batch_internal.h" /* a few checks count the spare contexts made (spare_made) */
#include "testutil.h"
#include "maps.h"
#include "tally_alloc.h"

static pf_map *open_grid(uint32_t w, uint32_t h)
{
    return grid_make(w, h, PF_MOVES_DEFAULT, NULL, NULL);
}

/* A search that expands the whole map: long enough to be suspended by small budgets. */
static pf_batch_query long_query(const pf_map *m)
{
    uint32_t w = pf_grid_width(m), h = pf_grid_height(m);
    return (pf_batch_query){.start = pf_grid_node(m, 0, 0), .goal = pf_grid_node(m, (int32_t)w - 1, (int32_t)h - 1),
                            .search = {.algo = PF_ALGO_DIJKSTRA}};
}

static double ref_cost(const pf_map *m, const pf_batch_query *q)
{
    pf_ctx *c;
    pf_stats st;
    assert_int_equal(pf_ctx_create(m, NULL, &c), PF_OK);
    assert_int_equal(pf_search(c, q->start, q->goal, &q->search, NULL, &st), PF_OK);
    pf_ctx_destroy(c);
    return st.cost;
}

/* Runs the batch with `bud` until query `id` is answered; returns its result. */
static pf_batch_result run_until_done(pf_batch *b, pf_query_id id, const pf_batch_budget *bud, int max_runs)
{
    pf_batch_result r;
    for (int run = 0;; run++) {
        if (run >= max_runs) fail_msg("query not answered after %d runs", max_runs);
        assert_int_equal(pf_batch_run(b, bud), PF_OK);
        assert_int_equal(pf_batch_get(b, id, &r), PF_OK);
        if (r.status != PF_IN_PROGRESS) return r;
    }
}

#define GIB ((size_t)1 << 30)

/* ---- defect 7: one value, one check, whichever door ---------------------------------------------- */

/* A per-worker arena above PF_BATCH_MAX_ARENA_BYTES is PF_TOO_LARGE through each of the three doors,
 * refused before the allocator is asked for it; the limit itself is accepted by each door alike. */
static void test_arena_every_door(void **state)
{
    (void)state;
    pf_map *m = open_grid(64, 64);
    tally t;
    tally_init(&t, (size_t)64 << 20);
    pf_batch *b = (pf_batch *)&b;
    const size_t big = 2 * GIB; /* the value */
    /* desc.arena_bytes (refused before this fix already) */
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.allocator = tally_hooks(&t), .workers = 1, .arena_bytes = big}, &b),
                     PF_TOO_LARGE);
    assert_null(b);
    /* desc.reserve.arena_bytes: was allocated and pre-faulted */
    pf_batch_desc rd = {.allocator = tally_hooks(&t), .workers = 1, .reserve = {.arena_bytes = big}};
    assert_int_equal(pf_batch_create(m, &rd, &b), PF_TOO_LARGE);
    assert_null(b);
    assert_int_equal(t.calls, 0); /* refused before anything was made */
    assert_int_equal(pf_batch_estimate(m, &rd), 0);
    /* pf_batch_reserve: likewise */
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.allocator = tally_hooks(&t), .workers = 2}, &b), PF_OK);
    size_t calls = t.calls;
    assert_int_equal(pf_batch_reserve(b, &(pf_batch_reserve_desc){.arena_bytes = big}), PF_TOO_LARGE);
    assert_int_equal(pf_batch_reserve(b, &(pf_batch_reserve_desc){.arena_bytes = SIZE_MAX}), PF_TOO_LARGE);
    assert_int_equal(t.calls, calls);
    assert_true(t.largest < PF_BATCH_MAX_ARENA_BYTES);
    /* the batch works as before */
    pf_batch_query q = long_query(m);
    pf_query_id id;
    assert_int_equal(pf_batch_submit(b, &q, &id), PF_OK);
    pf_batch_result r = run_until_done(b, id, NULL, 1);
    assert_int_equal(r.status, PF_OK);
    assert_true(close_to(r.stats.cost, ref_cost(m, &q)));
    /* at the limit, every door asks the allocator for the whole value (which refuses it here) */
    assert_int_equal(pf_batch_reset(b), PF_OK); /* an empty arena is replaced whole */
    t.largest = 0;
    assert_int_equal(pf_batch_reserve(b, &(pf_batch_reserve_desc){.arena_bytes = PF_BATCH_MAX_ARENA_BYTES}),
                     PF_OUT_OF_MEMORY);
    assert_true(t.largest >= PF_BATCH_MAX_ARENA_BYTES);
    pf_batch_destroy(b);
    t.largest = 0;
    rd.reserve.arena_bytes = PF_BATCH_MAX_ARENA_BYTES;
    assert_int_equal(pf_batch_create(m, &rd, &b), PF_OUT_OF_MEMORY);
    assert_true(t.largest >= PF_BATCH_MAX_ARENA_BYTES);
    assert_int_equal(t.live, 0);
    /* the reason, by name */
    pf_diag d;
    rd.reserve.arena_bytes = big;
    assert_int_equal(pf_batch_check(m, &rd, &d), PF_TOO_LARGE);
    assert_int_equal(d.status, PF_TOO_LARGE);
    assert_string_equal(d.msg, "reserve.arena_bytes: 2147483648 bytes per worker exceed PF_BATCH_MAX_ARENA_BYTES "
                               "(1073741824)");
    assert_int_equal(pf_batch_check(m, &(pf_batch_desc){.arena_bytes = big}, &d), PF_TOO_LARGE);
    assert_string_equal(d.msg, "arena_bytes: 2147483648 bytes per worker exceed PF_BATCH_MAX_ARENA_BYTES (1073741824)");
    assert_int_equal(pf_batch_check(m, &(pf_batch_desc){.workers = 1}, &d), PF_OK);
    assert_int_equal(d.status, PF_OK);
    assert_string_equal(d.msg, "");
    assert_int_equal(pf_batch_check(m, NULL, NULL), PF_OK);
    assert_int_equal(pf_batch_check(NULL, NULL, &d), PF_INVALID_ARGUMENT);
    /* max_queries up to PF_BATCH_MAX_QUERIES, as a growing batch holds (2^20 - 1 was refused: a
     * review); flags of no PF_BATCH_* value refused, where they were ignored */
    assert_int_equal(pf_batch_check(m, &(pf_batch_desc){.max_queries = PF_BATCH_MAX_QUERIES}, &d), PF_OK);
    assert_int_equal(pf_batch_check(m, &(pf_batch_desc){.max_queries = PF_BATCH_MAX_QUERIES + 1u}, &d),
                     PF_INVALID_ARGUMENT);
    assert_int_equal(pf_batch_check(m, &(pf_batch_desc){.flags = 1u << 7}, &d), PF_INVALID_ARGUMENT);
    assert_non_null(strstr(d.msg, "flags"));
    pf_batch *fb;
    assert_int_equal(pf_batch_create(m, NULL, &fb), PF_OK);
    pf_query_id qid;
    assert_int_equal(pf_batch_submit(fb, &(pf_batch_query){.start = 0, .goal = 1, .flags = 1u << 9}, &qid),
                     PF_INVALID_ARGUMENT);
    pf_batch_destroy(fb);
    pf_map_destroy(m);
}

/* Workers times what each one holds (its context and arena) is bounded: sixteen 1 GiB arenas are
 * refused as a whole, at creation and by pf_batch_reserve, before anything is allocated. */
static void test_worker_total(void **state)
{
    (void)state;
    pf_map *m = open_grid(64, 64);
    tally t;
    tally_init(&t, (size_t)64 << 20);
    pf_batch *b = (pf_batch *)&b;
    pf_batch_desc bd = {.allocator = tally_hooks(&t), .workers = 16, .arena_bytes = PF_BATCH_MAX_ARENA_BYTES};
    assert_int_equal(pf_batch_create(m, &bd, &b), PF_TOO_LARGE);
    assert_null(b);
    bd.arena_bytes = 0;
    bd.reserve.arena_bytes = PF_BATCH_MAX_ARENA_BYTES;
    assert_int_equal(pf_batch_create(m, &bd, &b), PF_TOO_LARGE);
    assert_int_equal(t.calls, 0);
    pf_diag d;
    assert_int_equal(pf_batch_check(m, &bd, &d), PF_TOO_LARGE);
    assert_memory_equal(d.msg, "workers: ", 9);
    assert_non_null(strstr(d.msg, "PF_BATCH_MAX_WORKER_BYTES"));
    /* the same total reached later, through pf_batch_reserve */
    bd.reserve.arena_bytes = 0;
    assert_int_equal(pf_batch_create(m, &bd, &b), PF_OK);
    size_t calls = t.calls;
    assert_int_equal(pf_batch_reserve(b, &(pf_batch_reserve_desc){.arena_bytes = PF_BATCH_MAX_ARENA_BYTES}), PF_TOO_LARGE);
    assert_int_equal(t.calls, calls);
    /* well below it, a reservation is made */
    assert_int_equal(pf_batch_reserve(b, &(pf_batch_reserve_desc){.arena_bytes = (size_t)1 << 20}), PF_OK);
    pf_batch_destroy(b);
    assert_int_equal(t.live, 0);
    pf_map_destroy(m);
}

/* An open list never holds a node twice: a reservation of 128 Mi entries on a 4,096-node map makes
 * 4,096 (the issue: 2 GB allocated), through the desc's heap_capacity, its reserve.open_list and
 * pf_batch_reserve alike, for the workers' contexts and the spares made later. */
static void test_open_list_clamped(void **state)
{
    (void)state;
    pf_map *m = open_grid(64, 64);
    const size_t node_bytes = (size_t)64 * 64 * 16; /* an open list of one entry per node, about */
    tally t;
    tally_init(&t, (size_t)64 << 20);
    pf_batch *b = (pf_batch *)&b;
    /* a small arena, so that the largest request is an open list or the records */
    pf_batch_desc bd = {.allocator = tally_hooks(&t), .workers = 2, .suspend_slots = 2, .arena_bytes = 4096,
                        .reserve = {.open_list = 128u << 20}};
    assert_int_equal(pf_batch_create(m, &bd, &b), PF_OK);
    assert_true(t.largest <= 2 * node_bytes);
    assert_true(t.peak <= 32 * node_bytes);
    assert_int_equal(pf_batch_reserve(b, &(pf_batch_reserve_desc){.open_list = UINT32_MAX, .spares = 1}), PF_OK);
    assert_true(t.largest <= 2 * node_bytes);
    /* searches are unchanged, suspended ones included (in spares made with the clamped size) */
    pf_batch_query q = long_query(m);
    pf_query_id id;
    assert_int_equal(pf_batch_submit(b, &q, &id), PF_OK);
    pf_batch_result r = run_until_done(b, id, &(pf_batch_budget){.max_expansions = 500}, 100);
    assert_int_equal(r.status, PF_OK);
    assert_true(close_to(r.stats.cost, ref_cost(m, &q)));
    assert_true(pf_batch_get_stats(b).suspended > 0);
    assert_true(t.largest <= 2 * node_bytes);
    pf_batch_destroy(b);
    /* the desc's own open-list size */
    bd = (pf_batch_desc){.allocator = tally_hooks(&t), .workers = 1, .arena_bytes = 4096, .heap_capacity = 128u << 20};
    assert_int_equal(pf_batch_create(m, &bd, &b), PF_OK);
    assert_true(t.largest <= 2 * node_bytes);
    assert_int_equal(pf_batch_submit(b, &q, &id), PF_OK);
    r = run_until_done(b, id, &(pf_batch_budget){.max_expansions = 700}, 100);
    assert_int_equal(r.status, PF_OK);
    assert_true(close_to(r.stats.cost, ref_cost(m, &q)));
    assert_true(t.largest <= 2 * node_bytes);
    pf_batch_destroy(b);
    assert_int_equal(t.live, 0);
    pf_map_destroy(m);
}

/* ---- defect 8: spares made when a search is suspended ------------------------------------------- */

/* One query in a batch of 64 slots: no spare without a budget, and one (not 64) once a budget
 * suspends it, under an expansion budget and then a time budget (the one made is reused). */
static void test_spares_made_lazily(void **state)
{
    (void)state;
    pf_map *m = open_grid(256, 256);
    tally t;
    tally_init(&t, SIZE_MAX);
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.allocator = tally_hooks(&t), .workers = 2, .suspend_slots = 64}, &b),
                     PF_OK);
    const size_t ctx = pf_ctx_mem_size(b->workers[0].ctx), base = t.live, slack = (size_t)256 << 10;
    assert_true(ctx > 4 * slack); /* a second context would show */
    assert_int_equal(b->spare_made, 0);
    pf_batch_query q = long_query(m);
    const double want = ref_cost(m, &q);
    pf_query_id id;
    /* no budget: nothing is suspended, no spare is made */
    assert_int_equal(pf_batch_submit(b, &q, &id), PF_OK);
    pf_batch_result r = run_until_done(b, id, NULL, 1);
    assert_int_equal(r.status, PF_OK);
    assert_true(close_to(r.stats.cost, want));
    assert_int_equal(b->spare_made, 0);
    assert_true(t.peak <= base + slack);
    assert_int_equal(pf_batch_reset(b), PF_OK);
    /* an expansion budget: suspended over many runs in one spare */
    assert_int_equal(pf_batch_submit(b, &q, &id), PF_OK);
    r = run_until_done(b, id, &(pf_batch_budget){.max_expansions = 2000}, 200);
    assert_int_equal(r.status, PF_OK);
    assert_true(close_to(r.stats.cost, want));
    assert_true(pf_batch_get_stats(b).suspended > 0);
    assert_int_equal(pf_batch_get_stats(b).redone, 0);
    if (t.peak > base + ctx + slack)
        fail_msg("peak %zu bytes: more than one context (%zu) beyond the workers' (%zu)", t.peak, ctx, base);
    assert_int_equal(b->spare_made, 1);
    assert_int_equal(pf_batch_reset(b), PF_OK);
    /* a time budget: the same spare serves */
    assert_int_equal(pf_batch_submit(b, &q, &id), PF_OK);
    r = run_until_done(b, id, &(pf_batch_budget){.max_us = 300}, 100000);
    assert_int_equal(r.status, PF_OK);
    assert_true(close_to(r.stats.cost, want));
    assert_true(b->spare_made <= 1);
    assert_true(t.peak <= base + ctx + slack);
    pf_batch_destroy(b);
    assert_int_equal(t.live, 0);
    /* reserve.spares still makes them all ahead of the first frame (no hitch later) */
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.allocator = tally_hooks(&t), .workers = 1, .suspend_slots = 4,
                                                           .reserve = {.spares = 1}}, &b),
                     PF_OK);
    assert_int_equal(b->spare_made, pf__spares_total(4)); /* and the urgent slots' */
    assert_int_equal(b->nspare, pf__spares_total(4));
    pf_batch_destroy(b);
    assert_int_equal(t.live, 0);
    pf_map_destroy(m);
}

/* suspend_slots times the size of a context is bounded: 1,024 slots on a 1.1 M-cell grid (about
 * 18 GB of contexts) are refused at creation, naming suspend_slots, before anything is made. */
static void test_suspend_slots_bound(void **state)
{
    (void)state;
    pf_map *m = open_grid(1100, 1000);
    tally t;
    tally_init(&t, (size_t)64 << 20);
    pf_batch *b = (pf_batch *)&b;
    pf_batch_desc bd = {.allocator = tally_hooks(&t), .workers = 1, .suspend_slots = PF_BATCH_MAX_WORKERS};
    assert_int_equal(pf_batch_create(m, &bd, &b), PF_TOO_LARGE);
    assert_null(b);
    assert_int_equal(t.calls, 0);
    assert_int_equal(pf_batch_estimate(m, &bd), 0);
    pf_diag d;
    assert_int_equal(pf_batch_check(m, &bd, &d), PF_TOO_LARGE);
    assert_int_equal(d.status, PF_TOO_LARGE);
    assert_memory_equal(d.msg, "suspend_slots: 1024 spare contexts of ", 38);
    assert_non_null(strstr(d.msg, "exceed PF_BATCH_MAX_SPARE_BYTES (17179869184)"));
    /* fewer slots pass (the contexts would be made only as searches are suspended) */
    bd.suspend_slots = 64;
    assert_int_equal(pf_batch_check(m, &bd, &d), PF_OK);
    pf_map_destroy(m);
}

/* pf_batch_bounds_for names the bounds pf_batch_check holds to: the largest count passes and one more
 * is refused, for workers (with 1 GiB arenas, about 15 fit in 16 GiB) and suspend_slots (1100x1000:
 * contexts of 17.7 MB, about 900 fit), and the desc's own counts are not read. A fault in another
 * field is refused as pf_batch_check refuses it. (replay --slots and --workers found the bound by
 * bisecting pf_batch_check and reading which field its message named.) */
static void test_bounds_for(void **state)
{
    (void)state;
    pf_map *m = open_grid(1100, 1000);
    pf_diag d;
    pf_batch_bounds lim = {7, 7};
    pf_batch_desc bd = {.workers = 1000, .suspend_slots = 1000, .arena_bytes = PF_BATCH_MAX_ARENA_BYTES};
    assert_int_equal(pf_batch_bounds_for(m, &bd, &lim, &d), PF_OK);
    assert_true(lim.max_workers > 1 && lim.max_workers < 16);
    assert_true(lim.max_suspend_slots > 64 && lim.max_suspend_slots < PF_BATCH_MAX_WORKERS);
    bd.workers = lim.max_workers;
    bd.suspend_slots = lim.max_suspend_slots;
    assert_int_equal(pf_batch_check(m, &bd, &d), PF_OK);
    bd.workers++;
    assert_int_equal(pf_batch_check(m, &bd, &d), PF_TOO_LARGE);
    assert_memory_equal(d.msg, "workers: ", 9);
    bd.workers--;
    bd.suspend_slots++;
    assert_int_equal(pf_batch_check(m, &bd, &d), PF_TOO_LARGE);
    assert_memory_equal(d.msg, "suspend_slots: ", 15);
    /* a small map: PF_BATCH_MAX_WORKERS bounds both */
    pf_map *small = open_grid(8, 8);
    assert_int_equal(pf_batch_bounds_for(small, NULL, &lim, NULL), PF_OK);
    assert_int_equal(lim.max_workers, PF_BATCH_MAX_WORKERS);
    assert_int_equal(lim.max_suspend_slots, PF_BATCH_MAX_WORKERS);
    /* another field at fault: refused as pf_batch_check does, the bounds zeroed */
    lim = (pf_batch_bounds){7, 7};
    assert_int_equal(pf_batch_bounds_for(m, &(pf_batch_desc){.flags = 1u << 7}, &lim, &d), PF_INVALID_ARGUMENT);
    assert_memory_equal(d.msg, "flags: ", 7);
    assert_int_equal(lim.max_workers, 0);
    assert_int_equal(lim.max_suspend_slots, 0);
    assert_int_equal(pf_batch_bounds_for(NULL, NULL, &lim, &d), PF_INVALID_ARGUMENT);
    assert_int_equal(pf_batch_bounds_for(m, NULL, NULL, &d), PF_INVALID_ARGUMENT);
    pf_map_destroy(small);
    pf_map_destroy(m);
}

/* The slot holder keeps its search when the spare is made lazily too: the job that only runs
 * ahead of the account goes first and may not make the one spare the admitted search will need. */
static void test_owed_spare_made_lazily(void **state)
{
    (void)state;
    pf_map *m = open_grid(200, 160);
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 2, .suspend_slots = 1}, &b), PF_OK);
    pf_query_id id[2];
    pf_batch_query q[2];
    for (int k = 0; k < 2; k++) {
        q[k] = (pf_batch_query){.start = pf_grid_node(m, 4 + k * 4, 4), .goal = pf_grid_node(m, 190 - k * 4, 150),
                                .search = {.algo = PF_ALGO_DIJKSTRA}};
        assert_int_equal(pf_batch_submit(b, &q[k], &id[k]), PF_OK);
    }
    const pf_batch_budget bud = {.max_expansions = 300};
    for (int run = 0; run < 4; run++) {
        assert_int_equal(pf_batch_prepare(b, &bud), PF_OK);
        assert_int_equal(pf_batch_job_count(b), 2);
        uint32_t order[2] = {0, 1};
        if (b->jobs[b->run[0]].role) order[0] = 1, order[1] = 0; /* the slot holder last */
        assert_int_equal(b->jobs[b->run[order[0]]].role, 0);
        for (int k = 0; k < 2; k++) assert_int_equal(pf_batch_run_job(b, order[k], (uint32_t)k), PF_OK);
        assert_int_equal(pf_batch_finish(b), PF_OK);
        const pf__job *hj = &b->jobs[b->run[order[1]]];
        assert_int_equal(hj->state, PF__J_SUSPENDED);
        assert_non_null(hj->held);
        assert_int_equal(b->spare_made, 1);
        assert_int_equal(pf_batch_get_stats(b).redone, 0);
    }
    assert_int_equal(pf_batch_run(b, NULL), PF_OK);
    for (int k = 0; k < 2; k++) {
        pf_batch_result r;
        assert_int_equal(pf_batch_get(b, id[k], &r), PF_OK);
        assert_int_equal(r.status, PF_OK);
        assert_true(close_to(r.stats.cost, ref_cost(m, &q[k])));
    }
    pf_batch_destroy(b);
    pf_map_destroy(m);
}

/* A spare that cannot be made when the search is suspended (the allocator refuses) costs work, not
 * the search: it is redone up to its progress in the next run, finishes with the right answer, and
 * the failure is counted. */
static void test_spare_out_of_memory(void **state)
{
    (void)state;
    pf_map *m = open_grid(256, 256);
    tally t;
    tally_init(&t, SIZE_MAX);
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.allocator = tally_hooks(&t), .workers = 1, .suspend_slots = 2}, &b),
                     PF_OK);
    t.limit = (size_t)128 << 10; /* a context's records (1 MiB) no longer fit; the tables do */
    pf_batch_query q = long_query(m);
    pf_query_id id;
    assert_int_equal(pf_batch_submit(b, &q, &id), PF_OK);
    pf_batch_result r = run_until_done(b, id, &(pf_batch_budget){.max_expansions = 5000}, 100);
    assert_int_equal(r.status, PF_OK);
    assert_true(close_to(r.stats.cost, ref_cost(m, &q)));
    pf_batch_stats st = pf_batch_get_stats(b);
    assert_true(st.spare_failed > 0);
    assert_true(st.redone > 0);
    assert_int_equal(b->spare_made, 0);
    /* once memory is back, the next suspended search keeps its spare */
    t.limit = SIZE_MAX;
    assert_int_equal(pf_batch_reset(b), PF_OK);
    assert_int_equal(pf_batch_submit(b, &q, &id), PF_OK);
    uint64_t redone = st.redone;
    r = run_until_done(b, id, &(pf_batch_budget){.max_expansions = 5000}, 100);
    assert_int_equal(r.status, PF_OK);
    assert_int_equal(pf_batch_get_stats(b).redone, redone);
    assert_int_equal(b->spare_made, 1);
    pf_batch_destroy(b);
    assert_int_equal(t.live, 0);
    pf_map_destroy(m);
}

/* Spares made lazily by concurrent workers keep lockstep: under an expansion budget each query
 * completes in the same run, with the same path, on 1, 2 or 4 engine threads, and no more spares
 * exist than slots. */
typedef struct lockstep { uint32_t run[32]; uint64_t path[32]; double cost[32]; uint32_t made; } lockstep;

static void lockstep_case(const pf_map *m, uint32_t workers, lockstep *out)
{
    pf_batch *b;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = workers, .suspend_slots = 6}, &b), PF_OK);
    uint64_t s = 77;
    pf_query_id id[32];
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t a = open_cell(m, &s), g = open_cell(m, &s);
        pf_batch_query q = {.start = a, .goal = g, .search = {.algo = i % 3 ? PF_ALGO_ASTAR : PF_ALGO_DIJKSTRA},
                            .priority = i % 5 == 0 ? PF_PRIORITY_BACKGROUND : PF_PRIORITY_NORMAL, .tag = i};
        assert_int_equal(pf_batch_submit(b, &q, &id[i]), PF_OK);
        out->run[i] = UINT32_MAX;
    }
    for (uint32_t run = 0, left = 32; left; run++) {
        if (run > 5000) fail_msg("not converging");
        assert_int_equal(example_run_pthreads(b, workers, &(pf_batch_budget){.max_expansions = 1500}), PF_OK);
        for (uint32_t i = 0; i < 32; i++) {
            pf_batch_result r;
            if (out->run[i] != UINT32_MAX) continue;
            assert_int_equal(pf_batch_get(b, id[i], &r), PF_OK);
            if (r.status == PF_IN_PROGRESS) continue;
            out->run[i] = run;
            out->cost[i] = r.stats.cost;
            uint64_t hsh = 1469598103934665603ull;
            for (uint32_t k = 0; k < r.path_len; k++) hsh = (hsh ^ r.path[k]) * 1099511628211ull;
            out->path[i] = hsh;
            left--;
        }
    }
    out->made = b->spare_made;
    assert_true(pf_batch_get_stats(b).suspended > 0);
    pf_batch_destroy(b);
}

static void test_lazy_spares_lockstep(void **state)
{
    (void)state;
    uint64_t s = 3;
    static uint8_t cells[160 * 120];
    for (size_t i = 0; i < sizeof cells; i++) cells[i] = rng_below(&s, 100) < 25 ? 0 : 1;
    pf_map *m = grid_make(160, 120, PF_MOVES_DEFAULT, cells, NULL);
    static lockstep ref, got;
    lockstep_case(m, 1, &ref);
    print_message("spares made: %u of 6 (1 worker)\n", ref.made);
    assert_true(ref.made >= 1 && ref.made <= 6);
    for (uint32_t workers = 2; workers <= 4; workers += 2) {
        lockstep_case(m, workers, &got);
        assert_memory_equal(got.run, ref.run, sizeof ref.run);
        assert_memory_equal(got.path, ref.path, sizeof ref.path);
        assert_memory_equal(got.cost, ref.cost, sizeof ref.cost);
        print_message("spares made: %u of 6 (%u workers)\n", got.made, workers);
        assert_true(got.made <= 6);
    }
    pf_map_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arena_every_door),
        cmocka_unit_test(test_worker_total),
        cmocka_unit_test(test_open_list_clamped),
        cmocka_unit_test(test_spares_made_lazily),
        cmocka_unit_test(test_suspend_slots_bound),
        cmocka_unit_test(test_bounds_for),
        cmocka_unit_test(test_owed_spare_made_lazily),
        cmocka_unit_test(test_spare_out_of_memory),
        cmocka_unit_test(test_lazy_spares_lockstep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
