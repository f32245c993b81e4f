/* sched_jobs.c - the workers, and one job on one worker: the unit of work that OpenMP or an
 * engine's job system runs.
 *
 * A worker is a context, a path arena and counters; a batch has as many as it may run jobs at
 * once. They are made with the batch and kept for its life; the counters join the batch's at the
 * end of each run.
 *
 * A job only touches its own query slots, its worker's context, arena and counters, its entries in
 * the budget account (atomic adds) and, when it parks or resumes a search, the spare-context stack
 * under a spin lock, so distinct workers can run jobs concurrently without other synchronisation.
 * Under a time budget a job's call may also run on a fair-round search stopped at its cap by another
 * job, once every job has been begun: it owns that search then, handed out once by an atomic swap
 * (account.c, AFTER THE JOBS).
 *
 * Progress is counted in units: a search's expansions (an accelerated query's path cells too, a
 * unit per PF__ACCEL_PATH_UNIT: pf__ctx_units), plus one when it completes (the pop that finds the
 * goal, or the empty open list). pf_search_step(c, n) either returns PF_IN_PROGRESS after
 * exactly n units or finishes within n + 1 (an accelerated query too: accel_query.c, SLICES), so
 * a search's units are a property of the query alone, however it was sliced: the budget account
 * (account.c) can rely on them.
 *
 * Under an expansion budget a job keeps two counts: `vprog`, the units the account granted it in
 * earlier runs, and `rprog`, the units its real search (in `held`) has done. The worker pushes the
 * search on while the account may still grant it more (account.c), so rprog never ends a run behind
 * the account unless a search's state had to be dropped (no spare context to park it in): then the
 * next run first redoes the search up to `vprog`, uncharged, and goes on from there.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <time.h>
#include "batch_internal.h"

/* Work handed out at a time: large enough that the shared counters are touched a few times per
 * long query, small enough that a time budget is overshot by little (about 20-50 us of grid
 * expansions per worker). */
#define PF__CHUNK 512u
/* Under a time budget a chunk is sized by the job's own pace instead: an expansion's cost differs
 * by orders of magnitude between algorithms (a JPS expansion on rooms-2000 scans its jumps: about
 * 4 us, so 512 of them took 2 ms and runs of a 4 ms budget ran 6.8-8.5 ms). A job's first chunk
 * is a probe of PF__PROBE units; after it each chunk aims at PF__SLICE of the budget, and at no
 * more than the time left, so that a worker stops close to the deadline on either side. */
#define PF__PROBE 32u
#define PF__SLICE 0.0625
#define PF__MIN_CHUNK 8u
/* ... and whatever its size, a chunk is stepped PF__CHECK units at a time, the clock read between
 * them: an expansion's cost also jumps within one search, which a pace measured on the chunk
 * before cannot foresee. Measured on the rooms-2000 order log (4 ms budget, 2 workers, per-thread
 * CPU time): a search entering cells whose record pages it had not touched yet took 150-750 page
 * faults in one chunk sized for 0.25 ms, which then took 1.0-1.9 ms of the thread's CPU time past
 * the last clock read (about 1.5 us a fault on 1 worker, up to 8 on 2, both faulting in one
 * address space). 32 warm A* expansions take about 3 us, a clock read 30 ns. */
#define PF__CHECK 32u

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The run's clock under a time budget (account.c's deadline is read against it). */
static double now_s(const pf_batch *b) { return b->clock ? b->clock(b->clock_user) : mono_s(); }

/* Units a search in `c` has done: its expansions (and an accelerated query's path cells,
 * pf__ctx_units), plus one once it has finished. The one place the batch reads a context's
 * counters. */
static uint64_t ctx_units(const pf_ctx *c, int finished)
{
    return pf__ctx_units(c) + (finished ? 1u : 0u);
}

/* ---- workers ---------------------------------------------------------------------------------- */

int pf__workers_alloc(pf_batch *b)
{
    b->workers = pf__calloc(&b->alloc, b->nworkers * sizeof *b->workers, 64);
    return b->workers != NULL;
}

