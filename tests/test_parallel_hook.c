/* test_parallel_hook.c - the builders' loops on a user's parallel-for hook (pf_parallel.h): a
 * serial hook, one running the jobs backwards with scattered worker indices, and one on pthreads
 * each build the same bytes as the default (OpenMP) build: JPS tables, the accelerator and the
 * first-move table. The hooks also check the contract they are handed (every job once, worker
 * indices in range). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pathfind.h"
#include "jps/jps_internal.h"
#include "testutil.h"
#include "maps.h"

typedef struct hook_log {
    uint32_t calls, jobs, max_workers, bad; /* bad: a job index or worker out of range */
} hook_log;

static void serial_run(void *user, uint32_t jobs, uint32_t workers, pf_parallel_job_fn job, void *ctx)
{
    hook_log *l = user;
    l->calls++;
    l->jobs += jobs;
    if (workers > l->max_workers) l->max_workers = workers;
    for (uint32_t j = 0; j < jobs; j++) job(ctx, j, 0);
}

static void reverse_run(void *user, uint32_t jobs, uint32_t workers, pf_parallel_job_fn job, void *ctx)
{
    hook_log *l = user;
    l->calls++;
    l->jobs += jobs;
    if (workers > l->max_workers) l->max_workers = workers;
    if (!workers) l->bad++;
    for (uint32_t j = jobs; j-- > 0;) job(ctx, j, workers ? (j * 7u + 3u) % workers : 0);
}

typedef struct pool {
    uint32_t           jobs, next;
    pthread_mutex_t    lock;
    pf_parallel_job_fn job;
    void              *ctx;
} pool;

typedef struct pool_arg {
    pool    *p;
    uint32_t worker;
} pool_arg;

static void *pool_main(void *arg)
{
    pool_arg *a = arg;
    for (;;) {
        pthread_mutex_lock(&a->p->lock);
        uint32_t j = a->p->next++;
        pthread_mutex_unlock(&a->p->lock);
        if (j >= a->p->jobs) return NULL;
        a->p->job(a->p->ctx, j, a->worker);
    }
}

/* `workers` threads, the calling one among them, taking jobs from a shared counter */
static void threads_run(void *user, uint32_t jobs, uint32_t workers, pf_parallel_job_fn job, void *ctx)
{
    hook_log *l = user;
    l->calls++;
    l->jobs += jobs;
    if (workers > l->max_workers) l->max_workers = workers;
    pool p = {jobs, 0, PTHREAD_MUTEX_INITIALIZER, job, ctx};
    pthread_t th[8];
    pool_arg args[8];
    uint32_t n = workers < 8 ? workers : 8;
    for (uint32_t w = 0; w < n; w++) args[w] = (pool_arg){&p, w};
    for (uint32_t w = 1; w < n; w++) assert_int_equal(pthread_create(&th[w], NULL, pool_main, &args[w]), 0);
    pool_main(&args[0]);
    for (uint32_t w = 1; w < n; w++) pthread_join(th[w], NULL);
}

/* The last: a worker count far past any machine's (a config field unchecked), which the builders
 * hold to PF_PARALLEL_MAX_WORKERS; the accelerator's build sized its per-worker scratch by it and
 * wrote past a block of (size_t)-1 * its size rounded to nothing. */
enum { HOOKS = 4 };
static const pf_parallel_for_fn hook_fns[HOOKS] = {serial_run, reverse_run, threads_run, reverse_run};
static const uint32_t hook_workers[HOOKS] = {1, 5, 3, UINT32_MAX};
static const char *const hook_names[HOOKS] = {"serial", "reverse", "pthreads", "reverse, UINT32_MAX workers"};

/* What a hook may be handed: its own workers, at most PF_PARALLEL_MAX_WORKERS. */
static uint32_t workers_cap(int h)
{
    return hook_workers[h] < PF_PARALLEL_MAX_WORKERS ? hook_workers[h] : PF_PARALLEL_MAX_WORKERS;
}

/* cells blocked at random, and `walls` more, every 97th open one from the start */
static pf_map *random_map(uint64_t seed, uint32_t w, uint32_t h, double density, uint32_t walls)
{
    uint64_t rs = seed;
    uint8_t *c = malloc((size_t)w * h);
    for (size_t i = 0; i < (size_t)w * h; i++) c[i] = rng_unit(&rs) < density ? 0 : 1;
    for (size_t i = 0; walls && i < (size_t)w * h; i += 97)
        if (c[i]) {
            c[i] = 0;
            walls--;
        }
    pf_map *m = grid_make(w, h, PF_MOVES_DEFAULT, c, NULL);
    free(c);
    return m;
}

