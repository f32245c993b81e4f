/* par.c - the builders' parallel loops on the user's hook or on OpenMP (par_internal.h). */
#include "common/par_internal.h"

#ifdef PF_WITH_OPENMP
#include <omp.h>
#endif

/* OpenMP's thread count for `threads` (0 = its maximum); 1 without OpenMP. */
static uint32_t omp_threads(int64_t threads)
{
#ifdef PF_WITH_OPENMP
    if (threads > 0) return threads > PF_PARALLEL_MAX_WORKERS ? PF_PARALLEL_MAX_WORKERS : (uint32_t)threads;
    int m = omp_get_max_threads();
    return m <= 0 ? 1u : (uint32_t)m > PF_PARALLEL_MAX_WORKERS ? PF_PARALLEL_MAX_WORKERS : (uint32_t)m;
#else
    (void)threads;
    return 1;
#endif
}

static pf__par par_of(const pf_parallel_for *hook, int64_t threads)
{
    pf__par p = {{0}, 1};
    if (hook && hook->run) {
        p.hook = *hook;
        p.workers = !hook->workers ? 1u : hook->workers > PF_PARALLEL_MAX_WORKERS ? PF_PARALLEL_MAX_WORKERS : hook->workers;
    } else {
        p.workers = omp_threads(threads);
    }
    return p;
}

pf__par pf__par_build(const pf_parallel_for *hook, uint32_t threads, size_t cells)
{
    pf__par p = par_of(hook, threads);
    if (cells < ((size_t)1 << 18)) p.workers = 1;
    return p;
}

pf__par pf__par_upto(const pf_parallel_for *hook, uint32_t threads, uint64_t cap)
{
    pf__par p = par_of(hook, threads);
    if (p.workers > cap) p.workers = cap ? (uint32_t)cap : 1u;
    return p;
}

typedef struct par_loop {
    pf__par_body body;
    void        *ctx;
    uint64_t     n, grain;
} par_loop;

static void run_range(void *ctx, uint32_t job, uint32_t worker)
{
    const par_loop *l = ctx;
    uint64_t b = (uint64_t)job * l->grain, e = l->n - b > l->grain ? b + l->grain : l->n;
    l->body(l->ctx, b, e, worker);
}

void pf__par_for(const pf__par *p, uint64_t n, uint64_t grain, pf__par_body body, void *ctx)
{
    if (!n) return;
    const uint32_t workers = p->workers ? p->workers : 1u;
    const int dynamic = grain != 0;
    if (!dynamic) grain = (n + workers - 1u) / workers;
    if (n / grain >= UINT32_MAX) grain = n / (UINT32_MAX - 1u) + 1u; /* job indices are 32-bit */
    const uint64_t jobs = (n - 1u) / grain + 1u;
    if (workers <= 1 || jobs <= 1) {
        body(ctx, 0, n, 0);
        return;
    }
    par_loop l = {body, ctx, n, grain};
    const uint32_t nw = jobs < workers ? (uint32_t)jobs : workers;
    if (p->hook.run) {
        p->hook.run(p->hook.user, (uint32_t)jobs, nw, run_range, &l);
        return;
    }
#ifdef PF_WITH_OPENMP
    if (dynamic) {
#pragma omp parallel for num_threads((int)nw) schedule(dynamic, 1)
        for (int64_t j = 0; j < (int64_t)jobs; j++) run_range(&l, (uint32_t)j, (uint32_t)omp_get_thread_num());
    } else {
#pragma omp parallel for num_threads((int)nw) schedule(static)
        for (int64_t j = 0; j < (int64_t)jobs; j++) run_range(&l, (uint32_t)j, (uint32_t)omp_get_thread_num());
    }
#else
    for (uint64_t j = 0; j < jobs; j++) run_range(&l, (uint32_t)j, 0);
#endif
}
