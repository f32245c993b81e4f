/* sched_jobs.c - one job on one worker: the unit of work that OpenMP or an engine's job system runs.
 *
 * A job only touches its own query slots, its worker's context, arena and counters, its entries in
 * the budget account (atomic adds) and, when it parks or resumes a search, the spare-context stack
 * under a spin lock, so distinct workers can run jobs concurrently without other synchronisation.
 *
 * Progress is counted in units: a search's expansions, plus one when it completes (the pop that
 * finds the goal, or the empty open list). pf_search_step(c, n) either returns PF_IN_PROGRESS after
 * exactly n expansions or finishes within n + 1 units, so a search's units are a property of the
 * query alone, however it was sliced: the budget account (plan.c) can rely on them.
 *
 * Under an expansion budget a job keeps two counts: `vprog`, the units the account granted it in
 * earlier runs, and `rprog`, the units its real search (in `held`) has done. The worker pushes the
 * search on while the account may still grant it more (plan.c), so rprog never ends a run behind
 * the account unless a search's state had to be dropped (no spare context to park it in): then the
 * next run first redoes the search up to `vprog`, uncharged, and goes on from there.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <limits.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include "batch_internal.h"

/* Work handed out at a time: large enough that the shared counters are touched a few times per
 * long query, small enough that a time budget is overshot by little (about 20-50 us of grid
 * expansions per worker). */
#define PF__CHUNK 512u

double pf__now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t pf__ctx_units(const pf_ctx *c, int finished) { return (uint64_t)pf__ctx_stats(c).expanded + (finished ? 1u : 0u); }

static void spin_lock(pf_batch *b)
{
    while (atomic_flag_test_and_set_explicit(&b->spare_lock, memory_order_acquire)) {
    }
}

static void spin_unlock(pf_batch *b) { atomic_flag_clear_explicit(&b->spare_lock, memory_order_release); }

pf_ctx *pf__take_spare(pf_batch *b, const pf__job *j)
{
    spin_lock(b);
    pf_ctx *c = NULL;
    int make = 0;
    /* Spares not made yet count as free ones: the suspension that first needs one makes it. Slot
     * holders are owed theirs, free or still to make; work run ahead gets only what is left over. */
    uint32_t unmade = b->nspare_want - b->spare_made;
    if (j->role ? b->nspare + unmade > 0 : b->nspare + unmade > b->spare_owed) {
        if (b->nspare) {
            c = b->spares[--b->nspare];
        } else {
            make = 1;
            b->spare_made++; /* counted now, so that no other worker makes the last one too */
        }
        if (j->role && b->spare_owed) b->spare_owed--;
    }
    spin_unlock(b);
    /* Made outside the lock (allocation and pre-faulting take milliseconds on big maps). A failure
     * is what finding no spare is: the caller drops or restarts the search, which stays queued;
     * the next suspension tries again. */
    if (make && pf__new_ctx(b, &c) != PF_OK) {
        c = NULL;
        spin_lock(b);
        b->spare_made--;
        b->st.spare_failed++; /* no other write to b->st can happen during a run */
        spin_unlock(b);
    }
    return c;
}

void pf__put_spare(pf_batch *b, pf_ctx *c)
{
    spin_lock(b);
    b->spares[b->nspare++] = c; /* contexts are conserved: the stack never exceeds spare_cap */
    spin_unlock(b);
}

/* ---- results ---------------------------------------------------------------------------------- */

static pf_batch_result in_progress(uint64_t tag)
{
    return (pf_batch_result){.status = PF_IN_PROGRESS, .tag = tag, .stats = {.cost = INFINITY}};
}