static void assert_jps_equal(const pf_jps_table *a, const pf_jps_table *b, const pf_map *m)
{
    size_t rb = (size_t)m->ph * a->rw * sizeof(uint64_t), cb = (size_t)m->pw * a->cw * sizeof(uint64_t);
    for (int k = 0; k < 256; k++) {
        assert_true((a->rows[k] == NULL) == (b->rows[k] == NULL));
        if (!a->rows[k]) continue;
        assert_memory_equal(a->rows[k], b->rows[k], rb);
        assert_memory_equal(a->cols[k], b->cols[k], cb);
    }
    assert_non_null(a->dist);
    assert_memory_equal(a->dist, b->dist, (size_t)m->pw * m->ph * 8u * sizeof(int16_t));
}

/* 600 x 520 cells: over the size below which builds stay on one thread */
static void test_jps(void **state)
{
    (void)state;
    pf_map *m = random_map(28, 600, 520, 0.25, 0);
    pf_jps_table *ref;
    assert_int_equal(pf_jps_table_create(m, NULL, &ref), PF_OK);
    for (int h = 0; h < HOOKS; h++) {
        hook_log log = {0};
        pf_jps_table *t;
        pf_jps_desc d = {.parallel = {hook_fns[h], &log, hook_workers[h]}};
        assert_int_equal(pf_jps_table_create(m, &d, &t), PF_OK);
        print_message("jps, %s hook: %u loops, %u jobs, up to %u workers\n", hook_names[h], log.calls, log.jobs,
                      log.max_workers);
        assert_int_equal(log.bad, 0);
        assert_true(hook_workers[h] == 1 ? log.calls == 0 : log.calls >= 3); /* one worker: no hook */
        assert_true(log.max_workers <= workers_cap(h));
        assert_jps_equal(ref, t, m);
        pf_jps_table_destroy(t);
    }
    pf_jps_table_destroy(ref);
    pf_map_destroy(m);
}

/* A context given no JPS table builds its own data through pf_ctx_desc.parallel: the hook runs it,
 * and JPS and JPS+ answer as on a context that built it on OpenMP. */
static void test_ctx_builds(void **state)
{
    (void)state;
    pf_map *m = random_map(29, 600, 520, 0.25, 0);
    pf_ctx *ref;
    assert_int_equal(pf_ctx_create(m, NULL, &ref), PF_OK);
    for (int h = 1; h < HOOKS; h++) {
        hook_log log = {0};
        pf_ctx *c;
        assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.parallel = {hook_fns[h], &log, hook_workers[h]}}, &c), PF_OK);
        uint64_t rs = 31;
        for (int q = 0; q < 40; q++) {
            uint32_t s = rng_below(&rs, 600 * 520), g = rng_below(&rs, 600 * 520);
            pf_search_desc d = {.algo = q % 2 ? PF_ALGO_JPS_PLUS : PF_ALGO_JPS};
            pf_stats a, b;
            pf_status sa = pf_search(ref, s, g, &d, NULL, &a), sb = pf_search(c, s, g, &d, NULL, &b);
            assert_int_equal(sa, sb);
            if (sa == PF_OK) {
                assert_true(a.cost == b.cost);
                assert_int_equal(a.expanded, b.expanded);
            }
        }
        print_message("context, %s hook: %u loops, %u jobs\n", hook_names[h], log.calls, log.jobs);
        assert_int_equal(log.bad, 0);
        assert_true(log.calls >= 2); /* the bitmaps and the distances */
        pf_ctx_destroy(c);
    }
    pf_ctx_destroy(ref);
    pf_map_destroy(m);
}

/* A batch's contexts build on its hook (pf_batch_desc.parallel) too, and so does the table
 * reserve.algos makes: an engine driving the job API woke no OpenMP team only if none of them
 * built (a review: a JPS+ query's first search in a context on a 600x600 map started one from the
 * engine's thread). Answers equal a batch without the hook. */