pf_status pf__workers_init(pf_batch *b, size_t arena)
{
    for (uint32_t w = 0; w < b->nworkers; w++) {
        pf_status st = pf__new_ctx(b, &b->workers[w].ctx);
        if (st != PF_OK) return st;
        if (!pf__arena_init(&b->workers[w].arena, &b->alloc, arena)) return PF_OUT_OF_MEMORY;
        if (b->prefault == PF_PREFAULT_ALL && !pf__arena_reserve(&b->workers[w].arena, arena, 1))
            return PF_OUT_OF_MEMORY;
    }
    return PF_OK;
}

int pf__workers_reserve_open(pf_batch *b, uint32_t open, int prefault)
{
    for (uint32_t w = 0; w < b->nworkers; w++)
        if (!pf__ctx_reserve_open(b->workers[w].ctx, open, prefault)) return 0;
    return 1;
}

pf_status pf__workers_reserve_algos(pf_batch *b, uint32_t algos)
{
    pf_status st = PF_OK;
    for (uint32_t w = 0; w < b->nworkers && st == PF_OK; w++) st = pf__ctx_reserve_algos(b->workers[w].ctx, algos);
    return st;
}

pf_status pf__workers_reserve_size(pf_batch *b, uint32_t size)
{
    pf_status st = PF_OK;
    for (uint32_t w = 0; w < b->nworkers && st == PF_OK; w++) st = pf__ctx_reserve_size(b->workers[w].ctx, size, b->algos);
    return st;
}

void pf__workers_use_jps(pf_batch *b, const pf_jps_table *t)
{
    for (uint32_t w = 0; w < b->nworkers; w++) pf_ctx_use_jps_table(b->workers[w].ctx, t);
}

pf_status pf__workers_use_accel(pf_batch *b, const pf_accel *acc)
{
    pf_status st = PF_OK;
    for (uint32_t w = 0; w < b->nworkers && st == PF_OK; w++)
        if ((st = pf__ctx_adopt_accel(b->workers[w].ctx, acc)) == PF_OK && b->algos)
            st = pf__ctx_reserve_algos(b->workers[w].ctx, b->algos);
    return st;
}

int pf__workers_reserve_arena(pf_batch *b, size_t bytes, int prefault)
{
    for (uint32_t w = 0; w < b->nworkers; w++)
        if (!pf__arena_reserve(&b->workers[w].arena, bytes, prefault)) return 0;
    return 1;
}

void pf__workers_reset(pf_batch *b)
{
    for (uint32_t w = 0; w < b->nworkers; w++) pf__arena_reset(&b->workers[w].arena);
}

void pf__workers_begin_run(pf_batch *b)
{
    for (uint32_t w = 0; w < b->nworkers; w++) {
        b->workers[w].t0 = 0.0;
        b->workers[w].granted = b->workers[w].first = 0;
    }
}

void pf__workers_publish(pf_batch *b)
{
    pf__plan_answer_dups(b);
    pf__plan_compact(b);
    for (uint32_t w = 0; w < b->nworkers; w++) {
        pf__worker *wk = &b->workers[w];
        b->st.expanded += wk->expanded;
        b->st.redone += wk->redone;
        b->st.searches += wk->searches;
        b->st.suspended += wk->suspended;
        b->st.restarted += wk->restarted;
        b->st.groups += wk->groups;
        b->st.dropped += wk->dropped;
        wk->expanded = wk->redone = wk->searches = wk->suspended = wk->restarted = wk->groups = wk->dropped = 0;
    }
}

size_t pf__workers_mem_size(const pf_batch *b)
{
    size_t n = b->nworkers * sizeof *b->workers;
    for (uint32_t w = 0; w < b->nworkers; w++)
        n += pf_ctx_mem_size(b->workers[w].ctx) + b->workers[w].arena.total;
    return n;
}

void pf__workers_free(pf_batch *b)
{
    if (!b->workers) return;
    for (uint32_t w = 0; w < b->nworkers; w++) {
        pf_ctx_destroy(b->workers[w].ctx);
        pf__arena_free(&b->workers[w].arena);
    }
    pf__free(&b->alloc, b->workers, b->nworkers * sizeof *b->workers);
}

size_t pf__workers_static_size(uint32_t n) { return pf__align64(n * sizeof(pf__worker)); }

