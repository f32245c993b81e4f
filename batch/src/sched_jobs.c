/* sched_jobs.c - one job on one worker: the unit of work that OpenMP or an engine's job system runs.
 *
 * A job only touches its own query slots, its worker's context, arena and counters, and (when it
 * suspends or resumes) the spare-context stack under a spin lock, so distinct workers can run jobs
 * concurrently without any other synchronisation.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <limits.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include "batch_internal.h"

/* Budget handed out per claim: large enough that the shared counter is touched a few times per
 * long query, small enough that the last claims of a run overshoot a time budget by little
 * (about 20-50 us of grid expansions). */
#define CHUNK 512u

double pf__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Claims up to CHUNK expansions of the run's budget; 0 when it is spent. Searches that were not
 * suspended (`held` 0) may not dip into the suspended ones' reserve. */
static uint32_t claim(pf_batch *b, int held)
{
    double deadline = held ? b->deadline : b->fresh_deadline;
    if (deadline > 0.0 && pf__now() >= deadline) {
        /* Past the deadline, a run that has granted nothing yet still grants one chunk; while
         * searches are suspended, to one of them (a fresh one could restart forever), so one
         * advances every run whatever the clock did. */
        if (!held && b->any_suspended) return 0;
        if (atomic_exchange(&b->progressed, 1)) return 0;
    }
    long long floor = held ? 0 : b->reserve;
    long long cur = atomic_load(&b->budget_left);
    for (;;) {
        if (cur <= floor) return 0;
        long long take = cur - floor < (long long)CHUNK ? cur - floor : (long long)CHUNK;
        if (atomic_compare_exchange_weak(&b->budget_left, &cur, cur - take)) {
            if ((held || !b->any_suspended) && !atomic_load_explicit(&b->progressed, memory_order_relaxed))
                atomic_store_explicit(&b->progressed, 1, memory_order_relaxed);
            return (uint32_t)take;
        }
    }
}

static void give_back(pf_batch *b, uint32_t n)
{
    if (n) atomic_fetch_add(&b->budget_left, (long long)n);
}

static void spin_lock(pf_batch *b)
{
    while (atomic_flag_test_and_set_explicit(&b->spare_lock, memory_order_acquire)) {
    }
}

static void spin_unlock(pf_batch *b) { atomic_flag_clear_explicit(&b->spare_lock, memory_order_release); }

static pf_ctx *take_spare(pf_batch *b)
{
    spin_lock(b);
    pf_ctx *c = b->nspare ? b->spares[--b->nspare] : NULL;
    spin_unlock(b);
    return c;
}

void pf__batch_put_spare(pf_batch *b, pf_ctx *c)
{
    spin_lock(b);
    b->spares[b->nspare++] = c; /* contexts are conserved: the stack never exceeds spare_cap */
    spin_unlock(b);
}

/* Copies a finished single search into the query's result, path into the worker's arena. */
static void single_result(pf_batch *b, pf__job *j, pf_ctx *c, pf_status st, pf__arena *arena)
{
    pf_batch_result *r = &b->q[j->query].res;
    r->flags |= j->sliced ? PF_BATCH_RESULT_SLICED : 0u;
    r->path = NULL;
    r->path_len = 0;
    if (pf_failed(st) && st != PF_OUT_OF_MEMORY) {
        /* refused before searching (bad endpoint or options): what pf_search reports */
        r->status = st;
        r->stats = (pf_stats){.cost = INFINITY};
        return;
    }
    pf_path probe = {0};
    r->status = pf_search_path(c, &probe, &r->stats);
    if (probe.len == 0) return;
    uint32_t *nodes = pf__arena_alloc(arena, (size_t)probe.len * sizeof *nodes, sizeof *nodes);
    if (!nodes) {
        r->status = PF_OUT_OF_MEMORY;
        return;
    }
    pf_path p = {.nodes = nodes, .capacity = probe.len};
    pf_search_path(c, &p, NULL);
    r->path = nodes;
    r->path_len = p.len;
}

/* Starts the job's search on `c`; returns PF_IN_PROGRESS or its final status. */
static pf_status start(pf_batch *b, pf__job *j, pf_ctx *c)
{
    if (j->kind == PF__J_GROUP) return pf__group_step(b, j, c, 0, 1);
    const pf__bquery *e = &b->q[j->query];
    return pf_search_begin(c, e->q.start, e->q.goal, &e->q.search);
}

pf_status pf__batch_step(pf_batch *b, pf__job *j, pf_ctx *c, uint32_t budget)
{
    if (j->kind == PF__J_GROUP) return pf__group_step(b, j, c, budget, 0);
    return pf_search_step(c, budget);
}

pf_status pf_batch_run_job(pf_batch *b, uint32_t job, uint32_t worker)
{
    if (!b || !b->prepared || job >= b->run_jobs || worker >= b->nworkers) return PF_INVALID_ARGUMENT;
    pf__job *j = &b->jobs[job];
    if (atomic_exchange(&j->ran, 1)) return PF_INVALID_ARGUMENT;
    pf__worker *wk = &b->workers[worker];
    uint32_t chunk = 0;
    int held = j->state == PF__J_SUSPENDED;
    if (b->budgeted && (chunk = claim(b, held)) == 0) return PF_OK; /* waits for the next run, in order */

    pf_ctx *c = j->state == PF__J_SUSPENDED ? j->held : wk->ctx;
    pf_status st = PF_IN_PROGRESS;
    uint32_t before = 0;
    if (j->state == PF__J_WAITING) {
        st = start(b, j, c);
    } else {
        before = c->s.st.expanded;
    }
    while (st == PF_IN_PROGRESS) {
        uint32_t e0 = c->s.st.expanded;
        st = pf__batch_step(b, j, c, chunk);
        if (!b->budgeted) break;
        uint32_t used = c->s.st.expanded - e0 + 1u;
        if (st != PF_IN_PROGRESS) {
            give_back(b, used < chunk ? chunk - used : 0);
            break;
        }
        if ((chunk = claim(b, held)) == 0) {
            /* Out of budget halfway: keep the search in its context if a spare can replace it. */
            wk->expanded += c->s.st.expanded - before;
            if (c == wk->ctx) {
                pf_ctx *spare = take_spare(b);
                if (!spare) {
                    j->state = PF__J_WAITING; /* restarts on a later run; the oldest runs first */
                    wk->restarted++;
                    return PF_OK;
                }
                j->held = c;
                wk->ctx = spare;
            }
            j->state = PF__J_SUSPENDED;
            j->sliced = 1;
            wk->suspended++;
            return PF_OK;
        }
    }
    wk->expanded += c->s.st.expanded - before;
    pf__batch_job_done(b, j, c, st, wk);
    return PF_OK;
}

void pf__batch_job_done(pf_batch *b, pf__job *j, pf_ctx *c, pf_status st, pf__worker *wk)
{
    wk->searches++;
    if (j->kind == PF__J_GROUP) {
        pf__group_results(b, j, c, st, &wk->arena);
        wk->groups++;
    } else {
        single_result(b, j, c, st, &wk->arena);
    }
    if (c != wk->ctx) {
        pf__batch_put_spare(b, c);
        j->held = NULL;
    }
    j->state = PF__J_DONE;
}
