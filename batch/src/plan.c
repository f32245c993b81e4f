/* plan.c - the frame plan: who gets the budget in what order, and settling the account afterwards.
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
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "batch_internal.h"

void pf__query_done(pf_batch *b, uint32_t slot)
{
    pf__bquery *e = &b->q[slot];
    if (e->state == PF__Q_DONE) return;
    e->state = PF__Q_DONE;
    e->res.map_version = pf_map_version(b->map); /* runs never overlap an edit */
    if (e->cancel != PF_OK) return; /* already counted and unlinked when it was cancelled */
    pf__tag_remove(b, slot);
    b->pending--;
    b->st.completed++;
}

void pf__compact_jobs(pf_batch *b)
{
    uint32_t keep = 0, mkeep = 0;
    for (uint32_t i = 0; i < b->njobs; i++) {
        pf__job *j = &b->jobs[i];
        if (j->state == PF__J_DONE || j->state == PF__J_CANCELLED) continue;
        if (j->kind == PF__J_GROUP) {
            /* members of live groups move down in order (ranges were appended in job order) */
            memmove(&b->members[mkeep], &b->members[j->first], j->count * sizeof *b->members);
            j->first = mkeep;
            mkeep += j->count;
            for (uint32_t k = 0; k < j->count; k++) b->q[b->members[j->first + k]].job = keep;
        } else {
            b->q[j->query].job = keep;
        }
        if (keep != i) memcpy(&b->jobs[keep], j, sizeof *j);
        keep++;
    }
    b->njobs = keep;
    b->nmembers = mkeep;
    b->jobs_dirty = 0;
}

static uint32_t rank_of(pf_priority p)
{
    return p == PF_PRIORITY_URGENT ? PF__RANK_URGENT
                                   : (p == PF_PRIORITY_BACKGROUND ? PF__RANK_BACKGROUND : PF__RANK_NORMAL);
}

static void lower_rank(pf__job *j, const pf__bquery *e)
{
    uint32_t r = rank_of(e->q.priority);
    if (e->cancel == PF_OK && r < j->rank) j->rank = r;
}

/* Each job runs at the most urgent priority among the live queries it answers. */
static void set_ranks(pf_batch *b)
{
    for (uint32_t i = 0; i < b->njobs; i++) {
        pf__job *j = &b->jobs[i];
        j->rank = PF__RANK_NONE;
        if (j->kind == PF__J_SINGLE) lower_rank(j, &b->q[j->query]);
        else
            for (uint32_t k = 0; k < j->count; k++) lower_rank(j, &b->q[b->members[j->first + k]]);
    }
    for (uint32_t i = 0; i < b->ndups; i++) {
        const pf__bquery *e = &b->q[b->dups[i]];
        lower_rank(&b->jobs[b->q[e->canon].job], e);
    }
}


/* Budget order: priority, then run of submission, then the query's content (never submission
 * order, which lockstep peers may not share); seq only separates identical queries (NO_DEDUP). */
static int by_plan_key(const pf__job *a, const pf__job *b)
{
#define PF__CMP(f)                                                                                 \
    if (a->f != b->f) return a->f < b->f ? -1 : 1
    PF__CMP(rank);
    PF__CMP(epoch);
    PF__CMP(kind);
    PF__CMP(kgoal);
    PF__CMP(kstart);
    PF__CMP(khash);
    PF__CMP(seq);
#undef PF__CMP
    return 0;
}