/* Copies a finished single search into the query's result, path into the worker's arena. */
static void single_result(pf_batch *b, pf__job *j, pf_ctx *c, pf_status st, pf__arena *arena)
{
    pf_batch_result *r = &b->q[j->query].res;
    r->flags |= j->sliced ? PF_BATCH_RESULT_SLICED : 0u;
    r->path = NULL;
    r->path_len = 0;
    r->field = NULL;
    if (b->q[j->query].q.flags & PF_QUERY_FLOW) {
        /* the field leaves the worker's context for the arena: the context serves the next job */
        r->stats = pf_failed(st) ? (pf_stats){0} : pf__ctx_stats(c);
        r->stats.cost = INFINITY;
        r->status = st; /* a tree search ends PF_OK, max_cost or not */
        if (r->status != PF_OK) return;
        size_t n = pf_map_node_count(b->map);
        uint8_t *dirs = pf__arena_alloc(arena, n, 1);
        if (!dirs) {
            r->status = PF_OUT_OF_MEMORY;
            return;
        }
        pf_flow_export(c, dirs, n);
        r->field = dirs;
        return;
    }
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

static void write_results(pf_batch *b, pf__job *j, pf_ctx *c, pf_status st, pf__worker *wk)
{
    if (j->kind == PF__J_GROUP) {
        pf__group_results(b, j, c, st, &wk->arena);
        wk->groups++;
    } else {
        single_result(b, j, c, st, &wk->arena);
    }
    wk->searches++;
    j->written = 1;
}

void pf__unwrite_results(pf_batch *b, pf__job *j)
{
    if (j->kind == PF__J_GROUP)
        for (uint32_t k = 0; k < j->count; k++) {
            pf__bquery *e = &b->q[b->members[j->first + k]];
            e->res = in_progress(e->q.tag);
        }
    else
        b->q[j->query].res = in_progress(b->q[j->query].q.tag);
    b->st.searches--;
    if (j->kind == PF__J_GROUP) b->st.groups--;
    j->written = 0;
}

/* ---- searching -------------------------------------------------------------------------------- */

/* Starts the job's search on `c`; returns PF_IN_PROGRESS or its final status. */
static pf_status start(pf_batch *b, pf__job *j, pf_ctx *c)
{
    if (j->kind == PF__J_GROUP) return pf__group_step(b, j, c, 0, 1);
    const pf__bquery *e = &b->q[j->query];
    if (e->q.flags & PF_QUERY_FLOW)
        return pf_flow_begin(c, e->q.goal,
                             &(pf_flow_desc){.unit_size = e->q.search.unit_size, .max_cost = e->q.search.max_cost});
    return pf_search_begin(c, e->q.start, e->q.goal, &e->q.search);
}

/* Steps the search in `c` by at most `n` units (0: to the end); adds the units done to *units. */
static pf_status step(pf_batch *b, pf__job *j, pf_ctx *c, uint64_t n, uint64_t *units)
{
    uint32_t budget = n == 0 ? 0u : (n > UINT32_MAX - 1u ? UINT32_MAX - 1u : (uint32_t)n);
    uint64_t u0 = pf__ctx_units(c, 0);
    pf_status st = j->kind == PF__J_GROUP ? pf__group_step(b, j, c, budget, 0) : pf_search_step(c, budget);
    *units += pf__ctx_units(c, st != PF_IN_PROGRESS) - u0;
    return st;
}

/* The worker keeps searching in a fresh context while `c` keeps this job's search. */
static int park(pf_batch *b, pf__job *j, pf__worker *wk, pf_ctx *c)
{
    if (c != wk->ctx) return 1; /* already the job's own */
    if (b->mode == PF__MODE_TIME && !pf__may_take_slot(b, j)) return 0;
    pf_ctx *spare = pf__take_spare(b, j);
    if (!spare) return 0;
    j->held = c;
    wk->ctx = spare;
    return 1;
}

static void release(pf_batch *b, pf__job *j)
{
    if (j->held) pf__put_spare(b, j->held);
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
    write_results(b, j, c, st, wk);
    release(b, j);
    j->state = PF__J_DONE;
}

void pf__run_to_end(pf_batch *b, pf__job *j, pf__worker *wk) { run_free(b, j, wk); }

/* A time budget (with or without an expansion budget, shared through one counter). */
static uint32_t claim(pf_batch *b, uint32_t want)
{
    if (b->budget == LLONG_MAX) return want;
    long long cur = atomic_load(&b->budget_left);
    for (;;) {
        if (cur <= 0) return 0;
        long long take = cur < (long long)want ? cur : (long long)want;
        if (atomic_compare_exchange_weak(&b->budget_left, &cur, cur - take)) return (uint32_t)take;
    }
}

static void give_back(pf_batch *b, uint64_t n)
{
    if (n && b->budget != LLONG_MAX) atomic_fetch_add(&b->budget_left, (long long)n);
}

static void run_time(pf_batch *b, pf__job *j, pf__worker *wk)
{
    if (j->held && j->rdone) { /* finished ahead under an earlier expansion budget */
        write_results(b, j, j->held, j->fin, wk);
        release(b, j);
        j->state = PF__J_DONE;
        return;
    }
    double now = pf__now();
    if (wk->t0 == 0.0) {
        /* The budget runs from the run's first start, not this worker's: a worker woken late
         * (an idle core can take milliseconds to come back) shares the frame's deadline instead
         * of pushing the frame's end out by its lateness. */
        long long first = 0, mine = (long long)(now * 1e9);
        if (!atomic_compare_exchange_strong(&b->run_start_ns, &first, mine)) mine = first;
        wk->t0 = (double)mine * 1e-9;
    }
    double deadline = wk->t0 + b->max_s;
    double cap = j->role && j->rank != PF__RANK_URGENT && b->fair_s > 0.0 ? now + b->fair_s : 0.0; /* fair round */
    pf_ctx *c = j->held ? j->held : wk->ctx;
    int started = j->held != NULL, done = 0;
    pf_status st = PF_IN_PROGRESS;
    uint64_t units = 0;
    for (;;) {
        if (wk->granted) {
            double t = pf__now();
            if (t >= deadline || (cap > 0.0 && t >= cap)) break;
        }
        uint32_t n = claim(b, PF__CHUNK);
        if (n == 0) break;
        wk->granted = 1; /* a worker's first chunk of the run ignores the clock: runs converge */
        if (!started) {
            started = 1;
            st = start(b, j, c);
            if (st != PF_IN_PROGRESS) {
                give_back(b, n);
                done = 1;
                break;
            }
        }
        uint64_t u = 0;
        st = step(b, j, c, n, &u);
        units += u;
        if (st != PF_IN_PROGRESS) {
            give_back(b, u < n ? n - u : 0);
            done = 1;
            break;
        }
    }
    wk->expanded += units && done ? units - 1u : units;
    if (done) {
        write_results(b, j, c, st, wk);
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
        wk->restarted++;
        return;
    }
    if (j->state != PF__J_SUSPENDED) wk->suspended++;
    j->state = PF__J_SUSPENDED;
    j->sliced = 1;
    j->rprog = j->vprog = pf__ctx_units(c, 0);
    j->rdone = 0;
}

/* ---- expansion budgets: the account of plan.c -------------------------------------------------- */

static void fen_add(pf_batch *b, uint32_t e, uint64_t v)
{
    if (!v) return;
    for (uint32_t i = e + 1u; i <= b->nentries; i += i & (0u - i))
        atomic_fetch_add_explicit(&b->fen[i], (long long)v, memory_order_relaxed);
}

/* A lower bound of what the account hands out before entry e (only ever too low). */
static long long fen_before(pf_batch *b, uint32_t e)
{
    long long s = 0;
    for (uint32_t i = e; i > 0; i -= i & (0u - i)) s += atomic_load_explicit(&b->fen[i], memory_order_relaxed);
    return s;
}

/* Publishes r units of charged progress: min(quantum, r) at the fair entry, the rest at the main. */
static void publish(pf_batch *b, pf__job *j, uint64_t r)
{
    uint64_t a = 0, m = r;
    if (j->ea != PF__NONE) {
        a = r < b->quantum ? r : b->quantum;
        m = r - a;
        fen_add(b, j->ea, a - j->pub_a);
    }
    fen_add(b, j->eb, m - j->pub_b);
    j->pub_a = a;
    j->pub_b = m;
}

/* The most the account can still grant this job this run, counted from the run's start. */
static uint64_t allowed(pf_batch *b, const pf__job *j)
{
    long long E = b->budget;
    uint64_t base = 0;
    if (j->ea != PF__NONE) {
        long long left = E - fen_before(b, j->ea);
        if (left < (long long)b->quantum) return left > 0 ? (uint64_t)left : 0u;
        base = b->quantum;
    }
    long long left = E - fen_before(b, j->eb);
    return base + (left > 0 ? (uint64_t)left : 0u);
}

static void run_exp(pf_batch *b, pf__job *j, pf__worker *wk)
{
    const uint64_t base = j->vprog; /* granted before this run */
    pf_ctx *c = j->held ? j->held : wk->ctx;
    int started = j->held != NULL, done = started && j->rdone;
    uint64_t rp = started ? j->rprog : 0, r = 0;
    pf_status st = j->fin;
    for (;;) {
        r = rp > base ? rp - base : 0;
        publish(b, j, r);
        if (done) break;
        uint64_t n;
        if (rp < base) {
            n = base - rp; /* its state was lost: redo what was granted, uncharged */
        } else {
            uint64_t allow = allowed(b, j);
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
         * Not written when the account cannot reach it this run (allowed() only overestimates):
         * taken back, the paths would stay in the worker's arena until the frame's reset, and a
         * search finished ahead would be written again every run until the account caught up. */
        if (!j->written && allowed(b, j) >= rp - base) write_results(b, j, c, st, wk);
        /* Keep the finished search in case the account is not there yet, when redoing it would
         * cost more than a chunk and a spare context is free; otherwise the context is reused. */
        if (c == wk->ctx && (rp < PF__CHUNK || !park(b, j, wk, c))) j->held = NULL;
        return;
    }
    if (!park(b, j, wk, c)) { /* no spare context: the state is lost and redone when due */
        j->held = NULL;
        j->rprog = 0;
    }
}

pf_status pf_batch_run_job(pf_batch *b, uint32_t job, uint32_t worker)
{
    if (!b) return PF_INVALID_ARGUMENT;
    if (!b->prepared) return PF_NOT_PREPARED;
    if (job >= b->run_jobs) return PF_BAD_JOB;
    if (worker >= b->nworkers) return PF_BAD_WORKER;
    pf__job *j = &b->jobs[b->run[job]];
    if (atomic_exchange(&j->ran, 1)) return PF_JOB_ALREADY_RUN;
    pf__worker *wk = &b->workers[worker];
    if (b->mode == PF__MODE_EXP) run_exp(b, j, wk);
    else if (b->mode == PF__MODE_TIME) run_time(b, j, wk);
    else run_free(b, j, wk);
    return PF_OK;
}