static void test_batch_builds(void **state)
{
    (void)state;
    pf_map *m = random_map(41, 600, 520, 0.25, 0);
    const uint32_t n = 24;
    for (int h = 1; h < HOOKS; h++) {
        for (int reserve = 0; reserve < 2; reserve++) {
            hook_log log = {0};
            pf_batch *b, *ref;
            /* one worker: the hooks' logs are not for concurrent calls */
            pf_batch_desc d = {.workers = 1, .parallel = {hook_fns[h], &log, hook_workers[h]}};
            if (reserve) d.reserve.algos = 1u << PF_ALGO_JPS_PLUS;
            assert_int_equal(pf_batch_create(m, &d, &b), PF_OK);
            assert_int_equal(pf_batch_create(m, &(pf_batch_desc){.workers = 1}, &ref), PF_OK);
            const uint32_t made = log.calls;
            if (reserve) assert_true(made >= 2); /* the shared table's bitmaps and distances */
            pf_query_id ib[24], ir[24];
            uint64_t rs = 43;
            for (uint32_t q = 0; q < n; q++) {
                pf_batch_query bq = {.start = rng_below(&rs, 600 * 520), .goal = rng_below(&rs, 600 * 520),
                                     .search = {.algo = q % 2 ? PF_ALGO_JPS_PLUS : PF_ALGO_JPS}, .tag = q};
                assert_int_equal(pf_batch_submit(b, &bq, &ib[q]), PF_OK);
                assert_int_equal(pf_batch_submit(ref, &bq, &ir[q]), PF_OK);
            }
            assert_int_equal(pf_batch_run(b, NULL), PF_OK);
            assert_int_equal(pf_batch_run(ref, NULL), PF_OK);
            for (uint32_t q = 0; q < n; q++) {
                pf_batch_result x, y;
                assert_int_equal(pf_batch_get(b, ib[q], &x), PF_OK);
                assert_int_equal(pf_batch_get(ref, ir[q], &y), PF_OK);
                assert_int_equal(x.status, y.status);
                if (x.status == PF_OK) assert_true(x.stats.cost == y.stats.cost);
            }
            print_message("batch, %s hook, reserve %d: %u loops at creation, %u in all\n", hook_names[h], reserve, made,
                          log.calls);
            assert_int_equal(log.bad, 0);
            if (!reserve) assert_true(log.calls >= 2); /* the contexts' own bitmaps and distances */
            pf_batch_destroy(ref);
            pf_batch_destroy(b);
        }
    }
    pf_map_destroy(m);
}

/* A context's own JPS+ distances that a large edit makes again in place (past the budget of a
 * follow cell by cell) are made on its hook, as its searches' builds are: they ran on OpenMP's
 * default team inside pf_grid_apply_edits, the hook not called (a review). And the same for a
 * class new to the map. Answers equal a context without a hook on the same edited map. */
static void test_ctx_edit_on_hook(void **state)
{
    (void)state;
    for (int h = 1; h < HOOKS; h++) {
        pf_map *m = random_map(30, 600, 520, 0.25, 0);
        hook_log log = {0};
        pf_ctx *c, *ref;
        assert_int_equal(pf_ctx_create(m, &(pf_ctx_desc){.parallel = {hook_fns[h], &log, hook_workers[h]}}, &c), PF_OK);
        assert_int_equal(pf_ctx_create(m, NULL, &ref), PF_OK);
        const uint32_t s0 = pf_grid_node(m, 3, 3), g0 = pf_grid_node(m, 590, 510);
        pf_stats a, b;
        (void)pf_search(c, s0, g0, &(pf_search_desc){.algo = PF_ALGO_JPS_PLUS}, NULL, &a); /* its own data */
        const uint32_t built = log.calls;
        /* a 300x300 block of open ground: past the budget, the distances again in place */
        pf_grid_edit e = {.rect = {150, 100, 300, 300}, .cls = 1};
        assert_int_equal(pf_grid_apply_edits(m, &e, 1, NULL), PF_OK);
        print_message("context edit, %s hook: %u loops before the edit, %u after\n", hook_names[h], built, log.calls);
        assert_true(log.calls > built);
        const uint32_t edited = log.calls;
        uint64_t rs = 37;
        for (int q = 0; q < 20; q++) {
            uint32_t s = rng_below(&rs, 600 * 520), g = rng_below(&rs, 600 * 520);
            pf_search_desc d = {.algo = PF_ALGO_JPS_PLUS};
            pf_status sa = pf_search(ref, s, g, &d, NULL, &a), sb = pf_search(c, s, g, &d, NULL, &b);
            assert_int_equal(sa, sb);
            if (sa == PF_OK) assert_true(a.cost == b.cost);
        }
        assert_int_equal(log.bad, 0);
        (void)edited;
        pf_ctx_destroy(ref);
        pf_ctx_destroy(c);
        pf_map_destroy(m);
    }
}

