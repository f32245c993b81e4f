/* account.c - the prepared run: the order of its jobs and its budget account, and settling it.
 *
 * Lockstep games need the run in which each query completes to be the same on every machine. Under
 * an expansion budget the run is therefore defined by a serial account, not by the threads: the
 * jobs' entries are listed in a fixed order (urgent, the fair round, the rest: see pf_batch.h), each
 * with a cap (the fair quantum, or none), and the budget E goes down the list, each entry taking
 * min(cap, what its search still needs, what is left). Before entry k that account has handed out
 * exactly
 *     P_k = min(E, sum over entries i < k of min(cap_i, need_i))
 * (by induction: once the budget runs out every later entry gets nothing). Nothing here depends on
 * how the work was spread over workers; only the searches' needs, which are deterministic.
 *
 * Workers cannot know the needs of searches still running elsewhere, but they know lower bounds:
 * what each search has done so far this run, clipped to its cap, is at most min(cap_i, need_i). Each
 * entry publishes that clipped progress in a Fenwick tree of atomic counters, and a worker may push
 * its search on while its own progress is below min(cap, E - sum of the published bounds before its
 * entry). The bounds only grow, so when the worker stops, its search has done at least what the
 * account will grant it: finish can always settle the account (sched_jobs.c explains the rest).
 *
 * Time budgets share the run's deadline and, with an expansion budget too, one counter of
 * expansions (pf__account_claim).
 *
 * AFTER THE JOBS. Under a time budget each fair-round search is capped at its share of the run from
 * its start, so that searches the workers reach later still get theirs; but a share another search
 * leaves unused was lost: a long crossing stopped at its 2 ms cap, the background search after it
 * finished at 2.1-3.6 ms, and the run ended there with work left (rooms-2000, 4 ms, 1 worker: 9 of
 * 600 frames under 0.9x the budget). So a search stopped at its cap is marked (PF__CAP_STOPPED),
 * and once every job of the run has been begun, a worker that ends a job takes such searches, each
 * once (a compare-and-swap), and runs them on without a cap to the deadline. Marking happens before
 * the marking worker reads the count of jobs begun, and a worker counts its job begun before it
 * looks for marks (all sequentially consistent): so either the worker that begins the last job
 * sees the mark when that job ends, or the marking worker sees every job begun and takes the search
 * itself. A search stopped at its cap is always taken again before the run's last job call returns
 * (though a worker that had no job left when the mark was made has gone: the search then waits
 * for the end of a job still running elsewhere). An expansion budget alone never caps by time and
 * never comes here: its runs do not change. With both budgets, a search taken here draws on the one
 * counter of expansions (pf__account_claim) beside the jobs still running elsewhere, whatever
 * their rank: every job has begun by then, so the resume delays none, but a lower-ranked job still
 * running may find fewer expansions left.
 */
#include <limits.h>
#include <math.h>
#include <string.h>
#include "batch_internal.h"

void pf__account_init(pf_batch *b)
{
    atomic_init(&b->budget_left, LLONG_MAX);
    atomic_init(&b->run_start_ns, 0);
}

/* ---- the run's order -------------------------------------------------------------------------- */

/* Budget order: priority, then run of submission, then the query's content (never submission
 * order, which lockstep peers may not share), then the caller's tag (a unit id, the same on every
 * peer: identical queries under NO_DEDUP were ordered by submission, a review); seq only separates
 * what is left: queries apart only by a heuristic callback or a copy of a filter (plan.c,
 * key_hash) under one tag. */
static int by_plan_key(const void *bv, uint32_t i, uint32_t k)
{
    const pf__job *x = pf__plan_job(bv, i), *y = pf__plan_job(bv, k);
#define PF__CMP(f)                                                                                 \
    if (x->f != y->f) return x->f < y->f ? -1 : 1
    PF__CMP(rank);
    PF__CMP(epoch);
    PF__CMP(kind);
    PF__CMP(kgoal);
    PF__CMP(kstart);
    PF__CMP(khash);
    const uint64_t tx = pf__query(bv, x->query)->q.tag, ty = pf__query(bv, y->query)->q.tag;
    if (tx != ty) return tx < ty ? -1 : 1;
    PF__CMP(seq);
#undef PF__CMP
    return 0;
}