void pf__workers_place(pf_batch *b, void *mem) { b->workers = mem; }

pf_status pf__workers_place_contexts(pf_batch *b, char **p, size_t ctx, size_t arena_static, size_t arena)
{
    for (uint32_t w = 0; w < b->nworkers; w++) {
        pf_status st = pf_ctx_init_static(pf__carve(p, ctx), ctx, b->map, &b->ctx_desc, &b->workers[w].ctx);
        if (st != PF_OK) return st;
        pf__arena_init_static(&b->workers[w].arena, pf__carve(p, arena_static), arena);
    }
    return PF_OK;
}

/* ---- searching -------------------------------------------------------------------------------- */

/* Starts the job's search on `c`; returns PF_IN_PROGRESS or its final status. */
static pf_status start(pf_batch *b, pf__job *j, pf_ctx *c)
{
    if (j->kind == PF__J_GROUP) return pf__group_step(b, j, c, 0, 1);
    const pf__bquery *e = pf__query(b, j->query);
    if (e->q.flags & PF_QUERY_FLOW)
        return pf_flow_begin(c, e->q.goal,
                             &(pf_flow_desc){.unit_size = e->q.search.unit_size, .max_cost = e->q.search.max_cost,
                                             .filter = e->q.search.filter});
    return pf_search_begin(c, e->q.start, e->q.goal, &e->q.search);
}

/* Steps the search in `c` by at most `n` units (0: to the end); adds the units done to *units. */
static pf_status step(pf_batch *b, pf__job *j, pf_ctx *c, uint64_t n, uint64_t *units)
{
    uint32_t budget = n == 0 ? 0u : (n > UINT32_MAX - 1u ? UINT32_MAX - 1u : (uint32_t)n);
    uint64_t u0 = ctx_units(c, 0);
    /* a squad's member reads (or makes) the goal side the squad shares while its query runs */
    pf__accel_squad *sq = pf__plan_squad(b, j);
    if (sq) pf__ctx_accel_squad(c, sq);
    pf_status st = j->kind == PF__J_GROUP ? pf__group_step(b, j, c, budget, 0) : pf_search_step(c, budget);
    if (sq) pf__ctx_accel_squad(c, NULL);
    *units += ctx_units(c, st != PF_IN_PROGRESS) - u0;
    return st;
}

/* The worker keeps searching in a fresh context while `c` keeps this job's search. */
static int park(pf_batch *b, pf__job *j, pf__worker *wk, pf_ctx *c)
{
    if (c != wk->ctx) return 1; /* already the job's own */
    if (pf__account_mode(b) == PF__MODE_TIME && !pf__account_may_take_slot(b, j)) return 0;
    pf_ctx *spare = pf__spare_take(b, j->role ? PF__SPARE_HOLDER
                                              : (j->rank == PF__RANK_URGENT ? PF__SPARE_URGENT : PF__SPARE_AHEAD));
    if (!spare) return 0;
    j->held = c;
    wk->ctx = spare;
    /* the worker searches on with the sized units' components its searches built; the parked
     * search has no use for them */
    pf__ctx_hand_over(c, spare);
    /* kept between frames: with lazy records asked for (prefault PF_PREFAULT_NONE), only the pages
     * of this search stay mapped; otherwise the context keeps its written pages, so that no search
     * in it takes page faults inside a frame (trimming pre-faulted contexts cost bench_rts a third
     * of its throughput) */
    if (b->prefault == PF_PREFAULT_NONE) pf__ctx_trim(c);
    return 1;
}

static void release(pf_batch *b, pf__job *j)
{
    if (j->held) pf__spare_put(b, j, j->held);
    j->held = NULL;
}

/* No budget: the job runs to its end. */
static void run_free(pf_batch *b, pf__job *j, pf__worker *wk)
{
    pf_ctx *c = j->held ? j->held : wk->ctx;
    pf_status st = j->fin;
    uint64_t units = 0;
    if (!(j->held && j->rdone)) {
        if (!j->held) st = start(b, j, c);
        else st = PF_IN_PROGRESS;
        if (st == PF_IN_PROGRESS) st = step(b, j, c, 0, &units);
    }
    wk->expanded += units ? units - 1u : 0u; /* the last unit is the completion, not an expansion */
    pf__results_write(b, j, c, st, wk);
    release(b, j);
    j->state = PF__J_DONE;
}