static uint8_t *accel_bytes(const pf_accel *a, size_t *n)
{
    *n = pf_accel_file_size(a);
    uint8_t *b = malloc(*n);
    assert_int_equal(pf_accel_save_mem(a, b, *n, NULL), PF_OK);
    return b;
}

static void test_accel(void **state)
{
    (void)state;
    /* over 2^18 cells (builds on fewer stay on one thread) and 40% blocked: on an open map (6%) the
     * subgoals have hundreds of arcs each and the four builds took 37 s (15 minutes under TSan) */
    pf_map *m = random_map(2828, 560, 500, 0.40, 0);
    pf_accel *ref;
    assert_int_equal(pf_accel_create(m, NULL, &ref), PF_OK);
    size_t nref;
    uint8_t *bref = accel_bytes(ref, &nref);
    pf_accel_info info = pf_accel_get_info(ref);
    print_message("accelerator: %u subgoals\n", info.subgoals);
    assert_true(info.subgoals > 20000); /* the contraction's first rounds run in parallel */
    for (int h = 0; h < HOOKS; h++) {
        hook_log log = {0};
        pf_accel *a;
        pf_accel_desc d = {.parallel = {hook_fns[h], &log, hook_workers[h]}};
        assert_int_equal(pf_accel_create(m, &d, &a), PF_OK);
        print_message("accel, %s hook: %u loops, %u jobs\n", hook_names[h], log.calls, log.jobs);
        assert_int_equal(log.bad, 0);
        assert_true(hook_workers[h] == 1 ? log.calls == 0 : log.calls >= 6);
        assert_true(log.max_workers <= workers_cap(h));
        size_t n;
        uint8_t *b = accel_bytes(a, &n);
        assert_int_equal(n, nref);
        assert_memory_equal(b, bref, n);
        free(b);
        pf_accel_destroy(a);
    }
    free(bref);
    pf_accel_destroy(ref);
    pf_map_destroy(m);
}

static uint8_t *table_bytes(const pf_table *t, size_t *n)
{
    *n = pf_table_file_size(t);
    uint8_t *b = malloc(*n);
    assert_int_equal(pf_table_save_mem(t, b, *n, NULL), PF_OK);
    return b;
}

static void test_table(void **state)
{
    (void)state;
    pf_map *m = random_map(5, 48, 40, 0.2, 0);
    pf_table *ref;
    assert_int_equal(pf_table_create(m, &(pf_table_desc){.threads = 2}, &ref), PF_OK);
    size_t nref;
    uint8_t *bref = table_bytes(ref, &nref);
    /* an edit, for the update's waves */
    pf_map *m2 = random_map(5, 48, 40, 0.2, 3);
    for (int h = 0; h < HOOKS; h++) {
        hook_log log = {0};
        pf_table *t;
        pf_parallel_for hook = {hook_fns[h], &log, hook_workers[h]};
        assert_int_equal(pf_table_create(m, &(pf_table_desc){.parallel = hook}, &t), PF_OK);
        assert_int_equal(log.bad, 0);
        assert_true(hook_workers[h] == 1 ? log.calls == 0 : log.calls == 1);
        assert_true(log.max_workers <= workers_cap(h));
        size_t n;
        uint8_t *b = table_bytes(t, &n);
        assert_int_equal(n, nref);
        assert_memory_equal(b, bref, n);
        free(b);
        /* the update on the hook against the update on OpenMP */
        pf_table *u1;
        assert_int_equal(pf_table_create(m, NULL, &u1), PF_OK);
        pf_table_report r1, r2;
        assert_int_equal(pf_table_update(u1, m2, &(pf_table_update_desc){.threads = 2}, &r1), PF_OK);
        assert_int_equal(pf_table_update(t, m2, &(pf_table_update_desc){.parallel = hook}, &r2), PF_OK);
        assert_int_equal(r1.rows_examined, r2.rows_examined);
        assert_int_equal(r1.rows_changed, r2.rows_changed);
        uint8_t *b1 = table_bytes(u1, &n), *b2 = table_bytes(t, &nref);
        assert_int_equal(n, nref);
        assert_memory_equal(b1, b2, n);
        free(b1);
        free(b2);
        nref = n = 0;
        pf_table_destroy(u1);
        pf_table_destroy(t);
        free(bref);
        bref = table_bytes(ref, &nref);
    }
    free(bref);
    pf_table_destroy(ref);
    pf_map_destroy(m2);
    pf_map_destroy(m);
}

