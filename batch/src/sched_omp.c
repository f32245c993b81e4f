/* sched_omp.c - the OpenMP driver over the job API (serial, with the same results, without OpenMP). */
#include "batch_internal.h"
#ifdef PF_WITH_OPENMP
#include <omp.h>
#endif

uint32_t pf__default_workers(void)
{
#ifdef PF_WITH_OPENMP
    int n = omp_get_max_threads();
    return n > 0 ? (uint32_t)n : 1u;
#else
    return 1u;
#endif
}

pf_status pf_batch_run(pf_batch *b, const pf_batch_budget *budget)
{
    pf_status st = pf_batch_prepare(b, budget);
    if (st != PF_OK) return st;
    int n = (int)pf_batch_job_count(b);
#ifdef PF_WITH_OPENMP
    /* Dynamic, one job at a time: jobs are listed in budget order (urgent first) or longest first,
     * and their lengths differ by orders of magnitude (a 5-cell move next to a 2000-cell crossing),
     * so static chunks would leave a thread idle behind a long query. Monotonic: OpenMP 5 makes a
     * plain dynamic schedule nonmonotonic, and LLVM's libomp then starts the second thread halfway
     * down the list, so urgent jobs at its head waited behind one thread and a time budget could
     * end before the last of them started. */
    if (b->nworkers > 1 && n > 1) {
#pragma omp parallel for schedule(monotonic: dynamic, 1) num_threads((int)b->nworkers)
        for (int i = 0; i < n; i++) pf_batch_run_job(b, (uint32_t)i, (uint32_t)omp_get_thread_num());
    } else
#endif
    {
        for (int i = 0; i < n; i++) pf_batch_run_job(b, (uint32_t)i, 0);
    }
    return pf_batch_finish(b);
}