static int by_est_desc(const void *bv, uint32_t i, uint32_t k)
{
    const pf__job *x = pf__plan_job(bv, i), *y = pf__plan_job(bv, k);
    if (x->est != y->est) return x->est > y->est ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static double octile(int32_t ax, int32_t ay, int32_t bx, int32_t by)
{
    return pf__grid_octile(ax - bx, ay - by);
}

/* Longest first (the LPT rule): with dynamic scheduling, a long query picked last would leave the
 * other threads idle at the end of the frame. Lengths are guessed from grid distance; only the
 * order of work changes, never a result (unbudgeted runs finish everything). */
static void order_longest_first(pf_batch *b)
{
    if (pf_map_kind_of(b->map) != PF_MAP_GRID || b->run_jobs < 2) return;
    for (uint32_t i = 0, n = pf__plan_njobs(b); i < n; i++) {
        pf__job *j = pf__plan_job(b, i);
        if (j->kind == PF__J_GROUP) {
            pf_point g = pf_grid_point(b->map, pf__query(b, pf__plan_members(b, j)[0])->q.goal);
            double e0 = octile(g.x, g.y, j->bx0, j->by0), e1 = octile(g.x, g.y, j->bx1, j->by1);
            double e2 = octile(g.x, g.y, j->bx0, j->by1), e3 = octile(g.x, g.y, j->bx1, j->by0);
            j->est = fmax(fmax(e0, e1), fmax(e2, e3));
        } else {
            const pf_batch_query *q = &pf__query(b, j->query)->q;
            pf_point s = pf_grid_point(b->map, q->start), g = pf_grid_point(b->map, q->goal);
            if ((q->flags & PF_QUERY_FLOW) && g.x >= 0) { /* a field settles its whole component */
                j->est = octile(0, 0, (int32_t)pf_grid_width(b->map), (int32_t)pf_grid_height(b->map));
                continue;
            }
            /* bad endpoints (negative coordinates) are answered at once: last */
            j->est = s.x < 0 || g.x < 0 ? -1.0 : octile(s.x, s.y, g.x, g.y);
        }
    }
    pf__sort_idx(b->run, b->run_jobs, by_est_desc, b);
}

/* The job's fair-round entry (`round`) or its main one, capped at the quantum when `capped`. */
static void add_entry(pf_batch *b, uint32_t job, int round, int capped)
{
    pf__job *j = pf__plan_job(b, job);
    if (round) j->ea = b->nentries;
    else j->eb = b->nentries;
    b->entries[b->nentries++] = (pf__entry){.job = job, .fair = capped ? 1u : 0u};
}

static void drop_state(pf_batch *b, pf__job *j, int lost);

/* Time budgets: urgent work comes first in a run and parks only in a free spare (the urgent slots'
 * spares are kept for it, so one long urgent search always finds one). With every spare held, an
 * urgent search that outlasts a run is dropped at the deadline, starts over in the next run and is
 * dropped again, while the holders get no time (found in review: a long urgent crossing on
 * random-2000-20 under 2 ms on 1 worker never arrived, 2,997 restarts in 3,000 frames, before the
 * urgent slots). Once one has been dropped so (`starved`), the last holder in budget order gives its
 * slot up before the run: its search starts over later, as one that finds no slot does. Only then,
 * so that the urgent short moves of every frame, which finish within their run, cost no holder its
 * work. Returns whether such a search waits: no normal search is admitted to a free slot then (an
 * admitted search is owed its spare, and the urgent one would find none again). */
static int free_slot_for_urgent(pf_batch *b, uint32_t n)
{
    uint32_t held = 0;
    int starved = 0;
    for (uint32_t i = 0; i < n; i++) {
        const pf__job *j = pf__plan_job(b, i);
        held += j->state == PF__J_SUSPENDED && j->held;
        starved |= j->starved && j->state == PF__J_WAITING && j->rank == PF__RANK_URGENT;
    }
    if (!starved || held < pf__spares_total(b->nspare_want)) return starved;
    for (uint32_t k = n; k-- > 0;) {
        pf__job *j = pf__plan_job(b, b->run[k]);
        if (j->state != PF__J_SUSPENDED || !j->held || j->rank == PF__RANK_URGENT) continue;
        drop_state(b, j, 1);
        j->state = PF__J_WAITING;
        j->vprog = 0;
        b->st.restarted++;
        return 1;
    }
    return 1;
}

static int order_run(pf_batch *b, const pf_batch_budget *budget)
{
    uint32_t n = pf__plan_njobs(b);
    if (!PF__GROW(b, b->run, b->run_cap, n ? n : 1u)) return 0;
    if (!PF__GROW(b, b->entries, b->entries_cap, 2u * n + 1u)) return 0;
    if (!PF__GROW(b, b->fen, b->fen_cap, 2u * n + 2u)) return 0;
    int exp = budget && budget->max_expansions, us = budget && budget->max_us;
    b->mode = us ? PF__MODE_TIME : (exp ? PF__MODE_EXP : PF__MODE_FREE);
    b->budget = exp && budget->max_expansions < (uint64_t)LLONG_MAX ? (long long)budget->max_expansions : LLONG_MAX;
    atomic_store(&b->budget_left, b->budget);
    b->max_s = us ? (double)budget->max_us * 1e-6 : 0.0;
    atomic_store(&b->run_start_ns, 0);
    b->fair_s = 0.0;
    b->quantum = 0;
    b->nentries = 0;
    b->run_jobs = n;
    for (uint32_t i = 0; i < n; i++) {
        pf__job *j = pf__plan_job(b, i);
        j->ea = j->eb = PF__NONE;
        j->role = 0;
        j->r = j->pub_a = j->pub_b = 0;
        atomic_store(&j->ran, 0);
        atomic_store(&j->capped, PF__CAP_NONE);
        b->run[i] = i;
    }
    atomic_store(&b->jobs_taken, 0);
    b->fair_at = b->fair_n = 0;
    if (b->mode == PF__MODE_FREE) {
        pf__spares_owe(b, 0, 0, 0);
        order_longest_first(b);
        return 1;
    }
    pf__plan_rank(b);
    pf__sort_idx(b->run, n, by_plan_key, b);
    const int urgent_starved = b->mode == PF__MODE_TIME && free_slot_for_urgent(b, n);

    /* The fair round: every suspended non-urgent search, and (while a slot is free) the waiting
     * non-urgent job that has waited longest, by run of submission and then the order above. */
    uint32_t held = 0, held_urgent = 0, admit = PF__NONE, next = PF__NONE;
    for (uint32_t i = 0; i < n; i++) {
        const pf__job *j = pf__plan_job(b, i);
        held += j->state == PF__J_SUSPENDED && j->rank != PF__RANK_URGENT;
        held_urgent += j->state == PF__J_SUSPENDED && j->rank == PF__RANK_URGENT;
    }
    /* urgent searches keep the urgent slots first (settle_exp): only those beyond hold the others */
    if (held_urgent > PF__URGENT_SLOTS) held += held_urgent - PF__URGENT_SLOTS;
    for (uint32_t k = 0; k < n; k++) {
        pf__job *j = pf__plan_job(b, b->run[k]);
        j->pos = k;
        if (j->state == PF__J_SUSPENDED) {
            j->role = PF__ROLE_HELD;
        } else if (j->rank != PF__RANK_URGENT) {
            if (admit == PF__NONE || j->epoch < pf__plan_job(b, admit)->epoch) {
                next = admit;
                admit = b->run[k];
            } else if (next == PF__NONE || j->epoch < pf__plan_job(b, next)->epoch) {
                next = b->run[k];
            }
        }
    }
    if (held >= b->nspare_want || urgent_starved) { /* no slot to admit into: the oldest waits at the head */
        next = admit;
        admit = PF__NONE;
    }
    if (admit != PF__NONE) pf__plan_job(b, admit)->role = PF__ROLE_ADMITTED;
    /* A worker running ahead of the account must not take the context a slot holder will need:
     * measured under load, a search run ahead took the only free spare before the admitted long
     * search parked, every run, so that search lost its state and was redone from its start each
     * frame (its real work grew with the square of its length). */
    uint32_t owed = 0;
    for (uint32_t i = 0; i < n; i++) owed += pf__plan_job(b, i)->role && !pf__plan_job(b, i)->held;
    pf__spares_owe(b, owed, PF__URGENT_SLOTS, held_urgent);
    b->wait_epoch = b->wait_rank = b->wait_pos = UINT32_MAX;
    if (next != PF__NONE) {
        const pf__job *w = pf__plan_job(b, next);
        b->wait_epoch = w->epoch;
        b->wait_rank = w->rank;
        b->wait_pos = w->pos;
    }
    /* Jobs in budget order: urgent, the fair round, the rest. */
    uint32_t nu = 0, nfair = 0;
    while (nu < n && pf__plan_job(b, b->run[nu])->rank == PF__RANK_URGENT) nu++;
    uint32_t *tmp = pf__plan_scratch(b, n ? n : 1u), t = 0; /* the planner's scratch is free again */
    if (!tmp) return 0;
    for (uint32_t k = nu; k < n; k++)
        if (pf__plan_job(b, b->run[k])->role) tmp[t++] = b->run[k];
    nfair = t;
    for (uint32_t k = nu; k < n; k++)
        if (!pf__plan_job(b, b->run[k])->role) tmp[t++] = b->run[k];
    /* entries: urgent (main), fair round (capped), then every non-urgent job in order (main; a
     * fair-round job's capped too under an expansion budget) */
    int exp_caps = b->mode == PF__MODE_EXP;
    /* every suspend slot held or owed: by the fair round, or by urgent searches beyond the urgent
     * slots (held counts them), which hold ordinary slots too */
    const int slots_full = held + (admit != PF__NONE) >= b->nspare_want;
    for (uint32_t k = 0; k < nu; k++) add_entry(b, b->run[k], 0, 0);
    for (uint32_t k = 0; k < nfair; k++) add_entry(b, tmp[k], 1, 1);
    for (uint32_t k = nu; k < n; k++) add_entry(b, b->run[k], 0, exp_caps && pf__plan_job(b, b->run[k])->role);
    memcpy(b->run + nu, tmp, (n - nu) * sizeof *b->run);
    if (b->mode == PF__MODE_EXP) {
        /* Lockstep's parallelism: the account is serial, so a run's work can be spread over
         * workers only as far as it is handed to several searches by rules fixed before the run.
         * Each fair-round search gets up to two quanta (its round's and its main entry's), and
         * their 2n quanta make the whole budget: n long searches in flight share a run evenly and
         * run side by side. The old rule (a quantum of E / (2(n + 1)) and an uncapped main entry)
         * gave the first of them the rest of the budget: on a rooms-2000 order log one search did
         * 50,000 of a run's 60,000 expansions while the other did 10,000, and 2 workers ran
         * frames 0.87x as long as 1. */
        uint64_t q = nfair ? (uint64_t)b->budget / (2u * (uint64_t)nfair) : (uint64_t)b->budget;
        b->quantum = q ? q : 1u;
        /* The rest of a budget that the 2n quanta do not divide went down the list to the rest of
         * the work, which with every slot held or owed by the fair round cannot keep what it is
         * not given in full: the oldest waiting search got those few units every run, found no
         * slot and started over (one slot, budget 7: 1 of each run's 7 expansions thrown away).
         * Then the rest goes to the fair round instead, a unit more to each of its first entries
         * (the round's, then the main ones), so that its caps make the whole budget. */
        if (nfair && q && slots_full) {
            uint64_t rest = (uint64_t)b->budget - 2u * (uint64_t)nfair * q; /* under 2n */
            for (uint32_t k = 0; k < nfair && rest; k++, rest--) b->entries[pf__plan_job(b, tmp[k])->ea].extra = 1;
            for (uint32_t k = 0; k < nfair && rest; k++, rest--) b->entries[pf__plan_job(b, tmp[k])->eb].extra = 1;
        }
    } else if (nfair) {
        /* The share kept for other work is kept only when there is some: with only the fair
         * round's searches left, a cap of workers / (n + 1) of the run ended every run early (on a
         * rooms-2000 log, 2.0-2.8 ms of a 4 ms budget used while long searches were in flight). */
        uint32_t others = n - nu - nfair;
        /* ... and only when that work could be kept: with every slot held or owed, a search of
         * the rest that outlasts the run has no spare to park in and its work is thrown away. On a
         * rooms-2000 log with more long orders than a 4 ms budget holds, the share went every run
         * to the oldest waiting crossing, which started, was dropped at the deadline, and started
         * again in the next run: a third of the expansions on one worker (pf_batch_stats.dropped).
         * The rest still runs in the time a fair-round search leaves when it finishes. */
        if (slots_full) others = 0;
        double share = b->max_s * (double)b->nworkers / (double)(nfair + (others ? 1u : 0u));
        b->fair_s = share < b->max_s ? share : 0.0;
        b->fair_at = nu; /* run[] holds the fair round here from the memcpy above */
        b->fair_n = nfair;
    }
    for (uint32_t e = 0; e <= b->nentries; e++) atomic_store_explicit(&b->fen[e], 0, memory_order_relaxed);
    return 1;
}

int pf__account_open(pf_batch *b, const pf_batch_budget *budget)
{
    if (!order_run(b, budget)) return 0;
    b->prepared = 1;
    return 1;
}

void pf__account_close(pf_batch *b)
{
    b->prepared = 0;
    b->run_jobs = 0;
}

int pf__account_may_take_slot(const pf_batch *b, const pf__job *j)
{
    if (j->role || j->rank == PF__RANK_URGENT) return 1;
    if (j->epoch != b->wait_epoch) return j->epoch < b->wait_epoch;
    if (j->rank != b->wait_rank) return j->rank < b->wait_rank;
    return j->pos <= b->wait_pos;
}

/* ---- during the run --------------------------------------------------------------------------- */

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

/* An entry's cap: the quantum (and its share of the budget's rest) where it is capped. */
static uint64_t entry_cap(const pf_batch *b, uint32_t e)
{
    return b->entries[e].fair ? b->quantum + b->entries[e].extra : UINT64_MAX;
}

/* min(cap, r) at the fair entry, the rest at the main (at most its cap where it is capped: what
 * an entry publishes never exceeds what it can be granted). */
void pf__account_publish(pf_batch *b, pf__job *j, uint64_t r)
{
    uint64_t a = 0, m = r, cap = entry_cap(b, j->eb);
    if (j->ea != PF__NONE) {
        uint64_t qa = entry_cap(b, j->ea);
        a = r < qa ? r : qa;
        m = r - a;
        fen_add(b, j->ea, a - j->pub_a);
    }
    if (m > cap) m = cap;
    fen_add(b, j->eb, m - j->pub_b);
    j->pub_a = a;
    j->pub_b = m;
}

uint64_t pf__account_allowed(pf_batch *b, const pf__job *j)
{
    long long E = b->budget;
    uint64_t base = 0, cap = entry_cap(b, j->eb);
    if (j->ea != PF__NONE) {
        uint64_t qa = entry_cap(b, j->ea);
        long long left = E - fen_before(b, j->ea);
        if (left < (long long)qa) return left > 0 ? (uint64_t)left : 0u;
        base = qa;
    }
    long long left = E - fen_before(b, j->eb);
    uint64_t m = left > 0 ? (uint64_t)left : 0u;
    if (m > cap) m = cap;
    return base + m;
}

uint32_t pf__account_claim(pf_batch *b, uint32_t want)
{
    if (b->budget == LLONG_MAX) return want;
    long long cur = atomic_load(&b->budget_left);
    for (;;) {
        if (cur <= 0) return 0;
        long long take = cur < (long long)want ? cur : (long long)want;
        if (atomic_compare_exchange_weak(&b->budget_left, &cur, cur - take)) return (uint32_t)take;
    }
}

void pf__account_give_back(pf_batch *b, uint64_t n)
{
    if (n && b->budget != LLONG_MAX) atomic_fetch_add(&b->budget_left, (long long)n);
}

int pf__account_time(pf_batch *b, pf__job *j, double now, double *t0, double *deadline, double *cap)
{
    int first = 0;
    if (*t0 == 0.0) {
        /* The budget runs from the run's first start, not this worker's: a worker woken late
         * (an idle core can take milliseconds to come back) shares the frame's deadline instead
         * of pushing the frame's end out by its lateness. */
        long long mine = (long long)(now * 1e9);
        long long seen = 0;
        if (atomic_compare_exchange_strong(&b->run_start_ns, &seen, mine)) first = 1;
        else mine = seen;
        *t0 = (double)mine * 1e-9;
    }
    *deadline = *t0 + b->max_s;
    /* fair round; a search taken after the jobs (AFTER THE JOBS) has nothing left to share with */
    const int capped = j->role && j->rank != PF__RANK_URGENT && b->fair_s > 0.0 &&
                       atomic_load(&j->capped) != PF__CAP_RESUMED;
    *cap = capped ? now + b->fair_s : 0.0;
    return first;
}

void pf__account_job_taken(pf_batch *b) { atomic_fetch_add(&b->jobs_taken, 1u); }

void pf__account_capped(pf__job *j)
{
    atomic_store(&j->capped, PF__CAP_STOPPED); /* publishes the parked state (held, rprog) too */
}

pf__job *pf__account_resume_capped(pf_batch *b)
{
    if (!b->fair_n || atomic_load(&b->jobs_taken) < b->run_jobs) return NULL;
    for (uint32_t k = b->fair_at; k < b->fair_at + b->fair_n; k++) {
        pf__job *j = pf__plan_job(b, b->run[k]);
        int want = PF__CAP_STOPPED;
        if (atomic_compare_exchange_strong(&j->capped, &want, PF__CAP_RESUMED)) return j;
    }
    return NULL;
}

/* ---- settling --------------------------------------------------------------------------------- */

/* What the account grants an entry: min(cap, what the search still needs, what is left). */
static uint64_t grant(uint64_t cap, uint64_t need, uint64_t left)
{
    uint64_t v = cap < need ? cap : need;
    return v < left ? v : left;
}

/* Drops a job's real search state (its context back to the spares); `lost`: the job is not done,
 * so that work will be done again. */
static void drop_state(pf_batch *b, pf__job *j, int lost)
{
    if (j->held && lost) b->st.dropped += j->rprog;
    if (j->held) pf__spare_put(b, j, j->held);
    j->held = NULL;
    j->rprog = 0;
    j->rdone = 0;
    j->consumed = 0;
}

static void settle_exp(pf_batch *b)
{
    uint64_t left = (uint64_t)b->budget, inf = UINT64_MAX;
    for (uint32_t i = 0; i < b->run_jobs; i++) pf__account_job(b, i)->pub_a = 0; /* reused: granted */
    for (uint32_t e = 0; e < b->nentries; e++) {
        pf__job *j = pf__plan_job(b, b->entries[e].job);
        uint64_t need = inf;
        /* (saturated: a redo that ended short of its units, sched_jobs.c's guard, needs none) */
        if (j->rdone) need = j->rprog > j->vprog + j->pub_a ? j->rprog - j->vprog - j->pub_a : 0;
        uint64_t v = grant(entry_cap(b, e), need, left);
        PF_ASSERT(j->rdone || v <= j->r - j->pub_a); /* the worker went at least this far */
        j->pub_a += v;
        left -= v;
    }
    /* Slots: urgent searches first, in budget order, then the other searches suspended before this
     * run, then the admitted job, then the others in order. Urgent work may take the whole budget,
     * so it must keep what it was granted: with every slot held by normal searches, a long urgent
     * search took the whole budget of each run, found no slot, and started over in the next, while
     * the holders were granted nothing (a livelock: `pathfind replay` of a 40-unit log never
     * finished under budgets of 2, 10 or 25 expansions). Now the first urgent search in budget
     * order, the one granted work, always keeps it and finishes in finitely many runs.
     * It keeps one of the urgent slots, which only urgent searches hold, so that it displaces no
     * normal search: one displaced so lost all it was granted, and a stream of long urgent orders
     * made the last holder start over each time (one slot, budget 50: a crossing alone in 102
     * frames arrived in frame 395, after the stream). Only urgent searches beyond the urgent
     * slots take the others, and a normal search they displace restarts later, as any search that
     * finds no slot does. */
    uint32_t kept = 0, kept_urgent = 0;
    for (int pass = 0; pass < 4; pass++) {
        for (uint32_t i = 0; i < b->run_jobs; i++) {
            pf__job *j = pf__account_job(b, i);
            uint32_t want = pass == 1 ? PF__ROLE_HELD : (pass == 2 ? PF__ROLE_ADMITTED : 0);
            if (j->state == PF__J_DONE || (pass == 0) != (j->rank == PF__RANK_URGENT)) continue;
            if (pass > 0 && j->role != want) continue;
            uint64_t v = j->vprog + j->pub_a;
            if (j->rdone && v >= j->rprog) {
                /* complete in the account: the worker wrote its results when it finished */
                PF_ASSERT(j->written);
                drop_state(b, j, 0);
                j->state = PF__J_DONE;
                continue;
            }
            if (j->written) pf__results_unwrite(b, j);
            /* a group whose members' own searches ran on its context: the finished state is gone
             * (a review: members read the last own search's records when written again, and
             * answered by the schedule); done again when due */
            if (j->consumed) drop_state(b, j, 1);
            if (j->rdone && !j->held) {
                b->st.dropped += j->rprog;
                j->rprog = 0; /* finished ahead of the account, short: done again when due */
                j->rdone = 0;
            }
            const int urgent_slot = pass == 0 && kept_urgent < PF__URGENT_SLOTS;
            if (v == 0) {
                drop_state(b, j, 1); /* nothing granted yet: work done ahead is not kept */
                j->state = PF__J_WAITING;
            } else if (urgent_slot || (kept < b->nspare_want && pf__account_may_take_slot(b, j))) {
                if (urgent_slot) kept_urgent++;
                else kept++;
                j->vprog = v;
                j->sliced = 1;
                if (j->state != PF__J_SUSPENDED) b->st.suspended++;
                j->state = PF__J_SUSPENDED;
            } else {
                drop_state(b, j, 1);
                j->vprog = 0;
                j->state = PF__J_WAITING;
                b->st.restarted++;
            }
        }
    }
}

void pf__account_settle(pf_batch *b)
{
    if (b->mode == PF__MODE_EXP) settle_exp(b);
    /* Unbudgeted and time-budgeted runs settle as they go: a job is done when its worker finished
     * it, and suspended when its worker could park it in a spare context. */
}

/* ---- memory ----------------------------------------------------------------------------------- */

int pf__account_reserve(pf_batch *b, uint32_t n)
{
    return PF__GROW(b, b->run, b->run_cap, n) && PF__GROW(b, b->entries, b->entries_cap, 2u * n + 1u) &&
           PF__GROW(b, b->fen, b->fen_cap, 2u * n + 2u);
}

size_t pf__account_mem_size(const pf_batch *b)
{
    return b->run_cap * sizeof *b->run + b->entries_cap * sizeof *b->entries + b->fen_cap * sizeof *b->fen;
}

void pf__account_free(pf_batch *b)
{
    pf__free(&b->alloc, b->run, b->run_cap * sizeof *b->run);
    pf__free(&b->alloc, b->entries, b->entries_cap * sizeof *b->entries);
    pf__free(&b->alloc, b->fen, b->fen_cap * sizeof *b->fen);
}

/* A run of qcap jobs: two entries each at most, and the Fenwick tree's one more. */
size_t pf__account_static_size(uint32_t qcap)
{
    size_t q = qcap;
    return pf__align64(q * sizeof(uint32_t)) + pf__align64((2u * q + 1u) * sizeof(pf__entry)) +
           pf__align64((2u * q + 2u) * sizeof(atomic_llong));
}

void pf__account_place(pf_batch *b, char **p, uint32_t qcap)
{
    size_t q = qcap;
    b->run = pf__carve(p, pf__align64(q * sizeof *b->run));
    b->entries = pf__carve(p, pf__align64((2u * q + 1u) * sizeof *b->entries));
    b->fen = pf__carve(p, pf__align64((2u * q + 2u) * sizeof *b->fen));
    b->run_cap = qcap;
    b->entries_cap = 2u * qcap + 1u;
    b->fen_cap = 2u * qcap + 2u;
}
