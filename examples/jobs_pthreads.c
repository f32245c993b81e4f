/* jobs_pthreads.c - driving a pf_batch from an engine's own threads (POSIX threads here), no OpenMP.
 *
 * The batch exposes its work as jobs: prepare, run every job exactly once on any worker slot (one
 * thread per slot at a time), finish. Here each thread owns worker slot `w` and pulls job indices
 * from a shared atomic counter, which is the dynamic schedule an engine's job system would give.
 *
 * tests/test_batch_jobs.c includes this file (with PF_EXAMPLE_NO_MAIN) and checks that
 * example_run_pthreads gives the same results as pf_batch_run.
 *
 *     usage: example_jobs_pthreads [MAP.map [THREADS]]   (default: a generated 256x256 grid, 2 threads)
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include "pathfind.h"

typedef struct example_pool {
    pf_batch   *batch;
    atomic_uint next; /* next job index to hand out */
    uint32_t    jobs;
} example_pool;

typedef struct example_thread {
    example_pool *pool;
    uint32_t      worker;
    pthread_t     tid;
    int           started; /* pthread_create succeeded: join it */
} example_thread;

static void *example_worker_main(void *arg)
{
    example_thread *t = arg;
    for (;;) {
        uint32_t j = atomic_fetch_add(&t->pool->next, 1u);
        if (j >= t->pool->jobs) break;
        pf_batch_run_job(t->pool->batch, j, t->worker); /* distinct workers: safe concurrently */
    }
    return NULL;
}

/* One run of `b` on `nthreads` POSIX threads (at most pf_batch_worker_count(b)); what
 * pf_batch_run does with OpenMP. */
static pf_status example_run_pthreads(pf_batch *b, uint32_t nthreads, const pf_batch_budget *budget)
{
    pf_status st = pf_batch_prepare(b, budget);
    if (st != PF_OK) return st;
    if (nthreads > pf_batch_worker_count(b)) nthreads = pf_batch_worker_count(b);
    if (nthreads == 0) nthreads = 1;
    example_pool pool = {.batch = b, .jobs = pf_batch_job_count(b)};
    atomic_init(&pool.next, 0u);
    example_thread th[64];
    if (nthreads > 64) nthreads = 64;
    for (uint32_t w = 0; w < nthreads; w++) {
        th[w] = (example_thread){.pool = &pool, .worker = w};
        /* a thread that could not start is simply not there: the others take its jobs */
        th[w].started = w > 0 && pthread_create(&th[w].tid, NULL, example_worker_main, &th[w]) == 0;
    }
    example_worker_main(&th[0]); /* the calling thread is worker 0; it drains what others leave */
    for (uint32_t w = 1; w < nthreads; w++)
        if (th[w].started) pthread_join(th[w].tid, NULL); /* every job has run before finish */
    return pf_batch_finish(b);
}

#ifndef PF_EXAMPLE_NO_MAIN
int main(int argc, char **argv)
{
    pf_map *map = NULL;
    pf_diag diag;
    uint32_t threads = argc > 2 ? (uint32_t)atoi(argv[2]) : 2u;
    if (argc > 1) {
        if (pf_grid_load_movingai(argv[1], NULL, &map, &diag) != PF_OK) {
            fprintf(stderr, "%s\n", diag.msg);
            return 1;
        }
    } else {
        static uint8_t cells[256 * 256];
        uint32_t r = 12345;
        for (size_t i = 0; i < sizeof cells; i++) {
            r = r * 1664525u + 1013904223u;
            cells[i] = (r >> 24) % 5 ? 1 : 0; /* 20% blocked */
        }
        if (pf_grid_create(&(pf_grid_desc){.width = 256, .height = 256, .cells = cells}, &map) != PF_OK) return 1;
    }
    pf_batch *b;
    if (pf_batch_create(map, &(pf_batch_desc){.workers = threads ? threads : 1}, &b) != PF_OK) return 1;
    uint32_t w = pf_grid_width(map), h = pf_grid_height(map), n = pf_map_node_count(map);
    pf_query_id ids[100];
    uint32_t r = 777;
    for (uint32_t i = 0; i < 100; i++) {
        r = r * 1664525u + 1013904223u;
        uint32_t s = r % n;
        r = r * 1664525u + 1013904223u;
        pf_batch_submit(b, &(pf_batch_query){.start = s, .goal = r % n, .tag = i}, &ids[i]);
    }
    example_run_pthreads(b, threads, NULL);
    uint32_t ok = 0;
    double sum = 0.0;
    for (uint32_t i = 0; i < 100; i++) {
        pf_batch_result res;
        if (pf_batch_get(b, ids[i], &res) == PF_OK && res.status == PF_OK) {
            ok++;
            sum += res.stats.cost;
        }
    }
    printf("{\"map\":\"%ux%u\",\"threads\":%u,\"queries\":100,\"solved\":%u,\"cost_sum\":%.6f}\n", w, h, threads,
           ok, sum);
    pf_batch_destroy(b);
    pf_map_destroy(map);
    return 0;
}
#endif