static int by_est_desc(const pf__job *a, const pf__job *b)
{
    if (a->est != b->est) return a->est > b->est ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Heapsort of the run (job indices) by `cmp`, in place. Not qsort: glibc's mallocs a buffer for
 * arrays over 1 KiB, and a batch must not allocate per frame (one in caller memory not at all).
 * Both orders are total (seq is unique), so the result is the one any correct sort gives. */
static void sift_run(const pf__job *jobs, uint32_t *r, uint32_t i, uint32_t n,
                     int (*cmp)(const pf__job *, const pf__job *))
{
    for (;;) {
        uint32_t c = 2u * i + 1u;
        if (c >= n) return;
        if (c + 1u < n && cmp(&jobs[r[c + 1u]], &jobs[r[c]]) > 0) c++;
        if (cmp(&jobs[r[c]], &jobs[r[i]]) <= 0) return;
        uint32_t t = r[i];
        r[i] = r[c];
        r[c] = t;
        i = c;
    }
}

static void sort_run(const pf__job *jobs, uint32_t *r, uint32_t n, int (*cmp)(const pf__job *, const pf__job *))
{
    for (uint32_t i = n / 2u; i-- > 0;) sift_run(jobs, r, i, n, cmp);
    for (uint32_t k = n; k-- > 1u;) {
        uint32_t t = r[0];
        r[0] = r[k];
        r[k] = t;
        sift_run(jobs, r, 0, k, cmp);
    }
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
    for (uint32_t i = 0; i < b->njobs; i++) {
        pf__job *j = &b->jobs[i];
        if (j->kind == PF__J_GROUP) {
            pf_point g = pf_grid_point(b->map, b->q[b->members[j->first]].q.goal);
            double e0 = octile(g.x, g.y, j->bx0, j->by0), e1 = octile(g.x, g.y, j->bx1, j->by1);
            double e2 = octile(g.x, g.y, j->bx0, j->by1), e3 = octile(g.x, g.y, j->bx1, j->by0);
            j->est = fmax(fmax(e0, e1), fmax(e2, e3));
        } else {
            const pf_batch_query *q = &b->q[j->query].q;
            pf_point s = pf_grid_point(b->map, q->start), g = pf_grid_point(b->map, q->goal);
            if ((q->flags & PF_QUERY_FLOW) && g.x >= 0) { /* a field settles its whole component */
                j->est = octile(0, 0, (int32_t)pf_grid_width(b->map), (int32_t)pf_grid_height(b->map));
                continue;
            }
            /* bad endpoints (negative coordinates) are answered at once: last */
            j->est = s.x < 0 || g.x < 0 ? -1.0 : octile(s.x, s.y, g.x, g.y);
        }
    }
    sort_run(b->jobs, b->run, b->run_jobs, by_est_desc);
}

static void add_entry(pf_batch *b, uint32_t job, uint32_t fair)
{
    pf__job *j = &b->jobs[job];
    if (fair) j->ea = b->nentries;
    else j->eb = b->nentries;
    b->entries[b->nentries++] = (pf__entry){.job = job, .fair = fair};
}

int pf__plan_run(pf_batch *b, const pf_batch_budget *budget)
{
    uint32_t n = b->njobs;
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
    for (uint32_t w = 0; w < b->nworkers; w++) {
        b->workers[w].t0 = 0.0;
        b->workers[w].granted = 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        pf__job *j = &b->jobs[i];
        j->ea = j->eb = PF__NONE;
        j->role = 0;
        j->r = j->pub_a = j->pub_b = 0;
        atomic_store(&j->ran, 0);
        b->run[i] = i;
    }
    b->spare_owed = 0;
    if (b->mode == PF__MODE_FREE) {
        order_longest_first(b);
        return 1;
    }
    set_ranks(b);
    sort_run(b->jobs, b->run, n, by_plan_key);

    /* The fair round: every suspended non-urgent search, and (while a slot is free) the waiting
     * non-urgent job that has waited longest, by run of submission and then the order above. */
    uint32_t held = 0, admit = PF__NONE, next = PF__NONE;
    for (uint32_t i = 0; i < n; i++) held += b->jobs[i].state == PF__J_SUSPENDED;
    for (uint32_t k = 0; k < n; k++) {
        pf__job *j = &b->jobs[b->run[k]];
        j->pos = k;
        if (j->state == PF__J_SUSPENDED) {
            j->role = PF__ROLE_HELD;
        } else if (j->rank != PF__RANK_URGENT) {
            if (admit == PF__NONE || j->epoch < b->jobs[admit].epoch) {
                next = admit;
                admit = b->run[k];
            } else if (next == PF__NONE || j->epoch < b->jobs[next].epoch) {
                next = b->run[k];
            }
        }
    }
    if (held >= b->nspare_want) { /* no slot to admit into: the oldest waits at the head */
        next = admit;
        admit = PF__NONE;
    }
    if (admit != PF__NONE) b->jobs[admit].role = PF__ROLE_ADMITTED;
    /* A worker running ahead of the account must not take the context a slot holder will need:
     * measured under load, a search run ahead took the only free spare before the admitted long
     * search parked, every run, so that search lost its state and was redone from its start each
     * frame (its real work grew with the square of its length). */
    b->spare_owed = 0;
    for (uint32_t i = 0; i < n; i++) b->spare_owed += b->jobs[i].role && !b->jobs[i].held;
    b->wait_epoch = b->wait_rank = b->wait_pos = UINT32_MAX;
    if (next != PF__NONE) {
        b->wait_epoch = b->jobs[next].epoch;
        b->wait_rank = b->jobs[next].rank;
        b->wait_pos = b->jobs[next].pos;
    }
    /* Jobs in budget order: urgent, the fair round, the rest. */
    uint32_t nu = 0, nfair = 0;
    while (nu < n && b->jobs[b->run[nu]].rank == PF__RANK_URGENT) nu++;
    if (!PF__GROW(b, b->scratch, b->scratch_cap, n ? n : 1u)) return 0;
    uint32_t *tmp = b->scratch, t = 0; /* dedup's scratch is free again */
    for (uint32_t k = nu; k < n; k++)
        if (b->jobs[b->run[k]].role) tmp[t++] = b->run[k];
    nfair = t;
    for (uint32_t k = nu; k < n; k++)
        if (!b->jobs[b->run[k]].role) tmp[t++] = b->run[k];
    /* entries: urgent (main), fair round (capped), then every non-urgent job in order (main) */
    for (uint32_t k = 0; k < nu; k++) add_entry(b, b->run[k], 0);
    for (uint32_t k = 0; k < nfair; k++) add_entry(b, tmp[k], 1);
    for (uint32_t k = nu; k < n; k++) add_entry(b, b->run[k], 0);
    memcpy(b->run + nu, tmp, (n - nu) * sizeof *b->run);
    if (b->mode == PF__MODE_EXP) {
        uint64_t q = (uint64_t)b->budget / (2u * ((uint64_t)nfair + 1u));
        b->quantum = q ? q : 1u;
    } else if (nfair) {
        double share = b->max_s * (double)b->nworkers / (double)(nfair + 1u);
        b->fair_s = share < b->max_s ? share : 0.0;
    }
    for (uint32_t e = 0; e <= b->nentries; e++) atomic_store_explicit(&b->fen[e], 0, memory_order_relaxed);
    return 1;
}

int pf__may_take_slot(const pf_batch *b, const pf__job *j)
{
    if (j->role || j->rank == PF__RANK_URGENT) return 1;
    if (j->epoch != b->wait_epoch) return j->epoch < b->wait_epoch;
    if (j->rank != b->wait_rank) return j->rank < b->wait_rank;
    return j->pos <= b->wait_pos;
}

/* What the account grants an entry: min(cap, what the search still needs, what is left). */
static uint64_t grant(uint64_t cap, uint64_t need, uint64_t left)
{
    uint64_t v = cap < need ? cap : need;
    return v < left ? v : left;
}

/* Drops a job's real search state (its context back to the spares). */
static void drop_state(pf_batch *b, pf__job *j)
{
    if (j->held) pf__put_spare(b, j->held);
    j->held = NULL;
    j->rprog = 0;
    j->rdone = 0;
}

/* Expansion budgets: walks the account in order and settles each job of the run. */
static void settle_exp(pf_batch *b)
{
    uint64_t left = (uint64_t)b->budget, inf = UINT64_MAX;
    for (uint32_t i = 0; i < b->run_jobs; i++) b->jobs[b->run[i]].pub_a = 0; /* reused: granted */
    for (uint32_t e = 0; e < b->nentries; e++) {
        pf__job *j = &b->jobs[b->entries[e].job];
        uint64_t need = inf;
        if (j->rdone) need = j->rprog - j->vprog - j->pub_a;
        uint64_t v = grant(b->entries[e].fair ? b->quantum : inf, need, left);
        PF_ASSERT(j->rdone || v <= j->r - j->pub_a); /* the worker went at least this far */
        j->pub_a += v;
        left -= v;
    }
    /* Slots: suspended before this run first, then the admitted job, then the others in order. */
    uint32_t kept = 0;
    for (int pass = 0; pass < 3; pass++) {
        for (uint32_t i = 0; i < b->run_jobs; i++) {
            pf__job *j = &b->jobs[b->run[i]];
            uint32_t want = pass == 0 ? PF__ROLE_HELD : (pass == 1 ? PF__ROLE_ADMITTED : 0);
            if (j->role != want || j->state == PF__J_DONE) continue;
            uint64_t v = j->vprog + j->pub_a;
            if (j->rdone && v >= j->rprog) {
                /* complete in the account: the worker wrote its results when it finished */
                PF_ASSERT(j->written);
                drop_state(b, j);
                j->state = PF__J_DONE;
                continue;
            }
            if (j->written) pf__unwrite_results(b, j);
            if (j->rdone && !j->held) {
                j->rprog = 0; /* finished ahead of the account, short: done again when due */
                j->rdone = 0;
            }
            if (v == 0) {
                drop_state(b, j); /* nothing granted yet: work done ahead is not kept */
                j->state = PF__J_WAITING;
            } else if (kept < b->nspare_want && pf__may_take_slot(b, j)) {
                kept++;
                j->vprog = v;
                j->sliced = 1;
                if (j->state != PF__J_SUSPENDED) b->st.suspended++;
                j->state = PF__J_SUSPENDED;
            } else {
                drop_state(b, j);
                j->vprog = 0;
                j->state = PF__J_WAITING;
                b->st.restarted++;
            }
        }
    }
}

void pf__settle_run(pf_batch *b)
{
    if (b->mode == PF__MODE_EXP) settle_exp(b);
    /* Unbudgeted and time-budgeted runs settle as they go: a job is done when its worker finished
     * it, and suspended when its worker could park it in a spare context. */
}
