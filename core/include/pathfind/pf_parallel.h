/*
 * pf_parallel.h - a parallel-for hook: the builders' loops on the engine's own threads.
 *
 * The builders that run loops in parallel (pf_jps_table_create, pf_accel_create, pf_table_create and
 * pf_table_update, pf_pdb_build, pf_goap_plan_many) start OpenMP threads inside the host by default.
 * An engine with a job system of its own sets the `parallel` field of their desc instead: the
 * library then cuts each loop into jobs and hands them to the hook, and starts no thread itself.
 * All zero means OpenMP (serial when the library is built without it). Results are the same bytes
 * whatever the hook, the worker count and the order the jobs run in.
 *
 *     static void run_jobs(void *user, uint32_t jobs, uint32_t workers, pf_parallel_job_fn job, void *ctx)
 *     {
 *         // e.g. `workers` engine tasks, task w taking job indices from a shared atomic counter
 *         // and calling job(ctx, j, w) for each; wait for all of them.
 *     }
 *     pf_jps_desc d = { .parallel = { run_jobs, &my_scheduler, 8 } };
 *
 * WORKERS. A desc's thread count and a hook's `workers` above PF_PARALLEL_MAX_WORKERS count as
 * PF_PARALLEL_MAX_WORKERS: every builder keeps scratch memory per worker, so a count far past any
 * machine's (UINT32_MAX, a field read from a config file unchecked) would ask for that many
 * workers' scratch.
 *
 * THREAD SAFETY: `run` is called from the thread that called the builder, and returns before the
 * builder goes on. The jobs it runs may call the desc's allocator and callbacks from its threads.
 * A hook given to contexts (pf_ctx_desc.parallel) or a batch (pf_batch_desc.parallel) is called
 * from their searches, so from a batch's workers, several at once and from inside the engine's
 * own jobs (pf_batch_run_job): it must be reentrant and never wait for work queued behind its
 * caller.
 */
#ifndef PATHFIND_PF_PARALLEL_H
#define PATHFIND_PF_PARALLEL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The most workers a builder uses (its desc's `threads`, or the hook's `workers`): past it, this. */
#define PF_PARALLEL_MAX_WORKERS 1024u

/** One job of a loop: `worker` names the scratch memory the job may use (see pf_parallel_for_fn). */
typedef void (*pf_parallel_job_fn)(void *ctx, uint32_t job, uint32_t worker);

/**
 * Runs job(ctx, j, w) exactly once for every j in [0, jobs), on any threads and in any order, and
 * returns when every call has returned. w is a worker index below `workers`; two calls with the
 * same w must not overlap (a worker runs its jobs one after another), calls with different w may.
 * Running all jobs in order on the calling thread with w = 0 is a valid (serial) hook.
 *
 * @param workers at most the hook's own `workers`: fewer when the loop has fewer jobs, or is too
 *                small to be worth several (the builder then runs it on its own thread, without
 *                calling the hook at all).
 */
typedef void (*pf_parallel_for_fn)(void *user, uint32_t jobs, uint32_t workers, pf_parallel_job_fn job,
                                   void *ctx);

typedef struct pf_parallel_for {
    pf_parallel_for_fn run;     /* NULL: OpenMP (serial without it), with the desc's thread count */
    void              *user;    /* passed to run */
    uint32_t           workers; /* how many jobs run may run at once (0 = 1); replaces the desc's
                                   thread count when run is set, and bounds the worker indices */
} pf_parallel_for;

#ifdef __cplusplus
}
#endif
#endif