void pf__run_to_end(pf_batch *b, pf__job *j, uint32_t worker) { run_free(b, j, &b->workers[worker]); }

/* A time budget (with or without an expansion budget, shared through one counter). */
static void run_time(pf_batch *b, pf__job *j, pf__worker *wk)
{
    if (j->held && j->rdone) { /* finished ahead under an earlier expansion budget */
        pf__results_write(b, j, j->held, j->fin, wk);
        release(b, j);
        j->state = PF__J_DONE;
        return;
    }
    double now = now_s(b), deadline, cap;
    /* Only the run's first chunk ignores the clock (a whole PF__CHUNK: a batch converges with any
     * budget, however small); a worker that comes later obeys it from its first chunk on, so a
     * worker woken past the deadline does not stretch the run by a chunk of slow expansions. */
    if (pf__account_time(b, j, now, &wk->t0, &deadline, &cap)) wk->first = 1;
    else if (!wk->granted && !wk->first) wk->granted = 1;
    pf_ctx *c = j->held ? j->held : wk->ctx;
    int started = j->held != NULL, done = 0;
    pf_status st = PF_IN_PROGRESS;
    uint64_t units = 0;
    double pace = 0.0; /* seconds per unit of this job's steps so far (0: not measured yet) */
    const double end = cap > 0.0 && cap < deadline ? cap : deadline;
    int at_cap = 0; /* stopped by its fair-round cap with time left in the run */
    for (;;) {
        double t = now;
        const int obey = wk->granted; /* the run's first chunk ignores the clock */
        uint32_t want = obey ? PF__PROBE : PF__CHUNK;
        if (obey) {
            t = now_s(b);
            if (t >= end) {
                at_cap = end < deadline && t < deadline;
                break;
            }
            if (pace > 0.0) {
                double span = end - t, slice = b->max_s * PF__SLICE;
                double u = (span < slice ? span : slice) / pace;
                want = u >= (double)PF__CHUNK ? PF__CHUNK : (u <= (double)PF__MIN_CHUNK ? PF__MIN_CHUNK : (uint32_t)u);
            }
        }
        uint32_t n = pf__account_claim(b, want);
        if (n == 0) break;
        wk->granted = 1;
        if (!started) {
            started = 1;
            st = start(b, j, c);
            if (st != PF_IN_PROGRESS) {
                pf__account_give_back(b, n);
                done = 1;
                break;
            }
        }
        /* the chunk, PF__CHECK units at a time; units claimed and not stepped go back */
        uint64_t u = 0;
        uint32_t left = n;
        for (;;) {
            uint32_t piece = left < PF__CHECK ? left : PF__CHECK;
            st = step(b, j, c, piece, &u);
            if (st != PF_IN_PROGRESS) break;
            left -= piece; /* in progress: exactly `piece` units done */
            if (left == 0 || (obey && now_s(b) >= end)) break;
        }
        units += u;
        if (st != PF_IN_PROGRESS) {
            pf__account_give_back(b, u < n ? n - u : 0);
            done = 1;
            break;
        }
        pf__account_give_back(b, left);
        now = now_s(b);
        if (u) pace = (now - t) / (double)u;
    }
    wk->expanded += units && done ? units - 1u : units;
    if (done) {
        pf__results_write(b, j, c, st, wk);
        release(b, j);
        j->state = PF__J_DONE;
        return;
    }
    if (!started) {
        if (!j->held) { /* suspended by an expansion budget without its state: starts over */
            j->state = PF__J_WAITING;
            j->vprog = 0;
        }
        return;
    }
    if (!park(b, j, wk, c)) {
        j->state = PF__J_WAITING; /* no spare context: restarts on a later run */
        j->vprog = 0;
        if (j->rank == PF__RANK_URGENT) j->starved = 1; /* the next run frees a slot for it */
        wk->restarted++;
        wk->dropped += units; /* park fails only for a search begun in this run */
        return;
    }
    if (j->state != PF__J_SUSPENDED) wk->suspended++;
    j->state = PF__J_SUSPENDED;
    j->sliced = 1;
    j->starved = 0;
    j->rprog = j->vprog = ctx_units(c, 0);
    j->rdone = 0;
    if (at_cap) pf__account_capped(j); /* last: a worker with no job left may take it now */
}

