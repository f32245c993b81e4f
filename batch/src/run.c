/* run.c - a run of the batch: prepare plans the fresh queries and orders the jobs, the jobs run
 * (sched_jobs.c, driven by sched_omp.c or an engine's job system), finish settles the account and
 * answers what completed. */
#include "batch_internal.h"

pf_status pf_batch_prepare(pf_batch *b, const pf_batch_budget *budget)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b) return PF_INVALID_ARGUMENT;
    if (pf__account_prepared(b)) return PF_BATCH_BUSY;
    /* from here to pf_batch_finish the map must not change (pf_grid_apply_edits checks it) */
    if (!pf__batch_hold_map(b)) return PF_MAP_BUSY;
    /* an adopted accelerator first: this run's searches, every one of them, see it */
    pf_status st = pf__adopt_due(b);
    if (st != PF_OK || !pf__plan_fresh(b) || !pf__account_open(b, budget)) {
        pf__batch_release_map(b);
        return PF_OUT_OF_MEMORY;
    }
    pf__workers_begin_run(b);
    pf__adopt_run_begun(b);
    return PF_OK;
}

uint32_t pf_batch_job_count(const pf_batch *b)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    return b && pf__account_prepared(b) ? pf__account_jobs(b) : 0;
}

pf_status pf_batch_finish(pf_batch *b)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b) return PF_INVALID_ARGUMENT;
    if (!pf__account_prepared(b)) return PF_NOT_PREPARED;
    uint32_t n = pf__account_jobs(b);
    /* A job the caller did not run would break the budget account: it runs here, serially. */
    for (uint32_t i = 0; i < n; i++)
        if (!atomic_load(&pf__account_job(b, i)->ran)) pf_batch_run_job(b, i, 0);
    /* Workers wrote their own slots and counters; everything below is serial. */
    pf__account_settle(b);
    for (uint32_t i = 0; i < n; i++)
        if (pf__account_job(b, i)->state == PF__J_DONE) pf__results_answered(b, pf__account_job(b, i));
    pf__workers_publish(b);
    pf__plan_end_run(b);
    pf__account_close(b);
    pf__batch_release_map(b);
    return PF_OK;
}