/* An engine thread that edits the map while a builder runs on the engine's job threads: the hook
 * edits it in the middle of its first loop. The edit is refused (PF_MAP_BUSY) until what is built
 * follows the map: it was taken, and the table answered paths through walls, the accelerator
 * costs 1.4x the shortest as exact (a review). JPS tables were held already. */
typedef struct edit_hook {
    pf_map   *map;
    pf_rect   cell;
    pf_status got;
    uint32_t  calls;
} edit_hook;

static void editing_run(void *user, uint32_t jobs, uint32_t workers, pf_parallel_job_fn job, void *ctx)
{
    edit_hook *e = user;
    (void)workers;
    for (uint32_t j = 0; j < jobs; j++) {
        if (e->calls == 0 && j == jobs / 2) {
            const uint8_t cls = pf_grid_class(e->map, e->cell.x, e->cell.y) ? 0 : 1;
            e->got = pf_grid_apply_edits(e->map, &(pf_grid_edit){.rect = e->cell, .cls = cls}, 1, NULL);
        }
        job(ctx, j, 0);
    }
    e->calls++;
}

static void test_edit_during_build(void **state)
{
    (void)state;
    pf_map *m = random_map(5, 48, 40, 0.2, 0), *m2 = random_map(5, 48, 40, 0.2, 3);
    edit_hook e = {.map = m, .cell = {3, 20, 1, 1}, .got = PF_OK};
    pf_table *t;
    assert_int_equal(pf_table_create(m, &(pf_table_desc){.parallel = {editing_run, &e, 2}}, &t), PF_OK);
    assert_int_equal(e.calls, 1);
    assert_int_equal(e.got, PF_MAP_BUSY);
    assert_int_equal(pf_map_version(m), 0);
    /* the update holds both maps: the one it leaves and the one it goes to */
    e = (edit_hook){.map = m2, .cell = {5, 7, 1, 1}, .got = PF_OK};
    assert_int_equal(pf_table_update(t, m2, &(pf_table_update_desc){.parallel = {editing_run, &e, 2}}, NULL), PF_OK);
    assert_true(e.calls >= 1); /* a loop a wave */
    assert_int_equal(e.got, PF_MAP_BUSY);
    assert_int_equal(pf_map_version(m2), 0);
    /* released: an edit goes through now, and the table follows it */
    const uint8_t c = pf_grid_class(m2, 5, 7) ? 0 : 1;
    assert_int_equal(pf_grid_apply_edits(m2, &(pf_grid_edit){.rect = {5, 7, 1, 1}, .cls = c}, 1, NULL), PF_OK);
    pf_table *fresh;
    assert_int_equal(pf_table_create(m2, NULL, &fresh), PF_OK);
    size_t n1, n2;
    uint8_t *b1 = table_bytes(t, &n1), *b2 = table_bytes(fresh, &n2);
    assert_int_equal(n1, n2);
    assert_memory_equal(b1, b2, n1);
    free(b1);
    free(b2);
    pf_table_destroy(fresh);
    pf_table_destroy(t);
    pf_map_destroy(m2);
    pf_map_destroy(m);

    /* the accelerator (its loops go to the hook over 2^18 cells), following edits by its diff or not */
    pf_map *big = random_map(2828, 560, 500, 0.40, 0);
    for (int check = 0; check < 2; check++) {
        e = (edit_hook){.map = big, .cell = {280, 250, 1, 1}, .got = PF_OK};
        pf_accel *a;
        pf_accel_desc d = {.parallel = {editing_run, &e, 2}, .edits = check ? PF_ACCEL_EDITS_CHECK : PF_ACCEL_EDITS_STALE};
        assert_int_equal(pf_accel_create(big, &d, &a), PF_OK);
        assert_true(e.calls >= 1);
        assert_int_equal(e.got, PF_MAP_BUSY);
        assert_int_equal(pf_map_version(big), 0);
        assert_true(pf_accel_current(a, big));
        pf_accel_destroy(a);
    }
    pf_map_destroy(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_jps), cmocka_unit_test(test_ctx_builds), cmocka_unit_test(test_ctx_edit_on_hook),
                                       cmocka_unit_test(test_batch_builds), cmocka_unit_test(test_accel),
                                       cmocka_unit_test(test_table), cmocka_unit_test(test_edit_during_build)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