/* An expansion budget: the search goes on while the account may still grant it more. */
static void run_exp(pf_batch *b, pf__job *j, pf__worker *wk)
{
    const uint64_t base = j->vprog; /* granted before this run */
    pf_ctx *c = j->held ? j->held : wk->ctx;
    int started = j->held != NULL, done = started && j->rdone;
    uint64_t rp = started ? j->rprog : 0, r = 0;
    pf_status st = j->fin;
    for (;;) {
        r = rp > base ? rp - base : 0;
        pf__account_publish(b, j, r);
        if (done) break;
        uint64_t n;
        if (rp < base) {
            n = base - rp; /* its state was lost: redo what was granted, uncharged */
        } else {
            uint64_t allow = pf__account_allowed(b, j);
            if (r >= allow) break;
            n = allow - r < PF__CHUNK ? allow - r : PF__CHUNK;
        }
        if (!started) {
            started = 1;
            st = start(b, j, c);
            if (st != PF_IN_PROGRESS) {
                rp = 1; /* answered without a step (a bad endpoint, another component): one unit */
                done = 1;
                continue;
            }
        }
        uint64_t u = 0;
        st = step(b, j, c, n, &u);
        wk->expanded += u - (st != PF_IN_PROGRESS);
        if (rp < base) wk->redone += u;
        rp += u;
        done = st != PF_IN_PROGRESS;
    }
    j->r = r;
    if (!started) return;
    j->rprog = rp;
    j->rdone = done;
    if (done) {
        j->fin = st;
        /* Written now, in parallel; finish takes them back if the account has not reached them.
         * Not written when the account cannot reach it this run (allowed only overestimates):
         * taken back, the paths would stay in the worker's arena until the frame's reset, and a
         * search finished ahead would be written again every run until the account caught up. */
        /* (a redo that ended short of what was granted, rp < base, is written too: its answer
         * stands, and `rp - base` would wrap; adopt.c plans such a query again when the
         * accelerator it depended on changes, so this is a guard, not a path) */
        if (!j->written && (rp <= base || pf__account_allowed(b, j) >= rp - base)) pf__results_write(b, j, c, st, wk);
        /* Keep the finished search in case the account is not there yet, when redoing it would
         * cost more than a chunk and a spare context is free; otherwise the context is reused. */
        if (c == wk->ctx && (rp < PF__CHUNK || !park(b, j, wk, c))) j->held = NULL;
        return;
    }
    if (!park(b, j, wk, c)) { /* no spare context: the state is lost and redone when due */
        wk->dropped += rp;
        j->held = NULL;
        j->rprog = 0;
    }
}

pf_status pf_batch_run_job(pf_batch *b, uint32_t job, uint32_t worker)
{
    PF__CHECK_HANDLE(b, PF__TAG_BATCH, "pf_batch");
    if (!b) return PF_INVALID_ARGUMENT;
    if (!pf__account_prepared(b)) return PF_NOT_PREPARED;
    if (job >= pf__account_jobs(b)) return PF_BAD_JOB;
    if (worker >= b->nworkers) return PF_BAD_WORKER;
    pf__job *j = pf__account_job(b, job);
    if (atomic_exchange(&j->ran, 1)) return PF_JOB_ALREADY_RUN;
    pf__worker *wk = &b->workers[worker];
    int mode = pf__account_mode(b);
    if (mode == PF__MODE_EXP) {
        run_exp(b, j, wk);
    } else if (mode == PF__MODE_TIME) {
        pf__account_job_taken(b);
        run_time(b, j, wk);
        /* With every job begun, this worker may have none left: searches stopped at their fair
         * cap go on here until the deadline (account.c, AFTER THE JOBS). */
        for (pf__job *s; (s = pf__account_resume_capped(b)) != NULL;) run_time(b, s, wk);
    } else {
        run_free(b, j, wk);
    }
    return PF_OK;
}
