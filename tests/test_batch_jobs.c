/* test_batch_jobs.c - the job-system path (examples/jobs_pthreads.c, plain POSIX threads) gives the
 * same results as the OpenMP driver, unbudgeted and budgeted. */
#define PF_EXAMPLE_NO_MAIN
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* as the example sets it */
#endif
#include <errno.h>
#include <pthread.h>
/* The example's thread starts, failing on demand: with g_fail_first, the first thread of every run
 * (worker 1) cannot start while the second (worker 2) does. The example joined threads 1..started:
 * a never-made worker 1, and never worker 2, still running jobs as pf_batch_finish ran. */
static int g_fail_first, g_creates;
static int flaky_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
    if (g_fail_first && g_creates++ % 2 == 0) return EAGAIN;
    return pthread_create(t, a, fn, arg);
}
#define pthread_create flaky_create
#include "../examples/jobs_pthreads.c"
#undef pthread_create
#include "testutil.h"
#include "maps.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static pf_map *make_map(uint64_t seed)
{
    enum { W = 200, H = 160 };
    static uint8_t cls[W * H];
    static float cost[W * H];
    for (int i = 0; i < W * H; i++) {
        cls[i] = lcg_next(&seed) % 100 < 22 ? 0 : 1;
        cost[i] = 1.0f + (float)(lcg_next(&seed) % 4) * 0.5f;
    }
    return grid_make(W, H, PF_MOVES_DEFAULT, cls, cost);
}

static void compare_paths(const pf_batch *a, pf_query_id ia, const pf_batch *b, pf_query_id ib)
{
    pf_batch_result x, y;
    assert_int_equal(pf_batch_get(a, ia, &x), PF_OK);
    assert_int_equal(pf_batch_get(b, ib, &y), PF_OK);
    assert_int_equal(x.status, y.status);
    assert_int_equal(x.tag, y.tag);
    assert_memory_equal(&x.stats.cost, &y.stats.cost, sizeof x.stats.cost);
    assert_int_equal(x.path_len, y.path_len);
    if (x.path_len) assert_memory_equal(x.path, y.path, x.path_len * sizeof *x.path);
}

static void run_case(const pf_batch_budget *budget)
{
    pf_map *m = make_map(42);
    pf_batch *omp, *job;
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 2}, &omp), PF_OK);
    assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 3}, &job), PF_OK);
    uint32_t n = (uint32_t)(1500 * env_scale());
    pf_query_id *io = malloc(n * sizeof *io), *ij = malloc(n * sizeof *ij);
    uint64_t s = 7;
    uint32_t nodes = pf_map_node_count(m), goal = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i % 50 == 0) goal = lcg_next(&s) % nodes;
        pf_batch_query q = {.start = lcg_next(&s) % nodes, .goal = i % 5 == 0 ? goal : lcg_next(&s) % nodes, .tag = i};
        if (i % 9 == 0 && i) q.start = (q.start + 1) % nodes; /* near-duplicates */
        assert_int_equal(pf_batch_submit(omp, &q, &io[i]), PF_OK);
        assert_int_equal(pf_batch_submit(job, &q, &ij[i]), PF_OK);
    }
    for (int runs = 0; pf_batch_get_stats(omp).pending; runs++) {
        assert_true(runs < 100000);
        assert_int_equal(pf_batch_run(omp, budget), PF_OK);
    }
    for (int runs = 0; pf_batch_get_stats(job).pending; runs++) {
        assert_true(runs < 100000);
        assert_int_equal(example_run_pthreads(job, 3, budget), PF_OK);
    }
    for (uint32_t i = 0; i < n; i++) compare_paths(omp, io[i], job, ij[i]);
    free(io);
    free(ij);
    pf_batch_destroy(omp);
    pf_batch_destroy(job);
    pf_map_destroy(m);
}

static void test_jobs_equal_openmp(void **state)
{
    (void)state;
    run_case(NULL);
}

static void test_jobs_equal_openmp_budgeted(void **state)
{
    (void)state;
    run_case(&(pf_batch_budget){.max_expansions = 20000});
}

/* A thread the engine could not start leaves its jobs to the others, and only the threads that
 * started are joined */
static void test_jobs_thread_not_started(void **state)
{
    (void)state;
    g_fail_first = 1;
    g_creates = 0;
    run_case(&(pf_batch_budget){.max_expansions = 20000});
    g_fail_first = 0;
    assert_true(g_creates > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_jobs_equal_openmp),
                                       cmocka_unit_test(test_jobs_equal_openmp_budgeted),
                                       cmocka_unit_test(test_jobs_thread_not_started)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
