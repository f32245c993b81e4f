/* par_internal.h - the builders' parallel loops: one entry point that runs a loop on the user's
 * parallel-for hook (pf_parallel.h) or on OpenMP (serially without it). Never installed.
 *
 * A loop body receives a range of items and the index of the worker running it: per-worker scratch
 * is indexed by it, and a worker runs its ranges one after another. Bodies must give the same
 * result for any split into ranges and any order of them: reductions are commutative (sums,
 * maxima, bitwise or, each worker's partial combined afterwards), and output kept per worker is
 * merged by range, not by worker. */
#ifndef PF_PAR_INTERNAL_H
#define PF_PAR_INTERNAL_H

#include <stdint.h>
#include "pathfind/pf_parallel.h"
#include "common/pf_internal.h"

typedef struct pf__par {
    pf_parallel_for hook;    /* run == NULL: OpenMP */
    uint32_t        workers; /* >= 1; 1 runs every loop on the calling thread */
} pf__par;

/* A build pass over a map of `cells` cells (JPS tables, the accelerator): the hook's workers, or
 * `threads` OpenMP threads (0 = OpenMP's maximum); 1 on small maps, where starting workers costs
 * more than the work, and without OpenMP or a hook. */
pf__par pf__par_build(const pf_parallel_for *hook, uint32_t threads, size_t cells);
/* The hook's workers or `threads` (0 = OpenMP's maximum; 1 without OpenMP or a hook), at most `cap`
 * and at least 1. */
pf__par pf__par_upto(const pf_parallel_for *hook, uint32_t threads, uint64_t cap);

/* Items [begin, end) of a loop, run by `worker`. */
typedef void (*pf__par_body)(void *ctx, uint64_t begin, uint64_t end, uint32_t worker);

/* Runs body over [0, n): in ranges of `grain` items taken by free workers (OpenMP's dynamic
 * schedule), or with grain 0 one range per worker (its static schedule). With one worker the
 * body runs once, over [0, n), on the calling thread. */
void pf__par_for(const pf__par *p, uint64_t n, uint64_t grain, pf__par_body body, void *ctx);

#endif
